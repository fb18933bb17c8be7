//! Buffer access in real Vulkan NIR, mapped onto slots.
//!
//! A Vulkan compute shader reaches its data through descriptors:
//! `@vulkan_resource_index` names a (set, binding), `@load_vulkan_descriptor`
//! turns it into an address (32x2 in `32bit_index_offset`, 32x3 in
//! `vec2_index_32bit_offset`: the buffer index, then a byte offset), and
//! `@load_ssbo`/`@store_ssbo`/`@load_ubo` take the index part and a byte
//! offset. The IR has no memory, only slots, so this module follows the
//! address arithmetic symbolically and maps each access whose byte offset is
//! `c0 + c1 * i` (`i` the local invocation index, `c0` and `c1` constants)
//! onto a slot:
//!
//! - a load with `c1 != 0` (each invocation its own element) is an input slot;
//! - a load with `c1 == 0` (one element for all) is a uniform slot;
//! - a store with `c1 != 0` is an output slot.
//!
//! A slot is one (buffer, `c0`, `c1`, size) key, numbered after the slots
//! the `decl_var`s declare, in order of first access. The mapping keeps the
//! shader's meaning only if no two invocations share bytes and no load sees
//! an earlier store, so [`Mem::finish`] rejects, at the access, anything
//! else: mixed strides in one buffer, an element reaching into another
//! invocation's stride, overlapping accesses, a fixed element that may be an
//! invocation's own, a store every invocation makes to the same bytes, and a
//! load of an element the invocation may already have stored (a store
//! before it in the text, or in a loop around both).
//!
//! Descriptors and the address arithmetic that reads them (`mov`, `iadd`,
//! `imul`, `amul`, `ishl`) exist only here; address arithmetic on real
//! values (`ishl %invocation, 2`) is also kept as IR, and removed at the end
//! if only addresses used it. `load_local_invocation_id` and
//! `load_global_invocation_id` read as the invocation index when the
//! workgroup is one-dimensional (the farm dispatches one workgroup, so the
//! two are equal); only their `.x` is modelled.

mod finish;
mod intrinsic;

use super::cursor::Cur;
use super::{PResult, ParseError};
use crate::op::Op;
use crate::program::{Def, Instr, Program, ValueId};
use std::collections::HashMap;

/// A buffer binding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Buffer {
    set: u64,
    binding: u64,
    ubo: bool,
}

impl Buffer {
    fn kind(self) -> &'static str {
        if self.ubo {
            "UBO"
        } else {
            "SSBO"
        }
    }
}

/// `c0 + c1 * i` bytes, `i` the local invocation index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Affine {
    c0: i64,
    c1: i64,
}

impl Affine {
    /// The local invocation index itself.
    const INVOCATION: Affine = Affine { c0: 0, c1: 1 };

    const fn constant(c0: i64) -> Affine {
        Affine { c0, c1: 0 }
    }
    /// The result if it stays within 32-bit offsets; `None` otherwise.
    fn checked(c0: Option<i64>, c1: Option<i64>) -> Option<Affine> {
        let (c0, c1) = (c0?, c1?);
        let limit = 1i64 << 32;
        (c0.abs() < limit && c1.abs() < limit).then_some(Affine { c0, c1 })
    }
    fn add(self, o: Affine) -> Option<Affine> {
        Affine::checked(self.c0.checked_add(o.c0), self.c1.checked_add(o.c1))
    }
    fn mul(self, o: Affine) -> Option<Affine> {
        let (k, a) = match (self.c1, o.c1) {
            (0, _) => (self.c0, o),
            (_, 0) => (o.c0, self),
            _ => return None,
        };
        Affine::checked(a.c0.checked_mul(k), a.c1.checked_mul(k))
    }
    fn shl(self, o: Affine) -> Option<Affine> {
        if o.c1 != 0 || !(0..32).contains(&o.c0) {
            return None;
        }
        self.mul(Affine::constant(1 << o.c0))
    }

