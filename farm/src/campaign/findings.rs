//! Findings on disk: `DIR/findings/<signature>/` with `case.sir`,
//! `config.json` and `verdict.json`, one per signature, written atomically
//! (a temporary directory renamed into place). When two cases share a
//! signature the one with the lower case index is kept, so the findings of a
//! seed range do not depend on the number of jobs or on arrival order.
//! The campaign's background reducer later adds `reduced/` (the minimized
//! case and its report); replacing a finding drops its old `reduced/`.

use anyhow::{Context, Result};
use oracle::{Config, Trail, Verdict};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use triage::signature::{Signature, Variant};

/// The config of a finding, as written to `config.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FindingConfig {
    /// `model`, or the driver target (`vulkan:DRIVER`) that failed; for a
    /// driver only `simd` and the case fields below mean anything.
    #[serde(default = "model_target")]
    pub target: String,
    /// Boolean strategy.
    pub strategy: String,
    /// SIMD width.
    pub simd: u32,
    /// Pass set (canonical text).
    pub passes: String,
    /// Injected bugs (canonical text).
    pub inject: String,
    /// The campaign's case index.
    pub case_index: u64,
    /// The case's generator seed.
    pub case_seed: u64,
}

fn model_target() -> String {
    "model".into()
}

impl FindingConfig {
    /// The variant the finding showed up under.
    pub fn variant(&self) -> Variant {
        if self.is_model() {
            Variant {
                target: self.target.clone(),
                strategy: Some(self.strategy.clone()),
                simd: self.simd,
                passes: Some(self.passes.clone()),
            }
        } else {
            Variant::of_driver(&self.target, self.simd)
        }
    }

    /// Whether the finding is the model's (not a driver's).
    pub fn is_model(&self) -> bool {
        self.target == "model"
    }

    /// The oracle config this describes.
    pub fn config(&self) -> Result<Config> {
        Ok(Config {
            strategy: self
                .strategy
                .parse()
                .map_err(|e: String| anyhow::anyhow!(e))?,
            simd: self.simd,
            passes: compiler::PassSet::parse(&self.passes).map_err(|e| anyhow::anyhow!(e))?,
            bugs: compiler::BugSet::parse(&self.inject).map_err(|e| anyhow::anyhow!(e))?,
        })
    }
}

/// The verdict of a finding, as written to `verdict.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FindingVerdict {
    /// The verdict kind.
    pub kind: String,
    /// The verdict in full.
    pub text: String,
    /// The first pass after which the lanes diverge.
    pub culprit: Option<String>,
    /// The localization trail: (stage, divergence).
    pub trail: Vec<(String, Option<String>)>,
    /// The signature (the bucket: one bug).
    pub signature: String,
    /// The variant it showed up under ([`triage::signature::Variant::key`]).
    #[serde(default)]
    pub variant: String,
    /// A driver finding's device and driver (name, driver version, driver
    /// ID, Vulkan and conformance versions, subgroup size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<triage::driver_report::DeviceText>,
}

/// One finding, ready to write.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Its signature (the bucket; the directory name).
    pub signature: String,
    /// The variant it showed up under.
    pub variant: Variant,
    /// The case text (`.sir` with its dispatch).
    pub case_text: String,
    /// The config.
    pub config: FindingConfig,
    /// The verdict.
    pub verdict: FindingVerdict,
}

impl Finding {
    /// Builds a finding of the model from a failing run under `config`,
    /// localized (`trail`) and filed under `signature`.
    pub fn new(
        case: &ir::Case,
        config: &Config,
        v: &Verdict,
        trail: &Trail,
        signature: &Signature,
        index: u64,
        seed: u64,
    ) -> Finding {
        let trail = trail
            .steps
            .iter()
            .map(|s| (s.stage.to_string(), s.divergence.clone()))
            .collect();
        Finding::build(
            case,
            config,
            Variant::of_model(config),
            v,
            trail,
            signature,
            index,
            seed,
        )
    }

    /// Builds a finding of a driver (`target`, on `device`) filed under
    /// `signature`.
    pub fn of_driver(
        case: &ir::Case,
        target: &str,
        device: triage::driver_report::DeviceText,
        v: &Verdict,
        signature: &Signature,
        index: u64,
        seed: u64,
    ) -> Finding {
        let simd = device.subgroup_size;
        let config = Config::new(compiler::Strategy::Bool32, simd, compiler::PassSet::all());
        let variant = Variant::of_driver(target, simd);
        let mut f = Finding::build(case, &config, variant, v, vec![], signature, index, seed);
        f.verdict.device = Some(device);
        f
    }

