//! For every validator rule, a malformed program and the exact error it gets.
//! Programs the parser cannot express (it enforces some rules itself) are
//! built as data.

use ir::validate::ValidationError as E;
use ir::{
    parse_program, validate, Block, BlockId, CfNode, Def, If, Instr, Jump, Op, Program, SlotType,
    ValueId,
};

fn check(body: &str) -> Result<(), E> {
    let text = format!(
        "shader: t\ndecl_input 0 i32\ndecl_output 0 i32\nimpl main {{\n\tblock b0:\n\t32 %0 = @load_input () (slot=0)\n\t1 %1 = ilt %0, %0\n{body}}}\n"
    );
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    validate(&p)
}

fn block(id: u32, instrs: Vec<Instr>, jump: Option<Jump>) -> CfNode {
    CfNode::Block(Block {
        id: BlockId(id),
        phis: vec![],
        instrs,
        jump,
    })
}

fn konst(id: u32, bits: u8, imm: u64) -> Instr {
    Instr {
        op: Op::LoadConst,
        dest: Some(Def {
            id: ValueId(id),
            bits,
        }),
        srcs: vec![],
        imm,
    }
}

fn program(body: Vec<CfNode>) -> Program {
    Program {
        name: "t".into(),
        outputs: vec![SlotType::I32],
        body,
        ..Program::default()
    }
}

fn empty_if(cond: u32, a: u32, b: u32) -> CfNode {
    CfNode::If(If {
        cond: ValueId(cond),
        then_body: vec![block(a, vec![], None)],
        else_body: vec![block(b, vec![], None)],
    })
}

#[test]
fn the_base_program_is_valid() {
    assert_eq!(check("\t@store_output (%0) (slot=0)\n"), Ok(()));
}

#[test]
fn list_must_start_with_block() {
    let p = program(vec![empty_if(0, 1, 2), block(3, vec![], None)]);
    assert_eq!(
        validate(&p),
        Err(E::ListMustStartWithBlock {
            context: "impl main".into()
        })
    );
}

#[test]
fn list_must_end_with_block() {
    let p = program(vec![
        block(0, vec![konst(0, 1, 1)], None),
        empty_if(0, 1, 2),
    ]);
    assert_eq!(
        validate(&p),
        Err(E::ListMustEndWithBlock {
            context: "impl main".into()
        })
    );
}

#[test]
fn adjacent_blocks() {
    let p = program(vec![block(0, vec![], None), block(1, vec![], None)]);
    assert_eq!(
        validate(&p),
        Err(E::AdjacentBlocks {
            first: BlockId(0),
            second: BlockId(1)
        })
    );
}

#[test]
fn jump_not_last() {
    let p = program(vec![
        block(0, vec![konst(0, 1, 1)], None),
        CfNode::Loop(ir::Loop {
            body: vec![
                block(1, vec![], Some(Jump::Break)),
                empty_if(0, 2, 3),
                block(4, vec![], None),
            ],
        }),
        block(5, vec![], None),
    ]);
    assert_eq!(validate(&p), Err(E::JumpNotLast { block: BlockId(1) }));
}

#[test]
fn duplicate_block() {
    let body = "\tif %1 {\n\t\tblock b1:\n\t} else {\n\t\tblock b1:\n\t}\n\tblock b2:\n";
    assert_eq!(check(body), Err(E::DuplicateBlock(BlockId(1))));
}

#[test]
fn duplicate_value() {
    assert_eq!(
        check("\t32 %1 = iadd %0, %0\n"),
        Err(E::DuplicateValue(ValueId(1)))
    );
}

#[test]
fn undefined_value() {
    assert_eq!(
        check("\t32 %2 = iadd %0, %9\n"),
        Err(E::UndefinedValue {
            value: ValueId(9),
            block: BlockId(0),
            instr: "32    %2 = iadd %0, %9".into()
        })
    );
}

#[test]
fn src_count() {
    assert_eq!(
        check("\t32 %2 = @ballot (%1, %1)\n"),
        Err(E::SrcCount {
            op: "ballot",
            expected: 1,
            found: 2,
            block: BlockId(0),
            instr: "32    %2 = @ballot (%1, %1)".into()
        })
    );
}

