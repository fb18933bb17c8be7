//! The decision points of `ir:copy-prop` (`crate::coverage`).
crate::points! {}
