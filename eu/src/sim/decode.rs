//! Decode-once form of a program: per-channel byte offsets, expanded
//! immediates, the computation domain and the control-flow tables.

use super::int_lane::IntInst;
use super::num::Dom;
use super::FaultKind;
use crate::cf::CfInfo;
use crate::fp;
use crate::isa::{
    CondMod, DstKind, Instruction, MachineConfig, MathFn, Message, Opcode, Predicate, SrcKind,
};
use crate::types::RegType;
use crate::validate::exec_type;

/// Register file of a decoded operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum File {
    Grf,
    Flag,
    Imm,
    Null,
}

/// A decoded source.
#[derive(Clone, Debug)]
pub(crate) struct DSrc {
    pub(crate) file: File,
    /// Effective type (V → W, UV → UW, VF → F).
    pub(crate) ty: RegType,
    pub(crate) neg: bool,
    pub(crate) abs: bool,
    /// Byte offset per channel (GRF: in the GRF file; flag: in the 8-byte flag file).
    pub(crate) off: [u32; 32],
    /// Immediate bits of channel c at `c % 8` (vector immediates repeat
    /// every 8 channels (V, UV) or 4 (VF); the others are the same for all).
    pub(crate) imm: [u64; 8],
}

/// A decoded destination.
#[derive(Clone, Debug)]
pub(crate) struct DDst {
    pub(crate) file: File,
    pub(crate) ty: RegType,
    pub(crate) off: [u32; 32],
}

/// A decoded instruction.
#[derive(Clone, Debug)]
pub(crate) struct DInst {
    pub(crate) op: Opcode,
    pub(crate) math: Option<MathFn>,
    pub(crate) msg: Option<Message>,
    pub(crate) exec: u32,
    /// Channels the simulator runs at once: a hardware pass
    /// ([`Instruction::pass_width`]), or every channel when no pass can
    /// read what an earlier one wrote ([`independent_passes`]).
    pub(crate) pass_width: u32,
    pub(crate) group: u32,
    pub(crate) we_all: bool,
    pub(crate) eot: bool,
    pub(crate) pred: Option<Predicate>,
    pub(crate) cmod: Option<CondMod>,
    pub(crate) writes_flag: bool,
    /// Bit of the 64-bit flag file for channel 0 of group 0 (32·nr + 16·sub).
    pub(crate) flag_base: u32,
    pub(crate) sat: bool,
    pub(crate) dst: DDst,
    pub(crate) srcs: Vec<DSrc>,
    pub(crate) dom: Dom,
    pub(crate) jip: usize,
    pub(crate) uip: usize,
    /// Channels the destination writemask enables (Align16: those whose
    /// component, c % 4, is in the writemask; Align1: all).
    pub(crate) wmask: u32,
    /// A bad access detected at decode time, raised if executed.
    pub(crate) fault: Option<FaultKind>,
    /// The integer form of an integer instruction ([`IntInst::of`]).
    pub(crate) int: Option<IntInst>,
}

/// A decoded program.
#[derive(Clone, Debug)]
pub(crate) struct Decoded {
    pub(crate) insts: Vec<DInst>,
    /// Loops starting at each index (their WHILE indices, outermost first).
    pub(crate) loop_starts: Vec<Vec<u32>>,
    /// Whether an index is the UIP of some HALT.
    pub(crate) halt_target: Vec<bool>,
    pub(crate) max_depth: usize,
}

pub(crate) fn decode(insts: &[Instruction], cfg: &MachineConfig, cf: &CfInfo) -> Decoded {
    let mut halt_target = vec![false; insts.len() + 1];
    for i in insts {
        if i.op == Opcode::Halt {
            if let Some(u) = i.uip {
                if let Some(t) = halt_target.get_mut(u as usize) {
                    *t = true;
                }
            }
        }
    }
    let mut decoded = Vec::with_capacity(insts.len());
    for i in insts {
        decode_into(&mut decoded, i, cfg);
    }
    Decoded {
        insts: decoded,
        loop_starts: cf.loop_starts.clone(),
        halt_target,
        max_depth: cf.max_depth as usize,
    }
}

/// Decodes one instruction.
#[cfg(test)]
pub(crate) fn decode_inst(i: &Instruction, cfg: &MachineConfig) -> DInst {
    let mut out = Vec::with_capacity(1);
    decode_into(&mut out, i, cfg);
    out.pop().expect("decoded")
}

