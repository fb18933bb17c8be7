//! Assembly text: exact round trip, error positions, and no panic on
//! mutated, truncated or garbage input.
use eu::{
    parse_program, parse_program_named, print_program, print_program_compact, run, validate,
    Dispatch,
};
use eu::{MachineConfig, SimConfig};

const CANONICAL: &str = "\
mov(8) g5<1>UD g0<8,8,1>UD { align1 WE_all 1Q };
cmp.l.f0.0(16) g10<1>W g4<16,16,1>W g6<16,16,1>W
(+f0.0) sel(16) g12<1>UD g4<8,8,1>UD 0x3f800000UD
(-f1.1.any8h) mov(1) g5.3<1>UD -5D { align1 WE_all 1N };
math intdiv(8) g10<1>D g2<8,8,1>D g4<8,8,1>D
math.sat intmod(8) g10<1>UD g2<8,8,1>UD g4<8,8,1>UD
add.sat.ge.f1.0(8) g3<1>F -(abs)g4<8,8,1>F 0x3f800000F
and.nz.f0.1(8) null<1>UD ~g4<8,8,1>UD 0x0000ffffUD
mad(8) g3<1>HF g4<8,8,1>HF g5<8,8,1>HF 0x3c00HF
csel.le(8) g3<1>F g4<8,8,1>F g5<8,8,1>F g6<8,8,1>F
sel.l(8) g3<1>D g4<8,8,1>D 7D
mov(8) g3<1>UW 0x76543210V
mov(4) g3<1>F 0x3e303840VF
mov(1) f1.0<1>UW g3.7<0,1,0>UW { align1 WE_all 1N };
mov(8) g3<1>DF 0x3ff0000000000000DF
mov(8) g3<2>W -32768W
LABEL0:
(+f0.0) if(8) JIP: LABEL1 UIP: LABEL2
send(8) g20 g10 ld.b32
LABEL1:
else(8) JIP: LABEL2 UIP: LABEL2
LABEL2:
endif(8) JIP: LABEL3
LABEL3:
(+f0.0) while(8) JIP: LABEL0
(+f0.0) halt(8) JIP: LABEL4 UIP: LABEL4
nop
LABEL4:
send(16) null g10 g14 st.b64 { align1 2H };
send(8) null g0 end { align1 1Q EOT };
";

#[test]
fn canonical_text_round_trips() {
    let p = parse_program(CANONICAL).unwrap();
    assert_eq!(p.insts.len(), 25);
    assert_eq!(p.insts[16].jip, Some(18));
    assert_eq!(p.insts[21].uip, Some(23));
    assert_eq!(print_program_compact(&p), CANONICAL);
    assert_eq!(parse_program(&print_program(&p)).unwrap(), p);
}

#[test]
fn the_disassemblers_layout_round_trips_and_reads_back() {
    let p = parse_program(CANONICAL).unwrap();
    let text = print_program(&p);
    assert_eq!(parse_program(&text).unwrap(), p);
    let lines: Vec<&str> = text.lines().collect();
    // Worked by hand from brw_disassemble_inst (columns 16/32/48/64, the
    // F immediate's comment at 48, JIP/UIP at 16/38 with the label's own
    // leading space, a send's second line at 28, options always printed).
    assert_eq!(
        lines[6],
        "add.sat.ge.f1.0(8) g3<1>F       -(abs)g4<8,8,1>F 0x3f800000F  /* 1F */ { align1 1Q };"
    );
    assert_eq!(
        lines[17],
        "(+f0.0) if(8)   JIP:  LABEL1          UIP:  LABEL2              { align1 1Q };"
    );
    assert_eq!(
        lines[18],
        "send(8)         g20<1>UD        g10<8,8,1>UD    0x02106e00"
    );
    assert_eq!(
        lines[19],
        "                            hdc1 MsgDesc: (untyped surface read, Surface = 0, SIMD8, Mask = 0xe)  mlen 1 rlen 1 { align1 1Q };"
    );
    assert_eq!(
        lines[27],
        "nop                                                             ;"
    );
    assert_eq!(
        lines[29],
        "sends(16)       nullUD          g10UD           g14UD           0x04025c02                0x0000010c"
    );
}

#[test]
fn virtual_registers_read_back_above_the_physical_file() {
    let p = parse_program(
        "add(16) vgrf3+1<1>D vgrf0<8,8,1>D g2<8,8,1>D
",
    )
    .unwrap();
    let want = parse_program(&format!(
        "add(16) g{}<1>D g{}<8,8,1>D g2<8,8,1>D\n",
        eu::asm::VGRF_BASE + 3 * eu::asm::VGRF_SPAN + 1,
        eu::asm::VGRF_BASE
    ))
    .unwrap();
    assert_eq!(p, want);
}

