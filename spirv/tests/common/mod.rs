//! Shared helpers for the export tests: SPIRV-Tools (`spirv-val`,
//! `spirv-as`) run on exported modules, and one-op programs for every size
//! an op's signature allows.

#![allow(dead_code)] // each test crate uses a subset

use ir::op::{OpClass, Sig};
use ir::{Builder, Op, Program, SlotType, ValueId, ValueKind};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh scratch directory for this test process.
pub fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "spirv-export-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs `spirv-val --target-env vulkan1.1` on a module: `Err(message)` if
/// it rejects it.
pub fn spirv_val(words: &[u32]) -> Result<(), String> {
    let dir = scratch();
    let path = dir.join("m.spv");
    std::fs::write(&path, to_bytes(words)).expect("write module");
    let out = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1"])
        .arg(&path)
        .output()
        .expect("spirv-val runs (SPIRV-Tools is installed)");
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Validates many modules on two threads (the machine's cores); returns
/// `name: message` for each rejected one.
pub fn spirv_val_all(modules: Vec<(String, Vec<u32>)>) -> Vec<String> {
    let modules = std::sync::Mutex::new(modules.into_iter());
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let next = modules.lock().unwrap().next();
                let Some((name, words)) = next else { break };
                if let Err(msg) = spirv_val(&words) {
                    failures.lock().unwrap().push(format!("{name}: {msg}"));
                }
            });
        }
    });
    let mut f = failures.into_inner().unwrap();
    f.sort();
    f
}

/// Assembles SPIR-V assembly with `spirv-as --target-env vulkan1.1
/// --preserve-numeric-ids`.
pub fn spirv_as(text: &str) -> Result<Vec<u32>, String> {
    let dir = scratch();
    let (src, out) = (dir.join("m.spvasm"), dir.join("m.spv"));
    std::fs::write(&src, text).expect("write assembly");
    let status = Command::new("spirv-as")
        .args(["--target-env", "vulkan1.1", "--preserve-numeric-ids", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("spirv-as runs (SPIRV-Tools is installed)");
    let result = if status.status.success() {
        let bytes = std::fs::read(&out).expect("spirv-as output");
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    } else {
        Err(String::from_utf8_lossy(&status.stderr).into_owned())
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Checks that a module's disassembly assembles back (`spirv-as`) to a
/// valid module whose disassembly is the same text (comment lines aside):
/// same instructions, same names, numbered ids kept.
pub fn round_trip(words: &[u32]) -> Result<(), String> {
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with(';'))
            .map(str::to_string)
            .collect()
    };
    let text = spirv_export::disassemble(words);
    let again = spirv_as(&text).map_err(|e| format!("spirv-as rejects the disassembly: {e}"))?;
    spirv_val(&again).map_err(|e| format!("the reassembled module is invalid: {e}"))?;
    if again.len() != words.len() {
        return Err(format!(
            "the reassembled module has {} words, not {}",
            again.len(),
            words.len()
        ));
    }
    let (a, b) = (body(&text), body(&spirv_export::disassemble(&again)));
    match a.iter().zip(&b).find(|(x, y)| x != y) {
        Some((x, y)) => Err(format!("the round trip differs:\n{x}\n  vs\n{y}")),
        None if a.len() != b.len() => Err("the round trip changes the line count".into()),
        None => Ok(()),
    }
}

/// Runs [`round_trip`] on many modules on two threads; returns the failures.
pub fn round_trip_all(modules: &[(String, Vec<u32>)]) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some((name, words)) = modules.get(k) else {
                    break;
                };
                if let Err(msg) = round_trip(words) {
                    failures.lock().unwrap().push(format!("{name}: {msg}"));
                }
            });
        }
    });
    let mut f = failures.into_inner().unwrap();
    f.sort();
    f
}

/// The slot type holding a value of `bits` bits of `kind`.
pub fn slot_type(bits: u8, kind: ValueKind) -> SlotType {
    let float = kind == ValueKind::Float;
    if float {
        SlotType::float_of_bits(bits).expect("a float size")
    } else {
        SlotType::int_of_bits(bits).expect("an integer size")
    }
}

/// One instantiation of an op: its source sizes and result size (0: none).
#[derive(Clone, Debug)]
pub struct Shape {
    /// The op.
    pub op: Op,
    /// Source sizes.
    pub srcs: Vec<u8>,
    /// Result size (0 for `store_output`).
    pub dest: u8,
    /// The slot type, for the I/O ops.
    pub slot: Option<SlotType>,
}

impl Shape {
    /// A readable name (`iadd.16`, `i2f.64.16`, `load_input.f16`).
    pub fn name(&self) -> String {
        match self.slot {
            Some(t) => format!("{}.{}", self.op.name(), t),
            None => {
                let mut s = self.op.name().to_string();
                for b in &self.srcs {
                    s.push_str(&format!(".{b}"));
                }
                s.push_str(&format!("->{}", self.dest));
                s
            }
        }
    }
}

