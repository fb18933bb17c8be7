//! Global code motion, modelling NIR's `nir_opt_gcm` with
//! `value_number = false` (Intel's setting): loop-invariant code leaves its
//! loops, and code sinks toward its uses, into the ifs that use it.
//!
//! For every instruction that may run where the program did not run it
//! (`op.can_speculate()`: pure and never undefined), the earliest legal
//! block is the deepest block, on the dominator tree, among those defining
//! its sources (the entry block for an instruction without sources), and
//! the latest is the nearest common dominator of its uses (an
//! instruction's block; for a phi source, the predecessor block; for an
//! `if` condition, the block before the `if`). On the dominator path from
//! the latest block up to the earliest one, the pass picks the block with
//! the smallest loop depth, the latest one on ties, as GCM's late
//! scheduling does (`gcm_schedule_late_def`). A block above the
//! instruction's own gets it at its end (a hoist: out of at least one loop,
//! never merely out of an if); a block below gets it at its start (a sink:
//! into the arm of an `if`, or past a branch, that uses it, never into a
//! loop). Uses are taken where they are when the pass starts and the
//! instructions are visited in program order, so a source has moved before
//! its users are placed, and every place is dominated by where each source
//! now is and dominates every use.
//!
//! Derivatives (uniform-control, seed 004) move earlier only, as NIR's
//! `GCM_INSTR_SCHEDULE_EARLIER_ONLY`: out of loops, to the block late
//! scheduling would pick on the way up from their own, and only when that
//! block is uniform (`ir::uniformity`), where every lane of every quad runs
//! it; a valid program ran them with their whole quad active, and the
//! values they read are loop-invariant. They never sink: in an arm the
//! quad's other lanes would not compute their source. Quad ops
//! (convergent) are pinned: a lane newly running one could read a
//! neighbour that is not active.
//!
//! `is_helper_invocation` is pinned too: it reads what `demote` did, which
//! another block may not have done yet.
//!
//! Pinned: subgroup ops (their values depend on the lanes active where they
//! run, seed 004; NIR pins every non-CAN_REORDER intrinsic), ops that may be
//! undefined (`idiv`, `f2i`, `bitfield_insert`, `read_invocation`, ...:
//! running them on more lanes or paths could make a valid program invalid),
//! `store_output`, and phis. Moving a pure op never changes which lanes run
//! a subgroup op. The destination dominates the old block, so every use
//! stays dominated; sources moved earlier in the same run are taken into
//! account because blocks are visited in program order.

/// The pass's decision points (`crate::coverage`).
#[path = "gcm_cov.rs"]
pub mod cov;

use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::IrCtx;
use ir::cfg::Cfg;
use ir::{CfNode, Instr, Program, ValueId, ValueMap};

