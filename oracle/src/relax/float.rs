//! The float relaxations of one op on one lane's operands: how `spirv/`
//! computes each op (`lowering`) and, per lowering, which relaxation lets a
//! conforming driver give another result for these operand values (the
//! module doc lists the rules).

use super::exact::Exact;
use super::taint::Taint;
use super::{FloatControlsScope as Scope, Guarantees, Relaxation as R};
use ir::eval::Args;
use ir::float::{self, canonical_nan, sign_bit};
use ir::op::Op;
use ir::types::sext;

/// How the exported module computes an op, as far as the float rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lowering {
    /// Reads and makes no floats.
    NotFloat,
    /// Integer operations on the bits (`fneg`, `fabs`, `fsign`, `b2f`).
    Bits,
    /// `OpFAdd`/`OpFSub`/`OpFMul`, then `OpIsNan` canonicalization.
    Arith,
    /// GLSL.std.450 `Fma`, then canonicalization.
    Fma,
    /// `OpFConvert` (nothing at the same size), then canonicalization.
    Convert,
    /// `OpConvertSToF` / `OpConvertUToF`.
    IntToFloat,
    /// `OpConvertFToS` / `OpConvertFToU` (NaN, infinities and out-of-range
    /// values are undefined in the IR too, so never reach here).
    FloatToInt,
    /// `OpFOrd*` / `OpFUnord*` comparisons.
    Compare,
    /// Ordered compares and `OpIsNan` picking an operand's integer bits.
    MinMax,
    /// GLSL.std.450 `FClamp(x, 0, 1)`, sign bit cleared, `OpIsNan` select.
    Clamp,
    /// GLSL.std.450 `Floor`/`Ceil`/`Trunc`/`RoundEven`, the operand's sign
    /// bit ORed back, `OpIsNan` select.
    Round,
    /// GLSL.std.450 `Floor`, `OpFSub`, sign bit cleared, `OpIsNan` select.
    Fract,
}

impl Lowering {
    /// A zero result always has a positive sign, whatever the operands.
    pub(crate) fn clears_zero_sign(self) -> bool {
        matches!(self, Lowering::Clamp | Lowering::Fract)
    }
}

/// How `spirv/` computes `op` (one row per op, no default: a new op must be
/// placed).
pub(crate) fn lowering(op: Op) -> Lowering {
    use Lowering as L;
    use Op::*;
    match op {
        // A derivative is an `OpFSub` of two lanes' values.
        Fadd | Fsub | Fmul | DdxFine | DdxCoarse | DdyFine | DdyCoarse => L::Arith,
        Ffma => L::Fma,
        Fneg | Fabs | Fsign | B2f => L::Bits,
        Fsat => L::Clamp,
        Fmin | Fmax => L::MinMax,
        Ffloor | Fceil | Ftrunc | FroundEven => L::Round,
        Ffract => L::Fract,
        F2f => L::Convert,
        I2f | U2f => L::IntToFloat,
        F2i | F2u => L::FloatToInt,
        Feq | Fneu | Flt | Fge | F2b => L::Compare,
        LoadConst | Iadd | Isub | Imul | Ineg | Iabs | Imin | Imax | Umin | Umax | Idiv | Udiv
        | Irem | Imod | Umod | ImulHigh | UmulHigh | Ishl | Ishr | Ushr | Iand | Ior | Ixor
        | Inot | Ieq | Ine | Ilt | Ige | Ult | Uge | I2i | U2u | B2i | I2b | Bcsel | Bfm | Bfi
        | Ibfe | Ubfe | BitfieldInsert | IbitfieldExtract | UbitfieldExtract | BitfieldReverse
        | BitCount | FindLsb | UfindMsb | IfindMsb | ExtractU8 | ExtractI8 | ExtractU16
        | ExtractI16 | Ballot | VoteAny | VoteAll | VoteIeq | ReadFirstInvocation
        | ReadInvocation | SubgroupInvocation | Elect | LoadInput | LoadUniform | InvocationId
        | StoreOutput | QuadBroadcast | QuadSwapHorizontal | QuadSwapVertical
        | QuadSwapDiagonal | Demote | Terminate | IsHelperInvocation => L::NotFloat,
    }
}

