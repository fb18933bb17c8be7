//! Arbitrary valid EU programs with their dispatches, for the `eu_sim`
//! target.
//!
//! The shape is valid by construction: a prelude computing each channel's
//! input and output slot addresses, structured IF/ELSE/ENDIF blocks, loops
//! with a counter (and, now and then, without one), BREAK/CONT, HALT to the
//! epilogue, loads and stores through those addresses, spills and fills
//! of scratch (the header in g108, dword 2), and an epilogue that
//! stores data registers and ends the thread. The ALU instructions in
//! between are drawn freely (opcode, types, regions, modifiers, predicate,
//! conditional modifier, NoMask, channel group) with a bias towards legal
//! forms; the validator then has the last word, and every ALU instruction it
//! rejects is dropped, so what reaches the simulator is always valid.
//!
//! Register map (32-byte GRFs): the payload from g0, then data registers up
//! to g95; loop counters g96–g99; input addresses g100–g103, output
//! addresses g104–g107, the address of one access g108–g111. Random ALU
//! instructions write only data registers and f0; loop counters use f1.

use arbitrary::{Result, Unstructured};
use eu::opcode::facts;
use eu::{
    abi, Align16, CondMod, Dispatch, Dst, FlagReg, Instruction, MachineConfig, MathFn, Message,
    MsgSize, Opcode, PredMode, Predicate, Program, RegType, Region, Src, SrcKind, Swizzle,
};

/// First GRF after the data registers.
const DATA_END: u32 = 96;
/// Loop counter GRFs: two per nesting level (UW counters, SIMD32 = 64 bytes).
const COUNTERS: u32 = 96;
/// Per-channel input slot 0 addresses.
const IN_ADDR: u32 = 100;
/// Per-channel output slot 0 addresses.
const OUT_ADDR: u32 = 104;
/// The address of one access.
const ADDR: u32 = 108;
/// Most instructions in the body (before validation).
const MAX_ITEMS: usize = 64;
/// Deepest nesting of IFs and loops.
const MAX_DEPTH: u32 = 3;
/// Deepest nesting of counted loops (two counter GRFs each).
const MAX_LOOPS: u32 = 2;

/// A generated program and the dispatch to run it on.
#[derive(Clone, Debug)]
pub struct EuCase {
    /// The program (valid for Gfx11 with Align16, `MachineConfig::VEC4`).
    pub program: Program,
    /// The dispatch.
    pub dispatch: Dispatch,
    /// The simulator's garbage seed.
    pub garbage_seed: u64,
    /// How many generated ALU instructions the validator rejected.
    pub dropped: usize,
}

/// One element of the program before branch targets are known.
#[derive(Clone, Debug)]
enum Entry {
    /// An instruction whose targets `resolve_control_flow` computes.
    Inst(Instruction),
    /// A random ALU instruction (dropped if invalid).
    Alu(Instruction),
    /// The first body instruction of loop `id` follows.
    LoopStart(usize),
    /// The WHILE of loop `id`.
    While(usize, Instruction),
    /// A HALT whose target is the epilogue.
    Halt(Instruction),
    /// The halt target.
    Epilogue,
}

