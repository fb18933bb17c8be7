//! Generation throughput: cases per second on the default config.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use generator::{generate, Config};

fn bench(c: &mut Criterion) {
    let config = Config::default();
    let mut g = c.benchmark_group("generator");
    g.throughput(Throughput::Elements(100));
    g.bench_function("100 cases, default config", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            for _ in 0..100 {
                std::hint::black_box(generate(seed, &config));
                seed += 1;
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
