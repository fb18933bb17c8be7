//! A real Vulkan driver as a compiler under test: one case exported to
//! SPIR-V in-process ([`spirv_export`]), dispatched on the device by a
//! child worker process ([`vulkan::Runner`], restarted after a crash, a hang
//! or a lost device, so a driver failure costs one case), and every
//! invocation's outputs compared with the oracle at the device's subgroup
//! size.
//!
//! A driver is a black box: there is no per-pass localization. Its
//! failures are verdicts of their own (`driver-crash`,
//! `driver-compile-fail`, `driver-timeout`), and a case the device cannot
//! run as the comparison needs (a missing feature, a subgroup size the
//! oracle does not model, invocations laid out in subgroups differently) is
//! `unsupported`, which is not a finding.

use crate::check::{compare_relaxed, LaneDiff, Verdict, INTERP_BUDGET};
use crate::interp::{InterpConfig, InterpError};
use crate::relax::{run_relaxed, FloatGuarantees, Guarantees, Reconvergence, RelaxCounts};
use ir::{Case, Dispatch, Program};
use std::process::Command;
use std::time::{Duration, Instant};
use vulkan::{DeviceInfo, Job, JobError, Runner, RunnerConfig};

/// How long one dispatch may take before it is a `driver-timeout`.
pub const DISPATCH_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a driver target cannot be used at all (as opposed to one case
/// failing on it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DriverError {
    /// The worker could not open a device matching the selector, or could
    /// not be started.
    #[error("cannot open the Vulkan device: {0}")]
    Open(String),
    /// The device cannot serve as a target (e.g. no compute subgroups).
    #[error("the Vulkan device cannot be a target: {0}")]
    Unusable(String),
}

/// Where each part of one driver run went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriverTimings {
    /// SPIR-V export (in-process).
    pub export: Duration,
    /// Pipeline creation in the driver (where it compiles).
    pub pipeline_create: Duration,
    /// Submit and wait (lavapipe compiles at the first dispatch).
    pub dispatch: Duration,
    /// The whole job as the client saw it (protocol included).
    pub job: Duration,
}

/// The outcome of one case on the driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriverRun {
    /// The verdict.
    pub verdict: Verdict,
    /// The output pairs not compared, per relaxation (what the Vulkan spec
    /// lets the driver compute differently; see `oracle::relax`).
    pub excluded: RelaxCounts,
    /// The subgroup size the comparison used.
    pub simd: u32,
    /// Where the time went (zero for the parts that did not run).
    pub timings: DriverTimings,
}

/// A Vulkan device as a compiler under test.
pub struct Driver {
    runner: Runner,
    simd: u32,
    guarantees: Guarantees,
    float_controls: spirv_export::FloatControls,
    reconvergence: spirv_export::Reconvergence,
    derivatives: spirv_export::DerivativeExtension,
    features: spirv_export::Features,
}

impl Driver {
    /// Starts `worker` (a command that runs [`vulkan::worker_main`], such as
    /// `farm vk-worker`) on the first device whose device or driver name contains `selector`
    /// (or the first device), and settles the subgroup size the comparison
    /// uses: `simd` if given (the device must offer it through subgroup-size
    /// control), else the device's own; either must be one the oracle
    /// models (8, 16 or 32).
    pub fn open(
        worker: Command,
        selector: Option<&str>,
        simd: Option<u32>,
    ) -> Result<Driver, DriverError> {
        let config = RunnerConfig {
            selector: selector.map(str::to_string),
            ..RunnerConfig::default()
        };
        let runner = Runner::new(worker, config).map_err(|e| DriverError::Open(e.to_string()))?;
        let info = runner.device_info().clone();
        let sg = &info.subgroup;
        let simd = match simd {
            None => sg.size,
            Some(w) if w == sg.size => w,
            Some(w) if sg.size_control && (sg.min_size..=sg.max_size).contains(&w) => w,
            Some(w) => {
                return Err(DriverError::Unusable(format!(
                    "it runs compute shaders at subgroup size {} and cannot be asked for {w} (it offers {}..={}{})",
                    sg.size,
                    sg.min_size,
                    sg.max_size,
                    if sg.size_control { "" } else { ", without subgroup-size control" }
                )))
            }
        };
        if !matches!(simd, 8 | 16 | 32) {
            return Err(DriverError::Unusable(format!(
                "its subgroup size is {simd}; the oracle models 8, 16 and 32"
            )));
        }
        if !info
            .subgroup
            .supported_stages
            .iter()
            .any(|s| s == "COMPUTE")
        {
            return Err(DriverError::Unusable(
                "it has no subgroup operations in compute shaders".into(),
            ));
        }
        let float_controls = float_controls_of(&info);
        let reconvergence = reconvergence_of(&info);
        Ok(Driver {
            guarantees: guarantees_of(&info, &float_controls, reconvergence),
            float_controls,
            reconvergence,
            derivatives: if info.extensions.compute_derivative_group_linear
                && !info.extensions.compute_derivatives_nv
            {
                spirv_export::DerivativeExtension::Khr
            } else {
                spirv_export::DerivativeExtension::Nv
            },
            features: features_of(&info),
            runner,
            simd,
        })
    }

