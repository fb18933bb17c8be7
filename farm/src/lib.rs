//! The library half of the `farm` package: what the `farm` binary shares
//! with the libFuzzer targets in `fuzz/`.
//!
//! * [`fuzz_targets`]: the body of every fuzz target, as a plain function,
//!   so that `cargo test` runs each one over random bytes and over
//!   `fuzz/corpus/` (the way wasm-tools keeps its targets honest);
//! * [`campaign`]: fuzz campaigns (the worker pool, the collector, the
//!   state writer, the background reducer), driven in-process by the
//!   binary and by tests;
//! * [`durable`]: atomic, fsync'd writes of every state file and finding;
//! * [`configs`]: pass subsets drawn from a number;
//! * [`shaderdb`]: shader-db logs and `report.py`'s comparison;
//! * [`is_finding`]: which verdicts are findings.

pub mod campaign;
pub mod configs;
pub mod durable;
pub mod fuzz_targets;
pub mod report;
pub mod shaderdb;
pub mod target;

use oracle::Verdict;

/// Whether a verdict is a finding (a compiler or hardware-model bug), as
/// opposed to a generator problem or a legitimate limit.
pub fn is_finding(v: &Verdict) -> bool {
    match v {
        Verdict::Pass
        | Verdict::InvalidCase(_)
        | Verdict::CompilerLimit(_)
        | Verdict::Unsupported(_) => false,
        Verdict::Timeout { stage } => *stage == oracle::Budget::Sim,
        _ => true,
    }
}
