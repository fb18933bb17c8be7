//! The profile-guided build (`cargo xtask pgo`): its binary gives the
//! verdicts of the ordinary build.
//!
//! The pipeline builds the farm twice from scratch (about three minutes
//! with the quick `pgo-check` profile on two cores), so this runs in the
//! long tier only (`SHADERFARM_LONG_TESTS=1`, which `.ci/run` sets).

use std::path::{Path, PathBuf};
use std::process::Command;
use xtask::compare::differences;
use xtask::pgo::{self, Options};

const CASES: u64 = 300;
const SEED: u64 = 5_000;

/// This run's scratch space: two target directories (about 800 MB),
/// removed when the test passes.
fn scratch_root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("farm-pgo-{}", std::process::id()))
}

fn scratch(name: &str) -> PathBuf {
    let dir = scratch_root().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `farm fuzz` with `args` and `--out out`; a campaign that finds
/// something exits with 1.
fn fuzz(farm: &Path, args: &[&str], out: &Path) {
    let o = Command::new(farm)
        .arg("fuzz")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{} {args:?}: {}\n{}",
        farm.display(),
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn the_profile_guided_binary_gives_the_ordinary_builds_verdicts() {
    if std::env::var_os("SHADERFARM_LONG_TESTS").is_none_or(|v| v != "1") {
        return;
    }
    let dir = scratch("build");
    let opts = Options {
        cases: CASES,
        seed: SEED,
        profile: "pgo-check".into(),
        target_dir: dir.clone(),
    };
    let binary = pgo::run(&opts, &mut |line| eprintln!("{line}")).unwrap();
    assert_eq!(
        binary,
        dir.join(format!("farm{}", std::env::consts::EXE_SUFFIX))
    );
    let ordinary = Path::new(env!("CARGO_BIN_EXE_farm"));

    // The training campaign, run again by this package's own (test) build:
    // the instrumented binary's outputs and the check campaign's must be
    // what it gives.
    let reference = scratch("reference");
    let cases = CASES.to_string();
    let seed = SEED.to_string();
    let training = ["--quiet", "--jobs", "1", "--cases", &cases, "--seed", &seed];
    fuzz(ordinary, &training, &reference);
    for run in [dir.join("train/default"), dir.join("check")] {
        assert_eq!(
            differences(&reference, &run).unwrap(),
            Vec::<String>::new(),
            "{}",
            run.display()
        );
    }

    // A campaign with findings (localized and reduced in the background),
    // two jobs, other seeds: the same findings from both binaries.
    let injected = [
        "--quiet",
        "--jobs",
        "2",
        "--cases",
        "400",
        "--seed",
        "77",
        "--inject",
        "dce-predicated-kill,regalloc-loop-exit-live",
    ];
    let (a, b) = (scratch("injected-ordinary"), scratch("injected-pgo"));
    fuzz(ordinary, &injected, &a);
    fuzz(&binary, &injected, &b);
    assert!(
        std::fs::read_dir(a.join("findings")).unwrap().count() > 0,
        "the injected campaign found nothing: it compares too little"
    );
    assert_eq!(differences(&a, &b).unwrap(), Vec::<String>::new());

    // The profile was made from the training: it counts the campaign's
    // case loop.
    let tool = pgo::llvm_profdata().unwrap();
    let show = Command::new(tool)
        .args(["show", "--function=_ZN4farm8campaign4case8run_case"])
        .arg(dir.join("farm.profdata"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&show.stdout);
    assert!(
        text.contains("_ZN4farm8campaign4case8run_case"),
        "run_case is not in the profile:\n{text}"
    );
    std::fs::remove_dir_all(scratch_root()).unwrap();
}
