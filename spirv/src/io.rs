//! The buffer ABI of `docs/vulkan-abi.md`: four storage buffers of 32-bit
//! words in descriptor set 0 (inputs, uniforms, outputs, lanes), the
//! built-ins, each invocation's lanes row, and the I/O ops.

use crate::emit::{Emitter, Ty, View};
use crate::ExportError;
use ir::{Instr, Op, SlotType};
use rspirv::dr::Operand;
use rspirv::spirv::{BuiltIn, Decoration, Op as SOp, StorageClass, Word};

type R = Result<(), ExportError>;

const U32: Ty = Ty::U(32);

/// The module's interface ids.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Io {
    inputs: Word,
    uniforms: Word,
    outputs: Word,
    lanes: Word,
    /// `StorageBuffer` pointer to a word.
    word_ptr: Word,
    local_index: Word,
    subgroup_id: Word,
    pub(crate) subgroup_local: Word,
    subgroup_size: Word,
    /// `LocalInvocationIndex`, loaded in the entry block.
    invocation: Word,
    /// First word of the invocation's input row (`2 * i * NI`).
    input_row: Word,
    /// First word of the invocation's output row (`4 * i * NO`).
    output_row: Word,
}

impl Io {
    /// The entry point's interface: the `Input` built-ins (SPIR-V 1.3 lists
    /// only `Input` and `Output` variables).
    pub(crate) fn interface(&self) -> Vec<Word> {
        vec![
            self.local_index,
            self.subgroup_id,
            self.subgroup_local,
            self.subgroup_size,
        ]
    }
}

