//! Integer division ops (`idiv`, `udiv`, `irem`, `imod`, `umod`) at every size,
//! with every undefined input (b = 0, and MIN / -1 for the signed ones) and
//! every sign combination.
//!
//! Rows are `(n, [sources], expected)`; values are raw bits masked to n.

mod common;

use common::{run, UB, V};
use ir::Op;

#[test]
fn every_op_of_the_group_has_a_table() {
    common::check_group("ops_div", include_str!("ops_div.rs"));
}

/// Signed a / b rounded toward zero; b = 0 and MIN / -1 are undefined.
#[test]
fn idiv() {
    run(
        Op::Idiv,
        &[
            (8, &[7, 2], V(3)),                                    // 7 / 2 = 3
            (8, &[0xf9, 2], V(0xfd)),                              // -7 / 2 = -3
            (8, &[7, 0xfe], V(0xfd)),                              // 7 / -2 = -3
            (8, &[0xf9, 0xfe], V(3)),                              // -7 / -2 = 3
            (8, &[6, 0xfd], V(0xfe)),                              // 6 / -3 = -2
            (8, &[0xfa, 3], V(0xfe)),                              // -6 / 3 = -2
            (8, &[0x80, 1], V(0x80)),                              // -128 / 1 = -128
            (8, &[0x80, 0xff], UB),        // -128 / -1; MIN with -1: undefined
            (8, &[1, 0], UB),              // 1 / 0; by zero
            (8, &[0, 0], UB),              // 0 / 0; by zero
            (8, &[0x80, 0], UB),           // -128 / 0; by zero
            (8, &[0xff, 0], UB),           // -1 / 0; by zero
            (8, &[0x80, 0x80], V(1)),      // -128 / -128 = 1
            (8, &[0x7f, 0x80], V(0)),      // 127 / -128 = 0
            (8, &[0x80, 0x7f], V(0xff)),   // -128 / 127 = -1
            (8, &[0x80, 3], V(0xd6)),      // -128 / 3 = -42
            (8, &[0xff, 0x80], V(0)),      // -1 / -128 = 0
            (8, &[1, 0x80], V(0)),         // 1 / -128 = 0
            (8, &[0x7f, 0xff], V(0x81)),   // 127 / -1 = -127
            (8, &[0xff, 0xff], V(1)),      // -1 / -1 = 1
            (8, &[0x80, 2], V(0xc0)),      // -128 / 2 = -64
            (16, &[7, 2], V(3)),           // 7 / 2 = 3
            (16, &[0xfff9, 2], V(0xfffd)), // -7 / 2 = -3
            (16, &[7, 0xfffe], V(0xfffd)), // 7 / -2 = -3
            (16, &[0xfff9, 0xfffe], V(3)), // -7 / -2 = 3
            (16, &[6, 0xfffd], V(0xfffe)), // 6 / -3 = -2
            (16, &[0xfffa, 3], V(0xfffe)), // -6 / 3 = -2
            (16, &[0x8000, 1], V(0x8000)), // -32768 / 1 = -32768
            (16, &[0x8000, 0xffff], UB),   // -32768 / -1; MIN with -1: undefined
            (16, &[1, 0], UB),             // 1 / 0; by zero
            (16, &[0, 0], UB),             // 0 / 0; by zero
            (16, &[0x8000, 0], UB),        // -32768 / 0; by zero
            (16, &[0xffff, 0], UB),        // -1 / 0; by zero
            (16, &[0x8000, 0x8000], V(1)), // -32768 / -32768 = 1
            (16, &[0x7fff, 0x8000], V(0)), // 32767 / -32768 = 0
            (16, &[0x8000, 0x7fff], V(0xffff)), // -32768 / 32767 = -1
            (16, &[0x8000, 3], V(0xd556)), // -32768 / 3 = -10922
            (16, &[0xffff, 0x8000], V(0)), // -1 / -32768 = 0
            (16, &[1, 0x8000], V(0)),      // 1 / -32768 = 0
            (16, &[0x7fff, 0xffff], V(0x8001)), // 32767 / -1 = -32767
            (16, &[0xffff, 0xffff], V(1)), // -1 / -1 = 1
            (16, &[0x8000, 2], V(0xc000)), // -32768 / 2 = -16384
            (32, &[7, 2], V(3)),           // 7 / 2 = 3
            (32, &[0xfffffff9, 2], V(0xfffffffd)), // -7 / 2 = -3
            (32, &[7, 0xfffffffe], V(0xfffffffd)), // 7 / -2 = -3
            (32, &[0xfffffff9, 0xfffffffe], V(3)), // -7 / -2 = 3
            (32, &[6, 0xfffffffd], V(0xfffffffe)), // 6 / -3 = -2
            (32, &[0xfffffffa, 3], V(0xfffffffe)), // -6 / 3 = -2
            (32, &[0x80000000, 1], V(0x80000000)), // -2147483648 / 1 = -2147483648
            (32, &[0x80000000, 0xffffffff], UB), // -2147483648 / -1; MIN with -1: undefined
            (32, &[1, 0], UB),             // 1 / 0; by zero
            (32, &[0, 0], UB),             // 0 / 0; by zero
            (32, &[0x80000000, 0], UB),    // -2147483648 / 0; by zero
            (32, &[0xffffffff, 0], UB),    // -1 / 0; by zero
            (32, &[0x80000000, 0x80000000], V(1)), // -2147483648 / -2147483648 = 1
            (32, &[0x7fffffff, 0x80000000], V(0)), // 2147483647 / -2147483648 = 0
            (32, &[0x80000000, 0x7fffffff], V(0xffffffff)), // -2147483648 / 2147483647 = -1
            (32, &[0x80000000, 3], V(0xd5555556)), // -2147483648 / 3 = -715827882
            (32, &[0xffffffff, 0x80000000], V(0)), // -1 / -2147483648 = 0
            (32, &[1, 0x80000000], V(0)),  // 1 / -2147483648 = 0
            (32, &[0x7fffffff, 0xffffffff], V(0x80000001)), // 2147483647 / -1 = -2147483647
            (32, &[0xffffffff, 0xffffffff], V(1)), // -1 / -1 = 1
            (32, &[0x80000000, 2], V(0xc0000000)), // -2147483648 / 2 = -1073741824
            (64, &[7, 2], V(3)),           // 7 / 2 = 3
            (64, &[0xfffffffffffffff9, 2], V(0xfffffffffffffffd)), // -7 / 2 = -3
            (64, &[7, 0xfffffffffffffffe], V(0xfffffffffffffffd)), // 7 / -2 = -3
            (64, &[0xfffffffffffffff9, 0xfffffffffffffffe], V(3)), // -7 / -2 = 3
            (64, &[6, 0xfffffffffffffffd], V(0xfffffffffffffffe)), // 6 / -3 = -2
            (64, &[0xfffffffffffffffa, 3], V(0xfffffffffffffffe)), // -6 / 3 = -2
            (64, &[0x8000000000000000, 1], V(0x8000000000000000)), // -9223372036854775808 / 1 = -9223372036854775808
            (64, &[0x8000000000000000, 0xffffffffffffffff], UB), // -9223372036854775808 / -1; MIN with -1: undefined
            (64, &[1, 0], UB),                                   // 1 / 0; by zero
            (64, &[0, 0], UB),                                   // 0 / 0; by zero
            (64, &[0x8000000000000000, 0], UB), // -9223372036854775808 / 0; by zero
            (64, &[0xffffffffffffffff, 0], UB), // -1 / 0; by zero
            (64, &[0x8000000000000000, 0x8000000000000000], V(1)), // -9223372036854775808 / -9223372036854775808 = 1
            (64, &[0x7fffffffffffffff, 0x8000000000000000], V(0)), // 9223372036854775807 / -9223372036854775808 = 0
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0xffffffffffffffff),
            ), // -9223372036854775808 / 9223372036854775807 = -1
            (64, &[0x8000000000000000, 3], V(0xd555555555555556)), // -9223372036854775808 / 3 = -3074457345618258602
            (64, &[0xffffffffffffffff, 0x8000000000000000], V(0)), // -1 / -9223372036854775808 = 0
            (64, &[1, 0x8000000000000000], V(0)),                  // 1 / -9223372036854775808 = 0
            (
                64,
                &[0x7fffffffffffffff, 0xffffffffffffffff],
                V(0x8000000000000001),
            ), // 9223372036854775807 / -1 = -9223372036854775807
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(1)), // -1 / -1 = 1
            (64, &[0x8000000000000000, 2], V(0xc000000000000000)), // -9223372036854775808 / 2 = -4611686018427387904
        ],
    );
}

