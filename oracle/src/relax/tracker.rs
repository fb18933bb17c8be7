//! The relaxed run's watcher of the interpreter: taints per lane and value,
//! control taint per lane, the exclusion of each (invocation, slot), and the
//! uniformity records (the module doc describes the rules).

use super::float::{self, Lowering};
use super::shape::Shape;
use super::taint::{self, Kind, Taint};
use super::uniform::Uniformity;
use super::{Exclusions, Guarantees, Relaxation};
use crate::interp::{Hook, Lanes};
use ir::eval::Args;
use ir::op::{Op, OpClass, ValueKind};
use ir::{Block, If, Instr, Jump, Loop, Program, SlotType, ValueId};

/// A lane whose presence is certain.
const CERTAIN: usize = usize::MAX;

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    (0..32).filter(move |l| mask >> l & 1 == 1)
}

/// Whether a stored value of this taint is excluded from a slot of `ty`,
/// and why: a float slot compares NaNs by class, so NaN bits pass.
fn store_cause(t: Taint, ty: SlotType) -> Option<Relaxation> {
    if ty.is_float() && t.kind() == Kind::NanBits {
        None
    } else {
        t.cause()
    }
}

/// The relaxed run's state (one per `run_relaxed`, reused across passes).
pub(crate) struct Tracker<'a> {
    g: &'a Guarantees,
    shape: &'a Shape,
    types: &'a [SlotType],
    bits: Vec<u8>,
    w: usize,
    /// `taint[value * w + lane]`.
    taint: Vec<Taint>,
    nslots: usize,
    invocations: u32,
    /// `excl[invocation * nslots + slot]`.
    excl: Vec<Option<Relaxation>>,
    base: u32,
    /// The subgroup's lanes.
    present: u32,
    /// Per lane: the cause of its control taint (stores excluded).
    ctrl: [Option<Relaxation>; 32],
    /// Per lane: the depth of the frame whose end makes its presence
    /// certain again, or `CERTAIN`.
    release: [usize; 32],
    /// Lanes rejoining after an uncertain path: the phis of the next block.
    rejoin: u32,
    /// Lanes of the subgroup that ran `demote`.
    helpers: u32,
    /// Open `if` (false) and loop (true) frames.
    frames: Vec<bool>,
    uni: Uniformity,
}

