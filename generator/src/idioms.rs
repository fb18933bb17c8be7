//! Shapes the backend's peephole passes look for, made on purpose rather
//! than left to chance: operand echoes (a two-operand op reusing a recent
//! one's operands), `fsat` wrapping, fresh and negated if conditions, and
//! ops in a loop's header that stay live after the loop.

use crate::entropy::Entropy;
use crate::gen::{Gen, Kind};
use ir::op::{Op, OpClass, Sig};
use ir::ValueId;

/// How many recent operand pairs an echo may choose from.
const ECHO_WINDOW: usize = 32;

/// The operands of a recent two-operand op.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Echo {
    bits: u8,
    kind: Kind,
    a: ValueId,
    b: ValueId,
}

/// A comparison for the twin of a float subtraction, among those `enabled`
/// (None if none is): half the time `flt`, because brw folds a compare
/// into the ADD computing `a - b` only for .l and .g (infinities break the
/// others), so the fold's own outcomes need it as much as its infinity
/// refusal needs the rest.
pub(crate) fn subtraction_compare(e: &mut dyn Entropy, enabled: &dyn Fn(Op) -> bool) -> Option<Op> {
    let compares: Vec<Op> = [Op::Flt, Op::Fge, Op::Feq, Op::Fneu]
        .into_iter()
        .filter(|&c| enabled(c))
        .collect();
    if compares.is_empty() {
        return None;
    }
    Some(if compares.contains(&Op::Flt) && e.chance(1, 2) {
        Op::Flt
    } else {
        compares[e.below(compares.len() as u64) as usize]
    })
}

/// Whether a value of kind `have` may stand where `want` is asked for
/// (booleans of any origin are interchangeable).
pub(crate) fn kind_fits(have: Kind, want: Kind) -> bool {
    matches!((have, want), (Kind::Bool { .. }, Kind::Bool { .. })) || have == want
}

