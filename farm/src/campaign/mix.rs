//! Which configs each case runs under.
//!
//! Default mix (chosen for bugs found per second): every case runs under all
//! six boolean strategies, each with all passes and with one random pass
//! subset drawn from the case's seed (so every pass is also tested alone and
//! in odd company), at one SIMD width drawn from the case's seed. That is 12
//! config-runs per case sharing one generation and one oracle run: the
//! oracle and the generator are paid once, and the strategies and pass
//! subsets cross-check each other on the same program.

use crate::configs::{random_passes, splitmix};
use compiler::{BugSet, PassSet, Strategy};
use oracle::Config;

/// How pass sets are chosen per case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PassChoice {
    /// All passes and one random subset (the default).
    Mix,
    /// All passes.
    All,
    /// No passes.
    None,
    /// One random subset per case.
    Random,
    /// A fixed set.
    List(PassSet),
}

impl PassChoice {
    /// Parses `mix`, `all`, `none`, `random` or a pass list.
    pub fn parse(s: &str) -> Result<PassChoice, String> {
        Ok(match s {
            "mix" => PassChoice::Mix,
            "all" => PassChoice::All,
            "none" => PassChoice::None,
            "random" => PassChoice::Random,
            _ => PassChoice::List(PassSet::parse(s)?),
        })
    }

    /// The canonical text.
    pub fn text(&self) -> String {
        match self {
            PassChoice::Mix => "mix".into(),
            PassChoice::All => "all".into(),
            PassChoice::None => "none".into(),
            PassChoice::Random => "random".into(),
            PassChoice::List(p) => p.to_string(),
        }
    }
}

/// The configs of a campaign.
#[derive(Clone, Debug)]
pub struct Mix {
    /// Strategies.
    pub strategies: Vec<Strategy>,
    /// Pass sets.
    pub passes: PassChoice,
    /// SIMD widths (one per case, drawn from the case seed).
    pub simd: Vec<u32>,
    /// Injected bugs.
    pub bugs: BugSet,
}

impl Mix {
    /// The configs for the case with seed `case_seed`.
    pub fn configs(&self, case_seed: u64) -> Vec<Config> {
        let r = splitmix(case_seed ^ 0x006d_6978);
        let simd = self.simd[(r % self.simd.len() as u64) as usize];
        let sets = match &self.passes {
            PassChoice::Mix => vec![PassSet::all(), random_passes(splitmix(r))],
            PassChoice::All => vec![PassSet::all()],
            PassChoice::None => vec![PassSet::none()],
            PassChoice::Random => vec![random_passes(splitmix(r))],
            PassChoice::List(p) => vec![p.clone()],
        };
        let mut v = Vec::new();
        for &strategy in &self.strategies {
            for passes in &sets {
                v.push(Config {
                    strategy,
                    simd,
                    passes: passes.clone(),
                    bugs: self.bugs,
                });
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_mix_is_two_configs_per_strategy_at_one_width() {
        let m = Mix {
            strategies: Strategy::ALL.to_vec(),
            passes: PassChoice::Mix,
            simd: vec![8, 16, 32],
            bugs: BugSet::NONE,
        };
        let c = m.configs(7);
        // All passes and one random subset, under each of the 6 strategies.
        assert_eq!(c.len(), 12);
        assert!(c.iter().all(|x| x.simd == c[0].simd));
        assert_eq!(c[0].passes, PassSet::all());
        assert_eq!(m.configs(7), c, "deterministic");
    }

    #[test]
    fn pass_choices_parse() {
        assert_eq!(PassChoice::parse("mix"), Ok(PassChoice::Mix));
        assert_eq!(
            PassChoice::parse("cse,dce").map(|p| p.text()),
            Ok("ir:cse,ir:dce,eu:cse,eu:dce".into())
        );
        assert!(PassChoice::parse("frob").is_err());
    }
}
