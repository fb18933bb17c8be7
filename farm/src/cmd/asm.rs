//! `farm asm`: run a hand-written EU assembly program in the simulator.

use crate::output::emit;
use anyhow::{bail, Context, Result};
use eu::{AsmRun, AsmRunError, SimConfig};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `farm asm`.
#[derive(clap::Args)]
pub struct Args {
    /// The .asm file (Mesa disassembler syntax; see eu/ISA.md and eu/ABI.md).
    file: PathBuf,
    /// Number of invocations (1..=1024).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=ir::dispatch::MAX_INVOCATIONS as i64))]
    lanes: u32,
    /// Thread width.
    #[arg(long, default_value_t = 16, value_parser = crate::inputs::parse_simd)]
    simd: u32,
    /// Raw inputs as JSON: `{"inputs": [[v per invocation], ...], "uniforms": [v, ...]}`,
    /// one array per input slot; values are numbers or "0x..." strings.
    #[arg(long)]
    inputs: Option<PathBuf>,
    /// Output slots per invocation (the surface layout the program assumes).
    #[arg(long, default_value_t = 1)]
    outputs: u32,
    /// Seed of the simulator's garbage (uninitialised and undefined bits).
    #[arg(long, default_value_t = 0)]
    garbage_seed: u64,
    /// The machine: `gfx11`, or `vec4` (Gfx11 with the Align16 access mode
    /// of the generations before it; see eu/ISA.md §5a).
    #[arg(long, value_enum, default_value_t = Machine::Gfx11)]
    machine: Machine,
}

/// The machines `farm asm` runs on.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Machine {
    /// Gfx11: Align1 only.
    Gfx11,
    /// Gfx11 with Align16 (SIMD4x2 vec4 code).
    Vec4,
}

fn raw(v: &Value, what: &str) -> Result<u64> {
    match v {
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_i64().map(|i| i as u64))
            .with_context(|| format!("{what}: expected an integer, found {n}")),
        Value::String(s) => {
            let hex = s
                .strip_prefix("0x")
                .with_context(|| format!("{what}: expected \"0x...\", found {s:?}"))?;
            u64::from_str_radix(hex, 16).map_err(|_| anyhow::anyhow!("{what}: bad hex {s:?}"))
        }
        _ => bail!("{what}: expected a number or a \"0x...\" string"),
    }
}

/// Raw slot-major inputs and uniforms from a JSON file.
fn read_raw_inputs(path: &Path) -> Result<(Vec<Vec<u64>>, Vec<u64>)> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| farm::durable::json_error(&name, &e))?;
    let mut inputs = Vec::new();
    if let Some(v) = json.get("inputs") {
        let Value::Array(slots) = v else {
            bail!("{name}: `inputs` must be an array of arrays")
        };
        for (s, col) in slots.iter().enumerate() {
            let Value::Array(vals) = col else {
                bail!("{name}: inputs[{s}] must be an array")
            };
            inputs.push(
                vals.iter()
                    .enumerate()
                    .map(|(i, v)| raw(v, &format!("{name}: inputs[{s}][{i}]")))
                    .collect::<Result<_>>()?,
            );
        }
    }
    let mut uniforms = Vec::new();
    if let Some(v) = json.get("uniforms") {
        let Value::Array(vals) = v else {
            bail!("{name}: `uniforms` must be an array")
        };
        uniforms = vals
            .iter()
            .enumerate()
            .map(|(i, v)| raw(v, &format!("{name}: uniforms[{i}]")))
            .collect::<Result<_>>()?;
    }
    Ok((inputs, uniforms))
}

/// Runs the command.
pub fn run(a: Args) -> Result<ExitCode> {
    let file_name = a.file.display().to_string();
    let source =
        std::fs::read_to_string(&a.file).with_context(|| format!("cannot read {file_name}"))?;
    let (slot_major, uniforms) = match &a.inputs {
        Some(p) => read_raw_inputs(p)?,
        None => (vec![], vec![]),
    };
    if let Some(short) = slot_major.iter().position(|v| v.len() < a.lanes as usize) {
        bail!(
            "input slot {short} has fewer values than --lanes {}",
            a.lanes
        );
    }
    let inputs = (0..a.lanes as usize)
        .map(|i| slot_major.iter().map(|col| col[i]).collect())
        .collect();
    let req = AsmRun {
        file_name,
        source,
        invocations: a.lanes,
        simd: a.simd,
        input_slots: slot_major.len() as u32,
        output_slots: a.outputs,
        inputs,
        uniforms,
        config: SimConfig {
            garbage_seed: a.garbage_seed,
            machine: match a.machine {
                Machine::Gfx11 => eu::MachineConfig::GFX11,
                Machine::Vec4 => eu::MachineConfig::VEC4,
            },
            ..SimConfig::default()
        },
    };
    match eu::run_asm(&req) {
        Ok((_, table)) => {
            emit(&table)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ (AsmRunError::Parse(_) | AsmRunError::Invalid(_))) => Err(anyhow::anyhow!("{e}")),
        Err(AsmRunError::Sim(e)) => {
            emit(&format!("{e}\n"))?;
            Ok(ExitCode::from(1))
        }
    }
}
