//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two 64-bit words, the key XOR-ed with the data and the data, so a torn
//! write (two threads storing at once) shows up as a key mismatch and is ignored. Buckets
//! hold [`BUCKET`] entries; a new result replaces, in order of preference, the entry of the
//! same position, an entry of an older search (generation), or the shallowest entry.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Entries per bucket (one 64-byte cache line).
pub const BUCKET: usize = 4;

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtData {
    /// Lower and upper bound on the score (disc difference, or finer units).
    pub lower: i16,
    pub upper: i16,
    /// Best move found (square index), or [`NO_MOVE`].
    pub best_move: u8,
    /// Depth searched (the number of empties for exact solves).
    pub depth: u8,
    /// Selectivity of the search (0 = exact, no probable cuts; at most 127).
    pub selectivity: u8,
}

/// Set in every stored data word, so that a zero word means an empty slot.
const VALID: u64 = 1 << 55;

/// The marker for "no best move".
pub const NO_MOVE: u8 = 64;

impl TtData {
    fn pack(&self, generation: u8) -> u64 {
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | u64::from(self.best_move) << 32
            | u64::from(self.depth) << 40
            | u64::from(self.selectivity & 0x7F) << 48
            | VALID
            | u64::from(generation) << 56
    }

    fn unpack(word: u64) -> (TtData, u8) {
        (
            TtData {
                lower: word as u16 as i16,
                upper: (word >> 16) as u16 as i16,
                best_move: (word >> 32) as u8,
                depth: (word >> 40) as u8,
                selectivity: (word >> 48) as u8 & 0x7F,
            },
            (word >> 56) as u8,
        )
    }
}

/// One slot: the key XOR the data, and the data.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The slots one key may use, aligned to a cache line so that a probe (and its
/// prefetch) touches one line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Size of the table's [`Region::Near`]: it fits the last-level cache of the machines
/// volte is measured on (32 MiB of L3 shared by the cores).
pub const NEAR_BYTES: usize = 16 << 20;

/// Which part of the table a position's bucket is in. A search decides it from the
/// position alone (the solver: from its number of empties), so that a position is always
/// looked for where it was stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Anywhere in the table.
    Whole,
    /// The table's first [`NEAR_BYTES`] (the whole of a smaller table), shared with
    /// the positions of [`Region::Whole`] whose buckets fall there. For the many
    /// short-lived entries near the leaves: their buckets stay in the cache and under a
    /// few TLB entries instead of costing a trip to memory each.
    Near,
}

/// A lock-free transposition table of a fixed size.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Buckets minus one; the number of buckets is a power of two.
    mask: usize,
    /// The same for [`Region::Near`].
    near_mask: usize,
    generation: AtomicU8,
    /// A number no other table or clearing has had (see [`TranspositionTable::salt`]).
    salt: AtomicU64,
}

/// The source of [`TranspositionTable::salt`].
static SALTS: AtomicU64 = AtomicU64::new(0);

/// A salt no table has had: an odd multiple of a large odd constant, never zero.
fn next_salt() -> u64 {
    (SALTS.fetch_add(1, Ordering::Relaxed) * 2 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl TranspositionTable {
    /// A table of at most `mb` mebibytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) << 20;
        let max_buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // The largest power of two that fits.
        let n = 1usize << (usize::BITS - 1 - max_buckets.leading_zeros());
        let mut buckets: Vec<Bucket> = Vec::with_capacity(n);
        advise_huge_pages(buckets.as_ptr().cast(), n * std::mem::size_of::<Bucket>());
        buckets.resize_with(n, Bucket::default);
        let near = (NEAR_BYTES / std::mem::size_of::<Bucket>()).min(n);
        TranspositionTable {
            buckets,
            mask: n - 1,
            near_mask: near - 1,
            generation: AtomicU8::new(0),
            salt: AtomicU64::new(next_salt()),
        }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&self) {
        self.salt.store(next_salt(), Ordering::Relaxed);
        // A large table in parallel, one slice a core: one core's stores do not reach
        // the memory's bandwidth (a 1 GiB table: 137 ms on one core of the reference
        // machine, 97 ms on two; clearing was 7% of a run over hundreds of short solves).
        const PARALLEL_BYTES: usize = 64 << 20;
        let threads = if self.size_bytes() >= PARALLEL_BYTES {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            1
        };
        if threads == 1 {
            return clear_buckets(&self.buckets);
        }
        let chunk = self.buckets.len().div_ceil(threads);
        std::thread::scope(|scope| {
            for part in self.buckets.chunks(chunk) {
                scope.spawn(move || clear_buckets(part));
            }
        });
    }

    /// A number that changes when the table is made or cleared: the solver's per-thread
    /// caches (`search::cache`) mix it into their keys, so that what they hold from
    /// searches before the table was cleared stays unseen, as the table's own entries.
    pub fn salt(&self) -> u64 {
        self.salt.load(Ordering::Relaxed)
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, region: Region, key: u64) -> &[Entry; BUCKET] {
        let mask = match region {
            Region::Whole => self.mask,
            Region::Near => self.near_mask,
        };
        &self.buckets[key as usize & mask].0
    }

    /// Looks `key` up in `region`.
    #[inline]
    pub fn probe(&self, region: Region, key: u64) -> Option<TtData> {
        for e in self.bucket(region, key) {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(TtData::unpack(data).0);
            }
        }
        None
    }

    /// Starts loading the bucket of `key` in `region` into the cache, so that a probe
    /// soon after does not wait for memory (several prefetches overlap their misses).
    #[inline]
    pub fn prefetch(&self, region: Region, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = self.bucket(region, key);
            // SAFETY: prefetching is a hint that never faults; the pointer is in bounds.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.as_ptr().cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (region, key);
    }

    /// Stores `data` for `key` in `region`.
    #[inline]
    pub fn store(&self, region: Region, key: u64, data: TtData) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(region, key);
        let mut victim = 0;
        let mut victim_score = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let word = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ word == key || word == 0 {
                victim = i;
                break;
            }
            let (old, old_generation) = TtData::unpack(word);
            // Keep deep entries of the current search; replace stale ones first.
            let score = i32::from(old.depth) + if old_generation == generation { 256 } else { 0 };
            if score < victim_score {
                victim_score = score;
                victim = i;
            }
        }
        let word = data.pack(generation);
        let e = &bucket[victim];
        e.check.store(key ^ word, Ordering::Relaxed);
        e.data.store(word, Ordering::Relaxed);
    }
}

