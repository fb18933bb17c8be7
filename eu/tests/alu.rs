//! Every ALU instruction at edge values; expected values derived by hand
//! from EU-MODEL.md / ISA.md (arithmetic in the comments).
mod common;
use common::{eval, eval_seed, evalf};

const NAN_F: u64 = 0x7fc0_0000;
const NAN_HF: u64 = 0x7e00;
const NAN_DF: u64 = 0x7ff8_0000_0000_0000;
const ONE_F: u64 = 0x3f80_0000;

#[test]
fn mov_int_conversions() {
    assert_eq!(eval("mov", "UB", &[("D", 0x1ff)]), 0xff); // wrap to 8 bits
    assert_eq!(eval("mov.sat", "UB", &[("D", 0x1ff)]), 0xff); // clamp 511 → 255
    assert_eq!(eval("mov.sat", "UB", &[("D", 0xffff_ffff)]), 0); // clamp -1 → 0
    assert_eq!(eval("mov", "UB", &[("D", 0xffff_ffff)]), 0xff);
    assert_eq!(eval("mov", "D", &[("W", 0x8000)]), 0xffff_8000); // sign-extend
    assert_eq!(eval("mov", "D", &[("UW", 0x8000)]), 0x0000_8000); // zero-extend
    assert_eq!(eval("mov", "Q", &[("D", 0xffff_ffff)]), u64::MAX);
    assert_eq!(eval("mov", "UQ", &[("UD", 0xffff_ffff)]), 0xffff_ffff);
    assert_eq!(eval("mov", "D", &[("Q", 0x1_0000_0005)]), 5);
    assert_eq!(eval("mov.sat", "D", &[("Q", 0x1_0000_0005)]), 0x7fff_ffff);
    assert_eq!(eval("mov.sat", "W", &[("D", 0xffff_0000)]), 0x8000); // -65536 → -32768
    assert_eq!(eval("mov", "D", &[("-D", 0x8000_0000)]), 0x8000_0000); // -(MIN) = MIN
    assert_eq!(eval("mov", "D", &[("(abs)D", 0xffff_fffb)]), 5);
    assert_eq!(eval("mov", "D", &[("-UD", 5)]), 0xffff_fffb);
    assert_eq!(eval("mov.sat", "UD", &[("-UD", 5)]), 0); // 33-bit -5 clamps to 0
}

#[test]
fn mov_float_int_conversions() {
    assert_eq!(eval("mov", "F", &[("D", 16_777_217)]), 0x4b80_0000); // 2^24+1 → 2^24 (even)
    assert_eq!(eval("mov", "F", &[("D", 0xffff_ffff)]), 0xbf80_0000); // -1.0
    assert_eq!(eval("mov", "F", &[("D", 0x8000_0000)]), 0xcf00_0000); // -2^31
    assert_eq!(eval("mov", "F", &[("UD", 0xffff_ffff)]), 0x4f80_0000); // 2^32
    assert_eq!(eval("mov", "D", &[("F", 0x3fc0_0000)]), 1); // 1.5 → 1
    assert_eq!(eval("mov", "D", &[("F", 0xbfc0_0000)]), 0xffff_ffff); // -1.5 → -1
    assert_eq!(eval("mov", "D", &[("F", NAN_F)]), 0); // NaN → 0
    assert_eq!(eval("mov", "D", &[("F", 0x7f80_0000)]), 0x7fff_ffff); // +inf
    assert_eq!(eval("mov", "D", &[("F", 0xff80_0000)]), 0x8000_0000); // -inf
    assert_eq!(eval("mov", "D", &[("F", 1)]), 0); // denormal → 0
    assert_eq!(eval("mov", "UD", &[("F", 0xbf80_0000)]), 0); // -1.0 → 0
    assert_eq!(eval("mov", "UD", &[("F", 0x4f80_0000)]), 0xffff_ffff); // 2^32 saturates
    assert_eq!(eval("mov", "W", &[("F", 0x471c_4000)]), 0x7fff); // 40000.0
    assert_eq!(eval("mov", "W", &[("F", 0xc71c_4000)]), 0x8000); // -40000.0
    assert_eq!(
        eval("mov", "F", &[("Q", 0x7fff_ffff_ffff_ffff)]),
        0x5f00_0000
    ); // 2^63
    assert_eq!(eval("mov", "F", &[("UQ", u64::MAX)]), 0x5f80_0000); // 2^64
    assert_eq!(
        eval("mov", "DF", &[("Q", 0x0020_0000_0000_0001)]),
        0x4340_0000_0000_0000
    ); // 2^53
    assert_eq!(eval("mov", "Q", &[("F", 0xbf80_0000)]), u64::MAX); // -1
    assert_eq!(
        eval("mov", "Q", &[("F", 0x7149_f2ca)]),
        0x7fff_ffff_ffff_ffff
    ); // 1e30
    assert_eq!(eval("mov", "HF", &[("D", 2049)]), 0x6800); // tie → 2048
    assert_eq!(eval("mov", "HF", &[("D", 70000)]), 0x7c00); // → +inf
    assert_eq!(eval("mov", "D", &[("HF", 0x7bff)]), 65504);
    assert_eq!(eval("mov", "D", &[("HF", 0x7e00)]), 0);
    assert_eq!(eval("mov", "D", &[("HF", 0xfc00)]), 0x8000_0000);
}

