//! Saturate propagation (brw `opt_saturate_propagation`, EU-MODEL §5.5):
//! `op tmp; mov.sat dst, tmp` becomes `op.sat tmp; mov dst, tmp`, which
//! register coalescing can then remove.
//!
//! **Candidates:** `mov.sat dst, tmp` with the same source and destination
//! type, a float type (an integer `.sat` would turn the producer's wrapping
//! into clamping), GRF operands inside vgrfs, and no `abs` on the source.
//!
//! **The producer** P is found by scanning back in the MOV's block to the
//! first instruction writing a byte of `tmp` (or, when the block has none,
//! it is the only writer of those bytes in the program, in another block).
//! P must:
//!
//! * write exactly the elements the MOV reads (same exec size — 0778748ebad —
//!   group and NoMask, channel c's element at the offset channel c reads,
//!   same element size) and be unpredicated (a predicated SEL writes every
//!   enabled channel and counts as a full write);
//! * have the MOV's destination type, or be able to change to it (a raw
//!   same-type MOV or predicated SEL without modifiers or `.sat`, whose
//!   bits are just copied; 35a2d259f27): it is then retyped;
//! * write no flags: its flags would be computed from the saturated value
//!   (3d8fea0e092);
//! * accept `.sat` on a float result (MOV SEL ADD MUL MAD FRC RND* CSEL) and
//!   still validate afterwards.
//!
//! `tmp` changes value, so nobody else may see it: in the local case the MOV
//! is the last use of the bytes it reads (per-byte liveness) or writes them
//! in place, and every reader between P and the MOV is another `mov.sat` of
//! the same type from the same unmodified source (sat(sat(v)) = sat(v);
//! 7f8dd91d166); in the cross-block case the MOV is the only reader of P's
//! result anywhere. A P that already saturates in the MOV's type makes the
//! MOV's `.sat` redundant instead.
//!
//! **Negated MOV sources** are pushed into the producer: MUL negates src0,
//! MAD its addend and first multiplicand, ADD both sources (immediates get
//! their sign bit flipped). −(a + b) and (−a) + (−b) differ only in the sign
//! of a zero sum, which the saturate turns into +0 anyway.

/// The pass's decision points (`crate::coverage`).
#[path = "sat_prop_cov.rs"]
pub mod cov;

use super::liveness::Liveness;
use super::ops::{
    dst_offsets, inst_valid, is_pred_sel, overlaps, shared_access, src_footprint, src_offsets,
};
use crate::bugs::Bug;
use crate::coverage::{hit, Point};
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{DstKind, Instruction, MachineConfig, Opcode, Src, SrcKind};

fn in_vgrf(p: &VProgram, nr: u32) -> bool {
    p.vgrf_of(nr).is_some()
}

/// A `mov.sat dst, tmp` this pass can work on.
fn is_candidate(p: &VProgram, m: &Instruction) -> bool {
    let Some(x) = m.srcs.first() else {
        return false;
    };
    if m.op != Opcode::Mov || !m.sat || m.msg.is_some() {
        return false;
    }
    let refusal = if m.dst.ty != x.ty {
        Some(cov::REFUSE_CONVERTING)
    } else if !m.dst.ty.is_float() {
        Some(cov::REFUSE_INT_TYPE)
    } else if x.abs {
        Some(cov::REFUSE_ABS)
    } else if !(matches!(m.dst.kind, DstKind::Grf { nr, .. } if in_vgrf(p, nr))
        && matches!(x.kind, SrcKind::Grf { nr, .. } if in_vgrf(p, nr)))
    {
        Some(cov::REFUSE_NOT_VGRF)
    } else {
        None
    };
    hit(refusal.unwrap_or(cov::CANDIDATE));
    refusal.is_none()
}

/// Mesa's `can_change_types`: a raw copy whose type can be swapped for
/// another of the same size.
fn can_change_types(s: &Instruction) -> bool {
    let raw = |x: &Src| x.ty == s.dst.ty && !x.abs && !x.neg;
    !s.sat
        && s.cmod.is_none()
        && match s.op {
            Opcode::Mov => raw(&s.srcs[0]),
            Opcode::Sel => s.pred.is_some() && raw(&s.srcs[0]) && raw(&s.srcs[1]),
            _ => false,
        }
}

