//! Algebraic rewrites, modelling NIR's `nir_opt_algebraic`: one table of
//! (name, search pattern, condition, replacement) rules.
//!
//! Every rule is exact under ir/OPS.md at every bit size the ops allow:
//! integer arithmetic wraps, shift counts are masked to the operand width,
//! booleans are 1-bit values. Float rules only touch the sign bit or
//! saturate twice, so they are bit-exact for NaN payloads and -0 too; there
//! is no `fadd x, 0.0`, `fmul x, 1.0` or anything else that changes NaNs,
//! the sign of zero or rounding.
//!
//! Pattern text: `op(arg, ...)` matches an instruction with that op (both
//! source orders for a commutative op); `a` is any value (a name used twice
//! must be the same value); `#c` only a `load_const`; a number matches a
//! constant with that value at the source's size (`-1` is all ones), `true`
//! and `false` 1-bit constants; `t=op(...)` also names the matched value.
//! In a replacement a name is the value it matched, a number a new constant
//! at the size its position needs, and an op a new instruction inserted
//! before the rewritten one (constant operands are left to const-fold).
//! The rewritten instruction keeps its value id, or, when the replacement is
//! a matched value, its uses are rewritten to that value. The pass repeats
//! until no rule applies; dead leftovers are DCE's.

/// The pass's decision points (`crate::coverage`).
#[path = "algebraic_cov.rs"]
pub mod cov;

use super::{Defs, Node, Subst};
use crate::bugs::Bug;
use crate::coverage::{hit, Point};
use crate::passes::IrCtx;
use ir::types::mask;
use ir::{Instr, Op, OpClass, Program, Sig, ValueId};
use std::sync::OnceLock;

/// A rule's extra condition on what the pattern matched.
type Cond = fn(&Match, &IrCtx) -> bool;

/// One rewrite rule.
pub struct Rule {
    /// Its name (for tests and dumps).
    pub name: &'static str,
    /// The pattern an instruction must match.
    pub search: &'static str,
    /// A condition on the match, if any.
    pub cond: Option<Cond>,
    /// What the instruction becomes.
    pub replace: &'static str,
}

const fn r(name: &'static str, search: &'static str, replace: &'static str) -> Rule {
    Rule {
        name,
        search,
        cond: None,
        replace,
    }
}

const fn rc(name: &'static str, search: &'static str, cond: Cond, replace: &'static str) -> Rule {
    Rule {
        name,
        search,
        cond: Some(cond),
        replace,
    }
}

