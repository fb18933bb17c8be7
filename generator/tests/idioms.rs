//! The idiom knobs (`echo_percent`, `twin_percent`, `sat_percent`,
//! `fresh_condition_percent`, `combined_condition_percent`,
//! `max_header_ops`): each test reads the generated IR directly and checks
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
        twin_percent: 0,
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

/// Two-operand ops on one size: most have an earlier pair to echo.
const PAIR_OPS: [&str; 8] = ["iadd", "isub", "ilt", "ige", "fadd", "fsub", "flt", "fge"];

/// `(echoed, twins)` as shares of the two-operand ops of 300 cases.
fn echo_and_twin_rates(f: impl Fn(&mut Config)) -> (f64, f64) {
    let config = fixed(|c| {
        c.bit_sizes = vec![32];
        c.ops = PAIR_OPS.map(String::from).to_vec();
        f(c);
    });
    let (mut e, mut tw, mut t) = (0, 0, 0);
    for seed in 0..300 {
        let (a, b, c) = echoes(&generate(seed, &config).program);
        e += a;
        tw += b;
        t += c;
    }
    (e as f64 / t as f64, tw as f64 / t as f64)
}

#[test]
fn echo_percent_reuses_operand_pairs() {
    let ((off, _), (on, _)) = (
        echo_and_twin_rates(|c| c.echo_percent = 0),
        echo_and_twin_rates(|c| c.echo_percent = 100),
    );
    assert!(on > 0.4, "only {on:.2} of pairs echoed at 100%");
    assert!(
        on > off * 3.0,
        "echo rate {on:.2} at 100% vs {off:.2} at 0%"
    );
}

#[test]
fn twin_percent_follows_ops_with_twins() {
    // At 100 every arithmetic op here (iadd, isub, fadd; fsub half the
    // time) is followed by its twin, which is not twinned again; the
    // comparisons get none: about 0.3 of the op table's two-operand ops
    // repeat their predecessor. The output fold's and the loops' own
    // two-operand ops get no twins and dilute that (measured over these
    // seeds: 0.187 at 100, 0.006 at 0).
    let ((_, off), (_, on)) = (
        echo_and_twin_rates(|c| c.twin_percent = 0),
        echo_and_twin_rates(|c| c.twin_percent = 100),
    );
    assert!(on > 0.15, "only {on:.3} twins at 100%");
    assert!(on > off * 10.0, "twins {on:.3} at 100% vs {off:.3} at 0%");
}

/// The raw values of `fmul` twins (the second of two `fmul`s on one
/// operand pair, up to order and a negation) and how many of them are read
/// only by their `fsat`.
fn clamped_twins(p: &Program) -> (u32, u32) {
    let all = instrs(p);
    let d = defs(p);
    let strip = |v: ValueId| match d.get(&v) {
        Some(i) if i.op == Op::Fneg => i.srcs[0],
        _ => v,
    };
    let key = |i: &Instr| {
        let mut k = [strip(i.srcs[0]), strip(i.srcs[1])];
        k.sort();
        k
    };
    let muls: Vec<&Instr> = all.iter().filter(|i| i.op == Op::Fmul).collect();
    let (mut twins, mut only_clamp) = (0, 0);
    for w in muls.windows(2) {
        if key(w[0]) != key(w[1]) {
            continue;
        }
        let v = w[1].dest.expect("fmul defines a value").id;
        let readers: Vec<&Instr> = all.iter().filter(|u| u.srcs.contains(&v)).collect();
        if readers.iter().any(|u| u.op == Op::Fsat) {
            twins += 1;
            only_clamp += (readers.len() == 1) as u32;
        }
    }
    (twins, only_clamp)
}

#[test]
fn a_clamped_twin_is_usually_its_clamps_only_reader() {
    // As the first op's raw value, the twin's leaves the scope three
    // times in four, so saturate propagation can move both clamps into
    // their MULs (the shape `sat(a * b)`, `sat(-a * b)`).
    let config = fixed(|c| {
        c.twin_percent = 100;
        c.sat_percent = 100;
        c.bit_sizes = vec![32];
        c.ops = ["fmul", "fneg", "fsat", "fadd"].map(String::from).to_vec();
    });
    let (mut twins, mut only) = (0, 0);
    for seed in 0..300 {
        let (t, o) = clamped_twins(&generate(seed, &config).program);
        twins += t;
        only += o;
    }
    assert!(twins > 100, "only {twins} clamped twins");
    // Left in scope, a raw twin has another reader about 30% of the time
    // (measured with the scope unchanged: 1316 of 1893 read only by the
    // clamp); a quarter of that is 0.075.
    assert!(
        only * 100 > twins * 85,
        "{only} of {twins} read only by the clamp"
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
    // `a - b`. With twin_percent = 100 every subtraction gets a twin, half
    // of them such comparisons; at 0 only chance pairs the two.
    let rate = |percent| {
        compared_subtractions(&fixed(|c| {
            c.twin_percent = percent;
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

/// For every loop in `list` (recursively): its header's cross-invocation
/// ops defined for any active lanes, and how many of them the block after
/// the loop repeats on the same operands.
fn convergence_twins(list: &[CfNode], found: &mut (u32, u32)) {
    for (k, n) in list.iter().enumerate() {
        match n {
            CfNode::Block(_) => {}
            CfNode::If(f) => {
                convergence_twins(&f.then_body, found);
                convergence_twins(&f.else_body, found);
            }
            CfNode::Loop(l) => {
                convergence_twins(&l.body, found);
                let after = match list.get(k + 1) {
                    Some(CfNode::Block(b)) => b.instrs.as_slice(),
                    _ => &[],
                };
                let cross = header(l)
                    .instrs
                    .iter()
                    .filter(|i| i.op.is_cross_invocation() && !i.op.may_be_undefined());
                for i in cross {
                    found.0 += 1;
                    found.1 += after.iter().any(|a| a.op == i.op && a.srcs == i.srcs) as u32;
                }
            }
        }
    }
}

#[test]
fn twin_percent_repeats_header_subgroup_ops_after_the_loop() {
    let twins = |percent| {
        let config = fixed(|c| {
            c.max_header_ops = 4;
            c.twin_percent = percent;
            c.ops = ["ballot", "vote_any", "vote_all", "iadd", "ilt", "ior"]
                .map(String::from)
                .to_vec();
        });
        let mut found = (0, 0);
        for seed in 0..300 {
            convergence_twins(&generate(seed, &config).program.body, &mut found);
        }
        found
    };
    // At 100 every such header op has its twin right after the loop (the
    // ops here are valid anywhere); at 0 only chance repeats one (a vote
    // or ballot of a value picked again).
    let (ops, repeated) = twins(100);
    assert!(ops > 50, "only {ops} header subgroup ops");
    assert_eq!(repeated, ops);
    let (ops, repeated) = twins(0);
    assert!(ops > 50, "only {ops} header subgroup ops");
    assert!(repeated * 10 < ops, "{repeated} of {ops} repeated at 0");
}
