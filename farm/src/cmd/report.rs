//! `farm report DIR`: the campaign as one self-contained HTML page.

use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm report`.
#[derive(clap::Args)]
pub struct Args {
    /// The campaign directory (`farm fuzz --out`, or a merged one).
    dir: PathBuf,
    /// Where to write the page (default: DIR/report.html).
    #[arg(long, short)]
    out: Option<PathBuf>,
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let out = a
        .out
        .unwrap_or_else(|| a.dir.join(farm::report::REPORT_FILE));
    farm::report::write(&a.dir, &out)?;
    eprintln!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}
