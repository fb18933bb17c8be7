//! What a stretch of a compile reported to the thread's recorders: the
//! decision points it reached (`coverage`) and the injected-bug hits it
//! counted (`bugs::hits`). A stretch whose result is reused instead of run
//! again (a replayed IR phase, a pass run on a program it already left
//! unchanged) reports the same through [`Trace::replay`].

use crate::coverage::{self, Point};

/// Where the recorders stood when a stretch started.
pub(crate) struct Start {
    mark: Option<usize>,
    bug_hits: u64,
}

/// What a stretch reported.
#[derive(Clone, Debug)]
pub(crate) struct Trace {
    /// Its decision points (None when nothing was recording, so a recording
    /// compile cannot reuse it).
    pub points: Option<Vec<Point>>,
    /// Its injected-bug hits.
    pub bug_hits: u64,
}

impl Start {
    /// Starts watching now.
    pub fn now() -> Start {
        Start {
            mark: coverage::mark(),
            bug_hits: crate::bugs::hits(),
        }
    }

    /// What was reported since [`Start::now`].
    pub fn finish(self) -> Trace {
        Trace {
            points: coverage::since(self.mark),
            bug_hits: crate::bugs::hits() - self.bug_hits,
        }
    }
}

impl Trace {
    /// Reports it again.
    pub fn replay(&self) {
        if let Some(points) = &self.points {
            coverage::replay(points);
        }
        crate::bugs::add_hits(self.bug_hits);
    }

    /// Whether replaying it tells the current recording everything (it
    /// was watched while something recorded, or nothing records now).
    pub fn complete(&self) -> bool {
        self.points.is_some() || coverage::mark().is_none()
    }
}
