//! Golden tests of the exact EU sequences each boolean strategy produces for
//! the seed-001 examples: a 16-bit compare feeding a 32-bit iand, and a
//! 64-bit compare feeding bcsel (lowering output, no passes, SIMD8).
//! Checked by hand against the strategy rules in `compiler/src/lower/boolean.rs`:
//! bool32 sign-extends the 16-bit CMP result and MOVs the low dword of the
//! 64-bit one; bool16 narrows 32/64-bit results with a strided MOV into
//! packed words (`<1>W`, read back as `<8,8,1>W`); native
//! converts to the first operand's width and reads the 64-bit result's low
//! dword in place; flag CMPs straight into flag subregisters and combines
//! them with flag logic, materializing only what is stored.

mod common;

use compiler::Strategy;

fn lowered(src: &str, strategy: Strategy) -> String {
    common::lowered(src, strategy, 8)
}

const CMP16_IAND32: &str = "shader: cmp16_iand32\ndecl_input 0 i16\ndecl_input 1 i32\ndecl_output 0 bool\nimpl main {\n\tblock b0:\n\t16 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t16 %2 = load_const (0x0005)\n\t32 %3 = load_const (0x00000007)\n\t1 %4 = ilt %0, %2\n\t1 %5 = ilt %1, %3\n\t1 %6 = iand %4, %5\n\t@store_output (%6) (slot=0)\n}\n";
const CMP64_BCSEL: &str = "shader: cmp64_bcsel\ndecl_input 0 i64\ndecl_input 1 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t64 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t64 %2 = load_const (0x0000000100000000)\n\t32 %3 = load_const (0x0000002a)\n\t1 %4 = ult %0, %2\n\t32 %5 = bcsel %4, %1, %3\n\t@store_output (%5) (slot=0)\n}\n";

#[test]
fn cmp16_iand32_bool32() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b16\n\
add(8) g6<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g7 g6 ld.b32\n\
mov(1) g8<1>UW 0x0005UW { align1 WE_all 1N };\n\
mov(1) g9<1>UD 0x00000007UD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g10<1>W g5<16,8,2>W g8<0,1,0>W\n\
mov(8) g11<1>D g10<8,8,1>W\n\
cmp.l.f0.0(8) g12<1>D g7<8,8,1>D g9<0,1,0>D\n\
and(8) g13<1>D g11<8,8,1>D g12<8,8,1>D\n\
mov(8) g14<1>D -g13<8,8,1>D\n\
send(8) null g4 g14 st.b8\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP16_IAND32, Strategy::Bool32), want);
}

#[test]
fn cmp16_iand32_bool16() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b16\n\
add(8) g6<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g7 g6 ld.b32\n\
mov(1) g8<1>UW 0x0005UW { align1 WE_all 1N };\n\
mov(1) g9<1>UD 0x00000007UD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g10<1>W g5<16,8,2>W g8<0,1,0>W\n\
cmp.l.f0.0(8) g11<1>D g7<8,8,1>D g9<0,1,0>D\n\
mov(8) g12<1>W g11<16,8,2>W\n\
and(8) g13<1>W g10<8,8,1>W g12<8,8,1>W\n\
mov(8) g14<1>D -g13<8,8,1>W\n\
send(8) null g4 g14 st.b8\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP16_IAND32, Strategy::Bool16), want);
}

#[test]
fn cmp16_iand32_native() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b16\n\
add(8) g6<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g7 g6 ld.b32\n\
mov(1) g8<1>UW 0x0005UW { align1 WE_all 1N };\n\
mov(1) g9<1>UD 0x00000007UD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g10<1>W g5<16,8,2>W g8<0,1,0>W\n\
cmp.l.f0.0(8) g11<1>D g7<8,8,1>D g9<0,1,0>D\n\
mov(8) g13<1>W g11<16,8,2>W\n\
and(8) g12<1>W g10<8,8,1>W g13<8,8,1>W\n\
mov(8) g14<1>D -g12<8,8,1>W\n\
send(8) null g4 g14 st.b8\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP16_IAND32, Strategy::Native), want);
}

/// native-min: the iand meets a 16-bit and a 32-bit boolean and is done at
/// 16 bits, reading the 32-bit one's low words in place (`g11<16,8,2>W`)
/// instead of native's narrowing MOV; one register fewer follows.
#[test]
fn cmp16_iand32_native_min() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b16\n\
add(8) g6<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g7 g6 ld.b32\n\
mov(1) g8<1>UW 0x0005UW { align1 WE_all 1N };\n\
mov(1) g9<1>UD 0x00000007UD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g10<1>W g5<16,8,2>W g8<0,1,0>W\n\
cmp.l.f0.0(8) g11<1>D g7<8,8,1>D g9<0,1,0>D\n\
and(8) g12<1>W g10<8,8,1>W g11<16,8,2>W\n\
mov(8) g13<1>D -g12<8,8,1>W\n\
send(8) null g4 g13 st.b8\n\
send(8) null g0 end { align1 1Q EOT };\n\
";

    assert_eq!(lowered(CMP16_IAND32, Strategy::NativeMin), want);
}

