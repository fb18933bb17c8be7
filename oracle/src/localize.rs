//! Per-pass localization: re-run a failing case after every pass and name
//! the first one after which the lanes diverge from the oracle.
//!
//! Every stage is executable: the IR after each IR pass runs in the
//! interpreter, the EU code on virtual registers after lowering and after
//! each EU pass runs in the simulator, and the final code after register
//! allocation too. The culprit is the first stage whose outputs differ (or
//! that does not validate), or `lowering` / `regalloc`.

use crate::check::{compare, eu_dispatch, Config, INTERP_BUDGET, SIM_BUDGET};
use crate::interp::{run, InterpConfig, Outputs};
use compiler::{CompileOptions, Snapshot};
use ir::Case;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// One stage of the pipeline and whether its program still agrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// `ir:NAME`, `lowering`, `eu:NAME` or `regalloc`.
    pub stage: String,
    /// `None` if the program after this stage agrees with the oracle;
    /// otherwise a one-line description of the first difference.
    pub divergence: Option<String>,
}

/// The localization trail of a case under a config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trail {
    /// Every stage that changed the program, in order.
    pub steps: Vec<Step>,
}

impl Trail {
    /// The first stage after which the program diverges, if any.
    pub fn culprit(&self) -> Option<&str> {
        self.steps
            .iter()
            .find(|s| s.divergence.is_some())
            .map(|s| s.stage.as_str())
    }
}

enum Stage {
    Ir(String, ir::Program),
    Eu(String, compiler::VProgram),
    Final(eu::Program),
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
        step_budget: SIM_BUDGET,
    };
    match eu::run(p, &ed, &cfg) {
        Ok(r) => first_diff(expected, &r),
        Err(e) => Some(e.to_string()),
    }
}

/// Replays `case` under `config` stage by stage.
pub fn localize(case: &Case, config: &Config) -> Trail {
    let mut stages: Vec<Stage> = Vec::new();
    let opts = CompileOptions::new(config.strategy, config.simd, config.passes.clone())
        .with_bugs(config.bugs);
    let result = catch_unwind(AssertUnwindSafe(|| {
        compiler::compile_with_hook(&case.program, &opts, &mut |s| match s {
            Snapshot::Ir { pass, program } if pass != "input" => {
                stages.push(Stage::Ir(format!("ir:{pass}"), program.clone()))
            }
            Snapshot::Ir { .. } => {}
            Snapshot::Eu { pass, program } => {
                let name = if pass == "lowering" {
                    "lowering".to_string()
                } else {
                    format!("eu:{pass}")
                };
                stages.push(Stage::Eu(name, program.clone()))
            }
            Snapshot::Final { program } => stages.push(Stage::Final(program.clone())),
        })
    }));
    let mut steps = Vec::new();
    let Some(d) = case.dispatch.as_ref() else {
        return Trail { steps };
    };
    let Ok(expected) = run(
        &case.program,
        d,
        &InterpConfig {
            simd: config.simd,
            step_budget: INTERP_BUDGET,
        },
    ) else {
        return Trail { steps };
    };
    for stage in &stages {
        let (name, divergence) = match stage {
            Stage::Ir(name, p) => {
                let div = match run(
                    p,
                    d,
                    &InterpConfig {
                        simd: config.simd,
                        step_budget: INTERP_BUDGET,
                    },
                ) {
                    Ok(o) => (o != expected).then(|| {
                        let inv = (0..o.invocations)
                            .find(|&i| {
                                (0..o.types.len()).any(|s| o.get(i, s) != expected.get(i, s))
                            })
                            .unwrap_or(0);
                        format!("the IR's outputs differ from invocation {inv}")
                    }),
                    Err(e) => Some(e.to_string()),
                };
                (name.clone(), div)
            }
            Stage::Eu(name, v) => (
                name.clone(),
                run_eu(&v.program(), v.machine(), case, config.simd, &expected),
            ),
            Stage::Final(p) => (
                "regalloc".to_string(),
                run_eu(p, eu::MachineConfig::GFX11, case, config.simd, &expected),
            ),
        };
        steps.push(Step {
            stage: name,
            divergence,
        });
    }
    // A compile that failed after its last snapshot blames the next stage.
    if let Ok(Err(e)) = &result {
        let stage = match e {
            compiler::CompileError::InvalidEu { stage, .. } => stage.clone(),
            compiler::CompileError::CompilerLimit(_) => "regalloc".into(),
            _ => "lowering".into(),
        };
        steps.push(Step {
            stage,
            divergence: Some(e.to_string()),
        });
    }
    if result.is_err() {
        steps.push(Step {
            stage: "compiler panic".into(),
            divergence: Some("the compiler panicked".into()),
        });
    }
    Trail { steps }
}
