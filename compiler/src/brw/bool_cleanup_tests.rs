//! Tests of `bool_cleanup`.

use super::*;
use crate::brw::testutil::{apply, canon, check_preserves, vprog};

/// Loads a 16-bit input (the low word of each lane's dword in g3).
const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b16\n";

/// One-GRF vgrfs g2..=g`last`.
fn vg(last: u32) -> Vec<(u32, u32)> {
    (2..=last).map(|r| (r, 1)).collect()
}

/// 16-bit inputs around the compare constants, both signs, the extremes.
fn input(k: u32) -> u64 {
    const X: [u64; 11] = [
        0, 5, 0xffff, 9, 4, 0x8000, 0x7fff, 6, 0xfffd, 0xfffc, 0xfffe,
    ];
    X[k as usize % X.len()]
}

/// The pass alone (behaviour checked on SIMD8 over 11 lanes), then DCE.
fn golden(text: &str, last: u32, want: &str, want_after_dce: &str) {
    let p = vprog(8, text, &vg(last));
    let q = check_preserves(&p, run, 11, &input);
    assert_eq!(q.text_compact(), canon(want), "after bool-cleanup");
    let mut r = q.clone();
    apply(&mut r, crate::brw::dce::run);
    assert_eq!(r.text_compact(), canon(want_after_dce), "after dce");
    // A second run finds nothing left to do.
    let mut s = r.clone();
    assert!(!apply(&mut s, run));
}

/// The pass changes nothing.
fn refused(text: &str, last: u32) {
    let mut p = vprog(8, text, &vg(last));
    assert!(!apply(&mut p, run), "{}", p.text_compact());
    assert_eq!(p.text_compact(), canon(text));
}

#[test]
fn coverage_records_the_rewrite_and_the_refusal() {
    // The first widened boolean only feeds a negating MOV (b2i): taken.
    // The second feeds an ADD: the MOV stays.
    let body = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
mov(8) g5<1>D g4<16,8,2>W
mov(8) g6<1>D -g5<8,8,1>D
cmp.g.f0.0(8) g7<2>W g3<16,8,2>W -3W
mov(8) g8<1>D g7<16,8,2>W
add(8) g9<1>D g8<8,8,1>D g6<8,8,1>D
send(8) null g2 g9 st.b32 { align1 1Q EOT };";
    let p = vprog(8, &format!("{HEAD}{body}"), &vg(9));
    let rec = crate::coverage::Recording::start();
    let q = check_preserves(&p, run, 11, &input);
    let hits = rec.finish();
    let want = body.replace("mov(8) g6<1>D -g5<8,8,1>D", "mov(8) g6<1>D -g4<16,8,2>W");
    assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}")));
    assert_eq!(
        hits,
        crate::coverage::Hits::from([
            (cov::CANDIDATE.name(), 2),
            (cov::REFUSE_ARITHMETIC.name(), 1),
            (cov::BYPASSED.name(), 1),
            (cov::REWRITE_FULL_VALUE.name(), 1),
        ])
    );
}

