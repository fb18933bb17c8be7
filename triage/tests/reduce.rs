//! End-to-end tests of the reducer on the injectable bugs' corpus cases.

use compiler::{BugSet, PassSet, StageId, Strategy, BUGS, PASSES};
use ir::{BlockId, Case, CfNode, Dispatch, Op, Program, ValueId};
use oracle::Config;
use std::path::PathBuf;
use std::time::Instant;
use triage::reduce::{same_bug_predicate, ReduceError, Reduced, Reducer};

fn corpus_bug(name: &str) -> (Case, Config) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/bugs")
        .join(format!("{name}.sir"));
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap();
    let args: Vec<&str> = first
        .strip_prefix("// config:")
        .unwrap()
        .split_whitespace()
        .collect();
    let mut strategy = Strategy::Bool32;
    let mut simd = 8;
    let mut passes = PassSet::all();
    for pair in args.chunks(2) {
        match pair[0] {
            "--strategy" => strategy = pair[1].parse().unwrap(),
            "--simd" => simd = pair[1].parse().unwrap(),
            "--passes" => passes = PassSet::parse(pair[1]).unwrap(),
            "--inject" => assert_eq!(pair[1], name, "{name}'s config line injects its own bug"),
            other => panic!("unknown option {other} in {name}"),
        }
    }
    let mut config = Config::new(strategy, simd, passes);
    config.bugs = BugSet::parse(name).unwrap();
    (ir::parse_case(&text).unwrap(), config)
}

fn kind_and_culprit(case: &Case, config: &Config) -> (&'static str, Option<StageId>) {
    let v = oracle::check(case, config);
    let culprit = oracle::localize(case, config).culprit();
    (v.kind(), culprit)
}

fn reduce(case: &Case, config: &Config) -> Reduced {
    Reducer::new(same_bug_predicate(case, config))
        .run(case, config)
        .unwrap()
}

/// The reduction measure the contract promises to shrink: IR
/// instructions, then invocations, then passes.
fn measure(case: &Case, config: &Config) -> (usize, u32, usize) {
    (
        case.program.num_instrs(),
        case.dispatch.as_ref().unwrap().invocations,
        config.passes.iter().count(),
    )
}

/// Reduces a failing case of bug `name` and checks the contract; returns
/// the result.
fn check_reduction(name: &str, case: &Case, config: &Config) -> Reduced {
    let want = kind_and_culprit(case, config);
    assert_ne!(want.0, "pass", "{name} must fail as given");
    let start = Instant::now();
    let r = reduce(case, config);
    eprintln!(
        "{name}: {} -> {} instrs, {} -> {} invocations, {} checks, {:.2}s, {}",
        case.program.num_instrs(),
        r.case.program.num_instrs(),
        case.dispatch.as_ref().unwrap().invocations,
        r.case.dispatch.as_ref().unwrap().invocations,
        r.checks,
        start.elapsed().as_secs_f64(),
        r.config
    );
    let p = &r.case.program;
    // Valid, UB-free at the reduced width, the same failure.
    ir::validate(p).unwrap();
    oracle::check::expected_outputs(&r.case, r.config.simd).unwrap();
    assert_eq!(kind_and_culprit(&r.case, &r.config), want, "{name}");
    // Small, and smaller.
    assert!(p.num_instrs() <= 15, "{name}: {} instrs", p.num_instrs());
    assert!(p.num_instrs() <= case.program.num_instrs());
    assert!(
        measure(&r.case, &r.config) < measure(case, config),
        "{name}"
    );
    assert_eq!(r.removed, case.program.num_instrs() - p.num_instrs());
    // The minimal pass set holds the guilty pass (lowering bugs need none).
    let guilty = BUGS.iter().find(|b| b.name == name).unwrap().stage();
    let on: Vec<usize> = r.config.passes.iter().map(|(i, _)| i).collect();
    if let Some(index) = guilty.pass_index() {
        assert!(on.contains(&index), "{name}: passes {}", r.config.passes);
    }
    // ... and is 1-minimal: without any one of its passes the bug is gone.
    let mut same = same_bug_predicate(case, config);
    assert!(same(&r.case, &r.config));
    for &drop in &on {
        let keep: Vec<String> = on
            .iter()
            .filter(|&&i| i != drop)
            .map(|&i| PASSES[i].full_name())
            .collect();
        let mut c = r.config.clone();
        c.passes = if keep.is_empty() {
            PassSet::none()
        } else {
            PassSet::parse(&keep.join(",")).unwrap()
        };
        c.passes.bitfield = r.config.passes.bitfield;
        assert!(
            !same(&r.case, &c),
            "{name}: {} is not needed",
            PASSES[drop].full_name()
        );
    }
    r
}

