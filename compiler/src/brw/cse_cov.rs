//! The decision points of `eu:cse` (`crate::coverage`).
crate::points! {}
