//! One instruction line, in NIR's spelling (`con 32    %5 = i2i32 %3`,
//! `@load_input (%9 (0x0)) (base=0, ...)`) or in the older `.sir` one
//! (`32 %5 = i2i %3`, `@load_input () (slot=0)`).

use super::cursor::Cur;
use super::header::Decls;
use super::memory::{self, Mem};
use super::PResult;
use crate::nir::op_from_nir_name;
use crate::op::{Op, OpClass};
use crate::program::{Def, Instr, Phi, ValueId};
use crate::types::mask;

impl Cur<'_> {
    /// After `}`: eats `else {` if present.
    pub(super) fn eat_word_else(&mut self) -> bool {
        let save = self.pos;
        if self.word() == "else" && self.eat('{') {
            return true;
        }
        self.pos = save;
        false
    }

    /// Eats NIR's `con `/`div ` prefix if present.
    pub(super) fn eat_divergence(&mut self) {
        let save = self.pos;
        if !matches!(self.word(), "con" | "div") {
            self.pos = save;
        }
    }
}

/// A parsed line of a block.
pub(super) enum Stmt {
    Phi(Phi),
    /// An instruction, and where its I/O offset source was written.
    Instr(Instr, Option<OffsetSrc>),
    /// A line that only feeds buffer addresses (a descriptor, address
    /// arithmetic on it): nothing in the IR.
    Nothing,
}

/// The offset source of an I/O intrinsic in NIR's spelling: it must be the
/// constant 0 (checked once the whole program is read).
pub(super) struct OffsetSrc {
    pub(super) value: ValueId,
    pub(super) line: usize,
    pub(super) col: usize,
}

