//! Growing an opening book with volte's own searches: learning lines (games, openings),
//! searching the leaves that need it on every core, and best-first expansion of the most
//! promising lines. Every batch of searches is saved, so an interrupted build resumes
//! where it stopped, and every leaf search starts from an empty table, so the book is the
//! same whatever the number of threads.

use crate::book::{Book, Key, Leaf};
use crate::engine::{Engine, EngineOptions};
use crate::eval::Evaluator;
use crate::progress::{Progress, Quiet};
use anyhow::Result;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How the leaves are searched.
#[derive(Clone)]
pub struct SearchOptions {
    /// Midgame depth of each leaf search (plies; see [`Book::leaf_depth`]).
    pub depth: u32,
    /// Solve exactly from this many empties.
    pub solve_from: u32,
    /// Searches run at once (one thread each).
    pub threads: usize,
    /// Transposition table of each search, in MB.
    pub hash_mb: usize,
    pub eval: Evaluator,
    /// Searches between two saves of the book.
    pub batch: usize,
    /// The leaves this run searches: those of its shard (see [`takes`]).
    pub shard: crate::jobs::shard::Shard,
}

/// Whether shard `shard` searches the leaf of `key`. Leaves go to shards by a hash of
/// their position, not by their rank in the list of leaves to search: that list shrinks
/// as a shard's searches are saved, and a resumed shard must take the same leaves.
pub fn takes(shard: crate::jobs::shard::Shard, key: &Key) -> bool {
    let mut x = key.player ^ key.opponent.rotate_left(32) ^ 0x9E37_79B9_7F4A_7C15;
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    (x % shard.count as u64) as usize + 1 == shard.index
}

/// The leaf searches' default midgame depth, solving depth and table size (MB): constants,
/// so that the command line's defaults do not build an evaluator.
pub const DEFAULT_DEPTH: u32 = 16;
pub const DEFAULT_SOLVE_FROM: u32 = 24;
pub const DEFAULT_HASH_MB: usize = 32;

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            depth: DEFAULT_DEPTH,
            solve_from: DEFAULT_SOLVE_FROM,
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            eval: Evaluator::default(),
            batch: 256,
            shard: crate::jobs::shard::Shard::WHOLE,
        }
    }
}

/// Searches the leaves of `keys` on `options.threads` threads; results in key order.
fn search_leaves(
    book: &Book,
    keys: &[Key],
    options: &SearchOptions,
    progress: &dyn Progress,
) -> Vec<(Key, Leaf)> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(keys.len()));
    let threads = options.threads.clamp(1, keys.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let engine = Engine::new(EngineOptions {
                    hash_mb: options.hash_mb,
                    threads: 1,
                    eval: options.eval.clone(),
                    ..EngineOptions::default()
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&key) = keys.get(i) else { break };
                    let (state, mask) = book.leaf_moves(key);
                    engine.clear();
                    let leaf = engine.search_leaf(
                        book.variant(),
                        &state,
                        mask,
                        book.leaf_depth(key, options.depth),
                        options.solve_from,
                    );
                    results.lock().expect("lock").push((key, leaf));
                    progress.tick(1);
                }
            });
        }
    });
    let mut results = results.into_inner().expect("lock");
    results.sort_unstable_by_key(|&(k, _)| k);
    results
}

/// Searches every leaf that needs it (new positions, leaves whose move joined the book,
/// leaves searched less deeply than `options.depth`), saving the book to `path` after
/// every batch. Returns the number of searches.
pub fn search_stale(
    book: &mut Book,
    path: Option<&Path>,
    options: &SearchOptions,
    progress: &dyn Progress,
) -> Result<usize> {
    book.invalidate_linked_leaves();
    let stale: Vec<Key> = book
        .stale(options.depth.min(255) as u8)
        .into_iter()
        .filter(|k| takes(options.shard, k))
        .collect();
    progress.start("searching leaves", stale.len() as u64);
    for batch in stale.chunks(options.batch.max(1)) {
        for (key, leaf) in search_leaves(book, batch, options, progress) {
            book.set_leaf(key, leaf);
        }
        if let Some(path) = path {
            book.save(path)?;
        }
    }
    progress.finish();
    book.backup();
    Ok(stale.len())
}

/// What [`expand`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExpandReport {
    pub added: usize,
    pub searches: usize,
    pub rounds: usize,
}

/// Best-first expansion: up to `count` times, adds the position behind the leaf with the
/// least path error (see [`Book::expansion_candidates`]; at most `margin` discs, before
/// ply `max_ply`), then searches that position's leaf and its parent's new one. Works in
/// rounds of `options.batch` positions, saving after each.
pub fn expand(
    book: &mut Book,
    path: Option<&Path>,
    count: usize,
    margin: i32,
    max_ply: u32,
    options: &SearchOptions,
    progress: &dyn Progress,
) -> Result<ExpandReport> {
    let mut report = ExpandReport::default();
    if count > 0 && !options.shard.is_whole() {
        anyhow::bail!(
            "best-first expansion cannot be split into shards: each position it adds depends \
             on the searches before it (shard the leaves with `volte book learn` or a plain \
             `build`, then merge, then expand on one machine)"
        );
    }
    progress.start("expanding", count as u64);
    while report.added < count {
        book.backup();
        let round = (count - report.added).min(options.batch.max(1) / 2).max(1);
        let mut added = 0;
        for (key, _) in book.expansion_candidates(margin, max_ply) {
            if added == round {
                break;
            }
            if book.expand(key).is_some() {
                added += 1;
            }
        }
        if added == 0 {
            break;
        }
        book.invalidate_linked_leaves();
        let stale = book.stale(0);
        for (key, leaf) in search_leaves(book, &stale, options, &Quiet) {
            book.set_leaf(key, leaf);
        }
        report.added += added;
        report.searches += stale.len();
        report.rounds += 1;
        progress.tick(added as u64);
        if let Some(path) = path {
            book.save(path)?;
        }
    }
    progress.finish();
    book.backup();
    Ok(report)
}
