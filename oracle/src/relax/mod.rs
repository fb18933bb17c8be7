//! Comparing with a real driver: which outputs a conforming Vulkan driver
//! may compute differently from the oracle, and why.
//!
//! This is **the one documented place** for every relaxation of the
//! comparison. The oracle's outputs never change ([`run_relaxed`] returns
//! exactly what [`crate::interp::run`] returns); what changes is which
//! (invocation, output slot) pairs are compared. Nothing is compared with a
//! tolerance: a pair is either compared exactly as
//! [`crate::check::compare`] compares (integers bit-exact, floats bit-exact
//! except that two NaNs agree) or not compared at all, with the relaxation
//! that excluded it.
//!
//! Sources (as in `/work/research/spec-facts.md`): **\[VK\]** the Vulkan spec,
//! appendix "Vulkan Environment for SPIR-V", section "Precision and
//! Operation of SPIR-V Instructions" and its subsections "Evaluation of
//! Expressions" and "Precision of Individual Operations" (Correctly Rounded,
//! Inherited From); **\[VK1.3.230\]** the same section at tag `v1.3.230`;
//! **\[SPV\]** SPIR-V 1.6 §2.2.5 "Control Flow" (Tangle, Dynamic Instance,
//! Uniform Control Flow); **\[SPV-SUCF\]** `SPV_KHR_subgroup_uniform_control_flow`;
//! **\[SPV-MR\]** `SPV_KHR_maximal_reconvergence`; **\[GLSL450\]** the
//! GLSL.std.450 instruction descriptions.
//!
//! # How it works
//!
//! The relaxed run watches the interpreter (its `Hook`) and keeps, per lane
//! and value, a *taint*: clean (a conforming driver computes exactly the
//! oracle's value), *NaN bits* (the value is certainly a NaN, its bits are
//! not), *zero sign* (certainly a zero, its sign is not) or *any* (anything).
//! An op's result is tainted by its operands (below) and by its own rules
//! (the relaxations), which look at the actual operand values of the lane.
//! A stored value's taint decides the slot: any taint excludes an integer or
//! boolean slot; a float slot accepts NaN bits (NaNs compare by class) and
//! is excluded by zero sign or any. The last store wins, as for the values.
//!
//! Operands: an op that reads its operands as integers, booleans or raw bits
//! (`iand`, `ieq`, `vote_ieq`, a shift count, a select condition, `i2f`, ...)
//! turns any tainted operand into *any*. An op that reads floats is decided
//! by NaN-ness alone for a NaN operand (the IR defines every float op on a
//! NaN by its class: `fadd` gives the canonical NaN, `flt` false, `fmin`
//! the other operand, `fsat` +0, `f2b` true), so *NaN bits* is clean to it;
//! *zero sign* makes its result *zero sign* when the result is a zero (for
//! our ops the sign of an operand zero only ever decides the sign of a zero
//! result) and clean otherwise. `fneg`, `fabs` and `fsign` are integer
//! operations on the bits (as `spirv/` emits them): `fneg` keeps both soft
//! taints, `fabs` keeps NaN bits and clears zero sign, `fsign` turns NaN
//! bits into any. `bcsel`, phis, `read_first_invocation` and
//! `read_invocation` pass the taint of the value they pick.
//!
//! # The relaxations
//!
//! Each float rule is checked only at float sizes (and for ops) where the
//! [`Guarantees`] do not rule it out, and only on the lane's actual values.
//! How each float op is computed on the device is `spirv/`'s lowering (every
//! value has an integer or boolean SPIR-V type; floats cross the buffers and
//! all selects, phis and subgroup ops as integers): `fadd`/`fsub`/`fmul`
//! are `OpFAdd`/`OpFSub`/`OpFMul` (NoContraction), `ffma` is GLSL.std.450
//! `Fma`, `f2f` is `OpFConvert` (nothing at the same size), each followed by
//! `OpIsNan` + `OpSelect` NaN canonicalization; comparisons and `f2b` are
//! `OpFOrd*`/`OpFUnord*`; `fmin`/`fmax` are ordered compares and `OpIsNan`
//! picking an operand's integer bits; `fsat` is `FClamp` with the sign
//! bit cleared and an `OpIsNan` select; `ffloor`/`fceil`/`ftrunc`/
//! `fround_even` are GLSL.std.450 `Floor`/`Ceil`/`Trunc`/`RoundEven` with
//! the operand's sign bit ORed back and an `OpIsNan` select; `ffract` is
//! `Floor`, `OpFSub`, the sign bit cleared and an `OpIsNan` select;
//! `i2f`/`u2f`/`f2i`/`f2u` are the `OpConvert*` instructions; `fneg`,
//! `fabs`, `fsign` and `b2f` are integer operations. The per-op table is
//! `float::lowering`; if `spirv/` changes how an op is computed, that row
//! changes with it.
//!
//! * **`nan-inf`** ([`Relaxation::NanInf`]). \[VK1.3.230\]/\[VK\] "Precision and
//!   Operation": without `SignedZeroInfNanPreserve` (SZINP) for a width an
//!   implementation may assume operands and results are not NaN or
//!   infinity; with it, only the listed instructions must respect it
//!   (1.3.230: `OpFAdd`, `OpFSub`, `OpFMul`, `OpFConvert`, `OpFNegate` and
//!   the bit-preserving ones; the 1.4 wording adds `OpIsNan`, `OpIsInf` and
//!   the comparisons; GLSL.std.450 instructions and `OpConvertSToF`/
//!   `OpConvertUToF` are on neither list). Excludes: the result of an op
//!   with a NaN or infinite operand or result, where one of the op's
//!   instructions that sees it is not required to respect SZINP. Per op:
//!   `fadd`/`fsub`/`fmul`/`f2f` when SZINP is off at the size; comparisons,
//!   `f2b`, `fmin`/`fmax` also on a pre-1.4 device; `ffma` unless the
//!   guarantees cover every instruction; the rounding ops and `ffract`
//!   with an infinite operand; `fsat` with an infinite operand, and with a
//!   NaN one before 1.4; `i2f`/`u2f` with an infinite result (f16
//!   overflow). [`FloatControlsScope`] says which list applies.
//! * **`signed-zero`** ([`Relaxation::SignedZero`]). Same rule, "ignore the
//!   sign of a zero". Excludes (as *zero sign*, so a later op that turns it
//!   into a non-zero value is clean again): a zero result of `fadd`/`fsub`/
//!   `fmul`/`f2f` without SZINP at the size; of `ffma`, `i2f`/`u2f` unless
//!   the guarantees cover every instruction; of a rounding op whose operand
//!   is positive (the ORed sign bit fixes negative ones; `fsat` and `ffract`
//!   clear the sign, `fmin`/`fmax` pick bits, so their zeros are exact).
//! * **`denorm-flush`** ([`Relaxation::DenormFlush`]). \[VK\] "Precision and
//!   Operation": without `DenormPreserve` any denormal operand or result of
//!   a non-bit-preserving instruction may be flushed to zero (sign not
//!   stated), and a result may be considered denormal whenever the exact
//!   result is non-zero and below the smallest normal; with it, only the
//!   listed instructions must preserve (`Floor`, `Ceil`, `Trunc`,
//!   `RoundEven`, `Fract` are not listed; `Fma`, `FClamp`, `FMin`/`FMax`,
//!   `FSign`, the comparisons and `OpFAdd`/`OpFSub`/`OpFMul`/`OpFConvert`
//!   are). "Inherited From": without DenormPreserve intermediate denormals
//!   may also be flushed. Excludes: an op with a denormal operand when
//!   recomputing it with that operand as +0 or -0 (each combination) can
//!   give another result (so `fadd(denormal, 1.0)` and `f2i` stay clean;
//!   `fmin`/`fmax` are recomputed as selections of the original bits); an
//!   arithmetic result (`fadd`/`fsub`/`fmul`/`ffma`/`f2f`/`fsat`) that is
//!   denormal or whose exact value is tiny; an `ffma` whose exact product
//!   is tiny; `ffract` of a denormal.
//! * **`rounding`** ([`Relaxation::Rounding`]). \[VK\] "Correctly Rounded":
//!   without `RoundingModeRTE` the rounding is implementation-defined:
//!   "either the floating-point value closest to and no less than x or the
//!   value closest to and no greater than x". Excludes: an inexact result of
//!   `fadd`/`fsub`/`fmul`/`f2f`/`i2f`/`u2f`/`ffract` (overflow counts as
//!   inexact) and an `ffma` whose product, unfused sum or fused result is
//!   inexact, at sizes without RTE.
//! * **`ffma-fusion`** ([`Relaxation::FfmaFusion`]). \[VK\] "Precision of
//!   GLSL.std.450 Instructions": `fma()` is "Inherited from OpFMul followed
//!   by OpFAdd"; "Inherited From": the result must be within E = max |x -
//!   F| of the exact x, F ranging over the formula's values, and "if NaN is
//!   one of the permitted values then the operation may return any result".
//!   With RTE the unfused formula has one value u, so the result is the
//!   fused one exactly when u equals it and x is not halfway between two
//!   neighbours. Excludes: an `ffma` whose fused and unfused results differ,
//!   whose exact result is a tie, or where a NaN or infinity appears
//!   (operands, fused or unfused result).
//! * **`nan-bits`** ([`Relaxation::NanBits`]). \[VK\] "Precision and
//!   Operation": NaN payloads are never specified; `spirv/` canonicalizes
//!   NaN results with `OpIsNan` + `OpSelect`, and `OpIsNan` must respect
//!   SZINP only in the 1.4 wording. Excludes (as *NaN bits*): a NaN result of
//!   `fadd`/`fsub`/`fmul`/`f2f`/`ffract` (and `ffma` on a target that fuses
//!   it), whose NaN-ness is guaranteed but whose canonicalization is not:
//!   SZINP is off at the size or the device is pre-1.4
//!   ([`Guarantees::is_nan_exact`]). A float slot still compares it (as a
//!   NaN); integer readers and integer slots do not.
//! * **`tangle`** ([`Relaxation::Tangle`]). \[SPV\] §2.2.5: tangled
//!   instructions (subgroup ops) see the invocations executing the same
//!   dynamic instance; the only reconvergence is at the merge of a
//!   construct entered in uniform control flow (all invocations of the
//!   **workgroup**) that every invocation leaves through that merge.
//!   \[SPV-SUCF\] extends it to each subgroup; \[SPV-MR\] makes the IR's
//!   maximal model the spec's. Excludes: every result of a subgroup op
//!   (`ballot`, `vote_*`, `read_*`, `elect`) executed where control flow is
//!   not uniform for the [`Reconvergence`] scope (below).
//!
//! # Control flow
//!
//! A lane whose `if` condition is tainted (a loop exit is a `break` under an
//! `if`) becomes *control-tainted* with the condition's cause: every later
//! store of that lane is excluded, and so is every slot a store reachable
//! from that `if` could write (the driver may take the other arm, run the
//! loop longer or shorter). Until the construct that bounds its path is
//! left (the `if`, or the innermost loop when the `if` contains a `break` or
//! `continue`) its presence is uncertain: the values it defines are *any*,
//! so are the phis where it rejoins, and every subgroup op of its subgroup
//! is *any* for all lanes. Other lanes are not affected otherwise.
//!
//! Uniform control flow, for `Reconvergence::WorkgroupUniform` (scope: all
//! invocations of the dispatch, which is one workgroup) and
//! `SubgroupUniform` (scope: the subgroup): the entry is uniform; inside an
//! `if` it stays uniform when every invocation of the scope that reaches
//! this dynamic instance takes the same arm and no condition is tainted;
//! after the `if` it is uniform again when it was on entry and no
//! invocation left the `if` by `break`/`continue` (or may have); the first
//! iteration of a loop is uniform when the loop was entered so; a later one
//! when the one before was and no invocation left the loop in it, all
//! invocations reached the next iteration from the same block (no
//! reconvergence at the continue target is promised), and no lane's path in
//! it was uncertain; after a loop (every invocation leaves through its
//! merge) it is as on entry. Dynamic instances are keyed by the `if`/loop
//! and the iteration counts of the enclosing loops; the interpreter runs
//! subgroups one after another, so decisions are first recorded for every
//! subgroup and the run is repeated with them (until the records no longer
//! change, as a result that becomes tainted can taint a later decision).
//!
//! # What is conservative, and why
//!
//! * A control-tainted lane's stores stay excluded after it rejoins: its
//!   later values may depend on its path through phis, and telling which do
//!   is not worth a second data-flow analysis.
//! * A lane of uncertain presence taints every subgroup op of its subgroup,
//!   inactive or not (it may be active on the device).
//! * The tiny-result test uses the exact result (as the 1.4 wording allows);
//!   1.3.230 only speaks of denormal results.
//! * `ffract` of a denormal is always excluded (two instructions may flush);
//!   an `ffma` is excluded for `rounding` when any of its three roundings is
//!   inexact.
//! * Rules about which instructions respect SZINP/DenormPreserve follow the
//!   lists of the spec version in [`FloatControlsScope`]; "other
//!   instructions may also respect" is never relied on.
//! * A subgroup op reading a tainted value in any active lane (`ballot`,
//!   `vote_*`) taints every lane's result; `read_first_invocation` and
//!   `read_invocation` take the picked lane's taint (the active set itself
//!   is covered by `tangle` and by uncertain presence).