/// Parses `BITS %N = ...` or an intrinsic without a result.
pub(super) fn instr_line(c: &mut Cur, decls: &Decls, mem: &mut Mem) -> PResult<Stmt> {
    c.ws();
    c.eat_divergence();
    c.ws();
    let mut dest = None;
    // A vector size (`32x2`): only buffer descriptors and the invocation id
    // may have one; checked once the op is known.
    let mut vector: Option<(u8, usize, &str)> = None;
    if c.peek() != Some('@') {
        let start = c.pos;
        let size = c.word();
        let bits = match size.split_once('x') {
            Some((bits, comps)) => match (bits.parse::<u64>(), comps.parse::<u8>()) {
                (Ok(b), Ok(n)) if n > 1 => {
                    vector = Some((n, start, size));
                    b
                }
                _ => {
                    c.pos = start;
                    return c.err(format!("expected a bit size, found `{size}`"));
                }
            },
            None => {
                c.pos = start;
                c.number("a bit size, `@intrinsic` or a statement")?
            }
        };
        if !matches!(bits, 1 | 8 | 16 | 32 | 64) {
            c.pos = start;
            return c.err(format!("bit size must be 1, 8, 16, 32 or 64, not {bits}"));
        }
        let id = c.value()?;
        c.expect('=')?;
        dest = Some(Def {
            id,
            bits: bits as u8,
        });
    }
    c.ws();
    let intrinsic = c.eat('@');
    let save = c.pos;
    let mut name = c.word();
    let comps = vector.map_or(1, |(n, _, _)| n);
    if intrinsic && memory::handles(name) {
        return mem.intrinsic(c, name, save, dest.map(|d: Def| (d.id, d.bits, comps)));
    }
    if let Some((comps, start, size)) = vector {
        if intrinsic || name != "mov" {
            c.pos = start;
            return c.err(format!(
                "vectors ({size}: {comps} components) are not modelled: the IR is scalar"
            ));
        }
    }
    if matches!(name, "amul" | "mov") && !intrinsic {
        // NIR's address multiply and its moves (of descriptor components):
        // only buffer addresses use them.
        let Some(dest) = dest else {
            return c.err(format!("`{name}` needs a destination"));
        };
        let srcs = alu_srcs(c, if name == "mov" { 1 } else { 2 })?;
        c.end()?;
        mem.alu(c, name, save, dest, comps, &srcs)?;
        return Ok(Stmt::Nothing);
    }
    if name == "phi" && !intrinsic {
        let Some(dest) = dest else {
            return c.err("a phi needs a destination");
        };
        let mut srcs = Vec::new();
        loop {
            let b = c.block_id()?;
            c.expect(':')?;
            c.ws();
            let at = c.pos;
            let v = c.src()?;
            mem.data_use(c, v, at)?;
            srcs.push((b, v));
            if !c.eat(',') {
                break;
            }
        }
        c.end()?;
        return Ok(Stmt::Phi(Phi { dest, srcs }));
    }
    // `!` (exact) only forbids some float rewrites; our ops are exact anyway.
    if !intrinsic && c.peek() == Some('!') {
        c.pos += 1;
    }
    if let Some((base, flag)) = name.split_once('.') {
        if matches!(flag, "nsw" | "nuw") {
            c.pos = save + base.len();
            return c.err(format!(
                "`.{flag}` makes wrapping undefined, which is not modelled (our integer ops wrap)"
            ));
        }
        name = base;
    }
    let Some((op, sized)) = op_from_nir_name(name) else {
        c.pos = save;
        return c.err(if intrinsic {
            format!("intrinsic `@{name}` is not modelled")
        } else {
            format!("expected an op name, found {}", c.found())
        });
    };
    if op.is_intrinsic() != intrinsic {
        c.pos = save;
        return c.err(if intrinsic {
            format!("`{name}` is an ALU op: write it without `@`")
        } else {
            format!("`{name}` is an intrinsic: write it as `@{name} (...)`")
        });
    }
    if let (Some(bits), Some(d)) = (sized, dest) {
        if bits != d.bits {
            c.pos = save;
            return c.err(format!(
                "`{name}` makes a {bits}-bit value, but its destination is {}-bit",
                d.bits
            ));
        }
    }
    let mut srcs = Vec::new();
    let mut imm = 0;
    let mut offset = None;
    match op.info().class {
        OpClass::Const => imm = const_value(c, dest.map_or(32, |d| d.bits))?,
        OpClass::Alu => {
            let written = alu_srcs(c, op.info().sig.num_srcs())?;
            let Some(dest) = dest else {
                return c.err(format!("`{name}` needs a destination"));
            };
            match mem.alu(c, name, save, dest, comps, &written)? {
                Some(real) => srcs = real,
                None => {
                    c.end()?;
                    return Ok(Stmt::Nothing);
                }
            }
        }
        OpClass::Subgroup | OpClass::Io => {
            let mut groups = Vec::new();
            let written = c.intrinsic_srcs()?;
            for &(v, at) in &written {
                mem.data_use(c, v, at)?;
            }
            let offset_at = written.last().map(|&(_, at)| at);
            srcs = written.into_iter().map(|(v, _)| v).collect();
            c.ws();
            if c.peek() == Some('(') {
                let at = c.pos;
                groups.push((at, c.paren_group()?));
            }
            let want = op.info().sig.num_srcs();
            // Our older spelling names the slot (`slot=N`) and has no offset;
            // NIR's names `base=N` and ends its sources with the offset.
            let nir_spelling = groups
                .last()
                .is_some_and(|(_, idx)| !idx.split(',').any(|i| i.trim().starts_with("slot=")));
            if op.has_slot() && nir_spelling && srcs.len() == want + 1 {
                // NIR's spelling: the last source is the offset.
                let at = offset_at.unwrap_or(0);
                let value = srcs.pop().expect("counted above");
                offset = Some(OffsetSrc {
                    value,
                    line: c.line,
                    col: c.s[..at].chars().count() + 1,
                });
            }
            if op.has_slot() {
                let Some((at, indices)) = groups.pop() else {
                    return c.err(format!(
                        "expected the indices of `@{name}` (`(base=N, ...)`)"
                    ));
                };
                imm = slot_of(c, at, op, indices, decls)?;
            } else if let Some((at, _)) = groups.pop() {
                c.pos = at;
                return c.err(format!("`@{name}` has no indices"));
            }
        }
    }
    c.end()?;
    if op.info().sig.has_dest() == dest.is_none() {
        return c.err(if dest.is_none() {
            format!("`{name}` defines a value: write `BITS %N = ...`")
        } else {
            format!("`{name}` defines no value")
        });
    }
    let instr = Instr {
        op,
        dest,
        srcs,
        imm,
    };
    mem.after_real(&instr);
    Ok(Stmt::Instr(instr, offset))
}

