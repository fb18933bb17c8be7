//! What a thread remembers about instructions, for the EU passes and
//! the checks: their footprints ([`access`]) and the validator's answers
//! ([`instruction_ok`]). A compile's passes, and the configs of a case,
//! ask again and again about the same instructions, or about instructions
//! that differ from one asked about only in their registers.

use super::ops::{access, Access};
use crate::insts::{Insts, Version};
use crate::vir::Earlier;
use eu::{Instruction, MachineConfig, Program};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// Footprints already computed on this thread, by instruction.
    static SHARED: RefCell<FxHashMap<Instruction, Rc<Access>>> = RefCell::new(FxHashMap::default());
}

/// Distinct instructions whose footprints a thread keeps; past this the
/// table starts over (a compile's passes and its sibling configs reuse
/// a few hundred). Small enough to stay in the core's L2 cache: of the
/// limits 2^8 to 2^16, 2^10 ran the default mix fastest (12% faster than
/// 2^14, whose table of 152-byte entries missed to L3).
const SHARED_LIMIT: usize = 1 << 10;

/// `t`, emptied first when it holds [`SHARED_LIMIT`] instructions.
fn with_room<V>(t: &mut FxHashMap<Instruction, V>) -> &mut FxHashMap<Instruction, V> {
    if t.len() >= SHARED_LIMIT {
        t.clear();
    }
    t
}

/// [`access`], computed once per distinct instruction on this thread and
/// shared: the passes of a compile, and the configs of a case, ask again
/// and again for the footprints of the same instructions, at whatever index
/// insertions and deletions moved them to.
pub fn shared_access(i: &Instruction) -> Rc<Access> {
    SHARED.with(|t| {
        if let Some(a) = t.borrow().get(i) {
            return a.clone();
        }
        let a = Rc::new(access(i));
        with_room(&mut t.borrow_mut()).insert(*i, a.clone());
        a
    })
}

/// Every instruction's footprint, in order.
pub type Footprints = Rc<[Rc<Access>]>;

thread_local! {
    /// The last instruction list whose footprints this thread took (as a
    /// version: keeping it does not make the next edit copy the list), and
    /// them.
    static LAST_FOOTPRINTS: RefCell<Option<(Version, Footprints)>> = const { RefCell::new(None) };
}

/// The footprints of `insts`: the very ones ([`Rc::ptr_eq`]) of the last
/// call on this thread when the list is the same (known from its identity,
/// [`Insts::id`], or else compared), and otherwise those of the
/// instructions found in that list ([`Earlier::since`]: from the edits
/// that made this list from it, or by comparison while its instructions
/// are held) taken from there, the others computed. The passes run one
/// after another on one program, each changing a few instructions, and
/// most runs change none. (Not through [`shared_access`]'s table: four in
/// five of a list's new instructions were new to the thread too, and
/// looking them up cost more than the fifth saved.)
pub fn footprints(insts: &Insts) -> Footprints {
    LAST_FOOTPRINTS.with(|last| {
        let mut last = last.borrow_mut();
        let fresh = || insts.iter().map(|i| Rc::new(access(i))).collect();
        let acc: Footprints = match last.as_ref() {
            Some((before, acc)) if before.id() == insts.id() => return acc.clone(),
            Some((before, acc)) => match Earlier::since(insts, before) {
                // Kept under the new identity: keeping a list is a
                // reference, not a copy.
                Some(earlier) if earlier.same() => acc.clone(),
                Some(earlier) => insts
                    .iter()
                    .enumerate()
                    .map(|(k, i)| match earlier.index(k) {
                        Some(e) => acc[e].clone(),
                        None => Rc::new(access(i)),
                    })
                    .collect(),
                None => fresh(),
            },
            None => fresh(),
        };
        *last = Some((insts.version(), acc.clone()));
        acc
    })
}

thread_local! {
    /// The validator's answers on the shape of single instructions on
    /// this thread ([`eu::validate::shape_ok`]), per shape machine, by
    /// unplaced instruction (looked up by the instruction alone: no key to
    /// build).
    static SHAPES: RefCell<FxHashMap<Instruction, Answers>> = RefCell::new(FxHashMap::default());
}

/// The validator's answers for one instruction, per machine (nearly every
/// instruction is asked about on one machine: one answer is kept inline,
/// in the room of an empty `Vec`).
type Answers = SmallVec<[(MachineConfig, bool); 1]>;

