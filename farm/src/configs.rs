//! Config choices drawn from a number: the random pass subsets of the
//! campaign mix and of the `diff` fuzz target.

use compiler::{PassSet, PASSES};

/// SplitMix64: a case's private stream of choices.
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random pass subset from the bits of `r`: pass i is on when bit i is
/// set (never empty); bit 63 picks `bitfield=expand` when ir:bitfield is on,
/// bit 62 `bool-cleanup=mixed` when eu:bool-cleanup is, bit 58
/// `flag-liveness=conservative` when vec4:dce is, bits 59 to 61 all set (an
/// eighth of the sets) `spill=all`.
pub fn random_passes(r: u64) -> PassSet {
    let mut text = Vec::new();
    for (i, p) in PASSES.iter().enumerate() {
        if (r >> (i % 64)) & 1 == 1 {
            text.push(p.full_name());
        }
    }
    if text.is_empty() {
        text.push(PASSES[(r % PASSES.len() as u64) as usize].full_name());
    }
    if (r >> 63) & 1 == 1 && text.iter().any(|t| t == "ir:bitfield") {
        text.push("bitfield=expand".into());
    }
    if (r >> 62) & 1 == 1 && text.iter().any(|t| t == "eu:bool-cleanup") {
        text.push("bool-cleanup=mixed".into());
    }
    if (r >> 58) & 1 == 1 && text.iter().any(|t| t == "vec4:dce") {
        text.push("flag-liveness=conservative".into());
    }
    if (r >> 59) & 7 == 7 {
        text.push("spill=all".into());
    }
    if (r >> 57) & 1 == 1 && text.iter().any(|t| t.starts_with("vec4:")) {
        text.push("vec4-pack=all".into());
    }
    PassSet::parse(&text.join(",")).expect("table names parse")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_bits_select_passes() {
        // Bits 0 and 2 are the first and third rows of the pass table.
        let want = format!("{},{}", PASSES[0].full_name(), PASSES[2].full_name());
        assert_eq!(random_passes(0b101), PassSet::parse(&want).unwrap());
        // No bit set: one pass, chosen by r mod the table size (r = 0: the first).
        assert_eq!(
            random_passes(0),
            PassSet::parse(&PASSES[0].full_name()).unwrap()
        );
        // Bits 59, 60 and 61 together add spill=all; any two do not.
        let all3 = random_passes(0b101 | 7 << 59);
        assert_eq!(all3, PassSet::parse(&format!("{want},spill=all")).unwrap());
        for two in [3u64 << 59, 3 << 60, 5 << 59] {
            assert!(!random_passes(0b101 | two).spill_all);
        }
        // SplitMix64's first output for seed 0 (the published reference value).
        assert_eq!(splitmix(0), 0xe220_a839_7b1d_cdaf);
    }
}
