//! Region, bounds, destination-layout and conversion rules
//! (EU-MODEL §1.5, §1.6, §3.4–§3.6, §3.13).

use super::inst::{exec_type, is_mixed_float, SrcTypes};
use super::Sink;
use crate::isa::{div_rem, DstKind, Instruction, MachineConfig, Opcode, Src, SrcKind};
use crate::types::RegType;

/// Byte offset of the destination inside its register.
pub(crate) fn dst_byte_offset(i: &Instruction) -> u64 {
    match i.dst.kind {
        DstKind::Grf { sub, .. } => sub as u64 * i.dst.ty.size() as u64,
        DstKind::Flag { sub, .. } => sub as u64 * i.dst.ty.size() as u64,
        DstKind::Null => 0,
    }
}

fn is_raw_mov(i: &Instruction) -> bool {
    let s0 = &i.srcs[0];
    i.op == Opcode::Mov && !i.sat && !s0.neg && !s0.abs && s0.ty == i.dst.ty
}

/// The span of the destination's elements in bytes, from its first
/// element's first byte to its last element's last.
fn dst_span(i: &Instruction) -> u64 {
    let dsz = i.dst.ty.size() as u64;
    (i.exec_size as u64 - 1) * i.dst.stride as u64 * dsz + dsz
}

/// The `grf-bounds` rule for a GRF destination: its subregister inside
/// its register and its last byte inside the file of `file` bytes.
fn dst_bounds(i: &Instruction, gb: u64, file: u64, s: &mut Sink<'_>) {
    let DstKind::Grf { nr, sub } = i.dst.kind else {
        return;
    };
    let sb = sub as u64 * i.dst.ty.size() as u64;
    if sb >= gb {
        s.err(
            "grf-bounds",
            format_args!("destination subregister {sub} is beyond the register"),
        );
    } else if nr as u64 * gb + sb + dst_span(i) > file {
        s.err("grf-bounds", "destination extends beyond the GRF file");
    }
}

/// Where an Align1 source region's bytes lie from the start of its
/// register (`nr`'s first byte for a GRF): `rows` rows of `span` bytes,
/// each `step` bytes after the one before, the first at `first`.
struct Extent {
    first: u64,
    rows: u64,
    step: u64,
    span: u64,
}

impl Extent {
    /// The extent of `src` at subregister `sub` read by `ex` channels.
    fn of(src: &Src, sub: u32, ex: u64) -> Extent {
        let (v, w, h) = (
            src.region.v as u64,
            src.region.w as u64,
            src.region.h as u64,
        );
        let sz = src.ty.size() as u64;
        let w = w.clamp(1, ex.max(1));
        Extent {
            first: sub as u64 * sz,
            rows: ex.div_ceil(w),
            step: v * sz,
            // A row's elements lie in order (h ≥ 0).
            span: (w - 1) * h * sz + sz,
        }
    }

    /// Where the last row, which ends last (the step is not negative),
    /// ends.
    fn end(&self) -> u64 {
        self.first + (self.rows.max(1) - 1) * self.step + self.span
    }

    /// Whether some row's elements are not all in one register of `gb`
    /// bytes: its last byte is in another register than its first.
    fn crosses(&self, gb: u64) -> bool {
        let g = gb.max(1);
        (0..self.rows).any(|y| {
            let row = self.first + y * self.step;
            div_rem(row + self.span - 1, g).0 != div_rem(row, g).0
        })
    }
}

/// The `grf-bounds` rule for an Align1 GRF source `k` of extent `e`.
fn src_bounds(k: usize, src: &Src, e: &Extent, gb: u64, file: u64, s: &mut Sink<'_>) {
    let SrcKind::Grf { nr, sub } = src.kind else {
        return;
    };
    if e.first >= gb {
        s.err(
            "grf-bounds",
            format_args!("src{k} subregister {sub} is beyond the register"),
        );
    } else if nr as u64 * gb + e.end() > file {
        s.err(
            "grf-bounds",
            format_args!("src{k} extends beyond the GRF file"),
        );
    }
}

