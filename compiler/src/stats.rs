//! Static statistics of a compiled program (shader-db's raw numbers).

use std::collections::BTreeMap;

/// Instruction counts of one program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StaticStats {
    /// Total instructions.
    pub instructions: u32,
    /// Instructions per opcode mnemonic.
    pub per_opcode: BTreeMap<&'static str, u32>,
    /// Loops (WHILE instructions).
    pub loops: u32,
    /// Sends.
    pub sends: u32,
    /// A static issue-cycle estimate (see [`issue_cycles`]).
    pub cycles: u32,
    /// Spill messages (scratch block writes), as brw's `spill_count`.
    pub spills: u32,
    /// Fill messages (scratch block reads), as brw's `fill_count`.
    pub fills: u32,
}

/// The issue cycles of one instruction in a static estimate: one per 32
/// bytes its widest operand covers across the execution size (at least
/// one), four times that for MATH (the extended math unit runs at a
/// quarter of the rate). This is not Mesa's latency model (the model has no
/// scheduler to feed one); it counts what the boolean strategies change:
/// how many registers' worth of data each instruction moves.
pub fn issue_cycles(i: &eu::Instruction) -> u32 {
    let widest = std::iter::once(i.dst.ty.size())
        .chain(i.srcs.iter().map(|s| s.ty.size()))
        .max()
        .unwrap_or(4);
    let widest = if i.op == eu::Opcode::Send { 4 } else { widest };
    let passes = (u32::from(i.exec_size) * widest).div_ceil(32).max(1);
    if i.op == eu::Opcode::Math {
        4 * passes
    } else {
        passes
    }
}

impl StaticStats {
    /// Counts a program.
    pub fn of(p: &eu::Program) -> StaticStats {
        let mut s = StaticStats::default();
        // Counted by opcode index, named once per opcode present.
        let mut counts = [0u32; eu::ALL_OPCODES.len()];
        for i in &p.insts {
            s.instructions += 1;
            s.cycles += issue_cycles(i);
            counts[i.op.index()] += 1;
            match i.op {
                eu::Opcode::While => s.loops += 1,
                eu::Opcode::Send => s.sends += 1,
                _ => {}
            }
            match i.msg {
                Some(eu::Message::ScratchWrite { .. }) => s.spills += 1,
                Some(eu::Message::ScratchRead { .. }) => s.fills += 1,
                _ => {}
            }
        }
        for (op, &n) in eu::ALL_OPCODES.iter().zip(&counts) {
            if n > 0 {
                s.per_opcode.insert(op.name(), n);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_cycles_count_registers_moved() {
        let p = eu::parse_program(
            "add(16) g4<1>D g2<8,8,1>D g6<8,8,1>D\n\
             add(8) g4<1>Q g2<4,4,1>Q g6<4,4,1>Q\n\
             add(16) g4<1>W g2<16,16,1>W g6<16,16,1>W\n\
             mov(1) g4<1>UD 0x00000001UD { align1 WE_all 1N };\n\
             math intdiv(8) g4<1>D g2<8,8,1>D g6<8,8,1>D\n",
        )
        .unwrap();
        // By hand: 16 x 4 B = 2 GRFs; 8 x 8 B = 2; 16 x 2 B = 1; a scalar
        // is 1; math 8 x 4 B = 1 GRF at quarter rate = 4.
        let want = [2, 2, 1, 1, 4];
        for (i, w) in p.insts.iter().zip(want) {
            assert_eq!(issue_cycles(i), w, "{}", eu::print_instruction(i));
        }
        assert_eq!(StaticStats::of(&p).cycles, 10);
    }
}
