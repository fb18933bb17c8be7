//! The campaign engine in-process: the worker pool, the collector and the
//! state writer driven directly, without spawning the binary. A crash
//! between two checkpoints (the state on disk older than the collector's)
//! loses and repeats nothing on resume; the worker count changes nothing.

use compiler::{Backend, BugSet};
use farm::campaign::buckets::Buckets;
use farm::campaign::collector::Collector;
use farm::campaign::mix::{Mix, PassChoice};
use farm::campaign::state::StateWriter;
use farm::campaign::stats::Checkpoint;
use farm::campaign::{self, run_case, CampaignId, RunLimits};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

const BUG: &str = "bool16-zero-extend";

fn tmp(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-engine-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn campaign() -> (CampaignId, Mix) {
    let id = CampaignId {
        seed: 3,
        shard: 0,
        shards: 1,
        // The scalar backend's six strategies: twelve configs every case.
        strategies: Backend::Scalar
            .strategies()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        passes: PassChoice::Mix.text(),
        simd: vec![8, 16, 32],
        inject: BUG.into(),
        generator: generator::Config::default(),
        version: CampaignId::current_version(),
        targets: vec!["model".into()],
        feedback: false,
        feedback_epoch: 1000,
        merged: vec![],
    };
    let mix = Mix {
        strategies: Backend::Scalar.strategies(),
        passes: PassChoice::Mix,
        simd: vec![8, 16, 32],
        bugs: BugSet::parse(BUG).unwrap(),
    };
    (id, mix)
}

fn limits(jobs: usize, cases: u64) -> RunLimits {
    RunLimits {
        duration: None,
        cases: Some(cases),
        jobs,
        tty: false,
        quiet: true,
        checkpoint_every: RunLimits::CHECKPOINT_EVERY,
        driver: None,
    }
}

fn run(out: &Path, jobs: usize, cases: u64, resume: bool) -> campaign::Summary {
    let (id, mix) = campaign();
    campaign::run(
        out,
        &id,
        &mix,
        &limits(jobs, cases),
        resume,
        Arc::new(AtomicBool::new(false)),
    )
    .unwrap()
}

/// Every file of a campaign directory that must not depend on how it ran:
/// the findings (without their reductions) and the bucket index.
fn results(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let findings = dir.join("findings");
    let mut sigs: Vec<String> = std::fs::read_dir(&findings)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    sigs.sort();
    for s in sigs {
        for f in ["case.sir", "config.json", "verdict.json"] {
            let text = std::fs::read_to_string(findings.join(&s).join(f)).unwrap();
            out.push((format!("{s}/{f}"), text));
        }
    }
    let mut b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("buckets.json")).unwrap()).unwrap();
    // Whether a bucket's reduction finished depends on timing; the rest may not.
    for bucket in b["buckets"].as_object_mut().unwrap().values_mut() {
        let o = bucket.as_object_mut().unwrap();
        o.remove("reduced");
        o.remove("reduce_error");
    }
    out.push(("buckets.json".into(), b.to_string()));
    out
}

#[test]
fn a_crash_between_checkpoints_loses_and_repeats_nothing() {
    let (crashed, whole) = (tmp("crashed"), tmp("whole"));
    let n = 60;
    let whole_summary = run(&whole, 2, n, false);
    assert!(!whole_summary.findings.is_empty(), "{BUG} is found");

    // The first run: cases 0..40 reach the collector, but the state is
    // written only after case 25; then the process dies (the collector is
    // dropped without a final write).
    let (id, mix) = campaign();
    std::fs::create_dir_all(crashed.join("findings")).unwrap();
    farm::durable::write_json(&crashed.join("campaign.json"), &id).unwrap();
    let (jobs, _queue) = crossbeam_channel::bounded(4);
    let buckets = Buckets::open(&crashed, false, jobs).unwrap();
    let mut collector =
        Collector::new(&crashed, buckets, Checkpoint::default(), id.runs_per_case());
    let writer = StateWriter::new(&crashed, 1, 0);
    // Out of order, as workers deliver them.
    let mut order: Vec<u64> = (0..40).collect();
    order.swap(3, 30);
    order.swap(10, 27);
    for (i, &k) in order.iter().enumerate() {
        collector
            .take_case(&run_case(&id, &mix, None, None, k).unwrap())
            .unwrap();
        if i == 25 {
            writer.write(&collector, 1.0, false).unwrap();
        }
    }
    drop(collector);
    let saved: Checkpoint = farm::durable::read_json(&crashed.join("checkpoint.json"))
        .unwrap()
        .unwrap();
    assert_eq!(saved.counters.cases, 26);
    assert!(saved.watermark < 26 && !saved.done_above.is_empty());

    // Resume: the cases after the checkpoint are redone, none counted twice.
    let resumed = run(&crashed, 2, n, true);
    assert_eq!(resumed.counters, whole_summary.counters);
    assert_eq!(resumed.counters.cases, n);
    assert_eq!(results(&crashed), results(&whole));
    let _ = std::fs::remove_dir_all(&crashed);
    let _ = std::fs::remove_dir_all(&whole);
}