fn is_nan(v: u64, bits: u8) -> bool {
    float::is_nan(v, bits)
}

fn is_inf(v: u64, bits: u8) -> bool {
    float::to_f64(v, bits).is_infinite()
}

fn special(v: u64, bits: u8) -> bool {
    !float::to_f64(v, bits).is_finite()
}

fn is_zero(v: u64, bits: u8) -> bool {
    v & !sign_bit(bits) == 0
}

fn min_normal(bits: u8) -> u64 {
    match bits {
        16 => 0x0400,
        32 => 0x0080_0000,
        _ => 0x0010_0000_0000_0000,
    }
}

fn is_denormal(v: u64, bits: u8) -> bool {
    let mag = v & !sign_bit(bits);
    mag != 0 && mag < min_normal(bits)
}

/// Whether two results are the same output: equal bits, or two NaNs.
fn agree(x: u64, y: u64, bits: u8, float_result: bool) -> bool {
    x == y || (float_result && is_nan(x, bits) && is_nan(y, bits))
}

/// Whether the result may be flushed as a denormal: it is one, or its exact
/// value (computed only at the boundary: a zero or ±smallest normal result)
/// is non-zero and below the smallest normal.
fn result_tiny(r: u64, bits: u8, exact: impl FnOnce() -> Option<Exact>) -> bool {
    if is_denormal(r, bits) {
        return true;
    }
    let mag = r & !sign_bit(bits);
    (mag == 0 || mag == min_normal(bits)) && exact().is_some_and(|x| x.class(bits).tiny)
}

/// Whether recomputing `op` with its denormal float operands (the first
/// `n`) flushed to +0 or -0, in every combination, can give another result.
/// With `select`, the result is the original bits of the operand the
/// flushed comparison picks (`fmin`/`fmax` select integer bits).
fn flush_changes(op: Op, a: &Args, r: u64, n: usize, float_result: bool, select: bool) -> bool {
    let idx: Vec<usize> = (0..n)
        .filter(|&k| is_denormal(a.src[k], a.src_bits[k]))
        .collect();
    if idx.is_empty() {
        return false;
    }
    let eval = op.info().eval.expect("float ops have evaluators");
    for combo in 1..3usize.pow(idx.len() as u32) {
        let mut b = *a;
        let mut c = combo;
        for &k in &idx {
            match c % 3 {
                0 => {}
                1 => b.src[k] = 0,
                _ => b.src[k] = sign_bit(a.src_bits[k]),
            }
            c /= 3;
        }
        let Ok(r2) = eval(&b) else {
            return true;
        };
        let picks: Vec<u64> = if select {
            let p: Vec<u64> = (0..n)
                .filter(|&k| b.src[k] == r2)
                .map(|k| a.src[k])
                .collect();
            if p.is_empty() {
                vec![r2]
            } else {
                p
            }
        } else {
            vec![r2]
        };
        if picks.iter().any(|&p| !agree(p, r, a.bits, float_result)) {
            return true;
        }
    }
    false
}

fn exact2(a: &Args, f: impl FnOnce(Exact, Exact) -> Exact) -> Option<Exact> {
    let s = a.bits;
    Some(f(Exact::float(a.src[0], s)?, Exact::float(a.src[1], s)?))
}

/// The taint a lane's result of `op` gets from the op itself (its operands
/// clean), under `g`.
pub(crate) fn own(g: &Guarantees, op: Op, a: &Args, r: u64) -> Taint {
    match lowering(op) {
        Lowering::NotFloat | Lowering::Bits | Lowering::FloatToInt => Taint::CLEAN,
        Lowering::Arith => arith(g, op, a, r),
        Lowering::Fma => fma(g, a, r),
        Lowering::Convert => convert(g, a, r),
        Lowering::IntToFloat => int_to_float(g, op, a, r),
        Lowering::Compare => compare(g, op, a),
        Lowering::MinMax => min_max(g, op, a, r),
        Lowering::Clamp => clamp(g, a, r),
        Lowering::Round => round(g, a, r),
        Lowering::Fract => fract(g, a, r),
    }
}

