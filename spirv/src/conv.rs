//! Conversions between sizes and kinds, and `bcsel`.

use crate::emit::{Emitter, Ty, View};
use crate::ExportError;
use ir::Instr;
use rspirv::spirv::Op as SOp;

type R = Result<(), ExportError>;

/// An integer width change (`OpCopyObject` at the same width, which SPIR-V
/// conversions do not allow).
fn int_resize(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let from = e.bits_of(i.srcs[0])?;
    let a = e.canon(i.srcs[0])?;
    let op = if from == d.bits { SOp::CopyObject } else { op };
    let r = e.op(op, Ty::U(d.bits), &[a])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn i2i(e: &mut Emitter, i: &Instr) -> R {
    int_resize(e, i, SOp::SConvert)
}
pub(crate) fn u2u(e: &mut Emitter, i: &Instr) -> R {
    int_resize(e, i, SOp::UConvert)
}

fn int_to_float(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let a = e.canon(i.srcs[0])?;
    let r = e.op(op, Ty::F(d.bits), &[a])?;
    e.define(d, r, View::Float)
}

pub(crate) fn i2f(e: &mut Emitter, i: &Instr) -> R {
    int_to_float(e, i, SOp::ConvertSToF)
}
pub(crate) fn u2f(e: &mut Emitter, i: &Instr) -> R {
    int_to_float(e, i, SOp::ConvertUToF)
}

fn float_to_int(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let x = e.float(i.srcs[0])?;
    let r = e.op(op, Ty::U(d.bits), &[x])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn f2i(e: &mut Emitter, i: &Instr) -> R {
    float_to_int(e, i, SOp::ConvertFToS)
}
pub(crate) fn f2u(e: &mut Emitter, i: &Instr) -> R {
    float_to_int(e, i, SOp::ConvertFToU)
}

pub(crate) fn f2f(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let from = e.bits_of(i.srcs[0])?;
    let x = e.float(i.srcs[0])?;
    let r = if from == d.bits {
        x
    } else {
        e.op(SOp::FConvert, Ty::F(d.bits), &[x])?
    };
    let c = e.canonicalize(d.bits, r)?;
    e.define(d, c, View::Float)
}

pub(crate) fn b2i(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let c = e.canon(i.srcs[0])?;
    let (one, zero) = (e.uconst(d.bits, 1), e.uconst(d.bits, 0));
    let r = e.select(Ty::U(d.bits), c, one, zero)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn b2f(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let c = e.canon(i.srcs[0])?;
    let one = e.uconst(d.bits, ir::float::from_f64(1.0, d.bits));
    let zero = e.uconst(d.bits, 0);
    let r = e.select(Ty::U(d.bits), c, one, zero)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn i2b(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let bits = e.bits_of(i.srcs[0])?;
    let a = e.canon(i.srcs[0])?;
    let zero = e.uconst(bits, 0);
    let r = e.op(SOp::INotEqual, Ty::Bool, &[a, zero])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn f2b(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let bits = e.bits_of(i.srcs[0])?;
    let x = e.float(i.srcs[0])?;
    let zero = e.fconst(bits, 0);
    let r = e.op(SOp::FUnordNotEqual, Ty::Bool, &[x, zero])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn bcsel(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let c = e.canon(i.srcs[0])?;
    let a = e.canon(i.srcs[1])?;
    let b = e.canon(i.srcs[2])?;
    let r = e.select(Emitter::canon_ty(d.bits), c, a, b)?;
    e.define(d, r, View::Canon)
}
