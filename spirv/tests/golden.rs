//! Golden tests: the exact instruction sequences emitted for ops whose
//! SPIR-V needs an explicit sequence (see `spirv/MAPPING.md`). Numbered
//! temporaries are renamed `%t1`, `%t2`, ... in order of appearance, so the
//! goldens do not depend on id allocation elsewhere in the module.

mod common;

use spirv_export::{disassemble, export, ExportOptions};

/// The disassembly of a one-block program.
fn asm(sir: &str) -> String {
    let case = ir::parse_case(sir).expect("golden program parses");
    let m = export(&case.program, &ExportOptions::new(8)).expect("exports");
    common::spirv_val(&m.words).expect("valid module");
    disassemble(&m.words)
}

/// The lines after the one starting with `after` up to the one starting
/// with `until` (included), trimmed, numbered ids renamed `%tN`.
fn snippet(text: &str, after: &str, until: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(after))
        .unwrap_or_else(|| panic!("no line starts with {after:?} in\n{text}"));
    let len = lines[start + 1..]
        .iter()
        .position(|l| l.starts_with(until))
        .unwrap_or_else(|| panic!("no line starts with {until:?} after {after:?} in\n{text}"));
    let mut renames: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in &lines[start + 1..=start + 1 + len] {
        let mut s = String::new();
        for (k, tok) in line.split(' ').enumerate() {
            if k > 0 {
                s.push(' ');
            }
            match tok.strip_prefix('%') {
                Some(num) if num.chars().all(|c| c.is_ascii_digit()) => {
                    let n = match renames.iter().position(|r| r == num) {
                        Some(i) => i + 1,
                        None => {
                            renames.push(num.to_string());
                            renames.len()
                        }
                    };
                    s.push_str(&format!("%t{n}"));
                }
                _ => s.push_str(tok),
            }
        }
        out.push(s);
    }
    out.join("\n")
}

const HEAD: &str = "shader: golden\n";

fn program(decls: &str, body: &str) -> String {
    format!("{HEAD}{decls}impl main {{\n\tblock b0:\n{body}}}\n")
}

#[test]
fn fmin_selects_operand_bits() {
    let text = asm(&program(
        "decl_input 0 f32\ndecl_input 1 f32\ndecl_output 0 f32\n",
        "\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\
         \t32 %2 = fmin %0, %1\n\t@store_output (%2) (slot=0)\n",
    ));
    assert_eq!(
        snippet(&text, "%v1_f = ", "%v2 = "),
        "%t1 = OpFOrdLessThan %bool %v0_f %v1_f
%t2 = OpFOrdEqual %bool %v0_f %v1_f
%t3 = OpSLessThan %bool %v0 %uint_0
%t4 = OpLogicalAnd %bool %t2 %t3
%t5 = OpIsNan %bool %v1_f
%t6 = OpLogicalOr %bool %t1 %t4
%t7 = OpLogicalOr %bool %t6 %t5
%t8 = OpSelect %uint %t7 %v0 %v1
%t9 = OpIsNan %bool %v0_f
%t10 = OpLogicalAnd %bool %t9 %t5
%v2 = OpSelect %uint %t10 %uint_0x7fc00000 %t8"
    );
}

#[test]
fn ibfe_clamps_the_field_to_the_word() {
    let text = asm(&program(
        "decl_input 0 i32\ndecl_input 1 i32\ndecl_input 2 i32\ndecl_output 0 i32\n",
        "\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\
         \t32 %2 = @load_input () (slot=2)\n\t32 %3 = ibfe %0, %1, %2\n\
         \t@store_output (%3) (slot=0)\n",
    ));
    assert_eq!(
        snippet(&text, "%v2 = ", "%v3 = "),
        "%t1 = OpBitwiseAnd %uint %v1 %uint_31
%t2 = OpBitwiseAnd %uint %v2 %uint_31
%t3 = OpISub %uint %uint_32 %t1
%t4 = OpULessThan %bool %t2 %t3
%t5 = OpSelect %uint %t4 %t2 %t3
%v3 = OpBitFieldSExtract %uint %v0 %t1 %t5"
    );
}

#[test]
fn irem_and_imod_use_magnitudes() {
    let text = asm(&program(
        "decl_input 0 i8\ndecl_input 1 i8\ndecl_output 0 i8\ndecl_output 1 i8\n",
        "\t8 %0 = @load_input () (slot=0)\n\t8 %1 = @load_input () (slot=1)\n\
         \t8 %2 = irem %0, %1\n\t8 %3 = imod %0, %1\n\
         \t@store_output (%2) (slot=0)\n\t@store_output (%3) (slot=1)\n",
    ));
    assert_eq!(
        snippet(&text, "%v1 = ", "%v2 = "),
        "%t1 = OpExtInst %uchar %GLSL_std_450 SAbs %v0
%t2 = OpSLessThan %bool %v0 %uchar_0
%t3 = OpExtInst %uchar %GLSL_std_450 SAbs %v1
%t4 = OpSLessThan %bool %v1 %uchar_0
%t5 = OpUMod %uchar %t1 %t3
%t6 = OpSNegate %uchar %t5
%v2 = OpSelect %uchar %t2 %t6 %t5"
    );
    // imod: irem's sequence again, then the floored correction.
    let tail = snippet(&text, "%v2 = ", "%v3 = ");
    let tail: Vec<&str> = tail.lines().skip(7).collect();
    assert_eq!(
        tail.join("\n"),
        "%t8 = OpSLessThan %bool %t7 %uchar_0
%t9 = OpLogicalNotEqual %bool %t8 %t4
%t10 = OpINotEqual %bool %t7 %uchar_0
%t11 = OpLogicalAnd %bool %t10 %t9
%t12 = OpIAdd %uchar %t7 %v1
%v3 = OpSelect %uchar %t11 %t12 %t7"
    );
}

