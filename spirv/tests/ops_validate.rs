//! Every op at every size its signature allows, exported in a one-op
//! program (operands loaded from inputs, the result stored), passes
//! `spirv-val --target-env vulkan1.1`, with every float mode requested,
//! with none, and with lavapipe's; and its disassembly round-trips through
//! `spirv-as`.

mod common;

use common::{all_shapes, round_trip_all, shape_program, spirv_val_all};
use spirv_export::{export, ExportOptions, FloatControls};

#[test]
fn every_op_at_every_size_validates() {
    let shapes = all_shapes();
    let mut modules = Vec::new();
    for (k, shape) in shapes.iter().enumerate() {
        let program = shape_program(shape);
        // Rotate the float controls so that each setting meets every op kind.
        let controls = [
            FloatControls::all(),
            FloatControls::none(),
            FloatControls::lavapipe(),
        ][k % 3];
        let opts = ExportOptions {
            invocations: 8 + (k as u32 % 3) * 28,
            float_controls: controls,
            reconvergence: Default::default(),
            derivatives: Default::default(),
        };
        let module = export(&program, &opts)
            .unwrap_or_else(|e| panic!("{}: export failed: {e}", shape.name()));
        modules.push((shape.name(), module.words));
    }
    // Sanity: the shape list covers every op a compute shader may have.
    for info in ir::op::OPS
        .iter()
        .filter(|i| !spirv_export::op_needs(i.op).fragment_stage)
    {
        assert!(
            shapes.iter().any(|s| s.op == info.op),
            "{} has no shape",
            info.name
        );
    }
    assert!(modules.len() > 300, "{} shapes", modules.len());
    let round_trips = round_trip_all(&modules);
    let failures = spirv_val_all(modules);
    assert!(
        failures.is_empty(),
        "{} modules rejected:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every op's instructions and constants also survive the disassembler.
    assert!(round_trips.is_empty(), "{}", round_trips.join("\n"));
}

#[test]
fn float_constants_of_every_kind_round_trip() {
    // Constants read as floats become float OpConstants: NaNs with payloads,
    // infinities, denormals and signed zeros must survive the printer.
    let patterns: [(u8, &[u64]); 3] = [
        (
            16,
            &[
                0x7e00, 0x7c01, 0xfe01, 0x7c00, 0xfc00, 0x0001, 0x83ff, 0x8000, 0x3555,
            ],
        ),
        (
            32,
            &[
                0x7fc0_0000,
                0x7f80_0001,
                0xffc0_1234,
                0xff80_0000,
                0x0000_0003,
                0x8000_0000,
                0x3dcc_cccd,
            ],
        ),
        (
            64,
            &[
                0x7ff8_0000_0000_0000,
                0x7ff0_0000_0000_0001,
                0xfff0_0000_0000_0000,
                0x0000_0000_0000_0001,
                0x8000_0000_0000_0000,
                0x3fb9_9999_9999_999a,
            ],
        ),
    ];
    let mut b = ir::Builder::new("float_constants");
    for (bits, values) in patterns {
        let slot = b.declare_output(ir::SlotType::float_of_bits(bits).unwrap());
        for &v in values {
            let c = b.constant(bits, v);
            let s = b.alu(ir::Op::Fadd, &[c, c]);
            b.store_output(slot, s);
        }
    }
    let program = b.finish().unwrap();
    let m = export(&program, &ExportOptions::new(4)).unwrap();
    let text = spirv_export::disassemble(&m.words);
    for line in [
        "%half_nan = OpConstant %half 0x1.8p+16",
        "%float_nan_0x7f800001 = OpConstant %float 0x1.000002p+128",
        "%float_0x3 = OpConstant %float 0x1.8p-148",
        "%double_n0 = OpConstant %double -0x0p+0",
        "%double_0_1 = OpConstant %double 0x1.999999999999ap-4",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "missing {line:?} in\n{text}"
        );
    }
    common::round_trip(&m.words).unwrap();
}
