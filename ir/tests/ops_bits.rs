//! Bitfield ops: `bfm`, `bfi`, `ibfe`, `ubfe`, `bitfield_insert` (with every
//! undefined offset/bits), `bitfield_reverse`, `bit_count`, `find_lsb`,
//! `ufind_msb`, `ifind_msb` (64-bit sources must not be truncated to 32 bits)
//! and the `extract_*` ops (index past the end is undefined).
//!
//! Rows are `(n, [sources], expected)`, or `(m, 32, source, expected)` for the
//! counting ops whose result is always 32-bit; values are raw bits.

mod common;

use common::{run, run_conv, UB, V};
use ir::Op;

#[test]
fn every_op_of_the_group_has_a_table() {
    common::check_group("ops_bits", include_str!("ops_bits.rs"));
}

/// bfm(bits, offset) = ((1 << (bits & 31)) - 1) << (offset & 31).
#[test]
fn bfm() {
    run(
        Op::Bfm,
        &[
            (32, &[0, 0], V(0)),
            (32, &[1, 0], V(1)),
            (32, &[8, 4], V(0xff0)),
            (32, &[31, 0], V(0x7fffffff)),
            (32, &[31, 1], V(0xfffffffe)),
            (32, &[32, 0], V(0)), // bits 32 masks to 0: empty mask
            (32, &[32, 5], V(0)), // bits 32 masks to 0
            (32, &[33, 0], V(1)), // bits 33 -> 1
            (32, &[1, 31], V(0x80000000)),
            (32, &[16, 20], V(0xfff00000)), // upper bits shifted out
            (32, &[4, 32], V(15)),          // offset 32 -> 0
            (32, &[4, 0xffffffff], V(0x80000000)), // offset -1 -> 31
            (32, &[0xffffffff, 0], V(0x7fffffff)), // bits -1 -> 31
            (32, &[0, 31], V(0)),
        ],
    );
}

/// bfi(mask, insert, base) = ((insert << ctz(mask)) & mask) | (base & ~mask).
#[test]
fn bfi() {
    run(
        Op::Bfi,
        &[
            (32, &[0, 0xffffffff, 0x12345678], V(0x12345678)), // mask 0 -> base
            (32, &[0xffffffff, 0x12345678, 0xabcdef01], V(0x12345678)), // full mask -> insert
            (32, &[0xff00, 18, 0xaaaaaaaa], V(0xaaaa12aa)),    // ctz 8 shifts the insert
            (32, &[0xff00, 0x1234, 0], V(0x3400)),             // insert bits past the mask dropped
            (32, &[0x80000000, 1, 0], V(0x80000000)),          // ctz 31
            (32, &[0x80000000, 0xfffffffe, 0x7fffffff], V(0x7fffffff)), // insert bit 0 is 0
            (32, &[0xf0f0, 0xabcd, 0], V(0xb0d0)),             // non-contiguous mask
            (32, &[1, 0xffffffff, 0xfffffffe], V(0xffffffff)),
            (32, &[0xfffffff0, 0xffffffff, 5], V(0xfffffff5)),
            (32, &[0xff0000, 0xff, 0xffffffff], V(0xffffffff)),
        ],
    );
}

/// Signed bitfield extract (see OPS.md for the out-of-range rules).
#[test]
fn ibfe() {
    run(
        Op::Ibfe,
        &[
            (32, &[0x87654321, 0, 0], V(0)),  // bits 0 -> 0
            (32, &[0x87654321, 4, 0], V(0)),  // bits 0 -> 0
            (32, &[0x87654321, 0, 32], V(0)), // bits 32 masks to 0 -> 0
            (32, &[0x87654321, 0, 8], V(33)),
            (32, &[0x87654321, 4, 8], V(50)),
            (32, &[0x87654321, 8, 8], V(0x43)),
            (32, &[0xf0, 4, 4], V(0xffffffff)), // field 0xf, top bit set
            (32, &[0x80, 0, 8], V(0xffffff80)), // field 0x80, top bit set
            (32, &[0x87654321, 16, 16], V(0xffff8765)), // offset + bits = 32: value >> 16
            (32, &[0x87654321, 31, 1], V(0xffffffff)), // offset 31, offset + bits = 32: value >> 31
            (32, &[0x87654321, 31, 5], V(0xffffffff)), // offset + bits = 36: value >> 31
            (32, &[0x87654321, 28, 8], V(0xfffffff8)), // offset + bits = 36: value >> 28
            (32, &[0xc0000001, 0, 31], V(0xc0000001)), // 31-bit field, bit 30 set
            (32, &[0x87654321, 1, 31], V(0xc3b2a190)), // offset + bits = 32: value >> 1
            (32, &[0x87654321, 32, 8], V(33)),  // offset 32 -> 0
            (32, &[0x87654321, 33, 8], V(0xffffff90)), // offset 33 -> 1
            (32, &[0xc0000001, 0, 0xffffffff], V(0xc0000001)), // bits -1 -> 31
            (32, &[0x87654321, 0xffffffff, 1], V(0xffffffff)), // offset -1 -> 31
            (32, &[0x7fffffff, 31, 1], V(0)),
            (32, &[0x7fffffff, 30, 1], V(0xffffffff)), // field 1, top bit set
            (32, &[0x87654321, 5, 33], V(0xffffffff)), // bits 33 -> 1
        ],
    );
}

