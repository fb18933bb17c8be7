//! One case under one config: a verdict. Compiles the program, simulates the
//! EU code over the case's dispatch, and compares every lane's outputs with
//! the reference interpreter.
//!
//! Comparison rules: integers and booleans bit-exactly; floats bit-exactly
//! except that two NaNs agree whatever their payloads; a slot must be
//! written (with the slot type's size) exactly where the oracle writes it.
//! Against a real driver, [`compare_relaxed`] skips the pairs the spec lets
//! a driver compute differently (the list is [`crate::relax`]).

use crate::interp::{run, InterpConfig, InterpError, Outputs};
use crate::relax::{Exclusions, RelaxCounts};
use crate::session::{Capture, Session};
use compiler::{BugSet, PassSet, StageId, Strategy};
use ir::value::{format_value, values_agree};
use ir::{Case, Dispatch, Program};
use std::fmt;

/// Parses a SIMD width: 8, 16 or 32.
pub fn parse_simd(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(w @ (8 | 16 | 32)) => Ok(w),
        _ => Err(format!("SIMD width must be 8, 16 or 32, not `{s}`")),
    }
}

/// One compile configuration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// Boolean strategy.
    pub strategy: Strategy,
    /// SIMD width (and subgroup width of the oracle).
    pub simd: u32,
    /// Passes.
    pub passes: PassSet,
    /// Injected bugs (none normally).
    pub bugs: BugSet,
}

impl Config {
    /// A config with no injected bugs.
    pub fn new(strategy: Strategy, simd: u32, passes: PassSet) -> Config {
        Config {
            strategy,
            simd,
            passes,
            bugs: BugSet::NONE,
        }
    }

    /// The width the compiled code is dispatched at (SIMD4x2 for vec4).
    pub fn dispatch_simd(&self) -> u32 {
        self.strategy.dispatch_simd(self.simd)
    }

    /// Applies options in the form `Display` prints (`--strategy S --simd W
    /// --passes P [--inject B]`, any subset, any order) to a copy of `self`.
    pub fn with_options(&self, text: &str) -> Result<Config, String> {
        let mut c = self.clone();
        let words: Vec<&str> = text.split_whitespace().collect();
        for pair in words.chunks(2) {
            match pair {
                ["--strategy", s] => c.strategy = s.parse()?,
                ["--simd", w] => c.simd = parse_simd(w)?,
                ["--passes", p] => c.passes = PassSet::parse(p)?,
                ["--inject", b] => c.bugs = BugSet::parse(b)?,
                other => return Err(format!("unexpected `{}` in the config", other.join(" "))),
            }
        }
        Ok(c)
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--strategy {} --simd {} --passes {}",
            self.strategy, self.simd, self.passes
        )?;
        if !self.bugs.is_empty() {
            write!(f, " --inject {}", self.bugs)?;
        }
        Ok(())
    }
}

/// A differing output slot of one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneDiff {
    /// Invocation.
    pub lane: u32,
    /// Output slot.
    pub slot: usize,
    /// What the oracle says (`-` = never written).
    pub expected: String,
    /// What the compiled code did.
    pub got: String,
}

/// The outcome of one case under one config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every lane agrees.
    Pass,
    /// Some lanes differ.
    Mismatch {
        /// The differing lane/slot pairs.
        diffs: Vec<LaneDiff>,
    },
    /// The compiler panicked.
    CompilerPanic {
        /// The panic message.
        message: String,
        /// Where it panicked (file:line), when known.
        location: String,
    },
    /// The compiler hit a hardware limit.
    CompilerLimit(String),
    /// An IR pass produced IR that does not validate.
    InvalidIr {
        /// The pass.
        stage: StageId,
        /// The first validation error.
        error: String,
    },
    /// The compiler produced code the hardware rejects.
    InvalidEu {
        /// After which stage.
        stage: StageId,
        /// The broken rule.
        rule: String,
        /// The instruction.
        text: String,
    },
    /// The simulator faulted running the compiled code.
    SimFault(String),
    /// A step budget ran out.
    Timeout {
        /// Whose budget.
        stage: Budget,
    },
    /// The program has undefined behaviour (the generator's fault, not the compiler's).
    InvalidCase(String),
    /// A driver target cannot run the case as the comparison needs (a
    /// missing device feature, too many invocations, another subgroup
    /// layout): not a finding.
    Unsupported(String),
    /// The SPIR-V export failed: a bug in our exporter, not in the driver.
    ExportError(String),
    /// The driver refused the module (shader module or pipeline creation
    /// failed).
    DriverCompileFail {
        /// The driver's error.
        message: String,
    },
    /// The dispatch did not finish within its time limit.
    DriverTimeout,
    /// The driver crashed the worker process or lost the device.
    DriverCrash {
        /// How (signal, exit status, device lost).
        detail: String,
    },
}

