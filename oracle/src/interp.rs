//! The reference interpreter: the meaning of an IR program over a dispatch.
//!
//! Invocations are split into subgroups of the SIMD width under test (the
//! last one may be partial). The lanes of a subgroup run in lockstep with an
//! active mask: both arms of an `if` run in order and the lanes reconverge
//! after it; a loop runs while any lane is still in it, `break` takes lanes
//! out until the loop ends and `continue` until the next iteration. Subgroup
//! ops therefore see exactly the active lanes. Phis pick the source named by
//! the block each lane last came from.

use ir::eval::Args;
use ir::op::{Op, OpClass};
use ir::{Block, CfNode, Dispatch, If, Instr, Jump, Loop, Program, SlotType};
use std::fmt;

/// Interpreter settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterpConfig {
    /// Subgroup width: 8, 16 or 32.
    pub simd: u32,
    /// Instructions (per subgroup) plus loop iterations allowed before `Timeout`.
    pub step_budget: u64,
}

impl Default for InterpConfig {
    fn default() -> Self {
        InterpConfig {
            simd: 16,
            step_budget: 1_000_000,
        }
    }
}

/// Why the interpreter gave no outputs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// The program hit undefined behaviour: the case is invalid, not the compiler.
    #[error("invalid case: `{op}` in invocation {lane}: {reason}")]
    InvalidCase {
        /// The op.
        op: &'static str,
        /// The global invocation index.
        lane: u32,
        /// Why it is undefined.
        reason: &'static str,
    },
    /// The step budget ran out.
    #[error("timeout after {steps} steps")]
    Timeout {
        /// Steps taken.
        steps: u64,
    },
    /// The program does not validate.
    #[error("invalid program: {0}")]
    InvalidProgram(#[from] ir::ValidationError),
    /// The dispatch does not fit the program or the config is impossible.
    #[error("bad dispatch: {0}")]
    BadDispatch(String),
}

/// Per invocation and output slot: the value stored last, or never written.
/// Two outputs are equal when their values are (the step count is how the
/// run went, not what it gave).
#[derive(Clone, Debug)]
pub struct Outputs {
    /// The declared output types.
    pub types: Vec<SlotType>,
    /// Number of invocations.
    pub invocations: u32,
    /// Row-major: `values[inv * types.len() + slot]`.
    pub values: Vec<Option<u64>>,
    /// Steps the run took (instructions per subgroup plus loop
    /// iterations), which bounds the simulator's budget.
    pub steps: u64,
}

impl PartialEq for Outputs {
    fn eq(&self, other: &Self) -> bool {
        (&self.types, self.invocations, &self.values)
            == (&other.types, other.invocations, &other.values)
    }
}

impl Eq for Outputs {}

impl std::hash::Hash for Outputs {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (&self.types, self.invocations, &self.values).hash(h);
    }
}

impl Outputs {
    /// The value of one invocation's slot.
    pub fn get(&self, inv: u32, slot: usize) -> Option<u64> {
        self.values[inv as usize * self.types.len() + slot]
    }
}

