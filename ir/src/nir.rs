//! How the IR is spelled in Mesa's NIR: op and intrinsic names, the NIR ALU
//! type each source is printed with, the indices our intrinsics carry, the
//! GLSL type names of slots, and C's `%f`.
//!
//! The reference is `src/compiler/nir/nir_print.c`, `nir_opcodes.py` and
//! `nir_intrinsics.py` of Mesa's main branch (read at the `mirror/mesa`
//! snapshot of commit 2409c9c7). `docs/nir-text.md` shows side-by-side examples.

use crate::op::{flags, Op, OpClass, Sig, ValueKind};
use crate::types::SlotType;
use std::borrow::Cow;

/// Ops whose NIR name carries the result size (`i2i32`, `b2f16`, `i2b1`).
const SIZED_CONVERSIONS: [Op; 11] = [
    Op::I2i,
    Op::U2u,
    Op::I2f,
    Op::U2f,
    Op::F2i,
    Op::F2u,
    Op::F2f,
    Op::B2i,
    Op::B2f,
    Op::I2b,
    Op::F2b,
];

/// Intrinsics whose NIR name differs from ours.
const INTRINSIC_NAMES: [(Op, &str); 2] = [
    (Op::SubgroupInvocation, "load_subgroup_invocation"),
    (Op::InvocationId, "load_local_invocation_index"),
];

/// Whether NIR spells `op` with its result size appended.
pub fn is_sized_conversion(op: Op) -> bool {
    SIZED_CONVERSIONS.contains(&op)
}

/// The NIR name of `op` with a result of `dest_bits` bits (`i2i32`,
/// `load_subgroup_invocation`, `iadd`).
pub fn nir_name(op: Op, dest_bits: u8) -> Cow<'static, str> {
    if is_sized_conversion(op) {
        return Cow::Owned(format!("{}{dest_bits}", op.name()));
    }
    match INTRINSIC_NAMES.iter().find(|(o, _)| *o == op) {
        Some((_, n)) => Cow::Borrowed(n),
        None => Cow::Borrowed(op.name()),
    }
}

/// The op a NIR name (or one of our own names) stands for, and the result
/// size the name fixes, if it fixes one (`i2f16` -> (`i2f`, 16)).
pub fn op_from_nir_name(name: &str) -> Option<(Op, Option<u8>)> {
    if let Some((op, _)) = INTRINSIC_NAMES.iter().find(|(_, n)| *n == name) {
        return Some((*op, None));
    }
    if let Some(op) = Op::from_name(name) {
        return Some((op, None));
    }
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let bits: u8 = name[base.len()..].parse().ok()?;
    let op = Op::from_name(base).filter(|op| is_sized_conversion(*op))?;
    Some((op, Some(bits)))
}

/// The base of a NIR ALU type, as far as printing cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NirType {
    /// `nir_type_int` or `nir_type_uint`: constants print as terse hex.
    Int,
    /// `nir_type_float`: constants print with `%f`.
    Float,
    /// `nir_type_bool`: constants print as `true`/`false`.
    Bool,
    /// `nir_type_invalid`: the type is inferred from the value's other uses
    /// (`nir_gather_types`); intrinsic sources, phis and `if` conditions.
    Untyped,
}

fn kind_type(k: ValueKind) -> NirType {
    match k {
        ValueKind::Int => NirType::Int,
        ValueKind::Float => NirType::Float,
        ValueKind::Bool => NirType::Bool,
        ValueKind::Bits => NirType::Untyped,
    }
}

/// The NIR type source `k` of `op` is printed with (`nir_op_infos[].
/// input_types` for ALU ops, `nir_intrinsic_instr_src_type` for
/// intrinsics). `slot` is the declared type of the op's slot, for stores.
pub fn src_type(op: Op, k: usize, slot: Option<SlotType>) -> NirType {
    let info = op.info();
    match info.class {
        OpClass::Alu | OpClass::Const => match info.sig {
            // bcsel: (bool1, uint, uint).
            Sig::Select { .. } => {
                if k == 0 {
                    NirType::Bool
                } else {
                    NirType::Int
                }
            }
            Sig::Indexed { .. } if k == 1 => NirType::Int,
            _ => match kind_type(info.kinds.src) {
                NirType::Untyped => NirType::Int,
                t => t,
            },
        },
        OpClass::Subgroup | OpClass::Io => match op {
            // The value of a store has its `src_type`; every I/O offset is
            // an integer.
            Op::StoreOutput if k == 0 => slot.map_or(NirType::Untyped, slot_nir_type),
            Op::StoreOutput | Op::LoadInput | Op::LoadUniform => NirType::Int,
            _ => NirType::Untyped,
        },
    }
}

/// The NIR type of the result of `op` as `nir_gather_types` records it
/// (`Untyped` records nothing). `slot` is the declared type of the op's slot.
pub fn dest_type(op: Op, slot: Option<SlotType>) -> NirType {
    let info = op.info();
    match info.class {
        OpClass::Alu => kind_type(info.kinds.result),
        OpClass::Const => NirType::Untyped,
        OpClass::Subgroup | OpClass::Io => match op {
            Op::LoadInput | Op::LoadUniform => slot.map_or(NirType::Untyped, slot_nir_type),
            _ => NirType::Untyped,
        },
    }
}

