//! Control-flow masks: partial dispatch, nested IF in loops, divergent
//! BREAK/CONT, HALT, NoMask inside divergent control flow, faults.
mod common;
use common::{dispatch, out};
use eu::sim::FaultKind;
use eu::{parse_program, print_program, resolve_control_flow, run, SimConfig, SimError};

const STORE8: &str = "\
shl(8) g10<1>UD g1<8,8,1>UD 0x00000005UD
send(8) null g10 g20 st.b32
add(8) g11<1>UD g10<8,8,1>UD 0x00000008UD
send(8) null g11 g21 st.b32 { align1 1Q EOT };";

/// Parse, fill JIP/UIP with the helper, check the text round trip, run.
fn cf_run(body: &str, n: u32, simd: u32, cfg: &SimConfig) -> Result<eu::RunResult, SimError> {
    let mut p = parse_program(body).unwrap_or_else(|e| panic!("{e}"));
    resolve_control_flow(&mut p.insts).unwrap();
    let text = print_program(&p);
    assert_eq!(parse_program(&text).unwrap(), p);
    run(&p, &dispatch(n, simd, vec![], vec![]), cfg)
}

fn col(r: &eu::RunResult, slot: usize) -> Vec<u64> {
    (0..r.outputs.len()).map(|i| out(r, i, slot)).collect()
}

#[test]
fn partial_dispatch_runs_only_live_lanes() {
    let body = format!("mul(8) g20<1>D g1<8,8,1>D 2W\nmov(8) g21<1>UD g0.3<0,1,0>UD\n{STORE8}");
    let r = cf_run(&body, 11, 8, &SimConfig::default()).unwrap();
    assert_eq!(r.outputs.len(), 11);
    assert_eq!(col(&r, 0), (0..11).map(|i| 2 * i).collect::<Vec<u64>>());
    // g0.3 is the dispatch mask: 0xff for thread 0, 0b111 for thread 1.
    assert_eq!(col(&r, 1), [vec![0xff; 8], vec![0x7; 3]].concat());
    assert_eq!(r.stats.threads, 2);
    // 6 instructions per thread; channels: 8 per ALU/send in thread 0, 3 in thread 1.
    assert_eq!(r.stats.instructions, 12);
    assert_eq!(r.stats.channel_instructions, 6 * 8 + 6 * 3);
    assert_eq!(r.stats.per_opcode.get("send"), Some(&4));
}

