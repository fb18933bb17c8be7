//! The mapping table: one row per IR op, in `ir::op::OPS` order, naming the
//! SPIR-V instruction(s) or the explicit sequence that computes exactly
//! what `ir/OPS.md` defines, and why (the SPIR-V or Vulkan fact behind the
//! choice). The emitter dispatches through the rows' `emit` functions and
//! the value analysis reads their `reads` column, so the table is the code's
//! own index, rendered as `spirv/MAPPING.md`.

use crate::emit::Emitter;
use crate::{bits, conv, float, int, io, subgroup, ExportError};
use ir::{Instr, Op};

/// How an op reads its value sources (a shift count, byte or lane index or
/// select condition is always read canonically).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// As the canonical type: `bool` at 1 bit, the unsigned integer of the
    /// size otherwise.
    Canon,
    /// As the float of the size.
    Float,
    /// Both: float instructions on the value and integer ones on its bits.
    Both,
}

impl Reads {
    fn name(self) -> &'static str {
        match self {
            Reads::Canon => "int",
            Reads::Float => "float",
            Reads::Both => "float + bits",
        }
    }
}

/// Emits one instruction (defining its destination, if any).
pub(crate) type EmitFn = fn(&mut Emitter<'_>, &Instr) -> Result<(), ExportError>;

/// One row of the mapping table.
pub struct Mapping {
    /// The IR op.
    pub op: Op,
    /// How the emitted code reads the op's value sources.
    pub reads: Reads,
    /// The SPIR-V instruction(s) or explicit sequence, per size where it differs.
    pub spirv: &'static str,
    /// Why: the SPIR-V / Vulkan fact that decides the choice.
    pub why: &'static str,
    pub(crate) emit: EmitFn,
}

macro_rules! mappings {
    ($( $op:ident, $reads:ident, $emit:path, $spirv:literal, $why:literal; )*) => {
        /// The mapping table, indexed by `Op as usize`.
        pub static MAPPINGS: &[Mapping] = &[
            $( Mapping { op: Op::$op, reads: Reads::$reads, spirv: $spirv, why: $why, emit: $emit } ),*
        ];
    };
}

mappings! {
    LoadConst, Canon, int::load_const,
        "A module constant of the canonical type (`OpConstant`, `OpConstantTrue`/`False`); read as a float, a float `OpConstant` of the same bits.",
        "Constants need no instruction; identical constants are shared.";

    Iadd, Canon, int::iadd, "`OpIAdd`.",
        "SPIR-V integer arithmetic wraps unless decorated NoSignedWrap/NoUnsignedWrap, which is never emitted.";
    Isub, Canon, int::isub, "`OpISub`.", "Wraps, as `iadd`.";
    Imul, Canon, int::imul, "`OpIMul`.", "The low half of the product, wrapping.";
    Ineg, Canon, int::ineg, "`OpSNegate`.", "Two's-complement negation, wrapping at MIN.";
    Iabs, Canon, int::iabs, "GLSL.std.450 `SAbs`.",
        "Defined at every width (unlike FindILsb and friends, no 32-bit limit); -MIN wraps to MIN unless decorated NoSignedWrap, which is never emitted.";
    Imin, Canon, int::imin, "GLSL.std.450 `SMin`.", "Signed minimum at every width.";
    Imax, Canon, int::imax, "GLSL.std.450 `SMax`.", "As `imin`.";
    Umin, Canon, int::umin, "GLSL.std.450 `UMin`.", "Unsigned minimum at every width.";
    Umax, Canon, int::umax, "GLSL.std.450 `UMax`.", "As `umin`.";
    Idiv, Canon, int::idiv, "`OpSDiv`.",
        "Undefined exactly where the IR's is (b = 0, MIN / -1); truncating division, the reading of every SPIR-V consumer (LLVM `sdiv`, NIR `idiv`) and the one `OpSRem`'s remainder (sign of operand 1) belongs to.";
    Udiv, Canon, int::udiv, "`OpUDiv`.", "Undefined only for b = 0, as in the IR.";
    Irem, Canon, int::irem, "On magnitudes: `OpUMod(SAbs(a), SAbs(b))`, negated (`OpSNegate`, `OpSelect`) when a < 0 (`OpSLessThan`).",
        "Vulkan: `OpSRem`/`OpSMod` with a negative operand is poison (without maintenance8). `OpUMod` of the magnitudes is defined for every IR-defined input (|MIN| is exact read unsigned).";
    Imod, Canon, int::imod, "`irem`'s sequence, then `r + b` where r != 0 and the signs of r and b differ (`OpLogicalNotEqual`, `OpINotEqual`, `OpIAdd`, `OpSelect`).",
        "As `irem`: `OpSMod` is poison on negative operands in Vulkan.";
    Umod, Canon, int::umod, "`OpUMod`.", "Undefined only for b = 0.";
    ImulHigh, Canon, int::imul_high, "32/64: `OpSMulExtended`, member 1. 8/16: `OpSConvert` both to 32 bits, `OpIMul`, `OpShiftRightArithmetic` by n, `OpUConvert` back.",
        "MulExtended gives the exact 2n-bit product; at 8/16 bits the 32-bit product is exact, and no 8/16-bit MulExtended struct is needed.";
    UmulHigh, Canon, int::umul_high, "32/64: `OpUMulExtended`, member 1. 8/16: `OpUConvert` to 32 bits, `OpIMul`, `OpShiftRightLogical` by n, `OpUConvert` back.",
        "As `imul_high`.";

    Ishl, Canon, int::ishl, "`OpBitwiseAnd count (n-1)`, `OpUConvert` to n bits (n != 32), `OpShiftLeftLogical`.",
        "SPIR-V: a shift by >= the base's width is undefined; the IR masks the count. The count gets the base's width so that no driver meets a mixed-width shift.";
    Ishr, Canon, int::ishr, "As `ishl`, with `OpShiftRightArithmetic`.", "As `ishl`.";
    Ushr, Canon, int::ushr, "As `ishl`, with `OpShiftRightLogical`.", "As `ishl`.";
    Iand, Canon, int::iand, "1 bit: `OpLogicalAnd`; else `OpBitwiseAnd`.",
        "1-bit values are `bool`, which the bitwise instructions do not take.";
    Ior, Canon, int::ior, "1 bit: `OpLogicalOr`; else `OpBitwiseOr`.", "As `iand`.";
    Ixor, Canon, int::ixor, "1 bit: `OpLogicalNotEqual`; else `OpBitwiseXor`.", "As `iand`.";
    Inot, Canon, int::inot, "1 bit: `OpLogicalNot`; else `OpNot`.", "As `iand`.";

    Ieq, Canon, int::ieq, "1 bit: `OpLogicalEqual`; else `OpIEqual`.", "`OpIEqual` does not take booleans.";
    Ine, Canon, int::ine, "1 bit: `OpLogicalNotEqual`; else `OpINotEqual`.", "As `ieq`.";
    Ilt, Canon, int::ilt, "`OpSLessThan`.", "The instruction, not the operand type, gives the signedness.";
    Ige, Canon, int::ige, "`OpSGreaterThanEqual`.", "As `ilt`.";
    Ult, Canon, int::ult, "`OpULessThan`.", "As `ilt`.";
    Uge, Canon, int::uge, "`OpUGreaterThanEqual`.", "As `ilt`.";
    Feq, Float, float::feq, "`OpFOrdEqual`.",
        "Vulkan: correct result; ordered, so false with a NaN; -0 == +0. NaN operands need SignedZeroInfNanPreserve, denormal ones DenormPreserve.";
    Fneu, Float, float::fneu, "`OpFUnordNotEqual`.", "Unordered: true with a NaN. As `feq`.";
    Flt, Float, float::flt, "`OpFOrdLessThan`.", "As `feq`.";
    Fge, Float, float::fge, "`OpFOrdGreaterThanEqual`.", "As `feq`.";

    Fadd, Float, float::fadd, "`OpFAdd`, then `OpIsNan` + `OpSelect` of the canonical NaN.",
        "Vulkan: correctly rounded (to nearest even under RoundingModeRTE); the bits of a NaN result are the implementation's, the IR's are the canonical NaN.";
    Fsub, Float, float::fsub, "`OpFSub`, NaN canonicalized.", "As `fadd`.";
    Fmul, Float, float::fmul, "`OpFMul`, NaN canonicalized.", "As `fadd`.";
    Ffma, Float, float::ffma, "GLSL.std.450 `Fma`, NaN canonicalized.",
        "Vulkan lets `Fma` be an unfused multiply and add (precision \"inherited from OpFMul followed by OpFAdd\"); the correctly rounded `OpFmaKHR` needs VK_KHR_shader_fma, which the target drivers lack. Fusion is a documented relaxation of the comparison.";
    Fneg, Canon, float::fneg, "`OpBitwiseXor` with the sign bit.",
        "Only the sign bit changes: NaN payloads and denormals stay exact, which `OpFNegate` (a float instruction, subject to denormal flushing) does not promise.";
    Fabs, Canon, float::fabs, "`OpBitwiseAnd` with all bits but the sign.", "As `fneg`.";
    Fsat, Float, float::fsat, "GLSL.std.450 `FClamp(a, 0.0, 1.0)`, bitcast, sign bit cleared (`OpBitwiseAnd`); `OpIsNan(a)` selects +0.",
        "`FClamp` of a NaN is undefined and `FClamp(-0, 0, 1)` may be -0; the IR gives +0 for both.";
    Fmin, Both, float::fmin, "`OpFOrdLessThan`, `OpFOrdEqual`, a's sign bit (`OpSLessThan` on its bits), `OpIsNan` of both; `OpSelect` between the operands' bits; two NaNs give the canonical NaN.",
        "GLSL.std.450 `FMin` is undefined with a NaN operand and `NMin` leaves the sign of a zero result open (-0 vs +0); selecting an operand's integer bits returns it exactly (payload and denormal included).";
    Fmax, Both, float::fmax, "As `fmin`, with `OpFOrdGreaterThan` and a +0 winning the tie.", "As `fmin`.";
    Ffloor, Both, float::ffloor, "GLSL.std.450 `Floor`, the operand's sign bit OR-ed into the result's bits, `OpIsNan(a)` selects the canonical NaN.",
        "Vulkan: correctly rounded, but nothing fixes the sign of a zero result; IEEE roundToIntegral keeps the operand's sign, which the OR restores. A NaN is canonical.";
    Fceil, Both, float::fceil, "As `ffloor`, with `Ceil`.", "As `ffloor` (ceil(-0.5) = -0).";
    Ftrunc, Both, float::ftrunc, "As `ffloor`, with `Trunc`.", "As `ffloor`.";
    FroundEven, Both, float::fround_even, "As `ffloor`, with `RoundEven`.", "As `ffloor`.";
    Ffract, Float, float::ffract, "`OpFSub(a, Floor(a))`, sign bit cleared, NaN canonicalized.",
        "The IR's definition, with its one rounding in `OpFSub` (correctly rounded; may give 1.0). GLSL.std.450 `Fract` leaves inf and the sign of a zero result to the implementation; a fraction is never negative, so clearing the sign makes -0 - -0 and -0 - +0 the IR's +0.";
    Fsign, Canon, float::fsign, "On the bits: `(a & ~sign) == 0 ? a : 1.0 | (a & sign)`.",
        "GLSL.std.450 `FSign` of a NaN is undefined and it may flush a denormal to 0; the IR gives copysign(1.0, a) for both.";

    I2i, Canon, conv::i2i, "`OpSConvert` (same size: `OpCopyObject`).",
        "Sign-extends or truncates; SPIR-V forbids a conversion to the same width.";
    U2u, Canon, conv::u2u, "`OpUConvert` (same size: `OpCopyObject`).", "As `i2i`, zero-extending.";
    I2f, Canon, conv::i2f, "`OpConvertSToF`.",
        "Vulkan: conversions are correctly rounded (nearest even under RoundingModeRTE), overflowing to inf; the source is read as signed whatever its type.";
    U2f, Canon, conv::u2f, "`OpConvertUToF`.", "As `i2f`, unsigned.";
    F2i, Float, conv::f2i, "`OpConvertFToS`.",
        "Rounds toward zero; undefined only where the truncated value does not fit, where the IR is undefined too.";
    F2u, Float, conv::f2u, "`OpConvertFToU`.", "As `f2i` (-0.5 truncates to 0, which fits).";
    F2f, Float, conv::f2f, "`OpFConvert`, NaN canonicalized (same size: only the canonicalization).",
        "Vulkan: correctly rounded, in one rounding (also f64 -> f16); a NaN's payload is the implementation's. SPIR-V forbids an `OpFConvert` to the same width.";
    B2i, Canon, conv::b2i, "`OpSelect c 1 0`.", "Booleans are `bool`.";
    B2f, Canon, conv::b2f, "`OpSelect c 1.0 0` on the integer bits.", "Integer constants give the exact bits (+0 for false).";
    I2b, Canon, conv::i2b, "`OpINotEqual a 0`.", "Booleans are `bool`.";
    F2b, Float, conv::f2b, "`OpFUnordNotEqual a 0.0`.", "Unordered: a NaN gives true; -0 equals 0.";

    Bcsel, Canon, conv::bcsel, "`OpSelect` on the canonical type.", "Moves bits without interpreting them.";

    Bfm, Canon, bits::bfm, "`(1 << (bits & 31)) - 1` shifted left by `offset & 31` (`OpBitwiseAnd`, `OpShiftLeftLogical`, `OpISub`).",
        "Both counts are masked below 32, so every shift is defined.";
    Bfi, Canon, bits::bfi, "`FindILsb(mask) & 31`, `OpShiftLeftLogical`, `OpBitwiseAnd`, `OpNot`, `OpBitwiseOr`.",
        "A zero mask makes `FindILsb` -1: the mask keeps the shift defined and the AND with the zero mask discards it.";
    Ibfe, Canon, bits::ibfe, "`OpBitFieldSExtract(value, o, min(w, 32 - o))` with o = offset & 31, w = bits & 31.",
        "SPIR-V: bitfield extraction is undefined for offset + count > 32, and a count of 0 gives 0. Where o + w >= 32 the IR's op reads value >> o, which is exactly the field of 32 - o bits.";
    Ubfe, Canon, bits::ubfe, "As `ibfe`, with `OpBitFieldUExtract`.", "As `ibfe`.";
    BitfieldInsert, Canon, bits::bitfield_insert, "`OpBitFieldInsert`.",
        "GLSL semantics: SPIR-V defines every offset + count <= 32, with count 0 giving base, which covers every IR-defined input (bits = 32; offset = 32 with bits = 0).";
    IbitfieldExtract, Canon, bits::ibitfield_extract, "`OpBitFieldSExtract`.",
        "GLSL semantics, as `bitfield_insert`: every IR-defined input (offset + bits <= 32, bits = 32 included) is defined in SPIR-V with the same result.";
    UbitfieldExtract, Canon, bits::ubitfield_extract, "`OpBitFieldUExtract`.", "As `ibitfield_extract`.";
    BitfieldReverse, Canon, bits::bitfield_reverse, "32: `OpBitReverse`. 8/16: `OpUConvert` to 32, `OpBitReverse`, `OpShiftRightLogical` by 32 - n, `OpUConvert` back. 64: both halves reversed and swapped.",
        "Vulkan: the Base of `OpBitReverse` must be 32-bit (VUID-RuntimeSpirv-None-10824, without maintenance9).";
    BitCount, Canon, bits::bit_count, "32: `OpBitCount`. 8/16: `OpUConvert` to 32 first. 64: the sum of both halves' counts.", "As `bitfield_reverse`.";
    FindLsb, Canon, bits::find_lsb, "32: GLSL.std.450 `FindILsb`. 8/16: `OpUConvert` to 32 first. 64: the low half's index, or if it is 0 the high half's `| 32` (-1 | 32 = -1).",
        "`FindILsb` is limited to 32-bit components.";
    UfindMsb, Canon, bits::ufind_msb, "32: `FindUMsb`. 8/16: `OpUConvert` to 32 first. 64: the high half's index + 32, or if it is 0 the low half's.",
        "`FindUMsb` is limited to 32-bit components.";
    IfindMsb, Canon, bits::ifind_msb, "32: `FindSMsb`. 8/16: `OpSConvert` to 32 first. 64: `a ^ (a >> 63)` (arithmetic), then `ufind_msb`'s 64-bit sequence.",
        "`FindSMsb` is limited to 32-bit components; sign extension keeps the index, and inverting a negative value makes the highest bit differing from the sign its highest set bit.";
    ExtractU8, Canon, bits::extract_u8, "`OpShiftRightLogical` by 8 * b, `OpBitwiseAnd 0xff`.",
        "Every shift is below n for the IR-defined indices; no narrower type is needed.";
    ExtractI8, Canon, bits::extract_i8, "`OpShiftRightLogical` by 8 * b, then `OpShiftLeftLogical` and `OpShiftRightArithmetic` by n - 8.", "As `extract_u8`.";
    ExtractU16, Canon, bits::extract_u16, "`OpShiftRightLogical` by 16 * b, `OpBitwiseAnd 0xffff`.", "As `extract_u8`.";
    ExtractI16, Canon, bits::extract_i16, "`OpShiftRightLogical` by 16 * b, then `OpShiftLeftLogical` and `OpShiftRightArithmetic` by n - 16.", "As `extract_u8`.";

    Ballot, Canon, subgroup::ballot, "`OpGroupNonUniformBallot` (a `uvec4`): component 0; 64-bit: component 0 | component 1 << 32.",
        "Bit i is invocation i of the subgroup, set where it is active and its predicate true.";
    VoteAny, Canon, subgroup::vote_any, "`OpGroupNonUniformAny`.", "GroupNonUniformVote.";
    VoteAll, Canon, subgroup::vote_all, "`OpGroupNonUniformAll`.", "GroupNonUniformVote.";
    VoteIeq, Canon, subgroup::vote_ieq, "`OpGroupNonUniformAllEqual` of 32-bit words: a boolean as 0/1, 8/16 bits zero-extended, 64 bits as both halves (`OpLogicalAnd` of the two votes).",
        "8-, 16- and 64-bit group operands need shaderSubgroupExtendedTypes; equal words are equal values.";
    ReadFirstInvocation, Canon, subgroup::read_first_invocation, "`OpGroupNonUniformBroadcastFirst` of 32-bit words, as `vote_ieq`.",
        "As `vote_ieq` (GroupNonUniformBallot).";
    ReadInvocation, Canon, subgroup::read_invocation, "`OpGroupNonUniformShuffle` of 32-bit words, as `vote_ieq`.",
        "SPIR-V 1.3's `OpGroupNonUniformBroadcast` needs a constant id; `Shuffle` takes a dynamic one and is defined when it names an active invocation, which the oracle guarantees.";
    SubgroupInvocation, Canon, io::subgroup_invocation, "`OpLoad` of the `SubgroupLocalInvocationId` built-in.",
        "The lane's index in its subgroup.";
    Elect, Canon, subgroup::elect, "`OpGroupNonUniformElect`.", "True in the active invocation with the lowest id.";

    QuadBroadcast, Canon, subgroup::quad_broadcast, "A constant index: `OpGroupNonUniformQuadBroadcast`; a register index: `OpGroupNonUniformShuffle` of lane `(SubgroupLocalInvocationId & ~3) | i`.",
        "SPIR-V 1.3 wants a constant Index; NIR lowers a dynamic one to the same shuffle. Quads are subgroup lanes 4q..4q+3 (GroupNonUniformQuad).";
    QuadSwapHorizontal, Canon, subgroup::quad_swap_horizontal, "`OpGroupNonUniformQuadSwap`, Direction 0.", "Lane l reads l ^ 1.";
    QuadSwapVertical, Canon, subgroup::quad_swap_vertical, "`OpGroupNonUniformQuadSwap`, Direction 1.", "Lane l reads l ^ 2.";
    QuadSwapDiagonal, Canon, subgroup::quad_swap_diagonal, "`OpGroupNonUniformQuadSwap`, Direction 2.", "Lane l reads l ^ 3.";
    DdxFine, Float, subgroup::ddx_fine, "`OpDPdxFine`, then canonicalization.",
        "SPV_KHR_compute_shader_derivatives with `DerivativeGroupLinearKHR`: quad q is LocalInvocationIndex 4q..4q+3, lanes TL TR BL BR (the LocalSize must be a multiple of 4).";
    DdxCoarse, Float, subgroup::ddx_coarse, "`OpDPdxCoarse`, then canonicalization.", "As `ddx_fine`; coarse: TR - TL in every lane.";
    DdyFine, Float, subgroup::ddy_fine, "`OpDPdyFine`, then canonicalization.", "As `ddx_fine`.";
    DdyCoarse, Float, subgroup::ddy_coarse, "`OpDPdyCoarse`, then canonicalization.", "As `ddx_fine`; coarse: BL - TL in every lane.";

    LoadInput, Canon, io::load_input, "`OpLoad` of word `2 * (i * NI + slot)` (and the next for 64 bits) of `inputs`: bool `!= 0`; 8/16 bits `OpUConvert` (f16: the low 16 bits, bitcast where read as a float); 64 bits low | high << 32.",
        "`docs/vulkan-abi.md`: slots are raw bits zero-extended to two words; i is `LocalInvocationIndex`.";
    LoadUniform, Canon, io::load_uniform, "As `load_input`, at word `2 * slot` of `uniforms`.", "`docs/vulkan-abi.md`.";
    InvocationId, Canon, io::invocation_id, "`OpLoad` of the `LocalInvocationIndex` built-in.",
        "One workgroup: the local index is the global one.";
    StoreOutput, Canon, io::store_output, "`OpStore` of words `4 * (i * NO + slot)` + 0, 1, 2 of `outputs`: the low word, the high word (0 below 64 bits), the written flag 1.",
        "`docs/vulkan-abi.md`; the last store wins, as in the IR.";
    Demote, Canon, io::fragment_only, "None: `export` refuses the program (`OpDemoteToHelperInvocation` is for fragment shaders).",
        "SPIR-V allows it in the Fragment execution model only; the modules are compute shaders.";
    Terminate, Canon, io::fragment_only, "None: `export` refuses the program (`OpTerminateInvocation` is for fragment shaders).",
        "As `demote`.";
    IsHelperInvocation, Canon, io::fragment_only, "None: `export` refuses the program (`OpIsHelperInvocationEXT` is for fragment shaders).",
        "As `demote`.";
}

/// The mapping row of an op.
pub fn row(op: Op) -> &'static Mapping {
    &MAPPINGS[op as usize]
}

