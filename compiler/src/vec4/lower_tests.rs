//! The vec4 lowering's packing, reductions and packed bcsel, on programs
//! built for each shape. The expected code is derived by hand from the
//! rules in `pack.rs` and `lower.rs` and the uniform layout (8-byte slots:
//! u0 and u1 are components x and z of g2's first row, u2 and u3 of its
//! second, `g2.4`); `farm/tests/vec4.rs` checks what the shapes compute.

use super::lower;
use crate::options::{CompileOptions, Strategy};
use crate::passes::PassSet;
use ir::{Builder, Op, Program, SlotType, ValueId};

fn lowered(p: &Program) -> String {
    let opts = CompileOptions::new(Strategy::Vec4, 8, PassSet::none());
    lower(p, &opts).expect("lowers").text_compact()
}

/// A builder with four float uniforms (loaded) and `outputs` output slots
/// of `out` type.
fn with_uniforms(outputs: usize, out: SlotType) -> (Builder, Vec<ValueId>) {
    let mut b = Builder::new("pack");
    for _ in 0..4 {
        b.declare_uniform(SlotType::F32);
    }
    for _ in 0..outputs {
        b.declare_output(out);
    }
    let u = (0..4).map(|k| b.load_uniform(k)).collect();
    (b, u)
}

/// The code between the prologue's address computation and the first
/// store's address.
fn body(text: &str) -> String {
    text.lines()
        .skip(1)
        .take_while(|l| !l.starts_with("add(8) g") || l.contains("align16"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn sources_in_one_register_are_read_through_a_swizzle() {
    let (mut b, u) = with_uniforms(1, SlotType::F32);
    let s = b.alu(Op::Fadd, &[u[0], u[2]]);
    let t = b.alu(Op::Fadd, &[u[1], u[3]]);
    let m = b.alu(Op::Fmul, &[s, t]);
    b.store_output(0, m);
    // The fmul reads each fadd's own component back.
    assert_eq!(
        body(&lowered(&b.finish().unwrap())),
        "\
add(8) g4<1>.xyF g2<0>.xzzzF g2.4<0>.xzzzF { align16 1Q };
mul(8) g5<1>.xF g4<4>.xF g4<4>.yF { align16 1Q };"
    );
}

#[test]
fn results_only_stored_are_not_packed() {
    // Alone in its vgrf, each fadd would be retargeted to its store's
    // copy by coalescing; packed, both copies would stay.
    let (mut b, u) = with_uniforms(2, SlotType::F32);
    let s = b.alu(Op::Fadd, &[u[0], u[2]]);
    let t = b.alu(Op::Fadd, &[u[1], u[3]]);
    b.store_output(0, s);
    b.store_output(1, t);
    let text = lowered(&b.finish().unwrap());
    assert!(text.contains("add(8) g4<1>.xF g2<0>.xF g2.4<0>.xF { align16 1Q };"));
    assert!(text.contains("add(8) g5<1>.xF g2<0>.zF g2.4<0>.zF { align16 1Q };"));
    // With `vec4-pack=all` they are.
    let mut passes = PassSet::none();
    passes.vec4_pack_all = true;
    let opts = CompileOptions::new(Strategy::Vec4, 8, passes);
    let (mut b, u) = with_uniforms(2, SlotType::F32);
    let s = b.alu(Op::Fadd, &[u[0], u[2]]);
    let t = b.alu(Op::Fadd, &[u[1], u[3]]);
    b.store_output(0, s);
    b.store_output(1, t);
    let text = lower(&b.finish().unwrap(), &opts).unwrap().text_compact();
    assert!(text.contains("add(8) g4<1>.xyF g2<0>.xzzzF g2.4<0>.xzzzF { align16 1Q };"));
}

#[test]
fn single_use_results_in_different_registers_are_gathered() {
    // -u0 and -u2 are computed apart (u0 and u2 are in different rows, so
    // packing them would gather two uniforms); each is read once, by the
    // pair of fadds, which gathers them into g6 for coalescing to fold.
    let (mut b, u) = with_uniforms(2, SlotType::F32);
    let a = b.alu(Op::Fneg, &[u[0]]);
    let c = b.alu(Op::Fneg, &[u[2]]);
    let s = b.alu(Op::Fadd, &[a, u[1]]);
    let t = b.alu(Op::Fadd, &[c, u[1]]);
    let m = b.alu(Op::Fmul, &[s, t]);
    b.store_output(0, m);
    assert_eq!(
        body(&lowered(&b.finish().unwrap())),
        "\
mov(8) g4<1>.xF -g2<0>.xF { align16 1Q };
mov(8) g5<1>.xF -g2.4<0>.xF { align16 1Q };
mov(8) g6<1>.xUD g4<4>.xUD { align16 1Q };
mov(8) g6<1>.yUD g5<4>.xUD { align16 1Q };
add(8) g7<1>.xyF g6<4>.xyyyF g2<0>.zF { align16 1Q };
mul(8) g8<1>.xF g7<4>.xF g7<4>.yF { align16 1Q };"
    );
}

#[test]
fn constants_share_a_register_one_mov_per_value() {
    // 7, 9, 7 summed: read by the iadds, not only stored.
    let mut b = Builder::new("consts");
    b.declare_output(SlotType::I32);
    let k: Vec<ValueId> = [7u64, 9, 7].iter().map(|&v| b.constant(32, v)).collect();
    let a = b.alu(Op::Iadd, &[k[0], k[1]]);
    let s = b.alu(Op::Iadd, &[a, k[2]]);
    b.store_output(0, s);
    assert_eq!(
        body(&lowered(&b.finish().unwrap())),
        "\
mov(8) g3<1>.xzUD 0x00000007UD { align16 1Q };
mov(8) g3<1>.yUD 0x00000009UD { align16 1Q };
add(8) g4<1>.xD g3<4>.xD g3<4>.yD { align16 1Q };
add(8) g5<1>.xD g4<4>.xD g3<4>.zD { align16 1Q };"
    );
}

#[test]
fn a_packed_bcsel_tests_its_components_and_predicates_per_channel() {
    let (mut b, u) = with_uniforms(1, SlotType::F32);
    let c0 = b.alu(Op::Flt, &[u[0], u[2]]);
    let c1 = b.alu(Op::Flt, &[u[1], u[3]]);
    let s = b.alu(Op::Bcsel, &[c0, u[0], u[1]]);
    let t = b.alu(Op::Bcsel, &[c1, u[0], u[1]]);
    let m = b.alu(Op::Fmul, &[s, t]);
    b.store_output(0, m);
    assert_eq!(
        body(&lowered(&b.finish().unwrap())),
        "\
cmp.l.f0.0(8) g4<1>.xyF g2<0>.xzzzF g2.4<0>.xzzzF { align16 1Q };
cmp.nz.f0.0(8) null<1>.xyD g4<4>.xyyyD 0D { align16 1Q };
(+f0.0) sel(8) g5<1>.xyUD g2<0>.xUD g2<0>.zUD { align16 1Q };
mul(8) g6<1>.xF g5<4>.xF g5<4>.yF { align16 1Q };"
    );
}

#[test]
fn an_or_of_two_components_is_an_any4h_test_and_an_and_all4h() {
    for (op, pred) in [(Op::Ior, "any4h"), (Op::Iand, "all4h")] {
        let (mut b, u) = with_uniforms(1, SlotType::F32);
        let c0 = b.alu(Op::Flt, &[u[0], u[2]]);
        let c1 = b.alu(Op::Flt, &[u[1], u[3]]);
        let c = b.alu(op, &[c0, c1]);
        b.begin_if(c);
        b.store_output(0, u[0]);
        b.end_if();
        let text = lowered(&b.finish().unwrap());
        let want = format!(
            "\
cmp.l.f0.0(8) g4<1>.xyF g2<0>.xzzzF g2.4<0>.xzzzF {{ align16 1Q }};
{}(8) g5<1>.xUD g4<4>.xUD g4<4>.yUD {{ align16 1Q }};
mov.nz.f0.0(8) null<1>D g4<4>.xyyyD {{ align16 1Q }};
(+f0.0.{pred}) if(8)",
            if op == Op::Ior { "or" } else { "and" }
        );
        assert!(text.contains(&want), "{text}");
    }
}

#[test]
fn a_bcsel_on_an_or_of_two_components_selects_on_any4h() {
    let (mut b, u) = with_uniforms(1, SlotType::F32);
    let c0 = b.alu(Op::Flt, &[u[0], u[2]]);
    let c1 = b.alu(Op::Flt, &[u[1], u[3]]);
    let c = b.alu(Op::Ior, &[c0, c1]);
    let s = b.alu(Op::Bcsel, &[c, u[0], u[1]]);
    b.store_output(0, s);
    assert_eq!(
        body(&lowered(&b.finish().unwrap())),
        "\
cmp.l.f0.0(8) g4<1>.xyF g2<0>.xzzzF g2.4<0>.xzzzF { align16 1Q };
or(8) g5<1>.xUD g4<4>.xUD g4<4>.yUD { align16 1Q };
cmp.nz.f0.0(8) null<1>D g4<4>.xyyyD 0D { align16 1Q };
(+f0.0.any4h) sel(8) g6<1>.xUD g2<0>.xUD g2<0>.zUD { align16 1Q };"
    );
}

#[test]
fn values_packed_in_an_earlier_block_are_read_through_a_swizzle() {
    // s and t share g4 (x, y); in the if's block the two fmuls read them
    // through a swizzle, so they pack without a gather.
    let (mut b, u) = with_uniforms(1, SlotType::F32);
    let s = b.alu(Op::Fadd, &[u[0], u[2]]);
    let t = b.alu(Op::Fadd, &[u[1], u[3]]);
    let c = b.alu(Op::Flt, &[u[0], u[1]]);
    b.begin_if(c);
    let p = b.alu(Op::Fmul, &[s, u[0]]);
    let q = b.alu(Op::Fmul, &[t, u[0]]);
    let r = b.alu(Op::Fadd, &[p, q]);
    b.store_output(0, r);
    b.end_if();
    let text = lowered(&b.finish().unwrap());
    assert!(
        text.contains("add(8) g4<1>.xyF g2<0>.xzzzF g2.4<0>.xzzzF { align16 1Q };"),
        "{text}"
    );
    assert!(
        text.contains("mul(8) g6<1>.xyF g4<4>.xyyyF g2<0>.xF { align16 1Q };"),
        "{text}"
    );
}
