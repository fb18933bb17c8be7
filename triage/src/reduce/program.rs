//! Program transformations. Each builds candidates with an [`Editor`] (so
//! they are well-formed by construction wherever that is possible) and
//! offers them to the session, which discards those that do not validate,
//! have undefined behaviour, are not smaller, or lose the bug.

use super::edit::{site_def, sites, used_values, Editor, Site};
use super::{count_cf, Session};
use ir::types::mask;
use ir::{Case, CfNode, Op, Program, ValueId};
use std::collections::BTreeSet;

/// The most passes over the program transformations per call.
const MAX_PROGRAM_PASSES: usize = 8;

/// Runs the program transformations until none makes progress.
pub(super) fn reduce_program(s: &mut Session) {
    for _ in 0..MAX_PROGRAM_PASSES {
        let before = s.size;
        remove_dead_code(s);
        simplify_control_flow(s);
        remove_instruction_chunks(s);
        remove_each_instruction(s);
        drop_unused_slots(s);
        super::narrow::narrow_types(s);
        simplify_constants(s);
        if s.size == before || s.exhausted() {
            break;
        }
    }
}

/// Removes every instruction and phi whose value is never used (repeatedly),
/// stores excepted, in one candidate.
fn remove_dead_code(s: &mut Session) {
    let mut p = s.program().clone();
    let mut changed = false;
    loop {
        let used = used_values(&p);
        let dead: BTreeSet<Site> = sites(&p)
            .into_iter()
            .filter(|&site| site_def(&p, site).is_some_and(|d| !used.contains(&d.id)))
            .collect();
        if dead.is_empty() {
            break;
        }
        let mut e = Editor::new(&p);
        e.remove_sites(&dead);
        p = e.finish();
        changed = true;
    }
    if changed {
        s.try_program(p);
    }
}

/// Replaces the `n`-th if/loop node (pre-order) by the nodes `f` makes of it.
fn splice_nth_cf(
    list: &mut Vec<CfNode>,
    n: &mut usize,
    f: &mut dyn FnMut(CfNode) -> Vec<CfNode>,
) -> bool {
    let mut k = 0;
    while k < list.len() {
        if matches!(list[k], CfNode::Block(_)) {
            k += 1;
            continue;
        }
        if *n == 0 {
            let node = list.remove(k);
            let tail = list.split_off(k);
            list.extend(f(node));
            list.extend(tail);
            return true;
        }
        *n -= 1;
        let done = match &mut list[k] {
            CfNode::If(x) => {
                splice_nth_cf(&mut x.then_body, n, f) || splice_nth_cf(&mut x.else_body, n, f)
            }
            CfNode::Loop(l) => splice_nth_cf(&mut l.body, n, f),
            CfNode::Block(_) => false,
        };
        if done {
            return true;
        }
        k += 1;
    }
    false
}

/// Removes the jumps that belong to the loop whose body is `list` (not
/// those of nested loops).
fn strip_own_jumps(list: &mut [CfNode]) {
    for n in list {
        match n {
            CfNode::Block(b) => b.jump = None,
            CfNode::If(f) => {
                strip_own_jumps(&mut f.then_body);
                strip_own_jumps(&mut f.else_body);
            }
            CfNode::Loop(_) => {}
        }
    }
}

#[derive(Clone, Copy)]
enum CfEdit {
    ThenArm,
    ElseArm,
    RemoveLoop,
    UnrollOnce,
}

/// The program with the `n`-th if/loop edited, if that node has that kind.
fn edit_cf(p: &Program, n: usize, how: CfEdit) -> Option<Program> {
    let mut e = Editor::new(p);
    let mut ok = false;
    let mut idx = n;
    let mut body = std::mem::take(&mut e.program.body);
    splice_nth_cf(&mut body, &mut idx, &mut |node| match (node, how) {
        (CfNode::If(f), CfEdit::ThenArm) => {
            ok = true;
            f.then_body
        }
        (CfNode::If(f), CfEdit::ElseArm) => {
            ok = true;
            f.else_body
        }
        (CfNode::Loop(_), CfEdit::RemoveLoop) => {
            ok = true;
            vec![]
        }
        (CfNode::Loop(mut l), CfEdit::UnrollOnce) => {
            ok = true;
            strip_own_jumps(&mut l.body);
            l.body
        }
        (other, _) => vec![other],
    });
    e.program.body = body;
    ok.then(|| e.finish())
}

/// Collapses ifs to one arm (then, else) and removes loops or unrolls them
/// once, outermost first.
fn simplify_control_flow(s: &mut Session) {
    let mut n = 0;
    while n < count_cf(&s.program().body) && !s.exhausted() {
        let mut done = false;
        for how in [
            CfEdit::ThenArm,
            CfEdit::ElseArm,
            CfEdit::RemoveLoop,
            CfEdit::UnrollOnce,
        ] {
            if let Some(p) = edit_cf(s.program(), n, how) {
                if s.try_program(p) {
                    done = true;
                    break;
                }
            }
        }
        if !done {
            n += 1;
        }
    }
}

