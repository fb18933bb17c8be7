//! One module per `farm` subcommand.

pub mod interp;
