//! Search: the transposition table, the midgame search, the exact endgame solver, time
//! management and the iterative-deepening driver. No I/O: results come back as values,
//! progress through callbacks.

mod cache;
pub mod control;
pub mod driver;
pub mod endgame;
pub mod midgame;
pub mod mpc;
mod mpc_table;
pub mod parameters;
pub mod time;
pub mod tt;

use crate::eval::Evaluator;
use control::Control;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, Ordering};
use tt::TranspositionTable;

/// A score above every real one (disc differences lie in -64..=64).
pub const SCORE_INF: i32 = 127;

/// The bounds (lower, upper) on a position's score that a fail-soft search in the window
/// `(alpha, beta)` proved by returning `score`.
#[inline(always)]
pub(crate) fn window_bounds(alpha: i32, beta: i32, score: i32) -> (i32, i32) {
    if score <= alpha {
        (-64, score)
    } else if score >= beta {
        (score, 64)
    } else {
        (score, score)
    }
}

/// What every thread of one search shares: the table, the stop/time control, the
/// evaluation and the number of threads.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub eval: &'a Evaluator,
    pub threads: usize,
}

/// A split point's cut-off flag, chained to its parents', so that a cut-off anywhere
/// above stops the helpers below.
pub(crate) struct SplitFlag<'a> {
    pub cut: AtomicBool,
    pub parent: Option<&'a SplitFlag<'a>>,
}

impl SplitFlag<'_> {
    pub fn is_cut(&self) -> bool {
        let mut f = Some(self);
        while let Some(flag) = f {
            if flag.cut.load(Ordering::Relaxed) {
                return true;
            }
            f = flag.parent;
        }
        false
    }
}

/// A generated move with the state it leads to and its ordering key.
#[derive(Clone, Copy)]
pub(crate) struct Candidate<S> {
    pub square: u8,
    pub next: S,
    pub key: i32,
    /// The legal moves of `next` when ordering computed them, else [`UNKNOWN_MOVES`].
    pub replies: u64,
}

/// No position has every square as a legal move: the marker for "not computed".
pub(crate) const UNKNOWN_MOVES: u64 = u64::MAX;

/// Most legal moves a position can have (33 is the known maximum in Othello).
pub(crate) const MAX_MOVES: usize = 34;

/// A fixed-capacity list of candidates on the stack, left uninitialised past its length
/// so that making one costs nothing.
pub(crate) struct MoveList<S> {
    items: [MaybeUninit<Candidate<S>>; MAX_MOVES],
    len: usize,
}

impl<S: Copy> MoveList<S> {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            items: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, c: Candidate<S>) {
        if self.len < MAX_MOVES {
            self.items[self.len].write(c);
            self.len += 1;
        }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Candidate<S>] {
        // SAFETY: the first `len` items were written by `push`, and `MaybeUninit<T>` has
        // the layout of `T`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast(), self.len) }
    }
}

/// Moves the candidate with the highest key among `list[i..]` to position `i`.
#[inline]
pub(crate) fn pick<S: Copy>(list: &mut [Candidate<S>], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].key > list[best].key {
            best = j;
        }
    }
    list.swap(i, best);
}
