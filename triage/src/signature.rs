//! Failure signatures and the persistent bucket index.
//!
//! A [`Signature`] is what makes two failures the same bug: the verdict kind,
//! the culprit pass (from localization), the boolean strategy and the SIMD
//! width class, plus the panic location for compiler panics or the broken
//! rule for invalid EU code. Its [`Display`](std::fmt::Display) form is the
//! directory-safe name a campaign files findings under
//! (`DIR/findings/<signature>/`).
//!
//! A [`BucketIndex`] (`DIR/buckets.json`) keeps one [`Bucket`] per signature:
//! the first case that hit it, how often it was hit, when (as a run counter,
//! not wall time, so the index is deterministic) and whether its first
//! finding has been reduced. It is written atomically.

use compiler::StageId;
use oracle::{Config, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// What makes two failures the same bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Signature {
    /// The verdict kind (`mismatch`, `compiler-panic`, `invalid-eu`, ...).
    pub kind: String,
    /// The first stage after which the lanes diverge (`ir:cse`, `lowering`,
    /// `eu:cmod-prop`, `regalloc`, ...), if localization named one.
    pub culprit: Option<String>,
    /// The boolean strategy.
    pub strategy: String,
    /// The SIMD width (8, 16 or 32).
    pub simd: u32,
    /// The panic location (`file:line`) of a compiler panic, or the broken
    /// rule of invalid EU code; `None` for other kinds.
    pub detail: Option<String>,
}

impl Signature {
    /// The signature of verdict `v` of a run under `config`, whose
    /// localization named `culprit`.
    pub fn from_verdict(v: &Verdict, culprit: Option<StageId>, config: &Config) -> Signature {
        let detail = match v {
            Verdict::CompilerPanic { location, .. } => Some(location.clone()),
            Verdict::InvalidEu { rule, .. } => Some(rule.clone()),
            _ => None,
        };
        Signature {
            kind: v.kind().to_string(),
            culprit: culprit.map(|s| s.to_string()),
            strategy: config.strategy.to_string(),
            simd: config.simd,
            detail,
        }
    }

    /// The SIMD width class, `simd8`, `simd16` or `simd32`.
    pub fn simd_class(&self) -> String {
        format!("simd{}", self.simd)
    }

    /// The directory-safe name (the same as `to_string()`).
    pub fn name(&self) -> String {
        self.to_string()
    }
}

/// Keeps ASCII letters, digits, `-` and `.`; everything else becomes `_`.
fn directory_safe(raw: &str) -> String {
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl fmt::Display for Signature {
    /// `KIND-CULPRIT-STRATEGY-simdW[-DETAIL]`, with every character other
    /// than ASCII letters, digits, `-` and `.` replaced by `_`
    /// (`mismatch-eu_cmod-prop-bool32-simd8`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut raw = format!(
            "{}-{}-{}-{}",
            self.kind,
            self.culprit.as_deref().unwrap_or("unknown"),
            self.strategy,
            self.simd_class()
        );
        if let Some(d) = &self.detail {
            raw.push('-');
            raw.push_str(d);
        }
        f.write_str(&directory_safe(&raw))
    }
}

/// One bucket: every failure with one signature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    /// The lowest case index that hit it (the case its finding holds).
    pub first_case: u64,
    /// Failing config-runs with this signature.
    pub hits: u64,
    /// When it was first hit, as a run counter: the number of the first
    /// config-run with this signature when the campaign's runs are counted
    /// from 1 in case order. Unlike wall time this is the same for any number
    /// of workers and across `--resume`.
    pub first_seen: u64,
    /// Whether its finding has been reduced (`findings/<signature>/reduced/`).
    pub reduced: bool,
    /// Why reducing it failed, if it did (it is then not retried until the
    /// finding changes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduce_error: Option<String>,
}

/// A set of case indices: everything below `watermark`, plus `above`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseSet {
    /// Every case below this index is in the set.
    pub watermark: u64,
    /// Cases at or above the watermark that are in the set.
    pub above: BTreeSet<u64>,
}

impl CaseSet {
    /// Adds case `k`; returns whether it was not in the set before.
    pub fn insert(&mut self, k: u64) -> bool {
        if self.contains(k) {
            return false;
        }
        self.above.insert(k);
        while self.above.remove(&self.watermark) {
            self.watermark += 1;
        }
        true
    }

