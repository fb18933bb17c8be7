//! Thread execution: register file, channel masks, control flow, messages.

use super::decode::{DInst, DSrc, Decoded, File};
use super::lane::any_lane;
use super::num::SplitMix;
use super::{Dispatch, FaultKind, SimConfig, Stored};
use crate::abi;
use crate::isa::{Message, Opcode, PredMode, ALL_OPCODES};
use crate::opcode::OpcodeClass;

/// Why a thread stopped early.
pub(crate) enum Stop {
    Fault(usize, FaultKind),
    Timeout,
}

#[derive(Clone, Copy, Debug)]
struct IfFrame {
    entry: u32,
    else_mask: u32,
    loop_depth: usize,
}

#[derive(Clone, Copy, Debug)]
struct LoopFrame {
    entry: u32,
    brk: u32,
    cont: u32,
}

pub(crate) struct Machine<'a> {
    dec: &'a Decoded,
    disp: &'a Dispatch,
    cfg: &'a SimConfig,
    input: Vec<u8>,
    pub(crate) outputs: Vec<Vec<Option<Stored>>>,
    grf: Vec<u8>,
    /// The thread's scratch space, grown on first touch with garbage from
    /// `scratch_rng` (a fill of bytes never spilled reads garbage).
    scratch: Vec<u8>,
    scratch_rng: SplitMix,
    flags: u64,
    exec: u32,
    halted: u32,
    halt_to: [usize; 32],
    ifs: Vec<IfFrame>,
    loops: Vec<LoopFrame>,
    rng: SplitMix,
    /// An ALU pass's source bits, per source and channel.
    raw: [[u64; 32]; 3],
    /// The sources of `raw` that may hold anything but zeros (the ones
    /// before it): an instruction with fewer sources empties only those.
    raw_used: usize,
    /// An ALU pass's results, per channel (only the pass's channels are
    /// written and read).
    out: [u64; 32],
    simd: u32,
    op_index: Vec<usize>,
    pub(crate) issued: u64,
    pub(crate) per_opcode: [u64; ALL_OPCODES.len()],
    pub(crate) channel_instructions: u64,
}

/// The largest per-thread scratch space Gfx9–11 can give a thread (the
/// `Per Thread Scratch Space` field's maximum).
const SCRATCH_BYTES_PER_THREAD: u64 = 2 << 20;

fn ones(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Calls `f` on each channel of the mask `chans`, lowest first.
#[inline(always)]
pub(crate) fn channels(chans: u32, mut f: impl FnMut(usize)) {
    let mut m = chans;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        f(c);
    }
}

#[inline(always)]
fn read_le(buf: &[u8], off: usize, size: u32) -> u64 {
    match size {
        1 => buf[off] as u64,
        2 => u16::from_le_bytes([buf[off], buf[off + 1]]) as u64,
        4 => {
            let b: [u8; 4] = buf[off..off + 4].try_into().unwrap_or([0; 4]);
            u32::from_le_bytes(b) as u64
        }
        _ => {
            let b: [u8; 8] = buf[off..off + 8].try_into().unwrap_or([0; 8]);
            u64::from_le_bytes(b)
        }
    }
}

#[inline(always)]
fn write_le(buf: &mut [u8], off: usize, size: u32, v: u64) {
    match size {
        1 => buf[off] = v as u8,
        2 => buf[off..off + 2].copy_from_slice(&(v as u16).to_le_bytes()),
        4 => buf[off..off + 4].copy_from_slice(&(v as u32).to_le_bytes()),
        _ => buf[off..off + 8].copy_from_slice(&v.to_le_bytes()),
    }
}

/// The channels of `pass` of any other instruction, one by one
/// ([`any_lane`]); returns their flag bits.
#[inline(never)]
fn any_pass(
    d: &DInst,
    raw: &[[u64; 32]; 3],
    pass: u32,
    pm: u32,
    rng: &mut SplitMix,
    out: &mut [u64; 32],
) -> u32 {
    let mut fl = 0;
    channels(pass, |c| {
        let r = any_lane(d, [raw[0][c], raw[1][c], raw[2][c]], pm >> c & 1 == 1, rng);
        out[c] = r.bits;
        fl |= u32::from(r.flag) << c;
    });
    fl
}