fn arith(g: &Guarantees, op: Op, a: &Args, r: u64) -> Taint {
    let s = a.bits;
    let fc = g.float(s);
    let mut t = Taint::CLEAN;
    if !g.binds(Scope::Vulkan13, &[s]) {
        if special(a.src[0], s) || special(a.src[1], s) || special(r, s) {
            return Taint::any(R::NanInf);
        }
        if is_zero(r, s) {
            t = Taint::zero_sign(R::SignedZero);
        }
    }
    let exact = || match op {
        Op::Fadd => exact2(a, |x, y| x.add(&y)),
        Op::Fsub => exact2(a, |x, y| x.add(&y.negate())),
        _ => exact2(a, |x, y| x.mul(&y)),
    };
    if !fc.denorm_preserve && (flush_changes(op, a, r, 2, true, false) || result_tiny(r, s, exact))
    {
        return Taint::any(R::DenormFlush);
    }
    if !fc.rounding_rte && exact().is_some_and(|x| x.class(s).inexact) {
        return Taint::any(R::Rounding);
    }
    if is_nan(r, s) && !g.is_nan_exact(s) {
        t = t.or(Taint::nan_bits(R::NanBits));
    }
    t
}

fn fma(g: &Guarantees, a: &Args, r: u64) -> Taint {
    let s = a.bits;
    let fc = g.float(s);
    let (x, y, z) = (a.src[0], a.src[1], a.src[2]);
    let product = float::mul(x, y, s);
    let unfused = float::add(product, z, s);
    let operands_special = special(x, s) || special(y, s) || special(z, s);
    let mut t = Taint::CLEAN;
    if !g.binds(Scope::Every, &[s]) {
        if operands_special || special(r, s) {
            return Taint::any(R::NanInf);
        }
        if is_zero(r, s) {
            t = Taint::zero_sign(R::SignedZero);
        }
    }
    let finite = || -> Option<(Exact, Exact)> {
        let p = Exact::float(x, s)?.mul(&Exact::float(y, s)?);
        let sum = p.add(&Exact::float(z, s)?);
        Some((p, sum))
    };
    if !fc.denorm_preserve
        && (flush_changes(Op::Ffma, a, r, 3, true, false)
            || finite().is_some_and(|(p, _)| p.class(s).tiny)
            || result_tiny(r, s, || finite().map(|(_, x)| x)))
    {
        return Taint::any(R::DenormFlush);
    }
    if !fc.rounding_rte && !operands_special {
        let unfused_inexact = Exact::float(product, s)
            .zip(Exact::float(z, s))
            .is_none_or(|(p, c)| p.add(&c).class(s).inexact);
        if finite().is_some_and(|(p, x)| p.class(s).inexact || x.class(s).inexact)
            || unfused_inexact
        {
            return Taint::any(R::Rounding);
        }
    }
    if !g.fma_fused
        && (operands_special
            || special(r, s)
            || special(unfused, s)
            || r != unfused
            || finite().is_some_and(|(_, x)| x.class(s).tie))
    {
        return Taint::any(R::FfmaFusion);
    }
    if is_nan(r, s) && !g.is_nan_exact(s) {
        t = t.or(Taint::nan_bits(R::NanBits));
    }
    t
}

fn convert(g: &Guarantees, a: &Args, r: u64) -> Taint {
    let (from, to) = (a.src_bits[0], a.bits);
    let v = a.src[0];
    let mut t = Taint::CLEAN;
    if !g.binds(Scope::Vulkan13, &[from, to]) {
        if special(v, from) || special(r, to) {
            return Taint::any(R::NanInf);
        }
        if is_zero(r, to) {
            t = Taint::zero_sign(R::SignedZero);
        }
    }
    if from != to {
        let exact = || Exact::float(v, from);
        if (!g.float(from).denorm_preserve && flush_changes(Op::F2f, a, r, 1, true, false))
            || (!g.float(to).denorm_preserve && result_tiny(r, to, exact))
        {
            return Taint::any(R::DenormFlush);
        }
        if !g.float(to).rounding_rte && exact().is_some_and(|x| x.class(to).inexact) {
            return Taint::any(R::Rounding);
        }
    }
    if is_nan(r, to) && !g.is_nan_exact(to) {
        t = t.or(Taint::nan_bits(R::NanBits));
    }
    t
}

