//! The opcode table: one row per EU opcode with its mnemonic, operand
//! counts and hardware facts (which modifiers it takes, which operand types,
//! whether it is control flow). The validator, the simulator's decoder, the
//! assembler, every brw pass of the compiler and the fuzz target's program
//! generator read these facts here; a pass adds its own policy as an extra
//! condition on a fact, never a list of its own. `eu/OPCODES.md` is this
//! table rendered (a test keeps it current).

/// An EU opcode (Gfx11, Align1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opcode {
    /// Move with conversion.
    Mov,
    /// Select (predicated) or min/max (`.l` / `.ge`).
    Sel,
    /// Bitwise NOT.
    Not,
    /// Bitwise AND.
    And,
    /// Bitwise OR.
    Or,
    /// Bitwise XOR.
    Xor,
    /// Shift left.
    Shl,
    /// Logical shift right.
    Shr,
    /// Arithmetic shift right.
    Asr,
    /// Compare; writes flags and a 0/~0 destination.
    Cmp,
    /// Compare, true when src1 is NaN.
    Cmpn,
    /// Add.
    Add,
    /// Rounding integer average.
    Avg,
    /// Multiply.
    Mul,
    /// Fused multiply-add: src0 + src1·src2.
    Mad,
    /// Fraction: x − floor(x).
    Frc,
    /// Round down.
    Rndd,
    /// Round to nearest even.
    Rnde,
    /// Round toward zero.
    Rndz,
    /// Leading zero detect.
    Lzd,
    /// Find first bit high.
    Fbh,
    /// Find first bit low.
    Fbl,
    /// Count bits set.
    Cbit,
    /// Bit reverse.
    Bfrev,
    /// Bit field extract (width, offset, value).
    Bfe,
    /// Bit field mask (width, offset).
    Bfi1,
    /// Bit field insert (mask, insert, base).
    Bfi2,
    /// Conditional select on src2 compared with zero.
    Csel,
    /// Extended math (integer division functions).
    Math,
    /// Structured IF.
    If,
    /// Structured ELSE.
    Else,
    /// Structured ENDIF.
    Endif,
    /// Loop back-edge (DO-less loops).
    While,
    /// Loop break.
    Break,
    /// Loop continue.
    Cont,
    /// Halt (discard) to the halt target.
    Halt,
    /// Message send (surface load/store, thread end).
    Send,
    /// No operation.
    Nop,
}

/// What kind of instruction an opcode makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpcodeClass {
    /// An ALU instruction: a destination and register/immediate sources.
    Alu,
    /// Structured control flow: JIP (and maybe UIP), no operands.
    ControlFlow,
    /// A message send (its operands are in the message descriptor).
    Send,
    /// No operation.
    Nop,
}

/// Opcode facts, as bit flags.
pub mod facts {
    /// Takes a conditional modifier that writes the flag from the result
    /// (Mesa `can_do_cmod`).
    pub const CMOD: u16 = 1;
    /// The conditional modifier is part of the operation: it decides the
    /// result (CMP/CMPN compare, SEL picks min or max, CSEL tests src2).
    pub const CMOD_DECIDES: u16 = 2;
    /// Takes `.sat` (Mesa `can_do_saturate`).
    pub const SAT: u16 = 4;
    /// Takes no source modifiers (negate, abs).
    pub const NO_SRC_MODS: u16 = 8;
    /// A logic op: negate means bitwise NOT, abs is illegal.
    pub const LOGIC: u16 = 16;
    /// Its two sources may be swapped without changing the result.
    pub const COMMUTATIVE: u16 = 32;
    /// Float operands and destination only.
    pub const FLOAT_ONLY: u16 = 64;
    /// Integer operands and destination only.
    pub const INT_ONLY: u16 = 128;
    /// D/UD operands and destination only.
    pub const DWORD_ONLY: u16 = 256;
    /// Carries a UIP (besides its JIP).
    pub const UIP: u16 = 512;
}

/// One row of the opcode table.
#[derive(Debug)]
pub struct OpcodeInfo {
    /// The opcode.
    pub op: Opcode,
    /// Mnemonic as printed by Mesa's disassembler.
    pub name: &'static str,
    /// What kind of instruction it makes.
    pub class: OpcodeClass,
    /// Register/immediate sources (0 for control flow, sends and NOP).
    pub srcs: u8,
    /// Facts (see [`facts`]).
    pub facts: u16,
    /// What it computes, in a line.
    pub doc: &'static str,
}

use facts::*;

macro_rules! opcode_table {
    ($( $variant:ident = $name:literal, $class:ident, $srcs:literal, $facts:expr, $doc:literal; )*) => {
        /// The opcode table, indexed by `Opcode as usize`.
        pub static OPCODES: &[OpcodeInfo] = &[
            $( OpcodeInfo { op: Opcode::$variant, name: $name, class: OpcodeClass::$class,
                            srcs: $srcs, facts: $facts, doc: $doc } ),*
        ];

        /// Every opcode, in table order (the index used by statistics).
        pub const ALL_OPCODES: [Opcode; [$(Opcode::$variant),*].len()] = [$(Opcode::$variant),*];
    };
}

