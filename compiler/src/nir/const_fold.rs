//! Constant folding, modelling NIR's `nir_opt_constant_folding`.
//!
//! An ALU instruction whose sources are all `load_const` becomes a
//! `load_const` of its value (same value id, same place), computed with the
//! op table's evaluator, so the folded value is exactly what the oracle
//! computes. An evaluation that is undefined (`Err(Ub)`: division by zero,
//! `f2i` of NaN, ...) is left alone: the oracle calls such a program
//! invalid and the compiler must not invent a value for it.
//!
//! A `bcsel` whose condition alone is constant is a copy of the source it
//! chooses: its uses are rewritten to that source and it is removed. Phis
//! are not touched (trivial phis are copy-prop's business), nor are
//! subgroup and I/O ops, whose values are not functions of their sources.

/// The pass's decision points (`crate::coverage`).
#[path = "const_fold_cov.rs"]
pub mod cov;

use super::{Node, Subst};
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::IrCtx;
use ir::eval::Args;
use ir::types::mask;
use ir::{Instr, Op, OpClass, Program, ValueKind, ValueMap};

/// Folds constant ALU instructions and constant-condition `bcsel`s; returns
/// whether the program changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let bound = p.value_bound();
    // The constant each value holds, as (bits, value), once its load_const
    // has been seen; program order visits definitions before uses.
    let mut consts: ValueMap<(u8, u64)> = ValueMap::with_bound(bound);
    let mut subst = Subst::new(bound);
    let mut changed = false;
    super::walk_mut(&mut p.body, &mut |node| {
        // Conditions and phi sources are rewritten by `apply` below.
        let Node::Block(b) = node else { return };
        b.instrs.retain_mut(|i| {
            for s in &mut i.srcs {
                subst.rewrite(s);
            }
            match fold(i, &consts, ctx) {
                Fold::Keep => {}
                Fold::Const(v) => {
                    i.op = Op::LoadConst;
                    i.srcs.clear();
                    i.imm = v;
                    changed = true;
                }
                Fold::Copy(src) => {
                    let dest = i.dest.expect("bcsel defines a value");
                    subst.set(dest.id, src);
                    changed = true;
                    return false;
                }
            }
            if let (Op::LoadConst, Some(d)) = (i.op, i.dest) {
                consts.insert(d.id, (d.bits, i.imm & mask(d.bits)));
            }
            true
        });
    });
    subst.apply(&mut p.body);
    changed
}

/// What becomes of one instruction.
enum Fold {
    /// Nothing.
    Keep,
    /// It becomes `load_const` of this value.
    Const(u64),
    /// It is a copy of this value (a `bcsel` with a constant condition).
    Copy(ir::ValueId),
}

