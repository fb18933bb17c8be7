//! Register coalescing (brw `register_coalesce`, EU-MODEL §5.6): removes
//! `mov dst, src` by renaming the source vgrf S to the destination vgrf D.
//!
//! **No-op MOVs** first (`is_nop_mov`): an unpredicated raw `mov x, x`
//! (same type, same bytes, no modifiers, no `.sat`) is deleted — unless it
//! writes a flag, in which case it becomes `mov.cmod null, x` (Mesa's
//! `is_nop_mov` forgets the cmod, EU-MODEL §5.6).
//!
//! **Candidates:** unpredicated, masked (not NoMask) raw MOVs: no `.sat`, no
//! source modifiers, same type, GRF operands in two different vgrfs, every
//! channel's destination element at the same whole-register distance from
//! its source element (so renaming S's registers onto D's keeps every byte's
//! position in its register; strided 8/16-bit and 64-bit containers qualify),
//! and S, moved by that distance, inside D (S no bigger than D). All
//! candidate copies from S to D (e.g. the two SIMD16 halves of a SIMD32
//! value) are coalesced together and must agree on the distance and sit in
//! one block; no operand anywhere may straddle S's boundary.
//!
//! **Interference** uses linear live ranges per register, as brw does per
//! GRF-sized variable: a register's range spans the instructions touching
//! it and every block boundary where a byte of it is live (in either
//! liveness view, so a value live across an arm or around a loop covers it
//! entirely). Each register of S is checked against the register of D it
//! becomes. Disjoint ranges never interfere. Otherwise the ranges must be
//! nested, and in their intersection
//!
//! * nothing but the copies writes the D register;
//! * the S register is written only before the first copy, in the copies'
//!   block, by masked unpredicated instructions (76b4255cd80: a NoMask write
//!   would clobber D in channels that are elsewhere) that write, channel for
//!   channel, only bytes the copies then copy in that same channel (so the
//!   renamed write touches exactly the channels and bytes the copy would);
//! * the D register is not read between the first such write and the copies.
//!
//! These rules keep a masked write in one arm of divergent control flow from
//! reaching lanes another value still needs: every write that moves into D
//! either happens where D is dead in every lane, or replaces the copy in the
//! same block, under the same mask, on the same bytes.
//!
//! A coalesced copy that carries a cmod becomes `mov.cmod null, D`
//! (e581ddeeeec) instead of being deleted; cmod propagation usually folds
//! it into D's producer later.

/// The pass's decision points (`crate::coverage`).
#[path = "register_coalesce_cov.rs"]
pub mod cov;

use super::liveness::Liveness;
use super::ops::{dst_offsets, footprints, src_offsets};
use crate::bugs::Bug;
use crate::coverage::{hit, Point};
use crate::passes::PassCtx;
use crate::vir::{VProgram, GRF_BYTES};
use eu::{DstKind, Instruction, Message, Opcode, SrcKind};
use smallvec::SmallVec;
use std::collections::BTreeMap;

/// An unpredicated raw `mov x, x`.
fn is_nop_mov(m: &Instruction) -> bool {
    let Some(x) = m.srcs.first() else {
        return false;
    };
    m.op == Opcode::Mov
        && m.pred.is_none()
        && !m.sat
        && m.msg.is_none()
        && !x.neg
        && !x.abs
        && x.ty == m.dst.ty
        && matches!(x.kind, SrcKind::Grf { .. })
        && matches!(m.dst.kind, DstKind::Grf { .. })
        && dst_offsets(&m.dst, m.exec_size) == src_offsets(x, m.exec_size)
}

/// A copy candidate: (S, D, register distance from S to D). A GRF-to-GRF
/// MOV counts as examined or refused (by reason).
fn candidate(p: &VProgram, m: &Instruction) -> Option<(usize, usize, i64)> {
    let x = m.srcs.first()?;
    if m.op != Opcode::Mov || m.msg.is_some() {
        return None;
    }
    let (SrcKind::Grf { nr: sn, .. }, DstKind::Grf { nr: dn, .. }) = (x.kind, m.dst.kind) else {
        return None;
    };
    let found = copy_between_vgrfs(p, m, sn, dn);
    hit(found.map_or_else(|refusal| refusal, |_| cov::CANDIDATE));
    found.ok()
}

