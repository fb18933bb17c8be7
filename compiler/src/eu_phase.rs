//! The EU half of a compile (the EU passes to their fixpoint, register
//! allocation and the final checks), shared between compiles that would
//! repeat it.
//!
//! The EU passes and register allocation read the lowered program and the
//! options in a [`PassCtx`], which holds no boolean strategy: lowering has
//! applied it. Strategies that lower a case to the same code (native and
//! native-min almost always, bool32, native and flag often on cases without
//! narrow comparisons) therefore run exactly the same EU phase. Its key is
//! everything it reads: the lowered program, the EU passes that are on,
//! the context and the spill mode; a compile that finds its key replays
//! the phase ([`crate::memo`]).

use crate::memo::{self, Kept};
use crate::passes::{self, PassCtx, PassSet, Stage};
use crate::{
    check_assigned, check_since, check_virtual, regalloc, trace, Code, CompileError,
    CompileOptions, Compiled, Observer, Snapshot, StageId, StaticStats, VProgram, MAX_ROUNDS,
};
use std::cell::RefCell;

/// What the EU phase reads of a compile (the derived `==` compares in
/// field order: the program, which costs most, last).
#[derive(PartialEq)]
struct Key {
    ctx: PassCtx,
    spill_all: bool,
    /// The EU passes that are on, in table order.
    passes: Vec<usize>,
    lowered: VProgram,
}

/// EU phases a thread keeps (the default mix runs twelve scalar configs per
/// case, two pass sets under six strategies, and they run first; a vec4
/// case's three vec4 configs then have phases of their own).
const KEPT: usize = 12;

thread_local! {
    /// The last EU phases run on this thread.
    static PHASES: RefCell<Kept<Key, Compiled>> = const { RefCell::new(Kept::new()) };
}

/// Validates the lowered program `v` and hands it to `observer`, then runs
/// the EU passes of `opts` on it to their fixpoint and register
/// allocation, validating after every step that changed the code (as
/// [`crate::compile_with_hook`] does); or, when this thread kept the same
/// phase (which validated the same code), hands `v` over and replays it.
pub fn run(
    v: VProgram,
    opts: &CompileOptions,
    observer: &mut dyn Observer,
) -> Result<Compiled, CompileError> {
    let ctx = PassCtx::of(opts);
    let stage = backend_stage(&v);
    let eu_passes: Vec<usize> = opts
        .passes
        .iter()
        .filter(|(_, i)| i.stage == stage)
        .map(|(k, _)| k)
        .collect();
    let spill_all = opts.passes.spill_all;
    let matches = |k: &Key| {
        k.ctx == ctx && k.spill_all == spill_all && k.passes == eu_passes && k.lowered == v
    };
    let lowered = |v: &VProgram, observer: &mut dyn Observer| {
        observer.snapshot(Snapshot {
            stage: StageId::Lowering,
            code: Code::Eu(v),
        })
    };
    if let Some(phase) = memo::kept(&PHASES, matches, observer) {
        // A kept phase of this very code: it passed validation then.
        lowered(&v, observer);
        return memo::replay(&phase, observer);
    }
    check_virtual(&v, StageId::Lowering)?;
    lowered(&v, observer);
    let key = Key {
        lowered: v.clone(),
        passes: eu_passes,
        ctx,
        spill_all,
    };
    memo::run_and_keep(&PHASES, KEPT, key, observer, |observer| {
        optimize(v, &opts.passes, &ctx, observer)
    })
}

/// The passes that run on the lowered code: the scalar backend's or the
/// vec4 backend's.
fn backend_stage(v: &VProgram) -> Stage {
    if v.vec4 {
        Stage::Vec4
    } else {
        Stage::Eu
    }
}

