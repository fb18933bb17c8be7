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
pub mod insts;
mod ir_phase;
mod live_intervals;
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
pub mod vec4;
pub mod vir;

pub use bugs::{Bug, BugInfo, BugSet, BUGS};
pub use options::{Backend, CompileOptions, Strategy};
pub use passes::{
    BitfieldMode, BoolCleanupMode, FlagLiveness, IrCtx, PassCtx, PassInfo, PassSet, Stage, PASSES,
};
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
    /// The backend cannot compile the program (the vec4 backend takes
    /// 32-bit programs without cross-invocation ops): not a bug.
    #[error("the {backend} backend does not compile {what}")]
    Unsupported {
        /// The backend.
        backend: &'static str,
        /// What it cannot compile.
        what: String,
    },
}

impl CompileError {
    /// The stage the error is blamed on: the pass or step that produced the
    /// bad program or ran out, or `input` for a bad input or bad options.
    pub fn stage(&self) -> StageId {
        match self {
            CompileError::InvalidProgram(_) | CompileError::BadOptions(_) => StageId::Input,
            CompileError::Unsupported { .. } => StageId::Lowering,
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
    /// Whether the observer reads a snapshot's code. One that does not is
    /// told of a replayed stage by [`Observer::changed`], and remembered
    /// phases need not keep copies of every program for it.
    fn wants_code(&self) -> bool {
        true
    }
    /// `stage` changed the program (a replay to an observer that does not
    /// want code, in place of [`Observer::snapshot`]).
    fn changed(&mut self, stage: StageId) {
        let _ = stage;
    }
}

impl<F: FnMut(Snapshot<'_>)> Observer for F {
    fn snapshot(&mut self, snapshot: Snapshot<'_>) {
        self(snapshot)
    }
}

/// The result of a compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The final EU program (physical registers), shared: a replayed
    /// phase hands out the same one, which callers can tell by address.
    pub program: std::rc::Rc<eu::Program>,
    /// The code on virtual registers just before register allocation.
    pub virt: VProgram,
    /// Static statistics of the final program.
    pub stats: StaticStats,
    /// The register file the final program passed the validator for, every
    /// rule of it (the compile's last check): running it there needs no
    /// second validation.
    pub validated_for: eu::MachineConfig,
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
    if opts.strategy.is_vec4() && opts.simd != 8 {
        return Err(CompileError::BadOptions(format!(
            "the vec4 backend dispatches SIMD4x2 (8 channels): the SIMD width must be 8, not {}",
            opts.simd
        )));
    }
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
    let v = if opts.strategy.is_vec4() {
        vec4::lower(&p, opts)?
    } else {
        lower::lower(&p, opts)?
    };
    // The EU phase validates the lowered code and hands it to the observer
    // (not again when it replays a phase of the same code).
    eu_phase::run(v, opts, observer)
}

/// Compiles without an observer.
pub fn compile(program: &ir::Program, opts: &CompileOptions) -> Result<Compiled, CompileError> {
    compile_with_hook(program, opts, &mut |_: Snapshot<'_>| {})
}

pub(crate) fn check_virtual(v: &VProgram, stage: StageId) -> Result<(), CompileError> {
    check_since(&v.insts, None, &v.machine(), stage)
}

/// Validates the program `insts` after `stage`, given which of its
/// instructions were found in the last program that passed (`known`, or
/// none): they are known to pass their own rules, so they need not be
/// asked about again.
fn check_since(
    insts: &[eu::Instruction],
    known: Option<&vir::Earlier>,
    machine: &eu::MachineConfig,
    stage: StageId,
) -> Result<(), CompileError> {
    // A pass changes a few instructions: those found in the earlier list
    // passed there. Ask the validator about the others once per distinct
    // instruction on this thread.
    let known = |k: usize| known.is_some_and(|e| e.index(k).is_some());
    check_given(insts, machine, stage, |k, i| {
        known(k) || brw::ops::instruction_ok(i, machine)
    })
}

/// Validates the physical program `insts` after register allocation,
/// given which instructions of the virtual program it was assigned from
/// were found in the last virtual code that passed, on a register file of
/// the same shape (`shaped`, or none). Assignment changes only GRF
/// numbers, so those instructions are known to pass the rules that do not
/// read them ([`eu::validate::shape_ok`]); only the placement rules are
/// asked about them.
fn check_assigned(
    insts: &[eu::Instruction],
    shaped: Option<&vir::Earlier>,
    machine: &eu::MachineConfig,
) -> Result<(), CompileError> {
    let shaped = |k: usize| shaped.is_some_and(|e| e.index(k).is_some());
    check_given(insts, machine, StageId::Regalloc, |k, i| {
        if shaped(k) {
            let ok = eu::validate::placement_ok(i, machine);
            debug_assert_eq!(ok, eu::validate::instruction_ok(i, machine), "{i:?}");
            ok
        } else {
            brw::ops::instruction_ok(i, machine)
        }
    })
}

/// Validates `insts` after `stage`, where `ok(k, i)` tells whether
/// instruction k, `i`, passes its own rules; the full validator runs for
/// the violations only when something is wrong.
fn check_given(
    insts: &[eu::Instruction],
    machine: &eu::MachineConfig,
    stage: StageId,
    ok: impl Fn(usize, &eu::Instruction) -> bool,
) -> Result<(), CompileError> {
    if eu::validate::valid_given(insts, machine, ok) {
        return Ok(());
    }
    let p = eu::Program {
        insts: insts.to_vec(),
    };
    match eu::validate(&p, machine) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_since_an_earlier_program_still_finds_a_changed_instruction() {
        let end = "send(8) null g0 end { align1 1Q EOT };";
        let valid = format!("mov(8) g2<1>UD g3<8,8,1>UD\nmov(8) g4<1>UD g2<8,8,1>UD\n{end}");
        let before = eu::parse_program(&valid).unwrap().insts;
        // A byte may not be the second source of a two-source instruction
        // on Gfx11.
        let bad = "add(8) g5<1>W g3<8,8,1>W g4<8,8,1>B";
        let now = eu::parse_program(&format!(
            "mov(8) g2<1>UD g3<8,8,1>UD\n{bad}\nmov(8) g4<1>UD g2<8,8,1>UD\n{end}"
        ))
        .unwrap()
        .insts;
        let m = eu::MachineConfig::GFX11;
        let stage = StageId::Regalloc;
        let same = vir::Earlier::between(&before, &before);
        assert_eq!(check_since(&before, Some(&same), &m, stage), Ok(()));
        let earlier = vir::Earlier::between(&now, &before);
        match check_since(&now, Some(&earlier), &m, stage) {
            Err(CompileError::InvalidEu { index, rule, .. }) => {
                assert_eq!((index, rule), (1, "byte-src1"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_assigned_check_asks_placement_of_known_shapes_and_everything_of_the_rest() {
        let end = "send(8) null g0 end { align1 1Q EOT };";
        let m = eu::MachineConfig::GFX11;
        let first_error = |text: &str, shaped: Option<&vir::Earlier>| {
            let insts = eu::parse_program(text).unwrap().insts;
            match check_assigned(&insts, shaped, &m) {
                Ok(()) => None,
                Err(CompileError::InvalidEu {
                    stage, index, rule, ..
                }) => {
                    assert_eq!(stage, StageId::Regalloc);
                    Some((index, rule))
                }
                Err(e) => panic!("{e:?}"),
            }
        };
        // A SIMD16 dword write from g127 runs past the register file: a
        // placement rule, asked even when the shape is known.
        let past = format!("mov(16) g127<1>UD g3<8,8,1>UD\n{end}");
        let insts = eu::parse_program(&past).unwrap().insts;
        // Nothing found earlier, and everything.
        let none = vir::Earlier::between(&insts, &[]);
        let known = vir::Earlier::between(&insts, &insts);
        assert!(known.same() && none.index(0).is_none());
        assert_eq!(first_error(&past, Some(&known)), Some((0, "grf-bounds")));
        assert_eq!(first_error(&past, Some(&none)), Some((0, "grf-bounds")));
        assert_eq!(first_error(&past, None), Some((0, "grf-bounds")));
        // A shape rule is asked about an instruction whose shape is not
        // known: a byte may not be the second source of a two-source
        // instruction on Gfx11.
        let bad = format!("add(8) g5<1>W g3<8,8,1>W g4<8,8,1>B\n{end}");
        assert_eq!(first_error(&bad, None), Some((0, "byte-src1")));
        assert_eq!(first_error(&bad, Some(&none)), Some((0, "byte-src1")));
        // Placed anywhere inside the file, a valid shape passes.
        let fine = format!("mov(16) g126<1>UD g3<8,8,1>UD\n{end}");
        assert_eq!(first_error(&fine, Some(&known)), None);
    }
}