/// The corpus case of bug `name`, then a campaign-sized finding of it
/// (reduced twice: the same output both times).
fn check_bug(name: &str) {
    let (case, config) = corpus_bug(name);
    check_reduction(name, &case, &config);
    let (big, config) = campaign_sized(name);
    assert!(big.program.num_instrs() >= 40);
    let r = check_reduction(name, &big, &config);
    assert!(r.case.program.num_instrs() < big.program.num_instrs());
    let again = reduce(&big, &config);
    assert_eq!(ir::print_case(&again.case), ir::print_case(&r.case));
    assert_eq!(again.config, r.config);
    assert_eq!(again.checks, r.checks);
}

/// `bug` after `noise`: the noise's slots, values and blocks first, the
/// bug's renumbered after them, the noise's last block merged with the
/// bug's first, the dispatch columns side by side.
fn prepend(noise: &Case, bug: &Case) -> Case {
    let (q, p) = (&noise.program, &bug.program);
    let dv = q.value_bound() as u32;
    let db = q.block_bound() as u32;
    let mut p2 = p.clone();
    let first = match &p.body[0] {
        CfNode::Block(b) => b.id,
        _ => unreachable!("a list starts with a block"),
    };
    let last = match q.body.last() {
        Some(CfNode::Block(b)) => b.id,
        _ => unreachable!("a list ends with a block"),
    };
    let block = |b: BlockId| {
        if b == first {
            last
        } else {
            BlockId(b.0 + db)
        }
    };
    p2.for_each_block_mut(&mut |b| {
        b.id = BlockId(b.id.0 + db);
        for phi in &mut b.phis {
            phi.dest.id = ValueId(phi.dest.id.0 + dv);
            for (pb, v) in &mut phi.srcs {
                *pb = block(*pb);
                *v = ValueId(v.0 + dv);
            }
        }
        for i in &mut b.instrs {
            if let Some(d) = &mut i.dest {
                d.id = ValueId(d.id.0 + dv);
            }
            for v in &mut i.srcs {
                *v = ValueId(v.0 + dv);
            }
            i.imm += match i.op {
                Op::LoadInput => q.inputs.len() as u64,
                Op::LoadUniform => q.uniforms.len() as u64,
                Op::StoreOutput => q.outputs.len() as u64,
                _ => 0,
            };
        }
    });
    fn shift_conds(list: &mut [CfNode], dv: u32) {
        for n in list {
            match n {
                CfNode::Block(_) => {}
                CfNode::If(f) => {
                    f.cond = ValueId(f.cond.0 + dv);
                    shift_conds(&mut f.then_body, dv);
                    shift_conds(&mut f.else_body, dv);
                }
                CfNode::Loop(l) => shift_conds(&mut l.body, dv),
            }
        }
    }
    shift_conds(&mut p2.body, dv);
    let mut body = q.body.clone();
    let mut rest = p2.body.into_iter();
    if let (Some(CfNode::Block(tail)), Some(CfNode::Block(head))) = (body.last_mut(), rest.next()) {
        tail.instrs.extend(head.instrs);
    }
    body.extend(rest);
    let program = Program {
        comments: vec![],
        name: p.name.clone(),
        inputs: [q.inputs.clone(), p.inputs.clone()].concat(),
        uniforms: [q.uniforms.clone(), p.uniforms.clone()].concat(),
        outputs: [q.outputs.clone(), p.outputs.clone()].concat(),
        body,
    };
    let (dq, dp) = (
        noise.dispatch.as_ref().unwrap(),
        bug.dispatch.as_ref().unwrap(),
    );
    let dispatch = Dispatch {
        invocations: dp.invocations,
        inputs: [dq.inputs.clone(), dp.inputs.clone()].concat(),
        uniforms: [dq.uniforms.clone(), dp.uniforms.clone()].concat(),
    };
    Case {
        program,
        dispatch: Some(dispatch),
    }
}

