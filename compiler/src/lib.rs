//! The compiler under test: a model of Mesa's Intel (brw) backend.
//!
//! IR passes run on the shader IR, lowering turns it into EU code on virtual
//! registers under one of four boolean strategies, EU passes run on that, and
//! register allocation maps it onto the 128 GRFs. The result always passes
//! the `eu` validator; a program that does not is reported as a compiler bug
//! (`CompileError::InvalidEu`). This crate knows nothing of the farm.

pub mod brw;
pub mod bugs;
pub mod lower;
pub mod nir;
pub mod options;
pub mod passes;
pub mod regalloc;
pub mod stats;
pub mod vir;

pub use bugs::{Bug, BugInfo, BugSet, BUGS};
pub use options::{CompileOptions, Strategy};
pub use passes::{BitfieldMode, PassCtx, PassInfo, PassSet, Stage, PASSES};
pub use stats::StaticStats;
pub use vir::VProgram;

/// Why a compile produced no code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The input program is not valid IR.
    #[error("invalid input program: {0}")]
    InvalidProgram(#[from] ir::ValidationError),
    /// A hardware limit was exceeded (registers, flags).
    #[error("compiler limit: {0}")]
    CompilerLimit(String),
    /// The compiler produced code the hardware rejects: a compiler bug.
    #[error("invalid EU code after {stage}: [{rule}] instruction {index}: `{text}`")]
    InvalidEu {
        /// After which stage (`lowering`, a pass name, `regalloc`).
        stage: String,
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

/// A program after some stage, handed to the hook.
#[derive(Clone, Copy, Debug)]
pub enum Snapshot<'a> {
    /// IR after an IR pass (or the input, with `pass` = "input").
    Ir {
        /// The pass that just ran.
        pass: &'a str,
        /// The program.
        program: &'a ir::Program,
    },
    /// EU code on virtual registers after lowering or an EU pass.
    Eu {
        /// `lowering` or the pass that just ran.
        pass: &'a str,
        /// The program.
        program: &'a VProgram,
    },
    /// The final code after register allocation.
    Final {
        /// The program.
        program: &'a eu::Program,
    },
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
const MAX_ROUNDS: usize = 8;

/// Compiles `program` with `opts`, calling `hook` after every stage that
/// changed the program (for dumps and per-pass localization).
pub fn compile_with_hook(
    program: &ir::Program,
    opts: &CompileOptions,
    hook: &mut dyn FnMut(Snapshot<'_>),
) -> Result<Compiled, CompileError> {
    if !matches!(opts.simd, 8 | 16 | 32) {
        return Err(CompileError::BadOptions(format!(
            "SIMD width must be 8, 16 or 32, not {}",
            opts.simd
        )));
    }
    ir::validate(program)?;
    let ctx = PassCtx {
        strategy: opts.strategy,
        simd: opts.simd,
        bugs: opts.bugs,
        bitfield: opts.passes.bitfield,
    };
    let mut p = program.clone();
    hook(Snapshot::Ir {
        pass: "input",
        program: &p,
    });
    for _ in 0..MAX_ROUNDS {
        let mut progress = false;
        for (_, info) in opts.passes.iter().filter(|(_, i)| i.stage == Stage::Ir) {
            if let passes::Entry::Ir(f) = info.entry {
                if f(&mut p, &ctx) {
                    progress = true;
                    hook(Snapshot::Ir {
                        pass: info.name,
                        program: &p,
                    });
                }
            }
        }
        if !progress {
            break;
        }
    }
    let mut v = lower::lower(&p, opts)?;
    check_virtual(&v, "lowering")?;
    hook(Snapshot::Eu {
        pass: "lowering",
        program: &v,
    });
    for _ in 0..MAX_ROUNDS {
        let mut progress = false;
        for (_, info) in opts.passes.iter().filter(|(_, i)| i.stage == Stage::Eu) {
            if let passes::Entry::Eu(f) = info.entry {
                if f(&mut v, &ctx) {
                    progress = true;
                    v.compact().map_err(|e| CompileError::InvalidEu {
                        stage: info.name.to_string(),
                        rule: e.rule,
                        index: e.index,
                        text: String::new(),
                    })?;
                    check_virtual(&v, info.name)?;
                    hook(Snapshot::Eu {
                        pass: info.name,
                        program: &v,
                    });
                }
            }
        }
        if !progress {
            break;
        }
    }
    let physical = regalloc::allocate(&v)?;
    check(&physical, &eu::MachineConfig::GFX11, "regalloc")?;
    hook(Snapshot::Final { program: &physical });
    let stats = StaticStats::of(&physical);
    Ok(Compiled {
        program: physical,
        virt: v,
        stats,
    })
}

/// Compiles without a hook.
pub fn compile(program: &ir::Program, opts: &CompileOptions) -> Result<Compiled, CompileError> {
    compile_with_hook(program, opts, &mut |_| {})
}

fn check_virtual(v: &VProgram, stage: &str) -> Result<(), CompileError> {
    check(&v.program(), &v.machine(), stage)
}

fn check(p: &eu::Program, machine: &eu::MachineConfig, stage: &str) -> Result<(), CompileError> {
    match eu::validate(p, machine) {
        Ok(()) => Ok(()),
        Err(violations) => {
            let first = &violations[0];
            Err(CompileError::InvalidEu {
                stage: stage.to_string(),
                rule: first.rule,
                index: first.index,
                text: first.text.clone(),
            })
        }
    }
}
