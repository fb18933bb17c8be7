//! Statements and control flow: the statement loop, ifs with phis at the
//! join, bounded loops with carried phis, extra breaks and continues, and
//! partial stores inside divergent control flow.

use crate::gen::{Gen, Kind, LoopCtx, Val};
use ir::op::Op;
use ir::{Jump, PhiHandle, SlotType, ValueId};

impl Gen<'_> {
    /// Generates a list of statements with about `budget` instructions.
    pub(crate) fn body(&mut self, budget: u32) {
        let mut left = budget.max(1);
        while left > 0 && self.fuel > 0 {
            let can_nest = self.depth < self.f.knobs.max_depth;
            let weights = [
                20,
                if self.f.knobs.ifs && can_nest { 3 } else { 0 },
                if self.f.knobs.loops && can_nest { 2 } else { 0 },
                if self.outputs.is_empty() { 0 } else { 1 },
                // Only where some lanes run: a demote or terminate of every
                // lane would leave the rest of the program nothing to store.
                if self.f.knobs.helpers && self.divergence > 0 {
                    1
                } else {
                    0
                },
            ];
            let spend = match self.e.weighted(&weights) {
                0 => {
                    let op = self.random_op();
                    self.gen_op(op);
                    1
                }
                1 => {
                    let sub = (left / 2).max(2);
                    self.gen_if(sub);
                    sub
                }
                2 => {
                    let sub = (left / 2).max(3);
                    self.gen_loop(sub);
                    sub
                }
                3 => {
                    self.partial_store();
                    1
                }
                _ => {
                    self.helper_statement();
                    1
                }
            };
            left = left.saturating_sub(spend);
            self.fuel = self.fuel.saturating_sub(spend.min(self.fuel));
        }
    }

    /// A helper-invocation statement (seed 004), in divergent control flow:
    /// `is_helper_invocation` (a boolean for later ops), `demote`, or where
    /// the case has no quad ops or the quads stay whole, `terminate`.
    fn helper_statement(&mut self) {
        let quad_ops = self.f.ops.iter().any(|op| op.reads_quad());
        let may_terminate = self.quad_divergence == 0 || !quad_ops;
        match self.e.below(if may_terminate { 3 } else { 2 }) {
            0 => {
                self.emit(Op::IsHelperInvocation, 1, &[]);
            }
            1 => {
                self.stats.demotes += 1;
                self.b.effect(Op::Demote);
            }
            _ => {
                self.stats.terminates += 1;
                self.b.effect(Op::Terminate);
            }
        }
    }

    /// Stores a value to a random output slot (inside control flow this
    /// writes only the active lanes).
    fn partial_store(&mut self) {
        let slot = self.e.below(self.outputs.len() as u64);
        let ty = self.outputs[slot as usize];
        let v = self.value_of_type(ty);
        self.use_val(v);
        self.b.store_output(slot, v);
    }

    /// A value of a slot type.
    pub(crate) fn value_of_type(&mut self, ty: SlotType) -> ValueId {
        let kind = if ty == SlotType::Bool {
            Kind::Bool { origin: 32 }
        } else if ty.is_float() {
            Kind::Float
        } else {
            Kind::Int
        };
        self.pick(ty.bits(), kind)
    }

    /// Ends an arm with a jump, sometimes, inside a loop.
    fn maybe_jump(&mut self) -> bool {
        // A jump that splits quads would break a quad-whole loop.
        let splits_quads =
            self.quad_divergence > 0 && self.loops.last().is_some_and(|l| l.quad_whole);
        if !self.f.knobs.jumps || self.loops.is_empty() || splits_quads || !self.e.chance(1, 4) {
            return false;
        }
        self.stats.jumps += 1;
        if self.e.chance(1, 2) {
            let block = self.b.current_block();
            let carried: Vec<(PhiHandle, u8)> =
                self.loops.last().expect("in a loop").carried.clone();
            let vals: Vec<ValueId> = carried
                .iter()
                .map(|&(h, bits)| self.carried_value(h, bits))
                .collect();
            self.loops
                .last_mut()
                .expect("in a loop")
                .continues
                .push((block, vals));
            self.b.jump(Jump::Continue);
        } else {
            self.b.jump(Jump::Break);
        }
        true
    }

    /// The value a carried phi takes on a back edge: some value of its size.
    fn carried_value(&mut self, h: PhiHandle, bits: u8) -> ValueId {
        if self.e.chance(1, 4) {
            return h.value;
        }
        let kind = self
            .kinds
            .get(h.value.0 as usize)
            .copied()
            .unwrap_or(Kind::Int);
        let v = self.pick(bits, kind);
        self.use_val(v);
        v
    }

    fn gen_if(&mut self, budget: u32) {
        let cond = self.if_condition();
        self.use_val(cond);
        let divergent = !self.is_uniform(cond);
        let quad_divergent = !self.is_quad_uniform(cond);
        self.depth += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        self.divergence += divergent as u32;
        self.quad_divergence += quad_divergent as u32;
        self.b.begin_if(cond);
        self.scopes.push(vec![]);
        self.body(budget / 2);
        let then_jumped = self.maybe_jump();
        let then_end = self.b.current_block();
        let then_vals = self.scopes.pop().expect("pushed");
        self.b.begin_else();
        self.scopes.push(vec![]);
        self.body(budget / 2);
        let else_jumped = !then_jumped && self.maybe_jump();
        let else_end = self.b.current_block();
        let else_vals = self.scopes.pop().expect("pushed");
        self.b.end_if();
        self.divergence -= divergent as u32;
        self.quad_divergence -= quad_divergent as u32;
        self.depth -= 1;
        // Phis at the join, preferring values made in the arms. Sources must
        // dominate the arm ends, so new phis join the scope only afterwards.
        let outer_all: Vec<Val> = self.visible().copied().collect();
        let mut new_phis = Vec::new();
        for _ in 0..self.e.range(0, 3) {
            let bits = if self.e.chance(1, 3) {
                1
            } else {
                self.pick_size(ir::SizeSet::INT, false).unwrap_or(32)
            };
            let mut srcs = Vec::new();
            let mut origins = Vec::new();
            let mut kind = Kind::Int;
            for (jumped, end, vals) in [
                (then_jumped, then_end, &then_vals),
                (else_jumped, else_end, &else_vals),
            ] {
                if jumped {
                    continue;
                }
                let local: Vec<Val> = vals.iter().copied().filter(|v| v.bits == bits).collect();
                let v = if !local.is_empty() && self.e.chance(3, 4) {
                    local[self.e.below(local.len() as u64) as usize]
                } else {
                    let outer: Vec<Val> = outer_all
                        .iter()
                        .filter(|v| v.bits == bits)
                        .copied()
                        .collect();
                    if outer.is_empty() {
                        continue;
                    }
                    outer[self.e.below(outer.len() as u64) as usize]
                };
                self.use_val(v.id);
                if let Kind::Bool { origin } = v.kind {
                    origins.push(origin);
                }
                kind = v.kind;
                srcs.push((end, v.id));
            }
            let preds = 2 - then_jumped as usize - else_jumped as usize;
            if srcs.len() != preds {
                continue;
            }
            if origins.len() == 2 && origins[0] != origins[1] {
                self.stats.mixed_width_bool_phis += 1;
            }
            let id = self.b.phi(bits, &srcs);
            let uniform = !divergent && srcs.iter().all(|(_, v)| self.is_uniform(*v));
            new_phis.push((id, bits, kind, uniform));
        }
        for (id, bits, kind, uniform) in new_phis {
            self.record(id, bits, kind, uniform);
        }
    }

    fn gen_loop(&mut self, budget: u32) {
        let pre = self.b.current_block();
        let zero = self.konst(32, 0);
        let one = self.konst(32, 1);
        // The trip bound: a constant (uniform exit) or clamped per-lane value.
        let trip = self.f.knobs.max_trip as u64;
        let bound = match self.e.below(3) {
            0 => {
                let k = self.e.range(0, trip);
                self.konst(32, k)
            }
            1 => {
                let x = self.pick(32, Kind::Int);
                let t = self.konst(32, trip);
                self.emit(Op::Umin, 32, &[x, t])
            }
            _ => {
                let x = self.pick(32, Kind::Int);
                let m = self.konst(32, (1u64 << (63 - trip.leading_zeros())) - 1);
                self.emit(Op::Iand, 32, &[x, m])
            }
        };
        let divergent = !self.is_uniform(bound);
        if divergent {
            self.stats.non_uniform_loop_exits += 1;
        }
        // Initial values of carried phis come from before the loop.
        let ncarried = self.e.range(0, 2) as usize;
        let mut inits = Vec::new();
        for _ in 0..ncarried {
            let bits = if self.e.chance(1, 4) {
                1
            } else {
                self.pick_size(ir::SizeSet::INT.union(ir::SizeSet::FLOAT), false)
                    .unwrap_or(32)
            };
            let kind = if bits == 1 {
                Kind::Bool { origin: 32 }
            } else {
                Kind::Int
            };
            let v = self.pick(bits, kind);
            self.use_val(v);
            inits.push((v, bits));
        }
        self.depth += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        // With quad ops in the case, half the loops that may keep their
        // quads whole do.
        let quad_whole = self.quad_divergence == 0
            && self.is_quad_uniform(bound)
            && self.f.ops.iter().any(|op| op.reads_quad())
            && self.e.chance(1, 2);
        self.divergence += 1;
        self.quad_divergence += !quad_whole as u32;
        self.b.begin_loop();
        self.scopes.push(vec![]);
        let i = self.b.phi_placeholder(32);
        self.record(i.value, 32, Kind::Int, !divergent);
        let mut carried = Vec::new();
        for &(init, bits) in &inits {
            let h = self.b.phi_placeholder(bits);
            let kind = self.kinds[init.0 as usize];
            self.record(h.value, bits, kind, false);
            carried.push((h, bits));
        }
        let header_cross = self.header_ops();
        let done = self.emit(Op::Uge, 1, &[i.value, bound]);
        // Header values (the phis and the exit test) dominate the exit.
        let header_vals = self.scopes.last().expect("pushed").clone();
        self.b.begin_if(done);
        self.b.jump(Jump::Break);
        self.b.begin_else();
        self.b.end_if();
        let next_i = self.emit(Op::Iadd, 32, &[i.value, one]);
        self.loops.push(LoopCtx {
            next_i,
            carried: carried.clone(),
            continues: vec![],
            quad_whole,
        });
        self.body(budget);
        let latch = self.b.current_block();
        let latch_vals: Vec<ValueId> = carried
            .iter()
            .map(|&(h, bits)| self.carried_value(h, bits))
            .collect();
        let ctx = self.loops.pop().expect("pushed");
        self.b.end_loop();
        self.scopes.pop();
        self.divergence -= 1;
        self.quad_divergence -= !quad_whole as u32;
        self.depth -= 1;
        let mut i_srcs = vec![(pre, zero), (latch, ctx.next_i)];
        for (blk, _) in &ctx.continues {
            i_srcs.push((*blk, ctx.next_i));
        }
        self.b.set_phi_srcs(i, &i_srcs);
        for (k, &(h, _)) in carried.iter().enumerate() {
            let mut srcs = vec![(pre, inits[k].0), (latch, latch_vals[k])];
            for (blk, vals) in &ctx.continues {
                srcs.push((*blk, vals[k]));
            }
            self.b.set_phi_srcs(h, &srcs);
        }
        // Lanes leave at different iterations and keep their own values:
        // after a non-uniform exit even a ballot differs between lanes, and
        // unless the loop kept its quads whole (its exit and jumps the same
        // within each quad), the lanes of a quad may differ too.
        for v in header_vals {
            if divergent {
                self.uniform[v.id.0 as usize] = false;
            }
            if !quad_whole {
                self.quad_uniform[v.id.0 as usize] = false;
            }
            self.scopes.last_mut().expect("outer scope").push(v);
        }
        self.convergence_twins(header_cross);
    }
}
