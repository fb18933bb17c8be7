//! The decision points of lowering (`crate::coverage`): the choices it
//! makes per strategy and op. A strategy's own choices are named after it
//! (`lowering/bool16/...`); strategy-independent paths after their area
//! (`lowering/intmath/...`).
crate::points! {
    // How a comparison's boolean is materialized (boolean.rs).
    /// bool32: a 32-bit CMP result is the boolean, in place.
    BOOL32_COMPARE = "lowering/bool32/compare",
    /// bool32: a 16-bit CMP result sign-extended to a dword by a MOV.
    BOOL32_COMPARE16_SIGN_EXTENDED = "lowering/bool32/compare16-sign-extended",
    /// bool32: the low dword of a 64-bit CMP result MOVed to a dword.
    BOOL32_COMPARE64_LOW_DWORD = "lowering/bool32/compare64-low-dword-mov",
    /// bool16: a 16-bit CMP result is the boolean, in place.
    BOOL16_COMPARE16 = "lowering/bool16/compare16",
    /// bool16: a 32- or 64-bit CMP result narrowed to a word (strided MOV).
    BOOL16_COMPARE_NARROWED = "lowering/bool16/compare-narrowed",
    /// bool8: a CMP result's low byte per lane packed by a raw byte MOV (a 64-bit one through its low dword).
    BOOL8_COMPARE_PACKED = "lowering/bool8/compare-packed-bytes",
    /// native: a 16-bit compare keeps a 16-bit boolean, in place.
    NATIVE_COMPARE16 = "lowering/native/compare16",
    /// native: a 32-bit compare keeps a 32-bit boolean, in place.
    NATIVE_COMPARE32 = "lowering/native/compare32",
    /// native: a 64-bit compare's boolean is its result's low dword, read in place.
    NATIVE_COMPARE64_IN_PLACE = "lowering/native/compare64-low-dword-in-place",
    /// flag: a flag-resident boolean's CMP writes its own flag subregister (null destination).
    FLAG_COMPARE_INTO_FLAG = "lowering/flag/compare-into-flag",
    /// flag: a boolean that must live in a GRF (used elsewhere, stored, b2x) is a 32-bit CMP result.
    FLAG_COMPARE_IN_GRF = "lowering/flag/compare-in-grf",

    // Flag-strategy resources (boolean.rs).
    /// flag: every flag subregister was taken: the one used farthest away was spilled to a GRF.
    FLAG_SPILL = "lowering/flag/spill-to-grf",
    /// flag: every flag subregister holds an operand of this instruction: the result goes to a GRF.
    FLAG_NONE_FREE = "lowering/flag/no-free-flag",
    /// flag: a flag-resident boolean materialized as 0/~0 in a GRF (predicated MOV).
    FLAG_MATERIALIZE = "lowering/flag/materialize-in-grf",

    // Boolean width conversions (native: where widths meet).
    /// native: a 16-bit boolean sign-extended to 32 bits for a 32-bit use.
    NATIVE_WIDEN = "lowering/native/bool-widen-16-to-32",
    /// native: a 32-bit boolean narrowed to its low word for a 16-bit use.
    NATIVE_NARROW = "lowering/native/bool-narrow-32-to-16",
    /// native-min: a 32-bit boolean read in place as its low word (a
    /// strided down-cast) where it meets a 16-bit one.
    NATIVE_MIN_DOWNCAST = "lowering/native-min/bool-downcast-in-place",

    // Conditions of IF and bcsel.
    /// The condition already lives in a flag subregister: used as the predicate as is.
    COND_FLAG_REUSED = "lowering/condition/flag-reused",
    /// The condition is a GRF boolean: re-tested into the scratch flag with `mov.nz`.
    COND_RETEST = "lowering/condition/retest-mov-nz",

    // Boolean logic and selection (boolean.rs).
    /// flag: logic on flag-resident booleans into the result's own flag (NoMask flag-data ops).
    FLAG_LOGIC = "lowering/flag/logic-in-flag",
    /// flag: bcsel of flag booleans as (c & a) | (~c & b) flag logic through the scratch flag.
    FLAG_BCSEL = "lowering/flag/bcsel-as-flag-logic",
    /// flag: logic on flag operands computed in the scratch flag, then the result put in a GRF.
    FLAG_LOGIC_SCRATCH = "lowering/flag/logic-in-scratch-then-grf",
    /// flag: boolean logic or bcsel on GRF (or mixed) operands, as 32-bit values.
    FLAG_LOGIC_GRF = "lowering/flag/logic-in-grf",
    /// flag: a GRF logic result moved into the result's flag with `mov.nz`.
    FLAG_LOGIC_TO_FLAG = "lowering/flag/logic-result-to-flag",
    /// bool32: boolean logic or bcsel on D values.
    BOOL32_LOGIC = "lowering/bool32/logic-d",
    /// bool16: boolean logic or bcsel on W values.
    BOOL16_LOGIC = "lowering/bool16/logic-w",
    /// bool8: boolean logic or bcsel run on words (a byte may not be a second operand), the low bytes packed by a raw MOV.
    BOOL8_LOGIC = "lowering/bool8/logic-on-words-repacked",
    /// native: boolean logic or bcsel at 16 bits (the first operand's width).
    NATIVE_LOGIC16 = "lowering/native/logic-16",
    /// native: boolean logic or bcsel at 32 bits (the first operand's width).
    NATIVE_LOGIC32 = "lowering/native/logic-32",
    /// ieq of booleans as XOR with a negated (inverted) operand.
    BOOL_IEQ = "lowering/bool-logic/ieq-as-xor-negated",
    /// bcsel of GRF booleans: a predicated SEL.
    BOOL_BCSEL_SEL = "lowering/bool-logic/bcsel-predicated-sel",

    // Phis and constants (mod.rs).
    /// A phi parallel copy whose source is overwritten by the same copy: staged through a temporary.
    PHI_STAGED = "lowering/phi/parallel-copy-staged",
    /// A phi read before its block was lowered (a loop-header phi on a back edge): its storage made early.
    PHI_EARLY = "lowering/phi/read-before-its-block",
    /// A boolean phi copy (at the phi's width).
    PHI_BOOL = "lowering/phi/bool-copy",
    /// An 8-bit constant: a W immediate MOVed into a word-strided B register.
    CONST_BYTE = "lowering/const/byte-via-word-imm",

    // ALU (alu.rs).
    /// 8-bit add/sub/logic/not/neg computed on the dword containers.
    INT8_CONTAINER = "lowering/int8/on-dword-container",
    /// An 8-bit operand sign- or zero-extended to 32 bits (iabs, min/max, shifts, ...).
    INT8_WIDENED = "lowering/int8/widened-to-32",
    /// An 8-bit comparison operand promoted to 16 bits.
    INT8_COMPARE_PROMOTED = "lowering/int8/compare-promoted-16",
    /// A 16-bit shift: the count masked to 4 bits explicitly.
    SHIFT_MASKED16 = "lowering/shift/count-masked-16",
    /// An 8-bit shift: the count masked to 3 bits, the value widened.
    SHIFT_MASKED8 = "lowering/shift/count-masked-8-widened",
    /// fceil as -floor(-x) + -0.0 (an immediate).
    FLOAT_CEIL = "lowering/float/ceil-neg-floor",
    /// 64-bit fceil: the -0.0 in a register (no DF immediate in ADD).
    FLOAT_CEIL64 = "lowering/float/ceil-64-neg-zero-register",
    /// fsign as the sign bit ORed with 1.0 where x != 0.
    FSIGN = "lowering/float/fsign",
    /// 64-bit fsign on the high dword.
    FSIGN64 = "lowering/float/fsign-64-high-dword",
    /// bcsel of 8/16/32-bit values: a predicated SEL on UD containers.
    SELECT_SEL = "lowering/select/bcsel-predicated-sel",
    /// bcsel of 64-bit values: a predicated SEL on UQ.
    SELECT_SEL64 = "lowering/select/bcsel-predicated-sel-64",

    // Conversions (convert.rs).
    /// b2i/b2f of a 16-bit boolean: read as W (sign-extending) and negated.
    B2X_FROM_BOOL16 = "lowering/convert/b2x-from-16-bit-bool",
    /// b2i/b2f of an 8-bit boolean: read as B (sign-extending) and negated.
    B2X_FROM_BOOL8 = "lowering/convert/b2x-from-8-bit-bool",
    /// b2i/b2f of a 32-bit boolean: read as D and negated.
    B2X_FROM_BOOL32 = "lowering/convert/b2x-from-32-bit-bool",
    /// i2b of an 8-bit value: promoted to UW before the compare.
    I2B8 = "lowering/convert/i2b-8-promoted",
    /// i2b/f2b of a 64-bit value: compared against a zeroed register.
    X2B64 = "lowering/convert/x2b-64-zero-register",
    /// Truncation to 8 bits from a qword container: re-packed a dword per lane.
    TRUNC_BYTE_FROM_QWORD = "lowering/convert/int-truncate-byte-from-qword",
    /// Truncation to 8 bits from packed words: re-packed a dword per lane.
    TRUNC_BYTE_FROM_WORDS = "lowering/convert/int-truncate-byte-from-words",
    /// Truncation of a phi's storage: copied (a dword container).
    TRUNC_PHI_COPY = "lowering/convert/int-truncate-phi-copy",
    /// 64-bit "truncation" of a phi's storage: copied to a qword container.
    TRUNC_PHI_COPY64 = "lowering/convert/int-truncate-phi-copy-64",
    /// 8 -> 64-bit integer extension through 32 bits (no B <-> Q MOV).
    EXTEND_8_TO_64 = "lowering/convert/int-extend-8-to-64-via-32",
    /// 64-bit integer to f32: a qword-strided F destination.
    I2F64_TO_32 = "lowering/convert/i2f-64-to-32-strided",
    /// 64-bit integer to f16: through a strided f32.
    I2F64_TO_16 = "lowering/convert/i2f-64-to-16-via-f32",
    /// f16 to a 64-bit integer: through f32.
    F2I16_TO_64 = "lowering/convert/f2i-16-to-64-via-f32",
    /// f64 to a 32-bit or narrower integer: a qword-strided dword destination.
    F2I64_STRIDED = "lowering/convert/f2i-64-strided",
    /// f64 to an 8-bit integer: the strided result re-packed a dword per lane.
    F2I64_TO_8 = "lowering/convert/f2i-64-to-8-repacked",
    /// f2f to the same size: SEL.ge x, x canonicalizes NaN.
    F2F_SAME = "lowering/convert/f2f-same-size-canonicalize",
    /// f16 -> f64 through f32 (no HF <-> DF MOV).
    F2F16_TO_64 = "lowering/convert/f2f-16-to-64-via-f32",
    /// f64 -> f32: a qword-strided F destination.
    F2F64_TO_32 = "lowering/convert/f2f-64-to-32-strided",
    /// f64 -> f16: rounded to odd in f32 first.
    F2F64_TO_16 = "lowering/convert/f2f-64-to-16-round-to-odd",

    // Integer multiplication and division (intmath.rs).
    /// 8-bit imul: a D x UW MUL on the containers.
    IMUL8 = "lowering/intmath/imul-8",
    /// 32-bit imul from D x UW partial products.
    IMUL32 = "lowering/intmath/imul-32-partial-products",
    /// 64-bit imul from 16-bit pieces and cross products.
    IMUL64 = "lowering/intmath/imul-64-from-16-bit-pieces",
    /// 8/16-bit mul_high: a widened 32-bit product shifted down.
    MULH_NARROW = "lowering/intmath/mul-high-narrow-widened",
    /// 32-bit mul_high: the high dword of a full 64-bit product.
    MULH32 = "lowering/intmath/mul-high-32",
    /// 64-bit mul_high from four 32 x 32 products.
    MULH64 = "lowering/intmath/mul-high-64",
    /// Signed mul_high: the unsigned high half corrected by the operands' signs.
    MULH_SIGNED_FIX = "lowering/intmath/mul-high-signed-fix",
    /// 8/16/32-bit division or remainder: MATH INT DIV / INT MOD.
    DIV_MATH = "lowering/intmath/div-math",
    /// imod from the truncating remainder (cmp.nz + xor.l + predicated add).
    IMOD_FIX = "lowering/intmath/imod-floor-fix",
    /// 64-bit division: a 64-iteration shift-subtract loop in place.
    DIV64 = "lowering/intmath/div-64-shift-subtract-loop",
    /// Signed 64-bit division: magnitudes, then the result's sign restored.
    DIV64_SIGNED = "lowering/intmath/div-64-sign-fix",

    // Bit ops (bits.rs).
    /// GLSL bitfieldInsert: BFI1 + BFI2 with the bits > 31 case selected.
    BITFIELD_INSERT = "lowering/bits/bitfield-insert-select-32",
    /// A GLSL bitfield extract: BFE, and the value itself selected for
    /// bits = 32.
    BITFIELD_EXTRACT = "lowering/bits/bitfield-extract-select-32",
    /// 64-bit bitfield_reverse: each dword reversed into the other.
    BITREV64 = "lowering/bits/bitfield-reverse-64-swapped",
    /// 8/16-bit bitfield_reverse: reversed, then shifted down.
    BITREV_NARROW = "lowering/bits/bitfield-reverse-narrow-shifted",
    /// 64-bit bit_count: CBIT of each dword, added.
    BITCOUNT64 = "lowering/bits/bit-count-64",
    /// An 8/16-bit source zero-extended to a dword (its container's upper bits are unspecified).
    ZEXT_NARROW = "lowering/bits/zero-extend-narrow",
    /// 64-bit find_lsb: FBL of each dword, selected (-1 for 0).
    FIND_LSB64 = "lowering/bits/find-lsb-64",
    /// ifind_msb: the sign folded away (x ^ (x >> n-1)) before LZD.
    IFIND_MSB = "lowering/bits/ifind-msb-sign-folded",
    /// 64-bit find_msb: LZD of each dword, the high one selected if non-zero.
    FIND_MSB64 = "lowering/bits/find-msb-64",
    /// 64-bit extract_[ui](8|16): shifted as UQ, extended back to 64 bits.
    EXTRACT64 = "lowering/bits/extract-64",
    /// 64-bit extract of a byte: the shifted qword re-packed a dword per lane.
    EXTRACT64_BYTE = "lowering/bits/extract-64-byte-repacked",

    // Subgroup ops (subgroup.rs).
    /// flag: vote_any/vote_all straight into the result's flag (any/all-predicated NoMask MOV).
    SG_VOTE_INTO_FLAG = "lowering/subgroup/vote-into-flag",
    /// flag: a flag-resident vote found no free flag: computed in a GRF.
    SG_VOTE_FLAG_FALLBACK = "lowering/subgroup/vote-into-flag-fallback-grf",
    /// 32-bit ballot: the active channels' flag bits, broadcast under the mask.
    SG_BALLOT = "lowering/subgroup/ballot",
    /// 64-bit ballot: the flag bits widened to a qword scalar first.
    SG_BALLOT64 = "lowering/subgroup/ballot-64",
    /// vote_any in a GRF: flag prefilled with 0, `mov.nz`, compared != 0.
    SG_VOTE_ANY = "lowering/subgroup/vote-any",
    /// vote_all in a GRF: flag prefilled with 0, `mov.z`, compared == 0.
    SG_VOTE_ALL = "lowering/subgroup/vote-all",
    /// vote_ieq: the first active lane's value compared in every lane.
    SG_VOTE_IEQ = "lowering/subgroup/vote-ieq",
    /// read_first_invocation: the first active lane by FBL of the active mask.
    SG_READ_FIRST = "lowering/subgroup/read-first-invocation",
    /// read_invocation: the (uniform) index ORed from the active lanes.
    SG_READ_INVOCATION = "lowering/subgroup/read-invocation",
    /// read_(first_)invocation of a boolean (read at 32 bits, keeps its width).
    SG_READ_BOOL = "lowering/subgroup/read-invocation-bool",
    /// elect: the lane id compared with the first active lane.
    SG_ELECT = "lowering/subgroup/elect",
    /// SIMD32: the flag read and written as data is the whole f0 (UD).
    SG_FLAG_DATA_SIMD32 = "lowering/subgroup/flag-data-simd32",

    // Quad ops and derivatives (quad.rs).
    /// A derivative as one ADD over `<4;4,0>` (coarse) or `<2;2,0>` (fine x) regions.
    QUAD_DERIVATIVE_REGION = "lowering/quad/derivative-region",
    /// ddy_fine as one ADD(4) per quad over `<0;2,1>` regions (Gfx11+: no Align16).
    QUAD_DDY_FINE_PER_QUAD = "lowering/quad/ddy-fine-per-quad",
    /// quad_broadcast with a constant index: one MOV over a `<4;4,0>` region.
    QUAD_BROADCAST_CONSTANT = "lowering/quad/broadcast-constant",
    /// quad_broadcast with a uniform register index: four candidates, compared and selected.
    QUAD_BROADCAST_DYNAMIC = "lowering/quad/broadcast-dynamic",
    /// quad_swap_horizontal: two NoMask MOVs of half width, stride 2.
    QUAD_SWAP_HORIZONTAL = "lowering/quad/swap-horizontal",
    /// quad_swap_vertical/diagonal: brw's QUAD_SWIZZLE, four NoMask MOVs of a quarter width.
    QUAD_SWIZZLE = "lowering/quad/swizzle",
    /// A quad op or derivative of a scalar (uniform) value or of one in
    /// qword-strided containers: copied to packed dwords first.
    QUAD_REPACKED_SOURCE = "lowering/quad/repacked-source",

    // Helper invocations (helper.rs).
    /// demote: the active lanes' live-mask dwords cleared.
    HELPER_DEMOTE = "lowering/helper/demote",
    /// terminate: a HALT of the active lanes to the EOT.
    HELPER_TERMINATE = "lowering/helper/terminate-halt",
    /// is_helper_invocation: the live mask compared with 0.
    HELPER_IS_HELPER = "lowering/helper/is-helper-invocation",
    /// A store predicated on the live mask (the program demotes).
    HELPER_STORE_PREDICATED = "lowering/helper/store-predicated",

    // Inputs and outputs (io.rs).
    /// A boolean input or uniform: loaded as a dword and compared != 0.
    IO_LOAD_BOOL = "lowering/io/load-bool-compare",
    /// A boolean output: stored as -(boolean), i.e. 0/1 in a dword.
    IO_STORE_BOOL = "lowering/io/store-bool-negated",
    /// An output whose value is not a register-aligned full container (scalar, strided, packed words): copied first.
    IO_STORE_REPACKED = "lowering/io/store-repacked",

    // Emission (emit.rs).
    /// An instruction that may not write packed words (a wider execution type, an integer/HF conversion) wrote a strided temporary that a MOV packed.
    PACKED_WORDS_VIA_TEMP = "lowering/emit/packed-words-via-temporary",
    /// A packed 16-bit value read with dword elements (an op computed in 32 bits): its words copied to dword containers first.
    WORDS_TO_DWORDS = "lowering/emit/words-to-dword-containers",
}
