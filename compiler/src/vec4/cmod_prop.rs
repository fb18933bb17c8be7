//! vec4 conditional-modifier propagation (`brw_vec4_cmod_propagation.cpp`,
//! the optimization seed 002's patch series adds, with the writemask and
//! swizzle checks of 995d9937103).
//!
//! A null-destination `cmp.cm null X 0`, or `mov.nz null X`, tests a value
//! an earlier instruction of the block produced. Scanning back from it to
//! the instruction that wrote X (the first one whose destination overlaps
//! what it reads; a flag write or a predicated producer on the way stops
//! the scan):
//!
//! * **remove** it when that producer already wrote the same flag with the
//!   same meaning: a CMP (whose 0/~0 result is non-zero exactly where its
//!   flag bit is set) under a `.nz` test of a D/UD view, or any producer
//!   carrying `.nz` itself;
//! * otherwise **fold** the test into the producer (it takes the cmod and
//!   the flag register) when the producer can carry one, has none, is not
//!   saturated, writes exactly the test's type, and no flag read lies
//!   between them.
//!
//! A `cmp.l`/`cmp.g null A B` with B not zero folds into an `add X A -B`
//! (float only: an integer ADD can overflow where the compare does not,
//! df9dbc03d3d; and only < and >: inf - inf is NaN where inf == inf) when
//! the ADD's operands are the compare's, swizzles included, neither was
//! written since, and no flag read lies between.
//!
//! The scan never leaves the test's block: the first instruction of a loop
//! starts one, and a producer before the loop wrote the flag once, not on
//! every iteration.
//!
//! Why it is sound, per component: the test writes flag bit c of every
//! component c of its writemask from component swizzle(c) of its source.
//! Every rewrite requires each such c to be written by the producer
//! (c in its writemask) from the same component (swizzle(c) = c, vertical
//! stride 4), so the producer's flag bit c is the test's; a fold also
//! requires the producer's writemask to be exactly the test's, so it writes
//! no flag bit the test did not. These are the checks 995d9937103 added
//! (the injected bug `vec4-cmod-prop-writemask` drops them).

use crate::brw::cfg::Cfg;
use crate::brw::ops::{overlaps, shared_access, src_footprint};
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{CondMod, DstKind, Instruction, Opcode, RegType, Src, SrcKind};

crate::points! {
    /// The test was removed: its producer already wrote the flag.
    REMOVE = "vec4:cmod-prop/remove/producer-wrote-flag",
    /// The test was folded into its producer, which now writes the flag.
    FOLD = "vec4:cmod-prop/fold-into-producer",
    /// A compare of two values was folded into the ADD that subtracts them.
    FOLD_ADD = "vec4:cmod-prop/fold-compare-into-add",
    /// Refused: the producer does not write, from the same component, every
    /// flag component the test writes (writemask or swizzle).
    REFUSE_WRITEMASK = "vec4:cmod-prop/refuse/writemask-or-swizzle",
    /// Refused: the producer's destination type is not the test's.
    REFUSE_TYPE = "vec4:cmod-prop/refuse/type",
    /// Refused: the producer is predicated (it may not write every channel).
    REFUSE_PREDICATED = "vec4:cmod-prop/refuse/predicated-producer",
    /// Refused: another flag write lies between the producer and the test.
    REFUSE_FLAG_BETWEEN = "vec4:cmod-prop/refuse/flag-written-between",
    /// Refused: a CMP producer under a test that is not a `.nz` of D/UD
    /// (a CMP's flag comes from its operands, not from its result).
    REFUSE_COMPARE_PRODUCER = "vec4:cmod-prop/refuse/compare-producer",
    /// Refused: a CMP→ADD fold of a condition other than < or > (the
    /// difference of two infinities is NaN where they compare equal).
    REFUSE_ADD_CONDITION = "vec4:cmod-prop/refuse/add-fold-condition",
    /// Refused: the producer cannot take the cmod (it has one, is
    /// saturated, or its opcode cannot), a flag read lies between, or (for
    /// an ADD) a compared operand was written since.
    REFUSE_CANNOT_FOLD = "vec4:cmod-prop/refuse/producer-cannot-take-cmod",
}

