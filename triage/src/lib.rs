//! Triage: failure signatures and persistent buckets ([`signature`]), a
//! structured, type-preserving reducer of cases and configs ([`reduce`]),
//! and bug reports in Markdown and JSON ([`report`]).

pub mod reduce;
pub mod report;
pub mod signature;
