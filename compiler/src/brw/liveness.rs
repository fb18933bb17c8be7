//! Liveness of GRF bytes and flag bytes over the [`Cfg`], plus a forward
//! "may be defined" analysis.
//!
//! # Granularity
//! GRFs are tracked **per byte** (a 32-bit mask per register, payload
//! registers included), so the two SIMD16 halves of a split SIMD32 value and
//! 16-bit values at stride 2 are exact. A vgrf is live where any of its bytes
//! is. Flags are tracked **per flag byte** (8 channels, EU-MODEL §5.2).
//!
//! # The control-flow rule (two views)
//! A masked write only touches enabled channels: in divergent control flow
//! the disabled channels keep their old bytes and flag bits. Every set is
//! therefore split into a *lane* view and a *raw* view:
//!
//! * A **lane read** is a masked instruction reading only its own channels'
//!   elements (a normal predicate, or a source region whose element offsets
//!   strictly increase with the channel). A **raw read** may see other
//!   channels' bytes: NoMask readers (including NoMask predicated ones),
//!   exec size 1, scalar/repeating regions, any/all predicates, flags read as
//!   data.
//! * A write is a **lane kill** when it is masked, unpredicated (a
//!   predicated SEL counts as unpredicated, it writes every enabled channel)
//!   and covers the bytes — for flags additionally exec size ≥ 8 so that whole
//!   flag bytes are covered. It is a **full kill** when it is also NoMask.
//!   Predicated and partial writes kill nothing.
//! * Lane kills remove bytes from the lane view only; full kills from both.
//!
//! Why a lane kill is sound: the CFG contains every per-channel path
//! (IF → else-part, BREAK → loop exit, HALT → target, ...), so a channel
//! that later performs a lane read reached it along a path on which it was
//! enabled at the killing write, and that write set its bits. Channels that
//! skipped the write (other arm, broke out, halted, not dispatched) are only
//! observable through raw reads, which only full (NoMask, unpredicated)
//! kills stop. A byte is *live* when it is live in either view.
//!
//! A value used across loop iterations is simply live around the back edge;
//! register allocation additionally extends live ranges over whole loops
//! (see `regalloc.rs`).

use super::cfg::Cfg;
use super::ops::{footprints, Access, Footprints, Kill};
use crate::vir::{VProgram, Vgrf};
use std::borrow::Cow;
use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

/// A set of live GRF bytes and flag bytes, in both views.
#[derive(Debug, PartialEq, Eq)]
pub struct LiveSet {
    /// Per register, its live bytes: the lane view's byte mask in the low
    /// 32 bits, the raw view's in the high 32 (one word per register, so
    /// copying, merging and comparing sets is one pass over one vector).
    bytes: Vec<u64>,
    /// Lane view of the flag bytes.
    pub flag_lane: u8,
    /// Raw view of the flag bytes.
    pub flag_raw: u8,
}

/// A byte mask in the lane view's half of a register's word.
fn lane_bits(m: u32) -> u64 {
    u64::from(m)
}

/// A byte mask in the raw view's half of a register's word.
fn raw_bits(m: u32) -> u64 {
    u64::from(m) << 32
}

impl Clone for LiveSet {
    fn clone(&self) -> LiveSet {
        LiveSet {
            bytes: self.bytes.clone(),
            flag_lane: self.flag_lane,
            flag_raw: self.flag_raw,
        }
    }

    /// Copies `o` into the vector this set already has.
    fn clone_from(&mut self, o: &LiveSet) {
        self.bytes.clone_from(&o.bytes);
        self.flag_lane = o.flag_lane;
        self.flag_raw = o.flag_raw;
    }
}

impl LiveSet {
    /// The empty set over `nregs` registers.
    pub fn new(nregs: usize) -> LiveSet {
        LiveSet {
            bytes: vec![0; nregs],
            flag_lane: 0,
            flag_raw: 0,
        }
    }

    /// How many registers the set is over.
    pub fn nregs(&self) -> usize {
        self.bytes.len()
    }

    /// Register `r`'s live bytes in the lane view.
    pub fn lane(&self, r: usize) -> u32 {
        self.bytes[r] as u32
    }

    /// Register `r`'s live bytes in the raw view.
    pub fn raw(&self, r: usize) -> u32 {
        (self.bytes[r] >> 32) as u32
    }

    /// Register `r`'s live bytes in either view.
    fn either(&self, r: usize) -> u32 {
        let w = self.bytes[r];
        (w | w >> 32) as u32
    }

