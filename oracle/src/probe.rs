//! Value probes: where, inside a program, a compile first goes wrong.
//!
//! Localization names the stage after which the outputs diverge; a driver
//! has no stages at all. Probes look inside the program instead: every
//! value (each phi, and each instruction with a result) is also stored to
//! an output slot of its own, right after it is defined, and the probed
//! program is checked like the original. The first probe (in program
//! order, so definitions come before their uses) whose slot disagrees with
//! the oracle names the first value computed wrongly, and its op (say
//! `ufind_msb` or `flt`) separates one bug from another where the stage
//! alone cannot: two bugs in one pass, two lowering bugs, two driver bugs.
//!
//! A probe is a store, so it keeps its value alive: a pass that removed the
//! value, or a register allocator short of registers, may then behave
//! differently. When the probed program does not fail the same way, there
//! is no probe answer; callers fall back to the stage alone.

use crate::check::LaneDiff;
use ir::op::Op;
use ir::{CfNode, Instr, Program, SlotType, ValueId};

/// One probe: the output slot that holds a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The probe's output slot in the probed program.
    pub slot: usize,
    /// The value probed.
    pub value: ValueId,
    /// Its defining op (`None` for a phi).
    pub op: Option<Op>,
    /// Its bit size.
    pub bits: u8,
}

impl Probe {
    /// The op's name, or `phi`.
    pub fn op_name(&self) -> &'static str {
        self.op.map_or("phi", Op::name)
    }
}

/// The integer slot type of a value size (booleans as `bool`).
fn slot_type(bits: u8) -> SlotType {
    match bits {
        1 => SlotType::Bool,
        8 => SlotType::I8,
        16 => SlotType::I16,
        32 => SlotType::I32,
        _ => SlotType::I64,
    }
}

/// `program` with a probe after every value, and the probes in program
/// order. The original output slots keep their numbers.
pub fn probed(program: &Program) -> (Program, Vec<Probe>) {
    fn walk(list: &mut [CfNode], outputs: &mut Vec<SlotType>, probes: &mut Vec<Probe>) {
        for node in list {
            match node {
                CfNode::Block(b) => {
                    let mut instrs = Vec::with_capacity(b.instrs.len() * 2 + b.phis.len());
                    let mut probe =
                        |value: ValueId, op: Option<Op>, bits: u8, out: &mut Vec<Instr>| {
                            let slot = outputs.len();
                            outputs.push(slot_type(bits));
                            probes.push(Probe {
                                slot,
                                value,
                                op,
                                bits,
                            });
                            out.push(Instr {
                                op: Op::StoreOutput,
                                dest: None,
                                srcs: vec![value],
                                imm: slot as u64,
                            });
                        };
                    for phi in &b.phis {
                        probe(phi.dest.id, None, phi.dest.bits, &mut instrs);
                    }
                    for i in std::mem::take(&mut b.instrs) {
                        let def = i.dest.filter(|_| i.op != Op::LoadConst);
                        let op = i.op;
                        instrs.push(i);
                        if let Some(d) = def {
                            probe(d.id, Some(op), d.bits, &mut instrs);
                        }
                    }
                    b.instrs = instrs;
                }
                CfNode::If(f) => {
                    walk(&mut f.then_body, outputs, probes);
                    walk(&mut f.else_body, outputs, probes);
                }
                CfNode::Loop(l) => walk(&mut l.body, outputs, probes),
            }
        }
    }
    let mut p = program.clone();
    let mut probes = Vec::new();
    let mut outputs = std::mem::take(&mut p.outputs);
    walk(&mut p.body, &mut outputs, &mut probes);
    p.outputs = outputs;
    (p, probes)
}

