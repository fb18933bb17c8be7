//! One failing and one passing program per validator rule.

use super::*;
use crate::asm::parse_program;
use crate::isa::{Dst, Instruction, Opcode, PredMode, Predicate, Region, Src};
use crate::types::RegType;

const END: &str = "send(8) null g0 end { align1 1Q EOT };";

fn check_text(body: &str) -> Result<(), Vec<Violation>> {
    let text = format!("{body}\n{END}");
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    validate(&p, &MachineConfig::GFX11)
}

fn rules_of(r: Result<(), Vec<Violation>>) -> Vec<&'static str> {
    r.err().unwrap_or_default().iter().map(|v| v.rule).collect()
}

/// (rule, breaking program, conforming program)
const CASES: &[(&str, &str, &str)] = &[
    (
        "exec-size",
        "mov(3) g2<1>UD g3<0,1,0>UD",
        "mov(4) g2<1>UD g3<4,4,1>UD",
    ),
    (
        "group-align",
        "mov(8) g2<1>UD g3<8,8,1>UD { align1 2N };",
        "mov(8) g2<1>UD g3<8,8,1>UD { align1 2Q };",
    ),
    (
        "type-invalid",
        "mov(8) g2<1>UD g3<8,8,1>V",
        "mov(8) g2<1>UW 0x76543210V",
    ),
    (
        "src-null",
        "add(8) g2<1>D null<8,8,1>D g3<8,8,1>D",
        "add(8) g2<1>D g4<8,8,1>D g3<8,8,1>D",
    ),
    (
        "grf-bounds",
        "mov(8) g128<1>UD g3<8,8,1>UD",
        "mov(8) g127<1>UD g3<8,8,1>UD",
    ),
    (
        "flag-bounds",
        "(+f2.0) mov(8) g2<1>UD g3<8,8,1>UD",
        "(+f1.1) mov(8) g2<1>UD g3<8,8,1>UD",
    ),
    (
        "flag-range",
        "(+f0.1) mov(16) g2<1>UW g4<16,16,1>UW { align1 2H };",
        "(+f0.0) mov(16) g2<1>UW g4<16,16,1>UW { align1 2H };",
    ),
    (
        "imm-byte",
        "mov(8) g2<1>UW 0x05UB",
        "mov(8) g2<1>UW 0x0005UW",
    ),
    (
        "imm-64bit-in-2src",
        "add(8) g2<1>Q g4<4,4,1>Q 0x0000000000000001Q",
        "add(8) g2<1>Q g4<4,4,1>Q 1D",
    ),
    (
        "imm-position",
        "add(8) g2<1>D 1D g3<8,8,1>D",
        "add(8) g2<1>D g3<8,8,1>D 1D",
    ),
    (
        "imm-3src-type",
        "mad(8) g2<1>F 0x3f800000F g3<8,8,1>F g4<8,8,1>F",
        "mad(8) g2<1>HF 0x3c00HF g3<8,8,1>HF g4<8,8,1>HF",
    ),
    (
        "imm-vector",
        "mov(8) g2<1>UD 0x76543210V",
        "mov(8) g2<1>UW 0x76543210V",
    ),
    (
        "src-modifier-not-allowed",
        "bfrev(8) g2<1>UD -g3<8,8,1>UD",
        "bfrev(8) g2<1>UD g3<8,8,1>UD",
    ),
    (
        "logic-abs",
        "and(8) g2<1>UD (abs)g3<8,8,1>UD g4<8,8,1>UD",
        "and(8) g2<1>UD ~g3<8,8,1>UD g4<8,8,1>UD",
    ),
    (
        "logic-cmod",
        "and.o.f0.0(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>UD",
        "and.nz.f0.0(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>UD",
    ),
    (
        "byte-src1",
        "add(8) g2<1>W g3<8,8,1>W g4<8,8,1>B",
        "add(8) g2<1>W g4<8,8,1>B g3<8,8,1>W",
    ),
    (
        "cmod-not-allowed",
        "bfrev.z.f0.0(8) g2<1>UD g3<8,8,1>UD",
        "lzd.z.f0.0(8) g2<1>UD g3<8,8,1>UD",
    ),
    (
        "sat-not-allowed",
        "and.sat(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>UD",
        "add.sat(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>UD",
    ),
    ("pred-not-allowed", "(+f0.0) nop", "nop"),
    (
        "cmp-needs-cmod",
        "cmp(8) null<1>D g3<8,8,1>D g4<8,8,1>D",
        "cmp.z.f0.0(8) null<1>D g3<8,8,1>D g4<8,8,1>D",
    ),
    (
        "cmp-dst-type",
        "cmp.l.f0.0(8) g2<1>D g3<8,8,1>F g4<8,8,1>F",
        "cmp.l.f0.0(8) g2<1>F g3<8,8,1>F g4<8,8,1>F",
    ),
    (
        // Seed 000: a half-float compare makes 16-bit booleans.
        "cmp-dst-type",
        "cmp.l.f0.0(8) g2<1>F g3<8,8,1>HF g4<8,8,1>HF",
        "cmp.l.f0.0(8) g2<1>HF g3<8,8,1>HF g4<8,8,1>HF",
    ),
    (
        "sel-pred-cmod",
        "sel(8) g2<1>D g3<8,8,1>D g4<8,8,1>D",
        "sel.l(8) g2<1>D g3<8,8,1>D g4<8,8,1>D",
    ),
    (
        "sel-cmod",
        "sel.z(8) g2<1>D g3<8,8,1>D g4<8,8,1>D",
        "sel.ge(8) g2<1>D g3<8,8,1>D g4<8,8,1>D",
    ),
    (
        "csel-cmod",
        "csel(8) g2<1>F g3<8,8,1>F g4<8,8,1>F g5<8,8,1>F",
        "csel.nz(8) g2<1>F g3<8,8,1>F g4<8,8,1>F g5<8,8,1>F",
    ),
    (
        "csel-predicated",
        "(+f0.0) csel.nz(8) g2<1>F g3<8,8,1>F g4<8,8,1>F g5<8,8,1>F",
        "csel.le(8) g2<1>F g3<8,8,1>F g4<8,8,1>F g5<8,8,1>F",
    ),
    (
        "csel-types",
        "csel.nz(8) g2<1>F g3<8,8,1>F g4<8,8,1>D g5<8,8,1>F",
        "csel.nz(8) g2<1>D g3<8,8,1>D g4<8,8,1>UD g5<8,8,1>D",
    ),
    (
        "int-float-mix",
        "add(8) g2<1>F g3<8,8,1>F g4<8,8,1>D",
        "add(8) g2<1>F g3<8,8,1>F g4<8,8,1>F",
    ),
    (
        "type-not-supported",
        "frc(8) g2<1>D g3<8,8,1>D",
        "frc(8) g2<1>F g3<8,8,1>F",
    ),
    (
        "bitfield-types",
        "bfi2(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>D g5<8,8,1>UD",
        "bfi2(8) g2<1>UD g3<8,8,1>UD g4<8,8,1>UD g5<8,8,1>UD",
    ),
    (
        "math-int-div",
        "math intdiv(8) g2<1>D -g3<8,8,1>D g4<8,8,1>D",
        "math intmod(8) g2<1>D g3<8,8,1>D g4<8,8,1>D",
    ),
    (
        "mul-dword-dword",
        "mul(8) g2<1>D g3<8,8,1>D g4<8,8,1>D",
        "mul(8) g2<1>D g3<8,8,1>D g4<16,8,2>W",
    ),
    (
        "mul-dword-src1",
        "mul(8) g2<1>D g4<16,8,2>W g3<8,8,1>D",
        "mul(8) g2<1>D g3<8,8,1>UD g4<16,8,2>UW",
    ),
    (
        "mul-dword-cmod-sat",
        "mul.sat(8) g2<1>D g3<8,8,1>D g4<16,8,2>W",
        "mul.sat(8) g2<1>D g3<16,8,2>W g4<16,8,2>W",
    ),
    (
        "mul-qword",
        "mul(4) g2<1>Q g3<4,4,1>Q g4<4,4,1>Q",
        "mul(4) g2<1>DF g3<4,4,1>DF g4<4,4,1>DF",
    ),
    (
        "region-encoding",
        "mov(8) g2<1>UD g3<8,3,1>UD",
        "mov(8) g2<1>UD g3<8,8,1>UD",
    ),
    (
        "region-width-gt-exec",
        "mov(4) g2<1>UD g3<8,8,1>UD",
        "mov(4) g2<1>UD g3<4,4,1>UD",
    ),
    (
        "region-vstride",
        "mov(8) g2<1>UD g3<4,8,1>UD",
        "mov(8) g2<1>UD g3<8,8,1>UD",
    ),
    (
        "region-width1-hstride",
        "mov(8) g2<1>UD g3<1,1,1>UD",
        "mov(8) g2<1>UD g3<1,1,0>UD",
    ),
    (
        "region-scalar",
        "mov(1) g2<1>UD g3<1,1,0>UD",
        "mov(1) g2<1>UD g3<0,1,0>UD",
    ),
    (
        "region-zero-strides-width",
        "mov(8) g2<1>UD g3<0,4,0>UD",
        "mov(8) g2<1>UD g3<0,1,0>UD",
    ),
    (
        "region-row-crosses-grf",
        "mov(8) g2<1>UD g3.4<8,8,1>UD",
        "mov(8) g2<1>UD g3.4<4,4,1>UD",
    ),
    (
        "operand-span",
        "mov(16) g2<1>UD g3.4<4,4,1>UD",
        "mov(16) g2<1>UD g4<8,8,1>UD",
    ),
    (
        // Mesa's own example: the first add(8) writes g4, the second reads
        // g4.0. The same operation in place on full registers is safe.
        "compressed-hazard",
        "add(16) g4<1>F g4<0,1,0>F g6<8,8,1>F",
        "add(16) g4<1>F g4<8,8,1>F g6<8,8,1>F",
    ),
    (
        "compressed-hazard",
        "mov(16) g4<1>D g4<16,16,1>W",
        "mov(16) g4<1>D g6<16,16,1>W",
    ),
    (
        "compressed-hazard",
        "add(8) g10<1>Q g10.3<0,1,0>Q g12<4,4,1>Q",
        "add(8) g10<1>Q g11.3<0,1,0>Q g12<4,4,1>Q",
    ),
    (
        "narrow-dst-stride",
        "add(8) g2<1>W g3<8,8,1>D g4<8,8,1>D",
        "add(8) g2<2>W g3<8,8,1>D g4<8,8,1>D",
    ),
    (
        "narrow-dst-align",
        "add(8) g2.1<2>W g3<8,8,1>D g4<8,8,1>D",
        "add(8) g2.2<2>W g3<8,8,1>D g4<8,8,1>D",
    ),
    (
        "packed-byte-dst",
        "add(8) g2<1>UB g3<8,8,1>UW g4<8,8,1>UW",
        "mov(8) g2<1>UB g3<8,8,1>UB",
    ),
    (
        "conversion-byte-64bit",
        "mov(4) g2<1>Q g3<4,4,1>B",
        "mov(4) g2<1>Q g3<4,4,1>D",
    ),
    (
        "conversion-hf-64bit",
        "mov(4) g2<1>DF g3<4,4,1>HF",
        "mov(4) g2<1>DF g3<4,4,1>F",
    ),
    (
        "conversion-int-hf",
        "mov(8) g2<1>HF g3<8,8,1>W",
        "mov(8) g2<2>HF g3<8,8,1>W",
    ),
    (
        "conversion-f-hf",
        "mov(8) g2<4>HF g3<8,8,1>F",
        "mov(8) g2<2>HF g3<8,8,1>F",
    ),
    (
        "mixed-float",
        "add(16) g2<1>F g4<8,8,1>F g6<16,16,1>HF",
        "add(8) g2<1>F g4<8,8,1>F g6<8,8,1>HF",
    ),
    ("send-msg", "send(8) null g0 end", "send(8) g2 g4 ld.b32"),
    (
        "eot",
        "send(8) null g4 g6 st.b32 { align1 1Q EOT };",
        "send(8) null g4 g6 st.b32",
    ),
    (
        "cf-nomask",
        "(+f0.0) if(8) JIP: @1 UIP: @1 { align1 WE_all 1Q };\nendif(8) JIP: @2",
        "(+f0.0) if(8) JIP: @1 UIP: @1\nendif(8) JIP: @2",
    ),
    (
        "cf-nesting",
        "else(8) JIP: @1 UIP: @1\nendif(8) JIP: @2",
        "if(8) JIP: @2 UIP: @2\nelse(8) JIP: @2 UIP: @2\nendif(8) JIP: @3",
    ),
    (
        "cf-while-jip",
        "nop\n(+f0.0) while(8) JIP: @3",
        "nop\n(+f0.0) while(8) JIP: @0",
    ),
    (
        "cf-break-outside-loop",
        "(+f0.0) break(8) JIP: @1 UIP: @1",
        "(+f0.0) break(8) JIP: @1 UIP: @1\nwhile(8) JIP: @0",
    ),
    (
        "cf-jip",
        "(+f0.0) if(8) JIP: @0 UIP: @1\nendif(8) JIP: @2",
        "(+f0.0) if(8) JIP: @1 UIP: @1\nendif(8) JIP: @2",
    ),
    (
        "cf-uip",
        "(+f0.0) break(8) JIP: @1 UIP: @0\nwhile(8) JIP: @0",
        "(+f0.0) break(8) JIP: @1 UIP: @1\nwhile(8) JIP: @0",
    ),
    (
        "halt-target",
        "(+f0.0) halt(8) JIP: @0 UIP: @0\nnop",
        "(+f0.0) halt(8) JIP: @1 UIP: @1\nnop",
    ),
    (
        "align16-unsupported",
        "mov(8) g2<1>F g4<4>F { align16 1Q };",
        "mov(8) g2<1>F g4<8,8,1>F",
    ),
    (
        "pred-replicate-align1",
        "(+f0.0.x) sel(8) g2<1>F g3<8,8,1>F g4<8,8,1>F",
        "(+f0.0) sel(8) g2<1>F g3<8,8,1>F g4<8,8,1>F",
    ),
];

