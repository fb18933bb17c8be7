//! Block-local common subexpression elimination (brw `opt_cse`,
//! EU-MODEL §5.4).
//!
//! Two instructions E (earlier) and J (later) in one block match when they
//! agree on opcode, math function, exec size, group, NoMask, predicate,
//! cmod, flag register, saturate, destination type and sources (ADD, MUL,
//! AND, OR, XOR, AVG and min/max SEL either way round; MAD's multiplicands
//! either way round). J is then
//!
//! * deleted, when it writes the same destination as E or only flags;
//! * otherwise turned into a MOV (same exec size, group, NoMask, and the
//!   predicate unless J is a predicated SEL) from E's destination.
//!
//! Register pressure: there is no spilling, so a copy is made only when E's
//! result is still read after J anyway (later in the block or live out of
//! it); otherwise merging would stretch E's live range over the gap.
//!
//! **Float MUL up to negation** (brw's `-a*b` matching): an unsaturated,
//! cmod-less float MUL J whose sources equal E's except that exactly one
//! of them is negated the other way (either order) computes `-E`. J
//! becomes `mul dst, -E, 1.0` rather than a negated MOV: a MUL's NaN
//! result is the canonical (positive) quiet NaN whatever the sign of its
//! inputs (ISA.md §4, NaN rule), and a negated MOV would flip it to a
//! negative NaN; the multiplication by 1.0 negates every other value
//! exactly (±0, ±inf and denormals included) and turns a NaN back into the
//! canonical one. The register-pressure rule above applies. DF (no 64-bit
//! immediate in a 2-source instruction) is not matched. **Never when
//! `.sat` is involved** (1567da1e282): `sat(-x) != -sat(x)`.
//!
//! **Flag-only writers** (`mov.nz null, x`, `cmp.nz null, x, 0`, ... with a
//! null destination, seed 001) are matched against the last write of the
//! flag bytes they write in the block: if that write is an identical
//! instruction, J is deleted.
//!
//! Refusals:
//! * E is forgotten as soon as anything overwrites a byte of its sources or
//!   destination, or (if E is masked) when any NoMask instruction writes a
//!   register or flag in between (NoMask barrier); blocks end at HALT and
//!   all control flow, so there is no merging across them;
//! * an instruction reading flags (predicate) matches only if no flag byte
//!   it reads was written since E; an instruction writing flags matches only
//!   if no flag byte E wrote was rewritten since (then J's flag write is
//!   redundant);
//! * never MOV with a GRF destination (nothing to gain), SEND, control
//!   flow, flag registers as operands, or an E whose destination overlaps
//!   its own sources; a MOV replacement that fails validation is not made.

/// The pass's decision points (`crate::coverage`).
#[path = "cse_cov.rs"]
pub mod cov;

#[path = "cse_avail.rs"]
mod avail;

use self::avail::{Avail, Entry};
use super::liveness::{LiveSet, Liveness};
use super::ops::{
    dst_offsets, footprints, inst_valid, overlaps, regions_for, shared_access, Footprint,
};
use crate::bugs::Bug;
use crate::coverage::{hit, Point};
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{DstKind, Instruction, Opcode, Src, SrcKind};
use std::cell::OnceCell;

fn candidate(i: &Instruction) -> bool {
    if !i.op.has_dst() || i.op == Opcode::Send || i.msg.is_some() {
        return false;
    }
    if matches!(i.dst.kind, DstKind::Flag { .. })
        || i.srcs
            .iter()
            .any(|s| matches!(s.kind, SrcKind::Flag { .. } | SrcKind::Null))
    {
        return false;
    }
    match i.dst.kind {
        DstKind::Null => i.writes_flag(),
        _ => i.op != Opcode::Mov,
    }
}

fn same_srcs(a: &Instruction, b: &Instruction) -> bool {
    if a.srcs == b.srcs {
        return true;
    }
    let (x, y) = (&a.srcs, &b.srcs);
    match a.op {
        _ if super::ops::is_commutative(a) => x[0] == y[1] && x[1] == y[0],
        Opcode::Mad => x[0] == y[0] && x[1] == y[2] && x[2] == y[1],
        _ => false,
    }
}

