//! The SIMD simulator: runs a validated program over a dispatch (ABI.md).

mod decode;
mod int_lane;
mod lane;
mod num;
mod thread;

use std::collections::BTreeMap;
use std::fmt;

use crate::abi;
use crate::asm::print_instruction;
use crate::cf;
use crate::isa::{MachineConfig, Program, ALL_OPCODES};
use crate::validate::{validate, Violation};

/// Simulator configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimConfig {
    /// Register file shape (must match the one the program was validated for).
    pub machine: MachineConfig,
    /// Seed of the deterministic garbage (uninitialised registers and
    /// flags, undefined results).
    pub garbage_seed: u64,
    /// Maximum instructions issued over the whole dispatch before `Timeout`.
    pub step_budget: u64,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            machine: MachineConfig::GFX11,
            garbage_seed: 0,
            step_budget: 10_000_000,
        }
    }
}

/// What to run: invocations, SIMD width, per-invocation inputs, uniforms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dispatch {
    /// Number of invocations N (1..=1024).
    pub invocations: u32,
    /// SIMD width W of each thread (8, 16 or 32), or
    /// [`abi::SIMD4X2`] for two invocations of four channels each.
    pub simd: u32,
    /// Input slots per invocation.
    pub input_slots: u32,
    /// Output slots per invocation.
    pub output_slots: u32,
    /// Raw input slot values, `inputs[invocation][slot]`; missing rows or
    /// slots read as 0.
    pub inputs: Vec<Vec<u64>>,
    /// Raw uniform slot values.
    pub uniforms: Vec<u64>,
}

/// A stored output slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stored {
    /// The stored bytes, zero-extended.
    pub bits: u64,
    /// Bytes stored by the last store to this slot (1, 2, 4 or 8).
    pub size: u8,
}

/// Execution statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Threads run.
    pub threads: u64,
    /// Instructions issued (all threads).
    pub instructions: u64,
    /// Instructions issued per opcode mnemonic.
    pub per_opcode: BTreeMap<&'static str, u64>,
    /// Sum over issued instructions of the number of enabled channels.
    pub channel_instructions: u64,
}

/// Result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    /// `outputs[invocation][slot]`: the last store, or `None` = never written.
    pub outputs: Vec<Vec<Option<Stored>>>,
    /// Statistics.
    pub stats: Stats,
}

/// The kind of a simulation fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An operand touches a byte beyond the register file.
    GrfOutOfRange {
        /// The first offending byte offset.
        byte: u64,
    },
    /// An operand spans more than two GRFs.
    RegionTooWide,
    /// A message address is not aligned to its access size (8 for stores).
    Misaligned {
        /// Channel.
        channel: u32,
        /// Byte address.
        address: u32,
        /// Access size in bytes.
        size: u32,
    },
    /// A message address is outside its surface.
    OutOfSurface {
        /// Channel.
        channel: u32,
        /// Byte address.
        address: u32,
        /// Access size in bytes.
        size: u32,
        /// Surface size in bytes.
        surface_bytes: u64,
    },
    /// A scratch block beyond the thread's scratch space (2 MB on
    /// Gfx9–11).
    OutOfScratch {
        /// Byte offset of the block.
        offset: u64,
        /// Bytes in the block.
        bytes: u32,
    },
    /// A control-flow instruction whose width is not the dispatch width.
    CfWidth {
        /// The instruction's execution size.
        exec_size: u32,
        /// The thread's SIMD width.
        simd: u32,
    },
    /// Execution ran past the last instruction without EOT.
    FellOffEnd,
}

/// A precise fault: which instruction, in which thread, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimFault {
    /// Instruction index.
    pub index: usize,
    /// Instruction text.
    pub text: String,
    /// Thread index.
    pub thread: u32,
    /// What went wrong.
    pub kind: FaultKind,
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// The program failed validation.
    Invalid(Vec<Violation>),
    /// The dispatch is malformed.
    Dispatch(String),
    /// A bad access during execution.
    Fault(SimFault),
    /// The step budget ran out.
    Timeout {
        /// The budget.
        budget: u64,
        /// The thread running when it ran out.
        thread: u32,
    },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Invalid(v) => {
                write!(f, "invalid program:")?;
                for x in v {
                    write!(f, "\n  {x}")?;
                }
                Ok(())
            }
            SimError::Dispatch(m) => write!(f, "bad dispatch: {m}"),
            SimError::Fault(x) => write!(
                f,
                "fault in thread {} at instruction {} `{}`: {:?}",
                x.thread, x.index, x.text, x.kind
            ),
            SimError::Timeout { budget, thread } => {
                write!(
                    f,
                    "timeout: step budget {budget} exhausted in thread {thread}"
                )
            }
        }
    }
}

