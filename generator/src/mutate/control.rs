//! The mutators that change control flow: a store put under an `if`, a
//! run of instructions put into a loop that runs once. Both split a block
//! around the instructions they move.

use super::{alu, insert_before};
use crate::entropy::Entropy;
use ir::{Block, BlockId, Case, CfNode, If, Instr, Jump, Loop, Op, Program, ValueId};

/// Splits a control-flow list at instruction `i` of block `at` (in the
/// list): `[.., head(instrs[..i]), node, tail(instrs[end..], jump), ..]`.
/// The head keeps the phis and gets a new id; the tail keeps the block's id,
/// so phis that name it as a predecessor stay right.
fn split_around(
    list: &mut Vec<CfNode>,
    at: usize,
    range: std::ops::Range<usize>,
    head_id: BlockId,
    make: &mut dyn FnMut(Vec<Instr>) -> CfNode,
) {
    let CfNode::Block(b) = &mut list[at] else {
        unreachable!("a block site")
    };
    let tail_instrs = b.instrs.split_off(range.end);
    let moved = b.instrs.split_off(range.start);
    let head = Block {
        id: head_id,
        phis: std::mem::take(&mut b.phis),
        instrs: std::mem::take(&mut b.instrs),
        jump: None,
    };
    let tail = Block {
        id: b.id,
        phis: vec![],
        instrs: tail_instrs,
        jump: b.jump.take(),
    };
    let node = make(moved);
    list.splice(at..=at, [CfNode::Block(head), node, CfNode::Block(tail)]);
}

/// Finds the `k`-th block (program order) whose instructions satisfy
/// `ok`, and splits around the instruction range `choose` gives.
fn restructure(
    list: &mut Vec<CfNode>,
    k: &mut usize,
    ok: &dyn Fn(&Block) -> bool,
    edit: &mut dyn FnMut(&mut Vec<CfNode>, usize) -> bool,
) -> Option<bool> {
    let mut at = 0;
    while at < list.len() {
        match &mut list[at] {
            CfNode::Block(b) => {
                if ok(b) {
                    if *k == 0 {
                        return Some(edit(list, at));
                    }
                    *k -= 1;
                }
            }
            CfNode::If(f) => {
                if let Some(r) = restructure(&mut f.then_body, k, ok, edit) {
                    return Some(r);
                }
                if let Some(r) = restructure(&mut f.else_body, k, ok, edit) {
                    return Some(r);
                }
            }
            CfNode::Loop(l) => {
                if let Some(r) = restructure(&mut l.body, k, ok, edit) {
                    return Some(r);
                }
            }
        }
        at += 1;
    }
    None
}

fn count_blocks(p: &Program, ok: &dyn Fn(&Block) -> bool) -> usize {
    let mut n = 0;
    p.for_each_block(&mut |b| n += ok(b) as usize);
    n
}

fn empty_block(id: BlockId) -> CfNode {
    CfNode::Block(Block {
        id,
        phis: vec![],
        instrs: vec![],
        jump: None,
    })
}

/// Puts a `store_output` under an `if` on a condition defined before it
/// (an existing 1-bit value of the block, or `invocation_id & 1`).
pub(super) fn wrap_store_in_if(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let ok = |b: &Block| b.instrs.iter().any(|i| i.op == Op::StoreOutput);
    let n = count_blocks(&c.program, &ok);
    if n == 0 {
        return false;
    }
    let mut k = e.below(n as u64) as usize;
    let next_value = c.program.value_bound() as u32;
    let next_block = c.program.block_bound() as u32;
    let mut body = std::mem::take(&mut c.program.body);
    let done = restructure(&mut body, &mut k, &ok, &mut |list, at| {
        let CfNode::Block(b) = &mut list[at] else {
            return false;
        };
        let stores: Vec<usize> = (0..b.instrs.len())
            .filter(|&i| b.instrs[i].op == Op::StoreOutput)
            .collect();
        let s = stores[e.below(stores.len() as u64) as usize];
        let conds: Vec<ValueId> = b.instrs[..s]
            .iter()
            .filter_map(|i| i.dest.filter(|d| d.bits == 1).map(|d| d.id))
            .collect();
        let mut at_store = s;
        let cond = if conds.is_empty() || e.chance(1, 3) {
            let id = alu_nullary(b, at_store, next_value);
            let one = konst(b, at_store + 1, next_value + 1, 32, 1);
            let and = insert_before(
                b,
                at_store + 2,
                alu(Op::Iand, next_value + 2, 32, vec![id, one]),
            );
            let zero = konst(b, at_store + 3, next_value + 3, 32, 0);
            let c = insert_before(
                b,
                at_store + 4,
                alu(Op::Ine, next_value + 4, 1, vec![and, zero]),
            );
            at_store += 5;
            c
        } else {
            conds[e.below(conds.len() as u64) as usize]
        };
        let (then_id, else_id) = (BlockId(next_block + 1), BlockId(next_block + 2));
        split_around(
            list,
            at,
            at_store..at_store + 1,
            BlockId(next_block),
            &mut |moved| {
                CfNode::If(If {
                    cond,
                    then_body: vec![CfNode::Block(Block {
                        id: then_id,
                        phis: vec![],
                        instrs: moved,
                        jump: None,
                    })],
                    else_body: vec![empty_block(else_id)],
                })
            },
        );
        true
    });
    c.program.body = body;
    done == Some(true)
}

fn alu_nullary(b: &mut Block, at: usize, id: u32) -> ValueId {
    insert_before(b, at, alu(Op::InvocationId, id, 32, vec![]))
}

fn konst(b: &mut Block, at: usize, id: u32, bits: u8, v: u64) -> ValueId {
    let mut ins = alu(Op::LoadConst, id, bits, vec![]);
    ins.imm = v;
    insert_before(b, at, ins)
}

/// Puts a run of instructions into a loop that runs once
/// (`loop { ...; break }`): its values are defined in the loop header,
/// which dominates everything after the loop.
pub(super) fn wrap_in_loop(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let ok = |b: &Block| !b.instrs.is_empty();
    let n = count_blocks(&c.program, &ok);
    if n == 0 {
        return false;
    }
    let mut k = e.below(n as u64) as usize;
    let header = BlockId(c.program.block_bound() as u32 + 1);
    let head_id = BlockId(c.program.block_bound() as u32);
    let mut body = std::mem::take(&mut c.program.body);
    let done = restructure(&mut body, &mut k, &ok, &mut |list, at| {
        let CfNode::Block(b) = &list[at] else {
            return false;
        };
        let len = b.instrs.len();
        let start = e.below(len as u64) as usize;
        let end = start + 1 + e.below((len - start).min(4) as u64) as usize;
        split_around(list, at, start..end, head_id, &mut |moved| {
            CfNode::Loop(Loop {
                body: vec![CfNode::Block(Block {
                    id: header,
                    phis: vec![],
                    instrs: moved,
                    jump: Some(Jump::Break),
                })],
            })
        });
        true
    });
    c.program.body = body;
    done == Some(true)
}
