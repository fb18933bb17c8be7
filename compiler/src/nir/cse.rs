//! Common-subexpression elimination, modelling NIR's `nir_opt_cse`.
//!
//! An instruction is replaced by an earlier identical one whose definition
//! dominates it: same op, same result size, same sources (in either order
//! for a commutative op) and same immediate (constant or slot). Its uses are
//! rewritten to the earlier value and it is removed.
//!
//! What may be merged: ALU ops (those that may be undefined too: the
//! dominating copy ran first on the same operands in every lane that reaches
//! this one), `load_const`, and the pure I/O ops (`load_input`,
//! `load_uniform`, `invocation_id`, `subgroup_invocation`), which give each
//! lane the same value wherever they run. Never `store_output`, and never a
//! cross-invocation op: `ballot`, the votes, `elect` and the reads of other
//! lanes depend on which lanes are active, and a dominating copy may run
//! under another execution mask (seed 004: one inside a loop with a
//! non-uniform exit, one after it). NIR keeps them out of `nir_instr_set`
//! for the same reason (they are not CAN_REORDER). Quad ops are convergent
//! and stay out too, as in NIR.
//!
//! Derivatives are uniform-control: only defined where their whole quad is
//! active, so wherever a valid program runs the dominated copy, the
//! dominating one ran with the same quads active on the same values (a
//! quad whose lanes left a loop at different iterations would have made
//! the copy in the loop undefined). They merge like ALU ops: the thread's
//! `dFdx` in a loop and after it.

/// The pass's decision points (`crate::coverage`).
#[path = "cse_cov.rs"]
pub mod cov;

use super::{Node, Subst};
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::IrCtx;
use ir::cfg::Cfg;
use ir::{Instr, Op, OpClass, Program, ValueId};
use rustc_hash::FxHashMap as HashMap;

/// What makes two instructions identical, with the same result size.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    op: Op,
    srcs: Vec<ValueId>,
    imm: u64,
}

/// Whether instructions with this op may be merged.
fn mergeable(op: Op, ctx: &IrCtx) -> bool {
    match op.info().class {
        OpClass::Alu | OpClass::Const => true,
        OpClass::Io => op.is_pure(),
        // A derivative is only defined in quad-uniform control flow, so a
        // dominating copy ran with the same quads active (seed 004's
        // uniform-control argument; NIR's instr_can_rewrite lets ddx* in).
        OpClass::Subgroup if op.is_uniform_control() => true,
        // Injected bug (BUGS.md: cse-cross-invocation): treats subgroup ops
        // as pure, merging copies that run under different execution masks.
        OpClass::Subgroup => ctx.bugs.has(Bug::CseCrossInvocation),
    }
}

/// The instruction's key and result size.
fn key(i: &Instr) -> Option<(Key, u8)> {
    let dest = i.dest?;
    let mut srcs = i.srcs.clone();
    if i.op.is_commutative() {
        srcs.sort_unstable();
    }
    Some((
        Key {
            op: i.op,
            srcs,
            imm: i.imm,
        },
        dest.bits,
    ))
}

