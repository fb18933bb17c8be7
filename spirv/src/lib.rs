//! IR -> SPIR-V export: an [`ir::Program`] as a Vulkan compute shader that
//! computes exactly what `ir/OPS.md` defines, so that a correct Vulkan driver
//! agrees bit for bit with the oracle.
//!
//! The module is SPIR-V 1.3 (Vulkan 1.1: the `GroupNonUniform*` instructions
//! and the `StorageBuffer` storage class are core there), built in-process
//! with `rspirv`. Its buffer interface is `docs/vulkan-abi.md`: four storage
//! buffers of 32-bit words (inputs, uniforms, outputs, lanes), one workgroup
//! of `invocations` invocations.
//!
//! How each IR op becomes SPIR-V, and why, is one table ([`mapping::MAPPINGS`],
//! rendered as `spirv/MAPPING.md`). The general rules:
//!
//! - Every IR value has one canonical SPIR-V type: `bool` at 1 bit, the
//!   unsigned integer of its size otherwise. A value some op reads as a
//!   float also gets a float view (one `OpBitcast`, emitted once next to the
//!   definition, named `%vN_f`); float ops that make their result natively
//!   define the float view and the canonical one is the bitcast.
//! - Native instructions are used wherever SPIR-V plus the Vulkan
//!   environment define the IR's result for every input the IR defines;
//!   elsewhere an explicit sequence computes it (NaN canonicalization,
//!   `fmin`/`fmax`, the masked shifts and bitfield ops, signed remainders,
//!   bit counts of other widths than 32, ...).
//! - 8-, 16- and 64-bit values cross subgroup operations as 32-bit pieces and
//!   booleans as 0/1 words, so no module needs `shaderSubgroupExtendedTypes`.
//! - Structured control flow maps one to one: an IR block is one SPIR-V
//!   block, except that a loop gets a header block of its own (`%bN`, the
//!   loop's phis and `OpLoopMerge`, before the IR header's instructions in
//!   `%bN_body`) and a continue target (`%bN_continue`, which merges the
//!   back edges and their phi values).
//!
//! [`disassemble`] prints a module as `spirv-as`-compatible assembly with
//! the IR's names (`%v5` for `%5`, `%b3` for block `b3`).

mod bits;
mod control;
mod conv;
mod disasm;
mod emit;
mod float;
mod int;
mod io;
pub mod mapping;
mod subgroup;

pub use disasm::disassemble;

/// Which floating-point execution modes (SPV_KHR_float_controls) to request
/// for one float width.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FloatModes {
    /// `SignedZeroInfNanPreserve`: no optimization may assume the absence of
    /// NaNs, infinities or signed zeros (which the IR's exact results need).
    pub signed_zero_inf_nan_preserve: bool,
    /// `DenormPreserve`: denormal operands and results are kept (the IR keeps
    /// them at every size); without it they may be flushed to zero.
    pub denorm_preserve: bool,
    /// `RoundingModeRTE`: correctly rounded operations and conversions round
    /// to nearest even (the IR's rounding); without it the rounding
    /// direction is implementation-defined.
    pub rounding_mode_rte: bool,
}

impl FloatModes {
    /// Every mode.
    pub const ALL: FloatModes = FloatModes {
        signed_zero_inf_nan_preserve: true,
        denorm_preserve: true,
        rounding_mode_rte: true,
    };
    /// No mode.
    pub const NONE: FloatModes = FloatModes {
        signed_zero_inf_nan_preserve: false,
        denorm_preserve: false,
        rounding_mode_rte: false,
    };

    /// Whether any mode is set.
    pub fn any(self) -> bool {
        self.signed_zero_inf_nan_preserve || self.denorm_preserve || self.rounding_mode_rte
    }
}

