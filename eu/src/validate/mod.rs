//! Validator of the Gfx11 hardware rules (EU-MODEL §3), Align1 and, on a
//! machine that has it, Align16 (`align16.rs`), plus
//! well-formed structured control flow. Every violation carries a stable
//! rule name; the full list is [`RULES`] (documented in ISA.md).

mod align16;
mod hazard;
mod inst;
mod region;

pub(crate) use inst::exec_type;

use std::fmt;

use crate::asm::print_instruction;
use crate::cf;
use crate::isa::{MachineConfig, Opcode, Program};

/// One rule violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Stable rule name, e.g. `imm-64bit-in-2src`.
    pub rule: &'static str,
    /// Index of the offending instruction.
    pub index: usize,
    /// The offending instruction's text (targets printed as `@index`).
    pub text: String,
    /// What is wrong.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}] instruction {}: `{}`: {}",
            self.rule, self.index, self.text, self.detail
        )
    }
}

/// Every rule name the validator can report.
pub const RULES: &[&str] = &[
    "exec-size",
    "group-align",
    "operand-count",
    "type-invalid",
    "src-null",
    "grf-bounds",
    "flag-bounds",
    "flag-range",
    "imm-byte",
    "imm-64bit-in-2src",
    "imm-position",
    "imm-3src-type",
    "imm-vector",
    "imm-modifier",
    "src-modifier-not-allowed",
    "logic-abs",
    "logic-cmod",
    "byte-src1",
    "cmod-not-allowed",
    "sat-not-allowed",
    "pred-not-allowed",
    "cmp-needs-cmod",
    "cmp-dst-type",
    "sel-pred-cmod",
    "sel-cmod",
    "csel-cmod",
    "csel-predicated",
    "csel-types",
    "int-float-mix",
    "type-not-supported",
    "bitfield-types",
    "math-int-div",
    "mul-dword-dword",
    "mul-dword-src1",
    "mul-dword-cmod-sat",
    "mul-qword",
    "align16-unsupported",
    "align16-alu-only",
    "align16-exec-size",
    "align16-dst-stride",
    "align16-writemask",
    "align16-subreg",
    "align16-region",
    "align16-qword-exec",
    "align16-mixed-float",
    "pred-replicate-align1",
    "pred-mode",
    "region-encoding",
    "region-width-gt-exec",
    "region-vstride",
    "region-width1-hstride",
    "region-scalar",
    "region-zero-strides-width",
    "region-row-crosses-grf",
    "operand-span",
    "compressed-hazard",
    "narrow-dst-stride",
    "narrow-dst-align",
    "packed-byte-dst",
    "conversion-byte-64bit",
    "conversion-hf-64bit",
    "conversion-int-hf",
    "conversion-f-hf",
    "mixed-float",
    "send-msg",
    "eot",
    "cf-nomask",
    "cf-nesting",
    "cf-while-jip",
    "cf-break-outside-loop",
    "cf-jip",
    "cf-uip",
    "halt-target",
];

/// The rules whose verdict on an instruction depends on which registers
/// it names (the register numbers of its GRF operands and message
/// payloads), not only on its shape: a GRF operand inside the register
/// file, and a compressed instruction's destination apart from what its
/// later passes read. Every other rule of an instruction's own gives the
/// same verdict on it and on [`Instruction::unplaced`] of it.
///
/// [`Instruction::unplaced`]: crate::isa::Instruction::unplaced
pub const PLACEMENT_RULES: &[&str] = &["grf-bounds", "compressed-hazard"];

/// Collects violations for one instruction (or, without `out`, only
/// whether there was one other than `eot`).
pub(crate) struct Sink<'a> {
    out: Option<&'a mut Vec<Violation>>,
    index: usize,
    inst: &'a crate::isa::Instruction,
    failed: bool,
    /// Whether [`PLACEMENT_RULES`] are passed over (for [`shape_ok`]).
    shape_only: bool,
}

