//! Exact float helpers at 16, 32 and 64 bits.
//!
//! Conventions (documented in OPS.md and shared with the EU model):
//! round-to-nearest-even, denormals preserved, and every NaN produced by an
//! arithmetic op or a conversion is the canonical quiet NaN of its size.
//! `fneg`/`fabs` only touch the sign bit and keep NaN payloads.

use half::f16;

/// The canonical quiet NaN of a float size.
pub const fn canonical_nan(bits: u8) -> u64 {
    match bits {
        16 => 0x7e00,
        32 => 0x7fc0_0000,
        _ => 0x7ff8_0000_0000_0000,
    }
}

/// The sign bit of a float size.
pub const fn sign_bit(bits: u8) -> u64 {
    1u64 << (bits - 1)
}

/// Reads a float of `bits` bits as an f64 (exact for every size).
pub fn to_f64(v: u64, bits: u8) -> f64 {
    match bits {
        16 => f16::from_bits(v as u16).to_f64(),
        32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}

/// Whether the float of `bits` bits is a NaN.
pub fn is_nan(v: u64, bits: u8) -> bool {
    to_f64(v, bits).is_nan()
}

/// Rounds an f64 to the float size once (nearest even), NaN to canonical.
pub fn from_f64(x: f64, bits: u8) -> u64 {
    if x.is_nan() {
        return canonical_nan(bits);
    }
    match bits {
        16 => f64_to_f16(x) as u64,
        32 => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}

/// Rounds an f64 to binary16 once, to nearest even (NaN to the canonical NaN).
///
/// (`half`'s `f16::from_f64` rounds twice on some inputs, e.g. just above a
/// tie, so it is not used for arithmetic results.) Every step is exact in
/// f64: scaling by a power of two and rounding to an integer.
pub fn f64_to_f16(x: f64) -> u16 {
    if x.is_nan() {
        return canonical_nan(16) as u16;
    }
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // Subnormal quantum 2^-24; 1024 quanta is the smallest normal, which
        // has exactly that encoding.
        return sign | (a * 2f64.powi(24)).round_ties_even() as u16;
    }
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mut r = (a * 2f64.powi(10 - e)).round_ties_even() as u32;
    let mut e = e;
    if r == 2048 {
        r = 1024;
        e += 1;
    }
    sign | (((e + 15) as u16) << 10) | (r - 1024) as u16
}

/// Canonicalizes a NaN result, keeping other values.
fn canon32(x: f32) -> u64 {
    if x.is_nan() {
        canonical_nan(32)
    } else {
        x.to_bits() as u64
    }
}

fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        canonical_nan(64)
    } else {
        x.to_bits()
    }
}

/// Binary arithmetic with one rounding. f16 operands are exact in f64 and
/// their sum, difference and product are too, so one f64 op and one rounding
/// to f16 is exact; f32 and f64 use the native IEEE ops.
fn binop(a: u64, b: u64, bits: u8, op32: fn(f32, f32) -> f32, op64: fn(f64, f64) -> f64) -> u64 {
    match bits {
        16 => from_f64(op64(to_f64(a, 16), to_f64(b, 16)), 16),
        32 => canon32(op32(f32::from_bits(a as u32), f32::from_bits(b as u32))),
        _ => canon64(op64(f64::from_bits(a), f64::from_bits(b))),
    }
}

/// IEEE addition.
pub fn add(a: u64, b: u64, bits: u8) -> u64 {
    binop(a, b, bits, |x, y| x + y, |x, y| x + y)
}

/// IEEE subtraction.
pub fn sub(a: u64, b: u64, bits: u8) -> u64 {
    binop(a, b, bits, |x, y| x - y, |x, y| x - y)
}

/// IEEE multiplication.
pub fn mul(a: u64, b: u64, bits: u8) -> u64 {
    binop(a, b, bits, |x, y| x * y, |x, y| x * y)
}

