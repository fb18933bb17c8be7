//! Register data types (EU-MODEL §1.4).

use std::fmt;

/// A register or immediate data type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegType {
    /// Unsigned byte.
    UB,
    /// Signed byte.
    B,
    /// Unsigned word (16 bits).
    UW,
    /// Signed word.
    W,
    /// Unsigned doubleword (32 bits).
    UD,
    /// Signed doubleword.
    D,
    /// Unsigned quadword (64 bits).
    UQ,
    /// Signed quadword.
    Q,
    /// IEEE half float.
    HF,
    /// IEEE single float.
    F,
    /// IEEE double float.
    DF,
    /// Immediate only: 8 × 4-bit signed integers packed in 32 bits.
    V,
    /// Immediate only: 8 × 4-bit unsigned integers packed in 32 bits.
    UV,
    /// Immediate only: 4 × 8-bit restricted floats packed in 32 bits.
    VF,
}

/// All types in printing order (used by the parser to match suffixes).
pub const ALL_TYPES: [RegType; 14] = [
    RegType::UB,
    RegType::B,
    RegType::UW,
    RegType::W,
    RegType::UD,
    RegType::D,
    RegType::UQ,
    RegType::Q,
    RegType::HF,
    RegType::F,
    RegType::DF,
    RegType::V,
    RegType::UV,
    RegType::VF,
];

impl RegType {
    /// Size in bytes of one element (vector immediates: the whole 32-bit field).
    pub const fn size(self) -> u32 {
        match self {
            RegType::UB | RegType::B => 1,
            RegType::UW | RegType::W | RegType::HF => 2,
            RegType::UD | RegType::D | RegType::F | RegType::V | RegType::UV | RegType::VF => 4,
            RegType::UQ | RegType::Q | RegType::DF => 8,
        }
    }

    /// Whether the type is a floating-point type (HF, F, DF, VF).
    pub const fn is_float(self) -> bool {
        matches!(self, RegType::HF | RegType::F | RegType::DF | RegType::VF)
    }

    /// Whether the type is an integer type (including V/UV).
    pub const fn is_int(self) -> bool {
        !self.is_float()
    }

    /// Whether the type is a signed integer type.
    pub const fn is_signed_int(self) -> bool {
        matches!(
            self,
            RegType::B | RegType::W | RegType::D | RegType::Q | RegType::V
        )
    }

    /// Whether the type is one of the immediate-only vector types V, UV, VF.
    pub const fn is_vector_imm(self) -> bool {
        matches!(self, RegType::V | RegType::UV | RegType::VF)
    }

    /// Whether the type is a 64-bit type (UQ, Q, DF).
    pub const fn is_64bit(self) -> bool {
        self.size() == 8 && !self.is_vector_imm()
    }

    /// Whether the type is a byte type (UB, B).
    pub const fn is_byte(self) -> bool {
        matches!(self, RegType::UB | RegType::B)
    }

    /// The execution type this operand type contributes (EU-MODEL §1.6):
    /// B/UB/W/UW/V/UV → W, D/UD → D, Q/UQ → Q, floats → themselves, VF → F.
    pub const fn exec_class(self) -> RegType {
        match self {
            RegType::UB | RegType::B | RegType::UW | RegType::W | RegType::V | RegType::UV => {
                RegType::W
            }
            RegType::UD | RegType::D => RegType::D,
            RegType::UQ | RegType::Q => RegType::Q,
            RegType::VF => RegType::F,
            t => t,
        }
    }

    /// The mnemonic suffix, e.g. `"UD"`.
    pub const fn name(self) -> &'static str {
        match self {
            RegType::UB => "UB",
            RegType::B => "B",
            RegType::UW => "UW",
            RegType::W => "W",
            RegType::UD => "UD",
            RegType::D => "D",
            RegType::UQ => "UQ",
            RegType::Q => "Q",
            RegType::HF => "HF",
            RegType::F => "F",
            RegType::DF => "DF",
            RegType::V => "V",
            RegType::UV => "UV",
            RegType::VF => "VF",
        }
    }

    /// Parse a type suffix.
    pub fn from_name(s: &str) -> Option<RegType> {
        ALL_TYPES.iter().copied().find(|t| t.name() == s)
    }

    /// Smallest representable integer value (integer types only).
    pub const fn int_min(self) -> i128 {
        match self {
            RegType::B => i8::MIN as i128,
            RegType::W => i16::MIN as i128,
            RegType::D => i32::MIN as i128,
            RegType::Q => i64::MIN as i128,
            _ => 0,
        }
    }

    /// Largest representable integer value (integer types only).
    pub const fn int_max(self) -> i128 {
        match self {
            RegType::UB => u8::MAX as i128,
            RegType::B => i8::MAX as i128,
            RegType::UW => u16::MAX as i128,
            RegType::W => i16::MAX as i128,
            RegType::UD => u32::MAX as i128,
            RegType::D => i32::MAX as i128,
            RegType::UQ => u64::MAX as i128,
            RegType::Q => i64::MAX as i128,
            _ => 0,
        }
    }

    /// Bit mask covering one element of this type.
    pub const fn mask(self) -> u64 {
        match self.size() {
            8 => u64::MAX,
            n => (1u64 << (8 * n)) - 1,
        }
    }
}

impl fmt::Display for RegType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_classes() {
        assert_eq!(RegType::UB.size(), 1);
        assert_eq!(RegType::HF.size(), 2);
        assert_eq!(RegType::F.size(), 4);
        assert_eq!(RegType::DF.size(), 8);
        assert_eq!(RegType::V.exec_class(), RegType::W);
        assert_eq!(RegType::VF.exec_class(), RegType::F);
        assert_eq!(RegType::UB.exec_class(), RegType::W);
        assert_eq!(RegType::UQ.exec_class(), RegType::Q);
        assert!(RegType::Q.is_64bit() && !RegType::V.is_64bit());
        assert_eq!(RegType::W.int_min(), -32768);
        assert_eq!(RegType::UD.int_max(), 4294967295);
        assert_eq!(RegType::UW.mask(), 0xffff);
        for t in ALL_TYPES {
            assert_eq!(RegType::from_name(t.name()), Some(t));
        }
        assert_eq!(RegType::from_name("X"), None);
    }
}
