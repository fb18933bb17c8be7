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
//!
//! Most of those channels need not even the exact values: without
//! saturation or a conditional modifier, the result of a MOV, predicated
//! SEL, logic op, ADD, MUL or shift is the low bits of a value that depends
//! only on its operands modulo 2^64, so it is computed in 64-bit wrapping
//! arithmetic (a [`Kernel`]); another test holds each kernel to the
//! general lane at every width, signedness and source modifier.

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

    /// [`IntTy::extend`] modulo 2^64.
    #[inline(always)]
    fn extend64(self, bits: u64) -> i64 {
        let sh = self.sh - 64;
        if self.signed {
            ((bits << sh) as i64) >> sh
        } else {
            (bits & self.mask) as i64
        }
    }

    /// [`IntTy::wrap_signed`] modulo 2^64 (the width is at most 64 bits).
    #[inline(always)]
    fn wrap64(self, v: i64) -> i64 {
        let sh = self.sh - 64;
        (v << sh) >> sh
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

    /// [`IntSrc::value`] modulo 2^64: every step of it (extension, the
    /// wrap to the width, negation, absolute value) agrees with the exact
    /// one there.
    #[inline(always)]
    fn value64(self, bits: u64) -> u64 {
        let mut v = self.ty.extend64(bits);
        if self.ty.signed {
            if self.abs {
                v = self.ty.wrap64(v.wrapping_abs());
            }
            if self.neg {
                v = self.ty.wrap64(v.wrapping_neg());
            }
        } else if self.neg {
            v = v.wrapping_neg();
        }
        v as u64
    }

    /// [`IntSrc::logic`] modulo 2^64.
    #[inline(always)]
    fn logic64(self, bits: u64) -> u64 {
        let v = self.ty.extend64(bits) as u64;
        if self.neg {
            !v
        } else {
            v
        }
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
    /// The shortcut its channels take, if one applies.
    kernel: Kernel,
    /// Every source is plain (at least as wide as the destination and
    /// without modifiers) and the kernel is one whose kept low bits are
    /// those of the same operation on the raw bits (not a right shift, a
    /// compare or the general lane): the bits above a source's width, and
    /// its extension, never reach them, so [`IntInst::run_plain`] runs it
    /// on those.
    plain: bool,
}

/// An integer instruction without saturation or a conditional modifier:
/// its result is the low bits of an exact value that, for these
/// operations, depends only on the operands' values modulo 2^64, so its
/// channels compute in 64-bit wrapping arithmetic (what
/// [`IntInst::lane`] works out exactly in 128 bits; a test holds the two
/// to the same bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    /// None applies: every channel through [`IntInst::lane`].
    General,
    Mov,
    /// A predicated SEL: the source the channel's predicate picks.
    SelPred,
    Not,
    And,
    Or,
    Xor,
    Add,
    Shl,
    Shr,
    Asr,
    Mul,
    /// An integer compare (CMP, or CMPN: an integer is never NaN) of
    /// sources of at most 32 bits into a destination of at most 32: the
    /// sources' exact values fit in 64 bits, and such a compare draws no
    /// garbage (only a 64-bit result's upper half is undefined).
    Cmp(CondMod),
}

