//! The expressions available at one point of CSE's walk over a block, and
//! those it forgot, indexed by opcode.
//!
//! Every question CSE asks of them (an identical instruction, a MUL up to
//! negation, a near miss, a forgotten twin) is about instructions of the
//! candidate's own opcode, so each is answered from that opcode's entries
//! alone, in the order they became available: the same answers, in the same
//! order, as a walk over all of them. Forgetting the entries an
//! instruction overwrites is skipped outright when it writes no byte any
//! entry ever read or wrote.

use super::cov;
use crate::brw::ops::{overlaps, Footprint};
use crate::coverage::Point;
use eu::{Instruction, Opcode};

/// An available expression E.
pub(super) struct Entry {
    pub(super) inst: Instruction,
    pub(super) reads: Footprint,
    pub(super) writes: Footprint,
    pub(super) flag_reads: u8,
    pub(super) flag_writes: u8,
    /// Flag-byte versions right after E.
    pub(super) ver: [u32; 8],
}

/// The available and forgotten expressions of one block.
pub(super) struct Avail {
    /// Every entry made available in the block, in order; None once
    /// forgotten.
    entries: Vec<Option<Entry>>,
    /// Per opcode ([`Opcode::index`]), its entries' positions in `entries`.
    by_op: Vec<Vec<usize>>,
    /// Per opcode, the entries forgotten, in the order they were, and why.
    forgotten: Vec<Vec<(Instruction, Point)>>,
    /// Per register, the bytes some entry of the block read or wrote
    /// (forgetting an entry leaves its bytes here).
    touched: Vec<u32>,
}

impl Avail {
    /// Nothing available, for a program of `nregs` registers.
    pub(super) fn new(nregs: usize, entries: usize) -> Avail {
        Avail {
            entries: Vec::with_capacity(entries),
            by_op: vec![Vec::new(); eu::OPCODES.len()],
            forgotten: vec![Vec::new(); eu::OPCODES.len()],
            touched: vec![0; nregs],
        }
    }

    /// Forgets everything (at a block's start), keeping the storage.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.by_op.iter_mut().for_each(Vec::clear);
        self.forgotten.iter_mut().for_each(Vec::clear);
        self.touched.fill(0);
    }

    /// The available entries with opcode `op`, in the order they became
    /// available.
    pub(super) fn with_op(&self, op: Opcode) -> impl DoubleEndedIterator<Item = &Entry> {
        self.by_op[op.index()]
            .iter()
            .filter_map(|&k| self.entries[k].as_ref())
    }

    /// The forgotten entries with opcode `op`, in the order they were
    /// forgotten.
    pub(super) fn forgotten_with_op(
        &self,
        op: Opcode,
    ) -> impl DoubleEndedIterator<Item = &(Instruction, Point)> {
        self.forgotten[op.index()].iter()
    }

    /// Makes `e` available.
    pub(super) fn push(&mut self, e: Entry) {
        for &(r, m) in e.reads.iter().chain(&e.writes) {
            self.touched[r as usize] |= m;
        }
        self.by_op[e.inst.op.index()].push(self.entries.len());
        self.entries.push(Some(e));
    }

    /// Forgets, in order, every entry for which `why` gives a reason.
    fn forget_where(&mut self, why: impl Fn(&Entry) -> Option<Point>) {
        for slot in &mut self.entries {
            let Some(reason) = slot.as_ref().and_then(&why) else {
                continue;
            };
            let e = slot.take().expect("a live entry");
            self.forgotten[e.inst.op.index()].push((e.inst, reason));
        }
    }

    /// Forgets the entries whose sources or destination `writes` touches.
    pub(super) fn forget_overwritten(&mut self, writes: &[(u32, u32)]) {
        if !writes
            .iter()
            .any(|&(r, m)| self.touched[r as usize] & m != 0)
        {
            return;
        }
        self.forget_where(|e| {
            if overlaps(writes, &e.reads) {
                Some(cov::REFUSE_SOURCE_OVERWRITTEN)
            } else if overlaps(writes, &e.writes) {
                Some(cov::REFUSE_DEST_OVERWRITTEN)
            } else {
                None
            }
        });
    }

    /// Forgets the masked entries (a NoMask write came between).
    pub(super) fn forget_masked(&mut self) {
        self.forget_where(|e| (!e.inst.we_all).then_some(cov::REFUSE_NOMASK_BARRIER));
    }
}