/// Builds an arbitrary valid EU case from fuzzer bytes; `None` when the
/// validator rejects a structural instruction (a generator bug, which the
/// smoke test watches for) — never a panic.
pub fn arbitrary_eu_case(u: &mut Unstructured) -> Result<Option<EuCase>> {
    let simd = *u.choose(&[8u32, 16, 32])?;
    let invocations = u.int_in_range(1..=simd * 3)?;
    let input_slots = u.int_in_range(1..=4u32)?;
    let output_slots = u.int_in_range(1..=4u32)?;
    let nuniforms = u.int_in_range(0..=4u32)?;
    let uniforms = (0..nuniforms)
        .map(|_| u.arbitrary())
        .collect::<Result<Vec<u64>>>()?;
    let mut inputs = Vec::new();
    for _ in 0..invocations {
        inputs.push(
            (0..input_slots)
                .map(|_| u.arbitrary())
                .collect::<Result<Vec<u64>>>()?,
        );
    }
    let dispatch = Dispatch {
        invocations,
        simd,
        input_slots,
        output_slots,
        inputs,
        uniforms,
    };
    let garbage_seed = u.arbitrary()?;
    let mut g = Gen {
        u,
        simd,
        data_start: abi::payload_grfs(simd, nuniforms, 32),
        input_slots,
        output_slots,
        entries: Vec::new(),
        loops: 0,
        items: 0,
    };
    g.prelude();
    g.block(0, 0, false)?;
    g.entries.push(Entry::Epilogue);
    g.epilogue()?;
    let mut entries = g.entries;
    let mut dropped = 0;
    // Drop rejected ALU instructions until the validator accepts (each round
    // removes at least one instruction, so this ends).
    loop {
        let (program, origin) = lower(&entries);
        match eu::validate(&program, &MachineConfig::VEC4) {
            Ok(()) => {
                return Ok(Some(EuCase {
                    program,
                    dispatch,
                    garbage_seed,
                    dropped,
                }))
            }
            Err(violations) => {
                let mut bad: Vec<usize> = violations.iter().map(|v| origin[v.index]).collect();
                if bad.iter().any(|&e| !matches!(entries[e], Entry::Alu(_))) {
                    return Ok(None);
                }
                bad.sort_unstable();
                bad.dedup();
                dropped += bad.len();
                for e in bad.into_iter().rev() {
                    entries.remove(e);
                }
            }
        }
    }
}

/// Turns entries into a program with resolved branch targets; also returns
/// the entry each instruction came from.
fn lower(entries: &[Entry]) -> (Program, Vec<usize>) {
    let mut insts = Vec::new();
    let mut origin = Vec::new();
    let mut loop_start = std::collections::HashMap::new();
    let mut epilogue = 0;
    for (e, entry) in entries.iter().enumerate() {
        match entry {
            Entry::LoopStart(id) => {
                loop_start.insert(*id, insts.len() as u32);
            }
            Entry::Epilogue => epilogue = insts.len() as u32,
            Entry::Inst(i) | Entry::Alu(i) | Entry::While(_, i) | Entry::Halt(i) => {
                insts.push(*i);
                origin.push(e);
            }
        }
    }
    let mut k = 0;
    for entry in entries {
        match entry {
            Entry::While(id, _) => insts[k].jip = Some(loop_start[id]),
            Entry::Halt(_) => insts[k].uip = Some(epilogue),
            Entry::LoopStart(_) | Entry::Epilogue => continue,
            _ => {}
        }
        k += 1;
    }
    // The structure is balanced by construction; a failure here leaves the
    // targets unset and the validator reports it.
    let _ = eu::resolve_control_flow(&mut insts);
    (Program { insts }, origin)
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    simd: u32,
    data_start: u32,
    input_slots: u32,
    output_slots: u32,
    entries: Vec<Entry>,
    loops: usize,
    items: usize,
}

/// Types random ALU instructions use, most common first.
const TYPES: [RegType; 11] = [
    RegType::UD,
    RegType::D,
    RegType::F,
    RegType::W,
    RegType::UW,
    RegType::HF,
    RegType::UB,
    RegType::B,
    RegType::UQ,
    RegType::Q,
    RegType::DF,
];

/// Every ALU opcode (those with a destination), in the ISA's order.
static ALU_OPS: std::sync::LazyLock<Vec<Opcode>> = std::sync::LazyLock::new(|| {
    eu::ALL_OPCODES
        .into_iter()
        .filter(|o| o.has_dst())
        .collect()
});

const CMODS: [CondMod; 8] = [
    CondMod::Z,
    CondMod::Nz,
    CondMod::G,
    CondMod::Ge,
    CondMod::L,
    CondMod::Le,
    CondMod::O,
    CondMod::U,
];

