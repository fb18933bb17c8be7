//! One module per `farm` subcommand.

pub mod asm;
pub mod gen;
pub mod interp;
