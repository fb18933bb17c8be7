//! End-to-end tests of the `farm` binary: outputs, exit codes, and clear
//! errors (file:line:col or the option's name) for bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

fn farm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_farm"))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("farm runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn interp_prints_the_per_lane_table() {
    // uniform_branch's expected file gives the same values.
    let o = farm(&["interp", "corpus/shift16.sir", "--simd", "8"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("lane\t"), "{text}");
    let case = ir::parse_case(&std::fs::read_to_string("../corpus/shift16.sir").unwrap()).unwrap();
    assert_eq!(
        text.lines().count(),
        1 + case.dispatch.unwrap().invocations as usize
    );
}

#[test]
fn interp_json_and_inputs_file() {
    let sir = tmp(
        "add.sir",
        "shader: add\ndecl_input 0 i32\ndecl_uniform 0 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = @load_uniform () (slot=0)\n\t32 %2 = iadd %0, %1\n\t@store_output (%2) (slot=0)\n}\n",
    );
    let inputs = tmp(
        "add.json",
        r#"{"inputs": [[1, -2, "0x7fffffff"]], "uniforms": [10]}"#,
    );
    let o = farm(&["interp", &sir, "--inputs", &inputs, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let vals: Vec<&str> = v["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["outputs"][0]["value"].as_str().unwrap())
        .collect();
    // 1+10, -2+10, 0x7fffffff+10 wraps to -2147483639.
    assert_eq!(vals, ["11", "8", "-2147483639"]);
    let o = farm(&["interp", &sir, "--inputs", &inputs, "--lanes", "2"]);
    assert_eq!(stdout(&o).lines().count(), 3);
}

#[test]
fn bad_input_gets_file_line_col_and_exit_2() {
    let sir = tmp(
        "bad.sir",
        "shader: x\nimpl main {\n\tblock b0:\n\t32 %0 = frob\n}\n",
    );
    let o = farm(&["interp", &sir]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        format!("error: {sir}:4:10: expected an op name, found `frob`")
    );
    let json = tmp("bad.json", "{\"inputs\": [[1,]]}");
    let good = tmp(
        "ok.sir",
        "shader: x\ndecl_input 0 i32\nimpl main {\n\tblock b0:\n}\n",
    );
    let o = farm(&["interp", &good, "--inputs", &json]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        format!("error: {json}:1:16: trailing comma")
    );
    let o = farm(&["interp", &good, "--simd", "12"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("'--simd <SIMD>': SIMD width must be 8, 16 or 32, not `12`"),
        "{}",
        stderr(&o)
    );
    let o = farm(&["interp", "/nonexistent/x.sir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: cannot read /nonexistent/x.sir"));
}

#[test]
fn invalid_case_exits_1() {
    let sir = tmp(
        "div.sir",
        "shader: d\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = load_const (0x00000000)\n\t32 %1 = idiv %0, %0\n\t@store_output (%1) (slot=0)\n}\n",
    );
    let o = farm(&["interp", &sir, "--lanes", "3"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o).trim(),
        "invalid case: `idiv` in invocation 0: division by zero"
    );
}

#[test]
fn gen_is_deterministic_and_parses() {
    let a = farm(&["gen", "--seed", "17"]);
    let b = farm(&["gen", "--seed", "17"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    let case = ir::parse_case(&stdout(&a)).unwrap();
    assert_eq!(ir::print_case(&case), stdout(&a));
    let cfg = tmp("gen.json", r#"{"max_instr": 3}"#);
    let o = farm(&["gen", "--config", &cfg]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown field `max_instr`"),
        "{}",
        stderr(&o)
    );
    let o = farm(&["gen", "--stats", "--count", "50"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o)
            .starts_with("cases: 50 (seeds 0..50)\nInvalidCase: 0 (0.000%)\nTimeout: 0 (0.000%)\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn asm_runs_and_reports_rules() {
    // g1 holds the invocation ids; each lane stores id + 100 at address id * 8.
    let o = farm(&[
        "asm",
        "examples/store_ids.asm",
        "--lanes",
        "3",
        "--simd",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().take(4).map(|l| l.to_string()).collect();
    assert_eq!(
        lines,
        [
            "lane  slot0",
            "0     0x00000064",
            "1     0x00000065",
            "2     0x00000066"
        ]
    );
    let bad = tmp(
        "bad.asm",
        "mul(8) g11<1>D g1<8,8,1>D g1<8,8,1>D\nsend(8) null g0 end { align1 1Q EOT };\n",
    );
    let o = farm(&["asm", &bad, "--lanes", "3", "--simd", "8"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("[mul-dword-dword] instruction 0"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn asm_runs_align16_on_the_vec4_machine_only() {
    let args = [
        "asm",
        "examples/vec4_swizzle.asm",
        "--lanes",
        "8",
        "--simd",
        "8",
    ];
    let o = farm(&[&args[..], &["--machine", "vec4"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // x and z lanes take the id .wzyx picks in their vertex; y, w keep 100.
    let want: Vec<String> = [3u32, 100, 1, 100, 7, 100, 5, 100]
        .iter()
        .enumerate()
        .map(|(lane, v)| format!("{lane:<6}0x{v:08x}"))
        .collect();
    let lines: Vec<String> = stdout(&o)
        .lines()
        .skip(1)
        .take(8)
        .map(String::from)
        .collect();
    assert_eq!(lines, want);
    let o = farm(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("[align16-unsupported] instruction 2"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_and_compile_take_the_files_config_line_and_speak_json() {
    // corpus/bugs cases inject their own bug in their config line, so
    // `farm run` on one fails as documented.
    let o = farm(&["run", "corpus/bugs/bool16-zero-extend.sir"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).starts_with(
            "--strategy bool16 --simd 8 --passes all --inject bool16-zero-extend: mismatch in 2 lane/slot pairs"
        ),
        "{}",
        stdout(&o)
    );
    // An option given on the command line wins over the file's line.
    let o = farm(&[
        "run",
        "corpus/bugs/bool16-zero-extend.sir",
        "--inject",
        "none",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["config"], "--strategy bool16 --simd 8 --passes all");
    assert_eq!(j["kind"], "pass");
    let o = farm(&["run", "corpus/bugs/bool16-zero-extend.sir", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (j["kind"].as_str(), j["culprit"].as_str()),
        (Some("mismatch"), Some("lowering"))
    );
    assert_eq!(j["diffs"].as_array().unwrap().len(), 2);
    let o = farm(&["compile", "corpus/shift16.sir", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], true);
    assert_eq!(
        j["instructions"].as_u64().unwrap(),
        j["assembly"]
            .as_str()
            .unwrap()
            .lines()
            // Every instruction's last line ends with `;` (a send takes two).
            .filter(|l| l.ends_with(';'))
            .count() as u64
    );
    // A case with undefined behaviour cannot be judged: exit 2.
    let ub = tmp(
        "ub.sir",
        "shader: ub\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = load_const (0x00000001)\n\t32 %1 = load_const (0x00000000)\n\t32 %2 = udiv %0, %1\n\t@store_output (%2) (slot=0)\n}\n",
    );
    let o = farm(&["run", &ub]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stdout(&o).contains("invalid case"), "{}", stdout(&o));
}

#[test]
fn fmt_converts_checks_and_rewrites_in_place() {
    let old = "shader: add\ndecl_input 0 i32\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t32 %1 = iadd %0, %0\n\t@store_output (%1) (slot=0)\n}\n";
    let sir = tmp("fmt.sir", old);
    // Printing: NIR, as nir_print.c lays it out (ssa_alloc 3 with the
    // offset constant %2: one digit, so `=` sits at column 15).
    let o = farm(&["fmt", &sir]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("shader: MESA_SHADER_COMPUTE\n"), "{text}");
    assert!(
        text.contains("\n    div 32    %1 = iadd %0, %0\n"),
        "{text}"
    );
    assert_eq!(ir::parse_case(&text).unwrap(), ir::parse_case(old).unwrap());
    // --check: 1 for the old spelling, 0 once rewritten in place.
    let o = farm(&["fmt", "--check", &sir]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{sir} is not in canonical form\n"));
    let o = farm(&["fmt", "-i", &sir]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&sir).unwrap(), text);
    assert_eq!(farm(&["fmt", "--check", &sir]).status.code(), Some(0));
    // A bad file among good ones: file:line:col, and nothing rewritten.
    let bad = tmp(
        "fmt-bad.sir",
        "shader: t\nimpl main {\n\tblock b0:\n\t32 %0 = frob\n}\n",
    );
    let good = tmp("fmt-good.sir", old);
    let o = farm(&["fmt", "-i", &good, &bad]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim(),
        format!("error: {bad}:4:10: expected an op name, found `frob`")
    );
    assert_eq!(std::fs::read_to_string(&good).unwrap(), old);
}

#[test]
fn asm_reads_the_listings_compile_prints_before_and_after_allocation() {
    let sir = tmp(
        "ids.sir",
        "shader: ids\ndecl_output 0 i32\nimpl main {\n\tblock b0:\n\t32 %0 = @subgroup_invocation ()\n\t32 %1 = load_const (0x00000003)\n\t32 %2 = imul %0, %1\n\t@store_output (%2) (slot=0)\n}\n",
    );
    let o = farm(&["compile", &sir, "--simd", "16", "--dump-passes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dump = stdout(&o);
    // The lowering's listing names virtual registers; the last one is final.
    let section = |title: &str| -> String {
        let start = dump
            .find(title)
            .unwrap_or_else(|| panic!("{title}\n{dump}"))
            + title.len();
        let rest = &dump[start..];
        rest[..rest.find("=== after").unwrap_or(rest.len())].to_string()
    };
    let virt = section("=== after lowering (virtual registers) ===\n");
    assert!(virt.contains("vgrf"), "{virt}");
    let fin = farm(&["compile", &sir, "--simd", "16"]);
    let run = |name: &str, text: &str| {
        let f = tmp(name, text);
        let o = farm(&["asm", &f, "--lanes", "8", "--simd", "16"]);
        assert_eq!(o.status.code(), Some(0), "{}\n{text}", stderr(&o));
        stdout(&o)
    };
    let a = run("virt.asm", &virt);
    let b = run("final.asm", &stdout(&fin));
    let rows = |t: &str| t.lines().take(9).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(rows(&a), rows(&b));
    // Lane i stored 3i: worked by hand from the program.
    assert_eq!(
        rows(&a)[3].split_whitespace().collect::<Vec<_>>(),
        ["2", "0x00000006"]
    );
}

#[test]
fn stats_writes_shader_db_logs_and_reports_on_them() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-cli-{}-sdb", std::process::id()));
    let o = farm(&[
        "stats",
        "corpus",
        "--vs",
        "bool32",
        "bool16",
        "--log",
        out.to_str().unwrap(),
        "-s",
        "-m",
        "instructions,registers",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary = stdout(&o);
    assert!(
        summary.starts_with("total instructions in shared programs: "),
        "{summary}"
    );
    // The logs hold a line per compiled shader at both widths and read back
    // to the same report (the time line aside).
    let a = std::fs::read_to_string(out.join("a.log")).unwrap();
    let files = std::fs::read_dir("../corpus")
        .unwrap()
        .chain(std::fs::read_dir("../corpus/bugs").unwrap())
        .chain(std::fs::read_dir("../corpus/regressions").unwrap())
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "sir")
        })
        .count();
    let shaders = a.lines().filter(|l| l.contains(" - CS SIMD")).count();
    assert!(
        shaders <= 2 * files && shaders >= files,
        "{shaders} of {files}"
    );
    assert!(a.lines().last().unwrap().starts_with("Thread 0 took "));
    let o = farm(&[
        "stats",
        "--logs",
        out.join("a.log").to_str().unwrap(),
        out.join("b.log").to_str().unwrap(),
        "-s",
        "-m",
        "instructions,registers",
    ]);
    let again = stdout(&o);
    let body = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("Total CPU"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&again), body(&summary));
    // A measurement the logs lack, and an unwritable --log, are clear errors.
    let o = farm(&[
        "stats",
        "--logs",
        out.join("a.log").to_str().unwrap(),
        out.join("b.log").to_str().unwrap(),
        "-m",
        "threads",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("measurement `threads` is missing for corpus/"),
        "{}",
        stderr(&o)
    );
    let o = farm(&[
        "stats",
        "corpus",
        "--vs",
        "bool32",
        "bool16",
        "--log",
        "/proc/none",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--log: cannot create /proc/none"),
        "{}",
        stderr(&o)
    );
}
