//! Tests of `copy_prop`.

use super::*;
use crate::brw::testutil::{apply_with_bugs, canon, check_preserves, outputs, vprog};

const HEAD: &str = "shl(8) g2<1>UD g1<8,8,1>UD 0x00000003UD\nsend(8) g3 g2 ld.b32\n";
const VG: &[(u32, u32)] = &[(2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)];
const STORE: &str = "send(8) null g2 g6 st.b32 { align1 1Q EOT };";

fn golden(body: &str, want: &str) {
    let text = format!("{HEAD}{body}{STORE}");
    let p = vprog(8, &text, VG);
    let q = check_preserves(&p, run, 13, &|k| (k as u64 * 0x1234_5679) & 0xffff_ffff);
    assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}{STORE}")));
}

#[test]
fn grf_copies_propagate() {
    golden(
        "mov(8) g4<1>D g3<8,8,1>D\nadd(8) g6<1>D g4<8,8,1>D g4.2<0,1,0>D\n",
        "mov(8) g4<1>D g3<8,8,1>D\nadd(8) g6<1>D g3<8,8,1>D g3.2<0,1,0>D\n",
    );
    // Through a stride-2 word copy, read as UW: <16;8,2>.
    golden(
        "mov(8) g4<2>W g3<16,8,2>W\nmov(8) g6<1>D g4<16,8,2>UW\n",
        "mov(8) g4<2>W g3<16,8,2>W\nmov(8) g6<1>D g3<16,8,2>UW\n",
    );
    // A scalar source stays scalar.
    golden(
        "mov(8) g4<1>D g3.5<0,1,0>D\nadd(8) g6<1>D g4<8,8,1>D g3<8,8,1>D\n",
        "mov(8) g4<1>D g3.5<0,1,0>D\nadd(8) g6<1>D g3.5<0,1,0>D g3<8,8,1>D\n",
    );
}

#[test]
fn immediates_go_where_legal() {
    // src1 directly; src0 of a commutative op by swapping.
    golden(
        "mov(8) g4<1>D 7D\nadd(8) g5<1>D g3<8,8,1>D g4<8,8,1>D\nadd(8) g6<1>D g4<8,8,1>D g5<8,8,1>D\n",
        "mov(8) g4<1>D 7D\nadd(8) g5<1>D g3<8,8,1>D 7D\nadd(8) g6<1>D g5<8,8,1>D 7D\n",
    );
    // A predicated SEL swaps its sources and inverts the predicate.
    golden(
        "mov(8) g4<1>D 7D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) sel(8) g6<1>D g4<8,8,1>D g3<8,8,1>D\n",
        "mov(8) g4<1>D 7D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(-f0.0) sel(8) g6<1>D g3<8,8,1>D 7D\n",
    );
    // Not into src0 of a non-commutative op, not under a modifier,
    // not a DWord into src1 of a DWord x word MUL (by commuting).
    let b = "mov(8) g4<1>D 7D\nshl(8) g5<1>D g4<8,8,1>D g3<8,8,1>D\nadd(8) g5<1>D g5<8,8,1>D -g4<8,8,1>D\nadd(8) g7<2>W g3<16,8,2>W 1W\nmul(8) g6<1>D g4<8,8,1>D g7<16,8,2>W\n";
    golden(b, b);
}

#[test]
fn nomask_scalar_constants_propagate() {
    golden(
        "mov(1) g4<1>UW 0x0005UW { align1 WE_all 1N };\nmov(8) g5<2>W g3<16,8,2>W\ncmp.l.f0.0(8) g6<2>W g5<16,8,2>W g4<0,1,0>W\n",
        "mov(1) g4<1>UW 0x0005UW { align1 WE_all 1N };\nmov(8) g5<2>W g3<16,8,2>W\ncmp.l.f0.0(8) g6<2>W g3<16,8,2>W 5W\n",
    );
}