/// Unsigned bitfield extract (see OPS.md for the out-of-range rules).
#[test]
fn ubfe() {
    run(
        Op::Ubfe,
        &[
            (32, &[0x87654321, 0, 0], V(0)),  // bits 0 -> 0
            (32, &[0x87654321, 4, 0], V(0)),  // bits 0 -> 0
            (32, &[0x87654321, 0, 32], V(0)), // bits 32 masks to 0 -> 0
            (32, &[0x87654321, 0, 8], V(33)),
            (32, &[0x87654321, 4, 8], V(50)),
            (32, &[0x87654321, 8, 8], V(0x43)),
            (32, &[0xf0, 4, 4], V(15)),   // field 0xf, top bit set
            (32, &[0x80, 0, 8], V(0x80)), // field 0x80, top bit set
            (32, &[0x87654321, 16, 16], V(0x8765)), // offset + bits = 32: value >> 16
            (32, &[0x87654321, 31, 1], V(1)), // offset 31, offset + bits = 32: value >> 31
            (32, &[0x87654321, 31, 5], V(1)), // offset + bits = 36: value >> 31
            (32, &[0x87654321, 28, 8], V(8)), // offset + bits = 36: value >> 28
            (32, &[0xc0000001, 0, 31], V(0x40000001)), // 31-bit field, bit 30 set
            (32, &[0x87654321, 1, 31], V(0x43b2a190)), // offset + bits = 32: value >> 1
            (32, &[0x87654321, 32, 8], V(33)), // offset 32 -> 0
            (32, &[0x87654321, 33, 8], V(0x90)), // offset 33 -> 1
            (32, &[0xc0000001, 0, 0xffffffff], V(0x40000001)), // bits -1 -> 31
            (32, &[0x87654321, 0xffffffff, 1], V(1)), // offset -1 -> 31
            (32, &[0x7fffffff, 31, 1], V(0)),
            (32, &[0x7fffffff, 30, 1], V(1)), // field 1, top bit set
            (32, &[0x87654321, 5, 33], V(1)), // bits 33 -> 1
        ],
    );
}

