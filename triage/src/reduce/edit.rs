//! Low-level program edits for the reducer.
//!
//! An [`Editor`] takes a program apart (remove phis and instructions,
//! substitute values, splice control-flow lists, ask for constants) and
//! [`Editor::finish`] puts it back together so that it has a chance to
//! validate: lists alternate blocks and nodes again (adjacent blocks are
//! merged, a merged block's phis resolved to the value that flows in),
//! every phi names exactly its predecessors in the new CFG (a missing source
//! becomes the constant 0, a single-predecessor phi becomes its value),
//! and every use of a value that is gone or no longer dominates its user
//! becomes the constant 0 of the value's size. New constants go to the
//! start of the entry block, which dominates everything. The result is
//! still validated by the caller: an edit that cannot be repaired is just a
//! rejected candidate.

use ir::cfg::Cfg;
use ir::{Block, BlockId, CfNode, Def, Instr, Op, Program, ValueId};
use std::collections::{BTreeMap, BTreeSet};

/// Where an instruction or a phi sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Site {
    /// Its block.
    pub block: BlockId,
    /// A phi (index into `phis`) or an instruction (index into `instrs`).
    pub phi: bool,
    /// The index.
    pub index: usize,
}

/// Every phi and instruction, in program order.
pub(crate) fn sites(p: &Program) -> Vec<Site> {
    let mut v = Vec::new();
    p.for_each_block(&mut |b| {
        for index in 0..b.phis.len() {
            v.push(Site {
                block: b.id,
                phi: true,
                index,
            });
        }
        for index in 0..b.instrs.len() {
            v.push(Site {
                block: b.id,
                phi: false,
                index,
            });
        }
    });
    v
}

/// The value a site defines, if any.
pub(crate) fn site_def(p: &Program, s: Site) -> Option<Def> {
    let mut d = None;
    p.for_each_block(&mut |b| {
        if b.id == s.block {
            d = if s.phi {
                b.phis.get(s.index).map(|p| p.dest)
            } else {
                b.instrs.get(s.index).and_then(|i| i.dest)
            };
        }
    });
    d
}

/// Every value used, with multiplicity ignored.
pub(crate) fn used_values(p: &Program) -> BTreeSet<ValueId> {
    let mut set = BTreeSet::new();
    p.for_each_use(&mut |v| {
        set.insert(v);
    });
    set
}

fn max_ids(p: &Program) -> (u32, u32) {
    let mut mv = p.value_bound() as u32;
    let mut mb = p.block_bound() as u32;
    p.for_each_use(&mut |v| mv = mv.max(v.0 + 1));
    p.for_each_block(&mut |b| {
        for phi in &b.phis {
            for (pb, _) in &phi.srcs {
                mb = mb.max(pb.0 + 1);
            }
        }
    });
    (mv, mb)
}

/// Edits a program; see the module documentation.
pub(crate) struct Editor {
    /// The program being edited.
    pub program: Program,
    bits: Vec<u8>,
    next_value: u32,
    next_block: u32,
    pool: Vec<(u8, u64, ValueId)>,
    subst: BTreeMap<ValueId, ValueId>,
    renames: BTreeMap<BlockId, BlockId>,
}

impl Editor {
    /// Starts editing a copy of `p`.
    pub fn new(p: &Program) -> Editor {
        let (next_value, next_block) = max_ids(p);
        let mut bits = p.value_bits();
        bits.resize(next_value as usize, 0);
        Editor {
            program: p.clone(),
            bits,
            next_value,
            next_block,
            pool: Vec::new(),
            subst: BTreeMap::new(),
            renames: BTreeMap::new(),
        }
    }

    /// The size of a value of the original program (or a new one).
    pub fn bits_of(&self, v: ValueId) -> u8 {
        match self.bits.get(v.0 as usize) {
            Some(&b) if b != 0 => b,
            _ => 32,
        }
    }

    /// A fresh value id of `bits` bits.
    pub fn fresh_value(&mut self, bits: u8) -> ValueId {
        let id = ValueId(self.next_value);
        self.next_value += 1;
        self.bits.push(bits);
        id
    }

    /// A fresh block id.
    pub fn fresh_block(&mut self) -> BlockId {
        let id = BlockId(self.next_block);
        self.next_block += 1;
        id
    }

