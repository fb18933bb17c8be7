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
    /// A derivative was replaced by a dominating identical one, whatever
    /// execution mask each ran under (seed 004's uniform-control argument).
    MERGE_UNIFORM_CONTROL = "ir:cse/merge/uniform-control",
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
    /// A quad op identical to a dominating one was kept: convergent ops are
    /// not merged across execution masks (seed 004).
    REFUSE_CONVERGENT = "ir:cse/refuse/convergent",
}
