//! `farm selftest` end to end over two bugs with a short budget: both are
//! found, reduced into cases that still show the bug (and pass without it),
//! localized to the pass BUGS.md names, and the table and its JSON agree;
//! the number of cases to the first detection does not depend on --jobs.

use oracle::{Config, Verdict};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn selftest(out: &PathBuf, jobs: &str) -> (String, Value) {
    let _ = std::fs::remove_dir_all(out);
    let o = Command::new(env!("CARGO_BIN_EXE_farm"))
        .args([
            "selftest",
            "--per-bug",
            "60s",
            "--jobs",
            jobs,
            "--bugs",
            "shift16-unmasked,cmod-prop-flag-subreg",
            "--quiet",
            "--out",
        ])
        .arg(out)
        .output()
        .expect("farm runs");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let json = std::fs::read_to_string(out.join("selftest.json")).expect("selftest.json");
    (stdout, serde_json::from_str(&json).expect("valid JSON"))
}

#[test]
fn two_bugs_are_found_reduced_and_localized() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-selftest-{}", std::process::id()));
    let (text, table) = selftest(&dir.join("j2"), "2");
    let rows = table["rows"].as_array().expect("rows");
    // BUGS.md order: cmod-prop-flag-subreg (eu:cmod-prop) before
    // shift16-unmasked (lowering).
    let expect = [
        ("cmod-prop-flag-subreg", "eu:cmod-prop"),
        ("shift16-unmasked", "lowering"),
    ];
    assert_eq!(rows.len(), 2, "{text}");
    for (row, (bug, culprit)) in rows.iter().zip(expect) {
        assert_eq!(row["bug"], bug);
        assert_eq!(row["found"], true, "{text}");
        assert_eq!(row["expected_culprit"], culprit);
        assert_eq!(row["culprit"], culprit, "{text}");
        assert_eq!(row["culprit_correct"], true);
        assert_eq!(row["unrelated_findings"], 0);
        let reduced = row["reduced_size"].as_u64().unwrap();
        assert!(reduced <= row["original_size"].as_u64().unwrap(), "{row}");
        // The reduced case on disk: the config on its first line, failing
        // with the bug and passing without it.
        let sir = std::fs::read_to_string(dir.join("j2").join(bug).join("reduced.sir"))
            .expect("reduced.sir");
        let case = ir::parse_case(&sir).expect("parses");
        assert_eq!(case.program.num_instrs() as u64, reduced);
        let line = sir.lines().next().unwrap();
        let base = Config::new(compiler::Strategy::Bool32, 16, compiler::PassSet::all());
        let mut config = base
            .with_options(line.trim_start_matches("// config:"))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(line.contains(&format!("--inject {bug}")), "{line}");
        assert_ne!(oracle::check(&case, &config), Verdict::Pass);
        config.bugs = compiler::BugSet::NONE;
        assert_eq!(oracle::check(&case, &config), Verdict::Pass);
        // The text table shows the row.
        let line = text
            .lines()
            .find(|l| l.starts_with(bug))
            .expect("a table line");
        let cases = row["cases_to_first"].as_u64().unwrap().to_string();
        assert!(line.split_whitespace().any(|w| w == cases), "{line}");
        assert!(line.ends_with("yes"), "{line}");
    }
    assert!(text.contains("found 2 of 2 bugs"), "{text}");
    assert!(
        text.contains("culprit named correctly for 2 of 2"),
        "{text}"
    );
    // One job finds the same first cases.
    let (_, one) = selftest(&dir.join("j1"), "1");
    for (a, b) in rows.iter().zip(one["rows"].as_array().unwrap()) {
        assert_eq!(a["cases_to_first"], b["cases_to_first"]);
        assert_eq!(a["reduced_size"], b["reduced_size"]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
