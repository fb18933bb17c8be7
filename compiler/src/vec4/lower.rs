//! Lowering from the IR to vec4 (Align16, SIMD4x2) code on virtual
//! registers, as the vec4 visitor lowers scalar NIR values
//! (`brw_vec4_nir.cpp`):
//!
//! - a value is component x of its own vec4 vgrf, written `vgrfN<1>.xT`
//!   and read `vgrfN<4>.xT` (the swizzle `.xxxx` replicating it); a uniform
//!   is read in place from the payload with vertical stride 0, the
//!   invocation id from g1;
//! - a comparison is a CMP into the boolean's vgrf (source type, as brw
//!   does), which also writes the flag bit of its component;
//! - bcsel is `cmp.nz.f0.0 null<1>D c.xxxx 0D` (every component) and a SEL
//!   predicated on the one component it writes (`(+f0.0.x)`, the
//!   `scalarize_predicate` of the thread's follow-up);
//! - an if is `mov.nz.f0.0 null<1>D c.xxxx` and an Align1 `(+f0.0) if(8)`
//!   (control flow is Align1 in this model, so the IF reads every
//!   component's flag bit);
//! - loads and stores are Align1 SEND messages, one per slot: every channel
//!   of an invocation loads the same slot (the result is the value in every
//!   component), and a store's data is the value replicated into every
//!   component, so the four channels store the same bytes;
//! - phis are copies at the end of each predecessor, as in the scalar
//!   lowering.

use super::pack::{self, Form, Mod, Sel};
use crate::coverage::hit;
use crate::options::CompileOptions;
use crate::vir::VProgram;
use crate::CompileError;
use eu::{
    Align16, CondMod, Dst, FlagReg, Instruction, Message, MsgSize, Opcode, PredMode, Predicate,
    RegType, Region, Src, Swizzle,
};
use ir::{Block, BlockId, CfNode, Instr, Jump, Op, Program, ValueId};
use std::collections::HashMap;

crate::points! {
    /// A bcsel: a whole-vec4 `cmp.nz` and a replicate-predicated SEL.
    BCSEL = "lowering/vec4/bcsel",
    /// An if on a `mov.nz` of its condition.
    IF = "lowering/vec4/if",
    /// A comparison into a boolean component.
    COMPARE = "lowering/vec4/compare",
    /// A store: the value replicated into every component first.
    STORE = "lowering/vec4/store",
    /// A uniform read in place with vertical stride 0.
    UNIFORM = "lowering/vec4/uniform",
    /// A phi copy staged through a temporary (a parallel copy).
    PHI_STAGED = "lowering/vec4/phi-staged",
    /// Two to four instructions packed into one (`vec4::pack`).
    PACK = "lowering/vec4/pack",
    /// A packed source whose values lie in different registers, gathered
    /// by one-component MOVs first.
    GATHER = "lowering/vec4/pack/gather",
    /// Constants packed into one vgrf, one MOV per distinct value.
    PACK_CONST = "lowering/vec4/pack/constants",
    /// A packed bcsel: a CMP of the conditions' components and a SEL
    /// predicated per channel.
    BCSEL_PACKED = "lowering/vec4/pack/bcsel",
    /// An if or bcsel on the OR of two components of one vgrf: a test of
    /// both and an `.any4h` predicate.
    ANY4H = "lowering/vec4/reduce/any4h",
    /// ... on their AND: `.all4h`.
    ALL4H = "lowering/vec4/reduce/all4h",
}

/// A 32-bit value (or boolean): component `comp` of the vec4 at `reg`
/// (`sub` dwords in), read with vertical stride `vstride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct V {
    reg: u32,
    sub: u32,
    comp: u8,
    vstride: u8,
}

impl V {
    /// Component x of a vgrf.
    const fn x(reg: u32) -> V {
        V {
            reg,
            sub: 0,
            comp: 0,
            vstride: 4,
        }
    }

    /// The value as a source of type `ty` (its component replicated).
    fn src(self, ty: RegType) -> Src {
        Src::grf(self.reg, self.sub, ty, Region::new(self.vstride, 4, 1))
    }

    /// The swizzle reading it.
    fn swizzle(self) -> Swizzle {
        Swizzle::of([self.comp; 4])
    }

    /// The value's component as a destination of type `ty`.
    fn dst(self, ty: RegType) -> (Dst, u8) {
        (Dst::grf(self.reg, self.sub, ty, 1), 1 << self.comp)
    }
}

