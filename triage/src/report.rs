//! Bug reports: `report.md` (readable in a merge request) and `report.json`
//! for one (usually minimized) case under one config.
//!
//! A report holds, and nothing more: the signature (with the verdict) and the
//! config; a one-line command that reproduces it
//! (`farm run reduced.sir --strategy S --simd W --passes P [--inject B]`);
//! the minimized `.sir`; a per-lane table of every differing
//! (lane, slot, expected, got); the program just before and just after the
//! culprit pass (IR text for IR passes, EU assembly for EU passes; for
//! `lowering` the IR it lowers and the lowered EU code, for `regalloc` the
//! code on virtual registers and the final code); and the localization
//! trail.

use crate::signature::Signature;
use compiler::StageId;
use ir::Case;
use oracle::{Capture, Config, Session, StageProgram, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

/// The file name of the case a report's repro command runs.
pub const CASE_FILE: &str = "reduced.sir";

/// The config, as text fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigText {
    /// Boolean strategy.
    pub strategy: String,
    /// SIMD width.
    pub simd: u32,
    /// Pass set (canonical text).
    pub passes: String,
    /// Injected bugs (`none` or names).
    pub inject: String,
}

impl ConfigText {
    /// The text fields of `c`.
    pub fn of(c: &Config) -> ConfigText {
        ConfigText {
            strategy: c.strategy.to_string(),
            simd: c.simd,
            passes: c.passes.to_string(),
            inject: c.bugs.to_string(),
        }
    }

    /// The command-line options (`--strategy S --simd W --passes P [--inject B]`).
    pub fn options(&self) -> String {
        let mut s = format!(
            "--strategy {} --simd {} --passes {}",
            self.strategy, self.simd, self.passes
        );
        if self.inject != "none" {
            s.push_str(&format!(" --inject {}", self.inject));
        }
        s
    }
}

/// One differing output slot of one lane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneRow {
    /// Invocation.
    pub lane: u32,
    /// Output slot.
    pub slot: usize,
    /// What the oracle says (`-`: never written).
    pub expected: String,
    /// What the compiled code did.
    pub got: String,
}

/// A program listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// What it is (`IR after ir:dce`, `EU code after lowering (virtual registers)`).
    pub label: String,
    /// The text.
    pub code: String,
}

/// The program around the culprit stage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CulpritCode {
    /// The culprit stage.
    pub stage: String,
    /// The program the stage received.
    pub before: Listing,
    /// The program it produced; `None` when it produced none (it panicked
    /// or its output was rejected), see `error`.
    pub after: Option<Listing>,
    /// Why there is no `after`.
    pub error: Option<String>,
}

/// One step of the localization trail.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrailStep {
    /// The stage.
    pub stage: String,
    /// `None` if the program after it agrees with the oracle, else the first difference.
    pub divergence: Option<String>,
}

/// A bug report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The signature.
    pub signature: SignatureText,
    /// The config.
    pub config: ConfigText,
    /// The one-line command that reproduces it.
    pub repro: String,
    /// The minimized case (`.sir` with its dispatch).
    pub case: String,
    /// Every differing (lane, slot).
    pub lanes: Vec<LaneRow>,
    /// The program just before and just after the culprit stage, if
    /// localization named one.
    pub culprit: Option<CulpritCode>,
    /// The localization trail.
    pub trail: Vec<TrailStep>,
    /// The final code after register allocation, when the compile got there.
    #[serde(default)]
    pub final_code: Option<Listing>,
}

impl CulpritCode {
    /// Whether the stage's input and output are the same language (an IR
    /// or an EU pass), so that a diff shows what it did. Lowering
    /// translates, and register allocation renames every register.
    pub fn diffable(&self) -> bool {
        self.after.is_some() && (self.stage.starts_with("ir:") || self.stage.starts_with("eu:"))
    }

    /// The unified diff from the stage's input to its output (three lines of
    /// context), empty when it produced nothing.
    pub fn diff(&self) -> String {
        let Some(after) = &self.after else {
            return String::new();
        };
        similar::TextDiff::from_lines(&self.before.code, &after.code)
            .unified_diff()
            .context_radius(3)
            .header("before", "after")
            .to_string()
    }
}

/// The signature as a report shows it: its name, its parts and the verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignatureText {
    /// The directory-safe name.
    pub name: String,
    /// The verdict kind.
    pub kind: String,
    /// The culprit stage.
    pub culprit: Option<String>,
    /// Panic location, broken rule, or the op of the first wrong value.
    pub detail: Option<String>,
    /// The verdict's one-line summary.
    pub verdict: String,
}

