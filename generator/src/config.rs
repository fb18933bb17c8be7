//! The generator's knobs, each defined once in the `knobs!` table below:
//! its type, default, hard bounds, how swarm testing varies it per case and
//! what the `arbitrary` form draws, and its doc. From that one row come the
//! `Config` struct and its JSON form (`farm gen --config FILE`), the
//! defaults, [`Config::check`], the per-case swarm draw
//! ([`Config::features`]), the `Arbitrary` implementation (random configs
//! for libFuzzer drivers) and [`knobs()`], the list the README's knob table
//! is checked against.

use crate::entropy::Entropy;
use arbitrary::Unstructured;
use ir::op::{Op, OpClass};
use serde::{Deserialize, Serialize};

/// How swarm testing varies a knob from case to case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swarm {
    /// The same for every case.
    Fixed,
    /// A flag that stays on with probability 3/4 where the config has it on.
    Keep,
    /// A number drawn uniformly from `lo..=value` per case.
    UpTo(u32),
    /// Sizes: 32 always, each other size with probability 2/3.
    SomeSizes,
}

/// One knob's behaviour: what values are legal, how swarm varies it and
/// what the `arbitrary` form draws.
pub trait Knob<T> {
    /// Checks a value; the error names the knob and its limit.
    fn check(&self, name: &str, value: &T) -> Result<(), String>;
    /// How swarm testing varies it.
    fn swarm(&self) -> Swarm;
    /// Narrows a value for one case under swarm testing.
    fn narrow(&self, value: &mut T, e: &mut dyn Entropy);
    /// A random value for a fuzzer-made config (`default` is the knob's default).
    fn arbitrary(&self, u: &mut Unstructured<'_>, default: &T) -> arbitrary::Result<T>;
    /// The legal values, for the README's knob table.
    fn bounds(&self) -> String;
}

/// An on/off knob.
pub struct Flag {
    /// How swarm treats it: [`Swarm::Fixed`] or [`Swarm::Keep`].
    pub swarm: Swarm,
}

impl Knob<bool> for Flag {
    fn check(&self, _: &str, _: &bool) -> Result<(), String> {
        Ok(())
    }
    fn swarm(&self) -> Swarm {
        self.swarm
    }
    fn narrow(&self, value: &mut bool, e: &mut dyn Entropy) {
        if self.swarm == Swarm::Keep {
            *value = *value && e.chance(3, 4);
        }
    }
    fn arbitrary(&self, u: &mut Unstructured<'_>, _: &bool) -> arbitrary::Result<bool> {
        u.arbitrary()
    }
    fn bounds(&self) -> String {
        "true, false".into()
    }
}

/// A number with hard bounds.
pub struct Count {
    /// The smallest legal value.
    pub min: u32,
    /// The largest legal value: beyond it a case would not fit the
    /// simulator's or the IR's tables in reasonable time and memory.
    pub max: u32,
    /// How swarm treats it: [`Swarm::Fixed`] or [`Swarm::UpTo`].
    pub swarm: Swarm,
    /// The `arbitrary` form draws from `min..=default` (else `min..=max`).
    pub fuzz_up_to_default: bool,
}

impl Knob<u32> for Count {
    fn check(&self, name: &str, value: &u32) -> Result<(), String> {
        if (self.min..=self.max).contains(value) {
            Ok(())
        } else {
            Err(format!(
                "{name} must be in {}..={}, not {value}",
                self.min, self.max
            ))
        }
    }
    fn swarm(&self) -> Swarm {
        self.swarm
    }
    fn narrow(&self, value: &mut u32, e: &mut dyn Entropy) {
        if let Swarm::UpTo(lo) = self.swarm {
            *value = e.range(lo as u64, (*value).max(lo) as u64) as u32;
        }
    }
    fn arbitrary(&self, u: &mut Unstructured<'_>, default: &u32) -> arbitrary::Result<u32> {
        let hi = if self.fuzz_up_to_default {
            (*default).max(self.min)
        } else {
            self.max
        };
        u.int_in_range(self.min..=hi)
    }
    fn bounds(&self) -> String {
        format!("{}..={}", self.min, self.max)
    }
}

/// A percentage, 0..=100, varied by swarm between 0 and its value.
const PERCENT: Count = Count {
    min: 0,
    max: 100,
    swarm: Swarm::UpTo(0),
    fuzz_up_to_default: false,
};

/// A list of op names (`ops`).
pub struct OpNames;

impl Knob<Vec<String>> for OpNames {
    fn check(&self, name: &str, value: &Vec<String>) -> Result<(), String> {
        for op in value {
            match Op::from_name(op) {
                Some(o) if matches!(o.info().class, OpClass::Alu | OpClass::Subgroup) => {}
                _ => return Err(format!("{name}: `{op}` is not an ALU or subgroup op")),
            }
        }
        Ok(())
    }
    fn swarm(&self) -> Swarm {
        // The op set is narrowed when it is resolved ([`Config::features`]).
        Swarm::Fixed
    }
    fn narrow(&self, _: &mut Vec<String>, _: &mut dyn Entropy) {}
    fn arbitrary(
        &self,
        _: &mut Unstructured<'_>,
        _: &Vec<String>,
    ) -> arbitrary::Result<Vec<String>> {
        Ok(vec![])
    }
    fn bounds(&self) -> String {
        "ALU and subgroup op names; empty = all".into()
    }
}

/// A set of value sizes (`bit_sizes`).
pub struct Sizes;

impl Knob<Vec<u8>> for Sizes {
    fn check(&self, name: &str, value: &Vec<u8>) -> Result<(), String> {
        for &b in value {
            if !matches!(b, 8 | 16 | 32 | 64) {
                return Err(format!("{name}: {b} is not one of 8, 16, 32, 64"));
            }
        }
        if !value.contains(&32) {
            return Err(format!(
                "{name} must contain 32 (loop counters and shift counts are 32-bit)"
            ));
        }
        Ok(())
    }
    fn swarm(&self) -> Swarm {
        Swarm::SomeSizes
    }
    fn narrow(&self, value: &mut Vec<u8>, e: &mut dyn Entropy) {
        value.retain(|&b| b == 32 || e.chance(2, 3));
    }
    fn arbitrary(&self, u: &mut Unstructured<'_>, _: &Vec<u8>) -> arbitrary::Result<Vec<u8>> {
        let mut v = vec![32];
        for b in [8u8, 16, 64] {
            if u.arbitrary()? {
                v.push(b);
            }
        }
        Ok(v)
    }
    fn bounds(&self) -> String {
        "a subset of 8, 16, 32, 64 holding 32".into()
    }
}

/// One knob as listed in [`KNOBS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnobInfo {
    /// The field and JSON name.
    pub name: &'static str,
    /// What it does.
    pub doc: &'static str,
    /// Its default (as Rust prints it, which is also its JSON form).
    pub default: String,
    /// Its legal values.
    pub bounds: String,
    /// How swarm testing varies it.
    pub swarm: Swarm,
}

