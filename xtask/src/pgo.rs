//! The profile-guided build of the farm binary (`cargo xtask pgo`).
//!
//! The compiler model is branchy code whose hot paths a campaign decides
//! (which passes fire, which operand shapes occur); LLVM lays it out and
//! inlines it better when it knows them. The pipeline:
//!
//! 1. **Instrumented build** (`DIR/instrumented`, `-Cprofile-generate`).
//! 2. **Training**: a default-mix campaign (feedback on, one job; the
//!    campaigns a night runs) and a smaller one with injected bugs, so the
//!    localization, reduction and report paths are in the profile too.
//!    Their seeds start at [`DEFAULT_SEED`], away from the seeds campaigns
//!    and measurements start at.
//! 3. **Merge** the raw profiles with the toolchain's `llvm-profdata`
//!    (`rustup component add llvm-tools`) into `DIR/farm.profdata`.
//! 4. **Optimized build** (`DIR/optimized`, `-Cprofile-use`).
//! 5. **Check**: the optimized binary runs the default-mix training
//!    campaign again, which must come out as the instrumented binary's did
//!    (`stats.json` without timings, `buckets.json`, `findings/`; see
//!    [`crate::compare`]). Only then is the binary copied to `DIR/farm`.
//!
//! Each build has its own target directory: the two differ in their
//! compiler flags, and sharing one would rebuild everything each time.
//! The flags go in through `CARGO_ENCODED_RUSTFLAGS`, after any flags
//! `CARGO_ENCODED_RUSTFLAGS` or `RUSTFLAGS` already held (such a variable
//! replaces `build.rustflags` of cargo's config files, as cargo does).
//! Both builds name the host as their `--target`, so that the flags reach
//! only the farm's own code and libraries: build scripts and procedural
//! macros, which run during the build, are neither instrumented nor
//! profiled. Only the farm's raw profiles (`farm-*.profraw`) are merged.

use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Cases of the default-mix training campaign.
pub const DEFAULT_CASES: u64 = 4000;
/// Base seed of the training campaigns.
pub const DEFAULT_SEED: u64 = 1_000_000_000;
/// The bugs the second training campaign injects: one each in DCE, CSE,
/// the spiller and register allocation, which campaigns find quickly
/// (so findings are localized, reduced and reported while it runs).
pub const TRAINING_BUGS: &str =
    "dce-predicated-kill,cse-flag-only-stale,spill-first-half-mask,regalloc-loop-exit-live";
/// How the farm's raw profiles are named (`LLVM_PROFILE_FILE`).
const PROFILE_PREFIX: &str = "farm-";
/// The injected-bug campaign runs this fraction of the default one's cases.
const INJECTED_SHARE: u64 = 10;

/// What `cargo xtask pgo` builds, and where (its command-line options).
#[derive(Clone, Debug, clap::Args)]
pub struct Options {
    /// Cases of the default-mix training campaign (the check campaign runs
    /// the same cases again with the optimized binary)
    #[arg(long, default_value_t = DEFAULT_CASES)]
    pub cases: u64,
    /// Base seed of the training campaigns (far from the seeds campaigns
    /// and measurements start at by default)
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Cargo profile of both builds (`pgo-check` is a quick build for
    /// testing the pipeline; campaigns want `release`)
    #[arg(long, default_value = "release")]
    pub profile: String,
    /// Where the builds, profiles and campaigns go, and the binary at the
    /// end: DIR/farm (default: the target directory's `pgo/`)
    #[arg(long, default_value_os_t = default_target_dir(), hide_default_value = true)]
    pub target_dir: PathBuf,
}

/// The workspace's root (this crate's parent directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lies inside the workspace")
        .to_path_buf()
}

/// `pgo/` in cargo's target directory (`CARGO_TARGET_DIR`, else the
/// workspace's `target/`).
pub fn default_target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
        .join("pgo")
}