#[test]
fn nested_if_inside_loop() {
    // do { if (i odd) sum += i; else sum += 100; i++; } while (i < id)
    let body = format!(
        "mov(8) g20<1>D 0D\nmov(8) g21<1>D 0D\nLOOP:\n\
         and.nz.f0.0(8) null<1>UD g21<8,8,1>UD 0x00000001UD\n\
         (+f0.0) if(8) JIP: @0 UIP: @0\n\
         add(8) g20<1>D g20<8,8,1>D g21<8,8,1>D\n\
         else(8) JIP: @0 UIP: @0\n\
         add(8) g20<1>D g20<8,8,1>D 100D\n\
         endif(8) JIP: @0\n\
         add(8) g21<1>D g21<8,8,1>D 1D\n\
         cmp.l.f0.0(8) null<1>D g21<8,8,1>D g1<8,8,1>D\n\
         (+f0.0) while(8) JIP: LOOP\n{STORE8}"
    );
    let r = cf_run(&body, 8, 8, &SimConfig::default()).unwrap();
    assert_eq!(col(&r, 0), vec![100, 100, 101, 201, 204, 304, 309, 409]);
    assert_eq!(col(&r, 1), vec![1, 1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn divergent_break_and_continue() {
    // do { i++; if (i > id) break; if (i even) continue; sum += i; } while (i < 10)
    let body = format!(
        "mov(8) g20<1>D 0D\nmov(8) g21<1>D 0D\nLOOP:\n\
         add(8) g21<1>D g21<8,8,1>D 1D\n\
         cmp.g.f0.0(8) null<1>D g21<8,8,1>D g1<8,8,1>D\n\
         (+f0.0) break(8) JIP: @0 UIP: @0\n\
         and.z.f0.0(8) null<1>UD g21<8,8,1>UD 0x00000001UD\n\
         (+f0.0) cont(8) JIP: @0 UIP: @0\n\
         add(8) g20<1>D g20<8,8,1>D g21<8,8,1>D\n\
         cmp.l.f0.0(8) null<1>D g21<8,8,1>D 10D\n\
         (+f0.0) while(8) JIP: LOOP\n{STORE8}"
    );
    let r = cf_run(&body, 8, 8, &SimConfig::default()).unwrap();
    // sum of odd i <= id; the loop is left at i = id + 1.
    assert_eq!(col(&r, 0), vec![0, 1, 1, 4, 4, 9, 9, 16]);
    assert_eq!(col(&r, 1), vec![1, 2, 3, 4, 5, 6, 7, 8]);
    // A single lane: every BREAK/CONT jumps (all channels off).
    let r = cf_run(&body, 1, 8, &SimConfig::default()).unwrap();
    assert_eq!((out(&r, 0, 0), out(&r, 0, 1)), (0, 1));
}

#[test]
fn nomask_inside_divergent_if_clobbers_disabled_channels() {
    let body = |limit: i32| {
        format!(
            "mov(8) g20<1>UD 0x00000000UD\nmov(8) g21<1>UD 0x00000000UD\n\
             cmp.l.f0.0(8) null<1>D g1<8,8,1>D {limit}D\n\
             (+f0.0) if(8) JIP: @0 UIP: @0\n\
             mov(8) g20<1>UD 0x00000007UD {{ align1 WE_all 1Q }};\n\
             else(8) JIP: @0 UIP: @0\n\
             add(8) g20<1>UD g20<8,8,1>UD 0x00000001UD\n\
             endif(8) JIP: @0\n{STORE8}"
        )
    };
    // Channels 0..3 take the then-part; the NoMask MOV also writes 4..7,
    // which then add 1 in the else-part.
    let r = cf_run(&body(4), 8, 8, &SimConfig::default()).unwrap();
    assert_eq!(col(&r, 0), vec![7, 7, 7, 7, 8, 8, 8, 8]);
    // No channel takes the then-part: the IF jumps over it, so the NoMask
    // MOV never issues.
    let r = cf_run(&body(0), 8, 8, &SimConfig::default()).unwrap();
    assert_eq!(col(&r, 0), vec![1; 8]);
    assert_eq!(r.stats.per_opcode.get("else"), None);
}

#[test]
fn halt_resumes_at_target() {
    let body = format!(
        "mov(8) g20<1>UD 0x00000005UD\nmov(8) g21<1>UD 0x00000000UD\n\
         and.nz.f0.0(8) null<1>UD g1<8,8,1>UD 0x00000001UD\n\
         (+f0.0) halt(8) JIP: T UIP: T\n\
         mov(8) g20<1>UD 0x00000009UD\nT:\n\
         add(8) g20<1>UD g20<8,8,1>UD 0x00000064UD\n{STORE8}"
    );
    let r = cf_run(&body, 8, 8, &SimConfig::default()).unwrap();
    assert_eq!(col(&r, 0), vec![109, 105, 109, 105, 109, 105, 109, 105]);
}

#[test]
fn loop_in_partial_thread_and_nested_loops() {
    // Outer loop j = 0..id (do-while, at least once); inner loop adds j+1
    // for k = 0..2 (3 times). sum = 3 · Σ_{j < max(id,1)} (j+1).
    let body = format!(
        "mov(8) g20<1>D 0D\nmov(8) g21<1>D 0D\nOUTER:\nmov(8) g22<1>D 0D\nINNER:\n\
         add(8) g20<1>D g20<8,8,1>D g21<8,8,1>D\n\
         add(8) g20<1>D g20<8,8,1>D 1D\n\
         add(8) g22<1>D g22<8,8,1>D 1D\n\
         cmp.l.f0.0(8) null<1>D g22<8,8,1>D 3D\n\
         (+f0.0) while(8) JIP: INNER\n\
         add(8) g21<1>D g21<8,8,1>D 1D\n\
         cmp.l.f0.0(8) null<1>D g21<8,8,1>D g1<8,8,1>D\n\
         (+f0.0) while(8) JIP: OUTER\n{STORE8}"
    );
    let r = cf_run(&body, 5, 8, &SimConfig::default()).unwrap();
    // id: 0→3·1, 1→3·1, 2→3·3, 3→3·6, 4→3·10
    assert_eq!(col(&r, 0), vec![3, 3, 9, 18, 30]);
}

#[test]
fn timeout_and_faults() {
    let inf = "L:\nnop\nwhile(8) JIP: L\nsend(8) null g0 end { align1 1Q EOT };";
    let cfg = SimConfig {
        step_budget: 1000,
        ..SimConfig::default()
    };
    assert_eq!(
        cf_run(inf, 8, 8, &cfg).unwrap_err(),
        SimError::Timeout {
            budget: 1000,
            thread: 0
        }
    );
    // Store to an address that is not slot aligned.
    let bad = "mov(8) g10<1>UD 0x00000004UD\nsend(8) null g10 g12 st.b32 { align1 1Q EOT };";
    match cf_run(bad, 8, 8, &SimConfig::default()).unwrap_err() {
        SimError::Fault(f) => {
            assert_eq!(f.index, 1);
            assert_eq!(
                f.kind,
                FaultKind::Misaligned {
                    channel: 0,
                    address: 4,
                    size: 4
                }
            );
        }
        e => panic!("{e}"),
    }
    // Load beyond the input surface (no input slots at all).
    let bad = "mov(8) g10<1>UD 0x00000000UD\nsend(8) g12 g10 ld.b32\nsend(8) null g0 end { align1 1Q EOT };";
    match cf_run(bad, 2, 8, &SimConfig::default()).unwrap_err() {
        SimError::Fault(f) => {
            assert_eq!(f.index, 1);
            assert_eq!(f.text, "send(8) g12 g10 ld.b32");
            assert!(matches!(
                f.kind,
                FaultKind::OutOfSurface {
                    channel: 0,
                    address: 0,
                    size: 4,
                    surface_bytes: 0
                }
            ));
        }
        e => panic!("{e}"),
    }
    // A SIMD8 IF in a SIMD16 thread.
    let bad =
        "(+f0.0) if(8) JIP: @0 UIP: @0\nendif(8) JIP: @0\nsend(8) null g0 end { align1 1Q EOT };";
    match cf_run(bad, 16, 16, &SimConfig::default()).unwrap_err() {
        SimError::Fault(f) => assert_eq!(
            f.kind,
            FaultKind::CfWidth {
                exec_size: 8,
                simd: 16
            }
        ),
        e => panic!("{e}"),
    }
    // An invalid program is refused.
    let p = parse_program("add(8) g2<1>D 1D g3<8,8,1>D\nsend(8) null g0 end { align1 1Q EOT };")
        .unwrap();
    match run(&p, &dispatch(8, 8, vec![], vec![]), &SimConfig::default()) {
        Err(SimError::Invalid(v)) => assert_eq!(v[0].rule, "imm-position"),
        r => panic!("{r:?}"),
    }
}

#[test]
fn simd32_halves_and_if() {
    // 32-bit data in SIMD32 is split into two SIMD16 halves (2H uses f0.0
    // bits 16..31); control flow runs at the full width.
    let body = "\
cmp.l.f0.0(16) null<1>UD g1<8,8,1>UD 0x00000014UD
cmp.l.f0.0(16) null<1>UD g3<8,8,1>UD 0x00000014UD { align1 2H };
(+f0.0) if(32) JIP: @0 UIP: @0
shl(16) g20<1>UD g1<8,8,1>UD 0x00000001UD
shl(16) g22<1>UD g3<8,8,1>UD 0x00000001UD { align1 2H };
else(32) JIP: @0 UIP: @0
add(16) g20<1>UD g1<8,8,1>UD 0x000003e8UD
add(16) g22<1>UD g3<8,8,1>UD 0x000003e8UD { align1 2H };
endif(32) JIP: @0
shl(16) g10<1>UD g1<8,8,1>UD 0x00000005UD
shl(16) g12<1>UD g3<8,8,1>UD 0x00000005UD { align1 2H };
send(32) null g10 g20 st.b32 { align1 EOT };";
    let r = cf_run(body, 40, 32, &SimConfig::default()).unwrap();
    let want: Vec<u64> = (0..40u64)
        .map(|i| if i < 20 { 2 * i } else { i + 1000 })
        .collect();
    assert_eq!(col(&r, 0), want);
    assert_eq!(r.stats.threads, 2);
}
