//! Boolean clean-up (seed 000: Iago Toral's 2018 pass, EU-MODEL §4).
//!
//! brw CMPs into a temporary of the comparison's source type, so a 16-bit
//! comparison makes a 16-bit boolean that lowering at once widens for its
//! 32-bit users with a sign-extending MOV:
//!
//! ```text
//! cmp.l.f0.0(8) g10<1>W g6<16,8,2>W g9<0,1,0>W
//! mov(8) g11<1>D g10<8,8,1>W
//! ```
//!
//! The pass propagates the narrow boolean N (`g10`) into the users of the
//! wide one X (`g11`) where that is exact, so that X is no longer read and
//! DCE removes the widening MOV. Booleans are 0 / all ones, so sign
//! extension and truncation are exact conversions between widths (0xFFFF
//! <-> 0xFFFFFFFF); zero extension (0xFFFF -> 0x0000FFFF) is not, and a
//! MOV reading N as UW is not taken.
//!
//! # Which MOVs
//! A **widening MOV** `mov X:D|UD, N:W` is unpredicated, masked (not
//! NoMask), without `.sat`, cmod or source modifiers, its source typed W
//! (signed: the conversion sign-extends) and a *narrow boolean* (below), its
//! destination inside one vgrf and written by no other instruction, not
//! overlapping its source. The MOV is all or nothing: either every reader
//! of X is rewritten or none is (a partial rewrite would keep both N and X
//! alive and gain nothing); readers that combine several widened booleans
//! tie their MOVs together, so the candidate set is shrunk to a fixpoint.
//! A candidate whose own source is a candidate's X waits for the next run.
//!
//! **Narrow boolean.** Every element N's reader reads lies inside an element
//! that each instruction writing any of its bytes leaves 0 or all ones:
//! a CMP/CMPN (all of its destination element; only the low dword of a
//! 64-bit one, whose upper dword is undefined); a MOV of 0 / all ones or of
//! a boolean; an AND/OR/XOR/NOT or predicated SEL of booleans and 0 / all
//! ones immediates (no `.sat`; a source narrower than the destination must
//! be signed, so that it sign-extends). The set of such instructions is the
//! greatest fixpoint (a loop-carried boolean is a boolean by induction; a
//! channel that reads a register before any write reads undefined data,
//! which the IR never does). Elements nobody writes are not booleans.
//!
//! **Where N is still N.** As in copy propagation: readers later in the
//! MOV's block up to the first instruction that overwrites a byte of N; or,
//! when N is *pinned* (written only by masked instructions earlier in the
//! block, channel for channel, e.g. the CMP just before), readers anywhere
//! except between N's first writer in the block and the MOV. Any other
//! reader of X refuses the MOV.
//!
//! # The rewrites (each exact)
//! Write n for N's element and x = sext(n) for X's. A reader's source that
//! reads X is rewritten element by element (reader channel c reads X
//! element i(c), which came from N element i(c)); the region is searched
//! for and the rewritten instruction must pass the validator.
//!
//! 1. **Low word** (any instruction): a W/UW read of the low word of X's
//!    elements reads N's element with the same type. The bits are the same
//!    (truncation of a sign extension).
//! 2. **Test** (flag only): `mov.c null, X` (no `.sat`) and
//!    `cmp.c null, X, 0` with no source modifiers become
//!    `mov.c null:W, N` and `cmp.c null:W, N, 0:W`. Sign extension keeps
//!    zero-ness, so `.z`/`.nz` are exact for any type; it also keeps the
//!    signed value, so `.l .le .g .ge` are exact when X is read as D (not
//!    as UD, where 0xFFFFFFFF > 0 but 0xFFFF as W < 0).
//! 3. **Full value** (b2i/b2f, store data, phi copies: a MOV with a GRF
//!    destination, no `.sat`, no `(abs)`): `mov d, [-]X` becomes
//!    `mov d, [-]N:W`. Read as D, x and n are the same integer, so the
//!    (negated) value and its conversion to any destination type are the
//!    same: -(-1) = 1 gives 1, 1.0, 1.0HF, ... Read as UD, x is 2^32 - 1 and
//!    the W read -1, equal modulo 2^32: taken only for an integer
//!    destination of at most 32 bits. The consumer does the sign extension
//!    that the MOV did, so a phi copy still writes a full 32-bit boolean
//!    and the phi's storage never mixes widths.
//! 4. **Combine** (AND, OR, XOR, NOT, predicated SEL; no `.sat`; a D/UD
//!    destination): only when **every** GRF source reads a widened boolean
//!    whose MOV is rewritten too, immediates being 0 / all ones (they become
//!    `0:W` / `0xFFFF:W`); SEL sources without modifiers. All operands are
//!    then 16-bit booleans of the same width: the operation is done on W
//!    (NOT included: `~` of a boolean is a boolean) and its 0 / -1 result is
//!    sign-extended into the 32-bit destination, bit for bit what it was.
//!
//! 5. **Mixed** (only with `bool-cleanup=mixed`, seed 000's open question):
//!    a combine (AND, OR, XOR, NOT, predicated SEL without source
//!    modifiers; no `.sat`; a D/UD destination) whose other operands are
//!    not all widened booleans keeps them as they are and reads N as W: the
//!    execution type is D, and the hardware converts the W source to it by
//!    sign extension, which gives back X exactly, whatever the other
//!    operands hold. This is the form the thread argued for; the simulator
//!    decides whether the conversion holds (EU-MODEL §1.6, ISA.md §4).
//!
//! # Refusals
//! A widening MOV stays when any reader of X is none of the above: a
//! combine that also reads a boolean of another width (a native D CMP, the
//! low dword of a 64-bit CMP, a MOV that stays), which would mix sizes
//! (the open question of seed 000: canonicalize where sizes meet); a
//! negated SEL source; a relational test of X read as UD; a full-value
//! MOV from UD into a float or 64-bit destination; a SEND reading X; any
//! arithmetic reader; a reader out of N's reach (N overwritten in between,
//! or N not pinned and the reader in another block); a MOV whose source is
//! read as UW (zero extension), is not a boolean, or is predicated.

