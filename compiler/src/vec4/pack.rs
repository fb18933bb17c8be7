//! The vec4 lowering's vectorizer: which scalar IR instructions of a block
//! share one Align16 instruction, and the one-instruction form of each op
//! that can.
//!
//! Mesa's vec4 visitor received vector NIR (GLSL's vec2..vec4 values and
//! `nir_opt_vectorize`); the IR here is scalar, so the lowering packs
//! instead. In each block, up to four instructions with the same op and
//! result size are **grouped** when each one's sources are defined before
//! the group's first member (in an earlier block, or earlier in this one).
//! The group is emitted at its first member as one instruction writing
//! components x, y, z, w of a fresh vgrf (member k in component k); a
//! source position whose members' values are components of one register
//! is read through a swizzle, any other is **gathered** first by one
//! one-component MOV per member, the `vec4` op's MOVs that vec4 register
//! coalescing then folds into their producers. Constants are grouped too,
//! one MOV per distinct value with the writemask of its components, as
//! `nir_emit_load_const` does.
//!
//! A member joins only if the group then saves more instructions, by a
//! cost model that expects coalescing ([`groups`]); the pass-set mode
//! `vec4-pack=all` packs everything that may be packed, a stress mode
//! for the vec4 passes.
//!
//! Why it is sound: a member's sources are all defined before the first
//! member, so computing it there reads the same values; members do not
//! read each other (a member's sources precede the first member); and
//! every member keeps its own component, read back through a replicating
//! swizzle as before. Channel c of the packed instruction computes member
//! c from component c of each source, which is member c's own source.

use eu::{CondMod, Opcode, RegType};
use ir::{Block, Instr, Op, ValueId};
use std::collections::HashMap;

/// The largest group: the four components of a vec4.
pub(super) const WIDTH: usize = 4;

/// Where one source of a [`Form`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sel {
    /// The IR instruction's source k.
    Ir(usize),
    /// An immediate (raw bits of the form's type).
    Imm(u64),
}

/// The source modifier a form applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mod {
    None,
    Neg,
    Abs,
}

/// How an op lowers to one Align16 instruction: the opcode, the
/// destination type, a conditional modifier (and whether it writes the
/// flag, as a comparison does), saturation, and each source's origin,
/// type and modifier.
#[derive(Clone, Copy, Debug)]
pub(super) struct Form {
    pub op: Opcode,
    pub ty: RegType,
    pub cmod: Option<CondMod>,
    pub writes_flag: bool,
    pub sat: bool,
    pub srcs: [Option<(Sel, RegType, Mod)>; 2],
}

const fn alu(op: Opcode, ty: RegType, srcs: [Option<(Sel, RegType, Mod)>; 2]) -> Form {
    Form {
        op,
        ty,
        cmod: None,
        writes_flag: false,
        sat: false,
        srcs,
    }
}

const fn src(k: usize, ty: RegType, m: Mod) -> Option<(Sel, RegType, Mod)> {
    Some((Sel::Ir(k), ty, m))
}

/// A binary op at one type on its two sources.
const fn bin(op: Opcode, ty: RegType, m1: Mod) -> Form {
    alu(op, ty, [src(0, ty, Mod::None), src(1, ty, m1)])
}

/// A unary op reading source 0 at `from`, writing `ty`.
const fn un(op: Opcode, ty: RegType, from: RegType, m: Mod) -> Form {
    alu(op, ty, [src(0, from, m), None])
}

/// A comparison (CMP of the source type, writing the flag).
const fn cmp(cmod: CondMod, ty: RegType, rhs: Option<u64>) -> Form {
    let y = match rhs {
        Some(bits) => Some((Sel::Imm(bits), ty, Mod::None)),
        None => src(1, ty, Mod::None),
    };
    Form {
        cmod: Some(cmod),
        writes_flag: true,
        ..alu(Opcode::Cmp, ty, [src(0, ty, Mod::None), y])
    }
}

/// A SEL with a conditional modifier: min (`.l`) or max (`.ge`).
const fn minmax(cmod: CondMod, ty: RegType) -> Form {
    Form {
        cmod: Some(cmod),
        ..bin(Opcode::Sel, ty, Mod::None)
    }
}