fn same_op(a: &Instruction, b: &Instruction) -> bool {
    a.op == b.op
        && a.math == b.math
        && a.exec_size == b.exec_size
        && a.group == b.group
        && a.we_all == b.we_all
        && a.pred == b.pred
        && a.cmod == b.cmod
        && a.flag == b.flag
        && a.sat == b.sat
        && a.dst.ty == b.dst.ty
        && same_srcs(a, b)
}

/// Whether float MUL `b` is float MUL `a` with exactly one source's
/// negation flipped (either order), neither with a cmod. (Saturation is
/// checked by the caller.)
fn negated_mul(a: &Instruction, b: &Instruction) -> bool {
    let same_but_srcs = a.op == Opcode::Mul
        && b.op == Opcode::Mul
        && a.dst.ty.is_float()
        && a.cmod.is_none()
        && b.cmod.is_none()
        && a.math == b.math
        && a.exec_size == b.exec_size
        && a.group == b.group
        && a.we_all == b.we_all
        && a.pred == b.pred
        && a.flag == b.flag
        && a.sat == b.sat
        && a.dst.ty == b.dst.ty;
    if !same_but_srcs || a.srcs.len() != 2 || b.srcs.len() != 2 {
        return false;
    }
    let one_flip = |x: &[Src], y: &[Src]| {
        let eq_but_neg = |p: &Src, q: &Src| Src { neg: q.neg, ..*p } == *q;
        eq_but_neg(&x[0], &y[0])
            && eq_but_neg(&x[1], &y[1])
            && (x[0].neg != y[0].neg) != (x[1].neg != y[1].neg)
    };
    let (x, y) = (&a.srcs, &b.srcs);
    one_flip(x, y) || one_flip(x, &[y[1], y[0]])
}

/// Why E, with J's opcode and sources up to modifiers (in either order
/// where they commute), did not match J: the first attribute that differs.
/// None when E is no such near miss.
fn near_miss(e: &Instruction, j: &Instruction) -> Option<Point> {
    if e.op != j.op || e.srcs.len() != j.srcs.len() {
        return None;
    }
    let bare = |s: &Src| Src {
        neg: false,
        abs: false,
        ..*s
    };
    let (x, y) = (&e.srcs, &j.srcs);
    let same = x.iter().zip(y).all(|(a, b)| bare(a) == bare(b))
        || match e.op {
            _ if super::ops::is_commutative(e) => {
                x.len() == 2 && bare(&x[0]) == bare(&y[1]) && bare(&x[1]) == bare(&y[0])
            }
            Opcode::Mad => {
                bare(&x[0]) == bare(&y[0])
                    && bare(&x[1]) == bare(&y[2])
                    && bare(&x[2]) == bare(&y[1])
            }
            _ => false,
        };
    if !same {
        return None;
    }
    Some(if e.math != j.math {
        cov::REFUSE_DIFF_MATH
    } else if e.exec_size != j.exec_size || e.group != j.group {
        cov::REFUSE_DIFF_EXEC
    } else if e.we_all != j.we_all {
        cov::REFUSE_DIFF_NOMASK
    } else if e.pred != j.pred {
        cov::REFUSE_DIFF_PRED
    } else if e.cmod != j.cmod {
        cov::REFUSE_DIFF_CMOD
    } else if e.flag != j.flag {
        cov::REFUSE_DIFF_FLAG
    } else if e.sat != j.sat {
        cov::REFUSE_DIFF_SAT
    } else if e.dst.ty != j.dst.ty {
        cov::REFUSE_DIFF_TYPE
    } else {
        cov::REFUSE_DIFF_SRC_MODS
    })
}