/// Align16 rules, on the machine that has Align16: (rule, breaking
/// program, conforming program).
const VEC4_CASES: &[(&str, &str, &str)] = &[
    (
        "align16-alu-only",
        "halt(8) JIP: @1 UIP: @1 { align16 1Q };\nnop",
        "halt(8) JIP: @1 UIP: @1\nnop",
    ),
    (
        "align16-exec-size",
        "mov(16) g2<1>F g4<4>F { align16 1H };",
        "mov(8) g2<1>F g4<4>F { align16 1Q };",
    ),
    (
        "align16-dst-stride",
        "mov(8) g2<2>F g4<4>F { align16 1Q };",
        "mov(8) g2<1>F g4<4>F { align16 1Q };",
    ),
    (
        "align16-writemask",
        "mov(8) g2<1>.F g4<4>F { align16 1Q };",
        "mov(8) g2<1>.xF g4<4>F { align16 1Q };",
    ),
    (
        "align16-subreg",
        "mov(4) g2.1<1>F g4<4>F { align16 1N };",
        "mov(4) g2.4<1>F g4.4<4>F { align16 1N };",
    ),
    (
        "align16-region",
        "mov(8) g2<1>F g4<8>F { align16 1Q };",
        "mov(8) g2<1>F g4<4,4,1>.yzxwF { align16 1Q };",
    ),
    (
        "align16-region",
        "mov(8) g2<1>F g4<0,1,0>F { align16 1Q };",
        "mov(8) g2<1>F g4<0>F { align16 1Q };",
    ),
    (
        "align16-qword-exec",
        "mov(4) g2<1>DF g4<4>F { align16 1N };",
        "mov(2) g2<1>DF g4<4>F { align16 1N };",
    ),
    (
        "align16-mixed-float",
        "add(8) g2<1>F g4<0>HF g5<4>F { align16 1Q };",
        "add(8) g2<1>F g4<4>HF g5<4>F { align16 1Q };",
    ),
];

