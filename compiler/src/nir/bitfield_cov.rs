//! The decision points of `ir:bitfield` (`crate::coverage`).
crate::points! {
    /// Native: `iand(ushr(x, o), 2^w - 1)` became `ubfe(x, o, w)`.
    NATIVE_UBFE_MASKED_SHIFT = "ir:bitfield/native/ubfe-from-masked-shift",
    /// Native: `ushr(ishl(x, a), b)` became `ubfe(x, b - a, 32 - b)`.
    NATIVE_UBFE_SHIFT_PAIR = "ir:bitfield/native/ubfe-from-shift-pair",
    /// Native: `ishr(ishl(x, a), b)` became `ibfe(x, b - a, 32 - b)`.
    NATIVE_IBFE_SHIFT_PAIR = "ir:bitfield/native/ibfe-from-shift-pair",
    /// Native: `ior(iand(ishl(x, o), m), iand(y, ~m))` with `o = ctz(m)`
    /// became `bfi(m, x, y)`.
    NATIVE_BFI_SHIFTED = "ir:bitfield/native/bfi-from-masked-or/shifted-field",
    /// Native: `ior(iand(x, m), iand(y, ~m))` with odd `m` became
    /// `bfi(m, x, y)`.
    NATIVE_BFI_ODD_MASK = "ir:bitfield/native/bfi-from-masked-or/odd-mask",
    /// Native: `bitfield_insert` with constant, defined offset and bits
    /// became `bfi` of the constant mask.
    NATIVE_BFI_INSERT = "ir:bitfield/native/bfi-from-bitfield-insert",
    /// ... with bits = 32 (the all-ones mask).
    NATIVE_BFI_INSERT_FULL = "ir:bitfield/native/bfi-from-bitfield-insert/full-width",
    /// ... with bits = 0 (the empty mask: the result is the base).
    NATIVE_BFI_INSERT_EMPTY = "ir:bitfield/native/bfi-from-bitfield-insert/empty-field",
    /// Native: `ishl(isub(ishl(1, b), 1), o)` became `bfm(b, o)`.
    NATIVE_BFM_SHIFTED_MASK = "ir:bitfield/native/bfm-from-shifted-mask",
    /// Native: `ior(iand(ishl(x, o), m), iand(y, inot(m)))` with
    /// `m = bfm(b, o)` became `bfi(m, x, y)`.
    NATIVE_BFI_BFM_MASK = "ir:bitfield/native/bfi-from-masked-or/bfm-mask",
    /// Native: that shape, but the field is shifted by another value than
    /// the mask's offset.
    NATIVE_REFUSE_BFM_OFFSET = "ir:bitfield/native/refuse/bfm-offset-differs",
    /// Native: `iand(ushr(x, o), #c)` kept: `c` is not a mask of 1 to 31
    /// low bits.
    NATIVE_REFUSE_NOT_LOW_MASK = "ir:bitfield/native/refuse/not-low-mask",
    /// Native: `ushr/ishr(ishl(x, #a), #b)` kept: `a > b` or `b = 0` (mod
    /// 32).
    NATIVE_REFUSE_SHIFT_COUNTS = "ir:bitfield/native/refuse/shift-counts",
    /// Native: `ior(iand(_, #m), iand(_, #n))` kept: `m = 0` or `n != ~m`.
    NATIVE_REFUSE_MASKS = "ir:bitfield/native/refuse/masks-not-complementary",
    /// Native: complementary masks, but the field is neither shifted by
    /// `ctz(m)` nor unshifted with an odd `m`.
    NATIVE_REFUSE_FIELD_SHIFT = "ir:bitfield/native/refuse/field-shift",
    /// Native: `bitfield_insert` kept: its offset or bits is not a constant.
    NATIVE_REFUSE_INSERT_VARIABLE = "ir:bitfield/native/refuse/insert-variable-operands",
    /// Native: `bitfield_insert` kept: constant offset and bits outside its
    /// defined range (negative, or offset + bits > 32).
    NATIVE_REFUSE_INSERT_UNDEFINED = "ir:bitfield/native/refuse/insert-undefined-operands",
    /// Expand: a GLSL `[iu]bitfield_extract` became shifts and a select.
    EXPAND_BITFIELD_EXTRACT = "ir:bitfield/expand/bitfield-extract",
    /// Expand: `bfm` became shifts and a subtraction.
    EXPAND_BFM = "ir:bitfield/expand/bfm",
    /// Expand: `bfi` became shifts and masks.
    EXPAND_BFI = "ir:bitfield/expand/bfi",
    /// Expand: `ubfe` became shifts and masks.
    EXPAND_UBFE = "ir:bitfield/expand/ubfe",
    /// Expand: `ibfe` became shifts and masks.
    EXPAND_IBFE = "ir:bitfield/expand/ibfe",
    /// Expand: `bitfield_insert` became shifts and masks.
    EXPAND_BITFIELD_INSERT = "ir:bitfield/expand/bitfield-insert",
    /// Expand: a `[iu]bfe` expansion got its select for o + w >= 32 (the
    /// field reaches bit 31: `v >> o`), which the injected bug
    /// `bitfield-expand-edge` leaves out.
    EXPAND_BFE_EDGE = "ir:bitfield/expand/bfe-offset-plus-bits-edge",
}
