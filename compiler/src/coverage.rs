//! Decision-point coverage: which rewrites each pass applied and which
//! legality checks refused one (by reason), which choices lowering made per
//! strategy, and what register allocation did, recorded per compile.
//!
//! Every point is declared once, in the module that decides it, with the
//! [`points!`](crate::points) macro: a constant per point and the module's
//! `POINTS` list. A point's name is stable and starts with its stage
//! (`eu:cmod-prop/fold-into-producer/sat`, `lowering/bool16/...`,
//! `regalloc/...`); the pass table ([`crate::PASSES`]) carries each pass's
//! list and [`catalogue`] joins them with lowering's and register
//! allocation's, so a campaign can say which points it never reached.
//!
//! Recording is per thread and off unless a [`Recording`] is active: a pass
//! calls [`hit`] where it decides, which costs a thread-local check when
//! nobody records and a push when someone does. Recordings nest (the outer
//! one resumes when the inner one finishes).

use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// One decision point: a rewrite a pass can apply, a reason it can refuse
/// one, a lowering choice or a register-allocation event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub &'static str);

impl Point {
    /// Its stable name.
    pub const fn name(self) -> &'static str {
        self.0
    }
}

/// Declares a module's decision points: a `pub const` per point and
/// `pub const POINTS`, every point of the module in order.
///
/// ```
/// compiler::points! {
///     /// The rewrite.
///     FOLD = "eu:example/fold",
///     /// A refusal.
///     REFUSE_TYPE = "eu:example/refuse/type",
/// }
/// assert_eq!(POINTS, [FOLD, REFUSE_TYPE]);
/// ```
#[macro_export]
macro_rules! points {
    ($( $(#[$doc:meta])* $id:ident = $name:literal ),* $(,)?) => {
        $( $(#[$doc])* pub const $id: $crate::coverage::Point = $crate::coverage::Point($name); )*
        /// Every decision point of this module.
        pub const POINTS: &[$crate::coverage::Point] = &[$($id),*];
    };
}

thread_local! {
    /// The active recordings of this thread, innermost last.
    static ACTIVE: RefCell<Vec<Vec<Point>>> = const { RefCell::new(Vec::new()) };
}

/// Records that `point` was reached, if this thread is recording.
#[inline]
pub fn hit(point: Point) {
    ACTIVE.with(|a| {
        if let Some(top) = a.borrow_mut().last_mut() {
            top.push(point);
        }
    });
}

/// Where the innermost active recording of this thread stands (None when
/// nothing records): [`since`] takes what it recorded after this.
pub fn mark() -> Option<usize> {
    ACTIVE.with(|a| a.borrow().last().map(Vec::len))
}

/// The points the innermost recording got since `mark` (None when nothing
/// was recording then, or nothing records now).
pub fn since(mark: Option<usize>) -> Option<Vec<Point>> {
    let m = mark?;
    ACTIVE.with(|a| {
        a.borrow()
            .last()
            .and_then(|top| top.get(m..).map(<[Point]>::to_vec))
    })
}

/// Records `points` again, in order, as if each were [`hit`] now (a
/// replayed phase of a compile reports what the phase reached).
pub fn replay(points: &[Point]) {
    ACTIVE.with(|a| {
        if let Some(top) = a.borrow_mut().last_mut() {
            top.extend_from_slice(points);
        }
    });
}

/// How often each point was reached.
pub type Hits = BTreeMap<&'static str, u32>;

/// An active recording on this thread; [`Recording::finish`] ends it.
/// Dropping it unfinished (a panic unwinding through) ends it too.
#[must_use = "a recording records until it is finished"]
pub struct Recording {
    depth: usize,
    finished: bool,
}

impl Recording {
    /// Starts recording on this thread.
    pub fn start() -> Recording {
        let depth = ACTIVE.with(|a| {
            let mut a = a.borrow_mut();
            a.push(Vec::new());
            a.len()
        });
        Recording {
            depth,
            finished: false,
        }
    }

    /// Ends the recording and counts what it saw.
    pub fn finish(mut self) -> Hits {
        self.finished = true;
        let points = self.pop();
        // Count by address first (integer keys, one pass), then add the
        // counts under each name: a name may sit at more than one address,
        // and the map adds those together.
        // A point is often reached several times in a row (a pass's loop
        // over instructions): each run of one point is counted at once.
        let mut by_address: FxHashMap<(usize, usize), (&'static str, u32)> =
            FxHashMap::with_capacity_and_hasher(64, Default::default());
        for run in points.chunk_by(|a, b| std::ptr::eq(a.0, b.0)) {
            let p = run[0];
            by_address
                .entry((p.0.as_ptr() as usize, p.0.len()))
                .or_insert((p.0, 0))
                .1 += run.len() as u32;
        }
        let mut hits = Hits::new();
        for (name, count) in by_address.into_values() {
            *hits.entry(name).or_default() += count;
        }
        hits
    }

    /// Pops this recording (and any inner one left unfinished).
    fn pop(&self) -> Vec<Point> {
        ACTIVE.with(|a| {
            let mut a = a.borrow_mut();
            a.truncate(self.depth);
            a.pop().unwrap_or_default()
        })
    }
}

impl Drop for Recording {
    fn drop(&mut self) {
        if !self.finished {
            self.pop();
        }
    }
}

/// Every decision point of the compiler: each pass's (in pass-table
/// order), then lowering's, then register allocation's.
pub fn catalogue() -> Vec<Point> {
    crate::PASSES
        .iter()
        .flat_map(|p| p.points.iter().copied())
        .chain(crate::lower::cov::POINTS.iter().copied())
        .chain(crate::vec4::LOWERING_POINTS.iter().copied())
        .chain(crate::regalloc::cov::POINTS.iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    points! {
        A = "test:a",
        B = "test:b",
    }

    #[test]
    fn recordings_count_hits_and_nest() {
        hit(A); // nobody records: nothing happens
        let outer = Recording::start();
        hit(A);
        let inner = Recording::start();
        hit(B);
        hit(B);
        assert_eq!(inner.finish(), Hits::from([("test:b", 2)]));
        hit(A);
        assert_eq!(outer.finish(), Hits::from([("test:a", 2)]));
        assert_eq!(POINTS, [A, B]);
    }

    #[test]
    fn a_stretch_of_a_recording_can_be_taken_and_replayed() {
        assert_eq!(mark(), None);
        assert_eq!(since(None), None);
        let r = Recording::start();
        hit(A);
        let m = mark();
        assert_eq!(m, Some(1));
        hit(B);
        hit(A);
        let got = since(m).unwrap();
        assert_eq!(got, vec![B, A]);
        replay(&got);
        assert_eq!(r.finish(), Hits::from([("test:a", 3), ("test:b", 2)]));
        // Nothing records now: nothing to take, and a replay is lost.
        assert_eq!(since(m), None);
        replay(&got);
        assert_eq!(mark(), None);
    }

    #[test]
    fn one_name_at_two_addresses_is_one_point() {
        let x1 = Point(Box::leak(String::from("test:x").into_boxed_str()));
        let x2 = Point(Box::leak(String::from("test:x").into_boxed_str()));
        assert!(!std::ptr::eq(x1.0, x2.0));
        let r = Recording::start();
        for p in [x1, A, x2, x1, B] {
            hit(p);
        }
        assert_eq!(
            r.finish(),
            Hits::from([("test:a", 1), ("test:b", 1), ("test:x", 3)])
        );
    }

    #[test]
    fn an_abandoned_recording_ends_with_its_scope() {
        let outer = Recording::start();
        {
            let _inner = Recording::start();
            hit(B);
        }
        hit(A);
        assert_eq!(outer.finish(), Hits::from([("test:a", 1)]));
    }

    #[test]
    fn the_catalogue_names_every_point_once_under_its_stage() {
        let all = catalogue();
        let mut seen = std::collections::BTreeSet::new();
        for p in &all {
            assert!(seen.insert(p.name()), "{} is declared twice", p.name());
        }
        for pass in crate::PASSES {
            let prefix = format!("{}/", pass.full_name());
            for p in pass.points {
                assert!(
                    p.name().starts_with(&prefix),
                    "{} is listed under {}",
                    p.name(),
                    pass.full_name()
                );
            }
        }
        for p in crate::lower::cov::POINTS
            .iter()
            .chain(crate::vec4::LOWERING_POINTS)
        {
            assert!(p.name().starts_with("lowering/"), "{}", p.name());
        }
        for p in crate::regalloc::cov::POINTS {
            assert!(p.name().starts_with("regalloc/"), "{}", p.name());
        }
        for p in &all {
            let rest = p.name().split_once('/').map_or("", |x| x.1);
            assert!(
                !rest.is_empty()
                    && rest.split('/').all(|part| !part.is_empty()
                        && part
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')),
                "{} is not stage/kebab-case/...",
                p.name()
            );
        }
    }
}
