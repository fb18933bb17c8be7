//! The memory intrinsics' lines: descriptors, the invocation-id vectors,
//! and the loads and stores that become slot accesses.

use super::{col_of, error, Access, Affine, Buffer, Key, Known, Mem, SlotKind, Sym};
use crate::op::Op;
use crate::parse::cursor::Cur;
use crate::parse::instr::Stmt;
use crate::parse::PResult;
use crate::program::{Def, Instr, ValueId};

impl Mem {
    /// One of the intrinsics [`handles`] names. `dest` is the value, its
    /// bit size and component count; `name_at` the byte offset of the name.
    pub(in crate::parse) fn intrinsic(
        &mut self,
        c: &mut Cur,
        name: &str,
        name_at: usize,
        dest: Option<(ValueId, u8, u8)>,
    ) -> PResult<Stmt> {
        let line = c.line;
        let name_col = col_of(c, name_at);
        // Sources, then indices.
        let srcs = c.intrinsic_srcs()?;
        c.ws();
        let mut indices = Vec::new();
        if c.peek() == Some('(') {
            let open = c.pos;
            indices = Cur::index_items(open, c.paren_group()?);
        }
        c.end()?;
        let want_srcs = match name {
            "vulkan_resource_index" | "load_vulkan_descriptor" => 1,
            "load_ssbo" | "load_ubo" => 2,
            "store_ssbo" => 3,
            _ => 0,
        };
        if srcs.len() != want_srcs {
            return error(
                line,
                name_col,
                format!("`@{name}` takes {want_srcs} sources, found {}", srcs.len()),
            );
        }
        let stores = name == "store_ssbo";
        for &(v, _) in &srcs[usize::from(stores)..] {
            if !self.is_virtual(v) {
                self.feeds_address.push(v);
            }
        }
        match (dest, stores) {
            (None, false) => {
                return error(
                    line,
                    name_col,
                    format!("`{name}` defines a value: write `BITS %N = ...`"),
                )
            }
            (Some(_), true) => return error(line, name_col, format!("`{name}` defines no value")),
            _ => {}
        }
        let call = Call {
            c,
            line,
            name,
            name_col,
            srcs: &srcs,
            indices: &indices,
            dest,
            stores,
        };
        match name {
            "vulkan_resource_index" => self.resource_index(&call),
            "load_vulkan_descriptor" => self.descriptor(&call),
            "load_local_invocation_id" | "load_global_invocation_id" => {
                self.invocation_vector(&call)
            }
            _ => self.access(&call),
        }
    }

    /// `@vulkan_resource_index`: a descriptor of a (set, binding).
    fn resource_index(&mut self, call: &Call) -> PResult<Stmt> {
        let Call {
            c,
            line,
            name_col,
            srcs,
            ..
        } = *call;
        let index = |key: &str| call.index(key);
        let (id, comps) = call.descriptor_dest()?;
        if self.affine_of(srcs[0].0) != Some(Affine::constant(0)) {
            return error(
                line,
                col_of(c, srcs[0].1),
                "the array index of a descriptor must be the constant 0: descriptor arrays are not modelled".into(),
            );
        }
        let number = |key: &str| -> PResult<u64> {
            match index(key) {
                Some((_, v, at)) => v.parse().or_else(|_| {
                    error(
                        line,
                        col_of(c, *at),
                        format!("expected a number for `{key}`"),
                    )
                }),
                None => error(
                    line,
                    name_col,
                    format!("expected `{key}=N` among the indices"),
                ),
            }
        };
        let buffer = Buffer {
            set: number("desc_set")?,
            binding: number("binding")?,
            ubo: call.desc_type()?,
        };
        self.define(id, Sym::Descriptor { buffer, comps }, false);
        Ok(Stmt::Nothing)
    }

    /// `@load_vulkan_descriptor`: the same descriptor, loaded.
    fn descriptor(&mut self, call: &Call) -> PResult<Stmt> {
        let Call {
            c,
            line,
            name_col,
            srcs,
            ..
        } = *call;
        let (id, comps) = call.descriptor_dest()?;
        let Some(Known {
            sym:
                Sym::Descriptor {
                    buffer,
                    comps: from,
                },
            ..
        }) = self.known.get(&srcs[0].0 .0).copied()
        else {
            return error(
                line,
                col_of(c, srcs[0].1),
                format!("{} is not a `@vulkan_resource_index`", srcs[0].0),
            );
        };
        if from != comps || call.desc_type()? != buffer.ubo {
            return error(
                line,
                name_col,
                "the descriptor's type and shape must be those of its resource index".into(),
            );
        }
        self.define(id, Sym::Descriptor { buffer, comps }, false);
        Ok(Stmt::Nothing)
    }

    /// `@load_local_invocation_id`/`@load_global_invocation_id`: the
    /// invocation index, read as `.x`.
    fn invocation_vector(&mut self, call: &Call) -> PResult<Stmt> {
        let Call {
            line,
            name,
            name_col,
            dest,
            ..
        } = *call;
        let (id, bits, comps) = dest.expect("checked above");
        if bits != 32 || comps != 3 {
            return error(
                line,
                name_col,
                format!("`@{name}` makes a 32x3 value, not {bits}x{comps}"),
            );
        }
        match self.workgroup {
            Some([_, 1, 1]) => {}
            _ => {
                return error(
                    line,
                    name_col,
                    format!("`@{name}` is modelled only in a one-dimensional workgroup (`workgroup_size: N, 1, 1` in the header)"),
                )
            }
        }
        let dest = Def { id, bits: 32 };
        self.define(id, Sym::InvocationVec, true);
        Ok(Stmt::Instr(
            Instr {
                op: Op::InvocationId,
                dest: Some(dest),
                srcs: vec![],
                imm: 0,
            },
            None,
        ))
    }

