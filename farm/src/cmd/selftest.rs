//! `farm selftest`: how fast the farm finds each injectable bug, how small
//! the reports get, and whether they name the right pass.

use crate::output::emit;
use anyhow::{Context, Result};
use compiler::{BugSet, BUGS};
use farm::campaign::findings::write_atomic;
use farm::campaign::selftest::{self, Settings};
use farm::campaign::{self};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Options of `farm selftest`.
#[derive(clap::Args)]
pub struct Args {
    /// Search time per bug: 30s, 10m, … (a bug not found by then counts as missed).
    #[arg(long, default_value = "60s", value_parser = campaign::parse_duration)]
    per_bug: std::time::Duration,
    /// Workers per bug (default: all cores).
    #[arg(long, value_parser = crate::inputs::parse_jobs)]
    jobs: Option<usize>,
    /// Only these bugs (default: every injectable bug).
    #[arg(long, value_parser = |s: &str| BugSet::parse(s))]
    bugs: Option<BugSet>,
    /// Base seed of every bug's campaign.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output directory: selftest.json, and BUG/ with each reduced case and report.
    #[arg(long, default_value = "selftest-out")]
    out: PathBuf,
    /// Generator config (JSON).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Coverage feedback in each bug's search (as `farm fuzz --feedback`).
    #[arg(long, value_enum, default_value = "on")]
    feedback: crate::cmd::fuzz::OnOff,
    /// No per-bug progress lines.
    #[arg(long)]
    quiet: bool,
}

/// Runs the command. Exits 0 whatever was found: the table is the result.
pub fn run(a: Args) -> Result<ExitCode> {
    let generator = crate::cmd::gen::read_config(a.config.as_deref())?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create the output directory {}", a.out.display()))?;
    let bugs: Vec<_> = BUGS
        .iter()
        .filter(|b| a.bugs.is_none_or(|set| set.has(b.bug)))
        .collect();
    let settings = Settings {
        per_bug: a.per_bug,
        jobs: a
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        seed: a.seed,
        generator,
        feedback: (a.feedback == crate::cmd::fuzz::OnOff::On).then_some(campaign::feedback::EPOCH),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = stop.clone();
    let _ = ctrlc::set_handler(move || handler_stop.store(true, Ordering::Relaxed));
    let total = bugs.len();
    let mut done = 0;
    let table = selftest::run(&settings, &bugs, &a.out, &stop, |row| {
        done += 1;
        if !a.quiet {
            eprintln!(
                "[{done}/{total}] {}: {}",
                row.bug,
                match (row.cases_to_first, row.seconds_to_first) {
                    (Some(c), Some(t)) => format!("found after {c} cases, {t:.2}s"),
                    _ => format!("not found in {} cases", row.cases_run),
                }
            );
        }
    })?;
    let json = a.out.join("selftest.json");
    write_atomic(
        &json,
        (serde_json::to_string_pretty(&table)? + "\n").as_bytes(),
    )?;
    let mut text = table.text();
    if stop.load(Ordering::Relaxed) {
        text.push_str("interrupted: the table covers the bugs finished so far\n");
    }
    text.push_str(&format!("table: {}\n", json.display()));
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
