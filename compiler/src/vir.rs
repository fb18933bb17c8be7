//! The backend IR: EU instructions on virtual registers.
//!
//! A [`VProgram`] is an `eu` instruction list in which registers below
//! `payload_grfs` are the thread payload (physical, as the ABI lays it out)
//! and every register from there up belongs to exactly one virtual register
//! (vgrf): vgrf i owns GRFs `[vgrfs[i].first, vgrfs[i].first + size)`.
//! Because virtual registers are just GRF numbers in a larger file, the
//! simulator runs a `VProgram` as it is (with [`VProgram::machine`]), which
//! is how every EU pass can be checked on its own. Register allocation maps
//! each vgrf onto the 128 physical GRFs.

use crate::insts::{Insts, Origin, Version};
use eu::{Dst, DstKind, Instruction, MachineConfig, Opcode, Program, Src, SrcKind};
use std::cell::RefCell;
use std::rc::Rc;

/// Bytes per GRF on the modelled generation (Gfx11).
pub const GRF_BYTES: u32 = 32;

/// One virtual register: a run of whole GRFs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vgrf {
    /// Its first (virtual) GRF number.
    pub first: u32,
    /// Its size in GRFs.
    pub size: u32,
}

/// A program on virtual registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VProgram {
    /// Dispatch width: 8, 16 or 32.
    pub simd: u32,
    /// The instructions. Jumps hold absolute indices (each WHILE's `jip` is
    /// its loop's first instruction); [`VProgram::compact`] keeps them right.
    pub insts: Insts,
    /// GRFs g0.. that hold the payload (header, invocation ids, uniforms).
    pub payload_grfs: u32,
    /// The virtual registers, in order of their `first` register.
    pub vgrfs: Vec<Vgrf>,
    /// Input slots per invocation (surface layout).
    pub input_slots: u32,
    /// Output slots per invocation (surface layout).
    pub output_slots: u32,
    /// Uniform slots.
    pub uniforms: u32,
    /// vec4 code: Align16, dispatched SIMD4x2 (`simd` is then 8, the
    /// channels of a thread).
    pub vec4: bool,
}

impl VProgram {
    /// An empty program for a dispatch shape.
    pub fn new(simd: u32, input_slots: u32, output_slots: u32, uniforms: u32) -> VProgram {
        let payload_grfs = eu::abi::payload_grfs(simd, uniforms, GRF_BYTES);
        VProgram {
            simd,
            insts: Insts::default(),
            payload_grfs,
            vgrfs: vec![],
            input_slots,
            output_slots,
            uniforms,
            vec4: false,
        }
    }

    /// One past the last register in use.
    pub fn reg_end(&self) -> u32 {
        reg_end(&self.vgrfs, self.payload_grfs)
    }

    /// Allocates a vgrf of at least `bytes` bytes; returns its first register.
    pub fn alloc(&mut self, bytes: u32) -> u32 {
        let size = bytes.div_ceil(GRF_BYTES).max(1);
        let first = self.reg_end();
        self.vgrfs.push(Vgrf { first, size });
        first
    }

    /// The vgrf index owning register `nr` (None for payload registers).
    pub fn vgrf_of(&self, nr: u32) -> Option<usize> {
        if nr < self.payload_grfs {
            return None;
        }
        let i = self.vgrfs.partition_point(|v| v.first <= nr);
        (i > 0 && nr < self.vgrfs[i - 1].first + self.vgrfs[i - 1].size).then(|| i - 1)
    }

