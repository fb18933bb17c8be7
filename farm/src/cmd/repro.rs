//! `farm repro DIR`: re-run a finding exactly.

use crate::output::emit;
use anyhow::{Context, Result};
use farm::campaign::findings::{FindingConfig, FindingVerdict};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm repro`.
#[derive(clap::Args)]
pub struct Args {
    /// A finding directory (with case.sir, config.json, verdict.json).
    dir: PathBuf,
}

/// Runs the command: exit 1 when the failure reproduces, 0 when it no longer does.
pub fn run(a: Args) -> Result<ExitCode> {
    let case = crate::inputs::read_case(&a.dir.join("case.sir"))?;
    let cfg_path = a.dir.join("config.json");
    let text = std::fs::read_to_string(&cfg_path)
        .with_context(|| format!("cannot read {}", cfg_path.display()))?;
    let fc: FindingConfig = serde_json::from_str(&text)
        .map_err(|e| farm::durable::json_error(&cfg_path.display().to_string(), &e))?;
    let config = fc.config()?;
    let recorded: Option<FindingVerdict> = std::fs::read_to_string(a.dir.join("verdict.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let v = oracle::check(&case, &config);
    let mut out = format!("{config}: {v}\n");
    let trail = oracle::localize(&case, &config);
    if let Some(c) = trail.culprit() {
        out.push_str(&format!("culprit: {c}\n"));
    }
    match recorded {
        Some(r) if r.kind == v.kind() => out.push_str(&format!("reproduced ({})\n", r.signature)),
        Some(r) => out.push_str(&format!("recorded as {}, now {}\n", r.kind, v.kind())),
        None => {}
    }
    emit(&out)?;
    Ok(if farm::campaign::is_finding(&v) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
