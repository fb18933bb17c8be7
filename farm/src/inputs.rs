//! Reading cases and dispatches from files: `.sir` cases, `--inputs` JSON
//! files and the `--lanes` override.
//!
//! The JSON file has the form
//! `{"inputs": [[v, v, ...], ...], "uniforms": [v, ...]}`: one array per
//! input slot with a value per invocation, one value per uniform slot. A value
//! is a JSON number (read as the slot's type) or a string in `.sir` value
//! syntax (`"0x7fc00001"`, `"-0.0"`, `"nan"`, `"true"`).

use anyhow::{bail, Context, Result};
use ir::value::parse_value;
use ir::{Case, Dispatch, SlotType};
use serde_json::Value;
use std::path::Path;

/// Reads and parses a `.sir` file; errors name file:line:col.
pub fn read_case(path: &Path) -> Result<Case> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    case_from_text(path, &text)
}

/// Parses and validates the text of the `.sir` file `path`; errors name
/// file:line:col.
pub fn case_from_text(path: &Path, text: &str) -> Result<Case> {
    let case = ir::parse_case(text)
        .map_err(|e| anyhow::anyhow!("{}", e.in_file(&path.display().to_string())))?;
    ir::validate(&case.program)
        .map_err(|e| anyhow::anyhow!("{}: invalid program: {e}", path.display()))?;
    Ok(case)
}

/// The dispatch to run: from `--inputs` if given, else the case's own, else
/// the default; `--lanes` then sets the invocation count.
pub fn choose_dispatch(case: &Case, inputs: Option<&Path>, lanes: Option<u32>) -> Result<Dispatch> {
    let mut d = match inputs {
        Some(p) => read_inputs_json(p, &case.program, lanes)?,
        None => match &case.dispatch {
            Some(d) => d.clone(),
            None => Dispatch::default_for(&case.program, lanes.unwrap_or(16)),
        },
    };
    if let Some(n) = lanes {
        if n == 0 || n > ir::dispatch::MAX_INVOCATIONS {
            bail!(
                "--lanes must be in 1..={}, not {n}",
                ir::dispatch::MAX_INVOCATIONS
            );
        }
        if inputs.is_none() && case.dispatch.is_none() {
            d = Dispatch::default_for(&case.program, n);
        } else if n > d.invocations {
            bail!(
                "--lanes {n} is more than the {} invocations the inputs give",
                d.invocations
            );
        } else {
            d = d.truncated(n);
        }
    }
    d.check(&case.program).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(d)
}

fn json_value(ty: SlotType, v: &Value, what: &str) -> Result<u64> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => bail!("{what}: expected a number or a string, found {v}"),
    };
    parse_value(ty, &text).map_err(|e| anyhow::anyhow!("{what}: {e}"))
}

/// Reads an `--inputs` JSON file for `program`.
pub fn read_inputs_json(
    path: &Path,
    program: &ir::Program,
    lanes: Option<u32>,
) -> Result<Dispatch> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| farm::durable::json_error(&name, &e))?;
    let empty = Vec::new();
    let inputs = match json.get("inputs") {
        None => &empty,
        Some(Value::Array(a)) => a,
        Some(_) => bail!("{name}: `inputs` must be an array of arrays"),
    };
    if inputs.len() != program.inputs.len() {
        bail!(
            "{name}: the program declares {} input slots, the file gives {}",
            program.inputs.len(),
            inputs.len()
        );
    }
    let mut slots = Vec::new();
    for (s, (col, ty)) in inputs.iter().zip(&program.inputs).enumerate() {
        let Value::Array(vals) = col else {
            bail!("{name}: inputs[{s}] must be an array")
        };
        let vals = vals
            .iter()
            .enumerate()
            .map(|(i, v)| json_value(*ty, v, &format!("{name}: inputs[{s}][{i}]")))
            .collect::<Result<Vec<u64>>>()?;
        slots.push(vals);
    }
    let uniforms = match json.get("uniforms") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .zip(&program.uniforms)
            .enumerate()
            .map(|(s, (v, ty))| json_value(*ty, v, &format!("{name}: uniforms[{s}]")))
            .collect::<Result<Vec<u64>>>()?,
        Some(_) => bail!("{name}: `uniforms` must be an array"),
    };
    if uniforms.len() != program.uniforms.len() {
        bail!(
            "{name}: the program declares {} uniform slots, the file gives {}",
            program.uniforms.len(),
            uniforms.len()
        );
    }
    let given = slots
        .iter()
        .map(|v| v.len())
        .min()
        .unwrap_or(lanes.unwrap_or(16) as usize);
    let invocations = u32::try_from(given)
        .unwrap_or(u32::MAX)
        .min(ir::dispatch::MAX_INVOCATIONS);
    if invocations == 0 {
        bail!("{name}: the input arrays are empty");
    }
    Ok(Dispatch {
        invocations,
        inputs: slots,
        uniforms,
    })
}

/// Parses a `--simd` value: 8, 16 or 32.
pub use oracle::check::parse_simd;

/// The most workers a campaign runs.
pub const MAX_JOBS: usize = 256;

/// Parses `--jobs`: 1..=[`MAX_JOBS`].
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n @ 1..=MAX_JOBS) => Ok(n),
        _ => Err(format!("--jobs must be in 1..={MAX_JOBS}, not `{s}`")),
    }
}

/// Parses a `// config: --strategy S --simd W --passes P [--inject B]`
/// first line (as in `corpus/bugs/*.sir`, `corpus/regressions/*.sir` and
/// reduced findings) over `base`; `None` if the text has no such line.
pub fn config_line(text: &str, base: &oracle::Config) -> Result<Option<oracle::Config>, String> {
    let Some(rest) = text
        .lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("// config:"))
    else {
        return Ok(None);
    };
    base.with_options(rest).map(Some)
}

/// Applies `--strategy`, `--backend` and `--simd` (each optional) to
/// `config`: a backend without a strategy picks its first strategy (unless
/// the config's already is one of it), a strategy of another backend is an
/// error naming both, and the SIMD width defaults to 8 for vec4 code
/// (SIMD4x2).
pub fn apply_backend(
    config: &mut oracle::Config,
    strategy: Option<compiler::Strategy>,
    backend: Option<compiler::Backend>,
    simd: Option<u32>,
) -> anyhow::Result<()> {
    if let Some(s) = strategy {
        config.strategy = s;
    }
    match (backend, strategy) {
        (Some(b), Some(s)) if s.backend() != b => {
            anyhow::bail!("--strategy {s} is not a strategy of --backend {b}")
        }
        (Some(b), None) if config.strategy.backend() != b => {
            config.strategy = b.strategies()[0];
        }
        _ => {}
    }
    if let Some(w) = simd {
        config.simd = w;
    } else if config.strategy.is_vec4() {
        config.simd = 8;
    }
    Ok(())
}
