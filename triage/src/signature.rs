//! Failure signatures, variants and the persistent bucket index.
//!
//! A [`Signature`] is one bug: the verdict kind, the culprit (the stage
//! localization names for the model, `vulkan:DRIVER` for a real driver) and
//! the detail that separates bugs the culprit alone does not: the panic
//! location of a compiler panic, the broken rule of invalid EU code, the way
//! a driver died, and for a mismatch the op of the first value computed
//! wrongly ([`oracle::probe`]), which splits two bugs in one pass (or in
//! lowering, or in one driver) when they miscompute different ops. Its
//! [`Display`](std::fmt::Display) form is the directory-safe name a campaign
//! files the bug under (`DIR/findings/<signature>/`).
//!
//! The config a failure showed up under is not part of the bug: its
//! [`Variant`] (target, boolean strategy, SIMD width, pass set) is counted
//! inside the bucket.
//!
//! A [`BucketIndex`] (`DIR/buckets.json`) keeps one [`Bucket`] per
//! signature: the first case that hit it, how often it was hit and under
//! which variants, when (as a run counter, not wall time, so the index is
//! deterministic) and whether its first finding has been reduced. It is
//! written atomically.

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
    /// The model's culprit stage (`ir:cse`, `lowering`, `eu:cmod-prop`,
    /// `regalloc`, ...) or `vulkan:DRIVER`, when known.
    pub culprit: Option<String>,
    /// What separates bugs with one culprit: a panic location, a validator
    /// rule, how a driver died, or the op of the first wrong value.
    pub detail: Option<String>,
}

impl Signature {
    /// The signature of verdict `v` whose culprit is `culprit` and whose
    /// first wrong value (for a mismatch) has op `probe`.
    pub fn new(v: &Verdict, culprit: Option<String>, probe: Option<&str>) -> Signature {
        let detail = match v {
            Verdict::CompilerPanic { location, .. } => Some(location.clone()),
            Verdict::InvalidEu { rule, .. } => Some(rule.clone()),
            Verdict::Mismatch { .. } => probe.map(str::to_string),
            Verdict::DriverCrash { detail } => Some(crash_class(detail)),
            _ => None,
        };
        Signature {
            kind: v.kind().to_string(),
            culprit,
            detail,
        }
    }

    /// The signature of a model failure: `v` of `case` under `config`,
    /// localized to its culprit stage. A model mismatch's detail stays empty:
    /// the op of the first wrong value names where a wrong value shows, not
    /// which rewrite made it, and splits one bug over every op it reaches
    /// (see `docs/DESIGN.md`, "Buckets").
    pub fn of_model(case: &ir::Case, config: &Config, v: &Verdict) -> Signature {
        let culprit = oracle::localize(case, config).culprit();
        Signature::new(v, culprit.map(|c| c.to_string()), None)
    }

    /// The signature of a driver failure: `v` of `case` on `driver`, the
    /// culprit the driver's target name, a mismatch's detail the op of the
    /// first value it computes wrongly.
    pub fn of_driver(
        case: &ir::Case,
        driver: &mut oracle::driver::Driver,
        v: &Verdict,
    ) -> Signature {
        let probe = matches!(v, Verdict::Mismatch { .. })
            .then(|| driver.first_wrong_op(case))
            .flatten();
        Signature::new(v, Some(driver.target_name()), probe.as_deref())
    }

    /// The directory-safe name (the same as `to_string()`).
    pub fn name(&self) -> String {
        self.to_string()
    }
}

/// How a driver died, without the parts that differ from run to run:
/// `signal-N`, `exit-N`, `device-lost`, `garbled-output` or `died`.
fn crash_class(detail: &str) -> String {
    let number_after = |word: &str| -> Option<String> {
        let rest = &detail[detail.find(word)? + word.len()..];
        let n: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        (!n.is_empty()).then_some(n)
    };
    if let Some(n) = number_after("signal") {
        return format!("signal-{n}");
    }
    if let Some(n) = number_after("exit code") {
        return format!("exit-{n}");
    }
    if detail.contains("device lost") {
        return "device-lost".into();
    }
    if detail.contains("garbled") {
        return "garbled-output".into();
    }
    "died".into()
}

/// Where a failure showed up: the target and, for the model, the config.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Variant {
    /// `model`, or `vulkan:DRIVER`.
    pub target: String,
    /// The boolean strategy (the model only).
    pub strategy: Option<String>,
    /// The SIMD width (the subgroup size the oracle used).
    pub simd: u32,
    /// The pass set (the model only).
    pub passes: Option<String>,
}