impl Gen<'_, '_> {
    /// Splits a per-channel UD operation into instructions of at most 16
    /// channels (a SIMD32 UD operand would span four GRFs).
    fn per_channel_ud(&mut self, op: Opcode, dst: u32, src: u32, imm: Src) {
        let halves = self.simd.div_ceil(16);
        let exec = self.simd.min(16) as u8;
        for h in 0..halves {
            let mut i = Instruction::alu(
                op,
                exec,
                Dst::grf(dst + 2 * h, 0, RegType::UD, 1),
                &[
                    Src::grf(src + 2 * h, 0, RegType::UD, Region::new(8, 8, 1)),
                    imm,
                ],
            );
            i.group = (16 * h) as u8;
            self.entries.push(Entry::Inst(i));
        }
    }

    fn prelude(&mut self) {
        // Per-channel invocation ids start at g1 (ABI.md).
        let ids = 1;
        self.per_channel_ud(
            Opcode::Mul,
            IN_ADDR,
            ids,
            Src::imm(8 * self.input_slots as u64, RegType::UW),
        );
        self.per_channel_ud(
            Opcode::Mul,
            OUT_ADDR,
            ids,
            Src::imm(8 * self.output_slots as u64, RegType::UW),
        );
    }

    fn epilogue(&mut self) -> Result<()> {
        for slot in 0..self.output_slots {
            let data = self.data_reg(self.simd / 8)?;
            let size = *self.u.choose(&[MsgSize::B8, MsgSize::B16, MsgSize::B32])?;
            self.store(slot, data, size);
        }
        let mut end = Instruction::new(Opcode::Send, 8);
        end.msg = Some(Message::End { payload: 0 });
        end.eot = true;
        self.entries.push(Entry::Inst(end));
        Ok(())
    }

    fn store(&mut self, slot: u32, data: u32, size: MsgSize) {
        self.per_channel_ud(
            Opcode::Add,
            ADDR,
            OUT_ADDR,
            Src::imm(8 * slot as u64, RegType::UD),
        );
        let mut s = Instruction::new(Opcode::Send, self.simd as u8);
        s.msg = Some(Message::Store {
            size,
            addr: ADDR,
            data,
        });
        self.entries.push(Entry::Inst(s));
    }

    /// A data register with `span` registers free after it.
    fn data_reg(&mut self, span: u32) -> Result<u32> {
        self.u.int_in_range(self.data_start..=DATA_END - span)
    }

    /// A predicate on f0 (f0.0 or f0.1) valid for the dispatch width.
    fn cf_flag(&mut self) -> Result<(Predicate, FlagReg)> {
        let inverse = self.u.arbitrary()?;
        let sub = if self.simd == 32 {
            0
        } else {
            self.u.int_in_range(0..=1u8)?
        };
        Ok((
            Predicate {
                inverse,
                mode: PredMode::Normal,
            },
            FlagReg { nr: 0, sub },
        ))
    }

    fn cf(&mut self, op: Opcode, predicated: bool) -> Result<Instruction> {
        let mut i = Instruction::new(op, self.simd as u8);
        if predicated {
            let (p, f) = self.cf_flag()?;
            i.pred = Some(p);
            i.flag = f;
        }
        Ok(i)
    }