    /// What the device offers, in the exporter's terms.
    pub fn features(&self) -> &spirv_export::Features {
        &self.features
    }

    /// The device and driver (name, versions, properties).
    pub fn info(&self) -> &DeviceInfo {
        self.runner.device_info()
    }

    /// A one-line name: device, driver and its version text.
    pub fn describe(&self) -> String {
        let i = self.info();
        format!("{} ({}, {})", i.name, i.driver_name, i.driver_info)
    }

    /// The target's name in signatures and variants: `vulkan:` and the
    /// driver's name (`VkPhysicalDeviceDriverProperties::driverName`,
    /// `llvmpipe`, `Intel open-source Mesa driver`, ...), lowercased with
    /// spaces as `-`.
    pub fn target_name(&self) -> String {
        let name = self.info().driver_name.to_lowercase().replace(' ', "-");
        format!("vulkan:{name}")
    }

    /// The op of the first value the driver computes wrongly for `case`
    /// ([`crate::probe`]): `None` when the probed case does not mismatch.
    pub fn first_wrong_op(&mut self, case: &Case) -> Option<String> {
        let (program, probes) = crate::probe::probed(&case.program);
        let probed = Case {
            program,
            dispatch: case.dispatch.clone(),
        };
        match self.check(&probed).verdict {
            Verdict::Mismatch { diffs } => {
                crate::probe::first_divergence(&probes, &diffs).map(|p| p.op_name().to_string())
            }
            _ => None,
        }
    }

    /// The subgroup size the comparison uses.
    pub fn simd(&self) -> u32 {
        self.simd
    }

    /// What the device guarantees (which relaxations apply).
    pub fn guarantees(&self) -> &Guarantees {
        &self.guarantees
    }

    /// The float modes requested in every exported module.
    pub fn float_controls(&self) -> spirv_export::FloatControls {
        self.float_controls
    }

    /// The reconvergence every exported module requests.
    pub fn reconvergence(&self) -> spirv_export::Reconvergence {
        self.reconvergence
    }

    /// How many times the worker process was started (1 + restarts).
    pub fn worker_starts(&self) -> u32 {
        self.runner.starts()
    }

    /// The underlying runner (for fault injection in tests).
    pub fn runner_mut(&mut self) -> &mut Runner {
        &mut self.runner
    }

    /// Exports `case` for this device.
    pub fn export(
        &self,
        program: &Program,
        invocations: u32,
    ) -> Result<spirv_export::Module, spirv_export::ExportError> {
        spirv_export::export(
            program,
            &spirv_export::ExportOptions {
                invocations,
                float_controls: self.float_controls,
                reconvergence: self.reconvergence,
                derivatives: self.derivatives,
            },
        )
    }

    /// Runs `case` on the device and compares every invocation's outputs
    /// with the oracle's.
    pub fn check(&mut self, case: &Case) -> DriverRun {
        let mut timings = DriverTimings::default();
        let mut excluded = RelaxCounts::default();
        let verdict = self.check_timed(case, &mut timings, &mut excluded);
        DriverRun {
            verdict,
            excluded,
            simd: self.simd,
            timings,
        }
    }

