//! The end of the mapping: the stores' sizes, the faithfulness checks, the
//! slots' types and comments, and the removal of address arithmetic.

use super::{error, Access, Mem, SlotKind};
use crate::nir::{dest_type, src_type, NirType};
use crate::op::Op;
use crate::parse::PResult;
use crate::program::{Program, ValueId};
use crate::types::SlotType;
use std::collections::HashMap;

impl Mem {
    /// After the whole program is read: the stores' sizes, the checks, the
    /// slots' types, a comment per mapped slot, and the removal of address
    /// arithmetic nothing else reads.
    pub(in crate::parse) fn finish(mut self, p: &mut Program) -> PResult<()> {
        if self.mapped.is_empty() {
            return Ok(());
        }
        // A store's size is its value's, known now.
        let value_bits = p.value_bits();
        for m in 0..self.mapped.len() {
            if self.mapped[m].kind != SlotKind::Output {
                continue;
            }
            let old = self.mapped[m].key;
            let mut bits = None;
            for a in self
                .accesses
                .iter_mut()
                .filter(|a| a.is_store() && a.key == old)
            {
                // An undefined value (the validator names it) counts as 32-bit.
                let b = a
                    .value
                    .and_then(|v| value_bits.get(v.0 as usize).copied())
                    .filter(|&b| b != 0)
                    .unwrap_or(32);
                if b == 1 {
                    return error(
                        a.line,
                        a.col,
                        "a store of a 1-bit boolean: buffers hold bytes".into(),
                    );
                }
                if *bits.get_or_insert(b) != b {
                    return error(
                        a.line,
                        a.col,
                        format!(
                            "a {b}-bit store to bytes another store writes with {} bits",
                            bits.unwrap_or(b)
                        ),
                    );
                }
                a.key.bytes = u64::from(b / 8);
            }
            self.mapped[m].key.bytes = u64::from(bits.unwrap_or(32) / 8);
        }
        self.check()?;
        // Types: a float type when every use reads a float (for loads) or
        // the stored values are floats (for stores).
        for (kind, slots) in [
            (SlotKind::Input, &mut p.inputs),
            (SlotKind::Uniform, &mut p.uniforms),
            (SlotKind::Output, &mut p.outputs),
        ] {
            for m in self.mapped.iter().filter(|m| m.kind == kind) {
                let bits = (m.key.bytes * 8) as u8;
                let int = SlotType::int_of_bits(bits).expect("loads are 8 to 64 bits");
                slots.push(int);
            }
        }
        let float = float_slots(p, &self.base);
        for (kind, slots, base) in [
            (SlotKind::Input, &mut p.inputs, self.base[0]),
            (SlotKind::Uniform, &mut p.uniforms, self.base[1]),
            (SlotKind::Output, &mut p.outputs, self.base[2]),
        ] {
            for (s, t) in slots.iter_mut().enumerate().skip(base) {
                if float.contains(&(kind, s as u64)) {
                    if let Some(f) = SlotType::float_of_bits(t.bits()) {
                        *t = f;
                    }
                }
            }
        }
        // One comment per mapped slot, so the mapping stays visible.
        let mut counts = [0usize; 3];
        for m in &self.mapped {
            let n = self.base[m.kind as usize] + counts[m.kind as usize];
            counts[m.kind as usize] += 1;
            let what = match m.kind {
                SlotKind::Input => "input",
                SlotKind::Uniform => "uniform",
                SlotKind::Output => "output",
            };
            let b = m.key.buffer;
            let name = self
                .names
                .iter()
                .find(|(binding, ubo, _)| *binding == b.binding && *ubo == b.ubo)
                .map(|(_, _, n)| format!(" ({n})"))
                .unwrap_or_default();
            p.comments.push(format!(
                "{what} {n}: {} set {} binding {}{name}, {} bytes at offset {}",
                b.kind(),
                b.set,
                b.binding,
                m.key.bytes,
                m.key.at,
            ));
        }
        remove_unused_addresses(p, self.feeds_address);
        Ok(())
    }