fn check_vec4_text(body: &str) -> Result<(), Vec<Violation>> {
    let text = format!("{body}\n{END}");
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    validate(&p, &MachineConfig::VEC4)
}

#[test]
fn every_rule_breaks_and_holds() {
    type Check = fn(&str) -> Result<(), Vec<Violation>>;
    let tables: [(_, Check); 2] = [(CASES, check_text), (VEC4_CASES, check_vec4_text)];
    for (cases, check) in tables {
        for (rule, bad, good) in cases {
            let got = rules_of(check(bad));
            assert!(got.contains(rule), "rule {rule}: `{bad}` gave {got:?}");
            assert_eq!(check(good), Ok(()), "rule {rule}: `{good}` must be valid");
        }
    }
}

#[test]
fn every_listed_rule_is_tested() {
    let mut tested: Vec<&str> = CASES.iter().chain(VEC4_CASES).map(|c| c.0).collect();
    tested.extend(["operand-count", "imm-modifier", "pred-mode"]);
    for r in RULES {
        assert!(tested.contains(r), "rule {r} has no test");
    }
}

fn with_end(i: Instruction) -> Program {
    let text = format!("nop\n{END}");
    let mut p = parse_program(&text).unwrap();
    p.insts[0] = i;
    p
}

#[test]
fn programmatic_rules() {
    let cfg = MachineConfig::GFX11;
    let d = Dst::grf(2, 0, RegType::D, 1);
    let s = Src::grf(3, 0, RegType::D, Region::new(8, 8, 1));
    // operand-count: ADD with one source.
    let bad = Instruction::alu(Opcode::Add, 8, d, &[s]);
    assert_eq!(
        rules_of(validate(&with_end(bad), &cfg)),
        vec!["operand-count"]
    );
    let good = Instruction::alu(Opcode::Add, 8, d, &[s, s]);
    assert_eq!(validate(&with_end(good), &cfg), Ok(()));
    // imm-modifier: a negated immediate.
    let bad = Instruction::alu(Opcode::Add, 8, d, &[s, Src::imm(1, RegType::D).negated()]);
    assert_eq!(
        rules_of(validate(&with_end(bad), &cfg)),
        vec!["imm-modifier"]
    );
    let good = Instruction::alu(Opcode::Add, 8, d, &[s, Src::imm(0xffff_ffff, RegType::D)]);
    assert_eq!(validate(&with_end(good), &cfg), Ok(()));
    // pred-mode: horizontal groups the encoding does not have (0 would
    // divide by zero in the flag-range check and the simulator).
    for n in [0u8, 3, 64] {
        let mut bad = Instruction::alu(Opcode::Add, 8, d, &[s, s]);
        bad.pred = Some(Predicate {
            inverse: false,
            mode: PredMode::Any(n),
        });
        assert_eq!(rules_of(validate(&with_end(bad), &cfg)), vec!["pred-mode"]);
    }
    let mut good = Instruction::alu(Opcode::Add, 8, d, &[s, s]);
    good.pred = Some(Predicate {
        inverse: false,
        mode: PredMode::All(4),
    });
    assert_eq!(validate(&with_end(good), &cfg), Ok(()));
}

