//! The printer: a program as Mesa's disassembler (`brw_disasm.c`,
//! `brw_disassemble_inst`) prints Gfx11 code. Operands start at columns 16,
//! 32, 48 and 64 (`pad()` always writes at least one space), branch targets
//! are `JIP:  LABELn` at 16 and `UIP:  LABELn` at 38, float immediates carry
//! their value in a comment padded to column 48, a `send` shows its
//! descriptor and a second line decoding it (see `send.rs`), and every
//! instruction ends with its options block padded to column 64
//! (`{ align1 1H };`). Before register allocation, registers of virtual
//! registers print as `vgrfN` (`vgrfN+k` for the k-th GRF of a larger one).
//! The parser reads this and the compact form (`print_compact.rs`).

use std::collections::BTreeMap;
use std::fmt::Write;

use super::send::describe;
use crate::isa::{DstKind, Instruction, Opcode, PredMode, Program, Region, Src, SrcKind, Swizzle};
use crate::types::RegType;

/// How a GRF number is named: `g5`, or `vgrf3+1` before register allocation.
pub type RegNames<'a> = &'a dyn Fn(u32) -> String;

/// Prints a program with physical register names; branch targets become
/// `LABELn:` lines (numbered in address order).
pub fn print_program(p: &Program) -> String {
    print_program_named(p, &|nr| format!("g{nr}"))
}

/// Prints a program naming GRFs with `names`.
pub fn print_program_named(p: &Program, names: RegNames) -> String {
    with_labels(p, &|inst, label| disassemble(inst, label, names))
}

/// How branch targets are named in a listing.
pub(super) type Labels<'a> = &'a dyn Fn(u32) -> String;

/// The program's lines: each instruction as `line` writes it (with its
/// newline), its branch targets named by `label` (`LABELn` in address
/// order, `@N` outside the program), and a `LABELn:` line before each
/// target.
pub(super) fn with_labels(p: &Program, line: &dyn Fn(&Instruction, Labels) -> String) -> String {
    let mut targets: Vec<u32> = Vec::new();
    for i in &p.insts {
        targets.extend(i.jip);
        targets.extend(i.uip);
    }
    targets.sort_unstable();
    targets.dedup();
    let labels: BTreeMap<u32, usize> = targets
        .iter()
        .copied()
        .filter(|&t| t as usize <= p.insts.len())
        .enumerate()
        .map(|(k, t)| (t, k))
        .collect();
    let label = |t: u32| match labels.get(&t) {
        Some(k) => format!("LABEL{k}"),
        None => format!("@{t}"),
    };
    let mut out = String::new();
    for (idx, inst) in p.insts.iter().enumerate() {
        if let Some(k) = labels.get(&(idx as u32)) {
            let _ = writeln!(out, "LABEL{k}:");
        }
        out.push_str(&line(inst, &label));
    }
    if let Some(k) = labels.get(&(p.insts.len() as u32)) {
        let _ = writeln!(out, "LABEL{k}:");
    }
    out
}

/// A line being written, with the column `brw_disasm.c` counts (text it
/// writes with `fprintf` rather than `string` does not move the column).
struct Line {
    s: String,
    col: usize,
}

impl Line {
    fn string(&mut self, t: &str) {
        self.s.push_str(t);
        self.col += t.len();
    }
    fn uncounted(&mut self, t: &str) {
        self.s.push_str(t);
    }
    fn pad(&mut self, c: usize) {
        loop {
            self.string(" ");
            if self.col >= c {
                break;
            }
        }
    }
    fn newline(&mut self) {
        self.s.push('\n');
        self.col = 0;
    }
}