#[test]
fn the_worker_count_changes_nothing() {
    let (one, two) = (tmp("one"), tmp("two"));
    let a = run(&one, 1, 40, false);
    let b = run(&two, 2, 40, false);
    assert_eq!(a.counters, b.counters);
    assert_eq!(a.findings, b.findings);
    assert_eq!(results(&one), results(&two));
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&two);
}

#[test]
fn a_stop_request_ends_the_run_and_it_resumes() {
    let d = tmp("stopped");
    let (id, mix) = campaign();
    let stop = Arc::new(AtomicBool::new(true));
    let s = campaign::run(&d, &id, &mix, &limits(2, 30), false, stop).unwrap();
    assert!(s.interrupted);
    assert_eq!(s.counters.cases, 0);
    let s = run(&d, 2, 30, true);
    assert!(!s.interrupted);
    assert_eq!(s.counters.cases, 30);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn one_process_per_output_directory() {
    let d = tmp("locked");
    std::fs::create_dir_all(&d).unwrap();
    let held = campaign::lock_dir(&d).unwrap();
    let (id, mix) = campaign();
    let e = campaign::run(
        &d,
        &id,
        &mix,
        &limits(1, 5),
        false,
        Arc::new(AtomicBool::new(false)),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "another farm process is running a campaign in {} (it holds {}/.farm.lock); wait for it to end, or choose another --out",
            d.display(),
            d.display()
        )
    );
    drop(held);
    assert_eq!(run(&d, 1, 5, false).counters.cases, 5);
    let _ = std::fs::remove_dir_all(&d);
}

/// A finished campaign of 30 cases with findings, in `d`.
fn finished(d: &Path) -> campaign::Summary {
    let s = run(d, 2, 30, false);
    assert!(!s.findings.is_empty());
    s
}

