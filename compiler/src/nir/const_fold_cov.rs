//! The decision points of `ir:const-fold` (`crate::coverage`).
crate::points! {
    /// An ALU op on integers, booleans or bits with constant sources became
    /// a `load_const` of its value.
    FOLD_INTEGER = "ir:const-fold/fold/integer",
    /// An ALU op with float sources or a float result (rounding, NaN
    /// canonicalization, conversions) with constant sources became a
    /// `load_const` of its value.
    FOLD_FLOAT = "ir:const-fold/fold/float",
    /// A `bcsel` whose condition alone is a constant true became a copy of
    /// its then value.
    BCSEL_THEN = "ir:const-fold/bcsel-constant-condition/then",
    /// A `bcsel` whose condition alone is a constant false became a copy of
    /// its else value.
    BCSEL_ELSE = "ir:const-fold/bcsel-constant-condition/else",
    /// An ALU op with constant sources whose evaluation is undefined
    /// (division by zero, `f2i` of NaN, ...) was left alone.
    REFUSE_UNDEFINED = "ir:const-fold/refuse/undefined",
    /// A subgroup op with constant sources was left alone: its value
    /// depends on the active lanes (`ballot(true)`).
    REFUSE_CROSS_INVOCATION = "ir:const-fold/refuse/cross-invocation",
}
