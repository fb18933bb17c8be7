//! Re-creations of real miscompiles (EU-MODEL.md §6), switched on with
//! `--inject NAME[,NAME]`. Each is a small, clearly marked change of
//! behaviour inside the pass (or lowering step) it belongs to: the code reads
//! `ctx.bugs.has(Bug::X)` at exactly one decision point. With no bug
//! injected the compiler's output is identical to a build without the
//! machinery. compiler/BUGS.md documents each one with its Mesa reference.

use std::fmt;

macro_rules! bug_table {
    ($( $variant:ident = $name:literal, $pass:literal, $mesa:literal, $doc:literal; )*) => {
        /// An injectable bug.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Bug { $($variant),* }

        /// Every injectable bug: (bug, name, pass, Mesa commit or issue, what goes wrong).
        pub static BUGS: &[BugInfo] = &[
            $( BugInfo { bug: Bug::$variant, name: $name, pass: $pass, mesa: $mesa, doc: $doc } ),*
        ];
    };
}

/// One row of the bug table.
#[derive(Debug)]
pub struct BugInfo {
    /// The bug.
    pub bug: Bug,
    /// Its `--inject` name.
    pub name: &'static str,
    /// The pass (full name) or lowering step it lives in.
    pub pass: &'static str,
    /// The Mesa commit or issue it re-creates.
    pub mesa: &'static str,
    /// What goes wrong.
    pub doc: &'static str,
}

