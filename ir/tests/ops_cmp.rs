//! Comparison ops: integer (`ieq`, `ine`, `ilt`, `ige`, `ult`, `uge`, with
//! `ieq`/`ine` also on 1-bit booleans) and float (`feq`, `fneu`, `flt`, `fge`:
//! ordered except `fneu`, -0 == +0, denormals compared as themselves, NaNs of
//! any sign and payload unordered).
//!
//! Rows are `(n, [a, b], expected)` with n the source size; the result is 1 bit.

mod common;

use common::{run, V};
use ir::Op;

#[test]
fn every_op_of_the_group_has_a_table() {
    common::check_group("ops_cmp", include_str!("ops_cmp.rs"));
}

/// Signed a < b.
#[test]
fn ilt() {
    run(
        Op::Ilt,
        &[
            (8, &[0x80, 0x7f], V(1)),
            (8, &[0x7f, 0x80], V(0)),
            (8, &[0xff, 0], V(1)),
            (8, &[0, 0xff], V(0)),
            (8, &[1, 1], V(0)),
            (8, &[0xff, 0xff], V(0)),
            (8, &[0, 1], V(1)),
            (8, &[0x80, 0x81], V(1)),
            (8, &[16, 1], V(0)), // differs only above the low half
            (16, &[0x8000, 0x7fff], V(1)),
            (16, &[0x7fff, 0x8000], V(0)),
            (16, &[0xffff, 0], V(1)),
            (16, &[0, 0xffff], V(0)),
            (16, &[1, 1], V(0)),
            (16, &[0xffff, 0xffff], V(0)),
            (16, &[0, 1], V(1)),
            (16, &[0x8000, 0x8001], V(1)),
            (16, &[0x100, 1], V(0)), // differs only above the low half
            (32, &[0x80000000, 0x7fffffff], V(1)),
            (32, &[0x7fffffff, 0x80000000], V(0)),
            (32, &[0xffffffff, 0], V(1)),
            (32, &[0, 0xffffffff], V(0)),
            (32, &[1, 1], V(0)),
            (32, &[0xffffffff, 0xffffffff], V(0)),
            (32, &[0, 1], V(1)),
            (32, &[0x80000000, 0x80000001], V(1)),
            (32, &[0x10000, 1], V(0)), // differs only above the low half
            (64, &[0x8000000000000000, 0x7fffffffffffffff], V(1)),
            (64, &[0x7fffffffffffffff, 0x8000000000000000], V(0)),
            (64, &[0xffffffffffffffff, 0], V(1)),
            (64, &[0, 0xffffffffffffffff], V(0)),
            (64, &[1, 1], V(0)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)),
            (64, &[0, 1], V(1)),
            (64, &[0x8000000000000000, 0x8000000000000001], V(1)),
            (64, &[0x100000000, 1], V(0)), // differs only above the low half
        ],
    );
}

/// Signed a >= b.
#[test]
fn ige() {
    run(
        Op::Ige,
        &[
            (8, &[0x80, 0x7f], V(0)),
            (8, &[0x7f, 0x80], V(1)),
            (8, &[0xff, 0], V(0)),
            (8, &[0, 0xff], V(1)),
            (8, &[1, 1], V(1)),
            (8, &[0xff, 0xff], V(1)),
            (8, &[0, 1], V(0)),
            (8, &[0x80, 0x81], V(0)),
            (8, &[16, 1], V(1)), // differs only above the low half
            (16, &[0x8000, 0x7fff], V(0)),
            (16, &[0x7fff, 0x8000], V(1)),
            (16, &[0xffff, 0], V(0)),
            (16, &[0, 0xffff], V(1)),
            (16, &[1, 1], V(1)),
            (16, &[0xffff, 0xffff], V(1)),
            (16, &[0, 1], V(0)),
            (16, &[0x8000, 0x8001], V(0)),
            (16, &[0x100, 1], V(1)), // differs only above the low half
            (32, &[0x80000000, 0x7fffffff], V(0)),
            (32, &[0x7fffffff, 0x80000000], V(1)),
            (32, &[0xffffffff, 0], V(0)),
            (32, &[0, 0xffffffff], V(1)),
            (32, &[1, 1], V(1)),
            (32, &[0xffffffff, 0xffffffff], V(1)),
            (32, &[0, 1], V(0)),
            (32, &[0x80000000, 0x80000001], V(0)),
            (32, &[0x10000, 1], V(1)), // differs only above the low half
            (64, &[0x8000000000000000, 0x7fffffffffffffff], V(0)),
            (64, &[0x7fffffffffffffff, 0x8000000000000000], V(1)),
            (64, &[0xffffffffffffffff, 0], V(0)),
            (64, &[0, 0xffffffffffffffff], V(1)),
            (64, &[1, 1], V(1)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(1)),
            (64, &[0, 1], V(0)),
            (64, &[0x8000000000000000, 0x8000000000000001], V(0)),
            (64, &[0x100000000, 1], V(1)), // differs only above the low half
        ],
    );
}

