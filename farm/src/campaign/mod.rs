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
pub mod findings;
pub mod mix;
pub mod reduce;
pub mod selftest;
pub mod stats;

use anyhow::{bail, Context, Result};
use buckets::Buckets;
use compiler::StageId;
use findings::Finding;
use mix::Mix;
use oracle::Verdict;
use serde::{Deserialize, Serialize};
use stats::{Checkpoint, Counters, StatsFile};
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
}

/// The result of a campaign run.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Counters over the whole campaign (all runs).
    pub counters: Counters,
    /// Every finding's signature in the campaign directory.
    pub findings: Vec<String>,
    /// Config-runs per second in this run.
    pub config_runs_per_s: f64,
    /// Whether SIGINT stopped it.
    pub interrupted: bool,
}

/// One case's results, sent from a worker to the collector.
struct CaseResult {
    local: u64,
    runs: Vec<(String, &'static str, Option<StageId>)>,
    changed: Vec<StageId>,
    /// Each finding with its config-run's position in the case.
    findings: Vec<(u64, Finding)>,
    suspect: bool,
}

/// The seed of global case `g`.
pub fn case_seed(base: u64, g: u64) -> u64 {
    base.wrapping_add(g)
}

pub use farm::is_finding;

fn run_case(id: &CampaignId, mix: &Mix, local: u64) -> CaseResult {
    let g = local * id.shards + id.shard;
    let seed = case_seed(id.seed, g);
    let case = generator::generate(seed, &id.generator);
    let configs = mix.configs(seed);
    let mut r = CaseResult {
        local,
        runs: vec![],
        changed: vec![],
        findings: vec![],
        suspect: false,
    };
    let expected = oracle::check::expected_outputs(&case, configs[0].simd);
    let mut mismatches = Vec::new();
    for (pos, c) in configs.iter().enumerate() {
        let v = match &expected {
            Ok(e) => {
                let (v, changed) = oracle::check::check_against(&case, c, e);
                r.changed.extend(changed);
                v
            }
            Err(v) => v.clone(),
        };
        let mut culprit = None;
        if is_finding(&v) {
            let trail = oracle::localize(&case, c);
            culprit = trail.culprit();
            r.findings
                .push((pos as u64, Finding::new(&case, c, &v, &trail, g, seed)));
        }
        if let Verdict::Mismatch { diffs } = &v {
            mismatches.push(diffs.clone());
        }
        r.runs.push((c.strategy.to_string(), v.kind(), culprit));
    }
    // Every config disagreeing with the oracle in the same way points at the
    // oracle or the simulator rather than at one compile.
    r.suspect = mismatches.len() == configs.len()
        && configs.len() > 1
        && mismatches.windows(2).all(|w| w[0] == w[1]);
    r
}

fn load_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(serde_json::from_str(&text).map_err(|e| {
            crate::inputs::json_error(&path.display().to_string(), &e)
        })?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Runs (or resumes) a campaign into `out`.
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
    let id_path = out.join("campaign.json");
    let ckpt_path = out.join("checkpoint.json");
    let (job_tx, job_rx) = crossbeam_channel::bounded::<reduce::Job>(reduce::QUEUE);
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<reduce::Done>();
    let (mut ckpt, mut buckets): (Checkpoint, Buckets) = match load_json::<CampaignId>(&id_path)? {
        Some(old) if !resume => bail!(
            "{} already holds a campaign (seed {}); pass --resume to continue it, or choose another --out",
            out.display(),
            old.seed
        ),
        Some(old) if old != *id => bail!("--resume: the options differ from the campaign in {} ({})", out.display(), id_path.display()),
        Some(_) => (
            load_json(&ckpt_path)?.unwrap_or_default(),
            Buckets::open(out, true, job_tx)?,
        ),
        None => {
            findings::write_atomic(&id_path, (serde_json::to_string_pretty(id)? + "\n").as_bytes())?;
            (Checkpoint::default(), Buckets::open(out, false, job_tx)?)
        }
    };
    let start = Instant::now();
    let done_at_start = ckpt.clone();
    let next = AtomicU64::new(ckpt.watermark);
    let limit = limits.cases.unwrap_or(u64::MAX);
    let (tx, rx) = crossbeam_channel::bounded::<CaseResult>(limits.jobs * 4);
    let runs_before = ckpt.counters.config_runs;
    let progress = (!limits.quiet && limits.tty).then(|| {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.enable_steady_tick(Duration::from_millis(200));
        pb
    });
    let cancel = Arc::new(AtomicBool::new(false));
    let mut last_write = Instant::now();
    let mut last_line = Instant::now();
    let mut result: Result<()> = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..limits.jobs {
            let tx = tx.clone();
            let (next, stop, done) = (&next, &stop, &done_at_start);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed)
                    || limits.duration.is_some_and(|d| start.elapsed() >= d)
                {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= limit {
                    break;
                }
                if done.is_done(k) {
                    continue;
                }
                if tx.send(run_case(id, mix, k)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        {
            let (dir, cancel) = (&findings_dir, cancel.clone());
            scope.spawn(move || reduce::background(dir, job_rx, done_tx, cancel));
        }
        let write_state = |ckpt: &Checkpoint, buckets: &Buckets, elapsed: f64| -> Result<()> {
            // The index first: it must know every case the checkpoint does.
            buckets.save()?;
            let runs = (ckpt.counters.config_runs - runs_before) as f64;
            let now = elapsed.max(1e-9);
            let total_elapsed = ckpt.elapsed_before + elapsed;
            let s = StatsFile {
                elapsed_s: total_elapsed,
                cases_per_s: ckpt.counters.cases as f64 / total_elapsed.max(1e-9),
                config_runs_per_s: runs / now,
                config_runs_per_s_per_job: runs / now / limits.jobs as f64,
                jobs: limits.jobs,
                findings: findings::list(&findings_dir).len(),
                reduced: buckets.reduced(),
                reduce_queue: buckets.waiting(),
                counters: &ckpt.counters,
            };
            findings::write_atomic(
                &out.join("stats.json"),
                (serde_json::to_string_pretty(&s)? + "\n").as_bytes(),
            )?;
            let mut c = ckpt.clone();
            c.elapsed_before = total_elapsed;
            findings::write_atomic(&ckpt_path, (serde_json::to_string(&c)? + "\n").as_bytes())
        };
        let fail = |e: anyhow::Error, result: &mut Result<()>| {
            *result = Err(e);
            stop.store(true, Ordering::Relaxed);
        };
        // Buckets left unreduced by an earlier run go first.
        buckets.fill_queue();
        let mut searching = true;
        loop {
            if searching {
                match rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(r) => {
                        if let Err(e) = collect(&findings_dir, &mut buckets, &mut ckpt, &r) {
                            fail(e, &mut result);
                        }
                    }
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
                    Err(crossbeam_channel::RecvTimeoutError::Disconnected) => searching = false,
                }
            } else if stop.load(Ordering::Relaxed) || !buckets.busy() {
                // Interrupted (the reductions are re-queued on --resume), or
                // every bucket reduced.
                break;
            } else if let Ok(d) = done_rx.recv_timeout(Duration::from_millis(200)) {
                if let Err(e) = buckets.finish(d) {
                    fail(e, &mut result);
                }
            }
            while let Ok(d) = done_rx.try_recv() {
                if let Err(e) = buckets.finish(d) {
                    fail(e, &mut result);
                }
            }
            buckets.fill_queue();
            let elapsed = start.elapsed().as_secs_f64();
            if last_write.elapsed() >= Duration::from_secs(2) {
                last_write = Instant::now();
                if let Err(e) = write_state(&ckpt, &buckets, elapsed) {
                    fail(e, &mut result);
                }
            }
            let line =
                || {
                    let runs = (ckpt.counters.config_runs - runs_before) as f64 / elapsed.max(1e-9);
                    format!(
                    "cases {}, {:.0} config-runs/s, failing runs {}, findings {} ({} reduced{})",
                    ckpt.counters.cases,
                    runs,
                    ckpt.counters
                        .verdicts
                        .iter()
                        .filter(|(k, _)| !matches!(
                            k.as_str(),
                            "pass" | "invalid-case" | "compiler-limit"
                        ))
                        .map(|(_, v)| v)
                        .sum::<u64>(),
                    findings::list(&findings_dir).len(),
                    buckets.reduced(),
                    if searching { "" } else { "; search done, reducing" }
                )
                };
            if let Some(pb) = &progress {
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
        buckets.close();
        if let Err(e) = write_state(&ckpt, &buckets, start.elapsed().as_secs_f64()) {
            if result.is_ok() {
                result = Err(e);
            }
        }
    });
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    result?;
    let runs = (ckpt.counters.config_runs - runs_before) as f64;
    Ok(Summary {
        counters: ckpt.counters,
        findings: findings::list(&findings_dir),
        config_runs_per_s: runs / start.elapsed().as_secs_f64().max(1e-9),
        interrupted: stop.load(Ordering::Relaxed),
    })
}

/// Takes in one case's results: its findings (stored, and counted in their
/// buckets unless the case was counted before), then its counters; then the
/// case counts as done.
fn collect(
    findings_dir: &Path,
    buckets: &mut Buckets,
    ckpt: &mut Checkpoint,
    r: &CaseResult,
) -> Result<()> {
    let counted = buckets.count_case(r.local);
    let mut changed = false;
    for (pos, f) in &r.findings {
        let stored = findings::store(findings_dir, f)?;
        if counted {
            let run = r.local * r.runs.len() as u64 + pos + 1;
            changed |= buckets.record(&f.signature, f.config.case_index, run, stored);
        }
    }
    if changed {
        buckets.save()?;
    }
    let c = &mut ckpt.counters;
    c.cases += 1;
    c.config_runs += r.runs.len() as u64;
    for (strategy, kind, culprit) in &r.runs {
        *c.verdicts.entry(kind.to_string()).or_default() += 1;
        *c.per_strategy
            .entry(strategy.clone())
            .or_default()
            .entry(kind.to_string())
            .or_default() += 1;
        if let Some(p) = culprit {
            *c.per_culprit.entry(p.to_string()).or_default() += 1;
        }
    }
    for p in &r.changed {
        *c.pass_changed.entry(p.to_string()).or_default() += 1;
    }
    c.oracle_suspect += r.suspect as u64;
    ckpt.mark(r.local);
    Ok(())
}

/// Parses `30s`, `10m`, `8h` (or plain seconds).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let (num, unit) = s.trim().split_at(
        s.trim()
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(s.trim().len()),
    );
    let n: u64 = num
        .parse()
        .map_err(|_| format!("bad duration `{s}` (expected e.g. 30s, 10m, 8h)"))?;
    let secs = match unit {
        "" | "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        _ => return Err(format!("bad duration `{s}` (expected e.g. 30s, 10m, 8h)")),
    };
    Ok(Duration::from_secs(secs))
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
        assert!(parse_duration("8x").is_err());
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        assert!(parse_shard("4/4").is_err());
        assert!(parse_shard("1").is_err());
    }
}
