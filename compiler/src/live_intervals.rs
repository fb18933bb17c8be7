//! Register allocation's live intervals ([`crate::regalloc`], whose module
//! doc gives the rules), made in two steps, and kept up to date across
//! spills.
//!
//! # Two steps
//! A vgrf's interval is the hull of its *touches* (the first and the last
//! instruction that reads or writes it) and of the block boundaries where
//! it is live and possibly defined, then stretched over the loops it is
//! carried around or leaves. What liveness says is kept per vgrf as its
//! *boundary facts* ([`Parts`]): the blocks at whose entry or exit it is
//! live and possibly defined, and the loop exits it is live into.
//! [`hulls`] makes the intervals from the touches, the facts and where the
//! CFG's blocks and loops lie.
//!
//! # After a spill
//! Spilling vgrf v renames v's operands to new temporaries and inserts
//! scratch messages and header writes, which touch only the temporaries
//! and the scratch header and are not control flow. For every other vgrf
//! w, then:
//! - the instructions that touch w are the same ones, at their new
//!   indices ([`SpillMap::moved`]): its touches move with them;
//! - every instruction does to w's bytes what it did before, in the
//!   liveness and the "may be defined" analyses alike (an inserted one
//!   names none of them), and the CFG has the same blocks and edges (a
//!   fill joins the block of the instruction it serves, a spill the block
//!   of the instruction that wrote, and jumps to an instruction land on its
//!   first fill): w's boundary facts are the same.
//!
//! v is touched by nothing any more. Only the scratch header and the new
//! temporaries need liveness: it is computed over the program with every
//! instruction's footprint cut down to their registers (each register's
//! bytes are a dataflow problem of their own, and an instruction that names
//! none of them leaves them as they are).
//!
//! This holds when every operand lies in one vgrf (a renamed operand then
//! covered only v's registers) and the vgrfs lie in order, apart and above
//! the payload (so a new vgrf shares no register with an old one):
//! [`Tracked::new`] declines other programs. Debug builds compare every
//! update with the intervals computed from scratch.

use crate::brw::cfg::{Block, Cfg};
use crate::brw::liveness::Liveness;
use crate::brw::ops::{Access, Footprints};
use crate::bugs::{Bug, BugSet};
use crate::coverage::hit;
use crate::regalloc::cov;
use crate::spill::SpillMap;
use crate::vir::{VProgram, Vgrf};
use std::rc::Rc;

/// A live interval `[lo, hi]` of instruction indices; None for a vgrf that
/// no instruction touches.
pub type Interval = Option<(usize, usize)>;

/// Boundary fact: live and possibly defined at the block's entry.
const ENTRY: u8 = 1;
/// Boundary fact: live and possibly defined at the block's exit.
const EXIT: u8 = 2;
/// Boundary fact: live at the block's entry (kept for loop exits only).
const LIVE_IN: u8 = 4;

/// What a program's intervals are made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    /// Per vgrf, its first and last instruction.
    touch: Vec<Interval>,
    /// Per vgrf, its boundary facts `(block, bits)`, by block.
    facts: Vec<Vec<(u32, u8)>>,
}

/// Which rules extended some interval, for `regalloc::cov` (recorded once
/// per computation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Happened {
    at_entry: bool,
    at_exit: bool,
    carried: bool,
    leaves: bool,
    untouched: bool,
}

impl Happened {
    fn record(self) {
        for (happened, point) in [
            (self.at_entry, cov::EXTEND_BLOCK_ENTRY),
            (self.at_exit, cov::EXTEND_BLOCK_EXIT),
            (self.carried, cov::LOOP_CARRIED),
            (self.leaves, cov::LOOP_LIVE_AFTER),
            (self.untouched, cov::UNTOUCHED),
        ] {
            if happened {
                hit(point);
            }
        }
    }
}

/// Live intervals per vgrf of `p`, given its liveness.
pub fn intervals(p: &VProgram, live: &Liveness, bugs: BugSet) -> Vec<Interval> {
    intervals_and_parts(p, live, bugs).0
}

