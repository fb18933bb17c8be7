//! The export API: errors, the layout and feature facts a runner reads,
//! and which capabilities and float modes a module declares.

mod common;

use spirv_export::{
    disassemble, export, ExportError, ExportOptions, Features, FloatControls, FloatModes,
    Reconvergence,
};

fn parse(sir: &str) -> ir::Program {
    ir::parse_case(sir).expect("parses").program
}

const INT32: &str = "shader: ints
decl_input 0 i32
decl_input 1 i32
decl_uniform 0 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_uniform () (slot=0)
	32 %2 = iadd %0, %1
	@store_output (%2) (slot=1)
}
";

const MIXED: &str = "shader: mixed
decl_input 0 f16
decl_input 1 i8
decl_output 0 f16
decl_output 1 i64
decl_output 2 bool
impl main {
	block b0:
	16 %0 = @load_input () (slot=0)
	8 %1 = @load_input () (slot=1)
	16 %2 = fadd %0, %0
	64 %3 = u2u %1
	1 %4 = i2b %1
	1 %5 = @vote_any (%4)
	64 %6 = @ballot (%5)
	32 %7 = load_const (0x00000000)
	8 %8 = @read_invocation (%1, %7)
	@store_output (%2) (slot=0)
	@store_output (%6) (slot=1)
	@store_output (%5) (slot=2)
}
";

#[test]
fn invocation_count_is_checked() {
    let p = parse(INT32);
    for bad in [0, 1025] {
        assert_eq!(
            export(&p, &ExportOptions::new(bad)),
            Err(ExportError::BadInvocations(bad))
        );
    }
    assert!(export(&p, &ExportOptions::new(1024)).is_ok());
    assert!(export(&p, &ExportOptions::new(1)).is_ok());
}

#[test]
fn invalid_programs_are_refused() {
    let mut p = parse(INT32);
    // Use %9, which nothing defines.
    p.for_each_block_mut(&mut |b| b.instrs[2].srcs[1] = ir::ValueId(9));
    match export(&p, &ExportOptions::new(4)) {
        Err(ExportError::InvalidProgram(e)) => {
            assert!(e.to_string().contains("%9"), "{e}")
        }
        other => panic!("expected InvalidProgram, got {other:?}"),
    }
}

#[test]
fn layout_facts() {
    let m = export(&parse(INT32), &ExportOptions::new(10)).unwrap();
    assert_eq!(m.entry_point, "main");
    assert_eq!(m.invocations, 10);
    assert_eq!((m.input_slots, m.uniform_slots, m.output_slots), (2, 1, 2));
    // inputs 2*10*2, uniforms max(2*1, 4), outputs 4*10*2, lanes 4*10.
    assert_eq!(m.buffer_words(), [40, 4, 80, 40]);
    assert_eq!(m.words[0], 0x0723_0203);
    assert_eq!(m.words[1], 0x0001_0300, "SPIR-V 1.3");
    let text = disassemble(&m.words);
    assert!(
        text.contains("OpExecutionMode %main LocalSize 10 1 1"),
        "{text}"
    );
}

#[test]
fn a_32_bit_integer_program_needs_nothing_optional() {
    let m = export(&parse(INT32), &ExportOptions::new(8)).unwrap();
    assert_eq!(
        m.features,
        Features {
            subgroup_basic: true,
            ..Features::default()
        }
    );
    // No float type, so no float mode is requested and no extension used.
    assert_eq!(m.float_controls, FloatControls::none());
    let text = disassemble(&m.words);
    let caps: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("OpCapability"))
        .collect();
    assert_eq!(
        caps,
        ["OpCapability Shader", "OpCapability GroupNonUniform"]
    );
    assert!(!text.contains("OpExtension"), "{text}");
}

