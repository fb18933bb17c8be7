//! Integer arithmetic, shifts, logic and comparisons.

use crate::emit::{Emitter, Ty, View};
use crate::ExportError;
use ir::Instr;
use rspirv::spirv::{GLOp, Op as SOp, Word};

type R = Result<(), ExportError>;

/// The sources' canonical ids and the result size.
fn srcs(e: &mut Emitter, i: &Instr) -> Result<(Vec<Word>, u8), ExportError> {
    let bits = Emitter::dest(i)?.bits;
    let ids = i
        .srcs
        .iter()
        .map(|&s| e.canon(s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((ids, bits))
}

/// One instruction on the canonical sources, canonical result.
fn simple(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let (ids, bits) = srcs(e, i)?;
    let r = e.op(op, Emitter::canon_ty(bits), &ids)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn load_const(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    e.define_const(d, i.imm);
    Ok(())
}

pub(crate) fn iadd(e: &mut Emitter, i: &Instr) -> R {
    simple(e, i, SOp::IAdd)
}
pub(crate) fn isub(e: &mut Emitter, i: &Instr) -> R {
    simple(e, i, SOp::ISub)
}
pub(crate) fn imul(e: &mut Emitter, i: &Instr) -> R {
    simple(e, i, SOp::IMul)
}
pub(crate) fn ineg(e: &mut Emitter, i: &Instr) -> R {
    simple(e, i, SOp::SNegate)
}
pub(crate) fn idiv(e: &mut Emitter, i: &Instr) -> R {
    simple(e, i, SOp::SDiv)
}
pub(crate) fn udiv(e: &mut Emitter, i: &Instr) -> R {
    simple(e, i, SOp::UDiv)
}
pub(crate) fn umod(e: &mut Emitter, i: &Instr) -> R {
    simple(e, i, SOp::UMod)
}

/// `a < 0` as a signed value of `bits` bits.
pub(crate) fn is_negative(e: &mut Emitter, a: Word, bits: u8) -> Result<Word, ExportError> {
    let zero = e.uconst(bits, 0);
    e.op(SOp::SLessThan, Ty::Bool, &[a, zero])
}

/// `|a|` wrapping (|MIN| = MIN, whose unsigned reading is exact), and `a < 0`.
fn magnitude(e: &mut Emitter, a: Word, bits: u8) -> Result<(Word, Word), ExportError> {
    let abs = e.ext(GLOp::SAbs, Ty::U(bits), &[a])?;
    let neg = is_negative(e, a, bits)?;
    Ok((abs, neg))
}

/// A GLSL.std.450 integer instruction on the canonical sources.
fn glsl(e: &mut Emitter, i: &Instr, gl: GLOp) -> R {
    let d = Emitter::dest(i)?;
    let (ids, bits) = srcs(e, i)?;
    let r = e.ext(gl, Ty::U(bits), &ids)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn iabs(e: &mut Emitter, i: &Instr) -> R {
    glsl(e, i, GLOp::SAbs)
}
pub(crate) fn imin(e: &mut Emitter, i: &Instr) -> R {
    glsl(e, i, GLOp::SMin)
}
pub(crate) fn imax(e: &mut Emitter, i: &Instr) -> R {
    glsl(e, i, GLOp::SMax)
}
pub(crate) fn umin(e: &mut Emitter, i: &Instr) -> R {
    glsl(e, i, GLOp::UMin)
}
pub(crate) fn umax(e: &mut Emitter, i: &Instr) -> R {
    glsl(e, i, GLOp::UMax)
}

/// The signed remainder with the sign of `a`, from the magnitudes (Vulkan
/// makes `OpSRem`/`OpSMod` poison on negative operands). Returns it and `b < 0`.
fn signed_rem(e: &mut Emitter, a: Word, b: Word, bits: u8) -> Result<(Word, Word), ExportError> {
    let t = Ty::U(bits);
    let (ua, a_neg) = magnitude(e, a, bits)?;
    let (ub, b_neg) = magnitude(e, b, bits)?;
    let ur = e.op(SOp::UMod, t, &[ua, ub])?;
    let minus = e.op(SOp::SNegate, t, &[ur])?;
    let r = e.select(t, a_neg, minus, ur)?;
    Ok((r, b_neg))
}

pub(crate) fn irem(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let (ids, bits) = srcs(e, i)?;
    let (r, _) = signed_rem(e, ids[0], ids[1], bits)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn imod(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let (ids, bits) = srcs(e, i)?;
    let t = Ty::U(bits);
    let (r, b_neg) = signed_rem(e, ids[0], ids[1], bits)?;
    // Floored: a non-zero remainder whose sign differs from b's moves by b.
    let r_neg = is_negative(e, r, bits)?;
    let differ = e.op(SOp::LogicalNotEqual, Ty::Bool, &[r_neg, b_neg])?;
    let zero = e.uconst(bits, 0);
    let nonzero = e.op(SOp::INotEqual, Ty::Bool, &[r, zero])?;
    let fix = e.op(SOp::LogicalAnd, Ty::Bool, &[nonzero, differ])?;
    let moved = e.op(SOp::IAdd, t, &[r, ids[1]])?;
    let m = e.select(t, fix, moved, r)?;
    e.define(d, m, View::Canon)
}

fn mul_high(e: &mut Emitter, i: &Instr, signed: bool) -> R {
    let d = Emitter::dest(i)?;
    let (ids, bits) = srcs(e, i)?;
    let r = if bits >= 32 {
        let op = if signed {
            SOp::SMulExtended
        } else {
            SOp::UMulExtended
        };
        let pair = e.op(op, Ty::Pair(bits), &ids)?;
        e.extract(Ty::U(bits), pair, 1)?
    } else {
        // The exact 2n-bit product fits in 32 bits.
        let (conv, shift) = if signed {
            (SOp::SConvert, SOp::ShiftRightArithmetic)
        } else {
            (SOp::UConvert, SOp::ShiftRightLogical)
        };
        let a = e.op(conv, Ty::U(32), &[ids[0]])?;
        let b = e.op(conv, Ty::U(32), &[ids[1]])?;
        let p = e.op(SOp::IMul, Ty::U(32), &[a, b])?;
        let n = e.u32c(bits as u32);
        let hi = e.op(shift, Ty::U(32), &[p, n])?;
        e.op(SOp::UConvert, Ty::U(bits), &[hi])?
    };
    e.define(d, r, View::Canon)
}

pub(crate) fn imul_high(e: &mut Emitter, i: &Instr) -> R {
    mul_high(e, i, true)
}
pub(crate) fn umul_high(e: &mut Emitter, i: &Instr) -> R {
    mul_high(e, i, false)
}

/// A 32-bit count masked to `bits - 1` and converted to the base's width.
pub(crate) fn shift_count(e: &mut Emitter, count: Word, bits: u8) -> Result<Word, ExportError> {
    let m = e.u32c(bits as u32 - 1);
    let c = e.op(SOp::BitwiseAnd, Ty::U(32), &[count, m])?;
    e.resize(SOp::UConvert, c, 32, bits)
}

fn shift(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let (ids, bits) = srcs(e, i)?;
    let c = shift_count(e, ids[1], bits)?;
    let r = e.op(op, Ty::U(bits), &[ids[0], c])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn ishl(e: &mut Emitter, i: &Instr) -> R {
    shift(e, i, SOp::ShiftLeftLogical)
}
pub(crate) fn ishr(e: &mut Emitter, i: &Instr) -> R {
    shift(e, i, SOp::ShiftRightArithmetic)
}
pub(crate) fn ushr(e: &mut Emitter, i: &Instr) -> R {
    shift(e, i, SOp::ShiftRightLogical)
}

/// A logic op: the boolean instruction at 1 bit, the bitwise one otherwise.
fn logic(e: &mut Emitter, i: &Instr, boolean: SOp, bitwise: SOp) -> R {
    let bits = Emitter::dest(i)?.bits;
    simple(e, i, if bits == 1 { boolean } else { bitwise })
}

pub(crate) fn iand(e: &mut Emitter, i: &Instr) -> R {
    logic(e, i, SOp::LogicalAnd, SOp::BitwiseAnd)
}
pub(crate) fn ior(e: &mut Emitter, i: &Instr) -> R {
    logic(e, i, SOp::LogicalOr, SOp::BitwiseOr)
}
pub(crate) fn ixor(e: &mut Emitter, i: &Instr) -> R {
    logic(e, i, SOp::LogicalNotEqual, SOp::BitwiseXor)
}
pub(crate) fn inot(e: &mut Emitter, i: &Instr) -> R {
    logic(e, i, SOp::LogicalNot, SOp::Not)
}

/// A comparison of two canonical sources into a bool.
fn compare(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let ids = i
        .srcs
        .iter()
        .map(|&s| e.canon(s))
        .collect::<Result<Vec<_>, _>>()?;
    let r = e.op(op, Ty::Bool, &ids)?;
    e.define(d, r, View::Canon)
}

/// `ieq`/`ine`: the logical instruction on booleans.
fn equality(e: &mut Emitter, i: &Instr, boolean: SOp, int: SOp) -> R {
    let bits = e.bits_of(i.srcs[0])?;
    compare(e, i, if bits == 1 { boolean } else { int })
}

pub(crate) fn ieq(e: &mut Emitter, i: &Instr) -> R {
    equality(e, i, SOp::LogicalEqual, SOp::IEqual)
}
pub(crate) fn ine(e: &mut Emitter, i: &Instr) -> R {
    equality(e, i, SOp::LogicalNotEqual, SOp::INotEqual)
}
pub(crate) fn ilt(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::SLessThan)
}
pub(crate) fn ige(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::SGreaterThanEqual)
}
pub(crate) fn ult(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::ULessThan)
}
pub(crate) fn uge(e: &mut Emitter, i: &Instr) -> R {
    compare(e, i, SOp::UGreaterThanEqual)
}
