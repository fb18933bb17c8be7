//! Reducing a failing case into a directory (`reduced.sir`, `report.md`,
//! `report.json`), for `farm reduce` and for a campaign's background
//! reducer, which reduces the first finding of every new bucket on one
//! thread while the workers keep searching.

use super::findings::FindingConfig;
use anyhow::{anyhow, bail, Context, Result};
use crossbeam_channel::{Receiver, Sender};
use ir::Case;
use oracle::Config;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use triage::reduce::{same_bug_predicate, Reducer};
use triage::report::{write_report, Report, CASE_FILE};

/// Most predicate checks of one reduction (a bound on its time): the
/// reducer's default, for campaigns and `farm reduce` alike, so both reduce
/// a finding to the same case.
pub const MAX_CHECKS: usize = triage::reduce::DEFAULT_MAX_CHECKS;

/// Jobs the background reducer's queue holds.
pub const QUEUE: usize = 4;

/// What a reduction did.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The minimized case (as written to `reduced.sir`).
    pub case: Case,
    /// The minimized config.
    pub config: Config,
    /// The report written next to it.
    pub report: Report,
    /// How many times the reducer asked the predicate.
    pub checks: usize,
}

/// The options of one reduction.
#[derive(Clone, Copy, Debug)]
pub struct ReduceOptions {
    /// Also minimize the pass set and strategy.
    pub minimize_config: bool,
    /// Most predicate checks.
    pub max_checks: usize,
}

impl Default for ReduceOptions {
    fn default() -> ReduceOptions {
        ReduceOptions {
            minimize_config: true,
            max_checks: MAX_CHECKS,
        }
    }
}

/// Reduces `case` under `config` while it shows the same bug, and writes
/// `out/reduced.sir` (canonical, with its dispatch, its first line the
/// minimal config) and the report into `out`. Fails if the case does not
/// fail, or when `cancel` is set (then nothing is written).
pub fn reduce_into(
    out: &Path,
    case: &Case,
    config: &Config,
    opts: ReduceOptions,
    cancel: &Arc<AtomicBool>,
) -> Result<Reduction> {
    let v = oracle::check(case, config);
    if !super::is_finding(&v) {
        bail!(
            "the case does not fail under {config} (verdict: {}), so there is nothing to reduce",
            v.to_string().lines().next().unwrap_or("")
        );
    }
    let mut same = same_bug_predicate(case, config);
    let stop = cancel.clone();
    let pred = move |c: &Case, k: &Config| !stop.load(Ordering::Relaxed) && same(c, k);
    let reduced = Reducer::new(pred)
        .minimize_config(opts.minimize_config)
        .max_checks(opts.max_checks)
        .run(case, config)
        .map_err(|e| anyhow!("cannot reduce: {e}"))?;
    if cancel.load(Ordering::Relaxed) {
        bail!("reduction cancelled");
    }
    let mut min = reduced.case.clone();
    min.program.comments = vec![format!("config: {}", reduced.config)];
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    super::findings::write_atomic(&out.join(CASE_FILE), ir::print_case(&min).as_bytes())?;
    let report = write_report(out, &min, &reduced.config)?;
    Ok(Reduction {
        case: min,
        config: reduced.config.clone(),
        report,
        checks: reduced.checks,
    })
}

/// A finding for the background reducer.
pub struct Job {
    /// The finding's signature (directory name).
    pub signature: String,
    /// Its case index.
    pub case_index: u64,
    /// Its case.
    pub case_text: String,
    /// Its config.
    pub config: FindingConfig,
}

/// A finished background reduction.
pub struct Done {
    /// The finding's signature.
    pub signature: String,
    /// The case index that was reduced.
    pub case_index: u64,
    /// The temporary directory holding the reduced case and its report, or
    /// why reducing failed.
    pub result: Result<PathBuf, String>,
}

/// Where the background reducer writes the reduction of `signature` before
/// the collector moves it into the finding.
pub fn temp_dir(findings: &Path, signature: &str) -> PathBuf {
    findings.join(format!(".{signature}.reduced.tmp"))
}

fn reduce_job(findings: &Path, job: &Job, cancel: &Arc<AtomicBool>) -> Result<PathBuf> {
    let case = ir::parse_case(&job.case_text).map_err(|e| anyhow!("{e}"))?;
    let config = job.config.config()?;
    let tmp = temp_dir(findings, &job.signature);
    let _ = std::fs::remove_dir_all(&tmp);
    match reduce_into(&tmp, &case, &config, ReduceOptions::default(), cancel) {
        Ok(_) => Ok(tmp),
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(e)
        }
    }
}

/// The background reducer: reduces every job into its temporary directory
/// and reports back, until the job channel closes. `cancel` abandons the
/// reduction in progress.
pub fn background(
    findings: &Path,
    jobs: Receiver<Job>,
    done: Sender<Done>,
    cancel: Arc<AtomicBool>,
) {
    for job in jobs {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let r = catch_unwind(AssertUnwindSafe(|| reduce_job(findings, &job, &cancel)));
        let result = match r {
            Ok(Ok(p)) => Ok(p),
            Ok(Err(e)) => Err(format!("{e:#}")),
            Err(_) => Err("the reducer panicked".to_string()),
        };
        if cancel.load(Ordering::Relaxed) {
            if let Ok(p) = &result {
                let _ = std::fs::remove_dir_all(p);
            }
            break;
        }
        let msg = Done {
            signature: job.signature,
            case_index: job.case_index,
            result,
        };
        if done.send(msg).is_err() {
            break;
        }
    }
}
