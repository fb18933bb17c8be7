//! `farm run`: compile, simulate and compare one case under one config.

use crate::cmd::compile::{dump, ConfigArgs};
use crate::inputs::{choose_dispatch, read_case};
use crate::output::emit;
use anyhow::Result;
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
}

/// Runs the command: exit 0 when every lane agrees, 1 when the case fails,
/// 2 when it cannot be judged (undefined behaviour, bad input).
pub fn run(a: Args) -> Result<ExitCode> {
    let mut case = read_case(&a.file)?;
    let config = a.config.config(&a.file)?;
    let dispatch = choose_dispatch(&case, a.inputs.as_deref(), a.lanes)?;
    case.dispatch = Some(dispatch);
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