/// Fused multiply-add `a * b + c` with a single rounding.
///
/// For 16 and 32 bits the product is exact in f64; the sum is rounded to odd
/// in f64 (TwoSum gives the exact error) and then rounded once to the target,
/// which is exact because f64 has more than target precision + 2 bits.
pub fn fma(a: u64, b: u64, c: u64, bits: u8) -> u64 {
    if bits == 64 {
        return canon64(f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c)));
    }
    let (a, b, c) = (to_f64(a, bits), to_f64(b, bits), to_f64(c, bits));
    let p = a * b;
    let s = p + c;
    if !s.is_finite() {
        return from_f64(s, bits);
    }
    // TwoSum: s + e == p + c exactly.
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    let mut odd = s;
    if e != 0.0 && s.to_bits() & 1 == 0 {
        // Round to odd: step one ulp toward the exact value.
        let toward_up = (e > 0.0) == (s > 0.0) || s == 0.0;
        let stepped = if s == 0.0 {
            // The exact value is tiny and non-zero: the smallest subnormal with e's sign.
            f64::from_bits(1) * e.signum()
        } else if toward_up {
            f64::from_bits(s.to_bits() + 1)
        } else {
            f64::from_bits(s.to_bits() - 1)
        };
        odd = stepped;
    }
    from_f64(odd, bits)
}

/// Unary rounding ops applied through f64 (exact for every size).
pub fn round_with(v: u64, bits: u8, f: fn(f64) -> f64) -> u64 {
    let x = to_f64(v, bits);
    if x.is_nan() {
        return canonical_nan(bits);
    }
    from_f64(f(x), bits)
}

/// Round half to even, keeping the sign of zero.
pub fn round_even(x: f64) -> f64 {
    let r = x.round_ties_even();
    if r == 0.0 {
        0.0f64.copysign(x)
    } else {
        r
    }
}

/// `x - floor(x)` rounded once in the operand's size.
pub fn fract(v: u64, bits: u8) -> u64 {
    let fl = round_with(v, bits, f64::floor);
    sub(v, fl, bits)
}

