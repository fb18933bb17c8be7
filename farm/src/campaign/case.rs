//! One case of a campaign: generated from its seed, checked under every
//! model config of the mix and on every driver target, each failing run
//! localized (the model) or probed (a driver) and turned into a finding.

use super::findings::Finding;
use super::mix::Mix;
use super::CampaignId;
use crate::target::{worker_command, Target};
use compiler::StageId;
use oracle::driver::Driver;
use oracle::Verdict;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;
use triage::signature::Signature;

/// One config-run's outcome, as the counters see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// The config's boolean strategy.
    pub strategy: String,
    /// The verdict kind.
    pub kind: &'static str,
    /// The culprit stage of a failing run.
    pub culprit: Option<StageId>,
}

/// One case's results, sent from a worker to the collector.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case's index in this shard.
    pub local: u64,
    /// Every config-run, in the mix's order.
    pub runs: Vec<RunOutcome>,
    /// The passes that changed the program, over every config-run.
    pub changed: Vec<StageId>,
    /// The case's index in the whole campaign (`local * shards + shard`).
    pub global: u64,
    /// The decision points reached, summed over every config-run
    /// (`compiler::coverage`), and in how many config-runs each was.
    pub coverage: BTreeMap<&'static str, (u64, u64)>,
    /// How the case was made.
    pub origin: super::feedback::Origin,
    /// The points it reached that the feedback snapshot calls rare.
    pub rare: Vec<&'static str>,
    /// Each finding with its config-run's position in the case.
    pub findings: Vec<(u64, Finding)>,
    /// Every config disagreed with the oracle in the same way (suspect the
    /// oracle or the simulator rather than one compile).
    pub suspect: bool,
    /// What the driver runs cost and excluded.
    pub driver: DriverCaseStats,
    /// Why the case could not run at all (a driver target that cannot be
    /// opened); the campaign stops.
    pub error: Option<String>,
}

/// What one case's driver runs cost and which outputs they did not compare.
#[derive(Clone, Debug, Default)]
pub struct DriverCaseStats {
    /// Driver runs.
    pub runs: u64,
    /// Time exporting.
    pub export: Duration,
    /// Time creating pipelines.
    pub pipeline: Duration,
    /// Time dispatching.
    pub dispatch: Duration,
    /// Time in whole jobs.
    pub job: Duration,
    /// Output pairs not compared, per relaxation.
    pub excluded: BTreeMap<String, u64>,
}

/// The seed of global case `g`.
pub fn case_seed(base: u64, g: u64) -> u64 {
    base.wrapping_add(g)
}

/// What a worker thread needs to run cases on driver targets: the farm
/// binary whose `vk-worker` subcommand it starts.
#[derive(Clone, Debug)]
pub struct DriverSetup {
    /// The farm executable.
    pub exe: PathBuf,
}

thread_local! {
    /// This worker thread's open drivers, by target text.
    static DRIVERS: RefCell<BTreeMap<String, Driver>> = const { RefCell::new(BTreeMap::new()) };
}

/// Where a worker gets the feedback snapshot of its case's epoch.
pub struct FeedbackLink<'a> {
    /// The snapshots.
    pub shared: &'a super::feedback::Shared,
    /// The campaign's stop flag (a worker waiting for a snapshot gives up).
    pub stop: &'a std::sync::atomic::AtomicBool,
}

