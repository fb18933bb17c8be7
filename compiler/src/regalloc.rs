//! Register allocation: maps every vgrf onto `size` consecutive physical
//! GRFs in `[payload_grfs, 128)` by linear scan over live intervals.
//!
//! # Intervals
//! A vgrf's interval is the convex hull (in instruction order) of every
//! instruction reading or writing it, every block entry where it is live
//! (`brw::liveness`, lane or raw view) and possibly defined, and every block
//! exit where it is live and possibly defined. A hull in *linear* order also
//! covers the other arm of an IF that the value skips, which is what NoMask
//! writes in that arm need. Two intervals conflict when they share an
//! instruction (a value dying at an instruction never shares a register
//! with one born there). `crate::live_intervals` makes them, and keeps
//! them up to date across the spills of one allocation instead of
//! computing liveness again after each.
//!
//! # Loops
//! For every loop `[start, WHILE]` a vgrf whose hull touches the loop is
//! extended over the whole loop when it is live at the loop's first
//! instruction and possibly defined there (defined before the loop and used
//! inside, or read in the loop before it is written: loop-carried), or when
//! it is live just after the WHILE (defined in the loop and used after it:
//! channels that left early keep their value while the others iterate).
//!
//! # Allocation
//! Intervals are taken in order of their start; each gets the lowest run
//! of `size` free registers. If that fails (fragmentation), a second
//! attempt places multi-GRF vgrfs from the top of the file downwards. If
//! both fail the result is `CompileError::CompilerLimit` naming the
//! number of registers needed at the worst instruction. Vgrfs that no
//! instruction touches get no register. Every GRF operand, including the
//! registers inside `eu::Message`s, is rewritten; an operand that strays
//! out of its vgrf is reported as invalid EU code.

/// Register allocation's decision points (`crate::coverage`).
#[path = "regalloc_cov.rs"]
pub mod cov;

use crate::brw::liveness::Liveness;
use crate::bugs::{Bug, BugSet};
use crate::coverage::hit;
pub use crate::live_intervals::{intervals, Interval};
use crate::live_intervals::{intervals_and_parts, Tracked};
use crate::spill::{self, Spiller};
use crate::vir::{VProgram, GRF_BYTES};
use crate::{CompileError, StageId};
use eu::{DstKind, Message, SrcKind};

/// Physical GRFs on the modelled machine.
const PHYS_GRFS: u32 = 128;

/// Whether brw's `has_source_and_destination_hazard` would ask for its
/// destination to interfere with its sources: a compressed ALU instruction
/// (more channels than it executes at once).
fn has_hazard_shape(i: &eu::Instruction) -> bool {
    i.op != eu::Opcode::Send && !i.op.is_cf() && i.exec_size > i.pass_width()
}

/// A source a later pass of a compressed instruction may read from the
/// destination's first register: a scalar region, or a type narrower than
/// a dword (brw's list: stride 0, W, UW, B, UB).
fn hazard_source(s: &eu::Src) -> bool {
    (s.region.v == 0 && s.region.h == 0) || s.ty.size() < 4
}

/// Where brw's register allocator may put a compressed instruction's
/// destination when, as with the injected bug, nothing keeps it off its
/// sources: the register of a scalar or word source that dies there.
/// Returns a preferred vgrf per vgrf (the dying source) and shortens that
/// source's interval to end before the instruction.
fn hazard_hints(p: &VProgram, iv: &mut [Interval], bugs: BugSet) -> Vec<Option<usize>> {
    if bugs == BugSet::NONE {
        return Vec::new();
    }
    let mut hints = vec![None; iv.len()];
    // Injected bug (BUGS.md: regalloc-compressed-hazard): brw's intervals
    // let a destination reuse a source that dies at the instruction, and
    // only the explicit interference of has_source_and_destination_hazard
    // keeps a compressed instruction's destination off a scalar or word
    // source that its later pass still reads. The bug drops that
    // interference: such a source's interval ends before the instruction.
    for (i, inst) in p.insts.iter().enumerate() {
        if !has_hazard_shape(inst) {
            continue;
        }
        let dst_vgrf = match inst.dst.kind {
            DstKind::Grf { nr, .. } => p.vgrf_of(nr),
            _ => None,
        };
        for s in &inst.srcs {
            let SrcKind::Grf { nr, .. } = s.kind else {
                continue;
            };
            let Some(v) = p.vgrf_of(nr).filter(|&v| Some(v) != dst_vgrf) else {
                continue;
            };
            if let Some((lo, hi)) = iv[v] {
                if hi == i && lo < i && hazard_source(s) && bugs.has(Bug::RegallocCompressedHazard)
                {
                    iv[v] = Some((lo, i - 1));
                    if let Some(d) = dst_vgrf {
                        hints[d] = Some(v);
                    }
                }
            }
        }
    }
    hints
}

