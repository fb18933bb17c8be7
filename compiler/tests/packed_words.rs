//! Golden tests of 16-bit values packed a word per lane (lowering output,
//! no passes), worked out by hand from the storage rules in
//! `compiler/src/lower/mod.rs` and the regioning rules of EU-MODEL §1.6.

mod common;

use compiler::coverage::Recording;
use compiler::lower::cov;
use compiler::{CompileOptions, PassSet, Strategy};

/// A 16-bit sum of a loaded input (a word in each dword of the load's
/// payload), an f32 -> f16 conversion, a bit count and a truncation to 8
/// bits of the sum, and stores of all four.
const PROGRAM: &str = "shader: packed\ndecl_input 0 i16\ndecl_input 1 f32\ndecl_output 0 i16\ndecl_output 1 f16\ndecl_output 2 i32\ndecl_output 3 i8\nimpl main {\n\tblock b0:\n\t16 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t16 %2 = iadd %0, %0\n\t16 %3 = f2f16 %1\n\t32 %4 = bit_count %2\n\t8 %5 = i2i8 %2\n\t@store_output (%2) (slot=0)\n\t@store_output (%3) (slot=1)\n\t@store_output (%4) (slot=2)\n\t@store_output (%5) (slot=3)\n}\n";

/// SIMD8. The sum is written packed (`g8<1>W`) from the input's words
/// (`<16,8,2>W`). f32 -> f16 may write packed HF at SIMD8 (mixed-float
/// mode, an oword-aligned destination). The bit count zero-extends the
/// words with one MOV; the truncation to 8 bits and each 16-bit store
/// spread the words one per dword (`<2>UW`): bytes live in dwords, and the
/// byte scattered write takes a dword per lane.
#[test]
fn simd8() {
    let want = "\
and(8) g2<1>UD g1<8,8,1>UD 0x00000007UD\n\
mul(8) g3<1>UD g1<8,8,1>UD 0x0010UW\n\
mul(8) g4<1>UD g1<8,8,1>UD 0x0020UW\n\
send(8) g5 g3 ld.b16\n\
add(8) g6<1>UD g3<8,8,1>UD 0x00000008UD\n\
send(8) g7 g6 ld.b32\n\
add(8) g8<1>W g5<16,8,2>W g5<16,8,2>W\n\
mov(8) g9<1>HF g7<8,8,1>F\n\
mov(8) g10<1>UD g8<8,8,1>UW\n\
cbit(8) g11<1>UD g10<8,8,1>UD\n\
mov(8) g12<2>UW g8<8,8,1>UW\n\
mov(8) g13<2>UW g8<8,8,1>UW\n\
send(8) null g4 g13 st.b16\n\
add(8) g14<1>UD g4<8,8,1>UD 0x00000008UD\n\
mov(8) g15<2>UW g9<8,8,1>UW\n\
send(8) null g14 g15 st.b16\n\
add(8) g16<1>UD g4<8,8,1>UD 0x00000010UD\n\
send(8) null g16 g11 st.b32\n\
add(8) g17<1>UD g4<8,8,1>UD 0x00000018UD\n\
send(8) null g17 g12 st.b8\n\
send(8) null g0 end { align1 1Q EOT };\n\
";
    assert_eq!(common::lowered(PROGRAM, Strategy::Bool32, 8), want);
}

/// SIMD16: the packed sum fills one GRF (g15; the loaded input's dwords
/// take two). Packed HF from F is SIMD8-only, so the conversion writes a
/// word-strided temporary (g17, two GRFs) that a MOV packs into g16.
#[test]
fn simd16() {
    let text = common::lowered(PROGRAM, Strategy::Bool32, 16);
    let body: Vec<&str> = text.lines().skip(6).take(3).collect();
    assert_eq!(
        body,
        [
            "add(16) g15<1>W g9<16,8,2>W g9<16,8,2>W",
            "mov(16) g17<2>HF g13<8,8,1>F",
            "mov(16) g16<1>HF g17<16,8,2>HF",
        ]
    );
}

/// The points of the rules above, and the copy of packed words into dword
/// containers for an op computed with dwords (a subgroup read).
#[test]
fn decision_points() {
    let read = PROGRAM.replace(
        "\t32 %4 = bit_count %2\n",
        "\t16 %6 = @read_first_invocation (%2)\n\t32 %4 = u2u32 %6\n",
    );
    let p = ir::parse_program(&read).unwrap();
    let rec = Recording::start();
    compiler::compile(
        &p,
        &CompileOptions::new(Strategy::Bool32, 16, PassSet::none()),
    )
    .unwrap();
    let hits = rec.finish();
    for point in [
        cov::PACKED_WORDS_VIA_TEMP,
        cov::WORDS_TO_DWORDS,
        cov::TRUNC_BYTE_FROM_WORDS,
        cov::IO_STORE_REPACKED,
    ] {
        assert!(
            hits.contains_key(point.name()),
            "{}: {hits:?}",
            point.name()
        );
    }
}
