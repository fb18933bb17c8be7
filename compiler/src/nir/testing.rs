//! Test support for the IR passes: golden before/after checks, a
//! single-lane reference interpreter, and the corpus-based meaning checks
//! that run every pass on every corpus program.
//!
//! The interpreter runs one invocation alone. Subgroup ops get a fixed
//! one-lane meaning (`ballot(c)` = `c`, `elect` = true, ...): the passes
//! treat them as opaque, so any deterministic meaning checks that a pass
//! only moved, merged or dropped them where it may.

use crate::passes::IrCtx;
use ir::eval::Args;
use ir::types::mask;
use ir::{
    parse_case, parse_program, print_program_compact, validate, BlockId, CfNode, Jump, Op, OpClass,
    Program,
};

/// A pass's entry point.
pub(crate) type Pass = fn(&mut Program, &IrCtx) -> bool;

/// The IR passes in pipeline order.
pub(crate) const PIPELINE: [(&str, Pass); 3] = [
    ("const-fold", super::const_fold::run),
    ("copy-prop", super::copy_prop::run),
    ("dce", super::dce::run),
];

/// A context for running passes in tests: no bugs, bitfield ops native.
pub(crate) fn ctx() -> IrCtx {
    IrCtx {
        bugs: crate::bugs::BugSet::NONE,
        bitfield: crate::passes::BitfieldMode::Native,
    }
}

/// The program of `corpus/bugs/NAME.sir` after one run of `pass`, with
/// `bug` injected or not, printed without its comments (not validated:
/// some bugs make invalid IR).
pub(crate) fn bug_case_after(pass: Pass, name: &str, bug: Option<crate::bugs::Bug>) -> String {
    let path = format!("{}/../corpus/bugs/{name}.sir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut p = parse_case(&text)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .program;
    let mut c = ctx();
    if let Some(b) = bug {
        c.bugs = c.bugs.with(b);
    }
    pass(&mut p, &c);
    p.comments.clear();
    print_program_compact(&p)
}

/// Runs `pass` once on `text` (with `ctx`) under a coverage recording and
/// returns the decision points it reached, with how often.
pub(crate) fn hits_of(pass: Pass, ctx: &IrCtx, text: &str) -> crate::coverage::Hits {
    let mut p = parse_program(text).unwrap_or_else(|e| panic!("bad test input: {e}"));
    validate(&p).unwrap_or_else(|e| panic!("invalid test input: {e}"));
    let rec = crate::coverage::Recording::start();
    pass(&mut p, ctx);
    let hits = rec.finish();
    validate(&p).unwrap_or_else(|e| panic!("invalid after the pass: {e}"));
    hits
}

/// Parses `before` (which must be valid, canonical text), runs `pass`, and
/// checks the printed result is exactly `after`, that the pass reports a
/// change exactly when the text changed, that the result is valid, and
/// that a second run changes nothing.
pub(crate) fn check(pass: Pass, before: &str, after: &str) {
    let mut p = parse_program(before).unwrap_or_else(|e| panic!("bad test input: {e}"));
    validate(&p).unwrap_or_else(|e| panic!("invalid test input: {e}"));
    assert_eq!(
        print_program_compact(&p),
        before,
        "test input is not canonical text"
    );
    let q = p.clone();
    let changed = pass(&mut p, &ctx());
    validate(&p)
        .unwrap_or_else(|e| panic!("invalid after the pass: {e}\n{}", print_program_compact(&p)));
    assert_eq!(print_program_compact(&p), after);
    assert_eq!(changed, before != after, "reported change");
    assert!(!pass(&mut p, &ctx()), "a second run changed the program");
    // The pass keeps the meaning on a few invocations with made-up inputs.
    for inv in 0..4u64 {
        let inputs: Vec<u64> = q
            .inputs
            .iter()
            .map(|t| input_value(t.bits(), inv))
            .collect();
        let uniforms: Vec<u64> = q
            .uniforms
            .iter()
            .map(|t| input_value(t.bits(), 7))
            .collect();
        let want = interpret(&q, &inputs, &uniforms, inv);
        if let Outcome::Outputs(_) = want {
            assert_eq!(
                interpret(&p, &inputs, &uniforms, inv),
                want,
                "invocation {inv}"
            );
        }
    }
}

fn input_value(bits: u8, inv: u64) -> u64 {
    let v = match bits {
        1 => inv & 1,
        16 => [0x3c00, 0x7e00, 0xc000, 0x0000][inv as usize % 4],
        _ => inv.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 7,
    };
    v & mask(bits)
}

/// The result of running one invocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The output slots (`None`: never written).
    Outputs(Vec<Option<u64>>),
    /// An undefined evaluation was executed: the case is invalid.
    Undefined,
    /// The step limit was hit.
    TooLong,
}

