//! Per-pass localization: re-run a failing case after every pass and name
//! the first one after which the lanes diverge from the oracle.
//!
//! Every stage is executable: the IR after each IR pass runs in the
//! interpreter, the EU code on virtual registers after lowering and after
//! each EU pass runs in the simulator, and the final code after register
//! allocation too. The culprit is the first stage whose outputs differ, or
//! the stage that failed: the pass whose output does not validate, the
//! stage that was running when the compiler panicked, or the one that ran
//! out of registers. The compile itself runs in a [`Session`].

use crate::check::{compare, eu_dispatch, sim_budget, Config, INTERP_BUDGET};
use crate::interp::{run, InterpConfig, Outputs};
use crate::session::{Capture, Session, StageProgram};
use compiler::StageId;
use ir::Case;

/// One stage of the pipeline and whether its program still agrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The stage.
    pub stage: StageId,
    /// `None` if the program after this stage agrees with the oracle;
    /// otherwise a one-line description of the first difference (or of the
    /// stage's failure).
    pub divergence: Option<String>,
}

/// The localization trail of a case under a config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trail {
    /// Every stage that changed the program, in order, then the stage that
    /// failed if the compile failed.
    pub steps: Vec<Step>,
}

impl Trail {
    /// The first stage after which the program diverges, if any.
    pub fn culprit(&self) -> Option<StageId> {
        self.steps
            .iter()
            .find(|s| s.divergence.is_some())
            .map(|s| s.stage)
    }
}

fn first_diff(expected: &Outputs, got: &eu::RunResult) -> Option<String> {
    compare(expected, got).first().map(|d| {
        format!(
            "lane {} slot {}: expected {}, got {}",
            d.lane, d.slot, d.expected, d.got
        )
    })
}

fn run_eu(
    p: &eu::Program,
    machine: eu::MachineConfig,
    case: &Case,
    simd: u32,
    expected: &Outputs,
) -> Option<String> {
    let d = case.dispatch.as_ref()?;
    let ed = eu_dispatch(&case.program, d, simd);
    let cfg = eu::SimConfig {
        machine,
        garbage_seed: 0x5eed,
        step_budget: sim_budget(expected.steps),
    };
    match eu::run(p, &ed, &cfg) {
        Ok(r) => first_diff(expected, &r),
        Err(e) => Some(e.to_string()),
    }
}

/// Replays `case` under `config` stage by stage.
pub fn localize(case: &Case, config: &Config) -> Trail {
    let mut steps = Vec::new();
    let Some(d) = case.dispatch.as_ref() else {
        return Trail { steps };
    };
    let interp = InterpConfig {
        simd: config.simd,
        step_budget: INTERP_BUDGET,
    };
    let Ok(expected) = run(&case.program, d, &interp) else {
        return Trail { steps };
    };
    let session = Session::run(&case.program, config, Capture::Programs);
    for record in session.stages.iter().filter(|r| r.stage != StageId::Input) {
        let divergence = match &record.program {
            Some(StageProgram::Ir(p)) => match run(p, d, &interp) {
                Ok(o) => (o != expected).then(|| {
                    let inv = (0..o.invocations)
                        .find(|&i| (0..o.types.len()).any(|s| o.get(i, s) != expected.get(i, s)))
                        .unwrap_or(0);
                    format!("the IR's outputs differ from invocation {inv}")
                }),
                Err(e) => Some(e.to_string()),
            },
            Some(StageProgram::Eu(v)) => run_eu(
                &v.program(),
                v.machine(),
                case,
                config.dispatch_simd(),
                &expected,
            ),
            Some(StageProgram::Final(p)) => run_eu(
                p,
                config.strategy.machine(),
                case,
                config.dispatch_simd(),
                &expected,
            ),
            None => unreachable!("Capture::Programs keeps every program"),
        };
        steps.push(Step {
            stage: record.stage,
            divergence,
        });
    }
    // A failed compile blames the stage that failed (it left no snapshot).
    if let Err(f) = &session.result {
        steps.push(Step {
            stage: f.stage(),
            divergence: Some(f.describe()),
        });
    }
    Trail { steps }
}
