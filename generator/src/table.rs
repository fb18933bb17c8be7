//! The generator's op table: one row per IR op it can emit, with its weight.
//! Rows are derived from the IR op table: every ALU and subgroup op gets a
//! row, built generically from its signature, so a new IR op is generated as
//! soon as it exists. Ops whose inputs can be undefined get a guard in
//! `guards.rs`; a test checks that every such op has one.

use ir::op::{Op, OpClass};

/// One row: the op and how often to pick it relative to the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The op.
    pub op: Op,
    /// Relative weight.
    pub weight: u32,
}

/// The weight of an op: comparisons, logic and bitfield ops (the threads'
/// subjects) are favoured; subgroup ops are common enough to land in
/// divergent control flow often.
pub fn weight(op: Op) -> u32 {
    use Op::*;
    match op {
        Ieq | Ine | Ilt | Ige | Ult | Uge | Feq | Fneu | Flt | Fge => 12,
        Iand | Ior | Ixor | Inot | Bcsel => 10,
        Iadd | Isub | Imul | Fadd | Fmul | Ffma | Fsub => 8,
        Bfm | Bfi | Ibfe | Ubfe | BitfieldInsert | IbitfieldExtract | UbitfieldExtract | Ishl
        | Ishr | Ushr => 7,
        Ballot | VoteAny | VoteAll | VoteIeq | ReadFirstInvocation | ReadInvocation | Elect => 5,
        I2i | U2u | I2f | U2f | F2i | F2u | F2f | B2i | B2f | I2b | F2b => 6,
        _ => 4,
    }
}

/// The rows for every op the generator can emit (ALU and subgroup ops).
pub fn rows() -> Vec<Row> {
    Op::all()
        .filter(|op| matches!(op.info().class, OpClass::Alu | OpClass::Subgroup))
        .map(|op| Row {
            op,
            weight: weight(op),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alu_and_subgroup_op_has_a_row() {
        let r = rows();
        let n = Op::all()
            .filter(|op| matches!(op.info().class, OpClass::Alu | OpClass::Subgroup))
            .count();
        assert_eq!(r.len(), n);
        assert!(r.iter().all(|row| row.weight > 0));
    }

    #[test]
    fn every_op_with_undefined_inputs_has_a_guard() {
        for row in rows() {
            if row.op.may_be_undefined() {
                assert!(
                    crate::guards::has_guard(row.op),
                    "{} needs a guard",
                    row.op.name()
                );
            }
        }
    }
}
