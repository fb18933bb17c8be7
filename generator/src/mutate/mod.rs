//! Structured mutations of a case: small, validity-preserving edits that
//! move a case that reached a rare corner of the compiler to its
//! neighbours (the campaign's feedback loop). One table, one row per
//! mutator with its weight, in the style of the generator's op table.
//!
//! Every mutator keeps the program well-formed (SSA, sizes, structured
//! control flow) by construction; [`mutate`] still validates the result
//! and gives up on a program that does not validate. A mutant can be
//! *undefined* (an op swapped into a division whose divisor can be 0): the
//! caller runs the oracle and discards it, as the generator's guards cannot
//! follow an edit.

mod control;
mod substitute;

use crate::entropy::Entropy;
use crate::idioms::subtraction_compare;
use crate::values::{float_value, int_value, slot_value};
use control::{wrap_in_loop, wrap_store_in_if};
use ir::op::{OpClass, Sig, ValueKind};
use ir::{Block, Case, Def, Instr, Op, Program, ValueId};
use substitute::substitute;

/// One mutator: its name, weight and edit. The edit returns false when the
/// case has no site for it (the case is then unchanged).
pub struct Mutator {
    /// Its name (in the campaign's statistics).
    pub name: &'static str,
    /// Relative weight.
    pub weight: u32,
    /// The edit.
    pub apply: fn(&mut Case, &mut dyn Entropy) -> bool,
}

/// Every mutator.
pub static MUTATORS: &[Mutator] = &[
    Mutator {
        name: "op-swap",
        weight: 5,
        apply: op_swap,
    },
    Mutator {
        name: "const-edge",
        weight: 4,
        apply: const_edge,
    },
    Mutator {
        name: "input-edge",
        weight: 2,
        apply: input_edge,
    },
    Mutator {
        name: "size-round-trip",
        weight: 2,
        apply: size_round_trip,
    },
    Mutator {
        name: "swap-operands",
        weight: 2,
        apply: swap_operands,
    },
    Mutator {
        name: "negate-operand",
        weight: 2,
        apply: negate_operand,
    },
    Mutator {
        name: "add-reader",
        weight: 2,
        apply: add_reader,
    },
    Mutator {
        name: "twin",
        weight: 2,
        apply: twin,
    },
    Mutator {
        name: "interpose-unary",
        weight: 2,
        apply: interpose_unary,
    },
    Mutator {
        name: "wrap-store-in-if",
        weight: 1,
        apply: wrap_store_in_if,
    },
    Mutator {
        name: "wrap-in-loop",
        weight: 1,
        apply: wrap_in_loop,
    },
    Mutator {
        name: "substitute",
        weight: 2,
        apply: substitute,
    },
    Mutator {
        name: "move-instr",
        weight: 2,
        apply: move_instr,
    },
];

/// At most this many output slots after `add-reader`.
pub const MAX_OUTPUTS: usize = 8;

/// Applies 1 to `rounds` mutations to `case` and returns the mutant and
/// the mutators applied, or `None` when nothing applied or the result does
/// not validate.
pub fn mutate(case: &Case, e: &mut dyn Entropy, rounds: u32) -> Option<(Case, Vec<&'static str>)> {
    let mut c = case.clone();
    let weights: Vec<u32> = MUTATORS.iter().map(|m| m.weight).collect();
    let n = e.range(1, rounds.max(1) as u64);
    let mut applied = Vec::new();
    for _ in 0..n {
        // A few tries per round: a mutator may find no site.
        for _ in 0..4 {
            let m = &MUTATORS[e.weighted(&weights)];
            if (m.apply)(&mut c, e) {
                applied.push(m.name);
                break;
            }
        }
    }
    if applied.is_empty() || ir::validate(&c.program).is_err() {
        return None;
    }
    if let Some(d) = &c.dispatch {
        d.check(&c.program).ok()?;
    }
    Some((c, applied))
}

