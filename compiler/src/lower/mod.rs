//! Lowering (instruction selection) from the IR to EU code on virtual
//! registers, following brw's choices (EU-MODEL §4): comparisons CMP into a
//! temporary of their source type; IF and bcsel conditions become a
//! `mov.nz`/`cmp.nz` plus a predicate; 8-bit comparisons and arithmetic are
//! promoted; constants are MOVed from immediates; structured control flow
//! becomes IF/ELSE/ENDIF and WHILE/BREAK/CONT; phis become copies at the end
//! of each predecessor. Booleans follow the chosen [`Strategy`].
//!
//! Storage ([`storage_bytes`]): 16-bit values are packed, a word per lane
//! (W/UW/HF `<1>`), as brw keeps them; 8- and 32-bit values live in a dword
//! per lane (the value in the low bytes: B/UB with stride 4, D/UD/F
//! packed); 64-bit values in a qword per lane. The rest of a container is
//! unspecified. A 16-bit value may also sit in a dword or qword container
//! (a loaded input, whose message returns a dword per lane; a truncation of
//! a wider value; an op computed with dwords; a subgroup read): every
//! reader reads it through its `Loc`. An instruction the hardware cannot
//! write packed words with (a wider execution type, an integer/HF
//! conversion) writes a strided temporary that a MOV packs ([`emit`]), as
//! brw's regioning lowering does. 8-bit booleans (`bool8`) are packed bytes.

mod alu;
mod bits;
mod boolean;
mod convert;
/// Lowering's decision points (`crate::coverage`).
pub mod cov;
#[cfg(test)]
mod cov_tests;
pub mod emit;
mod helper;
mod intmath;
mod io;
mod quad;
mod subgroup;

use crate::coverage::hit;
use crate::options::{CompileOptions, Strategy};
use crate::vir::VProgram;
use crate::CompileError;
use emit::{dest, imm, view, Loc};
use eu::{FlagReg, Instruction, Opcode, Predicate, RegType};
use ir::{Block, BlockId, CfNode, Jump, Program, ValueId, ValueMap};
use rustc_hash::FxHashMap as HashMap;

/// Bytes per lane of a new non-boolean value of `bits` bits: packed words
/// for 16-bit values, a dword for 8- and 32-bit ones, a qword for 64-bit.
pub(crate) fn storage_bytes(bits: u8) -> u32 {
    match bits {
        64 => 8,
        16 => 2,
        _ => 4,
    }
}

/// The type a boolean of `width` bits is copied as (a raw MOV: a packed
/// byte destination needs the source's own type).
fn bool_copy_ty(width: u8) -> RegType {
    match width {
        8 => RegType::B,
        _ => container_copy_ty(width),
    }
}

/// The type a value of `bits` bits is copied as, whole container: a word
/// for packed 16-bit values, a qword for 64-bit ones, else a dword.
pub(crate) fn container_copy_ty(bits: u8) -> RegType {
    match bits {
        64 => RegType::UQ,
        16 => RegType::UW,
        _ => RegType::UD,
    }
}

/// A lowered IR value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    /// A non-boolean value in a GRF container (or a scalar, `lane_bytes` 0).
    Grf(Loc),
    /// A boolean 0/~0 in a GRF, `width` bits wide (16 or 32).
    Bool {
        /// Its storage.
        loc: Loc,
        /// 16 or 32.
        width: u8,
    },
    /// A boolean held only in a flag subregister (the `flag` strategy).
    Flag(FlagReg),
}

pub(crate) struct Lower<'a> {
    pub(crate) p: &'a Program,
    pub(crate) v: VProgram,
    pub(crate) simd: u32,
    pub(crate) strategy: Strategy,
    /// IR value sizes.
    pub(crate) bits: Vec<u8>,
    pub(crate) vals: ValueMap<Val>,
    /// Boolean widths (native strategy) or storage widths (others).
    pub(crate) bool_width: Vec<u8>,
    /// Storage of each phi, made on first reference.
    phi_locs: HashMap<ValueId, Val>,
    /// For each block: the phis it feeds as a predecessor: (phi, source).
    phi_copies: HashMap<BlockId, Vec<(ValueId, ValueId)>>,
    /// Index of each loop's first instruction (WHILE's jip), innermost last.
    loop_starts: Vec<usize>,
    /// Per-lane byte addresses of slot 0 in the input and output surfaces.
    pub(crate) in_addr: Option<Loc>,
    pub(crate) out_addr: Option<Loc>,
    /// Lane index within the thread (0..W-1).
    pub(crate) lane_id: Option<Loc>,
    /// Per lane, ~0 until the lane demotes and 0 after (brw's live-pixel
    /// mask, kept in a GRF): made when the program demotes or asks.
    pub(crate) live: Option<Loc>,
    /// The HALTs of `terminate`, whose target is the EOT.
    pub(crate) halts: Vec<usize>,
    /// Flag-strategy state.
    pub(crate) flags: boolean::FlagPool,
    /// Injected bugs (lowering's decision points read this).
    pub(crate) bugs: crate::bugs::BugSet,
}

