//! A SPIR-V disassembler whose output `spirv-as` assembles back to an
//! equivalent module (VkRunner's `[compute shader spirv]` sections are
//! assembled with it).
//!
//! rspirv's own disassembler prints float constants with Rust's formatting
//! (`NaN`, `inf`, decimal f16) and strings with Rust escapes, which
//! `spirv-as` rejects, and it prints bare numeric ids. This printer is
//! generic over instructions: it walks rspirv's parsed operands, takes
//! opcode names from rspirv's grammar tables and enumerant and mask names
//! from rspirv's grammar-generated operand printers, names extended
//! instructions from the GLSL.std.450 / OpenCL.std grammar tables, and
//! types each context-dependent literal (`OpConstant`) by its result type.
//! Ids print by their `OpName` (`%v5`, `%b3`), types and constants by
//! derived names in `spirv-dis`'s style (`%uint`, `%uint_5`, `%float_n0`),
//! everything else by number.

use rspirv::binary::Disassemble;
use rspirv::dr::{self, Instruction, Operand};
use rspirv::grammar::{GlslStd450InstructionTable, OpenCLStd100InstructionTable};
use rspirv::spirv::{Op, Word};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// SPIR-V assembly of a binary module, `spirv-as` compatible, with the
/// module's `OpName`s as id names. Exported modules are SPIR-V 1.3, so
/// assemble the text with `spirv-as --target-env vulkan1.1` (or `spv1.3`);
/// `--preserve-numeric-ids` also keeps the unnamed ids' numbers. A binary
/// that does not parse gives a one-line `; error: ...` comment.
pub fn disassemble(words: &[u32]) -> String {
    let (words, maximal) = split_maximal_reconvergence(words);
    match dr::load_words(&words) {
        Ok(m) => {
            let mut p = Printer::new(&m);
            p.maximal = maximal;
            p.print(&m)
        }
        Err(e) => format!("; error: not a SPIR-V module: {e}\n"),
    }
}

/// The module without its `OpExecutionMode %e MaximallyReconvergesKHR`
/// instructions (rspirv's grammar does not know the enumerant), and the
/// entry points they named.
fn split_maximal_reconvergence(words: &[u32]) -> (Vec<u32>, Vec<Word>) {
    const HEADER: usize = 5;
    let mut kept = words[..words.len().min(HEADER)].to_vec();
    let mut entries = Vec::new();
    let mut at = HEADER;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let end = if count == 0 {
            words.len()
        } else {
            (at + count).min(words.len())
        };
        let i = &words[at..end];
        if i.len() == 3
            && i[0] & 0xffff == Op::ExecutionMode as u32
            && i[2] == crate::MAXIMALLY_RECONVERGES_KHR
        {
            entries.push(i[1]);
        } else {
            kept.extend_from_slice(i);
        }
        at = end;
    }
    (kept, entries)
}

/// What a literal of a constant's type is.
#[derive(Clone, Copy)]
enum Scalar {
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

struct Printer {
    names: HashMap<Word, String>,
    scalars: HashMap<Word, Scalar>,
    ext_sets: HashMap<Word, String>,
    /// Entry points with `MaximallyReconvergesKHR` (printed after the
    /// other execution modes).
    maximal: Vec<Word>,
}

impl Printer {
    fn new(m: &dr::Module) -> Printer {
        let mut p = Printer {
            names: HashMap::new(),
            scalars: HashMap::new(),
            ext_sets: HashMap::new(),
            maximal: Vec::new(),
        };
        let mut taken = HashSet::new();
        let mut claim = |p: &mut Printer, id: Word, want: String| {
            if p.names.contains_key(&id) {
                return;
            }
            let mut name = sanitize(&want);
            let mut k = 1;
            while taken.contains(&name) {
                name = format!("{}_{k}", sanitize(&want));
                k += 1;
            }
            taken.insert(name.clone());
            p.names.insert(id, name);
        };
        for i in &m.debug_names {
            if let (Op::Name, [Operand::IdRef(id), Operand::LiteralString(s)]) =
                (i.class.opcode, i.operands.as_slice())
            {
                claim(&mut p, *id, s.clone());
            }
        }
        for i in m.ext_inst_imports.iter().chain(&m.types_global_values) {
            if i.class.opcode == Op::ExtInstImport {
                if let (Some(id), Some(Operand::LiteralString(s))) =
                    (i.result_id, i.operands.first())
                {
                    p.ext_sets.insert(id, s.clone());
                }
            }
            p.note_scalar(i);
            if let (Some(id), Some(want)) = (i.result_id, p.derived_name(i)) {
                claim(&mut p, id, want);
            }
        }
        p
    }

