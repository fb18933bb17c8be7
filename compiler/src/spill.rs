//! Register spilling as brw's `fs_reg_alloc` does it on Gfx9–11
//! (`brw_fs_reg_allocate.cpp`: `set_spill_costs`, `choose_spill_reg`,
//! `spill_reg`, `emit_spill`, `emit_unspill`).
//!
//! # What a spill does
//! A spilled vgrf gets `size` GRFs of the thread's scratch space at
//! `last_scratch` and disappears from the program: every instruction that
//! reads it reads a fresh temporary filled just before it, every
//! instruction that writes it writes a fresh temporary spilled just after
//! it. The temporaries live for one instruction and are never spilled.
//! Fills and spills are OWORD block messages addressed by a one-GRF header
//! (copied from g0 once, at the start of the program) whose dword 2 a
//! NoMask `mov(1)` sets to the offset in owords before each message.
//!
//! # Why it is sound
//! - A *fill* reads the registers the operand covers, NoMask: brw assumes
//!   no one-to-one correspondence between the value's channels and the
//!   message's dword channels (a word value's channel 9 lives in dword 4),
//!   and the temporary is local to the instruction, so filling every dword
//!   costs nothing and hides nothing.
//! - A *spill* writes back the registers the instruction writes, at their
//!   own offset within the slot. It writes channel by channel (the
//!   instruction's execution mask) only when the destination is a packed
//!   dword whose channels are exactly the message's (`per_channel`);
//!   otherwise it writes every dword NoMask, and so first fills the
//!   temporary (read-modify-write) unless the instruction itself writes
//!   every dword NoMask. A predicated or sub-register write is a partial
//!   write and always fills first.
//!
//! # Which vgrf
//! brw's cost: one per register read or written, times 10 inside each
//! loop and 0.5 inside each if, divided by the log of the live-interval
//! length (long-lived values go first; a value live for one instruction
//! cannot be helped). Its benefit: the registers of every interval that
//! overlaps its own (the interference degree). The candidates are the
//! values live where the linear scan failed; the best benefit per cost is
//! spilled, and allocation runs again.

use crate::bugs::{Bug, BugSet};
use crate::coverage::hit;
use crate::insts::Origin;
use crate::regalloc::cov;
use crate::vir::{regs_of, VProgram, GRF_BYTES};
use eu::{Dst, DstKind, Instruction, Message, MsgOperands, Opcode, RegType, Region, Src, SrcKind};

/// Where a spill put a program's instructions.
#[derive(Debug, Default)]
pub(crate) struct SpillMap {
    /// Per instruction of the program before, its index after (the
    /// instruction itself, after its fills).
    pub moved: Vec<u32>,
    /// Per instruction of the program before, the index after of the
    /// first instruction emitted for it (its first fill, or itself), and
    /// one past the end.
    pub new_index: Vec<u32>,
    /// The instructions the spill made or rewrote (fills, spills, header
    /// writes, renamed instructions and moved jumps), ascending.
    pub new_insts: Vec<u32>,
}

/// The spilling state of one register allocation.
#[derive(Debug, Default)]
pub(crate) struct Spiller {
    /// The scratch header's register (allocated by the first spill).
    header: Option<u32>,
    /// Bytes of scratch used so far (brw's `last_scratch`).
    pub scratch_bytes: u32,
    /// Vgrfs from this index on were made by spilling: never spilled.
    pub no_spill_from: Option<usize>,
}

/// brw's spill cost of each vgrf (before the division by the log of the
/// live length): registers read and written, 10× per enclosing loop,
/// 0.5× per enclosing if.
pub(crate) fn spill_costs(p: &VProgram) -> Vec<f64> {
    let mut cost = vec![0.0f64; p.vgrfs.len()];
    let loop_starts: Vec<usize> = p
        .insts
        .iter()
        .filter(|i| i.op == Opcode::While)
        .filter_map(|i| i.jip.map(|j| j as usize))
        .collect();
    let mut scale = 1.0f64;
    let owners = p.vgrf_owners();
    for (k, i) in p.insts.iter().enumerate() {
        let loops = loop_starts.iter().filter(|&&s| s == k).count() as i32;
        if loops > 0 {
            scale *= 10f64.powi(loops);
        }
        for (nr, regs) in operand_regs(i) {
            if let Some(v) = owners.of(nr) {
                cost[v] += regs as f64 * scale;
            }
        }
        match i.op {
            Opcode::While => scale /= 10.0,
            Opcode::If => scale *= 0.5,
            Opcode::Endif => scale /= 0.5,
            _ => {}
        }
    }
    cost
}

