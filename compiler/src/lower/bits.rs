//! Bitfield ops: the native BFE/BFI1/BFI2 for bfm/bfi/ibfe/ubfe, GLSL
//! bitfield_insert through BFI1+BFI2 with the bits = 32 case selected, bit
//! scans through LZD/FBL/CBIT/BFREV, 64-bit forms from the two dwords (a
//! 64-bit find_lsb/ufind_msb/bit_count must not stop at 32 bits, a2d384a5c09),
//! and byte/word extraction through shifts.

use super::alu::{sint, uint};
use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, SCRATCH_FLAG};
use crate::coverage::hit;
use eu::{CondMod, Opcode, Predicate, RegType, Src};
use ir::{Instr, Op};

impl Lower<'_> {
    pub(crate) fn bitfield(&mut self, i: &Instr, src_bits: u8) {
        use Op::*;
        let d = i.dest.expect("defines a value");
        let ud = RegType::UD;
        match i.op {
            Bfm => {
                let (w, o) = (self.s(i, 0, ud), self.s(i, 1, ud));
                let loc = self.def(d.id, 32);
                self.alu(Opcode::Bfi1, dest(loc, ud), &[w, o]);
            }
            Bfi => {
                let (m, ins, base) = (self.s(i, 0, ud), self.s(i, 1, ud), self.s(i, 2, ud));
                let loc = self.def(d.id, 32);
                self.alu(Opcode::Bfi2, dest(loc, ud), &[m, ins, base]);
            }
            Ibfe | Ubfe => {
                let ty = if i.op == Ibfe { RegType::D } else { ud };
                let (v, o, w) = (self.s(i, 0, ty), self.s(i, 1, ty), self.s(i, 2, ty));
                let loc = self.def(d.id, 32);
                self.alu(Opcode::Bfe, dest(loc, ty), &[w, o, v]);
            }
            BitfieldInsert => {
                // bits > 31 ? insert : bfi(bfm(bits, offset), insert, base)
                hit(cov::BITFIELD_INSERT);
                let (base, ins, off, bits) = (
                    self.s(i, 0, ud),
                    self.s(i, 1, ud),
                    self.s(i, 2, ud),
                    self.s(i, 3, ud),
                );
                let mask = self.new_loc(4);
                self.alu(Opcode::Bfi1, dest(mask, ud), &[bits, off]);
                let loc = self.def(d.id, 32);
                self.alu(Opcode::Bfi2, dest(loc, ud), &[view(mask, ud), ins, base]);
                self.select_full_width(i, 3, loc, ud, ins);
            }
            IbitfieldExtract | UbitfieldExtract => {
                // bits > 31 ? value : bfe(bits, offset, value). Defined
                // inputs have offset + bits <= 32, where BFE's
                // `value >> offset` case is exactly the field; only bits =
                // 32 (offset 0) is beyond its 5-bit count.
                hit(cov::BITFIELD_EXTRACT);
                let ty = if i.op == IbitfieldExtract {
                    RegType::D
                } else {
                    ud
                };
                let (v, o, w) = (self.s(i, 0, ty), self.s(i, 1, ty), self.s(i, 2, ty));
                let loc = self.def(d.id, 32);
                self.alu(Opcode::Bfe, dest(loc, ty), &[w, o, v]);
                self.select_full_width(i, 2, loc, ty, v);
            }
            BitfieldReverse => self.bit_reverse(i, src_bits),
            BitCount => self.bit_count(i, src_bits),
            FindLsb => self.find_lsb(i, src_bits),
            UfindMsb | IfindMsb => self.find_msb(i, src_bits, i.op == IfindMsb),
            ExtractU8 | ExtractI8 | ExtractU16 | ExtractI16 => self.extract(i, src_bits),
            other => unreachable!("{} is not a bitfield op", other.name()),
        }
    }

    /// Where source `bits` (a field width) is above 31, which the EU's 5-bit
    /// counts cannot express, replaces `loc` with `whole` (GLSL's bits = 32).
    fn select_full_width(&mut self, i: &Instr, bits: usize, loc: Loc, ty: RegType, whole: Src) {
        let b = self.s(i, bits, RegType::D);
        self.alu_cmod(
            Opcode::Cmp,
            CondMod::G,
            SCRATCH_FLAG,
            eu::Dst::null(RegType::D),
            &[b, imm(31, RegType::D)],
        );
        self.alu_pred(
            Predicate::NORMAL,
            SCRATCH_FLAG,
            Opcode::Sel,
            dest(loc, ty),
            &[whole, view(loc, ty)],
        );
    }

    /// Source `k` zero-extended to a full dword (8/16-bit containers have
    /// unspecified upper bits).
    fn zext32(&mut self, i: &Instr, k: usize, bits: u8) -> Src {
        if bits == 32 {
            return self.s(i, k, RegType::UD);
        }
        hit(cov::ZEXT_NARROW);
        let t = self.new_loc(4);
        if bits == 16 {
            // A zero-extending MOV reads the word in either layout.
            let src = self.s(i, k, RegType::UW);
            self.mov(dest(t, RegType::UD), src);
        } else {
            let src = self.s(i, k, RegType::UD);
            self.alu(
                Opcode::And,
                dest(t, RegType::UD),
                &[src, imm(0xff, RegType::UD)],
            );
        }
        view(t, RegType::UD)
    }

    fn bit_reverse(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value");
        let ud = RegType::UD;
        let src = self.loc(i.srcs[0]);
        let src = self.at_least(src, 4);
        let loc = self.def_container(d.id, bits);
        if bits == 64 {
            hit(cov::BITREV64);
            self.alu(Opcode::Bfrev, dest(loc, ud), &[view(src.plus(4), ud)]);
            self.alu(Opcode::Bfrev, dest(loc.plus(4), ud), &[view(src, ud)]);
            return;
        }
        self.alu(Opcode::Bfrev, dest(loc, ud), &[view(src, ud)]);
        if bits < 32 {
            // The reversed field sits in the top bits.
            hit(cov::BITREV_NARROW);
            self.alu(
                Opcode::Shr,
                dest(loc, ud),
                &[view(loc, ud), imm(32 - bits as u64, ud)],
            );
        }
    }

    fn bit_count(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value");
        let ud = RegType::UD;
        if bits == 64 {
            hit(cov::BITCOUNT64);
            let src = self.loc(i.srcs[0]);
            let lo = self.new_loc(4);
            self.alu(Opcode::Cbit, dest(lo, ud), &[view(src, ud)]);
            let hi = self.new_loc(4);
            self.alu(Opcode::Cbit, dest(hi, ud), &[view(src.plus(4), ud)]);
            let loc = self.def(d.id, 32);
            self.alu(Opcode::Add, dest(loc, ud), &[view(lo, ud), view(hi, ud)]);
            return;
        }
        let x = self.zext32(i, 0, bits);
        let loc = self.def(d.id, 32);
        self.alu(Opcode::Cbit, dest(loc, ud), &[x]);
    }

    fn find_lsb(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value");
        let ud = RegType::UD;
        if bits == 64 {
            // lo != 0 ? fbl(lo) : hi != 0 ? 32 + fbl(hi) : -1
            hit(cov::FIND_LSB64);
            let src = self.loc(i.srcs[0]);
            let loc = self.def(d.id, 32);
            self.alu(Opcode::Fbl, dest(loc, ud), &[view(src, ud)]);
            let h = self.new_loc(4);
            self.alu(Opcode::Fbl, dest(h, ud), &[view(src.plus(4), ud)]);
            self.alu(Opcode::Add, dest(h, ud), &[view(h, ud), imm(32, ud)]);
            let f = SCRATCH_FLAG;
            self.alu_cmod(
                Opcode::Cmp,
                CondMod::Z,
                f,
                eu::Dst::null(ud),
                &[view(src.plus(4), ud), imm(0, ud)],
            );
            self.alu_pred(
                Predicate::NORMAL,
                f,
                Opcode::Mov,
                dest(h, ud),
                &[imm(0xffff_ffff, ud)],
            );
            self.alu_cmod(
                Opcode::Cmp,
                CondMod::Z,
                f,
                eu::Dst::null(ud),
                &[view(src, ud), imm(0, ud)],
            );
            self.alu_pred(
                Predicate::NORMAL,
                f,
                Opcode::Mov,
                dest(loc, ud),
                &[view(h, ud)],
            );
            return;
        }
        let x = self.zext32(i, 0, bits);
        let loc = self.def(d.id, 32);
        self.alu(Opcode::Fbl, dest(loc, ud), &[x]);
    }

    /// 31 - lzd(x), which is -1 for 0.
    fn msb32(&mut self, x: Src, out: Loc, top: u64) {
        let t = self.new_loc(4);
        self.alu(Opcode::Lzd, dest(t, RegType::UD), &[x]);
        self.alu(
            Opcode::Add,
            dest(out, RegType::D),
            &[view(t, RegType::D).negated(), imm(top, RegType::D)],
        );
    }

    fn find_msb(&mut self, i: &Instr, bits: u8, signed: bool) {
        let d = i.dest.expect("defines a value");
        let ud = RegType::UD;
        // ifind_msb(x) = ufind_msb(x < 0 ? ~x : x).
        let src: Loc = if signed {
            hit(cov::IFIND_MSB);
            let ty = sint(bits.max(32));
            let x = if bits < 32 {
                self.widen32(i, 0, true)
            } else {
                self.s(i, 0, ty)
            };
            let lanes = if bits == 64 { 8 } else { 4 };
            let s = self.new_loc(lanes);
            self.alu(
                Opcode::Asr,
                dest(s, ty),
                &[x, imm(bits.max(32) as u64 - 1, RegType::UD)],
            );
            let y = self.new_loc(lanes);
            self.alu(Opcode::Xor, dest(y, ty), &[x, view(s, ty)]);
            y
        } else if bits < 32 {
            let x = self.zext32(i, 0, bits);
            let t = self.new_loc(4);
            self.mov(dest(t, ud), x);
            t
        } else {
            self.loc(i.srcs[0])
        };
        let loc = self.def(d.id, 32);
        if bits == 64 {
            // hi != 0 ? 63 - lzd(hi) : 31 - lzd(lo)
            hit(cov::FIND_MSB64);
            self.msb32(view(src, ud), loc, 31);
            let h = self.new_loc(4);
            self.msb32(view(src.plus(4), ud), h, 63);
            let f = SCRATCH_FLAG;
            self.alu_cmod(
                Opcode::Cmp,
                CondMod::Nz,
                f,
                eu::Dst::null(ud),
                &[view(src.plus(4), ud), imm(0, ud)],
            );
            self.alu_pred(
                Predicate::NORMAL,
                f,
                Opcode::Mov,
                dest(loc, ud),
                &[view(h, ud)],
            );
        } else {
            self.msb32(view(src, ud), loc, 31);
        }
    }

    /// extract_[ui](8|16): shift the field down, then zero- or sign-extend it.
    fn extract(&mut self, i: &Instr, bits: u8) {
        let d = i.dest.expect("defines a value");
        let (width, signed) = match i.op {
            Op::ExtractU8 => (8u8, false),
            Op::ExtractI8 => (8, true),
            Op::ExtractU16 => (16, false),
            _ => (16, true),
        };
        let idx = self.s(i, 1, RegType::UD);
        let sh = self.new_loc(4);
        self.alu(
            Opcode::Shl,
            dest(sh, RegType::UD),
            &[idx, imm(if width == 8 { 3 } else { 4 }, RegType::UD)],
        );
        let wide = bits.max(32);
        let (x, uty) = if bits == 64 {
            (self.s(i, 0, RegType::UQ), RegType::UQ)
        } else {
            (self.zext32(i, 0, bits), RegType::UD)
        };
        let t = self.new_loc(if wide == 64 { 8 } else { 4 });
        self.alu(Opcode::Shr, dest(t, uty), &[x, view(sh, RegType::UD)]);
        let loc = self.def(d.id, bits);
        let field = if signed { sint(width) } else { uint(width) };
        // A byte view needs a dword per lane (a qword stride is not encodable).
        let t = if wide == 64 && width == 8 {
            hit(cov::EXTRACT64_BYTE);
            self.dword_container(t)
        } else {
            t
        };
        if wide == 64 {
            hit(cov::EXTRACT64);
            let m = self.new_loc(4);
            self.mov(
                dest(m, if signed { RegType::D } else { RegType::UD }),
                view(t, field),
            );
            self.mov(
                dest(loc, if signed { RegType::Q } else { RegType::UQ }),
                view(m, if signed { RegType::D } else { RegType::UD }),
            );
        } else {
            // Into the value's own words when it is 16-bit (packed).
            let out = if bits == 16 { 16 } else { 32 };
            let ty = if signed { sint(out) } else { uint(out) };
            self.mov(dest(loc, ty), view(t, field));
        }
    }
}