#[test]
fn mesa_variants_parse_to_the_same_program() {
    // Extra blanks, comments, ';' variants, subregister .0, ';' in regions,
    // 'e'/'ne' aliases, decimal floats and NoMask all normalise.
    let loose = "  mov(8)   g5.0<1>UD   g0<8;8,1>UD {align1 NoMask 1Q}  // copy\n\
                 cmp.ne.f0.0(8) null<1>F g4<8,8,1>F 1.0F /* one */ ;\n\
                 send(8) null g0 end { align1 EOT 1Q };\n";
    let strict = "mov(8) g5<1>UD g0<8,8,1>UD { align1 WE_all 1Q };\n\
                  cmp.nz.f0.0(8) null<1>F g4<8,8,1>F 0x3f800000F\n\
                  send(8) null g0 end { align1 1Q EOT };\n";
    let a = parse_program(loose).unwrap();
    assert_eq!(a, parse_program(strict).unwrap());
    assert_eq!(print_program_compact(&a), strict);
}

#[test]
fn errors_name_line_and_column() {
    let cases: &[(&str, usize, usize, &str)] = &[
        (
            "mov(8) g2<1>UD g3<8,8,1>UD\nmov(8) g2<1>XX g3<8,8,1>UD",
            2,
            13,
            "unknown type 'XX'",
        ),
        (
            "add(8) g2<1>D g3<8,8,1>D",
            1,
            25,
            "expected source operand 1",
        ),
        ("mov(8 g2<1>UD g3<8,8,1>UD", 1, 6, "expected ')'"),
        ("mov(8) g2<1>UD g3<8,8,1>.xUD", 1, 25, "needs { align16 }"),
        ("\n\n  frob(8) g2<1>UD", 3, 3, "unknown opcode 'frob'"),
        ("mov(8) g2<1>UD 0x3f8000UD", 1, 16, "hexadecimal immediate"),
        ("if(8) JIP: L9 UIP: L9", 1, 12, "undefined label 'L9'"),
        (
            "mov(8) g2<1>UD g3<8,8,1>UD /* open",
            1,
            28,
            "unterminated comment",
        ),
        ("L:\nL:", 2, 1, "duplicate label"),
        ("mov.sat.sat(8) g2<1>UD g3<8,8,1>UD", 1, 9, "'.sat'"),
        ("send(8) g2 g3 st.b32", 1, 15, "store"),
    ];
    for (text, line, col, msg) in cases {
        let e = parse_program(text).unwrap_err();
        assert_eq!((e.line, e.col), (*line, *col), "{text:?}: {e}");
        assert!(e.msg.contains(msg), "{text:?}: {}", e.msg);
    }
    let e = parse_program_named("nop\nbogus", "k.asm").unwrap_err();
    assert_eq!(e.to_string(), "k.asm:2:1: unknown opcode 'bogus'");
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Parse; if it parses and validates, also simulate with a small budget.
/// Nothing may panic; errors must carry a sane position.
fn exercise(text: &str) -> bool {
    match parse_program(text) {
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!(e.line >= 1 && e.line <= lines + 1, "{e} for {text:?}");
            assert!(e.col >= 1, "{e}");
            false
        }
        Ok(p) => {
            let printed = print_program(&p);
            assert_eq!(parse_program(&printed).as_ref(), Ok(&p), "{printed}");
            if validate(&p, &MachineConfig::GFX11).is_ok() {
                let d = Dispatch {
                    invocations: 13,
                    simd: 8,
                    input_slots: 2,
                    output_slots: 2,
                    inputs: vec![vec![1, 2]; 13],
                    uniforms: vec![3, 4],
                };
                let cfg = SimConfig {
                    step_budget: 5000,
                    ..SimConfig::default()
                };
                let _ = run(&p, &d, &cfg);
            }
            true
        }
    }
}

#[test]
fn mutated_and_truncated_input_never_panics() {
    let chars: Vec<char> = CANONICAL.chars().collect();
    let subst = [
        '(', ')', '<', '>', ',', '.', ' ', '0', '9', 'g', 'x', '-', '{', '}', ';', ':', '~', '\n',
        'é', '\t', 'F', 'Q', '@', '/', '*',
    ];
    let mut parsed = 0usize;
    for i in 0..chars.len() {
        let trunc: String = chars[..i].iter().collect();
        parsed += exercise(&trunc) as usize;
        let del: String = chars[..i].iter().chain(&chars[i + 1..]).collect();
        parsed += exercise(&del) as usize;
        for &c in &subst {
            let mut m = chars.clone();
            m[i] = c;
            let s: String = m.iter().collect();
            parsed += exercise(&s) as usize;
        }
    }
    // Many mutations still parse (e.g. digit changes); many do not.
    assert!(parsed > 1000, "{parsed}");
    let mut st = 7u64;
    for _ in 0..2000 {
        let len = (splitmix(&mut st) % 80) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| b"mov(8)g1<>,.UDF0x;{}JIP: -~\n"[(splitmix(&mut st) % 28) as usize])
            .collect();
        exercise(&String::from_utf8_lossy(&bytes));
    }
}
