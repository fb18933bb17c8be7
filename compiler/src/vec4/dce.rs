//! vec4 dead-code elimination with per-component flag liveness
//! (`brw_vec4_dead_code_eliminate.cpp` after Piñeiro's patch of seed 002,
//! with its follow-up 440c0513406).
//!
//! Walks every block backwards. GRF liveness is the shared byte-exact
//! analysis (`brw::liveness`, whose footprints follow writemasks and
//! swizzles); flag liveness is tracked here per **component** of each flag
//! byte (x, y, z, w: channel c of SIMD4x2 is component c % 4), starting
//! from every component of each flag byte live out of the block. For each
//! Align16 ALU instruction:
//!
//! * a component is **kept** when its GRF bytes (both vertices) are live
//!   after it, or when the instruction writes the flag and that
//!   component's flag bit is live (the 440c0513406 rule: narrowing the
//!   writemask of a CMP would drop the flag bits of the components it no
//!   longer writes);
//! * the writemask is **narrowed** to the kept components; an instruction
//!   keeping none is **deleted**; one whose GRF result is dead but whose
//!   flag is live gets a **null destination**.
//!
//! Flag liveness, per-channel mode: an unpredicated flag write kills the
//! components of its writemask (the others keep their bits, so they stay
//! live), a replicate predicate (`.x`…`.w`) reads one component, any
//! other flag read reads all four. Conservative mode (before the patch):
//! the flag is one bit, any read keeps every component, only a
//! full-writemask write kills, and a null-destination flag write is kept
//! whole or deleted whole. Mesa's DCE cleared all four components on every
//! flag write whatever its writemask; this pass does not (a write of `.x`
//! leaves `.y` as it was; a test shows what the other choice breaks).
//!
//! Why it is sound: a deleted component is neither read as a GRF value nor
//! as a flag bit before it is written again on any path (the GRF sets are
//! the program's liveness; the flag components are exact within the block
//! and all live at its end).

use crate::brw::liveness::Liveness;
use crate::brw::ops::{access, add_bytes, flag_channel_bits, Access};
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::{FlagLiveness, PassCtx};
use crate::vir::{VProgram, GRF_BYTES};
use eu::{DstKind, Instruction, Opcode, PredMode, SrcKind};
use std::borrow::Cow;

crate::points! {
    /// An instruction none of whose components is live was removed.
    REMOVE = "vec4:dce/remove-instruction",
    /// A writemask narrowed to the components whose results are live.
    NARROW = "vec4:dce/narrow-writemask",
    /// A null-destination flag write narrowed to the flag components still
    /// read (per-channel mode: what lets cmod propagation remove it).
    NARROW_FLAG_WRITE = "vec4:dce/narrow-writemask/flag-write",
    /// The GRF result is dead but flag components are live: kept for its
    /// flag write with a null destination.
    NULL_DST = "vec4:dce/keep-for-flag/null-destination",
    /// A component whose GRF result is dead kept because its flag bit is
    /// still read (440c0513406).
    REFUSE_LIVE_FLAG = "vec4:dce/refuse/flag-component-live",
    /// A flag write with a partial writemask kills only its components;
    /// another component it does not write stays live.
    REFUSE_PARTIAL_KILL = "vec4:dce/refuse/kill-unwritten-component",
}

/// Flag components, bit 4f + c: component c of flag byte f (f0.0 is
/// bytes 0 and 1).
type FlagComps = u32;

/// Every component of the flag bytes `bytes`.
fn all_components(bytes: u8) -> FlagComps {
    (0..8)
        .filter(|f| bytes >> f & 1 == 1)
        .fold(0, |m, f| m | 0xf << (4 * f))
}

/// The flag byte an exec-8 Align16 instruction's cmod or predicate uses.
fn flag_byte(i: &Instruction) -> u32 {
    flag_channel_bits(i).0 / 8
}

/// Whether `i` is an instruction this pass may narrow or delete.
fn candidate(i: &Instruction) -> bool {
    i.align16.is_some()
        && i.exec_size == 8
        && i.group == 0
        && i.op.has_dst()
        && !i.op.is_cf()
        && !matches!(i.op, Opcode::Send | Opcode::Nop)
}