/// Merges identical instructions into dominating copies; returns whether
/// the program changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let cfg = Cfg::build(&p.body);
    let mut subst = Subst::new(p.value_bound());
    // Every mergeable instruction seen so far, by key: its result size,
    // block index and value.
    let mut seen: HashMap<Key, Vec<(u8, usize, ValueId)>> = HashMap::default();
    // Every subgroup op kept so far, by key: its result size and block
    // index (for the coverage of the cross-invocation refusal only).
    let mut pinned: HashMap<Key, Vec<(u8, usize)>> = HashMap::default();
    let mut changed = false;
    // Program order visits a block's dominators before it, and an
    // instruction's sources before it.
    super::walk_mut(&mut p.body, &mut |node| {
        let Node::Block(b) = node else { return };
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        b.instrs.retain_mut(|i| {
            for s in &mut i.srcs {
                subst.rewrite(s);
            }
            let class = i.op.info().class;
            if !mergeable(i.op, ctx) {
                if class == OpClass::Subgroup {
                    if let Some((k, bits)) = key(i) {
                        let kept = pinned.entry(k).or_default();
                        if kept
                            .iter()
                            .any(|&(cbits, cb)| cbits == bits && cfg.dominates(cb, bi))
                        {
                            hit(if i.op.is_convergent() {
                                cov::REFUSE_CONVERGENT
                            } else {
                                cov::REFUSE_CROSS_INVOCATION
                            });
                        }
                        kept.push((bits, bi));
                    }
                }
                return true;
            }
            let Some((k, bits)) = key(i) else { return true };
            let dest = i.dest.expect("keyed instructions define a value").id;
            let copies = seen.entry(k).or_default();
            match copies
                .iter()
                .find(|&&(cbits, cb, _)| cbits == bits && cfg.dominates(cb, bi))
            {
                Some(&(_, _, v)) => {
                    hit(match class {
                        OpClass::Alu => cov::MERGE_ALU,
                        OpClass::Const => cov::MERGE_CONST,
                        OpClass::Io => cov::MERGE_IO,
                        OpClass::Subgroup if i.op.is_uniform_control() => {
                            cov::MERGE_UNIFORM_CONTROL
                        }
                        OpClass::Subgroup => cov::MERGE_SUBGROUP,
                    });
                    subst.set(dest, v);
                    changed = true;
                    false
                }
                None => {
                    // (A constant of another size is just another value.)
                    if class != OpClass::Const
                        && copies
                            .iter()
                            .any(|&(cbits, cb, _)| cbits != bits && cfg.dominates(cb, bi))
                    {
                        hit(cov::REFUSE_DIFFERING_SIZE);
                    } else if copies.iter().any(|&(cbits, _, _)| cbits == bits) {
                        hit(cov::REFUSE_NOT_DOMINATING);
                    }
                    copies.push((bits, bi, dest));
                    true
                }
            }
        });
    });
    subst.apply(&mut p.body);
    changed
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check, check_corpus, ctx, hits_of};
    use crate::bugs::{Bug, BugSet};
    use crate::coverage::Hits;
    use ir::{parse_program, print_program_compact, validate};

    #[test]
    fn merges_identical_instructions_in_a_block() {
        // %4 is %3 with its sources swapped (iadd commutes), %5 a second
        // constant 1, %7 the same input load, %9 and %11 the same ids; %6
        // (isub does not commute), %8 (another slot), %10 (another size) and
        // %12 (another constant) are different. The merged copies' users
        // (%13, a store) read the first copy.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_uniform 0 i32
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
decl_output 3 i32
decl_output 4 i32
decl_output 5 i64
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_uniform () (slot=0)
	32 %2 = load_const (0x00000001)
	32 %3 = iadd %0, %2
	32 %4 = iadd %2, %0
	32 %5 = load_const (0x00000001)
	32 %6 = isub %2, %0
	32 %7 = @load_input () (slot=0)
	32 %8 = @load_input () (slot=1)
	32 %9 = @invocation_id ()
	64 %10 = u2u %3
	32 %11 = @invocation_id ()
	32 %12 = load_const (0x00000002)
	32 %13 = imul %4, %7
	32 %14 = iadd %13, %11
	32 %15 = iadd %14, %1
	32 %16 = iadd %15, %12
	@store_output (%5) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%9) (slot=3)
	@store_output (%16) (slot=4)
	@store_output (%10) (slot=5)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_uniform 0 i32
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
decl_output 3 i32
decl_output 4 i32
decl_output 5 i64
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_uniform () (slot=0)
	32 %2 = load_const (0x00000001)
	32 %3 = iadd %0, %2
	32 %6 = isub %2, %0
	32 %8 = @load_input () (slot=1)
	32 %9 = @invocation_id ()
	64 %10 = u2u %3
	32 %12 = load_const (0x00000002)
	32 %13 = imul %3, %0
	32 %14 = iadd %13, %9
	32 %15 = iadd %14, %1
	32 %16 = iadd %15, %12
	@store_output (%2) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%9) (slot=3)
	@store_output (%16) (slot=4)
	@store_output (%10) (slot=5)
}
",
        );
    }

    #[test]
    fn only_a_dominating_copy_replaces() {
        // %2 (before the if) replaces %6 (after it) and %4 (in the then arm);
        // %5 in the else arm does not see %4 in the then arm, and %7 after
        // the if does not see either arm's %5/%4 copies of `imul`; the phi
        // source and the if condition follow the merge of %9 into %8.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = iadd %0, %0
	1 %8 = inot %1
	1 %9 = inot %1
	if %9 {
		block b1:
		32 %3 = imul %0, %0
		32 %4 = iadd %0, %0
	} else {
		block b2:
		32 %5 = imul %0, %0
	}
	block b3:
	32 %10 = phi b1: %4, b2: %5
	32 %6 = iadd %0, %0
	32 %7 = imul %0, %0
	@store_output (%10) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%7) (slot=2)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = iadd %0, %0
	1 %8 = inot %1
	if %8 {
		block b1:
		32 %3 = imul %0, %0
	} else {
		block b2:
		32 %5 = imul %0, %0
	}
	block b3:
	32 %10 = phi b1: %2, b2: %5
	32 %7 = imul %0, %0
	@store_output (%10) (slot=0)
	@store_output (%2) (slot=1)
	@store_output (%7) (slot=2)
}
",
        );
    }

    /// Seed 004: `ballot (%3)` and `vote_any (%3)` in a loop whose exit is
    /// non-uniform (lane i leaves when the counter reaches input i), and the
    /// same ops after it; the pure `ilt`/`b2i` and `subgroup_invocation`
    /// after the loop are merged into the header's copies.
    const SEED_004: &str = "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 i32
