//! Copy propagation, modelling NIR's `nir_copy_prop` together with the
//! trivial-phi half of `nir_opt_remove_phis`.
//!
//! A copy is a value that is bit-exactly another value in every lane:
//!
//! - a trivial phi: every source is one value `v`, or the phi itself or `v`
//!   (a loop-header phi that only feeds itself back);
//! - `i2i`/`u2u` to the source's own bit size;
//! - `bcsel c, x, x`, `iand x, x` and `ior x, x`;
//! - `fneg (fneg x)` (`fneg` only flips the sign bit, so twice is `x`, NaN
//!   payloads included).
//!
//! Every use (instruction sources, phi sources, `if` conditions) of a copy
//! is rewritten to its source and the copy is removed. `f2f` to the same
//! size is not a copy (it canonicalizes NaNs), nor is `fabs (fabs x)` ->
//! `x` or anything else that only holds for some values. A phi is replaced
//! only by a value whose definition strictly dominates the phi's block
//! (checked with [`ir::cfg::Cfg`]), so the program stays in SSA form. The
//! pass repeats until no copy is left, since removing one can make a phi
//! trivial.

/// The pass's decision points (`crate::coverage`).
#[path = "copy_prop_cov.rs"]
pub mod cov;

use super::{Node, Subst};
use crate::bugs::{Bug, BugSet};
use crate::coverage::hit;
use crate::passes::IrCtx;
use ir::cfg::Cfg;
use ir::{Instr, Op, Program, ValueId, ValueMap};

/// Removes copies by rewriting their uses; returns whether the program
/// changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let mut changed = false;
    while round(p, ctx.bugs) {
        changed = true;
    }
    changed
}

/// One walk over the program; returns whether it removed a copy.
fn round(p: &mut Program, bugs: BugSet) -> bool {
    let cfg = Cfg::build(&p.body);
    let bound = p.value_bound();
    let bits = p.value_bits();
    // The block index defining each value.
    let mut def_block = vec![usize::MAX; bound];
    p.for_each_block(&mut |b| {
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        let dests = b
            .phis
            .iter()
            .map(|phi| phi.dest)
            .chain(b.instrs.iter().filter_map(|i| i.dest));
        for d in dests {
            def_block[d.id.0 as usize] = bi;
        }
    });
    // For each fneg, its (rewritten) source.
    let mut fneg_of: ValueMap<ValueId> = ValueMap::with_bound(bound);
    let mut subst = Subst::new(bound);
    let mut found = false;
    super::walk_mut(&mut p.body, &mut |node| {
        // Conditions and back-edge phi sources are rewritten by `apply`.
        let Node::Block(b) = node else { return };
        let bi = cfg.index(b.id).expect("every block is in the CFG");
        b.phis.retain_mut(|phi| {
            for (_, v) in &mut phi.srcs {
                subst.rewrite(v);
            }
            let me = phi.dest.id;
            let mut others = phi.srcs.iter().map(|&(_, v)| v).filter(|&v| v != me);
            let Some(mut v) = others.next() else {
                return true;
            };
            if !others.all(|w| w == v) {
                // Injected bug (BUGS.md: copy-prop-loop-phi): only the
                // sources from outside the loop (blocks the phi's block does
                // not dominate) have to agree.
                let outside: Vec<ValueId> = phi
                    .srcs
                    .iter()
                    .filter(|&&(pb, w)| {
                        w != me && cfg.index(pb).is_some_and(|x| !cfg.dominates(bi, x))
                    })
                    .map(|&(_, w)| w)
                    .collect();
                let agree = outside
                    .first()
                    .is_some_and(|&f| outside.iter().all(|&w| w == f));
                if !(agree && bugs.has(Bug::CopyPropLoopPhi)) {
                    return true;
                }
                v = outside[0];
            }
            let d = def_block[v.0 as usize];
            if d == bi || d == usize::MAX || !cfg.dominates(d, bi) {
                hit(cov::REFUSE_PHI_NOT_DOMINATING);
                return true;
            }
            hit(cov::PHI_TRIVIAL);
            if phi.srcs.iter().any(|&(_, w)| w == me) {
                hit(cov::PHI_TRIVIAL_SELF);
            }
            subst.set(me, v);
            found = true;
            false
        });
        b.instrs.retain_mut(|i| {
            for s in &mut i.srcs {
                subst.rewrite(s);
            }
            let Some(dest) = i.dest else {
                return true;
            };
            if i.op == Op::Fneg {
                fneg_of.insert(dest.id, i.srcs[0]);
            }
            match copy_source(i, &bits, &fneg_of) {
                Some(src) => {
                    subst.set(dest.id, src);
                    found = true;
                    false
                }
                None => true,
            }
        });
    });
    subst.apply(&mut p.body);
    found
}

