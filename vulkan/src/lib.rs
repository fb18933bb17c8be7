//! Vulkan runner for shaderfarm's real-driver target.
//!
//! A case arrives as plain data: a SPIR-V compute module whose local size
//! bakes in the lane count, and the initial words of the four storage
//! buffers of `docs/vulkan-abi.md` (set 0, bindings 0..3). It runs as one
//! dispatch of `1 x 1 x 1` workgroups and every buffer comes back as words.
//! The crate knows nothing else of shaderfarm.
//!
//! Two ways to run:
//! - [`Device`] runs jobs in this process: open once (tens of ms), then
//!   [`Device::run`] per job. A driver crash takes the process with it.
//! - [`Runner`] runs them in a child process speaking [`protocol`] over its
//!   stdin/stdout ([`worker_main`] is the child's side). Crashes, hangs and
//!   lost devices cost one job; the runner restarts the child.
//!
//! Environment: Mesa drivers write a shader cache to
//! `~/.cache/mesa_shader_cache` unless `MESA_SHADER_CACHE_DISABLE=true` is
//! set; set it (on the worker's `Command`) for honest timings and a clean
//! home directory. `VK_ICD_FILENAMES` pins one driver.
//!
//! lavapipe (Mesa 22.3, llvmpipe) notes, measured here:
//! - LLVM compiles a pipeline at its first dispatch, so for a distinct
//!   shader [`Timings::dispatch`] (~15 ms) dwarfs
//!   [`Timings::pipeline_create`] (~0.3 ms). `GALLIVM_PERF=nopt` halves it
//!   but skips LLVM's optimiser, i.e. tests less of the driver.
//! - gallivm caps an invocation's loop iterations at 65535, shared by all
//!   its loops (`LP_MAX_TGSI_LOOP_ITERATIONS`): an endless loop ends there,
//!   silently, where the reference interpreter would run on.
//! - Invalid or truncated SPIR-V and unknown entry points give
//!   `ERROR_UNKNOWN` from `vkCreateComputePipelines`
//!   ([`JobError::CompileFailed`]).

mod buffers;
mod client;
mod device;
mod info;
mod job;
pub mod protocol;
mod run;
mod worker;

pub use client::{Runner, RunnerConfig};
pub use device::Device;
pub use info::{
    DeviceInfo, Extensions, Features, FloatControls, FloatModes, SubgroupInfo, Version,
};
pub use job::{ExitInfo, Job, JobError, JobResult, Timings, BINDINGS, MIN_BUFFER_BYTES};
pub use protocol::Fault;
pub use run::SPIRV_MAGIC;
pub use worker::{
    worker_main, EXIT_DEVICE_BROKEN, EXIT_OK, EXIT_OPEN_FAILED, EXIT_PROTOCOL, FAULTS_VAR,
};