/// Why no earlier instruction merged with candidate J (none did): an
/// identical one whose flags changed, an identical one forgotten (and why),
/// or the first near miss. None when nothing comes close.
fn why_unmatched(avail: &Avail, j: &Instruction) -> Option<Point> {
    if avail
        .with_op(j.op)
        .any(|e| same_op(&e.inst, j) || negated_mul(&e.inst, j))
    {
        return Some(cov::REFUSE_FLAG_CHANGED);
    }
    if let Some((_, why)) = avail
        .forgotten_with_op(j.op)
        .rev()
        .find(|(e, _)| same_op(e, j))
    {
        return Some(*why);
    }
    avail.with_op(j.op).find_map(|e| near_miss(&e.inst, j))
}

/// `mul dst, -E, 1.0` in J's place (same exec size, group, NoMask and
/// predicate as J), if legal.
fn negated_copy_from(
    e: &Instruction,
    j: &Instruction,
    machine: &eu::MachineConfig,
) -> Option<Instruction> {
    let one = match e.dst.ty {
        eu::RegType::F => 0x3f80_0000,
        eu::RegType::HF => 0x3c00,
        _ => return None,
    };
    let offs = dst_offsets(&e.dst, e.exec_size)?;
    for (nr, sub, region) in regions_for(&offs, e.dst.ty.size()) {
        let mut m = Instruction::alu(
            Opcode::Mul,
            j.exec_size,
            j.dst,
            &[
                Src::grf(nr, sub, e.dst.ty, region).negated(),
                Src::imm(one, e.dst.ty),
            ],
        );
        m.group = j.group;
        m.we_all = j.we_all;
        m.flag = j.flag;
        m.pred = j.pred;
        if inst_valid(&m, machine) {
            return Some(m);
        }
    }
    None
}