pub(crate) fn check(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    let ex = i.exec_size as u64;
    let gb = cfg.grf_bytes as u64;
    let file = cfg.grf_file_bytes();
    // Destination.
    let d = &i.dst;
    let dsz = d.ty.size() as u64;
    if ![1, 2, 4].contains(&d.stride) {
        s.err(
            "region-encoding",
            format_args!("destination stride {} is not 1, 2 or 4", d.stride),
        );
    }
    match d.kind {
        DstKind::Grf { sub, .. } => {
            dst_bounds(i, gb, file, s);
            if sub as u64 * dsz + dst_span(i) > 2 * gb {
                s.err(
                    "operand-span",
                    "a destination cannot span more than 2 adjacent GRFs",
                );
            }
        }
        DstKind::Flag { nr, sub } => {
            let start = nr as u64 * 4 + sub as u64 * dsz;
            if nr > 1 || sub as u64 * dsz >= 4 || start + dst_span(i) > 8 {
                s.err(
                    "flag-bounds",
                    "destination extends beyond the flag registers f0-f1",
                );
            }
        }
        DstKind::Null => {}
    }
    // Sources.
    if i.align16.is_some() {
        super::align16::check_srcs(i, gb, file, s);
    } else {
        for (k, src) in i.srcs.iter().enumerate() {
            check_src(k, src, ex, gb, file, s);
        }
    }
    dst_vs_exec_type(i, s);
}

/// The `grf-bounds` rule alone, for the destination and every source, as
/// [`check`] applies it (on an instruction whose regions break no other
/// rule; on one that does, what this says does not matter).
pub(crate) fn check_bounds(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    let ex = i.exec_size as u64;
    let gb = cfg.grf_bytes as u64;
    let file = cfg.grf_file_bytes();
    dst_bounds(i, gb, file, s);
    for (k, src) in i.srcs.iter().enumerate() {
        let SrcKind::Grf { sub, .. } = src.kind else {
            continue;
        };
        if i.align16.is_some() {
            super::align16::src_bounds(i, k, gb, file, s);
        } else {
            src_bounds(k, src, &Extent::of(src, sub, ex), gb, file, s);
        }
    }
}

fn check_src(k: usize, src: &Src, ex: u64, gb: u64, file: u64, s: &mut Sink<'_>) {
    let (v, w, h) = (
        src.region.v as u64,
        src.region.w as u64,
        src.region.h as u64,
    );
    let sub = match src.kind {
        SrcKind::Grf { sub, .. } => sub,
        SrcKind::Flag { sub, .. } => u32::from(sub),
        SrcKind::Imm(_) | SrcKind::Null => return,
    };
    if ![0, 1, 2, 4, 8, 16, 32].contains(&v)
        || ![1, 2, 4, 8, 16].contains(&w)
        || ![0, 1, 2, 4].contains(&h)
    {
        s.err(
            "region-encoding",
            format_args!("src{k} region <{v};{w},{h}> is not encodable"),
        );
        return;
    }
    if ex < w {
        s.err(
            "region-width-gt-exec",
            format_args!("src{k}: ExecSize must be >= Width"),
        );
    }
    if ex == w && h != 0 && v != w * h {
        s.err(
            "region-vstride",
            format_args!(
                "src{k}: ExecSize = Width and HorzStride != 0 need VertStride = Width*HorzStride"
            ),
        );
    }
    if w == 1 && h != 0 {
        s.err(
            "region-width1-hstride",
            format_args!("src{k}: Width 1 needs HorzStride 0"),
        );
    }
    if ex == 1 && w == 1 && (v != 0 || h != 0) {
        s.err(
            "region-scalar",
            format_args!("src{k}: ExecSize = Width = 1 needs <0;1,0>"),
        );
    }
    if v == 0 && h == 0 && w != 1 {
        s.err(
            "region-zero-strides-width",
            format_args!("src{k}: VertStride = HorzStride = 0 needs Width 1"),
        );
    }
    let e = Extent::of(src, sub, ex);
    match src.kind {
        SrcKind::Grf { .. } => {
            src_bounds(k, src, &e, gb, file, s);
            if e.crosses(gb) {
                s.err(
                    "region-row-crosses-grf",
                    format_args!("src{k}: VertStride must be used to cross GRF boundaries"),
                );
            }
            if e.end() > 2 * gb {
                s.err(
                    "operand-span",
                    format_args!("src{k} cannot span more than 2 adjacent GRFs"),
                );
            }
        }
        SrcKind::Flag { nr, .. } => {
            let base = nr as u64 * 4;
            if base + e.end() > 8 || e.first >= 4 || base > 4 {
                s.err(
                    "flag-bounds",
                    format_args!("src{k} extends beyond the flag registers f0-f1"),
                );
            }
        }
        SrcKind::Imm(_) | SrcKind::Null => {}
    }
}

