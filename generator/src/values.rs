//! Edge-biased values: constants, per-lane inputs, uniforms and invocation
//! counts.

use crate::entropy::Entropy;
use ir::float::{canonical_nan, from_f64};
use ir::types::mask;
use ir::{Dispatch, Program, SlotType};

/// An integer of `bits` bits, drawn from edge values `edge_percent`% of the time.
pub fn int_value(e: &mut dyn Entropy, bits: u8, edge_percent: u32) -> u64 {
    let m = mask(bits);
    if e.chance(edge_percent as u64, 100) {
        let sign = 1u64 << (bits - 1);
        let k = e.below(bits as u64) as u32;
        let v = match e.below(12) {
            0 => 0,
            1 => 1,
            2 => m,               // -1
            3 => sign,            // MIN
            4 => sign - 1,        // MAX
            5 => sign + 1,        // MIN + 1
            6 => 1u64 << k,       // a power of two
            7 => (1u64 << k) - 1, // 2^k - 1
            8 => (1u64 << k).wrapping_neg(),
            9 => e.range(2, 16),
            10 => e.range(2, 16).wrapping_neg(),
            _ => (bits as u64) + e.range(0, 2) - 1, // near the bit size (shift counts)
        };
        v & m
    } else if e.chance(1, 2) {
        // Small magnitudes exercise arithmetic without saturating everything.
        (e.range(0, 200).wrapping_sub(100)) & m
    } else {
        e.bits64() & m
    }
}

/// A float of `bits` bits, drawn from edge values `edge_percent`% of the time.
pub fn float_value(e: &mut dyn Entropy, bits: u8, edge_percent: u32) -> u64 {
    let sign = if e.chance(1, 2) {
        1u64 << (bits - 1)
    } else {
        0
    };
    if e.chance(edge_percent as u64, 100) {
        let (exp_bits, man_bits) = match bits {
            16 => (5u32, 10u32),
            32 => (8, 23),
            _ => (11, 52),
        };
        let exp_mask = ((1u64 << exp_bits) - 1) << man_bits;
        let man_mask = (1u64 << man_bits) - 1;
        let v = match e.below(12) {
            0 => 0, // ±0
            1 => from_f64(1.0, bits),
            2 => exp_mask, // ±inf
            3 => canonical_nan(bits),
            4 => exp_mask | (e.bits64() & man_mask) | 1, // a NaN with a payload
            5 => 1,                                      // smallest denormal
            6 => man_mask,                               // largest denormal
            7 => 1u64 << man_bits,                       // smallest normal
            8 => exp_mask - 1,                           // largest finite
            9 => from_f64(0.5, bits),
            10 => from_f64((1u64 << e.below(12)) as f64, bits),
            _ => from_f64(e.range(0, 8) as f64 + 0.5, bits), // ties for rounding
        };
        return v | sign;
    }
    if e.chance(3, 4) {
        // A modest decimal such as 12.375.
        let x = (e.range(0, 4000) as f64 - 2000.0) / 8.0;
        from_f64(x, bits)
    } else {
        e.bits64() & mask(bits)
    }
}

/// A value of a slot type.
pub fn slot_value(e: &mut dyn Entropy, ty: SlotType, edge_percent: u32) -> u64 {
    match ty {
        SlotType::Bool => e.below(2),
        t if t.is_float() => float_value(e, t.bits(), edge_percent),
        t => int_value(e, t.bits(), edge_percent),
    }
}

/// A dispatch of `invocations` for `program`: every input's lanes, then
/// every uniform, drawn with [`slot_value`] (`edge_percent` of them edge
/// values).
pub fn dispatch(
    e: &mut dyn Entropy,
    program: &Program,
    invocations: u32,
    edge_percent: u32,
) -> Dispatch {
    let inputs = program
        .inputs
        .iter()
        .map(|&t| {
            (0..invocations)
                .map(|_| slot_value(e, t, edge_percent))
                .collect()
        })
        .collect();
    let uniforms = program
        .uniforms
        .iter()
        .map(|&t| slot_value(e, t, edge_percent))
        .collect();
    Dispatch {
        invocations,
        inputs,
        uniforms,
    }
}

/// An invocation count in `lo..=hi`, usually not a multiple of 8.
pub fn invocation_count(e: &mut dyn Entropy, lo: u32, hi: u32) -> u32 {
    let n = if e.chance(1, 3) {
        // Just off a multiple of 8 or 16.
        let base = 8 * e.range(1, 8) as u32;
        let off = e.range(1, 3) as u32;
        if e.chance(1, 2) {
            base + off
        } else {
            base - off
        }
    } else {
        e.range(lo as u64, hi as u64) as u32
    };
    n.clamp(lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entropy::SeedEntropy;

    #[test]
    fn values_fit_their_size() {
        let mut e = SeedEntropy::new(3);
        for _ in 0..2000 {
            for bits in [8u8, 16, 32, 64] {
                assert_eq!(int_value(&mut e, bits, 50) & !mask(bits), 0);
            }
            for bits in [16u8, 32, 64] {
                assert_eq!(float_value(&mut e, bits, 50) & !mask(bits), 0);
            }
        }
    }

    #[test]
    fn edges_show_up() {
        let mut e = SeedEntropy::new(4);
        let vals: Vec<u64> = (0..3000).map(|_| int_value(&mut e, 32, 100)).collect();
        for want in [0, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff] {
            assert!(vals.contains(&want), "{want:#x}");
        }
        let f: Vec<u64> = (0..3000).map(|_| float_value(&mut e, 32, 100)).collect();
        for want in [0x7f80_0000u64, 0xff80_0000, 0x7fc0_0000, 0x8000_0000, 1] {
            assert!(f.contains(&want), "{want:#x}");
        }
    }

    #[test]
    fn invocation_counts_in_range_and_often_ragged() {
        let mut e = SeedEntropy::new(5);
        let counts: Vec<u32> = (0..1000).map(|_| invocation_count(&mut e, 1, 70)).collect();
        assert!(counts.iter().all(|&n| (1..=70).contains(&n)));
        let ragged = counts.iter().filter(|&&n| n % 8 != 0).count();
        assert!(ragged > 700, "{ragged}");
    }
}