    fn check_timed(
        &mut self,
        case: &Case,
        timings: &mut DriverTimings,
        excluded: &mut RelaxCounts,
    ) -> Verdict {
        let Some(d) = case.dispatch.as_ref() else {
            return Verdict::InvalidCase("the case has no dispatch".into());
        };
        let interp = InterpConfig {
            simd: self.simd,
            step_budget: INTERP_BUDGET,
        };
        let (expected, exclusions) = match run_relaxed(&case.program, d, &interp, &self.guarantees)
        {
            Ok(x) => x,
            Err(InterpError::Timeout { .. }) => {
                return Verdict::Timeout {
                    stage: crate::Budget::Interp,
                }
            }
            Err(e) => return Verdict::InvalidCase(e.to_string()),
        };
        let max = self.info().max_compute_work_group_invocations;
        if d.invocations > max {
            return Verdict::Unsupported(format!(
                "{} invocations in one workgroup; the device allows {max}",
                d.invocations
            ));
        }
        // What the ops alone need, before exporting (a fragment-only op
        // cannot be exported at all).
        let mut missing = std::collections::BTreeSet::new();
        case.program.for_each_block(&mut |b| {
            for i in &b.instrs {
                missing.extend(spirv_export::op_needs(i.op).missing_from(&self.features));
            }
        });
        if !missing.is_empty() {
            let names: Vec<&str> = missing.into_iter().collect();
            return Verdict::Unsupported(format!("the device lacks {}", names.join(", ")));
        }
        let t = Instant::now();
        let module = match self.export(&case.program, d.invocations) {
            Ok(m) => m,
            Err(e) => return Verdict::ExportError(e.to_string()),
        };
        timings.export = t.elapsed();
        let missing = module.features.missing_from(&self.features);
        if !missing.is_empty() {
            return Verdict::Unsupported(format!("the device lacks {}", missing.join(", ")));
        }
        let buffers = abi_buffers(&case.program, d, module.buffer_words());
        let job = Job {
            spirv: module.words,
            entry: module.entry_point.to_string(),
            buffers,
            required_subgroup_size: self.info().subgroup.size_control.then_some(self.simd),
            timeout: DISPATCH_TIMEOUT,
        };
        let result = match self.runner.run(&job) {
            Ok(r) => r,
            Err(e) => return verdict_of_job_error(e),
        };
        timings.pipeline_create = result.timings.pipeline_create;
        timings.dispatch = result.timings.dispatch;
        timings.job = result.timings.total;
        if let Some(v) = check_lanes(&result.buffers[3], d.invocations, self.simd) {
            return v;
        }
        let (got, mut diffs) = decode_outputs(&case.program, d.invocations, &result.buffers[2]);
        let (more, skipped) = compare_relaxed(&expected, &exclusions, &got);
        *excluded = skipped;
        diffs.extend(more);
        diffs.sort_by_key(|x| (x.lane, x.slot));
        diffs.dedup_by_key(|x| (x.lane, x.slot));
        if diffs.is_empty() {
            Verdict::Pass
        } else {
            Verdict::Mismatch { diffs }
        }
    }
}

/// The float modes to request: every one the device supports.
fn float_controls_of(info: &DeviceInfo) -> spirv_export::FloatControls {
    let fc = &info.float_controls;
    let modes = |m: &vulkan::FloatModes| spirv_export::FloatModes {
        signed_zero_inf_nan_preserve: fc.available && m.signed_zero_inf_nan_preserve,
        denorm_preserve: fc.available && m.denorm_preserve,
        rounding_mode_rte: fc.available && m.rounding_mode_rte,
    };
    spirv_export::FloatControls {
        f16: modes(&fc.f16),
        f32: modes(&fc.f32),
        f64: modes(&fc.f64),
    }
}

/// The strongest reconvergence the device offers (its feature is enabled
/// by the runner whenever the extension is present).
fn reconvergence_of(info: &DeviceInfo) -> spirv_export::Reconvergence {
    if info.extensions.shader_maximal_reconvergence {
        spirv_export::Reconvergence::Maximal
    } else if info.extensions.shader_subgroup_uniform_control_flow {
        spirv_export::Reconvergence::SubgroupUniform
    } else {
        spirv_export::Reconvergence::Default
    }
}

/// What the device guarantees with the modes the exported modules request.
fn guarantees_of(
    info: &DeviceInfo,
    fc: &spirv_export::FloatControls,
    requested: spirv_export::Reconvergence,
) -> Guarantees {
    let g = |m: spirv_export::FloatModes| FloatGuarantees {
        denorm_preserve: m.denorm_preserve,
        signed_zero_inf_nan_preserve: m.signed_zero_inf_nan_preserve,
        rounding_rte: m.rounding_mode_rte,
    };
    // Only what the module requests is guaranteed.
    let reconvergence = match requested {
        spirv_export::Reconvergence::Maximal => Reconvergence::Maximal,
        spirv_export::Reconvergence::SubgroupUniform => Reconvergence::SubgroupUniform,
        spirv_export::Reconvergence::Default => Reconvergence::WorkgroupUniform,
    };
    Guarantees::vulkan(
        info.api_version.major,
        info.api_version.minor,
        [g(fc.f16), g(fc.f32), g(fc.f64)],
        reconvergence,
    )
}

