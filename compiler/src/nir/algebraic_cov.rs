//! The decision points of `ir:algebraic` (`crate::coverage`).
crate::points! {}
