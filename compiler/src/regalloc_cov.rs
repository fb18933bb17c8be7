//! The decision points of register allocation (`crate::coverage`). Events
//! inside per-vgrf loops are recorded once per allocation (or per scan).
crate::points! {
    /// A value live into a block (and possibly defined there) had its interval extended to the block's start (a back edge, in linear order).
    EXTEND_BLOCK_ENTRY = "regalloc/interval/extended-to-block-entry",
    /// A value live out of a block (and possibly defined) had its interval extended to the block's end.
    EXTEND_BLOCK_EXIT = "regalloc/interval/extended-to-block-exit",
    /// A loop-carried value (live and possibly defined at the loop's start) was extended over the whole loop.
    LOOP_CARRIED = "regalloc/interval/loop-carried",
    /// A value defined in a loop and live after its WHILE was extended over the whole loop (channels that left early keep it).
    LOOP_LIVE_AFTER = "regalloc/interval/loop-live-after",
    /// A vgrf no instruction touches got no register.
    UNTOUCHED = "regalloc/vgrf/untouched-no-register",
    /// The first-fit scan (lowest free run) allocated every vgrf.
    FIRST_FIT = "regalloc/scan/first-fit",
    /// First fit failed (fragmentation); placing multi-GRF vgrfs from the top of the file succeeded.
    TOP_DOWN = "regalloc/scan/top-down-fallback",
    /// A multi-GRF vgrf (SIMD16/32 dwords, qwords) got consecutive registers.
    MULTI_GRF = "regalloc/scan/multi-grf-consecutive",
    /// A register was reused after the interval of its previous vgrf ended.
    REUSED = "regalloc/scan/register-reused",
    /// A vgrf larger than the free register file: that scan failed.
    VGRF_TOO_LARGE = "regalloc/scan/vgrf-exceeds-file",
    /// Both scans failed and a live vgrf was spilled to scratch (brw's spill_reg); allocation runs again.
    SPILLED = "regalloc/spill/vgrf-spilled",
    /// A read of a spilled vgrf got a NoMask fill into a temporary just before it.
    FILL = "regalloc/spill/fill-before-read",
    /// A write of a spilled vgrf was spilled channel by channel (packed dwords, the message's channels).
    SPILL_PER_CHANNEL = "regalloc/spill/per-channel",
    /// A write was spilled NoMask after a fill of its temporary (a partial write, or channels that are not the message's).
    SPILL_READ_MODIFY_WRITE = "regalloc/spill/read-modify-write",
    /// A NoMask write of whole registers was spilled NoMask without a fill.
    SPILL_NOMASK_WHOLE = "regalloc/spill/nomask-whole-write",
    /// Both scans failed and no live vgrf can be spilled (spill temporaries, one-instruction intervals).
    NOTHING_TO_SPILL = "regalloc/spill/nothing-to-spill",
    /// Both scans failed with more registers live at one instruction than are free: a compiler limit.
    LIMIT_PRESSURE = "regalloc/compiler-limit/pressure",
    /// Both scans failed although the worst instruction fits: a compiler limit (fragmented).
    LIMIT_FRAGMENTED = "regalloc/compiler-limit/fragmented",
    /// An operand in the thread payload (g0, g1, uniforms) kept its fixed register (once per allocation).
    PAYLOAD_OPERAND = "regalloc/operand/payload-fixed",
    /// An operand spans two vgrfs: invalid EU code.
    INVALID_CROSSES = "regalloc/invalid/operand-crosses-vgrf",
    /// An instruction names a register outside every vgrf: invalid EU code.
    INVALID_OUTSIDE = "regalloc/invalid/register-outside-vgrfs",
}