/// The flag subregister lowering uses for conditions it computes on the spot
/// (f0.0; a whole f0 at SIMD32, whose upper half the second SIMD16 half uses).
pub(crate) const SCRATCH_FLAG: FlagReg = FlagReg { nr: 0, sub: 0 };

/// Lowers an IR program to EU code on virtual registers.
pub fn lower(p: &Program, opts: &CompileOptions) -> Result<VProgram, CompileError> {
    let n = p.value_bound();
    let mut l = Lower {
        p,
        v: VProgram::new(
            opts.simd,
            p.inputs.len() as u32,
            p.outputs.len() as u32,
            p.uniforms.len() as u32,
        ),
        simd: opts.simd,
        strategy: opts.strategy,
        bits: p.value_bits(),
        vals: ValueMap::with_bound(n),
        bool_width: boolean::bool_widths(p, opts.strategy),
        phi_locs: HashMap::default(),
        phi_copies: HashMap::default(),
        loop_starts: vec![],
        in_addr: None,
        out_addr: None,
        lane_id: None,
        live: None,
        halts: vec![],
        flags: boolean::FlagPool::new(opts.simd, boolean::flag_resident(p, opts.strategy)),
        bugs: opts.bugs,
    };
    // Room for about as many instructions as lowering usually emits (a
    // little over two per IR instruction), so that the list
    // seldom grows by copying.
    l.v.insts.reserve(2 * p.num_instrs() + 32);
    l.collect_phi_copies();
    l.prologue();
    l.list(&p.body)?;
    l.epilogue();
    l.v.compact().map_err(|e| CompileError::InvalidEu {
        stage: crate::StageId::Lowering,
        rule: e.rule,
        index: e.index,
        text: e.msg,
    })?;
    Ok(l.v)
}

impl<'a> Lower<'a> {
    fn collect_phi_copies(&mut self) {
        let mut map: HashMap<BlockId, Vec<(ValueId, ValueId)>> = HashMap::default();
        self.p.for_each_block(&mut |b| {
            for phi in &b.phis {
                for &(pred, src) in &phi.srcs {
                    map.entry(pred).or_default().push((phi.dest.id, src));
                }
            }
        });
        self.phi_copies = map;
    }

    /// The lowered value of `v`.
    pub(crate) fn val(&mut self, v: ValueId) -> Val {
        match self.vals.get(v).copied() {
            Some(x) => x,
            // A phi read before its block is lowered (a loop-header phi used
            // by a back-edge copy) lives in its own storage.
            None => {
                hit(cov::PHI_EARLY);
                self.phi_storage(v)
            }
        }
    }

    /// The storage of a phi (GRF; booleans at their strategy width).
    fn phi_storage(&mut self, id: ValueId) -> Val {
        if let Some(&v) = self.phi_locs.get(&id) {
            return v;
        }
        let bits = self.bits[id.0 as usize];
        let val = if bits == 1 {
            let width = self.bool_width[id.0 as usize];
            Val::Bool {
                loc: self.bool_loc(width),
                width,
            }
        } else {
            Val::Grf(self.new_loc(storage_bytes(bits)))
        };
        self.phi_locs.insert(id, val);
        val
    }

    /// Whether `loc` is some phi's storage (which back edges rewrite).
    pub(crate) fn is_phi_storage(&self, loc: Loc) -> bool {
        self.phi_locs
            .values()
            .any(|v| matches!(v, Val::Grf(l) | Val::Bool { loc: l, .. } if l.reg == loc.reg))
    }

    /// A non-boolean value's location.
    pub(crate) fn loc(&mut self, v: ValueId) -> Loc {
        match self.val(v) {
            Val::Grf(l) | Val::Bool { loc: l, .. } => l,
            Val::Flag(_) => {
                let (loc, _) = self.bool_in_grf(v, 32);
                loc
            }
        }
    }

    pub(crate) fn set(&mut self, v: ValueId, x: Val) {
        self.vals.insert(v, x);
    }

    /// A fresh vector value of `bits` bits; records it as `id`'s value.
    pub(crate) fn def(&mut self, id: ValueId, bits: u8) -> Loc {
        let loc = self.new_loc(storage_bytes(bits));
        self.set(id, Val::Grf(loc));
        loc
    }

