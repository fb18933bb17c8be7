//! Merging the directories of a sharded campaign into one complete campaign
//! directory: the findings (each signature's lowest case, with its
//! reduction), the bucket index (hits summed, first case and first-seen run
//! the lowest, in the unsharded campaign's numbering), `campaign.json`
//! (naming every shard it holds, so a merged directory can be merged again)
//! and a checkpoint (the done cases in the unsharded numbering, the counters
//! summed). Shards of different campaigns, or the same shard twice, are
//! refused, naming the directory at fault.

use super::buckets::Buckets;
use super::findings::{self, Finding, FindingConfig, FindingVerdict};
use super::stats::{Checkpoint, Counters};
use super::CampaignId;
use crate::durable::{read_json, write_atomic, write_json};
use anyhow::{anyhow, bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use triage::signature::{Bucket, BucketIndex};

/// What a merge made.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The merged campaign's identity.
    pub id: CampaignId,
    /// The merged counters.
    pub counters: Counters,
    /// Every finding's signature.
    pub findings: Vec<String>,
}

/// One shard directory, read.
struct Shard {
    dir: PathBuf,
    id: CampaignId,
    checkpoint: Checkpoint,
    index: BucketIndex,
}

impl Shard {
    fn read(dir: &Path) -> Result<Shard> {
        let id: CampaignId = read_json(&dir.join("campaign.json"))?.ok_or_else(|| {
            anyhow!(
                "{} is not a campaign directory (no campaign.json)",
                dir.display()
            )
        })?;
        let checkpoint: Checkpoint = read_json(&dir.join("checkpoint.json"))?
            .ok_or_else(|| anyhow!("{} has no checkpoint.json", dir.display()))?;
        // The findings on disk are the truth (see `Buckets::reconcile`).
        let (jobs, _queue) = crossbeam_channel::bounded(1);
        let mut b = Buckets::open(dir, true, jobs)?;
        b.reconcile();
        Ok(Shard {
            dir: dir.to_path_buf(),
            id,
            checkpoint,
            index: b.into_index(),
        })
    }

    /// A case of this directory in the unsharded campaign's numbering.
    fn global_case(&self, local: u64) -> u64 {
        if self.id.merged.is_empty() {
            local * self.id.shards + self.id.shard
        } else {
            local
        }
    }

    /// A config-run number of this directory in the unsharded numbering.
    fn global_run(&self, run: u64) -> u64 {
        let r = self.id.runs_per_case();
        let (local, pos) = ((run - 1) / r, (run - 1) % r);
        self.global_case(local) * r + pos + 1
    }
}

/// The identity that must agree between shards: everything but the shard.
fn identity(id: &CampaignId) -> serde_json::Value {
    let mut v = serde_json::to_value(id).expect("a campaign id serializes");
    if let Some(o) = v.as_object_mut() {
        o.remove("shard");
        o.remove("merged");
    }
    v
}

/// The first field in which two identities differ, as `field: a vs b`.
pub(crate) fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> String {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return String::new();
    };
    a.iter()
        .find(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| {
            let other = b.get(k).map_or("(none)".to_string(), |x| x.to_string());
            format!("{k}: {v} vs {other}")
        })
        .unwrap_or_default()
}