mod exact;
mod float;
mod shape;
mod taint;
mod tracker;
mod uniform;

use crate::interp::{run_hooked, InterpConfig, InterpError, Outputs};
use ir::{Dispatch, Program};
use std::fmt;

/// Which float-controls modes are in force for one float width (declared by
/// the exported module because the device supports them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatGuarantees {
    /// `DenormPreserve`: the listed instructions keep denormal operands and
    /// results.
    pub denorm_preserve: bool,
    /// `SignedZeroInfNanPreserve`: the listed instructions respect NaNs,
    /// infinities and the sign of zero.
    pub signed_zero_inf_nan_preserve: bool,
    /// `RoundingModeRTE`: correctly rounded instructions round to nearest
    /// even.
    pub rounding_rte: bool,
}

impl FloatGuarantees {
    /// Every mode.
    pub const ALL: FloatGuarantees = FloatGuarantees {
        denorm_preserve: true,
        signed_zero_inf_nan_preserve: true,
        rounding_rte: true,
    };
    /// No mode.
    pub const NONE: FloatGuarantees = FloatGuarantees {
        denorm_preserve: false,
        signed_zero_inf_nan_preserve: false,
        rounding_rte: false,
    };
}

/// Which instructions must respect the float-controls modes: the list of
/// the spec version the device is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatControlsScope {
    /// Vulkan 1.3.230 and earlier 1.2/1.3: SZINP binds `OpFAdd`, `OpFSub`,
    /// `OpFMul`, `OpFConvert`, `OpFNegate` and the bit-preserving
    /// instructions only (not `OpIsNan` nor the comparisons).
    Vulkan13,
    /// Vulkan 1.4: the list adds `OpIsNan`, `OpIsInf`, `OpFDiv` and the
    /// comparisons. GLSL.std.450 instructions and integer-to-float
    /// conversions are still not on it.
    Vulkan14,
    /// Every instruction (the model target; no Vulkan device).
    Every,
}

