//! Lowering's decision points (`super::cov`): small programs lowered under
//! each strategy record the strategy's own choices, and no other
//! strategy's.

use super::cov;
use crate::coverage::{Hits, Point, Recording};
use crate::options::{Backend, CompileOptions, Strategy};
use crate::passes::PassSet;

/// The points lowering `src` (a program, or a case with a dispatch) records.
fn lowered(src: &str, strategy: Strategy, simd: u32) -> Hits {
    let p = ir::parse_case(src).unwrap().program;
    let opts = CompileOptions::new(strategy, simd, PassSet::none());
    let rec = Recording::start();
    super::lower(&p, &opts).unwrap();
    rec.finish()
}

fn name(s: Strategy) -> &'static str {
    match s {
        Strategy::Bool32 => "bool32",
        Strategy::Bool16 => "bool16",
        Strategy::Native => "native",
        Strategy::Flag => "flag",
        Strategy::NativeMin => "native-min",
        Strategy::Bool8 => "bool8",
        Strategy::Vec4 => "vec4",
    }
}

/// Asserts that `hits` has every point of `want` and no point named after
/// another strategy than `s`.
fn check(hits: &Hits, s: Strategy, want: &[Point]) {
    for p in want {
        assert!(
            hits.contains_key(p.name()),
            "{}: {} not reached in {:?}",
            name(s),
            p.name(),
            hits.keys()
        );
    }
    // native-min shares native's points and adds its own.
    let shares = |o: Strategy| s == Strategy::NativeMin && o == Strategy::Native;
    for other in Strategy::ALL.into_iter().filter(|&o| o != s && !shares(o)) {
        let prefix = format!("lowering/{}/", name(other));
        assert!(
            !hits.keys().any(|k| k.starts_with(&prefix)),
            "{}: another strategy's point in {:?}",
            name(s),
            hits.keys()
        );
    }
    for k in hits.keys().filter(|k| k.starts_with("lowering/")) {
        assert!(
            cov::POINTS.iter().any(|p| p.name() == *k),
            "{k} is not declared"
        );
    }
}

const MIXED: &str = include_str!("../../../corpus/bool_mixed_combine.sir");
const LOOP_PHI: &str = include_str!("../../../corpus/bool_loop_phi.sir");

#[test]
fn comparisons_and_boolean_logic_follow_the_strategy() {
    let shared = [
        cov::BOOL_IEQ,
        cov::BOOL_BCSEL_SEL,
        cov::INT8_COMPARE_PROMOTED,
        cov::CONST_BYTE,
        cov::IO_STORE_BOOL,
    ];
    let cases: [(Strategy, &[Point]); 6] = [
        (
            Strategy::Bool32,
            &[
                cov::BOOL32_COMPARE,
                cov::BOOL32_COMPARE16_SIGN_EXTENDED,
                cov::BOOL32_COMPARE64_LOW_DWORD,
                cov::BOOL32_LOGIC,
                cov::COND_RETEST,
            ],
        ),
        (
            Strategy::Bool16,
            &[
                cov::BOOL16_COMPARE16,
                cov::BOOL16_COMPARE_NARROWED,
                cov::BOOL16_LOGIC,
                cov::COND_RETEST,
            ],
        ),
        (
            Strategy::Native,
            &[
                cov::NATIVE_COMPARE16,
                cov::NATIVE_COMPARE32,
                cov::NATIVE_COMPARE64_IN_PLACE,
                cov::NATIVE_NARROW,
                cov::NATIVE_LOGIC16,
                cov::NATIVE_LOGIC32,
                cov::COND_RETEST,
            ],
        ),
        (
            // Where a 16-bit boolean meets a 32-bit one, native-min reads
            // the wider one's low word in place instead of narrowing it.
            Strategy::NativeMin,
            &[
                cov::NATIVE_COMPARE16,
                cov::NATIVE_COMPARE32,
                cov::NATIVE_COMPARE64_IN_PLACE,
                cov::NATIVE_MIN_DOWNCAST,
                cov::NATIVE_LOGIC16,
                cov::COND_RETEST,
            ],
        ),
        (
            Strategy::Bool8,
            &[
                cov::BOOL8_COMPARE_PACKED,
                cov::BOOL8_LOGIC,
                cov::COND_RETEST,
            ],
        ),
        (
            Strategy::Flag,
            &[
                cov::FLAG_COMPARE_INTO_FLAG,
                cov::FLAG_LOGIC,
                cov::FLAG_LOGIC_SCRATCH,
                cov::FLAG_LOGIC_GRF,
                cov::FLAG_LOGIC_TO_FLAG,
                cov::FLAG_MATERIALIZE,
                cov::FLAG_SPILL,
                cov::COND_FLAG_REUSED,
            ],
        ),
    ];
    for (s, want) in cases {
        let hits = lowered(MIXED, s, 8);
        check(&hits, s, &shared);
        check(&hits, s, want);
    }
    // Without flag-resident booleans, no condition is a flag already.
    let hits = lowered(MIXED, Strategy::Bool32, 8);
    assert!(!hits.contains_key(cov::COND_FLAG_REUSED.name()));
}