/// The float execution modes to request, per float width. The caller sets
/// them from what the device supports (`VkPhysicalDeviceFloatControlsProperties`):
/// requesting a mode the device lacks makes the module invalid for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FloatControls {
    /// Modes for 16-bit floats.
    pub f16: FloatModes,
    /// Modes for 32-bit floats.
    pub f32: FloatModes,
    /// Modes for 64-bit floats.
    pub f64: FloatModes,
}

impl FloatControls {
    /// Request every mode at every width (what the IR's semantics need).
    pub fn all() -> FloatControls {
        FloatControls {
            f16: FloatModes::ALL,
            f32: FloatModes::ALL,
            f64: FloatModes::ALL,
        }
    }

    /// Request nothing (no `SPV_KHR_float_controls`).
    pub fn none() -> FloatControls {
        FloatControls::default()
    }

    /// What lavapipe (Mesa 22.3 llvmpipe) supports: `SignedZeroInfNanPreserve`
    /// and `RoundingModeRTE` at every width, `DenormPreserve` at none.
    pub fn lavapipe() -> FloatControls {
        let m = FloatModes {
            signed_zero_inf_nan_preserve: true,
            denorm_preserve: false,
            rounding_mode_rte: true,
        };
        FloatControls {
            f16: m,
            f32: m,
            f64: m,
        }
    }

    /// The modes of one width (16, 32 or 64).
    pub fn width(&self, bits: u8) -> FloatModes {
        match bits {
            16 => self.f16,
            32 => self.f32,
            _ => self.f64,
        }
    }
}

/// Export settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExportOptions {
    /// The dispatch's invocation count N (1..=1024), baked into the module as
    /// `LocalSize N 1 1`; the runner dispatches one workgroup.
    pub invocations: u32,
    /// The float execution modes to request.
    pub float_controls: FloatControls,
    /// The reconvergence guarantee to request.
    pub reconvergence: Reconvergence,
    /// Which extension a module with derivatives declares.
    pub derivatives: DerivativeExtension,
}

/// The SPIR-V extension that allows derivatives in compute shaders (both
/// give the capability and execution mode the same numbers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DerivativeExtension {
    /// `SPV_NV_compute_shader_derivatives` (`VK_NV_compute_shader_derivatives`,
    /// what devices before the KHR extension offer, and the name SPIR-V tools
    /// before 2024 know).
    #[default]
    Nv,
    /// `SPV_KHR_compute_shader_derivatives` (`VK_KHR_compute_shader_derivatives`).
    Khr,
}

impl DerivativeExtension {
    /// The SPIR-V extension's name.
    pub fn spirv_name(self) -> &'static str {
        match self {
            DerivativeExtension::Khr => "SPV_KHR_compute_shader_derivatives",
            DerivativeExtension::Nv => "SPV_NV_compute_shader_derivatives",
        }
    }
}

/// The reconvergence a module requests: which invocations take part in a
/// subgroup operation reached in divergent control flow. Without a request
/// Vulkan defines that set only in control flow that is uniform across the
/// workgroup (the oracle's `Reconvergence::WorkgroupUniform`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reconvergence {
    /// No request.
    #[default]
    Default,
    /// `OpExecutionMode SubgroupUniformControlFlowKHR`
    /// (`SPV_KHR_subgroup_uniform_control_flow`): defined also in control
    /// flow uniform across the subgroup.
    SubgroupUniform,
    /// `OpExecutionMode MaximallyReconvergesKHR`
    /// (`SPV_KHR_maximal_reconvergence`): invocations reconverge wherever
    /// the structured control flow rejoins, as the oracle runs them.
    Maximal,
}

/// `MaximallyReconvergesKHR`'s enumerant. The `spirv` grammar rspirv is
/// built on predates `SPV_KHR_maximal_reconvergence`, so the exporter
/// writes the number and the disassembler names it.
pub const MAXIMALLY_RECONVERGES_KHR: u32 = 6023;

impl ExportOptions {
    /// `invocations` invocations, requesting every float mode.
    pub fn new(invocations: u32) -> ExportOptions {
        ExportOptions {
            invocations,
            float_controls: FloatControls::all(),
            reconvergence: Reconvergence::Default,
            derivatives: DerivativeExtension::Nv,
        }
    }
}

