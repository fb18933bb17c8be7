//! Integer arithmetic ops (`iadd`, `isub`, `imul`, `ineg`, `iabs`, min/max,
//! `imul_high`, `umul_high`) at every size OPS.md allows, at 0, 1, -1, MIN, MAX
//! and powers of two.
//!
//! Rows are `(n, [sources], expected)`; values are raw bits masked to n.

mod common;

use common::{run, V};
use ir::Op;

#[test]
fn every_op_of_the_group_has_a_table() {
    common::check_group("ops_int", include_str!("ops_int.rs"));
}

/// a + b, wrapping.
#[test]
fn iadd() {
    run(
        Op::Iadd,
        &[
            (8, &[0, 0], V(0)),
            (8, &[1, 1], V(2)),
            (8, &[0x7f, 1], V(0x80)), // MAX + 1 = MIN
            (8, &[0xff, 1], V(0)),
            (8, &[0xff, 0xff], V(0xfe)),
            (8, &[0x80, 0x80], V(0)),
            (8, &[0x80, 0xff], V(0x7f)), // MIN - 1 = MAX
            (8, &[0x7f, 0x7f], V(0xfe)),
            (8, &[15, 1], V(16)), // carry into the upper half
            (16, &[0, 0], V(0)),
            (16, &[1, 1], V(2)),
            (16, &[0x7fff, 1], V(0x8000)), // MAX + 1 = MIN
            (16, &[0xffff, 1], V(0)),
            (16, &[0xffff, 0xffff], V(0xfffe)),
            (16, &[0x8000, 0x8000], V(0)),
            (16, &[0x8000, 0xffff], V(0x7fff)), // MIN - 1 = MAX
            (16, &[0x7fff, 0x7fff], V(0xfffe)),
            (16, &[0xff, 1], V(0x100)), // carry into the upper half
            (32, &[0, 0], V(0)),
            (32, &[1, 1], V(2)),
            (32, &[0x7fffffff, 1], V(0x80000000)), // MAX + 1 = MIN
            (32, &[0xffffffff, 1], V(0)),
            (32, &[0xffffffff, 0xffffffff], V(0xfffffffe)),
            (32, &[0x80000000, 0x80000000], V(0)),
            (32, &[0x80000000, 0xffffffff], V(0x7fffffff)), // MIN - 1 = MAX
            (32, &[0x7fffffff, 0x7fffffff], V(0xfffffffe)),
            (32, &[0xffff, 1], V(0x10000)), // carry into the upper half
            (64, &[0, 0], V(0)),
            (64, &[1, 1], V(2)),
            (64, &[0x7fffffffffffffff, 1], V(0x8000000000000000)), // MAX + 1 = MIN
            (64, &[0xffffffffffffffff, 1], V(0)),
            (
                64,
                &[0xffffffffffffffff, 0xffffffffffffffff],
                V(0xfffffffffffffffe),
            ),
            (64, &[0x8000000000000000, 0x8000000000000000], V(0)),
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0x7fffffffffffffff),
            ), // MIN - 1 = MAX
            (
                64,
                &[0x7fffffffffffffff, 0x7fffffffffffffff],
                V(0xfffffffffffffffe),
            ),
            (64, &[0xffffffff, 1], V(0x100000000)), // carry into the upper half
        ],
    );
}