/// An operand of an emitted instruction: a value read through its
/// replicating swizzle, a register read through a packing swizzle, or an
/// immediate.
#[derive(Clone, Copy)]
enum Operand {
    Val(V, RegType),
    Swz(V, Swizzle, RegType),
    Imm(u64, RegType),
}

impl Operand {
    fn src(self) -> (Src, Swizzle) {
        match self {
            Operand::Val(v, ty) => (v.src(ty), v.swizzle()),
            Operand::Swz(v, swz, ty) => (v.src(ty), swz),
            Operand::Imm(bits, ty) => (Src::imm(bits, ty), Swizzle::XYZW),
        }
    }
}

struct Lower<'a> {
    p: &'a Program,
    v: VProgram,
    bits: Vec<u8>,
    vals: HashMap<ValueId, V>,
    phi_copies: HashMap<BlockId, Vec<(ValueId, ValueId)>>,
    loop_starts: Vec<usize>,
    in_addr: Option<u32>,
    out_addr: Option<u32>,
    /// The boolean ORs and ANDs: value -> (is OR, sources).
    bool_ops: HashMap<ValueId, (bool, ValueId, ValueId)>,
    /// How the program reads each value (packing's cost model).
    reads: pack::Reads,
    /// Pack every group that may be packed (`vec4-pack=all`).
    pack_all: bool,
}

const EXEC: u8 = 8;
const FLAG: FlagReg = FlagReg { nr: 0, sub: 0 };

fn unsupported(what: String) -> CompileError {
    CompileError::Unsupported {
        backend: "vec4",
        what,
    }
}

/// Lowers an IR program to vec4 code on virtual registers (`VProgram::vec4`).
/// Of the options only the pass set's `vec4-pack` mode matters (one
/// boolean representation, SIMD4x2).
pub fn lower(p: &Program, opts: &CompileOptions) -> Result<VProgram, CompileError> {
    check_supported(p)?;
    let mut v = VProgram::new(
        EXEC as u32,
        p.inputs.len() as u32,
        p.outputs.len() as u32,
        p.uniforms.len() as u32,
    );
    v.vec4 = true;
    let mut l = Lower {
        p,
        v,
        bits: p.value_bits(),
        vals: HashMap::new(),
        phi_copies: HashMap::new(),
        loop_starts: vec![],
        in_addr: None,
        out_addr: None,
        bool_ops: HashMap::new(),
        reads: pack::Reads::default(),
        pack_all: opts.passes.vec4_pack_all,
    };
    l.reads.count(&p.body);
    p.for_each_block(&mut |b| {
        for i in &b.instrs {
            if let (Op::Ior | Op::Iand, Some(d)) = (i.op, i.dest) {
                if d.bits == 1 {
                    l.bool_ops
                        .insert(d.id, (i.op == Op::Ior, i.srcs[0], i.srcs[1]));
                }
            }
        }
        for phi in &b.phis {
            for &(pred, src) in &phi.srcs {
                l.phi_copies
                    .entry(pred)
                    .or_default()
                    .push((phi.dest.id, src));
            }
        }
    });
    l.prologue();
    l.list(&p.body);
    let mut end = Instruction::new(Opcode::Send, EXEC);
    end.msg = Some(Message::End { payload: 0 });
    end.eot = true;
    l.v.insts.push(end);
    l.v.compact().map_err(|e| CompileError::InvalidEu {
        stage: crate::StageId::Lowering,
        rule: e.rule,
        index: e.index,
        text: e.msg,
    })?;
    Ok(l.v)
}

/// Where uniform `slot` sits in the payload: (register, subregister in
/// dwords, component) of its vertical-stride-0 vec4, two 8-byte slots to a
/// 16-byte row (`eu::abi::uniform_location`).
pub(super) fn uniform_place(slot: u64) -> (u32, u32, u8) {
    let (reg, sub8) = eu::abi::uniform_location(slot as u32, EXEC as u32, crate::vir::GRF_BYTES);
    let byte = sub8 * 8;
    (reg, (byte / 16) * 4, ((byte % 16) / 4) as u8)
}