    /// Empties the set and makes it one over `nregs` registers.
    fn clear_to(&mut self, nregs: usize) {
        self.bytes.clear();
        self.bytes.resize(nregs, 0);
        self.flag_lane = 0;
        self.flag_raw = 0;
    }

    /// Adds `o` (a plain OR, which the compiler vectorizes).
    pub fn union_with(&mut self, o: &LiveSet) {
        for (a, b) in self.bytes.iter_mut().zip(&o.bytes) {
            *a |= b;
        }
        self.flag_lane |= o.flag_lane;
        self.flag_raw |= o.flag_raw;
    }

    /// Turns the set live after an instruction into the set live before it.
    pub fn step_back(&mut self, a: &Access) {
        match a.kill {
            Some(Kill::Lane) => {
                for &(r, m) in &a.writes {
                    self.bytes[r as usize] &= !lane_bits(m);
                }
            }
            Some(Kill::Full) => {
                for &(r, m) in &a.writes {
                    self.bytes[r as usize] &= !(lane_bits(m) | raw_bits(m));
                }
            }
            _ => {}
        }
        self.flag_lane &= !(a.flag_kill_lane | a.flag_kill_full);
        self.flag_raw &= !a.flag_kill_full;
        for rd in &a.reads {
            self.bytes[rd.reg as usize] |= if rd.raw {
                raw_bits(rd.mask)
            } else {
                lane_bits(rd.mask)
            };
        }
        self.flag_lane |= a.flag_lane_reads;
        self.flag_raw |= a.flag_raw_reads;
    }

    /// Whether any byte of the footprint is live (in either view).
    pub fn any_live(&self, fp: &[(u32, u32)]) -> bool {
        fp.iter().any(|&(r, m)| self.either(r as usize) & m != 0)
    }

    /// Whether any byte of registers `[first, first + size)` is live.
    pub fn regs_live(&self, first: u32, size: u32) -> bool {
        (first..first + size).any(|r| self.bytes[r as usize] != 0)
    }

    /// The registers with a live byte (in either view), in order.
    pub fn live_regs(&self) -> impl Iterator<Item = usize> + '_ {
        self.bytes
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0)
            .map(|(k, _)| k)
    }

    /// Live flag bytes (either view).
    pub fn flags(&self) -> u8 {
        self.flag_lane | self.flag_raw
    }
}

/// The result of the analysis.
#[derive(Clone, Debug)]
pub struct Liveness {
    /// The CFG it was computed on.
    pub cfg: Rc<Cfg>,
    /// Each instruction's footprint.
    pub access: Footprints,
    /// Live at each block's entry.
    pub live_in: Vec<LiveSet>,
    /// Live at each block's exit.
    pub live_out: Vec<LiveSet>,
    /// The forward "may be defined" sets, computed on first use (only
    /// register allocation asks; the passes do not pay for them).
    defined: OnceCell<Defined>,
}

/// Registers possibly written on some path to each block's entry and exit:
/// one bit per register, `words` words per block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defined {
    /// Words per block.
    words: usize,
    /// Block b's entry set in `entry[b * words..(b + 1) * words]`.
    entry: Vec<u64>,
    /// Block b's exit set, laid out as `entry`.
    exit: Vec<u64>,
}

impl Defined {
    /// Whether register `r` may have been written before block `b`.
    pub fn at_entry(&self, b: usize, r: u32) -> bool {
        Defined::bit(&self.entry, self.words, b, r)
    }

    /// Whether register `r` may have been written by the end of block `b`.
    pub fn at_exit(&self, b: usize, r: u32) -> bool {
        Defined::bit(&self.exit, self.words, b, r)
    }

    /// Whether any of registers `[first, first + size)` may have been
    /// written before block `b`.
    pub fn any_at_entry(&self, b: usize, first: u32, size: u32) -> bool {
        (first..first + size).any(|r| self.at_entry(b, r))
    }

    /// Whether any of registers `[first, first + size)` may have been
    /// written by the end of block `b`.
    pub fn any_at_exit(&self, b: usize, first: u32, size: u32) -> bool {
        (first..first + size).any(|r| self.at_exit(b, r))
    }

    fn bit(sets: &[u64], words: usize, b: usize, r: u32) -> bool {
        let r = r as usize;
        sets[b * words + r / 64] >> (r % 64) & 1 == 1
    }
}

