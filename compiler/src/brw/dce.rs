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
//!
//! Flag kills follow `ops::access`: a flag write kills only the flag
//! **bytes** it fully covers (so two SIMD8 halves, groups 0 and 8, of one
//! 16-bit subregister each kill only their own byte, 0fec265373f), and only
//! when it is unpredicated (a predicated write leaves the channels whose
//! predicate is false alone, c3d7caa1e00).

/// The pass's decision points (`crate::coverage`).
#[path = "dce_cov.rs"]
pub mod cov;

use super::liveness::{LiveSet, Liveness};
use super::ops::{access, Access};
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{DstKind, Instruction, Opcode};
use std::borrow::Cow;

/// Flag bytes `m` widened to whole 16-bit subregisters (byte pairs).
fn whole_subregs(m: u8) -> u8 {
    let lo = m & 0b0101_0101;
    let hi = m & 0b1010_1010;
    m | lo << 1 | hi >> 1
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    let Some(live) = Liveness::compute(p) else {
        return false;
    };
    let mut changed = false;
    for b in 0..live.cfg.blocks.len() {
        live.walk_back(b, |i, after| {
            // Edited on a copy, written back only when it changed: a
            // program left unchanged keeps its identity, and one changed
            // knows which instructions did ([`crate::insts`]).
            let mut copy = p.insts[i];
            let mut this = false;
            let fp = visit(&mut copy, &live.access[i], after, ctx, &mut this);
            if this {
                p.insts[i] = copy;
                changed = true;
            }
            fp
        });
    }
    changed
}