/// One instruction, with its newline (a `send` takes two lines).
fn disassemble(i: &Instruction, label: Labels, names: RegNames) -> String {
    let mut l = Line {
        s: String::new(),
        col: 0,
    };
    let send = i.op == Opcode::Send;
    let msg = i.msg.as_ref().map(|m| describe(m, i.exec_size));
    let split = msg.as_ref().is_some_and(|m| m.split);
    l.string(&head(i, if split { "sends" } else { i.op.name() }));
    if send {
        send_operands(&mut l, i, msg.as_ref(), names);
    } else if i.op.is_cf() {
        if let Some(j) = i.jip {
            l.pad(16);
            l.string("JIP: ");
            l.string(&format!(" {}", label(j)));
        }
        if let Some(u) = i.uip {
            l.pad(38);
            l.string("UIP: ");
            l.string(&format!(" {}", label(u)));
        }
    } else if i.op != Opcode::Nop {
        if i.op.has_dst() {
            l.pad(16);
            l.string(&dst_text(i, names));
        }
        for (k, src) in i.srcs.iter().enumerate() {
            l.pad(32 + 16 * k);
            let swizzle = i.swizzle(k);
            src_text(&mut l, src, swizzle, i.op.is_logic(), names);
        }
    }
    l.pad(64);
    if i.op != Opcode::Nop {
        l.string(if i.align16.is_some() {
            "{ align16"
        } else {
            "{ align1"
        });
        if i.we_all {
            l.string(" WE_all");
        }
        if let Some(q) = qtr_name(i.exec_size, i.group) {
            l.string(" ");
            l.string(&q);
        }
        if i.eot {
            l.string(" EOT");
        }
        l.string(" }");
    }
    l.string(";");
    l.newline();
    l.s
}

fn send_operands(
    l: &mut Line,
    i: &Instruction,
    msg: Option<&super::send::SendText>,
    names: RegNames,
) {
    let (dst, src0, src1) = i.msg.map_or((None, 0, None), |m| m.send_operands());
    let Some(m) = msg else { return };
    l.pad(16);
    if m.split {
        // Split sends print fixed-UD registers without regions.
        l.string(&dst.map_or("nullUD".to_string(), |d| format!("{}UD", names(d))));
        l.pad(32);
        l.string(&format!("{}UD", names(src0)));
        l.pad(48);
        l.string(&format!("{}UD", src1.map_or("null".to_string(), names)));
        l.pad(64);
        l.uncounted(&format!("0x{:08x}", m.desc));
        l.pad(80);
        l.uncounted(&format!("0x{:08x}", m.ex_desc.unwrap_or(0)));
    } else {
        l.string(&dst.map_or("null<1>UW".to_string(), |d| format!("{}<1>UD", names(d))));
        l.pad(32);
        l.string(&format!("{}<8,8,1>UD", names(src0)));
        l.pad(48);
        l.uncounted(&format!("0x{:08x}", m.desc));
    }
    l.newline();
    l.pad(16);
    l.uncounted("            ");
    l.string(&m.details);
}

/// The predicate, opcode (spelled `name`), `.sat`, conditional modifier
/// with its flag (none on SEL/CSEL and control flow, whose cmod writes no
/// flag, unless a non-default flag must be kept), math function and
/// execution size: `(+f0.0) cmp.l.f0.0(16)`. A `nop` is its name alone.
pub(super) fn head(i: &Instruction, name: &str) -> String {
    let mut s = String::new();
    if let Some(p) = i.pred {
        let _ = write!(
            s,
            "({}f{}.{}",
            if p.inverse { '-' } else { '+' },
            i.flag.nr,
            i.flag.sub
        );
        match p.mode {
            PredMode::Normal => {}
            PredMode::Any(n) => {
                let _ = write!(s, ".any{n}h");
            }
            PredMode::All(n) => {
                let _ = write!(s, ".all{n}h");
            }
            PredMode::Replicate(k) => {
                let _ = write!(s, ".{}", component_letter(k));
            }
        }
        s.push_str(") ");
    }
    s.push_str(name);
    if i.op == Opcode::Nop {
        return s;
    }
    if i.sat && i.op != Opcode::Send {
        s.push_str(".sat");
    }
    if let Some(c) = i.cmod {
        let sel_like = matches!(i.op, Opcode::Sel | Opcode::Csel) || i.op.is_cf();
        let _ = write!(s, ".{}", c.name());
        if !sel_like || (i.pred.is_none() && i.flag != Default::default()) {
            let _ = write!(s, ".f{}.{}", i.flag.nr, i.flag.sub);
        }
    }
    if let Some(m) = i.math.filter(|_| i.op == Opcode::Math) {
        let _ = write!(s, " {}", m.name());
    }
    let _ = write!(s, "({})", i.exec_size);
    s
}

