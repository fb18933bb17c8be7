//! vec4 register coalescing (`vec4_visitor::opt_register_coalesce`):
//! removes `mov D.wm, S.swz` by making the instructions that computed S
//! write D directly, with the MOV's writemask and swizzle folded into them.
//!
//! **Candidates:** unpredicated, masked, raw Align16 SIMD4x2 MOVs (no
//! `.sat`, cmod or source modifier, one type) from one vgrf register S
//! (vertical stride 4) to another, D, both at subregister 0, with S dead
//! after the MOV.
//!
//! **The scan** walks back through the MOV's block. An instruction writing
//! S is a *producer*; producers are rewritten until every component the
//! MOV reads (`swz(c)` for c in its writemask) has an unpredicated
//! producer. Every producer must write only components the MOV reads, must
//! not write the flag (reswizzling moves its channels, and a flag write
//! would move with them: `can_reswizzle`), and must not be predicated per
//! channel (a normal predicate would then gate a moved channel by another
//! component's flag bit; a replicate predicate reads one bit for all). The scan gives up on
//! anything between the first producer and the MOV that reads S (it would
//! see the renamed value missing), writes a component of D the MOV writes,
//! or reads D (it would see the new value early).
//!
//! **The rewrite** of a producer (`reswizzle`): its destination becomes D,
//! its writemask the MOV's components c whose `swz(c)` it wrote, and each
//! source's swizzle is composed with the MOV's (channel c now computes what
//! channel `swz(c)` computed).
//!
//! Why it is sound: every rewritten producer writes, in the MOV's block and
//! so under the MOV's execution mask, exactly the D components the MOV
//! would have written from its result, and nothing reads D or S in
//! between or S afterwards.

use crate::brw::liveness::Liveness;
use crate::brw::ops::{overlaps, shared_access, src_footprint};
use crate::bugs::Bug;
use crate::coverage::hit;
use crate::passes::PassCtx;
use crate::vir::VProgram;
use eu::{Align16, DstKind, Instruction, Opcode, PredMode, SrcKind, Swizzle};

crate::points! {
    /// A MOV was coalesced away: its producers write its destination.
    COALESCE = "vec4:register-coalesce/coalesce",
    /// ... with a swizzle other than the identity folded into them.
    RESWIZZLE = "vec4:register-coalesce/coalesce/reswizzle",
    /// Refused: a producer writes the flag (reswizzling would move it).
    REFUSE_FLAG_WRITER = "vec4:register-coalesce/refuse/producer-writes-flag",
    /// Refused: a producer writes a component the MOV does not read.
    REFUSE_EXTRA_COMPONENT = "vec4:register-coalesce/refuse/producer-writes-unread-component",
    /// Refused: a producer is predicated per channel (a normal predicate):
    /// reswizzling would gate its channels by other flag bits.
    REFUSE_PREDICATED = "vec4:register-coalesce/refuse/normal-predicated-producer",
    /// Refused: the source is read after the MOV.
    REFUSE_SOURCE_LIVE = "vec4:register-coalesce/refuse/source-live-after",
    /// Refused: between the producers and the MOV, something reads the
    /// source or reads or writes the destination.
    REFUSE_INTERFERENCE = "vec4:register-coalesce/refuse/interference",
    /// Refused: the block does not produce every component the MOV reads.
    REFUSE_NOT_PRODUCED = "vec4:register-coalesce/refuse/not-produced-in-block",
}

/// The MOV's source and destination registers, if it is a candidate.
fn candidate(p: &VProgram, m: &Instruction) -> Option<(u32, u32)> {
    let a16 = m.align16?;
    let s = m.srcs.first()?;
    let (DstKind::Grf { nr: d, sub: 0 }, SrcKind::Grf { nr: src, sub: 0 }) = (m.dst.kind, s.kind)
    else {
        return None;
    };
    let plain = m.op == Opcode::Mov
        && m.exec_size == 8
        && m.group == 0
        && m.pred.is_none()
        && !m.we_all
        && !m.sat
        && m.cmod.is_none()
        && !s.neg
        && !s.abs
        && s.ty == m.dst.ty
        && s.region.v == 4
        && a16.writemask != 0;
    (plain && d != src && p.vgrf_of(d).is_some() && p.vgrf_of(src).is_some()).then_some((src, d))
}