/// [`intervals`], and what they are made of (for [`Tracked::new`]).
pub(crate) fn intervals_and_parts(
    p: &VProgram,
    live: &Liveness,
    bugs: BugSet,
) -> (Vec<Interval>, Parts) {
    let parts = parts_of(p, live);
    let (iv, happened) = hulls(&parts, &live.cfg, bugs);
    happened.record();
    (iv, parts)
}

/// The touches and boundary facts of every vgrf of `p`.
fn parts_of(p: &VProgram, live: &Liveness) -> Parts {
    let nv = p.vgrfs.len();
    let owners = p.vgrf_owners();
    let mut touch = vec![None; nv];
    add_touches(
        &mut touch,
        live.access.iter().map(|a| &**a).enumerate(),
        |r| owners.of(r),
    );
    let mut facts = vec![Vec::new(); nv];
    // When the vgrfs lie in order, apart and above the payload, every
    // register of one belongs to it: the vgrfs live at a block boundary
    // are the owners of its live registers, found without asking each
    // vgrf.
    let owner = apart(p).then_some(|r| owners.of(r));
    let exits = loop_exits(&live.cfg);
    add_facts(&p.vgrfs, |v| v, live, &exits, owner, &mut facts);
    Parts { touch, facts }
}

/// Whether the vgrfs of `p` lie in order, apart and above the payload.
fn apart(p: &VProgram) -> bool {
    p.vgrfs.first().is_none_or(|g| g.first >= p.payload_grfs)
        && p.vgrfs
            .windows(2)
            .all(|w| w[0].first + w[0].size <= w[1].first)
}

/// Widens the touches of the vgrfs that the footprints `acc` (with their
/// instructions' indices, in order) name: as the instructions come in
/// order, a vgrf's first touch is the low end and its last the high end.
fn add_touches<'a>(
    touch: &mut [Interval],
    acc: impl IntoIterator<Item = (usize, &'a Access)>,
    owner: impl Fn(u32) -> Option<usize>,
) {
    for (i, a) in acc {
        let mut at = |r: u32| {
            if let Some(v) = owner(r) {
                let slot = &mut touch[v];
                *slot = Some(slot.map_or((i, i), |(lo, _)| (lo, i)));
            }
        };
        for w in &a.writes {
            at(w.0);
        }
        for r in &a.reads {
            at(r.reg);
        }
    }
}

/// Per block, whether it is the exit of a loop (the block after a WHILE).
fn loop_exits(cfg: &Cfg) -> Vec<bool> {
    let n = cfg.block_of.len();
    let mut exits = vec![false; cfg.blocks.len()];
    for l in &cfg.loops {
        if l.end + 1 < n {
            exits[cfg.block_of[l.end + 1]] = true;
        }
    }
    exits
}

/// Adds to `facts` the boundary facts that `live` gives, block by block
/// (`exits`: [`loop_exits`]), about the vgrfs `vgrfs` of its registers,
/// vgrf k being vgrf `global(k)` of the program. `owner` finds the vgrf
/// of a register when every register belongs to one vgrf at most
/// ([`apart`]); without it each vgrf is asked.
fn add_facts(
    vgrfs: &[Vgrf],
    global: impl Fn(usize) -> usize,
    live: &Liveness,
    exits: &[bool],
    owner: Option<impl Fn(u32) -> Option<usize>>,
    facts: &mut [Vec<(u32, u8)>],
) {
    let d = live.defined();
    for (b, &exit) in exits.iter().enumerate() {
        for (set, entry) in [(&live.live_in[b], true), (&live.live_out[b], false)] {
            let mut add = |v: usize| {
                let g = vgrfs[v];
                let bits = match entry {
                    true if d.any_at_entry(b, g.first, g.size) => ENTRY,
                    false if d.any_at_exit(b, g.first, g.size) => EXIT,
                    _ => 0,
                } | if entry && exit { LIVE_IN } else { 0 };
                if bits == 0 {
                    return;
                }
                let list = &mut facts[global(v)];
                match list.last_mut() {
                    Some((at, had)) if *at == b as u32 => *had |= bits,
                    _ => list.push((b as u32, bits)),
                }
            };
            match &owner {
                Some(owner) => {
                    let mut last = None;
                    for v in set.live_regs().filter_map(|r| owner(r as u32)) {
                        if last != Some(v) {
                            last = Some(v);
                            add(v);
                        }
                    }
                }
                None => {
                    for (v, g) in vgrfs.iter().enumerate() {
                        if set.regs_live(g.first, g.size) {
                            add(v);
                        }
                    }
                }
            }
        }
    }
}