const NONE: u16 = 0;
const CMOD_SAT: u16 = CMOD | SAT;
const BITS: u16 = NO_SRC_MODS | INT_ONLY | DWORD_ONLY;

opcode_table! {
    Mov = "mov", Alu, 1, CMOD_SAT, "dst = src0, converted to the destination type";
    Sel = "sel", Alu, 2, CMOD_SAT | CMOD_DECIDES, "predicated: src0 where the predicate holds, else src1; with .l/.ge: min/max";
    Not = "not", Alu, 1, CMOD | LOGIC | INT_ONLY, "bitwise NOT";
    And = "and", Alu, 2, CMOD | LOGIC | INT_ONLY | COMMUTATIVE, "bitwise AND";
    Or = "or", Alu, 2, CMOD | LOGIC | INT_ONLY | COMMUTATIVE, "bitwise OR";
    Xor = "xor", Alu, 2, CMOD | LOGIC | INT_ONLY | COMMUTATIVE, "bitwise XOR";
    Shl = "shl", Alu, 2, CMOD_SAT | INT_ONLY, "shift left (count masked to 5 bits, 6 for Q)";
    Shr = "shr", Alu, 2, CMOD_SAT | INT_ONLY, "logical shift right";
    Asr = "asr", Alu, 2, CMOD_SAT | INT_ONLY, "arithmetic shift right";
    Cmp = "cmp", Alu, 2, CMOD | CMOD_DECIDES, "compare: flag and a 0/~0 destination";
    Cmpn = "cmpn", Alu, 2, CMOD | CMOD_DECIDES, "compare, true when src1 is NaN";
    Add = "add", Alu, 2, CMOD_SAT | COMMUTATIVE, "src0 + src1";
    Avg = "avg", Alu, 2, CMOD_SAT | INT_ONLY | COMMUTATIVE, "(src0 + src1 + 1) >> 1, exactly";
    Mul = "mul", Alu, 2, CMOD_SAT | COMMUTATIVE, "src0 * src1 (no DW x DW, no Q integer product on Gfx11)";
    Mad = "mad", Alu, 3, CMOD_SAT | FLOAT_ONLY, "src0 + src1 * src2, fused";
    Frc = "frc", Alu, 1, CMOD_SAT | FLOAT_ONLY, "src0 - floor(src0)";
    Rndd = "rndd", Alu, 1, CMOD_SAT | FLOAT_ONLY, "round toward -inf";
    Rnde = "rnde", Alu, 1, CMOD_SAT | FLOAT_ONLY, "round to nearest even";
    Rndz = "rndz", Alu, 1, CMOD_SAT | FLOAT_ONLY, "round toward zero";
    Lzd = "lzd", Alu, 1, CMOD | INT_ONLY | DWORD_ONLY, "leading zero count";
    Fbh = "fbh", Alu, 1, BITS, "first bit high (from the MSB; for D, the first bit differing from the sign)";
    Fbl = "fbl", Alu, 1, BITS, "first bit low";
    Cbit = "cbit", Alu, 1, BITS, "count set bits";
    Bfrev = "bfrev", Alu, 1, BITS, "reverse the 32 bits";
    Bfe = "bfe", Alu, 3, BITS, "bit field extract (width, offset, value)";
    Bfi1 = "bfi1", Alu, 2, BITS, "bit field mask (width, offset)";
    Bfi2 = "bfi2", Alu, 3, BITS, "bit field insert (mask, insert, base)";
    Csel = "csel", Alu, 3, CMOD_SAT | CMOD_DECIDES, "src0 where src2 satisfies the cmod against zero, else src1";
    Math = "math", Alu, 2, SAT | INT_ONLY | DWORD_ONLY, "extended math: integer quotient or remainder";
    If = "if", ControlFlow, 0, UIP, "structured IF: channels whose predicate fails jump to JIP";
    Else = "else", ControlFlow, 0, UIP, "structured ELSE";
    Endif = "endif", ControlFlow, 0, NONE, "structured ENDIF: channels reconverge";
    While = "while", ControlFlow, 0, NONE, "loop back edge to JIP while any channel continues";
    Break = "break", ControlFlow, 0, UIP, "channels leave the loop";
    Cont = "cont", ControlFlow, 0, UIP, "channels go to the next iteration";
    Halt = "halt", ControlFlow, 0, UIP, "channels jump to the halt target";
    Send = "send", Send, 0, NONE, "message: surface load or store, or thread end";
    Nop = "nop", Nop, 0, NONE, "no operation";
}

