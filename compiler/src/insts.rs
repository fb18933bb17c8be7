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
//!
//! A list also knows where it came from when only *tracked* edits made it
//! (an [`Origin`]): replacing instruction `k` through indexing
//! (`insts[k] = i`, `&mut insts[k]`) or rebuilding the list from a map of
//! what stayed ([`Insts::rebuild`], which compaction and spilling use).
//! The edits are followed from the last two versions someone asked the
//! identity of (the optimizer's last checked code and the footprint
//! memory often keep different ones). The analyses then learn which
//! instructions of an earlier version are still there from the edits
//! themselves, without comparing the two lists
//! ([`crate::vir::Earlier::since`]). Any other change (through the `Vec`)
//! forgets the origins.
//!
//! Those memories keep an earlier version as a [`Version`]: its identity,
//! its length and a weak reference to its instructions. Keeping one does
//! not make the next edit copy the list; the instructions are gone from
//! the version after it, and the origins tell what stayed.

use eu::Instruction;
use std::ops::{Deref, DerefMut};
use std::rc::{Rc, Weak};
use std::sync::atomic::{AtomicU64, Ordering};

/// The next identity handed out (0 means "none yet").
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// An instruction list with an identity (see the module docs). It reads and
/// changes like the `Vec` it holds.
#[derive(Debug, Default)]
pub struct Insts {
    /// The list, shared by clones until one of them changes it (the phase
    /// memory keeps a clone; the analyses' memories and the optimizer's
    /// last checked code keep a [`Version`]).
    list: Rc<Vec<Instruction>>,
    /// This list's identity, 0 until someone asks for it after a change.
    id: AtomicU64,
    /// The versions tracked edits made this one from, if only they did:
    /// the last one someone asked the identity of first, then up to
    /// [`ORIGINS`] in all of the ones before it (the optimizer's last
    /// checked code and the footprint memory may keep different ones).
    origins: Rc<Vec<Origin>>,
}

/// How many versions a list's tracked edits are followed from.
const ORIGINS: usize = 2;

/// Where a list came from by tracked edits alone (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The identity of the version the edits started from.
    pub from: u64,
    /// Per instruction, its index in that version when it is that
    /// instruction unchanged, or [`Origin::NEW`] (replaced or inserted).
    pub found: Vec<u32>,
}

impl Origin {
    /// An instruction that is not one of the earlier version's.
    pub const NEW: u32 = u32::MAX;
}

/// An earlier version of a list as the analyses' memories keep it: its
/// identity and length, and its instructions for as long as some list
/// still holds them. Keeping a version does not keep the instructions: the
/// next edit of the list they belong to changes them in place instead of
/// copying them for the memories ([`Rc::make_mut`] with only weak
/// references left), and the version then knows only the identity that
/// the edited list's origins name.
#[derive(Clone, Debug)]
pub struct Version {
    id: u64,
    len: usize,
    list: Weak<Vec<Instruction>>,
}

impl Version {
    /// The version's identity ([`Insts::id`]).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// How many instructions it has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no instructions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Its instructions, while some list still holds them.
    pub fn instructions(&self) -> Option<Rc<Vec<Instruction>>> {
        self.list.upgrade()
    }
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

    /// This list as an earlier version, for a memory to keep.
    pub fn version(&self) -> Version {
        Version {
            id: self.id(),
            len: self.list.len(),
            list: Rc::downgrade(&self.list),
        }
    }

    /// How this list came from an earlier version, when tracked edits alone
    /// made it: from the last version someone asked the identity of.
    pub fn origin(&self) -> Option<&Origin> {
        self.origins.first()
    }

    /// How tracked edits alone made this list from the version with
    /// identity `id`, if they did and it is among the last [`ORIGINS`]
    /// versions they were followed from.
    pub fn origin_from(&self, id: u64) -> Option<&Origin> {
        self.origins.iter().find(|o| o.from == id)
    }

    /// Starts a tracked edit: the list is about to change. Returns the
    /// origins to update: a version someone knows by its identity is an
    /// origin of the edits that start from it (the most recent first); a
    /// version made by tracked edits goes on from its own origins; any
    /// other has none.
    fn edit(&mut self) -> &mut [Origin] {
        let id = std::mem::take(self.id.get_mut());
        if id == 0 && self.origins.is_empty() {
            return &mut [];
        }
        let origins = Rc::make_mut(&mut self.origins);
        if id != 0 {
            let found = (0..self.list.len() as u32).collect();
            origins.truncate(ORIGINS - 1);
            origins.insert(0, Origin { from: id, found });
        }
        origins
    }

    /// Replaces the list with `list`, whose instruction `k` is this list's
    /// instruction `from[k]` unchanged, or [`Origin::NEW`]: a tracked edit.
    pub fn rebuild(&mut self, list: Vec<Instruction>, from: &[u32]) {
        debug_assert!(
            from.len() == list.len()
                && from
                    .iter()
                    .zip(&list)
                    .all(|(&e, i)| { e == Origin::NEW || self.list.get(e as usize) == Some(i) }),
            "a rebuilt list's map names instructions that stayed as they were"
        );
        for o in self.edit() {
            o.found = from
                .iter()
                .map(|&e| match e {
                    Origin::NEW => Origin::NEW,
                    e => o.found[e as usize],
                })
                .collect();
        }
        self.list = Rc::new(list);
    }
}