bug_table! {
    CmodPropTypeMismatch = "cmod-prop-type-mismatch", "eu:cmod-prop", "1e128e9b69c, ddd1706ab37, 2dff9a66b62 (fdo 89317, 109404)",
        "propagates a cmod into a producer whose destination type or size differs from the consumer's source";
    CmodPropSaturate = "cmod-prop-saturate", "eu:cmod-prop", "b91ecee04ab, 36abb0c6918 (issue #2610)",
        "folds a compare into a saturated producer with a condition the saturation changes";
    CmodPropInvertNan = "cmod-prop-invert-nan", "eu:cmod-prop", "57344052b6a (issue #11800), c88b52745c7",
        "inverts a float cmod when folding a negated condition, which is not NaN-safe";
    Vec4CmodPropWritemask = "vec4-cmod-prop-writemask", "vec4:cmod-prop", "995d9937103",
        "removes or folds a flag test without checking that the producer writes every flag component the test writes from the same component (writemask and swizzle)";
    Vec4DceFlagReadsX = "vec4-dce-flag-reads-x", "vec4:dce", "seed 002, v1 of the patch (liveness still tracked one flag bit; Francisco Jerez's review)",
        "counts every flag read as a read of component x only, so a null-destination flag write that an IF (reading every component) needs is narrowed to .x";
    Vec4DceNarrowDropsFlag = "vec4-dce-narrow-drops-flag", "vec4:dce", "440c0513406",
        "narrows a flag-writing instruction's writemask to the components whose GRF results are live, dropping the flag bits of components only a predicate reads";
    Vec4CoalesceFlagWriter = "vec4-coalesce-flag-writer", "vec4:register-coalesce", "vec4_instruction::can_reswizzle: `if (writes_flag(devinfo)) return false`",
        "reswizzles a flag-writing producer into the MOV's destination, which moves its flag write to other components";
    Vec4CoalesceDstRead = "vec4-coalesce-dst-read", "vec4:register-coalesce", "vec4_visitor::opt_register_coalesce: no read of the destination between the producers and the MOV",
        "renames producers to the MOV's destination although an instruction between them and the MOV reads the destination, which then sees the new value early";
    CmodPropFlagSubreg = "cmod-prop-flag-subreg", "eu:cmod-prop", "8030cb75c18",
        "ignores the flag subregister: an f0.1/f1.x write is rewritten to the producer's flag";
    DceFlagHalves = "dce-flag-halves", "eu:dce", "0fec265373f",
        "tracks flag liveness per 16-bit subregister: a SIMD8 write to one half kills the other half's live bits";
    DcePredicatedKill = "dce-predicated-kill", "eu:dce", "c3d7caa1e00",
        "treats a predicated flag write as a kill, so an earlier live flag write is removed";
    CopyPropNoMask = "copy-prop-nomask", "eu:copy-prop", "d4015bcb388",
        "propagates a copy past a NoMask overwrite of its source in a divergent loop";
    SatPropTypeChange = "sat-prop-type-change", "eu:sat-prop", "35a2d259f27, 3d8fea0e092",
        "moves .sat into a producer of another type (or one that writes flags)";
    CoalesceDropsCmod = "coalesce-drops-cmod", "eu:register-coalesce", "e581ddeeeec (issue #2820)",
        "deletes a coalesced MOV that carries a cmod, losing its flag write";
    CseNegSat = "cse-neg-sat", "eu:cse", "1567da1e282",
        "merges mul.sat -a,b with mul.sat a,b through negation, but sat(-x) != -sat(x)";
    CseCrossInvocation = "cse-cross-invocation", "ir:cse", "seed 004 (Connor Abbott, 2017)",
        "merges two identical subgroup ops that run under different execution masks";
    NativeNoCanonicalize = "native-no-canonicalize", "lowering (native)", "seed 000 open question; nir_lower_bool_to_bitsize",
        "combines booleans of different widths without converting them to one width";
    Bool16ZeroExtend = "bool16-zero-extend", "lowering (bool16)", "6318808a055, EU-MODEL §4.5",
        "widens a 16-bit boolean by zero-extension (0x0000FFFF) instead of sign-extension";
    Cmp64UpperDword = "cmp64-upper-dword", "lowering (native)", "seed 001 (the 64-bit CMP's garbage upper half)",
        "reads a 64-bit CMP result as a whole qword, upper dword included";
    Shift16Unmasked = "shift16-unmasked", "lowering", "c2a25cf75ca (crucible shift.int16)",
        "omits the explicit count mask on 16-bit shifts; the hardware masks to 5 bits, not 4";
    BitfieldExpandEdge = "bitfield-expand-edge", "ir:bitfield", "seed 003 (Marek Olsak, 2015)",
        "expands ubfe/ibfe without the offset + bits >= 32 case";
    GcmIgnoresPhiSource = "gcm-ignores-phi-source", "ir:gcm", "GCM early scheduling (nir_opt_gcm's gcm_schedule_early_src; the same class as dstogov/ir#153)",
        "schedules an instruction early without its phi sources, hoisting a user of a loop-header phi above the phi (IR that no longer validates)";
    AlgebraicBfiIand = "algebraic-bfi-iand", "ir:algebraic", "f11a4146454 (issue #11695)",
        "rewrites iand(bfi(...)) with a wrong mask constant";
    BoolCleanupNegatedMov = "bool-cleanup-negated-mov", "eu:bool-cleanup", "seed 000 (Iago Toral's boolean clean-up; the class of brw passes that bypass a MOV without its source modifiers)",
        "takes b2i's `mov X:D, -N:W` for a widening MOV, so X's readers get the boolean (-1) instead of 1";
    CseFlagOnlyStale = "cse-flag-only-stale", "eu:cse", "brw opt_cse of null-destination flag writers (seed 001; the flag-write rules of brw_fs_cse)",
        "deletes a null-destination flag write as redundant although the flag was rewritten since the identical earlier one";
    CopyPropModsTypeChange = "copy-prop-mods-type-change", "eu:copy-prop", "brw try_copy_propagate: source modifiers only into a reader of the same type",
        "propagates a copy with a float negate/abs into a reader of another type, which applies the modifier to other bits";
    B2x64UnsignedBool = "b2x64-unsigned-bool", "lowering (bool32)", "brw nir_op_b2i/b2f with a 64-bit destination (the boolean must be read signed)",
        "reads a 32-bit boolean as UD for a 64-bit b2i/b2f, so -(0xFFFFFFFF) converts to -4294967295 instead of 1";
    FlagSpillClobbers = "flag-spill-clobbers", "lowering (flag)", "brw flag-register allocation (a live flag handed to another value without saving it)",
        "when every flag holds a live boolean, gives one of them to a new value without first copying the old one to a GRF";
    SubgroupPrefillMasked = "subgroup-prefill-masked", "lowering", "brw subgroup lowering: scalar helper writes need exec_all() (NoMask)",
        "pre-fills the flag of a vote/ballot with a masked SIMD1 MOV, which does nothing when channel 0 is disabled, so stale flag bits count as lanes";
    RegallocLoopExitLive = "regalloc-loop-exit-live", "regalloc", "brw live intervals of values defined in a loop and live after it (channels that left early keep them while the others iterate)",
        "does not extend a value defined in a loop and read after it over the whole loop, so a register reused inside the loop clobbers it for channels that already left";
    ConstFoldSourceSize = "const-fold-source-size", "ir:const-fold", "nir_constant_expressions: each source evaluated at its own bit size (unsized sources take the destination's)",
        "evaluates a source narrower than the destination at the destination's size, so a widening conversion of a constant zero-extends (i2i64 of -1 gives 4294967295) and f2f of a half reads its bits as a wider float";
    CopyPropLoopPhi = "copy-prop-loop-phi", "ir:copy-prop", "nir_opt_remove_phis: a phi is trivial only if every source (back edges included) is one value",
        "takes a loop-header phi whose sources from outside the loop agree for a copy, ignoring the back-edge value";
    PeepholeSelectCrossInvocation = "peephole-select-cross-invocation", "ir:peephole-select", "nir_opt_peephole_select's block_check_for_allowed_instrs: no intrinsic that depends on the active lanes",
        "speculates a vote, ballot, elect or read_first_invocation out of an if arm, so it runs with the lanes of the other arm active too";
    DceLoopPhiBackEdge = "dce-loop-phi-back-edge", "ir:dce", "nir_opt_dce's loop handling (liveness must flow along loop back edges into phi sources)",
        "lets liveness flow from a live loop-header phi only into its sources from outside the loop, so a value used only around the back edge is removed (IR that no longer validates)";
    RegallocCompressedHazard = "regalloc-compressed-hazard", "regalloc", "brw fs_inst::has_source_and_destination_hazard and the interference brw_fs_reg_allocate.cpp adds for it (live intervals alone let a destination reuse a source that dies at the instruction)",
        "lets a compressed (SIMD16, or SIMD8 64-bit) instruction's destination take the register of a scalar or word source that dies there, so its first pass overwrites what its second pass reads";
    GcmHoistsCrossInvocation = "gcm-hoists-cross-invocation", "ir:gcm", "nir_opt_gcm pinning: instructions that are not CAN_REORDER (subgroup intrinsics) stay in their block",
        "hoists a loop-invariant subgroup op out of its loop, so it runs with the lanes active before the loop instead of those of each iteration";
    GcmSinksCrossInvocation = "gcm-sinks-cross-invocation", "ir:gcm", "nir_opt_gcm late scheduling and pinning: a convergent intrinsic may not be made control-dependent on more values (seed 004)",
        "sinks a subgroup op into the if arm that uses it, so it runs with that arm's lanes active instead of every lane before the if";
    GcmSinksConvergent = "gcm-sinks-convergent", "ir:gcm", "nir_opt_gcm pinning of derivatives (GCM_INSTR_SCHEDULE_EARLIER_ONLY) and of quad intrinsics (not CAN_REORDER); seed 004's convergent attribute",
        "moves derivatives and quad ops like pure ops, so one sinks with its sources into the if arm that uses it, and a lane of a quad the arm splits reads what its neighbour never computed";
    HelperStoreUnpredicated = "helper-store-unpredicated", "lowering", "brw_emit_predicate_on_sample_mask: fragment shader stores are predicated on the live-pixel mask so that helper invocations (demoted lanes) write nothing",
        "emits a store without the live-mask predicate, so a lane that demoted to a helper still writes its outputs";
    Bool8ByteSrc1 = "bool8-byte-src1", "lowering (bool8)", "EU-MODEL §1.6 (Gfx11+: no byte type as src1 of a two-source instruction, brw_eu_validate.c); seed 001 (8-bit booleans clumsy because of the stride requirements)",
        "combines 8-bit booleans with the second operand still a byte, an instruction Gfx11 does not allow (the validator rejects it)";
    SpillFillWithoutNomask = "spill-fill-without-nomask", "regalloc", "brw_fs_reg_allocate.cpp spill_reg: unspills are exec_all because a spilled value's channels need not be the scratch message's dword channels",
        "fills a spilled value read by a non-NoMask instruction with that instruction's execution mask, so the dwords of channels it does not enable stay garbage while enabled lanes read them: the upper GRF of a qword at SIMD8 (lanes 4-7), and in divergent code any value whose lanes are not its dword channels";
    SpillFirstHalfMask = "spill-first-half-mask", "regalloc", "brw_fs_reg_allocate.cpp spill_reg: the scratch messages' builder is the instruction's (ibld.group(width, 0)), keeping its channel group",
        "spills the write of a later channel group (the second SIMD16 half of a SIMD32 dword, the 2Q half of a SIMD16 qword) with channel group 0's execution mask, so in divergent code it keeps the new values of lanes the first half disables and overwrites the spilled values of lanes the instruction disables";
}

