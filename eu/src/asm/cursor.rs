//! Character cursor used by the parser: positions, blanks, comments,
//! identifiers and numbers.

use super::parse::ParseError;

pub(super) type PResult<T> = Result<T, ParseError>;

pub(super) struct Cur {
    pub(super) s: Vec<char>,
    pub(super) pos: usize,
    pub(super) line: usize,
}

pub(super) fn is_ident_char(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || ch == '_'
}

impl Cur {
    pub(super) fn new(line: &str, n: usize) -> Cur {
        Cur {
            s: line.chars().collect(),
            pos: 0,
            line: n,
        }
    }

    pub(super) fn err(&self, msg: impl Into<String>) -> ParseError {
        ParseError {
            file: None,
            line: self.line,
            col: self.pos + 1,
            msg: msg.into(),
        }
    }

    pub(super) fn err_at(&self, col: usize, msg: impl Into<String>) -> ParseError {
        ParseError {
            file: None,
            line: self.line,
            col,
            msg: msg.into(),
        }
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.s.get(self.pos).copied()
    }

    pub(super) fn peek_at(&self, k: usize) -> Option<char> {
        self.s.get(self.pos + k).copied()
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    /// Skip blanks and comments (`//…`, `#…`, `/* … */`).
    pub(super) fn skip_ws(&mut self) -> PResult<()> {
        loop {
            match self.peek() {
                Some(' ') | Some('\t') | Some('\r') => self.pos += 1,
                Some('/') if self.peek_at(1) == Some('/') => self.pos = self.s.len(),
                Some('#') => self.pos = self.s.len(),
                Some('/') if self.peek_at(1) == Some('*') => {
                    let start = self.pos;
                    self.pos += 2;
                    loop {
                        match self.peek() {
                            None => return Err(self.err_at(start + 1, "unterminated comment")),
                            Some('*') if self.peek_at(1) == Some('/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(_) => self.pos += 1,
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    pub(super) fn eat(&mut self, ch: char) -> bool {
        if self.peek() == Some(ch) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Eats `t` if the text continues with it.
    pub(super) fn eat_str(&mut self, t: &str) -> bool {
        if t.is_empty() {
            return false;
        }
        let chars: Vec<char> = t.chars().collect();
        if self.s[self.pos..].starts_with(&chars) {
            self.pos += chars.len();
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, ch: char, what: &str) -> PResult<()> {
        if self.eat(ch) {
            Ok(())
        } else {
            Err(self.found(&format!("expected {what}")))
        }
    }

    pub(super) fn found(&self, msg: &str) -> ParseError {
        match self.peek() {
            Some(c) => self.err(format!("{msg}, found '{c}'")),
            None => self.err(format!("{msg}, found end of line")),
        }
    }

    pub(super) fn ident(&mut self) -> String {
        let start = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.pos += 1;
        }
        self.s[start..self.pos].iter().collect()
    }

    pub(super) fn number(&mut self, what: &str) -> PResult<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.found(&format!("expected {what}")));
        }
        let txt: String = self.s[start..self.pos].iter().collect();
        txt.parse::<u32>()
            .map_err(|_| self.err_at(start + 1, format!("{what} out of range")))
    }

    pub(super) fn small(&mut self, what: &str) -> PResult<u8> {
        let start = self.pos;
        let n = self.number(what)?;
        u8::try_from(n).map_err(|_| self.err_at(start + 1, format!("{what} out of range")))
    }
}
