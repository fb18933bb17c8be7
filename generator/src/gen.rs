//! The program generator: valid by construction. It tracks the values in
//! scope by size and kind, picks ops from the weighted table, and builds
//! nested ifs (uniform and non-uniform conditions), bounded loops (uniform and
//! per-lane exits, extra breaks and continues), phis at joins and loop
//! headers, partial stores inside divergent control flow, and finally folds
//! every unused value into the outputs so they depend on most of the program.

use crate::config::Features;
use crate::entropy::Entropy;
use crate::idioms::{kind_fits, Echo};
use crate::table::{rows, Row};
use crate::values::{float_value, int_value};
use ir::op::{Op, Sig, ValueKind};
use ir::{BlockId, Builder, PhiHandle, SlotType, ValueId};

/// A kind that fits a size: floats exist at 16/32/64 bits only, and every
/// 1-bit value is a boolean.
pub(crate) fn normalize(kind: Kind, bits: u8) -> Kind {
    match (kind, bits) {
        (Kind::Bool { .. }, 1) => kind,
        (_, 1) => Kind::Bool { origin: 32 },
        (Kind::Float, 16 | 32 | 64) => Kind::Float,
        _ => Kind::Int,
    }
}

/// What a value holds, so ops mostly get operands of their own kind (the
/// IR itself is untyped: any value of the right size is valid anywhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer.
    Int,
    /// A float.
    Float,
    /// A boolean made from operands of `origin` bits (its native width).
    Bool {
        /// The size of the comparison's operands (or 32).
        origin: u8,
    },
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Val {
    pub(crate) id: ValueId,
    pub(crate) bits: u8,
    pub(crate) kind: Kind,
}

pub(crate) struct LoopCtx {
    /// The loop counter plus one (every back edge carries it).
    pub(crate) next_i: ValueId,
    /// Carried values: header phis and their sizes.
    pub(crate) carried: Vec<(PhiHandle, u8)>,
    /// Continue sites: the block and the carried values at that point.
    pub(crate) continues: Vec<(BlockId, Vec<ValueId>)>,
    /// Every quad runs each iteration whole (entered with whole quads, a
    /// bound the same within each quad, and jumps only where the quads are
    /// whole), so quad ops and derivatives may run in it (seed 004's `dFdx`
    /// in a loop).
    pub(crate) quad_whole: bool,
}

/// Statistics of one generated program, for `farm gen --stats` and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    /// Deepest if/loop nesting reached.
    pub max_depth: u32,
    /// Subgroup ops emitted inside a non-uniform if or a loop.
    pub divergent_subgroup_ops: u32,
    /// Phis of booleans whose sources come from comparisons of different widths.
    pub mixed_width_bool_phis: u32,
    /// Loops whose exit depends on the lane.
    pub non_uniform_loop_exits: u32,
    /// Quad ops and derivatives emitted inside an `if` that splits the
    /// subgroup (its condition the same within each quad).
    pub divergent_quad_ops: u32,
    /// `demote`s emitted.
    pub demotes: u32,
    /// `terminate`s emitted.
    pub terminates: u32,
    /// Extra breaks and continues.
    pub jumps: u32,
}

pub(crate) struct Gen<'e> {
    pub(crate) e: &'e mut dyn Entropy,
    pub(crate) b: Builder,
    pub(crate) f: Features,
    pub(crate) rows: Vec<Row>,
    pub(crate) scopes: Vec<Vec<Val>>,
    pub(crate) kinds: Vec<Kind>,
    pub(crate) uses: Vec<u32>,
    pub(crate) loops: Vec<LoopCtx>,
    /// Values known to be the same in every lane (uniform).
    pub(crate) uniform: Vec<bool>,
    /// Depth of enclosing non-uniform ifs and loops.
    pub(crate) divergence: u32,
    /// Values known to be the same in the four lanes of each quad.
    pub(crate) quad_uniform: Vec<bool>,
    /// Depth of enclosing ifs whose condition may differ within a quad, and
    /// loops: quad ops and derivatives are generated only at depth 0, where
    /// every quad is whole (seed 004).
    pub(crate) quad_divergence: u32,
    pub(crate) fuel: u32,
    pub(crate) depth: u32,
    pub(crate) stats: GenStats,
    pick_depth: u32,
    pub(crate) outputs: Vec<SlotType>,
    /// Recent two-operand ops' operands, for echoes (`idioms.rs`).
    pub(crate) echoes: Vec<Echo>,
}