/// The value an instruction is a bit-exact copy of, if it is one.
fn copy_source(i: &Instr, bits: &[u8], fneg_of: &ValueMap<ValueId>) -> Option<ValueId> {
    let dest = i.dest?;
    let s = &i.srcs;
    let same_size = || bits.get(s[0].0 as usize) == Some(&dest.bits);
    let (point, src) = match i.op {
        Op::I2i | Op::U2u if same_size() => (cov::COPY_SAME_SIZE_CONVERSION, s[0]),
        Op::Bcsel if s[1] == s[2] => (cov::COPY_BCSEL_SAME, s[1]),
        Op::Iand if s[0] == s[1] => (cov::COPY_IAND_SELF, s[0]),
        Op::Ior if s[0] == s[1] => (cov::COPY_IOR_SELF, s[0]),
        Op::Fneg => (cov::COPY_FNEG_FNEG, *fneg_of.get(s[0])?),
        Op::F2f if same_size() => {
            hit(cov::REFUSE_F2F_SAME_SIZE);
            return None;
        }
        _ => return None,
    };
    hit(point);
    Some(src)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check, check_corpus, ctx, hits_of, interpret, Outcome};
    use ir::{print_program_compact, validate, Builder, Jump, Op, SlotType};

    #[test]
    fn removes_trivial_phis_at_an_if_join() {
        // %4 and %6 have one source; %5 has two and stays. Their uses are
        // rewritten: an instruction source, an if condition, a phi source.
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
	32 %4 = phi b1: %0, b2: %0
	32 %5 = phi b1: %3, b2: %0
	1 %6 = phi b1: %1, b2: %1
	if %6 {
		block b4:
		32 %7 = iadd %4, %5
	} else {
		block b5:
	}
	block b6:
	32 %8 = phi b4: %7, b5: %4
	@store_output (%8) (slot=0)
	@store_output (%5) (slot=1)
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
	32 %5 = phi b1: %3, b2: %0
	if %1 {
		block b4:
		32 %7 = iadd %0, %5
	} else {
		block b5:
	}
	block b6:
	32 %8 = phi b4: %7, b5: %0
	@store_output (%8) (slot=0)
	@store_output (%5) (slot=1)
}
",
        );
    }

    #[test]
    fn removes_a_loop_header_phi_that_only_feeds_itself() {
        // %4 is %0 on entry and itself around the loop; the counter %5 stays.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	32 %3 = load_const (0x00000001)
	loop {
		block b1:
		32 %4 = phi b0: %0, b4: %4
		32 %5 = phi b0: %2, b4: %7
		1 %6 = ige %5, %1
		if %6 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %7 = iadd %5, %3
	}
	block b5:
	32 %8 = iadd %4, %5
	@store_output (%8) (slot=0)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	32 %3 = load_const (0x00000001)
	loop {
		block b1:
		32 %5 = phi b0: %2, b4: %7
		1 %6 = ige %5, %1
		if %6 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %7 = iadd %5, %3
	}
	block b5:
	32 %8 = iadd %0, %5
	@store_output (%8) (slot=0)
}
",
        );
    }

    #[test]
    fn removes_phis_that_become_trivial_after_another_goes() {
        // The inner header's %6 is %4 or itself: it goes first, which leaves
        // the outer header's %4 as %0 or itself. The store after both loops
        // ends up reading %0.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	32 %3 = load_const (0x00000001)
	loop {
		block b1:
		32 %4 = phi b0: %0, b9: %6
		32 %5 = phi b0: %2, b9: %10
		loop {
			block b2:
			32 %6 = phi b1: %4, b5: %6
			32 %7 = phi b1: %2, b5: %9
			1 %8 = ige %7, %5
			if %8 {
				block b3:
				break
			} else {
				block b4:
			}
			block b5:
			32 %9 = iadd %7, %3
		}
		block b6:
		32 %10 = iadd %5, %3
		1 %11 = ige %10, %1
		if %11 {
			block b7:
			break
		} else {
			block b8:
		}
		block b9:
	}
	block b10:
	@store_output (%6) (slot=0)
	@store_output (%10) (slot=1)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	32 %3 = load_const (0x00000001)
	loop {
		block b1:
		32 %5 = phi b0: %2, b9: %10
		loop {
			block b2:
			32 %7 = phi b1: %2, b5: %9
			1 %8 = ige %7, %5
			if %8 {
				block b3:
				break
			} else {
				block b4:
			}
			block b5:
			32 %9 = iadd %7, %3
		}
		block b6:
		32 %10 = iadd %5, %3
		1 %11 = ige %10, %1
		if %11 {
			block b7:
			break
		} else {
			block b8:
		}
		block b9:
	}
	block b10:
	@store_output (%0) (slot=0)
	@store_output (%10) (slot=1)
}
",
        );
    }

    #[test]
    fn removes_same_size_conversions_and_idempotent_ops() {
        // Copies: i2i 32 -> 32, u2u 16 -> 16, bcsel c, x, x (after %4 -> %0),
        // iand x, x (used by an if), ior x, x, fneg (fneg x). Not copies:
        // i2i/u2u that change size, ixor x, x, fabs (fabs x), f2f at the same
        // size (NaN -> canonical), a single fneg. The inner fneg %14 stays
        // (dce's business) and fneg %15 becomes fneg %3.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 i16
decl_input 2 bool
decl_input 3 f32
decl_output 0 i32
decl_output 1 i16
decl_output 2 i16
decl_output 3 i64
decl_output 4 i32
decl_output 5 i32
decl_output 6 f32
decl_output 7 f32
decl_output 8 f32
decl_output 9 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	16 %1 = @load_input () (slot=1)
	1 %2 = @load_input () (slot=2)
	32 %3 = @load_input () (slot=3)
	32 %4 = i2i %0
	16 %5 = u2u %1
	16 %6 = i2i %0
	64 %7 = u2u %0
	32 %8 = bcsel %2, %4, %0
	1 %9 = iand %2, %2
	32 %10 = ior %8, %4
	32 %11 = ixor %0, %0
	32 %12 = fabs %3
	32 %13 = fabs %12
	32 %14 = fneg %3
	32 %15 = fneg %14
	32 %16 = fneg %15
	32 %17 = f2f %3
	if %9 {
		block b1:
		@store_output (%10) (slot=0)
	} else {
		block b2:
	}
	block b3:
	@store_output (%5) (slot=1)
	@store_output (%6) (slot=2)
	@store_output (%7) (slot=3)
	@store_output (%11) (slot=4)
	@store_output (%8) (slot=5)
	@store_output (%13) (slot=6)
	@store_output (%15) (slot=7)
	@store_output (%16) (slot=8)
	@store_output (%17) (slot=9)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 i16
decl_input 2 bool
decl_input 3 f32
decl_output 0 i32
decl_output 1 i16
decl_output 2 i16
decl_output 3 i64
decl_output 4 i32
decl_output 5 i32
decl_output 6 f32
decl_output 7 f32
decl_output 8 f32
decl_output 9 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	16 %1 = @load_input () (slot=1)
	1 %2 = @load_input () (slot=2)
	32 %3 = @load_input () (slot=3)
	16 %6 = i2i %0
	64 %7 = u2u %0
	32 %11 = ixor %0, %0
	32 %12 = fabs %3
	32 %13 = fabs %12
	32 %14 = fneg %3
	32 %16 = fneg %3
	32 %17 = f2f %3
	if %2 {
		block b1:
		@store_output (%0) (slot=0)
	} else {
		block b2:
	}
	block b3:
	@store_output (%1) (slot=1)
	@store_output (%6) (slot=2)
	@store_output (%7) (slot=3)
	@store_output (%11) (slot=4)
	@store_output (%0) (slot=5)
	@store_output (%13) (slot=6)
	@store_output (%3) (slot=7)
	@store_output (%16) (slot=8)
	@store_output (%17) (slot=9)
}
",
        );
    }

    #[test]
    fn leaves_real_merges_alone() {
        // Phis of two different values (even two equal constants, which are
        // different values), a bcsel of two values, iand of two values.
        let text = "shader: t
decl_input 0 i32
decl_input 1 bool
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000001)
	32 %3 = load_const (0x00000001)
	32 %4 = bcsel %1, %0, %2
	32 %5 = iand %0, %2
	if %1 {
		block b1:
	} else {
		block b2:
	}
	block b3:
	32 %6 = phi b1: %2, b2: %3
	32 %7 = phi b1: %4, b2: %5
	@store_output (%6) (slot=0)
	@store_output (%7) (slot=1)
	@store_output (%4) (slot=2)
}
";
        check(super::run, text, text);
    }

    #[test]
    fn builder_if_in_a_loop() {
        // A loop whose body has an if; the join phi %6 has one value on both
        // arms (the i2i 32 -> 32 copy of the header phi %3 and %3 itself),
        // and %7 = bcsel c, %6, %6 feeds the back edge, so after the copies
        // go the header phi %3 is %1 or itself and goes too.
        let mut b = Builder::new("copy_loop");
        let input = b.declare_input(SlotType::I32);
        let out = b.declare_output(SlotType::I32);
        let n = b.load_input(input);
        let x = b.load_input(input);
        let zero = b.constant(32, 0);
        let entry = b.current_block();
        b.begin_loop();
        let h = b.phi_placeholder(32);
        let stop = b.alu(Op::Ige, &[h.value, n]);
        b.begin_if(stop);
        let copy = b.alu(Op::I2i, &[h.value]);
        let then_end = b.current_block();
        b.begin_else();
        let else_end = b.current_block();
        b.end_if();
        let join = b.phi(32, &[(then_end, copy), (else_end, h.value)]);
        let sel = b.alu(Op::Bcsel, &[stop, join, join]);
        b.begin_if(stop);
        b.jump(Jump::Break);
        b.end_if();
        let latch = b.current_block();
        b.set_phi_srcs(h, &[(entry, x), (latch, sel)]);
        b.end_loop();
        let r = b.alu(Op::Iadd, &[h.value, zero]);
        b.store_output(out, r);
        let mut p = b.finish().expect("valid");
        let before = interpret(&p, &[5], &[], 0);
        assert_eq!(before, Outcome::Outputs(vec![Some(5)]));
        assert!(super::run(&mut p, &ctx()));
        validate(&p).expect("valid after copy-prop");
        assert_eq!(
            print_program_compact(&p),
            "shader: copy_loop
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=0)
	32 %2 = load_const (0x00000000)
	loop {
		block b1:
		1 %4 = ige %1, %0
		if %4 {
			block b2:
		} else {
			block b3:
		}
		block b4:
		if %4 {
			block b5:
			break
		} else {
			block b6:
		}
		block b7:
	}
	block b8:
	32 %8 = iadd %1, %2
	@store_output (%8) (slot=0)
}
"
        );
        assert_eq!(interpret(&p, &[5], &[], 0), before);
        assert!(!super::run(&mut p, &ctx()));
    }

    #[test]
    fn records_a_trivial_phi_and_a_kept_f2f() {
        // %3 is trivial; the same-size f2f %2 is refused in both rounds (the
        // second finds nothing more).
        let text = "shader: t
decl_input 0 f32
decl_input 1 bool
decl_output 0 f32
decl_output 1 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = @load_input () (slot=1)
	32 %2 = f2f %0
	if %1 {
		block b1:
	} else {
		block b2:
	}
	block b3:
	32 %3 = phi b1: %0, b2: %0
	@store_output (%2) (slot=0)
	@store_output (%3) (slot=1)
}
";
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            crate::coverage::Hits::from([
                ("ir:copy-prop/phi/trivial", 1),
                ("ir:copy-prop/refuse/f2f-canonicalizes-nan", 2),
            ])
        );
    }

    #[test]
    fn keeps_the_meaning_of_the_corpus() {
        let (compared, _) = check_corpus(&[("copy-prop", super::run)]);
        assert!(compared > 300, "only {compared} runs compared");
    }

    #[test]
    fn injected_bug_takes_a_loop_counter_for_its_initial_value() {
        use super::super::testing::bug_case_after;
        use crate::bugs::Bug;
        let run = |bug| bug_case_after(super::run, "copy-prop-loop-phi", bug);
        // %2 = phi b0: %0, b4: %4 is no copy: the back edge brings %4.
        let clean = run(None);
        assert!(clean.contains("32 %2 = phi b0: %0, b4: %4"), "{clean}");
        // The bug replaces it by %0 everywhere.
        let buggy = run(Some(Bug::CopyPropLoopPhi));
        assert!(!buggy.contains("= phi"), "{buggy}");
        assert!(buggy.contains("32 %4 = iadd %0, %1"), "{buggy}");
        assert!(buggy.contains("@store_output (%0) (slot=0)"), "{buggy}");
    }
}
