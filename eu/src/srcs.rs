//! An instruction's sources, inline.

use crate::isa::{Region, Src, SrcKind};
use crate::types::RegType;

/// An instruction's sources: at most [`Srcs::CAPACITY`], kept inline so
/// that an instruction is plain data (`Copy`): the compiler's passes copy
/// instructions and whole instruction lists all the time.
///
/// The slots past the length always hold [`Srcs::UNUSED`], so the derived
/// hash, which sees every slot, agrees with `==`, which compares the used
/// ones.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Clone, Copy, Eq, Hash)]
pub struct Srcs {
    len: u8,
    slots: [Src; Srcs::CAPACITY],
}

impl Srcs {
    /// The most sources an instruction has (MAD, BFE, BFI2, CSEL).
    pub const CAPACITY: usize = 3;

    /// What an unused slot holds.
    const UNUSED: Src = Src {
        kind: SrcKind::Null,
        ty: RegType::UD,
        region: Region::SCALAR,
        neg: false,
        abs: false,
    };

    /// No sources.
    pub const fn new() -> Srcs {
        Srcs {
            len: 0,
            slots: [Srcs::UNUSED; Srcs::CAPACITY],
        }
    }

    /// The sources `srcs` (at most [`Srcs::CAPACITY`]; the rest are
    /// dropped).
    pub fn from_slice(srcs: &[Src]) -> Srcs {
        let mut s = Srcs::new();
        for &x in srcs.iter().take(Srcs::CAPACITY) {
            s.push(x);
        }
        s
    }

    /// Appends a source; a full list is left as it is and `false` is
    /// returned (no opcode has more sources than the capacity).
    pub fn push(&mut self, src: Src) -> bool {
        let Some(slot) = self.slots.get_mut(self.len as usize) else {
            return false;
        };
        *slot = src;
        self.len += 1;
        true
    }
}

/// The sources the lists have, one after another (a slice compare does
/// not inline).
impl PartialEq for Srcs {
    #[inline]
    fn eq(&self, o: &Srcs) -> bool {
        let [a0, a1, a2] = &self.slots;
        let [b0, b1, b2] = &o.slots;
        self.len == o.len
            && (self.len < 1 || a0 == b0)
            && (self.len < 2 || a1 == b1)
            && (self.len < 3 || a2 == b2)
    }
}

impl Default for Srcs {
    fn default() -> Srcs {
        Srcs::new()
    }
}

impl std::ops::Deref for Srcs {
    type Target = [Src];
    fn deref(&self) -> &[Src] {
        &self.slots[..self.len as usize]
    }
}

impl std::ops::DerefMut for Srcs {
    fn deref_mut(&mut self) -> &mut [Src] {
        &mut self.slots[..self.len as usize]
    }
}

impl std::fmt::Debug for Srcs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Srcs {
    type Item = &'a Src;
    type IntoIter = std::slice::Iter<'a, Src>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Srcs {
    type Item = &'a mut Src;
    type IntoIter = std::slice::IterMut<'a, Src>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, RandomState};

    fn src(nr: u32) -> Src {
        Src::grf(nr, 0, RegType::F, Region::new(8, 8, 1))
    }

    #[test]
    fn holds_at_most_three_sources_in_order() {
        let mut s = Srcs::new();
        assert!(s.is_empty());
        assert!(s.push(src(2)) && s.push(src(3)) && s.push(src(4)));
        assert!(!s.push(src(5)), "full");
        assert_eq!(&s[..], &[src(2), src(3), src(4)]);
        assert_eq!(Srcs::from_slice(&[src(2), src(3), src(4), src(5)]), s);
    }

    #[test]
    fn equal_sources_compare_and_hash_alike_however_made() {
        // Built by pushing, from a slice, and by swapping in place.
        let mut pushed = Srcs::new();
        pushed.push(src(3));
        pushed.push(src(2));
        let mut swapped = Srcs::from_slice(&[src(2), src(3)]);
        swapped.swap(0, 1);
        let sliced = Srcs::from_slice(&[src(3), src(2)]);
        let h = RandomState::new();
        for s in [&swapped, &sliced] {
            assert_eq!(*s, pushed);
            assert_eq!(h.hash_one(s), h.hash_one(pushed));
        }
        assert_ne!(Srcs::from_slice(&[src(3)]), pushed);
        assert_eq!(
            format!("{:?}", Srcs::from_slice(&[src(3)])),
            format!("[{:?}]", src(3))
        );
    }
}