/// The vgrfs with an interval, in the order [`scan`] takes them: by start,
/// then end, then index.
fn scan_order(iv: &[Option<(usize, usize)>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..iv.len()).filter(|&v| iv[v].is_some()).collect();
    order.sort_by_key(|&v| iv[v]);
    order
}

/// First-fit linear scan of the vgrfs in `order` ([`scan_order`]);
/// `top_down_multi` places multi-GRF vgrfs from the top of the file.
/// Returns the first physical register of each vgrf.
///
/// The registers are bit masks: a register is free for an interval
/// starting at `lo` when every interval placed in it ended before `lo`
/// (intervals are taken in order of their start, so one that ended stays
/// ended).
fn scan(
    p: &VProgram,
    iv: &[Option<(usize, usize)>],
    order: &[usize],
    hints: &[Option<usize>],
    top_down_multi: bool,
) -> Result<Vec<Option<u32>>, usize> {
    use std::cmp::Reverse;
    // Registers not in use, registers ever used, and the placed intervals
    // still running: (end, first register, size), earliest end first.
    let mut free = !0u128;
    let mut ever = 0u128;
    let mut running = std::collections::BinaryHeap::new();
    let mut base = vec![None; iv.len()];
    let (mut multi, mut reused) = (false, false);
    for &v in order {
        let Some((lo, hi)) = iv[v] else { continue };
        let size = p.vgrfs[v].size;
        if p.payload_grfs + size > PHYS_GRFS {
            hit(cov::VGRF_TOO_LARGE);
            return Err(v);
        }
        while let Some(&Reverse((end, r, n))) = running.peek() {
            if end >= lo {
                break;
            }
            running.pop();
            free |= run_mask(r, n);
        }
        // Bit r: registers r..r + size are all free (and inside the file).
        let mut fits = free & !run_mask(0, p.payload_grfs);
        for k in 1..size {
            fits &= free >> k;
        }
        let hinted = hints
            .get(v)
            .copied()
            .flatten()
            .and_then(|h| base[h])
            .filter(|&r: &u32| {
                r + size <= PHYS_GRFS && free >> r & run_mask(0, size) == run_mask(0, size)
            });
        let r = match hinted {
            Some(r) => r,
            None if fits == 0 => return Err(v),
            None if top_down_multi && size > 1 => 127 - fits.leading_zeros(),
            None => fits.trailing_zeros(),
        };
        multi |= size > 1;
        reused |= ever >> r & 1 == 1;
        let placed = run_mask(r, size);
        free &= !placed;
        ever |= placed;
        running.push(Reverse((hi, r, size)));
        base[v] = Some(r);
    }
    if multi {
        hit(cov::MULTI_GRF);
    }
    if reused {
        hit(cov::REUSED);
    }
    Ok(base)
}

/// The bits of registers `first..first + n` (n ≤ 128).
fn run_mask(first: u32, n: u32) -> u128 {
    let ones = if n >= 128 { !0 } else { (1u128 << n) - 1 };
    ones << first
}

