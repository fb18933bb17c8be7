//! Align16 (SIMD4x2) execution: channel c is component c % 4 of vertex
//! c / 4; sources read `<vstride,4,1>` through a swizzle, the writemask
//! limits what the destination and the flags receive, and replicate and
//! any4h/all4h predicates read one or four of a vertex's flag bits.
mod common;
use common::{dispatch, out};
use eu::{parse_program, run, MachineConfig, SimConfig};

/// Stores g20 (slot 0), g22 (slot 1) and the whole f0 (slot 2) of every
/// lane of a SIMD8 thread.
const STORE: &str = "\
mov(1) g30<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
mov(8) g31<1>UD g30<0,1,0>UD { align1 WE_all 1Q };
shl(8) g10<1>UD g1<8,8,1>UD 0x00000005UD
send(8) null g10 g20 st.b32
add(8) g11<1>UD g10<8,8,1>UD 0x00000008UD
send(8) null g11 g22 st.b32
add(8) g12<1>UD g10<8,8,1>UD 0x00000010UD
send(8) null g12 g31 st.b32 { align1 1Q EOT };";

/// Runs `body` (after g20 = g22 = 0 and g21 = the lane ids 0..7) on the
/// vec4 machine; returns slots 0, 1 and lane 0's slot 2 (f0).
fn run8(body: &str) -> (Vec<u64>, Vec<u64>, u64) {
    let text = format!(
        "mov(8) g20<1>UD 0x00000000UD\nmov(8) g22<1>UD 0x00000000UD\nmov(8) g21<1>UD g1<8,8,1>UD\n{body}\n{STORE}"
    );
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = SimConfig {
        machine: MachineConfig::VEC4,
        ..SimConfig::default()
    };
    let r =
        run(&p, &dispatch(8, 8, vec![], vec![]), &cfg).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let slot = |k| (0..8).map(|i| out(&r, i, k)).collect::<Vec<_>>();
    (slot(0), slot(1), out(&r, 0, 2))
}

#[test]
fn swizzles_pick_components_of_each_vertex_and_the_writemask_limits_writes() {
    // Channel c (vertex v = c / 4, component k = c % 4) reads element
    // 4v + [w, z, y, x][k] of g21 and is written only for x and z:
    // c0 → 3, c2 → 1, c4 → 4 + 3, c6 → 4 + 1.
    let (g20, _, _) = run8("mov(8) g20<1>.xzUD g21<4>.wzyxUD { align16 1Q };");
    assert_eq!(g20, [3, 0, 1, 0, 7, 0, 5, 0]);
}

#[test]
fn vertical_stride_zero_gives_both_vertices_the_same_vector() {
    // `.y` replicates component y; vstride 0 reads vertex 0's row twice.
    let (g20, g22, _) = run8(
        "mov(8) g20<1>UD g21<0>.yUD { align16 1Q };\n\
         add(8) g22<1>UD g21<4>.xxyyUD g21<0>.wUD { align16 1Q };",
    );
    assert_eq!(g20, [1; 8]);
    // Vertex 0: [0, 0, 1, 1] + 3; vertex 1: [4, 4, 5, 5] + 3.
    assert_eq!(g22, [3, 3, 4, 4, 7, 7, 8, 8]);
}

#[test]
fn the_writemask_limits_the_flag_update_and_predicates_read_per_vertex() {
    // f0.0 starts at 0x44 (bits 2 and 6). ids >= 2 under writemask .xy
    // updates bits 0, 1 (false) and 4, 5 (true) only: 0x30 | 0x44. (Every
    // channel would give 0xfc.)
    // `.x` (REPLICATE_X): every channel of vertex v reads bit 4v: vertex 0
    // clear, vertex 1 set. `.all4h`: vertex 0's bits are 0b0100 and vertex
    // 1's 0b0111, neither all set.
    let (g20, g22, f0) = run8(
        "mov(1) f0.0<1>UD 0x00000044UD { align1 WE_all 1N };\n\
         cmp.ge.f0.0(8) null<1>.xyD g21<4>D 2D { align16 1Q };\n\
         (+f0.0.x) mov(8) g20<1>UD 1UD { align16 1Q };\n\
         (+f0.0.all4h) mov(8) g22<1>UD 1UD { align16 1Q };",
    );
    assert_eq!(f0, 0x74);
    assert_eq!(g20, [0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!(g22, [0; 8]);
    // `.any4h`: both vertices have a bit set. An inverted `.z`: bit 2
    // (vertex 0's z) is set, bit 6 (vertex 1's) too, so no channel runs.
    // `.all4h` once f0.0 is 0x0f: vertex 0 only.
    let (g20, g22, _) = run8(
        "mov(1) f0.0<1>UD 0x00000044UD { align1 WE_all 1N };\n\
         cmp.ge.f0.0(8) null<1>.xyD g21<4>D 2D { align16 1Q };\n\
         (+f0.0.any4h) mov(8) g20<1>UD 1UD { align16 1Q };\n\
         (-f0.0.z) mov(8) g22<1>UD 1UD { align16 1Q };",
    );
    assert_eq!(g20, [1; 8]);
    assert_eq!(g22, [0; 8]);
    let (_, g22, _) = run8(
        "mov(1) f0.0<1>UD 0x0000000fUD { align1 WE_all 1N };\n\
         (+f0.0.all4h) mov(8) g22<1>UD 1UD { align16 1Q };",
    );
    assert_eq!(g22, [1, 1, 1, 1, 0, 0, 0, 0]);
}

#[test]
fn align16_is_rejected_on_gfx11() {
    let text = format!("mov(8) g20<1>UD g21<4>UD {{ align16 1Q }};\nmov(8) g22<1>UD 0UD\n{STORE}");
    let p = parse_program(&text).unwrap();
    let e = run(&p, &dispatch(8, 8, vec![], vec![]), &SimConfig::default()).unwrap_err();
    assert!(e.to_string().contains("align16-unsupported"), "{e}");
}

#[test]
fn a_simd4x2_dispatch_runs_two_invocations_a_thread_one_per_four_channels() {
    // Component k of invocation i stores i + 8k at its slot k: the address
    // is i·32 + 8k (4 output slots) and the ids come from g1, where channel
    // c holds invocation 2t + c / 4. Three invocations: thread 1 runs only
    // channels 0–3 (invocation 2); invocation 3 does not exist.
    let text = "\
mov(8) g24<1>.xUD 0UD { align16 1Q };
mov(8) g24<1>.yUD 8UD { align16 1Q };
mov(8) g24<1>.zUD 16UD { align16 1Q };
mov(8) g24<1>.wUD 24UD { align16 1Q };
shl(8) g10<1>UD g1<8,8,1>UD 0x00000005UD
add(8) g10<1>UD g10<8,8,1>UD g24<8,8,1>UD
add(8) g20<1>UD g1<8,8,1>UD g24<8,8,1>UD
send(8) null g10 g20 st.b32 { align1 1Q EOT };";
    let p = parse_program(text).unwrap();
    let cfg = SimConfig {
        machine: MachineConfig::VEC4,
        ..SimConfig::default()
    };
    let r = run(&p, &dispatch(3, eu::abi::SIMD4X2, vec![], vec![]), &cfg).unwrap();
    assert_eq!(r.stats.threads, 2);
    for i in 0..3 {
        let got: Vec<u64> = (0..4).map(|k| out(&r, i, k)).collect();
        let i = i as u64;
        assert_eq!(got, [i, i + 8, i + 16, i + 24], "invocation {i}");
    }
}
