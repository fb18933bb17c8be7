//! `diff`: differential testing from fuzzer bytes.

use compiler::{BugSet, PassSet, Strategy};
use ir::Case;
use oracle::{check, Config, Verdict};
use std::cell::RefCell;
use std::fmt;
use std::sync::OnceLock;

/// The environment variable naming bugs to inject into the `diff` target
/// (as `--inject` does), to measure how fast libFuzzer finds them.
pub const INJECT_VAR: &str = "SHADERFARM_INJECT";

/// A finding of the `diff` target.
#[derive(Clone, Debug)]
pub struct DiffFailure {
    /// The config that fails.
    pub config: Config,
    /// The verdict.
    pub verdict: Verdict,
    /// The first pass after which the lanes diverge, if localization names one.
    pub culprit: Option<String>,
    /// The case as a `.sir` file whose first line is the config (the
    /// format of `corpus/bugs/`, ready for `farm run` and `farm reduce`).
    pub reproducer: String,
}

impl fmt::Display for DiffFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} under {}", self.verdict.kind(), self.config)?;
        if let Some(c) = &self.culprit {
            writeln!(f, "culprit: {c}")?;
        }
        writeln!(f, "{}", self.verdict)?;
        write!(f, "--- reproducer (.sir):\n{}", self.reproducer)
    }
}

/// How one input went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffRun {
    /// Config-runs checked (0 when the oracle rejected the case).
    pub configs: usize,
    /// The oracle's objection, if any (an interpreter timeout, or
    /// `invalid-case`, which means a generator bug).
    pub oracle: Option<&'static str>,
}

// The case being checked, printed, for the panic hook: a panic outside the
// compiler (which `oracle::check` does not catch, and libFuzzer turns into
// an abort) still shows the reproducer.
thread_local! {
    static CURRENT: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn install_reproducer_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if let Some(text) = CURRENT.with(|c| c.borrow_mut().take()) {
                eprintln!("--- the case being checked (.sir):\n{text}");
            }
            previous(info);
        }));
        oracle::session::install_panic_hook();
    });
}

fn injected() -> BugSet {
    static BUGS: OnceLock<BugSet> = OnceLock::new();
    *BUGS.get_or_init(|| match std::env::var(INJECT_VAR) {
        Ok(text) => BugSet::parse(&text).unwrap_or_else(|e| {
            eprintln!("{INJECT_VAR}: {e}");
            std::process::exit(2)
        }),
        Err(_) => BugSet::NONE,
    })
}

/// The fuzz target: bytes → a generated case → every strategy × {all
/// passes, no passes, a pass subset from the bytes} at a SIMD width from the
/// bytes, with the bugs named by `SHADERFARM_INJECT`. Panics with the
/// reproducer on a finding, and on an `invalid-case` verdict (the
/// generator must never produce undefined behaviour).
pub fn diff(data: &[u8]) {
    match diff_check(data, injected()) {
        Ok(run) => assert!(
            run.oracle != Some("invalid-case"),
            "the generator produced a case with undefined behaviour"
        ),
        Err(f) => panic!("{f}"),
    }
}

/// The case and the configs `data` selects.
pub fn diff_case(data: &[u8], bugs: BugSet) -> (Case, Vec<Config>) {
    let mut u = arbitrary::Unstructured::new(data);
    let simd = [8, 16, 32][u.choose_index(3).unwrap_or(0)];
    let bits: u64 = u.arbitrary().unwrap_or(0);
    let case = generator::generate_from_bytes(&mut u, &generator::Config::default());
    let sets = [
        PassSet::all(),
        PassSet::none(),
        crate::configs::random_passes(bits),
    ];
    let mut configs = Vec::new();
    for strategy in Strategy::ALL {
        for passes in &sets {
            configs.push(Config {
                strategy,
                simd: if strategy.is_vec4() { 8 } else { simd },
                passes: passes.clone(),
                bugs,
            });
        }
    }
    (case, configs)
}

/// Checks the case `data` selects under its configs; the first finding is
/// the error.
pub fn diff_check(data: &[u8], bugs: BugSet) -> Result<DiffRun, Box<DiffFailure>> {
    install_reproducer_hook();
    let (case, configs) = diff_case(data, bugs);
    let expected = match check::expected_outputs(&case, configs[0].simd) {
        Ok(e) => e,
        Err(v) => {
            return Ok(DiffRun {
                configs: 0,
                oracle: Some(v.kind()),
            })
        }
    };
    CURRENT.with(|c| *c.borrow_mut() = Some(ir::print_case(&case)));
    let mut result = Ok(DiffRun {
        configs: configs.len(),
        oracle: None,
    });
    for config in &configs {
        let verdict = check::check_against(&case, config, &expected).verdict;
        if crate::is_finding(&verdict) {
            let culprit = oracle::localize(&case, config)
                .culprit()
                .map(|s| s.to_string());
            let mut repro = case.clone();
            repro.program.comments = vec![format!("config: {config}")];
            result = Err(Box::new(DiffFailure {
                config: config.clone(),
                verdict,
                culprit,
                reproducer: ir::print_case(&repro),
            }));
            break;
        }
    }
    CURRENT.with(|c| c.borrow_mut().take());
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz_targets::smoke;
    use compiler::Bug;

    /// Random inputs: no finding in the compiler as shipped, and the oracle
    /// never calls a generated case undefined.
    #[test]
    fn random_bytes() {
        let mut runs = 0;
        for data in smoke::random_inputs(5, 2000, 512) {
            match diff_check(&data, BugSet::NONE) {
                Ok(r) => {
                    assert_ne!(r.oracle, Some("invalid-case"));
                    runs += r.configs;
                }
                Err(f) => panic!("{f}"),
            }
        }
        assert!(runs >= 2000 * 12 * 9 / 10, "only {runs} config-runs");
    }

    #[test]
    fn corpus() {
        for (_, bytes) in smoke::corpus("diff") {
            diff(&bytes);
        }
    }

    /// With a bug injected the target fails, and the reproducer it prints
    /// parses and fails the same way under the config on its first line.
    #[test]
    fn finds_an_injected_bug_and_prints_a_working_reproducer() {
        let bugs = BugSet::NONE.with(Bug::Shift16Unmasked);
        let failure = smoke::random_inputs(6, 2000, 512)
            .iter()
            .find_map(|d| diff_check(d, bugs).err())
            .expect("shift16-unmasked found within 2000 inputs");
        let case = ir::parse_case(&failure.reproducer).expect("the reproducer parses");
        let first = failure.reproducer.lines().next().unwrap();
        assert_eq!(first, format!("// config: {}", failure.config));
        assert!(first.contains("--inject shift16-unmasked"), "{first}");
        assert_eq!(check(&case, &failure.config), failure.verdict);
        let mut clean = failure.config.clone();
        clean.bugs = BugSet::NONE;
        assert_eq!(check(&case, &clean), Verdict::Pass);
    }
}
