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
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use triage::signature::{Bucket, BucketIndex, Recorded};

/// The bucket index and the reduction queue.
pub struct Buckets {
    index: BucketIndex,
    dir: PathBuf,
    findings: PathBuf,
    queued: BTreeSet<String>,
    jobs: Option<Sender<Job>>,
}

impl Buckets {
    /// Loads `dir/buckets.json` (empty unless resuming) and queues onto
    /// `jobs`. On a resume, reductions that failed are retried (call
    /// [`Buckets::reconcile`] next).
    pub fn open(dir: &Path, resume: bool, jobs: Sender<Job>) -> Result<Buckets> {
        let index = if resume {
            BucketIndex::load(dir).map_err(|e| anyhow!("{e}"))?
        } else {
            BucketIndex::default()
        };
        let mut b = Buckets {
            index,
            dir: dir.to_path_buf(),
            findings: dir.join("findings"),
            queued: BTreeSet::new(),
            jobs: Some(jobs),
        };
        if resume {
            // Failed reductions are retried.
            for bucket in b.index.buckets.values_mut() {
                bucket.reduce_error = None;
            }
        }
        Ok(b)
    }

    /// Makes the index agree with the findings on disk, which are the
    /// truth: an index that is missing or older than the findings (written
    /// before a finding appeared or was replaced by a lower case) would
    /// otherwise queue a reduction whose result never matches its bucket,
    /// forever. A finding without a bucket gets one (its `hits` and
    /// `first_seen` are then lower bounds: 1 and the first run its case
    /// could have had); a bucket whose first case differs from its
    /// finding's takes the finding's; a bucket with no finding goes.
    /// Returns one line per change.
    pub fn reconcile(&mut self) -> Vec<String> {
        let mut notes = Vec::new();
        let on_disk: Vec<(String, u64)> = findings::list(&self.findings)
            .into_iter()
            .filter_map(|sig| {
                let idx = findings::existing_index(&self.findings.join(&sig))?;
                Some((sig, idx))
            })
            .collect();
        for (sig, idx) in &on_disk {
            let reduced = self.findings.join(sig).join("reduced").is_dir();
            match self.index.buckets.get_mut(sig) {
                None => {
                    self.index.buckets.insert(
                        sig.clone(),
                        Bucket {
                            first_case: *idx,
                            hits: 1,
                            first_seen: idx + 1,
                            reduced,
                            reduce_error: None,
                            variants: findings::read_config(&self.findings.join(sig))
                                .map(|c| BTreeMap::from([(c.variant().key(), 1)]))
                                .unwrap_or_default(),
                        },
                    );
                    notes.push(format!("{sig}: rebuilt from its finding (case {idx})"));
                }
                Some(b) if b.first_case != *idx => {
                    notes.push(format!(
                        "{sig}: first case {} in the index, {idx} on disk; the finding wins",
                        b.first_case
                    ));
                    b.first_case = *idx;
                    b.reduced = reduced;
                    b.reduce_error = None;
                }
                Some(b) => b.reduced = reduced,
            }
        }
        let gone: Vec<String> = self
            .index
            .buckets
            .keys()
            .filter(|s| !on_disk.iter().any(|(d, _)| d == *s))
            .cloned()
            .collect();
        for sig in gone {
            self.index.buckets.remove(&sig);
            notes.push(format!("{sig}: no finding on disk; dropped from the index"));
        }
        notes
    }

    /// The index itself.
    pub fn into_index(self) -> BucketIndex {
        self.index
    }

    /// Buckets whose last reduction failed, with why.
    pub fn failed_reductions(&self) -> Vec<(String, String)> {
        self.index
            .buckets
            .iter()
            .filter_map(|(s, b)| b.reduce_error.clone().map(|e| (s.clone(), e)))
            .collect()
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
    pub fn record(
        &mut self,
        signature: &str,
        variant: &str,
        case: u64,
        run: u64,
        stored: Stored,
    ) -> bool {
        let r = self.index.record(signature, variant, case, run);
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

    /// Buckets in the index.
    pub fn len(&self) -> usize {
        self.index.buckets.len()
    }

    /// Whether the index has no bucket.
    pub fn is_empty(&self) -> bool {
        self.index.buckets.is_empty()
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