/// The quarter/nibble control name for an exec size and channel group.
pub(crate) fn qtr_name(exec: u8, group: u8) -> Option<String> {
    if exec == 16 && group.is_multiple_of(16) {
        Some(format!("{}H", group / 16 + 1))
    } else if (8..=16).contains(&exec) && group.is_multiple_of(8) {
        Some(format!("{}Q", group / 8 + 1))
    } else if exec == 32 && group == 0 {
        None
    } else {
        Some(format!("{}N", group / 4 + 1))
    }
}

fn reg_text(base: String, sub: u32) -> String {
    if sub == 0 {
        base
    } else {
        format!("{base}.{sub}")
    }
}

fn dst_text(i: &Instruction, names: RegNames) -> String {
    let d = &i.dst;
    let reg = match d.kind {
        DstKind::Null => "null".to_string(),
        DstKind::Grf { nr, sub } => reg_text(names(nr), sub),
        DstKind::Flag { nr, sub } => reg_text(format!("f{nr}"), u32::from(sub)),
    };
    format!("{reg}<{}>{}{}", d.stride, writemask_text(i), d.ty.name())
}

/// An Align16 destination's writemask as Mesa's `writemask` table spells
/// it: its letters unless it is `.xyzw` (a lone dot when empty).
pub(super) fn writemask_text(i: &Instruction) -> String {
    match i.align16 {
        Some(a) if a.writemask & 0xf != 0xf => {
            let letters: String = (0..4u8)
                .filter(|k| a.writemask >> k & 1 == 1)
                .map(component_letter)
                .collect();
            format!(".{letters}")
        }
        _ => String::new(),
    }
}

/// The letter of vec4 component `k`.
pub(crate) fn component_letter(k: u8) -> char {
    ['x', 'y', 'z', 'w'][k as usize & 3]
}

/// A source region and, for Align16, its swizzle: `<v>` and the swizzle
/// for the Align16 region `<v,4,1>`, the full `<v,w,h>` otherwise (which
/// the validator rejects in Align16, but which must print back).
pub(super) fn region_text(r: Region, swizzle: Option<Swizzle>) -> String {
    match swizzle {
        Some(swz) if (r.w, r.h) == (4, 1) => format!("<{}>{}", r.v, swizzle_text(swz)),
        Some(swz) => format!("<{},{},{}>{}", r.v, r.w, r.h, swizzle_text(swz)),
        None => format!("<{},{},{}>", r.v, r.w, r.h),
    }
}

/// An Align16 swizzle as Mesa's `src_swizzle` prints it: nothing for
/// `.xyzw`, one letter when all four are the same, else four.
pub(super) fn swizzle_text(s: Swizzle) -> String {
    let c: Vec<u8> = (0..4).map(|k| s.get(k)).collect();
    if s == Swizzle::XYZW {
        String::new()
    } else if c.iter().all(|&x| x == c[0]) {
        format!(".{}", component_letter(c[0]))
    } else {
        format!(
            ".{}",
            c.iter().map(|&x| component_letter(x)).collect::<String>()
        )
    }
}

/// A source; an Align16 one (with its `swizzle`) shows only its vertical
/// stride, as Mesa's `src_da16` does: `g4<4>.xF`.
fn src_text(l: &mut Line, src: &Src, swizzle: Option<Swizzle>, logic: bool, names: RegNames) {
    if src.neg {
        l.string(if logic { "~" } else { "-" });
    }
    if src.abs {
        l.string("(abs)");
    }
    let reg = match src.kind {
        SrcKind::Imm(bits) => return imm_text(l, bits, src.ty),
        SrcKind::Null => "null".to_string(),
        SrcKind::Grf { nr, sub } => reg_text(names(nr), sub),
        SrcKind::Flag { nr, sub } => reg_text(format!("f{nr}"), u32::from(sub)),
    };
    let r = src.region;
    l.string(&format!(
        "{reg}{}{}",
        region_text(r, swizzle),
        src.ty.name()
    ));
}

