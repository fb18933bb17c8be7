//! Bitfield ops (seed 003), in one of two modes (`ctx.bitfield`).
//!
//! **Native** keeps `bfm`/`bfi`/`ibfe`/`ubfe` for the EU's BFI1/BFI2/BFE and
//! turns open-coded 32-bit patterns into them, only where the two are equal
//! for every input under ir/OPS.md:
//!
//! - `iand(ushr(x, o), 2^w - 1)`, 1 <= w <= 31 -> `ubfe(x, o, w)` (any `o`:
//!   when `o&31 + w >= 32`, ubfe gives `x >> o`, which the mask keeps whole);
//! - `ushr(ishl(x, a), b)` / `ishr(ishl(x, a), b)` with constant counts,
//!   `a&31 <= b&31`, `b&31 >= 1` -> `ubfe`/`ibfe(x, b - a, 32 - b)` (the
//!   field's top bit is bit `31 - a` of x; for `a = 0` the field reaches bit
//!   31 and BFE's `value >> offset` case gives the same);
//! - `ior(iand(ishl(x, o), m), iand(y, ~m))`, constant `m != 0` with
//!   `o&31 = ctz(m)` (or `iand(x, m)` for odd m) -> `bfi(m, x, y)`;
//! - `bitfield_insert(base, ins, off, bits)` with constant, defined `off`
//!   and `bits` -> `bfi(((1 << bits) - 1) << off, ins, base)` (bits = 32
//!   gives the all-ones mask, bits = 0 the empty one);
//! - `ishl(isub(ishl(1, bits), 1), off)` -> `bfm(bits, off)`, and then
//!   `ior(iand(ishl(x, off), m), iand(y, inot(m)))` with `m = bfm(bits,
//!   off)` -> `bfi(m, x, y)`: the variable-field insert of seed 003, as
//!   LLVM's AMDGPU backend recognized it. `ir:algebraic` runs first and its
//!   `iand(ishl(a, s), ishl(b, s)) -> ishl(iand(a, b), s)` turns the field's
//!   `iand` into a shift, so the insert is no longer recognized: the phase
//!   ordering hazard of the thread (`corpus/bfi_variable_field.sir`).
//!
//! **Expand** replaces every bitfield op by shifts and masks (32-bit ops,
//! whose shift counts are masked to 5 bits), exact at every edge:
//!
//! - `bfm(bits, off)` = `((1 << bits) - 1) << off`;
//! - `bfi(m, ins, base)` = `((ins << find_lsb(m)) & m) | (base & ~m)`
//!   (m = 0: `find_lsb` is -1, a shift by 31, and the `& m` clears it);
//! - `[iu]bfe(v, off, bits)`, o = off & 31, w = bits & 31: `w == 0 ? 0 :
//!   o + w >= 32 ? v >> o : (v << (32 - o - w)) >> (32 - w)`, both shifts
//!   right arithmetic for ibfe, logical for ubfe (Marek Olšák's first
//!   variant in seed 003);
//! - `[iu]bitfield_extract(v, off, bits)` = `bits == 0 ? 0 : (v << (32 -
//!   off - bits)) >> (32 - bits)` (defined inputs keep both counts in [0,
//!   31]; bits = 32 shifts by 0);
//! - `bitfield_insert(base, ins, off, bits)` = `(base & ~f) | ((ins << off)
//!   & f)` with `f = (bits >= 32 ? ~0 : (1 << bits) - 1) << off` (defined
//!   inputs have off <= 31 when bits > 0, and off = 32 only with bits = 0).
//!
//! The rewritten instruction keeps its value id; new instructions (and their
//! constants, left to const-fold) go right before it.

/// The pass's decision points (`crate::coverage`).
#[path = "bitfield_cov.rs"]
pub mod cov;

use super::{Defs, Node};
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::{BitfieldMode, IrCtx};
use ir::types::sext;
use ir::{Instr, Op, Program, ValueId};