impl<'e> Gen<'e> {
    pub(crate) fn new(e: &'e mut dyn Entropy, f: Features, name: &str) -> Gen<'e> {
        let fuel = f.instrs;
        let allowed = f.ops.clone();
        let rows = rows()
            .into_iter()
            .filter(|r| allowed.contains(&r.op))
            .collect();
        Gen {
            e,
            b: Builder::new(name),
            f,
            rows,
            scopes: vec![vec![]],
            kinds: vec![],
            uses: vec![],
            loops: vec![],
            uniform: vec![],
            divergence: 0,
            quad_uniform: vec![],
            quad_divergence: 0,
            fuel,
            depth: 0,
            stats: GenStats::default(),
            pick_depth: 0,
            outputs: vec![],
            echoes: vec![],
        }
    }

    pub(crate) fn record(&mut self, id: ValueId, bits: u8, kind: Kind, uniform: bool) {
        let i = id.0 as usize;
        if self.kinds.len() <= i {
            self.kinds.resize(i + 1, Kind::Int);
            self.uses.resize(i + 1, 0);
            self.uniform.resize(i + 1, false);
            self.quad_uniform.resize(i + 1, false);
        }
        self.quad_uniform[i] = uniform;
        let kind = normalize(kind, bits);
        self.kinds[i] = kind;
        self.uniform[i] = uniform;
        self.scopes
            .last_mut()
            .expect("a scope is always open")
            .push(Val { id, bits, kind });
    }

    pub(crate) fn use_val(&mut self, v: ValueId) {
        if let Some(u) = self.uses.get_mut(v.0 as usize) {
            *u += 1;
        }
    }

    pub(crate) fn is_uniform(&self, v: ValueId) -> bool {
        self.uniform.get(v.0 as usize).copied().unwrap_or(false)
    }

    /// Whether `v` is the same in the four lanes of each quad.
    pub(crate) fn is_quad_uniform(&self, v: ValueId) -> bool {
        self.quad_uniform
            .get(v.0 as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Whether `op` may be generated here: quad ops and derivatives only
    /// where every quad is whole (no enclosing loop, no `if` whose condition
    /// may differ within a quad).
    pub(crate) fn valid_here(&self, op: Op) -> bool {
        !op.reads_quad() || self.quad_divergence == 0
    }

    /// The kind an op's result has: the op table's result kind, a boolean
    /// at 1 bit, and for ops that pass bits through (selects, broadcasts)
    /// the kind of the value passed.
    fn result_kind(op: Op, srcs: &[ValueId], kinds: &[Kind], bits: u8, src_bits: u8) -> Kind {
        if bits == 1 {
            return Kind::Bool {
                origin: if src_bits > 1 { src_bits } else { 32 },
            };
        }
        match op.info().kinds.result {
            ValueKind::Float => Kind::Float,
            ValueKind::Bits => {
                // A select's value sources follow its condition.
                let first = usize::from(matches!(op.info().sig, Sig::Select { .. }));
                srcs.get(first).map_or(Kind::Int, |v| kinds[v.0 as usize])
            }
            ValueKind::Int | ValueKind::Bool => Kind::Int,
        }
    }

    /// Emits an instruction and records its result.
    pub(crate) fn emit(&mut self, op: Op, bits: u8, srcs: &[ValueId]) -> ValueId {
        for &s in srcs {
            self.use_val(s);
        }
        let src_bits = srcs.first().map_or(32, |&s| self.b.bits_of(s));
        let id = self.b.alu_sized(op, bits, srcs);
        let kind = normalize(
            Self::result_kind(op, srcs, &self.kinds, bits, src_bits),
            bits,
        );
        let uniform = match op.info().class {
            ir::OpClass::Alu => srcs.iter().all(|&s| self.is_uniform(s)),
            _ => op.has_uniform_result(),
        };
        if op.is_cross_invocation() && self.divergence > 0 {
            self.stats.divergent_subgroup_ops += 1;
        }
        if op.reads_quad() && self.divergence > 0 {
            self.stats.divergent_quad_ops += 1;
        }
        let quad_uniform = match op.info().class {
            ir::OpClass::Alu => srcs.iter().all(|&s| self.is_quad_uniform(s)),
            _ => uniform || op == Op::QuadBroadcast,
        };
        self.record(id, bits, kind, uniform);
        self.quad_uniform[id.0 as usize] = quad_uniform;
        id
    }

    /// A constant (uniform by definition).
    pub(crate) fn konst(&mut self, bits: u8, v: u64) -> ValueId {
        let id = self.b.constant(bits, v);
        let kind = if bits == 1 {
            Kind::Bool { origin: 32 }
        } else {
            Kind::Int
        };
        self.record(id, bits, kind, true);
        id
    }

    pub(crate) fn edge_const(&mut self, bits: u8, kind: Kind) -> ValueId {
        let v = match (bits, kind) {
            (1, _) => self.e.below(2),
            (16 | 32 | 64, Kind::Float) => {
                float_value(self.e, bits, self.f.knobs.edge_percent.max(30))
            }
            _ => int_value(self.e, bits, self.f.knobs.edge_percent.max(30)),
        };
        let id = self.b.constant(bits, v);
        self.record(id, bits, normalize(kind, bits), true);
        id
    }

    pub(crate) fn visible(&self) -> impl Iterator<Item = &Val> {
        self.scopes.iter().flatten()
    }

    /// Picks an operand of `bits` bits, preferring `kind` and recent values;
    /// makes one (a constant, a conversion or a comparison) when none fits.
    pub(crate) fn pick(&mut self, bits: u8, kind: Kind) -> ValueId {
        // Making an operand may need operands (a comparison for a boolean);
        // past a small depth only constants are made, so this always ends,
        // even when exhausted fuzzer bytes answer every chance with yes.
        if self.pick_depth >= 3 {
            return self.edge_const(bits, kind);
        }
        self.pick_depth += 1;
        let v = self.pick_inner(bits, kind);
        self.pick_depth -= 1;
        v
    }

    fn pick_inner(&mut self, bits: u8, kind: Kind) -> ValueId {
        let same_size: Vec<Val> = self.visible().filter(|v| v.bits == bits).copied().collect();
        if !same_size.is_empty() && !self.e.chance(1, 10) {
            let preferred: Vec<Val> = same_size
                .iter()
                .copied()
                .filter(|v| kind_fits(v.kind, kind))
                .collect();
            let pool = if !preferred.is_empty() && self.e.chance(4, 5) {
                preferred
            } else {
                same_size
            };
            // Recent values half the time: dense def-use chains.
            let n = pool.len() as u64;
            let i = if self.e.chance(1, 2) {
                n - 1 - self.e.below(n.min(6))
            } else {
                self.e.below(n)
            };
            return pool[i as usize].id;
        }
        if bits == 1 {
            return self.make_compare();
        }
        // Convert an existing value of another size, or make a constant.
        let others: Vec<Val> = self
            .visible()
            .filter(|v| v.bits > 1 && v.bits != bits)
            .copied()
            .collect();
        if !others.is_empty() && self.e.chance(1, 2) {
            let v = others[self.e.below(others.len() as u64) as usize];
            return self.resize(v, bits, kind);
        }
        self.edge_const(bits, kind)
    }

    /// Converts `v` to `bits` (neither side 1-bit).
    pub(crate) fn resize(&mut self, v: Val, bits: u8, kind: Kind) -> ValueId {
        let float_ok = |b: u8| matches!(b, 16 | 32 | 64);
        let op = match (v.kind, kind) {
            (Kind::Float, Kind::Float) if float_ok(v.bits) && float_ok(bits) => Op::F2f,
            (Kind::Int, Kind::Float) if float_ok(bits) => {
                if self.e.chance(1, 2) {
                    Op::I2f
                } else {
                    Op::U2f
                }
            }
            _ => {
                if self.e.chance(1, 2) {
                    Op::I2i
                } else {
                    Op::U2u
                }
            }
        };
        if !self.f.ops.contains(&op) && !matches!(op, Op::I2i | Op::U2u) {
            return self.emit(Op::U2u, bits, &[v.id]);
        }
        self.emit(op, bits, &[v.id])
    }

    /// A comparison of two picked operands at an enabled size.
    pub(crate) fn make_compare(&mut self) -> ValueId {
        let op = self.compare_op();
        self.gen_op(op)
    }

    /// An enabled comparison op (`ine` when none is).
    pub(crate) fn compare_op(&mut self) -> Op {
        let compares: Vec<Op> = self
            .f
            .ops
            .iter()
            .copied()
            .filter(|op| matches!(op.info().sig, Sig::Compare { .. }))
            .collect();
        if compares.is_empty() {
            Op::Ine
        } else {
            compares[self.e.below(compares.len() as u64) as usize]
        }
    }

    /// An enabled size from `set` (never 1 unless `set` is only booleans).
    pub(crate) fn pick_size(&mut self, set: ir::SizeSet, allow_bool: bool) -> Option<u8> {
        let mut sizes: Vec<u8> = self
            .f
            .knobs
            .bit_sizes
            .iter()
            .copied()
            .filter(|&b| set.contains(b))
            .collect();
        if allow_bool && set.contains(1) && (sizes.is_empty() || self.e.chance(1, 3)) {
            return Some(1);
        }
        if sizes.is_empty() {
            return None;
        }
        sizes.sort_unstable();
        Some(sizes[self.e.below(sizes.len() as u64) as usize])
    }

    /// A shift count, bitfield offset or width: usually a constant near the edges.
    pub(crate) fn edge_count(&mut self) -> ValueId {
        if self.e.chance(2, 3) {
            let edges = [0u64, 1, 7, 8, 15, 16, 17, 24, 31, 32, 33, 63, 64];
            let v = if self.e.chance(3, 4) {
                edges[self.e.below(edges.len() as u64) as usize]
            } else {
                self.e.below(40)
            };
            self.konst(32, v)
        } else {
            self.pick(32, Kind::Int)
        }
    }

    /// An op from the case's table, by weight.
    pub(crate) fn random_op(&mut self) -> Op {
        let w: Vec<u32> = self
            .rows
            .iter()
            .map(|r| if self.valid_here(r.op) { r.weight } else { 0 })
            .collect();
        self.rows[self.e.weighted(&w)].op
    }

    /// The kind of operand `op` reads at `bits`: a boolean at 1 bit, else
    /// the op table's source kind (a float, or an integer).
    pub(crate) fn operand_kind(&self, op: Op, bits: u8) -> Kind {
        match (bits, op.info().kinds.src) {
            (1, _) => Kind::Bool { origin: 32 },
            (_, ValueKind::Float) => Kind::Float,
            _ => Kind::Int,
        }
    }

    /// `bcsel(c, a, b)` on two picked values of one size and kind.
    pub(crate) fn select_on(&mut self, c: ValueId) -> ValueId {
        let Sig::Select { sizes } = Op::Bcsel.info().sig else {
            unreachable!("bcsel is a select")
        };
        let bits = self.pick_size(sizes, true).unwrap_or(32);
        let kind = if bits == 1 {
            Kind::Bool { origin: 32 }
        } else if self.e.chance(1, 3) {
            Kind::Float
        } else {
            Kind::Int
        };
        let a = self.pick(bits, kind);
        let b = self.pick(bits, kind);
        self.emit(Op::Bcsel, bits, &[c, a, b])
    }

    /// Generates one op with operands and guards; returns its value.
    pub(crate) fn gen_op(&mut self, op: Op) -> ValueId {
        use Op::*;
        let sig = op.info().sig;
        let ik = Kind::Int;
        let bk = Kind::Bool { origin: 32 };
        match sig {
            Sig::Same { srcs, sizes } => {
                let bits = self.pick_size(sizes, true).unwrap_or(32);
                let kind = self.operand_kind(op, bits);
                let mut ops: Vec<ValueId> = if srcs == 2 {
                    let (a, b) = self.operand_pair(bits, kind);
                    vec![a, b]
                } else {
                    (0..srcs).map(|_| self.pick(bits, kind)).collect()
                };
                if matches!(op, Idiv | Irem | Imod | Udiv | Umod) {
                    ops[1] = self.safe_divisor(ops[1], bits);
                }
                let v = self.emit(op, bits, &ops);
                let made = self.maybe_saturate(op, v, bits, kind);
                if srcs == 2 {
                    self.maybe_twin(op, bits, kind, [ops[0], ops[1]], made != v);
                }
                made
            }
            Sig::Compare { sizes } => {
                let on_bools = matches!(op, Ieq | Ine) && self.e.chance(1, 4);
                let bits = self.pick_size(sizes, on_bools).unwrap_or(32);
                let kind = self.operand_kind(op, bits);
                let (a, b) = self.operand_pair(bits, kind);
                self.emit(op, 1, &[a, b])
            }
            Sig::Convert { from, to } => {
                let src_bits = self.pick_size(from, true).unwrap_or(32);
                let dst_bits = self.pick_size(to, true).unwrap_or(32);
                let src_kind = self.operand_kind(op, src_bits);
                let mut x = self.pick(src_bits, src_kind);
                if matches!(op, F2i | F2u) {
                    x = self.safe_float_to_int(x, src_bits, dst_bits, op == F2i);
                }
                self.emit(op, dst_bits, &[x])
            }
            Sig::Indexed { sizes } => {
                let bits = self.pick_size(sizes, op == ReadInvocation).unwrap_or(32);
                let kind = if bits == 1 { bk } else { ik };
                let a = self.pick(bits, kind);
                let idx = match op {
                    ExtractU8 | ExtractI8 => {
                        let k = self.e.below(bits as u64 / 8);
                        self.konst(32, k)
                    }
                    ExtractU16 | ExtractI16 => {
                        let k = self.e.below(bits as u64 / 16);
                        self.konst(32, k)
                    }
                    ReadInvocation => self.safe_lane_index(),
                    QuadBroadcast => self.safe_quad_index(),
                    _ => self.edge_count(),
                };
                self.emit(op, bits, &[a, idx])
            }
            Sig::Select { .. } => {
                let c = self.pick(1, bk);
                self.select_on(c)
            }
            Sig::Fixed32 { srcs } => {
                let ops: Vec<ValueId> = match op {
                    Bfm => vec![self.edge_count(), self.edge_count()],
                    Ibfe | Ubfe => vec![self.pick(32, ik), self.edge_count(), self.edge_count()],
                    IbitfieldExtract | UbitfieldExtract => {
                        let value = self.pick(32, ik);
                        let o = self.edge_count();
                        let w = self.edge_count();
                        let (o, w) = self.safe_insert_range(o, w);
                        vec![value, o, w]
                    }
                    BitfieldInsert => {
                        let base = self.pick(32, ik);
                        let ins = self.pick(32, ik);
                        let (o, w) = {
                            let o = self.edge_count();
                            let w = self.edge_count();
                            self.safe_insert_range(o, w)
                        };
                        vec![base, ins, o, w]
                    }
                    _ => (0..srcs).map(|_| self.pick(32, ik)).collect(),
                };
                self.emit(op, 32, &ops)
            }
            Sig::Nullary { sizes } => {
                let bits = sizes.sizes().next().unwrap_or(32);
                self.emit(op, bits, &[])
            }
            Sig::LoadSlot | Sig::StoreSlot | Sig::Effect => {
                unreachable!("I/O ops have no generator row")
            }
        }
    }
}
