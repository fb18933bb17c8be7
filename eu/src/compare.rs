//! How instructions compare and hash.
//!
//! The compiler compares instruction lists all the time (what changed since
//! the last pass) and keys its per-thread tables by instruction. So `==`
//! compares the fields that tell instructions of one program apart first,
//! and only the sources an instruction has; the hash reads a few packed
//! words. `==` is the derived one computed another way: a test holds it to
//! the derived `Debug` text, which shows every field.

use crate::isa::{DstKind, Instruction, SrcKind};

/// Compares every field (naming each, so that a new field cannot be
/// forgotten), those that tell instructions of one program apart most
/// often first.
impl PartialEq for Instruction {
    #[inline]
    fn eq(&self, o: &Instruction) -> bool {
        let Instruction {
            op,
            math,
            msg,
            exec_size,
            group,
            we_all,
            eot,
            pred,
            cmod,
            flag,
            sat,
            dst,
            srcs,
            jip,
            uip,
            align16,
        } = self;
        *op == o.op
            && *exec_size == o.exec_size
            && *dst == o.dst
            && *srcs == o.srcs
            && *group == o.group
            && *cmod == o.cmod
            && *pred == o.pred
            && *flag == o.flag
            && *sat == o.sat
            && *we_all == o.we_all
            && *eot == o.eot
            && *math == o.math
            && *jip == o.jip
            && *uip == o.uip
            && *align16 == o.align16
            && *msg == o.msg
    }
}

/// Hashes what tells instructions of one program apart most often (the
/// opcode, execution size, channel group, message, conditional modifier,
/// jump target and the operands' registers, types and regions), packed
/// into a few words, and leaves the rest to `==`: equal instructions hash
/// equally, and tables keyed by instruction (the compiler's footprint and
/// validity caches) pay for a few words instead of every field.
impl std::hash::Hash for Instruction {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let head = self.op as u64
            | u64::from(self.exec_size) << 8
            | u64::from(self.group) << 16
            | self.cmod.map_or(0, |c| c as u64 + 1) << 24
            | (self.dst.ty as u64) << 32
            | u64::from(self.jip.unwrap_or(u32::MAX)) << 40;
        h.write_u64(head);
        h.write_u64(match self.dst.kind {
            DstKind::Null => u64::MAX,
            DstKind::Grf { nr, sub } => u64::from(nr) << 8 | u64::from(sub),
            DstKind::Flag { nr, sub } => 1 << 63 | u64::from(nr) << 8 | u64::from(sub),
        });
        for s in &self.srcs {
            let shape = (s.ty as u64) << 24
                | u64::from(s.region.v) << 16
                | u64::from(s.region.w) << 8
                | u64::from(s.region.h);
            let reg = |nr: u32, sub: u32| shape << 32 ^ u64::from(nr) << 8 ^ u64::from(sub);
            h.write_u64(match s.kind {
                SrcKind::Null => shape,
                SrcKind::Grf { nr, sub } => reg(nr, sub),
                SrcKind::Flag { nr, sub } => !reg(nr.into(), sub.into()),
                SrcKind::Imm(bits) => bits.rotate_left(29) ^ shape,
            });
        }
        if let Some(m) = &self.msg {
            m.hash(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RegType, Src, Srcs};
    use std::collections::HashMap;
    use std::hash::{BuildHasher, RandomState};

    #[test]
    fn instructions_equal_hash_equal_and_unhashed_fields_still_count() {
        let i = crate::asm::parse_program("(+f0.0) add(8) g2<1>D g3<8,8,1>D 1D")
            .unwrap()
            .insts
            .remove(0);
        let s = RandomState::new();
        assert_eq!(s.hash_one(i), s.hash_one(i));
        // The predicate and saturate are not hashed: the copy hashes alike
        // and is still another instruction.
        let mut j = i;
        j.pred = None;
        j.sat = true;
        assert_eq!(s.hash_one(i), s.hash_one(j));
        assert_ne!(i, j);
        let table: HashMap<Instruction, u32> = [(i, 1), (j, 2)].into();
        assert_eq!((table.len(), table[&i], table[&j]), (2, 1, 2));
    }

    /// Source `k` of `i` changed by `f`, if it has one.
    fn with_src(mut i: Instruction, k: usize, f: impl Fn(&mut Src)) -> Instruction {
        if let Some(s) = i.srcs.get_mut(k) {
            f(s);
        }
        i
    }

    /// Three instructions, each also with one field changed: every
    /// instruction field, every source field and every kind of source.
    fn variants() -> Vec<Instruction> {
        let p = crate::asm::parse_program(
            "(+f0.0) sel.l(16) g2<1>F -g3<8,8,1>F (abs)g5<8,8,1>F { align1 WE_all 1H };\n\
             mad(8) g4<1>F g1<8,8,1>F g2<8,8,1>F g3<8,8,1>F\n\
             add(8) g2<1>D g3<8,8,1>D 1D",
        )
        .unwrap();
        let kinds = [
            SrcKind::Null,
            SrcKind::Imm(1),
            SrcKind::Imm(1 << 40),
            SrcKind::Flag { nr: 1, sub: 0 },
            SrcKind::Flag { nr: 0, sub: 1 },
            SrcKind::Grf {
                nr: 1 << 16,
                sub: 0,
            },
            SrcKind::Grf { nr: 0, sub: 1 },
        ];
        let mut out = Vec::new();
        for i in p.insts {
            out.push(i);
            let edits: [fn(&mut Instruction); 15] = [
                |i| i.exec_size = 4,
                |i| i.group = 8,
                |i| i.we_all = !i.we_all,
                |i| i.eot = !i.eot,
                |i| i.sat = !i.sat,
                |i| i.pred = None,
                |i| i.cmod = None,
                |i| i.flag.nr = 1,
                |i| i.jip = Some(3),
                |i| i.uip = Some(3),
                |i| i.dst.stride = 2,
                |i| i.dst.kind = DstKind::Null,
                |i| i.dst.kind = DstKind::Flag { nr: 0, sub: 1 },
                |i| i.dst.ty = RegType::UD,
                |i| i.srcs = Srcs::from_slice(&i.srcs[..i.srcs.len() - 1]),
            ];
            for e in edits {
                let mut j = i;
                e(&mut j);
                out.push(j);
            }
            for k in 0..3 {
                out.push(with_src(i, k, |s| s.neg = !s.neg));
                out.push(with_src(i, k, |s| s.abs = !s.abs));
                out.push(with_src(i, k, |s| s.region.h = 2));
                out.push(with_src(i, k, |s| s.ty = RegType::W));
                for kind in kinds {
                    out.push(with_src(i, k, |s| s.kind = kind));
                }
            }
        }
        out
    }

    #[test]
    fn equal_exactly_when_every_field_is() {
        let all = variants();
        let s = RandomState::new();
        for a in &all {
            for b in &all {
                let same = format!("{a:?}") == format!("{b:?}");
                assert_eq!(a == b, same, "{a:?}\nvs\n{b:?}");
                for (x, y) in a.srcs.iter().zip(b.srcs.iter()) {
                    assert_eq!(x == y, format!("{x:?}") == format!("{y:?}"));
                }
                if same {
                    assert_eq!(s.hash_one(a), s.hash_one(b));
                }
            }
        }
    }
}
