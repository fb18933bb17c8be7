//! The validator: one specific error per rule.

use crate::cfg::Cfg;
use crate::op::Sig;
use crate::print::{instr_text, phi_text};
use crate::program::{Block, BlockId, CfNode, Instr, Program, ValueId};
use crate::types::{mask, SizeSet, SlotType};
use smallvec::SmallVec;
use std::fmt;

/// A rule the program breaks, with where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// A control-flow list does not start with a block.
    #[error("a control-flow list must start with a block ({context})")]
    ListMustStartWithBlock {
        /// Which list.
        context: String,
    },
    /// A control-flow list does not end with a block.
    #[error("a control-flow list must end with a block ({context})")]
    ListMustEndWithBlock {
        /// Which list.
        context: String,
    },
    /// Two blocks follow each other without an `if` or `loop` between.
    #[error("blocks {first} and {second} are adjacent; blocks and if/loop nodes must alternate")]
    AdjacentBlocks {
        /// The first block.
        first: BlockId,
        /// The second block.
        second: BlockId,
    },
    /// A block id is used twice.
    #[error("block {0} is defined twice")]
    DuplicateBlock(BlockId),
    /// A value is defined twice.
    #[error("value {0} is defined twice")]
    DuplicateValue(ValueId),
    /// A use of a value that is never defined.
    #[error("{value} is used but never defined, in {block}: `{instr}`")]
    UndefinedValue {
        /// The value.
        value: ValueId,
        /// Where it is used.
        block: BlockId,
        /// The user.
        instr: String,
    },
    /// Wrong number of sources.
    #[error("`{op}` takes {expected} sources, found {found}, in {block}: `{instr}`")]
    SrcCount {
        /// The op.
        op: &'static str,
        /// How many it takes.
        expected: usize,
        /// How many it has.
        found: usize,
        /// Where.
        block: BlockId,
        /// The instruction.
        instr: String,
    },
    /// A source of a size the op does not take.
    #[error("source {src} of `{op}` is {found}-bit, expected {expected}, in {block}: `{instr}`")]
    SrcSize {
        /// The op.
        op: &'static str,
        /// Which source.
        src: usize,
        /// Its size.
        found: u8,
        /// What the op takes there.
        expected: String,
        /// Where.
        block: BlockId,
        /// The instruction.
        instr: String,
    },
    /// A result of a size the op cannot produce.
    #[error("the result of `{op}` is {found}-bit, expected {expected}, in {block}: `{instr}`")]
    DestSize {
        /// The op.
        op: &'static str,
        /// Its size.
        found: u8,
        /// What the op produces.
        expected: String,
        /// Where.
        block: BlockId,
        /// The instruction.
        instr: String,
    },
    /// An op that defines a value has no destination, or the reverse.
    #[error("`{op}` {problem}, in {block}")]
    DestPresence {
        /// The op.
        op: &'static str,
        /// What is wrong.
        problem: &'static str,
        /// Where.
        block: BlockId,
    },
    /// A constant wider than its result.
    #[error("constant 0x{imm:x} does not fit in {bits} bits, in {block}")]
    ConstTooWide {
        /// The constant.
        imm: u64,
        /// The result size.
        bits: u8,
        /// Where.
        block: BlockId,
    },
    /// A use that its definition does not dominate.
    #[error("{value} does not dominate its use in {block}: `{instr}`")]
    NotDominated {
        /// The value.
        value: ValueId,
        /// Where it is used.
        block: BlockId,
        /// The user.
        instr: String,
    },
    /// A phi whose predecessor blocks are not exactly the block's.
    #[error("phi {phi} in {block} names {found:?} but the block's predecessors are {expected:?}")]
    PhiPreds {
        /// The phi's value.
        phi: ValueId,
        /// Its block.
        block: BlockId,
        /// The block's predecessors.
        expected: Vec<BlockId>,
        /// What the phi names.
        found: Vec<BlockId>,
    },
    /// A phi in a block that no edge enters (the entry block, or an unreachable one).
    #[error("phi {phi} is in {block}, which has no predecessors")]
    PhiWithoutPreds {
        /// The phi's value.
        phi: ValueId,
        /// Its block.
        block: BlockId,
    },
    /// A phi source of another size than the phi.
    #[error("phi {phi} is {bits}-bit but its source {src} is {found}-bit")]
    PhiSize {
        /// The phi's value.
        phi: ValueId,
        /// Its size.
        bits: u8,
        /// The source.
        src: ValueId,
        /// The source's size.
        found: u8,
    },
    /// An `if` condition that is not 1-bit.
    #[error("the condition {cond} of an if is {bits}-bit, expected 1-bit")]
    CondNotBool {
        /// The condition.
        cond: ValueId,
        /// Its size.
        bits: u8,
    },
    /// `break` or `continue` outside a loop.
    #[error("`{jump}` outside a loop, in {block}")]
    JumpOutsideLoop {
        /// Which jump.
        jump: &'static str,
        /// Where.
        block: BlockId,
    },
    /// A block ending in a jump that is not the last node of its list.
    #[error("{block} ends with a jump but is not the last block of its list")]
    JumpNotLast {
        /// The block.
        block: BlockId,
    },
    /// A block no path reaches (after an if whose arms both jump, or after a loop that never breaks).
    #[error("{block} is unreachable")]
    Unreachable {
        /// The block.
        block: BlockId,
    },
    /// An I/O op naming an undeclared slot.
    #[error("`{op}` uses slot {slot}, but only {declared} are declared, in {block}")]
    SlotOutOfRange {
        /// The op.
        op: &'static str,
        /// The slot.
        slot: u64,
        /// How many are declared.
        declared: usize,
        /// Where.
        block: BlockId,
    },
    /// An I/O op whose value size differs from the declared type.
    #[error("`{op}` slot {slot} is declared {declared} but the value is {found}-bit, in {block}")]
    SlotType {
        /// The op.
        op: &'static str,
        /// The slot.
        slot: u64,
        /// The declared type.
        declared: SlotType,
        /// The value's size.
        found: u8,
        /// Where.
        block: BlockId,
    },
}

