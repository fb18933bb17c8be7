//! Per-channel ALU semantics (ISA.md "Instructions").

use super::decode::{DInst, DSrc};
use super::num::{
    as_f64, cond_holds, extend, float_bits_mod, relation, src_num, to_dst, Dom, Num, SplitMix,
};
use crate::fp;
use crate::isa::{CondMod, MathFn, Opcode};
use crate::types::RegType;

/// Result of one channel: destination bits and the flag value (if any).
pub(crate) struct LaneOut {
    pub(crate) bits: u64,
    pub(crate) flag: bool,
}

fn num(s: &DSrc, raw: u64) -> Num {
    src_num(raw, s.ty, s.neg, s.abs)
}

fn f(s: &DSrc, raw: u64) -> f64 {
    as_f64(num(s, raw))
}

fn int(s: &DSrc, raw: u64) -> i128 {
    match num(s, raw) {
        Num::I(v) => v,
        Num::F(x) => x as i128,
    }
}

/// Convert to the destination and evaluate a flag-writing cmod.
fn finish(d: &DInst, n: Num) -> LaneOut {
    let (bits, ovf) = to_dst(n, d.dst.ty, d.sat);
    let flag = d.cmod.is_some_and(|c| cond_holds(bits, d.dst.ty, c, ovf));
    LaneOut { bits, flag }
}

/// Move/select a source to the destination, keeping the raw bits when the
/// types match and there is no saturate (NaN payloads survive; neg/abs
/// only touch the sign bit).
fn pass(d: &DInst, k: usize, raw: u64) -> LaneOut {
    let s = &d.srcs[k];
    if s.ty == d.dst.ty && !d.sat && s.ty.is_float() {
        let bits = float_bits_mod(raw, s.ty, s.neg, s.abs);
        let flag = d.cmod.is_some_and(|c| cond_holds(bits, d.dst.ty, c, false));
        return LaneOut { bits, flag };
    }
    finish(d, num(s, raw))
}

fn fadd(dom: Dom, a: f64, b: f64) -> f64 {
    match dom {
        Dom::F32 => ((a as f32) + (b as f32)) as f64,
        Dom::F16 => fp::round_hf(a + b),
        _ => a + b,
    }
}

fn fmul(dom: Dom, a: f64, b: f64) -> f64 {
    match dom {
        Dom::F32 => ((a as f32) * (b as f32)) as f64,
        Dom::F16 => fp::round_hf(a * b),
        _ => a * b,
    }
}

/// Fused a + b·c with one rounding to the domain.
fn fmad(dom: Dom, a: f64, b: f64, c: f64) -> f64 {
    if dom == Dom::F64 {
        return b.mul_add(c, a);
    }
    // b·c is exact in f64 for HF/F inputs.
    let p = b * c;
    let r = if p.is_finite() && a.is_finite() {
        fp::add_round_odd(p, a)
    } else {
        p + a
    };
    dom.round(r)
}

/// x − floor(x), rounded once.
fn ffrc(dom: Dom, x: f64) -> f64 {
    let fl = x.floor();
    if dom == Dom::F64 || !x.is_finite() {
        return x - fl;
    }
    dom.round(fp::add_round_odd(x, -fl))
}

