//! Per-lane semantics of the ALU ops. Each function is referenced from the
//! op table (`op.rs`), whose doc strings state the same meaning in words.

use crate::float;
use crate::types::{mask, sext};

/// The operands of one evaluation: raw source bits, their sizes and the
/// result size. Unused entries are zero.
#[derive(Clone, Copy, Debug, Default)]
pub struct Args {
    /// Source values, masked to their bit sizes.
    pub src: [u64; 4],
    /// Bit size of each source.
    pub src_bits: [u8; 4],
    /// Bit size of the result.
    pub bits: u8,
}

/// Why an evaluation is undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ub(pub &'static str);

/// The evaluation function of an ALU op.
pub type EvalFn = fn(&Args) -> Result<u64, Ub>;

type R = Result<u64, Ub>;

fn s(a: &Args, i: usize) -> i64 {
    sext(a.src[i], a.src_bits[i])
}

fn u(a: &Args, i: usize) -> u64 {
    a.src[i]
}

fn out(a: &Args, v: u64) -> R {
    Ok(v & mask(a.bits))
}

fn b(v: bool) -> R {
    Ok(v as u64)
}

// ---- integer arithmetic ----

pub(crate) fn iadd(a: &Args) -> R {
    out(a, u(a, 0).wrapping_add(u(a, 1)))
}
pub(crate) fn isub(a: &Args) -> R {
    out(a, u(a, 0).wrapping_sub(u(a, 1)))
}
pub(crate) fn imul(a: &Args) -> R {
    out(a, u(a, 0).wrapping_mul(u(a, 1)))
}
pub(crate) fn ineg(a: &Args) -> R {
    out(a, u(a, 0).wrapping_neg())
}
pub(crate) fn iabs(a: &Args) -> R {
    out(a, s(a, 0).wrapping_abs() as u64)
}
pub(crate) fn imin(a: &Args) -> R {
    out(a, s(a, 0).min(s(a, 1)) as u64)
}
pub(crate) fn imax(a: &Args) -> R {
    out(a, s(a, 0).max(s(a, 1)) as u64)
}
pub(crate) fn umin(a: &Args) -> R {
    out(a, u(a, 0).min(u(a, 1)))
}
pub(crate) fn umax(a: &Args) -> R {
    out(a, u(a, 0).max(u(a, 1)))
}

/// Checks a signed division for the undefined cases.
fn signed_div_operands(a: &Args) -> Result<(i64, i64), Ub> {
    let (x, y) = (s(a, 0), s(a, 1));
    if y == 0 {
        return Err(Ub("division by zero"));
    }
    if y == -1 && x == sext(1u64 << (a.bits - 1), a.bits) {
        return Err(Ub("signed division of INT_MIN by -1"));
    }
    Ok((x, y))
}

pub(crate) fn idiv(a: &Args) -> R {
    let (x, y) = signed_div_operands(a)?;
    out(a, (x / y) as u64)
}
pub(crate) fn udiv(a: &Args) -> R {
    if u(a, 1) == 0 {
        return Err(Ub("division by zero"));
    }
    out(a, u(a, 0) / u(a, 1))
}
pub(crate) fn irem(a: &Args) -> R {
    let (x, y) = signed_div_operands(a)?;
    out(a, (x % y) as u64)
}
pub(crate) fn imod(a: &Args) -> R {
    let (x, y) = signed_div_operands(a)?;
    let r = x % y;
    let m = if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    };
    out(a, m as u64)
}
pub(crate) fn umod(a: &Args) -> R {
    if u(a, 1) == 0 {
        return Err(Ub("division by zero"));
    }
    out(a, u(a, 0) % u(a, 1))
}
pub(crate) fn imul_high(a: &Args) -> R {
    let p = (s(a, 0) as i128) * (s(a, 1) as i128);
    out(a, (p >> a.bits) as u64)
}
pub(crate) fn umul_high(a: &Args) -> R {
    let p = (u(a, 0) as u128) * (u(a, 1) as u128);
    out(a, (p >> a.bits) as u64)
}

