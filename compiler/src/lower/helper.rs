//! Helper invocations (seed 004): `demote`, `terminate` and
//! `is_helper_invocation`, as brw runs them, with the live-pixel mask in a
//! GRF instead of brw's f1.0 (the flag strategy owns the flags).
//!
//! - The prologue sets a dword per lane to ~0 (NoMask) when the program
//!   demotes or asks whether it is a helper.
//! - `demote` clears the active lanes' dwords: they keep running (a
//!   derivative still sees them), but every store is predicated on the
//!   mask (`cmp.nz` into the scratch flag, then `(+f0.0) send`), as brw
//!   predicates a fragment shader's writes on the sample mask.
//! - `is_helper_invocation` is the mask compared with 0.
//! - `terminate` is a HALT of the active lanes, per channel as brw halts
//!   for terminate (helpers are kept only by demote), to the halt target:
//!   the EOT, outside all control flow. A halted lane runs nothing more and
//!   is in no later execution mask, so a ballot no longer counts it.

use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, SCRATCH_FLAG};
use crate::coverage::hit;
use eu::{CondMod, Dst, Instruction, Opcode, Predicate, RegType};
use ir::{Instr, Op};

impl Lower<'_> {
    /// The live mask, all ones (made in the prologue).
    pub(crate) fn live_mask(&mut self) -> Loc {
        let live = self.new_loc(4);
        let mut init = Instruction::alu(
            Opcode::Mov,
            self.simd as u8,
            dest(live, RegType::UD),
            &[imm(u64::MAX, RegType::UD)],
        );
        init.we_all = true;
        self.emit(init);
        live
    }

    /// Predicates `inst` on the lanes that have not demoted.
    pub(crate) fn predicate_on_live(&mut self, inst: &mut Instruction) {
        let live = self.live.expect("made in the prologue");
        hit(cov::HELPER_STORE_PREDICATED);
        self.alu_cmod(
            Opcode::Cmp,
            CondMod::Nz,
            SCRATCH_FLAG,
            Dst::null(RegType::UD),
            &[view(live, RegType::UD), imm(0, RegType::UD)],
        );
        inst.pred = Some(Predicate::NORMAL);
        inst.flag = SCRATCH_FLAG;
    }

    pub(crate) fn helper(&mut self, i: &Instr) {
        match i.op {
            Op::Demote => {
                hit(cov::HELPER_DEMOTE);
                let live = self.live.expect("made in the prologue");
                self.mov(dest(live, RegType::UD), imm(0, RegType::UD));
            }
            Op::IsHelperInvocation => {
                hit(cov::HELPER_IS_HELPER);
                let d = i.dest.expect("defines a value").id;
                let live = self.live.expect("made in the prologue");
                self.compare(d, CondMod::Z, view(live, RegType::UD), imm(0, RegType::UD));
            }
            Op::Terminate => {
                hit(cov::HELPER_TERMINATE);
                self.halts.push(self.v.insts.len());
                self.v
                    .insts
                    .push(Instruction::new(Opcode::Halt, self.simd as u8));
            }
            other => unreachable!("{} is not a helper op", other.name()),
        }
    }
}