/// Rewrites bitfield ops or patterns per `ctx.bitfield`; returns whether
/// the program changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let mut st = Emitter { defs: Defs::new(p) };
    let mut changed = false;
    super::walk_mut(&mut p.body, &mut |node| {
        let Node::Block(b) = node else { return };
        let mut out = Vec::with_capacity(b.instrs.len());
        for i in std::mem::take(&mut b.instrs) {
            let new = match ctx.bitfield {
                BitfieldMode::Native => recognize(&i, &mut st, &mut out),
                BitfieldMode::Expand => expand(&i, &mut st, ctx, &mut out),
            };
            changed |= new.is_some();
            let i = new.unwrap_or(i);
            st.defs.record(&i);
            out.push(i);
        }
        b.instrs = out;
    });
    changed
}

/// Definitions seen so far and new 32-bit instructions.
struct Emitter {
    defs: Defs,
}

impl Emitter {
    /// The defining instruction of `v` if it has op `op`.
    fn def(&self, v: ValueId, op: Op) -> Option<Instr> {
        self.defs.def(v).filter(|i| i.op == op).cloned()
    }

    fn konst(&self, v: ValueId) -> Option<u64> {
        self.def(v, Op::LoadConst).map(|i| i.imm)
    }

    fn emit(
        &mut self,
        out: &mut Vec<Instr>,
        op: Op,
        bits: u8,
        srcs: &[ValueId],
        imm: u64,
    ) -> ValueId {
        self.defs.emit(out, op, bits, srcs.to_vec(), imm)
    }

    /// A 32-bit op of 32-bit sources.
    fn op(&mut self, out: &mut Vec<Instr>, op: Op, srcs: &[ValueId]) -> ValueId {
        self.emit(out, op, 32, srcs, 0)
    }

    fn c32(&mut self, out: &mut Vec<Instr>, v: u64) -> ValueId {
        self.emit(out, Op::LoadConst, 32, &[], v & 0xffff_ffff)
    }
}

/// `i` with its op and sources replaced (same value).
fn becomes(i: &Instr, op: Op, srcs: Vec<ValueId>) -> Instr {
    Instr {
        op,
        dest: i.dest,
        srcs,
        imm: 0,
    }
}

/// The other source and the constant of an `iand` with a constant source.
fn and_const(st: &Emitter, v: ValueId) -> Option<(ValueId, ValueId, u64)> {
    let i = st.def(v, Op::Iand)?;
    [(i.srcs[0], i.srcs[1]), (i.srcs[1], i.srcs[0])]
        .into_iter()
        .find_map(|(x, c)| st.konst(c).map(|k| (x, c, k)))
}