/// Rejects what the vec4 backend does not compile, naming the first such
/// op or slot.
pub(super) fn check_supported(p: &Program) -> Result<(), CompileError> {
    for (what, ty) in [
        ("input", &p.inputs),
        ("uniform", &p.uniforms),
        ("output", &p.outputs),
    ] {
        if let Some(t) = ty.iter().find(|t| !matches!(t.bits(), 1 | 32)) {
            return Err(unsupported(format!("a {}-bit {what} slot", t.bits())));
        }
    }
    let bits = p.value_bits();
    let mut bad = None;
    p.for_each_block(&mut |b| {
        let sizes = b
            .phis
            .iter()
            .map(|phi| phi.dest.bits)
            .chain(b.instrs.iter().filter_map(|i| i.dest.map(|d| d.bits)))
            .chain(
                b.instrs
                    .iter()
                    .flat_map(|i| i.srcs.iter().map(|s| bits[s.0 as usize])),
            );
        for s in sizes {
            if bad.is_none() && !matches!(s, 1 | 32) {
                bad = Some(format!("a {s}-bit value"));
            }
        }
        if let Some(i) = b.instrs.iter().find(|i| !super::supports(i.op)) {
            bad.get_or_insert_with(|| format!("`{}`", i.op.name()));
        }
    });
    match bad {
        Some(what) => Err(unsupported(what)),
        None => Ok(()),
    }
}

