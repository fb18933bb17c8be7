//! Conditional-modifier propagation (brw `opt_cmod_propagation`,
//! EU-MODEL §5.1).
//!
//! Block-local, walking each block backwards. A **consumer** is an
//! unpredicated instruction with a null destination and a relational cmod
//! (`.z .nz .g .ge .l .le`) whose src0 is a GRF:
//!
//! * `cmp.cmod null x, 0` (src1 an immediate zero; no `abs` on x);
//! * `mov.cmod null x` (no `.sat`, no `abs`);
//! * `and.nz null x, 1` (x not negated);
//! * `not.z/.nz null x` (the NOT path below);
//! * `cmp.cmod null a, b` with b not zero and float sources (the CMP→ADD
//!   path below).
//!
//! **The scan** goes back from the consumer to the first instruction that
//! writes a byte the consumer reads (the producer P). On the way it stops at
//! any instruction writing one of the consumer's flag bytes and remembers
//! whether any instruction read one of them (`read_flag`).
//!
//! **P must** be unpredicated, have the consumer's exec size, group and
//! NoMask, and write exactly the elements the consumer reads (channel c
//! reads what channel c wrote: same byte offsets; Mesa's "contiguous
//! destination at the same offset", generalized to the strided 8/16-bit
//! containers lowering uses). If P writes flags at all they must be exactly
//! the consumer's flag bits (same flag subregister, group and size), else
//! the fold is blocked.
//!
//! * **P is a CMP/CMPN.** Its cmod is the comparison, so no other cmod can
//!   be put on it; its result is 0 or ~0 (the low dword of a 64-bit result
//!   is the only defined part, and the consumer must read inside it). The
//!   consumer is deleted when its flag is provably the relation itself: `.nz`
//!   (any size; with a negated source only when the consumer's type is an
//!   integer), `.g` of an unsigned view or `.l` of a signed view (not
//!   negated). The consumer's own arithmetic (negation, a converting MOV: F
//!   ~0 is NaN and converts to integer 0) is evaluated on both possible
//!   values as a final check (`cmp_results_agree`). `and.nz x, 1` is only
//!   taken here.
//! * **Otherwise** P must not be an integer MUL and must accept a
//!   flag-writing cmod (`can_take_cmod`: no negated UD source, no flag
//!   source). The condition moved is the consumer's, swapped
//!   (`brw_swap_cmod`) when its source is negated. Types must say the
//!   consumer tests P's value (`types_compatible`): a MOV consumer follows
//!   b23432c540b/fa51595c7f1 (float P: same source type, float destination
//!   at least as wide; integer P: integer source of the same size, signedness
//!   matching for inequalities, an integer destination at least as wide and
//!   of the same signedness for inequalities); a CMP-with-0 consumer reads P's
//!   type (or, for `.z/.nz`, an integer type of its size) and its null
//!   destination agrees with P's type in size and float-ness. A negated
//!   integer source only allows `.z/.nz` (−INT_MIN wraps, so the swap is
//!   wrong there). Saturate needs no restriction: the flag is computed from
//!   the final, saturated value. Then, if P already writes the same cmod to
//!   the same flag, the consumer is deleted; otherwise P's cmod is replaced
//!   (only if no instruction in between read the flag) and the flag
//!   subregister moves with it.
//!
//! **CMP→ADD** (float only, df9dbc03d3d): `cmp.cmod null a, b` folds into an
//! earlier unpredicated `add d, a, -b` (either order; or `-a, b` with the
//! swapped cmod) of the same exec size, group and NoMask and of a's type,
//! when neither a nor b was written between the ADD and the CMP (nor by the
//! ADD itself). In this model a − b rounds to zero only when a = b, but
//! ∞ − ∞ is NaN while ∞ = ∞, so only `.g`/`.l` are taken unless b is a
//! finite immediate. A saturated ADD only takes `.g`: sat(r) > 0 ⇔ r > 0
//! even for NaN (Mesa also allows `.le`, which NaN breaks: sat(NaN) = 0).
//!
//! **NOT** (`not.nz/.z null x`): the OR/AND that produced x takes the
//! inverted condition (`or.z` for `not.nz`), as in Mesa, but only when both
//! its sources are provably booleans (0/~0, traced through CMPs and boolean
//! logic in the block), because ~x ≠ 0 ⇔ x = 0 only holds for booleans. A
//! CMP producer is also taken: `not.z` tests the relation itself (deleted);
//! `not.nz` inverts the CMP's cmod when nothing else reads the CMP's result
//! (its destination becomes null) and no flag read intervenes — exact for
//! integer compares, and for floats only `.z`↔`.nz` (ordered relations are
//! not NaN-safe, 57344052b6a).

