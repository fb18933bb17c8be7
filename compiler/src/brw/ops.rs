//! Operand footprints shared by the EU analyses and passes: exactly which
//! bytes of the (virtual) register file and which flag bytes an instruction
//! reads and writes, and whether a write kills what was there before.
//!
//! GRF footprints are lists of `(register, byte mask)` pairs (bit b of the
//! mask = byte b of the 32-byte register). The flag file (f0, f1 = 64 bits)
//! is tracked per **flag byte** (8 channels): bit k of a `u8` flag mask is
//! byte k, so f0.0 = bits 0–1, f0.1 = bits 2–3, f1.0 = 4–5, f1.1 = 6–7.
//!
//! Reads are classified as *lane* reads (a masked instruction reading each
//! of its channels' own elements) or *raw* reads (anything that may look at
//! the bytes of channels that are not enabled: NoMask readers, scalar or
//! repeating regions, exec size 1, horizontal any/all predicates, flags read
//! as data). Writes kill either nothing (predicated, partial), the *lane*
//! view (masked full writes: every enabled channel is written, disabled
//! channels keep their old bytes) or everything (NoMask full writes). See
//! `liveness.rs` for how the two views are combined.

use eu::{Dst, DstKind, Instruction, Message, Opcode, PredMode, Region, Src, SrcKind};

pub use super::known::{footprints, inst_valid, instruction_ok, shared_access, Footprints};
use crate::vir::GRF_BYTES;
use smallvec::SmallVec;

/// Which liveness views a write kills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    /// A partial or predicated write: kills nothing.
    None,
    /// A masked full write: kills the lane view only.
    Lane,
    /// A NoMask full write: kills both views.
    Full,
}

/// One GRF read: `mask` bytes of register `reg`; `raw` when it may read
/// bytes of channels that are not enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrfRead {
    /// Register number.
    pub reg: u32,
    /// Byte mask within the register.
    pub mask: u32,
    /// Raw (cross-lane / NoMask) rather than lane read.
    pub raw: bool,
}

/// GRF bytes as `(register, mask)` pairs, one per register touched (most
/// operands touch one or two registers: kept inline up to four).
pub type Footprint = SmallVec<[(u32, u32); 4]>;

/// Everything an instruction reads and writes.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// GRF reads (sources, message address and data payloads).
    pub reads: SmallVec<[GrfRead; 4]>,
    /// GRF bytes possibly written, as `(register, mask)`.
    pub writes: Footprint,
    /// What the GRF write kills (meaningless when `writes` is empty).
    pub kill: Option<Kill>,
    /// Flag bytes read by a masked normal predicate.
    pub flag_lane_reads: u8,
    /// Flag bytes read raw (NoMask or any/all predicates, flag sources).
    pub flag_raw_reads: u8,
    /// Flag bytes possibly written (cmod or flag destination).
    pub flag_writes: u8,
    /// Flag bytes written with a lane kill.
    pub flag_kill_lane: u8,
    /// Flag bytes written with a full kill.
    pub flag_kill_full: u8,
}

/// A copy made a slice at a time (the derived `Clone` of a `SmallVec`
/// clones element by element).
impl Clone for Access {
    fn clone(&self) -> Access {
        Access {
            reads: SmallVec::from_slice(&self.reads),
            writes: SmallVec::from_slice(&self.writes),
            ..*self
        }
    }
}

/// Absolute byte offset of every channel's element of a GRF source.
pub fn src_offsets(s: &Src, exec: u8) -> Option<Offsets> {
    let SrcKind::Grf { nr, sub } = s.kind else {
        return None;
    };
    let size = s.ty.size();
    Some(region_offsets_iter(nr * GRF_BYTES + sub * size, s.region, size, exec).collect())
}

/// Byte offsets of an operand's channels' elements (at most 32 channels:
/// kept inline).
pub type Offsets = SmallVec<[u32; 32]>;

/// Byte offsets of `exec` elements of `size` bytes read through `r` from `start`.
pub fn region_offsets(start: u32, r: Region, size: u32, exec: u8) -> Vec<u32> {
    region_offsets_iter(start, r, size, exec).collect()
}

