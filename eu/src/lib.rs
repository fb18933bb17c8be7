//! `eu`: a model of the Intel Gfx11 (Ice Lake) execution unit, in Align1 and
//! (on `MachineConfig::VEC4`) the Align16 SIMD4x2 mode of the vec4 backend.
//!
//! * [`isa`]: instructions and operands; [`opcode`]: the opcode table
//!   (every opcode's facts, rendered to OPCODES.md); [`types`]: register
//!   data types.
//! * [`asm`]: Mesa-disassembler-style text (print and parse, exact round trip).
//! * [`cf`]: structured control-flow analysis and the JIP/UIP helper.
//! * [`validate()`]: hardware rules (EU-MODEL §3) with stable rule names.
//! * [`sim`]: the SIMD simulator running a dispatch (see ABI.md).
//! * [`run_asm`]: the entry point for `farm asm`.
//!
//! The instruction semantics are documented in ISA.md, the thread payload
//! and the surfaces in ABI.md.

pub mod abi;
pub mod asm;
pub mod cf;
mod compare;
pub mod fp;
pub mod isa;
pub mod opcode;
mod run;
pub mod sim;
mod srcs;
pub mod types;
pub mod validate;

pub use asm::{
    parse_program, parse_program_named, print_instruction, print_program, print_program_compact,
    print_program_named, ParseError, RegNames,
};
pub use cf::resolve_control_flow;
pub use isa::*;
pub use opcode::{OpcodeClass, OpcodeInfo, OPCODES};
pub use run::{format_outputs, run_asm, AsmRun, AsmRunError};
pub use sim::{run, run_given, Dispatch, RunResult, SimConfig, SimError, SimFault, Stats, Stored};
pub use types::RegType;
pub use validate::{validate, Violation};
