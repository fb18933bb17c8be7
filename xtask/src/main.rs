//! `cargo xtask`: shaderfarm's build tasks.
//!
//! `cargo xtask pgo` builds the farm binary with profile-guided
//! optimization (see `xtask::pgo` and the README's speed paragraph).

use anyhow::Result;
use clap::{Parser, Subcommand};
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
    Pgo(pgo::Options),
}

fn main() -> Result<()> {
    match Cli::parse().task {
        Task::Pgo(opts) => {
            let binary = pgo::run(&opts, &mut |line| eprintln!("{line}"))?;
            println!("{}", binary.display());
            Ok(())
        }
    }
}