#[test]
fn features_and_capabilities_follow_use() {
    let m = export(&parse(MIXED), &ExportOptions::new(16)).unwrap();
    let f = m.features;
    assert!(f.int8 && f.int16 && f.int64 && f.float16, "{f:?}");
    assert!(!f.float64, "{f:?}");
    assert!(f.subgroup_basic && f.subgroup_vote && f.subgroup_ballot && f.subgroup_shuffle);
    assert!(f.float_controls);
    // The module has a float type, so every requested mode is requested,
    // at every width (the independence rules may tie 16 and 64 bits).
    assert_eq!(m.float_controls, FloatControls::all());
    let text = disassemble(&m.words);
    for line in [
        "OpCapability Int8",
        "OpCapability Int16",
        "OpCapability Int64",
        "OpCapability Float16",
        "OpCapability GroupNonUniformVote",
        "OpCapability GroupNonUniformBallot",
        "OpCapability GroupNonUniformShuffle",
        "OpCapability SignedZeroInfNanPreserve",
        "OpCapability DenormPreserve",
        "OpCapability RoundingModeRTE",
        "OpExtension \"SPV_KHR_float_controls\"",
        "OpExecutionMode %main SignedZeroInfNanPreserve 16",
        "OpExecutionMode %main DenormPreserve 16",
        "OpExecutionMode %main RoundingModeRTE 16",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    assert!(!text.contains("OpCapability Float64"), "{text}");
    assert!(
        text.contains("OpExecutionMode %main DenormPreserve 64"),
        "{text}"
    );
    assert_eq!(
        f.missing_from(&Features {
            int16: true,
            int64: true,
            float16: true,
            subgroup_basic: true,
            subgroup_vote: true,
            float_controls: true,
            ..Features::default()
        }),
        ["int8", "subgroup_ballot", "subgroup_shuffle"]
    );
    common::spirv_val(&m.words).unwrap();
}

#[test]
fn float_modes_follow_the_options() {
    let opts = ExportOptions {
        invocations: 8,
        float_controls: FloatControls::lavapipe(),
        reconvergence: Reconvergence::Default,
        derivatives: Default::default(),
    };
    let m = export(&parse(MIXED), &opts).unwrap();
    assert_eq!(m.float_controls, FloatControls::lavapipe());
    let text = disassemble(&m.words);
    assert!(text.contains("SignedZeroInfNanPreserve 16"), "{text}");
    assert!(!text.contains("DenormPreserve"), "{text}");
    common::spirv_val(&m.words).unwrap();

    let opts = ExportOptions {
        invocations: 8,
        float_controls: FloatControls::none(),
        reconvergence: Reconvergence::Default,
        derivatives: Default::default(),
    };
    let m = export(&parse(MIXED), &opts).unwrap();
    assert_eq!(m.float_controls, FloatControls::none());
    assert!(!m.features.float_controls);
    let text = disassemble(&m.words);
    assert!(!text.contains("SPV_KHR_float_controls"), "{text}");
    assert!(!text.contains("RoundingModeRTE"), "{text}");
    common::spirv_val(&m.words).unwrap();
}

#[test]
fn the_default_options_request_every_mode() {
    assert_eq!(ExportOptions::new(3).float_controls, FloatControls::all());
    assert_eq!(FloatControls::all().width(64), FloatModes::ALL);
    assert!(!FloatModes::NONE.any());
}

#[test]
fn values_and_blocks_carry_ir_names() {
    let text = disassemble(&export(&parse(INT32), &ExportOptions::new(2)).unwrap().words);
    for name in [
        "%b0 = OpLabel",
        "%v2 = OpIAdd %uint %v0 %v1",
        "OpName %v2 \"v2\"",
    ] {
        assert!(text.contains(name), "missing {name:?} in\n{text}");
    }
}

#[test]
fn unparsable_words_disassemble_to_an_error_comment() {
    let text = disassemble(&[0x0723_0203, 1]);
    assert!(text.starts_with("; error:"), "{text}");
}

const VOTE: &str = "shader: vote
decl_input 0 i32
decl_output 0 bool
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	1 %1 = ieq %0, %0
	1 %2 = @vote_all (%1)
	@store_output (%2) (slot=0)
}
";

