//! Standalone reproducers in VkRunner's `shader_test` format (the format
//! piglit's `.vk_shader_test` files use), so a driver finding runs without
//! the farm: `vkrunner FILE.shader_test` on any Vulkan driver.
//!
//! The script declares what the module needs in `[require]` (the Vulkan
//! version that makes VkRunner assemble SPIR-V 1.3, the device features,
//! the subgroup size the oracle used), carries the module as SPIR-V
//! assembly in `[compute shader spirv]` (VkRunner assembles it with
//! `spirv-as --target-env vulkan1.1`), fills the four storage buffers of
//! `docs/vulkan-abi.md` with `ssbo ... subdata` (VkRunner does not zero a
//! buffer, so the output and lane buffers are written with zeros), runs
//! `compute 1 1 1` and probes every compared output word as `uint`, so the
//! comparison is bit-exact (a `float` probe would compare as IEEE floats).
//! Output slots the comparison excludes (a documented relaxation) are not
//! probed; the comment before the probes says which and why.

use std::fmt::Write;

/// What a reproducer script holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderTest<'a> {
    /// Comment lines for the top of the script (without `#`).
    pub comments: Vec<String>,
    /// Device features the module needs, by their Vulkan names
    /// (`shaderInt64`, `shaderFloat16`, ...).
    pub features: Vec<&'a str>,
    /// The subgroup size the oracle ran at (`subgroup_size N`).
    pub subgroup_size: Option<u32>,
    /// The module as SPIR-V assembly that `spirv-as` accepts.
    pub spvasm: &'a str,
    /// The initial words of bindings 0..3 (inputs, uniforms, outputs,
    /// lanes); the last two are all zeros.
    pub buffers: &'a [Vec<u32>],
    /// Per invocation and output slot: `None` if the slot is not compared,
    /// `Some(None)` if it must stay unwritten, `Some(Some(bits))` for the
    /// value it must hold.
    pub expected: Vec<Vec<Option<Option<u64>>>>,
    /// Why some slots are not compared (one line each), if any are not.
    pub excluded_note: Vec<String>,
}

/// The binding of the output buffer in the ABI.
const OUTPUTS: u32 = 2;

/// Appends `ssbo B subdata uint 0 w0 w1 ...`, 8 words per line.
fn subdata(s: &mut String, binding: u32, words: &[u32]) {
    if words.is_empty() {
        let _ = writeln!(s, "ssbo {binding} 16");
        return;
    }
    for (k, chunk) in words.chunks(8).enumerate() {
        let _ = write!(s, "ssbo {binding} subdata uint {}", k * 8 * 4);
        for w in chunk {
            let _ = write!(s, " 0x{w:08x}");
        }
        s.push('\n');
    }
}

impl ShaderTest<'_> {
    /// The script.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for c in &self.comments {
            let _ = writeln!(s, "# {c}");
        }
        s.push_str("\n[require]\nvulkan 1.1.0\n");
        for f in &self.features {
            let _ = writeln!(s, "{f}");
        }
        if let Some(n) = self.subgroup_size {
            let _ = writeln!(s, "subgroup_size {n}");
        }
        s.push_str("\n[compute shader spirv]\n");
        s.push_str(self.spvasm);
        if !self.spvasm.ends_with('\n') {
            s.push('\n');
        }
        s.push_str("\n[test]\n");
        for (b, words) in self.buffers.iter().enumerate() {
            subdata(&mut s, b as u32, words);
        }
        s.push_str("compute 1 1 1\n\n");
        let slots = self.expected.first().map_or(0, Vec::len);
        let _ = writeln!(
            s,
            "# outputs (binding {OUTPUTS}): invocation i, slot o at byte 16 * (i * {slots} + o): low word, high word, written flag, 0"
        );
        for line in &self.excluded_note {
            let _ = writeln!(s, "# not probed: {line}");
        }
        for (inv, row) in self.expected.iter().enumerate() {
            for (slot, e) in row.iter().enumerate() {
                let Some(e) = e else { continue };
                let (lo, hi, written) = match e {
                    Some(bits) => (*bits as u32, (*bits >> 32) as u32, 1),
                    None => (0, 0, 0),
                };
                let offset = 16 * (inv * slots + slot);
                let _ = writeln!(
                    s,
                    "probe ssbo uint {OUTPUTS} {offset} == 0x{lo:08x} 0x{hi:08x} {written} 0"
                );
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_fills_every_buffer_and_probes_compared_slots_as_words() {
        let buffers = vec![vec![7, 0, 0xffff_ffff, 0], vec![], vec![0; 8], vec![0; 8]];
        let t = ShaderTest {
            comments: vec!["shaderfarm finding".into()],
            features: vec!["shaderInt64"],
            subgroup_size: Some(8),
            spvasm: "; SPIR-V\nOpCapability Shader",
            buffers: &buffers,
            expected: vec![vec![Some(Some(0x1_0000_0002))], vec![None]],
            excluded_note: vec!["invocation 1 slot 0 (ffma-fusion)".into()],
        };
        assert_eq!(
            t.render(),
            "# shaderfarm finding\n\
             \n[require]\nvulkan 1.1.0\nshaderInt64\nsubgroup_size 8\n\
             \n[compute shader spirv]\n; SPIR-V\nOpCapability Shader\n\
             \n[test]\n\
             ssbo 0 subdata uint 0 0x00000007 0x00000000 0xffffffff 0x00000000\n\
             ssbo 1 16\n\
             ssbo 2 subdata uint 0 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000\n\
             ssbo 3 subdata uint 0 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000\n\
             compute 1 1 1\n\
             \n# outputs (binding 2): invocation i, slot o at byte 16 * (i * 1 + o): low word, high word, written flag, 0\n\
             # not probed: invocation 1 slot 0 (ffma-fusion)\n\
             probe ssbo uint 2 0 == 0x00000002 0x00000001 1 0\n"
        );
    }

    #[test]
    fn long_buffers_are_split_into_lines_at_their_byte_offsets() {
        let words: Vec<u32> = (0..10).collect();
        let mut s = String::new();
        subdata(&mut s, 0, &words);
        assert_eq!(
            s,
            "ssbo 0 subdata uint 0 0x00000000 0x00000001 0x00000002 0x00000003 0x00000004 0x00000005 0x00000006 0x00000007\n\
             ssbo 0 subdata uint 32 0x00000008 0x00000009\n"
        );
    }
}
