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
        for c in pw..exec {
            let read = src_range(base, sz, v, w, h, c);
            let earlier = div_rem(c, pw).0 * pw;
            if let Some(wc) = dst.first_overlapping(read, earlier) {
                s.err(
                    "compressed-hazard",
                    format!(
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
