//! The compact printer: the disassembler's syntax on one line per
//! instruction with single spaces, options only where they say something,
//! and a `send` as `send(16) gDST gADDR ld.b32`. Error messages and the
//! passes' golden tests use it; the parser reads it.

use std::fmt::Write;

use super::print::{head, qtr_name, region_text, with_labels, writemask_text, Labels};
use crate::isa::{DstKind, Instruction, Message, Opcode, Program, Src, SrcKind, Swizzle};
use crate::types::RegType;

/// Print a whole program compactly; branch targets become `LABELn:` lines
/// (numbered in address order).
pub fn print_program_compact(p: &Program) -> String {
    with_labels(p, &|inst, label| format_inst(inst, label) + "\n")
}

/// Print one instruction; branch targets are printed as `@index`.
pub fn print_instruction(i: &Instruction) -> String {
    format_inst(i, &|t| format!("@{t}"))
}

fn format_inst(i: &Instruction, label: Labels) -> String {
    let mut s = head(i, i.op.name());
    if i.op == Opcode::Nop {
        return s;
    }
    if i.op == Opcode::Send {
        match i.msg {
            Some(Message::Load { size, dst, addr }) => {
                let _ = write!(s, " g{dst} g{addr} ld.{}", size.name());
            }
            Some(Message::Store { size, addr, data }) => {
                let _ = write!(s, " null g{addr} g{data} st.{}", size.name());
            }
            Some(Message::End { payload }) => {
                let _ = write!(s, " null g{payload} end");
            }
            Some(Message::ScratchRead { dst, header }) => {
                let _ = write!(s, " g{dst} g{header} ld.scratch");
            }
            Some(Message::ScratchWrite { header, data }) => {
                let _ = write!(s, " null g{header} g{data} st.scratch");
            }
            None => {}
        }
    } else if i.op.is_cf() {
        if let Some(j) = i.jip {
            let _ = write!(s, " JIP: {}", label(j));
        }
        if let Some(u) = i.uip {
            let _ = write!(s, " UIP: {}", label(u));
        }
    } else {
        if i.op.has_dst() {
            s.push(' ');
            s.push_str(&format_dst(i));
        }
        for (k, src) in i.srcs.iter().enumerate() {
            s.push(' ');
            let swizzle = i.swizzle(k);
            s.push_str(&format_src(src, swizzle, i.op.is_logic()));
        }
    }
    let opts = format_options(i);
    if !opts.is_empty() {
        s.push_str(" { ");
        s.push_str(&opts);
        s.push_str(" };");
    }
    s
}

fn format_options(i: &Instruction) -> String {
    if !(i.we_all || i.group != 0 || i.eot || i.align16.is_some()) {
        return String::new();
    }
    let mode = if i.align16.is_some() {
        "align16"
    } else {
        "align1"
    };
    let mut parts: Vec<String> = vec![mode.into()];
    if i.we_all {
        parts.push("WE_all".into());
    }
    if let Some(q) = qtr_name(i.exec_size, i.group) {
        parts.push(q);
    }
    if i.eot {
        parts.push("EOT".into());
    }
    parts.join(" ")
}

fn format_dst(i: &Instruction) -> String {
    let d = &i.dst;
    let reg = match d.kind {
        DstKind::Null => "null".to_string(),
        DstKind::Grf { nr, sub } => reg_name('g', nr, sub),
        DstKind::Flag { nr, sub } => format!("f{nr}.{sub}"),
    };
    format!("{reg}<{}>{}{}", d.stride, writemask_text(i), d.ty.name())
}

fn reg_name(prefix: char, nr: u32, sub: u32) -> String {
    if sub == 0 {
        format!("{prefix}{nr}")
    } else {
        format!("{prefix}{nr}.{sub}")
    }
}

/// Format a source operand (`logic`: print negate as `~`); an Align16 one
/// (with its `swizzle`) shows its vertical stride alone.
pub(crate) fn format_src(src: &Src, swizzle: Option<Swizzle>, logic: bool) -> String {
    let mut s = String::new();
    if src.neg {
        s.push(if logic { '~' } else { '-' });
    }
    if src.abs {
        s.push_str("(abs)");
    }
    match src.kind {
        SrcKind::Imm(bits) => {
            s.push_str(&format_imm(bits, src.ty));
            return s;
        }
        SrcKind::Null => s.push_str("null"),
        SrcKind::Grf { nr, sub } => s.push_str(&reg_name('g', nr, sub)),
        SrcKind::Flag { nr, sub } => {
            let _ = write!(s, "f{nr}.{sub}");
        }
    }
    let _ = write!(s, "{}{}", region_text(src.region, swizzle), src.ty.name());
    s
}

/// Format an immediate as Mesa does (hex for unsigned and float types).
pub(crate) fn format_imm(bits: u64, ty: RegType) -> String {
    let b = bits & ty.mask();
    match ty {
        RegType::B => format!("{}B", b as u8 as i8),
        RegType::W => format!("{}W", b as u16 as i16),
        RegType::D => format!("{}D", b as u32 as i32),
        RegType::UB => format!("0x{b:02x}UB"),
        RegType::UW => format!("0x{b:04x}UW"),
        RegType::HF => format!("0x{b:04x}HF"),
        RegType::UD | RegType::F | RegType::V | RegType::UV | RegType::VF => {
            format!("0x{b:08x}{}", ty.name())
        }
        RegType::UQ | RegType::Q | RegType::DF => format!("0x{b:016x}{}", ty.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{CondMod, Dst, Predicate, Region};

    #[test]
    fn prints_mesa_forms() {
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
            print_instruction(&i),
            "cmp.l.f0.0(16) g10<1>W g4<16,16,1>W g6<16,16,1>W"
        );
        let mut s = Instruction::alu(
            Opcode::Sel,
            16,
            Dst::grf(12, 0, RegType::UD, 1),
            &[
                Src::grf(4, 0, RegType::UD, Region::new(8, 8, 1)),
                Src::imm(0x3f80_0000, RegType::UD),
            ],
        );
        s.pred = Some(Predicate::NORMAL);
        assert_eq!(
            print_instruction(&s),
            "(+f0.0) sel(16) g12<1>UD g4<8,8,1>UD 0x3f800000UD"
        );
        let mut m = Instruction::alu(
            Opcode::Mov,
            8,
            Dst::grf(5, 0, RegType::UD, 1),
            &[Src::grf(0, 0, RegType::UD, Region::new(8, 8, 1))],
        );
        m.we_all = true;
        assert_eq!(
            print_instruction(&m),
            "mov(8) g5<1>UD g0<8,8,1>UD { align1 WE_all 1Q };"
        );
        assert_eq!(format_imm(0xffff_fffb, RegType::D), "-5D");
        assert_eq!(format_imm(0x8000, RegType::W), "-32768W");
        assert_eq!(format_imm(1, RegType::DF), "0x0000000000000001DF");
        assert_eq!(qtr_name(8, 8).as_deref(), Some("2Q"));
        assert_eq!(qtr_name(16, 16).as_deref(), Some("2H"));
        assert_eq!(qtr_name(4, 12).as_deref(), Some("4N"));
        assert_eq!(qtr_name(32, 0), None);
    }
}
