//! Booleans under the six strategies (seed 001, EU-MODEL §4).
//!
//! * `bool32`: every boolean is a 32-bit 0/~0 (D). A narrow CMP is followed by
//!   brw's sign-extending MOV; a 64-bit CMP by a MOV of the low dword.
//! * `bool16`: every boolean is 16-bit (W). Wider results are narrowed with a
//!   strided MOV; b2i/b2f widen with a negated MOV.
//! * `bool8`: every boolean is 8-bit (B), packed a byte per lane, as the
//!   2019 series' 8-bit booleans, under Gfx11's byte rules (EU-MODEL §1.6):
//!   only a raw MOV may write packed bytes, so a CMP result's low bytes are
//!   packed by one (`mov(8) g12<1>B g11<32,8,4>B`); a byte may not be the
//!   second operand of a two-source instruction, so logic and bcsel run on
//!   words (the second operand sign-extended to W first) and a raw MOV
//!   packs the result's low bytes. The "weird stride requirements" that
//!   made the thread call 8-bit booleans clumsy, as instructions.
//! * `native`: a boolean keeps its comparison's width (8/16-bit compares give
//!   16, 32/64-bit give 32; a 64-bit compare's result is read as the low
//!   dword of its qword, without a MOV). Where widths meet (bool logic,
//!   bcsel, ieq/ine on booleans, phis) the other operands are converted to
//!   the first operand's width, as nir_lower_bool_to_bitsize does.
//! * `native-min`: as `native`, but where widths meet the smallest one wins,
//!   and a 32-bit boolean is read as a 16-bit one in place, through the word
//!   region `<16,8,2>W` of its low words (the strided down-cast the 2019
//!   thread proposes), with no MOV.
//! * `flag`: a boolean used only in the block that defines it lives in a flag
//!   subregister and is combined with flag logic; it is put in a GRF where a
//!   value is needed (b2i/b2f, stores, phis, uses in other blocks) or when
//!   more booleans are live than there are flag subregisters (a spill).
//!
//! A 16-bit boolean in a GRF is packed, a word per lane (`<1>W`, as brw
//! keeps 16-bit values), so a SIMD16 one fills one GRF where a 32-bit one
//! fills two: the register pressure the 2019 thread expected 16-bit
//! booleans to save. A 32-bit boolean is a dword per lane; an 8-bit one a
//! byte per lane (a SIMD32 one fills one GRF).

use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, Val, SCRATCH_FLAG};
use crate::coverage::hit;
use crate::options::Strategy;
use eu::{CondMod, FlagReg, Instruction, Opcode, Predicate, RegType, Src, SrcKind};
use ir::{BlockId, CfNode, Op, Program, ValueId, ValueMap};