/// Every GRF operand of an instruction: first register and count (three
/// sources, a destination and two message operands at most: inline).
pub(crate) fn operand_regs(i: &Instruction) -> smallvec::SmallVec<[(u32, u32); 6]> {
    let mut out = smallvec::SmallVec::new();
    // Pushed one by one: `extend` over a filtering iterator cannot reserve
    // and checks the room for each element through a slower path.
    let span = |(f, l): (u32, u32)| (f, l - f + 1);
    for s in i.srcs.iter() {
        if let Some(b) = crate::vir::src_bytes(s, i.exec_size) {
            out.push(span(regs_of(b)));
        }
    }
    if i.op.has_dst() {
        if let Some(b) = crate::vir::dst_bytes(&i.dst, i.exec_size) {
            out.push(span(regs_of(b)));
        }
    }
    if let Some(m) = i.msg {
        for o in message_operands(&m, i.exec_size) {
            out.push((o.reg, o.regs));
        }
    }
    out
}

/// A message's GRF operands ([`Message::operands`]), but for the end
/// message's payload, which is not read.
fn message_operands(m: &Message, exec: u8) -> MsgOperands {
    if matches!(m, Message::End { .. }) {
        return MsgOperands::new();
    }
    m.operands(exec, GRF_BYTES)
}

/// brw's spill score of each of `candidates` that may be spilled: its
/// interference (the GRFs of every interval overlapping its own) per
/// adjusted cost (`spill_costs` over the log of its live length).
/// Spill temporaries (from `no_spill_from` on), values nothing reads or
/// writes and values live for one instruction get none.
fn scores(
    p: &VProgram,
    iv: &[Option<(usize, usize)>],
    candidates: &[usize],
    no_spill_from: usize,
    cost: &[f64],
) -> Vec<(f64, usize)> {
    let interference = Interference::new(iv, |w| p.vgrfs[w].size);
    let mut out = Vec::new();
    for &v in candidates {
        let Some((lo, hi)) = iv[v] else { continue };
        let len = (hi - lo) as f64;
        if v >= no_spill_from || cost[v] <= 0.0 || len <= 1.0 {
            continue;
        }
        let adjusted = cost[v] / len.ln();
        // Every other interval overlapping v's own.
        let benefit = interference.overlapping(lo, hi) - p.vgrfs[v].size;
        out.push((benefit as f64 / adjusted, v));
    }
    out
}

/// The GRFs of the live intervals overlapping a given one, without trying
/// every interval: an interval `[l, h]` misses `[lo, hi]` exactly when it
/// ends before `lo` or starts after `hi` (never both), so the overlapping
/// ones are all of them but those two kinds, counted from running sums
/// over the instruction indices.
struct Interference {
    /// Every interval's GRFs.
    total: u32,
    /// `ended[i]`: the GRFs of the intervals ending before instruction i.
    ended: Vec<u32>,
    /// `later[i]`: the GRFs of the intervals starting after instruction i.
    later: Vec<u32>,
}

impl Interference {
    /// Over the intervals `iv` of vgrfs of `size` GRFs.
    fn new(iv: &[Option<(usize, usize)>], size: impl Fn(usize) -> u32) -> Interference {
        let n = iv.iter().flatten().map(|&(_, h)| h + 1).max().unwrap_or(0);
        // The GRFs of the intervals ending at, and starting at, each index.
        let mut ending = vec![0u32; n + 1];
        let mut starting = vec![0u32; n + 1];
        for (w, x) in iv.iter().enumerate() {
            if let Some((l, h)) = *x {
                ending[h] += size(w);
                starting[l] += size(w);
            }
        }
        let mut sum = 0;
        let ended = ending
            .iter()
            .map(|&e| {
                let before = sum;
                sum += e;
                before
            })
            .collect();
        let total = sum;
        let mut later = vec![0u32; n + 1];
        let mut sum = 0;
        for i in (0..=n).rev() {
            later[i] = sum;
            sum += starting[i];
        }
        Interference {
            total,
            ended,
            later,
        }
    }

    /// The GRFs of the intervals overlapping `[lo, hi]`.
    fn overlapping(&self, lo: usize, hi: usize) -> u32 {
        // Past the last interval's end, every one has ended and none
        // starts later.
        let last = self.ended.len() - 1;
        self.total - self.ended[lo.min(last)] - self.later[hi.min(last)]
    }
}

