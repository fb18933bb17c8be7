//! Inputs, uniforms, invocation ids and outputs, following the `eu` ABI:
//! per-lane inputs and outputs go through SEND messages on the input and
//! output surfaces (address = invocation * 8 * slots + 8 * slot); uniforms
//! are scalars in the payload; invocation ids are in g1.

use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, Val};
use crate::coverage::hit;
use eu::{CondMod, Instruction, Message, MsgSize, Opcode, RegType};
use ir::{Instr, Op};

fn msg_size(bits: u8) -> MsgSize {
    match bits {
        1 | 8 => MsgSize::B8,
        16 => MsgSize::B16,
        32 => MsgSize::B32,
        _ => MsgSize::B64,
    }
}

impl Lower<'_> {
    /// A per-lane address: base + 8 * slot.
    fn address(&mut self, base: Loc, slot: u64) -> Loc {
        if slot == 0 {
            return base;
        }
        let a = self.new_loc(4);
        self.alu(
            Opcode::Add,
            dest(a, RegType::UD),
            &[view(base, RegType::UD), imm(8 * slot, RegType::UD)],
        );
        a
    }

    pub(crate) fn io(&mut self, i: &Instr) {
        match i.op {
            Op::LoadInput => {
                let d = i.dest.expect("loads define a value");
                let base = self
                    .in_addr
                    .expect("programs with inputs have an address base");
                let a = self.address(base, i.imm);
                let loc = self.new_loc(if d.bits == 64 { 8 } else { 4 });
                let mut s = Instruction::new(Opcode::Send, self.simd as u8);
                s.msg = Some(Message::Load {
                    size: msg_size(d.bits),
                    dst: loc.reg,
                    addr: a.reg,
                });
                self.v.insts.push(s);
                if d.bits == 1 {
                    hit(cov::IO_LOAD_BOOL);
                    self.compare(
                        d.id,
                        CondMod::Nz,
                        view(loc, RegType::UD),
                        imm(0, RegType::UD),
                    );
                } else {
                    self.set(d.id, Val::Grf(loc));
                }
            }
            Op::LoadUniform => {
                let d = i.dest.expect("loads define a value");
                let (reg, sub8) =
                    eu::abi::uniform_location(i.imm as u32, self.simd, crate::vir::GRF_BYTES);
                let loc = Loc {
                    reg,
                    off: sub8 * 8,
                    lane_bytes: 0,
                };
                if d.bits == 1 {
                    hit(cov::IO_LOAD_BOOL);
                    self.compare(
                        d.id,
                        CondMod::Nz,
                        view(loc, RegType::UD),
                        imm(0, RegType::UD),
                    );
                } else {
                    self.set(d.id, Val::Grf(loc));
                }
            }
            Op::InvocationId => {
                let d = i.dest.expect("defines a value");
                self.set(d.id, Val::Grf(Loc::vector(1, 4)));
            }
            Op::SubgroupInvocation => {
                let d = i.dest.expect("defines a value");
                let l = self.lane_id.expect("made in the prologue");
                self.set(d.id, Val::Grf(l));
            }
            Op::StoreOutput => self.store(i),
            Op::Demote | Op::Terminate | Op::IsHelperInvocation => self.helper(i),
            other => unreachable!("{} is not an I/O op", other.name()),
        }
    }

    fn store(&mut self, i: &Instr) {
        let v = i.srcs[0];
        let bits = self.bits[v.0 as usize];
        let base = self
            .out_addr
            .expect("programs with outputs have an address base");
        let a = self.address(base, i.imm);
        // The data payload is a dword (qword) per lane from a register start.
        let data = if bits == 1 {
            hit(cov::IO_STORE_BOOL);
            let (src, _) = self.bool_operand(v);
            let t = self.new_loc(4);
            self.mov(dest(t, RegType::D), src.negated());
            t
        } else {
            let loc = self.loc(v);
            let lanes = if bits == 64 { 8 } else { 4 };
            if loc.off == 0 && loc.lane_bytes == lanes {
                loc
            } else {
                hit(cov::IO_STORE_REPACKED);
                let t = self.new_loc(lanes);
                // Packed words are spread one per dword (the message takes
                // a dword per lane; it stores the low bytes).
                let ty = super::container_copy_ty(bits);
                self.mov(dest(t, ty), view(loc, ty));
                t
            }
        };
        let mut s = Instruction::new(Opcode::Send, self.simd as u8);
        s.msg = Some(Message::Store {
            size: msg_size(bits),
            addr: a.reg,
            data: data.reg,
        });
        // Helpers store nothing (brw_emit_predicate_on_sample_mask). Injected
        // bug (BUGS.md: helper-store-unpredicated): the predicate is left off.
        if self.live.is_some() && !self.bugs.has(crate::bugs::Bug::HelperStoreUnpredicated) {
            self.predicate_on_live(&mut s);
        }
        self.v.insts.push(s);
    }
}