impl Opcode {
    /// The opcode's table row.
    pub fn info(self) -> &'static OpcodeInfo {
        &OPCODES[self as usize]
    }

    /// Mnemonic as printed by Mesa's disassembler.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Look an opcode up by mnemonic.
    pub fn from_name(s: &str) -> Option<Opcode> {
        OPCODES.iter().find(|i| i.name == s).map(|i| i.op)
    }

    /// Position in [`ALL_OPCODES`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Number of register/immediate sources (sends and control flow: 0).
    pub fn num_srcs(self) -> usize {
        self.info().srcs as usize
    }

    /// Whether the opcode has a destination operand (ALU instructions).
    pub fn has_dst(self) -> bool {
        self.info().class == OpcodeClass::Alu
    }

    /// Structured control-flow opcode (ends or starts a basic block).
    pub fn is_cf(self) -> bool {
        self.info().class == OpcodeClass::ControlFlow
    }

    /// Whether the opcode has fact `f` (a [`facts`] constant).
    pub fn has(self, f: u16) -> bool {
        self.info().facts & f != 0
    }

    /// Logic opcode (negate means bitwise NOT, abs is illegal).
    pub fn is_logic(self) -> bool {
        self.has(LOGIC)
    }

    /// Takes a conditional modifier.
    pub fn can_take_cmod(self) -> bool {
        self.has(CMOD)
    }

    /// Takes `.sat`.
    pub fn can_saturate(self) -> bool {
        self.has(SAT)
    }

    /// Whether the two sources may be swapped.
    pub fn is_commutative(self) -> bool {
        self.has(COMMUTATIVE)
    }

    /// Whether the opcode carries a JIP.
    pub fn has_jip(self) -> bool {
        self.is_cf()
    }

    /// Whether the opcode carries a UIP.
    pub fn has_uip(self) -> bool {
        self.has(UIP)
    }
}

/// The opcode table as a Markdown document (checked in as eu/OPCODES.md).
pub fn markdown_table() -> String {
    let mut s = String::from(
        "# EU opcodes\n\nGenerated from `eu/src/opcode.rs` (`cargo test -p eu` checks it; \
         `UPDATE_OPCODES_MD=1 cargo test -p eu opcodes_md` rewrites it).\n\n\
         Facts: M = takes a conditional modifier, D = the conditional modifier decides the \
         result, S = takes `.sat`, N = no source modifiers, L = logic (negate is NOT, no \
         abs), C = commutative, F = float operands only, I = integer operands only, \
         W = D/UD operands only, U = carries a UIP.\n\n\
         | opcode | class | sources | facts | what it computes |\n|---|---|---|---|---|\n",
    );
    for i in OPCODES {
        let class = match i.class {
            OpcodeClass::Alu => "ALU",
            OpcodeClass::ControlFlow => "control flow",
            OpcodeClass::Send => "send",
            OpcodeClass::Nop => "nop",
        };
        let mut f = String::new();
        for (bit, c) in [
            (CMOD, 'M'),
            (CMOD_DECIDES, 'D'),
            (SAT, 'S'),
            (NO_SRC_MODS, 'N'),
            (LOGIC, 'L'),
            (COMMUTATIVE, 'C'),
            (FLOAT_ONLY, 'F'),
            (INT_ONLY, 'I'),
            (DWORD_ONLY, 'W'),
            (UIP, 'U'),
        ] {
            if i.facts & bit != 0 {
                f.push(c);
            }
        }
        s.push_str(&format!(
            "| `{}` | {class} | {} | {f} | {} |\n",
            i.name, i.srcs, i.doc
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_indexed_by_opcode() {
        for (k, i) in OPCODES.iter().enumerate() {
            assert_eq!(i.op as usize, k, "{}", i.name);
            assert_eq!(ALL_OPCODES[k], i.op);
            assert_eq!(Opcode::from_name(i.name), Some(i.op));
            // Only ALU instructions have operands and modifiers.
            if i.class != OpcodeClass::Alu {
                assert_eq!(i.srcs, 0, "{}", i.name);
                assert_eq!(i.facts & !UIP, 0, "{}", i.name);
            }
            assert!(i.facts & (FLOAT_ONLY | INT_ONLY) != (FLOAT_ONLY | INT_ONLY));
            if i.facts & CMOD_DECIDES != 0 {
                assert!(i.facts & CMOD != 0, "{}", i.name);
            }
        }
        assert_eq!(ALL_OPCODES.len(), 38);
    }

    #[test]
    fn facts_match_mesa() {
        let with = |f: u16| -> String {
            OPCODES
                .iter()
                .filter(|i| i.facts & f != 0)
                .map(|i| i.name)
                .collect::<Vec<_>>()
                .join(" ")
        };
        // brw's can_do_cmod and can_do_saturate over the opcodes modelled.
        assert_eq!(
            with(CMOD),
            "mov sel not and or xor shl shr asr cmp cmpn add avg mul mad frc rndd rnde rndz lzd csel"
        );
        assert_eq!(
            with(SAT),
            "mov sel shl shr asr add avg mul mad frc rndd rnde rndz csel math"
        );
        assert_eq!(with(NO_SRC_MODS), "fbh fbl cbit bfrev bfe bfi1 bfi2");
        assert_eq!(with(UIP), "if else break cont halt");
        assert_eq!(with(COMMUTATIVE), "and or xor add avg mul");
    }

    #[test]
    fn opcodes_md_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/OPCODES.md");
        let want = markdown_table();
        if std::env::var_os("UPDATE_OPCODES_MD").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "eu/OPCODES.md is stale: run UPDATE_OPCODES_MD=1 cargo test -p eu opcodes_md"
        );
    }
}