#[test]
fn bool32_combines_tests_and_b2f() {
    // bool32 lowering of a = x < 5, b = x > -3 (16-bit compares, each
    // widened at once): iand, ieq (xor with a NOT), a boolean bcsel,
    // b2f, a bcsel condition (mov.nz).
    let body = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
mov(8) g5<1>D g4<16,8,2>W
cmp.g.f0.0(8) g6<2>W g3<16,8,2>W -3W
mov(8) g7<1>D g6<16,8,2>W
and(8) g8<1>D g5<8,8,1>D g7<8,8,1>D
xor(8) g9<1>D ~g5<8,8,1>D g7<8,8,1>D
(+f0.0) sel(8) g10<1>D g5<8,8,1>D g7<8,8,1>D
mov(8) g11<1>F -g7<8,8,1>D
mov.nz.f0.1(8) null<1>D g5<8,8,1>D
(+f0.1) sel(8) g12<1>D g11<8,8,1>D 16D
add(8) g13<1>D g8<8,8,1>D g9<8,8,1>D
add(8) g14<1>D g10<8,8,1>D g12<8,8,1>D
add(8) g15<1>D g13<8,8,1>D g14<8,8,1>D
send(8) null g2 g15 st.b32 { align1 1Q EOT };";
    let want = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
mov(8) g5<1>D g4<16,8,2>W
cmp.g.f0.0(8) g6<2>W g3<16,8,2>W -3W
mov(8) g7<1>D g6<16,8,2>W
and(8) g8<1>D g4<16,8,2>W g6<16,8,2>W
xor(8) g9<1>D ~g4<16,8,2>W g6<16,8,2>W
(+f0.0) sel(8) g10<1>D g4<16,8,2>W g6<16,8,2>W
mov(8) g11<1>F -g6<16,8,2>W
mov.nz.f0.1(8) null<1>W g4<16,8,2>W
(+f0.1) sel(8) g12<1>D g11<8,8,1>D 16D
add(8) g13<1>D g8<8,8,1>D g9<8,8,1>D
add(8) g14<1>D g10<8,8,1>D g12<8,8,1>D
add(8) g15<1>D g13<8,8,1>D g14<8,8,1>D
send(8) null g2 g15 st.b32 { align1 1Q EOT };";
    let dce = want
        .replace("mov(8) g5<1>D g4<16,8,2>W\n", "")
        .replace("mov(8) g7<1>D g6<16,8,2>W\n", "");
    golden(
        &format!("{HEAD}{body}"),
        15,
        &format!("{HEAD}{want}"),
        &format!("{HEAD}{dce}"),
    );
}

#[test]
fn bool32_cmp_tests_immediates_and_low_words() {
    // cmp.nz / cmp.l against 0 (a D read: signed, exact), an XOR with an
    // all-ones immediate (becomes -1W), a low-word read.
    let body = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
mov(8) g5<1>D g4<16,8,2>W
cmp.nz.f0.1(8) null<1>D g5<8,8,1>D 0D
(+f0.1) sel(8) g6<1>UD g2<8,8,1>UD 0x00000007UD
cmp.l.f1.0(8) null<1>D g5<8,8,1>D 0D
(+f1.0) sel(8) g7<1>UD g6<8,8,1>UD 0x00000009UD
xor(8) g8<1>D g5<8,8,1>D -1D
mov(8) g9<2>W g5<16,8,2>W
add(8) g10<1>D g9<16,8,2>W g8<8,8,1>D
add(8) g11<1>D g10<8,8,1>D g7<8,8,1>D
send(8) null g2 g11 st.b32 { align1 1Q EOT };";
    let want = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
mov(8) g5<1>D g4<16,8,2>W
cmp.nz.f0.1(8) null<1>W g4<16,8,2>W 0W
(+f0.1) sel(8) g6<1>UD g2<8,8,1>UD 0x00000007UD
cmp.l.f1.0(8) null<1>W g4<16,8,2>W 0W
(+f1.0) sel(8) g7<1>UD g6<8,8,1>UD 0x00000009UD
xor(8) g8<1>D g4<16,8,2>W -1W
mov(8) g9<2>W g4<16,8,2>W
add(8) g10<1>D g9<16,8,2>W g8<8,8,1>D
add(8) g11<1>D g10<8,8,1>D g7<8,8,1>D
send(8) null g2 g11 st.b32 { align1 1Q EOT };";
    let dce = want.replace("mov(8) g5<1>D g4<16,8,2>W\n", "");
    golden(
        &format!("{HEAD}{body}"),
        11,
        &format!("{HEAD}{want}"),
        &format!("{HEAD}{dce}"),
    );
}

#[test]
fn phi_copies_sign_extend_in_place() {
    // A phi copy in the same block (else-arm) and one in another block
    // (the then-arm of a later IF: N is pinned, written only by the CMP
    // just before the MOV). The copies widen N themselves, so the phi
    // storage (g6, g9) is still a 32-bit boolean everywhere.
    let body = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
mov(8) g5<1>D g4<16,8,2>W
mov(8) g6<1>UD 0x00000000UD
cmp.l.f0.1(8) null<1>D g2<8,8,1>D 24D
(+f0.1) if(8) JIP: L0 UIP: L1
cmp.g.f0.0(8) g7<1>D g2<8,8,1>D 8D
mov(8) g9<1>UD g7<8,8,1>D
else(8) JIP: L1 UIP: L1
L0:
cmp.g.f0.0(8) g10<2>W g3<16,8,2>W -3W
mov(8) g8<1>D g10<16,8,2>W
mov(8) g9<1>UD g8<8,8,1>D
mov(8) g6<1>UD g5<8,8,1>D
L1:
endif(8) JIP: L2
L2:
mov(8) g11<1>D -g6<8,8,1>D
add(8) g12<1>D g11<8,8,1>D g9<8,8,1>D
send(8) null g2 g12 st.b32 { align1 1Q EOT };";
    let want = body
        .replace("mov(8) g9<1>UD g8<8,8,1>D", "mov(8) g9<1>UD g10<16,8,2>W")
        .replace("mov(8) g6<1>UD g5<8,8,1>D", "mov(8) g6<1>UD g4<16,8,2>W");
    let dce = want
        .replace("mov(8) g5<1>D g4<16,8,2>W\n", "")
        .replace("mov(8) g8<1>D g10<16,8,2>W\n", "");
    golden(
        &format!("{HEAD}{body}"),
        12,
        &format!("{HEAD}{want}"),
        &format!("{HEAD}{dce}"),
    );
}