/// Whether `i` is a test this pass may remove: an unpredicated Align16
/// SIMD4x2 `cmp` or `mov.nz` with a null destination and a GRF source.
fn is_test(i: &Instruction) -> bool {
    i.align16.is_some()
        && i.exec_size == 8
        && i.group == 0
        && i.pred.is_none()
        && !i.we_all
        && !i.sat
        && matches!(i.dst.kind, DstKind::Null)
        && i.writes_flag()
        && match i.op {
            Opcode::Cmp => i.srcs.len() == 2,
            Opcode::Mov => i.cmod == Some(CondMod::Nz),
            _ => false,
        }
        && matches!(i.srcs[0].kind, SrcKind::Grf { .. })
        && !i.srcs[0].abs
        && !i.srcs[0].neg
}

/// Whether `s` is the immediate zero.
fn is_zero(s: &Src) -> bool {
    matches!(s.kind, SrcKind::Imm(0))
}

/// Whether every flag component `test` writes is written by `producer` from
/// the same component of the value (the 995d9937103 checks): `exact` also
/// asks for the same writemask, so that a fold writes no other flag bit.
fn compatible(test: &Instruction, producer: &Instruction, exact: bool) -> bool {
    let (Some(t), Some(p)) = (test.align16, producer.align16) else {
        return false;
    };
    let same_component =
        (0..4).all(|c| t.writemask >> c & 1 == 0 || t.swizzle[0].get(c) == c as u8);
    t.writemask & !p.writemask == 0
        && (!exact || t.writemask == p.writemask)
        && same_component
        && test.srcs[0].region.v == 4
}

/// Injected bug (BUGS.md: vec4-cmod-prop-writemask): the writemask and
/// swizzle checks are skipped.
fn loose(ctx: &PassCtx) -> bool {
    ctx.bugs.has(Bug::Vec4CmodPropWritemask)
}

/// Whether `i` may carry a conditional modifier in this model.
fn can_take_cmod(i: &Instruction) -> bool {
    matches!(
        i.op,
        Opcode::Add
            | Opcode::Mul
            | Opcode::Mov
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Not
            | Opcode::Shl
            | Opcode::Shr
            | Opcode::Asr
            | Opcode::Rndd
            | Opcode::Rndz
            | Opcode::Rnde
            | Opcode::Frc
    )
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    if !p.vec4 {
        return false;
    }
    // The scan stays in the test's block: a loop's first instruction starts
    // one, and what reaches it from before the loop reaches it only once.
    let Ok(cfg) = Cfg::of(&p.insts) else {
        return false;
    };
    let mut changed = false;
    let n = p.insts.len();
    for t in (0..n).rev() {
        if !is_test(&p.insts[t]) {
            continue;
        }
        let start = cfg.blocks[cfg.block_of[t]].start;
        if let Some(edit) = find(&p.insts, start, t, ctx) {
            changed = true;
            match edit {
                Edit::Remove => {}
                Edit::Fold(producer) => {
                    let (cmod, flag) = (p.insts[t].cmod, p.insts[t].flag);
                    p.insts[producer].cmod = cmod;
                    p.insts[producer].flag = flag;
                }
            }
            p.insts[t].op = Opcode::Nop;
        }
    }
    changed
}

/// What to do with a test.
enum Edit {
    /// Delete it.
    Remove,
    /// Give its cmod to instruction `.0` and delete it.
    Fold(usize),
}

