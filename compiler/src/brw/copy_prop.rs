//! Copy and constant propagation (brw `opt_copy_propagation`,
//! EU-MODEL §5.3).
//!
//! A **copy** is a `mov dst, src`: same type, no `.sat`, no cmod,
//! unpredicated, not NoMask unless the source is an immediate (a constant is
//! the same in every channel), a GRF or immediate source, no source
//! modifiers except on a float GRF source (below), a destination inside one vgrf whose bytes **no other instruction in the
//! program writes** (so the whole vgrf, or each SIMD16 half of a split SIMD32
//! value, is written exactly once), and a source that does not overlap the
//! destination. Its source is propagated
//!
//! * into every later reader in the same block until an instruction
//!   overwrites a byte the copy read (any write, NoMask or not: nothing else
//!   runs between two instructions of one block);
//! * into readers **anywhere** when the source is *pinned*: an immediate, a
//!   register nobody writes (payload), or bytes whose every writer is a
//!   masked instruction earlier in the copy's block with the copy's exec
//!   size and group writing, channel for channel, the element the copy
//!   reads or one holding it (a dword CMP result whose low words a
//!   narrowing copy reads). The source then only changes together with the
//!   copy, so every
//!   channel's copy of the value equals its source. A NoMask writer (which
//!   would update channels the copy skips, d4015bcb388) or any writer
//!   elsewhere makes the source unpinned. Readers between the source's first writer in the copy's
//!   block and the copy are left alone (they would see the new source but
//!   the previous copy).
//!
//! A reader's source is rewritten when it reads only elements the copy
//! wrote, with a type of the copy's size (the copy is raw, so the bits are
//! the same). The new region is composed element by element: reader channel
//! c reads copy element i(c), which came from source element i(c); a region
//! producing exactly those byte offsets is searched for, and the rewritten
//! instruction must pass the validator (regions, operand span, MUL DWord
//! rules, ...) or the next candidate region is tried, else nothing changes.
//! Channels the copy did not write hold undefined data (the bytes are
//! written only once), so reading the source there instead is a refinement.
//!
//! **Float modifiers.** A same-type float MOV with `-`/`(abs)` only flips or
//! clears the sign bit (ISA.md §4, NaN payload kept). Its source, with the
//! composed modifiers (reader `(abs)` wins; otherwise the negations cancel
//! or add), goes only into readers of the same type that apply modifiers
//! to the value in the same way or produce a canonical NaN whatever the
//! input's sign: MOV, SEL, CSEL, CMP, CMPN, ADD, MUL, MAD, FRC, RND*. So
//! `mov n -a; mul t n b` becomes `mul t -a b`, as in brw (which CSE can then
//! match up to negation).
//!
//! **Immediates** go only where legal: not into a source with modifiers, not
//! into MATH or SEND; 64-bit immediates only into MOV; src0 of a 2-source
//! instruction only by commuting a commutative operation (ADD, MUL, AND,
//! OR, XOR, AVG, min/max SEL) or inverting a predicated SEL's normal
//! predicate, so the immediate lands in src1; the validator
//! enforces the rest (no B/UB immediates, no 3-source src1, 3-source
//! immediates 16-bit only, DWord MUL operands in src0). 16-bit immediates
//! keep their 16-bit value (the encoding replicates it).

/// The pass's decision points (`crate::coverage`).
#[path = "copy_prop_cov.rs"]
pub mod cov;

use super::cfg::Cfg;
use super::ops::{
    dst_footprint, dst_offsets, footprints, inst_valid, is_commutative, overlaps, regions_for,
    shared_access, src_footprint, src_offsets, Access, Offsets,
};
use crate::bugs::{Bug, BugSet};
use crate::coverage::{hit, Point};
use crate::passes::PassCtx;
use crate::vir::{VProgram, GRF_BYTES};
use eu::{DstKind, Instruction, MachineConfig, Opcode, Src, SrcKind};
use smallvec::SmallVec;
use std::rc::Rc;

