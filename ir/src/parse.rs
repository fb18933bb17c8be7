//! The parser for the NIR-style text (see `print.rs` for the grammar by
//! example). Line-oriented: one statement per line. Errors carry line and
//! column and say what was expected.

use crate::dispatch::{Case, Dispatch};
use crate::op::{Op, OpClass, Sig};
use crate::program::{Block, BlockId, CfNode, Def, If, Instr, Jump, Loop, Phi, Program, ValueId};
use crate::types::{mask, SlotType};
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
    let mut p = Parser { lines, pos: 0 };
    p.case()
}

/// One source line, with comments stripped.
struct Line<'a> {
    no: usize,
    text: &'a str,
    raw: &'a str,
}

impl<'a> Line<'a> {
    fn new(no: usize, raw: &'a str) -> Line<'a> {
        let text = match raw.find("//") {
            Some(i) => &raw[..i],
            None => raw,
        };
        Line { no, text, raw }
    }
    fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

/// A cursor over one line.
struct Cur<'a> {
    line: usize,
    s: &'a str,
    pos: usize,
}

impl<'a> Cur<'a> {
    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        let col = self.s[..self.pos].chars().count() + 1;
        Err(ParseError {
            file: None,
            line: self.line,
            col,
            msg: msg.into(),
        })
    }
    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' || c == '\r' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }
    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }
    fn found(&self) -> String {
        match self.peek() {
            None => "end of line".to_string(),
            Some(_) => {
                let rest: String = self.s[self.pos..]
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .take(16)
                    .collect();
                format!("`{rest}`")
            }
        }
    }
    fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char) -> PResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(format!("expected `{c}`, found {}", self.found()))
        }
    }
    fn word(&mut self) -> &'a str {
        self.ws();
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-' || c == '+' {
                self.pos += 1;
            } else {
                break;
            }
        }
        &self.s[start..self.pos]
    }
    fn expect_word(&mut self, w: &str) -> PResult<()> {
        let save = self.pos;
        if self.word() == w {
            Ok(())
        } else {
            self.pos = save;
            self.ws();
            self.err(format!("expected `{w}`, found {}", self.found()))
        }
    }
    fn number(&mut self, what: &str) -> PResult<u64> {
        self.ws();
        let save = self.pos;
        let w = self.word();
        match w.parse::<u64>() {
            Ok(n) if !w.starts_with('+') => Ok(n),
            _ => {
                self.pos = save;
                self.err(format!("expected {what}, found {}", self.found()))
            }
        }
    }
    fn value(&mut self) -> PResult<ValueId> {
        self.ws();
        let save = self.pos;
        if !self.eat('%') {
            return self.err(format!("expected a value `%N`, found {}", self.found()));
        }
        let n = self.number("a value number")?;
        match u32::try_from(n) {
            Ok(n) if n <= MAX_TEXT_INDEX => Ok(ValueId(n)),
            _ => {
                self.pos = save;
                self.err(format!(
                    "value number %{n} is too large (the limit is %{MAX_TEXT_INDEX})"
                ))
            }
        }
    }
    fn block_id(&mut self) -> PResult<BlockId> {
        self.ws();
        let save = self.pos;
        let w = self.word();
        match w.strip_prefix('b').and_then(|n| n.parse::<u64>().ok()) {
            Some(n) if n > u64::from(MAX_TEXT_INDEX) => {
                self.pos = save;
                self.err(format!(
                    "block number b{n} is too large (the limit is b{MAX_TEXT_INDEX})"
                ))
            }
            Some(n) if !w[1..].starts_with('+') => Ok(BlockId(n as u32)),
            _ => {
                self.pos = save;
                self.err(format!("expected a block `bN`, found {}", self.found()))
            }
        }
    }
    fn end(&mut self) -> PResult<()> {
        self.ws();
        if self.pos < self.s.len() {
            self.err(format!("expected end of line, found {}", self.found()))
        } else {
            Ok(())
        }
    }
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
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
    fn peek_word(&mut self) -> Option<&'a str> {
        self.skip_blank();
        let l = self.lines.get(self.pos)?;
        let mut c = Cur {
            line: l.no,
            s: l.text,
            pos: 0,
        };
        let w = c.word();
        if w.is_empty() {
            c.ws();
            return c.peek().map(|ch| &l.text[c.pos..c.pos + ch.len_utf8()]);
        }
        Some(w)
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
        let mut c = self.next("`shader: NAME`")?;
        c.expect_word("shader")?;
        c.expect(':')?;
        c.ws();
        let name = c.word();
        if name.is_empty() {
            return c.err(format!("expected a shader name, found {}", c.found()));
        }
        program.name = name.to_string();
        c.end()?;
        while let Some(w) = self.peek_word() {
            let slots = match w {
                "decl_input" => &mut program.inputs,
                "decl_uniform" => &mut program.uniforms,
                "decl_output" => &mut program.outputs,
                _ => break,
            };
            let mut c = self.next("a declaration")?;
            c.word();
            let col_save = c.pos;
            let slot = c.number("a slot number")?;
            if slot as usize != slots.len() {
                c.pos = col_save;
                c.ws();
                return c.err(format!(
                    "expected slot {} (slots are declared in order), found {}",
                    slots.len(),
                    c.found()
                ));
            }
            c.ws();
            let save = c.pos;
            let tname = c.word();
            let Some(t) = SlotType::from_name(tname) else {
                c.pos = save;
                return c.err(format!(
                    "expected a type (bool, i8, i16, i32, i64, f16, f32, f64), found {}",
                    c.found()
                ));
            };
            slots.push(t);
            c.end()?;
        }
        let mut c = self.next("`impl main {`")?;
        c.expect_word("impl")?;
        c.expect_word("main")?;
        c.expect('{')?;
        c.end()?;
        let (body, end) = self.list()?;
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

    /// Parses a control-flow list up to its closing `}` (or `} else {`).
    fn list(&mut self) -> PResult<(Vec<CfNode>, ListEnd)> {
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
            let w = c.word();
            match w {
                "block" => {
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
                        let cond = c.value()?;
                        c.expect('{')?;
                        c.end()?;
                        let (then_body, end) = self.list()?;
                        if end != ListEnd::Else {
                            let l = &self.lines[self.pos - 1];
                            return Err(ParseError {
                                file: None,
                                line: l.no,
                                col: 1,
                                msg: "expected `} else {`".into(),
                            });
                        }
                        let (else_body, end) = self.list()?;
                        if end != ListEnd::Close {
                            let l = &self.lines[self.pos - 1];
                            return Err(ParseError {
                                file: None,
                                line: l.no,
                                col: 1,
                                msg: "expected `}`, found `} else {`".into(),
                            });
                        }
                        list.push(CfNode::If(If {
                            cond,
                            then_body,
                            else_body,
                        }));
                    } else {
                        c.expect('{')?;
                        c.end()?;
                        let (body, end) = self.list()?;
                        if end != ListEnd::Close {
                            let l = &self.lines[self.pos - 1];
                            return Err(ParseError {
                                file: None,
                                line: l.no,
                                col: 1,
                                msg: "expected `}`, found `} else {`".into(),
                            });
                        }
                        list.push(CfNode::Loop(Loop { body }));
                    }
                    // The next statement must open the block after the if/loop.
                    match self.peek_word() {
                        Some("block") => {}
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
                    match instr_line(&mut c)? {
                        Stmt::Phi(p) => {
                            if !b.instrs.is_empty() {
                                c.pos = save;
                                return c.err(
                                    "phis must come before the other instructions of a block",
                                );
                            }
                            b.phis.push(p)
                        }
                        Stmt::Instr(i) => b.instrs.push(i),
                    }
                }
            }
        }
    }
}