    /// The constant `imm` of `bits` bits, placed at the start of the entry
    /// block when the edit finishes (reusing an equal constant there).
    pub fn constant(&mut self, bits: u8, imm: u64) -> ValueId {
        let imm = imm & ir::types::mask(bits);
        if let Some(&(_, _, v)) = self.pool.iter().find(|(b, i, _)| *b == bits && *i == imm) {
            return v;
        }
        let v = self.fresh_value(bits);
        self.pool.push((bits, imm, v));
        v
    }

    /// Replaces every use of `from` by `to` (applied when the edit finishes).
    pub fn substitute(&mut self, from: ValueId, to: ValueId) {
        if from != to {
            self.subst.insert(from, to);
        }
    }

    /// Removes the given phis and instructions (their uses become 0 unless
    /// substituted).
    pub fn remove_sites(&mut self, sites: &BTreeSet<Site>) {
        self.program.for_each_block_mut(&mut |b| {
            let id = b.id;
            let mut k = 0;
            b.phis.retain(|_| {
                let keep = !sites.contains(&Site {
                    block: id,
                    phi: true,
                    index: k,
                });
                k += 1;
                keep
            });
            let mut k = 0;
            b.instrs.retain(|_| {
                let keep = !sites.contains(&Site {
                    block: id,
                    phi: false,
                    index: k,
                });
                k += 1;
                keep
            });
        });
    }

    fn resolve_value(&self, mut v: ValueId) -> ValueId {
        for _ in 0..=self.subst.len() {
            match self.subst.get(&v) {
                Some(&w) if w != v => v = w,
                _ => break,
            }
        }
        v
    }

    fn resolve_block(&self, mut b: BlockId) -> BlockId {
        for _ in 0..=self.renames.len() {
            match self.renames.get(&b) {
                Some(&c) if c != b => b = c,
                _ => break,
            }
        }
        b
    }

    fn apply_subst(&mut self) {
        if self.subst.is_empty() {
            return;
        }
        let mut program = std::mem::take(&mut self.program);
        program.for_each_use_mut(&mut |v| *v = self.resolve_value(*v));
        self.program = program;
    }

    /// Puts the program back together (see the module documentation).
    pub fn finish(mut self) -> Program {
        self.apply_subst();
        let body = std::mem::take(&mut self.program.body);
        let body = self.fix_list(body);
        self.program.body = body;
        self.apply_subst();
        self.fix_phis();
        self.apply_subst();
        self.fix_uses();
        self.place_constants();
        self.apply_subst();
        self.program
    }

    /// Lists start and end with a block, adjacent blocks merge, and only a
    /// list's last block may jump.
    fn fix_list(&mut self, list: Vec<CfNode>) -> Vec<CfNode> {
        let mut out: Vec<CfNode> = Vec::with_capacity(list.len());
        for node in list {
            // Whatever follows a jump in its list is unreachable: drop it
            // (uses of its values become 0).
            if matches!(out.last(), Some(CfNode::Block(b)) if b.jump.is_some()) {
                break;
            }
            match node {
                CfNode::Block(b) => {
                    if let Some(CfNode::Block(prev)) = out.last_mut() {
                        let prev_id = prev.id;
                        for phi in &b.phis {
                            let pick = phi
                                .srcs
                                .iter()
                                .find(|(pb, _)| self.resolve_block(*pb) == prev_id)
                                .or(phi.srcs.first())
                                .map(|&(_, v)| v);
                            let to = match pick {
                                Some(v) if v != phi.dest.id => v,
                                _ => self.constant(phi.dest.bits, 0),
                            };
                            self.subst.insert(phi.dest.id, to);
                        }
                        self.renames.insert(b.id, prev_id);
                        let Some(CfNode::Block(prev)) = out.last_mut() else {
                            unreachable!("checked above")
                        };
                        prev.instrs.extend(b.instrs);
                        prev.jump = b.jump;
                    } else {
                        out.push(CfNode::Block(b));
                    }
                }
                CfNode::If(mut f) => {
                    f.then_body = self.fix_list(std::mem::take(&mut f.then_body));
                    f.else_body = self.fix_list(std::mem::take(&mut f.else_body));
                    self.ensure_block_before(&mut out);
                    out.push(CfNode::If(f));
                }
                CfNode::Loop(mut l) => {
                    l.body = self.fix_list(std::mem::take(&mut l.body));
                    self.ensure_block_before(&mut out);
                    out.push(CfNode::Loop(l));
                }
            }
        }
        if !matches!(out.last(), Some(CfNode::Block(_))) {
            let id = self.fresh_block();
            out.push(CfNode::Block(empty_block(id)));
        }
        let last = out.len() - 1;
        for (k, n) in out.iter_mut().enumerate() {
            if let CfNode::Block(b) = n {
                if k != last {
                    b.jump = None;
                }
            }
        }
        out
    }