/// Whether `m` is a propagatable copy (given the bytes written more than
/// once), counting the MOV's kind or why it is not one.
fn is_copy(m: &Instruction, p: &VProgram, multi: &[u32]) -> bool {
    if m.op != Opcode::Mov {
        return false;
    }
    let refusal = copy_refusal(m, p, multi);
    let s = &m.srcs[0];
    hit(refusal.unwrap_or(if s.is_imm() {
        cov::COPY_IMM
    } else if s.neg || s.abs {
        cov::COPY_GRF_MODS
    } else {
        cov::COPY_GRF
    }));
    refusal.is_none()
}

/// Why MOV `m` is not a propagatable copy, if it is not.
fn copy_refusal(m: &Instruction, p: &VProgram, multi: &[u32]) -> Option<Point> {
    if m.pred.is_some() {
        return Some(cov::REFUSE_COPY_PREDICATED);
    }
    if m.sat {
        return Some(cov::REFUSE_COPY_SAT);
    }
    if m.cmod.is_some() {
        return Some(cov::REFUSE_COPY_CMOD);
    }
    let s = &m.srcs[0];
    if !matches!(s.kind, SrcKind::Grf { .. } | SrcKind::Imm(_)) {
        return Some(cov::REFUSE_COPY_FLAG_SRC);
    }
    // A NoMask copy is only taken for an immediate (the typical scalar
    // constant `mov(1) gN 5W { WE_all }`): its value does not depend on
    // channels at all.
    if m.we_all && !s.is_imm() {
        return Some(cov::REFUSE_COPY_NOMASK);
    }
    // Source modifiers only on a float GRF copy (see `takes_float_mods`).
    if (s.neg || s.abs) && !(s.ty.is_float() && matches!(s.kind, SrcKind::Grf { .. })) {
        return Some(cov::REFUSE_COPY_MODS);
    }
    if s.ty != m.dst.ty {
        return Some(cov::REFUSE_COPY_CONVERTS);
    }
    let DstKind::Grf { nr, .. } = m.dst.kind else {
        return Some(cov::REFUSE_COPY_DST);
    };
    let Some(v) = p.vgrf_of(nr) else {
        return Some(cov::REFUSE_COPY_DST);
    };
    let fp = dst_footprint(&m.dst, m.exec_size);
    if fp.iter().any(|&(r, _)| p.vgrf_of(r) != Some(v)) {
        return Some(cov::REFUSE_COPY_DST);
    }
    if fp.iter().any(|&(r, mask)| multi[r as usize] & mask != 0) {
        return Some(cov::REFUSE_COPY_REWRITTEN);
    }
    if overlaps(&fp, &src_footprint(s, m.exec_size)) {
        return Some(cov::REFUSE_COPY_OVERLAP);
    }
    None
}

/// Whether `reader` applies float source modifiers to the value of a
/// source of type `ty` exactly as a same-type MOV applies them to the bits
/// (sign flip / sign clear, NaN payload kept, or the operation's NaN result
/// canonical whatever the input's sign), so that a modifier may move from a
/// float copy into it.
fn takes_float_mods(reader: &Instruction, ty: eu::RegType) -> bool {
    ty.is_float()
        && reader.math.is_none()
        && matches!(
            reader.op,
            Opcode::Mov
                | Opcode::Sel
                | Opcode::Csel
                | Opcode::Cmp
                | Opcode::Cmpn
                | Opcode::Add
                | Opcode::Mul
                | Opcode::Mad
                | Opcode::Frc
                | Opcode::Rndd
                | Opcode::Rnde
                | Opcode::Rndz
        )
}

