//! Dead code elimination (brw `dead_code_eliminate`, EU-MODEL §5.2).
//!
//! Walks every block backwards from its live-out set (see `liveness.rs`:
//! per-byte GRF liveness, per-flag-byte flag liveness, lane and raw views).
//! An instruction that is not control flow, not a SEND and not a NOP is
//!
//! * **deleted** when none of the GRF bytes it writes is live and none of
//!   the flag bytes it writes is live;
//! * given a **null destination** (type and stride kept, so the flag result
//!   and the validator's layout rules are unchanged) when its GRF result is
//!   dead but its flag result is live (typically a CMP feeding only a
//!   predicate);
//! * stripped of its **cmod** when the flag bytes it writes are dead but its
//!   GRF result is live — never for CMP, CMPN, SEL or CSEL, whose cmod
//!   defines the operation.
//!
//! Writes to the flag register as a data destination count as flag writes.
//! The walk applies its own edits as it goes, so chains of dead code inside a
//! block disappear in one run; the pass manager's fixpoint does the rest.

use super::liveness::Liveness;
use super::ops::Access;
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{DstKind, Opcode};

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, _ctx: &PassCtx) -> bool {
    let Some(live) = Liveness::compute(p) else {
        return false;
    };
    let mut changed = false;
    for b in 0..live.cfg.blocks.len() {
        live.walk_back(b, |i, after| {
            let inst = &mut p.insts[i];
            let a = &live.access[i];
            if inst.op.is_cf()
                || inst.op == Opcode::Send
                || inst.op == Opcode::Nop
                || !inst.op.has_dst()
            {
                return a.clone();
            }
            let grf_live = after.any_live(&a.writes);
            let flag_live = a.flag_writes & after.flags() != 0;
            if !grf_live && !flag_live {
                inst.op = Opcode::Nop;
                changed = true;
                return Access::default();
            }
            let mut a = a.clone();
            if !grf_live && matches!(inst.dst.kind, DstKind::Grf { .. }) {
                inst.dst.kind = DstKind::Null;
                a.writes.clear();
                a.kill = None;
                changed = true;
            }
            let defines_op = matches!(
                inst.op,
                Opcode::Cmp | Opcode::Cmpn | Opcode::Sel | Opcode::Csel
            );
            let cmod_flags = if inst.writes_flag() {
                super::ops::flag_bytes(
                    super::ops::flag_channel_bits(inst).0,
                    super::ops::flag_channel_bits(inst).1,
                )
            } else {
                0
            };
            if inst.writes_flag()
                && !defines_op
                && cmod_flags & after.flags() == 0
                && !matches!(inst.dst.kind, DstKind::Null)
            {
                inst.cmod = None;
                a.flag_writes &= !cmod_flags;
                a.flag_kill_lane &= !cmod_flags;
                a.flag_kill_full &= !cmod_flags;
                changed = true;
            }
            a
        });
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{apply, canon, check_preserves, vprog};

    const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\n";

    #[test]
    fn removes_dead_alu_and_keeps_stores() {
        let text = format!("{HEAD}add(8) g4<1>D g3<8,8,1>D 1D\nmul(8) g5<1>F g3<8,8,1>F g3<8,8,1>F\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};");
        let mut p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1)]);
        assert!(apply(&mut p, run));
        assert_eq!(
            p.text(),
            canon(&format!(
                "{HEAD}add(8) g4<1>D g3<8,8,1>D 1D\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};"
            ))
        );
        assert!(!apply(&mut p, run));
    }

    #[test]
    fn cmp_with_live_flag_gets_null_destination() {
        let text = format!("{HEAD}cmp.l.f0.0(8) g4<1>D g3<8,8,1>D 5D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 0D\nsend(8) null g2 g5 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1)]);
        let q = check_preserves(&p, run, 11, &|k| k as u64 * 3);
        assert_eq!(q.text(), canon(&format!("{HEAD}cmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 0D\nsend(8) null g2 g5 st.b32 {{ align1 1Q EOT }};")));
    }

    #[test]
    fn dead_cmod_is_dropped_but_not_on_cmp_or_sel() {
        // add.nz's flag is overwritten by the SIMD8 cmp before any read.
        let text = format!("{HEAD}add.nz.f0.0(8) g4<1>D g3<8,8,1>D 1D\ncmp.z.f0.0(8) null<1>D g3<8,8,1>D 0D\n(+f0.0) sel(8) g5<1>D g4<8,8,1>D 7D\nsel.l(8) g6<1>D g5<8,8,1>D 9D\nsend(8) null g2 g6 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]);
        let q = check_preserves(&p, run, 8, &|k| k as u64);
        assert_eq!(q.text(), canon(&text.replace("add.nz.f0.0(8)", "add(8)")));
    }

    #[test]
    fn partial_and_predicated_flag_writes_do_not_kill() {
        // Two SIMD8 halves write f0.0 bytes 0 and 1; a SIMD4 write covers half
        // a byte; a predicated cmp writes only some channels. All earlier
        // writes stay live (bugs 0fec265373f, c3d7caa1e00).
        let text = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\ncmp.l.f0.0(16) null<1>D g5<8,8,1>D 3D\ncmp.l.f0.0(8) null<1>D g5<8,8,1>D 5D\ncmp.g.f0.0(4) null<1>D g5<4,4,1>D 6D\n(+f0.0) cmp.z.f0.0(8) null<1>D g5<8,8,1>D 7D\n(+f0.0) sel(16) g7<1>D g5<8,8,1>D 0D\nsend(16) null g3 g7 st.b32 { align1 1H EOT };";
        let p = vprog(16, text, &[(3, 2), (5, 2), (7, 2)]);
        let q = check_preserves(&p, run, 16, &|k| k as u64);
        assert_eq!(q.text(), canon(text));
    }

    #[test]
    fn full_simd16_write_kills_earlier_halves() {
        let text = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\ncmp.l.f0.0(8) null<1>D g5<8,8,1>D 3D\ncmp.l.f0.0(8) null<1>D g6<8,8,1>D 3D { align1 2Q };\ncmp.g.f0.0(16) null<1>D g5<8,8,1>D 4D\n(+f0.0) sel(16) g7<1>D g5<8,8,1>D 0D\nsend(16) null g3 g7 st.b32 { align1 1H EOT };";
        let p = vprog(16, text, &[(3, 2), (5, 2), (7, 2)]);
        let q = check_preserves(&p, run, 13, &|k| k as u64);
        assert_eq!(
            q.text(),
            canon("shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\ncmp.g.f0.0(16) null<1>D g5<8,8,1>D 4D\n(+f0.0) sel(16) g7<1>D g5<8,8,1>D 0D\nsend(16) null g3 g7 st.b32 { align1 1H EOT };")
        );
    }

    #[test]
    fn write_in_one_arm_keeps_the_value_for_the_other() {
        // g4 = 1 before the IF; the then-part overwrites it (masked); the
        // else-part keeps it. The first write must stay.
        let text = format!("{HEAD}mov(8) g4<1>D 1D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 4D\n(+f0.0) if(8) JIP: L0 UIP: L0\nmov(8) g4<1>D 2D\nL0:\nendif(8) JIP: L1\nL1:\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1)]);
        let q = check_preserves(&p, run, 8, &|k| k as u64);
        assert_eq!(q.text(), canon(&text));
    }

    #[test]
    fn nomask_prefill_read_raw_survives() {
        // Identity prefill (NoMask), masked overwrite, NoMask horizontal use.
        let text = format!("{HEAD}mov(8) g4<1>D 0D {{ align1 WE_all 1Q }};\nmov(8) g4<1>D g3<8,8,1>D\nadd(8) g5<1>D g4<8,8,1>D g4.7<0,1,0>D {{ align1 WE_all 1Q }};\nsend(8) null g2 g5 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1)]);
        let q = check_preserves(&p, run, 5, &|k| k as u64 + 1);
        assert_eq!(q.text(), canon(&text));
    }
}
