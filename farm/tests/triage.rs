//! Triage end to end, driving the `farm` binary: `farm reduce` on a
//! corpus/bugs case writes a minimized case and a report whose repro command
//! reproduces; a campaign reduces its buckets in the background and keeps
//! its bucket index across `--resume` (also after SIGKILL); `farm corpus add`
//! files a reduced finding and refuses to overwrite; bad input is exit 2.

use oracle::{Config, Verdict};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn farm_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_farm"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("farm runs")
}

fn farm(args: &[&str]) -> Output {
    farm_in(&root(), args)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-triage-{}-{name}", std::process::id()));
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

fn json(path: &Path) -> serde_json::Value {
    let t = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&t).unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const BUG: &str = "bool16-zero-extend";

/// The config of a `// config: OPTIONS` first line.
fn config_of(options: &str) -> Config {
    let w: Vec<&str> = options.split_whitespace().collect();
    let mut c = Config::new(compiler::Strategy::Bool32, 16, compiler::PassSet::all());
    for pair in w.chunks(2) {
        match pair {
            ["--strategy", s] => c.strategy = s.parse().unwrap(),
            ["--simd", x] => c.simd = x.parse().unwrap(),
            ["--passes", p] => c.passes = compiler::PassSet::parse(p).unwrap(),
            ["--inject", b] => c.bugs = compiler::BugSet::parse(b).unwrap(),
            other => panic!("unexpected {other:?}"),
        }
    }
    c
}

/// Checks a timeout's reduction directory: the minimized case parses and
/// its compiled code still runs out of the simulator's budget.
fn check_timeout_reduction(dir: &Path, repro: &str) {
    let sir = read(&dir.join("reduced.sir"));
    let case = ir::parse_case(&sir).expect("reduced.sir parses");
    let options = repro.strip_prefix("farm run reduced.sir ").unwrap();
    let config = config_of(options);
    assert!(
        matches!(oracle::check(&case, &config), Verdict::Timeout { .. }),
        "the reduced case does not time out"
    );
}

/// Checks a reduction directory: the minimized case parses and fails the
/// way the report says, the report lists exactly its differing lanes, and
/// the repro command, run in the directory, reproduces it.
fn check_reduction(dir: &Path, signature: &str, repro: &str) {
    let sir = read(&dir.join("reduced.sir"));
    let case = ir::parse_case(&sir).expect("reduced.sir parses");
    assert_eq!(ir::print_case(&case), sir, "reduced.sir is canonical");
    let options = repro.strip_prefix("farm run reduced.sir ").unwrap();
    assert_eq!(sir.lines().next().unwrap(), format!("// config: {options}"));
    let config = config_of(options);
    let Verdict::Mismatch { diffs } = oracle::check(&case, &config) else {
        panic!("the reduced case does not mismatch")
    };
    let rep = json(&dir.join("report.json"));
    assert_eq!(rep["signature"]["name"], signature);
    assert_eq!(rep["repro"], repro);
    assert_eq!(rep["case"], sir.as_str());
    let lanes: Vec<(u64, u64, String, String)> = rep["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["lane"].as_u64().unwrap(),
                l["slot"].as_u64().unwrap(),
                l["expected"].as_str().unwrap().to_string(),
                l["got"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(u64, u64, String, String)> = diffs
        .iter()
        .map(|d| {
            (
                d.lane as u64,
                d.slot as u64,
                d.expected.clone(),
                d.got.clone(),
            )
        })
        .collect();
    assert_eq!(lanes, want);
    let md = read(&dir.join("report.md"));
    assert!(md.starts_with(&format!("# `{signature}`\n\n")), "{md}");
    assert!(
        md.contains(&format!("## Reproduce\n\n```sh\n{repro}\n```\n")),
        "{md}"
    );
    assert!(md.contains(&format!(
        "## Minimized case (`reduced.sir`)\n\n```\n{sir}```\n"
    )));
    let mut table = String::from("| lane | slot | expected | got |\n|---:|---:|---|---|\n");
    for d in &diffs {
        table.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            d.lane, d.slot, d.expected, d.got
        ));
    }
    assert!(
        md.contains(&format!("## Differing lanes\n\n{table}\n")),
        "{md}"
    );
    assert!(
        md.contains("## Before and after `lowering`\n\n### Before: IR"),
        "{md}"
    );
    assert!(md.contains("### After: EU code after lowering (virtual registers)\n\n```\n"));
    assert!(md.contains("## Localization trail\n\n| stage | after it |\n|---|---|\n"));
    assert!(md.contains("| `lowering` | **diverges**: lane "), "{md}");
    // The repro command, run where the report is, reproduces the failure.
    let words: Vec<&str> = repro.split_whitespace().collect();
    assert_eq!(words[0], "farm");
    let o = farm_in(dir, &words[1..]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let first = diffs.first().unwrap();
    assert!(
        text(&o).starts_with(&format!(
            "{options}: mismatch in {} lane/slot pairs\nlane\tslot\texpected\tgot\n{}\t{}\t{}\t{}\n",
            diffs.len(),
            first.lane,
            first.slot,
            first.expected,
            first.got
        )),
        "{}",
        text(&o)
    );
}

#[test]
fn reduce_a_bug_case_into_a_report_that_reproduces() {
    let out = tmp("reduce");
    let o = farm(&[
        "reduce",
        "corpus/bugs/bool16-zero-extend.sir",
        "--inject",
        BUG,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // The file's own `// config:` line gives strategy, width and passes; the
    // reducer drops the passes a lowering bug does not need.
    let repro =
        "farm run reduced.sir --strategy bool16 --simd 8 --passes none --inject bool16-zero-extend";
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.starts_with(
            "reduced corpus/bugs/bool16-zero-extend.sir (--strategy bool16 --simd 8 --passes all --inject bool16-zero-extend) in "
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "signature: mismatch-lowering\nconfig: {}\n",
            repro.strip_prefix("farm run reduced.sir ").unwrap()
        )),
        "{stdout}"
    );
    assert!(stdout.ends_with(&format!("repro (in {}): {repro}\n", out.display())));
    check_reduction(&out, "mismatch-lowering", repro);
    // The minimized case is smaller than the original.
    let before = ir::parse_case(&read(&root().join("corpus/bugs/bool16-zero-extend.sir"))).unwrap();
    let after = ir::parse_case(&read(&out.join("reduced.sir"))).unwrap();
    assert!(after.program.num_instrs() <= before.program.num_instrs());
    assert!(after.dispatch.unwrap().invocations < before.dispatch.unwrap().invocations);
}

#[test]
fn reduce_rejects_bad_input_with_exit_2() {
    let o = farm(&["reduce", "corpus/shift16.sir", "--simd", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: corpus/shift16.sir: the case does not fail under --strategy bool32 --simd 8 \
         --passes all (verdict: pass), so there is nothing to reduce\n"
    );
    assert!(!root().join("corpus/shift16.reduced").exists());
    let o = farm(&["reduce", "corpus/no-such-case.sir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).starts_with("error: cannot read corpus/no-such-case.sir"),
        "{}",
        text(&o)
    );
    let empty = tmp("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = farm(&["reduce", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).starts_with("error: cannot read "), "{}", text(&o));
    let o = farm(&["corpus", "add", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: {0} has no reduced case (reduced/reduced.sir); run `farm reduce {0}` first\n",
            empty.display()
        )
    );
}

fn fuzz(dir: &Path, cases: &str, resume: bool) -> Output {
    let mut args = vec![
        "fuzz", "--cases", cases, "--jobs", "2", "--quiet", "--inject", BUG, "--out",
    ];
    args.push(dir.to_str().unwrap());
    if resume {
        args.push("--resume");
    }
    farm(&args)
}

/// Every bucket of a finished campaign is reduced, with its report.
fn check_buckets_reduced(dir: &Path) -> serde_json::Value {
    let b = json(&dir.join("buckets.json"));
    let buckets = b["buckets"].as_object().unwrap();
    assert!(!buckets.is_empty());
    let stats = json(&dir.join("stats.json"));
    assert_eq!(stats["reduced"], buckets.len());
    assert_eq!(stats["reduce_queue"], 0);
    // Every failing config-run is one hit of one bucket (the injected bug
    // can also leave a loop without its exit: a simulator timeout).
    let hits: u64 = buckets.values().map(|v| v["hits"].as_u64().unwrap()).sum();
    let failing = ["mismatch", "timeout"]
        .iter()
        .map(|k| stats["verdicts"][k].as_u64().unwrap_or(0))
        .sum::<u64>();
    assert_eq!(failing, hits);
    for (sig, v) in buckets {
        assert_eq!(v["reduced"], true, "{sig}");
        let f = dir.join("findings").join(sig);
        assert_eq!(json(&f.join("config.json"))["case_index"], v["first_case"]);
        let rep = json(&f.join("reduced/report.json"));
        if sig.starts_with("timeout-") {
            check_timeout_reduction(&f.join("reduced"), rep["repro"].as_str().unwrap());
            continue;
        }
        check_reduction(
            &f.join("reduced"),
            rep["signature"]["name"].as_str().unwrap(),
            rep["repro"].as_str().unwrap(),
        );
    }
    b
}

#[test]
fn campaigns_reduce_buckets_and_keep_the_index_across_resume() {
    let (a, whole) = (tmp("resumed"), tmp("whole"));
    assert_eq!(fuzz(&a, "20", false).status.code(), Some(1));
    let first = check_buckets_reduced(&a);
    let o = fuzz(&a, "50", true);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let resumed = check_buckets_reduced(&a);
    // Buckets of the first run keep their first case and first-seen run.
    for (sig, v) in first["buckets"].as_object().unwrap() {
        assert_eq!(resumed["buckets"][sig]["first_case"], v["first_case"]);
        assert_eq!(resumed["buckets"][sig]["first_seen"], v["first_seen"]);
    }
    assert_eq!(fuzz(&whole, "50", false).status.code(), Some(1));
    assert_eq!(resumed, check_buckets_reduced(&whole));
    assert_eq!(
        read(&a.join("buckets.json")),
        read(&whole.join("buckets.json"))
    );
}

#[test]
fn killed_campaign_resumes_without_counting_hits_twice() {
    let (d, whole) = (tmp("killed"), tmp("unkilled"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_farm"))
        .args([
            "fuzz", "--cases", "150", "--jobs", "2", "--quiet", "--inject", BUG, "--out",
        ])
        .arg(&d)
        .spawn()
        .unwrap();
    let t = Instant::now();
    while !d.join("buckets.json").exists() && t.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(fuzz(&d, "150", true).status.code(), Some(1));
    assert_eq!(fuzz(&whole, "150", false).status.code(), Some(1));
    assert_eq!(check_buckets_reduced(&d), check_buckets_reduced(&whole));
}

#[test]
fn a_reduced_finding_goes_into_the_corpus_once() {
    let (d, corpus) = (tmp("corpus-campaign"), tmp("corpus"));
    assert_eq!(fuzz(&d, "20", false).status.code(), Some(1));
    let b = json(&d.join("buckets.json"));
    let sig = b["buckets"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let finding = d.join("findings").join(&sig);
    // `farm reduce FINDING_DIR` writes into FINDING_DIR/reduced/ again.
    let before = read(&finding.join("reduced/report.json"));
    std::fs::remove_dir_all(finding.join("reduced")).unwrap();
    let o = farm(&["reduce", finding.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(read(&finding.join("reduced/report.json")), before);
    let rep = json(&finding.join("reduced/report.json"));
    let name = rep["signature"]["name"].as_str().unwrap();
    let options = rep["repro"]
        .as_str()
        .unwrap()
        .strip_prefix("farm run reduced.sir ")
        .unwrap();
    let args = [
        "corpus",
        "add",
        finding.to_str().unwrap(),
        "--corpus",
        corpus.to_str().unwrap(),
    ];
    let o = farm(&args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let dest = corpus.join("regressions").join(format!("{name}.sir"));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!(
            "added {}\nreplayed by `cargo test`: it must keep failing with this signature \
             (the injected bug stays caught)\n",
            dest.display()
        )
    );
    let added = read(&dest);
    let reduced = read(&finding.join("reduced/reduced.sir"));
    assert_eq!(
        added,
        format!(
            "// config: {options}\n// signature: {name}\n{}",
            reduced.split_once('\n').unwrap().1
        )
    );
    let case = ir::parse_case(&added).unwrap();
    assert_eq!(ir::print_case(&case), added);
    // A second add refuses to overwrite and leaves the file alone.
    std::fs::write(&dest, "kept\n").unwrap();
    let o = farm(&args);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: {} already exists; not overwriting it (remove it first to replace it)\n",
            dest.display()
        )
    );
    assert_eq!(read(&dest), "kept\n");
}