/// The byte offset of channel `c`'s element read through `r` from `start`.
fn region_offset(start: u32, r: Region, size: u32, c: u32) -> u32 {
    let (row, col) = Region::row_col(u64::from(c), u64::from(r.w.max(1)));
    start + (row as u32 * r.v as u32 + col as u32 * r.h as u32) * size
}

/// [`region_offsets`], one channel at a time.
fn region_offsets_iter(start: u32, r: Region, size: u32, exec: u8) -> impl Iterator<Item = u32> {
    (0..exec as u32).map(move |c| region_offset(start, r, size, c))
}

/// The byte offset of every channel's element of source `k` of `i`, as
/// the hardware reads it: Align1 through the region, Align16 (channel c is
/// component c % 4 of vertex c / 4) through the vertical stride and the
/// swizzle.
fn src_offsets_of(i: &Instruction, k: usize, start: u32, size: u32) -> impl Iterator<Item = u32> {
    let r = i.srcs[k].region;
    let swizzle = i.swizzle(k);
    (0..i.exec_size as u32).map(move |c| match swizzle {
        Some(swz) => start + ((c / 4) * r.v as u32 + swz.get(c as usize % 4) as u32) * size,
        None => region_offset(start, r, size, c),
    })
}

/// Absolute byte offset of every channel's element of a GRF destination.
pub fn dst_offsets(d: &Dst, exec: u8) -> Option<Offsets> {
    let DstKind::Grf { nr, sub } = d.kind else {
        return None;
    };
    let size = d.ty.size();
    let (start, stride) = (nr * GRF_BYTES + sub * size, d.stride as u32);
    Some(
        (0..exec as u32)
            .map(|c| start + c * stride * size)
            .collect(),
    )
}

/// Adds the bytes `[off, off + size)` to a footprint list (a register's
/// pair is appended the first time one of its bytes is added).
pub fn add_bytes(out: &mut Footprint, off: u32, size: u32) {
    let end = off + size;
    let mut b = off;
    // One mask per register the range touches, not one step per byte.
    while b < end {
        let reg = b / GRF_BYTES;
        let lo = b % GRF_BYTES;
        let hi = (end - reg * GRF_BYTES).min(GRF_BYTES);
        let n = hi - lo;
        let mask = if n >= 32 {
            u32::MAX
        } else {
            ((1u32 << n) - 1) << lo
        };
        add_mask(out, reg, mask);
        b = reg * GRF_BYTES + hi;
    }
}

/// Adds the bytes `mask` of register `reg` to `out`. Ranges come mostly in
/// increasing order: the last register is looked at first.
fn add_mask(out: &mut Footprint, reg: u32, mask: u32) {
    match out.last_mut() {
        Some((r, m)) if *r == reg => *m |= mask,
        _ => match out.iter_mut().find(|(r, _)| *r == reg) {
            Some((_, m)) => *m |= mask,
            None => out.push((reg, mask)),
        },
    }
}

/// The byte step between consecutive channels' elements read through `r`
/// at `exec` channels, when every channel's element follows the last one's
/// by the same step (the rows continue each other, or there is one row).
fn linear_step(r: Region, size: u32, exec: u8) -> Option<u32> {
    let w = (r.w as u32).max(1);
    (r.v as u32 == w * r.h as u32 || exec as u32 <= w).then_some(r.h as u32 * size)
}

/// The footprint of `count` elements of `size` bytes at `start + c * step`
/// (one byte range when the elements touch, one element when they
/// coincide).
fn strided_footprint(start: u32, count: u32, step: u32, size: u32) -> Footprint {
    let mut out = Footprint::new();
    if step == size || count == 1 {
        add_bytes(&mut out, start, count * size);
    } else if step == 0 {
        add_bytes(&mut out, start, size);
    } else if start.is_multiple_of(size)
        && step.is_multiple_of(size)
        && GRF_BYTES.is_multiple_of(size)
    {
        // Size-aligned elements, in increasing order: each lies in one
        // register, the last one's or a later one.
        let bytes = ((1u64 << size) - 1) as u32;
        for c in 0..count {
            let b = start + c * step;
            let (reg, mask) = (b / GRF_BYTES, bytes << (b % GRF_BYTES));
            match out.last_mut() {
                Some((r, m)) if *r == reg => *m |= mask,
                _ => out.push((reg, mask)),
            }
        }
    } else {
        for c in 0..count {
            add_bytes(&mut out, start + c * step, size);
        }
    }
    out
}

