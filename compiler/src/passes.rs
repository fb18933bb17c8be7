//! The pass table and pass sets. Every pass has a Mesa-style name, lives in
//! its own file and is listed once here; passes run in this table's order
//! (IR passes, then lowering, then EU passes), each stage repeated to a
//! fixpoint as Mesa's optimization loops do.

use crate::bugs::BugSet;
use crate::vir::VProgram;
use std::fmt;

/// Which side of lowering a pass runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// On the shader IR (NIR's place).
    Ir,
    /// On EU code with virtual registers (brw's place).
    Eu,
    /// On vec4 (Align16) code with virtual registers (brw's vec4 backend,
    /// now `elk`).
    Vec4,
}

impl Stage {
    /// `ir` or `eu`.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Ir => "ir",
            Stage::Eu => "eu",
            Stage::Vec4 => "vec4",
        }
    }
}

/// How the `bitfield` pass treats bitfield ops (seed 003).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BitfieldMode {
    /// Keep (and recognize) bitfield ops, lowered to BFE/BFI1/BFI2.
    #[default]
    Native,
    /// Expand them into exact shift-and-mask sequences.
    Expand,
}

/// How `eu:bool-cleanup` combines booleans of different widths (seed 000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoolCleanupMode {
    /// Combine only booleans of one width (every operand rewritten to its
    /// 16-bit original): canonical where sizes meet.
    #[default]
    Canonical,
    /// Also combine a 16-bit original with booleans (or values) of another
    /// width, leaving the instruction's operands mixed W and D: the form the
    /// thread argued the hardware handles, by sign-extending the W source to
    /// the D execution type.
    Mixed,
}

/// How `vec4:dce` tracks flag liveness (seed 002).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FlagLiveness {
    /// Each component's flag bit (x, y, z, w) on its own: a write kills
    /// the components of its writemask, a replicate predicate reads one
    /// component, and a null-destination flag write is narrowed to the
    /// components still read (Piñeiro's patch).
    #[default]
    PerChannel,
    /// One bit for the whole flag, as before the patch: any read keeps
    /// every component alive, only a full-writemask write kills, and a
    /// flag write is never narrowed.
    Conservative,
}

/// What an EU pass knows about the compile it is part of: only what may
/// change the EU phase's result. EU passes do not see the boolean strategy
/// (lowering has applied it), so strategies that lower a case to the same
/// code share the EU phase (`eu_phase.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassCtx {
    /// Dispatch width.
    pub simd: u32,
    /// Injected bugs.
    pub bugs: BugSet,
    /// The bitfield pass's mode.
    pub bitfield: BitfieldMode,
    /// The bool-cleanup pass's mode.
    pub bool_cleanup: BoolCleanupMode,
    /// The vec4 dead-code pass's flag liveness.
    pub flag_liveness: FlagLiveness,
}

impl PassCtx {
    /// What the EU passes of a compile with `opts` know.
    pub fn of(opts: &crate::CompileOptions) -> PassCtx {
        PassCtx {
            simd: opts.simd,
            bugs: opts.bugs,
            bitfield: opts.passes.bitfield,
            bool_cleanup: opts.passes.bool_cleanup,
            flag_liveness: opts.passes.flag_liveness,
        }
    }
}

/// What an IR pass knows about the compile: only what may change the IR
/// phase's result. IR passes do not see the boolean strategy or the SIMD
/// width, so compiles differing only in those share the IR phase
/// (`ir_phase.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IrCtx {
    /// Injected bugs.
    pub bugs: BugSet,
    /// The bitfield pass's mode.
    pub bitfield: BitfieldMode,
}

/// A pass's entry point; returns whether it changed the program.
#[derive(Clone, Copy)]
pub enum Entry {
    /// An IR pass.
    Ir(fn(&mut ir::Program, &IrCtx) -> bool),
    /// An EU pass.
    Eu(fn(&mut VProgram, &PassCtx) -> bool),
}

/// One row of the pass table.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// Stage.
    pub stage: Stage,
    /// Mesa-style name (`cmod-prop`, `copy-prop`, `dce`, `cse`, ...).
    pub name: &'static str,
    /// Entry point.
    pub entry: Entry,
    /// What it does, in a line.
    pub doc: &'static str,
    /// Its decision points (`crate::coverage`): the rewrites it can apply
    /// and the reasons it can refuse one.
    pub points: &'static [crate::coverage::Point],
}

impl PassInfo {
    /// `stage:name`, unique across the table.
    pub fn full_name(&self) -> String {
        format!("{}:{}", self.stage.name(), self.name)
    }