    fn note_scalar(&mut self, i: &Instruction) {
        let Some(id) = i.result_id else { return };
        match (i.class.opcode, i.operands.as_slice()) {
            (Op::TypeInt, [Operand::LiteralBit32(w), Operand::LiteralBit32(s)]) => {
                self.scalars.insert(
                    id,
                    Scalar::Int {
                        width: *w,
                        signed: *s != 0,
                    },
                );
            }
            (Op::TypeFloat, [Operand::LiteralBit32(w), ..]) => {
                self.scalars.insert(id, Scalar::Float { width: *w });
            }
            _ => {}
        }
    }

    /// A readable name for an unnamed type, constant or import.
    fn derived_name(&self, i: &Instruction) -> Option<String> {
        let name_of = |id: &Word| {
            self.names
                .get(id)
                .cloned()
                .unwrap_or_else(|| id.to_string())
        };
        let ops = i.operands.as_slice();
        Some(match (i.class.opcode, ops) {
            (Op::ExtInstImport, [Operand::LiteralString(s)]) => s.clone(),
            (Op::TypeVoid, _) => "void".into(),
            (Op::TypeBool, _) => "bool".into(),
            (Op::TypeInt, [Operand::LiteralBit32(w), Operand::LiteralBit32(s)]) => {
                let base = match w {
                    8 => "char",
                    16 => "short",
                    32 => "int",
                    64 => "long",
                    _ => return Some(format!("{}int{w}", if *s == 0 { "u" } else { "" })),
                };
                format!("{}{base}", if *s == 0 { "u" } else { "" })
            }
            (Op::TypeFloat, [Operand::LiteralBit32(w), ..]) => match w {
                16 => "half".into(),
                32 => "float".into(),
                64 => "double".into(),
                _ => format!("float{w}"),
            },
            (Op::TypeVector, [Operand::IdRef(t), Operand::LiteralBit32(n)]) => {
                format!("v{n}{}", name_of(t))
            }
            (Op::TypePointer, [sc, Operand::IdRef(t)]) => format!("_ptr_{sc}_{}", name_of(t)),
            (Op::TypeRuntimeArray, [Operand::IdRef(t)]) => format!("_runtimearr_{}", name_of(t)),
            (Op::TypeStruct, members) => {
                let mut s = String::from("_struct");
                for m in members {
                    if let Operand::IdRef(t) = m {
                        s.push('_');
                        s.push_str(&name_of(t));
                    }
                }
                s
            }
            (Op::TypeFunction, [Operand::IdRef(r), ..]) => format!("fn_{}", name_of(r)),
            (Op::ConstantTrue, _) => "true".into(),
            (Op::ConstantFalse, _) => "false".into(),
            (Op::Undef, _) => format!("undef_{}", name_of(&i.result_type?)),
            (Op::Constant, [lit]) => {
                let ty = i.result_type?;
                let value = match (self.scalars.get(&ty)?, lit) {
                    (s, Operand::LiteralBit32(v)) => constant_label(*s, *v as u64),
                    (s, Operand::LiteralBit64(v)) => constant_label(*s, *v),
                    _ => return None,
                };
                format!("{}_{value}", name_of(&ty))
            }
            _ => return None,
        })
    }

    fn id(&self, id: Word) -> String {
        match self.names.get(&id) {
            Some(n) => format!("%{n}"),
            None => format!("%{id}"),
        }
    }

    fn print(&self, m: &dr::Module) -> String {
        let mut out = String::new();
        if let Some(h) = &m.header {
            let (major, minor) = h.version();
            let (tool, version) = h.generator();
            let _ = writeln!(out, "; SPIR-V\n; Version: {major}.{minor}");
            let _ = writeln!(out, "; Generator: {tool}; {version}\n; Bound: {}", h.bound);
            let _ = writeln!(out, "; Schema: {}", h.reserved_word);
        }
        let last_mode = m.execution_modes.last().map(|i| i as *const Instruction);
        for i in m.global_inst_iter() {
            self.line(&mut out, i, "");
            if Some(i as *const Instruction) == last_mode {
                for e in &self.maximal {
                    let _ = writeln!(
                        out,
                        "OpExecutionMode {} MaximallyReconvergesKHR",
                        self.id(*e)
                    );
                }
            }
        }
        for f in &m.functions {
            for i in f.def.iter().chain(&f.parameters) {
                self.line(&mut out, i, "");
            }
            for b in &f.blocks {
                if let Some(l) = &b.label {
                    self.line(&mut out, l, "");
                }
                for i in &b.instructions {
                    self.line(&mut out, i, "    ");
                }
            }
            if let Some(i) = &f.end {
                self.line(&mut out, i, "");
            }
        }
        out
    }

