//! The `farm asm` entry point: parse, validate, run, format.
use eu::{run_asm, AsmRun, AsmRunError};

fn req(source: &str) -> AsmRun {
    AsmRun {
        file_name: "t.asm".into(),
        source: source.into(),
        invocations: 2,
        simd: 8,
        input_slots: 0,
        output_slots: 2,
        ..AsmRun::default()
    }
}

#[test]
fn formats_a_table() {
    // out slot 0 = id + 5; slot 1 never written; record = 16 bytes.
    let src = "\
add(8) g20<1>UD g1<8,8,1>UD 0x00000005UD
shl(8) g10<1>UD g1<8,8,1>UD 0x00000004UD
send(8) null g10 g20 st.b32
send(8) null g0 end { align1 1Q EOT };
";
    let (res, table) = run_asm(&req(src)).unwrap();
    assert_eq!(res.stats.instructions, 4);
    assert_eq!(
        table,
        "lane  slot0       slot1\n\
         0     0x00000005  never\n\
         1     0x00000006  never\n\
         threads 1 instructions 4 channel-instructions 8\n\
         per-opcode add=1 send=2 shl=1\n"
    );
}

#[test]
fn reports_each_failure_kind() {
    match run_asm(&req("mov(8) g2<1>UD\n")) {
        Err(AsmRunError::Parse(e)) => {
            assert_eq!(
                e.to_string(),
                "t.asm:1:15: expected source operand 0, found end of line"
            )
        }
        r => panic!("{r:?}"),
    }
    match run_asm(&req("mov(8) g2<1>UD g3<8,8,1>UD\n")) {
        Err(AsmRunError::Invalid(v)) => assert_eq!(v[0].rule, "eot"),
        r => panic!("{r:?}"),
    }
    let mut r = req("send(8) null g0 end { align1 1Q EOT };");
    r.simd = 12;
    match run_asm(&r) {
        Err(AsmRunError::Sim(e)) => assert!(e
            .to_string()
            .contains("simd must be 8, 16, 32 or 4 (SIMD4x2), got 12")),
        r => panic!("{r:?}"),
    }
}
