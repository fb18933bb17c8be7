//! Bug reports for real drivers: what a Mesa developer needs to act on a
//! driver finding without our tool. The minimized `.sir`, the SPIR-V
//! assembly it exports to, the device and driver versions, the expected and
//! actual per-lane table (with what the comparison left out and why), and a
//! standalone VkRunner reproducer ([`crate::vkrunner`]) with the command
//! that runs it.

use crate::report::{LaneRow, SignatureText};
use crate::signature::Signature;
use crate::vkrunner::ShaderTest;
use ir::Case;
use oracle::driver::{abi_buffers, Driver};
use oracle::relax::run_relaxed;
use oracle::{InterpConfig, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

/// The reduced case's file name.
pub const CASE_FILE: &str = "reduced.sir";
/// The SPIR-V assembly's file name.
pub const SPVASM_FILE: &str = "reduced.spvasm";
/// The VkRunner reproducer's file name.
pub const SHADER_TEST_FILE: &str = "repro.shader_test";

/// The device and driver a finding is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceText {
    /// `VkPhysicalDeviceProperties::deviceName`.
    pub name: String,
    /// The driver (`driverName`) and its version text (`driverInfo`).
    pub driver: String,
    /// `driverID` (`MESA_LLVMPIPE`, `INTEL_OPEN_SOURCE_MESA`, ...).
    pub driver_id: String,
    /// The Vulkan API version the device reports.
    pub api_version: String,
    /// The conformance version the driver claims.
    pub conformance: String,
    /// The subgroup size the comparison ran at.
    pub subgroup_size: u32,
}

impl DeviceText {
    /// The device `driver` runs on.
    pub fn of(driver: &Driver) -> DeviceText {
        let info = driver.info();
        DeviceText {
            name: info.name.clone(),
            driver: format!("{} ({})", info.driver_name, info.driver_info),
            driver_id: info.driver_id.clone(),
            api_version: info.api_version.to_string(),
            conformance: info.conformance_version.clone(),
            subgroup_size: driver.simd(),
        }
    }
}

/// A driver bug report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriverReport {
    /// The signature.
    pub signature: SignatureText,
    /// The device.
    pub device: DeviceText,
    /// The minimized case (`.sir` with its dispatch).
    pub case: String,
    /// The module as SPIR-V assembly.
    pub spvasm: String,
    /// Every differing (lane, slot).
    pub lanes: Vec<LaneRow>,
    /// What the comparison did not compare, per relaxation (empty if all).
    pub excluded: String,
    /// The VkRunner script.
    pub shader_test: String,
    /// Commands that reproduce it: with the farm, and with VkRunner alone.
    pub repro: Vec<String>,
}

/// The VkRunner feature names a module's features need.
fn vkrunner_features(f: &spirv_export::Features) -> Vec<&'static str> {
    [
        (f.int8, "shaderInt8"),
        (f.int16, "shaderInt16"),
        (f.int64, "shaderInt64"),
        (f.float16, "shaderFloat16"),
        (f.float64, "shaderFloat64"),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .map(|(_, n)| n)
    .collect()
}