fn remove_sites(p: &Program, set: &BTreeSet<Site>) -> Program {
    let mut e = Editor::new(p);
    e.remove_sites(set);
    e.finish()
}

/// ddmin-style: removes chunks of instructions and phis (their uses become
/// 0), the whole program first, then halves, quarters, ... down to pairs
/// (single instructions are [`remove_each_instruction`]'s).
fn remove_instruction_chunks(s: &mut Session) {
    let n = sites(s.program()).len();
    let mut chunk = n;
    while chunk >= 2 && !s.exhausted() {
        let mut start = 0;
        loop {
            let all = sites(s.program());
            if start >= all.len() || s.exhausted() {
                break;
            }
            let end = (start + chunk).min(all.len());
            let set: BTreeSet<Site> = all[start..end].iter().copied().collect();
            let p = remove_sites(s.program(), &set);
            if !s.try_program(p) {
                start += chunk;
            }
        }
        chunk /= 2;
    }
}

/// Removes instructions and phis one at a time, last first, replacing the
/// uses of the value by the constant 0, the constant 1, or an operand of
/// the same size (which dominates every use).
fn remove_each_instruction(s: &mut Session) {
    let mut i = sites(s.program()).len();
    while i > 0 && !s.exhausted() {
        i -= 1;
        let all = sites(s.program());
        if i >= all.len() {
            i = all.len();
            continue;
        }
        let site = all[i];
        for cand in removal_candidates(s.program(), site) {
            if s.try_program(cand) {
                break;
            }
        }
    }
}

fn removal_candidates(p: &Program, site: Site) -> Vec<Program> {
    let one: BTreeSet<Site> = [site].into();
    let Some(def) = site_def(p, site) else {
        return vec![remove_sites(p, &one)];
    };
    if !used_values(p).contains(&def.id) {
        return vec![remove_sites(p, &one)];
    }
    let mut operands: Vec<ValueId> = Vec::new();
    let bits = p.value_bits();
    p.for_each_block(&mut |b| {
        if b.id != site.block {
            return;
        }
        let srcs: Vec<ValueId> = if site.phi {
            b.phis[site.index].srcs.iter().map(|&(_, v)| v).collect()
        } else {
            b.instrs[site.index].srcs.clone()
        };
        for v in srcs {
            if bits.get(v.0 as usize) == Some(&def.bits) && v != def.id && !operands.contains(&v) {
                operands.push(v);
            }
        }
    });
    let mut out = Vec::new();
    // A constant replaced by an equal one merges duplicates; with no other
    // equal constant the candidate is not smaller and costs no check.
    for c in [0u64, 1] {
        let mut e = Editor::new(p);
        let k = e.constant(def.bits, c);
        e.substitute(def.id, k);
        e.remove_sites(&one);
        out.push(e.finish());
    }
    for v in operands {
        let mut e = Editor::new(p);
        e.substitute(def.id, v);
        e.remove_sites(&one);
        out.push(e.finish());
    }
    out
}

/// Drops input, uniform and output slots that no instruction uses (all at
/// once, then one by one), renumbering the rest and the dispatch.
fn drop_unused_slots(s: &mut Session) {
    let unused = |p: &Program| -> Vec<(Op, usize)> {
        let mut used: BTreeSet<(Op, u64)> = BTreeSet::new();
        p.for_each_block(&mut |b| {
            for i in &b.instrs {
                if i.op.has_slot() {
                    used.insert((i.op, i.imm));
                }
            }
        });
        let mut v = Vec::new();
        for (op, n) in [
            (Op::LoadInput, p.inputs.len()),
            (Op::LoadUniform, p.uniforms.len()),
            (Op::StoreOutput, p.outputs.len()),
        ] {
            for slot in (0..n).rev() {
                if !used.contains(&(op, slot as u64)) {
                    v.push((op, slot));
                }
            }
        }
        v
    };
    let all = unused(s.program());
    if all.is_empty() {
        return;
    }
    if all.len() > 1 {
        let mut case = s.case.clone();
        for &(op, slot) in &all {
            drop_slot(&mut case, op, slot);
        }
        if s.try_case(case) {
            return;
        }
    }
    // Highest slots first, so a drop does not renumber the slots after it.
    for (op, slot) in all {
        let mut case = s.case.clone();
        drop_slot(&mut case, op, slot);
        s.try_case(case);
    }
}

/// Removes one slot (of the kind `op` accesses) from the declarations and
/// the dispatch, renumbering the accesses to later slots.
fn drop_slot(case: &mut Case, op: Op, slot: usize) {
    let p = &mut case.program;
    match op {
        Op::LoadInput => {
            p.inputs.remove(slot);
            if let Some(d) = case.dispatch.as_mut() {
                if slot < d.inputs.len() {
                    d.inputs.remove(slot);
                }
            }
        }
        Op::LoadUniform => {
            p.uniforms.remove(slot);
            if let Some(d) = case.dispatch.as_mut() {
                if slot < d.uniforms.len() {
                    d.uniforms.remove(slot);
                }
            }
        }
        _ => {
            p.outputs.remove(slot);
        }
    }
    p.for_each_block_mut(&mut |b| {
        for i in &mut b.instrs {
            if i.op == op && i.imm > slot as u64 {
                i.imm -= 1;
            }
        }
    });
}

