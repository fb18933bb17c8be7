//! Sends in both spellings: the compact `send(16) g7 g3 ld.b32` and the
//! disassembler's two lines (operands and descriptor, then the decoding),
//! which `send.rs` turns back into a message.

use super::cursor::{Cur, PResult};
use super::parse::ParseError;
use crate::isa::{Instruction, Message, MsgSize};
use crate::types::RegType;

/// The first line of a send in the disassembler's form: its operands and
/// descriptor, which the second line's SFID turns into a message.
pub(super) struct PendingSend {
    dst: Option<u32>,
    src0: u32,
    src1: Option<u32>,
    desc: u32,
    /// Line and column of the descriptor, for errors.
    line: usize,
    col: usize,
}

impl Cur {
    pub(super) fn send_operands(&mut self, inst: &mut Instruction) -> PResult<()> {
        self.skip_ws()?;
        let col = self.pos + 1;
        let dst = if self.peek() == Some('n') {
            let w = self.ident();
            if w != "null" {
                return Err(self.err_at(col, "expected 'null' or a GRF destination"));
            }
            None
        } else {
            Some(self.grf_nr("destination")?)
        };
        let addr = self.grf_nr("payload")?;
        self.skip_ws()?;
        let data = if self.peek() == Some('g') {
            Some(self.grf_nr("data")?)
        } else {
            None
        };
        self.skip_ws()?;
        let col = self.pos + 1;
        let kind = self.ident();
        let msg = match kind.as_str() {
            "ld" | "st" if self.s[self.pos..].starts_with(&['.', 's', 'c']) => {
                self.expect('.', "'.scratch'")?;
                let scol = self.pos + 1;
                if self.ident() != "scratch" {
                    return Err(self.err_at(scol, "expected 'scratch'"));
                }
                match (kind.as_str(), dst, data) {
                    ("ld", Some(dst), None) => Message::ScratchRead { dst, header: addr },
                    ("st", None, Some(data)) => Message::ScratchWrite { header: addr, data },
                    ("ld", ..) => {
                        return Err(self.err_at(col, "a fill is 'send(N) gDST gHEADER ld.scratch'"))
                    }
                    _ => {
                        return Err(self.err_at(
                            col,
                            "a spill is 'send(N) null gHEADER gDATA st.scratch'",
                        ))
                    }
                }
            }
            "ld" | "st" => {
                self.expect('.', "'.' and a size (b8, b16, b32, b64) or 'scratch'")?;
                let scol = self.pos + 1;
                let sz = self.ident();
                let size = MsgSize::from_name(&sz).ok_or_else(|| {
                    self.err_at(scol, format!("expected b8, b16, b32 or b64, found '{sz}'"))
                })?;
                if kind == "ld" {
                    match (dst, data) {
                        (Some(dst), None) => Message::Load { size, dst, addr },
                        _ => return Err(self.err_at(col, "a load is 'send(N) gDST gADDR ld.bS'")),
                    }
                } else {
                    match (dst, data) {
                        (None, Some(data)) => Message::Store { size, addr, data },
                        _ => {
                            return Err(
                                self.err_at(col, "a store is 'send(N) null gADDR gDATA st.bS'")
                            )
                        }
                    }
                }
            }
            "end" => match (dst, data) {
                (None, None) => Message::End { payload: addr },
                _ => return Err(self.err_at(col, "an end message is 'send(N) null gP end'")),
            },
            _ => {
                return Err(self.err_at(
                    col,
                    format!("expected a message 'ld.bS', 'st.bS', 'ld.scratch', 'st.scratch' or 'end', found '{kind}'"),
                ))
            }
        };
        inst.msg = Some(msg);
        Ok(())
    }

    /// Whether the send's operands are in the disassembler's form
    /// (`g7<1>UD g3<8,8,1>UD 0x...`), which has a region after the first
    /// register, unlike the compact `g7 g3 ld.b32`.
    pub(super) fn disasm_send_ahead(&self) -> bool {
        let rest: String = self.s[self.pos..].iter().collect();
        let first = rest.split_whitespace().next().unwrap_or("");
        first.contains('<') || first.ends_with("UD")
    }

