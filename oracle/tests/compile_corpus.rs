//! Every corpus case agrees with the oracle, lane for lane, under every
//! strategy x SIMD8/16/32 x {no passes, each single pass, all passes}, both
//! on virtual registers (before register allocation) and in the final code.

use compiler::{PassSet, Strategy, PASSES};
use oracle::check::{check, check_virtual, Config};
use oracle::Verdict;
use std::path::PathBuf;

fn corpus() -> Vec<(String, ir::Case)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sir"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let case = ir::parse_case(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), case)
        })
        .collect()
}

fn pass_sets() -> Vec<PassSet> {
    let mut v = vec![
        PassSet::none(),
        PassSet::all(),
        PassSet::parse("all,bitfield=expand").expect("valid pass set"),
    ];
    v.extend((0..PASSES.len()).map(PassSet::single));
    v
}

#[test]
fn corpus_agrees_under_every_config() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for (name, case) in corpus() {
        for strategy in Strategy::ALL {
            for simd in widths(strategy) {
                for passes in pass_sets() {
                    let config = Config::new(strategy, simd, passes);
                    runs += 1;
                    let v = check(&case, &config);
                    if !passes_or_unsupported(strategy, &v) {
                        failures.push(format!(
                            "{name} {config}: {}",
                            v.to_string()
                                .lines()
                                .take(3)
                                .collect::<Vec<_>>()
                                .join(" | ")
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_agrees_on_virtual_registers() {
    let mut failures = Vec::new();
    for (name, case) in corpus() {
        for strategy in Strategy::ALL {
            for simd in widths(strategy) {
                let config = Config::new(strategy, simd, PassSet::all());
                let v = check_virtual(&case, &config);
                if !passes_or_unsupported(strategy, &v) {
                    failures.push(format!("{name} {config}: {v}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The SIMD widths a strategy compiles at (the vec4 backend's is 8).
fn widths(strategy: Strategy) -> Vec<u32> {
    if strategy.is_vec4() {
        vec![8]
    } else {
        vec![8, 16, 32]
    }
}

/// A pass, or (vec4 only) a program outside the vec4 backend's subset.
fn passes_or_unsupported(strategy: Strategy, v: &Verdict) -> bool {
    *v == Verdict::Pass || (strategy.is_vec4() && matches!(v, Verdict::Unsupported(_)))
}