/// Remainder with the sign of a; b = 0 and MIN rem -1 are undefined.
#[test]
fn irem() {
    run(
        Op::Irem,
        &[
            (8, &[7, 2], V(1)),                                    // 7 rem 2 = 1
            (8, &[0xf9, 2], V(0xff)),                              // -7 rem 2 = -1
            (8, &[7, 0xfe], V(1)),                                 // 7 rem -2 = 1
            (8, &[0xf9, 0xfe], V(0xff)),                           // -7 rem -2 = -1
            (8, &[6, 0xfd], V(0)),                                 // 6 rem -3 = 0
            (8, &[0xfa, 3], V(0)),                                 // -6 rem 3 = 0
            (8, &[0x80, 1], V(0)),                                 // -128 rem 1 = 0
            (8, &[0x80, 0xff], UB),      // -128 rem -1; MIN with -1: undefined
            (8, &[1, 0], UB),            // 1 rem 0; by zero
            (8, &[0, 0], UB),            // 0 rem 0; by zero
            (8, &[0x80, 0], UB),         // -128 rem 0; by zero
            (8, &[0xff, 0], UB),         // -1 rem 0; by zero
            (8, &[0x80, 0x80], V(0)),    // -128 rem -128 = 0
            (8, &[0x7f, 0x80], V(0x7f)), // 127 rem -128 = 127
            (8, &[0x80, 0x7f], V(0xff)), // -128 rem 127 = -1
            (8, &[0x80, 3], V(0xfe)),    // -128 rem 3 = -2
            (8, &[0xff, 0x80], V(0xff)), // -1 rem -128 = -1
            (8, &[1, 0x80], V(1)),       // 1 rem -128 = 1
            (8, &[0x7f, 0xff], V(0)),    // 127 rem -1 = 0
            (8, &[0xff, 0xff], V(0)),    // -1 rem -1 = 0
            (8, &[0x80, 2], V(0)),       // -128 rem 2 = 0
            (16, &[7, 2], V(1)),         // 7 rem 2 = 1
            (16, &[0xfff9, 2], V(0xffff)), // -7 rem 2 = -1
            (16, &[7, 0xfffe], V(1)),    // 7 rem -2 = 1
            (16, &[0xfff9, 0xfffe], V(0xffff)), // -7 rem -2 = -1
            (16, &[6, 0xfffd], V(0)),    // 6 rem -3 = 0
            (16, &[0xfffa, 3], V(0)),    // -6 rem 3 = 0
            (16, &[0x8000, 1], V(0)),    // -32768 rem 1 = 0
            (16, &[0x8000, 0xffff], UB), // -32768 rem -1; MIN with -1: undefined
            (16, &[1, 0], UB),           // 1 rem 0; by zero
            (16, &[0, 0], UB),           // 0 rem 0; by zero
            (16, &[0x8000, 0], UB),      // -32768 rem 0; by zero
            (16, &[0xffff, 0], UB),      // -1 rem 0; by zero
            (16, &[0x8000, 0x8000], V(0)), // -32768 rem -32768 = 0
            (16, &[0x7fff, 0x8000], V(0x7fff)), // 32767 rem -32768 = 32767
            (16, &[0x8000, 0x7fff], V(0xffff)), // -32768 rem 32767 = -1
            (16, &[0x8000, 3], V(0xfffe)), // -32768 rem 3 = -2
            (16, &[0xffff, 0x8000], V(0xffff)), // -1 rem -32768 = -1
            (16, &[1, 0x8000], V(1)),    // 1 rem -32768 = 1
            (16, &[0x7fff, 0xffff], V(0)), // 32767 rem -1 = 0
            (16, &[0xffff, 0xffff], V(0)), // -1 rem -1 = 0
            (16, &[0x8000, 2], V(0)),    // -32768 rem 2 = 0
            (32, &[7, 2], V(1)),         // 7 rem 2 = 1
            (32, &[0xfffffff9, 2], V(0xffffffff)), // -7 rem 2 = -1
            (32, &[7, 0xfffffffe], V(1)), // 7 rem -2 = 1
            (32, &[0xfffffff9, 0xfffffffe], V(0xffffffff)), // -7 rem -2 = -1
            (32, &[6, 0xfffffffd], V(0)), // 6 rem -3 = 0
            (32, &[0xfffffffa, 3], V(0)), // -6 rem 3 = 0
            (32, &[0x80000000, 1], V(0)), // -2147483648 rem 1 = 0
            (32, &[0x80000000, 0xffffffff], UB), // -2147483648 rem -1; MIN with -1: undefined
            (32, &[1, 0], UB),           // 1 rem 0; by zero
            (32, &[0, 0], UB),           // 0 rem 0; by zero
            (32, &[0x80000000, 0], UB),  // -2147483648 rem 0; by zero
            (32, &[0xffffffff, 0], UB),  // -1 rem 0; by zero
            (32, &[0x80000000, 0x80000000], V(0)), // -2147483648 rem -2147483648 = 0
            (32, &[0x7fffffff, 0x80000000], V(0x7fffffff)), // 2147483647 rem -2147483648 = 2147483647
            (32, &[0x80000000, 0x7fffffff], V(0xffffffff)), // -2147483648 rem 2147483647 = -1
            (32, &[0x80000000, 3], V(0xfffffffe)),          // -2147483648 rem 3 = -2
            (32, &[0xffffffff, 0x80000000], V(0xffffffff)), // -1 rem -2147483648 = -1
            (32, &[1, 0x80000000], V(1)),                   // 1 rem -2147483648 = 1
            (32, &[0x7fffffff, 0xffffffff], V(0)),          // 2147483647 rem -1 = 0
            (32, &[0xffffffff, 0xffffffff], V(0)),          // -1 rem -1 = 0
            (32, &[0x80000000, 2], V(0)),                   // -2147483648 rem 2 = 0
            (64, &[7, 2], V(1)),                            // 7 rem 2 = 1
            (64, &[0xfffffffffffffff9, 2], V(0xffffffffffffffff)), // -7 rem 2 = -1
            (64, &[7, 0xfffffffffffffffe], V(1)),           // 7 rem -2 = 1
            (
                64,
                &[0xfffffffffffffff9, 0xfffffffffffffffe],
                V(0xffffffffffffffff),
            ), // -7 rem -2 = -1
            (64, &[6, 0xfffffffffffffffd], V(0)),           // 6 rem -3 = 0
            (64, &[0xfffffffffffffffa, 3], V(0)),           // -6 rem 3 = 0
            (64, &[0x8000000000000000, 1], V(0)),           // -9223372036854775808 rem 1 = 0
            (64, &[0x8000000000000000, 0xffffffffffffffff], UB), // -9223372036854775808 rem -1; MIN with -1: undefined
            (64, &[1, 0], UB),                                   // 1 rem 0; by zero
            (64, &[0, 0], UB),                                   // 0 rem 0; by zero
            (64, &[0x8000000000000000, 0], UB), // -9223372036854775808 rem 0; by zero
            (64, &[0xffffffffffffffff, 0], UB), // -1 rem 0; by zero
            (64, &[0x8000000000000000, 0x8000000000000000], V(0)), // -9223372036854775808 rem -9223372036854775808 = 0
            (
                64,
                &[0x7fffffffffffffff, 0x8000000000000000],
                V(0x7fffffffffffffff),
            ), // 9223372036854775807 rem -9223372036854775808 = 9223372036854775807
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0xffffffffffffffff),
            ), // -9223372036854775808 rem 9223372036854775807 = -1
            (64, &[0x8000000000000000, 3], V(0xfffffffffffffffe)), // -9223372036854775808 rem 3 = -2
            (
                64,
                &[0xffffffffffffffff, 0x8000000000000000],
                V(0xffffffffffffffff),
            ), // -1 rem -9223372036854775808 = -1
            (64, &[1, 0x8000000000000000], V(1)),                  // 1 rem -9223372036854775808 = 1
            (64, &[0x7fffffffffffffff, 0xffffffffffffffff], V(0)), // 9223372036854775807 rem -1 = 0
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)), // -1 rem -1 = 0
            (64, &[0x8000000000000000, 2], V(0)),                  // -9223372036854775808 rem 2 = 0
        ],
    );
}