/// Visits `inst` (footprint `a`) given what is live after it: deletes it or
/// drops its dead results, setting `changed`; returns the footprint to
/// carry on with.
fn visit<'a>(
    inst: &mut Instruction,
    a: &'a Access,
    after: &LiveSet,
    ctx: &PassCtx,
    changed: &mut bool,
) -> Cow<'a, Access> {
    if inst.op == Opcode::Send {
        if !a.writes.is_empty() && !after.any_live(&a.writes) {
            hit(cov::REFUSE_SEND);
        }
        return Cow::Borrowed(a);
    }
    if inst.op.is_cf() || inst.op == Opcode::Nop || !inst.op.has_dst() {
        return Cow::Borrowed(a);
    }
    let grf_live = after.any_live(&a.writes);
    let flag_live = a.flag_writes & after.flags() != 0;
    if !grf_live && !flag_live {
        hit(cov::REMOVE);
        if a.flag_writes != 0 {
            hit(cov::REMOVE_FLAG_WRITER);
        }
        inst.op = Opcode::Nop;
        *changed = true;
        return Cow::Owned(Access::default());
    }
    // Copied only when edited: most live instructions keep their
    // footprint.
    let mut a = Cow::Borrowed(a);
    if !grf_live && matches!(inst.dst.kind, DstKind::Grf { .. }) {
        hit(cov::NULL_DST);
        inst.dst.kind = DstKind::Null;
        let a = a.to_mut();
        a.writes.clear();
        a.kill = None;
        *changed = true;
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
    let cmod_dead = inst.writes_flag()
        && cmod_flags & after.flags() == 0
        && !matches!(inst.dst.kind, DstKind::Null);
    if cmod_dead && defines_op {
        hit(cov::REFUSE_CMOD_DEFINES_OP);
    }
    if cmod_dead && !defines_op {
        hit(cov::REMOVE_CMOD);
        inst.cmod = None;
        let a = a.to_mut();
        a.flag_writes &= !cmod_flags;
        a.flag_kill_lane &= !cmod_flags;
        a.flag_kill_full &= !cmod_flags;
        *changed = true;
    }
    // Flag bytes the buggy kills would add that are live here and
    // not read again by the instruction itself.
    let own_reads = a.flag_lane_reads | a.flag_raw_reads;
    let halves = (whole_subregs(a.flag_kill_lane) & !a.flag_kill_lane
        | whole_subregs(a.flag_kill_full) & !a.flag_kill_full)
        & after.flags()
        & !own_reads;
    if halves != 0 {
        if ctx.bugs.has(Bug::DceFlagHalves) {
            // Injected bug (BUGS.md: dce-flag-halves): flag liveness
            // at 16-bit subregister granularity, so a write covering
            // one byte (a SIMD8 half) kills the whole subregister,
            // including the other half's live bits.
            let a = a.to_mut();
            a.flag_kill_lane = whole_subregs(a.flag_kill_lane);
            a.flag_kill_full = whole_subregs(a.flag_kill_full);
        } else {
            hit(cov::REFUSE_HALF_KILL);
        }
    }
    // The flag bytes a kill here would matter for; the unpredicated
    // footprint is worked out only when there are some.
    let killable = a.flag_writes & after.flags() & !own_reads;
    let unpred = if inst.pred.is_some() && killable != 0 {
        let mut u = *inst;
        u.pred = None;
        access(&u)
    } else {
        Access::default()
    };
    let pred_kill = (unpred.flag_kill_lane | unpred.flag_kill_full) & killable;
    if pred_kill != 0 {
        if ctx.bugs.has(Bug::DcePredicatedKill) {
            // Injected bug (BUGS.md: dce-predicated-kill): a
            // predicated flag write kills like an unpredicated one,
            // although the channels whose predicate is false keep
            // their old bits.
            let a = a.to_mut();
            a.flag_kill_lane |= unpred.flag_kill_lane & a.flag_writes;
            a.flag_kill_full |= unpred.flag_kill_full & a.flag_writes;
        } else {
            hit(cov::REFUSE_PREDICATED_KILL);
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{apply, apply_with_bugs, canon, check_preserves, outputs, vprog};
    use crate::bugs::BugSet;

    const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\n";

    #[test]
    fn removes_dead_alu_and_keeps_stores() {
        let text = format!("{HEAD}add(8) g4<1>D g3<8,8,1>D 1D\nmul(8) g5<1>F g3<8,8,1>F g3<8,8,1>F\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};");
        let mut p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1)]);
        assert!(apply(&mut p, run));
        assert_eq!(
            p.text_compact(),
            canon(&format!(
                "{HEAD}add(8) g4<1>D g3<8,8,1>D 1D\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};"
            ))
        );
        assert!(!apply(&mut p, run));
    }

    #[test]
    fn coverage_records_the_removal_and_the_refusal() {
        // The add is dead; the first cmp's flag is dead (the second cmp
        // overwrites f0.0) but a CMP's cmod is its operation.
        let text = format!("{HEAD}cmp.l.f0.0(8) g4<1>D g3<8,8,1>D 5D\ncmp.g.f0.0(8) null<1>D g3<8,8,1>D 1D\n(+f0.0) sel(8) g5<1>D g4<8,8,1>D 0D\nadd(8) g6<1>D g3<8,8,1>D 1D\nsend(8) null g2 g5 st.b32 {{ align1 1Q EOT }};");
        let mut p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]);
        let rec = crate::coverage::Recording::start();
        assert!(apply(&mut p, run));
        let hits = rec.finish();
        assert_eq!(
            p.text_compact(),
            canon(&text.replace("add(8) g6<1>D g3<8,8,1>D 1D\n", ""))
        );
        assert_eq!(
            hits,
            crate::coverage::Hits::from([
                (cov::REMOVE.name(), 1),
                (cov::REFUSE_CMOD_DEFINES_OP.name(), 1),
            ])
        );
    }

    #[test]
    fn cmp_with_live_flag_gets_null_destination() {
        let text = format!("{HEAD}cmp.l.f0.0(8) g4<1>D g3<8,8,1>D 5D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 0D\nsend(8) null g2 g5 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1)]);
        let q = check_preserves(&p, run, 11, &|k| k as u64 * 3);
        assert_eq!(q.text_compact(), canon(&format!("{HEAD}cmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 0D\nsend(8) null g2 g5 st.b32 {{ align1 1Q EOT }};")));
    }

    #[test]
    fn dead_cmod_is_dropped_but_not_on_cmp_or_sel() {
        // add.nz's flag is overwritten by the SIMD8 cmp before any read.
        let text = format!("{HEAD}add.nz.f0.0(8) g4<1>D g3<8,8,1>D 1D\ncmp.z.f0.0(8) null<1>D g3<8,8,1>D 0D\n(+f0.0) sel(8) g5<1>D g4<8,8,1>D 7D\nsel.l(8) g6<1>D g5<8,8,1>D 9D\nsend(8) null g2 g6 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]);
        let q = check_preserves(&p, run, 8, &|k| k as u64);
        assert_eq!(
            q.text_compact(),
            canon(&text.replace("add.nz.f0.0(8)", "add(8)"))
        );
    }

    #[test]
    fn partial_and_predicated_flag_writes_do_not_kill() {
        // Two SIMD8 halves write f0.0 bytes 0 and 1; a SIMD4 write covers half
        // a byte; a predicated cmp writes only some channels. All earlier
        // writes stay live (bugs 0fec265373f, c3d7caa1e00).
        let text = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\ncmp.l.f0.0(16) null<1>D g5<8,8,1>D 3D\ncmp.l.f0.0(8) null<1>D g5<8,8,1>D 5D\ncmp.g.f0.0(4) null<1>D g5<4,4,1>D 6D\n(+f0.0) cmp.z.f0.0(8) null<1>D g5<8,8,1>D 7D\n(+f0.0) sel(16) g7<1>D g5<8,8,1>D 0D\nsend(16) null g3 g7 st.b32 { align1 1H EOT };";
        let p = vprog(16, text, &[(3, 2), (5, 2), (7, 2)]);
        let q = check_preserves(&p, run, 16, &|k| k as u64);
        assert_eq!(q.text_compact(), canon(text));
    }

    #[test]
    fn full_simd16_write_kills_earlier_halves() {
        let text = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\ncmp.l.f0.0(8) null<1>D g5<8,8,1>D 3D\ncmp.l.f0.0(8) null<1>D g6<8,8,1>D 3D { align1 2Q };\ncmp.g.f0.0(16) null<1>D g5<8,8,1>D 4D\n(+f0.0) sel(16) g7<1>D g5<8,8,1>D 0D\nsend(16) null g3 g7 st.b32 { align1 1H EOT };";
        let p = vprog(16, text, &[(3, 2), (5, 2), (7, 2)]);
        let q = check_preserves(&p, run, 13, &|k| k as u64);
        assert_eq!(
            q.text_compact(),
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
        assert_eq!(q.text_compact(), canon(&text));
    }

    #[test]
    fn nomask_prefill_read_raw_survives() {
        // Identity prefill (NoMask), masked overwrite, NoMask horizontal use.
        let text = format!("{HEAD}mov(8) g4<1>D 0D {{ align1 WE_all 1Q }};\nmov(8) g4<1>D g3<8,8,1>D\nadd(8) g5<1>D g4<8,8,1>D g4.7<0,1,0>D {{ align1 WE_all 1Q }};\nsend(8) null g2 g5 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1), (5, 1)]);
        let q = check_preserves(&p, run, 5, &|k| k as u64 + 1);
        assert_eq!(q.text_compact(), canon(&text));
    }

    /// SIMD16: two SIMD8 CMPs (groups 0 and 8) write the two bytes of f0.0,
    /// a SIMD16 predicated SEL reads both.
    const HALVES: &str = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\ncmp.l.f0.0(8) null<1>D g5<8,8,1>D 3D\ncmp.l.f0.0(8) null<1>D g6<8,8,1>D 3D { align1 2Q };\n(+f0.0) sel(16) g7<1>D g5<8,8,1>D 0D\nsend(16) null g3 g7 st.b32 { align1 1H EOT };";

    #[test]
    fn two_simd8_halves_of_one_subregister_both_live() {
        let p = vprog(16, HALVES, &[(3, 2), (5, 2), (7, 2)]);
        let q = check_preserves(&p, run, 16, &|k| k as u64);
        assert_eq!(q.text_compact(), canon(HALVES));
    }

    #[test]
    fn dce_flag_halves_kills_the_other_half() {
        // With per-subregister flag liveness the 2Q write kills byte 0 too,
        // so the 1Q CMP looks dead and goes; lanes 0-7 then select with
        // whatever f0.0 held (garbage).
        let p = vprog(16, HALVES, &[(3, 2), (5, 2), (7, 2)]);
        let mut q = p.clone();
        assert!(apply_with_bugs(
            &mut q,
            run,
            BugSet::NONE.with(Bug::DceFlagHalves)
        ));
        assert_eq!(
            q.text_compact(),
            canon("shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\ncmp.l.f0.0(8) null<1>D g6<8,8,1>D 3D { align1 2Q };\n(+f0.0) sel(16) g7<1>D g5<8,8,1>D 0D\nsend(16) null g3 g7 st.b32 { align1 1H EOT };")
        );
        let input = |k: u32| k as u64;
        assert!((0..4).any(|seed| outputs(&p, 16, &input, seed) != outputs(&q, 16, &input, seed)));
    }

    /// A predicated CMP after an unpredicated one on the same flag: the
    /// second only updates the channels where the first was true, so the
    /// result is the AND of both and the first stays needed.
    const PRED_AFTER_UNPRED: &str = "cmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) cmp.g.f0.0(8) null<1>D g3<8,8,1>D 1D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 0D\nsend(8) null g2 g4 st.b32 { align1 1Q EOT };";

    #[test]
    fn predicated_cmp_after_unpredicated_both_needed() {
        let text = format!("{HEAD}{PRED_AFTER_UNPRED}");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1)]);
        let q = check_preserves(&p, run, 8, &|k| k as u64);
        assert_eq!(q.text_compact(), canon(&text));
        // The injected bug cannot bite here: the predicate and the cmod share
        // one flag field, so the predicated CMP reads (as its predicate) every
        // flag byte it writes and the kill is undone by its own read.
        let mut r = p.clone();
        apply_with_bugs(&mut r, run, BugSet::NONE.with(Bug::DcePredicatedKill));
        assert_eq!(r.text_compact(), canon(&text));
    }

    #[test]
    fn predicated_flag_data_write_does_not_kill() {
        // A scalar NoMask write of f0.0 as data, predicated on lane 0's bit of
        // f1.0: where that bit is clear f0.0 keeps the CMP's result. With the
        // injected bug the predicated write kills f0.0 and the CMP goes.
        let text = format!("{HEAD}cmp.z.f1.0(8) null<1>D g3<8,8,1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f1.0) mov(1) f0.0<1>UW 0x0000UW {{ align1 WE_all 1N }};\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 0D\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1)]);
        let input = |k: u32| k as u64 + 1;
        let q = check_preserves(&p, run, 8, &input);
        assert_eq!(q.text_compact(), canon(&text));
        let mut r = p.clone();
        assert!(apply_with_bugs(
            &mut r,
            run,
            BugSet::NONE.with(Bug::DcePredicatedKill)
        ));
        assert_eq!(
            r.text_compact(),
            canon(&format!("{HEAD}cmp.z.f1.0(8) null<1>D g3<8,8,1>D 0D\n(+f1.0) mov(1) f0.0<1>UW 0x0000UW {{ align1 WE_all 1N }};\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 0D\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};"))
        );
        assert!((0..4).any(|seed| outputs(&p, 8, &input, seed) != outputs(&r, 8, &input, seed)));
    }

    #[test]
    fn vote_any_into_a_flag_keeps_its_zero_fill() {
        // The shape a flag-resident vote_any would have: f0.1 = 0, then
        // f0.1 = ~0 predicated on any8h of the lanes' compare bits in f0.0.
        // The predicated write may not happen, so the zero fill stays live;
        // with dce-predicated-kill it goes and f0.1 keeps garbage when no
        // lane votes (all inputs >= 5 here).
        let text = format!("{HEAD}mov(1) f0.0<1>UW 0x0000UW {{ align1 WE_all 1N }};\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\nmov(1) f0.1<1>UW 0x0000UW {{ align1 WE_all 1N }};\n(+f0.0.any8h) mov(1) f0.1<1>UW 0xffffUW {{ align1 WE_all 1N }};\n(+f0.1) sel(8) g4<1>D g3<8,8,1>D 0D\nsend(8) null g2 g4 st.b32 {{ align1 1Q EOT }};");
        let p = vprog(8, &text, &[(2, 1), (3, 1), (4, 1)]);
        let input = |k: u32| k as u64 + 5;
        let q = check_preserves(&p, run, 8, &input);
        assert_eq!(q.text_compact(), canon(&text));
        let mut r = p.clone();
        assert!(apply_with_bugs(
            &mut r,
            run,
            BugSet::NONE.with(Bug::DcePredicatedKill)
        ));
        assert_eq!(
            r.text_compact(),
            canon(&text.replace("mov(1) f0.1<1>UW 0x0000UW { align1 WE_all 1N };\n", ""))
        );
        assert!((0..4).any(|seed| outputs(&p, 8, &input, seed) != outputs(&r, 8, &input, seed)));
    }
}