    fn ensure_block_before(&mut self, out: &mut Vec<CfNode>) {
        if !matches!(out.last(), Some(CfNode::Block(_))) {
            let id = self.fresh_block();
            out.push(CfNode::Block(empty_block(id)));
        }
    }

    /// Every phi names exactly its block's predecessors; single-predecessor
    /// phis become their value.
    fn fix_phis(&mut self) {
        let cfg = Cfg::build(&self.program.body);
        let mut body = std::mem::take(&mut self.program.body);
        let mut blocks: Vec<&mut Block> = Vec::new();
        collect_blocks_mut(&mut body, &mut blocks);
        for b in blocks {
            if b.phis.is_empty() {
                continue;
            }
            let Some(bi) = cfg.index(b.id) else { continue };
            let mut preds: Vec<BlockId> = cfg.preds[bi].iter().map(|&p| cfg.blocks[p]).collect();
            preds.sort();
            preds.dedup();
            if preds.is_empty() {
                continue;
            }
            let mut kept = Vec::with_capacity(b.phis.len());
            for mut phi in std::mem::take(&mut b.phis) {
                let mut srcs = Vec::with_capacity(preds.len());
                for &pred in &preds {
                    let v = phi
                        .srcs
                        .iter()
                        .find(|(pb, _)| self.resolve_block(*pb) == pred)
                        .map(|&(_, v)| v);
                    let v = match v {
                        Some(v) => v,
                        None => self.constant(phi.dest.bits, 0),
                    };
                    srcs.push((pred, v));
                }
                if preds.len() == 1 {
                    let v = srcs[0].1;
                    let to = if v == phi.dest.id {
                        self.constant(phi.dest.bits, 0)
                    } else {
                        v
                    };
                    self.subst.insert(phi.dest.id, to);
                } else {
                    phi.srcs = srcs;
                    kept.push(phi);
                }
            }
            b.phis = kept;
        }
        self.program.body = body;
    }

    /// Uses of values that are not defined, or whose definition does not
    /// dominate the use, become the constant 0 of the value's size.
    fn fix_uses(&mut self) {
        let cfg = Cfg::build(&self.program.body);
        let bound = self.next_value as usize;
        let mut defs: Vec<Option<(usize, usize)>> = vec![None; bound];
        let mut bi = 0usize;
        self.program.for_each_block(&mut |b| {
            let idx = cfg.index(b.id).unwrap_or(bi);
            for p in &b.phis {
                if let Some(d) = defs.get_mut(p.dest.id.0 as usize) {
                    *d = Some((idx, 0));
                }
            }
            for (k, i) in b.instrs.iter().enumerate() {
                if let Some(dest) = i.dest {
                    if let Some(d) = defs.get_mut(dest.id.0 as usize) {
                        *d = Some((idx, k + 1));
                    }
                }
            }
            bi += 1;
        });
        let ok = |v: ValueId, block: usize, pos: usize| -> bool {
            match defs.get(v.0 as usize).copied().flatten() {
                None => false,
                Some((db, dp)) => {
                    if db == block {
                        dp < pos
                    } else {
                        cfg.reachable(block) && cfg.dominates(db, block)
                    }
                }
            }
        };
        let mut body = std::mem::take(&mut self.program.body);
        let mut bad: Vec<ValueId> = Vec::new();
        fix_uses_list(&mut body, &cfg, &ok, &mut bad, None);
        // Second walk: replace the marked uses by constants.
        let mut pending: BTreeMap<ValueId, ValueId> = BTreeMap::new();
        for v in &bad {
            if !pending.contains_key(v) {
                let c = self.constant(self.bits_of(*v), 0);
                pending.insert(*v, c);
            }
        }
        if !pending.is_empty() {
            fix_uses_apply(&mut body, &cfg, &ok, &pending, None);
        }
        self.program.body = body;
    }

