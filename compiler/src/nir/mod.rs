//! IR passes (NIR's place in the pipeline), one per file.
//!
//! This module also holds what the passes share: [`Subst`], a table of value
//! substitutions that rewrites every kind of use (instruction sources, phi
//! sources and `if` conditions), [`Defs`], the definitions a rewriting walk
//! has seen and its new instructions, and a walker over blocks and `if`
//! nodes.

pub mod algebraic;
pub mod bitfield;
pub mod const_fold;
pub mod copy_prop;
pub mod cse;
pub mod dce;
pub mod gcm;
pub mod peephole_select;

#[cfg(test)]
mod testing;

use ir::{Block, CfNode, Def, Instr, Op, Program, ValueId, ValueMap};

/// Value substitutions: uses of `from` become uses of `to`.
///
/// Chains are followed (`a -> b`, `b -> c` rewrites `a` to `c`). Callers only
/// map a value to one whose definition dominates it, so there are no cycles.
pub(crate) struct Subst {
    to: ValueMap<ValueId>,
    any: bool,
}

impl Subst {
    /// An empty table for values below `bound`.
    pub(crate) fn new(bound: usize) -> Subst {
        Subst {
            to: ValueMap::with_bound(bound),
            any: false,
        }
    }

    /// Records that uses of `from` become uses of `to`.
    pub(crate) fn set(&mut self, from: ValueId, to: ValueId) {
        debug_assert_ne!(from, to, "a value cannot replace itself");
        self.to.insert(from, to);
        self.any = true;
    }

    /// What a use of `v` becomes.
    pub(crate) fn resolve(&self, mut v: ValueId) -> ValueId {
        while let Some(next) = self.to.get(v) {
            v = *next;
        }
        v
    }

    /// Rewrites `v` in place; returns whether it changed.
    pub(crate) fn rewrite(&self, v: &mut ValueId) -> bool {
        let r = self.resolve(*v);
        let changed = r != *v;
        *v = r;
        changed
    }

    /// Rewrites every use in a control-flow list: instruction sources, phi
    /// sources and `if` conditions. Returns whether any use changed.
    pub(crate) fn apply(&self, body: &mut [CfNode]) -> bool {
        if !self.any {
            return false;
        }
        let mut changed = false;
        walk_mut(body, &mut |node| match node {
            Node::Block(b) => {
                for phi in &mut b.phis {
                    for (_, v) in &mut phi.srcs {
                        changed |= self.rewrite(v);
                    }
                }
                for i in &mut b.instrs {
                    for v in &mut i.srcs {
                        changed |= self.rewrite(v);
                    }
                }
            }
            Node::Cond(c) => changed |= self.rewrite(c),
        });
        changed
    }
}

/// The definitions seen so far by a walk in program order, and new
/// instructions with fresh value ids (numbered from the program's bound).
pub(crate) struct Defs {
    defs: ValueMap<Instr>,
    bits: Vec<u8>,
    next: u32,
}

impl Defs {
    /// None seen yet; every existing value's size is known up front.
    pub(crate) fn new(p: &Program) -> Defs {
        let bound = p.value_bound();
        Defs {
            defs: ValueMap::with_bound(bound),
            bits: p.value_bits(),
            next: bound as u32,
        }
    }

    /// The instruction defining `v`, once the walk has recorded it.
    pub(crate) fn def(&self, v: ValueId) -> Option<&Instr> {
        self.defs.get(v)
    }

    /// The size of `v` (0 for an unknown value).
    pub(crate) fn bits(&self, v: ValueId) -> u8 {
        self.bits.get(v.0 as usize).copied().unwrap_or(0)
    }

    /// Records `i`'s definition, if it has one.
    pub(crate) fn record(&mut self, i: &Instr) {
        if let Some(d) = i.dest {
            let k = d.id.0 as usize;
            if self.bits.len() <= k {
                self.bits.resize(k + 1, 0);
            }
            self.defs.insert(d.id, i.clone());
            self.bits[k] = d.bits;
        }
    }

    /// The next fresh id, to [`Defs::rewind`] to if the instructions emitted
    /// after it are dropped.
    pub(crate) fn checkpoint(&self) -> u32 {
        self.next
    }

    /// Hands out the ids emitted since `checkpoint` again.
    pub(crate) fn rewind(&mut self, checkpoint: u32) {
        self.next = checkpoint;
    }

    /// Appends a new instruction defining a fresh value to `out`, records it
    /// and returns the value.
    pub(crate) fn emit(
        &mut self,
        out: &mut Vec<Instr>,
        op: Op,
        bits: u8,
        srcs: Vec<ValueId>,
        imm: u64,
    ) -> ValueId {
        let id = ValueId(self.next);
        self.next += 1;
        let i = Instr {
            op,
            dest: Some(Def { id, bits }),
            srcs,
            imm,
        };
        self.record(&i);
        out.push(i);
        id
    }
}

/// What [`walk_mut`] visits.
pub(crate) enum Node<'a> {
    /// A block.
    Block(&'a mut Block),
    /// The condition of an `if`.
    Cond(&'a mut ValueId),
}

/// Calls `f` on every block and every `if` condition, in program order (an
/// `if`'s condition right after the block before it). Program order visits
/// every definition before its non-phi uses.
pub(crate) fn walk_mut(list: &mut [CfNode], f: &mut impl FnMut(Node<'_>)) {
    for node in list {
        match node {
            CfNode::Block(b) => f(Node::Block(b)),
            CfNode::If(i) => {
                f(Node::Cond(&mut i.cond));
                walk_mut(&mut i.then_body, f);
                walk_mut(&mut i.else_body, f);
            }
            CfNode::Loop(l) => walk_mut(&mut l.body, f),
        }
    }
}