#[test]
fn mov_float_float_conversions() {
    assert_eq!(eval("mov", "HF", &[("F", ONE_F)]), 0x3c00);
    assert_eq!(eval("mov", "HF", &[("F", 0x477f_f000)]), 0x7c00); // 65520 → inf
    assert_eq!(eval("mov", "HF", &[("F", 0x477f_ef00)]), 0x7bff); // 65519 → 65504
    assert_eq!(eval("mov", "HF", &[("F", 0x3380_0000)]), 0x0001); // 2^-24
    assert_eq!(eval("mov", "HF", &[("F", 0x3300_0000)]), 0x0000); // 2^-25 ties to 0
    assert_eq!(eval("mov", "HF", &[("F", 0x7fc0_0001)]), NAN_HF); // canonical
    assert_eq!(eval("mov", "HF", &[("F", 0x8000_0000)]), 0x8000);
    assert_eq!(eval("mov", "F", &[("HF", 0x0001)]), 0x3380_0000);
    assert_eq!(eval("mov", "F", &[("HF", 0x7c00)]), 0x7f80_0000);
    assert_eq!(eval("mov", "F", &[("HF", 0xfe01)]), NAN_F);
    assert_eq!(eval("mov", "F", &[("HF", 0x8000)]), 0x8000_0000);
    assert_eq!(eval("mov", "DF", &[("F", ONE_F)]), 0x3ff0_0000_0000_0000);
    assert_eq!(eval("mov", "DF", &[("F", 1)]), 0x36a0_0000_0000_0000); // 2^-149
    assert_eq!(eval("mov", "F", &[("DF", 0x3ff0_0000_0000_0001)]), ONE_F);
    assert_eq!(eval("mov", "F", &[("DF", 0x3690_0000_0000_0000)]), 0); // 2^-150 ties to 0
    assert_eq!(eval("mov", "F", &[("DF", 0x3698_0000_0000_0000)]), 1); // 1.5·2^-150
    assert_eq!(eval("mov", "DF", &[("F", 0x7f80_0001)]), NAN_DF);
}

#[test]
fn mov_raw_keeps_payload_and_sat() {
    assert_eq!(eval("mov", "F", &[("F", 0x7fa0_0001)]), 0x7fa0_0001);
    assert_eq!(eval("mov", "F", &[("-F", 0x7fc0_0001)]), 0xffc0_0001);
    assert_eq!(eval("mov", "F", &[("(abs)F", 0xffc0_0001)]), 0x7fc0_0001);
    assert_eq!(eval("mov", "F", &[("-(abs)F", 0x3f80_0000)]), 0xbf80_0000);
    assert_eq!(eval("mov", "HF", &[("-HF", 0x7d01)]), 0xfd01);
    assert_eq!(
        eval("mov", "DF", &[("DF", 0x7ff0_0000_0000_0001)]),
        0x7ff0_0000_0000_0001
    );
    assert_eq!(eval("mov", "F", &[("F", 1)]), 1); // denormal kept
    assert_eq!(eval("mov.sat", "F", &[("F", 0x4000_0000)]), ONE_F); // 2.0 → 1.0
    assert_eq!(eval("mov.sat", "F", &[("F", 0xbf00_0000)]), 0); // -0.5 → 0
    assert_eq!(eval("mov.sat", "F", &[("F", 0x7fc0_0001)]), 0); // NaN → +0
    assert_eq!(eval("mov.sat", "F", &[("F", 0x8000_0000)]), 0); // -0 → +0
    assert_eq!(eval("mov.sat", "F", &[("F", 0x3f00_0000)]), 0x3f00_0000); // 0.5 kept
    assert_eq!(eval("mov.sat", "HF", &[("HF", 0x7c00)]), 0x3c00);
}