/// bitfield_insert(base, insert, offset, bits); offset/bits negative or offset + bits > 32
/// (as exact integers) is undefined.
#[test]
fn bitfield_insert() {
    run(
        Op::BitfieldInsert,
        &[
            (32, &[0xaaaaaaaa, 0x12345678, 0, 0], V(0xaaaaaaaa)), // bits 0 -> base
            (32, &[0xaaaaaaaa, 0x12345678, 32, 0], V(0xaaaaaaaa)), // offset 32, bits 0: defined, base
            (32, &[0xaaaaaaaa, 0x12345678, 0, 32], V(0x12345678)), // bits 32: all of insert
            (32, &[0xaaaaaaaa, 0x12345678, 8, 8], V(0xaaaa78aa)),
            (32, &[0xaaaaaaaa, 0x12345678, 31, 1], V(0x2aaaaaaa)),
            (32, &[0xaaaaaaaa, 0x12345678, 16, 16], V(0x5678aaaa)),
            (32, &[0xaaaaaaaa, 0x12345678, 4, 28], V(0x2345678a)), // offset + bits = 32
            (32, &[0xaaaaaaaa, 0x12345678, 1, 32], UB),            // offset + bits = 33
            (32, &[0xaaaaaaaa, 0x12345678, 33, 0], UB),            // offset 33
            (32, &[0xaaaaaaaa, 0x12345678, 17, 16], UB),           // offset + bits = 33
            (32, &[0xaaaaaaaa, 0x12345678, 0xffffffff, 1], UB),    // offset -1
            (32, &[0xaaaaaaaa, 0x12345678, 0, 0xffffffff], UB),    // bits -1
            (32, &[0xaaaaaaaa, 0x12345678, 0x80000000, 0], UB),    // offset MIN
            (32, &[0xaaaaaaaa, 0x12345678, 0, 33], UB),            // bits 33
            (32, &[0xaaaaaaaa, 0x12345678, 0x7fffffff, 0x7fffffff], UB), // sum wraps to -2 in i32
            (32, &[0xaaaaaaaa, 0x12345678, 1, 0x7fffffff], UB),    // sum wraps to MIN in i32
            (32, &[0xaaaaaaaa, 0x12345678, 0xffffffe0, 64], UB), // offset -32, bits 64: sum 32 but offset negative
            (32, &[0xaaaaaaaa, 0x12345678, 64, 0xffffffe0], UB), // bits -32, offset 64: sum 32 but bits negative
            (32, &[0, 0xffffffff, 0, 32], V(0xffffffff)),
            (32, &[0xffffffff, 0, 12, 20], V(0xfff)), // clears the top 20 bits
        ],
    );
}

/// GLSL bitfieldExtract of 0x89abcdef, worked by hand: the field of
/// `bits` bits at `offset`, zero-extended (`u`) or sign-extended (`i`);
/// bits 32 is the whole value, and the hardware's 5-bit counts do not apply.
#[test]
fn ubitfield_extract() {
    run(
        Op::UbitfieldExtract,
        &[
            (32, &[0x89abcdef, 0x8, 0x8], V(0xcd)), // 0xcd: top bit set
            (32, &[0x89abcdef, 0x0, 0x0], V(0x0)),  // bits 0
            (32, &[0x89abcdef, 0x20, 0x0], V(0x0)), // offset 32, bits 0: defined
            (32, &[0x89abcdef, 0x0, 0x20], V(0x89abcdef)), // the whole value
            (32, &[0x89abcdef, 0x1c, 0x4], V(0x8)), // offset + bits = 32
            (32, &[0x89abcdef, 0x1f, 0x1], V(0x1)),
            (32, &[0x89abcdef, 0x4, 0x8], V(0xde)),
            (32, &[0x89abcdef, 0xc, 0x4], V(0xc)),
            (32, &[0x89abcdef, 0x10, 0x4], V(0xb)),
            (32, &[0x89abcdef, 0x0, 0x3], V(0x7)),
            (32, &[0x89abcdef, 0x8, 0x3], V(0x5)),
            (32, &[0x89abcdef, 0x1, 0x20], UB), // offset + bits = 33
            (32, &[0x89abcdef, 0x21, 0x0], UB), // offset 33
            (32, &[0x89abcdef, 0xffffffff, 0x1], UB), // offset -1
            (32, &[0x89abcdef, 0x0, 0xffffffff], UB), // bits -1
            (32, &[0x89abcdef, 0x7fffffff, 0x7fffffff], UB), // sum wraps in i32
        ],
    );
}

/// As `ubitfield_extract`, sign-extending the field from its top bit.
#[test]
fn ibitfield_extract() {
    run(
        Op::IbitfieldExtract,
        &[
            (32, &[0x89abcdef, 0x8, 0x8], V(0xffffffcd)), // 0xcd: top bit set
            (32, &[0x89abcdef, 0x0, 0x0], V(0x0)),        // bits 0
            (32, &[0x89abcdef, 0x20, 0x0], V(0x0)),       // offset 32, bits 0: defined
            (32, &[0x89abcdef, 0x0, 0x20], V(0x89abcdef)), // the whole value
            (32, &[0x89abcdef, 0x1c, 0x4], V(0xfffffff8)), // offset + bits = 32
            (32, &[0x89abcdef, 0x1f, 0x1], V(0xffffffff)),
            (32, &[0x89abcdef, 0x4, 0x8], V(0xffffffde)),
            (32, &[0x89abcdef, 0xc, 0x4], V(0xfffffffc)),
            (32, &[0x89abcdef, 0x10, 0x4], V(0xfffffffb)),
            (32, &[0x89abcdef, 0x0, 0x3], V(0xffffffff)),
            (32, &[0x89abcdef, 0x8, 0x3], V(0xfffffffd)),
            (32, &[0x89abcdef, 0x1, 0x20], UB), // offset + bits = 33
            (32, &[0x89abcdef, 0x21, 0x0], UB), // offset 33
            (32, &[0x89abcdef, 0xffffffff, 0x1], UB), // offset -1
            (32, &[0x89abcdef, 0x0, 0xffffffff], UB), // bits -1
            (32, &[0x89abcdef, 0x7fffffff, 0x7fffffff], UB), // sum wraps in i32
        ],
    );
}