/// Merges the campaign directories `dirs` into `out`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> Result<Merged> {
    let shards: Vec<Shard> = dirs.iter().map(|d| Shard::read(d)).collect::<Result<_>>()?;
    let Some(first) = shards.first() else {
        bail!("nothing to merge");
    };
    let want = identity(&first.id);
    let mut seen: BTreeMap<u64, &Path> = BTreeMap::new();
    for s in &shards {
        let have = identity(&s.id);
        if have != want {
            bail!(
                "{} is from another campaign than {} ({})",
                s.dir.display(),
                first.dir.display(),
                first_difference(&want, &have)
            );
        }
        for k in s.id.shard_set() {
            if let Some(other) = seen.insert(k, &s.dir) {
                bail!(
                    "shard {k}/{} is in both {} and {}",
                    s.id.shards,
                    other.display(),
                    s.dir.display()
                );
            }
        }
    }
    let root = out.join("findings");
    std::fs::create_dir_all(&root)
        .with_context(|| format!("cannot create the output directory {}", out.display()))?;
    let _lock = super::lock_dir(out)?;
    let mut counters = Counters::default();
    let mut done = Checkpoint::default();
    let mut index = BucketIndex::default();
    let mut elapsed: f64 = 0.0;
    for s in &shards {
        add_counters(&mut counters, &s.checkpoint.counters);
        elapsed = elapsed.max(s.checkpoint.elapsed_before);
        let c = &s.checkpoint;
        for local in (0..c.watermark).chain(c.done_above.iter().copied()) {
            done.mark(s.global_case(local));
        }
        for local in (0..s.index.counted.watermark).chain(s.index.counted.above.iter().copied()) {
            index.counted.insert(s.global_case(local));
        }
        for (sig, b) in &s.index.buckets {
            let first_seen = s.global_run(b.first_seen);
            let e = index.buckets.entry(sig.clone()).or_insert(Bucket {
                first_case: b.first_case,
                hits: 0,
                first_seen,
                reduced: b.reduced,
                reduce_error: None,
                variants: Default::default(),
            });
            e.hits += b.hits;
            for (k, n) in &b.variants {
                *e.variants.entry(k.clone()).or_default() += n;
            }
            e.first_seen = e.first_seen.min(first_seen);
            if b.first_case < e.first_case {
                e.first_case = b.first_case;
                e.reduced = b.reduced;
            }
        }
        copy_findings(&s.dir.join("findings"), &root)?;
    }
    done.counters = counters.clone();
    done.elapsed_before = elapsed;
    let mut id = first.id.clone();
    id.merged = seen.keys().copied().collect();
    id.shard = id.merged[0];
    // Each bucket's reduction is the one of the finding kept.
    for (sig, b) in index.buckets.iter_mut() {
        b.reduced = root.join(sig).join("reduced").is_dir();
    }
    index.save(out).map_err(|e| anyhow!("{e}"))?;
    write_atomic(
        &out.join("checkpoint.json"),
        (serde_json::to_string(&done)? + "\n").as_bytes(),
    )?;
    write_json(&out.join("campaign.json"), &id)?;
    write_json(&out.join("stats.json"), &counters)?;
    Ok(Merged {
        id,
        counters,
        findings: findings::list(&root),
    })
}

/// Copies every finding of `from` into `to` (the lowest case index wins),
/// with its reduction.
fn copy_findings(from: &Path, to: &Path) -> Result<()> {
    for sig in findings::list(from) {
        let d = from.join(&sig);
        let read = |name: &str| {
            std::fs::read_to_string(d.join(name))
                .with_context(|| format!("cannot read {}", d.join(name).display()))
        };
        let config: FindingConfig = serde_json::from_str(&read("config.json")?).map_err(|e| {
            crate::durable::json_error(&d.join("config.json").display().to_string(), &e)
        })?;
        let verdict: FindingVerdict =
            serde_json::from_str(&read("verdict.json")?).map_err(|e| {
                crate::durable::json_error(&d.join("verdict.json").display().to_string(), &e)
            })?;
        let stored = findings::store(
            to,
            &Finding {
                variant: config.variant(),
                signature: sig.clone(),
                case_text: read("case.sir")?,
                config,
                verdict,
            },
        )?;
        let reduced = d.join("reduced");
        if stored != findings::Stored::Kept && reduced.is_dir() {
            let staged = to.join(format!(".{sig}.reduced.merge"));
            let _ = std::fs::remove_dir_all(&staged);
            std::fs::create_dir_all(&staged)?;
            for e in std::fs::read_dir(&reduced)? {
                let p = e?.path();
                std::fs::copy(&p, staged.join(p.file_name().unwrap_or_default()))
                    .with_context(|| format!("cannot copy {}", p.display()))?;
            }
            crate::durable::publish_dir(&staged, &to.join(&sig).join("reduced"))?;
        }
    }
    Ok(())
}

/// Adds `c` into `total`.
pub fn add_counters(total: &mut Counters, c: &Counters) {
    total.cases += c.cases;
    total.config_runs += c.config_runs;
    total.oracle_suspect += c.oracle_suspect;
    for (k, v) in &c.verdicts {
        *total.verdicts.entry(k.clone()).or_default() += v;
    }
    for (s, m) in &c.per_strategy {
        for (k, v) in m {
            *total
                .per_strategy
                .entry(s.clone())
                .or_default()
                .entry(k.clone())
                .or_default() += v;
        }
    }
    for (k, v) in &c.per_culprit {
        *total.per_culprit.entry(k.clone()).or_default() += v;
    }
    for (k, v) in &c.pass_changed {
        *total.pass_changed.entry(k.clone()).or_default() += v;
    }
    for (k, v) in &c.pass_cases {
        *total.pass_cases.entry(k.clone()).or_default() += v;
    }
    for (k, v) in &c.feedback.cases {
        *total.feedback.cases.entry(k.clone()).or_default() += v;
    }
    for (k, v) in &c.feedback.failing_runs {
        *total.feedback.failing_runs.entry(k.clone()).or_default() += v;
    }
    for (k, v) in &c.feedback.mutators {
        *total.feedback.mutators.entry(k.clone()).or_default() += v;
    }
    total.feedback.rejected_mutants += c.feedback.rejected_mutants;
    for (k, v) in &c.decision_points {
        total.decision_points.entry(k.clone()).or_default().add(v);
    }
}
