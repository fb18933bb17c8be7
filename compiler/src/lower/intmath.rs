//! Integer multiplication and division. Gfx11 has no DWord x DWord and no
//! 64-bit integer multiply (EU-MODEL §2.5), so 32-bit products are built from
//! D x UW partial products (the DW operand in src0) as brw's
//! lower_integer_multiplication does, and 64-bit ones from 16-bit pieces.
//! MATH INT DIV handles D/UD only, so 64-bit division is a shift-subtract
//! loop emitted in place.

use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, Val, SCRATCH_FLAG};
use crate::coverage::hit;
use eu::{CondMod, Instruction, MathFn, Opcode, Predicate, RegType, Src};
use ir::{Instr, Op};

impl Lower<'_> {
    /// Low 32 bits of x * y (x, y: dword views of two locations).
    fn mul32_lo(&mut self, x: Loc, y: Loc) -> Loc {
        let t0 = self.new_loc(4);
        self.alu(
            Opcode::Mul,
            dest(t0, RegType::D),
            &[view(x, RegType::D), view(y, RegType::UW)],
        );
        let t1 = self.new_loc(4);
        self.alu(
            Opcode::Mul,
            dest(t1, RegType::D),
            &[view(x, RegType::D), view(y.plus(2), RegType::UW)],
        );
        self.alu(
            Opcode::Shl,
            dest(t1, RegType::D),
            &[view(t1, RegType::D), imm(16, RegType::UD)],
        );
        self.alu(
            Opcode::Add,
            dest(t0, RegType::D),
            &[view(t0, RegType::D), view(t1, RegType::D)],
        );
        t0
    }

    /// The exact unsigned 64-bit product of two dwords, from four 16x16 products.
    fn mul32_full(&mut self, x: Loc, y: Loc) -> Loc {
        let uw = RegType::UW;
        let part = |l: &mut Self, a: Loc, b: Loc| {
            let t = l.new_loc(4);
            l.alu(
                Opcode::Mul,
                dest(t, RegType::UD),
                &[view(a, uw), view(b, uw)],
            );
            let q = l.new_loc(8);
            l.mov(dest(q, RegType::UQ), view(t, RegType::UD));
            q
        };
        let uq = RegType::UQ;
        let hh = part(self, x.plus(2), y.plus(2));
        let lh = part(self, x, y.plus(2));
        let hl = part(self, x.plus(2), y);
        let ll = part(self, x, y);
        self.alu(
            Opcode::Shl,
            dest(hh, uq),
            &[view(hh, uq), imm(32, RegType::UD)],
        );
        self.alu(Opcode::Add, dest(lh, uq), &[view(lh, uq), view(hl, uq)]);
        self.alu(
            Opcode::Shl,
            dest(lh, uq),
            &[view(lh, uq), imm(16, RegType::UD)],
        );
        self.alu(Opcode::Add, dest(hh, uq), &[view(hh, uq), view(lh, uq)]);
        self.alu(Opcode::Add, dest(hh, uq), &[view(hh, uq), view(ll, uq)]);
        hh
    }

    pub(crate) fn imul(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value").id;
        let (a, b) = (self.loc(i.srcs[0]), self.loc(i.srcs[1]));
        match bits {
            8 => {
                // The low byte of a dword x word product depends only on the low bytes.
                hit(cov::IMUL8);
                let loc = self.def(d, 8);
                self.alu(
                    Opcode::Mul,
                    dest(loc, RegType::D),
                    &[view(a, RegType::D), view(b, RegType::UW)],
                );
            }
            16 => {
                let loc = self.def(d, 16);
                self.alu(
                    Opcode::Mul,
                    dest(loc, RegType::W),
                    &[view(a, RegType::W), view(b, RegType::W)],
                );
            }
            32 => {
                hit(cov::IMUL32);
                let r = self.mul32_lo(a, b);
                self.set(d, Val::Grf(r));
            }
            _ => {
                hit(cov::IMUL64);
                let full = self.mul32_full(a, b);
                let c1 = self.mul32_lo(a, b.plus(4));
                let c2 = self.mul32_lo(a.plus(4), b);
                let ud = RegType::UD;
                self.alu(Opcode::Add, dest(c1, ud), &[view(c1, ud), view(c2, ud)]);
                self.alu(
                    Opcode::Add,
                    dest(full.plus(4), ud),
                    &[view(full.plus(4), ud), view(c1, ud)],
                );
                self.set(d, Val::Grf(full));
            }
        }
    }

    pub(crate) fn mul_high(&mut self, i: &Instr, bits: u8, signed: bool) {
        let d = i.dest.expect("defines a value").id;
        match bits {
            8 | 16 => {
                hit(cov::MULH_NARROW);
                let a = self.widen32(i, 0, signed);
                let b = self.widen32(i, 1, signed);
                let bl = self.new_loc(4);
                self.mov(dest(bl, RegType::UD), b);
                let (dt, wt) = if signed {
                    (RegType::D, RegType::W)
                } else {
                    (RegType::UD, RegType::UW)
                };
                let loc = self.def_container(d, bits);
                self.alu(Opcode::Mul, dest(loc, dt), &[a, view(bl, wt)]);
                let op = if signed { Opcode::Asr } else { Opcode::Shr };
                self.alu(
                    op,
                    dest(loc, dt),
                    &[view(loc, dt), imm(bits as u64, RegType::UD)],
                );
            }
            32 => {
                hit(cov::MULH32);
                let (a, b) = (self.loc(i.srcs[0]), self.loc(i.srcs[1]));
                let full = self.mul32_full(a, b);
                let hi = full.plus(4);
                if signed {
                    self.signed_high_fix(hi, a, b, RegType::D, 31);
                }
                self.set(d, Val::Grf(hi));
            }
            _ => {
                hit(cov::MULH64);
                let (a, b) = (self.loc(i.srcs[0]), self.loc(i.srcs[1]));
                let uq = RegType::UQ;
                let ll = self.mul32_full(a, b);
                let lh = self.mul32_full(a, b.plus(4));
                let hl = self.mul32_full(a.plus(4), b);
                let hh = self.mul32_full(a.plus(4), b.plus(4));
                let widen = |l: &mut Self, x: Loc| {
                    let q = l.new_loc(8);
                    l.mov(dest(q, uq), view(x, RegType::UD));
                    q
                };
                // mid = hi(ll) + lo(lh) + lo(hl), at most 34 bits.
                let mid = widen(self, ll.plus(4));
                let t = widen(self, lh);
                self.alu(Opcode::Add, dest(mid, uq), &[view(mid, uq), view(t, uq)]);
                let t = widen(self, hl);
                self.alu(Opcode::Add, dest(mid, uq), &[view(mid, uq), view(t, uq)]);
                self.alu(
                    Opcode::Shr,
                    dest(mid, uq),
                    &[view(mid, uq), imm(32, RegType::UD)],
                );
                let t = widen(self, lh.plus(4));
                self.alu(Opcode::Add, dest(hh, uq), &[view(hh, uq), view(t, uq)]);
                let t = widen(self, hl.plus(4));
                self.alu(Opcode::Add, dest(hh, uq), &[view(hh, uq), view(t, uq)]);
                self.alu(Opcode::Add, dest(hh, uq), &[view(hh, uq), view(mid, uq)]);
                if signed {
                    self.signed_high_fix(hh, a, b, RegType::Q, 63);
                }
                self.set(d, Val::Grf(hh));
            }
        }
    }

    /// Signed high half from the unsigned one: hi -= (a < 0 ? b : 0) + (b < 0 ? a : 0).
    fn signed_high_fix(&mut self, hi: Loc, a: Loc, b: Loc, ty: RegType, top: u64) {
        hit(cov::MULH_SIGNED_FIX);
        let lanes = if ty == RegType::Q { 8 } else { 4 };
        for (x, y) in [(a, b), (b, a)] {
            let s = self.new_loc(lanes);
            self.alu(
                Opcode::Asr,
                dest(s, ty),
                &[view(x, ty), imm(top, RegType::UD)],
            );
            self.alu(Opcode::And, dest(s, ty), &[view(s, ty), view(y, ty)]);
            self.alu(
                Opcode::Add,
                dest(hi, ty),
                &[view(hi, ty), view(s, ty).negated()],
            );
        }
    }

    pub(crate) fn division(&mut self, i: &Instr, bits: u8) {
        if bits == 64 {
            self.division64(i);
            return;
        }
        hit(cov::DIV_MATH);
        let d = i.dest.expect("defines a value").id;
        let signed = matches!(i.op, Op::Idiv | Op::Irem | Op::Imod);
        let a = self.widen32(i, 0, signed);
        let b = self.widen32(i, 1, signed);
        let ty = a.ty;
        let func = if matches!(i.op, Op::Idiv | Op::Udiv) {
            MathFn::IntDiv
        } else {
            MathFn::IntMod
        };
        let loc = self.def_container(d, bits);
        self.math(func, dest(loc, ty), a, b);
        if i.op == Op::Imod {
            self.floor_mod_fix(loc, b, ty);
        }
    }

    fn math(&mut self, func: MathFn, dst: eu::Dst, a: Src, b: Src) {
        let mut m = Instruction::alu(Opcode::Math, self.simd as u8, dst, &[a, b]);
        m.math = Some(func);
        self.emit(m);
    }

    /// imod from the truncating remainder r: where r != 0 and r, b have
    /// different signs, r += b (brw's cmp.nz + xor.l + predicated add).
    fn floor_mod_fix(&mut self, r: Loc, b: Src, ty: RegType) {
        hit(cov::IMOD_FIX);
        let f = SCRATCH_FLAG;
        let zero = if ty.size() == 8 {
            let z = self.new_loc(8);
            self.mov(dest(z, ty), imm(0, ty));
            view(z, ty)
        } else {
            imm(0, ty)
        };
        self.alu_cmod(
            Opcode::Cmp,
            CondMod::Nz,
            f,
            eu::Dst::null(ty),
            &[view(r, ty), zero],
        );
        self.alu_pred_cmod(
            Predicate::NORMAL,
            CondMod::L,
            f,
            Opcode::Xor,
            eu::Dst::null(ty),
            &[view(r, ty), b],
        );
        self.alu_pred(
            Predicate::NORMAL,
            f,
            Opcode::Add,
            dest(r, ty),
            &[view(r, ty), b],
        );
    }

    /// 64-bit division by shift-and-subtract (64 iterations, uniform trip count).
    fn division64(&mut self, i: &Instr) {
        hit(cov::DIV64);
        let d = i.dest.expect("defines a value").id;
        let signed = matches!(i.op, Op::Idiv | Op::Irem | Op::Imod);
        let (uq, q_ty) = (RegType::UQ, RegType::Q);
        let (a, b) = (self.loc(i.srcs[0]), self.loc(i.srcs[1]));
        // Magnitudes (abs of Q MIN is 2^63 read as unsigned, which is right).
        let n = self.new_loc(8);
        let dv = self.new_loc(8);
        if signed {
            self.mov(dest(n, q_ty), view(a, q_ty).absolute());
            self.mov(dest(dv, q_ty), view(b, q_ty).absolute());
        } else {
            self.mov(dest(n, uq), view(a, uq));
            self.mov(dest(dv, uq), view(b, uq));
        }
        let (q, r, k) = (self.new_loc(8), self.new_loc(8), self.new_loc(4));
        self.mov(dest(q, uq), imm(0, uq));
        self.mov(dest(r, uq), imm(0, uq));
        self.mov(dest(k, RegType::D), imm(63, RegType::D));
        let one = self.new_loc(8);
        self.mov(dest(one, uq), imm(1, uq));
        let f = SCRATCH_FLAG;
        let start = self.v.insts.len();
        let bit = self.new_loc(8);
        self.alu(
            Opcode::Shl,
            dest(r, uq),
            &[view(r, uq), imm(1, RegType::UD)],
        );
        self.alu(
            Opcode::Shr,
            dest(bit, uq),
            &[view(n, uq), view(k, RegType::UD)],
        );
        self.alu(Opcode::And, dest(bit, uq), &[view(bit, uq), view(one, uq)]);
        self.alu(Opcode::Or, dest(r, uq), &[view(r, uq), view(bit, uq)]);
        self.alu_cmod(
            Opcode::Cmp,
            CondMod::Ge,
            f,
            eu::Dst::null(uq),
            &[view(r, uq), view(dv, uq)],
        );
        self.alu_pred(
            Predicate::NORMAL,
            f,
            Opcode::Add,
            dest(r, q_ty),
            &[view(r, q_ty), view(dv, q_ty).negated()],
        );
        self.alu(
            Opcode::Shl,
            dest(bit, uq),
            &[view(one, uq), view(k, RegType::UD)],
        );
        self.alu_pred(
            Predicate::NORMAL,
            f,
            Opcode::Or,
            dest(q, uq),
            &[view(q, uq), view(bit, uq)],
        );
        self.alu_cmod(
            Opcode::Add,
            CondMod::Ge,
            f,
            dest(k, RegType::D),
            &[view(k, RegType::D), imm((-1i64) as u64, RegType::D)],
        );
        let mut w = Instruction::new(Opcode::While, self.simd as u8);
        w.pred = Some(Predicate::NORMAL);
        w.flag = f;
        w.jip = Some(start as u32);
        self.v.insts.push(w);
        let out = match i.op {
            Op::Idiv | Op::Udiv => q,
            _ => r,
        };
        if signed {
            hit(cov::DIV64_SIGNED);
            // Sign of the quotient: a ^ b; of the remainder: a.
            let s = self.new_loc(8);
            let sign_src = if i.op == Op::Idiv {
                self.alu(Opcode::Xor, dest(s, q_ty), &[view(a, q_ty), view(b, q_ty)]);
                view(s, q_ty)
            } else {
                view(a, q_ty)
            };
            let zero = self.new_loc(8);
            self.mov(dest(zero, q_ty), imm(0, q_ty));
            self.alu_cmod(
                Opcode::Cmp,
                CondMod::L,
                f,
                eu::Dst::null(q_ty),
                &[sign_src, view(zero, q_ty)],
            );
            self.alu_pred(
                Predicate::NORMAL,
                f,
                Opcode::Mov,
                dest(out, q_ty),
                &[view(out, q_ty).negated()],
            );
            if i.op == Op::Imod {
                self.floor_mod_fix(out, view(b, q_ty), q_ty);
            }
        }
        self.set(d, Val::Grf(out));
    }
}