impl Lower<'_> {
    /// Emits an Align16 ALU instruction writing `dst`'s component.
    fn emit(&mut self, op: Opcode, dst: (Dst, u8), srcs: &[(Operand, Mod)]) -> &mut Instruction {
        let mut s = Vec::with_capacity(srcs.len());
        let mut swizzle = [Swizzle::XYZW; 3];
        for (k, &(o, m)) in srcs.iter().enumerate() {
            let (src, swz) = o.src();
            swizzle[k] = swz;
            s.push(match m {
                Mod::None => src,
                Mod::Neg => src.negated(),
                Mod::Abs => src.absolute(),
            });
        }
        let mut i = Instruction::alu(op, EXEC, dst.0, &s);
        i.align16 = Some(Align16 {
            writemask: dst.1,
            swizzle,
        });
        self.v.insts.push(i);
        self.v.insts.last_mut().expect("just pushed")
    }

    /// A fresh value of its own vgrf.
    fn fresh(&mut self) -> V {
        V::x(self.v.alloc(32))
    }

    fn val(&mut self, id: ValueId) -> V {
        match self.vals.get(&id) {
            Some(&v) => v,
            // A loop-header phi read by a back-edge copy before its block.
            None => self.phi_storage(id),
        }
    }

    fn phi_storage(&mut self, id: ValueId) -> V {
        let v = self.fresh();
        self.vals.insert(id, v);
        v
    }

    fn op(&mut self, id: ValueId, ty: RegType) -> (Operand, Mod) {
        (Operand::Val(self.val(id), ty), Mod::None)
    }

    fn prologue(&mut self) {
        // The invocation ids (g1, four equal dwords per invocation) times
        // a surface's bytes per invocation.
        let ids = Src::grf(eu::abi::IDS_GRF, 0, RegType::UD, Region::new(8, 8, 1));
        let mut base = |slots: usize| -> Option<u32> {
            (slots > 0).then(|| {
                let a = self.v.alloc(32);
                self.v.insts.push(Instruction::alu(
                    Opcode::Mul,
                    EXEC,
                    Dst::grf(a, 0, RegType::UD, 1),
                    &[ids, Src::imm(8 * slots as u64, RegType::UW)],
                ));
                a
            })
        };
        self.in_addr = base(self.p.inputs.len());
        self.out_addr = base(self.p.outputs.len());
    }

    /// An Align1 per-channel address: `base + 8 * slot`.
    fn address(&mut self, base: u32, slot: u64) -> u32 {
        let a = self.v.alloc(32);
        self.v.insts.push(Instruction::alu(
            Opcode::Add,
            EXEC,
            Dst::grf(a, 0, RegType::UD, 1),
            &[
                Src::grf(base, 0, RegType::UD, Region::new(8, 8, 1)),
                Src::imm(8 * slot, RegType::UD),
            ],
        ));
        a
    }

    fn list(&mut self, nodes: &[CfNode]) {
        for node in nodes {
            match node {
                CfNode::Block(b) => self.block(b),
                CfNode::If(f) => {
                    hit(IF);
                    let (c, mode) = self
                        .reduction(f.cond)
                        .unwrap_or((Operand::Val(self.val(f.cond), RegType::D), PredMode::Normal));
                    let m = self.emit(Opcode::Mov, (Dst::null(RegType::D), 0xf), &[(c, Mod::None)]);
                    m.cmod = Some(CondMod::Nz);
                    m.flag = FLAG;
                    let mut i = Instruction::new(Opcode::If, EXEC);
                    i.pred = Some(Predicate {
                        inverse: false,
                        mode,
                    });
                    i.flag = FLAG;
                    self.v.insts.push(i);
                    self.list(&f.then_body);
                    self.v.insts.push(Instruction::new(Opcode::Else, EXEC));
                    self.list(&f.else_body);
                    self.v.insts.push(Instruction::new(Opcode::Endif, EXEC));
                }
                CfNode::Loop(lp) => {
                    self.loop_starts.push(self.v.insts.len());
                    self.list(&lp.body);
                    let start = self.loop_starts.pop().expect("pushed above");
                    let mut w = Instruction::new(Opcode::While, EXEC);
                    w.jip = Some(start as u32);
                    self.v.insts.push(w);
                }
            }
        }
    }

    fn block(&mut self, b: &Block) {
        for phi in &b.phis {
            if !self.vals.contains_key(&phi.dest.id) {
                self.phi_storage(phi.dest.id);
            }
        }
        let vals = &self.vals;
        let placed = |v: ValueId| vals.get(&v).map(|p| (p.reg, p.sub, p.vstride));
        for group in pack::groups(b, &self.reads, &placed, self.pack_all) {
            let members: Vec<&Instr> = group.iter().map(|&k| &b.instrs[k]).collect();
            if members.len() > 1 {
                hit(PACK);
            }
            match (members[0].op, pack::form(members[0].op)) {
                (_, Some(form)) => self.emit_form(&members, form),
                (Op::Bcsel, None) => self.bcsel(&members),
                (Op::LoadConst, None) => self.constants(&members),
                _ => self.instr(members[0]),
            }
        }
        self.phi_moves(b.id);
        if let Some(j) = b.jump {
            let op = if j == Jump::Break {
                Opcode::Break
            } else {
                Opcode::Cont
            };
            self.v.insts.push(Instruction::new(op, EXEC));
        }
    }

    /// The copies into the phis this block feeds, as one parallel copy.
    fn phi_moves(&mut self, block: BlockId) {
        let Some(copies) = self.phi_copies.get(&block).cloned() else {
            return;
        };
        let targets: Vec<ValueId> = copies.iter().map(|c| c.0).collect();
        let mut staged = Vec::new();
        for &(phi, src) in &copies {
            let from = if targets.contains(&src) && src != phi {
                hit(PHI_STAGED);
                let t = self.fresh();
                let s = self.op(src, RegType::UD);
                self.emit(Opcode::Mov, t.dst(RegType::UD), &[s]);
                t
            } else {
                self.val(src)
            };
            staged.push((phi, src, from));
        }
        for (phi, src, from) in staged {
            if phi != src {
                let to = self.val(phi);
                let s = (Operand::Val(from, RegType::UD), Mod::None);
                self.emit(Opcode::Mov, to.dst(RegType::UD), &[s]);
            }
        }
    }

    /// Lowers the group `members` (one op, `form`) as one instruction
    /// writing a component of a fresh vgrf per member.
    fn emit_form(&mut self, members: &[&Instr], form: Form) {
        if form.writes_flag {
            hit(COMPARE);
        }
        let mut srcs = Vec::with_capacity(2);
        for &(sel, ty, m) in form.srcs.iter().flatten() {
            let o = match sel {
                Sel::Imm(bits) => Operand::Imm(bits, ty),
                Sel::Ir(k) => self.operand(members, k, ty),
            };
            srcs.push((o, m));
        }
        let d = self.define(members, form.ty);
        let i = self.emit(form.op, d, &srcs);
        i.cmod = form.cmod;
        i.sat = form.sat;
        if form.writes_flag {
            i.flag = FLAG;
        }
    }

    /// A fresh vgrf whose component k is member k's value: the
    /// destination (of type `ty`) and writemask.
    fn define(&mut self, members: &[&Instr], ty: RegType) -> (Dst, u8) {
        let d = self.fresh();
        for (c, i) in members.iter().enumerate() {
            let comp = V { comp: c as u8, ..d };
            self.vals.insert(i.dest.expect("defines a value").id, comp);
        }
        (Dst::grf(d.reg, 0, ty, 1), (1u8 << members.len()) - 1)
    }

    /// Source `k` of every member, as one operand of type `ty`: the value
    /// itself for one member, a swizzle of the register holding them all,
    /// or a register gathered from them.
    fn operand(&mut self, members: &[&Instr], k: usize, ty: RegType) -> Operand {
        let vals: Vec<V> = members.iter().map(|i| self.val(i.srcs[k])).collect();
        if let [v] = vals[..] {
            return Operand::Val(v, ty);
        }
        let place = |v: &V| (v.reg, v.sub, v.vstride);
        let (base, comps): (V, Vec<u8>) = if vals.iter().all(|v| place(v) == place(&vals[0])) {
            (vals[0], vals.iter().map(|v| v.comp).collect())
        } else {
            hit(GATHER);
            let g = self.fresh();
            for (c, &v) in vals.iter().enumerate() {
                let dst = (Dst::grf(g.reg, 0, RegType::UD, 1), 1 << c);
                self.emit(
                    Opcode::Mov,
                    dst,
                    &[(Operand::Val(v, RegType::UD), Mod::None)],
                );
            }
            (g, (0..vals.len() as u8).collect())
        };
        // Unwritten channels read the last member's component, so that
        // the read stays within what was defined.
        let last = *comps.last().expect("two or more members");
        let swz = [0, 1, 2, 3].map(|c| comps.get(c).copied().unwrap_or(last));
        Operand::Swz(base, Swizzle::of(swz), ty)
    }

    /// A group of constants: one MOV per distinct value, with the
    /// writemask of the components holding it.
    fn constants(&mut self, members: &[&Instr]) {
        if members.len() > 1 {
            hit(PACK_CONST);
        }
        let bits: Vec<u64> = members
            .iter()
            .map(|i| match i.dest.expect("defines").bits {
                1 if i.imm & 1 == 1 => 0xffff_ffff,
                1 => 0,
                _ => i.imm & 0xffff_ffff,
            })
            .collect();
        let (dst, _) = self.define(members, RegType::UD);
        let mut done = 0u8;
        for (c, &value) in bits.iter().enumerate() {
            if done >> c & 1 == 1 {
                continue;
            }
            let mask = (c..bits.len())
                .filter(|&k| bits[k] == value)
                .fold(0u8, |m, k| m | 1 << k);
            done |= mask;
            let imm = (Operand::Imm(value, RegType::UD), Mod::None);
            self.emit(Opcode::Mov, (dst, mask), &[imm]);
        }
    }

    /// The test of an OR or AND of two booleans that are components of
    /// one register: both components (`.ijjj`) and the horizontal
    /// predicate that combines them.
    fn reduction(&mut self, cond: ValueId) -> Option<(Operand, PredMode)> {
        let &(or, a, b) = self.bool_ops.get(&cond)?;
        let (va, vb) = (self.val(a), self.val(b));
        if (va.reg, va.sub, va.vstride) != (vb.reg, vb.sub, vb.vstride) || va.comp == vb.comp {
            return None;
        }
        hit(if or { ANY4H } else { ALL4H });
        let swz = Swizzle::of([va.comp, vb.comp, vb.comp, vb.comp]);
        let mode = if or {
            PredMode::Any(4)
        } else {
            PredMode::All(4)
        };
        Some((Operand::Swz(va, swz, RegType::D), mode))
    }

    /// bcsel: a CMP of the condition against 0 and a predicated SEL. One
    /// member tests its condition in every component and predicates on
    /// the SEL's own component (`(+f0.0.x)`), or on `.any4h`/`.all4h` for
    /// an OR/AND of two components of one register; a packed group tests
    /// its members' components and predicates per channel.
    fn bcsel(&mut self, members: &[&Instr]) {
        hit(BCSEL);
        let single = members.len() == 1;
        let reduced = if single {
            self.reduction(members[0].srcs[0])
        } else {
            hit(BCSEL_PACKED);
            None
        };
        let (c, mode) = match reduced {
            Some((c, mode)) => (c, Some(mode)),
            None => (self.operand(members, 0, RegType::D), None),
        };
        let tested = if single {
            0xf
        } else {
            (1u8 << members.len()) - 1
        };
        let zero = (Operand::Imm(0, RegType::D), Mod::None);
        let m = self.emit(
            Opcode::Cmp,
            (Dst::null(RegType::D), tested),
            &[(c, Mod::None), zero],
        );
        m.cmod = Some(CondMod::Nz);
        m.flag = FLAG;
        let x = self.operand(members, 1, RegType::UD);
        let y = self.operand(members, 2, RegType::UD);
        let d = self.define(members, RegType::UD);
        let mode = match mode {
            Some(mode) => mode,
            None if single => PredMode::Replicate(0),
            None => PredMode::Normal,
        };
        let s = self.emit(Opcode::Sel, d, &[(x, Mod::None), (y, Mod::None)]);
        s.pred = Some(Predicate {
            inverse: false,
            mode,
        });
        s.flag = FLAG;
    }

    /// The ops without a one-instruction form that are not packed.
    fn instr(&mut self, i: &Instr) {
        use Op::*;
        use RegType::F;
        let bits = i.dest.map_or(0, |d| d.bits);
        match i.op {
            Fceil => {
                // ceil(x) = -floor(-x); adding -0.0 keeps ±0 and turns the
                // negated NaN back into the canonical one (as brw does).
                let x = (Operand::Val(self.val(i.srcs[0]), F), Mod::Neg);
                let t = self.fresh();
                self.emit(Opcode::Rndd, t.dst(F), &[x]);
                let t = (Operand::Val(t, F), Mod::Neg);
                let d = self.define(&[i], F);
                let neg_zero = (Operand::Imm(0x8000_0000, F), Mod::None);
                self.emit(Opcode::Add, d, &[t, neg_zero]);
            }
            LoadInput => {
                let base = self.in_addr.expect("programs with inputs have a base");
                let addr = self.address(base, i.imm);
                let d = self.fresh();
                let mut s = Instruction::new(Opcode::Send, EXEC);
                s.msg = Some(Message::Load {
                    size: if bits == 1 { MsgSize::B8 } else { MsgSize::B32 },
                    dst: d.reg,
                    addr,
                });
                self.v.insts.push(s);
                self.loaded(i, d);
            }
            LoadUniform => {
                hit(UNIFORM);
                let (reg, sub, comp) = uniform_place(i.imm);
                let u = V {
                    reg,
                    sub,
                    comp,
                    vstride: 0,
                };
                self.loaded(i, u);
            }
            InvocationId => {
                self.vals
                    .insert(i.dest.expect("defines").id, V::x(eu::abi::IDS_GRF));
            }
            StoreOutput => self.store(i),
            other => unreachable!("{} was rejected by check_supported", other.name()),
        }
    }

    /// Defines the value of a load from the word it loaded: the word
    /// itself, or for a boolean a comparison of it with 0 (UD, as brw's
    /// CMP destinations take the source type).
    fn loaded(&mut self, i: &Instr, word: V) {
        let id = i.dest.expect("a load defines a value");
        if id.bits != 1 {
            self.vals.insert(id.id, word);
            return;
        }
        let x = (Operand::Val(word, RegType::UD), Mod::None);
        let zero = (Operand::Imm(0, RegType::UD), Mod::None);
        let d = self.define(&[i], RegType::UD);
        let c = self.emit(Opcode::Cmp, d, &[x, zero]);
        c.cmod = Some(CondMod::Nz);
        c.flag = FLAG;
    }

    fn store(&mut self, i: &Instr) {
        hit(STORE);
        let bits = self.bits[i.srcs[0].0 as usize];
        let base = self.out_addr.expect("programs with outputs have a base");
        let addr = self.address(base, i.imm);
        // The value in every component (a boolean as 0/1), so that the four
        // channels of an invocation store the same bytes.
        let data = self.v.alloc(32);
        let all = (Dst::grf(data, 0, RegType::UD, 1), 0xf);
        let x = self.op(i.srcs[0], RegType::UD);
        if bits == 1 {
            self.emit(
                Opcode::And,
                all,
                &[x, (Operand::Imm(1, RegType::UD), Mod::None)],
            );
        } else {
            self.emit(Opcode::Mov, all, &[x]);
        }
        let mut s = Instruction::new(Opcode::Send, EXEC);
        s.msg = Some(Message::Store {
            size: if bits == 1 { MsgSize::B8 } else { MsgSize::B32 },
            addr,
            data,
        });
        self.v.insts.push(s);
    }
}
