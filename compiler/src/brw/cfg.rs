//! Basic blocks of a [`VProgram`]'s instruction list.
//!
//! Blocks are split after every control-flow instruction (IF, ELSE, ENDIF,
//! WHILE, BREAK, CONT, HALT) and before every jump target. The edges are the
//! union of two views, so that every analysis built on them is conservative:
//!
//! * the **per-channel** view (where an individual channel can go next):
//!   IF → then-part and JIP (ELSE+1 or ENDIF); ELSE → ENDIF; BREAK → after
//!   its WHILE; CONT → its WHILE; WHILE → loop start and exit; HALT → the
//!   halt target;
//! * the **thread** view (where the instruction pointer can go next): every
//!   control-flow instruction may fall through (the ELSE falls into the
//!   else-part when channels wait for it) or jump to its JIP when no channel
//!   is left.
//!
//! Loops are the ranges `[WHILE.jip, WHILE]`.
//!
//! [`VProgram`]: crate::vir::VProgram

use crate::insts::Insts;
use crate::memo::{last_or, Last};
use eu::cf::{CfError, Skeleton};
use eu::{Instruction, Opcode};
use std::cell::RefCell;
use std::rc::Rc;

/// Everything [`Cfg::build`] reads of an instruction list: what the
/// control-flow analysis reads (its length and control-flow instructions,
/// [`Skeleton`]) and where the EOTs are.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Shape {
    skeleton: Skeleton,
    eots: Vec<usize>,
}

impl Shape {
    fn of(insts: &[Instruction]) -> Shape {
        Shape {
            skeleton: Skeleton::of(insts),
            eots: (0..insts.len()).filter(|&k| insts[k].eot).collect(),
        }
    }
}

/// What [`Cfg::build`] gives.
type Built = Result<Rc<Cfg>, CfError>;

thread_local! {
    /// The last CFG built on this thread, with the shape it was built for.
    static LAST: Last<Shape, Built> = const { RefCell::new(None) };
    /// The last CFG asked for by list identity ([`Cfg::of`]), with it.
    static LAST_LIST: Last<u64, Built> = const { RefCell::new(None) };
}

/// A block's predecessors or successors (two at most but for a join of
/// several arms and jumps: inline).
pub type Edges = smallvec::SmallVec<[usize; 2]>;

/// One basic block: instructions `[start, end)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// First instruction.
    pub start: usize,
    /// One past the last instruction.
    pub end: usize,
    /// Predecessor blocks.
    pub preds: Edges,
    /// Successor blocks.
    pub succs: Edges,
}

/// A loop: instructions `[start, end]`, `end` being the WHILE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loop {
    /// First instruction of the body (the WHILE's JIP).
    pub start: usize,
    /// The WHILE.
    pub end: usize,
}

/// The control-flow graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// Blocks in instruction order.
    pub blocks: Vec<Block>,
    /// The block of each instruction.
    pub block_of: Vec<usize>,
    /// Loops, in order of their WHILE.
    pub loops: Vec<Loop>,
}

impl Cfg {
    /// Builds the CFG. Jump targets come from the structure
    /// ([`eu::cf::analyze`]), so stale JIP/UIP fields do not matter; only
    /// WHILE JIPs and HALT UIPs are inputs.
    ///
    /// The CFG depends only on the number of instructions and on where the
    /// control-flow instructions and EOTs are (with WHILE JIPs and HALT
    /// UIPs); each thread keeps the last one built and hands it out again,
    /// and most passes do not move control flow.
    pub fn build(insts: &[Instruction]) -> Built {
        last_or(&LAST, Shape::of(insts), || {
            Cfg::build_uncached(insts).map(Rc::new)
        })
    }

    /// [`Cfg::build`] of a program's instruction list: the last answer on
    /// this thread is handed out again for the same list ([`Insts::id`]:
    /// equal identities mean equal lists) without looking at its shape.
    pub fn of(insts: &Insts) -> Built {
        last_or(&LAST_LIST, insts.id(), || Cfg::build(insts))
    }