/// Unsigned a < b.
#[test]
fn ult() {
    run(
        Op::Ult,
        &[
            (8, &[0x80, 0x7f], V(0)),
            (8, &[0x7f, 0x80], V(1)),
            (8, &[0xff, 0], V(0)),
            (8, &[0, 0xff], V(1)),
            (8, &[1, 1], V(0)),
            (8, &[0xff, 0xff], V(0)),
            (8, &[0, 1], V(1)),
            (8, &[0x80, 0x81], V(1)),
            (8, &[16, 1], V(0)), // differs only above the low half
            (16, &[0x8000, 0x7fff], V(0)),
            (16, &[0x7fff, 0x8000], V(1)),
            (16, &[0xffff, 0], V(0)),
            (16, &[0, 0xffff], V(1)),
            (16, &[1, 1], V(0)),
            (16, &[0xffff, 0xffff], V(0)),
            (16, &[0, 1], V(1)),
            (16, &[0x8000, 0x8001], V(1)),
            (16, &[0x100, 1], V(0)), // differs only above the low half
            (32, &[0x80000000, 0x7fffffff], V(0)),
            (32, &[0x7fffffff, 0x80000000], V(1)),
            (32, &[0xffffffff, 0], V(0)),
            (32, &[0, 0xffffffff], V(1)),
            (32, &[1, 1], V(0)),
            (32, &[0xffffffff, 0xffffffff], V(0)),
            (32, &[0, 1], V(1)),
            (32, &[0x80000000, 0x80000001], V(1)),
            (32, &[0x10000, 1], V(0)), // differs only above the low half
            (64, &[0x8000000000000000, 0x7fffffffffffffff], V(0)),
            (64, &[0x7fffffffffffffff, 0x8000000000000000], V(1)),
            (64, &[0xffffffffffffffff, 0], V(0)),
            (64, &[0, 0xffffffffffffffff], V(1)),
            (64, &[1, 1], V(0)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)),
            (64, &[0, 1], V(1)),
            (64, &[0x8000000000000000, 0x8000000000000001], V(1)),
            (64, &[0x100000000, 1], V(0)), // differs only above the low half
        ],
    );
}

/// Unsigned a >= b.
#[test]
fn uge() {
    run(
        Op::Uge,
        &[
            (8, &[0x80, 0x7f], V(1)),
            (8, &[0x7f, 0x80], V(0)),
            (8, &[0xff, 0], V(1)),
            (8, &[0, 0xff], V(0)),
            (8, &[1, 1], V(1)),
            (8, &[0xff, 0xff], V(1)),
            (8, &[0, 1], V(0)),
            (8, &[0x80, 0x81], V(0)),
            (8, &[16, 1], V(1)), // differs only above the low half
            (16, &[0x8000, 0x7fff], V(1)),
            (16, &[0x7fff, 0x8000], V(0)),
            (16, &[0xffff, 0], V(1)),
            (16, &[0, 0xffff], V(0)),
            (16, &[1, 1], V(1)),
            (16, &[0xffff, 0xffff], V(1)),
            (16, &[0, 1], V(0)),
            (16, &[0x8000, 0x8001], V(0)),
            (16, &[0x100, 1], V(1)), // differs only above the low half
            (32, &[0x80000000, 0x7fffffff], V(1)),
            (32, &[0x7fffffff, 0x80000000], V(0)),
            (32, &[0xffffffff, 0], V(1)),
            (32, &[0, 0xffffffff], V(0)),
            (32, &[1, 1], V(1)),
            (32, &[0xffffffff, 0xffffffff], V(1)),
            (32, &[0, 1], V(0)),
            (32, &[0x80000000, 0x80000001], V(0)),
            (32, &[0x10000, 1], V(1)), // differs only above the low half
            (64, &[0x8000000000000000, 0x7fffffffffffffff], V(1)),
            (64, &[0x7fffffffffffffff, 0x8000000000000000], V(0)),
            (64, &[0xffffffffffffffff, 0], V(1)),
            (64, &[0, 0xffffffffffffffff], V(0)),
            (64, &[1, 1], V(1)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(1)),
            (64, &[0, 1], V(0)),
            (64, &[0x8000000000000000, 0x8000000000000001], V(0)),
            (64, &[0x100000000, 1], V(1)), // differs only above the low half
        ],
    );
}