impl Variant {
    /// A model config's variant.
    pub fn of_model(c: &Config) -> Variant {
        Variant {
            target: "model".into(),
            strategy: Some(c.strategy.to_string()),
            simd: c.simd,
            passes: Some(c.passes.to_string()),
        }
    }

    /// A driver's variant.
    pub fn of_driver(target: &str, simd: u32) -> Variant {
        Variant {
            target: target.to_string(),
            strategy: None,
            simd,
            passes: None,
        }
    }

    /// The short key buckets count variants by: target, strategy and width
    /// (pass sets are many; they are not part of the key).
    pub fn key(&self) -> String {
        match &self.strategy {
            Some(st) => format!("{} {st} simd{}", self.target, self.simd),
            None => format!("{} simd{}", self.target, self.simd),
        }
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
    /// `KIND-CULPRIT[-DETAIL]`, with every character other than ASCII
    /// letters, digits, `-` and `.` replaced by `_`
    /// (`mismatch-eu_cmod-prop-flt`, `mismatch-vulkan_llvmpipe-ufind_msb`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut raw = format!(
            "{}-{}",
            self.kind,
            self.culprit.as_deref().unwrap_or("unknown"),
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
    /// Hits per variant ([`Variant::key`]: target, strategy, SIMD width).
    #[serde(default)]
    pub variants: BTreeMap<String, u64>,
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

impl Default for BucketIndex {
    /// An empty index of the current format.
    fn default() -> BucketIndex {
        BucketIndex {
            format: BUCKETS_FORMAT,
            buckets: BTreeMap::new(),
            counted: CaseSet::default(),
        }
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

/// The version of the bucket index format this farm writes: 2 since
/// buckets are bugs with variants (1, unversioned, had a bucket per
/// config).
pub const BUCKETS_FORMAT: u32 = 2;

/// The persistent bucket index, `DIR/buckets.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BucketIndex {
    /// The format version ([`BUCKETS_FORMAT`]); 0 for an index written
    /// before versions.
    #[serde(default)]
    pub format: u32,
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
    /// `buckets.json` was written by an older farm.
    #[error("{path} was written by an older farm (format {found}: a bucket per strategy and SIMD width); this farm keeps a bucket per bug (format {BUCKETS_FORMAT}). Finish that campaign with the farm that started it, or start a new one with another --out (reduced findings carry their case and config, so `farm reduce DIR` and `farm corpus add DIR` still work on them)")]
    OldFormat {
        /// The file.
        path: String,
        /// Its format.
        found: u32,
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

    /// Records a hit of `signature` under `variant` (its [`Variant::key`])
    /// by run `run` (see [`Bucket::first_seen`]) of case `case` (the
    /// campaign's case index).
    pub fn record(&mut self, signature: &str, variant: &str, case: u64, run: u64) -> Recorded {
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
                        variants: BTreeMap::from([(variant.to_string(), 1)]),
                    },
                );
                Recorded::NewBucket
            }
            Some(b) => {
                b.hits += 1;
                *b.variants.entry(variant.to_string()).or_default() += 1;
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
        let index: BucketIndex = serde_json::from_str(&text).map_err(|e| {
            let message = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            BucketError::Json {
                path: path.display().to_string(),
                line: e.line(),
                column: e.column(),
                message: message.strip_suffix(&suffix).unwrap_or(&message).into(),
            }
        })?;
        if index.format != BUCKETS_FORMAT {
            return Err(BucketError::OldFormat {
                path: path.display().to_string(),
                found: index.format,
            });
        }
        Ok(index)
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
        let s = Signature::new(&m, Some("eu:cmod-prop".into()), Some("flt"));
        assert_eq!(s.to_string(), "mismatch-eu_cmod-prop-flt");
        assert_eq!(s.detail.as_deref(), Some("flt"));
        let s = Signature::new(&m, None, None);
        assert_eq!(s.name(), "mismatch-unknown");
        let p = Verdict::CompilerPanic {
            message: "index out of bounds".into(),
            location: "compiler/src/brw/cse.rs:120".into(),
        };
        // The probe names only mismatches' details.
        let s = Signature::new(&p, Some("eu:cse".into()), Some("iadd"));
        assert_eq!(
            s.to_string(),
            "compiler-panic-eu_cse-compiler_src_brw_cse.rs_120"
        );
        let e = Verdict::InvalidEu {
            stage: "eu:cmod-prop".parse().unwrap(),
            rule: "flag-subreg".into(),
            text: "cmp.l.f0.1 null g1 0D".into(),
        };
        let s = Signature::new(&e, Some("eu:cmod-prop".into()), None);
        assert_eq!(s.to_string(), "invalid-eu-eu_cmod-prop-flag-subreg");
        let i = Verdict::InvalidIr {
            stage: "ir:gcm".parse().unwrap(),
            error: "b3: %7 is used before it is defined".into(),
        };
        let s = Signature::new(&i, Some("ir:gcm".into()), None);
        assert_eq!(s.to_string(), "invalid-ir-ir_gcm");
        let t = Verdict::Timeout {
            stage: oracle::Budget::Sim,
        };
        assert_eq!(
            Signature::new(&t, Some("regalloc".into()), None).to_string(),
            "timeout-regalloc"
        );
        // A driver's crash is named by how it died, not its pid or status text.
        let c = Verdict::DriverCrash {
            detail: "the worker died: signal 11".into(),
        };
        assert_eq!(
            Signature::new(&c, Some("vulkan:llvmpipe".into()), None).to_string(),
            "driver-crash-vulkan_llvmpipe-signal-11"
        );
        let c = Verdict::DriverCrash {
            detail: "the worker died: exit code 134".into(),
        };
        assert_eq!(
            Signature::new(&c, None, None).detail.as_deref(),
            Some("exit-134")
        );
        let c = Verdict::DriverCrash {
            detail: "device lost".into(),
        };
        assert_eq!(
            Signature::new(&c, Some("vulkan:llvmpipe".into()), None).to_string(),
            "driver-crash-vulkan_llvmpipe-device-lost"
        );
    }

    #[test]
    fn variants_key_by_target_strategy_and_width() {
        let c = config(Strategy::Bool16, 8);
        assert_eq!(Variant::of_model(&c).key(), "model bool16 simd8");
        assert_eq!(Variant::of_model(&c).passes.as_deref(), Some("all"));
        assert_eq!(
            Variant::of_driver("vulkan:llvmpipe", 8).key(),
            "vulkan:llvmpipe simd8"
        );
    }

    #[test]
    fn buckets_count_hits_and_keep_the_lowest_case() {
        let mut b = BucketIndex::default();
        assert_eq!(
            b.record("a", "model bool32 simd8", 7, 57),
            Recorded::NewBucket
        );
        assert_eq!(b.record("a", "model flag simd8", 9, 73), Recorded::Counted);
        b.buckets.get_mut("a").unwrap().reduced = true;
        assert_eq!(b.reduced(), 1);
        assert_eq!(
            b.record("a", "model bool32 simd8", 3, 25),
            Recorded::NewFirstCase
        );
        assert_eq!(
            b.buckets["a"],
            Bucket {
                first_case: 3,
                hits: 3,
                first_seen: 25,
                reduced: false,
                reduce_error: None,
                variants: BTreeMap::from([
                    ("model bool32 simd8".to_string(), 2),
                    ("model flag simd8".to_string(), 1)
                ]),
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
        b.record("mismatch-lowering-b2f", "model bool16 simd8", 4, 33);
        b.counted.insert(0);
        b.save(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join(BucketIndex::FILE)).unwrap();
        assert_eq!(
            text,
            "{\n  \"format\": 2,\n  \"buckets\": {\n    \"mismatch-lowering-b2f\": {\n      \
             \"first_case\": 4,\n      \"hits\": 1,\n      \"first_seen\": 33,\n      \
             \"reduced\": false,\n      \"variants\": {\n        \"model bool16 simd8\": 1\n      }\n    \
             }\n  },\n  \"counted\": {\n    \"watermark\": 1,\n    \"above\": []\n  }\n}\n"
        );
        assert_eq!(BucketIndex::load(&dir).unwrap(), b);
        // An index from before formats is refused, saying what to do.
        std::fs::write(dir.join(BucketIndex::FILE), "{\"buckets\": {}}").unwrap();
        let e = BucketIndex::load(&dir).unwrap_err().to_string();
        assert!(
            e.ends_with("buckets.json was written by an older farm (format 0: a bucket per strategy and SIMD width); this farm keeps a bucket per bug (format 2). Finish that campaign with the farm that started it, or start a new one with another --out (reduced findings carry their case and config, so `farm reduce DIR` and `farm corpus add DIR` still work on them)"),
            "{e}"
        );
        std::fs::write(dir.join(BucketIndex::FILE), "{\"buckets\": 3}").unwrap();
        let e = BucketIndex::load(&dir).unwrap_err().to_string();
        assert!(
            e.ends_with("buckets.json:1:13: invalid type: integer `3`, expected a map"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
