//! The compressed-instruction hazard (brw's
//! `fs_inst::has_source_and_destination_hazard`): the hardware runs an
//! instruction wider than its pass width ([`Instruction::pass_width`]) as
//! passes of that many channels, each writing its destination before the
//! next reads its sources. A destination that overlaps bytes a later pass
//! reads (a scalar `<0,1,0>` source in the destination's first register, a
//! packed word source under a dword destination) gives that pass what the
//! earlier one wrote. Mesa's register allocator keeps such destinations off
//! their sources; the rule catches an allocation that does not.

use super::Sink;
use crate::isa::{div_rem, DstKind, Instruction, MachineConfig, SrcKind};

/// The first byte and size of channel `c`'s element of a source region.
fn src_range(base: u64, sz: u64, v: u64, w: u64, h: u64, c: u64) -> (u64, u64) {
    let (row, col) = crate::isa::Region::row_col(c, w);
    (base + (row * v + col * h) * sz, sz)
}

fn overlaps(a: (u64, u64), b: (u64, u64)) -> bool {
    a.0 < b.0 + b.1 && b.0 < a.0 + a.1
}

/// A destination's elements: channel c's is `size` bytes at
/// `base + c * stride`.
struct Elements {
    base: u64,
    size: u64,
    stride: u64,
}

impl Elements {
    fn of(&self, c: u64) -> (u64, u64) {
        (self.base + c * self.stride, self.size)
    }

    /// The first of channels `0..channels` whose element overlaps `read`.
    /// The elements lie in channel order, each starting where or after
    /// the one before ends (stride ≥ size) or all at one place (stride 0),
    /// so it is the first one ending after `read` starts, if that one
    /// starts before `read` ends.
    fn first_overlapping(&self, read: (u64, u64), channels: u64) -> Option<u64> {
        let end0 = self.base + self.size;
        let c = if self.stride == 0 || read.0 < end0 {
            0
        } else {
            (read.0 + 1 - end0).div_ceil(self.stride)
        };
        (c < channels && overlaps(self.of(c), read)).then_some(c)
    }
}

