//! What the golden lowering tests share.

use compiler::{compile_with_hook, Code, CompileOptions, PassSet, Snapshot, StageId, Strategy};

/// The EU code lowering makes of `src` (no passes), as compact text.
pub fn lowered(src: &str, strategy: Strategy, simd: u32) -> String {
    let p = ir::parse_program(src).unwrap();
    let mut text = String::new();
    let opts = CompileOptions::new(strategy, simd, PassSet::none());
    let _ = compile_with_hook(&p, &opts, &mut |s: Snapshot<'_>| {
        if let (StageId::Lowering, Code::Eu(program)) = (s.stage, s.code) {
            text = program.text_compact();
        }
    });
    text
}