use super::cfg::Cfg;
use super::ops::{
    dst_footprint, dst_offsets, inst_valid, is_pred_sel, overlaps, shared_access, src_footprint,
    src_offsets,
};
use crate::bugs::Bug;
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{CondMod, DstKind, FlagReg, Instruction, MachineConfig, Opcode, RegType, Src, SrcKind};

/// The pass's decision points (`crate::coverage`).
#[path = "cmod_prop_cov.rs"]
pub mod cov;

use crate::coverage::hit;

/// How deep the boolean trace of the NOT path follows logic operations.
const BOOL_DEPTH: u32 = 4;

/// `brw_swap_cmod`: the condition on −x equal to `c` on x.
fn swap_cmod(c: CondMod) -> CondMod {
    match c {
        CondMod::G => CondMod::L,
        CondMod::L => CondMod::G,
        CondMod::Ge => CondMod::Le,
        CondMod::Le => CondMod::Ge,
        other => other,
    }
}

/// `brw_negate_cmod`: the logical inverse (not NaN-safe for ordered
/// relations).
fn negate_cmod(c: CondMod) -> Option<CondMod> {
    Some(match c {
        CondMod::Z => CondMod::Nz,
        CondMod::Nz => CondMod::Z,
        CondMod::G => CondMod::Le,
        CondMod::Le => CondMod::G,
        CondMod::Ge => CondMod::L,
        CondMod::L => CondMod::Ge,
        CondMod::O | CondMod::U => return None,
    })
}

fn is_relation(c: CondMod) -> bool {
    !matches!(c, CondMod::O | CondMod::U)
}

fn is_zero_test(c: CondMod) -> bool {
    matches!(c, CondMod::Z | CondMod::Nz)
}

fn sign_bit(ty: RegType) -> u64 {
    1u64 << (8 * ty.size() - 1)
}

/// An immediate equal to zero in its type (±0 for floats).
fn is_zero_imm(s: &Src) -> bool {
    match s.kind {
        SrcKind::Imm(bits) if s.ty.is_float() => bits & s.ty.mask() & !sign_bit(s.ty) == 0,
        SrcKind::Imm(bits) => bits & s.ty.mask() == 0,
        _ => false,
    }
}

/// An integer immediate equal to one.
fn is_one_imm(s: &Src) -> bool {
    matches!(s.kind, SrcKind::Imm(1)) && s.ty.is_int() && !s.ty.is_vector_imm()
}

/// A float immediate that is neither infinite nor NaN.
fn is_finite_imm(s: &Src) -> bool {
    let SrcKind::Imm(bits) = s.kind else {
        return false;
    };
    let exp = match s.ty {
        RegType::HF => 0x7c00,
        RegType::F => 0x7f80_0000,
        RegType::DF => 0x7ff0_0000_0000_0000,
        _ => return false,
    };
    bits & exp != exp
}

/// Whether `x` is `y` with the negate modifier flipped (a float immediate:
/// with the sign bit flipped).
fn negative_equals(x: &Src, y: &Src) -> bool {
    match (x.kind, y.kind) {
        (SrcKind::Imm(a), SrcKind::Imm(b)) => {
            x.ty == y.ty && x.ty.is_float() && (a ^ sign_bit(x.ty)) & x.ty.mask() == b & y.ty.mask()
        }
        (SrcKind::Grf { .. }, SrcKind::Grf { .. }) => {
            let mut t = *x;
            t.neg = !t.neg;
            t == *y
        }
        _ => false,
    }
}

