//! A builder for programs, used by tests, the generator and the reducer.
//!
//! It keeps NIR's structural invariants by construction: every list starts
//! and ends with a block, and `if`/`loop` nodes are separated by blocks.

use crate::op::{Op, Sig};
use crate::program::{Block, BlockId, CfNode, Def, If, Instr, Jump, Loop, Phi, Program, ValueId};
use crate::types::SlotType;
use crate::validate::{validate, ValidationError};

enum FrameKind {
    Root,
    Then {
        cond: ValueId,
    },
    Else {
        cond: ValueId,
        then_body: Vec<CfNode>,
    },
    Loop,
}

struct Frame {
    kind: FrameKind,
    list: Vec<CfNode>,
}

/// A handle to a phi whose sources are set later (loop-header phis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhiHandle {
    block: BlockId,
    index: usize,
    /// The phi's value.
    pub value: ValueId,
}

/// Builds a [`Program`].
pub struct Builder {
    program: Program,
    stack: Vec<Frame>,
    next_value: u32,
    next_block: u32,
    bits: Vec<u8>,
    late_phis: Vec<(PhiHandle, Vec<(BlockId, ValueId)>)>,
}

impl Builder {
    /// A builder for an empty program named `name`, positioned in its entry block.
    pub fn new(name: &str) -> Builder {
        let mut b = Builder {
            program: Program {
                name: name.to_string(),
                ..Program::default()
            },
            stack: vec![Frame {
                kind: FrameKind::Root,
                list: vec![],
            }],
            next_value: 0,
            next_block: 0,
            bits: vec![],
            late_phis: vec![],
        };
        b.open_block();
        b
    }

    /// Declares the next input slot.
    pub fn declare_input(&mut self, ty: SlotType) -> u64 {
        self.program.inputs.push(ty);
        self.program.inputs.len() as u64 - 1
    }

    /// Declares the next uniform slot.
    pub fn declare_uniform(&mut self, ty: SlotType) -> u64 {
        self.program.uniforms.push(ty);
        self.program.uniforms.len() as u64 - 1
    }

    /// Declares the next output slot.
    pub fn declare_output(&mut self, ty: SlotType) -> u64 {
        self.program.outputs.push(ty);
        self.program.outputs.len() as u64 - 1
    }

    /// Adds a comment line printed before the header.
    pub fn comment(&mut self, line: &str) {
        self.program.comments.push(line.to_string());
    }

    /// The bit size of a value made by this builder (0 if unknown).
    pub fn bits_of(&self, v: ValueId) -> u8 {
        self.bits.get(v.0 as usize).copied().unwrap_or(0)
    }

    /// The block instructions are currently appended to.
    pub fn current_block(&self) -> BlockId {
        match self.frame().list.last() {
            Some(CfNode::Block(b)) => b.id,
            _ => unreachable!("the current list always ends with an open block"),
        }
    }

    /// The last instruction of the current block, if it has any.
    pub fn last_instr(&self) -> Option<&Instr> {
        match self.frame().list.last() {
            Some(CfNode::Block(b)) => b.instrs.last(),
            _ => None,
        }
    }

    fn frame(&self) -> &Frame {
        self.stack.last().expect("the root frame is never popped")
    }

    fn block_mut(&mut self) -> &mut Block {
        match self.stack.last_mut().and_then(|f| f.list.last_mut()) {
            Some(CfNode::Block(b)) => b,
            _ => unreachable!("the current list always ends with an open block"),
        }
    }

    fn open_block(&mut self) {
        let id = BlockId(self.next_block);
        self.next_block += 1;
        let frame = self
            .stack
            .last_mut()
            .expect("the root frame is never popped");
        frame.list.push(CfNode::Block(Block {
            id,
            phis: vec![],
            instrs: vec![],
            jump: None,
        }));
    }

    fn new_value(&mut self, bits: u8) -> ValueId {
        let id = ValueId(self.next_value);
        self.next_value += 1;
        self.bits.push(bits);
        id
    }

