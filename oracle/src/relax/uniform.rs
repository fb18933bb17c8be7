//! Uniform control flow for the `tangle` relaxation (the module doc's
//! "Control flow" section): per dynamic instance of each `if` and loop
//! iteration, what the invocations of the scope did, recorded over a whole
//! run; and, from the records of the run before, whether control flow is
//! uniform at the current point.
//!
//! A dynamic instance is keyed by the scope (0 for the workgroup, 1 + the
//! subgroup index for a subgroup), the number and iteration of every
//! enclosing loop, and the `if`'s number (an `if`) or nothing more (a loop
//! iteration).

use super::Reconvergence;
use std::collections::HashMap;

/// If: some invocation took the then-arm.
const SAW_TRUE: u8 = 1;
/// If: some invocation took the else-arm.
const SAW_FALSE: u8 = 2;
/// If: the decision or some invocation's presence is uncertain.
const DECISION_TAINTED: u8 = 4;
/// If: some invocation left it by `break`/`continue`, or may have.
const JUMPED: u8 = 8;
/// Iteration: some invocation left the loop.
const LEFT: u8 = 16;
/// Iteration: invocations reached the next iteration from different blocks.
const MULTI_ROUTE: u8 = 32;
/// Iteration: some invocation's path in it is uncertain.
const ITER_TAINTED: u8 = 64;

/// Marks an `if`'s number in a key (iteration counts stay below it).
const IF_TAG: u32 = 1 << 31;
const NO_ROUTE: u32 = u32::MAX;
/// The route of invocations that reached the end of the body.
const FELL_THROUGH: u32 = u32::MAX - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rec {
    flags: u8,
    route: u32,
}

enum Frame {
    If { key: Vec<u32>, u_before: bool },
    Loop { u_entry: bool, u_iter: bool },
}

/// The records and the current state.
pub(crate) struct Uniformity {
    on: bool,
    per_subgroup: bool,
    prev: Option<HashMap<Vec<u32>, Rec>>,
    cur: HashMap<Vec<u32>, Rec>,
    path: Vec<u32>,
    frames: Vec<Frame>,
    u: bool,
}

impl Uniformity {
    /// For a reconvergence guarantee (nothing to do under `Maximal`, nor
    /// without subgroup ops).
    pub(crate) fn new(mode: Reconvergence, tangled_ops: bool) -> Uniformity {
        Uniformity {
            on: mode != Reconvergence::Maximal && tangled_ops,
            per_subgroup: mode == Reconvergence::SubgroupUniform,
            prev: None,
            cur: HashMap::new(),
            path: Vec::new(),
            frames: Vec::new(),
            u: true,
        }
    }

    /// A subgroup starts at the entry (uniform).
    pub(crate) fn subgroup(&mut self, index: u32) {
        self.path = vec![if self.per_subgroup { index + 1 } else { 0 }];
        self.frames.clear();
        self.u = true;
    }

    fn mark(&mut self, key: &[u32], flags: u8) {
        if let Some(r) = self.cur.get_mut(key) {
            r.flags |= flags;
        } else {
            self.cur.insert(
                key.to_vec(),
                Rec {
                    flags,
                    route: NO_ROUTE,
                },
            );
        }
    }

    fn before(&self, key: &[u32]) -> u8 {
        self.prev
            .as_ref()
            .and_then(|p| p.get(key))
            .map_or(0, |r| r.flags)
    }

    /// An `if` is entered; what the subgroup's invocations decided.
    pub(crate) fn if_begin(&mut self, id: u32, saw_true: bool, saw_false: bool, tainted: bool) {
        if !self.on {
            return;
        }
        let mut key = self.path.clone();
        key.push(IF_TAG | id);
        let flags = if saw_true { SAW_TRUE } else { 0 }
            | if saw_false { SAW_FALSE } else { 0 }
            | if tainted { DECISION_TAINTED } else { 0 };
        self.mark(&key, flags);
        let f = self.before(&key);
        let divergent =
            f & (SAW_TRUE | SAW_FALSE) == SAW_TRUE | SAW_FALSE || f & DECISION_TAINTED != 0;
        self.frames.push(Frame::If {
            key,
            u_before: self.u,
        });
        self.u = self.u && !divergent;
    }