/// The phase itself.
fn optimize(
    mut v: VProgram,
    passes: &PassSet,
    ctx: &PassCtx,
    observer: &mut dyn Observer,
) -> Result<Compiled, CompileError> {
    let mut unchanged = Unchanged::default();
    // The last code that passed the checks (a version: keeping it does not
    // make the next pass's edits copy the list), and the register file it
    // was checked for: lowering's, checked by the caller, at first.
    let mut checked = (v.insts.version(), v.machine());
    for _ in 0..MAX_ROUNDS {
        let mut progress = false;
        let backend = backend_stage(&v);
        for (index, info) in passes.iter().filter(|(_, i)| i.stage == backend) {
            let stage = StageId::EuPass(index);
            if let passes::Entry::Eu(f) = info.entry {
                observer.begin(stage);
                if unchanged.replay(index) {
                    continue;
                }
                #[cfg(debug_assertions)]
                let before = v.clone();
                let run = trace::Start::now();
                if f(&mut v, ctx) {
                    progress = true;
                    unchanged.changed();
                    v.compact().map_err(|e| CompileError::InvalidEu {
                        stage,
                        rule: e.rule,
                        index: e.index,
                        text: e.msg,
                    })?;
                    let machine = v.machine();
                    // Instructions that passed for another register file
                    // are asked about again, and so are all of them when
                    // no origin tells which stayed and the version's
                    // instructions are gone.
                    let known = (checked.1 == machine)
                        .then(|| crate::vir::Earlier::since(&v.insts, &checked.0))
                        .flatten();
                    check_since(&v.insts, known.as_deref(), &machine, stage)?;
                    checked = (v.insts.version(), machine);
                    observer.snapshot(Snapshot {
                        stage,
                        code: Code::Eu(&v),
                    });
                } else {
                    #[cfg(debug_assertions)]
                    assert!(
                        v == before,
                        "{stage} changed the program but said it did not"
                    );
                    unchanged.record(index, run);
                }
            }
        }
        if !progress {
            break;
        }
    }
    observer.begin(StageId::Regalloc);
    let (physical, spilled) = regalloc::allocate_assigned(&v, ctx.bugs, passes.spill_all)?;
    let machine = v.physical_machine();
    // The physical instructions assigned from ones that passed in the last
    // checked code have the same unplaced forms, on a register file of the
    // same shape: only their placement is asked about.
    let assigned = spilled.as_ref().unwrap_or(&v);
    let shape = eu::validate::shape_machine;
    let shaped = (shape(&checked.1) == shape(&machine))
        .then(|| crate::vir::Earlier::since(&assigned.insts, &checked.0))
        .flatten();
    check_assigned(&physical.insts, shaped.as_deref(), &machine)?;
    observer.snapshot(Snapshot {
        stage: StageId::Regalloc,
        code: Code::Final(&physical),
    });
    let stats = StaticStats::of(&physical);
    Ok(Compiled {
        program: std::rc::Rc::new(physical),
        virt: v,
        stats,
        validated_for: machine,
    })
}

/// What a pass run that left the program unchanged reported, and on which
/// version of the program: a pass is a pure function of the program and
/// the options, so running it again on the same version would change
/// nothing again and report the same decision points and bug hits. The
/// last round of a fixpoint loop is mostly such runs (every pass after the
/// last one that changed something in the round before); they are
/// replayed, not repeated.
#[derive(Default)]
struct Unchanged {
    /// Bumped by every change.
    version: u64,
    /// Per pass index, its last run that changed nothing: the version it
    /// ran on and what it reported.
    runs: Vec<Option<(u64, trace::Trace)>>,
}

impl Unchanged {
    /// Replays pass `index`'s last run if it was on this version.
    fn replay(&self, index: usize) -> bool {
        match self.runs.get(index) {
            Some(Some((version, t))) if *version == self.version => {
                t.replay();
                true
            }
            _ => false,
        }
    }

    /// The program changed.
    fn changed(&mut self) {
        self.version += 1;
    }

