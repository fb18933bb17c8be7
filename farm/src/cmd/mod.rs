//! One module per `farm` subcommand.

pub mod asm;
pub mod compile;
pub mod gen;
pub mod interp;
pub mod run;
pub mod stats;