/// [`candidate`] for a GRF-to-GRF MOV `m` (from `sn`, into `dn`), or why
/// it is none.
fn copy_between_vgrfs(
    p: &VProgram,
    m: &Instruction,
    sn: u32,
    dn: u32,
) -> Result<(usize, usize, i64), Point> {
    let x = &m.srcs[0];
    if m.pred.is_some() {
        return Err(cov::REFUSE_PREDICATED);
    }
    if m.sat {
        return Err(cov::REFUSE_SAT);
    }
    if m.we_all {
        return Err(cov::REFUSE_NOMASK);
    }
    if x.neg || x.abs {
        return Err(cov::REFUSE_MODS);
    }
    if x.ty != m.dst.ty {
        return Err(cov::REFUSE_TYPE);
    }
    let (Some(s), Some(d)) = (p.vgrf_of(sn), p.vgrf_of(dn)) else {
        return Err(cov::REFUSE_NOT_VGRF);
    };
    if s == d {
        return Err(cov::REFUSE_SAME_VGRF);
    }
    let (Some(so), Some(dso)) = (
        src_offsets(x, m.exec_size),
        dst_offsets(&m.dst, m.exec_size),
    ) else {
        return Err(cov::REFUSE_NOT_WHOLE_REG);
    };
    let delta = dso[0] as i64 - so[0] as i64;
    if delta % GRF_BYTES as i64 != 0
        || so
            .iter()
            .zip(&dso)
            .any(|(&a, &b)| b as i64 - a as i64 != delta)
    {
        return Err(cov::REFUSE_NOT_WHOLE_REG);
    }
    let dr = delta / GRF_BYTES as i64;
    let (vs, vd) = (p.vgrfs[s], p.vgrfs[d]);
    let first = vs.first as i64 + dr;
    if first >= vd.first as i64 && first + vs.size as i64 <= (vd.first + vd.size) as i64 {
        Ok((s, d, dr))
    } else {
        Err(cov::REFUSE_SIZE)
    }
}

/// Register ranges `[first, last]` of every operand (messages included).
fn operand_regs(i: &Instruction) -> SmallVec<[(u32, u32); 6]> {
    let span = |start: u32, len: u32| (start / GRF_BYTES, (start + len.max(1) - 1) / GRF_BYTES);
    let per_lane = |reg: u32, stride: u32, size: u32| {
        span(reg * GRF_BYTES, (i.exec_size as u32 - 1) * stride + size)
    };
    let mut out = SmallVec::new();
    for s in &i.srcs {
        if let Some((lo, end)) = crate::vir::src_bytes(s, i.exec_size) {
            out.push(span(lo, end - lo));
        }
    }
    if let Some((lo, end)) = crate::vir::dst_bytes(&i.dst, i.exec_size) {
        out.push(span(lo, end - lo));
    }
    match i.msg {
        Some(Message::Load { size, dst, addr }) => {
            let pb = size.payload_bytes();
            out.push(per_lane(addr, 4, 4));
            out.push(per_lane(dst, pb, pb));
        }
        Some(Message::Store { size, addr, data }) => {
            out.push(per_lane(addr, 4, 4));
            out.push(per_lane(data, size.payload_bytes(), size.bytes()));
        }
        Some(Message::End { payload }) => out.push((payload, payload)),
        Some(Message::ScratchRead { dst, header }) => {
            out.push(span(header * GRF_BYTES + 8, 4));
            out.push(per_lane(dst, 4, 4));
        }
        Some(Message::ScratchWrite { header, data }) => {
            out.push(span(header * GRF_BYTES + 8, 4));
            out.push(per_lane(data, 4, 4));
        }
        None => {}
    }
    out
}

