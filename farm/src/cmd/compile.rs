//! `farm compile`: the EU assembly of a case under one config.

use crate::inputs::read_case;
use crate::output::emit;
use anyhow::{Context, Result};
use compiler::{Backend, BugSet, PassSet, Strategy};
use oracle::{Capture, Session, StageProgram};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The compile configuration options shared by `compile` and `run`. An
/// option not given takes the case file's `// config:` line's value, else
/// the default (bool32, SIMD16, all passes, nothing injected).
#[derive(clap::Args, Clone)]
pub struct ConfigArgs {
    /// Boolean strategy: bool32, bool16, native, flag, native-min, bool8,
    /// or vec4 (the vec4 backend).
    #[arg(long, value_parser = |s: &str| s.parse::<Strategy>())]
    pub strategy: Option<Strategy>,
    /// Backend: scalar (under --strategy, bool32 by default) or vec4
    /// (Align16 code dispatched SIMD4x2: the same as --strategy vec4).
    #[arg(long, value_parser = |s: &str| s.parse::<Backend>())]
    pub backend: Option<Backend>,
    /// SIMD width (the vec4 backend's is 8: SIMD4x2).
    #[arg(long, value_parser = crate::inputs::parse_simd)]
    pub simd: Option<u32>,
    /// Passes: all, none, a list (cse,dce), or all,-NAME.
    #[arg(long, value_parser = |s: &str| PassSet::parse(s))]
    pub passes: Option<PassSet>,
    /// Injected bugs (see compiler/BUGS.md): NAME[,NAME].
    #[arg(long, value_parser = |s: &str| BugSet::parse(s))]
    pub inject: Option<BugSet>,
}

impl ConfigArgs {
    /// The oracle's config for the case read from `file`: the options given,
    /// over the file's `// config:` line, over the defaults.
    pub fn config(&self, file: &Path) -> Result<oracle::Config> {
        let base = oracle::Config::new(Strategy::Bool32, 16, PassSet::all());
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let mut c = crate::inputs::config_line(&text, &base)
            .map_err(|e| anyhow::anyhow!("{}:1: {e}", file.display()))?
            .unwrap_or(base);
        crate::inputs::apply_backend(&mut c, self.strategy, self.backend, self.simd)?;
        if let Some(p) = &self.passes {
            c.passes = p.clone();
        }
        if let Some(b) = self.inject {
            c.bugs = b;
        }
        Ok(c)
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
    /// Print the result as JSON (for scripts): the assembly and statistics,
    /// or the failure.
    #[arg(long)]
    json: bool,
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
    let config = a.config.config(&a.file)?;
    let session = Session::run(&case.program, &config, capture);
    let elapsed = t.elapsed();
    if a.json {
        let doc = match &session.result {
            Ok(c) => serde_json::json!({
                "config": config.to_string(),
                "ok": true,
                "assembly": eu::print_program(&c.program),
                "instructions": c.stats.instructions,
                "loops": c.stats.loops,
                "sends": c.stats.sends,
                "per_opcode": c.stats.per_opcode,
                "changed": session.changed().map(|s| s.to_string()).collect::<Vec<_>>(),
            }),
            Err(f) => serde_json::json!({
                "config": config.to_string(),
                "ok": false,
                "kind": f.verdict().kind(),
                "stage": f.stage().to_string(),
                "error": f.describe(),
            }),
        };
        emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
        return Ok(ExitCode::from(u8::from(session.result.is_err())));
    }
    let mut out = dump(&session);
    match &session.result {
        Ok(c) => {
            if !a.dump_passes {
                out.push_str(&eu::print_program(&c.program));
            }
            let s = &c.stats;
            // The shader-db line brw would log (see `farm stats`).
            let stats = farm::shaderdb::ShaderStats::of(c);
            let stage = format!("CS SIMD{}", config.simd);
            let _ = writeln!(
                out,
                "// {}",
                farm::shaderdb::log_line(&a.file.display().to_string(), &stage, &stats)
            );
            let _ = writeln!(out, "// compiled in {:.3} ms", elapsed.as_secs_f64() * 1e3);
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
