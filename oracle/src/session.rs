//! A compile session: the one place the harness drives the compiler under
//! test. It turns a [`Config`] into compile options, runs the compile under
//! `catch_unwind` with the panic protocol (the panic's message and
//! `file:line`, and the stage that was running), keeps what the caller asked
//! for of the stages on the way, and says what the outcome means as a
//! [`Verdict`]. `check`, `check_virtual`, `localize`, triage's reports and
//! the campaign all read a [`Session`]; none of them catches a panic itself.

use crate::check::{Config, Verdict};
use compiler::{Code, CompileError, CompileOptions, Compiled, Observer, Snapshot, StageId};
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a session keeps of the stages it passes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// Only which stages changed the program.
    Stages,
    /// Also a copy of every stage's program.
    Programs,
}

/// A copy of the program a stage produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StageProgram {
    /// IR.
    Ir(ir::Program),
    /// EU code on virtual registers.
    Eu(compiler::VProgram),
    /// The final code after register allocation.
    Final(eu::Program),
}

/// One stage that produced or changed the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageRecord {
    /// The stage.
    pub stage: StageId,
    /// Its program, under [`Capture::Programs`].
    pub program: Option<StageProgram>,
}

/// Why a session produced no program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileFailure {
    /// The compiler returned an error.
    Error(CompileError),
    /// The compiler panicked.
    Panic {
        /// The panic message.
        message: String,
        /// Where it panicked (`file:line`).
        location: String,
        /// The stage that was running.
        stage: StageId,
    },
}

impl CompileFailure {
    /// The stage the failure is blamed on.
    pub fn stage(&self) -> StageId {
        match self {
            CompileFailure::Error(e) => e.stage(),
            CompileFailure::Panic { stage, .. } => *stage,
        }
    }

    /// The verdict that ends a check with this failure.
    pub fn verdict(&self) -> Verdict {
        match self {
            CompileFailure::Error(CompileError::CompilerLimit { message, .. }) => {
                Verdict::CompilerLimit(message.clone())
            }
            CompileFailure::Error(e @ CompileError::Unsupported { .. }) => {
                Verdict::Unsupported(e.to_string())
            }
            CompileFailure::Error(CompileError::InvalidEu {
                stage, rule, text, ..
            }) => Verdict::InvalidEu {
                stage: *stage,
                rule: rule.to_string(),
                text: text.clone(),
            },
            CompileFailure::Error(CompileError::InvalidIr { stage, error }) => Verdict::InvalidIr {
                stage: *stage,
                error: error.to_string(),
            },
            CompileFailure::Error(
                e @ (CompileError::InvalidProgram(_) | CompileError::BadOptions(_)),
            ) => Verdict::InvalidCase(e.to_string()),
            CompileFailure::Panic {
                message, location, ..
            } => Verdict::CompilerPanic {
                message: message.clone(),
                location: location.clone(),
            },
        }
    }

    /// One line saying what went wrong, for localization trails.
    pub fn describe(&self) -> String {
        match self {
            CompileFailure::Error(e) => e.to_string(),
            CompileFailure::Panic {
                message,
                location,
                stage,
            } => format!("the compiler panicked in {stage} at {location}: {message}"),
        }
    }
}

/// One compile of a program under a config, with what was kept of it.
#[derive(Clone, Debug)]
pub struct Session {
    /// The compiled program, or why there is none.
    pub result: Result<Compiled, CompileFailure>,
    /// Every stage that produced or changed the program, in order: `input`
    /// first, then each pass that changed it, `lowering`, and `regalloc`
    /// when the compile got that far.
    pub stages: Vec<StageRecord>,
    /// The decision points the compile reached, with counts
    /// (`compiler::coverage`).
    pub coverage: compiler::coverage::Hits,
}

impl Session {
    /// Compiles `program` under `config`, keeping `capture` of the stages.
    pub fn run(program: &ir::Program, config: &Config, capture: Capture) -> Session {
        let opts = config.options();
        Session::drive(capture, |observer| {
            compiler::compile_with_hook(program, &opts, observer)
        })
    }

    /// Runs `compile` (a compile driven through the observer it is given)
    /// under the panic protocol.
    fn drive(
        capture: Capture,
        compile: impl FnOnce(&mut dyn Observer) -> Result<Compiled, CompileError>,
    ) -> Session {
        install_panic_hook();
        let mut recorder = Recorder {
            capture,
            stages: Vec::new(),
            current: StageId::Input,
        };
        IN_COMPILER.with(|c| c.set(true));
        let recording = compiler::coverage::Recording::start();
        let r = catch_unwind(AssertUnwindSafe(|| compile(&mut recorder)));
        let coverage = recording.finish();
        IN_COMPILER.with(|c| c.set(false));
        let result = match r {
            Ok(Ok(c)) => Ok(c),
            Ok(Err(e)) => Err(CompileFailure::Error(e)),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "(non-string panic)".into());
                let location = PANIC_LOCATION
                    .with(|l| l.borrow_mut().take())
                    .unwrap_or_else(|| "unknown".into());
                Err(CompileFailure::Panic {
                    message,
                    location,
                    stage: recorder.current,
                })
            }
        };
        Session {
            result,
            stages: recorder.stages,
            coverage,
        }
    }

    /// The passes (IR and EU) that changed the program, in order, once per
    /// fixpoint round in which they did.
    pub fn changed(&self) -> impl Iterator<Item = StageId> + '_ {
        self.stages
            .iter()
            .map(|s| s.stage)
            .filter(|s| s.pass_index().is_some())
    }

    /// The EU code on virtual registers after the last EU pass, with the
    /// stage that produced it: the compiled program's, or, when only
    /// register allocation failed, the last EU stage's (which is then
    /// complete; it needs [`Capture::Programs`]). Otherwise the failure.
    pub fn virtual_program(&self) -> Result<(StageId, &compiler::VProgram), &CompileFailure> {
        let last_eu = || {
            self.stages
                .iter()
                .rev()
                .find(|s| s.stage >= StageId::Lowering && s.stage < StageId::Regalloc)
        };
        match &self.result {
            Ok(c) => Ok((last_eu().map_or(StageId::Lowering, |s| s.stage), &c.virt)),
            Err(f) if f.stage() == StageId::Regalloc => match last_eu() {
                Some(StageRecord {
                    stage,
                    program: Some(StageProgram::Eu(v)),
                }) => Ok((*stage, v)),
                _ => Err(f),
            },
            Err(f) => Err(f),
        }
    }
}