#[test]
fn cmod_on_final_value() {
    assert!(evalf("mov.nz.f0.0", "F", &[("F", 0x7fc0_0001)]).1); // NaN: nz true
    assert!(!evalf("mov.z.f0.0", "F", &[("F", 0x7fc0_0001)]).1);
    assert!(!evalf("mov.ge.f0.0", "F", &[("F", 0x7fc0_0001)]).1); // ordered: false
    assert!(evalf("mov.u.f0.0", "F", &[("F", 0x7fc0_0001)]).1);
    assert!(evalf("mov.z.f0.0", "F", &[("F", 0x8000_0000)]).1); // -0 == 0
    assert!(evalf("mov.l.f0.0", "D", &[("D", 0xffff_ffff)]).1);
    assert!(!evalf("mov.l.f0.0", "UD", &[("UD", 0xffff_ffff)]).1); // unsigned
                                                                   // Converting MOV: the flag sees the converted value (0.5 → 0).
    assert_eq!(evalf("mov.z.f0.0", "D", &[("F", 0x3f00_0000)]), (0, true));
    // After saturate: 2.0 → 1.0 (> 0), -3.0 → 0 (== 0).
    assert_eq!(
        evalf("mov.sat.g.f0.0", "F", &[("F", 0x4000_0000)]),
        (ONE_F, true)
    );
    assert_eq!(
        evalf("mov.sat.z.f0.0", "F", &[("F", 0xc040_0000)]),
        (0, true)
    );
    // Overflow: 2^31 does not fit D.
    assert!(evalf("add.o.f0.0", "D", &[("D", 0x7fff_ffff), ("D", 1)]).1);
    assert!(!evalf("add.o.f0.0", "D", &[("D", 0x7fff_fffe), ("D", 1)]).1);
}

#[test]
fn add() {
    assert_eq!(
        eval("add", "D", &[("D", 0x7fff_ffff), ("D", 1)]),
        0x8000_0000
    );
    assert_eq!(
        eval("add.sat", "D", &[("D", 0x7fff_ffff), ("D", 1)]),
        0x7fff_ffff
    );
    assert_eq!(
        eval("add.sat", "D", &[("D", 0x8000_0000), ("D", 0xffff_ffff)]),
        0x8000_0000
    );
    // EU-MODEL §2.1: the flag comes from the wrapped result (0x80000000 - 4).
    assert_eq!(
        evalf("add.l.f0.0", "D", &[("D", 0x8000_0000), ("D", 0xffff_fffc)]),
        (0x7fff_fffc, false)
    );
    assert_eq!(eval("add", "UD", &[("UD", 0xffff_ffff), ("UD", 1)]), 0);
    assert_eq!(
        eval("add.sat", "UD", &[("UD", 0xffff_ffff), ("UD", 1)]),
        0xffff_ffff
    );
    assert_eq!(eval("add", "W", &[("W", 0x7fff), ("W", 1)]), 0x8000);
    assert_eq!(eval("add", "D", &[("W", 0x7fff), ("W", 0x7fff)]), 0xfffe); // exact 65534
    assert_eq!(eval("add", "UB", &[("UB", 0xff), ("UW", 1)]), 0);
    assert_eq!(
        eval("add", "Q", &[("Q", 0x7fff_ffff_ffff_ffff), ("Q", 1)]),
        1 << 63
    );
    assert_eq!(eval("add", "F", &[("F", ONE_F), ("F", 0x3380_0000)]), ONE_F); // 1+2^-24 ties even
    assert_eq!(
        eval("add", "F", &[("F", ONE_F), ("F", 0x3400_0000)]),
        0x3f80_0001
    ); // 1+2^-23
    assert_eq!(
        eval("add", "F", &[("F", 0x7f80_0000), ("F", 0xff80_0000)]),
        NAN_F
    );
    assert_eq!(eval("add", "F", &[("F", 0x7f80_0001), ("F", ONE_F)]), NAN_F);
    assert_eq!(eval("add", "F", &[("F", 1), ("F", 1)]), 2); // denormals kept
    assert_eq!(
        eval("add", "F", &[("F", 0x8000_0000), ("F", 0x8000_0000)]),
        0x8000_0000
    );
    assert_eq!(eval("add", "F", &[("F", 0), ("F", 0x8000_0000)]), 0);
    assert_eq!(eval("add", "F", &[("F", ONE_F), ("-F", ONE_F)]), 0);
    assert_eq!(eval("add", "HF", &[("HF", 0x3c00), ("HF", 0x1000)]), 0x3c00); // 1+2^-11 ties
    assert_eq!(eval("add", "HF", &[("HF", 0x7bff), ("HF", 0x7bff)]), 0x7c00);
    assert_eq!(eval("add", "HF", &[("HF", 1), ("HF", 1)]), 2);
    assert_eq!(
        eval(
            "add",
            "DF",
            &[("DF", 0x3ff0_0000_0000_0000), ("DF", 0x3ca0_0000_0000_0000)]
        ),
        0x3ff0_0000_0000_0000
    ); // 1+2^-53
    assert_eq!(
        eval("add", "F", &[("F", ONE_F), ("HF", 0x3c00)]),
        0x4000_0000
    ); // mixed → 2.0
    assert_eq!(
        eval("add.sat", "F", &[("F", 0x3f00_0000), ("F", 0x3f40_0000)]),
        ONE_F
    ); // 1.25 → 1
}

