//! The decision points of `eu:register-coalesce` (`crate::coverage`).
crate::points! {
    /// A raw `mov x, x` was deleted.
    NOP_MOV_DELETE = "eu:register-coalesce/nop-mov/delete",
    /// A raw `mov.cmod x, x` became `mov.cmod null, x` (its flag write
    /// kept).
    NOP_MOV_FLAG = "eu:register-coalesce/nop-mov/keep-flag-write",
    /// A raw copy from one vgrf (S) into another (D) was examined.
    CANDIDATE = "eu:register-coalesce/candidate/copy",
    /// A GRF-to-GRF MOV that is predicated.
    REFUSE_PREDICATED = "eu:register-coalesce/refuse/predicated",
    /// ... that saturates.
    REFUSE_SAT = "eu:register-coalesce/refuse/saturate",
    /// ... that is NoMask.
    REFUSE_NOMASK = "eu:register-coalesce/refuse/nomask",
    /// ... with source modifiers.
    REFUSE_MODS = "eu:register-coalesce/refuse/source-modifiers",
    /// ... that converts (source and destination types differ).
    REFUSE_TYPE = "eu:register-coalesce/refuse/type-change",
    /// ... with an operand outside the vgrfs (payload).
    REFUSE_NOT_VGRF = "eu:register-coalesce/refuse/not-vgrf",
    /// ... within one vgrf.
    REFUSE_SAME_VGRF = "eu:register-coalesce/refuse/same-vgrf",
    /// ... moving elements to other positions within their registers (not
    /// a whole-register distance; a partial move).
    REFUSE_NOT_WHOLE_REG = "eu:register-coalesce/refuse/not-whole-register-move",
    /// ... whose S, moved by the copy's distance, does not fit in D (size).
    REFUSE_SIZE = "eu:register-coalesce/refuse/source-outside-destination",
    /// Some operand straddles S's boundary: S cannot be renamed as a unit.
    REFUSE_STRADDLED = "eu:register-coalesce/refuse/operand-straddles-source",
    /// The copies from S to D disagree on the distance.
    REFUSE_DISTANCES = "eu:register-coalesce/refuse/copies-disagree",
    /// The copies from S to D sit in several blocks.
    REFUSE_BLOCKS = "eu:register-coalesce/refuse/copies-in-several-blocks",
    /// A byte of S is copied by two different channels.
    REFUSE_CHANNELS = "eu:register-coalesce/refuse/byte-copied-by-two-channels",
    /// The live ranges of an S register and its D register overlap without
    /// nesting.
    REFUSE_NOT_NESTED = "eu:register-coalesce/refuse/interference/ranges-not-nested",
    /// D is written in the ranges' intersection (not by the copies).
    REFUSE_DST_WRITTEN = "eu:register-coalesce/refuse/interference/destination-written",
    /// D is read between a write of S and the copies.
    REFUSE_DST_READ = "eu:register-coalesce/refuse/interference/destination-read",
    /// S is written after the first copy in the intersection.
    REFUSE_SRC_AFTER = "eu:register-coalesce/refuse/interference/source-written-after-copy",
    /// S is written in the intersection in another block than the copies.
    REFUSE_SRC_OTHER_BLOCK =
        "eu:register-coalesce/refuse/interference/source-written-in-other-block",
    /// S is written by a NoMask instruction in the intersection
    /// (76b4255cd80).
    REFUSE_SRC_NOMASK = "eu:register-coalesce/refuse/interference/source-written-nomask",
    /// S is written by a predicated instruction in the intersection.
    REFUSE_SRC_PRED = "eu:register-coalesce/refuse/interference/source-written-predicated",
    /// A write of S in the intersection touches bytes the copies do not
    /// copy in the same channel (a partial or differently shaped write).
    REFUSE_SRC_PARTIAL = "eu:register-coalesce/refuse/interference/source-write-not-copied",
    /// The copies were removed and S renamed to D.
    COALESCE = "eu:register-coalesce/coalesce",
    /// ... several copies at once (e.g. the SIMD16 halves of a SIMD32
    /// value).
    COALESCE_SEVERAL = "eu:register-coalesce/coalesce/several-copies",
    /// ... with S and D live at once (nested ranges: S written just before
    /// the copy, or around a loop).
    COALESCE_NESTED = "eu:register-coalesce/coalesce/nested-ranges",
    /// ... a copy carrying a cmod became `mov.cmod null, D` (e581ddeeeec).
    COALESCE_FLAG_KEPT = "eu:register-coalesce/coalesce/flag-write-kept",
}
