//! The decision points of `ir:const-fold` (`crate::coverage`).
crate::points! {}
