//! The IR half of a compile (input validation and the IR passes to their
//! fixpoint), shared between compiles that would repeat it.
//!
//! The IR passes read only the injected bugs and the bitfield mode of the
//! options (their entry points take an [`IrCtx`], which holds nothing
//! else), so the configs of a campaign case that differ only in boolean
//! strategy or SIMD width run exactly the same IR phase. Its key is
//! everything it reads: the input program, the IR passes that are on, the
//! bugs and the bitfield mode; a compile that finds its key replays the
//! phase ([`crate::memo`]).

use crate::memo::{self, Kept};
use crate::passes::{self, IrCtx, PassSet, Stage};
use crate::{Code, CompileError, Observer, Snapshot, StageId, MAX_ROUNDS};
use std::cell::RefCell;

/// What the IR phase reads of a compile.
#[derive(Clone, PartialEq, Eq)]
struct Key {
    ctx: IrCtx,
    /// The IR passes that are on, in table order.
    passes: Vec<usize>,
    /// Last: the derived `==` compares in field order, and the program
    /// costs most.
    program: ir::Program,
}

/// IR phases a thread keeps (the default mix runs two pass sets per case).
const KEPT: usize = 4;

thread_local! {
    /// The last IR phases run on this thread.
    static PHASES: RefCell<Kept<Key, ir::Program>> = const { RefCell::new(Kept::new()) };
}

/// Validates `program` and runs the IR passes of `passes` on it to their
/// fixpoint (as [`crate::compile_with_hook`] does), or replays the same
/// phase from this thread's memory ([`memo`]).
pub fn run(
    program: &ir::Program,
    passes: &PassSet,
    ctx: IrCtx,
    observer: &mut dyn Observer,
) -> Result<ir::Program, CompileError> {
    let ir_passes: Vec<usize> = passes
        .iter()
        .filter(|(_, i)| i.stage == Stage::Ir)
        .map(|(k, _)| k)
        .collect();
    let matches = |k: &Key| k.ctx == ctx && k.passes == ir_passes && k.program == *program;
    if let Some(result) = memo::replayed(&PHASES, matches, observer) {
        return result;
    }
    let key = Key {
        program: program.clone(),
        passes: ir_passes,
        ctx,
    };
    memo::run_and_keep(&PHASES, KEPT, key, observer, |observer| {
        optimize(program, passes, &ctx, observer)
    })
}

/// The phase itself.
fn optimize(
    program: &ir::Program,
    passes: &PassSet,
    ctx: &IrCtx,
    observer: &mut dyn Observer,
) -> Result<ir::Program, CompileError> {
    ir::validate(program)?;
    let mut p = program.clone();
    observer.snapshot(Snapshot {
        stage: StageId::Input,
        code: Code::Ir(&p),
    });
    for _ in 0..MAX_ROUNDS {
        let mut progress = false;
        for (index, info) in passes.iter().filter(|(_, i)| i.stage == Stage::Ir) {
            let stage = StageId::IrPass(index);
            if let passes::Entry::Ir(f) = info.entry {
                observer.begin(stage);
                if f(&mut p, ctx) {
                    progress = true;
                    ir::validate(&p).map_err(|error| CompileError::InvalidIr { stage, error })?;
                    observer.snapshot(Snapshot {
                        stage,
                        code: Code::Ir(&p),
                    });
                }
            }
        }
        if !progress {
            break;
        }
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bugs::{Bug, BugSet};
    use crate::coverage;
    use crate::passes::BitfieldMode;

    const TEXT: &str = "shader: t\ndecl_input 0 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = load_const (0x00000000)\n\t32 %2 = iadd %0, %1\n\t32 %3 = iadd %0, %1\n\t32 %4 = imul %2, %3\n\t@store_output (%4) (slot=0)\n}\n";

    /// Everything an observer and a recording see of one phase.
    fn observe(
        p: &ir::Program,
        passes: &PassSet,
        ctx: IrCtx,
    ) -> (Vec<String>, coverage::Hits, u64) {
        let mut seen = Vec::new();
        let mut obs = |s: Snapshot<'_>| {
            if let Code::Ir(p) = s.code {
                seen.push(format!("{}\n{}", s.stage, ir::print_program(p)));
            }
        };
        crate::bugs::reset_hits();
        let rec = coverage::Recording::start();
        let out = run(p, passes, ctx, &mut obs).map(|p| ir::print_program(&p));
        let hits = rec.finish();
        seen.push(format!("{out:?}"));
        (seen, hits, crate::bugs::hits())
    }

    #[test]
    fn a_replayed_phase_shows_what_the_first_run_showed() {
        let p = ir::parse_case(TEXT).unwrap().program;
        let ctx = IrCtx {
            bugs: BugSet::NONE,
            bitfield: BitfieldMode::Native,
        };
        let first = observe(&p, &PassSet::all(), ctx);
        // The passes changed something (algebraic folds both `+ 0`, DCE
        // removes the constant), and the second run is a replay.
        assert!(first.0.len() > 2, "{:?}", first.0);
        assert_eq!(first.1.get("ir:algebraic/rule/iadd-zero"), Some(&2));
        let again = observe(&p, &PassSet::all(), ctx);
        assert_eq!(again, first);
        let found = PHASES.with(|m| m.borrow().count(|k| k.program == p));
        assert_eq!(found, 1);
        // Another pass set is another phase, with its own result.
        let none = observe(&p, &PassSet::none(), ctx);
        assert_eq!(none.0.len(), 2);
        assert!(none.1.is_empty());
    }

    #[test]
    fn injected_bug_hits_are_replayed() {
        let text = include_str!("../../corpus/bugs/cse-cross-invocation.sir");
        let p = ir::parse_case(text).unwrap().program;
        let ctx = IrCtx {
            bugs: BugSet::NONE.with(Bug::CseCrossInvocation),
            bitfield: BitfieldMode::Native,
        };
        let first = observe(&p, &PassSet::all(), ctx);
        assert!(first.2 > 0, "the bug merges the two ballots");
        let again = observe(&p, &PassSet::all(), ctx);
        assert_eq!(again, first);
    }

    #[test]
    fn a_phase_run_without_recording_is_run_again_for_a_recording() {
        let p = ir::parse_case(TEXT).unwrap().program;
        let ctx = IrCtx {
            bugs: BugSet::NONE,
            bitfield: BitfieldMode::Expand,
        };
        let mut quiet = |_: Snapshot<'_>| {};
        run(&p, &PassSet::all(), ctx, &mut quiet).unwrap();
        let recorded = observe(&p, &PassSet::all(), ctx);
        assert!(!recorded.1.is_empty());
        assert_eq!(observe(&p, &PassSet::all(), ctx), recorded);
    }
}
