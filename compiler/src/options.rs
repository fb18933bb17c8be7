//! Compile options: the boolean strategy, the SIMD width and the pass set.

use crate::bugs::BugSet;
use crate::passes::PassSet;
use std::fmt;
use std::str::FromStr;

/// How booleans are represented (seed 001), chosen per compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// Every boolean is a 32-bit 0/~0 value (Mesa's nir_lower_bool_to_int32).
    Bool32,
    /// Every boolean is 16-bit, packed a word per lane (idea 1 of the 2019
    /// thread).
    Bool16,
    /// Each boolean keeps its comparison's width; widths are reconciled where
    /// they meet, as nir_lower_bool_to_bitsize does (idea 2).
    Native,
    /// Booleans live in flag subregisters and are combined with flag logic
    /// (idea 3); materialized in a GRF only where a value is needed.
    Flag,
    /// As `Native`, but where widths meet the combination is done at the
    /// smallest width, reading wider booleans through a strided down-cast
    /// (the variant the 2019 thread proposes beside the first-operand rule).
    NativeMin,
    /// Every boolean is 8-bit, packed a byte per lane, where the EU allows
    /// bytes (the 2019 series' 8-bit booleans, on Gfx11's rules).
    Bool8,
    /// The vec4 backend (seed 002): Align16 code dispatched SIMD4x2, every
    /// value a component of a vec4 register, booleans 32-bit 0/~0
    /// components, flags tracked per component.
    Vec4,
}

impl Strategy {
    /// What the strategy does, in a line (for the README and `--help`).
    pub const fn doc(self) -> &'static str {
        match self {
            Strategy::Bool32 => "every boolean is a 32-bit 0/~0 value, the baseline (nir_lower_bool_to_int32)",
            Strategy::Bool16 => "every boolean is a 16-bit 0/~0 value, packed a word per lane (idea 1 of the 2019 thread)",
            Strategy::Native => "each boolean keeps its comparison's width; mixed widths are converted to the first operand's width (nir_lower_bool_to_bitsize, idea 2)",
            Strategy::Flag => "booleans live in flag subregisters and are combined with flag logic, materialized in a GRF only where a value is needed (idea 3)",
            Strategy::NativeMin => "as native, but mixed widths are combined at the smallest width, reading a 32-bit boolean's low word through a strided region instead of converting it (the thread's variant of idea 2)",
            Strategy::Bool8 => "every boolean is an 8-bit 0/~0 value, packed a byte per lane where Gfx11 allows bytes: packed only by a raw MOV, never a two-source instruction's second operand, so logic runs on words (the 2019 series' 8-bit booleans)",
            Strategy::Vec4 => "the vec4 backend (seed 002): Align16 code dispatched SIMD4x2, each value a component of a vec4 register, booleans 32-bit 0/~0 components whose flags are tracked per component; 32-bit programs without cross-invocation ops only",
        }
    }

    /// Whether a boolean keeps the width of the comparison that made it
    /// (so widths must be reconciled where booleans meet).
    pub const fn keeps_comparison_width(self) -> bool {
        match self {
            Strategy::Native | Strategy::NativeMin => true,
            Strategy::Bool32
            | Strategy::Bool16
            | Strategy::Flag
            | Strategy::Bool8
            | Strategy::Vec4 => false,
        }
    }

    /// Whether booleans live in flag subregisters where they can.
    pub const fn keeps_booleans_in_flags(self) -> bool {
        match self {
            Strategy::Flag => true,
            Strategy::Bool32
            | Strategy::Bool16
            | Strategy::Native
            | Strategy::NativeMin
            | Strategy::Bool8
            | Strategy::Vec4 => false,
        }
    }

    /// Whether the strategy is the vec4 backend's (Align16, SIMD4x2).
    pub const fn is_vec4(self) -> bool {
        matches!(self, Strategy::Vec4)
    }

    /// The backend that compiles under this strategy.
    pub const fn backend(self) -> Backend {
        if self.is_vec4() {
            Backend::Vec4
        } else {
            Backend::Scalar
        }
    }

    /// The width the simulator dispatches code of this strategy at, for a
    /// compile at `simd`: SIMD4x2 for vec4.
    pub const fn dispatch_simd(self, simd: u32) -> u32 {
        if self.is_vec4() {
            eu::abi::SIMD4X2
        } else {
            simd
        }
    }

    /// The machine code of this strategy is validated and run on.
    pub const fn machine(self) -> eu::MachineConfig {
        if self.is_vec4() {
            eu::MachineConfig::VEC4
        } else {
            eu::MachineConfig::GFX11
        }
    }

    /// Every strategy, baseline first.
    pub const ALL: [Strategy; 7] = [
        Strategy::Bool32,
        Strategy::Bool16,
        Strategy::Native,
        Strategy::Flag,
        Strategy::NativeMin,
        Strategy::Bool8,
        Strategy::Vec4,
    ];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Bool32 => "bool32",
            Strategy::Bool16 => "bool16",
            Strategy::Native => "native",
            Strategy::Flag => "flag",
            Strategy::NativeMin => "native-min",
            Strategy::Bool8 => "bool8",
            Strategy::Vec4 => "vec4",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Strategy::ALL.iter().map(|x| x.name()).collect();
                format!(
                    "unknown strategy `{s}` (expected one of {})",
                    names.join(", ")
                )
            })
    }
}

/// Which backend compiles: Mesa's scalar (fs) backend under one of its
/// boolean strategies, or the vec4 backend ([`Strategy::Vec4`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The scalar backend: SIMD8/16/32 Align1 code.
    Scalar,
    /// The vec4 backend: Align16 code dispatched SIMD4x2.
    Vec4,
}

impl Backend {
    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Vec4 => "vec4",
        }
    }

    /// The strategies of the backend, baseline first.
    pub fn strategies(self) -> Vec<Strategy> {
        Strategy::ALL
            .into_iter()
            .filter(|s| s.is_vec4() == (self == Backend::Vec4))
            .collect()
    }
}

impl FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Backend, String> {
        match s {
            "scalar" => Ok(Backend::Scalar),
            "vec4" => Ok(Backend::Vec4),
            _ => Err(format!("unknown backend `{s}` (expected scalar or vec4)")),
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that selects one compile of a program.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    /// Boolean representation.
    pub strategy: Strategy,
    /// Dispatch width: 8, 16 or 32.
    pub simd: u32,
    /// Which optimization passes run.
    pub passes: PassSet,
    /// Injected bugs (none for the compiler as it should be).
    pub bugs: BugSet,
}

impl CompileOptions {
    /// Options with no injected bugs.
    pub fn new(strategy: Strategy, simd: u32, passes: PassSet) -> CompileOptions {
        CompileOptions {
            strategy,
            simd,
            passes,
            bugs: BugSet::NONE,
        }
    }

    /// The same options with bugs injected.
    pub fn with_bugs(mut self, bugs: BugSet) -> CompileOptions {
        self.bugs = bugs;
        self
    }
}
