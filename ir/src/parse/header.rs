//! The header and declarations: NIR's `shader: MESA_SHADER_COMPUTE` block
//! with `decl_var` and `decl_function`, or the older `shader: NAME` with
//! `decl_input`/`decl_uniform`/`decl_output`.

use super::cursor::Cur;
use super::{PResult, Parser};
use crate::nir::slot_from_glsl_name;
use crate::op::Op;
use crate::program::Program;
use crate::types::SlotType;

/// What the declarations say about slots, for the I/O intrinsics' indices.
#[derive(Default)]
pub(super) struct Decls {
    /// `(driver_location, slot)` of each `decl_var`, per mode.
    inputs: Vec<(u64, u64)>,
    uniforms: Vec<(u64, u64)>,
    outputs: Vec<(u64, u64)>,
}

impl Decls {
    /// Whether the file declared its slots with `decl_var`.
    pub(super) fn has_vars(&self) -> bool {
        !(self.inputs.is_empty() && self.uniforms.is_empty() && self.outputs.is_empty())
    }

    /// The slot of the variable of `op`'s mode at `driver_location`.
    pub(super) fn slot_of_driver_location(&self, op: Op, driver_location: u64) -> Option<u64> {
        let vars = match op {
            Op::LoadInput => &self.inputs,
            Op::LoadUniform => &self.uniforms,
            _ => &self.outputs,
        };
        vars.iter()
            .find(|(d, _)| *d == driver_location)
            .map(|(_, s)| *s)
    }
}

/// NIR's variable modes we map, and what they become.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Input,
    Uniform,
    Output,
}

/// A `decl_var` line: a slot variable, or a buffer (whose accesses the
/// memory front end maps).
enum Var {
    Slot {
        mode: Mode,
        location: u64,
        driver_location: u64,
        ty: SlotType,
    },
    Buffer {
        ubo: bool,
        binding: u64,
        name: String,
    },
}

impl Parser<'_> {
    /// Parses from `shader:` up to (not including) `impl`.
    pub(super) fn header(&mut self, program: &mut Program) -> PResult<Decls> {
        let mut c = self.next("`shader: NAME`")?;
        c.expect_word("shader")?;
        c.expect(':')?;
        c.ws();
        let save = c.pos;
        let name = c.word();
        if let Some(stage) = name.strip_prefix("MESA_SHADER_") {
            if stage != "COMPUTE" {
                c.pos = save;
                return c.err(format!(
                    "`{name}`: only compute shaders are modelled (MESA_SHADER_COMPUTE)"
                ));
            }
            c.end()?;
            program.name = "nir".to_string();
            return self.nir_header(program);
        }
        if name.is_empty() {
            return c.err(format!("expected a shader name, found {}", c.found()));
        }
        program.name = name.to_string();
        c.end()?;
        self.old_decls(program)?;
        Ok(Decls::default())
    }

    /// `decl_input N TYPE` and friends, slots in order.
    fn old_decls(&mut self, program: &mut Program) -> PResult<()> {
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
        Ok(())
    }

    /// The `key: value` lines of `print_shader_info` (only `name` matters
    /// to us), then `decl_var` and `decl_function` lines.
    fn nir_header(&mut self, program: &mut Program) -> PResult<Decls> {
        let mut decls = Decls::default();
        // (mode, location, type, line) of each variable.
        let mut vars: Vec<(Mode, u64, SlotType, usize)> = Vec::new();
        let mut functions = 0;
        loop {
            match self.peek_word() {
                Some("impl") | None => break,
                Some("decl_var") => {
                    let mut c = self.next("a declaration")?;
                    let (mode, loc, driver, t) = match decl_var(&mut c)? {
                        Var::Slot {
                            mode,
                            location,
                            driver_location,
                            ty,
                        } => (mode, location, driver_location, ty),
                        Var::Buffer { ubo, binding, name } => {
                            self.mem.names.push((binding, ubo, name));
                            continue;
                        }
                    };
                    let list = match mode {
                        Mode::Input => &mut decls.inputs,
                        Mode::Uniform => &mut decls.uniforms,
                        Mode::Output => &mut decls.outputs,
                    };
                    list.push((driver, loc));
                    vars.push((mode, loc, t, c.line));
                }
                Some("decl_function") => {
                    let mut c = self.next("a declaration")?;
                    c.word();
                    functions += 1;
                    if functions > 1 {
                        return c.err("only one function is modelled");
                    }
                    c.expect_word("main")?;
                }
                Some(_) => {
                    let mut c = self.next("a header line")?;
                    c.ws();
                    let rest = &c.s[c.pos..];
                    let Some((key, value)) = rest.split_once(':') else {
                        return c.err(format!(
                            "expected `key: value`, `decl_var`, `decl_function` or `impl`, found {}",
                            c.found()
                        ));
                    };
                    if key.trim() == "name" && !value.trim().is_empty() {
                        program.name = value.trim().to_string();
                    }
                    if key.trim() == "workgroup_size" {
                        let dims: Vec<u64> = value
                            .split(',')
                            .filter_map(|d| d.trim().parse().ok())
                            .collect();
                        self.mem.workgroup = <[u64; 3]>::try_from(dims).ok();
                    }
                }
            }
        }
        for (mode, slots) in [
            (Mode::Input, &mut program.inputs),
            (Mode::Uniform, &mut program.uniforms),
            (Mode::Output, &mut program.outputs),
        ] {
            let mut of_mode: Vec<_> = vars.iter().filter(|v| v.0 == mode).collect();
            of_mode.sort_by_key(|v| v.1);
            for (k, (_, loc, t, line)) in of_mode.into_iter().enumerate() {
                if *loc != k as u64 {
                    let c = Cur {
                        line: *line,
                        s: "",
                        pos: 0,
                    };
                    return c.err(format!(
                        "variable locations of a mode must be 0, 1, 2, ... without gaps or repeats; expected location {k}, found {loc}"
                    ));
                }
                slots.push(*t);
            }
        }
        Ok(decls)
    }
}