    /// Pass `index`'s run (watched from `start`) left the program unchanged.
    fn record(&mut self, index: usize, start: trace::Start) {
        if self.runs.len() <= index {
            self.runs.resize(index + 1, None);
        }
        self.runs[index] = Some((self.version, start.finish()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bugs::{self, Bug, BugSet};
    use crate::coverage;

    #[test]
    fn an_unchanged_run_replays_on_its_version_only() {
        const P: coverage::Point = coverage::Point("test:p");
        let rec = coverage::Recording::start();
        bugs::reset_hits();
        let mut u = Unchanged::default();
        assert!(!u.replay(3), "nothing ran yet");
        // Pass 3 runs, reaches P twice and one bug decision, changes nothing.
        let w = trace::Start::now();
        coverage::hit(P);
        coverage::hit(P);
        assert!(BugSet::NONE.with(Bug::CseNegSat).has(Bug::CseNegSat));
        u.record(3, w);
        assert!(u.replay(3));
        assert!(!u.replay(2), "another pass");
        assert_eq!(bugs::hits(), 2);
        u.changed();
        assert!(!u.replay(3), "another version of the program");
        assert_eq!(rec.finish(), coverage::Hits::from([("test:p", 4)]));
    }
}

#[cfg(test)]
mod replay_tests {
    use super::*;
    use crate::bugs::{self, Bug, BugSet};
    use crate::{coverage, Strategy};

    /// Everything an observer and a recording see of one compile.
    fn observe(p: &ir::Program, opts: &CompileOptions) -> (Vec<String>, coverage::Hits, u64) {
        let mut seen = Vec::new();
        let mut obs = |s: Snapshot<'_>| {
            seen.push(match s.code {
                Code::Ir(p) => format!("{}\n{}", s.stage, ir::print_program(p)),
                Code::Eu(v) => format!("{}\n{}", s.stage, v.text()),
                Code::Final(p) => format!("{}\n{}", s.stage, eu::print_program(p)),
            })
        };
        bugs::reset_hits();
        let rec = coverage::Recording::start();
        let out =
            crate::compile_with_hook(p, opts, &mut obs).map(|c| eu::print_program(&c.program));
        let hits = rec.finish();
        seen.push(format!("{out:?}"));
        (seen, hits, bugs::hits())
    }

    fn opts(strategy: Strategy, passes: PassSet, bugs: BugSet) -> CompileOptions {
        CompileOptions {
            bugs,
            ..CompileOptions::new(strategy, 8, passes)
        }
    }

    /// How many kept phases start from the code `strategy` lowers `p` to.
    fn kept_for(p: &ir::Program, o: &CompileOptions) -> usize {
        let lowered = crate::lower::lower(p, o).unwrap();
        PHASES.with(|m| m.borrow().count(|k| k.lowered == lowered))
    }

    #[test]
    fn strategies_lowering_alike_share_one_phase_and_see_the_same() {
        // No booleans: every strategy lowers the case to the same code.
        let text = include_str!("../../corpus/bugs/cse-neg-sat.sir");
        let p = ir::parse_case(text).unwrap().program;
        let bugs = BugSet::NONE.with(Bug::CseNegSat);
        let bool32 = observe(&p, &opts(Strategy::Bool32, PassSet::all(), bugs));
        assert!(bool32.2 > 0, "the bug merges the two MULs in EU CSE");
        assert!(bool32.1.keys().any(|k| k.starts_with("eu:cse/")));
        let native = observe(&p, &opts(Strategy::Native, PassSet::all(), bugs));
        assert_eq!(native, bool32);
        assert_eq!(
            kept_for(&p, &opts(Strategy::Native, PassSet::all(), bugs)),
            1
        );
        // Spilling everything reads the same lowered code under another
        // key: another phase, with its own result.
        let mut spill = PassSet::all();
        spill.spill_all = true;
        let spilled = observe(&p, &opts(Strategy::Native, spill, bugs));
        assert_ne!(spilled.0.last(), bool32.0.last());
        assert_eq!(
            kept_for(&p, &opts(Strategy::Native, PassSet::all(), bugs)),
            2
        );
    }

    #[test]
    fn a_phase_run_without_recording_is_run_again_for_a_recording() {
        let text = include_str!("../../corpus/bugs/cse-neg-sat.sir");
        let p = ir::parse_case(text).unwrap().program;
        let o = opts(Strategy::Flag, PassSet::all(), BugSet::NONE);
        crate::compile(&p, &o).unwrap();
        let recorded = observe(&p, &o);
        assert!(recorded.1.keys().any(|k| k.starts_with("eu:")));
        assert_eq!(observe(&p, &o), recorded);
        assert_eq!(kept_for(&p, &o), 1);
    }

    /// An observer that wants only the stages that changed the program.
    #[derive(Default)]
    struct StagesOnly(Vec<StageId>);

    impl Observer for StagesOnly {
        fn snapshot(&mut self, s: Snapshot<'_>) {
            self.0.push(s.stage);
        }
        fn wants_code(&self) -> bool {
            false
        }
        fn changed(&mut self, stage: StageId) {
            self.0.push(stage);
        }
    }

    #[test]
    fn a_phase_kept_without_code_replays_stages_and_is_run_again_for_code() {
        let text = include_str!("../../corpus/bugs/cse-neg-sat.sir");
        let p = ir::parse_case(text).unwrap().program;
        let o = opts(Strategy::Bool32, PassSet::all(), BugSet::NONE);
        // What a code-wanting observer sees on a thread that kept nothing.
        let (q, oo) = (p.clone(), o.clone());
        let fresh = std::thread::spawn(move || observe(&q, &oo)).join().unwrap();
        let stages: Vec<String> = fresh.0[..fresh.0.len() - 1]
            .iter()
            .map(|s| s.lines().next().unwrap().to_string())
            .collect();
        // A stages-only compile keeps the phase without code; its replay to
        // another stages-only observer tells the same stages.
        let run = |obs: &mut StagesOnly| {
            let rec = coverage::Recording::start();
            crate::compile_with_hook(&p, &o, obs).unwrap();
            rec.finish()
        };
        let (mut first, mut again) = (StagesOnly::default(), StagesOnly::default());
        let hits = run(&mut first);
        assert_eq!(run(&mut again), hits);
        let names = |v: &StagesOnly| v.0.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&first), stages);
        assert_eq!(names(&again), stages);
        // A code-wanting observer is not given the phase without code: it
        // runs again, and the phase is kept once, now with code.
        assert_eq!(observe(&p, &o), fresh);
        assert_eq!(kept_for(&p, &o), 1);
    }
}

