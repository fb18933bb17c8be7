//! The emitter's core: types and constants (deduplicated), the IR value
//! table with its canonical and float views, instruction helpers, and the
//! module's frame (header, capabilities, entry point, execution modes).

use crate::mapping::{self, Reads};
use crate::{io, ExportError, ExportOptions, Features, FloatControls, Module};
use ir::op::Sig;
use ir::{BlockMap, Def, Instr, Program, ValueId, ValueMap};
use rspirv::dr::{self, Builder, InsertPoint, Operand};
use rspirv::spirv::{self, Capability, GLOp, Op as SOp, Word};
use std::collections::HashMap;

/// A SPIR-V type the exporter uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ty {
    /// `void`.
    Void,
    /// `bool`, the canonical type of 1-bit values.
    Bool,
    /// The unsigned integer of a width, the canonical type of other values.
    U(u8),
    /// The float of a width (16, 32, 64), a float view.
    F(u8),
    /// `uvec4`, a ballot.
    U32x4,
    /// `struct { uN, uN }`, the result of `OpSMulExtended`/`OpUMulExtended`.
    Pair(u8),
    /// `void main()`'s function type.
    MainFn,
}

/// How an instruction reads a value: as its canonical type or as a float.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum View {
    /// `bool` or the unsigned integer of the value's size.
    Canon,
    /// The float of the value's size.
    Float,
}

/// One IR value's SPIR-V ids.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    bits: u8,
    canon: Option<Word>,
    float: Option<Word>,
    /// A `load_const` value's bits: its views are module constants.
    konst: Option<u64>,
}

/// Which views of a value some use reads (computed before emission, so that
/// each view is made once, next to the definition, where it dominates every
/// use, including phi sources on back edges).
#[derive(Clone, Copy, Debug, Default)]
struct Needs {
    canon: bool,
    float: bool,
}

/// Builds one module.
pub(crate) struct Emitter<'p> {
    pub(crate) b: Builder,
    pub(crate) p: &'p Program,
    pub(crate) opts: ExportOptions,
    glsl: Option<Word>,
    types: HashMap<Ty, Word>,
    consts: HashMap<(Ty, u64), Word>,
    undefs: HashMap<Ty, Word>,
    vals: ValueMap<Slot>,
    needs: ValueMap<Needs>,
    pub(crate) feats: Features,
    /// Whether some float type is declared (float modes are requested then).
    uses_float: bool,
    pub(crate) io: io::Io,
    /// The label of each IR block (a loop header's is its loop header block).
    pub(crate) labels: BlockMap<Word>,
    /// A loop header's second label: the block holding its instructions.
    pub(crate) body_labels: BlockMap<Word>,
}