    /// NIR's address arithmetic `op` (`iadd`, `imul`, `amul`, `ishl`) on
    /// `a` and `b`: `None` for another op or a result not of the form
    /// `c0 + c1 * i`.
    fn combine(op: &str, a: Option<Affine>, b: Option<Affine>) -> Option<Affine> {
        let (a, b) = (a?, b?);
        match op {
            "iadd" => a.add(b),
            "imul" | "amul" => a.mul(b),
            "ishl" => a.shl(b),
            _ => None,
        }
    }
}

impl std::fmt::Display for Affine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `i` is the local invocation index.
        match self.c1 {
            0 => write!(f, "{}", self.c0),
            c1 => write!(f, "{c1}*i + {}", self.c0),
        }
    }
}

/// What a value means to the address arithmetic.
#[derive(Clone, Copy, Debug)]
enum Sym {
    /// A descriptor address of `comps` components: the buffer index, then
    /// the byte offset (0).
    Descriptor { buffer: Buffer, comps: u8 },
    /// The buffer-index components of a descriptor.
    Index(Buffer),
    /// A byte offset (or any integer) of the form `c0 + c1 * i`.
    Affine(Affine),
    /// `load_local_invocation_id` or `load_global_invocation_id`: the value
    /// is the scalar invocation index, read as `.x`.
    InvocationVec,
}

/// A value the address arithmetic follows; `real` when it is also an IR
/// value (the others exist only here).
#[derive(Clone, Copy)]
struct Known {
    sym: Sym,
    real: bool,
}

/// One source of an ALU line, as written.
pub(super) struct SwzSrc {
    pub(super) value: ValueId,
    /// Byte offset of the `%`.
    pub(super) at: usize,
    /// The swizzle after `.`, and the byte offset of the `.`.
    pub(super) swizzle: Option<(String, usize)>,
}

/// A source after resolution: an IR value, or something only addresses use.
enum Operand {
    Real(ValueId),
    Virtual(Sym),
}

/// A slot key: which bytes of which buffer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    buffer: Buffer,
    at: Affine,
    bytes: u64,
}

/// One load or store, for the checks at the end.
struct Access {
    key: Key,
    /// The stored value: `Some` for a store, `None` for a load.
    value: Option<ValueId>,
    line: usize,
    col: usize,
    /// The loops around it, innermost last.
    loops: Vec<u32>,
}

impl Access {
    fn is_store(&self) -> bool {
        self.value.is_some()
    }
}

/// A slot the mapping made.
struct Mapped {
    key: Key,
    kind: SlotKind,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum SlotKind {
    Input,
    Uniform,
    Output,
}

/// The state of the mapping while a file is read.
#[derive(Default)]
pub(super) struct Mem {
    known: HashMap<u32, Known>,
    accesses: Vec<Access>,
    loops: Vec<u32>,
    next_loop: u32,
    /// `workgroup_size` from the header.
    pub(super) workgroup: Option<[u64; 3]>,
    /// `decl_var ssbo`/`ubo` names by (binding, is-UBO).
    pub(super) names: Vec<(u64, bool, String)>,
    /// Slots declared by `decl_var` (inputs, uniforms, outputs), after
    /// which the mapped slots are numbered.
    base: [usize; 3],
    mapped: Vec<Mapped>,
    /// IR values that addresses read: removed at the end if nothing else
    /// reads them.
    feeds_address: Vec<ValueId>,
}

/// The intrinsics this module reads.
pub(super) fn handles(name: &str) -> bool {
    matches!(
        name,
        "vulkan_resource_index"
            | "load_vulkan_descriptor"
            | "load_ssbo"
            | "store_ssbo"
            | "load_ubo"
            | "load_local_invocation_id"
            | "load_global_invocation_id"
    )
}

fn error<T>(line: usize, col: usize, msg: String) -> PResult<T> {
    Err(ParseError {
        file: None,
        line,
        col,
        msg,
    })
}

/// The error for the invocation-id vector used whole (not as `.x`).
fn whole_invocation_vector<T>(c: &Cur, v: ValueId, at: usize) -> PResult<T> {
    error(
        c.line,
        col_of(c, at),
        format!("{v} is a vector (the invocation id): only its `.x` is modelled"),
    )
}

/// The 1-based column of byte offset `at` on `c`'s line.
fn col_of(c: &Cur, at: usize) -> usize {
    c.s[..at].chars().count() + 1
}

impl Mem {
    /// Numbers mapped slots after the ones `decl_var` declared.
    pub(super) fn set_base(&mut self, p: &Program) {
        self.base = [p.inputs.len(), p.uniforms.len(), p.outputs.len()];
    }

