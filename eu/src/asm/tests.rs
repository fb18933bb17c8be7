//! Parser unit tests.

use super::parse::*;
use crate::isa::*;
use crate::types::RegType;

#[test]
fn parses_basic_forms() {
    let i = parse_instruction("cmp.l.f0.0(16) g10<1>W g4<16,16,1>W g6<16,16,1>W").unwrap();
    assert_eq!(i.op, Opcode::Cmp);
    assert_eq!(i.cmod, Some(CondMod::L));
    assert_eq!(i.exec_size, 16);
    assert_eq!(i.dst, Dst::grf(10, 0, RegType::W, 1));
    assert_eq!(
        i.srcs[1],
        Src::grf(6, 0, RegType::W, Region::new(16, 16, 1))
    );
    let i = parse_instruction("(-f1.1.any8h) mov(1) g5.3<1>UD -5D { align1 WE_all 1N };").unwrap();
    assert_eq!(
        i.pred,
        Some(Predicate {
            inverse: true,
            mode: PredMode::Any(8)
        })
    );
    assert_eq!(i.flag, FlagReg { nr: 1, sub: 1 });
    assert_eq!(i.srcs[0], Src::imm(0xffff_fffb, RegType::D));
    assert!(i.we_all);
    let i = parse_instruction("math intdiv(8) g10<1>D g2<8,8,1>D g4<8,8,1>D").unwrap();
    assert_eq!(i.math, Some(MathFn::IntDiv));
    let i = parse_instruction("mov(8) g2<1>F 0x3f800000F").unwrap();
    assert_eq!(i.srcs[0], Src::imm(0x3f80_0000, RegType::F));
    let i = parse_instruction("mov(8) g2<1>DF 0x3ff0000000000000DF").unwrap();
    assert_eq!(i.srcs[0], Src::imm(0x3ff0_0000_0000_0000, RegType::DF));
    let i = parse_instruction("mov(8) g2<1>F -1.5F").unwrap();
    assert_eq!(i.srcs[0], Src::imm((-1.5f32).to_bits() as u64, RegType::F));
    let i = parse_instruction("and(8) g2<1>UD ~g3<8,8,1>UD -(abs)g4<8,8,1>D").unwrap();
    assert!(i.srcs[0].neg && i.srcs[1].neg && i.srcs[1].abs);
}

#[test]
fn errors_have_positions() {
    let e = parse_program("mov(8) g2<1>UD g3<8,8,1>UD\nfoo(8) g1<1>UD").unwrap_err();
    assert_eq!((e.line, e.col), (2, 1));
    assert!(e.msg.contains("unknown opcode"));
    let e = parse_program("add(8) g2<1>UD g3<8,8,1>UD").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.msg.contains("source operand 1"), "{}", e.msg);
    let e = parse_program_named("if(8) JIP: NOWHERE UIP: NOWHERE", "x.asm").unwrap_err();
    assert_eq!(e.to_string(), "x.asm:1:12: undefined label 'NOWHERE'");
    let e = parse_program("mov(8) g2<1>UB 300UB").unwrap_err();
    assert!(e.msg.contains("out of range"));
    let e = parse_program("(+f0.0) cmp.z.f1.0(8) null<1>D g2<8,8,1>D 0D").unwrap_err();
    assert!(e.msg.contains("same flag"));
}

/// A bare `nop` is all the printer writes, so the parser takes nothing more
/// (found by the `eu_text` fuzz target: `nop.u` lost its `.u` on a round trip).
#[test]
fn nop_takes_no_modifiers_or_options() {
    let e = parse_program("nop.u").unwrap_err();
    assert_eq!((e.line, e.col), (1, 1));
    assert!(
        e.msg.contains("no '.sat' or conditional modifier"),
        "{}",
        e.msg
    );
    let e = parse_program("nop.sat").unwrap_err();
    assert!(e.msg.contains("no '.sat'"), "{}", e.msg);
    let e = parse_program("nop { align1 WE_all 1Q };").unwrap_err();
    assert_eq!((e.line, e.col), (1, 5));
    assert!(e.msg.contains("no instruction options"), "{}", e.msg);
    // The options that change nothing, and a predicate, still parse.
    assert_eq!(
        parse_instruction("nop { align1 1Q };").unwrap(),
        Instruction::new(Opcode::Nop, 1)
    );
    let i = parse_instruction("(+f0.1) nop").unwrap();
    assert_eq!(crate::asm::print_instruction(&i), "(+f0.1) nop");
}

/// Align16 prints as Mesa's disassembler does: the writemask after the
/// destination's `<1>`, a source's vertical stride alone with its swizzle
/// (one letter when all four are the same, none for `.xyzw`), `align16`
/// in the options and replicate predicates as `.x`…`.w`.
#[test]
fn align16_prints_as_mesa_and_parses_back() {
    let text = "(+f0.0.z) add(8) g5<1>.xyF -g4<4,4,1>.xxxxF g6.4<0>.yzxwF { align16 1Q };";
    let i = parse_instruction(text).unwrap();
    let a = i.align16.unwrap();
    assert_eq!(a.writemask, 0b0011);
    assert_eq!(a.swizzle[0], Swizzle::of([0, 0, 0, 0]));
    assert_eq!(a.swizzle[1], Swizzle::of([1, 2, 0, 3]));
    assert_eq!(i.srcs[0].region, Region::new(4, 4, 1));
    assert_eq!(i.srcs[1].region, Region::new(0, 4, 1));
    assert_eq!(i.pred.map(|p| p.mode), Some(PredMode::Replicate(2)));
    let printed = crate::asm::print_program(&Program { insts: vec![i] });
    assert_eq!(
        printed,
        "(+f0.0.z) add(8) g5<1>.xyF      -g4<4>.xF       g6.4<0>.yzxwF   { align16 1Q };\n"
    );
    assert_eq!(parse_instruction(printed.trim_end()).unwrap(), i);
    let compact = crate::asm::print_instruction(&i);
    assert_eq!(
        compact,
        "(+f0.0.z) add(8) g5<1>.xyF -g4<4>.xF g6.4<0>.yzxwF { align16 1Q };"
    );
    assert_eq!(parse_instruction(&compact).unwrap(), i);
    // The identity swizzle and the full writemask are not printed.
    let i = parse_instruction("mov(8) g5<1>.xyzwF g4<4>.xyzwF { align16 1Q };").unwrap();
    assert_eq!(i.align16, Some(Align16::FULL));
    assert_eq!(
        crate::asm::print_program(&Program { insts: vec![i] }),
        "mov(8)          g5<1>F          g4<4>F                          { align16 1Q };\n"
    );
}

#[test]
fn align16_parts_need_align16() {
    let e = parse_program("mov(8) g5<1>.xyF g4<8,8,1>F").unwrap_err();
    assert_eq!((e.line, e.col), (1, 13));
    assert!(e.msg.contains("needs { align16 }"), "{}", e.msg);
    let e = parse_program("mov(8) g5<1>F g4<4>F").unwrap_err();
    assert_eq!((e.line, e.col), (1, 17));
    let e = parse_program("mov(8) g5<1>F g4<4>.xyF { align16 };").unwrap_err();
    assert!(e.msg.contains("one or four"), "{}", e.msg);
}