/// Floored modulo with the sign of b; b = 0 and MIN mod -1 are undefined.
#[test]
fn imod() {
    run(
        Op::Imod,
        &[
            (8, &[7, 2], V(1)),                                    // 7 mod 2 = 1
            (8, &[0xf9, 2], V(1)),                                 // -7 mod 2 = 1
            (8, &[7, 0xfe], V(0xff)),                              // 7 mod -2 = -1
            (8, &[0xf9, 0xfe], V(0xff)),                           // -7 mod -2 = -1
            (8, &[6, 0xfd], V(0)),                                 // 6 mod -3 = 0
            (8, &[0xfa, 3], V(0)),                                 // -6 mod 3 = 0
            (8, &[0x80, 1], V(0)),                                 // -128 mod 1 = 0
            (8, &[0x80, 0xff], UB),      // -128 mod -1; MIN with -1: undefined
            (8, &[1, 0], UB),            // 1 mod 0; by zero
            (8, &[0, 0], UB),            // 0 mod 0; by zero
            (8, &[0x80, 0], UB),         // -128 mod 0; by zero
            (8, &[0xff, 0], UB),         // -1 mod 0; by zero
            (8, &[0x80, 0x80], V(0)),    // -128 mod -128 = 0
            (8, &[0x7f, 0x80], V(0xff)), // 127 mod -128 = -1
            (8, &[0x80, 0x7f], V(0x7e)), // -128 mod 127 = 126
            (8, &[0x80, 3], V(1)),       // -128 mod 3 = 1
            (8, &[0xff, 0x80], V(0xff)), // -1 mod -128 = -1
            (8, &[1, 0x80], V(0x81)),    // 1 mod -128 = -127
            (8, &[0x7f, 0xff], V(0)),    // 127 mod -1 = 0
            (8, &[0xff, 0xff], V(0)),    // -1 mod -1 = 0
            (8, &[0x80, 2], V(0)),       // -128 mod 2 = 0
            (16, &[7, 2], V(1)),         // 7 mod 2 = 1
            (16, &[0xfff9, 2], V(1)),    // -7 mod 2 = 1
            (16, &[7, 0xfffe], V(0xffff)), // 7 mod -2 = -1
            (16, &[0xfff9, 0xfffe], V(0xffff)), // -7 mod -2 = -1
            (16, &[6, 0xfffd], V(0)),    // 6 mod -3 = 0
            (16, &[0xfffa, 3], V(0)),    // -6 mod 3 = 0
            (16, &[0x8000, 1], V(0)),    // -32768 mod 1 = 0
            (16, &[0x8000, 0xffff], UB), // -32768 mod -1; MIN with -1: undefined
            (16, &[1, 0], UB),           // 1 mod 0; by zero
            (16, &[0, 0], UB),           // 0 mod 0; by zero
            (16, &[0x8000, 0], UB),      // -32768 mod 0; by zero
            (16, &[0xffff, 0], UB),      // -1 mod 0; by zero
            (16, &[0x8000, 0x8000], V(0)), // -32768 mod -32768 = 0
            (16, &[0x7fff, 0x8000], V(0xffff)), // 32767 mod -32768 = -1
            (16, &[0x8000, 0x7fff], V(0x7ffe)), // -32768 mod 32767 = 32766
            (16, &[0x8000, 3], V(1)),    // -32768 mod 3 = 1
            (16, &[0xffff, 0x8000], V(0xffff)), // -1 mod -32768 = -1
            (16, &[1, 0x8000], V(0x8001)), // 1 mod -32768 = -32767
            (16, &[0x7fff, 0xffff], V(0)), // 32767 mod -1 = 0
            (16, &[0xffff, 0xffff], V(0)), // -1 mod -1 = 0
            (16, &[0x8000, 2], V(0)),    // -32768 mod 2 = 0
            (32, &[7, 2], V(1)),         // 7 mod 2 = 1
            (32, &[0xfffffff9, 2], V(1)), // -7 mod 2 = 1
            (32, &[7, 0xfffffffe], V(0xffffffff)), // 7 mod -2 = -1
            (32, &[0xfffffff9, 0xfffffffe], V(0xffffffff)), // -7 mod -2 = -1
            (32, &[6, 0xfffffffd], V(0)), // 6 mod -3 = 0
            (32, &[0xfffffffa, 3], V(0)), // -6 mod 3 = 0
            (32, &[0x80000000, 1], V(0)), // -2147483648 mod 1 = 0
            (32, &[0x80000000, 0xffffffff], UB), // -2147483648 mod -1; MIN with -1: undefined
            (32, &[1, 0], UB),           // 1 mod 0; by zero
            (32, &[0, 0], UB),           // 0 mod 0; by zero
            (32, &[0x80000000, 0], UB),  // -2147483648 mod 0; by zero
            (32, &[0xffffffff, 0], UB),  // -1 mod 0; by zero
            (32, &[0x80000000, 0x80000000], V(0)), // -2147483648 mod -2147483648 = 0
            (32, &[0x7fffffff, 0x80000000], V(0xffffffff)), // 2147483647 mod -2147483648 = -1
            (32, &[0x80000000, 0x7fffffff], V(0x7ffffffe)), // -2147483648 mod 2147483647 = 2147483646
            (32, &[0x80000000, 3], V(1)),                   // -2147483648 mod 3 = 1
            (32, &[0xffffffff, 0x80000000], V(0xffffffff)), // -1 mod -2147483648 = -1
            (32, &[1, 0x80000000], V(0x80000001)),          // 1 mod -2147483648 = -2147483647
            (32, &[0x7fffffff, 0xffffffff], V(0)),          // 2147483647 mod -1 = 0
            (32, &[0xffffffff, 0xffffffff], V(0)),          // -1 mod -1 = 0
            (32, &[0x80000000, 2], V(0)),                   // -2147483648 mod 2 = 0
            (64, &[7, 2], V(1)),                            // 7 mod 2 = 1
            (64, &[0xfffffffffffffff9, 2], V(1)),           // -7 mod 2 = 1
            (64, &[7, 0xfffffffffffffffe], V(0xffffffffffffffff)), // 7 mod -2 = -1
            (
                64,
                &[0xfffffffffffffff9, 0xfffffffffffffffe],
                V(0xffffffffffffffff),
            ), // -7 mod -2 = -1
            (64, &[6, 0xfffffffffffffffd], V(0)),           // 6 mod -3 = 0
            (64, &[0xfffffffffffffffa, 3], V(0)),           // -6 mod 3 = 0
            (64, &[0x8000000000000000, 1], V(0)),           // -9223372036854775808 mod 1 = 0
            (64, &[0x8000000000000000, 0xffffffffffffffff], UB), // -9223372036854775808 mod -1; MIN with -1: undefined
            (64, &[1, 0], UB),                                   // 1 mod 0; by zero
            (64, &[0, 0], UB),                                   // 0 mod 0; by zero
            (64, &[0x8000000000000000, 0], UB), // -9223372036854775808 mod 0; by zero
            (64, &[0xffffffffffffffff, 0], UB), // -1 mod 0; by zero
            (64, &[0x8000000000000000, 0x8000000000000000], V(0)), // -9223372036854775808 mod -9223372036854775808 = 0
            (
                64,
                &[0x7fffffffffffffff, 0x8000000000000000],
                V(0xffffffffffffffff),
            ), // 9223372036854775807 mod -9223372036854775808 = -1
            (
                64,
                &[0x8000000000000000, 0x7fffffffffffffff],
                V(0x7ffffffffffffffe),
            ), // -9223372036854775808 mod 9223372036854775807 = 9223372036854775806
            (64, &[0x8000000000000000, 3], V(1)),                  // -9223372036854775808 mod 3 = 1
            (
                64,
                &[0xffffffffffffffff, 0x8000000000000000],
                V(0xffffffffffffffff),
            ), // -1 mod -9223372036854775808 = -1
            (64, &[1, 0x8000000000000000], V(0x8000000000000001)), // 1 mod -9223372036854775808 = -9223372036854775807
            (64, &[0x7fffffffffffffff, 0xffffffffffffffff], V(0)), // 9223372036854775807 mod -1 = 0
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)), // -1 mod -1 = 0
            (64, &[0x8000000000000000, 2], V(0)),                  // -9223372036854775808 mod 2 = 0
        ],
    );
}

