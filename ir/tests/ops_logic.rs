//! Shifts (`ishl`, `ishr`, `ushr`: the 32-bit count is masked to n - 1),
//! bitwise logic (`iand`, `ior`, `ixor`, `inot`, also on 1-bit booleans) and
//! `bcsel`, at every size OPS.md allows.
//!
//! Rows are `(n, [sources], expected)`; values are raw bits masked to n (the
//! shift count is 32-bit, the `bcsel` condition 1-bit).

mod common;

use common::{run, V};
use ir::Op;

#[test]
fn every_op_of_the_group_has_a_table() {
    common::check_group("ops_logic", include_str!("ops_logic.rs"));
}

/// a << (b & (n-1)).
#[test]
fn ishl() {
    run(
        Op::Ishl,
        &[
            (8, &[1, 0], V(1)),
            (8, &[1, 7], V(0x80)),
            (8, &[1, 8], V(1)), // count n & (n-1) = 0
            (8, &[1, 9], V(2)), // count n + 1 -> 1
            (8, &[0x80, 1], V(0)),
            (8, &[0x80, 7], V(0)),
            (8, &[0x80, 8], V(0x80)), // count masked to 0
            (8, &[0x7f, 7], V(0x80)),
            (8, &[0xff, 1], V(0xfe)),
            (8, &[0xff, 0xffffffff], V(0x80)), // count -1 -> n - 1
            (8, &[0xf0, 4], V(0)),
            (8, &[3, 32], V(3)),               // count 32 masked to n - 1
            (8, &[0xf0, 0x80000000], V(0xf0)), // count 2^31 -> 0
            (16, &[1, 0], V(1)),
            (16, &[1, 15], V(0x8000)),
            (16, &[1, 16], V(1)), // count n & (n-1) = 0
            (16, &[1, 17], V(2)), // count n + 1 -> 1
            (16, &[0x8000, 1], V(0)),
            (16, &[0x8000, 15], V(0)),
            (16, &[0x8000, 16], V(0x8000)), // count masked to 0
            (16, &[0x7fff, 15], V(0x8000)),
            (16, &[0xffff, 1], V(0xfffe)),
            (16, &[0xffff, 0xffffffff], V(0x8000)), // count -1 -> n - 1
            (16, &[0xdef0, 4], V(0xef00)),
            (16, &[3, 32], V(3)),                   // count 32 masked to n - 1
            (16, &[0xdef0, 0x80000000], V(0xdef0)), // count 2^31 -> 0
            (32, &[1, 0], V(1)),
            (32, &[1, 31], V(0x80000000)),
            (32, &[1, 32], V(1)), // count n & (n-1) = 0
            (32, &[1, 33], V(2)), // count n + 1 -> 1
            (32, &[0x80000000, 1], V(0)),
            (32, &[0x80000000, 31], V(0)),
            (32, &[0x80000000, 32], V(0x80000000)), // count masked to 0
            (32, &[0x7fffffff, 31], V(0x80000000)),
            (32, &[0xffffffff, 1], V(0xfffffffe)),
            (32, &[0xffffffff, 0xffffffff], V(0x80000000)), // count -1 -> n - 1
            (32, &[0x9abcdef0, 4], V(0xabcdef00)),
            (32, &[3, 32], V(3)), // count 32 masked to n - 1
            (32, &[0x9abcdef0, 0x80000000], V(0x9abcdef0)), // count 2^31 -> 0
            (64, &[1, 0], V(1)),
            (64, &[1, 63], V(0x8000000000000000)),
            (64, &[1, 64], V(1)),   // count n & (n-1) = 0
            (64, &[1, 0x41], V(2)), // count n + 1 -> 1
            (64, &[0x8000000000000000, 1], V(0)),
            (64, &[0x8000000000000000, 63], V(0)),
            (64, &[0x8000000000000000, 64], V(0x8000000000000000)), // count masked to 0
            (64, &[0x7fffffffffffffff, 63], V(0x8000000000000000)),
            (64, &[0xffffffffffffffff, 1], V(0xfffffffffffffffe)),
            (64, &[0xffffffffffffffff, 0xffffffff], V(0x8000000000000000)), // count -1 -> n - 1
            (64, &[0x123456789abcdef0, 4], V(0x23456789abcdef00)),
            (64, &[3, 32], V(0x300000000)), // count 32 masked to n - 1
            (64, &[0x123456789abcdef0, 0x80000000], V(0x123456789abcdef0)), // count 2^31 -> 0
        ],
    );
}

