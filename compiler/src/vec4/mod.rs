//! The vec4 backend (seed 002): Mesa's vec4 visitor and its passes
//! (`brw_vec4_*.cpp`, now `elk`), beside the scalar (brw fs) backend.
//!
//! Code is Align16 and dispatched SIMD4x2 (`eu::abi::SIMD4X2`): a thread
//! runs two invocations on eight channels, channel c being component c % 4
//! of invocation 2t + c / 4. Every IR value is one component of a vec4
//! virtual register (a GRF: x, y, z, w of each invocation's row), written
//! through a writemask and read through a replicating swizzle
//! (`vgrf3.xxxx`). The lowering packs same-op instructions of a block into
//! one instruction writing several components (`pack`), the vectors the
//! vec4 visitor received from NIR.
//! Booleans are 32-bit 0/~0 components; a comparison also writes the flag
//! bits of its component, which is why the vec4 passes track flags per
//! component (the thread's subject).
//!
//! The backend takes 32-bit programs (and booleans) without
//! cross-invocation, quad or helper-invocation ops; anything else is
//! [`CompileError::Unsupported`] (the vec4 backend compiled vertex-stage
//! code of 2015, before 8-, 16- and 64-bit types and subgroups).
//! [`supports`] says which ops it takes, for generators.
//!
//! The passes, one per file: [`dce`] (per-component flag liveness, or the
//! conservative single flag bit of before the thread), [`cmod_prop`] and
//! [`register_coalesce`]. Register allocation is the scalar backend's, on
//! Align16-aware footprints (`brw::ops`).

pub mod cmod_prop;
pub mod dce;
mod lower;
#[cfg(test)]
mod lower_tests;
mod pack;
pub mod register_coalesce;
#[cfg(test)]
mod testing;

pub use lower::lower;
/// Lowering's vec4 decision points (`crate::coverage`).
pub use lower::POINTS as LOWERING_POINTS;

use ir::Op;

/// Whether the vec4 backend compiles `program` (its values and slots are
/// 32-bit or booleans, and it lowers every op).
pub fn compiles(program: &ir::Program) -> bool {
    lower::check_supported(program).is_ok()
}

/// Whether the vec4 backend lowers `op` (at 32 bits or on booleans).
pub fn supports(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        LoadConst
            | Iadd
            | Isub
            | Ineg
            | Iabs
            | Imin
            | Imax
            | Umin
            | Umax
            | Ishl
            | Ishr
            | Ushr
            | Iand
            | Ior
            | Ixor
            | Inot
            | Ieq
            | Ine
            | Ilt
            | Ige
            | Ult
            | Uge
            | Feq
            | Fneu
            | Flt
            | Fge
            | Fadd
            | Fsub
            | Fmul
            | Fneg
            | Fabs
            | Fsat
            | Fmin
            | Fmax
            | Ffloor
            | Fceil
            | Ftrunc
            | FroundEven
            | Ffract
            | I2i
            | U2u
            | I2f
            | U2f
            | F2i
            | F2u
            | B2i
            | B2f
            | I2b
            | F2b
            | Bcsel
            | LoadInput
            | LoadUniform
            | InvocationId
            | StoreOutput
    )
}