/// Native mode: an exact bitfield op for an open-coded pattern.
fn recognize(i: &Instr, st: &mut Emitter, out: &mut Vec<Instr>) -> Option<Instr> {
    if i.dest?.bits != 32 {
        return None;
    }
    let s = &i.srcs;
    match i.op {
        Op::Iand => {
            let mut refused = false;
            for (a, m) in [(s[0], s[1]), (s[1], s[0])] {
                let (Some(sh), Some(mask)) = (st.def(a, Op::Ushr), st.konst(m)) else {
                    continue;
                };
                // A mask of w low bits, 1 <= w <= 31.
                if mask != 0 && mask & (mask + 1) == 0 && mask != 0xffff_ffff {
                    hit(cov::NATIVE_UBFE_MASKED_SHIFT);
                    let w = st.c32(out, mask.count_ones() as u64);
                    return Some(becomes(i, Op::Ubfe, vec![sh.srcs[0], sh.srcs[1], w]));
                }
                refused = true;
            }
            if refused {
                hit(cov::NATIVE_REFUSE_NOT_LOW_MASK);
            }
            None
        }
        Op::Ushr | Op::Ishr => {
            let b = st.konst(s[1])? & 31;
            let shl = st.def(s[0], Op::Ishl)?;
            let a = st.konst(shl.srcs[1])? & 31;
            if a > b || b == 0 {
                hit(cov::NATIVE_REFUSE_SHIFT_COUNTS);
                return None;
            }
            let (off, bits) = (st.c32(out, b - a), st.c32(out, 32 - b));
            let op = if i.op == Op::Ushr {
                hit(cov::NATIVE_UBFE_SHIFT_PAIR);
                Op::Ubfe
            } else {
                hit(cov::NATIVE_IBFE_SHIFT_PAIR);
                Op::Ibfe
            };
            Some(becomes(i, op, vec![shl.srcs[0], off, bits]))
        }
        Op::Ishl => {
            // ishl(isub(ishl(1, bits), 1), off) is bfm(bits, off) exactly:
            // both mask the counts to 5 bits.
            let m0 = st.def(s[0], Op::Isub)?;
            let t = st.def(m0.srcs[0], Op::Ishl)?;
            if st.konst(m0.srcs[1]) != Some(1) || st.konst(t.srcs[0]) != Some(1) {
                return None;
            }
            hit(cov::NATIVE_BFM_SHIFTED_MASK);
            Some(becomes(i, Op::Bfm, vec![t.srcs[1], s[1]]))
        }
        Op::Ior => {
            if let Some(bfi) = bfi_of_bfm_mask(i, st) {
                return Some(bfi);
            }
            // The shifted form first, so that bfi(0xf0, x, y) is found
            // rather than the equal bfi(0xffffff0f, y << 4, x).
            let mut refusal = None;
            for plain in [false, true] {
                for (a, b) in [(s[0], s[1]), (s[1], s[0])] {
                    let (Some((field, mv, m)), Some((y, _, n))) =
                        (and_const(st, a), and_const(st, b))
                    else {
                        continue;
                    };
                    if m == 0 || n != !m & 0xffff_ffff {
                        refusal = refusal.or(Some(cov::NATIVE_REFUSE_MASKS));
                        continue;
                    }
                    let ctz = m.trailing_zeros() as u64;
                    let shifted = st
                        .def(field, Op::Ishl)
                        .filter(|sh| st.konst(sh.srcs[1]).is_some_and(|o| o & 31 == ctz));
                    let x = match shifted {
                        Some(sh) => {
                            hit(cov::NATIVE_BFI_SHIFTED);
                            sh.srcs[0]
                        }
                        None if plain && m & 1 == 1 => {
                            hit(cov::NATIVE_BFI_ODD_MASK);
                            field
                        }
                        None => {
                            refusal = Some(cov::NATIVE_REFUSE_FIELD_SHIFT);
                            continue;
                        }
                    };
                    return Some(becomes(i, Op::Bfi, vec![mv, x, y]));
                }
            }
            if let Some(point) = refusal {
                hit(point);
            }
            None
        }
        Op::BitfieldInsert => {
            let (Some(off), Some(bits)) = (st.konst(s[2]), st.konst(s[3])) else {
                hit(cov::NATIVE_REFUSE_INSERT_VARIABLE);
                return None;
            };
            let (off, bits) = (sext(off, 32), sext(bits, 32));
            if off < 0 || bits < 0 || off + bits > 32 {
                hit(cov::NATIVE_REFUSE_INSERT_UNDEFINED);
                return None;
            }
            hit(cov::NATIVE_BFI_INSERT);
            if bits == 32 {
                hit(cov::NATIVE_BFI_INSERT_FULL);
            } else if bits == 0 {
                hit(cov::NATIVE_BFI_INSERT_EMPTY);
            }
            let m = st.c32(out, ((1u64 << bits) - 1) << off);
            Some(becomes(i, Op::Bfi, vec![m, s[1], s[0]]))
        }
        _ => None,
    }
}

