//! The relaxed run (`oracle::relax`): the same outputs as the plain run,
//! no exclusions under the model's guarantees (corpus and generated cases),
//! and, for every relaxation, a small program whose exclusions are derived
//! by hand (the comments give the arithmetic).

use oracle::relax::{
    run_relaxed, Exclusions, FloatControlsScope, FloatGuarantees, Guarantees, Reconvergence,
    Relaxation,
};
use oracle::{run, InterpConfig, Outputs};
use std::path::{Path, PathBuf};

use Relaxation::*;

fn config(simd: u32) -> InterpConfig {
    InterpConfig {
        simd,
        ..InterpConfig::default()
    }
}

/// Runs a `.sir` case plainly and relaxed; the outputs must be identical.
fn relaxed(text: &str, simd: u32, g: &Guarantees) -> (Outputs, Exclusions) {
    let case = ir::parse_case(text).unwrap_or_else(|e| panic!("{e}"));
    let d = case.dispatch.expect("the test case has a dispatch");
    let plain = run(&case.program, &d, &config(simd)).unwrap();
    let (out, excl) = run_relaxed(&case.program, &d, &config(simd), g).unwrap();
    assert_eq!(out, plain, "the relaxed run changed the outputs");
    (out, excl)
}

/// One slot's exclusion for every invocation.
fn slot(e: &Exclusions, s: usize) -> Vec<Option<Relaxation>> {
    (0..e.invocations).map(|i| e.get(i, s)).collect()
}

/// One slot's values for every invocation.
fn values(o: &Outputs, s: usize) -> Vec<Option<u64>> {
    (0..o.invocations).map(|i| o.get(i, s)).collect()
}

/// Everything exact, with one aspect changed.
fn exact_but(f: impl FnOnce(&mut Guarantees)) -> Guarantees {
    let mut g = Guarantees::exact();
    f(&mut g);
    g
}

/// Lavapipe 22.3 (Vulkan 1.3.230): SZINP and RTE at every width, no
/// DenormPreserve, base reconvergence.
fn lavapipe() -> Guarantees {
    let modes = FloatGuarantees {
        denorm_preserve: false,
        signed_zero_inf_nan_preserve: true,
        rounding_rte: true,
    };
    Guarantees::vulkan(1, 3, [modes; 3], Reconvergence::WorkgroupUniform)
}

fn sir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sir_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "sir") {
            out.push(p);
        }
    }
}