/// `decl_var [qualifiers] MODE INTERP ACCESS TYPE NAME (LOC[.x], DRIVER, BINDING)`:
/// the mode, location, driver location and type, or for a buffer its
/// binding and name.
fn decl_var(c: &mut Cur) -> PResult<Var> {
    c.word();
    // The words before the location list, with their byte offsets.
    let head_end = c.s[c.pos..]
        .find(['(', '='])
        .map_or(c.s.len(), |i| c.pos + i);
    let mut words = Vec::new();
    let mut at = c.pos;
    for w in c.s[c.pos..head_end].split(' ') {
        if !w.trim().is_empty() {
            words.push((at, w.trim()));
        }
        at += w.len() + 1;
    }
    c.pos = head_end;
    // The mode, and what it becomes: a slot mode, a buffer (`Err(ubo)`),
    // or nothing we model (`None`).
    let mode = words.iter().find_map(|(at, w)| {
        let m = match *w {
            "shader_in" => Some(Ok(Mode::Input)),
            "shader_out" => Some(Ok(Mode::Output)),
            "uniform" => Some(Ok(Mode::Uniform)),
            "ssbo" => Some(Err(false)),
            "ubo" => Some(Err(true)),
            "system" | "shared" | "global" | "push_const" | "constant" | "image"
            | "shader_temp" | "function_temp" => None,
            _ => return None,
        };
        Some((*at, *w, m))
    });
    let Some((at, mode_name, mode)) = mode else {
        return c.err("expected a variable mode (shader_in, shader_out, uniform, ssbo, ubo)");
    };
    let Some(mode) = mode else {
        c.pos = at;
        return c.err(format!(
            "variables of mode `{mode_name}` are not modelled (only shader_in, shader_out, uniform, ssbo and ubo)"
        ));
    };
    if words.len() < 2 {
        return c.err("expected a type and a name");
    }
    if c.peek() != Some('(') {
        return c.err("expected `(LOCATION, DRIVER_LOCATION, BINDING)`");
    }
    let mode = match mode {
        Ok(m) => m,
        Err(ubo) => {
            // A buffer: its binding is the third number; its accesses are
            // mapped where they are made.
            let open = c.pos;
            let inner = c.paren_group()?;
            let binding = inner.split(',').nth(2).map(|b| b.trim().parse::<u64>());
            let Some(Ok(binding)) = binding else {
                c.pos = open;
                return c.err(format!(
                    "expected `(LOCATION, DRIVER_LOCATION, BINDING)`, found `({inner})`"
                ));
            };
            let name = words[words.len() - 1].1.to_string();
            return Ok(Var::Buffer { ubo, binding, name });
        }
    };
    let (tat, tname) = words[words.len() - 2];
    let Some(t) = slot_from_glsl_name(tname) else {
        c.pos = tat;
        return c.err(format!(
            "type `{tname}` is not modelled (scalars only: bool, int8_t, int16_t, int, int64_t, float16_t, float, double)"
        ));
    };
    let open = c.pos;
    let inner = c.paren_group()?;
    let mut parts = inner.split(',').map(str::trim);
    let loc_text = parts.next().unwrap_or("");
    let loc_text = loc_text.strip_suffix(".x").unwrap_or(loc_text);
    let (Ok(loc), Some(Ok(driver))) =
        (loc_text.parse::<u64>(), parts.next().map(str::parse::<u64>))
    else {
        c.pos = open;
        return c.err(format!(
            "expected `(LOCATION, DRIVER_LOCATION, BINDING)` with a scalar location, found `({inner})`"
        ));
    };
    if c.peek_rest_starts_with("=") {
        return c.err("variable initializers are not modelled");
    }
    Ok(Var::Slot {
        mode,
        location: loc,
        driver_location: driver,
        ty: t,
    })
}

impl Cur<'_> {
    fn peek_rest_starts_with(&mut self, s: &str) -> bool {
        self.ws();
        self.s[self.pos..].starts_with(s)
    }
}
