//! Shared helper for the edge-value op tests (`ops_*.rs`): runs tables of
//! rows through an op's table evaluator (`OpInfo::eval`), checks that a table
//! covers every bit size the op's signature allows, and reports every
//! mismatching row at once.
//!
//! Expected values in the tables are literals worked out from `ir/OPS.md`,
//! never from the evaluators.

#![allow(dead_code)] // each test crate uses a subset

use std::collections::BTreeSet;

use ir::eval::Args;
use ir::{Op, OpClass, Sig};

/// The expected outcome of one evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exp {
    /// This result, as raw bits masked to the result size.
    V(u64),
    /// Undefined input: the evaluator must return `Err(Ub)`.
    Undefined,
}

pub use Exp::V;

/// Shorthand for [`Exp::Undefined`].
pub const UB: Exp = Exp::Undefined;

/// One row for a non-conversion op: `(n, sources, expected)`. `n` is the
/// op's size parameter from OPS.md: the shared size for `k x n -> n`, the
/// source size for comparisons (`n, n -> 1`), the size of src0 and the
/// result for `n, 32 -> n`, the size of the two values for `bcsel`
/// (`1, n, n -> n`), and 32 for the fixed 32-bit bitfield ops.
pub type Row = (u8, &'static [u64], Exp);

/// One row for a conversion (`m -> n`): `(m, n, source, expected)`.
pub type ConvRow = (u8, u8, u64, Exp);

/// Every ALU op, by the test file that covers it.
pub const GROUPS: &[(&str, &[Op])] = &[
    (
        "ops_int",
        &[
            Op::Iadd,
            Op::Isub,
            Op::Imul,
            Op::Ineg,
            Op::Iabs,
            Op::Imin,
            Op::Imax,
            Op::Umin,
            Op::Umax,
            Op::ImulHigh,
            Op::UmulHigh,
        ],
    ),
    (
        "ops_div",
        &[Op::Idiv, Op::Udiv, Op::Irem, Op::Imod, Op::Umod],
    ),
    (
        "ops_cmp",
        &[
            Op::Ieq,
            Op::Ine,
            Op::Ilt,
            Op::Ige,
            Op::Ult,
            Op::Uge,
            Op::Feq,
            Op::Fneu,
            Op::Flt,
            Op::Fge,
        ],
    ),
    (
        "ops_logic",
        &[
            Op::Ishl,
            Op::Ishr,
            Op::Ushr,
            Op::Iand,
            Op::Ior,
            Op::Ixor,
            Op::Inot,
            Op::Bcsel,
        ],
    ),
    (
        "ops_bits",
        &[
            Op::Bfm,
            Op::Bfi,
            Op::Ibfe,
            Op::Ubfe,
            Op::BitfieldInsert,
            Op::IbitfieldExtract,
            Op::UbitfieldExtract,
            Op::BitfieldReverse,
            Op::BitCount,
            Op::FindLsb,
            Op::UfindMsb,
            Op::IfindMsb,
            Op::ExtractU8,
            Op::ExtractI8,
            Op::ExtractU16,
            Op::ExtractI16,
        ],
    ),
    ("ops_float", &[Op::Fadd, Op::Fsub, Op::Fmul, Op::Ffma]),
    ("ops_fminmax", &[Op::Fmin, Op::Fmax]),
    (
        "ops_float_unary",
        &[
            Op::Fneg,
            Op::Fabs,
            Op::Fsat,
            Op::Ffloor,
            Op::Fceil,
            Op::Ftrunc,
            Op::FroundEven,
            Op::Ffract,
            Op::Fsign,
        ],
    ),
    (
        "ops_conv",
        &[
            Op::I2i,
            Op::U2u,
            Op::B2i,
            Op::I2b,
            Op::B2f,
            Op::F2b,
            Op::F2f,
        ],
    ),
    ("ops_conv_i2f", &[Op::I2f, Op::U2f]),
    ("ops_conv_f2i", &[Op::F2i, Op::F2u]),
];

fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Evaluates one row and describes it if it does not match.
fn check(op: Op, row: usize, src: &[u64], src_bits: &[u8], bits: u8, exp: Exp) -> Option<String> {
    let name = op.name();
    assert_eq!(
        src.len(),
        src_bits.len(),
        "{name} row {row}: wrong number of sources"
    );
    for (i, (&v, &b)) in src.iter().zip(src_bits).enumerate() {
        assert_eq!(
            v & mask(b),
            v,
            "{name} row {row}: src{i} {v:#x} is not masked to {b} bits"
        );
    }
    if let Exp::V(v) = exp {
        assert_eq!(
            v & mask(bits),
            v,
            "{name} row {row}: expected {v:#x} is not masked to {bits} bits"
        );
    }
    let mut args = Args {
        bits,
        ..Args::default()
    };
    args.src[..src.len()].copy_from_slice(src);
    args.src_bits[..src.len()].copy_from_slice(src_bits);
    let eval = op.info().eval.expect("ALU op without an evaluator");
    let got = match eval(&args) {
        Ok(v) => Exp::V(v),
        Err(_) => Exp::Undefined,
    };
    (got != exp).then(|| {
        let srcs: Vec<String> = src.iter().map(|v| format!("{v:#x}")).collect();
        let show = |e: Exp| match e {
            Exp::V(v) => format!("{v:#x}"),
            Exp::Undefined => "Err(Ub)".to_string(),
        };
        format!(
            "row {row}: {name} {src_bits:?} -> {bits} ({}) = {}, want {}",
            srcs.join(", "),
            show(got),
            show(exp)
        )
    })
}

fn report(op: Op, fails: Vec<String>) {
    assert!(
        fails.is_empty(),
        "{} mismatching row(s) for {}:\n{}",
        fails.len(),
        op.name(),
        fails.join("\n")
    );
}

/// Source and result sizes of a non-conversion op at size parameter `n`.
fn shape(op: Op, n: u8) -> (Vec<u8>, u8) {
    match op.info().sig {
        Sig::Same { srcs, .. } => (vec![n; srcs as usize], n),
        Sig::Compare { .. } => (vec![n, n], 1),
        Sig::Indexed { .. } => (vec![n, 32], n),
        Sig::Select { .. } => (vec![1, n, n], n),
        Sig::Fixed32 { srcs } => (vec![32; srcs as usize], 32),
        sig => panic!("{}: {sig:?} is not a row-table signature", op.name()),
    }
}

/// The size parameters OPS.md allows for a non-conversion op.
fn allowed(op: Op) -> BTreeSet<u8> {
    match op.info().sig {
        Sig::Same { sizes, .. }
        | Sig::Compare { sizes }
        | Sig::Indexed { sizes }
        | Sig::Select { sizes } => sizes.sizes().collect(),
        Sig::Fixed32 { .. } => BTreeSet::from([32]),
        sig => panic!("{}: {sig:?} is not a row-table signature", op.name()),
    }
}

/// Runs rows without requiring size coverage; panics listing every
/// mismatch. Rows must use sizes the op allows.
pub fn run_partial(op: Op, rows: &[Row]) {
    assert_eq!(
        op.info().class,
        OpClass::Alu,
        "{} is not an ALU op",
        op.name()
    );
    let ok = allowed(op);
    let mut fails = Vec::new();
    for (i, &(n, src, exp)) in rows.iter().enumerate() {
        assert!(
            ok.contains(&n),
            "{} row {i}: size {n} not allowed",
            op.name()
        );
        let (src_bits, bits) = shape(op, n);
        fails.extend(check(op, i, src, &src_bits, bits, exp));
    }
    report(op, fails);
}

/// Runs rows for a non-conversion op; the rows must cover every size the
/// op allows.
pub fn run(op: Op, rows: &[Row]) {
    let have: BTreeSet<u8> = rows.iter().map(|r| r.0).collect();
    assert_eq!(have, allowed(op), "{}: sizes covered vs allowed", op.name());
    run_partial(op, rows);
}

/// Runs conversion rows without requiring size coverage.
pub fn run_conv_partial(op: Op, rows: &[ConvRow]) {
    let info = op.info();
    assert_eq!(info.class, OpClass::Alu, "{} is not an ALU op", info.name);
    let Sig::Convert { from, to } = info.sig else {
        panic!("{} is not a conversion", info.name)
    };
    let mut fails = Vec::new();
    for (i, &(m, n, a, exp)) in rows.iter().enumerate() {
        assert!(
            from.contains(m) && to.contains(n),
            "{} row {i}: {m} -> {n} not allowed",
            info.name
        );
        fails.extend(check(op, i, &[a], &[m], n, exp));
    }
    report(op, fails);
}

/// Runs conversion rows; the rows must cover every (source size, result
/// size) pair the op allows.
pub fn run_conv(op: Op, rows: &[ConvRow]) {
    let Sig::Convert { from, to } = op.info().sig else {
        panic!("{} is not a conversion", op.name())
    };
    let want: BTreeSet<(u8, u8)> = from
        .sizes()
        .flat_map(|m| to.sizes().map(move |n| (m, n)))
        .collect();
    let have: BTreeSet<(u8, u8)> = rows.iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(have, want, "{}: size pairs covered vs allowed", op.name());
    run_conv_partial(op, rows);
}

/// Checks that [`GROUPS`] splits the ALU ops of the table exactly, and that
/// `source` (a test file's text) runs a table for every op of its group.
pub fn check_group(file: &str, source: &str) {
    let mut seen = BTreeSet::new();
    for (_, ops) in GROUPS {
        for &op in *ops {
            assert!(seen.insert(op), "{} is in two groups", op.name());
        }
    }
    let alu: BTreeSet<Op> = Op::all()
        .filter(|op| op.info().class == OpClass::Alu)
        .collect();
    assert_eq!(seen, alu, "GROUPS vs the ALU ops of the table");
    let (_, ops) = GROUPS
        .iter()
        .find(|(f, _)| *f == file)
        .expect("unknown test file");
    let squeezed: String = source.split_whitespace().collect();
    for op in *ops {
        let runs = [format!("run(Op::{op:?},"), format!("run_conv(Op::{op:?},")];
        assert!(
            runs.iter().any(|r| squeezed.contains(r.as_str())),
            "{file}.rs has no full table (run/run_conv) for {}",
            op.name()
        );
    }
}
