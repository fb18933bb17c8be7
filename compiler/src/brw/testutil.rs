//! Test helpers: build a VProgram from assembly text and compare runs.

use crate::passes::PassCtx;
use crate::vir::{VProgram, Vgrf};
use eu::{Dispatch, SimConfig, Stored};

/// A VProgram (1 input slot, 1 output slot, no uniforms) from `text` with
/// the given vgrfs `(first, size)`.
pub fn vprog(simd: u32, text: &str, vgrfs: &[(u32, u32)]) -> VProgram {
    let mut p = VProgram::new(simd, 1, 1, 0);
    p.insts = eu::parse_program(text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .insts
        .into();
    eu::resolve_control_flow(&mut p.insts).unwrap();
    p.vgrfs = vgrfs
        .iter()
        .map(|&(first, size)| Vgrf { first, size })
        .collect();
    assert!(p.vgrfs.first().is_none_or(|v| v.first >= p.payload_grfs));
    p
}

/// A vec4 VProgram (Align16, dispatched SIMD4x2; 1 input slot, 1 output
/// slot, no uniforms) from `text` with the given vgrfs `(first, size)`.
pub fn vprog4(text: &str, vgrfs: &[(u32, u32)]) -> VProgram {
    let mut p = vprog(8, text, vgrfs);
    p.vec4 = true;
    p
}

/// The canonical text of `text` (parsed and printed), for golden results.
pub fn canon(text: &str) -> String {
    let mut p = eu::parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    eu::resolve_control_flow(&mut p.insts).unwrap();
    eu::print_program_compact(&p)
}

/// A pass context for tests.
pub fn ctx(simd: u32) -> PassCtx {
    PassCtx {
        simd,
        bugs: crate::bugs::BugSet::NONE,
        bitfield: crate::passes::BitfieldMode::Native,
        bool_cleanup: crate::passes::BoolCleanupMode::Canonical,
        flag_liveness: crate::passes::FlagLiveness::PerChannel,
    }
}

/// Runs `pass` to a fixpoint-free single application, compacts, and returns
/// whether it changed anything.
pub fn apply(p: &mut VProgram, pass: fn(&mut VProgram, &PassCtx) -> bool) -> bool {
    let c = ctx(p.simd);
    let changed = pass(p, &c);
    p.compact().unwrap();
    eu::validate(&p.program(), &p.machine()).unwrap_or_else(|v| panic!("{v:?}\n{}", p.text()));
    changed
}

/// Runs the program over `n` invocations (input slot 0 of invocation k is
/// `inputs(k)`) and returns every output slot.
pub fn outputs(
    p: &VProgram,
    n: u32,
    inputs: &dyn Fn(u32) -> u64,
    seed: u64,
) -> Vec<Vec<Option<Stored>>> {
    let d = Dispatch {
        invocations: n,
        simd: if p.vec4 { eu::abi::SIMD4X2 } else { p.simd },
        input_slots: p.input_slots,
        output_slots: p.output_slots,
        inputs: (0..n)
            .map(|k| vec![inputs(k); p.input_slots as usize])
            .collect(),
        uniforms: vec![],
    };
    let cfg = SimConfig {
        machine: p.machine(),
        garbage_seed: seed,
        ..SimConfig::default()
    };
    eu::run(&p.program(), &d, &cfg)
        .unwrap_or_else(|e| panic!("{e}\n{}", p.text()))
        .outputs
}

/// Asserts that `pass` keeps the behaviour of `p` over a partial dispatch
/// and returns the transformed program.
pub fn check_preserves(
    p: &VProgram,
    pass: fn(&mut VProgram, &PassCtx) -> bool,
    n: u32,
    inputs: &dyn Fn(u32) -> u64,
) -> VProgram {
    let mut q = p.clone();
    apply(&mut q, pass);
    for seed in [0, 7] {
        assert_eq!(
            outputs(p, n, inputs, seed),
            outputs(&q, n, inputs, seed),
            "before:\n{}\nafter:\n{}",
            p.text(),
            q.text()
        );
    }
    q
}

/// [`apply`] with injected bugs (for tests that show where a bug bites).
pub fn apply_with_bugs(
    p: &mut VProgram,
    pass: fn(&mut VProgram, &PassCtx) -> bool,
    bugs: crate::bugs::BugSet,
) -> bool {
    let c = PassCtx {
        bugs,
        ..ctx(p.simd)
    };
    let changed = pass(p, &c);
    p.compact().unwrap();
    eu::validate(&p.program(), &p.machine()).unwrap_or_else(|v| panic!("{v:?}\n{}", p.text()));
    changed
}

/// The case `corpus/NAME.sir` of the repository.
pub fn corpus_case(name: &str) -> ir::Case {
    let path = format!("{}/../corpus/{name}.sir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    ir::parse_case(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}
