//! The generator's knobs. One `Config` gives the defaults, the swarm form
//! (a random feature set per case, drawn from the case's own entropy or from
//! `arbitrary` bytes) and the JSON form (`farm gen --config FILE`).

use crate::entropy::Entropy;
use ir::op::{Op, OpClass};
use serde::{Deserialize, Serialize};

/// Generator settings. Every field has a default, so a JSON file may give
/// only the fields it changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Draw a random feature set per case (swarm testing) within these limits.
    pub swarm: bool,
    /// Fewest ALU/subgroup instructions to aim for.
    pub min_instrs: u32,
    /// Most ALU/subgroup instructions to aim for.
    pub max_instrs: u32,
    /// Deepest nesting of ifs and loops.
    pub max_depth: u32,
    /// Largest loop trip count.
    pub max_trip: u32,
    /// Generate ifs.
    pub ifs: bool,
    /// Generate loops.
    pub loops: bool,
    /// Generate extra breaks and continues inside loop bodies.
    pub jumps: bool,
    /// Generate subgroup (cross-invocation) ops.
    pub subgroup: bool,
    /// Ops that may be generated, by name; empty means every op.
    pub ops: Vec<String>,
    /// Bit sizes of values (from 8, 16, 32, 64; booleans always exist).
    pub bit_sizes: Vec<u8>,
    /// Most input slots.
    pub max_inputs: u32,
    /// Most uniform slots.
    pub max_uniforms: u32,
    /// Most output slots.
    pub max_outputs: u32,
    /// Fewest invocations.
    pub min_invocations: u32,
    /// Most invocations.
    pub max_invocations: u32,
    /// Percentage of input values and constants drawn from edge values.
    pub edge_percent: u32,
    /// Percentage of two-operand ops (arithmetic, logic, comparisons) that
    /// reuse the operands of a recent one, sometimes swapped or with one
    /// negated: `a - b` next to `a < b`, `a * b` next to `-a * b`. The
    /// optimizer's cmod propagation and CSE only act on such shared operands.
    pub echo_percent: u32,
    /// Percentage of float arithmetic results wrapped in `fsat` (the EU's
    /// `.sat` modifier, which saturate propagation moves around).
    pub sat_percent: u32,
    /// Percentage of if conditions made fresh from a comparison just before
    /// the if, half of them negated with `inot` (`if (!(a < b))`).
    pub fresh_condition_percent: u32,
    /// Most ops in a loop's header, before its exit test. They dominate the
    /// exit, so code after the loop reads each lane's value from the
    /// iteration that lane left in.
    pub max_header_ops: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            swarm: true,
            min_instrs: 8,
            max_instrs: 60,
            max_depth: 3,
            max_trip: 6,
            ifs: true,
            loops: true,
            jumps: true,
            subgroup: true,
            ops: vec![],
            bit_sizes: vec![8, 16, 32, 64],
            max_inputs: 4,
            max_uniforms: 2,
            max_outputs: 4,
            min_invocations: 1,
            max_invocations: 70,
            edge_percent: 60,
            echo_percent: 20,
            sat_percent: 25,
            fresh_condition_percent: 30,
            max_header_ops: 2,
        }
    }
}

/// The features one case uses: the config, narrowed by swarm choices.
#[derive(Clone, Debug)]
pub struct Features {
    /// Enabled ops (ALU and subgroup ops only).
    pub ops: Vec<Op>,
    /// Enabled bit sizes.
    pub bit_sizes: Vec<u8>,
    /// Target instruction count.
    pub instrs: u32,
    /// Nesting limit.
    pub max_depth: u32,
    /// Largest loop trip count.
    pub max_trip: u32,
    /// Ifs on.
    pub ifs: bool,
    /// Loops on.
    pub loops: bool,
    /// Extra jumps on.
    pub jumps: bool,
    /// Edge-value percentage.
    pub edge_percent: u32,
    /// Operand-echo percentage (see [`Config::echo_percent`]).
    pub echo_percent: u32,
    /// `fsat`-wrapping percentage.
    pub sat_percent: u32,
    /// Fresh-condition percentage.
    pub fresh_condition_percent: u32,
    /// Most loop-header ops.
    pub max_header_ops: u32,
}

impl Config {
    /// Checks the config; the error names the field.
    pub fn check(&self) -> Result<(), String> {
        if self.min_instrs > self.max_instrs {
            return Err("min_instrs must not exceed max_instrs".into());
        }
        if self.min_invocations == 0
            || self.min_invocations > self.max_invocations
            || self.max_invocations > 1024
        {
            return Err(
                "invocations must satisfy 1 <= min_invocations <= max_invocations <= 1024".into(),
            );
        }
        if self.max_trip == 0 || self.max_trip > 64 {
            return Err("max_trip must be in 1..=64".into());
        }
        if self.max_outputs == 0 {
            return Err("max_outputs must be at least 1".into());
        }
        for (name, v) in [
            ("edge_percent", self.edge_percent),
            ("echo_percent", self.echo_percent),
            ("sat_percent", self.sat_percent),
            ("fresh_condition_percent", self.fresh_condition_percent),
        ] {
            if v > 100 {
                return Err(format!("{name} must be at most 100"));
            }
        }
        if self.max_header_ops > 8 {
            return Err("max_header_ops must be at most 8".into());
        }
        for &b in &self.bit_sizes {
            if !matches!(b, 8 | 16 | 32 | 64) {
                return Err(format!("bit_sizes: {b} is not one of 8, 16, 32, 64"));
            }
        }
        if !self.bit_sizes.contains(&32) {
            return Err(
                "bit_sizes must contain 32 (loop counters and shift counts are 32-bit)".into(),
            );
        }
        for name in &self.ops {
            match Op::from_name(name) {
                Some(op) if matches!(op.info().class, OpClass::Alu | OpClass::Subgroup) => {}
                _ => return Err(format!("ops: `{name}` is not an ALU or subgroup op")),
            }
        }
        Ok(())
    }