#[test]
fn a_resume_without_buckets_json_rebuilds_the_index_and_ends() {
    let d = tmp("nobuckets");
    let first = finished(&d);
    std::fs::remove_file(d.join("buckets.json")).unwrap();
    // Before the fix this re-queued the same reductions forever.
    let s = run(&d, 2, 30, true);
    assert_eq!(s.findings, first.findings);
    assert_eq!(s.notes.len(), first.findings.len(), "{:?}", s.notes);
    assert!(
        s.notes
            .iter()
            .all(|n| n.starts_with("bucket index: ") && n.ends_with(")")),
        "{:?}",
        s.notes
    );
    let index = triage::signature::BucketIndex::load(&d).unwrap();
    assert_eq!(
        index.buckets.keys().cloned().collect::<Vec<_>>(),
        first.findings
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_stale_index_takes_the_findings_first_cases() {
    let d = tmp("stale");
    finished(&d);
    // An index older than the findings: every first case shifted.
    let mut index = triage::signature::BucketIndex::load(&d).unwrap();
    let (sig, truth) = {
        let (s, b) = index.buckets.iter_mut().next().unwrap();
        let truth = b.first_case;
        b.first_case += 1000;
        b.reduced = false;
        (s.clone(), truth)
    };
    index.save(&d).unwrap();
    let s = run(&d, 1, 30, true);
    assert!(
        s.notes.contains(&format!(
            "bucket index: {sig}: first case {} in the index, {truth} on disk; the finding wins",
            truth + 1000
        )),
        "{:?}",
        s.notes
    );
    let index = triage::signature::BucketIndex::load(&d).unwrap();
    assert_eq!(index.buckets[&sig].first_case, truth);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_missing_or_inconsistent_checkpoint_is_refused() {
    let d = tmp("badckpt");
    finished(&d);
    let ck = d.join("checkpoint.json");
    let good = std::fs::read_to_string(&ck).unwrap();
    std::fs::remove_file(&ck).unwrap();
    let (id, mix) = campaign();
    let go = || {
        campaign::run(
            &d,
            &id,
            &mix,
            &limits(1, 30),
            true,
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        go(),
        format!(
            "{} holds findings but no checkpoint.json, so it is not known which cases were run: restore {}, or resume into a fresh --out (the findings stay where they are)",
            d.display(),
            ck.display()
        )
    );
    let mut c: serde_json::Value = serde_json::from_str(&good).unwrap();
    c["counters"]["cases"] = serde_json::json!(29);
    std::fs::write(&ck, c.to_string()).unwrap();
    assert_eq!(
        go(),
        format!(
            "{} contradicts itself (it counts 29 cases but marks 30 as done); it was damaged or edited: restore it, or start over with another --out",
            ck.display()
        )
    );
    std::fs::write(&ck, &good).unwrap();
    assert_eq!(run(&d, 1, 30, true).counters.cases, 30);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn damaged_findings_are_quarantined_once_and_the_campaign_goes_on() {
    let d = tmp("damaged");
    let first = finished(&d);
    let f = d.join("findings");
    std::fs::remove_file(f.join(&first.findings[0]).join("config.json")).unwrap();
    std::fs::write(f.join("stray-file"), "not a finding").unwrap();
    let s = run(&d, 1, 30, true);
    let q = d.join("quarantine");
    assert_eq!(
        s.notes[..2],
        [
            format!(
                "quarantined: {} (config.json is missing) moved to {}",
                f.join(&first.findings[0]).display(),
                q.join(&first.findings[0]).display()
            ),
            format!(
                "quarantined: {} (it is not a directory) moved to {}",
                f.join("stray-file").display(),
                q.join("stray-file").display()
            ),
        ]
    );
    assert_eq!(s.findings, first.findings[1..]);
    // The next resume has nothing left to repair.
    let s = run(&d, 1, 30, true);
    assert!(
        s.notes.iter().all(|n| !n.starts_with("quarantined")),
        "{:?}",
        s.notes
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn failed_reductions_are_retried_on_resume() {
    let d = tmp("retry");
    let first = finished(&d);
    // As a reducer that ran out of disk leaves it: no reduced/, an error.
    let sig = &first.findings[0];
    let _ = std::fs::remove_dir_all(d.join("findings").join(sig).join("reduced"));
    let mut index = triage::signature::BucketIndex::load(&d).unwrap();
    let b = index.buckets.get_mut(sig).unwrap();
    b.reduced = false;
    b.reduce_error = Some("cannot write reduced.sir: No space left on device".into());
    index.save(&d).unwrap();
    let s = run(&d, 1, 30, true);
    assert!(s.failed_reductions.is_empty(), "{:?}", s.failed_reductions);
    let index = triage::signature::BucketIndex::load(&d).unwrap();
    assert_eq!(
        (index.buckets[sig].reduced, &index.buckets[sig].reduce_error),
        (true, &None)
    );
    assert!(d
        .join("findings")
        .join(sig)
        .join("reduced")
        .join("report.md")
        .is_file());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn every_checkpoint_appends_a_history_line() {
    let d = tmp("history");
    let (id, mix) = campaign();
    let mut l = limits(1, 25);
    l.checkpoint_every = std::time::Duration::ZERO;
    campaign::run(&d, &id, &mix, &l, false, Arc::new(AtomicBool::new(false))).unwrap();
    let h = farm::campaign::stats::read_history(&d);
    assert!(h.len() >= 2, "{} lines", h.len());
    assert!(h
        .windows(2)
        .all(|w| w[0].cases <= w[1].cases && w[0].elapsed_s <= w[1].elapsed_s));
    let last = h.last().unwrap();
    // Two pass sets under each of the 6 strategies.
    assert_eq!((last.cases, last.config_runs), (25, 25 * 12));
    // A line cut short by a crash is skipped.
    let path = d.join("stats.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"elapsed_s\": 1.0, \"cas");
    std::fs::write(&path, text).unwrap();
    assert_eq!(farm::campaign::stats::read_history(&d).len(), h.len());
    let _ = std::fs::remove_dir_all(&d);
}

/// A feedback campaign with short epochs (25 cases), so a few hundred
/// cases cross several epoch boundaries.
fn run_feedback(out: &Path, jobs: usize, cases: u64, resume: bool) -> campaign::Summary {
    let (mut id, mix) = campaign();
    id.feedback = true;
    id.feedback_epoch = 25;
    campaign::run(
        out,
        &id,
        &mix,
        &limits(jobs, cases),
        resume,
        Arc::new(AtomicBool::new(false)),
    )
    .unwrap()
}

#[test]
fn feedback_is_the_same_for_any_worker_count() {
    let (one, three) = (tmp("fb-one"), tmp("fb-three"));
    let a = run_feedback(&one, 1, 110, false);
    let b = run_feedback(&three, 3, 110, false);
    assert_eq!(a.counters, b.counters);
    assert_eq!(results(&one), results(&three));
    // Epochs 1..4 made mutants and recipe cases from the corpus.
    let f = &a.counters.feedback;
    assert_eq!(f.cases.values().sum::<u64>(), 110);
    assert!(f.cases.get("mutant").copied().unwrap_or(0) > 0, "{f:?}");
    assert!(f.cases.get("recipe").copied().unwrap_or(0) > 0, "{f:?}");
    assert!(f.corpus > 0);
    for d in [&one, &three] {
        let names: Vec<String> = std::fs::read_dir(d.join("feedback"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(names, ["epoch-3.json", "epoch-4.json"]);
    }
    assert_eq!(
        std::fs::read(one.join("feedback/epoch-4.json")).unwrap(),
        std::fs::read(three.join("feedback/epoch-4.json")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&three);
}

#[test]
fn feedback_resumes_mid_epoch_exactly() {
    let (whole, parts) = (tmp("fb-whole"), tmp("fb-parts"));
    let w = run_feedback(&whole, 2, 90, false);
    // Stop inside epoch 1 and again inside epoch 3, then finish.
    run_feedback(&parts, 2, 37, false);
    run_feedback(&parts, 1, 61, true);
    let p = run_feedback(&parts, 2, 90, true);
    assert_eq!(p.counters, w.counters);
    assert_eq!(results(&parts), results(&whole));
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&parts);
}
