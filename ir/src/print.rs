//! The text printer: a program prints exactly as Mesa's `nir_print.c`
//! prints a compute shader of the same shape (see [`crate::nir`] for the
//! version and `docs/nir-text.md` for examples), followed by our own
//! `dispatch` section when the case has one. `parse(print(p)) == p`, and
//! printing a parsed canonical text gives the same text back.
//!
//! What NIR has and our IR does not is made up the way NIR would have it:
//! the I/O intrinsics take an offset source, so the printer adds one
//! `load_const (0x00000000)` (numbered after every value of the program) at
//! the top of the first block, and the parser drops it again.

use crate::cfg::Cfg;
use crate::dispatch::{Case, Dispatch};
use crate::nir::{self, NirType};
use crate::op::{Op, OpClass, Sig};
use crate::program::{Block, CfNode, Instr, Jump, Phi, Program, ValueId};
use crate::types::{mask, sext, SlotType};
use crate::uniformity::{self, Uniformity};
use crate::value::format_value;
use std::fmt::Write;

/// Prints a program.
pub fn print_program(p: &Program) -> String {
    Printer::new(p, None).program()
}

/// Prints a case: the program, then its dispatch section if any.
pub fn print_case(c: &Case) -> String {
    let mut out = Printer::new(&c.program, c.dispatch.as_ref()).program();
    if let Some(d) = &c.dispatch {
        print_dispatch(&mut out, &c.program, d, "    ");
    }
    out
}

/// The `dispatch N { ... }` section, its lines indented by `indent`.
pub(crate) fn print_dispatch(out: &mut String, p: &Program, d: &Dispatch, indent: &str) {
    let _ = writeln!(out, "dispatch {} {{", d.invocations);
    for (slot, vals) in d.inputs.iter().enumerate() {
        let ty = p.inputs[slot];
        let _ = write!(out, "{indent}input {slot}:");
        for v in vals.iter().take(d.invocations as usize) {
            let _ = write!(out, " {}", format_value(ty, *v));
        }
        out.push('\n');
    }
    for (slot, v) in d.uniforms.iter().enumerate() {
        let _ = writeln!(
            out,
            "{indent}uniform {slot}: {}",
            format_value(p.uniforms[slot], *v)
        );
    }
    out.push_str("}\n");
}

/// One phi as `nir_print_instr` prints it outside a shader.
pub fn phi_text(p: &Phi) -> String {
    let srcs: Vec<String> = p.srcs.iter().map(|(b, v)| format!("{b}: {v}")).collect();
    format!(
        "{} = phi {}",
        def_text("", p.dest.bits, p.dest.id, 0),
        srcs.join(", ")
    )
}

/// One instruction as `nir_print_instr` prints it outside a shader (no
/// inline constants, slots and offsets as indices only).
pub fn instr_text(i: &Instr) -> String {
    let bits = i.dest.map_or(0, |d| d.bits);
    let mut s = match i.dest {
        Some(d) => format!("{} = ", def_text("", d.bits, d.id, 0)),
        None => String::new(),
    };
    let srcs: Vec<String> = i.srcs.iter().map(|v| v.to_string()).collect();
    match i.op.info().class {
        OpClass::Const => s.push_str(&format!("load_const ({})", const_def(i.imm, bits, None))),
        OpClass::Alu => {
            let _ = write!(s, "{} {}", nir::nir_name(i.op, bits), srcs.join(", "));
        }
        OpClass::Subgroup | OpClass::Io => {
            let _ = write!(s, "@{}", nir::nir_name(i.op, bits));
            if !srcs.is_empty() {
                let _ = write!(s, " ({})", srcs.join(", "));
            }
            if i.op.has_slot() {
                let _ = write!(s, " (base={})", i.imm);
            }
        }
    }
    s
}

/// Whether `i` is an I/O intrinsic with a NIR spelling: its slot is
/// declared and it has its sources (else it prints as `slot=N`).
fn nir_io(p: &Program, i: &Instr) -> bool {
    let slots = match i.op {
        Op::LoadInput => &p.inputs,
        Op::LoadUniform => &p.uniforms,
        Op::StoreOutput => &p.outputs,
        _ => return false,
    };
    (i.imm as usize) < slots.len() && i.srcs.len() == i.op.info().sig.num_srcs()
}