/// Ordering used by fmin/fmax: -0 is below +0; a NaN operand yields the other.
pub fn min_max(a: u64, b: u64, bits: u8, want_max: bool) -> u64 {
    let (x, y) = (to_f64(a, bits), to_f64(b, bits));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => return canonical_nan(bits),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    if x == y {
        // Equal values differ at most in the sign of zero.
        let a_neg = a & sign_bit(bits) != 0;
        let pick_a = if want_max { !a_neg } else { a_neg };
        return if pick_a { a } else { b };
    }
    if (x < y) != want_max {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference f64 -> f16 rounding by exhaustive search over every finite f16.
    fn reference_f16(x: f64) -> u16 {
        let mut best: Option<(f64, u16)> = None;
        for bits in 0u16..=0xffff {
            let h = f16::from_bits(bits);
            if !h.is_finite() {
                continue;
            }
            let d = (h.to_f64() - x).abs();
            let better = match best {
                None => true,
                Some((bd, bb)) => d < bd || (d == bd && bits & 1 == 0 && bb & 1 == 1),
            };
            if better {
                best = Some((d, bits));
            }
        }
        let (_, bits) = best.unwrap();
        // Beyond the largest finite value by at least half an ulp (2^4 at 65504) gives inf.
        if x.abs() >= 65520.0 {
            return if x > 0.0 { 0x7c00 } else { 0xfc00 };
        }
        // Keep the sign of zero.
        if f16::from_bits(bits).to_f64() == 0.0 && x.is_sign_negative() {
            return 0x8000;
        }
        bits
    }

    #[test]
    fn f16_rounding_is_nearest_even() {
        // Midpoints between consecutive f16 values, and points just beside them.
        let samples = [
            1.0 + 2f64.powi(-11),         // tie: 1.0 and 1.0009765625 -> even (1.0)
            1.0 + 3.0 * 2f64.powi(-11),   // tie -> 1.001953125 (even mantissa 2)
            1.0 + 2f64.powi(-11) + 1e-12, // just above the tie -> up
            65504.0 + 15.999,             // below the overflow threshold -> 65504
            2f64.powi(-25),               // half the smallest subnormal: tie -> 0
            3.0 * 2f64.powi(-25),         // 1.5 subnormal ulps -> 2 ulps
            -2f64.powi(-26),              // rounds to -0
            0.1,
            -1234.567,
        ];
        for x in samples {
            assert_eq!(f64_to_f16(x), reference_f16(x), "x = {x}");
        }
    }

    #[test]
    fn f16_rounding_of_every_value_and_midpoint() {
        // Every finite f16 converts back to itself; the midpoint above each
        // positive finite value rounds to the even neighbour, and a nudge
        // above the midpoint rounds up.
        for v in 0u16..0x7bff {
            let x = f16::from_bits(v).to_f64();
            assert_eq!(f64_to_f16(x), v);
            assert_eq!(f64_to_f16(-x), v | 0x8000);
            let next = f16::from_bits(v + 1).to_f64();
            let mid = (x + next) / 2.0;
            let even = if v & 1 == 0 { v } else { v + 1 };
            assert_eq!(f64_to_f16(mid), even, "midpoint above {v:#x}");
            let above = f64::from_bits(mid.to_bits() + 1);
            assert_eq!(
                f64_to_f16(above),
                v + 1,
                "just above the midpoint above {v:#x}"
            );
        }
    }

    #[test]
    fn fma_rounds_once() {
        // f32: a*b = 1 + 2^-23 + 2^-46 ... pick a = b = 1 + 2^-23, c = -1:
        // exact = 2^-22 + 2^-46, representable in f32 only approximately.
        let a = f32::from_bits(0x3f80_0001) as f64; // 1 + 2^-23
        let exact = a * a - 1.0; // 2^-22 + 2^-46, exact in f64
        let got = f32::from_bits(fma(0x3f80_0001, 0x3f80_0001, 0xbf80_0000, 32) as u32);
        assert_eq!(got, exact as f32);
        // A double-rounding trap for f16: exact value just above a tie.
        // 1 + 2^-11 (tie between 1 and 1+2^-10) plus a tiny positive product.
        let one = 0x3c00u64; // 1.0
                             // a*b with a = 2^-6, b = 2^-5 is 2^-11; plus c = 1.0 gives exactly the
                             // tie 1 + 2^-11, which rounds to even (1.0).
        let a6 = f64_to_f16(2f64.powi(-6)) as u64;
        let b5 = f64_to_f16(2f64.powi(-5)) as u64;
        assert_eq!(fma(a6, b5, one, 16), 0x3c00);
        let a_odd = f64_to_f16(2f64.powi(-11) + 2f64.powi(-21)) as u64; // exact f16
        let one_f16 = f64_to_f16(1.0) as u64;
        // a_odd * 1.0 + 1.0 = 1 + 2^-11 + 2^-21: above the tie -> 1 + 2^-10.
        assert_eq!(fma(a_odd, one_f16, one, 16), 0x3c01);
    }

    #[test]
    fn min_max_zero_and_nan() {
        let (pz, nz) = (0x0000_0000u64, 0x8000_0000u64);
        assert_eq!(min_max(pz, nz, 32, false), nz);
        assert_eq!(min_max(nz, pz, 32, false), nz);
        assert_eq!(min_max(pz, nz, 32, true), pz);
        let nan = 0x7fc0_0001u64;
        let one = 0x3f80_0000u64;
        assert_eq!(min_max(nan, one, 32, false), one);
        assert_eq!(min_max(one, nan, 32, true), one);
        assert_eq!(min_max(nan, nan, 32, true), canonical_nan(32));
    }

    #[test]
    fn add_canonicalizes_nan() {
        let inf = 0x7f80_0000u64;
        let ninf = 0xff80_0000u64;
        assert_eq!(add(inf, ninf, 32), 0x7fc0_0000);
        assert_eq!(add(0x7c00, 0xfc00, 16), 0x7e00);
        // NaN payloads are not propagated through arithmetic.
        assert_eq!(add(0x7fc0_1234, 0x3f80_0000, 32), 0x7fc0_0000);
    }
}
