//! The decision points of `eu:dce` (`crate::coverage`).
crate::points! {}