/// a == b, also on 1-bit booleans.
#[test]
fn ieq() {
    run(
        Op::Ieq,
        &[
            (1, &[0, 0], V(1)),
            (1, &[0, 1], V(0)),
            (1, &[1, 0], V(0)),
            (1, &[1, 1], V(1)),
            (8, &[0, 0], V(1)),
            (8, &[0x80, 0x80], V(1)),
            (8, &[0x80, 0], V(0)),
            (8, &[0xff, 0x7f], V(0)),
            (8, &[0xff, 0xff], V(1)),
            (8, &[16, 0], V(0)),   // differs only above the low half
            (8, &[1, 0x81], V(0)), // differs only in the top bit
            (16, &[0, 0], V(1)),
            (16, &[0x8000, 0x8000], V(1)),
            (16, &[0x8000, 0], V(0)),
            (16, &[0xffff, 0x7fff], V(0)),
            (16, &[0xffff, 0xffff], V(1)),
            (16, &[0x100, 0], V(0)),  // differs only above the low half
            (16, &[1, 0x8001], V(0)), // differs only in the top bit
            (32, &[0, 0], V(1)),
            (32, &[0x80000000, 0x80000000], V(1)),
            (32, &[0x80000000, 0], V(0)),
            (32, &[0xffffffff, 0x7fffffff], V(0)),
            (32, &[0xffffffff, 0xffffffff], V(1)),
            (32, &[0x10000, 0], V(0)),    // differs only above the low half
            (32, &[1, 0x80000001], V(0)), // differs only in the top bit
            (64, &[0, 0], V(1)),
            (64, &[0x8000000000000000, 0x8000000000000000], V(1)),
            (64, &[0x8000000000000000, 0], V(0)),
            (64, &[0xffffffffffffffff, 0x7fffffffffffffff], V(0)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(1)),
            (64, &[0x100000000, 0], V(0)), // differs only above the low half
            (64, &[1, 0x8000000000000001], V(0)), // differs only in the top bit
        ],
    );
}

/// a != b, also on 1-bit booleans.
#[test]
fn ine() {
    run(
        Op::Ine,
        &[
            (1, &[0, 0], V(0)),
            (1, &[0, 1], V(1)),
            (1, &[1, 0], V(1)),
            (1, &[1, 1], V(0)),
            (8, &[0, 0], V(0)),
            (8, &[0x80, 0x80], V(0)),
            (8, &[0x80, 0], V(1)),
            (8, &[0xff, 0x7f], V(1)),
            (8, &[0xff, 0xff], V(0)),
            (8, &[16, 0], V(1)),   // differs only above the low half
            (8, &[1, 0x81], V(1)), // differs only in the top bit
            (16, &[0, 0], V(0)),
            (16, &[0x8000, 0x8000], V(0)),
            (16, &[0x8000, 0], V(1)),
            (16, &[0xffff, 0x7fff], V(1)),
            (16, &[0xffff, 0xffff], V(0)),
            (16, &[0x100, 0], V(1)),  // differs only above the low half
            (16, &[1, 0x8001], V(1)), // differs only in the top bit
            (32, &[0, 0], V(0)),
            (32, &[0x80000000, 0x80000000], V(0)),
            (32, &[0x80000000, 0], V(1)),
            (32, &[0xffffffff, 0x7fffffff], V(1)),
            (32, &[0xffffffff, 0xffffffff], V(0)),
            (32, &[0x10000, 0], V(1)),    // differs only above the low half
            (32, &[1, 0x80000001], V(1)), // differs only in the top bit
            (64, &[0, 0], V(0)),
            (64, &[0x8000000000000000, 0x8000000000000000], V(0)),
            (64, &[0x8000000000000000, 0], V(1)),
            (64, &[0xffffffffffffffff, 0x7fffffffffffffff], V(1)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)),
            (64, &[0x100000000, 0], V(1)), // differs only above the low half
            (64, &[1, 0x8000000000000001], V(1)), // differs only in the top bit
        ],
    );
}