/// `ior(iand(ishl(x, o), m), iand(y, inot(m)))` with `m = bfm(bits, o)`
/// (the same `o`) is `bfi(m, x, y)`: a nonzero `m` has its lowest set bit
/// at `o & 31`, where `ishl` puts `x`, and `m = 0` leaves `y` either way.
/// This is seed 003's variable-field insert, which `ir:algebraic`'s
/// `iand(ishl(a, s), ishl(b, s))` rule, run first, can destroy.
fn bfi_of_bfm_mask(i: &Instr, st: &Emitter) -> Option<Instr> {
    let s = &i.srcs;
    for (a, b) in [(s[0], s[1]), (s[1], s[0])] {
        let (Some(fa), Some(fb)) = (st.def(a, Op::Iand), st.def(b, Op::Iand)) else {
            continue;
        };
        for (sh, m) in [(fa.srcs[0], fa.srcs[1]), (fa.srcs[1], fa.srcs[0])] {
            let (Some(sh), Some(bfm)) = (st.def(sh, Op::Ishl), st.def(m, Op::Bfm)) else {
                continue;
            };
            let inverted = |v: ValueId| st.def(v, Op::Inot).is_some_and(|n| n.srcs[0] == m);
            let y = match (inverted(fb.srcs[0]), inverted(fb.srcs[1])) {
                (_, true) => fb.srcs[0],
                (true, false) => fb.srcs[1],
                _ => continue,
            };
            if bfm.srcs[1] != sh.srcs[1] {
                hit(cov::NATIVE_REFUSE_BFM_OFFSET);
                continue;
            }
            hit(cov::NATIVE_BFI_BFM_MASK);
            return Some(becomes(i, Op::Bfi, vec![m, sh.srcs[0], y]));
        }
    }
    None
}

