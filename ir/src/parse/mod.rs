//! The parser for the text format: what `print.rs` prints (NIR exactly as
//! `nir_print.c` prints it), real `NIR_DEBUG=print` output of compute
//! shaders within the modelled subset, and the older `.sir` spelling.
//! Line-oriented: one statement per line; `//` comments (NIR's `preds` and
//! `succs`) are skipped. Errors carry line and column, say what was
//! expected, and name what is not modelled.

mod cursor;
mod header;
mod instr;
mod memory;

use cursor::{Cur, Line};
use header::Decls;
use instr::{instr_line, OffsetSrc, Stmt};
use memory::Mem;

use crate::dispatch::{Case, Dispatch};
use crate::op::Op;
use crate::program::{Block, CfNode, If, Jump, Loop, Program, ValueId};
use crate::value::parse_value;
use std::fmt;

/// A parse error at a line and column (both 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// The file, when known.
    pub file: Option<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What was wrong.
    pub msg: String,
}

impl ParseError {
    /// The same error, naming a file.
    pub fn in_file(mut self, file: &str) -> ParseError {
        self.file = Some(file.to_string());
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
        }
        write!(f, "{}:{}: {}", self.line, self.col, self.msg)
    }
}

type PResult<T> = Result<T, ParseError>;

/// The largest value number (`%N`) and block number (`bN`) the parser
/// accepts. The IR keeps per-value and per-block tables indexed by number,
/// so an unbounded number in the text (`%222222228`) would make every
/// consumer allocate gigabytes; real shaders stay far below this.
pub const MAX_TEXT_INDEX: u32 = 65_535;

/// Parses a program; a dispatch section, if present, is an error.
pub fn parse_program(text: &str) -> PResult<Program> {
    let case = parse_case(text)?;
    if case.dispatch.is_some() {
        let line = text
            .lines()
            .position(|l| l.trim_start().starts_with("dispatch"))
            .unwrap_or(0);
        return Err(ParseError {
            file: None,
            line: line + 1,
            col: 1,
            msg: "unexpected dispatch section".into(),
        });
    }
    Ok(case.program)
}

/// Parses a case: a program and an optional dispatch section.
pub fn parse_case(text: &str) -> PResult<Case> {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .map(|(i, raw)| Line::new(i + 1, raw))
        .collect();
    let mut p = Parser {
        lines,
        pos: 0,
        mem: Mem::default(),
    };
    p.case()
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
    /// Buffer accesses being mapped onto slots.
    mem: Mem,
}

/// What ended a control-flow list.
#[derive(PartialEq)]
enum ListEnd {
    Close,
    Else,
}

