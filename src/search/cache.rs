//! A small cache of each thread's own for the solver's shallow nodes: exact bounds of
//! positions a few empties from the end, small enough to stay in the core's level-2
//! cache, where the transposition table's buckets are a trip to memory (and, in a virtual
//! machine, a page walk) each.
//!
//! Every entry is a fact about a position (bounds on its exact score with perfect
//! play), whoever stored it: two workers of one thread (a split's helper run on the thread
//! of the worker waiting for it) may share the cache without harm. Entries carry the salt
//! of the transposition table they were searched with ([`TranspositionTable::salt`]), so
//! a solve with a fresh or cleared table does not see the entries of the solves before
//! it and its node count does not depend on them.

use super::tt::TranspositionTable;
use super::window_bounds;
use std::cell::UnsafeCell;

/// log2 of the entries of a thread's cache: 8,192 entries of 16 bytes, 128 KB, a quarter
/// of the level-2 cache of a core of the reference machine (twice and half that were no
/// faster).
pub(crate) const CACHE_BITS: u32 = 13;

#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Entry {
    /// The position's key mixed with the salt; 0: empty.
    check: u64,
    lower: i8,
    upper: i8,
    best_move: u8,
}

thread_local! {
    static ENTRIES: UnsafeCell<Vec<Entry>> = const { UnsafeCell::new(Vec::new()) };
}

/// A bound found in the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cached {
    pub lower: i32,
    pub upper: i32,
    pub best_move: u8,
}

/// The calling thread's cache, as seen by one worker.
pub(crate) struct ShallowCache {
    entries: *mut Entry,
    salt: u64,
}

impl ShallowCache {
    /// The calling thread's cache (allocated on first use), for a search in `tt`.
    pub fn for_thread(tt: &TranspositionTable) -> ShallowCache {
        let entries = ENTRIES.with(|cell| {
            // SAFETY: the vector is only touched here, on its own thread, and only grows
            // once; the pointer stays valid until the thread ends, which outlives every
            // worker created on it.
            let v = unsafe { &mut *cell.get() };
            if v.is_empty() {
                v.resize(1 << CACHE_BITS, Entry::default());
            }
            v.as_mut_ptr()
        });
        ShallowCache {
            entries,
            salt: tt.salt(),
        }
    }

    #[inline(always)]
    fn slot(&self, check: u64) -> *mut Entry {
        // SAFETY: the index is masked to the cache's length.
        unsafe {
            self.entries
                .add((check >> (64 - CACHE_BITS)) as usize & ((1 << CACHE_BITS) - 1))
        }
    }

    /// The bounds stored for the position of `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Cached> {
        let check = key ^ self.salt;
        // SAFETY: the slot is in the cache; the thread's workers use it one at a time.
        let e = unsafe { *self.slot(check) };
        (e.check == check).then_some(Cached {
            lower: i32::from(e.lower),
            upper: i32::from(e.upper),
            best_move: e.best_move,
        })
    }

    /// Stores the fail-soft result `score` of a null-window search above `alpha`.
    #[inline(always)]
    pub fn store(&self, key: u64, alpha: i32, score: i32, best_move: u8) {
        self.store_window(key, alpha, alpha + 1, score, best_move);
    }

    /// Stores the fail-soft result `score` of a search in the window `(alpha, beta)`.
    #[inline(always)]
    pub fn store_window(&self, key: u64, alpha: i32, beta: i32, score: i32, best_move: u8) {
        let check = key ^ self.salt;
        let (lower, upper) = window_bounds(alpha, beta, score);
        // SAFETY: as in `probe`.
        unsafe {
            *self.slot(check) = Entry {
                check,
                lower: lower as i8,
                upper: upper as i8,
                best_move,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_come_back_under_the_same_salt_only() {
        let tt = TranspositionTable::new(1);
        let cache = ShallowCache::for_thread(&tt);
        let key = 0x1234_5678_9ABC_DEF1;
        assert_eq!(cache.probe(key), None);
        let cached = |lower, upper, best_move| {
            Some(Cached {
                lower,
                upper,
                best_move,
            })
        };
        // Null windows: above alpha a lower bound, at or below it an upper bound.
        cache.store(key, 10, 14, 33);
        assert_eq!(cache.probe(key), cached(14, 64, 33));
        cache.store(key, 10, 10, 2);
        assert_eq!(cache.probe(key), cached(-64, 10, 2));
        // An open window: inside it the exact score.
        cache.store_window(key, -5, 5, 3, 7);
        assert_eq!(cache.probe(key), cached(3, 3, 7));
        cache.store_window(key, -5, 5, 5, 7);
        assert_eq!(cache.probe(key), cached(5, 64, 7));
        // Another key in the same slot (the index is the key's top bits) replaces it.
        cache.store(key ^ 1, 0, -20, 9);
        assert_eq!(cache.probe(key), None);
        assert_eq!(cache.probe(key ^ 1), cached(-64, -20, 9));
        // Another table, or the same one cleared, does not see the entries.
        let other = TranspositionTable::new(1);
        assert_eq!(ShallowCache::for_thread(&other).probe(key ^ 1), None);
        tt.clear();
        assert_eq!(ShallowCache::for_thread(&tt).probe(key ^ 1), None);
    }
}