// ---- shifts and logic ----

fn count(a: &Args) -> u32 {
    (u(a, 1) as u32) & (a.bits as u32 - 1)
}
pub(crate) fn ishl(a: &Args) -> R {
    out(a, u(a, 0) << count(a))
}
pub(crate) fn ishr(a: &Args) -> R {
    out(a, (s(a, 0) >> count(a)) as u64)
}
pub(crate) fn ushr(a: &Args) -> R {
    out(a, u(a, 0) >> count(a))
}
pub(crate) fn iand(a: &Args) -> R {
    out(a, u(a, 0) & u(a, 1))
}
pub(crate) fn ior(a: &Args) -> R {
    out(a, u(a, 0) | u(a, 1))
}
pub(crate) fn ixor(a: &Args) -> R {
    out(a, u(a, 0) ^ u(a, 1))
}
pub(crate) fn inot(a: &Args) -> R {
    out(a, !u(a, 0))
}

// ---- comparisons ----

pub(crate) fn ieq(a: &Args) -> R {
    b(u(a, 0) == u(a, 1))
}
pub(crate) fn ine(a: &Args) -> R {
    b(u(a, 0) != u(a, 1))
}
pub(crate) fn ilt(a: &Args) -> R {
    b(s(a, 0) < s(a, 1))
}
pub(crate) fn ige(a: &Args) -> R {
    b(s(a, 0) >= s(a, 1))
}
pub(crate) fn ult(a: &Args) -> R {
    b(u(a, 0) < u(a, 1))
}
pub(crate) fn uge(a: &Args) -> R {
    b(u(a, 0) >= u(a, 1))
}
fn fsrc(a: &Args, i: usize) -> f64 {
    float::to_f64(a.src[i], a.src_bits[i])
}
pub(crate) fn feq(a: &Args) -> R {
    b(fsrc(a, 0) == fsrc(a, 1))
}
pub(crate) fn fneu(a: &Args) -> R {
    b(fsrc(a, 0) != fsrc(a, 1))
}
pub(crate) fn flt(a: &Args) -> R {
    b(fsrc(a, 0) < fsrc(a, 1))
}
pub(crate) fn fge(a: &Args) -> R {
    b(fsrc(a, 0) >= fsrc(a, 1))
}

// ---- float arithmetic ----

pub(crate) fn fadd(a: &Args) -> R {
    Ok(float::add(a.src[0], a.src[1], a.bits))
}
pub(crate) fn fsub(a: &Args) -> R {
    Ok(float::sub(a.src[0], a.src[1], a.bits))
}
pub(crate) fn fmul(a: &Args) -> R {
    Ok(float::mul(a.src[0], a.src[1], a.bits))
}
pub(crate) fn ffma(a: &Args) -> R {
    Ok(float::fma(a.src[0], a.src[1], a.src[2], a.bits))
}
pub(crate) fn fneg(a: &Args) -> R {
    Ok(a.src[0] ^ float::sign_bit(a.bits))
}
pub(crate) fn fabs(a: &Args) -> R {
    Ok(a.src[0] & !float::sign_bit(a.bits))
}
pub(crate) fn fsat(a: &Args) -> R {
    let x = fsrc(a, 0);
    Ok(if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.0 {
        float::from_f64(1.0, a.bits)
    } else {
        a.src[0]
    })
}
pub(crate) fn fmin(a: &Args) -> R {
    Ok(float::min_max(a.src[0], a.src[1], a.bits, false))
}
pub(crate) fn fmax(a: &Args) -> R {
    Ok(float::min_max(a.src[0], a.src[1], a.bits, true))
}
pub(crate) fn ffloor(a: &Args) -> R {
    Ok(float::round_with(a.src[0], a.bits, f64::floor))
}
pub(crate) fn fceil(a: &Args) -> R {
    Ok(float::round_with(a.src[0], a.bits, f64::ceil))
}
pub(crate) fn ftrunc(a: &Args) -> R {
    Ok(float::round_with(a.src[0], a.bits, f64::trunc))
}
pub(crate) fn fround_even(a: &Args) -> R {
    Ok(float::round_with(a.src[0], a.bits, float::round_even))
}
pub(crate) fn ffract(a: &Args) -> R {
    Ok(float::fract(a.src[0], a.bits))
}
pub(crate) fn fsign(a: &Args) -> R {
    let x = fsrc(a, 0);
    let sign = a.src[0] & float::sign_bit(a.bits);
    Ok(if x == 0.0 {
        sign
    } else {
        float::from_f64(1.0, a.bits) | sign
    })
}