/// The flag register the moved cmod uses: the consumer's.
fn moved_flag(producer: &Instruction, consumer: &Instruction, ctx: &PassCtx) -> FlagReg {
    if producer.flag != consumer.flag && ctx.bugs.has(Bug::CmodPropFlagSubreg) {
        // Injected bug (BUGS.md: cmod-prop-flag-subreg): the cmod moves but
        // the flag subregister does not, so the flag the consumer wrote (f0.1,
        // f1.x) is now written to the producer's f0.0 (8030cb75c18).
        return producer.flag;
    }
    consumer.flag
}

/// Deletes an instruction (compaction removes it).
fn kill(i: &mut Instruction) {
    *i = Instruction::new(Opcode::Nop, i.exec_size);
}

/// Unpredicated, same exec size, group and NoMask, GRF destination.
fn same_shape(p: &Instruction, c: &Instruction) -> bool {
    p.pred.is_none()
        && p.exec_size == c.exec_size
        && p.group == c.group
        && p.we_all == c.we_all
        && matches!(p.dst.kind, DstKind::Grf { .. })
        && p.op.has_dst()
        && p.msg.is_none()
}

/// P writes no flags, or exactly the consumer's flag bits.
fn flags_compatible(p: &Instruction, c: &Instruction) -> bool {
    !p.writes_flag() || (p.flag == c.flag && p.group == c.group && p.exec_size == c.exec_size)
}

/// Channel c of `x` reads exactly the byte offset channel c of `p` wrote.
fn offsets_equal(p: &Instruction, x: &Src, exec: u8) -> bool {
    match (dst_offsets(&p.dst, exec), src_offsets(x, exec)) {
        (Some(d), Some(s)) => d == s,
        _ => false,
    }
}

/// Channel c of `x` reads inside the defined part (low dword at most) of
/// CMP `p`'s element c.
fn within_cmp_result(p: &Instruction, x: &Src, exec: u8) -> bool {
    let (Some(d), Some(s)) = (dst_offsets(&p.dst, exec), src_offsets(x, exec)) else {
        return false;
    };
    let defined = p.dst.ty.size().min(4);
    d.iter()
        .zip(&s)
        .all(|(&d, &s)| s >= d && s + x.ty.size() <= d + defined)
}

/// Whether producer `p` can take the folded cmod: the hardware allows a
/// cmod on it (the opcode table) and the cmod would be a flag write, not
/// part of the operation (SEL, CMP, CSEL); and, the pass's policy as in
/// brw, an integer MUL is left alone (its flag reflects the untruncated
/// product).
fn can_take_cmod(p: &Instruction) -> bool {
    let ok_op = p.op.can_take_cmod()
        && !p.op.has(eu::opcode::facts::CMOD_DECIDES)
        && (p.op != Opcode::Mul || p.dst.ty.is_float());
    ok_op
        && !p
            .srcs
            .iter()
            .any(|s| s.neg && s.ty.is_int() && !s.ty.is_signed_int())
        && !p
            .srcs
            .iter()
            .any(|s| matches!(s.kind, SrcKind::Flag { .. }))
}

/// A value as the consumer's arithmetic sees it (signs, zero and NaN are
/// all a cmod can tell apart).
#[derive(Clone, Copy)]
enum Val {
    Int(i128),
    Float(f64),
}

fn wrap(x: i128, ty: RegType) -> i128 {
    let bits = 8 * ty.size();
    let m = x.rem_euclid(1i128 << bits);
    if ty.is_signed_int() && m >= 1i128 << (bits - 1) {
        m - (1i128 << bits)
    } else {
        m
    }
}

fn convert(v: Val, to: RegType) -> Val {
    match v {
        Val::Int(x) if to.is_float() => Val::Float(x as f64),
        Val::Int(x) => Val::Int(wrap(x, to)),
        Val::Float(f) if to.is_float() => Val::Float(f),
        Val::Float(f) if f.is_nan() => Val::Int(0),
        Val::Float(f) => Val::Int((f.trunc() as i128).clamp(to.int_min(), to.int_max())),
    }
}

