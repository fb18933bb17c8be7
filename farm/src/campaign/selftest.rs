//! `farm selftest`: the farm measured against its own injected bugs.
//!
//! For every injectable bug (compiler/BUGS.md), a campaign with only that
//! bug on searches the default mix (every strategy, all passes plus one
//! random subset, one SIMD width per case) until it finds a case the bug
//! breaks, or its time runs out. A finding counts only if the same case and
//! config pass with the bug off, so a genuine compiler bug met on the way is
//! reported apart and never credited to the injected one. The finding with
//! the lowest case index is kept (so "cases to first detection" does not
//! depend on the number of jobs), reduced, and its culprit compared with the
//! pass the bug lives in.

use super::feedback::{self, InMemory, Snapshot};
use super::is_finding;
use super::mix::{Mix, PassChoice};
use super::reduce::{reduce_into, ReduceOptions};
use anyhow::Result;
use compiler::{BugInfo, BugSet, Strategy};
use ir::Case;
use oracle::{check, Config, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The settings of a selftest.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search time per bug.
    pub per_bug: Duration,
    /// Workers per bug.
    pub jobs: usize,
    /// Base seed of every bug's campaign.
    pub seed: u64,
    /// Generator config.
    pub generator: generator::Config,
    /// Coverage feedback with epochs of this many cases (`None`: off).
    pub feedback: Option<u64>,
}

/// One bug's result: a row of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The bug's `--inject` name.
    pub bug: String,
    /// The pass (or lowering step) it lives in.
    pub pass: String,
    /// Whether the campaign found it.
    pub found: bool,
    /// Seconds from the start to the first detection (wall clock).
    pub seconds_to_first: Option<f64>,
    /// Cases generated up to and including the first detecting one
    /// (lowest case index + 1; independent of the number of jobs).
    pub cases_to_first: Option<u64>,
    /// Cases the search ran (all of them when not found).
    pub cases_run: u64,
    /// The verdict kind of the finding.
    pub verdict: Option<String>,
    /// The config of the finding.
    pub config: Option<String>,
    /// IR instructions of the finding before reduction.
    pub original_size: Option<usize>,
    /// IR instructions of the reduced case.
    pub reduced_size: Option<usize>,
    /// Predicate checks the reduction made.
    pub reduce_checks: Option<usize>,
    /// The culprit localization names for the reduced case.
    pub culprit: Option<String>,
    /// What the culprit should be: the bug's pass, or `lowering`.
    pub expected_culprit: String,
    /// Whether the culprit was named correctly.
    pub culprit_correct: Option<bool>,
    /// Why reduction failed, if it did.
    pub error: Option<String>,
    /// Findings met on the way that fail with the bug off too (real bugs).
    pub unrelated_findings: u64,
}

/// The whole selftest, as written to `selftest.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Search time per bug in seconds.
    pub per_bug_s: f64,
    /// Workers per bug.
    pub jobs: usize,
    /// Base seed.
    pub seed: u64,
    /// The farm's version.
    pub version: String,
    /// Cases per feedback epoch, or `None` when feedback was off.
    #[serde(default)]
    pub feedback_epoch: Option<u64>,
    /// One row per bug.
    pub rows: Vec<Row>,
}

/// A detection: the case, its config and verdict.
struct Detection {
    index: u64,
    case: Case,
    config: Config,
    verdict: Verdict,
}

/// What one case of the search gave.
struct Searched {
    detection: Option<Detection>,
    /// Findings that fail with the bug off too.
    unrelated: u64,
    /// Decision points reached: (hits, config-runs).
    coverage: BTreeMap<&'static str, (u64, u64)>,
}

/// How the selftest's cases are seeded: one shard, feedback epochs of
/// `settings.feedback` cases.
fn seeding(settings: &Settings) -> super::fresh::Seeding {
    super::fresh::Seeding {
        base: settings.seed,
        shards: 1,
        shard: 0,
        epoch: settings.feedback.map(|e| e.max(1)),
    }
}

