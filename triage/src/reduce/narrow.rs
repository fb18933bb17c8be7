//! Type narrowing: a size class of values (those that must share one size)
//! moves one step down, 64 to 32, 32 to 16, 16 to 8 bits (floats stop at
//! 16), together with its constants, the slots it loads or stores and
//! their dispatch columns. No conversions are inserted: a class whose ops
//! do not take the smaller size simply fails to validate and is skipped.

use super::Session;
use ir::op::Sig;
use ir::types::mask;
use ir::{Case, Op, Program, SizeSet, SlotType, ValueId};
use std::collections::{BTreeMap, BTreeSet};

/// Groups of values that must share one size (an op's same-size operands,
/// a phi and its sources, the loads of one slot, the stores to one slot),
/// with whether a float op reads or writes any of them.
struct SizeClasses {
    parent: BTreeMap<Node, Node>,
    float: BTreeSet<Node>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Node {
    Value(u32),
    Input(u64),
    Uniform(u64),
    Output(u64),
}

impl SizeClasses {
    fn find(&mut self, n: Node) -> Node {
        let mut r = n;
        while let Some(&p) = self.parent.get(&r) {
            if p == r {
                break;
            }
            r = p;
        }
        let mut x = n;
        while x != r {
            let p = self.parent.get(&x).copied().unwrap_or(r);
            self.parent.insert(x, r);
            x = p;
        }
        self.parent.entry(r).or_insert(r);
        r
    }

    fn union(&mut self, a: Node, b: Node) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent.insert(hi, lo);
        }
    }

    fn of(p: &Program) -> SizeClasses {
        let mut c = SizeClasses {
            parent: BTreeMap::new(),
            float: BTreeSet::new(),
        };
        let v = |id: ValueId| Node::Value(id.0);
        p.for_each_block(&mut |b| {
            for phi in &b.phis {
                c.find(v(phi.dest.id));
                for &(_, s) in &phi.srcs {
                    c.union(v(phi.dest.id), v(s));
                }
            }
            for i in &b.instrs {
                let d = i.dest.map(|d| v(d.id));
                if let Some(d) = d {
                    c.find(d);
                }
                match i.op.info().sig {
                    Sig::Same { sizes, .. } => {
                        for &s in &i.srcs {
                            if let Some(d) = d {
                                c.union(d, v(s));
                            }
                            if sizes == SizeSet::FLOAT {
                                c.float.insert(v(s));
                            }
                        }
                        if let (Some(d), true) = (d, sizes == SizeSet::FLOAT) {
                            c.float.insert(d);
                        }
                    }
                    Sig::Compare { sizes } => {
                        c.union(v(i.srcs[0]), v(i.srcs[1]));
                        if sizes == SizeSet::FLOAT {
                            c.float.insert(v(i.srcs[0]));
                        }
                    }
                    Sig::Convert { from, to } => {
                        if from == SizeSet::FLOAT {
                            c.float.insert(v(i.srcs[0]));
                        }
                        if let (Some(d), true) = (d, to == SizeSet::FLOAT) {
                            c.float.insert(d);
                        }
                    }
                    Sig::Indexed { .. } => {
                        if let Some(d) = d {
                            c.union(d, v(i.srcs[0]));
                        }
                    }
                    Sig::Select { .. } => {
                        if let Some(d) = d {
                            c.union(d, v(i.srcs[1]));
                            c.union(d, v(i.srcs[2]));
                        }
                    }
                    Sig::LoadSlot => {
                        let slot = if i.op == Op::LoadInput {
                            Node::Input(i.imm)
                        } else {
                            Node::Uniform(i.imm)
                        };
                        if let Some(d) = d {
                            c.union(d, slot);
                        }
                    }
                    Sig::StoreSlot => c.union(v(i.srcs[0]), Node::Output(i.imm)),
                    Sig::Fixed32 { .. } | Sig::Nullary { .. } | Sig::Effect => {}
                }
            }
        });
        for (slots, make) in [
            (&p.inputs, Node::Input as fn(u64) -> Node),
            (&p.uniforms, Node::Uniform),
            (&p.outputs, Node::Output),
        ] {
            for (k, t) in slots.iter().enumerate() {
                if t.is_float() {
                    c.float.insert(make(k as u64));
                }
            }
        }
        c
    }

    /// The classes, each as its sorted members, ordered by first member.
    fn classes(&mut self) -> Vec<(Vec<Node>, bool)> {
        let nodes: Vec<Node> = self.parent.keys().copied().collect();
        let mut groups: BTreeMap<Node, Vec<Node>> = BTreeMap::new();
        for n in nodes {
            let r = self.find(n);
            groups.entry(r).or_default().push(n);
        }
        let mut out: Vec<(Vec<Node>, bool)> = groups
            .into_values()
            .map(|members| {
                let float = members.iter().any(|m| self.float.contains(m));
                (members, float)
            })
            .collect();
        out.sort();
        out
    }
}

