//! Every corpus case (`corpus/*.sir`) round-trips through the printer, and
//! its interpreter outputs equal the hand-derived `NAME.expected` file at
//! every SIMD width the file lists.

use oracle::expected::{compare, parse_expected};
use oracle::{run, InterpConfig};
use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn corpus_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sir"))
        .collect();
    v.sort();
    v
}

#[test]
fn corpus_round_trips() {
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let case = ir::parse_case(&text)
            .unwrap_or_else(|e| panic!("{}", e.in_file(&path.display().to_string())));
        assert_eq!(
            ir::print_case(&case),
            text,
            "{} is not in canonical form",
            path.display()
        );
        ir::validate(&case.program).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

#[test]
fn corpus_matches_expected_outputs() {
    let mut checked = 0;
    for path in corpus_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let case = ir::parse_case(&text).unwrap();
        let dispatch = case
            .dispatch
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no dispatch", path.display()));
        let exp_path = path.with_extension("expected");
        let exp_text = std::fs::read_to_string(&exp_path)
            .unwrap_or_else(|_| panic!("{} has no expected-outputs file", path.display()));
        let sections = parse_expected(&exp_text, &case.program.outputs)
            .unwrap_or_else(|e| panic!("{}:{e}", exp_path.display()));
        for section in &sections {
            for &simd in &section.simd {
                let got = run(
                    &case.program,
                    dispatch,
                    &InterpConfig {
                        simd,
                        ..InterpConfig::default()
                    },
                )
                .unwrap_or_else(|e| panic!("{} at SIMD{simd}: {e}", path.display()));
                let diffs = compare(section, &got);
                assert!(
                    diffs.is_empty(),
                    "{} at SIMD{simd}:\n{}",
                    path.display(),
                    diffs.join("\n")
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked} corpus runs were checked");
}