/// Runs the whole pipeline and returns the optimized binary's path
/// (`DIR/farm`). `log` gets one line per step.
pub fn run(opts: &Options, log: &mut dyn FnMut(&str)) -> Result<PathBuf> {
    if opts.cases == 0 {
        bail!("--cases must be at least 1");
    }
    let dir = absolute(&opts.target_dir)?;
    let host = host()?;
    let profdata_tool = llvm_profdata()?;
    let raw = dir.join("profiles");
    let profdata = dir.join("farm.profdata");
    let train = dir.join("train");
    let check = dir.join("check");
    let out = dir.join(format!("farm{}", std::env::consts::EXE_SUFFIX));
    // A failed run must not leave an earlier run's binary looking like
    // its result.
    for stale in [&raw, &train, &check, &profdata, &out] {
        remove(stale)?;
    }
    std::fs::create_dir_all(&raw).with_context(|| format!("creating {}", raw.display()))?;

    log(&format!("pgo: instrumented build ({})", opts.profile));
    let generate = format!("-Cprofile-generate={}", raw.display());
    let instrumented = build(&opts.profile, &host, &dir.join("instrumented"), &generate)?;

    let default_run = campaign_args(opts.cases, opts.seed, &train.join("default"), None);
    let injected_cases = opts.cases.div_ceil(INJECTED_SHARE);
    let injected_run = campaign_args(
        injected_cases,
        opts.seed,
        &train.join("injected"),
        Some(TRAINING_BUGS),
    );
    for (what, args, out) in [
        ("default mix", &default_run, train.join("default")),
        ("injected bugs", &injected_run, train.join("injected")),
    ] {
        log(&format!("pgo: training campaign, {what}"));
        let ran = campaign(&instrumented, args, &out, Some(&raw))?;
        log(&format!("pgo:   {ran}"));
    }

    log("pgo: merging the profiles");
    let raw_files = farm_profiles(&raw)?;
    if raw_files.is_empty() {
        bail!(
            "the training campaigns left no profile in {}",
            raw.display()
        );
    }
    let mut merge = Command::new(&profdata_tool);
    merge.arg("merge").arg("-o").arg(&profdata).args(&raw_files);
    run_command(&mut merge, "llvm-profdata merge")?;

    log("pgo: optimized build");
    let use_flag = format!("-Cprofile-use={}", profdata.display());
    let optimized = build(&opts.profile, &host, &dir.join("optimized"), &use_flag)?;

    log("pgo: check campaign (the default-mix training campaign again)");
    let args = campaign_args(opts.cases, opts.seed, &check, None);
    let ran = campaign(&optimized, &args, &check, None)?;
    log(&format!("pgo:   {ran}"));
    let differences = crate::compare::differences(&train.join("default"), &check)?;
    if !differences.is_empty() {
        bail!(
            "the optimized binary's campaign differs from the instrumented one's ({} and {}):\n  {}",
            train.join("default").display(),
            check.display(),
            differences.join("\n  ")
        );
    }
    std::fs::copy(&optimized, &out)
        .with_context(|| format!("copying {} to {}", optimized.display(), out.display()))?;
    log(&format!(
        "pgo: {} (its check campaign came out as the training campaign did)",
        out.display()
    ));
    Ok(out)
}

/// The `farm fuzz` arguments of a training or check campaign.
fn campaign_args(cases: u64, seed: u64, out: &Path, inject: Option<&str>) -> Vec<OsString> {
    let mut args: Vec<OsString> = ["fuzz", "--quiet", "--jobs", "1"]
        .into_iter()
        .map(OsString::from)
        .collect();
    args.extend([
        "--cases".into(),
        cases.to_string().into(),
        "--seed".into(),
        seed.to_string().into(),
        "--out".into(),
        out.as_os_str().to_owned(),
    ]);
    if let Some(bugs) = inject {
        args.extend([
            "--inject".into(),
            bugs.into(),
            "--feedback".into(),
            "off".into(),
        ]);
    }
    args
}

