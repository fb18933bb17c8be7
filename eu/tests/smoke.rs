//! End-to-end smoke test: load, add, store.
mod common;
use common::*;

#[test]
fn load_add_store() {
    // address = id * 8 (one input slot); out slot 0 = in + 1.
    let text = "\
shl(8) g10<1>UD g1<8,8,1>UD 0x00000003UD
send(8) g20 g10 ld.b32
add(8) g21<1>D g20<8,8,1>D 1D
shl(8) g11<1>UD g1<8,8,1>UD 0x00000005UD
send(8) null g11 g21 st.b32 { align1 1Q EOT };
";
    let inputs: Vec<Vec<u64>> = (0..6).map(|i| vec![i * 10]).collect();
    let r = run_text(text, &dispatch(6, 8, inputs, vec![]));
    for i in 0..6 {
        assert_eq!(out(&r, i, 0), i as u64 * 10 + 1);
        assert!(r.outputs[i][1].is_none());
    }
}