#[test]
fn exact_guarantees_exclude_nothing_in_the_corpus() {
    let mut files = Vec::new();
    sir_files(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus"),
        &mut files,
    );
    assert!(files.len() >= 40, "only {} corpus files", files.len());
    let g = Guarantees::exact();
    let mut runs = 0;
    for path in &files {
        let case = ir::parse_case(&std::fs::read_to_string(path).unwrap()).unwrap();
        let Some(d) = case.dispatch.as_ref() else {
            continue;
        };
        for simd in [8, 16, 32] {
            let plain = run(&case.program, d, &config(simd));
            let relaxed = run_relaxed(&case.program, d, &config(simd), &g);
            match (plain, relaxed) {
                (Ok(p), Ok((o, e))) => {
                    assert_eq!(o, p, "{}", path.display());
                    assert!(e.is_empty(), "{}: {}", path.display(), e.counts());
                    runs += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{}", path.display()),
                (a, b) => panic!("{}: {a:?} vs {b:?}", path.display()),
            }
        }
    }
    assert!(runs >= 120, "only {runs} runs");
}

#[test]
fn generated_cases_same_outputs_and_no_exclusions_under_exact() {
    let cfg = generator::Config::default();
    let (exact, lvp) = (Guarantees::exact(), lavapipe());
    let mut compared = 0u64;
    let mut excluded = 0u64;
    for seed in 0..2000u64 {
        let case = generator::generate(seed, &cfg);
        let d = case
            .dispatch
            .as_ref()
            .expect("generated cases have dispatches");
        let simd = [8, 16, 32][seed as usize % 3];
        let plain = run(&case.program, d, &config(simd));
        let a = run_relaxed(&case.program, d, &config(simd), &exact);
        let b = run_relaxed(&case.program, d, &config(simd), &lvp);
        match (plain, a, b) {
            (Ok(p), Ok((oa, ea)), Ok((ob, eb))) => {
                assert_eq!(oa, p, "seed {seed}");
                assert_eq!(ob, p, "seed {seed}");
                assert!(ea.is_empty(), "seed {seed}: {}", ea.counts());
                excluded += eb.counts().total() as u64;
                compared += eb.causes.len() as u64;
            }
            (Err(x), Err(y), Err(z)) => {
                assert_eq!(x, y, "seed {seed}");
                assert_eq!(x, z, "seed {seed}");
            }
            (x, y, z) => panic!("seed {seed}: {x:?} / {y:?} / {z:?}"),
        }
    }
    // Lavapipe's guarantees exclude some outputs but far from all.
    assert!(
        excluded > 0 && excluded < compared,
        "{excluded} of {compared}"
    );
}

#[test]
fn ffma_excluded_only_where_fused_and_unfused_differ() {
    // Lane 0: (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 exactly (fused,
    // 0x33800000); unfused, (1 + 2^-12)^2 rounds to 1 + 2^-11 and the sum
    // is 0. Lane 1: 2 * 3 + 1 = 7 either way. Lane 2: 1 * 1 + 2^-24 is
    // halfway between 1 and 1 + 2^-23: both give 1.0, but the inherited
    // precision allows either neighbour.
    let text = "shader: t
decl_input 0 f32
decl_input 1 f32
decl_input 2 f32
decl_output 0 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = @load_input () (slot=2)
	32 %3 = ffma %0, %1, %2
	@store_output (%3) (slot=0)
}
dispatch 3 {
	input 0: 0x3f800800 2.0 1.0
	input 1: 0x3f800800 3.0 1.0
	input 2: 0xbf801000 1.0 0x33800000
}
";
    let (o, e) = relaxed(text, 8, &exact_but(|g| g.fma_fused = false));
    assert_eq!(
        values(&o, 0),
        vec![Some(0x3380_0000), Some(0x40e0_0000), Some(0x3f80_0000)]
    );
    assert_eq!(slot(&e, 0), vec![Some(FfmaFusion), None, Some(FfmaFusion)]);
    assert_eq!(e.counts().to_string(), "ffma-fusion 2");
    let (_, none) = relaxed(text, 8, &Guarantees::exact());
    assert!(none.is_empty());
}

#[test]
fn denormal_operand_only_at_sizes_without_denorm_preserve() {
    // f32: 2^-149 * 2^23 = 2^-126 (0x00800000); flushed, 0 * 2^23 = 0.
    // 1.0 * 2^23 = 2^23 is clean. f16: 2^-24 * 2^10 = 2^-14 (0x0400), but
    // f16 keeps its denormals here. f32 fadd(2^-149, 1.0) = 1.0 either way.
    let text = "shader: t
decl_input 0 f32
decl_input 1 f16
decl_output 0 f32
decl_output 1 f16
decl_output 2 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	16 %1 = @load_input () (slot=1)
	32 %2 = load_const (0x4b000000)
	32 %3 = fmul %0, %2
	@store_output (%3) (slot=0)
	16 %4 = load_const (0x6400)
	16 %5 = fmul %1, %4
	@store_output (%5) (slot=1)
	32 %6 = load_const (0x3f800000)
	32 %7 = fadd %0, %6
	@store_output (%7) (slot=2)
}
dispatch 2 {
	input 0: 0x00000001 1.0
	input 1: 0x0001 1.0
}
";
    let g = exact_but(|g| g.f32.denorm_preserve = false);
    let (o, e) = relaxed(text, 8, &g);
    assert_eq!(values(&o, 0), vec![Some(0x0080_0000), Some(0x4b00_0000)]);
    assert_eq!(values(&o, 1), vec![Some(0x0400), Some(0x6400)]);
    assert_eq!(slot(&e, 0), vec![Some(DenormFlush), None]);
    assert_eq!(slot(&e, 1), vec![None, None]);
    assert_eq!(slot(&e, 2), vec![None, None]);
    // Without f16 DenormPreserve the f16 product is excluded too.
    let g16 = exact_but(|g| g.f16.denorm_preserve = false);
    assert_eq!(
        slot(&relaxed(text, 8, &g16).1, 1),
        vec![Some(DenormFlush), None]
    );
}