/// Chooses the vgrf to spill among `candidates` (brw's
/// `ra_get_best_spill_node`): the best score, the first on ties, given
/// the vgrfs' spill costs (`spill_costs`).
pub(crate) fn choose(
    p: &VProgram,
    iv: &[Option<(usize, usize)>],
    candidates: &[usize],
    no_spill_from: usize,
    cost: &[f64],
) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for (score, v) in scores(p, iv, candidates, no_spill_from, cost) {
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, v));
        }
    }
    best.map(|(_, v)| v)
}

/// Every vgrf that may be spilled, best score first (ties by index): the
/// order brw's `spill_all` loop takes them in.
pub(crate) fn choose_all(p: &VProgram, iv: &[Option<(usize, usize)>]) -> Vec<usize> {
    let all: Vec<usize> = (0..iv.len()).collect();
    let mut s = scores(p, iv, &all, usize::MAX, &spill_costs(p));
    s.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    s.into_iter().map(|(_, v)| v).collect()
}

fn ud(nr: u32, sub: u32, region: Region) -> Src {
    Src::grf(nr, sub, RegType::UD, region)
}

/// `mov(1) header.2<1>UD offset/16 NoMask`, then the fill or spill.
#[allow(clippy::too_many_arguments)]
fn scratch_message(
    out: &mut Vec<Instruction>,
    header: u32,
    offset: u32,
    width: u8,
    group: u8,
    we_all: bool,
    msg: Message,
) {
    let mut set = Instruction::alu(
        Opcode::Mov,
        1,
        Dst::grf(header, 2, RegType::UD, 1),
        &[Src::imm(u64::from(offset / 16), RegType::UD)],
    );
    set.we_all = true;
    out.push(set);
    let mut send = Instruction::new(Opcode::Send, width);
    send.msg = Some(msg);
    send.we_all = we_all;
    send.group = group;
    out.push(send);
}

/// Fills (`write` false) or spills of `count` registers from `reg` at
/// scratch `offset`, in blocks of `block` GRFs.
#[allow(clippy::too_many_arguments)]
fn scratch_blocks(
    out: &mut Vec<Instruction>,
    header: u32,
    reg: u32,
    offset: u32,
    count: u32,
    block: u32,
    group: u8,
    we_all: bool,
    write: bool,
) {
    for j in 0..count.div_ceil(block) {
        let n = block.min(count - j * block);
        let r = reg + j * block;
        let msg = if write {
            Message::ScratchWrite { header, data: r }
        } else {
            Message::ScratchRead { dst: r, header }
        };
        let at = offset + j * block * GRF_BYTES;
        scratch_message(out, header, at, (8 * n) as u8, group, we_all, msg);
    }
}

impl Spiller {
    /// The scratch header's register, once a spill made it.
    pub(crate) fn header(&self) -> Option<u32> {
        self.header
    }