    /// Whether case `k` is in the set.
    pub fn contains(&self, k: u64) -> bool {
        k < self.watermark || self.above.contains(&k)
    }
}

/// What [`BucketIndex::record`] did with a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// The signature is new: a bucket was created.
    NewBucket,
    /// The hit's case is lower than the bucket's first case, which it
    /// replaces (the bucket needs reducing again).
    NewFirstCase,
    /// The bucket only counted the hit.
    Counted,
}

/// The persistent bucket index, `DIR/buckets.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BucketIndex {
    /// One bucket per signature (directory name).
    pub buckets: BTreeMap<String, Bucket>,
    /// The cases (in the campaign's local numbering) whose hits are counted:
    /// a resumed campaign redoes the cases its last checkpoint missed, and
    /// must not count their hits twice.
    #[serde(default)]
    pub counted: CaseSet,
}

/// Why the bucket index could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum BucketError {
    /// A file could not be read or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// `read`, `write` or `rename`.
        action: &'static str,
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// `buckets.json` is not a bucket index.
    #[error("{path}:{line}:{column}: {message}")]
    Json {
        /// The file.
        path: String,
        /// Line of the error.
        line: usize,
        /// Column of the error.
        column: usize,
        /// What is wrong.
        message: String,
    },
}

impl BucketIndex {
    /// The file name of the index inside a campaign directory.
    pub const FILE: &'static str = "buckets.json";

    /// Records a hit of `signature` by run `run` (see [`Bucket::first_seen`])
    /// of case `case` (the campaign's case index).
    pub fn record(&mut self, signature: &str, case: u64, run: u64) -> Recorded {
        match self.buckets.get_mut(signature) {
            None => {
                self.buckets.insert(
                    signature.to_string(),
                    Bucket {
                        first_case: case,
                        hits: 1,
                        first_seen: run,
                        reduced: false,
                        reduce_error: None,
                    },
                );
                Recorded::NewBucket
            }
            Some(b) => {
                b.hits += 1;
                b.first_seen = b.first_seen.min(run);
                if case < b.first_case {
                    b.first_case = case;
                    b.reduced = false;
                    b.reduce_error = None;
                    Recorded::NewFirstCase
                } else {
                    Recorded::Counted
                }
            }
        }
    }

    /// Buckets whose finding is reduced.
    pub fn reduced(&self) -> usize {
        self.buckets.values().filter(|b| b.reduced).count()
    }

