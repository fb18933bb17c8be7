//! Reducing a failing case into a directory (`reduced.sir`, `report.md`,
//! `report.json`), for `farm reduce` and for a campaign's background
//! reducer, which reduces the first finding of every new bucket on one
//! thread while the workers keep searching.

use super::case::DriverSetup;
use super::findings::FindingConfig;
use crate::target::{worker_command, Target};
use anyhow::{anyhow, bail, Context, Result};
use crossbeam_channel::{Receiver, Sender};
use ir::Case;
use oracle::driver::Driver;
use oracle::Config;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use triage::driver_report::{write_driver_report, DriverReport};
use triage::reduce::{same_bug_predicate, Reducer};
use triage::report::{write_report, Report, CASE_FILE};
use triage::signature::Signature;

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

/// Opens the driver of a finding (`target`, at subgroup size `simd`) for
/// one reduction. Every reduction starts its own worker process, so what
/// one reduction did to the driver (state a crash depends on, say) cannot
/// change the next one's outcome; the start costs some 40 ms.
pub fn open_driver(target: &str, simd: u32, setup: Option<&DriverSetup>) -> Result<Driver> {
    let t: Target = target.parse().map_err(|e: String| anyhow!(e))?;
    let Target::Vulkan { selector } = t else {
        bail!("`{target}` is not a driver target");
    };
    let setup =
        setup.ok_or_else(|| anyhow!("reducing a driver finding needs the farm executable"))?;
    Ok(Driver::open(
        worker_command(&setup.exe),
        selector.as_deref(),
        Some(simd),
    )?)
}

/// Most predicate checks of a driver reduction: each check runs the case on
/// the driver twice (verdict and probe), some 50 ms on lavapipe.
pub const DRIVER_MAX_CHECKS: usize = 800;

/// Reduces `case`, which fails on `driver`, while it shows the same bug
/// there (the same signature: verdict kind, driver, first wrong op), and
/// writes `out/reduced.sir` (its first line the target), the SPIR-V
/// assembly, the VkRunner reproducer and the report into `out`.
pub fn reduce_driver_into(
    out: &Path,
    case: &Case,
    driver: &mut Driver,
    max_checks: usize,
    cancel: &Arc<AtomicBool>,
) -> Result<DriverReport> {
    let v = driver.check(case).verdict;
    if !super::is_finding(&v) {
        bail!(
            "the case does not fail on {} (verdict: {}), so there is nothing to reduce",
            driver.describe(),
            v.to_string().lines().next().unwrap_or("")
        );
    }
    let want = Signature::of_driver(case, driver, &v);
    let config = Config::new(
        compiler::Strategy::Bool32,
        driver.simd(),
        compiler::PassSet::all(),
    );
    let stop = cancel.clone();
    let pred = |c: &Case, _: &Config| {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        let v = driver.check(c).verdict;
        v.kind() == want.kind && Signature::of_driver(c, driver, &v) == want
    };
    let reduced = Reducer::new(pred)
        .minimize_config(false)
        .max_checks(max_checks)
        .run(case, &config)
        .map_err(|e| anyhow!("cannot reduce: {e}"))?;
    if cancel.load(Ordering::Relaxed) {
        bail!("reduction cancelled");
    }
    let mut min = reduced.case.clone();
    min.program.comments = vec![
        format!("target: {}", driver.target_name()),
        format!("device: {}", driver.describe()),
    ];
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    super::findings::write_atomic(&out.join(CASE_FILE), ir::print_case(&min).as_bytes())?;
    write_driver_report(out, &min, driver)
        .with_context(|| format!("cannot write the report into {}", out.display()))
}

fn reduce_job(
    findings: &Path,
    job: &Job,
    cancel: &Arc<AtomicBool>,
    setup: Option<&DriverSetup>,
) -> Result<PathBuf> {
    let case = ir::parse_case(&job.case_text).map_err(|e| anyhow!("{e}"))?;
    let tmp = temp_dir(findings, &job.signature);
    let _ = std::fs::remove_dir_all(&tmp);
    let r = if job.config.is_model() {
        let config = job.config.config()?;
        reduce_into(&tmp, &case, &config, ReduceOptions::default(), cancel).map(|_| ())
    } else {
        open_driver(&job.config.target, job.config.simd, setup).and_then(|mut d| {
            reduce_driver_into(&tmp, &case, &mut d, DRIVER_MAX_CHECKS, cancel).map(|_| ())
        })
    };
    match r {
        Ok(()) => Ok(tmp),
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
    setup: Option<&DriverSetup>,
) {
    for job in jobs {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let r = catch_unwind(AssertUnwindSafe(|| {
            reduce_job(findings, &job, &cancel, setup)
        }));
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