/// Generates and checks case `local` of this shard: under every model
/// config of the mix (when the model is a target), then on every driver
/// target (each worker thread opens its own driver, in a child process).
/// With feedback the case is made from its epoch's snapshot (waiting for
/// it); `None` if the campaign stopped first.
pub fn run_case(
    id: &CampaignId,
    mix: &Mix,
    setup: Option<&DriverSetup>,
    feedback: Option<&FeedbackLink>,
    local: u64,
) -> Option<CaseResult> {
    let g = local * id.shards + id.shard;
    let seeding = id.seeding(feedback.is_some());
    let seed = seeding.roll_seed(local);
    // The case's configs are drawn with the seed it was made from.
    let config_seed = seeding.config_seed(local);
    let snapshot = match feedback {
        Some(f) => Some(f.shared.wait(local / id.feedback_epoch.max(1), &|| {
            f.stop.load(std::sync::atomic::Ordering::Relaxed)
        })?),
        None => None,
    };
    let made =
        super::feedback::make_case(&id.generator, mix, snapshot.as_deref(), seed, config_seed);
    let case = made.case;
    let mut r = CaseResult::empty(local, g, made.origin);
    let targets: Vec<Target> = id.targets.iter().filter_map(|t| t.parse().ok()).collect();
    if targets.contains(&Target::Model) {
        run_model(&case, mix, g, config_seed, &mut r);
    }
    for t in targets.iter().filter(|t| t.is_driver()) {
        if let Err(e) = run_driver(&case, t, setup, g, config_seed, &mut r) {
            r.error = Some(e);
            break;
        }
    }
    if let Some(s) = &snapshot {
        r.rare = s.rare(r.coverage.keys().copied());
    }
    Some(r)
}

impl CaseResult {
    /// The result of a case before any run.
    fn empty(local: u64, global: u64, origin: super::feedback::Origin) -> CaseResult {
        CaseResult {
            local,
            global,
            origin,
            rare: vec![],
            coverage: BTreeMap::new(),
            runs: vec![],
            changed: vec![],
            findings: vec![],
            suspect: false,
            driver: DriverCaseStats::default(),
            error: None,
        }
    }
}

/// Checks a given `case` (seed `seed`, its global index) under every model
/// config of the mix, as a campaign does: for benchmarks and tests of the
/// model path alone.
pub fn run_model_case(case: &ir::Case, mix: &Mix, seed: u64) -> CaseResult {
    let mut r = CaseResult::empty(seed, seed, super::feedback::Origin::Fresh);
    run_model(case, mix, seed, seed, &mut r);
    r
}

/// Runs `case` on driver target `t` (opened on this thread's first use).
fn run_driver(
    case: &ir::Case,
    t: &Target,
    setup: Option<&DriverSetup>,
    g: u64,
    seed: u64,
    r: &mut CaseResult,
) -> Result<(), String> {
    let Target::Vulkan { selector } = t else {
        return Ok(());
    };
    DRIVERS.with(|drivers| {
        let mut drivers = drivers.borrow_mut();
        let key = t.to_string();
        if !drivers.contains_key(&key) {
            let setup =
                setup.ok_or("a driver target needs the farm executable to start its worker")?;
            let d = Driver::open(worker_command(&setup.exe), selector.as_deref(), None)
                .map_err(|e| format!("target {t}: {e}"))?;
            drivers.insert(key.clone(), d);
        }
        let driver = drivers.get_mut(&key).expect("opened above");
        let run = driver.check(case);
        let s = &mut r.driver;
        s.runs += 1;
        s.export += run.timings.export;
        s.pipeline += run.timings.pipeline_create;
        s.dispatch += run.timings.dispatch;
        s.job += run.timings.job;
        for rel in oracle::relax::Relaxation::ALL {
            let n = run.excluded.get(*rel);
            if n > 0 {
                *s.excluded.entry(rel.name().to_string()).or_default() += n as u64;
            }
        }
        let target = driver.target_name();
        if crate::is_finding(&run.verdict) {
            let signature = Signature::of_driver(case, driver, &run.verdict);
            let pos = r.runs.len() as u64;
            r.findings.push((
                pos,
                Finding::of_driver(
                    case,
                    &target,
                    triage::driver_report::DeviceText::of(driver),
                    &run.verdict,
                    &signature,
                    g,
                    seed,
                ),
            ));
        }
        r.runs.push(RunOutcome {
            strategy: target,
            kind: run.verdict.kind(),
            culprit: None,
        });
        Ok(())
    })
}