#[test]
fn violation_reports_index_and_text() {
    let e = check_text("nop\nadd(8) g2<1>D 1D g3<8,8,1>D").unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].rule, "imm-position");
    assert_eq!(e[0].index, 1);
    assert_eq!(e[0].text, "add(8) g2<1>D 1D g3<8,8,1>D");
}

#[test]
fn bigger_grf_file_moves_bounds() {
    let p = parse_program(&format!("mov(8) g200<1>UD g3<8,8,1>UD\n{END}")).unwrap();
    assert!(validate(&p, &MachineConfig::GFX11).is_err());
    let big = MachineConfig {
        grf_bytes: 32,
        grf_count: 4096,
        ..MachineConfig::GFX11
    };
    assert_eq!(validate(&p, &big), Ok(()));
    // 64-byte GRFs: a SIMD16 UD operand fits one register, row crossing moves.
    let p = parse_program(&format!("mov(16) g2<1>UD g3.4<16,16,1>UD\n{END}")).unwrap();
    let wide = MachineConfig {
        grf_bytes: 64,
        grf_count: 128,
        ..MachineConfig::GFX11
    };
    let r = rules_of(validate(&p, &wide));
    assert_eq!(r, vec!["region-row-crosses-grf"]);
}

#[test]
fn instruction_ok_agrees_with_validating_the_instruction_alone() {
    // Every non-control-flow instruction of every breaking and conforming
    // program above: a program of it alone has a violation other than
    // `eot` exactly when `instruction_ok` says no.
    let (mut ok, mut bad) = (0, 0);
    let tables = [
        (CASES, MachineConfig::GFX11),
        (VEC4_CASES, MachineConfig::VEC4),
    ];
    for (cases, cfg) in tables {
        for (_, breaking, conforming) in cases {
            for text in [breaking, conforming] {
                let Ok(p) = parse_program(text) else { continue };
                for i in p.insts.iter().filter(|i| !i.op.is_cf()) {
                    let alone = Program { insts: vec![*i] };
                    let want = rules_of(validate(&alone, &cfg)).iter().all(|&r| r == "eot");
                    assert_eq!(instruction_ok(i, &cfg), want, "{text}");
                    if want {
                        ok += 1;
                    } else {
                        bad += 1;
                    }
                }
            }
        }
    }
    assert!(ok > 20 && bad > 20, "{ok} valid, {bad} invalid");
}