/// Tries to replace `reader.srcs[k]` by the copy's source.
fn propagate(
    reader: &mut Instruction,
    k: usize,
    m: &Instruction,
    machine: &MachineConfig,
    bugs: BugSet,
) -> bool {
    let s = reader.srcs[k];
    let size = m.dst.ty.size();
    if !matches!(s.kind, SrcKind::Grf { .. }) {
        return false;
    }
    if s.ty.size() != size {
        hit(cov::REFUSE_TYPE_SIZE);
        return false;
    }
    let ms = m.srcs[0];
    // A copy with modifiers (float only) goes only into a reader of the same
    // type that applies modifiers to values: reader mods R over copy mods C
    // give abs = R.abs | C.abs, neg = R.neg if R.abs else R.neg ^ C.neg.
    let (neg, abs) = if ms.neg || ms.abs {
        if s.ty != ms.ty {
            // Injected bug (BUGS.md: copy-prop-mods-type-change): the
            // modifier moves into a reader of another type, which applies
            // it to that type's value (an integer negate of float bits).
            if !bugs.has(Bug::CopyPropModsTypeChange) {
                hit(cov::REFUSE_MODS_TYPE);
                return false;
            }
        } else if !takes_float_mods(reader, s.ty) {
            hit(cov::REFUSE_MODS_READER);
            return false;
        }
        if s.abs {
            (s.neg, true)
        } else {
            (s.neg ^ ms.neg, ms.abs)
        }
    } else {
        (s.neg, s.abs)
    };
    let (Some(offs), Some(dst)) = (
        src_offsets(&s, reader.exec_size),
        dst_offsets(&m.dst, m.exec_size),
    ) else {
        hit(cov::REFUSE_ELEMENTS);
        return false;
    };
    let step = m.dst.stride as u32 * size;
    let mut elems = Vec::with_capacity(offs.len());
    for o in offs {
        let rel = o.wrapping_sub(dst[0]);
        if o < dst[0] || rel % step != 0 || rel / step >= m.exec_size as u32 {
            hit(cov::REFUSE_ELEMENTS);
            return false;
        }
        elems.push(rel / step);
    }
    let saved = *reader;
    match ms.kind {
        SrcKind::Imm(bits) => {
            let nsrc = reader.op.num_srcs();
            let refusal = if s.neg || s.abs {
                Some(cov::REFUSE_IMM_MODS)
            } else if reader.op == Opcode::Math {
                Some(cov::REFUSE_IMM_MATH)
            } else if s.ty.is_64bit() && reader.op != Opcode::Mov {
                Some(cov::REFUSE_IMM_64)
            } else {
                None
            };
            if let Some(point) = refusal {
                hit(point);
                return false;
            }
            let mut slot = k;
            let mut variant = None;
            if nsrc == 2 && k == 0 {
                let sel_swap = reader.op == Opcode::Sel
                    && matches!(
                        reader.pred,
                        Some(eu::Predicate {
                            mode: eu::PredMode::Normal,
                            ..
                        })
                    );
                if !(is_commutative(reader) || sel_swap) {
                    hit(cov::REFUSE_IMM_SRC0);
                    return false;
                }
                if reader.srcs[1].is_imm() {
                    hit(cov::REFUSE_IMM_BOTH);
                    return false;
                }
                if sel_swap {
                    // pred ? a : b == !pred ? b : a
                    if let Some(pr) = reader.pred.as_mut() {
                        pr.inverse = !pr.inverse;
                    }
                }
                variant = Some(if sel_swap {
                    cov::PROP_IMM_SEL_INVERTED
                } else {
                    cov::PROP_IMM_COMMUTED
                });
                reader.srcs.swap(0, 1);
                slot = 1;
            }
            reader.srcs[slot] = Src::imm(bits, s.ty);
            if inst_valid(reader, machine) {
                hit(cov::PROP_IMM);
                if let Some(point) = variant {
                    hit(point);
                }
                if s.ty != ms.ty {
                    hit(cov::PROP_IMM_RETYPED);
                }
                return true;
            }
            hit(cov::REFUSE_IMM_INVALID);
            *reader = saved;
            false
        }
        SrcKind::Grf { .. } => {
            let Some(src_offs) = src_offsets(&ms, m.exec_size) else {
                hit(cov::REFUSE_REGION);
                return false;
            };
            let want: Vec<u32> = elems.iter().map(|&i| src_offs[i as usize]).collect();
            for (nr, sub, region) in regions_for(&want, size) {
                reader.srcs[k] = Src {
                    kind: SrcKind::Grf { nr, sub },
                    ty: s.ty,
                    region,
                    neg,
                    abs,
                };
                if inst_valid(reader, machine) {
                    hit(cov::PROP_GRF);
                    if ms.neg || ms.abs {
                        hit(cov::PROP_GRF_MODS);
                    }
                    if s.ty != ms.ty {
                        hit(cov::PROP_GRF_RETYPED);
                    }
                    return true;
                }
            }
            hit(cov::REFUSE_REGION);
            *reader = saved;
            false
        }
        _ => false,
    }
}

