//! The campaign engine in-process: the worker pool, the collector and the
//! state writer driven directly, without spawning the binary. A crash
//! between two checkpoints (the state on disk older than the collector's)
//! loses and repeats nothing on resume; the worker count changes nothing.

use compiler::{BugSet, Strategy};
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
    let d = std::env::temp_dir().join(format!("farm-engine-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn campaign() -> (CampaignId, Mix) {
    let id = CampaignId {
        seed: 3,
        shard: 0,
        shards: 1,
        strategies: Strategy::ALL.iter().map(|s| s.to_string()).collect(),
        passes: PassChoice::Mix.text(),
        simd: vec![8, 16, 32],
        inject: BUG.into(),
        generator: generator::Config::default(),
    };
    let mix = Mix {
        strategies: Strategy::ALL.to_vec(),
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
    let mut collector = Collector::new(&crashed, buckets, Checkpoint::default());
    let writer = StateWriter::new(&crashed, 1, 0);
    // Out of order, as workers deliver them.
    let mut order: Vec<u64> = (0..40).collect();
    order.swap(3, 30);
    order.swap(10, 27);
    for (i, &k) in order.iter().enumerate() {
        collector.take_case(&run_case(&id, &mix, k)).unwrap();
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