    /// Whether `selector` names this pass: its name or its full name
    /// (compared without building the full name: campaigns parse pass
    /// lists per case).
    pub fn is_named(&self, selector: &str) -> bool {
        selector == self.name
            || selector
                .split_once(':')
                .is_some_and(|(stage, name)| stage == self.stage.name() && name == self.name)
    }
}

impl fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.full_name())
    }
}

/// Every pass, in the order they run.
pub static PASSES: &[PassInfo] = &[
    PassInfo { stage: Stage::Ir, name: "const-fold", entry: Entry::Ir(crate::nir::const_fold::run), doc: "evaluate ALU ops whose sources are all constants (nir_opt_constant_folding)", points: crate::nir::const_fold::cov::POINTS },
    PassInfo { stage: Stage::Ir, name: "algebraic", entry: Entry::Ir(crate::nir::algebraic::run), doc: "table-driven algebraic rewrites, including (X<<S)&(Y<<S) -> (X&Y)<<S (nir_opt_algebraic)", points: crate::nir::algebraic::cov::POINTS },
    PassInfo { stage: Stage::Ir, name: "copy-prop", entry: Entry::Ir(crate::nir::copy_prop::run), doc: "replace copies (trivial phis, same-size i2i/u2u, bcsel of equal values) by their source (nir_copy_prop)", points: crate::nir::copy_prop::cov::POINTS },
    PassInfo { stage: Stage::Ir, name: "cse", entry: Entry::Ir(crate::nir::cse::run), doc: "replace an instruction by a dominating identical one; never cross-invocation ops (nir_opt_cse)", points: crate::nir::cse::cov::POINTS },
    PassInfo { stage: Stage::Ir, name: "peephole-select", entry: Entry::Ir(crate::nir::peephole_select::run), doc: "turn small if/else + phi into bcsel by speculating both arms (nir_opt_peephole_select)", points: crate::nir::peephole_select::cov::POINTS },
    PassInfo { stage: Stage::Ir, name: "gcm", entry: Entry::Ir(crate::nir::gcm::run), doc: "global code motion: hoist loop-invariant pure ops out of loops, sink pure ops toward their uses (into the branch that uses them, past a branch); cross-invocation ops are pinned (nir_opt_gcm)", points: crate::nir::gcm::cov::POINTS },
    PassInfo { stage: Stage::Ir, name: "bitfield", entry: Entry::Ir(crate::nir::bitfield::run), doc: "bitfield ops: keep/recognize them for BFE/BFI (bitfield=native) or expand to shifts and masks (bitfield=expand)", points: crate::nir::bitfield::cov::POINTS },
    PassInfo { stage: Stage::Ir, name: "dce", entry: Entry::Ir(crate::nir::dce::run), doc: "remove unused pure instructions and phis (nir_opt_dce)", points: crate::nir::dce::cov::POINTS },
    PassInfo { stage: Stage::Eu, name: "bool-cleanup", entry: Entry::Eu(crate::brw::bool_cleanup::run), doc: "propagate narrow booleans into their users so DCE removes the widening MOVs (Iago Toral's 2018 pass)", points: crate::brw::bool_cleanup::cov::POINTS },
    PassInfo { stage: Stage::Eu, name: "copy-prop", entry: Entry::Eu(crate::brw::copy_prop::run), doc: "propagate MOV sources into their users (brw opt_copy_propagation)", points: crate::brw::copy_prop::cov::POINTS },
    PassInfo { stage: Stage::Eu, name: "cse", entry: Entry::Eu(crate::brw::cse::run), doc: "merge identical instructions within a block (brw opt_cse)", points: crate::brw::cse::cov::POINTS },
    PassInfo { stage: Stage::Eu, name: "cmod-prop", entry: Entry::Eu(crate::brw::cmod_prop::run), doc: "fold a compare-with-zero or MOV.cmod into the instruction that made its source (brw opt_cmod_propagation)", points: crate::brw::cmod_prop::cov::POINTS },
    PassInfo { stage: Stage::Eu, name: "dce", entry: Entry::Eu(crate::brw::dce::run), doc: "remove instructions whose results and flags are dead (brw dead_code_eliminate)", points: crate::brw::dce::cov::POINTS },
    PassInfo { stage: Stage::Eu, name: "sat-prop", entry: Entry::Eu(crate::brw::sat_prop::run), doc: "move a mov.sat's saturate into the instruction that made its source (brw opt_saturate_propagation)", points: crate::brw::sat_prop::cov::POINTS },
    PassInfo { stage: Stage::Eu, name: "register-coalesce", entry: Entry::Eu(crate::brw::register_coalesce::run), doc: "remove a MOV by renaming its source to its destination (brw register_coalesce)", points: crate::brw::register_coalesce::cov::POINTS },
    PassInfo { stage: Stage::Vec4, name: "dce", entry: Entry::Eu(crate::vec4::dce::run), doc: "narrow writemasks to the live components and remove dead vec4 instructions, flag liveness per component (per-channel) or whole (flag-liveness=conservative) (vec4 dead_code_eliminate)", points: crate::vec4::dce::POINTS },
    PassInfo { stage: Stage::Vec4, name: "cmod-prop", entry: Entry::Eu(crate::vec4::cmod_prop::run), doc: "remove a null-destination compare-with-zero or mov.nz whose producer wrote the flag, or fold it into the producer, when the writemasks and swizzles agree (vec4 opt_cmod_propagation)", points: crate::vec4::cmod_prop::POINTS },
    PassInfo { stage: Stage::Vec4, name: "register-coalesce", entry: Entry::Eu(crate::vec4::register_coalesce::run), doc: "remove a MOV by making the instructions that computed its source write its destination, folding its writemask and swizzle into them (vec4 opt_register_coalesce)", points: crate::vec4::register_coalesce::POINTS },
];

