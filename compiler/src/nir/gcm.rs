//! Global code motion, modelling NIR's `nir_opt_gcm` with
//! `value_number = false` (Intel's setting): loop-invariant code leaves its
//! loops.
//!
//! For every instruction that may run where the program did not run it
//! (`op.can_speculate()`: pure and never undefined), the earliest legal
//! block is the deepest block, on the dominator tree, among those defining
//! its sources (the entry block for an instruction without sources). On the
//! dominator path from the instruction's block up to that earliest block,
//! the pass picks the block with the smallest loop depth, the latest one on
//! ties, as GCM's late scheduling does, and moves the instruction to the end
//! of it if that is shallower than where it is. So an instruction only
//! moves when that takes it out of at least one loop (and out of the ifs
//! between), never merely out of an if, and lands as close to its old place
//! as that allows (for a constant: the block just before the outermost loop
//! it was in).
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
use ir::{Instr, Program, ValueId, ValueMap};

/// Hoists loop-invariant speculatable instructions; returns whether the
/// program changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let cfg = Cfg::build(&p.body);
    let bound = p.value_bound();
    // The block index defining each value, updated as instructions move.
    let mut def_block = vec![0usize; bound];
    p.for_each_block(&mut |b| {
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        for phi in &b.phis {
            // The injected bug forgets phi sources: they count as defined
            // in the entry block.
            if !(bi != 0 && ctx.bugs.has(Bug::GcmIgnoresPhiSource)) {
                def_block[phi.dest.id.0 as usize] = bi;
            }
        }
        for d in b.instrs.iter().filter_map(|i| i.dest) {
            def_block[d.id.0 as usize] = bi;
        }
    });
    // The moves, in program order: (value, destination block index).
    let mut moves: Vec<(ValueId, usize)> = Vec::new();
    p.for_each_block(&mut |b| {
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        for i in &b.instrs {
            let Some(d) = i.dest else {
                continue;
            };
            // Injected bug (BUGS.md: gcm-hoists-cross-invocation): an op
            // pinned only because it reads the active lanes moves anyway.
            let unpinned = |i: &Instr| {
                i.op.is_cross_invocation()
                    && !i.op.has_side_effects()
                    && !i.op.may_be_undefined()
                    && placement(&cfg, &def_block, i, bi) != bi
                    && ctx.bugs.has(Bug::GcmHoistsCrossInvocation)
            };
            if !i.op.can_speculate() && !unpinned(i) {
                // Pinned; recorded where it would otherwise leave a loop.
                if cfg.loop_depth[bi] > 0 && placement(&cfg, &def_block, i, bi) != bi {
                    hit(if i.op.is_cross_invocation() {
                        cov::PINNED_CROSS_INVOCATION
                    } else {
                        cov::PINNED_UNDEFINED
                    });
                }
                continue;
            }
            let to = placement(&cfg, &def_block, i, bi);
            if to != bi {
                hit(cov::HOIST);
                if cfg.loop_depth[bi] - cfg.loop_depth[to] >= 2 {
                    hit(cov::HOIST_SEVERAL);
                }
                if cfg.loop_depth[to] > 0 {
                    hit(cov::HOIST_INTO_OUTER);
                }
                if i.srcs.is_empty() {
                    hit(cov::HOIST_NO_SOURCES);
                }
                def_block[d.id.0 as usize] = to;
                moves.push((d.id, to));
            } else if cfg.loop_depth[bi] > 0 {
                hit(cov::REFUSE_LOOP_VARIANT);
            }
        }
    });
    if moves.is_empty() {
        return false;
    }
    let mut target: ValueMap<usize> = ValueMap::with_bound(bound);
    for &(v, to) in &moves {
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
    p.for_each_block_mut(&mut |b| {
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        for &(v, to) in &moves {
            if to == bi {
                b.instrs.push(taken.remove(v).expect("taken once"));
            }
        }
    });
    true
}

/// Where instruction `i`, now in block index `bi`, belongs.
fn placement(cfg: &Cfg, def_block: &[usize], i: &Instr, bi: usize) -> usize {
    // Every source's block dominates `bi`, so they lie on one dominator
    // path; the earliest legal block is the deepest of them.
    let mut earliest = 0;
    for s in &i.srcs {
        let d = def_block[s.0 as usize];
        if cfg.dominates(earliest, d) {
            earliest = d;
        }
    }
    let (mut b, mut best) = (bi, bi);
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
    fn hoists_loop_invariant_code_to_the_block_before_the_loop() {
        // %5 (constant), %6 (from %0 and %5) and %7 (from %6) are loop
        // invariant and go to b0 in order, the latter from inside an if;
        // %8 uses the counter phi and stays; %9 (udiv, may be undefined) and
        // the ballot %10 are pinned though their sources are invariant.
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
	32 %6 = imul %0, %5
	32 %7 = iadd %6, %0
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

    #[test]
    fn injected_bug_hoists_a_subgroup_op_out_of_its_loop() {
        use super::super::testing::bug_case_after;
        use crate::bugs::Bug;
        let run = |bug| bug_case_after(super::run, "gcm-hoists-cross-invocation", bug);
        let in_loop = |text: &str| {
            let at = text.find("@read_first_invocation").unwrap();
            text[..at].contains("loop {")
        };
        // Pinned: it stays in the loop header.
        assert!(in_loop(&run(None)));
        // The bug moves it to b0, before the loop.
        let buggy = run(Some(Bug::GcmHoistsCrossInvocation));
        assert!(!in_loop(&buggy), "{buggy}");
    }
}