/// The pass's decision points (`crate::coverage`).
#[path = "bool_cleanup_cov.rs"]
pub mod cov;

use super::cfg::Cfg;
use super::copy_prop::source_pinned;
use super::ops::{
    dst_footprint, dst_offsets, footprints, inst_valid, overlaps, regions_for, src_footprint,
    src_offsets, Access, Footprint, Offsets,
};
use crate::bugs::{Bug, BugSet};
use crate::coverage::{hit, Point};
use crate::passes::PassCtx;
use crate::vir::{VProgram, GRF_BYTES};
use eu::{CondMod, DstKind, Instruction, MachineConfig, Opcode, RegType, Src, SrcKind};
use smallvec::SmallVec;

/// Which instructions write booleans, and where.
struct Bools {
    /// Per instruction: the byte intervals `(start, len)` of its write that
    /// hold 0 or all ones, when it is a boolean producer.
    elems: Vec<Option<Vec<(u32, u32)>>>,
    /// Per register: the instructions writing some byte of it.
    writers: Vec<SmallVec<[usize; 2]>>,
    /// Per instruction: its footprint (only the GRF writes are used).
    writes: super::ops::Footprints,
}

impl Bools {
    /// Every instruction that writes booleans when its sources are
    /// booleans taken for a producer (the fixpoint's start), and what each
    /// produces and reads.
    fn every_candidate(p: &VProgram) -> (Bools, Vec<Option<Producer>>) {
        let writes = footprints(&p.insts);
        let mut writers: Vec<SmallVec<_>> = std::iter::repeat_with(SmallVec::new)
            .take(p.reg_end() as usize)
            .collect();
        for (w, a) in writes.iter().enumerate() {
            for &(r, _) in &a.writes {
                if let Some(v) = writers.get_mut(r as usize) {
                    v.push(w);
                }
            }
        }
        let prod: Vec<Option<Producer>> = p.insts.iter().map(producer).collect();
        let b = Bools {
            elems: prod
                .iter()
                .map(|x| x.as_ref().map(|(e, _)| e.clone()))
                .collect(),
            writers,
            writes,
        };
        (b, prod)
    }

