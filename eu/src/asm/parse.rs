//! Parser for the Mesa-style assembly text (see ISA.md, "Text syntax").

use std::collections::BTreeMap;
use std::fmt;

use super::cursor::{Cur, PResult};
use super::parse_send::PendingSend;
use crate::fp;
use crate::isa::{
    Align16, CondMod, Dst, DstKind, FlagReg, Instruction, MathFn, Opcode, PredMode, Predicate,
    Program, Region, Src, SrcKind, Swizzle,
};
use crate::types::{RegType, ALL_TYPES};

/// Where `vgrfN+k` lands in a parsed program: above the 128 physical GRFs,
/// `VGRF_SPAN` registers per virtual register.
pub const VGRF_BASE: u32 = 128;
/// GRFs reserved per virtual register when parsing `vgrfN+k`.
pub const VGRF_SPAN: u32 = 16;

/// A parse error with its position (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// File name, when known.
    pub file: Option<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What was expected / what went wrong.
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(name) => write!(f, "{name}:{}:{}: {}", self.line, self.col, self.msg),
            None => write!(f, "{}:{}: {}", self.line, self.col, self.msg),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parse a program (no file name in errors).
pub fn parse_program(text: &str) -> Result<Program, ParseError> {
    parse_impl(text)
}

/// Parse a program; errors carry `file`.
pub fn parse_program_named(text: &str, file: &str) -> Result<Program, ParseError> {
    parse_impl(text).map_err(|mut e| {
        e.file = Some(file.to_string());
        e
    })
}

/// Parse a single instruction line (branch targets must be `@index`).
pub fn parse_instruction(line: &str) -> Result<Instruction, ParseError> {
    let p = parse_impl(line)?;
    match p.insts.len() {
        1 => Ok(p
            .insts
            .into_iter()
            .next()
            .unwrap_or_else(|| Instruction::new(Opcode::Nop, 1))),
        n => Err(ParseError {
            file: None,
            line: 1,
            col: 1,
            msg: format!("expected exactly one instruction, found {n}"),
        }),
    }
}

struct LabelRef {
    inst: usize,
    is_uip: bool,
    name: String,
    line: usize,
    col: usize,
}

fn parse_impl(text: &str) -> PResult<Program> {
    let mut insts = Vec::new();
    let mut labels: BTreeMap<String, (u32, usize, usize)> = BTreeMap::new();
    let mut refs: Vec<LabelRef> = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((ln, line)) = lines.next() {
        let mut c = Cur::new(line, ln + 1);
        c.skip_ws()?;
        if c.at_end() {
            continue;
        }
        // Label line?
        if let Some(name) = c.try_label()? {
            if labels.contains_key(&name) {
                return Err(c.err_at(1, format!("duplicate label '{name}'")));
            }
            labels.insert(name, (insts.len() as u32, ln + 1, 1));
            continue;
        }
        let idx = insts.len();
        let (mut inst, pending) = c.instruction(idx, &mut refs)?;
        if let Some(send) = pending {
            // The disassembler's second line of a send.
            let Some((ln2, line2)) = lines.next() else {
                return Err(c.err(
                    "expected the send's second line (`SFID MsgDesc: ...`), found end of file",
                ));
            };
            let mut c2 = Cur::new(line2, ln2 + 1);
            c2.send_details(&mut inst, send)?;
        }
        insts.push(inst);
    }
    for r in refs {
        let target = if let Some(num) = r.name.strip_prefix('@') {
            num.parse::<u32>().ok()
        } else {
            labels.get(&r.name).map(|t| t.0)
        };
        let Some(t) = target else {
            return Err(ParseError {
                file: None,
                line: r.line,
                col: r.col,
                msg: format!("undefined label '{}'", r.name),
            });
        };
        if r.is_uip {
            insts[r.inst].uip = Some(t);
        } else {
            insts[r.inst].jip = Some(t);
        }
    }
    Ok(Program { insts })
}

