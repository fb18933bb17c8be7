//! If-to-select conversion, modelling NIR's `nir_opt_peephole_select`.
//!
//! An `if` whose arms are each a single block (no nested control flow) of
//! at most [`LIMIT`] instructions, without phis or jumps, in which every
//! instruction may be speculated (`op.can_speculate()`: pure and never
//! undefined), becomes straight-line code: the block before the `if`, both
//! arms' instructions (then first), one `bcsel cond, then_value, else_value`
//! per phi of the join block (in the phis' order, keeping their values),
//! and the join block's instructions and jump are merged into one block,
//! which keeps the id of the block before the `if`. Phis elsewhere that
//! named the join block as a predecessor name the merged block instead.
//!
//! Never speculated: `store_output` (a side effect), subgroup ops (`ballot`,
//! votes, `elect` and `read_first_invocation` depend on the active lanes;
//! `read_invocation`, which NIR's whitelist allows, is undefined here when
//! its lane is not active, so running it on more lanes may make a valid
//! program invalid), quad ops (convergent: a lane of the other arm would
//! read a neighbour that may not be active), derivatives (uniform-control:
//! the block before the `if` may run a quad the arm never did; a quad of a
//! partly filled dispatch, say), `is_helper_invocation` (it reads what
//! `demote` did), and ops that may be undefined (`idiv`,
//! `f2i`, `bitfield_insert`, ...). Inner `if`s are converted first, so nested
//! small `if`s collapse in one run.

/// The pass's decision points (`crate::coverage`).
#[path = "peephole_select_cov.rs"]
pub mod cov;

use crate::bugs::{Bug, BugSet};
use crate::coverage::{hit, Point};
use crate::passes::IrCtx;
use ir::{Block, BlockId, CfNode, Def, If, Instr, Op, Program};

/// The most instructions an arm may have (Intel runs NIR's pass with 8).
pub const LIMIT: usize = 8;

/// Converts small `if`s into selects; returns whether the program changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let mut renames: Vec<(BlockId, BlockId)> = Vec::new();
    list(&mut p.body, &mut renames, ctx.bugs);
    if renames.is_empty() {
        return false;
    }
    p.for_each_block_mut(&mut |b| {
        for phi in &mut b.phis {
            for (pred, _) in &mut phi.srcs {
                *pred = resolve(&renames, *pred);
            }
        }
    });
    true
}

/// The arm's single block, if the arm can be speculated; otherwise the
/// decision point of the reason it cannot.
fn arm(body: &[CfNode], bugs: BugSet) -> Result<&Block, Point> {
    let [CfNode::Block(b)] = body else {
        return Err(cov::REFUSE_CONTROL_FLOW);
    };
    if !b.phis.is_empty() {
        return Err(cov::REFUSE_PHIS);
    }
    if b.jump.is_some() {
        return Err(cov::REFUSE_JUMP);
    }
    if b.instrs.len() > LIMIT {
        return Err(cov::REFUSE_TOO_MANY);
    }
    // Injected bug (BUGS.md: peephole-select-cross-invocation): an op that
    // is only unsafe because it reads the active lanes is speculated.
    let lane_dependent_only = |i: &Instr| {
        i.op.is_cross_invocation() && !i.op.has_side_effects() && !i.op.may_be_undefined()
    };
    let speculated = |i: &Instr| {
        i.op.can_speculate()
            || (lane_dependent_only(i) && bugs.has(Bug::PeepholeSelectCrossInvocation))
    };
    if let Some(i) = b.instrs.iter().find(|i| !speculated(i)) {
        return Err(if i.op.has_side_effects() {
            cov::REFUSE_SIDE_EFFECT
        } else if i.op.is_cross_invocation() {
            cov::REFUSE_CROSS_INVOCATION
        } else if i.op.is_convergent() {
            cov::REFUSE_CONVERGENT
        } else if i.op.is_uniform_control() {
            cov::REFUSE_UNIFORM_CONTROL
        } else if !i.op.may_be_undefined() {
            cov::REFUSE_INVOCATION_STATE
        } else {
            cov::REFUSE_UNDEFINED
        });
    }
    Ok(b)
}