/// `n` ALU sources, as written (swizzles kept for the buffer addresses).
fn alu_srcs(c: &mut Cur, n: usize) -> PResult<Vec<memory::SwzSrc>> {
    let mut srcs = Vec::with_capacity(n);
    for k in 0..n {
        if k > 0 {
            c.expect(',')?;
        }
        srcs.push(c.src_swizzled()?);
    }
    Ok(srcs)
}

/// `(0x0000002a)`, `(0x0000002a = 42)`, `(0x3f800000 = 1.000000)`,
/// `(true)`: the first reading is the exact bits; the rest repeat them.
fn const_value(c: &mut Cur, bits: u8) -> PResult<u64> {
    c.ws();
    let open = c.pos;
    let inner = c.paren_group()?;
    let first = inner
        .split([' ', ',', '='])
        .find(|w| !w.is_empty())
        .unwrap_or("");
    let at = open + 1 + inner.find(first).unwrap_or(0);
    let v = match first {
        "true" if bits == 1 => 1,
        "false" if bits == 1 => 0,
        _ => match first
            .strip_prefix("0x")
            .and_then(|h| u64::from_str_radix(h, 16).ok())
        {
            Some(v) if v & !mask(bits) == 0 => v,
            Some(_) => {
                c.pos = at;
                return c.err(format!("constant does not fit in {bits} bits"));
            }
            None => {
                c.pos = at;
                return c.err(format!(
                    "expected a hex constant (0x...) or true/false, found `{first}`"
                ));
            }
        },
    };
    if inner.contains(',') {
        c.pos = at;
        return c.err("vector constants are not modelled: the IR is scalar");
    }
    Ok(v)
}

/// The slot an I/O intrinsic's indices name: `slot=N` (our older
/// spelling), or `base=N` matched against the variables' driver locations
/// (NIR's). `component` must be 0.
fn slot_of(c: &mut Cur, at: usize, op: Op, indices: &str, decls: &Decls) -> PResult<u64> {
    let mut slot = None;
    let mut base = None;
    let mut base_at = at;
    for (key, value, here) in Cur::index_items(at, indices) {
        match (key, value.parse::<u64>().ok()) {
            ("slot", Some(n)) => slot = Some(n),
            ("base", Some(n)) => {
                base = Some(n);
                base_at = here;
            }
            ("component", Some(n)) if n != 0 => {
                c.pos = here;
                return c.err(format!(
                    "`component={n}`: packed (vector) I/O is not modelled"
                ));
            }
            _ => {}
        }
    }
    if let Some(s) = slot {
        return Ok(s);
    }
    let Some(base) = base else {
        c.pos = at;
        return c.err("expected `base=N` (or `slot=N`) among the indices");
    };
    match decls.slot_of_driver_location(op, base) {
        Some(s) => Ok(s),
        // A file without variables numbers slots by `base` itself (for
        // uniforms, in bytes: one 8-byte slot each).
        None if !decls.has_vars() => Ok(if op == Op::LoadUniform {
            base / 8
        } else {
            base
        }),
        None => {
            c.pos = base_at;
            c.err(format!(
                "no {} variable has driver location {base}",
                match op {
                    Op::LoadInput => "shader_in",
                    Op::LoadUniform => "uniform",
                    _ => "shader_out",
                }
            ))
        }
    }
}