/// Hoists loop-invariant speculatable instructions and sinks them toward
/// their uses; returns whether the program changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let cfg = Cfg::build(&p.body);
    let bound = p.value_bound();
    // The block index defining each value when the pass starts.
    let mut home = vec![0usize; bound];
    p.for_each_block(&mut |b| {
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        for phi in &b.phis {
            // The injected bug forgets phi sources: they count as defined
            // in the entry block.
            if !(bi != 0 && ctx.bugs.has(Bug::GcmIgnoresPhiSource)) {
                home[phi.dest.id.0 as usize] = bi;
            }
        }
        for d in b.instrs.iter().filter_map(|i| i.dest) {
            home[d.id.0 as usize] = bi;
        }
    });
    // Schedule early, in program order: the earliest block of every value
    // (its own for a pinned one), and the movable instructions.
    let mut early = home.clone();
    // In program order (the order moved instructions keep): each movable
    // instruction and each pinned subgroup op, its block, and how it may
    // move.
    let mut order: Vec<(ValueId, usize, Motion)> = Vec::new();
    // Block uniformity, computed when a derivative could leave a loop.
    let mut uniformity: Option<ir::uniformity::Uniformity> = None;
    p.for_each_block(&mut |b| {
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        if !cfg.reachable(bi) {
            return;
        }
        for i in &b.instrs {
            let Some(d) = i.dest else {
                continue;
            };
            let e = earliest(&cfg, &early, i);
            let up = walk_up(&cfg, bi, e);
            let leaves_loop = up != bi;
            // Injected bug (BUGS.md: gcm-hoists-cross-invocation): an op
            // pinned only because it reads the active lanes moves anyway.
            let unpinned = i.op.is_cross_invocation()
                && !i.op.has_side_effects()
                && !i.op.may_be_undefined()
                && leaves_loop
                && ctx.bugs.has(Bug::GcmHoistsCrossInvocation);
            // Injected bug (BUGS.md: gcm-sinks-convergent): derivatives and
            // quad ops move like pure ops, sinking with their sources.
            let reads_quad = i.op.reads_quad();
            let unpinned = unpinned || reads_quad && ctx.bugs.has(Bug::GcmSinksConvergent);
            if !i.op.can_speculate() && !unpinned {
                if i.op.is_uniform_control() && leaves_loop {
                    // Earlier only (NIR's GCM_INSTR_SCHEDULE_EARLIER_ONLY for
                    // derivatives), and only into a block every lane runs.
                    if uniformity
                        .get_or_insert_with(|| ir::uniformity::analyze(p))
                        .block[cfg.blocks[up].0 as usize]
                    {
                        hit(cov::PINNED_UNIFORM_CONTROL_DIVERGENT);
                    } else {
                        early[d.id.0 as usize] = e;
                        order.push((d.id, bi, Motion::EarlierOnly));
                    }
                    continue;
                }
                // Pinned; recorded where it would otherwise leave a loop.
                if cfg.loop_depth[bi] > 0 && leaves_loop {
                    hit(if i.op.is_cross_invocation() {
                        cov::PINNED_CROSS_INVOCATION
                    } else if i.op.is_convergent() {
                        cov::PINNED_CONVERGENT
                    } else if i.op.may_be_undefined() {
                        cov::PINNED_UNDEFINED
                    } else {
                        cov::PINNED_INVOCATION_STATE
                    });
                } else if (i.op.is_cross_invocation() || reads_quad) && !i.op.has_side_effects() {
                    let lane_set = i.op.is_cross_invocation();
                    order.push((d.id, bi, Motion::Pinned { lane_set }));
                }
                continue;
            }
            early[d.id.0 as usize] = e;
            order.push((d.id, bi, Motion::Free));
        }
    });
    // Schedule late, users first: the nearest common dominator of the
    // uses' final blocks, then up the dominator tree to the earliest block,
    // the smallest loop depth winning and the latest block on ties.
    let uses = uses_of(p, &cfg, bound);
    let mut fin = home.clone();
    let late = |fin: &[usize], v: ValueId| -> Option<usize> {
        let mut acc: Option<usize> = None;
        for &(user, at) in &uses[v.0 as usize] {
            let b = match user {
                Some(u) => fin[u.0 as usize],
                None => at?,
            };
            acc = Some(acc.map_or(b, |a| common_dominator(&cfg, a, b)));
        }
        acc
    };
    for &(v, bi, motion) in order.iter().rev().filter(|o| !o.2.is_pinned()) {
        let start = match motion {
            Motion::EarlierOnly => bi,
            _ => late(&fin, v).unwrap_or(bi),
        };
        let e = early[v.0 as usize];
        if !cfg.dominates(e, start) {
            continue;
        }
        let to = walk_up(&cfg, start, e);
        // Only along the instruction's own dominator path.
        if cfg.dominates(to, bi) || cfg.dominates(bi, to) {
            fin[v.0 as usize] = to;
        }
    }
    // Subgroup ops stay where they are: sunk into a branch they would run
    // on fewer lanes. Their users are placed already, and their sources
    // dominate their own block, so the injected bug may sink them last.
    for &(v, bi, motion) in &order {
        let Motion::Pinned { lane_set } = motion else {
            continue;
        };
        let Some(l) = late(&fin, v).filter(|&l| l != bi && cfg.dominates(bi, l)) else {
            continue;
        };
        let to = walk_up(&cfg, l, bi);
        if to == bi {
            continue;
        }
        // Injected bug (BUGS.md: gcm-sinks-cross-invocation): a subgroup
        // op sinks toward its uses like a pure one.
        if ctx.bugs.has(Bug::GcmSinksCrossInvocation) && lane_set {
            fin[v.0 as usize] = to;
        } else {
            hit(if lane_set {
                cov::PINNED_WOULD_SINK
            } else {
                cov::PINNED_CONVERGENT_WOULD_SINK
            });
        }
    }
    // The moves, in program order: (value, destination, sinks).
    let mut moves: Vec<(ValueId, usize, bool)> = Vec::new();
    for &(v, bi, motion) in &order {
        let to = fin[v.0 as usize];
        if to == bi {
            if cfg.loop_depth[bi] > 0 && motion == Motion::Free {
                hit(cov::REFUSE_LOOP_VARIANT);
            }
            continue;
        }
        if motion == Motion::EarlierOnly {
            hit(cov::HOIST_UNIFORM_CONTROL);
        }
        let sinks = cfg.dominates(bi, to);
        if sinks {
            hit(cov::SINK);
            if cfg.loop_depth[to] > 0 {
                hit(cov::SINK_IN_LOOP);
            }
        } else {
            hit(cov::HOIST);
            if cfg.loop_depth[bi] - cfg.loop_depth[to] >= 2 {
                hit(cov::HOIST_SEVERAL);
            }
            if cfg.loop_depth[to] > 0 {
                hit(cov::HOIST_INTO_OUTER);
            }
        }
        moves.push((v, to, sinks));
    }
    if moves.is_empty() {
        return false;
    }
    let mut target: ValueMap<usize> = ValueMap::with_bound(bound);
    for &(v, to, _) in &moves {
        target.insert(v, to);
    }
    let mut taken: ValueMap<Instr> = ValueMap::with_bound(bound);
    p.for_each_block_mut(&mut |b| {
        b.instrs.retain(|i| match i.dest {
            Some(d) if target.contains(d.id) => {
                taken.insert(d.id, i.clone());
                false
            }
            _ => true,
        });
    });
    // A hoist goes to the end of its block, a sink to the start (before
    // the uses there); both in program order, so sources come first.
    p.for_each_block_mut(&mut |b| {
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        let mut sunk = Vec::new();
        for &(v, to, sinks) in &moves {
            if to == bi {
                let i = taken.remove(v).expect("taken once");
                if i.srcs.is_empty() && !sinks {
                    hit(cov::HOIST_NO_SOURCES);
                }
                if sinks {
                    sunk.push(i);
                } else {
                    b.instrs.push(i);
                }
            }
        }
        b.instrs.splice(0..0, sunk);
    });
    true
}