impl SignatureText {
    /// The parts of `s`, with the verdict summary.
    pub fn of(s: &Signature, verdict: &Verdict) -> SignatureText {
        SignatureText {
            name: s.to_string(),
            kind: s.kind.clone(),
            culprit: s.culprit.clone(),
            detail: s.detail.clone(),
            verdict: verdict.to_string().lines().next().unwrap_or("").to_string(),
        }
    }
}

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The case does not fail under the config.
    #[error("the case does not fail under {config} (verdict: {verdict})")]
    NotFailing {
        /// The config.
        config: String,
        /// The verdict.
        verdict: String,
    },
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

/// A stage's program as captured from the compiler.
struct Snap {
    stage: String,
    listing: Listing,
}

/// An IR program's text without its leading comments.
fn ir_text(p: &ir::Program) -> String {
    let mut p = p.clone();
    p.comments.clear();
    ir::print_program(&p)
}

/// Every stage's program: the IR input first, then one per trail stage.
fn snapshots(case: &Case, config: &Config) -> Vec<Snap> {
    let session = Session::run(&case.program, config, Capture::Programs);
    session
        .stages
        .into_iter()
        .filter_map(|r| {
            let (label, code) = match r.program? {
                StageProgram::Ir(p) if r.stage == StageId::Input => {
                    ("IR input".to_string(), ir_text(&p))
                }
                StageProgram::Ir(p) => (format!("IR after {}", r.stage), ir_text(&p)),
                StageProgram::Eu(v) => (
                    format!("EU code after {} (virtual registers)", r.stage),
                    v.text(),
                ),
                StageProgram::Final(p) => (
                    format!("EU code after {} (final)", r.stage),
                    eu::print_program(&p),
                ),
            };
            Some(Snap {
                stage: r.stage.to_string(),
                listing: Listing { label, code },
            })
        })
        .collect()
}

/// The programs around the trail's culprit.
fn culprit_code(snaps: &[Snap], trail: &[TrailStep]) -> Option<CulpritCode> {
    let i = trail.iter().position(|s| s.divergence.is_some())?;
    let step = &trail[i];
    // snaps[0] is the input; snaps[k + 1] is the program after trail step k.
    let after = snaps.get(i + 1).filter(|s| s.stage == step.stage);
    let before = match after {
        Some(_) => &snaps[i],
        None => snaps.last()?,
    };
    Some(CulpritCode {
        stage: step.stage.clone(),
        before: before.listing.clone(),
        after: after.map(|s| s.listing.clone()),
        error: after.is_none().then(|| step.divergence.clone()).flatten(),
    })
}

impl Report {
    /// Checks, localizes and compiles `case` under `config`, and gathers the
    /// report. The case should fail; a passing case gives an empty report.
    pub fn build(case: &Case, config: &Config) -> Report {
        let verdict = oracle::check(case, config);
        let trail = oracle::localize(case, config);
        let signature = Signature::new(&verdict, trail.culprit().map(|c| c.to_string()), None);
        let config_text = ConfigText::of(config);
        let steps: Vec<TrailStep> = trail
            .steps
            .iter()
            .map(|s| TrailStep {
                stage: s.stage.to_string(),
                divergence: s.divergence.clone(),
            })
            .collect();
        let lanes = match &verdict {
            Verdict::Mismatch { diffs } => diffs
                .iter()
                .map(|d| LaneRow {
                    lane: d.lane,
                    slot: d.slot,
                    expected: d.expected.clone(),
                    got: d.got.clone(),
                })
                .collect(),
            _ => Vec::new(),
        };
        let snaps = snapshots(case, config);
        let final_code = snaps
            .iter()
            .find(|s| s.stage == StageId::Regalloc.to_string())
            .map(|s| s.listing.clone());
        Report {
            final_code,
            signature: SignatureText::of(&signature, &verdict),
            repro: format!("farm run {CASE_FILE} {}", config_text.options()),
            config: config_text,
            case: ir::print_case(case),
            lanes,
            culprit: culprit_code(&snaps, &steps),
            trail: steps,
        }
    }