/// For each channel of a write: (absolute channel, first byte, length).
fn written_per_channel(i: &Instruction) -> Option<Vec<(u32, u32, u32)>> {
    let g = i.group as u32;
    match i.msg {
        Some(m) => {
            let (dst, pb) = m.written()?;
            Some(
                (0..i.exec_size as u32)
                    .map(|c| (g + c, dst * GRF_BYTES + c * pb, pb))
                    .collect(),
            )
        }
        None => {
            let o = dst_offsets(&i.dst, i.exec_size)?;
            Some(
                o.iter()
                    .enumerate()
                    .map(|(c, &b)| (g + c as u32, b, i.dst.ty.size()))
                    .collect(),
            )
        }
    }
}

/// Linear live range of every register (None when it is never touched):
/// its defs, its uses and every block boundary where a byte of it is live.
fn intervals(p: &VProgram, live: &Liveness) -> Vec<Option<(usize, usize)>> {
    let n = p.reg_end() as usize;
    let mut iv: Vec<Option<(usize, usize)>> = vec![None; n];
    let add = |iv: &mut Vec<Option<(usize, usize)>>, r: usize, i: usize| {
        if r < n {
            iv[r] = Some(iv[r].map_or((i, i), |(a, b)| (a.min(i), b.max(i))));
        }
    };
    for (i, a) in live.access.iter().enumerate() {
        for &(r, _) in &a.writes {
            add(&mut iv, r as usize, i);
        }
        for rd in &a.reads {
            add(&mut iv, rd.reg as usize, i);
        }
    }
    for (b, blk) in live.cfg.blocks.iter().enumerate() {
        for r in live.live_in[b].live_regs() {
            add(&mut iv, r, blk.start);
        }
        for r in live.live_out[b].live_regs() {
            add(&mut iv, r, blk.end - 1);
        }
    }
    iv
}

/// Whether source register `rs` can be renamed to `rd` given the copies
/// (Mesa's `can_coalesce_vars`): Ok(whether their live ranges nest), or
/// the reason it cannot.
fn can_coalesce_regs(
    p: &VProgram,
    live: &Liveness,
    iv: &[Option<(usize, usize)>],
    rs: u32,
    rd: u32,
    copies: &[usize],
    chan: &ByteChannels,
) -> Result<bool, Point> {
    let (Some((ss, se)), Some((ds, de))) = (iv[rs as usize], iv[rd as usize]) else {
        return Ok(false);
    };
    if se <= ds || de <= ss {
        return Ok(false);
    }
    let nested = (ds <= ss && se <= de) || (ss <= ds && de <= se);
    if !nested {
        return Err(cov::REFUSE_NOT_NESTED);
    }
    let block = live.cfg.block_of[copies[0]];
    let first_copy = copies[0];
    let mut seen_src_write = false;
    for i in ss.max(ds)..=se.min(de) {
        if copies.contains(&i) {
            continue;
        }
        let a = &live.access[i];
        let inst = &p.insts[i];
        if seen_src_write && i < first_copy && a.reads.iter().any(|r| r.reg == rd) {
            return Err(cov::REFUSE_DST_READ);
        }
        if a.writes.iter().any(|&(r, _)| r == rd) {
            return Err(cov::REFUSE_DST_WRITTEN);
        }
        if a.writes.iter().any(|&(r, _)| r == rs) {
            if i > first_copy {
                return Err(cov::REFUSE_SRC_AFTER);
            }
            if live.cfg.block_of[i] != block {
                return Err(cov::REFUSE_SRC_OTHER_BLOCK);
            }
            if inst.we_all {
                return Err(cov::REFUSE_SRC_NOMASK);
            }
            if inst.pred.is_some() {
                return Err(cov::REFUSE_SRC_PRED);
            }
            let Some(w) = written_per_channel(inst) else {
                return Err(cov::REFUSE_SRC_PARTIAL);
            };
            let consistent = w.iter().all(|&(ch, start, len)| {
                (start..start + len).all(|b| b / GRF_BYTES != rs || chan.get(b) == Some(ch))
            });
            if !consistent {
                return Err(cov::REFUSE_SRC_PARTIAL);
            }
            seen_src_write = true;
        }
    }
    Ok(true)
}

