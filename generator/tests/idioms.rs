//! The idiom knobs (`echo_percent`, `sat_percent`, `fresh_condition_percent`,
//! `combined_condition_percent`, `max_header_ops`): each test reads the generated IR directly and checks
//! the shape its knob promises, at the knob's extremes.

use generator::{generate, Config};
use ir::op::Sig;
use ir::{CfNode, Instr, Op, Program, ValueId};
use std::collections::HashMap;

/// A fixed feature set (no swarm), so a knob's extreme holds in every case.
fn fixed(f: impl FnOnce(&mut Config)) -> Config {
    let mut c = Config {
        swarm: false,
        echo_percent: 0,
        sat_percent: 0,
        fresh_condition_percent: 0,
        max_header_ops: 0,
        ..Config::default()
    };
    f(&mut c);
    c.check().expect("a valid config");
    c
}

/// Every instruction with a result, by the value it defines.
fn defs(p: &Program) -> HashMap<ValueId, Instr> {
    let mut m = HashMap::new();
    p.for_each_block(&mut |b| {
        for i in &b.instrs {
            if let Some(d) = i.dest {
                m.insert(d.id, i.clone());
            }
        }
    });
    m
}

/// Every instruction, in program order.
fn instrs(p: &Program) -> Vec<Instr> {
    let mut v = Vec::new();
    p.for_each_block(&mut |b| v.extend(b.instrs.iter().cloned()));
    v
}

fn is_compare(op: Op) -> bool {
    matches!(op.info().sig, Sig::Compare { .. })
}

/// Float arithmetic that only the op table emits: the output fold also
/// combines values with fadd/fmin/fmax and the f2i guard clamps with
/// fmin/fmax, unwrapped.
fn wrappable(op: Op) -> bool {
    matches!(op, Op::Fsub | Op::Fmul | Op::Ffma)
}

#[test]
fn sat_percent_100_clamps_every_float_result() {
    let float_ops = || {
        [
            "fadd", "fsub", "fmul", "ffma", "fmin", "fmax", "fsat", "flt", "bcsel", "iadd",
        ]
        .map(String::from)
        .to_vec()
    };
    let config = fixed(|c| {
        c.sat_percent = 100;
        c.ops = float_ops();
    });
    let mut wrapped = 0;
    for seed in 0..300 {
        let p = generate(seed, &config).program;
        let all = instrs(&p);
        for i in all.iter().filter(|i| wrappable(i.op)) {
            let d = i.dest.expect("an ALU op defines a value").id;
            let clamped = all.iter().any(|u| u.op == Op::Fsat && u.srcs == [d]);
            assert!(clamped, "seed {seed}: {} %{} has no fsat", i.op.name(), d.0);
            wrapped += 1;
        }
    }
    assert!(wrapped > 100, "only {wrapped} float results in 300 cases");
    // At 0 the same ops mostly stand alone (fsat is still an op of its own).
    let config = fixed(|c| c.ops = float_ops());
    let (mut alone, mut total) = (0, 0);
    for seed in 0..300 {
        let all = instrs(&generate(seed, &config).program);
        for i in all.iter().filter(|i| wrappable(i.op)) {
            let d = i.dest.expect("an ALU op defines a value").id;
            total += 1;
            alone += !all.iter().any(|u| u.op == Op::Fsat && u.srcs == [d]) as u32;
        }
    }
    assert!(alone * 10 > total * 9, "{alone} of {total} unclamped");
}

/// Whether every `if` in `list` branches on a comparison or on the `inot`
/// of one (loop exit tests are comparisons too).
fn conditions_are_fresh(list: &[CfNode], defs: &HashMap<ValueId, Instr>) -> bool {
    list.iter().all(|n| match n {
        CfNode::Block(_) => true,
        CfNode::Loop(l) => conditions_are_fresh(&l.body, defs),
        CfNode::If(f) => {
            let fresh = defs.get(&f.cond).is_some_and(|d| {
                is_compare(d.op)
                    || (d.op == Op::Inot && defs.get(&d.srcs[0]).is_some_and(|s| is_compare(s.op)))
            });
            fresh
                && conditions_are_fresh(&f.then_body, defs)
                && conditions_are_fresh(&f.else_body, defs)
        }
    })
}

#[test]
fn fresh_condition_percent_100_branches_on_comparisons() {
    let config = fixed(|c| c.fresh_condition_percent = 100);
    let mut negated = 0;
    for seed in 0..300 {
        let p = generate(seed, &config).program;
        let d = defs(&p);
        assert!(conditions_are_fresh(&p.body, &d), "seed {seed}");
        negated += instrs(&p)
            .iter()
            .filter(|i| i.op == Op::Inot && d.get(&i.srcs[0]).is_some_and(|s| is_compare(s.op)))
            .count();
    }
    assert!(negated > 0, "no negated condition in 300 cases");
    // At 0, conditions are picked from any boolean in scope.
    let config = fixed(|c| c.fresh_condition_percent = 0);
    let stale = (0..300)
        .filter(|&seed| {
            let p = generate(seed, &config).program;
            !conditions_are_fresh(&p.body, &defs(&p))
        })
        .count();
    assert!(stale > 0, "every condition was fresh at 0%");
}