/// The intervals on `cfg` from their parts: each vgrf's touches widened by
/// its boundary facts in block order (entry, then exit), then by the loops
/// in order.
fn hulls(parts: &Parts, cfg: &Cfg, bugs: BugSet) -> (Vec<Interval>, Happened) {
    let n = cfg.block_of.len();
    let mut iv = parts.touch.clone();
    let mut happened = Happened::default();
    // Widens `slot` to instruction i; whether it grew.
    let widen = |slot: &mut Interval, i: usize| {
        let before = *slot;
        *slot = Some(slot.map_or((i, i), |(lo, hi)| (lo.min(i), hi.max(i))));
        *slot != before
    };
    for (slot, facts) in iv.iter_mut().zip(&parts.facts) {
        for &(b, bits) in facts {
            let blk = &cfg.blocks[b as usize];
            if bits & ENTRY != 0 {
                happened.at_entry |= widen(slot, blk.start);
            }
            if bits & EXIT != 0 {
                happened.at_exit |= widen(slot, blk.end - 1);
            }
        }
    }
    for l in &cfg.loops {
        let header = cfg.block_of[l.start] as u32;
        let exit = (l.end + 1 < n).then(|| cfg.block_of[l.end + 1] as u32);
        for (slot, facts) in iv.iter_mut().zip(&parts.facts) {
            let Some((lo, hi)) = *slot else { continue };
            if hi < l.start || lo > l.end {
                continue;
            }
            let has = |b: u32, bit: u8| {
                facts
                    .binary_search_by_key(&b, |f| f.0)
                    .is_ok_and(|k| facts[k].1 & bit != 0)
            };
            let carried = has(header, ENTRY);
            let leaves = exit.is_some_and(|e| has(e, LIVE_IN));
            // Injected bug (BUGS.md: regalloc-loop-exit-live): a value that
            // only leaves the loop keeps its plain hull.
            let leaves = leaves && (carried || !bugs.has(Bug::RegallocLoopExitLive));
            if carried || leaves {
                happened.carried |= carried;
                happened.leaves |= !carried;
                *slot = Some((lo.min(l.start), hi.max(l.end)));
            }
        }
    }
    happened.untouched = iv.iter().any(Option::is_none);
    (iv, happened)
}

/// Register allocation's intervals, kept up to date across spills (the
/// module doc).
pub(crate) struct Tracked {
    parts: Parts,
    /// The CFG of the program the parts are of.
    cfg: Rc<Cfg>,
    /// The instructions touching the scratch header, ascending, with
    /// their footprints cut down to it (as register 0).
    header_users: Vec<(usize, Rc<Access>)>,
}

impl Tracked {
    /// The intervals of `p` from their parts (the liveness of `p` gave
    /// them on `cfg`), kept for updates; None when an update could not be
    /// relied on (an operand that strays out of its vgrf, or vgrfs out of
    /// order or overlapping).
    pub(crate) fn new(p: &VProgram, parts: Parts, cfg: Rc<Cfg>) -> Option<Tracked> {
        (apart(p) && operands_in_one_vgrf(p)).then_some(Tracked {
            parts,
            cfg,
            header_users: Vec::new(),
        })
    }

    /// The intervals (recording what happened, as [`intervals`] does).
    pub(crate) fn intervals(&self, bugs: BugSet) -> Vec<Interval> {
        let (iv, happened) = hulls(&self.parts, &self.cfg, bugs);
        happened.record();
        iv
    }