/// Components of `i`'s GRF destination with a byte live in `after`.
fn live_components(i: &Instruction, after: &crate::brw::liveness::LiveSet) -> u8 {
    let DstKind::Grf { nr, sub } = i.dst.kind else {
        return 0;
    };
    let size = i.dst.ty.size();
    let start = nr * GRF_BYTES + sub * size;
    (0..4u32)
        .filter(|&c| {
            let mut fp = crate::brw::ops::Footprint::new();
            for ch in [c, c + 4] {
                add_bytes(&mut fp, start + ch * size, size);
            }
            after.any_live(&fp)
        })
        .fold(0, |m, c| m | 1 << c)
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    if !p.vec4 {
        return false;
    }
    let Some(live) = Liveness::compute(p) else {
        return false;
    };
    let per_channel = ctx.flag_liveness == FlagLiveness::PerChannel;
    let mut changed = false;
    for b in 0..live.cfg.blocks.len() {
        let mut flags: FlagComps = all_components(live.live_out[b].flags());
        live.walk_back(b, |i, after| {
            // Edited on a copy, written back when edited: a program left
            // unchanged keeps its identity ([`crate::insts`]).
            let mut copy = p.insts[i];
            let inst = &mut copy;
            let a = &live.access[i];
            let mut fp: Cow<'_, Access> = Cow::Borrowed(&**a);
            if candidate(inst) && edit(inst, after, flags, per_channel, ctx) {
                changed = true;
                p.insts[i] = *inst;
                fp = Cow::Owned(if inst.op == Opcode::Nop {
                    Access::default()
                } else {
                    access(inst)
                });
            }
            flags = step_flags(inst, &fp, flags, per_channel, ctx);
            fp
        });
    }
    changed
}

/// Narrows or deletes `inst` given what is live after it; returns whether
/// it changed.
fn edit(
    inst: &mut Instruction,
    after: &crate::brw::liveness::LiveSet,
    flags: FlagComps,
    per_channel: bool,
    ctx: &PassCtx,
) -> bool {
    let Some(mut a16) = inst.align16 else {
        return false;
    };
    let wm = a16.writemask;
    let writes_flag = inst.writes_flag();
    let flag_live = if writes_flag {
        ((flags >> (4 * flag_byte(inst))) & 0xf) as u8
    } else {
        0
    };
    let flag_keep = match (per_channel, flag_live) {
        (true, f) => f,
        (false, 0) => 0,
        (false, _) => 0xf,
    };
    let grf = matches!(inst.dst.kind, DstKind::Grf { .. });
    let grf_live = live_components(inst, after);
    let keep = if !grf {
        if !writes_flag {
            return false;
        }
        flag_keep
    } else {
        let mut keep = grf_live | flag_keep;
        if writes_flag && wm & flag_keep & !grf_live != 0 {
            hit(REFUSE_LIVE_FLAG);
            if grf_live != 0 && ctx.bugs.has(Bug::Vec4DceNarrowDropsFlag) {
                // Injected bug (BUGS.md: vec4-dce-narrow-drops-flag): the
                // writemask follows the live GRF components only, as
                // before 440c0513406, so the flag bits of the others are
                // no longer written.
                keep = grf_live;
            }
        }
        keep
    };
    let new_wm = wm & keep;
    if new_wm == 0 {
        hit(REMOVE);
        inst.op = Opcode::Nop;
        return true;
    }
    let mut changed = false;
    if grf && wm & grf_live == 0 {
        // Only the flag result is live.
        hit(NULL_DST);
        inst.dst.kind = DstKind::Null;
        changed = true;
    }
    if new_wm != wm {
        hit(if grf { NARROW } else { NARROW_FLAG_WRITE });
        a16.writemask = new_wm;
        inst.align16 = Some(a16);
        changed = true;
    }
    changed
}