/// Whether `s` can take the saturate: the hardware allows `.sat` on it
/// (the opcode table), and, the pass's policy, it computes floats (a
/// float clamp means nothing to an integer-only opcode).
fn can_do_saturate(s: &Instruction) -> bool {
    s.op.can_saturate() && !s.op.has(eu::opcode::facts::INT_ONLY)
}

/// Negates a source: the modifier for a register, the sign bit for a float
/// immediate.
fn negate(s: &mut Src) -> bool {
    match s.kind {
        SrcKind::Imm(bits) if s.ty.is_float() => {
            s.kind = SrcKind::Imm((bits ^ (1u64 << (8 * s.ty.size() - 1))) & s.ty.mask());
            true
        }
        SrcKind::Grf { .. } => {
            s.neg = !s.neg;
            true
        }
        _ => false,
    }
}

/// Pushes the MOV's source negation into producer `s`.
fn push_negation(s: &mut Instruction) -> bool {
    match s.op {
        Opcode::Mul => negate(&mut s.srcs[0]),
        Opcode::Mad => {
            let (a, b) = s.srcs.split_at_mut(1);
            negate(&mut a[0]) && negate(&mut b[0])
        }
        Opcode::Add => {
            let (a, b) = s.srcs.split_at_mut(1);
            negate(&mut a[0]) && negate(&mut b[0])
        }
        _ => false,
    }
}

/// Why producer `s` cannot take MOV `m`'s saturate whatever the types, if
/// it cannot (`same_elements`: it writes exactly the elements `m` reads).
fn producer_refusal(s: &Instruction, m: &Instruction, same_elements: bool) -> Option<Point> {
    Some(if s.pred.is_some() && !is_pred_sel(s) {
        cov::REFUSE_PREDICATED
    } else if s.exec_size != m.exec_size {
        cov::REFUSE_EXEC_SIZE
    } else if s.group != m.group || s.we_all != m.we_all {
        cov::REFUSE_GROUP_NOMASK
    } else if s.msg.is_some() || !s.op.has_dst() {
        cov::REFUSE_SEND
    } else if !same_elements {
        cov::REFUSE_ELEMENTS
    } else if s.dst.ty.size() != m.srcs[0].ty.size() {
        cov::REFUSE_TYPE_SIZE
    } else if s.writes_flag() {
        cov::REFUSE_WRITES_FLAG
    } else if !can_do_saturate(s) {
        cov::REFUSE_NO_SAT
    } else {
        return None;
    })
}

/// Moves the MOV `i`'s saturate into producer `k`; `tmp_private`: nothing
/// but the MOV (and identical `mov.sat`s) sees the producer's result.
fn fold(
    p: &mut VProgram,
    k: usize,
    i: usize,
    tmp_private: bool,
    ctx: &PassCtx,
    machine: &MachineConfig,
) -> bool {
    let s = p.insts[k];
    let m = p.insts[i];
    let x = m.srcs[0];
    let exec = m.exec_size;
    let same_elements = matches!(
        (dst_offsets(&s.dst, exec), src_offsets(&x, exec)),
        (Some(d), Some(o)) if d == o
    );
    if let Some(point) = producer_refusal(&s, &m, same_elements) {
        hit(point);
        return false;
    }
    let mut retype = false;
    if s.dst.ty != m.dst.ty {
        // Injected bug (BUGS.md: sat-prop-type-change): the producer keeps its
        // own type, so `.sat` clamps to that type's range (a UD SEL: no clamp
        // at all) instead of [0, 1] (35a2d259f27).
        if ctx.bugs.has(Bug::SatPropTypeChange) {
            retype = false;
        } else if can_change_types(&s) {
            retype = true;
        } else {
            hit(cov::REFUSE_PRODUCER_TYPE);
            return false;
        }
    }
    if s.sat {
        // Already saturated in the MOV's type: the MOV's .sat is redundant.
        if s.dst.ty != m.dst.ty || x.neg {
            hit(cov::REFUSE_SATURATED_DIFFERENTLY);
            return false;
        }
        hit(cov::DROP_REDUNDANT);
        p.insts[i].sat = false;
        return true;
    }
    if !tmp_private {
        hit(cov::REFUSE_READ_AFTER);
        return false;
    }
    let mut ns = s;
    let mut nm = m;
    if retype {
        ns.dst.ty = m.dst.ty;
        for src in &mut ns.srcs {
            src.ty = m.dst.ty;
        }
    }
    if x.neg {
        if !ns.dst.ty.is_float() || !push_negation(&mut ns) {
            hit(cov::REFUSE_NEGATION);
            return false;
        }
        nm.srcs[0].neg = false;
    }
    ns.sat = true;
    nm.sat = false;
    if !inst_valid(&ns, machine) || !inst_valid(&nm, machine) {
        hit(cov::REFUSE_INVALID);
        return false;
    }
    hit(cov::FOLD);
    if retype {
        hit(cov::FOLD_RETYPED);
    }
    if x.neg {
        hit(cov::FOLD_NEGATED);
    }
    p.insts[k] = ns;
    p.insts[i] = nm;
    true
}

