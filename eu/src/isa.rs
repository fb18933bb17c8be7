//! Instruction set: opcodes, operands, instructions, programs (see ISA.md).

pub use crate::srcs::Srcs;
use crate::types::RegType;

pub use crate::opcode::{Opcode, ALL_OPCODES};

/// Extended math function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    /// Integer quotient (truncating).
    IntDiv,
    /// Integer remainder (sign of the dividend).
    IntMod,
}

impl MathFn {
    /// Mesa's name for the function.
    pub const fn name(self) -> &'static str {
        match self {
            MathFn::IntDiv => "intdiv",
            MathFn::IntMod => "intmod",
        }
    }

    /// Look up a function by name.
    pub fn from_name(s: &str) -> Option<MathFn> {
        match s {
            "intdiv" => Some(MathFn::IntDiv),
            "intmod" => Some(MathFn::IntMod),
            _ => None,
        }
    }
}

/// Conditional modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondMod {
    /// Equal to zero.
    Z,
    /// Not zero (true for NaN).
    Nz,
    /// Greater than.
    G,
    /// Greater or equal.
    Ge,
    /// Less than.
    L,
    /// Less or equal.
    Le,
    /// Overflow.
    O,
    /// Unordered (NaN).
    U,
}

impl CondMod {
    /// Suffix without the dot.
    pub const fn name(self) -> &'static str {
        match self {
            CondMod::Z => "z",
            CondMod::Nz => "nz",
            CondMod::G => "g",
            CondMod::Ge => "ge",
            CondMod::L => "l",
            CondMod::Le => "le",
            CondMod::O => "o",
            CondMod::U => "u",
        }
    }

    /// Parse a suffix (`e`/`ne` accepted as aliases of `z`/`nz`).
    pub fn from_name(s: &str) -> Option<CondMod> {
        Some(match s {
            "z" | "e" => CondMod::Z,
            "nz" | "ne" => CondMod::Nz,
            "g" => CondMod::G,
            "ge" => CondMod::Ge,
            "l" => CondMod::L,
            "le" => CondMod::Le,
            "o" => CondMod::O,
            "u" => CondMod::U,
            _ => return None,
        })
    }
}

/// Predicate control (Align1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredMode {
    /// The channel's own flag bit.
    Normal,
    /// OR of the aligned group of N flag bits (N = 2, 4, 8, 16, 32).
    Any(u8),
    /// AND of the aligned group of N flag bits.
    All(u8),
    /// Align16 `.x`/`.y`/`.z`/`.w` (`REPLICATE_X`…`W`): every channel of a
    /// SIMD4x2 vertex reads the flag bit of that vertex's component k.
    Replicate(u8),
}

/// A predicate: mode plus inversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Predicate {
    /// `-` (inverse) rather than `+`.
    pub inverse: bool,
    /// Normal or horizontal any/all.
    pub mode: PredMode,
}

impl Predicate {
    /// The normal, non-inverted predicate.
    pub const NORMAL: Predicate = Predicate {
        inverse: false,
        mode: PredMode::Normal,
    };
    /// The inverted predicate.
    pub const INVERSE: Predicate = Predicate {
        inverse: true,
        mode: PredMode::Normal,
    };
}

/// Flag register/subregister used by predication and conditional modifiers
/// (one shared field, as in the hardware encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FlagReg {
    /// Register number (0 or 1).
    pub nr: u8,
    /// Subregister (0 or 1, 16 bits each).
    pub sub: u8,
}

impl FlagReg {
    /// Index s of the 16-bit subregister in the flag file (f0.0=0 … f1.1=3).
    pub const fn index(self) -> u32 {
        self.nr as u32 * 2 + self.sub as u32
    }
}

/// A source region `<vstride;width,hstride>` in elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    /// Vertical stride.
    pub v: u8,
    /// Width.
    pub w: u8,
    /// Horizontal stride.
    pub h: u8,
}

impl Region {
    /// Scalar broadcast `<0;1,0>`.
    pub const SCALAR: Region = Region { v: 0, w: 1, h: 0 };