    /// A fresh value of `bits` bits in a dword (qword) container, for an op
    /// computed with dword elements whose result is the low bytes.
    pub(crate) fn def_container(&mut self, id: ValueId, bits: u8) -> Loc {
        let loc = self.new_loc(if bits == 64 { 8 } else { 4 });
        self.set(id, Val::Grf(loc));
        loc
    }

    fn prologue(&mut self) {
        let ids = Loc::vector(1, 4);
        let w = self.simd;
        let lane = self.new_loc(4);
        self.alu(
            Opcode::And,
            dest(lane, RegType::UD),
            &[view(ids, RegType::UD), imm(w as u64 - 1, RegType::UD)],
        );
        self.lane_id = Some(lane);
        let helpers = self
            .p
            .find_instr(|i| matches!(i.op, ir::Op::Demote | ir::Op::IsHelperInvocation));
        if helpers.is_some() {
            self.live = Some(self.live_mask());
        }
        if !self.p.inputs.is_empty() {
            let a = self.new_loc(4);
            let stride = 8 * self.p.inputs.len() as u64;
            self.alu(
                Opcode::Mul,
                dest(a, RegType::UD),
                &[view(ids, RegType::UD), imm(stride, RegType::UW)],
            );
            self.in_addr = Some(a);
        }
        if !self.p.outputs.is_empty() {
            let a = self.new_loc(4);
            let stride = 8 * self.p.outputs.len() as u64;
            self.alu(
                Opcode::Mul,
                dest(a, RegType::UD),
                &[view(ids, RegType::UD), imm(stride, RegType::UW)],
            );
            self.out_addr = Some(a);
        }
    }

    fn epilogue(&mut self) {
        let mut end = Instruction::new(Opcode::Send, 8);
        end.msg = Some(eu::Message::End { payload: 0 });
        end.eot = true;
        let at = self.v.insts.len() as u32;
        for &h in &self.halts {
            self.v.insts[h].uip = Some(at);
        }
        self.v.insts.push(end);
    }

    fn list(&mut self, nodes: &[CfNode]) -> Result<(), CompileError> {
        for node in nodes {
            match node {
                CfNode::Block(b) => self.block(b)?,
                CfNode::If(f) => {
                    let flag = self.flag_of(f.cond);
                    let mut i = Instruction::new(Opcode::If, self.simd as u8);
                    i.pred = Some(Predicate::NORMAL);
                    i.flag = flag;
                    self.v.insts.push(i);
                    self.flags.end_block();
                    self.list(&f.then_body)?;
                    self.v
                        .insts
                        .push(Instruction::new(Opcode::Else, self.simd as u8));
                    self.flags.end_block();
                    self.list(&f.else_body)?;
                    self.v
                        .insts
                        .push(Instruction::new(Opcode::Endif, self.simd as u8));
                    self.flags.end_block();
                }
                CfNode::Loop(lp) => {
                    self.loop_starts.push(self.v.insts.len());
                    self.flags.end_block();
                    self.list(&lp.body)?;
                    let start = self.loop_starts.pop().expect("pushed above");
                    let mut w = Instruction::new(Opcode::While, self.simd as u8);
                    w.jip = Some(start as u32);
                    self.v.insts.push(w);
                    self.flags.end_block();
                }
            }
        }
        Ok(())
    }

    fn block(&mut self, b: &Block) -> Result<(), CompileError> {
        for phi in &b.phis {
            let s = self.phi_storage(phi.dest.id);
            self.set(phi.dest.id, s);
        }
        for (k, instr) in b.instrs.iter().enumerate() {
            self.flags.at(b.id, k);
            self.instr(instr)?;
        }
        self.phi_moves(b.id);
        if let Some(j) = b.jump {
            let op = if j == Jump::Break {
                Opcode::Break
            } else {
                Opcode::Cont
            };
            self.v.insts.push(Instruction::new(op, self.simd as u8));
        }
        self.flags.end_block();
        Ok(())
    }

    /// Copies for the phis this block feeds, as one parallel copy: sources
    /// that are themselves being overwritten go through temporaries.
    fn phi_moves(&mut self, block: BlockId) {
        let Some(copies) = self.phi_copies.get(&block).cloned() else {
            return;
        };
        let targets: Vec<ValueId> = copies.iter().map(|c| c.0).collect();
        let mut staged = Vec::new();
        for &(phi, src) in &copies {
            let value = if targets.contains(&src) && src != phi {
                hit(cov::PHI_STAGED);
                let bits = self.bits[src.0 as usize];
                let tmp = self.copy_to_fresh(src, bits);
                Some(tmp)
            } else {
                None
            };
            staged.push((phi, src, value));
        }
        for (phi, src, staged_val) in staged {
            if phi == src {
                continue;
            }
            let to = self.phi_storage(phi);
            let from = match staged_val {
                Some(v) => v,
                None => self.val(src),
            };
            self.copy_value(to, from, self.bits[src.0 as usize]);
        }
    }