    /// A block of items at nesting `depth` inside `loops` counted loops.
    fn block(&mut self, depth: u32, loops: u32, in_loop: bool) -> Result<()> {
        let n = self.u.int_in_range(0..=12u32)?;
        for _ in 0..n {
            if self.items >= MAX_ITEMS || self.u.is_empty() {
                break;
            }
            self.items += 1;
            match self.u.int_in_range(0..=99u32)? {
                0..=69 => {
                    let i = self.alu()?;
                    self.entries.push(Entry::Alu(i));
                }
                70..=72 => self.load()?,
                73 | 74 => self.scratch()?,
                75..=79 => {
                    let data = self.data_reg(self.simd / 8)?;
                    let slot = self.u.int_in_range(0..=self.output_slots - 1)?;
                    let size = *self.u.choose(&[MsgSize::B8, MsgSize::B16, MsgSize::B32])?;
                    self.store(slot, data, size);
                }
                80..=87 if depth < MAX_DEPTH => self.if_block(depth, loops, in_loop)?,
                88..=93 if depth < MAX_DEPTH => self.loop_block(depth, loops)?,
                94..=97 if in_loop => {
                    let op = if self.u.arbitrary()? {
                        Opcode::Break
                    } else {
                        Opcode::Cont
                    };
                    let i = self.cf(op, true)?;
                    self.entries.push(Entry::Inst(i));
                }
                98 | 99 if depth > 0 => {
                    let i = self.cf(Opcode::Halt, true)?;
                    self.entries.push(Entry::Halt(i));
                }
                _ => {
                    let i = self.alu()?;
                    self.entries.push(Entry::Alu(i));
                }
            }
        }
        Ok(())
    }

    fn if_block(&mut self, depth: u32, loops: u32, in_loop: bool) -> Result<()> {
        let i = self.cf(Opcode::If, true)?;
        self.entries.push(Entry::Inst(i));
        self.block(depth + 1, loops, in_loop)?;
        if self.u.arbitrary()? {
            let e = self.cf(Opcode::Else, false)?;
            self.entries.push(Entry::Inst(e));
            self.block(depth + 1, loops, in_loop)?;
        }
        let e = self.cf(Opcode::Endif, false)?;
        self.entries.push(Entry::Inst(e));
        Ok(())
    }

    /// A loop. Counted loops (the usual kind) run at most a few times: the
    /// counter is cleared before the loop, incremented at the top of the
    /// body and compared just before the WHILE. Uncounted loops exit only
    /// through their random predicate (and may use up the step budget).
    fn loop_block(&mut self, depth: u32, loops: u32) -> Result<()> {
        let id = self.loops;
        self.loops += 1;
        let counted = loops < MAX_LOOPS && self.u.int_in_range(0..=7u8)? != 0;
        let ctr = COUNTERS + 2 * loops;
        let exec = self.simd as u8;
        let region = Region::packed(exec);
        if counted {
            self.entries.push(Entry::Inst(Instruction::alu(
                Opcode::Mov,
                exec,
                Dst::grf(ctr, 0, RegType::UW, 1),
                &[Src::imm(0, RegType::UW)],
            )));
        }
        self.entries.push(Entry::LoopStart(id));
        if counted {
            self.entries.push(Entry::Inst(Instruction::alu(
                Opcode::Add,
                exec,
                Dst::grf(ctr, 0, RegType::UW, 1),
                &[
                    Src::grf(ctr, 0, RegType::UW, region),
                    Src::imm(1, RegType::UW),
                ],
            )));
        }
        self.block(depth + 1, loops + counted as u32, true)?;
        let mut w = self.cf(Opcode::While, true)?;
        if counted {
            let trips = self.u.int_in_range(1..=4u64)?;
            let mut cmp = Instruction::alu(
                Opcode::Cmp,
                exec,
                Dst::null(RegType::UW),
                &[
                    Src::grf(ctr, 0, RegType::UW, region),
                    Src::imm(trips, RegType::UW),
                ],
            );
            cmp.cmod = Some(CondMod::L);
            cmp.flag = FlagReg { nr: 1, sub: 0 };
            self.entries.push(Entry::Inst(cmp));
            w.pred = Some(Predicate::NORMAL);
            w.flag = FlagReg { nr: 1, sub: 0 };
        }
        self.entries.push(Entry::While(id, w));
        Ok(())
    }