/// Validates a program, returning the first rule it breaks.
pub fn validate(p: &Program) -> Result<(), ValidationError> {
    match validate_all(p).into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Every rule a program breaks, in program order (structure first).
pub fn validate_all(p: &Program) -> Vec<ValidationError> {
    let mut errs = Vec::new();
    structure(&p.body, "impl main", &mut errs);
    if !errs.is_empty() {
        return errs;
    }
    let cfg = Cfg::build(&p.body);
    let mut v = Validator {
        p,
        cfg: &cfg,
        errs,
        defs: vec![],
        bits: vec![],
    };
    v.collect_defs();
    if !v.errs.is_empty() {
        return v.errs;
    }
    for &i in &cfg.stray_jumps {
        let block = cfg.blocks[i];
        let jump = if jump_of(p, block) == Some(crate::program::Jump::Break) {
            "break"
        } else {
            "continue"
        };
        v.errs
            .push(ValidationError::JumpOutsideLoop { jump, block });
    }
    for (i, id) in cfg.blocks.iter().enumerate() {
        if !cfg.reachable(i) {
            v.errs.push(ValidationError::Unreachable { block: *id });
        }
    }
    if !v.errs.is_empty() {
        return v.errs;
    }
    v.list(&p.body, None);
    v.errs
}

fn jump_of(p: &Program, id: BlockId) -> Option<crate::program::Jump> {
    let mut j = None;
    p.for_each_block(&mut |b| {
        if b.id == id {
            j = b.jump;
        }
    });
    j
}

/// Lists alternate blocks and if/loop nodes, start and end with a block,
/// and only their last block may jump.
fn structure(list: &[CfNode], context: &str, errs: &mut Vec<ValidationError>) {
    match list.first() {
        Some(CfNode::Block(_)) => {}
        _ => errs.push(ValidationError::ListMustStartWithBlock {
            context: context.into(),
        }),
    }
    if !matches!(list.last(), Some(CfNode::Block(_))) && !list.is_empty() {
        errs.push(ValidationError::ListMustEndWithBlock {
            context: context.into(),
        });
    }
    for (k, node) in list.iter().enumerate() {
        match node {
            CfNode::Block(b) => {
                if let Some(CfNode::Block(next)) = list.get(k + 1) {
                    errs.push(ValidationError::AdjacentBlocks {
                        first: b.id,
                        second: next.id,
                    });
                }
                if b.jump.is_some() && k + 1 != list.len() {
                    errs.push(ValidationError::JumpNotLast { block: b.id });
                }
            }
            CfNode::If(f) => {
                structure(&f.then_body, "then", errs);
                structure(&f.else_body, "else", errs);
            }
            CfNode::Loop(l) => structure(&l.body, "loop", errs),
        }
    }
}

/// Where a value is defined: block index and position (phis 0, instr k at k+1).
#[derive(Clone, Copy)]
struct DefSite {
    block: usize,
    pos: usize,
}

struct Validator<'a> {
    p: &'a Program,
    cfg: &'a Cfg,
    errs: Vec<ValidationError>,
    defs: Vec<Option<DefSite>>,
    bits: Vec<u8>,
}

