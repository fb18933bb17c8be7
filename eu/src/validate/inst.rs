//! Per-instruction rules: operands, immediates, modifiers, types.

use super::region;
use super::Sink;
use crate::isa::{CondMod, Instruction, MachineConfig, Message, Opcode, PredMode, SrcKind};
use crate::opcode::facts;
use crate::types::RegType;
use crate::Srcs;

/// An instruction's source types (each mapped by some function), kept
/// inline: the validator asks for them on every instruction.
pub(super) struct SrcTypes {
    tys: [RegType; Srcs::CAPACITY],
    len: usize,
}

impl SrcTypes {
    /// `f` of each of `i`'s source types, in order.
    pub(super) fn of(i: &Instruction, f: impl Fn(RegType) -> RegType) -> SrcTypes {
        let mut tys = [RegType::UD; Srcs::CAPACITY];
        for (t, s) in tys.iter_mut().zip(i.srcs.iter()) {
            *t = f(s.ty);
        }
        SrcTypes {
            tys,
            len: i.srcs.len(),
        }
    }

    pub(super) fn as_slice(&self) -> &[RegType] {
        &self.tys[..self.len]
    }
}

fn is_dword_int(t: RegType) -> bool {
    matches!(t, RegType::D | RegType::UD)
}

/// Execution type (EU-MODEL §1.6, Mesa `execution_type`).
pub(crate) fn exec_type(i: &Instruction) -> RegType {
    let classes = SrcTypes::of(i, RegType::exec_class);
    let classes = classes.as_slice();
    let Some(&s0) = classes.first() else {
        return i.dst.ty;
    };
    if classes.len() == 1 {
        return if s0 == RegType::HF {
            i.dst.ty.exec_class()
        } else {
            s0
        };
    }
    let dst = i.dst.ty.exec_class();
    let has = |t: RegType| classes.contains(&t);
    let mixed = (has(RegType::F) && has(RegType::HF))
        || (dst == RegType::F && has(RegType::HF))
        || (dst == RegType::HF && has(RegType::F));
    if mixed {
        return RegType::F;
    }
    if classes.iter().all(|&c| c == s0) {
        return s0;
    }
    for t in [RegType::Q, RegType::D, RegType::W, RegType::DF] {
        if has(t) {
            return t;
        }
    }
    RegType::F
}

/// Whether the instruction mixes F and HF among its sources and destination.
pub(crate) fn is_mixed_float(i: &Instruction) -> bool {
    let mut has_f = i.dst.ty == RegType::F;
    let mut has_hf = i.dst.ty == RegType::HF;
    for s in &i.srcs {
        has_f |= s.ty == RegType::F;
        has_hf |= s.ty == RegType::HF;
    }
    has_f && has_hf
}

/// Whether the execution size is one the encoding has (1 to 32, powers
/// of two).
fn exec_size_ok(i: &Instruction) -> bool {
    [1, 2, 4, 8, 16, 32].contains(&i.exec_size)
}