#[test]
fn cmp16_iand32_flag() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b16\n\
add(8) g6<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g7 g6 ld.b32\n\
mov(1) g8<1>UW 0x0005UW { align1 WE_all 1N };\n\
mov(1) g9<1>UD 0x00000007UD { align1 WE_all 1N };\n\
cmp.l.f0.1(8) null<1>W g5<16,8,2>W g8<0,1,0>W\n\
cmp.l.f1.0(8) null<1>D g7<8,8,1>D g9<0,1,0>D\n\
and(1) f0.0<1>UW f0.1<0,1,0>UW f1.0<0,1,0>UW { align1 WE_all 1N };\n\
mov(8) g10<1>D 0D\n\
(+f0.0) mov(8) g10<1>D -1D\n\
mov(8) g11<1>D -g10<8,8,1>D\n\
send(8) null g4 g11 st.b8\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP16_IAND32, Strategy::Flag), want);
}

#[test]
fn cmp64_bcsel_bool32() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b64\n\
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g8 g7 ld.b32\n\
mov(1) g9<1>UQ 0x0000000100000000UQ { align1 WE_all 1N };\n\
mov(1) g10<1>UD 0x0000002aUD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g11<1>UQ g5<4,4,1>UQ g9<0,1,0>UQ\n\
mov(8) g13<1>D g11<8,4,2>D\n\
mov.nz.f0.0(8) null<1>D g13<8,8,1>D\n\
(+f0.0) sel(8) g14<1>UD g8<8,8,1>UD g10<0,1,0>UD\n\
send(8) null g4 g14 st.b32\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP64_BCSEL, Strategy::Bool32), want);
}

#[test]
fn cmp64_bcsel_bool16() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b64\n\
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g8 g7 ld.b32\n\
mov(1) g9<1>UQ 0x0000000100000000UQ { align1 WE_all 1N };\n\
mov(1) g10<1>UD 0x0000002aUD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g11<1>UQ g5<4,4,1>UQ g9<0,1,0>UQ\n\
mov(8) g13<1>W g11<16,4,4>W\n\
mov.nz.f0.0(8) null<1>W g13<8,8,1>W\n\
(+f0.0) sel(8) g14<1>UD g8<8,8,1>UD g10<0,1,0>UD\n\
send(8) null g4 g14 st.b32\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP64_BCSEL, Strategy::Bool16), want);
}

#[test]
fn cmp64_bcsel_native() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b64\n\
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g8 g7 ld.b32\n\
mov(1) g9<1>UQ 0x0000000100000000UQ { align1 WE_all 1N };\n\
mov(1) g10<1>UD 0x0000002aUD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g11<1>UQ g5<4,4,1>UQ g9<0,1,0>UQ\n\
mov.nz.f0.0(8) null<1>D g11<8,4,2>D\n\
(+f0.0) sel(8) g13<1>UD g8<8,8,1>UD g10<0,1,0>UD\n\
send(8) null g4 g13 st.b32\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP64_BCSEL, Strategy::Native), want);
}

#[test]
fn cmp64_bcsel_flag() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b64\n\
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g8 g7 ld.b32\n\
mov(1) g9<1>UQ 0x0000000100000000UQ { align1 WE_all 1N };\n\
mov(1) g10<1>UD 0x0000002aUD { align1 WE_all 1N };\n\
cmp.l.f0.1(8) null<1>UQ g5<4,4,1>UQ g9<0,1,0>UQ\n\
(+f0.1) sel(8) g11<1>UD g8<8,8,1>UD g10<0,1,0>UD\n\
send(8) null g4 g11 st.b32\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP64_BCSEL, Strategy::Flag), want);
}

