//! Whether two runs of one campaign came out the same: `stats.json`
//! without its timings, `buckets.json` and every file under `findings/`,
//! byte for byte (what the project's speed work holds every change to).

use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fields of `stats.json` that depend on the machine's speed.
pub const TIMING_FIELDS: [&str; 4] = [
    "elapsed_s",
    "cases_per_s",
    "config_runs_per_s",
    "config_runs_per_s_per_job",
];

/// What differs between the campaign outputs in `a` and `b`, one line
/// each (empty when they are the same).
pub fn differences(a: &Path, b: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if stats_without_timings(a)? != stats_without_timings(b)? {
        out.push("stats.json differs (timings aside)".to_string());
    }
    if read(&a.join("buckets.json"))? != read(&b.join("buckets.json"))? {
        out.push("buckets.json differs".to_string());
    }
    let (fa, fb) = (files(&a.join("findings"))?, files(&b.join("findings"))?);
    for (name, text) in &fa {
        match fb.get(name) {
            None => out.push(format!(
                "findings/{} only in {}",
                name.display(),
                a.display()
            )),
            Some(other) if other != text => {
                out.push(format!("findings/{} differs", name.display()))
            }
            Some(_) => {}
        }
    }
    for name in fb.keys().filter(|n| !fa.contains_key(*n)) {
        out.push(format!(
            "findings/{} only in {}",
            name.display(),
            b.display()
        ));
    }
    Ok(out)
}

/// `DIR/stats.json` parsed, without [`TIMING_FIELDS`].
fn stats_without_timings(dir: &Path) -> Result<serde_json::Value> {
    let path = dir.join("stats.json");
    let mut stats: serde_json::Value = serde_json::from_slice(&read(&path)?)
        .with_context(|| format!("{}: not JSON", path.display()))?;
    let fields = stats
        .as_object_mut()
        .with_context(|| format!("{}: not a JSON object", path.display()))?;
    for field in TIMING_FIELDS {
        fields.remove(field);
    }
    Ok(stats)
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

/// Every file under `dir` (none when it does not exist), by its path
/// relative to `dir`.
fn files(dir: &Path) -> Result<BTreeMap<PathBuf, Vec<u8>>> {
    let mut out = BTreeMap::new();
    if dir.exists() {
        collect(dir, Path::new(""), &mut out)?;
    }
    Ok(out)
}

fn collect(dir: &Path, rel: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) -> Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("listing {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("listing {}", dir.display()))?;
        let (path, name) = (entry.path(), rel.join(entry.file_name()));
        if path.is_dir() {
            collect(&path, &name, out)?;
        } else {
            out.insert(name, read(&path)?);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A campaign output directory under the test's scratch space.
    fn campaign(name: &str, stats: &str, buckets: &str, findings: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir()
            .join(format!("xtask-compare-{}", std::process::id()))
            .join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("stats.json"), stats).unwrap();
        std::fs::write(dir.join("buckets.json"), buckets).unwrap();
        for (path, text) in findings {
            let path = dir.join("findings").join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn timings_aside_equal_campaigns_have_no_differences() {
        let a = campaign(
            "same-a",
            r#"{"elapsed_s": 1.5, "cases_per_s": 10.0, "config_runs_per_s": 120.0,
                "config_runs_per_s_per_job": 120.0, "cases": 15, "verdicts": {"pass": 180}}"#,
            "[]",
            &[("sig/case.sir", "x")],
        );
        let b = campaign(
            "same-b",
            r#"{"cases": 15, "verdicts": {"pass": 180}, "elapsed_s": 3.0, "cases_per_s": 5.0,
                "config_runs_per_s": 60.0, "config_runs_per_s_per_job": 30.0}"#,
            "[]",
            &[("sig/case.sir", "x")],
        );
        assert_eq!(differences(&a, &b).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn every_kind_of_difference_is_named() {
        let a = campaign(
            "diff-a",
            r#"{"cases": 15, "verdicts": {"pass": 180}}"#,
            "[]",
            &[("s1/case.sir", "x"), ("s2/case.sir", "y")],
        );
        let b = campaign(
            "diff-b",
            r#"{"cases": 15, "verdicts": {"pass": 179, "mismatch": 1}}"#,
            "[1]",
            &[("s1/case.sir", "z"), ("s3/case.sir", "y")],
        );
        assert_eq!(
            differences(&a, &b).unwrap(),
            vec![
                "stats.json differs (timings aside)".to_string(),
                "buckets.json differs".to_string(),
                "findings/s1/case.sir differs".to_string(),
                format!("findings/s2/case.sir only in {}", a.display()),
                format!("findings/s3/case.sir only in {}", b.display()),
            ]
        );
    }

    #[test]
    fn a_missing_stats_file_is_an_error_naming_it() {
        let a = campaign("missing-a", "{}", "[]", &[]);
        let b = a.with_file_name("missing-b");
        let _ = std::fs::remove_dir_all(&b);
        let err = differences(&a, &b).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("reading {}", b.join("stats.json").display())
        );
    }
}
