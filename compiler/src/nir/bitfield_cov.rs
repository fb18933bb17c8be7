//! The decision points of `ir:bitfield` (`crate::coverage`).
crate::points! {}
