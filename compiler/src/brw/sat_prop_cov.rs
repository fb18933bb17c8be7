//! The decision points of `eu:sat-prop` (`crate::coverage`).
crate::points! {}