/// Reverses the n bits.
#[test]
fn bitfield_reverse() {
    run(
        Op::BitfieldReverse,
        &[
            (8, &[0], V(0)),
            (8, &[1], V(0x80)),
            (8, &[0xff], V(0xff)),
            (8, &[0x80], V(1)),
            (8, &[0x7f], V(0xfe)),
            (8, &[15], V(0xf0)),
            (8, &[16], V(8)),
            (8, &[0xf0], V(15)),
            (16, &[0], V(0)),
            (16, &[1], V(0x8000)),
            (16, &[0xffff], V(0xffff)),
            (16, &[0x8000], V(1)),
            (16, &[0x7fff], V(0xfffe)),
            (16, &[15], V(0xf000)),
            (16, &[0x100], V(0x80)),
            (16, &[0xdef0], V(0xf7b)),
            (32, &[0], V(0)),
            (32, &[1], V(0x80000000)),
            (32, &[0xffffffff], V(0xffffffff)),
            (32, &[0x80000000], V(1)),
            (32, &[0x7fffffff], V(0xfffffffe)),
            (32, &[15], V(0xf0000000)),
            (32, &[0x10000], V(0x8000)),
            (32, &[0x9abcdef0], V(0xf7b3d59)),
            (64, &[0], V(0)),
            (64, &[1], V(0x8000000000000000)),
            (64, &[0xffffffffffffffff], V(0xffffffffffffffff)),
            (64, &[0x8000000000000000], V(1)),
            (64, &[0x7fffffffffffffff], V(0xfffffffffffffffe)),
            (64, &[15], V(0xf000000000000000)),
            (64, &[0x100000000], V(0x80000000)),
            (64, &[0x123456789abcdef0], V(0xf7b3d591e6a2c48)),
        ],
    );
}

/// Population count of an m-bit source; 32-bit result.
#[test]
fn bit_count() {
    run_conv(
        Op::BitCount,
        &[
            (8, 32, 0, V(0)),
            (8, 32, 1, V(1)),
            (8, 32, 0xff, V(8)),
            (8, 32, 0x80, V(1)),
            (8, 32, 0x7f, V(7)),
            (8, 32, 0x55, V(4)),
            (8, 32, 0xf0, V(4)), // upper half only
            (8, 32, 0x81, V(2)),
            (16, 32, 0, V(0)),
            (16, 32, 1, V(1)),
            (16, 32, 0xffff, V(16)),
            (16, 32, 0x8000, V(1)),
            (16, 32, 0x7fff, V(15)),
            (16, 32, 0x5555, V(8)),
            (16, 32, 0xff00, V(8)), // upper half only
            (16, 32, 0x8001, V(2)),
            (32, 32, 0, V(0)),
            (32, 32, 1, V(1)),
            (32, 32, 0xffffffff, V(32)),
            (32, 32, 0x80000000, V(1)),
            (32, 32, 0x7fffffff, V(31)),
            (32, 32, 0x55555555, V(16)),
            (32, 32, 0xffff0000, V(16)), // upper half only
            (32, 32, 0x80000001, V(2)),
            (64, 32, 0, V(0)),
            (64, 32, 1, V(1)),
            (64, 32, 0xffffffffffffffff, V(64)),
            (64, 32, 0x8000000000000000, V(1)),
            (64, 32, 0x7fffffffffffffff, V(63)),
            (64, 32, 0x5555555555555555, V(32)),
            (64, 32, 0xffffffff00000000, V(32)), // upper half only
            (64, 32, 0x8000000000000001, V(2)),
        ],
    );
}