#[test]
fn sixty_four_bit_and_float_sequences() {
    let text = asm(&program(
        "decl_input 0 i64\ndecl_input 1 i32\ndecl_input 2 f16\ndecl_input 3 f64\n\
         decl_input 4 i8\ndecl_output 0 i64\ndecl_output 1 i32\ndecl_output 2 f16\n\
         decl_output 3 bool\ndecl_output 4 f16\ndecl_output 5 i8\n",
        "\t64 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\
         \t16 %2 = @load_input () (slot=2)\n\t64 %3 = @load_input () (slot=3)\n\
         \t8 %4 = @load_input () (slot=4)\n\t64 %5 = ishl %0, %1\n\
         \t32 %6 = find_lsb %0\n\t16 %7 = ffloor %2\n\t1 %8 = @vote_ieq (%0)\n\
         \t16 %9 = f2f %3\n\t8 %10 = @read_invocation (%4, %1)\n\
         \t@store_output (%5) (slot=0)\n\t@store_output (%6) (slot=1)\n\
         \t@store_output (%7) (slot=2)\n\t@store_output (%8) (slot=3)\n\
         \t@store_output (%9) (slot=4)\n\t@store_output (%10) (slot=5)\n",
    ));
    // The shift count is masked to 63 and widened to the base's width.
    assert_eq!(
        snippet(&text, "%v4 = ", "%v5 = "),
        "%t1 = OpBitwiseAnd %uint %v1 %uint_63
%t2 = OpUConvert %ulong %t1
%v5 = OpShiftLeftLogical %ulong %v0 %t2"
    );
    // FindILsb is 32-bit only: the low half, else the high half's | 32.
    assert_eq!(
        snippet(&text, "%v5 = ", "%v6 = "),
        "%t1 = OpUConvert %uint %v0
%t2 = OpShiftRightLogical %ulong %v0 %ulong_32
%t3 = OpUConvert %uint %t2
%t4 = OpExtInst %uint %GLSL_std_450 FindILsb %t1
%t5 = OpExtInst %uint %GLSL_std_450 FindILsb %t3
%t6 = OpBitwiseOr %uint %t5 %uint_32
%t7 = OpIEqual %bool %t1 %uint_0
%v6 = OpSelect %uint %t7 %t6 %t4"
    );
    // Rounding keeps the operand's sign and canonicalizes NaN.
    assert_eq!(
        snippet(&text, "%v6 = ", "%v7 = "),
        "%t1 = OpExtInst %half %GLSL_std_450 Floor %v2_f
%t2 = OpBitcast %ushort %t1
%t3 = OpBitwiseAnd %ushort %v2 %ushort_32768
%t4 = OpBitwiseOr %ushort %t2 %t3
%t5 = OpIsNan %bool %v2_f
%v7 = OpSelect %ushort %t5 %ushort_32256 %t4"
    );
    // A 64-bit vote is two 32-bit votes.
    assert_eq!(
        snippet(&text, "%v7 = ", "%v8 = "),
        "%t1 = OpUConvert %uint %v0
%t2 = OpShiftRightLogical %ulong %v0 %ulong_32
%t3 = OpUConvert %uint %t2
%t4 = OpGroupNonUniformAllEqual %bool %uint_3 %t1
%t5 = OpGroupNonUniformAllEqual %bool %uint_3 %t3
%v8 = OpLogicalAnd %bool %t4 %t5"
    );
    // One conversion, NaN canonicalized in the float domain.
    assert_eq!(
        snippet(&text, "%v8 = ", "%v9 = "),
        "%t1 = OpFConvert %half %v3_f
%t2 = OpIsNan %bool %t1
%v9_f = OpSelect %half %t2 %half_nan %t1
%v9 = OpBitcast %ushort %v9_f"
    );
    // An 8-bit value crosses the subgroup as a 32-bit word.
    assert_eq!(
        snippet(&text, "%v9 = ", "%v10 = "),
        "%t1 = OpUConvert %uint %v4
%t2 = OpGroupNonUniformShuffle %uint %uint_3 %t1 %v1
%v10 = OpUConvert %uchar %t2"
    );
}