/// Which reconvergence the device guarantees for subgroup ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reconvergence {
    /// Base Vulkan: \[SPV\] uniform control flow over the workgroup.
    WorkgroupUniform,
    /// `VK_KHR_shader_subgroup_uniform_control_flow`: the same per subgroup.
    SubgroupUniform,
    /// `VK_KHR_shader_maximal_reconvergence`: the interpreter's lockstep
    /// model is the spec's.
    Maximal,
}

/// What a target guarantees, set by the caller from the device's properties
/// and the modes the exported module declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guarantees {
    /// 16-bit floats.
    pub f16: FloatGuarantees,
    /// 32-bit floats.
    pub f32: FloatGuarantees,
    /// 64-bit floats.
    pub f64: FloatGuarantees,
    /// Which instructions the modes bind (from the device's API version).
    pub scope: FloatControlsScope,
    /// `ffma` is computed fused with one rounding (the model; GLSL.std.450
    /// `Fma` only inherits the precision of a multiply and an add).
    pub fma_fused: bool,
    /// The reconvergence guarantee.
    pub reconvergence: Reconvergence,
}

impl Guarantees {
    /// The model target: everything exact. A relaxed run under these
    /// guarantees excludes nothing.
    pub fn exact() -> Guarantees {
        Guarantees {
            f16: FloatGuarantees::ALL,
            f32: FloatGuarantees::ALL,
            f64: FloatGuarantees::ALL,
            scope: FloatControlsScope::Every,
            fma_fused: true,
            reconvergence: Reconvergence::Maximal,
        }
    }