    /// Whether every element `s` reads at `exec` channels is a boolean.
    fn read(&self, s: &Src, exec: u8) -> bool {
        let Some(offs) = src_offsets(s, exec) else {
            return false;
        };
        let z = s.ty.size();
        offs.iter().all(|&o| {
            let reg = (o / GRF_BYTES) as usize;
            let Some(ws) = self.writers.get(reg) else {
                return false;
            };
            let mask = elem_mask(o, z);
            let mut seen = false;
            for &w in ws {
                if !overlaps(&self.writes[w].writes, &[(reg as u32, mask)]) {
                    continue;
                }
                seen = true;
                let inside = self.elems[w]
                    .as_ref()
                    .is_some_and(|iv| iv.iter().any(|&(a, l)| a <= o && o + z <= a + l));
                if !inside {
                    return false;
                }
            }
            seen
        })
    }
}

/// The byte mask of `[o, o + z)` within its register (elements never cross
/// a register: they are aligned to their size).
fn elem_mask(o: u32, z: u32) -> u32 {
    let b = o % GRF_BYTES;
    let m = if z >= 32 { u32::MAX } else { (1u32 << z) - 1 };
    m << b
}

/// Whether instruction footprint `a` reads a byte of `fp`.
fn reads_any(a: &Access, fp: &[(u32, u32)]) -> bool {
    a.reads
        .iter()
        .any(|r| fp.iter().any(|&(reg, m)| reg == r.reg && m & r.mask != 0))
}

/// Whether `s` is a scalar integer immediate 0 or all ones.
fn bool_imm(s: &Src) -> bool {
    match s.kind {
        SrcKind::Imm(v) => s.ty.is_int() && !s.ty.is_vector_imm() && (v == 0 || v == s.ty.mask()),
        _ => false,
    }
}

/// A boolean producer: the byte intervals `(start, len)` it leaves 0 / all
/// ones, provided the GRF sources listed are booleans.
type Producer = (Vec<(u32, u32)>, Vec<Src>);

/// If `i` writes booleans whenever its GRF sources are booleans: the byte
/// intervals it leaves 0 / all ones, and the sources to check.
fn producer(i: &Instruction) -> Option<Producer> {
    if i.msg.is_some() || !i.op.has_dst() || i.sat || !matches!(i.dst.kind, DstKind::Grf { .. }) {
        return None;
    }
    let offs = dst_offsets(&i.dst, i.exec_size)?;
    let size = i.dst.ty.size();
    if matches!(i.op, Opcode::Cmp | Opcode::Cmpn) {
        let l = size.min(4);
        return Some((offs.iter().map(|&o| (o, l)).collect(), vec![]));
    }
    let logic = i.op.is_logic();
    let select = i.op == Opcode::Sel && i.pred.is_some();
    if !(logic || select || i.op == Opcode::Mov) || !i.dst.ty.is_int() || !matches!(size, 2 | 4) {
        return None;
    }
    let mut check = vec![];
    for s in &i.srcs {
        // A narrower source must sign-extend; modifiers only as NOT.
        if !s.ty.is_int() || (s.ty.size() < size && !s.ty.is_signed_int()) || s.abs {
            return None;
        }
        if s.neg && !logic {
            return None;
        }
        match s.kind {
            SrcKind::Imm(_) if bool_imm(s) => {}
            SrcKind::Grf { .. } => check.push(*s),
            _ => return None,
        }
    }
    Some((offs.iter().map(|&o| (o, size)).collect(), check))
}