impl Validator<'_> {
    fn collect_defs(&mut self) {
        let n = self.p.value_bound();
        self.defs = vec![None; n];
        self.bits = vec![0; n];
        let mut seen_blocks = vec![false; self.p.block_bound()];
        let mut errs = Vec::new();
        let (defs, bits) = (&mut self.defs, &mut self.bits);
        let mut bi = 0;
        self.p.for_each_block(&mut |b| {
            if std::mem::replace(&mut seen_blocks[b.id.0 as usize], true) {
                errs.push(ValidationError::DuplicateBlock(b.id));
            }
            let block = bi;
            let mut define = |id: ValueId, size: u8, pos: usize| {
                let slot = &mut defs[id.0 as usize];
                if slot.is_some() {
                    errs.push(ValidationError::DuplicateValue(id));
                }
                *slot = Some(DefSite { block, pos });
                bits[id.0 as usize] = size;
            };
            for p in &b.phis {
                define(p.dest.id, p.dest.bits, 0);
            }
            for (k, i) in b.instrs.iter().enumerate() {
                if let Some(d) = i.dest {
                    define(d.id, d.bits, k + 1);
                }
            }
            bi += 1;
        });
        self.errs.extend(errs);
    }

    fn size_of(&self, v: ValueId) -> Option<u8> {
        self.defs
            .get(v.0 as usize)
            .copied()
            .flatten()
            .map(|_| self.bits[v.0 as usize])
    }

    /// Checks that `v`'s definition dominates a use at (block, pos).
    fn check_use(
        &mut self,
        v: ValueId,
        block: usize,
        pos: usize,
        instr: &dyn Fn() -> String,
    ) -> Option<u8> {
        let id = self.cfg.blocks[block];
        let Some(site) = self.defs.get(v.0 as usize).copied().flatten() else {
            self.errs.push(ValidationError::UndefinedValue {
                value: v,
                block: id,
                instr: instr(),
            });
            return None;
        };
        let ok = if site.block == block {
            site.pos < pos
        } else {
            self.cfg.dominates(site.block, block)
        };
        if !ok {
            self.errs.push(ValidationError::NotDominated {
                value: v,
                block: id,
                instr: instr(),
            });
        }
        self.size_of(v)
    }

    fn list(&mut self, list: &[CfNode], mut prev_block: Option<usize>) {
        for node in list {
            match node {
                CfNode::Block(b) => {
                    let bi = self.cfg.index(b.id).expect("every block is in the CFG");
                    self.block(b, bi);
                    prev_block = Some(bi);
                }
                CfNode::If(f) => {
                    let pb = prev_block.expect("structure checked: a block precedes every if");
                    let pos = usize::MAX;
                    if let Some(bits) =
                        self.check_use(f.cond, pb, pos, &|| format!("if {}", f.cond))
                    {
                        if bits != 1 {
                            self.errs
                                .push(ValidationError::CondNotBool { cond: f.cond, bits });
                        }
                    }
                    self.list(&f.then_body, None);
                    self.list(&f.else_body, None);
                }
                CfNode::Loop(l) => self.list(&l.body, None),
            }
        }
    }

    fn block(&mut self, b: &Block, bi: usize) {
        let mut expected: Vec<BlockId> = self.cfg.preds[bi]
            .iter()
            .map(|&p| self.cfg.blocks[p])
            .collect();
        expected.sort();
        for phi in &b.phis {
            if expected.is_empty() {
                self.errs.push(ValidationError::PhiWithoutPreds {
                    phi: phi.dest.id,
                    block: b.id,
                });
                continue;
            }
            let mut found: Vec<BlockId> = phi.srcs.iter().map(|(b, _)| *b).collect();
            found.sort();
            if found != expected {
                self.errs.push(ValidationError::PhiPreds {
                    phi: phi.dest.id,
                    block: b.id,
                    expected: expected.clone(),
                    found,
                });
                continue;
            }
            for &(pred, v) in &phi.srcs {
                let pi = self.cfg.index(pred).expect("pred is a block");
                let text = || phi_text(phi);
                if let Some(bits) = self.check_use(v, pi, usize::MAX, &text) {
                    if bits != phi.dest.bits {
                        self.errs.push(ValidationError::PhiSize {
                            phi: phi.dest.id,
                            bits: phi.dest.bits,
                            src: v,
                            found: bits,
                        });
                    }
                }
            }
        }
        for (k, instr) in b.instrs.iter().enumerate() {
            // Every source is checked (each reports its own errors); the
            // signature only when all of them have a size.
            let mut sizes: SmallVec<[u8; 4]> = SmallVec::with_capacity(instr.srcs.len());
            let mut all = true;
            for &s in &instr.srcs {
                let text = || instr_text(instr);
                match self.check_use(s, bi, k + 1, &text) {
                    Some(bits) => sizes.push(bits),
                    None => all = false,
                }
            }
            if all {
                self.signature(instr, &sizes, b.id);
            }
        }
    }

    fn signature(&mut self, i: &Instr, sizes: &[u8], block: BlockId) {
        let info = i.op.info();
        let op = info.name;
        let text = || instr_text(i);
        let expected = info.sig.num_srcs();
        if sizes.len() != expected {
            self.errs.push(ValidationError::SrcCount {
                op,
                expected,
                found: sizes.len(),
                block,
                instr: text(),
            });
            return;
        }
        if info.sig.has_dest() != i.dest.is_some() {
            let problem = if i.dest.is_some() {
                "defines no value"
            } else {
                "must define a value"
            };
            self.errs
                .push(ValidationError::DestPresence { op, problem, block });
            return;
        }
        let dest = i.dest.map_or(0, |d| d.bits);
        let src_err = |src: usize, found: u8, expected: String| ValidationError::SrcSize {
            op,
            src,
            found,
            expected,
            block,
            instr: text(),
        };
        let dest_err = |expected: String| ValidationError::DestSize {
            op,
            found: dest,
            expected,
            block,
            instr: text(),
        };
        let set = |s: SizeSet| format!("one of {s}");
        let mut errs = Vec::new();
        match info.sig {
            Sig::Same { sizes: allowed, .. } => {
                if !allowed.contains(dest) {
                    errs.push(dest_err(set(allowed)));
                }
                for (k, &s) in sizes.iter().enumerate() {
                    if s != dest {
                        errs.push(src_err(k, s, format!("{dest} (the result's size)")));
                    }
                }
            }
            Sig::Compare { sizes: allowed } => {
                if dest != 1 {
                    errs.push(dest_err("1".into()));
                }
                if !allowed.contains(sizes[0]) {
                    errs.push(src_err(0, sizes[0], set(allowed)));
                } else if sizes[1] != sizes[0] {
                    errs.push(src_err(
                        1,
                        sizes[1],
                        format!("{} (source 0's size)", sizes[0]),
                    ));
                }
            }
            Sig::Convert { from, to } => {
                if !to.contains(dest) {
                    errs.push(dest_err(set(to)));
                }
                if !from.contains(sizes[0]) {
                    errs.push(src_err(0, sizes[0], set(from)));
                }
            }
            Sig::Indexed { sizes: allowed } => {
                if !allowed.contains(dest) {
                    errs.push(dest_err(set(allowed)));
                }
                if sizes[0] != dest {
                    errs.push(src_err(0, sizes[0], format!("{dest} (the result's size)")));
                }
                if sizes[1] != 32 {
                    errs.push(src_err(1, sizes[1], "32".into()));
                }
            }
            Sig::Select { sizes: allowed } => {
                if !allowed.contains(dest) {
                    errs.push(dest_err(set(allowed)));
                }
                if sizes[0] != 1 {
                    errs.push(src_err(0, sizes[0], "1".into()));
                }
                for (k, &size) in sizes.iter().enumerate().skip(1) {
                    if size != dest {
                        errs.push(src_err(k, size, format!("{dest} (the result's size)")));
                    }
                }
            }
            Sig::Fixed32 { .. } => {
                if dest != 32 {
                    errs.push(dest_err("32".into()));
                }
                for (k, &s) in sizes.iter().enumerate() {
                    if s != 32 {
                        errs.push(src_err(k, s, "32".into()));
                    }
                }
            }
            Sig::Nullary { sizes: allowed } => {
                if !allowed.contains(dest) {
                    errs.push(dest_err(set(allowed)));
                }
                if i.op == crate::op::Op::LoadConst && dest != 0 && i.imm & !mask(dest) != 0 {
                    errs.push(ValidationError::ConstTooWide {
                        imm: i.imm,
                        bits: dest,
                        block,
                    });
                }
            }
            // Sources and result are counted before (none of either).
            Sig::Effect => {}
            Sig::LoadSlot | Sig::StoreSlot => {
                let decls = match i.op {
                    crate::op::Op::LoadInput => &self.p.inputs,
                    crate::op::Op::LoadUniform => &self.p.uniforms,
                    _ => &self.p.outputs,
                };
                let found = if info.sig == Sig::LoadSlot {
                    dest
                } else {
                    sizes[0]
                };
                match decls.get(i.imm as usize) {
                    None => errs.push(ValidationError::SlotOutOfRange {
                        op,
                        slot: i.imm,
                        declared: decls.len(),
                        block,
                    }),
                    Some(t) if t.bits() != found => errs.push(ValidationError::SlotType {
                        op,
                        slot: i.imm,
                        declared: *t,
                        found,
                        block,
                    }),
                    Some(_) => {}
                }
            }
        }
        self.errs.extend(errs);
    }
}

impl fmt::Display for crate::program::Jump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            crate::program::Jump::Break => "break",
            crate::program::Jump::Continue => "continue",
        })
    }
}
