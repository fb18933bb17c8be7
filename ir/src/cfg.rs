//! The control-flow graph of a structured program, and its dominator tree.

use crate::program::{Block, BlockId, CfNode, Jump};

/// The CFG: blocks in program order with their edges and immediate dominators.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Block ids in program order; indices into this are "block indices".
    pub blocks: Vec<BlockId>,
    /// Predecessors of each block index.
    pub preds: Vec<Vec<usize>>,
    /// Successors of each block index.
    pub succs: Vec<Vec<usize>>,
    /// Immediate dominator of each block index (the entry is its own; an
    /// unreachable block has `usize::MAX`).
    pub idom: Vec<usize>,
    /// Loop nesting depth of each block index.
    pub loop_depth: Vec<u32>,
    /// Blocks that jump with no enclosing loop.
    pub stray_jumps: Vec<usize>,
    index_of: Vec<usize>,
}

struct LoopCtx {
    breaks: Vec<usize>,
    conts: Vec<usize>,
}

struct Builder {
    cfg: Cfg,
    loops: Vec<LoopCtx>,
}

impl Cfg {
    /// Builds the CFG of a control-flow list (the body of `impl main`).
    pub fn build(body: &[CfNode]) -> Cfg {
        let mut b = Builder {
            cfg: Cfg {
                blocks: vec![],
                preds: vec![],
                succs: vec![],
                idom: vec![],
                loop_depth: vec![],
                stray_jumps: vec![],
                index_of: vec![],
            },
            loops: vec![],
        };
        b.list(body, vec![]);
        let mut cfg = b.cfg;
        let bound = cfg
            .blocks
            .iter()
            .map(|b| b.0 as usize + 1)
            .max()
            .unwrap_or(0);
        cfg.index_of = vec![usize::MAX; bound];
        for (i, id) in cfg.blocks.iter().enumerate() {
            if cfg.index_of[id.0 as usize] == usize::MAX {
                cfg.index_of[id.0 as usize] = i;
            }
        }
        cfg.compute_dominators();
        cfg
    }

    /// The block index of a block id.
    pub fn index(&self, id: BlockId) -> Option<usize> {
        self.index_of
            .get(id.0 as usize)
            .copied()
            .filter(|&i| i != usize::MAX)
    }

    /// Whether block index `a` dominates block index `b` (reflexive).
    pub fn dominates(&self, a: usize, mut b: usize) -> bool {
        if self.idom[b] == usize::MAX {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            if b == 0 {
                return false;
            }
            b = self.idom[b];
        }
    }

    /// Whether a block index is reachable from the entry.
    pub fn reachable(&self, i: usize) -> bool {
        self.idom[i] != usize::MAX
    }

    fn compute_dominators(&mut self) {
        let n = self.blocks.len();
        self.idom = vec![usize::MAX; n];
        if n == 0 {
            return;
        }
        // Postorder by DFS from the entry.
        let mut post = vec![usize::MAX; n];
        let mut order = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        let mut stack = vec![(0usize, 0usize)];
        visited[0] = true;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if *k < self.succs[v].len() {
                let s = self.succs[v][*k];
                *k += 1;
                if !visited[s] {
                    visited[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post[v] = order.len();
                order.push(v);
                stack.pop();
            }
        }
        self.idom[0] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for &v in order.iter().rev() {
                if v == 0 {
                    continue;
                }
                let mut new = usize::MAX;
                for &p in &self.preds[v] {
                    if self.idom[p] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX {
                        p
                    } else {
                        intersect(&self.idom, &post, p, new)
                    };
                }
                if new != self.idom[v] {
                    self.idom[v] = new;
                    changed = true;
                }
            }
        }
    }
}

fn intersect(idom: &[usize], post: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while post[a] < post[b] {
            a = idom[a];
        }
        while post[b] < post[a] {
            b = idom[b];
        }
    }
    a
}

impl Builder {
    fn add(&mut self, b: &Block) -> usize {
        let i = self.cfg.blocks.len();
        self.cfg.blocks.push(b.id);
        self.cfg.preds.push(vec![]);
        self.cfg.succs.push(vec![]);
        self.cfg.loop_depth.push(self.loops.len() as u32);
        i
    }

    fn edge(&mut self, from: usize, to: usize) {
        self.cfg.succs[from].push(to);
        self.cfg.preds[to].push(from);
    }

    /// Adds a list whose first block is entered from `incoming`; returns the
    /// blocks that fall through its end.
    fn list(&mut self, nodes: &[CfNode], incoming: Vec<usize>) -> Vec<usize> {
        let mut pending = incoming;
        for node in nodes {
            match node {
                CfNode::Block(b) => {
                    let i = self.add(b);
                    for p in std::mem::take(&mut pending) {
                        self.edge(p, i);
                    }
                    pending = match (b.jump, self.loops.last_mut()) {
                        (None, _) => vec![i],
                        (Some(Jump::Break), Some(l)) => {
                            l.breaks.push(i);
                            vec![]
                        }
                        (Some(Jump::Continue), Some(l)) => {
                            l.conts.push(i);
                            vec![]
                        }
                        (Some(_), None) => {
                            self.cfg.stray_jumps.push(i);
                            vec![]
                        }
                    };
                }
                CfNode::If(f) => {
                    let mut exits = self.list(&f.then_body, pending.clone());
                    exits.extend(self.list(&f.else_body, pending));
                    pending = exits;
                }
                CfNode::Loop(l) => {
                    let header = self.cfg.blocks.len();
                    self.loops.push(LoopCtx {
                        breaks: vec![],
                        conts: vec![],
                    });
                    let exits = self.list(&l.body, pending);
                    let ctx = self.loops.pop().expect("pushed above");
                    if header < self.cfg.blocks.len() {
                        for x in exits.into_iter().chain(ctx.conts) {
                            self.edge(x, header);
                        }
                    }
                    pending = ctx.breaks;
                }
            }
        }
        pending
    }
}