impl Verdict {
    /// The verdict's kind, as a short name.
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Mismatch { .. } => "mismatch",
            Verdict::CompilerPanic { .. } => "compiler-panic",
            Verdict::CompilerLimit(_) => "compiler-limit",
            Verdict::InvalidIr { .. } => "invalid-ir",
            Verdict::InvalidEu { .. } => "invalid-eu",
            Verdict::SimFault(_) => "sim-fault",
            Verdict::Timeout { .. } => "timeout",
            Verdict::InvalidCase(_) => "invalid-case",
            Verdict::Unsupported(_) => "unsupported",
            Verdict::ExportError(_) => "export-error",
            Verdict::DriverCompileFail { .. } => "driver-compile-fail",
            Verdict::DriverTimeout => "driver-timeout",
            Verdict::DriverCrash { .. } => "driver-crash",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Pass => write!(f, "pass"),
            Verdict::Mismatch { diffs } => {
                write!(f, "mismatch in {} lane/slot pairs", diffs.len())?;
                writeln!(f)?;
                writeln!(f, "lane\tslot\texpected\tgot")?;
                for d in diffs {
                    writeln!(f, "{}\t{}\t{}\t{}", d.lane, d.slot, d.expected, d.got)?;
                }
                Ok(())
            }
            Verdict::CompilerPanic { message, location } => {
                write!(f, "compiler panic at {location}: {message}")
            }
            Verdict::CompilerLimit(m) => write!(f, "compiler limit: {m}"),
            Verdict::InvalidIr { stage, error } => write!(f, "invalid IR after {stage}: {error}"),
            Verdict::InvalidEu { stage, rule, text } => {
                write!(f, "invalid EU code after {stage}: [{rule}] `{text}`")
            }
            Verdict::SimFault(m) => write!(f, "simulator fault: {m}"),
            Verdict::Timeout { stage } => write!(f, "timeout in {stage}"),
            Verdict::InvalidCase(m) => write!(f, "invalid case: {m}"),
            Verdict::Unsupported(m) => write!(f, "unsupported: {m}"),
            Verdict::ExportError(m) => write!(f, "SPIR-V export failed: {m}"),
            Verdict::DriverCompileFail { message } => {
                write!(f, "the driver failed to compile the module: {message}")
            }
            Verdict::DriverTimeout => write!(f, "the dispatch timed out"),
            Verdict::DriverCrash { detail } => write!(f, "the driver crashed: {detail}"),
        }
    }
}

/// Whose step budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// The reference interpreter's (the case loops too long: a generator problem).
    Interp,
    /// The simulator's (the compiled code loops longer than the case: a finding).
    Sim,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Interp => "interp",
            Budget::Sim => "sim",
        })
    }
}

/// Step budgets.
pub const INTERP_BUDGET: u64 = 1_000_000;
/// The simulator's largest budget (instructions over the whole dispatch).
pub const SIM_BUDGET: u64 = 20_000_000;
/// The simulator's budget whatever the oracle's run took.
pub const SIM_BUDGET_FLOOR: u64 = 1_000_000;
/// Simulator instructions allowed per oracle step. The most measured was
/// 15,685: a chain of 64-bit divisions (a loop each in EU code) at SIMD32
/// with every value spilled; over 3000 generated cases at every width,
/// without passes and with `all,spill=all`, it was 722.
pub const SIM_STEPS_PER_ORACLE_STEP: u64 = 50_000;

/// The simulator's budget for a case whose oracle run took `oracle_steps`:
/// a compiled program that runs far longer than its source did is stuck
/// (an injected bug's endless loop), and finding that out should not cost
/// the whole budget, which a reducer pays once per candidate.
pub fn sim_budget(oracle_steps: u64) -> u64 {
    SIM_BUDGET_FLOOR
        .saturating_add(oracle_steps.saturating_mul(SIM_STEPS_PER_ORACLE_STEP))
        .min(SIM_BUDGET)
}