    /// The report as pretty JSON (with a final newline).
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serializes") + "\n"
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut md = String::new();
        let s = &self.signature;
        let _ = writeln!(md, "# `{}`\n", s.name);
        let _ = writeln!(md, "{}\n", s.verdict);
        md.push_str("| kind | culprit | detail | strategy | SIMD |\n|---|---|---|---|---|\n");
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | simd{} |\n",
            cell(&s.kind),
            cell(s.culprit.as_deref().unwrap_or("unknown")),
            cell(s.detail.as_deref().unwrap_or("-")),
            cell(&self.config.strategy),
            self.config.simd
        );
        let _ = writeln!(md, "Config: `{}`\n", self.config.options());
        let _ = writeln!(md, "## Reproduce\n\n```sh\n{}\n```\n", self.repro);
        let _ = writeln!(md, "## Minimized case (`{CASE_FILE}`)\n");
        fence(&mut md, "", &self.case);
        md.push_str("## Differing lanes\n\n");
        if self.lanes.is_empty() {
            md.push_str("No lane differs (the verdict is not a mismatch).\n\n");
        } else {
            md.push_str("| lane | slot | expected | got |\n|---:|---:|---|---|\n");
            for r in &self.lanes {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} |",
                    r.lane,
                    r.slot,
                    cell(&r.expected),
                    cell(&r.got)
                );
            }
            md.push('\n');
        }
        match &self.culprit {
            Some(c) if c.diffable() => {
                let _ = writeln!(md, "## What `{}` changed\n", c.stage);
                let _ = writeln!(
                    md,
                    "{} (`-`) against {} (`+`):\n",
                    c.before.label,
                    c.after.as_ref().map_or("", |a| a.label.as_str())
                );
                fence(&mut md, "diff", &c.diff());
            }
            Some(c) => {
                let _ = writeln!(md, "## Before and after `{}`\n", c.stage);
                let _ = writeln!(md, "### Before: {}\n", c.before.label);
                fence(&mut md, "", &c.before.code);
                match (&c.after, &c.error) {
                    (Some(a), _) => {
                        let _ = writeln!(md, "### After: {}\n", a.label);
                        fence(&mut md, "", &a.code);
                    }
                    (None, e) => {
                        let _ = writeln!(md, "### After\n\nNo program: {}\n", e.as_deref().unwrap_or("the stage failed"));
                    }
                }
            }
            None => md.push_str(
                "## Before and after the culprit\n\nLocalization named no culprit: every stage agrees with the oracle.\n\n",
            ),
        }
        if let Some(f) = &self.final_code {
            let _ = writeln!(md, "## {}\n", f.label);
            fence(&mut md, "", &f.code);
        }
        md.push_str("## Localization trail\n\n");
        if self.trail.is_empty() {
            md.push_str("No stage ran.\n");
        } else {
            md.push_str("| stage | after it |\n|---|---|\n");
            for t in &self.trail {
                let result = match &t.divergence {
                    None => "agrees".to_string(),
                    Some(d) => format!("**diverges**: {}", cell(d)),
                };
                let _ = writeln!(md, "| `{}` | {result} |", t.stage);
            }
        }
        md
    }
}

/// A Markdown table cell: no line breaks, `|` escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// A fenced code block, followed by a blank line.
fn fence(md: &mut String, lang: &str, code: &str) {
    let _ = writeln!(md, "```{lang}");
    md.push_str(code);
    if !code.ends_with('\n') {
        md.push('\n');
    }
    md.push_str("```\n\n");
}

fn write_file(path: &Path, text: &str) -> Result<(), ReportError> {
    let io = |source| ReportError::Io {
        path: path.display().to_string(),
        source,
    };
    crate::durable::write_atomic(path, text.as_bytes()).map_err(io)
}