/// How an instruction may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Motion {
    /// Speculatable: hoisted out of loops and sunk toward its uses.
    Free,
    /// A derivative: hoisted out of loops into a uniform block, never sunk.
    EarlierOnly,
    /// Stays (a subgroup op, a quad op; recorded where it would sink).
    Pinned {
        /// It depends on the set of active lanes (a ballot, a vote, ...),
        /// not only on its quad's lanes being active.
        lane_set: bool,
    },
}

impl Motion {
    fn is_pinned(self) -> bool {
        matches!(self, Motion::Pinned { .. })
    }
}

/// Every use of each value: the user's value when the user is an
/// instruction defining one (it may move), else the block of the use (a
/// store's block; a phi source's predecessor; an `if` condition's block,
/// the one before the `if`), `None` for a block the entry does not reach.
type Uses = Vec<Vec<(Option<ValueId>, Option<usize>)>>;

fn uses_of(p: &Program, cfg: &Cfg, bound: usize) -> Uses {
    fn walk(list: &[CfNode], cfg: &Cfg, uses: &mut Uses) {
        let at = |id| cfg.index(id).filter(|&i| cfg.reachable(i));
        let note = |uses: &mut Uses, v: ValueId, u: (Option<ValueId>, Option<usize>)| {
            if let Some(l) = uses.get_mut(v.0 as usize) {
                l.push(u);
            }
        };
        let mut before = None;
        for n in list {
            match n {
                CfNode::Block(b) => {
                    let bi = at(b.id);
                    for phi in &b.phis {
                        for &(pred, v) in &phi.srcs {
                            note(uses, v, (None, at(pred)));
                        }
                    }
                    for i in &b.instrs {
                        for &v in &i.srcs {
                            // A user in an unreachable block pins its source.
                            let user = i.dest.map(|d| d.id).filter(|_| bi.is_some());
                            note(uses, v, (user, bi));
                        }
                    }
                    before = bi;
                }
                CfNode::If(f) => {
                    note(uses, f.cond, (None, before));
                    walk(&f.then_body, cfg, uses);
                    walk(&f.else_body, cfg, uses);
                }
                CfNode::Loop(l) => walk(&l.body, cfg, uses),
            }
        }
    }
    let mut uses = vec![Vec::new(); bound];
    walk(&p.body, cfg, &mut uses);
    uses
}