/// Arithmetic a >> (b & (n-1)).
#[test]
fn ishr() {
    run(
        Op::Ishr,
        &[
            (8, &[1, 0], V(1)),
            (8, &[1, 7], V(0)),
            (8, &[1, 8], V(1)), // count n & (n-1) = 0
            (8, &[1, 9], V(0)), // count n + 1 -> 1
            (8, &[0x80, 1], V(0xc0)),
            (8, &[0x80, 7], V(0xff)),
            (8, &[0x80, 8], V(0x80)), // count masked to 0
            (8, &[0x7f, 7], V(0)),
            (8, &[0xff, 1], V(0xff)),
            (8, &[0xff, 0xffffffff], V(0xff)), // count -1 -> n - 1
            (8, &[0xf0, 4], V(0xff)),
            (8, &[3, 32], V(3)),               // count 32 masked to n - 1
            (8, &[0xf0, 0x80000000], V(0xf0)), // count 2^31 -> 0
            (16, &[1, 0], V(1)),
            (16, &[1, 15], V(0)),
            (16, &[1, 16], V(1)), // count n & (n-1) = 0
            (16, &[1, 17], V(0)), // count n + 1 -> 1
            (16, &[0x8000, 1], V(0xc000)),
            (16, &[0x8000, 15], V(0xffff)),
            (16, &[0x8000, 16], V(0x8000)), // count masked to 0
            (16, &[0x7fff, 15], V(0)),
            (16, &[0xffff, 1], V(0xffff)),
            (16, &[0xffff, 0xffffffff], V(0xffff)), // count -1 -> n - 1
            (16, &[0xdef0, 4], V(0xfdef)),
            (16, &[3, 32], V(3)),                   // count 32 masked to n - 1
            (16, &[0xdef0, 0x80000000], V(0xdef0)), // count 2^31 -> 0
            (32, &[1, 0], V(1)),
            (32, &[1, 31], V(0)),
            (32, &[1, 32], V(1)), // count n & (n-1) = 0
            (32, &[1, 33], V(0)), // count n + 1 -> 1
            (32, &[0x80000000, 1], V(0xc0000000)),
            (32, &[0x80000000, 31], V(0xffffffff)),
            (32, &[0x80000000, 32], V(0x80000000)), // count masked to 0
            (32, &[0x7fffffff, 31], V(0)),
            (32, &[0xffffffff, 1], V(0xffffffff)),
            (32, &[0xffffffff, 0xffffffff], V(0xffffffff)), // count -1 -> n - 1
            (32, &[0x9abcdef0, 4], V(0xf9abcdef)),
            (32, &[3, 32], V(3)), // count 32 masked to n - 1
            (32, &[0x9abcdef0, 0x80000000], V(0x9abcdef0)), // count 2^31 -> 0
            (64, &[1, 0], V(1)),
            (64, &[1, 63], V(0)),
            (64, &[1, 64], V(1)),   // count n & (n-1) = 0
            (64, &[1, 0x41], V(0)), // count n + 1 -> 1
            (64, &[0x8000000000000000, 1], V(0xc000000000000000)),
            (64, &[0x8000000000000000, 63], V(0xffffffffffffffff)),
            (64, &[0x8000000000000000, 64], V(0x8000000000000000)), // count masked to 0
            (64, &[0x7fffffffffffffff, 63], V(0)),
            (64, &[0xffffffffffffffff, 1], V(0xffffffffffffffff)),
            (64, &[0xffffffffffffffff, 0xffffffff], V(0xffffffffffffffff)), // count -1 -> n - 1
            (64, &[0x123456789abcdef0, 4], V(0x123456789abcdef)),
            (64, &[3, 32], V(0)), // count 32 masked to n - 1
            (64, &[0x123456789abcdef0, 0x80000000], V(0x123456789abcdef0)), // count 2^31 -> 0
        ],
    );
}

