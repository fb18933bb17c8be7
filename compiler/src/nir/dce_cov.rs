//! The decision points of `ir:dce` (`crate::coverage`).
crate::points! {
    /// An unused side-effect-free instruction was removed.
    REMOVE_INSTR = "ir:dce/remove/instr",
    /// ... an unused subgroup op (no side effects: NIR's `CAN_ELIMINATE`).
    REMOVE_CROSS_INVOCATION = "ir:dce/remove/instr/cross-invocation",
    /// ... an unused op that may be undefined (a program executing it is
    /// invalid whether or not it is kept).
    REMOVE_UNDEFINED = "ir:dce/remove/instr/may-be-undefined",
    /// An unused phi (or one only feeding dead phis around a loop) was
    /// removed.
    REMOVE_PHI = "ir:dce/remove/phi",
    /// An instruction with a side effect (`store_output`) was kept, and its
    /// sources are live.
    KEEP_SIDE_EFFECT = "ir:dce/keep/side-effect",
}
