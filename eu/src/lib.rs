//! The EU model (being written).