/// The device features a module needs. A runner refuses a device that lacks
/// one (the module would be invalid on it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Features {
    /// `Int8` (`shaderInt8`): 8-bit integer arithmetic.
    pub int8: bool,
    /// `Int16` (`shaderInt16`): 16-bit integers (also f16 values, whose
    /// canonical type is a 16-bit integer).
    pub int16: bool,
    /// `Int64` (`shaderInt64`): 64-bit integers (also f64 values).
    pub int64: bool,
    /// `Float16` (`shaderFloat16`): 16-bit float arithmetic.
    pub float16: bool,
    /// `Float64` (`shaderFloat64`): 64-bit float arithmetic.
    pub float64: bool,
    /// `VK_SUBGROUP_FEATURE_BASIC_BIT` in compute: always (the lanes row
    /// reads `SubgroupId`, `SubgroupLocalInvocationId` and `SubgroupSize`).
    pub subgroup_basic: bool,
    /// `VK_SUBGROUP_FEATURE_VOTE_BIT` (`vote_any`, `vote_all`, `vote_ieq`).
    pub subgroup_vote: bool,
    /// `VK_SUBGROUP_FEATURE_BALLOT_BIT` (`ballot`, `read_first_invocation`).
    pub subgroup_ballot: bool,
    /// `VK_SUBGROUP_FEATURE_SHUFFLE_BIT` (`read_invocation`, and
    /// `quad_broadcast` with a register index).
    pub subgroup_shuffle: bool,
    /// `VK_SUBGROUP_FEATURE_QUAD_BIT` (the quad swaps and broadcasts).
    pub subgroup_quad: bool,
    /// `VK_KHR_compute_shader_derivatives` with
    /// `computeDerivativeGroupLinear` (`ddx_*`, `ddy_*` in compute).
    pub compute_derivatives: bool,
    /// A fragment shader (`demote`, `terminate`, `is_helper_invocation`:
    /// SPIR-V allows them in the Fragment execution model only). The
    /// exporter makes compute shaders, so no module has this and a runner
    /// offers it on no device.
    pub fragment_stage: bool,
    /// The `SPV_KHR_float_controls` extension (Vulkan 1.2 or
    /// `VK_KHR_shader_float_controls`), when some float mode is requested.
    pub float_controls: bool,
    /// `VK_KHR_shader_subgroup_uniform_control_flow`, when requested.
    pub subgroup_uniform_control_flow: bool,
    /// `VK_KHR_shader_maximal_reconvergence`, when requested.
    pub maximal_reconvergence: bool,
}

impl Features {
    /// The names of the features set, for messages (`int8`, `subgroup_vote`, ...).
    pub fn names(&self) -> Vec<&'static str> {
        [
            (self.int8, "int8"),
            (self.int16, "int16"),
            (self.int64, "int64"),
            (self.float16, "float16"),
            (self.float64, "float64"),
            (self.subgroup_basic, "subgroup_basic"),
            (self.subgroup_vote, "subgroup_vote"),
            (self.subgroup_ballot, "subgroup_ballot"),
            (self.subgroup_shuffle, "subgroup_shuffle"),
            (self.subgroup_quad, "subgroup_quad"),
            (self.compute_derivatives, "compute_derivatives"),
            (self.fragment_stage, "fragment_stage"),
            (self.float_controls, "float_controls"),
            (
                self.subgroup_uniform_control_flow,
                "subgroup_uniform_control_flow",
            ),
            (self.maximal_reconvergence, "maximal_reconvergence"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| n)
        .collect()
    }

    /// The features `self` needs that `device` lacks (by [`Features::names`]).
    pub fn missing_from(&self, device: &Features) -> Vec<&'static str> {
        let have = device.names();
        self.names()
            .into_iter()
            .filter(|n| !have.contains(n))
            .collect()
    }
}