fn count_digits(n: usize) -> usize {
    n.to_string().len()
}

/// `print_def`: divergence, bit size, the blank component count, padding so
/// that the `%` column lines up, the value.
fn def_text(div: &str, bits: u8, id: ValueId, ssa_alloc: usize) -> String {
    let ssa_padding = if ssa_alloc > 0 {
        count_digits(ssa_alloc).saturating_sub(count_digits(id.0 as usize))
    } else {
        0
    };
    let padding = usize::from(bits <= 8) + 1 + ssa_padding;
    format!("{div}{bits}   {:padding$}{id}", "")
}

/// The value of a `load_const` as its definition prints it: the padded hex,
/// then the float, signed and unsigned readings that add something (`types`
/// = what `nir_gather_types` inferred: (used as int, used as float)).
fn const_def(v: u64, bits: u8, types: Option<(bool, bool)>) -> String {
    if bits == 1 {
        return (if v & 1 == 1 { "true" } else { "false" }).to_string();
    }
    let mut needs_float = bits > 8;
    let mut needs_signed = sext(v, bits) < 0;
    let mut needs_decimal = v >= 10;
    if let Some((int, float)) = types {
        if int && !float {
            needs_float = false;
        } else if float && !int {
            needs_signed = false;
            needs_decimal = false;
        }
    }
    let mut s = format!("0x{v:0w$x}", w = bits as usize / 4);
    if needs_float {
        let _ = write!(s, " = {}", nir::c_float(crate::float::to_f64(v, bits)));
    }
    if needs_signed {
        let _ = write!(s, " = {:+}", sext(v, bits));
    }
    if needs_decimal {
        let _ = write!(s, " = {v}");
    }
    s
}

/// A constant as a source prints it, with one reading.
fn const_src(v: u64, bits: u8, ty: NirType) -> String {
    match ty {
        _ if bits == 1 => (if v & 1 == 1 { "true" } else { "false" }).to_string(),
        NirType::Bool => (if v & 1 == 1 { "true" } else { "false" }).to_string(),
        NirType::Float => nir::c_float(crate::float::to_f64(v, bits)),
        NirType::Int | NirType::Untyped => format!("0x{:x}", v & mask(bits)),
    }
}

struct Printer<'a> {
    p: &'a Program,
    dispatch: Option<&'a Dispatch>,
    out: String,
    /// The constant of each value defined by `load_const`, by id.
    consts: Vec<Option<u64>>,
    bits: Vec<u8>,
    /// `nir_gather_types`: used as an integer (or boolean), used as a float.
    int_types: Vec<bool>,
    float_types: Vec<bool>,
    uni: Uniformity,
    preds: Vec<Vec<u32>>,
    succs: Vec<Vec<u32>>,
    /// The made-up offset constant of the I/O intrinsics.
    offset: Option<ValueId>,
    ssa_alloc: usize,
    end_block: u32,
    padding_for_no_dest: usize,
    next_loop: usize,
}

