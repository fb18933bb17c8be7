//! `farm merge --out OUT DIR...`: merge shard outputs, deduplicating by
//! signature (keeping each signature's lowest case index) and summing the
//! counters.

use crate::output::emit;
use anyhow::{bail, Context, Result};
use farm::campaign::findings::{self, Finding, FindingConfig, FindingVerdict};
use farm::campaign::stats::Checkpoint;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Where the merged campaign goes.
    #[arg(long)]
    out: PathBuf,
    /// Campaign directories (shards) to merge.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let root = a.out.join("findings");
    std::fs::create_dir_all(&root)
        .with_context(|| format!("cannot create the output directory {}", a.out.display()))?;
    let mut total = Checkpoint::default();
    for dir in &a.dirs {
        let ck = dir.join("checkpoint.json");
        let Ok(text) = std::fs::read_to_string(&ck) else {
            bail!(
                "{} is not a campaign directory (no checkpoint.json)",
                dir.display()
            )
        };
        let c: Checkpoint = serde_json::from_str(&text)
            .map_err(|e| farm::durable::json_error(&ck.display().to_string(), &e))?;
        let t = &mut total.counters;
        t.cases += c.counters.cases;
        t.config_runs += c.counters.config_runs;
        t.oracle_suspect += c.counters.oracle_suspect;
        for (k, v) in c.counters.verdicts {
            *t.verdicts.entry(k).or_default() += v;
        }
        for (s, m) in c.counters.per_strategy {
            for (k, v) in m {
                *t.per_strategy
                    .entry(s.clone())
                    .or_default()
                    .entry(k)
                    .or_default() += v;
            }
        }
        for (k, v) in c.counters.per_culprit {
            *t.per_culprit.entry(k).or_default() += v;
        }
        for (k, v) in c.counters.pass_changed {
            *t.pass_changed.entry(k).or_default() += v;
        }
        total.elapsed_before = total.elapsed_before.max(c.elapsed_before);
        for sig in findings::list(&dir.join("findings")) {
            let d = dir.join("findings").join(&sig);
            let read = |name: &str| {
                std::fs::read_to_string(d.join(name))
                    .with_context(|| format!("cannot read {}", d.join(name).display()))
            };
            let config: FindingConfig = serde_json::from_str(&read("config.json")?)?;
            let verdict: FindingVerdict = serde_json::from_str(&read("verdict.json")?)?;
            findings::store(
                &root,
                &Finding {
                    signature: sig,
                    case_text: read("case.sir")?,
                    config,
                    verdict,
                },
            )?;
        }
    }
    let merged = findings::list(&root);
    findings::write_atomic(
        &a.out.join("stats.json"),
        (serde_json::to_string_pretty(&total.counters)? + "\n").as_bytes(),
    )?;
    let mut out = format!(
        "merged {} campaigns: {} cases, {} findings\n",
        a.dirs.len(),
        total.counters.cases,
        merged.len()
    );
    for f in &merged {
        out.push_str(&format!("finding: {}\n", root.join(f).display()));
    }
    emit(&out)?;
    Ok(if merged.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
