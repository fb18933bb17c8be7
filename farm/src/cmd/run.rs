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
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let mut case = read_case(&a.file)?;
    let dispatch = choose_dispatch(&case, a.inputs.as_deref(), a.lanes)?;
    case.dispatch = Some(dispatch);
    if a.dump_passes {
        let session = Session::run(&case.program, &a.config.config(), Capture::Programs);
        emit(&dump(&session))?;
    }
    let v = oracle::check(&case, &a.config.config());
    emit(&format!("{}: {}\n", a.config.config(), v))?;
    Ok(if v == Verdict::Pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