/// The one-instruction form of `op`, if it has one (bcsel, constants,
/// memory ops and `fceil`, which is two instructions, do not).
pub(super) fn form(op: Op) -> Option<Form> {
    use CondMod::{Ge, Nz, L, Z};
    use Mod::{Abs, Neg};
    use Op::*;
    use RegType::{D, F, UD};
    Some(match op {
        Iadd => bin(Opcode::Add, D, Mod::None),
        Isub => bin(Opcode::Add, D, Neg),
        Iand => bin(Opcode::And, UD, Mod::None),
        Ior => bin(Opcode::Or, UD, Mod::None),
        Ixor => bin(Opcode::Xor, UD, Mod::None),
        Inot => un(Opcode::Not, UD, UD, Mod::None),
        Ineg => un(Opcode::Mov, D, D, Neg),
        Iabs => un(Opcode::Mov, D, D, Abs),
        Imin => minmax(L, D),
        Imax => minmax(Ge, D),
        Umin => minmax(L, UD),
        Umax => minmax(Ge, UD),
        Fmin => minmax(L, F),
        Fmax => minmax(Ge, F),
        Ishl => alu(
            Opcode::Shl,
            D,
            [src(0, D, Mod::None), src(1, UD, Mod::None)],
        ),
        Ishr => alu(
            Opcode::Asr,
            D,
            [src(0, D, Mod::None), src(1, UD, Mod::None)],
        ),
        Ushr => alu(
            Opcode::Shr,
            UD,
            [src(0, UD, Mod::None), src(1, UD, Mod::None)],
        ),
        Ieq => cmp(Z, D, None),
        Ine => cmp(Nz, D, None),
        Ilt => cmp(L, D, None),
        Ige => cmp(Ge, D, None),
        Ult => cmp(L, UD, None),
        Uge => cmp(Ge, UD, None),
        Feq => cmp(Z, F, None),
        Fneu => cmp(Nz, F, None),
        Flt => cmp(L, F, None),
        Fge => cmp(Ge, F, None),
        I2b => cmp(Nz, UD, Some(0)),
        F2b => cmp(Nz, F, Some(0)),
        Fadd => bin(Opcode::Add, F, Mod::None),
        Fsub => bin(Opcode::Add, F, Neg),
        Fmul => bin(Opcode::Mul, F, Mod::None),
        Fneg => un(Opcode::Mov, F, F, Neg),
        Fabs => un(Opcode::Mov, F, F, Abs),
        Fsat => Form {
            sat: true,
            ..un(Opcode::Mov, F, F, Mod::None)
        },
        Ffloor => un(Opcode::Rndd, F, F, Mod::None),
        Ftrunc => un(Opcode::Rndz, F, F, Mod::None),
        FroundEven => un(Opcode::Rnde, F, F, Mod::None),
        Ffract => un(Opcode::Frc, F, F, Mod::None),
        I2i | U2u => un(Opcode::Mov, UD, UD, Mod::None),
        I2f => un(Opcode::Mov, F, D, Mod::None),
        U2f => un(Opcode::Mov, F, UD, Mod::None),
        F2i => un(Opcode::Mov, D, F, Mod::None),
        F2u => un(Opcode::Mov, UD, F, Mod::None),
        // true is ~0: -(~0) = 1, converted to the destination type.
        B2i => un(Opcode::Mov, D, D, Neg),
        B2f => un(Opcode::Mov, F, D, Neg),
        _ => return None,
    })
}

/// Whether instructions of `op` may share an Align16 instruction.
fn packable(op: Op) -> bool {
    form(op).is_some() || matches!(op, Op::Bcsel | Op::LoadConst)
}

/// How often the program reads each value: `all` its reads, `copies`
/// those that copy it (stores and phi sources).
#[derive(Default)]
pub(super) struct Reads {
    pub all: HashMap<ValueId, u32>,
    pub copies: HashMap<ValueId, u32>,
}

