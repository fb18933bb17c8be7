//! Fuzz campaigns: many generated cases, each under a mix of configs, on a
//! pool of workers; findings written atomically and deduplicated by
//! signature; a persistent bucket index (`buckets.json`); the first finding
//! of every new bucket reduced, with its report, on one background thread;
//! statistics and a checkpoint rewritten every few seconds, so a killed
//! campaign resumes where it stopped (and re-queues unreduced buckets).
//!
//! Determinism: case `g` of a campaign (globally numbered; shard I of N runs
//! the cases with g % N == I) is generated from `seed + g` and run under
//! configs drawn from that seed, so its verdicts do not depend on the number
//! of workers, the machine or the order in which results arrive.

pub mod buckets;
pub mod case;
pub mod collector;
pub mod feedback;
pub mod findings;
pub mod focus;
pub mod fresh;
pub mod merge;
pub mod mix;
pub mod pool;
pub mod reduce;
pub mod selftest;
pub mod state;
pub mod stats;

use crate::durable::{read_json, write_atomic, write_json};
use anyhow::{bail, Context, Result};
use buckets::Buckets;
pub use case::{case_seed, run_case, CaseResult, DriverSetup};
use collector::Collector;
use mix::Mix;
use pool::Cursor;
use serde::{Deserialize, Serialize};
use state::StateWriter;
use stats::{Checkpoint, Counters};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Everything that defines a campaign (and must match on `--resume`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CampaignId {
    /// Base seed: case g uses seed + g.
    pub seed: u64,
    /// Shard index I.
    pub shard: u64,
    /// Shard count N.
    pub shards: u64,
    /// Strategies (names).
    pub strategies: Vec<String>,
    /// Pass choice (text).
    pub passes: String,
    /// SIMD widths.
    pub simd: Vec<u32>,
    /// Injected bugs (text).
    pub inject: String,
    /// Generator config.
    pub generator: generator::Config,
    /// The farm version that ran it (campaigns of different versions may
    /// generate different cases, so they are not resumed or merged together).
    #[serde(default)]
    pub version: String,
    /// The compilers under test: `model` and/or driver targets
    /// (`vulkan`, `vulkan:NAME`).
    #[serde(default = "model_only")]
    pub targets: Vec<String>,
    /// Coverage feedback: corpus mutants and corpus recipes among the
    /// cases (`campaign::feedback`); campaigns written before it have none.
    #[serde(default)]
    pub feedback: bool,
    /// Cases per feedback epoch (`campaign::feedback`).
    #[serde(default = "feedback::default_epoch")]
    pub feedback_epoch: u64,
    /// For a merged directory: every shard it holds (empty for one shard).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged: Vec<u64>,
}

fn model_only() -> Vec<String> {
    vec!["model".into()]
}

impl CampaignId {
    /// This farm's version, as campaigns record it.
    pub fn current_version() -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }

    /// How this campaign's cases are seeded (`fresh`), with feedback on
    /// or off.
    pub fn seeding(&self, feedback: bool) -> fresh::Seeding {
        fresh::Seeding {
            base: self.seed,
            shards: self.shards,
            shard: self.shard,
            epoch: feedback.then(|| self.feedback_epoch.max(1)),
        }
    }

    /// Config-runs per case at most: the mix's model configs (when the
    /// model is a target) and one run per driver target.
    pub fn runs_per_case(&self) -> u64 {
        let sets = |strategy: &String| {
            mix::pass_sets_per_strategy(self.passes == "mix", strategy == "vec4")
        };
        let model = self.targets.iter().any(|t| t == "model") as u64;
        let drivers = self.targets.iter().filter(|t| *t != "model").count() as u64;
        model * self.strategies.iter().map(sets).sum::<u64>() + drivers
    }

    /// The shards this directory holds.
    pub fn shard_set(&self) -> Vec<u64> {
        if self.merged.is_empty() {
            vec![self.shard]
        } else {
            self.merged.clone()
        }
    }
}

/// How long and how wide to run.
#[derive(Clone, Debug)]
pub struct RunLimits {
    /// Stop after this long (this run).
    pub duration: Option<Duration>,
    /// Stop after this many cases of this shard (in total, across resumes).
    pub cases: Option<u64>,
    /// Workers.
    pub jobs: usize,
    /// Show a live progress bar (else plain lines).
    pub tty: bool,
    /// Print progress at all.
    pub quiet: bool,
    /// How often the checkpoint and statistics are written.
    pub checkpoint_every: Duration,
    /// What driver targets need (the farm executable for their workers).
    pub driver: Option<case::DriverSetup>,
}

