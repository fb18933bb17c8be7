//! Regression cases: every `corpus/regressions/*.sir`, made from a reduced
//! finding by `farm corpus add`. Its first line gives the config
//! (`// config: --strategy S --simd W --passes P [--inject B]`), its second
//! the signature it was filed under (`// signature: NAME`).
//!
//! Without `--inject` the case must pass: the bug it found stays fixed.
//! With `--inject` it must still fail with the same signature: the farm
//! still catches the injected bug.

use compiler::{PassSet, Strategy};
use oracle::check::{check, Config};
use oracle::Verdict;
use std::path::PathBuf;

fn regressions() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/regressions");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sir"))
        .collect();
    v.sort();
    v
}

/// The value of the `// KEY: ...` comment on line `n` (0-based).
fn comment<'a>(text: &'a str, n: usize, key: &str, file: &str) -> &'a str {
    text.lines()
        .nth(n)
        .and_then(|l| l.strip_prefix(&format!("// {key}: ")))
        .unwrap_or_else(|| panic!("{file}: line {} must be `// {key}: ...`", n + 1))
}

/// Parses the config line.
fn config(text: &str, file: &str) -> Config {
    Config::new(Strategy::Bool32, 16, PassSet::all())
        .with_options(comment(text, 0, "config", file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn regression_cases_replay() {
    let files = regressions();
    assert!(!files.is_empty(), "corpus/regressions/ has no cases");
    let mut problems = Vec::new();
    for path in &files {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let case = ir::parse_case(&text).unwrap_or_else(|e| panic!("{}", e.in_file(&file)));
        assert_eq!(ir::print_case(&case), text, "{file} is not canonical");
        let name = comment(&text, 1, "signature", &file);
        assert_eq!(
            path.file_stem().unwrap().to_string_lossy(),
            name,
            "{file}: the file name is the signature"
        );
        let c = config(&text, &file);
        let v = check(&case, &c);
        if c.bugs.is_empty() {
            if v != Verdict::Pass {
                problems.push(format!("{file}: fails again under {c}: {v}"));
            }
        } else {
            let now = triage::signature::Signature::of_model(&case, &c, &v).name();
            if now != name {
                problems.push(format!(
                    "{file}: the injected bug is no longer caught as {name} under {c}: {now} ({v})"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
