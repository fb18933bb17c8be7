//! The oracle: the reference interpreter of the IR ([`interp`]), which is the
//! specification every compiled program is judged against; the differential
//! check of one case under one compile config ([`check`]); and the
//! expected-outputs files of the corpus ([`expected`]).

pub mod check;
pub mod expected;
pub mod interp;
pub mod localize;
pub mod session;

pub use check::{check, Budget, Config, LaneDiff, Verdict};
pub use interp::{run, InterpConfig, InterpError, Outputs};
pub use localize::{localize, Step, Trail};
pub use session::{Capture, CompileFailure, Session, StageProgram, StageRecord};