/// The first config of case `index` (made from `snapshot` under feedback)
/// the bug breaks (failing with the bug, passing without it), and how many
/// findings failed without it too.
fn detect(settings: &Settings, mix: &Mix, index: u64, snapshot: Option<&Snapshot>) -> Searched {
    let seeding = seeding(settings);
    let config_seed = seeding.config_seed(index);
    let seed = seeding.roll_seed(index);
    let case = feedback::make_case(&settings.generator, mix, snapshot, seed, config_seed).case;
    let configs = mix.configs_for(config_seed, &case.program);
    let mut out = Searched {
        detection: None,
        unrelated: 0,
        coverage: BTreeMap::new(),
    };
    let expected = match check::expected_outputs(&case, configs[0].simd) {
        Ok(e) => e,
        Err(_) => return out,
    };
    for config in configs {
        let checked = check::check_against(&case, &config, &expected);
        for (point, n) in checked.coverage {
            let e = out.coverage.entry(point).or_default();
            e.0 += n as u64;
            e.1 += 1;
        }
        let verdict = checked.verdict;
        if !is_finding(&verdict) {
            continue;
        }
        let clean = Config {
            bugs: BugSet::NONE,
            ..config.clone()
        };
        let without = check::check_against(&case, &clean, &expected).verdict;
        if is_finding(&without) {
            out.unrelated += 1;
            continue;
        }
        out.detection = Some(Detection {
            index,
            case,
            config,
            verdict,
        });
        return out;
    }
    out
}

/// Searches for one bug: `jobs` workers take case indices in order; after a
/// detection they finish the lower indices still running, so the kept
/// detection is the lowest index.
fn search(
    settings: &Settings,
    info: &BugInfo,
    stop: &AtomicBool,
    pool: &rayon::ThreadPool,
) -> (Option<(Detection, f64)>, u64, u64) {
    let mix = Mix {
        strategies: Strategy::ALL.to_vec(),
        passes: PassChoice::Mix,
        simd: vec![8, 16, 32],
        bugs: BugSet::NONE.with(info.bug),
    };
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let best = AtomicU64::new(u64::MAX);
    let ran = AtomicU64::new(0);
    let unrelated = AtomicU64::new(0);
    // (time of the first detection seen, the lowest-index detection)
    let found: Mutex<(Option<f64>, Option<Detection>)> = Mutex::new((None, None));
    let fb = settings.feedback.map(InMemory::new);
    let seeding = seeding(settings);
    let make = |s: &Snapshot, k: u64| {
        let (seed, config_seed) = (seeding.roll_seed(k), seeding.config_seed(k));
        feedback::make_case(&settings.generator, &mix, Some(s), seed, config_seed)
    };
    let reduce = |entry: &feedback::Entry, point: &str| {
        let config_seed = seeding.config_seed(entry.case_index);
        super::focus::focus_entry(entry, &mix, config_seed, point)
    };
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                // Before a detection the clock decides; after it, only the
                // indices below the best one still matter.
                if k > best.load(Ordering::Relaxed)
                    || (best.load(Ordering::Relaxed) == u64::MAX
                        && start.elapsed() >= settings.per_bug)
                {
                    break;
                }
                let give_up = || {
                    stop.load(Ordering::Relaxed)
                        || k > best.load(Ordering::Relaxed)
                        || (best.load(Ordering::Relaxed) == u64::MAX
                            && start.elapsed() >= settings.per_bug)
                };
                let snapshot = match &fb {
                    Some(f) => match f.snapshot_for(k, &give_up) {
                        Some(s) => Some(s),
                        None => break,
                    },
                    None => None,
                };
                let searched = detect(settings, &mix, k, snapshot.as_deref());
                if let Some(f) = &fb {
                    f.done(k, &searched.coverage, &make, &reduce, pool);
                }
                ran.fetch_add(1, Ordering::Relaxed);
                unrelated.fetch_add(searched.unrelated, Ordering::Relaxed);
                if let Some(d) = searched.detection {
                    let t = start.elapsed().as_secs_f64();
                    let (first_seen, kept) = &mut *found.lock().expect("lock");
                    first_seen.get_or_insert(t);
                    if kept.as_ref().is_none_or(|x| d.index < x.index) {
                        best.store(d.index, Ordering::Relaxed);
                        *kept = Some(d);
                    }
                }
            });
        }
    });
    let (seen, kept) = found.into_inner().expect("lock");
    (kept.zip(seen), ran.into_inner(), unrelated.into_inner())
}

