//! Flag bit addressing (16·s + group + channel), partial flag writes and
//! every predication mode.
mod common;
use common::{dispatch, out, run_text};

/// Store g20 (slot 0) and the whole f0 register (slot 1) of every lane, SIMD8.
const STORE8: &str = "\
mov(1) g30<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
mov(8) g31<1>UD g30<0,1,0>UD { align1 WE_all 1Q };
shl(8) g10<1>UD g1<8,8,1>UD 0x00000005UD
send(8) null g10 g20 st.b32
add(8) g11<1>UD g10<8,8,1>UD 0x00000008UD
send(8) null g11 g31 st.b32 { align1 1Q EOT };";

const STORE16: &str = "\
mov(1) g30<1>UD f0.0<0,1,0>UD { align1 WE_all 1N };
mov(16) g32<1>UD g30<0,1,0>UD { align1 WE_all 1H };
shl(16) g10<1>UD g1<8,8,1>UD 0x00000005UD
send(16) null g10 g20 st.b32
add(16) g12<1>UD g10<8,8,1>UD 0x00000008UD
send(16) null g12 g32 st.b32 { align1 1H EOT };";

fn lanes(r: &eu::RunResult, n: usize) -> Vec<u64> {
    (0..n).map(|i| out(r, i, 0)).collect()
}

#[test]
fn flag_bit_is_16s_plus_group_plus_channel() {
    // SIMD16 thread; a 2Q SIMD8 compare on f0.1 reads ids 8..15 from g2.
    // id 11 is channel 3 of group 8 → bit 16·1 + 8 + 3 = 27 of f0.
    let text = format!(
        "mov(1) f0.0<1>UD 0x00000000UD {{ align1 WE_all 1N }};\n\
         cmp.z.f0.1(8) null<1>D g2<8,8,1>D 11D {{ align1 2Q }};\n\
         mov(16) g20<1>UD 0x00000000UD\n{STORE16}"
    );
    let r = run_text(&text, &dispatch(16, 16, vec![], vec![]));
    assert_eq!(out(&r, 0, 1), 1 << 27);
}

#[test]
fn two_simd8_halves_fill_one_subregister() {
    // 1Q: ids 0..7 < 2 → bits 0,1. 2Q: ids 8..15 >= 14 → channels 6,7 → bits 14,15.
    // f0.1 (bits 16..31) keeps its old value 0xabcd.
    let text = format!(
        "mov(1) f0.0<1>UD 0xabcd5555UD {{ align1 WE_all 1N }};\n\
         cmp.l.f0.0(8) null<1>D g1<8,8,1>D 2D\n\
         cmp.ge.f0.0(8) null<1>D g2<8,8,1>D 14D {{ align1 2Q }};\n\
         mov(16) g20<1>UD 0x00000000UD\n{STORE16}"
    );
    let r = run_text(&text, &dispatch(16, 16, vec![], vec![]));
    assert_eq!(out(&r, 0, 1), 0xabcd_c003);
}

#[test]
fn disabled_channels_keep_their_flag_bits() {
    // N = 5: channels 5..7 are not dispatched. Old f0.0 = 0x00a0 (bits 5, 7).
    // cmp.z of a value with itself sets bits 0..4 only → 0x1f | 0xa0 = 0xbf.
    let text = format!(
        "mov(1) f0.0<1>UD 0x000000a0UD {{ align1 WE_all 1N }};\n\
         cmp.z.f0.0(8) null<1>D g1<8,8,1>D g1<8,8,1>D\n\
         mov(8) g20<1>UD 0x00000000UD\n{STORE8}"
    );
    let r = run_text(&text, &dispatch(5, 8, vec![], vec![]));
    assert_eq!(out(&r, 0, 1), 0xbf);
    // A predicated compare updates only predicated-on channels: f1.0 = 0x05
    // enables channels 0 and 2; cmp.nz(id, 0) is false for 0, true for 2.
    // The flag file is shuffled through GRFs and flag subregisters first
    // (f0.1 = f1.1 = old f1.0), then the result is copied to f0.0.
    let text = format!(
        "mov(1) f0.0<1>UD 0x000000f0UD {{ align1 WE_all 1N }};\n\
         mov(1) f1.0<1>UW 0x0005UW {{ align1 WE_all 1N }};\n\
         (+f1.0) mov(8) g40<1>UD 0x00000000UD\n\
         mov(1) g41<1>UW f1.0<0,1,0>UW {{ align1 WE_all 1N }};\n\
         mov(1) f0.1<1>UW g41<0,1,0>UW {{ align1 WE_all 1N }};\n\
         mov(1) f1.1<1>UW f0.1<0,1,0>UW {{ align1 WE_all 1N }};\n\
         (+f1.0) cmp.nz.f1.0(8) null<1>D g1<8,8,1>D 0D\n\
         mov(1) f0.0<1>UW f1.0<0,1,0>UW {{ align1 WE_all 1N }};\n\
         mov(1) f1.0<1>UW 0x00f0UW {{ align1 WE_all 1N }};\n\
         mov(8) g20<1>UD 0x00000000UD\n{STORE8}"
    );
    // f1.0 after the predicated compare: channel 0 → 0, channel 2 → 1,
    // others keep 0x05's bits (bit 0 was enabled and written 0) → 0x04.
    let r = run_text(&text, &dispatch(8, 8, vec![], vec![]));
    assert_eq!(out(&r, 0, 1) & 0xffff, 0x04);
    // f0.1 got a copy of the original f1.0 (0x0005) through g41.
    assert_eq!(out(&r, 0, 1) >> 16, 0x0005);
}