    /// The owner of every register, for code that asks
    /// [`VProgram::vgrf_of`] for many registers: one table lookup each
    /// instead of a binary search.
    pub fn vgrf_owners(&self) -> VgrfOwners {
        let end = self.vgrfs.iter().map(|g| g.first + g.size).max();
        let mut owner = vec![u32::MAX; end.unwrap_or(0) as usize];
        // As the binary search: a register belongs to the last vgrf
        // starting at or before it, if that one reaches it.
        for (v, g) in self.vgrfs.iter().enumerate() {
            let next = self
                .vgrfs
                .get(v + 1)
                .map_or(owner.len() as u32, |n| n.first);
            for nr in g.first.max(self.payload_grfs)..next.min(g.first + g.size) {
                owner[nr as usize] = v as u32;
            }
        }
        VgrfOwners { owner }
    }

    /// The machine the final (allocated) program runs on.
    pub fn physical_machine(&self) -> MachineConfig {
        if self.vec4 {
            MachineConfig::VEC4
        } else {
            MachineConfig::GFX11
        }
    }

    /// The register file the virtual program runs on.
    pub fn machine(&self) -> MachineConfig {
        MachineConfig {
            grf_bytes: GRF_BYTES,
            grf_count: self.reg_end().max(128),
            align16: self.vec4,
        }
    }

    /// The instructions as an `eu` program.
    pub fn program(&self) -> Program {
        Program {
            insts: self.insts.to_vec(),
        }
    }

    /// The compact assembly text (physical numbering), as the passes'
    /// golden tests write it.
    pub fn text_compact(&self) -> String {
        eu::print_program_compact(&self.program())
    }

    /// The assembly text as Mesa's disassembler lays it out, registers of
    /// virtual registers named `vgrfN` (`vgrfN+k` for the k-th GRF).
    pub fn text(&self) -> String {
        eu::print_program_named(&self.program(), &|nr| match self.vgrf_of(nr) {
            Some(i) => match nr - self.vgrfs[i].first {
                0 => format!("vgrf{i}"),
                k => format!("vgrf{i}+{k}"),
            },
            None => format!("g{nr}"),
        })
    }

    /// Deletes NOPs and recomputes every jump target.
    pub fn compact(&mut self) -> Result<(), eu::cf::CfError> {
        let n = self.insts.len();
        // new_index[i] = index of the first surviving instruction at or after i.
        let mut new_index = vec![0u32; n + 1];
        let mut k = 0u32;
        for (i, inst) in self.insts.iter().enumerate() {
            new_index[i] = k;
            if inst.op != Opcode::Nop {
                k += 1;
            }
        }
        new_index[n] = k;
        if k as usize != n {
            let mut kept = Vec::with_capacity(k as usize);
            // Per kept instruction, its index before (`Origin::NEW` when a
            // jump in it moved).
            let mut from = Vec::with_capacity(k as usize);
            for (i, inst) in self.insts.iter().enumerate() {
                if inst.op == Opcode::Nop {
                    continue;
                }
                let mut inst = *inst;
                let mut moved = false;
                if inst.op == Opcode::While {
                    inst.jip = inst.jip.map(|j| new_index[j as usize]);
                    moved = inst.jip != self.insts[i].jip;
                }
                if inst.op == Opcode::Halt {
                    inst.uip = inst.uip.map(|j| new_index[j as usize]);
                    moved = inst.uip != self.insts[i].uip;
                }
                from.push(if moved { Origin::NEW } else { i as u32 });
                kept.push(inst);
            }
            self.insts.rebuild(kept, &from);
        }
        resolve_tracked(&mut self.insts)
    }
}

/// [`eu::resolve_control_flow`] as tracked edits: only the control-flow
/// instructions whose targets change are replaced.
fn resolve_tracked(insts: &mut Insts) -> Result<(), eu::cf::CfError> {
    if !eu::cf::has_control_flow(insts) {
        return Ok(());
    }
    let info = eu::cf::analyze(insts)?;
    for k in 0..insts.len() {
        let i = &insts[k];
        let (jip, uip) = (info.jip[k], info.uip[k]);
        if i.op.is_cf() && (i.jip, i.uip) != (jip, uip) {
            let i = &mut insts[k];
            i.jip = jip;
            i.uip = uip;
        }
    }
    Ok(())
}