#[test]
fn simd16_regions() {
    let text = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD
send(16) g5 g3 ld.b16 { align1 1H };
cmp.l.f0.0(16) g7<2>W g5<16,8,2>W 5W
mov(16) g9<1>D g7<16,8,2>W
mov.nz.f0.1(16) null<1>D g9<8,8,1>D
(+f0.1) sel(16) g11<1>D g3<8,8,1>D 7D
mov(16) g13<1>D -g9<8,8,1>D
add(16) g15<1>D g11<8,8,1>D g13<8,8,1>D
send(16) null g3 g15 st.b32 { align1 1H EOT };";
    let want = text
        .replace(
            "mov.nz.f0.1(16) null<1>D g9<8,8,1>D",
            "mov.nz.f0.1(16) null<1>W g7<16,8,2>W",
        )
        .replace(
            "mov(16) g13<1>D -g9<8,8,1>D",
            "mov(16) g13<1>D -g7<16,8,2>W",
        );
    let vg: Vec<(u32, u32)> = (0..7).map(|k| (3 + 2 * k, 2)).collect();
    let p = vprog(16, text, &vg);
    let q = check_preserves(&p, run, 27, &input);
    assert_eq!(q.text_compact(), canon(&want));
}

#[test]
fn refuses_mixed_widths_and_ties_movs_together() {
    // A combine with a 32-bit CMP result (native width): sizes meet, the
    // widening MOV is the canonicalization and stays.
    refused(&format!("{HEAD}cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W\nmov(8) g5<1>D g4<16,8,2>W\ncmp.ge.f0.0(8) g6<1>D g2<8,8,1>D 16D\nand(8) g7<1>D g5<8,8,1>D g6<8,8,1>D\nsend(8) null g2 g7 st.b32 {{ align1 1Q EOT }};"), 7);
    // All or nothing: the test could read N, the mixed AND cannot.
    refused(&format!("{HEAD}cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W\nmov(8) g5<1>D g4<16,8,2>W\ncmp.ge.f0.0(8) g6<1>D g2<8,8,1>D 16D\nmov.nz.f0.0(8) null<1>D g5<8,8,1>D\n(+f0.0) sel(8) g7<1>D g6<8,8,1>D 3D\nand(8) g8<1>D g5<8,8,1>D g6<8,8,1>D\nadd(8) g9<1>D g7<8,8,1>D g8<8,8,1>D\nsend(8) null g2 g9 st.b32 {{ align1 1Q EOT }};"), 9);
    // An AND of two widened booleans, one of which also feeds an ADD:
    // that MOV stays, so the AND keeps reading X, so the other stays too.
    refused(&format!("{HEAD}cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W\nmov(8) g5<1>D g4<16,8,2>W\ncmp.g.f0.0(8) g6<2>W g3<16,8,2>W -3W\nmov(8) g7<1>D g6<16,8,2>W\nand(8) g8<1>D g5<8,8,1>D g7<8,8,1>D\nadd(8) g9<1>D g7<8,8,1>D g8<8,8,1>D\nsend(8) null g2 g9 st.b32 {{ align1 1Q EOT }};"), 9);
}

/// The pass in `bool-cleanup=mixed` mode.
fn run_mixed(p: &mut VProgram, ctx: &PassCtx) -> bool {
    run(
        p,
        &PassCtx {
            bool_cleanup: crate::passes::BoolCleanupMode::Mixed,
            ..*ctx
        },
    )
}

