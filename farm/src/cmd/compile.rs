//! `farm compile`: the EU assembly of a case under one config.

use crate::inputs::read_case;
use crate::output::emit;
use anyhow::Result;
use compiler::{BugSet, PassSet, Strategy};
use oracle::{Capture, Session, StageProgram};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The compile configuration options shared by `compile` and `run`.
#[derive(clap::Args, Clone)]
pub struct ConfigArgs {
    /// Boolean strategy: bool32, bool16, native or flag.
    #[arg(long, default_value = "bool32", value_parser = |s: &str| s.parse::<Strategy>())]
    pub strategy: Strategy,
    /// SIMD width.
    #[arg(long, default_value_t = 16, value_parser = crate::inputs::parse_simd)]
    pub simd: u32,
    /// Passes: all, none, a list (cse,dce), or all,-NAME.
    #[arg(long, default_value = "all", value_parser = |s: &str| PassSet::parse(s))]
    pub passes: PassSet,
    /// Injected bugs (see compiler/BUGS.md): NAME[,NAME].
    #[arg(long, default_value = "none", value_parser = |s: &str| BugSet::parse(s))]
    pub inject: BugSet,
}

impl ConfigArgs {
    /// The oracle's config.
    pub fn config(&self) -> oracle::Config {
        oracle::Config {
            strategy: self.strategy,
            simd: self.simd,
            passes: self.passes.clone(),
            bugs: self.inject,
        }
    }
}

/// Options of `farm compile`.
#[derive(clap::Args)]
pub struct Args {
    /// The .sir case.
    file: PathBuf,
    #[command(flatten)]
    config: ConfigArgs,
    /// Print the program after every stage that changed it.
    #[arg(long)]
    dump_passes: bool,
}

/// Every stage's program, as `--dump-passes` prints them.
pub fn dump(session: &Session) -> String {
    let mut out = String::new();
    for r in &session.stages {
        let _ = match &r.program {
            Some(StageProgram::Ir(p)) => {
                writeln!(out, "=== after {} ===\n{}", r.stage, ir::print_program(p))
            }
            Some(StageProgram::Eu(v)) => writeln!(
                out,
                "=== after {} (virtual registers) ===\n{}",
                r.stage,
                v.text()
            ),
            Some(StageProgram::Final(p)) => {
                writeln!(out, "=== after {} ===\n{}", r.stage, eu::print_program(p))
            }
            None => Ok(()),
        };
    }
    out
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let case = read_case(&a.file)?;
    let capture = if a.dump_passes {
        Capture::Programs
    } else {
        Capture::Stages
    };
    let t = Instant::now();
    let session = Session::run(&case.program, &a.config.config(), capture);
    let elapsed = t.elapsed();
    let mut out = dump(&session);
    match &session.result {
        Ok(c) => {
            if !a.dump_passes {
                out.push_str(&eu::print_program(&c.program));
            }
            let s = &c.stats;
            let _ = writeln!(
                out,
                "// {} SIMD{} shader: {} inst, {} loops, {} sends; compiled in {:.3} ms",
                case.program.name,
                a.config.simd,
                s.instructions,
                s.loops,
                s.sends,
                elapsed.as_secs_f64() * 1e3
            );
            let per: Vec<String> = s
                .per_opcode
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let _ = writeln!(out, "// per opcode: {}", per.join(" "));
            emit(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(f) => {
            let _ = writeln!(out, "{}", f.describe());
            emit(&out)?;
            Ok(ExitCode::from(1))
        }
    }
}
