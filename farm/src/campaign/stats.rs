//! Campaign statistics, rewritten to `DIR/stats.json` every few seconds, and
//! the checkpoint that `--resume` continues from.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Counters of a campaign (only of cases whose results are recorded).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Counters {
    /// Cases finished.
    pub cases: u64,
    /// Config-runs finished.
    pub config_runs: u64,
    /// Config-runs per verdict kind.
    pub verdicts: BTreeMap<String, u64>,
    /// Config-runs per strategy, per verdict kind.
    pub per_strategy: BTreeMap<String, BTreeMap<String, u64>>,
    /// Failing config-runs per culprit pass.
    pub per_culprit: BTreeMap<String, u64>,
    /// How often each pass changed the program (config-runs).
    pub pass_changed: BTreeMap<String, u64>,
    /// In how many cases each pass changed the program (in at least one of
    /// the case's config-runs).
    #[serde(default)]
    pub pass_cases: BTreeMap<String, u64>,
    /// How the cases were made (coverage feedback).
    #[serde(default, skip_serializing_if = "FeedbackCounts::is_empty")]
    pub feedback: FeedbackCounts,
    /// Decision points reached (`compiler::coverage`), by name.
    #[serde(default)]
    pub decision_points: BTreeMap<String, PointCount>,
    /// Cases where every config mismatched the oracle in the same way: a
    /// cross-config disagreement with the oracle itself (suspect the oracle
    /// or the simulator).
    pub oracle_suspect: u64,
    /// Driver runs: output pairs not compared, per relaxation (what the
    /// Vulkan spec lets a driver compute differently).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub excluded: BTreeMap<String, u64>,
    /// Driver runs: where the time went.
    #[serde(default, skip_serializing_if = "DriverTime::is_empty")]
    pub driver_time: DriverTime,
}

/// How a campaign's cases were made (`campaign::feedback`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct FeedbackCounts {
    /// Cases by origin (`fresh`, `recipe`, `mutant`).
    pub cases: BTreeMap<String, u64>,
    /// Failing config-runs by the origin of their case.
    pub failing_runs: BTreeMap<String, u64>,
    /// Mutators applied, over every mutant.
    pub mutators: BTreeMap<String, u64>,
    /// Mutants discarded (undefined or looping) before a case was made.
    pub rejected_mutants: u64,
    /// Corpus entries in the current epoch's snapshot.
    pub corpus: u64,
}

impl FeedbackCounts {
    /// Whether feedback made no case (it is off).
    pub fn is_empty(&self) -> bool {
        self.cases.is_empty()
    }
}

/// How often one decision point was reached.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PointCount {
    /// Times reached, over every compile.
    pub hits: u64,
    /// Config-runs that reached it.
    pub runs: u64,
    /// Cases that reached it (under any of their configs).
    pub cases: u64,
    /// The lowest case index that reached it (global numbering).
    pub first_case: u64,
}

impl PointCount {
    /// Adds another count of the same point (a case, or a shard).
    pub fn add(&mut self, other: &PointCount) {
        self.first_case = if self.cases == 0 {
            other.first_case
        } else if other.cases == 0 {
            self.first_case
        } else {
            self.first_case.min(other.first_case)
        };
        self.hits += other.hits;
        self.runs += other.runs;
        self.cases += other.cases;
    }
}

/// Adds `count` to `point`'s count in `counts`. Nearly every point is one
/// an earlier case reached: its name is copied only the first time.
pub fn add_point(counts: &mut BTreeMap<String, PointCount>, point: &str, count: PointCount) {
    match counts.get_mut(point) {
        Some(total) => total.add(&count),
        None => {
            counts.insert(point.to_string(), count);
        }
    }
}

/// Adds one case's coverage (per point, its hits and config-runs) to
/// `counts`, as case `case` (global numbering).
pub fn add_case_points(
    counts: &mut BTreeMap<String, PointCount>,
    coverage: &BTreeMap<&'static str, (u64, u64)>,
    case: u64,
) {
    for (point, &(hits, runs)) in coverage {
        let count = PointCount {
            hits,
            runs,
            cases: 1,
            first_case: case,
        };
        add_point(counts, point, count);
    }
}

/// Time spent in driver runs, summed over the campaign.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct DriverTime {
    /// Driver runs (cases run on a driver).
    pub runs: u64,
    /// Seconds exporting SPIR-V.
    pub export_s: f64,
    /// Seconds creating pipelines (the driver compiling).
    pub pipeline_s: f64,
    /// Seconds submitting and waiting (lavapipe compiles at the first
    /// dispatch).
    pub dispatch_s: f64,
    /// Seconds in whole jobs as the client saw them (protocol included).
    pub job_s: f64,
}

impl DriverTime {
    /// Whether no driver ran.
    pub fn is_empty(&self) -> bool {
        self.runs == 0
    }
}

