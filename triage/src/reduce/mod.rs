//! The reducer: a structured, type-preserving test-case reducer on the IR,
//! followed by config minimization.
//!
//! ```text
//! let reduced = Reducer::new(same_bug_predicate(&case, &config))
//!     .max_checks(5_000)
//!     .run(&case, &config)?;
//! ```
//!
//! [`Reducer::run`] first checks the predicate on the input
//! ([`ReduceError::PredicateFailsOnInput`]) and on trivial programs
//! ([`ReduceError::TrivialPredicate`]), then alternates, until nothing
//! changes (at most [`MAX_ROUNDS`] rounds):
//!
//! 1. fewer invocations (ddmin over the dispatch's lanes, the end first);
//! 2. the program: dead code, control flow (an `if` collapsed
//!    to one arm, a loop removed or unrolled once), instructions removed in
//!    ddmin chunks and then one by one (their uses replaced by 0, 1 or an
//!    operand of the same size), unused slots dropped, types narrowed,
//!    constants simplified toward 0 and 1;
//! 3. the config (unless [`Reducer::minimize_config`] is off):
//!    a 1-minimal pass subset (ddmin), the first strategy of bool32, bool16,
//!    native, flag that still works, the smallest SIMD width;
//! 4. simpler input and uniform values (0, 1, -1, 2; floats 0, 1, -1, 2, 0.5).
//!
//! If the result still spills registers (and the config is minimized), the
//! config switches once to `spill=all` (Mesa's `INTEL_DEBUG=spill_fs`:
//! every value spills) when the failure stays, and the rounds run again:
//! a spilling bug then needs no register pressure to show.
//!
//! Every candidate must be strictly smaller than the current case by a
//! fixed lexicographic measure (instructions, non-constant instructions,
//! control-flow nodes, value bits, slots, constant complexity, invocations,
//! input complexity, passes, strategy, SIMD width), so reduction always
//! terminates; it must validate (`ir::validate`), its dispatch must fit, and
//! the oracle interpreter must run it without undefined behaviour or timeout
//! at the candidate config's SIMD width. Only then is the predicate asked.
//! Rejected candidates are remembered by their text, so none is asked
//! twice. Everything is deterministic: no iteration over hashed containers, no clocks,
//! no randomness.
//!
//! The result is renumbered densely (`%0`.., `b0`..) and loses the input's
//! comments (they describe the original case) if the predicate still holds.

mod config;
mod edit;
mod narrow;
mod program;

use compiler::Strategy;
use ir::{Case, CfNode, Op, Program};
use oracle::interp::{InterpConfig, InterpError};
use oracle::{Config, Verdict};
use std::collections::HashSet;

/// The default budget of predicate calls.
pub const DEFAULT_MAX_CHECKS: usize = 20_000;

/// The most alternations of program and config minimization.
pub const MAX_ROUNDS: usize = 4;

/// Why a reduction could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReduceError {
    /// The predicate does not hold on the input.
    #[error("the predicate does not hold on the input")]
    PredicateFailsOnInput,
    /// The predicate also holds on a trivial program (every output stored
    /// from a constant, or an empty body): it does not characterize a bug.
    #[error("the predicate also holds on a trivial program")]
    TrivialPredicate,
    /// The input cannot be reduced: it does not validate, has no dispatch
    /// or a dispatch that does not fit, or has undefined behaviour or times
    /// out in the oracle.
    #[error("invalid input: {0}")]
    InvalidInput(String),
}

/// The outcome of a reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The reduced case (program and dispatch).
    pub case: Case,
    /// The reduced config (equal to the input's without config minimization).
    pub config: Config,
    /// Predicate calls made, the checks on the input and on trivial programs included.
    pub checks: usize,
    /// IR instructions removed (`Program::num_instrs` of the input minus the result's).
    pub removed: usize,
}

type Predicate<'a> = Box<dyn FnMut(&Case, &Config) -> bool + 'a>;

/// A reducer, configured builder-style (as wasm-shrink's).
pub struct Reducer<'a> {
    predicate: Predicate<'a>,
    minimize_config: bool,
    max_checks: usize,
}

