//! The decision points of `ir:gcm` (`crate::coverage`).
crate::points! {
    /// A loop-invariant instruction was hoisted out of at least one loop.
    HOIST = "ir:gcm/hoist/out-of-loop",
    /// ... out of two or more nested loops at once.
    HOIST_SEVERAL = "ir:gcm/hoist/out-of-loop/several-levels",
    /// ... into the body of an outer loop (it depends on that loop).
    HOIST_INTO_OUTER = "ir:gcm/hoist/out-of-loop/into-outer-loop",
    /// ... an instruction without sources (a constant, an input load), which
    /// goes to the block before its outermost loop.
    HOIST_NO_SOURCES = "ir:gcm/hoist/out-of-loop/no-sources",
    /// An instruction sank toward its uses: into the arm of an `if` that
    /// uses it, or past a branch.
    SINK = "ir:gcm/sink",
    /// ... to a block inside a loop (it was in the same loop).
    SINK_IN_LOOP = "ir:gcm/sink/in-loop",
    /// A subgroup op would sink toward its uses but stays: in a branch it
    /// would run on fewer lanes (seed 004).
    PINNED_WOULD_SINK = "ir:gcm/refuse/pinned-cross-invocation-would-sink",
    /// A speculatable instruction in a loop stayed: a source is defined in
    /// its innermost loop (a phi, a pinned op, a loop-variant value).
    REFUSE_LOOP_VARIANT = "ir:gcm/refuse/loop-variant-source",
    /// A subgroup op with loop-invariant sources stayed in its loop: its
    /// value depends on the lanes active where it runs (seed 004).
    PINNED_CROSS_INVOCATION = "ir:gcm/refuse/pinned-cross-invocation",
    /// A quad op with loop-invariant sources stayed in its loop: a lane
    /// newly running it could read one that is not active (seed 004).
    PINNED_CONVERGENT = "ir:gcm/refuse/pinned-convergent",
    /// A quad op or derivative would sink toward its uses but stays: in a
    /// branch the quad's other lanes would not compute what it reads (seed
    /// 004: convergent and uniform-control ops gain no control dependence).
    PINNED_CONVERGENT_WOULD_SINK = "ir:gcm/refuse/pinned-convergent-would-sink",
    /// A loop-invariant derivative was hoisted out of its loop, into a
    /// uniform block (earlier only: NIR's GCM_INSTR_SCHEDULE_EARLIER_ONLY).
    HOIST_UNIFORM_CONTROL = "ir:gcm/hoist/uniform-control",
    /// A loop-invariant derivative stayed in its loop: the block it would
    /// go to may run on a non-uniform subset of the lanes.
    PINNED_UNIFORM_CONTROL_DIVERGENT = "ir:gcm/refuse/uniform-control-into-divergent-block",
    /// `is_helper_invocation` with no sources stayed in its loop: it reads
    /// whether the invocation has demoted, which may change in the loop.
    PINNED_INVOCATION_STATE = "ir:gcm/refuse/pinned-invocation-state",
    /// An op that may be undefined (`idiv`, `f2i`, ...) with
    /// loop-invariant sources stayed in its loop: running it where the
    /// program did not could make a valid program invalid.
    PINNED_UNDEFINED = "ir:gcm/refuse/pinned-may-be-undefined",
}