/// Converts a value of `from` bits to `to` bits: floats by value, integers
/// by truncation.
fn narrow_value(v: u64, from: u8, to: u8, float: bool) -> u64 {
    if float {
        ir::float::from_f64(ir::float::to_f64(v, from), to)
    } else {
        v & mask(to)
    }
}

fn narrow_slot(t: SlotType, to: u8) -> SlotType {
    if t.is_float() {
        SlotType::float_of_bits(to).unwrap_or(t)
    } else {
        SlotType::int_of_bits(to).unwrap_or(t)
    }
}

/// Narrows one size class (64 to 32, 32 to 16, 16 to 8 bits): every value
/// in it, its constants (floats converted by value, integers truncated), the
/// slots it loads or stores and their dispatch columns. The candidate only
/// survives if every op involved takes the smaller size.
fn narrow_class(case: &Case, members: &[Node], float: bool, from: u8, to: u8) -> Case {
    let values: BTreeSet<u32> = members
        .iter()
        .filter_map(|m| match m {
            Node::Value(v) => Some(*v),
            _ => None,
        })
        .collect();
    let mut out = case.clone();
    out.program.for_each_block_mut(&mut |b| {
        for phi in &mut b.phis {
            if values.contains(&phi.dest.id.0) {
                phi.dest.bits = to;
            }
        }
        for i in &mut b.instrs {
            if let Some(d) = &mut i.dest {
                if values.contains(&d.id.0) {
                    d.bits = to;
                    if i.op == Op::LoadConst {
                        i.imm = narrow_value(i.imm, from, to, float);
                    }
                }
            }
        }
    });
    for m in members {
        match *m {
            Node::Input(k) => {
                let t = &mut out.program.inputs[k as usize];
                *t = narrow_slot(*t, to);
                if let Some(d) = out.dispatch.as_mut() {
                    for v in &mut d.inputs[k as usize] {
                        *v = narrow_value(*v, from, to, float);
                    }
                }
            }
            Node::Uniform(k) => {
                let t = &mut out.program.uniforms[k as usize];
                *t = narrow_slot(*t, to);
                if let Some(d) = out.dispatch.as_mut() {
                    let v = &mut d.uniforms[k as usize];
                    *v = narrow_value(*v, from, to, float);
                }
            }
            Node::Output(k) => {
                let t = &mut out.program.outputs[k as usize];
                *t = narrow_slot(*t, to);
            }
            Node::Value(_) => {}
        }
    }
    out
}

/// Narrows size classes of values, one at a time, one step at a time.
pub(super) fn narrow_types(s: &mut Session) {
    let mut k = 0;
    loop {
        if s.exhausted() {
            return;
        }
        let bits = s.program().value_bits();
        let classes = SizeClasses::of(s.program()).classes();
        let Some((members, float)) = classes.get(k) else {
            return;
        };
        let size = members.iter().find_map(|m| match m {
            Node::Value(v) => bits.get(*v as usize).copied(),
            _ => None,
        });
        let to = match size {
            Some(64) => Some(32),
            Some(32) => Some(16),
            Some(16) if !float => Some(8),
            _ => None,
        };
        let progressed = match (size, to) {
            (Some(from), Some(to)) => {
                let cand = narrow_class(&s.case, members, *float, from, to);
                s.try_case(cand)
            }
            _ => false,
        };
        if !progressed {
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::validate;

    #[test]
    fn narrowing_a_64_bit_class_converts_slots_constants_and_inputs() {
        let case = ir::parse_case(
            "shader: t
decl_input 0 i64
decl_input 1 f64
decl_output 0 i64
decl_output 1 f64
impl main {
	block b0:
	64 %0 = @load_input () (slot=0)
	64 %1 = load_const (0x0000000100000003)
	64 %2 = iadd %0, %1
	@store_output (%2) (slot=0)
	64 %3 = @load_input () (slot=1)
	64 %4 = load_const (0x3ff8000000000000)
	64 %5 = fmul %3, %4
	@store_output (%5) (slot=1)
}
dispatch 2 {
	input 0: 4294967297 -1
	input 1: 2.5 -0.0
}
",
        )
        .unwrap();
        let mut classes = SizeClasses::of(&case.program).classes();
        assert_eq!(classes.len(), 2);
        let (members, float) = classes.remove(1);
        assert!(float);
        let narrowed = narrow_class(&case, &members, true, 64, 32);
        let (members, float) = classes.remove(0);
        assert!(!float);
        let narrowed = narrow_class(&narrowed, &members, false, 64, 32);
        validate(&narrowed.program).unwrap();
        assert_eq!(
            ir::print_case_compact(&narrowed),
            "shader: t
decl_input 0 i32
decl_input 1 f32
decl_output 0 i32
decl_output 1 f32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = load_const (0x00000003)
	32 %2 = iadd %0, %1
	@store_output (%2) (slot=0)
	32 %3 = @load_input () (slot=1)
	32 %4 = load_const (0x3fc00000)
	32 %5 = fmul %3, %4
	@store_output (%5) (slot=1)
}
dispatch 2 {
	input 0: 1 -1
	input 1: 2.5 -0.0
}
"
        );
    }
}
