//! The decision points of `ir:copy-prop` (`crate::coverage`).
crate::points! {
    /// A trivial phi (every source one value, or the phi itself) was
    /// replaced by that value.
    PHI_TRIVIAL = "ir:copy-prop/phi/trivial",
    /// ... a loop-header phi that only feeds itself back.
    PHI_TRIVIAL_SELF = "ir:copy-prop/phi/trivial/self-feeding",
    /// A phi whose sources are all one value was kept: that value's
    /// definition does not strictly dominate the phi's block.
    REFUSE_PHI_NOT_DOMINATING = "ir:copy-prop/refuse/phi-source-not-dominating",
    /// An `i2i`/`u2u` to its source's own size was replaced by the source.
    COPY_SAME_SIZE_CONVERSION = "ir:copy-prop/copy/same-size-conversion",
    /// A `bcsel c, x, x` was replaced by x.
    COPY_BCSEL_SAME = "ir:copy-prop/copy/bcsel-same-values",
    /// An `iand x, x` was replaced by x.
    COPY_IAND_SELF = "ir:copy-prop/copy/iand-self",
    /// An `ior x, x` was replaced by x.
    COPY_IOR_SELF = "ir:copy-prop/copy/ior-self",
    /// An `fneg (fneg x)` was replaced by x.
    COPY_FNEG_FNEG = "ir:copy-prop/copy/fneg-fneg",
    /// An `f2f` to its source's own size was kept: it canonicalizes NaNs.
    REFUSE_F2F_SAME_SIZE = "ir:copy-prop/refuse/f2f-canonicalizes-nan",
}