/// The `eu` dispatch for a case.
pub fn eu_dispatch(p: &Program, d: &Dispatch, simd: u32) -> eu::Dispatch {
    eu::Dispatch {
        invocations: d.invocations,
        simd,
        input_slots: p.inputs.len() as u32,
        output_slots: p.outputs.len() as u32,
        inputs: (0..d.invocations as usize)
            .map(|inv| d.inputs.iter().map(|col| col[inv]).collect())
            .collect(),
        uniforms: d.uniforms.clone(),
    }
}

/// Compares simulated outputs with the oracle's.
pub fn compare(expected: &Outputs, got: &eu::RunResult) -> Vec<LaneDiff> {
    compare_slots(expected, None, got).0
}

/// Compares a target's outputs with the oracle's, skipping the pairs that
/// `excluded` (from [`crate::relax::run_relaxed`]) says a conforming driver
/// may compute differently; also returns how many pairs were skipped, per
/// relaxation. Every other pair is compared as [`compare`] compares.
pub fn compare_relaxed(
    expected: &Outputs,
    excluded: &Exclusions,
    got: &eu::RunResult,
) -> (Vec<LaneDiff>, RelaxCounts) {
    compare_slots(expected, Some(excluded), got)
}

fn compare_slots(
    expected: &Outputs,
    excluded: Option<&Exclusions>,
    got: &eu::RunResult,
) -> (Vec<LaneDiff>, RelaxCounts) {
    let mut diffs = Vec::new();
    let mut skipped = RelaxCounts::default();
    for inv in 0..expected.invocations {
        for (slot, &ty) in expected.types.iter().enumerate() {
            if let Some(r) = excluded.and_then(|e| e.get(inv, slot)) {
                skipped.add(r);
                continue;
            }
            let want = expected.get(inv, slot);
            let have = got
                .outputs
                .get(inv as usize)
                .and_then(|r| r.get(slot))
                .copied()
                .flatten();
            let bytes = ty.bits().div_ceil(8);
            let ok = match (want, have) {
                (None, None) => true,
                (Some(w), Some(h)) => h.size as u32 == bytes as u32 && values_agree(ty, w, h.bits),
                _ => false,
            };
            if !ok {
                let show_want = want.map_or("-".to_string(), |w| format_value(ty, w));
                let show_have = match have {
                    None => "-".to_string(),
                    Some(h) if h.size as u32 != bytes as u32 => {
                        format!("0x{:x} ({} bytes stored)", h.bits, h.size)
                    }
                    Some(h) => format_value(ty, h.bits & ir::types::mask(ty.bits())),
                };
                diffs.push(LaneDiff {
                    lane: inv,
                    slot,
                    expected: show_want,
                    got: show_have,
                });
            }
        }
    }
    (diffs, skipped)
}

/// Runs an EU program (the output of `stage`) over a case and compares it
/// with expected outputs. `validated` says the program passed every rule
/// of the validator for `machine` already (a compile's final check), so
/// that its instructions are not asked about again; the rules about the
/// whole program (end of thread, control flow) are still checked.
#[allow(clippy::too_many_arguments)]
pub fn simulate_and_compare(
    program: &eu::Program,
    stage: StageId,
    machine: eu::MachineConfig,
    case_program: &Program,
    dispatch: &Dispatch,
    simd: u32,
    expected: &Outputs,
    validated: bool,
) -> Verdict {
    let d = eu_dispatch(case_program, dispatch, simd);
    let cfg = eu::SimConfig {
        machine,
        garbage_seed: 0x5eed,
        step_budget: sim_budget(expected.steps),
    };
    // The compiler validated these instructions moments ago on this
    // thread: its memory of the validator's answers saves asking again.
    let known = |_: usize, i: &eu::Instruction| {
        validated || compiler::brw::ops::instruction_ok(i, &machine)
    };
    match eu::run_given(program, &d, &cfg, known) {
        Ok(res) => {
            let diffs = compare(expected, &res);
            if diffs.is_empty() {
                Verdict::Pass
            } else {
                Verdict::Mismatch { diffs }
            }
        }
        Err(eu::SimError::Timeout { .. }) => Verdict::Timeout { stage: Budget::Sim },
        Err(eu::SimError::Invalid(v)) => {
            let first = &v[0];
            Verdict::InvalidEu {
                stage,
                rule: first.rule.to_string(),
                text: first.text.clone(),
            }
        }
        Err(e) => Verdict::SimFault(e.to_string()),
    }
}

