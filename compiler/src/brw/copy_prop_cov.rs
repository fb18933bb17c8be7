//! The decision points of `eu:copy-prop` (`crate::coverage`).
crate::points! {
    /// A GRF copy `mov d, s` (same type, no modifiers) was examined.
    COPY_GRF = "eu:copy-prop/copy/grf",
    /// A float GRF copy with `-`/`(abs)` on its source was examined.
    COPY_GRF_MODS = "eu:copy-prop/copy/grf-with-modifiers",
    /// An immediate copy `mov d, imm` (NoMask allowed) was examined.
    COPY_IMM = "eu:copy-prop/copy/imm",
    /// Not a copy: the MOV is predicated.
    REFUSE_COPY_PREDICATED = "eu:copy-prop/refuse/copy-predicated",
    /// Not a copy: the MOV saturates.
    REFUSE_COPY_SAT = "eu:copy-prop/refuse/copy-saturate",
    /// Not a copy: the MOV writes a flag (cmod).
    REFUSE_COPY_CMOD = "eu:copy-prop/refuse/copy-cmod",
    /// Not a copy: a NoMask MOV of a GRF (only NoMask immediates are
    /// channel-independent).
    REFUSE_COPY_NOMASK = "eu:copy-prop/refuse/copy-nomask-grf",
    /// Not a copy: source modifiers on an integer or immediate source.
    REFUSE_COPY_MODS = "eu:copy-prop/refuse/copy-modifiers",
    /// Not a copy: the MOV converts (source and destination types differ).
    REFUSE_COPY_CONVERTS = "eu:copy-prop/refuse/copy-converts",
    /// Not a copy: the MOV reads a flag register (or null) as data.
    REFUSE_COPY_FLAG_SRC = "eu:copy-prop/refuse/copy-flag-source",
    /// Not a copy: the destination is a flag register or not inside one
    /// vgrf.
    REFUSE_COPY_DST = "eu:copy-prop/refuse/copy-destination-not-vgrf",
    /// Not a copy: another instruction also writes the destination's bytes
    /// (a phi-like vgrf).
    REFUSE_COPY_REWRITTEN = "eu:copy-prop/refuse/copy-destination-rewritten",
    /// Not a copy: source and destination overlap.
    REFUSE_COPY_OVERLAP = "eu:copy-prop/refuse/copy-overlaps-source",
    /// The source is pinned (immediate, never written, or written only by
    /// masked same-shape writers just before in the block): readers
    /// anywhere.
    SCOPE_PINNED = "eu:copy-prop/scope/pinned",
    /// Not pinned: the source is also written after the copy or in another
    /// block; readers only up to its next write in the block.
    SCOPE_WRITTEN_ELSEWHERE = "eu:copy-prop/scope/block/source-written-elsewhere",
    /// Not pinned: a NoMask instruction writes the source (it reaches
    /// channels the copy skips, d4015bcb388).
    SCOPE_NOMASK_WRITER = "eu:copy-prop/scope/block/nomask-writer",
    /// Not pinned: a writer of the source with another exec size, group or
    /// elements than the copy reads.
    SCOPE_WRITER_SHAPE = "eu:copy-prop/scope/block/writer-shape",
    /// A reader of the copy after its source was overwritten in the block.
    REFUSE_SOURCE_OVERWRITTEN = "eu:copy-prop/refuse/source-overwritten",
    /// A reader in another block of a copy whose source is not pinned.
    REFUSE_OTHER_BLOCK = "eu:copy-prop/refuse/unpinned-reader-in-other-block",
    /// A reader earlier in the copy's block (after the source's first write
    /// there): it sees the previous copy, e.g. around a loop.
    REFUSE_READ_BEFORE_COPY = "eu:copy-prop/refuse/reader-before-copy",
    /// A SEND reads the copy (message payload): not rewritten.
    REFUSE_SEND = "eu:copy-prop/refuse/send-payload",
    /// The reader reads the copy with a type of another size.
    REFUSE_TYPE_SIZE = "eu:copy-prop/refuse/type-size",
    /// A copy with modifiers, read with another type (raw bits).
    REFUSE_MODS_TYPE = "eu:copy-prop/refuse/modifiers-type",
    /// A copy with modifiers into a reader that does not apply float
    /// modifiers to values (logic, MATH, ...).
    REFUSE_MODS_READER = "eu:copy-prop/refuse/modifiers-not-allowed",
    /// The reader reads elements the copy did not write (offset, stride,
    /// a partial read).
    REFUSE_ELEMENTS = "eu:copy-prop/refuse/elements-not-copied",
    /// An immediate into a source with modifiers.
    REFUSE_IMM_MODS = "eu:copy-prop/refuse/imm-under-modifier",
    /// An immediate into MATH.
    REFUSE_IMM_MATH = "eu:copy-prop/refuse/imm-into-math",
    /// A 64-bit immediate into anything but a MOV.
    REFUSE_IMM_64 = "eu:copy-prop/refuse/imm-64bit",
    /// An immediate into src0 of a 2-source operation that cannot commute
    /// (nor invert a predicated SEL).
    REFUSE_IMM_SRC0 = "eu:copy-prop/refuse/imm-src0-not-commutative",
    /// An immediate into src0 when src1 already is one.
    REFUSE_IMM_BOTH = "eu:copy-prop/refuse/imm-both-sources",
    /// The validator rejects the immediate there (B/UB, 3-source src1 or
    /// 32-bit, DWord MUL operand, ...).
    REFUSE_IMM_INVALID = "eu:copy-prop/refuse/imm-invalid",
    /// No region of the copy's source passes the validator in the reader.
    REFUSE_REGION = "eu:copy-prop/refuse/region",
    /// A GRF source propagated into an ALU reader.
    PROP_GRF = "eu:copy-prop/propagate/grf",
    /// ... with the copy's float modifiers composed into the reader's.
    PROP_GRF_MODS = "eu:copy-prop/propagate/grf/with-modifiers",
    /// ... read with another type of the same size.
    PROP_GRF_RETYPED = "eu:copy-prop/propagate/grf/retyped",
    /// An immediate propagated.
    PROP_IMM = "eu:copy-prop/propagate/imm",
    /// ... into src1 of a commutative operation by swapping its sources.
    PROP_IMM_COMMUTED = "eu:copy-prop/propagate/imm/commuted",
    /// ... into a predicated SEL by swapping sources and inverting the
    /// predicate.
    PROP_IMM_SEL_INVERTED = "eu:copy-prop/propagate/imm/sel-inverted",
    /// ... read with another type of the same size.
    PROP_IMM_RETYPED = "eu:copy-prop/propagate/imm/retyped",
    /// A propagation into a reader in another block (pinned source).
    PROP_OTHER_BLOCK = "eu:copy-prop/propagate/other-block",
}
