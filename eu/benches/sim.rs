//! Simulator throughput on a realistic SIMD16 program (loop, if/else,
//! integer and float ALU mix, loads and stores) over 256 invocations.
use criterion::{criterion_main, Criterion, Throughput};
use eu::{parse_program, resolve_control_flow, run, Dispatch, SimConfig};

const PROGRAM: &str = "\
shl(16) g10<1>UD g1<8,8,1>UD 0x00000003UD
send(16) g20 g10 ld.b32
mov(16) g22<1>D 0D
mov(16) g24<1>D 0D
mov(16) g26<1>F 0x3f800000F
mov(16) g30<1>F 0x3f000000F
LOOP:
add(16) g28<1>D g20<8,8,1>D g24<8,8,1>D
and.nz.f0.0(16) null<1>UD g28<8,8,1>UD 0x00000001UD
(+f0.0) if(16) JIP: @0 UIP: @0
add(16) g22<1>D g22<8,8,1>D g28<8,8,1>D
mad(16) g26<1>F g30<8,8,1>F g26<8,8,1>F g30<8,8,1>F
else(16) JIP: @0 UIP: @0
xor(16) g22<1>UD g22<8,8,1>UD g28<8,8,1>UD
shl(16) g22<1>UD g22<8,8,1>UD 0x00000001UD
endif(16) JIP: @0
sel.ge(16) g22<1>D g22<8,8,1>D 0D
add(16) g24<1>D g24<8,8,1>D 1D
cmp.l.f0.0(16) null<1>D g24<8,8,1>D 16D
(+f0.0) while(16) JIP: LOOP
mov(16) g32<1>D g26<8,8,1>F
add(16) g22<1>D g22<8,8,1>D g32<8,8,1>D
shl(16) g12<1>UD g1<8,8,1>UD 0x00000003UD
send(16) null g12 g22 st.b32 { align1 1H EOT };
";

fn bench(c: &mut Criterion) {
    let mut p = parse_program(PROGRAM).expect("bench program parses");
    resolve_control_flow(&mut p.insts).expect("bench program is structured");
    let d = Dispatch {
        invocations: 256,
        simd: 16,
        input_slots: 1,
        output_slots: 1,
        inputs: (0..256u64).map(|i| vec![i * 7919 % 1000]).collect(),
        uniforms: vec![],
    };
    let cfg = SimConfig::default();
    let first = run(&p, &d, &cfg).expect("bench program runs");
    let lanes = first.stats.channel_instructions;
    eprintln!(
        "instructions {} channel-instructions {lanes}",
        first.stats.instructions
    );
    let mut g = c.benchmark_group("sim");
    g.throughput(Throughput::Elements(lanes));
    g.bench_function("simd16_256_invocations", |b| {
        b.iter(|| run(&p, &d, &cfg).expect("runs"))
    });
    g.finish();
}

/// All benchmarks of this file.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
}

criterion_main!(benches);