/// The nearest block dominating both `a` and `b` (both reachable).
fn common_dominator(cfg: &Cfg, mut a: usize, b: usize) -> usize {
    while !cfg.dominates(a, b) {
        a = cfg.idom[a];
    }
    a
}

/// The earliest legal block of `i`: every source's earliest block
/// dominates the instruction, so they lie on one dominator path; the
/// deepest of them (the entry block for an instruction without sources).
fn earliest(cfg: &Cfg, early: &[usize], i: &Instr) -> usize {
    let mut e = 0;
    for s in &i.srcs {
        let d = early[s.0 as usize];
        if cfg.dominates(e, d) {
            e = d;
        }
    }
    e
}

/// From block `start` up the dominator tree to block `earliest`: the block
/// with the smallest loop depth, the latest one on ties.
fn walk_up(cfg: &Cfg, start: usize, earliest: usize) -> usize {
    let (mut b, mut best) = (start, start);
    while b != earliest {
        b = cfg.idom[b];
        if cfg.loop_depth[b] < cfg.loop_depth[best] {
            best = b;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check, check_corpus, ctx, hits_of, Pass, PIPELINE};

    #[test]
    fn moves_loop_invariant_code_out_of_the_loop_toward_its_uses() {
        // %5, %6 and %7 are loop invariant. %7 (in the arm that breaks) and
        // %6 (read only by %7) are used only after the loop: late
        // scheduling takes the latest block at loop depth 0 on the way to
        // their earliest block, b5, so they sink out of the loop, %6 first.
        // The constant %5 is also read in the loop (%9, %8): the nearest
        // common dominator of its uses is b1, and up from there b0 is the
        // shallowest block, so it is hoisted to the end of b0. %8 uses the
        // counter phi and stays; %9 (udiv, may be undefined) and the ballot
        // %10 are pinned though their sources are invariant.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	1 %3 = ilt %2, %1
	loop {
		block b1:
		32 %4 = phi b0: %2, b4: %8
		32 %5 = load_const (0x00000003)
		32 %6 = imul %0, %5
		32 %9 = udiv %0, %5
		32 %10 = @ballot (%3)
		1 %11 = ige %4, %1
		if %11 {
			block b2:
			32 %7 = iadd %6, %0
			break
		} else {
			block b3:
		}
		block b4:
		32 %8 = iadd %4, %5
	}
	block b5:
	@store_output (%7) (slot=0)
	@store_output (%9) (slot=1)
	@store_output (%10) (slot=2)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	1 %3 = ilt %2, %1
	32 %5 = load_const (0x00000003)
	loop {
		block b1:
		32 %4 = phi b0: %2, b4: %8
		32 %9 = udiv %0, %5
		32 %10 = @ballot (%3)
		1 %11 = ige %4, %1
		if %11 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %8 = iadd %4, %5
	}
	block b5:
	32 %6 = imul %0, %5
	32 %7 = iadd %6, %0
	@store_output (%7) (slot=0)
	@store_output (%9) (slot=1)
	@store_output (%10) (slot=2)
}
",
        );
    }

    #[test]
    fn hoists_to_the_shallowest_legal_loop_and_not_out_of_plain_ifs() {
        // In the inner loop, %9 depends on the outer counter %5 and goes to
        // b4, the block before the inner loop (still in the outer loop);
        // the constant %10 leaves both loops for b3, the latest block at
        // depth 0 on its dominator path. Outside loops, %3 in an if arm
        // stays where it is.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000001)
	if %1 {
		block b1:
		32 %3 = iadd %0, %2
	} else {
		block b2:
	}
	block b3:
	32 %4 = phi b1: %3, b2: %0
	loop {
		block b4:
		32 %5 = phi b3: %2, b12: %14
		loop {
			block b5:
			32 %6 = phi b4: %2, b8: %11
			1 %7 = ige %6, %5
			if %7 {
				block b6:
				break
			} else {
				block b7:
			}
			block b8:
			32 %9 = ishl %5, %2
			32 %10 = load_const (0x00000002)
			32 %11 = iadd %6, %10
			32 %12 = iadd %11, %9
		}
		block b9:
		1 %13 = ige %5, %0
		32 %14 = iadd %5, %2
		if %13 {
			block b10:
			break
		} else {
			block b11:
		}
		block b12:
	}
	block b13:
	@store_output (%4) (slot=0)
	@store_output (%14) (slot=1)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000001)
	if %1 {
		block b1:
		32 %3 = iadd %0, %2
	} else {
		block b2:
	}
	block b3:
	32 %4 = phi b1: %3, b2: %0
	32 %10 = load_const (0x00000002)
	loop {
		block b4:
		32 %5 = phi b3: %2, b12: %14
		32 %9 = ishl %5, %2
		loop {
			block b5:
			32 %6 = phi b4: %2, b8: %11
			1 %7 = ige %6, %5
			if %7 {
				block b6:
				break
			} else {
				block b7:
			}
			block b8:
			32 %11 = iadd %6, %10
			32 %12 = iadd %11, %9
		}
		block b9:
		1 %13 = ige %5, %0
		32 %14 = iadd %5, %2
		if %13 {
			block b10:
			break
		} else {
			block b11:
		}
		block b12:
	}
	block b13:
	@store_output (%4) (slot=0)
	@store_output (%14) (slot=1)
}
",
        );
    }

    #[test]
    fn sinks_code_into_the_branch_that_uses_it_but_not_subgroup_ops() {
        // %3 and %2 are used only in the then-arm (through %7): they sink
        // to its start, %2 first. %5 is used only after the if and sinks
        // past it. The subgroup op %4 would sink too, but in the arm it
        // would run on fewer lanes, so it stays (seed 004).
        let text = "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = imul %0, %1
	32 %3 = iadd %2, %0
	32 %4 = @read_first_invocation (%0)
	32 %5 = ineg %1
	1 %6 = ilt %0, %1
	if %6 {
		block b1:
		32 %7 = iadd %3, %4
		@store_output (%7) (slot=0)
	} else {
		block b2:
	}
	block b3:
	@store_output (%5) (slot=1)
}
";
        check(
            super::run,
            text,
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %4 = @read_first_invocation (%0)
	1 %6 = ilt %0, %1
	if %6 {
		block b1:
		32 %2 = imul %0, %1
		32 %3 = iadd %2, %0
		32 %7 = iadd %3, %4
		@store_output (%7) (slot=0)
	} else {
		block b2:
	}
	block b3:
	32 %5 = ineg %1
	@store_output (%5) (slot=1)
}
",
        );
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            crate::coverage::Hits::from([
                ("ir:gcm/sink", 3),
                ("ir:gcm/refuse/pinned-cross-invocation-would-sink", 1),
            ])
        );
    }

    #[test]
    fn records_hoists_and_what_stays() {
        // The constant %3 leaves the loop; %5 and %6 use the counter phi;
        // the udiv %4 and the ballot %7 have invariant sources but are
        // pinned.
        let text = "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	1 %8 = load_const (true)
	loop {
		block b1:
		32 %2 = phi b0: %1, b4: %6
		32 %3 = load_const (0x00000001)
		32 %4 = udiv %0, %3
		32 %7 = @ballot (%8)
		1 %5 = ige %2, %0
		if %5 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %6 = iadd %2, %3
	}
	block b5:
	@store_output (%4) (slot=0)
	@store_output (%7) (slot=1)
}
";
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            crate::coverage::Hits::from([
                ("ir:gcm/hoist/out-of-loop", 1),
                ("ir:gcm/hoist/out-of-loop/no-sources", 1),
                ("ir:gcm/refuse/loop-variant-source", 2),
                ("ir:gcm/refuse/pinned-cross-invocation", 1),
                ("ir:gcm/refuse/pinned-may-be-undefined", 1),
            ])
        );
    }

    #[test]
    fn keeps_the_meaning_of_the_corpus() {
        let (compared, _) = check_corpus(&[("gcm", super::run)]);
        assert!(compared > 300, "only {compared} runs compared");
    }

    #[test]
    fn the_whole_ir_pipeline_keeps_the_meaning_of_the_corpus() {
        // Every IR pass in the compiler's order (bitfield in native mode).
        use super::super::{algebraic, bitfield, cse, peephole_select};
        let [fold, copy, dce] = PIPELINE;
        let passes = [
            fold,
            ("algebraic", algebraic::run as Pass),
            copy,
            ("cse", cse::run),
            ("peephole-select", peephole_select::run),
            ("gcm", super::run),
            ("bitfield", bitfield::run),
            dce,
        ];
        let (compared, _) = check_corpus(&passes);
        assert!(compared > 300, "only {compared} runs compared");
    }

    /// Whether the `@read_first_invocation` of bug `name`'s case comes after
    /// `marker` once gcm has run, without and with the bug.
    fn subgroup_op_after(name: &str, bug: crate::bugs::Bug, marker: &str) -> (bool, bool) {
        use super::super::testing::bug_case_after;
        let after = |text: String| {
            let at = text.find("@read_first_invocation").unwrap();
            text[..at].contains(marker)
        };
        (
            after(bug_case_after(super::run, name, None)),
            after(bug_case_after(super::run, name, Some(bug))),
        )
    }

    const DERIVATIVE_LOOP: &str = "shader: t
