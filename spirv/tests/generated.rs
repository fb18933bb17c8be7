//! Generated cases (`generator::generate(seed, &Config::default())`) export
//! to modules that pass `spirv-val --target-env vulkan1.1`: 300 seeds by
//! default, 5,000 with `SHADERFARM_LONG_TESTS=1` (`SHADERFARM_SEEDS=N`
//! overrides both). Every tenth also round-trips through `spirv-as`.

mod common;

use common::{invocations, round_trip_all, spirv_val_all};
use spirv_export::{export, ExportOptions, FloatControls};

fn seed_count() -> u64 {
    if let Some(n) = std::env::var("SHADERFARM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return n;
    }
    if std::env::var_os("SHADERFARM_LONG_TESTS").is_some_and(|v| v == "1") {
        5000
    } else {
        300
    }
}

#[test]
fn generated_cases_validate() {
    let n = seed_count();
    // As a driver campaign generates: no helper invocations (fragment only).
    let config = generator::Config {
        helpers: false,
        ..generator::Config::default()
    };
    let mut modules = Vec::with_capacity(n as usize);
    let mut used = spirv_export::Features::default();
    for seed in 0..n {
        let case = generator::generate(seed, &config);
        let controls = if seed % 2 == 0 {
            FloatControls::all()
        } else {
            FloatControls::lavapipe()
        };
        let opts = ExportOptions {
            invocations: invocations(&case),
            float_controls: controls,
            reconvergence: Default::default(),
            derivatives: Default::default(),
        };
        let m = export(&case.program, &opts)
            .unwrap_or_else(|e| panic!("seed {seed}: export failed: {e}"));
        let f = m.features;
        used.subgroup_vote |= f.subgroup_vote;
        used.subgroup_ballot |= f.subgroup_ballot;
        used.float64 |= f.float64;
        used.int8 |= f.int8;
        modules.push((format!("seed {seed}"), m.words));
    }
    // The generated programs exercise the optional features.
    assert!(
        used.subgroup_vote && used.subgroup_ballot && used.float64 && used.int8,
        "{used:?}"
    );
    // Every tenth module also round-trips through the disassembler.
    let sample: Vec<(String, Vec<u32>)> = modules.iter().step_by(10).cloned().collect();
    let round_trips = round_trip_all(&sample);
    assert!(round_trips.is_empty(), "{}", round_trips.join("\n"));
    let failures = spirv_val_all(modules);
    assert!(
        failures.is_empty(),
        "{} of {n} modules rejected:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
