//! One module per `farm` subcommand.

pub mod asm;
pub mod compile;
pub mod corpus;
pub mod export;
pub mod fmt;
pub mod fuzz;
pub mod gen;
pub mod interp;
pub mod merge;
pub mod reduce;
pub mod report;
pub mod repro;
pub mod run;
pub mod selftest;
pub mod stats;
