//! Uniformity: which values, blocks and loops may differ between the
//! invocations of a subgroup. This is what NIR's divergence analysis
//! computes, and what the printer shows as `con`/`div`.
//!
//! A value is divergent if it reads the invocation's own identity or input
//! (`load_input`, `load_local_invocation_index`, `load_subgroup_invocation`,
//! `elect`), or if any source is divergent, unless its op gives every active
//! lane the same result (subgroup reductions and broadcasts, uniforms and
//! constants). A phi is also divergent where lanes may arrive by different
//! predecessors: after an `if` on a divergent condition, after a loop left by
//! a divergent `break`, and at a loop header reached by a divergent
//! `continue`. A value defined in a loop left by a divergent `break` is
//! divergent where it is used after the loop (lanes left at different
//! iterations). A block is divergent if a non-uniform subset of the
//! invocations may run it; a loop is divergent if one of its `break`s or
//! `continue`s is. The analysis iterates to a fixed point (flags only ever
//! go from uniform to divergent).

use crate::nir::{is_divergent_source, is_uniform_result};
use crate::program::{Block, CfNode, Jump, Program, ValueId};

/// The result of [`analyze`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uniformity {
    /// Divergent values, indexed by value id.
    pub value: Vec<bool>,
    /// Divergent blocks, indexed by block id.
    pub block: Vec<bool>,
    /// Divergent loops, in program order (pre-order).
    pub loops: Vec<bool>,
}

impl Uniformity {
    /// Whether value `v` is divergent.
    pub fn value_divergent(&self, v: ValueId) -> bool {
        self.value.get(v.0 as usize).copied().unwrap_or(false)
    }
}

/// One loop's jumps, by its index in `Uniformity::loops`.
struct LoopState {
    divergent_break: bool,
    divergent_continue: bool,
}

struct Walk<'a> {
    u: &'a mut Uniformity,
    /// The innermost loop enclosing each value's definition, by value id.
    def_loop: Vec<Option<usize>>,
    /// The parent loop of each loop.
    loop_parent: Vec<Option<usize>>,
    loop_state: Vec<LoopState>,
    changed: bool,
    next_loop: usize,
}

/// Computes the uniformity of every value, block and loop of `p`.
pub fn analyze(p: &Program) -> Uniformity {
    let mut u = Uniformity {
        value: vec![false; p.value_bound()],
        block: vec![false; p.block_bound()],
        loops: Vec::new(),
    };
    let mut def_loop = vec![None; p.value_bound()];
    let mut loop_parent = Vec::new();
    index_loops(&p.body, None, &mut def_loop, &mut loop_parent);
    let n = loop_parent.len();
    u.loops = vec![false; n];
    let mut walk = Walk {
        u: &mut u,
        def_loop,
        loop_parent,
        loop_state: (0..n)
            .map(|_| LoopState {
                divergent_break: false,
                divergent_continue: false,
            })
            .collect(),
        changed: true,
        next_loop: 0,
    };
    while walk.changed {
        walk.changed = false;
        walk.next_loop = 0;
        walk.list(&p.body, false, false, &[]);
    }
    u
}

fn index_loops(
    list: &[CfNode],
    parent: Option<usize>,
    def_loop: &mut [Option<usize>],
    loop_parent: &mut Vec<Option<usize>>,
) {
    for node in list {
        match node {
            CfNode::Block(b) => {
                for p in &b.phis {
                    def_loop[p.dest.id.0 as usize] = parent;
                }
                for i in &b.instrs {
                    if let Some(d) = i.dest {
                        def_loop[d.id.0 as usize] = parent;
                    }
                }
            }
            CfNode::If(i) => {
                index_loops(&i.then_body, parent, def_loop, loop_parent);
                index_loops(&i.else_body, parent, def_loop, loop_parent);
            }
            CfNode::Loop(l) => {
                let me = loop_parent.len();
                loop_parent.push(parent);
                index_loops(&l.body, Some(me), def_loop, loop_parent);
            }
        }
    }
}