/// The oracle's outputs for a case at a subgroup width, or the verdict that ends the check.
pub fn expected_outputs(case: &Case, simd: u32) -> Result<Outputs, Verdict> {
    let Some(d) = case.dispatch.as_ref() else {
        return Err(Verdict::InvalidCase("the case has no dispatch".into()));
    };
    match run(
        &case.program,
        d,
        &InterpConfig {
            simd,
            step_budget: INTERP_BUDGET,
        },
    ) {
        Ok(o) => Ok(o),
        Err(InterpError::Timeout { .. }) => Err(Verdict::Timeout {
            stage: Budget::Interp,
        }),
        Err(e) => Err(Verdict::InvalidCase(e.to_string())),
    }
}

/// One case under one config: the verdict, and what the compile did on the
/// way.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The verdict.
    pub verdict: Verdict,
    /// The passes that changed the program (once per fixpoint round).
    pub changed: Vec<StageId>,
    /// The decision points the compile reached.
    pub coverage: compiler::coverage::Hits,
}

/// The verdict of one case under one config, given the oracle's outputs
/// (computed once per case and SIMD width), with the stages that changed
/// the program and the decision points reached on the way.
pub fn check_against(case: &Case, config: &Config, expected: &Outputs) -> Checked {
    check_against_with(case, config, expected, &mut SimMemo::default())
}

/// The verdicts of the final programs one case's configs compiled to, so
/// that configs compiling to the same program (at the same width) run it
/// once: the simulator is deterministic and the case's dispatch and
/// expected outputs are the same for all of them.
#[derive(Clone, Debug, Default)]
pub struct SimMemo {
    seen: Vec<(u32, std::rc::Rc<eu::Program>, Verdict)>,
    /// How many simulations the memo saved.
    pub saved: u64,
}

/// [`check_against`] for one of several configs of the same case (the same
/// dispatch and `expected`), sharing `memo` with the others.
pub fn check_against_with(
    case: &Case,
    config: &Config,
    expected: &Outputs,
    memo: &mut SimMemo,
) -> Checked {
    let session = Session::run(&case.program, config, Capture::Stages);
    let changed = session.changed().collect();
    let coverage = session.coverage;
    let compiled = match session.result {
        Ok(c) => c,
        Err(f) => {
            return Checked {
                verdict: f.verdict(),
                changed,
                coverage,
            }
        }
    };
    let d = case
        .dispatch
        .as_ref()
        .expect("a case with expected outputs has a dispatch");
    let known = memo.seen.iter().find(|(simd, p, _)| {
        // A replayed phase's program is the very one: no need to
        // compare its instructions.
        *simd == config.dispatch_simd()
            && (std::rc::Rc::ptr_eq(p, &compiled.program) || *p == compiled.program)
    });
    let v = match known {
        Some((_, _, v)) => {
            memo.saved += 1;
            v.clone()
        }
        None => {
            let machine = config.strategy.machine();
            let v = simulate_and_compare(
                &compiled.program,
                StageId::Regalloc,
                machine,
                &case.program,
                d,
                config.dispatch_simd(),
                expected,
                compiled.validated_for == machine,
            );
            memo.seen
                .push((config.dispatch_simd(), compiled.program, v.clone()));
            v
        }
    };
    Checked {
        verdict: v,
        changed,
        coverage,
    }
}

/// The verdict of one case under one config.
pub fn check(case: &Case, config: &Config) -> Verdict {
    match expected_outputs(case, config.simd) {
        Ok(expected) => check_against(case, config, &expected).verdict,
        Err(v) => v,
    }
}

