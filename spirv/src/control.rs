//! Structured control flow: IR blocks, `if` and `loop` nodes and phis as
//! SPIR-V blocks with `OpSelectionMerge`/`OpLoopMerge`.
//!
//! An IR block is one SPIR-V block (its label `%bN`), ending in:
//! - before an `if`: `OpSelectionMerge %m` + `OpBranchConditional`, where
//!   `%m` is the block after the `if` (a list never ends with a node, so it
//!   exists, and IR validation guarantees it is reachable);
//! - before a `loop`: a branch to the loop's header block;
//! - at the end of a list: `break` -> the loop's merge block, `continue` ->
//!   its continue target, falling off an arm -> the `if`'s merge block,
//!   falling off a loop body -> the continue target (a back edge), falling
//!   off `main` -> `OpReturn`.
//!
//! A loop becomes three parts. The header block `%bN` (N = the IR header)
//! holds the header's phis and `OpLoopMerge`, so that the IR header may
//! itself end in a selection (SPIR-V forbids two merge instructions in one
//! block); it branches to `%bN_body`, the IR header's instructions. The
//! continue target `%bN_continue` takes every back edge (each `continue`
//! and the fall-through end of the body) and branches back to `%bN`; where
//! several back edges bring different values for a header phi, a phi in the
//! continue target (`%vK_next`) merges them. With no back edge the continue
//! target is unreachable and the header phis take `OpUndef` from it. The
//! block after the loop is its merge block, reached by the `break`s.
//!
//! Every IR edge therefore leaves the SPIR-V block of its source IR block
//! (a loop header's is `%bN_body`), so phis name the same predecessors as
//! in the IR, with back edges folded into the continue target.

use crate::emit::{Emitter, View};
use crate::mapping;
use crate::ExportError;
use ir::{Block, BlockId, CfNode, Jump, Loop, Phi};
use rspirv::dr::Operand;
use rspirv::spirv::{LoopControl, SelectionControl, Word};

/// Where control goes when a list falls off its end.
#[derive(Clone, Copy)]
enum Exit {
    /// The end of `main`.
    Return,
    /// An `if` arm: the `if`'s merge block.
    Merge(Word),
    /// A loop body: the continue target (a back edge).
    Continue(Word),
}

/// The innermost loop's targets.
#[derive(Clone, Copy)]
struct LoopTargets {
    merge: Word,
    cont: Word,
}

