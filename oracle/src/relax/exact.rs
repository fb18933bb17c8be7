//! Exact binary arithmetic for the few questions the float relaxations ask
//! of an infinitely precise result: is it representable at a float size
//! (`inexact`), is it exactly halfway between two neighbours (`tie`), is it
//! non-zero and below the smallest normal (`tiny`)?
//!
//! A value is `(-1)^neg * mag * 2^exp` with `mag` an unbounded unsigned
//! integer (little-endian 64-bit limbs). Sums and products of finite floats
//! of any size are exact here (an f64 sum spans at most ~2,200 bits).

use std::cmp::Ordering;

/// An exact binary rational.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Exact {
    neg: bool,
    /// Little-endian limbs, no high zero limbs (zero is empty).
    mag: Vec<u64>,
    exp: i32,
}

/// What an exact value is at one float size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Class {
    /// The value is zero.
    pub zero: bool,
    /// Non-zero and of smaller magnitude than the smallest normal.
    pub tiny: bool,
    /// Not representable (including beyond the largest finite value).
    pub inexact: bool,
    /// Exactly halfway between two neighbours on the size's grid.
    pub tie: bool,
}

/// Significand bits (with the implicit one), smallest normal exponent and
/// largest exponent of a float size.
fn format(bits: u8) -> (i32, i32, i32) {
    match bits {
        16 => (11, -14, 15),
        32 => (24, -126, 127),
        _ => (53, -1022, 1023),
    }
}

fn trim(mut v: Vec<u64>) -> Vec<u64> {
    while v.last() == Some(&0) {
        v.pop();
    }
    v
}

fn bit_len(v: &[u64]) -> i32 {
    match v.last() {
        None => 0,
        Some(&top) => (v.len() as i32 - 1) * 64 + (64 - top.leading_zeros() as i32),
    }
}

fn shl(v: &[u64], n: u32) -> Vec<u64> {
    if v.is_empty() {
        return Vec::new();
    }
    let (limbs, bits) = ((n / 64) as usize, n % 64);
    let mut out = vec![0u64; limbs];
    let mut carry = 0u64;
    for &x in v {
        if bits == 0 {
            out.push(x);
        } else {
            out.push((x << bits) | carry);
            carry = x >> (64 - bits);
        }
    }
    out.push(carry);
    trim(out)
}

fn cmp_mag(a: &[u64], b: &[u64]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn add_mag(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = false;
    for k in 0..a.len().max(b.len()) {
        let (x, y) = (
            a.get(k).copied().unwrap_or(0),
            b.get(k).copied().unwrap_or(0),
        );
        let (s, c1) = x.overflowing_add(y);
        let (s, c2) = s.overflowing_add(carry as u64);
        out.push(s);
        carry = c1 || c2;
    }
    out.push(carry as u64);
    trim(out)
}

/// `a - b` for `a >= b`.
fn sub_mag(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = false;
    for (k, &x) in a.iter().enumerate() {
        let y = b.get(k).copied().unwrap_or(0);
        let (d, b1) = x.overflowing_sub(y);
        let (d, b2) = d.overflowing_sub(borrow as u64);
        out.push(d);
        borrow = b1 || b2;
    }
    trim(out)
}

fn mul_mag(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = vec![0u64; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &y) in b.iter().enumerate() {
            let t = out[i + j] as u128 + x as u128 * y as u128 + carry;
            out[i + j] = t as u64;
            carry = t >> 64;
        }
        out[i + b.len()] = carry as u64;
    }
    trim(out)
}

fn bit(v: &[u64], k: i32) -> bool {
    let limb = (k / 64) as usize;
    limb < v.len() && v[limb] >> (k % 64) & 1 == 1
}

/// Whether any of the bits below `k` is set.
fn any_below(v: &[u64], k: i32) -> bool {
    let full = (k / 64) as usize;
    if v.iter().take(full).any(|&x| x != 0) {
        return true;
    }
    let rest = k % 64;
    rest > 0 && full < v.len() && v[full] & ((1u64 << rest) - 1) != 0
}

impl Exact {
    /// A finite float of `bits` bits; `None` for NaN and infinities.
    pub(crate) fn float(v: u64, bits: u8) -> Option<Exact> {
        let (p, emin, emax) = format(bits);
        let frac_bits = p - 1;
        let exp_bits = bits as i32 - 1 - frac_bits;
        let frac = v & ((1u64 << frac_bits) - 1);
        let e = ((v >> frac_bits) & ((1u64 << exp_bits) - 1)) as i32;
        let neg = v >> (bits - 1) & 1 == 1;
        if e == (1 << exp_bits) - 1 {
            return None;
        }
        debug_assert!(e <= emax + (1 << (exp_bits - 1)));
        let (m, exp) = if e == 0 {
            (frac, emin - frac_bits)
        } else {
            (
                frac | 1u64 << frac_bits,
                e - (1 << (exp_bits - 1)) + 1 - frac_bits,
            )
        };
        Some(Exact {
            neg,
            mag: trim(vec![m]),
            exp,
        })
    }

    /// An integer.
    pub(crate) fn int(neg: bool, mag: u64) -> Exact {
        Exact {
            neg,
            mag: trim(vec![mag]),
            exp: 0,
        }
    }

    /// Whether the value is zero.
    pub(crate) fn is_zero(&self) -> bool {
        self.mag.is_empty()
    }

    /// `-self`.
    pub(crate) fn negate(mut self) -> Exact {
        self.neg = !self.neg;
        self
    }