#[test]
fn mul_and_avg() {
    assert_eq!(
        eval("mul", "D", &[("D", 0x1_0000), ("W", 0x8000)]),
        0x8000_0000
    ); // 65536·-32768
    assert_eq!(
        eval("mul", "D", &[("W", 0x7fff), ("W", 0x7fff)]),
        0x3fff_0001
    );
    assert_eq!(
        eval("mul", "UD", &[("UD", 0xffff_ffff), ("UW", 0xffff)]),
        0xffff_0001
    );
    assert_eq!(eval("mul.sat", "W", &[("W", 0x7fff), ("W", 2)]), 0x7fff);
    assert_eq!(
        eval("mul", "F", &[("F", 0x5f80_0000), ("F", 0x5f80_0000)]),
        0x7f80_0000
    ); // 2^64·2^64
    assert_eq!(eval("mul", "F", &[("F", 0x7f80_0000), ("F", 0)]), NAN_F);
    assert_eq!(
        eval("mul", "F", &[("F", 0x0d80_0000), ("F", 0x0d80_0000)]),
        0
    ); // 2^-100² → 0
    assert_eq!(eval("mul", "HF", &[("HF", 0x3c01), ("HF", 0x3c01)]), 0x3c02); // (1+2^-10)²
    assert_eq!(
        eval(
            "mul",
            "DF",
            &[("DF", 0x4000_0000_0000_0000), ("DF", 0x4008_0000_0000_0000)]
        ),
        0x4018_0000_0000_0000
    );
    assert_eq!(eval("avg", "D", &[("D", 1), ("D", 2)]), 2);
    assert_eq!(
        eval("avg", "D", &[("D", 0xffff_ffff), ("D", 0xffff_fffe)]),
        0xffff_ffff
    );
    assert_eq!(
        eval("avg", "UD", &[("UD", 0xffff_ffff), ("UD", 0xffff_ffff)]),
        0xffff_ffff
    );
}

#[test]
fn mad_is_fused() {
    // (1+2^-23)(1-2^-24) - 1 = 2^-24 - 2^-47 exactly = 0x337ffffe; unfused would give 0.
    assert_eq!(
        eval(
            "mad",
            "F",
            &[("F", 0xbf80_0000), ("F", 0x3f80_0001), ("F", 0x3f7f_ffff)]
        ),
        0x337f_fffe
    );
    assert_eq!(
        eval(
            "mad",
            "HF",
            &[("HF", 0x4000), ("HF", 0x4200), ("HF", 0x4400)]
        ),
        0x4b00
    ); // 2+3·4
    assert_eq!(
        eval(
            "mad",
            "DF",
            &[
                ("DF", 0xbff0_0000_0000_0000),
                ("DF", 0x3ff0_0000_0000_0001),
                ("DF", 0x3fef_ffff_ffff_ffff)
            ]
        ),
        0x3c9f_ffff_ffff_fffe
    ); // 2^-53 - 2^-105
    assert_eq!(
        eval("mad", "F", &[("F", ONE_F), ("F", 0x7f80_0000), ("F", 0)]),
        NAN_F
    );
    assert_eq!(
        eval("mad.sat", "F", &[("F", ONE_F), ("F", ONE_F), ("F", ONE_F)]),
        ONE_F
    );
    assert_eq!(eval("mad", "F", &[("F", 0), ("-F", ONE_F), ("F", 0)]), 0); // -0 + +0 = +0
}