pub(crate) fn check(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    let exec = u64::from(i.exec_size);
    let pw = u64::from(i.pass_width().max(1));
    if pw >= exec {
        return;
    }
    let DstKind::Grf { nr, sub } = i.dst.kind else {
        return;
    };
    let gb = u64::from(cfg.grf_bytes);
    let dsz = u64::from(i.dst.ty.size());
    let dbase = u64::from(nr) * gb + u64::from(sub) * dsz;
    let dstride = u64::from(i.dst.stride) * dsz;
    let dst = Elements {
        base: dbase,
        size: dsz,
        stride: dstride,
    };
    let dst_end = dbase + (exec - 1) * dstride + dsz;
    for (k, src) in i.srcs.iter().enumerate() {
        let SrcKind::Grf { nr, sub } = src.kind else {
            continue;
        };
        let sz = u64::from(src.ty.size());
        let (v, w, h) = (
            u64::from(src.region.v),
            u64::from(src.region.w),
            u64::from(src.region.h),
        );
        if w == 0 {
            continue;
        }
        let base = u64::from(nr) * gb + u64::from(sub) * sz;
        // Every element the source reads lies in [base, last + sz), every
        // one the destination writes in [dst.base, dst_end): when those
        // two are apart no channel can overlap (the usual case: a source
        // in other registers), and the channels need not be tried.
        let last = base + (((exec - 1) / w) * v + (w - 1).min(exec - 1) * h) * sz;
        if last + sz <= dst.base || base >= dst_end {
            continue;
        }
        for c in pw..exec {
            let read = src_range(base, sz, v, w, h, c);
            let earlier = div_rem(c, pw).0 * pw;
            if let Some(wc) = dst.first_overlapping(read, earlier) {
                s.err(
                    "compressed-hazard",
                    format_args!(
                        "channel {c} reads src{k} at byte {} of the file after channel {wc}, in an earlier pass of {pw}, wrote it",
                        read.0
                    ),
                );
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, Opcode, Region, Src};
    use crate::types::RegType;

    /// The rule channel by channel, with no shortcut: some channel of a
    /// later pass reads a byte some channel of an earlier pass wrote.
    fn hazard_by_hand(i: &Instruction, gb: u64) -> bool {
        let exec = u64::from(i.exec_size);
        let pw = u64::from(i.pass_width().max(1));
        let DstKind::Grf { nr, sub } = i.dst.kind else {
            return false;
        };
        let dsz = u64::from(i.dst.ty.size());
        let written = |c: u64| {
            let start =
                u64::from(nr) * gb + u64::from(sub) * dsz + c * u64::from(i.dst.stride) * dsz;
            (start, dsz)
        };
        i.srcs.iter().any(|src| {
            let SrcKind::Grf { nr, sub } = src.kind else {
                return false;
            };
            let sz = u64::from(src.ty.size());
            let (v, w, h) = (
                src.region.v as u64,
                src.region.w as u64,
                src.region.h as u64,
            );
            let base = u64::from(nr) * gb + u64::from(sub) * sz;
            (pw..exec).any(|c| {
                let read = src_range(base, sz, v, w, h, c);
                (0..c / pw * pw).any(|e| overlaps(written(e), read))
            })
        })
    }

    /// The shortcut for sources apart from the destination never hides a
    /// hazard: every destination layout, source region, type and distance
    /// between the two (registers before, on and after the destination's)
    /// gets the channel-by-channel answer.
    #[test]
    fn sources_apart_from_the_destination_are_skipped_only_when_no_channel_overlaps() {
        let cfg = MachineConfig::GFX11;
        let gb = u64::from(cfg.grf_bytes);
        let types = [RegType::UB, RegType::UW, RegType::UD, RegType::UQ];
        let regions = [
            (0, 1, 0),
            (8, 8, 1),
            (16, 8, 2),
            (4, 4, 1),
            (2, 2, 1),
            (1, 1, 0),
            (8, 4, 2),
            (0, 4, 1),
            (16, 16, 1),
            (32, 8, 4),
        ];
        let (mut cases, mut hazards) = (0, 0);
        for exec in [16u8, 32] {
            for dty in types {
                for stride in [1u8, 2, 4] {
                    for dsub in [0u32, 1, 4] {
                        for sty in types {
                            for &(v, w, h) in &regions {
                                for snr in 8u32..14 {
                                    for ssub in [0u32, 2, 8] {
                                        let mut i = Instruction::new(Opcode::Mov, exec);
                                        i.dst = Dst::grf(10, dsub, dty, stride);
                                        i.srcs.push(Src::grf(snr, ssub, sty, Region::new(v, w, h)));
                                        let mut sink = Sink::verdict(&i);
                                        check(&i, &cfg, &mut sink);
                                        let want = hazard_by_hand(&i, gb);
                                        assert_eq!(
                                            sink.failed,
                                            want,
                                            "{}",
                                            crate::print_instruction(&i)
                                        );
                                        cases += 1;
                                        hazards += usize::from(want);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(cases, 2 * 4 * 3 * 3 * 4 * 10 * 6 * 3);
        // Both answers occur often: the shapes reach the overlapping cases.
        assert!(
            hazards > cases / 20 && hazards < cases / 2,
            "{hazards} of {cases}"
        );
    }

    #[test]
    fn the_first_overlapping_element_is_the_first_in_channel_order() {
        // Every destination layout the encodings allow (and stride 0),
        // against reads of every size around it.
        for size in [1, 2, 4, 8] {
            for stride in [0, 1, 2, 4] {
                for base in [0, 3, 32, 36] {
                    let dst = Elements {
                        base,
                        size,
                        stride: stride * size,
                    };
                    for start in 0..200 {
                        for len in [1, 2, 4, 8] {
                            for channels in [0, 1, 4, 8, 16, 24] {
                                let read = (start, len);
                                let want = (0..channels).find(|&c| overlaps(dst.of(c), read));
                                assert_eq!(
                                    dst.first_overlapping(read, channels),
                                    want,
                                    "size {size} stride {stride} base {base} read {read:?} channels {channels}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
