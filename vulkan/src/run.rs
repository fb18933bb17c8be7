//! Running one [`Job`] on a [`Device`]: upload, pipeline, one dispatch,
//! fence wait with the job's timeout, read back, destroy.

use std::ffi::CString;
use std::time::Instant;

use ash::vk;

use crate::buffers::bound_bytes;
use crate::device::Device;
use crate::job::{Job, JobError, JobResult, Timings, BINDINGS};

/// The first word of every SPIR-V module.
pub const SPIRV_MAGIC: u32 = 0x0723_0203;

/// Words in a SPIR-V header; a module is at least this long.
const SPIRV_HEADER_WORDS: usize = 5;

/// Maps a Vulkan error of a non-compile call.
fn vk_err(call: &str, r: vk::Result) -> JobError {
    if r == vk::Result::ERROR_DEVICE_LOST {
        JobError::DeviceLost
    } else {
        JobError::Other(format!("{call} returned {r:?}"))
    }
}

/// Maps a failure of `vkCreateShaderModule` / `vkCreateComputePipelines`:
/// out-of-memory and device loss are not the module's fault.
fn compile_err(call: &str, r: vk::Result) -> JobError {
    match r {
        vk::Result::ERROR_DEVICE_LOST => JobError::DeviceLost,
        vk::Result::ERROR_OUT_OF_HOST_MEMORY | vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => {
            JobError::Other(format!("{call} returned {r:?}"))
        }
        _ => JobError::CompileFailed(format!("{call} returned {r:?}")),
    }
}

/// Checks what can be checked without the driver.
fn validate(job: &Job) -> Result<CString, JobError> {
    if job.buffers.len() != BINDINGS {
        return Err(JobError::InvalidJob(format!(
            "{} buffers given, the ABI binds {BINDINGS}",
            job.buffers.len()
        )));
    }
    let entry = CString::new(job.entry.as_str())
        .map_err(|_| JobError::InvalidJob("entry point name contains NUL".to_string()))?;
    // vkCreateShaderModule requires a non-empty module starting with the
    // magic number; anything else is invalid usage the driver need not
    // survive, so it never reaches the driver.
    if job.spirv.len() < SPIRV_HEADER_WORDS || job.spirv[0] != SPIRV_MAGIC {
        return Err(JobError::CompileFailed(format!(
            "not a SPIR-V module ({} words, first word {:#010x})",
            job.spirv.len(),
            job.spirv.first().copied().unwrap_or(0)
        )));
    }
    Ok(entry)
}

impl Device {
    /// Runs one job: binds `job.buffers` (bindings 0..3), builds the
    /// pipeline, dispatches `1 x 1 x 1` workgroups, waits at most
    /// `job.timeout`, and reads every binding back.
    ///
    /// A required subgroup size must be a power of two in the device's
    /// `[min, max]` with compute in `requiredSubgroupSizeStages`, else
    /// [`JobError::Unsupported`]. The stage is created with that size and
    /// neither `ALLOW_VARYING_SUBGROUP_SIZE` (forbidden together with a
    /// required size) nor `REQUIRE_FULL_SUBGROUPS` (it would demand a local
    /// size that is a multiple of the subgroup size, and cases have any
    /// N <= 1024). Without a required size no flag is set either; for SPIR-V
    /// 1.6 modules Vulkan 1.3 then lets the size vary within `[min, max]`.
    /// Either way the `lanes` binding records what the driver did.
    ///
    /// After [`JobError::Timeout`] or [`JobError::DeviceLost`] the device is
    /// unusable: later jobs fail with [`JobError::Other`], and the process
    /// should exit.
    pub fn run(&mut self, job: &Job) -> Result<JobResult, JobError> {
        if let Some(e) = &self.broken {
            return Err(JobError::Other(format!(
                "device unusable after an earlier failure ({e}); restart the process"
            )));
        }
        let result = self.run_inner(job);
        if let Err(e) = &result {
            if e.is_fatal_to_device() {
                self.broken = Some(e.clone());
            }
        }
        result
    }