#[test]
fn frc_and_rounding() {
    assert_eq!(eval("frc", "F", &[("F", 0x3fe0_0000)]), 0x3f40_0000); // 1.75 → .75
    assert_eq!(eval("frc", "F", &[("F", 0xbfa0_0000)]), 0x3f40_0000); // -1.25 → .75
    assert_eq!(eval("frc", "F", &[("F", 0xb080_0000)]), ONE_F); // -2^-30 → 1-2^-30 → 1.0
    assert_eq!(eval("frc", "F", &[("F", 0x8000_0000)]), 0); // -0 → +0
    assert_eq!(eval("frc", "F", &[("F", 0x7f80_0000)]), NAN_F);
    assert_eq!(
        eval("frc", "DF", &[("DF", 0xbc30_0000_0000_0000)]),
        0x3ff0_0000_0000_0000
    ); // -2^-60
    assert_eq!(eval("frc", "HF", &[("HF", 0xbd00)]), 0x3a00); // -1.25 → 0.75
    assert_eq!(eval("rndd", "F", &[("F", 0xbf00_0000)]), 0xbf80_0000); // -0.5 → -1
    assert_eq!(eval("rndz", "F", &[("F", 0xbf00_0000)]), 0x8000_0000); // -0.5 → -0
    assert_eq!(eval("rnde", "F", &[("F", 0x4020_0000)]), 0x4000_0000); // 2.5 → 2
    assert_eq!(eval("rnde", "F", &[("F", 0x4060_0000)]), 0x4080_0000); // 3.5 → 4
    assert_eq!(eval("rnde", "F", &[("F", 0xbf00_0000)]), 0x8000_0000); // -0.5 → -0
    assert_eq!(eval("rndd", "F", &[("F", 0x7f80_0001)]), NAN_F);
    assert_eq!(eval("rnde", "HF", &[("HF", 0x3d00)]), 0x3c00); // 1.25 → 1
    assert_eq!(
        eval("rndz", "DF", &[("DF", 0xc004_0000_0000_0000)]),
        0xc000_0000_0000_0000
    ); // -2.5 → -2
    assert_eq!(
        evalf("rndd.l.f0.0", "F", &[("F", 0xbe80_0000)]),
        (0xbf80_0000, true)
    );
}

#[test]
fn sel_min_max() {
    assert_eq!(
        eval("sel.l", "D", &[("D", 0xffff_ffff), ("D", 1)]),
        0xffff_ffff
    );
    assert_eq!(eval("sel.l", "UD", &[("UD", 0xffff_ffff), ("UD", 1)]), 1);
    assert_eq!(eval("sel.ge", "W", &[("W", 0x8000), ("W", 0x7fff)]), 0x7fff);
    assert_eq!(
        eval("sel.ge", "F", &[("F", 0x7fc0_0001), ("F", 0x4000_0000)]),
        0x4000_0000
    );
    assert_eq!(
        eval("sel.l", "F", &[("F", 0x4000_0000), ("F", 0x7fc0_0001)]),
        0x4000_0000
    );
    assert_eq!(
        eval("sel.l", "F", &[("F", 0x7fc0_0001), ("F", 0x7f80_0001)]),
        NAN_F
    );
    assert_eq!(
        eval("sel.l", "F", &[("F", 0x8000_0000), ("F", 0)]),
        0x8000_0000
    );
    assert_eq!(
        eval("sel.l", "F", &[("F", 0), ("F", 0x8000_0000)]),
        0x8000_0000
    );
    assert_eq!(eval("sel.ge", "F", &[("F", 0x8000_0000), ("F", 0)]), 0);
    assert_eq!(eval("sel.ge", "F", &[("F", 0), ("F", 0x8000_0000)]), 0);
    assert_eq!(eval("sel.l", "F", &[("F", 1), ("F", ONE_F)]), 1); // denormal kept
    assert_eq!(
        eval("sel.l", "F", &[("F", 0xff80_0000), ("F", 0x7f80_0000)]),
        0xff80_0000
    );
    assert_eq!(
        eval("sel.sat.ge", "F", &[("F", 0x4000_0000), ("F", 0)]),
        ONE_F
    );
    assert_eq!(
        eval(
            "sel.l",
            "DF",
            &[("DF", 0x7ff8_0000_0000_0001), ("DF", 0x3ff0_0000_0000_0000)]
        ),
        0x3ff0_0000_0000_0000
    );
    assert_eq!(eval("sel.ge", "Q", &[("Q", 1 << 63), ("Q", 0)]), 0);
}