#[test]
fn boolean_phis_and_b2x_keep_the_strategy_width() {
    for s in Backend::Scalar.strategies() {
        let hits = lowered(LOOP_PHI, s, 16);
        let mut want = vec![cov::PHI_BOOL, cov::BOOL_IEQ, cov::TRUNC_PHI_COPY];
        want.push(match s {
            Strategy::Bool16 | Strategy::Native | Strategy::NativeMin => cov::B2X_FROM_BOOL16,
            Strategy::Bool32 | Strategy::Flag => cov::B2X_FROM_BOOL32,
            Strategy::Bool8 => cov::B2X_FROM_BOOL8,
            Strategy::Vec4 => unreachable!("a scalar strategy"),
        });
        if s == Strategy::Native {
            // %12 (16-bit) meets a 64-bit compare; %13 (32-bit) a 16-bit iand.
            want.extend([cov::NATIVE_NARROW, cov::NATIVE_WIDEN]);
        }
        if s == Strategy::NativeMin {
            // Both meetings happen at 16 bits: %13 is read in place.
            want.push(cov::NATIVE_MIN_DOWNCAST);
        }
        if s == Strategy::Flag {
            want.extend([cov::FLAG_COMPARE_IN_GRF, cov::FLAG_COMPARE_INTO_FLAG]);
        }
        check(&hits, s, &want);
    }
}

/// Flag strategy: a bcsel of flag booleans, a vote and an IF condition that
/// stay in flags.
const FLAGS: &str = "shader: flags\ndecl_input 0 i32\ndecl_input 1 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t32 %2 = load_const (0x00000000)\n\t1 %3 = ilt %0, %2\n\t1 %4 = ilt %1, %2\n\t1 %5 = ige %1, %2\n\t1 %6 = bcsel %3, %4, %3\n\t1 %7 = @vote_any (%5)\n\t1 %8 = ior %6, %7\n\tif %8 {\n\t\tblock b1:\n\t\t@store_output (%0) (slot=0)\n\t} else {\n\t\tblock b2:\n\t\t@store_output (%1) (slot=0)\n\t}\n\tblock b3:\n}\n";

#[test]
fn flag_logic_votes_and_conditions_stay_in_flags() {
    let hits = lowered(FLAGS, Strategy::Flag, 8);
    check(
        &hits,
        Strategy::Flag,
        &[
            cov::FLAG_COMPARE_INTO_FLAG,
            cov::FLAG_BCSEL,
            cov::SG_VOTE_INTO_FLAG,
            cov::FLAG_LOGIC,
            cov::COND_FLAG_REUSED,
        ],
    );
    assert!(!hits.contains_key(cov::COND_RETEST.name()));
    // The other strategies select with SEL, vote in a GRF and re-test.
    for s in [Strategy::Bool32, Strategy::Bool16, Strategy::Native] {
        let hits = lowered(FLAGS, s, 32);
        check(
            &hits,
            s,
            &[
                cov::BOOL_BCSEL_SEL,
                cov::SG_VOTE_ANY,
                cov::SG_FLAG_DATA_SIMD32,
                cov::COND_RETEST,
            ],
        );
    }
}

#[test]
fn strategy_independent_expansions() {
    let cases: [(&str, &[Point]); 6] = [
        (
            include_str!("../../../corpus/int_div.sir"),
            &[cov::DIV_MATH, cov::IMOD_FIX, cov::DIV64, cov::DIV64_SIGNED],
        ),
        (
            include_str!("../../../corpus/mul_high_abs.sir"),
            &[
                cov::IMUL32,
                cov::IMUL64,
                cov::MULH32,
                cov::MULH64,
                cov::MULH_SIGNED_FIX,
            ],
        ),
        (
            include_str!("../../../corpus/bit_scan.sir"),
            &[
                cov::BITCOUNT64,
                cov::BITREV64,
                cov::BITREV_NARROW,
                cov::FIND_LSB64,
                cov::FIND_MSB64,
                cov::IFIND_MSB,
                cov::ZEXT_NARROW,
            ],
        ),
        (
            include_str!("../../../corpus/conv_int_extract.sir"),
            &[
                cov::EXTRACT64,
                cov::EXTRACT64_BYTE,
                cov::TRUNC_BYTE_FROM_QWORD,
                cov::IO_STORE_REPACKED,
            ],
        ),
        (
            include_str!("../../../corpus/conv_f2f_i2f.sir"),
            &[cov::F2F16_TO_64, cov::I2F64_TO_32],
        ),
        (
            include_str!("../../../corpus/subgroup_if_nested.sir"),
            &[
                cov::SG_BALLOT,
                cov::SG_ELECT,
                cov::SG_READ_FIRST,
                cov::SG_VOTE_ALL,
            ],
        ),
    ];
    for (src, want) in cases {
        for s in Backend::Scalar.strategies() {
            check(&lowered(src, s, 16), s, want);
        }
    }
}
