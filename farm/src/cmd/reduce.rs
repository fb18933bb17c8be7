//! `farm reduce FILE.sir|FINDING_DIR`: minimize a failing case while it
//! shows the same bug, and write `reduced.sir` with its report.

use crate::inputs::read_case;
use crate::output::emit;
use anyhow::{bail, Context, Result};
use compiler::{BugSet, PassSet, Strategy};
use farm::campaign::findings::FindingConfig;
use farm::campaign::reduce::{
    reduce_driver_into, reduce_into, ReduceOptions, DRIVER_MAX_CHECKS, MAX_CHECKS,
};
use farm::target::Target;
use oracle::driver::Driver;
use oracle::Config;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Options of `farm reduce`.
#[derive(clap::Args)]
pub struct Args {
    /// A .sir case, or a finding directory (with case.sir and config.json).
    path: PathBuf,
    /// Boolean strategy (default: the finding's, the file's `// config:` line, or bool32).
    #[arg(long, value_parser = |s: &str| s.parse::<Strategy>())]
    strategy: Option<Strategy>,
    /// Backend: scalar or vec4 (the same as --strategy vec4).
    #[arg(long, value_parser = |s: &str| s.parse::<compiler::Backend>())]
    backend: Option<compiler::Backend>,
    /// SIMD width (default: the finding's, the file's `// config:` line, or
    /// 16; 8 for vec4).
    #[arg(long, value_parser = crate::inputs::parse_simd)]
    simd: Option<u32>,
    /// Passes (default: the finding's, the file's `// config:` line, or all).
    #[arg(long, value_parser = |s: &str| PassSet::parse(s))]
    passes: Option<PassSet>,
    /// Injected bugs (default: the finding's, the file's `// config:` line, or none).
    #[arg(long, value_parser = |s: &str| BugSet::parse(s))]
    inject: Option<BugSet>,
    /// Output directory (default: FINDING_DIR/reduced/, or FILE.reduced/ next to FILE.sir).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep the strategy and pass set; minimize only the case.
    #[arg(long)]
    keep_config: bool,
    /// Most candidate checks the reducer makes (default: 20000 for the
    /// model, 800 for a driver, where each check runs the case on it twice).
    #[arg(long)]
    max_checks: Option<usize>,
    /// Reduce against a Vulkan driver (vulkan or vulkan:NAME) instead of the
    /// model; a driver finding directory says its own target.
    #[arg(long, value_parser = |s: &str| s.parse::<Target>())]
    target: Option<Target>,
}

/// The case, its config, the default output directory, and the driver
/// target of a driver finding.
fn load(a: &Args) -> Result<(ir::Case, Config, PathBuf, String, Option<Target>)> {
    if a.path.is_dir() {
        let case = read_case(&a.path.join("case.sir"))?;
        let cfg_path = a.path.join("config.json");
        let text = std::fs::read_to_string(&cfg_path)
            .with_context(|| format!("{} is not a finding directory", a.path.display()))?;
        let fc: FindingConfig = serde_json::from_str(&text)
            .map_err(|e| farm::durable::json_error(&cfg_path.display().to_string(), &e))?;
        let what = format!("{}", a.path.display());
        let target = (!fc.is_model())
            .then(|| fc.target.parse::<Target>())
            .transpose()
            .map_err(|e| anyhow::anyhow!("{}: {e}", cfg_path.display()))?;
        return Ok((case, fc.config()?, a.path.join("reduced"), what, target));
    }
    let case = read_case(&a.path)?;
    let text = std::fs::read_to_string(&a.path)?;
    let base = Config::new(Strategy::Bool32, 16, PassSet::all());
    let config = crate::inputs::config_line(&text, &base)
        .map_err(|e| anyhow::anyhow!("{}:1: {e}", a.path.display()))?
        .unwrap_or(base);
    let stem = a
        .path
        .file_stem()
        .map_or("case".into(), |s| s.to_string_lossy().into_owned());
    let out = a
        .path
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("{stem}.reduced"));
    Ok((case, config, out, a.path.display().to_string(), None))
}

/// Runs the command: exit 0 when the case was reduced and the report written.
pub fn run(a: Args) -> Result<ExitCode> {
    let (case, mut config, default_out, what, found_on) = load(&a)?;
    // A driver finding runs at its own subgroup size; a file at the device's.
    let simd = a.simd.or(found_on.is_some().then_some(config.simd));
    if let Some(t) = a.target.clone().or(found_on).filter(Target::is_driver) {
        if case.dispatch.is_none() {
            bail!("{what} has no dispatch section: nothing to run it over");
        }
        let out = a.out.clone().unwrap_or(default_out);
        return reduce_on_driver(&a, &case, &t, simd, out, &what);
    }
    crate::inputs::apply_backend(&mut config, a.strategy, a.backend, a.simd)?;
    if let Some(p) = &a.passes {
        config.passes = p.clone();
    }
    if let Some(b) = a.inject {
        config.bugs = b;
    }
    if case.dispatch.is_none() {
        bail!("{what} has no dispatch section: nothing to run it over");
    }
    let out = a.out.clone().unwrap_or(default_out);
    let opts = ReduceOptions {
        minimize_config: !a.keep_config,
        max_checks: a.max_checks.unwrap_or(MAX_CHECKS),
    };
    let r = reduce_into(
        &out,
        &case,
        &config,
        opts,
        &Arc::new(AtomicBool::new(false)),
    )
    .with_context(|| what.clone())?;
    let rep = &r.report;
    let mut text = format!(
        "reduced {what} ({config}) in {} checks\nsignature: {}\nconfig: {}\n",
        r.checks, rep.signature.name, r.config
    );
    if !rep.lanes.is_empty() {
        text.push_str(&format!("{} lane/slot pairs differ\n", rep.lanes.len()));
    }
    text.push_str(&format!(
        "wrote {}, report.md, report.json\nrepro (in {}): {}\n",
        out.join(triage::report::CASE_FILE).display(),
        out.display(),
        rep.repro
    ));
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// Reduces `case` against driver target `t`.
fn reduce_on_driver(
    a: &Args,
    case: &ir::Case,
    t: &Target,
    simd: Option<u32>,
    out: PathBuf,
    what: &str,
) -> Result<ExitCode> {
    let Target::Vulkan { selector } = t else {
        bail!("`{t}` is not a driver target");
    };
    let mut driver = Driver::open(
        farm::target::own_worker_command()?,
        selector.as_deref(),
        simd,
    )?;
    let r = reduce_driver_into(
        &out,
        case,
        &mut driver,
        a.max_checks.unwrap_or(DRIVER_MAX_CHECKS),
        &Arc::new(AtomicBool::new(false)),
    )
    .with_context(|| what.to_string())?;
    let mut text = format!(
        "reduced {what} on {}\nsignature: {}\n",
        driver.describe(),
        r.signature.name
    );
    if !r.lanes.is_empty() {
        text.push_str(&format!("{} lane/slot pairs differ\n", r.lanes.len()));
    }
    text.push_str(&format!(
        "wrote {}: reduced.sir, reduced.spvasm, repro.shader_test, report.md, report.json\nrepro (in {}): {}\n         or: {}\n",
        out.display(),
        out.display(),
        r.repro[0],
        r.repro[1]
    ));
    emit(&text)?;
    Ok(ExitCode::SUCCESS)
}