impl<'a> Parser<'a> {
    fn skip_blank(&mut self) {
        while self.pos < self.lines.len() && self.lines[self.pos].is_blank() {
            self.pos += 1;
        }
    }
    fn eof_err<T>(&self, msg: &str) -> PResult<T> {
        let line = self.lines.len().max(1);
        let col = self.lines.last().map_or(1, |l| l.raw.chars().count() + 1);
        Err(ParseError {
            file: None,
            line,
            col,
            msg: format!("{msg}, found end of file"),
        })
    }
    /// The next non-blank line as a cursor, or an error naming what was expected.
    fn next(&mut self, expected: &str) -> PResult<Cur<'a>> {
        self.skip_blank();
        if self.pos >= self.lines.len() {
            return self.eof_err(&format!("expected {expected}"));
        }
        let l = &self.lines[self.pos];
        self.pos += 1;
        Ok(Cur {
            line: l.no,
            s: l.text,
            pos: 0,
        })
    }
    /// A cursor at the start of the next non-blank line, not consuming it.
    fn peek_line(&mut self) -> Option<Cur<'a>> {
        self.skip_blank();
        let l = self.lines.get(self.pos)?;
        Some(Cur {
            line: l.no,
            s: l.text,
            pos: 0,
        })
    }
    fn peek_word(&mut self) -> Option<&'a str> {
        let mut c = self.peek_line()?;
        let text = c.s;
        let w = c.word();
        if w.is_empty() {
            c.ws();
            return c.peek().map(|ch| &text[c.pos..c.pos + ch.len_utf8()]);
        }
        Some(w)
    }

    /// The second word of the next non-blank line.
    fn peek_second_word(&mut self) -> Option<&'a str> {
        let mut c = self.peek_line()?;
        c.word();
        Some(c.word())
    }

    fn case(&mut self) -> PResult<Case> {
        let mut program = Program::default();
        // Leading comment lines are kept.
        while self.pos < self.lines.len() {
            let raw = self.lines[self.pos].raw.trim();
            if let Some(c) = raw.strip_prefix("//") {
                program
                    .comments
                    .push(c.strip_prefix(' ').unwrap_or(c).to_string());
                self.pos += 1;
            } else if raw.is_empty() {
                self.pos += 1;
            } else {
                break;
            }
        }
        let decls = self.header(&mut program)?;
        self.mem.set_base(&program);
        let mut c = self.next("`impl main {`")?;
        c.expect_word("impl")?;
        c.expect_word("main")?;
        c.expect('{')?;
        c.end()?;
        let mut offsets = Vec::new();
        let (body, end) = self.list(&decls, &mut offsets, true)?;
        if end != ListEnd::Close {
            let l = &self.lines[self.pos - 1];
            return Err(ParseError {
                file: None,
                line: l.no,
                col: 1,
                msg: "`} else {` outside an `if`".into(),
            });
        }
        program.body = body;
        std::mem::take(&mut self.mem).finish(&mut program)?;
        drop_offsets(&mut program, &offsets)?;
        let mut dispatch = None;
        if let Some("dispatch") = self.peek_word() {
            dispatch = Some(self.dispatch(&program)?);
        }
        self.skip_blank();
        if self.pos < self.lines.len() {
            let l = &self.lines[self.pos];
            let mut c = Cur {
                line: l.no,
                s: l.text,
                pos: 0,
            };
            c.ws();
            return c.err(format!("expected end of file, found {}", c.found()));
        }
        Ok(Case { program, dispatch })
    }

    fn dispatch(&mut self, p: &Program) -> PResult<Dispatch> {
        let mut c = self.next("`dispatch N {`")?;
        c.expect_word("dispatch")?;
        let n = c.number("an invocation count")?;
        if n == 0 || n > crate::dispatch::MAX_INVOCATIONS as u64 {
            return c.err(format!("invocation count must be in 1..=1024, not {n}"));
        }
        c.expect('{')?;
        c.end()?;
        let mut d = Dispatch {
            invocations: n as u32,
            inputs: vec![Vec::new(); p.inputs.len()],
            uniforms: vec![0; p.uniforms.len()],
        };
        let mut seen_inputs = vec![false; p.inputs.len()];
        let mut seen_uniforms = vec![false; p.uniforms.len()];
        loop {
            let mut c = self.next("`input N: ...`, `uniform N: ...` or `}`")?;
            if c.eat('}') {
                c.end()?;
                break;
            }
            c.ws();
            let save = c.pos;
            let kind = c.word();
            let (types, seen) = match kind {
                "input" => (&p.inputs, &mut seen_inputs),
                "uniform" => (&p.uniforms, &mut seen_uniforms),
                _ => {
                    c.pos = save;
                    return c.err(format!(
                        "expected `input`, `uniform` or `}}`, found {}",
                        c.found()
                    ));
                }
            };
            let slot_col = c.pos;
            let slot = c.number("a slot number")? as usize;
            if slot >= types.len() || seen[slot] {
                c.pos = slot_col;
                c.ws();
                return c.err(format!(
                    "{kind} slot {slot} is not declared or is given twice"
                ));
            }
            seen[slot] = true;
            c.expect(':')?;
            let ty = types[slot];
            let mut vals = Vec::new();
            loop {
                c.ws();
                if c.peek().is_none() {
                    break;
                }
                let start = c.pos;
                let w = c.word();
                if w.is_empty() {
                    return c.err(format!("expected a {ty} value, found {}", c.found()));
                }
                match parse_value(ty, w) {
                    Ok(v) => vals.push(v),
                    Err(e) => {
                        c.pos = start;
                        return c.err(e);
                    }
                }
            }
            if kind == "input" {
                if vals.len() != d.invocations as usize {
                    return c.err(format!(
                        "expected {} values for input {slot}, found {}",
                        d.invocations,
                        vals.len()
                    ));
                }
                d.inputs[slot] = vals;
            } else {
                if vals.len() != 1 {
                    return c.err(format!(
                        "expected one value for uniform {slot}, found {}",
                        vals.len()
                    ));
                }
                d.uniforms[slot] = vals[0];
            }
        }
        if let Some(slot) = seen_inputs.iter().position(|s| !s) {
            return self.eof_or_here(format!("dispatch gives no values for input {slot}"));
        }
        if let Some(slot) = seen_uniforms.iter().position(|s| !s) {
            return self.eof_or_here(format!("dispatch gives no value for uniform {slot}"));
        }
        Ok(d)
    }

    fn eof_or_here<T>(&self, msg: String) -> PResult<T> {
        let l = &self.lines[self.pos - 1];
        Err(ParseError {
            file: None,
            line: l.no,
            col: 1,
            msg,
        })
    }

    /// Parses a nested list that must end with `want`; `msg` otherwise.
    fn nested(
        &mut self,
        decls: &Decls,
        offsets: &mut Vec<OffsetSrc>,
        want: ListEnd,
        msg: &str,
    ) -> PResult<Vec<CfNode>> {
        let (body, end) = self.list(decls, offsets, false)?;
        if end != want {
            let l = &self.lines[self.pos - 1];
            return Err(ParseError {
                file: None,
                line: l.no,
                col: 1,
                msg: msg.into(),
            });
        }
        Ok(body)
    }

    /// Parses a control-flow list up to its closing `}` (or `} else {`).
    fn list(
        &mut self,
        decls: &Decls,
        offsets: &mut Vec<OffsetSrc>,
        top: bool,
    ) -> PResult<(Vec<CfNode>, ListEnd)> {
        let mut list: Vec<CfNode> = Vec::new();
        let mut cur: Option<Block> = None;
        loop {
            let mut c = self.next("a statement or `}`")?;
            c.ws();
            let save = c.pos;
            if c.eat('}') {
                let end = if c.eat_word_else() {
                    ListEnd::Else
                } else {
                    ListEnd::Close
                };
                c.end()?;
                match cur.take() {
                    Some(b) => list.push(CfNode::Block(b)),
                    None => {
                        c.pos = save;
                        return c.err("expected `block bN:` before the end of a list (lists end with a block)");
                    }
                }
                return Ok((list, end));
            }
            let mut w = c.word();
            if matches!(w, "con" | "div") {
                let after = c.word();
                if matches!(after, "block" | "loop") {
                    w = after;
                }
            }
            match w {
                "block" => {
                    if cur.is_some() && top {
                        // NIR's end block: empty, right before the impl's `}`.
                        let id_at = c.pos;
                        // Numbered one past the last block, so not bounded.
                        c.word();
                        c.expect(':')?;
                        c.end()?;
                        if self.peek_word() == Some("}") {
                            continue;
                        }
                        c.pos = id_at;
                        return c.err("only the end block may follow a block directly, and it must be empty and last");
                    }
                    if cur.is_some() {
                        c.pos = save;
                        return c.err(
                            "a block must be followed by `if`, `loop` or `}`, not another block",
                        );
                    }
                    let id = c.block_id()?;
                    c.expect(':')?;
                    c.end()?;
                    cur = Some(Block {
                        id,
                        phis: vec![],
                        instrs: vec![],
                        jump: None,
                    });
                }
                "if" | "loop" => {
                    let Some(b) = cur.take() else {
                        c.pos = save;
                        return c.err(format!("expected `block bN:` before `{w}`"));
                    };
                    if b.jump.is_some() {
                        c.pos = save;
                        return c.err(format!("`{w}` after a jump"));
                    }
                    list.push(CfNode::Block(b));
                    if w == "if" {
                        c.ws();
                        let at = c.pos;
                        let cond = c.src()?;
                        self.mem.data_use(&c, cond, at)?;
                        c.expect('{')?;
                        c.end()?;
                        let then_body =
                            self.nested(decls, offsets, ListEnd::Else, "expected `} else {`")?;
                        let else_body = self.nested(
                            decls,
                            offsets,
                            ListEnd::Close,
                            "expected `}`, found `} else {`",
                        )?;
                        list.push(CfNode::If(If {
                            cond,
                            then_body,
                            else_body,
                        }));
                    } else {
                        c.expect('{')?;
                        c.end()?;
                        self.mem.enter_loop();
                        let body = self.nested(
                            decls,
                            offsets,
                            ListEnd::Close,
                            "expected `}`, found `} else {`",
                        )?;
                        self.mem.leave_loop();
                        list.push(CfNode::Loop(Loop { body }));
                    }
                    // The next statement must open the block after the if/loop.
                    match self.peek_word() {
                        Some("block") => {}
                        Some("con" | "div") if self.peek_second_word() == Some("block") => {}
                        _ => {
                            let mut c = self.next("`block bN:` after `}`")?;
                            c.ws();
                            return c.err(format!(
                                "expected `block bN:` after `}}`, found {}",
                                c.found()
                            ));
                        }
                    }
                }
                "break" | "continue" => {
                    c.end()?;
                    let Some(b) = cur.as_mut() else {
                        c.pos = save;
                        return c.err(format!("expected `block bN:` before `{w}`"));
                    };
                    if b.jump.is_some() {
                        c.pos = save;
                        return c.err(format!("`{w}` after a jump"));
                    }
                    b.jump = Some(if w == "break" {
                        Jump::Break
                    } else {
                        Jump::Continue
                    });
                }
                _ => {
                    c.pos = save;
                    let Some(b) = cur.as_mut() else {
                        return c.err(format!("expected `block bN:`, found {}", c.found()));
                    };
                    if b.jump.is_some() {
                        return c.err("instruction after a jump");
                    }
                    match instr_line(&mut c, decls, &mut self.mem)? {
                        Stmt::Nothing => {}
                        Stmt::Phi(p) => {
                            if !b.instrs.is_empty() {
                                c.pos = save;
                                return c.err(
                                    "phis must come before the other instructions of a block",
                                );
                            }
                            b.phis.push(p)
                        }
                        Stmt::Instr(i, offset) => {
                            offsets.extend(offset);
                            b.instrs.push(i)
                        }
                    }
                }
            }
        }
    }
}

