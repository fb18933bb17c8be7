//! Align16 (vec4) rules: the access mode exists before Gfx11 only
//! (`alignment_supported`), its regions are `<vstride,4,1>` read through a
//! swizzle with vstride 0, 2 or 4 and a one-bit subregister (byte 0 or
//! 16), its destination has stride 1 and a writemask, and mixed-float
//! Align16 is packed SIMD8 (`brw_eu_validate.c`; EU-MODEL §1.5, §3).
//!
//! The model's Align16 is SIMD4x2 ALU code: at most 8 channels (two
//! vertices of four components), never a SEND or control flow; a
//! replicate predicate (`.x`…`.w`) needs Align16, as its encoding does.

use super::inst::is_mixed_float;
use super::Sink;
use crate::isa::{DstKind, Instruction, MachineConfig, Opcode, PredMode, Src, SrcKind};

/// The instruction-level Align16 rules.
pub(crate) fn check(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    let replicate = i
        .pred
        .is_some_and(|p| matches!(p.mode, PredMode::Replicate(_)));
    let Some(a) = i.align16 else {
        if replicate {
            s.err(
                "pred-replicate-align1",
                "a replicate predicate (.x, .y, .z, .w) needs Align16",
            );
        }
        return;
    };
    if !cfg.align16 {
        s.err("align16-unsupported", "Align16 is not supported on Gfx11+");
    }
    if i.op.num_srcs() == 0 || i.op == Opcode::Send || i.op.is_cf() {
        s.err(
            "align16-alu-only",
            format_args!("{} is not an Align16 ALU instruction", i.op.name()),
        );
        return;
    }
    if i.exec_size > 8 {
        s.err(
            "align16-exec-size",
            format_args!(
                "Align16 executes SIMD4x2, at most 8 channels, not {}",
                i.exec_size
            ),
        );
    }
    if i.dst.stride != 1 {
        s.err(
            "align16-dst-stride",
            "Align16: Destination Horizontal Stride must be 1",
        );
    }
    if a.writemask > 0xf {
        s.err(
            "align16-writemask",
            "an Align16 writemask has the four bits x, y, z, w",
        );
    }
    if let DstKind::Grf { sub, .. } = i.dst.kind {
        if a.writemask & 0xf == 0 {
            s.err(
                "align16-writemask",
                "an Align16 GRF destination needs a writemask of x, y, z, w",
            );
        }
        if !matches!(sub as u64 * i.dst.ty.size() as u64, 0 | 16) {
            s.err(
                "align16-subreg",
                "an Align16 destination starts at byte 0 or 16 of its register",
            );
        }
    }
    if i.dst.ty.is_64bit() && i.srcs.iter().any(|x| !x.ty.is_64bit()) && i.exec_size > 2 {
        s.err(
            "align16-qword-exec",
            "Align16 with a QW destination and non-QW sources allows exec size 2 at most",
        );
    }
    if is_mixed_float(i) {
        let unpacked = i
            .srcs
            .iter()
            .any(|x| !matches!(x.kind, SrcKind::Imm(_)) && x.region.v != 4);
        if i.exec_size > 8 || unpacked {
            s.err(
                "align16-mixed-float",
                "Align16 mixed float mode is packed (vstride 4) and SIMD8 at most",
            );
        }
    }
}

/// The Align16 source region rules, in place of Align1's: `<v,4,1>` with
/// v 0, 2 or 4, the subregister at byte 0 or 16, and every component a
/// swizzle may pick inside the register file and two registers.
pub(crate) fn check_srcs(i: &Instruction, gb: u64, file: u64, s: &mut Sink<'_>) {
    for (k, src) in i.srcs.iter().enumerate() {
        let Some(sub) = sub_bytes(src) else {
            continue;
        };
        let r = src.region;
        if ![0, 2, 4].contains(&r.v) || r.w != 4 || r.h != 1 {
            s.err(
                "align16-region",
                format_args!(
                    "src{k}: an Align16 region is <vstride,4,1> with VertStride 0, 2 or 4, not <{},{},{}>",
                    r.v, r.w, r.h
                ),
            );
            continue;
        }
        if !matches!(sub, 0 | 16) {
            s.err(
                "align16-subreg",
                format_args!("src{k}: an Align16 source starts at byte 0 or 16 of its register"),
            );
        }
        let end = src_end(i, src);
        if let SrcKind::Flag { nr, .. } = src.kind {
            if nr as u64 * 4 + end > 8 {
                s.err(
                    "flag-bounds",
                    format_args!("src{k} extends beyond the flag registers f0-f1"),
                );
            }
        } else {
            src_bounds(i, k, gb, file, s);
            if end > 2 * gb {
                s.err(
                    "operand-span",
                    format_args!("src{k} cannot span more than 2 adjacent GRFs"),
                );
            }
        }
    }
}

/// The byte of its register a register source starts at (None for
/// immediates and null).
fn sub_bytes(src: &Src) -> Option<u64> {
    let sz = src.ty.size() as u64;
    match src.kind {
        SrcKind::Grf { sub, .. } => Some(sub as u64 * sz),
        SrcKind::Flag { sub, .. } => Some(sub as u64 * sz),
        SrcKind::Imm(_) | SrcKind::Null => None,
    }
}

/// Where the bytes a swizzle may pick of an Align16 source end, from the
/// start of its register.
fn src_end(i: &Instruction, src: &Src) -> u64 {
    let sz = src.ty.size() as u64;
    let vertices = (i.exec_size as u64).div_ceil(4);
    sub_bytes(src).unwrap_or(0) + ((vertices.max(1) - 1) * src.region.v as u64 + 3) * sz + sz
}

/// The `grf-bounds` rule for Align16 GRF source `k` of `i`.
pub(crate) fn src_bounds(i: &Instruction, k: usize, gb: u64, file: u64, s: &mut Sink<'_>) {
    let src = &i.srcs[k];
    if let SrcKind::Grf { nr, .. } = src.kind {
        if nr as u64 * gb + src_end(i, src) > file {
            s.err(
                "grf-bounds",
                format_args!("src{k} extends beyond the GRF file"),
            );
        }
    }
}