impl<'a> Reducer<'a> {
    /// A reducer keeping `predicate` (the caller's notion of "the same bug")
    /// true. It is only called on valid, UB-free candidates.
    pub fn new(predicate: impl FnMut(&Case, &Config) -> bool + 'a) -> Self {
        Reducer {
            predicate: Box::new(predicate),
            minimize_config: true,
            max_checks: DEFAULT_MAX_CHECKS,
        }
    }

    /// Whether to minimize the config (passes, strategy, SIMD width) too;
    /// on by default. The dispatch is part of the case and always reduced.
    pub fn minimize_config(mut self, yes: bool) -> Self {
        self.minimize_config = yes;
        self
    }

    /// The budget of predicate calls; when it runs out the smallest case so
    /// far is returned.
    pub fn max_checks(mut self, n: usize) -> Self {
        self.max_checks = n;
        self
    }

    /// Reduces `case` under `config`.
    pub fn run(mut self, case: &Case, config: &Config) -> Result<Reduced, ReduceError> {
        ir::validate(&case.program).map_err(|e| ReduceError::InvalidInput(e.to_string()))?;
        let budget = interp_budget(case, config.simd).map_err(ReduceError::InvalidInput)?;
        let mut checks = 1;
        if !(self.predicate)(case, config) {
            return Err(ReduceError::PredicateFailsOnInput);
        }
        for t in trivial_cases(case) {
            if ub_free(&t, config.simd, budget) {
                checks += 1;
                if (self.predicate)(&t, config) {
                    return Err(ReduceError::TrivialPredicate);
                }
            }
        }
        let mut s = Session {
            predicate: self.predicate,
            case: case.clone(),
            config: config.clone(),
            size: Size::of(case, config),
            checks,
            max_checks: self.max_checks.max(checks),
            interp_budget: budget,
            rejected: HashSet::new(),
        };
        loop {
            for _ in 0..MAX_ROUNDS {
                let before = s.size;
                config::reduce_lanes(&mut s);
                program::reduce_program(&mut s);
                if self.minimize_config {
                    config::reduce_config(&mut s);
                }
                config::reduce_inputs(&mut s);
                if s.size == before || s.exhausted() {
                    break;
                }
            }
            // A failure that still needs register pressure cannot shrink
            // below it: with spill=all (INTEL_DEBUG=spill_fs) every value
            // spills, so a spilling bug shows on a few instructions. Tried
            // once, when the reduced case still spills.
            if !self.minimize_config
                || s.config.passes.spill_all
                || s.exhausted()
                || !config::spills(&s.case, &s.config)
            {
                break;
            }
            let mut c = s.config.clone();
            c.passes.spill_all = true;
            let (case, size) = (s.case.clone(), s.size);
            if !s.ask(case, c, size) {
                break;
            }
        }
        s.canonicalize();
        let removed = case
            .program
            .num_instrs()
            .saturating_sub(s.case.program.num_instrs());
        Ok(Reduced {
            case: s.case,
            config: s.config,
            checks: s.checks,
            removed,
        })
    }
}

/// The interpreter budget for candidates: a tenth of the oracle's when the
/// input fits in it (infinite loops made by a reduction step then cost
/// little), else the oracle's own. An error if the input is not UB-free.
fn interp_budget(case: &Case, simd: u32) -> Result<u64, String> {
    let Some(d) = case.dispatch.as_ref() else {
        return Err("the case has no dispatch".into());
    };
    let run = |budget| {
        oracle::interp::run(
            &case.program,
            d,
            &InterpConfig {
                simd,
                step_budget: budget,
            },
        )
    };
    let small = oracle::check::INTERP_BUDGET / 10;
    match run(small) {
        Ok(_) => Ok(small),
        Err(InterpError::Timeout { .. }) => match run(oracle::check::INTERP_BUDGET) {
            Ok(_) => Ok(oracle::check::INTERP_BUDGET),
            Err(e) => Err(e.to_string()),
        },
        Err(e) => Err(e.to_string()),
    }
}

