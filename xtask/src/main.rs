//! `cargo xtask`: shaderfarm's build tasks.
//!
//! `cargo xtask pgo` builds the farm binary with profile-guided
//! optimization (see `xtask::pgo` and the README's speed paragraph).

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use xtask::pgo;

/// shaderfarm's build tasks.
#[derive(Parser)]
#[command(name = "cargo xtask", about)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Build the farm binary with profile-guided optimization: an
    /// instrumented build, training campaigns, the optimized build, and a
    /// check that it gives the training campaign's verdicts.
    Pgo(PgoArgs),
}

#[derive(clap::Args)]
struct PgoArgs {
    /// Cases of the default-mix training campaign (the check campaign runs
    /// the same cases again with the optimized binary)
    #[arg(long, default_value_t = pgo::DEFAULT_CASES)]
    cases: u64,
    /// Base seed of the training campaigns (far from the seeds campaigns
    /// and measurements start at by default)
    #[arg(long, default_value_t = pgo::DEFAULT_SEED)]
    seed: u64,
    /// Cargo profile of both builds (`pgo-check` is a quick build for
    /// testing the pipeline; campaigns want `release`)
    #[arg(long, default_value = "release")]
    profile: String,
    /// Where the builds, profiles and campaigns go, and the binary at the
    /// end: DIR/farm (default: the target directory's `pgo/`)
    #[arg(long)]
    target_dir: Option<PathBuf>,
}

fn main() -> Result<()> {
    match Cli::parse().task {
        Task::Pgo(args) => {
            let opts = pgo::Options {
                cases: args.cases,
                seed: args.seed,
                profile: args.profile,
                target_dir: args.target_dir.unwrap_or_else(pgo::default_target_dir),
            };
            let binary = pgo::run(&opts, &mut |line| eprintln!("{line}"))?;
            println!("{}", binary.display());
            Ok(())
        }
    }
}
