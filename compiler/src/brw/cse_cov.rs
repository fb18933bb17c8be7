//! The decision points of `eu:cse` (`crate::coverage`).
crate::points! {
    /// An instruction with a GRF result was examined.
    CANDIDATE_VALUE = "eu:cse/candidate/value",
    /// A flag-only writer (null destination, cmod) was examined.
    CANDIDATE_FLAG_ONLY = "eu:cse/candidate/flag-only",
    /// J writes the same destination as the identical E: deleted.
    MERGE_DELETE_SAME_DST = "eu:cse/merge/delete-same-destination",
    /// J only writes the flag E already wrote: deleted (seed 001).
    MERGE_DELETE_FLAG_ONLY = "eu:cse/merge/delete-flag-only",
    /// J became a MOV from E's destination.
    MERGE_COPY = "eu:cse/merge/copy",
    /// ... J was a predicated SEL: the MOV is unpredicated.
    MERGE_COPY_SEL = "eu:cse/merge/copy/sel-unpredicated",
    /// A merge that matched E's sources in the other order (commutative
    /// operation, MAD's multiplicands).
    MERGE_COMMUTED = "eu:cse/merge/commuted",
    /// A float MUL equal to −E became `mul dst, -E, 1.0`.
    MERGE_NEGATED_MUL = "eu:cse/merge/negated-mul",
    /// An identical E whose result is not read after J: a copy would
    /// stretch its live range (no spilling).
    REFUSE_DEAD = "eu:cse/refuse/would-extend-live-range",
    /// No region of E's destination makes a valid MOV in J's place.
    REFUSE_COPY_INVALID = "eu:cse/refuse/copy-invalid",
    /// A negated MUL match whose E is not read after J.
    REFUSE_NEG_DEAD = "eu:cse/refuse/negated-mul/would-extend-live-range",
    /// A negated DF MUL match: no 64-bit immediate 1.0 in a 2-source
    /// instruction.
    REFUSE_NEG_DF = "eu:cse/refuse/negated-mul/df",
    /// No region of E's destination makes a valid `mul -E, 1.0`.
    REFUSE_NEG_INVALID = "eu:cse/refuse/negated-mul/invalid",
    /// A negated MUL match with `.sat`: sat(−x) ≠ −sat(x) (1567da1e282).
    REFUSE_NEG_SAT = "eu:cse/refuse/negated-mul/saturate",
    /// An identical E earlier in the block was forgotten: one of its source
    /// bytes was overwritten in between.
    REFUSE_SOURCE_OVERWRITTEN = "eu:cse/refuse/source-overwritten",
    /// An identical E was forgotten: its destination was overwritten in
    /// between.
    REFUSE_DEST_OVERWRITTEN = "eu:cse/refuse/destination-overwritten",
    /// An identical masked E was forgotten at a NoMask write in between.
    REFUSE_NOMASK_BARRIER = "eu:cse/refuse/nomask-barrier",
    /// An identical E, but a flag byte it reads or writes was rewritten
    /// since (or J reads the flag E writes).
    REFUSE_FLAG_CHANGED = "eu:cse/refuse/flag-changed",
    /// E has J's opcode and sources but another math function.
    REFUSE_DIFF_MATH = "eu:cse/refuse/differs/math-function",
    /// ... another exec size or group.
    REFUSE_DIFF_EXEC = "eu:cse/refuse/differs/exec-size-or-group",
    /// ... another NoMask.
    REFUSE_DIFF_NOMASK = "eu:cse/refuse/differs/nomask",
    /// ... another predicate.
    REFUSE_DIFF_PRED = "eu:cse/refuse/differs/predicate",
    /// ... another cmod.
    REFUSE_DIFF_CMOD = "eu:cse/refuse/differs/cmod",
    /// ... another flag register.
    REFUSE_DIFF_FLAG = "eu:cse/refuse/differs/flag-register",
    /// ... another saturate.
    REFUSE_DIFF_SAT = "eu:cse/refuse/differs/saturate",
    /// ... another destination type.
    REFUSE_DIFF_TYPE = "eu:cse/refuse/differs/destination-type",
    /// ... other source modifiers (not a float negated-MUL match).
    REFUSE_DIFF_SRC_MODS = "eu:cse/refuse/differs/source-modifiers",
}
