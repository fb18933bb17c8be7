//! The `substitute` mutator: the value an instruction reads at one
//! operand position is replaced, at that position of that instruction and
//! of every later one of its block that reads it there, by another value
//! of the same size: one defined earlier in the block, or a new input.
//!
//! Generation and reduction leave operand relations the compiler's
//! legality checks then see only degenerate data for: `x - x` beside
//! `x < x` (a reduced case's twins collapse to one operand), a
//! subtraction whose second operand is a clamp of its first (so `a < b`
//! never holds), a single uniform. A wrong decision on such data changes
//! no output. Replacing by position keeps every *relation between the
//! later readers* (a subtraction and the comparison of its operands stay
//! twins, a CSE pair stays a pair) while the operands come apart and the
//! data comes from somewhere else, often per-invocation input: the step
//! from "reached the corner" to "reached it with data that shows a wrong
//! decision", for every decision point at once.
//!
//! Only value sources are replaced ([`super::value_srcs`]: not shift
//! counts, indices or select conditions), by values defined before the
//! site in the same block or loaded at the block's start, so dominance
//! holds by construction.

use super::{choose_at, value_srcs};
use crate::entropy::Entropy;
use crate::values::slot_value;
use ir::{Block, Case, Def, Instr, Op, SlotType, ValueId};

/// At most this many input slots after `substitute` adds one.
pub const MAX_INPUTS: usize = 8;

/// Percent of edge values in a new input's lanes.
const EDGE_PERCENT: u32 = 25;

/// The values of `bits` bits a reader at instruction `i` of `b` can take
/// instead of `old`: the block's phis and the results of its instructions
/// before `i`.
fn candidates(b: &Block, i: usize, bits: u8, old: ValueId) -> Vec<ValueId> {
    let phis = b.phis.iter().map(|p| p.dest);
    let earlier = b.instrs[..i].iter().filter_map(|ins| ins.dest);
    phis.chain(earlier)
        .filter(|d| d.bits == bits && d.id != old)
        .map(|d| d.id)
        .collect()
}

/// The (instruction, source) pairs of `b` whose value has a replacement:
/// an earlier value, or a new input (`input_room`) for a value wider
/// than a boolean that has a slot type.
fn sites(b: &Block, bits: &[u8], input_room: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, ins) in b.instrs.iter().enumerate() {
        if !super::generated(ins.op) {
            continue;
        }
        for k in value_srcs(ins.op) {
            let v = ins.srcs[k];
            let w = bits[v.0 as usize];
            let input = input_room && w > 1 && input_type(ins.op, w).is_some();
            if input || !candidates(b, i, w, v).is_empty() {
                out.push((i, k));
            }
        }
    }
    out
}

/// The slot type of a new input read where `op` reads a value of `bits`.
fn input_type(op: Op, bits: u8) -> Option<SlotType> {
    if op.info().kinds.src == ir::op::ValueKind::Float {
        SlotType::float_of_bits(bits)
    } else {
        SlotType::int_of_bits(bits)
    }
}