/// A set of passes, parsed from `all`, `none`, `cse,dce` or `all,-cmod-prop`.
/// A bare name (`dce`) selects that pass at every stage; `ir:dce` or
/// `eu:dce` selects one. `bitfield=native` / `bitfield=expand` and
/// `bool-cleanup=canonical` / `bool-cleanup=mixed` and
/// `flag-liveness=per-channel` / `flag-liveness=conservative` (vec4:dce)
/// turn that pass on in that mode. `spill=all` makes register allocation spill every value it
/// can, as Mesa's `INTEL_DEBUG=spill_fs` does (`spill=pressure`, the
/// default, spills only what does not fit). `vec4-pack=all` makes the vec4
/// lowering pack every group of instructions it may, gathers and all
/// (`vec4-pack=cost`, the default, packs what saves instructions): a
/// stress mode for the vec4 passes, as `spill=all` is for allocation.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PassSet {
    on: Vec<bool>,
    /// The bitfield pass's mode.
    pub bitfield: BitfieldMode,
    /// The bool-cleanup pass's mode.
    pub bool_cleanup: BoolCleanupMode,
    /// The vec4 dead-code pass's flag liveness.
    pub flag_liveness: FlagLiveness,
    /// Register allocation spills every value it can (`spill=all`).
    pub spill_all: bool,
    /// The vec4 lowering packs every group it may (`vec4-pack=all`), not
    /// only those its cost model says save instructions.
    pub vec4_pack_all: bool,
}

impl PassSet {
    /// Every pass.
    pub fn all() -> PassSet {
        PassSet {
            on: vec![true; PASSES.len()],
            bitfield: BitfieldMode::Native,
            bool_cleanup: BoolCleanupMode::Canonical,
            flag_liveness: FlagLiveness::PerChannel,
            spill_all: false,
            vec4_pack_all: false,
        }
    }

    /// No pass.
    pub fn none() -> PassSet {
        PassSet {
            on: vec![false; PASSES.len()],
            bitfield: BitfieldMode::Native,
            bool_cleanup: BoolCleanupMode::Canonical,
            flag_liveness: FlagLiveness::PerChannel,
            spill_all: false,
            vec4_pack_all: false,
        }
    }

    /// Exactly one pass (by table index).
    pub fn single(index: usize) -> PassSet {
        let mut s = PassSet::none();
        s.on[index] = true;
        s
    }

    /// Whether pass `index` is on.
    pub fn contains(&self, index: usize) -> bool {
        self.on.get(index).copied().unwrap_or(false)
    }

