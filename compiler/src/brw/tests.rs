//! Whole-pipeline tests: the four EU passes and register allocation on a
//! program with a loop, a break, an if/else and phis.

use super::testutil::{apply, canon, check_preserves, outputs, vprog};
use crate::passes::PassCtx;
use crate::vir::VProgram;

/// x = input; acc = 0; i = 0;
/// do { t = x + i; acc += (t & 3) == 0 ? t : 1; if (t > 5) break; i++ } while (i < 6);
/// store acc + i.
const LOOP: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD
send(8) g3 g2 ld.b32
mov(8) g4<1>D g3<8,8,1>D
mov(8) g5<1>D 0D
mov(8) g6<1>D 0D
L0:
add(8) g7<1>D g4<8,8,1>D g6<8,8,1>D
add(8) g8<1>D g6<8,8,1>D g4<8,8,1>D
and(8) g9<1>D g7<8,8,1>D 3D
cmp.z.f0.0(8) null<1>D g9<8,8,1>D 0D
(+f0.0) if(8) JIP: L1 UIP: L2
add(8) g5<1>D g5<8,8,1>D g8<8,8,1>D
else(8) JIP: L2 UIP: L2
L1:
add(8) g5<1>D g5<8,8,1>D 1D
L2:
endif(8) JIP: L3
L3:
mov(8) g10<1>D 5D
cmp.g.f0.1(8) g11<1>D g7<8,8,1>D g10<8,8,1>D
(+f0.1) break(8) JIP: L4 UIP: L4
add(8) g6<1>D g6<8,8,1>D 1D
cmp.l.f0.0(8) g12<1>D g6<8,8,1>D 6D
L4:
(+f0.0) while(8) JIP: L0
add(8) g13<1>D g5<8,8,1>D g6<8,8,1>D
send(8) null g2 g13 st.b32 { align1 1Q EOT };";

fn program() -> VProgram {
    let vg: Vec<(u32, u32)> = (2..14).map(|r| (r, 1)).collect();
    vprog(8, LOOP, &vg)
}

const INPUTS: [u64; 5] = [0, 3, 10, 0xffff_fffe, 1];

fn input(k: u32) -> u64 {
    INPUTS[k as usize % INPUTS.len()]
}

type Pass = fn(&mut VProgram, &PassCtx) -> bool;
const PASSES: [Pass; 4] = [
    super::copy_prop::run,
    super::cse::run,
    super::cmod_prop::run,
    super::dce::run,
];

#[test]
fn the_program_computes_what_the_comment_says() {
    let out = outputs(&program(), 5, &input, 0);
    let got: Vec<u64> = out.iter().map(|o| o[0].unwrap().bits).collect();
    // x=0: acc 0,1,2,3,7,8, i=6 -> 14. x=3: t=3,4,5,6 -> acc 1,5,6,7, break
    // at i=3 -> 10. x=10: acc 1, break at i=0 -> 1. x=-2: t=-2,-1,0,1,2,3,
    // acc 1,2,2,3,4,5, i=6 -> 11. x=1: t=1..6: acc 1,2,3,7,8,9 break at i=5 -> 14.
    assert_eq!(got, vec![14, 10, 1, 11, 14]);
}

#[test]
fn each_pass_alone_preserves_behaviour() {
    for pass in PASSES {
        check_preserves(&program(), pass, 13, &input);
    }
}

#[test]
fn all_passes_to_a_fixpoint_then_regalloc() {
    let mut p = program();
    for _ in 0..8 {
        let mut progress = false;
        for pass in PASSES {
            progress |= apply(&mut p, pass);
        }
        if !progress {
            break;
        }
    }
    for seed in [0, 3] {
        assert_eq!(
            outputs(&p, 13, &input, seed),
            outputs(&program(), 13, &input, seed)
        );
    }
    let want = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD
send(8) g3 g2 ld.b32
mov(8) g5<1>D 0D
mov(8) g6<1>D 0D
L0:
add(8) g7<1>D g3<8,8,1>D g6<8,8,1>D
and.z.f0.0(8) null<1>D g7<8,8,1>D 3D
(+f0.0) if(8) JIP: L1 UIP: L2
add(8) g5<1>D g5<8,8,1>D g7<8,8,1>D
else(8) JIP: L2 UIP: L2
L1:
add(8) g5<1>D g5<8,8,1>D 1D
L2:
endif(8) JIP: L3
L3:
cmp.g.f0.1(8) null<1>D g7<8,8,1>D 5D
(+f0.1) break(8) JIP: L4 UIP: L4
add(8) g6<1>D g6<8,8,1>D 1D
cmp.l.f0.0(8) null<1>D g6<8,8,1>D 6D
L4:
(+f0.0) while(8) JIP: L0
add(8) g13<1>D g5<8,8,1>D g6<8,8,1>D
send(8) null g2 g13 st.b32 { align1 1Q EOT };";
    assert_eq!(p.text_compact(), canon(want));
    let prog = crate::regalloc::allocate(&p, crate::bugs::BugSet::NONE).unwrap();
    eu::validate(&prog, &eu::MachineConfig::GFX11).unwrap();
    let d = eu::Dispatch {
        invocations: 13,
        simd: 8,
        input_slots: 1,
        output_slots: 1,
        inputs: (0..13).map(|k| vec![input(k)]).collect(),
        uniforms: vec![],
    };
    let phys = eu::run(&prog, &d, &eu::SimConfig::default())
        .unwrap()
        .outputs;
    assert_eq!(phys, outputs(&program(), 13, &input, 0));
}