/// Declares the buffers and built-ins.
pub(crate) fn declare(e: &mut Emitter) -> Result<Io, ExportError> {
    let u32_ty = e.ty(U32);
    let words = e.b.type_runtime_array(u32_ty);
    e.b.decorate(words, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    // Two struct types, so that the read-only buffers' member can be
    // NonWritable (`readonly buffer` in GLSL).
    let block = |e: &mut Emitter, name: &str, read_only: bool| {
        let id = e.b.id();
        let s = e.b.type_struct_id(Some(id), [words]);
        e.b.name(s, name);
        e.b.decorate(s, Decoration::Block, []);
        e.b.member_decorate(s, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
        if read_only {
            e.b.member_decorate(s, 0, Decoration::NonWritable, []);
        }
        e.b.type_pointer(None, StorageClass::StorageBuffer, s)
    };
    let read_ptr = block(e, "ReadWords", true);
    let write_ptr = block(e, "WriteWords", false);
    let word_ptr = e.b.type_pointer(None, StorageClass::StorageBuffer, u32_ty);
    let buffer = |e: &mut Emitter, ptr: Word, binding: u32, name: &str| {
        let v = e.b.variable(ptr, None, StorageClass::StorageBuffer, None);
        e.b.name(v, name);
        e.b.decorate(v, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
        e.b.decorate(v, Decoration::Binding, [Operand::LiteralBit32(binding)]);
        v
    };
    let inputs = buffer(e, read_ptr, 0, "inputs");
    let uniforms = buffer(e, read_ptr, 1, "uniforms");
    let outputs = buffer(e, write_ptr, 2, "outputs");
    let lanes = buffer(e, write_ptr, 3, "lanes");
    let in_ptr = e.b.type_pointer(None, StorageClass::Input, u32_ty);
    let builtin = |e: &mut Emitter, b: BuiltIn, name: &str| {
        let v = e.b.variable(in_ptr, None, StorageClass::Input, None);
        e.b.name(v, name);
        e.b.decorate(v, Decoration::BuiltIn, [Operand::BuiltIn(b)]);
        v
    };
    Ok(Io {
        inputs,
        uniforms,
        outputs,
        lanes,
        word_ptr,
        local_index: builtin(e, BuiltIn::LocalInvocationIndex, "gl_LocalInvocationIndex"),
        subgroup_id: builtin(e, BuiltIn::SubgroupId, "gl_SubgroupID"),
        subgroup_local: builtin(
            e,
            BuiltIn::SubgroupLocalInvocationId,
            "gl_SubgroupInvocationID",
        ),
        subgroup_size: builtin(e, BuiltIn::SubgroupSize, "gl_SubgroupSize"),
        ..Io::default()
    })
}

/// Whether any instruction of the program is `op`.
fn uses(e: &Emitter, op: Op) -> bool {
    let mut found = false;
    e.p.for_each_block(&mut |b| found |= b.instrs.iter().any(|i| i.op == op));
    found
}

impl Emitter<'_> {
    pub(crate) fn load_builtin(&mut self, var: Word) -> Result<Word, ExportError> {
        self.op(SOp::Load, U32, &[var])
    }

    /// A pointer to word `index` of a buffer.
    fn word(&mut self, buffer: Word, index: Word) -> Result<Word, ExportError> {
        let zero = self.u32c(0);
        let ptr = self.io.word_ptr;
        self.op_ty_id(SOp::AccessChain, ptr, &[buffer, zero, index])
    }

    fn store_word(&mut self, buffer: Word, index: Word, value: Word) -> R {
        let p = self.word(buffer, index)?;
        self.b.store(p, value, None, [])?;
        Ok(())
    }

    /// `base + k` (just `base` for k = 0).
    fn offset(&mut self, base: Word, k: u32) -> Result<Word, ExportError> {
        if k == 0 {
            return Ok(base);
        }
        let c = self.u32c(k);
        self.op(SOp::IAdd, U32, &[base, c])
    }

    /// The entry block's start: the invocation index, the lanes row, and
    /// the invocation's input and output rows.
    pub(crate) fn io_prologue(&mut self) -> R {
        let inv = self.load_builtin(self.io.local_index)?;
        self.b.name(inv, "invocation");
        self.io.invocation = inv;
        let four = self.u32c(4);
        let row = self.op(SOp::IMul, U32, &[inv, four])?;
        self.b.name(row, "lanes_row");
        let mut values = Vec::with_capacity(4);
        for (var, name) in [
            (self.io.subgroup_id, "subgroup_id"),
            (self.io.subgroup_local, "subgroup_local_id"),
            (self.io.subgroup_size, "subgroup_size"),
        ] {
            let v = self.load_builtin(var)?;
            self.b.name(v, name);
            values.push(v);
        }
        values.push(self.u32c(1));
        for (k, v) in values.into_iter().enumerate() {
            let at = self.offset(row, k as u32)?;
            self.store_word(self.io.lanes, at, v)?;
        }
        let ni = self.p.inputs.len() as u32;
        if ni > 0 && uses(self, Op::LoadInput) {
            let w = self.u32c(2 * ni);
            self.io.input_row = self.op(SOp::IMul, U32, &[inv, w])?;
            self.b.name(self.io.input_row, "input_row");
        }
        let no = self.p.outputs.len() as u32;
        if no > 0 && uses(self, Op::StoreOutput) {
            let w = self.u32c(4 * no);
            self.io.output_row = self.op(SOp::IMul, U32, &[inv, w])?;
            self.b.name(self.io.output_row, "output_row");
        }
        Ok(())
    }

    /// A slot's value from its low (and, for 64-bit types, high) word.
    fn load_slot(&mut self, buffer: Word, first: Word, ty: SlotType) -> Result<Word, ExportError> {
        let lo_ptr = self.word(buffer, first)?;
        let lo = self.op(SOp::Load, U32, &[lo_ptr])?;
        match ty.bits() {
            1 => {
                let zero = self.u32c(0);
                self.op(SOp::INotEqual, Ty::Bool, &[lo, zero])
            }
            32 => Ok(lo),
            64 => {
                let at = self.offset(first, 1)?;
                let hi_ptr = self.word(buffer, at)?;
                let hi = self.op(SOp::Load, U32, &[hi_ptr])?;
                self.join64(lo, hi)
            }
            n => self.op(SOp::UConvert, Ty::U(n), &[lo]),
        }
    }
}

fn slot_type(types: &[SlotType], i: &Instr) -> Result<SlotType, ExportError> {
    types
        .get(i.imm as usize)
        .copied()
        .ok_or_else(|| ExportError::Internal(format!("slot {} is not declared", i.imm)))
}

pub(crate) fn load_input(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let ty = slot_type(&e.p.inputs, i)?;
    let first = e.offset(e.io.input_row, 2 * i.imm as u32)?;
    let buffer = e.io.inputs;
    let v = e.load_slot(buffer, first, ty)?;
    e.define(d, v, View::Canon)
}

pub(crate) fn load_uniform(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let ty = slot_type(&e.p.uniforms, i)?;
    let first = e.u32c(2 * i.imm as u32);
    let buffer = e.io.uniforms;
    let v = e.load_slot(buffer, first, ty)?;
    e.define(d, v, View::Canon)
}

pub(crate) fn invocation_id(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let v = e.load_builtin(e.io.local_index)?;
    e.define(d, v, View::Canon)
}

pub(crate) fn subgroup_invocation(e: &mut Emitter, i: &Instr) -> R {
    let d = Emitter::dest(i)?;
    let v = e.load_builtin(e.io.subgroup_local)?;
    e.define(d, v, View::Canon)
}

pub(crate) fn store_output(e: &mut Emitter, i: &Instr) -> R {
    let ty = slot_type(&e.p.outputs, i)?;
    let v = e.canon(i.srcs[0])?;
    let (lo, hi) = match ty.bits() {
        1 => {
            let (one, zero) = (e.u32c(1), e.u32c(0));
            (e.select(U32, v, one, zero)?, zero)
        }
        32 => (v, e.u32c(0)),
        64 => e.split64(v)?,
        n => (e.resize(SOp::UConvert, v, n, 32)?, e.u32c(0)),
    };
    let first = e.offset(e.io.output_row, 4 * i.imm as u32)?;
    let out = e.io.outputs;
    e.store_word(out, first, lo)?;
    let at = e.offset(first, 1)?;
    e.store_word(out, at, hi)?;
    let at = e.offset(first, 2)?;
    let one = e.u32c(1);
    e.store_word(out, at, one)
}

/// `demote`, `terminate`, `is_helper_invocation`: `export` refuses a
/// program with one before emitting anything.
pub(crate) fn fragment_only(_: &mut Emitter, i: &Instr) -> R {
    Err(ExportError::FragmentOnly(i.op.name()))
}