#[test]
fn nan_bits_reach_an_integer_slot_not_a_float_slot() {
    // inf + -inf = NaN (canonical 0x7fc00000 in the IR). On a 1.3 device
    // OpIsNan need not respect SZINP, so the canonicalization may not
    // happen: the value is a NaN with unknown bits. The float slot compares
    // NaNs by class; iand reads the bits into an integer slot.
    let text = "shader: t
decl_input 0 f32
decl_input 1 f32
decl_output 0 i32
decl_output 1 f32
decl_output 2 bool
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = fadd %0, %1
	32 %3 = load_const (0xffffffff)
	32 %4 = iand %2, %3
	@store_output (%4) (slot=0)
	@store_output (%2) (slot=1)
	1 %5 = fneu %2, %2
	@store_output (%5) (slot=2)
}
dispatch 2 {
	input 0: inf 1.0
	input 1: -inf 2.0
}
";
    let modes = [FloatGuarantees::ALL; 3];
    let v13 = Guarantees::vulkan(1, 3, modes, Reconvergence::Maximal);
    let (o, e) = relaxed(text, 8, &v13);
    assert_eq!(values(&o, 0), vec![Some(0x7fc0_0000), Some(0x4040_0000)]);
    assert_eq!(slot(&e, 0), vec![Some(NanBits), None]);
    assert_eq!(slot(&e, 1), vec![None, None]);
    // fneu(NaN, NaN) on 1.3 is not bound to see the NaN: excluded (nan-inf).
    assert_eq!(slot(&e, 2), vec![Some(NanInf), None]);
    // On 1.4 OpIsNan and the comparisons respect SZINP: all exact.
    let v14 = Guarantees::vulkan(1, 4, modes, Reconvergence::Maximal);
    assert_eq!(v14.scope, FloatControlsScope::Vulkan14);
    assert!(relaxed(text, 8, &v14).1.is_empty());
}

#[test]
fn rounding_signed_zero_and_nan_inf() {
    // Without RTE at f32: 1 + 2^-30 is inexact (excluded), 1 + 2 is not.
    let add = "shader: t
decl_input 0 f32
decl_input 1 f32
decl_output 0 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_input () (slot=1)
	32 %2 = fadd %0, %1
	@store_output (%2) (slot=0)
}
dispatch 2 {
	input 0: 1.0 1.0
	input 1: 0x30800000 2.0
}
";
    let g = exact_but(|g| g.f32.rounding_rte = false);
    assert_eq!(slot(&relaxed(add, 8, &g).1, 0), vec![Some(Rounding), None]);
    // OpConvertSToF is on no SZINP list: i2f(0) = +0 may come back as -0;
    // i2f(5) = 5.0 is exact. Adding 1.0 to the zero makes it clean again.
    let conv = "shader: t
decl_input 0 i32
decl_output 0 f32
decl_output 1 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = i2f %0
	@store_output (%1) (slot=0)
	32 %2 = load_const (0x3f800000)
	32 %3 = fadd %1, %2
	@store_output (%3) (slot=1)
}
dispatch 2 {
	input 0: 0 5
}
";
    let v13 = Guarantees::vulkan(1, 3, [FloatGuarantees::ALL; 3], Reconvergence::Maximal);
    let (o, e) = relaxed(conv, 8, &v13);
    assert_eq!(values(&o, 0), vec![Some(0), Some(0x40a0_0000)]);
    assert_eq!(slot(&e, 0), vec![Some(SignedZero), None]);
    assert_eq!(slot(&e, 1), vec![None, None]);
    // Without SZINP at f32, fadd's own zero result loses its sign too.
    let mut no_szinp = v13;
    no_szinp.f32.signed_zero_inf_nan_preserve = false;
    let sub = add.replace("input 1: 0x30800000 2.0", "input 1: -1.0 2.0");
    assert_eq!(
        slot(&relaxed(&sub, 8, &no_szinp).1, 0),
        vec![Some(SignedZero), None]
    );
    assert_eq!(slot(&relaxed(&sub, 8, &v13).1, 0), vec![None, None]);
}

/// Lanes 0..7 of a subgroup of 8: odd lanes run the `if`; a ballot inside
/// it and one after its merge.
const DIVERGENT_IF: &str = "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000001)
	32 %2 = iand %0, %1
	1 %3 = ieq %2, %1
	1 %4 = load_const (true)
	if %3 {
		block b1:
		32 %5 = @ballot (%4)
		@store_output (%5) (slot=0)
	} else {
		block b2:
	}
	block b3:
	32 %6 = @ballot (%4)
	@store_output (%6) (slot=1)
}
dispatch 8 {
	input 0: 0 1 2 3 4 5 6 7
}
";