decl_input 0 f32
decl_output 0 f32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	32 %3 = load_const (0x00000004)
	loop {
		block b1:
		32 %4 = phi b0: %1, b4: %9
		32 %5 = @ddx_fine (%0)
		32 %6 = @quad_swap_vertical (%0)
		1 %7 = ige %4, %3
		if %7 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %9 = iadd %4, %2
	}
	block b5:
	@store_output (%5) (slot=0)
	@store_output (%6) (slot=1)
}
";

    #[test]
    fn hoists_a_derivative_out_of_a_loop_into_a_uniform_block_but_pins_quad_ops() {
        // %5 (uniform-control) is loop-invariant and b0, the shallowest
        // block on its way up, is uniform: it moves to the end of b0. The
        // quad op %6 (convergent) stays; so do %7 and %9, which read the
        // counter phi.
        let want = DERIVATIVE_LOOP
            .replace("		32 %5 = @ddx_fine (%0)\n", "")
            .replace(
                "	32 %3 = load_const (0x00000004)\n",
                "	32 %3 = load_const (0x00000004)\n	32 %5 = @ddx_fine (%0)\n",
            );
        check(super::run, DERIVATIVE_LOOP, &want);
        assert_eq!(
            hits_of(super::run, &ctx(), DERIVATIVE_LOOP),
            crate::coverage::Hits::from([
                ("ir:gcm/hoist/out-of-loop", 1),
                ("ir:gcm/hoist/uniform-control", 1),
                ("ir:gcm/refuse/pinned-convergent", 1),
                ("ir:gcm/refuse/loop-variant-source", 2),
            ])
        );
    }

    #[test]
    fn keeps_a_derivative_in_its_loop_when_the_loop_is_in_a_divergent_if() {
        // The block the derivative would go to, b1, runs only where the
        // input is 0: not every lane of a quad need be there. (The
        // constants are where their uses are already.)
        let text = "shader: t
decl_input 0 f32
decl_output 0 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	1 %4 = ieq %0, %1
	if %4 {
		block b1:
		32 %2 = load_const (0x00000001)
		32 %3 = load_const (0x00000004)
		loop {
			block b2:
			32 %5 = phi b1: %1, b5: %9
			32 %6 = @ddx_coarse (%0)
			1 %7 = ige %5, %3
			if %7 {
				block b3:
				break
			} else {
				block b4:
			}
			block b5:
			32 %9 = iadd %5, %2
		}
		block b6:
		@store_output (%6) (slot=0)
	} else {
		block b7:
	}
	block b8:
}
";
        check(super::run, text, text);
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            crate::coverage::Hits::from([
                ("ir:gcm/refuse/uniform-control-into-divergent-block", 1),
                ("ir:gcm/refuse/loop-variant-source", 2),
            ])
        );
    }

    const QUAD_IN_ARM: &str = "shader: t