fn dst_vs_exec_type(i: &Instruction, s: &mut Sink<'_>) {
    let nsrc = i.srcs.len();
    let d = &i.dst;
    let dst_ty = d.ty;
    let src_tys = SrcTypes::of(i, |t| t);
    let src_tys = src_tys.as_slice();
    // Conversions that do not exist (checked at every exec size).
    if i.op != Opcode::Cmp && i.op != Opcode::Cmpn {
        let any = |f: &dyn Fn(RegType) -> bool| src_tys.iter().any(|&t| f(t));
        if (dst_ty.is_byte() && any(&|t| t.is_64bit()))
            || (dst_ty.is_64bit() && any(&|t| t.is_byte()))
        {
            s.err(
                "conversion-byte-64bit",
                "no direct conversion between B/UB and 64-bit types",
            );
        }
        if (dst_ty == RegType::HF && any(&|t| t.is_64bit()))
            || (dst_ty.is_64bit() && any(&|t| t == RegType::HF))
        {
            s.err(
                "conversion-hf-64bit",
                "no direct conversion between HF and 64-bit types",
            );
        }
    }
    if i.exec_size == 1 || nsrc == 3 {
        return;
    }
    let off = dst_byte_offset(i);
    let stride = d.stride as u64;
    let dsz = dst_ty.size() as u64;
    if dst_ty.is_byte() && stride == 1 {
        if !is_raw_mov(i) {
            s.err(
                "packed-byte-dst",
                "only a raw MOV may write a packed byte destination",
            );
        }
        return;
    }
    let mixed = is_mixed_float(i);
    let hf_conv = src_tys
        .iter()
        .any(|&t| t != dst_ty && (t == RegType::HF || dst_ty == RegType::HF));
    if hf_conv && i.op != Opcode::Cmp && i.op != Opcode::Cmpn {
        let int_hf = (dst_ty == RegType::HF && src_tys.iter().any(|t| t.is_int()))
            || (dst_ty.is_int() && src_tys.contains(&RegType::HF));
        if int_hf {
            if stride * dsz != 4 || !off.is_multiple_of(4) {
                s.err(
                    "conversion-int-hf",
                    "integer <-> HF conversions need a dword-strided, dword-aligned destination",
                );
            }
        } else if dst_ty == RegType::HF
            && stride != 2
            && !(mixed && stride == 1 && off.is_multiple_of(16))
        {
            s.err(
                "conversion-f-hf",
                "conversions to HF need destination stride 2 (or mixed-float oword-aligned packed)",
            );
        }
    }
    if mixed {
        if i.exec_size > 8 && dst_ty == RegType::F && i.op != Opcode::Mov {
            s.err(
                "mixed-float",
                "mixed float mode with an F destination is limited to SIMD8",
            );
        }
        if dst_ty == RegType::HF && stride == 1 && (!off.is_multiple_of(16) || i.exec_size > 8) {
            s.err(
                "mixed-float",
                "a packed HF destination in mixed float mode must be oword aligned, SIMD8 at most",
            );
        }
        return;
    }
    let et = exec_type(i).size() as u64;
    if et > dsz {
        if stride * dsz != et {
            s.err(
                "narrow-dst-stride",
                format_args!(
                    "destination stride × size must equal the execution type size ({et} bytes)"
                ),
            );
        }
        let ok = off.is_multiple_of(et) || (dst_ty.is_byte() && off % et == 1);
        if !ok {
            s.err(
                "narrow-dst-align",
                format_args!("destination subregister must be aligned to the execution type size ({et} bytes)"),
            );
        }
    }
}
