//! Exact floating-point helpers: conversions with a single rounding,
//! round-to-odd sums, canonical NaNs, VF decoding.

use half::f16;

/// Canonical quiet NaN bits for HF.
pub const HF_QNAN: u64 = 0x7e00;
/// Canonical quiet NaN bits for F.
pub const F_QNAN: u64 = 0x7fc0_0000;
/// Canonical quiet NaN bits for DF.
pub const DF_QNAN: u64 = 0x7ff8_0000_0000_0000;

/// Decode HF bits to f64 (exact).
pub fn hf_to_f64(bits: u16) -> f64 {
    f16::from_bits(bits).to_f64()
}

/// f64 → f32 with round-to-odd (used to avoid double rounding).
fn f64_to_f32_odd(x: f64) -> f32 {
    let r = x as f32;
    if x.is_nan() || r as f64 == x || r.to_bits() & 1 == 1 {
        return r;
    }
    // Inexact with an even last bit: move one ulp toward x (magnitude).
    let bits = r.to_bits();
    let grow = x.abs() > (r as f64).abs();
    f32::from_bits(if grow { bits + 1 } else { bits - 1 })
}

/// f64 → HF bits, round to nearest even with a single rounding
/// (round-to-odd to f32 first, then RNE to f16; 24 ≥ 11 + 2 bits).
pub fn f64_to_hf(x: f64) -> u16 {
    if x.is_nan() {
        return HF_QNAN as u16;
    }
    f16::from_f32(f64_to_f32_odd(x)).to_bits()
}

/// f32 → HF bits (RNE).
pub fn f32_to_hf(x: f32) -> u16 {
    f64_to_hf(x as f64)
}

/// Round an f64 to the nearest HF value, returned as f64.
pub fn round_hf(x: f64) -> f64 {
    hf_to_f64(f64_to_hf(x))
}

/// Round an f64 to the nearest F value, returned as f64.
pub fn round_f(x: f64) -> f64 {
    (x as f32) as f64
}

/// a + b rounded to odd in f64 (exact result's information kept in the
/// last bit), via TwoSum. Inputs must be finite and the sum must not overflow.
pub fn add_round_odd(a: f64, b: f64) -> f64 {
    let s = a + b;
    if !s.is_finite() {
        return s;
    }
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    if e == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    if s == 0.0 {
        return e;
    }
    let bits = s.to_bits();
    let grow = (e > 0.0) == (s > 0.0);
    f64::from_bits(if grow { bits + 1 } else { bits - 1 })
}

/// Decode one 8-bit restricted float of a VF immediate (Mesa
/// `brw_vf_to_float`): sign, 3-bit exponent (bias 3), 4-bit mantissa;
/// 0x00 / 0x80 are ±0.
pub fn vf_to_f32(vf: u8) -> f32 {
    if vf == 0x00 || vf == 0x80 {
        return f32::from_bits((vf as u32) << 24);
    }
    let mantissa = (vf & 0xf) as u32;
    let exponent = ((vf >> 4) & 0x7) as u32;
    let sign = ((vf >> 7) & 1) as u32;
    f32::from_bits((sign << 31) | ((exponent + 124) << 23) | (mantissa << 19))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hf_rounding_is_single() {
        // 1 + 2^-11 is exactly half an HF ulp above 1.0: ties to even → 1.0.
        assert_eq!(f64_to_hf(1.0 + 2f64.powi(-11)), 0x3c00);
        // Slightly above the tie must round up to 1 + 2^-10 (0x3c01). A
        // double rounding through f32 would lose the 2^-40 and give 0x3c00.
        assert_eq!(f64_to_hf(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
        // Largest HF is 65504; 65520 is the overflow tie → inf.
        assert_eq!(f64_to_hf(65519.0), 0x7bff);
        assert_eq!(f64_to_hf(65520.0), 0x7c00);
        // Smallest denormal 2^-24; half of it ties to even (0).
        assert_eq!(f64_to_hf(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_hf(2f64.powi(-25)), 0x0000);
        assert_eq!(f64_to_hf(2f64.powi(-25) + 2f64.powi(-60)), 0x0001);
        assert_eq!(f64_to_hf(-0.0), 0x8000);
        assert_eq!(f64_to_hf(f64::NAN), 0x7e00);
        assert_eq!(f64_to_hf(f64::NEG_INFINITY), 0xfc00);
    }

    #[test]
    fn round_odd_sum() {
        // 1 + 2^-80: RNE gives 1.0, round-to-odd gives the next double up.
        let r = add_round_odd(1.0, 2f64.powi(-80));
        assert_eq!(r.to_bits(), 1f64.to_bits() + 1);
        // Exact sums are returned unchanged.
        assert_eq!(add_round_odd(1.5, 0.25), 1.75);
        // 1 - 2^-80 lies just below 1.0: the odd neighbour below 1.0.
        let r = add_round_odd(1.0, -(2f64.powi(-80)));
        assert_eq!(r.to_bits(), 1f64.to_bits() - 1);
    }

    #[test]
    fn vf_decoding() {
        assert_eq!(vf_to_f32(0x00).to_bits(), 0);
        assert_eq!(vf_to_f32(0x80).to_bits(), 0x8000_0000);
        // exponent 3 (bias 3) mantissa 0 → 1.0
        assert_eq!(vf_to_f32(0x30), 1.0);
        // exponent 4, mantissa 8 → 2 * 1.5 = 3.0
        assert_eq!(vf_to_f32(0x48), 3.0);
        // sign, exponent 0, mantissa 1 → -(1/8)(1 + 1/16) = -0.1328125
        assert_eq!(vf_to_f32(0x81), -0.1328125);
        // exponent 7, mantissa 15 → 16 * 31/16 = 31
        assert_eq!(vf_to_f32(0x7f), 31.0);
    }
}
