//! The decision points of `eu:bool-cleanup` (`crate::coverage`).
crate::points! {
    /// A widening MOV `mov X:D|UD, N:W` of a narrow boolean was found.
    CANDIDATE = "eu:bool-cleanup/candidate/widening-mov",
    /// A 16-to-32-bit MOV reading its source as UW (zero extension,
    /// 0xFFFF -> 0x0000FFFF, is not a boolean conversion).
    REFUSE_ZERO_EXTEND = "eu:bool-cleanup/refuse/zero-extend",
    /// ... that is predicated.
    REFUSE_PREDICATED = "eu:bool-cleanup/refuse/predicated",
    /// ... that is NoMask.
    REFUSE_NOMASK = "eu:bool-cleanup/refuse/nomask",
    /// ... with `.sat`, a cmod or source modifiers.
    REFUSE_MODIFIERS = "eu:bool-cleanup/refuse/modifiers",
    /// ... whose destination is not inside one vgrf, is written by another
    /// instruction too, or overlaps the source.
    REFUSE_DST = "eu:bool-cleanup/refuse/destination-not-single-write",
    /// ... whose source is not a narrow boolean (some writer of an element
    /// it reads is no CMP or boolean logic).
    REFUSE_NOT_BOOLEAN = "eu:bool-cleanup/refuse/not-boolean",
    /// N is itself another widening MOV's X: it waits for the next run.
    REFUSE_SOURCE_WIDENED = "eu:bool-cleanup/refuse/source-is-widened",
    /// A reader of X out of N's reach (N overwritten before it, or N not
    /// pinned and the reader in another block).
    REFUSE_OUT_OF_REACH = "eu:bool-cleanup/refuse/reader-out-of-reach",
    /// A SEND (or control flow) reads X.
    REFUSE_READER_SEND = "eu:bool-cleanup/refuse/reader-send",
    /// One source of a reader spans two widened booleans.
    REFUSE_READER_SPANS_TWO = "eu:bool-cleanup/refuse/reader-spans-two",
    /// A reader reads X with a type other than D/UD/W/UW or not at element
    /// boundaries.
    REFUSE_READER_REGION = "eu:bool-cleanup/refuse/reader-region",
    /// A test of X (`mov.c null`/`cmp.c null`) with `.sat` or source
    /// modifiers.
    REFUSE_TEST_MODIFIERS = "eu:bool-cleanup/refuse/test-modifiers",
    /// A relational test of X read as UD (0xFFFFFFFF > 0 but 0xFFFF:W < 0),
    /// or an unordered condition.
    REFUSE_TEST_CONDITION = "eu:bool-cleanup/refuse/test-condition",
    /// A CMP test that is not X against an integer zero.
    REFUSE_CMP_NOT_ZERO = "eu:bool-cleanup/refuse/cmp-not-against-zero",
    /// A full-value MOV of X with `.sat` or `(abs)`.
    REFUSE_FULL_MODIFIERS = "eu:bool-cleanup/refuse/full-value-modifiers",
    /// A full-value MOV of X read as UD into a float or 64-bit destination.
    REFUSE_FULL_UD_WIDE = "eu:bool-cleanup/refuse/full-value-ud-into-wide",
    /// A logic op or SEL of X with `.sat` or a destination other than D/UD.
    REFUSE_COMBINE_SHAPE = "eu:bool-cleanup/refuse/combine-shape",
    /// A logic op or SEL that also reads something other than widened
    /// booleans being rewritten and 0 / ~0 (e.g. a native 32-bit boolean:
    /// the sizes would mix, the seed-000 open question).
    REFUSE_COMBINE_MIXED = "eu:bool-cleanup/refuse/combine-mixed-widths",
    /// A SEL of X with a negated or `(abs)` source.
    REFUSE_COMBINE_SEL_MODIFIER = "eu:bool-cleanup/refuse/combine-sel-modifier",
    /// An arithmetic (or other) reader of X.
    REFUSE_ARITHMETIC = "eu:bool-cleanup/refuse/arithmetic-reader",
    /// No region of N makes the rewritten reader valid.
    REFUSE_READER_INVALID = "eu:bool-cleanup/refuse/reader-invalid",
    /// Every reader of a widening MOV's X was rewritten (DCE removes it).
    BYPASSED = "eu:bool-cleanup/widening-mov-bypassed",
    /// A W/UW read of X's low words now reads N.
    REWRITE_LOW_WORD = "eu:bool-cleanup/rewrite/low-word",
    /// `mov.c null, X` became `mov.c null:W, N`.
    REWRITE_TEST_MOV = "eu:bool-cleanup/rewrite/test-mov",
    /// `cmp.c null, X, 0` became `cmp.c null:W, N, 0:W`.
    REWRITE_TEST_CMP = "eu:bool-cleanup/rewrite/test-cmp",
    /// `mov d, [-]X` became `mov d, [-]N:W` (b2i, b2f, phi copies).
    REWRITE_FULL_VALUE = "eu:bool-cleanup/rewrite/full-value",
    /// An AND/OR/XOR/NOT or predicated SEL of widened booleans done on W.
    REWRITE_COMBINE = "eu:bool-cleanup/rewrite/combine",
    /// `bool-cleanup=mixed`: a combine reading N as W next to operands of
    /// another width, which stay.
    REWRITE_COMBINE_MIXED = "eu:bool-cleanup/rewrite/combine-mixed-widths",
}