impl Counters {
    /// Config-runs whose verdict is a finding's kind (not pass, invalid
    /// case, compiler limit or unsupported).
    pub fn failing_runs(&self) -> u64 {
        self.verdicts
            .iter()
            .filter(|(k, _)| {
                !matches!(
                    k.as_str(),
                    "pass" | "invalid-case" | "compiler-limit" | "unsupported"
                )
            })
            .map(|(_, v)| v)
            .sum()
    }
}

/// The campaign's history file: a JSON line per checkpoint.
pub const HISTORY_FILE: &str = "stats.jsonl";

/// One line of `stats.jsonl`: the campaign at one checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    /// Seconds of work over all runs of the campaign so far.
    pub elapsed_s: f64,
    /// Cases done.
    pub cases: u64,
    /// Config-runs done.
    pub config_runs: u64,
    /// Config-runs per second in the current run.
    pub config_runs_per_s: f64,
    /// Findings on disk.
    pub findings: usize,
    /// Buckets in the index.
    pub buckets: usize,
    /// Buckets reduced.
    pub reduced: usize,
    /// Failing config-runs.
    pub failing_runs: u64,
    /// How often each pass changed the program.
    pub pass_changed: BTreeMap<String, u64>,
}

/// Reads `stats.jsonl`, skipping lines that do not parse (a crash can cut
/// the last one short).
pub fn read_history(dir: &std::path::Path) -> Vec<HistoryPoint> {
    std::fs::read_to_string(dir.join(HISTORY_FILE))
        .map(|t| {
            t.lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// What `--resume` needs: every case below `watermark` is done, plus those
/// listed in `done_above`; and the counters of exactly those cases.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Checkpoint {
    /// All cases below this index (in this shard's numbering) are done.
    pub watermark: u64,
    /// Cases at or above the watermark that are done too.
    pub done_above: BTreeSet<u64>,
    /// Counters of the done cases.
    pub counters: Counters,
    /// Seconds spent in earlier runs of this campaign.
    pub elapsed_before: f64,
    /// The feedback epoch in progress: the corpus candidates of its done
    /// cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<super::feedback::EpochProgress>,
}

impl Checkpoint {
    /// Records local case `k` as done, advancing the watermark.
    pub fn mark(&mut self, k: u64) {
        if k < self.watermark {
            return;
        }
        self.done_above.insert(k);
        while self.done_above.remove(&self.watermark) {
            self.watermark += 1;
        }
    }

    /// Whether local case `k` is done.
    pub fn is_done(&self, k: u64) -> bool {
        k < self.watermark || self.done_above.contains(&k)
    }
}

/// `stats.json`.
#[derive(Clone, Debug, Serialize)]
pub struct StatsFile<'a> {
    /// Whether the last run ended by itself (its case limit or duration
    /// reached, or the search done); false while it runs and when SIGINT or
    /// SIGTERM stopped it.
    pub finished: bool,
    /// Seconds of work over all runs of the campaign.
    pub elapsed_s: f64,
    /// Cases per second.
    pub cases_per_s: f64,
    /// Config-runs per second.
    pub config_runs_per_s: f64,
    /// Config-runs per second per worker.
    pub config_runs_per_s_per_job: f64,
    /// Workers.
    pub jobs: usize,
    /// Distinct findings (signatures).
    pub findings: usize,
    /// Buckets whose first finding is reduced (`findings/<signature>/reduced/`).
    pub reduced: usize,
    /// Buckets waiting for the background reducer (queued or in progress).
    pub reduce_queue: usize,
    /// Decision points in the compiler's catalogue (`compiler::coverage`).
    pub points_total: usize,
    /// Of those, how many the campaign reached.
    pub points_reached: usize,
    /// The catalogue's points never reached, in catalogue order.
    pub never_reached: Vec<&'static str>,
    /// The counters.
    #[serde(flatten)]
    pub counters: &'a Counters,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_count_is_added_to_its_total_or_starts_it() {
        let count = |hits, first_case| PointCount {
            hits,
            runs: 1,
            cases: 1,
            first_case,
        };
        let mut counts = BTreeMap::new();
        add_point(&mut counts, "eu:p/x", count(3, 7));
        add_point(&mut counts, "eu:p/x", count(2, 4));
        add_point(&mut counts, "eu:p/y", count(5, 9));
        let want = BTreeMap::from([
            (
                "eu:p/x".to_string(),
                PointCount {
                    hits: 5,
                    runs: 2,
                    cases: 2,
                    first_case: 4,
                },
            ),
            ("eu:p/y".to_string(), count(5, 9)),
        ]);
        assert_eq!(counts, want);
    }

    #[test]
    fn watermark_advances_over_out_of_order_completions() {
        let mut c = Checkpoint::default();
        c.mark(1);
        c.mark(2);
        assert_eq!((c.watermark, c.done_above.len()), (0, 2));
        c.mark(0);
        assert_eq!((c.watermark, c.done_above.len()), (3, 0));
        assert!(c.is_done(2) && !c.is_done(3));
        c.mark(5);
        assert!(c.is_done(5) && !c.is_done(4));
    }
}
