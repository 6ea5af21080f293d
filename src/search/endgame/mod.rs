//! The exact endgame solver: the final score (or only win/loss/draw) of a position with
//! perfect play, for every variant.
//!
//! Null-window searches everywhere below a PVS root; far from the end the root is searched
//! first in a narrow window around a guess of the score (a shallow selective midgame
//! search), widened when the score falls outside. Near the leaves moves come straight
//! from the list of empty squares in parity order (odd quadrants first) and the last empty
//! square is scored by counting flips; higher up, moves are generated and ordered
//! fastest-first (fewest replies for the opponent), the transposition table (below
//! [`SOLVE_TABLE_EMPTIES`], a small cache of the thread's own) gives the best move and
//! bounds, enhanced transposition cut-offs probe every child first, and stable discs
//! bound the score. Above [`SOLVE_SPLIT_EMPTIES`] a node whose first move did
//! not cut is split over the threads (young brothers wait).
//!
//! Files: `last.rs` (the last four empties), `shallow.rs` (the shallow nodes, below
//! [`SOLVE_TT_EMPTIES`]), `worker.rs` (the full search: ordering, table, splits) and
//! `root.rs` (the root: guesses, pre-search, windows, the principal variation).

mod last;
pub(crate) mod root;
mod shallow;
mod worker;

use super::cache::ShallowCache;
use super::control::POLL_NODES;
use super::parameters::*;
use super::tt::{NO_MOVE, Region, TranspositionTable, TtData, hash};
use super::{
    Candidate, MAX_MOVES, MoveList, SCORE_INF, Shared, SplitFlag, UNKNOWN_MOVES, pick,
    window_bounds,
};
use crate::bitboard::{Bits, CORNERS, neighbours};
use crate::rules::Rules;
use crate::square::{Move, Square};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::Duration;

/// Exact score, or only win/loss/draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolveMode {
    #[default]
    Exact,
    WinLossDraw,
}

/// What to solve and how.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    pub mode: SolveMode,
    /// Also compute the exact score (or WLD result) of every legal move.
    pub all_moves: bool,
    /// The root moves to choose among (a mask of squares; all legal moves by default).
    pub root_moves: u64,
    /// A guess of the exact score (say, from the searches that came before), around which
    /// the root is searched first; `None`: the solver guesses by a shallow search.
    pub estimate: Option<i32>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            mode: SolveMode::Exact,
            all_moves: false,
            root_moves: u64::MAX,
            estimate: None,
        }
    }
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveResult {
    /// Final disc difference for the side to move with perfect play. In win/loss/draw
    /// mode only its sign is meaningful (-1, 0 or 1 unless the search proved more).
    pub score: i32,
    /// The best move (or [`Move::Pass`] when the side to move must pass); `None` when the
    /// game is over.
    pub best_move: Option<Move>,
    /// All moves that reach the best score, when every move was solved.
    pub best_moves: Vec<Move>,
    /// A principal variation, starting with the best move (exact mode).
    pub pv: Vec<Move>,
    /// Score of every legal move, best first (with `all_moves`).
    pub move_scores: Vec<(Move, i32)>,
    /// Nodes visited (every position played into, passes included).
    pub nodes: u64,
    /// Positions only looked at, not searched: each child keyed by the move ordering
    /// (from [`SOLVE_FASTEST_FIRST_EMPTIES`]; the table's move is not keyed), each
    /// evaluation, each child whose entry the enhanced transposition cut-off probes; and
    /// the same in the selective searches that guess the score first
    /// ([`MidWorker::peeked`](crate::search::midgame::MidWorker::peeked)). Edax counts these as nodes too: `nodes + peeked` is the
    /// node count in its units.
    pub peeked: u64,
    pub time: Duration,
    /// Empty squares of the position.
    pub n_empties: u32,
}

impl SolveResult {
    /// The nodes as Edax counts them: the searched ones and the [`SolveResult::peeked`].
    pub fn edax_nodes(&self) -> u64 {
        self.nodes + self.peeked
    }
}

/// Squares of the quadrants holding an odd number of empties: moves there come first
/// (the player who plays last in a region tends to gain).
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    // Fold rows 0-3 onto row 0 and rows 4-7 onto row 4 (XOR keeps the parity), then the
    // four squares of each half row onto its first: bits 0, 4, 32 and 36 hold the parities
    // of the four quadrants. Multiplying spreads each over its quadrant (the four
    // products do not overlap, so nothing carries).
    let rows = empties ^ (empties >> 8);
    let rows = rows ^ (rows >> 16);
    let nibbles = rows ^ (rows >> 1);
    let nibbles = nibbles ^ (nibbles >> 2);
    (nibbles & 0x0000_0011_0000_0011) * 0x0F0F_0F0F
}

/// Squares next to a corner (C and X squares): usually the worst moves.
const NEAR_CORNERS: u64 = 0x42C3_0000_0000_C342;

