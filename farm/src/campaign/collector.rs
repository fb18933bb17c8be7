//! The collector: the one thread that owns a campaign's state. It takes in
//! each case's results (findings stored and bucketed, counters added, the
//! case marked done) and each finished background reduction, in the order
//! they arrive; the counters and the bucket index still come out the same
//! for any arrival order (see `findings` and `buckets`).

use super::buckets::Buckets;
use super::case::CaseResult;
use super::findings;
use super::reduce::Done;
use super::stats::Checkpoint;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// A campaign's state while it runs.
pub struct Collector {
    /// `DIR/findings`.
    pub findings_dir: PathBuf,
    /// The bucket index and the reduction queue.
    pub buckets: Buckets,
    /// The done cases and their counters.
    pub checkpoint: Checkpoint,
}

impl Collector {
    /// A collector over `out`'s findings, continuing from `checkpoint`.
    pub fn new(out: &Path, buckets: Buckets, checkpoint: Checkpoint) -> Collector {
        Collector {
            findings_dir: out.join("findings"),
            buckets,
            checkpoint,
        }
    }

    /// Takes in one case's results: its findings (stored, and counted in
    /// their buckets unless the case was counted before), then its counters;
    /// then the case counts as done.
    pub fn take_case(&mut self, r: &CaseResult) -> Result<()> {
        if let Some(e) = &r.error {
            anyhow::bail!("case {} could not run: {e}", r.local);
        }
        let counted = self.buckets.count_case(r.local);
        let mut changed = false;
        for (pos, f) in &r.findings {
            let stored = findings::store(&self.findings_dir, f)?;
            if counted {
                let run = r.local * r.runs.len() as u64 + pos + 1;
                changed |= self.buckets.record(
                    &f.signature,
                    &f.variant.key(),
                    f.config.case_index,
                    run,
                    stored,
                );
            }
        }
        if changed {
            self.buckets.save()?;
        }
        let c = &mut self.checkpoint.counters;
        c.cases += 1;
        c.config_runs += r.runs.len() as u64;
        for run in &r.runs {
            *c.verdicts.entry(run.kind.to_string()).or_default() += 1;
            *c.per_strategy
                .entry(run.strategy.clone())
                .or_default()
                .entry(run.kind.to_string())
                .or_default() += 1;
            if let Some(p) = run.culprit {
                *c.per_culprit.entry(p.to_string()).or_default() += 1;
            }
        }
        for p in &r.changed {
            *c.pass_changed.entry(p.to_string()).or_default() += 1;
        }
        let passes: std::collections::BTreeSet<_> = r.changed.iter().collect();
        for p in passes {
            *c.pass_cases.entry(p.to_string()).or_default() += 1;
        }
        for (point, &(hits, runs)) in &r.coverage {
            c.decision_points.entry(point.to_string()).or_default().add(
                &crate::campaign::stats::PointCount {
                    hits,
                    runs,
                    cases: 1,
                    first_case: r.global,
                },
            );
        }
        c.oracle_suspect += r.suspect as u64;
        let d = &r.driver;
        if d.runs > 0 {
            let t = &mut c.driver_time;
            t.runs += d.runs;
            t.export_s += d.export.as_secs_f64();
            t.pipeline_s += d.pipeline.as_secs_f64();
            t.dispatch_s += d.dispatch.as_secs_f64();
            t.job_s += d.job.as_secs_f64();
            for (k, n) in &d.excluded {
                *c.excluded.entry(k.clone()).or_default() += n;
            }
        }
        self.checkpoint.mark(r.local);
        Ok(())
    }

    /// Takes in a finished background reduction.
    pub fn take_reduction(&mut self, d: Done) -> Result<()> {
        self.buckets.finish(d)
    }

    /// The number of findings (signatures) on disk.
    pub fn findings(&self) -> usize {
        findings::list(&self.findings_dir).len()
    }

    /// The progress line: cases, throughput, failing runs, findings.
    pub fn progress_line(&self, config_runs_per_s: f64, searching: bool) -> String {
        let c = &self.checkpoint.counters;
        let failing = c.failing_runs();
        format!(
            "cases {}, {:.0} config-runs/s, failing runs {}, findings {} ({} reduced{})",
            c.cases,
            config_runs_per_s,
            failing,
            self.findings(),
            self.buckets.reduced(),
            if searching {
                ""
            } else {
                "; search done, reducing"
            }
        )
    }
}
