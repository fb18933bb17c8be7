//! Lines and a cursor over one line.

use super::{PResult, ParseError, MAX_TEXT_INDEX};
use crate::program::{BlockId, ValueId};

/// One source line, with comments stripped.
pub(super) struct Line<'a> {
    pub(super) no: usize,
    pub(super) text: &'a str,
    pub(super) raw: &'a str,
}

impl<'a> Line<'a> {
    pub(super) fn new(no: usize, raw: &'a str) -> Line<'a> {
        let text = match raw.find("//") {
            Some(i) => &raw[..i],
            None => raw,
        };
        Line { no, text, raw }
    }
    pub(super) fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

/// A cursor over one line.
pub(super) struct Cur<'a> {
    pub(super) line: usize,
    pub(super) s: &'a str,
    pub(super) pos: usize,
}

impl<'a> Cur<'a> {
    pub(super) fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        let col = self.s[..self.pos].chars().count() + 1;
        Err(ParseError {
            file: None,
            line: self.line,
            col,
            msg: msg.into(),
        })
    }
    pub(super) fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == ' ' || c == '\t' || c == '\r' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }
    pub(super) fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }
    pub(super) fn found(&self) -> String {
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
    pub(super) fn eat(&mut self, c: char) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }
    pub(super) fn expect(&mut self, c: char) -> PResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(format!("expected `{c}`, found {}", self.found()))
        }
    }
    pub(super) fn word(&mut self) -> &'a str {
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
    pub(super) fn expect_word(&mut self, w: &str) -> PResult<()> {
        let save = self.pos;
        if self.word() == w {
            Ok(())
        } else {
            self.pos = save;
            self.ws();
            self.err(format!("expected `{w}`, found {}", self.found()))
        }
    }
    pub(super) fn number(&mut self, what: &str) -> PResult<u64> {
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
    pub(super) fn value(&mut self) -> PResult<ValueId> {
        self.value_then(false)
    }
    /// `%N`; with `swizzle`, a `.` may follow (the caller reads it).
    fn value_then(&mut self, swizzle: bool) -> PResult<ValueId> {
        self.ws();
        let save = self.pos;
        if !self.eat('%') {
            return self.err(format!("expected a value `%N`, found {}", self.found()));
        }
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits = &self.s[start..self.pos];
        let Ok(n) = digits.parse::<u64>() else {
            return self.err(format!("expected a value number, found {}", self.found()));
        };
        if self.peek() == Some('.') && !swizzle {
            return self.vector_err();
        }
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
    fn vector_err<T>(&self) -> PResult<T> {
        self.err("vector components (`.x`, swizzles) are not modelled: the IR is scalar")
    }
    /// An ALU source as NIR writes it: a value with an optional swizzle
    /// (`%3.y`, which only buffer descriptors may have), and the constant
    /// NIR prints after a constant source.
    pub(super) fn src_swizzled(&mut self) -> PResult<super::memory::SwzSrc> {
        self.ws();
        let at = self.pos;
        let value = self.value_then(true)?;
        let mut swizzle = None;
        if self.peek() == Some('.') {
            let dot = self.pos;
            let letters: String = self.s[dot + 1..]
                .chars()
                .take_while(|ch| "xyzw".contains(*ch))
                .collect();
            if letters.is_empty() {
                return self.vector_err();
            }
            self.pos = dot + 1 + letters.len();
            swizzle = Some((letters, dot));
        }
        self.skip_inline_constant()?;
        Ok(super::memory::SwzSrc { value, at, swizzle })
    }
    /// A value source, with the constant NIR prints after it (`%3 (0x1)`)
    /// skipped: it only repeats the `load_const`.
    pub(super) fn src(&mut self) -> PResult<ValueId> {
        let v = self.value()?;
        self.skip_inline_constant()?;
        Ok(v)
    }
    fn skip_inline_constant(&mut self) -> PResult<()> {
        let save = self.pos;
        self.ws();
        if self.peek() == Some('(') && !self.s[self.pos..].starts_with("()") {
            let inner = self.paren_group()?;
            if inner.trim_start().starts_with('%') {
                // Not an inline constant: the next group (indices or
                // sources) belongs to the caller.
                self.pos = save;
            }
        } else {
            self.pos = save;
        }
        Ok(())
    }
    /// An intrinsic's source list `(%a, %b (0x0))`, if the next group is
    /// one (empty `()` included): each source with the byte offset where
    /// it is written. Another group (the indices) is left alone.
    pub(super) fn intrinsic_srcs(&mut self) -> PResult<Vec<(ValueId, usize)>> {
        let mut srcs = Vec::new();
        self.ws();
        if self.peek() != Some('(') {
            return Ok(srcs);
        }
        let open = self.pos;
        let inner = self.paren_group()?;
        if !(inner.trim().is_empty() || inner.trim_start().starts_with('%')) {
            self.pos = open;
            return Ok(srcs);
        }
        self.pos = open + 1;
        self.ws();
        if self.peek() != Some(')') {
            loop {
                self.ws();
                let at = self.pos;
                srcs.push((self.src()?, at));
                if !self.eat(',') {
                    break;
                }
            }
        }
        self.expect(')')?;
        Ok(srcs)
    }
    /// The `key=value` items of an index list whose `(` is at byte `open`:
    /// each trimmed, with the byte offset of its key.
    pub(super) fn index_items(open: usize, inner: &str) -> Vec<(&str, &str, usize)> {
        let mut items = Vec::new();
        let mut item_at = open + 1;
        for raw in inner.split(',') {
            let here = item_at + (raw.len() - raw.trim_start().len());
            item_at += raw.len() + 1;
            if let Some((k, v)) = raw.trim().split_once('=') {
                items.push((k.trim(), v.trim(), here));
            }
        }
        items
    }
    /// Eats `( ... )` with nested parentheses; returns what is inside.
    pub(super) fn paren_group(&mut self) -> PResult<&'a str> {
        self.expect('(')?;
        let start = self.pos;
        let mut depth = 1;
        while let Some(c) = self.peek() {
            self.pos += c.len_utf8();
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(&self.s[start..self.pos - 1]);
                    }
                }
                _ => {}
            }
        }
        self.err("expected `)`, found end of line")
    }
    pub(super) fn block_id(&mut self) -> PResult<BlockId> {
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
    pub(super) fn end(&mut self) -> PResult<()> {
        self.ws();
        if self.pos < self.s.len() {
            self.err(format!("expected end of line, found {}", self.found()))
        } else {
            Ok(())
        }
    }
}
