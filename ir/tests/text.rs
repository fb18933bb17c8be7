//! The text format: builder-made programs round-trip, parse errors carry
//! line:col and say what was expected, and truncated or garbage text gives an
//! error rather than a panic.

use ir::{parse_case, parse_program, print_case, print_program, Builder, Jump, Op, SlotType};

/// A program that uses every kind of node: nested if, loop with break and
/// continue, loop-header phis, subgroup ops, every slot kind.
fn sample() -> ir::Program {
    let mut b = Builder::new("sample");
    b.comment("a builder-made sample");
    let x_slot = b.declare_input(SlotType::I32);
    let h_slot = b.declare_input(SlotType::F16);
    let u_slot = b.declare_uniform(SlotType::I64);
    let o0 = b.declare_output(SlotType::I32);
    let o1 = b.declare_output(SlotType::Bool);
    let x = b.load_input(x_slot);
    let h = b.load_input(h_slot);
    let u = b.load_uniform(u_slot);
    let zero = b.constant(32, 0);
    let one = b.constant(32, 1);
    let hz = b.constant(16, 0);
    let c = b.alu(Op::Flt, &[h, hz]);
    let entry = b.current_block();
    b.begin_loop();
    let header = b.current_block();
    let i = b.phi_placeholder(32);
    let i1 = b.alu(Op::Iadd, &[i.value, one]);
    let done = b.alu(Op::Ilt, &[x, i1]);
    b.begin_if(done);
    b.jump(Jump::Break);
    b.begin_else();
    b.begin_if(c);
    let cont_block = b.current_block();
    b.jump(Jump::Continue);
    b.begin_else();
    b.end_if();
    b.end_if();
    let latch = b.current_block();
    b.end_loop();
    b.set_phi_srcs(i, &[(entry, zero), (latch, i1), (cont_block, i1)]);
    let _ = header;
    let bal = b.alu(Op::Ballot, &[c]);
    let w = b.alu_sized(Op::U2u, 64, &[bal]);
    let s = b.alu(Op::Iadd, &[w, u]);
    let t = b.alu_sized(Op::I2i, 32, &[s]);
    b.store_output(o0, t);
    let any = b.alu(Op::VoteAny, &[c]);
    b.store_output(o1, any);
    b.finish().expect("the sample validates")
}

#[test]
fn builder_program_round_trips() {
    let p = sample();
    let text = print_program(&p);
    let q = parse_program(&text).expect("printed text parses");
    assert_eq!(p, q);
    assert_eq!(print_program(&q), text);
}

#[test]
fn printed_form_is_nir_like() {
    let text = print_program(&sample());
    // Derived by hand from nir_print.c's rules (see docs/nir-text.md):
    // `print_def` pads `%N` to the width of the largest index (ssa_alloc =
    // 16 with the offset constant %15), instructions without a destination
    // are padded to the `=` column (5 + 1 + 4 + 1 + 2 + 3 = 16 spaces), a
    // block with a destination pads `// preds:` to that column, an empty
    // block prints preds and succs on its own line, successors each carry
    // a trailing space, and constants show the readings their uses imply.
    let expected_lines = [
        "// a builder-made sample",
        "shader: MESA_SHADER_COMPUTE",
        "source_blake3: {0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}",
        "name: sample",
        "internal: false",
        "workgroup_size: 0, 0, 0 (variable)",
        "stage: 5",
        "next_stage: 0",
        "subgroup_size: 0",
        "divergence_analysis_run: true",
        "bit_sizes_float: 0x10",
        "bit_sizes_int: 0x61",
        "io_lowered: true",
        "ptr_size: 0",
        "inputs: 2",
        "outputs: 2",
        "uniforms: 8",
        "decl_var uniform INTERP_MODE_NONE none int64_t u0 (0, 0, 0)",
        "decl_var shader_in INTERP_MODE_NONE none int in0 (0.x, 0, 0)",
        "decl_var shader_in INTERP_MODE_NONE none float16_t in1 (1.x, 1, 0)",
        "decl_var shader_out INTERP_MODE_NONE none int out0 (0.x, 0, 0)",
        "decl_var shader_out INTERP_MODE_NONE none bool out1 (1.x, 1, 0)",
        "decl_function main (0 params)",
        "",
        "impl main {",
        "    con block b0:       // preds: ",
        "    con 32    %15 = load_const (0x00000000)",
        "    div 32     %0 = @load_input (%15 (0x0)) (base=0, component=0, dest_type=int32, io location=0 slots=1)  // in0",
        "    div 16     %1 = @load_input (%15 (0x0)) (base=1, component=0, dest_type=float16, io location=1 slots=1)  // in1",
        "    con 64     %2 = @load_uniform (%15 (0x0)) (base=0, range=8, dest_type=int64)  // u0",
        "    con 32     %3 = load_const (0x00000000)",
        "    con 32     %4 = load_const (0x00000001)",
        "    con 16     %5 = load_const (0x0000 = 0.000000)",
        "    div 1      %6 = flt %1, %5 (0.000000)",
        "                    // succs: b1 ",
        "    div loop {",
        "        div block b1:       // preds: b0 b4 b7",
        "        div 32     %7 = phi b0: %3 (0x0), b7: %8, b4: %8",
        "        div 32     %8 = iadd %7, %4 (0x1)",
        "        div 1      %9 = ilt %0, %8",
        "                        // succs: b2 b3 ",
        "        if %9 {",
        "            div block b2:// preds: b1",
        "            break",
        "            // succs: b8 ",
        "        } else {",
        "            div block b3:  // preds: b1, succs: b4 b5 ",
        "            if %6 {",
        "                div block b4:// preds: b3",
        "                continue",
        "                // succs: b1 ",
        "            } else {",
        "                div block b5:  // preds: b3, succs: b6 ",
        "            }",
        "            div block b6:  // preds: b5, succs: b7 ",
        "        }",
        "        div block b7:  // preds: b6, succs: b1 ",
        "    }",
        "    con block b8:       // preds: b2",
        "    con 32    %10 = @ballot (%6)",
        "    con 64    %11 = u2u64 %10",
        "    con 64    %12 = iadd %11, %2",
        "    con 32    %13 = i2i32 %12",
        "                    @store_output (%13, %15 (0x0)) (base=0, wrmask=x, component=0, src_type=int32, io location=0 slots=1, xfb(), xfb2())  // out0",
        "    con 1     %14 = @vote_any (%6)",
        "                    @store_output (%14, %15 (0x0)) (base=1, wrmask=x, component=0, src_type=bool1, io location=1 slots=1, xfb(), xfb2())  // out1",
        "                    // succs: b9 ",
        "    block b9:",
        "}",
        "",
    ];
    assert_eq!(text.lines().collect::<Vec<_>>(), expected_lines);
}

