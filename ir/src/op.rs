//! The op table: one row per op with its name, signature, attributes, exact
//! semantics (doc) and evaluator. The printer, parser, validator,
//! interpreter and generator are all driven by this table.

use crate::eval::{self, EvalFn};
use crate::types::SizeSet;

/// How an op's sources and result are sized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sig {
    /// `srcs` sources and the result share one bit size from `sizes`.
    Same {
        /// Number of sources.
        srcs: u8,
        /// Allowed sizes.
        sizes: SizeSet,
    },
    /// Two sources of one size from `sizes`; a 1-bit result.
    Compare {
        /// Allowed source sizes.
        sizes: SizeSet,
    },
    /// One source sized from `from`; a result sized from `to`.
    Convert {
        /// Allowed source sizes.
        from: SizeSet,
        /// Allowed result sizes.
        to: SizeSet,
    },
    /// src0 and the result share a size from `sizes`; src1 is 32-bit
    /// (a shift count, a byte index or a lane index).
    Indexed {
        /// Allowed sizes of src0 and the result.
        sizes: SizeSet,
    },
    /// A 1-bit condition, then two sources and a result of one size.
    Select {
        /// Allowed sizes of the two values.
        sizes: SizeSet,
    },
    /// `srcs` 32-bit sources and a 32-bit result.
    Fixed32 {
        /// Number of sources.
        srcs: u8,
    },
    /// No sources; a result sized from `sizes`.
    Nullary {
        /// Allowed result sizes.
        sizes: SizeSet,
    },
    /// No sources; the result has the declared type's size of slot `imm`.
    LoadSlot,
    /// One source of the declared output type of slot `imm`; no result.
    StoreSlot,
    /// No sources and no result: an effect on the invocation itself.
    Effect,
}

impl Sig {
    /// The number of sources.
    pub const fn num_srcs(self) -> usize {
        match self {
            Sig::Same { srcs, .. } | Sig::Fixed32 { srcs } => srcs as usize,
            Sig::Compare { .. } | Sig::Indexed { .. } => 2,
            Sig::Convert { .. } | Sig::StoreSlot => 1,
            Sig::Select { .. } => 3,
            Sig::Nullary { .. } | Sig::LoadSlot | Sig::Effect => 0,
        }
    }

    /// Whether the op produces a value.
    pub const fn has_dest(self) -> bool {
        !matches!(self, Sig::StoreSlot | Sig::Effect)
    }
}

/// What kind of thing an op is, which decides how the interpreter runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    /// A per-lane function of its sources (the table's `eval`).
    Alu,
    /// `load_const`: the value is the instruction's immediate.
    Const,
    /// A subgroup op: reads other lanes or the active set.
    Subgroup,
    /// Input, uniform and output access, and invocation ids.
    Io,
}

/// Op attributes, as bit flags.
pub mod flags {
    /// No side effects, and the result depends only on the sources and the
    /// lane's own identity: may be removed if unused, merged or moved.
    pub const PURE: u16 = 1;
    /// Has an effect beyond its result (stores).
    pub const SIDE_EFFECTS: u16 = 2;
    /// The result depends on which lanes are active (seed 004).
    pub const CROSS_INVOCATION: u16 = 4;
    /// Some inputs are undefined behaviour (the doc lists them).
    pub const MAY_BE_UNDEFINED: u16 = 8;
    /// Reads another lane, but more active lanes only make it more defined,
    /// so it may be speculated (NIR's peephole-select whitelist).
    pub const READS_OTHER_LANE: u16 = 16;
    /// The first two sources may be swapped.
    pub const COMMUTATIVE: u16 = 32;
    /// The result is the same in every active lane (a subgroup reduction or
    /// broadcast).
    pub const UNIFORM_RESULT: u16 = 64;
    /// Convergent (seed 004): reads other lanes of its quad, so it may not be
    /// made control-dependent on more values (never sunk into an `if`), and
    /// a new lane running it could read an inactive one (never speculated).
    /// A dominated copy may be merged into a dominating one: a valid program
    /// ran the dominating copy with the same lanes active.
    pub const CONVERGENT: u16 = 128;
    /// Uniform-control (seed 004): only defined in (quad-)uniform control
    /// flow, so a dominated copy may be merged into a dominating one even
    /// across execution masks (the thread's `dFdx` in and after a loop), and
    /// the op may move between blocks that are uniform, never into a
    /// divergent one.
    pub const UNIFORM_CONTROL: u16 = 256;
}

/// What a value holds, as an op reads or makes it. The IR is untyped (any
/// value of the right size is valid anywhere); this is how the op itself
/// interprets the bits, which the generator (operands of the op's own kind),
/// the SPIR-V export (which instructions read floats) and the comparison's
/// float relaxations use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// An integer (a boolean at 1 bit).
    Int,
    /// An IEEE float.
    Float,
    /// A boolean.
    Bool,
    /// Bits passed through uninterpreted (selects, broadcasts, loads, stores).
    Bits,
}

impl ValueKind {
    /// The kind's name in `ir/OPS.md`.
    pub const fn name(self) -> &'static str {
        match self {
            ValueKind::Int => "int",
            ValueKind::Float => "float",
            ValueKind::Bool => "bool",
            ValueKind::Bits => "bits",
        }
    }
}