/// Runs the selftest over `bugs`, reducing each finding into
/// `out/<bug>/` (the case and its report). `progress` gets each row as it
/// is done.
pub fn run(
    settings: &Settings,
    bugs: &[&'static BugInfo],
    out: &Path,
    stop: &Arc<AtomicBool>,
    mut progress: impl FnMut(&Row),
) -> Result<Table> {
    let mut rows = Vec::new();
    let pool = super::feedback::snapshot_pool(settings.jobs)?;
    for info in bugs {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let (found, cases_run, unrelated) = search(settings, info, stop, &pool);
        let mut row = Row {
            bug: info.name.to_string(),
            pass: info.pass.to_string(),
            found: found.is_some(),
            seconds_to_first: None,
            cases_to_first: None,
            cases_run,
            verdict: None,
            config: None,
            original_size: None,
            reduced_size: None,
            reduce_checks: None,
            culprit: None,
            expected_culprit: info.stage().to_string(),
            culprit_correct: None,
            error: None,
            unrelated_findings: unrelated,
        };
        if let Some((d, seconds)) = found {
            row.seconds_to_first = Some(seconds);
            row.cases_to_first = Some(d.index + 1);
            row.verdict = Some(d.verdict.kind().to_string());
            row.config = Some(d.config.to_string());
            row.original_size = Some(d.case.program.num_instrs());
            let opts = ReduceOptions::default();
            match reduce_into(&out.join(info.name), &d.case, &d.config, opts, stop) {
                Ok(r) => {
                    let culprit = oracle::localize(&r.case, &r.config)
                        .culprit()
                        .map(|s| s.to_string());
                    row.reduced_size = Some(r.case.program.num_instrs());
                    row.reduce_checks = Some(r.checks);
                    row.culprit_correct = Some(culprit.as_deref() == Some(&row.expected_culprit));
                    row.culprit = culprit;
                }
                Err(e) => row.error = Some(format!("{e:#}")),
            }
        }
        progress(&row);
        rows.push(row);
    }
    Ok(Table {
        per_bug_s: settings.per_bug.as_secs_f64(),
        jobs: settings.jobs,
        seed: settings.seed,
        version: env!("CARGO_PKG_VERSION").to_string(),
        feedback_epoch: settings.feedback,
        rows,
    })
}

impl Table {
    /// The table as text: one line per bug, then totals.
    pub fn text(&self) -> String {
        // The bug column fits the longest name.
        let w = self
            .rows
            .iter()
            .map(|r| r.bug.len())
            .max()
            .unwrap_or(0)
            .max(24);
        let mut s = format!(
            "{:<w$} {:<5} {:>8} {:>7} {:>9} {:<22} {}\n",
            "bug", "found", "time", "cases", "reduced", "culprit", "named"
        );
        let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
        for r in &self.rows {
            s.push_str(&format!(
                "{:<w$} {:<5} {:>8} {:>7} {:>9} {:<22} {}\n",
                r.bug,
                if r.found { "yes" } else { "no" },
                opt(r.seconds_to_first.map(|t| format!("{t:.2}s"))),
                opt(r.cases_to_first.map(|c| c.to_string())),
                opt(r.reduced_size.map(|n| format!("{n} instr"))),
                opt(r
                    .culprit
                    .clone()
                    .or(r.error.as_ref().map(|_| "(reduce failed)".into()))),
                match r.culprit_correct {
                    Some(true) => "yes".to_string(),
                    Some(false) => format!("no (expected {})", r.expected_culprit),
                    None => "-".into(),
                }
            ));
        }
        let found = self.rows.iter().filter(|r| r.found).count();
        let named = self
            .rows
            .iter()
            .filter(|r| r.culprit_correct == Some(true))
            .count();
        let mut times: Vec<f64> = self
            .rows
            .iter()
            .filter_map(|r| r.seconds_to_first)
            .collect();
        times.sort_by(f64::total_cmp);
        let median = times
            .get(times.len() / 2)
            .map_or("-".into(), |t| format!("{t:.2}s"));
        let mut cases: Vec<u64> = self.rows.iter().filter_map(|r| r.cases_to_first).collect();
        cases.sort_unstable();
        let median_cases = cases
            .get(cases.len() / 2)
            .map_or("-".into(), |c| c.to_string());
        s.push_str(&format!(
            "found {found} of {} bugs within {:.0}s each ({} jobs, feedback {}); culprit named correctly for {named} of {found}; median time to first detection {median} ({median_cases} cases)\n",
            self.rows.len(),
            self.per_bug_s,
            self.jobs,
            if self.feedback_epoch.is_some() { "on" } else { "off" }
        ));
        let unrelated: u64 = self.rows.iter().map(|r| r.unrelated_findings).sum();
        if unrelated > 0 {
            s.push_str(&format!(
                "note: {unrelated} findings failed with the bug off too: real compiler bugs (run `farm fuzz` to collect them)\n"
            ));
        }
        s
    }
}