/// The footprint of elements of `size` bytes at `offsets`.
pub fn footprint(offsets: &[u32], size: u32) -> Footprint {
    footprint_of(offsets.iter().copied(), size)
}

/// The footprint of elements of `size` bytes at the offsets `offsets`
/// yields (without collecting them first).
fn footprint_of(offsets: impl Iterator<Item = u32>, size: u32) -> Footprint {
    let mut out = Footprint::new();
    for o in offsets {
        add_bytes(&mut out, o, size);
    }
    out
}

/// Whether two footprints share a byte.
pub fn overlaps(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter()
        .any(|&(r, m)| b.iter().any(|&(r2, m2)| r == r2 && m & m2 != 0))
}

/// Whether footprint `a` lies entirely inside `b`.
pub fn covered_by(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter().all(|&(r, m)| {
        b.iter()
            .filter(|(r2, _)| *r2 == r)
            .fold(0, |acc, (_, m2)| acc | m2)
            & m
            == m
    })
}

/// GRF footprint of a source (empty for immediates, null and flags).
pub fn src_footprint(s: &Src, exec: u8) -> Footprint {
    let SrcKind::Grf { nr, sub } = s.kind else {
        return Footprint::new();
    };
    let size = s.ty.size();
    let start = nr * GRF_BYTES + sub * size;
    match linear_step(s.region, size, exec) {
        Some(step) => strided_footprint(start, exec as u32, step, size),
        None => footprint_of(region_offsets_iter(start, s.region, size, exec), size),
    }
}

/// GRF footprint of a destination (empty for null and flags).
pub fn dst_footprint(d: &Dst, exec: u8) -> Footprint {
    let DstKind::Grf { nr, sub } = d.kind else {
        return Footprint::new();
    };
    let size = d.ty.size();
    let (start, step) = (nr * GRF_BYTES + sub * size, d.stride as u32 * size);
    strided_footprint(start, exec as u32, step, size)
}

/// Flag bytes of the channel bits `[lo, hi)` of the 64-bit flag file.
pub fn flag_bytes(lo: u32, hi: u32) -> u8 {
    let mut m = 0u8;
    for bit in lo..hi.min(64) {
        m |= 1 << (bit / 8);
    }
    m
}

/// Flag bytes fully covered by the channel bits `[lo, hi)`.
fn flag_bytes_full(lo: u32, hi: u32) -> u8 {
    let mut m = 0u8;
    for byte in 0..8 {
        if lo <= byte * 8 && byte * 8 + 8 <= hi {
            m |= 1 << byte;
        }
    }
    m
}

/// The flag bits `[lo, hi)` an instruction's predicate or cmod uses.
pub fn flag_channel_bits(i: &Instruction) -> (u32, u32) {
    let base = 32 * i.flag.nr as u32 + 16 * i.flag.sub as u32;
    (
        base + i.group as u32,
        base + i.group as u32 + i.exec_size as u32,
    )
}

fn flag_operand_bytes(nr: u8, sub: u8, ty: eu::RegType, offs: &[u32]) -> u8 {
    let base = nr as u32 * 4 + sub as u32 * ty.size();
    let mut m = 0u8;
    for &o in offs {
        for b in base + o..base + o + ty.size() {
            if b < 8 {
                m |= 1 << b;
            }
        }
    }
    m
}

/// Whether the instruction is a predicated SEL (which writes every enabled
/// channel, so it is not a partial write).
pub fn is_pred_sel(i: &Instruction) -> bool {
    i.op == Opcode::Sel && i.pred.is_some()
}