    /// Appends an instruction with an explicit result size; returns its value.
    pub fn push(&mut self, op: Op, bits: u8, srcs: &[ValueId], imm: u64) -> ValueId {
        let id = self.new_value(bits);
        let instr = Instr {
            op,
            dest: Some(Def { id, bits }),
            srcs: srcs.to_vec(),
            imm,
        };
        self.block_mut().instrs.push(instr);
        id
    }

    /// Appends an ALU op with an explicit result size.
    pub fn alu_sized(&mut self, op: Op, bits: u8, srcs: &[ValueId]) -> ValueId {
        self.push(op, bits, srcs, 0)
    }

    /// Appends an ALU or subgroup op, inferring the result size: the sources'
    /// size for same-size ops, 1 for comparisons, 32 for 32-bit ops, and for
    /// conversions the single size they produce or else the source's size.
    pub fn alu(&mut self, op: Op, srcs: &[ValueId]) -> ValueId {
        let first = srcs.first().map_or(32, |&v| self.bits_of(v));
        let bits = match op.info().sig {
            Sig::Same { .. } | Sig::Indexed { .. } => first,
            Sig::Select { .. } => srcs.get(1).map_or(32, |&v| self.bits_of(v)),
            Sig::Compare { .. } => 1,
            Sig::Fixed32 { .. } => 32,
            Sig::Convert { to, .. } => {
                let sizes: Vec<u8> = to.sizes().collect();
                if sizes.len() == 1 {
                    sizes[0]
                } else if to.contains(first) {
                    first
                } else {
                    sizes[sizes.len() - 1].min(32)
                }
            }
            Sig::Nullary { sizes } => sizes.sizes().find(|&b| b == 32).unwrap_or(1),
            Sig::LoadSlot | Sig::StoreSlot | Sig::Effect => 32,
        };
        self.push(op, bits, srcs, 0)
    }

    /// Appends a constant.
    pub fn constant(&mut self, bits: u8, value: u64) -> ValueId {
        self.push(Op::LoadConst, bits, &[], value & crate::types::mask(bits))
    }

    /// Loads input slot `slot` (declared before).
    pub fn load_input(&mut self, slot: u64) -> ValueId {
        let bits = self
            .program
            .inputs
            .get(slot as usize)
            .map_or(32, |t| t.bits());
        self.push(Op::LoadInput, bits, &[], slot)
    }

    /// Loads uniform slot `slot` (declared before).
    pub fn load_uniform(&mut self, slot: u64) -> ValueId {
        let bits = self
            .program
            .uniforms
            .get(slot as usize)
            .map_or(32, |t| t.bits());
        self.push(Op::LoadUniform, bits, &[], slot)
    }

    /// Stores `v` to output slot `slot`.
    pub fn store_output(&mut self, slot: u64, v: ValueId) {
        let instr = Instr {
            op: Op::StoreOutput,
            dest: None,
            srcs: vec![v],
            imm: slot,
        };
        self.block_mut().instrs.push(instr);
    }

    /// Appends an op with neither sources nor a result (`demote`, `terminate`).
    pub fn effect(&mut self, op: Op) {
        let instr = Instr {
            op,
            dest: None,
            srcs: vec![],
            imm: 0,
        };
        self.block_mut().instrs.push(instr);
    }

    /// Adds a phi to the current block with all its sources.
    pub fn phi(&mut self, bits: u8, srcs: &[(BlockId, ValueId)]) -> ValueId {
        let id = self.new_value(bits);
        self.block_mut().phis.push(Phi {
            dest: Def { id, bits },
            srcs: srcs.to_vec(),
        });
        id
    }

    /// Adds a phi whose sources are given later with [`Builder::set_phi_srcs`]
    /// (for loop headers, whose back-edge values do not exist yet).
    pub fn phi_placeholder(&mut self, bits: u8) -> PhiHandle {
        let value = self.phi(bits, &[]);
        let block = self.current_block();
        let index = self.block_mut().phis.len() - 1;
        PhiHandle {
            block,
            index,
            value,
        }
    }