/// Ordered a == b: false with any NaN; -0 == +0.
#[test]
fn feq() {
    run(
        Op::Feq,
        &[
            (16, &[0, 0x8000], V(1)),                              // +0 vs -0
            (16, &[0x8000, 0], V(1)),                              // -0 vs +0
            (16, &[0x3c00, 0x3c00], V(1)),                         // 1 vs 1
            (16, &[0xbc00, 0x3c00], V(0)),                         // -1 vs 1
            (16, &[0x3c00, 0x3c01], V(0)), // 1 vs 1.0009765625 (1 vs 1 + ulp)
            (16, &[0x7e00, 0x7e00], V(0)), // NaN vs NaN
            (16, &[0x7e00, 0x3c00], V(0)), // NaN vs 1
            (16, &[0x3c00, 0x7e00], V(0)), // 1 vs NaN
            (16, &[0xfe00, 0xfc00], V(0)), // -NaN vs -inf
            (16, &[0x7e55, 0x7e55], V(0)), // NaN vs NaN (identical bits)
            (16, &[0x7d00, 0], V(0)),      // NaN vs +0 (signaling NaN)
            (16, &[0x7c00, 0x7c00], V(1)), // +inf vs +inf
            (16, &[0xfc00, 0x7c00], V(0)), // -inf vs +inf
            (16, &[0x7bff, 0x7c00], V(0)), // 65504 vs +inf
            (16, &[0x7c00, 0x7bff], V(0)), // +inf vs 65504
            (16, &[1, 0], V(0)),           // 2^-24 vs +0 (denormal vs 0 (no flush))
            (16, &[0x8001, 0x8000], V(0)), // -2^-24 vs -0 (-denormal vs -0)
            (16, &[0x3ff, 0x400], V(0)), // 6.0976e-05 vs 2^-14 (largest denormal vs smallest normal)
            (16, &[0xfbff, 0xfc00], V(0)), // -65504 vs -inf
            (32, &[0, 0x80000000], V(1)), // +0 vs -0
            (32, &[0x80000000, 0], V(1)), // -0 vs +0
            (32, &[0x3f800000, 0x3f800000], V(1)), // 1 vs 1
            (32, &[0xbf800000, 0x3f800000], V(0)), // -1 vs 1
            (32, &[0x3f800000, 0x3f800001], V(0)), // 1 vs 1.00000012 (1 vs 1 + ulp)
            (32, &[0x7fc00000, 0x7fc00000], V(0)), // NaN vs NaN
            (32, &[0x7fc00000, 0x3f800000], V(0)), // NaN vs 1
            (32, &[0x3f800000, 0x7fc00000], V(0)), // 1 vs NaN
            (32, &[0xffc00000, 0xff800000], V(0)), // -NaN vs -inf
            (32, &[0x7fc12345, 0x7fc12345], V(0)), // NaN vs NaN (identical bits)
            (32, &[0x7fa00000, 0], V(0)), // NaN vs +0 (signaling NaN)
            (32, &[0x7f800000, 0x7f800000], V(1)), // +inf vs +inf
            (32, &[0xff800000, 0x7f800000], V(0)), // -inf vs +inf
            (32, &[0x7f7fffff, 0x7f800000], V(0)), // 3.40282347e+38 vs +inf
            (32, &[0x7f800000, 0x7f7fffff], V(0)), // +inf vs 3.40282347e+38
            (32, &[1, 0], V(0)),         // 2^-149 vs +0 (denormal vs 0 (no flush))
            (32, &[0x80000001, 0x80000000], V(0)), // -2^-149 vs -0 (-denormal vs -0)
            (32, &[0x7fffff, 0x800000], V(0)), // 1.17549421e-38 vs 2^-126 (largest denormal vs smallest normal)
            (32, &[0xff7fffff, 0xff800000], V(0)), // -3.40282347e+38 vs -inf
            (64, &[0, 0x8000000000000000], V(1)), // +0 vs -0
            (64, &[0x8000000000000000, 0], V(1)), // -0 vs +0
            (64, &[0x3ff0000000000000, 0x3ff0000000000000], V(1)), // 1 vs 1
            (64, &[0xbff0000000000000, 0x3ff0000000000000], V(0)), // -1 vs 1
            (64, &[0x3ff0000000000000, 0x3ff0000000000001], V(0)), // 1 vs 1.0000000000000002 (1 vs 1 + ulp)
            (64, &[0x7ff8000000000000, 0x7ff8000000000000], V(0)), // NaN vs NaN
            (64, &[0x7ff8000000000000, 0x3ff0000000000000], V(0)), // NaN vs 1
            (64, &[0x3ff0000000000000, 0x7ff8000000000000], V(0)), // 1 vs NaN
            (64, &[0xfff8000000000000, 0xfff0000000000000], V(0)), // -NaN vs -inf
            (64, &[0x7ff8000000012345, 0x7ff8000000012345], V(0)), // NaN vs NaN (identical bits)
            (64, &[0x7ff4000000000000, 0], V(0)),                  // NaN vs +0 (signaling NaN)
            (64, &[0x7ff0000000000000, 0x7ff0000000000000], V(1)), // +inf vs +inf
            (64, &[0xfff0000000000000, 0x7ff0000000000000], V(0)), // -inf vs +inf
            (64, &[0x7fefffffffffffff, 0x7ff0000000000000], V(0)), // 1.7976931348623157e+308 vs +inf
            (64, &[0x7ff0000000000000, 0x7fefffffffffffff], V(0)), // +inf vs 1.7976931348623157e+308
            (64, &[1, 0], V(0)), // 2^-1074 vs +0 (denormal vs 0 (no flush))
            (64, &[0x8000000000000001, 0x8000000000000000], V(0)), // -2^-1074 vs -0 (-denormal vs -0)
            (64, &[0xfffffffffffff, 0x10000000000000], V(0)), // 2.2250738585072009e-308 vs 2^-1022 (largest denormal vs smallest normal)
            (64, &[0xffefffffffffffff, 0xfff0000000000000], V(0)), // -1.7976931348623157e+308 vs -inf
        ],
    );
}