fn slot_nir_type(t: SlotType) -> NirType {
    if t == SlotType::Bool {
        NirType::Bool
    } else if t.is_float() {
        NirType::Float
    } else {
        NirType::Int
    }
}

/// A slot type as NIR prints an ALU type (`int32`, `float16`, `bool1`).
pub fn alu_type_name(t: SlotType) -> &'static str {
    match t {
        SlotType::Bool => "bool1",
        SlotType::I8 => "int8",
        SlotType::I16 => "int16",
        SlotType::I32 => "int32",
        SlotType::I64 => "int64",
        SlotType::F16 => "float16",
        SlotType::F32 => "float32",
        SlotType::F64 => "float64",
    }
}

/// A slot type as `glsl_get_type_name` names it (`int16_t`, `float`).
pub fn glsl_type_name(t: SlotType) -> &'static str {
    match t {
        SlotType::Bool => "bool",
        SlotType::I8 => "int8_t",
        SlotType::I16 => "int16_t",
        SlotType::I32 => "int",
        SlotType::I64 => "int64_t",
        SlotType::F16 => "float16_t",
        SlotType::F32 => "float",
        SlotType::F64 => "double",
    }
}

/// The slot type a GLSL type name stands for (unsigned types are the
/// integer slot of their size: slots are untyped bits).
pub fn slot_from_glsl_name(name: &str) -> Option<SlotType> {
    let unsigned = match name {
        "uint8_t" => Some(SlotType::I8),
        "uint16_t" => Some(SlotType::I16),
        "uint" => Some(SlotType::I32),
        "uint64_t" => Some(SlotType::I64),
        _ => None,
    };
    unsigned.or_else(|| {
        SlotType::ALL
            .into_iter()
            .find(|t| glsl_type_name(*t) == name)
    })
}

/// Whether NIR's divergence analysis treats the op's result as divergent
/// whatever its sources: it reads the invocation's own identity or input.
pub fn is_divergent_source(op: Op) -> bool {
    matches!(
        op,
        Op::LoadInput
            | Op::InvocationId
            | Op::SubgroupInvocation
            | Op::Elect
            | Op::IsHelperInvocation
    )
}

/// Whether the op's result is the same in every active lane whatever its
/// sources (subgroup reductions and broadcasts, uniforms, constants).
pub fn is_uniform_result(op: Op) -> bool {
    op.info().flags & flags::UNIFORM_RESULT != 0 || matches!(op, Op::LoadUniform | Op::LoadConst)
}

/// C's `printf("%f", x)`: six decimals, `inf`, `nan` with the sign bit.
pub fn c_float(x: f64) -> String {
    if x.is_nan() {
        if x.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else if x.is_infinite() {
        if x < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        format!("{x:.6}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_carry_their_result_size_and_parse_back() {
        assert_eq!(nir_name(Op::I2i, 32), "i2i32");
        assert_eq!(nir_name(Op::F2b, 1), "f2b1");
        assert_eq!(nir_name(Op::Iadd, 32), "iadd");
        assert_eq!(
            nir_name(Op::InvocationId, 32),
            "load_local_invocation_index"
        );
        assert_eq!(op_from_nir_name("u2f16"), Some((Op::U2f, Some(16))));
        assert_eq!(op_from_nir_name("i2i"), Some((Op::I2i, None)));
        assert_eq!(
            op_from_nir_name("extract_u16"),
            Some((Op::ExtractU16, None))
        );
        assert_eq!(op_from_nir_name("iadd32"), None);
        assert_eq!(
            op_from_nir_name("load_subgroup_invocation"),
            Some((Op::SubgroupInvocation, None))
        );
    }

    #[test]
    fn sources_print_with_the_nir_input_types() {
        assert_eq!(src_type(Op::Bcsel, 0, None), NirType::Bool);
        assert_eq!(src_type(Op::Bcsel, 2, None), NirType::Int);
        assert_eq!(src_type(Op::Ishl, 1, None), NirType::Int);
        assert_eq!(src_type(Op::Fadd, 1, None), NirType::Float);
        assert_eq!(src_type(Op::B2f, 0, None), NirType::Bool);
        assert_eq!(src_type(Op::ReadInvocation, 0, None), NirType::Untyped);
        assert_eq!(
            src_type(Op::StoreOutput, 0, Some(SlotType::F16)),
            NirType::Float
        );
    }

    #[test]
    fn floats_print_as_c_does() {
        // Values worked by hand: 1/128 = 0.0078125 ties to even at six
        // decimals, as glibc rounds.
        assert_eq!(c_float(0.0078125), "0.007812");
        assert_eq!(c_float(-0.0), "-0.000000");
        assert_eq!(c_float(f64::NEG_INFINITY), "-inf");
        assert_eq!(c_float(-f64::NAN), "-nan");
        assert_eq!(c_float(64.0), "64.000000");
    }
}
