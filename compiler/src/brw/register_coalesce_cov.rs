//! The decision points of `eu:register-coalesce` (`crate::coverage`).
crate::points! {}