/// Unordered a != b: true with any NaN.
#[test]
fn fneu() {
    run(
        Op::Fneu,
        &[
            (16, &[0, 0x8000], V(0)),                              // +0 vs -0
            (16, &[0x8000, 0], V(0)),                              // -0 vs +0
            (16, &[0x3c00, 0x3c00], V(0)),                         // 1 vs 1
            (16, &[0xbc00, 0x3c00], V(1)),                         // -1 vs 1
            (16, &[0x3c00, 0x3c01], V(1)), // 1 vs 1.0009765625 (1 vs 1 + ulp)
            (16, &[0x7e00, 0x7e00], V(1)), // NaN vs NaN
            (16, &[0x7e00, 0x3c00], V(1)), // NaN vs 1
            (16, &[0x3c00, 0x7e00], V(1)), // 1 vs NaN
            (16, &[0xfe00, 0xfc00], V(1)), // -NaN vs -inf
            (16, &[0x7e55, 0x7e55], V(1)), // NaN vs NaN (identical bits)
            (16, &[0x7d00, 0], V(1)),      // NaN vs +0 (signaling NaN)
            (16, &[0x7c00, 0x7c00], V(0)), // +inf vs +inf
            (16, &[0xfc00, 0x7c00], V(1)), // -inf vs +inf
            (16, &[0x7bff, 0x7c00], V(1)), // 65504 vs +inf
            (16, &[0x7c00, 0x7bff], V(1)), // +inf vs 65504
            (16, &[1, 0], V(1)),           // 2^-24 vs +0 (denormal vs 0 (no flush))
            (16, &[0x8001, 0x8000], V(1)), // -2^-24 vs -0 (-denormal vs -0)
            (16, &[0x3ff, 0x400], V(1)), // 6.0976e-05 vs 2^-14 (largest denormal vs smallest normal)
            (16, &[0xfbff, 0xfc00], V(1)), // -65504 vs -inf
            (32, &[0, 0x80000000], V(0)), // +0 vs -0
            (32, &[0x80000000, 0], V(0)), // -0 vs +0
            (32, &[0x3f800000, 0x3f800000], V(0)), // 1 vs 1
            (32, &[0xbf800000, 0x3f800000], V(1)), // -1 vs 1
            (32, &[0x3f800000, 0x3f800001], V(1)), // 1 vs 1.00000012 (1 vs 1 + ulp)
            (32, &[0x7fc00000, 0x7fc00000], V(1)), // NaN vs NaN
            (32, &[0x7fc00000, 0x3f800000], V(1)), // NaN vs 1
            (32, &[0x3f800000, 0x7fc00000], V(1)), // 1 vs NaN
            (32, &[0xffc00000, 0xff800000], V(1)), // -NaN vs -inf
            (32, &[0x7fc12345, 0x7fc12345], V(1)), // NaN vs NaN (identical bits)
            (32, &[0x7fa00000, 0], V(1)), // NaN vs +0 (signaling NaN)
            (32, &[0x7f800000, 0x7f800000], V(0)), // +inf vs +inf
            (32, &[0xff800000, 0x7f800000], V(1)), // -inf vs +inf
            (32, &[0x7f7fffff, 0x7f800000], V(1)), // 3.40282347e+38 vs +inf
            (32, &[0x7f800000, 0x7f7fffff], V(1)), // +inf vs 3.40282347e+38
            (32, &[1, 0], V(1)),         // 2^-149 vs +0 (denormal vs 0 (no flush))
            (32, &[0x80000001, 0x80000000], V(1)), // -2^-149 vs -0 (-denormal vs -0)
            (32, &[0x7fffff, 0x800000], V(1)), // 1.17549421e-38 vs 2^-126 (largest denormal vs smallest normal)
            (32, &[0xff7fffff, 0xff800000], V(1)), // -3.40282347e+38 vs -inf
            (64, &[0, 0x8000000000000000], V(0)), // +0 vs -0
            (64, &[0x8000000000000000, 0], V(0)), // -0 vs +0
            (64, &[0x3ff0000000000000, 0x3ff0000000000000], V(0)), // 1 vs 1
            (64, &[0xbff0000000000000, 0x3ff0000000000000], V(1)), // -1 vs 1
            (64, &[0x3ff0000000000000, 0x3ff0000000000001], V(1)), // 1 vs 1.0000000000000002 (1 vs 1 + ulp)
            (64, &[0x7ff8000000000000, 0x7ff8000000000000], V(1)), // NaN vs NaN
            (64, &[0x7ff8000000000000, 0x3ff0000000000000], V(1)), // NaN vs 1
            (64, &[0x3ff0000000000000, 0x7ff8000000000000], V(1)), // 1 vs NaN
            (64, &[0xfff8000000000000, 0xfff0000000000000], V(1)), // -NaN vs -inf
            (64, &[0x7ff8000000012345, 0x7ff8000000012345], V(1)), // NaN vs NaN (identical bits)
            (64, &[0x7ff4000000000000, 0], V(1)),                  // NaN vs +0 (signaling NaN)
            (64, &[0x7ff0000000000000, 0x7ff0000000000000], V(0)), // +inf vs +inf
            (64, &[0xfff0000000000000, 0x7ff0000000000000], V(1)), // -inf vs +inf
            (64, &[0x7fefffffffffffff, 0x7ff0000000000000], V(1)), // 1.7976931348623157e+308 vs +inf
            (64, &[0x7ff0000000000000, 0x7fefffffffffffff], V(1)), // +inf vs 1.7976931348623157e+308
            (64, &[1, 0], V(1)), // 2^-1074 vs +0 (denormal vs 0 (no flush))
            (64, &[0x8000000000000001, 0x8000000000000000], V(1)), // -2^-1074 vs -0 (-denormal vs -0)
            (64, &[0xfffffffffffff, 0x10000000000000], V(1)), // 2.2250738585072009e-308 vs 2^-1022 (largest denormal vs smallest normal)
            (64, &[0xffefffffffffffff, 0xfff0000000000000], V(1)), // -1.7976931348623157e+308 vs -inf
        ],
    );
}

