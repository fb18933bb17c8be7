//! Which configs each case runs under.
//!
//! Default mix (chosen for bugs found per second): every case runs under all
//! six boolean strategies, each with all passes and with one random pass
//! subset drawn from the case's seed (so every pass is also tested alone and
//! in odd company), at one SIMD width drawn from the case's seed. That is 12
//! config-runs per case sharing one generation and one oracle run: the
//! oracle and the generator are paid once, and the strategies and pass
//! subsets cross-check each other on the same program. A case the vec4
//! backend compiles also runs under it (SIMD4x2): all passes, all passes on
//! code packed as far as it may be (`vec4-pack=all`), and the random
//! subset, 15 config-runs in all.

use crate::configs::{random_passes, splitmix};
use compiler::{BugSet, PassSet, Strategy};
use oracle::Config;
use std::borrow::Cow;

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

/// One fresh case in this many is generated within the vec4 backend's
/// subset when the mix has the vec4 strategy (the other cases seldom are).
pub const VEC4_SHARE: u64 = 4;

/// The generator config narrowed to the vec4 backend's subset: 32-bit
/// values, no subgroup or helper-invocation ops, only ops it lowers. None
/// when `base` allows none of them.
pub fn vec4_profile(base: &generator::Config) -> Option<generator::Config> {
    let mut c = base.clone();
    c.bit_sizes = vec![32];
    c.subgroup = false;
    c.helpers = false;
    let unsupported: Vec<ir::Op> = ir::Op::all()
        .filter(|&op| !compiler::vec4::supports(op))
        .collect();
    c.drop_ops(&unsupported);
    // Conditions the backend packs and tests with `.any4h`/`.all4h`.
    c.combined_condition_percent = 25;
    // `drop_ops` names the ops left; none left is the empty list, which
    // would mean every op.
    (!c.ops.is_empty()).then_some(c)
}

/// How many pass sets a case runs under one strategy ([`Mix::configs`]):
/// with the mix's pass choice, all passes and the random subset, and for
/// vec4 also all passes with `vec4-pack=all`; with any other choice, one.
pub fn pass_sets_per_strategy(mix: bool, vec4: bool) -> u64 {
    match (mix, vec4) {
        (true, true) => 3,
        (true, false) => 2,
        (false, _) => 1,
    }
}

impl Mix {
    /// The generator config of the fresh case generated from `seed`: one
    /// case in [`VEC4_SHARE`] gets the vec4 profile ([`vec4_profile`])
    /// when the mix has the vec4 strategy, every case when it has only
    /// that one.
    pub fn generator_config<'a>(
        &self,
        base: &'a generator::Config,
        seed: u64,
    ) -> Cow<'a, generator::Config> {
        let vec4 = self.strategies.iter().any(|s| s.is_vec4())
            && (self.strategies.iter().all(|s| s.is_vec4())
                || splitmix(seed ^ 0x7665_6334).is_multiple_of(VEC4_SHARE));
        match vec4.then(|| vec4_profile(base)).flatten() {
            Some(c) => Cow::Owned(c),
            None => Cow::Borrowed(base),
        }
    }

    /// The configs [`Mix::configs`] gives, without the vec4 ones when the
    /// vec4 backend does not compile `program` (it takes a subset).
    pub fn configs_for(&self, case_seed: u64, program: &ir::Program) -> Vec<Config> {
        let mut v = self.configs(case_seed);
        if v.iter().any(|c| c.strategy.is_vec4()) && !compiler::vec4::compiles(program) {
            v.retain(|c| !c.strategy.is_vec4());
        }
        v
    }

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
        // The vec4 backend also runs all passes on code packed as far as
        // it may be (`vec4-pack=all`), the shapes its passes' legality
        // checks are about.
        let mut stress = PassSet::all();
        stress.vec4_pack_all = true;
        let vec4_sets: Vec<PassSet> = match &self.passes {
            PassChoice::Mix => vec![sets[0].clone(), stress, sets[1].clone()],
            _ => sets.clone(),
        };
        let mut v = Vec::new();
        for &strategy in &self.strategies {
            let sets = if strategy.is_vec4() {
                &vec4_sets
            } else {
                &sets
            };
            for passes in sets {
                v.push(Config {
                    strategy,
                    // The vec4 backend dispatches SIMD4x2: 8 channels.
                    simd: if strategy.is_vec4() { 8 } else { simd },
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
        // All passes and one random subset, under each of the 7 strategies;
        // vec4 (last) at 8 channels (SIMD4x2), the others at one width, and
        // vec4 also under all passes with `vec4-pack=all`.
        assert_eq!(c.len(), 15);
        for s in Strategy::ALL {
            let n = c.iter().filter(|x| x.strategy == s).count() as u64;
            assert_eq!(n, pass_sets_per_strategy(true, s.is_vec4()), "{s}");
        }
        assert_eq!(c[13].passes.to_string(), "all,vec4-pack=all");
        assert!(c[..12].iter().all(|x| x.simd == c[0].simd));
        assert_eq!(c[12].strategy, Strategy::Vec4);
        assert!(c[12..].iter().all(|x| x.simd == 8));
        assert_eq!(c[0].passes, PassSet::all());
        assert_eq!(m.configs(7), c, "deterministic");
        // A case the vec4 backend does not take (64-bit values) runs the
        // other 12.
        let wide = ir::parse_case(include_str!("../../../corpus/bool_loop_phi.sir"));
        assert_eq!(m.configs_for(7, &wide.unwrap().program).len(), 12);
    }

    #[test]
    fn the_vec4_profile_generates_programs_the_vec4_backend_compiles() {
        let profile = vec4_profile(&generator::Config::default()).unwrap();
        assert_eq!(profile.bit_sizes, [32]);
        assert!(!profile.subgroup && !profile.helpers);
        for seed in 0..60 {
            let case = generator::generate(seed, &profile);
            assert!(
                compiler::vec4::compiles(&case.program),
                "seed {seed}:\n{}",
                ir::print_program(&case.program)
            );
        }
        // A config allowing only ops the backend does not lower has no profile.
        let only_64 = generator::Config {
            ops: vec!["imul_high".into()],
            ..generator::Config::default()
        };
        assert_eq!(vec4_profile(&only_64), None);
    }

    #[test]
    fn pass_choices_parse() {
        assert_eq!(PassChoice::parse("mix"), Ok(PassChoice::Mix));
        assert_eq!(
            PassChoice::parse("cse,dce").map(|p| p.text()),
            Ok("ir:cse,ir:dce,eu:cse,eu:dce,vec4:dce".into())
        );
        assert!(PassChoice::parse("frob").is_err());
    }
}
