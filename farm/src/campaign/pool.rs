//! The worker pool: workers take case indices in order from a shared
//! cursor, skip the cases a resumed campaign has done, run each and send its
//! result to the collector, until the cursor passes the case limit, the
//! deadline passes or the stop flag is set.

use super::case::CaseResult;
use super::stats::Checkpoint;
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::Scope;
use std::time::Instant;

/// What the workers share: the next case index and when to stop.
pub struct Cursor<'a> {
    /// The next case index to hand out.
    pub next: AtomicU64,
    /// One past the last case index of the run.
    pub limit: u64,
    /// Cases done before this run (skipped).
    pub done: &'a Checkpoint,
    /// Set to stop (SIGINT, SIGTERM, an error in the collector).
    pub stop: &'a AtomicBool,
    /// Stop handing out cases after this instant.
    pub deadline: Option<Instant>,
}

impl Cursor<'_> {
    /// The next case to run, or `None` when the run is over.
    fn take(&self) -> Option<u64> {
        loop {
            if self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                return None;
            }
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k >= self.limit {
                return None;
            }
            if !self.done.is_done(k) {
                return Some(k);
            }
        }
    }
}

/// Starts `jobs` workers in `scope`, each running `work` on the cases the
/// cursor hands out and sending the results on `tx`. The channel closes
/// when every worker has finished.
pub fn spawn_workers<'scope, 'env, W>(
    scope: &'scope Scope<'scope, 'env>,
    jobs: usize,
    cursor: &'scope Cursor<'env>,
    work: &'scope W,
    tx: Sender<CaseResult>,
) where
    W: Fn(u64) -> Option<CaseResult> + Sync,
{
    for _ in 0..jobs {
        let tx = tx.clone();
        scope.spawn(move || {
            while let Some(k) = cursor.take() {
                // `None`: the campaign stopped while the case waited.
                let Some(r) = work(k) else { break };
                if tx.send(r).is_err() {
                    break;
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_cover_every_case_not_done_exactly_once() {
        let mut done = Checkpoint::default();
        for k in [0, 1, 2, 5] {
            done.mark(k);
        }
        let stop = AtomicBool::new(false);
        let cursor = Cursor {
            next: AtomicU64::new(done.watermark),
            limit: 9,
            done: &done,
            stop: &stop,
            deadline: None,
        };
        let work = |k: u64| {
            Some(CaseResult {
                local: k,
                global: k,
                origin: crate::campaign::feedback::Origin::Fresh,
                rare: vec![],
                coverage: Default::default(),
                runs: vec![],
                changed: vec![],
                findings: vec![],
                suspect: false,
                driver: Default::default(),
                error: None,
            })
        };
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::scope(|s| spawn_workers(s, 3, &cursor, &work, tx));
        let mut got: Vec<u64> = rx.iter().map(|r| r.local).collect();
        got.sort();
        assert_eq!(got, vec![3, 4, 6, 7, 8]);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(cursor.take(), None);
    }
}
