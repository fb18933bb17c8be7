//! `farm compile`: the EU assembly of a case under one config.

use crate::inputs::read_case;
use crate::output::emit;
use anyhow::Result;
use compiler::{BugSet, CompileOptions, PassSet, Snapshot, Strategy};
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
    /// The compile options.
    pub fn options(&self) -> CompileOptions {
        CompileOptions::new(self.strategy, self.simd, self.passes.clone()).with_bugs(self.inject)
    }

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

/// Prints every stage's program (for `--dump-passes`).
pub fn dump_hook(out: &mut String) -> impl FnMut(Snapshot<'_>) + '_ {
    move |s| {
        let _ = match s {
            Snapshot::Ir { pass, program } => writeln!(
                out,
                "=== after ir:{pass} ===\n{}",
                ir::print_program(program)
            ),
            Snapshot::Eu { pass, program } => {
                let stage = if pass == "lowering" {
                    "lowering".to_string()
                } else {
                    format!("eu:{pass}")
                };
                writeln!(
                    out,
                    "=== after {stage} (virtual registers) ===\n{}",
                    program.text()
                )
            }
            Snapshot::Final { program } => writeln!(
                out,
                "=== after regalloc ===\n{}",
                eu::print_program(program)
            ),
        };
    }
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let case = read_case(&a.file)?;
    let opts = a.config.options();
    let mut dump = String::new();
    let t = Instant::now();
    let result = if a.dump_passes {
        compiler::compile_with_hook(&case.program, &opts, &mut dump_hook(&mut dump))
    } else {
        compiler::compile(&case.program, &opts)
    };
    let elapsed = t.elapsed();
    match result {
        Ok(c) => {
            let mut out = dump;
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
        Err(e) => {
            emit(&dump)?;
            emit(&format!("{e}\n"))?;
            Ok(ExitCode::from(1))
        }
    }
}