/// The verdict of the code on virtual registers after lowering and the EU
/// passes, before register allocation (runs on the virtual register file).
/// A compile that fails before register allocation has no such code and
/// gives its failure's verdict; one that fails in register allocation still
/// has it, complete, and it is simulated.
pub fn check_virtual(case: &Case, config: &Config) -> Verdict {
    let expected = match expected_outputs(case, config.simd) {
        Ok(o) => o,
        Err(v) => return v,
    };
    let session = Session::run(&case.program, config, Capture::Programs);
    let (stage, v) = match session.virtual_program() {
        Ok(x) => x,
        Err(f) => return f.verdict(),
    };
    let d = case.dispatch.as_ref().expect("checked by expected_outputs");
    simulate_and_compare(
        &v.program(),
        stage,
        v.machine(),
        &case.program,
        d,
        config.dispatch_simd(),
        &expected,
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relax::Relaxation;
    use compiler::Bug;
    use ir::SlotType;

    #[test]
    fn relaxed_comparison_skips_exactly_the_excluded_pairs() {
        // Two invocations, an i32 and an f32 slot. The device differs in
        // every pair but (1, f32); (0, i32) and (1, i32) are excluded.
        let expected = Outputs {
            types: vec![SlotType::I32, SlotType::F32],
            invocations: 2,
            values: vec![Some(1), Some(0x3f80_0000), Some(2), Some(0x7fc0_0000)],
            steps: 0,
        };
        let stored = |bits: u64| Some(eu::Stored { bits, size: 4 });
        let got = eu::RunResult {
            outputs: vec![
                vec![stored(9), stored(0x4000_0000)],
                vec![stored(9), stored(0xffc0_0001)],
            ],
            stats: eu::Stats::default(),
        };
        let mut excluded = Exclusions::none(2, 2);
        excluded.causes[0] = Some(Relaxation::Tangle);
        excluded.causes[2] = Some(Relaxation::DenormFlush);
        let (diffs, skipped) = compare_relaxed(&expected, &excluded, &got);
        assert_eq!(
            diffs.iter().map(|d| (d.lane, d.slot)).collect::<Vec<_>>(),
            vec![(0, 1)]
        );
        assert_eq!(skipped.total(), 2);
        assert_eq!(skipped.to_string(), "denorm-flush 1, tangle 1");
        // Unrelaxed, every differing pair is reported (two NaNs agree).
        assert_eq!(compare(&expected, &got).len(), 3);
        let none = Exclusions::none(2, 2);
        assert_eq!(compare_relaxed(&expected, &none, &got).0.len(), 3);
    }

    /// A compile's final program was validated for the machine its
    /// strategy simulates it on, under every strategy: the simulation then
    /// skips asking about its instructions again (and only then).
    #[test]
    fn every_strategy_validates_its_program_for_the_machine_it_runs_on() {
        // A case the vec4 backend compiles too.
        let case = ir::parse_case(include_str!("../../corpus/loop_break_continue.sir")).unwrap();
        for strategy in Strategy::ALL {
            let config = Config::new(strategy, 8, PassSet::all());
            let compiled = compiler::compile(&case.program, &config.options()).unwrap();
            assert_eq!(
                compiled.validated_for,
                strategy.machine(),
                "{}",
                strategy.name()
            );
            assert!(eu::validate(&compiled.program, &strategy.machine()).is_ok());
        }
    }

    #[test]
    fn configs_compiling_to_the_same_program_simulate_it_once() {
        // No booleans: the strategies lower it alike, so bool32 and bool16
        // (all passes) give the same final program; no passes gives another.
        let case = ir::parse_case(include_str!("../../corpus/int_div.sir")).unwrap();
        let expected = expected_outputs(&case, 16).unwrap();
        let configs = [
            Config::new(Strategy::Bool32, 16, PassSet::all()),
            Config::new(Strategy::Bool16, 16, PassSet::all()),
            Config::new(Strategy::Bool32, 16, PassSet::none()),
        ];
        let programs: Vec<std::rc::Rc<eu::Program>> = configs
            .iter()
            .map(|c| {
                compiler::compile(&case.program, &c.options())
                    .unwrap()
                    .program
            })
            .collect();
        assert_eq!(programs[0], programs[1]);
        assert_ne!(programs[0], programs[2]);
        let mut memo = SimMemo::default();
        for c in &configs {
            let shared = check_against_with(&case, c, &expected, &mut memo);
            let alone = check_against(&case, c, &expected);
            assert_eq!(shared.verdict, alone.verdict);
            assert_eq!(shared.verdict, Verdict::Pass);
            assert_eq!(shared.coverage, alone.coverage);
        }
        assert_eq!(memo.saved, 1);
    }

    #[test]
    fn options_apply_over_a_base() {
        let base = Config::new(Strategy::Bool32, 16, PassSet::all());
        let c = base
            .with_options(" --inject cse-neg-sat --simd 32 --strategy native --passes none")
            .unwrap();
        assert_eq!(
            c,
            Config {
                strategy: Strategy::Native,
                simd: 32,
                passes: PassSet::none(),
                bugs: BugSet::NONE.with(Bug::CseNegSat),
            }
        );
        // The printed form reads back.
        assert_eq!(base.with_options(&c.to_string()), Ok(c));
        assert_eq!(base.with_options(""), Ok(base.clone()));
        assert!(base.with_options("--simd 12").unwrap_err().contains("`12`"));
        assert!(base
            .with_options("--frob 1")
            .unwrap_err()
            .contains("--frob"));
        assert!(base.with_options("--simd").is_err());
    }
}