    /// A Vulkan device reporting `apiVersion` `major.minor`, with these
    /// modes in force per width. The 1.4 SZINP list (with `OpIsNan` and the
    /// comparisons) binds only a device that reports 1.4 or later: a 1.3
    /// driver is held to the 1.3 text, which leaves them out.
    pub fn vulkan(
        major: u32,
        minor: u32,
        [f16, f32, f64]: [FloatGuarantees; 3],
        reconvergence: Reconvergence,
    ) -> Guarantees {
        let scope = if (major, minor) >= (1, 4) {
            FloatControlsScope::Vulkan14
        } else {
            FloatControlsScope::Vulkan13
        };
        Guarantees {
            f16,
            f32,
            f64,
            scope,
            fma_fused: false,
            reconvergence,
        }
    }

    /// The modes of a float width (16, 32 or 64).
    pub fn float(&self, bits: u8) -> FloatGuarantees {
        match bits {
            16 => self.f16,
            32 => self.f32,
            _ => self.f64,
        }
    }

    /// Whether NaN bits made by `OpIsNan` + `OpSelect` canonicalization at
    /// a width can be trusted: SZINP is in force and `OpIsNan` must respect
    /// it (the 1.4 list).
    pub fn is_nan_exact(&self, bits: u8) -> bool {
        self.binds(FloatControlsScope::Vulkan14, &[bits])
    }

