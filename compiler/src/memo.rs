//! Phases of a compile remembered per thread and replayed, not repeated.
//!
//! A phase (the IR passes to their fixpoint, or everything after lowering)
//! is a pure function of a key: the program it starts from and the options
//! it reads. The configs of a campaign case repeat phases: every boolean
//! strategy runs the same IR phase, and strategies that lower a case to the
//! same EU code (native and native-min almost always, bool32 and native
//! often) run the same EU phase. A thread keeps its last few phases with
//! everything they told the world, and a compile that finds its key replays
//! one: the observer sees the same stage starts and snapshots, the coverage
//! recording the same decision points, the injected-bug counter the same
//! hits, and the caller gets the same result or error. A phase that
//! panicked is never kept, so its panic repeats next time. A phase run
//! while nothing recorded coverage is not replayed to a recording compile
//! ([`Trace::complete`]).

use crate::trace::{Start, Trace};
use crate::{Code, CompileError, Observer, Snapshot, StageId, VProgram};
use std::cell::RefCell;
use std::rc::Rc;
use std::thread::LocalKey;

/// One thing a phase told its observer.
#[derive(Clone)]
enum Event {
    Begin(StageId),
    Ir(StageId, Rc<ir::Program>),
    Eu(StageId, Rc<VProgram>),
    Final(StageId, Rc<eu::Program>),
    /// A snapshot whose code was not kept (the observer did not want it).
    Changed(StageId),
}

/// A finished phase: everything a replay must reproduce.
pub(crate) struct Phase<R> {
    events: Vec<Event>,
    /// Whether its snapshots were kept with their code: a phase kept
    /// without is replayed only to observers that do not want code.
    code: bool,
    /// What it reported to the recorders.
    trace: Trace,
    result: Result<R, CompileError>,
}

/// The last phases a thread ran, most recent last, with their keys.
pub(crate) struct Kept<K, R> {
    phases: Vec<(K, Rc<Phase<R>>)>,
}

impl<K, R> Kept<K, R> {
    /// Nothing kept yet.
    pub const fn new() -> Kept<K, R> {
        Kept { phases: Vec::new() }
    }

    /// How many kept phases satisfy `f` (for tests).
    #[cfg(test)]
    pub fn count(&self, f: impl Fn(&K) -> bool) -> usize {
        self.phases.iter().filter(|(k, _)| f(k)).count()
    }
}

/// An observer that passes everything on and writes it down.
struct Tape<'a> {
    inner: &'a mut dyn Observer,
    events: Vec<Event>,
    /// Whether snapshots are kept with their code (the observer wants it).
    code: bool,
}

impl Observer for Tape<'_> {
    fn begin(&mut self, stage: StageId) {
        self.events.push(Event::Begin(stage));
        self.inner.begin(stage);
    }

    fn snapshot(&mut self, s: Snapshot<'_>) {
        self.events.push(match s.code {
            _ if !self.code => Event::Changed(s.stage),
            Code::Ir(p) => Event::Ir(s.stage, Rc::new(p.clone())),
            Code::Eu(v) => Event::Eu(s.stage, Rc::new(v.clone())),
            Code::Final(p) => Event::Final(s.stage, Rc::new(p.clone())),
        });
        self.inner.snapshot(s);
    }

    fn wants_code(&self) -> bool {
        self.code
    }

    fn changed(&mut self, stage: StageId) {
        self.events.push(Event::Changed(stage));
        self.inner.changed(stage);
    }
}

/// Replays the kept phase whose key satisfies `matches` to `observer`
/// and returns its result, if `store` holds one ([`kept`]).
pub(crate) fn replayed<K: 'static, R: Clone + 'static>(
    store: &'static LocalKey<RefCell<Kept<K, R>>>,
    matches: impl Fn(&K) -> bool,
    observer: &mut dyn Observer,
) -> Option<Result<R, CompileError>> {
    kept(store, matches, observer).map(|ph| replay(&ph, observer))
}

/// The kept phase whose key satisfies `matches`, if `store` holds one that
/// can tell `observer` everything: a recording compile every decision
/// point, an observer that wants code the code.
pub(crate) fn kept<K: 'static, R: 'static>(
    store: &'static LocalKey<RefCell<Kept<K, R>>>,
    matches: impl Fn(&K) -> bool,
    observer: &dyn Observer,
) -> Option<Rc<Phase<R>>> {
    let wants_code = observer.wants_code();
    store.with(|s| {
        s.borrow()
            .phases
            .iter()
            .find(|(k, ph)| ph.trace.complete() && (ph.code || !wants_code) && matches(k))
            .map(|(_, ph)| ph.clone())
    })
}

/// Runs `phase` under `observer` and keeps it in `store` under `key`,
/// displacing the oldest once `capacity` are kept (call it when
/// [`replayed`] found nothing).
pub(crate) fn run_and_keep<K: PartialEq + 'static, R: Clone + 'static>(
    store: &'static LocalKey<RefCell<Kept<K, R>>>,
    capacity: usize,
    key: K,
    observer: &mut dyn Observer,
    phase: impl FnOnce(&mut dyn Observer) -> Result<R, CompileError>,
) -> Result<R, CompileError> {
    let start = Start::now();
    let code = observer.wants_code();
    let mut tape = Tape {
        inner: observer,
        events: Vec::new(),
        code,
    };
    let result = phase(&mut tape);
    let kept = Phase {
        events: tape.events,
        code,
        trace: start.finish(),
        result: result.clone(),
    };
    store.with(|s| {
        let mut s = s.borrow_mut();
        // A kept phase under the same key ran without a recording, or
        // without code.
        s.phases.retain(|(k, _)| *k != key);
        if s.phases.len() >= capacity {
            s.phases.remove(0);
        }
        s.phases.push((key, Rc::new(kept)));
    });
    result
}

/// Tells `observer`, the coverage recording and the bug counter what the
/// phase told them, and returns its result.
pub(crate) fn replay<R: Clone>(
    ph: &Phase<R>,
    observer: &mut dyn Observer,
) -> Result<R, CompileError> {
    for e in &ph.events {
        match e {
            Event::Begin(stage) => observer.begin(*stage),
            Event::Changed(stage) => observer.changed(*stage),
            Event::Ir(stage, p) => observer.snapshot(Snapshot {
                stage: *stage,
                code: Code::Ir(p),
            }),
            Event::Eu(stage, v) => observer.snapshot(Snapshot {
                stage: *stage,
                code: Code::Eu(v),
            }),
            Event::Final(stage, p) => observer.snapshot(Snapshot {
                stage: *stage,
                code: Code::Final(p),
            }),
        }
    }
    ph.trace.replay();
    ph.result.clone()
}

/// A thread's one-entry memory: the last key asked about and its value.
pub(crate) type Last<K, V> = RefCell<Option<(K, V)>>;

/// The value a thread's one-entry memory `last` keeps under `key`, or else
/// `make`'s, then kept there under `key` (the analyses that hand out their
/// last answer again while asked about the same thing).
pub(crate) fn last_or<K: PartialEq + 'static, V: Clone + 'static>(
    last: &'static LocalKey<Last<K, V>>,
    key: K,
    make: impl FnOnce() -> V,
) -> V {
    let known = last.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    });
    known.unwrap_or_else(|| {
        let v = make();
        last.with(|l| *l.borrow_mut() = Some((key, v.clone())));
        v
    })
}
