//! `farm fmt`: print cases in the canonical text (NIR exactly as Mesa's
//! `nir_print.c` prints it, plus the dispatch section), reading any spelling
//! the parser accepts: older `.sir` files, or real `NIR_DEBUG=print` output
//! within the modelled subset.

use crate::inputs::case_from_text;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// The case files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Rewrite each file in place instead of printing to stdout.
    #[arg(long, short = 'i')]
    in_place: bool,
    /// Only check: exit 1 if a file is not in canonical form.
    #[arg(long, conflicts_with = "in_place")]
    check: bool,
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    // Read every file first, so a bad one leaves all of them untouched.
    let mut cases = Vec::new();
    for f in &a.files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?;
        let canonical = ir::print_case(&case_from_text(f, &text)?);
        cases.push((f, text, canonical));
    }
    let mut differ = false;
    for (f, text, canonical) in cases {
        if a.check {
            if text != canonical {
                println!("{} is not in canonical form", f.display());
                differ = true;
            }
        } else if a.in_place {
            if text != canonical {
                std::fs::write(f, &canonical)
                    .with_context(|| format!("cannot write {}", f.display()))?;
            }
        } else {
            print!("{canonical}");
        }
    }
    Ok(if differ {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