/// Whether a case validates, has a fitting dispatch and runs in the oracle
/// interpreter without undefined behaviour or timeout.
fn ub_free(case: &Case, simd: u32, budget: u64) -> bool {
    let Some(d) = case.dispatch.as_ref() else {
        return false;
    };
    ir::validate(&case.program).is_ok()
        && d.check(&case.program).is_ok()
        && oracle::interp::run(
            &case.program,
            d,
            &InterpConfig {
                simd,
                step_budget: budget,
            },
        )
        .is_ok()
}

/// The trivial versions of a case: every output slot stored from the
/// constant 0 (nothing else), and an empty body.
fn trivial_cases(case: &Case) -> Vec<Case> {
    let mut b = ir::Builder::new(&case.program.name);
    for &t in &case.program.inputs {
        b.declare_input(t);
    }
    for &t in &case.program.uniforms {
        b.declare_uniform(t);
    }
    for &t in &case.program.outputs {
        b.declare_output(t);
    }
    let empty = b.finish_unchecked();
    let mut stores = empty.clone();
    let mut consts = Vec::new();
    let mut writes = Vec::new();
    for (slot, t) in case.program.outputs.iter().enumerate() {
        let id = ir::ValueId(slot as u32);
        consts.push(ir::Instr {
            op: Op::LoadConst,
            dest: Some(ir::Def { id, bits: t.bits() }),
            srcs: vec![],
            imm: 0,
        });
        writes.push(ir::Instr {
            op: Op::StoreOutput,
            dest: None,
            srcs: vec![id],
            imm: slot as u64,
        });
    }
    if let Some(CfNode::Block(entry)) = stores.body.first_mut() {
        entry.instrs = consts.into_iter().chain(writes).collect();
    }
    [stores, empty]
        .into_iter()
        .map(|program| Case {
            program,
            dispatch: case.dispatch.clone(),
        })
        .collect()
}

/// The reduction measure; candidates must be strictly smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Size {
    instrs: usize,
    non_const: usize,
    cf_nodes: usize,
    value_bits: usize,
    slots: usize,
    const_rank: usize,
    invocations: u32,
    input_rank: usize,
    passes: usize,
    strategy: usize,
    simd: u32,
}

impl Size {
    fn of(case: &Case, config: &Config) -> Size {
        let p = &case.program;
        let mut non_const = 0;
        let mut value_bits = 0;
        let mut const_rank = 0;
        p.for_each_block(&mut |b| {
            for phi in &b.phis {
                non_const += 1;
                value_bits += phi.dest.bits as usize;
            }
            for i in &b.instrs {
                if let Some(d) = i.dest {
                    value_bits += d.bits as usize;
                }
                if i.op == Op::LoadConst {
                    let bits = i.dest.map_or(32, |d| d.bits);
                    const_rank += program::const_rank(bits, i.imm);
                } else {
                    non_const += 1;
                }
            }
        });
        let (invocations, input_rank) = match &case.dispatch {
            None => (0, 0),
            Some(d) => {
                let mut r = 0;
                for (col, &t) in d.inputs.iter().zip(&p.inputs) {
                    for &v in col.iter().take(d.invocations as usize) {
                        r += config::value_rank(t, v);
                    }
                }
                for (&v, &t) in d.uniforms.iter().zip(&p.uniforms) {
                    r += config::value_rank(t, v);
                }
                (d.invocations, r)
            }
        };
        Size {
            instrs: p.num_instrs(),
            non_const,
            cf_nodes: count_cf(&p.body),
            value_bits,
            slots: p.inputs.len() + p.uniforms.len() + p.outputs.len(),
            const_rank,
            invocations,
            input_rank,
            passes: config.passes.iter().count(),
            strategy: Strategy::ALL
                .iter()
                .position(|&s| s == config.strategy)
                .unwrap_or(0),
            simd: config.simd,
        }
    }
}

/// The ifs and loops in `list`, nested ones included.
fn count_cf(list: &[CfNode]) -> usize {
    list.iter()
        .map(|n| match n {
            CfNode::Block(_) => 0,
            CfNode::If(f) => 1 + count_cf(&f.then_body) + count_cf(&f.else_body),
            CfNode::Loop(l) => 1 + count_cf(&l.body),
        })
        .sum()
}

