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
    /// With coverage feedback: where the snapshots go.
    pub feedback: Option<FeedbackSide>,
    /// Config-runs per case in the run numbering (`CampaignId::
    /// runs_per_case`, the most a case has): case k's runs are numbered
    /// from k times this, whatever its own number of runs, as merging
    /// shards renumbers them.
    pub runs_per_case: u64,
}

/// What the collector needs to make feedback snapshots.
pub struct FeedbackSide {
    /// The snapshots the workers wait for.
    pub shared: std::sync::Arc<super::feedback::Shared>,
    /// The campaign directory.
    pub out: PathBuf,
    /// The campaign.
    pub id: super::CampaignId,
    /// Its mix.
    pub mix: super::mix::Mix,
    /// The threads that make the snapshots.
    pub pool: rayon::ThreadPool,
}

impl Collector {
    /// A collector over `out`'s findings, continuing from `checkpoint`,
    /// numbering runs with `runs_per_case` per case.
    pub fn new(
        out: &Path,
        buckets: Buckets,
        checkpoint: Checkpoint,
        runs_per_case: u64,
    ) -> Collector {
        Collector {
            findings_dir: out.join("findings"),
            buckets,
            checkpoint,
            feedback: None,
            runs_per_case,
        }
    }

    /// Makes the next feedback snapshots while every case of their epoch
    /// is done (the watermark has passed the epoch's end).
    pub fn advance_feedback(&mut self) -> Result<()> {
        let Some(fb) = &self.feedback else {
            return Ok(());
        };
        let ckpt = &mut self.checkpoint;
        let progress = ckpt.feedback.get_or_insert_with(Default::default);
        while ckpt.watermark >= (progress.epoch + 1) * fb.id.feedback_epoch.max(1) {
            let snapshot = fb.shared.current();
            let seeding = fb.id.seeding(true);
            let make = |local: u64| {
                let g = local * fb.id.shards + fb.id.shard;
                let (seed, config_seed) = (seeding.roll_seed(local), seeding.config_seed(local));
                let made = super::feedback::make_case(
                    &fb.id.generator,
                    &fb.mix,
                    Some(&snapshot),
                    seed,
                    config_seed,
                );
                (g, made)
            };
            let reduce = |entry: &super::feedback::Entry, point: &str| {
                // Entries are this shard's cases: g = local * shards + shard.
                let local = entry.case_index / fb.id.shards.max(1);
                super::focus::focus_entry(entry, &fb.mix, seeding.config_seed(local), point)
            };
            let next = super::feedback::next_snapshot(
                &snapshot,
                progress,
                &ckpt.counters.decision_points,
                &make,
                &reduce,
                &fb.pool,
            );
            super::feedback::save(&fb.out, &next)?;
            *progress = super::feedback::EpochProgress {
                epoch: next.epoch,
                firsts: Default::default(),
            };
            ckpt.counters.feedback.corpus = next.corpus.len() as u64;
            fb.shared.publish(next);
        }
        Ok(())
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
                let run = r.local * self.runs_per_case + pos + 1;
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
        super::stats::add_case_points(&mut c.decision_points, &r.coverage, r.global);
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
        if let Some(fb) = &self.feedback {
            let origin = match &r.origin {
                super::feedback::Origin::Fresh => "fresh",
                super::feedback::Origin::Recipe { .. } => "recipe",
                super::feedback::Origin::Mutant {
                    mutators, rejected, ..
                } => {
                    for m in mutators {
                        *c.feedback.mutators.entry(m.to_string()).or_default() += 1;
                    }
                    c.feedback.rejected_mutants += *rejected as u64;
                    "mutant"
                }
            };
            *c.feedback.cases.entry(origin.into()).or_default() += 1;
            let failing = r.findings.len() as u64;
            if failing > 0 {
                *c.feedback.failing_runs.entry(origin.into()).or_default() += failing;
            }
            let snapshot = fb.shared.current();
            if let Some(p) = self.checkpoint.feedback.as_mut() {
                if p.epoch == snapshot.epoch {
                    p.record(&snapshot, r.local, &r.rare);
                }
            }
        }
        self.checkpoint.mark(r.local);
        self.advance_feedback()
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