#[test]
fn mixed_mode_combines_across_widths_and_the_simulator_agrees() {
    // The AND canonical mode refuses (a 16-bit boolean meets a 32-bit CMP
    // result) reads N as W next to the D operand: the execution type is D,
    // the W source is sign-extended back to X, and check_preserves runs
    // both programs on the simulator over 11 lanes. DCE then removes the
    // widening MOV.
    let cmp = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W\nmov(8) g5<1>D g4<16,8,2>W\ncmp.ge.f0.0(8) g6<1>D g2<8,8,1>D 16D\n";
    let end = "send(8) null g2 g7 st.b32 { align1 1Q EOT };";
    let text = format!("{HEAD}{cmp}and(8) g7<1>D g5<8,8,1>D g6<8,8,1>D\n{end}");
    let p = vprog(8, &text, &vg(7));
    let rec = crate::coverage::Recording::start();
    let q = check_preserves(&p, run_mixed, 11, &input);
    let hits = rec.finish();
    assert!(hits.contains_key(cov::REWRITE_COMBINE_MIXED.name()));
    let want = format!("{HEAD}{cmp}and(8) g7<1>D g4<16,8,2>W g6<8,8,1>D\n{end}");
    assert_eq!(q.text_compact(), canon(&want));
    let mut r = q.clone();
    apply(&mut r, crate::brw::dce::run);
    assert_eq!(
        r.text_compact(),
        canon(&want.replace("mov(8) g5<1>D g4<16,8,2>W\n", ""))
    );
    // A predicated SEL with a negated operand stays refused.
    let sel = format!("{HEAD}{cmp}(+f0.0) sel(8) g7<1>D g5<8,8,1>D -g6<8,8,1>D\n{end}");
    let mut s = vprog(8, &sel, &vg(7));
    assert!(!run_mixed(&mut s, &crate::brw::testutil::ctx(8)));
}

#[test]
fn refuses_what_is_not_exact() {
    let cmp = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W\n";
    let end = "send(8) null g2 g8 st.b32 { align1 1Q EOT };";
    for body in [
        // Zero extension (UW source): 0xFFFF -> 0x0000FFFF is no boolean.
        "mov(8) g5<1>D g4<16,8,2>UW\nmov.nz.f0.1(8) null<1>D g5<8,8,1>D\n(+f0.1) sel(8) g8<1>D g2<8,8,1>D 1D\n",
        // A relational test of X read as UD (0xFFFFFFFF > 0, -1W < 0).
        "mov(8) g5<1>D g4<16,8,2>W\ncmp.l.f0.1(8) null<1>UD g5<8,8,1>UD 0UD\n(+f0.1) sel(8) g8<1>D g2<8,8,1>D 1D\n",
        // X read as UD into a float (4294967295.0, not -1.0).
        "mov(8) g5<1>D g4<16,8,2>W\nmov(8) g8<1>F g5<8,8,1>UD\n",
        // Arithmetic on X.
        "mov(8) g5<1>D g4<16,8,2>W\nadd(8) g8<1>D g5<8,8,1>D 1D\n",
        // A predicated widening MOV is not taken.
        "cmp.z.f0.1(8) null<1>D g2<8,8,1>D 0D\n(+f0.1) mov(8) g5<1>D g4<16,8,2>W\nmov(8) g8<1>D -g5<8,8,1>D\n",
        // N is overwritten between the MOV and the reader.
        "mov(8) g5<1>D g4<16,8,2>W\ncmp.g.f0.0(8) g4<2>W g3<16,8,2>W -3W\nmov(8) g8<1>D -g5<8,8,1>D\n",
    ] {
        refused(&format!("{HEAD}{cmp}{body}{end}"), 8);
    }
    // The widened value of something that is not a boolean (an i2i).
    refused(&format!("{HEAD}add(8) g4<2>W g3<16,8,2>W 1W\nmov(8) g5<1>D g4<16,8,2>W\nmov(8) g8<1>D -g5<8,8,1>D\n{end}"), 8);
    // X stored directly by a SEND.
    refused(&format!("{HEAD}{cmp}mov(8) g8<1>D g4<16,8,2>W\n{end}"), 8);
    // A negated SEL source (integer negation: -(-1) = 1 is no boolean).
    refused(&format!("{HEAD}{cmp}mov(8) g5<1>D g4<16,8,2>W\ncmp.g.f0.0(8) g6<2>W g3<16,8,2>W -3W\nmov(8) g7<1>D g6<16,8,2>W\n(+f0.0) sel(8) g8<1>D -g5<8,8,1>D -g7<8,8,1>D\n{end}"), 8);
}