    /// `self * o`.
    pub(crate) fn mul(&self, o: &Exact) -> Exact {
        Exact {
            neg: self.neg != o.neg,
            mag: mul_mag(&self.mag, &o.mag),
            exp: self.exp + o.exp,
        }
    }

    /// `self + o`.
    pub(crate) fn add(&self, o: &Exact) -> Exact {
        if self.is_zero() {
            return o.clone();
        }
        if o.is_zero() {
            return self.clone();
        }
        let exp = self.exp.min(o.exp);
        let a = shl(&self.mag, (self.exp - exp) as u32);
        let b = shl(&o.mag, (o.exp - exp) as u32);
        let (neg, mag) = if self.neg == o.neg {
            (self.neg, add_mag(&a, &b))
        } else {
            match cmp_mag(&a, &b) {
                Ordering::Less => (o.neg, sub_mag(&b, &a)),
                _ => (self.neg, sub_mag(&a, &b)),
            }
        };
        Exact { neg, mag, exp }
    }

    /// What the value is at a float size.
    pub(crate) fn class(&self, bits: u8) -> Class {
        if self.is_zero() {
            return Class {
                zero: true,
                ..Class::default()
            };
        }
        let (p, emin, emax) = format(bits);
        let len = bit_len(&self.mag);
        // |x| is in [2^top, 2^(top+1)).
        let top = self.exp + len - 1;
        let quantum = (top - (p - 1)).max(emin - (p - 1));
        let below = quantum - self.exp; // bits of mag under the grid
        let (inexact, tie) = if below <= 0 {
            (false, false)
        } else {
            let half = bit(&self.mag, below - 1);
            let rest = any_below(&self.mag, below - 1);
            (half || rest, half && !rest)
        };
        Class {
            zero: false,
            tiny: top < emin,
            inexact: inexact || top > emax,
            tie,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32x(x: f32) -> Exact {
        Exact::float(x.to_bits() as u64, 32).unwrap()
    }

    #[test]
    fn decodes_floats() {
        // 1.0 and 1 * 1 are the same number (in different representations).
        assert!(f32x(1.0)
            .add(&Exact::int(true, 1).mul(&Exact::int(false, 1)))
            .is_zero());
        assert_eq!(
            f32x(-3.0).class(32),
            Class {
                zero: false,
                tiny: false,
                inexact: false,
                tie: false
            }
        );
        assert!(Exact::float(0x7f80_0000, 32).is_none());
        assert!(Exact::float(0x7e00, 16).is_none());
        assert!(f32x(-0.0).is_zero());
        // The smallest f64 denormal is tiny and exact.
        let d = Exact::float(1, 64).unwrap();
        assert!(d.class(64).tiny && !d.class(64).inexact);
        // The smallest f16 normal (2^-14) is not tiny; half of it is.
        let n = Exact::float(0x0400, 16).unwrap();
        assert!(!n.class(16).tiny);
        assert!(Exact::float(0x0200, 16).unwrap().class(16).tiny);
    }

    #[test]
    fn sums_ties_and_inexact() {
        // 1 + 2^-24 is halfway between 1 and 1 + 2^-23 in f32.
        let x = f32x(1.0).add(&f32x(2f32.powi(-24)));
        assert_eq!(
            x.class(32),
            Class {
                zero: false,
                tiny: false,
                inexact: true,
                tie: true
            }
        );
        // 1 + 3 * 2^-25 is inexact but not a tie; it is exact in f64.
        let y = f32x(1.0).add(&f32x(3.0 * 2f32.powi(-25)));
        assert!(y.class(32).inexact && !y.class(32).tie);
        assert!(!y.class(64).inexact);
        // a - a is zero; 1e30 + 1e-30 spans ~200 bits and is inexact in f64.
        assert!(f32x(5.5).add(&f32x(-5.5)).is_zero());
        let big = Exact::float(1e30f64.to_bits(), 64).unwrap();
        let small = Exact::float(1e-30f64.to_bits(), 64).unwrap();
        assert!(big.add(&small).class(64).inexact);
        assert!(!big.add(&small.clone().negate()).class(64).tie);
        // Beyond the largest finite f16 (65504) is inexact.
        assert!(Exact::int(false, 65535).class(16).inexact);
        assert!(!Exact::int(false, 65504).class(16).inexact);
    }

    #[test]
    fn products() {
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: exact in f64; in f32 (ulp 2^-23
        // at 1) it is halfway between two neighbours.
        let a = f32x(1.0 + 2f32.powi(-12));
        let p = a.mul(&a);
        assert!(p.class(32).inexact && p.class(32).tie);
        assert!(!p.class(64).inexact);
        // (1 + 2^-12) * (1 + 2^-11) = 1 + 3 * 2^-12 + 2^-23 is exact in f32;
        // times (1 + 2^-13) it is not, and not a tie.
        let b = f32x(1.0 + 2f32.powi(-11));
        assert!(!a.mul(&b).class(32).inexact);
        let c = a.mul(&b).mul(&f32x(1.0 + 2f32.powi(-13)));
        assert!(c.class(32).inexact && !c.class(32).tie);
        // 2^-140 * 2^-10 = 2^-150: half the smallest f32 denormal, a tie, tiny.
        let q = f32x(2f32.powi(-140)).mul(&f32x(2f32.powi(-10)));
        assert_eq!(
            q.class(32),
            Class {
                zero: false,
                tiny: true,
                inexact: true,
                tie: true
            }
        );
        // The product of the smallest f64 denormals underflows every size.
        let d = Exact::float(1, 64).unwrap();
        assert!(d.mul(&d).class(64).inexact);
    }
}