/// Runs `case` under every model config of the mix.
fn run_model(case: &ir::Case, mix: &Mix, g: u64, seed: u64, r: &mut CaseResult) {
    let configs = mix.configs_for(seed, &case.program);
    if configs.is_empty() {
        // Only vec4 configs, and a case the vec4 backend does not take.
        return;
    }
    let expected = oracle::check::expected_outputs(case, configs[0].simd);
    let mut mismatches = Vec::new();
    let mut memo = oracle::check::SimMemo::default();
    // The configs' coverage, by name, added up here and put in the case's
    // map once.
    let mut coverage = Vec::new();
    for (pos, c) in configs.iter().enumerate() {
        let v = match &expected {
            Ok(e) => {
                let checked = oracle::check::check_against_with(case, c, e, &mut memo);
                r.changed.extend(checked.changed);
                add_coverage(&mut coverage, &checked.coverage);
                checked.verdict
            }
            Err(v) => v.clone(),
        };
        let mut culprit = None;
        if crate::is_finding(&v) {
            let trail = oracle::localize(case, c);
            culprit = trail.culprit();
            let signature = Signature::new(&v, culprit.map(|s| s.to_string()), None);
            r.findings.push((
                pos as u64,
                Finding::new(case, c, &v, &trail, &signature, g, seed),
            ));
        }
        if let Verdict::Mismatch { diffs } = &v {
            mismatches.push(diffs.clone());
        }
        r.runs.push(RunOutcome {
            strategy: c.strategy.to_string(),
            kind: v.kind(),
            culprit,
        });
    }
    for (point, (hits, runs)) in coverage {
        let e = r.coverage.entry(point).or_default();
        e.0 += hits;
        e.1 += runs;
    }
    r.suspect = mismatches.len() == configs.len()
        && configs.len() > 1
        && mismatches.windows(2).all(|w| w[0] == w[1]);
}

/// Adds one run's coverage (hits per point, by name) to `acc` (hits and
/// runs per point, by name): one merge of the two lists instead of a map
/// search per point. Names are compared by address first: a point's name
/// is mostly the one literal.
fn add_coverage(acc: &mut Vec<(&'static str, (u64, u64))>, run: &compiler::coverage::Hits) {
    let mut merged = Vec::with_capacity(acc.len() + run.len());
    let mut old = acc.drain(..).peekable();
    for (&point, &n) in run {
        while let Some(o) = old.next_if(|o| !std::ptr::eq(o.0, point) && o.0 < point) {
            merged.push(o);
        }
        match old.next_if(|o| std::ptr::eq(o.0, point) || o.0 == point) {
            Some((name, (hits, runs))) => merged.push((name, (hits + n as u64, runs + 1))),
            None => merged.push((point, (n as u64, 1))),
        }
    }
    merged.extend(old);
    *acc = merged;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_adds_up_per_name_across_runs() {
        // "b" also at a second address: the same point.
        let b2: &'static str = Box::leak(String::from("b").into_boxed_str());
        let run1: compiler::coverage::Hits = [("b", 2), ("d", 1)].into_iter().collect();
        let run2: compiler::coverage::Hits = [("a", 5), (b2, 3), ("c", 1)].into_iter().collect();
        let run3: compiler::coverage::Hits = [("d", 4), ("e", 1)].into_iter().collect();
        let mut acc = Vec::new();
        for run in [&run1, &run2, &run3] {
            add_coverage(&mut acc, run);
        }
        let got: Vec<(&str, (u64, u64))> = acc.iter().map(|&(n, c)| (n, c)).collect();
        assert_eq!(
            got,
            vec![
                ("a", (5, 1)),
                ("b", (5, 2)),
                ("c", (1, 1)),
                ("d", (5, 2)),
                ("e", (1, 1))
            ]
        );
    }
}