fn predicated(flag: u32, pred: &str, n: u32) -> Vec<u64> {
    let text = format!(
        "mov(1) f0.0<1>UD 0x{flag:08x}UD {{ align1 WE_all 1N }};\n\
         mov(8) g20<1>UD 0x00000000UD\n\
         ({pred}) mov(8) g20<1>UD 0x00000001UD\n{STORE8}"
    );
    let r = run_text(&text, &dispatch(n, 8, vec![], vec![]));
    lanes(&r, n as usize)
}

#[test]
fn predication_modes() {
    // f0.0 = bits 0, 5, 6.
    assert_eq!(predicated(0x61, "+f0.0", 8), vec![1, 0, 0, 0, 0, 1, 1, 0]);
    assert_eq!(predicated(0x61, "-f0.0", 8), vec![0, 1, 1, 1, 1, 0, 0, 1]);
    // any4h: bits 0-3 contain bit 0, bits 4-7 contain 5, 6 → every channel.
    assert_eq!(predicated(0x61, "+f0.0.any4h", 8), vec![1; 8]);
    assert_eq!(predicated(0x61, "-f0.0.any4h", 8), vec![0; 8]);
    // any2h: pairs (0,1) yes, (2,3) no, (4,5) yes, (6,7) yes.
    assert_eq!(
        predicated(0x61, "+f0.0.any2h", 8),
        vec![1, 1, 0, 0, 1, 1, 1, 1]
    );
    // all4h with 0x0f: channels 0-3 true, 4-7 false.
    assert_eq!(
        predicated(0x0f, "+f0.0.all4h", 8),
        vec![1, 1, 1, 1, 0, 0, 0, 0]
    );
    assert_eq!(predicated(0x0f, "+f0.0.all8h", 8), vec![0; 8]);
    assert_eq!(predicated(0xff, "+f0.0.all8h", 8), vec![1; 8]);
    // all16h needs bits 0..15.
    assert_eq!(predicated(0x00ff, "+f0.0.all16h", 8), vec![0; 8]);
    assert_eq!(predicated(0xffff, "+f0.0.all16h", 8), vec![1; 8]);
    assert_eq!(predicated(0x8000_0000, "+f0.0.any32h", 8), vec![1; 8]);
    assert_eq!(predicated(0x7fff_ffff, "+f0.0.all32h", 8), vec![0; 8]);
}

#[test]
fn horizontal_predicates_ignore_channel_enables() {
    // N = 5; only the undispatched channel 7 has its bit set.
    assert_eq!(predicated(0x80, "+f0.0.any8h", 5), vec![1; 5]);
    assert_eq!(predicated(0x80, "+f0.0", 5), vec![0; 5]);
    // all8h: bits 0..4 set but 5..7 clear → false although only 0..4 run.
    assert_eq!(predicated(0x1f, "+f0.0.all8h", 5), vec![0; 5]);
}

#[test]
fn predicated_sel_writes_every_enabled_channel() {
    // (+f0.0) sel: channel takes 100 + id where its bit is set, else 200.
    let text = format!(
        "mov(1) f0.0<1>UD 0x00000005UD {{ align1 WE_all 1N }};\n\
         add(8) g21<1>UD g1<8,8,1>UD 0x00000064UD\n\
         mov(8) g22<1>UD 0x000000c8UD\n\
         mov(8) g20<1>UD 0x00000000UD\n\
         (+f0.0) sel(8) g20<1>UD g21<8,8,1>UD g22<8,8,1>UD\n{STORE8}"
    );
    let r = run_text(&text, &dispatch(8, 8, vec![], vec![]));
    assert_eq!(lanes(&r, 8), vec![100, 200, 102, 200, 200, 200, 200, 200]);
    // Inverse predicate swaps the choice.
    let r = run_text(
        &text.replace("(+f0.0) sel", "(-f0.0) sel"),
        &dispatch(8, 8, vec![], vec![]),
    );
    assert_eq!(lanes(&r, 8), vec![200, 101, 200, 103, 104, 105, 106, 107]);
}

#[test]
fn nomask_write_ignores_dispatch_but_not_predicate() {
    // N = 3. A NoMask write reaches all 8 channels; predicated NoMask only
    // those whose bit is set (0x0c → channels 2, 3).
    let text = format!(
        "mov(1) f0.0<1>UD 0x0000000cUD {{ align1 WE_all 1N }};\n\
         mov(8) g20<1>UD 0x00000007UD\n\
         mov(8) g20<1>UD 0x00000009UD {{ align1 WE_all 1Q }};\n\
         (+f0.0) mov(8) g20<1>UD 0x0000000bUD {{ align1 WE_all 1Q }};\n\
         mov(8) g21<1>UD g20.5<0,1,0>UD {{ align1 WE_all 1Q }};\n\
         mov(8) g22<1>UD g20.3<0,1,0>UD {{ align1 WE_all 1Q }};\n\
         add(8) g20<1>UD g21<8,8,1>UD g22<8,8,1>UD\n{STORE8}"
    );
    let r = run_text(&text, &dispatch(3, 8, vec![], vec![]));
    // channel 5 (undispatched) holds 9, channel 3 holds 11 → 20.
    assert_eq!(lanes(&r, 3), vec![20, 20, 20]);
}