/// The kinds of an op's value sources and of its result (a shift count,
/// lane index, byte index or select condition is not a value source).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kinds {
    /// What the value sources hold.
    pub src: ValueKind,
    /// What the result holds.
    pub result: ValueKind,
}

impl Kinds {
    const fn of(src: ValueKind, result: ValueKind) -> Kinds {
        Kinds { src, result }
    }
    /// Integer in, integer out.
    pub const INT: Kinds = Kinds::of(ValueKind::Int, ValueKind::Int);
    /// Float in, float out.
    pub const FLOAT: Kinds = Kinds::of(ValueKind::Float, ValueKind::Float);
    /// Booleans in, boolean out.
    pub const BOOL: Kinds = Kinds::of(ValueKind::Bool, ValueKind::Bool);
    /// Bits passed through.
    pub const BITS: Kinds = Kinds::of(ValueKind::Bits, ValueKind::Bits);
    /// Integers compared (or tested) into a boolean.
    pub const INT_CMP: Kinds = Kinds::of(ValueKind::Int, ValueKind::Bool);
    /// Floats compared (or tested) into a boolean.
    pub const FLOAT_CMP: Kinds = Kinds::of(ValueKind::Float, ValueKind::Bool);
    /// Bits compared for equality into a boolean.
    pub const BITS_CMP: Kinds = Kinds::of(ValueKind::Bits, ValueKind::Bool);
    /// Integer to float.
    pub const INT_TO_FLOAT: Kinds = Kinds::of(ValueKind::Int, ValueKind::Float);
    /// Float to integer.
    pub const FLOAT_TO_INT: Kinds = Kinds::of(ValueKind::Float, ValueKind::Int);
    /// Boolean to integer (or a ballot mask).
    pub const BOOL_TO_INT: Kinds = Kinds::of(ValueKind::Bool, ValueKind::Int);
    /// Boolean to float.
    pub const BOOL_TO_FLOAT: Kinds = Kinds::of(ValueKind::Bool, ValueKind::Float);
}

/// One row of the op table.
#[derive(Debug)]
pub struct OpInfo {
    /// The op.
    pub op: Op,
    /// Its text name.
    pub name: &'static str,
    /// How it is run.
    pub class: OpClass,
    /// Its source and result sizes.
    pub sig: Sig,
    /// How it reads its sources and what its result holds.
    pub kinds: Kinds,
    /// Attribute flags (see [`flags`]).
    pub flags: u16,
    /// Per-lane evaluator, for ALU ops.
    pub eval: Option<EvalFn>,
    /// The exact semantics, including undefined inputs.
    pub doc: &'static str,
}

use flags::*;
const ALU: u16 = PURE;
const ALU_UB: u16 = PURE | MAY_BE_UNDEFINED;
const QUAD: u16 = CONVERGENT | MAY_BE_UNDEFINED;
const DERIVATIVE: u16 = UNIFORM_CONTROL | MAY_BE_UNDEFINED;

const fn same(srcs: u8, sizes: SizeSet) -> Sig {
    Sig::Same { srcs, sizes }
}
const fn conv(from: SizeSet, to: SizeSet) -> Sig {
    Sig::Convert { from, to }
}
const INT: SizeSet = SizeSet::INT;
const FLOAT: SizeSet = SizeSet::FLOAT;
const BOOL: SizeSet = SizeSet::BOOL;
const INT_BOOL: SizeSet = SizeSet::INT_BOOL;
const ANY: SizeSet = SizeSet::ANY;
const B32: SizeSet = SizeSet::B32;

macro_rules! op_table {
    ($( $variant:ident = $name:literal, $class:ident, $sig:expr, $kinds:expr, $flags:expr, $eval:expr, $doc:literal; )*) => {
        /// Every IR op. `op.info()` gives its table row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Op { $($variant),* }

        /// The op table, indexed by `Op as usize`.
        pub static OPS: &[OpInfo] = &[
            $( OpInfo { op: Op::$variant, name: $name, class: OpClass::$class, sig: $sig,
                        kinds: $kinds, flags: $flags, eval: $eval, doc: $doc } ),*
        ];
    };
}