/// Index of the lowest set bit, -1 for 0; 32-bit result.
#[test]
fn find_lsb() {
    run_conv(
        Op::FindLsb,
        &[
            (8, 32, 0, V(0xffffffff)), // -1
            (8, 32, 1, V(0)),
            (8, 32, 0xff, V(0)),
            (8, 32, 0x80, V(7)),
            (8, 32, 16, V(4)),
            (8, 32, 0xf0, V(4)), // lowest set bit n/2
            (8, 32, 0xf0, V(4)),
            (16, 32, 0, V(0xffffffff)), // -1
            (16, 32, 1, V(0)),
            (16, 32, 0xffff, V(0)),
            (16, 32, 0x8000, V(15)),
            (16, 32, 0x100, V(8)),
            (16, 32, 0xff00, V(8)), // lowest set bit n/2
            (16, 32, 0xdef0, V(4)),
            (32, 32, 0, V(0xffffffff)), // -1
            (32, 32, 1, V(0)),
            (32, 32, 0xffffffff, V(0)),
            (32, 32, 0x80000000, V(31)),
            (32, 32, 0x10000, V(16)),
            (32, 32, 0xffff0000, V(16)), // lowest set bit n/2
            (32, 32, 0x9abcdef0, V(4)),
            (64, 32, 0, V(0xffffffff)), // -1
            (64, 32, 1, V(0)),
            (64, 32, 0xffffffffffffffff, V(0)),
            (64, 32, 0x8000000000000000, V(63)),
            (64, 32, 0x100000000, V(32)),
            (64, 32, 0xffffffff00000000, V(32)), // lowest set bit n/2
            (64, 32, 0x123456789abcdef0, V(4)),
        ],
    );
}

/// Index of the highest set bit, -1 for 0; 32-bit result.
#[test]
fn ufind_msb() {
    run_conv(
        Op::UfindMsb,
        &[
            (8, 32, 0, V(0xffffffff)), // -1
            (8, 32, 1, V(0)),
            (8, 32, 0xff, V(7)),
            (8, 32, 0x80, V(7)),
            (8, 32, 0x7f, V(6)),
            (8, 32, 16, V(4)),
            (8, 32, 15, V(3)),
            (8, 32, 0xf0, V(7)),
            (16, 32, 0, V(0xffffffff)), // -1
            (16, 32, 1, V(0)),
            (16, 32, 0xffff, V(15)),
            (16, 32, 0x8000, V(15)),
            (16, 32, 0x7fff, V(14)),
            (16, 32, 0x100, V(8)),
            (16, 32, 0xff, V(7)),
            (16, 32, 0xdef0, V(15)),
            (32, 32, 0, V(0xffffffff)), // -1
            (32, 32, 1, V(0)),
            (32, 32, 0xffffffff, V(31)),
            (32, 32, 0x80000000, V(31)),
            (32, 32, 0x7fffffff, V(30)),
            (32, 32, 0x10000, V(16)),
            (32, 32, 0xffff, V(15)),
            (32, 32, 0x9abcdef0, V(31)),
            (64, 32, 0, V(0xffffffff)), // -1
            (64, 32, 1, V(0)),
            (64, 32, 0xffffffffffffffff, V(63)),
            (64, 32, 0x8000000000000000, V(63)),
            (64, 32, 0x7fffffffffffffff, V(62)),
            (64, 32, 0x100000000, V(32)),
            (64, 32, 0xffffffff, V(31)),
            (64, 32, 0x123456789abcdef0, V(60)),
        ],
    );
}