// ---- conversions ----

pub(crate) fn i2i(a: &Args) -> R {
    out(a, s(a, 0) as u64)
}
pub(crate) fn u2u(a: &Args) -> R {
    out(a, u(a, 0))
}
/// Integer to float with one rounding. |v| >= 65520 overflows f16 to inf,
/// and below 2^53 the f64 conversion is exact, so one rounding happens.
fn int_to_float(neg: bool, mag: u64, bits: u8) -> u64 {
    let sign = if neg { float::sign_bit(bits) } else { 0 };
    match bits {
        16 if mag >= 65520 => 0x7c00 | sign,
        16 => float::from_f64(mag as f64, 16) | sign,
        32 => (mag as f32).to_bits() as u64 | sign,
        _ => (mag as f64).to_bits() | sign,
    }
}
pub(crate) fn i2f(a: &Args) -> R {
    let v = s(a, 0);
    Ok(int_to_float(v < 0, v.unsigned_abs(), a.bits))
}
pub(crate) fn u2f(a: &Args) -> R {
    Ok(int_to_float(false, u(a, 0), a.bits))
}
fn float_to_int_checked(a: &Args, lo: f64, hi_exclusive: f64) -> Result<f64, Ub> {
    let x = fsrc(a, 0);
    if x.is_nan() {
        return Err(Ub("float to integer conversion of NaN"));
    }
    let t = x.trunc();
    if t < lo || t >= hi_exclusive {
        return Err(Ub("float to integer conversion out of range"));
    }
    Ok(t)
}
pub(crate) fn f2i(a: &Args) -> R {
    let half = 2f64.powi(a.bits as i32 - 1);
    let t = float_to_int_checked(a, -half, half)?;
    out(a, (t as i64) as u64)
}
pub(crate) fn f2u(a: &Args) -> R {
    let top = 2f64.powi(a.bits as i32);
    let t = float_to_int_checked(a, 0.0, top)?;
    out(a, t as u64)
}
pub(crate) fn f2f(a: &Args) -> R {
    Ok(float::from_f64(fsrc(a, 0), a.bits))
}
pub(crate) fn b2i(a: &Args) -> R {
    out(a, u(a, 0) & 1)
}
pub(crate) fn b2f(a: &Args) -> R {
    Ok(if u(a, 0) & 1 == 1 {
        float::from_f64(1.0, a.bits)
    } else {
        0
    })
}
pub(crate) fn i2b(a: &Args) -> R {
    b(u(a, 0) != 0)
}
pub(crate) fn f2b(a: &Args) -> R {
    b(fsrc(a, 0) != 0.0)
}

// ---- selection ----

pub(crate) fn bcsel(a: &Args) -> R {
    Ok(if a.src[0] & 1 == 1 {
        a.src[1]
    } else {
        a.src[2]
    })
}

// ---- bitfield ----