    fn load(&mut self) -> Result<()> {
        let slot = self.u.int_in_range(0..=self.input_slots - 1)?;
        let size = *self
            .u
            .choose(&[MsgSize::B8, MsgSize::B16, MsgSize::B32, MsgSize::B64])?;
        let regs = (self.simd * size.payload_bytes()).div_ceil(32);
        let dst = self.data_reg(regs)?;
        self.per_channel_ud(
            Opcode::Add,
            ADDR,
            IN_ADDR,
            Src::imm(8 * slot as u64, RegType::UD),
        );
        let mut s = Instruction::new(Opcode::Send, self.simd as u8);
        s.msg = Some(Message::Load {
            size,
            dst,
            addr: ADDR,
        });
        if self.u.int_in_range(0..=3u8)? == 0 {
            let (p, f) = self.cf_flag()?;
            s.pred = Some(p);
            s.flag = f;
        }
        self.entries.push(Entry::Inst(s));
        Ok(())
    }

    /// A spill or fill: `mov(1) g108.2` sets the oword offset (0-15), then
    /// a block of one, two or four GRFs is written from or read into data
    /// registers, masked or NoMask.
    fn scratch(&mut self) -> Result<()> {
        let owords = self.u.int_in_range(0..=15u64)?;
        let mut set = Instruction::alu(
            Opcode::Mov,
            1,
            Dst::grf(ADDR, 2, RegType::UD, 1),
            &[Src::imm(owords, RegType::UD)],
        );
        set.we_all = true;
        self.entries.push(Entry::Inst(set));
        let width = *self.u.choose(&[8u8, 16, 32])?;
        let data = self.data_reg(width as u32 / 8)?;
        let mut s = Instruction::new(Opcode::Send, width);
        s.we_all = width as u32 > self.simd || self.u.arbitrary()?;
        s.msg = Some(if self.u.arbitrary()? {
            Message::ScratchWrite { header: ADDR, data }
        } else {
            Message::ScratchRead {
                dst: data,
                header: ADDR,
            }
        });
        self.entries.push(Entry::Inst(s));
        Ok(())
    }

    /// A random ALU instruction, biased towards legal forms.
    fn alu(&mut self) -> Result<Instruction> {
        let u = &mut *self.u;
        let op = *u.choose(&ALU_OPS[..])?;
        // Operand types the opcode table allows (CSEL, which the table
        // leaves to its own rule, mostly gets floats).
        let ty = if op.has(facts::DWORD_ONLY) {
            *u.choose(&[RegType::UD, RegType::D])?
        } else if op.has(facts::FLOAT_ONLY) || op == Opcode::Csel {
            *u.choose(&[RegType::F, RegType::HF, RegType::DF])?
        } else {
            TYPES[u
                .int_in_range(0..=TYPES.len() - 1)?
                .min(u.int_in_range(0..=10)?)]
        };
        let size = ty.size();
        let mut exec = *u.choose(&[1u8, 2, 4, 8, 8, 16, 16, 32])?;
        while exec > 1 && exec as u32 * size > 64 && !u.ratio(1, 8)? {
            exec /= 2;
        }
        let mut i = Instruction::new(op, exec);
        if op == Opcode::Math {
            i.math = Some(*u.choose(&[MathFn::IntDiv, MathFn::IntMod])?);
        }
        if exec < 32 && u.ratio(1, 4)? {
            let step = (exec as u32).max(4);
            i.group = (step * u.int_in_range(0..=(32 / step - 1))?) as u8;
        }
        i.we_all = u.ratio(1, 8)?;
        let stride = if size == 1 {
            2
        } else {
            *u.choose(&[1u8, 1, 1, 1, 2, 4])?
        };
        let span = (exec as u32 * size * stride as u32).div_ceil(32).max(1);
        let dst_reg = u.int_in_range(self.data_start..=DATA_END - span.min(DATA_END))?;
        let dst_ty = if u.ratio(1, 6)? {
            TYPES[u.int_in_range(0..=TYPES.len() - 1)?]
        } else {
            ty
        };
        i.dst = if matches!(op, Opcode::Cmp | Opcode::Cmpn) && u.ratio(1, 2)? {
            Dst::null(dst_ty)
        } else {
            Dst::grf(dst_reg, 0, dst_ty, stride)
        };
        let n = op.num_srcs();
        for k in 0..n {
            let src_ty = if u.ratio(1, 8)? {
                TYPES[u.int_in_range(0..=TYPES.len() - 1)?]
            } else {
                ty
            };
            let imm_ok = (k == n - 1 && n <= 2) || (n == 3 && k != 1);
            let mut s = if imm_ok && u.ratio(1, 4)? {
                Src::imm(u.arbitrary::<u64>()? & src_ty.mask(), src_ty)
            } else {
                let region = match u.int_in_range(0..=5u8)? {
                    0 => Region::SCALAR,
                    1 => Region::new(
                        *u.choose(&[0u8, 1, 2, 4, 8, 16])?,
                        *u.choose(&[1u8, 2, 4, 8, 16])?,
                        *u.choose(&[0u8, 1, 2, 4])?,
                    ),
                    _ => Region::packed(exec),
                };
                let reg = u.int_in_range(0..=DATA_END + 15)?;
                let sub = if u.ratio(1, 4)? {
                    u.int_in_range(0..=(32 / src_ty.size()).saturating_sub(1))?
                } else {
                    0
                };
                Src::grf(reg, sub, src_ty, region)
            };
            if !matches!(s.kind, SrcKind::Imm(_)) {
                s.neg = u.ratio(1, 8)?;
                s.abs = u.ratio(1, 10)?;
            }
            i.srcs.push(s);
        }
        if op.has(facts::CMOD_DECIDES) && op != Opcode::Sel || u.ratio(1, 5)? {
            i.cmod = Some(*u.choose(&CMODS)?);
        }
        if (op == Opcode::Sel && i.cmod.is_none()) || u.ratio(1, 6)? {
            let (p, _) = self.cf_flag()?;
            i.pred = Some(p);
        }
        let u = &mut *self.u;
        if i.pred.is_some() || i.cmod.is_some() {
            i.flag = FlagReg {
                nr: 0,
                sub: u.int_in_range(0..=1u8)?,
            };
        }
        i.sat = u.ratio(1, 8)?;
        if u.ratio(1, 6)? {
            vec4(u, &mut i)?;
        }
        Ok(i)
    }
}