/// Whether a non-control-flow instruction passes its own rules for
/// `machine` ([`eu::validate::instruction_ok`]): the placement rules asked
/// each time, the others once per distinct unplaced instruction and
/// machine on this thread. Instructions that differ only in their
/// registers share those answers: seven in ten of the questions a
/// campaign's checks of lowered and allocated code ask are about an
/// instruction new to the thread (nine in ten of lowering's), and one in
/// twenty of all questions about an unplaced form new to it.
pub fn instruction_ok(i: &Instruction, machine: &MachineConfig) -> bool {
    let ok = eu::validate::placement_ok(i, machine) && shape_ok(&i.unplaced(), machine);
    debug_assert_eq!(ok, eu::validate::instruction_ok(i, machine), "{i:?}");
    ok
}

/// [`eu::validate::shape_ok`] of the unplaced instruction `u`, remembered
/// per shape machine ([`eu::validate::shape_machine`]): the virtual
/// register file of the passes and the physical one of register
/// allocation share their answers.
fn shape_ok(u: &Instruction, machine: &MachineConfig) -> bool {
    let machine = &eu::validate::shape_machine(machine);
    SHAPES.with(|t| {
        let known = t
            .borrow()
            .get(u)
            .and_then(|v| v.iter().find(|(m, _)| m == machine).map(|&(_, ok)| ok));
        if let Some(ok) = known {
            return ok;
        }
        let ok = eu::validate::shape_ok(u, machine);
        with_room(&mut t.borrow_mut())
            .entry(*u)
            .or_default()
            .push((*machine, ok));
        ok
    })
}

/// Whether one (non-control-flow) instruction passes the validator on its
/// own for `machine` (program-level rules such as EOT placement ignored).
pub fn inst_valid(i: &Instruction, machine: &MachineConfig) -> bool {
    if !i.op.is_cf() {
        return instruction_ok(i, machine);
    }
    match eu::validate(&Program { insts: vec![*i] }, machine) {
        Ok(()) => true,
        Err(v) => v.iter().all(|v| v.rule == "eot"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eu::parse_program;

    fn inst(t: &str) -> Instruction {
        parse_program(t).unwrap().insts.remove(0)
    }

    #[test]
    fn shared_footprints_are_the_fresh_ones_computed_once_per_instruction() {
        let i = inst("add(16) g10<1>D g12<8,8,1>D 1D");
        let a = shared_access(&i);
        assert_eq!(*a, access(&i));
        assert!(Rc::ptr_eq(&a, &shared_access(&i.clone())));
        // One field apart is another instruction with its own footprint.
        let mut j = i;
        j.exec_size = 8;
        let b = shared_access(&j);
        assert!(!Rc::ptr_eq(&a, &b));
        assert_eq!(b.writes[..], [(10, u32::MAX)]);
        assert_eq!(a.writes[..], [(10, u32::MAX), (11, u32::MAX)]);
    }

    #[test]
    fn a_list_has_the_footprints_of_its_instructions_shared_while_it_stays_the_same() {
        let first = parse_program(
            "mov(8) g2<1>UD g1<8,8,1>UD\nadd(8) g3<1>D g2<8,8,1>D 1D\nsend(8) null g2 g3 st.b32 { align1 1Q EOT };",
        )
        .unwrap()
        .insts;
        let first = Insts::from(first);
        let a = footprints(&first);
        assert!(Rc::ptr_eq(&a, &footprints(&first.clone())));
        // An equal list under another identity is compared.
        assert!(Rc::ptr_eq(&a, &footprints(&Insts::from(first.to_vec()))));
        // The add now adds 2: another list, with the add's new footprint.
        let mut second = first.clone();
        second[1].srcs[1] = eu::Src::imm(2, eu::RegType::D);
        let b = footprints(&second);
        assert!(!Rc::ptr_eq(&a, &b));
        // Without the first instruction (a common suffix).
        let c = footprints(&Insts::from(second[1..].to_vec()));
        for (list, insts) in [(&a, &first[..]), (&b, &second[..]), (&c, &second[1..])] {
            assert_eq!(list.len(), insts.len());
            for (f, i) in list.iter().zip(insts) {
                assert_eq!(**f, access(i));
            }
        }
    }
}