#[test]
fn cmp_and_cmpn() {
    assert_eq!(
        evalf("cmp.l.f0.0", "D", &[("D", 0xffff_ffff), ("D", 1)]),
        (0xffff_ffff, true)
    );
    assert_eq!(
        evalf("cmp.l.f0.0", "UD", &[("UD", 0xffff_ffff), ("UD", 1)]),
        (0, false)
    );
    assert_eq!(
        evalf("cmp.ge.f0.0", "F", &[("F", NAN_F), ("F", 0)]),
        (0, false)
    );
    assert_eq!(
        evalf("cmp.nz.f0.0", "F", &[("F", NAN_F), ("F", NAN_F)]),
        (0xffff_ffff, true)
    );
    assert_eq!(
        evalf("cmp.z.f0.0", "F", &[("F", 0x8000_0000), ("F", 0)]),
        (0xffff_ffff, true)
    );
    assert!(evalf("cmp.u.f0.0", "F", &[("F", ONE_F), ("F", NAN_F)]).1);
    assert!(evalf("cmp.z.f0.0", "F", &[("F", 0x7f80_0000), ("F", 0x7f80_0000)]).1);
    assert!(
        evalf(
            "cmp.le.f0.0",
            "F",
            &[("F", 0xff80_0000), ("F", 0xff80_0000)]
        )
        .1
    );
    assert!(!evalf("cmp.l.f0.0", "F", &[("F", ONE_F), ("F", NAN_F)]).1);
    assert_eq!(
        evalf("cmpn.l.f0.0", "F", &[("F", ONE_F), ("F", NAN_F)]),
        (0xffff_ffff, true)
    );
    assert_eq!(
        evalf("cmpn.l.f0.0", "F", &[("F", NAN_F), ("F", ONE_F)]),
        (0, false)
    );
    assert_eq!(
        evalf("cmp.g.f0.0", "W", &[("W", 1), ("W", 0x8000)]),
        (0xffff, true)
    );
    assert_eq!(
        evalf("cmp.g.f0.0", "HF", &[("HF", 0x3c00), ("HF", 0x8001)]),
        (0xffff, true)
    );
    assert_eq!(
        evalf("cmp.l.f0.0", "D", &[("D", 0xffff_ffff), ("UD", 1)]),
        (0xffff_ffff, true)
    );
    assert!(!evalf("cmp.ge.f0.0", "D", &[("-D", 1), ("D", 0)]).1);
}

#[test]
fn cmp_64bit_upper_dword_is_garbage() {
    let srcs = [("Q", 5u64), ("Q", 5u64)];
    let (a, fa) = eval_seed("cmp.z.f0.0", "Q", &srcs, 1);
    let (b, fb) = eval_seed("cmp.z.f0.0", "Q", &srcs, 2);
    assert!(fa && fb);
    assert_eq!(a & 0xffff_ffff, 0xffff_ffff); // low dword exact
    assert_eq!(b & 0xffff_ffff, 0xffff_ffff);
    assert_ne!(a >> 32, b >> 32); // upper dword depends on the seed
    let (c, _) = eval_seed("cmp.l.f0.0", "DF", &[("DF", 0), ("DF", 0)], 3);
    assert_eq!(c & 0xffff_ffff, 0);
}

#[test]
fn logic_ops() {
    assert_eq!(eval("not", "UD", &[("UD", 0)]), 0xffff_ffff);
    assert_eq!(eval("not", "D", &[("D", 0x0f0f_0f0f)]), 0xf0f0_f0f0);
    assert_eq!(eval("not", "UD", &[("-UD", 0x1234)]), 0x1234); // NOT of NOT
    assert_eq!(
        eval("and", "UD", &[("UD", 0xff00_ff00), ("-UD", 0x0ff0_0ff0)]),
        0xf000_f000
    );
    assert_eq!(
        eval("or", "UD", &[("UD", 0xff00_0000), ("UD", 0x0000_00ff)]),
        0xff00_00ff
    );
    assert_eq!(
        eval("xor", "UD", &[("UD", 0xffff_0000), ("UD", 0x00ff_ff00)]),
        0xff00_ff00
    );
    assert_eq!(eval("or", "UW", &[("UW", 0x8000), ("UW", 1)]), 0x8001);
    assert_eq!(
        eval(
            "and",
            "UQ",
            &[("UQ", u64::MAX), ("UQ", 0x8000_0000_0000_0001)]
        ),
        0x8000_0000_0000_0001
    );
    assert_eq!(
        evalf("and.z.f0.0", "UD", &[("UD", 0xf0), ("UD", 0x0f)]),
        (0, true)
    );
    assert_eq!(
        evalf("xor.l.f0.0", "D", &[("D", 0x8000_0000), ("D", 1)]),
        (0x8000_0001, true)
    );
}

