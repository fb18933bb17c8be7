//! `farm corpus add FINDING_DIR`: turn a reduced finding into a regression
//! case, `corpus/regressions/<signature>.sir`, which `cargo test` replays
//! (oracle/tests/regressions.rs).

use crate::inputs::config_line;
use crate::output::emit;
use anyhow::{bail, Context, Result};
use compiler::{PassSet, Strategy};
use oracle::Config;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use triage::report::{Report, CASE_FILE};
use triage::signature::Signature;

/// Options of `farm corpus`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Copy a reduced finding into corpus/regressions/NAME.sir (NAME from its signature).
    Add(AddArgs),
}

/// Options of `farm corpus add`.
#[derive(clap::Args)]
struct AddArgs {
    /// A finding directory with a reduced/ subdirectory (or a `farm reduce` output directory).
    dir: PathBuf,
    /// The corpus directory.
    #[arg(long, default_value = "corpus")]
    corpus: PathBuf,
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    match a.command {
        Command::Add(a) => add(&a.dir, &a.corpus),
    }
}

/// The directory holding `reduced.sir` and `report.json` for `dir`.
fn reduced_dir(dir: &Path) -> Result<PathBuf> {
    for d in [dir.join("reduced"), dir.to_path_buf()] {
        if d.join(CASE_FILE).is_file() && d.join("report.json").is_file() {
            return Ok(d);
        }
    }
    if !dir.is_dir() {
        bail!("{} is not a directory", dir.display());
    }
    bail!(
        "{} has no reduced case (reduced/{CASE_FILE}); run `farm reduce {}` first",
        dir.display(),
        dir.display()
    )
}

fn add(dir: &Path, corpus: &Path) -> Result<ExitCode> {
    let rdir = reduced_dir(dir)?;
    let report_path = rdir.join("report.json");
    let report: Report = serde_json::from_str(
        &std::fs::read_to_string(&report_path)
            .with_context(|| format!("cannot read {}", report_path.display()))?,
    )
    .map_err(|e| farm::durable::json_error(&report_path.display().to_string(), &e))?;
    let case_path = rdir.join(CASE_FILE);
    let text = std::fs::read_to_string(&case_path)
        .with_context(|| format!("cannot read {}", case_path.display()))?;
    let mut case = crate::inputs::read_case(&case_path)?;
    let base = Config::new(Strategy::Bool32, 16, PassSet::all());
    let config = config_line(&text, &base)
        .map_err(|e| anyhow::anyhow!("{}:1: {e}", case_path.display()))?
        .with_context(|| format!("{}: no `// config:` first line", case_path.display()))?;
    let name = report.signature.name.clone();
    let dest_dir = corpus.join("regressions");
    let dest = dest_dir.join(format!("{name}.sir"));
    if dest.exists() {
        bail!(
            "{} already exists; not overwriting it (remove it first to replace it)",
            dest.display()
        );
    }
    let v = oracle::check(&case, &config);
    let now = if farm::is_finding(&v) {
        Signature::of_model(&case, &config, &v).to_string()
    } else {
        v.kind().to_string()
    };
    let injected = !config.bugs.is_empty();
    if injected && now != name {
        bail!(
            "{} no longer reproduces under {config}: now {now}, reported {name}",
            case_path.display()
        );
    }
    case.program.comments = vec![format!("config: {config}"), format!("signature: {name}")];
    std::fs::create_dir_all(&dest_dir)
        .with_context(|| format!("cannot create {}", dest_dir.display()))?;
    // create_new: never overwrite, even if another `corpus add` raced us.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&dest)
        .with_context(|| format!("cannot create {} (not overwriting)", dest.display()))?;
    std::io::Write::write_all(&mut file, ir::print_case(&case).as_bytes())
        .with_context(|| format!("cannot write {}", dest.display()))?;
    let mut out = format!("added {}\n", dest.display());
    out.push_str(&if injected {
        "replayed by `cargo test`: it must keep failing with this signature (the injected bug stays caught)\n".to_string()
    } else if v == oracle::Verdict::Pass {
        "replayed by `cargo test`: it must keep passing (the bug stays fixed)\n".to_string()
    } else {
        format!("note: it fails today ({now}); its regression test fails until the bug is fixed\n")
    });
    emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