fn test(v: Val, c: CondMod) -> Option<bool> {
    Some(match v {
        Val::Int(x) => match c {
            CondMod::Z => x == 0,
            CondMod::Nz => x != 0,
            CondMod::G => x > 0,
            CondMod::Ge => x >= 0,
            CondMod::L => x < 0,
            CondMod::Le => x <= 0,
            _ => return None,
        },
        Val::Float(f) if f.is_nan() => c == CondMod::Nz,
        Val::Float(f) => match c {
            CondMod::Z => f == 0.0,
            CondMod::Nz => f != 0.0,
            CondMod::G => f > 0.0,
            CondMod::Ge => f >= 0.0,
            CondMod::L => f < 0.0,
            CondMod::Le => f <= 0.0,
            _ => return None,
        },
    })
}

/// The flag consumer `c` computes when its source `x` reads all-zero
/// (`ones` false) or all-one bytes.
fn consumer_flag(c: &Instruction, x: &Src, ones: bool) -> Option<bool> {
    let ty = x.ty;
    let mut v = if ty.is_float() {
        Val::Float(if ones { f64::NAN } else { 0.0 })
    } else if !ones {
        Val::Int(0)
    } else if ty.is_signed_int() {
        Val::Int(-1)
    } else {
        Val::Int(ty.int_max())
    };
    if x.neg {
        v = match v {
            Val::Int(i) if ty.is_signed_int() => Val::Int(wrap(-i, ty)),
            Val::Int(i) => Val::Int(-i),
            Val::Float(f) => Val::Float(-f),
        };
    }
    let v = match c.op {
        Opcode::Cmp => v,
        Opcode::Mov => convert(v, c.dst.ty),
        Opcode::And => Val::Int(if ones { 1 } else { 0 }),
        _ => return None,
    };
    test(v, c.cmod?)
}

/// Whether the consumer's flag equals the CMP's relation for both results.
fn cmp_results_agree(c: &Instruction, x: &Src) -> bool {
    consumer_flag(c, x, false) == Some(false) && consumer_flag(c, x, true) == Some(true)
}

/// Whether a MOV/CMP-with-0 consumer with cmod `cmod` tests P's value.
fn types_compatible(p: &Instruction, c: &Instruction, x: &Src, cmod: CondMod) -> bool {
    let (t, xt, d) = (p.dst.ty, x.ty, c.dst.ty);
    let z = is_zero_test(cmod);
    if xt.size() != t.size() || (x.neg && xt.is_int() && !z) {
        return false;
    }
    match c.op {
        Opcode::Mov if t.is_float() => xt == t && d.is_float() && d.size() >= t.size(),
        Opcode::Mov => {
            xt.is_int()
                && (z || xt.is_signed_int() == t.is_signed_int())
                && (d.is_float()
                    || (d.size() >= t.size() && (z || d.is_signed_int() == t.is_signed_int())))
        }
        Opcode::Cmp => {
            (xt == t || (z && xt.is_int() && t.is_int()))
                && (d == t || (d.size() == t.size() && d.is_float() == t.is_float()))
        }
        _ => false,
    }
}

/// Scans back from consumer `j` for the last writer of `fp` in the block.
/// Returns it and whether the consumer's flag bytes were read in between;
/// None if an instruction in between writes those flag bytes.
fn find_producer(
    p: &VProgram,
    start: usize,
    j: usize,
    fp: &[(u32, u32)],
    cflags: u8,
) -> Option<(usize, bool)> {
    let mut read_flag = false;
    for k in (start..j).rev() {
        let a = shared_access(&p.insts[k]);
        if overlaps(&a.writes, fp) {
            return Some((k, read_flag));
        }
        if a.flag_writes & cflags != 0 {
            return None;
        }
        read_flag |= (a.flag_lane_reads | a.flag_raw_reads) & cflags != 0;
    }
    None
}