/// `i` with its GRF operands and message payloads at the registers
/// `nrs` gives, one after another.
fn relocated(i: &Instruction, mut nrs: impl FnMut() -> u32) -> Instruction {
    let mut r = *i;
    r.for_each_grf_mut(|nr| *nr = nrs());
    r
}

#[test]
fn instruction_ok_is_placement_and_the_unplaced_shape() {
    // Every non-control-flow instruction of every breaking and conforming
    // program, at registers that put its operands at both ends of the
    // file, past it and on top of each other: it passes its own rules
    // exactly when it passes the placement rules and its unplaced form
    // passes the others. Each half must decide some of them alone.
    let registers = [0, 2, 3, 4, 9, 60, 120, 125, 126, 127, 128, 200];
    let tables = [
        (CASES, MachineConfig::GFX11),
        (VEC4_CASES, MachineConfig::VEC4),
    ];
    let (mut ok, mut misplaced, mut misshapen) = (0, 0, 0);
    for (cases, cfg) in tables {
        for (_, breaking, conforming) in cases {
            for text in [breaking, conforming] {
                let Ok(p) = parse_program(text) else { continue };
                for i in p.insts.iter().filter(|i| !i.op.is_cf()) {
                    for start in 0..registers.len() {
                        for step in [0, 1, 5] {
                            let mut k = start;
                            let i = relocated(i, || {
                                let nr = registers[k % registers.len()];
                                k += step;
                                nr
                            });
                            let want = instruction_ok(&i, &cfg);
                            let placed = placement_ok(&i, &cfg);
                            let shaped = shape_ok(&i.unplaced(), &cfg);
                            let text = crate::print_instruction(&i);
                            assert_eq!(placed && shaped, want, "{text}");
                            // Neither the registers nor their count.
                            for grf_count in [1, 64, 4096] {
                                let other = MachineConfig { grf_count, ..cfg };
                                assert_eq!(shape_ok(&i, &other), shaped, "{text} ({grf_count})");
                                assert_eq!(shape_machine(&other), shape_machine(&cfg));
                            }
                            ok += usize::from(want);
                            misplaced += usize::from(!placed && shaped);
                            misshapen += usize::from(placed && !shaped);
                        }
                    }
                }
            }
        }
    }
    assert!(
        ok > 1500 && misplaced > 500 && misshapen > 1000,
        "{ok} valid, {misplaced} misplaced only, {misshapen} misshapen only"
    );
}

