//! Conversions between every size and kind, through the routes the
//! hardware allows (EU-MODEL §1.6): no direct B/UB <-> 64-bit or HF <-> 64-bit
//! conversions (they go through 32 bits), a destination narrower than the
//! execution type must be strided to its size (so 64 -> 32 bits writes a
//! dword every qword), and f64 -> f16 rounds to odd in f32 first so that the
//! final rounding is the only one (as nir_lower_fp16_casts does).

use super::alu::{float, sint, uint};
use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, Val, SCRATCH_FLAG};
use crate::coverage::hit;
use eu::{CondMod, Opcode, Predicate, RegType, Src};
use ir::{Instr, Op};

impl Lower<'_> {
    pub(crate) fn conversion(&mut self, i: &Instr, m: u8, n: u8) {
        let d = i.dest.expect("defines a value").id;
        match i.op {
            Op::I2i | Op::U2u => self.int_to_int(i, m, n, i.op == Op::I2i),
            Op::I2f | Op::U2f => self.int_to_float(i, m, n, i.op == Op::I2f),
            Op::F2i | Op::F2u => self.float_to_int(i, m, n, i.op == Op::F2i),
            Op::F2f => self.float_to_float(i, m, n),
            Op::B2i | Op::B2f => {
                let (mut src, width) = self.bool_operand(i.srcs[0]);
                if width == 8 && n == 64 {
                    // No byte <-> 64-bit conversion: through a dword.
                    let t = self.new_loc(4);
                    self.mov(dest(t, RegType::D), src);
                    src = view(t, RegType::D);
                }
                hit(match width {
                    8 => cov::B2X_FROM_BOOL8,
                    16 => cov::B2X_FROM_BOOL16,
                    _ => cov::B2X_FROM_BOOL32,
                });
                let loc = self.def(d, n);
                let ty = match (i.op, n) {
                    (Op::B2f, _) => float(n),
                    (_, 8) => RegType::D,
                    _ => sint(n),
                };
                // true is ~0, so -(~0) = 1 (an integer source converted to ty).
                let src =
                    if width == 32 && n == 64 && self.bugs.has(crate::bugs::Bug::B2x64UnsignedBool)
                    {
                        // Injected bug (BUGS.md: b2x64-unsigned-bool): the
                        // boolean is read as UD, 4294967295, not -1.
                        Src {
                            ty: RegType::UD,
                            ..src
                        }
                    } else {
                        src
                    };
                self.mov(dest(loc, ty), src.negated());
            }
            Op::I2b => {
                let (a, z) = match m {
                    8 => {
                        hit(cov::I2B8);
                        let s = self.s(i, 0, RegType::UB);
                        let t = self.new_loc(4);
                        self.mov(dest(t, RegType::UW), s);
                        (view(t, RegType::UW), imm(0, RegType::UW))
                    }
                    64 => {
                        hit(cov::X2B64);
                        let zero = self.new_loc(8);
                        self.mov(dest(zero, RegType::UQ), imm(0, RegType::UQ));
                        (self.s(i, 0, RegType::UQ), view(zero, RegType::UQ))
                    }
                    _ => (self.s(i, 0, uint(m)), imm(0, uint(m))),
                };
                self.compare(d, CondMod::Nz, a, z);
            }
            Op::F2b => {
                let ty = float(m);
                let a = self.s(i, 0, ty);
                let z = if m == 64 {
                    hit(cov::X2B64);
                    let zero = self.new_loc(8);
                    self.mov(dest(zero, ty), imm(0, ty));
                    view(zero, ty)
                } else {
                    imm(0, ty)
                };
                self.compare(d, CondMod::Nz, a, z);
            }
            other => unreachable!("{} is not a conversion", other.name()),
        }
    }

    fn int_to_int(&mut self, i: &Instr, m: u8, n: u8, signed: bool) {
        let d = i.dest.expect("defines a value").id;
        let src = self.loc(i.srcs[0]);
        if n <= m {
            // Truncation: the low bytes of the container already hold it
            // (bytes are re-packed a dword per lane: a byte view of a qword
            // per lane has no encodable stride).
            // Never alias a phi's storage: it is rewritten at every back edge
            // (and by the parallel phi copies), while this value must not be.
            // A 64-bit copy of a phi keeps a qword per lane (a dword
            // container would drop the high half and make qword views of
            // it unencodable).
            let loc = if n == 64 && self.is_phi_storage(src) {
                hit(cov::TRUNC_PHI_COPY64);
                let t = self.new_loc(8);
                self.mov(dest(t, RegType::UQ), view(src, RegType::UQ));
                t
            } else if n == 8 && src.lane_bytes == 8 {
                hit(cov::TRUNC_BYTE_FROM_QWORD);
                self.dword_container(src)
            } else if n == 8 && src.lane_bytes == 2 {
                // Bytes live in dword containers, not in packed words.
                hit(cov::TRUNC_BYTE_FROM_WORDS);
                self.dword_container(src)
            } else if self.is_phi_storage(src) {
                hit(cov::TRUNC_PHI_COPY);
                self.dword_container(src)
            } else {
                src
            };
            self.set(d, Val::Grf(loc));
            return;
        }
        let from = if signed { sint(m) } else { uint(m) };
        let loc = self.def(d, n);
        if n == 64 && m == 8 {
            hit(cov::EXTEND_8_TO_64);
            let t = self.new_loc(4);
            let mid = if signed { RegType::D } else { RegType::UD };
            self.mov(dest(t, mid), view(src, from));
            self.mov(dest(loc, sint(64)), view(t, mid));
        } else {
            let to = match n {
                64 => sint(64),
                16 => RegType::W,
                _ => RegType::D,
            };
            self.mov(dest(loc, to), view(src, from));
        }
    }

    fn int_to_float(&mut self, i: &Instr, m: u8, n: u8, signed: bool) {
        let d = i.dest.expect("defines a value").id;
        let mut src: Src = if m == 8 {
            self.widen32(i, 0, signed)
        } else {
            self.s(i, 0, if signed { sint(m) } else { uint(m) })
        };
        if m == 64 && n <= 32 {
            // A 32-bit result narrower than the Q execution type is strided
            // to a qword. For f16, Q -> F is exact below 2^24 and f16
            // overflows at 65520, so Q -> F -> HF rounds once where it matters.
            let t = self.new_loc(8);
            self.mov(dest(t, RegType::F), src);
            if n == 32 {
                hit(cov::I2F64_TO_32);
                self.set(d, Val::Grf(t));
                return;
            }
            hit(cov::I2F64_TO_16);
            src = view(t, RegType::F);
        }
        let loc = self.def(d, n);
        self.mov(dest(loc, float(n)), src);
    }

    fn float_to_int(&mut self, i: &Instr, m: u8, n: u8, signed: bool) {
        let d = i.dest.expect("defines a value").id;
        let mut src = self.s(i, 0, float(m));
        if m == 16 && n == 64 {
            hit(cov::F2I16_TO_64);
            let t = self.new_loc(4);
            self.mov(dest(t, RegType::F), src);
            src = view(t, RegType::F);
        }
        let to32 = if signed { RegType::D } else { RegType::UD };
        match (m, n) {
            (_, 64) => {
                let loc = self.def(d, 64);
                self.mov(
                    dest(loc, if signed { RegType::Q } else { RegType::UQ }),
                    src,
                );
            }
            (64, _) => {
                // A 32-bit destination narrower than the DF execution type
                // is strided to a qword; the value is its low dword.
                hit(cov::F2I64_STRIDED);
                let t = self.new_loc(8);
                self.mov(dest(t, to32), src);
                let t = if n == 8 {
                    hit(cov::F2I64_TO_8);
                    self.dword_container(t)
                } else {
                    t
                };
                self.set(d, Val::Grf(t));
            }
            _ => {
                // In range by definition, so the low bits of the 32-bit
                // result are the 8-bit answer; a 16-bit one converts to
                // its packed words directly (a strided temporary first,
                // which `emit` adds).
                let loc = self.def(d, n);
                let to = match (n, signed) {
                    (16, true) => RegType::W,
                    (16, false) => RegType::UW,
                    _ => to32,
                };
                self.mov(dest(loc, to), src);
            }
        }
    }

    fn float_to_float(&mut self, i: &Instr, m: u8, n: u8) {
        let d = i.dest.expect("defines a value").id;
        let src = self.s(i, 0, float(m));
        if m == n {
            // Same size: canonicalizes NaN (a MOV would keep the payload).
            hit(cov::F2F_SAME);
            let loc = self.def(d, n);
            self.alu_cmod(
                Opcode::Sel,
                CondMod::Ge,
                eu::FlagReg::default(),
                dest(loc, float(n)),
                &[src, src],
            );
            return;
        }
        match (m, n) {
            (16, 64) => {
                hit(cov::F2F16_TO_64);
                let t = self.new_loc(4);
                self.mov(dest(t, RegType::F), src);
                let loc = self.def(d, 64);
                self.mov(dest(loc, RegType::DF), view(t, RegType::F));
            }
            (64, 32) => {
                hit(cov::F2F64_TO_32);
                let t = self.new_loc(8);
                self.mov(dest(t, RegType::F), src);
                self.set(d, Val::Grf(t));
            }
            (64, 16) => {
                hit(cov::F2F64_TO_16);
                let f = self.df_to_f_round_to_odd(i);
                let loc = self.def(d, 16);
                self.mov(dest(loc, RegType::HF), view(f, RegType::F));
            }
            _ => {
                let loc = self.def(d, n);
                self.mov(dest(loc, float(n)), src);
            }
        }
    }

    /// The low dword of each qword (or each packed word), re-packed a
    /// dword per lane.
    pub(crate) fn dword_container(&mut self, q: Loc) -> Loc {
        let t = self.new_loc(4);
        let ty = if q.lane_bytes == 2 {
            RegType::UW
        } else {
            RegType::UD
        };
        self.mov(dest(t, ty), view(q, ty));
        t
    }

    /// DF -> F rounded to odd (the F value's storage is strided to qwords):
    /// round to nearest, and where that was inexact and gave an even
    /// mantissa, step one ulp toward the exact value.
    fn df_to_f_round_to_odd(&mut self, i: &Instr) -> Loc {
        let x = self.s(i, 0, RegType::DF);
        let t = self.new_loc(8);
        self.mov(dest(t, RegType::F), x);
        let back = self.new_loc(8);
        self.mov(dest(back, RegType::DF), view(t, RegType::F));
        // diff = x - back is exact (Sterbenz); its sign against x's says
        // whether the magnitude must grow (+1 on the bits) or shrink (-1).
        let diff = self.new_loc(8);
        self.alu(
            Opcode::Add,
            dest(diff, RegType::DF),
            &[x, view(back, RegType::DF).negated()],
        );
        let s = self.new_loc(4);
        let xhi = view(self.loc(i.srcs[0]).plus(4), RegType::UD);
        self.alu(
            Opcode::Xor,
            dest(s, RegType::UD),
            &[view(diff.plus(4), RegType::UD), xhi],
        );
        let adj = self.new_loc(4);
        self.alu(
            Opcode::Asr,
            dest(adj, RegType::D),
            &[view(s, RegType::D), imm(31, RegType::UD)],
        );
        self.alu(
            Opcode::Or,
            dest(adj, RegType::D),
            &[view(adj, RegType::D), imm(1, RegType::D)],
        );
        let f = SCRATCH_FLAG;
        self.alu_cmod(
            Opcode::Cmp,
            CondMod::Nz,
            f,
            eu::Dst::null(RegType::DF),
            &[view(back, RegType::DF), x],
        );
        let bits = view(t, RegType::UD);
        // Where inexact, the flag becomes "the mantissa is even".
        self.alu_pred_cmod(
            Predicate::NORMAL,
            CondMod::Z,
            f,
            Opcode::And,
            eu::Dst::null(RegType::UD),
            &[bits, imm(1, RegType::UD)],
        );
        self.alu_pred(
            Predicate::NORMAL,
            f,
            Opcode::Add,
            dest(t, RegType::D),
            &[view(t, RegType::D), view(adj, RegType::D)],
        );
        t
    }
}