    /// The checks that keep the mapping faithful (see the module doc).
    fn check(&self) -> PResult<()> {
        let at = |a: &Access, msg: String| error::<()>(a.line, a.col, msg);
        for a in &self.accesses {
            let b = a.key.buffer;
            let same: Vec<&Access> = self.accesses.iter().filter(|o| o.key.buffer == b).collect();
            let (c0, c1, bytes) = (a.key.at.c0, a.key.at.c1, a.key.bytes as i64);
            if c0 < 0 || c1 < 0 {
                at(a, format!("offset {} has a negative term: only non-negative offsets and strides are modelled", a.key.at))?;
            }
            if c1 == 0 {
                if a.is_store() {
                    at(a, format!("a store to the fixed offset {c0}: every invocation writes the same bytes"))?;
                }
            } else {
                if let Some(o) = same.iter().find(|o| o.key.at.c1 != 0 && o.key.at.c1 != c1) {
                    at(a, format!("{} binding {} is accessed with strides of {c1} and {} bytes per invocation (line {})", b.kind(), b.binding, o.key.at.c1, o.line))?;
                }
                if c0 + bytes > c1 {
                    at(a, format!("{bytes} bytes at offset {} reach into the next invocation's element (the stride is {c1} bytes): only each invocation's own element is modelled", a.key.at))?;
                }
            }
            for o in &same {
                let both = (o.key.at.c1 == 0) == (c1 == 0);
                let (oc0, ob) = (o.key.at.c0, o.key.bytes as i64);
                let overlap = c0 < oc0 + ob && oc0 < c0 + bytes;
                if both && overlap && o.key != a.key {
                    at(a, format!("{bytes} bytes at offset {} overlap the {ob} bytes at offset {} of the access at line {}", a.key.at, o.key.at, o.line))?;
                }
                if c1 == 0 && o.key.at.c1 != 0 && c0 + bytes > oc0 {
                    at(a, format!("the fixed bytes {c0}..+{bytes} may be an invocation's own element (those start at offset {}, line {})", o.key.at, o.line))?;
                }
            }
            if !a.is_store() {
                let shares_loop = |o: &Access| o.loops.iter().any(|l| a.loops.contains(l));
                if let Some(s) = same
                    .iter()
                    .find(|o| o.is_store() && o.key == a.key && (o.line < a.line || shares_loop(o)))
                {
                    at(a, format!("this load may read what the store at line {} wrote: reads after writes through memory are not modelled", s.line))?;
                }
            }
        }
        Ok(())
    }
}

/// The mapped slots (kind, slot) whose values are floats: for a load, every
/// use reads it as a float (an instruction source of a float type; a phi
/// or an `if` reads no type); for a store, every stored value is made as
/// one.
fn float_slots(p: &Program, base: &[usize; 3]) -> Vec<(SlotKind, u64)> {
    let mut loaded: HashMap<u32, (SlotKind, u64)> = HashMap::new();
    let mut made_float: HashMap<u32, bool> = HashMap::new();
    p.for_each_block(&mut |b| {
        for i in &b.instrs {
            if let Some(d) = i.dest {
                made_float.insert(d.id.0, dest_type(i.op, None) == NirType::Float);
                match i.op {
                    Op::LoadInput if i.imm >= base[0] as u64 => {
                        loaded.insert(d.id.0, (SlotKind::Input, i.imm));
                    }
                    Op::LoadUniform if i.imm >= base[1] as u64 => {
                        loaded.insert(d.id.0, (SlotKind::Uniform, i.imm));
                    }
                    _ => {}
                }
            }
        }
    });
    // Per slot: (uses, uses read as a float).
    let mut reads: HashMap<(SlotKind, u64), (u32, u32)> = HashMap::new();
    p.for_each_use(&mut |v| {
        if let Some(&k) = loaded.get(&v.0) {
            reads.entry(k).or_default().0 += 1;
        }
    });
    p.for_each_block(&mut |b| {
        for i in &b.instrs {
            if i.op == Op::StoreOutput && i.imm >= base[2] as u64 {
                let e = reads.entry((SlotKind::Output, i.imm)).or_default();
                e.0 += 1;
                e.1 += u32::from(made_float.get(&i.srcs[0].0).copied().unwrap_or(false));
            }
            for (k, v) in i.srcs.iter().enumerate() {
                if let Some(&key) = loaded.get(&v.0) {
                    if src_type(i.op, k, None) == NirType::Float {
                        reads.entry(key).or_default().1 += 1;
                    }
                }
            }
        }
    });
    reads
        .into_iter()
        .filter(|(_, (uses, float))| *uses > 0 && uses == float)
        .map(|(k, _)| k)
        .collect()
}

/// Removes the IR instructions that computed addresses (constants, the
/// invocation index and their sums, products and shifts) once nothing reads
/// them, and then what only they read.
fn remove_unused_addresses(p: &mut Program, mut candidates: Vec<ValueId>) {
    let pure_address = |op: Op| {
        matches!(
            op,
            Op::LoadConst | Op::InvocationId | Op::Iadd | Op::Imul | Op::Ishl
        )
    };
    while !candidates.is_empty() {
        let bound = p.value_bound();
        let mut candidate = vec![false; bound];
        for v in &candidates {
            if let Some(c) = candidate.get_mut(v.0 as usize) {
                *c = true;
            }
        }
        let mut used = vec![false; bound];
        p.for_each_use(&mut |v| {
            if let Some(u) = used.get_mut(v.0 as usize) {
                *u = true;
            }
        });
        let mut next = Vec::new();
        p.for_each_block_mut(&mut |b| {
            b.instrs.retain(|i| {
                let dead = i.dest.is_some_and(|d| {
                    !used[d.id.0 as usize] && candidate[d.id.0 as usize] && pure_address(i.op)
                });
                if dead {
                    next.extend(i.srcs.iter().copied());
                }
                !dead
            })
        });
        candidates = next;
    }
}
