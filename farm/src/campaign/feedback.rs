//! Coverage feedback: the campaign keeps the cases that reached a decision
//! point first or rarely and spends part of its budget on their mutants
//! and on fresh cases drawn with their swarm features.
//!
//! **Determinism.** A campaign runs in epochs of [`EPOCH`] cases (its
//! `feedback_epoch`; in the
//! shard's numbering). How case `k` of epoch `e` is made depends only on
//! its seed and on the *snapshot* of epoch `e`: the point counts over every
//! case before the epoch and the corpus chosen from them. No case of epoch
//! `e` starts before every case of epoch `e - 1` is done and the snapshot
//! is made (a barrier, at most one case long per worker), so the snapshot,
//! and with it every case, is the same for any number of workers. Within
//! an epoch the corpus candidates are the first cases *by index* that
//! reached each rare point, kept per point as a sorted list, so arrival
//! order does not matter either. The lists are saved with the checkpoint
//! and the snapshots in `DIR/feedback/epoch-N.json`, so `--resume` goes on
//! exactly where it stopped. Each shard has its own corpus (shards do not
//! talk): a sharded campaign is deterministic for its shard option, and
//! `farm merge` adds the shards' point counts.

use super::mix::Mix;
use super::stats::PointCount;
use anyhow::{Context, Result};
use generator::entropy::{Entropy, SeedEntropy};
use ir::Case;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Cases per epoch, unless the campaign says otherwise.
pub const EPOCH: u64 = 1000;

/// [`EPOCH`], for campaign files written without an epoch size.
pub fn default_epoch() -> u64 {
    EPOCH
}
/// A point reached by fewer cases than this is rare: the first cases that
/// reach it (up to this many, over the campaign) join the corpus.
pub const RARE: u64 = 3;
/// Most corpus entries (the heaviest are kept).
pub const CORPUS_MAX: usize = 200;
/// Percent of a feedback epoch's cases that are mutants of corpus entries.
pub const MUTANT_PERCENT: u64 = 40;
/// Percent that are fresh cases drawn with a corpus entry's features.
pub const RECIPE_PERCENT: u64 = 20;
/// Percent of the mutants drawn from focused entries (`super::focus`),
/// when the corpus has any.
pub const FOCUS_MUTANT_PERCENT: u64 = 50;
/// Mutation attempts per mutant case before falling back to a fresh case.
const MUTATION_TRIES: u32 = 4;
/// Mutations per mutant (1 to this many).
const MUTATION_ROUNDS: u32 = 3;
/// Separates the feedback draws from the generator's stream of a seed.
const FEEDBACK_STREAM: u64 = 0x6665_6564_6261_636b;

/// One corpus entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The case it came from (global numbering).
    pub case_index: u64,
    /// The case (`.sir` with its dispatch).
    pub case: String,
    /// The generator config that made it (its swarm draw), if fresh or
    /// descended from a fresh case.
    pub recipe: Option<generator::Config>,
    /// The rare points it was kept for.
    pub points: Vec<String>,
    /// Its weight when the snapshot was made (rarer points weigh more).
    pub weight: u64,
    /// The frontier point it was reduced for, for a focused entry
    /// (`super::focus`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<String>,
}

/// What the cases of one epoch are made from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The epoch.
    pub epoch: u64,
    /// Cases that reached each point, over every case before the epoch.
    pub counts: BTreeMap<String, u64>,
    /// The corpus.
    pub corpus: Vec<Entry>,
    /// The frontier points focused so far (each is tried once).
    #[serde(default)]
    pub focused: BTreeSet<String>,
}

impl Snapshot {
    /// How many more cases reaching `point` the corpus wants.
    fn budget(&self, point: &str) -> u64 {
        RARE.saturating_sub(self.counts.get(point).copied().unwrap_or(0))
    }