/// An immediate as `imm()` prints it: floats in hex with their value in a
/// comment at column 48.
fn imm_text(l: &mut Line, bits: u64, ty: RegType) {
    let b = bits & ty.mask();
    match ty {
        RegType::F => {
            l.string(&format!("0x{b:x}F"));
            l.pad(48);
            l.string(&format!(
                " /* {}F */",
                c_g(f64::from(f32::from_bits(b as u32)))
            ));
        }
        RegType::HF => {
            l.string(&format!("0x{b:04x}HF"));
            l.pad(48);
            l.string(&format!("/* {}HF */", c_g(crate::fp::hf_to_f64(b as u16))));
        }
        RegType::DF => {
            l.string(&format!("0x{b:016x}DF"));
            l.pad(48);
            l.string(&format!("/* {}DF */", c_g(f64::from_bits(b))));
        }
        RegType::VF => {
            l.string(&format!("0x{b:x}VF"));
            l.pad(48);
            let v: Vec<String> = (0..4)
                .map(|k| {
                    format!(
                        "{}F",
                        c_g(f64::from(crate::fp::vf_to_f32((b >> (8 * k)) as u8)))
                    )
                })
                .collect();
            l.string(&format!("/* [{}]VF */", v.join(", ")));
        }
        _ => l.string(&super::print_compact::format_imm(bits, ty)),
    }
}

/// C's `printf("%g", x)`: six significant digits, trailing zeros dropped,
/// exponent form below 1e-4 and from 1e6; `inf`, `nan` with their sign.
pub(crate) fn c_g(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // The exponent after rounding to six significant digits.
    let sci = format!("{x:.5e}");
    let (mant, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("a decimal exponent");
    if !(-4..6).contains(&exp) {
        let mant = strip_zeros(mant);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    } else {
        let decimals = (5 - exp).max(0) as usize;
        strip_zeros(&format!("{x:.decimals$}")).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{CondMod, Dst, Message, MsgSize, Predicate, Region};

    fn one(i: &Instruction) -> String {
        print_program(&Program { insts: vec![*i] })
    }

    #[test]
    fn operands_sit_in_the_disassemblers_columns() {
        // Columns worked by hand from brw_disassemble_inst: `cmp.l.f0.0(16)`
        // is 14 wide, so pad(16) writes 2 spaces; the dst ends at column 23,
        // pad(32) writes 9; src0 ends at 44, pad(48) writes 4; src1 ends at
        // 60, pad(64) writes 4. In the sel, the immediate ends past 48, so
        // pad(48) writes one space before ` /* 1F */`.
        let mut i = Instruction::alu(
            Opcode::Cmp,
            16,
            Dst::grf(10, 0, RegType::W, 1),
            &[
                Src::grf(4, 0, RegType::W, Region::new(16, 16, 1)),
                Src::grf(6, 0, RegType::W, Region::new(16, 16, 1)),
            ],
        );
        i.cmod = Some(CondMod::L);
        assert_eq!(
            one(&i),
            "cmp.l.f0.0(16)  g10<1>W         g4<16,16,1>W    g6<16,16,1>W    { align1 1H };\n"
        );
        let mut s = Instruction::alu(
            Opcode::Sel,
            8,
            Dst::grf(12, 0, RegType::F, 1),
            &[
                Src::grf(4, 0, RegType::F, Region::new(8, 8, 1)),
                Src::imm(0x3f80_0000, RegType::F),
            ],
        );
        s.pred = Some(Predicate::NORMAL);
        assert_eq!(
            one(&s),
            "(+f0.0) sel(8)  g12<1>F         g4<8,8,1>F      0x3f800000F  /* 1F */ { align1 1Q };\n"
        );
    }

    #[test]
    fn sends_show_the_descriptor_and_its_decoding() {
        let mut i = Instruction::new(Opcode::Send, 16);
        i.msg = Some(Message::Load {
            size: MsgSize::B32,
            dst: 7,
            addr: 3,
        });
        assert_eq!(
            one(&i),
            "send(16)        g7<1>UD         g3<8,8,1>UD     0x04205e00\n                            hdc1 MsgDesc: (untyped surface read, Surface = 0, SIMD16, Mask = 0xe)  mlen 2 rlen 2 { align1 1H };\n"
        );
    }

    #[test]
    fn g_formats_as_c_does() {
        assert_eq!(c_g(1.0), "1");
        assert_eq!(c_g(0.5), "0.5");
        assert_eq!(c_g(-2.25), "-2.25");
        assert_eq!(c_g(1e6), "1e+06");
        assert_eq!(c_g(123456.0), "123456");
        assert_eq!(c_g(0.0001), "0.0001");
        assert_eq!(c_g(0.00001), "1e-05");
        assert_eq!(c_g(1.0 / 3.0), "0.333333");
        assert_eq!(c_g(65504.0), "65504");
        assert_eq!(c_g(f64::NEG_INFINITY), "-inf");
    }
}