/// The elements an instruction writes, one per channel: byte offsets and
/// element size (ALU destinations and SEND load payloads).
fn written_elems(i: &Instruction) -> Option<(Offsets, u32)> {
    if let Some((dst, pb)) = i.msg.and_then(|m| m.written()) {
        return Some((
            (0..i.exec_size as u32)
                .map(|c| dst * GRF_BYTES + c * pb)
                .collect(),
            pb,
        ));
    }
    i.op.has_dst()
        .then(|| dst_offsets(&i.dst, i.exec_size).map(|o| (o, i.dst.ty.size())))
        .flatten()
}

/// Whether, channel by channel, the element written (`outer`) holds the
/// element read (`inner`): the same element, or the low word of a dword a
/// CMP wrote that a narrowing copy reads (`<16,8,2>W` of `<1>D`).
fn contains_per_channel(outer: Option<(Offsets, u32)>, inner: Option<&(Offsets, u32)>) -> bool {
    let (Some((outer, osize)), Some((inner, isize))) = (outer, inner) else {
        return false;
    };
    outer.len() == inner.len()
        && outer
            .iter()
            .zip(inner)
            .all(|(&o, &i)| o <= i && i + isize <= o + osize)
}

/// Whether the copy at `m` (block `[start, ..)`) may be propagated into
/// readers anywhere in the program: every other write of its source bytes
/// is a masked (not NoMask) instruction earlier in the same block with the
/// copy's exec size and group, writing channel c's element where the copy
/// reads channel c's, or around it (or the source is an immediate or never
/// written). Then the source changes only together with the copy, channel
/// by channel, so wherever the destination holds the copy's value the
/// source still holds the same bits.
pub(super) fn source_pinned(
    p: &VProgram,
    writes: &[Rc<Access>],
    start: usize,
    m: usize,
    bugs: BugSet,
) -> bool {
    pinning(p, writes, 0..writes.len(), start, m, bugs).is_ok()
}

/// [`source_pinned`], or the decision point saying why not (the first
/// writer of the source, in program order, that breaks it), looking at
/// the instructions `candidates` (in order; every writer of the source is
/// among them).
fn pinning(
    p: &VProgram,
    writes: &[Rc<Access>],
    candidates: impl IntoIterator<Item = usize>,
    start: usize,
    m: usize,
    bugs: BugSet,
) -> Result<(), Point> {
    let mv = &p.insts[m];
    let s = &mv.srcs[0];
    let src_fp = src_footprint(s, mv.exec_size);
    let want = src_offsets(s, mv.exec_size).map(|o| (o, s.ty.size()));
    for w in candidates {
        let a = &writes[w];
        if w == m || !overlaps(&a.writes, &src_fp) {
            continue;
        }
        let wi = &p.insts[w];
        if bugs.has(Bug::CopyPropNoMask) && wi.we_all && (start..m).contains(&w) {
            // Injected bug (BUGS.md: copy-prop-nomask): a NoMask writer
            // earlier in the copy's block is taken to change the source only
            // together with the copy. It also writes the channels the copy
            // skips, e.g. those that already left a divergent loop, which
            // keep the old copy but see the new source.
            continue;
        }
        if !(start..m).contains(&w) {
            return Err(cov::SCOPE_WRITTEN_ELSEWHERE);
        }
        if wi.we_all {
            return Err(cov::SCOPE_NOMASK_WRITER);
        }
        if !(wi.exec_size == mv.exec_size
            && wi.group == mv.group
            && contains_per_channel(written_elems(wi), want.as_ref()))
        {
            return Err(cov::SCOPE_WRITER_SHAPE);
        }
    }
    Ok(())
}

/// Whether some source of ALU instruction `r` reads a byte of `dst_fp`
/// (`dst_range`: its byte range, checked first).
fn reads_copy(r: &Instruction, dst_fp: &[(u32, u32)], dst_range: Option<(u32, u32)>) -> bool {
    r.op.has_dst()
        && r.srcs.iter().any(|s| {
            crate::vir::src_bytes(s, r.exec_size)
                .zip(dst_range)
                .is_some_and(|((a0, a1), (b0, b1))| a0 < b1 && b0 < a1)
                && overlaps(&src_footprint(s, r.exec_size), dst_fp)
        })
}