/// a - b, wrapping.
#[test]
fn isub() {
    run(
        Op::Isub,
        &[
            (8, &[0, 1], V(0xff)),
            (8, &[1, 1], V(0)),
            (8, &[0x80, 1], V(0x7f)),    // MIN - 1 = MAX
            (8, &[0x7f, 0xff], V(0x80)), // MAX + 1 = MIN
            (8, &[0, 0x80], V(0x80)),    // -MIN = MIN
            (8, &[0xff, 0x7f], V(0x80)),
            (8, &[16, 1], V(15)), // borrow from the upper half
            (16, &[0, 1], V(0xffff)),
            (16, &[1, 1], V(0)),
            (16, &[0x8000, 1], V(0x7fff)),      // MIN - 1 = MAX
            (16, &[0x7fff, 0xffff], V(0x8000)), // MAX + 1 = MIN
            (16, &[0, 0x8000], V(0x8000)),      // -MIN = MIN
            (16, &[0xffff, 0x7fff], V(0x8000)),
            (16, &[0x100, 1], V(0xff)), // borrow from the upper half
            (32, &[0, 1], V(0xffffffff)),
            (32, &[1, 1], V(0)),
            (32, &[0x80000000, 1], V(0x7fffffff)), // MIN - 1 = MAX
            (32, &[0x7fffffff, 0xffffffff], V(0x80000000)), // MAX + 1 = MIN
            (32, &[0, 0x80000000], V(0x80000000)), // -MIN = MIN
            (32, &[0xffffffff, 0x7fffffff], V(0x80000000)),
            (32, &[0x10000, 1], V(0xffff)), // borrow from the upper half
            (64, &[0, 1], V(0xffffffffffffffff)),
            (64, &[1, 1], V(0)),
            (64, &[0x8000000000000000, 1], V(0x7fffffffffffffff)), // MIN - 1 = MAX
            (
                64,
                &[0x7fffffffffffffff, 0xffffffffffffffff],
                V(0x8000000000000000),
            ), // MAX + 1 = MIN
            (64, &[0, 0x8000000000000000], V(0x8000000000000000)), // -MIN = MIN
            (
                64,
                &[0xffffffffffffffff, 0x7fffffffffffffff],
                V(0x8000000000000000),
            ),
            (64, &[0x100000000, 1], V(0xffffffff)), // borrow from the upper half
        ],
    );
}

/// Low half of a * b (wrapping).
#[test]
fn imul() {
    run(
        Op::Imul,
        &[
            (8, &[0, 0xff], V(0)),
            (8, &[0xff, 0xff], V(1)),
            (8, &[0x80, 0xff], V(0x80)), // MIN * -1 = MIN
            (8, &[0x7f, 0x7f], V(1)),    // MAX^2 = 1 mod 2^n
            (8, &[16, 16], V(0)),        // 2^n wraps to 0
            (8, &[0x7f, 2], V(0xfe)),
            (8, &[3, 0x80], V(0x80)),
            (8, &[15, 15], V(0xe1)), // low half of (2^(n/2) - 1)^2
            (16, &[0, 0xffff], V(0)),
            (16, &[0xffff, 0xffff], V(1)),
            (16, &[0x8000, 0xffff], V(0x8000)), // MIN * -1 = MIN
            (16, &[0x7fff, 0x7fff], V(1)),      // MAX^2 = 1 mod 2^n
            (16, &[0x100, 0x100], V(0)),        // 2^n wraps to 0
            (16, &[0x7fff, 2], V(0xfffe)),
            (16, &[3, 0x8000], V(0x8000)),
            (16, &[0xff, 0xff], V(0xfe01)), // low half of (2^(n/2) - 1)^2
            (32, &[0, 0xffffffff], V(0)),
            (32, &[0xffffffff, 0xffffffff], V(1)),
            (32, &[0x80000000, 0xffffffff], V(0x80000000)), // MIN * -1 = MIN
            (32, &[0x7fffffff, 0x7fffffff], V(1)),          // MAX^2 = 1 mod 2^n
            (32, &[0x10000, 0x10000], V(0)),                // 2^n wraps to 0
            (32, &[0x7fffffff, 2], V(0xfffffffe)),
            (32, &[3, 0x80000000], V(0x80000000)),
            (32, &[0xffff, 0xffff], V(0xfffe0001)), // low half of (2^(n/2) - 1)^2
            (64, &[0, 0xffffffffffffffff], V(0)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(1)),
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0x8000000000000000),
            ), // MIN * -1 = MIN
            (64, &[0x7fffffffffffffff, 0x7fffffffffffffff], V(1)), // MAX^2 = 1 mod 2^n
            (64, &[0x100000000, 0x100000000], V(0)),               // 2^n wraps to 0
            (64, &[0x7fffffffffffffff, 2], V(0xfffffffffffffffe)),
            (64, &[3, 0x8000000000000000], V(0x8000000000000000)),
            (64, &[0xffffffff, 0xffffffff], V(0xfffffffe00000001)), // low half of (2^(n/2) - 1)^2
        ],
    );
}