#[test]
fn src_size() {
    assert_eq!(
        check("\t16 %2 = load_const (0x0001)\n\t32 %3 = iadd %0, %2\n"),
        Err(E::SrcSize {
            op: "iadd",
            src: 1,
            found: 16,
            expected: "32 (the result's size)".into(),
            block: BlockId(0),
            instr: "32    %3 = iadd %0, %2".into()
        })
    );
    assert_eq!(
        check("\t32 %2 = fadd %1, %1\n"),
        Err(E::SrcSize {
            op: "fadd",
            src: 0,
            found: 1,
            expected: "32 (the result's size)".into(),
            block: BlockId(0),
            instr: "32    %2 = fadd %1, %1".into()
        })
    );
}

#[test]
fn dest_size() {
    assert_eq!(
        check("\t8 %2 = fadd %0, %0\n"),
        Err(E::DestSize {
            op: "fadd",
            found: 8,
            expected: "one of {16,32,64}".into(),
            block: BlockId(0),
            instr: "8     %2 = fadd %0, %0".into()
        })
    );
    assert_eq!(
        check("\t32 %2 = ilt %0, %0\n"),
        Err(E::DestSize {
            op: "ilt",
            found: 32,
            expected: "1".into(),
            block: BlockId(0),
            instr: "32    %2 = ilt %0, %0".into()
        })
    );
}

#[test]
fn dest_presence() {
    let store = Instr {
        op: Op::StoreOutput,
        dest: Some(Def {
            id: ValueId(1),
            bits: 32,
        }),
        srcs: vec![ValueId(0)],
        imm: 0,
    };
    let p = program(vec![block(0, vec![konst(0, 32, 1), store], None)]);
    assert_eq!(
        validate(&p),
        Err(E::DestPresence {
            op: "store_output",
            problem: "defines no value",
            block: BlockId(0)
        })
    );
}

#[test]
fn const_too_wide() {
    let p = program(vec![block(0, vec![konst(0, 8, 0x1ff)], None)]);
    assert_eq!(
        validate(&p),
        Err(E::ConstTooWide {
            imm: 0x1ff,
            bits: 8,
            block: BlockId(0)
        })
    );
}

#[test]
fn not_dominated() {
    let body = "\tif %1 {\n\t\tblock b1:\n\t\t32 %2 = iadd %0, %0\n\t} else {\n\t\tblock b2:\n\t}\n\tblock b3:\n\t@store_output (%2) (slot=0)\n";
    assert_eq!(
        check(body),
        Err(E::NotDominated {
            value: ValueId(2),
            block: BlockId(3),
            instr: "@store_output (%2) (base=0)".into()
        })
    );
    // A use before its definition in the same block.
    assert_eq!(
        check("\t32 %2 = iadd %0, %3\n\t32 %3 = iadd %0, %0\n"),
        Err(E::NotDominated {
            value: ValueId(3),
            block: BlockId(0),
            instr: "32    %2 = iadd %0, %3".into()
        })
    );
}

#[test]
fn phi_preds() {
    let body = "\tif %1 {\n\t\tblock b1:\n\t} else {\n\t\tblock b2:\n\t}\n\tblock b3:\n\t32 %2 = phi b1: %0\n";
    assert_eq!(
        check(body),
        Err(E::PhiPreds {
            phi: ValueId(2),
            block: BlockId(3),
            expected: vec![BlockId(1), BlockId(2)],
            found: vec![BlockId(1)]
        })
    );
    // A phi in the entry block, which has no predecessors.
    let text = "shader: t\nimpl main {\n\tblock b0:\n\t32 %0 = load_const (0x00000000)\n}\n";
    let mut p = parse_program(text).unwrap();
    if let CfNode::Block(b) = &mut p.body[0] {
        b.phis.push(ir::Phi {
            dest: Def {
                id: ValueId(1),
                bits: 32,
            },
            srcs: vec![(BlockId(0), ValueId(0))],
        });
    }
    assert_eq!(
        validate(&p),
        Err(E::PhiWithoutPreds {
            phi: ValueId(1),
            block: BlockId(0)
        })
    );
    // Also with no sources at all.
    if let CfNode::Block(b) = &mut p.body[0] {
        b.phis[0].srcs.clear();
    }
    assert_eq!(
        validate(&p),
        Err(E::PhiWithoutPreds {
            phi: ValueId(1),
            block: BlockId(0)
        })
    );
}

