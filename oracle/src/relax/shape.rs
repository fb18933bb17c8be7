//! Static facts about a program's control flow that the relaxed run needs:
//! a number for each `if` and loop, whether an `if` can be left by
//! `break`/`continue` of an enclosing loop, and which output slots a store
//! reachable from an `if` could write.

use ir::{Block, CfNode, If, Loop, Op, Program};
use std::collections::HashMap;

/// Facts about one `if`.
#[derive(Clone, Debug)]
pub(crate) struct IfFacts {
    /// Its number (distinct from every other `if` and loop).
    pub id: u32,
    /// Some block in it (outside nested loops) ends in `break`/`continue`.
    pub escapes: bool,
    /// The output slots of every store reachable from its entry (in it,
    /// after it, and in the rest of every enclosing loop).
    pub reach: Vec<usize>,
}

/// The facts, keyed by node address (the program is borrowed for the run).
#[derive(Debug, Default)]
pub(crate) struct Shape {
    ifs: HashMap<*const If, IfFacts>,
    loops: HashMap<*const Loop, u32>,
    /// The program has a subgroup op (something that can be tangled).
    pub tangled_ops: bool,
}

type Slots = Vec<bool>;

fn union(a: &mut Slots, b: &Slots) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= *y;
    }
}

fn block_stores(b: &Block, s: &mut Slots) {
    for i in b.instrs.iter().filter(|i| i.op == Op::StoreOutput) {
        s[i.imm as usize] = true;
    }
}

/// The slots stored anywhere in a list.
fn stores(list: &[CfNode], n: usize) -> Slots {
    let mut s = vec![false; n];
    for node in list {
        match node {
            CfNode::Block(b) => block_stores(b, &mut s),
            CfNode::If(f) => {
                union(&mut s, &stores(&f.then_body, n));
                union(&mut s, &stores(&f.else_body, n));
            }
            CfNode::Loop(l) => union(&mut s, &stores(&l.body, n)),
        }
    }
    s
}

/// Whether a list (outside nested loops) has a block ending in a jump.
fn jumps(list: &[CfNode]) -> bool {
    list.iter().any(|node| match node {
        CfNode::Block(b) => b.jump.is_some(),
        CfNode::If(f) => jumps(&f.then_body) || jumps(&f.else_body),
        CfNode::Loop(_) => false,
    })
}

impl Shape {
    /// The facts of a program.
    pub(crate) fn of(p: &Program) -> Shape {
        let mut shape = Shape::default();
        let n = p.outputs.len();
        let mut next = 0u32;
        shape.visit(&p.body, &vec![false; n], n, &mut next);
        p.for_each_block(&mut |b| {
            shape.tangled_ops |= b.instrs.iter().any(|i| i.op.is_cross_invocation());
        });
        shape
    }

    /// Visits a list whose end is followed by stores to `cont`.
    fn visit(&mut self, list: &[CfNode], cont: &Slots, n: usize, next: &mut u32) {
        let own: Vec<Slots> = list
            .iter()
            .map(|node| stores(std::slice::from_ref(node), n))
            .collect();
        // after[i]: the slots stored after node i (to the list's end, then cont).
        let mut after = vec![cont.clone(); list.len()];
        for i in (0..list.len().saturating_sub(1)).rev() {
            let mut s = after[i + 1].clone();
            union(&mut s, &own[i + 1]);
            after[i] = s;
        }
        for (i, node) in list.iter().enumerate() {
            match node {
                CfNode::Block(_) => {}
                CfNode::If(f) => {
                    let mut reach = own[i].clone();
                    union(&mut reach, &after[i]);
                    let facts = IfFacts {
                        id: *next,
                        escapes: jumps(&f.then_body) || jumps(&f.else_body),
                        reach: (0..n).filter(|&k| reach[k]).collect(),
                    };
                    *next += 1;
                    self.ifs.insert(std::ptr::from_ref(f), facts);
                    self.visit(&f.then_body, &after[i], n, next);
                    self.visit(&f.else_body, &after[i], n, next);
                }
                CfNode::Loop(l) => {
                    self.loops.insert(std::ptr::from_ref(l), *next);
                    *next += 1;
                    // The body's end is followed by the next iteration and
                    // then by what follows the loop.
                    let mut body_cont = own[i].clone();
                    union(&mut body_cont, &after[i]);
                    self.visit(&l.body, &body_cont, n, next);
                }
            }
        }
    }

    /// The facts of an `if` of the program.
    pub(crate) fn of_if(&self, f: &If) -> &IfFacts {
        &self.ifs[&std::ptr::from_ref(f)]
    }

    /// The number of a loop of the program.
    pub(crate) fn loop_id(&self, l: &Loop) -> u32 {
        self.loops[&std::ptr::from_ref(l)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_and_escapes() {
        let text = "shader: t
decl_input 0 i32
decl_output 0 i32
decl_output 1 i32
decl_output 2 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	1 %2 = ieq %0, %1
	loop {
		block b1:
		@store_output (%0) (slot=0)
		if %2 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		if %2 {
			block b5:
			@store_output (%0) (slot=1)
		} else {
			block b6:
		}
		block b7:
	}
	block b8:
	if %2 {
		block b9:
	} else {
		block b10:
	}
	block b11:
	@store_output (%0) (slot=2)
}
";
        let p = ir::parse_program(text).unwrap();
        let s = Shape::of(&p);
        let CfNode::Loop(l) = &p.body[1] else {
            panic!()
        };
        let (CfNode::If(first), CfNode::If(second)) = (&l.body[1], &l.body[3]) else {
            panic!()
        };
        let CfNode::If(last) = &p.body[3] else {
            panic!()
        };
        // Inside the loop everything is reachable (the next iteration and
        // what follows the loop); after the loop only slot 2.
        assert!(s.of_if(first).escapes);
        assert_eq!(s.of_if(first).reach, vec![0, 1, 2]);
        assert!(!s.of_if(second).escapes);
        assert_eq!(s.of_if(second).reach, vec![0, 1, 2]);
        assert!(!s.of_if(last).escapes);
        assert_eq!(s.of_if(last).reach, vec![2]);
        assert_eq!(s.loop_id(l), 0);
        assert_eq!(s.of_if(first).id, 1);
    }
}