/// -a, wrapping: ineg(MIN) = MIN.
#[test]
fn ineg() {
    run(
        Op::Ineg,
        &[
            (8, &[0], V(0)),
            (8, &[1], V(0xff)),
            (8, &[0xff], V(1)),
            (8, &[0x80], V(0x80)),
            (8, &[0x7f], V(0x81)),
            (8, &[2], V(0xfe)),
            (16, &[0], V(0)),
            (16, &[1], V(0xffff)),
            (16, &[0xffff], V(1)),
            (16, &[0x8000], V(0x8000)),
            (16, &[0x7fff], V(0x8001)),
            (16, &[2], V(0xfffe)),
            (32, &[0], V(0)),
            (32, &[1], V(0xffffffff)),
            (32, &[0xffffffff], V(1)),
            (32, &[0x80000000], V(0x80000000)),
            (32, &[0x7fffffff], V(0x80000001)),
            (32, &[2], V(0xfffffffe)),
            (64, &[0], V(0)),
            (64, &[1], V(0xffffffffffffffff)),
            (64, &[0xffffffffffffffff], V(1)),
            (64, &[0x8000000000000000], V(0x8000000000000000)),
            (64, &[0x7fffffffffffffff], V(0x8000000000000001)),
            (64, &[2], V(0xfffffffffffffffe)),
        ],
    );
}

/// |a| as signed, wrapping: iabs(MIN) = MIN.
#[test]
fn iabs() {
    run(
        Op::Iabs,
        &[
            (8, &[0], V(0)),
            (8, &[1], V(1)),
            (8, &[0xff], V(1)),
            (8, &[0x80], V(0x80)),
            (8, &[0x7f], V(0x7f)),
            (8, &[0x81], V(0x7f)),
            (16, &[0], V(0)),
            (16, &[1], V(1)),
            (16, &[0xffff], V(1)),
            (16, &[0x8000], V(0x8000)),
            (16, &[0x7fff], V(0x7fff)),
            (16, &[0x8001], V(0x7fff)),
            (32, &[0], V(0)),
            (32, &[1], V(1)),
            (32, &[0xffffffff], V(1)),
            (32, &[0x80000000], V(0x80000000)),
            (32, &[0x7fffffff], V(0x7fffffff)),
            (32, &[0x80000001], V(0x7fffffff)),
            (64, &[0], V(0)),
            (64, &[1], V(1)),
            (64, &[0xffffffffffffffff], V(1)),
            (64, &[0x8000000000000000], V(0x8000000000000000)),
            (64, &[0x7fffffffffffffff], V(0x7fffffffffffffff)),
            (64, &[0x8000000000000001], V(0x7fffffffffffffff)),
        ],
    );
}

/// Signed minimum.
#[test]
fn imin() {
    run(
        Op::Imin,
        &[
            (8, &[0x80, 0x7f], V(0x80)),
            (8, &[0x7f, 0x80], V(0x80)),
            (8, &[0xff, 0], V(0xff)),
            (8, &[0, 0xff], V(0xff)),
            (8, &[0xff, 1], V(0xff)),
            (8, &[0, 1], V(0)),
            (8, &[0x80, 0xff], V(0x80)),
            (8, &[0x80, 0x80], V(0x80)),
            (16, &[0x8000, 0x7fff], V(0x8000)),
            (16, &[0x7fff, 0x8000], V(0x8000)),
            (16, &[0xffff, 0], V(0xffff)),
            (16, &[0, 0xffff], V(0xffff)),
            (16, &[0xffff, 1], V(0xffff)),
            (16, &[0, 1], V(0)),
            (16, &[0x8000, 0xffff], V(0x8000)),
            (16, &[0x8000, 0x8000], V(0x8000)),
            (32, &[0x80000000, 0x7fffffff], V(0x80000000)),
            (32, &[0x7fffffff, 0x80000000], V(0x80000000)),
            (32, &[0xffffffff, 0], V(0xffffffff)),
            (32, &[0, 0xffffffff], V(0xffffffff)),
            (32, &[0xffffffff, 1], V(0xffffffff)),
            (32, &[0, 1], V(0)),
            (32, &[0x80000000, 0xffffffff], V(0x80000000)),
            (32, &[0x80000000, 0x80000000], V(0x80000000)),
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0x8000000000000000),
            ),
            (
                64,
                &[0x7fffffffffffffff, 0x8000000000000000],
                V(0x8000000000000000),
            ),
            (64, &[0xffffffffffffffff, 0], V(0xffffffffffffffff)),
            (64, &[0, 0xffffffffffffffff], V(0xffffffffffffffff)),
            (64, &[0xffffffffffffffff, 1], V(0xffffffffffffffff)),
            (64, &[0, 1], V(0)),
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0x8000000000000000),
            ),
            (
                64,
                &[0x8000000000000000, 0x8000000000000000],
                V(0x8000000000000000),
            ),
        ],
    );
}

