//! Numeric semantics: reading typed values with source modifiers,
//! conversion to the destination type, conditions (ISA.md "Data path").

use crate::fp;
use crate::isa::CondMod;
use crate::types::RegType;

/// A value in an instruction's computation domain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    /// Exact integer.
    I(i128),
    /// Float, exactly representable in its domain's precision.
    F(f64),
}

/// Floating-point computation domain (from the execution type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dom {
    /// Integer (exact).
    Int,
    /// Half precision.
    F16,
    /// Single precision.
    F32,
    /// Double precision.
    F64,
}

impl Dom {
    pub(crate) fn of(exec_type: RegType) -> Dom {
        match exec_type {
            RegType::HF => Dom::F16,
            RegType::F | RegType::VF => Dom::F32,
            RegType::DF => Dom::F64,
            _ => Dom::Int,
        }
    }

    /// Round an exact f64 to this domain's precision.
    pub(crate) fn round(self, x: f64) -> f64 {
        match self {
            Dom::F16 => fp::round_hf(x),
            Dom::F32 => fp::round_f(x),
            _ => x,
        }
    }
}

/// Sign- or zero-extend raw bits of an integer type.
#[inline]
pub(crate) fn extend(bits: u64, ty: RegType) -> i128 {
    match ty {
        RegType::B => bits as u8 as i8 as i128,
        RegType::W => bits as u16 as i16 as i128,
        RegType::D => bits as u32 as i32 as i128,
        RegType::Q => bits as i64 as i128,
        RegType::UB => (bits & 0xff) as i128,
        RegType::UW => (bits & 0xffff) as i128,
        RegType::UD => (bits & 0xffff_ffff) as i128,
        _ => bits as i128,
    }
}

/// Wrap an exact integer to the signed range of `ty`'s width.
fn wrap_signed(v: i128, ty: RegType) -> i128 {
    let sh = 128 - 8 * ty.size();
    (v << sh) >> sh
}

/// Integer source value with modifiers: signed types wrap at their width
/// (abs(MIN) = MIN); a negated unsigned source is the exact negative value.
#[inline]
pub(crate) fn src_int(bits: u64, ty: RegType, neg: bool, abs: bool) -> i128 {
    let mut v = extend(bits, ty);
    if ty.is_signed_int() {
        if abs {
            v = wrap_signed(v.abs(), ty);
        }
        if neg {
            v = wrap_signed(-v, ty);
        }
    } else if neg {
        v = -v;
    }
    v
}

