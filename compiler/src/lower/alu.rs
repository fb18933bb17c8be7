//! ALU ops: integer and float arithmetic, min/max, shifts, logic,
//! comparisons and selection, at every size. 8-bit work is promoted (brw
//! never emits 8-bit arithmetic or comparisons), 16-bit work uses W/HF
//! (16-bit shift counts are masked explicitly: the hardware masks to 5 bits).

use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower};
use crate::coverage::hit;
use crate::CompileError;
use eu::{CondMod, Opcode, Predicate, RegType, Src};
use ir::{Instr, Op};

/// The signed integer type of a size.
pub(crate) fn sint(bits: u8) -> RegType {
    match bits {
        8 => RegType::B,
        16 => RegType::W,
        32 => RegType::D,
        64 => RegType::Q,
        other => unreachable!("no {other}-bit signed integer type"),
    }
}

/// The unsigned integer type of a size.
pub(crate) fn uint(bits: u8) -> RegType {
    match bits {
        8 => RegType::UB,
        16 => RegType::UW,
        32 => RegType::UD,
        64 => RegType::UQ,
        other => unreachable!("no {other}-bit unsigned integer type"),
    }
}

/// The float type of a size.
pub(crate) fn float(bits: u8) -> RegType {
    match bits {
        16 => RegType::HF,
        32 => RegType::F,
        64 => RegType::DF,
        other => unreachable!("no {other}-bit float type"),
    }
}