    /// Entering and leaving a loop body.
    pub(super) fn enter_loop(&mut self) {
        self.loops.push(self.next_loop);
        self.next_loop += 1;
    }
    pub(super) fn leave_loop(&mut self) {
        self.loops.pop();
    }

    /// Records what `v` means to the address arithmetic.
    fn define(&mut self, v: ValueId, sym: Sym, real: bool) {
        self.known.insert(v.0, Known { sym, real });
    }

    /// Whether `v` exists only for addresses (not as an IR value).
    fn is_virtual(&self, v: ValueId) -> bool {
        self.known.get(&v.0).is_some_and(|k| !k.real)
    }

    /// Rejects a use as data (a phi, an `if`, an intrinsic's source) of a
    /// value that exists only for addresses.
    pub(super) fn data_use(&self, c: &Cur, v: ValueId, at: usize) -> PResult<()> {
        if self.is_virtual(v) {
            return error(
                c.line,
                col_of(c, at),
                format!(
                    "{v} is a buffer descriptor or address: only SSBO and UBO accesses may use it"
                ),
            );
        }
        if let Some(Known {
            sym: Sym::InvocationVec,
            ..
        }) = self.known.get(&v.0)
        {
            return whole_invocation_vector(c, v, at);
        }
        Ok(())
    }

    /// The symbolic value of an IR value, if it has one.
    fn affine_of(&self, v: ValueId) -> Option<Affine> {
        match self.known.get(&v.0)?.sym {
            Sym::Affine(a) => Some(a),
            // Read as `.x`: the invocation index.
            Sym::InvocationVec => Some(Affine::INVOCATION),
            _ => None,
        }
    }

    fn resolve(&self, c: &Cur, s: &SwzSrc) -> PResult<Operand> {
        let known = self.known.get(&s.value.0).copied();
        let Some((swz, dot)) = &s.swizzle else {
            return match known {
                Some(Known {
                    sym: Sym::InvocationVec,
                    ..
                }) => whole_invocation_vector(c, s.value, s.at),
                Some(k) if !k.real => Ok(Operand::Virtual(k.sym)),
                _ => Ok(Operand::Real(s.value)),
            };
        };
        let bad = || {
            error(
                c.line,
                col_of(c, *dot),
                "vector components (`.x`, swizzles) are not modelled: the IR is scalar".into(),
            )
        };
        match known.map(|k| k.sym) {
            Some(Sym::InvocationVec) => {
                if swz == "x" {
                    Ok(Operand::Real(s.value))
                } else {
                    error(
                        c.line,
                        col_of(c, *dot),
                        format!("`.{swz}` of the invocation id: only `.x` (a one-dimensional workgroup) is modelled"),
                    )
                }
            }
            Some(Sym::Descriptor { buffer, comps }) => {
                let index = &"xyz"[..usize::from(comps) - 1];
                let offset = &"xyzw"[usize::from(comps) - 1..usize::from(comps)];
                if swz == index {
                    Ok(Operand::Virtual(Sym::Index(buffer)))
                } else if swz == offset {
                    Ok(Operand::Virtual(Sym::Affine(Affine::constant(0))))
                } else {
                    error(
                        c.line,
                        col_of(c, *dot),
                        format!("`.{swz}` of a {comps}-component descriptor: expected `.{index}` (the buffer index) or `.{offset}` (the offset)"),
                    )
                }
            }
            _ => bad(),
        }
    }