/// The register pressure of a program on virtual registers: the most GRFs
/// live at one instruction (the live intervals register allocation uses),
/// plus the thread payload, which is always reserved.
pub fn register_pressure(p: &VProgram) -> u32 {
    match Liveness::compute(p) {
        Some(live) => p.payload_grfs + pressure(p, &intervals(p, &live, BugSet::NONE)).0,
        None => p.payload_grfs,
    }
}

/// The most registers live at one instruction, and where.
fn pressure(p: &VProgram, iv: &[Option<(usize, usize)>]) -> (u32, usize) {
    let n = p.insts.len();
    let mut delta = vec![0i64; n + 1];
    for (v, x) in iv.iter().enumerate() {
        if let Some((lo, hi)) = x {
            delta[*lo] += p.vgrfs[v].size as i64;
            delta[hi + 1] -= p.vgrfs[v].size as i64;
        }
    }
    let (mut cur, mut best, mut at) = (0i64, 0i64, 0usize);
    for (i, d) in delta.iter().enumerate().take(n) {
        cur += d;
        if cur > best {
            best = cur;
            at = i;
        }
    }
    (best as u32, at)
}

/// Broken control flow, found by register allocation.
fn cf_invalid(e: eu::cf::CfError) -> CompileError {
    CompileError::InvalidEu {
        stage: StageId::Regalloc,
        rule: e.rule,
        index: e.index,
        text: e.msg,
    }
}

fn invalid(index: usize, text: String) -> CompileError {
    CompileError::InvalidEu {
        stage: StageId::Regalloc,
        rule: "grf-bounds",
        index,
        text,
    }
}

/// Maps virtual registers onto the 128 physical GRFs, spilling only what
/// does not fit.
pub fn allocate(p: &VProgram, bugs: BugSet) -> Result<eu::Program, CompileError> {
    allocate_with(p, bugs, false)
}

/// Maps virtual registers onto the 128 physical GRFs; with `spill_all`,
/// every value that can be spilled is spilled first (Mesa's
/// `INTEL_DEBUG=spill_fs`: brw's `assign_regs(.., spill_all)`).
pub fn allocate_with(
    p: &VProgram,
    bugs: BugSet,
    spill_all: bool,
) -> Result<eu::Program, CompileError> {
    allocate_assigned(p, bugs, spill_all).map(|(program, _)| program)
}

