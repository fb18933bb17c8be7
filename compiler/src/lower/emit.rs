//! Storage locations, region views and instruction emission with automatic
//! SIMD-width splitting (brw's lower_simd_width): an instruction whose
//! operands would span more than two GRFs is split into halves or quarters
//! with the right channel group, so SIMD32 becomes SIMD16 halves (the second
//! half lands in the flag subregister above automatically: bit 16·s + g + c).

use super::{cov, Lower};
use crate::brw::ops::inst_valid;
use crate::coverage::hit;
use crate::vir::GRF_BYTES;
use eu::{
    CondMod, Dst, DstKind, FlagReg, Instruction, Opcode, Predicate, RegType, Region, Src, SrcKind,
};

/// Where a value lives: lane c at byte `reg·32 + off + c·lane_bytes`
/// (`lane_bytes` = 0 for a scalar shared by every lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    /// First GRF.
    pub reg: u32,
    /// Byte offset within the register file from `reg`.
    pub off: u32,
    /// Bytes between lanes: 4 (dword containers), 8 (qwords), 2 (packed
    /// 16-bit values), 1 (packed 8-bit booleans) or 0 (scalar).
    pub lane_bytes: u32,
}

impl Loc {
    /// A register-aligned vector location.
    pub const fn vector(reg: u32, lane_bytes: u32) -> Loc {
        Loc {
            reg,
            off: 0,
            lane_bytes,
        }
    }

    /// The same storage moved by `bytes` (a subscript such as a qword's high dword).
    pub const fn plus(self, bytes: u32) -> Loc {
        Loc {
            off: self.off + bytes,
            ..self
        }
    }

    fn start(self) -> u32 {
        self.reg * GRF_BYTES + self.off
    }
}

/// The region of a view of `lane_bytes`-strided storage as elements of `size` bytes.
fn region(lane_bytes: u32, size: u32) -> Region {
    if lane_bytes == 0 {
        return Region::SCALAR;
    }
    debug_assert!(
        lane_bytes >= size,
        "{size}-byte elements of {lane_bytes}-byte lanes"
    );
    let h = lane_bytes / size;
    let w = (GRF_BYTES / lane_bytes).min(16);
    Region::new((w * h) as u8, w as u8, h as u8)
}

/// A source reading `loc` as `ty`.
pub fn view(loc: Loc, ty: RegType) -> Src {
    let size = ty.size();
    let start = loc.start();
    Src::grf(
        start / GRF_BYTES,
        (start % GRF_BYTES) / size,
        ty,
        region(loc.lane_bytes, size),
    )
}

/// A destination writing `loc` as `ty`.
pub fn dest(loc: Loc, ty: RegType) -> Dst {
    let size = ty.size();
    debug_assert!(
        loc.lane_bytes == 0 || loc.lane_bytes >= size,
        "writing {size}-byte elements to {}-byte lanes",
        loc.lane_bytes
    );
    let start = loc.start();
    Dst::grf(
        start / GRF_BYTES,
        (start % GRF_BYTES) / size,
        ty,
        (loc.lane_bytes / size).max(1) as u8,
    )
}

/// An immediate of a type (raw bits).
pub fn imm(bits: u64, ty: RegType) -> Src {
    Src::imm(bits & ty.mask(), ty)
}

/// Bytes per lane an operand covers (0 for scalars, immediates, flags,
/// null): a row's step for one-wide rows (`<4;1,0>`), the horizontal stride
/// otherwise (a replicating `<4;4,0>` or `<2;2,0>` row advances one element
/// per lane on average, as a packed one does).
fn src_footprint(s: &Src) -> u32 {
    let r = s.region;
    match s.kind {
        SrcKind::Grf { .. } if r.w == 1 && r.v != 0 => r.v as u32 * s.ty.size(),
        SrcKind::Grf { .. } if r.v != 0 || r.h != 0 || r.w != 1 => r.h.max(1) as u32 * s.ty.size(),
        _ => 0,
    }
}