/// Index of the highest bit that differs from the sign bit, -1 for 0 and -1.
#[test]
fn ifind_msb() {
    run_conv(
        Op::IfindMsb,
        &[
            (8, 32, 0, V(0xffffffff)),    // -1
            (8, 32, 0xff, V(0xffffffff)), // -1 -> -1
            (8, 32, 1, V(0)),
            (8, 32, 0x80, V(6)), // MIN -> n - 2
            (8, 32, 0x7f, V(6)),
            (8, 32, 0xfe, V(0)), // -2 -> 0
            (8, 32, 16, V(4)),
            (8, 32, 0xef, V(4)), // negative, highest clear bit n/2
            (8, 32, 0xf0, V(3)), // negative, highest clear bit n/2 - 1
            (8, 32, 0x81, V(6)),
            (16, 32, 0, V(0xffffffff)),      // -1
            (16, 32, 0xffff, V(0xffffffff)), // -1 -> -1
            (16, 32, 1, V(0)),
            (16, 32, 0x8000, V(14)), // MIN -> n - 2
            (16, 32, 0x7fff, V(14)),
            (16, 32, 0xfffe, V(0)), // -2 -> 0
            (16, 32, 0x100, V(8)),
            (16, 32, 0xfeff, V(8)), // negative, highest clear bit n/2
            (16, 32, 0xff00, V(7)), // negative, highest clear bit n/2 - 1
            (16, 32, 0x8001, V(14)),
            (32, 32, 0, V(0xffffffff)),          // -1
            (32, 32, 0xffffffff, V(0xffffffff)), // -1 -> -1
            (32, 32, 1, V(0)),
            (32, 32, 0x80000000, V(30)), // MIN -> n - 2
            (32, 32, 0x7fffffff, V(30)),
            (32, 32, 0xfffffffe, V(0)), // -2 -> 0
            (32, 32, 0x10000, V(16)),
            (32, 32, 0xfffeffff, V(16)), // negative, highest clear bit n/2
            (32, 32, 0xffff0000, V(15)), // negative, highest clear bit n/2 - 1
            (32, 32, 0x80000001, V(30)),
            (64, 32, 0, V(0xffffffff)),                  // -1
            (64, 32, 0xffffffffffffffff, V(0xffffffff)), // -1 -> -1
            (64, 32, 1, V(0)),
            (64, 32, 0x8000000000000000, V(62)), // MIN -> n - 2
            (64, 32, 0x7fffffffffffffff, V(62)),
            (64, 32, 0xfffffffffffffffe, V(0)), // -2 -> 0
            (64, 32, 0x100000000, V(32)),
            (64, 32, 0xfffffffeffffffff, V(32)), // negative, highest clear bit n/2
            (64, 32, 0xffffffff00000000, V(31)), // negative, highest clear bit n/2 - 1
            (64, 32, 0x8000000000000001, V(62)),
        ],
    );
}

/// Byte b of a, zero-extended; b >= n/8 is undefined.
#[test]
fn extract_u8() {
    run(
        Op::ExtractU8,
        &[
            (8, &[0x80, 0], V(0x80)),
            (8, &[0x80, 1], UB),          // index past the end
            (8, &[0x80, 0xffffffff], UB), // index past the end
            (8, &[0x80, 0x80000000], UB), // index past the end
            (16, &[0x8001, 0], V(1)),
            (16, &[0x8001, 1], V(0x80)),
            (16, &[0x8001, 2], UB),          // index past the end
            (16, &[0x8001, 0xffffffff], UB), // index past the end
            (16, &[0x8001, 0x80000000], UB), // index past the end
            (32, &[0x80ff7f01, 0], V(1)),
            (32, &[0x80ff7f01, 1], V(0x7f)),
            (32, &[0x80ff7f01, 2], V(0xff)),
            (32, &[0x80ff7f01, 3], V(0x80)),
            (32, &[0x80ff7f01, 4], UB),          // index past the end
            (32, &[0x80ff7f01, 0xffffffff], UB), // index past the end
            (32, &[0x80ff7f01, 0x80000000], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0], V(2)),
            (64, &[0x80ff7f01fe7f0102, 1], V(1)),
            (64, &[0x80ff7f01fe7f0102, 2], V(0x7f)),
            (64, &[0x80ff7f01fe7f0102, 3], V(0xfe)),
            (64, &[0x80ff7f01fe7f0102, 4], V(1)),
            (64, &[0x80ff7f01fe7f0102, 5], V(0x7f)),
            (64, &[0x80ff7f01fe7f0102, 6], V(0xff)),
            (64, &[0x80ff7f01fe7f0102, 7], V(0x80)),
            (64, &[0x80ff7f01fe7f0102, 8], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0xffffffff], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0x80000000], UB), // index past the end
        ],
    );
}

