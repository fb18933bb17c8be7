//! The single carrier of randomness: either a seeded ChaCha stream (campaigns)
//! or libFuzzer bytes through `arbitrary::Unstructured`. The generator only
//! asks for bounded integers, so both drivers share one code path, and an
//! exhausted byte source keeps answering (with the smallest choice) so that a
//! valid program still comes out.

use arbitrary::Unstructured;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha12Rng;

/// A source of choices.
pub trait Entropy {
    /// A uniform integer in `0..n` (`n >= 1`).
    fn below(&mut self, n: u64) -> u64;

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// A uniform 64-bit value.
    fn bits64(&mut self) -> u64;

    /// An index chosen with the given weights (all zero: index 0).
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| w as u64).sum();
        if total == 0 {
            return 0;
        }
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < w as u64 {
                return i;
            }
            x -= w as u64;
        }
        weights.len() - 1
    }

    /// A uniform integer in `lo..=hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
}

/// ChaCha12 from a u64 seed: portable and stable across platforms and
/// versions of this crate. Bounded integers use Lemire's multiply-shift with
/// rejection, written here so no sampling algorithm of another crate can
/// change the stream.
pub struct SeedEntropy(ChaCha12Rng);

impl SeedEntropy {
    /// A stream for `seed`.
    pub fn new(seed: u64) -> SeedEntropy {
        SeedEntropy(ChaCha12Rng::seed_from_u64(seed))
    }
}

impl Entropy for SeedEntropy {
    fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        loop {
            let x = self.0.next_u64();
            let m = (x as u128) * (n as u128);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    fn bits64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// libFuzzer bytes. When the bytes run out, every answer is the smallest.
pub struct ByteEntropy<'a, 'b>(pub &'b mut Unstructured<'a>);

impl Entropy for ByteEntropy<'_, '_> {
    fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        self.0.int_in_range(0..=n - 1).unwrap_or(0)
    }

    fn bits64(&mut self) -> u64 {
        self.0.arbitrary().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut e = SeedEntropy::new(1);
        let draws: Vec<u64> = (0..6).map(|_| e.below(100)).collect();
        let mut again = SeedEntropy::new(1);
        let draws2: Vec<u64> = (0..6).map(|_| again.below(100)).collect();
        assert_eq!(draws, draws2);
        assert!(draws.iter().all(|&d| d < 100));
        let mut other = SeedEntropy::new(2);
        let draws3: Vec<u64> = (0..6).map(|_| other.below(100)).collect();
        assert_ne!(draws, draws3);
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut e = SeedEntropy::new(7);
        let mut hist = [0u32; 6];
        for _ in 0..60_000 {
            hist[e.below(6) as usize] += 1;
        }
        for h in hist {
            assert!((9_000..11_000).contains(&h), "{hist:?}");
        }
    }

    #[test]
    fn exhausted_bytes_give_smallest_choices() {
        let mut u = Unstructured::new(&[]);
        let mut e = ByteEntropy(&mut u);
        assert_eq!(e.below(10), 0);
        assert_eq!(e.bits64(), 0);
        assert_eq!(e.weighted(&[0, 3, 1]), 1);
    }
}