#[test]
fn qword_immediates_only_into_mov() {
    let vg = [(2, 1), (3, 1), (4, 2), (6, 2), (8, 2)];
    let text = format!("{HEAD}mov(8) g4<1>UQ 0x0000000500000003UQ\nadd(8) g6<1>UQ g4<4,4,1>UQ g4<4,4,1>UQ\nmov(8) g8<1>UQ g4<4,4,1>UQ\n{STORE}");
    let p = vprog(8, &text, &vg);
    let q = check_preserves(&p, run, 8, &|k| k as u64);
    assert_eq!(
        q.text_compact(),
        canon(&format!("{HEAD}mov(8) g4<1>UQ 0x0000000500000003UQ\nadd(8) g6<1>UQ g4<4,4,1>UQ g4<4,4,1>UQ\nmov(8) g8<1>UQ 0x0000000500000003UQ\n{STORE}"))
    );
}

#[test]
fn refusals() {
    // The source is overwritten between copy and reader (NoMask or not).
    let b = "mov(8) g4<1>D g3<8,8,1>D\nmov(8) g3<1>D 1D { align1 WE_all 1Q };\nadd(8) g6<1>D g4<8,8,1>D 1D\n";
    golden(b, b);
    // The copy's destination is written twice (a phi-like vgrf).
    let b = "mov(8) g4<1>D g3<8,8,1>D\nadd(8) g6<1>D g4<8,8,1>D 1D\nmov(8) g4<1>D 2D\n";
    golden(b, b);
    // NoMask GRF, predicated, saturated, type-changing copies are not
    // copies.
    for b in [
        "mov(8) g4<1>D g3<8,8,1>D { align1 WE_all 1Q };\nadd(8) g6<1>D g4<8,8,1>D 1D\n",
        "mov.nz.f0.0(8) null<1>D g3<8,8,1>D\n(+f0.0) mov(8) g4<1>D g3<8,8,1>D\nadd(8) g6<1>D g4<8,8,1>D 1D\n",
        "mov.sat(8) g4<1>F g3<8,8,1>F\nadd(8) g6<1>F g4<8,8,1>F g4<8,8,1>F\n",
        "mov(8) g4<1>F g3<8,8,1>D\nadd(8) g6<1>F g4<8,8,1>F g4<8,8,1>F\n",
    ] {
        golden(b, b);
    }
    // A source with a NoMask writer, or written in another block too,
    // is not pinned: readers in other blocks are not touched.
    for b in [
        "add(8) g5<1>D g3<8,8,1>D 1D { align1 WE_all 1Q };\nmov(8) g4<1>D g5<8,8,1>D\nmov(8) g6<1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) if(8) JIP: L0 UIP: L0\nadd(8) g6<1>D g4<8,8,1>D 1D\nL0:\nendif(8) JIP: L1\nL1:\n",
        "add(8) g5<1>D g3<8,8,1>D 1D\nmov(8) g4<1>D g5<8,8,1>D\nmov(8) g6<1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) if(8) JIP: L0 UIP: L0\nadd(8) g5<1>D g3<8,8,1>D 2D\nadd(8) g6<1>D g4<8,8,1>D 1D\nL0:\nendif(8) JIP: L1\nL1:\n",
    ] {
        golden(b, b);
    }
}

#[test]
fn coverage_records_the_propagation_and_the_refusal() {
    // g5 is written again after the copy: the first reader takes g5,
    // the one after the overwrite keeps g4.
    let rec = crate::coverage::Recording::start();
    golden(
        "add(8) g5<1>D g3<8,8,1>D 1D\nmov(8) g4<1>D g5<8,8,1>D\nadd(8) g7<1>D g4<8,8,1>D 2D\nadd(8) g5<1>D g3<8,8,1>D 5D\nadd(8) g6<1>D g4<8,8,1>D g7<8,8,1>D\n",
        "add(8) g5<1>D g3<8,8,1>D 1D\nmov(8) g4<1>D g5<8,8,1>D\nadd(8) g7<1>D g5<8,8,1>D 2D\nadd(8) g5<1>D g3<8,8,1>D 5D\nadd(8) g6<1>D g4<8,8,1>D g7<8,8,1>D\n",
    );
    let hits = rec.finish();
    assert_eq!(
        hits,
        crate::coverage::Hits::from([
            (cov::COPY_GRF.name(), 1),
            (cov::SCOPE_WRITTEN_ELSEWHERE.name(), 1),
            (cov::PROP_GRF.name(), 1),
            (cov::REFUSE_SOURCE_OVERWRITTEN.name(), 1),
        ])
    );
}

