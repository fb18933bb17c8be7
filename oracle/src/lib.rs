//! The oracle: the reference interpreter of the IR ([`interp`]), which is the
//! specification every compiled program is judged against, and the
//! expected-outputs files of the corpus ([`expected`]).

pub mod expected;
pub mod interp;

pub use interp::{run, InterpConfig, InterpError, Outputs};