#[test]
fn shifts() {
    assert_eq!(eval("shl", "D", &[("D", 1), ("D", 31)]), 0x8000_0000);
    assert_eq!(eval("shl", "UD", &[("UD", 1), ("UD", 32)]), 1); // count & 31 = 0
    assert_eq!(eval("shl", "UD", &[("UD", 1), ("UD", 33)]), 2);
    assert_eq!(eval("shl", "W", &[("W", 1), ("W", 17)]), 0); // not masked to 1
    assert_eq!(eval("shl", "W", &[("W", 1), ("W", 15)]), 0x8000);
    assert_eq!(eval("shr", "UW", &[("UW", 0x8000), ("UW", 17)]), 0);
    assert_eq!(eval("shr", "UW", &[("UW", 0x8000), ("UW", 15)]), 1);
    assert_eq!(eval("asr", "W", &[("W", 0x8000), ("W", 17)]), 0xffff);
    assert_eq!(
        eval("asr", "D", &[("D", 0xffff_fff8), ("D", 1)]),
        0xffff_fffc
    );
    assert_eq!(
        eval("asr", "D", &[("D", 0xffff_fff8), ("D", 33)]),
        0xffff_fffc
    );
    assert_eq!(eval("shr", "D", &[("D", 0xffff_ffff), ("D", 28)]), 0xf); // logical
    assert_eq!(eval("shl", "Q", &[("Q", 1), ("Q", 63)]), 1 << 63);
    assert_eq!(eval("shl", "Q", &[("Q", 1), ("Q", 64)]), 1); // count & 63 = 0
    assert_eq!(eval("shr", "UQ", &[("UQ", 1 << 63), ("UQ", 63)]), 1);
    assert_eq!(
        eval("shl.sat", "D", &[("D", 0x4000_0000), ("D", 1)]),
        0x7fff_ffff
    );
}

#[test]
fn bit_counting() {
    assert_eq!(eval("lzd", "UD", &[("UD", 0)]), 32);
    assert_eq!(eval("lzd", "UD", &[("UD", 1)]), 31);
    assert_eq!(eval("lzd", "UD", &[("UD", 0x8000_0000)]), 0);
    assert_eq!(eval("fbh", "UD", &[("UD", 0)]), 0xffff_ffff);
    assert_eq!(eval("fbh", "UD", &[("UD", 1)]), 31);
    assert_eq!(eval("fbh", "UD", &[("UD", 0x8000_0000)]), 0);
    assert_eq!(eval("fbh", "UD", &[("D", 0xffff_ffff)]), 0xffff_ffff);
    assert_eq!(eval("fbh", "UD", &[("D", 0)]), 0xffff_ffff);
    assert_eq!(eval("fbh", "UD", &[("D", 1)]), 31);
    assert_eq!(eval("fbh", "UD", &[("D", 0xffff_fffe)]), 31);
    assert_eq!(eval("fbh", "UD", &[("D", 0x8000_0000)]), 1);
    assert_eq!(eval("fbh", "UD", &[("D", 0x4000_0000)]), 1);
    assert_eq!(eval("fbl", "UD", &[("UD", 0)]), 0xffff_ffff);
    assert_eq!(eval("fbl", "UD", &[("UD", 8)]), 3);
    assert_eq!(eval("fbl", "UD", &[("UD", 0x8000_0000)]), 31);
    assert_eq!(eval("cbit", "UD", &[("UD", 0)]), 0);
    assert_eq!(eval("cbit", "UD", &[("UD", 0xffff_ffff)]), 32);
    assert_eq!(eval("cbit", "UD", &[("D", 0x0f0f_0f0f)]), 16);
    assert_eq!(eval("bfrev", "UD", &[("UD", 1)]), 0x8000_0000);
    assert_eq!(eval("bfrev", "UD", &[("UD", 0x1234_5678)]), 0x1e6a_2c48);
}