/// Whether `op` can define a value of `dest` bits from sources of `srcs` bits.
fn fits(op: Op, dest: u8, srcs: &[u8]) -> bool {
    let n = srcs.len();
    match op.info().sig {
        Sig::Same { srcs: k, sizes } => {
            n == k as usize && sizes.contains(dest) && srcs.iter().all(|&s| s == dest)
        }
        Sig::Compare { sizes } => {
            dest == 1 && n == 2 && srcs[0] == srcs[1] && sizes.contains(srcs[0])
        }
        Sig::Convert { from, to } => n == 1 && from.contains(srcs[0]) && to.contains(dest),
        Sig::Indexed { sizes } => {
            n == 2 && srcs[0] == dest && sizes.contains(dest) && srcs[1] == 32
        }
        Sig::Select { sizes } => {
            n == 3 && srcs[0] == 1 && srcs[1] == dest && srcs[2] == dest && sizes.contains(dest)
        }
        Sig::Fixed32 { srcs: k } => n == k as usize && dest == 32 && srcs.iter().all(|&s| s == 32),
        Sig::Nullary { sizes } => n == 0 && sizes.contains(dest),
        Sig::LoadSlot | Sig::StoreSlot | Sig::Effect => false,
    }
}

/// Ops a generated program may hold (ALU and subgroup ops).
fn generated(op: Op) -> bool {
    matches!(op.info().class, OpClass::Alu | OpClass::Subgroup)
}

/// The number of instructions satisfying `pred`, over every block in
/// program order.
fn count_sites(p: &Program, pred: &dyn Fn(&Instr) -> bool) -> usize {
    let mut n = 0;
    p.for_each_block(&mut |b| n += b.instrs.iter().filter(|i| pred(i)).count());
    n
}

/// Calls `f` on the block holding the `k`-th instruction satisfying `pred`
/// and that instruction's index.
fn at_site(
    p: &mut Program,
    k: usize,
    pred: &dyn Fn(&Instr) -> bool,
    f: &mut dyn FnMut(&mut Block, usize),
) {
    let mut left = k;
    let mut done = false;
    p.for_each_block_mut(&mut |b| {
        if done {
            return;
        }
        let hits: Vec<usize> = (0..b.instrs.len())
            .filter(|&i| pred(&b.instrs[i]))
            .collect();
        if left < hits.len() {
            f(b, hits[left]);
            done = true;
        } else {
            left -= hits.len();
        }
    });
}

/// Picks one of the sites satisfying `pred` uniformly (its index for
/// [`at_site`]), if there is one.
fn choose(p: &Program, e: &mut dyn Entropy, pred: &dyn Fn(&Instr) -> bool) -> Option<usize> {
    let n = count_sites(p, pred);
    (n > 0).then(|| e.below(n as u64) as usize)
}

/// Picks one of the sites `count` finds in the blocks (program order)
/// uniformly and calls `edit` with its block and its index among that
/// block's sites (false when there is none).
fn choose_at(
    p: &mut Program,
    e: &mut dyn Entropy,
    count: &dyn Fn(&Block) -> usize,
    edit: &mut dyn FnMut(&mut Block, usize, &mut dyn Entropy),
) -> bool {
    let mut total = 0;
    p.for_each_block(&mut |b| total += count(b));
    if total == 0 {
        return false;
    }
    let mut left = e.below(total as u64) as usize;
    let mut done = false;
    p.for_each_block_mut(&mut |b| {
        if done {
            return;
        }
        let n = count(b);
        if left < n {
            edit(b, left, &mut *e);
            done = true;
        } else {
            left -= n;
        }
    });
    true
}

