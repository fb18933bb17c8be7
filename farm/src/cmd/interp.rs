//! `farm interp`: run a case in the reference interpreter.

use crate::inputs::{choose_dispatch, read_case};
use crate::output::emit;
use anyhow::Result;
use ir::value::format_value;
use oracle::{InterpConfig, InterpError};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `farm interp`.
#[derive(clap::Args)]
pub struct Args {
    /// The .sir case.
    file: PathBuf,
    /// Number of invocations (default: the case's dispatch, else 16).
    #[arg(long)]
    lanes: Option<u32>,
    /// Subgroup width.
    #[arg(long, default_value_t = 16, value_parser = crate::inputs::parse_simd)]
    simd: u32,
    /// Per-lane inputs and uniforms as JSON (see the README).
    #[arg(long)]
    inputs: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Step budget before a timeout.
    #[arg(long, default_value_t = 1_000_000)]
    budget: u64,
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let case = read_case(&a.file)?;
    let dispatch = choose_dispatch(&case, a.inputs.as_deref(), a.lanes)?;
    let config = InterpConfig {
        simd: a.simd,
        step_budget: a.budget,
    };
    let p = &case.program;
    match oracle::run(p, &dispatch, &config) {
        Ok(out) => {
            if a.json {
                let rows: Vec<serde_json::Value> = (0..out.invocations)
                    .map(|inv| {
                        let slots: Vec<serde_json::Value> = (0..out.types.len())
                            .map(|s| match out.get(inv, s) {
                                Some(v) => serde_json::json!({
                                    "value": format_value(out.types[s], v),
                                    "bits": format!("0x{v:x}"),
                                }),
                                None => serde_json::Value::Null,
                            })
                            .collect();
                        serde_json::json!({ "lane": inv, "outputs": slots })
                    })
                    .collect();
                let types: Vec<&str> = out.types.iter().map(|t| t.name()).collect();
                let doc = serde_json::json!({
                    "shader": p.name, "simd": a.simd, "invocations": out.invocations,
                    "types": types, "lanes": rows,
                });
                emit(&(serde_json::to_string_pretty(&doc)? + "\n"))?;
            } else {
                emit(&out.to_string())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ (InterpError::InvalidCase { .. } | InterpError::Timeout { .. })) => {
            if a.json {
                emit(&format!(
                    "{}\n",
                    serde_json::json!({ "shader": p.name, "error": e.to_string() })
                ))?;
            } else {
                emit(&format!("{e}\n"))?;
            }
            Ok(ExitCode::from(1))
        }
        Err(e) => Err(e.into()),
    }
}