/// One past the last register in use by a program with these virtual
/// registers (in order) and payload size.
pub fn reg_end(vgrfs: &[Vgrf], payload_grfs: u32) -> u32 {
    vgrfs.last().map_or(payload_grfs, |v| v.first + v.size)
}

/// The vgrf owning each register of a program ([`VProgram::vgrf_owners`]).
pub struct VgrfOwners {
    /// Per register, its vgrf's index (`u32::MAX`: payload or none).
    owner: Vec<u32>,
}

impl VgrfOwners {
    /// The vgrf index owning register `nr`, as [`VProgram::vgrf_of`] says.
    pub fn of(&self, nr: u32) -> Option<usize> {
        self.owner
            .get(nr as usize)
            .filter(|&&v| v != u32::MAX)
            .map(|&v| v as usize)
    }
}

/// Which instructions of a program are an earlier version's, found without
/// hashing. A pass changes, deletes or inserts a few instructions: those of
/// the common prefix and suffix are unchanged, and between them the two
/// lists are walked together, each instruction looked for among the next
/// few earlier ones ([`Earlier::WINDOW`]), so that an instruction shifted
/// by deletions or insertions elsewhere is still found. Every instruction
/// found is equal to the earlier one it is matched with; one not found may
/// still have an equal earlier one (the caller then asks again).
pub(crate) struct Earlier {
    /// Per instruction of the new list, the index of an equal earlier one,
    /// or [`Earlier::NONE`].
    found: Vec<u32>,
    /// Whether the two lists are the same.
    same: bool,
}

impl Earlier {
    /// How many earlier instructions, from the one after the last match,
    /// are tried for each instruction between the prefix and the suffix.
    pub const WINDOW: usize = 8;
    /// No equal earlier instruction was found.
    const NONE: u32 = u32::MAX;

    /// Compares `now` with `before`.
    pub fn between(now: &[Instruction], before: &[Instruction]) -> Earlier {
        let (n, m) = (now.len(), before.len());
        let prefix = now.iter().zip(before).take_while(|(a, b)| a == b).count();
        if prefix == n && n == m {
            return Earlier {
                found: Vec::new(),
                same: true,
            };
        }
        let suffix = now
            .iter()
            .rev()
            .zip(before.iter().rev())
            .take(n.min(m) - prefix)
            .take_while(|(a, b)| a == b)
            .count();
        let mut found: Vec<u32> = Vec::with_capacity(n);
        found.extend(0..prefix as u32);
        // The next earlier instruction not matched yet, and the end of the
        // earlier instructions left to match (the suffix starts there).
        let (mut next, end) = (prefix, m - suffix);
        for inst in &now[prefix..n - suffix] {
            let window = &before[next..end.min(next + Earlier::WINDOW)];
            match window.iter().position(|b| b == inst) {
                Some(d) => {
                    found.push((next + d) as u32);
                    next += d + 1;
                }
                None => found.push(Earlier::NONE),
            }
        }
        found.extend((end..m).map(|e| e as u32));
        Earlier { found, same: false }
    }

    /// What of the earlier version `before` is still in `now`: from the
    /// origins of `now` when tracked edits made it from that version, or
    /// else by comparison ([`Earlier::between`]) while the version's
    /// instructions are still held; None when they are gone and no origin
    /// tells. The last answer on this thread is handed out again for the
    /// same two identities (equal identities mean equal lists, so the
    /// answer is the same): after a pass changed a program, validation and
    /// the next pass's footprints often ask about it and the same version
    /// before.
    pub fn since(now: &Insts, before: &Version) -> Option<Rc<Earlier>> {
        thread_local! {
            static LAST: crate::memo::Last<(u64, u64), Rc<Earlier>> = const { RefCell::new(None) };
        }
        let key = (now.id(), before.id());
        let known = LAST.with(|l| {
            l.borrow()
                .as_ref()
                .filter(|(k, _)| *k == key)
                .map(|(_, e)| e.clone())
        });
        if known.is_some() {
            return known;
        }
        let e = Rc::new(match now.origin_from(before.id()) {
            // Tracked edits made `now` from `before`: they tell.
            Some(o) => Earlier::of_origin(o, now, before),
            None => Earlier::between(now, &before.instructions()?),
        });
        LAST.with(|l| *l.borrow_mut() = Some((key, e.clone())));
        Some(e)
    }