#[test]
fn ballot_in_a_divergent_if_and_after_its_merge() {
    let wg = exact_but(|g| g.reconvergence = Reconvergence::WorkgroupUniform);
    let (o, e) = relaxed(DIVERGENT_IF, 8, &wg);
    let odd = |v: Option<u64>| {
        (0..8)
            .map(|l| (l % 2 == 1).then_some(v).flatten())
            .collect::<Vec<_>>()
    };
    // Inside: the odd lanes, 0b10101010. After the merge: all eight.
    assert_eq!(values(&o, 0), odd(Some(0xaa)));
    assert_eq!(values(&o, 1), vec![Some(0xff); 8]);
    // Inside the divergent if: excluded where it was written; even lanes
    // never write slot 0 (their path is certain) and are compared.
    let tangle: Vec<_> = (0..8).map(|l| (l % 2 == 1).then_some(Tangle)).collect();
    assert_eq!(slot(&e, 0), tangle);
    assert_eq!(slot(&e, 1), vec![None; 8]);
    assert_eq!(e.counts().to_string(), "tangle 4");
    // Maximal reconvergence: everything compared.
    assert!(relaxed(DIVERGENT_IF, 8, &Guarantees::exact()).1.is_empty());
}

#[test]
fn loop_with_lanes_leaving_at_different_iterations() {
    // Lane l leaves at iteration l % 4 + 1; slot 0 holds the ballot of the
    // last iteration it ran: 0xff (iteration 1, lanes 0 and 4), 0xee
    // (iteration 2), 0xcc, 0x88. Slot 1 is a ballot after the loop.
    let text = "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	1 %3 = load_const (true)
	loop {
		block b1:
		32 %4 = phi b0: %1, b4: %8
		32 %5 = @ballot (%3)
		@store_output (%5) (slot=0)
		1 %6 = ige %4, %0
		if %6 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %8 = iadd %4, %2
	}
	block b5:
	32 %9 = @ballot (%3)
	@store_output (%9) (slot=1)
}
dispatch 8 {
	input 0: 0 1 2 3 0 1 2 3
}
";
    let wg = exact_but(|g| g.reconvergence = Reconvergence::WorkgroupUniform);
    let (o, e) = relaxed(text, 8, &wg);
    let per_lane = [0xff, 0xee, 0xcc, 0x88];
    assert_eq!(
        values(&o, 0),
        (0..8).map(|l| Some(per_lane[l % 4])).collect::<Vec<_>>()
    );
    assert_eq!(values(&o, 1), vec![Some(0xff); 8]);
    // Iteration 1 is uniform (entered uniformly); later iterations come
    // after some invocations left: not uniform. After the loop (entered
    // uniformly, every invocation leaves through its merge): uniform.
    assert_eq!(
        slot(&e, 0),
        (0..8)
            .map(|l| (l % 4 != 0).then_some(Tangle))
            .collect::<Vec<_>>()
    );
    assert_eq!(slot(&e, 1), vec![None; 8]);
    let sg = exact_but(|g| g.reconvergence = Reconvergence::SubgroupUniform);
    assert_eq!(slot(&relaxed(text, 8, &sg).1, 0), slot(&e, 0));
    assert!(relaxed(text, 8, &Guarantees::exact()).1.is_empty());
}