/// SIMD16: a 16-bit boolean is a packed word per lane, one GRF (g17, g20,
/// g21 each take one register), where bool32's dword booleans take two
/// (g18, g20, g22): the register pressure 16-bit booleans were to save.
#[test]
fn cmp16_iand32_simd16_register_footprint() {
    const PROLOGUE: &str = "\
and(16) g3<1>UD g1<8,8,1>UD 0x0000000fUD\n\
mul(16) g5<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(16) g7<1>UD g1<8,8,1>UD 0x0008UW\n\
send(16) g9 g5 ld.b16\n\
add(16) g11<1>UD g5<8,8,1>UD 0x00000008UD\n\
send(16) g13 g11 ld.b32\n\
mov(1) g15<1>UW 0x0005UW { align1 WE_all 1N };\n\
mov(1) g16<1>UD 0x00000007UD { align1 WE_all 1N };\n\
cmp.l.f0.0(16) g17<1>W g9<16,8,2>W g15<0,1,0>W\n";
    let bool16 = format!(
        "{PROLOGUE}\
cmp.l.f0.0(16) g18<1>D g13<8,8,1>D g16<0,1,0>D\n\
mov(16) g20<1>W g18<16,8,2>W\n\
and(16) g21<1>W g17<16,16,1>W g20<16,16,1>W\n\
mov(16) g22<1>D -g21<16,16,1>W\n\
send(16) null g7 g22 st.b8\n\
send(8) null g0 end {{ align1 1Q EOT }};\n"
    );
    let bool32 = format!(
        "{PROLOGUE}\
mov(16) g18<1>D g17<16,16,1>W\n\
cmp.l.f0.0(16) g20<1>D g13<8,8,1>D g16<0,1,0>D\n\
and(16) g22<1>D g18<8,8,1>D g20<8,8,1>D\n\
mov(16) g24<1>D -g22<8,8,1>D\n\
send(16) null g7 g24 st.b8\n\
send(8) null g0 end {{ align1 1Q EOT }};\n"
    );
    assert_eq!(common::lowered(CMP16_IAND32, Strategy::Bool16, 16), bool16);
    assert_eq!(common::lowered(CMP16_IAND32, Strategy::Bool32, 16), bool32);
}

/// bool8 (Gfx11's byte rules): each CMP result's low bytes are packed by a
/// raw byte MOV (`<16,8,2>B` of the words, `<32,8,4>B` of the dwords); the
/// iand's second operand may not be a byte, so it is sign-extended to a
/// word, the AND runs on words and a raw MOV packs its low bytes. Three
/// instructions more than bool16.
#[test]
fn cmp16_iand32_bool8() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b16\n\
add(8) g6<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g7 g6 ld.b32\n\
mov(1) g8<1>UW 0x0005UW { align1 WE_all 1N };\n\
mov(1) g9<1>UD 0x00000007UD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g10<1>W g5<16,8,2>W g8<0,1,0>W\n\
mov(8) g11<1>B g10<16,8,2>B\n\
cmp.l.f0.0(8) g12<1>D g7<8,8,1>D g9<0,1,0>D\n\
mov(8) g13<1>B g12<32,8,4>B\n\
mov(8) g16<1>W g13<8,8,1>B\n\
and(8) g15<1>W g11<8,8,1>B g16<8,8,1>W\n\
mov(8) g14<1>B g15<16,8,2>B\n\
mov(8) g17<1>D -g14<8,8,1>B\n\
send(8) null g4 g17 st.b8\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP16_IAND32, Strategy::Bool8), want);
}

/// bool8: the 64-bit CMP's low dwords first (a qword's byte stride is not
/// encodable), then their low bytes; `mov.nz` tests the byte (one source:
/// allowed).
#[test]
fn cmp64_bcsel_bool8() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0008UW\n\
send(8) g5 g3 ld.b64\n\
add(8) g7<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g8 g7 ld.b32\n\
mov(1) g9<1>UQ 0x0000000100000000UQ { align1 WE_all 1N };\n\
mov(1) g10<1>UD 0x0000002aUD { align1 WE_all 1N };\n\
cmp.l.f0.0(8) g11<1>UQ g5<4,4,1>UQ g9<0,1,0>UQ\n\
mov(8) g13<1>D g11<8,4,2>D\n\
mov(8) g14<1>B g13<32,8,4>B\n\
mov.nz.f0.0(8) null<1>B g14<8,8,1>B\n\
(+f0.0) sel(8) g15<1>UD g8<8,8,1>UD g10<0,1,0>UD\n\
send(8) null g4 g15 st.b32\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(lowered(CMP64_BCSEL, Strategy::Bool8), want);
}

/// The injected bool8-byte-src1 leaves the iand's second operand a byte:
/// the lowered code is rejected by Gfx11's byte-src1 rule, blamed on
/// lowering.
#[test]
fn bool8_byte_src1_is_rejected() {
    use compiler::bugs::{Bug, BugSet};
    use compiler::{CompileError, CompileOptions, PassSet, StageId};
    let p = ir::parse_program(CMP16_IAND32).unwrap();
    let opts = CompileOptions::new(Strategy::Bool8, 8, PassSet::none())
        .with_bugs(BugSet::NONE.with(Bug::Bool8ByteSrc1));
    match compiler::compile(&p, &opts) {
        Err(CompileError::InvalidEu { stage, rule, .. }) => {
            assert_eq!((stage, rule), (StageId::Lowering, "byte-src1"));
        }
        other => panic!("expected byte-src1, got {other:?}"),
    }
    let clean = CompileOptions::new(Strategy::Bool8, 8, PassSet::none());
    assert!(compiler::compile(&p, &clean).is_ok());
}
