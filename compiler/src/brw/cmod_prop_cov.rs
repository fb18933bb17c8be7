//! The decision points of `eu:cmod-prop` (`crate::coverage`).
crate::points! {
    /// A `cmp.cmod null x, 0` consumer was examined.
    CONSUMER_CMP_ZERO = "eu:cmod-prop/consumer/cmp-zero",
    /// A `cmp.cmod null a, b` float consumer (the CMP→ADD path) was examined.
    CONSUMER_CMP_FLOAT = "eu:cmod-prop/consumer/cmp-float",
    /// A `mov.cmod null x` consumer was examined.
    CONSUMER_MOV = "eu:cmod-prop/consumer/mov",
    /// An `and.nz null x, 1` consumer was examined.
    CONSUMER_AND_ONE = "eu:cmod-prop/consumer/and-one",
    /// A `not.z/.nz null x` consumer was examined.
    CONSUMER_NOT = "eu:cmod-prop/consumer/not",
    /// No producer in the block, or a flag write in between.
    REFUSE_NO_PRODUCER = "eu:cmod-prop/refuse/no-producer",
    /// The producer is predicated or differs in exec size, group, NoMask or destination.
    REFUSE_SHAPE = "eu:cmod-prop/refuse/shape",
    /// The producer writes other flag bits.
    REFUSE_FLAGS = "eu:cmod-prop/refuse/flags",
    /// The consumer was redundant after a CMP producer and was deleted.
    CMP_PRODUCER_DELETE = "eu:cmod-prop/cmp-producer/delete",
    /// A CMP producer, but the consumer's flag is not its relation.
    REFUSE_CMP_RELATION = "eu:cmod-prop/refuse/cmp-relation",
    /// An `and.nz x, 1` whose producer is not a CMP.
    REFUSE_AND_NOT_CMP = "eu:cmod-prop/refuse/and-not-cmp",
    /// The consumer reads other bytes than the producer wrote.
    REFUSE_OFFSETS = "eu:cmod-prop/refuse/offsets",
    /// The producer is an integer MUL.
    REFUSE_INT_MUL = "eu:cmod-prop/refuse/int-mul",
    /// The producer cannot take a flag-writing cmod.
    REFUSE_NO_CMOD = "eu:cmod-prop/refuse/no-cmod",
    /// The flag is read between producer and consumer.
    REFUSE_FLAG_READ = "eu:cmod-prop/refuse/flag-read-between",
    /// The consumer's types do not test the producer's value.
    REFUSE_TYPES = "eu:cmod-prop/refuse/types",
    /// The producer already wrote the same cmod: the consumer was deleted.
    DELETE_ALREADY_SET = "eu:cmod-prop/delete-already-set",
    /// The cmod was folded into the producer.
    FOLD = "eu:cmod-prop/fold-into-producer",
    /// ... into a saturating producer.
    FOLD_SAT = "eu:cmod-prop/fold-into-producer/sat",
    /// ... with the condition swapped for a negated source.
    FOLD_SWAPPED = "eu:cmod-prop/fold-into-producer/swapped",
    /// ... with the flag subregister moved.
    FOLD_FLAG_MOVED = "eu:cmod-prop/fold-into-producer/flag-moved",
    /// The folded producer would be an invalid instruction.
    REFUSE_INVALID = "eu:cmod-prop/refuse/invalid-result",
    /// A float CMP folded into the ADD computing a − b.
    CMP_TO_ADD = "eu:cmod-prop/cmp-to-add/fold",
    /// ... into a saturated ADD.
    CMP_TO_ADD_SAT = "eu:cmod-prop/cmp-to-add/fold/sat",
    /// A matching ADD, but an operand is written after it.
    CMP_TO_ADD_REFUSE_WRITTEN = "eu:cmod-prop/cmp-to-add/refuse/operand-written",
    /// ... and the ADD is saturated. The refusals taken before the
    /// saturate check record the ADD's saturate, so coverage (and the
    /// feedback's focus on it) can tell the cases that carry it from those
    /// that do not.
    CMP_TO_ADD_REFUSE_WRITTEN_SAT = "eu:cmod-prop/cmp-to-add/refuse/operand-written-saturated",
    /// A matching ADD, but the condition is not safe for infinities.
    CMP_TO_ADD_REFUSE_INF = "eu:cmod-prop/cmp-to-add/refuse/infinity",
    /// ... and the ADD is saturated.
    CMP_TO_ADD_REFUSE_INF_SAT = "eu:cmod-prop/cmp-to-add/refuse/infinity-saturated",
    /// A matching saturated ADD, but the condition is not `.g`.
    CMP_TO_ADD_REFUSE_SAT = "eu:cmod-prop/cmp-to-add/refuse/saturate",
    /// A matching ADD that cannot take the cmod (or has another one).
    CMP_TO_ADD_REFUSE_CMOD = "eu:cmod-prop/cmp-to-add/refuse/cmod",
    /// NOT of booleans folded (inverted) into the OR/AND that made them.
    NOT_INTO_LOGIC = "eu:cmod-prop/not/into-logic",
    /// NOT whose OR/AND producer is not provably boolean or cannot take the cmod.
    NOT_REFUSE_LOGIC = "eu:cmod-prop/not/refuse/logic",
    /// `not.z` of a CMP result: the consumer was deleted.
    NOT_CMP_DELETE = "eu:cmod-prop/not/cmp-delete",
    /// `not.nz` of a CMP result: the CMP's relation was inverted.
    NOT_CMP_INVERT = "eu:cmod-prop/not/cmp-invert",
    /// `not.nz` of a CMP whose result is read elsewhere.
    NOT_REFUSE_READ = "eu:cmod-prop/not/refuse/result-read",
    /// `not.nz` of an ordered float compare (not NaN-safe).
    NOT_REFUSE_FLOAT = "eu:cmod-prop/not/refuse/float-ordered",
}