    /// Spills the vgrfs `vs` of `p`, each to its own slot in order (brw's
    /// `spill_reg`, once per vgrf), and says where the instructions went;
    /// fails only if the control flow of `p` was already broken.
    pub(crate) fn spill(
        &mut self,
        p: &mut VProgram,
        vs: &[usize],
        bugs: BugSet,
    ) -> Result<SpillMap, eu::cf::CfError> {
        for _ in vs {
            hit(cov::SPILLED);
        }
        self.no_spill_from.get_or_insert(p.vgrfs.len());
        let mut setup = Vec::new();
        let header = *self.header.get_or_insert_with(|| {
            let h = p.alloc(GRF_BYTES);
            // brw's SHADER_OPCODE_SCRATCH_HEADER starts from g0.
            let mut mov = Instruction::alu(
                Opcode::Mov,
                8,
                Dst::grf(h, 0, RegType::UD, 1),
                &[ud(0, 0, Region::new(8, 8, 1))],
            );
            mov.we_all = true;
            setup.push(mov);
            h
        });
        // (first register, size, scratch slot) of each spilled vgrf, by
        // first register.
        let mut slots: Vec<(u32, u32, u32)> = Vec::with_capacity(vs.len());
        for &v in vs {
            let g = p.vgrfs[v];
            slots.push((g.first, g.size, self.scratch_bytes));
            self.scratch_bytes += g.size * GRF_BYTES;
        }
        slots.sort_unstable();
        // The scratch offset of spilled register `nr`, if it is one.
        let scratch_of = |nr: u32| -> Option<u32> {
            let i = slots.partition_point(|s| s.0 <= nr).checked_sub(1)?;
            let (first, size, slot) = slots[i];
            (nr < first + size).then(|| slot + (nr - first) * GRF_BYTES)
        };
        let simd = p.simd;
        let old = p.insts.clone();
        let mut out = setup;
        // Per instruction of `out`, its index in `old` when it is that
        // instruction unchanged (a tracked rebuild: [`crate::insts`]).
        let mut from: Vec<u32> = Vec::with_capacity(old.len() * 3 / 2);
        // Room for the program and a fill or spill next to every other
        // instruction, so the list seldom grows by copying.
        out.reserve(old.len() * 3 / 2);
        let mut new_index = Vec::with_capacity(old.len() + 1);
        let mut moved = Vec::with_capacity(old.len());
        // Copies the untouched instructions `run` of `old` at once.
        let copy_run = |run: std::ops::Range<usize>,
                        out: &mut Vec<Instruction>,
                        from: &mut Vec<u32>,
                        new_index: &mut Vec<u32>,
                        moved: &mut Vec<u32>| {
            let at = out.len();
            new_index.extend((at..at + run.len()).map(|k| k as u32));
            moved.extend((at..at + run.len()).map(|k| k as u32));
            from.resize(at, Origin::NEW);
            from.extend(run.clone().map(|k| k as u32));
            out.extend_from_slice(&old[run]);
        };
        // The first untouched instruction not copied yet.
        let mut run_start = 0;
        for (k, inst) in old.iter().enumerate() {
            // Most instructions touch no spilled vgrf: they stay as they
            // are, without working out their operands' extents (asked as
            // below: a source by its register, the destination by the
            // register of its first byte).
            let untouched = inst.msg.is_none()
                && !inst.srcs.iter().any(|s| match s.kind {
                    SrcKind::Grf { nr, .. } => scratch_of(nr).is_some(),
                    _ => false,
                })
                && !(inst.op.has_dst()
                    && crate::vir::dst_bytes(&inst.dst, inst.exec_size)
                        .is_some_and(|b| scratch_of(regs_of(b).0).is_some()));
            if untouched {
                continue;
            }
            copy_run(
                run_start..k,
                &mut out,
                &mut from,
                &mut new_index,
                &mut moved,
            );
            run_start = k + 1;
            new_index.push(out.len() as u32);
            let mut inst = *inst;
            let mut after = Vec::new();
            // Sources and message payloads read, one fill each.
            let exec = inst.exec_size;
            let msg_ops = inst
                .msg
                .map(|m| message_operands(&m, exec))
                .unwrap_or_default();
            let mut reads: Vec<(Operand, u32, u32)> = Vec::new();
            for (k, s) in inst.srcs.iter().enumerate() {
                if let (SrcKind::Grf { nr, .. }, Some(b)) = (s.kind, crate::vir::src_bytes(s, exec))
                {
                    if scratch_of(nr).is_some() {
                        let (f, l) = regs_of(b);
                        reads.push((Operand::Src(k), f, l - f + 1));
                    }
                }
            }
            reads.extend(
                msg_ops
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| !o.written && scratch_of(o.reg).is_some())
                    .map(|(k, o)| (Operand::Msg(k), o.reg, o.regs)),
            );
            let mut renamed = !reads.is_empty();
            for (operand, first, count) in reads {
                let temp = p.alloc(count * GRF_BYTES);
                operand.rename(&mut inst, first, temp);
                // The largest power-of-two block dividing the count, at
                // most four GRFs (SIMD32).
                let block = (1u32 << (8 * count).trailing_zeros().min(5)) / 8;
                // Injected bug (BUGS.md: spill-fill-without-nomask): the
                // fill takes the instruction's execution mask.
                let masked = !inst.we_all && bugs.has(Bug::SpillFillWithoutNomask);
                let width = 8 * block as u8;
                let group = if masked {
                    inst.group / width * width
                } else {
                    0
                };
                hit(cov::FILL);
                let offset = scratch_of(first).unwrap_or_default();
                scratch_blocks(
                    &mut out, header, temp, offset, count, block, group, !masked, false,
                );
            }
            // The destination, or a message's written payload.
            let written = if inst.op.has_dst() {
                crate::vir::dst_bytes(&inst.dst, exec).map(|b| {
                    let (f, l) = regs_of(b);
                    let elem = inst.dst.ty.size();
                    (f, l - f + 1, elem, inst.dst.stride as u32)
                })
            } else {
                // A message payload is packed: `pb` bytes per channel.
                let pb = inst.msg.and_then(|m| m.written()).map_or(4, |(_, pb)| pb);
                msg_ops
                    .iter()
                    .find(|o| o.written)
                    .map(|o| (o.reg, o.regs, pb, 1))
            };
            let written = written.filter(|w| scratch_of(w.0).is_some());
            renamed |= written.is_some();
            if let Some((first, count, elem, stride)) = written {
                let temp = p.alloc(count * GRF_BYTES);
                rename_written(&mut inst, first, temp);
                let component = (exec as u32 * stride * elem).div_ceil(GRF_BYTES);
                let width = 8 * component.min(simd / 8);
                let per_channel = stride == 1 && elem == 4 && exec as u32 == width;
                // brw's is_partial_write, with a destination that starts
                // inside a register (dst.offset % REG_SIZE).
                let starts_inside = inst.op.has_dst()
                    && crate::vir::dst_bytes(&inst.dst, exec).is_some_and(|b| b.0 % GRF_BYTES != 0);
                let partial = (inst.pred.is_some() && inst.op != Opcode::Sel)
                    || inst.align16.is_some_and(|a| a.writemask != 0xf)
                    || stride != 1
                    || starts_inside
                    || (exec as u32 * elem) < GRF_BYTES;
                let we_all = inst.we_all || !per_channel;
                // Injected bug (BUGS.md: spill-first-half-mask): a masked
                // spill of a later channel group takes group 0's mask.
                let group = if we_all || (inst.group != 0 && bugs.has(Bug::SpillFirstHalfMask)) {
                    0
                } else {
                    inst.group
                };
                let offset = scratch_of(first).unwrap_or_default();
                let blocks = |out: &mut Vec<Instruction>, write: bool| {
                    let block = width / 8;
                    scratch_blocks(
                        out, header, temp, offset, count, block, group, we_all, write,
                    );
                };
                if partial || (!inst.we_all && !per_channel) {
                    hit(cov::SPILL_READ_MODIFY_WRITE);
                    blocks(&mut out, false);
                } else if per_channel {
                    hit(cov::SPILL_PER_CHANNEL);
                } else {
                    hit(cov::SPILL_NOMASK_WHOLE);
                }
                blocks(&mut after, true);
            }
            from.resize(out.len(), Origin::NEW);
            from.push(if renamed { Origin::NEW } else { k as u32 });
            moved.push(out.len() as u32);
            out.push(inst);
            out.append(&mut after);
        }
        copy_run(
            run_start..old.len(),
            &mut out,
            &mut from,
            &mut new_index,
            &mut moved,
        );
        from.resize(out.len(), Origin::NEW);
        new_index.push(out.len() as u32);
        for inst in &mut out {
            if inst.op == Opcode::While {
                inst.jip = inst.jip.map(|j| new_index[j as usize]);
            }
            if inst.op == Opcode::Halt {
                inst.uip = inst.uip.map(|j| new_index[j as usize]);
            }
        }
        eu::resolve_control_flow(&mut out)?;
        // Jumps that moved make their instructions new ones.
        for (e, inst) in from.iter_mut().zip(&out) {
            if *e != Origin::NEW && inst.op.is_cf() && *inst != old[*e as usize] {
                *e = Origin::NEW;
            }
        }
        let new_insts = (0..out.len() as u32)
            .filter(|&e| from[e as usize] == Origin::NEW)
            .collect();
        p.insts.rebuild(out, &from);
        Ok(SpillMap {
            moved,
            new_index,
            new_insts,
        })
    }
}