/// Replaces an op by another of the same shape at the same sizes.
fn op_swap(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let bits = c.program.value_bits();
    let shape = |i: &Instr| -> Vec<u8> { i.srcs.iter().map(|s| bits[s.0 as usize]).collect() };
    let peers = |i: &Instr| -> Vec<Op> {
        let dest = i.dest.map_or(0, |d| d.bits);
        let srcs = shape(i);
        Op::all()
            .filter(|&o| o != i.op && generated(o) && fits(o, dest, &srcs))
            .filter(|&o| o.is_cross_invocation() == i.op.is_cross_invocation())
            .filter(|&o| o.reads_quad() == i.op.reads_quad())
            .collect()
    };
    let pred = |i: &Instr| generated(i.op) && !peers(i).is_empty();
    let mut choice = None;
    let Some(k) = choose(&c.program, e, &pred) else {
        return false;
    };
    at_site(&mut c.program, k, &pred, &mut |b, i| {
        choice = Some(peers(&b.instrs[i]))
    });
    let Some(options) = choice else { return false };
    let op = options[e.below(options.len() as u64) as usize];
    at_site(&mut c.program, k, &pred, &mut |b, i| b.instrs[i].op = op);
    true
}

/// An edge value of `bits` bits other than `old`: an integer edge, or a
/// float edge for float sizes, or the flipped boolean (`None` when a few
/// draws all give `old`).
fn edge_value(e: &mut dyn Entropy, bits: u8, old: u64) -> Option<u64> {
    if bits == 1 {
        return Some(old ^ 1);
    }
    (0..4)
        .map(|_| match bits {
            16 | 32 | 64 if e.chance(1, 2) => float_value(e, bits, 100),
            _ => int_value(e, bits, 100),
        })
        .find(|&v| v != old)
}

/// Sets a constant to an edge value of its size.
fn const_edge(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let pred = |i: &Instr| i.op == Op::LoadConst;
    let Some(k) = choose(&c.program, e, &pred) else {
        return false;
    };
    let mut changed = false;
    at_site(&mut c.program, k, &pred, &mut |b, i| {
        let ins = &mut b.instrs[i];
        let bits = ins.dest.map_or(32, |d| d.bits);
        if let Some(v) = edge_value(e, bits, ins.imm) {
            ins.imm = v;
            changed = true;
        }
    });
    changed
}

/// Sets one invocation's input (or a uniform) to an edge value.
fn input_edge(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let Some(d) = c.dispatch.as_mut() else {
        return false;
    };
    let p = &c.program;
    let slots = p.inputs.len() + p.uniforms.len();
    if slots == 0 {
        return false;
    }
    let s = e.below(slots as u64) as usize;
    let (ty, value) = if s < p.inputs.len() {
        let lane = e.below(d.invocations as u64) as usize;
        (p.inputs[s], &mut d.inputs[s][lane])
    } else {
        let u = s - p.inputs.len();
        (p.uniforms[u], &mut d.uniforms[u])
    };
    let old = *value;
    match (0..4).map(|_| slot_value(e, ty, 100)).find(|&v| v != old) {
        Some(v) => {
            *value = v;
            true
        }
        None => false,
    }
}

/// Inserts `ins` before instruction `i` of block `b` and returns its value.
fn insert_before(b: &mut Block, i: usize, ins: Instr) -> ValueId {
    let v = ins
        .dest
        .expect("an inserted instruction defines a value")
        .id;
    b.instrs.insert(i, ins);
    v
}

fn alu(op: Op, id: u32, bits: u8, srcs: Vec<ValueId>) -> Instr {
    Instr {
        op,
        dest: Some(Def {
            id: ValueId(id),
            bits,
        }),
        srcs,
        imm: 0,
    }
}

/// A source read as a value (not a shift count, index or select condition).
fn value_srcs(op: Op) -> std::ops::Range<usize> {
    match op.info().sig {
        Sig::Indexed { .. } => 0..1,
        Sig::Select { .. } => 1..3,
        sig => 0..sig.num_srcs(),
    }
}