    /// Sets the sources of a placeholder phi (applied at `finish`).
    pub fn set_phi_srcs(&mut self, h: PhiHandle, srcs: &[(BlockId, ValueId)]) {
        self.late_phis.push((h, srcs.to_vec()));
    }

    /// Ends the current block with `if cond`, and opens the then-arm.
    pub fn begin_if(&mut self, cond: ValueId) {
        self.stack.push(Frame {
            kind: FrameKind::Then { cond },
            list: vec![],
        });
        self.open_block();
    }

    /// Closes the then-arm and opens the else-arm.
    pub fn begin_else(&mut self) {
        let f = self.stack.pop().expect("begin_else after begin_if");
        let FrameKind::Then { cond } = f.kind else {
            panic!("begin_else without a matching begin_if");
        };
        self.stack.push(Frame {
            kind: FrameKind::Else {
                cond,
                then_body: f.list,
            },
            list: vec![],
        });
        self.open_block();
    }

    /// Closes the if (opening an empty else-arm if none was opened) and opens
    /// the block after it.
    pub fn end_if(&mut self) {
        if matches!(self.frame().kind, FrameKind::Then { .. }) {
            self.begin_else();
        }
        let f = self.stack.pop().expect("end_if after begin_if");
        let FrameKind::Else { cond, then_body } = f.kind else {
            panic!("end_if without a matching begin_if");
        };
        let node = CfNode::If(If {
            cond,
            then_body,
            else_body: f.list,
        });
        self.stack.last_mut().expect("root").list.push(node);
        self.open_block();
    }

    /// Opens a loop; the current block becomes its header.
    pub fn begin_loop(&mut self) {
        self.stack.push(Frame {
            kind: FrameKind::Loop,
            list: vec![],
        });
        self.open_block();
    }

    /// Closes the innermost loop and opens the block after it.
    pub fn end_loop(&mut self) {
        let f = self.stack.pop().expect("end_loop after begin_loop");
        assert!(
            matches!(f.kind, FrameKind::Loop),
            "end_loop without a matching begin_loop"
        );
        self.stack
            .last_mut()
            .expect("root")
            .list
            .push(CfNode::Loop(Loop { body: f.list }));
        self.open_block();
    }

    /// Ends the current block with a jump. Nothing may be added to this list
    /// afterwards (the validator reports it if something is).
    pub fn jump(&mut self, j: Jump) {
        self.block_mut().jump = Some(j);
    }

    /// Whether the current block already ends with a jump.
    pub fn current_block_jumps(&self) -> bool {
        matches!(self.frame().list.last(), Some(CfNode::Block(b)) if b.jump.is_some())
    }

    /// The depth of open ifs and loops.
    pub fn depth(&self) -> usize {
        self.stack.len() - 1
    }

    /// Whether some enclosing construct is a loop.
    pub fn in_loop(&self) -> bool {
        self.stack.iter().any(|f| matches!(f.kind, FrameKind::Loop))
    }

    /// Finishes and validates the program.
    pub fn finish(self) -> Result<Program, ValidationError> {
        let p = self.finish_unchecked();
        validate(&p)?;
        Ok(p)
    }

    /// Finishes without validating (closing any open constructs).
    pub fn finish_unchecked(mut self) -> Program {
        while self.stack.len() > 1 {
            match self.frame().kind {
                FrameKind::Loop => self.end_loop(),
                _ => self.end_if(),
            }
        }
        let late = std::mem::take(&mut self.late_phis);
        let mut program = std::mem::take(&mut self.program);
        program.body = std::mem::take(&mut self.stack[0].list);
        for (h, srcs) in late {
            program.for_each_block_mut(&mut |b| {
                if b.id == h.block {
                    if let Some(p) = b.phis.get_mut(h.index) {
                        p.srcs = srcs.clone();
                    }
                }
            });
        }
        program
    }
}
