//! The integer instructions' channels, with their types' widths and
//! signedness worked out once per instruction.
//!
//! Nearly every channel a generated program executes is an integer MOV,
//! ADD, logic op, shift, compare or SEL on integer types. This is the same
//! arithmetic as [`super::lane::any_lane`] (the same exact values, the same
//! wrap, saturation, conditions and garbage), without asking each channel
//! what its operand types are: `lane` sends an instruction here when
//! decoding found it [`IntInst::of`] one, and a test holds the two to the
//! same results on every such instruction shape.

use super::decode::DInst;
use super::lane::LaneOut;
use super::num::{int_cond_holds, int_relation, Dom, SplitMix};
use crate::isa::{CondMod, Opcode};
use crate::types::RegType;

/// An integer operand type, as shifts and bounds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IntTy {
    /// 128 minus the width in bits (the shift that sign-extends).
    sh: u32,
    signed: bool,
    mask: u64,
    min: i128,
    max: i128,
}

impl IntTy {
    fn of(ty: RegType) -> IntTy {
        IntTy {
            sh: 128 - 8 * ty.size(),
            signed: ty.is_signed_int(),
            mask: ty.mask(),
            min: ty.int_min(),
            max: ty.int_max(),
        }
    }

    /// Raw bits as a value of the type (`num::extend`).
    #[inline(always)]
    fn extend(self, bits: u64) -> i128 {
        if self.signed {
            ((bits as i128) << self.sh) >> self.sh
        } else {
            (bits & self.mask) as i128
        }
    }

    /// Wraps an exact value to the signed range of the type's width.
    #[inline(always)]
    fn wrap_signed(self, v: i128) -> i128 {
        (v << self.sh) >> self.sh
    }
}

/// An integer source: its type and modifiers.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IntSrc {
    ty: IntTy,
    neg: bool,
    abs: bool,
}

impl IntSrc {
    /// The value with modifiers (`num::src_int`): signed types wrap at
    /// their width, a negated unsigned source is the exact negative.
    #[inline(always)]
    fn value(self, bits: u64) -> i128 {
        let mut v = self.ty.extend(bits);
        if self.ty.signed {
            if self.abs {
                v = self.ty.wrap_signed(v.abs());
            }
            if self.neg {
                v = self.ty.wrap_signed(-v);
            }
        } else if self.neg {
            v = -v;
        }
        v
    }

    /// The operand of a logic op: the value, bitwise NOT when negated.
    #[inline(always)]
    fn logic(self, bits: u64) -> i128 {
        let v = self.ty.extend(bits);
        if self.neg {
            !v
        } else {
            v
        }
    }
}

/// An integer instruction's operand types, worked out at decode.
#[derive(Clone, Debug)]
pub(crate) struct IntInst {
    srcs: [IntSrc; 3],
    dst: IntTy,
}

impl IntInst {
    /// The integer form of `d`, when it is one this module runs: an integer
    /// computation on integer sources into an integer destination.
    pub(crate) fn of(d: &DInst) -> Option<IntInst> {
        let supported = match d.op {
            Opcode::Mov
            | Opcode::Not
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Shl
            | Opcode::Shr
            | Opcode::Asr
            | Opcode::Cmp
            | Opcode::Cmpn
            | Opcode::Add
            | Opcode::Mul
            | Opcode::Avg => true,
            Opcode::Sel => d.pred.is_some() || matches!(d.cmod, Some(CondMod::L | CondMod::Ge)),
            _ => false,
        };
        let n = d.op.num_srcs();
        if !supported
            || d.dom != Dom::Int
            || d.dst.ty.is_float()
            || d.srcs.len() < n
            || d.srcs[..n].iter().any(|s| s.ty.is_float())
        {
            return None;
        }
        let mut srcs = [IntSrc {
            ty: IntTy::of(RegType::UD),
            neg: false,
            abs: false,
        }; 3];
        for (k, s) in d.srcs.iter().take(3).enumerate() {
            srcs[k] = IntSrc {
                ty: IntTy::of(s.ty),
                neg: s.neg,
                abs: s.abs,
            };
        }
        Some(IntInst {
            srcs,
            dst: IntTy::of(d.dst.ty),
        })
    }