    /// [`Cfg::build`] without the thread's memory.
    fn build_uncached(insts: &[Instruction]) -> Result<Cfg, CfError> {
        // Jump targets are asked for control-flow instructions only.
        let info = if eu::cf::has_control_flow(insts) {
            Some(eu::cf::analyze(insts)?)
        } else {
            None
        };
        let n = insts.len();
        // Successor instruction indices of each control-flow instruction.
        let targets = |i: usize| -> Edges {
            let j = info.as_ref().and_then(|f| f.jip[i]).map(|x| x as usize);
            let u = info.as_ref().and_then(|f| f.uip[i]).map(|x| x as usize);
            let mut t = Edges::new();
            t.push(i + 1);
            t.extend(j);
            match insts[i].op {
                Opcode::Break => t.extend(u.map(|w| w + 1)),
                Opcode::Cont | Opcode::Halt => t.extend(u),
                _ => {}
            }
            t.retain(|x| *x < n);
            t.sort_unstable();
            t.dedup();
            t
        };
        let mut leader = vec![false; n + 1];
        leader[0] = true;
        leader[n] = true;
        for (i, inst) in insts.iter().enumerate() {
            if inst.op.is_cf() {
                leader[i + 1] = true;
                for t in targets(i) {
                    leader[t] = true;
                }
            }
            if inst.eot {
                leader[i + 1] = true;
            }
        }
        let mut blocks = Vec::new();
        let mut block_of = vec![0; n];
        let mut start = 0;
        for i in 1..=n {
            if leader[i] {
                for b in &mut block_of[start..i] {
                    *b = blocks.len();
                }
                blocks.push(Block {
                    start,
                    end: i,
                    preds: Edges::new(),
                    succs: Edges::new(),
                });
                start = i;
            }
        }
        for b in 0..blocks.len() {
            let last = blocks[b].end - 1;
            let succ_insts = if insts[last].op.is_cf() {
                targets(last)
            } else if insts[last].eot || last + 1 >= n {
                Edges::new()
            } else {
                Edges::from_elem(last + 1, 1)
            };
            let mut succs: Edges = succ_insts.iter().map(|&t| block_of[t]).collect();
            succs.dedup();
            for &s in &succs {
                blocks[s].preds.push(b);
            }
            blocks[b].succs = succs;
        }
        let loops = insts
            .iter()
            .enumerate()
            .filter(|(_, i)| i.op == Opcode::While)
            .map(|(w, i)| Loop {
                start: i.jip.unwrap_or(0) as usize,
                end: w,
            })
            .collect();
        Ok(Cfg {
            blocks,
            block_of,
            loops,
        })
    }

    /// The CFG of the list after instructions were inserted into it, none
    /// of them control flow, an EOT or a jump target, each joining the
    /// block of the instruction it was inserted next to: the same blocks
    /// and edges, each block now starting where the first instruction
    /// inserted before its first one is (`new_index[k]`: the new index of
    /// what was inserted before old instruction k, or of k itself; block 0
    /// starts at 0), the list `len` long.
    pub(crate) fn with_insertions(&self, new_index: &[u32], len: usize) -> Cfg {
        let at = |k: usize| new_index[k] as usize;
        let starts: Vec<usize> = (0..self.blocks.len())
            .map(|b| if b == 0 { 0 } else { at(self.blocks[b].start) })
            .collect();
        let mut block_of = vec![0; len];
        let blocks = self
            .blocks
            .iter()
            .enumerate()
            .map(|(b, blk)| {
                let end = starts.get(b + 1).copied().unwrap_or(len);
                block_of[starts[b]..end].fill(b);
                Block {
                    start: starts[b],
                    end,
                    preds: blk.preds.clone(),
                    succs: blk.succs.clone(),
                }
            })
            .collect();
        let loops = self
            .loops
            .iter()
            .map(|l| Loop {
                start: at(l.start),
                end: at(l.end),
            })
            .collect();
        Cfg {
            blocks,
            block_of,
            loops,
        }
    }