/// The simple constants of a size, simplest first: 0, 1, all ones (-1), 2,
/// and the float 1.0 of that size.
pub(super) fn simple_consts(bits: u8) -> Vec<u64> {
    let mut v: Vec<u64> = vec![0, 1];
    if bits > 1 {
        v.push(mask(bits));
        v.push(2);
        if bits >= 16 {
            v.push(ir::float::from_f64(1.0, bits));
        }
    }
    let mut out = Vec::new();
    for x in v {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// How complex a constant is: its position among [`simple_consts`], or one
/// past them for any other value.
pub(super) fn const_rank(bits: u8, v: u64) -> usize {
    let s = simple_consts(bits);
    s.iter().position(|&x| x == v).unwrap_or(s.len())
}

/// Moves every constant toward the simplest values that keep the bug.
fn simplify_constants(s: &mut Session) {
    let mut i = 0;
    loop {
        if s.exhausted() {
            return;
        }
        let all = sites(s.program());
        let Some(&site) = all.get(i) else { return };
        i += 1;
        if site.phi {
            continue;
        }
        let mut found = None;
        s.program().for_each_block(&mut |b| {
            if b.id == site.block {
                let ins = &b.instrs[site.index];
                if ins.op == Op::LoadConst {
                    found = ins.dest.map(|d| (d.bits, ins.imm));
                }
            }
        });
        let Some((bits, imm)) = found else { continue };
        let rank = const_rank(bits, imm);
        for c in simple_consts(bits).into_iter().take(rank) {
            let mut p = s.program().clone();
            p.for_each_block_mut(&mut |b| {
                if b.id == site.block {
                    b.instrs[site.index].imm = c;
                }
            });
            if s.try_program(p) {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::edit;
    use super::*;
    use ir::{parse_program, print_program_compact, validate};

    const LOOPY: &str = "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	loop {
		block b1:
		32 %3 = phi b0: %1, b4: %5
		1 %4 = ige %3, %0
		if %4 {
			block b2:
			break
		} else {
			block b3:
		}
		block b4:
		32 %5 = iadd %3, %2
	}
	block b5:
	@store_output (%3) (slot=0)
}
";

    #[test]
    fn unrolling_a_loop_once_keeps_the_entry_values() {
        let p = parse_program(LOOPY).unwrap();
        let q = edit::renumber(&edit_cf(&p, 0, CfEdit::UnrollOnce).unwrap());
        validate(&q).unwrap();
        assert_eq!(
            print_program_compact(&q),
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	1 %3 = ige %1, %0
	if %3 {
		block b1:
	} else {
		block b2:
	}
	block b3:
	32 %4 = iadd %1, %2
	@store_output (%1) (slot=0)
}
"
        );
    }

    #[test]
    fn removing_a_loop_turns_its_values_into_zero() {
        let p = parse_program(LOOPY).unwrap();
        let q = edit::renumber(&edit_cf(&p, 0, CfEdit::RemoveLoop).unwrap());
        validate(&q).unwrap();
        assert_eq!(
            print_program_compact(&q),
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	@store_output (%1) (slot=0)
}
"
        );
    }

    #[test]
    fn collapsing_the_inner_if_to_its_then_arm_makes_the_loop_break_at_once() {
        let p = parse_program(LOOPY).unwrap();
        // Node 0 is the loop, node 1 the if inside it.
        let q = edit::renumber(&edit_cf(&p, 1, CfEdit::ThenArm).unwrap());
        validate(&q).unwrap();
        assert_eq!(
            print_program_compact(&q),
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000000)
	32 %2 = load_const (0x00000001)
	loop {
		block b1:
		1 %3 = ige %1, %0
		break
	}
	block b2:
	@store_output (%1) (slot=0)
}
"
        );
    }

    #[test]
    fn dropping_a_slot_renumbers_loads_and_dispatch_columns() {
        let mut case = ir::parse_case(
            "shader: t
decl_input 0 i32
decl_input 1 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=1)
	@store_output (%0) (slot=0)
}
dispatch 2 {
	input 0: 7 8
	input 1: 5 6
}
",
        )
        .unwrap();
        drop_slot(&mut case, Op::LoadInput, 0);
        assert_eq!(
            ir::print_case_compact(&case),
            "shader: t
decl_input 0 i32
decl_output 0 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	@store_output (%0) (slot=0)
}
dispatch 2 {
	input 0: 5 6
}
"
        );
    }

    #[test]
    fn constant_ranks_order_the_simple_values() {
        assert_eq!(simple_consts(1), vec![0, 1]);
        assert_eq!(simple_consts(8), vec![0, 1, 0xff, 2]);
        assert_eq!(simple_consts(32), vec![0, 1, 0xffff_ffff, 2, 0x3f80_0000]);
        assert_eq!(const_rank(32, 0x3f80_0000), 4);
        assert_eq!(const_rank(32, 7), 5);
        assert_eq!(const_rank(16, 0), 0);
    }
}