/// The complete read/write footprint of an instruction.
pub fn access(i: &Instruction) -> Access {
    let mut a = Access::default();
    let exec = i.exec_size;
    // Predicate.
    if let Some(p) = i.pred {
        let (lo, hi) = flag_channel_bits(i);
        match p.mode {
            PredMode::Normal if !i.we_all => a.flag_lane_reads |= flag_bytes(lo, hi),
            PredMode::Normal => a.flag_raw_reads |= flag_bytes(lo, hi),
            // A replicate predicate (Align16, which the scalar backend
            // never emits) reads one bit of each vertex's four: within the
            // groups any4h reads.
            PredMode::Any(_) | PredMode::All(_) | PredMode::Replicate(_) => {
                let n = match p.mode {
                    PredMode::Any(n) | PredMode::All(n) => n as u32,
                    _ => 4,
                };
                let base = lo - i.group as u32;
                let g0 = i.group as u32 / n * n;
                let g1 = (i.group as u32 + exec as u32 - 1) / n * n + n;
                a.flag_raw_reads |= flag_bytes(base + g0, base + g1);
            }
        }
    }
    // Sources.
    for (k, s) in i.srcs.iter().enumerate() {
        match s.kind {
            SrcKind::Grf { nr, sub } => {
                // The footprint and lane regularity in one walk over the
                // channels (as `footprint` and `lane_regular` would).
                let size = s.ty.size();
                let start = nr * GRF_BYTES + sub * size;
                let linear = linear_step(s.region, size, exec).filter(|_| i.align16.is_none());
                let (fp, increasing) = match linear {
                    Some(step) => (
                        strided_footprint(start, exec as u32, step, size),
                        exec > 1 && step > 0,
                    ),
                    None => {
                        let mut fp = Footprint::new();
                        let mut increasing = exec > 1;
                        let mut prev = None;
                        for o in src_offsets_of(i, k, start, size) {
                            increasing &= prev.is_none_or(|p| o > p);
                            prev = Some(o);
                            add_bytes(&mut fp, o, size);
                        }
                        (fp, increasing)
                    }
                };
                // Align16 (SIMD4x2): a swizzle reads other components of
                // the channel's own vertex, whose channels vec4 code enables
                // and disables together (every IF and loop condition is
                // replicated over a vertex's components), so a read of the
                // vertex's own row (vertical stride 4) is a lane read; one
                // of another row (vertical stride 0: vertex 0's) is raw.
                let lane = match i.align16 {
                    Some(_) => exec > 1 && s.region.v == 4,
                    None => increasing,
                };
                let raw = i.we_all || !lane;
                for (reg, mask) in fp {
                    a.reads.push(GrfRead { reg, mask, raw });
                }
            }
            SrcKind::Flag { nr, sub } => {
                let offs = region_offsets(0, s.region, s.ty.size(), exec);
                a.flag_raw_reads |= flag_operand_bytes(nr, sub, s.ty, &offs);
            }
            SrcKind::Imm(_) | SrcKind::Null => {}
        }
    }
    let full_kill = if i.we_all { Kill::Full } else { Kill::Lane };
    // Messages.
    if let Some(msg) = i.msg {
        let per_lane = |reg: u32, stride: u32, size: u32| -> Footprint {
            let offs: Vec<u32> = (0..exec as u32)
                .map(|c| reg * GRF_BYTES + c * stride)
                .collect();
            footprint(&offs, size)
        };
        let mut read = |fp: Footprint| {
            for (reg, mask) in fp {
                a.reads.push(GrfRead {
                    reg,
                    mask,
                    raw: i.we_all,
                });
            }
        };
        match msg {
            Message::Load { size, dst, addr } => {
                read(per_lane(addr, 4, 4));
                let pb = size.payload_bytes();
                a.writes = per_lane(dst, pb, pb);
                a.kill = Some(if i.pred.is_some() {
                    Kill::None
                } else {
                    full_kill
                });
            }
            Message::Store { size, addr, data } => {
                read(per_lane(addr, 4, 4));
                read(per_lane(data, size.payload_bytes(), size.bytes()));
            }
            Message::End { .. } => {}
            Message::ScratchRead { dst, header } => {
                // The header is read whole by the message, not per channel.
                a.reads.push(GrfRead {
                    reg: header,
                    mask: 0xf00,
                    raw: true,
                });
                a.writes = per_lane(dst, 4, 4);
                a.kill = Some(if i.pred.is_some() {
                    Kill::None
                } else {
                    full_kill
                });
            }
            Message::ScratchWrite { header, data } => {
                read(per_lane(data, 4, 4));
                a.reads.push(GrfRead {
                    reg: header,
                    mask: 0xf00,
                    raw: true,
                });
            }
        }
    }
    // Destination.
    let unpred = i.pred.is_none() || is_pred_sel(i);
    match i.dst.kind {
        DstKind::Grf { nr, sub } if i.op.has_dst() && i.align16.is_some() => {
            // Align16: vertex v's component k at byte 16v + 4k of the
            // destination (stride 1), for the components in the writemask;
            // the write kills exactly those bytes.
            let size = i.dst.ty.size();
            let start = nr * GRF_BYTES + sub * size;
            let on = i.writemask_channels().unwrap_or(u32::MAX);
            a.writes = footprint_of(
                (0..exec as u32)
                    .filter(|c| on >> c & 1 == 1)
                    .map(|c| start + c * size),
                size,
            );
            a.kill = Some(if unpred { full_kill } else { Kill::None });
        }
        DstKind::Grf { .. } if i.op.has_dst() => {
            a.writes = dst_footprint(&i.dst, exec);
            a.kill = Some(if unpred { full_kill } else { Kill::None });
        }
        DstKind::Flag { nr, sub } if i.op.has_dst() => {
            let offs: Vec<u32> = (0..exec as u32)
                .map(|c| c * i.dst.stride as u32 * i.dst.ty.size())
                .collect();
            let bytes = flag_operand_bytes(nr, sub, i.dst.ty, &offs);
            a.flag_writes |= bytes;
            if i.pred.is_none() && i.we_all {
                a.flag_kill_full |= bytes;
            }
        }
        _ => {}
    }
    if i.writes_flag() {
        let (lo, hi) = flag_channel_bits(i);
        a.flag_writes |= flag_bytes(lo, hi);
        // A writemask leaves the other components' flag bits as they were.
        let whole = i.align16.is_none_or(|a| a.writemask == 0xf);
        if i.pred.is_none() && exec >= 8 && whole {
            let full = flag_bytes_full(lo, hi);
            if i.we_all {
                a.flag_kill_full |= full;
            } else {
                a.flag_kill_lane |= full;
            }
        }
    }
    a
}