fn fold(i: &Instr, consts: &ValueMap<(u8, u64)>, ctx: &IrCtx) -> Fold {
    let info = i.op.info();
    let (Some(eval), Some(dest)) = (info.eval, i.dest) else {
        if info.class == OpClass::Subgroup
            && !i.srcs.is_empty()
            && i.srcs.iter().all(|&s| consts.get(s).is_some())
        {
            hit(cov::REFUSE_CROSS_INVOCATION);
        }
        return Fold::Keep;
    };
    if info.class != OpClass::Alu || i.srcs.is_empty() || i.srcs.len() > 4 {
        return Fold::Keep;
    }
    let known = |v: ir::ValueId| consts.get(v).copied();
    let mut args = Args {
        bits: dest.bits,
        ..Args::default()
    };
    for (k, &s) in i.srcs.iter().enumerate() {
        let Some((bits, v)) = known(s) else {
            if i.op == Op::Bcsel {
                if let Some((_, c)) = known(i.srcs[0]) {
                    return Fold::Copy(if c & 1 == 1 {
                        hit(cov::BCSEL_THEN);
                        i.srcs[1]
                    } else {
                        hit(cov::BCSEL_ELSE);
                        i.srcs[2]
                    });
                }
            }
            return Fold::Keep;
        };
        args.src[k] = v;
        args.src_bits[k] = bits;
    }
    let n = i.srcs.len();
    if dest.bits > 1
        && args.src_bits[..n].iter().any(|&b| b > 1 && b < dest.bits)
        && ctx.bugs.has(Bug::ConstFoldSourceSize)
    {
        // Injected bug (BUGS.md: const-fold-source-size): narrower
        // sources are read at the destination's size (zero-extended).
        for b in args.src_bits[..n].iter_mut().filter(|b| **b > 1) {
            *b = (*b).max(dest.bits);
        }
    }
    match eval(&args) {
        Ok(v) => {
            let float = info.kinds.src == ValueKind::Float || info.kinds.result == ValueKind::Float;
            hit(if float {
                cov::FOLD_FLOAT
            } else {
                cov::FOLD_INTEGER
            });
            Fold::Const(v & mask(dest.bits))
        }
        Err(_) => {
            hit(cov::REFUSE_UNDEFINED);
            Fold::Keep
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check, check_corpus, ctx, hits_of, interpret, Outcome};
    use ir::eval::Args;
    use ir::{print_program_compact, validate, Builder, Jump, Op, SlotType, ValueMap};

    #[test]
    fn folds_integer_ops_at_every_size() {
        // 8-bit iadd wraps (0xf0 + 0x20), a 16-bit shift count is masked to
        // 4 bits (17 -> 1), 32-bit iadd overflows into the sign bit, a 64-bit
        // shift by 63 drops bit 1, and a fold feeds the next one.
        check(
            super::run,
            "shader: t
decl_output 0 i8
decl_output 1 i16
decl_output 2 i32
decl_output 3 i64
decl_output 4 i32
impl main {
	block b0:
	8 %0 = load_const (0xf0)
	8 %1 = load_const (0x20)
	8 %2 = iadd %0, %1
	16 %3 = load_const (0x8001)
	32 %4 = load_const (0x00000011)
	16 %5 = ishl %3, %4
	32 %6 = load_const (0x7fffffff)
	32 %7 = load_const (0x00000001)
	32 %8 = iadd %6, %7
	64 %9 = load_const (0x0000000000000003)
	32 %10 = load_const (0x0000003f)
	64 %11 = ishl %9, %10
	32 %12 = iadd %8, %7
	@store_output (%2) (slot=0)
	@store_output (%5) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%11) (slot=3)
	@store_output (%12) (slot=4)
}
",
            "shader: t
decl_output 0 i8
decl_output 1 i16
decl_output 2 i32
decl_output 3 i64
decl_output 4 i32
impl main {
	block b0:
	8 %0 = load_const (0xf0)
	8 %1 = load_const (0x20)
	8 %2 = load_const (0x10)
	16 %3 = load_const (0x8001)
	32 %4 = load_const (0x00000011)
	16 %5 = load_const (0x0002)
	32 %6 = load_const (0x7fffffff)
	32 %7 = load_const (0x00000001)
	32 %8 = load_const (0x80000000)
	64 %9 = load_const (0x0000000000000003)
	32 %10 = load_const (0x0000003f)
	64 %11 = load_const (0x8000000000000000)
	32 %12 = load_const (0x80000001)
	@store_output (%2) (slot=0)
	@store_output (%5) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%11) (slot=3)
	@store_output (%12) (slot=4)
}
",
        );
    }

    #[test]
    fn folds_ffma_with_one_rounding_at_every_size() {
        // 1.5 * 2 + 0.25 = 3.25 at 16, 32 and 64 bits. (1 + 2^-12)^2 - 1 is
        // 2^-11 + 2^-24 fused (0x3a000400), but 2^-11 (0x3a000000) when the
        // product is rounded first (fmul then fadd): the tie 1 + 2^-11 + 2^-24
        // rounds to even.
        check(
            super::run,
            "shader: t
decl_output 0 f16
decl_output 1 f32
decl_output 2 f32
decl_output 3 f64
impl main {
	block b0:
	16 %0 = load_const (0x3e00)
	16 %1 = load_const (0x4000)
	16 %2 = load_const (0x3400)
	16 %3 = ffma %0, %1, %2
	32 %4 = load_const (0x3f800800)
	32 %5 = load_const (0xbf800000)
	32 %6 = ffma %4, %4, %5
	32 %7 = fmul %4, %4
	32 %8 = fadd %7, %5
	64 %9 = load_const (0x3ff8000000000000)
	64 %10 = load_const (0x4000000000000000)
	64 %11 = load_const (0x3fd0000000000000)
	64 %12 = ffma %9, %10, %11
	@store_output (%3) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%12) (slot=3)
}
",
            "shader: t
decl_output 0 f16
decl_output 1 f32
decl_output 2 f32
decl_output 3 f64
impl main {
	block b0:
	16 %0 = load_const (0x3e00)
	16 %1 = load_const (0x4000)
	16 %2 = load_const (0x3400)
	16 %3 = load_const (0x4280)
	32 %4 = load_const (0x3f800800)
	32 %5 = load_const (0xbf800000)
	32 %6 = load_const (0x3a000400)
	32 %7 = load_const (0x3f801000)
	32 %8 = load_const (0x3a000000)
	64 %9 = load_const (0x3ff8000000000000)
	64 %10 = load_const (0x4000000000000000)
	64 %11 = load_const (0x3fd0000000000000)
	64 %12 = load_const (0x400a000000000000)
	@store_output (%3) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%12) (slot=3)
}
",
        );
    }

    #[test]
    fn folds_f2f_between_sizes() {
        // 65520.0 (f32) is the f16 tie above the largest finite f16 and
        // rounds to +inf; f16 0x3555 widens exactly; f64 0.1 narrows to the
        // nearest f32; a NaN with a payload becomes the canonical NaN even at
        // the same size; 1-bit results print as booleans.
        check(
            super::run,
            "shader: t
decl_output 0 f16
decl_output 1 f64
decl_output 2 f32
decl_output 3 f32
decl_output 4 bool
impl main {
	block b0:
	32 %0 = load_const (0x477ff000)
	16 %1 = f2f %0
	16 %2 = load_const (0x3555)
	64 %3 = f2f %2
	64 %4 = load_const (0x3fb999999999999a)
	32 %5 = f2f %4
	32 %6 = load_const (0x7fc00001)
	32 %7 = f2f %6
	1 %8 = f2b %6
	@store_output (%1) (slot=0)
	@store_output (%3) (slot=1)
	@store_output (%5) (slot=2)
	@store_output (%7) (slot=3)
	@store_output (%8) (slot=4)
}
",
            "shader: t
decl_output 0 f16
decl_output 1 f64
decl_output 2 f32
decl_output 3 f32
decl_output 4 bool
impl main {
	block b0:
	32 %0 = load_const (0x477ff000)
	16 %1 = load_const (0x7c00)
	16 %2 = load_const (0x3555)
	64 %3 = load_const (0x3fd5540000000000)
	64 %4 = load_const (0x3fb999999999999a)
	32 %5 = load_const (0x3dcccccd)
	32 %6 = load_const (0x7fc00001)
	32 %7 = load_const (0x7fc00000)
	1 %8 = load_const (true)
	@store_output (%1) (slot=0)
	@store_output (%3) (slot=1)
	@store_output (%5) (slot=2)
	@store_output (%7) (slot=3)
	@store_output (%8) (slot=4)
}
",
        );
    }

    #[test]
    fn leaves_undefined_evaluations_alone() {
        // idiv by 0, 8-bit MIN / -1, f2i of NaN and f2u of -1.0 are undefined
        // and stay (so does their user); f2i of -0.5 truncates to 0 and folds.
        check(
            super::run,
            "shader: t
decl_output 0 i32
decl_output 1 i8
decl_output 2 i32
decl_output 3 i32
decl_output 4 i32
impl main {
	block b0:
	32 %0 = load_const (0x00000007)
	32 %1 = load_const (0x00000000)
	32 %2 = idiv %0, %1
	32 %3 = iadd %2, %0
	8 %4 = load_const (0x80)
	8 %5 = load_const (0xff)
	8 %6 = idiv %4, %5
	32 %7 = load_const (0x7fc00000)
	32 %8 = f2i %7
	32 %9 = load_const (0xbf800000)
	32 %10 = f2u %9
	32 %11 = load_const (0xbf000000)
	32 %12 = f2i %11
	@store_output (%3) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%10) (slot=3)
	@store_output (%12) (slot=4)
}
",
            "shader: t
decl_output 0 i32
decl_output 1 i8
decl_output 2 i32
decl_output 3 i32
decl_output 4 i32
impl main {
	block b0:
	32 %0 = load_const (0x00000007)
	32 %1 = load_const (0x00000000)
	32 %2 = idiv %0, %1
	32 %3 = iadd %2, %0
	8 %4 = load_const (0x80)
	8 %5 = load_const (0xff)
	8 %6 = idiv %4, %5
	32 %7 = load_const (0x7fc00000)
	32 %8 = f2i %7
	32 %9 = load_const (0xbf800000)
	32 %10 = f2u %9
	32 %11 = load_const (0xbf000000)
	32 %12 = load_const (0x00000000)
	@store_output (%3) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%8) (slot=2)
	@store_output (%10) (slot=3)
	@store_output (%12) (slot=4)
}
",
        );
    }

    #[test]
    fn folds_bcsel_with_a_constant_condition_into_every_use() {
        // %5 and %6 become %0 and %1 in a bcsel, %9 becomes the constant %8
        // so the iadd using it folds, %11 becomes %2 in the if condition and
        // %12 becomes %7 in a phi source.
        check(
            super::run,
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_input 2 bool
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	1 %2 = @load_input () (slot=2)
	1 %3 = load_const (true)
	1 %4 = load_const (false)
	32 %5 = bcsel %3, %0, %1
	32 %6 = bcsel %4, %0, %1
	32 %7 = bcsel %2, %5, %6
	32 %8 = load_const (0x00000005)
	32 %9 = bcsel %4, %0, %8
	32 %10 = iadd %9, %8
	1 %11 = bcsel %3, %2, %4
	if %11 {
		block b1:
		32 %12 = bcsel %3, %7, %0
	} else {
		block b2:
	}
	block b3:
	32 %13 = phi b1: %12, b2: %10
	@store_output (%7) (slot=0)
	@store_output (%10) (slot=1)
	@store_output (%13) (slot=2)
}
",
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_input 2 bool
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	1 %2 = @load_input () (slot=2)
	1 %3 = load_const (true)
	1 %4 = load_const (false)
	32 %7 = bcsel %2, %0, %1
	32 %8 = load_const (0x00000005)
	32 %10 = load_const (0x0000000a)
	if %2 {
		block b1:
	} else {
		block b2:
	}
	block b3:
	32 %13 = phi b1: %7, b2: %10
	@store_output (%7) (slot=0)
	@store_output (%10) (slot=1)
	@store_output (%13) (slot=2)
}
",
        );
    }

    #[test]
    fn leaves_phis_subgroup_ops_and_variable_sources_alone() {
        // ballot(true) depends on the active lanes; a phi of one constant is
        // copy-prop's; an iadd of a non-constant stays; so does a bcsel whose
        // condition is not constant even if both values are.
        let text = "shader: t
decl_input 0 bool
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	1 %0 = load_const (true)
	32 %1 = @ballot (%0)
	32 %2 = load_const (0x00000001)
	32 %3 = iadd %1, %2
	1 %4 = @load_input () (slot=0)
	32 %5 = bcsel %4, %2, %2
	if %4 {
		block b1:
	} else {
		block b2:
	}
	block b3:
	32 %6 = phi b1: %2, b2: %2
	32 %7 = iadd %6, %2
	@store_output (%3) (slot=0)
	@store_output (%5) (slot=1)
	@store_output (%7) (slot=2)
}
";
        check(super::run, text, text);
    }

    #[test]
    fn builder_loop_folds_constants_defined_outside_it() {
        // k = 1 + 3 before the loop; in the header, 1 << k folds to 16 from
        // constants defined outside, while the counter phi and what uses it
        // stay. The loop runs the counter to 4, so the output is 4 + 16.
        let mut b = Builder::new("fold_loop");
        let out = b.declare_output(SlotType::I32);
        let zero = b.constant(32, 0);
        let one = b.constant(32, 1);
        let three = b.constant(32, 3);
        let k = b.alu(Op::Iadd, &[one, three]);
        let entry = b.current_block();
        b.begin_loop();
        let h = b.phi_placeholder(32);
        let t = b.alu(Op::Ishl, &[one, k]);
        let done = b.alu(Op::Ige, &[h.value, k]);
        b.begin_if(done);
        b.jump(Jump::Break);
        b.end_if();
        let next = b.alu(Op::Iadd, &[h.value, one]);
        let latch = b.current_block();
        b.set_phi_srcs(h, &[(entry, zero), (latch, next)]);
        b.end_loop();
        let sum = b.alu(Op::Iadd, &[h.value, t]);
        b.store_output(out, sum);
        let mut p = b.finish().expect("valid");
        let before = interpret(&p, &[], &[], 0);
        assert_eq!(before, Outcome::Outputs(vec![Some(20)]));
        assert!(super::run(&mut p, &ctx()));
        validate(&p).expect("valid after const-fold");
        assert_eq!(
            print_program_compact(&p),
            "shader: fold_loop
decl_output 0 i32
impl main {
	block b0:
	32 %0 = load_const (0x00000000)
	32 %1 = load_const (0x00000001)
	32 %2 = load_const (0x00000003)
	32 %3 = load_const (0x00000004)
	loop {
		block b1:
		32 %4 = phi b0: %0, b4: %7
		32 %5 = load_const (0x00000010)
		1 %6 = ige %4, %3
		if %6 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %7 = iadd %4, %1
	}
	block b5:
	32 %8 = iadd %4, %5
	@store_output (%8) (slot=0)
}
"
        );
        assert_eq!(interpret(&p, &[], &[], 0), before);
        assert!(!super::run(&mut p, &ctx()));
    }

    #[test]
    fn records_a_fold_and_an_undefined_evaluation() {
        // %2 folds (integer); udiv by the constant 0 is undefined and stays.
        let text = "shader: t
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = load_const (0x00000007)
	32 %1 = load_const (0x00000000)
	32 %2 = iadd %0, %1
	32 %3 = udiv %0, %1
	@store_output (%2) (slot=0)
	@store_output (%3) (slot=1)
}
";
        assert_eq!(
            hits_of(super::run, &ctx(), text),
            crate::coverage::Hits::from([
                ("ir:const-fold/fold/integer", 1),
                ("ir:const-fold/refuse/undefined", 1),
            ])
        );
    }

    #[test]
    fn keeps_the_meaning_of_the_corpus() {
        let (compared, specialized) = check_corpus(&[("const-fold", super::run)]);
        assert!(compared > 300, "only {compared} runs compared");
        // Specialized to one invocation, every ALU op left with constant
        // sources is one whose evaluation is undefined.
        for (what, p) in specialized {
            let mut consts: ValueMap<(u8, u64)> = ValueMap::with_bound(p.value_bound());
            p.for_each_block(&mut |b| {
                for i in &b.instrs {
                    let srcs: Option<Vec<(u8, u64)>> =
                        i.srcs.iter().map(|s| consts.get(*s).copied()).collect();
                    if let (Some(eval), Some(srcs), Some(d)) = (i.op.info().eval, srcs, i.dest) {
                        let mut args = Args {
                            bits: d.bits,
                            ..Args::default()
                        };
                        for (k, (bits, v)) in srcs.into_iter().enumerate() {
                            args.src[k] = v;
                            args.src_bits[k] = bits;
                        }
                        assert!(
                            eval(&args).is_err(),
                            "{what}: `{}` was not folded",
                            ir::print::instr_text(i)
                        );
                    }
                    if let (Op::LoadConst, Some(d)) = (i.op, i.dest) {
                        consts.insert(d.id, (d.bits, i.imm));
                    }
                }
            });
        }
    }

    #[test]
    fn injected_bug_reads_narrow_sources_at_the_destination_size() {
        use super::super::testing::bug_case_after;
        use crate::bugs::Bug;
        let run = |bug| bug_case_after(super::run, "const-fold-source-size", bug);
        // i2i64 of a 32-bit -1 sign-extends; i2f32 of a 16-bit -2 is -2.0.
        let clean = run(None);
        assert!(
            clean.contains("64 %3 = load_const (0xffffffffffffffff)"),
            "{clean}"
        );
        assert!(clean.contains("32 %6 = load_const (0xc0000000)"), "{clean}");
        // The bug reads 0xffffffff as a 64-bit 4294967295 and 0xfffe as a
        // 32-bit 65534 (65534.0 = 0x477ffe00).
        let buggy = run(Some(Bug::ConstFoldSourceSize));
        assert!(
            buggy.contains("64 %3 = load_const (0x00000000ffffffff)"),
            "{buggy}"
        );
        assert!(buggy.contains("32 %6 = load_const (0x477ffe00)"), "{buggy}");
    }
}