#[test]
fn case_with_dispatch_round_trips() {
    let text = "shader: d\ndecl_input 0 f32\ndecl_input 1 bool\ndecl_uniform 0 i8\ndecl_output 0 f32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t@store_output (%0) (slot=0)\n}\ndispatch 3 {\n\tinput 0: 1.5 -0.0 0x7fc00001\n\tinput 1: true false true\n\tuniform 0: -128\n}\n";
    let c = parse_case(text).unwrap();
    let d = c.dispatch.as_ref().unwrap();
    assert_eq!(d.inputs[0], vec![0x3fc0_0000, 0x8000_0000, 0x7fc0_0001]);
    assert_eq!(d.inputs[1], vec![1, 0, 1]);
    assert_eq!(d.uniforms, vec![0x80]);
    // Old spelling in, NIR out, and the NIR reads back to the same case.
    let printed = print_case(&c);
    assert!(printed.contains("    input 0: 1.5 -0.0 0x7fc00001\n"));
    assert_eq!(parse_case(&printed).unwrap(), c);
    assert_eq!(print_case(&parse_case(&printed).unwrap()), printed);
}

fn err(text: &str) -> String {
    parse_case(text).unwrap_err().to_string()
}

const HEAD: &str = "shader: t\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n";

#[test]
fn parse_errors_name_line_column_and_expectation() {
    assert_eq!(err(""), "1:1: expected `shader: NAME`, found end of file");
    assert_eq!(err("shader t\n"), "1:8: expected `:`, found `t`");
    assert_eq!(
        err("shader: t\ndecl_input 1 i32\n"),
        "2:12: expected slot 0 (slots are declared in order), found `1`"
    );
    assert_eq!(
        err("shader: t\ndecl_input 0 u32\n"),
        "2:14: expected a type (bool, i8, i16, i32, i64, f16, f32, f64), found `u32`"
    );
    assert_eq!(
        err(&format!("{HEAD}\t32 %0 = frob %1\n}}\n")),
        "5:10: expected an op name, found `frob`"
    );
    assert_eq!(
        err(&format!("{HEAD}\t32 %0 = iadd %1\n}}\n")),
        "5:17: expected `,`, found end of line"
    );
    assert_eq!(
        err(&format!("{HEAD}\t12 %0 = load_const (0x0)\n}}\n")),
        "5:2: bit size must be 1, 8, 16, 32 or 64, not 12"
    );
    assert_eq!(
        err(&format!("{HEAD}\t8 %0 = load_const (0x100)\n}}\n")),
        "5:21: constant does not fit in 8 bits"
    );
    assert_eq!(
        err(&format!("{HEAD}\t32 %0 = load_input () (slot=0)\n}}\n")),
        "5:10: `load_input` is an intrinsic: write it as `@load_input (...)`"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}\tbreak\n\t32 %0 = load_const (0x00000000)\n}}\n"
        )),
        "6:2: instruction after a jump"
    );
    assert_eq!(
        err(&format!("{HEAD}\tif %0 {{\n\t\tblock b1:\n\t}}\n}}\n")),
        "7:1: expected `} else {`"
    );
    assert_eq!(
        err(HEAD),
        "4:11: expected a statement or `}`, found end of file"
    );
    assert_eq!(
        err(&format!("{HEAD}}}\ndispatch 0 {{\n}}\n")),
        "6:11: invocation count must be in 1..=1024, not 0"
    );
    assert_eq!(
        err(&format!("{HEAD}}}\ntrailing\n")),
        "6:1: expected end of file, found `trailing`"
    );
}

