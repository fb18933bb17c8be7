//! "Eventually" tests (as wasmtime has): each fails if the generator stops
//! producing a feature within a bounded number of cases.

use generator::{generate_with_stats, Config};
use ir::op::{OpClass, Sig};
use ir::{CfNode, Op, Program};
use std::collections::BTreeSet;

const CASES: u64 = 4000;

/// Every (op, result size, first source size) the program contains.
fn op_sizes(p: &Program, seen: &mut BTreeSet<(Op, u8, u8)>) {
    let bits = p.value_bits();
    p.for_each_block(&mut |b| {
        for i in &b.instrs {
            let dest = i.dest.map_or(0, |d| d.bits);
            let src = i.srcs.first().map_or(0, |s| bits[s.0 as usize]);
            seen.insert((i.op, dest, src));
        }
    });
}

fn has_loop(list: &[CfNode]) -> bool {
    list.iter().any(|n| match n {
        CfNode::Loop(_) => true,
        CfNode::If(f) => has_loop(&f.then_body) || has_loop(&f.else_body),
        CfNode::Block(_) => false,
    })
}

#[test]
fn every_op_at_every_size_it_takes() {
    let config = Config::default();
    let mut seen = BTreeSet::new();
    for seed in 0..CASES {
        op_sizes(&generate_with_stats(seed, &config).0.program, &mut seen);
    }
    let mut missing = Vec::new();
    for op in Op::all().filter(|op| matches!(op.info().class, OpClass::Alu | OpClass::Subgroup)) {
        let sizes: Vec<u8> = match op.info().sig {
            Sig::Same { sizes, .. } | Sig::Indexed { sizes } | Sig::Select { sizes } => {
                sizes.sizes().collect()
            }
            Sig::Compare { sizes } => sizes.sizes().collect(),
            Sig::Convert { from, .. } => from.sizes().collect(),
            Sig::Fixed32 { .. } => vec![32],
            Sig::Nullary { sizes } => sizes.sizes().collect(),
            Sig::LoadSlot | Sig::StoreSlot | Sig::Effect => vec![],
        };
        for size in sizes {
            // Sources for sized-source signatures, results otherwise.
            let by_src = matches!(op.info().sig, Sig::Compare { .. } | Sig::Convert { .. });
            let hit = seen
                .iter()
                .any(|&(o, d, s)| o == op && if by_src { s == size } else { d == size });
            if !hit {
                missing.push(format!("{}@{size}", op.name()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "never generated in {CASES} cases: {missing:?}"
    );
}

#[test]
fn every_conversion_target_size() {
    let config = Config::default();
    let mut seen = BTreeSet::new();
    for seed in 0..CASES {
        op_sizes(&generate_with_stats(seed, &config).0.program, &mut seen);
    }
    let mut missing = Vec::new();
    for op in Op::all() {
        if let Sig::Convert { to, .. } = op.info().sig {
            for size in to.sizes() {
                if !seen.iter().any(|&(o, d, _)| o == op && d == size) {
                    missing.push(format!("{}->{size}", op.name()));
                }
            }
        }
    }
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

#[test]
fn divergent_subgroup_ops_mixed_width_bool_phis_and_non_uniform_loops() {
    let config = Config::default();
    let (mut divergent, mut mixed, mut non_uniform, mut jumps, mut loops, mut deep) =
        (0, 0, 0, 0, 0, 0);
    for seed in 0..CASES / 4 {
        let (case, s) = generate_with_stats(seed, &config);
        divergent += (s.divergent_subgroup_ops > 0) as u32;
        mixed += (s.mixed_width_bool_phis > 0) as u32;
        non_uniform += (s.non_uniform_loop_exits > 0) as u32;
        jumps += (s.jumps > 0) as u32;
        loops += has_loop(&case.program.body) as u32;
        deep += (s.max_depth >= 2) as u32;
    }
    assert!(
        divergent > 0,
        "no subgroup op inside divergent control flow"
    );
    assert!(
        mixed > 0,
        "no phi of booleans from comparisons of different widths"
    );
    assert!(non_uniform > 0, "no loop with a per-lane exit");
    assert!(jumps > 0, "no extra break or continue");
    assert!(loops > 0, "no loop");
    assert!(deep > 0, "no nesting of depth 2");
}

#[test]
fn every_slot_type_and_ragged_dispatches() {
    let config = Config::default();
    let mut types = BTreeSet::new();
    let mut ragged = 0;
    for seed in 0..CASES / 4 {
        let case = generate_with_stats(seed, &config).0;
        types.extend(case.program.inputs.iter().copied());
        types.extend(case.program.outputs.iter().copied());
        ragged += !case
            .dispatch
            .expect("dispatch")
            .invocations
            .is_multiple_of(8) as u32;
    }
    assert_eq!(types.len(), ir::SlotType::ALL.len(), "{types:?}");
    assert!(ragged > CASES as u32 / 8, "{ragged}");
}
