//! Shaders and jobs for the tests, assembled from SPIR-V text with
//! `spirv-as` (spirv-tools) at test time.

#![allow(dead_code)] // each test binary uses a different subset

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use vulkan::Job;

/// Assembles SPIR-V text (SPIR-V 1.3, Vulkan 1.1 rules) into words.
pub fn assemble(text: &str) -> Vec<u32> {
    let mut child = Command::new("spirv-as")
        .args(["--target-env", "spv1.3", "-", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spirv-as (apt-get install spirv-tools) is needed to build the test shaders");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "spirv-as failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout.len() % 4, 0);
    out.stdout
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Declarations every test shader shares: the four ABI buffers and the
/// subgroup builtins.
const PRELUDE: &str = r#"
               OpCapability Shader
               OpCapability GroupNonUniform
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %lii %sgid %sglid %sgsize
               OpExecutionMode %main LocalSize {N} 1 1
               OpDecorate %lii BuiltIn LocalInvocationIndex
               OpDecorate %sgid BuiltIn SubgroupId
               OpDecorate %sglid BuiltIn SubgroupLocalInvocationId
               OpDecorate %sgsize BuiltIn SubgroupSize
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %inputs DescriptorSet 0
               OpDecorate %inputs Binding 0
               OpDecorate %uniforms DescriptorSet 0
               OpDecorate %uniforms Binding 1
               OpDecorate %outputs DescriptorSet 0
               OpDecorate %outputs Binding 2
               OpDecorate %lanes DescriptorSet 0
               OpDecorate %lanes Binding 3
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %rta = OpTypeRuntimeArray %uint
        %Buf = OpTypeStruct %rta
      %p_buf = OpTypePointer StorageBuffer %Buf
     %p_word = OpTypePointer StorageBuffer %uint
       %p_in = OpTypePointer Input %uint
     %inputs = OpVariable %p_buf StorageBuffer
   %uniforms = OpVariable %p_buf StorageBuffer
    %outputs = OpVariable %p_buf StorageBuffer
      %lanes = OpVariable %p_buf StorageBuffer
        %lii = OpVariable %p_in Input
       %sgid = OpVariable %p_in Input
      %sglid = OpVariable %p_in Input
     %sgsize = OpVariable %p_in Input
         %c0 = OpConstant %uint 0
         %c1 = OpConstant %uint 1
         %c2 = OpConstant %uint 2
         %c3 = OpConstant %uint 3
         %c4 = OpConstant %uint 4
          %k = OpConstant %uint {K}
"#;

/// The start of `main` every test shader shares: the invocation index,
/// its subgroup id, lane and subgroup size, and the word offsets 4i..4i+3
/// and 2i.
const MAIN_PROLOGUE: &str = "       %main = OpFunction %void None %fn
      %entry = OpLabel
          %i = OpLoad %uint %lii
        %sid = OpLoad %uint %sgid
        %lid = OpLoad %uint %sglid
        %ssz = OpLoad %uint %sgsize
         %i4 = OpIMul %uint %i %c4
        %i41 = OpIAdd %uint %i4 %c1
        %i42 = OpIAdd %uint %i4 %c2
        %i43 = OpIAdd %uint %i4 %c3
         %i2 = OpIMul %uint %i %c2
";

/// Writes invocation i's row of the `lanes` buffer.
const LANES_ROW: &str = "         %l0 = OpAccessChain %p_word %lanes %c0 %i4
               OpStore %l0 %sid
         %l1 = OpAccessChain %p_word %lanes %c0 %i41
               OpStore %l1 %lid
         %l2 = OpAccessChain %p_word %lanes %c0 %i42
               OpStore %l2 %ssz
         %l3 = OpAccessChain %p_word %lanes %c0 %i43
               OpStore %l3 %c1
";

/// Per the ABI with one input, one output and one uniform slot: invocation
/// `i` writes `lanes[4i..4i+4] = [SubgroupId, SubgroupLocalInvocationId,
/// SubgroupSize, 1]` and `outputs[4i..4i+3] = [in_lo + uniform_lo + k, in_hi,
/// 1]` (word 3 stays 0). `n` lanes.
pub fn abi_text(n: u32, k: u32) -> String {
    let body = format!(
        r#"
{MAIN_PROLOGUE}        %i21 = OpIAdd %uint %i2 %c1
{LANES_ROW}        %x0p = OpAccessChain %p_word %inputs %c0 %i2
         %x0 = OpLoad %uint %x0p
        %x1p = OpAccessChain %p_word %inputs %c0 %i21
         %x1 = OpLoad %uint %x1p
        %u0p = OpAccessChain %p_word %uniforms %c0 %c0
         %u0 = OpLoad %uint %u0p
         %s0 = OpIAdd %uint %x0 %u0
         %s1 = OpIAdd %uint %s0 %k
         %o0 = OpAccessChain %p_word %outputs %c0 %i4
               OpStore %o0 %s1
         %o1 = OpAccessChain %p_word %outputs %c0 %i41
               OpStore %o1 %x1
         %o2 = OpAccessChain %p_word %outputs %c0 %i42
               OpStore %o2 %c1
               OpReturn
               OpFunctionEnd
"#
    );
    prelude(n, k) + &body
}

fn prelude(n: u32, k: u32) -> String {
    PRELUDE
        .replace("{N}", &n.to_string())
        .replace("{K}", &k.to_string())
}

/// The ABI shader as words.
pub fn abi_shader(n: u32, k: u32) -> Vec<u32> {
    assemble(&abi_text(n, k))
}

/// A slow shader: 1024 lanes each loop while `uniforms[0] != 0`, each
/// time round a chain of `rounds` xorshift-multiply steps on a counter,
/// stored to `outputs[4i]`. With the uniform 0 it returns at once.
///
/// There is no truly endless shader on llvmpipe: gallivm caps the loop
/// iterations of an invocation at 65535, shared by all its loops
/// (`LP_MAX_TGSI_LOOP_ITERATIONS`), so an "infinite" loop ends. This one
/// runs 1024 x 65535 x `rounds` dependent steps instead: about a second
/// per 64 rounds on this machine.
pub fn slow_shader(rounds: usize) -> Vec<u32> {
    let mut chain = String::new();
    let mut prev = "%cnt".to_string();
    for r in 0..rounds {
        chain += &format!(
            "        %sh{r} = OpShiftRightLogical %uint {prev} %c7\n\
                    %xo{r} = OpBitwiseXor %uint {prev} %sh{r}\n\
                    %mu{r} = OpIMul %uint %xo{r} %mul\n"
        );
        prev = format!("%mu{r}");
    }
    let body = format!(
        r#"
         %c7 = OpConstant %uint 7
        %mul = OpConstant %uint 2654435761
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %i = OpLoad %uint %lii
         %i4 = OpIMul %uint %i %c4
               OpBranch %header
     %header = OpLabel
        %cnt = OpPhi %uint %i %entry %next %cont
               OpLoopMerge %merge %cont None
               OpBranch %body
       %body = OpLabel
        %u0p = OpAccessChain %p_word %uniforms %c0 %c0
         %u0 = OpLoad %uint %u0p
         %go = OpINotEqual %bool %u0 %c0
               OpBranchConditional %go %cont %merge
       %cont = OpLabel
{chain}       %next = OpIAdd %uint {prev} %c1
         %o0 = OpAccessChain %p_word %outputs %c0 %i4
               OpStore %o0 %next
               OpBranch %header
      %merge = OpLabel
               OpReturn
               OpFunctionEnd
"#
    );
    assemble(&(prelude(1024, 0) + &body))
}

/// A bigger shader for throughput measurements: the ABI shader's lane
/// records, then `ops` dependent integer operations (add, multiply, xor,
/// shift, rotating) on the input, mixed with `k`, stored to `outputs[4i]`.
pub fn chain_text(n: u32, ops: usize, k: u32) -> String {
    let mut body = String::new();
    let mut prev = "%x0".to_string();
    for j in 0..ops {
        let (op, rhs) = match j % 4 {
            0 => ("OpIAdd", "%k"),
            1 => ("OpIMul", "%odd"),
            2 => ("OpBitwiseXor", "%u0"),
            _ => ("OpShiftRightLogical", "%c3"),
        };
        body += &format!("        %v{j} = {op} %uint {prev} {rhs}\n");
        prev = format!("%v{j}");
    }
    let text = format!(
        r#"
        %odd = OpConstant %uint 2654435761
{MAIN_PROLOGUE}{LANES_ROW}        %x0p = OpAccessChain %p_word %inputs %c0 %i2
         %x0 = OpLoad %uint %x0p
        %u0p = OpAccessChain %p_word %uniforms %c0 %c0
         %u0 = OpLoad %uint %u0p
{body}         %o0 = OpAccessChain %p_word %outputs %c0 %i4
               OpStore %o0 {prev}
         %o2 = OpAccessChain %p_word %outputs %c0 %i42
               OpStore %o2 %c1
               OpReturn
               OpFunctionEnd
"#
    );
    prelude(n, k) + &text
}

/// What [`chain_text`]`(.., ops, k)` stores to `outputs[4i]` for input
/// word `x` and uniform `u`.
pub fn chain_expect(x: u32, u: u32, ops: usize, k: u32) -> u32 {
    (0..ops).fold(x, |v, j| match j % 4 {
        0 => v.wrapping_add(k),
        1 => v.wrapping_mul(2_654_435_761),
        2 => v ^ u,
        _ => v >> 3,
    })
}

/// Replaces the one word equal to `from` (a constant's value) by `to`, to
/// make distinct modules without re-assembling.
pub fn patch_constant(words: &mut [u32], from: u32, to: u32) {
    let hits: Vec<usize> = (5..words.len()).filter(|&i| words[i] == from).collect();
    assert_eq!(hits.len(), 1, "constant {from:#x} must occur once");
    words[hits[0]] = to;
}

/// A job for [`abi_shader`] with `n` lanes: input of lane `i` is
/// `(100 + i, 0xA000_0000 | i)`, uniform 0 is `u`, outputs and lanes zeroed.
pub fn abi_job(spirv: Vec<u32>, n: usize, u: u32) -> Job {
    let inputs = (0..n as u32)
        .flat_map(|i| [100 + i, 0xA000_0000 | i])
        .collect();
    Job {
        spirv,
        entry: "main".to_string(),
        buffers: vec![inputs, vec![u, 0], vec![0; 4 * n], vec![0; 4 * n]],
        required_subgroup_size: None,
        timeout: Duration::from_secs(5),
    }
}

/// What [`abi_shader`]`(n, k)` must leave in `outputs` and `lanes` for
/// [`abi_job`]`(.., n, u)` with subgroup size `w`.
pub fn abi_expect(n: usize, k: u32, u: u32, w: u32) -> (Vec<u32>, Vec<u32>) {
    let outputs = (0..n as u32)
        .flat_map(|i| {
            [
                (100 + i).wrapping_add(u).wrapping_add(k),
                0xA000_0000 | i,
                1,
                0,
            ]
        })
        .collect();
    let lanes = (0..n as u32).flat_map(|i| [i / w, i % w, w, 1]).collect();
    (outputs, lanes)
}

/// Message for a test that cannot find lavapipe.
pub const NEED_LAVAPIPE: &str = "these tests need lavapipe: apt-get install mesa-vulkan-drivers \
     libvulkan1 (the device must be named llvmpipe)";