/// The mapping table as Markdown (checked in as `spirv/MAPPING.md`).
pub fn markdown_table() -> String {
    let mut s = String::from(
        "# IR -> SPIR-V mapping\n\n\
         Generated from `spirv/src/mapping.rs` (`cargo test -p spirv-export` checks it; \
         `UPDATE_MAPPING_MD=1 cargo test -p spirv-export mapping_md` rewrites it).\n\n\
         The module is SPIR-V 1.3 for Vulkan 1.1: one compute entry point `main` with \
         `LocalSize N 1 1` and the buffers of `docs/vulkan-abi.md`. Every IR value has a \
         canonical type, `bool` at 1 bit and the unsigned integer of its size otherwise; \
         a value read as a float also gets one `OpBitcast` to the float of its size \
         (named `%vN_f`), made next to its definition. Float results that SPIR-V leaves \
         open (NaN bits, the sign of a zero, NaN operands of min/max/clamp) are fixed by \
         explicit code, so that a driver honouring the requested float controls \
         (SignedZeroInfNanPreserve, DenormPreserve, RoundingModeRTE) agrees with the \
         oracle bit for bit; where a mode is not requested, the results it governs are \
         the driver's. 8/16/64-bit values cross subgroup operations as 32-bit words, so \
         no module needs shaderSubgroupExtendedTypes.\n\n\
         Reads: how the emitted code reads the op's value sources (int: the canonical \
         type; float: the float view; float + bits: both).\n\n\
         | op | reads | SPIR-V | why |\n|---|---|---|---|\n",
    );
    // A `|` in a cell (`|a|`, `A|B`) would end it.
    let cell = |t: &str| t.replace('|', "\\|");
    for m in MAPPINGS {
        s.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            m.op.name(),
            m.reads.name(),
            cell(m.spirv),
            cell(m.why)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_op() {
        assert_eq!(MAPPINGS.len(), ir::op::OPS.len());
        for (k, m) in MAPPINGS.iter().enumerate() {
            assert_eq!(m.op as usize, k, "{}", m.op.name());
        }
    }

    #[test]
    fn float_reads_are_float_ops() {
        // An op reads floats only if the IR says its sources are floats.
        for m in MAPPINGS {
            if m.reads != Reads::Canon {
                assert_eq!(
                    m.op.info().kinds.src,
                    ir::ValueKind::Float,
                    "{}",
                    m.op.name()
                );
            }
        }
    }

    #[test]
    fn mapping_md_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/MAPPING.md");
        let want = markdown_table();
        if std::env::var_os("UPDATE_MAPPING_MD").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "spirv/MAPPING.md is stale: run UPDATE_MAPPING_MD=1 cargo test -p spirv-export mapping_md"
        );
    }
}