/// Whether `i` (a SEND) reads a byte of `fp`.
fn overlaps_reads(i: &Instruction, fp: &[(u32, u32)]) -> bool {
    shared_access(i).reads.iter().any(|r| {
        fp.iter()
            .any(|&(reg, mask)| reg == r.reg && mask & r.mask != 0)
    })
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    let Ok(cfg) = Cfg::of(&p.insts) else {
        return false;
    };
    let machine = p.machine();
    let nregs = p.reg_end() as usize;
    let writes = footprints(&p.insts);
    let mut any = vec![0u32; nregs];
    let mut multi = vec![0u32; nregs];
    for fp in writes.iter().map(|a| &a.writes) {
        for &(r, m) in fp {
            let Some(slot) = any.get_mut(r as usize) else {
                return false;
            };
            multi[r as usize] |= *slot & m;
            *slot |= m;
        }
    }
    let n = p.insts.len();
    let mut index = RegisterIndex::readers(&p.insts, &writes, nregs);
    let writers = RegisterIndex::writers(&writes, nregs);
    let mut changed = false;
    for blk in &cfg.blocks {
        for m in blk.start..blk.end {
            // Copies are MOVs: the others are not looked at (nor copied).
            if p.insts[m].op != Opcode::Mov {
                continue;
            }
            let mv = p.insts[m];
            if !is_copy(&mv, p, &multi) {
                continue;
            }
            let src_fp = src_footprint(&mv.srcs[0], mv.exec_size);
            let dst_fp = dst_footprint(&mv.dst, mv.exec_size);
            let dst_range = crate::vir::dst_bytes(&mv.dst, mv.exec_size);
            // Every instruction that writes a register of the source, in
            // order: the others write none of its bytes.
            let src_writers = writers.writers_of(&src_fp);
            let pin = pinning(
                p,
                &writes,
                src_writers.iter().copied(),
                blk.start,
                m,
                ctx.bugs,
            );
            hit(pin.err().unwrap_or(cov::SCOPE_PINNED));
            let global = pin.is_ok();
            // Every instruction that may read the copy's destination, in
            // order: the others read none of its bytes.
            let candidates = index.readers_of(dst_range);
            // The readers in reach, and why the others are not.
            type Ranges = Vec<(std::ops::Range<usize>, Point)>;
            let (reach, out_of_reach): (std::ops::Range<usize>, Ranges) = if global {
                // Readers between the source's first writer in this block
                // and the copy would see the new source but the old copy.
                let first_w = src_writers
                    .iter()
                    .copied()
                    .find(|&w| (blk.start..m).contains(&w) && overlaps(&writes[w].writes, &src_fp))
                    .unwrap_or(m);
                (
                    first_w..m + 1,
                    vec![(first_w..m, cov::REFUSE_READ_BEFORE_COPY)],
                )
            } else {
                let stop = src_writers
                    .iter()
                    .copied()
                    .find(|&k| {
                        (m + 1..blk.end).contains(&k) && overlaps(&writes[k].writes, &src_fp)
                    })
                    .map_or(blk.end, |k| k + 1);
                (
                    m + 1..stop,
                    vec![
                        (0..blk.start, cov::REFUSE_OTHER_BLOCK),
                        (blk.end..n, cov::REFUSE_OTHER_BLOCK),
                        (blk.start..m, cov::REFUSE_READ_BEFORE_COPY),
                        (stop..blk.end, cov::REFUSE_SOURCE_OVERWRITTEN),
                    ],
                )
            };
            for (range, point) in out_of_reach {
                for &k in candidates.iter().filter(|k| range.contains(k)) {
                    if reads_copy(&p.insts[k], &dst_fp, dst_range) {
                        hit(point);
                    }
                }
            }
            // A global copy reaches every reader outside `reach`, a local
            // one exactly those inside it.
            let readers = candidates
                .iter()
                .copied()
                .filter(|k| reach.contains(k) != global);
            for k in readers {
                // A copy, written back only when propagation changes it: a
                // failed attempt restores the reader, and a program left
                // unchanged keeps its identity ([`crate::insts`]).
                let mut reader = p.insts[k];
                if !reader.op.has_dst() || reader.op == Opcode::Send {
                    if reader.op == Opcode::Send && overlaps_reads(&reader, &dst_fp) {
                        hit(cov::REFUSE_SEND);
                    }
                    continue;
                }
                for s in 0..reader.srcs.len() {
                    // Byte ranges first (no allocation): most readers are far away.
                    let near = crate::vir::src_bytes(&reader.srcs[s], reader.exec_size)
                        .zip(dst_range)
                        .is_some_and(|((a0, a1), (b0, b1))| a0 < b1 && b0 < a1);
                    if near
                        && overlaps(&src_footprint(&reader.srcs[s], reader.exec_size), &dst_fp)
                        && propagate(&mut reader, s, &mv, &machine, ctx.bugs)
                    {
                        changed = true;
                        p.insts[k] = reader;
                        index.add_reader(k, &reader);
                        if !(blk.start..blk.end).contains(&k) {
                            hit(cov::PROP_OTHER_BLOCK);
                        }
                    }
                }
            }
        }
    }
    changed
}