/// The state of one reduction: the smallest case so far and the budget.
struct Session<'a> {
    predicate: Predicate<'a>,
    case: Case,
    config: Config,
    size: Size,
    checks: usize,
    max_checks: usize,
    interp_budget: u64,
    /// Candidates that were UB or failed the predicate.
    rejected: HashSet<(Case, Config)>,
}

impl Session<'_> {
    fn exhausted(&self) -> bool {
        self.checks >= self.max_checks
    }

    fn program(&self) -> &Program {
        &self.case.program
    }

    /// Tries a candidate; keeps it if it is smaller, valid, UB-free and the
    /// predicate holds.
    fn try_candidate(&mut self, case: Case, config: Config) -> bool {
        if self.exhausted() {
            return false;
        }
        let size = Size::of(&case, &config);
        if size >= self.size {
            return false;
        }
        self.ask(case, config, size)
    }

    fn ask(&mut self, case: Case, config: Config, size: Size) -> bool {
        // Candidates are remembered as they are (no text to print and
        // compare): a case asked about again is answered at once.
        let key = (case, config);
        if self.rejected.contains(&key) {
            return false;
        }
        if !ub_free(&key.0, key.1.simd, self.interp_budget) {
            self.rejected.insert(key);
            return false;
        }
        self.checks += 1;
        if (self.predicate)(&key.0, &key.1) {
            (self.case, self.config) = key;
            self.size = size;
            true
        } else {
            self.rejected.insert(key);
            false
        }
    }

    fn try_program(&mut self, program: Program) -> bool {
        let case = Case {
            program,
            dispatch: self.case.dispatch.clone(),
        };
        let config = self.config.clone();
        self.try_candidate(case, config)
    }

    fn try_case(&mut self, case: Case) -> bool {
        let config = self.config.clone();
        self.try_candidate(case, config)
    }

    fn try_config(&mut self, config: Config) -> bool {
        let case = self.case.clone();
        self.try_candidate(case, config)
    }

    /// Renumbers values and blocks densely and drops the comments, if the
    /// predicate still holds (the measure does not change).
    fn canonicalize(&mut self) {
        let mut program = edit::renumber(&self.case.program);
        program.comments.clear();
        if program == self.case.program || self.exhausted() {
            return;
        }
        let case = Case {
            program,
            dispatch: self.case.dispatch.clone(),
        };
        let config = self.config.clone();
        let size = Size::of(&case, &config);
        self.ask(case, config, size);
    }
}

/// The bug a failing case shows: its signature (kind, culprit and detail);
/// `None` when it does not fail.
fn bug_of(case: &Case, config: &Config) -> Option<crate::signature::Signature> {
    let v = oracle::check(case, config);
    needs_culprit(&v).then(|| crate::signature::Signature::of_model(case, config, &v))
}

fn needs_culprit(v: &Verdict) -> bool {
    !matches!(
        v,
        Verdict::Pass | Verdict::InvalidCase(_) | Verdict::Unsupported(_)
    )
}

/// The standard predicate of `farm reduce` and campaigns: the candidate
/// shows the same bug as the original, i.e. has the same
/// [`Signature`](crate::signature::Signature): verdict kind, culprit stage
/// ([`oracle::localize()`]) and detail (panic location, validator rule, or
/// the op of the first wrong value, [`oracle::probe`]). Strategy, SIMD width
/// and pass set are not part of it (they are the bug's variants), so
/// config minimization may change them.
pub fn same_bug_predicate(original: &Case, config: &Config) -> impl FnMut(&Case, &Config) -> bool {
    let want = bug_of(original, config);
    move |case: &Case, config: &Config| {
        let v = oracle::check(case, config);
        let Some(want) = &want else {
            return !needs_culprit(&v);
        };
        v.kind() == want.kind
            && needs_culprit(&v)
            && crate::signature::Signature::of_model(case, config, &v) == *want
    }
}