/// Narrows a source to a smaller size and widens it back (sign or zero
/// extension): the value changes, the shape around it does not.
fn size_round_trip(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let bits = c.program.value_bits();
    let next = c.program.value_bound() as u32;
    let pred =
        |i: &Instr| value_srcs(i.op).any(|k| matches!(bits[i.srcs[k].0 as usize], 16 | 32 | 64));
    let Some(site) = choose(&c.program, e, &pred) else {
        return false;
    };
    at_site(&mut c.program, site, &pred, &mut |b, i| {
        let ks: Vec<usize> = value_srcs(b.instrs[i].op)
            .filter(|&k| matches!(bits[b.instrs[i].srcs[k].0 as usize], 16 | 32 | 64))
            .collect();
        let k = ks[e.below(ks.len() as u64) as usize];
        let v = b.instrs[i].srcs[k];
        let wide = bits[v.0 as usize];
        let narrow = [8u8, 16, 32]
            .into_iter()
            .filter(|&n| n < wide)
            .collect::<Vec<_>>();
        let n = narrow[e.below(narrow.len() as u64) as usize];
        let widen = if e.chance(1, 2) { Op::I2i } else { Op::U2u };
        let t = insert_before(b, i, alu(Op::U2u, next, n, vec![v]));
        let w = insert_before(b, i + 1, alu(widen, next + 1, wide, vec![t]));
        b.instrs[i + 2].srcs[k] = w;
    });
    true
}

/// Swaps the two value sources of a two-source op (same sizes).
fn swap_operands(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let pred = |i: &Instr| {
        generated(i.op)
            && matches!(
                i.op.info().sig,
                Sig::Same { srcs: 2, .. } | Sig::Compare { .. }
            )
            && i.srcs[0] != i.srcs[1]
    };
    let Some(k) = choose(&c.program, e, &pred) else {
        return false;
    };
    at_site(&mut c.program, k, &pred, &mut |b, i| {
        b.instrs[i].srcs.swap(0, 1)
    });
    true
}

/// The negation of a value `op` reads: `fneg` for a float, `ineg` for an
/// integer.
fn negation(op: Op) -> Option<Op> {
    match op.info().kinds.src {
        ValueKind::Float => Some(Op::Fneg),
        ValueKind::Int => Some(Op::Ineg),
        _ => None,
    }
}

/// Negates a value source (`ineg` or `fneg`, by what the op reads).
fn negate_operand(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let bits = c.program.value_bits();
    let next = c.program.value_bound() as u32;
    let neg_for = |i: &Instr| negation(i.op);
    let pred = |i: &Instr| {
        generated(i.op)
            && neg_for(i).is_some_and(|neg| {
                value_srcs(i.op).any(|k| {
                    fits(
                        neg,
                        bits[i.srcs[k].0 as usize],
                        &[bits[i.srcs[k].0 as usize]],
                    )
                })
            })
    };
    let Some(site) = choose(&c.program, e, &pred) else {
        return false;
    };
    at_site(&mut c.program, site, &pred, &mut |b, i| {
        let neg = neg_for(&b.instrs[i]).expect("the site has a negation");
        let ks: Vec<usize> = value_srcs(b.instrs[i].op)
            .filter(|&k| {
                let w = bits[b.instrs[i].srcs[k].0 as usize];
                fits(neg, w, &[w])
            })
            .collect();
        let k = ks[e.below(ks.len() as u64) as usize];
        let v = b.instrs[i].srcs[k];
        let n = insert_before(b, i, alu(neg, next, bits[v.0 as usize], vec![v]));
        b.instrs[i + 1].srcs[k] = n;
    });
    true
}

