//! `farm merge --out OUT DIR...`: merge the directories of a sharded
//! campaign (or earlier merges) into one complete campaign directory
//! (`farm::campaign::merge`).

use crate::output::emit;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Where the merged campaign goes.
    #[arg(long)]
    out: PathBuf,
    /// Campaign directories (shards, or merged directories) to merge.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

/// Runs the command: exit 0 when the merged campaign has no findings, 1
/// when it has.
pub fn run(a: Args) -> Result<ExitCode> {
    let m = farm::campaign::merge::merge(&a.out, &a.dirs)?;
    let mut out = format!(
        "merged {} directories (shards {} of {}): {} cases, {} findings\n",
        a.dirs.len(),
        m.id.merged
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(","),
        m.id.shards,
        m.counters.cases,
        m.findings.len()
    );
    for f in &m.findings {
        out.push_str(&format!(
            "finding: {}\n",
            a.out.join("findings").join(f).display()
        ));
    }
    emit(&out)?;
    Ok(if m.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