enum Flow {
    Next,
    Break,
    Continue,
}

enum Stop {
    Undefined,
    TooLong,
    /// `terminate`: the outputs written so far stand.
    Terminated,
}

struct Lane<'a> {
    inputs: &'a [u64],
    uniforms: &'a [u64],
    invocation: u64,
    vals: Vec<u64>,
    bits: Vec<u8>,
    outputs: Vec<Option<u64>>,
    prev: Option<BlockId>,
    steps: u32,
    /// Whether the invocation has demoted (its stores have no effect).
    helper: bool,
}

/// Runs one invocation of `p` alone.
pub(crate) fn interpret(p: &Program, inputs: &[u64], uniforms: &[u64], invocation: u64) -> Outcome {
    let mut lane = Lane {
        inputs,
        uniforms,
        invocation,
        vals: vec![0; p.value_bound()],
        bits: p.value_bits(),
        outputs: vec![None; p.outputs.len()],
        prev: None,
        steps: 0,
        helper: false,
    };
    match lane.list(&p.body) {
        Ok(_) | Err(Stop::Terminated) => Outcome::Outputs(lane.outputs),
        Err(Stop::Undefined) => Outcome::Undefined,
        Err(Stop::TooLong) => Outcome::TooLong,
    }
}

impl Lane<'_> {
    fn list(&mut self, list: &[CfNode]) -> Result<Flow, Stop> {
        for node in list {
            match node {
                CfNode::Block(b) => {
                    let vals: Vec<u64> = b
                        .phis
                        .iter()
                        .map(|phi| {
                            let (_, v) = phi
                                .srcs
                                .iter()
                                .find(|(pred, _)| Some(*pred) == self.prev)
                                .expect("a phi names the block the lane came from");
                            self.vals[v.0 as usize]
                        })
                        .collect();
                    for (phi, v) in b.phis.iter().zip(vals) {
                        self.vals[phi.dest.id.0 as usize] = v;
                    }
                    for i in &b.instrs {
                        self.instr(i)?;
                    }
                    self.prev = Some(b.id);
                    match b.jump {
                        Some(Jump::Break) => return Ok(Flow::Break),
                        Some(Jump::Continue) => return Ok(Flow::Continue),
                        None => {}
                    }
                }
                CfNode::If(f) => {
                    let arm = if self.vals[f.cond.0 as usize] & 1 == 1 {
                        &f.then_body
                    } else {
                        &f.else_body
                    };
                    match self.list(arm)? {
                        Flow::Next => {}
                        jump => return Ok(jump),
                    }
                }
                CfNode::Loop(l) => loop {
                    self.steps += 1;
                    if self.steps > 10_000 {
                        return Err(Stop::TooLong);
                    }
                    if let Flow::Break = self.list(&l.body)? {
                        break;
                    }
                },
            }
        }
        Ok(Flow::Next)
    }

    fn instr(&mut self, i: &ir::Instr) -> Result<(), Stop> {
        let src = |k: usize| self.vals[i.srcs[k].0 as usize];
        let v = match i.op.info().class {
            OpClass::Const => i.imm,
            OpClass::Alu => {
                let mut args = Args::default();
                for (k, s) in i.srcs.iter().enumerate() {
                    args.src[k] = self.vals[s.0 as usize];
                    args.src_bits[k] = self.bits[s.0 as usize];
                }
                args.bits = i.dest.map_or(0, |d| d.bits);
                let eval = i.op.info().eval.expect("ALU ops have evaluators");
                eval(&args).map_err(|_| Stop::Undefined)?
            }
            _ => match i.op {
                Op::Ballot | Op::VoteAny | Op::VoteAll | Op::ReadFirstInvocation => src(0),
                Op::VoteIeq | Op::Elect => 1,
                Op::ReadInvocation if src(1) == 0 => src(0),
                Op::ReadInvocation => return Err(Stop::Undefined),
                // A lone invocation has no quad to read.
                op if op.reads_quad() => return Err(Stop::Undefined),
                Op::SubgroupInvocation => 0,
                Op::LoadInput => self.inputs[i.imm as usize],
                Op::LoadUniform => self.uniforms[i.imm as usize],
                Op::InvocationId => self.invocation,
                Op::StoreOutput => {
                    if !self.helper {
                        self.outputs[i.imm as usize] = Some(src(0));
                    }
                    return Ok(());
                }
                Op::Demote => {
                    self.helper = true;
                    return Ok(());
                }
                Op::Terminate => return Err(Stop::Terminated),
                Op::IsHelperInvocation => self.helper as u64,
                op => unreachable!("{op:?} is not a subgroup or I/O op"),
            },
        };
        if let Some(d) = i.dest {
            self.vals[d.id.0 as usize] = v & mask(d.bits);
        }
        Ok(())
    }
}