/// Float value of raw bits.
#[inline]
pub(crate) fn float_value(bits: u64, ty: RegType) -> f64 {
    match ty {
        RegType::HF => fp::hf_to_f64(bits as u16),
        RegType::F => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// Float source value with modifiers.
pub(crate) fn src_float(bits: u64, ty: RegType, neg: bool, abs: bool) -> f64 {
    let mut x = float_value(bits, ty);
    if abs {
        x = x.abs();
    }
    if neg {
        x = -x;
    }
    x
}

/// Apply float source modifiers on the raw bits (sign bit only).
pub(crate) fn float_bits_mod(bits: u64, ty: RegType, neg: bool, abs: bool) -> u64 {
    let sign = 1u64 << (8 * ty.size() - 1);
    let mut b = bits & ty.mask();
    if abs {
        b &= !sign;
    }
    if neg {
        b ^= sign;
    }
    b
}

/// Read a source as a number in its own kind (int or float).
#[inline]
pub(crate) fn src_num(bits: u64, ty: RegType, neg: bool, abs: bool) -> Num {
    if ty.is_float() {
        Num::F(src_float(bits, ty, neg, abs))
    } else {
        Num::I(src_int(bits, ty, neg, abs))
    }
}

/// Exact integer → float of type `ty`, one rounding (RNE).
fn int_to_float(v: i128, ty: RegType) -> f64 {
    match ty {
        RegType::HF => {
            if v.unsigned_abs() < (1u128 << 53) {
                fp::hf_to_f64(fp::f64_to_hf(v as f64))
            } else if v < 0 {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        RegType::F => (v as f32) as f64,
        _ => v as f64,
    }
}

/// Float value → bits of float type `ty` (NaN → canonical), then `.sat`.
fn float_out(x: f64, ty: RegType, sat: bool) -> (u64, bool) {
    let mut bits = match ty {
        RegType::HF => fp::f64_to_hf(x) as u64,
        RegType::F => {
            if x.is_nan() {
                fp::F_QNAN
            } else {
                (x as f32).to_bits() as u64
            }
        }
        _ => {
            if x.is_nan() {
                fp::DF_QNAN
            } else {
                x.to_bits()
            }
        }
    };
    let v = float_value(bits, ty);
    let ovf = v.is_infinite();
    if sat {
        if v.is_nan() || v <= 0.0 {
            bits = 0;
        } else if v >= 1.0 {
            bits = match ty {
                RegType::HF => 0x3c00,
                RegType::F => 0x3f80_0000,
                _ => 0x3ff0_0000_0000_0000,
            };
        }
    }
    (bits, ovf)
}

/// Convert a result to the destination type: integers wrap (or clamp with
/// `.sat`); float → int truncates toward zero, saturating, NaN → 0;
/// int → float and float → float round to nearest even; float `.sat`
/// clamps to [0, 1] with NaN → +0. Returns (bits, overflow) where overflow
/// means the exact result was not representable (integer destination) or
/// the result is infinite (float destination).
#[inline]
pub(crate) fn to_dst(n: Num, ty: RegType, sat: bool) -> (u64, bool) {
    match (n, ty.is_float()) {
        (Num::I(v), false) => {
            let (lo, hi) = (ty.int_min(), ty.int_max());
            let ovf = v < lo || v > hi;
            let v = if sat { v.clamp(lo, hi) } else { v };
            ((v as u128 as u64) & ty.mask(), ovf)
        }
        (Num::I(v), true) => float_out(int_to_float(v, ty), ty, sat),
        (Num::F(x), false) => {
            if x.is_nan() {
                return (0, true);
            }
            let t = x.trunc();
            // Exact f64 bounds of each integer type (2^63 and 2^64 are exact).
            let (lo, hi) = match ty {
                RegType::B => (-128.0, 127.0),
                RegType::UB => (0.0, 255.0),
                RegType::W => (-32768.0, 32767.0),
                RegType::UW => (0.0, 65535.0),
                RegType::D => (-2147483648.0, 2147483647.0),
                RegType::UD => (0.0, 4294967295.0),
                RegType::Q => (-9223372036854775808.0, 9223372036854775807.0),
                _ => (0.0, 18446744073709551615.0),
            };
            let ovf = t < lo || t > hi;
            let v = (t as i128).clamp(ty.int_min(), ty.int_max());
            ((v as u128 as u64) & ty.mask(), ovf)
        }
        (Num::F(x), true) => float_out(x, ty, sat),
    }
}

/// Whether `cmod` holds for a final destination value.
#[inline]
pub(crate) fn cond_holds(bits: u64, ty: RegType, cmod: CondMod, ovf: bool) -> bool {
    if ty.is_float() {
        let x = float_value(bits, ty);
        match cmod {
            CondMod::O => ovf,
            CondMod::U => x.is_nan(),
            c => ordered(x, 0.0, c).unwrap_or(false),
        }
    } else {
        int_cond_holds(extend(bits, ty), cmod, ovf)
    }
}

/// Whether `cmod` holds for integer destination value `v` (`ovf`: the
/// exact result did not fit the destination).
#[inline(always)]
pub(crate) fn int_cond_holds(v: i128, cmod: CondMod, ovf: bool) -> bool {
    match cmod {
        CondMod::O => ovf,
        c => int_relation(v, 0, c),
    }
}

/// `a cmod b` for the ordering conditions (Z to Le); None for O and U.
#[inline(always)]
fn ordered<T: PartialOrd>(a: T, b: T, cmod: CondMod) -> Option<bool> {
    Some(match cmod {
        CondMod::Z => a == b,
        CondMod::Nz => a != b,
        CondMod::G => a > b,
        CondMod::Ge => a >= b,
        CondMod::L => a < b,
        CondMod::Le => a <= b,
        CondMod::O | CondMod::U => return None,
    })
}

/// The relation `a cmod b` of two integers (O and U never hold).
#[inline(always)]
pub(crate) fn int_relation(a: i128, b: i128, cmod: CondMod) -> bool {
    ordered(a, b, cmod).unwrap_or(false)
}

/// The relation of a compare (CMP / CSEL): `a cmod b`.
#[inline]
pub(crate) fn relation(a: Num, b: Num, cmod: CondMod) -> bool {
    match (a, b) {
        (Num::I(a), Num::I(b)) => int_relation(a, b, cmod),
        (a, b) => {
            let (a, b) = (as_f64(a), as_f64(b));
            match cmod {
                CondMod::U => a.is_nan() || b.is_nan(),
                c => ordered(a, b, c).unwrap_or(false),
            }
        }
    }
}

pub(crate) fn as_f64(n: Num) -> f64 {
    match n {
        Num::I(v) => v as f64,
        Num::F(x) => x,
    }
}

/// SplitMix64: the deterministic garbage generator.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_modifiers() {
        // abs(INT_MIN) = INT_MIN for D; -(INT_MIN) = INT_MIN.
        assert_eq!(src_int(0x8000_0000, RegType::D, false, true), -2147483648);
        assert_eq!(src_int(0x8000_0000, RegType::D, true, false), -2147483648);
        // Negated UD is the exact negative (33-bit intermediate).
        assert_eq!(src_int(5, RegType::UD, true, false), -5);
        assert_eq!(src_int(0xffff, RegType::W, false, false), -1);
    }

    #[test]
    fn conversions() {
        // Float → int: NaN → 0, saturation, truncation toward zero.
        assert_eq!(to_dst(Num::F(f64::NAN), RegType::D, false).0, 0);
        assert_eq!(to_dst(Num::F(3e9), RegType::D, false).0, 0x7fff_ffff);
        assert_eq!(to_dst(Num::F(-3e9), RegType::D, false).0, 0x8000_0000);
        assert_eq!(to_dst(Num::F(-1.9), RegType::D, false).0, 0xffff_ffff);
        assert_eq!(to_dst(Num::F(-1.0), RegType::UD, false).0, 0);
        // Integer wrap vs saturate.
        assert_eq!(to_dst(Num::I(0x1_0000_0001), RegType::UD, false).0, 1);
        assert_eq!(
            to_dst(Num::I(0x1_0000_0001), RegType::UD, true).0,
            0xffff_ffff
        );
        assert_eq!(to_dst(Num::I(-1), RegType::UD, true).0, 0);
        // Float saturate: NaN → +0, -0 → +0, 2 → 1.
        assert_eq!(to_dst(Num::F(f64::NAN), RegType::F, true).0, 0);
        assert_eq!(to_dst(Num::F(-0.0), RegType::F, true).0, 0);
        assert_eq!(to_dst(Num::F(2.0), RegType::F, true).0, 0x3f80_0000);
        // 2^24 + 1 rounds to even in F.
        assert_eq!(to_dst(Num::I(16_777_217), RegType::F, false).0, 0x4b80_0000);
    }
}