/// The width of every boolean value under a strategy (0 for non-booleans).
pub(crate) fn bool_widths(p: &Program, strategy: Strategy) -> Vec<u8> {
    let bits = p.value_bits();
    let n = bits.len();
    let fixed = match strategy {
        Strategy::Bool16 => Some(16),
        Strategy::Bool8 => Some(8),
        // The vec4 backend has its own lowering (32-bit booleans).
        Strategy::Bool32 | Strategy::Flag | Strategy::Vec4 => Some(32),
        Strategy::Native | Strategy::NativeMin => None,
    };
    let min = strategy == Strategy::NativeMin;
    // Where booleans meet: the first operand's width, or (native-min) the
    // smallest nonzero width among them.
    let meet = |w: &[u8], vals: &mut dyn Iterator<Item = ValueId>| -> u8 {
        if min {
            vals.map(|v| w[v.0 as usize])
                .filter(|&x| x != 0)
                .min()
                .unwrap_or(0)
        } else {
            vals.next().map_or(0, |v| w[v.0 as usize])
        }
    };
    let mut w: Vec<u8> = bits
        .iter()
        .map(|&b| if b == 1 { fixed.unwrap_or(32) } else { 0 })
        .collect();
    if fixed.is_some() {
        return w;
    }
    let native = |b: u8| if b <= 16 { 16 } else { 32 };
    // Iterate to a fixpoint: phis and bool ops take their first operand's width.
    for _ in 0..n.max(1) {
        let mut changed = false;
        p.for_each_block(&mut |b| {
            for phi in &b.phis {
                if phi.dest.bits == 1 {
                    let x = meet(&w, &mut phi.srcs.iter().map(|&(_, s)| s));
                    if x != 0 && w[phi.dest.id.0 as usize] != x {
                        w[phi.dest.id.0 as usize] = x;
                        changed = true;
                    }
                }
            }
            for i in &b.instrs {
                let Some(d) = i.dest else { continue };
                if d.bits != 1 {
                    continue;
                }
                let src_bits = i.srcs.first().map_or(0, |s| bits[s.0 as usize]);
                let x = match i.op {
                    Op::Iand | Op::Ior | Op::Ixor | Op::Inot => {
                        meet(&w, &mut i.srcs.iter().copied())
                    }
                    Op::Ieq | Op::Ine if src_bits == 1 => meet(&w, &mut i.srcs.iter().copied()),
                    Op::Bcsel => meet(&w, &mut i.srcs[1..].iter().copied()),
                    Op::ReadFirstInvocation | Op::ReadInvocation => w[i.srcs[0].0 as usize],
                    _ if src_bits > 1
                        && matches!(
                            i.op.info().sig,
                            ir::Sig::Compare { .. } | ir::Sig::Convert { .. }
                        ) =>
                    {
                        native(src_bits)
                    }
                    _ => 32,
                };
                if x != 0 && w[d.id.0 as usize] != x {
                    w[d.id.0 as usize] = x;
                    changed = true;
                }
            }
        });
        if !changed {
            break;
        }
    }
    w
}

/// For the flag strategy: which booleans may live in flags (all uses in the
/// defining block) and the index in that block of their last use
/// (`u32::MAX`: the block's end, i.e. an if condition or a phi copy).
pub(crate) fn flag_resident(p: &Program, strategy: Strategy) -> (Vec<bool>, Vec<u32>) {
    let n = p.value_bound();
    let bits = p.value_bits();
    let mut home: ValueMap<BlockId> = ValueMap::with_bound(n);
    let mut last: Vec<u32> = vec![0; n];
    let mut resident: Vec<bool> = bits
        .iter()
        .map(|&b| b == 1 && strategy.keeps_booleans_in_flags())
        .collect();
    p.for_each_block(&mut |b| {
        for phi in &b.phis {
            home.insert(phi.dest.id, b.id);
            resident[phi.dest.id.0 as usize] = false;
        }
        for i in &b.instrs {
            if let Some(d) = i.dest {
                home.insert(d.id, b.id);
                if matches!(i.op, Op::LoadConst) {
                    resident[d.id.0 as usize] = false;
                }
            }
        }
    });
    let mut use_at = |v: ValueId, block: BlockId, k: u32, resident: &mut Vec<bool>| {
        let i = v.0 as usize;
        if home.get(v) != Some(&block) {
            resident[i] = false;
        }
        last[i] = last[i].max(k);
    };
    fn walk(list: &[CfNode], f: &mut dyn FnMut(&ir::Block, Option<ValueId>)) {
        for (k, node) in list.iter().enumerate() {
            match node {
                CfNode::Block(b) => {
                    let cond = match list.get(k + 1) {
                        Some(CfNode::If(i)) => Some(i.cond),
                        _ => None,
                    };
                    f(b, cond);
                }
                CfNode::If(i) => {
                    walk(&i.then_body, f);
                    walk(&i.else_body, f);
                }
                CfNode::Loop(l) => walk(&l.body, f),
            }
        }
    }
    let mut phi_srcs: Vec<(BlockId, ValueId)> = vec![];
    p.for_each_block(&mut |b| {
        for phi in &b.phis {
            phi_srcs.extend(phi.srcs.iter().copied());
        }
    });
    walk(&p.body, &mut |b, cond| {
        for (k, i) in b.instrs.iter().enumerate() {
            for &s in &i.srcs {
                use_at(s, b.id, k as u32, &mut resident);
                // Stores and b2x need the value in a GRF; keep it there.
                if matches!(i.op, Op::StoreOutput | Op::B2i | Op::B2f)
                    || i.op.info().class == ir::OpClass::Subgroup
                {
                    resident[s.0 as usize] = false;
                }
            }
        }
        if let Some(c) = cond {
            use_at(c, b.id, u32::MAX, &mut resident);
        }
        for &(pred, v) in &phi_srcs {
            if pred == b.id {
                use_at(v, b.id, u32::MAX, &mut resident);
                resident[v.0 as usize] = false;
            }
        }
    });
    (resident, last)
}