/// A campaign-sized finding of a bug: its corpus case after the code of the
/// first generated case (seeds 0, 1, ...) of at least 40 instructions that
/// keeps its verdict kind and culprit.
fn campaign_sized(name: &str) -> (Case, Config) {
    let (case, config) = corpus_bug(name);
    let want = kind_and_culprit(&case, &config);
    let n = case.dispatch.as_ref().unwrap().invocations;
    let mut gen = generator::Config {
        min_instrs: 40,
        max_instrs: 120,
        min_invocations: n,
        max_invocations: n,
        ..generator::Config::default()
    };
    if config.strategy.is_vec4() {
        // Noise the vec4 backend compiles (the campaign's vec4 profile).
        gen.bit_sizes = vec![32];
        gen.subgroup = false;
        gen.helpers = false;
        let unsupported: Vec<Op> = Op::all()
            .filter(|&op| !compiler::vec4::supports(op))
            .collect();
        gen.drop_ops(&unsupported);
    }
    for seed in 0..100 {
        let noise = generator::generate(seed, &gen);
        if noise.program.num_instrs() < 40 {
            continue;
        }
        let big = prepend(&noise, &case);
        ir::validate(&big.program).unwrap();
        if oracle::check::expected_outputs(&big, config.simd).is_ok()
            && kind_and_culprit(&big, &config) == want
        {
            return (big, config);
        }
    }
    panic!("no generated case keeps {name}'s failure");
}

macro_rules! bug_tests {
    ($($test:ident => $name:literal,)*) => {
        $( #[test] fn $test() { check_bug($name) } )*

        #[test]
        fn every_injectable_bug_has_a_test() {
            let mut tested = vec![$($name),*];
            tested.sort();
            let mut all: Vec<&str> = BUGS.iter().map(|b| b.name).collect();
            all.sort();
            assert_eq!(tested, all);
        }
    };
}

bug_tests! {
    reduces_cmod_prop_type_mismatch => "cmod-prop-type-mismatch",
    reduces_cmod_prop_saturate => "cmod-prop-saturate",
    reduces_cmod_prop_invert_nan => "cmod-prop-invert-nan",
    reduces_cmod_prop_flag_subreg => "cmod-prop-flag-subreg",
    reduces_dce_flag_halves => "dce-flag-halves",
    reduces_dce_predicated_kill => "dce-predicated-kill",
    reduces_copy_prop_nomask => "copy-prop-nomask",
    reduces_sat_prop_type_change => "sat-prop-type-change",
    reduces_coalesce_drops_cmod => "coalesce-drops-cmod",
    reduces_cse_neg_sat => "cse-neg-sat",
    reduces_cse_cross_invocation => "cse-cross-invocation",
    reduces_native_no_canonicalize => "native-no-canonicalize",
    reduces_bool16_zero_extend => "bool16-zero-extend",
    reduces_cmp64_upper_dword => "cmp64-upper-dword",
    reduces_shift16_unmasked => "shift16-unmasked",
    reduces_bitfield_expand_edge => "bitfield-expand-edge",
    reduces_algebraic_bfi_iand => "algebraic-bfi-iand",
    reduces_gcm_ignores_phi_source => "gcm-ignores-phi-source",
    reduces_bool_cleanup_negated_mov => "bool-cleanup-negated-mov",
    reduces_cse_flag_only_stale => "cse-flag-only-stale",
    reduces_copy_prop_mods_type_change => "copy-prop-mods-type-change",
    reduces_b2x64_unsigned_bool => "b2x64-unsigned-bool",
    reduces_flag_spill_clobbers => "flag-spill-clobbers",
    reduces_subgroup_prefill_masked => "subgroup-prefill-masked",
    reduces_regalloc_loop_exit_live => "regalloc-loop-exit-live",
    reduces_regalloc_compressed_hazard => "regalloc-compressed-hazard",
    reduces_const_fold_source_size => "const-fold-source-size",
    reduces_copy_prop_loop_phi => "copy-prop-loop-phi",
    reduces_peephole_select_cross_invocation => "peephole-select-cross-invocation",
    reduces_dce_loop_phi_back_edge => "dce-loop-phi-back-edge",
    reduces_gcm_hoists_cross_invocation => "gcm-hoists-cross-invocation",
    reduces_gcm_sinks_cross_invocation => "gcm-sinks-cross-invocation",
    reduces_spill_fill_without_nomask => "spill-fill-without-nomask",
    reduces_spill_first_half_mask => "spill-first-half-mask",
    reduces_gcm_sinks_convergent => "gcm-sinks-convergent",
    reduces_helper_store_unpredicated => "helper-store-unpredicated",
    reduces_bool8_byte_src1 => "bool8-byte-src1",
    reduces_vec4_cmod_prop_writemask => "vec4-cmod-prop-writemask",
    reduces_vec4_dce_flag_reads_x => "vec4-dce-flag-reads-x",
    reduces_vec4_coalesce_dst_read => "vec4-coalesce-dst-read",
    reduces_vec4_dce_narrow_drops_flag => "vec4-dce-narrow-drops-flag",
    reduces_vec4_coalesce_flag_writer => "vec4-coalesce-flag-writer",
}

#[test]
fn a_predicate_that_fails_on_the_input_is_an_error() {
    let (case, config) = corpus_bug("cse-neg-sat");
    let r = Reducer::new(|_: &Case, _: &Config| false).run(&case, &config);
    assert_eq!(r, Err(ReduceError::PredicateFailsOnInput));
}

#[test]
fn a_predicate_that_accepts_anything_is_reported() {
    let (case, config) = corpus_bug("cse-neg-sat");
    let r = Reducer::new(|_: &Case, _: &Config| true).run(&case, &config);
    assert_eq!(r, Err(ReduceError::TrivialPredicate));
}

#[test]
fn an_input_without_dispatch_or_with_undefined_behaviour_is_an_error() {
    let (mut case, config) = corpus_bug("shift16-unmasked");
    let mut no_dispatch = case.clone();
    no_dispatch.dispatch = None;
    let r = Reducer::new(|_: &Case, _: &Config| true).run(&no_dispatch, &config);
    assert_eq!(
        r,
        Err(ReduceError::InvalidInput("the case has no dispatch".into()))
    );
    // udiv by an input that is 0 in invocation 0.
    case = ir::parse_case(
        "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = udiv %0, %0
	@store_output (%1) (slot=0)
}
dispatch 2 {
	input 0: 0 1
}
",
    )
    .unwrap();
    let r = Reducer::new(|_: &Case, _: &Config| true).run(&case, &config);
    assert!(matches!(r, Err(ReduceError::InvalidInput(_))), "{r:?}");
}