#[test]
fn bitfields() {
    // bfe(width, offset, value)
    assert_eq!(
        eval("bfe", "UD", &[("UD", 8), ("UD", 4), ("UD", 0x1234_5678)]),
        0x67
    );
    assert_eq!(
        eval("bfe", "D", &[("D", 8), ("D", 4), ("D", 0xf80)]),
        0xffff_fff8
    );
    assert_eq!(eval("bfe", "D", &[("D", 0), ("D", 4), ("D", 0xf80)]), 0);
    assert_eq!(
        eval("bfe", "D", &[("D", 31), ("D", 1), ("D", 0x8000_0000)]),
        0xc000_0000
    );
    assert_eq!(
        eval("bfe", "UD", &[("UD", 31), ("UD", 1), ("UD", 0x8000_0000)]),
        0x4000_0000
    );
    assert_eq!(
        eval("bfe", "UD", &[("UD", 32), ("UD", 0), ("UD", 0xffff_ffff)]),
        0
    ); // 32 & 31 = 0
    assert_eq!(
        eval("bfe", "UD", &[("UD", 4), ("UD", 36), ("UD", 0xf0)]),
        0xf
    ); // offset & 31 = 4
       // bfi1(width, offset)
    assert_eq!(eval("bfi1", "UD", &[("UD", 4), ("UD", 8)]), 0xf00);
    assert_eq!(eval("bfi1", "UD", &[("UD", 0), ("UD", 8)]), 0);
    assert_eq!(eval("bfi1", "UD", &[("UD", 32), ("UD", 0)]), 0);
    assert_eq!(eval("bfi1", "UD", &[("UD", 31), ("UD", 1)]), 0xffff_fffe);
    // bfi2(mask, insert, base): insert shifted by ctz(mask)
    assert_eq!(
        eval(
            "bfi2",
            "UD",
            &[("UD", 0xff0), ("UD", 0x12), ("UD", 0xffff_ffff)]
        ),
        0xffff_f12f
    );
    assert_eq!(
        eval("bfi2", "UD", &[("UD", 0), ("UD", 0x12), ("UD", 0xabcd)]),
        0xabcd
    );
    assert_eq!(
        eval("bfi2", "D", &[("D", 0x8000_0000), ("D", 1), ("D", 0)]),
        0x8000_0000
    );
}

#[test]
fn csel() {
    let (a, b) = (0x4000_0000u64, 0x4040_0000u64); // 2.0, 3.0
    assert_eq!(
        eval("csel.l", "F", &[("F", a), ("F", b), ("F", 0xbf80_0000)]),
        a
    );
    assert_eq!(eval("csel.l", "F", &[("F", a), ("F", b), ("F", NAN_F)]), b);
    assert_eq!(eval("csel.nz", "F", &[("F", a), ("F", b), ("F", NAN_F)]), a);
    assert_eq!(
        eval("csel.z", "F", &[("F", a), ("F", b), ("F", 0x8000_0000)]),
        a
    );
    assert_eq!(eval("csel.nz", "D", &[("D", 7), ("D", 9), ("D", 0)]), 9);
    assert_eq!(
        eval("csel.g", "UW", &[("UW", 7), ("UW", 9), ("UW", 0x8000)]),
        7
    );
    assert_eq!(eval("csel.g", "W", &[("W", 7), ("W", 9), ("W", 0x8000)]), 9);
    assert_eq!(
        eval(
            "csel.ge",
            "HF",
            &[("HF", 0x3c00), ("HF", 0x4000), ("HF", 0x8000)]
        ),
        0x3c00
    );
}

#[test]
fn integer_division() {
    assert_eq!(
        eval("math intdiv", "D", &[("D", 7), ("D", 0xffff_fffe)]),
        0xffff_fffd
    ); // 7/-2 = -3
    assert_eq!(eval("math intmod", "D", &[("D", 7), ("D", 0xffff_fffe)]), 1);
    assert_eq!(
        eval("math intmod", "D", &[("D", 0xffff_fff9), ("D", 2)]),
        0xffff_ffff
    ); // -7%2
    assert_eq!(
        eval(
            "math intdiv",
            "D",
            &[("D", 0x8000_0000), ("D", 0xffff_ffff)]
        ),
        0x8000_0000
    );
    assert_eq!(
        eval(
            "math intmod",
            "D",
            &[("D", 0x8000_0000), ("D", 0xffff_ffff)]
        ),
        0
    );
    assert_eq!(
        eval("math intdiv", "UD", &[("UD", 0xffff_ffff), ("UD", 2)]),
        0x7fff_ffff
    );
    assert_eq!(
        eval("math intmod", "UD", &[("UD", 0xffff_ffff), ("UD", 0x10)]),
        0xf
    );
    // Division by zero is garbage that depends on the seed.
    let a = eval_seed("math intdiv", "UD", &[("UD", 5), ("UD", 0)], 11).0;
    let b = eval_seed("math intdiv", "UD", &[("UD", 5), ("UD", 0)], 12).0;
    assert_ne!(a, b);
}
