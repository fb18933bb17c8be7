//! UB guards in the style of Csmith's safe math: small instruction sequences
//! that bring an op's operands into its defined range, so every generated
//! program is free of undefined behaviour by construction. Each guard is
//! itself ordinary IR, so the compiler sees (and must get right) it too.

use crate::gen::Gen;
use ir::float::from_f64;
use ir::{Op, ValueId};

/// Whether `op` has a guard here (checked for every op that may be undefined).
pub fn has_guard(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        Idiv | Irem
            | Imod
            | Udiv
            | Umod
            | F2i
            | F2u
            | BitfieldInsert
            | IbitfieldExtract
            | UbitfieldExtract
            | ExtractU8
            | ExtractI8
            | ExtractU16
            | ExtractI16
            | ReadInvocation
            | QuadBroadcast
    ) || op.reads_quad()
}

impl Gen<'_> {
    /// A divisor that is neither 0 nor -1: `(b + 1) <u 2 ? k : b` with a
    /// constant k outside {0, -1} (so INT_MIN / -1 cannot happen either).
    pub(crate) fn safe_divisor(&mut self, b: ValueId, bits: u8) -> ValueId {
        let one = self.konst(bits, 1);
        let two = self.konst(bits, 2);
        let ks: [i64; 6] = [2, 3, 7, -2, -3, -16];
        let k = ks[self.e.below(ks.len() as u64) as usize];
        let k = self.konst(bits, k as u64);
        let t = self.emit(Op::Iadd, bits, &[b, one]);
        let bad = self.emit(Op::Ult, 1, &[t, two]);
        self.emit(Op::Bcsel, bits, &[bad, k, b])
    }

    /// A float clamped so that its truncation fits the integer result:
    /// `fmin(fmax(x, lo), hi)`; fmax also maps NaN to lo.
    pub(crate) fn safe_float_to_int(
        &mut self,
        x: ValueId,
        from: u8,
        to: u8,
        signed: bool,
    ) -> ValueId {
        let max_finite = match from {
            16 => 65504.0,
            32 => f32::MAX as f64,
            _ => f64::MAX,
        };
        // The largest float below 2^(n-1) (signed) or 2^n (unsigned).
        let limit = if signed {
            2f64.powi(to as i32 - 1)
        } else {
            2f64.powi(to as i32)
        };
        let hi = largest_below(limit, from).min(max_finite);
        let lo = if signed {
            (-limit).max(-max_finite)
        } else {
            0.0
        };
        let lo = self.konst(from, from_f64(lo, from));
        let hi = self.konst(from, from_f64(hi, from));
        let a = self.emit(Op::Fmax, from, &[x, lo]);
        self.emit(Op::Fmin, from, &[a, hi])
    }

    /// bitfield_insert operands with offset, bits in [0, 32] and offset + bits <= 32.
    pub(crate) fn safe_insert_range(
        &mut self,
        offset: ValueId,
        bits: ValueId,
    ) -> (ValueId, ValueId) {
        let c32 = self.konst(32, 32);
        let off = self.emit(Op::Umin, 32, &[offset, c32]);
        let room = self.emit(Op::Isub, 32, &[c32, off]);
        let b = self.emit(Op::Umin, 32, &[bits, room]);
        (off, b)
    }

    /// A lane index that is the same in all active lanes and names an active
    /// lane: the first or last active lane.
    pub(crate) fn safe_lane_index(&mut self) -> ValueId {
        if self.e.chance(1, 2) {
            let lane = self.emit(Op::SubgroupInvocation, 32, &[]);
            self.emit(Op::ReadFirstInvocation, 32, &[lane])
        } else {
            let t = self.konst(1, 1);
            let bal = self.emit(Op::Ballot, 32, &[t]);
            let op = if self.e.chance(1, 2) {
                Op::FindLsb
            } else {
                Op::UfindMsb
            };
            self.emit(op, 32, &[bal])
        }
    }
}

impl Gen<'_> {
    /// A quad lane index below 4 that is the same in all active lanes: a
    /// constant, or the low two bits of a uniform lane index (so the
    /// compiler sees a register index too).
    pub(crate) fn safe_quad_index(&mut self) -> ValueId {
        if self.e.chance(2, 3) {
            let k = self.e.below(4);
            return self.konst(32, k);
        }
        let lane = self.safe_lane_index();
        let three = self.konst(32, 3);
        self.emit(Op::Iand, 32, &[lane, three])
    }
}

/// The largest float of size `bits` strictly below `limit` (a power of two).
fn largest_below(limit: f64, bits: u8) -> f64 {
    let mantissa = match bits {
        16 => 11,
        32 => 24,
        _ => 53,
    };
    limit - limit / 2f64.powi(mantissa)
}

#[cfg(test)]
mod tests {
    use super::largest_below;

    #[test]
    fn largest_below_powers_of_two() {
        // f32 below 2^31: 2^31 - 2^7 = 2147483520.
        assert_eq!(largest_below(2f64.powi(31), 32), 2147483520.0);
        // f16 below 2^15: 32768 - 16 = 32752.
        assert_eq!(largest_below(32768.0, 16), 32752.0);
        // f16 below 2^8: 256 - 0.125 = 255.875.
        assert_eq!(largest_below(256.0, 16), 255.875);
    }
}