impl Emitter<'_> {
    /// Emits `main`'s body: every block, after the I/O prologue in the entry.
    pub(crate) fn emit_body(&mut self) -> Result<(), ExportError> {
        self.allocate_labels();
        let body = &self.p.body;
        self.emit_list(body, Exit::Return, None, true)
    }

    /// Gives every IR block its label, and loop headers their second one.
    fn allocate_labels(&mut self) {
        let mut blocks = Vec::new();
        self.p.for_each_block(&mut |b| blocks.push(b.id));
        for id in blocks {
            let l = self.b.id();
            self.labels.insert(id, l);
            self.b.name(l, format!("b{}", id.0));
        }
        let mut headers = Vec::new();
        collect_headers(&self.p.body, &mut headers);
        for id in headers {
            let l = self.b.id();
            self.body_labels.insert(id, l);
            self.b.name(l, format!("b{}_body", id.0));
        }
    }

    /// The label branched to when entering an IR block.
    fn label(&self, id: BlockId) -> Word {
        *self.labels.get(id).expect("every block has a label")
    }

    /// The label of the SPIR-V block whose terminator ends an IR block: the
    /// predecessor a phi names for an edge leaving it.
    fn exit_label(&self, id: BlockId) -> Word {
        self.body_labels
            .get(id)
            .copied()
            .unwrap_or_else(|| self.label(id))
    }

    fn emit_list(
        &mut self,
        list: &[CfNode],
        exit: Exit,
        lp: Option<LoopTargets>,
        is_main: bool,
    ) -> Result<(), ExportError> {
        for (k, node) in list.iter().enumerate() {
            match node {
                CfNode::Block(b) => {
                    // A loop body's first block is the IR header: its phis are
                    // in the loop header block, its instructions in `_body`.
                    let header = k == 0 && self.body_labels.get(b.id).is_some();
                    let label = if header {
                        self.exit_label(b.id)
                    } else {
                        self.label(b.id)
                    };
                    self.b.begin_block(Some(label))?;
                    if is_main && k == 0 {
                        self.io_prologue()?;
                    }
                    if !header {
                        self.emit_phis(&b.phis)?;
                    }
                    self.emit_instrs(b)?;
                    self.terminate(b, list, k, exit, lp)?;
                }
                CfNode::If(f) => {
                    let merge = self.merge_after(list, k)?;
                    let targets = Exit::Merge(merge);
                    self.emit_list(&f.then_body, targets, lp, false)?;
                    self.emit_list(&f.else_body, targets, lp, false)?;
                }
                CfNode::Loop(l) => {
                    let merge = self.merge_after(list, k)?;
                    let entry = match k.checked_sub(1).map(|j| &list[j]) {
                        Some(CfNode::Block(p)) => p.id,
                        _ => return Err(internal("a loop must follow a block")),
                    };
                    self.emit_loop(l, entry, merge)?;
                }
            }
        }
        Ok(())
    }

    /// The label of the block after node `k` of a list (an `if`'s or a
    /// loop's merge block).
    fn merge_after(&self, list: &[CfNode], k: usize) -> Result<Word, ExportError> {
        match list.get(k + 1) {
            Some(CfNode::Block(b)) => Ok(self.label(b.id)),
            _ => Err(internal("an if or loop must be followed by a block")),
        }
    }

    fn emit_instrs(&mut self, b: &Block) -> Result<(), ExportError> {
        for i in &b.instrs {
            (mapping::row(i.op).emit)(self, i)?;
        }
        Ok(())
    }

    /// Emits the terminator (and merge instruction) of block `b`, node `k`
    /// of `list`, given what follows it.
    fn terminate(
        &mut self,
        b: &Block,
        list: &[CfNode],
        k: usize,
        exit: Exit,
        lp: Option<LoopTargets>,
    ) -> Result<(), ExportError> {
        match list.get(k + 1) {
            Some(CfNode::If(f)) => {
                let cond = self.canon(f.cond)?;
                let (t, e) = (first_block(&f.then_body)?, first_block(&f.else_body)?);
                let (t, e) = (self.label(t), self.label(e));
                let merge = self.merge_after(list, k + 1)?;
                self.b.selection_merge(merge, SelectionControl::NONE)?;
                self.b.branch_conditional(cond, t, e, [])?;
            }
            Some(CfNode::Loop(l)) => {
                let h = first_block(&l.body)?;
                let target = self.label(h);
                self.b.branch(target)?;
            }
            Some(CfNode::Block(_)) => return Err(internal("two adjacent blocks")),
            None => match (b.jump, lp) {
                (Some(Jump::Break), Some(l)) => self.b.branch(l.merge)?,
                (Some(Jump::Continue), Some(l)) => self.b.branch(l.cont)?,
                (Some(_), None) => return Err(internal("a jump outside a loop")),
                (None, _) => match exit {
                    Exit::Return => self.b.ret()?,
                    Exit::Merge(m) | Exit::Continue(m) => self.b.branch(m)?,
                },
            },
        }
        Ok(())
    }

    /// Phis of a block entered by ordinary edges (each predecessor's SPIR-V
    /// block is its IR block's exit block).
    fn emit_phis(&mut self, phis: &[Phi]) -> Result<(), ExportError> {
        for phi in phis {
            let mut operands = Vec::with_capacity(phi.srcs.len() * 2);
            for &(pred, v) in &phi.srcs {
                operands.push(Operand::IdRef(self.canon(v)?));
                operands.push(Operand::IdRef(self.exit_label(pred)));
            }
            let id = self.op_operands(
                rspirv::spirv::Op::Phi,
                Self::canon_ty(phi.dest.bits),
                operands,
            )?;
            self.define_only(phi.dest, id, View::Canon);
        }
        for phi in phis {
            self.derive_views(phi.dest.id)?;
        }
        Ok(())
    }

    fn emit_loop(&mut self, l: &Loop, entry: BlockId, merge: Word) -> Result<(), ExportError> {
        let header = match l.body.first() {
            Some(CfNode::Block(h)) => h,
            _ => return Err(internal("a loop body must start with a block")),
        };
        let hl = self.label(header.id);
        let cont = self.b.id();
        self.b.name(cont, format!("b{}_continue", header.id.0));

        // The loop header block: phis (back-edge operands patched below),
        // their float views, OpLoopMerge.
        self.b.begin_block(Some(hl))?;
        let block_index = self
            .b
            .selected_block()
            .ok_or_else(|| internal("no block selected"))?;
        let entry_label = self.exit_label(entry);
        for phi in &header.phis {
            let from_entry = phi
                .srcs
                .iter()
                .find(|(p, _)| *p == entry)
                .map(|&(_, v)| v)
                .ok_or_else(|| internal("a loop header phi without an entry value"))?;
            let v = self.canon(from_entry)?;
            let operands = vec![
                Operand::IdRef(v),
                Operand::IdRef(entry_label),
                Operand::IdRef(0), // patched once the back edges are emitted
                Operand::IdRef(cont),
            ];
            let id = self.op_operands(
                rspirv::spirv::Op::Phi,
                Self::canon_ty(phi.dest.bits),
                operands,
            )?;
            self.define_only(phi.dest, id, View::Canon);
        }
        for phi in &header.phis {
            self.derive_views(phi.dest.id)?;
        }
        self.b.loop_merge(merge, cont, LoopControl::NONE, [])?;
        let body = self.exit_label(header.id);
        self.b.branch(body)?;

        let targets = LoopTargets { merge, cont };
        self.emit_list(&l.body, Exit::Continue(cont), Some(targets), false)?;

        // The continue target: merge the back-edge values.
        self.b.begin_block(Some(cont))?;
        let mut back_values = Vec::with_capacity(header.phis.len());
        for phi in &header.phis {
            let back: Vec<(BlockId, ir::ValueId)> = phi
                .srcs
                .iter()
                .copied()
                .filter(|(p, _)| *p != entry)
                .collect();
            let value = match back.first() {
                None => self.undef(Self::canon_ty(phi.dest.bits)),
                // One value on every back edge dominates them all, so it
                // dominates the continue target too.
                Some(&(_, v0)) if back.iter().all(|&(_, v)| v == v0) => self.canon(v0)?,
                Some(_) => {
                    let mut operands = Vec::with_capacity(back.len() * 2);
                    for &(pred, v) in &back {
                        operands.push(Operand::IdRef(self.canon(v)?));
                        operands.push(Operand::IdRef(self.exit_label(pred)));
                    }
                    let id = self.op_operands(
                        rspirv::spirv::Op::Phi,
                        Self::canon_ty(phi.dest.bits),
                        operands,
                    )?;
                    self.b.name(id, format!("v{}_next", phi.dest.id.0));
                    id
                }
            };
            back_values.push(value);
        }
        self.b.branch(hl)?;

        let func = self
            .b
            .selected_function()
            .ok_or_else(|| internal("no function selected"))?;
        let block = &mut self.b.module_mut().functions[func].blocks[block_index];
        for (inst, value) in block.instructions.iter_mut().zip(back_values) {
            inst.operands[2] = Operand::IdRef(value);
        }
        Ok(())
    }
}

fn internal(msg: &str) -> ExportError {
    ExportError::Internal(msg.to_string())
}

fn first_block(list: &[CfNode]) -> Result<BlockId, ExportError> {
    match list.first() {
        Some(CfNode::Block(b)) => Ok(b.id),
        _ => Err(internal("a list must start with a block")),
    }
}

/// Loop headers (the first block of every loop body).
fn collect_headers(list: &[CfNode], out: &mut Vec<BlockId>) {
    for n in list {
        match n {
            CfNode::Block(_) => {}
            CfNode::If(f) => {
                collect_headers(&f.then_body, out);
                collect_headers(&f.else_body, out);
            }
            CfNode::Loop(l) => {
                if let Some(CfNode::Block(h)) = l.body.first() {
                    out.push(h.id);
                }
                collect_headers(&l.body, out);
            }
        }
    }
}
