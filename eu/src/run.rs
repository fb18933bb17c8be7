//! Library entry point for `farm asm`: parse, validate, run, format.

use std::fmt;
use std::fmt::Write;

use crate::asm::{parse_program_named, ParseError};
use crate::isa::Program;
use crate::sim::{run, Dispatch, RunResult, SimConfig, SimError};
use crate::validate::{validate, Violation};

/// A request to run an assembly file.
#[derive(Clone, Debug, Default)]
pub struct AsmRun {
    /// File name used in error messages.
    pub file_name: String,
    /// The assembly text.
    pub source: String,
    /// Number of invocations (lanes of the dispatch), 1..=1024.
    pub invocations: u32,
    /// SIMD width: 8, 16 or 32.
    pub simd: u32,
    /// Input slots per invocation.
    pub input_slots: u32,
    /// Output slots per invocation.
    pub output_slots: u32,
    /// Raw input values `[invocation][slot]` (missing = 0).
    pub inputs: Vec<Vec<u64>>,
    /// Raw uniform values.
    pub uniforms: Vec<u64>,
    /// Simulator configuration.
    pub config: SimConfig,
}

/// Why `run_asm` failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AsmRunError {
    /// The text does not parse (file:line:col in the error).
    Parse(ParseError),
    /// The program breaks hardware rules.
    Invalid(Vec<Violation>),
    /// The run failed (bad dispatch, fault, timeout).
    Sim(SimError),
}

impl fmt::Display for AsmRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AsmRunError::Parse(e) => write!(f, "parse error: {e}"),
            AsmRunError::Invalid(v) => {
                write!(f, "invalid EU program ({} violation(s)):", v.len())?;
                for x in v {
                    write!(f, "\n  {x}")?;
                }
                Ok(())
            }
            AsmRunError::Sim(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AsmRunError {}

/// Parse `req.source`, validate it, run it over the dispatch, and return
/// the result together with a per-lane text table ([`format_outputs`]).
pub fn run_asm(req: &AsmRun) -> Result<(RunResult, String), AsmRunError> {
    let program = parse_program_named(&req.source, &req.file_name).map_err(AsmRunError::Parse)?;
    let mut config = req.config;
    // A listing from before register allocation names `vgrfN`, which parse
    // above the physical file: run it on a file that holds them.
    if let Some(top) = highest_grf(&program).filter(|&t| t >= crate::asm::VGRF_BASE) {
        config.machine.grf_count = config.machine.grf_count.max(top + crate::asm::VGRF_SPAN);
    }
    validate(&program, &config.machine).map_err(AsmRunError::Invalid)?;
    let dispatch = Dispatch {
        invocations: req.invocations,
        simd: req.simd,
        input_slots: req.input_slots,
        output_slots: req.output_slots,
        inputs: req.inputs.clone(),
        uniforms: req.uniforms.clone(),
    };
    let res = run(&program, &dispatch, &config).map_err(AsmRunError::Sim)?;
    let table = format_outputs(&res);
    Ok((res, table))
}

/// The highest GRF number an instruction names (None: no GRF at all).
fn highest_grf(p: &Program) -> Option<u32> {
    let mut top = None;
    let mut see = |nr: u32| top = Some(top.map_or(nr, |t: u32| t.max(nr)));
    for i in &p.insts {
        // A copy: the instruction's registers are only read.
        let mut i = *i;
        i.for_each_grf_mut(|nr| see(*nr));
    }
    top
}

/// Format outputs as a table: one row per invocation, one column per
/// slot; a cell is the stored value in hex with 2·size digits, or `never`
/// for a slot that was never written; then the statistics.
pub fn format_outputs(res: &RunResult) -> String {
    let slots = res.outputs.first().map_or(0, |r| r.len());
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(res.outputs.len() + 1);
    let mut head = vec!["lane".to_string()];
    head.extend((0..slots).map(|s| format!("slot{s}")));
    rows.push(head);
    for (inv, r) in res.outputs.iter().enumerate() {
        let mut row = vec![inv.to_string()];
        for cell in r {
            row.push(match cell {
                Some(s) => format!("0x{:0w$x}", s.bits, w = 2 * s.size as usize),
                None => "never".to_string(),
            });
        }
        rows.push(row);
    }
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.len())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, s)| format!("{s:<w$}", w = widths[c]))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    let s = &res.stats;
    let _ = writeln!(
        out,
        "threads {} instructions {} channel-instructions {}",
        s.threads, s.instructions, s.channel_instructions
    );
    let per: Vec<String> = s
        .per_opcode
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let _ = writeln!(out, "per-opcode {}", per.join(" "));
    out
}