/// The point recording how a CMP result of `size`-byte elements becomes a
/// boolean of `width` bits (a GRF boolean: the flag strategy's is one case).
fn compare_point(strategy: Strategy, size: u32, width: u8) -> crate::coverage::Point {
    match (strategy, size, width) {
        (Strategy::Flag, _, _) => cov::FLAG_COMPARE_IN_GRF,
        (Strategy::Native | Strategy::NativeMin, 2, 16) => cov::NATIVE_COMPARE16,
        (Strategy::Native | Strategy::NativeMin, 8, 32) => cov::NATIVE_COMPARE64_IN_PLACE,
        (Strategy::Native | Strategy::NativeMin, _, _) => cov::NATIVE_COMPARE32,
        (Strategy::Bool16, 2, 16) => cov::BOOL16_COMPARE16,
        (Strategy::Bool16, _, _) => cov::BOOL16_COMPARE_NARROWED,
        (Strategy::Bool8, _, _) => cov::BOOL8_COMPARE_PACKED,
        (Strategy::Bool32 | Strategy::Vec4, 2, _) => cov::BOOL32_COMPARE16_SIGN_EXTENDED,
        (Strategy::Bool32 | Strategy::Vec4, 8, _) => cov::BOOL32_COMPARE64_LOW_DWORD,
        (Strategy::Bool32 | Strategy::Vec4, _, _) => cov::BOOL32_COMPARE,
    }
}

/// Flag subregisters holding resident booleans.
pub(crate) struct FlagPool {
    resident: Vec<bool>,
    last_use: Vec<u32>,
    slots: Vec<FlagReg>,
    owner: Vec<Option<ValueId>>,
    k: u32,
}

impl FlagPool {
    pub(crate) fn new(simd: u32, (resident, last_use): (Vec<bool>, Vec<u32>)) -> FlagPool {
        // f0.0 (all of f0 at SIMD32) is lowering's scratch flag.
        let slots = if simd == 32 {
            vec![FlagReg { nr: 1, sub: 0 }]
        } else {
            vec![
                FlagReg { nr: 0, sub: 1 },
                FlagReg { nr: 1, sub: 0 },
                FlagReg { nr: 1, sub: 1 },
            ]
        };
        let owner = vec![None; slots.len()];
        FlagPool {
            resident,
            last_use,
            slots,
            owner,
            k: 0,
        }
    }

    /// Moves to instruction `k` of a block, freeing flags whose owners are dead.
    pub(crate) fn at(&mut self, _block: BlockId, k: usize) {
        self.k = k as u32;
        for o in &mut self.owner {
            if let Some(v) = *o {
                if self.last_use[v.0 as usize] < self.k {
                    *o = None;
                }
            }
        }
    }

    /// Ends a block: no resident boolean outlives it.
    pub(crate) fn end_block(&mut self) {
        self.owner.iter_mut().for_each(|o| *o = None);
        self.k = 0;
    }

    pub(crate) fn is_resident(&self, v: ValueId) -> bool {
        self.resident.get(v.0 as usize).copied().unwrap_or(false)
    }
}

/// A flag register read or written as data (one value covering every channel).
pub(crate) fn flag_data(f: FlagReg, simd: u32) -> (SrcKind, RegType) {
    if simd == 32 {
        (SrcKind::Flag { nr: f.nr, sub: 0 }, RegType::UD)
    } else {
        (
            SrcKind::Flag {
                nr: f.nr,
                sub: f.sub,
            },
            RegType::UW,
        )
    }
}