impl BugInfo {
    /// The stage localization names for this bug: its pass, or `lowering`
    /// for a bug in a lowering step.
    pub fn stage(&self) -> crate::StageId {
        if self.pass.starts_with("lowering") {
            crate::StageId::Lowering
        } else {
            self.pass
                .parse()
                .unwrap_or_else(|e| panic!("bug table row {}: {e}", self.name))
        }
    }
}

impl Bug {
    /// The bug's table row.
    pub fn info(self) -> &'static BugInfo {
        &BUGS[self as usize]
    }
}

thread_local! {
    static HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times, on this thread, an injected bug's decision point chose
/// the buggy behaviour since the last [`reset_hits`].
pub fn hits() -> u64 {
    HITS.with(|h| h.get())
}

/// Adds `n` to [`hits`] (a replayed phase of a compile counts the hits
/// its first run counted).
pub(crate) fn add_hits(n: u64) {
    HITS.with(|h| h.set(h.get() + n));
}

/// Resets [`hits`].
pub fn reset_hits() {
    HITS.with(|h| h.set(0));
}

/// A set of injected bugs.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BugSet(u64);

impl BugSet {
    /// No bugs: the compiler as it should be.
    pub const NONE: BugSet = BugSet(0);

    /// Whether `b` is injected. Decision points call this exactly where the
    /// buggy behaviour would be chosen, so a `true` answer is counted as a
    /// hit ([`hits`]): a compile with no hits must equal the bug-free one.
    pub fn has(self, b: Bug) -> bool {
        let on = self.0 & (1 << b as u32) != 0;
        if on {
            HITS.with(|h| h.set(h.get() + 1));
        }
        on
    }

    /// The set with `b` added.
    pub fn with(self, b: Bug) -> BugSet {
        BugSet(self.0 | 1 << b as u32)
    }

    /// Whether no bug is injected.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The injected bugs, in table order.
    pub fn iter(self) -> impl Iterator<Item = Bug> {
        BUGS.iter().map(|i| i.bug).filter(move |&b| self.has(b))
    }

    /// Parses `name[,name]` (`none` or empty: no bugs).
    pub fn parse(text: &str) -> Result<BugSet, String> {
        let mut set = BugSet::NONE;
        if text.is_empty() || text == "none" {
            return Ok(set);
        }
        for name in text.split(',').map(str::trim) {
            let Some(info) = BUGS.iter().find(|i| i.name == name) else {
                let names: Vec<&str> = BUGS.iter().map(|i| i.name).collect();
                return Err(format!("unknown bug `{name}` (bugs: {})", names.join(", ")));
            };
            set = set.with(info.bug);
        }
        Ok(set)
    }
}

impl fmt::Display for BugSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<&str> = self.iter().map(|b| b.info().name).collect();
        f.write_str(&names.join(","))
    }
}