impl Reads {
    /// Counts the reads of `list`: by instructions, phis and if conditions.
    pub fn count(&mut self, list: &[ir::CfNode]) {
        use ir::CfNode;
        for node in list {
            match node {
                CfNode::Block(b) => {
                    let phis = b
                        .phis
                        .iter()
                        .flat_map(|phi| phi.srcs.iter().map(|s| (s.1, true)));
                    let instrs = b.instrs.iter().flat_map(|i| {
                        let copy = i.op == Op::StoreOutput;
                        i.srcs.iter().map(move |&s| (s, copy))
                    });
                    for (v, copy) in phis.chain(instrs) {
                        *self.all.entry(v).or_default() += 1;
                        if copy {
                            *self.copies.entry(v).or_default() += 1;
                        }
                    }
                }
                CfNode::If(f) => {
                    *self.all.entry(f.cond).or_default() += 1;
                    self.count(&f.then_body);
                    self.count(&f.else_body);
                }
                CfNode::Loop(lp) => self.count(&lp.body),
            }
        }
    }
}

/// Where a value of the block being planned comes from, as far as the
/// cost of reading it packed goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A component of the group with this index (its own vgrf).
    Group(usize),
    /// A uniform, or a value lowered before this block: (register,
    /// subregister, vertical stride) of its place.
    Placed(u32, u32, u8),
}

/// The block's planner: what each value of the block is and how often the
/// program reads each value.
struct Planner<'a> {
    b: &'a Block,
    /// Where the values lowered before this block are.
    placed: &'a dyn Fn(ValueId) -> Option<(u32, u32, u8)>,
    uses: &'a HashMap<ValueId, u32>,
    copies: &'a HashMap<ValueId, u32>,
    origin: HashMap<ValueId, Origin>,
    /// Index of the defining instruction of each group's first member, and
    /// its size.
    groups: Vec<(usize, usize)>,
}

impl Planner<'_> {
    /// Whether gathering `v` into a packed source is free: vec4 register
    /// coalescing will make its producer write the gathered component
    /// instead. That needs a single-member group of this block whose one
    /// instruction takes a writemask and swizzle change (no flag write),
    /// and no other reader.
    fn free_to_gather(&self, v: ValueId) -> bool {
        let Some(&Origin::Group(g)) = self.origin.get(&v) else {
            return false;
        };
        let (first, size) = self.groups[g];
        // Not a bcsel: its SEL is predicated, and coalescing does not count
        // a predicated write as producing the value.
        let op = self.b.instrs[first].op;
        let reswizzles = form(op).is_some_and(|f| !f.writes_flag);
        size == 1 && reswizzles && self.uses.get(&v) == Some(&1)
    }

    /// Where `v` is: planned in this block, or lowered before it.
    fn origin_of(&self, v: ValueId) -> Option<Origin> {
        let placed = || (self.placed)(v).map(|(r, s, vs)| Origin::Placed(r, s, vs));
        self.origin.get(&v).copied().or_else(placed)
    }

    /// The instructions a group costs: one, plus a MOV per gathered value
    /// that coalescing will not remove (constants: one MOV per distinct
    /// value).
    fn cost(&self, members: &[&Instr]) -> usize {
        let first = members[0];
        if members.len() == 1 {
            return 1;
        }
        // A result only copied (stored, or into a phi) has its producer
        // retargeted to the copy when it is alone in its vgrf; packed, the
        // copy stays.
        let copied = members
            .iter()
            .filter(|i| {
                let d = i.dest.expect("packed instructions define values").id;
                self.uses.get(&d) == Some(&1) && self.copies.get(&d) == Some(&1)
            })
            .count();
        if first.op == Op::LoadConst {
            let mut values: Vec<u64> = members.iter().map(|i| i.imm).collect();
            values.sort_unstable();
            values.dedup();
            return values.len() + copied;
        }
        let mut cost = 1 + copied;
        for k in 0..first.srcs.len() {
            let vals: Vec<ValueId> = members.iter().map(|i| i.srcs[k]).collect();
            let origins: Vec<Option<Origin>> = vals.iter().map(|&v| self.origin_of(v)).collect();
            let one_place = vals.iter().all(|&v| v == vals[0])
                || (origins[0].is_some() && origins.iter().all(|o| *o == origins[0]));
            if !one_place {
                cost += vals.iter().filter(|&&v| !self.free_to_gather(v)).count();
            }
        }
        cost
    }
}