pub(crate) fn check(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    let op = i.op;
    if !exec_size_ok(i) {
        s.err(
            "exec-size",
            format_args!("execution size {} is not 1, 2, 4, 8, 16 or 32", i.exec_size),
        );
        return;
    }
    let (ex, g) = (i.exec_size as u32, i.group as u32);
    let aligned = if ex >= 8 { g % ex == 0 } else { g % 4 == 0 };
    if !aligned || g + ex > 32 {
        s.err(
            "group-align",
            format_args!(
                "channel group {g} is not aligned for execution size {ex} or exceeds 32 channels"
            ),
        );
    }
    // Operand shape.
    let alu = op.num_srcs() > 0;
    let shape_ok = if alu {
        i.srcs.len() == op.num_srcs() && i.msg.is_none()
    } else {
        i.srcs.is_empty() && i.dst.is_null()
    } && (op == Opcode::Math) == i.math.is_some()
        && (op == Opcode::Send) == i.msg.is_some()
        && (op.is_cf() || (i.jip.is_none() && i.uip.is_none()));
    if !shape_ok {
        s.err(
            "operand-count",
            format_args!(
                "{} takes {} source(s){}",
                op.name(),
                op.num_srcs(),
                match op {
                    Opcode::Math => " and a math function",
                    Opcode::Send => " and a message descriptor",
                    _ => "",
                }
            ),
        );
        return;
    }
    super::align16::check(i, cfg, s);
    if i.eot && op != Opcode::Send {
        s.err("eot", "only a SEND can end the thread");
    }
    // Predicate modes the encoding has (the parser makes no others).
    match i.pred.map(|p| p.mode) {
        Some(PredMode::Any(n) | PredMode::All(n)) if ![2, 4, 8, 16, 32].contains(&n) => {
            s.err(
                "pred-mode",
                format_args!("a horizontal predicate groups 2, 4, 8, 16 or 32 flag bits, not {n}"),
            );
            return;
        }
        Some(PredMode::Replicate(k)) if k > 3 => {
            s.err(
                "pred-mode",
                format_args!("a replicate predicate names component x, y, z or w, not {k}"),
            );
            return;
        }
        _ => {}
    }
    // Flag field.
    let uses_flag = i.pred.is_some() || i.writes_flag();
    if uses_flag && (i.flag.nr > 1 || i.flag.sub > 1) {
        s.err(
            "flag-bounds",
            "Gfx11 has flag registers f0.0, f0.1, f1.0 and f1.1 only",
        );
    } else if uses_flag {
        let base = 16 * i.flag.sub as u32;
        let mut top = base + g + ex;
        if let Some(p) = i.pred {
            if let PredMode::Any(n) | PredMode::All(n) = p.mode {
                let n = n as u32;
                top = top.max(base + (g + ex - 1) / n * n + n);
            }
        }
        if top > 32 {
            s.err(
                "flag-range",
                format_args!(
                    "flag bits {base}..{top} of f{} exceed the 32-bit register",
                    i.flag.nr
                ),
            );
        }
    }
    // Predication.
    if i.pred.is_some() {
        match op {
            Opcode::Csel => s.err("csel-predicated", "CSEL cannot be predicated"),
            Opcode::Else | Opcode::Endif | Opcode::Nop => s.err(
                "pred-not-allowed",
                format_args!("{} cannot be predicated", op.name()),
            ),
            _ => {}
        }
    }
    // Conditional modifier and saturate.
    if let Some(c) = i.cmod {
        if !op.can_take_cmod() {
            s.err(
                "cmod-not-allowed",
                format_args!("{} takes no conditional modifier", op.name()),
            );
        } else if matches!(op, Opcode::Cmp | Opcode::Cmpn) && c == CondMod::O {
            s.err("cmod-not-allowed", "a compare has no overflow condition");
        } else if op.is_logic() && matches!(c, CondMod::O | CondMod::U) {
            s.err(
                "logic-cmod",
                "logic instructions take no .o/.u conditional modifier",
            );
        }
    }
    if i.sat && !op.can_saturate() {
        s.err(
            "sat-not-allowed",
            format_args!("{} cannot saturate", op.name()),
        );
    }
    if op.is_cf() && i.we_all {
        s.err("cf-nomask", "control-flow instructions cannot be NoMask");
    }
    match op {
        Opcode::Send => check_send(i, cfg, s),
        _ if alu => check_alu(i, cfg, s),
        _ => {}
    }
}

fn check_send(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    if matches!(i.msg, Some(Message::End { .. })) && !i.eot {
        s.err("send-msg", "an 'end' message must carry EOT");
    }
    if i.msg.is_some_and(|m| m.is_scratch()) {
        // OWORD blocks of 2, 4 or 8 owords: one dword per channel.
        if !matches!(i.exec_size, 8 | 16 | 32) {
            s.err(
                "send-msg",
                format_args!(
                    "a scratch block message runs at SIMD8, SIMD16 or SIMD32 (one dword per channel), not SIMD{}",
                    i.exec_size
                ),
            );
        }
        if i.eot {
            s.err("send-msg", "a scratch message cannot end the thread");
        }
    }
    send_bounds(i, cfg, s);
}

/// The `grf-bounds` rule for a SEND's payload and destination registers.
fn send_bounds(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    let operands = i.msg.map(|m| m.operands(i.exec_size, cfg.grf_bytes));
    for o in operands.iter().flatten() {
        let (start, count) = (o.reg as u64, o.regs as u64);
        if start + count > cfg.grf_count as u64 {
            s.err(
                "grf-bounds",
                format_args!(
                    "{} g{start}..g{} is outside the GRF file",
                    o.role,
                    start + count - 1
                ),
            );
        }
    }
}

