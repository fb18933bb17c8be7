//! The bodies of the libFuzzer targets in `fuzz/fuzz_targets/` (each target
//! there is one line calling one of these). Every body panics exactly when
//! it finds a bug, so libFuzzer, `cargo test` and a replay of a crash file
//! all agree.
//!
//! | target | what it checks |
//! |---|---|
//! | [`diff`] | bytes → generator → every strategy × {all, none, a random pass subset}: a finding panics with a `.sir` reproducer |
//! | [`ir_text`] | the IR parser never panics; a case that parses prints, re-parses and re-prints to the same text |
//! | [`eu_text`] | the assembly parser and validator never panic; a program that parses prints and re-parses to the same program |
//! | [`eu_sim`] | arbitrary valid EU programs run in the simulator: no panic, the step budget is exact, runs are deterministic |
//!
//! The smoke tests next to each body run it over a few thousand random byte
//! strings and over every file in `fuzz/corpus/<target>/`.

pub mod diff;
pub mod eu_gen;
pub mod eu_sim;
pub mod eu_text;
pub mod ir_text;

pub use diff::diff;
pub use eu_sim::eu_sim;
pub use eu_text::eu_text;
pub use ir_text::ir_text;

/// Helpers of the smoke tests.
#[cfg(test)]
pub(crate) mod smoke {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    use std::path::PathBuf;

    /// `n` random byte strings of 0..`max_len` bytes (deterministic).
    pub fn random_inputs(seed: u64, n: usize, max_len: usize) -> Vec<Vec<u8>> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let len = rng.next_u32() as usize % max_len;
                let mut v = vec![0u8; len];
                rng.fill_bytes(&mut v);
                v
            })
            .collect()
    }

    /// Near-valid variants of `bytes`: cut at every `step`-th byte, and with
    /// that byte replaced by one of `alphabet` (cycling).
    pub fn mutations(bytes: &[u8], step: usize, alphabet: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for cut in (0..bytes.len()).step_by(step) {
            out.push(bytes[..cut].to_vec());
            let mut m = bytes.to_vec();
            m[cut] = alphabet[cut % alphabet.len()];
            out.push(m);
        }
        out
    }

    /// Every file of `fuzz/corpus/<target>/`; the directory must exist and
    /// hold at least one file.
    pub fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../fuzz/corpus")
            .join(target);
        let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.is_file())
            .map(|p| {
                let bytes = std::fs::read(&p).expect("readable corpus file");
                (p, bytes)
            })
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} is empty", dir.display());
        files
    }
}
