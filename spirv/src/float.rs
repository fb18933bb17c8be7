//! Float arithmetic, comparisons, rounding and the sign-bit ops.

use crate::emit::{Emitter, Ty, View};
use crate::ExportError;
use ir::float::sign_bit;
use ir::Instr;
use rspirv::spirv::{GLOp, Op as SOp, Word};

type R = Result<(), ExportError>;

fn float_srcs(e: &mut Emitter, i: &Instr) -> Result<Vec<Word>, ExportError> {
    i.srcs.iter().map(|&s| e.float(s)).collect()
}

/// `1.0` of a width, as bits.
fn one_bits(bits: u8) -> u64 {
    ir::float::from_f64(1.0, bits)
}

/// Arithmetic with a float result, NaN canonicalized.
fn arith(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let ids = float_srcs(e, i)?;
    let r = e.op(op, Ty::F(d.bits), &ids)?;
    let c = e.canonicalize(d.bits, r)?;
    e.define(d, c, View::Float)
}

pub(crate) fn fadd(e: &mut Emitter, i: &Instr) -> R {
    arith(e, i, SOp::FAdd)
}
pub(crate) fn fsub(e: &mut Emitter, i: &Instr) -> R {
    arith(e, i, SOp::FSub)
}
pub(crate) fn fmul(e: &mut Emitter, i: &Instr) -> R {
    arith(e, i, SOp::FMul)
}

pub(crate) fn ffma(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let ids = float_srcs(e, i)?;
    let r = e.ext(GLOp::Fma, Ty::F(d.bits), &ids)?;
    let c = e.canonicalize(d.bits, r)?;
    e.define(d, c, View::Float)
}

fn compare(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let ids = float_srcs(e, i)?;
    let r = e.op(op, Ty::Bool, &ids)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn feq(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::FOrdEqual)
}
pub(crate) fn fneu(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::FUnordNotEqual)
}
pub(crate) fn flt(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::FOrdLessThan)
}
pub(crate) fn fge(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::FOrdGreaterThanEqual)
}