/// Ordered a < b: false with any NaN; -0 < +0 is false.
#[test]
fn flt() {
    run(
        Op::Flt,
        &[
            (16, &[0, 0x8000], V(0)),                              // +0 vs -0
            (16, &[0x8000, 0], V(0)),                              // -0 vs +0
            (16, &[0x3c00, 0x3c00], V(0)),                         // 1 vs 1
            (16, &[0xbc00, 0x3c00], V(1)),                         // -1 vs 1
            (16, &[0x3c00, 0x3c01], V(1)), // 1 vs 1.0009765625 (1 vs 1 + ulp)
            (16, &[0x7e00, 0x7e00], V(0)), // NaN vs NaN
            (16, &[0x7e00, 0x3c00], V(0)), // NaN vs 1
            (16, &[0x3c00, 0x7e00], V(0)), // 1 vs NaN
            (16, &[0xfe00, 0xfc00], V(0)), // -NaN vs -inf
            (16, &[0x7e55, 0x7e55], V(0)), // NaN vs NaN (identical bits)
            (16, &[0x7d00, 0], V(0)),      // NaN vs +0 (signaling NaN)
            (16, &[0x7c00, 0x7c00], V(0)), // +inf vs +inf
            (16, &[0xfc00, 0x7c00], V(1)), // -inf vs +inf
            (16, &[0x7bff, 0x7c00], V(1)), // 65504 vs +inf
            (16, &[0x7c00, 0x7bff], V(0)), // +inf vs 65504
            (16, &[1, 0], V(0)),           // 2^-24 vs +0 (denormal vs 0 (no flush))
            (16, &[0x8001, 0x8000], V(1)), // -2^-24 vs -0 (-denormal vs -0)
            (16, &[0x3ff, 0x400], V(1)), // 6.0976e-05 vs 2^-14 (largest denormal vs smallest normal)
            (16, &[0xfbff, 0xfc00], V(0)), // -65504 vs -inf
            (32, &[0, 0x80000000], V(0)), // +0 vs -0
            (32, &[0x80000000, 0], V(0)), // -0 vs +0
            (32, &[0x3f800000, 0x3f800000], V(0)), // 1 vs 1
            (32, &[0xbf800000, 0x3f800000], V(1)), // -1 vs 1
            (32, &[0x3f800000, 0x3f800001], V(1)), // 1 vs 1.00000012 (1 vs 1 + ulp)
            (32, &[0x7fc00000, 0x7fc00000], V(0)), // NaN vs NaN
            (32, &[0x7fc00000, 0x3f800000], V(0)), // NaN vs 1
            (32, &[0x3f800000, 0x7fc00000], V(0)), // 1 vs NaN
            (32, &[0xffc00000, 0xff800000], V(0)), // -NaN vs -inf
            (32, &[0x7fc12345, 0x7fc12345], V(0)), // NaN vs NaN (identical bits)
            (32, &[0x7fa00000, 0], V(0)), // NaN vs +0 (signaling NaN)
            (32, &[0x7f800000, 0x7f800000], V(0)), // +inf vs +inf
            (32, &[0xff800000, 0x7f800000], V(1)), // -inf vs +inf
            (32, &[0x7f7fffff, 0x7f800000], V(1)), // 3.40282347e+38 vs +inf
            (32, &[0x7f800000, 0x7f7fffff], V(0)), // +inf vs 3.40282347e+38
            (32, &[1, 0], V(0)),         // 2^-149 vs +0 (denormal vs 0 (no flush))
            (32, &[0x80000001, 0x80000000], V(1)), // -2^-149 vs -0 (-denormal vs -0)
            (32, &[0x7fffff, 0x800000], V(1)), // 1.17549421e-38 vs 2^-126 (largest denormal vs smallest normal)
            (32, &[0xff7fffff, 0xff800000], V(0)), // -3.40282347e+38 vs -inf
            (64, &[0, 0x8000000000000000], V(0)), // +0 vs -0
            (64, &[0x8000000000000000, 0], V(0)), // -0 vs +0
            (64, &[0x3ff0000000000000, 0x3ff0000000000000], V(0)), // 1 vs 1
            (64, &[0xbff0000000000000, 0x3ff0000000000000], V(1)), // -1 vs 1
            (64, &[0x3ff0000000000000, 0x3ff0000000000001], V(1)), // 1 vs 1.0000000000000002 (1 vs 1 + ulp)
            (64, &[0x7ff8000000000000, 0x7ff8000000000000], V(0)), // NaN vs NaN
            (64, &[0x7ff8000000000000, 0x3ff0000000000000], V(0)), // NaN vs 1
            (64, &[0x3ff0000000000000, 0x7ff8000000000000], V(0)), // 1 vs NaN
            (64, &[0xfff8000000000000, 0xfff0000000000000], V(0)), // -NaN vs -inf
            (64, &[0x7ff8000000012345, 0x7ff8000000012345], V(0)), // NaN vs NaN (identical bits)
            (64, &[0x7ff4000000000000, 0], V(0)),                  // NaN vs +0 (signaling NaN)
            (64, &[0x7ff0000000000000, 0x7ff0000000000000], V(0)), // +inf vs +inf
            (64, &[0xfff0000000000000, 0x7ff0000000000000], V(1)), // -inf vs +inf
            (64, &[0x7fefffffffffffff, 0x7ff0000000000000], V(1)), // 1.7976931348623157e+308 vs +inf
            (64, &[0x7ff0000000000000, 0x7fefffffffffffff], V(0)), // +inf vs 1.7976931348623157e+308
            (64, &[1, 0], V(0)), // 2^-1074 vs +0 (denormal vs 0 (no flush))
            (64, &[0x8000000000000001, 0x8000000000000000], V(1)), // -2^-1074 vs -0 (-denormal vs -0)
            (64, &[0xfffffffffffff, 0x10000000000000], V(1)), // 2.2250738585072009e-308 vs 2^-1022 (largest denormal vs smallest normal)
            (64, &[0xffefffffffffffff, 0xfff0000000000000], V(0)), // -1.7976931348623157e+308 vs -inf
        ],
    );
}