fn dst_footprint(d: &Dst) -> u32 {
    match d.kind {
        DstKind::Grf { .. } => d.stride as u32 * d.ty.size(),
        _ => 0,
    }
}

/// Narrows a contiguous-row region wider than the execution size (a packed
/// word's `<16;16,1>` row read by a SIMD8 instruction, or by a half of a
/// split one) to rows of the execution size, as brw's
/// `brw_reg_from_fs_reg` picks the width; the elements read are the same.
fn fit_rows(s: &mut Src, exec: u8) {
    let r = s.region;
    if matches!(s.kind, SrcKind::Grf { .. }) && r.w > exec && r.v == r.w * r.h {
        s.region = Region::new(exec * r.h, exec, r.h);
    }
}

/// Moves a GRF operand forward by `bytes`.
fn shift_src(s: &mut Src, bytes: u32) {
    if let SrcKind::Grf { nr, sub } = s.kind {
        let size = s.ty.size();
        let b = nr * GRF_BYTES + sub * size + bytes;
        s.kind = SrcKind::Grf {
            nr: b / GRF_BYTES,
            sub: (b % GRF_BYTES) / size,
        };
    }
}

fn shift_dst(d: &mut Dst, bytes: u32) {
    if let DstKind::Grf { nr, sub } = d.kind {
        let size = d.ty.size();
        let b = nr * GRF_BYTES + sub * size + bytes;
        d.kind = DstKind::Grf {
            nr: b / GRF_BYTES,
            sub: (b % GRF_BYTES) / size,
        };
    }
}