impl<'a> Tracker<'a> {
    /// A tracker for one program and dispatch size.
    pub(crate) fn new(
        p: &'a Program,
        invocations: u32,
        simd: u32,
        g: &'a Guarantees,
        shape: &'a Shape,
    ) -> Tracker<'a> {
        let w = simd.clamp(1, 32) as usize;
        Tracker {
            g,
            shape,
            types: &p.outputs,
            bits: p.value_bits(),
            w,
            taint: vec![Taint::CLEAN; p.value_bound() * w],
            nslots: p.outputs.len(),
            invocations,
            excl: vec![None; invocations as usize * p.outputs.len()],
            base: 0,
            present: 0,
            ctrl: [None; 32],
            release: [CERTAIN; 32],
            rejoin: 0,
            helpers: 0,
            frames: Vec::new(),
            uni: Uniformity::new(g.reconvergence, shape.tangled_ops),
        }
    }

    /// Ends a pass; whether another is needed (then the exclusions restart).
    pub(crate) fn next_pass(&mut self) -> bool {
        let again = self.uni.next_pass();
        if again {
            self.excl.fill(None);
        }
        again
    }

    /// The exclusions of the last pass.
    pub(crate) fn exclusions(&self) -> Exclusions {
        Exclusions {
            slots: self.nslots,
            invocations: self.invocations,
            causes: self.excl.clone(),
        }
    }

    fn get(&self, v: ValueId, lane: usize) -> Taint {
        self.taint[v.0 as usize * self.w + lane]
    }

    fn set(&mut self, v: ValueId, lane: usize, t: Taint) {
        self.taint[v.0 as usize * self.w + lane] = t;
    }

    /// What every value a lane defines carries: its control cause while
    /// its presence is uncertain.
    fn extra(&self, lane: usize) -> Taint {
        if self.release[lane] == CERTAIN {
            Taint::CLEAN
        } else {
            Taint::any_of(self.ctrl[lane])
        }
    }

    /// The first lane of the subgroup whose presence is uncertain.
    fn wandering(&self) -> Taint {
        lanes(self.present)
            .find(|&l| self.release[l] != CERTAIN)
            .map_or(Taint::CLEAN, |l| Taint::any_of(self.ctrl[l]))
    }

    /// Lanes whose uncertainty ends with the frame at `depth`.
    fn release_at(&mut self, depth: usize) {
        for l in 0..32 {
            if self.release[l] == depth {
                self.release[l] = CERTAIN;
                self.rejoin |= 1 << l;
            }
        }
    }

    fn alu(&mut self, lanes_v: Lanes<'_>, i: &Instr, mask: u32) {
        let d = i.dest.expect("ALU ops define a value");
        let info = i.op.info();
        let float_result = info.kinds.result == ValueKind::Float;
        let is_float_op = float::lowering(i.op) != Lowering::NotFloat;
        let mut args = Args {
            bits: d.bits,
            ..Args::default()
        };
        for (k, s) in i.srcs.iter().enumerate() {
            args.src_bits[k] = self.bits[s.0 as usize];
        }
        for l in lanes(mask) {
            let r = lanes_v.get(d.id, l);
            let zero = float_result && r & !ir::float::sign_bit(d.bits) == 0;
            let mut t = Taint::CLEAN;
            if i.op == Op::Bcsel {
                t = self.select(lanes_v, i, l);
            } else {
                for (k, s) in i.srcs.iter().enumerate() {
                    t = t.or(taint::through(i.op, k, self.get(*s, l), zero));
                }
            }
            if is_float_op && !t.is_hard() {
                for (k, s) in i.srcs.iter().enumerate() {
                    args.src[k] = lanes_v.get(*s, l);
                }
                t = t.or(float::own(self.g, i.op, &args, r));
            }
            let t = t.or(self.extra(l));
            self.set(d.id, l, t);
        }
    }

    /// `bcsel`: the picked value's taint; with an uncertain condition,
    /// clean only if both values are the same clean bits.
    fn select(&self, lanes_v: Lanes<'_>, i: &Instr, l: usize) -> Taint {
        let (c, a, b) = (i.srcs[0], i.srcs[1], i.srcs[2]);
        let tc = self.get(c, l);
        if tc.is_clean() {
            self.get(if lanes_v.get(c, l) & 1 == 1 { a } else { b }, l)
        } else if lanes_v.get(a, l) == lanes_v.get(b, l)
            && self.get(a, l).is_clean()
            && self.get(b, l).is_clean()
        {
            Taint::CLEAN
        } else {
            tc.hard()
        }
    }

    /// The hard form of the first taint `v` has in an active lane: a value
    /// every lane reads (a vote's input, a lane index).
    fn any_lane(&self, v: ValueId, mask: u32) -> Taint {
        lanes(mask)
            .map(|l| self.get(v, l))
            .find(|t| !t.is_clean())
            .map_or(Taint::CLEAN, Taint::hard)
    }

    /// What an op that runs its lanes together carries where they may not
    /// all be together (uniformity records tangled).
    fn tangle(&self) -> Taint {
        if self.uni.tangled() {
            Taint::any(Relaxation::Tangle)
        } else {
            Taint::CLEAN
        }
    }

    /// A quad op's lane carries the taint of the lane it reads; a
    /// derivative's, that of an `fsub` of the two lanes it reads.
    fn quad_op(&mut self, lanes_v: Lanes<'_>, i: &Instr, mask: u32) {
        use ir::quad::QuadRead;
        let d = i.dest.expect("quad ops define a value");
        let a = i.srcs[0];
        let index = i
            .srcs
            .get(1)
            .map_or(0, |&x| lanes_v.get(x, mask.trailing_zeros() as usize));
        // A broadcast's index is read in every lane (as `read_invocation`'s),
        // and lanes that run the op together only in uniform control flow
        // tangle it as they do a subgroup op.
        let index_taint = i
            .srcs
            .get(1)
            .map_or(Taint::CLEAN, |&x| self.any_lane(x, mask));
        let shared = self.wandering().or(index_taint).or(self.tangle());
        for l in lanes(mask) {
            let t = match ir::quad::read(i.op, l, index).expect("a quad op") {
                QuadRead::Lane(r) => self.get(a, r),
                QuadRead::Difference { plus, minus } => {
                    let r = lanes_v.get(d.id, l);
                    let zero = r & !ir::float::sign_bit(32) == 0;
                    let mut t = taint::through(Op::Fsub, 0, self.get(a, plus), zero)
                        .or(taint::through(Op::Fsub, 1, self.get(a, minus), zero));
                    if !t.is_hard() {
                        let args = Args {
                            src: [lanes_v.get(a, plus), lanes_v.get(a, minus), 0, 0],
                            src_bits: [32, 32, 0, 0],
                            bits: 32,
                        };
                        t = t.or(float::own(self.g, Op::Fsub, &args, r));
                    }
                    t
                }
            };
            let t = t.or(shared).or(self.extra(l));
            self.set(d.id, l, t);
        }
    }

    fn subgroup_op(&mut self, lanes_v: Lanes<'_>, i: &Instr, mask: u32) {
        if i.op.reads_quad() {
            return self.quad_op(lanes_v, i, mask);
        }
        let d = i.dest.expect("subgroup ops define a value");
        let first = mask.trailing_zeros() as usize;
        let data = match i.op {
            Op::Ballot | Op::VoteAny | Op::VoteAll | Op::VoteIeq => self.any_lane(i.srcs[0], mask),
            Op::ReadFirstInvocation => self.get(i.srcs[0], first),
            Op::ReadInvocation => {
                let idx = self.any_lane(i.srcs[1], mask);
                let read = lanes_v.get(i.srcs[1], first) as usize;
                idx.or(self.get(i.srcs[0], read))
            }
            Op::Elect => Taint::CLEAN,
            other => unreachable!("{} is not a subgroup op", other.name()),
        };
        let t = data.or(self.wandering()).or(self.tangle());
        for l in lanes(mask) {
            let tl = t.or(self.extra(l));
            self.set(d.id, l, tl);
        }
    }

    fn io(&mut self, i: &Instr, mask: u32) {
        if i.op == Op::Demote {
            self.helpers |= mask;
        } else if i.op == Op::StoreOutput {
            let slot = i.imm as usize;
            // A helper's store has no effect: the earlier store's cause stands.
            for l in lanes(mask & !self.helpers) {
                let cause = store_cause(self.get(i.srcs[0], l), self.types[slot]).or(self.ctrl[l]);
                let inv = (self.base as usize + l) * self.nslots;
                self.excl[inv + slot] = cause;
            }
        } else if let Some(d) = i.dest {
            for l in lanes(mask) {
                let t = self.extra(l);
                self.set(d.id, l, t);
            }
        }
    }
}