/// Signed maximum.
#[test]
fn imax() {
    run(
        Op::Imax,
        &[
            (8, &[0x80, 0x7f], V(0x7f)),
            (8, &[0x7f, 0x80], V(0x7f)),
            (8, &[0xff, 0], V(0)),
            (8, &[0, 0xff], V(0)),
            (8, &[0xff, 1], V(1)),
            (8, &[0, 1], V(1)),
            (8, &[0x80, 0xff], V(0xff)),
            (8, &[0x80, 0x80], V(0x80)),
            (16, &[0x8000, 0x7fff], V(0x7fff)),
            (16, &[0x7fff, 0x8000], V(0x7fff)),
            (16, &[0xffff, 0], V(0)),
            (16, &[0, 0xffff], V(0)),
            (16, &[0xffff, 1], V(1)),
            (16, &[0, 1], V(1)),
            (16, &[0x8000, 0xffff], V(0xffff)),
            (16, &[0x8000, 0x8000], V(0x8000)),
            (32, &[0x80000000, 0x7fffffff], V(0x7fffffff)),
            (32, &[0x7fffffff, 0x80000000], V(0x7fffffff)),
            (32, &[0xffffffff, 0], V(0)),
            (32, &[0, 0xffffffff], V(0)),
            (32, &[0xffffffff, 1], V(1)),
            (32, &[0, 1], V(1)),
            (32, &[0x80000000, 0xffffffff], V(0xffffffff)),
            (32, &[0x80000000, 0x80000000], V(0x80000000)),
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0x7fffffffffffffff),
            ),
            (
                64,
                &[0x7fffffffffffffff, 0x8000000000000000],
                V(0x7fffffffffffffff),
            ),
            (64, &[0xffffffffffffffff, 0], V(0)),
            (64, &[0, 0xffffffffffffffff], V(0)),
            (64, &[0xffffffffffffffff, 1], V(1)),
            (64, &[0, 1], V(1)),
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0xffffffffffffffff),
            ),
            (
                64,
                &[0x8000000000000000, 0x8000000000000000],
                V(0x8000000000000000),
            ),
        ],
    );
}

/// Unsigned minimum.
#[test]
fn umin() {
    run(
        Op::Umin,
        &[
            (8, &[0x80, 0x7f], V(0x7f)),
            (8, &[0x7f, 0x80], V(0x7f)),
            (8, &[0xff, 0], V(0)),
            (8, &[0, 0xff], V(0)),
            (8, &[0xff, 1], V(1)),
            (8, &[0, 1], V(0)),
            (8, &[0x80, 0xff], V(0x80)),
            (8, &[0x80, 0x80], V(0x80)),
            (16, &[0x8000, 0x7fff], V(0x7fff)),
            (16, &[0x7fff, 0x8000], V(0x7fff)),
            (16, &[0xffff, 0], V(0)),
            (16, &[0, 0xffff], V(0)),
            (16, &[0xffff, 1], V(1)),
            (16, &[0, 1], V(0)),
            (16, &[0x8000, 0xffff], V(0x8000)),
            (16, &[0x8000, 0x8000], V(0x8000)),
            (32, &[0x80000000, 0x7fffffff], V(0x7fffffff)),
            (32, &[0x7fffffff, 0x80000000], V(0x7fffffff)),
            (32, &[0xffffffff, 0], V(0)),
            (32, &[0, 0xffffffff], V(0)),
            (32, &[0xffffffff, 1], V(1)),
            (32, &[0, 1], V(0)),
            (32, &[0x80000000, 0xffffffff], V(0x80000000)),
            (32, &[0x80000000, 0x80000000], V(0x80000000)),
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0x7fffffffffffffff),
            ),
            (
                64,
                &[0x7fffffffffffffff, 0x8000000000000000],
                V(0x7fffffffffffffff),
            ),
            (64, &[0xffffffffffffffff, 0], V(0)),
            (64, &[0, 0xffffffffffffffff], V(0)),
            (64, &[0xffffffffffffffff, 1], V(1)),
            (64, &[0, 1], V(0)),
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0x8000000000000000),
            ),
            (
                64,
                &[0x8000000000000000, 0x8000000000000000],
                V(0x8000000000000000),
            ),
        ],
    );
}