impl fmt::Display for Outputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lane")?;
        for (s, t) in self.types.iter().enumerate() {
            write!(f, "\tout{s}:{t}")?;
        }
        writeln!(f)?;
        for inv in 0..self.invocations {
            write!(f, "{inv}")?;
            for (s, t) in self.types.iter().enumerate() {
                match self.get(inv, s) {
                    Some(v) => write!(f, "\t{}", ir::value::format_value(*t, v))?,
                    None => write!(f, "\t-")?,
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Runs `program` over `dispatch`.
pub fn run(
    program: &Program,
    dispatch: &Dispatch,
    config: &InterpConfig,
) -> Result<Outputs, InterpError> {
    run_hooked(program, dispatch, config, &mut NoHook)
}

/// The values of the current subgroup, as a [`Hook`] reads them.
#[derive(Clone, Copy)]
pub(crate) struct Lanes<'a> {
    vals: &'a [u64],
    w: usize,
}

impl Lanes<'_> {
    /// The value of `v` in `lane`.
    pub(crate) fn get(&self, v: ir::ValueId, lane: usize) -> u64 {
        self.vals[v.0 as usize * self.w + lane]
    }
}

/// What a watcher of a run is told, in execution order, for each subgroup
/// (the relaxed run of `crate::relax` is the one watcher). Every method has
/// an empty default, so [`run`] (with [`NoHook`]) compiles to the plain
/// interpreter. Masks are the subgroup's lanes, as the interpreter has them.
pub(crate) trait Hook {
    /// A subgroup starts: its first invocation and its lanes.
    fn subgroup(&mut self, _base: u32, _mask: u32) {}
    /// A block is entered by `mask` (before its phis); `prev` is each lane's
    /// previous block, which names the phi sources taken.
    fn block(&mut self, _b: &Block, _mask: u32, _prev: &[u32; 32]) {}
    /// An instruction ran in `mask` (its result is in `lanes`).
    fn instr(&mut self, _lanes: Lanes<'_>, _i: &Instr, _mask: u32) {}
    /// An `if` is entered by `mask`; the lanes in `taken` run its then-arm.
    fn if_begin(&mut self, _f: &If, _mask: u32, _taken: u32) {}
    /// An `if` is left through its merge by `out`.
    fn if_end(&mut self, _f: &If, _out: u32) {}
    /// The lanes of `mask` leave block `b` by `j`.
    fn jump(&mut self, _b: &Block, _j: Jump, _mask: u32) {}
    /// A loop is entered by `mask`.
    fn loop_begin(&mut self, _l: &Loop, _mask: u32) {}
    /// An iteration starts with `active` lanes.
    fn iteration(&mut self, _l: &Loop, _active: u32) {}
    /// An iteration ended: `fell` reached the body's end, `continued` jumped
    /// to the next iteration.
    fn iteration_end(&mut self, _l: &Loop, _fell: u32, _continued: u32) {}
    /// A loop is left through its merge by `out`.
    fn loop_end(&mut self, _l: &Loop, _out: u32) {}
}

/// The hook of a plain run: nothing.
pub(crate) struct NoHook;

impl Hook for NoHook {}

/// Runs `program` over `dispatch`, telling `hook` what happens.
pub(crate) fn run_hooked<H: Hook>(
    program: &Program,
    dispatch: &Dispatch,
    config: &InterpConfig,
    hook: &mut H,
) -> Result<Outputs, InterpError> {
    ir::validate(program)?;
    dispatch.check(program).map_err(InterpError::BadDispatch)?;
    if !matches!(config.simd, 8 | 16 | 32) {
        return Err(InterpError::BadDispatch(format!(
            "SIMD width must be 8, 16 or 32, not {}",
            config.simd
        )));
    }
    let w = config.simd as usize;
    let nslots = program.outputs.len();
    let mut m = Machine {
        dispatch,
        w,
        bits: program.value_bits(),
        vals: vec![0; program.value_bound() * w],
        cur_block: [u32::MAX; 32],
        prev_block: [u32::MAX; 32],
        loops: Vec::new(),
        base: 0,
        helpers: 0,
        steps: 0,
        budget: config.step_budget,
        outputs: vec![None; dispatch.invocations as usize * nslots],
        nslots,
        hook,
    };
    let mut base = 0u32;
    while base < dispatch.invocations {
        let n = (dispatch.invocations - base).min(config.simd);
        let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        m.base = base;
        m.helpers = 0;
        m.cur_block = [u32::MAX; 32];
        m.hook.subgroup(base, mask);
        m.exec_list(&program.body, mask)?;
        base += config.simd;
    }
    Ok(Outputs {
        types: program.outputs.clone(),
        invocations: dispatch.invocations,
        values: m.outputs,
        steps: m.steps,
    })
}

struct LoopCtx {
    breaks: u32,
    conts: u32,
}

struct Machine<'a, H: Hook> {
    dispatch: &'a Dispatch,
    w: usize,
    bits: Vec<u8>,
    /// `vals[value * w + lane]`.
    vals: Vec<u64>,
    cur_block: [u32; 32],
    prev_block: [u32; 32],
    loops: Vec<LoopCtx>,
    base: u32,
    /// Lanes of the current subgroup that ran `demote`.
    helpers: u32,
    steps: u64,
    budget: u64,
    outputs: Vec<Option<u64>>,
    nslots: usize,
    hook: &'a mut H,
}

fn lanes(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

impl<H: Hook> Machine<'_, H> {
    fn step(&mut self) -> Result<(), InterpError> {
        self.steps += 1;
        if self.steps > self.budget {
            return Err(InterpError::Timeout { steps: self.budget });
        }
        Ok(())
    }

    fn val(&self, v: ir::ValueId, lane: usize) -> u64 {
        self.vals[v.0 as usize * self.w + lane]
    }

    fn set(&mut self, v: ir::ValueId, lane: usize, x: u64) {
        self.vals[v.0 as usize * self.w + lane] = x;
    }

    /// Runs a list with `mask` active; returns the lanes that fall through its end.
    fn exec_list(&mut self, list: &[CfNode], mut mask: u32) -> Result<u32, InterpError> {
        for node in list {
            if mask == 0 {
                break;
            }
            match node {
                CfNode::Block(b) => {
                    mask = self.exec_block(b, mask)?;
                    if mask == 0 {
                        break;
                    }
                    if let Some(j) = b.jump {
                        self.hook.jump(b, j, mask);
                        let ctx = self
                            .loops
                            .last_mut()
                            .expect("validated: jumps are inside loops");
                        match j {
                            Jump::Break => ctx.breaks |= mask,
                            Jump::Continue => ctx.conts |= mask,
                        }
                        mask = 0;
                    }
                }
                CfNode::If(f) => {
                    let mut t = 0u32;
                    for l in lanes(mask) {
                        if self.val(f.cond, l) & 1 == 1 {
                            t |= 1 << l;
                        }
                    }
                    self.hook.if_begin(f, mask, t);
                    let then_out = self.exec_list(&f.then_body, t)?;
                    let else_out = self.exec_list(&f.else_body, mask & !t)?;
                    mask = then_out | else_out;
                    self.hook.if_end(f, mask);
                }
                CfNode::Loop(l) => {
                    self.loops.push(LoopCtx {
                        breaks: 0,
                        conts: 0,
                    });
                    self.hook.loop_begin(l, mask);
                    let mut active = mask;
                    while active != 0 {
                        self.step()?;
                        self.hook.iteration(l, active);
                        let out = self.exec_list(&l.body, active)?;
                        let ctx = self.loops.last_mut().expect("pushed above");
                        let conts = std::mem::take(&mut ctx.conts);
                        self.hook.iteration_end(l, out, conts);
                        active = out | conts;
                    }
                    mask = self.loops.pop().expect("pushed above").breaks;
                    self.hook.loop_end(l, mask);
                }
            }
        }
        Ok(mask)
    }

    /// Runs a block's phis and instructions; returns the lanes still
    /// running at its end (those that did not `terminate`).
    fn exec_block(&mut self, b: &Block, mask: u32) -> Result<u32, InterpError> {
        for l in lanes(mask) {
            self.prev_block[l] = self.cur_block[l];
            self.cur_block[l] = b.id.0;
        }
        self.hook.block(b, mask, &self.prev_block);
        if !b.phis.is_empty() {
            // Phis read their sources together, then write.
            let mut tmp = Vec::with_capacity(b.phis.len() * self.w);
            for p in &b.phis {
                self.step()?;
                for l in lanes(mask) {
                    let pred = self.prev_block[l];
                    let src = p
                        .srcs
                        .iter()
                        .find(|(bb, _)| bb.0 == pred)
                        .map(|(_, v)| *v)
                        .expect("validated: a phi names every predecessor");
                    tmp.push(self.val(src, l));
                }
            }
            let mut k = 0;
            for p in &b.phis {
                for l in lanes(mask) {
                    self.set(p.dest.id, l, tmp[k]);
                    k += 1;
                }
            }
        }
        for instr in &b.instrs {
            self.step()?;
            self.exec_instr(instr, mask)?;
            let lanes = Lanes {
                vals: &self.vals,
                w: self.w,
            };
            self.hook.instr(lanes, instr, mask);
            if instr.op == Op::Terminate {
                // Every lane running here stops, for the rest of the program.
                return Ok(0);
            }
        }
        Ok(mask)
    }

    fn exec_instr(&mut self, i: &Instr, mask: u32) -> Result<(), InterpError> {
        let info = i.op.info();
        let dest = i.dest.map(|d| d.id);
        match info.class {
            OpClass::Const => {
                let d = dest.expect("validated");
                for l in lanes(mask) {
                    self.set(d, l, i.imm);
                }
            }
            OpClass::Alu => {
                let d = dest.expect("validated");
                let eval = info.eval.expect("ALU ops have evaluators");
                let mut args = Args {
                    bits: i.dest.map_or(0, |d| d.bits),
                    ..Args::default()
                };
                for (k, s) in i.srcs.iter().enumerate() {
                    args.src_bits[k] = self.bits[s.0 as usize];
                }
                for l in lanes(mask) {
                    for (k, s) in i.srcs.iter().enumerate() {
                        args.src[k] = self.val(*s, l);
                    }
                    match eval(&args) {
                        Ok(v) => self.set(d, l, v),
                        Err(ub) => {
                            return Err(InterpError::InvalidCase {
                                op: info.name,
                                lane: self.base + l as u32,
                                reason: ub.0,
                            })
                        }
                    }
                }
            }
            OpClass::Io => self.exec_io(i, mask),
            OpClass::Subgroup => self.exec_subgroup(i, mask)?,
        }
        Ok(())
    }

    fn exec_io(&mut self, i: &Instr, mask: u32) {
        match i.op {
            Op::Demote => {
                self.helpers |= mask;
                return;
            }
            Op::Terminate => return,
            _ => {}
        }
        for l in lanes(mask) {
            let inv = self.base + l as u32;
            let v = match i.op {
                Op::LoadInput => self.dispatch.inputs[i.imm as usize][inv as usize],
                Op::LoadUniform => self.dispatch.uniforms[i.imm as usize],
                Op::InvocationId => inv as u64,
                Op::SubgroupInvocation => l as u64,
                Op::IsHelperInvocation => (self.helpers >> l & 1) as u64,
                Op::StoreOutput if self.helpers >> l & 1 == 1 => continue,
                Op::StoreOutput => {
                    let x = self.val(i.srcs[0], l);
                    self.outputs[inv as usize * self.nslots + i.imm as usize] = Some(x);
                    continue;
                }
                other => unreachable!("{} is not an I/O op", other.name()),
            };
            self.set(i.dest.expect("loads define a value").id, l, v);
        }
    }

    /// A quad op or derivative (seed 004): each lane reads lanes of its
    /// quad, which must be active (for a derivative, all four must be).
    fn exec_quad(&mut self, i: &Instr, mask: u32) -> Result<(), InterpError> {
        use ir::quad::QuadRead;
        let d = i.dest.expect("quad ops define a value");
        let invalid = |m: &Self, l: usize, reason: &'static str| InterpError::InvalidCase {
            op: i.op.name(),
            lane: m.base + l as u32,
            reason,
        };
        let index = match i.op {
            Op::QuadBroadcast => {
                let first = mask.trailing_zeros() as usize;
                let idx = self.val(i.srcs[1], first);
                if let Some(l) = lanes(mask).find(|&l| self.val(i.srcs[1], l) != idx) {
                    return Err(invalid(
                        self,
                        l,
                        "the lane index differs between active lanes",
                    ));
                }
                if idx >= 4 {
                    return Err(invalid(self, first, "the lane index is 4 or more"));
                }
                idx
            }
            _ => 0,
        };
        let active = |l: usize| mask & (1 << l) != 0;
        for l in lanes(mask) {
            // SSA: the result is not the source, so lanes written earlier
            // do not change what later lanes read.
            let v = match ir::quad::read(i.op, l, index).expect("a quad op") {
                QuadRead::Lane(r) if active(r) => self.val(i.srcs[0], r),
                QuadRead::Lane(_) => return Err(invalid(self, l, "the lane read is not active")),
                QuadRead::Difference { plus, minus } => {
                    let quad = ir::quad::quad_base(l);
                    if (quad..quad + 4).any(|q| !active(q)) {
                        let reason = "a lane of the quad is not active (non-uniform control flow)";
                        return Err(invalid(self, l, reason));
                    }
                    let a = i.srcs[0];
                    ir::quad::difference(self.val(a, plus), self.val(a, minus))
                }
            };
            self.set(d.id, l, v);
        }
        Ok(())
    }

    fn exec_subgroup(&mut self, i: &Instr, mask: u32) -> Result<(), InterpError> {
        if i.op.reads_quad() {
            return self.exec_quad(i, mask);
        }
        let d = i.dest.expect("subgroup ops define a value");
        let first = mask.trailing_zeros() as usize;
        let src = |m: &Self, l: usize| m.val(i.srcs[0], l);
        let uniform_result = match i.op {
            Op::Ballot => {
                let mut b = 0u64;
                for l in lanes(mask) {
                    if src(self, l) & 1 == 1 {
                        b |= 1 << l;
                    }
                }
                Some(b & ir::types::mask(d.bits))
            }
            Op::VoteAny => Some(lanes(mask).any(|l| src(self, l) & 1 == 1) as u64),
            Op::VoteAll => Some(lanes(mask).all(|l| src(self, l) & 1 == 1) as u64),
            Op::VoteIeq => {
                let x = src(self, first);
                Some(lanes(mask).all(|l| src(self, l) == x) as u64)
            }
            Op::ReadFirstInvocation => Some(src(self, first)),
            Op::ReadInvocation => {
                let idx = self.val(i.srcs[1], first);
                let name = i.op.name();
                if let Some(l) = lanes(mask).find(|&l| self.val(i.srcs[1], l) != idx) {
                    let reason = "the lane index differs between active lanes";
                    return Err(InterpError::InvalidCase {
                        op: name,
                        lane: self.base + l as u32,
                        reason,
                    });
                }
                if idx >= 32 || mask & (1 << idx) == 0 {
                    let reason = "the lane read is not active";
                    return Err(InterpError::InvalidCase {
                        op: name,
                        lane: self.base + first as u32,
                        reason,
                    });
                }
                Some(src(self, idx as usize))
            }
            Op::Elect => None,
            other => unreachable!("{} is not a subgroup op", other.name()),
        };
        for l in lanes(mask) {
            let v = uniform_result.unwrap_or((l == first) as u64);
            self.set(d.id, l, v);
        }
        Ok(())
    }
}