    /// Construct a region.
    pub const fn new(v: u8, w: u8, h: u8) -> Region {
        Region { v, w, h }
    }

    /// Channel `c`'s row and column in rows of `w` elements (`w` ≥ 1): a
    /// shift and a mask for the power-of-two widths of every legal
    /// region, instead of a division.
    #[inline]
    pub fn row_col(c: u64, w: u64) -> (u64, u64) {
        div_rem(c, w)
    }

    /// The packed region `<n;n,1>` for exec size n (n ≤ 16), `<16;16,1>`-style rows otherwise.
    pub const fn packed(exec: u8) -> Region {
        if exec == 1 {
            Region::SCALAR
        } else if exec >= 8 {
            Region { v: 8, w: 8, h: 1 }
        } else {
            Region {
                v: exec,
                w: exec,
                h: 1,
            }
        }
    }
}

/// `x / d` and `x % d` (`d` ≥ 1): a shift and a mask when `d` is a power
/// of two (region widths, pass widths, register sizes), a division
/// otherwise.
#[inline]
pub(crate) fn div_rem(x: u64, d: u64) -> (u64, u64) {
    if d.is_power_of_two() {
        (x >> d.trailing_zeros(), x & (d - 1))
    } else {
        (x / d, x % d)
    }
}

/// An Align16 source swizzle: for each component x, y, z, w of the
/// execution (bits 0-1, 2-3, 4-5, 6-7), which of the source's four
/// components it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// The identity `.xyzw`.
    pub const XYZW: Swizzle = Swizzle(0b11_10_01_00);

    /// The swizzle reading component `c[k]` for component k.
    pub const fn of(c: [u8; 4]) -> Swizzle {
        Swizzle((c[0] & 3) | (c[1] & 3) << 2 | (c[2] & 3) << 4 | (c[3] & 3) << 6)
    }

    /// The source component component `k` reads.
    pub const fn get(self, k: usize) -> u8 {
        (self.0 >> (2 * k)) & 3
    }
}

/// The Align16 access mode (Mesa's vec4 backend): channels are the four
/// components x, y, z, w of each SIMD4x2 vertex (channel c is component
/// c % 4 of vertex c / 4), a source region is `<vstride,4,1>` read through
/// a swizzle, and the destination is written through a writemask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Align16 {
    /// Destination writemask: bit k enables component k (x, y, z, w).
    pub writemask: u8,
    /// Each source's swizzle.
    pub swizzle: [Swizzle; 3],
}

impl Align16 {
    /// Every component written, every source read `.xyzw`.
    pub const FULL: Align16 = Align16 {
        writemask: 0xf,
        swizzle: [Swizzle::XYZW; 3],
    };
}

/// Source operand storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrcKind {
    /// The null register.
    Null,
    /// A GRF; `sub` is the subregister in units of the operand type.
    Grf {
        /// Register number.
        nr: u32,
        /// Subregister in elements of the operand's type.
        sub: u32,
    },
    /// A flag register read as data; `sub` in units of the operand type.
    Flag {
        /// Flag register number (0 or 1).
        nr: u8,
        /// Subregister in elements of the operand's type.
        sub: u8,
    },
    /// An immediate; raw bits of the type in the low bits.
    Imm(u64),
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    /// Where the data comes from.
    pub kind: SrcKind,
    /// Data type.
    pub ty: RegType,
    /// Region (immediates: `<0;1,0>`).
    pub region: Region,
    /// Negate modifier (bitwise NOT on logic ops).
    pub neg: bool,
    /// Absolute-value modifier.
    pub abs: bool,
}

impl Src {
    /// A GRF source.
    pub const fn grf(nr: u32, sub: u32, ty: RegType, region: Region) -> Src {
        Src {
            kind: SrcKind::Grf { nr, sub },
            ty,
            region,
            neg: false,
            abs: false,
        }
    }