/// The rules, tried in order on every ALU instruction; the first that
/// matches (and whose condition holds) is applied.
pub static RULES: &[Rule] = &[
    // Integer arithmetic (wrapping, so exact at every size).
    r("iadd-zero", "iadd(a, 0)", "a"),
    r("isub-zero", "isub(a, 0)", "a"),
    r("isub-self", "isub(a, a)", "0"),
    r("isub-from-zero", "isub(0, a)", "ineg(a)"),
    r("iadd-ineg", "iadd(a, ineg(b))", "isub(a, b)"),
    r("isub-ineg", "isub(a, ineg(b))", "iadd(a, b)"),
    r("ineg-isub", "ineg(isub(a, b))", "isub(b, a)"),
    r("ineg-ineg", "ineg(ineg(a))", "a"),
    r("imul-one", "imul(a, 1)", "a"),
    r("imul-zero", "imul(a, 0)", "0"),
    r("imul-minus-one", "imul(a, -1)", "ineg(a)"),
    r("iabs-iabs", "iabs(iabs(a))", "iabs(a)"),
    r("iabs-ineg", "iabs(ineg(a))", "iabs(a)"),
    r("imin-self", "imin(a, a)", "a"),
    r("imax-self", "imax(a, a)", "a"),
    r("umin-self", "umin(a, a)", "a"),
    r("umax-self", "umax(a, a)", "a"),
    r("umin-zero", "umin(a, 0)", "0"),
    r("umax-zero", "umax(a, 0)", "a"),
    r("umin-ones", "umin(a, -1)", "a"),
    r("umax-ones", "umax(a, -1)", "-1"),
    // Bitwise logic (also boolean logic at 1 bit, where -1 is true).
    r("inot-inot", "inot(inot(a))", "a"),
    r("iand-self", "iand(a, a)", "a"),
    r("iand-zero", "iand(a, 0)", "0"),
    r("iand-ones", "iand(a, -1)", "a"),
    r("iand-inot-self", "iand(a, inot(a))", "0"),
    r("ior-self", "ior(a, a)", "a"),
    r("ior-zero", "ior(a, 0)", "a"),
    r("ior-ones", "ior(a, -1)", "-1"),
    r("ior-inot-self", "ior(a, inot(a))", "-1"),
    r("ixor-self", "ixor(a, a)", "0"),
    r("ixor-zero", "ixor(a, 0)", "a"),
    r("ixor-inot-self", "ixor(a, inot(a))", "-1"),
    // Shifts: the count is masked to the width, so a multiple of it is 0.
    rc("ishl-by-zero", "ishl(a, #s)", count_is_zero, "a"),
    rc("ishr-by-zero", "ishr(a, #s)", count_is_zero, "a"),
    rc("ushr-by-zero", "ushr(a, #s)", count_is_zero, "a"),
    r("ishl-of-zero", "ishl(0, a)", "0"),
    r("ishr-of-zero", "ishr(0, a)", "0"),
    r("ushr-of-zero", "ushr(0, a)", "0"),
    r("ishr-of-ones", "ishr(-1, a)", "-1"),
    // Seed 003: the rewrite that hides an open-coded BFI from a matcher.
    r(
        "iand-ishl",
        "iand(ishl(a, s), ishl(b, s))",
        "ishl(iand(a, b), s)",
    ),
    r(
        "ior-ishl",
        "ior(ishl(a, s), ishl(b, s))",
        "ishl(ior(a, b), s)",
    ),
    r(
        "ixor-ishl",
        "ixor(ishl(a, s), ishl(b, s))",
        "ishl(ixor(a, b), s)",
    ),
    r(
        "iand-ushr",
        "iand(ushr(a, s), ushr(b, s))",
        "ushr(iand(a, b), s)",
    ),
    // Integer and boolean comparisons of a value with itself.
    r("ieq-self", "ieq(a, a)", "true"),
    r("ine-self", "ine(a, a)", "false"),
    r("ilt-self", "ilt(a, a)", "false"),
    r("ige-self", "ige(a, a)", "true"),
    r("ult-self", "ult(a, a)", "false"),
    r("uge-self", "uge(a, a)", "true"),
    // Booleans.
    r("ieq-true", "ieq(a, true)", "a"),
    r("ine-false", "ine(a, false)", "a"),
    r("ieq-false", "ieq(a, false)", "inot(a)"),
    r("ine-true", "ine(a, true)", "inot(a)"),
    r("i2b-b2i", "i2b(b2i(a))", "a"),
    r("ine-b2i-zero", "ine(b2i(a), 0)", "a"),
    r("ieq-b2i-zero", "ieq(b2i(a), 0)", "inot(a)"),
    r("iand-b2i-one", "iand(t=b2i(a), 1)", "t"),
    r("bcsel-same", "bcsel(c, a, a)", "a"),
    r("bcsel-true", "bcsel(true, a, b)", "a"),
    r("bcsel-false", "bcsel(false, a, b)", "b"),
    r("bcsel-inot", "bcsel(inot(c), a, b)", "bcsel(c, b, a)"),
    r("bcsel-to-cond", "bcsel(c, true, false)", "c"),
    r("bcsel-to-inot", "bcsel(c, false, true)", "inot(c)"),
    // Conversions: a widening first step loses nothing.
    rc("u2u-u2u", "u2u(t=u2u(a))", first_step_widens, "u2u(a)"),
    rc("i2i-i2i", "i2i(t=i2i(a))", first_step_widens, "i2i(a)"),
    // Floats: sign-bit ops and saturation only (bit-exact, NaNs included).
    r("fneg-fneg", "fneg(fneg(a))", "a"),
    r("fabs-fneg", "fabs(fneg(a))", "fabs(a)"),
    r("fabs-fabs", "fabs(fabs(a))", "fabs(a)"),
    r("fsat-fsat", "fsat(fsat(a))", "fsat(a)"),
    r("fabs-fsat", "fabs(fsat(a))", "fsat(a)"),
    r("fsat-fneg-fabs", "fsat(fneg(fabs(a)))", "0"),
    // Bitfield inserts (seed 003, issue #11695).
    r("bfi-zero-mask", "bfi(0, a, b)", "b"),
    r("bfi-full-mask", "bfi(-1, a, b)", "a"),
    r("bfi-zero-insert", "bfi(m, 0, b)", "iand(b, inot(m))"),
    rc(
        "iand-bfi-field-kept",
        "iand(bfi(#m, a, #b), #c)",
        field_kept,
        "bfi(m, a, iand(b, c))",
    ),
    rc(
        "iand-bfi-outside-field",
        "iand(bfi(#m, a, b), #c)",
        field_cleared,
        "iand(b, c)",
    ),
];