#[test]
fn refuses_readers_in_other_blocks_when_n_is_not_pinned() {
    // N (g4) is written in two blocks (a phi): after the ENDIF it is not
    // pinned, so the reader inside the next IF may not read it.
    let text = format!(
        "{HEAD}cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
cmp.l.f0.1(8) null<1>D g2<8,8,1>D 24D
(+f0.1) if(8) JIP: L0 UIP: L0
cmp.g.f0.0(8) g4<2>W g3<16,8,2>W -3W
L0:
endif(8) JIP: L1
L1:
mov(8) g5<1>D g4<16,8,2>W
mov(8) g8<1>D 0D
cmp.l.f0.1(8) null<1>D g2<8,8,1>D 16D
(+f0.1) if(8) JIP: L2 UIP: L2
mov(8) g8<1>D -g5<8,8,1>D
L2:
endif(8) JIP: L3
L3:
send(8) null g2 g8 st.b32 {{ align1 1Q EOT }};"
    );
    refused(&text, 8);
    // A reader in the MOV's block, before N changes, is rewritten.
    let same = text
        .replace("mov(8) g8<1>D 0D", "mov(8) g8<1>D -g5<8,8,1>D")
        .replace(
            "mov(8) g8<1>D -g5<8,8,1>D\nL2:",
            "add(8) g8<1>D g8<8,8,1>D 2D\nL2:",
        );
    let p = vprog(8, &same, &vg(8));
    let q = check_preserves(&p, run, 11, &input);
    assert_eq!(
        q.text_compact(),
        canon(&same.replacen("mov(8) g8<1>D -g5<8,8,1>D", "mov(8) g8<1>D -g4<16,8,2>W", 1))
    );
}

/// bool16 lowering of `a = x < 5; b = y < 5; b2i(a & b); b2f(a);
/// store a & b; bcsel(b, 7, 9)`: every boolean is already 16-bit and
/// b2i/b2f read it as W: nothing to do.
const BOOL16: &str = "and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW
mul(8) g4<1>UD g1<8,8,1>UD 0x0020UW
add(8) g5<1>UD g3<8,8,1>UD 0x00000000UD
send(8) g6 g5 ld.b16
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD
send(8) g8 g7 ld.b16
mov(1) g9<1>UW 0x0005UW { align1 WE_all 1N };
cmp.l.f0.0(8) g10<2>W g6<16,8,2>W g9<0,1,0>W
cmp.l.f0.0(8) g11<2>W g8<16,8,2>W g9<0,1,0>W
and(8) g12<2>W g10<16,8,2>W g11<16,8,2>W
mov(8) g13<1>D -g12<16,8,2>W
mov(8) g14<1>F -g10<16,8,2>W
mov(1) g15<1>UD 0x00000007UD { align1 WE_all 1N };
mov(1) g16<1>UD 0x00000009UD { align1 WE_all 1N };
mov.nz.f0.0(8) null<1>W g11<16,8,2>W
(+f0.0) sel(8) g17<1>UD g15<0,1,0>UD g16<0,1,0>UD
add(8) g18<1>UD g4<8,8,1>UD 0x00000000UD
send(8) null g18 g13 st.b32
add(8) g19<1>UD g4<8,8,1>UD 0x00000008UD
send(8) null g19 g14 st.b32
add(8) g20<1>UD g4<8,8,1>UD 0x00000010UD
mov(8) g21<1>D -g12<16,8,2>W
send(8) null g20 g21 st.b8
add(8) g22<1>UD g4<8,8,1>UD 0x00000018UD
send(8) null g22 g17 st.b32
send(8) null g0 end { align1 1Q EOT };";

