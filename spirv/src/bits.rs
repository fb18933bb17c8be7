//! Bitfield ops, bit counting and scanning, byte/word extraction.
//!
//! Vulkan restricts `OpBitCount`, `OpBitReverse` and the `OpBitField*`
//! instructions to 32-bit operands (VUID-RuntimeSpirv-None-10824, unless
//! maintenance9), and GLSL.std.450 `FindILsb`/`FindUMsb`/`FindSMsb` to
//! 32-bit components: other sizes go through 32-bit pieces.

use crate::emit::{Emitter, Ty, View};
use crate::ExportError;
use ir::Instr;
use rspirv::spirv::{GLOp, Op as SOp, Word};

type R = Result<(), ExportError>;

const U32: Ty = Ty::U(32);

fn srcs(e: &mut Emitter, i: &Instr) -> Result<Vec<Word>, ExportError> {
    i.srcs.iter().map(|&s| e.canon(s)).collect()
}

pub(crate) fn bfm(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let s = srcs(e, i)?;
    let m31 = e.u32c(31);
    let one = e.u32c(1);
    let w = e.op(SOp::BitwiseAnd, U32, &[s[0], m31])?;
    let o = e.op(SOp::BitwiseAnd, U32, &[s[1], m31])?;
    let p = e.op(SOp::ShiftLeftLogical, U32, &[one, w])?;
    let ones = e.op(SOp::ISub, U32, &[p, one])?;
    let r = e.op(SOp::ShiftLeftLogical, U32, &[ones, o])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn bfi(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let s = srcs(e, i)?;
    let (mask, insert, base) = (s[0], s[1], s[2]);
    // FindILsb(0) = -1: masked to 31 the shift stays defined, and the AND
    // with the zero mask discards it.
    let lsb = e.ext(GLOp::FindILsb, U32, &[mask])?;
    let m31 = e.u32c(31);
    let count = e.op(SOp::BitwiseAnd, U32, &[lsb, m31])?;
    let shifted = e.op(SOp::ShiftLeftLogical, U32, &[insert, count])?;
    let field = e.op(SOp::BitwiseAnd, U32, &[shifted, mask])?;
    let keep = e.op(SOp::Not, U32, &[mask])?;
    let rest = e.op(SOp::BitwiseAnd, U32, &[base, keep])?;
    let r = e.op(SOp::BitwiseOr, U32, &[field, rest])?;
    e.define(d, r, View::Canon)
}

/// `ibfe`/`ubfe`: the field clamped to the word, where the op reads the
/// rest of the value (`value >> o`), which is the field of `32 - o` bits.
fn bfe(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let s = srcs(e, i)?;
    let m31 = e.u32c(31);
    let o = e.op(SOp::BitwiseAnd, U32, &[s[1], m31])?;
    let w = e.op(SOp::BitwiseAnd, U32, &[s[2], m31])?;
    let c32 = e.u32c(32);
    let room = e.op(SOp::ISub, U32, &[c32, o])?;
    let fits = e.op(SOp::ULessThan, Ty::Bool, &[w, room])?;
    let count = e.select(U32, fits, w, room)?;
    let r = e.op(op, U32, &[s[0], o, count])?;
    e.define(d, r, View::Canon)
}

pub(crate) fn ibfe(e: &mut Emitter, i: &Instr) -> R {
    bfe(e, i, SOp::BitFieldSExtract)
}
pub(crate) fn ubfe(e: &mut Emitter, i: &Instr) -> R {
    bfe(e, i, SOp::BitFieldUExtract)
}

/// GLSL bitfieldExtract: SPIR-V's extracts have exactly its semantics
/// (count 0 gives 0, offset + count <= 32 is defined, count 32 included).
fn bitfield_extract(e: &mut Emitter, i: &Instr, op: SOp) -> R {
    let d = Emitter::dest(i)?;
    let s = srcs(e, i)?;
    let r = e.op(op, U32, &s)?;
    e.define(d, r, View::Canon)
}
pub(crate) fn ibitfield_extract(e: &mut Emitter, i: &Instr) -> R {
    bitfield_extract(e, i, SOp::BitFieldSExtract)
}
pub(crate) fn ubitfield_extract(e: &mut Emitter, i: &Instr) -> R {
    bitfield_extract(e, i, SOp::BitFieldUExtract)
}

pub(crate) fn bitfield_insert(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let s = srcs(e, i)?;
    let r = e.op(SOp::BitFieldInsert, U32, &s)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn bitfield_reverse(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let a = e.canon(i.srcs[0])?;
    let r = match d.bits {
        32 => e.op(SOp::BitReverse, U32, &[a])?,
        64 => {
            let (lo, hi) = e.split64(a)?;
            let rlo = e.op(SOp::BitReverse, U32, &[lo])?;
            let rhi = e.op(SOp::BitReverse, U32, &[hi])?;
            e.join64(rhi, rlo)?
        }
        n => {
            let w = e.op(SOp::UConvert, U32, &[a])?;
            let rev = e.op(SOp::BitReverse, U32, &[w])?;
            let k = e.u32c(32 - n as u32);
            let down = e.op(SOp::ShiftRightLogical, U32, &[rev, k])?;
            e.op(SOp::UConvert, Ty::U(n), &[down])?
        }
    };
    e.define(d, r, View::Canon)
}

/// The source as 32-bit pieces: one (8/16 bits extended with `ext`, 32
/// bits as is) or two (64 bits: low, high).
fn pieces(e: &mut Emitter, i: &Instr, ext: SOp) -> Result<Vec<Word>, ExportError> {
    let bits = e.bits_of(i.srcs[0])?;
    let a = e.canon(i.srcs[0])?;
    Ok(match bits {
        32 => vec![a],
        64 => {
            let (lo, hi) = e.split64(a)?;
            vec![lo, hi]
        }
        _ => vec![e.op(ext, U32, &[a])?],
    })
}

pub(crate) fn bit_count(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let p = pieces(e, i, SOp::UConvert)?;
    let mut r = e.op(SOp::BitCount, U32, &[p[0]])?;
    if let Some(&hi) = p.get(1) {
        let h = e.op(SOp::BitCount, U32, &[hi])?;
        r = e.op(SOp::IAdd, U32, &[r, h])?;
    }
    e.define(d, r, View::Canon)
}

pub(crate) fn find_lsb(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let p = pieces(e, i, SOp::UConvert)?;
    let lo = e.ext(GLOp::FindILsb, U32, &[p[0]])?;
    let r = match p.get(1) {
        None => lo,
        Some(&hi_word) => {
            // hi's index + 32, and -1 | 32 = -1 when hi is 0 too.
            let hi = e.ext(GLOp::FindILsb, U32, &[hi_word])?;
            let c32 = e.u32c(32);
            let hi32 = e.op(SOp::BitwiseOr, U32, &[hi, c32])?;
            let zero = e.u32c(0);
            let lo_zero = e.op(SOp::IEqual, Ty::Bool, &[p[0], zero])?;
            e.select(U32, lo_zero, hi32, lo)?
        }
    };
    e.define(d, r, View::Canon)
}

/// The highest set bit of 32-bit pieces (low first), -1 for 0.
fn msb_of(e: &mut Emitter, p: &[Word]) -> Result<Word, ExportError> {
    let lo = e.ext(GLOp::FindUMsb, U32, &[p[0]])?;
    Ok(match p.get(1) {
        None => lo,
        Some(&hi_word) => {
            let hi = e.ext(GLOp::FindUMsb, U32, &[hi_word])?;
            let c32 = e.u32c(32);
            let hi32 = e.op(SOp::IAdd, U32, &[hi, c32])?;
            let zero = e.u32c(0);
            let hi_zero = e.op(SOp::IEqual, Ty::Bool, &[hi_word, zero])?;
            e.select(U32, hi_zero, lo, hi32)?
        }
    })
}

pub(crate) fn ufind_msb(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let p = pieces(e, i, SOp::UConvert)?;
    let r = msb_of(e, &p)?;
    e.define(d, r, View::Canon)
}

pub(crate) fn ifind_msb(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let bits = e.bits_of(i.srcs[0])?;
    let r = if bits == 64 {
        // Inverting a negative value makes "the highest bit that differs
        // from the sign" its highest set bit.
        let a = e.canon(i.srcs[0])?;
        let c63 = e.uconst(64, 63);
        let sign = e.op(SOp::ShiftRightArithmetic, Ty::U(64), &[a, c63])?;
        let x = e.op(SOp::BitwiseXor, Ty::U(64), &[a, sign])?;
        let (lo, hi) = e.split64(x)?;
        msb_of(e, &[lo, hi])?
    } else {
        // Sign-extended to 32 bits, the answer is the same index.
        let p = pieces(e, i, SOp::SConvert)?;
        e.ext(GLOp::FindSMsb, U32, &[p[0]])?
    };
    e.define(d, r, View::Canon)
}

/// Field `b` of `width` bits of `a`, zero- or sign-extended.
fn extract(e: &mut Emitter, i: &Instr, width: u32, signed: bool) -> R {
    let d = Emitter::dest(i)?;
    let n = d.bits;
    let t = Ty::U(n);
    let a = e.canon(i.srcs[0])?;
    let b = e.canon(i.srcs[1])?;
    let w = e.u32c(width);
    let at32 = e.op(SOp::IMul, U32, &[b, w])?;
    let at = e.resize(SOp::UConvert, at32, 32, n)?;
    let down = e.op(SOp::ShiftRightLogical, t, &[a, at])?;
    let r = if signed {
        let k = e.uconst(n, n as u64 - width as u64);
        let up = e.op(SOp::ShiftLeftLogical, t, &[down, k])?;
        e.op(SOp::ShiftRightArithmetic, t, &[up, k])?
    } else {
        let m = e.uconst(n, ir::types::mask(width as u8));
        e.op(SOp::BitwiseAnd, t, &[down, m])?
    };
    e.define(d, r, View::Canon)
}

pub(crate) fn extract_u8(e: &mut Emitter, i: &Instr) -> R {
    extract(e, i, 8, false)
}
pub(crate) fn extract_i8(e: &mut Emitter, i: &Instr) -> R {
    extract(e, i, 8, true)
}
pub(crate) fn extract_u16(e: &mut Emitter, i: &Instr) -> R {
    extract(e, i, 16, false)
}
pub(crate) fn extract_i16(e: &mut Emitter, i: &Instr) -> R {
    extract(e, i, 16, true)
}
