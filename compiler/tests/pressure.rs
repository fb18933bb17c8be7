//! Register pressure through the whole compiler: forty 64-bit values live at
//! once take 40 x 2 GRFs at SIMD8 (fits in 128) but 40 x 8 at SIMD32, which
//! register allocation must spill to scratch and still compute right.

use compiler::{compile, CompileOptions, PassSet, Strategy};
use ir::{Builder, Op, SlotType};

fn many_live(n: u64) -> ir::Program {
    let mut b = Builder::new("pressure");
    let one = {
        let slots: Vec<u64> = (0..n).map(|_| b.declare_input(SlotType::I64)).collect();
        for _ in 0..n {
            b.declare_output(SlotType::I64);
        }
        let one = b.constant(64, 1);
        let vals: Vec<_> = slots
            .iter()
            .map(|&s| {
                let x = b.load_input(s);
                b.alu(Op::Iadd, &[x, one])
            })
            .collect();
        for (k, v) in vals.iter().enumerate().rev() {
            b.store_output(k as u64, *v);
        }
        one
    };
    let _ = one;
    b.finish().unwrap()
}

#[test]
fn fits_at_simd8() {
    let p = many_live(40);
    for s in compiler::Backend::Scalar.strategies() {
        let c = compile(&p, &CompileOptions::new(s, 8, PassSet::none())).expect("fits at SIMD8");
        eu::validate(&c.program, &eu::MachineConfig::GFX11).unwrap();
    }
}

#[test]
fn simd32_spills_and_still_computes_every_value() {
    let p = many_live(40);
    let c = compile(
        &p,
        &CompileOptions::new(Strategy::Bool32, 32, PassSet::all()),
    )
    .expect("spills at SIMD32");
    eu::validate(&c.program, &eu::MachineConfig::GFX11).unwrap();
    // 320 GRFs of values cannot live in 126: some are spilled and filled.
    assert!(c.stats.spills > 0 && c.stats.fills > 0, "{:?}", c.stats);
    // Slot k of lane i holds input k + 1 (64-bit).
    let input = |i: u64, k: u64| (i << 40) | (k << 8) | 0xff;
    let d = eu::Dispatch {
        invocations: 32,
        simd: 32,
        input_slots: 40,
        output_slots: 40,
        inputs: (0..32)
            .map(|i| (0..40).map(|k| input(i, k)).collect())
            .collect(),
        uniforms: vec![],
    };
    let run = eu::run(&c.program, &d, &eu::SimConfig::default()).unwrap();
    for (i, lane) in run.outputs.iter().enumerate() {
        for (k, slot) in lane.iter().enumerate() {
            let want = input(i as u64, k as u64) + 1;
            assert_eq!(slot.map(|s| s.bits), Some(want), "lane {i} slot {k}");
        }
    }
}
