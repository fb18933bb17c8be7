//! The decision points of `eu:dce` (`crate::coverage`).
crate::points! {
    /// An instruction whose GRF result and flag result are both dead was
    /// removed.
    REMOVE = "eu:dce/remove-instruction",
    /// ... and it wrote flags (a cmod or a flag destination), all dead.
    REMOVE_FLAG_WRITER = "eu:dce/remove-instruction/flag-writer",
    /// The GRF result is dead but the flag result live: the instruction was
    /// kept for its flag write with a null destination.
    NULL_DST = "eu:dce/keep-for-flag/null-destination",
    /// The flag write (cmod) is dead but the GRF result live: the cmod was
    /// removed.
    REMOVE_CMOD = "eu:dce/remove-flag-write",
    /// A dead flag write kept: the cmod of CMP/CMPN/SEL/CSEL defines the
    /// operation itself.
    REFUSE_CMOD_DEFINES_OP = "eu:dce/refuse/cmod-defines-op",
    /// A SEND kept although the GRF bytes it loads are dead (side effect).
    REFUSE_SEND = "eu:dce/refuse/send-side-effect",
    /// A flag write covering only one byte of a 16-bit flag subregister
    /// kills only that byte; the other half's live bits stay live
    /// (0fec265373f).
    REFUSE_HALF_KILL = "eu:dce/refuse/kill-other-flag-half",
    /// A predicated flag write does not kill the flag: channels whose
    /// predicate is false keep their bits (c3d7caa1e00).
    REFUSE_PREDICATED_KILL = "eu:dce/refuse/predicated-flag-kill",
}