/// Ordered a >= b: false with any NaN.
#[test]
fn fge() {
    run(
        Op::Fge,
        &[
            (16, &[0, 0x8000], V(1)),                              // +0 vs -0
            (16, &[0x8000, 0], V(1)),                              // -0 vs +0
            (16, &[0x3c00, 0x3c00], V(1)),                         // 1 vs 1
            (16, &[0xbc00, 0x3c00], V(0)),                         // -1 vs 1
            (16, &[0x3c00, 0x3c01], V(0)), // 1 vs 1.0009765625 (1 vs 1 + ulp)
            (16, &[0x7e00, 0x7e00], V(0)), // NaN vs NaN
            (16, &[0x7e00, 0x3c00], V(0)), // NaN vs 1
            (16, &[0x3c00, 0x7e00], V(0)), // 1 vs NaN
            (16, &[0xfe00, 0xfc00], V(0)), // -NaN vs -inf
            (16, &[0x7e55, 0x7e55], V(0)), // NaN vs NaN (identical bits)
            (16, &[0x7d00, 0], V(0)),      // NaN vs +0 (signaling NaN)
            (16, &[0x7c00, 0x7c00], V(1)), // +inf vs +inf
            (16, &[0xfc00, 0x7c00], V(0)), // -inf vs +inf
            (16, &[0x7bff, 0x7c00], V(0)), // 65504 vs +inf
            (16, &[0x7c00, 0x7bff], V(1)), // +inf vs 65504
            (16, &[1, 0], V(1)),           // 2^-24 vs +0 (denormal vs 0 (no flush))
            (16, &[0x8001, 0x8000], V(0)), // -2^-24 vs -0 (-denormal vs -0)
            (16, &[0x3ff, 0x400], V(0)), // 6.0976e-05 vs 2^-14 (largest denormal vs smallest normal)
            (16, &[0xfbff, 0xfc00], V(1)), // -65504 vs -inf
            (32, &[0, 0x80000000], V(1)), // +0 vs -0
            (32, &[0x80000000, 0], V(1)), // -0 vs +0
            (32, &[0x3f800000, 0x3f800000], V(1)), // 1 vs 1
            (32, &[0xbf800000, 0x3f800000], V(0)), // -1 vs 1
            (32, &[0x3f800000, 0x3f800001], V(0)), // 1 vs 1.00000012 (1 vs 1 + ulp)
            (32, &[0x7fc00000, 0x7fc00000], V(0)), // NaN vs NaN
            (32, &[0x7fc00000, 0x3f800000], V(0)), // NaN vs 1
            (32, &[0x3f800000, 0x7fc00000], V(0)), // 1 vs NaN
            (32, &[0xffc00000, 0xff800000], V(0)), // -NaN vs -inf
            (32, &[0x7fc12345, 0x7fc12345], V(0)), // NaN vs NaN (identical bits)
            (32, &[0x7fa00000, 0], V(0)), // NaN vs +0 (signaling NaN)
            (32, &[0x7f800000, 0x7f800000], V(1)), // +inf vs +inf
            (32, &[0xff800000, 0x7f800000], V(0)), // -inf vs +inf
            (32, &[0x7f7fffff, 0x7f800000], V(0)), // 3.40282347e+38 vs +inf
            (32, &[0x7f800000, 0x7f7fffff], V(1)), // +inf vs 3.40282347e+38
            (32, &[1, 0], V(1)),         // 2^-149 vs +0 (denormal vs 0 (no flush))
            (32, &[0x80000001, 0x80000000], V(0)), // -2^-149 vs -0 (-denormal vs -0)
            (32, &[0x7fffff, 0x800000], V(0)), // 1.17549421e-38 vs 2^-126 (largest denormal vs smallest normal)
            (32, &[0xff7fffff, 0xff800000], V(1)), // -3.40282347e+38 vs -inf
            (64, &[0, 0x8000000000000000], V(1)), // +0 vs -0
            (64, &[0x8000000000000000, 0], V(1)), // -0 vs +0
            (64, &[0x3ff0000000000000, 0x3ff0000000000000], V(1)), // 1 vs 1
            (64, &[0xbff0000000000000, 0x3ff0000000000000], V(0)), // -1 vs 1
            (64, &[0x3ff0000000000000, 0x3ff0000000000001], V(0)), // 1 vs 1.0000000000000002 (1 vs 1 + ulp)
            (64, &[0x7ff8000000000000, 0x7ff8000000000000], V(0)), // NaN vs NaN
            (64, &[0x7ff8000000000000, 0x3ff0000000000000], V(0)), // NaN vs 1
            (64, &[0x3ff0000000000000, 0x7ff8000000000000], V(0)), // 1 vs NaN
            (64, &[0xfff8000000000000, 0xfff0000000000000], V(0)), // -NaN vs -inf
            (64, &[0x7ff8000000012345, 0x7ff8000000012345], V(0)), // NaN vs NaN (identical bits)
            (64, &[0x7ff4000000000000, 0], V(0)),                  // NaN vs +0 (signaling NaN)
            (64, &[0x7ff0000000000000, 0x7ff0000000000000], V(1)), // +inf vs +inf
            (64, &[0xfff0000000000000, 0x7ff0000000000000], V(0)), // -inf vs +inf
            (64, &[0x7fefffffffffffff, 0x7ff0000000000000], V(0)), // 1.7976931348623157e+308 vs +inf
            (64, &[0x7ff0000000000000, 0x7fefffffffffffff], V(1)), // +inf vs 1.7976931348623157e+308
            (64, &[1, 0], V(1)), // 2^-1074 vs +0 (denormal vs 0 (no flush))
            (64, &[0x8000000000000001, 0x8000000000000000], V(0)), // -2^-1074 vs -0 (-denormal vs -0)
            (64, &[0xfffffffffffff, 0x10000000000000], V(0)), // 2.2250738585072009e-308 vs 2^-1022 (largest denormal vs smallest normal)
            (64, &[0xffefffffffffffff, 0xfff0000000000000], V(1)), // -1.7976931348623157e+308 vs -inf
        ],
    );
}
