//! Regions: strided 16-bit data, packed bytes, subregister offsets,
//! scalar broadcast; the ABI payload and surfaces; 64-byte GRFs.
mod common;
use common::{dispatch, out, run_text};
use eu::{parse_program, run, Dispatch, MachineConfig, SimConfig};

/// g30 words 0..15 = 0..15 (UV immediates), then `body`, then store g20.
fn with_words(body: &str) -> Vec<u64> {
    let text = format!(
        "mov(8) g30<1>UW 0x76543210UV\nmov(8) g30.8<1>UW 0xfedcba98UV\n{body}\n\
         shl(8) g10<1>UD g1<8,8,1>UD 0x00000005UD\nsend(8) null g10 g20 st.b32 {{ align1 1Q EOT }};"
    );
    let r = run_text(&text, &dispatch(8, 8, vec![], vec![]));
    (0..8).map(|i| out(&r, i, 0)).collect()
}

#[test]
fn strided_word_regions() {
    assert_eq!(
        with_words("mov(8) g20<1>UD g30<8,8,1>UW"),
        vec![0, 1, 2, 3, 4, 5, 6, 7]
    );
    assert_eq!(
        with_words("mov(8) g20<1>UD g30<16,8,2>UW"),
        vec![0, 2, 4, 6, 8, 10, 12, 14]
    );
    assert_eq!(
        with_words("mov(8) g20<1>UD g30.1<16,8,2>UW"),
        vec![1, 3, 5, 7, 9, 11, 13, 15]
    );
    assert_eq!(
        with_words("mov(8) g20<1>UD g30<4,2,1>UW"),
        vec![0, 1, 4, 5, 8, 9, 12, 13]
    );
    assert_eq!(
        with_words("mov(8) g20<1>UD g30<2,4,0>UW"),
        vec![0, 0, 0, 0, 2, 2, 2, 2]
    );
    assert_eq!(with_words("mov(8) g20<1>UD g30.5<0,1,0>UW"), vec![5; 8]);
    // Strided destination: words 0,2,..,14 of g40, read back with stride 2.
    assert_eq!(
        with_words("mov(8) g40<2>UW g30.8<8,8,1>UW\nmov(8) g20<1>UD g40<16,8,2>UW"),
        vec![8, 9, 10, 11, 12, 13, 14, 15]
    );
    // A dword view of packed words: dword 3 = words 6 and 7.
    assert_eq!(
        with_words("mov(8) g20<1>UD g30.3<0,1,0>UD"),
        vec![0x0007_0006; 8]
    );
    // W add on a strided region, D destination (exact): word 2c + word 2c+1.
    assert_eq!(
        with_words("add(8) g20<1>D g30<16,8,2>W g30.1<16,8,2>W"),
        vec![1, 5, 9, 13, 17, 21, 25, 29]
    );
}

#[test]
fn packed_bytes() {
    // Packed byte raw MOV (exec 16): byte i = low byte of word i.
    let pack = "mov(16) g50<1>UB g30<32,16,2>UB { align1 WE_all 1H };";
    assert_eq!(
        with_words(&format!("{pack}\nmov(8) g20<1>UD g50.8<8,8,1>UB")),
        vec![8, 9, 10, 11, 12, 13, 14, 15]
    );
    assert_eq!(
        with_words(&format!("{pack}\nmov(8) g20<1>UD g50.3<0,1,0>UD")),
        vec![0x0f0e_0d0c; 8]
    );
    // Strided bytes from W (stride 2 = W execution size), then a signed byte read.
    assert_eq!(
        with_words("mov(8) g52<2>UB g30<16,8,2>W\nadd(8) g52<2>B g52<16,8,2>B -3W\nmov(8) g20<1>D g52<16,8,2>B"),
        vec![0xffff_fffd, 0xffff_ffff, 1, 3, 5, 7, 9, 11]
    );
}