decl_output 2 bool
decl_output 3 bool
decl_output 4 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	1 %3 = ilt %1, %0
	loop {
		block b1:
		32 %4 = phi b0: %1, b4: %10
		32 %5 = @ballot (%3)
		1 %6 = @vote_any (%3)
		32 %7 = @subgroup_invocation ()
		1 %8 = ige %4, %0
		if %8 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %10 = iadd %4, %2
	}
	block b5:
	32 %11 = @ballot (%3)
	1 %12 = @vote_any (%3)
	32 %13 = @subgroup_invocation ()
	1 %14 = ilt %1, %0
	32 %15 = iadd %13, %4
	@store_output (%5) (slot=0)
	@store_output (%11) (slot=1)
	@store_output (%6) (slot=2)
	@store_output (%12) (slot=3)
	@store_output (%15) (slot=4)
}
";

    /// Seed 004's own example: a derivative in a loop and after it, and a
    /// quad op likewise.
    const DFDX_LOOP: &str = "shader: t
decl_input 0 f32
decl_input 1 i32
decl_output 0 f32
decl_output 1 f32
decl_output 2 i32
decl_output 3 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	32 %3 = load_const (0x00000001)
	loop {
		block b1:
		32 %4 = phi b0: %2, b4: %10
		32 %5 = @ddx_fine (%0)
		32 %6 = @quad_swap_diagonal (%1)
		1 %7 = ige %4, %1
		if %7 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %10 = iadd %4, %3
	}
	block b5:
	32 %11 = @ddx_fine (%0)
	32 %12 = @quad_swap_diagonal (%1)
	@store_output (%5) (slot=0)
	@store_output (%11) (slot=1)
	@store_output (%6) (slot=2)
	@store_output (%12) (slot=3)
}
";

    #[test]
    fn merges_a_derivative_after_a_loop_into_the_one_in_it_but_not_quad_ops() {
        // The thread's argument: a derivative is only defined with its whole
        // quad active, so the copy in the loop ran with the same quads as
        // the one after it. The quad op %12 stays (convergent).
        let want = DFDX_LOOP
            .replace("	32 %11 = @ddx_fine (%0)\n", "")
            .replace("@store_output (%11)", "@store_output (%5)");
        check(super::run, DFDX_LOOP, &want);
        assert_eq!(
            hits_of(super::run, &ctx(), DFDX_LOOP),
            Hits::from([
                ("ir:cse/merge/uniform-control", 1),
                ("ir:cse/refuse/convergent", 1),
            ])
        );
    }

    #[test]
    fn never_merges_subgroup_ops_across_execution_masks() {
        let want = SEED_004
            .replace("\t1 %14 = ilt %1, %0\n", "")
            .replace("\t32 %13 = @subgroup_invocation ()\n", "")
            .replace("iadd %13, %4", "iadd %7, %4");
        check(super::run, SEED_004, &want);
    }

    #[test]
    fn injected_bug_merges_the_ballot_after_the_loop() {
        let mut p = parse_program(SEED_004).unwrap();
        let mut bug = ctx();
        bug.bugs = BugSet::NONE.with(Bug::CseCrossInvocation);
        assert!(super::run(&mut p, &bug));
        validate(&p).unwrap();
        let text = print_program_compact(&p);
        assert!(!text.contains("%11 = @ballot") && !text.contains("%12 = @vote_any"));
        assert!(text.contains("@store_output (%5) (slot=1)"));
        assert!(text.contains("@store_output (%6) (slot=3)"));
    }

    #[test]
    fn records_a_merge_and_a_copy_that_does_not_dominate() {
        // %3 merges into %2; %5 in the else arm does not see %4.
        let text = "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = iadd %0, %0
	32 %3 = iadd %0, %0
	if %1 {
		block b1:
		32 %4 = imul %0, %0
	} else {
		block b2:
		32 %5 = imul %0, %0
	}
	block b3:
	32 %6 = phi b1: %4, b2: %5
	@store_output (%3) (slot=0)
	@store_output (%6) (slot=1)
}
";
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            Hits::from([("ir:cse/merge/alu", 1), ("ir:cse/refuse/not-dominating", 1)])
        );
    }

    #[test]
    fn records_a_conversion_to_another_size_but_not_a_constant() {
        // u2u %0 to 16 and to 8 bits differ only in size; so do the
        // constants 1 at 32 and 16 bits, which are not counted.
        let text = "shader: t
decl_input 0 i32
decl_output 0 i16
decl_output 1 i8
decl_output 2 i32
decl_output 3 i16
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	16 %1 = u2u %0
	8 %2 = u2u %0
	32 %3 = load_const (0x00000001)
	16 %4 = load_const (0x0001)
	@store_output (%1) (slot=0)
	@store_output (%2) (slot=1)
	@store_output (%3) (slot=2)
	@store_output (%4) (slot=3)
}
";
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            Hits::from([("ir:cse/refuse/differing-size", 1)])
        );
    }

    #[test]
    fn records_the_cross_invocation_refusals_of_seed_004() {
        // The ballot and the vote after the loop are refused, the ilt and
        // subgroup_invocation merged; the injected bug merges all four.
        assert_eq!(
            hits_of(super::run, &ctx(), SEED_004),
            Hits::from([
                ("ir:cse/merge/alu", 1),
                ("ir:cse/merge/io", 1),
                ("ir:cse/refuse/cross-invocation", 2),
            ])
        );
        let mut bug = ctx();
        bug.bugs = BugSet::NONE.with(Bug::CseCrossInvocation);
        assert_eq!(
            hits_of(super::run, &bug, SEED_004),
            Hits::from([
                ("ir:cse/merge/alu", 1),
                ("ir:cse/merge/io", 1),
                ("ir:cse/merge/subgroup", 2),
            ])
        );
    }

    #[test]
    fn keeps_the_meaning_of_the_corpus() {
        let (compared, _) = check_corpus(&[("cse", super::run)]);
        assert!(compared > 300, "only {compared} runs compared");
    }
}