/// The shift count `s` is a multiple of `a`'s width (the op masks it away).
fn count_is_zero(m: &Match, _: &IrCtx) -> bool {
    let zero = m.konst("s") & (m.bits("a") as u64 - 1) == 0;
    if !zero {
        hit(cov::REFUSE_SHIFT_COUNT);
    }
    zero
}

/// `t`, the inner conversion of `a`, is at least as wide as `a`.
fn first_step_widens(m: &Match, _: &IrCtx) -> bool {
    let widens = m.bits("t") >= m.bits("a");
    if !widens {
        hit(cov::REFUSE_NARROWING_FIRST);
    }
    widens
}

/// `m & ~c == 0`: the whole field of the bfi survives the iand, so
/// `bfi(m, a, b) & c = ((a << ctz m) & m) | (b & ~m & c) = bfi(m, a, b & c)`.
fn field_kept(m: &Match, ctx: &IrCtx) -> bool {
    let c = m.konst("c");
    let not_c = if ctx.bugs.has(Bug::AlgebraicBfiIand) {
        // Injected bug (BUGS.md: algebraic-bfi-iand): complements c only
        // below its highest set bit, so ~0xc is taken as 3 (f11a4146454).
        !c & (c + 1).next_power_of_two().wrapping_sub(1)
    } else {
        !c & mask(32)
    };
    let kept = m.konst("m") & not_c == 0;
    if !kept {
        hit(cov::REFUSE_FIELD_NOT_KEPT);
    }
    kept
}

/// `m & c == 0`: the iand keeps only bits outside the field, which are b's.
fn field_cleared(m: &Match, _: &IrCtx) -> bool {
    let cleared = m.konst("m") & m.konst("c") == 0;
    if !cleared {
        hit(cov::REFUSE_FIELD_NOT_CLEARED);
    }
    cleared
}

/// A parsed pattern or replacement.
#[derive(Debug)]
enum Expr {
    /// Any value (search), or the value bound to the name (replace).
    Var(&'static str),
    /// `#name`: a `load_const` only.
    ConstVar(&'static str),
    /// An integer constant, sized by its position (`-1` is all ones).
    Lit(u64),
    /// A 1-bit constant.
    Bool(bool),
    /// An instruction, optionally naming its value (`t=op(...)`).
    Op {
        op: Op,
        args: Vec<Expr>,
        bind: Option<&'static str>,
    },
}

struct Parser {
    s: &'static str,
    i: usize,
}

impl Parser {
    fn ws(&mut self) {
        while self.s[self.i..].starts_with(' ') {
            self.i += 1;
        }
    }

    fn word(&mut self) -> &'static str {
        self.ws();
        let rest = &self.s[self.i..];
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '#'))
            .unwrap_or(rest.len());
        self.i += n;
        &rest[..n]
    }

    fn eat(&mut self, c: char) -> bool {
        self.ws();
        let hit = self.s[self.i..].starts_with(c);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn expr(&mut self) -> Expr {
        let w = self.word();
        if self.eat('=') {
            let Expr::Op { op, args, .. } = self.expr() else {
                panic!("`{w}=` must name an op in `{}`", self.s);
            };
            return Expr::Op {
                op,
                args,
                bind: Some(w),
            };
        }
        if self.eat('(') {
            let op = Op::from_name(w).unwrap_or_else(|| panic!("no op `{w}` in `{}`", self.s));
            let mut args = vec![self.expr()];
            while self.eat(',') {
                args.push(self.expr());
            }
            assert!(self.eat(')'), "`)` expected in `{}`", self.s);
            return Expr::Op {
                op,
                args,
                bind: None,
            };
        }
        match w {
            "true" | "false" => Expr::Bool(w == "true"),
            _ if w.starts_with('#') => Expr::ConstVar(&w[1..]),
            _ if w.starts_with(|c: char| c == '-' || c.is_ascii_digit()) => Expr::Lit(
                w.parse::<i64>()
                    .unwrap_or_else(|_| panic!("bad number `{w}` in `{}`", self.s))
                    as u64,
            ),
            _ => Expr::Var(w),
        }
    }
}

