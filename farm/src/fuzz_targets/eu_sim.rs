//! `eu_sim`: arbitrary valid EU programs in the simulator.

use super::eu_gen::{arbitrary_eu_case, EuCase};
use eu::{MachineConfig, SimConfig, SimError};

/// The step budget of one run: small, so that runaway loops cost little.
pub const STEP_BUDGET: u64 = 20_000;

/// What one input did (for the smoke tests' statistics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimOutcome {
    /// The bytes did not make a program.
    NoProgram,
    /// The program ran to its end; it issued this many instructions.
    Completed(u64),
    /// The program faulted (a bad address; a defined outcome).
    Fault,
    /// The step budget ran out.
    Timeout,
}

/// Builds an arbitrary valid EU program from `data` and runs it. The
/// simulator must not panic or reject the program, two runs must agree,
/// and the budget must be exact: a run that completes after issuing n
/// instructions completes with budget n and times out with budget n - 1.
/// Panics on a violation.
pub fn eu_sim(data: &[u8]) {
    eu_sim_outcome(data);
}

/// [`eu_sim`], returning what happened.
pub fn eu_sim_outcome(data: &[u8]) -> SimOutcome {
    let mut u = arbitrary::Unstructured::new(data);
    let Ok(Some(case)) = arbitrary_eu_case(&mut u) else {
        return SimOutcome::NoProgram;
    };
    let cfg = SimConfig {
        machine: MachineConfig::VEC4,
        garbage_seed: case.garbage_seed,
        step_budget: STEP_BUDGET,
    };
    let first = eu::run(&case.program, &case.dispatch, &cfg);
    let second = eu::run(&case.program, &case.dispatch, &cfg);
    assert!(first == second, "two runs differ\n{}", listing(&case));
    match first {
        Ok(r) => {
            let n = r.stats.instructions;
            assert!(
                n <= STEP_BUDGET,
                "{n} instructions issued over a budget of {STEP_BUDGET}\n{}",
                listing(&case)
            );
            assert_eq!(r.outputs.len(), case.dispatch.invocations as usize);
            assert!(r
                .outputs
                .iter()
                .all(|row| row.len() == case.dispatch.output_slots as usize));
            let exact = eu::run(
                &case.program,
                &case.dispatch,
                &SimConfig {
                    step_budget: n,
                    ..cfg
                },
            );
            assert!(
                exact.is_ok(),
                "budget {n} (exactly what it used) ran out\n{}",
                listing(&case)
            );
            let short = eu::run(
                &case.program,
                &case.dispatch,
                &SimConfig {
                    step_budget: n - 1,
                    ..cfg
                },
            );
            assert!(
                matches!(short, Err(SimError::Timeout { budget, .. }) if budget == n - 1),
                "budget {} (one less than used) did not time out: {short:?}\n{}",
                n - 1,
                listing(&case)
            );
            SimOutcome::Completed(n)
        }
        Err(SimError::Fault(_)) => SimOutcome::Fault,
        Err(SimError::Timeout { budget, .. }) => {
            assert_eq!(budget, STEP_BUDGET);
            SimOutcome::Timeout
        }
        Err(e @ (SimError::Invalid(_) | SimError::Dispatch(_))) => {
            panic!(
                "the simulator rejected a valid case: {e}\n{}",
                listing(&case)
            )
        }
    }
}

fn listing(case: &EuCase) -> String {
    format!(
        "dispatch: {:?}\ngarbage seed: {}\n{}",
        case.dispatch,
        case.garbage_seed,
        eu::print_program(&case.program)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz_targets::smoke;

    /// Most random inputs make a program, most of those run to the end, and
    /// every kind of ending happens.
    #[test]
    fn random_bytes() {
        let inputs = smoke::random_inputs(3, 3000, 1024);
        let outcomes: Vec<SimOutcome> = inputs.iter().map(|d| eu_sim_outcome(d)).collect();
        let count = |f: fn(&SimOutcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
        let none = count(|o| *o == SimOutcome::NoProgram);
        let done = count(|o| matches!(o, SimOutcome::Completed(_)));
        let faults = count(|o| *o == SimOutcome::Fault);
        let timeouts = count(|o| *o == SimOutcome::Timeout);
        eprintln!(
            "eu_sim: {none} no program, {done} completed, {faults} faults, {timeouts} timeouts"
        );
        assert!(
            none * 20 < inputs.len(),
            "{none} of {} inputs made no program",
            inputs.len()
        );
        assert!(
            done * 2 > inputs.len(),
            "only {done} of {} runs completed",
            inputs.len()
        );
        assert!(timeouts > 0, "no run used up its budget");
    }

    #[test]
    fn corpus() {
        for (path, bytes) in smoke::corpus("eu_sim") {
            let o = eu_sim_outcome(&bytes);
            assert_ne!(o, SimOutcome::NoProgram, "{}", path.display());
        }
    }

    /// Generated programs use every structure: loops, IFs, loads, stores.
    #[test]
    fn programs_use_every_structure() {
        let mut seen = std::collections::BTreeSet::new();
        let mut dropped = 0;
        let mut built = 0;
        let mut vec4 = 0;
        for data in smoke::random_inputs(4, 500, 1024) {
            let mut u = arbitrary::Unstructured::new(&data);
            if let Ok(Some(case)) = arbitrary_eu_case(&mut u) {
                built += 1;
                dropped += case.dropped;
                for i in &case.program.insts {
                    seen.insert(i.op.name());
                    vec4 += usize::from(i.align16.is_some());
                }
            }
        }
        eprintln!("eu_gen: {built} programs, {dropped} ALU instructions dropped; opcodes {seen:?}");
        for op in [
            "if", "else", "endif", "while", "break", "cont", "halt", "send", "cmp", "mad", "math",
        ] {
            assert!(seen.contains(op), "no {op} in 500 programs");
        }
        assert!(vec4 > 100, "{vec4} Align16 instructions in 500 programs");
    }
}