/// Unsigned maximum.
#[test]
fn umax() {
    run(
        Op::Umax,
        &[
            (8, &[0x80, 0x7f], V(0x80)),
            (8, &[0x7f, 0x80], V(0x80)),
            (8, &[0xff, 0], V(0xff)),
            (8, &[0, 0xff], V(0xff)),
            (8, &[0xff, 1], V(0xff)),
            (8, &[0, 1], V(1)),
            (8, &[0x80, 0xff], V(0xff)),
            (8, &[0x80, 0x80], V(0x80)),
            (16, &[0x8000, 0x7fff], V(0x8000)),
            (16, &[0x7fff, 0x8000], V(0x8000)),
            (16, &[0xffff, 0], V(0xffff)),
            (16, &[0, 0xffff], V(0xffff)),
            (16, &[0xffff, 1], V(0xffff)),
            (16, &[0, 1], V(1)),
            (16, &[0x8000, 0xffff], V(0xffff)),
            (16, &[0x8000, 0x8000], V(0x8000)),
            (32, &[0x80000000, 0x7fffffff], V(0x80000000)),
            (32, &[0x7fffffff, 0x80000000], V(0x80000000)),
            (32, &[0xffffffff, 0], V(0xffffffff)),
            (32, &[0, 0xffffffff], V(0xffffffff)),
            (32, &[0xffffffff, 1], V(0xffffffff)),
            (32, &[0, 1], V(1)),
            (32, &[0x80000000, 0xffffffff], V(0xffffffff)),
            (32, &[0x80000000, 0x80000000], V(0x80000000)),
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0x8000000000000000),
            ),
            (
                64,
                &[0x7fffffffffffffff, 0x8000000000000000],
                V(0x8000000000000000),
            ),
            (64, &[0xffffffffffffffff, 0], V(0xffffffffffffffff)),
            (64, &[0, 0xffffffffffffffff], V(0xffffffffffffffff)),
            (64, &[0xffffffffffffffff, 1], V(0xffffffffffffffff)),
            (64, &[0, 1], V(1)),
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0xffffffffffffffff),
            ),
            (
                64,
                &[0x8000000000000000, 0x8000000000000000],
                V(0x8000000000000000),
            ),
        ],
    );
}

