//! The solver's transposition table: bounds on exact values by position.
//!
//! Each entry holds a lower and an upper bound on the exact negamax value of
//! one position (an exact value when they meet), so results of searches with
//! different windows merge instead of overwriting each other. Buckets hold
//! two entries: one kept for the position with the most empty squares seen
//! there (the costliest to recompute), one always replaced.

/// One stored position. `empties == 0` marks an unused slot (the solver
/// never stores positions with fewer than a handful of free squares).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    /// Full hash, to tell positions sharing a bucket apart.
    pub key: u64,
    /// Lower bound on the value (side to move, half points).
    pub lo: i32,
    /// Upper bound on the value.
    pub hi: i32,
    /// Best or refuting move found: a square index, [`MOVE_SWAP`], or
    /// [`MOVE_NONE`].
    pub mv: u8,
    /// Free squares of the position: the replacement priority.
    pub empties: u8,
}

/// `Entry::mv` of the pie swap.
pub(crate) const MOVE_SWAP: u8 = 64;
/// `Entry::mv` when no move is known.
pub(crate) const MOVE_NONE: u8 = 255;

/// A fixed-size table of two-entry buckets, indexed by the low hash bits.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `megabytes` MiB (a power of two of buckets, at least
    /// 1024 entries).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.max(1) << 20;
        let entries = (bytes / std::mem::size_of::<Entry>()).next_power_of_two() / 2;
        let entries = entries.max(1024);
        Table {
            slots: vec![Entry::default(); entries],
            mask: entries / 2 - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        2 * (key as usize & self.mask)
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|e| e.empties != 0 && e.key == key)
            .copied()
    }

    /// Records that the value of `key` lies in `lo..=hi`, merged with what
    /// is already known about it.
    #[inline]
    pub fn store(&mut self, key: u64, lo: i32, hi: i32, mv: u8, empties: u8) {
        let b = self.bucket(key);
        let new = Entry {
            key,
            lo,
            hi,
            mv,
            empties,
        };
        for i in b..b + 2 {
            let e = &mut self.slots[i];
            if e.empties != 0 && e.key == key {
                let (mlo, mhi) = (e.lo.max(lo), e.hi.min(hi));
                // Disjoint bounds cannot happen for one position; if they
                // ever did (a hash collision), trust the newer result.
                if mlo <= mhi {
                    e.lo = mlo;
                    e.hi = mhi;
                } else {
                    e.lo = lo;
                    e.hi = hi;
                }
                if mv != MOVE_NONE {
                    e.mv = mv;
                }
                return;
            }
        }
        if empties >= self.slots[b].empties {
            self.slots[b + 1] = self.slots[b];
            self.slots[b] = new;
        } else {
            self.slots[b + 1] = new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_bounds_and_keeps_deep_entries() {
        let mut t = Table::new(1);
        t.store(7, -10, 50, 3, 9);
        t.store(7, 0, 100, MOVE_NONE, 9);
        let e = t.probe(7).expect("stored");
        assert_eq!((e.lo, e.hi, e.mv), (0, 50, 3));
        // Same bucket, shallower: goes to the second slot, the deep one stays.
        let other = 7 + (t.mask as u64 + 1);
        t.store(other, 1, 1, MOVE_NONE, 4);
        assert!(t.probe(7).is_some() && t.probe(other).is_some());
        assert!(t.probe(8).is_none());
    }
}