impl Gen<'_> {
    /// Two operands of `bits` bits for a two-operand op: an echo of a recent
    /// pair `echo_percent`% of the time (when one is in scope), else two
    /// fresh picks. The pair just used is remembered either way.
    pub(crate) fn operand_pair(&mut self, bits: u8, kind: Kind) -> (ValueId, ValueId) {
        let (a, b) = match self.echo(bits, kind) {
            Some(pair) => pair,
            None => (self.pick(bits, kind), self.pick(bits, kind)),
        };
        if self.echoes.len() == ECHO_WINDOW {
            self.echoes.remove(0);
        }
        self.echoes.push(Echo { bits, kind, a, b });
        (a, b)
    }

    /// After `op` made a value from `srcs` (a two-operand op without a
    /// guard), `twin_percent`% of the time the same op again on the same
    /// operands, maybe swapped or with one negated, clamped with `fsat`
    /// exactly when the first was (and then, as the first, usually its
    /// clamp's only reader): the pairs CSE merges (and must not merge, as
    /// `sat(-a * b)` and `-sat(a * b)`). After a float subtraction the
    /// twin is three times in four a comparison of its operands instead
    /// ([`subtraction_compare`], a quarter of the time swapped), right
    /// after it (and its clamp), three times in four selecting a value right
    /// away: the `cmp a, b` that cmod propagation folds into the ADD
    /// computing `a - b`, which must come first.
    pub(crate) fn maybe_twin(
        &mut self,
        op: Op,
        bits: u8,
        kind: Kind,
        srcs: [ValueId; 2],
        saturated: bool,
    ) {
        if crate::guards::has_guard(op) || !self.e.chance(self.f.knobs.twin_percent as u64, 100) {
            return;
        }
        if op == Op::Fsub && self.e.chance(3, 4) {
            let ops = &self.f.ops;
            if let Some(cmp) = subtraction_compare(self.e, &|c| ops.contains(&c)) {
                let (a, b) = if self.e.chance(1, 4) {
                    (srcs[1], srcs[0])
                } else {
                    (srcs[0], srcs[1])
                };
                let c = self.emit(cmp, 1, &[a, b]);
                // Three times in four the comparison selects a value at once
                // and, three times in four, nothing else reads it, as in
                // `d = a - b; x = a < b ? y : z`: brw then compares into
                // the flag only, the shape the fold looks for.
                if self.f.ops.contains(&Op::Bcsel) && self.e.chance(3, 4) {
                    self.select_on(c);
                    if self.e.chance(3, 4) {
                        self.forget(c);
                    }
                }
                return;
            }
        }
        let (a, b) = self.vary(srcs[0], srcs[1], bits, kind);
        let twin = self.emit(op, bits, &[a, b]);
        if saturated {
            self.clamp(twin, bits);
        }
    }

    /// `(a, b)`, a quarter of the time swapped and a third of the time with
    /// its first operand negated (`fneg` or `ineg`, when the case's op set
    /// has it).
    fn vary(&mut self, mut a: ValueId, mut b: ValueId, bits: u8, kind: Kind) -> (ValueId, ValueId) {
        if self.e.chance(1, 4) {
            std::mem::swap(&mut a, &mut b);
        }
        let neg = if kind == Kind::Float {
            Op::Fneg
        } else {
            Op::Ineg
        };
        if bits > 1 && self.e.chance(1, 3) && self.f.ops.contains(&neg) {
            a = self.emit(neg, bits, &[a]);
        }
        (a, b)
    }

    /// A recent pair that is still in scope, varied (see [`Gen::vary`]).
    fn echo(&mut self, bits: u8, kind: Kind) -> Option<(ValueId, ValueId)> {
        if self.echoes.is_empty() || !self.e.chance(self.f.knobs.echo_percent as u64, 100) {
            return None;
        }
        let mut fits: Vec<Echo> = self
            .echoes
            .iter()
            .filter(|x| x.bits == bits && kind_fits(x.kind, kind))
            .copied()
            .collect();
        if !fits.is_empty() {
            // Only pairs of the right size need the (longer) scope check.
            let in_scope: Vec<ValueId> = self.visible().map(|v| v.id).collect();
            fits.retain(|x| in_scope.contains(&x.a) && in_scope.contains(&x.b));
        }
        if fits.is_empty() {
            return None;
        }
        let x = fits[self.e.below(fits.len() as u64) as usize];
        Some(self.vary(x.a, x.b, bits, kind))
    }

    /// `fsat(v)` `sat_percent`% of the time for a float result of an op
    /// other than `fsat`, else `v`; three times in four `v` then leaves the
    /// scope, so nothing else reads it.
    pub(crate) fn maybe_saturate(&mut self, op: Op, v: ValueId, bits: u8, kind: Kind) -> ValueId {
        if kind != Kind::Float
            || op == Op::Fsat
            || !self.f.ops.contains(&Op::Fsat)
            || !self.e.chance(self.f.knobs.sat_percent as u64, 100)
        {
            return v;
        }
        self.clamp(v, bits)
    }

    /// `v` leaves the innermost scope: nothing made later picks it.
    fn forget(&mut self, v: ValueId) {
        let scope = self.scopes.last_mut().expect("a scope is always open");
        scope.retain(|x| x.id != v);
    }

    /// `fsat(v)`; three times in four `v` then leaves the scope.
    fn clamp(&mut self, v: ValueId, bits: u8) -> ValueId {
        let sat = self.emit(Op::Fsat, bits, &[v]);
        // Usually the clamp is the raw value's only reader, as in
        // `clamp(a - b, 0.0, 1.0)`: only then may saturate propagation move
        // the `.sat` into the producer.
        if self.e.chance(3, 4) {
            self.forget(v);
        }
        sat
    }

    /// An if condition: `fresh_condition_percent`% of the time a new
    /// comparison, half of those negated with `inot`; else a picked boolean.
    pub(crate) fn if_condition(&mut self) -> ValueId {
        if !self
            .e
            .chance(self.f.knobs.fresh_condition_percent as u64, 100)
        {
            return self.pick(1, Kind::Bool { origin: 32 });
        }
        if self.f.ops.contains(&Op::QuadBroadcast)
            && self.valid_here(Op::QuadBroadcast)
            && self.e.chance(1, 4)
        {
            return self.quad_condition();
        }
        let combined = self.f.knobs.combined_condition_percent as u64;
        if combined > 0 && self.e.chance(combined, 100) {
            if let Some(c) = self.combined_condition() {
                return c;
            }
        }
        let c = self.make_compare();
        if self.f.ops.contains(&Op::Inot) && self.e.chance(1, 2) {
            return self.emit(Op::Inot, 1, &[c]);
        }
        c
    }

    /// Two comparisons of one op on operands picked first, combined with
    /// `ior` or `iand` (whichever the case enables); None when it enables
    /// neither.
    fn combined_condition(&mut self) -> Option<ValueId> {
        let combiners: Vec<Op> = [Op::Ior, Op::Iand]
            .into_iter()
            .filter(|op| self.f.ops.contains(op))
            .collect();
        if combiners.is_empty() {
            return None;
        }
        let combine = combiners[self.e.below(combiners.len() as u64) as usize];
        let op = self.compare_op();
        let Sig::Compare { sizes } = op.info().sig else {
            unreachable!("compare_op chooses a comparison")
        };
        let bits = self.pick_size(sizes, false).unwrap_or(32);
        let kind = self.operand_kind(op, bits);
        let (a, b) = self.operand_pair(bits, kind);
        let (c, d) = self.operand_pair(bits, kind);
        let x = self.emit(op, 1, &[a, b]);
        let y = self.emit(op, 1, &[c, d]);
        Some(self.emit(combine, 1, &[x, y]))
    }

    /// A condition the same in the four lanes of each quad but not across
    /// the subgroup (seed 004): a compare of one quad lane's value, so quad
    /// ops and derivatives may run in the `if` it opens.
    fn quad_condition(&mut self) -> ValueId {
        let x = self.pick(32, Kind::Int);
        let k = self.e.below(4);
        let k = self.konst(32, k);
        let q = self.emit(Op::QuadBroadcast, 32, &[x, k]);
        let y = self.pick(32, Kind::Int);
        let y = if self.is_quad_uniform(y) {
            y
        } else {
            self.emit(Op::QuadBroadcast, 32, &[y, k])
        };
        self.emit(Op::Ilt, 1, &[q, y])
    }

    /// Up to `max_header_ops` ops for a loop header, half of them subgroup
    /// ops when the case has any (a ballot or vote whose per-lane value
    /// outlives a loop with a non-uniform exit). Returns the cross-invocation
    /// ops among them that are defined for any active lanes, with their
    /// sizes and operands, for [`Gen::convergence_twins`].
    pub(crate) fn header_ops(&mut self) -> Vec<(Op, u8, Vec<ValueId>)> {
        let n = self.e.range(0, self.f.knobs.max_header_ops as u64);
        let subgroup: Vec<Op> = self
            .rows
            .iter()
            .map(|r| r.op)
            .filter(|op| op.info().class == OpClass::Subgroup && self.valid_here(*op))
            .collect();
        let mut cross = Vec::new();
        for _ in 0..n {
            let op = if !subgroup.is_empty() && self.e.chance(1, 2) {
                subgroup[self.e.below(subgroup.len() as u64) as usize]
            } else {
                self.random_op()
            };
            let v = self.gen_op(op);
            cross.extend(self.cross_made(op, v));
        }
        cross
    }

    /// The op, size and operands of `v` if the last instruction made it
    /// with the cross-invocation op `op`, defined for any active lanes.
    fn cross_made(&self, op: Op, v: ValueId) -> Option<(Op, u8, Vec<ValueId>)> {
        if !op.is_cross_invocation() || op.may_be_undefined() {
            return None;
        }
        let i = self.b.last_instr()?;
        let d = i.dest.filter(|d| i.op == op && d.id == v)?;
        Some((op, d.bits, i.srcs.clone()))
    }

    /// After a loop, `twin_percent`% of the time each of `header`'s
    /// cross-invocation ops again, on the same operands (which the header
    /// defined or saw, so they dominate this point): the same op under
    /// another execution mask, which CSE, GCM and select peepholes must not
    /// merge with the one in the loop (seed 004).
    pub(crate) fn convergence_twins(&mut self, header: Vec<(Op, u8, Vec<ValueId>)>) {
        for (op, bits, srcs) in header {
            if self.e.chance(self.f.knobs.twin_percent as u64, 100) && self.valid_here(op) {
                self.emit(op, bits, &srcs);
            }
        }
    }
}
