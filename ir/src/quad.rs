//! The lanes a quad op or a derivative reads (seed 004), the one
//! definition the interpreter, the compiler's tests and the generator
//! share. Quad q of a subgroup is lanes 4q..4q+3; lane 4q+k sits at column
//! `k & 1` and row `k >> 1`, as in Vulkan compute's linear derivative
//! groups.

use crate::eval::Args;
use crate::op::Op;

/// What one lane of a quad op or derivative reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuadRead {
    /// The source in one lane (a quad op).
    Lane(usize),
    /// The source in `plus` minus the source in `minus` (a derivative).
    Difference {
        /// The lane subtracted from.
        plus: usize,
        /// The lane subtracted.
        minus: usize,
    },
}

/// The first lane of `lane`'s quad.
pub const fn quad_base(lane: usize) -> usize {
    lane & !3
}

/// What `lane` reads for `op`; `index` is `quad_broadcast`'s lane index
/// (below 4). `None` for an op that is not a quad op or derivative.
pub fn read(op: Op, lane: usize, index: u64) -> Option<QuadRead> {
    let base = quad_base(lane);
    let column = lane & 1;
    let row = lane & 2;
    Some(match op {
        Op::QuadBroadcast => QuadRead::Lane(base + (index as usize & 3)),
        Op::QuadSwapHorizontal => QuadRead::Lane(lane ^ 1),
        Op::QuadSwapVertical => QuadRead::Lane(lane ^ 2),
        Op::QuadSwapDiagonal => QuadRead::Lane(lane ^ 3),
        Op::DdxFine => QuadRead::Difference {
            plus: base + row + 1,
            minus: base + row,
        },
        Op::DdxCoarse => QuadRead::Difference {
            plus: base + 1,
            minus: base,
        },
        Op::DdyFine => QuadRead::Difference {
            plus: base + 2 + column,
            minus: base + column,
        },
        Op::DdyCoarse => QuadRead::Difference {
            plus: base + 2,
            minus: base,
        },
        _ => return None,
    })
}

/// A derivative's value: `plus - minus` as a 32-bit `fsub`.
pub fn difference(plus: u64, minus: u64) -> u64 {
    let fsub = Op::Fsub.info().eval.expect("fsub is an ALU op");
    let args = Args {
        src: [plus, minus, 0, 0],
        src_bits: [32, 32, 0, 0],
        bits: 32,
    };
    fsub(&args).expect("fsub is defined everywhere")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(op: Op) -> Vec<QuadRead> {
        (4..8).map(|l| read(op, l, 2).unwrap()).collect()
    }

    #[test]
    fn quad_ops_read_the_lane_the_spec_names() {
        use QuadRead::Lane;
        // Quad 1 (lanes 4..7): 4 5 on top, 6 7 below.
        assert_eq!(lanes(Op::QuadBroadcast), [Lane(6); 4]);
        assert_eq!(
            lanes(Op::QuadSwapHorizontal),
            [Lane(5), Lane(4), Lane(7), Lane(6)]
        );
        assert_eq!(
            lanes(Op::QuadSwapVertical),
            [Lane(6), Lane(7), Lane(4), Lane(5)]
        );
        assert_eq!(
            lanes(Op::QuadSwapDiagonal),
            [Lane(7), Lane(6), Lane(5), Lane(4)]
        );
        assert_eq!(read(Op::Fadd, 0, 0), None);
    }

    #[test]
    fn derivatives_subtract_across_rows_and_columns() {
        let d = |plus, minus| QuadRead::Difference { plus, minus };
        assert_eq!(lanes(Op::DdxFine), [d(5, 4), d(5, 4), d(7, 6), d(7, 6)]);
        assert_eq!(lanes(Op::DdxCoarse), [d(5, 4); 4]);
        assert_eq!(lanes(Op::DdyFine), [d(6, 4), d(7, 5), d(6, 4), d(7, 5)]);
        assert_eq!(lanes(Op::DdyCoarse), [d(6, 4); 4]);
    }

    #[test]
    fn the_difference_is_an_f32_subtraction() {
        // 3.5 - 1.25 = 2.25; inf - inf is the canonical NaN.
        assert_eq!(difference(0x4060_0000, 0x3fa0_0000), 0x4010_0000);
        assert_eq!(difference(0x7f80_0000, 0x7f80_0000), 0x7fc0_0000);
    }
}
