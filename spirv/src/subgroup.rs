//! Subgroup ops. Values cross the subgroup as 32-bit words (booleans as
//! 0/1, 8/16-bit values zero-extended, 64-bit values as two halves), so no
//! module needs `shaderSubgroupExtendedTypes`.

use crate::emit::{Emitter, Ty, View};
use crate::ExportError;
use ir::Instr;
use rspirv::spirv::{Op as SOp, Scope, Word};

type R = Result<(), ExportError>;

const U32: Ty = Ty::U(32);

/// The `Subgroup` execution scope operand.
fn scope(e: &mut Emitter) -> Word {
    e.u32c(Scope::Subgroup as u32)
}

/// A canonical value of `bits` bits as 32-bit words.
fn to_words(e: &mut Emitter, v: Word, bits: u8) -> Result<Vec<Word>, ExportError> {
    Ok(match bits {
        1 => {
            let (one, zero) = (e.u32c(1), e.u32c(0));
            vec![e.select(U32, v, one, zero)?]
        }
        32 => vec![v],
        64 => {
            let (lo, hi) = e.split64(v)?;
            vec![lo, hi]
        }
        _ => vec![e.op(SOp::UConvert, U32, &[v])?],
    })
}

/// The inverse of [`to_words`].
fn from_words(e: &mut Emitter, w: &[Word], bits: u8) -> Result<Word, ExportError> {
    match bits {
        1 => {
            let zero = e.u32c(0);
            e.op(SOp::INotEqual, Ty::Bool, &[w[0], zero])
        }
        32 => Ok(w[0]),
        64 => e.join64(w[0], w[1]),
        n => e.op(SOp::UConvert, Ty::U(n), &[w[0]]),
    }
}

pub(crate) fn ballot(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let c = e.canon(i.srcs[0])?;
    let s = scope(e);
    let mask = e.op(SOp::GroupNonUniformBallot, Ty::U32x4, &[s, c])?;
    e.feats.subgroup_ballot = true;
    let x = e.extract(U32, mask, 0)?;
    let r = if d.bits == 64 {
        let y = e.extract(U32, mask, 1)?;
        e.join64(x, y)?
    } else {
        x
    };
    e.define(d, r, View::Canon)
}

fn vote(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let c = e.canon(i.srcs[0])?;
    let s = scope(e);
    let r = e.op(op, Ty::Bool, &[s, c])?;
    e.feats.subgroup_vote = true;
    e.define(d, r, View::Canon)
}

pub(crate) fn vote_any(e: &mut Emitter, i: &Instr) -> R {
    vote(e, i, SOp::GroupNonUniformAny)
}
pub(crate) fn vote_all(e: &mut Emitter, i: &Instr) -> R {
    vote(e, i, SOp::GroupNonUniformAll)
}

pub(crate) fn vote_ieq(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let bits = e.bits_of(i.srcs[0])?;
    let v = e.canon(i.srcs[0])?;
    let words = to_words(e, v, bits)?;
    let s = scope(e);
    let mut r = None;
    for w in words {
        let eq = e.op(SOp::GroupNonUniformAllEqual, Ty::Bool, &[s, w])?;
        r = Some(match r {
            None => eq,
            Some(prev) => e.op(SOp::LogicalAnd, Ty::Bool, &[prev, eq])?,
        });
    }
    e.feats.subgroup_vote = true;
    let r = r.ok_or_else(|| ExportError::Internal("vote_ieq of no words".into()))?;
    e.define(d, r, View::Canon)
}