/// Executes one channel of any instruction, its operand types asked per
/// channel (integer instructions also have [`super::int_lane::IntInst`]).
/// `raw` holds the source bits; `sel_pred` the predicate value of a
/// predicated SEL.
pub(crate) fn any_lane(d: &DInst, raw: [u64; 3], sel_pred: bool, rng: &mut SplitMix) -> LaneOut {
    let dom = d.dom;
    let s = &d.srcs;
    match d.op {
        Opcode::Mov => pass(d, 0, raw[0]),
        Opcode::Sel => {
            if d.pred.is_some() {
                return pass(
                    d,
                    if sel_pred { 0 } else { 1 },
                    raw[if sel_pred { 0 } else { 1 }],
                );
            }
            let (a, b) = (num(&s[0], raw[0]), num(&s[1], raw[1]));
            let min = d.cmod == Some(CondMod::L);
            let pick = match (a, b) {
                (Num::F(x), Num::F(y)) => {
                    if x.is_nan() && y.is_nan() {
                        return finish(d, Num::F(f64::NAN));
                    } else if x.is_nan() {
                        1
                    } else if y.is_nan() {
                        0
                    } else if x == y {
                        // -0 < +0: min takes the negative zero, max the positive.
                        let xneg = x.is_sign_negative();
                        usize::from(if min { !xneg } else { xneg })
                    } else if (x < y) == min {
                        0
                    } else {
                        1
                    }
                }
                (a, b) => {
                    let lt = relation(a, b, CondMod::L);
                    let ge = relation(a, b, CondMod::Ge);
                    if (min && lt) || (!min && ge) {
                        0
                    } else {
                        1
                    }
                }
            };
            pass(d, pick, raw[pick])
        }
        Opcode::Csel => {
            let c = d.cmod.unwrap_or(CondMod::Nz);
            let z = if s[2].ty.is_float() {
                Num::F(0.0)
            } else {
                Num::I(0)
            };
            let pick = if relation(num(&s[2], raw[2]), z, c) {
                0
            } else {
                1
            };
            pass(d, pick, raw[pick])
        }
        Opcode::Not | Opcode::And | Opcode::Or | Opcode::Xor => {
            let lv = |k: usize| {
                let v = extend(raw[k], s[k].ty);
                if s[k].neg {
                    !v
                } else {
                    v
                }
            };
            let v = match d.op {
                Opcode::Not => !lv(0),
                Opcode::And => lv(0) & lv(1),
                Opcode::Or => lv(0) | lv(1),
                _ => lv(0) ^ lv(1),
            };
            finish(d, Num::I(v))
        }
        Opcode::Shl | Opcode::Shr | Opcode::Asr => {
            let wide = s[0].ty.is_64bit() || d.dst.ty.is_64bit();
            let cnt = (int(&s[1], raw[1]) as u64 & if wide { 63 } else { 31 }) as u32;
            let v = int(&s[0], raw[0]);
            let bits = 8 * s[0].ty.size();
            let sh = 128 - bits;
            let n = match d.op {
                Opcode::Shl => {
                    if v != 0 && v.unsigned_abs().leading_zeros() <= cnt + 1 {
                        // Far beyond any 64-bit range: keep the low bits exact.
                        let low = (v as u128).wrapping_shl(cnt) as u64;
                        if d.sat {
                            return finish(d, Num::I(if v < 0 { i128::MIN } else { i128::MAX }));
                        }
                        Num::I(low as i128)
                    } else {
                        Num::I(v << cnt)
                    }
                }
                Opcode::Shr => Num::I((((v as u128) << sh) >> sh >> cnt) as i128),
                _ => Num::I(((v << sh) >> sh) >> cnt),
            };
            finish(d, n)
        }
        Opcode::Cmp | Opcode::Cmpn => {
            let c = d.cmod.unwrap_or(CondMod::Nz);
            let (a, b) = (num(&s[0], raw[0]), num(&s[1], raw[1]));
            let b_nan = matches!(b, Num::F(y) if y.is_nan());
            let r = (d.op == Opcode::Cmpn && b_nan) || relation(a, b, c);
            let ones = d.dst.ty.mask();
            let mut bits = if r { ones } else { 0 };
            if d.dst.ty.size() == 8 {
                // The upper dword of a 64-bit compare result is undefined.
                bits = (bits & 0xffff_ffff) | (rng.next() << 32);
            }
            LaneOut { bits, flag: r }
        }
        Opcode::Add | Opcode::Mul | Opcode::Avg => {
            if dom == Dom::Int {
                let (a, b) = (int(&s[0], raw[0]), int(&s[1], raw[1]));
                let v = match d.op {
                    Opcode::Add => a + b,
                    Opcode::Mul => a * b,
                    _ => (a + b + 1) >> 1,
                };
                finish(d, Num::I(v))
            } else {
                let (a, b) = (f(&s[0], raw[0]), f(&s[1], raw[1]));
                let v = if d.op == Opcode::Add {
                    fadd(dom, a, b)
                } else {
                    fmul(dom, a, b)
                };
                finish(d, Num::F(v))
            }
        }
        Opcode::Mad => {
            let v = fmad(dom, f(&s[0], raw[0]), f(&s[1], raw[1]), f(&s[2], raw[2]));
            finish(d, Num::F(v))
        }
        Opcode::Frc | Opcode::Rndd | Opcode::Rnde | Opcode::Rndz => {
            let x = dom.round(f(&s[0], raw[0]));
            let v = match d.op {
                Opcode::Frc => ffrc(dom, x),
                Opcode::Rndd => x.floor(),
                Opcode::Rnde => x.round_ties_even(),
                _ => x.trunc(),
            };
            finish(d, Num::F(v))
        }
        Opcode::Lzd | Opcode::Fbh | Opcode::Fbl | Opcode::Cbit | Opcode::Bfrev => {
            let x = int(&s[0], raw[0]) as u32;
            let v: u32 = match d.op {
                Opcode::Lzd => x.leading_zeros(),
                Opcode::Fbh => {
                    if s[0].ty == RegType::D {
                        let y = x as i32;
                        if y == 0 || y == -1 {
                            u32::MAX
                        } else if y < 0 {
                            (!x).leading_zeros()
                        } else {
                            x.leading_zeros()
                        }
                    } else if x == 0 {
                        u32::MAX
                    } else {
                        x.leading_zeros()
                    }
                }
                Opcode::Fbl => {
                    if x == 0 {
                        u32::MAX
                    } else {
                        x.trailing_zeros()
                    }
                }
                Opcode::Cbit => x.count_ones(),
                _ => x.reverse_bits(),
            };
            finish(d, Num::I(v as i128))
        }
        Opcode::Bfe | Opcode::Bfi1 | Opcode::Bfi2 => {
            let a = raw[0] as u32;
            let b = raw[1] as u32;
            let c = raw[2] as u32;
            let v: u32 = match d.op {
                Opcode::Bfe => {
                    let (w, o) = (a & 31, b & 31);
                    let signed = d.dst.ty == RegType::D;
                    if w == 0 {
                        0
                    } else if w + o < 32 {
                        let field = (c >> o) & ((1u32 << w) - 1);
                        if signed {
                            (((field << (32 - w)) as i32) >> (32 - w)) as u32
                        } else {
                            field
                        }
                    } else if signed {
                        ((c as i32) >> o) as u32
                    } else {
                        c >> o
                    }
                }
                Opcode::Bfi1 => ((1u32 << (a & 31)) - 1) << (b & 31),
                _ => {
                    if a == 0 {
                        c
                    } else {
                        ((b << a.trailing_zeros()) & a) | (c & !a)
                    }
                }
            };
            finish(d, Num::I(extend(v as u64, d.dst.ty)))
        }
        Opcode::Math => {
            let signed = s[0].ty == RegType::D;
            let (a, b) = (extend(raw[0], s[0].ty), extend(raw[1], s[1].ty));
            let v = if b == 0 {
                // Undefined: deterministic garbage.
                extend(rng.next(), d.dst.ty)
            } else {
                let q = if signed {
                    (a as i32).wrapping_div(b as i32) as i128
                } else {
                    a / b
                };
                let r = if signed {
                    (a as i32).wrapping_rem(b as i32) as i128
                } else {
                    a % b
                };
                if d.math == Some(MathFn::IntMod) {
                    r
                } else {
                    q
                }
            };
            finish(d, Num::I(v))
        }
        _ => LaneOut {
            bits: 0,
            flag: false,
        },
    }
}
