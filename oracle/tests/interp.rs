//! The interpreter's lockstep semantics: subgroup ops see exactly the active
//! lanes (divergent ifs, loops with per-lane exits, partial last subgroups),
//! phis pick per lane, undefined behaviour and timeouts are reported.
//! Expected values are derived by hand in the comments.

use ir::{parse_program, Dispatch, Program};
use oracle::{run, InterpConfig, InterpError, Outputs};

fn prog(body: &str, outputs: usize) -> Program {
    let decls: String = (0..outputs)
        .map(|i| format!("decl_output {i} i32\n"))
        .collect();
    let text = format!("shader: t\n{decls}impl main {{\n{body}}}\n");
    parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn exec(p: &Program, n: u32, simd: u32) -> Result<Outputs, InterpError> {
    run(
        p,
        &Dispatch::default_for(p, n),
        &InterpConfig {
            simd,
            step_budget: 100_000,
        },
    )
}

fn column(o: &Outputs, slot: usize) -> Vec<Option<i64>> {
    (0..o.invocations)
        .map(|i| o.get(i, slot).map(|v| v as u32 as i32 as i64))
        .collect()
}

/// out0 = ballot(true) in the then-arm of `if odd`; out1 = b2i(elect) in the
/// else-arm; out2 = ballot(odd) after reconvergence.
const DIVERGENT: &str = "\tblock b0:
\t32 %0 = @invocation_id ()
\t32 %1 = load_const (0x00000001)
\t32 %2 = iand %0, %1
\t32 %3 = load_const (0x00000000)
\t1 %4 = ine %2, %3
\t1 %5 = load_const (true)
\tif %4 {
\t\tblock b1:
\t\t32 %6 = @ballot (%5)
\t\t@store_output (%6) (slot=0)
\t} else {
\t\tblock b2:
\t\t1 %7 = @elect ()
\t\t32 %8 = b2i %7
\t\t@store_output (%8) (slot=1)
\t}
\tblock b3:
\t32 %9 = @ballot (%4)
\t@store_output (%9) (slot=2)
";

#[test]
fn subgroup_ops_in_divergent_if_simd8_partial() {
    let p = prog(DIVERGENT, 3);
    let o = exec(&p, 13, 8).unwrap();
    // Subgroup 0 = invocations 0..7; odd lanes 1,3,5,7 -> 0b10101010 = 170.
    // Subgroup 1 = invocations 8..12 as lanes 0..4; odd invocations 9, 11 are
    // lanes 1, 3 -> 0b1010 = 10.
    let n = None;
    assert_eq!(
        column(&o, 0),
        vec![
            n,
            Some(170),
            n,
            Some(170),
            n,
            Some(170),
            n,
            Some(170),
            n,
            Some(10),
            n,
            Some(10),
            n
        ]
    );
    // elect in the else-arm: the first even lane of each subgroup (0 and 8).
    let z = Some(0);
    assert_eq!(
        column(&o, 1),
        vec![Some(1), n, z, n, z, n, z, n, Some(1), n, z, n, z]
    );
    assert_eq!(
        column(&o, 2),
        [vec![Some(170); 8], vec![Some(10); 5]].concat()
    );
}

#[test]
fn subgroup_ops_in_divergent_if_simd16() {
    let p = prog(DIVERGENT, 3);
    let o = exec(&p, 13, 16).unwrap();
    // One subgroup of 13 lanes: odd lanes 1..11 -> 0xaaa = 2730.
    assert_eq!(column(&o, 2), vec![Some(2730); 13]);
    assert_eq!(o.get(1, 0), Some(2730));
    assert_eq!(column(&o, 1)[0], Some(1));
    assert_eq!(column(&o, 1)[8], Some(0));
}

/// Each lane loops n = id & 3 times. In iteration k, every lane still in the
/// loop adds bit_count(ballot(true)) = the number of lanes still in the loop.
/// acc is defined in the header and used after the loop: each lane keeps the
/// value from the iteration it left in. After the loop, vote_all(n < 3).
const LOOP: &str = "\tblock b0:
\t32 %0 = @invocation_id ()
\t32 %1 = load_const (0x00000003)
\t32 %2 = iand %0, %1
\t32 %3 = load_const (0x00000000)
\t32 %4 = load_const (0x00000001)
\t1 %5 = load_const (true)
\tloop {
\t\tblock b1:
\t\t32 %6 = phi b0: %3, b4: %12
\t\t32 %7 = phi b0: %3, b4: %11
\t\t1 %8 = ige %6, %2
\t\tif %8 {
\t\t\tblock b2:
\t\t\tbreak
\t\t} else {
\t\t\tblock b3:
\t\t}
\t\tblock b4:
\t\t32 %9 = @ballot (%5)
\t\t32 %10 = bit_count %9
\t\t32 %11 = iadd %7, %10
\t\t32 %12 = iadd %6, %4
\t}
\tblock b5:
\t@store_output (%7) (slot=0)
\t1 %13 = ilt %2, %1
\t1 %14 = @vote_all (%13)
\t32 %15 = b2i %14
\t@store_output (%15) (slot=1)
";

#[test]
fn ballot_in_loop_with_non_uniform_exit() {
    let p = prog(LOOP, 2);
    // SIMD8, 12 invocations. Subgroup 0: n = 0,1,2,3,0,1,2,3. Lanes in the
    // loop at iteration k are those with n > k: 6, 4, 2. So acc = 0 (n=0),
    // 6 (n=1), 6+4 = 10 (n=2), 6+4+2 = 12 (n=3).
    // Subgroup 1 (invocations 8..11): n = 0,1,2,3: counts 3, 2, 1 ->
    // acc = 0, 3, 5, 6.
    let o = exec(&p, 12, 8).unwrap();
    let acc: Vec<Option<i64>> = [0, 6, 10, 12, 0, 6, 10, 12, 0, 3, 5, 6]
        .iter()
        .map(|&v| Some(v))
        .collect();
    assert_eq!(column(&o, 0), acc);
    // Every subgroup contains a lane with n = 3, so vote_all(n < 3) is false.
    assert_eq!(column(&o, 1), vec![Some(0); 12]);
    // SIMD16: one subgroup, n = (0,1,2,3) x 3: counts 9, 6, 3 -> 0, 9, 15, 18.
    let o = exec(&p, 12, 16).unwrap();
    let acc: Vec<Option<i64>> = [0, 9, 15, 18].repeat(3).into_iter().map(Some).collect();
    assert_eq!(column(&o, 0), acc);
    // 3 invocations: n = 0, 1, 2, all < 3 -> vote_all true.
    let o = exec(&p, 3, 8).unwrap();
    assert_eq!(column(&o, 1), vec![Some(1); 3]);
}

/// A loop-header phi with two back edges (fall-through and continue):
/// i counts up to 5; odd i continue, even i add i to s.
const CONTINUE: &str = "\tblock b0:
\t32 %0 = load_const (0x00000000)
\t32 %1 = load_const (0x00000001)
\t32 %2 = load_const (0x00000005)
\t32 %20 = @invocation_id ()
\tloop {
\t\tblock b1:
\t\t32 %3 = phi b0: %0, b4: %6, b6: %6
\t\t32 %4 = phi b0: %20, b4: %4, b6: %9
\t\t1 %5 = ige %3, %2
\t\tif %5 {
\t\t\tblock b2:
\t\t\tbreak
\t\t} else {
\t\t\tblock b3:
\t\t}
\t\tblock b7:
\t\t32 %6 = iadd %3, %1
\t\t32 %7 = iand %3, %1
\t\t1 %8 = ine %7, %0
\t\tif %8 {
\t\t\tblock b4:
\t\t\tcontinue
\t\t} else {
\t\t\tblock b5:
\t\t}
\t\tblock b6:
\t\t32 %9 = iadd %4, %3
\t}
\tblock b8:
\t@store_output (%4) (slot=0)
";

#[test]
fn continue_and_fallthrough_back_edges() {
    let p = prog(CONTINUE, 1);
    // s starts at the invocation id and adds the even i in 0..5: 0 + 2 + 4 = 6.
    let o = exec(&p, 3, 8).unwrap();
    assert_eq!(column(&o, 0), vec![Some(6), Some(7), Some(8)]);
}

#[test]
fn division_by_zero_is_an_invalid_case_naming_the_lane() {
    // 10 / (id - 5): invocation 5 divides by zero; at SIMD8 it is lane 5 of
    // subgroup 0, and the error names the global invocation.
    let body = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = load_const (0x00000005)\n\t32 %2 = isub %0, %1\n\t32 %3 = load_const (0x0000000a)\n\t32 %4 = idiv %3, %2\n\t@store_output (%4) (slot=0)\n";
    let p = prog(body, 1);
    assert_eq!(
        exec(&p, 4, 8).map(|o| column(&o, 0)),
        Ok(vec![Some(-2), Some(-2), Some(-3), Some(-5)])
    );
    assert_eq!(
        exec(&p, 9, 8),
        Err(InterpError::InvalidCase {
            op: "idiv",
            lane: 5,
            reason: "division by zero"
        })
    );
}

#[test]
fn read_invocation_rules() {
    // Uniform index 2 of an active lane: every lane reads lane 2's id.
    let ok = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = load_const (0x00000002)\n\t32 %2 = @read_invocation (%0, %1)\n\t@store_output (%2) (slot=0)\n";
    let o = exec(&prog(ok, 1), 8, 8).unwrap();
    assert_eq!(column(&o, 0), vec![Some(2); 8]);
    let o = exec(&prog(ok, 1), 10, 16).unwrap();
    assert_eq!(column(&o, 0), vec![Some(2); 10]);
    // 10 invocations at SIMD8: the second subgroup has lanes 0 and 1 only
    // (invocations 8, 9), so lane 2 is not active there.
    assert_eq!(
        exec(&prog(ok, 1), 10, 8),
        Err(InterpError::InvalidCase {
            op: "read_invocation",
            lane: 8,
            reason: "the lane read is not active"
        })
    );
    // A non-uniform index is undefined.
    let bad = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %2 = @read_invocation (%0, %0)\n\t@store_output (%2) (slot=0)\n";
    assert_eq!(
        exec(&prog(bad, 1), 4, 8),
        Err(InterpError::InvalidCase {
            op: "read_invocation",
            lane: 1,
            reason: "the lane index differs between active lanes"
        })
    );
    // Reading lane 5 when only 3 lanes exist.
    let inactive = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = load_const (0x00000005)\n\t32 %2 = @read_invocation (%0, %1)\n\t@store_output (%2) (slot=0)\n";
    assert_eq!(
        exec(&prog(inactive, 1), 3, 8),
        Err(InterpError::InvalidCase {
            op: "read_invocation",
            lane: 0,
            reason: "the lane read is not active"
        })
    );
}

#[test]
fn quad_op_rules() {
    // quad_swap_diagonal of the id: lane l reads l ^ 3.
    let swap = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = @quad_swap_diagonal (%0)\n\t@store_output (%1) (slot=0)\n";
    let o = exec(&prog(swap, 1), 8, 8).unwrap();
    assert_eq!(column(&o, 0), [3, 2, 1, 0, 7, 6, 5, 4].map(Some).to_vec());
    // Six invocations: lanes 4 and 5 read 7 and 6, which do not exist.
    assert_eq!(
        exec(&prog(swap, 1), 6, 8),
        Err(InterpError::InvalidCase {
            op: "quad_swap_diagonal",
            lane: 4,
            reason: "the lane read is not active"
        })
    );
    // quad_broadcast with index 4, or an index that differs between lanes.
    let four = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = load_const (0x00000004)\n\t32 %2 = @quad_broadcast (%0, %1)\n\t@store_output (%2) (slot=0)\n";
    assert_eq!(
        exec(&prog(four, 1), 4, 8),
        Err(InterpError::InvalidCase {
            op: "quad_broadcast",
            lane: 0,
            reason: "the lane index is 4 or more"
        })
    );
    let own = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = @quad_broadcast (%0, %0)\n\t@store_output (%1) (slot=0)\n";
    assert_eq!(
        exec(&prog(own, 1), 4, 8),
        Err(InterpError::InvalidCase {
            op: "quad_broadcast",
            lane: 1,
            reason: "the lane index differs between active lanes"
        })
    );
}

#[test]
fn derivatives_need_their_whole_quad() {
    // ddx_coarse of the id as a float bit pattern would need float inputs;
    // the id itself (a small integer's bits are a denormal float) is fine:
    // the difference of lanes 1 and 0 of 0x1 and 0x0 as f32 denormals is
    // the denormal 0x1 (denormals are preserved).
    let body = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = @ddx_coarse (%0)\n\t@store_output (%1) (slot=0)\n";
    let o = exec(&prog(body, 1), 4, 8).unwrap();
    assert_eq!(column(&o, 0), vec![Some(1); 4]);
    // Six invocations: the quad of lanes 4-7 is not whole.
    assert_eq!(
        exec(&prog(body, 1), 6, 8),
        Err(InterpError::InvalidCase {
            op: "ddx_coarse",
            lane: 4,
            reason: "a lane of the quad is not active (non-uniform control flow)"
        })
    );
    // In an if taken by lane 0 only, lane 0's quad is split.
    let split = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t32 %1 = load_const (0x00000000)\n\t1 %2 = ieq %0, %1\n\tif %2 {\n\t\tblock b1:\n\t\t32 %3 = @ddy_fine (%0)\n\t\t@store_output (%3) (slot=0)\n\t} else {\n\t\tblock b2:\n\t}\n\tblock b3:\n";
    assert_eq!(
        exec(&prog(split, 1), 4, 8),
        Err(InterpError::InvalidCase {
            op: "ddy_fine",
            lane: 0,
            reason: "a lane of the quad is not active (non-uniform control flow)"
        })
    );
    // An if whose condition is the same within each quad (id < 4) keeps
    // quad 0 whole: ddy_fine of the id there is 2 - 0 and 3 - 1, the
    // denormal 0x2 in every lane.
    let quad_uniform = split.replace(
        "\t32 %1 = load_const (0x00000000)\n\t1 %2 = ieq %0, %1\n",
        "\t32 %1 = load_const (0x00000004)\n\t1 %2 = ilt %0, %1\n",
    );
    let o = exec(&prog(&quad_uniform, 1), 8, 8).unwrap();
    assert_eq!(
        column(&o, 0),
        vec![Some(2), Some(2), Some(2), Some(2), None, None, None, None]
    );
}

#[test]
fn step_budget_gives_timeout() {
    // The exit condition is never true.
    let body = "\tblock b0:\n\t32 %0 = @invocation_id ()\n\t1 %1 = ilt %0, %0\n\tloop {\n\t\tblock b1:\n\t\tif %1 {\n\t\t\tblock b2:\n\t\t\tbreak\n\t\t} else {\n\t\t\tblock b3:\n\t\t}\n\t\tblock b4:\n\t}\n\tblock b5:\n";
    let p = prog(body, 0);
    assert_eq!(
        run(
            &p,
            &Dispatch::default_for(&p, 8),
            &InterpConfig {
                simd: 8,
                step_budget: 500
            }
        ),
        Err(InterpError::Timeout { steps: 500 })
    );
}

#[test]
fn subgroup_invocation_and_ids_in_partial_subgroups() {
    let body = "\tblock b0:\n\t32 %0 = @subgroup_invocation ()\n\t@store_output (%0) (slot=0)\n\t32 %1 = @invocation_id ()\n\t@store_output (%1) (slot=1)\n";
    let o = exec(&prog(body, 2), 11, 8).unwrap();
    let lane: Vec<Option<i64>> = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2]
        .iter()
        .map(|&v| Some(v))
        .collect();
    assert_eq!(column(&o, 0), lane);
    assert_eq!(column(&o, 1), (0..11).map(Some).collect::<Vec<_>>());
}

#[test]
fn bad_dispatches_are_rejected() {
    let p = prog("\tblock b0:\n", 1);
    let d = Dispatch {
        invocations: 0,
        inputs: vec![],
        uniforms: vec![],
    };
    assert_eq!(
        run(&p, &d, &InterpConfig::default()),
        Err(InterpError::BadDispatch(
            "invocations must be in 1..=1024, not 0".into()
        ))
    );
    let d = Dispatch {
        invocations: 4,
        inputs: vec![vec![1, 2]],
        uniforms: vec![],
    };
    assert_eq!(
        run(&p, &d, &InterpConfig::default()),
        Err(InterpError::BadDispatch(
            "the program declares 0 input slots but the dispatch gives 1".into()
        ))
    );
    let d = Dispatch::default_for(&p, 4);
    assert_eq!(
        run(
            &p,
            &d,
            &InterpConfig {
                simd: 4,
                step_budget: 10
            }
        ),
        Err(InterpError::BadDispatch(
            "SIMD width must be 8, 16 or 32, not 4".into()
        ))
    );
}