/// A broadcast of each 32-bit word of the value (`extra` follows the value).
fn broadcast(e: &mut Emitter, i: &Instr, op: SOp, extra: Option<Word>) -> R {
    let d = Emitter::dest(i)?;
    let v = e.canon(i.srcs[0])?;
    let words = to_words(e, v, d.bits)?;
    let s = scope(e);
    let mut out = Vec::with_capacity(words.len());
    for w in words {
        let mut args = vec![s, w];
        args.extend(extra);
        out.push(e.op(op, U32, &args)?);
    }
    let r = from_words(e, &out, d.bits)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn read_first_invocation(e: &mut Emitter, i: &Instr) -> R {
    e.feats.subgroup_ballot = true;
    broadcast(e, i, SOp::GroupNonUniformBroadcastFirst, None)
}

pub(crate) fn read_invocation(e: &mut Emitter, i: &Instr) -> R {
    e.feats.subgroup_shuffle = true;
    let lane = e.canon(i.srcs[1])?;
    broadcast(e, i, SOp::GroupNonUniformShuffle, Some(lane))
}

pub(crate) fn elect(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let s = scope(e);
    let r = e.op(SOp::GroupNonUniformElect, Ty::Bool, &[s])?;
    e.define(d, r, View::Canon)
}

/// `OpGroupNonUniformQuadSwap` with `direction` 0 (horizontal), 1
/// (vertical) or 2 (diagonal).
fn quad_swap(e: &mut Emitter, i: &Instr, direction: u32) -> R {
    e.feats.subgroup_quad = true;
    let dir = e.u32c(direction);
    broadcast(e, i, SOp::GroupNonUniformQuadSwap, Some(dir))
}

pub(crate) fn quad_swap_horizontal(e: &mut Emitter, i: &Instr) -> R {
    quad_swap(e, i, 0)
}
pub(crate) fn quad_swap_vertical(e: &mut Emitter, i: &Instr) -> R {
    quad_swap(e, i, 1)
}
pub(crate) fn quad_swap_diagonal(e: &mut Emitter, i: &Instr) -> R {
    quad_swap(e, i, 2)
}

/// A constant index: `OpGroupNonUniformQuadBroadcast` (SPIR-V 1.3 wants
/// a constant). A register index: `OpGroupNonUniformShuffle` of lane
/// `(SubgroupLocalInvocationId & ~3) | i`, as NIR lowers a dynamic one.
pub(crate) fn quad_broadcast(e: &mut Emitter, i: &Instr) -> R {
    if let Some(k) = e.p.const_value(i.srcs[1]) {
        e.feats.subgroup_quad = true;
        let k = e.u32c(k as u32 & 3);
        return broadcast(e, i, SOp::GroupNonUniformQuadBroadcast, Some(k));
    }
    e.feats.subgroup_shuffle = true;
    let lane = e.load_builtin(e.io.subgroup_local)?;
    let not3 = e.u32c(!3);
    let base = e.op(SOp::BitwiseAnd, U32, &[lane, not3])?;
    let idx = e.canon(i.srcs[1])?;
    let id = e.op(SOp::BitwiseOr, U32, &[base, idx])?;
    broadcast(e, i, SOp::GroupNonUniformShuffle, Some(id))
}

/// `OpDPdx*`/`OpDPdy*` (Fine or Coarse) under `DerivativeGroupLinearKHR`,
/// then NaN canonicalization as for `fsub`.
fn derivative(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    e.feats.compute_derivatives = true;
    let x = e.float(i.srcs[0])?;
    let r = e.op(op, Ty::F(32), &[x])?;
    let c = e.canonicalize(32, r)?;
    e.define(d, c, View::Float)
}

pub(crate) fn ddx_fine(e: &mut Emitter, i: &Instr) -> R {
    derivative(e, i, SOp::DPdxFine)
}
pub(crate) fn ddx_coarse(e: &mut Emitter, i: &Instr) -> R {
    derivative(e, i, SOp::DPdxCoarse)
}
pub(crate) fn ddy_fine(e: &mut Emitter, i: &Instr) -> R {
    derivative(e, i, SOp::DPdyFine)
}
pub(crate) fn ddy_coarse(e: &mut Emitter, i: &Instr) -> R {
    derivative(e, i, SOp::DPdyCoarse)
}