/// Writes `dir/report.md` and `dir/report.json` for `case` under `config`
/// (the minimized case and config; the repro command runs `dir/reduced.sir`,
/// which the caller writes). Fails if the case does not fail.
pub fn write_report(dir: &Path, case: &Case, config: &Config) -> Result<Report, ReportError> {
    let report = Report::build(case, config);
    if report.signature.kind == "pass" {
        return Err(ReportError::NotFailing {
            config: config.to_string(),
            verdict: report.signature.verdict,
        });
    }
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    write_file(&dir.join("report.md"), &report.markdown())?;
    write_file(&dir.join("report.json"), &report.json())?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use compiler::{BugSet, PassSet, Strategy};

    fn sample() -> Report {
        Report {
            signature: SignatureText {
                name: "mismatch-lowering".into(),
                kind: "mismatch".into(),
                culprit: Some("lowering".into()),
                detail: None,
                verdict: "mismatch in 1 lane/slot pairs".into(),
            },
            config: ConfigText {
                strategy: "bool16".into(),
                simd: 8,
                passes: "none".into(),
                inject: "bool16-zero-extend".into(),
            },
            repro: "farm run reduced.sir --strategy bool16 --simd 8 --passes none --inject bool16-zero-extend".into(),
            case: "shader: s\nimpl main {\n}\n".into(),
            lanes: vec![LaneRow {
                lane: 1,
                slot: 0,
                expected: "1.0".into(),
                got: "a|b".into(),
            }],
            culprit: Some(CulpritCode {
                stage: "lowering".into(),
                before: Listing {
                    label: "IR input".into(),
                    code: "shader: s".into(),
                },
                after: Some(Listing {
                    label: "EU code after lowering (virtual registers)".into(),
                    code: "send(8) null g1\n".into(),
                }),
                error: None,
            }),
            trail: vec![TrailStep {
                stage: "lowering".into(),
                divergence: Some("lane 1 slot 0: expected 1.0, got -65535.0".into()),
            }],
            final_code: Some(Listing {
                label: "Final code (after register allocation)".into(),
                code: "send(8) null g2\n".into(),
            }),
        }
    }

    #[test]
    fn markdown_has_every_section_in_order() {
        let want = "# `mismatch-lowering`\n\n\
            mismatch in 1 lane/slot pairs\n\n\
            | kind | culprit | detail | strategy | SIMD |\n|---|---|---|---|---|\n\
            | mismatch | lowering | - | bool16 | simd8 |\n\n\
            Config: `--strategy bool16 --simd 8 --passes none --inject bool16-zero-extend`\n\n\
            ## Reproduce\n\n```sh\n\
            farm run reduced.sir --strategy bool16 --simd 8 --passes none --inject bool16-zero-extend\n\
            ```\n\n\
            ## Minimized case (`reduced.sir`)\n\n```\nshader: s\nimpl main {\n}\n```\n\n\
            ## Differing lanes\n\n\
            | lane | slot | expected | got |\n|---:|---:|---|---|\n| 1 | 0 | 1.0 | a\\|b |\n\n\
            ## Before and after `lowering`\n\n\
            ### Before: IR input\n\n```\nshader: s\n```\n\n\
            ### After: EU code after lowering (virtual registers)\n\n```\nsend(8) null g1\n```\n\n\
            ## Final code (after register allocation)\n\n```\nsend(8) null g2\n```\n\n\
            ## Localization trail\n\n| stage | after it |\n|---|---|\n\
            | `lowering` | **diverges**: lane 1 slot 0: expected 1.0, got -65535.0 |\n";
        assert_eq!(sample().markdown(), want);
    }

    #[test]
    fn a_pass_culprit_is_shown_as_a_diff() {
        let mut r = sample();
        let c = r.culprit.as_mut().unwrap();
        c.stage = "eu:cmod-prop".into();
        c.before = Listing {
            label: "EU code after eu:copy-prop (virtual registers)".into(),
            code: "add(8) g3<1>F g1<8,8,1>F g2<8,8,1>F\ncmp.l.f0.0(8) null<1>F g3<8,8,1>F 0x0F\nsend(8) null g3\n".into(),
        };
        c.after = Some(Listing {
            label: "EU code after eu:cmod-prop (virtual registers)".into(),
            code: "add.l.f0.0(8) g3<1>F g1<8,8,1>F g2<8,8,1>F\nsend(8) null g3\n".into(),
        });
        assert!(c.diffable());
        let md = r.markdown();
        let want = "## What `eu:cmod-prop` changed\n\n\
            EU code after eu:copy-prop (virtual registers) (`-`) against EU code after eu:cmod-prop (virtual registers) (`+`):\n\n\
            ```diff\n--- before\n+++ after\n@@ -1,3 +1,2 @@\n\
            -add(8) g3<1>F g1<8,8,1>F g2<8,8,1>F\n\
            -cmp.l.f0.0(8) null<1>F g3<8,8,1>F 0x0F\n\
            +add.l.f0.0(8) g3<1>F g1<8,8,1>F g2<8,8,1>F\n send(8) null g3\n```\n\n";
        assert!(md.contains(want), "{md}");
        assert!(!md.contains("### Before"), "{md}");
    }

    #[test]
    fn markdown_without_lanes_or_culprit_output() {
        let mut r = sample();
        r.lanes.clear();
        r.culprit.as_mut().unwrap().after = None;
        r.culprit.as_mut().unwrap().error = Some("the compiler panicked".into());
        let md = r.markdown();
        assert!(md.contains(
            "## Differing lanes\n\nNo lane differs (the verdict is not a mismatch).\n\n"
        ));
        assert!(md.contains("### After\n\nNo program: the compiler panicked\n\n## Final code"));
        r.culprit = None;
        assert!(r.markdown().contains(
            "## Before and after the culprit\n\nLocalization named no culprit: every stage agrees with the oracle.\n\n"
        ));
    }

    #[test]
    fn json_round_trips() {
        let r = sample();
        let back: Report = serde_json::from_str(&r.json()).unwrap();
        assert_eq!(back, r);
        let v: serde_json::Value = serde_json::from_str(&r.json()).unwrap();
        assert_eq!(v["lanes"][0]["got"], "a|b");
        assert_eq!(v["config"]["inject"], "bool16-zero-extend");
        assert_eq!(v["culprit"]["error"], serde_json::Value::Null);
    }

    fn snap(stage: &str, label: &str) -> Snap {
        Snap {
            stage: stage.into(),
            listing: Listing {
                label: label.into(),
                code: format!("code of {stage}\n"),
            },
        }
    }

    fn step(stage: &str, diverges: bool) -> TrailStep {
        TrailStep {
            stage: stage.into(),
            divergence: diverges.then(|| format!("{stage} differs")),
        }
    }

    #[test]
    fn the_culprit_is_framed_by_the_snapshots_around_it() {
        let snaps = [
            snap("input", "IR input"),
            snap("ir:dce", "IR after ir:dce"),
            snap("lowering", "EU code after lowering (virtual registers)"),
            snap("regalloc", "EU code after regalloc (final)"),
        ];
        // regalloc: the code on virtual registers, then the final code.
        let trail = [
            step("ir:dce", false),
            step("lowering", false),
            step("regalloc", true),
        ];
        let c = culprit_code(&snaps, &trail).unwrap();
        assert_eq!(c.stage, "regalloc");
        assert_eq!(c.before, snaps[2].listing);
        assert_eq!(c.after.as_ref(), Some(&snaps[3].listing));
        assert_eq!(c.error, None);
        // A stage that produced nothing (rejected or panicked): the last
        // program and the error.
        let trail = [step("ir:dce", false), step("lowering", true)];
        let c = culprit_code(&snaps[..2], &trail).unwrap();
        assert_eq!(c.before, snaps[1].listing);
        assert_eq!(
            (c.after, c.error.as_deref()),
            (None, Some("lowering differs"))
        );
        assert_eq!(culprit_code(&snaps, &[step("ir:dce", false)]), None);
    }

    fn bug_case() -> (Case, Config) {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../corpus/bugs/bool16-zero-extend.sir"
        );
        let case = ir::parse_case(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut config = Config::new(Strategy::Bool16, 8, PassSet::none());
        config.bugs = BugSet::parse("bool16-zero-extend").unwrap();
        (case, config)
    }

    #[test]
    fn a_lowering_bug_shows_the_ir_lowering_got_and_the_eu_code_it_made() {
        let (case, config) = bug_case();
        let r = Report::build(&case, &config);
        assert_eq!(r.signature.name, "mismatch-lowering");
        assert_eq!(
            r.repro,
            "farm run reduced.sir --strategy bool16 --simd 8 --passes none --inject bool16-zero-extend"
        );
        let Verdict::Mismatch { diffs } = oracle::check(&case, &config) else {
            panic!("the bug case must mismatch")
        };
        let rows: Vec<(u32, usize, String, String)> = diffs
            .into_iter()
            .map(|d| (d.lane, d.slot, d.expected, d.got))
            .collect();
        let got: Vec<(u32, usize, String, String)> = r
            .lanes
            .iter()
            .map(|l| (l.lane, l.slot, l.expected.clone(), l.got.clone()))
            .collect();
        assert_eq!(got, rows);
        let c = r.culprit.as_ref().unwrap();
        assert_eq!(c.stage, "lowering");
        // No IR pass runs (--passes none): lowering gets the input.
        assert_eq!(c.before.label, "IR input");
        let mut bare = case.program.clone();
        bare.comments.clear();
        assert_eq!(c.before.code, ir::print_program(&bare));
        let after = c.after.as_ref().unwrap();
        assert_eq!(after.label, "EU code after lowering (virtual registers)");
        assert!(after.code.contains("send"), "{}", after.code);
        assert_eq!(r.trail[0].stage, "lowering");
        assert!(r.trail[0].divergence.is_some());
        assert_eq!(r.case, ir::print_case(&case));
    }

    #[test]
    fn write_report_writes_both_files_and_refuses_a_passing_case() {
        let (case, mut config) = bug_case();
        let dir = std::env::temp_dir().join(format!("triage-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let r = write_report(&dir, &case, &config).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("report.md")).unwrap(),
            r.markdown()
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("report.json")).unwrap(),
            r.json()
        );
        config.bugs = BugSet::NONE;
        let e = write_report(&dir, &case, &config).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the case does not fail under --strategy bool16 --simd 8 --passes none (verdict: pass)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
