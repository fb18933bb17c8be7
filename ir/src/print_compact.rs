//! The compact spelling of a program: one tab-indented line per statement,
//! without NIR's header, padding, divergence, inline constants or
//! `preds`/`succs` comments (`32 %5 = i2i %3`, `@load_input () (slot=0)`).
//! This is how `.sir` files were written before the text became NIR's, and
//! how the passes' golden tests write their programs; the parser reads it
//! as well as NIR.

use crate::dispatch::Case;
use crate::op::OpClass;
use crate::program::{Block, CfNode, Instr, Jump, Phi, Program};
use std::fmt::Write;

/// Prints a program in the compact spelling.
pub fn print_program_compact(p: &Program) -> String {
    let mut out = String::new();
    for c in &p.comments {
        if c.is_empty() {
            out.push_str("//\n");
        } else {
            let _ = writeln!(out, "// {c}");
        }
    }
    let _ = writeln!(out, "shader: {}", p.name);
    for (kind, slots) in [
        ("decl_input", &p.inputs),
        ("decl_uniform", &p.uniforms),
        ("decl_output", &p.outputs),
    ] {
        for (i, t) in slots.iter().enumerate() {
            let _ = writeln!(out, "{kind} {i} {t}");
        }
    }
    out.push_str("impl main {\n");
    print_list(&mut out, &p.body, 1);
    out.push_str("}\n");
    out
}

/// Prints a case in the compact spelling: the program, then its dispatch
/// section (tab-indented) if any.
pub fn print_case_compact(c: &Case) -> String {
    let mut out = print_program_compact(&c.program);
    if let Some(d) = &c.dispatch {
        crate::print::print_dispatch(&mut out, &c.program, d, "\t");
    }
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push('\t');
    }
}

fn print_list(out: &mut String, list: &[CfNode], depth: usize) {
    for node in list {
        match node {
            CfNode::Block(b) => print_block(out, b, depth),
            CfNode::If(i) => {
                indent(out, depth);
                let _ = writeln!(out, "if {} {{", i.cond);
                print_list(out, &i.then_body, depth + 1);
                indent(out, depth);
                out.push_str("} else {\n");
                print_list(out, &i.else_body, depth + 1);
                indent(out, depth);
                out.push_str("}\n");
            }
            CfNode::Loop(l) => {
                indent(out, depth);
                out.push_str("loop {\n");
                print_list(out, &l.body, depth + 1);
                indent(out, depth);
                out.push_str("}\n");
            }
        }
    }
}

fn print_block(out: &mut String, b: &Block, depth: usize) {
    indent(out, depth);
    let _ = writeln!(out, "block {}:", b.id);
    for p in &b.phis {
        indent(out, depth);
        out.push_str(&phi_text(p));
        out.push('\n');
    }
    for i in &b.instrs {
        indent(out, depth);
        out.push_str(&instr_text(i));
        out.push('\n');
    }
    if let Some(j) = b.jump {
        indent(out, depth);
        out.push_str(match j {
            Jump::Break => "break\n",
            Jump::Continue => "continue\n",
        });
    }
}

fn phi_text(p: &Phi) -> String {
    let srcs: Vec<String> = p.srcs.iter().map(|(b, v)| format!("{b}: {v}")).collect();
    format!("{} {} = phi {}", p.dest.bits, p.dest.id, srcs.join(", "))
}

fn instr_text(i: &Instr) -> String {
    let mut s = String::new();
    if let Some(d) = i.dest {
        let _ = write!(s, "{} {} = ", d.bits, d.id);
    }
    let srcs: Vec<String> = i.srcs.iter().map(|v| v.to_string()).collect();
    match i.op.info().class {
        OpClass::Const => {
            let bits = i.dest.map_or(32, |d| d.bits);
            if bits == 1 {
                let _ = write!(
                    s,
                    "load_const ({})",
                    if i.imm & 1 == 1 { "true" } else { "false" }
                );
            } else {
                let _ = write!(s, "load_const (0x{:0w$x})", i.imm, w = bits as usize / 4);
            }
        }
        OpClass::Alu => {
            s.push_str(i.op.name());
            if !srcs.is_empty() {
                let _ = write!(s, " {}", srcs.join(", "));
            }
        }
        OpClass::Subgroup | OpClass::Io => {
            let _ = write!(s, "@{} ({})", i.op.name(), srcs.join(", "));
            if i.op.has_slot() {
                let _ = write!(s, " (slot={})", i.imm);
            }
        }
    }
    s
}