    /// An immediate with raw bits `bits` of type `ty`.
    pub const fn imm(bits: u64, ty: RegType) -> Src {
        Src {
            kind: SrcKind::Imm(bits),
            ty,
            region: Region::SCALAR,
            neg: false,
            abs: false,
        }
    }

    /// The null source.
    pub const fn null(ty: RegType) -> Src {
        Src {
            kind: SrcKind::Null,
            ty,
            region: Region::SCALAR,
            neg: false,
            abs: false,
        }
    }

    /// A flag register source.
    pub const fn flag(nr: u8, sub: u8, ty: RegType, region: Region) -> Src {
        Src {
            kind: SrcKind::Flag { nr, sub },
            ty,
            region,
            neg: false,
            abs: false,
        }
    }

    /// With the negate modifier set.
    pub const fn negated(mut self) -> Src {
        self.neg = true;
        self
    }

    /// With the abs modifier set.
    pub const fn absolute(mut self) -> Src {
        self.abs = true;
        self
    }

    /// Whether this is an immediate.
    pub const fn is_imm(&self) -> bool {
        matches!(self.kind, SrcKind::Imm(_))
    }

    /// Whether this is the null register.
    pub const fn is_null(&self) -> bool {
        matches!(self.kind, SrcKind::Null)
    }
}

/// Destination storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DstKind {
    /// The null register (results discarded; flags still written).
    Null,
    /// A GRF.
    Grf {
        /// Register number.
        nr: u32,
        /// Subregister in elements of the operand type.
        sub: u32,
    },
    /// A flag register written as data.
    Flag {
        /// Flag register number.
        nr: u8,
        /// Subregister in elements of the operand type.
        sub: u8,
    },
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dst {
    /// Where results go.
    pub kind: DstKind,
    /// Data type.
    pub ty: RegType,
    /// Horizontal stride in elements (1, 2 or 4).
    pub stride: u8,
}

impl Dst {
    /// A GRF destination.
    pub const fn grf(nr: u32, sub: u32, ty: RegType, stride: u8) -> Dst {
        Dst {
            kind: DstKind::Grf { nr, sub },
            ty,
            stride,
        }
    }

    /// The null destination.
    pub const fn null(ty: RegType) -> Dst {
        Dst {
            kind: DstKind::Null,
            ty,
            stride: 1,
        }
    }

    /// Whether this is the null register.
    pub const fn is_null(&self) -> bool {
        matches!(self.kind, DstKind::Null)
    }
}

/// Bytes moved per lane by a surface message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MsgSize {
    /// 1 byte.
    B8,
    /// 2 bytes.
    B16,
    /// 4 bytes.
    B32,
    /// 8 bytes.
    B64,
}

impl MsgSize {
    /// Bytes per lane.
    pub const fn bytes(self) -> u32 {
        match self {
            MsgSize::B8 => 1,
            MsgSize::B16 => 2,
            MsgSize::B32 => 4,
            MsgSize::B64 => 8,
        }
    }

    /// Bytes each lane occupies in the data payload (4, or 8 for B64).
    pub const fn payload_bytes(self) -> u32 {
        if matches!(self, MsgSize::B64) {
            8
        } else {
            4
        }
    }

    /// Suffix: `b8` … `b64`.
    pub const fn name(self) -> &'static str {
        match self {
            MsgSize::B8 => "b8",
            MsgSize::B16 => "b16",
            MsgSize::B32 => "b32",
            MsgSize::B64 => "b64",
        }
    }

    /// From a suffix.
    pub fn from_name(s: &str) -> Option<MsgSize> {
        Some(match s {
            "b8" => MsgSize::B8,
            "b16" => MsgSize::B16,
            "b32" => MsgSize::B32,
            "b64" => MsgSize::B64,
            _ => return None,
        })
    }
}