/// The components of the MOV's source that it reads.
fn read_components(a16: Align16) -> u8 {
    (0..4)
        .filter(|&c| a16.writemask >> c & 1 == 1)
        .fold(0, |m, c| m | 1 << a16.swizzle[0].get(c))
}

/// The swizzle reading, at channel c, what `inner` read at channel
/// `outer(c)`.
fn compose(outer: Swizzle, inner: Swizzle) -> Swizzle {
    Swizzle::of([0, 1, 2, 3].map(|c| inner.get(outer.get(c) as usize)))
}

/// Runs the pass; returns whether it changed the program.
pub fn run(p: &mut VProgram, ctx: &PassCtx) -> bool {
    if !p.vec4 {
        return false;
    }
    let Some(live) = Liveness::compute(p) else {
        return false;
    };
    // Whether each MOV's source is live after it, read before any rewrite:
    // a rewrite (within one block) only changes the liveness of its own
    // two registers, so a MOV touching neither keeps its answer; the ones
    // touching them wait for the next run.
    let mut touched: Vec<u32> = Vec::new();
    let mut changed = false;
    for b in 0..live.cfg.blocks.len() {
        let mut after_live: Vec<(usize, bool)> = Vec::new();
        live.walk_back(b, |i, after| {
            if let Some((src, _)) = candidate(p, &p.insts[i]) {
                after_live.push((i, after.regs_live(src, 1)));
            }
            std::borrow::Cow::Borrowed(&*live.access[i])
        });
        // Earliest MOV first.
        for &(m, src_live) in after_live.iter().rev() {
            let Some((s, d)) = candidate(p, &p.insts[m]) else {
                continue;
            };
            if touched.contains(&s) || touched.contains(&d) {
                continue;
            }
            if src_live {
                hit(REFUSE_SOURCE_LIVE);
                continue;
            }
            if coalesce(p, live.cfg.blocks[b].start, m, ctx) {
                touched.extend([s, d]);
                changed = true;
            }
        }
    }
    changed
}