impl std::error::Error for SimError {}

/// Largest accepted number of input slots, output slots or uniforms.
pub const MAX_SLOTS: u32 = 4096;

/// Validate and run a program over a dispatch.
pub fn run(program: &Program, dispatch: &Dispatch, cfg: &SimConfig) -> Result<RunResult, SimError> {
    validate(program, &cfg.machine).map_err(SimError::Invalid)?;
    run_validated(program, dispatch, cfg)
}

/// [`run`], with the validator's answer for each non-control-flow
/// instruction taken from `inst_ok` (as [`crate::validate::valid_given`]
/// does): a caller that remembers those answers (the compiler has just
/// validated the same instructions) validates the program without asking
/// about them again. The full validator names the violations of a program
/// that fails.
pub fn run_given(
    program: &Program,
    dispatch: &Dispatch,
    cfg: &SimConfig,
    inst_ok: impl FnMut(usize, &crate::isa::Instruction) -> bool,
) -> Result<RunResult, SimError> {
    if !crate::validate::valid_given(&program.insts, &cfg.machine, inst_ok) {
        validate(program, &cfg.machine).map_err(SimError::Invalid)?;
    }
    run_validated(program, dispatch, cfg)
}

/// [`run`] on a program already validated (or, in tests, one the validator
/// rejects, to see what the hardware would make of it).
fn run_validated(
    program: &Program,
    dispatch: &Dispatch,
    cfg: &SimConfig,
) -> Result<RunResult, SimError> {
    let d = dispatch;
    if !(1..=1024).contains(&d.invocations) {
        return Err(SimError::Dispatch(format!(
            "invocations must be in 1..=1024, got {}",
            d.invocations
        )));
    }
    if ![abi::SIMD4X2, 8, 16, 32].contains(&d.simd) {
        return Err(SimError::Dispatch(format!(
            "simd must be 8, 16, 32 or 4 (SIMD4x2), got {}",
            d.simd
        )));
    }
    if d.input_slots > MAX_SLOTS
        || d.output_slots > MAX_SLOTS
        || d.uniforms.len() > MAX_SLOTS as usize
    {
        return Err(SimError::Dispatch(format!(
            "at most {MAX_SLOTS} input slots, output slots and uniforms"
        )));
    }
    let need = abi::payload_grfs(d.simd, d.uniforms.len() as u32, cfg.machine.grf_bytes);
    if need > cfg.machine.grf_count {
        return Err(SimError::Dispatch(format!(
            "the payload needs {need} GRFs, the machine has {}",
            cfg.machine.grf_count
        )));
    }
    if d.inputs.len() > d.invocations as usize
        || d.inputs.iter().any(|r| r.len() > d.input_slots as usize)
    {
        return Err(SimError::Dispatch(
            "inputs exceed invocations × input_slots".to_string(),
        ));
    }
    let info = cf::analyze(&program.insts)
        .map_err(|e| SimError::Dispatch(format!("control flow: {}", e.msg)))?;
    let dec = decode::decode(&program.insts, &cfg.machine, &info);
    let mut input = vec![0u8; d.invocations as usize * d.input_slots as usize * 8];
    for (inv, row) in d.inputs.iter().enumerate() {
        for (slot, v) in row.iter().enumerate() {
            let a = abi::input_address(inv as u32, slot as u32, d.input_slots) as usize;
            input[a..a + 8].copy_from_slice(&v.to_le_bytes());
        }
    }
    let mut m = thread::Machine::new(&dec, d, cfg, input);
    let threads = d.invocations.div_ceil(abi::invocations_per_thread(d.simd));
    for t in 0..threads {
        m.run_thread(t).map_err(|e| match e {
            thread::Stop::Fault(index, kind) => SimError::Fault(SimFault {
                index,
                text: program
                    .insts
                    .get(index)
                    .map(print_instruction)
                    .unwrap_or_default(),
                thread: t,
                kind,
            }),
            thread::Stop::Timeout => SimError::Timeout {
                budget: cfg.step_budget,
                thread: t,
            },
        })?;
    }
    let mut stats = Stats {
        threads: threads as u64,
        instructions: m.issued,
        per_opcode: BTreeMap::new(),
        channel_instructions: m.channel_instructions,
    };
    for (k, &n) in m.per_opcode.iter().enumerate() {
        if n > 0 {
            stats.per_opcode.insert(ALL_OPCODES[k].name(), n);
        }
    }
    Ok(RunResult {
        outputs: m.outputs,
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hardware runs `add(16)` as two `add(8)`: with the destination on
    /// the scalar source's register, the second half adds to what the
    /// first half wrote. The validator rejects this (`compressed-hazard`);
    /// the simulator still computes what the hardware would.
    #[test]
    fn a_compressed_instruction_runs_half_by_half() {
        // g4.0 = 100; add(16) g4 = g4.0 + 1. By hand: the first half reads
        // 100 and writes 101 to g4.0..7; the second half then reads g4.0 =
        // 101 and writes 102. Lane c stores its g4 element at 8c.
        let text = "mov(1) g4<1>UD 0x00000064UD { align1 WE_all 1N };\n\
                    add(16) g4<1>UD g4<0,1,0>UD 0x00000001UD { align1 1H };\n\
                    mul(16) g6<1>UD g1<8,8,1>UD 0x00000008UD { align1 1H };\n\
                    send(16) null g6 g4 st.b32 { align1 1H };\n\
                    send(8) null g0 end { align1 1Q EOT };";
        let p = crate::asm::parse_program(text).unwrap();
        assert!(validate(&p, &MachineConfig::GFX11).is_err());
        let d = Dispatch {
            invocations: 16,
            simd: 16,
            input_slots: 0,
            output_slots: 1,
            inputs: vec![],
            uniforms: vec![],
        };
        let r = run_validated(&p, &d, &SimConfig::default()).unwrap();
        let got: Vec<u64> = r.outputs.iter().map(|o| o[0].unwrap().bits).collect();
        let want: Vec<u64> = (0..16).map(|c| if c < 8 { 101 } else { 102 }).collect();
        assert_eq!(got, want);
    }

    /// `run_given` with the validator's own answers is `run`: the same
    /// result for a valid program, the same violations for one that is not.
    #[test]
    fn run_given_with_honest_answers_is_run() {
        let d = Dispatch {
            invocations: 8,
            simd: 8,
            input_slots: 0,
            output_slots: 1,
            inputs: vec![],
            uniforms: vec![],
        };
        let cfg = SimConfig::default();
        let honest = |_: usize, i: &crate::isa::Instruction| {
            crate::validate::instruction_ok(i, &cfg.machine)
        };
        let good = crate::asm::parse_program(
            "add(8) g4<1>UD g1<8,8,1>UD 0x00000064UD
             shl(8) g6<1>UD g1<8,8,1>UD 0x00000003UD
             send(8) null g6 g4 st.b32 { align1 1Q EOT };",
        )
        .unwrap();
        let r = run_given(&good, &d, &cfg, honest).unwrap();
        assert_eq!(r.outputs[3][0].unwrap().bits, 103);
        assert_eq!(Ok(r), run(&good, &d, &cfg));
        let bad = crate::asm::parse_program(
            "mul(8) g4<1>D g1<8,8,1>D g1<8,8,1>D
             send(8) null g0 end { align1 1Q EOT };",
        )
        .unwrap();
        let e = run_given(&bad, &d, &cfg, honest).unwrap_err();
        assert!(
            matches!(&e, SimError::Invalid(v) if v[0].rule == "mul-dword-dword"),
            "{e}"
        );
        assert_eq!(Err(e), run(&bad, &d, &cfg));
    }
}
