//! Triage: failure signatures and persistent buckets ([`signature`]), a
//! structured, type-preserving reducer of cases and configs ([`reduce`]),
//! bug reports in Markdown and JSON ([`report`]), and the durable writes
//! every file of theirs and the farm's goes through ([`durable`]).

pub mod driver_report;
pub mod durable;
pub mod reduce;
pub mod report;
pub mod signature;
pub mod vkrunner;
