//! The state writer: `stats.json` and `checkpoint.json`, written together
//! (the bucket index first, since it must know every case the checkpoint
//! does) through the durable-write helper.

use super::collector::Collector;
use super::stats::StatsFile;
use crate::durable::{write_atomic, write_json};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Writes a campaign's state files.
pub struct StateWriter {
    stats: PathBuf,
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
        let s = StatsFile {
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
        let mut saved = ckpt.clone();
        saved.elapsed_before = total_elapsed;
        write_atomic(
            &self.checkpoint,
            (serde_json::to_string(&saved)? + "\n").as_bytes(),
        )
    }
}