/// Empties `buckets`.
fn clear_buckets(buckets: &[Bucket]) {
    for e in buckets.iter().flat_map(|b| &b.0) {
        e.check.store(0, Ordering::Relaxed);
        e.data.store(0, Ordering::Relaxed);
    }
}

/// Asks the kernel to back the table with huge pages before it is first touched: a
/// probe then costs one TLB entry per 2 MiB instead of per 4 KiB (about 10% of solver
/// time with a 1 GiB table).
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *const u8, len: usize) {
    const PAGE: usize = 4096;
    let start = ptr as usize & !(PAGE - 1);
    let end = ptr as usize + len;
    if len > 0 {
        // SAFETY: the range lies within (or page-rounds down into) the allocation that
        // was just made; madvise only changes how the kernel backs it, never its contents,
        // and a failure is harmless.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *const u8, _len: usize) {}

/// A 64-bit hash of two bitboards (and an extra word for state beyond the discs).
#[inline]
pub fn hash(player: u64, opponent: u64, extra: u64) -> u64 {
    let mut h = player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ opponent.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ extra.wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 31;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    // Zero marks an empty slot.
    h | 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_table_clears_in_every_slice() {
        // Large enough to be cleared by several threads: keys spread over the whole table.
        let tt = TranspositionTable::new(64);
        let d = TtData {
            lower: 2,
            upper: 4,
            best_move: 9,
            depth: 30,
            selectivity: 0,
        };
        let keys: Vec<u64> = (0..4096u64).map(|i| hash(i, !i, 0)).collect();
        for &k in &keys {
            tt.store(Region::Whole, k, d);
        }
        let buckets = tt.mask as u64 + 1;
        let slices = keys.iter().map(|k| 8 * (k % buckets) / buckets);
        assert_eq!(slices.collect::<std::collections::HashSet<_>>().len(), 8);
        assert!(keys.iter().all(|&k| tt.probe(Region::Whole, k) == Some(d)));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(Region::Whole, k).is_none()));
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert!(tt.size_bytes() <= 1 << 20);
        let d = TtData {
            lower: -12,
            upper: 30,
            best_move: 37,
            depth: 20,
            selectivity: 0,
        };
        let k = hash(1, 2, 0);
        assert_eq!(tt.probe(Region::Whole, k), None);
        tt.store(Region::Whole, k, d);
        assert_eq!(tt.probe(Region::Whole, k), Some(d));
        assert_eq!(tt.probe(Region::Whole, hash(2, 1, 0)), None);
        tt.clear();
        assert_eq!(tt.probe(Region::Whole, k), None);
    }

    #[test]
    fn deep_entries_survive_a_full_bucket() {
        let tt = TranspositionTable::new(1);
        let buckets = tt.mask as u64 + 1;
        let deep = TtData {
            lower: 0,
            upper: 0,
            best_move: 1,
            depth: 30,
            selectivity: 0,
        };
        // Keys that all land in bucket 3.
        let keys: Vec<u64> = (0..10).map(|i| 3 + i * buckets).collect();
        tt.store(Region::Whole, keys[0], deep);
        for &k in &keys[1..] {
            tt.store(Region::Whole, k, TtData { depth: 5, ..deep });
        }
        assert_eq!(tt.probe(Region::Whole, keys[0]), Some(deep));
    }

    #[test]
    fn the_near_region_is_the_start_of_the_table() {
        let d = TtData {
            lower: -2,
            upper: 6,
            best_move: 19,
            depth: 11,
            selectivity: 0,
        };
        let keys: Vec<u64> = (0..4096u64).map(|i| hash(i, i << 7, 0)).collect();
        // Larger than the region: the near entries fill only its buckets, and a key is
        // found in the region it was stored in.
        let tt = TranspositionTable::new(64);
        let near = NEAR_BYTES / std::mem::size_of::<Bucket>();
        assert!(tt.buckets.len() > near);
        for &k in &keys {
            tt.store(Region::Near, k, d);
        }
        assert!(keys.iter().all(|&k| tt.probe(Region::Near, k) == Some(d)));
        let used = |b: &Bucket| b.0.iter().any(|e| e.data.load(Ordering::Relaxed) != 0);
        assert!(tt.buckets[..near].iter().filter(|b| used(b)).count() > 4000);
        assert!(!tt.buckets[near..].iter().any(used));
        let elsewhere = keys.iter().filter(|&&k| k as usize & tt.mask >= near);
        assert!(elsewhere.clone().count() > 3000);
        assert!(
            elsewhere
                .clone()
                .all(|&k| tt.probe(Region::Whole, k).is_none())
        );
        // No larger than the region: the two are the same.
        let small = TranspositionTable::new(4);
        for &k in &keys {
            small.store(Region::Near, k, d);
        }
        assert!(
            keys.iter()
                .all(|&k| small.probe(Region::Whole, k) == Some(d))
        );
    }
}