op_table! {
    LoadConst = "load_const", Const, Sig::Nullary { sizes: ANY }, Kinds::BITS, ALU, None,
        "The instruction's immediate, masked to the result size.";

    // integer arithmetic (signedness belongs to the op)
    Iadd = "iadd", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::iadd), "a + b, wrapping.";
    Isub = "isub", Alu, same(2, INT), Kinds::INT, ALU, Some(eval::isub), "a - b, wrapping.";
    Imul = "imul", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::imul), "Low half of a * b (wrapping).";
    Ineg = "ineg", Alu, same(1, INT), Kinds::INT, ALU, Some(eval::ineg), "-a, wrapping (ineg(MIN) = MIN).";
    Iabs = "iabs", Alu, same(1, INT), Kinds::INT, ALU, Some(eval::iabs), "|a| as signed, wrapping (iabs(MIN) = MIN).";
    Imin = "imin", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::imin), "Signed minimum.";
    Imax = "imax", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::imax), "Signed maximum.";
    Umin = "umin", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::umin), "Unsigned minimum.";
    Umax = "umax", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::umax), "Unsigned maximum.";
    Idiv = "idiv", Alu, same(2, INT), Kinds::INT, ALU_UB, Some(eval::idiv),
        "Signed a / b rounded toward zero. Undefined: b = 0, and a = MIN with b = -1.";
    Udiv = "udiv", Alu, same(2, INT), Kinds::INT, ALU_UB, Some(eval::udiv),
        "Unsigned a / b. Undefined: b = 0.";
    Irem = "irem", Alu, same(2, INT), Kinds::INT, ALU_UB, Some(eval::irem),
        "Signed remainder with the sign of a (a - b * idiv(a, b)). Undefined: b = 0, and a = MIN with b = -1.";
    Imod = "imod", Alu, same(2, INT), Kinds::INT, ALU_UB, Some(eval::imod),
        "Signed modulo with the sign of b (floored). Undefined: b = 0, and a = MIN with b = -1.";
    Umod = "umod", Alu, same(2, INT), Kinds::INT, ALU_UB, Some(eval::umod),
        "Unsigned a mod b. Undefined: b = 0.";
    ImulHigh = "imul_high", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::imul_high),
        "High half of the exact signed 2n-bit product.";
    UmulHigh = "umul_high", Alu, same(2, INT), Kinds::INT, ALU | COMMUTATIVE, Some(eval::umul_high),
        "High half of the exact unsigned 2n-bit product.";

    // shifts and logic
    Ishl = "ishl", Alu, Sig::Indexed { sizes: INT }, Kinds::INT, ALU, Some(eval::ishl),
        "a << (b & (n-1)); b is 32-bit.";
    Ishr = "ishr", Alu, Sig::Indexed { sizes: INT }, Kinds::INT, ALU, Some(eval::ishr),
        "Arithmetic a >> (b & (n-1)); b is 32-bit.";
    Ushr = "ushr", Alu, Sig::Indexed { sizes: INT }, Kinds::INT, ALU, Some(eval::ushr),
        "Logical a >> (b & (n-1)); b is 32-bit.";
    Iand = "iand", Alu, same(2, INT_BOOL), Kinds::INT, ALU | COMMUTATIVE, Some(eval::iand), "Bitwise AND (boolean AND at 1 bit).";
    Ior = "ior", Alu, same(2, INT_BOOL), Kinds::INT, ALU | COMMUTATIVE, Some(eval::ior), "Bitwise OR (boolean OR at 1 bit).";
    Ixor = "ixor", Alu, same(2, INT_BOOL), Kinds::INT, ALU | COMMUTATIVE, Some(eval::ixor), "Bitwise XOR (boolean XOR at 1 bit).";
    Inot = "inot", Alu, same(1, INT_BOOL), Kinds::INT, ALU, Some(eval::inot), "Bitwise NOT (boolean NOT at 1 bit).";

    // comparisons
    Ieq = "ieq", Alu, Sig::Compare { sizes: INT_BOOL }, Kinds::INT_CMP, ALU | COMMUTATIVE, Some(eval::ieq), "a == b (also on booleans).";
    Ine = "ine", Alu, Sig::Compare { sizes: INT_BOOL }, Kinds::INT_CMP, ALU | COMMUTATIVE, Some(eval::ine), "a != b (also on booleans).";
    Ilt = "ilt", Alu, Sig::Compare { sizes: INT }, Kinds::INT_CMP, ALU, Some(eval::ilt), "Signed a < b.";
    Ige = "ige", Alu, Sig::Compare { sizes: INT }, Kinds::INT_CMP, ALU, Some(eval::ige), "Signed a >= b.";
    Ult = "ult", Alu, Sig::Compare { sizes: INT }, Kinds::INT_CMP, ALU, Some(eval::ult), "Unsigned a < b.";
    Uge = "uge", Alu, Sig::Compare { sizes: INT }, Kinds::INT_CMP, ALU, Some(eval::uge), "Unsigned a >= b.";
    Feq = "feq", Alu, Sig::Compare { sizes: FLOAT }, Kinds::FLOAT_CMP, ALU | COMMUTATIVE, Some(eval::feq),
        "Ordered a == b: false if either is NaN; -0 == +0.";
    Fneu = "fneu", Alu, Sig::Compare { sizes: FLOAT }, Kinds::FLOAT_CMP, ALU | COMMUTATIVE, Some(eval::fneu),
        "Unordered a != b: true if either is NaN.";
    Flt = "flt", Alu, Sig::Compare { sizes: FLOAT }, Kinds::FLOAT_CMP, ALU, Some(eval::flt),
        "Ordered a < b: false if either is NaN.";
    Fge = "fge", Alu, Sig::Compare { sizes: FLOAT }, Kinds::FLOAT_CMP, ALU, Some(eval::fge),
        "Ordered a >= b: false if either is NaN.";

    // float arithmetic
    Fadd = "fadd", Alu, same(2, FLOAT), Kinds::FLOAT, ALU | COMMUTATIVE, Some(eval::fadd), "IEEE a + b, one rounding (nearest even).";
    Fsub = "fsub", Alu, same(2, FLOAT), Kinds::FLOAT, ALU, Some(eval::fsub), "IEEE a - b, one rounding.";
    Fmul = "fmul", Alu, same(2, FLOAT), Kinds::FLOAT, ALU | COMMUTATIVE, Some(eval::fmul), "IEEE a * b, one rounding.";
    Ffma = "ffma", Alu, same(3, FLOAT), Kinds::FLOAT, ALU, Some(eval::ffma),
        "Fused a * b + c with a single rounding.";
    Fneg = "fneg", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::fneg),
        "Flips the sign bit (NaN payloads are kept).";
    Fabs = "fabs", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::fabs),
        "Clears the sign bit (NaN payloads are kept).";
    Fsat = "fsat", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::fsat),
        "Clamp to [0, 1]: NaN -> +0, x <= 0 (including -0) -> +0, x >= 1 -> 1.";
    Fmin = "fmin", Alu, same(2, FLOAT), Kinds::FLOAT, ALU | COMMUTATIVE, Some(eval::fmin),
        "Minimum; any NaN operand (quiet or signalling) yields the other operand's exact bits (two NaNs: canonical NaN); -0 < +0.";
    Fmax = "fmax", Alu, same(2, FLOAT), Kinds::FLOAT, ALU | COMMUTATIVE, Some(eval::fmax),
        "Maximum; any NaN operand (quiet or signalling) yields the other operand's exact bits (two NaNs: canonical NaN); -0 < +0.";
    Ffloor = "ffloor", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::ffloor), "Round toward -inf (sign of zero kept; NaN -> canonical NaN, as for every rounding op).";
    Fceil = "fceil", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::fceil), "Round toward +inf (ceil(-0.5) = -0).";
    Ftrunc = "ftrunc", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::ftrunc), "Round toward zero (sign of zero kept).";
    FroundEven = "fround_even", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::fround_even),
        "Round to nearest, ties to even (sign of zero kept).";
    Ffract = "ffract", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::ffract),
        "a - ffloor(a), one rounding (may round up to 1.0 for tiny negative a; ±0 and integers -> +0; inf -> NaN).";
    Fsign = "fsign", Alu, same(1, FLOAT), Kinds::FLOAT, ALU, Some(eval::fsign),
        "±0 keeps its sign; any other value, NaN included, is copysign(1.0, a).";

    // conversions; the result size is the printed bit size
    I2i = "i2i", Alu, conv(INT, INT), Kinds::INT, ALU, Some(eval::i2i), "Sign-extend or truncate.";
    U2u = "u2u", Alu, conv(INT, INT), Kinds::INT, ALU, Some(eval::u2u), "Zero-extend or truncate.";
    I2f = "i2f", Alu, conv(INT, FLOAT), Kinds::INT_TO_FLOAT, ALU, Some(eval::i2f),
        "Signed integer to float, nearest even (f16: |a| >= 65520 rounds to ±inf).";
    U2f = "u2f", Alu, conv(INT, FLOAT), Kinds::INT_TO_FLOAT, ALU, Some(eval::u2f),
        "Unsigned integer to float, nearest even (f16: a >= 65520 rounds to +inf).";
    F2i = "f2i", Alu, conv(FLOAT, INT), Kinds::FLOAT_TO_INT, ALU_UB, Some(eval::f2i),
        "Truncate toward zero to a signed integer. Undefined: NaN, and truncated values outside the signed range (so -0.5 -> 0 is defined).";
    F2u = "f2u", Alu, conv(FLOAT, INT), Kinds::FLOAT_TO_INT, ALU_UB, Some(eval::f2u),
        "Truncate toward zero to an unsigned integer. Undefined: NaN, and truncated values outside [0, 2^n - 1] (so -0.5 -> 0 is defined).";
    F2f = "f2f", Alu, conv(FLOAT, FLOAT), Kinds::FLOAT, ALU, Some(eval::f2f),
        "Float to float, nearest even; NaN -> canonical NaN (also at the same size); overflow -> ±inf.";
    B2i = "b2i", Alu, conv(BOOL, INT), Kinds::BOOL_TO_INT, ALU, Some(eval::b2i), "true -> 1, false -> 0.";
    B2f = "b2f", Alu, conv(BOOL, FLOAT), Kinds::BOOL_TO_FLOAT, ALU, Some(eval::b2f), "true -> 1.0, false -> +0.0.";
    I2b = "i2b", Alu, conv(INT, BOOL), Kinds::INT_CMP, ALU, Some(eval::i2b), "a != 0.";
    F2b = "f2b", Alu, conv(FLOAT, BOOL), Kinds::FLOAT_CMP, ALU, Some(eval::f2b), "a != 0.0 (unordered: NaN -> true; -0 -> false).";

    Bcsel = "bcsel", Alu, Sig::Select { sizes: ANY }, Kinds::BITS, ALU, Some(eval::bcsel), "c ? a : b.";

    // bitfield
    Bfm = "bfm", Alu, Sig::Fixed32 { srcs: 2 }, Kinds::INT, ALU, Some(eval::bfm),
        "bfm(bits, offset) = ((1 << (bits & 31)) - 1) << (offset & 31) (never a 32-bit-wide mask).";
    Bfi = "bfi", Alu, Sig::Fixed32 { srcs: 3 }, Kinds::INT, ALU, Some(eval::bfi),
        "bfi(mask, insert, base) = ((insert << ctz(mask)) & mask) | (base & ~mask); mask = 0 -> base.";
    Ibfe = "ibfe", Alu, Sig::Fixed32 { srcs: 3 }, Kinds::INT, ALU, Some(eval::ibfe),
        "ibfe(value, offset, bits): o = offset & 31, w = bits & 31; w = 0 -> 0; o + w < 32 -> the w bits at o, sign-extended; else value >> o (arithmetic).";
    Ubfe = "ubfe", Alu, Sig::Fixed32 { srcs: 3 }, Kinds::INT, ALU, Some(eval::ubfe),
        "ubfe(value, offset, bits): o = offset & 31, w = bits & 31; w = 0 -> 0; o + w < 32 -> the w bits at o, zero-extended; else value >> o (logical).";
    BitfieldInsert = "bitfield_insert", Alu, Sig::Fixed32 { srcs: 4 }, Kinds::INT, ALU_UB, Some(eval::bitfield_insert),
        "GLSL bitfieldInsert(base, insert, offset, bits); offset and bits are signed, summed exactly (no wrap); bits = 32 and offset = 32 with bits = 0 are allowed. Undefined: offset or bits negative, or offset + bits > 32.";
    IbitfieldExtract = "ibitfield_extract", Alu, Sig::Fixed32 { srcs: 3 }, Kinds::INT, ALU_UB, Some(eval::ibitfield_extract),
        "GLSL bitfieldExtract(value, offset, bits) of a signed value; offset and bits are signed, summed exactly (no wrap): bits = 0 -> 0, else the bits bits at offset, sign-extended (bits = 32 is value itself). Undefined: offset or bits negative, or offset + bits > 32.";
    UbitfieldExtract = "ubitfield_extract", Alu, Sig::Fixed32 { srcs: 3 }, Kinds::INT, ALU_UB, Some(eval::ubitfield_extract),
        "As `ibitfield_extract`, zero-extended (GLSL bitfieldExtract of an unsigned value).";
    BitfieldReverse = "bitfield_reverse", Alu, same(1, INT), Kinds::INT, ALU, Some(eval::bitfield_reverse),
        "Reverses the n bits.";
    BitCount = "bit_count", Alu, conv(INT, B32), Kinds::INT, ALU, Some(eval::bit_count), "Population count (32-bit result).";
    FindLsb = "find_lsb", Alu, conv(INT, B32), Kinds::INT, ALU, Some(eval::find_lsb),
        "Index of the lowest set bit; -1 for 0 (32-bit result).";
    UfindMsb = "ufind_msb", Alu, conv(INT, B32), Kinds::INT, ALU, Some(eval::ufind_msb),
        "Index of the highest set bit; -1 for 0 (32-bit result).";
    IfindMsb = "ifind_msb", Alu, conv(INT, B32), Kinds::INT, ALU, Some(eval::ifind_msb),
        "Index of the highest bit that differs from the sign bit; -1 for 0 and -1 (32-bit result).";
    ExtractU8 = "extract_u8", Alu, Sig::Indexed { sizes: INT }, Kinds::INT, ALU_UB, Some(eval::extract_u8),
        "Byte b of a, zero-extended; b is unsigned. Undefined: b >= n/8.";
    ExtractI8 = "extract_i8", Alu, Sig::Indexed { sizes: INT }, Kinds::INT, ALU_UB, Some(eval::extract_i8),
        "Byte b of a, sign-extended; b is unsigned. Undefined: b >= n/8.";
    ExtractU16 = "extract_u16", Alu, Sig::Indexed { sizes: SizeSet::WORDS }, Kinds::INT, ALU_UB, Some(eval::extract_u16),
        "Word b of a, zero-extended; b is unsigned. Undefined: b >= n/16.";
    ExtractI16 = "extract_i16", Alu, Sig::Indexed { sizes: SizeSet::WORDS }, Kinds::INT, ALU_UB, Some(eval::extract_i16),
        "Word b of a, sign-extended; b is unsigned. Undefined: b >= n/16.";

    // subgroup
    Ballot = "ballot", Subgroup, conv(BOOL, SizeSet::B32_B64), Kinds::BOOL_TO_INT, CROSS_INVOCATION | UNIFORM_RESULT, None,
        "Bit i is set iff lane i of the subgroup is active and its c is true (32- or 64-bit result).";
    VoteAny = "vote_any", Subgroup, same(1, BOOL), Kinds::BOOL, CROSS_INVOCATION | UNIFORM_RESULT, None,
        "True iff c is true in some active lane.";
    VoteAll = "vote_all", Subgroup, same(1, BOOL), Kinds::BOOL, CROSS_INVOCATION | UNIFORM_RESULT, None,
        "True iff c is true in every active lane.";
    VoteIeq = "vote_ieq", Subgroup, conv(INT_BOOL, BOOL), Kinds::BITS_CMP, CROSS_INVOCATION | UNIFORM_RESULT, None,
        "True iff a has the same value in every active lane.";
    ReadFirstInvocation = "read_first_invocation", Subgroup, same(1, ANY), Kinds::BITS, CROSS_INVOCATION | UNIFORM_RESULT, None,
        "a in the lowest-numbered active lane.";
    ReadInvocation = "read_invocation", Subgroup, Sig::Indexed { sizes: ANY }, Kinds::BITS, CROSS_INVOCATION | MAY_BE_UNDEFINED | READS_OTHER_LANE | UNIFORM_RESULT, None,
        "a in lane i. Undefined: i differs between active lanes, or lane i is not active.";
    SubgroupInvocation = "subgroup_invocation", Io, Sig::Nullary { sizes: B32 }, Kinds::INT, PURE, None,
        "The lane's index within its subgroup.";
    Elect = "elect", Subgroup, Sig::Nullary { sizes: BOOL }, Kinds::BOOL, CROSS_INVOCATION, None,
        "True in the lowest-numbered active lane only.";

    // quads and derivatives (seed 004): quad q of a subgroup is lanes
    // 4q..4q+3 (Vulkan compute's linear derivative groups); lane 4q+k sits
    // at column k & 1 and row k >> 1.
    QuadBroadcast = "quad_broadcast", Subgroup, Sig::Indexed { sizes: B32 }, Kinds::BITS, QUAD, None,
        "a in lane i of the lane's quad (lane 4q + i). Undefined: i >= 4, i differs between active lanes, or the lane read is not active.";
    QuadSwapHorizontal = "quad_swap_horizontal", Subgroup, same(1, B32), Kinds::BITS, QUAD, None,
        "a in the other lane of the lane's row (lane l ^ 1). Undefined: the lane read is not active.";
    QuadSwapVertical = "quad_swap_vertical", Subgroup, same(1, B32), Kinds::BITS, QUAD, None,
        "a in the other lane of the lane's column (lane l ^ 2). Undefined: the lane read is not active.";
    QuadSwapDiagonal = "quad_swap_diagonal", Subgroup, same(1, B32), Kinds::BITS, QUAD, None,
        "a in the diagonally opposite lane of the quad (lane l ^ 3). Undefined: the lane read is not active.";
    DdxFine = "ddx_fine", Subgroup, same(1, B32), Kinds::FLOAT, DERIVATIVE, None,
        "a in the right lane of the lane's row minus a in its left lane (32-bit `fsub`): (4q+1) - (4q) in row 0, (4q+3) - (4q+2) in row 1. Undefined: a lane of the quad is not active (non-uniform control flow, or a quad the dispatch does not fill).";
    DdxCoarse = "ddx_coarse", Subgroup, same(1, B32), Kinds::FLOAT, DERIVATIVE, None,
        "(4q+1) - (4q) in every lane of the quad (32-bit `fsub`). Undefined: as `ddx_fine`.";
    DdyFine = "ddy_fine", Subgroup, same(1, B32), Kinds::FLOAT, DERIVATIVE, None,
        "a in the bottom lane of the lane's column minus a in its top lane (32-bit `fsub`): (4q+2+c) - (4q+c), c = l & 1. Undefined: as `ddx_fine`.";
    DdyCoarse = "ddy_coarse", Subgroup, same(1, B32), Kinds::FLOAT, DERIVATIVE, None,
        "(4q+2) - (4q) in every lane of the quad (32-bit `fsub`). Undefined: as `ddx_fine`.";

    // I/O
    LoadInput = "load_input", Io, Sig::LoadSlot, Kinds::BITS, PURE, None,
        "The invocation's value of input slot `slot`.";
    LoadUniform = "load_uniform", Io, Sig::LoadSlot, Kinds::BITS, PURE, None,
        "The value of uniform slot `slot` (the same in every invocation).";
    InvocationId = "invocation_id", Io, Sig::Nullary { sizes: B32 }, Kinds::INT, PURE, None,
        "The invocation's global index, 0..N-1.";
    StoreOutput = "store_output", Io, Sig::StoreSlot, Kinds::BITS, SIDE_EFFECTS, None,
        "Writes the invocation's output slot `slot`; the last write wins. A helper invocation's store has no effect.";

    // helpers (seed 004): what keeps a quad whole for derivatives
    Demote = "demote", Io, Sig::Effect, Kinds::BITS, SIDE_EFFECTS, None,
        "The invocation becomes a helper: it keeps running and stays active for every op (derivatives, quad and subgroup ops), but its later `store_output`s have no effect.";
    Terminate = "terminate", Io, Sig::Effect, Kinds::BITS, SIDE_EFFECTS, None,
        "The invocation stops: it runs nothing more and is active for no later op (its quad is no longer whole); its earlier stores stand.";
    IsHelperInvocation = "is_helper_invocation", Io, Sig::Nullary { sizes: BOOL }, Kinds::BOOL, 0, None,
        "True iff the invocation has run `demote`. Not pure: it depends on where it runs relative to `demote`.";
}