    /// Whether SZINP binds an instruction on the list of `level` at every
    /// width in `widths`.
    fn binds(&self, level: FloatControlsScope, widths: &[u8]) -> bool {
        self.scope >= level
            && widths
                .iter()
                .all(|&b| self.float(b).signed_zero_inf_nan_preserve)
    }
}

macro_rules! relaxations {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, )*) => {
        /// A documented reason a conforming driver may compute an output
        /// differently (the module doc gives each rule and what it excludes).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Relaxation { $( $(#[$doc])* $variant ),* }

        impl Relaxation {
            /// Every relaxation, in order.
            pub const ALL: &'static [Relaxation] = &[$(Relaxation::$variant),*];

            /// The stable short name.
            pub const fn name(self) -> &'static str {
                match self { $(Relaxation::$variant => $name),* }
            }
        }
    };
}

relaxations! {
    /// \[VK\] "Precision and Operation of SPIR-V Instructions": a NaN or
    /// infinite operand or result of an instruction not bound by
    /// `SignedZeroInfNanPreserve` may give any value.
    NanInf = "nan-inf",
    /// \[VK\] "Precision and Operation of SPIR-V Instructions": an
    /// instruction not bound by `SignedZeroInfNanPreserve` may ignore the
    /// sign of a zero.
    SignedZero = "signed-zero",
    /// \[VK\] "Precision and Operation of SPIR-V Instructions": without
    /// `DenormPreserve` (or for unlisted instructions) denormal operands,
    /// results and tiny exact results may be flushed to zero.
    DenormFlush = "denorm-flush",
    /// \[VK\] "Correctly Rounded": without `RoundingModeRTE` an inexact
    /// result may round to either neighbour.
    Rounding = "rounding",
    /// \[VK\] "Precision of GLSL.std.450 Instructions" and "Inherited From":
    /// `Fma` inherits from `OpFMul` then `OpFAdd`; fused and unfused
    /// results, ties, and NaNs in the formula.
    FfmaFusion = "ffma-fusion",
    /// \[VK\] "Precision and Operation of SPIR-V Instructions": NaN bits are
    /// unspecified and `OpIsNan` canonicalization is not bound before 1.4.
    NanBits = "nan-bits",
    /// \[SPV\] §2.2.5 (and \[SPV-SUCF\]): a subgroup op outside uniform control
    /// flow may see another set of invocations.
    Tangle = "tangle",
}