fn parse(s: &'static str) -> Expr {
    let mut p = Parser { s, i: 0 };
    let e = p.expr();
    p.ws();
    assert_eq!(p.i, s.len(), "trailing text in `{s}`");
    e
}

/// The rules with their patterns parsed and their decision points (once).
fn parsed() -> &'static [(&'static Rule, Expr, Expr, Point)] {
    static PARSED: OnceLock<Vec<(&'static Rule, Expr, Expr, Point)>> = OnceLock::new();
    PARSED.get_or_init(|| {
        RULES
            .iter()
            .map(|r| (r, parse(r.search), parse(r.replace), rule_point(r.name)))
            .collect()
    })
}

/// A rule's decision point, `ir:algebraic/rule/<name>` (declared in
/// `algebraic_cov.rs`).
fn rule_point(name: &str) -> Point {
    cov::POINTS
        .iter()
        .copied()
        .find(|p| p.name().strip_prefix("ir:algebraic/rule/") == Some(name))
        .unwrap_or_else(|| panic!("rule {name} has no decision point in algebraic_cov.rs"))
}

/// What a pattern matched: each name's value, bit size and constant value.
pub struct Match {
    binds: Vec<(&'static str, ValueId, u8, Option<u64>)>,
}

impl Match {
    fn get(&self, name: &str) -> &(&'static str, ValueId, u8, Option<u64>) {
        self.binds
            .iter()
            .find(|b| b.0 == name)
            .unwrap_or_else(|| panic!("`{name}` is not bound"))
    }

    /// The constant bound to `#name`.
    pub fn konst(&self, name: &str) -> u64 {
        self.get(name).3.expect("a #name binds a constant")
    }

    /// The bit size of the value bound to `name`.
    pub fn bits(&self, name: &str) -> u8 {
        self.get(name).2
    }
}

/// The rule engine's view of the program: the definitions and sizes seen
/// so far.
struct State {
    defs: Defs,
}

impl State {
    fn def(&self, v: ValueId) -> Option<&Instr> {
        self.defs.def(v)
    }

    fn bits(&self, v: ValueId) -> u8 {
        self.defs.bits(v)
    }

    fn konst(&self, v: ValueId) -> Option<u64> {
        self.def(v)
            .filter(|i| i.op == Op::LoadConst)
            .map(|i| i.imm & mask(self.bits(v)))
    }

    fn bind(&self, m: &mut Match, name: &'static str, v: ValueId) -> bool {
        match m.binds.iter().find(|b| b.0 == name) {
            Some(b) => b.1 == v,
            None => {
                m.binds.push((name, v, self.bits(v), self.konst(v)));
                true
            }
        }
    }

    fn matches(&self, e: &Expr, v: ValueId, m: &mut Match) -> bool {
        match e {
            Expr::Var(n) => self.bind(m, n, v),
            Expr::ConstVar(n) => self.konst(v).is_some() && self.bind(m, n, v),
            Expr::Lit(x) => self.konst(v) == Some(x & mask(self.bits(v))),
            Expr::Bool(b) => self.bits(v) == 1 && self.konst(v) == Some(*b as u64),
            Expr::Op { op, args, bind } => {
                let Some(i) = self.def(v).filter(|i| i.op == *op) else {
                    return false;
                };
                if bind.is_some_and(|n| !self.bind(m, n, v)) {
                    return false;
                }
                let srcs = i.srcs.clone();
                let save = m.binds.len();
                let orders: &[[usize; 2]] = if op.is_commutative() {
                    &[[0, 1], [1, 0]]
                } else {
                    &[[0, 1]]
                };
                for order in orders {
                    let ok = args.iter().enumerate().all(|(k, a)| {
                        let s = if k < 2 { srcs[order[k]] } else { srcs[k] };
                        self.matches(a, s, m)
                    });
                    if ok {
                        return true;
                    }
                    m.binds.truncate(save);
                }
                false
            }
        }
    }

    /// Builds a replacement node, appending new instructions to `out`;
    /// `want` is the size its position needs, when known.
    fn build(
        &mut self,
        e: &Expr,
        want: Option<u8>,
        m: &Match,
        out: &mut Vec<Instr>,
    ) -> Option<(ValueId, u8)> {
        match e {
            Expr::Var(n) | Expr::ConstVar(n) => {
                let b = m.get(n);
                (want.is_none() || want == Some(b.2)).then_some((b.1, b.2))
            }
            Expr::Lit(x) => {
                let bits = want?;
                Some((
                    self.defs
                        .emit(out, Op::LoadConst, bits, vec![], x & mask(bits)),
                    bits,
                ))
            }
            Expr::Bool(b) => (want.unwrap_or(1) == 1)
                .then(|| (self.defs.emit(out, Op::LoadConst, 1, vec![], *b as u64), 1)),
            Expr::Op { op, args, .. } => {
                let (srcs, bits) = self.build_srcs(*op, args, want, m, out)?;
                Some((self.defs.emit(out, *op, bits, srcs, 0), bits))
            }
        }
    }

    /// Builds an op's sources; returns them and the op's result size.
    fn build_srcs(
        &mut self,
        op: Op,
        args: &[Expr],
        want: Option<u8>,
        m: &Match,
        out: &mut Vec<Instr>,
    ) -> Option<(Vec<ValueId>, u8)> {
        let sig = op.info().sig;
        let mut got: Vec<Option<(ValueId, u8)>> = Vec::with_capacity(args.len());
        for a in args {
            let sized_by_position = matches!(a, Expr::Lit(_) | Expr::Bool(_));
            got.push(if sized_by_position {
                None
            } else {
                Some(self.build(a, None, m, out)?)
            });
        }
        let known = |k: usize| got.get(k).copied().flatten().map(|g| g.1);
        let first = got.iter().flatten().map(|g| g.1).next();
        let bits = match sig {
            Sig::Same { .. } => want.or(first)?,
            Sig::Indexed { .. } => want.or(known(0))?,
            Sig::Select { .. } => want.or(known(1)).or(known(2))?,
            Sig::Compare { .. } => 1,
            Sig::Fixed32 { .. } => 32,
            Sig::Convert { .. } => want?,
            _ => return None,
        };
        let mut srcs = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            let need = match sig {
                Sig::Same { .. } => Some(bits),
                Sig::Indexed { .. } => Some(if k == 0 { bits } else { 32 }),
                Sig::Select { .. } => Some(if k == 0 { 1 } else { bits }),
                Sig::Compare { .. } => known(1 - k.min(1)),
                Sig::Fixed32 { .. } => Some(32),
                _ => None,
            };
            let (v, b) = match got[k] {
                Some(g) => g,
                None => self.build(a, need, m, out)?,
            };
            if need.is_some_and(|n| n != b) {
                return None;
            }
            srcs.push(v);
        }
        if want.is_some_and(|w| w != bits) {
            return None;
        }
        Some((srcs, bits))
    }
}

/// What an instruction becomes.
enum Rewrite {
    /// Its uses become uses of this value.
    Copy(ValueId),
    /// This instruction (same value id), after the new ones.
    Instr(Instr),
}

/// Tries the rules on `i`; on a match, appends the new instructions to
/// `out` and returns what `i` becomes.
fn rewrite(i: &Instr, st: &mut State, ctx: &IrCtx, out: &mut Vec<Instr>) -> Option<Rewrite> {
    let dest = i.dest?;
    st.defs.record(i);
    for (rule, search, replace, point) in parsed() {
        let Expr::Op { op, .. } = search else {
            continue;
        };
        if *op != i.op {
            continue;
        }
        let mut m = Match { binds: vec![] };
        // A condition that does not hold records why (`cov::REFUSE_*`).
        if !st.matches(search, dest.id, &mut m) || rule.cond.is_some_and(|c| !c(&m, ctx)) {
            continue;
        }
        let (next, mark) = (st.defs.checkpoint(), out.len());
        let done = match replace {
            Expr::Var(n) => {
                let b = m.get(n);
                (b.2 == dest.bits).then_some(Rewrite::Copy(b.1))
            }
            Expr::Lit(x) => Some(Rewrite::Instr(Instr {
                op: Op::LoadConst,
                dest: Some(dest),
                srcs: vec![],
                imm: x & mask(dest.bits),
            })),
            Expr::Bool(b) => (dest.bits == 1).then(|| {
                Rewrite::Instr(Instr {
                    op: Op::LoadConst,
                    dest: Some(dest),
                    srcs: vec![],
                    imm: *b as u64,
                })
            }),
            Expr::Op { op, args, .. } => {
                st.build_srcs(*op, args, Some(dest.bits), &m, out)
                    .map(|(srcs, _)| {
                        Rewrite::Instr(Instr {
                            op: *op,
                            dest: Some(dest),
                            srcs,
                            imm: 0,
                        })
                    })
            }
            Expr::ConstVar(_) => None,
        };
        match done {
            Some(rw) => {
                hit(*point);
                #[cfg(test)]
                tests::fired(rule.name);
                return Some(rw);
            }
            None => {
                // A size mismatch: the rule does not apply here.
                hit(cov::REFUSE_SIZE);
                out.truncate(mark);
                st.defs.rewind(next);
            }
        }
    }
    None
}

/// Rewrites every instruction some rule matches; returns whether the
/// program changed.
pub fn run(p: &mut Program, ctx: &IrCtx) -> bool {
    let mut changed = false;
    // Each rule shrinks or simplifies what it matches, so this settles in a
    // few rounds; the bound is a guard against a cycle in the table.
    for k in 0..16 {
        if !round(p, ctx) {
            break;
        }
        changed = true;
        if k == 15 {
            hit(cov::ROUND_LIMIT);
        }
    }
    changed
}

/// One walk in program order (definitions before uses); returns whether
/// some rule applied.
fn round(p: &mut Program, ctx: &IrCtx) -> bool {
    let bound = p.value_bound();
    let mut st = State { defs: Defs::new(p) };
    let mut subst = Subst::new(bound);
    let mut changed = false;
    super::walk_mut(&mut p.body, &mut |node| {
        let Node::Block(b) = node else { return };
        let mut out = Vec::with_capacity(b.instrs.len());
        for mut i in std::mem::take(&mut b.instrs) {
            for s in &mut i.srcs {
                subst.rewrite(s);
            }
            if i.op.info().class == OpClass::Alu {
                match rewrite(&i, &mut st, ctx, &mut out) {
                    Some(Rewrite::Copy(v)) => {
                        changed = true;
                        subst.set(i.dest.expect("ALU ops define a value").id, v);
                        continue;
                    }
                    Some(Rewrite::Instr(n)) => {
                        changed = true;
                        i = n;
                    }
                    None => {}
                }
            }
            st.defs.record(&i);
            out.push(i);
        }
        b.instrs = out;
    });
    subst.apply(&mut p.body);
    changed
}

#[cfg(test)]
#[path = "algebraic_tests.rs"]
mod tests;