/// The only writer of `fp` in the program, when the MOV `i` is also the
/// only reader of what it writes.
fn single_def_single_use(p: &VProgram, i: usize, fp: &[(u32, u32)]) -> Option<usize> {
    let mut writers = p
        .insts
        .iter()
        .enumerate()
        .filter(|(_, inst)| overlaps(&shared_access(inst).writes, fp));
    let (k, w) = writers.next()?;
    if writers.next().is_some() {
        return None;
    }
    let written = shared_access(w);
    let readers = p.insts.iter().enumerate().filter(|(_, inst)| {
        shared_access(inst).reads.iter().any(|r| {
            written
                .writes
                .iter()
                .any(|&(reg, m)| reg == r.reg && m & r.mask != 0)
        })
    });
    let mut readers = readers.map(|(j, _)| j);
    (readers.next() == Some(i) && readers.next().is_none()).then_some(k)
}

/// Tries candidate MOV `i` (in a block starting at `start`).
fn propagate(
    p: &mut VProgram,
    start: usize,
    i: usize,
    live_after: bool,
    ctx: &PassCtx,
    machine: &MachineConfig,
) -> bool {
    let m = p.insts[i];
    let x = m.srcs[0];
    let exec = m.exec_size;
    let xfp = src_footprint(&x, exec);
    let in_place = dst_offsets(&m.dst, exec) == src_offsets(&x, exec);
    for k in (start..i).rev() {
        let s = &p.insts[k];
        let a = shared_access(s);
        if overlaps(&a.writes, &xfp) {
            hit(cov::PRODUCER_LOCAL);
            return fold(p, k, i, !live_after || in_place, ctx, machine);
        }
        let reads_tmp = a.reads.iter().any(|r| {
            xfp.iter()
                .any(|&(reg, mask)| reg == r.reg && mask & r.mask != 0)
        });
        if reads_tmp {
            let same_sat = s.op == Opcode::Mov
                && s.sat
                && s.dst.ty == x.ty
                && s.srcs[0].ty == x.ty
                && !s.srcs[0].neg
                && !s.srcs[0].abs
                && !x.neg;
            if !same_sat {
                hit(cov::REFUSE_READ_BETWEEN);
                return false;
            }
        }
    }
    match single_def_single_use(p, i, &xfp) {
        Some(k) if k < start || k >= i => {
            hit(cov::PRODUCER_SINGLE_DEF);
            fold(p, k, i, true, ctx, machine)
        }
        _ => {
            hit(cov::REFUSE_NO_SINGLE_PRODUCER);
            false
        }
    }
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    // Only a `mov.sat` can be a candidate (and only one counts a decision
    // point): without one, nothing changes and no live sets are needed.
    let mov_sat = |m: &Instruction| m.op == Opcode::Mov && m.sat && m.msg.is_none();
    if !p.insts.iter().any(mov_sat) {
        return false;
    }
    let Some(live) = Liveness::compute(p) else {
        return false;
    };
    let machine = p.machine();
    let mut live_after = vec![false; p.insts.len()];
    for b in 0..live.cfg.blocks.len() {
        live.walk_back(b, |i, after| {
            // Every MOV, not only today's candidates: folding a later
            // `mov.sat` into a MOV makes that MOV a candidate further up
            // the same walk, and its source's liveness is unchanged.
            let m = &p.insts[i];
            if m.op == Opcode::Mov && m.msg.is_none() && !m.srcs.is_empty() {
                live_after[i] = after.any_live(&src_footprint(&m.srcs[0], m.exec_size));
            }
            std::borrow::Cow::Borrowed(&*live.access[i])
        });
    }
    let mut changed = false;
    // Backwards, as brw does: a later mov.sat that saturates the producer
    // makes an earlier identical one redundant.
    for blk in &live.cfg.blocks {
        for i in (blk.start..blk.end).rev() {
            if is_candidate(p, &p.insts[i]) {
                changed |= propagate(p, blk.start, i, live_after[i], ctx, &machine);
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    //! Golden before/after tests named after Mesa's
    //! `test_fs_saturate_propagation.cpp` (SIMD8 here, RNDD for RNDU), plus
    //! the type-change, flag, integer and cross-block rules. Every case also
    //! runs before and after on inputs around 0, 1, ±∞ and NaN.
    use super::*;
    use crate::brw::testutil::{canon, check_preserves, ctx, vprog};

    const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmul(8) g5<1>F g3<8,8,1>F -0.75F\n";
    const TAIL: &str = "send(8) null g2 g6 st.b32 { align1 1Q EOT };";
    const VALS: [u64; 12] = [
        0,
        0x3f80_0000,
        0xbf80_0000,
        0x3f00_0000,
        0xbf00_0000,
        0x4000_0000,
        0x7fc0_0000,
        0x7f80_0000,
        0xff80_0000,
        0x8000_0000,
        0x3e80_0000,
        1,
    ];

    fn vg() -> Vec<(u32, u32)> {
        (2..16).map(|r| (r, 1)).collect()
    }

    /// `body` becomes `want`; the stored g6 stays the same.
    fn golden(body: &str, want: &str) {
        let p = vprog(8, &format!("{HEAD}{body}{TAIL}"), &vg());
        let q = check_preserves(&p, run, 12, &|k| VALS[k as usize % VALS.len()]);
        assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}{TAIL}")));
    }

    fn unchanged(body: &str) {
        golden(body, body);
    }

    #[test]
    fn basic() {
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\n",
            "add.sat(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
    }

    /// Found by the generator (`fsat(fneg(a + a))` with `a + a` stored):
    /// folding the `mov.sat` into the negating MOV makes that MOV a new
    /// candidate, whose source g6 is still read by the store, so the ADD
    /// must not take its negation and clamp.
    #[test]
    fn chained_candidate_whose_source_is_live() {
        golden(
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g4<1>F -g6<8,8,1>F\nmov.sat(8) g7<1>F g4<8,8,1>F\n",
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g4<1>F -g6<8,8,1>F\nmov(8) g7<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn other_non_saturated_use() {
        unchanged("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\nadd(8) g7<1>F g4<8,8,1>F g3<8,8,1>F\n");
    }

    #[test]
    fn predicated_instruction() {
        unchanged("cmp.l.f0.0(8) null<1>F g3<8,8,1>F 0.0F\n(+f0.0) add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\n");
    }

    #[test]
    fn neg_mov_sat() {
        unchanged("rndd(8) g4<1>F g3<8,8,1>F\nmov.sat(8) g6<1>F -g4<8,8,1>F\n");
    }

    #[test]
    fn add_neg_mov_sat() {
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F -g4<8,8,1>F\n",
            "add.sat(8) g4<1>F -g3<8,8,1>F -g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn add_imm_float_neg_mov_sat() {
        golden(
            "add(8) g4<1>F g3<8,8,1>F 1.0F\nmov.sat(8) g6<1>F -g4<8,8,1>F\n",
            "add.sat(8) g4<1>F -g3<8,8,1>F -1.0F\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn mul_neg_mov_sat() {
        golden(
            "mul(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F -g4<8,8,1>F\n",
            "mul.sat(8) g4<1>F -g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn mad_neg_mov_sat() {
        golden(
            "mad(8) g4<1>F g3<8,8,1>F g5<8,8,1>F g3<8,8,1>F\nmov.sat(8) g6<1>F -g4<8,8,1>F\n",
            "mad.sat(8) g4<1>F -g3<8,8,1>F -g5<8,8,1>F g3<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn mad_imm_float_neg_mov_sat() {
        // 3-source immediates are 16-bit: an HF MAD on word-strided data.
        golden(
            "mov(8) g7<2>HF g3<8,8,1>F\nmad(8) g4<2>HF 0x3c00HF g7<16,8,2>HF g7<16,8,2>HF\nmov.sat(8) g8<2>HF -g4<16,8,2>HF\nmov(8) g6<1>F g8<16,8,2>HF\n",
            "mov(8) g7<2>HF g3<8,8,1>F\nmad.sat(8) g4<2>HF 0xbc00HF -g7<16,8,2>HF g7<16,8,2>HF\nmov(8) g8<2>HF g4<16,8,2>HF\nmov(8) g6<1>F g8<16,8,2>HF\n",
        );
    }

    #[test]
    fn mul_mov_sat_neg_mov_sat() {
        unchanged("mul(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\nmov.sat(8) g7<1>F -g4<8,8,1>F\n");
    }

    #[test]
    fn mul_neg_mov_sat_neg_mov_sat() {
        unchanged("mul(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F -g4<8,8,1>F\nmov.sat(8) g7<1>F -g4<8,8,1>F\n");
    }

    #[test]
    fn mul_neg_mov_sat_mov_sat() {
        unchanged("mul(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F -g4<8,8,1>F\nmov.sat(8) g7<1>F g4<8,8,1>F\n");
    }

    #[test]
    fn abs_mov_sat() {
        unchanged("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F (abs)g4<8,8,1>F\n");
    }

    #[test]
    fn producer_saturates() {
        golden(
            "add.sat(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\nmov(8) g7<1>F g4<8,8,1>F\n",
            "add.sat(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\nmov(8) g7<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn intervening_saturating_copy() {
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g7<1>F g4<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\n",
            "add.sat(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g7<1>F g4<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn intervening_dest_write() {
        unchanged("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nsend(8) g4 g2 ld.b32\nmov.sat(8) g6<1>F g4<8,8,1>F\n");
    }

    #[test]
    fn smaller_exec_size_consumer() {
        unchanged("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(4) g6<1>F g4<4,4,1>F\n");
    }

    #[test]
    fn larger_exec_size_consumer() {
        unchanged("add(4) g4<1>F g3<4,4,1>F g5<4,4,1>F\nadd(4) g4.4<1>F g3.4<4,4,1>F g5.4<4,4,1>F { align1 2N };\nmov.sat(8) g6<1>F g4<8,8,1>F\n");
    }

    #[test]
    fn offset_source_barrier() {
        unchanged("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nadd(1) g7<1>F g4.4<0,1,0>F 1.0F\nmov.sat(8) g6<1>F g4<8,8,1>F\n");
    }

    const COND: &str = "cmp.l.f0.0(8) null<1>F g3<8,8,1>F 0.5F\n";

    #[test]
    fn type_change() {
        // A UD SEL is a raw copy: it is retyped to F (35a2d259f27).
        golden(
            &format!("{COND}(+f0.0) sel(8) g4<1>UD g3<8,8,1>UD g5<8,8,1>UD\nmov.sat(8) g6<1>F g4<8,8,1>F\n"),
            &format!("{COND}(+f0.0) sel.sat(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n"),
        );
        golden(
            "mov(8) g4<1>UD g3<8,8,1>UD\nmov.sat(8) g6<1>F g4<8,8,1>F\n",
            "mov.sat(8) g4<1>F g3<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
        // An integer ADD's bits are not a float value; a converting MOV
        // keeps its source type.
        unchanged("add(8) g4<1>D g3<8,8,1>D 5D\nmov.sat(8) g6<1>F g4<8,8,1>F\n");
        golden(
            "mov(8) g4<1>F g3<8,8,1>D\nmov.sat(8) g6<1>F g4<8,8,1>F\n",
            "mov.sat(8) g4<1>F g3<8,8,1>D\nmov(8) g6<1>F g4<8,8,1>F\n",
        );
    }

    #[test]
    fn producer_writing_flags() {
        // The flag would be computed from the saturated value (3d8fea0e092).
        unchanged("add.l.f0.0(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\n(+f0.0) sel(8) g6<1>F g6<8,8,1>F 2.0F\n");
    }

    #[test]
    fn integer_saturate() {
        // add wraps, add.sat clamps: never for integer types.
        unchanged("add(8) g4<1>D g3<8,8,1>D 2147483647D\nmov.sat(8) g6<1>D g4<8,8,1>D\n");
    }

    #[test]
    fn in_place() {
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g4<1>F g4<8,8,1>F\nadd(8) g6<1>F g4<8,8,1>F g3<8,8,1>F\n",
            "add.sat(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g4<1>F g4<8,8,1>F\nadd(8) g6<1>F g4<8,8,1>F g3<8,8,1>F\n",
        );
    }

    const IF: &str = "mov.nz.f0.0(8) null<1>D g1<8,8,1>D\n(+f0.0) if(8) JIP: L1 UIP: L1\n";
    const ENDIF: &str = "L1:\nendif(8) JIP: L2\nL2:\n";

    #[test]
    fn across_blocks_single_use() {
        golden(
            &format!("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g3<8,8,1>F\n{IF}mov.sat(8) g6<1>F g4<8,8,1>F\n{ENDIF}"),
            &format!("add.sat(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g3<8,8,1>F\n{IF}mov(8) g6<1>F g4<8,8,1>F\n{ENDIF}"),
        );
        // A second use (after the ENDIF) keeps it.
        unchanged(&format!("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g3<8,8,1>F\n{IF}mov.sat(8) g6<1>F g4<8,8,1>F\n{ENDIF}add(8) g6<1>F g6<8,8,1>F g4<8,8,1>F\n"));
    }

    #[test]
    fn coverage_records_the_fold_and_the_refusal() {
        // Backwards: the MUL takes the later mov.sat; the ADD's result is
        // read again after its mov.sat, so that one stays.
        let rec = crate::coverage::Recording::start();
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g7<1>F g4<8,8,1>F\nadd(8) g8<1>F g4<8,8,1>F g3<8,8,1>F\nmul(8) g9<1>F g7<8,8,1>F g8<8,8,1>F\nmov.sat(8) g6<1>F g9<8,8,1>F\n",
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g7<1>F g4<8,8,1>F\nadd(8) g8<1>F g4<8,8,1>F g3<8,8,1>F\nmul.sat(8) g9<1>F g7<8,8,1>F g8<8,8,1>F\nmov(8) g6<1>F g9<8,8,1>F\n",
        );
        let hits = rec.finish();
        assert_eq!(
            hits,
            crate::coverage::Hits::from([
                (cov::CANDIDATE.name(), 2),
                (cov::PRODUCER_LOCAL.name(), 2),
                (cov::FOLD.name(), 1),
                (cov::REFUSE_READ_AFTER.name(), 1),
            ])
        );
    }

    #[test]
    fn injected_bug_keeps_the_producer_type() {
        let body = format!(
            "{COND}(+f0.0) sel(8) g4<1>UD g3<8,8,1>UD g5<8,8,1>UD\nmov.sat(8) g6<1>F g4<8,8,1>F\n"
        );
        let mut p = vprog(8, &format!("{HEAD}{body}{TAIL}"), &vg());
        let mut c = ctx(8);
        c.bugs = crate::bugs::BugSet::NONE.with(Bug::SatPropTypeChange);
        assert!(run(&mut p, &c));
        assert_eq!(
            p.text_compact(),
            canon(&format!("{HEAD}{COND}(+f0.0) sel.sat(8) g4<1>UD g3<8,8,1>UD g5<8,8,1>UD\nmov(8) g6<1>F g4<8,8,1>F\n{TAIL}"))
        );
    }
}