#[test]
fn unplaced_moves_every_grf_to_register_zero_and_keeps_the_rest() {
    for (text, want) in [
        (
            "(+f1.0) add.sat(8) g5.2<2>W g7.1<8,8,1>W -g9<0,1,0>W",
            "(+f1.0) add.sat(8) g0.2<2>W g0.1<8,8,1>W -g0<0,1,0>W",
        ),
        ("send(16) g10 g12 ld.b32", "send(16) g0 g0 ld.b32"),
        ("mov(8) f1.0<1>UW 0x1234UW", "mov(8) f1.0<1>UW 0x1234UW"),
    ] {
        let p = parse_program(text).unwrap();
        let got = crate::print_instruction(&p.insts[0].unplaced());
        assert_eq!(got, want);
    }
}

#[test]
fn the_placement_rules_are_the_ones_that_read_register_numbers() {
    let cfg = MachineConfig::GFX11;
    // A destination past the file, and a compressed instruction whose
    // second pass reads what its first wrote: placement, not shape.
    for text in [
        "mov(16) g127<1>UD g3<8,8,1>UD",
        "add(16) g127<1>F g2<8,8,1>F g4<8,8,1>F",
        "send(16) g127 g4 ld.b32",
        "mov(16) g10<1>UD g10<0,1,0>UD",
    ] {
        let p = parse_program(text).unwrap();
        let i = &p.insts[0];
        let broken = rules_of(validate(&with_end(*i), &cfg));
        assert!(
            !broken.is_empty() && broken.iter().all(|r| PLACEMENT_RULES.contains(r)),
            "{text}: {broken:?}"
        );
        assert!(!placement_ok(i, &cfg), "{text}");
        assert!(shape_ok(i, &cfg) && shape_ok(&i.unplaced(), &cfg), "{text}");
        // The same instruction at other registers is valid.
        let moved = relocated(i, {
            let mut nr = 20;
            move || {
                nr += 4;
                nr
            }
        });
        assert!(instruction_ok(&moved, &cfg), "{text}");
    }
    // A shape rule is broken wherever the registers are.
    let p = parse_program("add(8) g5<1>W g3<8,8,1>W g4<8,8,1>B").unwrap();
    assert!(placement_ok(&p.insts[0], &cfg));
    assert!(!shape_ok(&p.insts[0], &cfg));
}