    /// The ops this config allows.
    fn allowed_ops(&self) -> Vec<Op> {
        Op::all()
            .filter(|op| matches!(op.info().class, OpClass::Alu | OpClass::Subgroup))
            .filter(|op| self.subgroup || op.info().class != OpClass::Subgroup)
            .filter(|op| self.ops.is_empty() || self.ops.iter().any(|n| n == op.name()))
            .collect()
    }

    /// The features of one case: all of the config, or a swarm subset.
    pub fn features(&self, e: &mut dyn Entropy) -> Features {
        let all_ops = self.allowed_ops();
        let instrs = e.range(self.min_instrs as u64, self.max_instrs as u64) as u32;
        if !self.swarm {
            return Features {
                ops: all_ops,
                bit_sizes: self.bit_sizes.clone(),
                instrs,
                max_depth: self.max_depth,
                max_trip: self.max_trip,
                ifs: self.ifs,
                loops: self.loops,
                jumps: self.jumps,
                edge_percent: self.edge_percent,
                echo_percent: self.echo_percent,
                sat_percent: self.sat_percent,
                fresh_condition_percent: self.fresh_condition_percent,
                max_header_ops: self.max_header_ops,
            };
        }
        // Swarm: each op is in with probability 3/4 (at least iadd stays in),
        // each non-32 size with 2/3, and each construct with 3/4.
        let mut ops: Vec<Op> = all_ops.iter().copied().filter(|_| e.chance(3, 4)).collect();
        if ops.is_empty() {
            ops = all_ops.clone();
        }
        let bit_sizes = self
            .bit_sizes
            .iter()
            .copied()
            .filter(|&b| b == 32 || e.chance(2, 3))
            .collect();
        Features {
            ops,
            bit_sizes,
            instrs,
            max_depth: e.range(0, self.max_depth as u64) as u32,
            max_trip: e.range(1, self.max_trip as u64) as u32,
            ifs: self.ifs && e.chance(3, 4),
            loops: self.loops && e.chance(3, 4),
            jumps: self.jumps && e.chance(3, 4),
            edge_percent: e.range(0, self.edge_percent as u64) as u32,
            echo_percent: e.range(0, self.echo_percent as u64) as u32,
            sat_percent: e.range(0, self.sat_percent as u64) as u32,
            fresh_condition_percent: e.range(0, self.fresh_condition_percent as u64) as u32,
            max_header_ops: e.range(0, self.max_header_ops as u64) as u32,
        }
    }
}

impl<'a> arbitrary::Arbitrary<'a> for Config {
    /// A random config within the defaults' limits (for libFuzzer drivers).
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let d = Config::default();
        let max_instrs = u.int_in_range(1..=d.max_instrs)?;
        let min_invocations = u.int_in_range(1..=64)?;
        Ok(Config {
            swarm: u.arbitrary()?,
            min_instrs: u.int_in_range(0..=max_instrs)?,
            max_instrs,
            max_depth: u.int_in_range(0..=d.max_depth)?,
            max_trip: u.int_in_range(1..=d.max_trip)?,
            ifs: u.arbitrary()?,
            loops: u.arbitrary()?,
            jumps: u.arbitrary()?,
            subgroup: u.arbitrary()?,
            ops: vec![],
            bit_sizes: {
                let mut v = vec![32];
                for b in [8u8, 16, 64] {
                    if u.arbitrary()? {
                        v.push(b);
                    }
                }
                v
            },
            max_inputs: u.int_in_range(0..=d.max_inputs)?,
            max_uniforms: u.int_in_range(0..=d.max_uniforms)?,
            max_outputs: u.int_in_range(1..=d.max_outputs)?,
            min_invocations,
            max_invocations: u
                .int_in_range(min_invocations..=d.max_invocations.max(min_invocations))?,
            edge_percent: u.int_in_range(0..=100)?,
            echo_percent: u.int_in_range(0..=100)?,
            sat_percent: u.int_in_range(0..=100)?,
            fresh_condition_percent: u.int_in_range(0..=100)?,
            max_header_ops: u.int_in_range(0..=d.max_header_ops)?,
        })
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
    fn bad_configs_name_the_field() {
        let c = Config {
            ops: vec!["frob".into()],
            ..Config::default()
        };
        assert_eq!(
            c.check(),
            Err("ops: `frob` is not an ALU or subgroup op".into())
        );
        let c = Config {
            bit_sizes: vec![8, 16],
            ..Config::default()
        };
        assert_eq!(
            c.check(),
            Err("bit_sizes must contain 32 (loop counters and shift counts are 32-bit)".into())
        );
        let c = Config {
            sat_percent: 101,
            ..Config::default()
        };
        assert_eq!(c.check(), Err("sat_percent must be at most 100".into()));
        let c = Config {
            min_instrs: 9,
            max_instrs: 8,
            ..Config::default()
        };
        assert_eq!(
            c.check(),
            Err("min_instrs must not exceed max_instrs".into())
        );
    }

    #[test]
    fn arbitrary_configs_check() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
        for start in 0..200 {
            let mut u = arbitrary::Unstructured::new(&bytes[start..]);
            let c: Config = u.arbitrary().unwrap();
            assert_eq!(c.check(), Ok(()), "{c:?}");
        }
    }
}