/// The if conditions of `list` (nested ones included).
fn if_conditions(list: &[CfNode], out: &mut Vec<ValueId>) {
    for n in list {
        match n {
            CfNode::Block(_) => {}
            CfNode::Loop(l) => if_conditions(&l.body, out),
            CfNode::If(f) => {
                out.push(f.cond);
                if_conditions(&f.then_body, out);
                if_conditions(&f.else_body, out);
            }
        }
    }
}

#[test]
fn combined_condition_percent_100_branches_on_two_comparisons_of_one_op() {
    let config = fixed(|c| {
        c.fresh_condition_percent = 100;
        c.combined_condition_percent = 100;
    });
    let mut ifs = 0;
    let mut combiners = Vec::new();
    for seed in 0..200 {
        let p = generate(seed, &config).program;
        let all = instrs(&p);
        let mut conds = Vec::new();
        if_conditions(&p.body, &mut conds);
        for c in conds {
            // The combiner right after the two comparisons it combines.
            let k = all
                .iter()
                .position(|i| i.dest.is_some_and(|d| d.id == c))
                .expect("the condition is defined");
            // Loop exits and jumps test a single comparison of their own.
            if is_compare(all[k].op) {
                continue;
            }
            let [x, y, comb] = [&all[k - 2], &all[k - 1], &all[k]];
            assert!(
                matches!(comb.op, Op::Ior | Op::Iand),
                "seed {seed}: {comb:?}"
            );
            assert!(is_compare(x.op) && x.op == y.op, "seed {seed}");
            let ids = [x.dest.unwrap().id, y.dest.unwrap().id];
            assert_eq!(comb.srcs, ids, "seed {seed}");
            combiners.push(comb.op);
            ifs += 1;
        }
    }
    assert!(ifs > 50, "only {ifs} ifs in 200 cases");
    assert!(combiners.contains(&Op::Ior) && combiners.contains(&Op::Iand));
}

/// Counts of two-operand ops (same-size arithmetic and logic, comparisons):
/// `(echoed, twins, total)`. Echoed: the operands, up to order and one
/// `fneg`/`ineg`, are an earlier such op's; twins: the op and operands are
/// those of the previous two-operand op.
fn echoes(p: &Program) -> (u32, u32, u32) {
    let d = defs(p);
    let strip = |v: ValueId| match d.get(&v) {
        Some(i) if matches!(i.op, Op::Fneg | Op::Ineg) => i.srcs[0],
        _ => v,
    };
    let mut seen: Vec<(Op, [ValueId; 2])> = Vec::new();
    let mut last: Option<(Op, [ValueId; 2])> = None;
    let (mut echoed, mut twins, mut total) = (0, 0, 0);
    for i in instrs(p) {
        let two = matches!(
            i.op.info().sig,
            Sig::Same { srcs: 2, .. } | Sig::Compare { .. }
        );
        if !two {
            continue;
        }
        let mut pair = [strip(i.srcs[0]), strip(i.srcs[1])];
        pair.sort();
        if pair[0] == pair[1] {
            continue; // `x op x` says nothing about echoes
        }
        total += 1;
        echoed += seen.iter().any(|s| s.1 == pair) as u32;
        twins += (last == Some((i.op, pair))) as u32;
        last = Some((i.op, pair));
        seen.push((i.op, pair));
    }
    (echoed, twins, total)
}

#[test]
fn echo_percent_reuses_operand_pairs() {
    // One size and a few ops, so most ops have an earlier pair to echo.
    let rate = |percent| {
        let config = fixed(|c| {
            c.echo_percent = percent;
            c.bit_sizes = vec![32];
            c.ops = ["iadd", "isub", "ilt", "ige", "fadd", "fsub", "flt", "fge"]
                .map(String::from)
                .to_vec();
        });
        let (mut e, mut tw, mut t) = (0, 0, 0);
        for seed in 0..300 {
            let (a, b, c) = echoes(&generate(seed, &config).program);
            e += a;
            tw += b;
            t += c;
        }
        (e as f64 / t as f64, tw as f64 / t as f64)
    };
    let ((off, twins_off), (on, twins_on)) = (rate(0), rate(100));
    assert!(on > 0.4, "only {on:.2} of pairs echoed at 100%");
    assert!(
        on > off * 3.0,
        "echo rate {on:.2} at 100% vs {off:.2} at 0%"
    );
    // Echoes alone make an op repeat its predecessor about 9% of the time
    // here; a quarter of the ops also getting a twin lifts that to ~14%.
    assert!(twins_on > 0.115, "only {twins_on:.3} twins at 100%");
    assert!(
        twins_on > twins_off * 3.0,
        "twins {twins_on:.2} at 100% vs {twins_off:.2} at 0%"
    );
}