impl Cur<'_> {
    /// After `}`: eats `else {` if present.
    fn eat_word_else(&mut self) -> bool {
        let save = self.pos;
        if self.word() == "else" && self.eat('{') {
            return true;
        }
        self.pos = save;
        false
    }
}

enum Stmt {
    Phi(Phi),
    Instr(Instr),
}

/// Parses `BITS %N = ...` or `@store_output (...) (slot=N)`.
fn instr_line(c: &mut Cur) -> PResult<Stmt> {
    c.ws();
    let mut dest = None;
    if c.peek() != Some('@') {
        let start = c.pos;
        let bits = c.number("a bit size, `@intrinsic` or a statement")?;
        if !matches!(bits, 1 | 8 | 16 | 32 | 64) {
            c.pos = start;
            return c.err(format!("bit size must be 1, 8, 16, 32 or 64, not {bits}"));
        }
        let id = c.value()?;
        c.expect('=')?;
        dest = Some(Def {
            id,
            bits: bits as u8,
        });
    }
    c.ws();
    let intrinsic = c.eat('@');
    let save = c.pos;
    let name = c.word();
    if name == "phi" && !intrinsic {
        let Some(dest) = dest else {
            return c.err("a phi needs a destination");
        };
        let mut srcs = Vec::new();
        loop {
            let b = c.block_id()?;
            c.expect(':')?;
            let v = c.value()?;
            srcs.push((b, v));
            if !c.eat(',') {
                break;
            }
        }
        c.end()?;
        return Ok(Stmt::Phi(Phi { dest, srcs }));
    }
    let Some(op) = Op::from_name(name) else {
        c.pos = save;
        return c.err(format!("expected an op name, found {}", c.found()));
    };
    if op.is_intrinsic() != intrinsic {
        c.pos = save;
        return c.err(if intrinsic {
            format!("`{name}` is an ALU op: write it without `@`")
        } else {
            format!("`{name}` is an intrinsic: write it as `@{name} (...)`")
        });
    }
    let mut srcs = Vec::new();
    let mut imm = 0;
    match op.info().class {
        OpClass::Const => {
            c.expect('(')?;
            c.ws();
            let start = c.pos;
            let w = c.word();
            let bits = dest.map_or(32, |d| d.bits);
            imm = match w {
                "true" if bits == 1 => 1,
                "false" if bits == 1 => 0,
                _ => match w
                    .strip_prefix("0x")
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                {
                    Some(v) if v & !mask(bits) == 0 => v,
                    Some(_) => {
                        c.pos = start;
                        return c.err(format!("constant does not fit in {bits} bits"));
                    }
                    None => {
                        c.pos = start;
                        return c.err(format!(
                            "expected a hex constant (0x...) or true/false, found {}",
                            c.found()
                        ));
                    }
                },
            };
            c.expect(')')?;
        }
        OpClass::Alu => {
            let n = op.info().sig.num_srcs();
            for k in 0..n {
                if k > 0 {
                    c.expect(',')?;
                }
                srcs.push(c.value()?);
            }
        }
        OpClass::Subgroup | OpClass::Io => {
            c.expect('(')?;
            c.ws();
            if c.peek() != Some(')') {
                loop {
                    srcs.push(c.value()?);
                    if !c.eat(',') {
                        break;
                    }
                }
            }
            c.expect(')')?;
            if op.has_slot() {
                c.expect('(')?;
                c.expect_word("slot")?;
                c.expect('=')?;
                imm = c.number("a slot number")?;
                c.expect(')')?;
            }
        }
    }
    c.end()?;
    if matches!(op.info().sig, Sig::StoreSlot) != dest.is_none() {
        return c.err(if dest.is_none() {
            format!("`{name}` defines a value: write `BITS %N = ...`")
        } else {
            format!("`{name}` defines no value")
        });
    }
    Ok(Stmt::Instr(Instr {
        op,
        dest,
        srcs,
        imm,
    }))
}
