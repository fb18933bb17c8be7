//! Importing real Vulkan NIR that reaches its data through SSBOs and UBOs:
//! the dumps in `tests/nir/` (written from Mesa's `nir_print.c` and the
//! lowering `nir_lower_explicit_io` does for the `32bit_index_offset` and
//! `vec2_index_32bit_offset` address formats) read as the slot programs
//! written by hand below, and every access the mapping cannot keep faithful
//! is rejected at its line and column.

use ir::{parse_program, print_program, validate};

fn dump(name: &str) -> String {
    let path = format!("{}/tests/nir/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `saxpy_ssbo.nir` by hand: `params.n` (binding 1, byte 4) and
/// `params.alpha` (byte 0) are read by every invocation, so they are
/// uniforms, in order of first access; `xs.x[i]` and `ys.y[i]` (4 bytes at
/// 4*i) are inputs, and the store to `ys.y[i]` an output. `n` is compared
/// as an integer, the rest feed `ffma`, so they are floats. The descriptors,
/// the `mov`s and the address arithmetic (`ishl %7, 2` included) are gone.
const SAXPY: &str = "// uniform 0: SSBO set 0 binding 1 (params), 4 bytes at offset 4
// uniform 1: SSBO set 0 binding 1 (params), 4 bytes at offset 0
// input 0: SSBO set 0 binding 0 (xs), 4 bytes at offset 4*i + 0
// input 1: SSBO set 0 binding 2 (ys), 4 bytes at offset 4*i + 0
// output 0: SSBO set 0 binding 2 (ys), 4 bytes at offset 4*i + 0
shader: nir
decl_input 0 f32
decl_input 1 f32
decl_uniform 0 i32
decl_uniform 1 f32
decl_output 0 f32
impl main {
\tblock b0:
\t32 %6 = @load_uniform () (slot=0)
\t32 %7 = @invocation_id ()
\t1 %8 = ult %7, %6
\tif %8 {
\t\tblock b1:
\t\t32 %10 = @load_uniform () (slot=1)
\t\t32 %17 = @load_input () (slot=0)
\t\t32 %22 = @load_input () (slot=1)
\t\t32 %23 = ffma %10, %17, %22
\t\t@store_output (%23) (slot=0)
\t} else {
\t\tblock b2:
\t}
\tblock b3:
}
";

/// `accumulate_ubo.nir` by hand: 32x3 descriptors, a UBO (`bias` at byte
/// 4, `iterations` at 0), `Item { int a; float w; }` with a stride of 8
/// (`a` at 8*i, `w` at 8*i + 4) and the same for the results, and the
/// invocation index read as `.x` of `load_global_invocation_id`. The
/// constant 0 stays: the loop counter's phi reads it.
const ACCUMULATE: &str = "// uniform 0: UBO set 0 binding 0 (params), 4 bytes at offset 4
// input 0: SSBO set 0 binding 1 (src), 4 bytes at offset 8*i + 0
// uniform 1: UBO set 0 binding 0 (params), 4 bytes at offset 0
// output 0: SSBO set 0 binding 2 (dst), 4 bytes at offset 8*i + 0
// input 1: SSBO set 0 binding 1 (src), 4 bytes at offset 8*i + 4
// output 1: SSBO set 0 binding 2 (dst), 4 bytes at offset 8*i + 4
shader: accumulate
decl_input 0 i32
decl_input 1 f32
decl_uniform 0 i32
decl_uniform 1 i32
decl_output 0 i32
decl_output 1 f32
impl main {
\tblock b0:
\t32 %0 = load_const (0x00000000)
\t32 %6 = @load_uniform () (slot=0)
\t32 %14 = @load_input () (slot=0)
\t32 %16 = @load_uniform () (slot=1)
\tloop {
\t\tblock b1:
\t\t32 %17 = phi b0: %6, b7: %20
\t\t32 %18 = phi b0: %0, b7: %24
\t\t1 %19 = uge %18, %16
\t\tif %19 {
\t\t\tblock b2:
\t\t\tbreak
\t\t} else {
\t\t\tblock b3:
\t\t}
\t\tblock b4:
\t\t32 %20 = iadd %17, %14
\t\t32 %21 = load_const (0x000003e8)
\t\t1 %22 = ilt %21, %20
\t\tif %22 {
\t\t\tblock b5:
\t\t\tbreak
\t\t} else {
\t\t\tblock b6:
\t\t}
\t\tblock b7:
\t\t32 %23 = load_const (0x00000001)
\t\t32 %24 = iadd %18, %23
\t}
\tblock b8:
\t32 %25 = phi b2: %17, b5: %20
\t@store_output (%25) (slot=0)
\t32 %31 = @load_input () (slot=1)
\t32 %32 = i2f %25
\t32 %33 = fmul %31, %32
\t@store_output (%33) (slot=1)
}
";

#[test]
fn ssbo_dumps_read_as_the_slot_programs_they_describe() {
    for (file, expected) in [
        ("saxpy_ssbo.nir", SAXPY),
        ("accumulate_ubo.nir", ACCUMULATE),
    ] {
        let p = parse_program(&dump(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        validate(&p).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        assert_eq!(p, parse_program(expected).unwrap(), "{file}");
        // The slots print as NIR I/O and read back as the same program,
        // the mapping's comments included.
        assert_eq!(parse_program(&print_program(&p)).unwrap(), p, "{file}");
    }
}

/// A kernel over one SSBO at binding 0 whose prologue builds the address
/// `4*i` as `%7` and the buffer index as `%3`; `body` starts at line 16.
fn kernel(body: &str) -> String {
    format!(
        "shader: MESA_SHADER_COMPUTE
workgroup_size: 64, 1, 1
decl_var ssbo INTERP_MODE_NONE restrict A a (~0, 0, 0)
decl_function main (0 params)

impl main {{
    con block b0:
    con 32     %0 = load_const (0x00000000)
    con 32x2   %1 = @vulkan_resource_index (%0 (0x0)) (desc_set=0, binding=0, desc_type=SSBO)
    con 32x2   %2 = @load_vulkan_descriptor (%1) (desc_type=SSBO)
    con 32     %3 = mov %2.x
    div 32     %4 = @load_local_invocation_index
    con 32     %5 = load_const (0x00000004)
    div 32     %6 = imul %4, %5 (0x4)
    div 32     %7 = iadd %2.y, %6
{body}
    block b20:
}}
"
    )
}

const LOAD: &str = "(access=restrict, align_mul=4, align_offset=0)";
const STORE: &str = "(wrmask=x, access=restrict, align_mul=4, align_offset=0)";

fn err(text: &str) -> String {
    parse_program(text).unwrap_err().to_string()
}

#[test]
fn an_element_of_each_invocation_reads_and_writes_in_place() {
    // a[i] = a[i] + 1: the load comes first and no loop runs it again, so
    // input 0 and output 0 are the same bytes without a hazard.
    let p = parse_program(&kernel(&format!(
        "    div 32     %8 = @load_ssbo (%3, %7) {LOAD}
    con 32     %9 = load_const (0x00000001)
    div 32    %10 = iadd %8, %9 (0x1)
                    @store_ssbo (%10, %3, %7) {STORE}"
    )))
    .unwrap();
    assert_eq!(p.inputs, [ir::SlotType::I32]);
    assert_eq!(p.outputs, [ir::SlotType::I32]);
    assert_eq!(p.uniforms, []);
}

#[test]
fn accesses_the_mapping_cannot_keep_are_named_at_their_place() {
    let cases: Vec<(String, &str)> = vec![
        (
            // a[i + 1]: the neighbour's element.
            format!(
                "    div 32     %8 = iadd %7, %5 (0x4)\n    div 32     %9 = @load_ssbo (%3, %8) {LOAD}"
            ),
            "17:22: 4 bytes at offset 4*i + 4 reach into the next invocation's element (the stride is 4 bytes): only each invocation's own element is modelled",
        ),
        (
            // A loop that stores a[i] and loads it again on the next trip.
            format!(
                "    loop {{\n        block b1:\n        div 32     %8 = @load_ssbo (%3, %7) {LOAD}\n                    @store_ssbo (%8, %3, %7) {STORE}\n    }}\n    block b2:"
            ),
            "18:26: this load may read what the store at line 19 wrote: reads after writes through memory are not modelled",
        ),
        (
            format!("                    @store_ssbo (%4, %3, %0) {STORE}"),
            "16:22: a store to the fixed offset 0: every invocation writes the same bytes",
        ),
        (
            format!(
                "    con 32     %8 = load_const (0x00000008)\n    div 32     %9 = imul %4, %8 (0x8)\n    div 32    %10 = @load_ssbo (%3, %7) {LOAD}\n    div 32    %11 = @load_ssbo (%3, %9) {LOAD}"
            ),
            "18:22: SSBO binding 0 is accessed with strides of 4 and 8 bytes per invocation (line 19)",
        ),
        (
            format!(
                "    div 32     %8 = @load_ssbo (%3, %0) {LOAD}\n    div 32     %9 = @load_ssbo (%3, %7) {LOAD}"
            ),
            "16:22: the fixed bytes 0..+4 may be an invocation's own element (those start at offset 4*i + 0, line 17)",
        ),
        (
            "    div 1      %8 = ieq %7, %4".to_string(),
            "16:21: `ieq` on a buffer descriptor or address: only mov, iadd, imul, amul and ishl are modelled there, on constants and the invocation index",
        ),
        (
            format!("    div 32x4   %8 = @load_ssbo (%3, %7) {LOAD}"),
            "16:22: a 4-component load: vector loads are not modelled",
        ),
        (
            format!(
                "    div 32     %8 = imul %4, %4\n    div 32     %9 = @load_ssbo (%3, %8) {LOAD}"
            ),
            "17:37: the offset %8 is not a constant plus a constant times the invocation index: data-dependent addressing is not modelled",
        ),
        (
            format!(
                "    div 1      %8 = ieq %4, %0 (0x0)\n                    @store_ssbo (%8, %3, %7) {STORE}"
            ),
            "17:22: a store of a 1-bit boolean: buffers hold bytes",
        ),
        (
            "    con 32x2   %8 = @vulkan_resource_index (%4) (desc_set=0, binding=1, desc_type=SSBO)"
                .to_string(),
            "16:45: the array index of a descriptor must be the constant 0: descriptor arrays are not modelled",
        ),
        (
            "    con 32x2   %8 = @vulkan_resource_index (%0 (0x0)) (desc_set=0, binding=1, desc_type=image)"
                .to_string(),
            "16:79: `desc_type=image`: only SSBO and UBO descriptors are modelled",
        ),
        (
            format!("    div 32     %8 = @load_ubo (%3, %7) {LOAD}"),
            "16:22: `@load_ubo` through a SSBO descriptor",
        ),
        (
            "    con 32     %8 = mov %2.z".to_string(),
            "16:27: `.z` of a 2-component descriptor: expected `.x` (the buffer index) or `.y` (the offset)",
        ),
        (
            "    div 32x3   %8 = @load_local_invocation_id\n    div 32     %9 = iadd %8.y, %5".to_string(),
            "17:28: `.y` of the invocation id: only `.x` (a one-dimensional workgroup) is modelled",
        ),
        (
            "    div 32     %8 = fadd %7, %5".to_string(),
            "16:21: `fadd` on a buffer descriptor or address: only mov, iadd, imul, amul and ishl are modelled there, on constants and the invocation index",
        ),
        (
            "    div 32     %8 = @read_first_invocation (%7)".to_string(),
            "16:45: %7 is a buffer descriptor or address: only SSBO and UBO accesses may use it",
        ),
    ];
    for (body, want) in cases {
        assert_eq!(err(&kernel(&body)), want, "body:\n{body}");
    }
}

#[test]
fn the_invocation_id_vector_needs_a_one_dimensional_workgroup() {
    let text = kernel("    div 32x3   %8 = @load_local_invocation_id")
        .replace("workgroup_size: 64, 1, 1", "workgroup_size: 8, 8, 1");
    assert_eq!(
        err(&text),
        "16:22: `@load_local_invocation_id` is modelled only in a one-dimensional workgroup (`workgroup_size: N, 1, 1` in the header)"
    );
}
