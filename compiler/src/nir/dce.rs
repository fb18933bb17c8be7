//! Dead-code elimination, modelling NIR's `nir_opt_dce`.
//!
//! Mark and sweep: the roots are the sources of instructions with side
//! effects (`store_output`, which is never removed) and `if` conditions;
//! liveness flows from a live instruction or phi to the definitions of its
//! sources. Every phi and every side-effect-free instruction whose value is
//! not live is then removed. Because liveness is computed to a fixpoint
//! before anything is removed, chains of dead instructions and cycles of
//! phis that only feed each other around a loop go in one run.
//!
//! Cross-invocation ops (`ballot`, votes, `elect`, reads of other lanes)
//! have no side effects, so an unused one is removed, as NIR's
//! `CAN_ELIMINATE` allows; so is an unused op whose inputs may be undefined
//! (a program that executes one is invalid whether or not it is kept).

/// The pass's decision points (`crate::coverage`).
#[path = "dce_cov.rs"]
pub mod cov;

use super::Node;
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::IrCtx;
use ir::cfg::Cfg;
use ir::{BlockId, Program, ValueId};

/// Removes unused pure instructions and phis; returns whether the program
/// changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let bound = p.value_bound();
    // Only the injected bug needs the CFG (to tell back edges apart).
    let cfg = (!ctx.bugs.is_empty()).then(|| Cfg::build(&p.body));
    // The sources of each value's definition, and the roots of liveness.
    let mut deps: Vec<Vec<ValueId>> = vec![Vec::new(); bound];
    let mut work: Vec<ValueId> = Vec::new();
    super::walk_mut(&mut p.body, &mut |node| match node {
        Node::Block(b) => {
            // A source arriving along a back edge (from a block the phi's
            // block dominates).
            let back_edge = |pb: BlockId| {
                cfg.as_ref().is_some_and(|cfg| {
                    cfg.index(b.id)
                        .zip(cfg.index(pb))
                        .is_some_and(|(h, x)| cfg.dominates(h, x))
                })
            };
            for phi in &b.phis {
                let srcs = phi.srcs.iter();
                deps[phi.dest.id.0 as usize] = if phi.srcs.iter().any(|&(pb, _)| back_edge(pb))
                    && ctx.bugs.has(Bug::DceLoopPhiBackEdge)
                {
                    // Injected bug (BUGS.md: dce-loop-phi-back-edge): the
                    // back-edge sources are not made live.
                    srcs.filter(|&&(pb, _)| !back_edge(pb))
                        .map(|&(_, v)| v)
                        .collect()
                } else {
                    srcs.map(|&(_, v)| v).collect()
                };
            }
            for i in &b.instrs {
                match i.dest {
                    Some(d) if !i.op.has_side_effects() => deps[d.id.0 as usize] = i.srcs.clone(),
                    _ => work.extend(&i.srcs),
                }
            }
        }
        Node::Cond(c) => work.push(*c),
    });
    let mut live = vec![false; bound];
    while let Some(v) = work.pop() {
        if let Some(l) = live.get_mut(v.0 as usize) {
            if !*l {
                *l = true;
                work.extend(&deps[v.0 as usize]);
            }
        }
    }
    let mut changed = false;
    p.for_each_block_mut(&mut |b| {
        let before = b.phis.len() + b.instrs.len();
        b.phis.retain(|phi| {
            let keep = live[phi.dest.id.0 as usize];
            if !keep {
                hit(cov::REMOVE_PHI);
            }
            keep
        });
        b.instrs.retain(|i| match i.dest {
            Some(d) if !i.op.has_side_effects() => {
                let keep = live[d.id.0 as usize];
                if !keep {
                    hit(cov::REMOVE_INSTR);
                    if i.op.is_cross_invocation() {
                        hit(cov::REMOVE_CROSS_INVOCATION);
                    } else if i.op.may_be_undefined() {
                        hit(cov::REMOVE_UNDEFINED);
                    }
                }
                keep
            }
            _ => {
                if i.op.has_side_effects() {
                    hit(cov::KEEP_SIDE_EFFECT);
                }
                true
            }
        });
        changed |= b.phis.len() + b.instrs.len() != before;
    });
    changed
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check, check_corpus, ctx, hits_of, interpret, Outcome};
    use ir::{print_program_compact, validate, Builder, Jump, Op, SlotType};

    #[test]
    fn removes_a_dead_chain() {
        // %2 -> %3 -> %4 is dead from its end; the unused udiv %6 (which may
        // be undefined) goes too; what feeds the store stays.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000001)
	32 %2 = iadd %0, %1
	32 %3 = imul %2, %2
	32 %4 = ineg %3
	32 %5 = isub %0, %1
	32 %6 = udiv %1, %0
	@store_output (%5) (slot=0)
}
",
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000001)
	32 %5 = isub %0, %1
	@store_output (%5) (slot=0)
}
",
        );
    }

    #[test]
    fn removes_a_phi_cycle_in_a_loop() {
        // %4 and %7 only feed each other around the loop, %5 only feeds
        // itself; the counter %3 feeds the break condition and the store.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	loop {
		block b1:
		32 %3 = phi b0: %1, b4: %8
		32 %4 = phi b0: %0, b4: %7
		32 %5 = phi b0: %1, b4: %5
		1 %6 = ige %3, %0
		if %6 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %7 = imul %4, %4
		32 %8 = iadd %3, %2
	}
	block b5:
	@store_output (%3) (slot=0)
}
",
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	loop {
		block b1:
		32 %3 = phi b0: %1, b4: %8
		1 %6 = ige %3, %0
		if %6 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %8 = iadd %3, %2
	}
	block b5:
	@store_output (%3) (slot=0)
}
",
        );
    }

    #[test]
    fn removes_unused_cross_invocation_ops_and_keeps_stores() {
        // Unused: ballot %3 and %8, elect %5, read_invocation %6 and the join
        // phi %10. Kept: vote_any %4 (an if condition) and what feeds the
        // stores in both arms, even stores no lane may reach.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 bool
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x0000000a)
	1 %2 = ilt %0, %1
	32 %3 = @ballot (%2)
	1 %4 = @vote_any (%2)
	1 %5 = @elect ()
	32 %6 = @read_invocation (%0, %1)
	if %4 {
		block b1:
		32 %7 = @read_first_invocation (%0)
		@store_output (%7) (slot=0)
		32 %8 = @ballot (%2)
	} else {
		block b2:
		1 %9 = @vote_all (%2)
		@store_output (%9) (slot=1)
	}
	block b3:
	32 %10 = phi b1: %7, b2: %0
}
",
            "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 bool
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x0000000a)
	1 %2 = ilt %0, %1
	1 %4 = @vote_any (%2)
	if %4 {
		block b1:
		32 %7 = @read_first_invocation (%0)
		@store_output (%7) (slot=0)
	} else {
		block b2:
		1 %9 = @vote_all (%2)
		@store_output (%9) (slot=1)
	}
	block b3:
}
",
        );
    }

    #[test]
    fn keeps_everything_that_reaches_a_store_or_a_branch() {
        // Every value reaches a store, a branch or a live phi (%6 through
        // the back edge of %3): nothing goes.
        let text = "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	@store_output (%1) (slot=1)
	loop {
		block b1:
		32 %3 = phi b0: %1, b4: %6
		32 %4 = phi b0: %0, b4: %4
		1 %5 = ige %3, %4
		if %5 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %6 = iadd %3, %2
		@store_output (%6) (slot=1)
	}
	block b5:
	@store_output (%3) (slot=0)
}
";
        check(super::run, text, text);
    }

    #[test]
    fn builder_if_and_loop() {
        // A loop counting i up to n that also sums the odd i into s inside an
        // if. The sum (header phi %4, the then-arm's iadd %8, the join phi
        // %9) is never stored: all three go, leaving the if with empty arms
        // (dce does not remove control flow). The counter and its uses stay.
        let mut b = Builder::new("dce_loop");
        let input = b.declare_input(SlotType::I32);
        let out = b.declare_output(SlotType::I32);
        let n = b.load_input(input);
        let zero = b.constant(32, 0);
        let one = b.constant(32, 1);
        let entry = b.current_block();
        b.begin_loop();
        let i = b.phi_placeholder(32);
        let s = b.phi_placeholder(32);
        let stop = b.alu(Op::Ige, &[i.value, n]);
        b.begin_if(stop);
        b.jump(Jump::Break);
        b.end_if();
        let odd = b.alu(Op::Iand, &[i.value, one]);
        let is_odd = b.alu(Op::I2b, &[odd]);
        b.begin_if(is_odd);
        let s2 = b.alu(Op::Iadd, &[s.value, i.value]);
        let then_end = b.current_block();
        b.begin_else();
        let else_end = b.current_block();
        b.end_if();
        let s3 = b.phi(32, &[(then_end, s2), (else_end, s.value)]);
        let next = b.alu(Op::Iadd, &[i.value, one]);
        let latch = b.current_block();
        b.set_phi_srcs(i, &[(entry, zero), (latch, next)]);
        b.set_phi_srcs(s, &[(entry, zero), (latch, s3)]);
        b.end_loop();
        b.store_output(out, i.value);
        let mut p = b.finish().expect("valid");
        let before = interpret(&p, &[6], &[], 0);
        assert_eq!(before, Outcome::Outputs(vec![Some(6)]));
        assert!(super::run(&mut p, &ctx()));
        validate(&p).expect("valid after dce");
        assert_eq!(
            print_program_compact(&p),
            "shader: dce_loop
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	loop {
		block b1:
		32 %3 = phi b0: %1, b7: %10
		1 %5 = ige %3, %0
		if %5 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %6 = iand %3, %2
		1 %7 = i2b %6
		if %7 {
			block b5:
		} else {
			block b6:
		}
		block b7:
		32 %10 = iadd %3, %2
	}
	block b8:
	@store_output (%3) (slot=0)
}
"
        );
        assert_eq!(interpret(&p, &[6], &[], 0), before);
        assert!(!super::run(&mut p, &ctx()));
    }

    #[test]
    fn records_removals_and_the_kept_store() {
        // The phi %4 and the ballot %5 are unused; the store stays.
        let text = "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	if %1 {
		block b1:
		32 %2 = iadd %0, %0
	} else {
		block b2:
	}
	block b3:
	32 %4 = phi b1: %2, b2: %0
	32 %5 = @ballot (%1)
	@store_output (%0) (slot=0)
}
";
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            crate::coverage::Hits::from([
                ("ir:dce/keep/side-effect", 1),
                ("ir:dce/remove/instr", 2),
                ("ir:dce/remove/instr/cross-invocation", 1),
                ("ir:dce/remove/phi", 1),
            ])
        );
    }

    #[test]
    fn keeps_the_meaning_of_the_corpus() {
        let (compared, _) = check_corpus(&[("dce", super::run)]);
        assert!(compared > 300, "only {compared} runs compared");
    }

    #[test]
    fn injected_bug_drops_a_value_used_around_the_back_edge() {
        use super::super::testing::bug_case_after;
        use crate::bugs::Bug;
        let run = |bug| bug_case_after(super::run, "dce-loop-phi-back-edge", bug);
        // %5 is live: the live phi %3 reads it along the back edge.
        let clean = run(None);
        assert!(clean.contains("32 %5 = iadd %3, %2"), "{clean}");
        // The bug removes it, and the phi names a value nobody defines.
        let buggy = run(Some(Bug::DceLoopPhiBackEdge));
        assert!(!buggy.contains("%5 = iadd"), "{buggy}");
        let p = ir::parse_program(&buggy).unwrap();
        assert!(validate(&p).is_err());
    }
}