/// Instruction indices, in order (most registers have one or two readers
/// and writers: kept inline, in the room of an empty `Vec`).
type Instructions = SmallVec<[usize; 2]>;

/// Per register, instructions in order: the readers of copy
/// propagation's registers or their writers.
struct RegisterIndex {
    by_reg: Vec<Instructions>,
}

impl RegisterIndex {
    /// Empty lists for registers `0..nregs` (more are added as needed).
    fn new(nregs: usize) -> RegisterIndex {
        RegisterIndex {
            by_reg: std::iter::repeat_with(Instructions::new)
                .take(nregs)
                .collect(),
        }
    }

    /// Per register, the instructions that may read it: every instruction
    /// whose footprint reads it or one of whose sources spans it, kept that
    /// way as propagation rewrites sources ([`RegisterIndex::add_reader`];
    /// stale entries are harmless, the readers are checked byte by byte).
    fn readers(insts: &[Instruction], access: &[Rc<Access>], nregs: usize) -> RegisterIndex {
        let mut index = RegisterIndex::new(nregs);
        for (k, (i, a)) in insts.iter().zip(access).enumerate() {
            for r in &a.reads {
                index.push(r.reg, k);
            }
            index.add_reader(k, i);
        }
        index
    }

    /// Per register, the instructions that write it: built once per pass
    /// run, since propagation rewrites sources only.
    fn writers(writes: &[Rc<Access>], nregs: usize) -> RegisterIndex {
        let mut index = RegisterIndex::new(nregs);
        for (k, a) in writes.iter().enumerate() {
            for &(r, _) in &a.writes {
                index.push(r, k);
            }
        }
        index
    }

    /// Records that `i`, at index `k`, reads the registers its sources span.
    fn add_reader(&mut self, k: usize, i: &Instruction) {
        for s in &i.srcs {
            if let Some(bytes) = crate::vir::src_bytes(s, i.exec_size) {
                let (first, last) = crate::vir::regs_of(bytes);
                for r in first..=last {
                    self.push(r, k);
                }
            }
        }
    }

    fn push(&mut self, r: u32, k: usize) {
        let r = r as usize;
        if self.by_reg.len() <= r {
            self.by_reg.resize_with(r + 1, Instructions::new);
        }
        if self.by_reg[r].last() != Some(&k) {
            self.by_reg[r].push(k);
        }
    }

    /// The instructions listed under any of `regs`, in order, once each.
    fn of(&self, regs: impl IntoIterator<Item = u32>) -> Vec<usize> {
        let mut out: Vec<usize> = regs
            .into_iter()
            .filter_map(|r| self.by_reg.get(r as usize))
            .flatten()
            .copied()
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The instructions listed under a register that `bytes` touch.
    fn readers_of(&self, bytes: Option<(u32, u32)>) -> Vec<usize> {
        let Some(bytes) = bytes else {
            return Vec::new();
        };
        let (first, last) = crate::vir::regs_of(bytes);
        self.of(first..=last)
    }

    /// The instructions listed under a register of footprint `fp`.
    fn writers_of(&self, fp: &[(u32, u32)]) -> Vec<usize> {
        self.of(fp.iter().map(|&(r, _)| r))
    }
}

#[cfg(test)]
#[path = "copy_prop_tests.rs"]
mod tests;
