//! Subgroup ops. The active channels are found the way brw's lowering does:
//! the flag is pre-filled with the identity value by a NoMask MOV, then a
//! masked `mov.nz`/`cmp` sets the bits of the active channels only (disabled
//! channels keep the identity), and the flag is read back as data. A lane's
//! value is fetched by a masked select into a zeroed register and an OR tree
//! (NoMask), since the model has no indirect register access.

use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, Val, SCRATCH_FLAG};
use crate::coverage::hit;
use eu::{
    CondMod, Dst, DstKind, Instruction, Opcode, PredMode, Predicate, RegType, Region, Src, SrcKind,
};
use ir::{Instr, Op};

impl Lower<'_> {
    fn nomask(&mut self, mut inst: Instruction) {
        inst.we_all = true;
        self.emit(inst);
    }

    /// The scratch flag as data (a UW subregister, or the whole f0 at SIMD32).
    fn flag_as_data(&self) -> (RegType, SrcKind, DstKind) {
        if self.simd == 32 {
            hit(cov::SG_FLAG_DATA_SIMD32);
            (
                RegType::UD,
                SrcKind::Flag { nr: 0, sub: 0 },
                DstKind::Flag { nr: 0, sub: 0 },
            )
        } else {
            (
                RegType::UW,
                SrcKind::Flag { nr: 0, sub: 0 },
                DstKind::Flag { nr: 0, sub: 0 },
            )
        }
    }

    /// Fills the scratch flag with `value` in every bit, ignoring channel enables.
    fn prefill_flag(&mut self, value: u64) {
        let (ty, _, dk) = self.flag_as_data();
        let d = Dst {
            kind: dk,
            ty,
            stride: 1,
        };
        let fill = Instruction::alu(Opcode::Mov, 1, d, &[imm(value, ty)]);
        if self.bugs.has(crate::bugs::Bug::SubgroupPrefillMasked) {
            // Injected bug (BUGS.md: subgroup-prefill-masked): a masked
            // SIMD1 write runs only when channel 0 is enabled.
            self.emit(fill);
        } else {
            self.nomask(fill);
        }
    }

    /// Reads the scratch flag into a scalar dword.
    fn flag_to_scalar(&mut self) -> Loc {
        let (ty, sk, _) = self.flag_as_data();
        let reg = self.v.alloc(32);
        let t = Loc {
            reg,
            off: 0,
            lane_bytes: 0,
        };
        let src = Src {
            kind: sk,
            ty,
            region: Region::SCALAR,
            neg: false,
            abs: false,
        };
        self.nomask(Instruction::alu(
            Opcode::Mov,
            1,
            dest(t, RegType::UD),
            &[src],
        ));
        t
    }

    /// A scalar holding the bits of the active channels.
    fn active_mask(&mut self) -> Loc {
        self.prefill_flag(0);
        self.alu_cmod(
            Opcode::Mov,
            CondMod::Nz,
            SCRATCH_FLAG,
            Dst::null(RegType::UD),
            &[imm(1, RegType::UD)],
        );
        self.flag_to_scalar()
    }

    /// A boolean source at its own width, for setting a flag from it.
    fn bool_src(&mut self, v: ir::ValueId) -> Src {
        let (s, _) = self.bool_operand(v);
        s
    }

    /// OR of every lane of `z` (a dword- or qword-per-lane register) into lane 0.
    fn or_tree(&mut self, z: Loc) -> Loc {
        let ty = if z.lane_bytes == 8 {
            RegType::UQ
        } else {
            RegType::UD
        };
        let size = ty.size();
        let mut n = self.simd / 2;
        while n >= 1 {
            let w = n.min(32 / size);
            let region = if n == 1 {
                Region::SCALAR
            } else {
                Region::new(w as u8, w as u8, 1)
            };
            let at = |off: u32| {
                let b = z.reg * 32 + off;
                Src::grf(b / 32, (b % 32) / size, ty, region)
            };
            let d = Dst::grf(z.reg, 0, ty, 1);
            self.nomask(Instruction::alu(
                Opcode::Or,
                n as u8,
                d,
                &[at(0), at(n * size)],
            ));
            n /= 2;
        }
        Loc {
            reg: z.reg,
            off: 0,
            lane_bytes: 0,
        }
    }

    /// The value of `x` (a location of `bits` bits) in lane `lane` (a scalar), as a scalar.
    fn lane_value(&mut self, x: Loc, bits: u8, lane: Loc) -> Loc {
        let lanes = if bits == 64 { 8 } else { 4 };
        let ty = if bits == 64 { RegType::UQ } else { RegType::UD };
        let x = self.at_least(x, ty.size());
        let z = self.new_loc(lanes);
        self.nomask(Instruction::alu(
            Opcode::Mov,
            self.simd as u8,
            dest(z, ty),
            &[imm(0, ty)],
        ));
        let lane_id = self.lane_id.expect("made in the prologue");
        self.alu_cmod(
            Opcode::Cmp,
            CondMod::Z,
            SCRATCH_FLAG,
            Dst::null(RegType::UD),
            &[view(lane_id, RegType::UD), view(lane, RegType::UD)],
        );
        self.alu_pred(
            Predicate::NORMAL,
            SCRATCH_FLAG,
            Opcode::Mov,
            dest(z, ty),
            &[view(x, ty)],
        );
        self.or_tree(z)
    }

    /// The index of the first active lane, as a scalar.
    fn first_lane(&mut self) -> Loc {
        let mask = self.active_mask();
        let reg = self.v.alloc(32);
        let l = Loc {
            reg,
            off: 0,
            lane_bytes: 0,
        };
        self.nomask(Instruction::alu(
            Opcode::Fbl,
            1,
            dest(l, RegType::UD),
            &[view(mask, RegType::UD)],
        ));
        l
    }

    /// A per-lane copy of a scalar, written under the execution mask: a
    /// NoMask scalar rewritten in a loop would clobber the value that lanes
    /// which already left the loop must keep (d4015bcb388's bug class).
    fn masked_broadcast(&mut self, s: Loc, bits: u8) -> Loc {
        let (lanes, ty) = if bits == 64 {
            (8, RegType::UQ)
        } else {
            (4, RegType::UD)
        };
        let v = self.new_loc(lanes);
        self.mov(dest(v, ty), view(s, ty));
        v
    }

    /// Flag strategy: a vote whose result stays in a flag, as brw lowers
    /// votes: the scratch flag gets the condition of the active channels
    /// (pre-filled with the identity), then the result flag is filled with
    /// false and a horizontal any/all-predicated NoMask MOV sets it.
    fn vote_into_flag(&mut self, i: &Instr) {
        let d = i.dest.expect("votes define a value").id;
        let all = i.op == Op::VoteAll;
        let c = self.bool_src(i.srcs[0]);
        let f = self.alloc_flag(d, &i.srcs);
        if f == SCRATCH_FLAG {
            // No flag left: fall back to the GRF form.
            hit(cov::SG_VOTE_FLAG_FALLBACK);
            self.prefill_flag(0);
            let cmod = if all { CondMod::Z } else { CondMod::Nz };
            self.alu_cmod(Opcode::Mov, cmod, SCRATCH_FLAG, Dst::null(c.ty), &[c]);
            let t = self.flag_to_scalar();
            let cmod = if all { CondMod::Z } else { CondMod::Nz };
            self.compare(d, cmod, view(t, RegType::UD), imm(0, RegType::UD));
            return;
        }
        hit(cov::SG_VOTE_INTO_FLAG);
        self.prefill_flag(if all { u64::MAX } else { 0 });
        self.alu_cmod(
            Opcode::Mov,
            CondMod::Nz,
            SCRATCH_FLAG,
            Dst::null(c.ty),
            &[c],
        );
        let (kind, ty) = super::boolean::flag_data(f, self.simd);
        let SrcKind::Flag { nr, sub } = kind else {
            unreachable!("flag data is a flag register")
        };
        let fdst = Dst {
            kind: DstKind::Flag { nr, sub },
            ty,
            stride: 1,
        };
        self.nomask(Instruction::alu(Opcode::Mov, 1, fdst, &[imm(0, ty)]));
        let mut set = Instruction::alu(Opcode::Mov, 1, fdst, &[imm(u64::MAX, ty)]);
        let width = self.simd.min(16) as u8;
        let width = if self.simd == 32 { 32 } else { width };
        set.pred = Some(Predicate {
            inverse: false,
            mode: if all {
                PredMode::All(width)
            } else {
                PredMode::Any(width)
            },
        });
        set.flag = SCRATCH_FLAG;
        self.nomask(set);
        self.set(d, Val::Flag(f));
    }

    pub(crate) fn subgroup(&mut self, i: &Instr) {
        let d = i.dest.expect("subgroup ops define a value");
        match i.op {
            _ if i.op.reads_quad() => self.quad(i),
            Op::VoteAny | Op::VoteAll if self.flags.is_resident(d.id) => self.vote_into_flag(i),
            Op::Ballot | Op::VoteAny | Op::VoteAll => {
                let c = self.bool_src(i.srcs[0]);
                self.prefill_flag(0);
                let cmod = if i.op == Op::VoteAll {
                    CondMod::Z
                } else {
                    CondMod::Nz
                };
                self.alu_cmod(Opcode::Mov, cmod, SCRATCH_FLAG, Dst::null(c.ty), &[c]);
                let t = self.flag_to_scalar();
                match i.op {
                    Op::Ballot if d.bits == 64 => {
                        hit(cov::SG_BALLOT64);
                        let reg = self.v.alloc(32);
                        let q = Loc {
                            reg,
                            off: 0,
                            lane_bytes: 0,
                        };
                        self.nomask(Instruction::alu(
                            Opcode::Mov,
                            1,
                            dest(q, RegType::UQ),
                            &[view(t, RegType::UD)],
                        ));
                        let v = self.masked_broadcast(q, 64);
                        self.set(d.id, Val::Grf(v));
                    }
                    Op::Ballot => {
                        hit(cov::SG_BALLOT);
                        let v = self.masked_broadcast(t, 32);
                        self.set(d.id, Val::Grf(v));
                    }
                    // any: some active bit set; all: no active lane had c false.
                    Op::VoteAny => {
                        hit(cov::SG_VOTE_ANY);
                        self.compare(d.id, CondMod::Nz, view(t, RegType::UD), imm(0, RegType::UD))
                    }
                    _ => {
                        hit(cov::SG_VOTE_ALL);
                        self.compare(d.id, CondMod::Z, view(t, RegType::UD), imm(0, RegType::UD))
                    }
                }
            }
            Op::VoteIeq => {
                hit(cov::SG_VOTE_IEQ);
                let bits = self.bits[i.srcs[0].0 as usize];
                let (x, ty) = if bits == 1 {
                    let s = self.bool_src(i.srcs[0]);
                    // An 8-bit boolean as a word (a dword container's
                    // bytes would need a word stride).
                    let ty = if s.ty.size() == 1 { RegType::W } else { s.ty };
                    let t = self.new_loc(4);
                    self.mov(dest(t, ty), s);
                    (t, ty)
                } else if bits == 8 {
                    let s = self.s(i, 0, RegType::UB);
                    let t = self.new_loc(4);
                    self.mov(dest(t, RegType::UW), s);
                    (t, RegType::UW)
                } else {
                    let ty = super::alu::uint(bits);
                    (self.loc(i.srcs[0]), ty)
                };
                let first = self.first_lane();
                let v = self.lane_value(x, bits.max(8), first);
                self.prefill_flag(0);
                self.alu_cmod(
                    Opcode::Cmp,
                    CondMod::Nz,
                    SCRATCH_FLAG,
                    Dst::null(ty),
                    &[view(x, ty), view(v, ty)],
                );
                let t = self.flag_to_scalar();
                self.compare(d.id, CondMod::Z, view(t, RegType::UD), imm(0, RegType::UD));
            }
            Op::ReadFirstInvocation | Op::ReadInvocation => {
                let lane = if i.op == Op::ReadFirstInvocation {
                    hit(cov::SG_READ_FIRST);
                    self.first_lane()
                } else {
                    // The index is the same in every active lane: OR them.
                    hit(cov::SG_READ_INVOCATION);
                    let idx = self.loc(i.srcs[1]);
                    let _ = self.active_mask();
                    let z = self.new_loc(4);
                    self.nomask(Instruction::alu(
                        Opcode::Mov,
                        self.simd as u8,
                        dest(z, RegType::UD),
                        &[imm(0, RegType::UD)],
                    ));
                    self.alu_pred(
                        Predicate::NORMAL,
                        SCRATCH_FLAG,
                        Opcode::Mov,
                        dest(z, RegType::UD),
                        &[view(idx, RegType::UD)],
                    );
                    self.or_tree(z)
                };
                if d.bits == 1 {
                    hit(cov::SG_READ_BOOL);
                    // A packed 8/16-bit boolean is spread to dwords by
                    // lane_value first (the lane's value is the low bytes).
                    let (loc, width) = self.bool_in_grf(i.srcs[0], 32);
                    let v = self.lane_value(loc, 32, lane);
                    let b = self.masked_broadcast(v, 32);
                    self.set(d.id, Val::Bool { loc: b, width });
                } else {
                    let x = self.loc(i.srcs[0]);
                    let v = self.lane_value(x, d.bits, lane);
                    let b = self.masked_broadcast(v, d.bits);
                    self.set(d.id, Val::Grf(b));
                }
            }
            Op::Elect => {
                hit(cov::SG_ELECT);
                let first = self.first_lane();
                let lane_id = self.lane_id.expect("made in the prologue");
                self.compare(
                    d.id,
                    CondMod::Z,
                    view(lane_id, RegType::UD),
                    view(first, RegType::UD),
                );
            }
            other => unreachable!("{} is not a subgroup op", other.name()),
        }
    }
}
