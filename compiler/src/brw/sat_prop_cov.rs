//! The decision points of `eu:sat-prop` (`crate::coverage`).
crate::points! {
    /// A float `mov.sat dst, tmp` candidate was examined.
    CANDIDATE = "eu:sat-prop/candidate/mov-sat",
    /// A `mov.sat` of an integer type: `.sat` on the producer would turn
    /// its wrapping into clamping.
    REFUSE_INT_TYPE = "eu:sat-prop/refuse/integer-type",
    /// A converting `mov.sat` (source and destination types differ).
    REFUSE_CONVERTING = "eu:sat-prop/refuse/converting-mov",
    /// A `mov.sat` with `(abs)` on its source.
    REFUSE_ABS = "eu:sat-prop/refuse/abs-source",
    /// A `mov.sat` whose operands are not GRFs inside vgrfs.
    REFUSE_NOT_VGRF = "eu:sat-prop/refuse/not-vgrf",
    /// The producer is the last writer of `tmp` in the MOV's block.
    PRODUCER_LOCAL = "eu:sat-prop/producer/same-block",
    /// No writer of `tmp` before the MOV in its block: the producer is
    /// `tmp`'s only writer in the program (another block) and the MOV its
    /// only reader.
    PRODUCER_SINGLE_DEF = "eu:sat-prop/producer/single-def",
    /// An instruction between producer and MOV reads `tmp` and is not an
    /// identical `mov.sat` (7f8dd91d166).
    REFUSE_READ_BETWEEN = "eu:sat-prop/refuse/read-between",
    /// No writer of `tmp` before the MOV in its block, and no single writer
    /// in the program whose only reader is the MOV.
    REFUSE_NO_SINGLE_PRODUCER = "eu:sat-prop/refuse/no-single-producer",
    /// The producer is predicated (and not a predicated SEL).
    REFUSE_PREDICATED = "eu:sat-prop/refuse/predicated",
    /// The producer's exec size differs from the MOV's (0778748ebad).
    REFUSE_EXEC_SIZE = "eu:sat-prop/refuse/exec-size",
    /// The producer's group or NoMask differs from the MOV's.
    REFUSE_GROUP_NOMASK = "eu:sat-prop/refuse/group-or-nomask",
    /// The producer is a SEND (or writes no ALU destination).
    REFUSE_SEND = "eu:sat-prop/refuse/producer-send",
    /// The producer writes other elements than the MOV reads (offsets or
    /// stride).
    REFUSE_ELEMENTS = "eu:sat-prop/refuse/elements",
    /// The producer's destination type has another size than the MOV's.
    REFUSE_TYPE_SIZE = "eu:sat-prop/refuse/type-size",
    /// The producer writes flags, which would be computed from the
    /// saturated value (3d8fea0e092).
    REFUSE_WRITES_FLAG = "eu:sat-prop/refuse/producer-writes-flag",
    /// The producer's opcode cannot saturate a float result.
    REFUSE_NO_SAT = "eu:sat-prop/refuse/producer-cannot-saturate",
    /// The producer has another type and is not a raw MOV/SEL that could
    /// be retyped (35a2d259f27).
    REFUSE_PRODUCER_TYPE = "eu:sat-prop/refuse/producer-type",
    /// The producer already saturates, but in another type or the MOV
    /// negates.
    REFUSE_SATURATED_DIFFERENTLY = "eu:sat-prop/refuse/producer-saturates-differently",
    /// `tmp` is read after the MOV (and the MOV does not write it in
    /// place).
    REFUSE_READ_AFTER = "eu:sat-prop/refuse/read-after",
    /// The MOV negates and the producer cannot take the negation (only
    /// MUL, MAD, ADD of negatable operands).
    REFUSE_NEGATION = "eu:sat-prop/refuse/negation",
    /// The saturated producer or the plain MOV would be invalid.
    REFUSE_INVALID = "eu:sat-prop/refuse/invalid-result",
    /// The producer already saturates in the MOV's type: the MOV's `.sat`
    /// was dropped.
    DROP_REDUNDANT = "eu:sat-prop/drop-redundant-sat",
    /// The saturate moved into the producer.
    FOLD = "eu:sat-prop/move-sat-into-producer",
    /// ... retyping a raw MOV/SEL producer to the MOV's type.
    FOLD_RETYPED = "eu:sat-prop/move-sat-into-producer/retyped",
    /// ... pushing the MOV's source negation into the producer's sources.
    FOLD_NEGATED = "eu:sat-prop/move-sat-into-producer/negation-pushed",
}