/// Puts a unary op (a float clamp, negation or absolute value; an integer
/// negation, absolute value or NOT) between an ALU result and every one of
/// its readers, so the op becomes the result's only reader: the shape
/// saturate, negate and abs propagation, CSE of modified values and
/// conditional-modifier folds decide on.
fn interpose_unary(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let next = c.program.value_bound() as u32;
    let unaries = |i: &Instr| -> Vec<Op> {
        let Some(d) = i.dest else { return vec![] };
        let ops: &[Op] = match i.op.info().kinds.result {
            ValueKind::Float => &[Op::Fsat, Op::Fneg, Op::Fabs],
            ValueKind::Int => &[Op::Ineg, Op::Iabs, Op::Inot],
            _ => &[],
        };
        ops.iter()
            .copied()
            .filter(|&u| d.bits > 1 && fits(u, d.bits, &[d.bits]))
            .collect()
    };
    let pred = |i: &Instr| generated(i.op) && !unaries(i).is_empty();
    let Some(site) = choose(&c.program, e, &pred) else {
        return false;
    };
    // The op is chosen at the site; every reader of the site's value then
    // reads the op's value instead, and the op goes in right after the site.
    let mut made = None;
    at_site(&mut c.program, site, &pred, &mut |b, i| {
        let ops = unaries(&b.instrs[i]);
        let op = ops[e.below(ops.len() as u64) as usize];
        let d = b.instrs[i].dest.expect("the site defines a value");
        made = Some((d.id, alu(op, next, d.bits, vec![d.id])));
    });
    let Some((old, unary)) = made else {
        return false;
    };
    let new = ValueId(next);
    c.program.for_each_use_mut(&mut |v| {
        if *v == old {
            *v = new;
        }
    });
    let mut unary = Some(unary);
    at_site(&mut c.program, site, &pred, &mut |b, i| {
        b.instrs.insert(i + 1, unary.take().expect("one site"));
    });
    true
}

/// A `store_output` of `v` to `slot`.
fn store(v: ValueId, slot: usize) -> Instr {
    Instr {
        op: Op::StoreOutput,
        dest: None,
        srcs: vec![v],
        imm: slot as u64,
    }
}

/// Runs `edit` at a site satisfying `pred` with the index of a new output
/// slot, which the edit stores a value of the size it returns to (false
/// when the case has no site or no room for another output).
fn with_new_output(
    c: &mut Case,
    e: &mut dyn Entropy,
    pred: &dyn Fn(&Instr) -> bool,
    edit: &mut dyn FnMut(&mut Block, usize, usize, &mut dyn Entropy) -> u8,
) -> bool {
    if c.program.outputs.len() >= MAX_OUTPUTS {
        return false;
    }
    let slot = c.program.outputs.len();
    let Some(site) = choose(&c.program, e, pred) else {
        return false;
    };
    let mut stored = None;
    at_site(&mut c.program, site, pred, &mut |b, i| {
        stored = Some(edit(b, i, slot, &mut *e));
    });
    match stored {
        Some(bits) => {
            c.program
                .outputs
                .push(ir::SlotType::int_of_bits(bits).expect("a value has an integer size"));
            true
        }
        None => false,
    }
}

/// Stores an interior value to a new output slot, right after it is made
/// (so the value escapes and cannot be folded away).
fn add_reader(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let pred = |i: &Instr| i.dest.is_some() && i.op != Op::LoadConst;
    with_new_output(c, e, &pred, &mut |b, i, slot, _| {
        let d = b.instrs[i].dest.expect("the site defines a value");
        b.instrs.insert(i + 1, store(d.id, slot));
        d.bits
    })
}