/// Checks that every I/O offset source NIR's spelling gave is the constant
/// 0 (indirect I/O is not modelled), then removes the constants that only
/// served as offsets.
fn drop_offsets(program: &mut Program, offsets: &[OffsetSrc]) -> PResult<()> {
    if offsets.is_empty() {
        return Ok(());
    }
    let mut consts = vec![None; program.value_bound()];
    program.for_each_block(&mut |b| {
        for i in &b.instrs {
            if let (Op::LoadConst, Some(d)) = (i.op, i.dest) {
                consts[d.id.0 as usize] = Some((i.imm, d.bits));
            }
        }
    });
    let mut is_offset = vec![false; consts.len()];
    for o in offsets {
        let c = consts.get(o.value.0 as usize).copied().flatten();
        if c != Some((0, 32)) {
            return Err(ParseError {
                file: None,
                line: o.line,
                col: o.col,
                msg: format!(
                    "I/O offset {} is not the 32-bit constant 0: indirect I/O is not modelled",
                    o.value
                ),
            });
        }
        is_offset[o.value.0 as usize] = true;
    }
    let mut other_use = vec![false; consts.len()];
    let mut mark = |v: ValueId| {
        if let Some(u) = other_use.get_mut(v.0 as usize) {
            *u = true;
        }
    };
    program.for_each_use(&mut mark);
    program.for_each_block_mut(&mut |b| {
        b.instrs.retain(|i| match i.dest {
            Some(d) if i.op == Op::LoadConst => {
                let k = d.id.0 as usize;
                !is_offset[k] || other_use[k]
            }
            _ => true,
        })
    });
    Ok(())
}