/// The three consumer kinds of the main path.
fn general(p: &mut VProgram, start: usize, j: usize, ctx: &PassCtx, m: &MachineConfig) -> bool {
    let c = p.insts[j];
    let x = c.srcs[0];
    let Some(cmod) = c.cmod else { return false };
    let cflags = shared_access(&c).flag_writes;
    let Some((k, read_flag)) = find_producer(p, start, j, &src_footprint(&x, c.exec_size), cflags)
    else {
        hit(cov::REFUSE_NO_PRODUCER);
        return false;
    };
    let pi = p.insts[k];
    if !producer_fits(&pi, &c) {
        return false;
    }
    if matches!(pi.op, Opcode::Cmp | Opcode::Cmpn) {
        // The CMP's result is 0/~0: the consumer is redundant when it tests
        // exactly the relation; a different cmod can never go on a CMP.
        let invariant = match cmod {
            CondMod::Nz => c.dst.ty.is_int() || !x.neg,
            CondMod::G => !x.neg && x.ty.is_int() && !x.ty.is_signed_int(),
            CondMod::L => !x.neg && x.ty.is_signed_int(),
            _ => false,
        };
        if invariant && within_cmp_result(&pi, &x, c.exec_size) && cmp_results_agree(&c, &x) {
            hit(cov::CMP_PRODUCER_DELETE);
            kill(&mut p.insts[j]);
            return true;
        }
        hit(cov::REFUSE_CMP_RELATION);
        return false;
    }
    let refusal = if c.op == Opcode::And {
        Some(cov::REFUSE_AND_NOT_CMP)
    } else if !offsets_equal(&pi, &x, c.exec_size) {
        Some(cov::REFUSE_OFFSETS)
    } else if pi.op == Opcode::Mul && !pi.dst.ty.is_float() {
        Some(cov::REFUSE_INT_MUL)
    } else if !can_take_cmod(&pi) {
        Some(cov::REFUSE_NO_CMOD)
    } else {
        None
    };
    if let Some(point) = refusal {
        hit(point);
        return false;
    }
    let cond = if x.neg { swap_cmod(cmod) } else { cmod };
    let already = pi.writes_flag() && pi.cmod == Some(cond);
    if !already && read_flag {
        hit(cov::REFUSE_FLAG_READ);
        return false;
    }
    if !types_compatible(&pi, &c, &x, cmod) {
        // Injected bug (BUGS.md: cmod-prop-type-mismatch): the consumer
        // converts or reinterprets P's value (`int(uint(f)) < 0` tested as
        // `uint(f) < 0`, 1e128e9b69c, 2dff9a66b62), yet the cmod is moved.
        if !ctx.bugs.has(Bug::CmodPropTypeMismatch) {
            hit(cov::REFUSE_TYPES);
            return false;
        }
    }
    if already {
        hit(cov::DELETE_ALREADY_SET);
        kill(&mut p.insts[j]);
        return true;
    }
    if x.neg && cond != cmod {
        hit(cov::FOLD_SWAPPED);
    }
    fold_cmod(p, k, j, &pi, &c, cond, ctx, m)
}

/// The producer has the consumer's shape and flags (counting a refusal).
fn producer_fits(pi: &Instruction, c: &Instruction) -> bool {
    if !same_shape(pi, c) {
        hit(cov::REFUSE_SHAPE);
        false
    } else if !flags_compatible(pi, c) {
        hit(cov::REFUSE_FLAGS);
        false
    } else {
        true
    }
}

/// Puts `cond` (with the consumer's flag) on producer `k`, if the result is
/// still a valid instruction, and deletes consumer `j`.
#[allow(clippy::too_many_arguments)]
fn fold_cmod(
    p: &mut VProgram,
    k: usize,
    j: usize,
    pi: &Instruction,
    c: &Instruction,
    cond: CondMod,
    ctx: &PassCtx,
    m: &MachineConfig,
) -> bool {
    let mut np = *pi;
    np.cmod = Some(cond);
    np.flag = moved_flag(pi, c, ctx);
    if !inst_valid(&np, m) {
        hit(cov::REFUSE_INVALID);
        return false;
    }
    hit(cov::FOLD);
    if np.sat {
        hit(cov::FOLD_SAT);
    }
    if np.flag != pi.flag {
        hit(cov::FOLD_FLAG_MOVED);
    }
    p.insts[k] = np;
    kill(&mut p.insts[j]);
    true
}

