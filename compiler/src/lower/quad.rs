//! Quad ops and derivatives (seed 004), as brw emits them on Gfx11+, where
//! Align16 is gone: every one reads its quad through a register region.
//!
//! - `ddx_coarse`: `add dst src.1<4;4,0> -src<4;4,0>`: every lane of a quad
//!   reads its quad's lanes 1 and 0; `ddy_coarse`: `add dst -src<4;4,0>
//!   src.2<4;4,0>` (lanes 2 and 0).
//! - `ddx_fine`: as `ddx_coarse` over `<2;2,0>`: each row reads its own row.
//! - `ddy_fine`: one `add(4)` per quad, in that quad's channel group, over
//!   `<0;2,1>` regions at the quad's lanes 0 (negated) and 2 (columns 0 1 0
//!   1), as brw's generator emits it on Gfx11 and Gfx12.0.
//! - `quad_broadcast` with a constant index: `mov dst src.i<4;4,0>`; with a
//!   register index, the four candidates are selected by compares.
//! - `quad_swap_horizontal`: two NoMask MOVs of half width with stride 2
//!   into a temporary; vertical and diagonal: brw's `QUAD_SWIZZLE`, four
//!   NoMask MOVs of a quarter width, destination stride 4, source region
//!   `<4;1,0>`. A masked MOV then copies the temporary to the result, so a
//!   lane that left a loop keeps its value (the NoMask writes run in every
//!   iteration).
//!
//! Derivatives are masked: in a valid program the whole quad is active.

use super::emit::{dest, imm, view, Loc};
use super::{cov, Lower, Val, SCRATCH_FLAG};
use crate::coverage::hit;
use eu::{CondMod, Instruction, Opcode, Predicate, RegType, Region, Src};
use ir::{Instr, Op, ValueId};

/// `x` from lane `lane` onward, read as `ty` with region `r`.
fn lanes_from(x: Loc, lane: u32, ty: RegType, r: Region) -> Src {
    let mut s = view(x.plus(lane * ty.size()), ty);
    s.region = r;
    s
}

impl Lower<'_> {
    /// A 32-bit source as packed dwords, one per lane (a scalar, or a
    /// value in qword-strided containers, is copied first): the regions
    /// below step over lanes in dwords.
    fn quad_source(&mut self, v: ValueId) -> Loc {
        let x = self.loc(v);
        if x.lane_bytes == 4 {
            return x;
        }
        hit(cov::QUAD_REPACKED_SOURCE);
        let t = self.new_loc(4);
        self.mov(dest(t, RegType::UD), view(x, RegType::UD));
        t
    }

    pub(crate) fn quad(&mut self, i: &Instr) {
        let d = i.dest.expect("quad ops define a value").id;
        let x = self.quad_source(i.srcs[0]);
        let out = self.new_loc(4);
        let f = RegType::F;
        let ud = RegType::UD;
        match i.op {
            Op::DdxFine | Op::DdxCoarse | Op::DdyCoarse => {
                hit(cov::QUAD_DERIVATIVE_REGION);
                let (plus, r) = match i.op {
                    Op::DdxFine => (1, Region::new(2, 2, 0)),
                    Op::DdxCoarse => (1, Region::new(4, 4, 0)),
                    _ => (2, Region::new(4, 4, 0)),
                };
                // brw's operand order: the x derivatives add the negated
                // left lane second, the y derivatives the negated top first.
                let minus = lanes_from(x, 0, f, r).negated();
                let plus = lanes_from(x, plus, f, r);
                let srcs = if i.op == Op::DdyCoarse {
                    [minus, plus]
                } else {
                    [plus, minus]
                };
                self.alu(Opcode::Add, dest(out, f), &srcs);
            }
            Op::DdyFine => {
                hit(cov::QUAD_DDY_FINE_PER_QUAD);
                let r = Region::new(0, 2, 1);
                for q in (0..self.simd).step_by(4) {
                    let srcs = [lanes_from(x, q, f, r).negated(), lanes_from(x, q + 2, f, r)];
                    let mut add = Instruction::alu(Opcode::Add, 4, dest(out.plus(4 * q), f), &srcs);
                    add.group = q as u8;
                    self.emit(add);
                }
            }
            Op::QuadBroadcast => {
                let r = Region::new(4, 4, 0);
                if let Some(k) = self.p.const_value(i.srcs[1]) {
                    hit(cov::QUAD_BROADCAST_CONSTANT);
                    self.mov(dest(out, ud), lanes_from(x, k as u32 & 3, ud, r));
                } else {
                    // Lane 0's candidate, then each other candidate where
                    // the (uniform) index names it.
                    hit(cov::QUAD_BROADCAST_DYNAMIC);
                    let idx = view(self.loc(i.srcs[1]), ud);
                    self.mov(dest(out, ud), lanes_from(x, 0, ud, r));
                    for k in 1..4 {
                        self.alu_cmod(
                            Opcode::Cmp,
                            CondMod::Z,
                            SCRATCH_FLAG,
                            eu::Dst::null(ud),
                            &[idx, imm(k, ud)],
                        );
                        self.alu_pred(
                            Predicate::NORMAL,
                            SCRATCH_FLAG,
                            Opcode::Mov,
                            dest(out, ud),
                            &[lanes_from(x, k as u32, ud, r)],
                        );
                    }
                }
            }
            Op::QuadSwapHorizontal | Op::QuadSwapVertical | Op::QuadSwapDiagonal => {
                let t = self.new_loc(4);
                // Element e of the temporary takes source element swizzle[e % n].
                let moves: &[(u32, u32, u8)] = match i.op {
                    Op::QuadSwapHorizontal => {
                        hit(cov::QUAD_SWAP_HORIZONTAL);
                        &[(0, 1, 2), (1, 0, 2)]
                    }
                    Op::QuadSwapVertical => {
                        hit(cov::QUAD_SWIZZLE);
                        &[(0, 2, 4), (1, 3, 4), (2, 0, 4), (3, 1, 4)]
                    }
                    _ => {
                        hit(cov::QUAD_SWIZZLE);
                        &[(0, 3, 4), (1, 2, 4), (2, 1, 4), (3, 0, 4)]
                    }
                };
                for &(to, from, step) in moves {
                    let mut dst = dest(t.plus(4 * to), ud);
                    dst.stride = step;
                    let src = lanes_from(x, from, ud, Region::new(step, 1, 0));
                    let mut mov =
                        Instruction::alu(Opcode::Mov, self.simd as u8 / step, dst, &[src]);
                    mov.we_all = true;
                    self.emit(mov);
                }
                self.mov(dest(out, ud), view(t, ud));
            }
            other => unreachable!("{} is not a quad op", other.name()),
        }
        self.set(d, Val::Grf(out));
    }
}