/// Byte b of a, sign-extended; b >= n/8 is undefined.
#[test]
fn extract_i8() {
    run(
        Op::ExtractI8,
        &[
            (8, &[0x80, 0], V(0x80)),
            (8, &[0x80, 1], UB),          // index past the end
            (8, &[0x80, 0xffffffff], UB), // index past the end
            (8, &[0x80, 0x80000000], UB), // index past the end
            (16, &[0x8001, 0], V(1)),
            (16, &[0x8001, 1], V(0xff80)),
            (16, &[0x8001, 2], UB),          // index past the end
            (16, &[0x8001, 0xffffffff], UB), // index past the end
            (16, &[0x8001, 0x80000000], UB), // index past the end
            (32, &[0x80ff7f01, 0], V(1)),
            (32, &[0x80ff7f01, 1], V(0x7f)),
            (32, &[0x80ff7f01, 2], V(0xffffffff)),
            (32, &[0x80ff7f01, 3], V(0xffffff80)),
            (32, &[0x80ff7f01, 4], UB),          // index past the end
            (32, &[0x80ff7f01, 0xffffffff], UB), // index past the end
            (32, &[0x80ff7f01, 0x80000000], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0], V(2)),
            (64, &[0x80ff7f01fe7f0102, 1], V(1)),
            (64, &[0x80ff7f01fe7f0102, 2], V(0x7f)),
            (64, &[0x80ff7f01fe7f0102, 3], V(0xfffffffffffffffe)),
            (64, &[0x80ff7f01fe7f0102, 4], V(1)),
            (64, &[0x80ff7f01fe7f0102, 5], V(0x7f)),
            (64, &[0x80ff7f01fe7f0102, 6], V(0xffffffffffffffff)),
            (64, &[0x80ff7f01fe7f0102, 7], V(0xffffffffffffff80)),
            (64, &[0x80ff7f01fe7f0102, 8], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0xffffffff], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0x80000000], UB), // index past the end
        ],
    );
}

/// Word b of a, zero-extended; b >= n/16 is undefined.
#[test]
fn extract_u16() {
    run(
        Op::ExtractU16,
        &[
            (16, &[0x8001, 0], V(0x8001)),
            (16, &[0x8001, 1], UB),          // index past the end
            (16, &[0x8001, 0xffffffff], UB), // index past the end
            (16, &[0x8001, 0x80000000], UB), // index past the end
            (32, &[0x80ff7f01, 0], V(0x7f01)),
            (32, &[0x80ff7f01, 1], V(0x80ff)),
            (32, &[0x80ff7f01, 2], UB),          // index past the end
            (32, &[0x80ff7f01, 0xffffffff], UB), // index past the end
            (32, &[0x80ff7f01, 0x80000000], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0], V(0x102)),
            (64, &[0x80ff7f01fe7f0102, 1], V(0xfe7f)),
            (64, &[0x80ff7f01fe7f0102, 2], V(0x7f01)),
            (64, &[0x80ff7f01fe7f0102, 3], V(0x80ff)),
            (64, &[0x80ff7f01fe7f0102, 4], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0xffffffff], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0x80000000], UB), // index past the end
        ],
    );
}

/// Word b of a, sign-extended; b >= n/16 is undefined.
#[test]
fn extract_i16() {
    run(
        Op::ExtractI16,
        &[
            (16, &[0x8001, 0], V(0x8001)),
            (16, &[0x8001, 1], UB),          // index past the end
            (16, &[0x8001, 0xffffffff], UB), // index past the end
            (16, &[0x8001, 0x80000000], UB), // index past the end
            (32, &[0x80ff7f01, 0], V(0x7f01)),
            (32, &[0x80ff7f01, 1], V(0xffff80ff)),
            (32, &[0x80ff7f01, 2], UB),          // index past the end
            (32, &[0x80ff7f01, 0xffffffff], UB), // index past the end
            (32, &[0x80ff7f01, 0x80000000], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0], V(0x102)),
            (64, &[0x80ff7f01fe7f0102, 1], V(0xfffffffffffffe7f)),
            (64, &[0x80ff7f01fe7f0102, 2], V(0x7f01)),
            (64, &[0x80ff7f01fe7f0102, 3], V(0xffffffffffff80ff)),
            (64, &[0x80ff7f01fe7f0102, 4], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0xffffffff], UB), // index past the end
            (64, &[0x80ff7f01fe7f0102, 0x80000000], UB), // index past the end
        ],
    );
}