impl Lower<'_> {
    /// Source `k` of `i` viewed as `ty`.
    pub(crate) fn s(&mut self, i: &Instr, k: usize, ty: RegType) -> Src {
        let loc = self.loc(i.srcs[k]);
        view(self.at_least(loc, ty.size()), ty)
    }

    /// `loc`, or a copy of its packed words (bytes) in dword containers,
    /// zero-extended, when it is read with elements wider than its lanes.
    pub(crate) fn at_least(&mut self, loc: Loc, size: u32) -> Loc {
        if loc.lane_bytes == 0 || loc.lane_bytes >= size {
            return loc;
        }
        debug_assert!(
            size <= 4,
            "a {}-byte value read as {size} bytes",
            loc.lane_bytes
        );
        hit(cov::WORDS_TO_DWORDS);
        let t = self.new_loc(4);
        let narrow = if loc.lane_bytes == 1 {
            RegType::UB
        } else {
            RegType::UW
        };
        self.mov(dest(t, RegType::UD), view(loc, narrow));
        t
    }

    /// Source `k` (8-bit) extended to 32 bits in a temporary.
    pub(crate) fn widen8(&mut self, i: &Instr, k: usize, signed: bool) -> Src {
        hit(cov::INT8_WIDENED);
        let src = self.s(i, k, if signed { RegType::B } else { RegType::UB });
        let t = self.new_loc(4);
        let ty = if signed { RegType::D } else { RegType::UD };
        self.mov(dest(t, ty), src);
        view(t, ty)
    }

    /// Source `k` extended to 32 bits if it is narrower (8 or 16 bits).
    pub(crate) fn widen32(&mut self, i: &Instr, k: usize, signed: bool) -> Src {
        let bits = self.bits[i.srcs[k].0 as usize];
        if bits >= 32 {
            return self.s(i, k, if signed { RegType::D } else { RegType::UD });
        }
        let narrow = if signed { sint(bits) } else { uint(bits) };
        let src = self.s(i, k, narrow);
        let t = self.new_loc(4);
        let ty = if signed { RegType::D } else { RegType::UD };
        self.mov(dest(t, ty), src);
        view(t, ty)
    }

    pub(crate) fn alu_op(&mut self, i: &Instr) -> Result<(), CompileError> {
        use Op::*;
        let d = i.dest.expect("ALU ops define a value");
        let bits = d.bits;
        let src_bits = i.srcs.first().map_or(0, |s| self.bits[s.0 as usize]);
        if bits == 1 && matches!(i.op, Iand | Ior | Ixor | Inot | Bcsel)
            || matches!(i.op, Ieq | Ine) && src_bits == 1
        {
            self.bool_op(i);
            return Ok(());
        }
        match i.op {
            Iadd | Isub | Iand | Ior | Ixor => self.int_binary(i, bits),
            Inot | Ineg => self.int_unary(i, bits),
            Iabs => self.iabs(i, bits),
            Imin | Imax | Umin | Umax => self.int_minmax(i, bits),
            Imul => self.imul(i, bits),
            ImulHigh | UmulHigh => self.mul_high(i, bits, i.op == ImulHigh),
            Idiv | Udiv | Irem | Imod | Umod => self.division(i, bits),
            Ishl | Ishr | Ushr => self.shift(i, bits),
            Ieq | Ine | Ilt | Ige | Ult | Uge | Feq | Fneu | Flt | Fge => {
                self.comparison(i, src_bits)
            }
            Fadd | Fsub | Fmul | Ffma | Fmin | Fmax => self.float_arith(i, bits),
            Fneg | Fabs | Fsat | Ffloor | Fceil | Ftrunc | FroundEven | Ffract => {
                self.float_unary(i, bits)
            }
            Fsign => self.fsign(i, bits),
            I2i | U2u | I2f | U2f | F2i | F2u | F2f | B2i | B2f | I2b | F2b => {
                self.conversion(i, src_bits, bits)
            }
            Bcsel => self.bcsel(i, bits),
            Bfm | Bfi | Ibfe | Ubfe | BitfieldInsert | IbitfieldExtract | UbitfieldExtract
            | BitfieldReverse | BitCount | FindLsb | UfindMsb | IfindMsb | ExtractU8
            | ExtractI8 | ExtractU16 | ExtractI16 => self.bitfield(i, src_bits),
            LoadConst | Ballot | VoteAny | VoteAll | VoteIeq | ReadFirstInvocation
            | ReadInvocation | SubgroupInvocation | Elect | LoadInput | LoadUniform
            | InvocationId | StoreOutput | QuadBroadcast | QuadSwapHorizontal
            | QuadSwapVertical | QuadSwapDiagonal | DdxFine | DdxCoarse | DdyFine | DdyCoarse
            | Demote | Terminate | IsHelperInvocation => {
                unreachable!("{} is not an ALU op", i.op.name())
            }
        }
        Ok(())
    }

    /// iadd, isub and logic ops. 8-bit values are computed on their dword
    /// containers: the low byte of a dword sum/and/or/xor only depends on
    /// the low bytes of the operands.
    fn int_binary(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let logic = matches!(i.op, Op::Iand | Op::Ior | Op::Ixor);
        if bits == 8 {
            hit(cov::INT8_CONTAINER);
        }
        let ty = match (bits, logic) {
            (8, true) => RegType::UD,
            (8, false) => RegType::D,
            (b, true) => uint(b),
            (b, false) => sint(b),
        };
        let a = self.s(i, 0, ty);
        let mut b = self.s(i, 1, ty);
        let op = match i.op {
            Op::Iadd => Opcode::Add,
            Op::Isub => {
                b = b.negated();
                Opcode::Add
            }
            Op::Iand => Opcode::And,
            Op::Ior => Opcode::Or,
            Op::Ixor => Opcode::Xor,
            other => unreachable!("{} is not an integer binary op", other.name()),
        };
        let loc = self.def(d, bits);
        self.alu(op, dest(loc, ty), &[a, b]);
    }

    fn int_unary(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let ty = if bits == 8 {
            hit(cov::INT8_CONTAINER);
            RegType::D
        } else if i.op == Op::Inot {
            uint(bits)
        } else {
            sint(bits)
        };
        let a = self.s(i, 0, ty);
        let loc = self.def(d, bits);
        if i.op == Op::Inot {
            self.alu(Opcode::Not, dest(loc, ty), &[a]);
        } else {
            self.mov(dest(loc, ty), a.negated());
        }
    }

    fn iabs(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let a = if bits == 8 {
            self.widen8(i, 0, true)
        } else {
            self.s(i, 0, sint(bits))
        };
        let ty = if bits == 8 { RegType::D } else { sint(bits) };
        let loc = self.def(d, bits);
        self.mov(dest(loc, ty), a.absolute());
    }

    fn int_minmax(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let signed = matches!(i.op, Op::Imin | Op::Imax);
        let (a, b, ty) = if bits == 8 {
            let a = self.widen8(i, 0, signed);
            let b = self.widen8(i, 1, signed);
            (a, b, a.ty)
        } else {
            let ty = if signed { sint(bits) } else { uint(bits) };
            (self.s(i, 0, ty), self.s(i, 1, ty), ty)
        };
        let cmod = if matches!(i.op, Op::Imin | Op::Umin) {
            CondMod::L
        } else {
            CondMod::Ge
        };
        let loc = self.def(d, bits);
        self.alu_cmod(
            Opcode::Sel,
            cmod,
            eu::FlagReg::default(),
            dest(loc, ty),
            &[a, b],
        );
    }

    fn shift(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let op = match i.op {
            Op::Ishl => Opcode::Shl,
            Op::Ishr => Opcode::Asr,
            Op::Ushr => Opcode::Shr,
            other => unreachable!("{} is not a shift", other.name()),
        };
        let count = self.s(i, 1, RegType::UD);
        match bits {
            8 | 16 => {
                hit(if bits == 16 {
                    cov::SHIFT_MASKED16
                } else {
                    cov::SHIFT_MASKED8
                });
                // The hardware masks counts to 5 bits for every type but Q:
                // mask to bitsize-1 explicitly (c2a25cf75ca).
                let c = self.new_loc(4);
                let mask = if bits == 16 && self.bugs.has(crate::bugs::Bug::Shift16Unmasked) {
                    // Injected bug (BUGS.md: shift16-unmasked): no explicit
                    // mask, so only the hardware's 5-bit mask applies.
                    31
                } else {
                    bits as u64 - 1
                };
                self.alu(
                    Opcode::And,
                    dest(c, RegType::UD),
                    &[count, imm(mask, RegType::UD)],
                );
                let loc = self.def(d, bits);
                if bits == 16 {
                    let ty = if i.op == Op::Ushr {
                        RegType::UW
                    } else {
                        RegType::W
                    };
                    let a = self.s(i, 0, ty);
                    self.alu(op, dest(loc, ty), &[a, view(c, RegType::UW)]);
                } else {
                    let a = self.widen8(i, 0, i.op == Op::Ishr);
                    self.alu(op, dest(loc, a.ty), &[a, view(c, RegType::UD)]);
                }
            }
            _ => {
                let ty = if i.op == Op::Ushr {
                    uint(bits)
                } else {
                    sint(bits)
                };
                let a = self.s(i, 0, ty);
                let loc = self.def(d, bits);
                self.alu(op, dest(loc, ty), &[a, count]);
            }
        }
    }

    fn comparison(&mut self, i: &Instr, src_bits: u8) {
        use Op::*;
        let d = i.dest.expect("defines a value").id;
        let cmod = match i.op {
            Ieq | Feq => CondMod::Z,
            Ine | Fneu => CondMod::Nz,
            Ilt | Ult | Flt => CondMod::L,
            Ige | Uge | Fge => CondMod::Ge,
            other => unreachable!("{} is not a comparison", other.name()),
        };
        let (a, b) = match i.op {
            Feq | Fneu | Flt | Fge => {
                let ty = super::alu::float(src_bits);
                (self.s(i, 0, ty), self.s(i, 1, ty))
            }
            _ => {
                let signed = matches!(i.op, Ilt | Ige | Ieq | Ine);
                if src_bits == 8 {
                    // Promoted to 16 bits, as brw's NIR lowering does.
                    hit(cov::INT8_COMPARE_PROMOTED);
                    let a = self.promote16(i, 0, signed);
                    let b = self.promote16(i, 1, signed);
                    (a, b)
                } else {
                    let ty = if signed {
                        sint(src_bits)
                    } else {
                        uint(src_bits)
                    };
                    (self.s(i, 0, ty), self.s(i, 1, ty))
                }
            }
        };
        self.compare(d, cmod, a, b);
    }

    /// An 8-bit source widened to a 16-bit (W, word per dword) temporary.
    fn promote16(&mut self, i: &Instr, k: usize, signed: bool) -> Src {
        let src = self.s(i, k, if signed { RegType::B } else { RegType::UB });
        let t = self.new_loc(4);
        let ty = if signed { RegType::W } else { RegType::UW };
        self.mov(dest(t, ty), src);
        view(t, ty)
    }

    fn float_arith(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let ty = float(bits);
        let a = self.s(i, 0, ty);
        let b = self.s(i, 1, ty);
        let loc = self.def(d, bits);
        let dst = dest(loc, ty);
        match i.op {
            Op::Fadd => self.alu(Opcode::Add, dst, &[a, b]),
            Op::Fsub => self.alu(Opcode::Add, dst, &[a, b.negated()]),
            Op::Fmul => self.alu(Opcode::Mul, dst, &[a, b]),
            Op::Ffma => {
                // ffma(a, b, c) = MAD(c, a, b): dst = src0 + src1 * src2.
                let c = self.s(i, 2, ty);
                self.alu(Opcode::Mad, dst, &[c, a, b]);
            }
            Op::Fmin => self.alu_cmod(
                Opcode::Sel,
                CondMod::L,
                eu::FlagReg::default(),
                dst,
                &[a, b],
            ),
            Op::Fmax => self.alu_cmod(
                Opcode::Sel,
                CondMod::Ge,
                eu::FlagReg::default(),
                dst,
                &[a, b],
            ),
            other => unreachable!("{} is not a binary float op", other.name()),
        }
    }

    fn float_unary(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let ty = float(bits);
        let a = self.s(i, 0, ty);
        let loc = self.def(d, bits);
        let dst = dest(loc, ty);
        match i.op {
            Op::Fneg => self.mov(dst, a.negated()),
            Op::Fabs => self.mov(dst, a.absolute()),
            Op::Fsat => {
                let mut m = eu::Instruction::alu(Opcode::Mov, self.simd as u8, dst, &[a]);
                m.sat = true;
                self.emit(m);
            }
            Op::Ffloor => self.alu(Opcode::Rndd, dst, &[a]),
            Op::Ftrunc => self.alu(Opcode::Rndz, dst, &[a]),
            Op::FroundEven => self.alu(Opcode::Rnde, dst, &[a]),
            Op::Ffract => self.alu(Opcode::Frc, dst, &[a]),
            Op::Fceil => {
                // ceil(x) = -floor(-x); adding -0.0 keeps ±0 and turns the
                // negated NaN back into the canonical (positive) NaN.
                let t = self.new_loc(if bits == 64 { 8 } else { 4 });
                self.alu(Opcode::Rndd, dest(t, ty), &[a.negated()]);
                if bits == 64 {
                    hit(cov::FLOAT_CEIL64);
                    let z = self.new_loc(8);
                    self.mov(dest(z, ty), imm(0x8000_0000_0000_0000, ty));
                    self.alu(Opcode::Add, dst, &[view(t, ty).negated(), view(z, ty)]);
                } else {
                    hit(cov::FLOAT_CEIL);
                    let neg_zero = if bits == 16 { 0x8000 } else { 0x8000_0000 };
                    self.alu(
                        Opcode::Add,
                        dst,
                        &[view(t, ty).negated(), imm(neg_zero, ty)],
                    );
                }
            }
            other => unreachable!("{} is not a float unary op", other.name()),
        }
    }

    /// fsign as brw lowers it: the sign bit, ORed with 1.0 where x != 0
    /// (NaN included, since .nz is true for NaN).
    fn fsign(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let fty = float(bits);
        let x = self.s(i, 0, fty);
        let loc = self.def(d, bits);
        let flag = super::SCRATCH_FLAG;
        if bits == 64 {
            hit(cov::FSIGN64);
            let zero = self.new_loc(8);
            self.mov(dest(zero, RegType::DF), imm(0, RegType::DF));
            let hi_src = view(self.loc(i.srcs[0]).plus(4), RegType::UD);
            self.mov(dest(loc, RegType::UD), imm(0, RegType::UD));
            self.alu(
                Opcode::And,
                dest(loc.plus(4), RegType::UD),
                &[hi_src, imm(0x8000_0000, RegType::UD)],
            );
            self.alu_cmod(
                Opcode::Cmp,
                CondMod::Nz,
                flag,
                eu::Dst::null(RegType::DF),
                &[x, view(zero, RegType::DF)],
            );
            let hi = view(loc.plus(4), RegType::UD);
            self.alu_pred(
                Predicate::NORMAL,
                flag,
                Opcode::Or,
                dest(loc.plus(4), RegType::UD),
                &[hi, imm(0x3ff0_0000, RegType::UD)],
            );
            return;
        }
        hit(cov::FSIGN);
        let (ity, sign, one) = if bits == 16 {
            (RegType::UW, 0x8000, 0x3c00)
        } else {
            (RegType::UD, 0x8000_0000, 0x3f80_0000)
        };
        let xi = self.s(i, 0, ity);
        self.alu(Opcode::And, dest(loc, ity), &[xi, imm(sign, ity)]);
        self.alu_cmod(
            Opcode::Cmp,
            CondMod::Nz,
            flag,
            eu::Dst::null(fty),
            &[x, imm(0, fty)],
        );
        self.alu_pred(
            Predicate::NORMAL,
            flag,
            Opcode::Or,
            dest(loc, ity),
            &[view(loc, ity), imm(one, ity)],
        );
    }

    /// bcsel on non-boolean values: a predicated SEL on the containers.
    fn bcsel(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        hit(if bits == 64 {
            cov::SELECT_SEL64
        } else {
            cov::SELECT_SEL
        });
        let ty = super::container_copy_ty(bits);
        let a = self.s(i, 1, ty);
        let b = self.s(i, 2, ty);
        let f = self.flag_of(i.srcs[0]);
        let loc = self.def(d, bits);
        self.alu_pred(Predicate::NORMAL, f, Opcode::Sel, dest(loc, ty), &[a, b]);
    }
}