/// Converts the `if`s of a list, innermost first.
fn list(nodes: &mut Vec<CfNode>, renames: &mut Vec<(BlockId, BlockId)>, bugs: BugSet) {
    for n in nodes.iter_mut() {
        match n {
            CfNode::If(f) => {
                list(&mut f.then_body, renames, bugs);
                list(&mut f.else_body, renames, bugs);
            }
            CfNode::Loop(l) => list(&mut l.body, renames, bugs),
            CfNode::Block(_) => {}
        }
    }
    let mut k = 1;
    while k + 1 < nodes.len() {
        let ok = match &nodes[k] {
            CfNode::If(f) => match arm(&f.then_body, bugs).and_then(|_| arm(&f.else_body, bugs)) {
                Ok(_) => true,
                Err(point) => {
                    hit(point);
                    false
                }
            },
            _ => false,
        };
        if !ok {
            k += 1;
            continue;
        }
        let CfNode::Block(join) = nodes.remove(k + 1) else {
            unreachable!("blocks and if/loop nodes alternate")
        };
        let CfNode::If(f) = nodes.remove(k) else {
            unreachable!("checked above")
        };
        let CfNode::Block(prev) = &mut nodes[k - 1] else {
            unreachable!("blocks and if/loop nodes alternate")
        };
        merge(prev, f, join, renames);
        // The merged block may now precede another convertible `if`.
    }
}

/// Appends both arms, the selects and the join block to `prev`.
fn merge(prev: &mut Block, f: If, join: Block, renames: &mut Vec<(BlockId, BlockId)>) {
    let (CfNode::Block(t), CfNode::Block(e)) = (&f.then_body[0], &f.else_body[0]) else {
        unreachable!("checked by `arm`")
    };
    hit(if join.phis.is_empty() {
        cov::CONVERT_NO_PHIS
    } else {
        cov::CONVERT_SELECTS
    });
    prev.instrs.extend(t.instrs.iter().cloned());
    prev.instrs.extend(e.instrs.iter().cloned());
    for phi in join.phis {
        let pick = |arm: BlockId| {
            phi.srcs
                .iter()
                .find(|(b, _)| resolve(renames, *b) == arm)
                .expect("a join phi names both arms")
                .1
        };
        prev.instrs.push(Instr {
            op: Op::Bcsel,
            dest: Some(Def {
                id: phi.dest.id,
                bits: phi.dest.bits,
            }),
            srcs: vec![f.cond, pick(t.id), pick(e.id)],
            imm: 0,
        });
    }
    prev.instrs.extend(join.instrs);
    prev.jump = join.jump;
    renames.push((join.id, prev.id));
}