/// Which channel copies each source byte: a table over the bytes the
/// copies read.
struct ByteChannels {
    /// The first byte of the table.
    base: u32,
    /// Per byte from `base`, its channel ([`u32::MAX`]: none).
    chans: Vec<u32>,
}

impl ByteChannels {
    /// An empty table for `reads` (channel, first byte, size).
    fn spanning(reads: &[(u32, u32, u32)]) -> ByteChannels {
        let base = reads.iter().map(|r| r.1).min().unwrap_or(0);
        let end = reads.iter().map(|r| r.1 + r.2).max().unwrap_or(0);
        ByteChannels {
            base,
            chans: vec![u32::MAX; end.saturating_sub(base) as usize],
        }
    }

    /// Records that channel `ch` copies `byte` unless another channel
    /// already does; returns the channel that does.
    fn insert(&mut self, byte: u32, ch: u32) -> u32 {
        let slot = &mut self.chans[(byte - self.base) as usize];
        if *slot == u32::MAX {
            *slot = ch;
        }
        *slot
    }

    /// The channel that copies `byte`, if any.
    fn get(&self, byte: u32) -> Option<u32> {
        let k = byte.checked_sub(self.base)? as usize;
        self.chans.get(k).copied().filter(|&c| c != u32::MAX)
    }
}

/// Whether the copies from S to D (`dr` registers apart) may be coalesced:
/// Ok(whether some register's live ranges nest), or the reason not.
fn can_coalesce(
    p: &VProgram,
    live: &Liveness,
    iv: &[Option<(usize, usize)>],
    s: usize,
    dr: i64,
    copies: &[usize],
) -> Result<bool, Point> {
    let block = live.cfg.block_of[copies[0]];
    if copies.iter().any(|&c| live.cfg.block_of[c] != block) {
        return Err(cov::REFUSE_BLOCKS);
    }
    // Source byte -> the channel that copies it.
    let mut reads = Vec::new();
    for &c in copies {
        let m = &p.insts[c];
        let Some(o) = src_offsets(&m.srcs[0], m.exec_size) else {
            return Err(cov::REFUSE_CHANNELS);
        };
        let size = m.dst.ty.size();
        reads.extend(
            o.iter()
                .enumerate()
                .map(|(k, &b)| (m.group as u32 + k as u32, b, size)),
        );
    }
    let mut chan = ByteChannels::spanning(&reads);
    for &(ch, b, size) in &reads {
        for byte in b..b + size {
            if chan.insert(byte, ch) != ch {
                return Err(cov::REFUSE_CHANNELS);
            }
        }
    }
    let g = p.vgrfs[s];
    let mut nested = false;
    for rs in g.first..g.first + g.size {
        let rd = (rs as i64 + dr) as u32;
        nested |= can_coalesce_regs(p, live, iv, rs, rd, copies, &chan)?;
    }
    Ok(nested)
}