    /// The passes that are on, in table order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &'static PassInfo)> + '_ {
        PASSES.iter().enumerate().filter(|(i, _)| self.on[*i])
    }

    fn matching(selector: &str) -> Result<Vec<usize>, String> {
        let hits: Vec<usize> = PASSES
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_named(selector))
            .map(|(i, _)| i)
            .collect();
        if hits.is_empty() {
            let names: Vec<String> = PASSES.iter().map(|p| p.full_name()).collect();
            return Err(format!(
                "unknown pass `{selector}` (passes: {})",
                names.join(", ")
            ));
        }
        Ok(hits)
    }

    /// Parses a comma-separated pass list.
    pub fn parse(text: &str) -> Result<PassSet, String> {
        let mut set = PassSet::none();
        for (k, item) in text.split(',').map(str::trim).enumerate() {
            match item {
                "" => return Err(format!("empty item in pass list `{text}`")),
                "all" if k == 0 => set = PassSet::all(),
                "none" if k == 0 => set = PassSet::none(),
                "all" | "none" => return Err(format!("`{item}` may only come first in `{text}`")),
                "bool-cleanup=canonical" | "bool-cleanup=mixed" => {
                    set.bool_cleanup = if item.ends_with("mixed") {
                        BoolCleanupMode::Mixed
                    } else {
                        BoolCleanupMode::Canonical
                    };
                    for i in PassSet::matching("bool-cleanup")? {
                        set.on[i] = true;
                    }
                }
                "flag-liveness=per-channel" | "flag-liveness=conservative" => {
                    set.flag_liveness = if item.ends_with("conservative") {
                        FlagLiveness::Conservative
                    } else {
                        FlagLiveness::PerChannel
                    };
                    for i in PassSet::matching("vec4:dce")? {
                        set.on[i] = true;
                    }
                }
                "spill=all" | "spill=pressure" => set.spill_all = item == "spill=all",
                "vec4-pack=all" | "vec4-pack=cost" => set.vec4_pack_all = item == "vec4-pack=all",
                "bitfield=native" | "bitfield=expand" => {
                    set.bitfield = if item.ends_with("expand") {
                        BitfieldMode::Expand
                    } else {
                        BitfieldMode::Native
                    };
                    for i in PassSet::matching("bitfield")? {
                        set.on[i] = true;
                    }
                }
                _ => {
                    let (neg, name) = match item.strip_prefix('-') {
                        Some(n) => (true, n),
                        None => (false, item),
                    };
                    for i in PassSet::matching(name)? {
                        set.on[i] = !neg;
                    }
                }
            }
        }
        Ok(set)
    }
}

impl fmt::Display for PassSet {
    /// The canonical text: `all`, `none`, or the full names that are on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A mode only matters (and is only printed) when its pass is on; the
        // mode's item turns the pass on, so the pass's name is not repeated.
        let on = |name: &str| {
            PASSES
                .iter()
                .zip(&self.on)
                .any(|(p, &on)| on && p.is_named(name))
        };
        let modes: Vec<(&str, &str)> = [
            (
                "bitfield",
                (self.bitfield == BitfieldMode::Expand).then_some("bitfield=expand"),
            ),
            (
                "bool-cleanup",
                (self.bool_cleanup == BoolCleanupMode::Mixed).then_some("bool-cleanup=mixed"),
            ),
            (
                "vec4:dce",
                (self.flag_liveness == FlagLiveness::Conservative)
                    .then_some("flag-liveness=conservative"),
            ),
        ]
        .into_iter()
        .filter_map(|(n, m)| m.filter(|_| on(n)).map(|m| (n, m)))
        .collect();
        let mut suffix: String = modes.iter().map(|(_, m)| format!(",{m}")).collect();
        if self.spill_all {
            // Register allocation always runs: not tied to a pass.
            suffix.push_str(",spill=all");
        }
        if self.vec4_pack_all {
            // A lowering mode (of the vec4 backend only): not tied to a pass.
            suffix.push_str(",vec4-pack=all");
        }
        if self.on.iter().all(|&b| b) {
            return write!(f, "all{suffix}");
        }
        if self.on.iter().all(|&b| !b) {
            return write!(f, "none{suffix}");
        }
        let names: Vec<String> = self
            .iter()
            .filter(|(_, p)| {
                !modes
                    .iter()
                    .any(|(n, _)| *n == p.name || *n == p.full_name())
            })
            .map(|(_, p)| p.full_name())
            .collect();
        if names.is_empty() {
            // Only passes in a non-default mode.
            return f.write_str(suffix.trim_start_matches(','));
        }
        write!(f, "{}{suffix}", names.join(","))
    }
}