/// Every corpus case, by file name.
pub(crate) fn corpus() -> Vec<(String, ir::Case)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the corpus directory")
        .map(|e| e.expect("a corpus entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sir"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable corpus file");
            let name = path
                .file_name()
                .expect("a file name")
                .to_string_lossy()
                .into_owned();
            let case = parse_case(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, case)
        })
        .collect()
}

/// `p` with its inputs, uniforms and invocation id replaced by the
/// constants one invocation sees, so that constant folding has work to do.
pub(crate) fn specialize(
    p: &Program,
    inputs: &[u64],
    uniforms: &[u64],
    invocation: u64,
) -> Program {
    let mut q = p.clone();
    q.for_each_block_mut(&mut |b| {
        for i in &mut b.instrs {
            let v = match i.op {
                Op::LoadInput => inputs[i.imm as usize],
                Op::LoadUniform => uniforms[i.imm as usize],
                Op::InvocationId => invocation,
                _ => continue,
            };
            i.op = Op::LoadConst;
            i.imm = v;
        }
    });
    q
}

/// Runs `passes` in order, repeated until none changes the program (at most
/// 8 rounds, as the compiler does), validating after every pass.
pub(crate) fn optimize(p: &mut Program, passes: &[(&str, Pass)], what: &str) {
    for _ in 0..8 {
        let mut progress = false;
        for (name, pass) in passes {
            let before = print_program_compact(p);
            let changed = pass(p, &ctx());
            let after = print_program_compact(p);
            assert_eq!(
                changed,
                before != after,
                "{what}: {name} reported change wrongly"
            );
            if let Err(e) = validate(p) {
                panic!("{what}: invalid after {name}: {e}\nbefore:\n{before}\nafter:\n{after}");
            }
            progress |= changed;
        }
        if !progress {
            return;
        }
    }
}

/// For every corpus case, every invocation, the program as is and
/// specialized to that invocation's inputs: runs `passes` to a fixpoint and
/// checks each invocation computes the same outputs as before. Returns how
/// many (program, invocation) runs were compared and the optimized
/// specialized programs.
pub(crate) fn check_corpus(passes: &[(&str, Pass)]) -> (usize, Vec<(String, Program)>) {
    let mut compared = 0;
    let mut specialized = Vec::new();
    for (name, case) in corpus() {
        let d = case
            .dispatch
            .clone()
            .unwrap_or_else(|| ir::Dispatch::default_for(&case.program, 8));
        let mut general = case.program.clone();
        optimize(&mut general, passes, &name);
        for inv in 0..d.invocations as usize {
            let inputs: Vec<u64> = d.inputs.iter().map(|slot| slot[inv]).collect();
            let inv64 = inv as u64;
            let want = interpret(&case.program, &inputs, &d.uniforms, inv64);
            let Outcome::Outputs(_) = want else { continue };
            assert_eq!(
                interpret(&general, &inputs, &d.uniforms, inv64),
                want,
                "{name} invocation {inv}"
            );
            let mut spec = specialize(&case.program, &inputs, &d.uniforms, inv64);
            assert_eq!(
                interpret(&spec, &inputs, &d.uniforms, inv64),
                want,
                "{name}: specialize"
            );
            let what = format!("{name} specialized to invocation {inv}");
            optimize(&mut spec, passes, &what);
            assert_eq!(
                interpret(&spec, &inputs, &d.uniforms, inv64),
                want,
                "{what}"
            );
            compared += 2;
            specialized.push((what, spec));
        }
    }
    (compared, specialized)
}