/// The flag components live before `inst`, given those live after it and
/// its (possibly edited) footprint.
fn step_flags(
    inst: &Instruction,
    a: &Access,
    mut flags: FlagComps,
    per_channel: bool,
    ctx: &PassCtx,
) -> FlagComps {
    if inst.op == Opcode::Nop {
        return flags;
    }
    // Kills.
    match inst.align16 {
        Some(a16) if inst.writes_flag() && inst.pred.is_none() && inst.exec_size == 8 => {
            let shift = 4 * flag_byte(inst);
            let wm = a16.writemask as u32;
            let killed = if per_channel {
                wm
            } else if wm == 0xf {
                0xf
            } else {
                0
            };
            if (flags >> shift) & 0xf & !killed != 0 && killed != 0xf {
                hit(REFUSE_PARTIAL_KILL);
            }
            flags &= !(killed << shift);
        }
        _ => flags &= !all_components(a.flag_kill_lane | a.flag_kill_full),
    }
    // Reads.
    let read_bytes = a.flag_lane_reads | a.flag_raw_reads;
    let flag_source = inst
        .srcs
        .iter()
        .any(|s| matches!(s.kind, SrcKind::Flag { .. }));
    match inst.pred.map(|p| p.mode) {
        Some(PredMode::Replicate(k)) if per_channel && !flag_source => {
            flags |= all_components(read_bytes) & (0x1111_1111 << k);
        }
        _ if read_bytes != 0 && per_channel && ctx.bugs.has(Bug::Vec4DceFlagReadsX) => {
            // Injected bug (BUGS.md: vec4-dce-flag-reads-x): a read keeps
            // only component x live, as the thread's v1 did with liveness
            // that tracked one flag bit.
            flags |= all_components(read_bytes) & 0x1111_1111;
        }
        _ => flags |= all_components(read_bytes),
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{apply, check_preserves};
    use crate::passes::FlagLiveness;

    use crate::vec4::testing::{prog, whole};

    fn conservative(p: &mut VProgram) -> bool {
        run(
            p,
            &PassCtx {
                flag_liveness: FlagLiveness::Conservative,
                ..crate::brw::testutil::ctx(8)
            },
        )
    }

    /// The seed's example: `cmp.l` writes g4.x and flag x, `cmp.nz null`
    /// rewrites every flag component from g4.x, and the SEL reads only
    /// component x (`.x`). Per-channel liveness narrows the null write to
    /// `.x`; conservative liveness keeps it whole.
    const SEED: &str = "\
cmp.l.f0.0(8) g4<1>.xF g3<4>.xF 0F { align16 1Q };
cmp.nz.f0.0(8) null<1>D g4<4>.xD 0D { align16 1Q };
(+f0.0.x) sel(8) g5<1>.xUD g3<4>.xUD 0x3f800000UD { align16 1Q };
mov(8) g6<1>UD g5<4>.xUD { align16 1Q };";

    #[test]
    fn per_channel_liveness_narrows_a_null_flag_write_to_the_components_read() {
        let p = prog(SEED);
        let q = check_preserves(&p, run, 5, &|k| (k as f32 - 2.0).to_bits() as u64);
        assert_eq!(
            q.text_compact(),
            whole(&SEED.replace("null<1>D", "null<1>.xD"))
        );
        let mut c = p.clone();
        assert!(!conservative(&mut c), "{}", c.text());
    }

    #[test]
    fn dead_components_go_and_a_flag_only_result_keeps_a_null_destination() {
        // g5.y is never read; g4 is read only through the flag (.y).
        let body = "\
add(8) g5<1>.xyF g3<4>.xF 1F { align16 1Q };
cmp.l.f0.0(8) g4<1>.yF g3<4>.yF 0F { align16 1Q };
(+f0.0.y) mov(8) g6<1>UD g5<4>.xUD { align16 1Q };";
        let p = prog(body);
        let q = check_preserves(&p, run, 3, &|k| (k as f32).to_bits() as u64);
        let want = body
            .replace("g5<1>.xyF", "g5<1>.xF")
            .replace("g4<1>.yF", "null<1>.yF");
        assert_eq!(q.text_compact(), whole(&want));
    }

    #[test]
    fn a_component_whose_flag_is_read_keeps_its_writemask_bit() {
        // g4.x is read as data, g4.y only as a flag bit: both stay
        // (440c0513406). Narrowed to .x, the SEL would read a stale flag
        // bit y.
        let body = "\
mov(1) f0.0<1>UW 0x0000UW { align1 WE_all 1N };
cmp.l.f0.0(8) g4<1>.xyF g3<4>.xF 2F { align16 1Q };
(+f0.0.y) sel(8) g5<1>.xUD g4<4>.xUD 0x00000007UD { align16 1Q };
mov(8) g6<1>UD g5<4>.xUD { align16 1Q };";
        let p = prog(body);
        let rec = crate::coverage::Recording::start();
        let mut q = p.clone();
        assert!(!apply(&mut q, run), "{}", q.text());
        assert!(rec.finish().contains_key(REFUSE_LIVE_FLAG.name()));
        let bad = prog(&body.replace("g4<1>.xyF", "g4<1>.xF"));
        let input = |k: u32| (k as f32).to_bits() as u64;
        let out = |p: &VProgram| crate::brw::testutil::outputs(p, 4, &input, 0);
        assert_ne!(out(&p), out(&bad));
    }

    #[test]
    fn a_partial_flag_write_does_not_kill_the_components_it_does_not_write() {
        // cmp.nz writes every component of f0.0 from g3; cmp.l then writes
        // only component x; the SEL reads component y, which is still
        // cmp.nz's. Mesa's kill of all four components would delete cmp.nz.
        let body = "\
cmp.nz.f0.0(8) null<1>D g3<4>.xD 0D { align16 1Q };
cmp.l.f0.0(8) g4<1>.xF g3<4>.xF 0F { align16 1Q };
(+f0.0.y) sel(8) g5<1>.xUD g4<4>.xUD 0x00000007UD { align16 1Q };
mov(8) g6<1>UD g5<4>.xUD { align16 1Q };";
        let p = prog(body);
        let q = check_preserves(&p, run, 4, &|k| k as u64 % 2);
        // The null write keeps only component y, the one read.
        assert!(
            q.text_compact().contains("null<1>.yD"),
            "{}",
            q.text_compact()
        );
        let bad = prog(&body.replace("cmp.nz.f0.0(8) null<1>D g3<4>.xD 0D { align16 1Q };\n", ""));
        let input = |k: u32| k as u64 % 2;
        let out = |p: &VProgram| crate::brw::testutil::outputs(p, 4, &input, 3);
        assert_ne!(out(&p), out(&bad));
    }

    #[test]
    fn scalar_programs_are_left_alone() {
        let mut p = prog(SEED);
        p.vec4 = false;
        assert!(!run(&mut p, &crate::brw::testutil::ctx(8)));
    }
}