impl Walk<'_> {
    fn set(flag: &mut bool, changed: &mut bool) {
        if !*flag {
            *flag = true;
            *changed = true;
        }
    }

    /// Whether a use of `v` inside the loops `stack` sees a divergent value.
    fn src_divergent(&self, v: ValueId, stack: &[usize]) -> bool {
        if self.u.value_divergent(v) {
            return true;
        }
        // Leaving a loop by a divergent break makes the value differ.
        let mut l = self.def_loop.get(v.0 as usize).copied().flatten();
        while let Some(lp) = l {
            if stack.contains(&lp) {
                break;
            }
            if self.loop_state[lp].divergent_break {
                return true;
            }
            l = self.loop_parent[lp];
        }
        false
    }

    /// Walks a list. `divergent`: a non-uniform subset may run it;
    /// `rel`: divergent relative to the innermost loop's entry (so a jump
    /// here is a divergent jump). `join` on the first block: its phis merge
    /// lanes that arrived by different paths.
    fn list(&mut self, list: &[CfNode], divergent: bool, rel: bool, stack: &[usize]) {
        self.list_from(list, divergent, rel, stack, false)
    }

    fn list_from(
        &mut self,
        list: &[CfNode],
        mut divergent: bool,
        mut rel: bool,
        stack: &[usize],
        mut join: bool,
    ) {
        for node in list {
            match node {
                CfNode::Block(b) => {
                    self.block(b, divergent, rel, stack, join);
                    join = false;
                }
                CfNode::If(i) => {
                    let cond = self.src_divergent(i.cond, stack);
                    self.list(&i.then_body, divergent || cond, rel || cond, stack);
                    self.list(&i.else_body, divergent || cond, rel || cond, stack);
                    join = cond;
                    // Lanes that jumped out of a divergent if leave the rest
                    // of the loop body to a subset.
                    if cond
                        && !stack.is_empty()
                        && (has_jump(&i.then_body) || has_jump(&i.else_body))
                    {
                        divergent = true;
                        rel = true;
                    }
                }
                CfNode::Loop(l) => {
                    let me = self.next_loop;
                    self.next_loop += 1;
                    let mut inner = stack.to_vec();
                    inner.push(me);
                    let loop_div = {
                        let s = &self.loop_state[me];
                        s.divergent_break || s.divergent_continue
                    };
                    let cont = self.loop_state[me].divergent_continue;
                    self.list_from(&l.body, divergent || loop_div, false, &inner, cont);
                    let s = &self.loop_state[me];
                    let now = s.divergent_break || s.divergent_continue;
                    if now {
                        Self::set(&mut self.u.loops[me], &mut self.changed);
                    }
                    join = self.loop_state[me].divergent_break;
                }
            }
        }
    }

    fn block(&mut self, b: &Block, divergent: bool, rel: bool, stack: &[usize], join: bool) {
        if divergent {
            Self::set(&mut self.u.block[b.id.0 as usize], &mut self.changed);
        }
        for p in &b.phis {
            let d = join || p.srcs.iter().any(|(_, v)| self.src_divergent(*v, stack));
            if d {
                Self::set(&mut self.u.value[p.dest.id.0 as usize], &mut self.changed);
            }
        }
        for i in &b.instrs {
            let Some(dest) = i.dest else { continue };
            let d = if is_uniform_result(i.op) {
                false
            } else {
                is_divergent_source(i.op) || i.srcs.iter().any(|v| self.src_divergent(*v, stack))
            };
            if d {
                Self::set(&mut self.u.value[dest.id.0 as usize], &mut self.changed);
            }
        }
        if let (Some(j), true, Some(&l)) = (b.jump, rel, stack.last()) {
            let s = &mut self.loop_state[l];
            let flag = match j {
                Jump::Break => &mut s.divergent_break,
                Jump::Continue => &mut s.divergent_continue,
            };
            Self::set(flag, &mut self.changed);
        }
    }
}

/// Whether a list contains a break or continue of the enclosing loop.
fn has_jump(list: &[CfNode]) -> bool {
    list.iter().any(|n| match n {
        CfNode::Block(b) => b.jump.is_some(),
        CfNode::If(i) => has_jump(&i.then_body) || has_jump(&i.else_body),
        CfNode::Loop(_) => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_program;

    fn divergent_values(text: &str) -> (Vec<u32>, Vec<u32>, Vec<bool>) {
        let p = parse_program(text).unwrap();
        let u = analyze(&p);
        let vals = (0..u.value.len() as u32)
            .filter(|v| u.value[*v as usize])
            .collect();
        let blocks = (0..u.block.len() as u32)
            .filter(|b| u.block[*b as usize])
            .collect();
        (vals, blocks, u.loops)
    }

    #[test]
    fn identity_and_inputs_diverge_and_reductions_reconverge() {
        let text = "shader: t\ndecl_input 0 i32\ndecl_uniform 0 i32\ndecl_output 0 i32\n\
            impl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\
            \t32 %1 = @load_uniform () (slot=0)\n\t32 %2 = iadd %1, %1\n\
            \t32 %3 = iadd %0, %1\n\t32 %4 = @read_first_invocation (%3)\n\
            \t32 %5 = iadd %4, %2\n\t@store_output (%5) (slot=0)\n}\n";
        let (vals, blocks, loops) = divergent_values(text);
        assert_eq!(vals, vec![0, 3]);
        assert!(blocks.is_empty());
        assert!(loops.is_empty());
    }

    #[test]
    fn divergent_if_makes_its_blocks_and_merge_phi_divergent() {
        let text = "shader: t\ndecl_input 0 i32\ndecl_uniform 0 i32\ndecl_output 0 i32\n\
            impl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\
            \t32 %1 = @load_uniform () (slot=0)\n\t1 %2 = ilt %0, %1\n\
            \tif %2 {\n\t\tblock b1:\n\t} else {\n\t\tblock b2:\n\t}\n\
            \tblock b3:\n\t32 %3 = phi b1: %1, b2: %1\n\t@store_output (%3) (slot=0)\n}\n";
        let (vals, blocks, _) = divergent_values(text);
        assert_eq!(vals, vec![0, 2, 3]);
        assert_eq!(blocks, vec![1, 2]);
    }

    #[test]
    fn divergent_break_makes_the_loop_and_values_leaving_it_divergent() {
        // %3 counts iterations (uniform inside the loop: every lane still in
        // the loop is in the same iteration), but lanes leave at different
        // iterations, so %3 read after the loop, and the loop, diverge.
        let text = "shader: t\ndecl_input 0 i32\ndecl_output 0 i32\n\
            impl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\
            \t32 %1 = load_const (0x00000000)\n\t32 %2 = load_const (0x00000001)\n\
            \tloop {\n\t\tblock b1:\n\t\t32 %3 = phi b0: %1, b4: %4\n\
            \t\t1 %5 = ige %3, %0\n\t\tif %5 {\n\t\t\tblock b2:\n\t\t\tbreak\n\
            \t\t} else {\n\t\t\tblock b3:\n\t\t}\n\t\tblock b4:\n\
            \t\t32 %4 = iadd %3, %2\n\t}\n\tblock b5:\n\t32 %6 = iadd %3, %2\n\
            \t@store_output (%6) (slot=0)\n}\n";
        let (vals, blocks, loops) = divergent_values(text);
        assert_eq!(vals, vec![0, 5, 6]);
        assert_eq!(blocks, vec![1, 2, 3, 4]);
        assert_eq!(loops, vec![true]);
    }
}