#[test]
fn pinned_sources_propagate_across_blocks() {
    // g3 is written only by the load just before the copy: the reader in
    // the IF uses g3 directly.
    golden(
        "mov(8) g4<1>D g3<8,8,1>D\nmov(8) g6<1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) if(8) JIP: L0 UIP: L0\nadd(8) g6<1>D g4<8,8,1>D 1D\nL0:\nendif(8) JIP: L1\nL1:\n",
        "mov(8) g4<1>D g3<8,8,1>D\nmov(8) g6<1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) if(8) JIP: L0 UIP: L0\nadd(8) g6<1>D g3<8,8,1>D 1D\nL0:\nendif(8) JIP: L1\nL1:\n",
    );
    // In a loop: t = x + i; c = copy of t (pinned: t's only writer is
    // just before it); from the second iteration on, c is read before t
    // is rewritten, so t may be read instead.
    golden(
        "mov(8) g6<1>D 0D\nmov(8) g7<1>D 0D\nL0:\ncmp.nz.f0.1(8) null<1>D g7<8,8,1>D 0D\n(+f0.1) add(8) g6<1>D g6<8,8,1>D g4<8,8,1>D\nadd(8) g5<1>D g3<8,8,1>D g7<8,8,1>D\nmov(8) g4<1>D g5<8,8,1>D\nadd(8) g7<1>D g7<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g7<8,8,1>D 3D\n(+f0.0) while(8) JIP: L0\n",
        "mov(8) g6<1>D 0D\nmov(8) g7<1>D 0D\nL0:\ncmp.nz.f0.1(8) null<1>D g7<8,8,1>D 0D\n(+f0.1) add(8) g6<1>D g6<8,8,1>D g5<8,8,1>D\nadd(8) g5<1>D g3<8,8,1>D g7<8,8,1>D\nmov(8) g4<1>D g5<8,8,1>D\nadd(8) g7<1>D g7<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g7<8,8,1>D 3D\n(+f0.0) while(8) JIP: L0\n",
    );
}

#[test]
fn a_narrowing_copy_of_a_compare_is_pinned() {
    // bool16's narrowing of a 32-bit CMP: the copy reads each channel's
    // low word of the dword the CMP wrote for that channel, so the
    // reader in the IF reads the CMP result directly.
    golden(
        "cmp.l.f0.0(8) g5<1>D g3<8,8,1>D 5D\nmov(8) g4<1>W g5<16,8,2>W\nmov(8) g6<1>D 0D\n(+f0.0) if(8) JIP: L0 UIP: L0\nmov(8) g6<1>D -g4<8,8,1>W\nL0:\nendif(8) JIP: L1\nL1:\n",
        "cmp.l.f0.0(8) g5<1>D g3<8,8,1>D 5D\nmov(8) g4<1>W g5<16,8,2>W\nmov(8) g6<1>D 0D\n(+f0.0) if(8) JIP: L0 UIP: L0\nmov(8) g6<1>D -g5<16,8,2>W\nL0:\nendif(8) JIP: L1\nL1:\n",
    );
    // A copy reading dwords of packed words reads two channels' writes
    // in one channel: not pinned, the reader in the IF keeps the copy.
    let b = "add(8) g5<1>W g3<16,8,2>W 1W\nmov(8) g4<1>D g5<8,8,1>D\nmov(8) g6<1>D 0D\ncmp.l.f0.0(8) null<1>D g3<8,8,1>D 5D\n(+f0.0) if(8) JIP: L0 UIP: L0\nadd(8) g6<1>D g4<8,8,1>D 1D\nL0:\nendif(8) JIP: L1\nL1:\n";
    let rec = crate::coverage::Recording::start();
    golden(b, b);
    let hits = rec.finish();
    assert_eq!(hits.get(cov::SCOPE_WRITER_SHAPE.name()), Some(&1));
}