/// [`allocate_with`], and the program the registers were assigned in when
/// it is not `p` (`p` with spill code). Instruction k of the physical
/// program is instruction k of that program with only its GRF numbers
/// changed ([`eu::Instruction::unplaced`] gives the same form).
pub fn allocate_assigned(
    p: &VProgram,
    bugs: BugSet,
    spill_all: bool,
) -> Result<(eu::Program, Option<VProgram>), CompileError> {
    crate::brw::cfg::Cfg::of(&p.insts).map_err(cf_invalid)?;
    let reg_end = p.reg_end();
    let acc = crate::brw::ops::footprints(&p.insts);
    for (i, (inst, a)) in p.insts.iter().zip(acc.iter()).enumerate() {
        if a.reads
            .iter()
            .map(|r| r.reg)
            .chain(a.writes.iter().map(|w| w.0))
            .any(|r| r >= reg_end)
        {
            hit(cov::INVALID_OUTSIDE);
            return Err(invalid(
                i,
                format!(
                    "{}: register outside every vgrf",
                    eu::print_instruction(inst)
                ),
            ));
        }
    }
    let mut spiller = Spiller::default();
    let mut spilled: Option<VProgram> = None;
    // The spill costs of the vgrfs that may be spilled, worked out once:
    // spilling one renames its own operands to new temporaries (which may
    // not be spilled) and adds scratch messages, which are not control
    // flow, so every other vgrf keeps its operands at the same loop and
    // if depths, and its cost (debug builds check it).
    let mut costs: Option<Vec<f64>> = None;
    if spill_all {
        // Every vgrf brw's choose_spill_reg would offer, in its order of
        // benefit per cost, until none is left.
        // Like brw, on the costs and intervals of the program before any
        // of them is spilled.
        let live = Liveness::compute(p).ok_or_else(|| invalid(0, "liveness failed".into()))?;
        let iv = intervals(p, &live, BugSet::NONE);
        let order = spill::choose_all(p, &iv);
        if !order.is_empty() {
            let mut q = p.clone();
            spiller.spill(&mut q, &order, bugs).map_err(cf_invalid)?;
            spilled = Some(q);
        }
    }
    // The intervals, kept up to date across the spills of the loop below
    // from the first one on (`live_intervals`); None while (or when) they
    // are computed from each program's liveness.
    let mut tracked: Option<Tracked> = None;
    loop {
        let q = spilled.as_ref().unwrap_or(p);
        let (mut iv, fresh) = match &tracked {
            Some(t) => (t.intervals(bugs), None),
            None => {
                let live =
                    Liveness::compute(q).ok_or_else(|| invalid(0, "liveness failed".into()))?;
                let (iv, parts) = intervals_and_parts(q, &live, bugs);
                (iv, Some((parts, live.cfg.clone())))
            }
        };
        let hints = hazard_hints(q, &mut iv, bugs);
        let order = scan_order(&iv);
        let failed = match scan(q, &iv, &order, &hints, false) {
            Ok(b) => {
                hit(cov::FIRST_FIT);
                return Ok((assign(q, &b)?, spilled));
            }
            Err(v) => v,
        };
        if let Ok(b) = scan(q, &iv, &order, &hints, true) {
            hit(cov::TOP_DOWN);
            return Ok((assign(q, &b)?, spilled));
        }
        // Spill one of the values live where the first scan failed.
        let at = iv[failed].map_or(0, |(lo, _)| lo);
        let live_there: Vec<usize> = (0..iv.len())
            .filter(|&v| iv[v].is_some_and(|(lo, hi)| lo <= at && at <= hi))
            .collect();
        let no_spill_from = spiller.no_spill_from.unwrap_or(usize::MAX);
        let cost = costs.get_or_insert_with(|| spill::spill_costs(q));
        #[cfg(debug_assertions)]
        {
            let fresh = spill::spill_costs(q);
            for &v in live_there.iter().filter(|&&v| v < no_spill_from) {
                assert_eq!(
                    cost[v].to_bits(),
                    fresh[v].to_bits(),
                    "spill cost of vgrf {v}"
                );
            }
        }
        if let Some(v) = spill::choose(q, &iv, &live_there, no_spill_from, cost) {
            let mut next = q.clone();
            let map = spiller.spill(&mut next, &[v], bugs).map_err(cf_invalid)?;
            if let Some((parts, cfg)) = fresh {
                tracked = Tracked::new(q, parts, cfg);
            }
            // (A spill always makes the header; without one the kept
            // intervals would be stale, so they are dropped.)
            match (&mut tracked, spiller.header()) {
                (Some(t), Some(header)) => t.after_spill(&next, &[v], &map, header),
                _ => tracked = None,
            }
            spilled = Some(next);
            continue;
        }
        hit(cov::NOTHING_TO_SPILL);
        let (need, at) = pressure(q, &iv);
        let avail = PHYS_GRFS.saturating_sub(q.payload_grfs);
        let why = if need > avail {
            hit(cov::LIMIT_PRESSURE);
            ""
        } else {
            hit(cov::LIMIT_FRAGMENTED);
            " (fragmented)"
        };
        return Err(CompileError::CompilerLimit {
            stage: StageId::Regalloc,
            message: format!(
                "register allocation needs {need} GRFs at instruction {at} but only {avail} are free (g{}..g127) and nothing live there can be spilled{why}",
                q.payload_grfs
            ),
        });
    }
}

