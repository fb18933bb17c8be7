//! The simulator's budget scales with the oracle's run
//! (`oracle::check::sim_budget`): it must still cover the most expensive
//! correct compile per oracle step. A chain of 64-bit divisions (each a loop
//! in EU code) at SIMD32 with every value spilled ran 15,685 simulator
//! instructions per oracle step when measured; 60 of them over 64
//! invocations is about 2.1M instructions for 124 oracle steps, past what
//! 1M + 4,000 per step would allow.

use compiler::{PassSet, Strategy};
use oracle::check::{check, sim_budget, Config};
use oracle::Verdict;

fn division_chain(n: usize) -> ir::Case {
    let mut text = String::from(
        "shader: divs\ndecl_input 0 i64\ndecl_output 0 i64\nimpl main {\n\tblock b0:\n\t64 %0 = @load_input () (slot=0)\n\t64 %1 = load_const (0x0000000000000007)\n",
    );
    let ops = ["udiv", "umod", "idiv", "irem", "imod"];
    for k in 0..n {
        let src = if k == 0 { 0 } else { k + 1 };
        text.push_str(&format!(
            "\t64 %{} = {} %{src}, %1\n",
            k + 2,
            ops[k % ops.len()]
        ));
    }
    text.push_str(&format!("\t@store_output (%{}) (slot=0)\n}}\n", n + 1));
    let program = ir::parse_program(&text).unwrap();
    let dispatch = ir::Dispatch::default_for(&program, 64);
    ir::Case {
        program,
        dispatch: Some(dispatch),
    }
}

#[test]
fn the_budget_covers_a_spilled_simd32_division_chain() {
    let case = division_chain(60);
    let config = Config::new(
        Strategy::Bool32,
        32,
        PassSet::parse("all,spill=all").unwrap(),
    );
    assert_eq!(check(&case, &config), Verdict::Pass);
    // Steps: 62 instructions (two loads of constants and inputs, 60
    // divisions, the store is the 63rd) in each of the 2 subgroups.
    let steps = oracle::check::expected_outputs(&case, 32).unwrap().steps;
    assert_eq!(steps, 2 * 63);
    // The compiled program's own count lies between a budget of 4,000 per
    // step (which would call this correct compile a timeout) and ours.
    let compiled = compiler::compile(&case.program, &config.options()).unwrap();
    let d = oracle::check::eu_dispatch(&case.program, case.dispatch.as_ref().unwrap(), 32);
    let sim = eu::SimConfig {
        machine: eu::MachineConfig::GFX11,
        garbage_seed: 0x5eed,
        step_budget: u64::MAX,
    };
    let ran = eu::run(&compiled.program, &d, &sim)
        .unwrap()
        .stats
        .instructions;
    assert!(ran > 1_000_000 + 4_000 * steps, "{ran}");
    assert!(ran < sim_budget(steps), "{ran}");
}