    /// Follows the spill of the vgrfs `spilled` out of the program, which
    /// is now `q` (`map` says where its instructions went; `header` is the
    /// scratch header's register).
    pub(crate) fn after_spill(
        &mut self,
        q: &VProgram,
        spilled: &[usize],
        map: &SpillMap,
        header: u32,
    ) {
        let cfg = Rc::new(self.cfg.with_insertions(&map.new_index, q.insts.len()));
        let old_nv = self.parts.touch.len();
        let moved = |i: usize| map.moved[i] as usize;
        for slot in &mut self.parts.touch {
            *slot = slot.map(|(lo, hi)| (moved(lo), moved(hi)));
        }
        for &v in spilled {
            self.parts.touch[v] = None;
            self.parts.facts[v].clear();
        }
        self.parts.touch.resize(q.vgrfs.len(), None);
        self.parts.facts.resize(q.vgrfs.len(), Vec::new());
        // The vgrfs whose liveness is computed again: the header, then the
        // ones the spill made (the header among them the first time: it is
        // made first), on registers of their own, the header's 0.
        let first_new = q.vgrfs.get(old_nv).map_or(q.reg_end(), |g| g.first);
        let header_old = header < first_new;
        let local = |r: u32| -> Option<u32> {
            if r == header {
                Some(0)
            } else {
                (r >= first_new).then(|| r - first_new + u32::from(header_old))
            }
        };
        let mut ours: Vec<usize> = (old_nv..q.vgrfs.len()).collect();
        if header_old {
            ours.insert(0, q.vgrf_of(header).expect("the header's vgrf"));
        }
        let vgrfs: Vec<Vgrf> = ours
            .iter()
            .map(|&v| Vgrf {
                first: local(q.vgrfs[v].first).expect("a register of ours"),
                size: q.vgrfs[v].size,
            })
            .collect();
        let nlocal = vgrfs.last().map_or(0, |g| g.first + g.size);
        let mut owner_of = vec![usize::MAX; nlocal as usize];
        for (k, g) in vgrfs.iter().enumerate() {
            owner_of[g.first as usize..(g.first + g.size) as usize].fill(k);
        }
        let owner = |r: u32| Some(owner_of[r as usize]).filter(|&k| k != usize::MAX);
        for &v in &ours {
            self.parts.touch[v] = None;
            self.parts.facts[v].clear();
        }
        // Every instruction that touches them: the header's earlier users,
        // and what the spill made or rewrote, with their footprints cut
        // down to our registers.
        let earlier = std::mem::take(&mut self.header_users);
        let mut earlier = earlier.into_iter().map(|(i, a)| (moved(i), a)).peekable();
        let mut users: Vec<(usize, Rc<Access>)> = Vec::new();
        for &i in &map.new_insts {
            let i = i as usize;
            while let Some(e) = earlier.next_if(|e| e.0 < i) {
                self.header_users.push(e.clone());
                users.push(e);
            }
            let Some(a) = cut_down(&crate::brw::ops::access(&q.insts[i]), local) else {
                continue;
            };
            if let Some(h) = cut_down(&a, |r| (r == 0).then_some(0)) {
                self.header_users.push((i, Rc::new(h)));
            }
            users.push((i, Rc::new(a)));
        }
        for e in earlier {
            self.header_users.push(e.clone());
            users.push(e);
        }
        let mut touch = vec![None; ours.len()];
        add_touches(&mut touch, users.iter().map(|(i, a)| (*i, &**a)), owner);
        for (k, &v) in ours.iter().enumerate() {
            self.parts.touch[v] = touch[k];
        }
        // The same dataflow over the same blocks and edges, each block
        // holding only the users in it (the others change none of our
        // bytes).
        let mut acc: Vec<Rc<Access>> = Vec::with_capacity(users.len());
        let mut next = users.into_iter().peekable();
        let blocks = cfg
            .blocks
            .iter()
            .map(|blk| {
                let start = acc.len();
                while let Some((_, a)) = next.next_if(|u| u.0 < blk.end) {
                    acc.push(a);
                }
                Block {
                    start,
                    end: acc.len(),
                    preds: blk.preds.clone(),
                    succs: blk.succs.clone(),
                }
            })
            .collect();
        let users_cfg = Cfg {
            blocks,
            block_of: Vec::new(),
            loops: Vec::new(),
        };
        let acc: Footprints = acc.into();
        let live = Liveness::analyse(Rc::new(users_cfg), acc, nlocal as usize);
        let exits = loop_exits(&cfg);
        add_facts(
            &vgrfs,
            |k| ours[k],
            &live,
            &exits,
            Some(owner),
            &mut self.parts.facts,
        );
        self.cfg = cfg;
        #[cfg(debug_assertions)]
        {
            let full = Liveness::compute(q).expect("liveness of a spilled program");
            assert_eq!(*self.cfg, *full.cfg, "the CFG after a spill");
            assert_eq!(self.parts, parts_of(q, &full), "intervals after a spill");
        }
    }
}