/// The block's instructions in emission order, as groups of indices into
/// `b.instrs` (a group of one is an unpacked instruction). Each group sits
/// at its first member's place. `reads` counts the program's reads of
/// each value, and `placed` says where the values lowered before this
/// block are.
///
/// A member joins a group only if that makes the group save more
/// instructions ([`Planner::cost`] against one instruction per member):
/// a source read through a swizzle is free, and so is a gathered value
/// whose producer coalescing will retarget, but any other gathered value
/// costs its MOV, and so does a member whose result is only copied (stored,
/// or into a phi), a copy coalescing would remove were it alone.
/// (Packing everything that may be packed made the code of 300
/// vec4-profile cases 5% larger after the vec4 passes.) With `pack_all`
/// (`vec4-pack=all`) every member that may join does.
pub(super) fn groups(
    b: &Block,
    reads: &Reads,
    placed: &dyn Fn(ValueId) -> Option<(u32, u32, u8)>,
    pack_all: bool,
) -> Vec<Vec<usize>> {
    let defined_at: HashMap<ValueId, usize> = b
        .instrs
        .iter()
        .enumerate()
        .filter_map(|(k, i)| i.dest.map(|d| (d.id, k)))
        .collect();
    let mut plan = Planner {
        b,
        placed,
        uses: &reads.all,
        copies: &reads.copies,
        origin: HashMap::new(),
        groups: Vec::new(),
    };
    let mut taken = vec![false; b.instrs.len()];
    let mut out = Vec::new();
    for (lead, first) in b.instrs.iter().enumerate() {
        if taken[lead] {
            continue;
        }
        taken[lead] = true;
        let mut group = vec![lead];
        if packable(first.op) {
            let bits = first.dest.map(|d| d.bits);
            for (k, i) in b.instrs.iter().enumerate().skip(lead + 1) {
                if group.len() == WIDTH {
                    break;
                }
                let ready = i
                    .srcs
                    .iter()
                    .all(|s| defined_at.get(s).is_none_or(|&at| at < lead));
                if taken[k] || i.op != first.op || i.dest.map(|d| d.bits) != bits || !ready {
                    continue;
                }
                let saving = |g: &[usize]| {
                    let members: Vec<&Instr> = g.iter().map(|&m| &b.instrs[m]).collect();
                    g.len() as isize - plan.cost(&members) as isize
                };
                // Constants join while they cost no more: their shared
                // register lets later groups read them through a swizzle.
                let need =
                    (!pack_all).then(|| saving(&group) + isize::from(first.op != Op::LoadConst));
                group.push(k);
                if need.is_none_or(|need| saving(&group) >= need) {
                    taken[k] = true;
                } else {
                    group.pop();
                }
            }
        }
        let id = plan.groups.len();
        plan.groups.push((lead, group.len()));
        for &m in &group {
            let i = &b.instrs[m];
            if let Some(d) = i.dest {
                let origin = match i.op {
                    Op::LoadUniform if d.bits == 32 => {
                        let (reg, sub, _) = super::lower::uniform_place(i.imm);
                        Origin::Placed(reg, sub, 0)
                    }
                    _ => Origin::Group(id),
                };
                plan.origin.insert(d.id, origin);
            }
        }
        out.push(group);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{Builder, Program, SlotType};

    /// The groups of the program's first block.
    fn planned(p: &Program) -> Vec<Vec<usize>> {
        let mut reads = Reads::default();
        reads.count(&p.body);
        let ir::CfNode::Block(block) = &p.body[0] else {
            panic!("a block first")
        };
        groups(block, &reads, &|_| None, false)
    }

    fn builder(uniforms: usize, inputs: usize, outputs: usize) -> Builder {
        let mut b = Builder::new("pack");
        for _ in 0..uniforms {
            b.declare_uniform(SlotType::F32);
        }
        for _ in 0..inputs {
            b.declare_input(SlotType::F32);
        }
        for _ in 0..outputs {
            b.declare_output(SlotType::F32);
        }
        b
    }

    #[test]
    fn same_op_instructions_reading_one_register_share_a_group_at_the_first() {
        // u0, u1 and u2, u3 are rows of the payload. The fmul reads the
        // first fadd, so it joins nothing; the second fadd reads only
        // values from before the first and joins it.
        let mut b = builder(4, 0, 2);
        let u: Vec<_> = (0..4).map(|k| b.load_uniform(k)).collect();
        let s = b.alu(Op::Fadd, &[u[0], u[2]]);
        let m = b.alu(Op::Fmul, &[s, u[0]]);
        let t = b.alu(Op::Fadd, &[u[1], u[3]]);
        let n = b.alu(Op::Fmul, &[t, u[1]]);
        b.store_output(0, m);
        b.store_output(1, n);
        // instrs: 0-3 the uniforms, 4 s, 5 m, 6 t, 7 n, 8 and 9 the
        // stores. The fmuls are not packed: n reads t, defined after m.
        let want: Vec<Vec<usize>> = vec![
            vec![0],
            vec![1],
            vec![2],
            vec![3],
            vec![4, 6],
            vec![5],
            vec![7],
            vec![8],
            vec![9],
        ];
        assert_eq!(planned(&b.finish().unwrap()), want);
    }

    #[test]
    fn a_group_forms_only_if_its_gathers_cost_less_than_it_saves() {
        // fadd(x, y) and fadd(y, y): source 0 is x and y, two loads in
        // their own registers, so packing costs two MOVs to save one
        // instruction. Their negations, read once each by the next pair
        // of fadds, are gathered for free (coalescing retargets them).
        let mut b = builder(0, 2, 3);
        let x = b.load_input(0);
        let y = b.load_input(1);
        let s = b.alu(Op::Fadd, &[x, y]);
        let t = b.alu(Op::Fadd, &[y, y]);
        let nx = b.alu(Op::Fneg, &[x]);
        let ny = b.alu(Op::Fneg, &[y]);
        let p = b.alu(Op::Fmul, &[nx, s]);
        let q = b.alu(Op::Fmul, &[ny, s]);
        let r = b.alu(Op::Fadd, &[p, q]);
        for (slot, v) in [s, t, r].into_iter().enumerate() {
            b.store_output(slot as u64, v);
        }
        // instrs: 0 x, 1 y, 2 s, 3 t, 4 nx, 5 ny, 6 p, 7 q, 8 r, 9-11
        // stores.
        let groups = planned(&b.finish().unwrap());
        assert_eq!(
            groups[..6],
            [vec![0], vec![1], vec![2], vec![3], vec![4], vec![5]]
        );
        assert_eq!(groups[6], vec![6, 7]);
    }

    #[test]
    fn a_bcsel_result_is_not_free_to_gather() {
        // Coalescing does not take a predicated SEL as the producer of a
        // gathered value, so the fmuls reading two bcsels would pay two
        // MOVs to save one instruction (a review's case).
        let mut b = builder(0, 2, 1);
        let x = b.load_input(0);
        let y = b.load_input(1);
        let c = b.alu(Op::Flt, &[x, y]);
        let d = b.alu(Op::Flt, &[y, x]);
        let s = b.alu(Op::Bcsel, &[c, x, y]);
        let t = b.alu(Op::Bcsel, &[d, y, x]);
        let p = b.alu(Op::Fmul, &[s, x]);
        let q = b.alu(Op::Fmul, &[t, x]);
        let r = b.alu(Op::Fadd, &[p, q]);
        b.store_output(0, r);
        // instrs: 0 x, 1 y, 2 c, 3 d, 4 s, 5 t, 6 p, 7 q, 8 r, 9 store.
        let groups = planned(&b.finish().unwrap());
        assert!(groups.iter().all(|g| g.len() == 1), "{groups:?}");
    }
}