    /// The points of `coverage` that are rare in this snapshot.
    pub fn rare<'a>(&self, coverage: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
        coverage.filter(|p| self.budget(p) > 0).collect()
    }
}

/// The corpus candidates of the epoch in progress: for each rare point,
/// the first cases (by index) that reached it, at most its budget.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EpochProgress {
    /// The epoch.
    pub epoch: u64,
    /// Point → the lowest local case indices that reached it.
    pub firsts: BTreeMap<String, Vec<u64>>,
}

impl EpochProgress {
    /// Records that local case `local` reached the rare `points`.
    pub fn record(&mut self, snapshot: &Snapshot, local: u64, points: &[&str]) {
        for p in points {
            let budget = snapshot.budget(p) as usize;
            let list = self.firsts.entry(p.to_string()).or_default();
            if let Err(at) = list.binary_search(&local) {
                list.insert(at, local);
                list.truncate(budget);
            }
        }
    }
}

/// How a case was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Fresh, from the campaign's generator config.
    Fresh,
    /// Fresh, with a corpus entry's features.
    Recipe {
        /// The entry's case.
        from: u64,
    },
    /// A mutant of a corpus entry.
    Mutant {
        /// The entry's case.
        from: u64,
        /// The mutators applied.
        mutators: Vec<&'static str>,
        /// Mutants discarded before this one (undefined or looping).
        rejected: u32,
    },
}

/// A case, its recipe (for the corpus) and how it was made.
pub struct Made {
    /// The case.
    pub case: Case,
    /// Its generator recipe.
    pub recipe: Option<generator::Config>,
    /// How it was made.
    pub origin: Origin,
}

/// Whether a case whose seed is `seed` draws a fresh case (rather than a
/// mutant or a recipe) when the feedback corpus is not empty.
pub fn rolls_fresh(seed: u64) -> bool {
    SeedEntropy::new(seed ^ FEEDBACK_STREAM).below(100) >= MUTANT_PERCENT + RECIPE_PERCENT
}

/// Makes a case from `snapshot` (`None`: feedback off): `seed` is its own
/// (for the feedback draws, mutations and recipes), `fresh_seed` the seed
/// a fresh case is generated from ([`super::fresh::Seeding::config_seed`]).
pub fn make_case(
    config: &generator::Config,
    mix: &Mix,
    snapshot: Option<&Snapshot>,
    seed: u64,
    fresh_seed: u64,
) -> Made {
    let fresh = || {
        let config = mix.generator_config(config, fresh_seed);
        let (case, recipe) = generator::generate_with_recipe(fresh_seed, &config);
        Made {
            case,
            recipe: Some(recipe),
            origin: Origin::Fresh,
        }
    };
    let Some(s) = snapshot.filter(|s| !s.corpus.is_empty()) else {
        return fresh();
    };
    let mut e = SeedEntropy::new(seed ^ FEEDBACK_STREAM);
    let roll = e.below(100);
    let weights: Vec<u32> = s
        .corpus
        .iter()
        .map(|x| x.weight.min(u32::MAX as u64) as u32)
        .collect();
    if roll < MUTANT_PERCENT {
        // Half the mutants come from focused entries when there are any,
        // half from the rest, so neither starves the other.
        let focused = s.corpus.iter().any(|x| x.focus.is_some());
        let pool = focused && e.below(100) < FOCUS_MUTANT_PERCENT;
        let pool_weights: Vec<u32> = (0..s.corpus.len())
            .map(|i| {
                if s.corpus[i].focus.is_some() == pool {
                    weights[i]
                } else {
                    0
                }
            })
            .collect();
        let pool_weights = if pool_weights.iter().any(|&w| w > 0) {
            pool_weights
        } else {
            weights.clone()
        };
        let entry = &s.corpus[e.weighted(&pool_weights)];
        let Ok(parent) = ir::parse_case(&entry.case) else {
            return fresh();
        };
        let simd = mix.configs(seed)[0].simd;
        for rejected in 0..MUTATION_TRIES {
            let Some((mut case, mutators)) =
                generator::mutate::mutate(&parent, &mut e, MUTATION_ROUNDS)
            else {
                continue;
            };
            if oracle::check::expected_outputs(&case, simd).is_ok() {
                case.program.name = format!("seed_{seed}");
                return Made {
                    case,
                    recipe: entry.recipe.clone(),
                    origin: Origin::Mutant {
                        from: entry.case_index,
                        mutators,
                        rejected,
                    },
                };
            }
        }
        return fresh();
    }
    if roll < MUTANT_PERCENT + RECIPE_PERCENT {
        let with: Vec<usize> = (0..s.corpus.len())
            .filter(|&i| s.corpus[i].recipe.is_some() && s.corpus[i].focus.is_none())
            .collect();
        if !with.is_empty() {
            let w: Vec<u32> = with.iter().map(|&i| weights[i]).collect();
            let entry = &s.corpus[with[e.weighted(&w)]];
            let recipe = entry.recipe.clone().expect("filtered on recipes");
            let (case, _) = generator::generate_with_recipe(seed, &recipe);
            return Made {
                case,
                recipe: Some(recipe),
                origin: Origin::Recipe {
                    from: entry.case_index,
                },
            };
        }
    }
    fresh()
}