/// The footprint `a` on the registers `local` maps (renamed to what it
/// gives), without flags; None when it names none of them.
fn cut_down(a: &Access, local: impl Fn(u32) -> Option<u32>) -> Option<Access> {
    let mut cut = Access {
        kill: a.kill,
        ..Access::default()
    };
    for r in &a.reads {
        if let Some(reg) = local(r.reg) {
            cut.reads.push(crate::brw::ops::GrfRead { reg, ..*r });
        }
    }
    for &(r, m) in &a.writes {
        if let Some(reg) = local(r) {
            cut.writes.push((reg, m));
        }
    }
    (!cut.reads.is_empty() || !cut.writes.is_empty()).then_some(cut)
}

/// Whether every operand of `p` lies in one vgrf or in the payload (the
/// extents the spiller renames: [`crate::spill::operand_regs`]).
fn operands_in_one_vgrf(p: &VProgram) -> bool {
    let owners = p.vgrf_owners();
    p.insts.iter().all(|i| {
        crate::spill::operand_regs(i)
            .into_iter()
            .all(|(first, count)| {
                let last = first + count - 1;
                last < p.payload_grfs
                    || owners.of(first).is_some_and(|v| owners.of(last) == Some(v))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::vprog;
    use crate::spill::Spiller;

    /// SIMD8, one register per value: an address, a load, a loop whose
    /// body branches (g5 carried around it, g6 and g7 written in the arms,
    /// g8 leaving it), then a store.
    const BRANCHY_LOOP: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmov(8) g4<1>D 0D\nmov(8) g5<1>D 0D\nL0:\nadd(8) g5<1>D g5<8,8,1>D g3<8,8,1>D\ncmp.g.f0.0(8) null<1>D g5<8,8,1>D 20D\n(+f0.0) if(8) JIP: L1 UIP: L2\nadd(8) g6<1>D g5<8,8,1>D 1D\nmov(8) g8<1>D g6<8,8,1>D\nelse(8) JIP: L2 UIP: L2\nL1:\nmul(8) g7<1>D g5<8,8,1>D 3D\nmov(8) g8<1>D g7<8,8,1>D\nL2:\nendif(8) JIP: L3\nL3:\nadd(8) g4<1>D g4<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g4<8,8,1>D 4D\n(+f0.0) while(8) JIP: L0\nadd(8) g9<1>D g8<8,8,1>D g5<8,8,1>D\nsend(8) null g2 g9 st.b32 { align1 1Q EOT };";

    /// The intervals of `p` computed from its liveness, and what happened.
    fn from_scratch(p: &VProgram, live: &Liveness, bugs: BugSet) -> (Vec<Interval>, Happened) {
        hulls(&parts_of(p, live), &live.cfg, bugs)
    }

    fn branchy() -> VProgram {
        let vg: Vec<(u32, u32)> = (2..10).map(|r| (r, 1)).collect();
        vprog(8, BRANCHY_LOOP, &vg)
    }

    /// Spills `order` one vgrf at a time, following each spill with
    /// [`Tracked::after_spill`], and checks the kept intervals, CFG and
    /// parts against those computed from scratch after each.
    fn spill_in_turn(p: &VProgram, order: &[usize], bugs: BugSet) {
        let live = Liveness::compute(p).unwrap();
        let (iv, parts) = intervals_and_parts(p, &live, bugs);
        let mut t = Tracked::new(p, parts, live.cfg.clone()).expect("trackable");
        assert_eq!(t.intervals(bugs), iv);
        let mut q = p.clone();
        let mut spiller = Spiller::default();
        for &v in order {
            let map = spiller.spill(&mut q, &[v], bugs).unwrap();
            t.after_spill(&q, &[v], &map, spiller.header().unwrap());
            let live = Liveness::compute(&q).unwrap();
            assert_eq!(*t.cfg, *live.cfg, "CFG after spilling {v}");
            assert_eq!(t.parts, parts_of(&q, &live), "parts after spilling {v}");
            let (want, happened) = from_scratch(&q, &live, bugs);
            assert_eq!(hulls(&t.parts, &t.cfg, bugs), (want, happened), "after {v}");
            assert_eq!(t.parts.touch[v], None, "vgrf {v} is spilled");
        }
    }

    #[test]
    fn each_value_of_a_branchy_loop_spilled_alone() {
        let p = branchy();
        for v in 0..p.vgrfs.len() {
            spill_in_turn(&p, &[v], BugSet::NONE);
        }
    }

    #[test]
    fn values_spilled_one_after_another_share_the_header() {
        let p = branchy();
        spill_in_turn(&p, &[3, 6, 0, 2, 1], BugSet::NONE);
        spill_in_turn(
            &p,
            &[6, 5, 4, 3],
            BugSet::NONE.with(Bug::RegallocLoopExitLive),
        );
        // Fills that take the execution mask kill only the lane view: the
        // temporaries may then be live where their fills did not run.
        spill_in_turn(
            &p,
            &[3, 1, 6],
            BugSet::NONE.with(Bug::SpillFillWithoutNomask),
        );
    }

    #[test]
    fn the_loop_and_block_boundaries_extend_the_kept_intervals() {
        let p = branchy();
        let live = Liveness::compute(&p).unwrap();
        let (iv, _) = from_scratch(&p, &live, BugSet::NONE);
        // The loop is [4, 15]; g5 (vgrf 3, read at 16) is carried around
        // it, g8 (vgrf 6, written at 8 and 11, read at 16) leaves it, g6
        // (vgrf 4) lives in the then-arm only.
        assert_eq!(iv[3], Some((3, 16)));
        assert_eq!(iv[6], Some((4, 16)));
        assert_eq!(iv[4], Some((7, 8)));
        let mut q = p.clone();
        let mut spiller = Spiller::default();
        let map = spiller.spill(&mut q, &[1], BugSet::NONE).unwrap();
        let (_, parts) = intervals_and_parts(&p, &live, BugSet::NONE);
        let mut t = Tracked::new(&p, parts, live.cfg.clone()).unwrap();
        t.after_spill(&q, &[1], &map, spiller.header().unwrap());
        // The header copy goes first, the load's write of g3 gets a spill
        // after it and its one reader (4) a fill before it (two
        // instructions each): the CMP after that reader moved by 5.
        let iv = t.intervals(BugSet::NONE);
        assert_eq!(iv[1], None);
        assert_eq!(map.moved[5], 5 + 1 + 2 + 2);
        assert_eq!(iv[3], Some((map.moved[3] as usize, map.moved[16] as usize)));
    }

    #[test]
    fn programs_an_update_cannot_rely_on_are_declined() {
        // SIMD16 (payload g0-g2): a copy of a two-register value, stored.
        let text = "mov(16) g5<1>UD g3<8,8,1>UD\nsend(16) null g1 g5 st.b32 { align1 1H EOT };";
        let fine = vprog(16, text, &[(3, 2), (5, 2)]);
        let live = Liveness::compute(&fine).unwrap();
        let parts = || intervals_and_parts(&fine, &live, BugSet::NONE).1;
        let cfg = || live.cfg.clone();
        assert!(Tracked::new(&fine, parts(), cfg()).is_some());
        // The source over two one-register vgrfs.
        let crossing = vprog(16, text, &[(3, 1), (4, 1), (5, 2)]);
        assert!(Tracked::new(&crossing, parts(), cfg()).is_none());
        // A source in the payload and a vgrf.
        let text = "mov(16) g5<1>UD g2<8,8,1>UD\nsend(16) null g1 g5 st.b32 { align1 1H EOT };";
        let from_payload = vprog(16, text, &[(3, 2), (5, 2)]);
        assert!(Tracked::new(&from_payload, parts(), cfg()).is_none());
        // Vgrfs out of order.
        let mut reversed = fine.clone();
        reversed.vgrfs.reverse();
        assert!(Tracked::new(&reversed, parts(), cfg()).is_none());
    }
}
