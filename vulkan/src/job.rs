//! What a job is, what it returns, and how it fails: plain data, shared by
//! the in-process [`crate::Device`], the worker protocol and the
//! [`crate::Runner`].

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Number of storage buffers every module declares (set 0, bindings 0..3;
/// see `docs/vulkan-abi.md`).
pub const BINDINGS: usize = 4;

/// Smallest buffer the runner binds, in bytes: the ABI promises every binding
/// at least 16 bytes even when the program has no slot of that kind.
pub const MIN_BUFFER_BYTES: usize = 16;

/// One compute dispatch of `1 x 1 x 1` workgroups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// The SPIR-V module, as words (magic number first).
    pub spirv: Vec<u32>,
    /// Name of the `GLCompute` entry point.
    pub entry: String,
    /// Binding `k`'s initial words; exactly [`BINDINGS`] of them. Each
    /// buffer is bound with `max(4 * len, 16)` bytes, the padding zeroed.
    pub buffers: Vec<Vec<u32>>,
    /// `Some(w)` compiles the pipeline with a required subgroup size of `w`
    /// (`VkPipelineShaderStageRequiredSubgroupSizeCreateInfo`); `None` leaves
    /// the size to the driver.
    pub required_subgroup_size: Option<u32>,
    /// How long the fence wait may take (the dispatch). In the [`crate::Runner`]
    /// the whole job (compile included) gets this plus the runner's grace.
    pub timeout: Duration,
}

/// Wall-clock costs of one job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timings {
    /// `vkCreateShaderModule` + `vkCreateComputePipelines`.
    pub pipeline_create: Duration,
    /// `vkQueueSubmit` + the fence wait. On lavapipe this includes the LLVM
    /// compile, which happens at the first dispatch of a pipeline.
    pub dispatch: Duration,
    /// The whole job inside the device: upload, pipeline, dispatch, read
    /// back, destroy.
    pub total: Duration,
}

/// What a successful job returns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobResult {
    /// Every binding read back after the dispatch, each as many words as the
    /// job gave for it.
    pub buffers: Vec<Vec<u32>>,
    /// Where the time went.
    pub timings: Timings,
}

/// How a worker process ended, as the client saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitInfo {
    /// The exit code, when it exited.
    pub code: Option<i32>,
    /// The signal that ended it, when one did (Unix only).
    pub signal: Option<i32>,
}

impl ExitInfo {
    /// Reads a [`std::process::ExitStatus`].
    pub fn from_status(status: std::process::ExitStatus) -> Self {
        #[cfg(unix)]
        let signal = std::os::unix::process::ExitStatusExt::signal(&status);
        #[cfg(not(unix))]
        let signal = None;
        ExitInfo {
            code: status.code(),
            signal,
        }
    }
}

impl fmt::Display for ExitInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.code, self.signal) {
            (Some(code), _) => write!(f, "exit code {code}"),
            (None, Some(signal)) => write!(f, "signal {signal}"),
            (None, None) => write!(f, "unknown exit status"),
        }
    }
}

/// Why a job produced no result.
///
/// After [`JobError::DeviceLost`] or [`JobError::Timeout`] the device that ran
/// the job is unusable: an in-process [`crate::Device`] refuses further jobs,
/// the worker exits, and the [`crate::Runner`] starts a new worker for the
/// next job. After [`JobError::Crashed`] and [`JobError::Protocol`] the
/// runner restarts the worker too.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum JobError {
    /// The driver rejected the module: `vkCreateShaderModule` or
    /// `vkCreateComputePipelines` failed, or the words are not SPIR-V at all.
    #[error("compile failed: {0}")]
    CompileFailed(String),
    /// The driver reported `VK_ERROR_DEVICE_LOST`.
    #[error("device lost")]
    DeviceLost,
    /// The dispatch did not finish within the job's timeout (in the runner:
    /// no answer within the timeout plus the grace period).
    #[error("timed out")]
    Timeout,
    /// The device cannot run the job as asked (e.g. the required subgroup size
    /// is outside `[min, max]`).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The job itself is malformed (wrong number of buffers, NUL in the entry
    /// name); no driver was involved.
    #[error("invalid job: {0}")]
    InvalidJob(String),
    /// The worker process died before answering.
    #[error("worker crashed ({status})")]
    Crashed {
        /// How it ended.
        status: ExitInfo,
    },
    /// The worker answered something that is not a protocol frame (a driver
    /// printing to stdout would do that). The worker was killed.
    #[error("worker protocol error: {0}")]
    Protocol(String),
    /// The worker could not open the device (or, after a restart, opened a
    /// different one).
    #[error("device open failed: {0}")]
    DeviceOpen(String),
    /// Any other Vulkan or I/O failure.
    #[error("{0}")]
    Other(String),
}

impl JobError {
    /// Whether the process that hit this error must not run further jobs on
    /// its device (the worker exits after answering one of these).
    pub fn is_fatal_to_device(&self) -> bool {
        matches!(self, JobError::DeviceLost | JobError::Timeout)
    }
}