    /// What an origin says of the version it started from.
    fn of_origin(o: &Origin, now: &[Instruction], before: &Version) -> Earlier {
        debug_assert!(
            o.found.len() == now.len()
                && o.found
                    .iter()
                    .all(|&e| e == Origin::NEW || (e as usize) < before.len())
                && before.instructions().is_none_or(|before| o
                    .found
                    .iter()
                    .zip(now)
                    .all(|(&e, i)| { e == Origin::NEW || before.get(e as usize) == Some(i) })),
            "an origin names the instructions that stayed"
        );
        let same =
            now.len() == before.len() && o.found.iter().enumerate().all(|(k, &e)| e == k as u32);
        Earlier {
            found: if same { Vec::new() } else { o.found.clone() },
            same,
        }
    }

    /// Whether the two programs are the same.
    pub fn same(&self) -> bool {
        self.same
    }

    /// The index in `before` of an instruction equal to `now[k]`, if one
    /// was found.
    pub fn index(&self, k: usize) -> Option<usize> {
        if self.same {
            return Some(k);
        }
        match self.found[k] {
            Earlier::NONE => None,
            e => Some(e as usize),
        }
    }
}

/// The byte range `[start, end)` of the register file a source reads at
/// `exec_size` channels (None for immediates, null and flags).
pub fn src_bytes(s: &Src, exec_size: u8) -> Option<(u32, u32)> {
    let SrcKind::Grf { nr, sub } = s.kind else {
        return None;
    };
    let size = s.ty.size();
    let start = nr * GRF_BYTES + sub * size;
    let r = s.region;
    let exec = exec_size as u32;
    let w = (r.w as u32).max(1);
    let rows = exec.div_ceil(w);
    let last_row = rows.saturating_sub(1);
    let last_col = (exec.min(w)).saturating_sub(1);
    let last = start + (last_row * r.v as u32 + last_col * r.h as u32) * size;
    Some((start, last + size))
}

/// The byte range a destination writes at `exec_size` channels.
pub fn dst_bytes(d: &Dst, exec_size: u8) -> Option<(u32, u32)> {
    let DstKind::Grf { nr, sub } = d.kind else {
        return None;
    };
    let size = d.ty.size();
    let start = nr * GRF_BYTES + sub * size;
    let last = start + (exec_size as u32 - 1) * d.stride as u32 * size;
    Some((start, last + size))
}