/// The share of `fsub a, b` (32-bit) directly followed by a comparison of
/// `a` and `b` (in either order) in the same block.
fn compared_subtractions(config: &Config) -> f64 {
    let (mut subs, mut compared) = (0u32, 0u32);
    for seed in 0..300 {
        generate(seed, config).program.for_each_block(&mut |b| {
            for (k, i) in b.instrs.iter().enumerate() {
                if i.op != Op::Fsub {
                    continue;
                }
                subs += 1;
                let pair = [i.srcs[0], i.srcs[1]];
                compared += b.instrs.get(k + 1).is_some_and(|c| {
                    is_compare(c.op) && (c.srcs == pair || c.srcs == [pair[1], pair[0]])
                }) as u32;
            }
        });
    }
    f64::from(compared) / f64::from(subs)
}

#[test]
fn subtractions_get_comparison_twins() {
    // brw's CMP -> ADD fold needs `cmp a, b` after the ADD computing
    // `a - b`. With echo_percent = 100 a quarter of the ops get a twin,
    // half of a subtraction's twins are such comparisons, and echoes make
    // more; at 0 neither exists and only chance pairs the two (measured:
    // 0.033 at 0, 0.495 at 100 over these 300 seeds).
    let rate = |percent| {
        compared_subtractions(&fixed(|c| {
            c.echo_percent = percent;
            c.bit_sizes = vec![32];
            c.ops = ["fsub", "flt", "fge", "feq", "fneu"]
                .map(String::from)
                .to_vec();
        }))
    };
    let (off, on) = (rate(0), rate(100));
    assert!(on > 0.3, "only {on:.3} of subtractions compared at 100%");
    assert!(on > off * 5.0, "{on:.3} at 100% vs {off:.3} at 0%");
}

/// Every loop in `list`, outer before inner.
fn loops<'a>(list: &'a [CfNode], out: &mut Vec<&'a ir::Loop>) {
    for n in list {
        match n {
            CfNode::Block(_) => {}
            CfNode::If(f) => {
                loops(&f.then_body, out);
                loops(&f.else_body, out);
            }
            CfNode::Loop(l) => {
                out.push(l);
                loops(&l.body, out);
            }
        }
    }
}

/// How many times `v` is read by instructions and phis in `list`.
fn reads_in(list: &[CfNode], v: ValueId) -> usize {
    list.iter()
        .map(|n| match n {
            CfNode::Block(b) => {
                b.instrs.iter().filter(|i| i.srcs.contains(&v)).count()
                    + b.phis
                        .iter()
                        .filter(|p| p.srcs.iter().any(|s| s.1 == v))
                        .count()
            }
            CfNode::If(f) => {
                (f.cond == v) as usize + reads_in(&f.then_body, v) + reads_in(&f.else_body, v)
            }
            CfNode::Loop(l) => reads_in(&l.body, v),
        })
        .sum()
}

/// The loop's header block.
fn header(l: &ir::Loop) -> &ir::Block {
    match &l.body[0] {
        CfNode::Block(h) => h,
        _ => panic!("a loop starts with its header block"),
    }
}

#[test]
fn header_ops_sit_before_the_exit_test_and_outlive_the_loop() {
    // Without header ops a loop header holds only its exit test.
    let config = fixed(|c| c.max_header_ops = 0);
    for seed in 0..200 {
        let p = generate(seed, &config).program;
        let mut ls = Vec::new();
        loops(&p.body, &mut ls);
        for l in ls {
            let ops: Vec<Op> = header(l).instrs.iter().map(|i| i.op).collect();
            assert_eq!(ops, [Op::Uge], "seed {seed}");
        }
    }
    // With them, the exit test still ends the header, and some header holds
    // a subgroup op whose value is read after its loop.
    let config = fixed(|c| c.max_header_ops = 3);
    let mut read_after = 0;
    for seed in 0..300 {
        let p = generate(seed, &config).program;
        let mut ls = Vec::new();
        loops(&p.body, &mut ls);
        for l in ls {
            let h = header(l);
            assert_eq!(h.instrs.last().map(|i| i.op), Some(Op::Uge), "seed {seed}");
            for i in h.instrs.iter().filter(|i| i.op.is_cross_invocation()) {
                let d = i.dest.expect("a subgroup op defines a value").id;
                read_after += (reads_in(&p.body, d) > reads_in(&l.body, d)) as u32;
            }
        }
    }
    assert!(
        read_after > 0,
        "no header subgroup value read after its loop"
    );
}
