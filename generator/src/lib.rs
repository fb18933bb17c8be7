//! The shaderfarm generator: random, well-typed, UB-free shaders and their
//! inputs, valid by construction (in the style of wasm-smith), with Csmith-style
//! safe-math guards and swarm feature sets.
//!
//! Two drivers share one code path: a u64 seed through ChaCha12
//! ([`generate`]) and libFuzzer bytes through `arbitrary` ([`generate_from_bytes`]).

pub mod config;
mod control;
pub mod entropy;
pub mod gen;
pub mod guards;
mod idioms;
pub mod mutate;
mod outputs;
pub mod table;
pub mod values;

pub use config::{Config, Features};
pub use gen::GenStats;

use entropy::{ByteEntropy, Entropy, SeedEntropy};
use ir::Case;

/// Generates the case for `seed` under `config` (the same seed, config and
/// version always give the same case).
pub fn generate(seed: u64, config: &Config) -> Case {
    generate_with_stats(seed, config).0
}

/// Like [`generate`], also returning generation statistics.
pub fn generate_with_stats(seed: u64, config: &Config) -> (Case, GenStats) {
    let mut e = SeedEntropy::new(seed);
    let (case, stats, _) = build(&mut e, config, &format!("seed_{seed}"));
    (case, stats)
}

/// Like [`generate`], also returning the case's recipe: the config as its
/// swarm draw narrowed it (swarm off, its op set listed), which generates
/// other cases with the same features.
pub fn generate_with_recipe(seed: u64, config: &Config) -> (Case, Config) {
    let mut e = SeedEntropy::new(seed);
    let (case, _, features) = build(&mut e, config, &format!("seed_{seed}"));
    let mut recipe = features.knobs;
    recipe.swarm = false;
    recipe.ops = features
        .ops
        .iter()
        .map(|op| op.name().to_string())
        .collect();
    (case, recipe)
}

/// Generates a case from fuzzer bytes; running out of bytes still yields a
/// valid program.
pub fn generate_from_bytes(u: &mut arbitrary::Unstructured, config: &Config) -> Case {
    let mut e = ByteEntropy(u);
    build(&mut e, config, "fuzz").0
}

fn build(e: &mut dyn Entropy, config: &Config, name: &str) -> (Case, GenStats, Features) {
    let mut features = config.features(e);
    // The fewest invocations of whole quads the config allows, if any.
    let whole_quads = Some(config.min_invocations.max(1).next_multiple_of(4))
        .filter(|&n| n <= config.max_invocations);
    if whole_quads.is_none() {
        // No dispatch the config allows holds only whole quads.
        features.ops.retain(|op| !op.reads_quad());
    }
    let kept = features.clone();
    let edge = features.knobs.edge_percent;
    let ninputs = e.range(0, config.max_inputs as u64) as u32;
    let nuniforms = e.range(0, config.max_uniforms as u64) as u32;
    let noutputs = e.range(1, config.max_outputs as u64) as u32;
    let g = gen::Gen::new(e, features, name);
    let (program, stats) = g.program(ninputs, nuniforms, noutputs);
    let mut invocations =
        values::invocation_count(e, config.min_invocations, config.max_invocations);
    if let Some(fewest) =
        whole_quads.filter(|_| program.find_instr(|i| i.op.reads_quad()).is_some())
    {
        // Whole quads: quad ops and derivatives read all four lanes. The
        // nearest multiple of 4 within [min, max].
        invocations = invocations.next_multiple_of(4);
        if invocations > config.max_invocations {
            invocations -= 4;
        }
        invocations = invocations.max(fewest);
    }
    let dispatch = values::dispatch(e, &program, invocations, edge);
    (
        Case {
            program,
            dispatch: Some(dispatch),
        },
        stats,
        kept,
    )
}
