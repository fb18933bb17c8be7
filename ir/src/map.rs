//! Side tables keyed by value or block id. Values and blocks are numbered
//! densely from 0, so a table is a vector; the key type keeps a value table
//! from being indexed by a block (or by any other number).

use crate::program::{BlockId, ValueId};
use std::marker::PhantomData;

/// An id that keys a dense table.
pub trait DenseId: Copy {
    /// The index it keys.
    fn index(self) -> usize;
}

impl DenseId for ValueId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

impl DenseId for BlockId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// A table from ids of type `K` to values of type `T`, with room for every
/// id below a bound and growing on insertion past it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DenseMap<K, T> {
    slots: Vec<Option<T>>,
    key: PhantomData<K>,
}

/// A table keyed by value id.
pub type ValueMap<T> = DenseMap<ValueId, T>;
/// A table keyed by block id.
pub type BlockMap<T> = DenseMap<BlockId, T>;

impl<K: DenseId, T> DenseMap<K, T> {
    /// An empty table with room for ids below `bound`.
    pub fn with_bound(bound: usize) -> Self {
        DenseMap {
            slots: std::iter::repeat_with(|| None).take(bound).collect(),
            key: PhantomData,
        }
    }

    /// The entry of `k`, if any.
    pub fn get(&self, k: K) -> Option<&T> {
        self.slots.get(k.index()).and_then(Option::as_ref)
    }

    /// The entry of `k`, mutably, if any.
    pub fn get_mut(&mut self, k: K) -> Option<&mut T> {
        self.slots.get_mut(k.index()).and_then(Option::as_mut)
    }

    /// Whether `k` has an entry.
    pub fn contains(&self, k: K) -> bool {
        self.get(k).is_some()
    }

    /// Sets the entry of `k`, returning the old one.
    pub fn insert(&mut self, k: K, value: T) -> Option<T> {
        let i = k.index();
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || None);
        }
        self.slots[i].replace(value)
    }

    /// Removes the entry of `k`, returning it.
    pub fn remove(&mut self, k: K) -> Option<T> {
        self.slots.get_mut(k.index()).and_then(Option::take)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }
}

impl<K: DenseId, T> Default for DenseMap<K, T> {
    fn default() -> Self {
        DenseMap::with_bound(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_grow_past_the_bound_and_come_out_again() {
        let mut m: ValueMap<u8> = ValueMap::with_bound(2);
        assert_eq!(m.get(ValueId(1)), None);
        assert_eq!(m.insert(ValueId(1), 7), None);
        assert_eq!(m.insert(ValueId(1), 8), Some(7));
        assert_eq!(m.insert(ValueId(9), 3), None);
        assert_eq!((m.get(ValueId(1)), m.get(ValueId(9))), (Some(&8), Some(&3)));
        *m.get_mut(ValueId(9)).unwrap() += 1;
        assert_eq!(m.remove(ValueId(9)), Some(4));
        assert!(!m.contains(ValueId(9)) && m.contains(ValueId(1)));
        m.clear();
        assert_eq!(m, {
            let mut e = ValueMap::with_bound(10);
            e.remove(ValueId(0));
            e
        });
        let b: BlockMap<u8> = BlockMap::default();
        assert_eq!(b.get(BlockId(3)), None);
    }
}
