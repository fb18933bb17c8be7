//! What the relaxed run costs: the oracle over 2,000 generated cases run
//! plainly and relaxed (the model's exact guarantees, lavapipe's with and
//! without maximal reconvergence), best of three, and how many output
//! pairs lavapipe's guarantees exclude, per relaxation.
//!
//!     cargo run --release -p oracle --example relax_cost

use oracle::relax::{run_relaxed, FloatGuarantees, Guarantees, Reconvergence, Relaxation};
use oracle::{run, InterpConfig};
use std::time::{Duration, Instant};

fn config(simd: u32) -> InterpConfig {
    InterpConfig {
        simd,
        ..InterpConfig::default()
    }
}

fn lavapipe() -> Guarantees {
    let modes = FloatGuarantees {
        denorm_preserve: false,
        signed_zero_inf_nan_preserve: true,
        rounding_rte: true,
    };
    Guarantees::vulkan(1, 3, [modes; 3], Reconvergence::WorkgroupUniform)
}

fn main() {
    let cfg = generator::Config::default();
    let cases: Vec<_> = (0..2000u64)
        .map(|s| (generator::generate(s, &cfg), [8, 16, 32][s as usize % 3]))
        .collect();
    let time = |f: &dyn Fn(&ir::Case, u32)| {
        let mut best = Duration::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            for (c, simd) in &cases {
                f(c, *simd);
            }
            best = best.min(t.elapsed());
        }
        best
    };
    let plain = time(&|c, simd| {
        let _ = run(&c.program, c.dispatch.as_ref().unwrap(), &config(simd));
    });
    let mut lines = vec![format!("plain run: {plain:?}")];
    for (name, g) in [
        ("exact", Guarantees::exact()),
        (
            "lavapipe (maximal)",
            Guarantees {
                reconvergence: Reconvergence::Maximal,
                ..lavapipe()
            },
        ),
        ("lavapipe (workgroup-uniform)", lavapipe()),
    ] {
        let t = time(&|c, simd| {
            let _ = run_relaxed(&c.program, c.dispatch.as_ref().unwrap(), &config(simd), &g);
        });
        let mut counts = oracle::RelaxCounts::default();
        let (mut pairs, mut cases_with) = (0u64, 0u32);
        for (c, simd) in &cases {
            if let Ok((_, e)) =
                run_relaxed(&c.program, c.dispatch.as_ref().unwrap(), &config(*simd), &g)
            {
                pairs += e.causes.len() as u64;
                cases_with += !e.is_empty() as u32;
                for r in Relaxation::ALL {
                    for _ in 0..e.counts().get(*r) {
                        counts.add(*r);
                    }
                }
            }
        }
        lines.push(format!(
            "{name}: {t:?} ({:.2}x); {} of {pairs} pairs excluded in {cases_with} cases ({counts})",
            t.as_secs_f64() / plain.as_secs_f64(),
            counts.total()
        ));
    }
    println!("{}", lines.join("\n"));
}
