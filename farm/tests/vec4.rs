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
    assert!(passed >= 150, "{passed} of 200 passed");
}

#[test]
fn run_and_stats_take_the_vec4_backend() {
    let dir = std::env::temp_dir().join(format!("farm-vec4-{}", std::process::id()));
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
    let out = std::env::temp_dir().join(format!("farm-vec4-fuzz-{}", std::process::id()));
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
    // Every case is generated for the vec4 backend, under its two pass sets.
    assert_eq!(stats["config_runs"], 40, "{stats}");
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