impl Op {
    /// The op's table row.
    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    /// The op's text name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks an op up by name.
    pub fn from_name(name: &str) -> Option<Op> {
        OPS.iter().find(|i| i.name == name).map(|i| i.op)
    }

    /// Every op, in table order.
    pub fn all() -> impl Iterator<Item = Op> {
        OPS.iter().map(|i| i.op)
    }

    /// Whether the op is printed as an intrinsic (`@name (srcs) (slot=N)`).
    pub fn is_intrinsic(self) -> bool {
        matches!(self.info().class, OpClass::Subgroup | OpClass::Io)
    }

    /// Whether the op takes a slot index (`imm`).
    pub fn has_slot(self) -> bool {
        matches!(self.info().sig, Sig::LoadSlot | Sig::StoreSlot)
    }

    /// Side-effect free, active-set independent.
    pub fn is_pure(self) -> bool {
        self.info().flags & PURE != 0
    }

    /// Has effects beyond its result.
    pub fn has_side_effects(self) -> bool {
        self.info().flags & SIDE_EFFECTS != 0
    }

    /// The result depends on which lanes are active.
    pub fn is_cross_invocation(self) -> bool {
        self.info().flags & CROSS_INVOCATION != 0
    }

    /// Some inputs are undefined behaviour.
    pub fn may_be_undefined(self) -> bool {
        self.info().flags & MAY_BE_UNDEFINED != 0
    }