/// What the device offers, in the exporter's terms.
fn features_of(info: &DeviceInfo) -> spirv_export::Features {
    let f = &info.features;
    let op = |name: &str| info.subgroup.supported_operations.iter().any(|o| o == name);
    spirv_export::Features {
        int8: f.shader_int8,
        int16: f.shader_int16,
        int64: f.shader_int64,
        float16: f.shader_float16,
        float64: f.shader_float64,
        subgroup_basic: op("BASIC"),
        subgroup_vote: op("VOTE"),
        subgroup_ballot: op("BALLOT"),
        subgroup_shuffle: op("SHUFFLE"),
        subgroup_quad: op("QUAD"),
        compute_derivatives: info.extensions.compute_derivative_group_linear,
        fragment_stage: false,
        float_controls: info.float_controls.available,
        subgroup_uniform_control_flow: info.extensions.shader_subgroup_uniform_control_flow,
        maximal_reconvergence: info.extensions.shader_maximal_reconvergence,
    }
}

/// The initial words of the four bindings (`docs/vulkan-abi.md`): inputs
/// per invocation and slot as (low, high) words, uniforms likewise, and
/// zeroed outputs and lanes.
pub fn abi_buffers(program: &Program, d: &Dispatch, sizes: [usize; 4]) -> Vec<Vec<u32>> {
    let ni = program.inputs.len();
    let mut inputs = vec![0u32; sizes[0]];
    for inv in 0..d.invocations as usize {
        for (s, column) in d.inputs.iter().enumerate() {
            let v = column[inv];
            let at = 2 * (inv * ni + s);
            inputs[at] = v as u32;
            inputs[at + 1] = (v >> 32) as u32;
        }
    }
    let mut uniforms = vec![0u32; sizes[1]];
    for (s, &v) in d.uniforms.iter().enumerate() {
        uniforms[2 * s] = v as u32;
        uniforms[2 * s + 1] = (v >> 32) as u32;
    }
    vec![inputs, uniforms, vec![0; sizes[2]], vec![0; sizes[3]]]
}

/// The verdict of a job the runner could not complete.
fn verdict_of_job_error(e: JobError) -> Verdict {
    match e {
        JobError::CompileFailed(message) => Verdict::DriverCompileFail { message },
        JobError::Timeout => Verdict::DriverTimeout,
        JobError::DeviceLost => Verdict::DriverCrash {
            detail: "device lost".into(),
        },
        JobError::Crashed { status } => Verdict::DriverCrash {
            detail: format!("the worker died: {status}"),
        },
        JobError::Protocol(m) => Verdict::DriverCrash {
            detail: format!("the worker's output was garbled: {m}"),
        },
        JobError::Unsupported(m) => Verdict::Unsupported(m),
        e @ (JobError::InvalidJob(_) | JobError::DeviceOpen(_) | JobError::Other(_)) => {
            Verdict::DriverCrash {
                detail: e.to_string(),
            }
        }
    }
}

/// Checks the `lanes` buffer: invocation `i` ran in subgroup `i / simd` at
/// lane `i % simd` (the oracle's layout; the Vulkan spec does not promise
/// it, so another layout makes the case unsupported, not a finding).
fn check_lanes(words: &[u32], invocations: u32, simd: u32) -> Option<Verdict> {
    for i in 0..invocations {
        let row = &words[4 * i as usize..4 * i as usize + 4];
        // An invocation that did not run (row unwritten) leaves its outputs
        // unwritten, which the output comparison reports.
        let want = [i / simd, i % simd, simd];
        if row[3] == 1 && row[..3] != want {
            return Some(Verdict::Unsupported(format!(
                "invocation {i} ran in subgroup {} at lane {} of {} (the comparison needs subgroup {} lane {} of {simd})",
                row[0], row[1], row[2], want[0], want[1]
            )));
        }
    }
    None
}