impl fmt::Debug for BugSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The BUGS.md text (a test keeps compiler/BUGS.md equal to it).
pub fn markdown() -> String {
    let mut s = String::from(
        "# Injectable bugs\n\nGenerated from `compiler/src/bugs.rs` (`UPDATE_BUGS_MD=1 cargo test -p compiler bugs_md` rewrites it).\n\n\
         Each bug re-creates a real miscompile class (EU-MODEL.md §6) as a small, clearly marked change of \
         behaviour in the pass it belongs to, switched on with `--inject NAME[,NAME]`. With nothing injected \
         the compiler's output is identical to a build without the machinery (tested on the corpus).\n\n\
         | name | where | Mesa commit / issue | what goes wrong |\n|---|---|---|---|\n",
    );
    for b in BUGS {
        s.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            b.name, b.pass, b.mesa, b.doc
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_matches_enum() {
        for (i, b) in BUGS.iter().enumerate() {
            assert_eq!(b.bug as usize, i, "{}", b.name);
        }
        assert!(BUGS.len() >= 12);
    }

    #[test]
    fn every_bug_names_a_stage() {
        let stages: Vec<String> = BUGS.iter().map(|b| b.stage().to_string()).collect();
        assert_eq!(stages[0], "eu:cmod-prop");
        assert_eq!(stages[Bug::NativeNoCanonicalize as usize], "lowering");
        assert_eq!(stages[Bug::CseCrossInvocation as usize], "ir:cse");
    }

    #[test]
    fn parse_and_print() {
        let s = BugSet::parse("cse-neg-sat,dce-flag-halves").unwrap();
        assert!(s.has(Bug::CseNegSat) && s.has(Bug::DceFlagHalves) && !s.has(Bug::CopyPropNoMask));
        assert_eq!(s.to_string(), "dce-flag-halves,cse-neg-sat");
        assert_eq!(BugSet::parse("none").unwrap(), BugSet::NONE);
        assert!(BugSet::parse("frob")
            .unwrap_err()
            .starts_with("unknown bug `frob` (bugs: cmod-prop-type-mismatch,"));
    }

    #[test]
    fn bugs_md_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/BUGS.md");
        if std::env::var_os("UPDATE_BUGS_MD").is_some() {
            std::fs::write(path, markdown()).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == markdown(),
            "compiler/BUGS.md is stale: run UPDATE_BUGS_MD=1 cargo test -p compiler bugs_md"
        );
    }
}