impl From<Vec<Instruction>> for Insts {
    fn from(list: Vec<Instruction>) -> Insts {
        Insts {
            list: Rc::new(list),
            id: AtomicU64::new(0),
            origins: Rc::default(),
        }
    }
}

impl Clone for Insts {
    /// The same instructions under the same identity (given now if the
    /// list had none: a clone is kept as an earlier version, which edits
    /// to the original are then tracked from) and origin.
    fn clone(&self) -> Insts {
        Insts {
            list: self.list.clone(),
            id: AtomicU64::new(self.id()),
            origins: self.origins.clone(),
        }
    }

    fn clone_from(&mut self, o: &Insts) {
        self.list = o.list.clone();
        *self.id.get_mut() = o.id();
        self.origins.clone_from(&o.origins);
    }
}

impl<I: std::slice::SliceIndex<[Instruction]>> std::ops::Index<I> for Insts {
    type Output = I::Output;

    fn index(&self, k: I) -> &I::Output {
        &self.list[k]
    }
}

impl std::ops::IndexMut<usize> for Insts {
    /// Instruction `k`, to change: a tracked edit (the instruction counts
    /// as replaced).
    fn index_mut(&mut self, k: usize) -> &mut Instruction {
        for o in self.edit() {
            o.found[k] = Origin::NEW;
        }
        &mut Rc::make_mut(&mut self.list)[k]
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
    /// The list, to change in any way: it loses its identity and origin.
    fn deref_mut(&mut self) -> &mut Vec<Instruction> {
        *self.id.get_mut() = 0;
        if !self.origins.is_empty() {
            self.origins = Rc::default();
        }
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

    const THREE: &str =
        "mov(8) g2<1>UD g3<8,8,1>UD\nmov(8) g4<1>UD g2<8,8,1>UD\nmov(8) g5<1>UD g4<8,8,1>UD";

    #[test]
    fn indexed_edits_and_rebuilds_are_tracked_from_the_version_last_known() {
        let mut a = Insts::from(list(THREE));
        // A version no one knows by its identity is no origin.
        a[0].exec_size = 16;
        assert!(a.origin().is_none());
        let known = a.id();
        let n = Origin::NEW;
        a[1].exec_size = 16;
        let o = a.origin().unwrap().clone();
        assert_eq!((o.from, &o.found[..]), (known, &[0, n, 2][..]));
        // Further edits before anyone asks go on from the same origin; a
        // rebuild dropping the first instruction composes with it.
        a[2].exec_size = 16;
        let kept = a[1..].to_vec();
        a.rebuild(kept, &[1, 2]);
        let o = a.origin().unwrap();
        assert_eq!((o.from, &o.found[..]), (known, &[n, n][..]));
        // Once this version is known, edits start from it.
        let second = a.id();
        let first_again = list(THREE)[0];
        a.rebuild(vec![first_again, a[0], a[1]], &[n, 0, 1]);
        let o = a.origin().unwrap();
        assert_eq!((o.from, &o.found[..]), (second, &[n, 0, 1][..]));
        // A change through the Vec forgets it.
        a.push(first_again);
        assert!(a.origin().is_none());
    }

    #[test]
    fn edits_are_followed_from_the_last_two_known_versions() {
        let mut a = Insts::from(list(THREE));
        let n = Origin::NEW;
        let first = a.id();
        a[0].exec_size = 16;
        let second = a.id();
        a[2].exec_size = 16;
        assert_eq!(a.origin().map(|o| o.from), Some(second));
        assert_eq!(a.origin_from(second).unwrap().found, [0, 1, n]);
        assert_eq!(a.origin_from(first).unwrap().found, [n, 1, n]);
        // A third known version: the first is no longer followed.
        let third = a.id();
        a.rebuild(a[1..].to_vec(), &[1, 2]);
        assert_eq!(a.origin_from(third).unwrap().found, [1, 2]);
        assert_eq!(a.origin_from(second).unwrap().found, [1, n]);
        assert!(a.origin_from(first).is_none());
    }

    #[test]
    fn a_kept_version_does_not_make_an_edit_copy_the_list() {
        let mut a = Insts::from(list(THREE));
        let v = a.version();
        assert_eq!((v.id(), v.len()), (a.id(), 3));
        assert_eq!(v.instructions().as_deref(), Some(&list(THREE)));
        // Only the version keeps the list: the edit is in place and the
        // version's instructions are gone; its identity is an origin's.
        let at = a.as_ptr();
        a[1].exec_size = 16;
        assert_eq!(a.as_ptr(), at);
        assert!(v.instructions().is_none());
        assert_eq!(a.origin_from(v.id()).unwrap().found, [0, Origin::NEW, 2]);
        // A clone keeps the list: the edit copies it, and a version of the
        // clone still has its instructions.
        let b = a.clone();
        let w = b.version();
        a[2].exec_size = 16;
        assert_ne!(a.as_ptr(), b.as_ptr());
        assert_eq!(w.instructions().as_deref(), Some(&b.to_vec()));
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