#[test]
fn bool16_lowering_is_left_alone() {
    refused(BOOL16, 22);
    // The bool32 lowering of the same program becomes it, up to the AND's
    // D destination and register numbers.
    let bool32 = "and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW
mul(8) g4<1>UD g1<8,8,1>UD 0x0020UW
add(8) g5<1>UD g3<8,8,1>UD 0x00000000UD
send(8) g6 g5 ld.b16
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD
send(8) g8 g7 ld.b16
mov(1) g9<1>UW 0x0005UW { align1 WE_all 1N };
cmp.l.f0.0(8) g10<2>W g6<16,8,2>W g9<0,1,0>W
mov(8) g11<1>D g10<16,8,2>W
cmp.l.f0.0(8) g12<2>W g8<16,8,2>W g9<0,1,0>W
mov(8) g13<1>D g12<16,8,2>W
and(8) g14<1>D g11<8,8,1>D g13<8,8,1>D
mov(8) g15<1>D -g14<8,8,1>D
mov(8) g16<1>F -g11<8,8,1>D
mov(1) g17<1>UD 0x00000007UD { align1 WE_all 1N };
mov(1) g18<1>UD 0x00000009UD { align1 WE_all 1N };
mov.nz.f0.0(8) null<1>D g13<8,8,1>D
(+f0.0) sel(8) g19<1>UD g17<0,1,0>UD g18<0,1,0>UD
add(8) g20<1>UD g4<8,8,1>UD 0x00000000UD
send(8) null g20 g15 st.b32
add(8) g21<1>UD g4<8,8,1>UD 0x00000008UD
send(8) null g21 g16 st.b32
add(8) g22<1>UD g4<8,8,1>UD 0x00000010UD
mov(8) g23<1>D -g14<8,8,1>D
send(8) null g22 g23 st.b8
add(8) g24<1>UD g4<8,8,1>UD 0x00000018UD
send(8) null g24 g19 st.b32
send(8) null g0 end { align1 1Q EOT };";
    let mut p = vprog(8, bool32, &vg(24));
    (p.input_slots, p.output_slots) = (2, 4);
    let q = check_preserves(&p, run, 11, &input);
    let want = bool32
        .replace(
            "and(8) g14<1>D g11<8,8,1>D g13<8,8,1>D",
            "and(8) g14<1>D g10<16,8,2>W g12<16,8,2>W",
        )
        .replace(
            "mov(8) g16<1>F -g11<8,8,1>D",
            "mov(8) g16<1>F -g10<16,8,2>W",
        )
        .replace(
            "mov.nz.f0.0(8) null<1>D g13<8,8,1>D",
            "mov.nz.f0.0(8) null<1>W g12<16,8,2>W",
        );
    assert_eq!(q.text_compact(), canon(&want));
}

