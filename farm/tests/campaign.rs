//! Campaigns end to end, driving the `farm` binary: an injected bug is found
//! and reproduced; a clean campaign finds nothing; a campaign killed with
//! SIGKILL resumes without losing or repeating cases; 1 and 2 jobs, and
//! merged shards versus one run, give the same findings; bad options and
//! unwritable directories give clear errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn farm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_farm"))
        .args(args)
        .output()
        .expect("farm runs")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-campaign-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Signature -> case index of every finding in a campaign directory.
fn findings(dir: &Path) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = std::fs::read_dir(dir.join("findings"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| {
                    let cfg = std::fs::read_to_string(e.path().join("config.json")).unwrap();
                    let json: serde_json::Value = serde_json::from_str(&cfg).unwrap();
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        json["case_index"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn stats_cases(dir: &Path) -> u64 {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("stats.json")).unwrap()).unwrap();
    s["cases"].as_u64().unwrap()
}

const BUG: &str = "bool16-zero-extend";

#[test]
fn injected_bug_is_found_and_reproduced() {
    let d = tmp("inject");
    let o = farm(&[
        "fuzz",
        "--cases",
        "60",
        "--jobs",
        "2",
        "--quiet",
        "--inject",
        BUG,
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let f = findings(&d);
    assert!(!f.is_empty());
    for (sig, _) in &f {
        assert!(sig.starts_with("mismatch-lowering"), "{sig}");
        let dir = d.join("findings").join(sig);
        let r = farm(&["repro", dir.to_str().unwrap()]);
        assert_eq!(r.status.code(), Some(1), "{}", text(&r));
        assert!(
            text(&r).contains(&format!("reproduced ({sig})")),
            "{}",
            text(&r)
        );
        assert!(text(&r).contains("culprit: lowering"), "{}", text(&r));
        let j: serde_json::Value =
            serde_json::from_slice(&farm(&["repro", dir.to_str().unwrap(), "--json"]).stdout)
                .unwrap();
        assert_eq!(
            (j["signature"].as_str(), j["recorded"].as_str()),
            (Some(sig.as_str()), Some(sig.as_str()))
        );
    }
    // With the bug gone from its config the finding no longer fails: exit 0.
    let (sig, _) = &f[0];
    let dir = d.join("findings").join(sig);
    let cfg = dir.join("config.json");
    let mut c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    c["inject"] = serde_json::json!("none");
    std::fs::write(&cfg, c.to_string()).unwrap();
    let r = farm(&["repro", dir.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r));
    assert!(
        text(&r).contains("fixed: it no longer fails"),
        "{}",
        text(&r)
    );
    // A config that does not parse is bad input: exit 2.
    std::fs::write(&cfg, "{\"strategy\": 3}").unwrap();
    let r = farm(&["repro", dir.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{}", text(&r));
    assert!(text(&r).contains("config.json:1:"), "{}", text(&r));
}

#[test]
fn clean_campaign_finds_nothing() {
    let d = tmp("clean");
    let o = farm(&[
        "fuzz",
        "--cases",
        "120",
        "--jobs",
        "2",
        "--quiet",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(findings(&d).is_empty());
    assert_eq!(stats_cases(&d), 120);
}

#[test]
fn one_and_two_jobs_agree_and_shards_merge_to_one_run() {
    let (a, b) = (tmp("j1"), tmp("j2"));
    let args = |d: &Path, jobs: &str| {
        farm(&[
            "fuzz",
            "--cases",
            "80",
            "--jobs",
            jobs,
            "--quiet",
            "--inject",
            BUG,
            "--seed",
            "7",
            "--out",
            d.to_str().unwrap(),
        ])
    };
    args(&a, "1");
    args(&b, "2");
    let fa = findings(&a);
    assert!(!fa.is_empty());
    assert_eq!(fa, findings(&b));
    // Two shards of 40 cases each cover the same 80 cases.
    let (s0, s1, m) = (tmp("s0"), tmp("s1"), tmp("merged"));
    for (s, shard) in [(&s0, "0/2"), (&s1, "1/2")] {
        farm(&[
            "fuzz",
            "--cases",
            "40",
            "--jobs",
            "1",
            "--quiet",
            "--inject",
            BUG,
            "--seed",
            "7",
            "--shard",
            shard,
            "--out",
            s.to_str().unwrap(),
        ]);
    }
    let o = farm(&[
        "merge",
        "--out",
        m.to_str().unwrap(),
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).starts_with("merged 2 directories (shards 0,1 of 2): 80 cases"),
        "{}",
        text(&o)
    );
    assert_eq!(findings(&m), fa);
    // The merged directory is a complete campaign: the same bucket index
    // (hits, first cases, first-seen runs, in the unsharded numbering),
    // counters and checkpoint as the unsharded run, and every reduction.
    let json = |p: PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let strip = |mut v: serde_json::Value| {
        for b in v["buckets"].as_object_mut().unwrap().values_mut() {
            b.as_object_mut().unwrap().remove("reduced");
        }
        v
    };
    assert_eq!(
        strip(json(m.join("buckets.json"))),
        strip(json(a.join("buckets.json")))
    );
    let (cm, ca) = (
        json(m.join("checkpoint.json")),
        json(a.join("checkpoint.json")),
    );
    assert_eq!(
        (&cm["watermark"], &cm["counters"]),
        (&ca["watermark"], &ca["counters"])
    );
    for (sig, _) in &fa {
        assert!(
            m.join("findings")
                .join(sig)
                .join("reduced/report.md")
                .is_file(),
            "{sig}"
        );
    }
    let id = json(m.join("campaign.json"));
    assert_eq!(id["merged"], serde_json::json!([0, 1]));
    // ... so it merges again, but not with a shard it already holds.
    let (again, other) = (tmp("merged-again"), tmp("other-seed"));
    let o = farm(&[
        "merge",
        "--out",
        again.to_str().unwrap(),
        m.to_str().unwrap(),
        s1.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains(&format!(
            "shard 1/2 is in both {} and {}",
            m.display(),
            s1.display()
        )),
        "{}",
        text(&o)
    );
    let o = farm(&[
        "merge",
        "--out",
        again.to_str().unwrap(),
        m.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(findings(&again), fa);
    // Shards of another campaign are refused, naming the difference.
    farm(&[
        "fuzz",
        "--cases",
        "4",
        "--quiet",
        "--inject",
        BUG,
        "--seed",
        "8",
        "--shard",
        "1/2",
        "--out",
        other.to_str().unwrap(),
    ]);
    let o = farm(&[
        "merge",
        "--out",
        tmp("refused").to_str().unwrap(),
        s0.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains(&format!(
            "{} is from another campaign than {} (seed: 7 vs 8)",
            other.display(),
            s0.display()
        )),
        "{}",
        text(&o)
    );
}

#[test]
fn kill_minus_nine_then_resume_loses_and_repeats_nothing() {
    let (d, whole) = (tmp("killed"), tmp("whole"));
    let n = "400";
    let mut child = Command::new(env!("CARGO_BIN_EXE_farm"))
        .args([
            "fuzz",
            "--cases",
            n,
            "--jobs",
            "2",
            "--quiet",
            "--inject",
            BUG,
            // Checkpoints far more often than the campaign takes, however
            // fast it runs, so that it is killed part of the way through.
            "--checkpoint-every",
            "50ms",
            "--out",
            d.to_str().unwrap(),
        ])
        .spawn()
        .unwrap();
    // Wait for a checkpoint with some progress, then SIGKILL.
    let t = Instant::now();
    loop {
        let progressed = std::fs::read_to_string(d.join("checkpoint.json"))
            .ok()
            .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
            .and_then(|v| v["counters"]["cases"].as_u64())
            .is_some_and(|c| c > 0);
        if progressed || t.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = stats_cases(&d);
    assert!(before < 400, "the campaign finished before it was killed");
    let o = farm(&[
        "fuzz",
        "--cases",
        n,
        "--jobs",
        "2",
        "--quiet",
        "--inject",
        BUG,
        "--resume",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(stats_cases(&d), 400, "every case counted exactly once");
    farm(&[
        "fuzz",
        "--cases",
        n,
        "--jobs",
        "2",
        "--quiet",
        "--inject",
        BUG,
        "--out",
        whole.to_str().unwrap(),
    ]);
    assert_eq!(findings(&d), findings(&whole));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("stats.json")).unwrap()).unwrap();
    let w: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(whole.join("stats.json")).unwrap()).unwrap();
    assert_eq!(s["verdicts"], w["verdicts"]);
}

#[test]
fn bad_options_and_directories_are_clear_errors() {
    let o = farm(&["fuzz", "--shard", "3/2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("bad shard `3/2`"), "{}", text(&o));
    let o = farm(&["fuzz", "--duration", "5x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("bad duration `5x`"), "{}", text(&o));
    let o = farm(&["fuzz", "--inject", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("unknown bug `nope`"), "{}", text(&o));
    // Bounds: a clear error naming the option and its limit.
    for (args, want) in [
        (
            &["fuzz", "--jobs", "0"][..],
            "--jobs must be in 1..=256, not `0`",
        ),
        (
            &["fuzz", "--duration", "999999999999h"][..],
            "duration `999999999999h` is longer than the limit of 366 days",
        ),
        (
            &["asm", "x.asm", "--lanes", "5000"][..],
            "5000 is not in 1..=1024",
        ),
    ] {
        let o = farm(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o).contains(want), "{args:?}: {}", text(&o));
    }
    let o = farm(&[
        "fuzz",
        "--cases",
        "1",
        "--out",
        "/proc/farm-cannot-write-here",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("cannot create the output directory /proc/farm-cannot-write-here"),
        "{}",
        text(&o)
    );
    // An existing campaign is not overwritten without --resume.
    let d = tmp("exists");
    farm(&[
        "fuzz",
        "--cases",
        "2",
        "--quiet",
        "--out",
        d.to_str().unwrap(),
    ]);
    let o = farm(&[
        "fuzz",
        "--cases",
        "2",
        "--quiet",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("already holds a campaign"),
        "{}",
        text(&o)
    );
    let o = farm(&[
        "fuzz",
        "--cases",
        "2",
        "--quiet",
        "--seed",
        "9",
        "--resume",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("--resume: the options differ from the campaign in")
            && text(&o).contains("campaign.json: seed: 0 vs 9)"),
        "{}",
        text(&o)
    );
    // A generator knob beyond its bound is an error naming it.
    let cfg = d.join("big.json");
    std::fs::write(&cfg, r#"{"max_inputs": 100000}"#).unwrap();
    let o = farm(&[
        "fuzz",
        "--cases",
        "1",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        tmp("bigcfg").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains(&format!(
            "{}: max_inputs must be in 0..=64, not 100000",
            cfg.display()
        )),
        "{}",
        text(&o)
    );
}

/// Starts a campaign on `d`, waits for its first state file, sends it
/// `signal` and checks that it stopped cleanly: exit status 3, the summary,
/// `stats.json` saying it did not finish; then resumes it to the end.
fn signal_stops_gracefully_and_the_campaign_resumes(name: &str, signal: &str) {
    let d = tmp(name);
    let child = Command::new(env!("CARGO_BIN_EXE_farm"))
        .args([
            "fuzz",
            "--cases",
            "100000",
            "--jobs",
            "2",
            "--quiet",
            "--out",
            d.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !d.join("stats.json").exists() && t.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // A second campaign on the same directory is refused while this one runs.
    let o = farm(&[
        "fuzz",
        "--cases",
        "10",
        "--quiet",
        "--resume",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(&format!(
            "another farm process is running a campaign in {} (it holds {}/.farm.lock)",
            d.display(),
            d.display()
        )),
        "{}",
        text(&o)
    );
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("interrupted: resume with --resume"),
        "{stdout}"
    );
    let stats = |d: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join("stats.json")).unwrap()).unwrap()
    };
    assert_eq!(stats(&d)["finished"], serde_json::Value::Bool(false));
    let done = stats_cases(&d);
    assert!(done > 0 && done < 100000);
    // The checkpoint written on the way out lets the campaign continue.
    // (--cases is a limit of the run, not part of the campaign's identity.)
    let o = farm(&[
        "fuzz",
        "--cases",
        &(done + 20).to_string(),
        "--jobs",
        "2",
        "--quiet",
        "--resume",
        "--out",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(stats_cases(&d), done + 20);
    assert_eq!(stats(&d)["finished"], serde_json::Value::Bool(true));
}

#[test]
fn sigint_stops_gracefully_and_the_campaign_resumes() {
    signal_stops_gracefully_and_the_campaign_resumes("sigint", "-INT");
}

#[test]
fn sigterm_stops_gracefully_and_the_campaign_resumes() {
    signal_stops_gracefully_and_the_campaign_resumes("sigterm", "-TERM");
}
