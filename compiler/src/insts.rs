//! A program's instruction list that knows when it is unchanged.
//!
//! The analyses behind the EU passes (footprints, liveness) remember the
//! last list they were asked about, and most of the time they are asked
//! about the same list again: a pass that changed nothing hands the next
//! one the very same instructions. Comparing two lists instruction by
//! instruction to learn that costs as much as a small pass. An [`Insts`]
//! carries an identity instead: every way of changing the list goes
//! through `&mut` ([`DerefMut`]), and that forgets the identity; the next
//! reader that asks for it ([`Insts::id`]) gets a number never handed out
//! before. So two lists with the same identity hold the same instructions
//! (a clone keeps its original's identity until either changes), and a
//! cache keyed by the identity is never stale. Lists with different
//! identities may still be equal; such a cache then merely misses.

use eu::Instruction;
use std::ops::{Deref, DerefMut};
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The next identity handed out (0 means "none yet").
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// An instruction list with an identity (see the module docs). It reads and
/// changes like the `Vec` it holds.
#[derive(Debug, Default)]
pub struct Insts {
    /// The list, shared by clones until one of them changes it (clones are
    /// kept as the earlier version by the analyses' memories, the phase
    /// memory and the optimizer's last checked code).
    list: Rc<Vec<Instruction>>,
    /// This list's identity, 0 until someone asks for it after a change.
    id: AtomicU64,
}

impl Insts {
    /// The list's identity: equal identities mean equal lists.
    pub fn id(&self) -> u64 {
        match self.id.load(Ordering::Relaxed) {
            0 => {
                let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
                // Two threads reading one list may both get here; either
                // identity is right, since neither can change the list.
                self.id.store(id, Ordering::Relaxed);
                id
            }
            id => id,
        }
    }
}

impl From<Vec<Instruction>> for Insts {
    fn from(list: Vec<Instruction>) -> Insts {
        Insts {
            list: Rc::new(list),
            id: AtomicU64::new(0),
        }
    }
}

impl Clone for Insts {
    /// The same instructions under the same identity.
    fn clone(&self) -> Insts {
        Insts {
            list: self.list.clone(),
            id: AtomicU64::new(self.id.load(Ordering::Relaxed)),
        }
    }

    fn clone_from(&mut self, o: &Insts) {
        self.list = o.list.clone();
        *self.id.get_mut() = o.id.load(Ordering::Relaxed);
    }
}

impl PartialEq for Insts {
    fn eq(&self, o: &Insts) -> bool {
        let (a, b) = (
            self.id.load(Ordering::Relaxed),
            o.id.load(Ordering::Relaxed),
        );
        (a != 0 && a == b) || Rc::ptr_eq(&self.list, &o.list) || self.list == o.list
    }
}

impl Eq for Insts {}

impl Deref for Insts {
    type Target = Vec<Instruction>;

    fn deref(&self) -> &Vec<Instruction> {
        &self.list
    }
}

impl DerefMut for Insts {
    /// The list, to change: it loses its identity.
    fn deref_mut(&mut self) -> &mut Vec<Instruction> {
        *self.id.get_mut() = 0;
        Rc::make_mut(&mut self.list)
    }
}

impl<'a> IntoIterator for &'a Insts {
    type Item = &'a Instruction;
    type IntoIter = std::slice::Iter<'a, Instruction>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl<'a> IntoIterator for &'a mut Insts {
    type Item = &'a mut Instruction;
    type IntoIter = std::slice::IterMut<'a, Instruction>;

    fn into_iter(self) -> Self::IntoIter {
        self.deref_mut().iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(text: &str) -> Vec<Instruction> {
        eu::parse_program(text).unwrap().insts
    }

    #[test]
    fn a_change_through_any_mutable_path_gives_a_new_identity() {
        let mut a = Insts::from(list(
            "mov(8) g2<1>UD g3<8,8,1>UD\nmov(8) g4<1>UD g2<8,8,1>UD",
        ));
        let first = a.id();
        assert_eq!(a.id(), first, "reading keeps the identity");
        let b = a.clone();
        assert_eq!(b.id(), first, "a clone keeps it");
        // Each kind of mutable access: indexing, a method, iteration.
        let mut seen = vec![first];
        a[0].exec_size = 16;
        seen.push(a.id());
        let second = a[1];
        a.push(second);
        seen.push(a.id());
        for i in &mut a {
            i.exec_size = 8;
        }
        seen.push(a.id());
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 4, "identities {seen:?}");
        // The clone was not changed and still has the first identity.
        assert_eq!(b.id(), first);
        assert_eq!(b.len(), 2);
    }

    #[test]
    fn equality_is_by_content_when_identities_differ() {
        let text = "mov(8) g2<1>UD g3<8,8,1>UD";
        let a = Insts::from(list(text));
        let b = Insts::from(list(text));
        assert_ne!(a.id(), b.id());
        assert_eq!(a, b);
        let mut c = a.clone();
        assert_eq!(a, c);
        c[0].exec_size = 16;
        assert_ne!(a, c);
        // clone_from takes the identity along with the list.
        c.clone_from(&a);
        assert_eq!(c.id(), a.id());
        assert_eq!(c, a);
    }
}
