//! `farm fuzz`: a campaign.

use crate::output::emit;
use anyhow::Result;
use compiler::{BugSet, Strategy};
use farm::campaign::mix::{Mix, PassChoice};
use farm::campaign::{self, CampaignId, DriverSetup, RunLimits};
use farm::target::Target;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `--strategies`' default: every strategy, in `Strategy::ALL` order (a
/// test keeps the two the same).
const DEFAULT_STRATEGIES: &str = "bool32,bool16,native,flag,native-min,bool8,vec4";

/// A switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOff {
    /// On.
    On,
    /// Off.
    Off,
}

/// Options of `farm fuzz`.
#[derive(clap::Args)]
pub struct Args {
    /// How long to run: 30s, 10m, 8h (default 60s unless --cases is given).
    #[arg(long, value_parser = campaign::parse_duration)]
    duration: Option<std::time::Duration>,
    /// Stop after this many cases of this shard (across resumes).
    #[arg(long)]
    cases: Option<u64>,
    /// Workers, 1..=256 (default: all cores).
    #[arg(long, value_parser = crate::inputs::parse_jobs)]
    jobs: Option<usize>,
    /// Output directory (findings/, stats.json, checkpoint.json).
    #[arg(long, default_value = "farm-out")]
    out: PathBuf,
    /// Strategies, comma-separated (default: every one, `compiler::Strategy::ALL`).
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_STRATEGIES, value_parser = |s: &str| s.parse::<Strategy>())]
    strategies: Vec<Strategy>,
    /// Only the strategies of one backend: scalar (the six boolean
    /// strategies) or vec4 (every case generated for the vec4 backend).
    #[arg(long, value_parser = |s: &str| s.parse::<compiler::Backend>())]
    backend: Option<compiler::Backend>,
    /// Pass sets: mix (all + one random subset per case), all, none, random, or a pass list.
    #[arg(long, default_value = "mix", value_parser = |s: &str| PassChoice::parse(s))]
    passes: PassChoice,
    /// SIMD widths, comma-separated (one per case, drawn from its seed).
    #[arg(long, value_delimiter = ',', default_value = "8,16,32", value_parser = crate::inputs::parse_simd)]
    simd: Vec<u32>,
    /// Base seed: case g uses seed + g.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Injected bugs (see compiler/BUGS.md).
    #[arg(long, default_value = "none", value_parser = |s: &str| BugSet::parse(s))]
    inject: BugSet,
    /// Run shard I of N (cases with index % N == I).
    #[arg(long, default_value = "0/1", value_parser = campaign::parse_shard)]
    shard: (u64, u64),
    /// Continue the campaign in --out where it stopped.
    #[arg(long)]
    resume: bool,
    /// How often to write checkpoint.json and stats.json while running,
    /// e.g. 500ms, 10s (default 2s): what a killed campaign loses at most.
    #[arg(long, value_parser = campaign::parse_duration)]
    checkpoint_every: Option<std::time::Duration>,
    /// Generator config (JSON).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Compilers under test, comma-separated: model (our brw model, every
    /// config of the mix), vulkan (the first Vulkan device), vulkan:NAME (the
    /// first whose device or driver name contains NAME).
    #[arg(long, value_delimiter = ',', default_value = "model", value_parser = |s: &str| s.parse::<Target>())]
    targets: Vec<Target>,
    /// Coverage feedback: on (part of each epoch's cases are mutants of, or
    /// drawn with the features of, cases that reached rare decision
    /// points), or off (every case freshly generated, as before feedback).
    #[arg(long, value_enum, default_value = "on")]
    feedback: OnOff,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
    /// Print the summary as JSON (for scripts).
    #[arg(long)]
    json: bool,
}