/// Every shape every op's signature allows.
pub fn all_shapes() -> Vec<Shape> {
    let mut out = Vec::new();
    for info in ir::op::OPS {
        let op = info.op;
        let mut push = |srcs: Vec<u8>, dest: u8| {
            out.push(Shape {
                op,
                srcs,
                dest,
                slot: None,
            })
        };
        if spirv_export::op_needs(op).fragment_stage {
            // Not in a compute shader (the export refuses the program).
            continue;
        }
        match info.sig {
            Sig::Effect => {}
            Sig::Same { srcs, sizes } => {
                for n in sizes.sizes() {
                    push(vec![n; srcs as usize], n);
                }
            }
            Sig::Compare { sizes } => {
                for n in sizes.sizes() {
                    push(vec![n, n], 1);
                }
            }
            Sig::Convert { from, to } => {
                for m in from.sizes() {
                    for n in to.sizes() {
                        push(vec![m], n);
                    }
                }
            }
            Sig::Indexed { sizes } => {
                for n in sizes.sizes() {
                    push(vec![n, 32], n);
                }
            }
            Sig::Select { sizes } => {
                for n in sizes.sizes() {
                    push(vec![1, n, n], n);
                }
            }
            Sig::Fixed32 { srcs } => push(vec![32; srcs as usize], 32),
            Sig::Nullary { sizes } => {
                for n in sizes.sizes() {
                    push(vec![], n);
                }
            }
            Sig::LoadSlot => {
                for t in SlotType::ALL {
                    out.push(Shape {
                        op,
                        srcs: vec![],
                        dest: t.bits(),
                        slot: Some(t),
                    });
                }
            }
            Sig::StoreSlot => {
                for t in SlotType::ALL {
                    out.push(Shape {
                        op,
                        srcs: vec![t.bits()],
                        dest: 0,
                        slot: Some(t),
                    });
                }
            }
        }
    }
    out
}

/// Which sources of an op of this shape are values (the rest: a count, an
/// index or a condition, 32-bit or 1-bit integers).
fn is_value_src(op: Op, k: usize) -> bool {
    match op.info().sig {
        Sig::Indexed { .. } => k == 0,
        Sig::Select { .. } => k > 0,
        _ => true,
    }
}

/// A program running one op of `shape` on loaded inputs and storing its
/// result, so that nothing about the op's operands is constant.
pub fn shape_program(shape: &Shape) -> Program {
    let info = shape.op.info();
    let mut b = Builder::new(&shape.name().replace(['.', '-', '>'], "_"));
    let srcs: Vec<ValueId> = shape
        .srcs
        .iter()
        .enumerate()
        .map(|(k, &bits)| {
            let kind = if is_value_src(shape.op, k) {
                info.kinds.src
            } else {
                ValueKind::Int
            };
            let ty = match shape.slot {
                Some(t) => t,
                None => slot_type(bits, kind),
            };
            let slot = b.declare_input(ty);
            b.load_input(slot)
        })
        .collect();
    match info.sig {
        Sig::LoadSlot => {
            let t = shape.slot.expect("I/O shapes have a slot type");
            let v = if shape.op == Op::LoadUniform {
                let s = b.declare_uniform(t);
                b.load_uniform(s)
            } else {
                let s = b.declare_input(t);
                b.load_input(s)
            };
            let o = b.declare_output(t);
            b.store_output(o, v);
        }
        Sig::StoreSlot => {
            let t = shape.slot.expect("I/O shapes have a slot type");
            let o = b.declare_output(t);
            b.store_output(o, srcs[0]);
        }
        _ => {
            let imm = if shape.op == Op::LoadConst {
                0x8000_0000_0000_0001 & ir::types::mask(shape.dest)
            } else {
                0
            };
            let v = b.push(shape.op, shape.dest, &srcs, imm);
            let kind = if info.class == OpClass::Const {
                ValueKind::Int
            } else {
                info.kinds.result
            };
            let o = b.declare_output(slot_type(shape.dest, kind));
            b.store_output(o, v);
        }
    }
    b.finish().expect("a one-op program validates")
}

/// Every `.sir` file of the corpus (the main directory, `bugs/`,
/// `regressions/`), parsed: `(file name, case)`.
pub fn corpus() -> Vec<(String, ir::Case)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus");
    let mut out = Vec::new();
    for dir in ["", "bugs", "regressions"] {
        let d = std::path::Path::new(root).join(dir);
        let mut files: Vec<_> = std::fs::read_dir(&d)
            .expect("corpus directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "sir"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).expect("read .sir");
            let case = ir::parse_case(&text)
                .unwrap_or_else(|e| panic!("{} does not parse: {e}", f.display()));
            let name = f.strip_prefix(root).unwrap_or(&f).display().to_string();
            out.push((name, case));
        }
    }
    out
}

/// The invocation count a case runs with (its dispatch's, else 16).
pub fn invocations(case: &ir::Case) -> u32 {
    case.dispatch.as_ref().map_or(16, |d| d.invocations)
}
