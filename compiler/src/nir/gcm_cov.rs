//! The decision points of `ir:gcm` (`crate::coverage`).
crate::points! {}
