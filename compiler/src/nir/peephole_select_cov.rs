//! The decision points of `ir:peephole-select` (`crate::coverage`).
crate::points! {
    /// An `if` became straight-line code, its join phis `bcsel`s.
    CONVERT_SELECTS = "ir:peephole-select/convert/selects",
    /// An `if` without join phis became straight-line code.
    CONVERT_NO_PHIS = "ir:peephole-select/convert/no-phis",
    /// An arm is not a single block (a nested `if` or loop that stayed).
    REFUSE_CONTROL_FLOW = "ir:peephole-select/refuse/arm-control-flow",
    /// An arm's block has phis.
    REFUSE_PHIS = "ir:peephole-select/refuse/arm-phis",
    /// An arm ends with a `break` or `continue`.
    REFUSE_JUMP = "ir:peephole-select/refuse/arm-jump",
    /// An arm has more than `LIMIT` (8) instructions.
    REFUSE_TOO_MANY = "ir:peephole-select/refuse/too-many-instructions",
    /// An arm has an instruction with a side effect (`store_output`).
    REFUSE_SIDE_EFFECT = "ir:peephole-select/refuse/side-effect",
    /// An arm has a subgroup op, whose value depends on the active lanes.
    REFUSE_CROSS_INVOCATION = "ir:peephole-select/refuse/cross-invocation",
    /// An arm has a quad op: a lane newly running it could read one that is
    /// not active (seed 004: convergent; NIR never whitelists quad ops).
    REFUSE_CONVERGENT = "ir:peephole-select/refuse/convergent",
    /// An arm has a derivative: running it on the lanes of the other arm
    /// could put it in non-uniform control flow (seed 004: uniform-control).
    REFUSE_UNIFORM_CONTROL = "ir:peephole-select/refuse/uniform-control",
    /// An arm has an op that reads the invocation's state
    /// (`is_helper_invocation`: whether it ran `demote`).
    REFUSE_INVOCATION_STATE = "ir:peephole-select/refuse/invocation-state",
    /// An arm has an op that may be undefined (`idiv`, `f2i`,
    /// `bitfield_insert`, ...).
    REFUSE_UNDEFINED = "ir:peephole-select/refuse/may-be-undefined",
}