/// `moves` split for trying in order: odd quadrants first (parity), and within each
/// parity corners first, squares next to corners last.
#[inline(always)]
fn priority_sets(moves: u64, odd: u64) -> [u64; 6] {
    let (first, second) = (moves & odd, moves & !odd);
    [
        first & CORNERS,
        first & !(CORNERS | NEAR_CORNERS),
        first & NEAR_CORNERS,
        second & CORNERS,
        second & !(CORNERS | NEAR_CORNERS),
        second & NEAR_CORNERS,
    ]
}

/// Fail-soft alpha-beta bookkeeping for a move scored `v`: raises `best` and `alpha`;
/// true when the move cuts (`v >= beta`).
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, v: i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

/// One search thread's view: shared state plus its own node counter.
pub(crate) struct Worker<'a, 's, R: Rules> {
    pub shared: &'s Shared<'a>,
    pub nodes: u64,
    /// Positions looked at but not searched (see [`SolveResult::peeked`]).
    pub peeked: u64,
    /// Nodes already reported to the control.
    pub polled: u64,
    split: Option<&'s SplitFlag<'s>>,
    /// This thread's cache of the shallow nodes' bounds.
    cache: ShallowCache,
    /// Bit `n` set: the node being searched with `n` empties is expected to be a
    /// cut-node (to fail high); clear: an all-node (to fail low). See
    /// [`Worker::expect_child`].
    cut_nodes: u64,
    _rules: std::marker::PhantomData<R>,
}

impl<'a, 's, R: Rules> Worker<'a, 's, R> {
    pub fn new(shared: &'s Shared<'a>, split: Option<&'s SplitFlag<'s>>) -> Self {
        Worker {
            shared,
            nodes: 0,
            peeked: 0,
            polled: 0,
            split,
            cache: ShallowCache::for_thread(shared.tt),
            cut_nodes: u64::MAX,
            _rules: std::marker::PhantomData,
        }
    }

    /// True when the search must unwind: stopped from outside or cut at a split above.
    #[inline]
    fn aborted(&self) -> bool {
        self.shared.control.stopped() || self.split.is_some_and(|f| f.is_cut())
    }

    /// Reports nodes to the control every [`POLL_NODES`].
    #[inline]
    fn poll(&mut self) {
        if self.nodes - self.polled >= POLL_NODES {
            self.shared.control.poll(self.nodes - self.polled);
            self.polled = self.nodes;
        }
    }

    /// Reports the nodes not reported yet.
    pub fn flush(&mut self) {
        self.shared.control.poll(self.nodes - self.polled);
        self.polled = self.nodes;
    }

    /// The table's region for the positions with `n` empties (see
    /// [`SOLVE_NEAR_TT_EMPTIES`]).
    #[inline(always)]
    pub(crate) fn region(n: u32) -> Region {
        if n < SOLVE_NEAR_TT_EMPTIES {
            Region::Near
        } else {
            Region::Whole
        }
    }

    #[inline]
    pub fn key(s: &R::S) -> u64 {
        let pos = R::position(s);
        hash(pos.player, pos.opponent, R::hash_extra(s))
    }

    /// True when the node being searched with `n` empties is expected to fail high.
    #[inline(always)]
    fn expected_cut(&self, n: u32) -> bool {
        self.cut_nodes >> n & 1 != 0
    }

    /// Records what the child about to be searched from a node with `n` empties is
    /// expected to be. In a null-window tree the first child of a cut-node is an all-node
    /// and every other child is a cut-node (after a first move that did not cut, the
    /// node is searched like an all-node). Only [`Worker::stability_cut`] acts on it; the
    /// searches read it only to mark their own children.
    #[inline(always)]
    fn expect_child(&mut self, n: u32, cut: bool) {
        let bit = 1u64 << (n - 1);
        if cut {
            self.cut_nodes |= bit;
        } else {
            self.cut_nodes &= !bit;
        }
    }

    /// The stability cut-off of a null-window node with `n` empties: tried only at
    /// expected all-nodes, since it can only cut a node that fails low. At an expected
    /// cut-node it almost never cuts (FFO 40-47: 485.2 M nodes with the test everywhere,
    /// 485.8 M without it at cut-nodes), and skipping it there is what made the low
    /// thresholds of [`SOLVE_STABILITY_ALPHA`] pay with two threads.
    #[inline(always)]
    fn stability_cut(&self, s: &R::S, alpha: i32, n: u32) -> Option<i32> {
        if alpha < SOLVE_STABILITY_ALPHA[n as usize] || self.expected_cut(n) {
            return None;
        }
        R::stability_cut(s, alpha)
    }
}

/// Searches `s` with window `(alpha, beta)`, whatever the depth.
pub(crate) fn window<R: Rules>(
    w: &mut Worker<'_, '_, R>,
    s: &R::S,
    alpha: i32,
    beta: i32,
    n: u32,
) -> i32 {
    if n == 0 {
        w.nodes += 1;
        return R::final_score(s);
    }
    if n <= SOLVE_SMALL_EMPTIES {
        return w.small(s, alpha, beta, !R::position(s).occupied(), n, false);
    }
    w.search(s, alpha, beta, n, false)
}
