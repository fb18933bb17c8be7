//! `farm`: the shaderfarm command-line tool.
//!
//! Exit codes: 0 on success, 1 when something was found (a mismatch, a
//! failing verdict), 2 for bad usage or bad input, 3 when SIGINT, SIGTERM
//! or SIGHUP stopped a campaign before it finished (its state is saved;
//! `--resume` continues it).

mod cmd;
mod inputs;
mod output;

/// The compiler model allocates many small, short-lived vectors per pass;
/// mimalloc serves them faster than the system allocator (its v2 line: v3
/// hands freed pages back to the kernel and faults them in again).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};

/// The exit code of a campaign stopped by a signal before it finished.
pub const EXIT_INTERRUPTED: u8 = 3;
use std::process::ExitCode;

/// Fuzzing and differential testing for an Intel-EU shader compiler model.
#[derive(Parser)]
#[command(name = "farm", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a .sir case in the reference interpreter and print per-lane outputs.
    Interp(cmd::interp::Args),
    /// Compile a .sir case and print the EU assembly and its statistics.
    Compile(cmd::compile::Args),
    /// Compile, simulate and compare with the oracle; print the verdict and a per-lane diff.
    Run(cmd::run::Args),
    /// Print cases in the canonical text (NIR as Mesa prints it); reads old .sir and real NIR dumps.
    Fmt(cmd::fmt::Args),
    /// Export a .sir case as a SPIR-V compute module (binary or assembly).
    Export(cmd::export::Args),
    /// Compare static instruction counts of two configs over a directory (shader-db style).
    Stats(cmd::stats::Args),
    /// Run a fuzz campaign.
    Fuzz(cmd::fuzz::Args),
    /// Re-run a finding exactly.
    Repro(cmd::repro::Args),
    /// Merge the outputs of campaign shards.
    Merge(cmd::merge::Args),
    /// Minimize a failing case (a .sir file or a finding) and write its bug report.
    Reduce(cmd::reduce::Args),
    /// Write a campaign's report: one self-contained HTML page.
    Report(cmd::report::Args),
    /// Manage the corpus: `farm corpus add FINDING_DIR` adds a regression case.
    Corpus(cmd::corpus::Args),
    /// Run an EU assembly file in the simulator and print per-lane outputs.
    Asm(cmd::asm::Args),
    /// Measure the farm: find, reduce and localize every injectable bug, one campaign each.
    Selftest(cmd::selftest::Args),
    /// Generate a random case (.sir with its dispatch), or statistics over many.
    Gen(cmd::gen::Args),
    /// The Vulkan worker: runs jobs from stdin on one device (the farm starts
    /// it as a child process, so a driver crash costs one case).
    #[command(hide = true, name = "vk-worker")]
    VkWorker,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match cli.command {
        Command::Interp(a) => cmd::interp::run(a),
        Command::Gen(a) => cmd::gen::run(a),
        Command::Selftest(a) => cmd::selftest::run(a),
        Command::Asm(a) => cmd::asm::run(a),
        Command::Compile(a) => cmd::compile::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Stats(a) => cmd::stats::run(a),
        Command::Fuzz(a) => cmd::fuzz::run(a),
        Command::Repro(a) => cmd::repro::run(a),
        Command::Merge(a) => cmd::merge::run(a),
        Command::Reduce(a) => cmd::reduce::run(a),
        Command::Corpus(a) => cmd::corpus::run(a),
        Command::VkWorker => return ExitCode::from(vulkan::worker_main().clamp(0, 255) as u8),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
