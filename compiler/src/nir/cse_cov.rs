//! The decision points of `ir:cse` (`crate::coverage`).
crate::points! {}