/// The MOV copying E's destination into J's destination, if legal.
fn copy_from(e: &Instruction, j: &Instruction, machine: &eu::MachineConfig) -> Option<Instruction> {
    let offs = dst_offsets(&e.dst, e.exec_size)?;
    for (nr, sub, region) in regions_for(&offs, e.dst.ty.size()) {
        let mut m = Instruction::alu(
            Opcode::Mov,
            j.exec_size,
            j.dst,
            &[Src::grf(nr, sub, e.dst.ty, region)],
        );
        m.group = j.group;
        m.we_all = j.we_all;
        m.flag = j.flag;
        if !super::ops::is_pred_sel(j) {
            m.pred = j.pred;
        }
        if inst_valid(&m, machine) {
            return Some(m);
        }
    }
    None
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    let access = footprints(&p.insts);
    let Some(cfg) = Liveness::cfg_if_computable(p, &access) else {
        return false;
    };
    // The live sets of the program as it was, computed only when a match
    // asks whether its result is still read (most runs match nothing),
    // from what the analysis reads of it: not a copy of the program, which
    // would make the pass's first edit copy the instructions.
    let (vgrfs, payload_grfs) = (p.vgrfs.clone(), p.payload_grfs);
    let live = OnceCell::new();
    let live_out = |b: usize| -> &LiveSet {
        &live
            .get_or_init(|| {
                Liveness::compute_given(access.clone(), &vgrfs, payload_grfs, |_| Some(cfg.clone()))
                    .expect("computable, as cfg_if_computable found")
            })
            .live_out[b]
    };
    let machine = p.machine();
    let mut changed = false;
    let mut counter = 0u32;
    // Room for every instruction of the longest block, so the entries are
    // never copied to grow.
    let longest = cfg
        .blocks
        .iter()
        .map(|b| b.end - b.start)
        .max()
        .unwrap_or(0);
    let mut avail = Avail::new(p.reg_end() as usize, longest);
    for (b, blk) in cfg.blocks.iter().enumerate() {
        avail.clear();
        let mut ver = [0u32; 8];
        for j in blk.start..blk.end {
            // J's rewrite, decided while J is borrowed and made after.
            let mut edit: Option<Instruction> = None;
            let inst = &p.insts[j];
            // Footprints of the program as it was: instructions at j and
            // after are as they were then.
            let a = &access[j];
            let flag_reads = a.flag_lane_reads | a.flag_raw_reads;
            if candidate(inst) {
                hit(if inst.dst.is_null() {
                    cov::CANDIDATE_FLAG_ONLY
                } else {
                    cov::CANDIDATE_VALUE
                });
                let flags_same = |e: &Entry| {
                    (0..8).all(|k| {
                        (e.flag_reads | e.flag_writes) & (1 << k) == 0 || ver[k] == e.ver[k]
                    }) && flag_reads & e.flag_writes == 0
                };
                let matched = avail
                    .with_op(inst.op)
                    .find(|e| same_op(&e.inst, inst) && flags_same(e))
                    .or_else(|| {
                        // Injected bug (BUGS.md: cse-flag-only-stale): a
                        // flag-only writer matches an identical earlier one
                        // even though the flag was rewritten in between.
                        avail.with_op(inst.op).rev().find(|e| {
                            inst.dst.is_null()
                                && same_op(&e.inst, inst)
                                && ctx.bugs.has(Bug::CseFlagOnlyStale)
                        })
                    });
                // sat(-x) != -sat(x): no negation matching with .sat.
                let sat_refused = |e: &Entry| {
                    if e.inst.sat && ctx.bugs.has(Bug::CseNegSat) {
                        // Injected bug (BUGS.md: cse-neg-sat): saturated
                        // MULs are matched up to negation too, and J
                        // becomes -sat(x) instead of sat(-x).
                        return false;
                    }
                    e.inst.sat
                };
                let mut refused_sat = false;
                let neg_matched = if matched.is_none() {
                    avail.with_op(inst.op).find(|e| {
                        negated_mul(&e.inst, inst) && flags_same(e) && {
                            let refused = sat_refused(e);
                            refused_sat |= refused;
                            !refused
                        }
                    })
                } else {
                    None
                };
                if refused_sat {
                    hit(cov::REFUSE_NEG_SAT);
                } else if matched.is_none() && neg_matched.is_none() {
                    if let Some(why) = why_unmatched(&avail, inst) {
                        hit(why);
                    }
                }
                if let Some(e) = neg_matched {
                    let still_live = inst.dst == e.inst.dst
                        || (j + 1..blk.end).any(|k| {
                            access[k]
                                .reads
                                .iter()
                                .any(|r| overlaps(&[(r.reg, r.mask)], &e.writes))
                        })
                        || live_out(b).any_live(&e.writes);
                    if still_live {
                        if let Some(m) = negated_copy_from(&e.inst, inst, &machine) {
                            hit(cov::MERGE_NEGATED_MUL);
                            edit = Some(m);
                        } else if e.inst.dst.ty.is_64bit() {
                            hit(cov::REFUSE_NEG_DF);
                        } else {
                            hit(cov::REFUSE_NEG_INVALID);
                        }
                    } else {
                        hit(cov::REFUSE_NEG_DEAD);
                    }
                }
                if let Some(e) = matched {
                    let still_live = || {
                        (j + 1..blk.end).any(|k| {
                            access[k]
                                .reads
                                .iter()
                                .any(|r| overlaps(&[(r.reg, r.mask)], &e.writes))
                        }) || live_out(b).any_live(&e.writes)
                    };
                    let replacement = if inst.dst == e.inst.dst || inst.dst.is_null() {
                        Some(None)
                    } else if !still_live() {
                        hit(cov::REFUSE_DEAD);
                        None
                    } else {
                        let copy = copy_from(&e.inst, inst, &machine);
                        if copy.is_none() {
                            hit(cov::REFUSE_COPY_INVALID);
                        }
                        copy.map(Some)
                    };
                    if let Some(r) = replacement {
                        if inst.srcs != e.inst.srcs {
                            hit(cov::MERGE_COMMUTED);
                        }
                        match r {
                            None => {
                                hit(if inst.dst.is_null() {
                                    cov::MERGE_DELETE_FLAG_ONLY
                                } else {
                                    cov::MERGE_DELETE_SAME_DST
                                });
                                edit = Some(Instruction {
                                    op: Opcode::Nop,
                                    ..*inst
                                });
                            }
                            Some(m) => {
                                hit(cov::MERGE_COPY);
                                if super::ops::is_pred_sel(inst) {
                                    hit(cov::MERGE_COPY_SEL);
                                }
                                edit = Some(m);
                            }
                        }
                    }
                }
            }
            // Whether J was rewritten (its footprint is then another one).
            let rewritten = edit.is_some();
            if let Some(m) = edit {
                p.insts[j] = m;
                changed = true;
            }
            // Effects of the (possibly rewritten) instruction.
            let cur = &p.insts[j];
            let fresh;
            let a = if !rewritten {
                &access[j]
            } else {
                fresh = shared_access(cur);
                &fresh
            };
            if !a.writes.is_empty() {
                avail.forget_overwritten(&a.writes);
            }
            for (k, v) in ver.iter_mut().enumerate() {
                if a.flag_writes & (1 << k) != 0 {
                    counter += 1;
                    *v = counter;
                }
            }
            if cur.we_all && (!a.writes.is_empty() || a.flag_writes != 0) {
                avail.forget_masked();
            }
            let fr = a.flag_lane_reads | a.flag_raw_reads;
            if cur.op != Opcode::Nop && candidate(cur) && fr & a.flag_writes == 0 {
                // A candidate is an ALU instruction: its GRF reads are its
                // sources' footprints, in order.
                let reads: Footprint = a.reads.iter().map(|r| (r.reg, r.mask)).collect();
                if !overlaps(&a.writes, &reads) {
                    avail.push(Entry {
                        inst: *cur,
                        reads,
                        writes: a.writes.clone(),
                        flag_reads: fr,
                        flag_writes: a.flag_writes,
                        ver,
                    });
                }
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{apply, apply_with_bugs, canon, check_preserves, outputs, vprog};
    use crate::bugs::BugSet;

    const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\n";
    const VG: &[(u32, u32)] = &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)];

    fn golden(body: &str, tail: &str, want_body: &str) {
        let text = format!("{HEAD}{body}{tail}");
        let p = vprog(8, &text, VG);
        let q = check_preserves(&p, run, 11, &|k| {
            (k as u64).wrapping_mul(0x9e37_79b9) & 0xffff_ffff
        });
        assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want_body}{tail}")));
    }

    const STORE_SUM: &str =
        "add(8) g7<1>D g4<8,8,1>D g5<8,8,1>D\nsend(8) null g2 g7 st.b32 { align1 1Q EOT };";

    #[test]
    fn identical_and_commuted_adds_merge() {
        golden(
            "add(8) g4<1>D g3<8,8,1>D 5D\nmul(8) g6<1>D g3<8,8,1>D 3W\nadd(8) g5<1>D g3<8,8,1>D 5D\n",
            STORE_SUM,
            "add(8) g4<1>D g3<8,8,1>D 5D\nmul(8) g6<1>D g3<8,8,1>D 3W\nmov(8) g5<1>D g4<8,8,1>D\n",
        );
        golden(
            "and(8) g4<1>D g3<8,8,1>D g2<8,8,1>D\nand(8) g5<1>D g2<8,8,1>D g3<8,8,1>D\n",
            STORE_SUM,
            "and(8) g4<1>D g3<8,8,1>D g2<8,8,1>D\nmov(8) g5<1>D g4<8,8,1>D\n",
        );
    }

    #[test]
    fn coverage_records_the_merge_and_the_refusal() {
        // The saturated add differs from the first only in .sat; the third
        // is identical to the first and becomes a copy.
        let rec = crate::coverage::Recording::start();
        golden(
            "add(8) g4<1>D g3<8,8,1>D 5D\nadd.sat(8) g6<1>D g3<8,8,1>D 5D\nadd(8) g5<1>D g3<8,8,1>D 5D\n",
            STORE_SUM,
            "add(8) g4<1>D g3<8,8,1>D 5D\nadd.sat(8) g6<1>D g3<8,8,1>D 5D\nmov(8) g5<1>D g4<8,8,1>D\n",
        );
        let hits = rec.finish();
        assert_eq!(
            hits,
            crate::coverage::Hits::from([
                // shl, the three adds, the store's add
                (cov::CANDIDATE_VALUE.name(), 5),
                (cov::REFUSE_DIFF_SAT.name(), 1),
                (cov::MERGE_COPY.name(), 1),
            ])
        );
    }

    #[test]
    fn refuses_when_a_source_changes_or_attributes_differ() {
        // g3 is overwritten in between.
        let b = "add(8) g4<1>D g3<8,8,1>D 5D\nmov(8) g3<1>D 1D\nadd(8) g5<1>D g3<8,8,1>D 5D\n";
        golden(b, STORE_SUM, b);
        // Different exec size / group, NoMask, saturate, dst type.
        let b = "add(8) g4<1>D g3<8,8,1>D 5D\nadd(8) g5<1>D g3<8,8,1>D 5D { align1 WE_all 1Q };\n";
        golden(b, STORE_SUM, b);
        let b = "add(8) g4<1>F g3<8,8,1>F g3<8,8,1>F\nadd.sat(8) g5<1>F g3<8,8,1>F g3<8,8,1>F\n";
        golden(b, STORE_SUM, b);
        let b = "add(4) g4<1>D g3<4,4,1>D 5D\nadd(4) g4.4<1>D g3<4,4,1>D 5D { align1 2N };\nmov(8) g5<1>D 0D\n";
        golden(b, STORE_SUM, b);
    }

    #[test]
    fn predicated_ops_need_the_same_flag_value() {
        // Same predicate, flag unchanged: merges into a predicated SEL copy.
        golden(
            "cmp.l.f0.0(8) null<1>D g3<8,8,1>D 9D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 1D\n",
            STORE_SUM,
            "cmp.l.f0.0(8) null<1>D g3<8,8,1>D 9D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\nmov(8) g5<1>D g4<8,8,1>D\n",
        );
        // The flag is rewritten in between: no merge.
        let b = "cmp.l.f0.0(8) null<1>D g3<8,8,1>D 9D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\ncmp.g.f0.0(8) null<1>D g3<8,8,1>D 4D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 1D\n";
        golden(b, STORE_SUM, b);
    }

    #[test]
    fn redundant_flag_writes_are_deleted() {
        // The second cmp only writes the same flag again.
        golden(
            "cmp.l.f0.0(8) g6<1>D g3<8,8,1>D 9D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 9D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\n(+f0.0) sel(8) g5<1>D g6<8,8,1>D 1D\n",
            STORE_SUM,
            "cmp.l.f0.0(8) g6<1>D g3<8,8,1>D 9D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\n(+f0.0) sel(8) g5<1>D g6<8,8,1>D 1D\n",
        );
        // f0.0 is rewritten in between: the last cmp is needed again.
        let b = "cmp.l.f0.0(8) null<1>D g3<8,8,1>D 9D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\ncmp.g.f0.0(8) null<1>D g3<8,8,1>D 2D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 9D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 2D\n";
        golden(b, STORE_SUM, b);
    }

    #[test]
    fn no_copy_that_would_stretch_a_dead_result() {
        // g4's last read is before the second add: copying it would keep it
        // alive longer (no spilling here), so nothing changes.
        let b = "add(8) g4<1>D g3<8,8,1>D 5D\nadd(8) g6<1>D g4<8,8,1>D g4<8,8,1>D\nadd(8) g5<1>D g3<8,8,1>D 5D\n";
        golden(
            b,
            "add(8) g7<1>D g5<8,8,1>D g6<8,8,1>D\nsend(8) null g2 g7 st.b32 { align1 1Q EOT };",
            b,
        );
    }

    #[test]
    fn nomask_write_is_a_barrier() {
        let b = "add(8) g4<1>D g3<8,8,1>D 5D\nmov(8) g6<1>D 0D { align1 WE_all 1Q };\nadd(8) g5<1>D g3<8,8,1>D 5D\n";
        golden(b, STORE_SUM, b);
    }

    #[test]
    fn no_merge_across_blocks() {
        let text = format!("{HEAD}add(8) g4<1>D g3<8,8,1>D 5D\nmov(8) g5<1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 4D\n(+f0.0) if(8) JIP: L0 UIP: L0\nadd(8) g5<1>D g3<8,8,1>D 5D\nL0:\nendif(8) JIP: L1\nL1:\n{STORE_SUM}");
        let mut p = vprog(8, &text, VG);
        assert!(!apply(&mut p, run));
    }

    #[test]
    fn null_destination_mov_nz_merges_with_the_last_flag_write() {
        // Seed 001: the second mov.nz only writes f0.0 again.
        golden(
            "mov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\nmov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 2D\n",
            STORE_SUM,
            "mov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\n(+f0.0) sel(8) g5<1>D g3<8,8,1>D 2D\n",
        );
        // Not when f0.0 was written in between, nor on another flag.
        for b in [
            "mov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\nand.z.f0.0(8) g6<1>D g3<8,8,1>D 4D\nmov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g5<1>D g6<8,8,1>D 2D\n",
            "mov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\nmov.nz.f0.1(8) null<1>D g3<8,8,1>D\n(+f0.1) sel(8) g5<1>D g3<8,8,1>D 2D\n",
        ] {
            golden(b, STORE_SUM, b);
        }
    }

    #[test]
    fn injected_bug_deletes_a_stale_flag_only_writer() {
        // cse-flag-only-stale: the and.z rewrites f0.0 between the two
        // retests, and the bug deletes the second one anyway, so the second
        // SEL is predicated on and.z's result.
        let body = "mov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\nand.z.f0.0(8) g6<1>D g3<8,8,1>D 4D\nmov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g5<1>D g6<8,8,1>D 2D\n";
        let p = vprog(8, &format!("{HEAD}{body}{STORE_SUM}"), VG);
        let mut q = p.clone();
        assert!(apply_with_bugs(
            &mut q,
            run,
            BugSet::NONE.with(Bug::CseFlagOnlyStale)
        ));
        let want = "mov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) sel(8) g4<1>D g3<8,8,1>D 1D\nand.z.f0.0(8) g6<1>D g3<8,8,1>D 4D\n(+f0.0) sel(8) g5<1>D g6<8,8,1>D 2D\n";
        assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}{STORE_SUM}")));
        // Among the inputs some lane is non-zero with bit 2 set, where the
        // two flags disagree.
        let input = |k: u32| (k as u64).wrapping_mul(0x9e37_79b9) & 0xffff_ffff;
        assert_ne!(outputs(&p, 11, &input, 0), outputs(&q, 11, &input, 0));
    }

    #[test]
    fn no_merge_across_halt() {
        // The adds are identical, but HALT ends the block: after it only the
        // channels that did not halt run (exec-mask-dependent code must not
        // merge across it, c9e33e5cbf6).
        let text = format!("{HEAD}add(8) g4<1>D g3<8,8,1>D 5D\nmov(8) g5<1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 4D\n(+f0.0) halt(8) JIP: L0 UIP: L0\nadd(8) g5<1>D g3<8,8,1>D 5D\nL0:\n{STORE_SUM}");
        let mut p = vprog(8, &text, VG);
        assert!(!apply(&mut p, run));
        assert_eq!(p.text_compact(), canon(&text));
    }

    /// Float inputs at the edges: NaNs of both signs, ±0, ±inf, a denormal,
    /// values that saturate and values that do not.
    fn float_input(k: u32) -> u64 {
        const F: [u64; 12] = [
            0x7fc0_0001,
            0xffc0_1234,
            0x8000_0000,
            0,
            0x7f80_0000,
            0xff80_0000,
            0x0000_0001,
            0x3e80_0000,
            0xbe80_0000,
            0x4040_0000,
            0xc040_0000,
            0x3f00_0000,
        ];
        F[k as usize % F.len()]
    }

    fn golden_f(body: &str, want_body: &str) -> VProgram {
        let text = format!("{HEAD}{body}{STORE_SUM}");
        let p = vprog(8, &text, VG);
        let q = check_preserves(&p, run, 12, &float_input);
        assert_eq!(
            q.text_compact(),
            canon(&format!("{HEAD}{want_body}{STORE_SUM}"))
        );
        p
    }

    #[test]
    fn float_mul_matches_up_to_negation() {
        // -a*b == -(a*b), the NaN result canonical either way: J becomes
        // -E * 1.0 (a negated MOV would give a negative NaN).
        golden_f(
            "mul(8) g4<1>F g3<8,8,1>F 0x40400000F\nmul(8) g5<1>F -g3<8,8,1>F 0x40400000F\n",
            "mul(8) g4<1>F g3<8,8,1>F 0x40400000F\nmul(8) g5<1>F -g4<8,8,1>F 0x3f800000F\n",
        );
        // Commuted, the negation on the other operand.
        golden_f(
            "mul(8) g4<1>F g3<8,8,1>F g3.1<0,1,0>F\nmul(8) g5<1>F -g3.1<0,1,0>F g3<8,8,1>F\n",
            "mul(8) g4<1>F g3<8,8,1>F g3.1<0,1,0>F\nmul(8) g5<1>F -g4<8,8,1>F 0x3f800000F\n",
        );
    }

    #[test]
    fn no_negation_matching_with_saturate() {
        // sat(-x) != -sat(x) (1567da1e282): both saturated, or only one.
        for b in [
            "mul.sat(8) g4<1>F g3<8,8,1>F 0x40400000F\nmul.sat(8) g5<1>F -g3<8,8,1>F 0x40400000F\n",
            "mul(8) g4<1>F g3<8,8,1>F 0x40400000F\nmul.sat(8) g5<1>F -g3<8,8,1>F 0x40400000F\n",
        ] {
            golden_f(b, b);
        }
        // With the injected bug the saturated pair merges, and J = -sat(x).
        let b =
            "mul.sat(8) g4<1>F g3<8,8,1>F 0x40400000F\nmul.sat(8) g5<1>F -g3<8,8,1>F 0x40400000F\n";
        let p = vprog(8, &format!("{HEAD}{b}{STORE_SUM}"), VG);
        let mut q = p.clone();
        assert!(apply_with_bugs(
            &mut q,
            run,
            BugSet::NONE.with(Bug::CseNegSat)
        ));
        assert_eq!(
            q.text_compact(),
            canon(&format!("{HEAD}mul.sat(8) g4<1>F g3<8,8,1>F 0x40400000F\nmul(8) g5<1>F -g4<8,8,1>F 0x3f800000F\n{STORE_SUM}"))
        );
        assert_ne!(
            outputs(&p, 12, &float_input, 0),
            outputs(&q, 12, &float_input, 0)
        );
    }

    #[test]
    fn no_negation_matching_for_integers_cmods_or_df() {
        for b in [
            "mul(8) g4<1>D g3<8,8,1>D 3W\nmul(8) g5<1>D -g3<8,8,1>D 3W\n",
            "mul.nz.f0.0(8) g4<1>F g3<8,8,1>F 0x40400000F\nmul.nz.f0.0(8) g5<1>F -g3<8,8,1>F 0x40400000F\n",
        ] {
            golden_f(b, b);
        }
        // DF: no 64-bit immediate 1.0 in a 2-source instruction.
        let text = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\nmov(8) g4<1>DF g3<8,8,1>F\nmul(8) g6<1>DF g4<4,4,1>DF g4<4,4,1>DF\nmul(8) g8<1>DF -g4<4,4,1>DF g4<4,4,1>DF\nadd(8) g10<1>DF g6<4,4,1>DF g8<4,4,1>DF\nmov(8) g12<2>F g10<4,4,1>DF\nmov(8) g14<1>F g12<8,4,2>F\nsend(8) null g2 g14 st.b32 { align1 1Q EOT };";
        let mut p = vprog(
            8,
            text,
            &[
                (2, 1),
                (3, 1),
                (4, 2),
                (6, 2),
                (8, 2),
                (10, 2),
                (12, 2),
                (14, 1),
            ],
        );
        assert!(!apply(&mut p, run));
        assert_eq!(p.text_compact(), canon(text));
    }
}