fn check_alu(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    let op = i.op;
    let nsrc = op.num_srcs();
    let ex = i.exec_size as u32;
    // Sources: null, types, immediates, modifiers.
    for (k, src) in i.srcs.iter().enumerate() {
        match src.kind {
            SrcKind::Null => s.err("src-null", format_args!("src{k} is null")),
            SrcKind::Imm(_) => {
                if src.ty.is_byte() {
                    s.err("imm-byte", "there are no B/UB immediates");
                }
                if src.neg || src.abs {
                    s.err("imm-modifier", "immediates take no source modifiers");
                }
                if src.ty.is_64bit() && nsrc > 1 {
                    s.err(
                        "imm-64bit-in-2src",
                        "64-bit immediates only in 1-source instructions",
                    );
                }
                if nsrc == 2 && k == 0 {
                    s.err("imm-position", "a 2-source immediate must be src1");
                }
                if nsrc == 3 && k == 1 {
                    s.err("imm-position", "a 3-source immediate cannot be src1");
                }
                if nsrc == 3 && !matches!(src.ty, RegType::W | RegType::UW | RegType::HF) {
                    s.err(
                        "imm-3src-type",
                        "3-source immediates are 16-bit (W, UW or HF)",
                    );
                }
                if src.ty.is_vector_imm() {
                    check_vector_imm(i, src.ty, s);
                }
            }
            _ => {
                if src.ty.is_vector_imm() {
                    s.err(
                        "type-invalid",
                        format_args!("{} is an immediate-only type", src.ty),
                    );
                }
            }
        }
        if (src.neg || src.abs) && !src.is_imm() {
            if op.has(facts::NO_SRC_MODS) {
                s.err(
                    "src-modifier-not-allowed",
                    format_args!("{} takes no source modifiers", op.name()),
                );
            } else if op == Opcode::Math {
                s.err("math-int-div", "integer division takes no source modifiers");
            } else if op.is_logic() && src.abs {
                s.err("logic-abs", "abs is undefined on logic instructions");
            }
        }
        let byte_restricted = (nsrc == 2 && k == 1) || (nsrc == 3 && k >= 1);
        if byte_restricted && src.ty.is_byte() {
            s.err(
                "byte-src1",
                format_args!("byte type not allowed in src{k} on Gfx11"),
            );
        }
    }
    if nsrc == 3 && i.srcs[0].is_imm() && i.srcs[2].is_imm() {
        s.err(
            "imm-position",
            "a 3-source instruction takes at most one immediate",
        );
    }
    if i.dst.ty.is_vector_imm() {
        s.err(
            "type-invalid",
            format_args!("{} is an immediate-only type", i.dst.ty),
        );
    }
    check_types(i, s);
    region::check(i, cfg, s);
    if s.checks_placement() {
        super::hazard::check(i, cfg, s);
    }
    let _ = ex;
}

/// The [`super::PLACEMENT_RULES`] alone, as [`check`] applies them to an
/// instruction that breaks no other rule (on one that does, what this
/// says does not matter, but it neither panics nor loops).
pub(crate) fn check_placement(i: &Instruction, cfg: &MachineConfig, s: &mut Sink<'_>) {
    if !exec_size_ok(i) {
        return;
    }
    match i.op {
        Opcode::Send => send_bounds(i, cfg, s),
        op if op.num_srcs() > 0 => {
            region::check_bounds(i, cfg, s);
            super::hazard::check(i, cfg, s);
        }
        _ => {}
    }
}

fn check_vector_imm(i: &Instruction, ty: RegType, s: &mut Sink<'_>) {
    let off = region::dst_byte_offset(i);
    let stride_bytes = i.dst.stride as u32 * i.dst.ty.size();
    let (want, max_exec) = if ty == RegType::VF { (4, 4) } else { (2, 8) };
    if !off.is_multiple_of(16) || stride_bytes != want || i.exec_size as u32 > max_exec {
        s.err(
            "imm-vector",
            format_args!(
                "{ty} needs a 16-byte aligned destination with a {want}-byte stride and at most {max_exec} channels"
            ),
        );
    }
}

