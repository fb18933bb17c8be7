//! Generated programs agree with the oracle under every strategy, with no
//! passes and with all passes, at every SIMD width (rotating by seed).
//! Running out of registers (`CompilerLimit`, no spilling) is a legitimate
//! outcome, as a SIMD32 variant that does not fit is in Mesa; its rate is bounded.

use compiler::{PassSet, Strategy};
use oracle::check::{check, Config};
use oracle::Verdict;

#[test]
fn generated_programs_agree() {
    let n: u64 = std::env::var("SHADERFARM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(250);
    let gc = generator::Config::default();
    let mut failures = Vec::new();
    let (mut limits, mut runs) = (0u64, 0u64);
    for seed in 0..n {
        let case = generator::generate(seed, &gc);
        let simd = [8, 16, 32][(seed % 3) as usize];
        for strategy in Strategy::ALL {
            for passes in [PassSet::none(), PassSet::all()] {
                let simd = if strategy.is_vec4() { 8 } else { simd };
                let config = Config::new(strategy, simd, passes);
                let v = check(&case, &config);
                runs += 1;
                // The vec4 backend takes a subset of programs.
                if strategy.is_vec4() && matches!(v, Verdict::Unsupported(_)) {
                    continue;
                }
                if matches!(v, Verdict::CompilerLimit(_)) {
                    limits += 1;
                    continue;
                }
                if v != Verdict::Pass {
                    failures.push(format!(
                        "seed {seed} {config}: {}",
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
    assert!(
        limits * 10 < runs,
        "{limits} of {runs} runs ran out of registers"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
