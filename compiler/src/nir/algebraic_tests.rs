//! Tests of `algebraic`.

use super::super::testing::{
    assert_same_on_edges, check, ctx, hits_of, interpret, one_block, Outcome,
};
use crate::bugs::{Bug, BugSet};
use ir::parse_program;
use std::cell::RefCell;

thread_local! {
    static FIRED: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// Records that a rule applied (called by the pass in tests).
pub(super) fn fired(name: &'static str) {
    FIRED.with(|f| f.borrow_mut().push(name));
}

/// A golden case: input types, the rules that fire, and the block
/// before and after, each ending with `=> %v ...`, the values stored to
/// outputs 0, 1, ... (typed by size: bool, i8, ..., i64).
type Golden = (&'static str, &'static str, &'static str, &'static str);

const INT_ARITH: Golden = (
    "i32 i32 i8",
    "iadd-zero isub-zero isub-self isub-from-zero iadd-ineg isub-ineg ineg-isub ineg-ineg imul-one imul-zero imul-minus-one",
    "32 %3 = load_const (0x00000000)
    32 %4 = load_const (0x00000001)
    32 %5 = load_const (0xffffffff)
    32 %6 = iadd %3, %0
    32 %7 = isub %0, %3
    32 %8 = isub %1, %1
    32 %9 = isub %3, %1
    32 %10 = ineg %1
    32 %11 = iadd %0, %10
    32 %12 = isub %0, %10
    32 %13 = isub %0, %1
    32 %14 = ineg %13
    32 %15 = ineg %10
    32 %16 = imul %4, %0
    32 %17 = imul %0, %3
    32 %18 = imul %0, %5
    32 %19 = iadd %0, %4
    8 %20 = load_const (0xff)
    8 %21 = imul %2, %20
    8 %22 = isub %2, %2
    => %6 %7 %8 %9 %11 %12 %14 %15 %16 %17 %18 %19 %21 %22",
    "32 %3 = load_const (0x00000000)
    32 %4 = load_const (0x00000001)
    32 %5 = load_const (0xffffffff)
    32 %8 = load_const (0x00000000)
    32 %9 = ineg %1
    32 %10 = ineg %1
    32 %11 = isub %0, %1
    32 %12 = iadd %0, %1
    32 %13 = isub %0, %1
    32 %14 = isub %1, %0
    32 %17 = load_const (0x00000000)
    32 %18 = ineg %0
    32 %19 = iadd %0, %4
    8 %20 = load_const (0xff)
    8 %21 = ineg %2
    8 %22 = load_const (0x00)
    => %0 %0 %8 %9 %11 %12 %14 %1 %0 %17 %18 %19 %21 %22",
);

// imin x 0 and imax x -1 are not identities and stay.
const MIN_MAX_ABS: Golden = (
    "i32 i32",
    "iabs-iabs iabs-ineg imin-self imax-self umin-self umax-self umin-zero umax-zero umin-ones umax-ones",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %4 = iabs %0
    32 %5 = iabs %4
    32 %6 = ineg %1
    32 %7 = iabs %6
    32 %8 = imin %0, %0
    32 %9 = imax %1, %1
    32 %10 = umin %0, %0
    32 %11 = umax %1, %1
    32 %12 = umin %2, %0
    32 %13 = umax %0, %2
    32 %14 = umin %0, %3
    32 %15 = umax %3, %1
    32 %16 = imin %0, %2
    32 %17 = imax %0, %3
    => %5 %7 %8 %9 %10 %11 %12 %13 %14 %15 %16 %17",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %4 = iabs %0
    32 %5 = iabs %0
    32 %6 = ineg %1
    32 %7 = iabs %1
    32 %12 = load_const (0x00000000)
    32 %15 = load_const (0xffffffff)
    32 %16 = imin %0, %2
    32 %17 = imax %0, %3
    => %5 %7 %0 %1 %0 %1 %12 %0 %0 %15 %16 %17",
);

// At 1 bit, -1 is true. ixor x, -1 has no rule and stays.
const LOGIC: Golden = (
    "i32 bool",
    "inot-inot iand-self iand-zero iand-ones iand-inot-self ior-self ior-zero ior-ones ior-inot-self ixor-self ixor-zero ixor-inot-self",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %4 = inot %0
    32 %5 = inot %4
    32 %6 = iand %0, %0
    32 %7 = iand %2, %0
    32 %8 = iand %0, %3
    32 %9 = iand %4, %0
    32 %10 = ior %0, %0
    32 %11 = ior %0, %2
    32 %12 = ior %3, %0
    32 %13 = ior %0, %4
    32 %14 = ixor %0, %0
    32 %15 = ixor %2, %0
    32 %16 = ixor %4, %0
    1 %17 = inot %1
    1 %18 = iand %1, %17
    1 %19 = load_const (true)
    1 %20 = iand %1, %19
    1 %21 = ior %17, %1
    32 %22 = ixor %0, %3
    => %5 %6 %7 %8 %9 %10 %11 %12 %13 %14 %15 %16 %18 %20 %21 %22",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %4 = inot %0
    32 %7 = load_const (0x00000000)
    32 %9 = load_const (0x00000000)
    32 %12 = load_const (0xffffffff)
    32 %13 = load_const (0xffffffff)
    32 %14 = load_const (0x00000000)
    32 %16 = load_const (0xffffffff)
    1 %17 = inot %1
    1 %18 = load_const (false)
    1 %19 = load_const (true)
    1 %21 = load_const (true)
    32 %22 = ixor %0, %3
    => %0 %0 %7 %0 %9 %0 %0 %12 %13 %14 %0 %16 %18 %1 %21 %22",
);

// Counts 32 (32-bit) and 32 (16-bit) are masked to 0; 33 is not a
// multiple of either width; a variable count never matches #s.
const SHIFTS: Golden = (
    "i32 i16",
    "ishl-by-zero ishr-by-zero ushr-by-zero ishl-of-zero ishr-of-zero ushr-of-zero ishr-of-ones",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %4 = load_const (0x00000020)
    32 %5 = load_const (0x00000021)
    32 %6 = ishl %0, %4
    32 %7 = ishl %0, %5
    16 %8 = ishr %1, %4
    16 %9 = ushr %1, %5
    16 %10 = ushr %1, %2
    16 %11 = load_const (0x0000)
    16 %12 = ushr %11, %0
    32 %13 = ishl %2, %0
    32 %14 = ishr %2, %0
    32 %15 = ishr %3, %0
    32 %16 = ushr %3, %0
    => %6 %7 %8 %9 %10 %12 %13 %14 %15 %16",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %4 = load_const (0x00000020)
    32 %5 = load_const (0x00000021)
    32 %7 = ishl %0, %5
    16 %9 = ushr %1, %5
    16 %11 = load_const (0x0000)
    16 %12 = load_const (0x0000)
    32 %13 = load_const (0x00000000)
    32 %14 = load_const (0x00000000)
    32 %15 = load_const (0xffffffff)
    32 %16 = ushr %3, %0
    => %0 %7 %1 %9 %1 %12 %13 %14 %15 %16",
);

// Seed 003 at 32 and 64 bits; not across different counts (%14), an
// ishl and a ushr (%15), or for ior of ushrs (no such rule, %16).
const SHIFT_LOGIC: Golden = (
    "i32 i32 i32 i64 i64",
    "iand-ishl ior-ishl ixor-ishl iand-ushr",
    "32 %5 = ishl %0, %2
    32 %6 = ishl %1, %2
    32 %7 = iand %5, %6
    32 %8 = ior %6, %5
    32 %9 = ixor %5, %6
    32 %10 = ushr %0, %2
    32 %11 = ushr %1, %2
    32 %12 = iand %10, %11
    32 %13 = ishl %1, %0
    32 %14 = iand %5, %13
    32 %15 = iand %5, %11
    32 %16 = ior %10, %11
    64 %17 = ishl %3, %2
    64 %18 = ishl %4, %2
    64 %19 = iand %17, %18
    => %7 %8 %9 %12 %14 %15 %16 %19",
    "32 %5 = ishl %0, %2
    32 %6 = ishl %1, %2
    32 %20 = iand %0, %1
    32 %7 = ishl %20, %2
    32 %21 = ior %1, %0
    32 %8 = ishl %21, %2
    32 %22 = ixor %0, %1
    32 %9 = ishl %22, %2
    32 %10 = ushr %0, %2
    32 %11 = ushr %1, %2
    32 %23 = iand %0, %1
    32 %12 = ushr %23, %2
    32 %13 = ishl %1, %0
    32 %14 = iand %5, %13
    32 %15 = iand %5, %11
    32 %16 = ior %10, %11
    64 %17 = ishl %3, %2
    64 %18 = ishl %4, %2
    64 %24 = iand %3, %4
    64 %19 = ishl %24, %2
    => %7 %8 %9 %12 %14 %15 %16 %19",
);

// ilt x, 0 and ieq (b2i x), 1 have no rule and stay.
const COMPARE_BOOL: Golden = (
    "i32 bool bool i16",
    "ieq-self ine-self ilt-self ige-self ult-self uge-self ieq-true ine-false ieq-false ine-true i2b-b2i ine-b2i-zero ieq-b2i-zero iand-b2i-one bcsel-same bcsel-true bcsel-false bcsel-inot bcsel-to-cond bcsel-to-inot",
    "1 %4 = ieq %0, %0
    1 %5 = ine %3, %3
    1 %6 = ilt %0, %0
    1 %7 = ige %3, %3
    1 %8 = ult %0, %0
    1 %9 = uge %0, %0
    1 %10 = ieq %1, %1
    1 %11 = load_const (true)
    1 %12 = load_const (false)
    1 %13 = ieq %11, %1
    1 %14 = ine %1, %12
    1 %15 = ieq %2, %12
    1 %16 = ine %2, %11
    32 %17 = b2i %1
    1 %18 = i2b %17
    32 %19 = load_const (0x00000000)
    1 %20 = ine %17, %19
    1 %21 = ieq %19, %17
    32 %22 = load_const (0x00000001)
    32 %23 = iand %22, %17
    32 %24 = bcsel %1, %0, %0
    32 %25 = bcsel %11, %0, %17
    32 %26 = bcsel %12, %0, %17
    1 %27 = inot %2
    32 %28 = bcsel %27, %0, %17
    1 %29 = bcsel %2, %11, %12
    1 %30 = bcsel %2, %12, %11
    1 %31 = ilt %0, %19
    1 %32 = ieq %17, %22
    => %4 %5 %6 %7 %8 %9 %10 %13 %14 %15 %16 %18 %20 %21 %23 %24 %25 %26 %28 %29 %30 %31 %32",
    "1 %4 = load_const (true)
    1 %5 = load_const (false)
    1 %6 = load_const (false)
    1 %7 = load_const (true)
    1 %8 = load_const (false)
    1 %9 = load_const (true)
    1 %10 = load_const (true)
    1 %11 = load_const (true)
    1 %12 = load_const (false)
    1 %15 = inot %2
    1 %16 = inot %2
    32 %17 = b2i %1
    32 %19 = load_const (0x00000000)
    1 %21 = inot %1
    32 %22 = load_const (0x00000001)
    1 %27 = inot %2
    32 %28 = bcsel %2, %17, %0
    1 %30 = inot %2
    1 %31 = ilt %0, %19
    1 %32 = ieq %17, %22
    => %4 %5 %6 %7 %8 %9 %10 %1 %1 %15 %16 %1 %1 %21 %17 %0 %0 %17 %28 %2 %30 %31 %32",
);

// Narrowing first (%7, %11) and mixed kinds (%12) stay; so do fadd x,
// 0.0 and fmul x, 1.0 (NaN and -0), fsat (fabs x) and fneg (fabs x).
const CONVERT_FLOAT: Golden = (
    "i8 i32 f32 f16",
    "u2u-u2u i2i-i2i fneg-fneg fabs-fneg fabs-fabs fsat-fsat fabs-fsat fsat-fneg-fabs",
    "16 %4 = u2u %0
    64 %5 = u2u %4
    16 %6 = u2u %1
    64 %7 = u2u %6
    32 %8 = i2i %0
    16 %9 = i2i %8
    8 %10 = i2i %1
    32 %11 = i2i %10
    64 %12 = i2i %4
    32 %13 = fneg %2
    32 %14 = fneg %13
    32 %15 = fabs %13
    32 %16 = fabs %15
    32 %17 = fsat %2
    32 %18 = fsat %17
    32 %19 = fabs %17
    16 %20 = fabs %3
    16 %21 = fneg %20
    16 %22 = fsat %21
    16 %23 = fsat %20
    32 %24 = load_const (0x00000000)
    32 %25 = fadd %2, %24
    32 %26 = load_const (0x3f800000)
    32 %27 = fmul %2, %26
    32 %28 = fneg %15
    => %5 %7 %9 %11 %12 %14 %15 %16 %18 %19 %22 %23 %25 %27 %28",
    "16 %4 = u2u %0
    64 %5 = u2u %0
    16 %6 = u2u %1
    64 %7 = u2u %6
    32 %8 = i2i %0
    16 %9 = i2i %0
    8 %10 = i2i %1
    32 %11 = i2i %10
    64 %12 = i2i %4
    32 %13 = fneg %2
    32 %15 = fabs %2
    32 %16 = fabs %2
    32 %17 = fsat %2
    32 %18 = fsat %2
    32 %19 = fsat %2
    16 %20 = fabs %3
    16 %21 = fneg %20
    16 %22 = load_const (0x0000)
    16 %23 = fsat %20
    32 %24 = load_const (0x00000000)
    32 %25 = fadd %2, %24
    32 %26 = load_const (0x3f800000)
    32 %27 = fmul %2, %26
    32 %28 = fneg %15
    => %5 %7 %9 %11 %12 %2 %15 %16 %18 %19 %22 %23 %25 %27 %28",
);

// Field 0xf0 inside c = 0xff0 (%12: kept), outside c = 0xc (%13, %18:
// cleared); c = 0x3c keeps part of it (%15: neither); a variable base is
// not folded into the field-kept form (%17).
const BFI: Golden = (
    "i32 i32",
    "bfi-zero-mask bfi-full-mask bfi-zero-insert iand-bfi-field-kept iand-bfi-outside-field",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %4 = bfi %2, %0, %1
    32 %5 = bfi %3, %0, %1
    32 %6 = bfi %0, %2, %1
    32 %7 = load_const (0x000000f0)
    32 %8 = load_const (0x0000000c)
    32 %9 = load_const (0x00000ff0)
    32 %10 = load_const (0x12345678)
    32 %11 = bfi %7, %0, %10
    32 %12 = iand %11, %9
    32 %13 = iand %8, %11
    32 %14 = load_const (0x0000003c)
    32 %15 = iand %11, %14
    32 %16 = bfi %7, %0, %1
    32 %17 = iand %16, %9
    32 %18 = iand %16, %8
    => %4 %5 %6 %12 %13 %15 %17 %18",
    "32 %2 = load_const (0x00000000)
    32 %3 = load_const (0xffffffff)
    32 %19 = inot %0
    32 %6 = iand %1, %19
    32 %7 = load_const (0x000000f0)
    32 %8 = load_const (0x0000000c)
    32 %9 = load_const (0x00000ff0)
    32 %10 = load_const (0x12345678)
    32 %11 = bfi %7, %0, %10
    32 %20 = iand %10, %9
    32 %12 = bfi %7, %0, %20
    32 %13 = iand %10, %8
    32 %14 = load_const (0x0000003c)
    32 %15 = iand %11, %14
    32 %16 = bfi %7, %0, %1
    32 %17 = iand %16, %9
    32 %18 = iand %1, %8
    => %1 %0 %6 %12 %13 %15 %17 %18",
);

const GOLDEN: [Golden; 8] = [
    INT_ARITH,
    MIN_MAX_ABS,
    LOGIC,
    SHIFTS,
    SHIFT_LOGIC,
    COMPARE_BOOL,
    CONVERT_FLOAT,
    BFI,
];

/// Checks one golden case: exact text, the rules that fired, and the
/// meaning on edge inputs.
fn golden((inputs, fires, before, after): Golden) {
    let mut outs = vec![];
    let before = one_block(inputs, before, &mut outs);
    let after = one_block(inputs, after, &mut outs);
    FIRED.with(|f| f.borrow_mut().clear());
    check(super::run, &before, &after);
    let mut got = FIRED.with(|f| f.take());
    got.sort_unstable();
    got.dedup();
    let mut want: Vec<&str> = fires.split_whitespace().collect();
    want.sort_unstable();
    assert_eq!(got, want, "rules fired");
    let p = parse_program(&before).unwrap();
    let mut q = p.clone();
    super::run(&mut q, &ctx());
    assert_same_on_edges(&p, &q, 400);
}

#[test]
fn integer_arithmetic() {
    golden(INT_ARITH);
    golden(MIN_MAX_ABS);
}

#[test]
fn logic_and_shifts() {
    golden(LOGIC);
    golden(SHIFTS);
    golden(SHIFT_LOGIC);
}

#[test]
fn comparisons_and_booleans() {
    golden(COMPARE_BOOL);
}

#[test]
fn conversions_and_floats() {
    golden(CONVERT_FLOAT);
}

#[test]
fn bitfield_inserts() {
    golden(BFI);
}

#[test]
fn every_rule_parses_and_has_a_golden_case() {
    let mut names: Vec<&str> = super::RULES.iter().map(|r| r.name).collect();
    assert_eq!(super::parsed().len(), names.len());
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(names.len(), n, "rule names are unique");
    let covered: Vec<&str> = GOLDEN.iter().flat_map(|g| g.1.split_whitespace()).collect();
    for name in names {
        assert!(covered.contains(&name), "rule {name} has no golden case");
    }
}

#[test]
fn injected_bug_takes_the_complement_of_0xc_as_3() {
    // With the bug, %13 = iand(bfi(0xf0, x, k), 0xc) and %15 (c = 0x3c)
    // are rewritten as if the field survived the iand: for x = 0xf the
    // result gains the field's bits 4..7, which the iand cleared.
    let p = parse_program(&one_block(BFI.0, BFI.2, &mut vec![])).unwrap();
    let mut q = p.clone();
    let mut bug = ctx();
    bug.bugs = BugSet::NONE.with(Bug::AlgebraicBfiIand);
    assert!(super::run(&mut q, &bug));
    ir::validate(&q).unwrap();
    let Outcome::Outputs(want) = interpret(&p, &[0xf, 0], &[], 0) else {
        panic!()
    };
    let Outcome::Outputs(got) = interpret(&q, &[0xf, 0], &[], 0) else {
        panic!()
    };
    assert_eq!((want[4], want[5]), (Some(0x8), Some(0x38)));
    assert_eq!((got[4], got[5]), (Some(0xf8), Some(0xf8)));
}

#[test]
fn every_rule_has_its_decision_point() {
    // `parsed` finds each rule's point (it panics on a missing one), and
    // every `rule/` point names a rule.
    for (rule, _, _, point) in super::parsed() {
        assert_eq!(point.name(), format!("ir:algebraic/rule/{}", rule.name));
    }
    for p in super::cov::POINTS {
        if let Some(name) = p.name().strip_prefix("ir:algebraic/rule/") {
            assert!(super::RULES.iter().any(|r| r.name == name), "{name}");
        }
    }
}

#[test]
fn records_the_rule_that_fired_and_a_refused_condition() {
    // iadd-zero rewrites %2; ishl by 3 matches ishl-by-zero but its count
    // is not a multiple of 32, which both rounds (the second finds nothing
    // more) record.
    let text = one_block(
        "i32",
        "32 %1 = load_const (0x00000000)
        32 %2 = iadd %0, %1
        32 %3 = load_const (0x00000003)
        32 %4 = ishl %2, %3
        => %4",
        &mut vec![],
    );
    assert_eq!(
        hits_of(super::run, &ctx(), &text),
        crate::coverage::Hits::from([
            ("ir:algebraic/refuse/shift-count-not-zero", 2),
            ("ir:algebraic/rule/iadd-zero", 1),
        ])
    );
}