/// Which way an ADD matches the CMP's a − b: Some(false) for a − b,
/// Some(true) for b − a (the cmod swaps).
fn add_matches(s: &Instruction, a: &Src, b: &Src) -> Option<bool> {
    let (s0, s1) = (&s.srcs[0], &s.srcs[1]);
    if (s0 == a && negative_equals(s1, b)) || (s1 == a && negative_equals(s0, b)) {
        Some(false)
    } else if (negative_equals(s0, a) && s1 == b) || (negative_equals(s1, a) && s0 == b) {
        Some(true)
    } else {
        None
    }
}

/// `cmp.cmod null a, b` (float, b ≠ 0) into the ADD computing a − b.
fn cmp_to_add(p: &mut VProgram, start: usize, j: usize, ctx: &PassCtx, m: &MachineConfig) -> bool {
    let c = p.insts[j];
    let (a, b) = (c.srcs[0], c.srcs[1]);
    let Some(cmod) = c.cmod else { return false };
    let cflags = shared_access(&c).flag_writes;
    let mut ab = src_footprint(&a, c.exec_size);
    ab.extend(src_footprint(&b, c.exec_size));
    let mut read_flag = false;
    let mut ab_written = false;
    for k in (start..j).rev() {
        let s = p.insts[k];
        let acc = shared_access(&s);
        let matched = if s.op == Opcode::Add && same_shape(&s, &c) && s.dst.ty == a.ty {
            add_matches(&s, &a, &b)
        } else {
            None
        };
        if let Some(negate) = matched {
            if flags_compatible(&s, &c) {
                if ab_written || overlaps(&acc.writes, &ab) {
                    hit(if s.sat {
                        cov::CMP_TO_ADD_REFUSE_WRITTEN_SAT
                    } else {
                        cov::CMP_TO_ADD_REFUSE_WRITTEN
                    });
                    return false;
                }
                let cond = if negate { swap_cmod(cmod) } else { cmod };
                // ∞ − ∞ = NaN although ∞ = ∞: only .g/.l hold for any
                // operands; a finite immediate b rules the case out.
                if !matches!(cond, CondMod::G | CondMod::L) && !is_finite_imm(&b) {
                    hit(if s.sat {
                        cov::CMP_TO_ADD_REFUSE_INF_SAT
                    } else {
                        cov::CMP_TO_ADD_REFUSE_INF
                    });
                    return false;
                }
                if s.sat && cond != CondMod::G {
                    // Injected bug (BUGS.md: cmod-prop-saturate): a saturated
                    // ADD takes a condition the clamp changes, e.g. `.l`
                    // although sat(a - b) < 0 never holds (b91ecee04ab,
                    // 36abb0c6918).
                    if !ctx.bugs.has(Bug::CmodPropSaturate) {
                        hit(cov::CMP_TO_ADD_REFUSE_SAT);
                        return false;
                    }
                }
                let fresh = !read_flag && s.cmod.is_none();
                if !can_take_cmod(&s) || !(fresh || (s.writes_flag() && s.cmod == Some(cond))) {
                    hit(cov::CMP_TO_ADD_REFUSE_CMOD);
                    return false;
                }
                let mut ns = s;
                ns.cmod = Some(cond);
                ns.flag = moved_flag(&s, &c, ctx);
                if !inst_valid(&ns, m) {
                    hit(cov::REFUSE_INVALID);
                    return false;
                }
                hit(cov::CMP_TO_ADD);
                if ns.sat {
                    hit(cov::CMP_TO_ADD_SAT);
                }
                p.insts[k] = ns;
                kill(&mut p.insts[j]);
                return true;
            }
        }
        if acc.flag_writes & cflags != 0 {
            return false;
        }
        read_flag |= (acc.flag_lane_reads | acc.flag_raw_reads) & cflags != 0;
        ab_written |= overlaps(&acc.writes, &ab);
    }
    false
}