/// Candidate `(register, subregister, region)` triples reading `exec =
/// offsets.len()` elements of `size` bytes at exactly the byte `offsets`,
/// most natural first (the validator decides which are legal).
pub fn regions_for(offsets: &[u32], size: u32) -> Vec<(u32, u32, Region)> {
    let Some(&o0) = offsets.first() else {
        return vec![];
    };
    if o0 % size != 0 {
        return vec![];
    }
    let (nr, sub) = (o0 / GRF_BYTES, (o0 % GRF_BYTES) / size);
    let exec = offsets.len();
    if offsets.iter().all(|&o| o == o0) {
        return vec![(nr, sub, Region::SCALAR)];
    }
    // Channel 1 is the first row's second element (width 2 and more) or
    // the second row's first (width 1), and channel w the second row's
    // first: a candidate whose step there is another cannot match, and is
    // passed over without its offsets.
    let step = |c: usize| i64::from(offsets[c]) - i64::from(o0);
    let steps = |n: u8| i64::from(n) * i64::from(size);
    let mut out = Vec::new();
    for w in [8u8, 16, 4, 2, 1] {
        if w as usize > exec {
            continue;
        }
        for h in [1u8, 2, 4, 0] {
            if w >= 2 && step(1) != steps(h) {
                continue;
            }
            let others = [0u8, 1, 2, 4, 8, 16, 32]
                .into_iter()
                .filter(|&v| v != w * h);
            for v in std::iter::once(w * h).chain(others) {
                if (w as usize) < exec && step(w as usize) != steps(v) {
                    continue;
                }
                let r = Region::new(v, w, h);
                // Compared channel by channel: most candidates differ at
                // the first row's end.
                if region_offsets_iter(o0, r, size, exec as u8).eq(offsets.iter().copied())
                    && !out.iter().any(|x: &(u32, u32, Region)| x.2 == r)
                {
                    out.push((nr, sub, r));
                }
            }
        }
    }
    out
}