/// Unsigned a / b; b = 0 is undefined (MIN / -1 is not).
#[test]
fn udiv() {
    run(
        Op::Udiv,
        &[
            (8, &[7, 2], V(3)),
            (8, &[0xff, 2], V(0x7f)),
            (8, &[0xff, 1], V(0xff)),
            (8, &[1, 0], UB),    // by zero
            (8, &[0, 0], UB),    // by zero
            (8, &[0xff, 0], UB), // by zero
            (8, &[0x80, 0xff], V(0)),
            (8, &[0xff, 0xff], V(1)),
            (8, &[0x80, 0x7f], V(1)),
            (8, &[0xff, 0x80], V(1)),
            (8, &[0xff, 16], V(15)),
            (16, &[7, 2], V(3)),
            (16, &[0xffff, 2], V(0x7fff)),
            (16, &[0xffff, 1], V(0xffff)),
            (16, &[1, 0], UB),      // by zero
            (16, &[0, 0], UB),      // by zero
            (16, &[0xffff, 0], UB), // by zero
            (16, &[0x8000, 0xffff], V(0)),
            (16, &[0xffff, 0xffff], V(1)),
            (16, &[0x8000, 0x7fff], V(1)),
            (16, &[0xffff, 0x8000], V(1)),
            (16, &[0xffff, 16], V(0xfff)),
            (32, &[7, 2], V(3)),
            (32, &[0xffffffff, 2], V(0x7fffffff)),
            (32, &[0xffffffff, 1], V(0xffffffff)),
            (32, &[1, 0], UB),          // by zero
            (32, &[0, 0], UB),          // by zero
            (32, &[0xffffffff, 0], UB), // by zero
            (32, &[0x80000000, 0xffffffff], V(0)),
            (32, &[0xffffffff, 0xffffffff], V(1)),
            (32, &[0x80000000, 0x7fffffff], V(1)),
            (32, &[0xffffffff, 0x80000000], V(1)),
            (32, &[0xffffffff, 16], V(0xfffffff)),
            (64, &[7, 2], V(3)),
            (64, &[0xffffffffffffffff, 2], V(0x7fffffffffffffff)),
            (64, &[0xffffffffffffffff, 1], V(0xffffffffffffffff)),
            (64, &[1, 0], UB),                  // by zero
            (64, &[0, 0], UB),                  // by zero
            (64, &[0xffffffffffffffff, 0], UB), // by zero
            (64, &[0x8000000000000000, 0xffffffffffffffff], V(0)),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(1)),
            (64, &[0x8000000000000000, 0x7fffffffffffffff], V(1)),
            (64, &[0xffffffffffffffff, 0x8000000000000000], V(1)),
            (64, &[0xffffffffffffffff, 16], V(0xfffffffffffffff)),
        ],
    );
}