    /// May be executed in lanes (or on paths) where the program did not
    /// execute it: pure ops that are never undefined.
    pub fn can_speculate(self) -> bool {
        self.is_pure() && !self.may_be_undefined()
    }

    /// Ops whose first two operands may be swapped.
    pub fn is_commutative(self) -> bool {
        self.info().flags & COMMUTATIVE != 0
    }

    /// Whether the result is the same in every active lane.
    pub fn has_uniform_result(self) -> bool {
        self.info().flags & UNIFORM_RESULT != 0
    }

    /// Reads other lanes of its quad and may not gain control dependences.
    pub fn is_convergent(self) -> bool {
        self.info().flags & CONVERGENT != 0
    }

    /// Only defined in (quad-)uniform control flow: a derivative.
    pub fn is_uniform_control(self) -> bool {
        self.info().flags & UNIFORM_CONTROL != 0
    }

    /// Reads other lanes of its quad (a quad op or a derivative; `ir::quad`
    /// says which), so every lane it reads must be active.
    pub fn reads_quad(self) -> bool {
        self.is_convergent() || self.is_uniform_control()
    }
}

/// The op table as a Markdown document (checked in as ir/OPS.md).
pub fn markdown_table() -> String {
    let mut s = String::from(
        "# IR ops\n\nGenerated from `ir/src/op.rs` (`cargo test -p ir` checks it; \
         `UPDATE_OPS_MD=1 cargo test -p ir ops_md` rewrites it).\n\n\
         Values are untyped bit vectors of 1, 8, 16, 32 or 64 bits, as in NIR; each op \
         says how it reads them. Floats: IEEE 754, round to nearest even, denormals \
         preserved at every size; any NaN produced by an arithmetic op or a conversion \
         is the canonical quiet NaN (f16 0x7e00, f32 0x7fc00000, f64 0x7ff8000000000000); \
         `fneg`/`fabs` only touch the sign bit. Booleans are 1-bit, true = 1. An \
         undefined input makes the whole case invalid (`InvalidCase`): the oracle never \
         gives a value for it.\n\n\
         Attributes: P = pure, S = side effects, X = cross-invocation (depends on the \
         active lanes), U = may be undefined, R = reads another lane (speculatable), \
         C = commutative, V = the result is the same in every active lane, K = convergent \
         (reads other lanes of its quad: never sunk into an `if` or speculated), Q = \
         uniform-control (only defined in quad-uniform control flow). Kinds: how \
         the op reads its value sources and what its result holds (int, float, bool, \
         or bits passed through uninterpreted). NIR: how the text (NIR as Mesa \
         prints it) spells the op; `N` is the result size.\n\n\
         | op | NIR | sources -> result | kinds | attrs | semantics |\n|---|---|---|---|---|---|\n",
    );
    for i in OPS {
        let sig = match i.sig {
            Sig::Same { srcs, sizes } => format!("{srcs} x n -> n, n in {sizes}"),
            Sig::Compare { sizes } => format!("n, n -> 1, n in {sizes}"),
            Sig::Convert { from, to } => format!("m -> n, m in {from}, n in {to}"),
            Sig::Indexed { sizes } => format!("n, 32 -> n, n in {sizes}"),
            Sig::Select { sizes } => format!("1, n, n -> n, n in {sizes}"),
            Sig::Fixed32 { srcs } => format!("{srcs} x 32 -> 32"),
            Sig::Nullary { sizes } => format!("-> n, n in {sizes}"),
            Sig::LoadSlot => "-> declared type of `slot`".to_string(),
            Sig::StoreSlot => "declared type of `slot` ->".to_string(),
            Sig::Effect => "->".to_string(),
        };
        let mut attrs = String::new();
        for (bit, c) in [
            (PURE, 'P'),
            (SIDE_EFFECTS, 'S'),
            (CROSS_INVOCATION, 'X'),
            (MAY_BE_UNDEFINED, 'U'),
            (READS_OTHER_LANE, 'R'),
            (COMMUTATIVE, 'C'),
            (UNIFORM_RESULT, 'V'),
            (CONVERGENT, 'K'),
            (UNIFORM_CONTROL, 'Q'),
        ] {
            if i.flags & bit != 0 {
                attrs.push(c);
            }
        }
        let nir = if crate::nir::is_sized_conversion(i.op) {
            format!("`{}N`", i.name)
        } else if i.op.is_intrinsic() {
            format!("`@{}`", crate::nir::nir_name(i.op, 32))
        } else {
            format!("`{}`", i.name)
        };
        s.push_str(&format!(
            "| `{}` | {} | {} | {} -> {} | {} | {} |\n",
            i.name,
            nir,
            sig,
            i.kinds.src.name(),
            i.kinds.result.name(),
            attrs,
            i.doc
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_op() {
        for (i, info) in OPS.iter().enumerate() {
            assert_eq!(info.op as usize, i, "{}", info.name);
            assert_eq!(Op::from_name(info.name), Some(info.op));
        }
    }

    #[test]
    fn alu_ops_have_evaluators() {
        for info in OPS {
            assert_eq!(
                info.class == OpClass::Alu,
                info.eval.is_some(),
                "{}",
                info.name
            );
        }
    }

    #[test]
    fn op_count() {
        // 1 const + 16 int + 7 shift/logic + 10 compare + 15 float + 11 conversions
        // + 1 bcsel + 16 bitfield + 8 subgroup + 4 quad + 4 derivative + 4 I/O
        // + 3 helper.
        assert_eq!(OPS.len(), 100);
    }

    #[test]
    fn ops_md_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/OPS.md");
        let want = markdown_table();
        if std::env::var_os("UPDATE_OPS_MD").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "ir/OPS.md is stale: run UPDATE_OPS_MD=1 cargo test -p ir ops_md"
        );
    }

    #[test]
    fn kinds_agree_with_sizes() {
        for i in OPS {
            let (from, to) = match i.sig {
                Sig::Same { sizes, .. } => (sizes, sizes),
                Sig::Compare { sizes } => (sizes, SizeSet::BOOL),
                Sig::Convert { from, to } => (from, to),
                _ => continue,
            };
            // A float source or result is sized from the float sizes (all of
            // them but for the 32-bit-only derivatives), and an op over
            // every float size reads floats.
            let float_sized = |k: ValueKind, set: SizeSet| {
                if k == ValueKind::Float {
                    set.sizes().all(|b| SizeSet::FLOAT.contains(b))
                } else {
                    set != SizeSet::FLOAT
                }
            };
            assert!(float_sized(i.kinds.src, from), "{}", i.name);
            assert!(float_sized(i.kinds.result, to), "{}", i.name);
            // A boolean result is exactly a 1-bit-only one (outside int-or-bool ops).
            assert_eq!(
                i.kinds.result == ValueKind::Bool,
                to == SizeSet::BOOL,
                "{}",
                i.name
            );
        }
        for i in OPS.iter().filter(|i| i.flags & UNIFORM_RESULT != 0) {
            assert!(i.op.is_cross_invocation(), "{}", i.name);
        }
        let commutative: Vec<&str> = OPS
            .iter()
            .filter(|i| i.op.is_commutative())
            .map(|i| i.name)
            .collect();
        assert_eq!(
            commutative.join(" "),
            "iadd imul imin imax umin umax imul_high umul_high iand ior ixor ieq ine feq fneu fadd fmul fmin fmax"
        );
    }

    #[test]
    fn attributes() {
        assert!(Op::Ballot.is_cross_invocation());
        assert!(!Op::Ballot.is_pure());
        assert!(Op::StoreOutput.has_side_effects());
        assert!(Op::Iadd.can_speculate());
        assert!(!Op::Idiv.can_speculate());
        assert!(!Op::VoteAny.can_speculate());
        // Seed 004's three attributes: ballots and votes are cross-invocation,
        // quad ops convergent, derivatives uniform-control; none is pure.
        let with = |f: fn(Op) -> bool| -> Vec<&str> {
            Op::all().filter(|o| f(*o)).map(|o| o.name()).collect()
        };
        assert_eq!(
            with(Op::is_convergent),
            [
                "quad_broadcast",
                "quad_swap_horizontal",
                "quad_swap_vertical",
                "quad_swap_diagonal"
            ]
        );
        assert_eq!(
            with(Op::is_uniform_control),
            ["ddx_fine", "ddx_coarse", "ddy_fine", "ddy_coarse"]
        );
        for op in with(Op::is_convergent)
            .into_iter()
            .chain(with(Op::is_uniform_control))
        {
            let op = Op::from_name(op).unwrap();
            assert!(!op.is_cross_invocation() && !op.is_pure() && !op.can_speculate());
        }
    }
}