/// Value and block numbers index dense tables, so the parser bounds them
/// (an unbounded `%222222228` once made the `ir_text` fuzz target allocate
/// past its memory limit).
#[test]
fn value_and_block_numbers_are_bounded() {
    assert_eq!(
        err(&format!(
            "{HEAD}\t32 %65536 = load_const (0x00000000)\n}}\n"
        )),
        "5:5: value number %65536 is too large (the limit is %65535)"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}\t32 %0 = load_const (0x00000000)\n\t32 %1 = iadd %0, %222222228\n}}\n"
        )),
        "6:19: value number %222222228 is too large (the limit is %65535)"
    );
    assert_eq!(
        err("shader: t\nimpl main {\n\tblock b65536:\n}\n"),
        "3:8: block number b65536 is too large (the limit is b65535)"
    );
    let at_limit =
        "shader: t\nimpl main {\n\tblock b65535:\n\t32 %65535 = load_const (0x00000000)\n}\n";
    let p = parse_case(at_limit).expect("numbers at the limit parse");
    assert_eq!(parse_case(&print_case(&p)).unwrap(), p);
}

#[test]
fn errors_can_name_the_file() {
    let e = parse_case("shader t\n")
        .unwrap_err()
        .in_file("corpus/x.sir");
    assert_eq!(e.to_string(), "corpus/x.sir:1:8: expected `:`, found `t`");
}

#[test]
fn truncated_text_never_panics() {
    let text = print_program(&sample());
    let mut failures = 0;
    for cut in 0..text.len() {
        if text.is_char_boundary(cut) && parse_case(&text[..cut]).is_err() {
            failures += 1;
        }
    }
    // Only cuts at the very end (after the closing brace) can parse.
    assert!(
        failures >= text.len() - 2,
        "{failures} of {} truncations failed",
        text.len()
    );
}

#[test]
fn garbage_never_panics() {
    // A deterministic xorshift drives byte-level mutations of a valid text.
    let base = print_program(&sample()).into_bytes();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"%@{}(),:=-0123456789abfxl \t\n/";
    for _ in 0..5000 {
        let mut t = base.clone();
        for _ in 0..(next() % 4 + 1) {
            let pos = (next() as usize) % t.len();
            match next() % 3 {
                0 => t[pos] = alphabet[(next() as usize) % alphabet.len()],
                1 => {
                    t.remove(pos);
                }
                _ => t.insert(pos, (next() % 256) as u8),
            }
        }
        let s = String::from_utf8_lossy(&t);
        if let Ok(c) = parse_case(&s) {
            // Whatever parses must print and re-parse to the same case.
            let printed = print_case(&c);
            assert_eq!(parse_case(&printed).as_ref(), Ok(&c));
        }
    }
}

/// Programs the validator rejects still print and read back exactly: an I/O
/// op on an undeclared slot or with the wrong source count keeps the older
/// `slot=N` spelling (NIR has no form for it), and no offset constant is
/// made up for it.
#[test]
fn invalid_io_round_trips_in_the_older_spelling() {
    for text in [
        "shader: t\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t@store_output () (slot=0)\n}\n",
        "shader: t\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=3)\n}\n",
        "shader: t\ndecl_input 0 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t@store_output (%0, %0) (slot=0)\n}\n",
        // Found by the ir_text fuzz target: phis in the entry block (the
        // offset constant goes after them).
        "shader: t\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %1 = phi b1: %2\n\t@store_output (%1) (slot=0)\n}\n",
    ] {
        let c = parse_case(text).unwrap();
        let printed = print_case(&c);
        // An offset constant only where an I/O op has its NIR spelling.
        assert_eq!(
            printed.contains("load_const"),
            printed.contains("base="),
            "{printed}"
        );
        assert_eq!(parse_case(&printed).unwrap(), c, "{printed}");
        assert_eq!(print_case(&parse_case(&printed).unwrap()), printed);
    }
}