    /// An ALU line. `srcs` as written; `op_name` as NIR names it. Returns
    /// `None` when every source is an IR value (the caller builds the
    /// instruction), or the statement for an address-only line.
    pub(super) fn alu(
        &mut self,
        c: &Cur,
        op_name: &str,
        name_at: usize,
        dest: Def,
        comps: u8,
        srcs: &[SwzSrc],
    ) -> PResult<Option<Vec<ValueId>>> {
        let mut ops = Vec::with_capacity(srcs.len());
        for s in srcs {
            ops.push(self.resolve(c, s)?);
        }
        let all_real = ops.iter().all(|o| matches!(o, Operand::Real(_)));
        // `mov` and `amul` are not IR ops: only addresses have them.
        if all_real && !matches!(op_name, "mov" | "amul") && comps == 1 {
            return Ok(Some(
                ops.into_iter()
                    .map(|o| match o {
                        Operand::Real(v) => v,
                        Operand::Virtual(_) => unreachable!("checked above"),
                    })
                    .collect(),
            ));
        }
        // Address arithmetic that exists only here.
        for o in &ops {
            if let Operand::Real(v) = o {
                self.feeds_address.push(*v);
            }
        }
        let affine = |o: &Operand| match o {
            Operand::Real(v) => self.affine_of(*v),
            Operand::Virtual(Sym::Affine(a)) => Some(*a),
            Operand::Virtual(_) => None,
        };
        let sym = match (op_name, ops.as_slice()) {
            ("mov", [Operand::Virtual(s)]) => Some(*s),
            ("mov", [o]) => match affine(o) {
                Some(a) => Some(Sym::Affine(a)),
                None => {
                    return error(
                        c.line,
                        col_of(c, name_at),
                        "`mov` of a value is not modelled (the IR has no moves; copy propagation removes them) except on buffer descriptors and addresses".into(),
                    )
                }
            },
            ("iadd" | "imul" | "amul" | "ishl", [a, b]) => {
                Affine::combine(op_name, affine(a), affine(b)).map(Sym::Affine)
            }
            _ => {
                return error(
                    c.line,
                    col_of(c, name_at),
                    format!("`{op_name}` on a buffer descriptor or address: only mov, iadd, imul, amul and ishl are modelled there, on constants and the invocation index"),
                )
            }
        };
        let Some(sym) = sym else {
            return error(
                c.line,
                col_of(c, name_at),
                format!("`{op_name}` makes an address that is not a constant plus a constant times the invocation index"),
            );
        };
        let shape_ok = match sym {
            Sym::Index(_) => comps <= 2,
            Sym::Descriptor { comps: n, .. } => comps == n,
            _ => comps == 1,
        };
        if dest.bits != 32 || !shape_ok {
            return error(
                c.line,
                col_of(c, name_at),
                format!(
                    "`{op_name}` makes a {}x{comps} value from a buffer descriptor or address: that shape is not one of the address formats",
                    dest.bits
                ),
            );
        }
        self.define(dest.id, sym, false);
        Ok(None)
    }

    /// Follows an IR instruction whose result may feed an address.
    pub(super) fn after_real(&mut self, i: &Instr) {
        let Some(d) = i.dest else { return };
        let a = |k: usize| self.affine_of(i.srcs[k]);
        let r = match i.op {
            Op::LoadConst if d.bits == 32 => Some(Affine::constant(i.imm as i64)),
            Op::InvocationId => Some(Affine::INVOCATION),
            Op::Iadd | Op::Imul | Op::Ishl => Affine::combine(i.op.info().name, a(0), a(1)),
            _ => None,
        };
        if let Some(r) = r {
            self.define(d.id, Sym::Affine(r), true);
        }
    }

    /// The slot of `key`, numbered on first use. Stores' keys have size 0
    /// until [`Mem::finish`] knows the stored values' sizes, so they are
    /// matched without it.
    fn slot(&mut self, key: Key, kind: SlotKind) -> u64 {
        let of_kind = self.mapped.iter().filter(|m| m.kind == kind);
        let mut n = 0;
        for m in of_kind {
            if m.key == key {
                return (self.base[kind as usize] + n) as u64;
            }
            n += 1;
        }
        self.mapped.push(Mapped { key, kind });
        (self.base[kind as usize] + n) as u64
    }
}
