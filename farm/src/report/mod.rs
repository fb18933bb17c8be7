//! The campaign report: a campaign directory as one self-contained HTML
//! page (`farm report DIR`, and `DIR/report.html` at the end of every
//! `farm fuzz`). Inline CSS and SVG only: no scripts, fonts or anything
//! else fetched, so it opens from a file, an artifact store or a mail.
//!
//! It shows the campaign's config; throughput, cases and buckets over time
//! (from `stats.jsonl`); the bucket table (one row per bug: kind, culprit,
//! detail, variants with their hits, first case, reduced size); how often
//! each pass changed the program and in how many cases; for a driver where
//! its time went and what was not compared; and per bucket the reduced
//! case, every differing lane with the values' bits in hex, and what the
//! culprit pass did as a diff (a driver bucket: the device, the SPIR-V and
//! the VkRunner reproducer).

pub mod html;
mod page;
pub mod svg;

use crate::campaign::findings::FindingVerdict;
use crate::campaign::stats::{read_history, Counters, HistoryPoint};
use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use triage::signature::{Bucket, BucketIndex};

pub use page::render;

/// The report's file name in a campaign directory.
pub const REPORT_FILE: &str = "report.html";

/// What `stats.json` says (the part the report reads).
#[derive(Clone, Debug, Deserialize)]
pub struct StatsRead {
    /// Whether the last run ended by itself.
    #[serde(default)]
    pub finished: bool,
    /// Seconds of work over all runs.
    pub elapsed_s: f64,
    /// Config-runs per second in the last run.
    pub config_runs_per_s: f64,
    /// Workers.
    pub jobs: usize,
    /// The counters.
    #[serde(flatten)]
    pub counters: Counters,
}

/// A bucket's reduced finding.
#[derive(Clone, Debug)]
pub enum Reduced {
    /// The model's report.
    Model(Box<triage::report::Report>),
    /// A driver's report.
    Driver(Box<triage::driver_report::DriverReport>),
}

/// One bucket with what its finding directory holds.
#[derive(Clone, Debug)]
pub struct BucketData {
    /// The signature (directory name).
    pub name: String,
    /// The index entry.
    pub bucket: Bucket,
    /// `verdict.json`, if readable.
    pub verdict: Option<FindingVerdict>,
    /// `case.sir` (the first case that hit it), if readable.
    pub case: Option<String>,
    /// Its instructions.
    pub case_instrs: Option<usize>,
    /// The reduction, if there is one and it reads.
    pub reduced: Option<Reduced>,
}

/// Everything the page is made from.
#[derive(Clone, Debug)]
pub struct CampaignData {
    /// The campaign directory.
    pub dir: PathBuf,
    /// `campaign.json`.
    pub campaign: Option<serde_json::Value>,
    /// `stats.json`.
    pub stats: Option<StatsRead>,
    /// `stats.jsonl`.
    pub history: Vec<HistoryPoint>,
    /// Every bucket, in the index's (name) order.
    pub buckets: Vec<BucketData>,
}

/// Reads a campaign directory. Files that are missing or damaged leave
/// their part of the page empty; a directory that is not a campaign's, or
/// a bucket index of an older format, is an error.
pub fn load(dir: &Path) -> Result<CampaignData> {
    if !dir.is_dir() {
        bail!("{} is not a directory", dir.display());
    }
    let read_json = |name: &str| -> Option<serde_json::Value> {
        let text = std::fs::read_to_string(dir.join(name)).ok()?;
        serde_json::from_str(&text).ok()
    };
    let campaign = read_json("campaign.json");
    let stats: Option<StatsRead> =
        read_json("stats.json").and_then(|v| serde_json::from_value(v).ok());
    if campaign.is_none() && stats.is_none() && !dir.join(BucketIndex::FILE).exists() {
        bail!(
            "{} is not a campaign directory (no campaign.json, stats.json or {})",
            dir.display(),
            BucketIndex::FILE
        );
    }
    let index = BucketIndex::load(dir)
        .with_context(|| format!("cannot read the buckets of {}", dir.display()))?;
    let buckets = index
        .buckets
        .into_iter()
        .map(|(name, bucket)| bucket_data(&dir.join("findings").join(&name), name, bucket))
        .collect();
    Ok(CampaignData {
        dir: dir.to_path_buf(),
        campaign,
        stats,
        history: read_history(dir),
        buckets,
    })
}

fn bucket_data(finding: &Path, name: String, bucket: Bucket) -> BucketData {
    let verdict = std::fs::read_to_string(finding.join("verdict.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let case = std::fs::read_to_string(finding.join("case.sir")).ok();
    let case_instrs = case
        .as_deref()
        .and_then(|t| ir::parse_case(t).ok())
        .map(|c| c.program.num_instrs());
    let reduced = bucket
        .reduced
        .then(|| std::fs::read_to_string(finding.join("reduced").join("report.json")).ok())
        .flatten()
        .and_then(|t| {
            let v: serde_json::Value = serde_json::from_str(&t).ok()?;
            if v.get("device").is_some() {
                serde_json::from_value(v)
                    .ok()
                    .map(|r| Reduced::Driver(Box::new(r)))
            } else {
                serde_json::from_value(v)
                    .ok()
                    .map(|r| Reduced::Model(Box::new(r)))
            }
        });
    BucketData {
        name,
        bucket,
        verdict,
        case,
        case_instrs,
        reduced,
    }
}

impl Reduced {
    /// The minimized case's text.
    pub fn case(&self) -> &str {
        match self {
            Reduced::Model(r) => &r.case,
            Reduced::Driver(r) => &r.case,
        }
    }

    /// Its instruction count.
    pub fn instrs(&self) -> Option<usize> {
        ir::parse_case(self.case())
            .ok()
            .map(|c| c.program.num_instrs())
    }
}

/// How the page links to a finding's files: relative when the page sits in
/// the campaign directory, else by absolute `file://` address.
pub fn link_base(dir: &Path, out: &Path) -> String {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let out_dir = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if canon(out_dir) == canon(dir) {
        return String::new();
    }
    let mut url = String::from("file://");
    for c in canon(dir).display().to_string().chars() {
        match c {
            ' ' => url.push_str("%20"),
            '#' => url.push_str("%23"),
            '%' => url.push_str("%25"),
            '?' => url.push_str("%3F"),
            c => url.push(c),
        }
    }
    url.push('/');
    url
}

/// Writes the report of campaign `dir` to `out` (atomically).
pub fn write(dir: &Path, out: &Path) -> Result<()> {
    let data = load(dir)?;
    let page = render(&data, &link_base(dir, out));
    crate::durable::write_atomic(out, page.as_bytes())
}