    /// Inserts the pooled constants at the start of the entry block, moving
    /// an equal constant already there instead of duplicating it.
    fn place_constants(&mut self) {
        if self.pool.is_empty() {
            return;
        }
        let pool = std::mem::take(&mut self.pool);
        let Some(CfNode::Block(entry)) = self.program.body.first_mut() else {
            return;
        };
        let mut front: Vec<Instr> = Vec::new();
        for (bits, imm, id) in pool {
            let existing = entry.instrs.iter().position(|i| {
                i.op == Op::LoadConst && i.dest.is_some_and(|d| d.bits == bits) && i.imm == imm
            });
            let first_use = entry.instrs.iter().position(|i| i.srcs.contains(&id));
            match existing {
                // An equal constant before every use in the entry block: reuse it in place.
                Some(k) if first_use.is_none_or(|u| k < u) => {
                    let d = entry.instrs[k].dest.expect("a constant defines a value").id;
                    self.subst.insert(id, d);
                }
                Some(k) => {
                    let i = entry.instrs.remove(k);
                    let d = i.dest.expect("a constant defines a value").id;
                    self.subst.insert(id, d);
                    front.push(i);
                }
                None => {
                    if let Some(i) = front
                        .iter()
                        .find(|i| i.dest.is_some_and(|d| d.bits == bits) && i.imm == imm)
                    {
                        let d = i.dest.expect("a constant defines a value").id;
                        self.subst.insert(id, d);
                    } else {
                        front.push(Instr {
                            op: Op::LoadConst,
                            dest: Some(Def { id, bits }),
                            srcs: vec![],
                            imm,
                        });
                    }
                }
            }
        }
        front.append(&mut entry.instrs);
        entry.instrs = front;
    }
}

fn empty_block(id: BlockId) -> Block {
    Block {
        id,
        phis: vec![],
        instrs: vec![],
        jump: None,
    }
}

fn collect_blocks_mut<'a>(list: &'a mut [CfNode], out: &mut Vec<&'a mut Block>) {
    for n in list {
        match n {
            CfNode::Block(b) => out.push(b),
            CfNode::If(f) => {
                collect_blocks_mut(&mut f.then_body, out);
                collect_blocks_mut(&mut f.else_body, out);
            }
            CfNode::Loop(l) => collect_blocks_mut(&mut l.body, out),
        }
    }
}

type UseOk<'a> = dyn Fn(ValueId, usize, usize) -> bool + 'a;

/// Collects the values with a bad use (undefined or not dominating).
fn fix_uses_list(
    list: &mut [CfNode],
    cfg: &Cfg,
    ok: &UseOk<'_>,
    bad: &mut Vec<ValueId>,
    mut prev: Option<usize>,
) {
    for n in list {
        match n {
            CfNode::Block(b) => {
                let Some(bi) = cfg.index(b.id) else { continue };
                for phi in &b.phis {
                    for &(pb, v) in &phi.srcs {
                        let good = cfg.index(pb).is_some_and(|pi| ok(v, pi, usize::MAX));
                        if !good {
                            bad.push(v);
                        }
                    }
                }
                for (k, i) in b.instrs.iter().enumerate() {
                    for &v in &i.srcs {
                        if !ok(v, bi, k + 1) {
                            bad.push(v);
                        }
                    }
                }
                prev = Some(bi);
            }
            CfNode::If(f) => {
                if let Some(pb) = prev {
                    if !ok(f.cond, pb, usize::MAX) {
                        bad.push(f.cond);
                    }
                }
                fix_uses_list(&mut f.then_body, cfg, ok, bad, None);
                fix_uses_list(&mut f.else_body, cfg, ok, bad, None);
            }
            CfNode::Loop(l) => fix_uses_list(&mut l.body, cfg, ok, bad, None),
        }
    }
}

