//! shaderfarm's build tasks (`cargo xtask`), as a library for their tests
//! and the farm's: the profile-guided build ([`pgo`]) and the comparison
//! of two runs of one campaign ([`compare`]).

pub mod compare;
pub mod pgo;
