//! Control-flow shapes whose SPIR-V structure is delicate, checked against
//! `spirv-val` and for the exact block structure: a loop that never loops
//! (unreachable continue target, `OpUndef` back-edge operand), a loop
//! header that ends in a selection with two back edges merged by a phi in
//! the continue target, and nested loops. The programs (`tests/programs/`)
//! were also run on lavapipe against the oracle while writing them.

mod common;

use spirv_export::{disassemble, export, ExportOptions};

fn exported(file: &str) -> String {
    let path = format!("{}/tests/programs/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("program file");
    let case = ir::parse_case(&text).expect("parses");
    let m = export(
        &case.program,
        &ExportOptions::new(common::invocations(&case)),
    )
    .expect("exports");
    if let Err(e) = common::spirv_val(&m.words) {
        panic!("{file}: spirv-val rejects the module: {e}");
    }
    disassemble(&m.words)
}

/// The function's lines from `first` (a line start) to the end, keeping
/// labels, merges, branches and phis: the control-flow skeleton.
fn skeleton(text: &str, first: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(first))
        .expect("start line");
    lines[start..]
        .iter()
        .filter(|l| {
            [
                "OpLabel",
                "OpLoopMerge",
                "OpSelectionMerge",
                "OpBranch",
                "OpPhi",
                "OpReturn",
                "OpUndef",
            ]
            .iter()
            .any(|k| l.contains(k))
        })
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn loop_without_back_edge() {
    let text = exported("loop_without_back_edge.sir");
    assert!(text.contains("%undef_uint = OpUndef %uint"), "{text}");
    assert_eq!(
        skeleton(&text, "%b0 = OpLabel"),
        "%b0 = OpLabel
OpBranch %b1
%b1 = OpLabel
%v2 = OpPhi %uint %v0 %b0 %undef_uint %b1_continue
OpLoopMerge %b2 %b1_continue None
OpBranch %b1_body
%b1_body = OpLabel
OpBranch %b2
%b1_continue = OpLabel
OpBranch %b1
%b2 = OpLabel
OpReturn"
    );
}

#[test]
fn header_selection_with_two_back_edges() {
    let text = exported("header_selection_two_back_edges.sir");
    assert_eq!(
        skeleton(&text, "%b0 = OpLabel"),
        "%b0 = OpLabel
OpBranch %b1
%b1 = OpLabel
%v3 = OpPhi %uint %uint_0 %b0 %v3_next %b1_continue
%v4 = OpPhi %uint %uint_0 %b0 %v4_next %b1_continue
OpLoopMerge %b8 %b1_continue None
OpBranch %b1_body
%b1_body = OpLabel
OpSelectionMerge %b7 None
OpBranchConditional %v6 %b2 %b3
%b2 = OpLabel
OpBranch %b1_continue
%b3 = OpLabel
OpSelectionMerge %b6 None
OpBranchConditional %v7 %b4 %b5
%b4 = OpLabel
OpBranch %b8
%b5 = OpLabel
OpBranch %b6
%b6 = OpLabel
OpBranch %b7
%b7 = OpLabel
%v11 = OpPhi %uint %v9 %b6
OpBranch %b1_continue
%b1_continue = OpLabel
%v3_next = OpPhi %uint %v5 %b2 %v9 %b7
%v4_next = OpPhi %uint %v4 %b2 %v10 %b7
OpBranch %b1
%b8 = OpLabel
OpReturn"
    );
}

#[test]
fn nested_loops() {
    let text = exported("nested_loops.sir");
    assert_eq!(
        skeleton(&text, "%b0 = OpLabel"),
        "%b0 = OpLabel
OpBranch %b1
%b1 = OpLabel
%v4 = OpPhi %uint %uint_0 %b0 %v14 %b1_continue
OpLoopMerge %b13 %b1_continue None
OpBranch %b1_body
%b1_body = OpLabel
OpBranch %b2
%b2 = OpLabel
%v5 = OpPhi %uint %v4 %b1_body %v7 %b2_continue
%v6 = OpPhi %uint %uint_0 %b1_body %v6_next %b2_continue
OpLoopMerge %b9 %b2_continue None
OpBranch %b2_body
%b2_body = OpLabel
OpSelectionMerge %b7 None
OpBranchConditional %v8 %b3 %b8
%b3 = OpLabel
OpSelectionMerge %b6 None
OpBranchConditional %v10 %b4 %b5
%b4 = OpLabel
OpBranch %b2_continue
%b5 = OpLabel
OpBranch %b6
%b6 = OpLabel
OpBranch %b7
%b8 = OpLabel
OpBranch %b9
%b7 = OpLabel
OpBranch %b2_continue
%b2_continue = OpLabel
%v6_next = OpPhi %uint %v6 %b4 %v9 %b7
OpBranch %b2
%b9 = OpLabel
OpSelectionMerge %b11 None
OpBranchConditional %v15 %b10 %b12
%b10 = OpLabel
OpBranch %b13
%b12 = OpLabel
OpBranch %b11
%b11 = OpLabel
OpBranch %b1_continue
%b1_continue = OpLabel
OpBranch %b1
%b13 = OpLabel
OpReturn"
    );
}