    fn run_inner(&mut self, job: &Job) -> Result<JobResult, JobError> {
        let entry = validate(job)?;
        self.check_subgroup_size(job.required_subgroup_size)?;
        let start = Instant::now();
        self.upload(&job.buffers)?;

        let compile_start = Instant::now();
        let (module, pipeline) = self.create_pipeline(job, &entry)?;
        let pipeline_create = compile_start.elapsed();

        let dispatch_start = Instant::now();
        let outcome = self.dispatch(pipeline, job.timeout);
        let dispatch = dispatch_start.elapsed();
        if let Err(e) = outcome {
            // After a timeout or device loss the device may still run the
            // pipeline: keep it (the caller marks the device broken).
            if !e.is_fatal_to_device() {
                self.destroy_pipeline(module, pipeline);
            }
            return Err(e);
        }
        let buffers = job
            .buffers
            .iter()
            .enumerate()
            .map(|(k, b)| self.buffers.read(k, b.len()))
            .collect();
        self.destroy_pipeline(module, pipeline);
        Ok(JobResult {
            buffers,
            timings: Timings {
                pipeline_create,
                dispatch,
                total: start.elapsed(),
            },
        })
    }

    fn check_subgroup_size(&self, size: Option<u32>) -> Result<(), JobError> {
        let Some(size) = size else { return Ok(()) };
        let c = &self.size_control;
        if !c.enabled {
            return Err(JobError::Unsupported(format!(
                "required subgroup size {size}: the device has no subgroupSizeControl"
            )));
        }
        if !c.stages.contains(vk::ShaderStageFlags::COMPUTE) {
            return Err(JobError::Unsupported(format!(
                "required subgroup size {size}: compute is not in requiredSubgroupSizeStages"
            )));
        }
        if !size.is_power_of_two() || size < c.min || size > c.max {
            return Err(JobError::Unsupported(format!(
                "required subgroup size {size}: the device supports powers of two in [{}, {}]",
                c.min, c.max
            )));
        }
        Ok(())
    }

