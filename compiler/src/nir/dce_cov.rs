//! The decision points of `ir:dce` (`crate::coverage`).
crate::points! {}