/// Logical a >> (b & (n-1)).
#[test]
fn ushr() {
    run(
        Op::Ushr,
        &[
            (8, &[1, 0], V(1)),
            (8, &[1, 7], V(0)),
            (8, &[1, 8], V(1)), // count n & (n-1) = 0
            (8, &[1, 9], V(0)), // count n + 1 -> 1
            (8, &[0x80, 1], V(64)),
            (8, &[0x80, 7], V(1)),
            (8, &[0x80, 8], V(0x80)), // count masked to 0
            (8, &[0x7f, 7], V(0)),
            (8, &[0xff, 1], V(0x7f)),
            (8, &[0xff, 0xffffffff], V(1)), // count -1 -> n - 1
            (8, &[0xf0, 4], V(15)),
            (8, &[3, 32], V(3)),               // count 32 masked to n - 1
            (8, &[0xf0, 0x80000000], V(0xf0)), // count 2^31 -> 0
            (16, &[1, 0], V(1)),
            (16, &[1, 15], V(0)),
            (16, &[1, 16], V(1)), // count n & (n-1) = 0
            (16, &[1, 17], V(0)), // count n + 1 -> 1
            (16, &[0x8000, 1], V(0x4000)),
            (16, &[0x8000, 15], V(1)),
            (16, &[0x8000, 16], V(0x8000)), // count masked to 0
            (16, &[0x7fff, 15], V(0)),
            (16, &[0xffff, 1], V(0x7fff)),
            (16, &[0xffff, 0xffffffff], V(1)), // count -1 -> n - 1
            (16, &[0xdef0, 4], V(0xdef)),
            (16, &[3, 32], V(3)),                   // count 32 masked to n - 1
            (16, &[0xdef0, 0x80000000], V(0xdef0)), // count 2^31 -> 0
            (32, &[1, 0], V(1)),
            (32, &[1, 31], V(0)),
            (32, &[1, 32], V(1)), // count n & (n-1) = 0
            (32, &[1, 33], V(0)), // count n + 1 -> 1
            (32, &[0x80000000, 1], V(0x40000000)),
            (32, &[0x80000000, 31], V(1)),
            (32, &[0x80000000, 32], V(0x80000000)), // count masked to 0
            (32, &[0x7fffffff, 31], V(0)),
            (32, &[0xffffffff, 1], V(0x7fffffff)),
            (32, &[0xffffffff, 0xffffffff], V(1)), // count -1 -> n - 1
            (32, &[0x9abcdef0, 4], V(0x9abcdef)),
            (32, &[3, 32], V(3)), // count 32 masked to n - 1
            (32, &[0x9abcdef0, 0x80000000], V(0x9abcdef0)), // count 2^31 -> 0
            (64, &[1, 0], V(1)),
            (64, &[1, 63], V(0)),
            (64, &[1, 64], V(1)),   // count n & (n-1) = 0
            (64, &[1, 0x41], V(0)), // count n + 1 -> 1
            (64, &[0x8000000000000000, 1], V(0x4000000000000000)),
            (64, &[0x8000000000000000, 63], V(1)),
            (64, &[0x8000000000000000, 64], V(0x8000000000000000)), // count masked to 0
            (64, &[0x7fffffffffffffff, 63], V(0)),
            (64, &[0xffffffffffffffff, 1], V(0x7fffffffffffffff)),
            (64, &[0xffffffffffffffff, 0xffffffff], V(1)), // count -1 -> n - 1
            (64, &[0x123456789abcdef0, 4], V(0x123456789abcdef)),
            (64, &[3, 32], V(0)), // count 32 masked to n - 1
            (64, &[0x123456789abcdef0, 0x80000000], V(0x123456789abcdef0)), // count 2^31 -> 0
        ],
    );
}

/// Bitwise AND; boolean AND at 1 bit.
#[test]
fn iand() {
    run(
        Op::Iand,
        &[
            (1, &[0, 0], V(0)),
            (1, &[0, 1], V(0)),
            (1, &[1, 0], V(0)),
            (1, &[1, 1], V(1)),
            (8, &[0x55, 51], V(17)),
            (8, &[0xff, 0x80], V(0x80)),
            (8, &[0x7f, 0xff], V(0x7f)),
            (8, &[0, 0xff], V(0)),
            (8, &[16, 15], V(0)),
            (8, &[0xff, 0xff], V(0xff)),
            (16, &[0x5555, 0x3333], V(0x1111)),
            (16, &[0xffff, 0x8000], V(0x8000)),
            (16, &[0x7fff, 0xffff], V(0x7fff)),
            (16, &[0, 0xffff], V(0)),
            (16, &[0x100, 0xff], V(0)),
            (16, &[0xffff, 0xffff], V(0xffff)),
            (32, &[0x55555555, 0x33333333], V(0x11111111)),
            (32, &[0xffffffff, 0x80000000], V(0x80000000)),
            (32, &[0x7fffffff, 0xffffffff], V(0x7fffffff)),
            (32, &[0, 0xffffffff], V(0)),
            (32, &[0x10000, 0xffff], V(0)),
            (32, &[0xffffffff, 0xffffffff], V(0xffffffff)),
            (
                64,
                &[0x5555555555555555, 0x3333333333333333],
                V(0x1111111111111111),
            ),
            (
                64,
                &[0xffffffffffffffff, 0x8000000000000000],
                V(0x8000000000000000),
            ),
            (
                64,
                &[0x7fffffffffffffff, 0xffffffffffffffff],
                V(0x7fffffffffffffff),
            ),
            (64, &[0, 0xffffffffffffffff], V(0)),
            (64, &[0x100000000, 0xffffffff], V(0)),
            (
                64,
                &[0xffffffffffffffff, 0xffffffffffffffff],
                V(0xffffffffffffffff),
            ),
        ],
    );
}

