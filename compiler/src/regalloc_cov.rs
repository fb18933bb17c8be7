//! The decision points of register allocation (`crate::coverage`).
crate::points! {}
