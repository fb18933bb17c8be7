//! Shared helpers for the end-to-end tests.
#![allow(dead_code)]

use eu::{parse_program, run, Dispatch, RunResult, SimConfig};

/// Parse and run `text` on a dispatch; panics with the error text.
pub fn run_text(text: &str, d: &Dispatch) -> RunResult {
    run_seed(text, d, 0)
}

/// Same with a garbage seed.
pub fn run_seed(text: &str, d: &Dispatch, seed: u64) -> RunResult {
    let p = parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let cfg = SimConfig {
        garbage_seed: seed,
        ..SimConfig::default()
    };
    run(&p, d, &cfg).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A dispatch with `n` invocations of width `simd`, inputs and 4 outputs.
pub fn dispatch(n: u32, simd: u32, inputs: Vec<Vec<u64>>, uniforms: Vec<u64>) -> Dispatch {
    let input_slots = inputs.iter().map(|r| r.len() as u32).max().unwrap_or(0);
    Dispatch {
        invocations: n,
        simd,
        input_slots,
        output_slots: 4,
        inputs,
        uniforms,
    }
}

/// Raw output bits of (invocation, slot); panics if never written.
pub fn out(r: &RunResult, inv: usize, slot: usize) -> u64 {
    r.outputs[inv][slot]
        .unwrap_or_else(|| panic!("invocation {inv} slot {slot} never written"))
        .bits
}

fn size_of(ty: &str) -> u32 {
    match ty {
        "UB" | "B" => 1,
        "UW" | "W" | "HF" => 2,
        "UD" | "D" | "F" => 4,
        _ => 8,
    }
}

fn split_ty(s: &str) -> (&str, &str) {
    let at = s.find(|c: char| c.is_ascii_uppercase()).unwrap_or(s.len());
    // "(abs)" contains no uppercase letters; modifiers precede the type.
    s.split_at(at)
}

/// Run `op` (mnemonic with suffixes, e.g. `add.sat` or `cmp.l.f0.0`) in a
/// SIMD8 thread on scalar sources taken from uniform slots 0.., writing a
/// `dty` destination. Each source is (`[mods]TYPE`, raw bits). Returns the
/// destination bits of lane 0 and the f0.0 bit of lane 0.
pub fn eval_seed(op: &str, dty: &str, srcs: &[(&str, u64)], seed: u64) -> (u64, bool) {
    let dsz = size_of(dty);
    let mut exec_sz = 1;
    let mut any_int = false;
    let mut any_hf = false;
    for (t, _) in srcs {
        let (_, ty) = split_ty(t);
        let s = match ty {
            "UB" | "B" | "UW" | "W" => 2,
            t => size_of(t),
        };
        exec_sz = exec_sz.max(s);
        any_int |= !matches!(ty, "HF" | "F" | "DF");
        any_hf |= ty == "HF";
    }
    let int_hf = (dty == "HF" && any_int) || (!matches!(dty, "HF" | "F" | "DF") && any_hf);
    let mut stride = if int_hf {
        4 / dsz
    } else {
        (exec_sz / dsz).max(1)
    };
    if op.starts_with("mad") || op.starts_with("csel") || op.starts_with("bf") {
        stride = 1;
    }
    let mut operands = String::new();
    for (k, (t, _)) in srcs.iter().enumerate() {
        let (mods, ty) = split_ty(t);
        let sz = size_of(ty);
        let byte = 8 * k as u32;
        operands.push_str(&format!(
            " {mods}g{}.{}<0,1,0>{ty}",
            2 + byte / 32,
            (byte % 32) / sz
        ));
    }
    let mut text = format!(
        "mov(1) f0.0<1>UW 0x0000UW {{ align1 WE_all 1N }};\n{op}(8) g20<{stride}>{dty}{operands}\n"
    );
    let data = if dsz < 4 || (dsz == 4 && stride > 1) {
        let u = ["UB", "UW", "UD", "UD"][dsz.trailing_zeros() as usize];
        text.push_str(&format!("mov(8) g22<1>UD g20<{stride},1,0>{u}\n"));
        "g22"
    } else {
        "g20"
    };
    let st = if dsz == 8 { "b64" } else { "b32" };
    text.push_str(&format!(
        "mov(8) g24<1>UD 0x00000000UD\n(+f0.0) mov(8) g24<1>UD 0x00000001UD\n\
         shl(8) g10<1>UD g1<8,8,1>UD 0x00000005UD\nsend(8) null g10 {data} st.{st}\n\
         add(8) g11<1>UD g10<8,8,1>UD 0x00000008UD\nsend(8) null g11 g24 st.b32 {{ align1 1Q EOT }};\n"
    ));
    let d = dispatch(8, 8, vec![], srcs.iter().map(|s| s.1).collect());
    let r = run_seed(&text, &d, seed);
    let mask = if dsz == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * dsz)) - 1
    };
    let v = out(&r, 0, 0) & mask;
    let f = out(&r, 0, 1) == 1;
    for lane in 1..8 {
        assert_eq!(out(&r, lane, 1) == 1, f, "lanes disagree on the flag");
        let garbage = op.starts_with("math") || (op.starts_with("cmp") && dsz == 8);
        if !garbage {
            assert_eq!(out(&r, lane, 0) & mask, v, "lanes disagree: {text}");
        }
    }
    (v, f)
}

/// `eval_seed` with seed 0, result only.
pub fn eval(op: &str, dty: &str, srcs: &[(&str, u64)]) -> u64 {
    eval_seed(op, dty, srcs, 0).0
}

/// `eval_seed` with seed 0, result and flag.
pub fn evalf(op: &str, dty: &str, srcs: &[(&str, u64)]) -> (u64, bool) {
    eval_seed(op, dty, srcs, 0)
}
