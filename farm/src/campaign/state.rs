//! The state writer: `stats.json` and `checkpoint.json`, written together
//! (the bucket index first, since it must know every case the checkpoint
//! does) through the durable-write helper, and a line appended to
//! `stats.jsonl` each time, the campaign's history (a crash can leave a
//! last line cut short; readers skip a line that does not parse).

use super::collector::Collector;
use super::stats::{HistoryPoint, StatsFile, HISTORY_FILE};
use crate::durable::{write_atomic, write_json};
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes a campaign's state files.
pub struct StateWriter {
    stats: PathBuf,
    history: PathBuf,
    checkpoint: PathBuf,
    jobs: usize,
    /// Config-runs done before this run (for this run's throughput).
    runs_before: u64,
}

impl StateWriter {
    /// A writer for the campaign in `out`, run with `jobs` workers, whose
    /// earlier runs did `runs_before` config-runs.
    pub fn new(out: &Path, jobs: usize, runs_before: u64) -> StateWriter {
        StateWriter {
            stats: out.join("stats.json"),
            history: out.join(HISTORY_FILE),
            checkpoint: out.join("checkpoint.json"),
            jobs,
            runs_before,
        }
    }

    /// This run's config-runs per second after `elapsed` seconds.
    pub fn rate(&self, c: &Collector, elapsed: f64) -> f64 {
        (c.checkpoint.counters.config_runs - self.runs_before) as f64 / elapsed.max(1e-9)
    }

    /// Writes the bucket index, `stats.json` and `checkpoint.json`, this run
    /// having lasted `elapsed` seconds; `finished` when the run ended by
    /// itself (case limit, duration, search done), not by a stop request.
    pub fn write(&self, c: &Collector, elapsed: f64, finished: bool) -> Result<()> {
        c.buckets.save()?;
        let ckpt = &c.checkpoint;
        let total_elapsed = ckpt.elapsed_before + elapsed;
        let rate = self.rate(c, elapsed);
        let catalogue = compiler::coverage::catalogue();
        let never_reached: Vec<&'static str> = catalogue
            .iter()
            .map(|p| p.name())
            .filter(|n| !ckpt.counters.decision_points.contains_key(*n))
            .collect();
        let s = StatsFile {
            points_total: catalogue.len(),
            points_reached: catalogue.len() - never_reached.len(),
            never_reached,
            finished,
            elapsed_s: total_elapsed,
            cases_per_s: ckpt.counters.cases as f64 / total_elapsed.max(1e-9),
            config_runs_per_s: rate,
            config_runs_per_s_per_job: rate / self.jobs as f64,
            jobs: self.jobs,
            findings: c.findings(),
            reduced: c.buckets.reduced(),
            reduce_queue: c.buckets.waiting(),
            counters: &ckpt.counters,
        };
        write_json(&self.stats, &s)?;
        let point = HistoryPoint {
            elapsed_s: total_elapsed,
            cases: ckpt.counters.cases,
            config_runs: ckpt.counters.config_runs,
            config_runs_per_s: rate,
            findings: s.findings,
            buckets: c.buckets.len(),
            reduced: s.reduced,
            failing_runs: ckpt.counters.failing_runs(),
            pass_changed: ckpt.counters.pass_changed.clone(),
        };
        append_line(&self.history, &serde_json::to_string(&point)?)?;
        let mut saved = ckpt.clone();
        saved.elapsed_before = total_elapsed;
        write_atomic(
            &self.checkpoint,
            (serde_json::to_string(&saved)? + "\n").as_bytes(),
        )
    }
}

/// Appends `line` and a newline to `path`, durably.
fn append_line(path: &Path, line: &str) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    f.write_all(format!("{line}\n").as_bytes())
        .and_then(|()| f.sync_data())
        .with_context(|| format!("cannot append to {}", path.display()))
}
