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
/// swizzle, or an immediate.
#[derive(Clone, Copy)]
enum Operand {
    Val(V, RegType),
    Imm(u64, RegType),
}

impl Operand {
    fn src(self) -> (Src, Swizzle) {
        match self {
            Operand::Val(v, ty) => (v.src(ty), v.swizzle()),
            Operand::Imm(bits, ty) => (Src::imm(bits, ty), Swizzle::XYZW),
        }
    }
}

/// The source-modifier form of an operand.
#[derive(Clone, Copy, PartialEq)]
enum Mod {
    None,
    Neg,
    Abs,
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
/// The options choose nothing here (one boolean representation, SIMD4x2);
/// they are taken as the scalar lowering takes them.
pub fn lower(p: &Program, _opts: &CompileOptions) -> Result<VProgram, CompileError> {
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
    };
    p.for_each_block(&mut |b| {
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
                    let c = self.op(f.cond, RegType::D);
                    let m = self.emit(Opcode::Mov, (Dst::null(RegType::D), 0xf), &[c]);
                    m.cmod = Some(CondMod::Nz);
                    m.flag = FLAG;
                    let mut i = Instruction::new(Opcode::If, EXEC);
                    i.pred = Some(Predicate::NORMAL);
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
        for i in &b.instrs {
            self.instr(i);
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

    /// Defines `id` as a fresh value written by `op` at type `ty`.
    fn def(&mut self, i: &Instr, op: Opcode, ty: RegType, srcs: &[(Operand, Mod)]) -> V {
        let d = self.fresh();
        self.vals.insert(i.dest.expect("defines a value").id, d);
        self.emit(op, d.dst(ty), srcs);
        d
    }

    fn instr(&mut self, i: &Instr) {
        use Op::*;
        use RegType::{D, F, UD};
        let bits = i.dest.map_or(0, |d| d.bits);
        let a = |l: &mut Self, ty| l.op(i.srcs[0], ty);
        let b = |l: &mut Self, ty| l.op(i.srcs[1], ty);
        let neg = |(o, _): (Operand, Mod)| (o, Mod::Neg);
        let abs = |(o, _): (Operand, Mod)| (o, Mod::Abs);
        match i.op {
            LoadConst => {
                let value = if bits == 1 {
                    if i.imm & 1 == 1 {
                        0xffff_ffff
                    } else {
                        0
                    }
                } else {
                    i.imm & 0xffff_ffff
                };
                self.def(i, Opcode::Mov, UD, &[(Operand::Imm(value, UD), Mod::None)]);
            }
            Iadd | Isub | Iand | Ior | Ixor => {
                let ty = if matches!(i.op, Iadd | Isub) { D } else { UD };
                let (x, y) = (a(self, ty), b(self, ty));
                let (op, y) = match i.op {
                    Iadd => (Opcode::Add, y),
                    Isub => (Opcode::Add, neg(y)),
                    Iand => (Opcode::And, y),
                    Ior => (Opcode::Or, y),
                    _ => (Opcode::Xor, y),
                };
                self.def(i, op, ty, &[x, y]);
            }
            Inot => {
                let x = a(self, UD);
                self.def(i, Opcode::Not, UD, &[x]);
            }
            Ineg | Iabs => {
                let x = a(self, D);
                let x = if i.op == Ineg { neg(x) } else { abs(x) };
                self.def(i, Opcode::Mov, D, &[x]);
            }
            Imin | Imax | Umin | Umax | Fmin | Fmax => {
                let ty = match i.op {
                    Imin | Imax => D,
                    Umin | Umax => UD,
                    _ => F,
                };
                let (x, y) = (a(self, ty), b(self, ty));
                let cmod = if matches!(i.op, Imin | Umin | Fmin) {
                    CondMod::L
                } else {
                    CondMod::Ge
                };
                let d = self.fresh();
                self.vals.insert(i.dest.expect("defines").id, d);
                let s = self.emit(Opcode::Sel, d.dst(ty), &[x, y]);
                s.cmod = Some(cmod);
            }
            Ishl | Ishr | Ushr => {
                let (op, ty) = match i.op {
                    Ishl => (Opcode::Shl, D),
                    Ishr => (Opcode::Asr, D),
                    _ => (Opcode::Shr, UD),
                };
                let (x, y) = (a(self, ty), b(self, UD));
                self.def(i, op, ty, &[x, y]);
            }
            Ieq | Ine | Ilt | Ige | Ult | Uge | Feq | Fneu | Flt | Fge => {
                hit(COMPARE);
                let cmod = match i.op {
                    Ieq | Feq => CondMod::Z,
                    Ine | Fneu => CondMod::Nz,
                    Ilt | Ult | Flt => CondMod::L,
                    _ => CondMod::Ge,
                };
                let ty = match i.op {
                    Feq | Fneu | Flt | Fge => F,
                    Ult | Uge => UD,
                    _ => D,
                };
                let (x, y) = (a(self, ty), b(self, ty));
                self.compare(i, cmod, ty, x, y);
            }
            I2b => {
                let x = a(self, UD);
                self.compare(i, CondMod::Nz, UD, x, (Operand::Imm(0, UD), Mod::None));
            }
            F2b => {
                let x = a(self, F);
                self.compare(i, CondMod::Nz, F, x, (Operand::Imm(0, F), Mod::None));
            }
            Fadd | Fsub | Fmul => {
                let (x, y) = (a(self, F), b(self, F));
                let (op, y) = match i.op {
                    Fadd => (Opcode::Add, y),
                    Fsub => (Opcode::Add, neg(y)),
                    _ => (Opcode::Mul, y),
                };
                self.def(i, op, F, &[x, y]);
            }
            Fneg | Fabs => {
                let x = a(self, F);
                let x = if i.op == Fneg { neg(x) } else { abs(x) };
                self.def(i, Opcode::Mov, F, &[x]);
            }
            Fsat => {
                let x = a(self, F);
                let d = self.fresh();
                self.vals.insert(i.dest.expect("defines").id, d);
                self.emit(Opcode::Mov, d.dst(F), &[x]).sat = true;
            }
            Ffloor | Ftrunc | FroundEven | Ffract => {
                let op = match i.op {
                    Ffloor => Opcode::Rndd,
                    Ftrunc => Opcode::Rndz,
                    FroundEven => Opcode::Rnde,
                    _ => Opcode::Frc,
                };
                let x = a(self, F);
                self.def(i, op, F, &[x]);
            }
            Fceil => {
                // ceil(x) = -floor(-x); adding -0.0 keeps ±0 and turns the
                // negated NaN back into the canonical one (as brw does).
                let x = a(self, F);
                let t = self.fresh();
                self.emit(Opcode::Rndd, t.dst(F), &[neg(x)]);
                let t = (Operand::Val(t, F), Mod::Neg);
                self.def(
                    i,
                    Opcode::Add,
                    F,
                    &[t, (Operand::Imm(0x8000_0000, F), Mod::None)],
                );
            }
            I2i | U2u => {
                let x = a(self, UD);
                self.def(i, Opcode::Mov, UD, &[x]);
            }
            I2f | U2f => {
                let x = a(self, if i.op == I2f { D } else { UD });
                self.def(i, Opcode::Mov, F, &[x]);
            }
            F2i | F2u => {
                let x = a(self, F);
                self.def(i, Opcode::Mov, if i.op == F2i { D } else { UD }, &[x]);
            }
            B2i | B2f => {
                // true is ~0: -(~0) = 1, converted to the destination type.
                let x = neg(a(self, D));
                self.def(i, Opcode::Mov, if i.op == B2f { F } else { D }, &[x]);
            }
            Bcsel => {
                hit(BCSEL);
                let c = a(self, D);
                let m = self.emit(
                    Opcode::Cmp,
                    (Dst::null(D), 0xf),
                    &[c, (Operand::Imm(0, D), Mod::None)],
                );
                m.cmod = Some(CondMod::Nz);
                m.flag = FLAG;
                let (x, y) = (b(self, UD), self.op(i.srcs[2], UD));
                let d = self.fresh();
                self.vals.insert(i.dest.expect("defines").id, d);
                let s = self.emit(Opcode::Sel, d.dst(UD), &[x, y]);
                s.pred = Some(Predicate {
                    inverse: false,
                    mode: PredMode::Replicate(d.comp),
                });
                s.flag = FLAG;
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
                if bits == 1 {
                    let x = (Operand::Val(d, UD), Mod::None);
                    self.compare(i, CondMod::Nz, UD, x, (Operand::Imm(0, UD), Mod::None));
                } else {
                    self.vals.insert(i.dest.expect("defines").id, d);
                }
            }
            LoadUniform => {
                hit(UNIFORM);
                let (reg, sub8) =
                    eu::abi::uniform_location(i.imm as u32, EXEC as u32, crate::vir::GRF_BYTES);
                let byte = sub8 * 8;
                let u = V {
                    reg,
                    sub: (byte / 16) * 4,
                    comp: ((byte % 16) / 4) as u8,
                    vstride: 0,
                };
                if bits == 1 {
                    let x = (Operand::Val(u, UD), Mod::None);
                    self.compare(i, CondMod::Nz, UD, x, (Operand::Imm(0, UD), Mod::None));
                } else {
                    self.vals.insert(i.dest.expect("defines").id, u);
                }
            }
            InvocationId => {
                self.vals
                    .insert(i.dest.expect("defines").id, V::x(eu::abi::IDS_GRF));
            }
            StoreOutput => self.store(i),
            other => unreachable!("{} was rejected by check_supported", other.name()),
        }
    }

    /// A comparison into a fresh boolean component (of the source type, as
    /// brw's CMP destinations are).
    fn compare(
        &mut self,
        i: &Instr,
        cmod: CondMod,
        ty: RegType,
        x: (Operand, Mod),
        y: (Operand, Mod),
    ) {
        let d = self.fresh();
        self.vals.insert(i.dest.expect("defines").id, d);
        let c = self.emit(Opcode::Cmp, d.dst(ty), &[x, y]);
        c.cmod = Some(cmod);
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
