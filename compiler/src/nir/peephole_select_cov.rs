//! The decision points of `ir:peephole-select` (`crate::coverage`).
crate::points! {}