pub(crate) fn bfm(a: &Args) -> R {
    let bits = (u(a, 0) as u32) & 31;
    let offset = (u(a, 1) as u32) & 31;
    Ok((((1u32 << bits).wrapping_sub(1)) << offset) as u64)
}
pub(crate) fn bfi(a: &Args) -> R {
    let (m, ins, base) = (u(a, 0) as u32, u(a, 1) as u32, u(a, 2) as u32);
    if m == 0 {
        return Ok(base as u64);
    }
    Ok((((ins << m.trailing_zeros()) & m) | (base & !m)) as u64)
}
fn bfe(a: &Args, signed: bool) -> R {
    let v = u(a, 0) as u32;
    let o = (u(a, 1) as u32) & 31;
    let w = (u(a, 2) as u32) & 31;
    let r = if w == 0 {
        0
    } else if o + w < 32 {
        let field = (v >> o) & ((1u32 << w) - 1);
        if signed {
            sext(field as u64, w as u8) as u32
        } else {
            field
        }
    } else if signed {
        ((v as i32) >> o) as u32
    } else {
        v >> o
    };
    Ok(r as u64)
}
pub(crate) fn ibfe(a: &Args) -> R {
    bfe(a, true)
}
pub(crate) fn ubfe(a: &Args) -> R {
    bfe(a, false)
}
pub(crate) fn bitfield_insert(a: &Args) -> R {
    let (base, ins) = (u(a, 0), u(a, 1));
    let (offset, bits) = (s(a, 2), s(a, 3));
    if offset < 0 || bits < 0 || offset + bits > 32 {
        return Err(Ub(
            "bitfield_insert offset/bits outside [0, 32] or offset + bits > 32",
        ));
    }
    let field = ((1u64 << bits) - 1) << offset;
    out(a, (base & !field) | ((ins << offset) & field))
}
/// GLSL bitfieldExtract: `bits` bits of `value` at `offset`, both signed
/// and summed exactly; `signed` sign-extends the field.
fn bitfield_extract(a: &Args, signed: bool) -> R {
    let value = u(a, 0) & 0xffff_ffff;
    let (offset, bits) = (s(a, 1), s(a, 2));
    if offset < 0 || bits < 0 || offset + bits > 32 {
        return Err(Ub(
            "bitfield_extract offset/bits outside [0, 32] or offset + bits > 32",
        ));
    }
    if bits == 0 {
        return Ok(0);
    }
    let field = (value >> offset) & ((1u64 << bits) - 1);
    let v = if signed && field >> (bits - 1) & 1 == 1 {
        field | !((1u64 << bits) - 1)
    } else {
        field
    };
    out(a, v)
}
pub(crate) fn ibitfield_extract(a: &Args) -> R {
    bitfield_extract(a, true)
}
pub(crate) fn ubitfield_extract(a: &Args) -> R {
    bitfield_extract(a, false)
}
pub(crate) fn bitfield_reverse(a: &Args) -> R {
    out(a, u(a, 0).reverse_bits() >> (64 - a.src_bits[0] as u32))
}
pub(crate) fn bit_count(a: &Args) -> R {
    Ok(u(a, 0).count_ones() as u64)
}
pub(crate) fn find_lsb(a: &Args) -> R {
    let v = u(a, 0);
    Ok(if v == 0 {
        0xffff_ffff
    } else {
        v.trailing_zeros() as u64
    })
}
fn msb(v: u64) -> u64 {
    if v == 0 {
        0xffff_ffff
    } else {
        (63 - v.leading_zeros()) as u64
    }
}
pub(crate) fn ufind_msb(a: &Args) -> R {
    Ok(msb(u(a, 0)))
}
pub(crate) fn ifind_msb(a: &Args) -> R {
    let n = a.src_bits[0];
    let v = u(a, 0);
    let neg = v >> (n - 1) & 1 == 1;
    Ok(msb(if neg { !v & mask(n) } else { v }))
}
fn extract(a: &Args, width: u8, signed: bool) -> R {
    let idx = u(a, 1);
    if idx >= (a.bits / width) as u64 {
        return Err(Ub("extract index past the end of the value"));
    }
    let field = (u(a, 0) >> (idx as u32 * width as u32)) & mask(width);
    out(
        a,
        if signed {
            sext(field, width) as u64
        } else {
            field
        },
    )
}
pub(crate) fn extract_u8(a: &Args) -> R {
    extract(a, 8, false)
}
pub(crate) fn extract_i8(a: &Args) -> R {
    extract(a, 8, true)
}
pub(crate) fn extract_u16(a: &Args) -> R {
    extract(a, 16, false)
}
pub(crate) fn extract_i16(a: &Args) -> R {
    extract(a, 16, true)
}