/// Bitwise OR; boolean OR at 1 bit.
#[test]
fn ior() {
    run(
        Op::Ior,
        &[
            (1, &[0, 0], V(0)),
            (1, &[0, 1], V(1)),
            (1, &[1, 0], V(1)),
            (1, &[1, 1], V(1)),
            (8, &[0x55, 51], V(0x77)),
            (8, &[0xff, 0x80], V(0xff)),
            (8, &[0x7f, 0xff], V(0xff)),
            (8, &[0, 0xff], V(0xff)),
            (8, &[16, 15], V(31)),
            (8, &[0xff, 0xff], V(0xff)),
            (16, &[0x5555, 0x3333], V(0x7777)),
            (16, &[0xffff, 0x8000], V(0xffff)),
            (16, &[0x7fff, 0xffff], V(0xffff)),
            (16, &[0, 0xffff], V(0xffff)),
            (16, &[0x100, 0xff], V(0x1ff)),
            (16, &[0xffff, 0xffff], V(0xffff)),
            (32, &[0x55555555, 0x33333333], V(0x77777777)),
            (32, &[0xffffffff, 0x80000000], V(0xffffffff)),
            (32, &[0x7fffffff, 0xffffffff], V(0xffffffff)),
            (32, &[0, 0xffffffff], V(0xffffffff)),
            (32, &[0x10000, 0xffff], V(0x1ffff)),
            (32, &[0xffffffff, 0xffffffff], V(0xffffffff)),
            (
                64,
                &[0x5555555555555555, 0x3333333333333333],
                V(0x7777777777777777),
            ),
            (
                64,
                &[0xffffffffffffffff, 0x8000000000000000],
                V(0xffffffffffffffff),
            ),
            (
                64,
                &[0x7fffffffffffffff, 0xffffffffffffffff],
                V(0xffffffffffffffff),
            ),
            (64, &[0, 0xffffffffffffffff], V(0xffffffffffffffff)),
            (64, &[0x100000000, 0xffffffff], V(0x1ffffffff)),
            (
                64,
                &[0xffffffffffffffff, 0xffffffffffffffff],
                V(0xffffffffffffffff),
            ),
        ],
    );
}

/// Bitwise XOR; boolean XOR at 1 bit.
#[test]
fn ixor() {
    run(
        Op::Ixor,
        &[
            (1, &[0, 0], V(0)),
            (1, &[0, 1], V(1)),
            (1, &[1, 0], V(1)),
            (1, &[1, 1], V(0)),
            (8, &[0x55, 51], V(0x66)),
            (8, &[0xff, 0x80], V(0x7f)),
            (8, &[0x7f, 0xff], V(0x80)),
            (8, &[0, 0xff], V(0xff)),
            (8, &[16, 15], V(31)),
            (8, &[0xff, 0xff], V(0)),
            (16, &[0x5555, 0x3333], V(0x6666)),
            (16, &[0xffff, 0x8000], V(0x7fff)),
            (16, &[0x7fff, 0xffff], V(0x8000)),
            (16, &[0, 0xffff], V(0xffff)),
            (16, &[0x100, 0xff], V(0x1ff)),
            (16, &[0xffff, 0xffff], V(0)),
            (32, &[0x55555555, 0x33333333], V(0x66666666)),
            (32, &[0xffffffff, 0x80000000], V(0x7fffffff)),
            (32, &[0x7fffffff, 0xffffffff], V(0x80000000)),
            (32, &[0, 0xffffffff], V(0xffffffff)),
            (32, &[0x10000, 0xffff], V(0x1ffff)),
            (32, &[0xffffffff, 0xffffffff], V(0)),
            (
                64,
                &[0x5555555555555555, 0x3333333333333333],
                V(0x6666666666666666),
            ),
            (
                64,
                &[0xffffffffffffffff, 0x8000000000000000],
                V(0x7fffffffffffffff),
            ),
            (
                64,
                &[0x7fffffffffffffff, 0xffffffffffffffff],
                V(0x8000000000000000),
            ),
            (64, &[0, 0xffffffffffffffff], V(0xffffffffffffffff)),
            (64, &[0x100000000, 0xffffffff], V(0x1ffffffff)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)),
        ],
    );
}

