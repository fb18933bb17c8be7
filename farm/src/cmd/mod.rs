//! One module per `farm` subcommand.

pub mod gen;
pub mod interp;