impl DriverReport {
    /// Runs `case` on `driver` and gathers the report (a passing case gives
    /// a report with no differing lanes).
    pub fn build(case: &Case, driver: &mut Driver) -> DriverReport {
        let run = driver.check(case);
        let signature = Signature::of_driver(case, driver, &run.verdict);
        let info = driver.info().clone();
        let d = case.dispatch.clone().unwrap_or_default();
        let (spvasm, shader_test) = match driver.export(&case.program, d.invocations) {
            Ok(module) => {
                let spvasm = spirv_export::disassemble(&module.words);
                let interp = InterpConfig {
                    simd: run.simd,
                    step_budget: oracle::check::INTERP_BUDGET,
                };
                let expected = run_relaxed(&case.program, &d, &interp, driver.guarantees()).ok();
                let buffers = abi_buffers(&case.program, &d, module.buffer_words());
                let mut excluded_note = Vec::new();
                let rows = expected.as_ref().map_or_else(Vec::new, |(out, excl)| {
                    (0..d.invocations)
                        .map(|inv| {
                            (0..out.types.len())
                                .map(|slot| match excl.get(inv, slot) {
                                    Some(r) => {
                                        excluded_note.push(format!(
                                            "invocation {inv} slot {slot} ({})",
                                            r.name()
                                        ));
                                        None
                                    }
                                    None => match out.get(inv, slot) {
                                        // VkRunner compares floats as IEEE values (NaN
                                        // never equals) or words bit for bit; neither
                                        // tests "any NaN".
                                        Some(bits)
                                            if out.types[slot].is_float()
                                                && ir::float::is_nan(bits, out.types[slot].bits()) =>
                                        {
                                            excluded_note.push(format!(
                                                "invocation {inv} slot {slot} (a NaN: any NaN is right)"
                                            ));
                                            None
                                        }
                                        v => Some(v),
                                    },
                                })
                                .collect()
                        })
                        .collect()
                });
                let test = ShaderTest {
                    comments: vec![
                        format!("shaderfarm: {}", signature.name()),
                        format!(
                            "the probes hold what the IR's semantics give; {} ({}) fails them",
                            info.name, info.driver_info
                        ),
                    ],
                    features: vkrunner_features(&module.features),
                    subgroup_size: Some(run.simd),
                    spvasm: &spvasm,
                    buffers: &buffers,
                    expected: rows,
                    excluded_note,
                }
                .render();
                (spvasm, test)
            }
            Err(e) => (format!("; export failed: {e}\n"), String::new()),
        };
        let lanes = match &run.verdict {
            Verdict::Mismatch { diffs } => diffs
                .iter()
                .map(|x| LaneRow {
                    lane: x.lane,
                    slot: x.slot,
                    expected: x.expected.clone(),
                    got: x.got.clone(),
                })
                .collect(),
            _ => vec![],
        };
        DriverReport {
            signature: SignatureText::of(&signature, &run.verdict),
            device: DeviceText {
                subgroup_size: run.simd,
                ..DeviceText::of(driver)
            },
            case: ir::print_case(case),
            spvasm,
            lanes,
            excluded: run.excluded.to_string(),
            shader_test,
            repro: vec![
                format!("farm run {CASE_FILE} --target {}", driver.target_name()),
                format!("vkrunner {SHADER_TEST_FILE}"),
            ],
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
        let d = &self.device;
        let _ = writeln!(md, "# `{}`\n", s.name);
        let _ = writeln!(md, "{}\n", s.verdict);
        md.push_str("| device | driver | driver ID | Vulkan | conformance | subgroup size |\n|---|---|---|---|---|---|\n");
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |\n",
            d.name, d.driver, d.driver_id, d.api_version, d.conformance, d.subgroup_size
        );
        md.push_str("## Reproduce\n\nWith VkRunner alone (it assembles the SPIR-V with `spirv-as`):\n\n```sh\n");
        let _ = writeln!(md, "{}\n```\n", self.repro[1]);
        let _ = writeln!(md, "With the farm:\n\n```sh\n{}\n```\n", self.repro[0]);
        let _ = writeln!(
            md,
            "## Minimized case (`{CASE_FILE}`)\n\n```\n{}```\n",
            self.case
        );
        md.push_str("## Differing lanes\n\n");
        if self.lanes.is_empty() {
            md.push_str("No lane differs.\n\n");
        } else {
            md.push_str("Output values as the slot's type, or raw bits in hex.\n\n| invocation | slot | expected | driver |\n|---:|---:|---|---|\n");
            for r in &self.lanes {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} |",
                    r.lane, r.slot, r.expected, r.got
                );
            }
            md.push('\n');
        }
        if !self.excluded.is_empty() {
            let _ = writeln!(
                md,
                "Not compared, because the Vulkan spec lets a driver compute them differently: {}.\n",
                self.excluded
            );
        }
        let _ = writeln!(
            md,
            "## SPIR-V (`{SPVASM_FILE}`)\n\n```\n{}```\n",
            self.spvasm
        );
        let _ = writeln!(
            md,
            "## VkRunner reproducer (`{SHADER_TEST_FILE}`)\n\n```\n{}```",
            self.shader_test
        );
        md
    }
}

/// Writes the report files of a reduced driver finding into `dir`:
/// `reduced.spvasm`, `repro.shader_test`, `report.md` and `report.json`
/// (the caller writes `reduced.sir`).
pub fn write_driver_report(
    dir: &Path,
    case: &Case,
    driver: &mut Driver,
) -> std::io::Result<DriverReport> {
    let r = DriverReport::build(case, driver);
    std::fs::create_dir_all(dir)?;
    crate::durable::write_atomic(&dir.join(SPVASM_FILE), r.spvasm.as_bytes())?;
    crate::durable::write_atomic(&dir.join(SHADER_TEST_FILE), r.shader_test.as_bytes())?;
    crate::durable::write_atomic(&dir.join("report.md"), r.markdown().as_bytes())?;
    crate::durable::write_atomic(&dir.join("report.json"), r.json().as_bytes())?;
    Ok(r)
}