#[test]
fn reconvergence_requests_are_declared_and_named() {
    let with = |reconvergence| ExportOptions {
        reconvergence,
        ..ExportOptions::new(8)
    };
    let plain = export(&parse(VOTE), &with(Reconvergence::Default)).unwrap();
    let text = disassemble(&plain.words);
    assert!(
        !text.contains("Reconverge") && !text.contains("UniformControlFlow"),
        "{text}"
    );

    let uniform = export(&parse(VOTE), &with(Reconvergence::SubgroupUniform)).unwrap();
    let text = disassemble(&uniform.words);
    assert!(
        text.contains("OpExtension \"SPV_KHR_subgroup_uniform_control_flow\"\n"),
        "{text}"
    );
    assert!(
        text.contains("OpExecutionMode %main SubgroupUniformControlFlowKHR\n"),
        "{text}"
    );
    assert_eq!(
        uniform.features.missing_from(&plain.features),
        ["subgroup_uniform_control_flow"]
    );
    common::spirv_val(&uniform.words).unwrap();
    common::round_trip(&uniform.words).unwrap();

    // SPIRV-Tools 2023.1 predates SPV_KHR_maximal_reconvergence, so this
    // module is checked word by word instead of by spirv-val: one
    // OpExecutionMode (opcode 16, 3 words) naming the entry point and
    // enumerant 6023 (the extension's grammar), and nothing else changed.
    let maximal = export(&parse(VOTE), &with(Reconvergence::Maximal)).unwrap();
    assert_eq!(
        maximal.features.missing_from(&plain.features),
        ["maximal_reconvergence"]
    );
    let text = disassemble(&maximal.words);
    assert!(
        text.contains("OpExtension \"SPV_KHR_maximal_reconvergence\"\n"),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "OpExecutionMode %main MaximallyReconvergesKHR")
        .unwrap_or_else(|| panic!("no MaximallyReconvergesKHR line in\n{text}"));
    assert!(
        lines[at - 1].starts_with("OpExecutionMode %main "),
        "{text}"
    );
    let mode_words: Vec<&[u32]> = maximal.words[5..]
        .chunks(1)
        .enumerate()
        .filter(|(k, w)| w[0] == (3 << 16) | 16 && maximal.words[5 + k + 2] == 6023)
        .map(|(k, _)| &maximal.words[5 + k..5 + k + 3])
        .collect();
    assert_eq!(mode_words.len(), 1);
    let plain_text = disassemble(&plain.words);
    let without: Vec<&str> = lines
        .iter()
        .filter(|l| !l.contains("MaximallyReconverges") && !l.contains("maximal_reconvergence"))
        .copied()
        .collect();
    assert_eq!(without, plain_text.lines().collect::<Vec<_>>());
}

const DERIVATIVE: &str = "shader: derivative
decl_input 0 f32
decl_output 0 f32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @ddy_fine (%0)
	32 %2 = @quad_swap_vertical (%0)
	@store_output (%1) (slot=0)
	@store_output (%2) (slot=1)
}
";

#[test]
fn derivatives_declare_their_extension_and_need_whole_quads() {
    let p = parse(DERIVATIVE);
    assert_eq!(
        export(&p, &ExportOptions::new(6)),
        Err(ExportError::PartialQuad(6))
    );
    let m = export(&p, &ExportOptions::new(8)).unwrap();
    assert!(m.features.compute_derivatives && m.features.subgroup_quad);
    let text = disassemble(&m.words);
    for line in [
        "OpCapability GroupNonUniformQuad",
        "OpCapability DerivativeControl",
        "OpExtension \"SPV_NV_compute_shader_derivatives\"",
        "OpDPdyFine",
        "OpGroupNonUniformQuadSwap",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let khr = ExportOptions {
        derivatives: spirv_export::DerivativeExtension::Khr,
        ..ExportOptions::new(8)
    };
    let text = disassemble(&export(&p, &khr).unwrap().words);
    assert!(text.contains("OpExtension \"SPV_KHR_compute_shader_derivatives\""));
    assert_eq!(
        spirv_export::op_needs(ir::Op::QuadBroadcast).names(),
        ["subgroup_shuffle", "subgroup_quad"]
    );
}

#[test]
fn helper_invocations_need_a_fragment_shader() {
    let p = parse(
        "shader: helpers
decl_output 0 i32
impl main {
	block b0:
	1 %0 = @is_helper_invocation ()
	32 %1 = b2i32 %0
	@store_output (%1) (slot=0)
}
",
    );
    assert_eq!(
        export(&p, &ExportOptions::new(8)),
        Err(ExportError::FragmentOnly("is_helper_invocation"))
    );
    assert!(spirv_export::op_needs(ir::Op::Demote).fragment_stage);
}