/// High half of the exact signed 2n-bit product.
#[test]
fn imul_high() {
    run(
        Op::ImulHigh,
        &[
            (8, &[0, 0x80], V(0)),                          // 0 * -128 = 0x0
            (8, &[0x80, 0x80], V(64)),                      // -128 * -128 = 0x4000
            (8, &[0xff, 0xff], V(0)),                       // -1 * -1 = 0x1
            (8, &[0xff, 1], V(0xff)),                       // -1 * 1 = 0xffff
            (8, &[0x7f, 0x7f], V(63)),                      // 127 * 127 = 0x3f01
            (8, &[0x80, 0x7f], V(0xc0)),                    // -128 * 127 = 0xc080
            (8, &[0x80, 1], V(0xff)),                       // -128 * 1 = 0xff80
            (8, &[0x80, 0xff], V(0)),                       // -128 * -1 = 0x80
            (8, &[0xff, 2], V(0xff)),                       // -1 * 2 = 0xfffe
            (8, &[16, 16], V(1)),                           // 16 * 16 = 0x100
            (8, &[0x7f, 2], V(0)),                          // 127 * 2 = 0xfe
            (16, &[0, 0x8000], V(0)),                       // 0 * -32768 = 0x0
            (16, &[0x8000, 0x8000], V(0x4000)),             // -32768 * -32768 = 0x40000000
            (16, &[0xffff, 0xffff], V(0)),                  // -1 * -1 = 0x1
            (16, &[0xffff, 1], V(0xffff)),                  // -1 * 1 = 0xffffffff
            (16, &[0x7fff, 0x7fff], V(0x3fff)),             // 32767 * 32767 = 0x3fff0001
            (16, &[0x8000, 0x7fff], V(0xc000)),             // -32768 * 32767 = 0xc0008000
            (16, &[0x8000, 1], V(0xffff)),                  // -32768 * 1 = 0xffff8000
            (16, &[0x8000, 0xffff], V(0)),                  // -32768 * -1 = 0x8000
            (16, &[0xffff, 2], V(0xffff)),                  // -1 * 2 = 0xfffffffe
            (16, &[0x100, 0x100], V(1)),                    // 256 * 256 = 0x10000
            (16, &[0x7fff, 2], V(0)),                       // 32767 * 2 = 0xfffe
            (32, &[0, 0x80000000], V(0)),                   // 0 * -2147483648 = 0x0
            (32, &[0x80000000, 0x80000000], V(0x40000000)), // -2147483648 * -2147483648 = 0x4000000000000000
            (32, &[0xffffffff, 0xffffffff], V(0)),          // -1 * -1 = 0x1
            (32, &[0xffffffff, 1], V(0xffffffff)),          // -1 * 1 = 0xffffffffffffffff
            (32, &[0x7fffffff, 0x7fffffff], V(0x3fffffff)), // 2147483647 * 2147483647 = 0x3fffffff00000001
            (32, &[0x80000000, 0x7fffffff], V(0xc0000000)), // -2147483648 * 2147483647 = 0xc000000080000000
            (32, &[0x80000000, 1], V(0xffffffff)),          // -2147483648 * 1 = 0xffffffff80000000
            (32, &[0x80000000, 0xffffffff], V(0)),          // -2147483648 * -1 = 0x80000000
            (32, &[0xffffffff, 2], V(0xffffffff)),          // -1 * 2 = 0xfffffffffffffffe
            (32, &[0x10000, 0x10000], V(1)),                // 65536 * 65536 = 0x100000000
            (32, &[0x7fffffff, 2], V(0)),                   // 2147483647 * 2 = 0xfffffffe
            (64, &[0, 0x8000000000000000], V(0)),           // 0 * -9223372036854775808 = 0x0
            (
                64,
                &[0x8000000000000000, 0x8000000000000000],
                V(0x4000000000000000),
            ), // -9223372036854775808 * -9223372036854775808 = 0x40000000000000000000000000000000
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)), // -1 * -1 = 0x1
            (64, &[0xffffffffffffffff, 1], V(0xffffffffffffffff)), // -1 * 1 = 0xffffffffffffffffffffffffffffffff
            (
                64,
                &[0x7fffffffffffffff, 0x7fffffffffffffff],
                V(0x3fffffffffffffff),
            ), // 9223372036854775807 * 9223372036854775807 = 0x3fffffffffffffff0000000000000001
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0xc000000000000000),
            ), // -9223372036854775808 * 9223372036854775807 = 0xc0000000000000008000000000000000
            (64, &[0x8000000000000000, 1], V(0xffffffffffffffff)), // -9223372036854775808 * 1 = 0xffffffffffffffff8000000000000000
            (64, &[0x8000000000000000, 0xffffffffffffffff], V(0)), // -9223372036854775808 * -1 = 0x8000000000000000
            (64, &[0xffffffffffffffff, 2], V(0xffffffffffffffff)), // -1 * 2 = 0xfffffffffffffffffffffffffffffffe
            (64, &[0x100000000, 0x100000000], V(1)), // 4294967296 * 4294967296 = 0x10000000000000000
            (64, &[0x7fffffffffffffff, 2], V(0)),    // 9223372036854775807 * 2 = 0xfffffffffffffffe
        ],
    );
}