impl RunLimits {
    /// How often a campaign writes its checkpoint unless told otherwise.
    pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(2);
}

/// The result of a campaign run.
#[derive(Clone, Debug)]
pub struct Summary {
    /// On `--resume`: the first case not done when the run started.
    pub resumed_at: Option<u64>,
    /// What a resume had to repair (quarantined findings, a rebuilt bucket
    /// index), one line each.
    pub notes: Vec<String>,
    /// Buckets whose reduction failed in this run, with why (retried on
    /// `--resume`).
    pub failed_reductions: Vec<(String, String)>,
    /// Counters over the whole campaign (all runs).
    pub counters: Counters,
    /// Every finding's signature in the campaign directory.
    pub findings: Vec<String>,
    /// Config-runs per second in this run.
    pub config_runs_per_s: f64,
    /// Whether SIGINT stopped it.
    pub interrupted: bool,
}

pub use crate::is_finding;

/// The live display on a terminal: a bar with elapsed and remaining time
/// when `--cases` or `--duration` bounds the run (over cases, else over
/// seconds), a spinner otherwise; the message is the progress line.
fn progress_bar(limits: &RunLimits, cases_done: u64) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressStyle};
    let bar = |len: u64, unit: &str| {
        let pb = ProgressBar::new(len);
        let style = ProgressStyle::with_template(&format!(
            "[{{bar:30}}] {{pos}}/{{len}} {unit}, {{elapsed_precise}} elapsed, {{eta_precise}} left\n{{msg}}"
        ))
        .expect("a valid template")
        .progress_chars("=> ");
        pb.set_style(style);
        pb
    };
    let pb = match (limits.cases, limits.duration) {
        (Some(n), _) => {
            let pb = bar(n, "cases");
            pb.set_position(cases_done.min(n));
            pb.reset_eta();
            pb
        }
        (None, Some(d)) => bar(d.as_secs(), "s"),
        (None, None) => ProgressBar::new_spinner(),
    };
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

/// Loads the checkpoint of a campaign being resumed: it must exist when the
/// campaign has findings (a silent restart from case 0 would count them
/// again), and its numbers must agree with each other.
fn resume_checkpoint(out: &Path, path: &Path) -> Result<Checkpoint> {
    let Some(c) = read_json::<Checkpoint>(path)? else {
        if findings::list(&out.join("findings")).is_empty() {
            return Ok(Checkpoint::default());
        }
        bail!(
            "{} holds findings but no checkpoint.json, so it is not known which cases were run: restore {}, or resume into a fresh --out (the findings stay where they are)",
            out.display(),
            path.display()
        );
    };
    let k = &c.counters;
    let problem = if k.cases != c.watermark + c.done_above.len() as u64 {
        Some(format!(
            "it counts {} cases but marks {} as done",
            k.cases,
            c.watermark + c.done_above.len() as u64
        ))
    } else if c.done_above.first().is_some_and(|&f| f <= c.watermark) {
        Some("a case above the watermark is at or below it".to_string())
    } else if k.verdicts.values().sum::<u64>() != k.config_runs {
        Some(format!(
            "its verdicts add up to {} config-runs, not {}",
            k.verdicts.values().sum::<u64>(),
            k.config_runs
        ))
    } else if k
        .per_strategy
        .values()
        .flat_map(|m| m.values())
        .sum::<u64>()
        != k.config_runs
    {
        Some("its per-strategy counts do not add up to its config-runs".to_string())
    } else {
        None
    };
    match problem {
        Some(p) => bail!(
            "{} contradicts itself ({p}); it was damaged or edited: restore it, or start over with another --out",
            path.display()
        ),
        None => Ok(c),
    }
}

/// The lock file that keeps a second process out of a campaign directory.
pub const LOCK_FILE: &str = ".farm.lock";

/// How long the collector sleeps when no case result is waiting.
const RESULT_POLL: Duration = Duration::from_millis(5);

/// Takes the campaign directory's lock (an OS file lock on
/// `DIR/.farm.lock`, released when the returned file is dropped or the
/// process dies), or says which directory another process holds.
pub fn lock_dir(out: &Path) -> Result<std::fs::File> {
    let path = out.join(LOCK_FILE);
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "another farm process is running a campaign in {} (it holds {}); wait for it to end, or choose another --out",
            out.display(),
            path.display()
        ),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