/// The boolean producers of the program (greatest fixpoint).
fn bools(p: &VProgram) -> Bools {
    let nregs = p.reg_end() as usize;
    let (mut b, prod) = Bools::every_candidate(p);
    // Each producer is checked once, and again only when a producer
    // writing a register it reads stops being one: whether a source reads
    // booleans depends on nothing else, and a producer only ever stops
    // being one, so any order of checks reaches the same (greatest)
    // fixpoint as checking every producer in rounds.
    let mut users: Vec<SmallVec<[usize; 2]>> =
        std::iter::repeat_with(SmallVec::new).take(nregs).collect();
    for (i, x) in prod.iter().enumerate() {
        let Some((_, srcs)) = x else { continue };
        for s in srcs {
            let Some(bytes) = crate::vir::src_bytes(s, p.insts[i].exec_size) else {
                continue;
            };
            let (first, last) = crate::vir::regs_of(bytes);
            for r in first..=last {
                if let Some(u) = users.get_mut(r as usize) {
                    if u.last() != Some(&i) {
                        u.push(i);
                    }
                }
            }
        }
    }
    let mut work: Vec<usize> = (0..p.insts.len())
        .rev()
        .filter(|&i| b.elems[i].is_some())
        .collect();
    let mut queued = vec![false; p.insts.len()];
    for &i in &work {
        queued[i] = true;
    }
    while let Some(i) = work.pop() {
        queued[i] = false;
        // Queued only while a producer, and only this pop can drop it.
        let keeps = prod[i]
            .as_ref()
            .is_none_or(|(_, srcs)| srcs.iter().all(|s| b.read(s, p.insts[i].exec_size)));
        if keeps {
            continue;
        }
        b.elems[i] = None;
        for &(r, _) in &b.writes[i].writes {
            for &u in users.get(r as usize).into_iter().flatten() {
                if !queued[u] && b.elems[u].is_some() {
                    queued[u] = true;
                    work.push(u);
                }
            }
        }
    }
    b
}

/// A widening MOV and what its users may read instead.
struct Cand {
    /// The MOV's index.
    m: usize,
    /// N, as the MOV reads it (type W).
    src: Src,
    /// Byte offset of each element of X (the MOV's destination).
    dst_offs: Offsets,
    /// Byte offset of each element of N.
    src_offs: Offsets,
    /// X's footprint.
    dst_fp: Footprint,
    /// Instructions reading X.
    readers: Vec<usize>,
    /// Instructions that may read N instead of X.
    reach: Vec<bool>,
}

/// How a reader's source reads X.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    /// Whole D/UD elements: the widened value.
    Wide,
    /// W/UW low words: N's bits.
    Low,
}

/// Whether `i` is a 16-to-32-bit integer MOV from a GRF: only those count
/// as examined.
fn widening_mov(i: &Instruction) -> bool {
    i.op == Opcode::Mov
        && matches!(i.dst.ty, RegType::D | RegType::UD)
        && i.srcs.first().is_some_and(|s| {
            matches!(s.kind, SrcKind::Grf { .. }) && matches!(s.ty, RegType::W | RegType::UW)
        })
}

/// The widening MOV at `m`, if it is one.
fn candidate(
    p: &VProgram,
    b: &Bools,
    multi: &[u32],
    m: usize,
    bugs: BugSet,
) -> Option<(Src, Offsets, Offsets)> {
    let i = &p.insts[m];
    let s = *i.srcs.first()?;
    if !widening_mov(i) {
        return None;
    }
    let refusal = if s.ty != RegType::W {
        Some(cov::REFUSE_ZERO_EXTEND)
    } else if i.pred.is_some() {
        Some(cov::REFUSE_PREDICATED)
    } else if i.we_all {
        Some(cov::REFUSE_NOMASK)
    } else if i.cmod.is_some()
        || i.sat
        || s.abs
        // Injected bug (BUGS.md: bool-cleanup-negated-mov): b2i's
        // `mov X:D, -N:W` is taken for a plain widening MOV.
        || (s.neg && !bugs.has(Bug::BoolCleanupNegatedMov))
    {
        Some(cov::REFUSE_MODIFIERS)
    } else {
        None
    };
    if let Some(point) = refusal {
        hit(point);
        return None;
    }
    let single_write = |nr: u32| {
        let Some(v) = p.vgrf_of(nr) else {
            return false;
        };
        let fp = dst_footprint(&i.dst, i.exec_size);
        fp.iter()
            .all(|&(r, mask)| p.vgrf_of(r) == Some(v) && multi[r as usize] & mask == 0)
            && !overlaps(&fp, &src_footprint(&s, i.exec_size))
    };
    if !matches!(i.dst.kind, DstKind::Grf { nr, .. } if single_write(nr)) {
        hit(cov::REFUSE_DST);
        return None;
    }
    if !b.read(&s, i.exec_size) {
        hit(cov::REFUSE_NOT_BOOLEAN);
        return None;
    }
    let (Some(d), Some(o)) = (
        dst_offsets(&i.dst, i.exec_size),
        src_offsets(&s, i.exec_size),
    ) else {
        return None;
    };
    hit(cov::CANDIDATE);
    Some((Src { neg: false, ..s }, d, o))
}

