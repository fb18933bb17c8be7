//! The decision points of `ir:cse` (`crate::coverage`).
crate::points! {
    /// An ALU op was replaced by a dominating identical one.
    MERGE_ALU = "ir:cse/merge/alu",
    /// A `load_const` was replaced by a dominating identical one.
    MERGE_CONST = "ir:cse/merge/load-const",
    /// A pure I/O op (`load_input`, `load_uniform`, `invocation_id`,
    /// `subgroup_invocation`) was replaced by a dominating identical one.
    MERGE_IO = "ir:cse/merge/io",
    /// A subgroup op was replaced by a dominating identical one (only with
    /// the injected bug `cse-cross-invocation`).
    MERGE_SUBGROUP = "ir:cse/merge/subgroup",
    /// An identical instruction was seen, but none dominates this one
    /// (e.g. the other arm of an `if`).
    REFUSE_NOT_DOMINATING = "ir:cse/refuse/not-dominating",
    /// A dominating instruction has the same op, sources and immediate but
    /// another result size (`u2u` of one value to two sizes; not counted
    /// for `load_const`, where it is just another constant).
    REFUSE_DIFFERING_SIZE = "ir:cse/refuse/differing-size",
    /// A subgroup op identical to a dominating one was kept: the two may
    /// run under different execution masks (seed 004).
    REFUSE_CROSS_INVOCATION = "ir:cse/refuse/cross-invocation",
}