decl_input 0 f32
decl_input 1 i32
decl_output 0 f32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = fmul %0, %0
	32 %3 = @ddy_fine (%2)
	32 %4 = @quad_swap_diagonal (%1)
	1 %5 = ilt %0, %1
	if %5 {
		block b1:
		@store_output (%3) (slot=0)
		@store_output (%4) (slot=1)
	} else {
		block b2:
	}
	block b3:
}
";

    #[test]
    fn never_sinks_derivatives_or_quad_ops_into_the_arm_that_uses_them() {
        // Both would sink toward their only uses, in b1, but the arm may
        // split a quad; the fmul %2 stays with the derivative that reads it.
        check(super::run, QUAD_IN_ARM, QUAD_IN_ARM);
        assert_eq!(
            hits_of(super::run, &ctx(), QUAD_IN_ARM),
            crate::coverage::Hits::from([("ir:gcm/refuse/pinned-convergent-would-sink", 2)])
        );
    }

    #[test]
    fn injected_bug_sinks_derivatives_and_quad_ops_with_their_sources() {
        // gcm-sinks-convergent: %3 and %4 move like pure ops, and %2 follows
        // %3 into the arm, in program order.
        let mut bug = ctx();
        bug.bugs = crate::bugs::BugSet::NONE.with(crate::bugs::Bug::GcmSinksConvergent);
        let mut p = ir::parse_program(QUAD_IN_ARM).unwrap();
        assert!(super::run(&mut p, &bug));
        let want = QUAD_IN_ARM
            .replace("	32 %2 = fmul %0, %0\n	32 %3 = @ddy_fine (%2)\n	32 %4 = @quad_swap_diagonal (%1)\n", "")
            .replace(
                "		block b1:\n",
                "		block b1:\n		32 %2 = fmul %0, %0\n		32 %3 = @ddy_fine (%2)\n		32 %4 = @quad_swap_diagonal (%1)\n",
            );
        assert_eq!(ir::print_program_compact(&p), want);
        assert_eq!(
            hits_of(super::run, &bug, QUAD_IN_ARM),
            crate::coverage::Hits::from([("ir:gcm/sink", 3)])
        );
    }

    #[test]
    fn injected_bug_hoists_a_subgroup_op_out_of_its_loop() {
        // Pinned, it stays in the loop header; the bug moves it before the
        // loop.
        assert_eq!(
            subgroup_op_after(
                "gcm-hoists-cross-invocation",
                crate::bugs::Bug::GcmHoistsCrossInvocation,
                "loop {"
            ),
            (true, false)
        );
    }

    #[test]
    fn injected_bug_sinks_a_subgroup_op_into_the_arm_that_uses_it() {
        // Pinned, it stays before the if; the bug sinks it into the
        // then-arm, its only use.
        assert_eq!(
            subgroup_op_after(
                "gcm-sinks-cross-invocation",
                crate::bugs::Bug::GcmSinksCrossInvocation,
                "if %"
            ),
            (false, true)
        );
    }
}