/// An entry's weight: the sum over its points of 1000 / (cases that
/// reached the point), at least 1.
fn weight(points: &[String], counts: &BTreeMap<String, PointCount>) -> u64 {
    points
        .iter()
        .map(|p| 1000 / counts.get(p).map_or(1, |c| c.cases.max(1)))
        .sum::<u64>()
        .max(1)
}

/// The snapshot of the epoch after `prev`: the previous corpus and the
/// epoch's first cases of each rare point (regenerated with `make`), the
/// entries focused on frontier points (reduced with `reduce`, see
/// [`super::focus`]), the heaviest [`CORPUS_MAX`] kept, with the
/// campaign's counts at the boundary.
///
/// The regenerations and reductions run on `pool`'s threads (the workers
/// wait for this snapshot meanwhile); their results are taken in the same
/// order whatever the thread count.
pub fn next_snapshot(
    prev: &Snapshot,
    progress: &EpochProgress,
    counts: &BTreeMap<String, PointCount>,
    make: &(dyn Fn(u64) -> (u64, Made) + Sync),
    reduce: &(dyn Fn(&Entry, &str) -> Vec<Case> + Sync),
    pool: &rayon::ThreadPool,
) -> Snapshot {
    let mut kept: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for (point, locals) in &progress.firsts {
        for &l in locals {
            kept.entry(l).or_default().push(point.clone());
        }
    }
    let mut corpus: Vec<Entry> = prev.corpus.clone();
    corpus.extend(pool.install(|| {
        kept.into_par_iter()
            .map(|(local, points)| {
                let (g, made) = make(local);
                Entry {
                    case_index: g,
                    case: ir::print_case(&made.case),
                    recipe: made.recipe,
                    points,
                    weight: 0,
                    focus: None,
                }
            })
            .collect::<Vec<_>>()
    }));
    let mut focused = prev.focused.clone();
    let front = super::focus::campaign_frontier(counts);
    super::focus::add_focused(&mut corpus, &mut focused, counts, &front, reduce, pool);
    for e in &mut corpus {
        e.weight = weight(&e.points, counts) + super::focus::focus_weight(e, &front);
    }
    if corpus.len() > CORPUS_MAX {
        let mut order: Vec<usize> = (0..corpus.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(corpus[i].weight), corpus[i].case_index));
        order.truncate(CORPUS_MAX);
        order.sort_unstable();
        corpus = order.into_iter().map(|i| corpus[i].clone()).collect();
    }
    Snapshot {
        epoch: prev.epoch + 1,
        counts: counts.iter().map(|(k, v)| (k.clone(), v.cases)).collect(),
        corpus,
        focused,
    }
}