    fn line(&self, out: &mut String, i: &Instruction, indent: &str) {
        out.push_str(indent);
        if let Some(r) = i.result_id {
            let _ = write!(out, "{} = ", self.id(r));
        }
        let _ = write!(out, "Op{}", i.class.opname);
        if let Some(t) = i.result_type {
            let _ = write!(out, " {}", self.id(t));
        }
        for o in &i.operands {
            out.push(' ');
            out.push_str(&self.operand(i, o));
        }
        out.push('\n');
    }

    fn operand(&self, i: &Instruction, o: &Operand) -> String {
        match o {
            Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => {
                self.id(*id)
            }
            Operand::LiteralString(s) => quote(s),
            Operand::LiteralBit32(v) => self.literal(i, *v as u64),
            Operand::LiteralBit64(v) => self.literal(i, *v),
            Operand::LiteralExtInstInteger(n) => self.ext_inst_name(i, *n),
            Operand::LiteralSpecConstantOpInteger(op) => format!("{op:?}"),
            // Enumerants by name, masks as `A|B` / `None` (rspirv's
            // grammar-generated printers).
            _ => o.disassemble(),
        }
    }

    /// A literal number: typed by the result type for the context-dependent
    /// literal of `OpConstant`/`OpSpecConstant`, decimal otherwise.
    fn literal(&self, i: &Instruction, v: u64) -> String {
        let typed = matches!(i.class.opcode, Op::Constant | Op::SpecConstant);
        match (typed, i.result_type.and_then(|t| self.scalars.get(&t))) {
            (true, Some(Scalar::Float { width })) => hex_float(v, *width),
            (
                true,
                Some(Scalar::Int {
                    width,
                    signed: true,
                }),
            ) => {
                let sh = 64 - width;
                (((v << sh) as i64) >> sh).to_string()
            }
            _ => v.to_string(),
        }
    }