#[test]
fn native_lowering_phi_copy_and_mixed_combines() {
    // native (and bool32) lowering of `phi(c32 ? x32 < 0 : x16 < 7)`
    // stored as b2i: the 16-bit arm's boolean is widened for the 32-bit
    // phi; the phi copy does the widening itself.
    let text = "and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW
add(8) g5<1>UD g3<8,8,1>UD 0x00000000UD
send(8) g6 g5 ld.b16
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD
send(8) g8 g7 ld.b32
mov(1) g9<1>UD 0x00000003UD { align1 WE_all 1N };
cmp.l.f0.0(8) g10<1>D g8<8,8,1>D g9<0,1,0>D
mov.nz.f0.0(8) null<1>D g10<8,8,1>D
(+f0.0) if(8) JIP: LABEL0 UIP: LABEL1
mov(1) g11<1>UD 0x00000000UD { align1 WE_all 1N };
cmp.l.f0.0(8) g12<1>D g8<8,8,1>D g11<0,1,0>D
mov(8) g13<1>UD g12<8,8,1>D
else(8) JIP: LABEL1 UIP: LABEL1
LABEL0:
mov(1) g14<1>UW 0x0007UW { align1 WE_all 1N };
cmp.l.f0.0(8) g15<2>W g6<16,8,2>W g14<0,1,0>W
mov(8) g16<1>D g15<16,8,2>W
mov(8) g13<1>UD g16<8,8,1>D
LABEL1:
endif(8) JIP: LABEL2
LABEL2:
mov(8) g17<1>D -g13<8,8,1>D
add(8) g18<1>UD g4<8,8,1>UD 0x00000000UD
send(8) null g18 g17 st.b32
send(8) null g0 end { align1 1Q EOT };";
    let mut p = vprog(8, text, &vg(18));
    p.input_slots = 2;
    let q = check_preserves(&p, run, 11, &input);
    let want = text.replace(
        "mov(8) g13<1>UD g16<8,8,1>D",
        "mov(8) g13<1>UD g15<16,8,2>W",
    );
    assert_eq!(q.text_compact(), canon(&want));
    let mut r = q.clone();
    apply(&mut r, crate::brw::dce::run);
    assert_eq!(
        r.text_compact(),
        canon(
            &want
                .replace("mov(8) g16<1>D g15<16,8,2>W\n", "")
                .replace("and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n", "")
        )
    );

    // native lowering of corpus/bool_phi_b2x (SIMD8): each widened
    // boolean (g27, g29, g31 from 8- and 16-bit compares) meets the
    // 32-bit phi g19 in an AND or XOR: all refused.
    let native = "and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD
mul(8) g3<1>UD g1<8,8,1>UD 0x0020UW
mul(8) g4<1>UD g1<8,8,1>UD 0x0048UW
add(8) g5<1>UD g3<8,8,1>UD 0x00000000UD
send(8) g6 g5 ld.b16
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD
send(8) g8 g7 ld.b32
add(8) g9<1>UD g3<8,8,1>UD 0x00000010UD
send(8) g10 g9 ld.b64
add(8) g12<1>UD g3<8,8,1>UD 0x00000018UD
send(8) g13 g12 ld.b8
mov(1) g14<1>UW 0x0000UW { align1 WE_all 1N };
cmp.l.f0.0(8) g15<2>HF g6<16,8,2>HF g14<0,1,0>HF
mov.nz.f0.0(8) null<1>W g15<16,8,2>W
(+f0.0) if(8) JIP: LABEL0 UIP: LABEL1
mov(1) g16<1>UQ 0x0000000000000005UQ { align1 WE_all 1N };
cmp.l.f0.0(8) g17<1>Q g10<4,4,1>Q g16<0,1,0>Q
mov(8) g19<1>UD g17<8,4,2>D
else(8) JIP: LABEL1 UIP: LABEL1
LABEL0:
mov(1) g20<1>UD 0x3f800000UD { align1 WE_all 1N };
cmp.ge.f0.0(8) g21<1>F g8<8,8,1>F g20<0,1,0>F
mov(8) g19<1>UD g21<8,8,1>D
LABEL1:
endif(8) JIP: LABEL2
LABEL2:
mov(1) g22<2>B 0W { align1 WE_all 1N };
mov(8) g23<2>W g13<32,8,4>B
mov(8) g24<2>W g22<0,1,0>B
cmp.nz.f0.0(8) g25<2>W g23<16,8,2>W g24<16,8,2>W
mov(8) g27<1>D g25<16,8,2>W
and(8) g26<1>D g19<8,8,1>D g27<8,8,1>D
mov(8) g29<1>D g15<16,8,2>W
xor(8) g28<1>D g19<8,8,1>D g29<8,8,1>D
mov(8) g31<1>D g25<16,8,2>W
xor(8) g30<1>D ~g19<8,8,1>D g31<8,8,1>D
mov(8) g32<1>D -g26<8,8,1>D
mov(8) g33<2>W -g19<8,8,1>D
mov(8) g34<1>D -g26<8,8,1>D
mov(8) g35<1>Q -g19<8,8,1>D
mov(8) g37<2>HF -g19<8,8,1>D
mov(8) g38<1>F -g26<8,8,1>D
mov(8) g39<1>DF -g28<8,8,1>D
add(8) g41<1>UD g4<8,8,1>UD 0x00000000UD
mov(8) g42<1>D -g19<8,8,1>D
send(8) null g41 g42 st.b8
add(8) g43<1>UD g4<8,8,1>UD 0x00000008UD
send(8) null g43 g32 st.b8
add(8) g44<1>UD g4<8,8,1>UD 0x00000010UD
send(8) null g44 g33 st.b16
add(8) g45<1>UD g4<8,8,1>UD 0x00000018UD
send(8) null g45 g34 st.b32
add(8) g46<1>UD g4<8,8,1>UD 0x00000020UD
send(8) null g46 g35 st.b64
add(8) g47<1>UD g4<8,8,1>UD 0x00000028UD
send(8) null g47 g37 st.b16
add(8) g48<1>UD g4<8,8,1>UD 0x00000030UD
send(8) null g48 g38 st.b32
add(8) g49<1>UD g4<8,8,1>UD 0x00000038UD
send(8) null g49 g39 st.b64
add(8) g50<1>UD g4<8,8,1>UD 0x00000040UD
mov(8) g51<1>D -g30<8,8,1>D
send(8) null g50 g51 st.b8
send(8) null g0 end { align1 1Q EOT };";
    let mut v: Vec<(u32, u32)> = vec![];
    let mut r = 2;
    while r <= 51 {
        let size = if matches!(r, 10 | 17 | 35 | 39) { 2 } else { 1 };
        v.push((r, size));
        r += size;
    }
    let mut p = vprog(8, native, &v);
    assert!(!apply(&mut p, run));
    assert_eq!(p.text_compact(), canon(native));
}