/// Replaces the value one instruction reads at one operand position, and
/// the same value at the same position in every later instruction of the
/// block, by an earlier value of its size or (half the time, and always
/// when there is none) a new input with random lanes.
pub(super) fn substitute(c: &mut Case, e: &mut dyn Entropy) -> bool {
    let bits = c.program.value_bits();
    let next = c.program.value_bound() as u32;
    let slot = c.program.inputs.len();
    let input_room = slot < MAX_INPUTS && c.dispatch.is_some();
    let count = |b: &Block| sites(b, &bits, input_room).len();
    let mut input = None;
    let done = choose_at(&mut c.program, e, &count, &mut |b, k, e| {
        let (mut i, s) = sites(b, &bits, input_room)[k];
        let old = b.instrs[i].srcs[s];
        let w = bits[old.0 as usize];
        let options = candidates(b, i, w, old);
        let ty = input_type(b.instrs[i].op, w).filter(|_| input_room && w > 1);
        let new = match ty {
            Some(ty) if options.is_empty() || e.chance(1, 2) => {
                b.instrs.insert(
                    0,
                    Instr {
                        op: Op::LoadInput,
                        dest: Some(Def {
                            id: ValueId(next),
                            bits: w,
                        }),
                        srcs: vec![],
                        imm: slot as u64,
                    },
                );
                i += 1;
                input = Some(ty);
                ValueId(next)
            }
            _ => options[e.below(options.len() as u64) as usize],
        };
        for ins in &mut b.instrs[i..] {
            if value_srcs(ins.op).contains(&s) && ins.srcs[s] == old {
                ins.srcs[s] = new;
            }
        }
    });
    if let (Some(ty), Some(d)) = (input, c.dispatch.as_mut()) {
        c.program.inputs.push(ty);
        let lanes = (0..d.invocations)
            .map(|_| slot_value(e, ty, EDGE_PERCENT))
            .collect();
        d.inputs.push(lanes);
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutate::tests::Script;

    #[test]
    fn a_substitute_replaces_the_value_at_its_position_in_later_readers() {
        let text = |body: &str| {
            format!(
                "shader: t\ndecl_input 0 f32\ndecl_input 1 f32\ndecl_output 0 f32\ndecl_output 1 i32\nimpl main {{\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_input () (slot=1)\n\t32 %2 = fmax %0, %1\n{body}}}\n"
            )
        };
        let case = ir::parse_case(&text(
            "\t32 %3 = fsub %2, %0\n\t1 %4 = flt %2, %0\n\t32 %5 = bcsel %4, %2, %0\n\t@store_output (%3) (slot=0)\n\t@store_output (%5) (slot=1)\n",
        ))
        .unwrap();
        // No dispatch, so no new input. Sites in order: the fmax's %0 and
        // %1 (each can take the other), then the fsub's %2 (site 2), whose
        // candidates are %0 and %1; option 1 is %1. The fsub and the flt
        // read %1 as their first operand after; the bcsel reads %2 at
        // another position and keeps it.
        let mut c = case;
        assert!(substitute(&mut c, &mut Script(vec![2, 1])));
        let want = ir::parse_program(&text(
            "\t32 %3 = fsub %1, %0\n\t1 %4 = flt %1, %0\n\t32 %5 = bcsel %4, %2, %0\n\t@store_output (%3) (slot=0)\n\t@store_output (%5) (slot=1)\n",
        ))
        .unwrap();
        assert_eq!(c.program, want);
    }

    #[test]
    fn collapsed_twins_come_apart_on_a_new_input() {
        // A reduced case: x - x and x < x on one uniform.
        let case = ir::parse_case(
            "shader: t\ndecl_uniform 0 f32\ndecl_output 0 f32\ndecl_output 1 f32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_uniform () (slot=0)\n\t32 %1 = fsub %0, %0\n\t1 %2 = flt %0, %0\n\t32 %3 = bcsel %2, %1, %0\n\t@store_output (%1) (slot=0)\n\t@store_output (%3) (slot=1)\n}\ndispatch 2 {\n\tuniform 0: 0\n}\n",
        )
        .unwrap();
        // Site 0 (the fsub's first %0: only a new input can replace it);
        // then the two lanes' values, drawn as `slot_value` draws them.
        let mut c = case;
        let lanes = [0x3f80_0000u64, 0xc000_0000];
        let mut script = vec![0];
        for v in lanes {
            // No sign flip (1 of 2), not an edge (99 of 100), not a
            // decimal (3 of 4), then the float's raw bits.
            script.extend([1, 99, 3, v]);
        }
        assert!(substitute(&mut c, &mut Script(script)));
        let want = ir::parse_program(
            "shader: t\ndecl_input 0 f32\ndecl_uniform 0 f32\ndecl_output 0 f32\ndecl_output 1 f32\nimpl main {\n\tblock b0:\n\t32 %4 = @load_input () (slot=0)\n\t32 %0 = @load_uniform () (slot=0)\n\t32 %1 = fsub %4, %0\n\t1 %2 = flt %4, %0\n\t32 %3 = bcsel %2, %1, %0\n\t@store_output (%1) (slot=0)\n\t@store_output (%3) (slot=1)\n}\n",
        )
        .unwrap();
        assert_eq!(c.program, want);
        assert_eq!(c.program.inputs, [SlotType::F32]);
        assert_eq!(c.dispatch.unwrap().inputs, [lanes.to_vec()]);
    }
}