/// The edit for the test at `t`, scanning back to `start`, its block's
/// first instruction.
fn find(insts: &[Instruction], start: usize, t: usize, ctx: &PassCtx) -> Option<Edit> {
    let test = &insts[t];
    let src = src_footprint(&test.srcs[0], test.exec_size);
    let mut read_flag = false;
    // What the instructions between the candidate and the test write.
    let mut written: Vec<(u32, u32)> = Vec::new();
    for k in (start..t).rev() {
        let scan = &insts[k];
        if scan.op.is_cf() {
            return None;
        }
        if scan.op == Opcode::Nop {
            continue;
        }
        let a = shared_access(scan);
        // A compare of two values against the ADD that subtracts them.
        if test.op == Opcode::Cmp && !is_zero(&test.srcs[1]) {
            if let Some(edit) = add_fold(test, scan, k, read_flag, &written, ctx) {
                return edit;
            }
        } else if overlaps(&a.writes, &src) {
            return producer_edit(test, scan, k, read_flag, ctx);
        }
        if a.flag_writes != 0 {
            hit(REFUSE_FLAG_BETWEEN);
            return None;
        }
        read_flag |= a.flag_lane_reads | a.flag_raw_reads != 0;
        written.extend_from_slice(&a.writes);
    }
    None
}

/// The edit for `test` whose source `scan` (at `k`) produced.
fn producer_edit(
    test: &Instruction,
    scan: &Instruction,
    k: usize,
    read_flag: bool,
    ctx: &PassCtx,
) -> Option<Edit> {
    if scan.pred.is_some() && scan.op != Opcode::Sel {
        hit(REFUSE_PREDICATED);
        return None;
    }
    let same_place = matches!(
        (scan.dst.kind, test.srcs[0].kind),
        (DstKind::Grf { nr: a, sub: b }, SrcKind::Grf { nr: c, sub: d })
            if a == c && b * scan.dst.ty.size() == d * test.srcs[0].ty.size()
    );
    if !same_place || scan.exec_size != 8 || scan.group != 0 || scan.we_all {
        hit(REFUSE_WRITEMASK);
        return None;
    }
    let test_d = matches!(test.srcs[0].ty, RegType::D | RegType::UD);
    let nz = test.cmod == Some(CondMod::Nz);
    let same_flag = scan.flag == test.flag;
    // A CMP's 0/~0 result is non-zero exactly where it set its flag bit.
    if scan.op == Opcode::Cmp && nz && test_d && same_flag {
        if !compatible(test, scan, false) && !loose(ctx) {
            hit(REFUSE_WRITEMASK);
            return None;
        }
        hit(REMOVE);
        return Some(Edit::Remove);
    }
    if matches!(scan.op, Opcode::Cmp | Opcode::Cmpn) {
        hit(REFUSE_COMPARE_PRODUCER);
        return None;
    }
    // A `.nz` test reads the bits: any integer type of the same size
    // gives the same answer (a float's -0 and NaNs do not).
    let same_bits = |a: RegType, b: RegType| {
        a == b || (nz && a.size() == b.size() && !a.is_float() && !b.is_float())
    };
    if !same_bits(scan.dst.ty, test.srcs[0].ty) {
        hit(REFUSE_TYPE);
        return None;
    }
    if scan.writes_flag() {
        if scan.cmod == Some(CondMod::Nz) && nz && same_flag {
            if !compatible(test, scan, false) && !loose(ctx) {
                hit(REFUSE_WRITEMASK);
                return None;
            }
            hit(REMOVE);
            return Some(Edit::Remove);
        }
        hit(REFUSE_CANNOT_FOLD);
        return None;
    }
    if !can_take_cmod(scan) || scan.cmod.is_some() || scan.sat || read_flag {
        hit(REFUSE_CANNOT_FOLD);
        return None;
    }
    if !compatible(test, scan, true) && !loose(ctx) {
        hit(REFUSE_WRITEMASK);
        return None;
    }
    hit(FOLD);
    Some(Edit::Fold(k))
}