impl Lower<'_> {
    fn bool_ty(width: u8) -> RegType {
        match width {
            8 => RegType::B,
            16 => RegType::W,
            _ => RegType::D,
        }
    }

    /// New storage for a boolean of `width` bits: a packed byte (8) or word
    /// (16) per lane, or a dword per lane (32).
    pub(crate) fn bool_loc(&mut self, width: u8) -> Loc {
        self.new_loc(u32::from(width) / 8)
    }

    /// A free flag for resident boolean `v`, spilling another to a GRF if none
    /// is free (never one of `keep`, the operands of the current instruction).
    pub(crate) fn alloc_flag(&mut self, v: ValueId, keep: &[ValueId]) -> FlagReg {
        if let Some(i) = self.flags.owner.iter().position(|o| o.is_none()) {
            self.flags.owner[i] = Some(v);
            return self.flags.slots[i];
        }
        // Spill the owner whose last use is farthest away.
        let Some((i, victim)) = self
            .flags
            .owner
            .iter()
            .enumerate()
            .filter_map(|(i, o)| o.map(|o| (i, o)))
            .filter(|(_, o)| !keep.contains(o))
            .max_by_key(|(_, o)| self.flags.last_use[o.0 as usize])
        else {
            // Every flag holds an operand of this instruction: compute in a GRF.
            hit(cov::FLAG_NONE_FREE);
            return SCRATCH_FLAG;
        };
        hit(cov::FLAG_SPILL);
        // Injected bug (BUGS.md: flag-spill-clobbers): without the copy the
        // victim still names the flag that `v` now overwrites.
        if !self.bugs.has(crate::bugs::Bug::FlagSpillClobbers) {
            self.bool_in_grf(victim, 32);
        }
        self.flags.owner[i] = Some(v);
        self.flags.slots[i]
    }

    /// A flag's boolean as a `width`-bit 0/~0 value in a new GRF.
    fn materialize(&mut self, f: FlagReg, width: u8) -> Loc {
        hit(cov::FLAG_MATERIALIZE);
        let loc = self.bool_loc(width);
        let ty = Self::bool_ty(width);
        self.mov(dest(loc, ty), imm(0, ty));
        self.alu_pred(
            Predicate::NORMAL,
            f,
            Opcode::Mov,
            dest(loc, ty),
            &[imm(u64::MAX, ty)],
        );
        loc
    }

    /// Puts a boolean in a GRF (if it lives in a flag) and returns its storage.
    pub(crate) fn bool_in_grf(&mut self, v: ValueId, width: u8) -> (Loc, u8) {
        match self.val(v) {
            Val::Bool { loc, width } => (loc, width),
            Val::Flag(f) => {
                let loc = self.materialize(f, width);
                self.set(v, Val::Bool { loc, width });
                (loc, width)
            }
            Val::Grf(loc) => (loc, 32),
        }
    }

    /// A source reading boolean `from` at `width` bits (converting if needed).
    pub(crate) fn bool_src_at(&mut self, from: Val, width: u8) -> Src {
        let (loc, w) = match from {
            Val::Bool { loc, width } => (loc, width),
            Val::Grf(loc) => (loc, 32),
            Val::Flag(f) => (self.materialize(f, width), width),
        };
        if w == width {
            return view(loc, Self::bool_ty(width));
        }
        if self.strategy.keeps_comparison_width()
            && self.bugs.has(crate::bugs::Bug::NativeNoCanonicalize)
        {
            // Injected bug (BUGS.md: native-no-canonicalize): the other
            // width is read as if it were this one, without converting: a
            // 16-bit boolean's word as an unsigned value (true = 0x0000FFFF),
            // a 32-bit one's low word in place.
            let ty = if width == 32 { RegType::UW } else { RegType::W };
            return view(loc, ty);
        }
        if width == 16 && self.strategy == Strategy::NativeMin {
            // The low word of each dword is where a 16-bit boolean lives:
            // read it in place (truncating a sign extension is exact).
            hit(cov::NATIVE_MIN_DOWNCAST);
            return view(loc, RegType::W);
        }
        let t = self.bool_loc(width);
        if width == 32 {
            hit(cov::NATIVE_WIDEN);
            // Sign-extend 0xFFFF to 0xFFFFFFFF.
            self.mov(dest(t, RegType::D), view(loc, self.narrow_bool_ty()));
        } else {
            hit(cov::NATIVE_NARROW);
            // The low word of a 32-bit boolean (a strided MOV).
            self.mov(dest(t, RegType::W), view(loc, RegType::W));
        }
        view(t, Self::bool_ty(width))
    }

    /// A boolean operand at its own width (for b2i/b2f and stores).
    pub(crate) fn bool_operand(&mut self, v: ValueId) -> (Src, u8) {
        let (loc, width) = self.bool_in_grf(v, 32);
        let ty = if width == 16 {
            self.narrow_bool_ty()
        } else {
            Self::bool_ty(width)
        };
        (view(loc, ty), width)
    }

    /// How a 16-bit boolean is read when it is widened: as W, so 0xFFFF
    /// sign-extends to ~0 (and -(0xFFFF) is 1).
    fn narrow_bool_ty(&self) -> RegType {
        if self.bugs.has(crate::bugs::Bug::Bool16ZeroExtend) {
            // Injected bug (BUGS.md: bool16-zero-extend): read as UW, so
            // true widens to 0x0000FFFF (and b2f gives -65535.0).
            RegType::UW
        } else {
            RegType::W
        }
    }

    /// The flag holding boolean `v` for a predicate: its own flag, or the
    /// scratch flag set by `mov.nz` from its GRF value.
    pub(crate) fn flag_of(&mut self, v: ValueId) -> FlagReg {
        match self.val(v) {
            Val::Flag(f) => {
                hit(cov::COND_FLAG_REUSED);
                f
            }
            other => {
                hit(cov::COND_RETEST);
                let width = match other {
                    Val::Bool { width, .. } => width,
                    _ => 32,
                };
                let src = self.bool_src_at(other, width);
                let ty = Self::bool_ty(width);
                self.alu_cmod(
                    Opcode::Mov,
                    CondMod::Nz,
                    SCRATCH_FLAG,
                    eu::Dst::null(ty),
                    &[src],
                );
                SCRATCH_FLAG
            }
        }
    }

    /// A comparison `a cmod b` (types give the comparison's kind and size)
    /// defining boolean `d`.
    pub(crate) fn compare(&mut self, d: ValueId, cmod: CondMod, a: Src, b: Src) {
        let ty = a.ty;
        if self.flags.is_resident(d) {
            let f = self.alloc_flag(d, &[]);
            if f != SCRATCH_FLAG {
                hit(cov::FLAG_COMPARE_INTO_FLAG);
                self.alu_cmod(Opcode::Cmp, cmod, f, eu::Dst::null(ty), &[a, b]);
                self.set(d, Val::Flag(f));
                return;
            }
        }
        let size = ty.size();
        // The CMP writes elements of its execution type: packed words for a
        // 16-bit comparison (a 16-bit boolean in place).
        let temp = self.new_loc(size);
        self.alu_cmod(Opcode::Cmp, cmod, SCRATCH_FLAG, dest(temp, ty), &[a, b]);
        self.bool_from_cmp(d, temp, size);
    }

    /// Turns a CMP result of `size`-byte elements into boolean `d` at its width.
    pub(crate) fn bool_from_cmp(&mut self, d: ValueId, temp: Loc, size: u32) {
        let width = self.bool_width[d.0 as usize];
        hit(compare_point(self.strategy, size, width));
        let val = match (size, width) {
            (_, 8) => {
                // The low byte of each element, packed by a raw byte MOV
                // (the only instruction that may write packed bytes); a
                // qword's byte stride is not encodable, so a 64-bit
                // result goes through its low dwords.
                let src = if size == 8 {
                    let t = self.new_loc(4);
                    self.mov(dest(t, RegType::D), view(temp, RegType::D));
                    t
                } else {
                    temp
                };
                let t = self.bool_loc(8);
                self.mov(dest(t, RegType::B), view(src, RegType::B));
                Val::Bool { loc: t, width: 8 }
            }
            (4, 32) => Val::Bool {
                loc: temp,
                width: 32,
            },
            (2, 16) => Val::Bool {
                loc: temp,
                width: 16,
            },
            (8, 32) if self.strategy.keeps_comparison_width() => {
                // The low dword of the 64-bit result; its upper dword is undefined.
                let loc = if self.bugs.has(crate::bugs::Bug::Cmp64UpperDword) {
                    // Injected bug (BUGS.md: cmp64-upper-dword): the boolean
                    // is read from the CMP result's upper dword.
                    temp.plus(4)
                } else {
                    temp
                };
                Val::Bool { loc, width: 32 }
            }
            (8, 32) => {
                let t = self.new_loc(4);
                self.mov(dest(t, RegType::D), view(temp, RegType::D));
                Val::Bool { loc: t, width: 32 }
            }
            (2, 32) => {
                let t = self.new_loc(4);
                self.mov(dest(t, RegType::D), view(temp, RegType::W));
                Val::Bool { loc: t, width: 32 }
            }
            (_, _) => {
                // 32- or 64-bit result narrowed to a 16-bit boolean.
                let t = self.bool_loc(16);
                self.mov(dest(t, RegType::W), view(temp, RegType::W));
                Val::Bool { loc: t, width: 16 }
            }
        };
        self.set(d, val);
    }

    /// Boolean logic and selection on 1-bit values.
    pub(crate) fn bool_op(&mut self, i: &ir::Instr) {
        let d = i.dest.expect("bool ops define a value").id;
        let all_flags = i.srcs.iter().all(|&s| matches!(self.val(s), Val::Flag(_)));
        if all_flags && self.flags.is_resident(d) {
            let f = self.alloc_flag(d, &i.srcs);
            if f != SCRATCH_FLAG {
                hit(cov::FLAG_LOGIC);
                self.flag_logic(i, f);
                self.set(d, Val::Flag(f));
                return;
            }
        }
        if all_flags && i.op != Op::Bcsel {
            // Combine in the scratch flag, then put the one result in a GRF.
            hit(cov::FLAG_LOGIC_SCRATCH);
            self.flag_logic(i, SCRATCH_FLAG);
            self.set(d, Val::Flag(SCRATCH_FLAG));
            self.bool_in_grf(d, 32);
            return;
        }
        let width = match self.strategy {
            Strategy::Native | Strategy::NativeMin => self.bool_width[d.0 as usize],
            Strategy::Bool16 => 16,
            Strategy::Bool8 => 8,
            Strategy::Bool32 | Strategy::Flag | Strategy::Vec4 => 32,
        };
        hit(match (self.strategy, width) {
            (Strategy::Bool32 | Strategy::Vec4, _) => cov::BOOL32_LOGIC,
            (Strategy::Bool16, _) => cov::BOOL16_LOGIC,
            (Strategy::Bool8, _) => cov::BOOL8_LOGIC,
            (Strategy::Native | Strategy::NativeMin, 16) => cov::NATIVE_LOGIC16,
            (Strategy::Native | Strategy::NativeMin, _) => cov::NATIVE_LOGIC32,
            (Strategy::Flag, _) => cov::FLAG_LOGIC_GRF,
        });
        let ty = Self::bool_ty(width);
        let loc = self.bool_loc(width);
        // 8-bit booleans are combined as words: a byte may not be the
        // second operand of a two-source instruction (Gfx11), and only a
        // raw MOV may write packed bytes, which packs the words' low bytes
        // afterwards.
        let words = (width == 8).then(|| self.new_loc(2));
        let dst = match words {
            Some(w) => dest(w, RegType::W),
            None => dest(loc, ty),
        };
        // Source `k` of the IR op as the instruction's operand `slot`.
        let operand = |l: &mut Self, k: usize, slot: usize| {
            let v = l.val(i.srcs[k]);
            let s = l.bool_src_at(v, width);
            // Injected bug (BUGS.md: bool8-byte-src1): the byte stays the
            // second operand.
            if slot == 0 || width != 8 || l.bugs.has(crate::bugs::Bug::Bool8ByteSrc1) {
                return s;
            }
            // Sign-extended to a word: 0xFF is 0xFFFF.
            let t = l.new_loc(2);
            l.mov(dest(t, RegType::W), s);
            view(t, RegType::W)
        };
        match i.op {
            Op::Iand | Op::Ior | Op::Ixor | Op::Ine => {
                let (a, b) = (operand(self, 0, 0), operand(self, 1, 1));
                let op = match i.op {
                    Op::Iand => Opcode::And,
                    Op::Ior => Opcode::Or,
                    Op::Ixor | Op::Ine => Opcode::Xor,
                    other => unreachable!("{} is not boolean logic", other.name()),
                };
                self.alu(op, dst, &[a, b]);
            }
            Op::Ieq => {
                hit(cov::BOOL_IEQ);
                let (a, b) = (operand(self, 0, 0), operand(self, 1, 1));
                self.alu(Opcode::Xor, dst, &[a.negated(), b]);
            }
            Op::Inot => {
                let a = operand(self, 0, 0);
                self.alu(Opcode::Not, dst, &[a]);
            }
            Op::Bcsel => {
                hit(cov::BOOL_BCSEL_SEL);
                let (a, b) = (operand(self, 1, 0), operand(self, 2, 1));
                let f = self.flag_of(i.srcs[0]);
                self.alu_pred(Predicate::NORMAL, f, Opcode::Sel, dst, &[a, b]);
            }
            other => unreachable!("{} is not a boolean op", other.name()),
        }
        if let Some(w) = words {
            self.mov(dest(loc, RegType::B), view(w, RegType::B));
        }
        let f = if self.flags.is_resident(d) {
            self.alloc_flag(d, &i.srcs)
        } else {
            SCRATCH_FLAG
        };
        if f != SCRATCH_FLAG {
            hit(cov::FLAG_LOGIC_TO_FLAG);
            self.alu_cmod(
                Opcode::Mov,
                CondMod::Nz,
                f,
                eu::Dst::null(ty),
                &[view(loc, ty)],
            );
            self.set(d, Val::Flag(f));
        } else {
            self.set(d, Val::Bool { loc, width });
        }
    }

    /// Flag logic into flag `f`: every channel's bit at once, as data
    /// (NoMask, one channel).
    fn flag_logic(&mut self, i: &ir::Instr, f: FlagReg) {
        let srcs: Vec<FlagReg> = i
            .srcs
            .iter()
            .map(|&s| match self.val(s) {
                Val::Flag(f) => f,
                _ => unreachable!("checked by the caller"),
            })
            .collect();
        let simd = self.simd;
        let ty = flag_data(f, simd).1;
        let fsrc = |x: FlagReg| {
            let (k, t) = flag_data(x, simd);
            Src {
                kind: k,
                ty: t,
                region: eu::Region::SCALAR,
                neg: false,
                abs: false,
            }
        };
        let fdst = |x: FlagReg| {
            let SrcKind::Flag { nr, sub } = flag_data(x, simd).0 else {
                unreachable!("flag data")
            };
            eu::Dst {
                kind: eu::DstKind::Flag { nr, sub },
                ty,
                stride: 1,
            }
        };
        let one = |l: &mut Self, op: Opcode, dst: eu::Dst, s: &[Src]| {
            let mut x = Instruction::alu(op, 1, dst, s);
            x.we_all = true;
            l.v.insts.push(x);
        };
        match i.op {
            Op::Iand => one(self, Opcode::And, fdst(f), &[fsrc(srcs[0]), fsrc(srcs[1])]),
            Op::Ior => one(self, Opcode::Or, fdst(f), &[fsrc(srcs[0]), fsrc(srcs[1])]),
            Op::Ixor | Op::Ine => one(self, Opcode::Xor, fdst(f), &[fsrc(srcs[0]), fsrc(srcs[1])]),
            Op::Ieq => one(
                self,
                Opcode::Xor,
                fdst(f),
                &[fsrc(srcs[0]).negated(), fsrc(srcs[1])],
            ),
            Op::Inot => one(self, Opcode::Not, fdst(f), &[fsrc(srcs[0])]),
            Op::Bcsel => {
                // (c & a) | (~c & b), through the scratch flag.
                hit(cov::FLAG_BCSEL);
                one(self, Opcode::And, fdst(f), &[fsrc(srcs[0]), fsrc(srcs[1])]);
                one(
                    self,
                    Opcode::And,
                    fdst(SCRATCH_FLAG),
                    &[fsrc(srcs[0]).negated(), fsrc(srcs[2])],
                );
                one(self, Opcode::Or, fdst(f), &[fsrc(f), fsrc(SCRATCH_FLAG)]);
            }
            other => unreachable!("{} is not a boolean op", other.name()),
        }
    }
}
