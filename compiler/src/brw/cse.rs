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

use super::liveness::Liveness;
use super::ops::{access, dst_offsets, inst_valid, overlaps, regions_for, src_footprint};
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{DstKind, Instruction, Opcode, Src, SrcKind};

struct Entry {
    inst: Instruction,
    reads: Vec<(u32, u32)>,
    writes: Vec<(u32, u32)>,
    flag_reads: u8,
    flag_writes: u8,
    /// Flag-byte versions right after E.
    ver: [u32; 8],
}

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
pub fn run(p: &mut VProgram, _ctx: &PassCtx) -> bool {
    let Some(live) = Liveness::compute(p) else {
        return false;
    };
    let machine = p.machine();
    let mut changed = false;
    let mut counter = 0u32;
    for (b, blk) in live.cfg.blocks.iter().enumerate() {
        let mut avail: Vec<Entry> = Vec::new();
        let mut ver = [0u32; 8];
        for j in blk.start..blk.end {
            let inst = p.insts[j].clone();
            let a = access(&inst);
            let flag_reads = a.flag_lane_reads | a.flag_raw_reads;
            if candidate(&inst) {
                let hit = avail.iter().find(|e| {
                    same_op(&e.inst, &inst)
                        && (0..8).all(|k| {
                            (e.flag_reads | e.flag_writes) & (1 << k) == 0 || ver[k] == e.ver[k]
                        })
                        && flag_reads & e.flag_writes == 0
                });
                if let Some(e) = hit {
                    let still_live = (j + 1..blk.end).any(|k| {
                        access(&p.insts[k])
                            .reads
                            .iter()
                            .any(|r| overlaps(&[(r.reg, r.mask)], &e.writes))
                    }) || live.live_out[b].any_live(&e.writes);
                    let replacement = if inst.dst == e.inst.dst || inst.dst.is_null() {
                        Some(None)
                    } else if !still_live {
                        None
                    } else {
                        copy_from(&e.inst, &inst, &machine).map(Some)
                    };
                    if let Some(r) = replacement {
                        match r {
                            None => p.insts[j].op = Opcode::Nop,
                            Some(m) => p.insts[j] = m,
                        }
                        changed = true;
                    }
                }
            }
            // Effects of the (possibly rewritten) instruction.
            let cur = p.insts[j].clone();
            let a = access(&cur);
            if !a.writes.is_empty() {
                avail.retain(|e| !overlaps(&a.writes, &e.reads) && !overlaps(&a.writes, &e.writes));
            }
            for (k, v) in ver.iter_mut().enumerate() {
                if a.flag_writes & (1 << k) != 0 {
                    counter += 1;
                    *v = counter;
                }
            }
            if cur.we_all && (!a.writes.is_empty() || a.flag_writes != 0) {
                avail.retain(|e| e.inst.we_all);
            }
            if cur.op != Opcode::Nop
                && candidate(&cur)
                && !overlaps(
                    &a.writes,
                    &a.reads.iter().map(|r| (r.reg, r.mask)).collect::<Vec<_>>(),
                )
            {
                let fr = a.flag_lane_reads | a.flag_raw_reads;
                if fr & a.flag_writes == 0 {
                    let reads = cur
                        .srcs
                        .iter()
                        .flat_map(|s| src_footprint(s, cur.exec_size))
                        .collect();
                    avail.push(Entry {
                        inst: cur,
                        reads,
                        writes: a.writes,
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
    use crate::brw::testutil::{apply, canon, check_preserves, vprog};

    const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\n";
    const VG: &[(u32, u32)] = &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)];

    fn golden(body: &str, tail: &str, want_body: &str) {
        let text = format!("{HEAD}{body}{tail}");
        let p = vprog(8, &text, VG);
        let q = check_preserves(&p, run, 11, &|k| {
            (k as u64).wrapping_mul(0x9e37_79b9) & 0xffff_ffff
        });
        assert_eq!(q.text(), canon(&format!("{HEAD}{want_body}{tail}")));
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
}