impl<'a> Printer<'a> {
    fn new(p: &'a Program, dispatch: Option<&'a Dispatch>) -> Printer<'a> {
        let mut has_io = false;
        // Every number the text mentions, defined or not.
        let mut named = vec![false; p.value_bound()];
        let mut name = |v: ValueId| {
            let i = v.0 as usize;
            if i >= named.len() {
                named.resize(i + 1, false);
            }
            named[i] = true;
        };
        p.for_each_block(&mut |b| {
            b.phis.iter().for_each(|ph| name(ph.dest.id));
            for i in &b.instrs {
                has_io |= nir_io(p, i);
                i.dest.iter().for_each(|d| name(d.id));
            }
        });
        p.for_each_use(&mut name);
        // The offset constant takes the first number the program leaves
        // free (one past the last value, for the generator's dense numbers).
        let offset =
            has_io.then(|| ValueId(named.iter().position(|n| !n).unwrap_or(named.len()) as u32));
        let bound = named.len().max(offset.map_or(0, |o| o.0 as usize + 1));
        let ssa_alloc = bound;
        let mut consts = vec![None; bound];
        let mut bits = p.value_bits();
        bits.resize(bound, 0);
        p.for_each_block(&mut |b| {
            for i in &b.instrs {
                if let (Op::LoadConst, Some(d)) = (i.op, i.dest) {
                    consts[d.id.0 as usize] = Some(i.imm);
                }
            }
        });
        if let Some(o) = offset {
            consts[o.0 as usize] = Some(0);
            bits[o.0 as usize] = 32;
        }
        let cfg = Cfg::build(&p.body);
        let nblocks = p.block_bound();
        let end_block = nblocks as u32;
        let mut preds = vec![Vec::new(); nblocks];
        let mut succs = vec![Vec::new(); nblocks];
        for (i, id) in cfg.blocks.iter().enumerate() {
            let mut ps: Vec<u32> = cfg.preds[i].iter().map(|&q| cfg.blocks[q].0).collect();
            ps.sort_unstable();
            preds[id.0 as usize] = ps;
            succs[id.0 as usize] = cfg.succs[i].iter().map(|&q| cfg.blocks[q].0).collect();
        }
        if let Some(CfNode::Block(last)) = p.body.last() {
            succs[last.id.0 as usize].push(end_block);
        }
        let mut pr = Printer {
            p,
            dispatch,
            out: String::new(),
            consts,
            bits,
            int_types: vec![false; ssa_alloc],
            float_types: vec![false; ssa_alloc],
            uni: uniformity::analyze(p),
            preds,
            succs,
            offset,
            ssa_alloc,
            end_block,
            padding_for_no_dest: 0,
            next_loop: 0,
        };
        pr.gather_types();
        pr
    }

    fn slot_type(&self, i: &Instr) -> Option<SlotType> {
        let slots = match i.op {
            Op::LoadInput => &self.p.inputs,
            Op::LoadUniform => &self.p.uniforms,
            Op::StoreOutput => &self.p.outputs,
            _ => return None,
        };
        slots.get(i.imm as usize).copied()
    }

    /// `nir_gather_types`, iterated to a fixed point.
    fn gather_types(&mut self) {
        let mut blocks = Vec::new();
        self.p.for_each_block(&mut |b| blocks.push(b));
        let mut progress = true;
        while progress {
            progress = false;
            for b in &blocks {
                for ph in &b.phis {
                    for (_, v) in &ph.srcs {
                        progress |= self.copy_types(*v, ph.dest.id);
                    }
                }
                for i in &b.instrs {
                    progress |= self.gather_instr(i);
                }
            }
        }
    }

    fn gather_instr(&mut self, i: &Instr) -> bool {
        let mut progress = false;
        let slot = self.slot_type(i);
        if matches!(i.op.info().sig, Sig::Select { .. }) {
            progress |= self.set_type(i.srcs[0], NirType::Bool);
            if let Some(d) = i.dest {
                progress |= self.copy_types(i.srcs[1], d.id);
                progress |= self.copy_types(i.srcs[2], d.id);
            }
            return progress;
        }
        for (k, v) in i.srcs.iter().enumerate() {
            progress |= self.set_type(*v, nir::src_type(i.op, k, slot));
        }
        if let Some(off) = self.offset.filter(|_| i.op.has_slot()) {
            progress |= self.set_type(off, NirType::Int);
        }
        if let Some(d) = i.dest {
            progress |= self.set_type(d.id, nir::dest_type(i.op, slot));
        }
        progress
    }

    fn set_type(&mut self, v: ValueId, t: NirType) -> bool {
        let set = match t {
            NirType::Int | NirType::Bool => &mut self.int_types,
            NirType::Float => &mut self.float_types,
            NirType::Untyped => return false,
        };
        match set.get_mut(v.0 as usize) {
            Some(f) if !*f => {
                *f = true;
                true
            }
            _ => false,
        }
    }

    /// `copy_types`: a typed destination types its source, and a typed
    /// source types the destination unless it is a constant (a sink).
    fn copy_types(&mut self, src: ValueId, dst: ValueId) -> bool {
        let sink = self.consts.get(src.0 as usize).is_some_and(|c| c.is_some());
        let (s, d) = (src.0 as usize, dst.0 as usize);
        let mut progress = false;
        for set in [&mut self.int_types, &mut self.float_types] {
            if s >= set.len() || d >= set.len() {
                continue;
            }
            if set[d] {
                if !set[s] {
                    set[s] = true;
                    progress = true;
                }
            } else if set[s] && !sink {
                set[d] = true;
                progress = true;
            }
        }
        progress
    }

    fn div(&self, divergent: bool) -> &'static str {
        if divergent {
            "div "
        } else {
            "con "
        }
    }

    fn indent(&mut self, tabs: usize) {
        for _ in 0..tabs {
            self.out.push_str("    ");
        }
    }

    fn def(&self, bits: u8, id: ValueId) -> String {
        let div = self.div(self.uni.value_divergent(id));
        def_text(div, bits, id, self.ssa_alloc)
    }

    fn src(&self, v: ValueId, ty: NirType) -> String {
        let i = v.0 as usize;
        match self.consts.get(i).copied().flatten() {
            None => v.to_string(),
            Some(c) => {
                let bits = self.bits.get(i).copied().unwrap_or(32);
                let ty = match ty {
                    NirType::Untyped if self.float_types[i] && !self.int_types[i] => NirType::Float,
                    t => t,
                };
                format!("{v} ({})", const_src(c, bits, ty))
            }
        }
    }

    fn program(mut self) -> String {
        for c in &self.p.comments {
            if c.is_empty() {
                self.out.push_str("//\n");
            } else {
                let _ = writeln!(self.out, "// {c}");
            }
        }
        self.shader_info();
        self.var_decls();
        self.out.push_str("decl_function main (0 params)\n");
        self.out.push_str("\nimpl main {\n");
        let body = &self.p.body;
        self.list(body, 1);
        self.indent(1);
        let _ = write!(self.out, "block b{}:\n}}\n\n", self.end_block);
        self.out
    }

    /// `print_shader_info` for a compute shader, and the I/O counts.
    fn shader_info(&mut self) {
        let p = self.p;
        let mut float_sizes = 0u32;
        let mut int_sizes = 0u32;
        p.for_each_block(&mut |b| {
            for i in &b.instrs {
                if i.op.info().class != OpClass::Alu {
                    continue;
                }
                let slot = None;
                let dest = i.dest.map(|d| (nir::dest_type(i.op, slot), d.bits));
                let srcs = i.srcs.iter().enumerate().map(|(k, v)| {
                    (
                        nir::src_type(i.op, k, slot),
                        self.bits.get(v.0 as usize).copied().unwrap_or(0),
                    )
                });
                for (t, bits) in dest.into_iter().chain(srcs) {
                    match t {
                        NirType::Float => float_sizes |= u32::from(bits),
                        NirType::Int | NirType::Bool => int_sizes |= u32::from(bits),
                        _ => {}
                    }
                }
            }
        });
        let o = &mut self.out;
        o.push_str("shader: MESA_SHADER_COMPUTE\n");
        o.push_str("source_blake3: {");
        for k in 0..8 {
            o.push_str(if k == 0 { "0x00000000" } else { ", 0x00000000" });
        }
        o.push_str("}\n");
        let _ = writeln!(o, "name: {}", p.name);
        o.push_str("internal: false\n");
        match self.dispatch {
            Some(d) => {
                let _ = writeln!(o, "workgroup_size: {}, 1, 1", d.invocations);
            }
            None => o.push_str("workgroup_size: 0, 0, 0 (variable)\n"),
        }
        o.push_str("stage: 5\nnext_stage: 0\nsubgroup_size: 0\n");
        o.push_str("divergence_analysis_run: true\n");
        if float_sizes != 0 {
            let _ = writeln!(o, "bit_sizes_float: 0x{float_sizes:02x}");
        }
        if int_sizes != 0 {
            let _ = writeln!(o, "bit_sizes_int: 0x{int_sizes:02x}");
        }
        o.push_str("io_lowered: true\nptr_size: 0\n");
        let _ = writeln!(o, "inputs: {}", p.inputs.len());
        let _ = writeln!(o, "outputs: {}", p.outputs.len());
        let _ = writeln!(o, "uniforms: {}", p.uniforms.len() * 8);
    }

    /// `print_var_decl` for every slot: uniforms, then inputs, then outputs
    /// (NIR's order of variable modes).
    fn var_decls(&mut self) {
        let p = self.p;
        for (s, t) in p.uniforms.iter().enumerate() {
            let _ = writeln!(
                self.out,
                "decl_var uniform INTERP_MODE_NONE none {} u{s} ({s}, {}, 0)",
                nir::glsl_type_name(*t),
                s * 8
            );
        }
        for (mode, name, slots) in [
            ("shader_in", "in", &p.inputs),
            ("shader_out", "out", &p.outputs),
        ] {
            for (s, t) in slots.iter().enumerate() {
                let _ = writeln!(
                    self.out,
                    "decl_var {mode} INTERP_MODE_NONE none {} {name}{s} ({s}.x, {s}, 0)",
                    nir::glsl_type_name(*t),
                );
            }
        }
    }

    fn list(&mut self, list: &[CfNode], tabs: usize) {
        for node in list {
            match node {
                CfNode::Block(b) => self.block(b, tabs),
                CfNode::If(i) => {
                    self.indent(tabs);
                    let cond = self.src(i.cond, NirType::Untyped);
                    let _ = writeln!(self.out, "if {cond} {{");
                    self.list(&i.then_body, tabs + 1);
                    self.indent(tabs);
                    self.out.push_str("} else {\n");
                    self.list(&i.else_body, tabs + 1);
                    self.indent(tabs);
                    self.out.push_str("}\n");
                }
                CfNode::Loop(l) => {
                    let div =
                        self.div(self.uni.loops.get(self.next_loop).copied().unwrap_or(false));
                    self.next_loop += 1;
                    self.indent(tabs);
                    let _ = writeln!(self.out, "{div}loop {{");
                    self.list(&l.body, tabs + 1);
                    self.indent(tabs);
                    self.out.push_str("}\n");
                }
            }
        }
    }

    fn block_list(ids: &[u32], sep: &str, trailing: bool) -> String {
        let mut s = String::new();
        for (k, id) in ids.iter().enumerate() {
            if k > 0 && !trailing {
                s.push_str(sep);
            }
            let _ = write!(s, "b{id}");
            if trailing {
                s.push_str(sep);
            }
        }
        s
    }

    fn block(&mut self, b: &Block, tabs: usize) {
        let id = b.id.0 as usize;
        let first = self.is_entry(b);
        let offset_here = first && self.offset.is_some();
        let has_dest =
            offset_here || !b.phis.is_empty() || b.instrs.iter().any(|i| i.dest.is_some());
        self.padding_for_no_dest = if has_dest {
            5 + 1 + 4 + 1 + count_digits(self.ssa_alloc) + 1 + 1 + 1
        } else {
            0
        };
        let preds = Self::block_list(&self.preds[id], " ", false);
        let succs = Self::block_list(&self.succs[id], " ", true);
        self.indent(tabs);
        let div = self.div(self.uni.block.get(id).copied().unwrap_or(false));
        let _ = write!(self.out, "{div}block b{id}:");
        if !offset_here && b.phis.is_empty() && b.instrs.is_empty() && b.jump.is_none() {
            let _ = writeln!(self.out, "  // preds: {preds}, succs: {succs}");
            return;
        }
        let block_length = 7 + count_digits(id) + 1;
        let pred_padding = self.padding_for_no_dest.saturating_sub(block_length);
        let _ = writeln!(self.out, "{:pred_padding$}// preds: {preds}", "");
        for ph in &b.phis {
            self.indent(tabs);
            let srcs: Vec<String> = ph
                .srcs
                .iter()
                .map(|(blk, v)| format!("{blk}: {}", self.src(*v, NirType::Untyped)))
                .collect();
            let line = format!(
                "{} = phi {}",
                self.def(ph.dest.bits, ph.dest.id),
                srcs.join(", ")
            );
            self.out.push_str(&line);
            self.out.push('\n');
        }
        // After the phis: the entry block of an invalid program may have some.
        if let Some(off) = self.offset.filter(|_| offset_here) {
            self.indent(tabs);
            let def = self.def(32, off);
            let _ = writeln!(self.out, "{def} = load_const (0x00000000)");
        }
        for i in &b.instrs {
            self.indent(tabs);
            let line = self.instr(i);
            self.out.push_str(&line);
            self.out.push('\n');
        }
        if let Some(j) = b.jump {
            self.indent(tabs);
            let pad = self.padding_for_no_dest;
            let _ = writeln!(
                self.out,
                "{:pad$}{}",
                "",
                match j {
                    Jump::Break => "break",
                    Jump::Continue => "continue",
                }
            );
        }
        self.indent(tabs);
        let pad = self.padding_for_no_dest;
        let _ = writeln!(self.out, "{:pad$}// succs: {succs}", "");
    }

    fn is_entry(&self, b: &Block) -> bool {
        matches!(self.p.body.first(), Some(CfNode::Block(e)) if e.id == b.id)
    }

    fn instr(&self, i: &Instr) -> String {
        let bits = i.dest.map_or(0, |d| d.bits);
        let mut s = match i.dest {
            Some(d) => format!("{} = ", self.def(d.bits, d.id)),
            None => " ".repeat(self.padding_for_no_dest),
        };
        let slot = self.slot_type(i);
        match i.op.info().class {
            OpClass::Const => {
                let id = i.dest.map_or(0, |d| d.id.0 as usize);
                let types = Some((self.int_types[id], self.float_types[id]));
                let _ = write!(s, "load_const ({})", const_def(i.imm, bits, types));
            }
            OpClass::Alu => {
                let srcs: Vec<String> = i
                    .srcs
                    .iter()
                    .enumerate()
                    .map(|(k, v)| self.src(*v, nir::src_type(i.op, k, slot)))
                    .collect();
                let _ = write!(s, "{} {}", nir::nir_name(i.op, bits), srcs.join(", "));
            }
            OpClass::Subgroup | OpClass::Io
                if i.op.has_slot()
                    && (slot.is_none() || i.srcs.len() != i.op.info().sig.num_srcs()) =>
            {
                // An invalid program (an undeclared slot, a wrong source
                // count) has no NIR form: our older spelling keeps it exactly.
                let srcs: Vec<String> = i.srcs.iter().map(|v| v.to_string()).collect();
                let _ = write!(
                    s,
                    "@{} ({}) (slot={})",
                    nir::nir_name(i.op, bits),
                    srcs.join(", "),
                    i.imm
                );
            }
            OpClass::Subgroup | OpClass::Io => {
                let _ = write!(s, "@{}", nir::nir_name(i.op, bits));
                let mut srcs: Vec<String> = i
                    .srcs
                    .iter()
                    .enumerate()
                    .map(|(k, v)| self.src(*v, nir::src_type(i.op, k, slot)))
                    .collect();
                if let Some(off) = self.offset.filter(|_| i.op.has_slot()) {
                    srcs.push(self.src(off, NirType::Int));
                }
                if !srcs.is_empty() {
                    let _ = write!(s, " ({})", srcs.join(", "));
                }
                if let Some(t) = slot {
                    s.push_str(&self.io_indices(i.op, i.imm, t));
                }
            }
        }
        s
    }

    /// The index list of an I/O intrinsic and the variable comment
    /// `nir_print.c` adds to it.
    fn io_indices(&self, op: Op, slot: u64, t: SlotType) -> String {
        let ty = nir::alu_type_name(t);
        match op {
            Op::LoadInput => format!(
                " (base={slot}, component=0, dest_type={ty}, io location={slot} slots=1)  // in{slot}"
            ),
            Op::LoadUniform => format!(
                " (base={}, range=8, dest_type={ty})  // u{slot}",
                slot * 8
            ),
            _ => format!(
                " (base={slot}, wrmask=x, component=0, src_type={ty}, io location={slot} slots=1, xfb(), xfb2())  // out{slot}"
            ),
        }
    }
}