impl Config {
    /// The compiler's options for this config.
    pub fn options(&self) -> CompileOptions {
        CompileOptions::new(self.strategy, self.simd, self.passes.clone()).with_bugs(self.bugs)
    }
}

/// The observer a session hands the compiler.
struct Recorder {
    capture: Capture,
    stages: Vec<StageRecord>,
    /// The stage running now (blamed if the compiler panics).
    current: StageId,
}

impl Observer for Recorder {
    fn begin(&mut self, stage: StageId) {
        self.current = stage;
    }

    fn snapshot(&mut self, s: Snapshot<'_>) {
        let program = (self.capture == Capture::Programs).then(|| match s.code {
            Code::Ir(p) => StageProgram::Ir(p.clone()),
            Code::Eu(v) => StageProgram::Eu(v.clone()),
            Code::Final(p) => StageProgram::Final(p.clone()),
        });
        self.stages.push(StageRecord {
            stage: s.stage,
            program,
        });
    }

    fn wants_code(&self) -> bool {
        self.capture == Capture::Programs
    }

    fn changed(&mut self, stage: StageId) {
        self.stages.push(StageRecord {
            stage,
            program: None,
        });
    }
}

thread_local! {
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
    static IN_COMPILER: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once per process) a panic hook that records the location of
/// panics inside a session's compile instead of printing them; other panics
/// print as before. Sessions install it themselves.
pub fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_COMPILER.with(|c| c.get()) {
                let loc = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()));
                PANIC_LOCATION.with(|p| *p.borrow_mut() = loc);
            } else {
                previous(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::{PassSet, Strategy};

    #[test]
    fn a_panic_is_caught_with_its_location_and_the_running_stage() {
        let program = ir::Program::default();
        let line = line!() + 7;
        let s = Session::drive(Capture::Programs, |observer| {
            observer.snapshot(Snapshot {
                stage: StageId::Input,
                code: Code::Ir(&program),
            });
            observer.begin("eu:cse".parse().unwrap());
            panic!("index {} out of range", 7)
        });
        let want = CompileFailure::Panic {
            message: "index 7 out of range".into(),
            location: format!("{}:{line}", file!()),
            stage: "eu:cse".parse().unwrap(),
        };
        assert_eq!(s.result.as_ref().unwrap_err(), &want);
        assert_eq!(
            want.describe(),
            format!(
                "the compiler panicked in eu:cse at {}:{line}: index 7 out of range",
                file!()
            )
        );
        assert_eq!(
            want.verdict(),
            Verdict::CompilerPanic {
                message: "index 7 out of range".into(),
                location: format!("{}:{line}", file!()),
            }
        );
        assert_eq!(s.stages.len(), 1);
        assert_eq!(s.stages[0].program, Some(StageProgram::Ir(program)));
        // The next panic outside a session prints as usual: the flag is reset.
        assert!(!IN_COMPILER.with(|c| c.get()));
    }

    #[test]
    fn an_ir_pass_that_breaks_the_ir_is_blamed_on_itself() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/bugs/gcm-ignores-phi-source.sir"
        ))
        .unwrap();
        let case = ir::parse_case(&text).unwrap();
        let mut config = Config::new(Strategy::Bool32, 8, PassSet::all());
        config.bugs = compiler::BugSet::parse("gcm-ignores-phi-source").unwrap();
        let s = Session::run(&case.program, &config, Capture::Stages);
        let gcm: StageId = "ir:gcm".parse().unwrap();
        let f = s.result.as_ref().unwrap_err();
        assert_eq!(f.stage(), gcm);
        assert_eq!(
            f.verdict(),
            Verdict::InvalidIr {
                stage: gcm,
                error: "%4 does not dominate its use in b0: `1     %6 = uge %4, %3`".into()
            }
        );
        // gcm's output was rejected, so it left no snapshot; the compile
        // stopped there.
        assert_eq!(s.stages.last().map(|r| r.stage < gcm), Some(true));
        assert!(s.changed().all(|p| p != gcm));
        config.bugs = compiler::BugSet::NONE;
        let s = Session::run(&case.program, &config, Capture::Stages);
        assert!(s.result.is_ok());
        assert_eq!(s.stages.first().map(|r| r.stage), Some(StageId::Input));
        assert_eq!(s.stages.last().map(|r| r.stage), Some(StageId::Regalloc));
        // Without the bug gcm only sinks the input load %0 to its one use,
        // after the loop.
        assert!(s.changed().any(|p| p == gcm));
        assert!(s.changed().all(|p| p.pass_index().is_some()));
    }
}