#[test]
fn valid_given_agrees_with_validate() {
    // Every breaking and conforming program above, with and without the
    // end of thread, and each with its instructions' answers from
    // `instruction_ok`: `valid_given` says yes exactly when `validate` does.
    let cfg = MachineConfig::GFX11;
    let (mut yes, mut no) = (0, 0);
    for (rule, breaking, conforming) in CASES {
        for text in [breaking.to_string(), conforming.to_string()] {
            for full in [format!("{text}\n{END}"), text.clone()] {
                let Ok(p) = parse_program(&full) else {
                    continue;
                };
                let want = validate(&p, &cfg).is_ok();
                let got = valid_given(&p.insts, &cfg, |_, i| instruction_ok(i, &cfg));
                assert_eq!(got, want, "rule {rule}: `{full}`");
                if want {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
    }
    // An EOT send that is not last, and an empty program.
    let p = parse_program(&format!("{END}\n{END}")).unwrap();
    assert!(!valid_given(&p.insts, &cfg, |_, i| instruction_ok(i, &cfg)));
    assert!(!valid_given(&[], &cfg, |_, _| true));
    // The answers given are the ones used: a conforming program is refused
    // when its instructions are said to break their rules.
    let p = parse_program(&format!("mov(8) g2<1>UD g3<8,8,1>UD\n{END}")).unwrap();
    assert!(valid_given(&p.insts, &cfg, |_, _| true));
    assert!(!valid_given(&p.insts, &cfg, |_, i| i.op.is_cf() || i.op == Opcode::Send));
    assert!(yes > 50 && no > 50, "{yes} valid, {no} invalid");
}

#[test]
fn align16_rules_hold_at_the_edges_of_their_fields() {
    // A huge subregister neither overflows nor passes.
    let p = parse_program(&format!(
        "mov(8) g2.1073741824<1>F g4<4>F {{ align16 1Q }};\n{END}"
    ))
    .unwrap();
    let r = rules_of(validate(&p, &MachineConfig::VEC4));
    assert!(r.contains(&"align16-subreg"), "{r:?}");
    // Replicate components past w, and writemask bits past w on a null
    // destination, are rejected (they would not print back).
    let mut p = parse_program(&format!(
        "(+f0.0.x) mov(8) null<1>UD g4<4>UD {{ align16 1Q }};\n{END}"
    ))
    .unwrap();
    assert_eq!(validate(&p, &MachineConfig::VEC4), Ok(()));
    p.insts[0].pred = Some(Predicate {
        inverse: false,
        mode: PredMode::Replicate(5),
    });
    assert_eq!(rules_of(validate(&p, &MachineConfig::VEC4)), ["pred-mode"]);
    p.insts[0].pred = None;
    p.insts[0].align16.as_mut().unwrap().writemask = 0x1f;
    assert_eq!(
        rules_of(validate(&p, &MachineConfig::VEC4)),
        ["align16-writemask"]
    );
}