/// A divergent loop: lane k leaves after x_k iterations. Each iteration
/// a NoMask scalar write reads f0.0 (the lanes still looping) and a
/// masked copy broadcasts it; after the loop each lane reads its copy.
const NOMASK_LOOP: &str = "mov(8) g5<1>D 0D\nL0:\nadd(8) g5<1>D g5<8,8,1>D 1D\ncmp.l.f0.0(8) null<1>D g5<8,8,1>D g3<8,8,1>D\nmov(1) g4<1>UD f0.0<0,1,0>UW { align1 WE_all 1N };\nmov(8) g6<1>UD g4<0,1,0>UD\n(+f0.0) while(8) JIP: L0\nadd(8) g7<1>D g6<8,8,1>D 1D\nsend(8) null g2 g7 st.b32 { align1 1Q EOT };";

#[test]
fn no_propagation_past_a_nomask_overwrite_in_a_divergent_loop() {
    // g4's writer is NoMask: in the iterations after lane k left, it
    // rewrites g4 for lane k too, while g6 keeps lane k's last copy. So
    // g6 may not be replaced by g4 after the loop (d4015bcb388).
    let text = format!("{HEAD}{NOMASK_LOOP}");
    let p = vprog(8, &text, VG);
    let input = |k: u32| u64::from(k % 4 + 1);
    let q = check_preserves(&p, run, 8, &input);
    assert_eq!(q.text_compact(), canon(&text));
    let mut r = p.clone();
    assert!(apply_with_bugs(
        &mut r,
        run,
        BugSet::NONE.with(Bug::CopyPropNoMask)
    ));
    assert_eq!(
        r.text_compact(),
        canon(&format!(
            "{HEAD}{}",
            NOMASK_LOOP.replace("add(8) g7<1>D g6<8,8,1>D", "add(8) g7<1>D g4<0,1,0>D")
        ))
    );
    assert_ne!(outputs(&p, 8, &input, 0), outputs(&r, 8, &input, 0));
}

/// Float inputs at the edges: NaNs with payloads and both signs, ±0,
/// ±inf, a denormal, ordinary values.
fn float_input(k: u32) -> u64 {
    const F: [u64; 11] = [
        0x7fc0_0001,
        0xffc0_1234,
        0x8000_0000,
        0,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0001,
        0x3fc0_0000,
        0xc040_0000,
        0x7f7f_ffff,
        0x3f80_0000,
    ];
    F[k as usize % F.len()]
}

fn golden_f(body: &str, want: &str) {
    let text = format!("{HEAD}{body}{STORE}");
    let p = vprog(8, &text, VG);
    let q = check_preserves(&p, run, 11, &float_input);
    assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}{STORE}")));
}

#[test]
fn float_modifier_copies_propagate_into_value_readers() {
    golden_f(
        "mov(8) g4<1>F -g3<8,8,1>F\nmul(8) g6<1>F g4<8,8,1>F g3<8,8,1>F\n",
        "mov(8) g4<1>F -g3<8,8,1>F\nmul(8) g6<1>F -g3<8,8,1>F g3<8,8,1>F\n",
    );
    // Negations cancel; the reader's own (abs) wins over the copy's.
    golden_f(
        "mov(8) g4<1>F -(abs)g3<8,8,1>F\nadd(8) g5<1>F -g4<8,8,1>F g3<8,8,1>F\nmov(8) g7<1>F -g3<8,8,1>F\nmul(8) g6<1>F (abs)g7<8,8,1>F g5<8,8,1>F\n",
        "mov(8) g4<1>F -(abs)g3<8,8,1>F\nadd(8) g5<1>F (abs)g3<8,8,1>F g3<8,8,1>F\nmov(8) g7<1>F -g3<8,8,1>F\nmul(8) g6<1>F (abs)g3<8,8,1>F g5<8,8,1>F\n",
    );
    // A raw same-type MOV and a predicated SEL flip the sign bit as the
    // copy did (NaN payload kept).
    golden_f(
        "mov(8) g4<1>F -g3<8,8,1>F\ncmp.l.f0.0(8) null<1>F g3<8,8,1>F 0x00000000F\n(+f0.0) sel(8) g6<1>F g4<8,8,1>F g3<8,8,1>F\n",
        "mov(8) g4<1>F -g3<8,8,1>F\ncmp.l.f0.0(8) null<1>F g3<8,8,1>F 0x00000000F\n(+f0.0) sel(8) g6<1>F -g3<8,8,1>F g3<8,8,1>F\n",
    );
}

