//! The decision points of `ir:algebraic` (`crate::coverage`): one per rule of
//! [`super::RULES`] (`rule/<name>`, reached when the rule rewrites an
//! instruction) and the reasons a matched rule was not applied.
crate::points! {
    /// `iadd(a, 0)` -> `a`.
    RULE_IADD_ZERO = "ir:algebraic/rule/iadd-zero",
    /// `isub(a, 0)` -> `a`.
    RULE_ISUB_ZERO = "ir:algebraic/rule/isub-zero",
    /// `isub(a, a)` -> `0`.
    RULE_ISUB_SELF = "ir:algebraic/rule/isub-self",
    /// `isub(0, a)` -> `ineg(a)`.
    RULE_ISUB_FROM_ZERO = "ir:algebraic/rule/isub-from-zero",
    /// `iadd(a, ineg(b))` -> `isub(a, b)`.
    RULE_IADD_INEG = "ir:algebraic/rule/iadd-ineg",
    /// `isub(a, ineg(b))` -> `iadd(a, b)`.
    RULE_ISUB_INEG = "ir:algebraic/rule/isub-ineg",
    /// `ineg(isub(a, b))` -> `isub(b, a)`.
    RULE_INEG_ISUB = "ir:algebraic/rule/ineg-isub",
    /// `ineg(ineg(a))` -> `a`.
    RULE_INEG_INEG = "ir:algebraic/rule/ineg-ineg",
    /// `imul(a, 1)` -> `a`.
    RULE_IMUL_ONE = "ir:algebraic/rule/imul-one",
    /// `imul(a, 0)` -> `0`.
    RULE_IMUL_ZERO = "ir:algebraic/rule/imul-zero",
    /// `imul(a, -1)` -> `ineg(a)`.
    RULE_IMUL_MINUS_ONE = "ir:algebraic/rule/imul-minus-one",
    /// `iabs(iabs(a))` -> `iabs(a)`.
    RULE_IABS_IABS = "ir:algebraic/rule/iabs-iabs",
    /// `iabs(ineg(a))` -> `iabs(a)`.
    RULE_IABS_INEG = "ir:algebraic/rule/iabs-ineg",
    /// `imin(a, a)` -> `a`.
    RULE_IMIN_SELF = "ir:algebraic/rule/imin-self",
    /// `imax(a, a)` -> `a`.
    RULE_IMAX_SELF = "ir:algebraic/rule/imax-self",
    /// `umin(a, a)` -> `a`.
    RULE_UMIN_SELF = "ir:algebraic/rule/umin-self",
    /// `umax(a, a)` -> `a`.
    RULE_UMAX_SELF = "ir:algebraic/rule/umax-self",
    /// `umin(a, 0)` -> `0`.
    RULE_UMIN_ZERO = "ir:algebraic/rule/umin-zero",
    /// `umax(a, 0)` -> `a`.
    RULE_UMAX_ZERO = "ir:algebraic/rule/umax-zero",
    /// `umin(a, -1)` -> `a`.
    RULE_UMIN_ONES = "ir:algebraic/rule/umin-ones",
    /// `umax(a, -1)` -> `-1`.
    RULE_UMAX_ONES = "ir:algebraic/rule/umax-ones",
    /// `inot(inot(a))` -> `a`.
    RULE_INOT_INOT = "ir:algebraic/rule/inot-inot",
    /// `iand(a, a)` -> `a`.
    RULE_IAND_SELF = "ir:algebraic/rule/iand-self",
    /// `iand(a, 0)` -> `0`.
    RULE_IAND_ZERO = "ir:algebraic/rule/iand-zero",
    /// `iand(a, -1)` -> `a`.
    RULE_IAND_ONES = "ir:algebraic/rule/iand-ones",
    /// `iand(a, inot(a))` -> `0`.
    RULE_IAND_INOT_SELF = "ir:algebraic/rule/iand-inot-self",
    /// `ior(a, a)` -> `a`.
    RULE_IOR_SELF = "ir:algebraic/rule/ior-self",
    /// `ior(a, 0)` -> `a`.
    RULE_IOR_ZERO = "ir:algebraic/rule/ior-zero",
    /// `ior(a, -1)` -> `-1`.
    RULE_IOR_ONES = "ir:algebraic/rule/ior-ones",
    /// `ior(a, inot(a))` -> `-1`.
    RULE_IOR_INOT_SELF = "ir:algebraic/rule/ior-inot-self",
    /// `ixor(a, a)` -> `0`.
    RULE_IXOR_SELF = "ir:algebraic/rule/ixor-self",
    /// `ixor(a, 0)` -> `a`.
    RULE_IXOR_ZERO = "ir:algebraic/rule/ixor-zero",
    /// `ixor(a, inot(a))` -> `-1`.
    RULE_IXOR_INOT_SELF = "ir:algebraic/rule/ixor-inot-self",
    /// `ishl(a, #s)` -> `a` when the count is a multiple of the width.
    RULE_ISHL_BY_ZERO = "ir:algebraic/rule/ishl-by-zero",
    /// `ishr(a, #s)` -> `a` when the count is a multiple of the width.
    RULE_ISHR_BY_ZERO = "ir:algebraic/rule/ishr-by-zero",
    /// `ushr(a, #s)` -> `a` when the count is a multiple of the width.
    RULE_USHR_BY_ZERO = "ir:algebraic/rule/ushr-by-zero",
    /// `ishl(0, a)` -> `0`.
    RULE_ISHL_OF_ZERO = "ir:algebraic/rule/ishl-of-zero",
    /// `ishr(0, a)` -> `0`.
    RULE_ISHR_OF_ZERO = "ir:algebraic/rule/ishr-of-zero",
    /// `ushr(0, a)` -> `0`.
    RULE_USHR_OF_ZERO = "ir:algebraic/rule/ushr-of-zero",
    /// `ishr(-1, a)` -> `-1`.
    RULE_ISHR_OF_ONES = "ir:algebraic/rule/ishr-of-ones",
    /// `iand(ishl(a, s), ishl(b, s))` -> `ishl(iand(a, b), s)`.
    RULE_IAND_ISHL = "ir:algebraic/rule/iand-ishl",
    /// `ior(ishl(a, s), ishl(b, s))` -> `ishl(ior(a, b), s)`.
    RULE_IOR_ISHL = "ir:algebraic/rule/ior-ishl",
    /// `ixor(ishl(a, s), ishl(b, s))` -> `ishl(ixor(a, b), s)`.
    RULE_IXOR_ISHL = "ir:algebraic/rule/ixor-ishl",
    /// `iand(ushr(a, s), ushr(b, s))` -> `ushr(iand(a, b), s)`.
    RULE_IAND_USHR = "ir:algebraic/rule/iand-ushr",
    /// `ieq(a, a)` -> `true`.
    RULE_IEQ_SELF = "ir:algebraic/rule/ieq-self",
    /// `ine(a, a)` -> `false`.
    RULE_INE_SELF = "ir:algebraic/rule/ine-self",
    /// `ilt(a, a)` -> `false`.
    RULE_ILT_SELF = "ir:algebraic/rule/ilt-self",
    /// `ige(a, a)` -> `true`.
    RULE_IGE_SELF = "ir:algebraic/rule/ige-self",
    /// `ult(a, a)` -> `false`.
    RULE_ULT_SELF = "ir:algebraic/rule/ult-self",
    /// `uge(a, a)` -> `true`.
    RULE_UGE_SELF = "ir:algebraic/rule/uge-self",
    /// `ieq(a, true)` -> `a`.
    RULE_IEQ_TRUE = "ir:algebraic/rule/ieq-true",
    /// `ine(a, false)` -> `a`.
    RULE_INE_FALSE = "ir:algebraic/rule/ine-false",
    /// `ieq(a, false)` -> `inot(a)`.
    RULE_IEQ_FALSE = "ir:algebraic/rule/ieq-false",
    /// `ine(a, true)` -> `inot(a)`.
    RULE_INE_TRUE = "ir:algebraic/rule/ine-true",
    /// `i2b(b2i(a))` -> `a`.
    RULE_I2B_B2I = "ir:algebraic/rule/i2b-b2i",
    /// `ine(b2i(a), 0)` -> `a`.
    RULE_INE_B2I_ZERO = "ir:algebraic/rule/ine-b2i-zero",
    /// `ieq(b2i(a), 0)` -> `inot(a)`.
    RULE_IEQ_B2I_ZERO = "ir:algebraic/rule/ieq-b2i-zero",
    /// `iand(t=b2i(a), 1)` -> `t`.
    RULE_IAND_B2I_ONE = "ir:algebraic/rule/iand-b2i-one",
    /// `bcsel(c, a, a)` -> `a`.
    RULE_BCSEL_SAME = "ir:algebraic/rule/bcsel-same",
    /// `bcsel(true, a, b)` -> `a`.
    RULE_BCSEL_TRUE = "ir:algebraic/rule/bcsel-true",
    /// `bcsel(false, a, b)` -> `b`.
    RULE_BCSEL_FALSE = "ir:algebraic/rule/bcsel-false",
    /// `bcsel(inot(c), a, b)` -> `bcsel(c, b, a)`.
    RULE_BCSEL_INOT = "ir:algebraic/rule/bcsel-inot",
    /// `bcsel(c, true, false)` -> `c`.
    RULE_BCSEL_TO_COND = "ir:algebraic/rule/bcsel-to-cond",
    /// `bcsel(c, false, true)` -> `inot(c)`.
    RULE_BCSEL_TO_INOT = "ir:algebraic/rule/bcsel-to-inot",
    /// `u2u(t=u2u(a))` -> `u2u(a)` when the first step widens.
    RULE_U2U_U2U = "ir:algebraic/rule/u2u-u2u",
    /// `i2i(t=i2i(a))` -> `i2i(a)` when the first step widens.
    RULE_I2I_I2I = "ir:algebraic/rule/i2i-i2i",
    /// `fneg(fneg(a))` -> `a`.
    RULE_FNEG_FNEG = "ir:algebraic/rule/fneg-fneg",
    /// `fabs(fneg(a))` -> `fabs(a)`.
    RULE_FABS_FNEG = "ir:algebraic/rule/fabs-fneg",
    /// `fabs(fabs(a))` -> `fabs(a)`.
    RULE_FABS_FABS = "ir:algebraic/rule/fabs-fabs",
    /// `fsat(fsat(a))` -> `fsat(a)`.
    RULE_FSAT_FSAT = "ir:algebraic/rule/fsat-fsat",
    /// `fabs(fsat(a))` -> `fsat(a)`.
    RULE_FABS_FSAT = "ir:algebraic/rule/fabs-fsat",
    /// `fsat(fneg(fabs(a)))` -> `0`.
    RULE_FSAT_FNEG_FABS = "ir:algebraic/rule/fsat-fneg-fabs",
    /// `bfi(0, a, b)` -> `b`.
    RULE_BFI_ZERO_MASK = "ir:algebraic/rule/bfi-zero-mask",
    /// `bfi(-1, a, b)` -> `a`.
    RULE_BFI_FULL_MASK = "ir:algebraic/rule/bfi-full-mask",
    /// `bfi(m, 0, b)` -> `iand(b, inot(m))`.
    RULE_BFI_ZERO_INSERT = "ir:algebraic/rule/bfi-zero-insert",
    /// `iand(bfi(#m, a, #b), #c)` -> `bfi(m, a, iand(b, c))` when `m & ~c == 0`.
    RULE_IAND_BFI_FIELD_KEPT = "ir:algebraic/rule/iand-bfi-field-kept",
    /// `iand(bfi(#m, a, b), #c)` -> `iand(b, c)` when `m & c == 0`.
    RULE_IAND_BFI_OUTSIDE_FIELD = "ir:algebraic/rule/iand-bfi-outside-field",
    /// `ishl/ishr/ushr(a, #s)` matched, but the count is not a multiple of
    /// the width (the shift does something).
    REFUSE_SHIFT_COUNT = "ir:algebraic/refuse/shift-count-not-zero",
    /// `u2u(u2u(a))` or `i2i(i2i(a))` matched, but the first conversion
    /// narrows (it drops bits the second one would keep).
    REFUSE_NARROWING_FIRST = "ir:algebraic/refuse/conversion-narrows-first",
    /// `iand(bfi(#m, a, #b), #c)` matched, but `c` clears part of the field.
    REFUSE_FIELD_NOT_KEPT = "ir:algebraic/refuse/bfi-field-not-kept",
    /// `iand(bfi(#m, a, b), #c)` matched, but `c` keeps some of the field.
    REFUSE_FIELD_NOT_CLEARED = "ir:algebraic/refuse/bfi-field-not-cleared",
    /// A rule matched, but its replacement does not fit the sizes (a matched
    /// value of another size than the result, a boolean constant at a wider
    /// size, operands of different sizes).
    REFUSE_SIZE = "ir:algebraic/refuse/size-mismatch",
    /// The last of the pass's 16 rounds still applied a rule, and the pass
    /// stopped there (the guard against a cycle in the table).
    ROUND_LIMIT = "ir:algebraic/round-limit",
}