/// Replaces the bad uses found by [`fix_uses_list`] by their constants.
fn fix_uses_apply(
    list: &mut [CfNode],
    cfg: &Cfg,
    ok: &UseOk<'_>,
    repl: &BTreeMap<ValueId, ValueId>,
    mut prev: Option<usize>,
) {
    for n in list {
        match n {
            CfNode::Block(b) => {
                let Some(bi) = cfg.index(b.id) else { continue };
                for phi in &mut b.phis {
                    for (pb, v) in &mut phi.srcs {
                        let good = cfg.index(*pb).is_some_and(|pi| ok(*v, pi, usize::MAX));
                        if !good {
                            if let Some(&c) = repl.get(v) {
                                *v = c;
                            }
                        }
                    }
                }
                for (k, i) in b.instrs.iter_mut().enumerate() {
                    for v in &mut i.srcs {
                        if !ok(*v, bi, k + 1) {
                            if let Some(&c) = repl.get(v) {
                                *v = c;
                            }
                        }
                    }
                }
                prev = Some(bi);
            }
            CfNode::If(f) => {
                if let Some(pb) = prev {
                    if !ok(f.cond, pb, usize::MAX) {
                        if let Some(&c) = repl.get(&f.cond) {
                            f.cond = c;
                        }
                    }
                }
                fix_uses_apply(&mut f.then_body, cfg, ok, repl, None);
                fix_uses_apply(&mut f.else_body, cfg, ok, repl, None);
            }
            CfNode::Loop(l) => fix_uses_apply(&mut l.body, cfg, ok, repl, None),
        }
    }
}

/// Renumbers values and blocks densely in program order (`%0`, `b0`, ...).
pub(crate) fn renumber(p: &Program) -> Program {
    let mut vmap: BTreeMap<ValueId, ValueId> = BTreeMap::new();
    let mut bmap: BTreeMap<BlockId, BlockId> = BTreeMap::new();
    p.for_each_block(&mut |b| {
        let n = bmap.len() as u32;
        bmap.insert(b.id, BlockId(n));
        for phi in &b.phis {
            let n = vmap.len() as u32;
            vmap.insert(phi.dest.id, ValueId(n));
        }
        for i in &b.instrs {
            if let Some(d) = i.dest {
                let n = vmap.len() as u32;
                vmap.insert(d.id, ValueId(n));
            }
        }
    });
    let mut q = p.clone();
    q.for_each_use_mut(&mut |v| {
        if let Some(&w) = vmap.get(v) {
            *v = w;
        }
    });
    q.for_each_block_mut(&mut |b| {
        if let Some(&id) = bmap.get(&b.id) {
            b.id = id;
        }
        for phi in &mut b.phis {
            if let Some(&id) = vmap.get(&phi.dest.id) {
                phi.dest.id = id;
            }
            for (pb, _) in &mut phi.srcs {
                if let Some(&id) = bmap.get(pb) {
                    *pb = id;
                }
            }
        }
        for i in &mut b.instrs {
            if let Some(d) = &mut i.dest {
                if let Some(&id) = vmap.get(&d.id) {
                    d.id = id;
                }
            }
        }
    });
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{parse_program, print_program_compact, validate};

    const DIAMOND: &str = "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000003)
	1 %2 = ilt %0, %1
	if %2 {
		block b1:
		32 %3 = iadd %0, %1
	} else {
		block b2:
		32 %4 = isub %0, %1
	}
	block b3:
	32 %5 = phi b1: %3, b2: %4
	@store_output (%5) (slot=0)
}
";

    #[test]
    fn removing_a_used_value_puts_zero_in_the_entry_block() {
        let p = parse_program(DIAMOND).unwrap();
        let mut e = Editor::new(&p);
        let s: BTreeSet<Site> = [Site {
            block: BlockId(1),
            phi: false,
            index: 0,
        }]
        .into();
        e.remove_sites(&s);
        let q = e.finish();
        validate(&q).unwrap();
        assert_eq!(
            print_program_compact(&renumber(&q)),
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = load_const (0x00000000)
	32 %1 = @load_input () (slot=0)
	32 %2 = load_const (0x00000003)
	1 %3 = ilt %1, %2
	if %3 {
		block b1:
	} else {
		block b2:
		32 %4 = isub %1, %2
	}
	block b3:
	32 %5 = phi b1: %0, b2: %4
	@store_output (%5) (slot=0)
}
"
        );
    }

    #[test]
    fn splicing_an_arm_merges_blocks_and_resolves_the_phi() {
        let p = parse_program(DIAMOND).unwrap();
        let mut e = Editor::new(&p);
        let CfNode::If(f) = e.program.body.remove(1) else {
            panic!("an if")
        };
        let tail = e.program.body.split_off(1);
        e.program.body.extend(f.then_body);
        e.program.body.extend(tail);
        let q = renumber(&e.finish());
        validate(&q).unwrap();
        assert_eq!(
            print_program_compact(&q),
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000003)
	1 %2 = ilt %0, %1
	32 %3 = iadd %0, %1
	@store_output (%3) (slot=0)
}
"
        );
    }
}