#[test]
fn payload_header_ids_uniforms() {
    // Thread header dwords, ids, a D uniform, a UQ uniform, stored per lane.
    let text = "\
mov(16) g20<1>UD g0.0<0,1,0>UD
mov(16) g22<1>UD g0.4<0,1,0>UD
mov(16) g24<1>UD g3.2<0,1,0>UD
mov(8) g26<1>UQ g3.1<0,1,0>UQ
mov(8) g28<1>UQ g3.1<0,1,0>UQ { align1 2Q };
mul(16) g10<1>UD g1<8,8,1>UD 0x0020UW
send(16) null g10 g20 st.b32
add(16) g12<1>UD g10<8,8,1>UD 0x00000008UD
send(16) null g12 g22 st.b32
add(16) g14<1>UD g10<8,8,1>UD 0x00000010UD
send(16) null g14 g24 st.b32
add(16) g16<1>UD g10<8,8,1>UD 0x00000018UD
mov(16) g40<1>UD g0.1<0,1,0>UD
send(16) null g16 g26 st.b64 { align1 1H EOT };";
    let r = run_text(
        text,
        &dispatch(20, 16, vec![], vec![7, 0x1122_3344_5566_7788, 9]),
    );
    // Lane 17 is in thread 1 (t = 1, first invocation 16).
    assert_eq!(out(&r, 17, 0), 1);
    assert_eq!(out(&r, 17, 1), 16);
    assert_eq!(out(&r, 3, 0), 0);
    // Uniform slot 1 lives at g3 + 8 bytes: low dword via g3.2<0,1,0>UD,
    // the whole slot via g3.1<0,1,0>UQ.
    assert_eq!(out(&r, 5, 2), 0x5566_7788);
    assert_eq!(out(&r, 19, 3), 0x1122_3344_5566_7788);
    assert_eq!(r.outputs[19][3].unwrap().size, 8);
}

#[test]
fn message_sizes_and_never_written() {
    // Input slot 0 = 0x8877665544332211 for invocation i + i.
    let inputs: Vec<Vec<u64>> = (0..8).map(|i| vec![0x8877_6655_4433_2211 + i]).collect();
    let text = "\
shl(8) g10<1>UD g1<8,8,1>UD 0x00000003UD
send(8) g20 g10 ld.b64
add(8) g11<1>UD g10<8,8,1>UD 0x00000006UD
send(8) g24 g11 ld.b16
add(8) g12<1>UD g10<8,8,1>UD 0x00000007UD
send(8) g26 g12 ld.b8
shl(8) g13<1>UD g1<8,8,1>UD 0x00000005UD
send(8) null g13 g20 st.b64
add(8) g14<1>UD g13<8,8,1>UD 0x00000008UD
send(8) null g14 g24 st.b16
add(8) g15<1>UD g13<8,8,1>UD 0x00000010UD
send(8) null g15 g26 st.b8 { align1 1Q EOT };";
    let r = run_text(text, &dispatch(8, 8, inputs, vec![]));
    assert_eq!(out(&r, 2, 0), 0x8877_6655_4433_2213);
    assert_eq!(r.outputs[2][1].unwrap().size, 2);
    assert_eq!(out(&r, 2, 1), 0x8877); // bytes 6..7
    assert_eq!(out(&r, 2, 2), 0x88); // byte 7
    assert_eq!(r.outputs[2][3], None); // never written
}

#[test]
fn predicated_store_leaves_slots_unwritten() {
    let text = "\
and.z.f0.0(8) null<1>UD g1<8,8,1>UD 0x00000001UD
shl(8) g10<1>UD g1<8,8,1>UD 0x00000005UD
(+f0.0) send(8) null g10 g1 st.b32
send(8) null g0 end { align1 1Q EOT };";
    let r = run_text(text, &dispatch(4, 8, vec![], vec![]));
    assert_eq!(out(&r, 2, 0), 2);
    assert_eq!(r.outputs[1][0], None);
    assert_eq!(r.outputs[3][0], None);
}

#[test]
fn sixty_four_byte_grfs() {
    // SIMD16 ids fit g1; uniforms start at g2.
    let text = "\
add(16) g20<1>UD g1<16,16,1>UD g2<0,1,0>UD
mul(16) g10<1>UD g1<16,16,1>UD 0x0020UW
send(16) null g10 g20 st.b32 { align1 1H EOT };";
    let p = parse_program(text).unwrap();
    let cfg = SimConfig {
        machine: MachineConfig {
            grf_bytes: 64,
            grf_count: 128,
            ..MachineConfig::GFX11
        },
        ..SimConfig::default()
    };
    let d = Dispatch {
        invocations: 16,
        simd: 16,
        input_slots: 0,
        output_slots: 4,
        inputs: vec![],
        uniforms: vec![1000],
    };
    let r = run(&p, &d, &cfg).unwrap();
    assert_eq!(out(&r, 15, 0), 1015);
    // The same program is invalid with 32-byte GRFs (rows cross GRFs).
    assert!(run(&p, &d, &SimConfig::default()).is_err());
}