/// Runs (or resumes) a campaign into `out`: the worker pool generates and
/// checks cases, the collector (this thread) takes in their results and the
/// background reducer's, and the state writer saves the checkpoint and
/// statistics every `limits.checkpoint_every` and at the end.
pub fn run(
    out: &Path,
    id: &CampaignId,
    mix: &Mix,
    limits: &RunLimits,
    resume: bool,
    stop: Arc<AtomicBool>,
) -> Result<Summary> {
    let findings_dir = out.join("findings");
    std::fs::create_dir_all(&findings_dir)
        .with_context(|| format!("cannot create the output directory {}", out.display()))?;
    let _lock = lock_dir(out)?;
    let id_path = out.join("campaign.json");
    let ckpt_path = out.join("checkpoint.json");
    let (job_tx, job_rx) = crossbeam_channel::bounded::<reduce::Job>(reduce::QUEUE);
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<reduce::Done>();
    let (ckpt, buckets): (Checkpoint, Buckets) = match read_json::<CampaignId>(&id_path)? {
        Some(old) if !resume => bail!(
            "{} already holds a campaign (seed {}); pass --resume to continue it, or choose another --out",
            out.display(),
            old.seed
        ),
        Some(old) if old != *id => bail!(
            "--resume: the options differ from the campaign in {} ({}: {})",
            out.display(),
            id_path.display(),
            merge::first_difference(
                &serde_json::to_value(&old)?,
                &serde_json::to_value(id)?
            )
        ),
        Some(_) => (
            resume_checkpoint(out, &ckpt_path)?,
            Buckets::open(out, true, job_tx)?,
        ),
        None => {
            // The empty checkpoint first, so a campaign with findings
            // always has one (a missing one then means damage).
            write_atomic(&ckpt_path, (serde_json::to_string(&Checkpoint::default())? + "\n").as_bytes())?;
            write_json(&id_path, id)?;
            (Checkpoint::default(), Buckets::open(out, false, job_tx)?)
        }
    };
    let mut notes = Vec::new();
    let mut buckets = buckets;
    if resume {
        notes.extend(
            findings::quarantine_damaged(&findings_dir)?
                .into_iter()
                .map(|m| format!("quarantined: {m}")),
        );
        notes.extend(
            buckets
                .reconcile()
                .into_iter()
                .map(|m| format!("bucket index: {m}")),
        );
    }
    if !limits.quiet {
        for n in &notes {
            eprintln!("{n}");
        }
    }
    let resumed_at = resume.then_some(ckpt.watermark);
    let start = Instant::now();
    let done_at_start = ckpt.clone();
    let cursor = Cursor {
        next: AtomicU64::new(ckpt.watermark),
        limit: limits.cases.unwrap_or(u64::MAX),
        done: &done_at_start,
        stop: &stop,
        deadline: limits.duration.map(|d| start + d),
    };
    let writer = StateWriter::new(out, limits.jobs, ckpt.counters.config_runs);
    let mut collector = Collector::new(out, buckets, ckpt, id.runs_per_case());
    let shared = if id.feedback {
        let epoch = collector
            .checkpoint
            .feedback
            .as_ref()
            .map_or(0, |p| p.epoch);
        let snapshot = feedback::load(out, epoch)?;
        collector
            .checkpoint
            .feedback
            .get_or_insert_with(Default::default);
        Some(Arc::new(feedback::Shared::new(snapshot)))
    } else {
        None
    };
    if let Some(shared) = shared.clone() {
        collector.feedback = Some(collector::FeedbackSide {
            shared,
            out: out.to_path_buf(),
            id: id.clone(),
            mix: mix.clone(),
            pool: feedback::snapshot_pool(limits.jobs)?,
        });
    }
    collector.advance_feedback()?;
    let (tx, rx) = crossbeam_channel::bounded::<CaseResult>(limits.jobs * 4);
    let cases_at_start = collector.checkpoint.counters.cases;
    let progress = (!limits.quiet && limits.tty).then(|| progress_bar(limits, cases_at_start));
    let cancel = Arc::new(AtomicBool::new(false));
    let (mut last_write, mut last_line) = (Instant::now(), Instant::now());
    let mut result: Result<()> = Ok(());
    let link = shared.as_deref().map(|shared| case::FeedbackLink {
        shared,
        stop: &stop,
    });
    let work = |k: u64| run_case(id, mix, limits.driver.as_ref(), link.as_ref(), k);
    std::thread::scope(|scope| {
        pool::spawn_workers(scope, limits.jobs, &cursor, &work, tx);
        {
            let (dir, cancel) = (&findings_dir, cancel.clone());
            let setup = limits.driver.as_ref();
            scope.spawn(move || reduce::background(dir, job_rx, done_tx, cancel, setup));
        }
        let mut fail = |e: anyhow::Error| {
            if result.is_ok() {
                result = Err(e);
            }
            stop.store(true, Ordering::Relaxed);
        };
        // Buckets left unreduced by an earlier run go first.
        collector.buckets.fill_queue();
        let mut searching = true;
        loop {
            if searching {
                // Polled, not waited for: a collector asleep in the channel
                // makes every worker's send wake it, a system call per case
                // (0.7% of a one-job campaign's samples); one that looks every few
                // milliseconds leaves the workers alone.
                match rx.try_recv() {
                    Ok(r) => {
                        if let Err(e) = collector.take_case(&r) {
                            fail(e);
                        }
                    }
                    Err(crossbeam_channel::TryRecvError::Empty) => std::thread::sleep(RESULT_POLL),
                    Err(crossbeam_channel::TryRecvError::Disconnected) => searching = false,
                }
            } else if stop.load(Ordering::Relaxed) || !collector.buckets.busy() {
                // Interrupted (the reductions are re-queued on --resume), or
                // every bucket reduced.
                break;
            } else if let Ok(d) = done_rx.recv_timeout(Duration::from_millis(200)) {
                if let Err(e) = collector.take_reduction(d) {
                    fail(e);
                }
            }
            while let Ok(d) = done_rx.try_recv() {
                if let Err(e) = collector.take_reduction(d) {
                    fail(e);
                }
            }
            collector.buckets.fill_queue();
            let elapsed = start.elapsed().as_secs_f64();
            if last_write.elapsed() >= limits.checkpoint_every {
                last_write = Instant::now();
                if let Err(e) = writer.write(&collector, elapsed, false) {
                    fail(e);
                }
            }
            let line = || collector.progress_line(writer.rate(&collector, elapsed), searching);
            if let Some(pb) = &progress {
                // A bar over the case limit, else over the duration.
                match (limits.cases, limits.duration) {
                    (Some(_), _) => pb.set_position(collector.checkpoint.counters.cases),
                    (None, Some(_)) => pb.set_position(elapsed as u64),
                    (None, None) => {}
                }
                pb.set_message(line());
            } else if !limits.quiet && last_line.elapsed() >= Duration::from_secs(10) {
                last_line = Instant::now();
                eprintln!("[{:>6.0}s] {}", elapsed, line());
            }
        }
        // Abandon a reduction in progress if interrupted; let the reducer
        // thread finish either way.
        if stop.load(Ordering::Relaxed) {
            cancel.store(true, Ordering::Relaxed);
        }
        collector.buckets.close();
        let finished = !stop.load(Ordering::Relaxed);
        if let Err(e) = writer.write(&collector, start.elapsed().as_secs_f64(), finished) {
            fail(e);
        }
    });
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    result?;
    let elapsed = start.elapsed().as_secs_f64();
    Ok(Summary {
        resumed_at,
        notes,
        failed_reductions: collector.buckets.failed_reductions(),
        config_runs_per_s: writer.rate(&collector, elapsed),
        findings: findings::list(&findings_dir),
        counters: collector.checkpoint.counters,
        interrupted: stop.load(Ordering::Relaxed),
    })
}