impl<'a> Sink<'a> {
    /// A sink that only notes whether `inst` broke a rule.
    pub(crate) fn verdict(inst: &'a crate::isa::Instruction) -> Sink<'a> {
        Sink {
            out: None,
            index: 0,
            inst,
            failed: false,
            shape_only: false,
        }
    }

    /// Whether the rules that read register numbers are being checked.
    pub(crate) fn checks_placement(&self) -> bool {
        !self.shape_only
    }

    /// Records a violation of `rule`. The detail is written out only when
    /// violations are collected: a verdict needs none.
    pub(crate) fn err(&mut self, rule: &'static str, detail: impl std::fmt::Display) {
        debug_assert!(RULES.contains(&rule), "unlisted rule {rule}");
        if self.shape_only && PLACEMENT_RULES.contains(&rule) {
            return;
        }
        self.failed |= rule != "eot";
        if let Some(out) = self.out.as_mut() {
            out.push(Violation {
                rule,
                index: self.index,
                text: print_instruction(self.inst),
                detail: detail.to_string(),
            });
        }
    }
}

/// Whether one instruction that is not control flow breaks no rule of its
/// own, rules about where the thread ends aside: what [`validate`] says of
/// a program made of it alone, once its `eot` violations are ignored,
/// without building the program or any violation text.
pub fn instruction_ok(i: &crate::isa::Instruction, cfg: &MachineConfig) -> bool {
    debug_assert!(!i.op.is_cf(), "control flow needs the program");
    own_rules_ok(i, cfg)
}

/// Whether `i` breaks none of the rules [`inst::check`] applies to one
/// instruction (`eot` placement is the program's business).
fn own_rules_ok(i: &crate::isa::Instruction, cfg: &MachineConfig) -> bool {
    let mut sink = Sink::verdict(i);
    inst::check(i, cfg, &mut sink);
    !sink.failed
}

/// Whether a non-control-flow instruction breaks none of its own rules
/// but the [`PLACEMENT_RULES`]. No other rule reads a GRF register number
/// or how many registers the machine has, so this is the same for `i`
/// and [`Instruction::unplaced`] of it, and on machines that differ only
/// in their register count ([`shape_machine`]). [`instruction_ok`] is
/// this and [`placement_ok`] together: a caller may remember this per
/// unplaced instruction, for all the instructions that differ only in
/// their registers.
///
/// [`Instruction::unplaced`]: crate::isa::Instruction::unplaced
pub fn shape_ok(i: &crate::isa::Instruction, cfg: &MachineConfig) -> bool {
    debug_assert!(!i.op.is_cf(), "control flow needs the program");
    let mut sink = Sink {
        shape_only: true,
        ..Sink::verdict(i)
    };
    inst::check(i, cfg, &mut sink);
    !sink.failed
}

/// What of a machine [`shape_ok`] reads: everything but the register
/// count (which only the [`PLACEMENT_RULES`] read), as a machine whose
/// count is 0. Machines with one shape machine get the same answers from
/// [`shape_ok`].
pub fn shape_machine(cfg: &MachineConfig) -> MachineConfig {
    MachineConfig {
        grf_count: 0,
        ..*cfg
    }
}

/// Whether a non-control-flow instruction breaks none of the
/// [`PLACEMENT_RULES`]: every GRF operand it names lies inside the
/// register file, and no later pass of a compressed instruction reads what
/// an earlier one wrote. (When it breaks some other rule, this may say
/// either: [`shape_ok`] says no.)
pub fn placement_ok(i: &crate::isa::Instruction, cfg: &MachineConfig) -> bool {
    debug_assert!(!i.op.is_cf(), "control flow needs the program");
    let mut sink = Sink::verdict(i);
    inst::check_placement(i, cfg, &mut sink);
    !sink.failed
}

/// Validate a program for a machine configuration. Returns every
/// violation found (in instruction order) or `Ok(())`.
pub fn validate(p: &Program, cfg: &MachineConfig) -> Result<(), Vec<Violation>> {
    let mut out = Vec::new();
    let n = p.insts.len();
    for (index, i) in p.insts.iter().enumerate() {
        let mut sink = Sink {
            out: Some(&mut out),
            index,
            ..Sink::verdict(i)
        };
        inst::check(i, cfg, &mut sink);
        if i.eot && index + 1 != n {
            sink.err("eot", "only the last instruction may end the thread");
        }
    }
    if let Some((index, detail)) = end_problem(&p.insts) {
        out.push(Violation {
            rule: "eot",
            index,
            text: p
                .insts
                .get(index)
                .map(print_instruction)
                .unwrap_or_default(),
            detail: detail.into(),
        });
    }
    match cf::analyze(&p.insts) {
        Err(e) => out.push(Violation {
            rule: e.rule,
            index: e.index,
            text: p
                .insts
                .get(e.index)
                .map(print_instruction)
                .unwrap_or_default(),
            detail: e.msg,
        }),
        Ok(info) => {
            for (index, i) in p.insts.iter().enumerate() {
                if !i.op.is_cf() {
                    continue;
                }
                for (rule, have, want) in targets(i, &info, index) {
                    if have != want {
                        out.push(Violation {
                            rule,
                            index,
                            text: print_instruction(i),
                            detail: format!(
                                "{} must be {}, found {}",
                                &rule[3..].to_uppercase(),
                                want.map_or("absent".to_string(), |w| format!("@{w}")),
                                have.map_or("none".to_string(), |h| format!("@{h}"))
                            ),
                        });
                    }
                }
            }
        }
    }
    out.sort_by_key(|v| v.index);
    if out.is_empty() {
        Ok(())
    } else {
        Err(out)
    }
}

/// Whether the program `insts` passes every rule, as [`validate`] would
/// say, given that `inst_ok(index, inst)` answers for each
/// non-control-flow instruction whether it passes its own rules (as
/// [`instruction_ok`] does). A caller that remembers those answers, or
/// knows which instructions it has checked before, validates a changed
/// program without checking its unchanged instructions again; it asks
/// [`validate`] for the violations when this says no.
pub fn valid_given(
    insts: &[crate::isa::Instruction],
    cfg: &MachineConfig,
    mut inst_ok: impl FnMut(usize, &crate::isa::Instruction) -> bool,
) -> bool {
    let n = insts.len();
    let mut any_cf = false;
    for (index, i) in insts.iter().enumerate() {
        if i.eot && index + 1 != n {
            return false;
        }
        any_cf |= i.op.is_cf();
        let ok = if i.op.is_cf() {
            own_rules_ok(i, cfg)
        } else {
            inst_ok(index, i)
        };
        if !ok {
            return false;
        }
    }
    if end_problem(insts).is_some() {
        return false;
    }
    // Without control flow there is no structure to break and no target
    // to check (every structural error names a control-flow instruction).
    if !any_cf {
        return true;
    }
    match cf::analyze(insts) {
        Err(_) => false,
        Ok(info) => insts.iter().enumerate().all(|(index, i)| {
            !i.op.is_cf()
                || targets(i, &info, index)
                    .iter()
                    .all(|(_, have, want)| have == want)
        }),
    }
}

/// What is wrong with the end of the thread, if anything: the index to
/// blame and why.
fn end_problem(insts: &[crate::isa::Instruction]) -> Option<(usize, &'static str)> {
    let n = insts.len();
    match insts.last() {
        None => Some((0, "an empty program never ends its thread")),
        Some(last) if !(last.op == Opcode::Send && last.eot) => {
            Some((n - 1, "the last instruction must be a SEND with EOT"))
        }
        Some(last) if last.pred.is_some() => Some((n - 1, "the EOT send must not be predicated")),
        _ => None,
    }
}

/// A control-flow instruction's jump targets as encoded and as its
/// structure demands: `(rule, have, want)` for JIP and UIP.
fn targets(
    i: &crate::isa::Instruction,
    info: &cf::CfInfo,
    index: usize,
) -> [(&'static str, Option<u32>, Option<u32>); 2] {
    [
        ("cf-jip", i.jip, info.jip[index]),
        ("cf-uip", i.uip, info.uip[index]),
    ]
}

#[cfg(test)]
mod tests;