#[cfg(test)]
mod identity_tests {
    use super::*;
    use crate::{PassSet, Strategy};

    /// A pass that changes nothing must not even borrow the instructions
    /// mutably: that would forget the list's identity (and copy the list
    /// its memories share), so every later analysis would compare it again.
    #[test]
    fn a_pass_that_changes_nothing_keeps_the_program_identity() {
        let mut checked: Vec<String> = Vec::new();
        for name in [
            "bool_loop_phi",
            "cmod_patterns",
            "bool_mixed_combine",
            "conv_f2i",
            "loop_break_continue",
            "seed002_cmp_sel",
        ] {
            let case = crate::brw::testutil::corpus_case(name);
            for strategy in [Strategy::Bool32, Strategy::Flag, Strategy::Vec4] {
                let opts = CompileOptions::new(strategy, 8, PassSet::all());
                // The optimizer's fixpoint: another round changes nothing.
                let mut v = match crate::compile(&case.program, &opts) {
                    Ok(c) => c.virt,
                    // The vec4 backend does not take every case.
                    Err(CompileError::Unsupported { .. }) => continue,
                    Err(e) => panic!("{name} {strategy:?}: {e:?}"),
                };
                let ctx = PassCtx::of(&opts);
                let stage = backend_stage(&v);
                for (_, info) in opts.passes.iter().filter(|(_, i)| i.stage == stage) {
                    let passes::Entry::Eu(f) = info.entry else {
                        continue;
                    };
                    let before = v.insts.id();
                    assert!(
                        !f(&mut v, &ctx),
                        "{name} {strategy:?}: {} changed",
                        info.name
                    );
                    assert_eq!(v.insts.id(), before, "{name} {strategy:?}: {}", info.name);
                    checked.push(info.full_name());
                }
            }
        }
        checked.sort();
        checked.dedup();
        // Every EU and vec4 pass was held to it.
        let mut all: Vec<String> = passes::PASSES
            .iter()
            .filter(|p| matches!(p.entry, passes::Entry::Eu(_)))
            .map(|p| p.full_name())
            .collect();
        all.sort();
        assert_eq!(checked, all);
    }
}