/// Coalesces the MOV at `m` (its block starting at `start`) if it can.
fn coalesce(p: &mut VProgram, start: usize, m: usize, ctx: &PassCtx) -> bool {
    let mov = p.insts[m];
    let Some((_, d)) = candidate(p, &mov) else {
        return false;
    };
    let a16 = mov.align16.expect("a candidate is Align16");
    let needed = read_components(a16);
    let src_fp = src_footprint(&mov.srcs[0], mov.exec_size);
    let dst_fp = shared_access(&mov).writes.clone();
    let mut remaining = needed;
    let mut producers = Vec::new();
    let mut k = m;
    while k > start && remaining != 0 {
        k -= 1;
        let scan = &p.insts[k];
        let a = shared_access(scan);
        if overlaps(&a.writes, &src_fp) {
            let Some(s16) = scan.align16 else {
                hit(REFUSE_NOT_PRODUCED);
                return false;
            };
            let same_place = matches!(
                (scan.dst.kind, mov.srcs[0].kind),
                (DstKind::Grf { nr, sub: 0 }, SrcKind::Grf { nr: s, .. }) if nr == s
            );
            if !same_place
                || scan.exec_size != 8
                || scan.group != 0
                || scan.we_all
                || scan.op == Opcode::Send
                || scan.dst.ty.size() != 4
            {
                hit(REFUSE_NOT_PRODUCED);
                return false;
            }
            // Injected bug (BUGS.md: vec4-coalesce-flag-writer): without
            // can_reswizzle's flag check, the producer's flag write moves
            // with its channels.
            if scan.writes_flag() && !ctx.bugs.has(Bug::Vec4CoalesceFlagWriter) {
                hit(REFUSE_FLAG_WRITER);
                return false;
            }
            if s16.writemask & !needed != 0 {
                hit(REFUSE_EXTRA_COMPONENT);
                return false;
            }
            // A normal predicate reads each channel's own flag bit, so
            // moving a channel would gate it by another component's bit; a
            // replicate predicate reads the same bit in every channel.
            if scan
                .pred
                .is_some_and(|p| !matches!(p.mode, PredMode::Replicate(_)))
            {
                hit(REFUSE_PREDICATED);
                return false;
            }
            // A producer reading S would, once renamed, read components an
            // earlier producer no longer writes there.
            if a.reads
                .iter()
                .any(|r| overlaps(&[(r.reg, r.mask)], &src_fp))
            {
                hit(REFUSE_INTERFERENCE);
                return false;
            }
            if scan.pred.is_none() {
                remaining &= !s16.writemask;
            }
            producers.push(k);
            continue;
        }
        let reads_src = a
            .reads
            .iter()
            .any(|r| overlaps(&[(r.reg, r.mask)], &src_fp));
        if reads_src || overlaps(&a.writes, &dst_fp) || scan.op.is_cf() {
            hit(REFUSE_INTERFERENCE);
            return false;
        }
    }
    if remaining != 0 {
        hit(REFUSE_NOT_PRODUCED);
        return false;
    }
    // No instruction after the first producer and before the MOV may read
    // D: the renamed producers write it earlier than the MOV did (the
    // first producer's own reads come before any renamed write).
    let first = *producers.last().expect("something was produced");
    let checked = if ctx.bugs.has(Bug::Vec4CoalesceDstRead) {
        // Injected bug (BUGS.md: vec4-coalesce-dst-read): reads of the
        // destination between the producers and the MOV are not looked
        // for, so they see the new value early.
        m..m
    } else {
        first + 1..m
    };
    for i in checked {
        let a = shared_access(&p.insts[i]);
        if a.reads
            .iter()
            .any(|r| overlaps(&[(r.reg, r.mask)], &dst_fp))
        {
            hit(REFUSE_INTERFERENCE);
            return false;
        }
    }
    let swz = a16.swizzle[0];
    if swz != Swizzle::XYZW {
        hit(RESWIZZLE);
    }
    for &k in &producers {
        let inst = &mut p.insts[k];
        let mut s16 = inst.align16.expect("producers are Align16");
        let wm = (0..4)
            .filter(|&c| a16.writemask >> c & 1 == 1 && s16.writemask >> swz.get(c) & 1 == 1)
            .fold(0u8, |w, c| w | 1 << c);
        for (j, s) in inst.srcs.iter().enumerate() {
            if !s.is_imm() {
                s16.swizzle[j] = compose(swz, s16.swizzle[j]);
            }
        }
        s16.writemask = wm;
        inst.align16 = Some(s16);
        if let DstKind::Grf { nr, .. } = &mut inst.dst.kind {
            *nr = d;
        }
        // The MOV copies bits (one type, four bytes): the producer keeps
        // its own destination type, whose conversion it performs.
        if wm == 0 {
            // It wrote only components the MOV does not copy.
            inst.op = Opcode::Nop;
        }
    }
    hit(COALESCE);
    p.insts[m].op = Opcode::Nop;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brw::testutil::{apply, check_preserves, outputs};

    use crate::vec4::testing::{prog, whole};

    fn ints(k: u32) -> u64 {
        (k * 3 + 1) as u64
    }

    #[test]
    fn a_replicating_copy_is_folded_into_its_producer() {
        // The store's data copy: g4.x replicated into every component of g6.
        let body = "\
add(8) g4<1>.xD g3<4>.xD 5D { align16 1Q };
mov(8) g6<1>UD g4<4>.xUD { align16 1Q };";
        let p = prog(body.replace("UD", "D").as_str());
        let q = check_preserves(&p, run, 5, &ints);
        let want = "add(8) g6<1>D g3<4>.xD 5D { align16 1Q };";
        assert_eq!(q.text_compact(), whole(want));
    }

    #[test]
    fn a_converting_producer_keeps_its_destination_type() {
        // The farm's first vec4 finding: `mov g4.x:F g3.x:UD` converts; the
        // copy moves its bits as UD. The producer must still convert.
        let body = "\
mov(8) g4<1>.xF g3<4>.xUD { align16 1Q };
mov(8) g6<1>UD g4<4>.xUD { align16 1Q };";
        let p = prog(body);
        let q = check_preserves(&p, run, 5, &ints);
        let want = "mov(8) g6<1>F g3<4>.xUD { align16 1Q };";
        assert_eq!(q.text_compact(), whole(want));
    }

    #[test]
    fn producers_of_two_components_are_reswizzled() {
        // g4.y and g4.x are moved into g6.x and g6.zw (swizzle .yxxx).
        let body = "\
mov(8) g6<1>D 0D { align16 1Q };
add(8) g4<1>.xD g3<4>.xD 5D { align16 1Q };
add(8) g4<1>.yD g3<4>.xD 3D { align16 1Q };
mov(8) g6<1>.xzwD g4<4>.yxxxD { align16 1Q };";
        let p = prog(body);
        let rec = crate::coverage::Recording::start();
        let q = check_preserves(&p, run, 5, &ints);
        assert!(rec.finish().contains_key(RESWIZZLE.name()));
        // g6.x = g3.x + 3 (what g4.y held), g6.zw = g3.x + 5 (g4.x).
        let want = "\
mov(8) g6<1>D 0D { align16 1Q };
add(8) g6<1>.zwD g3<4>.xD 5D { align16 1Q };
add(8) g6<1>.xD g3<4>.xD 3D { align16 1Q };";
        assert_eq!(q.text_compact(), whole(want));
    }

    #[test]
    fn a_flag_writing_producer_is_not_reswizzled() {
        // cmp.l writes g4.x and flag x; coalescing would make it write g6 and
        // the flag in every component, so the SEL's `.y` would read a flag
        // bit the cmp now writes.
        let body = "\
mov(1) f0.0<1>UW 0x0000UW { align1 WE_all 1N };
cmp.l.f0.0(8) g4<1>.xD g3<4>.xD 7D { align16 1Q };
mov(8) g6<1>D g4<4>.xD { align16 1Q };
(+f0.0.y) sel(8) g5<1>.yD g6<4>.yD 9D { align16 1Q };
mov(8) g6<1>D g5<4>.yD { align16 1Q };";
        let p = prog(body);
        let mut q = p.clone();
        assert!(!apply(&mut q, run));
        let bad = prog(&body.replace(
            "cmp.l.f0.0(8) g4<1>.xD g3<4>.xD 7D { align16 1Q };\nmov(8) g6<1>D g4<4>.xD { align16 1Q };",
            "cmp.l.f0.0(8) g6<1>D g3<4>.xD 7D { align16 1Q };",
        ));
        assert_ne!(bad.text_compact(), p.text_compact());
        assert_ne!(outputs(&p, 4, &ints, 0), outputs(&bad, 4, &ints, 0));
    }

    #[test]
    fn a_producer_predicated_per_channel_is_not_moved_to_other_channels() {
        // f0.0 holds 0b0001_0001: flag bit x of both vertices. The
        // predicated add writes g4.x where bit x is set; moved to g6.w (the
        // component the store keeps) it would be gated by bit w, which is
        // clear.
        let body = "\
mov(1) f0.0<1>UW 0x0011UW { align1 WE_all 1N };
mov(8) g6<1>D 0D { align16 1Q };
mov(8) g4<1>.xD 1D { align16 1Q };
(+f0.0) add(8) g4<1>.xD g3<4>.xD 5D { align16 1Q };
mov(8) g6<1>.wD g4<4>.xD { align16 1Q };";
        let p = prog(body);
        let rec = crate::coverage::Recording::start();
        let mut q = p.clone();
        assert!(!apply(&mut q, run), "{}", q.text());
        assert!(rec.finish().contains_key(REFUSE_PREDICATED.name()));
        let moved = "\
mov(1) f0.0<1>UW 0x0011UW { align1 WE_all 1N };
mov(8) g6<1>D 0D { align16 1Q };
mov(8) g6<1>.wD 1D { align16 1Q };
(+f0.0) add(8) g6<1>.wD g3<4>.xD 5D { align16 1Q };";
        let bad = prog(moved);
        assert_ne!(outputs(&p, 4, &ints, 0), outputs(&bad, 4, &ints, 0));
    }

    #[test]
    fn a_source_read_later_or_a_destination_read_between_stops_it() {
        let read_later = "\
add(8) g4<1>.xD g3<4>.xD 5D { align16 1Q };
mov(8) g6<1>D g4<4>.xD { align16 1Q };
add(8) g6<1>.yD g4<4>.xD 1D { align16 1Q };";
        let mut p = prog(read_later);
        assert!(!apply(&mut p, run));
        let read_between = "\
mov(8) g6<1>D 2D { align16 1Q };
add(8) g4<1>.xD g3<4>.xD 5D { align16 1Q };
add(8) g5<1>.xD g6<4>.xD 1D { align16 1Q };
mov(8) g6<1>.xD g4<4>.xD { align16 1Q };
add(8) g6<1>.wD g5<4>.xD 0D { align16 1Q };";
        let p = prog(read_between);
        let rec = crate::coverage::Recording::start();
        let q = check_preserves(&p, run, 5, &ints);
        assert!(rec.finish().contains_key(REFUSE_INTERFERENCE.name()));
        assert_eq!(q.text_compact(), p.text_compact());
    }
}