/// The features every module with `op` needs, whatever its sizes and
/// operands (`quad_broadcast` counts both of its forms).
pub fn op_needs(op: ir::Op) -> Features {
    use ir::Op::*;
    let mut f = Features::default();
    match op {
        VoteAny | VoteAll | VoteIeq => f.subgroup_vote = true,
        Ballot | ReadFirstInvocation => f.subgroup_ballot = true,
        ReadInvocation => f.subgroup_shuffle = true,
        QuadSwapHorizontal | QuadSwapVertical | QuadSwapDiagonal => f.subgroup_quad = true,
        QuadBroadcast => {
            f.subgroup_quad = true;
            f.subgroup_shuffle = true;
        }
        DdxFine | DdxCoarse | DdyFine | DdyCoarse => f.compute_derivatives = true,
        Demote | Terminate | IsHelperInvocation => f.fragment_stage = true,
        _ => {}
    }
    f
}

/// An exported module and the layout facts a runner needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The SPIR-V binary.
    pub words: Vec<u32>,
    /// The entry point's name.
    pub entry_point: &'static str,
    /// The invocation count (the module's `LocalSize` x).
    pub invocations: u32,
    /// Input slots (NI in `docs/vulkan-abi.md`).
    pub input_slots: u32,
    /// Uniform slots.
    pub uniform_slots: u32,
    /// Output slots (NO).
    pub output_slots: u32,
    /// The device features the module needs.
    pub features: Features,
    /// The float modes the module actually requests: those of the options
    /// if the module has any float type, none otherwise. Where a mode is
    /// off, the results it governs (denormals, NaN/inf/signed-zero
    /// handling, rounding) are only as exact as the driver's defaults.
    pub float_controls: FloatControls,
}

impl Module {
    /// The size in 32-bit words of each buffer, by binding (inputs, uniforms,
    /// outputs, lanes), as `docs/vulkan-abi.md` lays them out (at least 4
    /// words each).
    pub fn buffer_words(&self) -> [usize; 4] {
        let n = self.invocations as usize;
        [
            2 * n * self.input_slots as usize,
            2 * self.uniform_slots as usize,
            4 * n * self.output_slots as usize,
            4 * n,
        ]
        .map(|w| w.max(4))
    }
}

/// Why a program could not be exported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The program does not validate.
    #[error("invalid program: {0}")]
    InvalidProgram(#[from] ir::ValidationError),
    /// The invocation count is outside 1..=1024.
    #[error("invocations must be in 1..=1024, not {0}")]
    BadInvocations(u32),
    /// The program has an op only a fragment shader may have.
    #[error("`{0}` needs a fragment shader; the export makes compute shaders")]
    FragmentOnly(&'static str),
    /// The program has derivatives and the invocation count is not a
    /// multiple of 4 (`DerivativeGroupLinearKHR` needs whole quads).
    #[error("derivatives need whole quads: the invocation count must be a multiple of 4, not {0}")]
    PartialQuad(u32),
    /// The exporter broke one of its own invariants (a bug here).
    #[error("internal export error: {0}")]
    Internal(String),
}

impl From<rspirv::dr::Error> for ExportError {
    fn from(e: rspirv::dr::Error) -> Self {
        ExportError::Internal(format!("rspirv builder: {e}"))
    }
}

/// Exports a valid program as a SPIR-V compute module.
pub fn export(program: &ir::Program, opts: &ExportOptions) -> Result<Module, ExportError> {
    ir::validate(program)?;
    if let Some(i) = program.find_instr(|i| op_needs(i.op).fragment_stage) {
        return Err(ExportError::FragmentOnly(i.op.name()));
    }
    if !(1..=ir::dispatch::MAX_INVOCATIONS).contains(&opts.invocations) {
        return Err(ExportError::BadInvocations(opts.invocations));
    }
    emit::Emitter::new(program, opts).run()
}
