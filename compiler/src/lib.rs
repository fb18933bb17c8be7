//! The compiler under test: a model of Mesa's Intel (brw) backend.
//!
//! IR passes run on the shader IR, lowering turns it into EU code on virtual
//! registers under one of six boolean strategies, EU passes run on that, and
//! register allocation maps it onto the 128 GRFs. The result always passes
//! the `eu` validator; a program that does not is reported as a compiler bug
//! (`CompileError::InvalidEu`). This crate knows nothing of the farm.

pub mod brw;
pub mod bugs;
pub mod coverage;
mod eu_phase;
mod ir_phase;
pub mod lower;
mod memo;
pub mod nir;
pub mod options;
pub mod passes;
pub mod regalloc;
mod spill;
pub mod stage;
pub mod stats;
mod trace;
pub mod vir;

pub use bugs::{Bug, BugInfo, BugSet, BUGS};
pub use options::{CompileOptions, Strategy};
pub use passes::{BitfieldMode, BoolCleanupMode, IrCtx, PassCtx, PassInfo, PassSet, Stage, PASSES};
pub use stage::StageId;
pub use stats::StaticStats;
pub use vir::VProgram;

/// Why a compile produced no code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The input program is not valid IR.
    #[error("invalid input program: {0}")]
    InvalidProgram(#[from] ir::ValidationError),
    /// An IR pass left IR that does not validate: a compiler bug in that pass.
    #[error("invalid IR after {stage}: {error}")]
    InvalidIr {
        /// The IR pass that broke it.
        stage: StageId,
        /// The first validation error.
        error: ir::ValidationError,
    },
    /// A hardware limit was exceeded (registers, flags).
    #[error("compiler limit: {message}")]
    CompilerLimit {
        /// The stage that ran out.
        stage: StageId,
        /// What ran out, and where.
        message: String,
    },
    /// The compiler produced code the hardware rejects: a compiler bug.
    #[error("invalid EU code after {stage}: [{rule}] instruction {index}: `{text}`")]
    InvalidEu {
        /// After which stage.
        stage: StageId,
        /// The validator rule broken first.
        rule: &'static str,
        /// The offending instruction.
        index: usize,
        /// Its text.
        text: String,
    },
    /// The options are impossible (e.g. a SIMD width other than 8/16/32).
    #[error("bad options: {0}")]
    BadOptions(String),
}

impl CompileError {
    /// The stage the error is blamed on: the pass or step that produced the
    /// bad program or ran out, or `input` for a bad input or bad options.
    pub fn stage(&self) -> StageId {
        match self {
            CompileError::InvalidProgram(_) | CompileError::BadOptions(_) => StageId::Input,
            CompileError::InvalidIr { stage, .. }
            | CompileError::CompilerLimit { stage, .. }
            | CompileError::InvalidEu { stage, .. } => *stage,
        }
    }
}

/// The program a stage produced.
#[derive(Clone, Copy, Debug)]
pub enum Code<'a> {
    /// IR (the input, or after an IR pass).
    Ir(&'a ir::Program),
    /// EU code on virtual registers (after lowering or an EU pass).
    Eu(&'a VProgram),
    /// The final code on physical registers (after register allocation).
    Final(&'a eu::Program),
}

/// A program after some stage, handed to the observer.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot<'a> {
    /// The stage that just ran.
    pub stage: StageId,
    /// What it produced.
    pub code: Code<'a>,
}

/// Watches a compile: told when each stage starts, and handed the program
/// after every stage that changed it (for dumps, localization and reports).
/// Any `FnMut(Snapshot)` closure is an observer that ignores stage starts.
pub trait Observer {
    /// `stage` is about to run (IR and EU passes once per fixpoint round).
    fn begin(&mut self, stage: StageId) {
        let _ = stage;
    }
    /// `snapshot.stage` produced or changed the program.
    fn snapshot(&mut self, snapshot: Snapshot<'_>);
}

impl<F: FnMut(Snapshot<'_>)> Observer for F {
    fn snapshot(&mut self, snapshot: Snapshot<'_>) {
        self(snapshot)
    }
}

/// The result of a compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The final EU program (physical registers).
    pub program: eu::Program,
    /// The code on virtual registers just before register allocation.
    pub virt: VProgram,
    /// Static statistics of the final program.
    pub stats: StaticStats,
}

/// Most fixpoint rounds of a stage's passes.
pub(crate) const MAX_ROUNDS: usize = 8;

/// Compiles `program` with `opts`, telling `observer` when each stage starts
/// and handing it the program after every stage that changed it. The IR is
/// validated after every IR pass that changed it (as NIR does), the EU code
/// after lowering, every EU pass that changed it and register allocation.
pub fn compile_with_hook(
    program: &ir::Program,
    opts: &CompileOptions,
    observer: &mut dyn Observer,
) -> Result<Compiled, CompileError> {
    if !matches!(opts.simd, 8 | 16 | 32) {
        return Err(CompileError::BadOptions(format!(
            "SIMD width must be 8, 16 or 32, not {}",
            opts.simd
        )));
    }
    let p = ir_phase::run(
        program,
        &opts.passes,
        IrCtx {
            bugs: opts.bugs,
            bitfield: opts.passes.bitfield,
        },
        observer,
    )?;
    observer.begin(StageId::Lowering);
    let v = lower::lower(&p, opts)?;
    check_virtual(&v, StageId::Lowering)?;
    observer.snapshot(Snapshot {
        stage: StageId::Lowering,
        code: Code::Eu(&v),
    });
    eu_phase::run(v, opts, observer)
}

/// Compiles without an observer.
pub fn compile(program: &ir::Program, opts: &CompileOptions) -> Result<Compiled, CompileError> {
    compile_with_hook(program, opts, &mut |_: Snapshot<'_>| {})
}

fn check_virtual(v: &VProgram, stage: StageId) -> Result<(), CompileError> {
    check(&v.program(), &v.machine(), stage)
}

fn check(p: &eu::Program, machine: &eu::MachineConfig, stage: StageId) -> Result<(), CompileError> {
    // Most programs are valid and differ from the last one checked in a few
    // instructions: ask the validator about each distinct instruction once,
    // and for the violations only when something is wrong.
    if eu::validate::valid_given(p, machine, |i| brw::ops::instruction_ok(i, machine)) {
        return Ok(());
    }
    match eu::validate(p, machine) {
        Ok(()) => Ok(()),
        Err(violations) => {
            let first = &violations[0];
            Err(CompileError::InvalidEu {
                stage,
                rule: first.rule,
                index: first.index,
                text: first.text.clone(),
            })
        }
    }
}
