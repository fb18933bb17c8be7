//! Compile time: every corpus program under each strategy at SIMD16 with all passes.
#![allow(missing_docs)]

use compiler::{compile, CompileOptions, PassSet};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn corpus() -> Vec<ir::Program> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sir"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            ir::parse_case(&std::fs::read_to_string(f).unwrap())
                .unwrap()
                .program
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let programs = corpus();
    let mut g = c.benchmark_group("compile corpus, SIMD16, all passes");
    g.throughput(Throughput::Elements(programs.len() as u64));
    for s in compiler::Backend::Scalar.strategies() {
        let opts = CompileOptions::new(s, 16, PassSet::all());
        g.bench_function(s.name(), |b| {
            b.iter(|| {
                for p in &programs {
                    let _ = std::hint::black_box(compile(p, &opts));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