    /// A GRF operand of a send: `gN`/`vgrfN[+k]` with `<1>UD` (destination),
    /// `<8,8,1>UD` (payload), or `UD` alone (split sends); or `null`.
    fn send_reg(&mut self, what: &str, region: &str) -> PResult<Option<u32>> {
        self.skip_ws()?;
        let col = self.pos + 1;
        let nr = if self.peek() == Some('n') {
            let w: String = self.s[self.pos..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            if !w.starts_with("null") {
                return Err(self.err_at(col, format!("expected {what}: a GRF or 'null'")));
            }
            self.pos += 4;
            None
        } else {
            Some(self.grf_name(what)?)
        };
        if !self.eat_str(region) && !self.eat_str("UD") {
            let shown = if region.is_empty() { "UD" } else { region };
            return Err(self.found(&format!("expected '{shown}' after the {what}")));
        }
        if region == "<1>" || region == "<8,8,1>" {
            // `<1>UD`, `<1>UW` (null), `<8,8,1>UD`: the type follows.
            let t = self.type_suffix()?;
            if !matches!(t, RegType::UD | RegType::UW) {
                return Err(self.err_at(col, format!("a send's {what} is UD or UW, not {t}")));
            }
        }
        Ok(nr)
    }

    fn hex_word(&mut self, what: &str) -> PResult<u32> {
        self.skip_ws()?;
        let col = self.pos + 1;
        if !self.eat_str("0x") {
            return Err(self.found(&format!("expected the {what} (0x...)")));
        }
        let digits = self.ident();
        u32::from_str_radix(&digits, 16)
            .map_err(|_| self.err_at(col, format!("expected the {what} as 8 hex digits")))
    }

    /// `send(N) DST SRC0 DESC` or `sends(N) DST SRC0 SRC1 DESC EX_DESC`.
    pub(super) fn disasm_send_operands(&mut self, split: bool) -> PResult<PendingSend> {
        let (dst, src0, src1) = if split {
            let dst = self.send_reg("destination", "")?;
            let src0 = self.send_reg("payload", "")?;
            let src1 = self.send_reg("data payload", "")?;
            (dst, src0, src1)
        } else {
            let dst = self.send_reg("destination", "<1>")?;
            let src0 = self.send_reg("payload", "<8,8,1>")?;
            (dst, src0, None)
        };
        let Some(src0) = src0 else {
            return Err(self.err("a send's payload is a GRF"));
        };
        self.skip_ws()?;
        let (line, col) = (self.line, self.pos + 1);
        let desc = self.hex_word("message descriptor")?;
        if split {
            self.hex_word("extended message descriptor")?;
        }
        Ok(PendingSend {
            dst,
            src0,
            src1,
            desc,
            line,
            col,
        })
    }

    /// The second line: `SFID MsgDesc: ... mlen M ... rlen R { options };`.
    pub(super) fn send_details(
        &mut self,
        inst: &mut Instruction,
        send: PendingSend,
    ) -> PResult<()> {
        self.skip_ws()?;
        let col = self.pos + 1;
        let sfid: String = self.s[self.pos..]
            .iter()
            .take_while(|c| !c.is_whitespace())
            .collect();
        self.pos += sfid.chars().count();
        self.skip_ws()?;
        if !self.eat_str("MsgDesc:") {
            return Err(self.found("expected 'MsgDesc:' after the SFID"));
        }
        // The decoding repeats the descriptor: skip it up to the options.
        while self.peek().is_some_and(|c| c != '{') {
            self.pos += 1;
        }
        let msg = super::send::decode(
            &sfid,
            send.desc,
            inst.exec_size,
            send.dst,
            send.src0,
            send.src1,
        )
        .map_err(|e| {
            if e.starts_with("SFID") {
                self.err_at(col, e)
            } else {
                ParseError {
                    file: None,
                    line: send.line,
                    col: send.col,
                    msg: e,
                }
            }
        })?;
        inst.msg = Some(msg);
        self.options(inst)?;
        self.end_of_line()
    }
}