/// What the analysis reads of a program besides its instructions (whose
/// footprints stand for them): its virtual registers and payload size.
type Key = (Vec<Vgrf>, u32);

thread_local! {
    /// The last program analysed on this thread and its result: consecutive
    /// passes that changed nothing ask again for the same program.
    static LAST: RefCell<Option<(Key, Rc<Liveness>)>> = const { RefCell::new(None) };
}

thread_local! {
    /// The set of the last [`Liveness::walk_back`] on this thread, for the
    /// next one to reuse.
    static WALK: Cell<Option<LiveSet>> = const { Cell::new(None) };
}

impl Liveness {
    /// Computes liveness; None when the control flow is malformed. The
    /// result is shared with the previous call on this thread when the
    /// program is the same: the same footprints ([`footprints`] hands out
    /// the very same ones for the same instructions), registers and
    /// payload.
    pub fn compute(p: &VProgram) -> Option<Rc<Liveness>> {
        let acc = footprints(&p.insts);
        Liveness::compute_given(acc, &p.vgrfs, p.payload_grfs, |acc| {
            Liveness::cfg_if_computable(p, acc)
        })
    }

    /// [`Liveness::compute`] of a program given what it reads of it: every
    /// instruction's footprint, the virtual registers and the payload size,
    /// and (asked only when the result is not the previous one) the CFG,
    /// None when the analysis is not computable
    /// ([`Liveness::cfg_if_computable`]). A pass that edits the program
    /// in place computes the live sets of the program as it was from
    /// these, without keeping a copy of its instructions.
    pub fn compute_given(
        acc: Footprints,
        vgrfs: &[Vgrf],
        payload_grfs: u32,
        cfg: impl FnOnce(&Footprints) -> Option<Rc<Cfg>>,
    ) -> Option<Rc<Liveness>> {
        let same = |(key, live): &(Key, Rc<Liveness>)| {
            Rc::ptr_eq(&live.access, &acc) && key.0 == vgrfs && key.1 == payload_grfs
        };
        if let Some(live) =
            LAST.with(|l| l.borrow().as_ref().filter(|l| same(l)).map(|l| l.1.clone()))
        {
            return Some(live);
        }
        let cfg = cfg(&acc)?;
        let nregs = crate::vir::reg_end(vgrfs, payload_grfs) as usize;
        let live = Rc::new(Liveness::analyse(cfg, acc, nregs));
        let key = (vgrfs.to_vec(), payload_grfs);
        LAST.with(|l| *l.borrow_mut() = Some((key, live.clone())));
        Some(live)
    }

    /// The CFG the analysis of `p` would run on, given every instruction's
    /// footprint; None exactly when [`Liveness::compute`] is (malformed
    /// control flow, or an operand past the last vgrf). A pass that needs
    /// the live sets only now and then asks this first and computes them
    /// when it needs them.
    pub fn cfg_if_computable(p: &VProgram, acc: &Footprints) -> Option<Rc<Cfg>> {
        let cfg = Cfg::of(&p.insts).ok()?;
        let nregs = p.reg_end() as usize;
        let outside = acc.iter().any(|a| {
            a.reads.iter().any(|r| r.reg as usize >= nregs)
                || a.writes.iter().any(|w| w.0 as usize >= nregs)
        });
        (!outside).then_some(cfg)
    }

    /// The analysis itself, given every instruction's footprint (without
    /// the thread's memory of the last result).
    pub(crate) fn analyse(cfg: Rc<Cfg>, acc: Footprints, nregs: usize) -> Liveness {
        let nb = cfg.blocks.len();
        let mut live_in = vec![LiveSet::new(nregs); nb];
        // Every block is visited at least once, which sets its live-out
        // set whole: no room is made for it before.
        let mut live_out: Vec<LiveSet> = (0..nb).map(|_| LiveSet::new(0)).collect();
        // Worklist: a block is revisited only when a successor's live-in
        // grew. Seeded last block first, which settles straight-line code in
        // one visit per block; the fixpoint is the same as round-robin's.
        let mut queued = vec![true; nb];
        let mut work: std::collections::VecDeque<usize> = (0..nb).rev().collect();
        // One scratch set, reused by every visit.
        let mut cur = LiveSet::new(nregs);
        while let Some(b) = work.pop_front() {
            queued[b] = false;
            // The union of the successors' live-in sets: a copy of the
            // first one's, not an emptied set.
            let out = &mut live_out[b];
            match cfg.blocks[b].succs.split_first() {
                Some((&first, rest)) => {
                    out.clone_from(&live_in[first]);
                    for &s in rest {
                        out.union_with(&live_in[s]);
                    }
                }
                None => out.clear_to(nregs),
            }
            cur.clone_from(out);
            for i in (cfg.blocks[b].start..cfg.blocks[b].end).rev() {
                cur.step_back(&acc[i]);
            }
            if live_in[b] != cur {
                std::mem::swap(&mut live_in[b], &mut cur);
                for &p in &cfg.blocks[b].preds {
                    if !queued[p] {
                        queued[p] = true;
                        work.push_back(p);
                    }
                }
            }
        }
        Liveness {
            cfg,
            access: acc,
            live_in,
            live_out,
            defined: OnceCell::new(),
        }
    }

