//! The campaign's stages, measured one by one on the same cases: generate,
//! interpret (the oracle's expected outputs), compile (per strategy, under
//! the default mix's two pass sets, through the harness's compile session as
//! the campaign runs it), simulate (the compiled programs, compared with the
//! expected outputs) and the whole case (`run_case`, every config-run of the
//! default mix). Cases are seeds `0..CASES` at the default generator config;
//! each case's SIMD width and random pass subset come from the default mix,
//! as in `farm fuzz`. Throughput is in cases (config-runs for `case`).
#![allow(missing_docs)]

use compiler::{BugSet, Strategy};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use farm::campaign::mix::{Mix, PassChoice};
use oracle::check::{expected_outputs, simulate_and_compare};
use oracle::session::{Capture, Session};

// The campaign binary's allocator, so that the figures are the campaign's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Cases per iteration.
const CASES: u64 = 100;

fn default_mix() -> Mix {
    Mix {
        strategies: Strategy::ALL.to_vec(),
        passes: PassChoice::Mix,
        simd: vec![8, 16, 32],
        bugs: BugSet::NONE,
    }
}

fn bench(c: &mut Criterion) {
    let config = generator::Config::default();
    let mix = default_mix();
    let cases: Vec<ir::Case> = (0..CASES)
        .map(|s| generator::generate(s, &config))
        .collect();
    let configs: Vec<Vec<oracle::Config>> = (0..CASES).map(|s| mix.configs(s)).collect();
    let expected: Vec<_> = cases
        .iter()
        .zip(&configs)
        .map(|(case, cs)| expected_outputs(case, cs[0].simd))
        .collect();

    let mut g = c.benchmark_group("stages");
    g.throughput(Throughput::Elements(CASES));
    g.bench_function("generate", |b| {
        b.iter(|| {
            for s in 0..CASES {
                std::hint::black_box(generator::generate(s, &config));
            }
        })
    });
    g.bench_function("interpret", |b| {
        b.iter(|| {
            for (case, cs) in cases.iter().zip(&configs) {
                let _ = std::hint::black_box(expected_outputs(case, cs[0].simd));
            }
        })
    });
    for (k, strategy) in Strategy::ALL.iter().enumerate() {
        // The mix lists each strategy's two pass sets next to each other.
        let mine = |cs: &Vec<oracle::Config>| cs[2 * k..2 * k + 2].to_vec();
        g.bench_function(BenchmarkId::new("compile", strategy.name()), |b| {
            b.iter(|| {
                for (case, cs) in cases.iter().zip(&configs) {
                    for c in mine(cs) {
                        std::hint::black_box(Session::run(&case.program, &c, Capture::Stages));
                    }
                }
            })
        });
    }
    let compiled: Vec<(usize, oracle::Config, std::rc::Rc<eu::Program>)> = cases
        .iter()
        .zip(&configs)
        .enumerate()
        .flat_map(|(i, (case, cs))| {
            cs.iter().filter_map(move |c| {
                let s = Session::run(&case.program, c, Capture::Stages);
                s.result.ok().map(|r| (i, c.clone(), r.program))
            })
        })
        .collect();
    g.bench_function("simulate", |b| {
        b.iter(|| {
            for (i, c, program) in &compiled {
                let (Some(d), Ok(e)) = (&cases[*i].dispatch, &expected[*i]) else {
                    continue;
                };
                std::hint::black_box(simulate_and_compare(
                    program,
                    compiler::StageId::Regalloc,
                    eu::MachineConfig::GFX11,
                    &cases[*i].program,
                    d,
                    c.simd,
                    e,
                    false,
                ));
            }
        })
    });
    g.throughput(Throughput::Elements(
        configs.iter().map(|c| c.len() as u64).sum(),
    ));
    g.bench_function("case", |b| {
        b.iter(|| {
            for (i, case) in cases.iter().enumerate() {
                std::hint::black_box(farm::campaign::case::run_model_case(case, &mix, i as u64));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