impl Hook for Tracker<'_> {
    fn subgroup(&mut self, base: u32, mask: u32) {
        self.base = base;
        self.present = mask;
        self.taint.fill(Taint::CLEAN);
        self.ctrl = [None; 32];
        self.release = [CERTAIN; 32];
        self.rejoin = 0;
        self.helpers = 0;
        self.frames.clear();
        self.uni.subgroup(base / self.w as u32);
    }

    fn block(&mut self, b: &Block, mask: u32, prev: &[u32; 32]) {
        if !b.phis.is_empty() {
            let mut tmp = Vec::with_capacity(b.phis.len() * 32);
            for p in &b.phis {
                for l in lanes(mask) {
                    let src = p
                        .srcs
                        .iter()
                        .find(|(bb, _)| bb.0 == prev[l])
                        .map(|(_, v)| *v)
                        .expect("validated: a phi names every predecessor");
                    let mut t = self.get(src, l).or(self.extra(l));
                    if self.rejoin >> l & 1 == 1 {
                        t = t.or(Taint::any_of(self.ctrl[l]));
                    }
                    tmp.push(t);
                }
            }
            let mut k = 0;
            for p in &b.phis {
                for l in lanes(mask) {
                    self.set(p.dest.id, l, tmp[k]);
                    k += 1;
                }
            }
        }
        self.rejoin = 0;
    }

    fn instr(&mut self, lanes_v: Lanes<'_>, i: &Instr, mask: u32) {
        match i.op.info().class {
            OpClass::Const => {
                let d = i.dest.expect("constants define a value");
                for l in lanes(mask) {
                    let t = self.extra(l);
                    self.set(d.id, l, t);
                }
            }
            OpClass::Alu => self.alu(lanes_v, i, mask),
            OpClass::Io => self.io(i, mask),
            OpClass::Subgroup => self.subgroup_op(lanes_v, i, mask),
        }
    }

    fn if_begin(&mut self, f: &If, mask: u32, taken: u32) {
        let facts = self.shape.of_if(f);
        let tainted: u32 = lanes(mask)
            .filter(|&l| !self.get(f.cond, l).is_clean())
            .fold(0, |m, l| m | 1 << l);
        let uncertain = !self.wandering().is_clean();
        self.uni.if_begin(
            facts.id,
            taken != 0,
            mask & !taken != 0,
            tainted != 0 || uncertain,
        );
        self.frames.push(false);
        let depth = if facts.escapes {
            self.frames
                .iter()
                .rposition(|&is_loop| is_loop)
                .expect("validated: jumps are inside loops")
        } else {
            self.frames.len() - 1
        };
        for l in lanes(tainted) {
            let first = self.get(f.cond, l).cause().expect("tainted");
            let cause = *self.ctrl[l].get_or_insert(first);
            let row = (self.base as usize + l) * self.nslots;
            for &s in &facts.reach {
                self.excl[row + s].get_or_insert(cause);
            }
            self.release[l] = self.release[l].min(depth);
        }
        if tainted != 0 && facts.escapes {
            self.uni.uncertain_escape();
        }
    }

    fn if_end(&mut self, _f: &If, _out: u32) {
        let depth = self.frames.len() - 1;
        self.frames.pop();
        self.release_at(depth);
        self.uni.if_end();
    }

    fn jump(&mut self, b: &Block, j: Jump, _mask: u32) {
        self.uni.jump(j == Jump::Break, b.id.0);
    }

    fn loop_begin(&mut self, l: &Loop, _mask: u32) {
        self.frames.push(true);
        self.uni.loop_begin(self.shape.loop_id(l));
    }

    fn iteration(&mut self, _l: &Loop, _active: u32) {
        self.uni.iteration();
    }

    fn iteration_end(&mut self, _l: &Loop, fell: u32, _continued: u32) {
        let depth = self.frames.len() - 1;
        let tainted = self.release.iter().any(|&r| r <= depth);
        self.uni.iteration_end(fell != 0, tainted);
    }

    fn loop_end(&mut self, _l: &Loop, _out: u32) {
        let depth = self.frames.len() - 1;
        self.frames.pop();
        self.release_at(depth);
        self.uni.loop_end();
    }
}