/// Expand mode: the shift-and-mask sequence of a bitfield op.
fn expand(i: &Instr, st: &mut Emitter, ctx: &IrCtx, out: &mut Vec<Instr>) -> Option<Instr> {
    use Op::*;
    let s = &i.srcs;
    match i.op {
        Bfm => {
            hit(cov::EXPAND_BFM);
            let one = st.c32(out, 1);
            let t = st.op(out, Ishl, &[one, s[0]]);
            let m = st.op(out, Isub, &[t, one]);
            Some(becomes(i, Ishl, vec![m, s[1]]))
        }
        Bfi => {
            hit(cov::EXPAND_BFI);
            let lsb = st.emit(out, FindLsb, 32, &[s[0]], 0);
            let sh = st.op(out, Ishl, &[s[1], lsb]);
            let a = st.op(out, Iand, &[sh, s[0]]);
            let nm = st.op(out, Inot, &[s[0]]);
            let b = st.op(out, Iand, &[s[2], nm]);
            Some(becomes(i, Ior, vec![a, b]))
        }
        Ibfe | Ubfe => {
            let shr = if i.op == Ibfe {
                hit(cov::EXPAND_IBFE);
                Ishr
            } else {
                hit(cov::EXPAND_UBFE);
                Ushr
            };
            let (c0, c31, c32) = (st.c32(out, 0), st.c32(out, 31), st.c32(out, 32));
            let o = st.op(out, Iand, &[s[1], c31]);
            let w = st.op(out, Iand, &[s[2], c31]);
            let both = st.op(out, Iadd, &[o, w]);
            let left = st.op(out, Isub, &[c32, both]);
            let right = st.op(out, Isub, &[c32, w]);
            let t = st.op(out, Ishl, &[s[0], left]);
            let mut field = st.op(out, shr, &[t, right]);
            if !ctx.bugs.has(Bug::BitfieldExpandEdge) {
                // Injected bug (BUGS.md: bitfield-expand-edge): without this
                // select, o + w > 32 shifts left by a negative count.
                hit(cov::EXPAND_BFE_EDGE);
                let whole = st.op(out, shr, &[s[0], o]);
                let edge = st.emit(out, Uge, 1, &[both, c32], 0);
                field = st.op(out, Bcsel, &[edge, whole, field]);
            }
            let empty = st.emit(out, Ieq, 1, &[w, c0], 0);
            Some(becomes(i, Bcsel, vec![empty, c0, field]))
        }
        IbitfieldExtract | UbitfieldExtract => {
            // Defined inputs have offset + bits <= 32, so both counts are
            // in [0, 31] once bits >= 1; bits = 32 (offset 0) shifts by 0.
            hit(cov::EXPAND_BITFIELD_EXTRACT);
            let shr = if i.op == IbitfieldExtract { Ishr } else { Ushr };
            let (c0, c32) = (st.c32(out, 0), st.c32(out, 32));
            let both = st.op(out, Iadd, &[s[1], s[2]]);
            let left = st.op(out, Isub, &[c32, both]);
            let right = st.op(out, Isub, &[c32, s[2]]);
            let t = st.op(out, Ishl, &[s[0], left]);
            let field = st.op(out, shr, &[t, right]);
            let empty = st.emit(out, Ieq, 1, &[s[2], c0], 0);
            Some(becomes(i, Bcsel, vec![empty, c0, field]))
        }
        BitfieldInsert => {
            hit(cov::EXPAND_BITFIELD_INSERT);
            let (one, c32, ones) = (st.c32(out, 1), st.c32(out, 32), st.c32(out, !0));
            let t = st.op(out, Ishl, &[one, s[3]]);
            let low = st.op(out, Isub, &[t, one]);
            let full = st.emit(out, Uge, 1, &[s[3], c32], 0);
            let width = st.op(out, Bcsel, &[full, ones, low]);
            let f = st.op(out, Ishl, &[width, s[2]]);
            let ins = st.op(out, Ishl, &[s[1], s[2]]);
            let a = st.op(out, Iand, &[ins, f]);
            let nf = st.op(out, Inot, &[f]);
            let b = st.op(out, Iand, &[s[0], nf]);
            Some(becomes(i, Ior, vec![a, b]))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check, corpus, ctx, hits_of, interpret, one_block, Outcome};
    use crate::bugs::{Bug, BugSet};
    use crate::coverage::Hits;
    use crate::passes::{BitfieldMode, IrCtx};
    use ir::{parse_program, validate, Program};

    fn expand_ctx() -> IrCtx {
        IrCtx {
            bitfield: BitfieldMode::Expand,
            ..ctx()
        }
    }

    /// Golden check in expand mode (`check` runs native mode).
    fn check_expand(before: &str, after: &str) {
        fn expand(p: &mut Program, _: &IrCtx) -> bool {
            super::run(p, &expand_ctx())
        }
        check(expand, before, after);
    }

    #[test]
    fn native_recognizes_exact_patterns_only() {
        // %5, %7: low masks of 8 bits after ushr (any offset); %9 (0xf0 is
        // not a low mask) and %11 (32 bits) stay. %14/%15/%16: shift pairs
        // with a <= b; %18 (a = 24 > b = 4) stays. %23: an open-coded BFI
        // with m = 0xf0 at o = 4; %26 (0xffffff00 is not ~0xf0) stays.
        // %28 and %31: constant bitfield_inserts (bits 32 gives the full
        // mask); %33 (variable bits) stays.
        let body = |after: bool| {
            let (ubfe, shifts, bfi, inserts) = if after {
                (
                    "32 %34 = load_const (0x00000008)
                    32 %5 = ubfe %0, %2, %34
                    32 %6 = ushr %0, %1
                    32 %35 = load_const (0x00000008)
                    32 %7 = ubfe %0, %1, %35",
                    "32 %36 = load_const (0x00000014)
                    32 %37 = load_const (0x00000008)
                    32 %14 = ubfe %0, %36, %37
                    32 %38 = load_const (0x00000014)
                    32 %39 = load_const (0x00000008)
                    32 %15 = ibfe %0, %38, %39
                    32 %40 = load_const (0x00000000)
                    32 %41 = load_const (0x0000001c)
                    32 %16 = ibfe %0, %40, %41",
                    "32 %23 = bfi %8, %1, %0",
                    "32 %42 = load_const (0x00000ff0)
                    32 %28 = bfi %42, %1, %0
                    32 %29 = load_const (0x00000020)
                    32 %30 = load_const (0x00000000)
                    32 %43 = load_const (0xffffffff)
                    32 %31 = bfi %43, %1, %0",
                )
            } else {
                (
                    "32 %5 = iand %3, %4
                    32 %6 = ushr %0, %1
                    32 %7 = iand %6, %3",
                    "32 %14 = ushr %13, %12
                    32 %15 = ishr %13, %12
                    32 %16 = ishr %13, %2",
                    "32 %23 = ior %22, %20",
                    "32 %28 = bitfield_insert %0, %1, %2, %27
                    32 %29 = load_const (0x00000020)
                    32 %30 = load_const (0x00000000)
                    32 %31 = bitfield_insert %0, %1, %30, %29",
                )
            };
            format!(
                "32 %2 = load_const (0x00000004)
                32 %3 = load_const (0x000000ff)
                32 %4 = ushr %0, %2
                {ubfe}
                32 %8 = load_const (0x000000f0)
                32 %9 = iand %4, %8
                32 %10 = load_const (0xffffffff)
                32 %11 = iand %4, %10
                32 %12 = load_const (0x00000018)
                32 %13 = ishl %0, %2
                {shifts}
                32 %17 = ishl %0, %12
                32 %18 = ushr %17, %2
                32 %19 = ishl %1, %2
                32 %20 = iand %19, %8
                32 %21 = load_const (0xffffff0f)
                32 %22 = iand %0, %21
                {bfi}
                32 %24 = load_const (0xffffff00)
                32 %25 = iand %0, %24
                32 %26 = ior %20, %25
                32 %27 = load_const (0x00000008)
                {inserts}
                32 %32 = umin %1, %12
                32 %33 = bitfield_insert %0, %1, %2, %32
                => %5 %7 %9 %11 %14 %15 %16 %18 %23 %26 %28 %31 %33"
            )
        };
        let mut outs = vec![];
        let before = one_block("i32 i32", &body(false), &mut outs);
        check(
            super::run,
            &before,
            &one_block("i32 i32", &body(true), &mut outs),
        );
        let p = parse_program(&before).unwrap();
        let mut q = p.clone();
        super::run(&mut q, &ctx());
        super::super::testing::assert_same_on_edges(&p, &q, 400);
    }

    #[test]
    fn native_recognizes_the_variable_field_insert() {
        // %7 is bfm(%3, %2) open-coded; %12 inserts %0 into %1 at the
        // field %7, the field shifted by the mask's own offset %2: a bfi.
        // %15 shifts its field by %3 instead, which is not the mask's
        // offset: it stays.
        let body = |after: bool| {
            let (m, r) = if after {
                ("32 %7 = bfm %3, %2", "32 %12 = bfi %7, %0, %1")
            } else {
                ("32 %7 = ishl %6, %2", "32 %12 = ior %9, %11")
            };
            format!(
                "32 %4 = load_const (0x00000001)
                32 %5 = ishl %4, %3
                32 %6 = isub %5, %4
                {m}
                32 %8 = ishl %0, %2
                32 %9 = iand %8, %7
                32 %10 = inot %7
                32 %11 = iand %1, %10
                {r}
                32 %13 = ishl %1, %3
                32 %14 = iand %13, %7
                32 %15 = ior %14, %11
                => %12 %15"
            )
        };
        let mut outs = vec![];
        let before = one_block("i32 i32 i32 i32", &body(false), &mut outs);
        check(
            super::run,
            &before,
            &one_block("i32 i32 i32 i32", &body(true), &mut outs),
        );
        let p = parse_program(&before).unwrap();
        let mut q = p.clone();
        super::run(&mut q, &ctx());
        super::super::testing::assert_same_on_edges(&p, &q, 400);
    }

    #[test]
    fn expand_writes_shifts_and_masks() {
        let mut outs = vec![];
        let before = one_block(
            "i32 i32 i32 i32",
            "32 %4 = ubfe %0, %1, %2
            32 %5 = bfm %2, %1
            32 %6 = bfi %3, %0, %1
            => %4 %5 %6",
            &mut outs,
        );
        let after = one_block(
            "i32 i32 i32 i32",
            "32 %7 = load_const (0x00000000)
            32 %8 = load_const (0x0000001f)
            32 %9 = load_const (0x00000020)
            32 %10 = iand %1, %8
            32 %11 = iand %2, %8
            32 %12 = iadd %10, %11
            32 %13 = isub %9, %12
            32 %14 = isub %9, %11
            32 %15 = ishl %0, %13
            32 %16 = ushr %15, %14
            32 %17 = ushr %0, %10
            1 %18 = uge %12, %9
            32 %19 = bcsel %18, %17, %16
            1 %20 = ieq %11, %7
            32 %4 = bcsel %20, %7, %19
            32 %21 = load_const (0x00000001)
            32 %22 = ishl %21, %2
            32 %23 = isub %22, %21
            32 %5 = ishl %23, %1
            32 %24 = find_lsb %3
            32 %25 = ishl %0, %24
            32 %26 = iand %25, %3
            32 %27 = inot %3
            32 %28 = iand %1, %27
            32 %6 = ior %26, %28
            => %4 %5 %6",
            &mut outs,
        );
        check_expand(&before, &after);
        // bitfield_insert with operands guarded into range, as generated.
        let mut outs = vec![];
        let guards = "32 %4 = load_const (0x00000020)
            32 %5 = umin %2, %4
            32 %6 = isub %4, %5
            32 %7 = umin %3, %6";
        let before = one_block(
            "i32 i32 i32 i32",
            &format!("{guards}\n32 %8 = bitfield_insert %0, %1, %5, %7\n=> %8"),
            &mut outs,
        );
        let after = one_block(
            "i32 i32 i32 i32",
            &format!(
                "{guards}
                32 %9 = load_const (0x00000001)
                32 %10 = load_const (0x00000020)
                32 %11 = load_const (0xffffffff)
                32 %12 = ishl %9, %7
                32 %13 = isub %12, %9
                1 %14 = uge %7, %10
                32 %15 = bcsel %14, %11, %13
                32 %16 = ishl %15, %5
                32 %17 = ishl %1, %5
                32 %18 = iand %17, %16
                32 %19 = inot %16
                32 %20 = iand %0, %19
                32 %8 = ior %18, %20
                => %8"
            ),
            &mut outs,
        );
        check_expand(&before, &after);
    }

    /// Offsets and widths at the edges: 0, 1, 31, 32 (masked to 0 by BFE
    /// and BFM), 33, -1, and ones summing to 31, 32 and 33.
    const EDGES: [u64; 12] = [0, 1, 4, 15, 16, 28, 31, 32, 33, 0xffff_ffff, 17, 5];
    const VALUES: [u64; 8] = [
        0,
        1,
        0x8000_0000,
        0xffff_ffff,
        0x1234_5678,
        0xdead_beef,
        0x7fff_ffff,
        0x00f0_f00f,
    ];

    /// Runs `ops` (each `op %0, %1, %2` on inputs v, o, w) natively and
    /// expanded over the grid; returns the (v, o, w, slot) that differ.
    fn grid(ops: &str, bugs: BugSet) -> Vec<(u64, u64, u64, usize)> {
        let mut outs = vec![];
        let p = parse_program(&one_block("i32 i32 i32", ops, &mut outs)).unwrap();
        let mut q = p.clone();
        assert!(super::run(
            &mut q,
            &IrCtx {
                bugs,
                ..expand_ctx()
            }
        ));
        validate(&q).unwrap();
        let mut diffs = vec![];
        for v in VALUES {
            for o in EDGES {
                for w in EDGES {
                    let Outcome::Outputs(want) = interpret(&p, &[v, o, w], &[], 0) else {
                        continue;
                    };
                    let Outcome::Outputs(got) = interpret(&q, &[v, o, w], &[], 0) else {
                        panic!("expansion undefined at {v:#x} {o} {w}");
                    };
                    for (slot, (a, b)) in want.iter().zip(&got).enumerate() {
                        if a != b {
                            diffs.push((v, o, w, slot));
                        }
                    }
                }
            }
        }
        diffs
    }

    const EXTRACTS: &str = "32 %3 = ubfe %0, %1, %2
        32 %4 = ibfe %0, %1, %2
        32 %5 = bfm %2, %1
        32 %6 = bfi %0, %1, %2
        => %3 %4 %5 %6";

    #[test]
    fn expansions_are_exact_on_the_edge_grid() {
        assert_eq!(grid(EXTRACTS, BugSet::NONE), vec![]);
        // bitfield_insert(base = v, ins = ~v, offset = o, bits = w); grid
        // points outside its defined range are skipped.
        let inserts = "32 %3 = inot %0
            32 %4 = bitfield_insert %0, %3, %1, %2
            => %4";
        assert_eq!(grid(inserts, BugSet::NONE), vec![]);
        // GLSL bitfieldExtract at every defined edge, bits = 32 included.
        let glsl = "32 %3 = ubitfield_extract %0, %1, %2
            32 %4 = ibitfield_extract %0, %1, %2
            => %3 %4";
        assert_eq!(grid(glsl, BugSet::NONE), vec![]);
    }

    #[test]
    fn injected_bug_drops_the_offset_plus_bits_case() {
        let diffs = grid(EXTRACTS, BugSet::NONE.with(Bug::BitfieldExpandEdge));
        assert!(diffs.iter().any(|d| d.3 == 0) && diffs.iter().any(|d| d.3 == 1));
        for (v, o, w, slot) in diffs {
            let (o, w) = (o & 31, w & 31);
            assert!(slot < 2 && w != 0 && o + w > 32, "{v:#x} {o} {w} {slot}");
        }
    }

    #[test]
    fn records_recognitions_refusals_and_expansions() {
        // Native: 0xff is a low mask, 0xf0 is not.
        let text = one_block(
            "i32",
            "32 %1 = load_const (0x00000004)
            32 %2 = ushr %0, %1
            32 %3 = load_const (0x000000ff)
            32 %4 = iand %2, %3
            32 %5 = load_const (0x000000f0)
            32 %6 = iand %2, %5
            => %4 %6",
            &mut vec![],
        );
        assert_eq!(
            hits_of(super::run, &ctx(), &text),
            Hits::from([
                ("ir:bitfield/native/refuse/not-low-mask", 1),
                ("ir:bitfield/native/ubfe-from-masked-shift", 1),
            ])
        );
        // Expand: the o + w >= 32 select is recorded only where it is
        // emitted, so not with the injected bug.
        let text = one_block("i32 i32 i32", "32 %3 = ubfe %0, %1, %2\n=> %3", &mut vec![]);
        assert_eq!(
            hits_of(super::run, &expand_ctx(), &text),
            Hits::from([
                ("ir:bitfield/expand/bfe-offset-plus-bits-edge", 1),
                ("ir:bitfield/expand/ubfe", 1),
            ])
        );
        let bug = IrCtx {
            bugs: BugSet::NONE.with(Bug::BitfieldExpandEdge),
            ..expand_ctx()
        };
        assert_eq!(
            hits_of(super::run, &bug, &text),
            Hits::from([("ir:bitfield/expand/ubfe", 1)])
        );
    }

    #[test]
    fn both_modes_keep_the_meaning_of_the_corpus() {
        let mut compared = 0;
        for mode in [BitfieldMode::Native, BitfieldMode::Expand] {
            for (name, case) in corpus() {
                let Some(d) = case.dispatch else { continue };
                let mut q = case.program.clone();
                super::run(
                    &mut q,
                    &IrCtx {
                        bitfield: mode,
                        ..ctx()
                    },
                );
                validate(&q).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(!super::run(
                    &mut q.clone(),
                    &IrCtx {
                        bitfield: mode,
                        ..ctx()
                    }
                ));
                for inv in 0..d.invocations as usize {
                    let inputs: Vec<u64> = d.inputs.iter().map(|s| s[inv]).collect();
                    let want = interpret(&case.program, &inputs, &d.uniforms, inv as u64);
                    if let Outcome::Outputs(_) = want {
                        let got = interpret(&q, &inputs, &d.uniforms, inv as u64);
                        assert_eq!(got, want, "{name} {mode:?} invocation {inv}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 300, "only {compared} runs compared");
    }
}
