//! Programs: SSA values in structured control flow, as NIR has them.
//!
//! A control-flow list alternates blocks and `if`/`loop` nodes and always
//! starts and ends with a block. Phis sit at the start of a block and name
//! their predecessor blocks. `break` and `continue` end the last block of a
//! list inside a loop.

use crate::op::Op;
use crate::types::SlotType;
use std::fmt;

/// An SSA value (`%N` in text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// A block (`bN` in text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl fmt::Display for ValueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}", self.0)
    }
}

/// The definition of a value: its id and bit size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Def {
    /// The value defined.
    pub id: ValueId,
    /// Its bit size (1, 8, 16, 32 or 64).
    pub bits: u8,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    /// The op.
    pub op: Op,
    /// The value defined, for every op but `store_output`.
    pub dest: Option<Def>,
    /// The sources, in the order of the op table.
    pub srcs: Vec<ValueId>,
    /// The constant of `load_const`, or the slot of an I/O op; 0 otherwise.
    pub imm: u64,
}

/// A phi: the value of `dest` is the source named by the predecessor block
/// the lane came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phi {
    /// The value defined.
    pub dest: Def,
    /// One source per predecessor block.
    pub srcs: Vec<(BlockId, ValueId)>,
}

/// A jump at the end of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Jump {
    /// Leave the innermost loop.
    Break,
    /// Go to the next iteration of the innermost loop.
    Continue,
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// Its id.
    pub id: BlockId,
    /// Phis, evaluated together on entry.
    pub phis: Vec<Phi>,
    /// The instructions, in order.
    pub instrs: Vec<Instr>,
    /// An optional jump after the instructions.
    pub jump: Option<Jump>,
}

/// An `if` node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct If {
    /// The 1-bit condition, defined before the `if`.
    pub cond: ValueId,
    /// Run by lanes whose condition is true.
    pub then_body: Vec<CfNode>,
    /// Run by lanes whose condition is false.
    pub else_body: Vec<CfNode>,
}

/// A `loop` node: runs its body until every lane has broken out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loop {
    /// The body; its first block is the loop header.
    pub body: Vec<CfNode>,
}

/// A node of a control-flow list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CfNode {
    /// A block.
    Block(Block),
    /// An if/else.
    If(If),
    /// A loop.
    Loop(Loop),
}

/// A whole shader.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Program {
    /// Comment lines (without `//`) printed before the header.
    pub comments: Vec<String>,
    /// The shader's name.
    pub name: String,
    /// Input slot types, by slot.
    pub inputs: Vec<SlotType>,
    /// Uniform slot types, by slot.
    pub uniforms: Vec<SlotType>,
    /// Output slot types, by slot.
    pub outputs: Vec<SlotType>,
    /// The body of `impl main`.
    pub body: Vec<CfNode>,
}

impl Program {
    /// The first instruction, in program order, for which `f` holds.
    pub fn find_instr(&self, f: impl Fn(&Instr) -> bool) -> Option<&Instr> {
        let mut found = None;
        self.for_each_block(&mut |b| {
            if found.is_none() {
                found = b.instrs.iter().find(|&i| f(i));
            }
        });
        found
    }

    /// The constant `v` holds, if a `load_const` defines it.
    pub fn const_value(&self, v: ValueId) -> Option<u64> {
        self.find_instr(|i| i.op == Op::LoadConst && i.dest.is_some_and(|d| d.id == v))
            .map(|i| i.imm)
    }

    /// Calls `f` on every block, in program order.
    pub fn for_each_block<'a>(&'a self, f: &mut impl FnMut(&'a Block)) {
        fn walk<'a>(list: &'a [CfNode], f: &mut impl FnMut(&'a Block)) {
            for n in list {
                match n {
                    CfNode::Block(b) => f(b),
                    CfNode::If(i) => {
                        walk(&i.then_body, f);
                        walk(&i.else_body, f);
                    }
                    CfNode::Loop(l) => walk(&l.body, f),
                }
            }
        }
        walk(&self.body, f)
    }