/// An operand an instruction reads: a source, or a message operand (its
/// index in [`message_operands`]).
#[derive(Clone, Copy, Debug)]
enum Operand {
    Src(usize),
    Msg(usize),
}

impl Operand {
    /// Points the operand, which starts in register `first`, at `temp`.
    fn rename(self, inst: &mut Instruction, first: u32, temp: u32) {
        match self {
            Operand::Src(k) => {
                if let SrcKind::Grf { nr, .. } = &mut inst.srcs[k].kind {
                    *nr = temp + (*nr - first);
                }
            }
            Operand::Msg(k) => {
                // By position, not by register: a load's address may be
                // the same register as its destination.
                if let Some(r) = inst
                    .msg
                    .as_mut()
                    .and_then(|m| m.grfs_mut().into_iter().nth(k))
                {
                    *r = temp;
                }
            }
        }
    }
}

/// Points the written operand (destination or message payload), which
/// starts in register `first`, at `temp`.
fn rename_written(inst: &mut Instruction, first: u32, temp: u32) {
    if let DstKind::Grf { nr, .. } = &mut inst.dst.kind {
        *nr = temp + (*nr - first);
    }
    if let Some(Message::Load { dst, .. } | Message::ScratchRead { dst, .. }) = &mut inst.msg {
        *dst = temp;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{outputs, vprog};

    /// SIMD16: address a (g3-g4), x = load (g5-g6), y = x + 1 (g7-g8), then
    /// y's second register (lanes 8-15) = y's first + 2 (a 2Q half), then
    /// y is stored.
    const HALVES: &str = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\nadd(16) g7<1>D g5<8,8,1>D 1D\nadd(8) g8<1>D g7<8,8,1>D 2D { align1 2Q };\nsend(16) null g3 g7 st.b32 { align1 1H EOT };";

    #[test]
    fn interference_is_the_grfs_of_every_overlapping_interval() {
        // A small LCG's intervals over 60 instructions, some vgrfs unused.
        let mut x: u64 = 7;
        let mut next = |n: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        let iv: Vec<Option<(usize, usize)>> = (0..80)
            .map(|_| {
                let l = next(60) as usize;
                let h = l + next(20) as usize;
                (next(5) != 0).then_some((l, h))
            })
            .collect();
        let size = |w: usize| 1 + (w % 4) as u32;
        let t = Interference::new(&iv, size);
        for lo in 0..85 {
            for hi in lo..85 {
                let brute: u32 = iv
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.is_some_and(|(l, h)| l <= hi && lo <= h))
                    .map(|(w, _)| size(w))
                    .sum();
                assert_eq!(t.overlapping(lo, hi), brute, "[{lo}, {hi}]");
            }
        }
        // Nothing live: nothing overlaps.
        assert_eq!(Interference::new(&[None, None], size).overlapping(0, 9), 0);
    }

    fn halves() -> VProgram {
        vprog(16, HALVES, &[(3, 2), (5, 2), (7, 2)])
    }

    #[test]
    fn spilling_rewrites_every_read_and_write_as_brw_does() {
        let mut p = halves();
        let before = p.insts.clone();
        let mut sp = Spiller::default();
        sp.spill(&mut p, &[2], BugSet::NONE).unwrap();
        // By the module's rules: the header g9 (the first new vgrf) starts
        // as a copy of g0. The SIMD16 packed-dword write is per channel (no
        // fill, the instruction's mask). The 2Q half reads y's first GRF
        // (a one-GRF NoMask fill from offset 0) and writes its second, a
        // packed dword of exactly its 8 channels: spilled per channel, in
        // channel group 8, at offset 32 (oword 2). The store reads both
        // GRFs: one two-GRF NoMask fill. Temporaries in order: g10-g11,
        // g12, g13, g14-g15.
        let want = "mov(8) g9<1>UD g0<8,8,1>UD { align1 WE_all 1Q };\n\
shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\n\
send(16) g5 g3 ld.b32\n\
add(16) g10<1>D g5<8,8,1>D 1D\n\
mov(1) g9.2<1>UD 0x00000000UD { align1 WE_all 1N };\n\
send(16) null g9 g10 st.scratch\n\
mov(1) g9.2<1>UD 0x00000000UD { align1 WE_all 1N };\n\
send(8) g12 g9 ld.scratch { align1 WE_all 1Q };\n\
add(8) g13<1>D g12<8,8,1>D 2D { align1 2Q };\n\
mov(1) g9.2<1>UD 0x00000002UD { align1 WE_all 1N };\n\
send(8) null g9 g13 st.scratch { align1 2Q };\n\
mov(1) g9.2<1>UD 0x00000000UD { align1 WE_all 1N };\n\
send(16) g14 g9 ld.scratch { align1 WE_all 1H };\n\
send(16) null g3 g14 st.b32 { align1 1H EOT };\n";
        assert_eq!(p.text_compact(), want);
        assert_eq!(sp.scratch_bytes, 64);
        // The list knows which of its instructions are the old ones: the
        // SHL and the load, the only two that do not touch y (g7-g8).
        let origin = p.insts.origin().expect("a tracked rebuild");
        assert_eq!(origin.from, before.id());
        let n = Origin::NEW;
        assert_eq!(origin.found, [n, 0, 1, n, n, n, n, n, n, n, n, n, n, n]);
        // Lane j < 8 stores x_j + 1, lane 8 + j stores x_j + 3.
        let input = |k: u32| 100 + 10 * k as u64;
        let got = outputs(&p, 16, &input, 0);
        let want: Vec<u64> = (0..16u64)
            .map(|k| {
                if k < 8 {
                    100 + 10 * k + 1
                } else {
                    100 + 10 * (k - 8) + 3
                }
            })
            .collect();
        let stored: Vec<u64> = got.iter().map(|o| o[0].unwrap().bits).collect();
        assert_eq!(stored, want);
        assert_eq!(outputs(&halves(), 16, &input, 0), got);
    }

    #[test]
    fn the_first_half_mask_bug_loses_a_second_half_write_in_an_if() {
        // SIMD16: y = 5 in every lane; lanes with x >= 10 (lanes 10-15)
        // then set y = x + 100 in y's second GRF (a 2Q half, inside the
        // if); y is stored after the if.
        let text = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\nmov(16) g7<1>D 5D\ncmp.ge.f0.0(16) null<1>D g5<8,8,1>D 10D\n(+f0.0) if(16) JIP: L0 UIP: L0\nadd(8) g8<1>D g6<8,8,1>D 100D { align1 2Q };\nL0:\nendif(16) JIP: L1\nL1:\nsend(16) null g3 g7 st.b32 { align1 1H EOT };";
        let stored = |bugs: BugSet| -> Vec<u64> {
            let mut p = vprog(16, text, &[(3, 2), (5, 2), (7, 2)]);
            Spiller::default().spill(&mut p, &[2], bugs).unwrap();
            outputs(&p, 16, &|k| k as u64, 0)
                .iter()
                .map(|o| o[0].unwrap().bits)
                .collect()
        };
        let want: Vec<u64> = (0..16u64)
            .map(|k| if k >= 10 { k + 100 } else { 5 })
            .collect();
        assert_eq!(stored(BugSet::NONE), want);
        // The 2Q spill runs with lanes 0-7's mask: none of them is in the
        // if, so lanes 10-15 keep the 5 spilled before it.
        assert_eq!(
            stored(BugSet::NONE.with(Bug::SpillFirstHalfMask)),
            vec![5; 16]
        );
    }

    #[test]
    fn a_masked_fill_leaves_channels_the_reader_does_not_enable() {
        // SIMD8: a qword (two GRFs) read twice by one SIMD8 instruction:
        // each fill is a SIMD16 block. NoMask fills all sixteen dwords; with
        // spill-fill-without-nomask only dwords 0-7 (lanes 0-3's qwords).
        let text = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmov(8) g4<1>Q g3<8,8,1>D\nadd(8) g6<1>Q g4<4,4,1>Q g4<4,4,1>Q\nmov(8) g8<1>D g6<8,4,2>D\nsend(8) null g2 g8 st.b32 { align1 1Q EOT };";
        let vg = [(2, 1), (3, 1), (4, 2), (6, 2), (8, 1)];
        let input = |k: u32| 1000 + k as u64;
        let stored = |bugs: BugSet| -> Vec<u64> {
            let mut p = vprog(8, text, &vg);
            Spiller::default().spill(&mut p, &[2], bugs).unwrap();
            // The write is spilled as two one-GRF blocks (SIMD8 spills at
            // most one GRF per message) after a one-GRF NoMask fill each
            // (a qword is not the message's dword channels); the read is
            // one two-GRF fill.
            let fills: Vec<(u8, bool)> = p
                .insts
                .iter()
                .filter(|i| matches!(i.msg, Some(Message::ScratchRead { .. })))
                .map(|i| (i.exec_size, i.we_all))
                .collect();
            let masked = (16, bugs.is_empty());
            assert_eq!(fills, [(8, true), (8, true), masked, masked]);
            outputs(&p, 8, &input, 0)
                .iter()
                .map(|o| o[0].unwrap().bits)
                .collect()
        };
        let want: Vec<u64> = (0..8u64).map(|k| 2 * (1000 + k)).collect();
        assert_eq!(stored(BugSet::NONE), want);
        let buggy = stored(BugSet::NONE.with(Bug::SpillFillWithoutNomask));
        assert_eq!(buggy[..4], want[..4]);
        assert_ne!(buggy[4..], want[4..]);
    }

    #[test]
    fn a_qword_load_is_spilled_whole_not_per_channel() {
        // A SIMD8 64-bit load writes two GRFs, a qword per channel: not
        // the message's dword channels, so the spill is NoMask after a
        // fill. Only lanes 0 and 1 run: a per-channel spill would keep
        // dwords 0-1 alone and lose lane 1's qword.
        let text = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b64\nmov(8) g5<1>D g3<8,4,2>D\nsend(8) null g2 g5 st.b32 { align1 1Q EOT };";
        let vg = [(2, 1), (3, 2), (5, 1)];
        let mut p = vprog(8, text, &vg);
        Spiller::default()
            .spill(&mut p, &[1], BugSet::NONE)
            .unwrap();
        let spills: Vec<(u8, bool)> = p
            .insts
            .iter()
            .filter(|i| matches!(i.msg, Some(Message::ScratchWrite { .. })))
            .map(|i| (i.exec_size, i.we_all))
            .collect();
        assert_eq!(spills, [(8, true), (8, true)]);
        let input = |k: u32| 0x7000_0000_0000_0000 | (0x100 + k as u64);
        let stored: Vec<u64> = outputs(&p, 2, &input, 0)
            .iter()
            .map(|o| o[0].unwrap().bits)
            .collect();
        assert_eq!(stored, [0x100, 0x101]);
    }

    #[test]
    fn a_load_into_its_own_address_register_renames_both_roles() {
        // g3 is the load's address and its destination.
        let text = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nmov(8) g3<1>UD g2<8,8,1>UD\nsend(8) g3 g3 ld.b32\nsend(8) null g2 g3 st.b32 { align1 1Q EOT };";
        let mut p = vprog(8, text, &[(2, 1), (3, 1)]);
        Spiller::default()
            .spill(&mut p, &[1], BugSet::NONE)
            .unwrap();
        let load = p
            .insts
            .iter()
            .find(|i| matches!(i.msg, Some(Message::Load { .. })));
        let Some(Message::Load { dst, addr, .. }) = load.and_then(|i| i.msg) else {
            panic!("no load")
        };
        // Both are temporaries now, and different ones (a fill, a spill).
        assert!(dst > 3 && addr > 3 && dst != addr, "{}", p.text_compact());
        let input = |k: u32| 500 + k as u64;
        let stored: Vec<u64> = outputs(&p, 8, &input, 0)
            .iter()
            .map(|o| o[0].unwrap().bits)
            .collect();
        assert_eq!(stored, (500..508).collect::<Vec<u64>>());
    }

    #[test]
    fn a_write_starting_inside_a_register_is_partial() {
        // v = g7-g8 holds 5s and 6s; mov(8) g7.4 writes g7 dwords 4-7 and
        // g8 dwords 0-3 with x. Lane k stores g7[k] + g8[k]: 5 + x_(k+4)
        // for k < 4, x_(k-4) + 6 after.
        let text = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmov(8) g7<1>D 5D\nmov(8) g8<1>D 6D\nmov(8) g7.4<1>D g3<8,8,1>D\nadd(8) g9<1>D g7<8,8,1>D g8<8,8,1>D\nsend(8) null g2 g9 st.b32 { align1 1Q EOT };";
        let mut p = vprog(8, text, &[(2, 1), (3, 1), (7, 2), (9, 1)]);
        Spiller::default()
            .spill(&mut p, &[2], BugSet::NONE)
            .unwrap();
        let input = |k: u32| 10 * k as u64;
        let stored: Vec<u64> = outputs(&p, 8, &input, 0)
            .iter()
            .map(|o| o[0].unwrap().bits)
            .collect();
        let want: Vec<u64> = (0..8u64)
            .map(|k| {
                if k < 4 {
                    5 + 10 * (k + 4)
                } else {
                    10 * (k - 4) + 6
                }
            })
            .collect();
        assert_eq!(stored, want);
    }

    #[test]
    fn costs_weight_loops_by_ten_and_ifs_by_a_half() {
        // v (g3) is written once outside (1), read in the loop (10) and
        // in an if inside the loop (5); w (g4) is written in the if (5).
        let text = "mov(8) g3<1>D 1D\nL0:\nadd(8) g5<1>D g3<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g5<8,8,1>D 3D\n(+f0.0) if(8) JIP: L1 UIP: L1\nadd(8) g4<1>D g3<8,8,1>D 2D\nL1:\nendif(8) JIP: L2\nL2:\n(+f0.0) while(8) JIP: L0";
        let p = vprog(8, text, &[(3, 1), (4, 1), (5, 1)]);
        assert_eq!(spill_costs(&p), vec![1.0 + 10.0 + 5.0, 5.0, 20.0]);
    }

    #[test]
    fn choose_skips_spill_temporaries_and_one_instruction_values() {
        let p = halves();
        let iv = vec![Some((0, 4)), Some((1, 2)), Some((2, 3))];
        let cost = spill_costs(&p);
        // vgrf 1 lives 1 instruction (log 1 = 0: spilling cannot help).
        assert_eq!(choose(&p, &iv, &[1], usize::MAX, &cost), None);
        // vgrf 2 is past no_spill_from.
        assert_eq!(choose(&p, &iv, &[1, 2], 2, &cost), None);
        assert_eq!(choose(&p, &iv, &[0, 1], 2, &cost), Some(0));
    }
}