#[test]
fn modifier_copies_are_refused_where_they_would_change_bits() {
    // An integer negation, a float negation read as raw bits (UD), and a
    // float negation into a logic op stay as they are.
    for b in [
        "mov(8) g4<1>D -g3<8,8,1>D\nadd(8) g6<1>D g4<8,8,1>D 1D\n",
        "mov(8) g4<1>F -g3<8,8,1>F\nmov(8) g6<1>UD g4<8,8,1>UD\n",
        "mov(8) g4<1>F -g3<8,8,1>F\nand(8) g6<1>UD g4<8,8,1>UD 0x7fffffffUD\n",
    ] {
        golden_f(b, b);
    }
}

#[test]
fn injected_bug_moves_a_float_negate_into_a_raw_read() {
    // copy-prop-mods-type-change: the UD MOV gets the F copy's negate
    // and negates the integer: 1.0 (0x3f800000) becomes 0xc0800000
    // instead of -1.0 (0xbf800000).
    let b = "mov(8) g4<1>F -g3<8,8,1>F\nmov(8) g6<1>UD g4<8,8,1>UD\n";
    let p = vprog(8, &format!("{HEAD}{b}{STORE}"), VG);
    let mut q = p.clone();
    assert!(apply_with_bugs(
        &mut q,
        run,
        BugSet::NONE.with(Bug::CopyPropModsTypeChange)
    ));
    let want = "mov(8) g4<1>F -g3<8,8,1>F\nmov(8) g6<1>UD -g3<8,8,1>UD\n";
    assert_eq!(q.text_compact(), canon(&format!("{HEAD}{want}{STORE}")));
    assert_ne!(
        outputs(&p, 11, &float_input, 0),
        outputs(&q, 11, &float_input, 0)
    );
}

#[test]
fn the_writer_index_lists_every_writer_of_a_footprint_once_in_order() {
    // Instruction 0 writes g2, 1 writes g3-g4, 2 writes g2-g3, 3 writes
    // nothing, 4 writes g4.
    let writes = |regs: &[u32]| {
        Rc::new(Access {
            writes: regs.iter().map(|&r| (r, u32::MAX)).collect(),
            ..Access::default()
        })
    };
    let all = [
        writes(&[2]),
        writes(&[3, 4]),
        writes(&[2, 3]),
        writes(&[]),
        writes(&[4]),
    ];
    // Sized for three registers: the others are added as they come.
    let index = RegisterIndex::writers(&all, 3);
    let of = |regs: &[u32]| {
        let fp: Vec<(u32, u32)> = regs.iter().map(|&r| (r, 0xf)).collect();
        index.writers_of(&fp)
    };
    assert_eq!(of(&[2]), [0, 2]);
    assert_eq!(of(&[3]), [1, 2]);
    assert_eq!(of(&[4, 2]), [0, 1, 2, 4]);
    assert_eq!(of(&[2, 3, 4]), [0, 1, 2, 4]);
    assert_eq!(of(&[5]), Vec::<usize>::new());
    // A register past the program's: nothing writes it.
    assert_eq!(of(&[9]), Vec::<usize>::new());
}