/// Copies a two-operand op (without a guard) right after itself, or after
/// the `fsat` that reads it later in its block; the copy's operands are a
/// quarter of the time swapped and a third of the time the first negated,
/// the copy is clamped when the original is, and it is stored to a new
/// output slot so it escapes. A float subtraction's copy is three times in
/// four a comparison of its operands selecting one of them
/// (`a < b ? a : b`), the `cmp` brw folds into the ADD. These are the
/// pairs CSE merges or must refuse (`sat(a * b)` next to `sat(-a * b)`,
/// `a + b` next to `b + a`), as the generator's `twin_percent` makes them,
/// here made from any case that reached a rare corner.
fn twin(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let bits = c.program.value_bits();
    let next = c.program.value_bound() as u32;
    let pred = |i: &Instr| {
        generated(i.op)
            && !crate::guards::has_guard(i.op)
            && matches!(
                i.op.info().sig,
                Sig::Same { srcs: 2, .. } | Sig::Compare { .. }
            )
    };
    with_new_output(c, e, &pred, &mut |b, i, slot, e| {
        let orig = b.instrs[i].clone();
        let d = orig.dest.expect("a two-operand op defines a value");
        let clamp = (i + 1..b.instrs.len())
            .find(|&j| b.instrs[j].op == Op::Fsat && b.instrs[j].srcs == [d.id]);
        let (mut x, mut y) = (orig.srcs[0], orig.srcs[1]);
        if e.chance(1, 4) {
            std::mem::swap(&mut x, &mut y);
        }
        let w = bits[x.0 as usize];
        let neg = negation(orig.op).filter(|&n| fits(n, w, &[w]));
        let mut at = clamp.unwrap_or(i) + 1;
        let mut id = next;
        let mut put = |b: &mut Block, op: Op, bits: u8, srcs: Vec<ValueId>| {
            let v = insert_before(b, at, alu(op, id, bits, srcs));
            at += 1;
            id += 1;
            v
        };
        if orig.op == Op::Fsub && e.chance(3, 4) {
            // As the generator's twin of a subtraction: a comparison of its
            // operands, selecting one of them.
            let cmp = subtraction_compare(e, &|_| true).expect("every compare is allowed");
            let c = put(b, cmp, 1, vec![x, y]);
            let v = put(b, Op::Bcsel, d.bits, vec![c, x, y]);
            b.instrs.insert(at, store(v, slot));
            return d.bits;
        }
        if let Some(n) = neg.filter(|_| e.chance(1, 3)) {
            x = put(b, n, w, vec![x]);
        }
        let mut v = put(b, orig.op, d.bits, vec![x, y]);
        if clamp.is_some() {
            v = put(b, Op::Fsat, d.bits, vec![v]);
        }
        b.instrs.insert(at, store(v, slot));
        d.bits
    })
}

/// Moves an instruction earlier or later inside its block, past
/// instructions it does not depend on (a compare past another flag-making
/// compare, a subgroup op past ALU work); stores keep their order.
fn move_instr(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let movable = |b: &Block, i: usize| -> (usize, usize) {
        let ins = &b.instrs[i];
        let mut lo = i;
        while lo > 0 {
            let prev = &b.instrs[lo - 1];
            let defines_src = prev.dest.is_some_and(|d| ins.srcs.contains(&d.id));
            let both_stores = prev.op == Op::StoreOutput && ins.op == Op::StoreOutput;
            if defines_src || both_stores {
                break;
            }
            lo -= 1;
        }
        let mut hi = i;
        while hi + 1 < b.instrs.len() {
            let next = &b.instrs[hi + 1];
            let uses = ins.dest.is_some_and(|d| next.srcs.contains(&d.id));
            let both_stores = next.op == Op::StoreOutput && ins.op == Op::StoreOutput;
            if uses || both_stores {
                break;
            }
            hi += 1;
        }
        (lo, hi)
    };
    let mut sites = 0usize;
    c.program.for_each_block(&mut |b| {
        sites += (0..b.instrs.len())
            .filter(|&i| movable(b, i) != (i, i))
            .count();
    });
    if sites == 0 {
        return false;
    }
    let mut k = e.below(sites as u64) as usize;
    let mut done = false;
    c.program.for_each_block_mut(&mut |b| {
        if done {
            return;
        }
        for i in 0..b.instrs.len() {
            let (lo, hi) = movable(b, i);
            if (lo, hi) == (i, i) {
                continue;
            }
            if k > 0 {
                k -= 1;
                continue;
            }
            let mut to = lo + e.below((hi - lo) as u64) as usize;
            if to >= i {
                to += 1;
            }
            let ins = b.instrs.remove(i);
            b.instrs.insert(to, ins);
            done = true;
            return;
        }
    });
    done
}

#[cfg(test)]
mod tests;
