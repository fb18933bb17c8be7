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
            format!("destination stride {} is not 1, 2 or 4", d.stride),
        );
    }
    let dspan = (ex - 1) * d.stride as u64 * dsz + dsz;
    match d.kind {
        DstKind::Grf { nr, sub } => {
            let sb = sub as u64 * dsz;
            if sb >= gb {
                s.err(
                    "grf-bounds",
                    format!("destination subregister {sub} is beyond the register"),
                );
            } else if nr as u64 * gb + sb + dspan > file {
                s.err("grf-bounds", "destination extends beyond the GRF file");
            }
            if sb + dspan > 2 * gb {
                s.err(
                    "operand-span",
                    "a destination cannot span more than 2 adjacent GRFs",
                );
            }
        }
        DstKind::Flag { nr, sub } => {
            let start = nr as u64 * 4 + sub as u64 * dsz;
            if nr > 1 || sub as u64 * dsz >= 4 || start + dspan > 8 {
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

fn check_src(k: usize, src: &Src, ex: u64, gb: u64, file: u64, s: &mut Sink<'_>) {
    let (v, w, h) = (
        src.region.v as u64,
        src.region.w as u64,
        src.region.h as u64,
    );
    let sz = src.ty.size() as u64;
    let (base, sub_bytes) = match src.kind {
        SrcKind::Grf { nr, sub } => (nr as u64 * gb, sub as u64 * sz),
        SrcKind::Flag { nr, sub } => (nr as u64 * 4, sub as u64 * sz),
        SrcKind::Imm(_) | SrcKind::Null => return,
    };
    if ![0, 1, 2, 4, 8, 16, 32].contains(&v)
        || ![1, 2, 4, 8, 16].contains(&w)
        || ![0, 1, 2, 4].contains(&h)
    {
        s.err(
            "region-encoding",
            format!("src{k} region <{v};{w},{h}> is not encodable"),
        );
        return;
    }
    if ex < w {
        s.err(
            "region-width-gt-exec",
            format!("src{k}: ExecSize must be >= Width"),
        );
    }
    if ex == w && h != 0 && v != w * h {
        s.err(
            "region-vstride",
            format!(
                "src{k}: ExecSize = Width and HorzStride != 0 need VertStride = Width*HorzStride"
            ),
        );
    }
    if w == 1 && h != 0 {
        s.err(
            "region-width1-hstride",
            format!("src{k}: Width 1 needs HorzStride 0"),
        );
    }
    if ex == 1 && w == 1 && (v != 0 || h != 0) {
        s.err(
            "region-scalar",
            format!("src{k}: ExecSize = Width = 1 needs <0;1,0>"),
        );
    }
    if v == 0 && h == 0 && w != 1 {
        s.err(
            "region-zero-strides-width",
            format!("src{k}: VertStride = HorzStride = 0 needs Width 1"),
        );
    }
    let w = w.clamp(1, ex);
    let rows = ex.div_ceil(w);
    // A row's elements lie in order (h ≥ 0): it stays in one register
    // when its last byte is in its first byte's.
    let mut last = 0;
    let mut crosses = false;
    for y in 0..rows {
        let first = sub_bytes + y * v * sz;
        let end = first + (w - 1) * h * sz + sz;
        last = last.max(end);
        let g = gb.max(1);
        crosses |= div_rem(end - 1, g).0 != div_rem(first, g).0;
    }
    match src.kind {
        SrcKind::Grf { sub, .. } => {
            if sub_bytes >= gb {
                s.err(
                    "grf-bounds",
                    format!("src{k} subregister {sub} is beyond the register"),
                );
            } else if base + last > file {
                s.err("grf-bounds", format!("src{k} extends beyond the GRF file"));
            }
            if crosses {
                s.err(
                    "region-row-crosses-grf",
                    format!("src{k}: VertStride must be used to cross GRF boundaries"),
                );
            }
            if last > 2 * gb {
                s.err(
                    "operand-span",
                    format!("src{k} cannot span more than 2 adjacent GRFs"),
                );
            }
        }
        _ => {
            if base + last > 8 || sub_bytes >= 4 || base > 4 {
                s.err(
                    "flag-bounds",
                    format!("src{k} extends beyond the flag registers f0-f1"),
                );
            }
        }
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
                format!(
                    "destination stride × size must equal the execution type size ({et} bytes)"
                ),
            );
        }
        let ok = off.is_multiple_of(et) || (dst_ty.is_byte() && off % et == 1);
        if !ok {
            s.err(
                "narrow-dst-align",
                format!("destination subregister must be aligned to the execution type size ({et} bytes)"),
            );
        }
    }
}