/// The stored outputs as the simulator reports them (so the model's
/// comparison applies unchanged), plus a difference for every written flag
/// that is neither 0 nor 1.
fn decode_outputs(
    program: &Program,
    invocations: u32,
    words: &[u32],
) -> (eu::RunResult, Vec<LaneDiff>) {
    let n = program.outputs.len();
    let mut diffs = Vec::new();
    let outputs = (0..invocations as usize)
        .map(|inv| {
            program
                .outputs
                .iter()
                .enumerate()
                .map(|(slot, ty)| {
                    let at = 4 * (inv * n + slot);
                    let (lo, hi, flag) = (words[at], words[at + 1], words[at + 2]);
                    let bits = lo as u64 | (hi as u64) << 32;
                    let bytes = ty.bits().div_ceil(8);
                    match flag {
                        0 => None,
                        1 => Some(eu::Stored {
                            // Bits above the slot's size show as a wrong size.
                            bits,
                            size: if bits & !ir::types::mask(ty.bits()) == 0 {
                                bytes
                            } else {
                                8
                            },
                        }),
                        other => {
                            diffs.push(LaneDiff {
                                lane: inv as u32,
                                slot,
                                expected: "written flag 0 or 1".into(),
                                got: format!("written flag 0x{other:x}"),
                            });
                            None
                        }
                    }
                })
                .collect()
        })
        .collect();
    (
        eu::RunResult {
            outputs,
            stats: eu::Stats::default(),
        },
        diffs,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_rows_must_match_the_oracles_layout() {
        // Invocations 0..3 at SIMD2: subgroup i / 2, lane i % 2, size 2, ran.
        let good = [0, 0, 2, 1, 0, 1, 2, 1, 1, 0, 2, 1];
        assert_eq!(check_lanes(&good, 3, 2), None);
        // An invocation that never ran is left to the output comparison.
        let unrun = [0, 0, 2, 1, 0, 0, 0, 0, 1, 0, 2, 1];
        assert_eq!(check_lanes(&unrun, 3, 2), None);
        let swapped = [0, 1, 2, 1, 0, 0, 2, 1, 1, 0, 2, 1];
        assert_eq!(
            check_lanes(&swapped, 3, 2),
            Some(Verdict::Unsupported(
                "invocation 0 ran in subgroup 0 at lane 1 of 2 (the comparison needs subgroup 0 lane 0 of 2)"
                    .into()
            ))
        );
    }

    #[test]
    fn outputs_decode_with_their_written_flags() {
        let p = ir::parse_case(
            "shader: t\ndecl_output 0 i8\ndecl_output 1 i64\nimpl main {\n\tblock b0:\n}\n",
        )
        .unwrap()
        .program;
        // Invocation 0: slot 0 = 0x7f, slot 1 unwritten. Invocation 1: slot 0
        // has bits above 8 (shows as an 8-byte value), slot 1 a bad flag.
        let words = [
            0x7f, 0, 1, 0, 5, 6, 0, 0, //
            0x17f, 0, 1, 0, 1, 2, 2, 0,
        ];
        let (r, diffs) = decode_outputs(&p, 2, &words);
        assert_eq!(
            r.outputs,
            vec![
                vec![
                    Some(eu::Stored {
                        bits: 0x7f,
                        size: 1
                    }),
                    None
                ],
                vec![
                    Some(eu::Stored {
                        bits: 0x17f,
                        size: 8
                    }),
                    None
                ],
            ]
        );
        assert_eq!(
            diffs,
            vec![LaneDiff {
                lane: 1,
                slot: 1,
                expected: "written flag 0 or 1".into(),
                got: "written flag 0x2".into(),
            }]
        );
    }

    #[test]
    fn abi_buffers_lay_out_inputs_per_invocation_and_slot() {
        let p = ir::parse_case(
            "shader: t\ndecl_input 0 i32\ndecl_input 1 i64\ndecl_uniform 0 i64\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n}\ndispatch 2 {\n\tinput 0: 1 2\n\tinput 1: 0x100000003 4\n\tuniform 0: 0x500000006\n}\n",
        )
        .unwrap();
        let d = p.dispatch.unwrap();
        let b = abi_buffers(&p.program, &d, [8, 2, 8, 8]);
        assert_eq!(b[0], [1, 0, 3, 1, 2, 0, 4, 0]);
        assert_eq!(b[1], [6, 5]);
        assert_eq!(b[2], [0; 8]);
        assert_eq!(b[3], [0; 8]);
    }
}