/// For `cmp.cm null A B` and `add X A -B` at `k` (floats): None when the
/// ADD is not that subtraction, else the edit or the refusal (`Some(None)`).
fn add_fold(
    test: &Instruction,
    scan: &Instruction,
    k: usize,
    read_flag: bool,
    written: &[(u32, u32)],
    ctx: &PassCtx,
) -> Option<Option<Edit>> {
    let (Some(t), Some(s)) = (test.align16, scan.align16) else {
        return None;
    };
    let is_float = test.srcs[0].ty == RegType::F && scan.dst.ty == RegType::F;
    let negated = |x: &Src| Src { neg: !x.neg, ..*x };
    let operands = scan.op == Opcode::Add
        && scan.srcs.len() == 2
        && scan.srcs[0] == test.srcs[0]
        && scan.srcs[1] == negated(&test.srcs[1])
        && s.swizzle[0] == t.swizzle[0]
        && s.swizzle[1] == t.swizzle[1];
    if !operands
        || !is_float
        || scan.pred.is_some()
        || scan.cmod.is_some()
        || scan.sat
        || scan.exec_size != 8
        || scan.group != 0
        || scan.we_all
    {
        return None;
    }
    // Only < and > of the difference are the compare's: inf - inf is NaN
    // where inf == inf (df9dbc03d3d's class).
    if !matches!(test.cmod, Some(CondMod::L | CondMod::G)) {
        hit(REFUSE_ADD_CONDITION);
        return Some(None);
    }
    // The ADD now writes the flag where it stands: no flag read may lie
    // between, and A and B must still hold what the ADD read.
    let operands: Vec<(u32, u32)> = test
        .srcs
        .iter()
        .flat_map(|s| src_footprint(s, test.exec_size))
        .collect();
    if read_flag || overlaps(written, &operands) || overlaps(&shared_access(scan).writes, &operands)
    {
        hit(REFUSE_CANNOT_FOLD);
        return Some(None);
    }
    // The ADD computes channel c as A[swizzle(c)] - B[swizzle(c)], the
    // compare's flag bit c compares the same: what must hold is that the
    // ADD writes exactly the compare's components.
    if t.writemask != s.writemask && !loose(ctx) {
        hit(REFUSE_WRITEMASK);
        return Some(None);
    }
    hit(FOLD_ADD);
    Some(Some(Edit::Fold(k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{apply, apply_with_bugs, check_preserves, outputs};
    use crate::bugs::BugSet;

    use crate::vec4::testing::{prog, whole};

    fn floats(k: u32) -> u64 {
        (k as f32 - 1.5).to_bits() as u64
    }

    #[test]
    fn a_narrowed_nz_test_of_a_compare_is_removed() {
        // The seed's example after per-channel DCE: the test writes only
        // flag component x, which the cmp.l wrote from the same component.
        let body = "\
cmp.l.f0.0(8) g4<1>.xF g3<4>.xF 0F { align16 1Q };
cmp.nz.f0.0(8) null<1>.xD g4<4>.xD 0D { align16 1Q };
(+f0.0.x) sel(8) g5<1>.xUD g3<4>.xUD 0x3f800000UD { align16 1Q };
mov(8) g6<1>UD g5<4>.xUD { align16 1Q };";
        let p = prog(body);
        let q = check_preserves(&p, run, 5, &floats);
        let want = body.replace(
            "cmp.nz.f0.0(8) null<1>.xD g4<4>.xD 0D { align16 1Q };\n",
            "",
        );
        assert_eq!(q.text_compact(), whole(&want));
    }

    #[test]
    fn a_whole_vec4_test_of_a_one_component_compare_stays() {
        // The un-narrowed test writes flag components y, z and w too, which
        // the cmp.l does not: removing it (the injected bug) leaves them
        // stale, and the IF reads every component.
        let body = "\
mov(1) f0.0<1>UW 0x0000UW { align1 WE_all 1N };
cmp.l.f0.0(8) g4<1>.xF g3<4>.xF 0F { align16 1Q };
mov.nz.f0.0(8) null<1>D g4<4>.xD { align16 1Q };
mov(8) g6<1>UD 0x00000001UD { align16 1Q };
(+f0.0) if(8) JIP: L0 UIP: L0
mov(8) g6<1>UD 0x00000002UD { align16 1Q };
L0:
endif(8) JIP: L1
L1:";
        let p = prog(body);
        let rec = crate::coverage::Recording::start();
        let mut q = p.clone();
        assert!(!apply(&mut q, run));
        assert!(rec.finish().contains_key(REFUSE_WRITEMASK.name()));
        let mut bad = p.clone();
        assert!(apply_with_bugs(
            &mut bad,
            run,
            BugSet::NONE.with(Bug::Vec4CmodPropWritemask)
        ));
        assert_ne!(outputs(&p, 4, &floats, 0), outputs(&bad, 4, &floats, 0));
    }

    #[test]
    fn a_test_folds_into_a_producer_with_its_writemask() {
        let body = "\
add(8) g4<1>.xF g3<4>.xF -1F { align16 1Q };
cmp.g.f0.0(8) null<1>.xF g4<4>.xF 0F { align16 1Q };
(+f0.0.x) sel(8) g6<1>UD g4<4>.xUD 0x00000007UD { align16 1Q };";
        let p = prog(body);
        let q = check_preserves(&p, run, 5, &floats);
        let want = "\
add.g.f0.0(8) g4<1>.xF g3<4>.xF -1F { align16 1Q };
(+f0.0.x) sel(8) g6<1>UD g4<4>.xUD 0x00000007UD { align16 1Q };";
        assert_eq!(q.text_compact(), whole(want));
    }

    #[test]
    fn the_scan_does_not_cross_the_top_of_a_loop() {
        // The test opens the loop body: its producer's flag write before
        // the loop happens once, and in the second iteration f0.0.x holds
        // the exit test's bit, so the test must stay.
        let body = "\
cmp.l.f0.0(8) g4<1>.xF g3<4>.xF 0F { align16 1Q };
mov(8) g5<1>D 0D { align16 1Q };
L0:
cmp.nz.f0.0(8) null<1>.xD g4<4>.xD 0D { align16 1Q };
(+f0.0.x) sel(8) g6<1>.xD g5<4>.xD 100D { align16 1Q };
add(8) g5<1>D g5<4>.xD 1D { align16 1Q };
cmp.ge.f0.0(8) null<1>D g5<4>.xD 2D { align16 1Q };
(-f0.0) while(8) JIP: L0
mov(8) g6<1>D g6<4>.xD { align16 1Q };";
        let p = prog(body);
        let mut q = p.clone();
        assert!(!apply(&mut q, run), "{}", q.text());
        let bad = prog(&body.replace(
            "cmp.nz.f0.0(8) null<1>.xD g4<4>.xD 0D { align16 1Q };\n",
            "",
        ));
        assert_ne!(outputs(&p, 4, &floats, 0), outputs(&bad, 4, &floats, 0));
    }

    #[test]
    fn an_add_fold_needs_no_flag_read_between_and_a_strict_condition() {
        // A SEL between the ADD and the compare reads the older flag.
        let read_between = "\
mov(8) g5<1>.xF 0.5F { align16 1Q };
cmp.l.f0.0(8) null<1>.xF g3<4>.xF 1F { align16 1Q };
add(8) g4<1>.xF g3<4>.xF -g5<4>.xF { align16 1Q };
(+f0.0.x) sel(8) g6<1>UD g4<4>.xUD 0x00000007UD { align16 1Q };
cmp.l.f0.0(8) null<1>.xF g3<4>.xF g5<4>.xF { align16 1Q };
(+f0.0.x) sel(8) g6<1>.xUD g6<4>.xUD 0x00000009UD { align16 1Q };";
        let p = prog(read_between);
        let mut q = p.clone();
        assert!(!apply(&mut q, run), "{}", q.text());
        let folded = read_between
            .replace("add(8) g4<1>.xF", "add.l.f0.0(8) g4<1>.xF")
            .replace(
                "cmp.l.f0.0(8) null<1>.xF g3<4>.xF g5<4>.xF { align16 1Q };\n",
                "",
            );
        assert_ne!(
            outputs(&p, 4, &floats, 0),
            outputs(&prog(&folded), 4, &floats, 0)
        );
        // >= is not folded: inf - inf is NaN, and NaN >= 0 is false.
        let ge = "\
mov(8) g5<1>.xUD 0x7f800000UD { align16 1Q };
add(8) g4<1>.xF g3<4>.xF -g5<4>.xF { align16 1Q };
cmp.ge.f0.0(8) null<1>.xF g3<4>.xF g5<4>.xF { align16 1Q };
(+f0.0.x) sel(8) g6<1>UD g4<4>.xUD 0x00000007UD { align16 1Q };";
        let p = prog(ge);
        let rec = crate::coverage::Recording::start();
        let mut q = p.clone();
        assert!(!apply(&mut q, run), "{}", q.text());
        assert!(rec.finish().contains_key(REFUSE_ADD_CONDITION.name()));
        let inf = |k: u32| if k == 0 { 0x7f80_0000 } else { k as u64 };
        let folded = ge
            .replace("add(8) g4<1>.xF", "add.ge.f0.0(8) g4<1>.xF")
            .replace(
                "cmp.ge.f0.0(8) null<1>.xF g3<4>.xF g5<4>.xF { align16 1Q };\n",
                "",
            );
        assert_ne!(outputs(&p, 2, &inf, 0), outputs(&prog(&folded), 2, &inf, 0));
    }

    #[test]
    fn a_nz_test_reads_bits_so_signedness_does_not_matter() {
        // An iand of booleans (UD) tested as D by a bcsel's `cmp.nz`.
        let body = "\
and(8) g4<1>.xUD g3<4>.xUD 0x00000006UD { align16 1Q };
cmp.nz.f0.0(8) null<1>.xD g4<4>.xD 0D { align16 1Q };
(+f0.0.x) sel(8) g6<1>UD g4<4>.xUD 0x00000007UD { align16 1Q };";
        let p = prog(body);
        let q = check_preserves(&p, run, 5, &|k| k as u64);
        let want = "\
and.nz.f0.0(8) g4<1>.xUD g3<4>.xUD 0x00000006UD { align16 1Q };
(+f0.0.x) sel(8) g6<1>UD g4<4>.xUD 0x00000007UD { align16 1Q };";
        assert_eq!(q.text_compact(), whole(want));
        // A float producer is another matter (-0.0 is zero, its bits are not).
        let float = body.replace(
            "and(8) g4<1>.xUD g3<4>.xUD 0x00000006UD",
            "add(8) g4<1>.xF g3<4>.xF -1F",
        );
        let mut p = prog(&float);
        assert!(!apply(&mut p, run), "{}", p.text());
    }

    #[test]
    fn a_compare_folds_into_the_add_that_subtracts_its_operands() {
        let body = "\
mov(8) g5<1>.xF 0.5F { align16 1Q };
add(8) g4<1>.xF g3<4>.xF -g5<4>.xF { align16 1Q };
cmp.l.f0.0(8) null<1>.xF g3<4>.xF g5<4>.xF { align16 1Q };
(+f0.0.x) sel(8) g6<1>UD g4<4>.xUD 0x00000007UD { align16 1Q };";
        let p = prog(body);
        let rec = crate::coverage::Recording::start();
        let q = check_preserves(&p, run, 5, &floats);
        assert!(rec.finish().contains_key(FOLD_ADD.name()));
        assert!(q.text_compact().contains("add.l.f0.0(8)"), "{}", q.text());
        // An integer ADD is not folded (it can overflow where CMP does not).
        let ints = body
            .replace("F ", "D ")
            .replace("F;", "D;")
            .replace("0.5F", "5D");
        let mut p = prog(&ints.replace("0.5D", "5D"));
        assert!(!apply(&mut p, run), "{}", p.text());
    }
}