macro_rules! knobs {
    ($( $(#[doc = $doc:literal])+ $name:ident: $ty:ty = $default:expr, $knob:expr; )*) => {
        /// Generator settings. Every field has a default, so a JSON file may
        /// give only the fields it changes.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Config {
            $( $(#[doc = $doc])+ pub $name: $ty, )*
        }

        impl Default for Config {
            fn default() -> Config {
                Config { $( $name: $default, )* }
            }
        }

        /// Every knob, in the order of the struct (and of the swarm draw).
        pub fn knobs() -> Vec<KnobInfo> {
            vec![$(
                KnobInfo {
                    name: stringify!($name),
                    doc: concat!($($doc),+),
                    default: format!("{:?}", { let d: $ty = $default; d }),
                    bounds: Knob::<$ty>::bounds(&$knob),
                    swarm: Knob::<$ty>::swarm(&$knob),
                },
            )*]
        }

        impl Config {
            /// Checks every knob against its own bounds.
            fn check_knobs(&self) -> Result<(), String> {
                $( Knob::<$ty>::check(&$knob, stringify!($name), &self.$name)?; )*
                Ok(())
            }

            /// Narrows every knob for one case, in struct order.
            fn narrow_knobs(&mut self, e: &mut dyn Entropy) {
                $( Knob::<$ty>::narrow(&$knob, &mut self.$name, e); )*
            }

            /// Draws every knob for a fuzzer-made config, in struct order.
            fn arbitrary_knobs(u: &mut Unstructured<'_>) -> arbitrary::Result<Config> {
                Ok(Config { $( $name: Knob::<$ty>::arbitrary(&$knob, u, &$default)?, )* })
            }
        }
    };
}

// The order matters: swarm narrows the knobs in this order (after drawing
// the instruction target and the op set), so reordering rows changes every
// generated case.
knobs! {
    /// Draw a random feature set per case (swarm testing) within these limits.
    swarm: bool = true, Flag { swarm: Swarm::Fixed };
    /// Fewest ALU/subgroup instructions to aim for.
    min_instrs: u32 = 8, Count { min: 0, max: 10_000, swarm: Swarm::Fixed, fuzz_up_to_default: true };
    /// Most ALU/subgroup instructions to aim for.
    max_instrs: u32 = 60, Count { min: 1, max: 10_000, swarm: Swarm::Fixed, fuzz_up_to_default: true };
    /// Generate subgroup (cross-invocation) ops.
    subgroup: bool = true, Flag { swarm: Swarm::Fixed };
    /// Ops that may be generated, by name; empty means every op.
    ops: Vec<String> = vec![], OpNames;
    /// Bit sizes of values (from 8, 16, 32, 64; booleans always exist).
    bit_sizes: Vec<u8> = vec![8, 16, 32, 64], Sizes;
    /// Deepest nesting of ifs and loops.
    max_depth: u32 = 3, Count { min: 0, max: 16, swarm: Swarm::UpTo(0), fuzz_up_to_default: true };
    /// Largest loop trip count.
    max_trip: u32 = 6, Count { min: 1, max: 64, swarm: Swarm::UpTo(1), fuzz_up_to_default: true };
    /// Generate ifs.
    ifs: bool = true, Flag { swarm: Swarm::Keep };
    /// Generate loops.
    loops: bool = true, Flag { swarm: Swarm::Keep };
    /// Generate extra breaks and continues inside loop bodies.
    jumps: bool = true, Flag { swarm: Swarm::Keep };
    /// Most input slots.
    max_inputs: u32 = 4, Count { min: 0, max: 64, swarm: Swarm::Fixed, fuzz_up_to_default: true };
    /// Most uniform slots.
    max_uniforms: u32 = 2, Count { min: 0, max: 64, swarm: Swarm::Fixed, fuzz_up_to_default: true };
    /// Most output slots.
    max_outputs: u32 = 4, Count { min: 1, max: 64, swarm: Swarm::Fixed, fuzz_up_to_default: true };
    /// Fewest invocations.
    min_invocations: u32 = 1, Count { min: 1, max: 1024, swarm: Swarm::Fixed, fuzz_up_to_default: false };
    /// Most invocations.
    max_invocations: u32 = 70, Count { min: 1, max: 1024, swarm: Swarm::Fixed, fuzz_up_to_default: true };
    /// Percentage of input values and constants drawn from edge values.
    edge_percent: u32 = 60, PERCENT;
    /// Percentage of two-operand ops (arithmetic, logic, comparisons) that
    /// reuse the operands of a recent one, sometimes swapped or with one
    /// negated: `a - b` next to `a < b`, `a * b` next to `-a * b`. The
    /// optimizer's cmod propagation and CSE only act on such shared operands.
    echo_percent: u32 = 20, PERCENT;
    /// Percentage of two-operand ops (without a guard) followed right away
    /// by a twin: the same op on the same operands, a quarter of the time
    /// swapped and a third of the time with the first negated, clamped with
    /// `fsat` when the first was; for a float subtraction, three times in
    /// four a comparison of its operands instead (half of those `flt`),
    /// which mostly selects a value at once. These are the pairs CSE
    /// merges or must refuse (`sat(a * b)` next to `sat(-a * b)`), and the
    /// `a - b` next to `a < b` that cmod propagation folds. As often, a cross-invocation op of a loop's
    /// header is repeated after the loop on the same operands: the same op
    /// under another execution mask, which nothing may merge (seed 004).
    twin_percent: u32 = 20, PERCENT;
    /// Percentage of float arithmetic results wrapped in `fsat` (the EU's
    /// `.sat` modifier, which saturate propagation moves around).
    sat_percent: u32 = 25, PERCENT;
    /// Percentage of if conditions made fresh from a comparison just before
    /// the if, half of them negated with `inot` (`if (!(a < b))`).
    fresh_condition_percent: u32 = 30, PERCENT;
    /// Most ops in a loop's header, before its exit test. They dominate the
    /// exit, so code after the loop reads each lane's value from the
    /// iteration that lane left in.
    max_header_ops: u32 = 2, Count { min: 0, max: 8, swarm: Swarm::UpTo(0), fuzz_up_to_default: true };
    /// Generate helper invocations (seed 004) in divergent control flow:
    /// `demote`, `terminate` (where quads stay whole if the case has quad
    /// ops) and `is_helper_invocation`. A model-only feature: SPIR-V allows them in
    /// fragment shaders only, so a driver campaign turns it off.
    helpers: bool = true, Flag { swarm: Swarm::Keep };
    /// Percentage of fresh if conditions that combine two comparisons of
    /// one op with `ior` or `iand` (`a < b || c < d`, GLSL's
    /// `any(lessThan(v, w))`), both made after their operands: the vec4
    /// backend packs such a pair and tests it with `.any4h`/`.all4h`. Not
    /// varied by swarm, and 0 by default so that the cases of a config
    /// without it stay as they were; the vec4 profile turns it on.
    combined_condition_percent: u32 = 0, Count { min: 0, max: 100, swarm: Swarm::Fixed, fuzz_up_to_default: false };
}

/// The features one case uses: the config narrowed by the swarm draw, the
/// op set it resolves to, and the instruction target.
#[derive(Clone, Debug)]
pub struct Features {
    /// The knobs for this case (narrowed under swarm testing).
    pub knobs: Config,
    /// Enabled ops (ALU and subgroup ops only).
    pub ops: Vec<Op>,
    /// Target instruction count.
    pub instrs: u32,
}

impl Config {
    /// Checks the config: every knob within its bounds, and the knobs that
    /// constrain each other; the error names the knob.
    pub fn check(&self) -> Result<(), String> {
        self.check_knobs()?;
        if self.min_instrs > self.max_instrs {
            return Err("min_instrs must not exceed max_instrs".into());
        }
        if self.min_invocations > self.max_invocations {
            return Err("min_invocations must not exceed max_invocations".into());
        }
        Ok(())
    }

    /// Leaves `drop` out of the ops this config allows (naming the rest
    /// explicitly); returns the ops that were allowed and now are not.
    pub fn drop_ops(&mut self, drop: &[Op]) -> Vec<Op> {
        let allowed = self.allowed_ops();
        let dropped: Vec<Op> = allowed
            .iter()
            .copied()
            .filter(|op| drop.contains(op))
            .collect();
        if !dropped.is_empty() {
            self.ops = allowed
                .iter()
                .filter(|op| !drop.contains(op))
                .map(|op| op.name().to_string())
                .collect();
        }
        dropped
    }

    /// The ops this config allows.
    fn allowed_ops(&self) -> Vec<Op> {
        Op::all()
            .filter(|op| matches!(op.info().class, OpClass::Alu | OpClass::Subgroup))
            .filter(|op| self.subgroup || op.info().class != OpClass::Subgroup)
            .filter(|op| self.ops.is_empty() || self.ops.iter().any(|n| n == op.name()))
            .collect()
    }

    /// The features of one case: all of the config, or a swarm subset
    /// (each op in with probability 3/4, at least one, then every knob
    /// narrowed in table order).
    pub fn features(&self, e: &mut dyn Entropy) -> Features {
        let all_ops = self.allowed_ops();
        let instrs = e.range(self.min_instrs as u64, self.max_instrs as u64) as u32;
        let mut knobs = self.clone();
        if !self.swarm {
            return Features {
                knobs,
                ops: all_ops,
                instrs,
            };
        }
        let mut ops: Vec<Op> = all_ops.iter().copied().filter(|_| e.chance(3, 4)).collect();
        if ops.is_empty() {
            ops = all_ops;
        }
        knobs.narrow_knobs(e);
        Features { knobs, ops, instrs }
    }
}

impl<'a> arbitrary::Arbitrary<'a> for Config {
    /// A random config: each knob drawn as its row says, then the pairs that
    /// constrain each other put in order (for libFuzzer drivers).
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let mut c = Config::arbitrary_knobs(u)?;
        c.min_instrs = c.min_instrs.min(c.max_instrs);
        c.min_invocations = c.min_invocations.min(c.max_invocations);
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_check() {
        assert_eq!(Config::default().check(), Ok(()));
    }

    #[test]
    fn json_form_round_trips_and_fills_defaults() {
        let c: Config = serde_json::from_str(r#"{"max_instrs": 10, "loops": false}"#).unwrap();
        assert_eq!(c.max_instrs, 10);
        assert!(!c.loops);
        assert_eq!(c.max_depth, Config::default().max_depth);
        let back: Config = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
        let err = serde_json::from_str::<Config>(r#"{"max_instr": 10}"#)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("unknown field `max_instr`"), "{err}");
    }

    #[test]
    fn bad_configs_name_the_knob_and_its_limit() {
        let bad = |c: Config| c.check().unwrap_err();
        let d = Config::default;
        assert_eq!(
            bad(Config {
                ops: vec!["frob".into()],
                ..d()
            }),
            "ops: `frob` is not an ALU or subgroup op"
        );
        assert_eq!(
            bad(Config {
                bit_sizes: vec![8, 16],
                ..d()
            }),
            "bit_sizes must contain 32 (loop counters and shift counts are 32-bit)"
        );
        assert_eq!(
            bad(Config {
                sat_percent: 101,
                ..d()
            }),
            "sat_percent must be in 0..=100, not 101"
        );
        assert_eq!(
            bad(Config {
                min_instrs: 9,
                max_instrs: 8,
                ..d()
            }),
            "min_instrs must not exceed max_instrs"
        );
        assert_eq!(
            bad(Config {
                max_instrs: 4_000_000_000,
                ..d()
            }),
            "max_instrs must be in 1..=10000, not 4000000000"
        );
        assert_eq!(
            bad(Config {
                max_outputs: 0,
                ..d()
            }),
            "max_outputs must be in 1..=64, not 0"
        );
        assert_eq!(
            bad(Config {
                max_inputs: 100_000,
                ..d()
            }),
            "max_inputs must be in 0..=64, not 100000"
        );
        assert_eq!(
            bad(Config {
                max_uniforms: 65,
                ..d()
            }),
            "max_uniforms must be in 0..=64, not 65"
        );
        assert_eq!(
            bad(Config {
                max_depth: 17,
                ..d()
            }),
            "max_depth must be in 0..=16, not 17"
        );
        assert_eq!(
            bad(Config {
                max_invocations: 1025,
                ..d()
            }),
            "max_invocations must be in 1..=1024, not 1025"
        );
        assert_eq!(
            bad(Config {
                min_invocations: 9,
                max_invocations: 8,
                ..d()
            }),
            "min_invocations must not exceed max_invocations"
        );
    }

    #[test]
    fn the_knob_list_follows_the_table() {
        let k = knobs();
        let names: Vec<&str> = k.iter().map(|k| k.name).collect();
        assert_eq!(
            names.join(" "),
            "swarm min_instrs max_instrs subgroup ops bit_sizes max_depth max_trip ifs loops \
             jumps max_inputs max_uniforms max_outputs min_invocations max_invocations \
             edge_percent echo_percent twin_percent sat_percent fresh_condition_percent max_header_ops \
             helpers combined_condition_percent"
        );
        let depth = &k[6];
        assert_eq!(
            (depth.default.as_str(), depth.bounds.as_str(), depth.swarm),
            ("3", "0..=16", Swarm::UpTo(0))
        );
        assert_eq!(k[5].default, "[8, 16, 32, 64]");
        assert_eq!(k[8].swarm, Swarm::Keep);
    }

    #[test]
    fn arbitrary_configs_check() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        for start in 0..200 {
            let mut u = Unstructured::new(&bytes[start..]);
            let c: Config = u.arbitrary().unwrap();
            assert_eq!(c.check(), Ok(()), "{c:?}");
        }
    }

    #[test]
    fn the_swarm_draw_stays_within_the_config() {
        let mut e = crate::entropy::SeedEntropy::new(7);
        let c = Config::default();
        for _ in 0..200 {
            let f = c.features(&mut e);
            assert!(f.knobs.max_depth <= c.max_depth && f.knobs.max_trip >= 1);
            assert!(f.knobs.bit_sizes.contains(&32));
            assert!((c.min_instrs..=c.max_instrs).contains(&f.instrs));
            assert!(!f.ops.is_empty());
            assert_eq!(f.knobs.check(), Ok(()));
        }
    }
}