impl Cur {
    fn try_label(&mut self) -> PResult<Option<String>> {
        let save = self.pos;
        if !self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            return Ok(None);
        }
        let name = self.ident();
        self.skip_ws()?;
        if self.eat(':') {
            self.skip_ws()?;
            if !self.at_end() {
                return Err(self.found("expected end of line after label"));
            }
            return Ok(Some(name));
        }
        self.pos = save;
        Ok(None)
    }

    pub(super) fn end_of_line(&mut self) -> PResult<()> {
        self.skip_ws()?;
        if self.at_end() {
            Ok(())
        } else {
            Err(self.found("expected end of instruction"))
        }
    }

    fn flag_reg(&mut self) -> PResult<FlagReg> {
        if !self.eat('f') {
            return Err(self.found("expected flag register 'fN.M'"));
        }
        let nr = self.small("flag register number")?;
        self.expect('.', "'.' and flag subregister")?;
        let sub = self.small("flag subregister")?;
        Ok(FlagReg { nr, sub })
    }

    fn predicate(&mut self) -> PResult<(Predicate, FlagReg)> {
        // after '('
        let inverse = if self.eat('-') {
            true
        } else {
            self.eat('+');
            false
        };
        let flag = self.flag_reg()?;
        let mut mode = PredMode::Normal;
        if self.eat('.') {
            let col = self.pos + 1;
            let m = self.ident();
            let parse_n = |p: &str| -> Option<u8> {
                let n: u8 = m.strip_prefix(p)?.strip_suffix('h')?.parse().ok()?;
                [2u8, 4, 8, 16, 32].contains(&n).then_some(n)
            };
            let component = ["x", "y", "z", "w"].iter().position(|c| *c == m);
            mode = if let Some(n) = parse_n("any") {
                PredMode::Any(n)
            } else if let Some(n) = parse_n("all") {
                PredMode::All(n)
            } else if let Some(k) = component {
                PredMode::Replicate(k as u8)
            } else {
                return Err(self.err_at(
                    col,
                    format!("expected predicate mode any2h..any32h, all2h..all32h or an Align16 component x, y, z or w, found '{m}'"),
                ));
            };
        }
        self.expect(')', "')' closing the predicate")?;
        Ok((Predicate { inverse, mode }, flag))
    }

    /// One instruction line; a send in the disassembler's form also
    /// returns what its second line must complete.
    fn instruction(
        &mut self,
        idx: usize,
        refs: &mut Vec<LabelRef>,
    ) -> PResult<(Instruction, Option<PendingSend>)> {
        let mut pred = None;
        let mut pred_flag = None;
        if self.eat('(') {
            let (p, f) = self.predicate()?;
            pred = Some(p);
            pred_flag = Some(f);
            self.skip_ws()?;
        }
        let col = self.pos + 1;
        let name = self.ident();
        if name.is_empty() {
            return Err(self.found("expected an opcode"));
        }
        let split = name == "sends";
        let Some(op) = Opcode::from_name(if split { "send" } else { &name }) else {
            return Err(self.err_at(col, format!("unknown opcode '{name}'")));
        };
        let mut inst = Instruction::new(op, 1);
        inst.pred = pred;
        if let Some(f) = pred_flag {
            inst.flag = f;
        }
        // Suffixes.
        while self.eat('.') {
            let col = self.pos + 1;
            if self.peek() == Some('f') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
                if inst.cmod.is_none() {
                    return Err(
                        self.err_at(col, "flag register suffix needs a conditional modifier")
                    );
                }
                let f = self.flag_reg()?;
                if pred_flag.is_some_and(|p| p != f) {
                    return Err(self.err_at(
                        col,
                        "predicate and conditional modifier must use the same flag register",
                    ));
                }
                inst.flag = f;
                continue;
            }
            let s = self.ident();
            if s == "sat" {
                if inst.sat || inst.cmod.is_some() {
                    return Err(self.err_at(
                        col,
                        "'.sat' must come once, before the conditional modifier",
                    ));
                }
                inst.sat = true;
            } else if let Some(c) = CondMod::from_name(&s) {
                if inst.cmod.is_some() {
                    return Err(self.err_at(col, "duplicate conditional modifier"));
                }
                inst.cmod = Some(c);
            } else {
                return Err(self.err_at(
                    col,
                    format!(
                        "expected 'sat', a conditional modifier or a flag register, found '{s}'"
                    ),
                ));
            }
        }
        if op == Opcode::Math {
            self.skip_ws()?;
            let col = self.pos + 1;
            let f = self.ident();
            if f.is_empty() {
                return Err(self.found("expected a math function"));
            }
            match MathFn::from_name(&f) {
                Some(m) => inst.math = Some(m),
                None => {
                    return Err(self.err_at(
                        col,
                        format!("expected math function 'intdiv' or 'intmod', found '{f}'"),
                    ))
                }
            }
        }
        if op == Opcode::Nop {
            // The printer writes a bare `nop`: accept nothing it would drop.
            if inst.sat || inst.cmod.is_some() {
                return Err(self.err_at(col, "'nop' takes no '.sat' or conditional modifier"));
            }
            let bare = inst;
            self.skip_ws()?;
            let options_col = self.pos + 1;
            self.options(&mut inst)?;
            if inst != bare {
                return Err(self.err_at(options_col, "'nop' takes no instruction options"));
            }
            self.end_of_line()?;
            return Ok((inst, None));
        }
        // An ALU instruction's Align16 operand parts, applied once the
        // options say whether it is Align16.
        let mut vec4_text = None;
        self.expect('(', "'(' and an execution size")?;
        inst.exec_size = self.small("execution size")?;
        self.expect(')', "')' after the execution size")?;
        if op == Opcode::Send {
            self.skip_ws()?;
            if split || self.disasm_send_ahead() {
                let pending = self.disasm_send_operands(split)?;
                self.end_of_line()?;
                return Ok((inst, Some(pending)));
            }
            self.send_operands(&mut inst)?;
        } else if op.is_cf() {
            self.cf_operands(&mut inst, idx, refs)?;
        } else {
            self.skip_ws()?;
            let vec4 = vec4_text.insert(Vec4Text::default());
            let (dst, mask) = self.dst()?;
            inst.dst = dst;
            vec4.writemask = mask;
            for k in 0..op.num_srcs() {
                self.skip_ws()?;
                if self.at_end() || self.peek() == Some('{') {
                    return Err(self.found(&format!("expected source operand {k}")));
                }
                let (src, swizzle, short) = self.src(op.is_logic())?;
                inst.srcs.push(src);
                vec4.swizzles.push(swizzle);
                vec4.short = vec4.short.or(short);
            }
        }
        self.options(&mut inst)?;
        self.end_of_line()?;
        if let Some(vec4) = vec4_text {
            self.apply_vec4(&mut inst, vec4)?;
        }
        Ok((inst, None))
    }

    /// Puts the Align16 parts of an ALU instruction's operands into
    /// `inst`, which must be Align16 if it has any.
    fn apply_vec4(&self, inst: &mut Instruction, vec4: Vec4Text) -> PResult<()> {
        let Some(a) = inst.align16.as_mut() else {
            let col = vec4
                .writemask
                .map(|(_, c)| c)
                .or(vec4.swizzles.iter().flatten().map(|(_, c)| *c).next())
                .or(vec4.short);
            return match col {
                Some(col) => Err(self.err_at(
                    col,
                    "a writemask, a swizzle or a vertical-stride-only region needs { align16 }",
                )),
                None => Ok(()),
            };
        };
        if let Some((mask, _)) = vec4.writemask {
            a.writemask = mask;
        }
        for (k, swz) in vec4.swizzles.iter().enumerate() {
            if let Some((swz, _)) = swz {
                a.swizzle[k] = *swz;
            }
        }
        Ok(())
    }

    pub(super) fn options(&mut self, inst: &mut Instruction) -> PResult<()> {
        self.skip_ws()?;
        if self.eat('{') {
            loop {
                self.skip_ws()?;
                if self.eat('}') {
                    break;
                }
                if self.at_end() {
                    return Err(self.err("expected '}' closing the options"));
                }
                let col = self.pos + 1;
                let w = self.ident();
                if w.is_empty() {
                    return Err(self.found("expected an instruction option"));
                }
                match w.as_str() {
                    "align1" => {}
                    "align16" => inst.align16 = Some(Align16::FULL),
                    "WE_all" | "NoMask" => inst.we_all = true,
                    "EOT" => inst.eot = true,
                    _ => {
                        let group = qtr_group(&w).ok_or_else(|| {
                            self.err_at(
                                col,
                                format!(
                                    "expected align1, align16, WE_all, EOT or a channel group (1Q-4Q, 1H-2H, 1N-8N), found '{w}'"
                                ),
                            )
                        })?;
                        inst.group = group;
                    }
                }
            }
        }
        self.skip_ws()?;
        self.eat(';');
        Ok(())
    }

    fn label_ref(&mut self) -> PResult<(String, usize)> {
        self.skip_ws()?;
        let col = self.pos + 1;
        if self.eat('@') {
            let n = self.number("instruction index")?;
            return Ok((format!("@{n}"), col));
        }
        let name = self.ident();
        if name.is_empty() {
            return Err(self.found("expected a label"));
        }
        Ok((name, col))
    }

    fn cf_operands(
        &mut self,
        inst: &mut Instruction,
        idx: usize,
        refs: &mut Vec<LabelRef>,
    ) -> PResult<()> {
        let op = inst.op;
        for (needed, key, is_uip) in [(op.has_jip(), "JIP", false), (op.has_uip(), "UIP", true)] {
            if !needed {
                continue;
            }
            self.skip_ws()?;
            let col = self.pos + 1;
            let k = self.ident();
            if k != key {
                return Err(self.err_at(col, format!("expected '{key}:'")));
            }
            self.expect(':', "':'")?;
            let (name, col) = self.label_ref()?;
            refs.push(LabelRef {
                inst: idx,
                is_uip,
                name,
                line: self.line,
                col,
            });
            // Placeholder until labels resolve.
            if is_uip {
                inst.uip = Some(0);
            } else {
                inst.jip = Some(0);
            }
        }
        Ok(())
    }

    /// `gN`, or `vgrfN[+k]` (a listing before register allocation): the
    /// k-th GRF of virtual register N, placed at `VGRF_BASE + N * VGRF_SPAN
    /// + k` so that a virtual program runs as it is.
    pub(super) fn grf_name(&mut self, what: &str) -> PResult<u32> {
        let col = self.pos + 1;
        if self.eat_str("vgrf") {
            let n = self.number("virtual register number")?;
            let k = if self.eat('+') {
                self.number("register offset")?
            } else {
                0
            };
            if k >= VGRF_SPAN || n >= (u32::MAX - VGRF_BASE) / VGRF_SPAN - 1 {
                return Err(self.err_at(
                    col,
                    format!("vgrf{n}+{k} is out of range (offsets below {VGRF_SPAN})"),
                ));
            }
            return Ok(VGRF_BASE + n * VGRF_SPAN + k);
        }
        if !self.eat('g') {
            return Err(self.found(&format!("expected {what} GRF 'gN' or 'vgrfN'")));
        }
        self.number("register number")
    }

    pub(super) fn grf_nr(&mut self, what: &str) -> PResult<u32> {
        self.skip_ws()?;
        if !self.eat('g') {
            return Err(self.found(&format!("expected {what} GRF 'gN'")));
        }
        self.number("register number")
    }

    pub(super) fn type_suffix(&mut self) -> PResult<RegType> {
        let col = self.pos + 1;
        let t = self.ident();
        RegType::from_name(&t).ok_or_else(|| {
            if t.is_empty() {
                self.found("expected a type (UB B UW W UD D UQ Q HF F DF)")
            } else {
                self.err_at(col, format!("unknown type '{t}'"))
            }
        })
    }

    /// Register name: returns (file, nr, sub) with file 'g', 'n' (null), 'f'.
    fn reg(&mut self) -> PResult<(char, u32, u32)> {
        let col = self.pos + 1;
        match self.peek() {
            Some('g') | Some('v') => {
                let nr = self.grf_name("a")?;
                let sub = if self.eat('.') {
                    self.number("subregister")?
                } else {
                    0
                };
                Ok(('g', nr, sub))
            }
            Some('f') => {
                self.pos += 1;
                let nr = self.number("flag register number")?;
                let sub = if self.eat('.') {
                    self.number("flag subregister")?
                } else {
                    0
                };
                if nr > 255 || sub > 255 {
                    return Err(self.err_at(col, "flag register out of range"));
                }
                Ok(('f', nr, sub))
            }
            Some('n') => {
                let w = self.ident();
                if w != "null" {
                    return Err(self.err_at(col, format!("expected a register, found '{w}'")));
                }
                Ok(('n', 0, 0))
            }
            _ => Err(self.found("expected a register (gN, null, fN.M)")),
        }
    }

    /// A destination, and its Align16 writemask if it has one (with its
    /// column).
    fn dst(&mut self) -> PResult<(Dst, Option<Placed<u8>>)> {
        let (file, nr, sub) = self.reg()?;
        self.expect('<', "'<' and a destination stride")?;
        let stride = self.small("destination stride")?;
        self.expect('>', "'>'")?;
        let mask = self.components()?.map(|(c, col)| {
            let m = c.iter().fold(0u8, |m, &k| m | 1 << k);
            (m, col)
        });
        let ty = self.type_suffix()?;
        let kind = match file {
            'g' => DstKind::Grf { nr, sub },
            'f' => DstKind::Flag {
                nr: nr as u8,
                sub: sub as u8,
            },
            _ => DstKind::Null,
        };
        Ok((Dst { kind, ty, stride }, mask))
    }

    /// Align16 component letters after a '.' (`.xy`, `.xxxx`; a lone '.'
    /// is the empty writemask), with the column of the '.'.
    fn components(&mut self) -> PResult<Option<(Vec<u8>, usize)>> {
        let col = self.pos + 1;
        if self.peek() != Some('.') {
            return Ok(None);
        }
        self.pos += 1;
        let mut c = Vec::new();
        while let Some(k) = self.peek().and_then(|ch| "xyzw".find(ch)) {
            c.push(k as u8);
            self.pos += 1;
        }
        Ok(Some((c, col)))
    }

    /// A source; for Align16, its swizzle (with the column) and the column
    /// of a region given as its vertical stride alone (`<4>`).
    fn src(&mut self, logic: bool) -> PResult<(Src, Option<Placed<Swizzle>>, Option<usize>)> {
        let mut neg = false;
        let mut abs = false;
        let neg_col = self.pos;
        if self.eat('~') {
            if !logic {
                return Err(self.err_at(neg_col + 1, "'~' is only valid on logic instructions"));
            }
            neg = true;
        } else if self.peek() == Some('-') && !self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
            neg = true;
        }
        if self.peek() == Some('(') {
            let col = self.pos + 1;
            self.pos += 1;
            let w = self.ident();
            if w != "abs" || !self.eat(')') {
                return Err(self.err_at(col, "expected '(abs)'"));
            }
            abs = true;
        }
        if self.peek().is_some_and(|c| c.is_ascii_digit() || c == '-') {
            if neg || abs {
                return Err(self.err("source modifiers are not allowed on immediates"));
            }
            return Ok((self.immediate()?, None, None));
        }
        let (file, nr, sub) = self.reg()?;
        let region_col = self.pos + 1;
        self.expect('<', "'<' and a region <v,w,h>")?;
        let v = self.small("vertical stride")?;
        // Align16 regions print as their vertical stride alone.
        let (w, h, short) = if self.eat('>') {
            (4, 1, Some(region_col))
        } else {
            if !self.eat(',') && !self.eat(';') {
                return Err(self.found("expected ',' or ';' after the vertical stride"));
            }
            let w = self.small("width")?;
            self.expect(',', "','")?;
            let h = self.small("horizontal stride")?;
            self.expect('>', "'>'")?;
            (w, h, None)
        };
        let swizzle = match self.components()? {
            None => None,
            Some((c, col)) => match c.len() {
                1 => Some((Swizzle::of([c[0]; 4]), col)),
                4 => Some((Swizzle::of([c[0], c[1], c[2], c[3]]), col)),
                _ => {
                    return Err(self.err_at(col, "expected a swizzle of one or four of x, y, z, w"))
                }
            },
        };
        let ty = self.type_suffix()?;
        let kind = match file {
            'g' => SrcKind::Grf { nr, sub },
            'f' => SrcKind::Flag {
                nr: nr as u8,
                sub: sub as u8,
            },
            _ => SrcKind::Null,
        };
        let src = Src {
            kind,
            ty,
            region: Region::new(v, w, h),
            neg,
            abs,
        };
        Ok((src, swizzle, short))
    }

    fn immediate(&mut self) -> PResult<Src> {
        let start = self.pos;
        let col = start + 1;
        let negative = self.eat('-');
        if self.peek() == Some('0') && matches!(self.peek_at(1), Some('x') | Some('X')) {
            if negative {
                return Err(self.err_at(col, "hexadecimal immediates cannot be negative"));
            }
            self.pos += 2;
            let body = self.ident();
            for ty in ALL_TYPES {
                let Some(digits) = body.strip_suffix(ty.name()) else {
                    continue;
                };
                let width = 2 * ty.size() as usize;
                // The disassembler prints F and VF immediates unpadded.
                let unpadded = matches!(ty, RegType::F | RegType::VF);
                let fits =
                    digits.len() == width || (unpadded && (1..width).contains(&digits.len()));
                if fits && digits.chars().all(|c| c.is_ascii_hexdigit()) {
                    let v = u64::from_str_radix(digits, 16)
                        .map_err(|_| self.err_at(col, "invalid hexadecimal immediate"))?;
                    return Ok(Src::imm(v, ty));
                }
            }
            return Err(self.err_at(
                col,
                "expected a hexadecimal immediate with the type's full digit count and a type suffix (e.g. 0x3f800000F)",
            ));
        }
        let mut txt = String::new();
        if negative {
            txt.push('-');
        }
        let mut is_float = false;
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() {
                txt.push(c);
                self.pos += 1;
            } else if c == '.' && !is_float {
                is_float = true;
                txt.push(c);
                self.pos += 1;
            } else if c == 'e'
                && self
                    .peek_at(1)
                    .is_some_and(|d| d.is_ascii_digit() || d == '-' || d == '+')
            {
                is_float = true;
                txt.push(c);
                self.pos += 1;
                if let Some(sign @ ('-' | '+')) = self.peek() {
                    txt.push(sign);
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
        let ty = self.type_suffix()?;
        if ty.is_float() && ty != RegType::VF {
            let x: f64 = txt
                .parse()
                .map_err(|_| self.err_at(col, format!("invalid number '{txt}'")))?;
            let bits = match ty {
                RegType::HF => fp::f64_to_hf(x) as u64,
                RegType::F => (x as f32).to_bits() as u64,
                _ => x.to_bits(),
            };
            return Ok(Src::imm(bits, ty));
        }
        if is_float {
            return Err(self.err_at(
                col,
                format!("a fractional immediate needs HF, F or DF, not {ty}"),
            ));
        }
        let v: i128 = txt
            .parse()
            .map_err(|_| self.err_at(col, format!("invalid number '{txt}'")))?;
        let (lo, hi) = if ty.is_vector_imm() {
            (0, u32::MAX as i128)
        } else {
            (ty.int_min(), ty.int_max())
        };
        if v < lo || v > hi {
            return Err(self.err_at(col, format!("immediate {v} out of range for {ty}")));
        }
        Ok(Src::imm((v as u64) & ty.mask(), ty))
    }
}

/// A value parsed from the text, with its column.
type Placed<T> = (T, usize);

/// The Align16 parts of an ALU instruction's operand text, applied once the
/// options say whether it is Align16.
#[derive(Default)]
struct Vec4Text {
    writemask: Option<Placed<u8>>,
    swizzles: Vec<Option<Placed<Swizzle>>>,
    /// The column of the first region given as its vertical stride alone.
    short: Option<usize>,
}

fn qtr_group(w: &str) -> Option<u8> {
    let (num, unit) = w.split_at(w.len().checked_sub(1)?);
    let n: u8 = num.parse().ok()?;
    match unit {
        "Q" if (1..=4).contains(&n) => Some((n - 1) * 8),
        "H" if (1..=2).contains(&n) => Some((n - 1) * 16),
        "N" if (1..=8).contains(&n) => Some((n - 1) * 4),
        _ => None,
    }
}
