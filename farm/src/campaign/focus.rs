//! Focus: the feedback loop's aim at decisions a campaign has met but not
//! explored. A decision point that was reached while a neighbour (the same
//! decision's other outcome, or a refusal of it) never was is on the
//! *frontier*: the cases reaching it are near the unexplored corner, but a
//! generated case is large, so a random mutation rarely touches the few
//! instructions the decision is about. Focusing reduces a corpus case that
//! reached a frontier point, with the triage reducer, to a smallest case
//! that still reaches it under the same config, and adds that as its own
//! corpus entry, weighted by how many neighbours are still unreached. Its
//! mutants then edit the decision's own instructions most of the time.
//!
//! Which points are neighbours is read from the names alone (see
//! [`decision`]), so every pass's points take part without a list to keep.
//! Everything here is a function of the snapshot, the counts and the
//! corpus, so a campaign stays deterministic.

use super::feedback::Entry;
use super::mix::Mix;
use super::stats::PointCount;
use ir::Case;
use oracle::{Capture, Config, Session};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Frontier points focused per snapshot, at most (each focus is one
/// reduction at the epoch barrier).
pub const FOCUS_PER_EPOCH: usize = 3;
/// Predicate calls per focusing reduction (each one compile).
pub const FOCUS_CHECKS: usize = 400;
/// Weight of a focused entry per still-unreached neighbour (at most
/// [`FOCUS_NEIGHBOURS`] of them count).
pub const FOCUS_WEIGHT: u64 = 1000;
/// Unreached neighbours that add weight, at most.
pub const FOCUS_NEIGHBOURS: u64 = 3;
/// A "decision" with more outcomes than this in the catalogue is a table
/// (the algebraic rules, a lowering's cases), not one decision: its points
/// are not each other's neighbours.
pub const MAX_OUTCOMES: usize = 10;

/// The decision a point belongs to: its name without its last part, and
/// without a `refuse` part before that (`eu:cmod-prop/cmp-to-add/refuse/
/// saturate` and `eu:cmod-prop/cmp-to-add/fold` are both outcomes of
/// `eu:cmod-prop/cmp-to-add`).
pub fn decision(point: &str) -> &str {
    let parent = point.rsplit_once('/').map_or(point, |(p, _)| p);
    parent.strip_suffix("/refuse").unwrap_or(parent)
}

/// Whether point `p` lies under decision `d` (is it, or below it).
fn under(p: &str, d: &str) -> bool {
    p.starts_with(d) && (p.len() == d.len() || p.as_bytes()[d.len()] == b'/')
}

/// The frontier: each reached point (a count above 0) with the number of
/// unreached points of `catalogue` whose decision it belongs to (it is the
/// decision, or lies under it). A decision that is a whole pass
/// (`ir:dce`) or a table of more than [`MAX_OUTCOMES`] points is too broad
/// to aim at and is left out.
pub fn frontier(counts: &BTreeMap<String, u64>, catalogue: &[&str]) -> BTreeMap<String, u64> {
    let mut out: BTreeMap<String, u64> = BTreeMap::new();
    let reached = |p: &str| counts.get(p).is_some_and(|&n| n > 0);
    for q in catalogue.iter().filter(|q| !reached(q)) {
        let d = decision(q);
        let outcomes = catalogue.iter().filter(|p| under(p, d)).count();
        if !d.contains('/') || outcomes > MAX_OUTCOMES {
            continue;
        }
        for (p, &n) in counts.range(d.to_string()..) {
            if !p.starts_with(d) {
                break;
            }
            if under(p, d) && n > 0 {
                *out.entry(p.clone()).or_default() += 1;
            }
        }
    }
    out
}

/// Whether compiling `case` under `config` reaches `point`.
fn reaches(case: &Case, config: &Config, point: &str) -> bool {
    Session::run(&case.program, config, Capture::Stages)
        .coverage
        .contains_key(point)
}

/// Mixed into a focused entry's case index: the seed of its fresh data.
const FOCUS_DATA_STREAM: u64 = 0x666f_6375_735f_6461;
/// Percent of edge values in a focused case's new data.
const FOCUS_EDGE_PERCENT: u32 = 25;

/// The reduced `reduced` with data worth mutating: a dispatch of as many
/// invocations as `source`'s, every lane and uniform drawn afresh from
/// `seed`, when the case stays defined on it under `config`.
///
/// A decision point depends on the program and the config only, never on
/// the dispatch, so the reducer shrinks the data to one invocation of
/// zeros. A wrong decision on such data rarely changes an output (a select
/// between two zeros, `x < x` on one lane), and every mutant would start
/// from it.
fn with_fresh_data(mut reduced: Case, source: &Case, config: &Config, seed: u64) -> Case {
    let Some(invocations) = source.dispatch.as_ref().map(|d| d.invocations) else {
        return reduced;
    };
    let mut e = generator::entropy::SeedEntropy::new(seed);
    let d = generator::values::dispatch(&mut e, &reduced.program, invocations, FOCUS_EDGE_PERCENT);
    let shrunk = reduced.dispatch.replace(d);
    if oracle::check::expected_outputs(&reduced, config.simd).is_err() {
        reduced.dispatch = shrunk;
    }
    reduced
}

/// For each boolean strategy under which `case` reaches `point` (its first
/// such config), a smallest case that still reaches it there, with fresh
/// data drawn from `seed` ([`with_fresh_data`]): the same decision met
/// through another lowering is another route to its neighbours. A
/// reduction that gives up (a point every trivial program reaches) gives
/// nothing.
pub fn focus(case: &Case, configs: &[Config], point: &str, seed: u64) -> Vec<Case> {
    let mut strategies = Vec::new();
    for c in configs {
        if !strategies.contains(&c.strategy) {
            strategies.push(c.strategy);
        }
    }
    // One reduction per strategy, independent of the others: they run on
    // the current pool's threads and are taken in the strategies' order.
    let reduced: Vec<Option<Case>> = strategies
        .par_iter()
        .map(|&strategy| {
            let config = configs
                .iter()
                .filter(|c| c.strategy == strategy)
                .find(|c| reaches(case, c, point))?;
            // Whether a program reaches the point does not depend on the
            // dispatch, and the reducer asks about one program many times
            // while it shrinks the data: the last answer is kept.
            let mut last: Option<(ir::Program, Config, bool)> = None;
            let predicate = move |c: &Case, cfg: &Config| match &last {
                Some((p, k, r)) if *p == c.program && k == cfg => *r,
                _ => {
                    let r = reaches(c, cfg, point);
                    last = Some((c.program.clone(), cfg.clone(), r));
                    r
                }
            };
            let reduced = triage::reduce::Reducer::new(predicate)
                .minimize_config(false)
                .max_checks(FOCUS_CHECKS)
                .run(case, config)
                .ok()?;
            Some(with_fresh_data(reduced.case, case, config, seed))
        })
        .collect();
    let mut out = Vec::new();
    for focused in reduced.into_iter().flatten() {
        if !out.contains(&focused) {
            out.push(focused);
        }
    }
    out
}

/// [`focus`] for corpus entry `entry`, under the configs `mix` gives the
/// case it came from, whose configs were drawn with `config_seed`
/// ([`super::fresh::Seeding::config_seed`]).
pub fn focus_entry(entry: &Entry, mix: &Mix, config_seed: u64, point: &str) -> Vec<Case> {
    let Ok(case) = ir::parse_case(&entry.case) else {
        return vec![];
    };
    let configs = mix.configs_for(config_seed, &case.program);
    focus(&case, &configs, point, entry.case_index ^ FOCUS_DATA_STREAM)
}

/// The frontier of the campaign's counts over the compiler's catalogue.
pub fn campaign_frontier(counts: &BTreeMap<String, PointCount>) -> BTreeMap<String, u64> {
    let cases: BTreeMap<String, u64> = counts.iter().map(|(k, v)| (k.clone(), v.cases)).collect();
    let names: Vec<&str> = compiler::coverage::catalogue()
        .iter()
        .map(|p| p.name())
        .collect();
    frontier(&cases, &names)
}

/// Adds up to [`FOCUS_PER_EPOCH`] focused entries to `corpus`: for points
/// of `front` (the rarest in `counts` first), each corpus entry kept for
/// the point and not focused for it before (`POINT@CASE` in `focused`),
/// earliest first, reduced by `reduce` (the caller knows the entry's
/// configs). Each source is tried once, whatever the outcome; several
/// sources of one point give several routes to its neighbours.
pub fn add_focused(
    corpus: &mut Vec<Entry>,
    focused: &mut BTreeSet<String>,
    counts: &BTreeMap<String, PointCount>,
    front: &BTreeMap<String, u64>,
    reduce: &(dyn Fn(&Entry, &str) -> Vec<Case> + Sync),
    pool: &rayon::ThreadPool,
) {
    let cases = |p: &str| counts.get(p).map_or(0, |c| c.cases);
    // The points beside the most unexplored outcomes first, then the rarest.
    let mut points: Vec<(std::cmp::Reverse<u64>, u64, &String)> = front
        .iter()
        .map(|(p, &n)| (std::cmp::Reverse(n), cases(p), p))
        .collect();
    points.sort();
    let mut todo: Vec<(usize, &String)> = Vec::new();
    for (_, _, point) in points {
        let mut sources: Vec<usize> = (0..corpus.len())
            .filter(|&i| corpus[i].focus.is_none() && corpus[i].points.contains(point))
            .filter(|&i| !focused.contains(&focus_key(point, corpus[i].case_index)))
            .collect();
        sources.sort_by_key(|&i| corpus[i].case_index);
        todo.extend(sources.into_iter().map(|i| (i, point)));
        if todo.len() >= FOCUS_PER_EPOCH {
            break;
        }
    }
    todo.truncate(FOCUS_PER_EPOCH);
    // The reductions are independent: one per thread, kept in order.
    let reduced: Vec<Vec<Case>> = pool.install(|| {
        todo.par_iter()
            .map(|&(i, point)| reduce(&corpus[i], point))
            .collect()
    });
    let mut added = Vec::new();
    for ((i, point), r) in todo.into_iter().zip(reduced) {
        let source = &corpus[i];
        focused.insert(focus_key(point, source.case_index));
        for case in r {
            added.push(Entry {
                case_index: source.case_index,
                case: ir::print_case(&case),
                recipe: source.recipe.clone(),
                points: vec![point.clone()],
                weight: 0,
                focus: Some(point.clone()),
            });
        }
    }
    corpus.extend(added);
}

/// How a focused source is recorded in the snapshot: `POINT@CASE`.
fn focus_key(point: &str, case_index: u64) -> String {
    format!("{point}@{case_index}")
}

/// A focused entry's extra weight: [`FOCUS_WEIGHT`] per neighbour of its
/// point still unreached in `front` (up to [`FOCUS_NEIGHBOURS`]).
pub fn focus_weight(entry: &Entry, front: &BTreeMap<String, u64>) -> u64 {
    let Some(point) = &entry.focus else { return 0 };
    FOCUS_WEIGHT * front.get(point).copied().unwrap_or(0).min(FOCUS_NEIGHBOURS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn focusing_keeps_the_point_per_strategy_that_reaches_it_and_shrinks_the_case() {
        // fsat(a - b) stored, and `a < b` selecting a value: under bool32 the
        // compare becomes flag-only in the second fixpoint round, after
        // saturate propagation made the ADD `add.sat`, so cmp-to-add meets
        // a saturated ADD and refuses. Under the flag strategy the compare
        // is flag-only at once and folds in round 1, before the `.sat`
        // moves: no refusal, so that strategy gives no route.
        let case =
            ir::parse_case(include_str!("../../../corpus/bugs/cmod-prop-saturate.sir")).unwrap();
        let point = "eu:cmod-prop/cmp-to-add/refuse/saturate";
        let configs = [
            Config::new(compiler::Strategy::Flag, 8, compiler::PassSet::all()),
            Config::new(compiler::Strategy::Bool32, 8, compiler::PassSet::all()),
        ];
        let routes = focus(&case, &configs, point, 0);
        assert_eq!(routes.len(), 1);
        assert!(reaches(&routes[0], &configs[1], point));
        assert!(!reaches(&routes[0], &configs[0], point));
        assert!(routes[0].program.num_instrs() <= case.program.num_instrs());
        ir::validate(&routes[0].program).unwrap();
        // The reduction's one zero invocation gives way to fresh data for
        // as many invocations as the case's dispatch (5).
        assert_eq!(routes[0].dispatch.as_ref().unwrap().invocations, 5);
    }

    #[test]
    fn a_decision_is_the_name_without_its_outcome() {
        assert_eq!(
            decision("eu:cmod-prop/cmp-to-add/refuse/saturate"),
            "eu:cmod-prop/cmp-to-add"
        );
        assert_eq!(
            decision("eu:cmod-prop/cmp-to-add/fold"),
            "eu:cmod-prop/cmp-to-add"
        );
        assert_eq!(
            decision("eu:cmod-prop/cmp-to-add/fold/sat"),
            "eu:cmod-prop/cmp-to-add/fold"
        );
        assert_eq!(decision("ir:dce/x"), "ir:dce");
        assert_eq!(decision("flat"), "flat");
    }

    #[test]
    fn the_frontier_is_the_reached_points_beside_unreached_ones() {
        let counts = BTreeMap::from([
            ("eu:p/d/fold".to_string(), 4),
            ("eu:p/d/fold-more".to_string(), 9),
            ("eu:p/e/fold".to_string(), 2),
            ("eu:p/d/refuse/reached".to_string(), 1),
            ("ir:q/x".to_string(), 7),
        ]);
        let catalogue = [
            "eu:p/d/fold",
            "eu:p/d/fold-more",
            "eu:p/d/fold/sat",
            "eu:p/d/refuse/reached",
            "eu:p/d/refuse/never",
            "eu:p/e/fold",
            "eu:p/e/refuse/seen-nowhere",
            "ir:q/x",
            "ir:q/never",
        ];
        // `fold/sat` belongs to `eu:p/d/fold`, which `fold-more` only
        // looks like; `refuse/never` to `eu:p/d`, under which all three
        // reached `eu:p/d/...` points lie; `seen-nowhere` to `eu:p/e`;
        // `ir:q/never` is a whole-pass decision and left out.
        let want = BTreeMap::from([
            ("eu:p/d/fold".to_string(), 2),
            ("eu:p/d/fold-more".to_string(), 1),
            ("eu:p/d/refuse/reached".to_string(), 1),
            ("eu:p/e/fold".to_string(), 1),
        ]);
        assert_eq!(frontier(&counts, &catalogue), want);
    }

    #[test]
    fn focusing_takes_the_sources_in_order_whatever_the_thread_count() {
        let entry = |case_index: u64, points: &[&str], focus: Option<&str>| Entry {
            case_index,
            case: String::new(),
            recipe: None,
            points: points.iter().map(|p| p.to_string()).collect(),
            weight: 0,
            focus: focus.map(str::to_string),
        };
        let corpus = vec![
            entry(30, &["p/a"], None),
            entry(10, &["p/a", "p/b"], None),
            entry(20, &["p/b"], None),
            entry(40, &["p/a"], Some("p/a")),
        ];
        let counts = BTreeMap::from([
            (
                "p/a".to_string(),
                PointCount {
                    cases: 5,
                    ..Default::default()
                },
            ),
            (
                "p/b".to_string(),
                PointCount {
                    cases: 1,
                    ..Default::default()
                },
            ),
        ]);
        // `p/a` has more unexplored neighbours, so it goes first.
        let front = BTreeMap::from([("p/a".to_string(), 2), ("p/b".to_string(), 1)]);
        let case = |seed: u64| generator::generate(seed, &generator::Config::default());
        // The source 20 reduces to nothing for `p/b`; the others to one case.
        let reduce = |e: &Entry, p: &str| match (e.case_index, p) {
            (20, "p/b") => vec![],
            (i, _) => vec![case(i)],
        };
        let mut outcomes = Vec::new();
        for threads in [1, 2] {
            let pool = super::super::feedback::snapshot_pool(threads).unwrap();
            let mut c = corpus.clone();
            let mut focused = BTreeSet::from(["p/a@10".to_string()]);
            add_focused(&mut c, &mut focused, &counts, &front, &reduce, &pool);
            outcomes.push((c, focused));
        }
        // `p/a`: 30 (10 was focused for it before, 40 is a focused entry);
        // then `p/b`: 10 and 20, the earliest first; three in all.
        let (corpus_after, focused) = &outcomes[0];
        let added: Vec<(u64, &str, String)> = corpus_after[4..]
            .iter()
            .map(|e| (e.case_index, e.focus.as_deref().unwrap(), e.case.clone()))
            .collect();
        assert_eq!(
            added,
            [
                (30, "p/a", ir::print_case(&case(30))),
                (10, "p/b", ir::print_case(&case(10))),
            ]
        );
        assert_eq!(
            focused.iter().map(String::as_str).collect::<Vec<_>>(),
            ["p/a@10", "p/a@30", "p/b@10", "p/b@20"]
        );
        assert_eq!(outcomes[0], outcomes[1]);
    }
}