    /// Converts to the destination and evaluates a flag-writing cmod
    /// (`lane::finish` on an integer: wrap or clamp, then the condition on
    /// the destination value).
    #[inline(always)]
    fn finish(&self, d: &DInst, v: i128) -> LaneOut {
        let t = self.dst;
        let ovf = v < t.min || v > t.max;
        let v = if d.sat { v.clamp(t.min, t.max) } else { v };
        let bits = (v as u128 as u64) & t.mask;
        let flag = d
            .cmod
            .is_some_and(|c| int_cond_holds(t.extend(bits), c, ovf));
        LaneOut { bits, flag }
    }

    /// Executes one channel (as [`super::lane::any_lane`] would).
    pub(crate) fn lane(
        &self,
        d: &DInst,
        raw: [u64; 3],
        sel_pred: bool,
        rng: &mut SplitMix,
    ) -> LaneOut {
        let s = &self.srcs;
        let val = |k: usize| s[k].value(raw[k]);
        match d.op {
            Opcode::Mov => self.finish(d, val(0)),
            Opcode::Sel => {
                let pick = if d.pred.is_some() {
                    usize::from(!sel_pred)
                } else {
                    let (a, b) = (val(0), val(1));
                    let first = if d.cmod == Some(CondMod::L) {
                        a < b
                    } else {
                        a >= b
                    };
                    usize::from(!first)
                };
                self.finish(d, val(pick))
            }
            Opcode::Not => self.finish(d, !s[0].logic(raw[0])),
            Opcode::And => self.finish(d, s[0].logic(raw[0]) & s[1].logic(raw[1])),
            Opcode::Or => self.finish(d, s[0].logic(raw[0]) | s[1].logic(raw[1])),
            Opcode::Xor => self.finish(d, s[0].logic(raw[0]) ^ s[1].logic(raw[1])),
            Opcode::Shl | Opcode::Shr | Opcode::Asr => {
                let wide = s[0].ty.sh == 64 || self.dst.sh == 64;
                let cnt = (val(1) as u64 & if wide { 63 } else { 31 }) as u32;
                let v = val(0);
                let sh = s[0].ty.sh;
                let n = match d.op {
                    Opcode::Shl => {
                        if v != 0 && v.unsigned_abs().leading_zeros() <= cnt + 1 {
                            // Far beyond any 64-bit range: keep the low bits exact.
                            let low = (v as u128).wrapping_shl(cnt) as u64;
                            if d.sat {
                                return self.finish(d, if v < 0 { i128::MIN } else { i128::MAX });
                            }
                            low as i128
                        } else {
                            v << cnt
                        }
                    }
                    Opcode::Shr => (((v as u128) << sh) >> sh >> cnt) as i128,
                    _ => ((v << sh) >> sh) >> cnt,
                };
                self.finish(d, n)
            }
            Opcode::Cmp | Opcode::Cmpn => {
                // An integer never is NaN: CMPN compares as CMP.
                let c = d.cmod.unwrap_or(CondMod::Nz);
                let r = int_relation(val(0), val(1), c);
                let mut bits = if r { self.dst.mask } else { 0 };
                if self.dst.sh == 64 {
                    // The upper dword of a 64-bit compare result is undefined.
                    bits = (bits & 0xffff_ffff) | (rng.next() << 32);
                }
                LaneOut { bits, flag: r }
            }
            Opcode::Add => self.finish(d, val(0) + val(1)),
            Opcode::Mul => self.finish(d, val(0) * val(1)),
            _ => {
                let (a, b) = (val(0), val(1));
                self.finish(d, (a + b + 1) >> 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::decode::decode_inst;
    use super::super::lane::any_lane;
    use super::*;
    use crate::isa::{Dst, Instruction, MachineConfig, Predicate, Region, Src};

    const INT_TYPES: [RegType; 8] = [
        RegType::B,
        RegType::UB,
        RegType::W,
        RegType::UW,
        RegType::D,
        RegType::UD,
        RegType::Q,
        RegType::UQ,
    ];
    const OPS: [Opcode; 14] = [
        Opcode::Mov,
        Opcode::Sel,
        Opcode::Not,
        Opcode::And,
        Opcode::Or,
        Opcode::Xor,
        Opcode::Shl,
        Opcode::Shr,
        Opcode::Asr,
        Opcode::Cmp,
        Opcode::Cmpn,
        Opcode::Add,
        Opcode::Mul,
        Opcode::Avg,
    ];
    const CMODS: [Option<CondMod>; 9] = [
        None,
        Some(CondMod::Z),
        Some(CondMod::Nz),
        Some(CondMod::G),
        Some(CondMod::Ge),
        Some(CondMod::L),
        Some(CondMod::Le),
        Some(CondMod::O),
        Some(CondMod::U),
    ];

    /// Source bits: the edges of every width (zero, one, all ones, the sign
    /// bits and their neighbours) and random words.
    fn bits(rng: &mut SplitMix) -> u64 {
        let r = rng.next();
        match r % 4 {
            0 => [0, 1, 2, u64::MAX, 0x7f, 0x80, 0xff][(r >> 8) as usize % 7],
            1 => {
                let b = [7u32, 15, 31, 63][(r >> 8) as usize % 4];
                (1u64 << b).wrapping_add((r >> 16) % 3).wrapping_sub(1)
            }
            _ => rng.next() >> ((r >> 8) % 64),
        }
    }

    #[test]
    fn every_integer_instruction_shape_runs_as_the_general_lane_does() {
        let mut rng = SplitMix(7);
        let (mut shapes, mut channels) = (0, 0);
        for _ in 0..40_000 {
            let op = OPS[rng.next() as usize % OPS.len()];
            let ty = |rng: &mut SplitMix| INT_TYPES[rng.next() as usize % INT_TYPES.len()];
            let srcs: Vec<Src> = (0..op.num_srcs())
                .map(|k| {
                    let mut s = Src::grf(10 + k as u32, 0, ty(&mut rng), Region::new(8, 8, 1));
                    s.neg = rng.next().is_multiple_of(3);
                    s.abs = rng.next().is_multiple_of(3);
                    s
                })
                .collect();
            let mut i = Instruction::alu(op, 8, Dst::grf(2, 0, ty(&mut rng), 1), &srcs);
            i.sat = rng.next().is_multiple_of(4);
            i.cmod = CMODS[rng.next() as usize % CMODS.len()];
            if op == Opcode::Sel && rng.next().is_multiple_of(2) {
                i.pred = Some(Predicate::NORMAL);
            }
            if op == Opcode::Mul && srcs.iter().any(|s| s.ty.size() == 8) {
                // No 64-bit integer multiply on Gfx11 (the validator's
                // mul-qword): never simulated, and beyond i128.
                continue;
            }
            let d = decode_inst(&i, &MachineConfig::GFX11);
            let Some(k) = &d.int else { continue };
            shapes += 1;
            for _ in 0..8 {
                let raw = [bits(&mut rng), bits(&mut rng), bits(&mut rng)];
                let sel_pred = rng.next().is_multiple_of(2);
                let seed = rng.next();
                let (mut r1, mut r2) = (SplitMix(seed), SplitMix(seed));
                let fast = k.lane(&d, raw, sel_pred, &mut r1);
                let general = any_lane(&d, raw, sel_pred, &mut r2);
                let what = format!(
                    "{} on {raw:x?} (sel_pred {sel_pred})",
                    crate::print_instruction(&i)
                );
                assert_eq!(
                    (fast.bits, fast.flag),
                    (general.bits, general.flag),
                    "{what}"
                );
                assert_eq!(r1.0, r2.0, "garbage drawn alike: {what}");
                channels += 1;
            }
        }
        // Everything but SEL without a predicate or min/max cmod has an
        // integer form here.
        assert!(shapes > 30_000, "{shapes} integer shapes");
        assert_eq!(channels, 8 * shapes);
    }

    #[test]
    fn only_integer_computations_have_an_integer_form() {
        let int_of = |text: &str| {
            let p = crate::asm::parse_program(text).unwrap();
            IntInst::of(&decode_inst(&p.insts[0], &MachineConfig::GFX11)).is_some()
        };
        assert!(int_of("add(8) g2<1>D g3<8,8,1>D -g4<8,8,1>UW"));
        assert!(int_of("cmp.l.f0.0(8) g2<1>UQ g4<4,4,1>UQ g6<4,4,1>UQ"));
        assert!(int_of("(+f0.0) sel(8) g2<1>UD g3<8,8,1>UD 7UD"));
        // A float source, a float destination, a min/max-less SEL, MAD.
        assert!(!int_of("add(8) g2<1>D g3<8,8,1>F g4<8,8,1>D"));
        assert!(!int_of("mov(8) g2<1>F g3<8,8,1>D"));
        assert!(!int_of("sel(8) g2<1>D g3<8,8,1>D g4<8,8,1>D"));
        assert!(!int_of("mad(8) g2<1>D g3<8,8,1>D g4<8,8,1>D g5<8,8,1>D"));
    }
}
