//! The decision points of lowering (`crate::coverage`): the choices it
//! makes per strategy and op.
crate::points! {}