impl Kernel {
    /// The kernel of `d`, an integer instruction with `n` sources.
    fn of(d: &DInst, n: usize) -> Kernel {
        if matches!(d.op, Opcode::Cmp | Opcode::Cmpn)
            && d.dst.ty.size() <= 4
            && d.srcs[..n].iter().all(|s| s.ty.size() <= 4)
        {
            return Kernel::Cmp(d.cmod.unwrap_or(CondMod::Nz));
        }
        // Saturation and the conditions read the exact value.
        if d.sat || d.cmod.is_some() {
            return Kernel::General;
        }
        match d.op {
            // A product of two 64-bit values leaves even 128 bits (and
            // Gfx11 has no 64-bit integer multiply).
            Opcode::Mul if d.srcs[..n].iter().all(|s| s.ty.size() <= 4) => Kernel::Mul,
            Opcode::Mov => Kernel::Mov,
            Opcode::Sel if d.pred.is_some() => Kernel::SelPred,
            Opcode::Not => Kernel::Not,
            Opcode::And => Kernel::And,
            Opcode::Or => Kernel::Or,
            Opcode::Xor => Kernel::Xor,
            Opcode::Add => Kernel::Add,
            Opcode::Shl => Kernel::Shl,
            Opcode::Shr => Kernel::Shr,
            Opcode::Asr => Kernel::Asr,
            _ => Kernel::General,
        }
    }
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
        let dst = d.dst.ty.size();
        let kernel = Kernel::of(d, n);
        let raw_bits = !matches!(
            kernel,
            Kernel::General | Kernel::Shr | Kernel::Asr | Kernel::Cmp(_)
        );
        Some(IntInst {
            srcs,
            dst: IntTy::of(d.dst.ty),
            kernel,
            plain: raw_bits
                && d.srcs[..n]
                    .iter()
                    .all(|s| !s.neg && !s.abs && s.ty.size() >= dst),
        })
    }

    /// [`IntInst::run_pass`] of a plain instruction ([`IntInst::plain`]):
    /// on the raw bits, without working out the sources' values.
    #[inline(always)]
    fn run_plain(&self, raw: &[[u64; 32]; 3], pass: u32, pm: u32, out: &mut [u64; 32]) {
        use super::thread::channels as each;
        let m = self.dst.mask;
        let [a, b, _] = raw;
        // The shift count's bits, as `run_pass` takes them.
        let wide = self.srcs[0].ty.sh == 64 || self.dst.sh == 64;
        let cm = if wide { 63 } else { 31 };
        match self.kernel {
            Kernel::Mov => each(pass, |c| out[c] = a[c] & m),
            Kernel::SelPred => each(pass, |c| {
                out[c] = if pm >> c & 1 == 1 { a[c] } else { b[c] } & m
            }),
            Kernel::Not => each(pass, |c| out[c] = !a[c] & m),
            Kernel::And => each(pass, |c| out[c] = a[c] & b[c] & m),
            Kernel::Or => each(pass, |c| out[c] = (a[c] | b[c]) & m),
            Kernel::Xor => each(pass, |c| out[c] = (a[c] ^ b[c]) & m),
            Kernel::Add => each(pass, |c| out[c] = a[c].wrapping_add(b[c]) & m),
            Kernel::Mul => each(pass, |c| out[c] = a[c].wrapping_mul(b[c]) & m),
            Kernel::Shl => each(pass, |c| out[c] = a[c].wrapping_shl((b[c] & cm) as u32) & m),
            Kernel::General | Kernel::Shr | Kernel::Asr | Kernel::Cmp(_) => {
                unreachable!("not plain: {:?}", self.kernel)
            }
        }
    }

    /// Runs the channels of `pass` (sources in `raw`, the predicate in `pm`),
    /// their results into `out`; returns their flag bits. Not inlined into
    /// the machine's loop (see `Machine::gather`).
    #[inline(never)]
    pub(crate) fn run_pass(
        &self,
        d: &DInst,
        raw: &[[u64; 32]; 3],
        pass: u32,
        pm: u32,
        rng: &mut SplitMix,
        out: &mut [u64; 32],
    ) -> u32 {
        if self.plain {
            self.run_plain(raw, pass, pm, out);
            return 0;
        }
        let mut flags = 0;
        let m = self.dst.mask;
        let [a, b, _] = raw;
        let [x, y, _] = self.srcs;
        // The shift count's bits (`lane`: 63 when src0 or the destination
        // is 64-bit, else 31).
        let wide = x.ty.sh == 64 || self.dst.sh == 64;
        let cnt = |c: usize| (y.value64(b[c]) & if wide { 63 } else { 31 }) as u32;
        use super::thread::channels as each;
        match self.kernel {
            Kernel::General => each(pass, |c| {
                let r = self.lane(d, [a[c], b[c], raw[2][c]], pm >> c & 1 == 1, rng);
                out[c] = r.bits;
                flags |= u32::from(r.flag) << c;
            }),
            Kernel::Mov => each(pass, |c| out[c] = x.value64(a[c]) & m),
            Kernel::SelPred => each(pass, |c| {
                let v = if pm >> c & 1 == 1 {
                    x.value64(a[c])
                } else {
                    y.value64(b[c])
                };
                out[c] = v & m;
            }),
            Kernel::Not => each(pass, |c| out[c] = !x.logic64(a[c]) & m),
            Kernel::And => each(pass, |c| out[c] = x.logic64(a[c]) & y.logic64(b[c]) & m),
            Kernel::Or => each(pass, |c| out[c] = (x.logic64(a[c]) | y.logic64(b[c])) & m),
            Kernel::Xor => each(pass, |c| out[c] = (x.logic64(a[c]) ^ y.logic64(b[c])) & m),
            Kernel::Add => each(pass, |c| {
                out[c] = x.value64(a[c]).wrapping_add(y.value64(b[c])) & m
            }),
            Kernel::Mul => each(pass, |c| {
                out[c] = x.value64(a[c]).wrapping_mul(y.value64(b[c])) & m
            }),
            Kernel::Shl => each(pass, |c| out[c] = x.value64(a[c]).wrapping_shl(cnt(c)) & m),
            // The source's own width is what SHR and ASR shift within.
            Kernel::Shr => each(pass, |c| {
                out[c] = (x.value64(a[c]) & x.ty.mask) >> cnt(c) & m
            }),
            Kernel::Asr => each(pass, |c| {
                out[c] = (x.ty.wrap64(x.value64(a[c]) as i64) >> cnt(c)) as u64 & m
            }),
            Kernel::Cmp(cond) => {
                // The condition chosen once, not per channel.
                let mut compare = |holds: fn(i64, i64) -> bool| {
                    each(pass, |c| {
                        let r = holds(x.value64(a[c]) as i64, y.value64(b[c]) as i64);
                        out[c] = if r { m } else { 0 };
                        flags |= u32::from(r) << c;
                    })
                };
                match cond {
                    CondMod::Z => compare(|a, b| a == b),
                    CondMod::Nz => compare(|a, b| a != b),
                    CondMod::G => compare(|a, b| a > b),
                    CondMod::Ge => compare(|a, b| a >= b),
                    CondMod::L => compare(|a, b| a < b),
                    CondMod::Le => compare(|a, b| a <= b),
                    // Overflow and unordered never hold for integers.
                    CondMod::O | CondMod::U => compare(|_, _| false),
                }
            }
        }
        flags
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
        let mut kernels = std::collections::BTreeMap::new();
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
                // The pass as the machine runs it (through the kernel), in
                // channel 5 (alone: garbage is drawn channel by channel).
                let mut lanes = [[0u64; 32]; 3];
                for (l, &r) in lanes.iter_mut().zip(&raw) {
                    l[5] = r;
                }
                let pm = if sel_pred { 1 << 5 } else { 0 };
                let mut out = [0u64; 32];
                let mut r3 = SplitMix(seed);
                let flags = k.run_pass(&d, &lanes, 1 << 5, pm, &mut r3, &mut out);
                assert_eq!(
                    (out[5], flags >> 5 & 1 == 1),
                    (general.bits, general.flag),
                    "{what} as a pass ({:?})",
                    k.kernel
                );
                *kernels.entry(format!("{:?}", k.kernel)).or_insert(0) += 1;
                channels += 1;
            }
        }
        // Everything but SEL without a predicate or min/max cmod has an
        // integer form here.
        assert!(shapes > 30_000, "{shapes} integer shapes");
        assert_eq!(channels, 8 * shapes);
        // Kernels ran too (shapes without saturation or a conditional
        // modifier are rare here; the next test goes through each).
        assert!(kernels.len() > 5, "{kernels:?}");
    }

    #[test]
    fn every_kernel_gives_the_general_lane_s_bits_at_every_width_and_modifier() {
        let kernels = [
            (Opcode::Mov, Kernel::Mov),
            (Opcode::Sel, Kernel::SelPred),
            (Opcode::Not, Kernel::Not),
            (Opcode::And, Kernel::And),
            (Opcode::Or, Kernel::Or),
            (Opcode::Xor, Kernel::Xor),
            (Opcode::Add, Kernel::Add),
            (Opcode::Mul, Kernel::Mul),
            (Opcode::Shl, Kernel::Shl),
            (Opcode::Shr, Kernel::Shr),
            (Opcode::Asr, Kernel::Asr),
            (Opcode::Cmp, Kernel::Cmp(CondMod::Nz)),
            (Opcode::Cmpn, Kernel::Cmp(CondMod::Nz)),
        ];
        let mut rng = SplitMix(11);
        let mut checked = 0;
        // Per kernel, the shapes that took the raw-bits path.
        let mut plain = std::collections::BTreeMap::new();
        for (op, kernel) in kernels {
            for _ in 0..400 {
                // Any integer type for each operand (up to 32 bits for a
                // product's sources), each source negated or absolute or
                // both at random.
                let compare = matches!(kernel, Kernel::Cmp(_));
                let types = if op == Opcode::Mul || compare { 6 } else { 8 };
                let srcs: Vec<Src> = (0..op.num_srcs())
                    .map(|k| {
                        let ty = INT_TYPES[rng.next() as usize % types];
                        let mut s = Src::grf(10 + k as u32, 0, ty, Region::new(8, 8, 1));
                        s.neg = rng.next().is_multiple_of(3);
                        s.abs = rng.next().is_multiple_of(3);
                        s
                    })
                    .collect();
                let dst = INT_TYPES[rng.next() as usize % if compare { 6 } else { 8 }];
                let mut i = Instruction::alu(op, 8, Dst::grf(2, 0, dst, 1), &srcs);
                if op == Opcode::Sel {
                    i.pred = Some(Predicate::NORMAL);
                }
                let mut kernel = kernel;
                if compare {
                    // Every condition, and none (which compares as NZ).
                    i.cmod = CMODS[rng.next() as usize % CMODS.len()];
                    kernel = Kernel::Cmp(i.cmod.unwrap_or(CondMod::Nz));
                    i.sat = rng.next().is_multiple_of(2);
                }
                let d = decode_inst(&i, &MachineConfig::GFX11);
                let k = d.int.as_ref().expect("an integer form");
                assert_eq!(k.kernel, kernel, "{}", crate::print_instruction(&i));
                if k.plain {
                    *plain.entry(format!("{kernel:?}")).or_insert(0) += 1;
                }
                for c in 0..32 {
                    let raw = [bits(&mut rng), bits(&mut rng), bits(&mut rng)];
                    let mut lanes = [[0u64; 32]; 3];
                    for (l, &r) in lanes.iter_mut().zip(&raw) {
                        l[c] = r;
                    }
                    let sel_pred = rng.next().is_multiple_of(2);
                    let pm = u32::from(sel_pred) << c;
                    let mut out = [0u64; 32];
                    let mut r1 = SplitMix(0);
                    let flags = k.run_pass(&d, &lanes, 1 << c, pm, &mut r1, &mut out);
                    let general = any_lane(&d, raw, sel_pred, &mut SplitMix(0));
                    assert_eq!(
                        (out[c], flags),
                        (general.bits, u32::from(general.flag) << c),
                        "{} on {raw:x?} (sel_pred {sel_pred})",
                        crate::print_instruction(&i)
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 13 * 400 * 32);
        // Every kernel but the right shifts and compares ran on raw bits
        // for some of its shapes (sources at least as wide as the
        // destination, without modifiers).
        let want = [
            "Add", "And", "Mov", "Mul", "Not", "Or", "SelPred", "Shl", "Xor",
        ];
        assert_eq!(plain.keys().map(String::as_str).collect::<Vec<_>>(), want);
        assert!(plain.values().all(|&n| n >= 10), "{plain:?}");
    }

    #[test]
    fn saturation_and_conditions_take_the_general_lane() {
        let kernel_of = |text: &str| {
            let p = crate::asm::parse_program(text).unwrap();
            IntInst::of(&decode_inst(&p.insts[0], &MachineConfig::GFX11)).map(|k| k.kernel)
        };
        assert_eq!(
            kernel_of("add(8) g2<1>D g3<8,8,1>D -g4<8,8,1>UW"),
            Some(Kernel::Add)
        );
        assert_eq!(
            kernel_of("add.sat(8) g2<1>D g3<8,8,1>D g4<8,8,1>D"),
            Some(Kernel::General)
        );
        assert_eq!(
            kernel_of("add.z.f0.0(8) g2<1>D g3<8,8,1>D g4<8,8,1>D"),
            Some(Kernel::General)
        );
        assert_eq!(
            kernel_of("mul(8) g2<1>Q g3<8,8,1>Q g4<8,8,1>D"),
            Some(Kernel::General)
        );
        assert_eq!(
            kernel_of("avg(8) g2<1>D g3<8,8,1>D g4<8,8,1>D"),
            Some(Kernel::General)
        );
        assert_eq!(
            kernel_of("sel.l(8) g2<1>D g3<8,8,1>D g4<8,8,1>D"),
            Some(Kernel::General)
        );
        // A compare of sources and a result of at most 32 bits has its
        // kernel; a 64-bit source or result does not (the result's upper
        // half is garbage, a UQ's value beyond 64 signed bits).
        assert_eq!(
            kernel_of("cmp.le.f0.0(8) g2<1>W g3<8,8,1>D -g4<8,8,1>UD"),
            Some(Kernel::Cmp(CondMod::Le))
        );
        assert_eq!(
            kernel_of("cmp.l.f0.0(8) g2<1>UQ g4<4,4,1>UD g6<4,4,1>UD"),
            Some(Kernel::General)
        );
        assert_eq!(
            kernel_of("cmp.l.f0.0(8) g2<1>UD g4<4,4,1>UQ g6<4,4,1>UD"),
            Some(Kernel::General)
        );
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