    /// The innermost loop containing instruction `i`, if any.
    pub fn innermost_loop(&self, i: usize) -> Option<Loop> {
        self.loops
            .iter()
            .filter(|l| l.start <= i && i <= l.end)
            .min_by_key(|l| l.end - l.start)
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(text: &str) -> Rc<Cfg> {
        let mut p = eu::parse_program(text).unwrap();
        eu::resolve_control_flow(&mut p.insts).unwrap();
        Cfg::build(&p.insts).unwrap()
    }

    fn shape(c: &Cfg) -> Vec<(usize, usize, Vec<usize>)> {
        c.blocks
            .iter()
            .map(|b| (b.start, b.end, b.succs.to_vec()))
            .collect()
    }

    /// `Cfg::of` hands out the same CFG for the same list, and asks again
    /// once the list changed.
    #[test]
    fn a_list_keeps_its_cfg_until_it_changes() {
        let text = "mov(8) g2<1>UD 0x00000000UD\nL0:\nadd(8) g2<1>UD g2<8,8,1>UD 0x00000001UD\ncmp.l.f0.0(8) null<1>UD g2<8,8,1>UD 0x00000005UD\n(+f0.0) while(8) JIP: L0\nsend(8) null g0 end { align1 1Q EOT };";
        let mut p = eu::parse_program(text).unwrap();
        eu::resolve_control_flow(&mut p.insts).unwrap();
        let mut list = Insts::from(p.insts);
        let a = Cfg::of(&list).unwrap();
        assert!(Rc::ptr_eq(&Cfg::of(&list).unwrap(), &a));
        assert_eq!(*a, Cfg::build_uncached(&list).unwrap());
        // The loop taken out: another list, another CFG.
        list.remove(3);
        let b = Cfg::of(&list).unwrap();
        assert_eq!(*b, Cfg::build_uncached(&list).unwrap());
        assert_eq!((a.loops.len(), b.loops.len()), (1, 0));
    }

    #[test]
    fn the_same_shape_gets_the_same_cfg_and_another_shape_its_own() {
        let text = "mov(8) g2<1>UD 0x00000000UD\nL0:\ncmp.z.f0.0(8) null<1>UD g2<8,8,1>UD 0x00000005UD\n(+f0.0) break(8) JIP: L1 UIP: L1\n(+f0.0) cont(8) JIP: L1 UIP: L1\nadd(8) g2<1>UD g2<8,8,1>UD 0x00000001UD\nL1:\n(+f0.0) while(8) JIP: L0\nsend(8) null g0 end { align1 1Q EOT };";
        let mut p = eu::parse_program(text).unwrap();
        eu::resolve_control_flow(&mut p.insts).unwrap();
        let a = Cfg::build(&p.insts).unwrap();
        // Another ALU instruction in the body: the same shape.
        p.insts[4] = p.insts[0];
        assert!(Rc::ptr_eq(&Cfg::build(&p.insts).unwrap(), &a));
        assert_eq!(Cfg::build_uncached(&p.insts).unwrap(), *a);
        // Without the CONT: a block less.
        p.insts.remove(3);
        eu::resolve_control_flow(&mut p.insts).unwrap();
        let b = Cfg::build(&p.insts).unwrap();
        assert_eq!(*b, Cfg::build_uncached(&p.insts).unwrap());
        assert_eq!(b.blocks.len(), a.blocks.len() - 1);
    }

    #[test]
    fn straight_line_is_one_block() {
        let c = cfg("mov(8) g2<1>UD 0x00000001UD\nsend(8) null g0 end { align1 1Q EOT };");
        assert_eq!(shape(&c), vec![(0, 2, vec![])]);
        assert!(c.loops.is_empty());
    }

    #[test]
    fn if_else_endif() {
        // 0 mov | 1 if | 2 mov | 3 else | 4 mov | 5 endif | 6 send
        let c = cfg("mov.nz.f0.0(8) null<1>UD g2<8,8,1>UD\n(+f0.0) if(8) JIP: L0 UIP: L1\nmov(8) g3<1>UD 0x00000001UD\nelse(8) JIP: L1 UIP: L1\nL0:\nmov(8) g3<1>UD 0x00000002UD\nL1:\nendif(8) JIP: L2\nL2:\nsend(8) null g0 end { align1 1Q EOT };");
        // Blocks: [0,2) [2,4) [4,5) [5,6) [6,7)
        assert_eq!(
            shape(&c),
            vec![
                (0, 2, vec![1, 2]),
                (2, 4, vec![2, 3]),
                (4, 5, vec![3]),
                (5, 6, vec![4]),
                (6, 7, vec![])
            ]
        );
        assert_eq!(c.blocks[3].preds.to_vec(), vec![1, 2]);
        assert_eq!(c.block_of, vec![0, 0, 1, 1, 2, 3, 4]);
    }

    #[test]
    fn loop_with_break_and_cont() {
        // 0 mov | 1 cmp | 2 (+) break | 3 (+) cont | 4 add | 5 (+) while | 6 send
        let c = cfg("mov(8) g2<1>UD 0x00000000UD\nL0:\ncmp.z.f0.0(8) null<1>UD g2<8,8,1>UD 0x00000005UD\n(+f0.0) break(8) JIP: L1 UIP: L1\n(+f0.0) cont(8) JIP: L1 UIP: L1\nadd(8) g2<1>UD g2<8,8,1>UD 0x00000001UD\nL1:\n(+f0.0) while(8) JIP: L0\nsend(8) null g0 end { align1 1Q EOT };");
        // Blocks: [0,1) [1,3) [3,4) [4,5) [5,6) [6,7)
        assert_eq!(
            shape(&c),
            vec![
                (0, 1, vec![1]),
                (1, 3, vec![2, 4, 5]),
                (3, 4, vec![3, 4]),
                (4, 5, vec![4]),
                (5, 6, vec![1, 5]),
                (6, 7, vec![])
            ]
        );
        assert_eq!(c.loops, vec![Loop { start: 1, end: 5 }]);
        assert_eq!(c.innermost_loop(3), Some(Loop { start: 1, end: 5 }));
        assert_eq!(c.innermost_loop(6), None);
    }
}