/// The op of the first value the model computes wrongly for `case` under
/// `config`: the probed case is checked like the original and the first
/// differing probe names it. `None` when the probed case does not mismatch
/// (a probe changed how it compiles) or only original slots differ.
pub fn model_divergence(case: &ir::Case, config: &crate::Config) -> Option<String> {
    let (program, probes) = probed(&case.program);
    let c = ir::Case {
        program,
        dispatch: case.dispatch.clone(),
    };
    match crate::check(&c, config) {
        crate::Verdict::Mismatch { diffs } => {
            first_divergence(&probes, &diffs).map(|p| p.op_name().to_string())
        }
        _ => None,
    }
}

/// The first probe (in program order) among the differing slots, if any
/// probe differs.
pub fn first_divergence<'a>(probes: &'a [Probe], diffs: &[LaneDiff]) -> Option<&'a Probe> {
    let first_slot = probes.first()?.slot;
    let slot = diffs
        .iter()
        .map(|d| d.slot)
        .filter(|&s| s >= first_slot)
        .min()?;
    probes.get(slot - first_slot)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "shader: t\ndecl_input 0 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = load_const (0x00000002)\n\t32 %2 = iadd %0, %1\n\t1 %3 = ilt %2, %1\n\tif %3 {\n\t\tblock b1:\n\t\t32 %4 = imul %2, %2\n\t} else {\n\t\tblock b2:\n\t}\n\tblock b3:\n\t32 %5 = phi b1: %4, b2: %2\n\t@store_output (%5) (slot=0)\n}\n";

    #[test]
    fn every_value_gets_a_slot_after_its_definition() {
        let p = ir::parse_program(TEXT).unwrap();
        let (q, probes) = probed(&p);
        ir::validate(&q).unwrap();
        let names: Vec<(usize, u32, &str, u8)> = probes
            .iter()
            .map(|x| (x.slot, x.value.0, x.op_name(), x.bits))
            .collect();
        // Constants are not probed; the phi is, at its block's start.
        assert_eq!(
            names,
            vec![
                (1, 0, "load_input", 32),
                (2, 2, "iadd", 32),
                (3, 3, "ilt", 1),
                (4, 4, "imul", 32),
                (5, 5, "phi", 32),
            ]
        );
        assert_eq!(
            q.outputs,
            vec![
                SlotType::I32,
                SlotType::I32,
                SlotType::I32,
                SlotType::Bool,
                SlotType::I32,
                SlotType::I32
            ]
        );
        // The probed program computes what the original does, plus probes.
        let d = ir::Dispatch {
            invocations: 3,
            inputs: vec![vec![0xffff_ffff, 5, 0xffff_fffe]],
            uniforms: vec![],
        };
        let cfg = crate::InterpConfig {
            simd: 8,
            step_budget: 1000,
        };
        let a = crate::run(&p, &d, &cfg).unwrap();
        let b = crate::run(&q, &d, &cfg).unwrap();
        for inv in 0..3 {
            assert_eq!(a.get(inv, 0), b.get(inv, 0));
        }
        // Invocation 0: %2 = 1 < 2, so %4 = 1 and the phi takes it.
        assert_eq!(
            (b.get(0, 2), b.get(0, 3), b.get(0, 4), b.get(0, 5)),
            (Some(1), Some(1), Some(1), Some(1))
        );
        // Invocation 1: %2 = 7, the else side: %4 never stored.
        assert_eq!((b.get(1, 4), b.get(1, 5)), (None, Some(7)));
    }

    #[test]
    fn the_first_differing_probe_is_the_earliest_in_program_order() {
        let p = ir::parse_program(TEXT).unwrap();
        let (_, probes) = probed(&p);
        let diff = |lane: u32, slot: usize| LaneDiff {
            lane,
            slot,
            expected: String::new(),
            got: String::new(),
        };
        let d = [diff(0, 0), diff(2, 5), diff(1, 3)];
        assert_eq!(
            first_divergence(&probes, &d).map(|p| p.op_name()),
            Some("ilt")
        );
        assert_eq!(first_divergence(&probes, &[diff(0, 0)]), None);
    }
}
