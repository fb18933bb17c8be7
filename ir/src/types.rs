//! Bit sizes and the declared types of I/O slots.
//!
//! As in NIR, SSA values are untyped bit vectors: a value has a bit size
//! (1 for booleans, 8/16/32/64 otherwise) and each op says how it reads its
//! sources (signed or unsigned integer, float, bool). Declared I/O slots carry
//! a full type so that inputs can be written and outputs compared sensibly
//! (floats are compared by NaN-ness, everything else bit-exactly).

use std::fmt;

/// A set of bit sizes, one bit per size (1, 8, 16, 32, 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeSet(pub u8);

impl SizeSet {
    /// Only 1-bit booleans.
    pub const BOOL: SizeSet = SizeSet(1);
    /// 8-bit values.
    pub const B8: SizeSet = SizeSet(2);
    /// 16-bit values.
    pub const B16: SizeSet = SizeSet(4);
    /// 32-bit values.
    pub const B32: SizeSet = SizeSet(8);
    /// 64-bit values.
    pub const B64: SizeSet = SizeSet(16);
    /// Integer sizes: 8, 16, 32, 64.
    pub const INT: SizeSet = SizeSet(2 | 4 | 8 | 16);
    /// Float sizes: 16, 32, 64.
    pub const FLOAT: SizeSet = SizeSet(4 | 8 | 16);
    /// 16-, 32- and 64-bit integers (what holds a 16-bit word).
    pub const WORDS: SizeSet = SizeSet(4 | 8 | 16);
    /// 32- and 64-bit values (a ballot mask).
    pub const B32_B64: SizeSet = SizeSet(8 | 16);
    /// Integer sizes and bool.
    pub const INT_BOOL: SizeSet = SizeSet(1 | 2 | 4 | 8 | 16);
    /// Every size.
    pub const ANY: SizeSet = SizeSet(1 | 2 | 4 | 8 | 16);

    /// The set bit for one size, or 0 for a size that does not exist.
    pub const fn bit(bits: u8) -> u8 {
        match bits {
            1 => 1,
            8 => 2,
            16 => 4,
            32 => 8,
            64 => 16,
            _ => 0,
        }
    }

    /// Whether `bits` is in the set.
    pub const fn contains(self, bits: u8) -> bool {
        self.0 & Self::bit(bits) != 0
    }

    /// The union of two sets.
    pub const fn union(self, other: SizeSet) -> SizeSet {
        SizeSet(self.0 | other.0)
    }

    /// The sizes in the set, smallest first.
    pub fn sizes(self) -> impl Iterator<Item = u8> {
        [1u8, 8, 16, 32, 64]
            .into_iter()
            .filter(move |&b| self.contains(b))
    }
}

impl fmt::Display for SizeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<String> = self.sizes().map(|b| b.to_string()).collect();
        write!(f, "{{{}}}", v.join(","))
    }
}

/// The declared type of an input, uniform or output slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SlotType {
    /// A boolean; stored as 0 or 1.
    Bool,
    /// 8-bit integer.
    I8,
    /// 16-bit integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE binary16.
    F16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

impl SlotType {
    /// Every slot type, in declaration order.
    pub const ALL: [SlotType; 8] = [
        SlotType::Bool,
        SlotType::I8,
        SlotType::I16,
        SlotType::I32,
        SlotType::I64,
        SlotType::F16,
        SlotType::F32,
        SlotType::F64,
    ];

    /// The bit size of a value of this type.
    pub const fn bits(self) -> u8 {
        match self {
            SlotType::Bool => 1,
            SlotType::I8 => 8,
            SlotType::I16 | SlotType::F16 => 16,
            SlotType::I32 | SlotType::F32 => 32,
            SlotType::I64 | SlotType::F64 => 64,
        }
    }

    /// Whether this is a float type.
    pub const fn is_float(self) -> bool {
        matches!(self, SlotType::F16 | SlotType::F32 | SlotType::F64)
    }

    /// The text name (`bool`, `i32`, `f16`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            SlotType::Bool => "bool",
            SlotType::I8 => "i8",
            SlotType::I16 => "i16",
            SlotType::I32 => "i32",
            SlotType::I64 => "i64",
            SlotType::F16 => "f16",
            SlotType::F32 => "f32",
            SlotType::F64 => "f64",
        }
    }

    /// Parses a type name.
    pub fn from_name(s: &str) -> Option<SlotType> {
        SlotType::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The integer type of a given bit size (bool for 1).
    pub fn int_of_bits(bits: u8) -> Option<SlotType> {
        match bits {
            1 => Some(SlotType::Bool),
            8 => Some(SlotType::I8),
            16 => Some(SlotType::I16),
            32 => Some(SlotType::I32),
            64 => Some(SlotType::I64),
            _ => None,
        }
    }

    /// The float type of a given bit size.
    pub fn float_of_bits(bits: u8) -> Option<SlotType> {
        match bits {
            16 => Some(SlotType::F16),
            32 => Some(SlotType::F32),
            64 => Some(SlotType::F64),
            _ => None,
        }
    }
}

impl fmt::Display for SlotType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// All-ones mask of `bits` bits (bits in 1..=64).
pub const fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v` to an i64.
pub const fn sext(v: u64, bits: u8) -> i64 {
    let sh = 64 - bits as u32;
    ((v << sh) as i64) >> sh
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_sets() {
        assert!(SizeSet::INT.contains(8));
        assert!(!SizeSet::INT.contains(1));
        assert!(SizeSet::FLOAT.contains(16));
        assert!(!SizeSet::FLOAT.contains(8));
        assert_eq!(SizeSet::FLOAT.sizes().collect::<Vec<_>>(), vec![16, 32, 64]);
        assert_eq!(SizeSet::INT_BOOL.to_string(), "{1,8,16,32,64}");
    }

    #[test]
    fn mask_and_sext() {
        assert_eq!(mask(1), 1);
        assert_eq!(mask(8), 0xff);
        assert_eq!(mask(64), u64::MAX);
        assert_eq!(sext(0x80, 8), -128);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(sext(1, 1), -1);
        assert_eq!(sext(0xffff_ffff, 32), -1);
        assert_eq!(sext(u64::MAX, 64), -1);
    }

    #[test]
    fn slot_type_names_round_trip() {
        for t in SlotType::ALL {
            assert_eq!(SlotType::from_name(t.name()), Some(t));
        }
        assert_eq!(SlotType::from_name("u32"), None);
    }
}