/// What a block id names after the merges so far.
fn resolve(renames: &[(BlockId, BlockId)], mut b: BlockId) -> BlockId {
    while let Some(&(_, to)) = renames.iter().find(|(from, _)| *from == b) {
        b = to;
    }
    b
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check, check_corpus, ctx, hits_of, PIPELINE};
    use crate::coverage::Hits;

    #[test]
    fn turns_small_ifs_into_selects() {
        // The first if's join phis become bcsels (a 1-bit one too). In the
        // loop, the break-if has a jump and stays; the if before the latch
        // collapses into b7, which the header phi then names instead of b10.
        // An if with empty arms and no phis just goes.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 bool
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000001)
	1 %3 = ilt %0, %1
	if %3 {
		block b1:
		32 %4 = iadd %0, %2
		1 %5 = ieq %4, %1
	} else {
		block b2:
		32 %6 = isub %1, %0
	}
	block b3:
	32 %7 = phi b1: %4, b2: %6
	1 %8 = phi b1: %5, b2: %3
	loop {
		block b4:
		32 %9 = phi b3: %0, b10: %12
		1 %10 = ige %9, %1
		if %10 {
			block b5:
			break
		} else {
			block b6:
		}
		block b7:
		1 %11 = ilt %9, %2
		if %11 {
			block b8:
			32 %13 = iadd %9, %2
		} else {
			block b9:
			32 %14 = iadd %9, %7
		}
		block b10:
		32 %12 = phi b8: %13, b9: %14
	}
	block b11:
	if %8 {
		block b12:
	} else {
		block b13:
	}
	block b14:
	@store_output (%7) (slot=0)
	@store_output (%8) (slot=1)
	@store_output (%9) (slot=2)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 bool
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000001)
	1 %3 = ilt %0, %1
	32 %4 = iadd %0, %2
	1 %5 = ieq %4, %1
	32 %6 = isub %1, %0
	32 %7 = bcsel %3, %4, %6
	1 %8 = bcsel %3, %5, %3
	loop {
		block b4:
		32 %9 = phi b0: %0, b7: %12
		1 %10 = ige %9, %1
		if %10 {
			block b5:
			break
		} else {
			block b6:
		}
		block b7:
		1 %11 = ilt %9, %2
		32 %13 = iadd %9, %2
		32 %14 = iadd %9, %7
		32 %12 = bcsel %11, %13, %14
	}
	block b11:
	@store_output (%7) (slot=0)
	@store_output (%8) (slot=1)
	@store_output (%9) (slot=2)
}
",
        );
    }

    #[test]
    fn collapses_nested_ifs_inside_out() {
        // The inner if collapses into b1, so the outer join phi's b4 is b1
        // and the outer if collapses too.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 bool
decl_input 2 bool
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	1 %2 = @load_input () (slot=2)
	if %1 {
		block b1:
		32 %3 = iadd %0, %0
		if %2 {
			block b2:
			32 %4 = imul %3, %3
		} else {
			block b3:
		}
		block b4:
		32 %5 = phi b2: %4, b3: %3
	} else {
		block b5:
	}
	block b6:
	32 %6 = phi b4: %5, b5: %0
	@store_output (%6) (slot=0)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 bool
decl_input 2 bool
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	1 %2 = @load_input () (slot=2)
	32 %3 = iadd %0, %0
	32 %4 = imul %3, %3
	32 %5 = bcsel %2, %4, %3
	32 %6 = bcsel %1, %5, %0
	@store_output (%6) (slot=0)
}
",
        );
    }

    /// A store, a ballot, a udiv (undefined for 0), a read_invocation
    /// (undefined if its lane is inactive), nine instructions, and a nested
    /// if that cannot collapse (it stores).
    const UNSPECULATABLE: &str = "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