impl Relaxation {
    fn index(self) -> usize {
        self as usize
    }

    fn from_index(i: usize) -> Relaxation {
        Relaxation::ALL[i]
    }
}

impl fmt::Display for Relaxation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many (invocation, slot) pairs each relaxation excluded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RelaxCounts {
    counts: [u32; 7],
}

impl RelaxCounts {
    /// The count of one relaxation.
    pub fn get(&self, r: Relaxation) -> u32 {
        self.counts[r.index()]
    }

    /// Counts one more pair.
    pub fn add(&mut self, r: Relaxation) {
        self.counts[r.index()] += 1;
    }

    /// All pairs counted.
    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Nothing counted.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
}

/// `tangle 12, denorm-flush 3`: the non-zero counts, largest first (ties in
/// table order); empty when nothing was excluded.
impl fmt::Display for RelaxCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut v: Vec<(u32, usize)> = (0..self.counts.len())
            .filter(|&i| self.counts[i] > 0)
            .map(|i| (self.counts[i], i))
            .collect();
        v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (k, (n, i)) in v.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} {n}", Relaxation::from_index(*i))?;
        }
        Ok(())
    }
}

/// Per invocation and output slot: comparable, or the relaxation that
/// excludes it (the first cause).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Exclusions {
    /// Output slots per invocation.
    pub slots: usize,
    /// Number of invocations.
    pub invocations: u32,
    /// Row-major like [`Outputs::values`]: `None` = compared.
    pub causes: Vec<Option<Relaxation>>,
}

impl Exclusions {
    /// Nothing excluded.
    pub fn none(invocations: u32, slots: usize) -> Exclusions {
        Exclusions {
            slots,
            invocations,
            causes: vec![None; invocations as usize * slots],
        }
    }

    /// Why one invocation's slot is not compared, if it is not.
    pub fn get(&self, inv: u32, slot: usize) -> Option<Relaxation> {
        self.causes[inv as usize * self.slots + slot]
    }

    /// The number of excluded pairs per relaxation.
    pub fn counts(&self) -> RelaxCounts {
        let mut c = RelaxCounts::default();
        for r in self.causes.iter().flatten() {
            c.add(*r);
        }
        c
    }

    /// Whether every pair is compared.
    pub fn is_empty(&self) -> bool {
        self.causes.iter().all(Option::is_none)
    }
}

/// Runs `program` over `dispatch` like [`crate::interp::run`] (the same
/// outputs, always) and says which outputs a driver with guarantees `g` must
/// match exactly.
pub fn run_relaxed(
    program: &Program,
    dispatch: &Dispatch,
    config: &InterpConfig,
    g: &Guarantees,
) -> Result<(Outputs, Exclusions), InterpError> {
    ir::validate(program)?;
    let shape = shape::Shape::of(program);
    let mut t = tracker::Tracker::new(program, dispatch.invocations, config.simd, g, &shape);
    loop {
        let outputs = run_hooked(program, dispatch, config, &mut t)?;
        if !t.next_pass() {
            return Ok((outputs, t.exclusions()));
        }
    }
}
