//! Importing real NIR: a dump in the form `NIR_DEBUG=print` gives (written
//! from Mesa's `nir_print.c`, see docs/nir-text.md) reads as the program its
//! compact spelling describes, and what is not modelled is rejected at its
//! line and column with the construct named.

use ir::{parse_program, print_program, validate};

fn dump(name: &str) -> String {
    let path = format!("{}/tests/nir/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The program `subgroup_sum.nir` describes, written by hand in the compact
/// spelling: uniforms and inputs by location, `base` matched to the
/// variables' driver locations (`bias` is uniform slot 1), the offset
/// constant kept because `ieq` also reads it, sized names unsized.
const SUBGROUP_SUM: &str = "shader: GLSL1
decl_input 0 i32
decl_input 1 f32
decl_uniform 0 i32
decl_uniform 1 f32
decl_output 0 f32
impl main {
\tblock b0:
\t32 %0 = load_const (0x00000000)
\t32 %1 = @load_input () (slot=0)
\t32 %2 = @load_input () (slot=1)
\t32 %3 = @load_uniform () (slot=1)
\t32 %4 = @subgroup_invocation ()
\t32 %5 = load_const (0x00000001)
\t32 %6 = iand %4, %5
\t1 %7 = ieq %6, %0
\tif %7 {
\t\tblock b1:
\t\t32 %8 = fmul %2, %3
\t} else {
\t\tblock b2:
\t\t32 %9 = i2f %1
\t}
\tblock b3:
\t32 %10 = phi b1: %8, b2: %9
\t32 %11 = @read_first_invocation (%10)
\t32 %12 = fadd %10, %11
\t1 %13 = @elect ()
\t32 %14 = @ballot (%7)
\t32 %15 = bit_count %14
\t32 %16 = u2f %15
\t32 %17 = bcsel %13, %12, %16
\t@store_output (%17) (slot=0)
}
";

#[test]
fn a_real_dump_reads_as_the_program_it_describes() {
    let p = parse_program(&dump("subgroup_sum.nir")).unwrap_or_else(|e| panic!("{e}"));
    validate(&p).unwrap();
    assert_eq!(p, parse_program(SUBGROUP_SUM).unwrap());
    // And prints back as NIR that reads as the same program.
    assert_eq!(parse_program(&print_program(&p)).unwrap(), p);
}

/// The dump with line `line` replaced.
fn with_line(line: usize, text: &str) -> String {
    let d = dump("subgroup_sum.nir");
    let mut lines: Vec<&str> = d.lines().collect();
    lines[line - 1] = text;
    lines.join("\n") + "\n"
}

fn err(text: &str) -> String {
    parse_program(text).unwrap_err().to_string()
}

#[test]
fn what_is_not_modelled_is_named_at_its_place() {
    assert_eq!(
        err("shader: MESA_SHADER_FRAGMENT\n"),
        "1:9: `MESA_SHADER_FRAGMENT`: only compute shaders are modelled (MESA_SHADER_COMPUTE)"
    );
    assert_eq!(
        err(&with_line(
            20,
            "decl_var shared INTERP_MODE_NONE none uint[] data (0, 0, 0)"
        )),
        "20:10: variables of mode `shared` are not modelled (only shader_in, shader_out, uniform, ssbo and ubo)"
    );
    assert_eq!(
        err(&with_line(
            21,
            "decl_var uniform INTERP_MODE_NONE none vec4 bias (1, 8, 0)"
        )),
        "21:40: type `vec4` is not modelled (scalars only: bool, int8_t, int16_t, int, int64_t, float16_t, float, double)"
    );
    assert_eq!(
        err(&with_line(32, "    div 32x3   %4 = @load_workgroup_id")),
        "32:9: vectors (32x3: 3 components) are not modelled: the IR is scalar"
    );
    assert_eq!(
        err(&with_line(
            32,
            "    div 32     %4 = @load_ssbo (%0, %0) (access=none, align_mul=4, align_offset=0)"
        )),
        "32:33: %0 is not the buffer index of a descriptor (`mov` of its index components)"
    );
    assert_eq!(
        err(&with_line(34, "    div 32     %6 = iadd.nsw %4, %5 (0x1)")),
        "34:25: `.nsw` makes wrapping undefined, which is not modelled (our integer ops wrap)"
    );
    assert_eq!(
        err(&with_line(34, "    div 32     %6 = iand %4.y, %5 (0x1)")),
        "34:28: vector components (`.x`, swizzles) are not modelled: the IR is scalar"
    );
    assert_eq!(
        err(&with_line(
            30,
            "    div 32     %1 = @load_input (%5 (0x1)) (base=0, component=0, dest_type=int32, io location=0 slots=1)"
        )),
        "30:34: I/O offset %5 is not the 32-bit constant 0: indirect I/O is not modelled"
    );
    assert_eq!(
        err(&with_line(
            30,
            "    div 32     %1 = @load_input (%0 (0x0)) (base=0, component=2, dest_type=int32, io location=0 slots=1)"
        )),
        "30:53: `component=2`: packed (vector) I/O is not modelled"
    );
    assert_eq!(
        err(&with_line(
            32,
            "    con 32     %3 = @load_uniform (%0 (0x0)) (base=4, range=4, dest_type=float32)"
        )),
        "32:47: no uniform variable has driver location 4"
    );
}