impl Lower<'_> {
    /// Emits an instruction at the dispatch width, split into narrower
    /// pieces when an operand would span more than two GRFs.
    pub(crate) fn emit(&mut self, inst: Instruction) {
        self.emit_split(inst, true);
    }

    /// [`Self::emit`]; `legalize` lets [`Self::push_legal`] rewrite a piece
    /// the hardware cannot run (off for the MOVs it emits itself).
    fn emit_split(&mut self, inst: Instruction, legalize: bool) {
        let foot = inst
            .srcs
            .iter()
            .map(src_footprint)
            .chain(std::iter::once(dst_footprint(&inst.dst)))
            .max()
            .unwrap_or(0);
        // At most two GRFs per operand; no footprint means no limit.
        let limit = (2 * GRF_BYTES).checked_div(foot).map_or(32, |l| l.min(32)) as u8;
        if inst.exec_size <= limit || inst.op == Opcode::Send {
            let mut inst = inst;
            let exec = inst.exec_size;
            inst.srcs.iter_mut().for_each(|s| fit_rows(s, exec));
            self.push(inst, legalize);
            return;
        }
        let pieces = inst.exec_size / limit;
        for k in 0..pieces {
            let mut part = inst;
            part.exec_size = limit;
            part.group = inst.group + k * limit;
            let lanes = (k * limit) as u32;
            for s in &mut part.srcs {
                let f = src_footprint(s);
                shift_src(s, lanes * f);
                fit_rows(s, limit);
            }
            let f = dst_footprint(&part.dst);
            shift_dst(&mut part.dst, lanes * f);
            self.push(part, legalize);
        }
    }

    /// Appends a piece, legalized by [`Self::push_legal`] if asked.
    fn push(&mut self, inst: Instruction, legalize: bool) {
        if legalize {
            self.push_legal(inst);
        } else {
            self.v.insts.push(inst);
        }
    }

    /// Appends an instruction. One that writes packed words where the
    /// hardware cannot (an execution type wider than a word needs the
    /// destination stride that makes the sizes equal; an integer/HF
    /// conversion a dword-strided destination; EU-MODEL §1.6) writes a
    /// temporary with the smallest stride that is legal instead, and a MOV
    /// packs it, as brw's `lower_regioning` does. A predicated write first
    /// copies the destination into the temporary, so the channels it skips
    /// keep their value.
    fn push_legal(&mut self, inst: Instruction) {
        let packed_words = matches!(inst.dst.kind, DstKind::Grf { .. })
            && inst.dst.ty.size() == 2
            && inst.dst.stride == 1;
        if !packed_words {
            self.v.insts.push(inst);
            return;
        }
        let machine = self.v.machine();
        if inst_valid(&inst, &machine) {
            self.v.insts.push(inst);
            return;
        }
        let ty = inst.dst.ty;
        // Judged at SIMD8 (a wider piece is split when emitted).
        let Some(lane_bytes) = [4, 8].into_iter().find(|&b| {
            let mut w = inst;
            w.exec_size = w.exec_size.min(8);
            w.srcs.iter_mut().for_each(|s| fit_rows(s, w.exec_size));
            w.dst = dest(Loc::vector(0, b), ty);
            inst_valid(&w, &machine)
        }) else {
            // Nothing legal: the validator names the rule.
            self.v.insts.push(inst);
            return;
        };
        hit(cov::PACKED_WORDS_VIA_TEMP);
        let exec = inst.exec_size;
        let t = Loc::vector(self.v.alloc(u32::from(exec) * lane_bytes), lane_bytes);
        let copy = |dst: Dst, src: Src| {
            let mut m = Instruction::alu(Opcode::Mov, exec, dst, &[src]);
            m.group = inst.group;
            m.we_all = inst.we_all;
            m
        };
        if let (Some(_), DstKind::Grf { nr, sub }) = (inst.pred, inst.dst.kind) {
            let w = exec.min(16);
            let packed = Src::grf(nr, sub, ty, Region::new(w, w, 1));
            self.emit_split(copy(dest(t, ty), packed), false);
        }
        let pack = copy(inst.dst, view(t, ty));
        let mut w = inst;
        w.dst = dest(t, ty);
        self.emit_split(w, false);
        self.emit_split(pack, false);
    }

    /// Emits `op(W) dst srcs`.
    pub(crate) fn alu(&mut self, op: Opcode, dst: Dst, srcs: &[Src]) {
        let inst = Instruction::alu(op, self.simd as u8, dst, srcs);
        self.emit(inst);
    }

    /// Emits `[(±flag)] op[.cmod.flag](W) dst srcs` (predicate and cmod share the flag).
    fn alu_with(
        &mut self,
        pred: Option<Predicate>,
        cmod: Option<CondMod>,
        flag: FlagReg,
        op: Opcode,
        dst: Dst,
        srcs: &[Src],
    ) {
        let mut inst = Instruction::alu(op, self.simd as u8, dst, srcs);
        inst.pred = pred;
        inst.cmod = cmod;
        inst.flag = flag;
        self.emit(inst);
    }

    /// Emits `op.cmod.flag(W) dst srcs`.
    pub(crate) fn alu_cmod(
        &mut self,
        op: Opcode,
        cmod: CondMod,
        flag: FlagReg,
        dst: Dst,
        srcs: &[Src],
    ) {
        self.alu_with(None, Some(cmod), flag, op, dst, srcs);
    }

    /// Emits `(±flag) op(W) dst srcs`.
    pub(crate) fn alu_pred(
        &mut self,
        pred: Predicate,
        flag: FlagReg,
        op: Opcode,
        dst: Dst,
        srcs: &[Src],
    ) {
        self.alu_with(Some(pred), None, flag, op, dst, srcs);
    }

    /// Emits `(±flag) op.cmod.flag(W) dst srcs`.
    pub(crate) fn alu_pred_cmod(
        &mut self,
        pred: Predicate,
        cmod: CondMod,
        flag: FlagReg,
        op: Opcode,
        dst: Dst,
        srcs: &[Src],
    ) {
        self.alu_with(Some(pred), Some(cmod), flag, op, dst, srcs);
    }

    /// `mov dst, src`.
    pub(crate) fn mov(&mut self, dst: Dst, src: Src) {
        self.alu(Opcode::Mov, dst, &[src]);
    }

    /// A new vector location of `lane_bytes` per lane (its own vgrf).
    pub(crate) fn new_loc(&mut self, lane_bytes: u32) -> Loc {
        let reg = self.v.alloc(self.simd * lane_bytes);
        Loc::vector(reg, lane_bytes)
    }
}