/// Whether `i`'s two sources may be swapped without changing the result:
/// a commutative opcode (the opcode table), or a SEL used as min/max (MAD's
/// multiplicands are not handled here).
pub fn is_commutative(i: &Instruction) -> bool {
    i.op.is_commutative() || (i.op == Opcode::Sel && i.pred.is_none() && i.cmod.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use eu::{parse_program, MachineConfig};

    fn inst(t: &str) -> Instruction {
        parse_program(t).unwrap().insts.remove(0)
    }

    /// Every candidate region, tried channel by channel in order (what
    /// `regions_for` does without passing over candidates by their steps).
    fn regions_for_by_trying_each(offsets: &[u32], size: u32) -> Vec<(u32, u32, Region)> {
        let o0 = offsets[0];
        let (nr, sub) = (o0 / GRF_BYTES, (o0 % GRF_BYTES) / size);
        let mut out = Vec::new();
        for w in [8u8, 16, 4, 2, 1] {
            for h in [1u8, 2, 4, 0] {
                let others = [0u8, 1, 2, 4, 8, 16, 32]
                    .into_iter()
                    .filter(|&v| v != w * h);
                for v in std::iter::once(w * h).chain(others) {
                    let r = Region::new(v, w, h);
                    if w as usize <= offsets.len()
                        && region_offsets_iter(o0, r, size, offsets.len() as u8)
                            .eq(offsets.iter().copied())
                        && !out.iter().any(|x: &(u32, u32, Region)| x.2 == r)
                    {
                        out.push((nr, sub, r));
                    }
                }
            }
        }
        out
    }

    /// The candidates passed over by their steps are only ones that do not
    /// match: the same regions, in the same order, for the offsets of
    /// every region at every execution size and element size, and for
    /// those offsets with one channel moved.
    #[test]
    fn regions_passed_over_by_their_steps_would_not_have_matched() {
        let (mut lists, mut found) = (0, 0);
        for size in [1u32, 2, 4, 8] {
            for exec in [2u8, 4, 8, 16, 32] {
                for w in [1u8, 2, 4, 8, 16] {
                    for h in [0u8, 1, 2, 4] {
                        for v in [0u8, 1, 2, 4, 8, 16, 32] {
                            let start = 4 * GRF_BYTES + 2 * size;
                            let offs: Vec<u32> =
                                region_offsets_iter(start, Region::new(v, w, h), size, exec)
                                    .collect();
                            if offs.iter().all(|&o| o == start) {
                                continue;
                            }
                            for moved in [
                                None,
                                Some(1usize),
                                Some(w as usize),
                                Some(exec as usize - 1),
                            ] {
                                let mut offs = offs.clone();
                                if let Some(c) = moved.filter(|&c| c < offs.len()) {
                                    offs[c] += size;
                                }
                                let want = regions_for_by_trying_each(&offs, size);
                                assert_eq!(regions_for(&offs, size), want, "{offs:?} size {size}");
                                lists += 1;
                                found += want.len();
                            }
                        }
                    }
                }
            }
        }
        assert!(
            lists > 9_000 && found > lists,
            "{found} regions for {lists} lists"
        );
    }

    #[test]
    fn footprints_of_regions() {
        // SIMD16 D over g10-g11.
        let a = access(&inst("add(16) g10<1>D g12<8,8,1>D 1D"));
        assert_eq!(a.writes[..], [(10, u32::MAX), (11, u32::MAX)]);
        assert_eq!(
            a.reads[..],
            [
                GrfRead {
                    reg: 12,
                    mask: u32::MAX,
                    raw: false
                },
                GrfRead {
                    reg: 13,
                    mask: u32::MAX,
                    raw: false
                }
            ]
        );
        assert_eq!(a.kill, Some(Kill::Lane));
        // Stride-2 words: low halves of every dword.
        let a = access(&inst("mov(8) g10<2>W g12<16,8,2>W { align1 WE_all 1Q };"));
        assert_eq!(a.writes[..], [(10, 0x3333_3333)]);
        assert_eq!(a.kill, Some(Kill::Full));
        assert!(a.reads[0].raw);
        // Scalar read is raw; predicated write kills nothing.
        let a = access(&inst("(+f0.0) add(8) g10<1>D g12.2<0,1,0>D 1D"));
        assert_eq!(
            a.reads[..],
            [GrfRead {
                reg: 12,
                mask: 0xf00,
                raw: true
            }]
        );
        assert_eq!(a.kill, Some(Kill::None));
        assert_eq!(a.flag_lane_reads, 0b1);
    }

    /// The footprint of elements of `size` bytes at `offsets`, a byte at a
    /// time: each register in the order its first byte comes.
    fn bytewise(offsets: &[u32], size: u32) -> Footprint {
        let mut out: Footprint = Footprint::new();
        for b in offsets.iter().flat_map(|&o| o..o + size) {
            let (reg, bit) = (b / GRF_BYTES, 1u32 << (b % GRF_BYTES));
            match out.iter().position(|e| e.0 == reg) {
                Some(k) => out[k].1 |= bit,
                None => out.push((reg, bit)),
            }
        }
        out
    }

    #[test]
    fn footprints_of_linear_regions_are_those_of_their_elements() {
        // Every region shape, width, type size and start within a register:
        // the footprint taken as one range (or one element) must be the
        // one built element by element from the region's offsets, and the
        // source a lane read exactly when the offsets strictly increase.
        use eu::RegType;
        let types = [RegType::UB, RegType::W, RegType::D, RegType::DF];
        let (mut linear, mut other) = (0, 0);
        for v in [0u8, 1, 2, 4, 8, 16] {
            for w in [1u8, 2, 4, 8, 16] {
                for h in [0u8, 1, 2, 4] {
                    for exec in [1u8, 2, 4, 8, 16, 32] {
                        for ty in types {
                            let size = ty.size();
                            for sub in [0, 1, 32 / size - 1] {
                                let r = Region { v, w, h };
                                let start = 20 * GRF_BYTES + sub * size;
                                let offs = region_offsets(start, r, size, exec);
                                let want = bytewise(&offs, size);
                                assert_eq!(footprint(&offs, size), want, "{r:?} {exec} {ty:?}");
                                let src = Src::grf(20, sub, ty, r);
                                assert_eq!(src_footprint(&src, exec), want, "{r:?} {exec} {ty:?}");
                                let mut i = Instruction::new(Opcode::Mov, exec);
                                i.dst = Dst::grf(40, 0, ty, 1);
                                i.srcs = eu::Srcs::from_slice(&[src]);
                                let a = access(&i);
                                let reads: Vec<(u32, u32)> =
                                    a.reads.iter().map(|g| (g.reg, g.mask)).collect();
                                assert_eq!(reads[..], want[..], "{r:?} {exec} {ty:?}");
                                let increasing = exec > 1 && offs.windows(2).all(|p| p[0] < p[1]);
                                assert!(a.reads.iter().all(|g| g.raw != increasing));
                                match linear_step(r, size, exec) {
                                    Some(_) => linear += 1,
                                    None => other += 1,
                                }
                            }
                        }
                    }
                }
            }
        }
        // Both paths were taken.
        assert!(linear > 0 && other > 0, "{linear} {other}");
        // Destinations at every stride.
        for stride in [1u8, 2, 4] {
            for exec in [1u8, 8, 16, 32] {
                for ty in types {
                    let size = ty.size();
                    let d = Dst::grf(40, 1, ty, stride);
                    let offs: Vec<u32> = (0..exec as u32)
                        .map(|c| 40 * GRF_BYTES + size + c * stride as u32 * size)
                        .collect();
                    assert_eq!(dst_footprint(&d, exec), bytewise(&offs, size));
                }
            }
        }
    }

    #[test]
    fn flag_footprints() {
        let a = access(&inst("cmp.l.f0.1(16) null<1>D g2<8,8,1>D 0D"));
        assert_eq!(
            (a.flag_writes, a.flag_kill_lane, a.flag_kill_full),
            (0b1100, 0b1100, 0)
        );
        let a = access(&inst(
            "cmp.l.f1.0(8) null<1>D g2<8,8,1>D 0D { align1 WE_all 2Q };",
        ));
        assert_eq!(
            (a.flag_writes, a.flag_kill_lane, a.flag_kill_full),
            (0b10_0000, 0, 0b10_0000)
        );
        // exec 4 covers half a byte: no kill.
        let a = access(&inst("cmp.l.f0.0(4) null<1>D g2<4,4,1>D 0D"));
        assert_eq!((a.flag_writes, a.flag_kill_lane), (0b1, 0));
        let a = access(&inst("(+f0.0) cmp.l.f0.0(8) null<1>D g2<8,8,1>D 0D"));
        assert_eq!(
            (a.flag_writes, a.flag_kill_lane, a.flag_lane_reads),
            (0b1, 0, 0b1)
        );
        let a = access(&inst("(+f1.1.any16h) mov(16) g4<1>D 1D"));
        assert_eq!(a.flag_raw_reads, 0b1100_0000);
        let a = access(&inst("mov(1) f0.1<1>UW 0x0000UW { align1 WE_all 1N };"));
        assert_eq!((a.flag_writes, a.flag_kill_full), (0b1100, 0b1100));
        let a = access(&inst("mov(1) g4<1>UD f1.0<0,1,0>UD"));
        assert_eq!(a.flag_raw_reads, 0b1111_0000);
    }

    #[test]
    fn sends_and_helpers() {
        let a = access(&inst("send(8) g5 g4 ld.b64"));
        assert_eq!(a.writes[..], [(5, u32::MAX), (6, u32::MAX)]);
        assert_eq!(
            a.reads[..],
            [GrfRead {
                reg: 4,
                mask: u32::MAX,
                raw: false
            }]
        );
        let a = access(&inst("send(8) null g4 g6 st.b16"));
        assert_eq!(
            a.reads[1],
            GrfRead {
                reg: 6,
                mask: 0x3333_3333,
                raw: false
            }
        );
        assert!(covered_by(&[(3, 0xf)], &[(3, 0xff), (4, 1)]));
        assert!(!covered_by(&[(3, 0x1f0)], &[(3, 0xff)]));
        assert!(overlaps(&[(3, 0x10)], &[(3, 0xff)]));
        assert!(inst_valid(
            &inst("add(8) g10<1>D g12<8,8,1>D 1D"),
            &MachineConfig::GFX11
        ));
        // 16 packed dwords from g4: <8;8,1> first; stride-2 words.
        let offs: Vec<u32> = (0..16).map(|c| 128 + 4 * c).collect();
        assert_eq!(regions_for(&offs, 4)[0], (4, 0, Region::new(8, 8, 1)));
        let offs: Vec<u32> = (0..8).map(|c| 130 + 4 * c).collect();
        assert_eq!(regions_for(&offs, 2)[0], (4, 1, Region::new(16, 8, 2)));
        assert_eq!(regions_for(&[132; 8], 4), vec![(4, 1, Region::SCALAR)]);
        assert_eq!(regions_for(&[132], 4), vec![(4, 1, Region::SCALAR)]);
        assert!(regions_for(&[1, 5], 4).is_empty());
        assert!(!inst_valid(
            &inst("add(8) g10<1>D 1D g12<8,8,1>D"),
            &MachineConfig::GFX11
        ));
    }
}