/// Decodes `i` onto the end of `out` (where it is filled in: a decoded
/// instruction is several hundred bytes, not worth moving).
fn decode_into(out: &mut Vec<DInst>, i: &Instruction, cfg: &MachineConfig) {
    let exec = i.exec_size.clamp(1, 32) as u32;
    let gb = cfg.grf_bytes as u64;
    let file_bytes = cfg.grf_file_bytes();
    let mut fault = None;
    // The bytes `[lo, hi)` each GRF or flag operand spans, by file, as
    // `check` finds them: the sources' (at most three), then the
    // destination's.
    let mut spans: [(File, u64, u64); 4] = [(File::Null, 0, 0); 4];
    // `increasing`: the offsets never decrease (linear regions and every
    // destination), so the first and last bound them.
    let mut check =
        |slot: usize, file: File, start_reg: u64, offs: &[u32], size: u32, increasing: bool| {
            let limit = if file == File::Flag { 8 } else { file_bytes };
            let (Some(&first), Some(&last)) = (offs.first(), offs.last()) else {
                return;
            };
            let (lo, hi) = if increasing {
                (first as u64, last as u64 + size as u64)
            } else {
                offs.iter().fold((u64::MAX, 0u64), |(lo, hi), &o| {
                    (lo.min(o as u64), hi.max(o as u64 + size as u64))
                })
            };
            if let Some(s) = spans.get_mut(slot) {
                *s = (file, lo, hi);
            }
            if hi > limit {
                fault.get_or_insert(FaultKind::GrfOutOfRange { byte: hi - 1 });
            } else if file == File::Grf && (hi - 1) / gb > start_reg + 1 {
                fault.get_or_insert(FaultKind::RegionTooWide);
            }
        };
    let mut srcs = Vec::with_capacity(i.srcs.len());
    for (k, s) in i.srcs.iter().enumerate() {
        // Filled where it lies: a decoded source is 200 bytes.
        srcs.push(DSrc {
            file: File::Null,
            ty: s.ty,
            neg: s.neg,
            abs: s.abs,
            off: [0; 32],
            imm: [0; 8],
        });
        let d = srcs.last_mut().expect("just pushed");
        let sz = s.ty.size() as u64;
        let (v, w, h) = (
            s.region.v as u64,
            s.region.w.max(1) as u64,
            s.region.h as u64,
        );
        // Align16: channel c is component c % 4 of vertex c / 4, which
        // reads its swizzled component of the vertex's row `<v,4,1>`.
        let swizzle = i.swizzle(k);
        // Places the channels; returns whether their offsets increase.
        let mut place = |base: u64, sub: u64| match swizzle {
            Some(swz) => {
                for c in 0..exec as u64 {
                    let k = swz.get(c as usize % 4) as u64;
                    let o = base + sub * sz + (c / 4) * v * sz + k * sz;
                    d.off[c as usize] = o.min(u32::MAX as u64) as u32;
                }
                false
            }
            // Rows that continue each other, or a single row: channel c
            // reads c elements of the horizontal stride on.
            None if v == w * h || exec as u64 <= w => {
                let start = base + sub * sz;
                for c in 0..exec as u64 {
                    d.off[c as usize] = (start + c * h * sz).min(u32::MAX as u64) as u32;
                }
                true
            }
            None => {
                for c in 0..exec as u64 {
                    let (row, col) = crate::isa::Region::row_col(c, w);
                    let o = base + sub * sz + row * v * sz + col * h * sz;
                    d.off[c as usize] = o.min(u32::MAX as u64) as u32;
                }
                false
            }
        };
        match s.kind {
            SrcKind::Grf { nr, sub } => {
                d.file = File::Grf;
                let increasing = place(nr as u64 * gb, sub as u64);
                check(
                    k,
                    File::Grf,
                    nr as u64,
                    &d.off[..exec as usize],
                    s.ty.size(),
                    increasing,
                );
            }
            SrcKind::Flag { nr, sub } => {
                d.file = File::Flag;
                let increasing = place(nr as u64 * 4, sub as u64);
                check(
                    k,
                    File::Flag,
                    0,
                    &d.off[..exec as usize],
                    s.ty.size(),
                    increasing,
                );
            }
            SrcKind::Imm(bits) => {
                d.file = File::Imm;
                for c in 0..8usize {
                    d.imm[c] = match s.ty {
                        RegType::V => {
                            let nib = ((bits >> (4 * (c % 8))) & 0xf) as i8;
                            (((nib << 4) >> 4) as i16 as u16) as u64
                        }
                        RegType::UV => (bits >> (4 * (c % 8))) & 0xf,
                        RegType::VF => {
                            fp::vf_to_f32((bits >> (8 * (c % 4))) as u8).to_bits() as u64
                        }
                        t => bits & t.mask(),
                    };
                }
                d.ty = match s.ty {
                    RegType::V => RegType::W,
                    RegType::UV => RegType::UW,
                    RegType::VF => RegType::F,
                    t => t,
                };
            }
            SrcKind::Null => {}
        }
    }
    let mut dst = DDst {
        file: File::Null,
        ty: i.dst.ty,
        off: [0; 32],
    };
    let dsz = i.dst.ty.size() as u64;
    let stride = i.dst.stride as u64;
    let mut place = |base: u64, sub: u64| {
        for c in 0..exec as u64 {
            dst.off[c as usize] = (base + sub * dsz + c * stride * dsz).min(u32::MAX as u64) as u32;
        }
    };
    match i.dst.kind {
        DstKind::Grf { nr, sub } => {
            place(nr as u64 * gb, sub as u64);
            dst.file = File::Grf;
            check(
                3,
                File::Grf,
                nr as u64,
                &dst.off[..exec as usize],
                i.dst.ty.size(),
                true,
            );
        }
        DstKind::Flag { nr, sub } => {
            place(nr as u64 * 4, sub as u64);
            dst.file = File::Flag;
            check(
                3,
                File::Flag,
                0,
                &dst.off[..exec as usize],
                i.dst.ty.size(),
                true,
            );
        }
        DstKind::Null => {}
    }
    let dom = if i.op.num_srcs() > 0 && !i.srcs.is_empty() {
        Dom::of(exec_type(i))
    } else {
        Dom::Int
    };
    out.push(DInst {
        op: i.op,
        math: i.math,
        msg: i.msg,
        exec,
        pass_width: if independent_passes(&spans) {
            exec
        } else {
            u32::from(i.pass_width().max(1))
        },
        group: i.group as u32,
        we_all: i.we_all,
        eot: i.eot,
        pred: i.pred,
        cmod: i.cmod,
        writes_flag: i.writes_flag(),
        flag_base: 32 * i.flag.nr as u32 + 16 * i.flag.sub as u32,
        sat: i.sat,
        dst,
        srcs,
        dom,
        jip: i.jip.unwrap_or(0) as usize,
        uip: i.uip.unwrap_or(0) as usize,
        wmask: i.writemask_channels().unwrap_or(u32::MAX),
        fault,
        int: None,
    });
    let d = out.last_mut().expect("just pushed");
    d.int = IntInst::of(d);
}

