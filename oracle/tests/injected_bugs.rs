//! Bug injection. For every injectable bug, `corpus/bugs/NAME.sir` is a
//! hand-written case whose first line gives the config under which the bug
//! changes the output: with the bug off the case passes, with it on it does
//! not. And an injected bug whose decision point never fires leaves the
//! compiled code identical to the bug-free compile.

use compiler::{BugSet, CompileOptions, PassSet, Strategy, BUGS};
use oracle::check::{check, Config};
use oracle::Verdict;
use std::path::PathBuf;

fn bugs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/bugs")
}

/// Parses `// config: --strategy S --simd W --passes P --inject NAME`.
fn config_line(text: &str, file: &str) -> Config {
    let line = text.lines().next().unwrap_or("");
    let options = line
        .strip_prefix("// config:")
        .unwrap_or_else(|| panic!("{file}: first line must be `// config: ...`"));
    Config::new(Strategy::Bool32, 16, PassSet::all())
        .with_options(options)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn every_bug_is_caught_by_its_case_and_the_case_passes_without_it() {
    let mut problems = Vec::new();
    for info in BUGS {
        let path = bugs_dir().join(format!("{}.sir", info.name));
        let Ok(text) = std::fs::read_to_string(&path) else {
            problems.push(format!("{}: no case {}", info.name, path.display()));
            continue;
        };
        let case = ir::parse_case(&text)
            .unwrap_or_else(|e| panic!("{}", e.in_file(&path.display().to_string())));
        assert_eq!(
            ir::print_case(&case),
            text,
            "{} is not canonical",
            path.display()
        );
        let mut config = config_line(&text, info.name);
        // The line injects the file's own bug, so `farm run` fails as documented.
        if config.bugs != BugSet::NONE.with(info.bug) {
            problems.push(format!(
                "{}: the config line injects `{}`, not its own bug",
                info.name, config.bugs
            ));
        }
        config.bugs = BugSet::NONE;
        let clean = check(&case, &config);
        if clean != Verdict::Pass {
            problems.push(format!(
                "{}: fails without the bug under {config}: {clean}",
                info.name
            ));
        }
        config.bugs = BugSet::NONE.with(info.bug);
        let buggy = check(&case, &config);
        if buggy == Verdict::Pass {
            problems.push(format!(
                "{}: the case passes with the bug injected ({config})",
                info.name
            ));
            continue;
        }
        // Localization names the pass the bug lives in.
        let want = info.stage();
        let trail = oracle::localize(&case, &config);
        if trail.culprit() != Some(want) {
            problems.push(format!(
                "{}: localized to {:?}, expected {want}; trail {:?}",
                info.name,
                trail.culprit(),
                trail.steps
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_bug_that_does_not_fire_changes_nothing() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sir"))
        .collect();
    files.sort();
    let (mut compared, mut fired) = (0, 0);
    for f in files {
        let p = ir::parse_case(&std::fs::read_to_string(&f).unwrap())
            .unwrap()
            .program;
        for strategy in compiler::Backend::Scalar.strategies() {
            for simd in [8, 16] {
                let base = CompileOptions::new(strategy, simd, PassSet::all());
                let clean = compiler::compile(&p, &base).ok().map(|c| c.program);
                for info in BUGS {
                    compiler::bugs::reset_hits();
                    let buggy =
                        compiler::compile(&p, &base.clone().with_bugs(BugSet::NONE.with(info.bug)))
                            .ok()
                            .map(|c| c.program);
                    if compiler::bugs::hits() == 0 {
                        compared += 1;
                        assert!(
                            buggy == clean,
                            "{} changed {} ({strategy}, SIMD{simd}) without firing",
                            info.name,
                            f.display()
                        );
                    } else {
                        fired += 1;
                    }
                }
            }
        }
    }
    assert!(
        compared > 0 && fired > 0,
        "compared {compared}, fired {fired}"
    );
}