/// A message descriptor (see ABI.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Message {
    /// Per-lane load from the input surface into `dst`.
    Load {
        /// Bytes per lane.
        size: MsgSize,
        /// First GRF of the returned data.
        dst: u32,
        /// First GRF of the per-lane UD addresses.
        addr: u32,
    },
    /// Per-lane store to the output surface.
    Store {
        /// Bytes per lane.
        size: MsgSize,
        /// First GRF of the per-lane UD addresses.
        addr: u32,
        /// First GRF of the per-lane data.
        data: u32,
    },
    /// Thread-spawner end message (only useful with EOT).
    End {
        /// Payload GRF (content ignored).
        payload: u32,
    },
    /// brw's fill on Gfx9–11: an OWORD block read of `exec_size / 8` GRFs
    /// from the thread's scratch space, at the oword offset held in dword 2
    /// of the `header` GRF. Dword `c` of the block is channel `c`: a
    /// disabled channel leaves its dword of `dst` as it was.
    ScratchRead {
        /// First GRF of the returned block.
        dst: u32,
        /// The message header (dword 2: offset in owords).
        header: u32,
    },
    /// brw's spill on Gfx9–11: an OWORD block write of `exec_size / 8`
    /// GRFs from `data` to the thread's scratch space, at the oword offset
    /// in dword 2 of `header`; only enabled channels write their dword.
    ScratchWrite {
        /// The message header (dword 2: offset in owords).
        header: u32,
        /// First GRF of the block written.
        data: u32,
    },
}

/// One GRF operand of a message, in [`Message::grfs_mut`]'s order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsgOperand {
    /// What it is, as errors name it (`destination`, `address payload`, …).
    pub role: &'static str,
    /// Its first register.
    pub reg: u32,
    /// How many registers it covers at the instruction's execution size.
    pub regs: u32,
    /// Whether the message writes it (else reads it; the end message's
    /// payload, whose content is ignored, counts as read).
    pub written: bool,
}

/// A message's operands (inline: at most two).
pub type MsgOperands = smallvec::SmallVec<[MsgOperand; 2]>;

impl Message {
    /// The message's GRF operands at execution size `exec` with GRFs of
    /// `grf_bytes`, in [`Message::grfs_mut`]'s order.
    pub fn operands(&self, exec: u8, grf_bytes: u32) -> MsgOperands {
        let regs = |per_lane: u32| (u32::from(exec) * per_lane).div_ceil(grf_bytes).max(1);
        let op = |role, reg, regs, written| MsgOperand {
            role,
            reg,
            regs,
            written,
        };
        match *self {
            Message::Load { size, dst, addr } => smallvec::smallvec![
                op("address payload", addr, regs(4), false),
                op("destination", dst, regs(size.payload_bytes()), true),
            ],
            Message::Store { size, addr, data } => smallvec::smallvec![
                op("address payload", addr, regs(4), false),
                op("data payload", data, regs(size.payload_bytes()), false),
            ],
            Message::End { payload } => smallvec::smallvec![op("payload", payload, 1, false)],
            Message::ScratchRead { dst, header } => smallvec::smallvec![
                op("header", header, 1, false),
                op("destination", dst, regs(4), true),
            ],
            Message::ScratchWrite { header, data } => smallvec::smallvec![
                op("header", header, 1, false),
                op("data payload", data, regs(4), false),
            ],
        }
    }

    /// The GRF operands the message names (first registers), mutable, in
    /// [`Message::operands`]' order: for passes that renumber registers.
    pub fn grfs_mut(&mut self) -> smallvec::SmallVec<[&mut u32; 2]> {
        match self {
            Message::Load { dst, addr, .. } => smallvec::smallvec![addr, dst],
            Message::Store { addr, data, .. } => smallvec::smallvec![addr, data],
            Message::End { payload } => smallvec::smallvec![payload],
            Message::ScratchRead { dst, header } => smallvec::smallvec![header, dst],
            Message::ScratchWrite { header, data } => smallvec::smallvec![header, data],
        }
    }