#[test]
fn the_budget_of_checks_is_respected() {
    let (case, config) = campaign_sized("cse-neg-sat");
    let mut same = same_bug_predicate(&case, &config);
    let r = Reducer::new(same_bug_predicate(&case, &config))
        .max_checks(12)
        .run(&case, &config)
        .unwrap();
    assert!(r.checks <= 12, "{} checks", r.checks);
    ir::validate(&r.case.program).unwrap();
    assert!(same(&r.case, &r.config));
}

#[test]
fn without_config_minimization_the_config_is_kept() {
    let (case, config) = corpus_bug("cse-neg-sat");
    let r = Reducer::new(same_bug_predicate(&case, &config))
        .minimize_config(false)
        .run(&case, &config)
        .unwrap();
    assert_eq!(r.config, config);
    assert!(r.case.program.num_instrs() <= case.program.num_instrs());
}

/// A predicate that needs no compiler: the program still has an `ffma`.
/// Everything else goes: the loop and the ifs around it, its operands (to
/// one constant 0), the stores, every slot and input value; its size
/// narrows to the smallest float, 16 bits; the config to the simplest.
#[test]
fn a_structural_predicate_reduces_control_flow_to_the_one_op() {
    let case = ir::parse_case(
        "shader: t
decl_input 0 f32
decl_input 1 i32
decl_output 0 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x00000000)
	32 %3 = load_const (0x00000001)
	1 %4 = ilt %2, %1
	if %4 {
		block b1:
		loop {
			block b2:
			32 %5 = phi b1: %2, b5: %9
			32 %6 = phi b1: %0, b5: %8
			1 %7 = ige %5, %1
			if %7 {
				block b3:
				break
			} else {
				block b4:
			}
			block b5:
			32 %8 = ffma %6, %6, %0
			32 %9 = iadd %5, %3
		}
		block b6:
	} else {
		block b7:
	}
	block b8:
	32 %10 = phi b6: %6, b7: %0
	@store_output (%10) (slot=0)
}
dispatch 3 {
	input 0: 0.5 -2.0 3.0
	input 1: 2 0 5
}
",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    ir::validate(&case.program).unwrap();
    let has_ffma = |c: &Case, _: &Config| {
        let mut found = false;
        c.program.for_each_block(&mut |b| {
            found |= b.instrs.iter().any(|i| i.op == Op::Ffma);
        });
        found
    };
    let config = Config::new(Strategy::Flag, 32, PassSet::all());
    let r = Reducer::new(has_ffma).run(&case, &config).unwrap();
    assert_eq!(
        ir::print_case_compact(&r.case),
        "shader: t
impl main {
	block b0:
	16 %0 = load_const (0x0000)
	16 %1 = ffma %0, %0, %0
}
dispatch 1 {
}
"
    );
    assert_eq!(
        r.config.to_string(),
        "--strategy bool32 --simd 8 --passes none"
    );
    assert_eq!(r.removed, case.program.num_instrs() - 2);
}