    /// The `if` is left through its merge.
    pub(crate) fn if_end(&mut self) {
        if !self.on {
            return;
        }
        let Some(Frame::If { key, u_before }) = self.frames.pop() else {
            unreachable!("if_end matches if_begin");
        };
        self.u = u_before && self.before(&key) & JUMPED == 0;
    }

    /// Marks every `if` up to the innermost loop as left by a jump.
    fn mark_escapes(&mut self) {
        let keys: Vec<Vec<u32>> = self
            .frames
            .iter()
            .rev()
            .map_while(|f| match f {
                Frame::If { key, .. } => Some(key.clone()),
                Frame::Loop { .. } => None,
            })
            .collect();
        for k in keys {
            self.mark(&k, JUMPED);
        }
    }

    fn route(&mut self, r: u32) {
        let key = self.path.clone();
        self.mark(&key, 0);
        let rec = self.cur.get_mut(&key).expect("just marked");
        if rec.route == NO_ROUTE {
            rec.route = r;
        } else if rec.route != r {
            rec.flags |= MULTI_ROUTE;
        }
    }

    /// Invocations leave `block` by `break` (or `continue`).
    pub(crate) fn jump(&mut self, brk: bool, block: u32) {
        if !self.on {
            return;
        }
        self.mark_escapes();
        if brk {
            let key = self.path.clone();
            self.mark(&key, LEFT);
        } else {
            self.route(block);
        }
    }

    /// An invocation may leave the current `if`s by a jump on the device:
    /// they and the current iteration are marked.
    pub(crate) fn uncertain_escape(&mut self) {
        if !self.on {
            return;
        }
        self.mark_escapes();
        let key = self.path.clone();
        self.mark(&key, ITER_TAINTED);
    }

    /// A loop is entered.
    pub(crate) fn loop_begin(&mut self, id: u32) {
        if !self.on {
            return;
        }
        self.frames.push(Frame::Loop {
            u_entry: self.u,
            u_iter: self.u,
        });
        self.path.push(id);
        self.path.push(0);
    }

    /// An iteration starts.
    pub(crate) fn iteration(&mut self) {
        if !self.on {
            return;
        }
        let n = self.path.len();
        let k = self.path[n - 1] + 1;
        let split = if k == 1 {
            false
        } else {
            self.before(&self.path) & (LEFT | MULTI_ROUTE | ITER_TAINTED) != 0
        };
        self.path[n - 1] = k;
        let Some(Frame::Loop { u_entry, u_iter }) = self.frames.last_mut() else {
            unreachable!("iteration inside a loop");
        };
        let u = if k == 1 { *u_entry } else { *u_iter && !split };
        *u_iter = u;
        self.u = u;
    }

    /// An iteration ends: whether some invocations reached the body's end,
    /// and whether some invocation's path in it was uncertain.
    pub(crate) fn iteration_end(&mut self, fell: bool, tainted: bool) {
        if !self.on {
            return;
        }
        if fell {
            self.route(FELL_THROUGH);
        }
        if tainted {
            let key = self.path.clone();
            self.mark(&key, ITER_TAINTED);
        }
    }

    /// The loop is left (through its merge, always).
    pub(crate) fn loop_end(&mut self) {
        if !self.on {
            return;
        }
        let Some(Frame::Loop { u_entry, .. }) = self.frames.pop() else {
            unreachable!("loop_end matches loop_begin");
        };
        self.path.truncate(self.path.len() - 2);
        self.u = u_entry;
    }

    /// Whether a subgroup op here is excluded: control flow is not uniform
    /// (known from the second run on).
    pub(crate) fn tangled(&self) -> bool {
        self.on && self.prev.is_some() && !self.u
    }

    /// Ends a run; whether another is needed (the records changed).
    pub(crate) fn next_pass(&mut self) -> bool {
        if !self.on {
            return false;
        }
        let cur = std::mem::take(&mut self.cur);
        let again = self.prev.as_ref() != Some(&cur);
        self.prev = Some(cur);
        again
    }
}