#[test]
fn phi_size() {
    let body = "\tif %1 {\n\t\tblock b1:\n\t} else {\n\t\tblock b2:\n\t}\n\tblock b3:\n\t32 %2 = phi b1: %0, b2: %1\n";
    assert_eq!(
        check(body),
        Err(E::PhiSize {
            phi: ValueId(2),
            bits: 32,
            src: ValueId(1),
            found: 1
        })
    );
}

#[test]
fn cond_not_bool() {
    let body = "\tif %0 {\n\t\tblock b1:\n\t} else {\n\t\tblock b2:\n\t}\n\tblock b3:\n";
    assert_eq!(
        check(body),
        Err(E::CondNotBool {
            cond: ValueId(0),
            bits: 32
        })
    );
}

#[test]
fn jump_outside_loop() {
    let body = "\tif %1 {\n\t\tblock b1:\n\t\tbreak\n\t} else {\n\t\tblock b2:\n\t}\n\tblock b3:\n";
    assert_eq!(
        check(body),
        Err(E::JumpOutsideLoop {
            jump: "break",
            block: BlockId(1)
        })
    );
}

#[test]
fn unreachable() {
    let body = "\tloop {\n\t\tblock b1:\n\t\tif %1 {\n\t\t\tblock b2:\n\t\t\tbreak\n\t\t} else {\n\t\t\tblock b3:\n\t\t\tcontinue\n\t\t}\n\t\tblock b4:\n\t}\n\tblock b5:\n";
    assert_eq!(check(body), Err(E::Unreachable { block: BlockId(4) }));
    // A loop that never breaks makes what follows unreachable.
    let body = "\tloop {\n\t\tblock b1:\n\t}\n\tblock b2:\n";
    assert_eq!(check(body), Err(E::Unreachable { block: BlockId(2) }));
}

#[test]
fn slot_out_of_range() {
    assert_eq!(
        check("\t@store_output (%0) (slot=3)\n"),
        Err(E::SlotOutOfRange {
            op: "store_output",
            slot: 3,
            declared: 1,
            block: BlockId(0)
        })
    );
}

#[test]
fn slot_type() {
    assert_eq!(
        check("\t@store_output (%1) (slot=0)\n"),
        Err(E::SlotType {
            op: "store_output",
            slot: 0,
            declared: SlotType::I32,
            found: 1,
            block: BlockId(0)
        })
    );
    assert_eq!(
        check("\t64 %2 = @load_input () (slot=0)\n"),
        Err(E::SlotType {
            op: "load_input",
            slot: 0,
            declared: SlotType::I32,
            found: 64,
            block: BlockId(0)
        })
    );
}

#[test]
fn every_rule_has_a_test() {
    // Guards the list above: a new variant must get a test here too.
    let names = [
        "ListMustStartWithBlock",
        "ListMustEndWithBlock",
        "AdjacentBlocks",
        "DuplicateBlock",
        "DuplicateValue",
        "UndefinedValue",
        "SrcCount",
        "SrcSize",
        "DestSize",
        "DestPresence",
        "ConstTooWide",
        "NotDominated",
        "PhiPreds",
        "PhiWithoutPreds",
        "PhiSize",
        "CondNotBool",
        "JumpOutsideLoop",
        "JumpNotLast",
        "Unreachable",
        "SlotOutOfRange",
        "SlotType",
    ];
    let src = include_str!("../src/validate.rs");
    let variants = src.lines().filter(|l| {
        let t = l.trim_start();
        l.starts_with("    ")
            && !l.starts_with("     ")
            && t.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && (t.ends_with(" {") || t.ends_with("),"))
    });
    let found: Vec<String> = variants
        .map(|l| l.trim().split([' ', '(']).next().unwrap().to_string())
        .collect();
    assert_eq!(found, names);
}