/// Runs one campaign of `farm` (`args` name its output directory `out`);
/// raw profiles go to `raw` when given. Exit code 1 (something found) is
/// a campaign's normal outcome. Returns a line on what it ran.
fn campaign(farm: &Path, args: &[OsString], out: &Path, raw: Option<&Path>) -> Result<String> {
    let mut cmd = Command::new(farm);
    cmd.args(args);
    if let Some(raw) = raw {
        // One file per process and binary signature, merged afterwards.
        cmd.env(
            "LLVM_PROFILE_FILE",
            raw.join(format!("{PROFILE_PREFIX}%p-%m.profraw")),
        );
    }
    let o = cmd
        .output()
        .with_context(|| format!("starting {}", farm.display()))?;
    if !matches!(o.status.code(), Some(0 | 1)) {
        bail!(
            "{} {args:?} failed ({}):\n{}",
            farm.display(),
            o.status,
            String::from_utf8_lossy(&o.stderr).trim_end()
        );
    }
    let path = out.join("stats.json");
    let text = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let stats: serde_json::Value =
        serde_json::from_slice(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    Ok(format!(
        "{} cases, {} config-runs ({:.0}/s), {} findings",
        stats["cases"],
        stats["config_runs"],
        stats["config_runs_per_s"].as_f64().unwrap_or(0.0),
        stats["findings"]
    ))
}

/// The farm's raw profiles in `raw`, in name order.
fn farm_profiles(raw: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(raw).with_context(|| format!("listing {}", raw.display()))? {
        let path = entry
            .with_context(|| format!("listing {}", raw.display()))?
            .path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with(PROFILE_PREFIX) && name.ends_with(".profraw") && path.is_file() {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

/// Builds the farm binary for `host` under `profile` in `target_dir` with
/// one more compiler flag; returns the binary's path.
fn build(profile: &str, host: &str, target_dir: &Path, flag: &str) -> Result<PathBuf> {
    let flags = encoded_rustflags(
        std::env::var("CARGO_ENCODED_RUSTFLAGS").ok().as_deref(),
        std::env::var("RUSTFLAGS").ok().as_deref(),
        flag,
    );
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.arg("build")
        .arg("--manifest-path")
        .arg(workspace_root().join("Cargo.toml"))
        .args(["--package", "farm", "--bin", "farm", "--profile", profile])
        .args(["--target", host])
        .arg("--target-dir")
        .arg(target_dir)
        .env("CARGO_ENCODED_RUSTFLAGS", flags)
        .env_remove("RUSTFLAGS");
    run_command(&mut cmd, "cargo build")?;
    Ok(target_dir
        .join(host)
        .join(profile_dir(profile))
        .join(format!("farm{}", std::env::consts::EXE_SUFFIX)))
}

/// The flags for `CARGO_ENCODED_RUSTFLAGS` (separated by 0x1f): those of
/// `encoded` if it has any, else those of `plain` (`RUSTFLAGS`, separated
/// by whitespace), then `flag`.
fn encoded_rustflags(encoded: Option<&str>, plain: Option<&str>, flag: &str) -> String {
    let mut flags: Vec<&str> = match (encoded, plain) {
        (Some(e), _) if !e.is_empty() => e.split('\x1f').collect(),
        (_, Some(p)) => p.split_whitespace().collect(),
        _ => Vec::new(),
    };
    flags.push(flag);
    flags.join("\x1f")
}

/// The directory under the target directory that a cargo profile's
/// output goes to.
fn profile_dir(profile: &str) -> &str {
    match profile {
        "dev" | "test" => "debug",
        "bench" => "release",
        other => other,
    }
}

fn rustc() -> OsString {
    std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into())
}

/// The host's target triple, as rustc names it.
fn host() -> Result<String> {
    let version = output(Command::new(rustc()).arg("-vV"))?;
    let host = host_triple(&version).context("`rustc -vV` names no host")?;
    Ok(host.to_string())
}

/// The toolchain's `llvm-profdata` (from rustup's `llvm-tools`
/// component): it must read the profile format of rustc's own LLVM.
pub fn llvm_profdata() -> Result<PathBuf> {
    let sysroot = output(Command::new(rustc()).args(["--print", "sysroot"]))?;
    let path = profdata_path(Path::new(sysroot.trim()), &host()?);
    if !path.is_file() {
        bail!(
            "{} not found: install the toolchain's LLVM tools with `rustup component add llvm-tools`",
            path.display()
        );
    }
    Ok(path)
}

/// The host triple in `rustc -vV`'s output.
fn host_triple(version: &str) -> Option<&str> {
    version
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::trim)
}

/// Where rustup's `llvm-tools` puts `llvm-profdata` in a sysroot.
fn profdata_path(sysroot: &Path, host: &str) -> PathBuf {
    sysroot
        .join("lib/rustlib")
        .join(host)
        .join("bin")
        .join(format!("llvm-profdata{}", std::env::consts::EXE_SUFFIX))
}

fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .output()
        .with_context(|| format!("starting {:?}", cmd.get_program()))?;
    if !out.status.success() {
        bail!(
            "{:?} failed ({}): {}",
            cmd.get_program(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8(out.stdout).context("output is not UTF-8")
}

fn run_command(cmd: &mut Command, what: &str) -> Result<()> {
    let status = cmd.status().with_context(|| format!("starting {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path).with_context(|| format!("{}: no absolute path", path.display()))
}

/// Removes a file or a directory tree; one that is not there is no error.
fn remove(path: &Path) -> Result<()> {
    let removed = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    match removed {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", path.display()))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustflags_keep_the_callers_flags_before_the_new_one() {
        let f = "-Cprofile-use=/p/farm.profdata";
        assert_eq!(encoded_rustflags(None, None, f), f);
        assert_eq!(
            encoded_rustflags(None, Some("  -C target-cpu=native  -g "), f),
            format!("-C\x1ftarget-cpu=native\x1f-g\x1f{f}")
        );
        // The encoded form wins, and keeps a flag's spaces.
        assert_eq!(
            encoded_rustflags(Some("--cfg\x1ffoo=\"a b\""), Some("-g"), f),
            format!("--cfg\x1ffoo=\"a b\"\x1f{f}")
        );
        // An empty encoded form counts as unset, as cargo reads it.
        assert_eq!(
            encoded_rustflags(Some(""), Some("-g"), f),
            format!("-g\x1f{f}")
        );
    }

    #[test]
    fn profiles_map_to_cargos_output_directories() {
        assert_eq!(profile_dir("release"), "release");
        assert_eq!(profile_dir("bench"), "release");
        assert_eq!(profile_dir("dev"), "debug");
        assert_eq!(profile_dir("test"), "debug");
        assert_eq!(profile_dir("pgo-check"), "pgo-check");
    }

    #[test]
    fn llvm_profdata_is_found_in_the_sysroot_of_the_host() {
        let version = "rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\n\
                       host: x86_64-unknown-linux-gnu\nrelease: 1.95.0\n";
        assert_eq!(host_triple(version), Some("x86_64-unknown-linux-gnu"));
        assert_eq!(host_triple("rustc 1.95.0\n"), None);
        assert_eq!(
            profdata_path(Path::new("/t/stable"), "x86_64-unknown-linux-gnu"),
            PathBuf::from(format!(
                "/t/stable/lib/rustlib/x86_64-unknown-linux-gnu/bin/llvm-profdata{}",
                std::env::consts::EXE_SUFFIX
            ))
        );
    }

    #[test]
    fn training_campaigns_run_one_job_from_the_seed() {
        let args = |a: Vec<OsString>| -> Vec<String> {
            a.into_iter().map(|s| s.into_string().unwrap()).collect()
        };
        assert_eq!(
            args(campaign_args(4000, 7, Path::new("/o/d"), None)),
            ["fuzz", "--quiet", "--jobs", "1", "--cases", "4000", "--seed", "7", "--out", "/o/d"]
        );
        assert_eq!(
            args(campaign_args(400, 7, Path::new("/o/i"), Some("a,b"))),
            [
                "fuzz",
                "--quiet",
                "--jobs",
                "1",
                "--cases",
                "400",
                "--seed",
                "7",
                "--out",
                "/o/i",
                "--inject",
                "a,b",
                "--feedback",
                "off"
            ]
        );
    }

    #[test]
    fn only_the_farms_raw_profiles_are_merged() {
        let raw = std::env::temp_dir().join(format!("xtask-raw-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&raw);
        std::fs::create_dir_all(raw.join("farm-9-x.profraw")).unwrap();
        for name in [
            "farm-12-a.profraw",
            "default_77_0.profraw",
            "farm-3-b.txt",
            "farm-11-c.profraw",
        ] {
            std::fs::write(raw.join(name), "").unwrap();
        }
        assert_eq!(
            farm_profiles(&raw).unwrap(),
            vec![raw.join("farm-11-c.profraw"), raw.join("farm-12-a.profraw")]
        );
    }

    #[test]
    fn stale_files_and_trees_are_removed_and_absent_ones_are_no_error() {
        let dir = std::env::temp_dir().join(format!("xtask-stale-{}", std::process::id()));
        let (tree, file) = (dir.join("train"), dir.join("farm"));
        std::fs::create_dir_all(tree.join("default/findings")).unwrap();
        std::fs::write(tree.join("default/stats.json"), "{}").unwrap();
        std::fs::write(&file, "old binary").unwrap();
        for path in [&tree, &file, &dir.join("absent")] {
            remove(path).unwrap();
        }
        assert!(!tree.exists() && !file.exists());
        assert!(dir.is_dir());
    }

    #[test]
    fn no_cases_is_refused_before_anything_is_built() {
        let opts = Options {
            cases: 0,
            seed: 0,
            profile: "release".into(),
            target_dir: PathBuf::from("/nonexistent/pgo"),
        };
        let err = run(&opts, &mut |_| {}).unwrap_err();
        assert_eq!(err.to_string(), "--cases must be at least 1");
    }
}