/// A thread's garbage: its register file's and flags' undefined bits at
/// dispatch, and where its undefined-value stream goes on from.
struct Garbage {
    seed: u64,
    grf: Vec<u8>,
    flags: u64,
    /// The stream's state after drawing them.
    rng_after: u64,
}

thread_local! {
    /// The garbage of the last threads dispatched on this thread: every
    /// simulation of a campaign draws the same for its thread `t` (the
    /// seed is the campaign's), and copying it back is cheaper than
    /// drawing 4 KB again.
    static GARBAGE: std::cell::RefCell<Vec<std::rc::Rc<Garbage>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The most threads' garbage [`GARBAGE`] keeps (at 4 KB each).
const GARBAGE_KEPT: usize = 16;

impl Garbage {
    /// The garbage of stream `seed` for a register file of `bytes`.
    fn of(seed: u64, bytes: usize) -> std::rc::Rc<Garbage> {
        GARBAGE.with(|kept| {
            let mut kept = kept.borrow_mut();
            if let Some(g) = kept.iter().find(|g| g.seed == seed && g.grf.len() == bytes) {
                return g.clone();
            }
            let g = std::rc::Rc::new(Garbage::draw(seed, bytes));
            if kept.len() == GARBAGE_KEPT {
                kept.clear();
            }
            kept.push(g.clone());
            g
        })
    }

    /// Draws it: whole words, then a short tail (the same bytes as copying
    /// each word's first bytes), then the flags.
    fn draw(seed: u64, bytes: usize) -> Garbage {
        let mut rng = SplitMix(seed);
        let mut grf = vec![0u8; bytes];
        let mut words = grf.chunks_exact_mut(8);
        for chunk in &mut words {
            let g: &mut [u8; 8] = chunk.try_into().expect("8 bytes");
            *g = rng.next().to_le_bytes();
        }
        let tail = words.into_remainder();
        if !tail.is_empty() {
            let g = rng.next().to_le_bytes();
            tail.copy_from_slice(&g[..tail.len()]);
        }
        let flags = rng.next();
        Garbage {
            seed,
            grf,
            flags,
            rng_after: rng.0,
        }
    }
}

impl<'a> Machine<'a> {
    pub(crate) fn new(
        dec: &'a Decoded,
        disp: &'a Dispatch,
        cfg: &'a SimConfig,
        input: Vec<u8>,
    ) -> Self {
        Machine {
            dec,
            disp,
            cfg,
            input,
            outputs: vec![vec![None; disp.output_slots as usize]; disp.invocations as usize],
            grf: vec![0; cfg.machine.grf_file_bytes() as usize],
            scratch: Vec::new(),
            scratch_rng: SplitMix(0),
            flags: 0,
            exec: 0,
            halted: 0,
            halt_to: [0; 32],
            ifs: Vec::with_capacity(dec.max_depth + 1),
            loops: Vec::with_capacity(dec.max_depth + 1),
            rng: SplitMix(0),
            raw: [[0; 32]; 3],
            raw_used: 0,
            out: [0; 32],
            simd: abi::channels(disp.simd),
            op_index: dec.insts.iter().map(|d| d.op.index()).collect(),
            issued: 0,
            per_opcode: [0; ALL_OPCODES.len()],
            channel_instructions: 0,
        }
    }

    #[inline(never)]
    fn init_thread(&mut self, t: u32) {
        let gb = self.cfg.machine.grf_bytes as usize;
        let seed = self.cfg.garbage_seed ^ (t as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03);
        let garbage = Garbage::of(seed, self.grf.len());
        self.grf.copy_from_slice(&garbage.grf);
        self.flags = garbage.flags;
        self.rng = SplitMix(garbage.rng_after);
        self.scratch.clear();
        // Its own stream: programs without scratch see the garbage they saw
        // before scratch was modelled.
        self.scratch_rng = SplitMix(
            self.cfg.garbage_seed
                ^ 0x5c7a_7c40_0000_0000
                ^ (t as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let d = self.disp;
        let w = d.simd;
        let channels = abi::channels(w);
        let first = abi::invocation_of_channel(t, 0, w);
        let dmask = (0..channels)
            .filter(|&c| abi::invocation_of_channel(t, c, w) < d.invocations)
            .fold(0u32, |m, c| m | 1 << c);
        let nuni = d.uniforms.len() as u32;
        let end = abi::payload_grfs(w, nuni, gb as u32) as usize * gb;
        self.grf[..end].fill(0);
        let header = [
            t,
            d.invocations,
            w,
            dmask,
            first,
            d.input_slots,
            d.output_slots,
            0,
        ];
        for (k, v) in header.iter().enumerate() {
            write_le(&mut self.grf, 4 * k, 4, *v as u64);
        }
        for c in 0..channels {
            write_le(
                &mut self.grf,
                abi::IDS_GRF as usize * gb + 4 * c as usize,
                4,
                abi::invocation_of_channel(t, c, w) as u64,
            );
        }
        let ub = abi::uniform_grf(w, gb as u32) as usize * gb;
        for (k, v) in d.uniforms.iter().enumerate() {
            write_le(&mut self.grf, ub + 8 * k, 8, *v);
        }
        self.exec = dmask;
        self.halted = 0;
        self.ifs.clear();
        self.loops.clear();
    }

    pub(crate) fn run_thread(&mut self, t: u32) -> Result<(), Stop> {
        self.init_thread(t);
        let dec = self.dec;
        let n = dec.insts.len();
        let mut ip = 0usize;
        let mut back_from: Option<usize> = None;
        loop {
            if ip >= n {
                return Err(Stop::Fault(n.saturating_sub(1), FaultKind::FellOffEnd));
            }
            if dec.halt_target[ip] && self.halted != 0 {
                let mut back = 0;
                for l in 0..32 {
                    if self.halted >> l & 1 == 1 && self.halt_to[l] == ip {
                        back |= 1 << l;
                    }
                }
                self.halted &= !back;
                self.exec |= back;
            }
            for &w in &dec.loop_starts[ip] {
                if back_from.is_none_or(|b| (w as usize) < b) {
                    self.loops.push(LoopFrame {
                        entry: self.exec,
                        brk: 0,
                        cont: 0,
                    });
                }
            }
            back_from = None;
            if self.issued >= self.cfg.step_budget {
                return Err(Stop::Timeout);
            }
            self.issued += 1;
            self.per_opcode[self.op_index[ip]] += 1;
            let d = &dec.insts[ip];
            if let Some(f) = &d.fault {
                return Err(Stop::Fault(ip, f.clone()));
            }
            if d.op.is_cf() {
                if d.exec != self.simd || d.group != 0 {
                    return Err(Stop::Fault(
                        ip,
                        FaultKind::CfWidth {
                            exec_size: d.exec,
                            simd: self.simd,
                        },
                    ));
                }
                self.channel_instructions += self.exec.count_ones() as u64;
                let (next, back) = self.control(d, ip);
                ip = next;
                back_from = back;
                continue;
            }
            match d.op.info().class {
                OpcodeClass::Send => {
                    self.send(d).map_err(|k| Stop::Fault(ip, k))?;
                    if d.eot {
                        return Ok(());
                    }
                }
                OpcodeClass::Nop => {}
                OpcodeClass::Alu => self.alu(d),
                OpcodeClass::ControlFlow => unreachable!("control flow is handled above"),
            }
            ip += 1;
        }
    }

    // Inlined into the per-instruction loop, as it was before the
    // replicate predicates made it longer.
    #[inline(always)]
    fn pred_mask(&self, d: &DInst) -> u32 {
        let all = ones(d.exec);
        let Some(p) = d.pred else {
            return all;
        };
        let m = match p.mode {
            PredMode::Normal => ((self.flags >> (d.flag_base + d.group)) as u32) & all,
            PredMode::Any(n) | PredMode::All(n) => {
                let n = n as u32;
                let gm = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
                let mut m = 0u32;
                for c in 0..d.exec {
                    let start = d.flag_base + (d.group + c) / n * n;
                    let bits = (self.flags >> start) & gm;
                    let v = if matches!(p.mode, PredMode::Any(_)) {
                        bits != 0
                    } else {
                        bits == gm
                    };
                    if v {
                        m |= 1 << c;
                    }
                }
                m
            }
            PredMode::Replicate(k) => {
                let mut m = 0u32;
                for c in 0..d.exec {
                    let bit = d.flag_base + d.group + c / 4 * 4 + k as u32;
                    if (self.flags >> bit) & 1 == 1 {
                        m |= 1 << c;
                    }
                }
                m
            }
        };
        if p.inverse {
            !m & all
        } else {
            m
        }
    }

    /// Channel enables from dispatch and control flow (or NoMask).
    fn channel_enables(&self, d: &DInst) -> u32 {
        let all = ones(d.exec);
        if d.we_all {
            all
        } else {
            (self.exec >> d.group) & all
        }
    }

    /// The raw bits of source `s` in the channels of `chans`, into `raw`
    /// (the register file, size and vector-immediate period decided once
    /// per source, not per channel). Not inlined, nor are the channel
    /// loops below and [`Machine::write_dst`]: each is a small loop of its
    /// own, and inlined into one function they ran 2% more instructions.
    #[inline(never)]
    fn gather(grf: &[u8], flags: u64, s: &DSrc, chans: u32, raw: &mut [u64; 32]) {
        match s.file {
            File::Grf => match s.ty.size() {
                1 => channels(chans, |c| raw[c] = grf[s.off[c] as usize] as u64),
                2 => channels(chans, |c| raw[c] = read_le(grf, s.off[c] as usize, 2)),
                4 => channels(chans, |c| raw[c] = read_le(grf, s.off[c] as usize, 4)),
                _ => channels(chans, |c| raw[c] = read_le(grf, s.off[c] as usize, 8)),
            },
            File::Flag => {
                let bytes = flags.to_le_bytes();
                let size = s.ty.size();
                channels(chans, |c| raw[c] = read_le(&bytes, s.off[c] as usize, size));
            }
            File::Imm => channels(chans, |c| raw[c] = s.imm[c % 8]),
            File::Null => channels(chans, |c| raw[c] = 0),
        }
    }

    fn alu(&mut self, d: &DInst) {
        let ce = self.channel_enables(d);
        let pm = self.pred_mask(d);
        let sel_pred = d.op == Opcode::Sel && d.pred.is_some();
        let en = if sel_pred { ce } else { ce & pm };
        self.channel_instructions += en.count_ones() as u64;
        let mut fl = 0u32;
        // Pass by pass, as the hardware decodes a compressed instruction:
        // a later pass reads what an earlier one wrote. Within a pass every
        // channel reads before any writes.
        let pw = d.pass_width;
        // Sources an instruction does not have read as 0 (the room of the
        // ones it has is written before it is read).
        let nsrc = d.srcs.len().min(3);
        if self.raw_used > nsrc {
            for r in &mut self.raw[nsrc..self.raw_used] {
                *r = [0; 32];
            }
        }
        self.raw_used = nsrc;
        let mut first = 0;
        while first < d.exec {
            let pass = en & (ones(pw) << first);
            for (k, s) in d.srcs.iter().enumerate().take(3) {
                Self::gather(&self.grf, self.flags, s, pass, &mut self.raw[k]);
            }
            let rng = &mut self.rng;
            let raw = &self.raw;
            let out = &mut self.out;
            // The integer form or the general one, chosen once per pass.
            fl |= match &d.int {
                Some(k) => k.run_pass(d, raw, pass, pm, rng, out),
                None => any_pass(d, raw, pass, pm, rng, out),
            };
            // Align16: the writemask limits what is written, the flag bits
            // included (Mesa's vec4 liveness counts a flag component as
            // written only under the writemask).
            self.write_dst(d, pass & d.wmask);
            first += pw;
        }
        if d.writes_flag {
            let sh = d.flag_base + d.group;
            let en = en & d.wmask;
            let mask = (en as u64) << sh;
            self.flags = (self.flags & !mask) | (((fl & en) as u64) << sh);
        }
    }

    /// Writes the destination of the channels in `chans`.
    #[inline(never)]
    fn write_dst(&mut self, d: &DInst, chans: u32) {
        let out = &self.out;
        let size = d.dst.ty.size();
        let off = &d.dst.off;
        match d.dst.file {
            File::Grf => {
                let g = &mut self.grf[..];
                match size {
                    1 => channels(chans, |c| g[off[c] as usize] = out[c] as u8),
                    2 => channels(chans, |c| write_le(g, off[c] as usize, 2, out[c])),
                    4 => channels(chans, |c| write_le(g, off[c] as usize, 4, out[c])),
                    _ => channels(chans, |c| write_le(g, off[c] as usize, 8, out[c])),
                }
            }
            File::Flag => {
                let mut bytes = self.flags.to_le_bytes();
                channels(chans, |c| {
                    write_le(&mut bytes, off[c] as usize, size, out[c])
                });
                self.flags = u64::from_le_bytes(bytes);
            }
            _ => {}
        }
    }

    fn send(&mut self, d: &DInst) -> Result<(), FaultKind> {
        let en = self.channel_enables(d) & self.pred_mask(d);
        self.channel_instructions += en.count_ones() as u64;
        let gb = self.cfg.machine.grf_bytes as usize;
        let mut vals = [0u64; 32];
        match d.msg {
            Some(Message::Load { size, dst, addr }) => {
                let s = size.bytes();
                let mut m = en;
                while m != 0 {
                    let c = m.trailing_zeros();
                    m &= m - 1;
                    let a = read_le(&self.grf, addr as usize * gb + 4 * c as usize, 4) as u32;
                    if !a.is_multiple_of(s) {
                        return Err(FaultKind::Misaligned {
                            channel: c,
                            address: a,
                            size: s,
                        });
                    }
                    if a as u64 + s as u64 > self.input.len() as u64 {
                        return Err(FaultKind::OutOfSurface {
                            channel: c,
                            address: a,
                            size: s,
                            surface_bytes: self.input.len() as u64,
                        });
                    }
                    vals[c as usize] = read_le(&self.input, a as usize, s);
                }
                let pb = size.payload_bytes();
                let mut m = en;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    write_le(
                        &mut self.grf,
                        dst as usize * gb + c * pb as usize,
                        pb,
                        vals[c],
                    );
                }
            }
            Some(Message::Store { size, addr, data }) => {
                let s = size.bytes();
                let pb = size.payload_bytes() as usize;
                let rec = 8 * self.disp.output_slots as u64;
                let surface = rec * self.disp.invocations as u64;
                let mut m = en;
                while m != 0 {
                    let c = m.trailing_zeros();
                    m &= m - 1;
                    let a = read_le(&self.grf, addr as usize * gb + 4 * c as usize, 4) as u32;
                    if !a.is_multiple_of(8) {
                        return Err(FaultKind::Misaligned {
                            channel: c,
                            address: a,
                            size: s,
                        });
                    }
                    if a as u64 + 8 > surface {
                        return Err(FaultKind::OutOfSurface {
                            channel: c,
                            address: a,
                            size: s,
                            surface_bytes: surface,
                        });
                    }
                    let v = read_le(&self.grf, data as usize * gb + c as usize * pb, s);
                    let inv = (a as u64 / rec) as usize;
                    let slot = ((a as u64 % rec) / 8) as usize;
                    self.outputs[inv][slot] = Some(Stored {
                        bits: v,
                        size: s as u8,
                    });
                }
            }
            Some(Message::ScratchRead { dst, header }) => {
                let at = self.scratch_block(header, d.exec)?;
                let mut m = en;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let v = read_le(&self.scratch, at + 4 * c, 4);
                    write_le(&mut self.grf, dst as usize * gb + 4 * c, 4, v);
                }
            }
            Some(Message::ScratchWrite { header, data }) => {
                let at = self.scratch_block(header, d.exec)?;
                let mut m = en;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let v = read_le(&self.grf, data as usize * gb + 4 * c, 4);
                    write_le(&mut self.scratch, at + 4 * c, 4, v);
                }
            }
            Some(Message::End { .. }) | None => {}
        }
        Ok(())
    }

    /// The byte offset of a scratch block of `exec` dwords whose oword
    /// offset is dword 2 of the `header` GRF; the scratch space grows to
    /// hold it.
    fn scratch_block(&mut self, header: u32, exec: u32) -> Result<usize, FaultKind> {
        let gb = self.cfg.machine.grf_bytes as usize;
        let offset = read_le(&self.grf, header as usize * gb + 8, 4) * 16;
        let bytes = 4 * exec;
        let end = offset + bytes as u64;
        if end > SCRATCH_BYTES_PER_THREAD {
            return Err(FaultKind::OutOfScratch { offset, bytes });
        }
        while self.scratch.len() < end as usize {
            let g = self.scratch_rng.next().to_le_bytes();
            self.scratch.extend_from_slice(&g);
        }
        Ok(offset as usize)
    }

    /// Execute a control-flow instruction; returns the next IP and, for a
    /// WHILE jumping back, the WHILE's index.
    fn control(&mut self, d: &DInst, ip: usize) -> (usize, Option<usize>) {
        let pm = self.pred_mask(d);
        let innermost_loop = self.loops.len().checked_sub(1);
        match d.op {
            Opcode::If => {
                let entry = self.exec;
                self.ifs.push(IfFrame {
                    entry,
                    else_mask: entry & !pm,
                    loop_depth: self.loops.len(),
                });
                self.exec = entry & pm;
                if self.exec == 0 {
                    if d.jip != d.uip {
                        // Skipping the ELSE: the else channels start there.
                        self.exec = entry & !pm;
                    }
                    return (d.jip, None);
                }
            }
            Opcode::Else => {
                if let Some(f) = self.ifs.last() {
                    self.exec = f.else_mask & !self.halted;
                }
                if self.exec == 0 {
                    return (d.jip, None);
                }
            }
            Opcode::Endif => {
                if let Some(f) = self.ifs.pop() {
                    let mut m = f.entry & !self.halted;
                    if f.loop_depth > 0 {
                        if let Some(l) = self.loops.get(f.loop_depth - 1) {
                            m &= !(l.brk | l.cont);
                        }
                    }
                    self.exec = m;
                }
                if self.exec == 0 {
                    return (d.jip, None);
                }
            }
            Opcode::While => {
                if let Some(l) = innermost_loop.and_then(|k| self.loops.get_mut(k)) {
                    let enabled = (self.exec | l.cont) & !self.halted;
                    let loopers = enabled & pm;
                    if loopers != 0 {
                        l.brk |= enabled & !loopers;
                        l.cont = 0;
                        self.exec = loopers;
                        return (d.jip, Some(ip));
                    }
                    self.exec = l.entry & !self.halted;
                    self.loops.pop();
                }
            }
            Opcode::Break | Opcode::Cont => {
                let hit = self.exec & pm;
                if let Some(l) = innermost_loop.and_then(|k| self.loops.get_mut(k)) {
                    if d.op == Opcode::Break {
                        l.brk |= hit;
                    } else {
                        l.cont |= hit;
                    }
                }
                self.exec &= !hit;
                if self.exec == 0 {
                    return (d.jip, None);
                }
            }
            Opcode::Halt => {
                let hit = self.exec & pm;
                self.halted |= hit;
                for l in 0..32 {
                    if hit >> l & 1 == 1 {
                        self.halt_to[l] = d.uip;
                    }
                }
                self.exec &= !hit;
                if self.exec == 0 {
                    return (d.jip, None);
                }
            }
            _ => {}
        }
        (ip + 1, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread's garbage is drawn once per seed and size and handed out
    /// again; what is handed out is what drawing gives: each word of the
    /// stream in turn (a short tail from the next one), then the flags,
    /// and the stream goes on after them.
    #[test]
    fn garbage_is_the_stream_s_words_then_the_flags_drawn_once() {
        for bytes in [4096usize, 4100, 4] {
            let g = Garbage::of(77, bytes);
            let mut rng = SplitMix(77);
            let mut want = Vec::new();
            while want.len() < bytes {
                want.extend_from_slice(&rng.next().to_le_bytes());
            }
            want.truncate(bytes);
            assert_eq!(g.grf, want);
            assert_eq!(g.flags, rng.next());
            assert_eq!(SplitMix(g.rng_after).next(), rng.next());
            assert!(std::rc::Rc::ptr_eq(&g, &Garbage::of(77, bytes)));
        }
        // Another seed, and more seeds than are kept: each its own again.
        assert_ne!(Garbage::of(78, 4096).grf, Garbage::of(77, 4096).grf);
        for seed in 0..2 * GARBAGE_KEPT as u64 {
            assert_eq!(Garbage::of(seed, 64).grf, Garbage::draw(seed, 64).grf);
        }
    }
}
