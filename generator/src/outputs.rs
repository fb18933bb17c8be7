//! The whole program: slot declarations, entry loads, the body, and the
//! final stores that fold every unused value into the outputs, so the outputs
//! depend on most of the program.

use crate::gen::{Gen, GenStats, Kind, Val};
use ir::op::Op;
use ir::{SlotType, ValueId};

impl Gen<'_> {
    /// Generates a whole case program.
    pub(crate) fn program(
        mut self,
        ninputs: u32,
        nuniforms: u32,
        noutputs: u32,
    ) -> (ir::Program, GenStats) {
        let types = self.slot_types();
        for _ in 0..ninputs {
            let t = types[self.e.below(types.len() as u64) as usize];
            let slot = self.b.declare_input(t);
            let v = self.b.load_input(slot);
            let kind = if t == SlotType::Bool {
                Kind::Bool { origin: 32 }
            } else if t.is_float() {
                Kind::Float
            } else {
                Kind::Int
            };
            self.record(v, t.bits(), kind, false);
        }
        for _ in 0..nuniforms {
            let t = types[self.e.below(types.len() as u64) as usize];
            let slot = self.b.declare_uniform(t);
            let v = self.b.load_uniform(slot);
            let kind = if t == SlotType::Bool {
                Kind::Bool { origin: 32 }
            } else if t.is_float() {
                Kind::Float
            } else {
                Kind::Int
            };
            self.record(v, t.bits(), kind, true);
        }
        if self.e.chance(1, 2) {
            let v = self.emit(Op::InvocationId, 32, &[]);
            self.uniform[v.0 as usize] = false;
        }
        // The lane's index in its subgroup is a subgroup feature (drawn
        // either way, so that turning it off changes nothing else).
        if self.e.chance(1, 3) && self.f.knobs.subgroup {
            let v = self.emit(Op::SubgroupInvocation, 32, &[]);
            self.uniform[v.0 as usize] = false;
        }
        for _ in 0..noutputs {
            let t = if self.e.chance(2, 3) {
                SlotType::I32
            } else {
                types[self.e.below(types.len() as u64) as usize]
            };
            self.b.declare_output(t);
            self.outputs.push(t);
        }
        let budget = self.f.instrs;
        self.body(budget);
        self.fold_outputs();
        let p = self.b.finish_unchecked();
        (p, self.stats)
    }

    fn slot_types(&self) -> Vec<SlotType> {
        let mut v = vec![SlotType::Bool];
        for &b in &self.f.knobs.bit_sizes {
            v.extend(SlotType::int_of_bits(b));
            if self.f.ops.iter().any(|op| op.info().name.starts_with('f')) {
                v.extend(SlotType::float_of_bits(b));
            }
        }
        v
    }

    /// Stores every output, folding the unused values into them.
    fn fold_outputs(&mut self) {
        let unused: Vec<Val> = self
            .visible()
            .filter(|v| self.uses[v.id.0 as usize] == 0)
            .copied()
            .collect();
        let n = self.outputs.len();
        let mut groups: Vec<Vec<Val>> = vec![vec![]; n];
        for (k, v) in unused.into_iter().enumerate() {
            groups[k % n].push(v);
        }
        for (slot, group) in groups.into_iter().enumerate() {
            let ty = self.outputs[slot];
            let mut acc: Option<ValueId> = None;
            let fold_float = ty.is_float();
            for v in group {
                if fold_float && v.kind != Kind::Float {
                    continue;
                }
                let x = self.coerce_to_slot(v, ty);
                acc = Some(match acc {
                    None => x,
                    Some(a) if ty == SlotType::Bool => self.emit(Op::Ixor, 1, &[a, x]),
                    Some(a) if fold_float => {
                        let op = [Op::Fadd, Op::Fmin, Op::Fmax][self.e.below(3) as usize];
                        self.emit(op, ty.bits(), &[a, x])
                    }
                    Some(a) => {
                        let op = if self.e.chance(1, 2) {
                            Op::Ixor
                        } else {
                            Op::Iadd
                        };
                        self.emit(op, ty.bits(), &[a, x])
                    }
                });
            }
            let v = match acc {
                Some(v) => v,
                None => self.value_of_type(ty),
            };
            self.use_val(v);
            self.b.store_output(slot as u64, v);
        }
    }

    /// Converts a value to a slot type's size (bit-preserving where it can).
    fn coerce_to_slot(&mut self, v: Val, ty: SlotType) -> ValueId {
        let bits = ty.bits();
        if v.bits == bits {
            return v.id;
        }
        match (v.bits, bits) {
            (1, _) if ty.is_float() => self.emit(Op::B2f, bits, &[v.id]),
            (1, _) => self.emit(Op::B2i, bits, &[v.id]),
            (_, 1) if v.kind == Kind::Float => self.emit(Op::F2b, 1, &[v.id]),
            (_, 1) => self.emit(Op::I2b, 1, &[v.id]),
            _ if v.kind == Kind::Float && ty.is_float() => self.emit(Op::F2f, bits, &[v.id]),
            _ => self.emit(Op::U2u, bits, &[v.id]),
        }
    }
}
