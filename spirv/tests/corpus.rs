//! The whole corpus (`corpus/*.sir`, `corpus/bugs/*.sir`,
//! `corpus/regressions/*.sir`) exports to modules that pass
//! `spirv-val --target-env vulkan1.1`, and whose disassembly `spirv-as`
//! assembles back to an equivalent module: valid, and disassembling to the
//! same text (the ids keep their names and numbers).

mod common;

use common::{corpus, invocations, round_trip_all, spirv_val_all};
use spirv_export::{export, ExportError, ExportOptions, FloatControls};

/// Whether the case has an op only a fragment shader may have (the export
/// refuses it).
fn fragment_only(case: &ir::Case) -> bool {
    case.program
        .find_instr(|i| spirv_export::op_needs(i.op).fragment_stage)
        .is_some()
}

#[test]
fn corpus_validates() {
    let cases = corpus();
    assert!(cases.len() >= 40, "{} corpus files", cases.len());
    let mut modules = Vec::new();
    for (name, case) in &cases {
        for (tag, fc) in [
            ("all", FloatControls::all()),
            ("lavapipe", FloatControls::lavapipe()),
        ] {
            let opts = ExportOptions {
                invocations: invocations(case),
                float_controls: fc,
                reconvergence: Default::default(),
                derivatives: Default::default(),
            };
            let m = match export(&case.program, &opts) {
                Ok(m) => m,
                // Helper invocations need a fragment shader.
                Err(ExportError::FragmentOnly(_)) if fragment_only(case) => continue,
                Err(e) => panic!("{name}: export failed: {e}"),
            };
            assert_eq!(m.invocations, opts.invocations);
            assert_eq!(m.output_slots as usize, case.program.outputs.len());
            modules.push((format!("{name} ({tag})"), m.words));
        }
    }
    let failures = spirv_val_all(modules);
    assert!(
        failures.is_empty(),
        "{} modules rejected:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_disassembly_round_trips_through_spirv_as() {
    let modules: Vec<(String, Vec<u32>)> = corpus()
        .into_iter()
        .filter_map(|(name, case)| {
            match export(&case.program, &ExportOptions::new(invocations(&case))) {
                Ok(m) => Some((name, m.words)),
                Err(ExportError::FragmentOnly(_)) if fragment_only(&case) => None,
                Err(e) => panic!("{name}: export failed: {e}"),
            }
        })
        .collect();
    let failures = round_trip_all(&modules);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