/// The longest duration a campaign accepts (a year): a longer one is a
/// typo, and would overflow the deadline arithmetic.
pub const MAX_DURATION: Duration = Duration::from_secs(366 * 24 * 3600);

/// Parses a duration: plain seconds (`90`) or number-unit pairs as humantime
/// reads them (`30s`, `10m`, `90min`, `1h30m`, `1d`, `2h 15m`), up to
/// [`MAX_DURATION`].
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let d = match t.parse::<u64>() {
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => humantime::parse_duration(t)
            .map_err(|e| format!("bad duration `{s}` ({e}; expected e.g. 30s, 10m, 1h30m, 1d)"))?,
    };
    if d > MAX_DURATION {
        return Err(format!(
            "duration `{s}` is longer than the limit of 366 days"
        ));
    }
    Ok(d)
}

/// Parses `I/N`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("bad shard `{s}` (expected I/N with 0 <= I < N)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_shards() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("8h"), Ok(Duration::from_secs(28800)));
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("90min"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86400)));
        assert_eq!(parse_duration("2h 15m"), Ok(Duration::from_secs(8100)));
        assert!(parse_duration("8x")
            .unwrap_err()
            .starts_with("bad duration `8x` ("));
        assert_eq!(
            parse_duration("100000000000000000000h"),
            Err("bad duration `100000000000000000000h` (number is too large or cannot be represented without a lack of precision (values below 1ns are not supported); expected e.g. 30s, 10m, 1h30m, 1d)".into())
        );
        assert_eq!(
            parse_duration("400d"),
            Err("duration `400d` is longer than the limit of 366 days".into())
        );
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("1").is_err());
    }
}
