//! End-to-end tests of the real-driver target on lavapipe: `farm run
//! --target vulkan`, `farm export`, driver campaigns with faults in the
//! middle (crashes and compile failures cost one case each, counts stay
//! exact), and a driver finding from campaign to reduced report, repro and
//! `farm reduce`.
//!
//! Miscompiles are simulated by the worker's fault plan
//! (`SHADERFARM_VK_FAULTS=miscompile@OPCODE`, see `vulkan::FAULTS_VAR`),
//! so the expected values do not depend on which bugs the installed Mesa
//! has. Needs lavapipe (`mesa-vulkan-drivers`), `libvulkan1` and
//! SPIRV-Tools, which `.ci/run` installs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// SPIR-V's `OpISub`: `isub` exports to it, the ABI's own code never uses it.
const OP_ISUB: u32 = 130;

fn farm_with(args: &[&str], faults: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_farm"));
    c.args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env("MESA_SHADER_CACHE_DISABLE", "true")
        .env_remove(vulkan::FAULTS_VAR);
    if let Some(f) = faults {
        c.env(vulkan::FAULTS_VAR, f);
    }
    c.output().expect("farm runs")
}

fn farm(args: &[&str]) -> Output {
    farm_with(args, None)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("farm-driver-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Lane i reads input i + 1; the uniform is 3.
const SUB: &str = "shader: sub
decl_input 0 i32
decl_uniform 0 i32
decl_output 0 i32
decl_output 1 i32
impl main {
	block b0:
	32 %0 = @load_input () (slot=0)
	32 %1 = @load_uniform () (slot=0)
	32 %2 = isub %0, %1
	32 %3 = iadd %0, %1
	@store_output (%2) (slot=0)
	@store_output (%3) (slot=1)
}
dispatch 8 {
	input 0: 1 2 3 4 5 6 7 8
	uniform 0: 3
}
";

fn sub_case(dir: &Path) -> String {
    let p = dir.join("sub.sir");
    std::fs::write(&p, SUB).unwrap();
    p.display().to_string()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(&text(&o.stdout))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", text(&o.stdout), text(&o.stderr)))
}

#[test]
fn quad_ops_run_on_lavapipe_and_derivatives_need_the_feature() {
    // Quad swaps and both broadcasts (a constant index: QuadBroadcast; a
    // uniform register index: the shuffle) in a quad-uniform divergent if.
    let o = farm(&[
        "run",
        "corpus/quad_ops_divergent.sir",
        "--target",
        "vulkan",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(json(&o)["kind"], "pass");
    // Helper invocations exist in fragment shaders only: unsupported on
    // every device (the export makes compute shaders).
    let o = farm(&[
        "run",
        "corpus/helper_invocations.sir",
        "--target",
        "vulkan",
        "--json",
    ]);
    let v = json(&o);
    assert_eq!(o.status.code(), Some(2), "{v}");
    assert_eq!(v["kind"], "unsupported", "{v}");
    let verdict = v["verdict"].as_str().unwrap();
    assert!(verdict.starts_with("unsupported: the device lacks "), "{v}");
    assert!(verdict.ends_with("fragment_stage"), "{v}");
    // Derivatives need compute derivatives: a device with them (Mesa 24.2+
    // lavapipe) passes the case; one without (Mesa 22.3's) calls it
    // unsupported, not a finding, and names what is missing.
    let o = farm(&[
        "run",
        "corpus/quad_derivatives.sir",
        "--target",
        "vulkan",
        "--json",
    ]);
    let v = json(&o);
    if v["kind"] == "pass" {
        assert_eq!(o.status.code(), Some(0), "{v}");
    } else {
        assert_eq!(v["kind"], "unsupported", "{v}");
        assert_eq!(o.status.code(), Some(2), "{v}");
        assert!(
            v.to_string()
                .contains("the device lacks compute_derivatives"),
            "{v}"
        );
    }
}

#[test]
fn run_on_lavapipe_passes_and_names_the_device() {
    let dir = scratch("run");
    let case = sub_case(&dir);
    let o = farm(&["run", &case, "--target", "vulkan:llvmpipe"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("llvmpipe ("), "{out}");
    assert!(first.ends_with(", subgroup size 8: pass"), "{out}");
    assert!(out.lines().nth(1).unwrap().starts_with("export "), "{out}");

    let o = farm(&["run", &case, "--target", "vulkan", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v = json(&o);
    assert_eq!(v["kind"], "pass");
    assert_eq!(v["config"], "--target vulkan:llvmpipe --simd 8");
    assert_eq!(v["device"]["driver"], "llvmpipe");
    assert_eq!(v["signature"], serde_json::Value::Null);
    assert_eq!(v["diffs"], serde_json::json!([]));
}

#[test]
fn a_miscompile_is_a_mismatch_with_every_differing_lane() {
    let dir = scratch("mismatch");
    let case = sub_case(&dir);
    let faults = format!("miscompile@{OP_ISUB}");
    let o = farm_with(
        &["run", &case, "--target", "vulkan", "--json"],
        Some(&faults),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let v = json(&o);
    assert_eq!(v["kind"], "mismatch");
    // The fault flips bit 0 of every written output: the oracle's values
    // are x - 3 and x + 3 for x = lane + 1.
    let mut want = Vec::new();
    for lane in 0..8i32 {
        let x = lane + 1;
        for (slot, e) in [(0, x - 3), (1, x + 3)] {
            want.push(serde_json::json!({
                "lane": lane, "slot": slot,
                "expected": e.to_string(), "got": (e ^ 1).to_string(),
            }));
        }
    }
    assert_eq!(v["diffs"], serde_json::Value::Array(want));
    // Every probed value is wrong, so the first one (the input) is named.
    assert_eq!(v["signature"], "mismatch-vulkan_llvmpipe-load_input");
}

#[test]
fn a_device_that_is_not_there_is_a_clear_error() {
    let dir = scratch("nodevice");
    let case = sub_case(&dir);
    let o = farm(&["run", &case, "--target", "vulkan:no-such-gpu"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("no Vulkan device or driver name contains \"no-such-gpu\""),
        "{err}"
    );
    let o = farm(&["run", &case, "--target", "metal"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("unknown target `metal`"),
        "{}",
        text(&o.stderr)
    );
}

fn tool(name: &str, args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut c = Command::new(name);
    c.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c
        .spawn()
        .unwrap_or_else(|e| panic!("{name} (SPIRV-Tools) must be installed: {e}"));
    if let Some(s) = stdin {
        child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

/// Assembles SPIR-V assembly into `spv` with `spirv-as` and validates it.
fn assemble_and_validate(asm: &str, spv: &Path) {
    let spv = spv.to_str().unwrap();
    let a = tool(
        "spirv-as",
        &["--target-env", "vulkan1.1", "-o", spv, "-"],
        Some(asm),
    );
    assert!(a.status.success(), "{}", text(&a.stderr));
    let v = tool("spirv-val", &["--target-env", "vulkan1.1", spv], None);
    assert!(v.status.success(), "{}", text(&v.stderr));
}

#[test]
fn export_writes_a_valid_module_and_assembly_that_assembles() {
    let dir = scratch("export");
    let case = sub_case(&dir);
    let spv = dir.join("sub.spv");
    let o = farm(&["export", &case, "-o", spv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stderr).starts_with(&format!("wrote {}", spv.display())));
    let words = std::fs::read(&spv).unwrap();
    assert_eq!(&words[..4], &0x0723_0203u32.to_le_bytes());
    let v = tool(
        "spirv-val",
        &["--target-env", "vulkan1.1", spv.to_str().unwrap()],
        None,
    );
    assert!(v.status.success(), "{}", text(&v.stderr));

    let o = farm(&["export", &case, "--spvasm", "-o", "-", "--lanes", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let asm = text(&o.stdout);
    assert!(
        asm.contains("OpExecutionMode %main LocalSize 3 1 1\n"),
        "{asm}"
    );
    assert!(asm.contains(" = OpISub %uint %v0 %v1\n"), "{asm}");
    assemble_and_validate(&asm, &dir.join("re.spv"));

    // Bad input names the file or the option.
    let o = farm(&["export", "no/such.sir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no/such.sir"),
        "{}",
        text(&o.stderr)
    );
    let o = farm(&["export", &case, "--lanes", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--lanes"), "{}", text(&o.stderr));
    let o = farm(&["export", &case, "-o", "/proc/no-such-dir/x.spv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("/proc/no-such-dir/x.spv"),
        "{}",
        text(&o.stderr)
    );
}

fn stats(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("stats.json")).unwrap()).unwrap()
}

fn buckets(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("buckets.json")).unwrap()).unwrap()
}

#[test]
fn crashes_and_compile_failures_mid_campaign_cost_one_case_each() {
    // Without faults, these 12 cases pass on lavapipe.
    let clean = scratch("clean");
    let args = |out: &Path| {
        vec![
            "fuzz".to_string(),
            "--cases".into(),
            "12".into(),
            "--targets".into(),
            "vulkan".into(),
            "--jobs".into(),
            "1".into(),
            "--quiet".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let a = args(&clean);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = farm(&a);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(stats(&clean)["verdicts"], serde_json::json!({"pass": 12}));
    // The campaign's recorded generator config leaves out what lavapipe
    // cannot run in a compute shader: helper invocations always, and the
    // derivatives where, as in Mesa 22.3, it has no compute derivatives.
    let campaign: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(clean.join("campaign.json")).unwrap())
            .unwrap();
    let generator = &campaign["generator"];
    assert_eq!(generator["helpers"], false);
    let ops: Vec<&str> = generator["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap())
        .collect();
    assert!(
        ops.contains(&"quad_swap_diagonal") && ops.contains(&"iadd"),
        "{ops:?}"
    );
    let derivatives = farm(&[
        "run",
        "corpus/quad_derivatives.sir",
        "--target",
        "vulkan",
        "--json",
    ]);
    let runs_derivatives = json(&derivatives)["kind"] == "pass";
    assert_eq!(ops.contains(&"ddx_fine"), runs_derivatives, "{ops:?}");

    // Every worker rejects its 2nd job and aborts at its 4th, so of each 4
    // cases (one worker's life) the 2nd is a compile failure and the 4th a
    // crash: cases 1, 5, 9 and 3, 7, 11.
    let faulty = scratch("faulty");
    let a = args(&faulty);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = farm_with(&a, Some("reject@2,abort@4"));
    // 1: finished, with findings.
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let s = stats(&faulty);
    assert_eq!(s["finished"], true);
    assert_eq!(s["cases"], 12);
    assert_eq!(
        s["verdicts"],
        serde_json::json!({"pass": 6, "driver-compile-fail": 3, "driver-crash": 3})
    );
    assert_eq!(s["driver_time"]["runs"], 12);
    let b = &buckets(&faulty)["buckets"];
    let names: Vec<&String> = b.as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        [
            "driver-compile-fail-vulkan_llvmpipe",
            "driver-crash-vulkan_llvmpipe-signal-6"
        ]
    );
    assert_eq!(b["driver-compile-fail-vulkan_llvmpipe"]["first_case"], 1);
    assert_eq!(b["driver-compile-fail-vulkan_llvmpipe"]["hits"], 3);
    assert_eq!(b["driver-crash-vulkan_llvmpipe-signal-6"]["first_case"], 3);
    assert_eq!(b["driver-crash-vulkan_llvmpipe-signal-6"]["hits"], 3);
    assert_eq!(
        b["driver-crash-vulkan_llvmpipe-signal-6"]["variants"],
        serde_json::json!({"vulkan:llvmpipe simd8": 3})
    );
    // A fault that is not in the case does not reproduce: the reducer says so.
    let crash = &b["driver-crash-vulkan_llvmpipe-signal-6"];
    assert_eq!(crash["reduced"], false);
    assert!(
        crash["reduce_error"]
            .as_str()
            .unwrap()
            .starts_with("the case does not fail on llvmpipe"),
        "{crash}"
    );
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            faulty.join("findings/driver-crash-vulkan_llvmpipe-signal-6/verdict.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(v["device"]["driver_id"], "MESA_LLVMPIPE");
    assert_eq!(v["device"]["subgroup_size"], 8);
}

#[test]
fn a_driver_finding_is_reduced_reported_reproduced_and_reduced_again() {
    let out = scratch("finding");
    let faults = format!("miscompile@{OP_ISUB}");
    let o = farm_with(
        &[
            "fuzz",
            "--cases",
            "1",
            "--seed",
            "1",
            "--targets",
            "vulkan",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
        Some(&faults),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let name = "mismatch-vulkan_llvmpipe-load_input";
    let finding = out.join("findings").join(name);
    let b = &buckets(&out)["buckets"][name];
    assert_eq!(b["reduced"], true, "{b}");

    // The reduced case keeps an isub (the simulated bug) and little else.
    let reduced = std::fs::read_to_string(finding.join("reduced/reduced.sir")).unwrap();
    let case = ir::parse_case(&reduced).unwrap();
    let mut ops = Vec::new();
    case.program
        .for_each_block(&mut |b| ops.extend(b.instrs.iter().map(|i| i.op.name())));
    assert!(ops.contains(&"isub"), "{reduced}");
    assert!(case.program.num_instrs() <= 5, "{reduced}");
    assert!(
        reduced.starts_with("// target: vulkan:llvmpipe\n"),
        "{reduced}"
    );

    // The VkRunner script's SPIR-V section assembles and validates, and it
    // probes the oracle's values for every output.
    let script = std::fs::read_to_string(finding.join("reduced/repro.shader_test")).unwrap();
    let asm: String = script
        .split("[compute shader spirv]\n")
        .nth(1)
        .and_then(|s| s.split("\n[test]").next())
        .expect("a [compute shader spirv] section")
        .to_string();
    assemble_and_validate(&asm, &out.join("repro.spv"));
    assert!(script.contains("\ncompute 1 1 1\n"), "{script}");
    let d = case.dispatch.as_ref().unwrap();
    let probes = script
        .lines()
        .filter(|l| l.starts_with("probe ssbo uint 2 "))
        .count();
    assert_eq!(probes, d.invocations as usize * case.program.outputs.len());
    let report = std::fs::read_to_string(finding.join("reduced/report.md")).unwrap();
    assert!(report.contains("| MESA_LLVMPIPE |"), "{report}");
    assert!(report.contains("vkrunner repro.shader_test"), "{report}");

    // The campaign's HTML report shows the device and the reproducer.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<td>MESA_LLVMPIPE</td>"), "no device table");
    assert!(html.contains("<summary>VkRunner reproducer (repro.shader_test)</summary>"));
    assert!(html.contains("<h2 id=\"driver\">Driver runs</h2>"));

    // repro: still failing under the fault, fixed without it.
    let dir = finding.to_str().unwrap();
    let o = farm_with(&["repro", dir], Some(&faults));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).ends_with(&format!("reproduced ({name})\n")),
        "{}",
        text(&o.stdout)
    );
    let o = farm(&["repro", dir, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(json(&o)["outcome"], "fixed: it no longer fails");

    // farm reduce on the finding reduces against its own driver.
    let again = out.join("again");
    let o = farm_with(
        &["reduce", dir, "--out", again.to_str().unwrap()],
        Some(&faults),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let twice = std::fs::read_to_string(again.join("reduced.sir")).unwrap();
    assert_eq!(twice, reduced);
    for f in [
        "reduced.spvasm",
        "repro.shader_test",
        "report.md",
        "report.json",
    ] {
        assert!(again.join(f).is_file(), "{f} missing");
    }
}

/// A hang costs the dispatch timeout plus the runner's grace (12 s), so
/// this runs in the long tier only (`SHADERFARM_LONG_TESTS=1`, which
/// `.ci/run` sets).
#[test]
fn a_hang_mid_campaign_is_a_timeout_that_costs_one_case() {
    if std::env::var_os("SHADERFARM_LONG_TESTS").is_none_or(|v| v != "1") {
        return;
    }
    let out = scratch("hang");
    let o = farm_with(
        &[
            "fuzz",
            "--cases",
            "4",
            "--targets",
            "vulkan",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ],
        Some("hang@3"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let s = stats(&out);
    assert_eq!(
        s["verdicts"],
        serde_json::json!({"pass": 3, "driver-timeout": 1})
    );
    let b = &buckets(&out)["buckets"];
    assert_eq!(b["driver-timeout-vulkan_llvmpipe"]["first_case"], 2, "{b}");
    assert_eq!(b["driver-timeout-vulkan_llvmpipe"]["hits"], 1, "{b}");
}

/// A driver has no culprit pass: its mismatches are told apart by the op
/// of the first value computed wrongly (value probes). Under a simulated
/// miscompile that corrupts every value, that is the first probed value,
/// so two cases whose first computed op differs land in two buckets, and
/// the constants before it (never probed) do not count.
#[test]
fn driver_mismatches_are_bucketed_by_their_first_wrong_op() {
    let dir = scratch("buckets");
    let case = |name: &str, first: &str| {
        let p = dir.join(format!("{name}.sir"));
        let sir = format!(
            "shader: {name}\ndecl_output 0 i32\nimpl main {{\n\tblock b0:\n\t32 %0 = load_const (0x00000007)\n\t32 %1 = {first}\n\t32 %2 = isub %1, %0\n\t@store_output (%2) (slot=0)\n}}\ndispatch 4 {{\n}}\n"
        );
        std::fs::write(&p, sir).unwrap();
        p.display().to_string()
    };
    let faults = format!("miscompile@{OP_ISUB}");
    let mut names = Vec::new();
    for (name, first) in [
        ("neg", "ineg %0"),
        ("not", "inot %0"),
        ("sub", "isub %0, %0"),
    ] {
        let o = farm_with(
            &["run", &case(name, first), "--target", "vulkan", "--json"],
            Some(&faults),
        );
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
        names.push(json(&o)["signature"].as_str().unwrap().to_string());
    }
    assert_eq!(
        names,
        [
            "mismatch-vulkan_llvmpipe-ineg",
            "mismatch-vulkan_llvmpipe-inot",
            "mismatch-vulkan_llvmpipe-isub"
        ]
    );
}

/// A real Vulkan NIR dump that reaches its data through SSBOs
/// (`ir/tests/nir/saxpy_ssbo.nir`: `if (i < n) y[i] = alpha * x[i] + y[i]`)
/// runs in the oracle with the values worked out by hand, and on lavapipe
/// through the farm's own SPIR-V export with the same result.
#[test]
fn a_real_nir_dump_with_ssbos_runs_in_the_oracle_and_on_the_driver() {
    let dir = scratch("saxpy");
    let inputs = dir.join("inputs.json");
    // Inputs x = 1, 2, 3 and y = 10, 20, 30; uniforms n = 2, alpha = 2.0.
    std::fs::write(
        &inputs,
        r#"{"inputs": [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]], "uniforms": [2, 2.0]}"#,
    )
    .unwrap();
    let inputs = inputs.display().to_string();
    let case = "ir/tests/nir/saxpy_ssbo.nir";
    let o = farm(&[
        "interp", case, "--inputs", &inputs, "--lanes", "3", "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v = json(&o);
    let outs: Vec<serde_json::Value> = v["lanes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["outputs"][0]["value"].clone())
        .collect();
    // 2*1 + 10 = 12, 2*2 + 20 = 24; invocation 2 is not below n = 2, so
    // it writes nothing.
    assert_eq!(
        outs,
        [
            serde_json::json!("12.0"),
            serde_json::json!("24.0"),
            serde_json::Value::Null
        ]
    );
    let o = farm(&[
        "run", case, "--inputs", &inputs, "--lanes", "3", "--target", "vulkan", "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(json(&o)["verdict"], "pass");
}