/// Whether source `s` of an instruction at `at` (exec size, group and
/// NoMask of `shape`) is a boolean (0 or ~0 in every element it reads),
/// traced back inside the block. `logic`: negation is bitwise NOT.
fn is_boolean(
    p: &VProgram,
    start: usize,
    at: usize,
    shape: &Instruction,
    s: &Src,
    logic: bool,
    depth: u32,
) -> bool {
    match s.kind {
        SrcKind::Imm(bits) => {
            let v = bits & s.ty.mask();
            s.ty.is_int() && !s.ty.is_vector_imm() && (v == 0 || v == s.ty.mask())
        }
        SrcKind::Grf { .. } => {
            if depth == 0 || s.abs || (s.neg && !logic) || s.ty.is_float() {
                return false;
            }
            let fp = src_footprint(s, shape.exec_size);
            let Some(w) = (start..at)
                .rev()
                .find(|&k| overlaps(&shared_access(&p.insts[k]).writes, &fp))
            else {
                return false;
            };
            let wi = &p.insts[w];
            if wi.exec_size != shape.exec_size
                || wi.group != shape.group
                || wi.we_all != shape.we_all
                || wi.msg.is_some()
                || !matches!(wi.dst.kind, DstKind::Grf { .. })
                || (wi.pred.is_some() && !is_pred_sel(wi))
            {
                return false;
            }
            let exact = offsets_equal(wi, s, shape.exec_size) && wi.dst.ty.size() == s.ty.size();
            let rec = |x: &Src, logic: bool| is_boolean(p, start, w, wi, x, logic, depth - 1);
            match wi.op {
                Opcode::Cmp | Opcode::Cmpn => within_cmp_result(wi, s, shape.exec_size),
                Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not => {
                    exact
                        && wi.dst.ty.is_int()
                        && wi
                            .srcs
                            .iter()
                            .all(|x| x.ty.size() == wi.dst.ty.size() && rec(x, true))
                }
                Opcode::Mov => {
                    let x = &wi.srcs[0];
                    exact
                        && !wi.sat
                        && wi.dst.ty.is_int()
                        && x.ty.is_int()
                        && (x.ty.is_signed_int() || x.ty.size() >= wi.dst.ty.size())
                        && rec(x, false)
                }
                Opcode::Sel if wi.pred.is_some() => {
                    exact && !wi.sat && wi.srcs.iter().all(|x| x.ty == wi.dst.ty && rec(x, false))
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether any instruction other than `except` reads a byte of `fp`.
fn read_elsewhere(p: &VProgram, fp: &[(u32, u32)], except: usize) -> bool {
    p.insts.iter().enumerate().any(|(i, inst)| {
        i != except
            && shared_access(inst).reads.iter().any(|r| {
                fp.iter()
                    .any(|&(reg, mask)| reg == r.reg && mask & r.mask != 0)
            })
    })
}

/// `not.z/.nz null x` into the OR/AND (or CMP) that produced x.
fn not_path(p: &mut VProgram, start: usize, j: usize, ctx: &PassCtx, m: &MachineConfig) -> bool {
    let c = p.insts[j];
    let x = c.srcs[0];
    let Some(cmod) = c.cmod else { return false };
    if !is_zero_test(cmod) || x.neg || x.abs || !x.ty.is_int() {
        return false;
    }
    let Some(cond) = negate_cmod(cmod) else {
        return false;
    };
    let cflags = shared_access(&c).flag_writes;
    let Some((k, read_flag)) = find_producer(p, start, j, &src_footprint(&x, c.exec_size), cflags)
    else {
        hit(cov::REFUSE_NO_PRODUCER);
        return false;
    };
    let pi = p.insts[k];
    if !producer_fits(&pi, &c) {
        return false;
    }
    match pi.op {
        Opcode::Or | Opcode::And => {
            // ~x != 0 <=> x == 0 only for booleans.
            let ok = offsets_equal(&pi, &x, c.exec_size)
                && pi.dst.ty.is_int()
                && pi.dst.ty.size() == x.ty.size()
                && pi.srcs.iter().all(|s| {
                    s.ty.size() == x.ty.size() && is_boolean(p, start, k, &pi, s, true, BOOL_DEPTH)
                })
                && can_take_cmod(&pi)
                && ((!read_flag && pi.cmod.is_none())
                    || (pi.writes_flag() && pi.cmod == Some(cond)));
            if !ok {
                hit(cov::NOT_REFUSE_LOGIC);
                return false;
            }
            let folded = fold_cmod(p, k, j, &pi, &c, cond, ctx, m);
            if folded {
                hit(cov::NOT_INTO_LOGIC);
            }
            folded
        }
        Opcode::Cmp => {
            let Some(rel) = pi.cmod else { return false };
            if !within_cmp_result(&pi, &x, c.exec_size) {
                return false;
            }
            if cmod == CondMod::Z {
                // ~x == 0 <=> x == ~0 <=> the relation: already in the flag.
                hit(cov::NOT_CMP_DELETE);
                kill(&mut p.insts[j]);
                return true;
            }
            let Some(inv) = negate_cmod(rel) else {
                return false;
            };
            if read_flag {
                hit(cov::REFUSE_FLAG_READ);
                return false;
            }
            if read_elsewhere(p, &dst_footprint(&pi.dst, pi.exec_size), j) {
                hit(cov::NOT_REFUSE_READ);
                return false;
            }
            if pi.srcs[0].ty.is_float() && !is_zero_test(rel) {
                // Injected bug (BUGS.md: cmod-prop-invert-nan): `.l` is
                // inverted to `.ge` on a float compare, but with a NaN
                // operand both are false (57344052b6a, c88b52745c7).
                if !ctx.bugs.has(Bug::CmodPropInvertNan) {
                    hit(cov::NOT_REFUSE_FLOAT);
                    return false;
                }
            }
            let mut np = pi;
            np.cmod = Some(inv);
            np.dst.kind = DstKind::Null;
            if !inst_valid(&np, m) {
                hit(cov::REFUSE_INVALID);
                return false;
            }
            hit(cov::NOT_CMP_INVERT);
            p.insts[k] = np;
            kill(&mut p.insts[j]);
            true
        }
        _ => false,
    }
}

/// Tries to fold consumer `j`; returns whether the program changed.
fn fold(p: &mut VProgram, start: usize, j: usize, ctx: &PassCtx, m: &MachineConfig) -> bool {
    let c = &p.insts[j];
    let Some(cmod) = c.cmod else { return false };
    if c.pred.is_some() || !c.dst.is_null() || !c.writes_flag() || !is_relation(cmod) {
        return false;
    }
    let Some(&x) = c.srcs.first() else {
        return false;
    };
    if !matches!(x.kind, SrcKind::Grf { .. }) {
        return false;
    }
    match c.op {
        Opcode::Cmp if !is_zero_imm(&c.srcs[1]) => {
            x.ty.is_float() && {
                hit(cov::CONSUMER_CMP_FLOAT);
                cmp_to_add(p, start, j, ctx, m)
            }
        }
        Opcode::Cmp if !x.abs => {
            hit(cov::CONSUMER_CMP_ZERO);
            general(p, start, j, ctx, m)
        }
        Opcode::Mov if !c.sat && !x.abs => {
            hit(cov::CONSUMER_MOV);
            general(p, start, j, ctx, m)
        }
        Opcode::And if cmod == CondMod::Nz && !x.neg && !x.abs && is_one_imm(&c.srcs[1]) => {
            hit(cov::CONSUMER_AND_ONE);
            general(p, start, j, ctx, m)
        }
        Opcode::Not => {
            hit(cov::CONSUMER_NOT);
            not_path(p, start, j, ctx, m)
        }
        _ => false,
    }
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    let Ok(cfg) = Cfg::of(&p.insts) else {
        return false;
    };
    let machine = p.machine();
    let mut changed = false;
    for blk in cfg.blocks.iter().rev() {
        for j in (blk.start..blk.end).rev() {
            if p.insts[j].op != Opcode::Nop {
                changed |= fold(p, blk.start, j, ctx, &machine);
            }
        }
    }
    changed
}

#[cfg(test)]
#[path = "cmod_prop_tests.rs"]
mod tests;
