//! One case of a campaign: generated from its seed, checked under every
//! config of the mix, each failing run localized and turned into a finding.

use super::findings::Finding;
use super::mix::Mix;
use super::CampaignId;
use compiler::StageId;
use oracle::Verdict;
use triage::signature::Signature;

/// One config-run's outcome, as the counters see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// The config's boolean strategy.
    pub strategy: String,
    /// The verdict kind.
    pub kind: &'static str,
    /// The culprit stage of a failing run.
    pub culprit: Option<StageId>,
}

/// One case's results, sent from a worker to the collector.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case's index in this shard.
    pub local: u64,
    /// Every config-run, in the mix's order.
    pub runs: Vec<RunOutcome>,
    /// The passes that changed the program, over every config-run.
    pub changed: Vec<StageId>,
    /// Each finding with its config-run's position in the case.
    pub findings: Vec<(u64, Finding)>,
    /// Every config disagreed with the oracle in the same way (suspect the
    /// oracle or the simulator rather than one compile).
    pub suspect: bool,
}

/// The seed of global case `g`.
pub fn case_seed(base: u64, g: u64) -> u64 {
    base.wrapping_add(g)
}

/// Generates and checks case `local` of this shard.
pub fn run_case(id: &CampaignId, mix: &Mix, local: u64) -> CaseResult {
    let g = local * id.shards + id.shard;
    let seed = case_seed(id.seed, g);
    let case = generator::generate(seed, &id.generator);
    let configs = mix.configs(seed);
    let mut r = CaseResult {
        local,
        runs: vec![],
        changed: vec![],
        findings: vec![],
        suspect: false,
    };
    let expected = oracle::check::expected_outputs(&case, configs[0].simd);
    let mut mismatches = Vec::new();
    for (pos, c) in configs.iter().enumerate() {
        let v = match &expected {
            Ok(e) => {
                let (v, changed) = oracle::check::check_against(&case, c, e);
                r.changed.extend(changed);
                v
            }
            Err(v) => v.clone(),
        };
        let mut culprit = None;
        if crate::is_finding(&v) {
            let trail = oracle::localize(&case, c);
            culprit = trail.culprit();
            let signature = Signature::new(&v, culprit.map(|s| s.to_string()), None);
            r.findings.push((
                pos as u64,
                Finding::new(&case, c, &v, &trail, &signature, g, seed),
            ));
        }
        if let Verdict::Mismatch { diffs } = &v {
            mismatches.push(diffs.clone());
        }
        r.runs.push(RunOutcome {
            strategy: c.strategy.to_string(),
            kind: v.kind(),
            culprit,
        });
    }
    r.suspect = mismatches.len() == configs.len()
        && configs.len() > 1
        && mismatches.windows(2).all(|w| w[0] == w[1]);
    r
}
