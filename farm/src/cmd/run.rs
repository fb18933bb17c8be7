//! `farm run`: compile, simulate and compare one case under one config.

use crate::cmd::compile::{dump, ConfigArgs};
use crate::inputs::{choose_dispatch, read_case};
use crate::output::emit;
use anyhow::Result;
use farm::target::Target;
use oracle::driver::Driver;
use oracle::{Capture, Session, Verdict};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm run`.
#[derive(clap::Args)]
pub struct Args {
    /// The .sir case.
    file: PathBuf,
    #[command(flatten)]
    config: ConfigArgs,
    /// Number of invocations (default: the case's dispatch, else 16).
    #[arg(long)]
    lanes: Option<u32>,
    /// Per-lane inputs and uniforms as JSON.
    #[arg(long)]
    inputs: Option<PathBuf>,
    /// Print the program after every stage that changed it.
    #[arg(long)]
    dump_passes: bool,
    /// Print the verdict as JSON (for scripts).
    #[arg(long)]
    json: bool,
    /// The compiler under test: model (our brw model on the EU simulator),
    /// vulkan (the first Vulkan device) or vulkan:NAME (the first whose
    /// device or driver name contains NAME, e.g. llvmpipe or Intel).
    #[arg(long, default_value = "model", value_parser = |s: &str| s.parse::<Target>())]
    target: Target,
}

/// Runs the command: exit 0 when every lane agrees, 1 when the case fails,
/// 2 when it cannot be judged (undefined behaviour, bad input).
pub fn run(a: Args) -> Result<ExitCode> {
    let mut case = read_case(&a.file)?;
    let config = a.config.config(&a.file)?;
    let dispatch = choose_dispatch(&case, a.inputs.as_deref(), a.lanes)?;
    case.dispatch = Some(dispatch);
    if let Target::Vulkan { selector } = &a.target {
        return run_driver(&case, selector.as_deref(), a.config.simd, a.json);
    }
    if a.dump_passes && !a.json {
        let session = Session::run(&case.program, &config, Capture::Programs);
        emit(&dump(&session))?;
    }
    let v = oracle::check(&case, &config);
    let culprit = farm::is_finding(&v)
        .then(|| oracle::localize(&case, &config).culprit())
        .flatten();
    if a.json {
        let mut doc = verdict_json(&v, &config.to_string(), culprit);
        doc["signature"] = serde_json::json!(farm::is_finding(&v)
            .then(|| triage::signature::Signature::of_model(&case, &config, &v).name()));
        emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
    } else {
        let mut out = format!("{config}: {v}\n");
        if let Some(c) = culprit {
            out.push_str(&format!("culprit: {c}\n"));
        }
        emit(&out)?;
    }
    Ok(exit_code(&v))
}

/// Runs the case on a Vulkan device and compares it with the oracle at the
/// device's subgroup size.
fn run_driver(
    case: &ir::Case,
    selector: Option<&str>,
    simd: Option<u32>,
    json: bool,
) -> Result<ExitCode> {
    let o = DriverOutcome::run(case, selector, simd)?;
    if json {
        emit(&(serde_json::to_string_pretty(&o.json())? + "\n"))?;
    } else {
        emit(&o.text())?;
    }
    Ok(exit_code(&o.run.verdict))
}

/// One case on a Vulkan driver: the run, its signature if it fails, and
/// the device.
pub struct DriverOutcome {
    /// The verdict, exclusions and timings.
    pub run: oracle::driver::DriverRun,
    /// The signature of a failing run.
    pub signature: Option<String>,
    /// The device and driver.
    pub info: vulkan::DeviceInfo,
    /// The target name (`vulkan:DRIVER`).
    pub target: String,
}

impl DriverOutcome {
    /// Opens the device (`selector`, at subgroup size `simd` or its own)
    /// and runs `case` on it.
    pub fn run(
        case: &ir::Case,
        selector: Option<&str>,
        simd: Option<u32>,
    ) -> Result<DriverOutcome> {
        let mut driver = Driver::open(farm::target::own_worker_command()?, selector, simd)?;
        let run = driver.check(case);
        let signature = farm::is_finding(&run.verdict).then(|| {
            triage::signature::Signature::of_driver(case, &mut driver, &run.verdict).name()
        });
        Ok(DriverOutcome {
            run,
            signature,
            info: driver.info().clone(),
            target: driver.target_name(),
        })
    }

    /// The `--json` form.
    pub fn json(&self) -> serde_json::Value {
        let (r, info) = (&self.run, &self.info);
        let mut doc = verdict_json(
            &r.verdict,
            &format!("--target {} --simd {}", self.target, r.simd),
            None,
        );
        doc["signature"] = serde_json::json!(self.signature);
        doc["device"] = serde_json::json!({
            "name": info.name,
            "driver": info.driver_name,
            "driver_info": info.driver_info,
            "api_version": info.api_version.to_string(),
        });
        doc["excluded"] = serde_json::json!(r.excluded.to_string());
        doc["timings_ms"] = serde_json::json!({
            "export": r.timings.export.as_secs_f64() * 1e3,
            "pipeline_create": r.timings.pipeline_create.as_secs_f64() * 1e3,
            "dispatch": r.timings.dispatch.as_secs_f64() * 1e3,
        });
        doc
    }

    /// The text form: device and verdict, what was not compared, the
    /// signature, where the time went.
    pub fn text(&self) -> String {
        let (r, info) = (&self.run, &self.info);
        let mut out = format!(
            "{} ({}, {}, API {}), subgroup size {}: {}\n",
            info.name, info.driver_name, info.driver_info, info.api_version, r.simd, r.verdict
        );
        if !r.excluded.is_empty() {
            out.push_str(&format!(
                "not compared (the Vulkan spec allows the driver to differ): {}\n",
                r.excluded
            ));
        }
        if let Some(sig) = &self.signature {
            out.push_str(&format!("signature: {sig}\n"));
        }
        out.push_str(&format!(
            "export {:.2} ms, pipeline {:.2} ms, dispatch {:.2} ms\n",
            r.timings.export.as_secs_f64() * 1e3,
            r.timings.pipeline_create.as_secs_f64() * 1e3,
            r.timings.dispatch.as_secs_f64() * 1e3
        ));
        out
    }
}

/// The exit status of a verdict: 0 pass, 2 when the case cannot be judged,
/// 1 otherwise.
pub fn exit_code(v: &Verdict) -> ExitCode {
    match v {
        Verdict::Pass => ExitCode::SUCCESS,
        Verdict::InvalidCase(_) | Verdict::Unsupported(_) => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

/// A verdict as JSON: its kind, text, config, culprit and per-lane
/// differences (for `--json`).
pub fn verdict_json(
    v: &Verdict,
    config: &str,
    culprit: Option<compiler::StageId>,
) -> serde_json::Value {
    let diffs: Vec<serde_json::Value> = match v {
        Verdict::Mismatch { diffs } => diffs
            .iter()
            .map(|d| serde_json::json!({"lane": d.lane, "slot": d.slot, "expected": d.expected, "got": d.got}))
            .collect(),
        _ => vec![],
    };
    serde_json::json!({
        "config": config,
        "kind": v.kind(),
        "verdict": v.to_string().lines().next().unwrap_or(""),
        "culprit": culprit.map(|c| c.to_string()),
        "diffs": diffs,
    })
}