fn int_to_float(g: &Guarantees, op: Op, a: &Args, r: u64) -> Taint {
    let to = a.bits;
    let mut t = Taint::CLEAN;
    if !g.binds(Scope::Every, &[to]) {
        if special(r, to) {
            return Taint::any(R::NanInf);
        }
        if is_zero(r, to) {
            t = Taint::zero_sign(R::SignedZero);
        }
    }
    if !g.float(to).rounding_rte {
        let x = if op == Op::I2f {
            let v = sext(a.src[0], a.src_bits[0]);
            Exact::int(v < 0, v.unsigned_abs())
        } else {
            Exact::int(false, a.src[0])
        };
        if x.class(to).inexact {
            return Taint::any(R::Rounding);
        }
    }
    t
}

fn compare(g: &Guarantees, op: Op, a: &Args) -> Taint {
    let s = a.src_bits[0];
    let n = if op == Op::F2b { 1 } else { 2 };
    if !g.binds(Scope::Vulkan14, &[s]) && (0..n).any(|k| special(a.src[k], s)) {
        return Taint::any(R::NanInf);
    }
    let r = (op.info().eval.expect("compares have evaluators"))(a).unwrap_or(0);
    if !g.float(s).denorm_preserve && flush_changes(op, a, r, n, false, false) {
        return Taint::any(R::DenormFlush);
    }
    Taint::CLEAN
}

fn min_max(g: &Guarantees, op: Op, a: &Args, r: u64) -> Taint {
    let s = a.bits;
    if !g.binds(Scope::Vulkan14, &[s]) && (special(a.src[0], s) || special(a.src[1], s)) {
        return Taint::any(R::NanInf);
    }
    if !g.float(s).denorm_preserve && flush_changes(op, a, r, 2, true, true) {
        return Taint::any(R::DenormFlush);
    }
    Taint::CLEAN
}

fn clamp(g: &Guarantees, a: &Args, r: u64) -> Taint {
    let s = a.bits;
    let v = a.src[0];
    if (is_nan(v, s) && !g.binds(Scope::Vulkan14, &[s]))
        || (is_inf(v, s) && !g.binds(Scope::Every, &[s]))
    {
        return Taint::any(R::NanInf);
    }
    if !g.float(s).denorm_preserve
        && (flush_changes(Op::Fsat, a, r, 1, true, false) || is_denormal(r, s))
    {
        return Taint::any(R::DenormFlush);
    }
    Taint::CLEAN
}

fn round(g: &Guarantees, a: &Args, r: u64) -> Taint {
    let s = a.bits;
    let v = a.src[0];
    let negative = v & sign_bit(s) != 0;
    if (is_nan(v, s) && !g.binds(Scope::Vulkan14, &[s]))
        || (is_inf(v, s) && !g.binds(Scope::Every, &[s]))
    {
        return Taint::any(R::NanInf);
    }
    // `Floor` & co. are not bound to keep denormals even with DenormPreserve.
    let preserved = g.float(s).denorm_preserve && g.scope == Scope::Every;
    if !preserved && is_denormal(v, s) {
        // The driver rounds a flushed ±0 and ORs the operand's sign back.
        let flushed: &[u64] = if negative {
            &[sign_bit(s)]
        } else {
            &[0, sign_bit(s)]
        };
        if flushed.iter().any(|&f| f != r) {
            return Taint::any(R::DenormFlush);
        }
    }
    if !g.binds(Scope::Every, &[s]) && is_zero(r, s) && !negative {
        return Taint::zero_sign(R::SignedZero);
    }
    Taint::CLEAN
}

