//! Tests of the mutators in `mod.rs`.

use super::*;
use crate::entropy::SeedEntropy;

#[test]
fn mutants_validate_and_every_mutator_applies_somewhere() {
    let config = crate::Config::default();
    let mut applied = std::collections::BTreeMap::new();
    let mut made = 0;
    for seed in 0..300 {
        let case = crate::generate(seed, &config);
        let mut e = SeedEntropy::new(seed ^ 0x6d75_7461_7465);
        if let Some((m, names)) = mutate(&case, &mut e, 3) {
            ir::validate(&m.program).unwrap_or_else(|err| {
                panic!(
                    "seed {seed}: {names:?} gave an invalid program: {err}\n{}",
                    ir::print_case(&m)
                )
            });
            assert_ne!(m, case, "seed {seed}: {names:?} changed nothing");
            made += 1;
            for n in names {
                *applied.entry(n).or_insert(0) += 1;
            }
        }
    }
    assert!(made > 280, "only {made} of 300 cases mutated");
    for m in MUTATORS {
        assert!(
            applied.get(m.name).copied().unwrap_or(0) > 0,
            "{} never applied",
            m.name
        );
    }
}

#[test]
fn mutation_is_deterministic() {
    let case = crate::generate(7, &crate::Config::default());
    let a = mutate(&case, &mut SeedEntropy::new(1), 3);
    let b = mutate(&case, &mut SeedEntropy::new(1), 3);
    assert_eq!(
        a.map(|x| ir::print_case(&x.0)),
        b.map(|x| ir::print_case(&x.0))
    );
}

/// Entropy that answers from a script (each answer modulo the range).
pub(super) struct Script(pub(super) Vec<u64>);

impl Entropy for Script {
    fn below(&mut self, n: u64) -> u64 {
        self.0.remove(0) % n
    }
    fn bits64(&mut self) -> u64 {
        self.0.remove(0)
    }
}

#[test]
fn interpose_unary_makes_the_op_the_only_reader() {
    let case = ir::parse_case(
        "shader: t\ndecl_input 0 f32\ndecl_input 1 f32\ndecl_output 0 f32\ndecl_output 1 f32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t32 %2 = fsub %0, %1\n\t32 %3 = fmul %2, %0\n\t@store_output (%2) (slot=0)\n\t@store_output (%3) (slot=1)\n}\n",
    )
    .unwrap();
    // Site 0 (the fsub, the first float ALU result), op 0 (fsat): both
    // readers of %2 now read the clamp %4.
    let mut c = case.clone();
    assert!(interpose_unary(&mut c, &mut Script(vec![0, 0])));
    let want = ir::parse_program(
        "shader: t\ndecl_input 0 f32\ndecl_input 1 f32\ndecl_output 0 f32\ndecl_output 1 f32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t32 %2 = fsub %0, %1\n\t32 %4 = fsat %2\n\t32 %3 = fmul %4, %0\n\t@store_output (%4) (slot=0)\n\t@store_output (%3) (slot=1)\n}\n",
    )
    .unwrap();
    assert_eq!(c.program, want);
    // Site 1 (the fmul), op 2 (fabs).
    let mut c = case;
    assert!(interpose_unary(&mut c, &mut Script(vec![1, 2])));
    let text = ir::print_program_compact(&c.program);
    assert!(
        text.contains(
            "32 %4 = fabs %3\n\t@store_output (%2) (slot=0)\n\t@store_output (%4) (slot=1)"
        ),
        "{text}"
    );
}

#[test]
fn op_shapes_fit() {
    assert!(fits(Op::Iadd, 32, &[32, 32]));
    assert!(!fits(Op::Iadd, 32, &[32, 16]));
    assert!(fits(Op::Ilt, 1, &[64, 64]));
    assert!(fits(Op::U2u, 8, &[64]));
    assert!(fits(Op::Ishl, 16, &[16, 32]));
    assert!(!fits(Op::Ishl, 16, &[16, 16]));
    assert!(fits(Op::Bcsel, 8, &[1, 8, 8]));
}

#[test]
fn a_twin_follows_the_clamp_and_escapes() {
    let text = |body: &str, outputs: &str| {
        format!(
            "shader: t\ndecl_input 0 f32\ndecl_input 1 f32\n{outputs}impl main {{\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t32 %2 = fmul %0, %1\n{body}}}\n"
        )
    };
    let one = "decl_output 0 f32\n";
    let two = "decl_output 0 f32\ndecl_output 1 i32\n";
    let clamped = ir::parse_case(&text(
        "\t32 %3 = fsat %2\n\t@store_output (%3) (slot=0)\n",
        one,
    ))
    .unwrap();
    // Site 0 (the fmul), not swapped (1 of 4), negated (0 of 3): the
    // twin and its clamp come after the original's clamp, the clamped
    // twin goes to the new slot 1.
    let mut c = clamped;
    assert!(twin(&mut c, &mut Script(vec![0, 1, 0])));
    let want = ir::parse_program(&text(
        "\t32 %3 = fsat %2\n\t32 %4 = fneg %0\n\t32 %5 = fmul %4, %1\n\t32 %6 = fsat %5\n\t@store_output (%6) (slot=1)\n\t@store_output (%3) (slot=0)\n",
        two,
    ))
    .unwrap();
    assert_eq!(c.program, want);
    // Unclamped, swapped (0 of 4), not negated (2 of 3).
    let mut c = ir::parse_case(&text("\t@store_output (%2) (slot=0)\n", one)).unwrap();
    assert!(twin(&mut c, &mut Script(vec![0, 0, 2])));
    let want = ir::parse_program(&text(
        "\t32 %3 = fmul %1, %0\n\t@store_output (%3) (slot=1)\n\t@store_output (%2) (slot=0)\n",
        two,
    ))
    .unwrap();
    assert_eq!(c.program, want);
}

#[test]
fn a_subtractions_twin_compares_and_selects() {
    let case = ir::parse_case(
        "shader: t\ndecl_input 0 f32\ndecl_input 1 f32\ndecl_output 0 f32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t32 %2 = fsub %0, %1\n\t32 %3 = fsat %2\n\t@store_output (%3) (slot=0)\n}\n",
    )
    .unwrap();
    // Site 0, not swapped (1 of 4), a comparison (0 of 4), flt (0 of 2).
    let mut c = case;
    assert!(twin(&mut c, &mut Script(vec![0, 1, 0, 0])));
    let want = ir::parse_program(
        "shader: t\ndecl_input 0 f32\ndecl_input 1 f32\ndecl_output 0 f32\ndecl_output 1 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t32 %2 = fsub %0, %1\n\t32 %3 = fsat %2\n\t1 %4 = flt %0, %1\n\t32 %5 = bcsel %4, %0, %1\n\t@store_output (%5) (slot=1)\n\t@store_output (%3) (slot=0)\n}\n",
    )
    .unwrap();
    assert_eq!(c.program, want);
}

#[test]
fn a_store_wrapped_in_an_if_keeps_the_program_valid() {
    let case = ir::parse_case(
        "shader: t\ndecl_input 0 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t@store_output (%0) (slot=0)\n}\n",
    )
    .unwrap();
    let mut c = case.clone();
    assert!(wrap_store_in_if(&mut c, &mut SeedEntropy::new(3)));
    ir::validate(&c.program).unwrap();
    let text = ir::print_program(&c.program);
    assert!(text.contains("if %"), "{text}");
    let mut c = case;
    assert!(wrap_in_loop(&mut c, &mut SeedEntropy::new(3)));
    ir::validate(&c.program).unwrap();
    assert!(ir::print_program(&c.program).contains("loop {"));
}