    /// The registers in a send's operand slots: the destination (None:
    /// null), the first payload and the second (data) payload.
    pub fn send_operands(&self) -> (Option<u32>, u32, Option<u32>) {
        match *self {
            Message::Load { dst, addr, .. } => (Some(dst), addr, None),
            Message::Store { addr, data, .. } => (None, addr, Some(data)),
            Message::End { payload } => (None, payload, None),
            Message::ScratchRead { dst, header } => (Some(dst), header, None),
            Message::ScratchWrite { header, data } => (None, header, Some(data)),
        }
    }

    /// What the message writes to registers, channel by channel: its
    /// first register and the bytes each channel's element takes (None
    /// for messages that write no register).
    pub fn written(&self) -> Option<(u32, u32)> {
        match *self {
            Message::Load { size, dst, .. } => Some((dst, size.payload_bytes())),
            Message::ScratchRead { dst, .. } => Some((dst, 4)),
            _ => None,
        }
    }

    /// Whether this is a scratch (spill or fill) message.
    pub fn is_scratch(&self) -> bool {
        matches!(
            self,
            Message::ScratchRead { .. } | Message::ScratchWrite { .. }
        )
    }
}

/// One instruction (plain data: copying one copies a few words).
#[derive(Clone, Copy, Debug, Eq)]
pub struct Instruction {
    /// Opcode.
    pub op: Opcode,
    /// Math function (MATH only).
    pub math: Option<MathFn>,
    /// Message (SEND only).
    pub msg: Option<Message>,
    /// Execution size: 1, 2, 4, 8, 16 or 32.
    pub exec_size: u8,
    /// Channel offset (quarter / nibble control): first channel.
    pub group: u8,
    /// NoMask (WE_all).
    pub we_all: bool,
    /// End of thread (SEND only).
    pub eot: bool,
    /// Predicate, if any.
    pub pred: Option<Predicate>,
    /// Conditional modifier, if any.
    pub cmod: Option<CondMod>,
    /// Flag register used by the predicate and the conditional modifier.
    pub flag: FlagReg,
    /// Saturate.
    pub sat: bool,
    /// Destination (ALU instructions; null otherwise).
    pub dst: Dst,
    /// Sources (ALU instructions), inline.
    pub srcs: Srcs,
    /// Jump target as an absolute instruction index (control flow).
    pub jip: Option<u32>,
    /// Update target as an absolute instruction index (control flow).
    pub uip: Option<u32>,
    /// The Align16 access mode's writemask and swizzles (None: Align1).
    pub align16: Option<Align16>,
}

impl Instruction {
    /// A bare instruction with the given opcode and execution size; other
    /// fields default (no predicate, no cmod, f0.0, null dst, no sources).
    pub fn new(op: Opcode, exec_size: u8) -> Instruction {
        Instruction {
            op,
            math: None,
            msg: None,
            exec_size,
            group: 0,
            we_all: false,
            eot: false,
            pred: None,
            cmod: None,
            flag: FlagReg::default(),
            sat: false,
            dst: Dst::null(RegType::UD),
            srcs: Srcs::new(),
            jip: None,
            uip: None,
            align16: None,
        }
    }

    /// An ALU instruction with a destination and sources.
    pub fn alu(op: Opcode, exec_size: u8, dst: Dst, srcs: &[Src]) -> Instruction {
        let mut i = Instruction::new(op, exec_size);
        i.dst = dst;
        i.srcs = Srcs::from_slice(srcs);
        i
    }

    /// How many channels the hardware executes at once. A compressed
    /// instruction (wider than eight channels, or than four with a 64-bit
    /// operand) is decoded as passes of this many channels, in channel
    /// order, each reading its sources and writing its destination before
    /// the next one reads: brw's `has_source_and_destination_hazard`
    /// (`add(16) g4<1>F g4<0,1,0>F g6<8,8,1>F` runs as two `add(8)`, and the
    /// first one overwrites the second one's `g4.0`).
    pub fn pass_width(&self) -> u8 {
        let wide = std::iter::once(self.dst.ty)
            .chain(self.srcs.iter().map(|s| s.ty))
            .any(|t| t.size() == 8);
        let w = if wide { 4 } else { 8 };
        self.exec_size.min(w)
    }