impl fmt::Debug for PassSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_is_named_by_its_name_and_its_full_name_only() {
        for p in PASSES {
            assert!(p.is_named(p.name) && p.is_named(&p.full_name()), "{p:?}");
            for q in PASSES {
                assert_eq!(
                    p.is_named(&q.full_name()),
                    std::ptr::eq(p, q),
                    "{p:?} {q:?}"
                );
            }
        }
        let dce = PASSES.iter().find(|p| p.full_name() == "eu:dce").unwrap();
        for other in [
            "eu:", ":dce", "eu:dce:", "eudce", "eu::dce", "ir:dce", "dce ",
        ] {
            assert!(!dce.is_named(other), "{other}");
        }
    }

    #[test]
    fn full_names_are_unique() {
        let mut names: Vec<String> = PASSES.iter().map(|p| p.full_name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), PASSES.len());
    }

    #[test]
    fn parse_forms() {
        assert_eq!(PassSet::parse("all").unwrap(), PassSet::all());
        assert_eq!(PassSet::parse("none").unwrap(), PassSet::none());
        let s = PassSet::parse("cse,dce").unwrap();
        assert_eq!(s.to_string(), "ir:cse,ir:dce,eu:cse,eu:dce,vec4:dce");
        let s = PassSet::parse("all,-cmod-prop").unwrap();
        assert_eq!(
            s.to_string(),
            "ir:const-fold,ir:algebraic,ir:copy-prop,ir:cse,ir:peephole-select,ir:gcm,ir:bitfield,ir:dce,\
             eu:bool-cleanup,eu:copy-prop,eu:cse,eu:dce,eu:sat-prop,eu:register-coalesce,\
             vec4:dce,vec4:register-coalesce"
        );
        let s = PassSet::parse("eu:dce").unwrap();
        assert_eq!(s.to_string(), "eu:dce");
        assert_eq!(PassSet::parse(&s.to_string()).unwrap(), s);
        let s = PassSet::parse("all,bitfield=expand").unwrap();
        assert_eq!(s.to_string(), "all,bitfield=expand");
        assert_eq!(PassSet::parse(&s.to_string()).unwrap(), s);
        let s = PassSet::parse("bitfield=expand").unwrap();
        assert_eq!(s.to_string(), "bitfield=expand");
        assert_eq!(PassSet::parse(&s.to_string()).unwrap(), s);
        let s = PassSet::parse("bitfield=expand,dce").unwrap();
        assert_eq!(s.to_string(), "ir:dce,eu:dce,vec4:dce,bitfield=expand");
        assert_eq!(PassSet::parse(&s.to_string()).unwrap(), s);
        let s = PassSet::parse("none,spill=all").unwrap();
        assert!(s.spill_all && s.iter().next().is_none());
        assert_eq!(s.to_string(), "none,spill=all");
        let s = PassSet::parse("spill=all,ir:dce,spill=pressure,eu:dce,spill=all").unwrap();
        assert_eq!(s.to_string(), "ir:dce,eu:dce,spill=all");
        assert_eq!(
            PassSet::parse("all,spill=all").unwrap().to_string(),
            "all,spill=all"
        );
        let s = PassSet::parse("all,bool-cleanup=mixed,bitfield=expand").unwrap();
        assert_eq!(s.to_string(), "all,bitfield=expand,bool-cleanup=mixed");
        assert_eq!(PassSet::parse(&s.to_string()).unwrap(), s);
        // The vec4 DCE's flag liveness: the mode turns vec4:dce on, and
        // only a non-default mode is printed.
        let s = PassSet::parse("flag-liveness=conservative").unwrap();
        assert_eq!(s.to_string(), "flag-liveness=conservative");
        assert_eq!(s.flag_liveness, FlagLiveness::Conservative);
        assert_eq!(PassSet::parse(&s.to_string()).unwrap(), s);
        let s = PassSet::parse("all,flag-liveness=conservative").unwrap();
        assert_eq!(s.to_string(), "all,flag-liveness=conservative");
        let s = PassSet::parse("eu:dce,flag-liveness=per-channel").unwrap();
        assert_eq!(s.to_string(), "eu:dce,vec4:dce");
        let s = PassSet::parse("bool-cleanup=mixed,eu:dce").unwrap();
        assert_eq!(s.to_string(), "eu:dce,bool-cleanup=mixed");
        assert_eq!(s.bool_cleanup, BoolCleanupMode::Mixed);
        assert_eq!(PassSet::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn parse_errors_name_the_problem() {
        assert!(PassSet::parse("cse,frob")
            .unwrap_err()
            .starts_with("unknown pass `frob` (passes: ir:const-fold,"));
        assert_eq!(
            PassSet::parse("dce,all").unwrap_err(),
            "`all` may only come first in `dce,all`"
        );
        assert_eq!(
            PassSet::parse("dce,,cse").unwrap_err(),
            "empty item in pass list `dce,,cse`"
        );
    }
}