    /// A fresh copy of a value (for parallel phi copies).
    fn copy_to_fresh(&mut self, v: ValueId, bits: u8) -> Val {
        let from = self.val(v);
        let to = match from {
            Val::Grf(l) => Val::Grf(self.new_loc(if l.lane_bytes == 8 {
                8
            } else {
                storage_bytes(bits)
            })),
            Val::Bool { loc, width } => Val::Bool {
                // The same layout (a 64-bit CMP's boolean keeps its qword);
                // a scalar constant gets its width's.
                loc: self.new_loc(loc.lane_bytes.max(u32::from(width) / 8)),
                width,
            },
            Val::Flag(_) => Val::Bool {
                loc: self.new_loc(4),
                width: 32,
            },
        };
        self.copy_value(to, from, bits);
        to
    }

    /// Copies a value into phi storage (converting boolean widths).
    fn copy_value(&mut self, to: Val, from: Val, bits: u8) {
        match (to, from) {
            (Val::Grf(t), Val::Grf(f)) => {
                let ty = container_copy_ty(bits);
                self.mov(dest(t, ty), view(f, ty));
            }
            (Val::Bool { loc, width }, _) => {
                hit(cov::PHI_BOOL);
                let src = self.bool_src_at(from, width);
                let ty = bool_copy_ty(width);
                self.mov(dest(loc, ty), src);
            }
            (Val::Grf(t), Val::Bool { loc, width }) => {
                let ty = bool_copy_ty(width);
                self.mov(dest(t, ty), view(loc, ty));
            }
            (Val::Grf(_), Val::Flag(_)) | (Val::Flag(_), _) => {
                unreachable!(
                    "phi storage is never a flag, and non-boolean values never live in flags"
                )
            }
        }
    }

    fn instr(&mut self, i: &ir::Instr) -> Result<(), CompileError> {
        use ir::OpClass;
        match i.op.info().class {
            OpClass::Const => self.constant(i),
            OpClass::Io => self.io(i),
            OpClass::Subgroup => self.subgroup(i),
            OpClass::Alu => self.alu_op(i)?,
        }
        Ok(())
    }

    /// `load_const`: a scalar register written once with NoMask, so it is
    /// valid in every lane wherever it is used.
    fn constant(&mut self, i: &ir::Instr) {
        let d = i.dest.expect("load_const defines a value");
        let reg = self.v.alloc(32);
        let loc = Loc {
            reg,
            off: 0,
            lane_bytes: 0,
        };
        let (ty, bits) = match d.bits {
            1 => {
                let width = self.bool_width[d.id.0 as usize];
                let v = if i.imm & 1 == 1 { u64::MAX } else { 0 };
                let (dst, ty) = match width {
                    // No byte immediates: a W one into a word-strided byte
                    // (as for 8-bit constants below).
                    8 => (eu::Dst::grf(reg, 0, RegType::B, 2), RegType::W),
                    16 => (dest(loc, RegType::UW), RegType::UW),
                    _ => (dest(loc, RegType::UD), RegType::UD),
                };
                let mut m = Instruction::alu(Opcode::Mov, 1, dst, &[imm(v, ty)]);
                m.we_all = true;
                self.v.insts.push(m);
                self.set(d.id, Val::Bool { loc, width });
                return;
            }
            8 => {
                // No byte immediates: brw MOVs a W immediate into a B register
                // (setup_imm_b); the B destination is word-strided as the W
                // execution type requires.
                hit(cov::CONST_BYTE);
                let d8 = eu::Dst::grf(reg, 0, RegType::B, 2);
                let mut m = Instruction::alu(Opcode::Mov, 1, d8, &[imm(i.imm, RegType::W)]);
                m.we_all = true;
                self.v.insts.push(m);
                self.set(d.id, Val::Grf(loc));
                return;
            }
            32 => (RegType::UD, i.imm),
            16 => (RegType::UW, i.imm),
            _ => (RegType::UQ, i.imm),
        };
        let mut m = Instruction::alu(Opcode::Mov, 1, dest(loc, ty), &[imm(bits, ty)]);
        m.we_all = true;
        self.v.insts.push(m);
        self.set(d.id, Val::Grf(loc));
    }
}