/// The threads that make snapshots: as many as the campaign has workers
/// (they are idle meanwhile, waiting for the snapshot).
pub fn snapshot_pool(jobs: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .thread_name(|i| format!("snapshot-{i}"))
        .build()
        .context("cannot start the threads that make feedback snapshots")
}

/// The snapshots shared by the collector (which makes them) and the
/// workers (which wait for the one their case needs).
pub struct Shared {
    current: Mutex<Arc<Snapshot>>,
    changed: Condvar,
}

impl Shared {
    /// Shares `snapshot`.
    pub fn new(snapshot: Snapshot) -> Shared {
        Shared {
            current: Mutex::new(Arc::new(snapshot)),
            changed: Condvar::new(),
        }
    }

    /// The snapshot of `epoch`, waiting until the collector has made it;
    /// `None` if `give_up` says so first.
    pub fn wait(&self, epoch: u64, give_up: &dyn Fn() -> bool) -> Option<Arc<Snapshot>> {
        let mut cur = self.current.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if cur.epoch == epoch {
                return Some(cur.clone());
            }
            if give_up() {
                return None;
            }
            cur = self
                .changed
                .wait_timeout(cur, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The current snapshot.
    pub fn current(&self) -> Arc<Snapshot> {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Publishes the next snapshot.
    pub fn publish(&self, s: Snapshot) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(s);
        self.changed.notify_all();
    }
}

/// Feedback without a campaign directory (the selftest): the same epochs,
/// snapshots and candidate lists, kept in memory.
pub struct InMemory {
    /// The snapshots.
    pub shared: Shared,
    epoch_size: u64,
    state: Mutex<MemoryState>,
}

#[derive(Default)]
struct MemoryState {
    progress: EpochProgress,
    /// Cases below are done; `above` are done too.
    watermark: u64,
    above: std::collections::BTreeSet<u64>,
    counts: BTreeMap<String, PointCount>,
}

impl InMemory {
    /// Epochs of `epoch_size` cases, starting from an empty snapshot.
    pub fn new(epoch_size: u64) -> InMemory {
        InMemory {
            shared: Shared::new(Snapshot::default()),
            epoch_size: epoch_size.max(1),
            state: Mutex::new(MemoryState::default()),
        }
    }

    /// The snapshot for case `index` (waiting for its epoch's).
    pub fn snapshot_for(&self, index: u64, give_up: &dyn Fn() -> bool) -> Option<Arc<Snapshot>> {
        self.shared.wait(index / self.epoch_size, give_up)
    }

    /// Records that case `index` is done and what it reached; makes the
    /// next snapshots when their epochs are complete (`make` regenerates a
    /// kept case from the snapshot of its epoch), on `pool`'s threads.
    pub fn done(
        &self,
        index: u64,
        coverage: &BTreeMap<&'static str, (u64, u64)>,
        make: &(dyn Fn(&Snapshot, u64) -> Made + Sync),
        reduce: &(dyn Fn(&Entry, &str) -> Vec<Case> + Sync),
        pool: &rayon::ThreadPool,
    ) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let snapshot = self.shared.current();
        super::stats::add_case_points(&mut st.counts, coverage, index);
        if st.progress.epoch == snapshot.epoch {
            let rare = snapshot.rare(coverage.keys().copied());
            st.progress.record(&snapshot, index, &rare);
        }
        st.above.insert(index);
        loop {
            let w = st.watermark;
            if !st.above.remove(&w) {
                break;
            }
            st.watermark += 1;
        }
        while st.watermark >= (st.progress.epoch + 1) * self.epoch_size {
            let current = self.shared.current();
            let next = next_snapshot(
                &current,
                &st.progress,
                &st.counts,
                &|l| (l, make(&current, l)),
                reduce,
                pool,
            );
            st.progress = EpochProgress {
                epoch: next.epoch,
                firsts: BTreeMap::new(),
            };
            self.shared.publish(next);
        }
    }
}

/// The directory of a campaign's snapshots.
pub fn dir(out: &Path) -> PathBuf {
    out.join("feedback")
}

fn file(out: &Path, epoch: u64) -> PathBuf {
    dir(out).join(format!("epoch-{epoch}.json"))
}

/// Writes the snapshot of its epoch, and removes the one two epochs back
/// (a resume needs at most the previous one).
pub fn save(out: &Path, s: &Snapshot) -> Result<()> {
    std::fs::create_dir_all(dir(out))
        .with_context(|| format!("cannot create {}", dir(out).display()))?;
    crate::durable::write_atomic(
        &file(out, s.epoch),
        (serde_json::to_string(s)? + "\n").as_bytes(),
    )?;
    if s.epoch >= 2 {
        let _ = std::fs::remove_file(file(out, s.epoch - 2));
    }
    Ok(())
}

/// Reads the snapshot of `epoch` (epoch 0 is empty and has no file).
pub fn load(out: &Path, epoch: u64) -> Result<Snapshot> {
    if epoch == 0 {
        return Ok(Snapshot::default());
    }
    let path = file(out, epoch);
    let text = std::fs::read_to_string(&path).with_context(|| {
        format!(
            "cannot read {} (the feedback corpus this campaign resumes from)",
            path.display()
        )
    })?;
    serde_json::from_str(&text)
        .map_err(|e| crate::durable::json_error(&path.display().to_string(), &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(cases: u64) -> PointCount {
        PointCount {
            hits: cases,
            runs: cases,
            cases,
            first_case: 0,
        }
    }

    #[test]
    fn the_first_cases_of_a_rare_point_win_whatever_the_order() {
        let snap = Snapshot {
            epoch: 1,
            counts: BTreeMap::from([("a".to_string(), 2), ("b".to_string(), 5)]),
            corpus: vec![],
            focused: BTreeSet::new(),
        };
        assert_eq!(snap.rare(["a", "b", "c"].into_iter()), ["a", "c"]);
        let mut one = EpochProgress::default();
        let mut two = EpochProgress::default();
        for l in [7, 3, 9, 1] {
            one.record(&snap, l, &["a", "c"]);
        }
        for l in [1, 9, 3, 7, 3] {
            two.record(&snap, l, &["a", "c"]);
        }
        assert_eq!(one, two);
        // a has 2 cases before the epoch: one more wanted; c: three.
        assert_eq!(one.firsts["a"], [1]);
        assert_eq!(one.firsts["c"], [1, 3, 7]);
    }

    #[test]
    fn the_next_corpus_keeps_the_heaviest_entries() {
        let prev = Snapshot::default();
        let mut progress = EpochProgress::default();
        for (l, p) in [(4u64, "rare"), (2, "common"), (4, "common")] {
            progress.record(&prev, l, &[p]);
        }
        let counts = BTreeMap::from([
            ("rare".to_string(), count(1)),
            ("common".to_string(), count(500)),
        ]);
        let make = |local: u64| {
            (
                local + 100,
                Made {
                    case: generator::generate(local, &generator::Config::default()),
                    recipe: None,
                    origin: Origin::Fresh,
                },
            )
        };
        let pool = snapshot_pool(2).unwrap();
        let next = next_snapshot(&prev, &progress, &counts, &make, &|_, _| vec![], &pool);
        assert_eq!(next.epoch, 1);
        assert_eq!(next.counts["rare"], 1);
        let entries: Vec<(u64, &[String], u64)> = next
            .corpus
            .iter()
            .map(|e| (e.case_index, e.points.as_slice(), e.weight))
            .collect();
        assert_eq!(
            entries,
            [
                (102, &["common".to_string()][..], 2),
                (104, &["common".to_string(), "rare".to_string()][..], 1002),
            ]
        );
    }
}