    /// Source `k`'s Align16 swizzle (None on Align1 code).
    pub fn swizzle(&self, k: usize) -> Option<Swizzle> {
        self.align16.map(|a| a.swizzle[k])
    }

    /// The channels the Align16 writemask enables (bit c set when component
    /// c % 4 is in it); None on Align1 code, which has no writemask.
    pub fn writemask_channels(&self) -> Option<u32> {
        self.align16.map(|a| {
            (0..self.exec_size as u32)
                .filter(|c| a.writemask >> (c % 4) & 1 == 1)
                .fold(0, |m, c| m | 1 << c)
        })
    }

    /// Whether the instruction writes flags (cmod on anything but SEL/CSEL).
    pub fn writes_flag(&self) -> bool {
        self.cmod.is_some() && !matches!(self.op, Opcode::Sel | Opcode::Csel) && !self.op.is_cf()
    }

    /// The same instruction with every GRF it names moved to register 0:
    /// its destination's and its sources' register numbers, and its
    /// message's payload registers, are 0; subregisters, regions, types,
    /// flags and everything else are kept. Instructions that differ only
    /// in which registers they use have one unplaced form, and whatever
    /// depends only on an instruction's shape can be worked out once for
    /// it ([`crate::validate::shape_ok`]).
    pub fn unplaced(&self) -> Instruction {
        let mut u = *self;
        u.for_each_grf_mut(|nr| *nr = 0);
        u
    }

    /// Calls `f` on every GRF register number the instruction names: its
    /// destination's, its sources', then its message's payload registers
    /// (in [`Message::grfs_mut`]'s order).
    pub fn for_each_grf_mut(&mut self, mut f: impl FnMut(&mut u32)) {
        if let DstKind::Grf { nr, .. } = &mut self.dst.kind {
            f(nr);
        }
        for s in self.srcs.iter_mut() {
            if let SrcKind::Grf { nr, .. } = &mut s.kind {
                f(nr);
            }
        }
        if let Some(m) = &mut self.msg {
            for r in m.grfs_mut() {
                f(r);
            }
        }
    }
}

/// A program: a sequence of instructions; branch targets are indices into it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Program {
    /// The instructions.
    pub insts: Vec<Instruction>,
}

/// Machine configuration shared by the validator and the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MachineConfig {
    /// Bytes per GRF (32 on Gfx11; 64 models Xe2-sized registers).
    pub grf_bytes: u32,
    /// Number of GRFs (128 on hardware; larger for a virtual-register mode).
    pub grf_count: u32,
    /// Whether the Align16 access mode exists (Gfx ≤ 10, the generations
    /// Mesa's vec4 backend compiled for; removed on Gfx11).
    pub align16: bool,
}

impl MachineConfig {
    /// Gfx11: 128 × 32-byte GRFs.
    pub const GFX11: MachineConfig = MachineConfig {
        grf_bytes: 32,
        grf_count: 128,
        align16: false,
    };

    /// The vec4 backend's target: Gfx11's register file and rules, with
    /// the Align16 access mode of the generations before it.
    pub const VEC4: MachineConfig = MachineConfig {
        align16: true,
        ..MachineConfig::GFX11
    };

    /// Total GRF file size in bytes.
    pub const fn grf_file_bytes(&self) -> u64 {
        self.grf_bytes as u64 * self.grf_count as u64
    }
}

impl Default for MachineConfig {
    fn default() -> Self {
        MachineConfig::GFX11
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_copy_is_equal_and_independent() {
        let mut p = crate::asm::parse_program(
            "(+f0.0) sel.l(16) g2<1>F -g3<8,8,1>F (abs)g5<8,8,1>F { align1 WE_all 1H };\nmad(8) g4<1>F g1<8,8,1>F g2<8,8,1>F g3<8,8,1>F",
        )
        .unwrap();
        for i in &mut p.insts {
            let c = *i;
            assert_eq!(&c, i);
            i.srcs[0].neg = !i.srcs[0].neg;
            assert_ne!(&c, i);
        }
    }
}