fn check_types(i: &Instruction, s: &mut Sink<'_>) {
    let op = i.op;
    let tys = SrcTypes::of(i, |t| t);
    let tys = tys.as_slice();
    let dst = i.dst.ty;
    let all_float = tys.iter().all(|t| t.is_float());
    let all_int = tys.iter().all(|t| t.is_int());
    if tys.len() >= 2 && !all_float && !all_int && op != Opcode::Csel {
        s.err("int-float-mix", "sources must be all integer or all float");
    }
    let bad = |s: &mut Sink<'_>, what: &str| {
        s.err("type-not-supported", format_args!("{} {what}", op.name()))
    };
    // The operand types the table allows, for opcodes without a rule of
    // their own below.
    let own_rule = matches!(op, Opcode::Bfe | Opcode::Bfi1 | Opcode::Bfi2 | Opcode::Math);
    if !own_rule {
        if op.has(facts::FLOAT_ONLY) && (!all_float || !dst.is_float()) {
            bad(s, "takes float operands only");
        } else if op.has(facts::DWORD_ONLY)
            && (!tys.iter().all(|&t| is_dword_int(t)) || !is_dword_int(dst))
        {
            bad(s, "takes D/UD operands only");
        } else if op.has(facts::INT_ONLY) && (!all_int || !dst.is_int()) {
            bad(s, "takes integer operands only");
        }
    }
    match op {
        Opcode::Bfe | Opcode::Bfi1 | Opcode::Bfi2
            if (!is_dword_int(dst) || tys.iter().any(|&t| t != dst)) =>
        {
            s.err(
                "bitfield-types",
                format_args!("{}: all operands must be D or all UD", op.name()),
            );
        }
        Opcode::Math if (!is_dword_int(dst) || !is_dword_int(tys[0]) || tys[0] != tys[1]) => {
            s.err(
                "math-int-div",
                "integer division takes D/UD operands, both sources alike",
            );
        }
        Opcode::Csel => {
            let ok_ty = |t: RegType| {
                matches!(
                    t,
                    RegType::F | RegType::HF | RegType::D | RegType::UD | RegType::W | RegType::UW
                )
            };
            let same = tys
                .iter()
                .all(|&t| t.size() == dst.size() && t.is_float() == dst.is_float());
            if !ok_ty(dst) || !tys.iter().all(|&t| ok_ty(t)) || !same {
                s.err(
                    "csel-types",
                    "CSEL operands are F/HF/D/UD/W/UW, same size and kind",
                );
            }
            match i.cmod {
                None => s.err("csel-cmod", "CSEL needs a conditional modifier"),
                Some(CondMod::O | CondMod::U) => {
                    s.err("csel-cmod", "CSEL compares with zero: no .o/.u")
                }
                _ => {}
            }
        }
        Opcode::Cmp | Opcode::Cmpn => {
            if i.cmod.is_none() {
                s.err("cmp-needs-cmod", "CMP/CMPN need a conditional modifier");
            }
            if all_float && !dst.is_float() || all_int && !dst.is_int() {
                s.err(
                    "cmp-dst-type",
                    "the destination of a compare has the sources' kind (float or integer)",
                );
            } else if all_float {
                // A float compare writes its booleans at the sources' size:
                // an HF compare makes 16-bit booleans (e83f51d54e9; seed 000).
                let first = i.srcs[0].ty;
                let want = if i.srcs.iter().all(|s| s.ty == first) {
                    first
                } else {
                    RegType::F
                };
                if dst != want {
                    s.err(
                        "cmp-dst-type",
                        format_args!("a {want} compare writes {want} booleans, not {dst}"),
                    );
                }
            }
        }
        Opcode::Sel => {
            if i.pred.is_some() == i.cmod.is_some() {
                s.err(
                    "sel-pred-cmod",
                    "SEL needs exactly one of predicate and conditional modifier",
                );
            }
            if let Some(c) = i.cmod {
                if !matches!(c, CondMod::L | CondMod::Ge) {
                    s.err(
                        "sel-cmod",
                        "SEL conditional modifier must be .l (min) or .ge (max)",
                    );
                }
            }
        }
        Opcode::Mul if all_int => {
            let dw0 = is_dword_int(tys[0]);
            let dw1 = is_dword_int(tys[1]);
            if tys.iter().any(|t| t.is_64bit()) {
                s.err("mul-qword", "no 64-bit integer multiply on Gfx11");
            } else if dw0 && dw1 {
                s.err(
                    "mul-dword-dword",
                    "no integer DWord × DWord multiply on Gfx11",
                );
            } else if dw1 {
                s.err(
                    "mul-dword-src1",
                    "the DWord operand of a DW × W multiply must be src0",
                );
            }
            if (dw0 || dw1) && (i.cmod.is_some() || i.sat) {
                s.err(
                    "mul-dword-cmod-sat",
                    "DWord multiplies take no conditional modifier or saturate",
                );
            }
        }
        _ => {}
    }
}