/// Leaves out of the generator the ops that a driver target cannot run
/// (their modules need a feature the device lacks), so its runs are not
/// spent on `unsupported`. The narrowed op list is part of the campaign's
/// recorded config, so `--resume` holds it to the same device.
fn fit_to_drivers(
    generator: &mut generator::Config,
    targets: &[Target],
    quiet: bool,
) -> Result<()> {
    for t in targets {
        let Target::Vulkan { selector } = t else {
            continue;
        };
        let driver = oracle::driver::Driver::open(
            farm::target::own_worker_command()?,
            selector.as_deref(),
            None,
        )
        .map_err(|e| anyhow::anyhow!("target {t}: {e}"))?;
        let have = driver.features();
        let lacking: Vec<ir::Op> = ir::Op::all()
            .filter(|&op| !spirv_export::op_needs(op).missing_from(have).is_empty())
            .collect();
        if generator.helpers && !have.fragment_stage {
            generator.helpers = false;
            if !quiet {
                eprintln!(
                    "note: {} runs compute shaders, which have no helper invocations: the generator leaves them out",
                    driver.target_name()
                );
            }
        }
        let dropped = generator.drop_ops(&lacking);
        if !dropped.is_empty() && !quiet {
            let names: Vec<&str> = dropped.iter().map(|op| op.name()).collect();
            eprintln!(
                "note: {} cannot run {}: the generator leaves them out",
                driver.target_name(),
                names.join(", ")
            );
        }
    }
    Ok(())
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let mut generator = crate::cmd::gen::read_config(a.config.as_deref())?;
    fit_to_drivers(&mut generator, &a.targets, a.quiet)?;
    let strategies: Vec<Strategy> = match a.backend {
        Some(b) => {
            let kept: Vec<Strategy> = a
                .strategies
                .iter()
                .copied()
                .filter(|s| s.backend() == b)
                .collect();
            if kept.is_empty() {
                anyhow::bail!("--backend {b}: none of --strategies is a strategy of it");
            }
            kept
        }
        None => a.strategies.clone(),
    };
    let simd = a.simd.clone();
    let id = CampaignId {
        seed: a.seed,
        shard: a.shard.0,
        shards: a.shard.1,
        strategies: strategies.iter().map(|s| s.to_string()).collect(),
        passes: a.passes.text(),
        simd: simd.clone(),
        inject: a.inject.to_string(),
        generator,
        version: CampaignId::current_version(),
        targets: a.targets.iter().map(|t| t.to_string()).collect(),
        feedback: a.feedback == OnOff::On,
        feedback_epoch: farm::campaign::feedback::EPOCH,
        merged: vec![],
    };
    let mix = Mix {
        strategies,
        passes: a.passes.clone(),
        simd,
        bugs: a.inject,
    };
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let duration = a.duration.or(if a.cases.is_none() {
        Some(std::time::Duration::from_secs(60))
    } else {
        None
    });
    let limits = RunLimits {
        duration,
        cases: a.cases,
        jobs,
        tty: std::io::stderr().is_terminal(),
        quiet: a.quiet,
        checkpoint_every: a.checkpoint_every.unwrap_or(RunLimits::CHECKPOINT_EVERY),
        driver: if a.targets.iter().any(Target::is_driver) {
            Some(DriverSetup {
                exe: std::env::current_exe()?,
            })
        } else {
            None
        },
    };
    let stop = Arc::new(AtomicBool::new(false));
    let handler_stop = stop.clone();
    // SIGINT, SIGTERM (Slurm, Kubernetes) and SIGHUP all stop the campaign
    // cleanly. A second handler (tests calling this twice) is not an error.
    let _ = ctrlc::set_handler(move || handler_stop.store(true, Ordering::Relaxed));
    let s = campaign::run(&a.out, &id, &mix, &limits, a.resume, stop)?;
    let index = triage::signature::BucketIndex::load(&a.out).map_err(|e| anyhow::anyhow!("{e}"))?;
    // The HTML report; failing to write it loses nothing already found.
    let report_path = a.out.join(farm::report::REPORT_FILE);
    let report = farm::report::write(&a.out, &report_path)
        .map(|()| report_path)
        .map_err(|e| format!("{e:#}"));
    let findings_dir = a.out.join("findings");
    let findings: Vec<serde_json::Value> = s
        .findings
        .iter()
        .map(|sig| {
            let b = index.buckets.get(sig);
            let reduced = findings_dir.join(sig).join("reduced");
            serde_json::json!({
                "signature": sig,
                "path": findings_dir.join(sig),
                "hits": b.map(|b| b.hits),
                "first_case": b.map(|b| b.first_case),
                "report": reduced.join("report.md").is_file().then(|| reduced.join("report.md")),
                "reduce_error": b.and_then(|b| b.reduce_error.clone()),
            })
        })
        .collect();
    let text = if a.json {
        let doc = serde_json::json!({
            "out": a.out,
            "resumed_at": s.resumed_at,
            "interrupted": s.interrupted,
            "cases": s.counters.cases,
            "config_runs": s.counters.config_runs,
            "config_runs_per_s": s.config_runs_per_s,
            "jobs": jobs,
            "verdicts": s.counters.verdicts,
            "findings": findings,
            "notes": s.notes,
            "report": report.as_ref().ok(),
            "report_error": report.as_ref().err(),
        });
        serde_json::to_string_pretty(&doc)? + "\n"
    } else {
        let mut text = summary_text(&a.out, &s, jobs, &findings);
        match &report {
            Ok(p) => text.push_str(&format!("report: {}\n", p.display())),
            Err(e) => text.push_str(&format!("the HTML report could not be written: {e}\n")),
        }
        text
    };
    emit(&text)?;
    Ok(if s.interrupted {
        ExitCode::from(crate::EXIT_INTERRUPTED)
    } else if s.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The end-of-run summary: what ran, where the results are, each finding
/// on a line, and what to run next.
fn summary_text(
    out: &std::path::Path,
    s: &campaign::Summary,
    jobs: usize,
    findings: &[serde_json::Value],
) -> String {
    let c = &s.counters;
    let mut text = String::new();
    if let Some(k) = s.resumed_at {
        text.push_str(&format!("resumed at case {k}\n"));
    }
    text.push_str(&format!(
        "{} cases, {} config-runs ({:.0} config-runs/s with {jobs} jobs); verdicts: {}\n",
        c.cases,
        c.config_runs,
        s.config_runs_per_s,
        c.verdicts
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if s.interrupted {
        text.push_str("interrupted: resume with --resume\n");
    }
    text.push_str(&format!(
        "results in {}/ (stats.json, buckets.json, findings/)\n",
        out.display()
    ));
    if findings.is_empty() {
        text.push_str("no findings\n");
        return text;
    }
    text.push_str(&format!("{} findings:\n", findings.len()));
    let mut unreduced = None;
    for f in findings {
        let path = f["path"].as_str().unwrap_or_default();
        let state = match (&f["report"], &f["reduce_error"]) {
            (serde_json::Value::String(r), _) => format!("reduced: {r}"),
            (_, serde_json::Value::String(e)) => format!("reduction failed: {e}"),
            _ => {
                unreduced.get_or_insert(path.to_string());
                "not reduced yet".to_string()
            }
        };
        text.push_str(&format!(
            "finding: {path} ({} hits, first case {}; {state})\n",
            f["hits"], f["first_case"]
        ));
    }
    if !s.failed_reductions.is_empty() {
        text.push_str(&format!(
            "{} reductions failed; --resume retries them\n",
            s.failed_reductions.len()
        ));
    }
    match unreduced {
        Some(p) => text.push_str(&format!(
            "next: farm reduce {p}   (or --resume to reduce in the background)\n"
        )),
        None => {
            text.push_str("next: open the report (below), or each finding's reduced/report.md\n")
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_strategies_are_all_of_them() {
        let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(DEFAULT_STRATEGIES, names.join(","));
    }
}
