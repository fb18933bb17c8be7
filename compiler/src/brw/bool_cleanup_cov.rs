//! The decision points of `eu:bool-cleanup` (`crate::coverage`).
crate::points! {}