#[test]
fn tainted_branch_excludes_that_lane_only() {
    // Lane 0: p = 2^-149 * 2^23 = 2^-126, which a driver without f32
    // DenormPreserve may compute as 0, so `0 < p` and the branch are
    // uncertain: slot 0 (stored), slot 1 (the other arm) and slot 2 (after)
    // are excluded for lane 0; slot 3 (stored before) is not. Lane 1
    // (p = 2^23) is compared everywhere.
    let text = "shader: t
decl_input 0 f32
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
decl_output 3 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	@store_output (%0) (slot=3)
	32 %1 = load_const (0x4b000000)
	32 %2 = fmul %0, %1
	32 %3 = load_const (0x00000000)
	1 %4 = flt %3, %2
	if %4 {
		block b1:
		32 %5 = load_const (0x00000001)
		@store_output (%5) (slot=0)
	} else {
		block b2:
		32 %6 = load_const (0x00000002)
		@store_output (%6) (slot=1)
	}
	block b3:
	32 %7 = load_const (0x00000003)
	@store_output (%7) (slot=2)
}
dispatch 2 {
	input 0: 0x00000001 1.0
}
";
    let g = exact_but(|g| g.f32.denorm_preserve = false);
    let (o, e) = relaxed(text, 8, &g);
    assert_eq!(values(&o, 0), vec![Some(1), Some(1)]);
    assert_eq!(values(&o, 1), vec![None, None]);
    assert_eq!(values(&o, 2), vec![Some(3), Some(3)]);
    for s in 0..3 {
        assert_eq!(slot(&e, s), vec![Some(DenormFlush), None], "slot {s}");
    }
    assert_eq!(slot(&e, 3), vec![None, None]);
    assert_eq!(e.counts().to_string(), "denorm-flush 3");
}

#[test]
fn workgroup_uniformity_spans_subgroups() {
    // 13 invocations, subgroups of 8 and 5. All of subgroup 0 takes the
    // then-arm; subgroup 1 splits (lanes 8, 10, 12 take it). Inside: 0xff
    // in subgroup 0, 0b10101 = 0x15 in subgroup 1. After: 0xff and 0x1f.
    let text = "shader: t
decl_input 0 bool
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	1 %0 = @load_input () (slot=0)
	1 %1 = load_const (true)
	if %0 {
		block b1:
		32 %2 = @ballot (%1)
		@store_output (%2) (slot=0)
	} else {
		block b2:
	}
	block b3:
	32 %3 = @ballot (%1)
	@store_output (%3) (slot=1)
}
dispatch 13 {
	input 0: true true true true true true true true true false true false true
}
";
    let taken = |l: usize| l < 8 || l & 1 == 0;
    let wg = exact_but(|g| g.reconvergence = Reconvergence::WorkgroupUniform);
    let (o, e) = relaxed(text, 8, &wg);
    assert_eq!(
        values(&o, 0),
        (0..13)
            .map(|l| taken(l).then_some(if l < 8 { 0xff } else { 0x15 }))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        values(&o, 1),
        (0..13)
            .map(|l| Some(if l < 8 { 0xff } else { 0x1f }))
            .collect::<Vec<_>>()
    );
    // The workgroup diverges at the if: both subgroups are excluded inside.
    assert_eq!(
        slot(&e, 0),
        (0..13)
            .map(|l| taken(l).then_some(Tangle))
            .collect::<Vec<_>>()
    );
    assert_eq!(slot(&e, 1), vec![None; 13]);
    // Per-subgroup uniformity: subgroup 0 did not diverge.
    let sg = exact_but(|g| g.reconvergence = Reconvergence::SubgroupUniform);
    assert_eq!(
        slot(&relaxed(text, 8, &sg).1, 0),
        (0..13)
            .map(|l| (l >= 8 && l & 1 == 0).then_some(Tangle))
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_tangled_value_deciding_a_branch_is_found_by_a_later_pass() {
    // m is 0xaa in every lane (odd lanes: the ballot of the odd lanes
    // inside a divergent if; even lanes: the constant), so the second if is
    // uniform in the oracle. But the odd lanes' m is a tangled value: their
    // branch is uncertain, so the ballot inside the second if (0xff) is
    // excluded for every lane, with the tangle as the cause.
    let text = "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000001)
	32 %2 = iand %0, %1
	1 %3 = ieq %2, %1
	1 %4 = load_const (true)
	32 %5 = load_const (0x000000aa)
	if %3 {
		block b1:
		32 %6 = @ballot (%4)
	} else {
		block b2:
	}
	block b3:
	32 %7 = phi b1: %6, b2: %5
	1 %8 = ieq %7, %5
	if %8 {
		block b4:
		32 %9 = @ballot (%4)
		@store_output (%9) (slot=0)
	} else {
		block b5:
	}
	block b6:
}
dispatch 8 {
	input 0: 0 1 2 3 4 5 6 7
}
";
    let wg = exact_but(|g| g.reconvergence = Reconvergence::WorkgroupUniform);
    let (o, e) = relaxed(text, 8, &wg);
    assert_eq!(values(&o, 0), vec![Some(0xff); 8]);
    assert_eq!(slot(&e, 0), vec![Some(Tangle); 8]);
}
