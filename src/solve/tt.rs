//! The solver's transposition table: bounds on exact values by position.
//!
//! Each entry holds a lower and an upper bound on the exact negamax value of
//! one position (an exact value when they meet), so results of searches with
//! different windows merge instead of overwriting each other. Entries are
//! 16 bytes and buckets of four fill one 64-byte cache line, so a probe
//! touches one line; a new position takes the bucket's entry with the
//! fewest empty squares (the cheapest to recompute).

use crate::game::outcome::MoveCode;

/// What the table knows of one position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StoredBounds {
    /// Lower bound on the value (side to move, half points).
    pub lo: i32,
    /// Upper bound on the value.
    pub hi: i32,
    /// Best or refuting move found ([`MoveCode::NONE`] when none is known).
    pub mv: MoveCode,
}

/// Entries per bucket.
const WAYS: usize = 4;

/// Bounds are stored in 16 bits: every value lies well inside (below
/// 2 · 16 · 246 half points either way), and an unknown bound saturates to
/// one that is still true.
const BOUND: i32 = i16::MAX as i32;

/// An entry as stored. `empties == 0` marks an unused slot (the solver
/// never stores positions with fewer than a handful of free squares).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    lo: i16,
    hi: i16,
    mv: u8,
    empties: u8,
}

/// Four slots on one cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

/// A fixed-size table of four-entry buckets, indexed by the low hash bits.
#[derive(Clone, Debug)]
pub(crate) struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB: the largest power of two of
    /// buckets that fits (at least 256).
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) << 20;
        let fit = bytes / std::mem::size_of::<Bucket>();
        let n = (1usize << fit.ilog2()).max(256);
        TranspositionTable {
            buckets: vec![Bucket::default(); n],
            mask: n - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<StoredBounds> {
        let b = &self.buckets[key as usize & self.mask];
        b.0.iter()
            .find(|e| e.key == key && e.empties != 0)
            .map(|e| StoredBounds {
                lo: e.lo as i32,
                hi: e.hi as i32,
                mv: MoveCode::from_byte(e.mv),
            })
    }

    /// Records that the value of `key` lies in `lo..=hi`, merged with what
    /// is already known about it.
    #[inline]
    pub fn store(&mut self, key: u64, lo: i32, hi: i32, mv: MoveCode, empties: u8) {
        let b = &mut self.buckets[key as usize & self.mask];
        let (lo, hi) = (lo.clamp(-BOUND, BOUND), hi.clamp(-BOUND, BOUND));
        if let Some(e) = b.0.iter_mut().find(|e| e.key == key && e.empties != 0) {
            let (mlo, mhi) = ((e.lo as i32).max(lo), (e.hi as i32).min(hi));
            // Disjoint bounds cannot happen for one position; if they ever
            // did (a hash collision), trust the newer result.
            let (nlo, nhi) = if mlo <= mhi { (mlo, mhi) } else { (lo, hi) };
            e.lo = nlo as i16;
            e.hi = nhi as i16;
            if mv != MoveCode::NONE {
                e.mv = mv.byte();
            }
            return;
        }
        let mut victim = 0;
        for i in 1..WAYS {
            if b.0[i].empties < b.0[victim].empties {
                victim = i;
            }
        }
        b.0[victim] = Slot {
            key,
            lo: lo as i16,
            hi: hi as i16,
            mv: mv.byte(),
            empties,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INF_LIKE: i32 = i32::MAX / 4;

    #[test]
    fn fills_the_size_asked_for() {
        // A power of two of MiB is used in full; anything else is rounded
        // down to one.
        let bytes = |t: &TranspositionTable| t.buckets.len() * std::mem::size_of::<Bucket>();
        assert_eq!(bytes(&TranspositionTable::new(64)), 64 << 20);
        assert_eq!(bytes(&TranspositionTable::new(1)), 1 << 20);
        assert_eq!(bytes(&TranspositionTable::new(100)), 64 << 20);
    }

    #[test]
    fn merges_bounds_and_keeps_deep_entries() {
        let mut t = TranspositionTable::new(1);
        t.store(7, -10, 50, MoveCode::from_byte(3), 9);
        t.store(7, 0, 100, MoveCode::NONE, 9);
        let e = t.probe(7).expect("stored");
        assert_eq!((e.lo, e.hi, e.mv), (0, 50, MoveCode::from_byte(3)));
        // Same bucket: the bucket fills, then the shallowest gives way and
        // the deep one stays.
        let step = t.mask as u64 + 1;
        for i in 1..=4 {
            t.store(7 + i * step, 1, 1, MoveCode::NONE, 4 + i as u8);
        }
        assert!(t.probe(7).is_some() && t.probe(7 + 4 * step).is_some());
        assert!(t.probe(7 + step).is_none());
        assert!(t.probe(8).is_none());
        // Unknown bounds saturate to true ones.
        t.store(9, -INF_LIKE, INF_LIKE, MoveCode::NONE, 6);
        let e = t.probe(9).expect("stored");
        assert!(e.lo <= -7872 && e.hi >= 7872);
    }
}