fn fract(g: &Guarantees, a: &Args, r: u64) -> Taint {
    let s = a.bits;
    let fc = g.float(s);
    let v = a.src[0];
    if (is_inf(v, s) && !g.binds(Scope::Every, &[s]))
        || (is_nan(v, s) && !g.binds(Scope::Vulkan13, &[s]))
    {
        return Taint::any(R::NanInf);
    }
    let preserved = fc.denorm_preserve && g.scope == Scope::Every;
    if (!preserved && is_denormal(v, s)) || (!fc.denorm_preserve && is_denormal(r, s)) {
        return Taint::any(R::DenormFlush);
    }
    if !fc.rounding_rte && !special(v, s) {
        let fl = float::round_with(v, s, f64::floor);
        let x = Exact::float(v, s)
            .zip(Exact::float(fl, s))
            .map(|(x, f)| x.add(&f.negate()));
        if x.is_some_and(|x| x.class(s).inexact) {
            return Taint::any(R::Rounding);
        }
    }
    if is_nan(r, s) && !g.is_nan_exact(s) {
        debug_assert_eq!(r, canonical_nan(s));
        return Taint::nan_bits(R::NanBits);
    }
    Taint::CLEAN
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relax::{FloatGuarantees, Reconvergence};

    fn args(bits: u8, srcs: &[u64]) -> Args {
        let mut a = Args {
            bits,
            ..Args::default()
        };
        for (k, &v) in srcs.iter().enumerate() {
            a.src[k] = v;
            a.src_bits[k] = bits;
        }
        a
    }

    fn own_of(g: &Guarantees, op: Op, bits: u8, srcs: &[u64]) -> Taint {
        let a = args(bits, srcs);
        let r = (op.info().eval.unwrap())(&a).unwrap();
        own(g, op, &a, r)
    }

    /// Exact except the named aspect.
    fn only(f: impl FnOnce(&mut Guarantees)) -> Guarantees {
        let mut g = Guarantees::exact();
        f(&mut g);
        g
    }

    #[test]
    fn exact_guarantees_relax_nothing() {
        let g = Guarantees::exact();
        for (op, srcs) in [
            (Op::Fadd, &[0x7f80_0000u64, 0xff80_0000][..]),
            (Op::Fmul, &[1, 0x4b00_0000]),
            (Op::Ffma, &[0x3f80_0800, 0x3f80_0800, 0xbf80_1000]),
            (Op::Flt, &[0x7fc0_0000, 0]),
            (Op::Ffloor, &[0x8000_0001]),
        ] {
            assert_eq!(own_of(&g, op, 32, srcs), Taint::CLEAN, "{op:?}");
        }
    }

    #[test]
    fn ffma_fused_vs_unfused() {
        let g = only(|g| g.fma_fused = false);
        // (1 + 2^-12)^2 - (1 + 2^-11) = 2^-24 fused, 0 unfused.
        assert_eq!(
            own_of(&g, Op::Ffma, 32, &[0x3f80_0800, 0x3f80_0800, 0xbf80_1000]),
            Taint::any(R::FfmaFusion)
        );
        // 2 * 3 + 1 = 7 either way.
        assert_eq!(
            own_of(&g, Op::Ffma, 32, &[0x4000_0000, 0x4040_0000, 0x3f80_0000]),
            Taint::CLEAN
        );
        // 1 * 1 + 2^-24 is a tie (fused and unfused both give 1.0).
        assert_eq!(
            own_of(&g, Op::Ffma, 32, &[0x3f80_0000, 0x3f80_0000, 0x3380_0000]),
            Taint::any(R::FfmaFusion)
        );
    }

    #[test]
    fn denormals_only_where_they_matter() {
        let g = only(|g| g.f32.denorm_preserve = false);
        // 2^-149 + 1.0 = 1.0 whether or not the denormal is flushed.
        assert_eq!(own_of(&g, Op::Fadd, 32, &[1, 0x3f80_0000]), Taint::CLEAN);
        // 2^-149 * 2^23 = 2^-126 (the smallest normal); flushed: 0.
        assert_eq!(
            own_of(&g, Op::Fmul, 32, &[1, 0x4b00_0000]),
            Taint::any(R::DenormFlush)
        );
        // 2^-126 * 0.5 is a denormal result.
        assert_eq!(
            own_of(&g, Op::Fmul, 32, &[0x0080_0000, 0x3f00_0000]),
            Taint::any(R::DenormFlush)
        );
        // f2i(denormal) is 0 either way; flt(denormal, 0) is not.
        let a = Args {
            bits: 32,
            src: [1, 0, 0, 0],
            src_bits: [32, 0, 0, 0],
        };
        assert_eq!(own(&g, Op::F2i, &a, 0), Taint::CLEAN);
        assert_eq!(own_of(&g, Op::Flt, 32, &[0, 1]), Taint::any(R::DenormFlush));
        // fmin(denormal, 5) picks the denormal either way; fmin(denormal, +0)
        // picks +0 once the denormal compares equal to it.
        assert_eq!(own_of(&g, Op::Fmin, 32, &[1, 0x40a0_0000]), Taint::CLEAN);
        assert_eq!(
            own_of(&g, Op::Fmin, 32, &[1, 0]),
            Taint::any(R::DenormFlush)
        );
        // ceil(-denormal) = -0 either way; floor(-denormal) = -1 is not.
        assert_eq!(own_of(&g, Op::Fceil, 32, &[0x8000_0001]), Taint::CLEAN);
        assert_eq!(
            own_of(&g, Op::Ffloor, 32, &[0x8000_0001]),
            Taint::any(R::DenormFlush)
        );
        // f16 keeps its denormals here.
        assert_eq!(own_of(&g, Op::Fmul, 16, &[1, 0x6400]), Taint::CLEAN);
    }

    #[test]
    fn rounding_only_for_inexact_results() {
        let g = only(|g| g.f32.rounding_rte = false);
        assert_eq!(
            own_of(&g, Op::Fadd, 32, &[0x3f80_0000, 0x3080_0000]),
            Taint::any(R::Rounding)
        );
        assert_eq!(
            own_of(&g, Op::Fadd, 32, &[0x3f80_0000, 0x4000_0000]),
            Taint::CLEAN
        );
        // i2f(16777217) rounds; i2f(16777216) does not.
        let i = |v: u64| Args {
            bits: 32,
            src: [v, 0, 0, 0],
            src_bits: [32, 0, 0, 0],
        };
        assert_eq!(own(&g, Op::I2f, &i(16_777_217), 0), Taint::any(R::Rounding));
        assert_eq!(own(&g, Op::I2f, &i(16_777_216), 0), Taint::CLEAN);
    }

    #[test]
    fn special_values_by_scope() {
        let mut g = Guarantees::vulkan(1, 3, [FloatGuarantees::ALL; 3], Reconvergence::Maximal);
        g.fma_fused = true;
        // inf + -inf: a NaN with uncertain bits on 1.3, exact on 1.4.
        assert_eq!(
            own_of(&g, Op::Fadd, 32, &[0x7f80_0000, 0xff80_0000]),
            Taint::nan_bits(R::NanBits)
        );
        assert_eq!(
            own_of(&g, Op::Flt, 32, &[0x7fc0_0000, 0]),
            Taint::any(R::NanInf)
        );
        g.scope = Scope::Vulkan14;
        assert_eq!(
            own_of(&g, Op::Fadd, 32, &[0x7f80_0000, 0xff80_0000]),
            Taint::CLEAN
        );
        assert_eq!(own_of(&g, Op::Flt, 32, &[0x7fc0_0000, 0]), Taint::CLEAN);
        // floor(0.5) = +0 may be -0 (GLSL.std.450 is never bound);
        // floor(-0.5) = -1 and ceil(-0.5) = -0 (sign ORed back) are exact.
        assert_eq!(
            own_of(&g, Op::Ffloor, 32, &[0x3f00_0000]),
            Taint::zero_sign(R::SignedZero)
        );
        assert_eq!(own_of(&g, Op::Fceil, 32, &[0xbf00_0000]), Taint::CLEAN);
        // Without SZINP at f32, fadd's zero result loses its sign.
        g.f32.signed_zero_inf_nan_preserve = false;
        assert_eq!(
            own_of(&g, Op::Fadd, 32, &[0x3f80_0000, 0xbf80_0000]),
            Taint::zero_sign(R::SignedZero)
        );
        assert_eq!(
            own_of(&g, Op::Fmul, 32, &[0x7f80_0000, 0x3f80_0000]),
            Taint::any(R::NanInf)
        );
    }
}
