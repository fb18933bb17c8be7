//! The collector's side of bucketing: the persistent index
//! (`DIR/buckets.json`), kept up to date as findings arrive, and the bounded
//! queue of buckets waiting for the background reducer.
//!
//! Consistency with `--resume`: the index records which cases' hits it has
//! counted, and is saved whenever a bucket appears, changes its first case or
//! is reduced, and before every checkpoint. A case the checkpoint missed is
//! redone on resume and its hits are then not counted twice.

use super::findings::{self, FindingConfig, Stored};
use super::reduce::{Done, Job};
use anyhow::{anyhow, Result};
use crossbeam_channel::{Sender, TrySendError};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use triage::signature::{BucketIndex, Recorded};

/// The bucket index and the reduction queue.
pub struct Buckets {
    index: BucketIndex,
    dir: PathBuf,
    findings: PathBuf,
    queued: BTreeSet<String>,
    jobs: Option<Sender<Job>>,
}

impl Buckets {
    /// Loads `dir/buckets.json` (empty unless resuming) and queues onto `jobs`.
    pub fn open(dir: &Path, resume: bool, jobs: Sender<Job>) -> Result<Buckets> {
        let index = if resume {
            BucketIndex::load(dir).map_err(|e| anyhow!("{e}"))?
        } else {
            BucketIndex::default()
        };
        Ok(Buckets {
            index,
            dir: dir.to_path_buf(),
            findings: dir.join("findings"),
            queued: BTreeSet::new(),
            jobs: Some(jobs),
        })
    }

    /// Marks local case `local` as counted; false if it already was (a case
    /// redone after a kill), and then its hits must not be recorded.
    pub fn count_case(&mut self, local: u64) -> bool {
        self.index.counted.insert(local)
    }

    /// Records one hit (a stored finding) of a counted case; `run` is the
    /// campaign's config-run number of the hit. Returns whether a bucket
    /// appeared or changed, so that the index should be saved (once every
    /// hit of the case is recorded: the index must never hold part of a case).
    pub fn record(&mut self, signature: &str, case: u64, run: u64, stored: Stored) -> bool {
        let r = self.index.record(signature, case, run);
        if stored == Stored::Replaced && r == Recorded::Counted {
            // The finding changed under an index that did not know it
            // (e.g. buckets.json from an older farm): reduce it again.
            if let Some(b) = self.index.buckets.get_mut(signature) {
                b.reduced = false;
                b.reduce_error = None;
            }
        }
        r != Recorded::Counted || stored == Stored::Replaced
    }

    /// Writes `buckets.json` atomically.
    pub fn save(&self) -> Result<()> {
        self.index.save(&self.dir).map_err(|e| anyhow!("{e}"))
    }

    /// Buckets whose finding is reduced.
    pub fn reduced(&self) -> usize {
        self.index.reduced()
    }

    /// Buckets waiting to be reduced (queued, being reduced, or waiting for
    /// room in the queue).
    pub fn waiting(&self) -> usize {
        self.index
            .buckets
            .values()
            .filter(|b| !b.reduced && b.reduce_error.is_none())
            .count()
    }

    /// Whether a reduction is queued or running.
    pub fn busy(&self) -> bool {
        !self.queued.is_empty()
    }

    /// Stops queueing (closing the queue lets the reducer thread finish).
    pub fn close(&mut self) {
        self.jobs = None;
    }

    /// Queues waiting buckets, earliest first, while the queue has room.
    /// Never blocks.
    pub fn fill_queue(&mut self) {
        let Some(jobs) = &self.jobs else { return };
        let mut waiting: Vec<(u64, &String)> = self
            .index
            .buckets
            .iter()
            .filter(|(s, b)| !b.reduced && b.reduce_error.is_none() && !self.queued.contains(*s))
            .map(|(s, b)| (b.first_seen, s))
            .collect();
        waiting.sort();
        let (mut sent, mut unreadable) = (Vec::new(), Vec::new());
        for (_, sig) in waiting {
            if jobs.is_full() {
                break;
            }
            let job = match read_job(&self.findings, sig) {
                Ok(j) => j,
                Err(e) => {
                    unreadable.push((sig.clone(), format!("cannot read the finding: {e:#}")));
                    continue;
                }
            };
            match jobs.try_send(job) {
                Ok(()) => sent.push(sig.clone()),
                Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => break,
            }
        }
        self.queued.extend(sent);
        for (sig, e) in unreadable {
            if let Some(b) = self.index.buckets.get_mut(&sig) {
                b.reduce_error = Some(e);
            }
        }
    }

    /// Takes in a finished reduction: moves it into the finding's
    /// `reduced/` directory if the finding is still the one reduced.
    pub fn finish(&mut self, d: Done) -> Result<()> {
        self.queued.remove(&d.signature);
        let current = self
            .index
            .buckets
            .get(&d.signature)
            .map(|b| b.first_case)
            .filter(|&c| c == d.case_index);
        let on_disk = findings::existing_index(&self.findings.join(&d.signature));
        let Some(b) = self.index.buckets.get_mut(&d.signature) else {
            return Ok(());
        };
        if current.is_none() || on_disk != Some(d.case_index) {
            // A lower case replaced the finding meanwhile; it is queued anew.
            if let Ok(tmp) = &d.result {
                let _ = std::fs::remove_dir_all(tmp);
            }
            return Ok(());
        }
        match d.result {
            Ok(tmp) => {
                let dest = self.findings.join(&d.signature).join("reduced");
                match crate::durable::publish_dir(&tmp, &dest) {
                    Ok(()) => b.reduced = true,
                    Err(e) => {
                        let _ = std::fs::remove_dir_all(&tmp);
                        b.reduce_error = Some(format!("{e:#}"));
                    }
                }
            }
            Err(e) => b.reduce_error = Some(e),
        }
        self.save()
    }
}

/// The reduction job of the finding `findings/<signature>/`.
fn read_job(findings: &Path, signature: &str) -> Result<Job> {
    let dir = findings.join(signature);
    let case_text = std::fs::read_to_string(dir.join("case.sir"))?;
    let config: FindingConfig =
        serde_json::from_str(&std::fs::read_to_string(dir.join("config.json"))?)?;
    Ok(Job {
        signature: signature.to_string(),
        case_index: config.case_index,
        case_text,
        config,
    })
}