#[test]
fn interpreter_runs_the_loop_corpus_case() {
    let (_, case) = corpus()
        .into_iter()
        .find(|(n, _)| n == "loop_break_continue.sir")
        .expect("the loop corpus case");
    // Invocation 0: input 0 = 0, input 1 = 100. Iteration 1 (i = 1, odd):
    // acc = 0 + 1 = 1, cnt = 1, 0 < 1 breaks: outputs 1, 1, never, 0.
    let out = interpret(&case.program, &[0, 100], &[], 0);
    assert_eq!(out, Outcome::Outputs(vec![Some(1), Some(1), None, Some(0)]));
}

#[test]
fn interpreter_agrees_with_the_expected_files() {
    // Every corpus case without subgroup ops (whose one-lane meaning here is
    // made up): the first expected section, invocation by invocation.
    let mut checked = 0;
    for (name, case) in corpus() {
        let p = &case.program;
        let mut subgroup = false;
        p.for_each_block(&mut |b| {
            subgroup |= b
                .instrs
                .iter()
                .any(|i| i.op.info().class == OpClass::Subgroup)
        });
        let Some(d) = case.dispatch.as_ref().filter(|_| !subgroup) else {
            continue;
        };
        let path = format!(
            "{}/../corpus/{}",
            env!("CARGO_MANIFEST_DIR"),
            name.replace(".sir", ".expected")
        );
        let text = std::fs::read_to_string(&path).expect("an expected file per case");
        let rows = text
            .lines()
            .filter(|l| !l.starts_with("//"))
            .skip_while(|l| !l.starts_with('['))
            .skip(1)
            .take_while(|l| !l.starts_with('['));
        for row in rows {
            let (inv, vals) = row.split_once(':').expect("`N: values`");
            let inv: usize = inv.trim().parse().expect("an invocation number");
            let want: Vec<Option<u64>> = vals
                .split_whitespace()
                .zip(&p.outputs)
                .map(|(v, &ty)| (v != "-").then(|| ir::value::parse_value(ty, v).expect("a value")))
                .collect();
            let inputs: Vec<u64> = d.inputs.iter().map(|slot| slot[inv]).collect();
            let Outcome::Outputs(got) = interpret(p, &inputs, &d.uniforms, inv as u64) else {
                panic!("{name} invocation {inv} did not finish");
            };
            for ((slot, g), w) in got.iter().enumerate().zip(&want) {
                let ty = p.outputs[slot];
                let agree = match (g, w) {
                    (Some(g), Some(w)) => ir::value::values_agree(ty, *g, *w),
                    (g, w) => g == w,
                };
                assert!(agree, "{name} invocation {inv} slot {slot}: {g:?} != {w:?}");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} invocations checked");
}

#[test]
fn the_pipeline_keeps_the_meaning_of_the_corpus() {
    let (compared, specialized) = check_corpus(&PIPELINE);
    assert!(compared > 300, "only {compared} runs compared");
    // Specialized to one invocation's inputs, a straight-line case without
    // subgroup ops folds down to constants and its stores.
    let (what, p) = specialized
        .iter()
        .find(|(what, _)| what.starts_with("int_div.sir"))
        .expect("int_div is straight-line");
    p.for_each_block(&mut |b| {
        for i in &b.instrs {
            assert!(
                matches!(i.op, Op::LoadConst | Op::StoreOutput),
                "{what}: {}",
                ir::print::instr_text(i)
            );
        }
    });
}

/// Edge values for one input slot: zero, one, all ones, the sign bit and
/// its neighbours and a mixed pattern for integers; ±0, ±1, ±inf, NaN, a
/// denormal and 0.5 for floats.
pub(crate) fn edge_values(ty: ir::SlotType) -> Vec<u64> {
    let bits = ty.bits();
    if bits == 1 {
        return vec![0, 1];
    }
    if ty.is_float() {
        let f = |x: f64| ir::float::from_f64(x, bits);
        let sign = 1u64 << (bits - 1);
        return vec![
            0,
            sign,
            f(1.0),
            f(-1.0),
            f(0.5),
            f(f64::INFINITY),
            f(f64::NEG_INFINITY),
            f(f64::NAN),
            1,
            f(2.5),
        ];
    }
    let m = mask(bits);
    let sign = 1u64 << (bits - 1);
    vec![
        0,
        1,
        m,
        sign,
        sign - 1,
        2,
        0x5a5a_5a5a_5a5a_5a5a & m,
        0xf0 & m,
        3,
        m - 1,
    ]
}

/// Checks that `after` computes exactly what `before` computes, output bits
/// and all, on `combos` input vectors drawn from the slots' edge values (a
/// fixed pseudo-random walk over the grid, starting with the diagonal), at
/// invocations 0..4. Runs on which `before` is undefined are skipped.
pub(crate) fn assert_same_on_edges(before: &Program, after: &Program, combos: usize) {
    let edges: Vec<Vec<u64>> = before.inputs.iter().map(|&t| edge_values(t)).collect();
    let uniforms: Vec<u64> = before
        .uniforms
        .iter()
        .map(|t| input_value(t.bits(), 7))
        .collect();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for k in 0..combos {
        let inputs: Vec<u64> = edges
            .iter()
            .map(|vals| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let pick = if k < vals.len() {
                    k
                } else {
                    (state >> 33) as usize % vals.len()
                };
                vals[pick]
            })
            .collect();
        let inv = k as u64 % 4;
        let want = interpret(before, &inputs, &uniforms, inv);
        if let Outcome::Outputs(_) = want {
            assert_eq!(
                interpret(after, &inputs, &uniforms, inv),
                want,
                "inputs {inputs:x?}, invocation {inv}\nbefore:\n{}\nafter:\n{}",
                print_program_compact(before),
                print_program_compact(after)
            );
        }
    }
}

/// A one-block program for golden tests: `inputs` (slot type names) are
/// loaded into %0, %1, ...; then come the lines of `body` (indented here),
/// whose last line `=> %a %b ...` stores those values to outputs 0, 1, ...
/// The output types are pushed to `outs` on first use (by the value's
/// size: bool, i8, ..., i64), so the two sides of a golden case declare
/// the same outputs.
pub(crate) fn one_block(inputs: &str, body: &str, outs: &mut Vec<ir::SlotType>) -> String {
    let ins: Vec<ir::SlotType> = inputs
        .split_whitespace()
        .map(|t| ir::SlotType::from_name(t).expect("a slot type"))
        .collect();
    let mut bits: Vec<(String, u8)> = ins
        .iter()
        .enumerate()
        .map(|(k, t)| (format!("%{k}"), t.bits()))
        .collect();
    let (mut code, mut stores) = (String::new(), String::new());
    for l in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(vals) = l.strip_prefix("=> ") {
            for (k, v) in vals.split_whitespace().enumerate() {
                let b = bits
                    .iter()
                    .find(|(n, _)| n == v)
                    .expect("a defined value")
                    .1;
                if outs.len() == k {
                    outs.push(ir::SlotType::int_of_bits(b).expect("an integer size"));
                }
                stores += &format!("\t@store_output ({v}) (slot={k})\n");
            }
        } else {
            let mut w = l.split_whitespace();
            let b: u8 = w.next().and_then(|b| b.parse().ok()).expect("a size");
            bits.push((w.next().expect("a value").to_string(), b));
            code += &format!("\t{l}\n");
        }
    }
    let mut s = String::from("shader: t\n");
    for (k, t) in ins.iter().enumerate() {
        s += &format!("decl_input {k} {t}\n");
    }
    for (k, t) in outs.iter().enumerate() {
        s += &format!("decl_output {k} {t}\n");
    }
    s += "impl main {\n\tblock b0:\n";
    for (k, t) in ins.iter().enumerate() {
        s += &format!("\t{} %{k} = @load_input () (slot={k})\n", t.bits());
    }
    s + &code + &stores + "}\n"
}