/// High half of the exact unsigned 2n-bit product.
#[test]
fn umul_high() {
    run(
        Op::UmulHigh,
        &[
            (8, &[0, 0x80], V(0)),                          // product 0x0
            (8, &[0x80, 0x80], V(64)),                      // product 0x4000
            (8, &[0xff, 0xff], V(0xfe)),                    // product 0xfe01
            (8, &[0xff, 1], V(0)),                          // product 0xff
            (8, &[0x7f, 0x7f], V(63)),                      // product 0x3f01
            (8, &[0x80, 0x7f], V(63)),                      // product 0x3f80
            (8, &[0x80, 1], V(0)),                          // product 0x80
            (8, &[0x80, 0xff], V(0x7f)),                    // product 0x7f80
            (8, &[0xff, 2], V(1)),                          // product 0x1fe
            (8, &[16, 16], V(1)),                           // product 0x100
            (8, &[0x7f, 2], V(0)),                          // product 0xfe
            (16, &[0, 0x8000], V(0)),                       // product 0x0
            (16, &[0x8000, 0x8000], V(0x4000)),             // product 0x40000000
            (16, &[0xffff, 0xffff], V(0xfffe)),             // product 0xfffe0001
            (16, &[0xffff, 1], V(0)),                       // product 0xffff
            (16, &[0x7fff, 0x7fff], V(0x3fff)),             // product 0x3fff0001
            (16, &[0x8000, 0x7fff], V(0x3fff)),             // product 0x3fff8000
            (16, &[0x8000, 1], V(0)),                       // product 0x8000
            (16, &[0x8000, 0xffff], V(0x7fff)),             // product 0x7fff8000
            (16, &[0xffff, 2], V(1)),                       // product 0x1fffe
            (16, &[0x100, 0x100], V(1)),                    // product 0x10000
            (16, &[0x7fff, 2], V(0)),                       // product 0xfffe
            (32, &[0, 0x80000000], V(0)),                   // product 0x0
            (32, &[0x80000000, 0x80000000], V(0x40000000)), // product 0x4000000000000000
            (32, &[0xffffffff, 0xffffffff], V(0xfffffffe)), // product 0xfffffffe00000001
            (32, &[0xffffffff, 1], V(0)),                   // product 0xffffffff
            (32, &[0x7fffffff, 0x7fffffff], V(0x3fffffff)), // product 0x3fffffff00000001
            (32, &[0x80000000, 0x7fffffff], V(0x3fffffff)), // product 0x3fffffff80000000
            (32, &[0x80000000, 1], V(0)),                   // product 0x80000000
            (32, &[0x80000000, 0xffffffff], V(0x7fffffff)), // product 0x7fffffff80000000
            (32, &[0xffffffff, 2], V(1)),                   // product 0x1fffffffe
            (32, &[0x10000, 0x10000], V(1)),                // product 0x100000000
            (32, &[0x7fffffff, 2], V(0)),                   // product 0xfffffffe
            (64, &[0, 0x8000000000000000], V(0)),           // product 0x0
            (
                64,
                &[0x8000000000000000, 0x8000000000000000],
                V(0x4000000000000000),
            ), // product 0x40000000000000000000000000000000
            (
                64,
                &[0xffffffffffffffff, 0xffffffffffffffff],
                V(0xfffffffffffffffe),
            ), // product 0xfffffffffffffffe0000000000000001
            (64, &[0xffffffffffffffff, 1], V(0)),           // product 0xffffffffffffffff
            (
                64,
                &[0x7fffffffffffffff, 0x7fffffffffffffff],
                V(0x3fffffffffffffff),
            ), // product 0x3fffffffffffffff0000000000000001
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0x3fffffffffffffff),
            ), // product 0x3fffffffffffffff8000000000000000
            (64, &[0x8000000000000000, 1], V(0)),           // product 0x8000000000000000
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0x7fffffffffffffff),
            ), // product 0x7fffffffffffffff8000000000000000
            (64, &[0xffffffffffffffff, 2], V(1)),           // product 0x1fffffffffffffffe
            (64, &[0x100000000, 0x100000000], V(1)),        // product 0x10000000000000000
            (64, &[0x7fffffffffffffff, 2], V(0)),           // product 0xfffffffffffffffe
        ],
    );
}
