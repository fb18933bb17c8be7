//! The decision points of `eu:copy-prop` (`crate::coverage`).
crate::points! {}