/// Rewrites every register operand of `p` to the physical registers of
/// `base` (the first register of each vgrf).
fn assign(p: &VProgram, base: &[Option<u32>]) -> Result<eu::Program, CompileError> {
    // Maps the registers [first, last] of one operand.
    let payload_read = std::cell::Cell::new(false);
    let owners = p.vgrf_owners();
    let map = |i: usize, first: u32, last: u32| -> Result<u32, CompileError> {
        if last < p.payload_grfs {
            payload_read.set(true);
            return Ok(first);
        }
        let v = owners.of(first).filter(|&v| owners.of(last) == Some(v));
        let Some(v) = v else {
            hit(cov::INVALID_CROSSES);
            return Err(invalid(
                i,
                format!(
                    "{}: operand g{first}..g{last} crosses a vgrf boundary",
                    eu::print_instruction(&p.insts[i])
                ),
            ));
        };
        let b = base[v].ok_or_else(|| invalid(i, "unallocated vgrf".into()))?;
        Ok(b + first - p.vgrfs[v].first)
    };
    let span = |bytes: Option<(u32, u32)>| bytes.map(crate::vir::regs_of);
    // Copied whole, then rewritten in place.
    let mut out = p.insts.to_vec();
    for (i, n) in out.iter_mut().enumerate() {
        if let DstKind::Grf { nr, sub } = n.dst.kind {
            let (f, l) = span(crate::vir::dst_bytes(&n.dst, n.exec_size)).unwrap_or((nr, nr));
            n.dst.kind = DstKind::Grf {
                nr: map(i, f, l)?,
                sub,
            };
        }
        for s in &mut n.srcs {
            if let SrcKind::Grf { nr, sub } = s.kind {
                let (f, l) = span(crate::vir::src_bytes(s, n.exec_size)).unwrap_or((nr, nr));
                s.kind = SrcKind::Grf {
                    nr: map(i, f, l)?,
                    sub,
                };
            }
        }
        if let Some(m) = &mut n.msg {
            let ops = m.operands(n.exec_size, GRF_BYTES);
            let end = matches!(m, Message::End { .. });
            // Written operands first (the order errors are reported in).
            let mut order: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].written).collect();
            order.extend((0..ops.len()).filter(|&k| !ops[k].written));
            let mut regs = m.grfs_mut();
            for k in order {
                let o = ops[k];
                let mapped = map(i, o.reg, o.reg + o.regs - 1);
                // The end message ignores its payload's content.
                *regs[k] = if end { mapped.unwrap_or(0) } else { mapped? };
            }
        }
    }
    if payload_read.get() {
        hit(cov::PAYLOAD_OPERAND);
    }
    Ok(eu::Program { insts: out })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{outputs, vprog};
    use crate::vir::VProgram;
    use eu::{Dispatch, Dst, Instruction, MachineConfig, Opcode, RegType, Region, SimConfig, Src};

    /// Runs the allocated program on the real register file.
    fn physical_outputs(
        p: &VProgram,
        prog: &eu::Program,
        n: u32,
        inputs: &dyn Fn(u32) -> u64,
    ) -> Vec<Vec<Option<eu::Stored>>> {
        eu::validate(prog, &MachineConfig::GFX11).unwrap_or_else(|v| panic!("{v:?}"));
        let d = Dispatch {
            invocations: n,
            simd: p.simd,
            input_slots: 1,
            output_slots: 1,
            inputs: (0..n).map(|k| vec![inputs(k)]).collect(),
            uniforms: vec![],
        };
        eu::run(prog, &d, &SimConfig::default()).unwrap().outputs
    }

    /// SIMD8: x = input; v_k = x + k for k < count (all live at once); then
    /// a chain of sums; the result is stored. Pressure: count + 2 GRFs.
    fn pressure_program(count: u32) -> VProgram {
        let mut p = VProgram::new(8, 1, 1, 0);
        let ud = |nr| Src::grf(nr, 0, RegType::UD, Region::new(8, 8, 1));
        let dst = |nr| Dst::grf(nr, 0, RegType::UD, 1);
        let a = p.alloc(32);
        let x = p.alloc(32);
        p.insts.push(Instruction::alu(
            Opcode::Shl,
            8,
            dst(a),
            &[ud(1), Src::imm(3, RegType::UD)],
        ));
        let mut ld = Instruction::new(Opcode::Send, 8);
        ld.msg = Some(eu::Message::Load {
            size: eu::MsgSize::B32,
            dst: x,
            addr: a,
        });
        p.insts.push(ld);
        let vs: Vec<u32> = (0..count).map(|_| p.alloc(32)).collect();
        for (k, &v) in vs.iter().enumerate() {
            p.insts.push(Instruction::alu(
                Opcode::Add,
                8,
                dst(v),
                &[ud(x), Src::imm(k as u64, RegType::UD)],
            ));
        }
        let mut acc = vs[0];
        for &v in &vs[1..] {
            let s = p.alloc(32);
            p.insts
                .push(Instruction::alu(Opcode::Add, 8, dst(s), &[ud(acc), ud(v)]));
            acc = s;
        }
        let mut st = Instruction::new(Opcode::Send, 8);
        st.msg = Some(eu::Message::Store {
            size: eu::MsgSize::B32,
            addr: a,
            data: acc,
        });
        st.eot = true;
        p.insts.push(st);
        p
    }

    #[test]
    fn register_pressure_is_the_peak_of_live_grfs_plus_the_payload() {
        // The doc of pressure_program: count + 2 GRFs at the peak (all v_k,
        // the address, and x while the last v_k is written), plus the
        // two-GRF SIMD8 payload without uniforms (g0, g1).
        assert_eq!(pressure_program(10).payload_grfs, 2);
        assert_eq!(register_pressure(&pressure_program(10)), 14);
        assert_eq!(register_pressure(&pressure_program(3)), 7);
    }

    #[test]
    fn high_pressure_that_fits() {
        // 124 values + address + x = 126 = every free GRF (g2..g127).
        let p = pressure_program(124);
        let prog = allocate(&p, BugSet::NONE).unwrap();
        let input = |k: u32| 1000 + k as u64;
        let sum = |k: u32| (124 * (1000 + k as u64) + 124 * 123 / 2) & 0xffff_ffff;
        let got = physical_outputs(&p, &prog, 11, &input);
        assert_eq!(got, outputs(&p, 11, &input, 0));
        assert_eq!(got[10][0].unwrap().bits, sum(10));
        let top = prog.insts.iter().filter_map(|i| match i.dst.kind {
            DstKind::Grf { nr, .. } => Some(nr),
            _ => None,
        });
        assert_eq!(top.max(), Some(127));
    }

    #[test]
    fn too_much_pressure_spills_the_fewest_values_that_fit() {
        // 125 values + x + the address need 127 GRFs where v_124 is
        // written (x dies there). Spilling v_124 alone leaves its
        // temporary live there and adds the scratch header (127 again);
        // each further spilled v_k frees one GRF there, so three spills
        // (v_124, v_123, v_122, each read once by the sum chain) are the
        // fewest: 3 spill and 3 fill messages.
        let p = pressure_program(125);
        let prog = allocate(&p, BugSet::NONE).unwrap();
        let stats = crate::StaticStats::of(&prog);
        assert_eq!((stats.spills, stats.fills), (3, 3));
        let input = |k: u32| 1000 + k as u64;
        let sum = |k: u32| (125 * (1000 + k as u64) + 125 * 124 / 2) & 0xffff_ffff;
        let got = physical_outputs(&p, &prog, 11, &input);
        assert_eq!(got, outputs(&p, 11, &input, 0));
        assert_eq!(got[10][0].unwrap().bits, sum(10));
    }

    #[test]
    fn decision_points_are_recorded() {
        use crate::coverage::Recording;
        let rec = Recording::start();
        // A lowered program with a loop at SIMD16 (two-GRF dwords).
        let src = include_str!("../../corpus/bool_loop_phi.sir");
        let program = ir::parse_case(src).unwrap().program;
        for s in crate::Backend::Scalar.strategies() {
            let opts = crate::CompileOptions::new(s, 16, crate::PassSet::all());
            crate::compile(&program, &opts).unwrap();
        }
        let hits = rec.finish();
        for p in [
            cov::FIRST_FIT,
            cov::MULTI_GRF,
            cov::REUSED,
            cov::LOOP_CARRIED,
            cov::EXTEND_BLOCK_ENTRY,
            cov::PAYLOAD_OPERAND,
        ] {
            // Once per strategy.
            assert_eq!(hits.get(p.name()), Some(&6), "{}: {hits:?}", p.name());
        }
        assert!(!hits.contains_key(cov::LIMIT_PRESSURE.name()));
        // Too many values live at once: three spills (see
        // too_much_pressure_spills_the_fewest_values_that_fit), each a
        // per-channel SIMD8 dword write read once; the fourth allocation
        // fits.
        let rec = Recording::start();
        assert!(allocate(&pressure_program(125), BugSet::NONE).is_ok());
        let hits = rec.finish();
        assert_eq!(hits.get(cov::SPILLED.name()), Some(&3));
        assert_eq!(hits.get(cov::FILL.name()), Some(&3));
        assert_eq!(hits.get(cov::SPILL_PER_CHANNEL.name()), Some(&3));
        assert_eq!(hits.get(cov::FIRST_FIT.name()), Some(&1));
        assert!(!hits.contains_key(cov::LIMIT_PRESSURE.name()));
        assert!(!hits.contains_key(cov::SPILL_READ_MODIFY_WRITE.name()));
    }

    const LOOP: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmov(8) g4<1>D 0D\nmov(8) g8<1>D 0D\nadd(8) g5<1>D g3<8,8,1>D 1D\nL0:\nadd(8) g6<1>D g4<8,8,1>D g5<8,8,1>D\nadd(8) g7<1>D g6<8,8,1>D g6<8,8,1>D\nadd(8) g4<1>D g7<8,8,1>D g3<8,8,1>D\nadd(8) g8<1>D g8<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g8<8,8,1>D 3D\n(+f0.0) while(8) JIP: L0\nsend(8) null g2 g4 st.b32 { align1 1Q EOT };";

    #[test]
    fn loop_extends_values_used_at_the_loop_start() {
        // b (g5) is defined before the loop and read only by its first
        // instruction; t (g7) is defined later in the loop.
        let vg: Vec<(u32, u32)> = (2..9).map(|r| (r, 1)).collect();
        let p = vprog(8, LOOP, &vg);
        let live = Liveness::compute(&p).unwrap();
        let iv = intervals(&p, &live, BugSet::NONE);
        // vgrf 3 = b, 4 = c, 5 = t; the loop is [5, 10].
        assert_eq!(iv[3], Some((4, 10)));
        assert_eq!(iv[4], Some((5, 6)));
        assert_eq!(iv[5], Some((6, 7)));
        // The loop counter and accumulator are loop-carried.
        assert_eq!(iv[2], Some((2, 11)));
        assert_eq!(iv[6], Some((3, 10)));
        let prog = allocate(&p, BugSet::NONE).unwrap();
        let reg = |i: usize| match prog.insts[i].dst.kind {
            DstKind::Grf { nr, .. } => nr,
            _ => unreachable!(),
        };
        assert_ne!(reg(4), reg(6), "b and t must not share a register");
        let input = |k: u32| k as u64 * 5;
        let got = physical_outputs(&p, &prog, 13, &input);
        assert_eq!(got, outputs(&p, 13, &input, 0));
        // acc_{j+1} = 2 (acc_j + x + 1) + x over three iterations.
        let mut acc = 0i64;
        for _ in 0..3 {
            acc = 2 * (acc + 60 + 1) + 60;
        }
        assert_eq!(got[12][0].unwrap().bits, acc as u64);
    }

    /// Lane k loops x_k = k % 4 + 1 times. Each iteration a NoMask scalar
    /// t = 7 (g5) dies at w = i + t (g7); v = w + 1 (g6) is defined in the
    /// loop and stored after it.
    const LOOP_EXIT: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmov(8) g4<1>D 0D\nL0:\nmov(1) g5<1>UD 7UD { align1 WE_all 1N };\nadd(8) g7<1>D g4<8,8,1>D g5<0,1,0>D\nadd(8) g6<1>D g7<8,8,1>D 1D\nadd(8) g4<1>D g4<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g4<8,8,1>D g3<8,8,1>D\n(+f0.0) while(8) JIP: L0\nsend(8) null g2 g6 st.b32 { align1 1Q EOT };";

    #[test]
    fn a_value_leaving_a_loop_lives_over_the_whole_loop() {
        let vg: Vec<(u32, u32)> = (2..8).map(|r| (r, 1)).collect();
        let p = vprog(8, LOOP_EXIT, &vg);
        let live = Liveness::compute(&p).unwrap();
        // The loop is [3, 8]; v (vgrf 4) is born at 5 and stored at 9.
        assert_eq!(intervals(&p, &live, BugSet::NONE)[4], Some((3, 9)));
        let input = |k: u32| u64::from(k % 4 + 1);
        // Lane k's v is its last i + 8: x_k + 7.
        let want: Vec<u64> = (0..8u64).map(|k| k % 4 + 1 + 7).collect();
        let stored = |prog: &eu::Program| -> Vec<u64> {
            physical_outputs(&p, prog, 8, &input)
                .iter()
                .map(|o| o[0].unwrap().bits)
                .collect()
        };
        assert_eq!(stored(&allocate(&p, BugSet::NONE).unwrap()), want);
        // regalloc-loop-exit-live: v keeps its hull [5, 9] and takes t's
        // register, which the NoMask write rewrites in channel 0 while
        // lane 0 (which left after one iteration) still needs its 8.
        let bug = BugSet::NONE.with(Bug::RegallocLoopExitLive);
        assert_eq!(intervals(&p, &live, bug)[4], Some((5, 9)));
        let mut bad = want.clone();
        bad[0] = 7;
        assert_eq!(stored(&allocate(&p, bug).unwrap()), bad);
    }

    #[test]
    fn two_grf_vgrfs_get_consecutive_registers() {
        // SIMD16 (payload g0-g2): every value spans two GRFs; the one-GRF
        // temporary sits between them in the virtual file.
        let text = "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32 { align1 1H };\nmov(8) g7<1>D 3D\nadd(16) g8<1>D g5<8,8,1>D g7.1<0,1,0>D\nmul(16) g10<1>D g8<8,8,1>D 2W\nsend(16) null g3 g10 st.b32 { align1 1H EOT };";
        let p = vprog(16, text, &[(3, 2), (5, 2), (7, 1), (8, 2), (10, 2)]);
        let prog = allocate(&p, BugSet::NONE).unwrap();
        // Linear scan: address g3-g4, x g5-g6, tmp g7, y g8-g9 (x is still
        // read by y's instruction: closed intervals), z after x and tmp died:
        // g5-g6.
        assert_eq!(
            eu::print_program_compact(&prog),
            "shl(16) g3<1>UD g1<8,8,1>UD 0x00000003UD\nsend(16) g5 g3 ld.b32\nmov(8) g7<1>D 3D\nadd(16) g8<1>D g5<8,8,1>D g7.1<0,1,0>D\nmul(16) g5<1>D g8<8,8,1>D 2W\nsend(16) null g3 g5 st.b32 { align1 1H EOT };\n"
        );
        let input = |k: u32| k as u64 + 40;
        let got = physical_outputs(&p, &prog, 29, &input);
        assert_eq!(got, outputs(&p, 29, &input, 0));
        assert_eq!(got[28][0].unwrap().bits, (28 + 40 + 3) * 2);
        // The fallback order puts multi-GRF values at the top of the file.
        let iv = intervals(&p, &Liveness::compute(&p).unwrap(), BugSet::NONE);
        assert_eq!(
            iv,
            vec![
                Some((0, 5)),
                Some((1, 3)),
                Some((2, 3)),
                Some((3, 4)),
                Some((4, 5))
            ]
        );
        assert_eq!(
            scan(&p, &iv, &scan_order(&iv), &[], true),
            Ok(vec![Some(126), Some(124), Some(3), Some(122), Some(124)])
        );
    }
}