    /// `@load_ssbo`, `@load_ubo`, `@store_ssbo`: a slot access.
    fn access(&mut self, call: &Call) -> PResult<Stmt> {
        let Call {
            c,
            line,
            name,
            name_col,
            srcs,
            dest,
            stores,
            ..
        } = *call;
        let index = |key: &str| call.index(key);
        // load_ssbo, load_ubo, store_ssbo.
        let (index_src, offset_src) = if stores {
            (srcs[1], srcs[2])
        } else {
            (srcs[0], srcs[1])
        };
        let buffer = match self.known.get(&index_src.0 .0).map(|k| k.sym) {
            Some(Sym::Index(b)) => b,
            _ => {
                return error(
                    line,
                    col_of(c, index_src.1),
                    format!(
                    "{} is not the buffer index of a descriptor (`mov` of its index components)",
                    index_src.0
                ),
                )
            }
        };
        if buffer.ubo != (name == "load_ubo") {
            return error(
                line,
                name_col,
                format!("`@{name}` through a {} descriptor", buffer.kind()),
            );
        }
        let Some(at) = self.affine_of(offset_src.0) else {
            return error(
                line,
                col_of(c, offset_src.1),
                format!("the offset {} is not a constant plus a constant times the invocation index: data-dependent addressing is not modelled", offset_src.0),
            );
        };
        let bits = if stores {
            if let Some((_, mask, at)) = index("wrmask") {
                if *mask != "x" {
                    return error(
                        line,
                        col_of(c, *at),
                        format!("`wrmask={mask}`: vector stores are not modelled"),
                    );
                }
            }
            self.data_use(c, srcs[0].0, srcs[0].1)?;
            0 // The value's size is known once the program is read.
        } else {
            let (_, bits, comps) = dest.expect("checked above");
            if comps != 1 {
                return error(
                    line,
                    name_col,
                    format!("a {comps}-component load: vector loads are not modelled"),
                );
            }
            if bits == 1 {
                return error(line, name_col, "a 1-bit load".into());
            }
            bits
        };
        let kind = match (stores, at.c1) {
            (true, _) => SlotKind::Output,
            (false, 0) => SlotKind::Uniform,
            (false, _) => SlotKind::Input,
        };
        let key = Key {
            buffer,
            at,
            bytes: u64::from(bits / 8),
        };
        self.accesses.push(Access {
            key,
            value: stores.then_some(srcs[0].0),
            line,
            col: name_col,
            loops: self.loops.clone(),
        });
        let slot = self.slot(key, kind);
        Ok(Stmt::Instr(
            if stores {
                Instr {
                    op: Op::StoreOutput,
                    dest: None,
                    srcs: vec![srcs[0].0],
                    imm: slot,
                }
            } else {
                let (id, bits, _) = dest.expect("checked above");
                Instr {
                    op: if kind == SlotKind::Input {
                        Op::LoadInput
                    } else {
                        Op::LoadUniform
                    },
                    dest: Some(Def { id, bits }),
                    srcs: vec![],
                    imm: slot,
                }
            },
            None,
        ))
    }
}

/// One memory intrinsic line, parsed: what each intrinsic's handler reads.
#[derive(Clone, Copy)]
struct Call<'a, 'c> {
    c: &'a Cur<'c>,
    line: usize,
    name: &'a str,
    name_col: usize,
    /// The sources, with the byte offset of each.
    srcs: &'a [(ValueId, usize)],
    /// The indices (`key=value`), with the byte offset of each key.
    indices: &'a [(&'a str, &'a str, usize)],
    /// The value defined: its id, bit size and component count.
    dest: Option<(ValueId, u8, u8)>,
    stores: bool,
}

impl Call<'_, '_> {
    fn index(&self, key: &str) -> Option<&(&str, &str, usize)> {
        self.indices.iter().find(|(k, _, _)| *k == key)
    }

    /// The defined descriptor's id and component count: 32x2
    /// (`32bit_index_offset`) or 32x3 (`vec2_index_32bit_offset`).
    fn descriptor_dest(&self) -> PResult<(ValueId, u8)> {
        let (id, bits, comps) = self.dest.expect("checked by `intrinsic`");
        if bits == 32 && matches!(comps, 2 | 3) {
            return Ok((id, comps));
        }
        error(
            self.line,
            self.name_col,
            format!(
                "`@{}` makes {bits}x{comps}: only the index/offset address formats (32x2, 32x3) are modelled",
                self.name
            ),
        )
    }

    /// `desc_type=SSBO` (false) or `UBO` (true).
    fn desc_type(&self) -> PResult<bool> {
        match self.index("desc_type") {
            Some((_, v, _)) if *v == "SSBO" => Ok(false),
            Some((_, v, _)) if *v == "UBO" => Ok(true),
            Some((_, v, at)) => error(
                self.line,
                col_of(self.c, *at),
                format!("`desc_type={v}`: only SSBO and UBO descriptors are modelled"),
            ),
            None => error(
                self.line,
                self.name_col,
                "expected `desc_type=...` among the indices".into(),
            ),
        }
    }
}
