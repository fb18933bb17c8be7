//! Static statistics of a compiled program (shader-db's raw numbers).

use std::collections::BTreeMap;

/// Instruction counts of one program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StaticStats {
    /// Total instructions.
    pub instructions: u32,
    /// Instructions per opcode mnemonic.
    pub per_opcode: BTreeMap<String, u32>,
    /// Loops (WHILE instructions).
    pub loops: u32,
    /// Sends.
    pub sends: u32,
}

impl StaticStats {
    /// Counts a program.
    pub fn of(p: &eu::Program) -> StaticStats {
        let mut s = StaticStats::default();
        for i in &p.insts {
            s.instructions += 1;
            *s.per_opcode.entry(i.op.name().to_string()).or_default() += 1;
            match i.op {
                eu::Opcode::While => s.loops += 1,
                eu::Opcode::Send => s.sends += 1,
                _ => {}
            }
        }
        s
    }
}
