//! EU passes (brw's place in the pipeline), one per file, plus the CFG and
//! liveness analyses they share.

pub mod bool_cleanup;
pub mod cfg;
pub mod cmod_prop;
pub mod copy_prop;
pub mod cse;
pub mod dce;
mod known;
pub mod liveness;
pub mod ops;
pub mod register_coalesce;
pub mod sat_prop;

#[cfg(test)]
pub(crate) mod testutil;

#[cfg(test)]
mod tests;