    /// Loads `DIR/buckets.json`; a missing file is an empty index.
    pub fn load(dir: &Path) -> Result<BucketIndex, BucketError> {
        let path = dir.join(Self::FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BucketIndex::default()),
            Err(source) => {
                return Err(BucketError::Io {
                    action: "read",
                    path: path.display().to_string(),
                    source,
                })
            }
        };
        serde_json::from_str(&text).map_err(|e| {
            let message = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            BucketError::Json {
                path: path.display().to_string(),
                line: e.line(),
                column: e.column(),
                message: message.strip_suffix(&suffix).unwrap_or(&message).into(),
            }
        })
    }

    /// Writes `DIR/buckets.json` atomically (a temporary file, then rename).
    pub fn save(&self, dir: &Path) -> Result<(), BucketError> {
        let path = dir.join(Self::FILE);
        let text = serde_json::to_string_pretty(self).expect("a bucket index serializes") + "\n";
        crate::durable::write_atomic(&path, text.as_bytes()).map_err(|source| BucketError::Io {
            action: "write",
            path: path.display().to_string(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::{PassSet, Strategy};

    fn config(strategy: Strategy, simd: u32) -> Config {
        Config::new(strategy, simd, PassSet::all())
    }

    #[test]
    fn names_are_the_campaign_directory_names() {
        let m = Verdict::Mismatch { diffs: vec![] };
        let s = Signature::from_verdict(
            &m,
            Some(stage("eu:cmod-prop")),
            &config(Strategy::Bool32, 8),
        );
        assert_eq!(s.to_string(), "mismatch-eu_cmod-prop-bool32-simd8");
        assert_eq!(s.simd_class(), "simd8");
        assert_eq!(s.detail, None);
        let s = Signature::from_verdict(&m, None, &config(Strategy::Flag, 32));
        assert_eq!(s.name(), "mismatch-unknown-flag-simd32");
        let p = Verdict::CompilerPanic {
            message: "index out of bounds".into(),
            location: "compiler/src/brw/cse.rs:120".into(),
        };
        let s = Signature::from_verdict(&p, Some(stage("eu:cse")), &config(Strategy::Native, 16));
        assert_eq!(
            s.to_string(),
            "compiler-panic-eu_cse-native-simd16-compiler_src_brw_cse.rs_120"
        );
        assert_eq!(s.detail.as_deref(), Some("compiler/src/brw/cse.rs:120"));
        let e = Verdict::InvalidEu {
            stage: stage("eu:cmod-prop"),
            rule: "flag-subreg".into(),
            text: "cmp.l.f0.1 null g1 0D".into(),
        };
        let s = Signature::from_verdict(
            &e,
            Some(stage("eu:cmod-prop")),
            &config(Strategy::Bool16, 8),
        );
        assert_eq!(
            s.to_string(),
            "invalid-eu-eu_cmod-prop-bool16-simd8-flag-subreg"
        );
        let i = Verdict::InvalidIr {
            stage: stage("ir:gcm"),
            error: "b3: %7 is used before it is defined".into(),
        };
        let s = Signature::from_verdict(&i, Some(stage("ir:gcm")), &config(Strategy::Flag, 8));
        assert_eq!(s.to_string(), "invalid-ir-ir_gcm-flag-simd8");
        let t = Verdict::Timeout {
            stage: oracle::Budget::Sim,
        };
        let s = Signature::from_verdict(&t, Some(StageId::Regalloc), &config(Strategy::Bool32, 16));
        assert_eq!(s.to_string(), "timeout-regalloc-bool32-simd16");
    }

    fn stage(name: &str) -> StageId {
        name.parse().unwrap()
    }

    #[test]
    fn buckets_count_hits_and_keep_the_lowest_case() {
        let mut b = BucketIndex::default();
        assert_eq!(b.record("a", 7, 57), Recorded::NewBucket);
        assert_eq!(b.record("a", 9, 73), Recorded::Counted);
        b.buckets.get_mut("a").unwrap().reduced = true;
        assert_eq!(b.reduced(), 1);
        assert_eq!(b.record("a", 3, 25), Recorded::NewFirstCase);
        assert_eq!(
            b.buckets["a"],
            Bucket {
                first_case: 3,
                hits: 3,
                first_seen: 25,
                reduced: false,
                reduce_error: None
            }
        );
        assert_eq!(b.reduced(), 0);
    }

    #[test]
    fn case_sets_advance_their_watermark() {
        let mut c = CaseSet::default();
        assert!(c.insert(1));
        assert!(!c.insert(1));
        assert_eq!((c.watermark, c.above.len()), (0, 1));
        assert!(c.insert(0));
        assert_eq!((c.watermark, c.above.len()), (2, 0));
        assert!(c.contains(1) && !c.contains(2));
    }

    #[test]
    fn the_index_round_trips_through_its_file() {
        let dir = std::env::temp_dir().join(format!("triage-buckets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let _ = std::fs::remove_file(dir.join(BucketIndex::FILE));
        assert_eq!(BucketIndex::load(&dir).unwrap(), BucketIndex::default());
        let mut b = BucketIndex::default();
        b.record("mismatch-lowering-bool16-simd8", 4, 33);
        b.counted.insert(0);
        b.save(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join(BucketIndex::FILE)).unwrap();
        assert_eq!(
            text,
            "{\n  \"buckets\": {\n    \"mismatch-lowering-bool16-simd8\": {\n      \
             \"first_case\": 4,\n      \"hits\": 1,\n      \"first_seen\": 33,\n      \
             \"reduced\": false\n    }\n  },\n  \"counted\": {\n    \"watermark\": 1,\n    \
             \"above\": []\n  }\n}\n"
        );
        assert_eq!(BucketIndex::load(&dir).unwrap(), b);
        std::fs::write(dir.join(BucketIndex::FILE), "{\"buckets\": 3}").unwrap();
        let e = BucketIndex::load(&dir).unwrap_err().to_string();
        assert!(
            e.ends_with("buckets.json:1:13: invalid type: integer `3`, expected a map"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