/// Unsigned a mod b; b = 0 is undefined (MIN mod -1 is not).
#[test]
fn umod() {
    run(
        Op::Umod,
        &[
            (8, &[7, 2], V(1)),
            (8, &[0xff, 2], V(1)),
            (8, &[0xff, 1], V(0)),
            (8, &[1, 0], UB),    // by zero
            (8, &[0, 0], UB),    // by zero
            (8, &[0xff, 0], UB), // by zero
            (8, &[0x80, 0xff], V(0x80)),
            (8, &[0xff, 0xff], V(0)),
            (8, &[0x80, 0x7f], V(1)),
            (8, &[0xff, 0x80], V(0x7f)),
            (8, &[0xff, 16], V(15)),
            (16, &[7, 2], V(1)),
            (16, &[0xffff, 2], V(1)),
            (16, &[0xffff, 1], V(0)),
            (16, &[1, 0], UB),      // by zero
            (16, &[0, 0], UB),      // by zero
            (16, &[0xffff, 0], UB), // by zero
            (16, &[0x8000, 0xffff], V(0x8000)),
            (16, &[0xffff, 0xffff], V(0)),
            (16, &[0x8000, 0x7fff], V(1)),
            (16, &[0xffff, 0x8000], V(0x7fff)),
            (16, &[0xffff, 16], V(15)),
            (32, &[7, 2], V(1)),
            (32, &[0xffffffff, 2], V(1)),
            (32, &[0xffffffff, 1], V(0)),
            (32, &[1, 0], UB),          // by zero
            (32, &[0, 0], UB),          // by zero
            (32, &[0xffffffff, 0], UB), // by zero
            (32, &[0x80000000, 0xffffffff], V(0x80000000)),
            (32, &[0xffffffff, 0xffffffff], V(0)),
            (32, &[0x80000000, 0x7fffffff], V(1)),
            (32, &[0xffffffff, 0x80000000], V(0x7fffffff)),
            (32, &[0xffffffff, 16], V(15)),
            (64, &[7, 2], V(1)),
            (64, &[0xffffffffffffffff, 2], V(1)),
            (64, &[0xffffffffffffffff, 1], V(0)),
            (64, &[1, 0], UB),                  // by zero
            (64, &[0, 0], UB),                  // by zero
            (64, &[0xffffffffffffffff, 0], UB), // by zero
            (
                64,
                &[0x8000000000000000, 0xffffffffffffffff],
                V(0x8000000000000000),
            ),
            (64, &[0xffffffffffffffff, 0xffffffffffffffff], V(0)),
            (64, &[0x8000000000000000, 0x7fffffffffffffff], V(1)),
            (
                64,
                &[0xffffffffffffffff, 0x8000000000000000],
                V(0x7fffffffffffffff),
            ),
            (64, &[0xffffffffffffffff, 16], V(15)),
        ],
    );
}