/// An integer op of the value's bits with a constant.
fn bits_op(e: &mut Emitter, i: &Instr, op: SOp, k: impl Fn(u8) -> u64) -> R {
    let d = Emitter::dest(i)?;
    let a = e.canon(i.srcs[0])?;
    let c = e.uconst(d.bits, k(d.bits));
    let r = e.op(op, Ty::U(d.bits), &[a, c])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn fneg(e: &mut Emitter, i: &Instr) -> R {
    bits_op(e, i, SOp::BitwiseXor, sign_bit)
}
pub(crate) fn fabs(e: &mut Emitter, i: &Instr) -> R {
    bits_op(e, i, SOp::BitwiseAnd, |b| !sign_bit(b))
}

pub(crate) fn fsat(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let (t, u) = (Ty::F(d.bits), Ty::U(d.bits));
    let x = e.float(i.srcs[0])?;
    let zero = e.fconst(d.bits, 0);
    let one = e.fconst(d.bits, one_bits(d.bits));
    let c = e.ext(GLOp::FClamp, t, &[x, zero, one])?;
    let cu = e.op(SOp::Bitcast, u, &[c])?;
    let no_sign = e.uconst(d.bits, !sign_bit(d.bits));
    let pos = e.op(SOp::BitwiseAnd, u, &[cu, no_sign])?;
    let nan = e.op(SOp::IsNan, Ty::Bool, &[x])?;
    let zero_u = e.uconst(d.bits, 0);
    let r = e.select(u, nan, zero_u, pos)?;
    e.define(d, r, View::Canon)
}

/// `fmin` (`max` false) or `fmax`: pick an operand's exact bits.
fn min_max(e: &mut Emitter, i: &Instr, max: bool) -> R {
    let d = Emitter::dest(i)?;
    let u = Ty::U(d.bits);
    let (af, bf) = (e.float(i.srcs[0])?, e.float(i.srcs[1])?);
    let (au, bu) = (e.canon(i.srcs[0])?, e.canon(i.srcs[1])?);
    let order = if max {
        SOp::FOrdGreaterThan
    } else {
        SOp::FOrdLessThan
    };
    let strictly = e.op(order, Ty::Bool, &[af, bf])?;
    let equal = e.op(SOp::FOrdEqual, Ty::Bool, &[af, bf])?;
    // Equal values differ at most in the sign of zero: min takes a if a is
    // -0, max takes a if a is +0 (the sign bit, tested on the integer bits).
    let zero = e.uconst(d.bits, 0);
    let sign_test = if max {
        SOp::SGreaterThanEqual
    } else {
        SOp::SLessThan
    };
    let a_wins_tie = e.op(sign_test, Ty::Bool, &[au, zero])?;
    let tie = e.op(SOp::LogicalAnd, Ty::Bool, &[equal, a_wins_tie])?;
    let b_nan = e.op(SOp::IsNan, Ty::Bool, &[bf])?;
    // Ordered compares are false with a NaN a, so b wins; a NaN b loses to a.
    let a1 = e.op(SOp::LogicalOr, Ty::Bool, &[strictly, tie])?;
    let take_a = e.op(SOp::LogicalOr, Ty::Bool, &[a1, b_nan])?;
    let r = e.select(u, take_a, au, bu)?;
    let a_nan = e.op(SOp::IsNan, Ty::Bool, &[af])?;
    let both = e.op(SOp::LogicalAnd, Ty::Bool, &[a_nan, b_nan])?;
    let nan = e.nan_u(d.bits);
    let r = e.select(u, both, nan, r)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn fmin(e: &mut Emitter, i: &Instr) -> R {
    min_max(e, i, false)
}
pub(crate) fn fmax(e: &mut Emitter, i: &Instr) -> R {
    min_max(e, i, true)
}

/// A GLSL.std.450 rounding instruction, the operand's sign restored, NaN
/// canonicalized.
fn round(e: &mut Emitter, i: &Instr, gl: GLOp) -> R {
    let d = Emitter::dest(i)?;
    let u = Ty::U(d.bits);
    let x = e.float(i.srcs[0])?;
    let xu = e.canon(i.srcs[0])?;
    let r = e.ext(gl, Ty::F(d.bits), &[x])?;
    let ru = e.op(SOp::Bitcast, u, &[r])?;
    let sign = e.uconst(d.bits, sign_bit(d.bits));
    let s = e.op(SOp::BitwiseAnd, u, &[xu, sign])?;
    let signed = e.op(SOp::BitwiseOr, u, &[ru, s])?;
    let nan = e.op(SOp::IsNan, Ty::Bool, &[x])?;
    let canon = e.nan_u(d.bits);
    let out = e.select(u, nan, canon, signed)?;
    e.define(d, out, View::Canon)
}

pub(crate) fn ffloor(e: &mut Emitter, i: &Instr) -> R {
    round(e, i, GLOp::Floor)
}
pub(crate) fn fceil(e: &mut Emitter, i: &Instr) -> R {
    round(e, i, GLOp::Ceil)
}
pub(crate) fn ftrunc(e: &mut Emitter, i: &Instr) -> R {
    round(e, i, GLOp::Trunc)
}
pub(crate) fn fround_even(e: &mut Emitter, i: &Instr) -> R {
    round(e, i, GLOp::RoundEven)
}

pub(crate) fn ffract(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let (t, u) = (Ty::F(d.bits), Ty::U(d.bits));
    let x = e.float(i.srcs[0])?;
    let fl = e.ext(GLOp::Floor, t, &[x])?;
    let r = e.op(SOp::FSub, t, &[x, fl])?;
    let ru = e.op(SOp::Bitcast, u, &[r])?;
    let no_sign = e.uconst(d.bits, !sign_bit(d.bits));
    let pos = e.op(SOp::BitwiseAnd, u, &[ru, no_sign])?;
    let nan = e.op(SOp::IsNan, Ty::Bool, &[r])?;
    let canon = e.nan_u(d.bits);
    let out = e.select(u, nan, canon, pos)?;
    e.define(d, out, View::Canon)
}

pub(crate) fn fsign(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let u = Ty::U(d.bits);
    let a = e.canon(i.srcs[0])?;
    let no_sign = e.uconst(d.bits, !sign_bit(d.bits));
    let mag = e.op(SOp::BitwiseAnd, u, &[a, no_sign])?;
    let zero = e.uconst(d.bits, 0);
    let is_zero = e.op(SOp::IEqual, Ty::Bool, &[mag, zero])?;
    let one = e.uconst(d.bits, one_bits(d.bits));
    let m = e.select(u, is_zero, zero, one)?;
    let sign = e.uconst(d.bits, sign_bit(d.bits));
    let s = e.op(SOp::BitwiseAnd, u, &[a, sign])?;
    let r = e.op(SOp::BitwiseOr, u, &[m, s])?;
    e.define(d, r, View::Canon)
}
