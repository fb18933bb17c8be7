//! The oracle: the reference interpreter of the IR ([`interp`]), which is the
//! specification every compiled program is judged against; the differential
//! check of one case under one compile config ([`check`]); the
//! expected-outputs files of the corpus ([`expected`]); and which outputs a
//! real driver must match, under the relaxations the Vulkan spec allows
//! ([`relax`]).

pub mod check;
pub mod driver;
pub mod expected;
pub mod interp;
pub mod localize;
pub mod probe;
pub mod relax;
pub mod session;

pub use check::{check, Budget, Config, LaneDiff, Verdict};
pub use interp::{run, InterpConfig, InterpError, Outputs};
pub use localize::{localize, Step, Trail};
pub use relax::{
    run_relaxed, Exclusions, FloatControlsScope, FloatGuarantees, Guarantees, Reconvergence,
    RelaxCounts, Relaxation,
};
pub use session::{Capture, CompileFailure, Session, StageProgram, StageRecord};
