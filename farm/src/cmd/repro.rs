//! `farm repro DIR`: re-run a finding exactly.

use crate::output::emit;
use anyhow::{Context, Result};
use farm::campaign::findings::{FindingConfig, FindingVerdict};
use farm::target::Target;
use oracle::Verdict;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm repro`.
#[derive(clap::Args)]
pub struct Args {
    /// A finding directory (with case.sir, config.json, verdict.json).
    dir: PathBuf,
    /// Print the verdict as JSON (for scripts).
    #[arg(long)]
    json: bool,
}

/// Runs the command: exit 0 only when the finding no longer fails, 1 when it
/// still fails (with its recorded signature or another one), 2 when its
/// case or config cannot be read or the case cannot be judged.
pub fn run(a: Args) -> Result<ExitCode> {
    let case = crate::inputs::read_case(&a.dir.join("case.sir"))?;
    let cfg_path = a.dir.join("config.json");
    let text = std::fs::read_to_string(&cfg_path)
        .with_context(|| format!("cannot read {}", cfg_path.display()))?;
    let fc: FindingConfig = serde_json::from_str(&text)
        .map_err(|e| farm::durable::json_error(&cfg_path.display().to_string(), &e))?;
    let recorded: Option<FindingVerdict> = std::fs::read_to_string(a.dir.join("verdict.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    if !fc.is_model() {
        return repro_driver(&a, &case, &fc, recorded.as_ref());
    }
    let config = fc.config()?;
    let v = oracle::check(&case, &config);
    let culprit = farm::is_finding(&v)
        .then(|| oracle::localize(&case, &config).culprit())
        .flatten();
    let now = farm::is_finding(&v)
        .then(|| triage::signature::Signature::of_model(&case, &config, &v).name());
    let outcome = outcome(now.as_deref(), recorded.as_ref());
    if a.json {
        let mut doc = crate::cmd::run::verdict_json(&v, &config.to_string(), culprit);
        doc["signature"] = serde_json::json!(now);
        doc["recorded"] = serde_json::json!(recorded.as_ref().map(|r| &r.signature));
        doc["outcome"] = serde_json::json!(outcome);
        emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
    } else {
        let mut out = format!("{config}: {v}\n");
        if let Some(c) = culprit {
            out.push_str(&format!("culprit: {c}\n"));
        }
        out.push_str(&outcome);
        out.push('\n');
        emit(&out)?;
    }
    Ok(match v {
        Verdict::InvalidCase(_) | Verdict::Unsupported(_) => ExitCode::from(2),
        _ if now.is_none() => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// What a re-run says about the recorded signature.
fn outcome(now: Option<&str>, recorded: Option<&FindingVerdict>) -> String {
    match (now, recorded) {
        (None, _) => "fixed: it no longer fails".to_string(),
        (Some(n), Some(r)) if n == r.signature => format!("reproduced ({n})"),
        (Some(n), Some(r)) => format!("fails differently: recorded as {}, now {n}", r.signature),
        (Some(n), None) => format!("fails ({n}); no verdict.json to compare with"),
    }
}

/// Re-runs a driver finding on its driver (selected by the finding's
/// target name) at its subgroup size.
fn repro_driver(
    a: &Args,
    case: &ir::Case,
    fc: &FindingConfig,
    recorded: Option<&FindingVerdict>,
) -> Result<ExitCode> {
    let target: Target = fc
        .target
        .parse()
        .map_err(|e: String| anyhow::anyhow!("{}: {e}", a.dir.join("config.json").display()))?;
    let Target::Vulkan { selector } = target else {
        anyhow::bail!(
            "{}: `{}` is not a driver target",
            a.dir.display(),
            fc.target
        );
    };
    let o = crate::cmd::run::DriverOutcome::run(case, selector.as_deref(), Some(fc.simd))?;
    let outcome = outcome(o.signature.as_deref(), recorded);
    if a.json {
        let mut doc = o.json();
        doc["recorded"] = serde_json::json!(recorded.map(|r| &r.signature));
        doc["outcome"] = serde_json::json!(outcome);
        emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
    } else {
        emit(&format!("{}{outcome}\n", o.text()))?;
    }
    Ok(match o.run.verdict {
        Verdict::InvalidCase(_) | Verdict::Unsupported(_) => ExitCode::from(2),
        _ if o.signature.is_none() => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}