    /// Copies the initial words into the pool and points the descriptor set
    /// at them with this job's ranges.
    fn upload(&mut self, buffers: &[Vec<u32>]) -> Result<(), JobError> {
        for (k, words) in buffers.iter().enumerate() {
            self.buffers
                .ensure(&self.device, k, bound_bytes(words.len()))?;
            self.buffers.write(k, words);
        }
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
            .iter()
            .enumerate()
            .map(|(k, words)| {
                [vk::DescriptorBufferInfo::default()
                    .buffer(self.buffers.buffer(k))
                    .offset(0)
                    .range(bound_bytes(words.len()))]
            })
            .collect();
        let writes: Vec<_> = infos
            .iter()
            .enumerate()
            .map(|(k, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(self.shared.descriptor_set)
                    .dst_binding(k as u32)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: the set and buffers belong to this device, each range lies
        // within its buffer, and the set is not in use (the previous job's
        // fence was waited on).
        unsafe { self.device.update_descriptor_sets(&writes, &[]) };
        Ok(())
    }

    fn create_pipeline(
        &mut self,
        job: &Job,
        entry: &CString,
    ) -> Result<(vk::ShaderModule, vk::Pipeline), JobError> {
        let module_info = vk::ShaderModuleCreateInfo::default().code(&job.spirv);
        // SAFETY: the code is non-empty, a whole number of words, and starts
        // with the SPIR-V magic (checked in `validate`). Beyond that the
        // driver must cope with whatever the words say; that is what the
        // worker process is for.
        let module = unsafe { self.device.create_shader_module(&module_info, None) }
            .map_err(|r| compile_err("vkCreateShaderModule", r))?;
        let mut required = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
            .required_subgroup_size(job.required_subgroup_size.unwrap_or(0));
        let mut stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(entry);
        if job.required_subgroup_size.is_some() {
            stage = stage.push_next(&mut required);
        }
        let info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(self.shared.pipeline_layout)];
        // SAFETY: the module and layout belong to this device; a required
        // subgroup size was checked against the device's limits and the
        // enabled subgroupSizeControl feature.
        match unsafe {
            self.device
                .create_compute_pipelines(vk::PipelineCache::null(), &info, None)
        } {
            Ok(pipelines) => Ok((module, pipelines[0])),
            Err((pipelines, r)) => {
                for p in pipelines {
                    self.destroy_pipeline(vk::ShaderModule::null(), p);
                }
                self.destroy_pipeline(module, vk::Pipeline::null());
                Err(compile_err("vkCreateComputePipelines", r))
            }
        }
    }

    /// Records, submits and waits for one dispatch of `pipeline`.
    fn dispatch(
        &mut self,
        pipeline: vk::Pipeline,
        timeout: std::time::Duration,
    ) -> Result<(), JobError> {
        let d = &self.device;
        let s = &self.shared;
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: the pool, buffer, pipeline, layout and set belong to this
        // device, and the command buffer is not pending (the last fence was
        // waited on), so resetting the pool and re-recording is allowed.
        unsafe {
            d.reset_command_pool(s.command_pool, vk::CommandPoolResetFlags::empty())
                .map_err(|r| vk_err("vkResetCommandPool", r))?;
            d.begin_command_buffer(
                s.command_buffer,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .map_err(|r| vk_err("vkBeginCommandBuffer", r))?;
            d.cmd_bind_pipeline(s.command_buffer, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_bind_descriptor_sets(
                s.command_buffer,
                vk::PipelineBindPoint::COMPUTE,
                s.pipeline_layout,
                0,
                &[s.descriptor_set],
                &[],
            );
            d.cmd_dispatch(s.command_buffer, 1, 1, 1);
            // Make the shader's writes visible to the host read-back.
            d.cmd_pipeline_barrier(
                s.command_buffer,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            d.end_command_buffer(s.command_buffer)
                .map_err(|r| vk_err("vkEndCommandBuffer", r))?;
        }
        let command_buffers = [s.command_buffer];
        let submit = [vk::SubmitInfo::default().command_buffers(&command_buffers)];
        // SAFETY: the command buffer is fully recorded, the fence is
        // unsignaled (reset after every successful wait), and the queue is
        // used from this thread only. Host writes to the coherent buffers
        // are made visible by the submission itself.
        unsafe { d.queue_submit(self.queue, &submit, s.fence) }
            .map_err(|r| vk_err("vkQueueSubmit", r))?;
        let nanos = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: the fence belongs to this device and was just submitted.
        match unsafe { d.wait_for_fences(&[s.fence], true, nanos) } {
            Ok(()) => {}
            Err(vk::Result::TIMEOUT) => return Err(JobError::Timeout),
            Err(r) => return Err(vk_err("vkWaitForFences", r)),
        }
        // SAFETY: the fence is signaled and no longer in use by the queue.
        unsafe { d.reset_fences(&[s.fence]) }.map_err(|r| vk_err("vkResetFences", r))
    }

    /// Destroys a job's pipeline and module (either may be null).
    fn destroy_pipeline(&self, module: vk::ShaderModule, pipeline: vk::Pipeline) {
        // SAFETY: both belong to this device (or are null) and the pipeline
        // is not in use: its dispatch completed (fence waited) or was never
        // submitted.
        unsafe {
            self.device.destroy_pipeline(pipeline, None);
            self.device.destroy_shader_module(module, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn job(spirv: Vec<u32>, buffers: usize) -> Job {
        Job {
            spirv,
            entry: "main".to_string(),
            buffers: vec![vec![]; buffers],
            required_subgroup_size: None,
            timeout: Duration::from_secs(1),
        }
    }

    #[test]
    fn rejects_what_is_not_spirv_before_the_driver() {
        assert_eq!(
            validate(&job(vec![], 4)),
            Err(JobError::CompileFailed(
                "not a SPIR-V module (0 words, first word 0x00000000)".to_string()
            ))
        );
        assert_eq!(
            validate(&job(vec![0x0302_2307, 0, 0, 0, 0], 4)),
            Err(JobError::CompileFailed(
                "not a SPIR-V module (5 words, first word 0x03022307)".to_string()
            ))
        );
        assert_eq!(
            validate(&job(vec![SPIRV_MAGIC, 0x10300, 0, 1, 0], 3)),
            Err(JobError::InvalidJob(
                "3 buffers given, the ABI binds 4".to_string()
            ))
        );
        let mut bad_entry = job(vec![SPIRV_MAGIC, 0x10300, 0, 1, 0], 4);
        bad_entry.entry = "ma\0in".to_string();
        assert_eq!(
            validate(&bad_entry),
            Err(JobError::InvalidJob(
                "entry point name contains NUL".to_string()
            ))
        );
        assert_eq!(
            validate(&job(vec![SPIRV_MAGIC, 0x10300, 0, 1, 0], 4)),
            Ok(CString::new("main").unwrap())
        );
    }

    #[test]
    fn compile_errors_blame_the_module_only_when_it_is_to_blame() {
        assert_eq!(
            compile_err("vkCreateComputePipelines", vk::Result::ERROR_UNKNOWN),
            JobError::CompileFailed("vkCreateComputePipelines returned ERROR_UNKNOWN".to_string())
        );
        assert_eq!(
            compile_err("vkCreateShaderModule", vk::Result::ERROR_DEVICE_LOST),
            JobError::DeviceLost
        );
        assert_eq!(
            compile_err("vkCreateShaderModule", vk::Result::ERROR_OUT_OF_HOST_MEMORY),
            JobError::Other("vkCreateShaderModule returned ERROR_OUT_OF_HOST_MEMORY".to_string())
        );
    }
}