/// Makes `i` Align16 SIMD4x2 code: at most 8 channels, a writemask,
/// swizzled `<v,4,1>` sources, a destination of stride 1, maybe a
/// replicate or any4h/all4h predicate.
fn vec4(u: &mut Unstructured, i: &mut Instruction) -> Result<()> {
    i.exec_size = i.exec_size.min(8);
    i.group = 0;
    let swizzle = |u: &mut Unstructured| -> Result<Swizzle> {
        Ok(Swizzle(if u.ratio(1, 3)? {
            Swizzle::XYZW.0
        } else {
            u.arbitrary()?
        }))
    };
    let mut a = Align16 {
        writemask: u.int_in_range(1..=15u8)?,
        swizzle: [Swizzle::XYZW; 3],
    };
    for k in 0..i.srcs.len() {
        // An immediate has no swizzle (nothing prints one).
        if !matches!(i.srcs[k].kind, SrcKind::Imm(_)) {
            a.swizzle[k] = swizzle(u)?;
        }
        let s = &mut i.srcs[k];
        if !matches!(s.kind, SrcKind::Imm(_)) {
            s.region = Region::new(*u.choose(&[0u8, 2, 4, 4])?, 4, 1);
            if let SrcKind::Grf { sub, .. } = &mut s.kind {
                *sub = if u.ratio(1, 4)? { 16 / s.ty.size() } else { 0 };
            }
        }
    }
    i.dst.stride = 1;
    if let Some(p) = i.pred.as_mut() {
        p.mode = *u.choose(&[
            PredMode::Normal,
            PredMode::Replicate(0),
            PredMode::Replicate(1),
            PredMode::Replicate(2),
            PredMode::Replicate(3),
            PredMode::Any(4),
            PredMode::All(4),
        ])?;
    }
    i.align16 = Some(a);
    Ok(())
}