impl<'p> Emitter<'p> {
    pub(crate) fn new(p: &'p Program, opts: &ExportOptions) -> Emitter<'p> {
        let mut b = Builder::new();
        b.set_version(1, 3);
        Emitter {
            b,
            p,
            opts: *opts,
            glsl: None,
            types: HashMap::new(),
            consts: HashMap::new(),
            undefs: HashMap::new(),
            vals: ValueMap::with_bound(p.value_bound()),
            needs: ValueMap::with_bound(p.value_bound()),
            feats: Features {
                subgroup_basic: true,
                ..Features::default()
            },
            uses_float: false,
            io: io::Io::default(),
            labels: BlockMap::with_bound(p.block_bound()),
            body_labels: BlockMap::with_bound(p.block_bound()),
        }
    }

    /// Emits the whole module.
    pub(crate) fn run(mut self) -> Result<Module, ExportError> {
        self.b
            .memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
        self.analyze();
        self.io = io::declare(&mut self)?;
        let void = self.ty(Ty::Void);
        let fn_ty = self.ty(Ty::MainFn);
        let main = self
            .b
            .begin_function(void, None, spirv::FunctionControl::NONE, fn_ty)?;
        self.b.name(main, "main");
        self.emit_body()?;
        self.b.end_function()?;

        let interface = self.io.interface();
        self.b
            .entry_point(spirv::ExecutionModel::GLCompute, main, "main", interface);
        self.b.execution_mode(
            main,
            spirv::ExecutionMode::LocalSize,
            [self.opts.invocations, 1, 1],
        );
        if self.feats.compute_derivatives {
            if !self.opts.invocations.is_multiple_of(4) {
                return Err(ExportError::PartialQuad(self.opts.invocations));
            }
            self.b.extension(self.opts.derivatives.spirv_name());
            self.b
                .execution_mode(main, spirv::ExecutionMode::DerivativeGroupLinearNV, []);
        }
        let float_controls = self.float_modes(main);
        self.capabilities(&float_controls);
        self.reconvergence(main);
        let module = self.b.module();
        use rspirv::binary::Assemble;
        Ok(Module {
            words: module.assemble(),
            entry_point: "main",
            invocations: self.opts.invocations,
            input_slots: self.p.inputs.len() as u32,
            uniform_slots: self.p.uniforms.len() as u32,
            output_slots: self.p.outputs.len() as u32,
            features: self.feats,
            float_controls,
        })
    }

    /// Requests the float modes of the options, at every width, if the
    /// module has a float type at all. Every width, not just the ones used:
    /// with `denormBehaviorIndependence` or `roundingModeIndependence` below
    /// `ALL`, Vulkan wants the same mode at 16 and 64 bits (or at all
    /// widths), which the caller's request satisfies and a subset of it may
    /// not.
    fn float_modes(&mut self, main: Word) -> FloatControls {
        if !self.uses_float {
            return FloatControls::none();
        }
        let want = self.opts.float_controls;
        for (mode, on) in [
            (
                spirv::ExecutionMode::SignedZeroInfNanPreserve,
                (|m| m.signed_zero_inf_nan_preserve) as fn(&crate::FloatModes) -> bool,
            ),
            (spirv::ExecutionMode::DenormPreserve, |m| m.denorm_preserve),
            (spirv::ExecutionMode::RoundingModeRTE, |m| {
                m.rounding_mode_rte
            }),
        ] {
            for bits in [16u32, 32, 64] {
                if on(&want.width(bits as u8)) {
                    self.b.execution_mode(main, mode, [bits]);
                }
            }
        }
        want
    }

    /// Declares the capabilities (and the float-controls extension) used.
    fn capabilities(&mut self, fc: &FloatControls) {
        let f = self.feats;
        let any = |sel: fn(&crate::FloatModes) -> bool| [fc.f16, fc.f32, fc.f64].iter().any(sel);
        let caps = [
            (true, Capability::Shader),
            (f.int8, Capability::Int8),
            (f.int16, Capability::Int16),
            (f.int64, Capability::Int64),
            (f.float16, Capability::Float16),
            (f.float64, Capability::Float64),
            (true, Capability::GroupNonUniform),
            (f.subgroup_vote, Capability::GroupNonUniformVote),
            (f.subgroup_ballot, Capability::GroupNonUniformBallot),
            (f.subgroup_shuffle, Capability::GroupNonUniformShuffle),
            (f.subgroup_quad, Capability::GroupNonUniformQuad),
            // SPV_KHR_compute_shader_derivatives's values are the NV ones.
            (
                f.compute_derivatives,
                Capability::ComputeDerivativeGroupLinearNV,
            ),
            (f.compute_derivatives, Capability::DerivativeControl),
            (
                any(|m| m.signed_zero_inf_nan_preserve),
                Capability::SignedZeroInfNanPreserve,
            ),
            (any(|m| m.denorm_preserve), Capability::DenormPreserve),
            (any(|m| m.rounding_mode_rte), Capability::RoundingModeRTE),
        ];
        for (on, cap) in caps {
            if on {
                self.b.capability(cap);
            }
        }
        if [fc.f16, fc.f32, fc.f64].iter().any(|m| m.any()) {
            self.feats.float_controls = true;
            self.b.extension("SPV_KHR_float_controls");
        }
    }

    /// Requests the options' reconvergence guarantee.
    fn reconvergence(&mut self, main: Word) {
        match self.opts.reconvergence {
            crate::Reconvergence::Default => {}
            crate::Reconvergence::SubgroupUniform => {
                self.feats.subgroup_uniform_control_flow = true;
                self.b.extension("SPV_KHR_subgroup_uniform_control_flow");
                self.b.execution_mode(
                    main,
                    spirv::ExecutionMode::SubgroupUniformControlFlowKHR,
                    [],
                );
            }
            crate::Reconvergence::Maximal => {
                self.feats.maximal_reconvergence = true;
                self.b.extension("SPV_KHR_maximal_reconvergence");
                self.b
                    .module_mut()
                    .execution_modes
                    .push(rspirv::dr::Instruction::new(
                        spirv::Op::ExecutionMode,
                        None,
                        None,
                        vec![
                            rspirv::dr::Operand::IdRef(main),
                            rspirv::dr::Operand::LiteralBit32(crate::MAXIMALLY_RECONVERGES_KHR),
                        ],
                    ));
            }
        }
    }

    // ---- the value table ----

    /// Which sources of `i` an op reads as values (the rest are a shift
    /// count, byte or lane index, or a select condition, read canonically).
    fn value_srcs(i: &Instr) -> std::ops::Range<usize> {
        match i.op.info().sig {
            Sig::Indexed { .. } => 0..1,
            Sig::Select { .. } => 1..3,
            _ => 0..i.srcs.len(),
        }
    }

    /// Records which views of every value its uses read.
    fn analyze(&mut self) {
        let mut needs = std::mem::take(&mut self.needs);
        let mut mark = |v: ValueId, view: View| {
            if needs.get(v).is_none() {
                needs.insert(v, Needs::default());
            }
            let n = needs.get_mut(v).expect("inserted above");
            match view {
                View::Canon => n.canon = true,
                View::Float => n.float = true,
            }
        };
        let mut conds = Vec::new();
        collect_conds(&self.p.body, &mut conds);
        for c in conds {
            mark(c, View::Canon);
        }
        self.p.for_each_block(&mut |b| {
            for phi in &b.phis {
                for &(_, v) in &phi.srcs {
                    mark(v, View::Canon);
                }
            }
            for i in &b.instrs {
                let reads = mapping::row(i.op).reads;
                let values = Self::value_srcs(i);
                for (k, &s) in i.srcs.iter().enumerate() {
                    if !values.contains(&k) {
                        mark(s, View::Canon);
                        continue;
                    }
                    match reads {
                        Reads::Canon => mark(s, View::Canon),
                        Reads::Float => mark(s, View::Float),
                        Reads::Both => {
                            mark(s, View::Canon);
                            mark(s, View::Float);
                        }
                    }
                }
            }
        });
        self.needs = needs;
    }

    fn needs(&self, v: ValueId) -> Needs {
        self.needs.get(v).copied().unwrap_or_default()
    }

    /// The id of a value as the view `view`.
    pub(crate) fn get(&mut self, v: ValueId, view: View) -> Result<Word, ExportError> {
        let slot = self
            .vals
            .get(v)
            .copied()
            .ok_or_else(|| ExportError::Internal(format!("{v} used before it is emitted")))?;
        let id = match view {
            View::Canon => slot.canon,
            View::Float => match (slot.float, slot.konst) {
                (Some(f), _) => Some(f),
                (None, Some(k)) => Some(self.fconst(slot.bits, k)),
                (None, None) => None,
            },
        };
        id.ok_or_else(|| {
            ExportError::Internal(format!(
                "{v} has no {view:?} view: the mapping table's reads column \
                 disagrees with its emitter"
            ))
        })
    }

    /// The canonical id of a value.
    pub(crate) fn canon(&mut self, v: ValueId) -> Result<Word, ExportError> {
        self.get(v, View::Canon)
    }

    /// The float id of a value.
    pub(crate) fn float(&mut self, v: ValueId) -> Result<Word, ExportError> {
        self.get(v, View::Float)
    }

    /// Records `id` as `def`'s `view`, names it, and makes the other view if
    /// some use needs it.
    pub(crate) fn define(&mut self, def: Def, id: Word, view: View) -> Result<(), ExportError> {
        self.define_only(def, id, view);
        self.derive_views(def.id)
    }

    /// Records and names a definition without deriving the other view (phis:
    /// the bitcasts must follow every phi of the block).
    pub(crate) fn define_only(&mut self, def: Def, id: Word, view: View) {
        let mut slot = Slot {
            bits: def.bits,
            ..Slot::default()
        };
        let n = def.id.0;
        match view {
            View::Canon => {
                slot.canon = Some(id);
                self.b.name(id, format!("v{n}"));
            }
            View::Float => {
                slot.float = Some(id);
                self.b.name(id, format!("v{n}_f"));
            }
        }
        self.vals.insert(def.id, slot);
    }

    /// Makes the view of `v` that some use needs and its definition lacks.
    pub(crate) fn derive_views(&mut self, v: ValueId) -> Result<(), ExportError> {
        let need = self.needs(v);
        let slot = *self.vals.get(v).expect("defined before deriving");
        let n = v.0;
        if need.float && slot.float.is_none() {
            let c = slot.canon.expect("a value has a view");
            let f = self.op(SOp::Bitcast, Ty::F(slot.bits), &[c])?;
            self.b.name(f, format!("v{n}_f"));
            self.vals.get_mut(v).expect("defined").float = Some(f);
        }
        if need.canon && slot.canon.is_none() {
            let f = slot.float.expect("a value has a view");
            let c = self.op(SOp::Bitcast, Ty::U(slot.bits), &[f])?;
            self.b.name(c, format!("v{n}"));
            self.vals.get_mut(v).expect("defined").canon = Some(c);
        }
        Ok(())
    }

    /// Defines a `load_const` value: its views are module constants.
    pub(crate) fn define_const(&mut self, def: Def, imm: u64) {
        let canon = if def.bits == 1 {
            self.bconst(imm & 1 == 1)
        } else {
            self.uconst(def.bits, imm)
        };
        self.vals.insert(
            def.id,
            Slot {
                bits: def.bits,
                canon: Some(canon),
                float: None,
                konst: Some(imm),
            },
        );
    }

    /// The canonical type of a value size.
    pub(crate) fn canon_ty(bits: u8) -> Ty {
        if bits == 1 {
            Ty::Bool
        } else {
            Ty::U(bits)
        }
    }

    // ---- types and constants ----

    /// The id of a type, declared on first use.
    pub(crate) fn ty(&mut self, t: Ty) -> Word {
        if let Some(&id) = self.types.get(&t) {
            return id;
        }
        let id = match t {
            Ty::Void => self.b.type_void(),
            Ty::Bool => self.b.type_bool(),
            Ty::U(bits) => {
                match bits {
                    8 => self.feats.int8 = true,
                    16 => self.feats.int16 = true,
                    64 => self.feats.int64 = true,
                    _ => {}
                }
                self.b.type_int(bits as u32, 0)
            }
            Ty::F(bits) => {
                match bits {
                    16 => self.feats.float16 = true,
                    64 => self.feats.float64 = true,
                    _ => {}
                }
                self.uses_float = true;
                self.b.type_float(bits as u32)
            }
            Ty::U32x4 => {
                let u = self.ty(Ty::U(32));
                self.b.type_vector(u, 4)
            }
            Ty::Pair(bits) => {
                let u = self.ty(Ty::U(bits));
                self.b.type_struct([u, u])
            }
            Ty::MainFn => {
                let v = self.ty(Ty::Void);
                self.b.type_function(v, [])
            }
        };
        self.types.insert(t, id);
        id
    }

    fn constant(&mut self, t: Ty, bits: u64) -> Word {
        if let Some(&id) = self.consts.get(&(t, bits)) {
            return id;
        }
        let ty = self.ty(t);
        let id = match t {
            Ty::Bool if bits != 0 => self.b.constant_true(ty),
            Ty::Bool => self.b.constant_false(ty),
            Ty::U(64) | Ty::F(64) => self.b.constant_bit64(ty, bits),
            _ => self.b.constant_bit32(ty, bits as u32),
        };
        self.consts.insert((t, bits), id);
        id
    }

    /// An unsigned constant of a width (the value masked to it).
    pub(crate) fn uconst(&mut self, bits: u8, v: u64) -> Word {
        self.constant(Ty::U(bits), v & ir::types::mask(bits))
    }

    /// A 32-bit unsigned constant.
    pub(crate) fn u32c(&mut self, v: u32) -> Word {
        self.uconst(32, v as u64)
    }

    /// A float constant of a width, given its bits.
    pub(crate) fn fconst(&mut self, bits: u8, v: u64) -> Word {
        self.constant(Ty::F(bits), v & ir::types::mask(bits))
    }

    /// `true` or `false`.
    pub(crate) fn bconst(&mut self, v: bool) -> Word {
        self.constant(Ty::Bool, v as u64)
    }

    /// A module-level `OpUndef` of a type.
    pub(crate) fn undef(&mut self, t: Ty) -> Word {
        if let Some(&id) = self.undefs.get(&t) {
            return id;
        }
        let ty = self.ty(t);
        let id = self.b.id();
        self.b
            .module_mut()
            .types_global_values
            .push(dr::Instruction::new(SOp::Undef, Some(ty), Some(id), vec![]));
        self.undefs.insert(t, id);
        id
    }

    // ---- instructions ----

    /// Appends `%r = op %ty operands...` to the current block.
    pub(crate) fn op_operands(
        &mut self,
        op: SOp,
        t: Ty,
        operands: Vec<Operand>,
    ) -> Result<Word, ExportError> {
        let ty = self.ty(t);
        let id = self.b.id();
        self.b.insert_into_block(
            InsertPoint::End,
            dr::Instruction::new(op, Some(ty), Some(id), operands),
        )?;
        Ok(id)
    }

    /// Appends `%r = op ids...` with a result type given by id (pointers).
    pub(crate) fn op_ty_id(
        &mut self,
        op: SOp,
        ty: Word,
        ids: &[Word],
    ) -> Result<Word, ExportError> {
        let id = self.b.id();
        let operands = ids.iter().map(|&i| Operand::IdRef(i)).collect();
        self.b.insert_into_block(
            InsertPoint::End,
            dr::Instruction::new(op, Some(ty), Some(id), operands),
        )?;
        Ok(id)
    }

    /// Appends `%r = op %ty ids...` to the current block.
    pub(crate) fn op(&mut self, op: SOp, t: Ty, ids: &[Word]) -> Result<Word, ExportError> {
        self.op_operands(op, t, ids.iter().map(|&i| Operand::IdRef(i)).collect())
    }

    /// A GLSL.std.450 extended instruction.
    pub(crate) fn ext(&mut self, gl: GLOp, t: Ty, ids: &[Word]) -> Result<Word, ExportError> {
        let set = match self.glsl {
            Some(s) => s,
            None => {
                let s = self.b.ext_inst_import("GLSL.std.450");
                self.glsl = Some(s);
                s
            }
        };
        let mut operands = vec![
            Operand::IdRef(set),
            Operand::LiteralExtInstInteger(gl as u32),
        ];
        operands.extend(ids.iter().map(|&i| Operand::IdRef(i)));
        self.op_operands(SOp::ExtInst, t, operands)
    }

    /// `OpCompositeExtract` of one member.
    pub(crate) fn extract(
        &mut self,
        t: Ty,
        composite: Word,
        index: u32,
    ) -> Result<Word, ExportError> {
        self.op_operands(
            SOp::CompositeExtract,
            t,
            vec![Operand::IdRef(composite), Operand::LiteralBit32(index)],
        )
    }

    /// `c ? a : b` of type `t`.
    pub(crate) fn select(&mut self, t: Ty, c: Word, a: Word, b: Word) -> Result<Word, ExportError> {
        self.op(SOp::Select, t, &[c, a, b])
    }

    /// `a` converted between integer widths (`op` is `OpUConvert` or
    /// `OpSConvert`); the same width is the identity (SPIR-V forbids a
    /// same-width conversion).
    pub(crate) fn resize(
        &mut self,
        op: SOp,
        a: Word,
        from: u8,
        to: u8,
    ) -> Result<Word, ExportError> {
        if from == to {
            Ok(a)
        } else {
            self.op(op, Ty::U(to), &[a])
        }
    }

    /// The canonical quiet NaN of a float width, as a float constant.
    pub(crate) fn nan_f(&mut self, bits: u8) -> Word {
        self.fconst(bits, ir::float::canonical_nan(bits))
    }

    /// The canonical quiet NaN of a float width, as an integer constant.
    pub(crate) fn nan_u(&mut self, bits: u8) -> Word {
        self.uconst(bits, ir::float::canonical_nan(bits))
    }

    /// `isnan(r) ? canonical NaN : r` for a float `r`: SPIR-V leaves a NaN
    /// result's payload and sign to the implementation, the IR does not.
    pub(crate) fn canonicalize(&mut self, bits: u8, r: Word) -> Result<Word, ExportError> {
        let n = self.op(SOp::IsNan, Ty::Bool, &[r])?;
        let nan = self.nan_f(bits);
        self.select(Ty::F(bits), n, nan, r)
    }

    /// Splits a 64-bit canonical value into its low and high 32-bit words.
    pub(crate) fn split64(&mut self, v: Word) -> Result<(Word, Word), ExportError> {
        let lo = self.op(SOp::UConvert, Ty::U(32), &[v])?;
        let c32 = self.uconst(64, 32);
        let sh = self.op(SOp::ShiftRightLogical, Ty::U(64), &[v, c32])?;
        let hi = self.op(SOp::UConvert, Ty::U(32), &[sh])?;
        Ok((lo, hi))
    }

    /// Joins two 32-bit words into a 64-bit value.
    pub(crate) fn join64(&mut self, lo: Word, hi: Word) -> Result<Word, ExportError> {
        let lo64 = self.op(SOp::UConvert, Ty::U(64), &[lo])?;
        let hi64 = self.op(SOp::UConvert, Ty::U(64), &[hi])?;
        let c32 = self.uconst(64, 32);
        let sh = self.op(SOp::ShiftLeftLogical, Ty::U(64), &[hi64, c32])?;
        self.op(SOp::BitwiseOr, Ty::U(64), &[sh, lo64])
    }

    /// The destination of an instruction that defines a value.
    pub(crate) fn dest(i: &Instr) -> Result<Def, ExportError> {
        i.dest
            .ok_or_else(|| ExportError::Internal(format!("`{}` has no destination", i.op.name())))
    }

    /// The bit size of a defined value.
    pub(crate) fn bits_of(&self, v: ValueId) -> Result<u8, ExportError> {
        self.vals
            .get(v)
            .map(|s| s.bits)
            .ok_or_else(|| ExportError::Internal(format!("{v} used before it is emitted")))
    }
}

/// Every `if` condition of a control-flow list.
fn collect_conds(list: &[ir::CfNode], out: &mut Vec<ValueId>) {
    for n in list {
        match n {
            ir::CfNode::Block(_) => {}
            ir::CfNode::If(f) => {
                out.push(f.cond);
                collect_conds(&f.then_body, out);
                collect_conds(&f.else_body, out);
            }
            ir::CfNode::Loop(l) => collect_conds(&l.body, out),
        }
    }
}
