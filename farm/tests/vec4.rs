//! The vec4 backend end to end: generated vec4-profile cases agree with the
//! oracle under its pass sets, `farm run --backend vec4` and `farm stats
//! --backend vec4` (seed 002's comparison: per-channel flag liveness never
//! costs an instruction).

use compiler::{PassSet, Strategy};
use farm::campaign::mix::vec4_profile;
use oracle::check::{check, Config};
use oracle::Verdict;
use std::path::PathBuf;
use std::process::{Command, Output};

fn farm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_farm"))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("farm runs")
}

/// Ops an IR pass may make that the vec4 backend does not lower (the
/// bitfield pass recognizes shift-and-mask idioms).
const MADE_BY_IR_PASSES: &[&str] = &["`bfm`", "`ubfe`", "`ibfe`", "`bfi`"];

#[test]
fn vec4_profile_cases_agree_with_the_oracle_under_every_pass_set() {
    let profile = vec4_profile(&generator::Config::default()).unwrap();
    let mut failures = Vec::new();
    let mut passed = 0;
    for seed in 0..40u64 {
        let case = generator::generate(seed, &profile);
        let sets = [
            PassSet::all(),
            PassSet::none(),
            PassSet::parse("all,flag-liveness=conservative").unwrap(),
            PassSet::parse("all,spill=all").unwrap(),
            PassSet::parse("all,vec4-pack=all").unwrap(),
            farm::configs::random_passes(farm::configs::splitmix(seed)),
        ];
        for passes in sets {
            let config = Config::new(Strategy::Vec4, 8, passes);
            match check(&case, &config) {
                Verdict::Pass => passed += 1,
                Verdict::Unsupported(m) if MADE_BY_IR_PASSES.iter().any(|op| m.contains(op)) => {}
                v => failures.push(format!("seed {seed} {config}: {v}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed >= 180, "{passed} of 240 passed");
}

#[test]
fn run_and_stats_take_the_vec4_backend() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-vec4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = vec4_profile(&generator::Config::default()).unwrap();
    for seed in 0..40u64 {
        let case = generator::generate(seed, &profile);
        std::fs::write(dir.join(format!("c{seed}.sir")), ir::print_case(&case)).unwrap();
    }
    let one = dir.join("c0.sir").display().to_string();
    let o = farm(&["run", &one, "--backend", "vec4"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("--strategy vec4 --simd 8 --passes all: pass"),
        "{out}"
    );
    // A scalar strategy under --backend vec4 is refused by name.
    let o = farm(&["run", &one, "--backend", "vec4", "--strategy", "bool16"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--strategy bool16 is not a strategy of --backend vec4"),
        "{err}"
    );
    // Conservative against per-channel flag liveness: never HURT.
    let d = dir.display().to_string();
    let o = farm(&[
        "stats",
        &d,
        "--backend",
        "vec4",
        "--json",
        "-m",
        "instructions",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["a"], "vec4:all,flag-liveness=conservative");
    assert_eq!(j["b"], "vec4:all");
    let m = &j["comparison"]["measurements"][0];
    assert_eq!(m["name"], "instructions", "{j}");
    assert_eq!(m["hurt"].as_array().map(Vec::len), Some(0), "{m}");
    assert!(!m["helped"].as_array().unwrap().is_empty(), "{m}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_vec4_campaign_runs_every_case_under_the_vec4_backend() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-vec4-fuzz-{}", std::process::id()));
    let o = farm(&[
        "fuzz",
        "--cases",
        "20",
        "--jobs",
        "1",
        "--backend",
        "vec4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("stats.json")).unwrap()).unwrap();
    // Every case is generated for the vec4 backend, under its three pass
    // sets (all, all with `vec4-pack=all`, a random subset).
    assert_eq!(stats["config_runs"], 60, "{stats}");
    let strategies: Vec<&String> = stats["per_strategy"].as_object().unwrap().keys().collect();
    assert_eq!(strategies, ["vec4"]);
    // --backend keeps only its own strategies: none left is an error.
    let o = farm(&[
        "fuzz",
        "--cases",
        "1",
        "--strategies",
        "bool32",
        "--backend",
        "vec4",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--backend vec4: none of --strategies is a strategy of it"));
    let _ = std::fs::remove_dir_all(&out);
}

/// The packed shapes (a packed CMP with gathered sources, packed
/// constants, a packed bcsel, `.all4h` and `.any4h` reductions) compute
/// what the IR says, with and without the vec4 passes and packing
/// everything. The expected values are worked out by hand from the inputs.
#[test]
fn packed_shapes_compute_the_programs_values() {
    use ir::{Builder, Dispatch, Op, SlotType};
    let mut b = Builder::new("packed");
    b.declare_input(SlotType::F32);
    b.declare_input(SlotType::F32);
    b.declare_uniform(SlotType::F32);
    for _ in 0..3 {
        b.declare_output(SlotType::I32);
    }
    let x = b.load_input(0);
    let y = b.load_input(1);
    let zero = b.load_uniform(0);
    // Read once each, the negations are gathered for free.
    let nx = b.alu(Op::Fneg, &[x]);
    let ny = b.alu(Op::Fneg, &[y]);
    let c0 = b.alu(Op::Flt, &[nx, zero]);
    let c1 = b.alu(Op::Flt, &[ny, zero]);
    let one = b.constant(32, 1);
    let two = b.constant(32, 2);
    let s = b.alu(Op::Bcsel, &[c0, one, two]);
    let t = b.alu(Op::Bcsel, &[c1, two, one]);
    let sum = b.alu(Op::Iadd, &[s, t]);
    let both = b.alu(Op::Iand, &[c0, c1]);
    let r = b.alu(Op::Bcsel, &[both, one, two]);
    let either = b.alu(Op::Ior, &[c0, c1]);
    b.store_output(0, sum);
    b.store_output(1, r);
    b.begin_if(either);
    b.store_output(2, one);
    b.begin_else();
    b.store_output(2, two);
    b.end_if();
    let program = b.finish().unwrap();
    let f = |v: f32| v.to_bits() as u64;
    let case = ir::Case {
        program,
        dispatch: Some(Dispatch {
            invocations: 4,
            inputs: vec![
                [-1.0, 2.0, -3.0, 4.0].map(f).to_vec(),
                [-1.0, -2.0, 3.0, 4.0].map(f).to_vec(),
            ],
            uniforms: vec![f(0.0)],
        }),
    };
    // c0 = x > 0: F T F T; c1 = y > 0: F F T T. s = c0 ? 1 : 2 and
    // t = c1 ? 2 : 1, out0 = s + t; out1 = c0 && c1 ? 1 : 2; out2 =
    // c0 || c1 ? 1 : 2.
    let want: Vec<Option<u64>> = [[3, 2, 2], [2, 2, 1], [4, 2, 1], [3, 1, 1]]
        .iter()
        .flatten()
        .map(|&v| Some(v))
        .collect();
    let expected = oracle::check::expected_outputs(&case, 8).unwrap();
    assert_eq!(expected.values, want);
    for passes in [
        "none",
        "all",
        "all,flag-liveness=conservative",
        "none,vec4-pack=all",
        "all,vec4-pack=all",
    ] {
        let config = Config::new(Strategy::Vec4, 8, PassSet::parse(passes).unwrap());
        assert_eq!(check(&case, &config), Verdict::Pass, "{config}");
    }
    // The shapes are there: the reductions, the per-channel SEL and the
    // packed CMP.
    let opts = compiler::CompileOptions::new(Strategy::Vec4, 8, PassSet::none());
    let code = compiler::compile(&case.program, &opts)
        .unwrap()
        .virt
        .text_compact();
    for shape in ["(+f0.0.all4h) sel", "(+f0.0.any4h) if", "(+f0.0) sel(8)"] {
        assert!(code.contains(shape), "{shape}:\n{code}");
    }
    let packed_cmp = |l: &str| l.starts_with("cmp.l.f0.0(8)") && l.contains("<1>.xyF");
    assert!(code.lines().any(packed_cmp), "{code}");
}