/// Registers (first, last inclusive) a byte range touches.
pub fn regs_of(bytes: (u32, u32)) -> (u32, u32) {
    (bytes.0 / GRF_BYTES, (bytes.1 - 1) / GRF_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eu::{RegType, Region};

    #[test]
    fn an_origin_tells_which_instructions_stayed_without_comparing() {
        let text = "mov(8) g2<1>UD g3<8,8,1>UD\nnop\nmov(8) g5<1>UD g2<8,8,1>UD\nmov(8) g6<1>UD g5<8,8,1>UD";
        let mut p = eu::parse_program(text).unwrap();
        let before = Insts::from(p.insts.clone());
        let mut now = before.clone();
        // Instruction 3 rewritten to itself: comparing finds it, the
        // edits say it is new; the NOP goes.
        let last = *now.last().unwrap();
        now[3] = last;
        let mut v = VProgram::new(8, 1, 1, 0);
        v.insts = now;
        v.compact().unwrap();
        let e = between_lists(&v.insts, &before);
        let found: Vec<Option<usize>> = (0..v.insts.len()).map(|k| e.index(k)).collect();
        assert_eq!(found, [Some(0), Some(2), None]);
        p.insts.remove(1);
        let compared = Earlier::between(&p.insts, &before);
        let found: Vec<Option<usize>> = (0..3).map(|k| compared.index(k)).collect();
        assert_eq!(found, [Some(0), Some(2), Some(3)]);
    }

    #[test]
    fn earlier_instructions_are_found_around_edits() {
        let p = eu::parse_program(
            "mov(8) g2<1>UD g3<8,8,1>UD\nadd(8) g4<1>UD g2<8,8,1>UD g3<8,8,1>UD\nmov(8) g5<1>UD g4<8,8,1>UD\nmov(8) g6<1>UD g5<8,8,1>UD",
        )
        .unwrap();
        let i = &p.insts;
        let found = |now: &[Instruction], before: &[Instruction]| {
            let e = Earlier::between(now, before);
            (0..now.len()).map(|k| e.index(k)).collect::<Vec<_>>()
        };
        // One instruction inserted after the first: the first is the prefix,
        // the last three the suffix, shifted by one.
        let now = [i[0], i[3], i[1], i[2], i[3]];
        assert_eq!(found(&now, i), [Some(0), None, Some(1), Some(2), Some(3)]);
        // The first and last changed in place (no prefix, no suffix): the
        // middle two are found at their own indices.
        let mut changed = [i[0], i[1], i[2], i[3]];
        changed[0].exec_size = 16;
        changed[3].exec_size = 16;
        assert_eq!(found(&changed, i), [None, Some(1), Some(2), None]);
        // The second deleted and the last changed: the third is found one
        // place further on.
        let now = [i[0], i[2], changed[3]];
        assert_eq!(found(&now, i), [Some(0), Some(2), None]);
        // A reordering: the walk goes forward only, so after i[3] is
        // matched the two before it are not found again.
        let now = [i[0], i[3], i[2], i[1]];
        assert_eq!(found(&now, i), [Some(0), Some(3), None, None]);
        // The same list, and nothing before.
        assert!(Earlier::between(i, i).same());
        assert_eq!(found(i, i), [Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(found(&now, &[]), [None; 4]);
    }

    /// [`Earlier::since`] a list that still holds its instructions.
    fn between_lists(now: &Insts, before: &Insts) -> Rc<Earlier> {
        Earlier::since(now, &before.version()).expect("the earlier list holds its instructions")
    }

    #[test]
    fn the_comparison_of_two_identities_is_kept_until_a_list_changes() {
        let p =
            eu::parse_program("mov(8) g2<1>UD g3<8,8,1>UD\nmov(8) g4<1>UD g2<8,8,1>UD").unwrap();
        let before = Insts::from(p.insts.clone());
        let mut now = before.clone();
        now[1].exec_size = 16;
        let first = between_lists(&now, &before);
        assert_eq!((first.index(0), first.index(1)), (Some(0), None));
        // Asked again about the same two lists: the very same answer.
        assert!(Rc::ptr_eq(&first, &between_lists(&now, &before)));
        // A change to either list is a new question with its own answer.
        // The edits tell that instruction 1 was replaced (by an equal one,
        // which they do not look at); a list without origins is compared.
        now[1].exec_size = 8;
        let again = between_lists(&now, &before);
        assert!(!Rc::ptr_eq(&first, &again));
        assert_eq!((again.index(0), again.index(1)), (Some(0), None));
        assert!(between_lists(&Insts::from(now.to_vec()), &before).same());
        let reversed = between_lists(&before, &now);
        assert!(!Rc::ptr_eq(&again, &reversed));
    }

    #[test]
    fn an_instruction_further_than_the_window_is_not_found() {
        let p = eu::parse_program("mov(8) g2<1>UD g3<8,8,1>UD").unwrap();
        let base = p.insts[0];
        // Distinct instructions: a mov to g10, g11, ...
        let inst = |k: u8| {
            let mut x = base;
            x.dst = Dst::grf(10 + k as u32, 0, x.dst.ty, 1);
            x
        };
        let w = Earlier::WINDOW as u8;
        let before: Vec<_> = (0..=w + 1).map(inst).collect();
        // A new first instruction, then the earlier ones from index w - 1
        // (found: the last of the window) or w (not found: past it).
        for (start, want) in [(w - 1, Some(w as usize - 1)), (w, None)] {
            let now = [inst(100), inst(start)];
            let e = Earlier::between(&now, &before);
            assert_eq!(e.index(1), want, "start {start}");
        }
    }

    #[test]
    fn alloc_and_lookup() {
        let mut p = VProgram::new(16, 1, 1, 0);
        assert_eq!(p.payload_grfs, 3);
        let a = p.alloc(64);
        let b = p.alloc(8);
        assert_eq!((a, b), (3, 5));
        assert_eq!(p.vgrf_of(2), None);
        assert_eq!(p.vgrf_of(3), Some(0));
        assert_eq!(p.vgrf_of(4), Some(0));
        assert_eq!(p.vgrf_of(5), Some(1));
        assert_eq!(p.vgrf_of(6), None);
    }

    #[test]
    fn the_owner_table_answers_as_the_binary_search() {
        let mut p = VProgram::new(16, 1, 1, 0);
        // Payload g0..g2; then g3..g4 (0), a gap at g5, g6 (1), a vgrf
        // reaching into the next one's registers (2: g8..g11, 3: g10..),
        // and two starting at the same register (4 and 5 at g14).
        let layout = [(3, 2), (6, 1), (8, 4), (10, 2), (14, 1), (14, 3)];
        p.vgrfs = layout
            .iter()
            .map(|&(first, size)| Vgrf { first, size })
            .collect();
        let owners = p.vgrf_owners();
        let want = [
            None,
            None,
            None,
            Some(0),
            Some(0),
            None,
            Some(1),
            None,
            Some(2),
            Some(2),
            Some(3),
            Some(3),
            None,
            None,
            Some(5),
            Some(5),
            Some(5),
            None,
            None,
        ];
        for (nr, want) in want.into_iter().enumerate() {
            assert_eq!(p.vgrf_of(nr as u32), want, "binary search, g{nr}");
            assert_eq!(owners.of(nr as u32), want, "table, g{nr}");
        }
        // A vgrf starting inside the payload owns only what lies past it.
        p.vgrfs = vec![Vgrf { first: 1, size: 4 }];
        let owners = p.vgrf_owners();
        for nr in 0..6 {
            assert_eq!(owners.of(nr), p.vgrf_of(nr), "g{nr}");
        }
        assert_eq!(owners.of(3), Some(0));
    }

    #[test]
    fn operand_byte_ranges() {
        // SIMD16 D packed: 64 bytes from g10.
        let s = Src::grf(10, 0, RegType::D, Region::new(8, 8, 1));
        assert_eq!(src_bytes(&s, 16), Some((320, 384)));
        // SIMD8 W with stride 2: 8 lanes at 4-byte steps, last lane 2 bytes.
        let s = Src::grf(10, 0, RegType::W, Region::new(16, 8, 2));
        assert_eq!(src_bytes(&s, 8), Some((320, 320 + 28 + 2)));
        // A scalar broadcast reads one element.
        let s = Src::grf(3, 2, RegType::UD, Region::SCALAR);
        assert_eq!(src_bytes(&s, 16), Some((104, 108)));
        let d = Dst::grf(12, 0, RegType::W, 2);
        assert_eq!(dst_bytes(&d, 16), Some((384, 384 + 60 + 2)));
        assert_eq!(regs_of((384, 446)), (12, 13));
    }
}