#[test]
fn a_negating_mov_is_no_widening_unless_the_bug_is_injected() {
    // bool16's b2i: mov X:D, -N:W makes 1, not -1. Its XOR reader (a
    // combine) must keep reading X; bool-cleanup-negated-mov rewrites it to
    // read N, which gives -1 for true.
    let body = "cmp.l.f0.0(8) g4<2>W g3<16,8,2>W 5W
mov(8) g5<1>D -g4<16,8,2>W
xor(8) g8<1>D g5<8,8,1>D 0D
send(8) null g2 g8 st.b32 { align1 1Q EOT };";
    let text = format!("{HEAD}{body}");
    refused(&text, 8);
    let p = vprog(8, &text, &vg(8));
    let mut q = p.clone();
    assert!(crate::brw::testutil::apply_with_bugs(
        &mut q,
        run,
        BugSet::NONE.with(Bug::BoolCleanupNegatedMov)
    ));
    let want = body.replace(
        "xor(8) g8<1>D g5<8,8,1>D 0D",
        "xor(8) g8<1>D g4<16,8,2>W 0W",
    );
    assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}")));
    // Inputs below 5 (0, 4, -1, ...) are true: 1 before, -1 after.
    let out = |p: &VProgram| crate::brw::testutil::outputs(p, 11, &input, 0);
    assert_ne!(out(&p), out(&q));
}

/// The boolean producers as a fixpoint in rounds: every producer checked
/// again after each round that dropped one (how `bools` used to work).
fn producers_by_rounds(p: &VProgram) -> Vec<Option<Vec<(u32, u32)>>> {
    let (mut b, prod) = Bools::every_candidate(p);
    loop {
        let drop: Vec<usize> = (0..p.insts.len())
            .filter(|&i| {
                b.elems[i].is_some()
                    && prod[i].as_ref().is_some_and(|(_, srcs)| {
                        !srcs.iter().all(|s| b.read(s, p.insts[i].exec_size))
                    })
            })
            .collect();
        if drop.is_empty() {
            return b.elems;
        }
        for i in drop {
            b.elems[i] = None;
        }
    }
}

/// The producers found one by one, each checked again only when one it
/// reads stops being one, are those the rounds find: on the lowered and
/// the optimized code of corpus cases under every scalar strategy, where
/// some producers are dropped (booleans combined with other values).
#[test]
fn producers_checked_as_needed_are_those_of_rounds() {
    let (mut programs, mut dropped) = (0, 0);
    for name in [
        "bool_loop_phi",
        "bool_mixed_combine",
        "bool_phi_b2x",
        "cmod_patterns",
        "cmp64_sel",
        "loop_break_continue",
        "seed002_cmp_sel",
    ] {
        let case = crate::brw::testutil::corpus_case(name);
        for strategy in crate::Strategy::ALL
            .into_iter()
            .filter(|s| *s != crate::Strategy::Vec4)
        {
            for passes in [crate::PassSet::none(), crate::PassSet::all()] {
                let opts = crate::CompileOptions::new(strategy, 16, passes);
                let v = crate::compile(&case.program, &opts).unwrap().virt;
                let want = producers_by_rounds(&v);
                assert_eq!(bools(&v).elems, want, "{name} {strategy:?}");
                let candidates = v.insts.iter().filter(|i| producer(i).is_some()).count();
                dropped += candidates - want.iter().filter(|e| e.is_some()).count();
                programs += 1;
            }
        }
    }
    assert_eq!(programs, 7 * 6 * 2);
    assert!(dropped > 0, "no producer was dropped");
}