    fn ext_inst_name(&self, i: &Instruction, n: u32) -> String {
        let set = match i.operands.first() {
            Some(Operand::IdRef(s)) => self.ext_sets.get(s).map(String::as_str),
            _ => None,
        };
        let name = match set {
            Some("GLSL.std.450") => GlslStd450InstructionTable::lookup_opcode(n).map(|g| g.opname),
            Some("OpenCL.std") => OpenCLStd100InstructionTable::lookup_opcode(n).map(|g| g.opname),
            _ => None,
        };
        name.map_or_else(|| n.to_string(), str::to_string)
    }
}

/// An id name `spirv-as` accepts: letters, digits and `_`, not starting with
/// a digit (a number is an id number).
fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// A string literal with `"` and `\` escaped.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The value part of a constant's derived name (`5`, `n1`, `0_5`, `nan`, ...).
fn constant_label(s: Scalar, v: u64) -> String {
    match s {
        Scalar::Int { width, signed } => {
            let sh = 64 - width;
            if signed {
                let x = ((v << sh) as i64) >> sh;
                if x < 0 {
                    format!("n{}", x.unsigned_abs())
                } else {
                    x.to_string()
                }
            } else if v >= 0x10000 {
                format!("0x{v:x}")
            } else {
                v.to_string()
            }
        }
        Scalar::Float { width } => {
            let x = match width {
                16 => ir::float::to_f64(v, 16),
                32 => f32::from_bits(v as u32) as f64,
                _ => f64::from_bits(v),
            };
            let neg = if v >> (width - 1) & 1 == 1 { "n" } else { "" };
            if x.is_nan() {
                if v == ir::float::canonical_nan(width as u8) {
                    "nan".into()
                } else {
                    format!("nan_0x{v:x}")
                }
            } else if x.is_infinite() {
                format!("{neg}inf")
            } else {
                let text = format!("{}", x.abs());
                if text.len() <= 8 {
                    format!("{neg}{}", text.replace('.', "_"))
                } else {
                    format!("0x{v:x}")
                }
            }
        }
    }
}

/// A float's bits as a hex float (`0x1.8p+1`), which `spirv-as` parses back
/// to the same bits, NaN payloads, infinities and denormals included.
pub(crate) fn hex_float(bits: u64, width: u32) -> String {
    let (mbits, ebits) = match width {
        16 => (10u32, 5u32),
        32 => (23, 8),
        _ => (52, 11),
    };
    let sign = if bits >> (width - 1) & 1 == 1 {
        "-"
    } else {
        ""
    };
    let exp = (bits >> mbits) & ((1u64 << ebits) - 1);
    let mant = bits & ((1u64 << mbits) - 1);
    let bias = (1i64 << (ebits - 1)) - 1;
    if exp == 0 && mant == 0 {
        return format!("{sign}0x0p+0");
    }
    let (e, frac) = if exp == 0 {
        // Denormal: normalize, 1.f * 2^e.
        let top = 63 - mant.leading_zeros();
        let frac = (mant << (mbits - top)) & ((1u64 << mbits) - 1);
        (top as i64 + 1 - bias - mbits as i64, frac)
    } else {
        // Normal, or (all-ones exponent) infinity and NaN as 2^(emax + 1).
        (exp as i64 - bias, mant)
    };
    let digits = mbits.div_ceil(4);
    let aligned = frac << (digits * 4 - mbits);
    let mut hex = format!("{aligned:0width$x}", width = digits as usize);
    while hex.ends_with('0') {
        hex.pop();
    }
    let dot = if hex.is_empty() {
        String::new()
    } else {
        format!(".{hex}")
    };
    format!("{sign}0x1{dot}p{e:+}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_floats() {
        assert_eq!(hex_float(0x3f80_0000, 32), "0x1p+0");
        assert_eq!(hex_float(0xbfc0_0000, 32), "-0x1.8p+0");
        assert_eq!(hex_float(0x7fc0_0000, 32), "0x1.8p+128");
        assert_eq!(hex_float(0x7f80_0001, 32), "0x1.000002p+128");
        assert_eq!(hex_float(0xff80_0000, 32), "-0x1p+128");
        assert_eq!(hex_float(0x0000_0001, 32), "0x1p-149");
        assert_eq!(hex_float(0x0000_0003, 32), "0x1.8p-148");
        assert_eq!(hex_float(0x8000_0000, 32), "-0x0p+0");
        assert_eq!(hex_float(0x7e00, 16), "0x1.8p+16");
        assert_eq!(hex_float(0x0001, 16), "0x1p-24");
        assert_eq!(hex_float(0x3555, 16), "0x1.554p-2");
        assert_eq!(hex_float(0x7ff8_0000_0000_0000, 64), "0x1.8p+1024");
        assert_eq!(hex_float(1, 64), "0x1p-1074");
        assert_eq!(hex_float(0x3ff0_0000_0000_0001, 64), "0x1.0000000000001p+0");
    }

    #[test]
    fn names_are_assembler_identifiers() {
        assert_eq!(sanitize("v5"), "v5");
        assert_eq!(sanitize("GLSL.std.450"), "GLSL_std_450");
        assert_eq!(sanitize("5"), "_5");
        assert_eq!(sanitize(""), "_");
        assert_eq!(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    }

    #[test]
    fn constant_labels() {
        let f32 = Scalar::Float { width: 32 };
        assert_eq!(constant_label(f32, 0x3f80_0000), "1");
        assert_eq!(constant_label(f32, 0xbf00_0000), "n0_5");
        assert_eq!(constant_label(f32, 0x8000_0000), "n0");
        assert_eq!(constant_label(f32, 0x7fc0_0000), "nan");
        assert_eq!(constant_label(f32, 0x7fc0_0001), "nan_0x7fc00001");
        assert_eq!(constant_label(f32, 0xff80_0000), "ninf");
        assert_eq!(constant_label(f32, 0x3dcc_cccd), "0x3dcccccd");
        let i8 = Scalar::Int {
            width: 8,
            signed: true,
        };
        assert_eq!(constant_label(i8, 0xff), "n1");
        let u32 = Scalar::Int {
            width: 32,
            signed: false,
        };
        assert_eq!(constant_label(u32, 0xffff), "65535");
        assert_eq!(constant_label(u32, 0x7fc0_0000), "0x7fc00000");
    }
}