/// How source `s` (at `exec` channels) reads candidate `c`'s X, and the
/// byte offsets of the N elements it should read instead.
fn map_read(s: &Src, exec: u8, c: &Cand) -> Option<(Read, Vec<u32>)> {
    let offs = src_offsets(s, exec)?;
    let kind = match s.ty {
        RegType::D | RegType::UD => Read::Wide,
        RegType::W | RegType::UW => Read::Low,
        _ => return None,
    };
    let d0 = c.dst_offs[0];
    let step = c.dst_offs.get(1).map_or(4, |&d1| d1 - d0);
    let mut want = Vec::with_capacity(offs.len());
    for o in offs {
        let rel = o.checked_sub(d0)?;
        let (k, q) = ((rel / step) as usize, rel % step);
        if q != 0 || k >= c.dst_offs.len() {
            return None;
        }
        want.push(c.src_offs[k]);
    }
    Some((kind, want))
}

/// Why a reader cannot be rewritten: the refusal point, or None when no
/// source of it reads an alive candidate's X.
type Refusal = Option<Point>;

/// Reader `r` with every source that reads an alive candidate's X rewritten
/// to read N, if that is one of the exact rewrites (module docs), with the
/// rewrite's point.
fn rewrite(
    r: &Instruction,
    cands: &[Cand],
    alive: &[bool],
    machine: &MachineConfig,
    mixed: bool,
) -> Result<(Instruction, Point), Refusal> {
    if r.msg.is_some() || r.op.is_cf() || !r.op.has_dst() {
        return Err(Some(cov::REFUSE_READER_SEND));
    }
    // (slot, kind, N offsets)
    let mut slots = vec![];
    for (k, s) in r.srcs.iter().enumerate() {
        let fp = src_footprint(s, r.exec_size);
        let mut hits = cands
            .iter()
            .enumerate()
            .filter(|&(c, cand)| alive[c] && overlaps(&fp, &cand.dst_fp));
        let Some((_, c)) = hits.next() else {
            continue;
        };
        if hits.next().is_some() {
            return Err(Some(cov::REFUSE_READER_SPANS_TWO));
        }
        let (kind, want) = map_read(s, r.exec_size, c).ok_or(Some(cov::REFUSE_READER_REGION))?;
        slots.push((k, kind, want));
    }
    if slots.is_empty() {
        return Err(None);
    }
    let mut point = cov::REWRITE_LOW_WORD;
    let mut new = *r;
    let wide: Vec<usize> = slots
        .iter()
        .filter(|x| x.1 == Read::Wide)
        .map(|x| x.0)
        .collect();
    if !wide.is_empty() {
        let s0 = r.srcs[wide[0]];
        let test = r.dst.is_null() && r.writes_flag();
        let cmod_ok = |c: Option<CondMod>, ty: RegType| match c {
            Some(CondMod::Z | CondMod::Nz) => true,
            Some(CondMod::L | CondMod::Le | CondMod::G | CondMod::Ge) => ty == RegType::D,
            _ => false,
        };
        if test && r.op == Opcode::Mov {
            // 2. mov.c null, X
            if r.sat || s0.neg || s0.abs {
                return Err(Some(cov::REFUSE_TEST_MODIFIERS));
            }
            if !cmod_ok(r.cmod, s0.ty) {
                return Err(Some(cov::REFUSE_TEST_CONDITION));
            }
            new.dst.ty = RegType::W;
            point = cov::REWRITE_TEST_MOV;
        } else if test && r.op == Opcode::Cmp {
            // 2. cmp.c null, X, 0
            let zero = r
                .srcs
                .get(1)
                .is_some_and(|z| matches!(z.kind, SrcKind::Imm(0)) && z.ty.is_int());
            if wide != [0] || !zero {
                return Err(Some(cov::REFUSE_CMP_NOT_ZERO));
            }
            if s0.neg || s0.abs {
                return Err(Some(cov::REFUSE_TEST_MODIFIERS));
            }
            if !cmod_ok(r.cmod, s0.ty) {
                return Err(Some(cov::REFUSE_TEST_CONDITION));
            }
            new.srcs[1] = Src::imm(0, RegType::W);
            new.dst.ty = RegType::W;
            point = cov::REWRITE_TEST_CMP;
        } else if r.op == Opcode::Mov && !r.dst.is_null() {
            // 3. mov d, [-]X
            let ok_dst = s0.ty == RegType::D || (r.dst.ty.is_int() && r.dst.ty.size() <= 4);
            if r.sat || s0.abs {
                return Err(Some(cov::REFUSE_FULL_MODIFIERS));
            }
            if !ok_dst {
                return Err(Some(cov::REFUSE_FULL_UD_WIDE));
            }
            point = cov::REWRITE_FULL_VALUE;
        } else if matches!(r.op, Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not)
            || (r.op == Opcode::Sel && r.pred.is_some())
        {
            // 4. combine: every GRF operand a widened boolean, rewritten.
            if r.sat || !matches!(r.dst.ty, RegType::D | RegType::UD) {
                return Err(Some(cov::REFUSE_COMBINE_SHAPE));
            }
            let all_wide = r
                .srcs
                .iter()
                .enumerate()
                .all(|(k, s)| wide.contains(&k) || matches!(s.kind, SrcKind::Imm(_)));
            if mixed && !all_wide {
                // 5. mixed (bool-cleanup=mixed): the other operands stay
                // as they are; the W source meets D ones, and the
                // execution type D sign-extends it back to X's value.
                if r.op == Opcode::Sel && r.srcs.iter().any(|s| s.neg || s.abs) {
                    return Err(Some(cov::REFUSE_COMBINE_SEL_MODIFIER));
                }
                point = cov::REWRITE_COMBINE_MIXED;
            }
            for (k, s) in r
                .srcs
                .iter()
                .enumerate()
                .filter(|_| point != cov::REWRITE_COMBINE_MIXED)
            {
                match s.kind {
                    SrcKind::Grf { .. } if wide.contains(&k) => {}
                    SrcKind::Imm(v)
                        if matches!(s.ty, RegType::D | RegType::UD)
                            && matches!(v, 0 | 0xffff_ffff) =>
                    {
                        new.srcs[k] = Src::imm(v & 0xffff, RegType::W);
                    }
                    _ => return Err(Some(cov::REFUSE_COMBINE_MIXED)),
                }
                if r.op == Opcode::Sel && (s.neg || s.abs) {
                    return Err(Some(cov::REFUSE_COMBINE_SEL_MODIFIER));
                }
            }
            if point != cov::REWRITE_COMBINE_MIXED {
                point = cov::REWRITE_COMBINE;
            }
        } else {
            return Err(Some(cov::REFUSE_ARITHMETIC));
        }
    }
    // Place the N sources: the most natural region of each, then the next
    // candidates together, until the validator accepts one.
    let regions: Vec<Vec<(u32, u32, eu::Region)>> = slots
        .iter()
        .map(|(_, _, want)| regions_for(want, 2))
        .collect();
    let most = regions.iter().map(Vec::len).max().unwrap_or(0);
    for t in 0..most {
        for ((k, kind, _), rs) in slots.iter().zip(&regions) {
            let (nr, sub, region) = *rs
                .get(t)
                .or(rs.last())
                .ok_or(Some(cov::REFUSE_READER_INVALID))?;
            let s = r.srcs[*k];
            let ty = match kind {
                Read::Wide => RegType::W,
                Read::Low => s.ty,
            };
            new.srcs[*k] = Src {
                kind: SrcKind::Grf { nr, sub },
                ty,
                region,
                neg: s.neg,
                abs: s.abs,
            };
        }
        if inst_valid(&new, machine) {
            return Ok((new, point));
        }
    }
    Err(Some(cov::REFUSE_READER_INVALID))
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    // Without a widening MOV there is nothing to examine (and nothing to
    // report): the analyses below are not paid for.
    if !p.insts.iter().any(widening_mov) {
        return false;
    }
    let mixed = ctx.bool_cleanup == crate::passes::BoolCleanupMode::Mixed;
    let Ok(cfg) = Cfg::of(&p.insts) else {
        return false;
    };
    let nregs = p.reg_end() as usize;
    let b = bools(p);
    if b.writes
        .iter()
        .any(|a| a.writes.iter().any(|&(r, _)| r as usize >= nregs))
    {
        return false;
    }
    let mut any = vec![0u32; nregs];
    let mut multi = vec![0u32; nregs];
    for a in b.writes.iter() {
        for &(r, m) in &a.writes {
            multi[r as usize] |= any[r as usize] & m;
            any[r as usize] |= m;
        }
    }
    let n = p.insts.len();
    let mut cands = Vec::new();
    for blk in &cfg.blocks {
        for m in blk.start..blk.end {
            let Some((src, dst_offs, src_offs)) = candidate(p, &b, &multi, m, ctx.bugs) else {
                continue;
            };
            let i = &p.insts[m];
            let dst_fp = dst_footprint(&i.dst, i.exec_size);
            let src_fp = src_footprint(&src, i.exec_size);
            let readers: Vec<usize> = (0..n)
                .filter(|&k| reads_any(&b.writes[k], &dst_fp))
                .collect();
            let mut reach = vec![false; n];
            if source_pinned(p, &b.writes, blk.start, m, BugSet::NONE) {
                let first_w = (blk.start..m)
                    .find(|&w| overlaps(&b.writes[w].writes, &src_fp))
                    .unwrap_or(m);
                for (k, x) in reach.iter_mut().enumerate() {
                    *x = !(first_w..=m).contains(&k);
                }
            } else {
                let stop = (m + 1..blk.end)
                    .find(|&k| overlaps(&b.writes[k].writes, &src_fp))
                    .map_or(blk.end, |k| k + 1);
                for x in &mut reach[m + 1..stop] {
                    *x = true;
                }
            }
            cands.push(Cand {
                m,
                src,
                dst_offs,
                src_offs,
                dst_fp,
                readers,
                reach,
            });
        }
    }
    let machine = p.machine();
    let mut alive: Vec<bool> = cands.iter().map(|c| !c.readers.is_empty()).collect();
    loop {
        let mut dropped = false;
        for c in 0..cands.len() {
            if !alive[c] {
                continue;
            }
            let cand = &cands[c];
            let mv = &p.insts[cand.m];
            let src_fp = src_footprint(&cand.src, mv.exec_size);
            let reads_candidate = cands
                .iter()
                .enumerate()
                .any(|(d, o)| alive[d] && d != c && overlaps(&src_fp, &o.dst_fp));
            let refusal = if reads_candidate {
                Some(Some(cov::REFUSE_SOURCE_WIDENED))
            } else {
                cand.readers.iter().find_map(|&r| {
                    if !cand.reach[r] {
                        Some(Some(cov::REFUSE_OUT_OF_REACH))
                    } else {
                        rewrite(&p.insts[r], &cands, &alive, &machine, mixed).err()
                    }
                })
            };
            if let Some(point) = refusal {
                if let Some(point) = point {
                    hit(point);
                }
                alive[c] = false;
                dropped = true;
            }
        }
        if !dropped {
            break;
        }
    }
    for _ in alive.iter().filter(|&&a| a) {
        hit(cov::BYPASSED);
    }
    let mut readers: Vec<usize> = cands
        .iter()
        .zip(&alive)
        .filter(|(_, &a)| a)
        .flat_map(|(c, _)| c.readers.iter().copied())
        .collect();
    readers.sort_unstable();
    readers.dedup();
    let mut changed = false;
    for r in readers {
        if let Ok((new, point)) = rewrite(&p.insts[r], &cands, &alive, &machine, mixed) {
            hit(point);
            p.insts[r] = new;
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
#[path = "bool_cleanup_tests.rs"]
mod tests;
