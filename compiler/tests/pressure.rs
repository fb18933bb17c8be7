//! Register pressure through the whole compiler: forty 64-bit values live at
//! once take 40 x 2 GRFs at SIMD8 (fits in 128) but 40 x 8 at SIMD32, which
//! must give CompilerLimit, never a panic.

use compiler::{compile, CompileError, CompileOptions, PassSet, StageId, Strategy};
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
    for s in Strategy::ALL {
        let c = compile(&p, &CompileOptions::new(s, 8, PassSet::none())).expect("fits at SIMD8");
        eu::validate(&c.program, &eu::MachineConfig::GFX11).unwrap();
    }
}

#[test]
fn simd32_hits_the_register_limit() {
    let p = many_live(40);
    match compile(
        &p,
        &CompileOptions::new(Strategy::Bool32, 32, PassSet::all()),
    ) {
        Err(CompileError::CompilerLimit { stage, message }) => {
            assert_eq!(stage, StageId::Regalloc);
            assert!(
                message.starts_with("register allocation needs "),
                "{message}"
            );
        }
        other => panic!("expected CompilerLimit, got {other:?}"),
    }
}