    #[allow(clippy::too_many_arguments)]
    fn build(
        case: &ir::Case,
        config: &Config,
        variant: Variant,
        v: &Verdict,
        trail: Vec<(String, Option<String>)>,
        signature: &Signature,
        index: u64,
        seed: u64,
    ) -> Finding {
        let name = signature.to_string();
        Finding {
            signature: name.clone(),
            case_text: ir::print_case(case),
            config: FindingConfig {
                target: variant.target.clone(),
                strategy: config.strategy.to_string(),
                simd: config.simd,
                passes: config.passes.to_string(),
                inject: config.bugs.to_string(),
                case_index: index,
                case_seed: seed,
            },
            verdict: FindingVerdict {
                kind: v.kind().to_string(),
                text: v.to_string(),
                culprit: signature.culprit.clone(),
                trail,
                signature: name,
                variant: variant.key(),
                device: None,
            },
            variant,
        }
    }
}

pub use crate::durable::write_atomic;

/// The config of an existing finding directory, if it has a readable one.
pub fn read_config(dir: &Path) -> Option<FindingConfig> {
    let text = std::fs::read_to_string(dir.join("config.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// The case index of an existing finding directory, if any.
pub fn existing_index(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join("config.json")).ok()?;
    serde_json::from_str::<FindingConfig>(&text)
        .ok()
        .map(|c| c.case_index)
}

/// What [`store`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// The signature is new.
    New,
    /// The finding replaced one with a higher case index.
    Replaced,
    /// A finding with a lower (or the same) case index is kept.
    Kept,
}

/// Why a finding directory cannot be used.
fn damage(dir: &Path) -> Option<String> {
    if !dir.is_dir() {
        return Some("it is not a directory".into());
    }
    for name in ["case.sir", "config.json", "verdict.json"] {
        if !dir.join(name).is_file() {
            return Some(format!("{name} is missing"));
        }
    }
    let text = std::fs::read_to_string(dir.join("config.json")).ok()?;
    match serde_json::from_str::<FindingConfig>(&text) {
        Ok(_) => None,
        Err(e) => Some(format!("config.json is not a finding's config ({e})")),
    }
}

/// Moves every damaged entry of `root` (a file where a finding directory
/// should be, a finding without its case, config or verdict, or with a
/// config that does not parse) to `DIR/quarantine/`, so it stops the
/// campaign on no restart. Returns one line per entry moved.
pub fn quarantine_damaged(root: &Path) -> Result<Vec<String>> {
    let Ok(rd) = std::fs::read_dir(root) else {
        return Ok(vec![]);
    };
    let mut entries: Vec<PathBuf> = rd
        .filter_map(|e| e.ok())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    entries.sort();
    let qdir = root.parent().unwrap_or(root).join("quarantine");
    let mut moved = Vec::new();
    for path in entries {
        let Some(why) = damage(&path) else { continue };
        std::fs::create_dir_all(&qdir)
            .with_context(|| format!("cannot create {}", qdir.display()))?;
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let mut dest = qdir.join(&name);
        let mut k = 1;
        while dest.exists() {
            dest = qdir.join(format!("{name}.{k}"));
            k += 1;
        }
        std::fs::rename(&path, &dest)
            .with_context(|| format!("cannot move {} to {}", path.display(), dest.display()))?;
        moved.push(format!(
            "{} ({why}) moved to {}",
            path.display(),
            dest.display()
        ));
    }
    Ok(moved)
}

/// Stores a finding unless one with the same signature and a lower case
/// index is already there.
pub fn store(root: &Path, f: &Finding) -> Result<Stored> {
    let dir = root.join(&f.signature);
    let old = existing_index(&dir);
    if old.is_some_and(|i| i <= f.config.case_index) {
        return Ok(Stored::Kept);
    }
    let tmp: PathBuf = root.join(format!(".{}.tmp", f.signature));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    let write = |name: &str, text: &str| {
        std::fs::write(tmp.join(name), text)
            .with_context(|| format!("cannot write {}", tmp.join(name).display()))
    };
    write("case.sir", &f.case_text)?;
    write(
        "config.json",
        &(serde_json::to_string_pretty(&f.config)? + "\n"),
    )?;
    write(
        "verdict.json",
        &(serde_json::to_string_pretty(&f.verdict)? + "\n"),
    )?;
    crate::durable::publish_dir(&tmp, &dir)?;
    Ok(if old.is_some() {
        Stored::Replaced
    } else {
        Stored::New
    })
}

/// The signatures of every finding under `root`, sorted.
pub fn list(root: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| {
                    e.path().join("config.json").is_file()
                        && !e.file_name().to_string_lossy().starts_with('.')
                })
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