/// Whether the passes of an instruction are independent, given the
/// bytes its sources and its destination span (`spans`: the sources',
/// then the destination's): no byte the destination writes is one a
/// source reads (GRF bytes, or flag bytes when both are flags). Then
/// running the channels pass by pass, each pass reading before it writes,
/// computes what running them all at once does: no read can see a write
/// of the same instruction either way, and the channels still run in
/// order.
fn independent_passes(spans: &[(File, u64, u64); 4]) -> bool {
    let (file, dlo, dhi) = spans[3];
    file == File::Null
        || spans[..3]
            .iter()
            .all(|&(f, lo, hi)| f != file || hi <= dlo || dhi <= lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Dst, Region, Src};

    /// An instruction runs its channels at once unless its destination
    /// writes a byte a source reads; then in hardware passes of eight
    /// channels (four with a 64-bit operand).
    #[test]
    fn passes_merge_only_when_no_source_byte_is_written() {
        let width = |text: &str| {
            let i = crate::asm::parse_program(text).unwrap().insts.remove(0);
            decode_inst(&i, &MachineConfig::GFX11).pass_width
        };
        // The destination g4..g5 against sources elsewhere, scalar on
        // g4.0, on g5 (the second half's first row), and just past it.
        assert_eq!(width("add(16) g4<1>UD g6<8,8,1>UD 0x00000001UD"), 16);
        assert_eq!(width("add(16) g4<1>UD g4<0,1,0>UD 0x00000001UD"), 8);
        assert_eq!(width("add(16) g4<1>UD g5<8,8,1>UD 0x00000001UD"), 8);
        // g2..g3 ends where the destination starts; g3..g4 does not.
        assert_eq!(width("add(16) g4<1>UD g2<8,8,1>UD g6<0,1,0>UD"), 16);
        assert_eq!(width("add(16) g4<1>UD g3<8,8,1>UD g6<0,1,0>UD"), 8);
        assert_eq!(width("add(16) g4<1>UD g3.7<0,1,0>UD g6<0,1,0>UD"), 16);
        // 64-bit: passes of four.
        assert_eq!(width("add(8) g4<1>Q g8<4,4,1>Q g12<4,4,1>Q"), 8);
        assert_eq!(width("add(8) g4<1>Q g5<4,4,1>Q g12<4,4,1>Q"), 4);
        // No destination to overlap.
        assert_eq!(width("cmp.l.f0.0(16) null<1>D g4<8,8,1>D g6<8,8,1>D"), 16);
    }

    /// The bytes an operand spans, from its first and last channel when
    /// the offsets increase (linear regions, destinations) or from all of
    /// them: past the register file, or over more than two registers,
    /// the instruction faults when run.
    #[test]
    fn operands_past_the_file_or_two_registers_fault() {
        let fault = |text: &str| {
            let i = crate::asm::parse_program(text).unwrap().insts.remove(0);
            decode_inst(&i, &MachineConfig::GFX11).fault
        };
        let file = MachineConfig::GFX11.grf_file_bytes();
        // Linear: g127 and the 32 bytes after it; rows <16;8,2> of UD
        // reach from g10 into g13.
        assert_eq!(
            fault("mov(16) g2<1>UD g127<8,8,1>UD"),
            Some(FaultKind::GrfOutOfRange { byte: file + 31 })
        );
        assert_eq!(
            fault("mov(16) g2<1>UD g10<16,8,2>UD"),
            Some(FaultKind::RegionTooWide)
        );
        assert_eq!(fault("mov(16) g2<1>UD g10<8,8,1>UD"), None);
        // Not linear: rows of four a register apart (<8;4,1> of UD), the
        // last channel the highest byte; the destination past the file.
        assert_eq!(
            fault("mov(16) g2<1>UD g10<8,4,1>UD"),
            Some(FaultKind::RegionTooWide)
        );
        assert_eq!(fault("mov(8) g2<1>UD g10<8,4,1>UD"), None);
        assert_eq!(
            fault("mov(16) g127<1>UD g10<8,8,1>UD"),
            Some(FaultKind::GrfOutOfRange { byte: file + 31 })
        );
    }

    /// Every Align1 source region, width and type decodes to the offsets
    /// of channel c at row c / w, column c % w (the linear shortcut for
    /// rows that continue each other included).
    #[test]
    fn source_offsets_are_row_and_column_of_each_channel() {
        let cfg = MachineConfig::GFX11;
        let mut linear = 0;
        for exec in [1u8, 2, 4, 8, 16, 32] {
            for ty in [RegType::UB, RegType::UW, RegType::UD, RegType::UQ] {
                for v in [0u8, 1, 2, 4, 8, 16, 32] {
                    for w in [1u8, 2, 4, 8, 16] {
                        for h in [0u8, 1, 2, 4] {
                            let src = Src::grf(20, 1, ty, Region::new(v, w, h));
                            let i =
                                Instruction::alu(Opcode::Mov, exec, Dst::grf(2, 0, ty, 1), &[src]);
                            let d = decode_inst(&i, &cfg);
                            let sz = ty.size() as u64;
                            let want: Vec<u32> = (0..exec as u64)
                                .map(|c| {
                                    let (row, col) = (c / w as u64, c % w as u64);
                                    (20 * 32 + sz + (row * v as u64 + col * h as u64) * sz) as u32
                                })
                                .collect();
                            assert_eq!(
                                &d.srcs[0].off[..exec as usize],
                                &want[..],
                                "<{v};{w},{h}> {ty:?} exec {exec}"
                            );
                            linear += usize::from(v == w * h || exec <= w);
                        }
                    }
                }
            }
        }
        // Both ways of placing the channels are taken.
        let shapes = 6 * 4 * 7 * 5 * 4;
        assert!(
            linear > shapes / 4 && linear < shapes,
            "{linear} of {shapes}"
        );
    }
}