    /// Calls `f` on every block mutably, in program order.
    pub fn for_each_block_mut(&mut self, f: &mut impl FnMut(&mut Block)) {
        fn walk(list: &mut [CfNode], f: &mut impl FnMut(&mut Block)) {
            for n in list {
                match n {
                    CfNode::Block(b) => f(b),
                    CfNode::If(i) => {
                        walk(&mut i.then_body, f);
                        walk(&mut i.else_body, f);
                    }
                    CfNode::Loop(l) => walk(&mut l.body, f),
                }
            }
        }
        walk(&mut self.body, f)
    }

    /// Calls `f` on every value the program reads: phi sources, instruction
    /// sources and `if` conditions, in program order.
    pub fn for_each_use(&self, f: &mut impl FnMut(ValueId)) {
        fn walk(list: &[CfNode], f: &mut impl FnMut(ValueId)) {
            for n in list {
                match n {
                    CfNode::Block(b) => {
                        b.phis.iter().flat_map(|p| &p.srcs).for_each(|(_, v)| f(*v));
                        b.instrs.iter().flat_map(|i| &i.srcs).for_each(|v| f(*v));
                    }
                    CfNode::If(i) => {
                        f(i.cond);
                        walk(&i.then_body, f);
                        walk(&i.else_body, f);
                    }
                    CfNode::Loop(l) => walk(&l.body, f),
                }
            }
        }
        walk(&self.body, f)
    }

    /// Calls `f` on every value use, to read or replace it: instruction
    /// sources, phi sources and `if` conditions, in program order.
    pub fn for_each_use_mut(&mut self, f: &mut impl FnMut(&mut ValueId)) {
        fn walk(list: &mut [CfNode], f: &mut impl FnMut(&mut ValueId)) {
            for n in list {
                match n {
                    CfNode::Block(b) => {
                        b.phis
                            .iter_mut()
                            .flat_map(|p| &mut p.srcs)
                            .for_each(|(_, v)| f(v));
                        b.instrs
                            .iter_mut()
                            .flat_map(|i| &mut i.srcs)
                            .for_each(&mut *f);
                    }
                    CfNode::If(i) => {
                        f(&mut i.cond);
                        walk(&mut i.then_body, f);
                        walk(&mut i.else_body, f);
                    }
                    CfNode::Loop(l) => walk(&mut l.body, f),
                }
            }
        }
        walk(&mut self.body, f)
    }

    /// The number of instructions (phis included, jumps excluded).
    pub fn num_instrs(&self) -> usize {
        let mut n = 0;
        self.for_each_block(&mut |b| n += b.phis.len() + b.instrs.len());
        n
    }

    /// One past the largest value id, for tables indexed by value.
    pub fn value_bound(&self) -> usize {
        let mut m = 0;
        self.for_each_block(&mut |b| {
            for p in &b.phis {
                m = m.max(p.dest.id.0 as usize + 1);
            }
            for i in &b.instrs {
                if let Some(d) = i.dest {
                    m = m.max(d.id.0 as usize + 1);
                }
            }
        });
        m
    }

    /// One past the largest block id.
    pub fn block_bound(&self) -> usize {
        let mut m = 0;
        self.for_each_block(&mut |b| m = m.max(b.id.0 as usize + 1));
        m
    }

    /// Bit size of every defined value, indexed by id (0 if undefined).
    pub fn value_bits(&self) -> Vec<u8> {
        let mut bits = vec![0u8; self.value_bound()];
        self.for_each_block(&mut |b| {
            for p in &b.phis {
                bits[p.dest.id.0 as usize] = p.dest.bits;
            }
            for i in &b.instrs {
                if let Some(d) = i.dest {
                    bits[d.id.0 as usize] = d.bits;
                }
            }
        });
        bits
    }
}