    /// Registers possibly written on some path to each block's entry and
    /// exit (computed once, on the first call).
    pub fn defined(&self) -> &Defined {
        self.defined.get_or_init(|| self.forward_defined())
    }

    /// The forward analysis behind [`Liveness::defined`]: a block's exit
    /// set is its entry set and the registers it writes; its entry set is
    /// the union of its predecessors' exit sets. A worklist from the
    /// blocks in order reaches the least fixpoint, as rounds over every
    /// block would.
    fn forward_defined(&self) -> Defined {
        let nregs = self.live_in.first().map_or(0, LiveSet::nregs);
        let words = nregs.div_ceil(64);
        let blocks = &self.cfg.blocks;
        let nb = blocks.len();
        // What each block writes (its exit set before any predecessor's).
        let mut exit = vec![0u64; nb * words];
        for (b, blk) in blocks.iter().enumerate() {
            let gen = &mut exit[b * words..(b + 1) * words];
            for a in &self.access[blk.start..blk.end] {
                for &(r, _) in &a.writes {
                    gen[r as usize / 64] |= 1 << (r % 64);
                }
            }
        }
        let gens = exit.clone();
        let mut entry = vec![0u64; nb * words];
        let mut queued = vec![true; nb];
        let mut work: std::collections::VecDeque<usize> = (0..nb).collect();
        while let Some(b) = work.pop_front() {
            queued[b] = false;
            let range = b * words..(b + 1) * words;
            let mut grew = false;
            for k in range.clone() {
                let mut d = 0;
                for &pr in &blocks[b].preds {
                    d |= exit[pr * words + k - range.start];
                }
                entry[k] = d;
                let x = d | gens[k];
                grew |= x != exit[k];
                exit[k] = x;
            }
            if grew {
                for &s in &blocks[b].succs {
                    if !queued[s] {
                        queued[s] = true;
                        work.push_back(s);
                    }
                }
            }
        }
        Defined { words, entry, exit }
    }

