//! Which seed makes a case, and draws its configs, under feedback.
//!
//! Without feedback, case `local` of shard `s` (of `n`) is made from seed
//! `base + local * n + s`. With feedback, every case of the first epoch is
//! fresh, and after it a case is fresh when its feedback roll draws fresh
//! (about 40%: the rest are mutants and recipes). If those fresh cases took
//! their own index's seed, the feedback campaign would skip most of the
//! plain campaign's cases at random, and a bug that one rare generated case
//! shows would be found by the plain campaign but not by the feedback one.
//! So the k-th fresh case of a shard takes the seed of the plain campaign's
//! k-th case of that shard: the fresh stream under feedback is the plain
//! stream, in order, interleaved with mutants and recipes. k is a pure
//! function of the campaign's seed, shard and epoch size (a count of rolls,
//! kept per block of [`BLOCK`] cases), so this stays deterministic for any
//! number of workers and across `--resume`.

use super::feedback::rolls_fresh;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Cases per block of the prefix counts: a case rolls at most this many
/// earlier cases of its block again (each a ChaCha12 setup), so the block
/// stays small; the counts take 8 bytes per block.
const BLOCK: u64 = 256;

/// A campaign's shape for seeding: base seed, shards, this shard, and the
/// first epoch's size in the shard's numbering (None: feedback off).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Seeding {
    /// The campaign's base seed.
    pub base: u64,
    /// Shards.
    pub shards: u64,
    /// This shard.
    pub shard: u64,
    /// Cases per feedback epoch (None: feedback off).
    pub epoch: Option<u64>,
}

impl Seeding {
    /// The seed of the shard's case `local` in the plain numbering.
    fn plain(&self, local: u64) -> u64 {
        self.base
            .wrapping_add(local.wrapping_mul(self.shards.max(1)))
            .wrapping_add(self.shard)
    }

    /// The seed case `local` rolls its feedback choice with (its own).
    pub fn roll_seed(&self, local: u64) -> u64 {
        self.plain(local)
    }

    /// The seed case `local` is generated from when fresh, and draws its
    /// configs with: the plain campaign's case of the same fresh rank.
    pub fn config_seed(&self, local: u64) -> u64 {
        match self.epoch {
            Some(e) if local >= e && rolls_fresh(self.plain(local)) => {
                self.plain(self.fresh_rank(local, e))
            }
            _ => self.plain(local),
        }
    }

    /// How many cases before `local` are fresh: the whole first epoch, then
    /// those that roll fresh.
    fn fresh_rank(&self, local: u64, epoch: u64) -> u64 {
        let after = local - epoch;
        let block = (after / BLOCK) as usize;
        let mut counted = epoch + self.prefix(block, epoch);
        for l in epoch + block as u64 * BLOCK..local {
            counted += u64::from(rolls_fresh(self.plain(l)));
        }
        counted
    }

    /// Fresh cases among the first `blocks` blocks after the first epoch.
    fn prefix(&self, blocks: usize, epoch: u64) -> u64 {
        static PREFIX: Mutex<BTreeMap<Seeding, Vec<u64>>> = Mutex::new(BTreeMap::new());
        let mut all = PREFIX.lock().unwrap_or_else(|e| e.into_inner());
        let sums = all.entry(*self).or_insert_with(|| vec![0]);
        while sums.len() <= blocks {
            let b = (sums.len() - 1) as u64;
            let start = epoch + b * BLOCK;
            let n: u64 = (start..start + BLOCK)
                .map(|l| u64::from(rolls_fresh(self.plain(l))))
                .sum();
            let last = *sums.last().unwrap_or(&0);
            sums.push(last + n);
        }
        sums[blocks]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_feedback_a_case_keeps_its_own_seed() {
        let s = Seeding {
            base: 100,
            shards: 3,
            shard: 2,
            epoch: None,
        };
        assert_eq!(s.config_seed(0), 102);
        assert_eq!(s.config_seed(10), 132);
    }

    #[test]
    fn fresh_cases_take_the_plain_seeds_in_order() {
        // Two shards, shard 1, epochs of 50: the first epoch is the plain
        // stream; after it, the cases that roll fresh take the next plain
        // seeds one by one (across a block boundary), and the others keep
        // their own.
        let s = Seeding {
            base: 7,
            shards: 2,
            shard: 1,
            epoch: Some(50),
        };
        let plain = |l: u64| 7 + 2 * l + 1;
        for l in 0..50 {
            assert_eq!(s.config_seed(l), plain(l));
        }
        let mut next = 50;
        let mut fresh = 0;
        for l in 50..50 + BLOCK + 300 {
            if rolls_fresh(plain(l)) {
                assert_eq!(s.config_seed(l), plain(next), "case {l}");
                next += 1;
                fresh += 1;
            } else {
                assert_eq!(s.config_seed(l), plain(l), "case {l}");
            }
        }
        // About 40% roll fresh.
        let share = fresh as f64 / (BLOCK + 300) as f64;
        assert!((0.37..0.43).contains(&share), "{share}");
    }

    #[test]
    fn the_answer_does_not_depend_on_the_order_of_the_questions() {
        let s = Seeding {
            base: 8,
            shards: 1,
            shard: 0,
            epoch: Some(10),
        };
        // In order, by the rule (no cache involved: computed here).
        let mut next = 10;
        let want: Vec<u64> = (0..10 + 2 * BLOCK)
            .map(|l| {
                if l >= 10 && rolls_fresh(8 + l) {
                    next += 1;
                    8 + next - 1
                } else {
                    8 + l
                }
            })
            .collect();
        // Asked last case first.
        for l in (0..10 + 2 * BLOCK).rev() {
            assert_eq!(s.config_seed(l), want[l as usize], "case {l}");
        }
    }
}