/// Renames S (registers `[first, first + size)`) by `dr` registers.
fn rename(p: &mut VProgram, first: u32, size: u32, dr: i64) {
    // Only the instructions that name a renamed register are written back
    // (tracked edits: the rest keep their place in the list's origins).
    for k in 0..p.insts.len() {
        let mut inst = p.insts[k];
        let mut renamed = false;
        inst.for_each_grf_mut(|r| {
            if *r >= first && *r < first + size {
                *r = (*r as i64 + dr) as u32;
                renamed = true;
            }
        });
        if renamed {
            p.insts[k] = inst;
        }
    }
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    let mut changed = false;
    // Only the NOP moves are written to: a program without one keeps its
    // identity ([`crate::insts`]).
    for k in 0..p.insts.len() {
        if is_nop_mov(&p.insts[k]) {
            let inst = &mut p.insts[k];
            if inst.writes_flag() {
                hit(cov::NOP_MOV_FLAG);
                inst.dst.kind = DstKind::Null;
            } else {
                hit(cov::NOP_MOV_DELETE);
                *inst = Instruction::new(Opcode::Nop, inst.exec_size);
            }
            changed = true;
        }
    }
    loop {
        // The candidates first (their decision points are counted the
        // same either way): a program without one needs no live sets,
        // and only the live sets' absence (malformed control flow, an
        // operand past the last vgrf) ends the loop before them.
        let acc = footprints(&p.insts);
        let Some(cfg) = Liveness::cfg_if_computable(p, &acc) else {
            break;
        };
        let mut groups: BTreeMap<(usize, usize), Vec<(usize, i64)>> = BTreeMap::new();
        for (i, inst) in p.insts.iter().enumerate() {
            if let Some((s, d, dr)) = candidate(p, inst) {
                groups.entry((s, d)).or_default().push((i, dr));
            }
        }
        if groups.is_empty() {
            break;
        }
        let Some(live) = Liveness::compute_given(acc, &p.vgrfs, p.payload_grfs, |_| Some(cfg))
        else {
            break;
        };
        let iv = intervals(p, &live);
        // Vgrfs some operand straddles (cannot be renamed as a unit).
        let mut straddled = vec![false; p.vgrfs.len()];
        let owners = p.vgrf_owners();
        for inst in &p.insts {
            for (lo, hi) in operand_regs(inst) {
                for r in [lo, hi] {
                    if let Some(v) = owners.of(r) {
                        let g = p.vgrfs[v];
                        if lo < g.first || hi >= g.first + g.size {
                            straddled[v] = true;
                        }
                    }
                }
            }
        }
        let mut touched = vec![false; p.vgrfs.len()];
        let mut progress = false;
        for ((s, d), group) in groups {
            let dr = group[0].1;
            if touched[s] || touched[d] {
                continue;
            }
            if straddled[s] {
                hit(cov::REFUSE_STRADDLED);
                continue;
            }
            if group.iter().any(|g| g.1 != dr) {
                hit(cov::REFUSE_DISTANCES);
                continue;
            }
            let copies: Vec<usize> = group.iter().map(|g| g.0).collect();
            let nested = match can_coalesce(p, &live, &iv, s, dr, &copies) {
                Ok(nested) => nested,
                Err(refusal) => {
                    hit(refusal);
                    continue;
                }
            };
            hit(cov::COALESCE);
            if copies.len() > 1 {
                hit(cov::COALESCE_SEVERAL);
            }
            if nested {
                hit(cov::COALESCE_NESTED);
            }
            for &c in &copies {
                let m = &mut p.insts[c];
                if m.writes_flag() {
                    // Injected bug (BUGS.md: coalesce-drops-cmod): the copy is
                    // deleted with its flag write (e581ddeeeec, issue #2820)
                    // instead of becoming `mov.cmod null, D`.
                    if ctx.bugs.has(Bug::CoalesceDropsCmod) {
                        *m = Instruction::new(Opcode::Nop, m.exec_size);
                    } else {
                        hit(cov::COALESCE_FLAG_KEPT);
                        m.dst.kind = DstKind::Null;
                    }
                } else {
                    *m = Instruction::new(Opcode::Nop, m.exec_size);
                }
            }
            let g = p.vgrfs[s];
            rename(p, g.first, g.size, dr);
            touched[s] = true;
            touched[d] = true;
            progress = true;
        }
        if !progress {
            break;
        }
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    //! Golden before/after tests (names after Mesa's `register_coalesce`
    //! behaviour and its fixes), run before and after on several inputs.
    use super::*;
    use crate::brw::testutil::{canon, check_preserves, ctx, vprog};

    #[test]
    fn byte_channels_keep_the_first_channel_of_each_byte() {
        // Channel 0 copies bytes 64..68, channel 1 bytes 68..72.
        let mut t = ByteChannels::spanning(&[(0, 64, 4), (1, 68, 4)]);
        assert_eq!((t.insert(64, 0), t.insert(68, 1)), (0, 1));
        // Byte 64 is channel 0's: another channel gets channel 0 back.
        assert_eq!(t.insert(64, 7), 0);
        assert_eq!((t.get(64), t.get(68), t.get(65)), (Some(0), Some(1), None));
        // Outside the bytes the copies read.
        assert_eq!((t.get(63), t.get(72), t.get(0)), (None, None, None));
    }

    const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmul(8) g5<1>F g3<8,8,1>F -0.75F\n";
    const TAIL: &str = "send(8) null g2 g6 st.b32 { align1 1Q EOT };";
    const VALS: [u64; 8] = [
        0,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0x7fc0_0000,
        0x3f00_0000,
        5,
        0xc0a0_0000,
    ];

    fn vg() -> Vec<(u32, u32)> {
        (2..16).map(|r| (r, 1)).collect()
    }

    fn golden_vg(vgrfs: &[(u32, u32)], body: &str, want: &str) {
        let p = vprog(8, &format!("{HEAD}{body}{TAIL}"), vgrfs);
        let q = check_preserves(&p, run, 12, &|k| VALS[k as usize % VALS.len()]);
        assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}{TAIL}")));
    }

    fn golden(body: &str, want: &str) {
        golden_vg(&vg(), body, want);
    }

    fn unchanged(body: &str) {
        golden(body, body);
    }

    #[test]
    fn basic() {
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n",
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\n",
        );
    }

    #[test]
    fn coverage_records_the_coalesce_and_the_refusal() {
        // The raw copy is coalesced; the negating MOV is refused in both
        // rounds (the second round finds nothing more to do).
        let rec = crate::coverage::Recording::start();
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g7<1>F g4<8,8,1>F\nmov(8) g6<1>F -g7<8,8,1>F\n",
            "add(8) g7<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F -g7<8,8,1>F\n",
        );
        let hits = rec.finish();
        assert_eq!(
            hits,
            crate::coverage::Hits::from([
                (cov::CANDIDATE.name(), 1),
                (cov::COALESCE.name(), 1),
                (cov::REFUSE_MODS.name(), 2),
            ])
        );
    }

    #[test]
    fn source_written_after_the_copy() {
        unchanged("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\nmul(8) g4<1>F g3<8,8,1>F 2.0F\nadd(8) g6<1>F g6<8,8,1>F g4<8,8,1>F\n");
    }

    #[test]
    fn destination_written_in_the_intersection() {
        unchanged("add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\nmul(8) g6<1>F g6<8,8,1>F 2.0F\nadd(8) g6<1>F g6<8,8,1>F g4<8,8,1>F\n");
    }

    #[test]
    fn source_written_before_the_copy() {
        // D live across; S written just before the copy in its block: the
        // write moves into D.
        golden(
            "mov(8) g6<1>F 1.0F\nadd(8) g7<1>F g6<8,8,1>F g3<8,8,1>F\nadd(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\nadd(8) g6<1>F g6<8,8,1>F g7<8,8,1>F\n",
            "mov(8) g6<1>F 1.0F\nadd(8) g7<1>F g6<8,8,1>F g3<8,8,1>F\nadd(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nadd(8) g6<1>F g6<8,8,1>F g7<8,8,1>F\n",
        );
        // ... but not when D is read between that write and the copy.
        unchanged("mov(8) g6<1>F 1.0F\nadd(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nadd(8) g7<1>F g6<8,8,1>F g3<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\nadd(8) g6<1>F g6<8,8,1>F g7<8,8,1>F\n");
    }

    #[test]
    fn nomask_source_write() {
        // 76b4255cd80: the NoMask write would reach channels the copy skips.
        unchanged("mov(8) g6<1>F 1.0F\nadd(8) g7<1>F g6<8,8,1>F g3<8,8,1>F\nadd(8) g4<1>F g3<8,8,1>F g5<8,8,1>F { align1 WE_all 1Q };\nmov(8) g6<1>F g4<8,8,1>F\nadd(8) g6<1>F g6<8,8,1>F g7<8,8,1>F\n");
        // A NoMask copy is never a candidate.
        unchanged(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F { align1 WE_all 1Q };\n",
        );
    }

    #[test]
    fn predicated_source_write() {
        unchanged("cmp.l.f0.0(8) null<1>F g3<8,8,1>F 0.0F\nmov(8) g6<1>F 1.0F\nadd(8) g7<1>F g6<8,8,1>F g3<8,8,1>F\nmov(8) g4<1>F g5<8,8,1>F\n(+f0.0) add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\nadd(8) g6<1>F g6<8,8,1>F g7<8,8,1>F\n");
    }

    #[test]
    fn copy_with_cmod_becomes_a_null_mov() {
        // e581ddeeeec: the flag write stays.
        golden(
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.nz.f0.0(8) g6<1>F g4<8,8,1>F\n(+f0.0) sel(8) g6<1>F g6<8,8,1>F 2.0F\n",
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nmov.nz.f0.0(8) null<1>F g6<8,8,1>F\n(+f0.0) sel(8) g6<1>F g6<8,8,1>F 2.0F\n",
        );
    }

    #[test]
    fn nop_mov() {
        golden(
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g6<8,8,1>F\n",
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\n",
        );
        // mov.nz x, x keeps its flag write.
        golden(
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nmov.nz.f0.0(8) g6<1>F g6<8,8,1>F\n(+f0.0) sel(8) g6<1>F g6<8,8,1>F 2.0F\n",
            "add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nmov.nz.f0.0(8) null<1>F g6<8,8,1>F\n(+f0.0) sel(8) g6<1>F g6<8,8,1>F 2.0F\n",
        );
    }

    #[test]
    fn not_raw_copies() {
        for b in [
            "add(8) g4<1>D g3<8,8,1>D 5D\nmov(8) g6<1>F g4<8,8,1>D\n",
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.sat(8) g6<1>F g4<8,8,1>F\n",
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F -g4<8,8,1>F\n",
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F (abs)g4<8,8,1>F\n",
            "cmp.l.f0.0(8) null<1>F g3<8,8,1>F 0.0F\nadd(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F 1.0F\n(+f0.0) mov(8) g6<1>F g4<8,8,1>F\n",
            // Element 0 of S lands at element 4 of D: not a whole-register move.
            "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F 1.0F\nmov(4) g6.4<1>F g4<4,4,1>F\n",
        ] {
            unchanged(b);
        }
    }

    #[test]
    fn strided_word_container() {
        golden(
            "add(8) g4<2>W g3<16,8,2>W 3W\nmov(8) g8<2>W g4<16,8,2>W\nmov(8) g6<1>D g8<16,8,2>W\n",
            "add(8) g8<2>W g3<16,8,2>W 3W\nmov(8) g6<1>D g8<16,8,2>W\n",
        );
    }

    #[test]
    fn source_bigger_than_destination() {
        // S = g4-g5 (two registers), D = g6 (one).
        let vg = [(2, 1), (3, 1), (4, 2), (6, 1)];
        let body = "add(8) g4<1>F g3<8,8,1>F 1.0F\nmov(8) g6<1>F g4<8,8,1>F\n";
        let p = vprog(
            8,
            &format!("{HEAD}{body}{TAIL}").replace("mul(8) g5<1>F g3<8,8,1>F -0.75F\n", ""),
            &vg,
        );
        let q = check_preserves(&p, run, 8, &|k| VALS[k as usize % VALS.len()]);
        assert_eq!(q.text_compact(), p.text_compact());
    }

    const IF: &str = "cmp.g.f0.0(8) null<1>F g3<8,8,1>F 0.5F\n(+f0.0) if(8) JIP: L1 UIP: L1\n";
    const ENDIF: &str = "L1:\nendif(8) JIP: L2\nL2:\n";

    #[test]
    fn divergent_copy() {
        // S is written for every channel, the copy only in the then-arm: the
        // other channels must keep D.
        unchanged(&format!("mov(8) g6<1>F g3<8,8,1>F\nadd(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\n{IF}mov(8) g6<1>F g4<8,8,1>F\n{ENDIF}"));
        // Written in the arm, right before the copy: same channels, fine.
        golden(
            &format!("mov(8) g6<1>F g3<8,8,1>F\n{IF}add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n{ENDIF}"),
            &format!("mov(8) g6<1>F g3<8,8,1>F\n{IF}add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\n{ENDIF}"),
        );
        // A copy in each arm (a phi): both sources become D.
        golden(
            &format!("cmp.g.f0.0(8) null<1>F g3<8,8,1>F 0.5F\n(+f0.0) if(8) JIP: L0 UIP: L1\nadd(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\nelse(8) JIP: L1 UIP: L1\nL0:\nmul(8) g7<1>F g3<8,8,1>F g5<8,8,1>F\nmov(8) g6<1>F g7<8,8,1>F\n{ENDIF}"),
            &format!("cmp.g.f0.0(8) null<1>F g3<8,8,1>F 0.5F\n(+f0.0) if(8) JIP: L0 UIP: L1\nadd(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\nelse(8) JIP: L1 UIP: L1\nL0:\nmul(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\n{ENDIF}"),
        );
    }

    #[test]
    fn loop_carried_copy() {
        let lp = |body: &str| {
            format!("mov(8) g6<1>F 0.0F\nmov(8) g7<1>F 0.0F\nL0:\n{body}add(8) g7<1>F g7<8,8,1>F 1.0F\ncmp.l.f0.0(8) null<1>F g7<8,8,1>F 3.0F\n(+f0.0) while(8) JIP: L0\n")
        };
        golden(
            &lp("add(8) g4<1>F g6<8,8,1>F g3<8,8,1>F\nmov(8) g6<1>F g4<8,8,1>F\n"),
            &lp("add(8) g6<1>F g6<8,8,1>F g3<8,8,1>F\n"),
        );
        unchanged(&lp(
            "add(8) g4<1>F g6<8,8,1>F g3<8,8,1>F { align1 WE_all 1Q };\nmov(8) g6<1>F g4<8,8,1>F\n",
        ));
    }

    #[test]
    fn split_simd16_copy() {
        let head = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32\n";
        let tail = "send(16) null g3 g9 st.b32 { align1 1H EOT };";
        let vg = [(3, 2), (5, 2), (7, 2), (9, 2)];
        let body = "add(16) g7<1>F g5<8,8,1>F 1.0F\nmov(8) g9<1>F g7<8,8,1>F\nmov(8) g10<1>F g8<8,8,1>F { align1 2Q }\n";
        let p = vprog(16, &format!("{head}{body}{tail}"), &vg);
        let q = check_preserves(&p, run, 16, &|k| VALS[k as usize % VALS.len()]);
        assert_eq!(
            q.text_compact(),
            canon(&format!("{head}add(16) g9<1>F g5<8,8,1>F 1.0F\n{tail}"))
        );
    }

    #[test]
    fn injected_bug_drops_the_flag_write() {
        let body = "add(8) g4<1>F g3<8,8,1>F g5<8,8,1>F\nmov.nz.f0.0(8) g6<1>F g4<8,8,1>F\n(+f0.0) sel(8) g6<1>F g6<8,8,1>F 2.0F\n";
        let mut p = vprog(8, &format!("{HEAD}{body}{TAIL}"), &vg());
        let mut c = ctx(8);
        c.bugs = crate::bugs::BugSet::NONE.with(Bug::CoalesceDropsCmod);
        assert!(run(&mut p, &c));
        p.compact().unwrap();
        assert_eq!(
            p.text_compact(),
            canon(&format!("{HEAD}add(8) g6<1>F g3<8,8,1>F g5<8,8,1>F\n(+f0.0) sel(8) g6<1>F g6<8,8,1>F 2.0F\n{TAIL}"))
        );
    }
}