    /// Calls `f(index, live_after)` for each instruction of block `b`, last
    /// first, where `live_after` is the set live just after it. `f` returns
    /// the footprint to apply (its own, borrowed, or an edited copy), which
    /// is how DCE walks with its own deletions taken into account.
    pub fn walk_back<'a>(
        &'a self,
        b: usize,
        mut f: impl FnMut(usize, &LiveSet) -> Cow<'a, Access>,
    ) {
        let blk = &self.cfg.blocks[b];
        // The walk's set reuses the room of the last walk's on this thread.
        let mut cur = WALK
            .take()
            .unwrap_or_else(|| LiveSet::new(self.live_out[b].nregs()));
        cur.clone_from(&self.live_out[b]);
        for i in (blk.start..blk.end).rev() {
            let a = f(i, &cur);
            cur.step_back(&a);
        }
        WALK.set(Some(cur));
    }

    /// Whether vgrf `v` is live at the entry of block `b`.
    pub fn vgrf_live_in(&self, p: &VProgram, b: usize, v: usize) -> bool {
        let g = p.vgrfs[v];
        self.live_in[b].regs_live(g.first, g.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::vprog;

    #[test]
    fn the_same_program_shares_its_result_and_a_changed_one_does_not() {
        let text = "mov(8) g2<1>UD g1<8,8,1>UD\nmov(8) g3<1>UD 0x00000001UD\nadd(8) g4<1>UD g2<8,8,1>UD g3<8,8,1>UD\nsend(8) null g2 g4 st.b32 { align1 1Q EOT };";
        let mut p = vprog(8, text, &[(2, 1), (3, 1), (4, 1)]);
        let a = Liveness::compute(&p).unwrap();
        assert!(Rc::ptr_eq(&a, &Liveness::compute(&p).unwrap()));
        // The add now reads g2 twice: g3 is dead after its MOV.
        p.insts[2].srcs[1] = p.insts[2].srcs[0];
        let b = Liveness::compute(&p).unwrap();
        assert!(!Rc::ptr_eq(&a, &b));
        let reads_g3 = |l: &Liveness| l.access[2].reads.iter().any(|r| r.reg == 3);
        assert!(!reads_g3(&b) && reads_g3(&a));
        assert_eq!(b.live_in[0].lane(3), 0);
        // A different payload size is a different program too.
        p.payload_grfs += 1;
        assert!(!Rc::ptr_eq(&b, &Liveness::compute(&p).unwrap()));
    }

    #[test]
    fn straight_line_kills_and_uses() {
        // SIMD8: payload g0-g1; vgrfs g2, g3, g4.
        let p = vprog(
            8,
            "mov(8) g2<1>UD g1<8,8,1>UD\nmov(8) g3<1>UD 0x00000001UD\nadd(8) g4<1>UD g2<8,8,1>UD g3<8,8,1>UD\nsend(8) null g2 g4 st.b32 { align1 1Q EOT };",
            &[(2, 1), (3, 1), (4, 1)],
        );
        let l = Liveness::compute(&p).unwrap();
        assert_eq!(l.cfg.blocks.len(), 1);
        let mut seen = vec![];
        l.walk_back(0, |i, after| {
            seen.push((i, after.lane(2), after.lane(3), after.lane(4)));
            Cow::Borrowed(&*l.access[i])
        });
        assert_eq!(
            seen,
            vec![
                (3, 0, 0, 0),
                (2, u32::MAX, 0, u32::MAX),
                (1, u32::MAX, u32::MAX, 0),
                (0, u32::MAX, 0, 0)
            ]
        );
        // Only the ids (g1) are live on entry.
        assert_eq!(l.live_in[0].lane(1), u32::MAX);
        assert_eq!(
            (2..5).map(|r| l.live_in[0].lane(r)).collect::<Vec<_>>(),
            [0, 0, 0]
        );
    }

    #[test]
    fn flag_kills_follow_the_rules() {
        // A partial (SIMD8 2Q) write, a predicated write and a full write.
        let text = "cmp.z.f0.0(8) null<1>D g1<8,8,1>D 0D { align1 2Q };\n(+f0.0) cmp.z.f0.0(8) null<1>D g1<8,8,1>D 1D\ncmp.z.f0.0(16) null<1>D g1<8,8,1>D 2D\n(+f0.0) sel(16) g3<1>D g1<8,8,1>D 0D\nsend(16) null g3 g3 st.b32 { align1 1H EOT };";
        let p = vprog(16, text, &[(3, 2)]);
        let l = Liveness::compute(&p).unwrap();
        let mut flags = vec![];
        l.walk_back(0, |i, after| {
            flags.push((i, after.flag_lane, after.flag_raw));
            Cow::Borrowed(&*l.access[i])
        });
        // After the full SIMD16 cmp both bytes of f0.0 are live; before it
        // none is; the predicated cmp reads byte 0.
        assert_eq!(
            flags,
            vec![(4, 0, 0), (3, 0, 0), (2, 0b11, 0), (1, 0, 0), (0, 0b1, 0)]
        );
        // Byte 0 is read (by the predicated cmp) before any write: live on
        // entry; the 2Q write killed byte 1.
        assert_eq!(l.live_in[0].flag_lane, 0b1);
    }

    #[test]
    fn masked_write_in_one_arm_does_not_kill_the_other() {
        // f0.0 from 0 is read in the else-part; the then-part rewrites f0.0.
        // 0 cmp | 1 mov.nz | 2 if | 3 cmp | 4 (+)sel | 5 else | 6 (+)sel | 7 endif | 8 send
        let text = "cmp.l.f0.0(8) null<1>D g1<8,8,1>D 4D\nmov.nz.f0.1(8) null<1>D g1<8,8,1>D\n(+f0.1) if(8) JIP: L0 UIP: L1\ncmp.g.f0.0(8) null<1>D g1<8,8,1>D 2D\n(+f0.0) sel(8) g2<1>D g1<8,8,1>D 2D\nelse(8) JIP: L1 UIP: L1\nL0:\n(+f0.0) sel(8) g2<1>D g1<8,8,1>D 3D\nL1:\nendif(8) JIP: L2\nL2:\nsend(8) null g1 g2 st.b32 { align1 1Q EOT };";
        let p = vprog(8, text, &[(2, 1)]);
        let l = Liveness::compute(&p).unwrap();
        // Block 0 = [0,3): f0.0 (byte 0) is live out (used in the else-part),
        // f0.1 too (the IF reads it, then nothing).
        assert_eq!(l.live_out[0].flag_lane, 0b1);
        assert_eq!(l.cfg.block_of[3], 1);
        assert_eq!(l.live_in[1].flag_lane, 0);
        let else_block = l.cfg.block_of[6];
        assert_eq!(l.live_in[else_block].flag_lane, 0b1);
    }

    #[test]
    fn writes_are_defined_along_the_threads_path_and_not_before_it() {
        // 0 mov.nz | 1 if | 2 mov g2 | 3 else | 4 mov g70 | 5 endif | 6 send
        // The ELSE falls into the else-part (the thread runs the then-part
        // first), so g2 may be defined there; g70 is not defined in the
        // then-part. (g70 lies in the second word of the bit sets.)
        let text = "mov.nz.f0.0(8) null<1>D g1<8,8,1>D\n(+f0.0) if(8) JIP: L0 UIP: L1\nmov(8) g2<1>D 1D\nelse(8) JIP: L1 UIP: L1\nL0:\nmov(8) g70<1>D 2D\nL1:\nendif(8) JIP: L2\nL2:\nsend(8) null g1 g2 st.b32 { align1 1Q EOT };";
        let p = vprog(8, text, &[(2, 1), (70, 1)]);
        let l = Liveness::compute(&p).unwrap();
        let d = l.defined();
        let (first, then, other, after) =
            (0, l.cfg.block_of[2], l.cfg.block_of[4], l.cfg.block_of[6]);
        let at = |b: usize| [2, 70].map(|r| (d.at_entry(b, r), d.at_exit(b, r)));
        assert_eq!(at(first), [(false, false), (false, false)]);
        assert_eq!(at(then), [(false, true), (false, false)]);
        assert_eq!(at(other), [(true, true), (false, true)]);
        assert_eq!(at(after), [(true, true), (true, true)]);
        assert!(d.any_at_entry(after, 69, 2));
        assert!(!d.any_at_entry(then, 1, 80));
    }

    #[test]
    fn raw_reads_survive_masked_kills() {
        // A NoMask prefill, a masked overwrite, a NoMask reader: the prefill
        // stays live through the masked write (raw view) but is killed by
        // nothing masked.
        let text = "mov(8) g2<1>D 0D { align1 WE_all 1Q };\nmov(8) g2<1>D g1<8,8,1>D\nmov(8) g3<1>D g2<8,8,1>D { align1 WE_all 1Q };\nsend(8) null g1 g3 st.b32 { align1 1Q EOT };";
        let p = vprog(8, text, &[(2, 1), (3, 1)]);
        let l = Liveness::compute(&p).unwrap();
        let mut g2 = vec![];
        l.walk_back(0, |i, after| {
            g2.push((i, after.lane(2), after.raw(2)));
            Cow::Borrowed(&*l.access[i])
        });
        assert_eq!(
            g2,
            vec![(3, 0, 0), (2, 0, 0), (1, 0, u32::MAX), (0, 0, u32::MAX)]
        );
        assert_eq!(l.live_in[0].raw(2), 0);
    }

    #[test]
    fn loop_carried_values_are_live_at_the_header() {
        // 0 mov g2 | 1 add g2 | 2 cmp | 3 (+) while | 4 send
        let text = "mov(8) g2<1>D 0D\nL0:\nadd(8) g2<1>D g2<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g2<8,8,1>D 10D\n(+f0.0) while(8) JIP: L0\nsend(8) null g1 g2 st.b32 { align1 1Q EOT };";
        let p = vprog(8, text, &[(2, 1)]);
        let l = Liveness::compute(&p).unwrap();
        let header = l.cfg.block_of[1];
        assert!(l.vgrf_live_in(&p, header, 0));
        assert!(l.defined().at_entry(header, 2));
        assert!(!l.defined().at_entry(0, 2));
        // The WHILE's flag is live around the back edge into the header? No:
        // the cmp kills it before the WHILE reads it.
        assert_eq!(l.live_in[header].flag_lane, 0);
    }
}
