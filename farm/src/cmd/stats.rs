//! `farm stats DIR --vs A B`: compile every .sir under DIR with two configs
//! and compare static instruction counts the way shader-db's report.py does:
//! totals over programs compiled by both, totals over affected programs,
//! helped and HURT counts, LOST/GAINED programs, at SIMD8 and SIMD16.
//! Programs whose loop count changed are left out, as report.py does.

use crate::output::emit;
use anyhow::{bail, Context, Result};
use compiler::{PassSet, Strategy};
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `farm stats`.
#[derive(clap::Args)]
pub struct Args {
    /// A directory of .sir files (searched recursively).
    dir: PathBuf,
    /// Two configs, `STRATEGY[:PASSES]` (e.g. `bool32 bool16`, `flag:all,-cse`).
    #[arg(long, num_args = 2, value_names = ["CONFIG_A", "CONFIG_B"], required = true)]
    vs: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// A `STRATEGY[:PASSES]` config.
fn parse_config(s: &str) -> Result<(Strategy, PassSet)> {
    let (strategy, passes) = s.split_once(':').unwrap_or((s, "all"));
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e: String| anyhow::anyhow!("--vs {s}: {e}"))?;
    let passes = PassSet::parse(passes).map_err(|e| anyhow::anyhow!("--vs {s}: {e}"))?;
    Ok((strategy, passes))
}

fn sir_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?;
    for e in entries {
        let p = e?.path();
        if p.is_dir() {
            sir_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "sir") {
            out.push(p);
        }
    }
    Ok(())
}

/// One program's numbers under one config: (instructions, loops), or None if it did not compile.
type Count = Option<(u32, u32)>;

/// The comparison at one SIMD width.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Report {
    /// SIMD width.
    pub simd: u32,
    /// Programs compiled by both configs (and not left out).
    pub shared: u32,
    /// Total instructions of the shared programs, before and after.
    pub total: (u64, u64),
    /// Total instructions of the programs whose count changed.
    pub affected: (u64, u64),
    /// Programs with fewer instructions.
    pub helped: u32,
    /// Programs with more instructions.
    pub hurt: u32,
    /// Programs compiled only by A.
    pub lost: u32,
    /// Programs compiled only by B.
    pub gained: u32,
    /// Programs left out because their loop count changed.
    pub loops_changed: u32,
}

/// Builds a report from per-program counts under A and B.
pub fn report(simd: u32, counts: &[(Count, Count)]) -> Report {
    let mut r = Report {
        simd,
        shared: 0,
        total: (0, 0),
        affected: (0, 0),
        helped: 0,
        hurt: 0,
        lost: 0,
        gained: 0,
        loops_changed: 0,
    };
    for &(a, b) in counts {
        match (a, b) {
            (Some(_), None) => r.lost += 1,
            (None, Some(_)) => r.gained += 1,
            (None, None) => {}
            (Some((ia, la)), Some((ib, lb))) => {
                if la != lb {
                    r.loops_changed += 1;
                    continue;
                }
                r.shared += 1;
                r.total.0 += ia as u64;
                r.total.1 += ib as u64;
                if ia != ib {
                    r.affected.0 += ia as u64;
                    r.affected.1 += ib as u64;
                    if ib < ia {
                        r.helped += 1;
                    } else {
                        r.hurt += 1;
                    }
                }
            }
        }
    }
    r
}

/// `A -> B (x.xx%)` as report.py prints it.
pub fn change(a: u64, b: u64) -> String {
    if a == 0 {
        return format!("{a} -> {b}");
    }
    let pct = (b as f64 - a as f64) * 100.0 / a as f64;
    let p = if pct != 0.0 && pct.abs() < 0.01 {
        if pct < 0.0 {
            "-<.01%".to_string()
        } else {
            "+<.01%".to_string()
        }
    } else {
        format!("{pct:+.2}%")
    };
    format!("{a} -> {b} ({p})")
}

/// The text form of a report.
pub fn render(r: &Report, a: &str, b: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "SIMD{}: {a} -> {b}", r.simd);
    let _ = writeln!(
        s,
        "total instructions in shared programs: {}",
        change(r.total.0, r.total.1)
    );
    let _ = writeln!(
        s,
        "instructions in affected programs: {}",
        change(r.affected.0, r.affected.1)
    );
    let _ = writeln!(s, "helped: {}", r.helped);
    let _ = writeln!(s, "HURT: {}", r.hurt);
    if r.lost + r.gained > 0 {
        let _ = writeln!(s, "LOST: {}", r.lost);
        let _ = writeln!(s, "GAINED: {}", r.gained);
    }
    if r.loops_changed > 0 {
        let _ = writeln!(
            s,
            "(left out: {} programs whose loop count changed)",
            r.loops_changed
        );
    }
    s
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let (ca, cb) = (parse_config(&a.vs[0])?, parse_config(&a.vs[1])?);
    let mut files = Vec::new();
    sir_files(&a.dir, &mut files)?;
    files.sort();
    if files.is_empty() {
        bail!("no .sir files under {}", a.dir.display());
    }
    let programs: Vec<ir::Program> = files
        .iter()
        .map(|f| crate::inputs::read_case(f).map(|c| c.program))
        .collect::<Result<_>>()?;
    let count = |p: &ir::Program, (s, passes): &(Strategy, PassSet), simd: u32| -> Count {
        let config = oracle::Config::new(*s, simd, passes.clone());
        oracle::Session::run(p, &config, oracle::Capture::Stages)
            .result
            .ok()
            .map(|c| (c.stats.instructions, c.stats.loops))
    };
    let mut reports = Vec::new();
    for simd in [8, 16] {
        let counts: Vec<(Count, Count)> = programs
            .iter()
            .map(|p| (count(p, &ca, simd), count(p, &cb, simd)))
            .collect();
        reports.push(report(simd, &counts));
    }
    if a.json {
        let doc = serde_json::json!({ "a": a.vs[0], "b": a.vs[1], "programs": programs.len(), "reports": reports });
        emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
    } else {
        let mut out = String::new();
        for r in &reports {
            out.push_str(&render(r, &a.vs[0], &a.vs[1]));
            out.push('\n');
        }
        emit(&out)?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_counts_like_shader_db() {
        // Three programs: one helped (10 -> 8), one unchanged (5), one HURT
        // (7 -> 9); one lost; one whose loop count changed is left out.
        let counts = [
            (Some((10, 0)), Some((8, 0))),
            (Some((5, 1)), Some((5, 1))),
            (Some((7, 0)), Some((9, 0))),
            (Some((4, 0)), None),
            (Some((6, 1)), Some((3, 2))),
        ];
        let r = report(8, &counts);
        assert_eq!(
            r,
            Report {
                simd: 8,
                shared: 3,
                total: (22, 22),
                affected: (17, 17),
                helped: 1,
                hurt: 1,
                lost: 1,
                gained: 0,
                loops_changed: 1
            }
        );
        assert_eq!(change(22, 22), "22 -> 22 (+0.00%)");
        assert_eq!(change(6240413, 6235841), "6240413 -> 6235841 (-0.07%)");
        assert_eq!(change(100000, 99999), "100000 -> 99999 (-<.01%)");
    }
}