decl_output 3 i32
decl_output 4 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	if %1 {
		block b1:
		@store_output (%0) (slot=0)
	} else {
		block b2:
	}
	block b3:
	if %1 {
		block b4:
		32 %3 = @ballot (%1)
	} else {
		block b5:
	}
	block b6:
	32 %4 = phi b4: %3, b5: %2
	if %1 {
		block b7:
		32 %5 = udiv %0, %0
	} else {
		block b8:
	}
	block b9:
	32 %6 = phi b7: %5, b8: %2
	if %1 {
		block b10:
		32 %7 = @read_invocation (%0, %2)
	} else {
		block b11:
	}
	block b12:
	32 %8 = phi b10: %7, b11: %2
	if %1 {
		block b13:
		32 %9 = iadd %0, %0
		32 %10 = iadd %9, %0
		32 %11 = iadd %10, %0
		32 %12 = iadd %11, %0
		32 %13 = iadd %12, %0
		32 %14 = iadd %13, %0
		32 %15 = iadd %14, %0
		32 %16 = iadd %15, %0
		32 %17 = iadd %16, %0
	} else {
		block b14:
	}
	block b15:
	32 %18 = phi b13: %17, b14: %2
	if %1 {
		block b16:
		if %1 {
			block b17:
			@store_output (%2) (slot=0)
		} else {
			block b18:
		}
		block b19:
	} else {
		block b20:
	}
	block b21:
	@store_output (%4) (slot=1)
	@store_output (%6) (slot=2)
	@store_output (%8) (slot=3)
	@store_output (%18) (slot=4)
}
";

    #[test]
    fn never_speculates_stores_subgroup_ops_undefined_ops_or_big_arms() {
        check(super::run, UNSPECULATABLE, UNSPECULATABLE);
    }

    #[test]
    fn never_speculates_derivatives_or_quad_ops() {
        // Each if's then-arm holds one (the first refusal ends the check of
        // an if), so both ifs stay.
        let text = "shader: t
decl_input 0 f32
decl_output 0 f32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	1 %2 = ieq %0, %1
	if %2 {
		block b1:
		32 %3 = @ddx_coarse (%0)
	} else {
		block b2:
	}
	block b3:
	32 %4 = phi b1: %3, b2: %0
	if %2 {
		block b4:
		32 %5 = @quad_swap_horizontal (%0)
	} else {
		block b5:
	}
	block b6:
	32 %6 = phi b4: %5, b5: %1
	@store_output (%4) (slot=0)
	@store_output (%6) (slot=1)
}
";
        check(super::run, text, text);
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            Hits::from([
                ("ir:peephole-select/refuse/uniform-control", 1),
                ("ir:peephole-select/refuse/convergent", 1),
            ])
        );
    }

    #[test]
    fn never_speculates_is_helper_invocation() {
        // It reads what `demote` did: on the other arm's lanes it need not
        // be what this arm would see.
        let text = "shader: t
decl_input 0 i32
decl_output 0 bool
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	1 %2 = ieq %0, %1
	if %2 {
		block b1:
		1 %3 = @is_helper_invocation ()
	} else {
		block b2:
	}
	block b3:
	1 %4 = phi b1: %3, b2: %2
	@store_output (%4) (slot=0)
}
";
        check(super::run, text, text);
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            Hits::from([("ir:peephole-select/refuse/invocation-state", 1)])
        );
    }

    #[test]
    fn records_a_conversion_and_each_refusal() {
        // The first if converts; the udiv cannot be speculated.
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
	32 %3 = phi b1: %2, b2: %0
	if %1 {
		block b4:
		32 %4 = udiv %0, %3
	} else {
		block b5:
	}
	block b6:
	32 %5 = phi b4: %4, b5: %0
	@store_output (%5) (slot=0)
}
";
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            Hits::from([
                ("ir:peephole-select/convert/selects", 1),
                ("ir:peephole-select/refuse/may-be-undefined", 1),
            ])
        );
        // Both stores (one in the inner if), the ballot and read_invocation,
        // the udiv, the nine instructions, and the outer if around the
        // inner one.
        assert_eq!(
            hits_of(super::run, &ctx(), UNSPECULATABLE),
            Hits::from([
                ("ir:peephole-select/refuse/arm-control-flow", 1),
                ("ir:peephole-select/refuse/cross-invocation", 2),
                ("ir:peephole-select/refuse/may-be-undefined", 1),
                ("ir:peephole-select/refuse/side-effect", 2),
                ("ir:peephole-select/refuse/too-many-instructions", 1),
            ])
        );
    }

    #[test]
    fn keeps_the_meaning_of_the_corpus() {
        let (compared, _) = check_corpus(&[("peephole-select", super::run)]);
        assert!(compared > 300, "only {compared} runs compared");
        let mut passes = PIPELINE.to_vec();
        passes.insert(2, ("peephole-select", super::run));
        let (compared, _) = check_corpus(&passes);
        assert!(compared > 300, "only {compared} runs compared");
    }

    #[test]
    fn injected_bug_speculates_a_lane_dependent_op() {
        use super::super::testing::bug_case_after;
        use crate::bugs::Bug;
        let run = |bug| bug_case_after(super::run, "peephole-select-cross-invocation", bug);
        // read_first_invocation depends on the active lanes: the if stays.
        let clean = run(None);
        assert!(clean.contains("if %2 {"), "{clean}");
        // The bug runs it before a bcsel, with every lane active.
        let buggy = run(Some(Bug::PeepholeSelectCrossInvocation));
        assert!(!buggy.contains("if "), "{buggy}");
        assert!(buggy.contains("32 %4 = bcsel %2, %3, %1"), "{buggy}");
    }
}