/// Bitwise NOT; boolean NOT at 1 bit (stays within 1 bit).
#[test]
fn inot() {
    run(
        Op::Inot,
        &[
            (1, &[0], V(1)), // true
            (1, &[1], V(0)), // false, not 0xfe..
            (8, &[0], V(0xff)),
            (8, &[0xff], V(0)),
            (8, &[0x80], V(0x7f)),
            (8, &[0x7f], V(0x80)),
            (8, &[0x55], V(0xaa)),
            (8, &[1], V(0xfe)),
            (16, &[0], V(0xffff)),
            (16, &[0xffff], V(0)),
            (16, &[0x8000], V(0x7fff)),
            (16, &[0x7fff], V(0x8000)),
            (16, &[0x5555], V(0xaaaa)),
            (16, &[1], V(0xfffe)),
            (32, &[0], V(0xffffffff)),
            (32, &[0xffffffff], V(0)),
            (32, &[0x80000000], V(0x7fffffff)),
            (32, &[0x7fffffff], V(0x80000000)),
            (32, &[0x55555555], V(0xaaaaaaaa)),
            (32, &[1], V(0xfffffffe)),
            (64, &[0], V(0xffffffffffffffff)),
            (64, &[0xffffffffffffffff], V(0)),
            (64, &[0x8000000000000000], V(0x7fffffffffffffff)),
            (64, &[0x7fffffffffffffff], V(0x8000000000000000)),
            (64, &[0x5555555555555555], V(0xaaaaaaaaaaaaaaaa)),
            (64, &[1], V(0xfffffffffffffffe)),
        ],
    );
}

/// c ? a : b, with a 1-bit c.
#[test]
fn bcsel() {
    run(
        Op::Bcsel,
        &[
            (1, &[1, 1, 0], V(1)),
            (1, &[0, 1, 0], V(0)),
            (1, &[1, 0, 1], V(0)),
            (1, &[0, 0, 1], V(1)),
            (8, &[1, 0xff, 0x80], V(0xff)),
            (8, &[0, 0xff, 0x80], V(0x80)),
            (8, &[1, 0x80, 0xff], V(0x80)),
            (8, &[0, 0x80, 0xff], V(0xff)),
            (8, &[1, 0, 0xf0], V(0)),
            (8, &[0, 0, 0xf0], V(0xf0)),
            (16, &[1, 0xffff, 0x8000], V(0xffff)),
            (16, &[0, 0xffff, 0x8000], V(0x8000)),
            (16, &[1, 0x8000, 0xffff], V(0x8000)),
            (16, &[0, 0x8000, 0xffff], V(0xffff)),
            (16, &[1, 0, 0xdef0], V(0)),
            (16, &[0, 0, 0xdef0], V(0xdef0)),
            (32, &[1, 0xffffffff, 0x80000000], V(0xffffffff)),
            (32, &[0, 0xffffffff, 0x80000000], V(0x80000000)),
            (32, &[1, 0x80000000, 0xffffffff], V(0x80000000)),
            (32, &[0, 0x80000000, 0xffffffff], V(0xffffffff)),
            (32, &[1, 0, 0x9abcdef0], V(0)),
            (32, &[0, 0, 0x9abcdef0], V(0x9abcdef0)),
            (
                64,
                &[1, 0xffffffffffffffff, 0x8000000000000000],
                V(0xffffffffffffffff),
            ),
            (
                64,
                &[0, 0xffffffffffffffff, 0x8000000000000000],
                V(0x8000000000000000),
            ),
            (
                64,
                &[1, 0x8000000000000000, 0xffffffffffffffff],
                V(0x8000000000000000),
            ),
            (
                64,
                &[0, 0x8000000000000000, 0xffffffffffffffff],
                V(0xffffffffffffffff),
            ),
            (64, &[1, 0, 0x123456789abcdef0], V(0)),
            (64, &[0, 0, 0x123456789abcdef0], V(0x123456789abcdef0)),
        ],
    );
}
