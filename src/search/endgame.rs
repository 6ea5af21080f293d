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

use super::cache::ShallowCache;
use super::control::POLL_NODES;
use super::midgame::MidWorker;
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

/// Size of the table of [`estimate`]'s search (a few hundred thousand nodes).
const ESTIMATE_HASH_MB: usize = 8;

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
    /// ([`MidWorker::peeked`]). Edax counts these as nodes too: `nodes + peeked` is the
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

/// Empty squares next to `discs` (where their opponent may one day play): the potential
/// mobility of the opponent of `discs`.
#[inline]
fn potential_mobility(discs: u64, empty: u64) -> u32 {
    (neighbours(discs) & empty).count_ones()
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

/// The quadrant of square `x`: 0 (rows 1-4, columns a-d), 1 (rows 1-4, e-h), 2 (rows 5-8, a-d) or 3.
#[inline(always)]
const fn quadrant(x: u8) -> u8 {
    (x >> 4 & 2) | (x >> 2 & 1)
}

/// The three empty squares of `empties` in the order the solver tries them: a square
/// alone in its quadrant before two sharing one (parity), then by index.
#[inline(always)]
fn parity_order3(empties: u64) -> [u8; 3] {
    debug_assert_eq!(empties.count_ones(), 3);
    let a = empties.trailing_zeros() as u8;
    let b = (empties & (empties - 1)).trailing_zeros() as u8;
    let c = (63 - empties.leading_zeros()) as u8;
    let (qa, qb, qc) = (quadrant(a), quadrant(b), quadrant(c));
    if qa == qb && qb != qc {
        [c, a, b]
    } else if qa == qc && qa != qb {
        [b, a, c]
    } else {
        [a, b, c]
    }
}

/// [`parity_order4`]'s key of each square in an odd quadrant: its class (corner 0, square
/// next to a corner 2, other 1) above its index.
const SQUARE_KEYS: [u16; 64] = {
    let mut keys = [0; 64];
    let mut x = 0;
    while x < 64 {
        let bit = 1u64 << x;
        let class = if CORNERS & bit != 0 {
            0
        } else if NEAR_CORNERS & bit != 0 {
            2
        } else {
            1
        };
        keys[x] = class << 6 | x as u16;
        x += 1;
    }
    keys
};

/// The four empty squares of `empties` in the order the solver tries them: the squares
/// of odd quadrants first (parity), within each parity corners first and squares next to
/// corners last (as [`priority_sets`]), then by index.
#[inline(always)]
fn parity_order4(empties: u64) -> [u8; 4] {
    debug_assert_eq!(empties.count_ones(), 4);
    let odd = odd_quadrants(empties);
    let mut keys = [0u16; 4];
    for (k, x) in Bits(empties).enumerate() {
        let even = if odd >> x & 1 != 0 { 0 } else { 3 << 6 };
        keys[k] = SQUARE_KEYS[x as usize] + even;
    }
    // A sorting network for four keys.
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        if keys[j] < keys[i] {
            keys.swap(i, j);
        }
    }
    keys.map(|k| (k & 63) as u8)
}

/// Pushes the positions after each of `moves`, not yet ordered.
#[inline]
fn push_children<R: Rules>(s: &R::S, moves: u64, list: &mut MoveList<R::S>) {
    for x in Bits(moves) {
        list.push(Candidate {
            square: x,
            next: R::play(s, x),
            key: 0,
            replies: UNKNOWN_MOVES,
        });
    }
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

    /// Alpha-beta straight over the empty squares, for the last few (at most
    /// [`SOLVE_SMALL_EMPTIES`], which is at most four).
    #[inline]
    fn small(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        empties: u64,
        n: u32,
        passed: bool,
    ) -> i32 {
        const _: () = assert!(SOLVE_SMALL_EMPTIES <= 4);
        match n {
            1 => {
                self.nodes += 1;
                R::last_empty_score(s, empties.trailing_zeros() as u8)
            }
            2 => {
                let x1 = empties.trailing_zeros() as u8;
                let x2 = (63 - empties.leading_zeros()) as u8;
                self.solve2(s, alpha, beta, x1, x2, passed)
            }
            3 => self.solve3(s, alpha, beta, empties, passed),
            _ => self.solve4(s, alpha, beta, empties, passed),
        }
    }

    /// The last four empty squares, in the order of [`parity_order4`].
    fn solve4(&mut self, s: &R::S, mut alpha: i32, beta: i32, empties: u64, passed: bool) -> i32 {
        if let Some(upper) = self.stability_cut(s, alpha, 4) {
            return upper;
        }
        self.nodes += 1;
        let mut best = -SCORE_INF;
        for x in parity_order4(empties) {
            if let Some(next) = R::try_play(s, x) {
                let v = -self.solve3(&next, -beta, -alpha, empties ^ (1u64 << x), false);
                if raise(&mut best, &mut alpha, v, beta) {
                    return best;
                }
            }
        }
        if best > -SCORE_INF {
            return best;
        }
        self.solve4_pass(s, alpha, beta, empties, passed)
    }

    /// [`Worker::solve4`] when the side to move cannot play (out of line, like
    /// [`Worker::solve2_pass`]).
    #[cold]
    #[inline(never)]
    fn solve4_pass(&mut self, s: &R::S, alpha: i32, beta: i32, empties: u64, passed: bool) -> i32 {
        if passed {
            return R::final_score(s);
        }
        // After a pass the opponent's node is of the other kind.
        self.cut_nodes ^= 1 << 4;
        -self.solve4(&R::pass(s), -beta, -alpha, empties, true)
    }

    /// The last two empty squares, `x1` before `x2` (the order [`Worker::small`] would
    /// try them in: with two empties, by index).
    #[inline(always)]
    fn solve2(&mut self, s: &R::S, alpha: i32, beta: i32, x1: u8, x2: u8, passed: bool) -> i32 {
        self.nodes += 1;
        let mut best = -SCORE_INF;
        if let Some(next) = R::try_play(s, x1) {
            self.nodes += 1;
            best = -R::last_empty_score(&next, x2);
            if best >= beta {
                return best;
            }
        }
        if let Some(next) = R::try_play(s, x2) {
            self.nodes += 1;
            let v = -R::last_empty_score(&next, x1);
            return v.max(best);
        }
        if best > -SCORE_INF {
            return best;
        }
        self.solve2_pass(s, alpha, beta, x1, x2, passed)
    }

    /// [`Worker::solve2`] when the side to move cannot play: out of line, so that
    /// `solve2` itself does not recurse and inlines into its callers.
    #[cold]
    #[inline(never)]
    fn solve2_pass(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        x1: u8,
        x2: u8,
        passed: bool,
    ) -> i32 {
        if passed {
            return R::final_score(s);
        }
        -self.solve2(&R::pass(s), -beta, -alpha, x1, x2, true)
    }

    /// The last three empty squares, in the order of [`parity_order3`].
    #[inline]
    fn solve3(&mut self, s: &R::S, alpha: i32, beta: i32, empties: u64, passed: bool) -> i32 {
        self.nodes += 1;
        let [x1, x2, x3] = parity_order3(empties);
        // Each child gets the two squares left by index (the order of `solve2`).
        let by_index = |a: u8, b: u8| if a < b { (a, b) } else { (b, a) };
        let mut alpha = alpha;
        let mut best = -SCORE_INF;
        if let Some(next) = R::try_play(s, x1) {
            let (a, b) = by_index(x2, x3);
            best = -self.solve2(&next, -beta, -alpha, a, b, false);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        if let Some(next) = R::try_play(s, x2) {
            let (a, b) = by_index(x1, x3);
            let v = -self.solve2(&next, -beta, -alpha, a, b, false);
            if v > best {
                if v >= beta {
                    return v;
                }
                best = v;
                alpha = alpha.max(v);
            }
        }
        if let Some(next) = R::try_play(s, x3) {
            let (a, b) = by_index(x1, x2);
            let v = -self.solve2(&next, -beta, -alpha, a, b, false);
            return v.max(best);
        }
        if best > -SCORE_INF {
            return best;
        }
        self.solve3_pass(s, alpha, beta, empties, passed)
    }

    /// [`Worker::solve3`] when the side to move cannot play (out of line, like
    /// [`Worker::solve2_pass`]).
    #[cold]
    #[inline(never)]
    fn solve3_pass(&mut self, s: &R::S, alpha: i32, beta: i32, empties: u64, passed: bool) -> i32 {
        if passed {
            return R::final_score(s);
        }
        -self.solve3(&R::pass(s), -beta, -alpha, empties, true)
    }

    /// Generates the legal moves of `s` with their next states and ordering keys.
    #[inline]
    fn generate(&mut self, s: &R::S, moves: u64, n: u32, tt_move: u8, list: &mut MoveList<R::S>) {
        push_children::<R>(s, moves, list);
        self.order(s, n, tt_move, list.as_mut_slice());
    }

    /// Gives every candidate its ordering key (the table move first).
    #[inline]
    fn order(&mut self, s: &R::S, n: u32, tt_move: u8, list: &mut [Candidate<R::S>]) {
        let odd = odd_quadrants(!R::position(s).occupied());
        // Ordered by the static evaluation: the children's pattern indices come from the
        // parent's, updated by each move.
        let base = if (SOLVE_EVAL_ORDER_EMPTIES..SOLVE_ORDER_DEPTH1_EMPTIES).contains(&n) {
            self.shared.eval.children_base::<R>(s)
        } else {
            None
        };
        for c in list.iter_mut() {
            let (x, next) = (c.square, c.next);
            let bit = 1u64 << x;
            c.key = if x == tt_move {
                1 << 20
            } else if n >= SOLVE_FASTEST_FIRST_EMPTIES {
                // Fastest first: few replies (corners count double), then parity.
                self.peeked += 1;
                let replies = R::legal_moves(&next);
                c.replies = replies;
                let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                let after = R::position(&next);
                let potential = if n >= SOLVE_POTENTIAL_EMPTIES {
                    potential_mobility(after.opponent, after.empty()) as i32
                } else {
                    0
                };
                let value = if n >= SOLVE_EVAL_ORDER_EMPTIES {
                    let depth = if n >= SOLVE_ORDER_DEPTH4_EMPTIES {
                        4
                    } else if n >= SOLVE_ORDER_DEPTH2_EMPTIES {
                        2
                    } else if n >= SOLVE_ORDER_DEPTH1_EMPTIES {
                        1
                    } else {
                        0
                    };
                    let weight = if depth == 0 {
                        ORDER_SOLVE_EVAL_WEIGHT
                    } else {
                        ORDER_SOLVE_SEARCH_WEIGHT
                    };
                    let value = if let Some(base) = &base {
                        self.peeked += 1;
                        self.shared
                            .eval
                            .evaluate_child::<R>(base, &next, x, replies)
                    } else if depth == 0 {
                        self.peeked += 1;
                        self.shared.eval.evaluate_with_moves::<R>(&next, replies)
                    } else {
                        self.shallow(&next, depth, -SCORE_INF, SCORE_INF)
                    };
                    -value * weight
                } else {
                    0
                };
                -mobility * ORDER_MOBILITY_WEIGHT - potential * ORDER_POTENTIAL_WEIGHT
                    + i32::from(odd & bit != 0) * ORDER_PARITY_WEIGHT
                    + i32::from(CORNERS & bit != 0)
                    + value
            } else {
                i32::from(odd & bit != 0)
            };
        }
    }

    /// Alpha-beta to a fixed depth on the evaluation (no table), to order moves far from
    /// the end. Its nodes count.
    fn shallow(&mut self, s: &R::S, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            self.peeked += 1;
            return self.shared.eval.evaluate::<R>(s);
        }
        self.nodes += 1;
        let moves = R::legal_moves(s);
        if moves == 0 {
            let passed = R::pass(s);
            if R::legal_moves(&passed) == 0 {
                return R::final_score(s);
            }
            return -self.shallow(&passed, depth, -beta, -alpha);
        }
        // One ply from the leaves, the children's evaluations start from this node's
        // pattern indices.
        let base = if depth == 1 {
            self.shared.eval.children_base::<R>(s)
        } else {
            None
        };
        let mut best = -SCORE_INF;
        for x in Bits(moves) {
            let next = R::play(s, x);
            let v = -match &base {
                Some(base) => {
                    self.peeked += 1;
                    let replies = R::legal_moves(&next);
                    self.shared
                        .eval
                        .evaluate_child::<R>(base, &next, x, replies)
                }
                None => self.shallow(&next, depth - 1, -beta, -alpha),
            };
            if raise(&mut best, &mut alpha, v, beta) {
                break;
            }
        }
        best
    }

    /// Null-window search: is the score above `alpha`? Returns a fail-soft bound.
    fn nws(&mut self, s: &R::S, alpha: i32, n: u32, passed: bool) -> i32 {
        if n <= SOLVE_SMALL_EMPTIES {
            return self.small(s, alpha, alpha + 1, !R::position(s).occupied(), n, passed);
        }
        if n < SOLVE_TT_EMPTIES {
            return self.nws_shallow(s, alpha, n, passed);
        }
        self.search(s, alpha, alpha + 1, n, passed)
    }

    /// [`Worker::nws`] on a child whose legal moves ordering already computed (or
    /// [`UNKNOWN_MOVES`]), so that they are not generated twice.
    #[inline]
    fn nws_child(&mut self, c: &Candidate<R::S>, alpha: i32, n: u32) -> i32 {
        if c.replies != UNKNOWN_MOVES && n > SOLVE_SMALL_EMPTIES && n < SOLVE_TT_EMPTIES {
            return self.nws_shallow_moves(&c.next, c.replies, alpha, n, false);
        }
        self.nws(&c.next, alpha, n, false)
    }

    /// Null-window search with move generation, without the table.
    fn nws_shallow(&mut self, s: &R::S, alpha: i32, n: u32, passed: bool) -> i32 {
        self.nws_shallow_moves(s, R::legal_moves(s), alpha, n, passed)
    }

    /// [`Worker::nws_shallow`] given the legal moves of `s`.
    fn nws_shallow_moves(&mut self, s: &R::S, moves: u64, alpha: i32, n: u32, passed: bool) -> i32 {
        self.nodes += 1;
        if moves == 0 {
            if passed {
                return R::final_score(s);
            }
            self.cut_nodes ^= 1 << n;
            return -self.nws_shallow(&R::pass(s), -alpha - 1, n, true);
        }
        if n < SOLVE_CACHE_EMPTIES {
            if let Some(upper) = self.stability_cut(s, alpha, n) {
                return upper;
            }
            return self.nws_shallow_children(s, moves, alpha, n, NO_MOVE).0;
        }
        let key = Self::key(s);
        let mut cached_move = NO_MOVE;
        if let Some(c) = self.cache.probe(key) {
            if c.lower > alpha {
                return c.lower;
            }
            if c.upper <= alpha {
                return c.upper;
            }
            cached_move = c.best_move;
        }
        if let Some(upper) = self.stability_cut(s, alpha, n) {
            return upper;
        }
        let (best, best_move) = self.nws_shallow_children(s, moves, alpha, n, cached_move);
        self.cache.store(key, alpha, best, best_move);
        best
    }

    /// The moves of [`Worker::nws_shallow_moves`] (`first` first when legal): the best
    /// score and its move.
    #[inline(always)]
    fn nws_shallow_children(
        &mut self,
        s: &R::S,
        moves: u64,
        alpha: i32,
        n: u32,
        first: u8,
    ) -> (i32, u8) {
        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        let cut = self.expected_cut(n);
        if n >= SOLVE_FASTEST_FIRST_EMPTIES {
            let mut moves_list = MoveList::new();
            self.generate(s, moves, n, first, &mut moves_list);
            let list = moves_list.as_mut_slice();
            for i in 0..list.len() {
                self.expect_child(n, i > 0 || !cut);
                pick(list, i);
                let v = -self.nws_child(&list[i], -alpha - 1, n - 1);
                if v > best {
                    best = v;
                    best_move = list[i].square;
                    if v > alpha {
                        break;
                    }
                }
            }
            return (best, best_move);
        }
        let mut moves = moves;
        let mut tried = false;
        if first < 64 && moves >> first & 1 != 0 {
            self.expect_child(n, !cut);
            tried = true;
            moves ^= 1 << first;
            let next = R::play(s, first);
            let v = -self.nws(&next, -alpha - 1, n - 1, false);
            best = v;
            best_move = first;
            if v > alpha {
                return (best, best_move);
            }
        }
        let empties = !R::position(s).occupied();
        let odd = odd_quadrants(empties);
        for set in priority_sets(moves, odd) {
            for x in Bits(set) {
                self.expect_child(n, tried || !cut);
                tried = true;
                let next = R::play(s, x);
                let v = -self.nws(&next, -alpha - 1, n - 1, false);
                if v > best {
                    best = v;
                    best_move = x;
                    if v > alpha {
                        return (best, best_move);
                    }
                }
            }
        }
        (best, best_move)
    }

    /// The full search (table, ordering, ETC, stability, splits) with window
    /// `(alpha, beta)`; PVS inside when the window is open.
    fn search(&mut self, s: &R::S, alpha: i32, beta: i32, n: u32, passed: bool) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.aborted() {
            return 0;
        }
        let moves = R::legal_moves(s);
        if moves == 0 {
            if passed {
                return R::final_score(s);
            }
            self.cut_nodes ^= 1 << n;
            return -self.search(&R::pass(s), -beta, -alpha, n, true);
        }
        // The first child of a cut-node is an all-node, of an all-node a cut-node; the
        // first child of a PV node is a PV node, marked like a cut-node (no stability test).
        let pv = beta > alpha + 1;
        self.expect_child(n, pv || !self.expected_cut(n));
        let (mut alpha, mut beta) = (alpha, beta);
        if alpha >= SOLVE_STABILITY_ALPHA[n as usize] {
            let upper = R::stability_upper_bound(s);
            if upper <= alpha {
                return upper;
            }
            beta = beta.min(upper);
        }
        let key = Self::key(s);
        let tt = self.shared.tt;
        let mut tt_move = NO_MOVE;
        if n < SOLVE_TABLE_EMPTIES {
            if let Some(c) = self.cache.probe(key) {
                if c.lower >= beta || c.lower == c.upper {
                    return c.lower;
                }
                if c.upper <= alpha {
                    return c.upper;
                }
                alpha = alpha.max(c.lower);
                beta = beta.min(c.upper);
                tt_move = c.best_move;
            }
        } else if let Some(e) = tt.probe(Self::region(n), key) {
            if u32::from(e.depth) >= n && e.selectivity == 0 {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
            tt_move = e.best_move;
        }
        let alpha_in = alpha;

        let mut moves_list = MoveList::new();
        push_children::<R>(s, moves, &mut moves_list);
        let list = moves_list.as_mut_slice();

        if n >= SOLVE_ETC_EMPTIES {
            // Enhanced transposition cut-off: a child already known to be bad enough for
            // the opponent settles the node.
            // The children's buckets are fetched together, then probed; at an expected
            // all-node only fetched, for the children's own probes (it almost never cuts
            // there, and waiting for the buckets costs more: see SOLVE_ETC_EMPTIES).
            let probe = pv || self.expected_cut(n);
            if n - 1 < SOLVE_TABLE_EMPTIES {
                // The children are in the thread's cache: probed at once, no fetches to
                // start (and nothing to do at an expected all-node).
                if probe {
                    for c in list.iter() {
                        self.peeked += 1;
                        if let Some(e) = self.cache.probe(Self::key(&c.next))
                            && -e.upper >= beta
                        {
                            let v = -e.upper;
                            self.store(key, alpha_in, beta, v, c.square, n);
                            return v;
                        }
                    }
                }
            } else {
                let region = Self::region(n - 1);
                let mut keys = [0u64; MAX_MOVES];
                for (k, c) in keys.iter_mut().zip(list.iter()) {
                    *k = Self::key(&c.next);
                    tt.prefetch(region, *k);
                }
                if probe {
                    for (&k, c) in keys.iter().zip(list.iter()) {
                        self.peeked += 1;
                        if let Some(e) = tt.probe(region, k)
                            && u32::from(e.depth) >= n - 1
                            && e.selectivity == 0
                            && -i32::from(e.upper) >= beta
                        {
                            let v = -i32::from(e.upper);
                            self.store(key, alpha_in, beta, v, c.square, n);
                            return v;
                        }
                    }
                }
            }
        }

        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        let mut i = 0;
        // The table's move first, before the others are ordered: when it cuts, ordering
        // them would be wasted.
        if let Some(first) = list.iter().position(|c| c.square == tt_move) {
            list.swap(0, first);
            let c = list[0];
            let v = -self.child(&c.next, -beta, -alpha, n - 1);
            if self.aborted() {
                return 0;
            }
            best = v;
            best_move = c.square;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    self.store(key, alpha_in, beta, best, best_move, n);
                    return best;
                }
            }
            i = 1;
        }
        self.order(s, n, NO_MOVE, &mut list[i..]);
        while i < list.len() {
            pick(list, i);
            let c = list[i];
            if i > 0 {
                self.expect_child(n, true);
            }
            let v = if best == -SCORE_INF {
                -self.child(&c.next, -beta, -alpha, n - 1)
            } else {
                let mut v = -self.nws_child(&c, -alpha - 1, n - 1);
                if v > alpha && v < beta {
                    v = -self.child(&c.next, -beta, -v, n - 1);
                }
                v
            };
            if self.aborted() {
                return 0;
            }
            if v > best {
                best = v;
                best_move = c.square;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
            i += 1;
            // Young brothers wait: with the first move searched and no cut-off, the rest
            // may go to the other threads.
            if i == SOLVE_SPLIT_AFTER
                && i < list.len()
                && n >= SOLVE_SPLIT_EMPTIES
                && self.shared.threads > 1
            {
                for j in i..list.len() {
                    pick(list, j);
                }
                let (v, m) = self.split_rest(&list[i..], alpha, beta, n);
                if v > best {
                    best = v;
                    best_move = m;
                }
                break;
            }
        }
        if self.aborted() {
            return 0;
        }
        self.store(key, alpha_in, beta, best, best_move, n);
        best
    }

    /// Searches a child with an open or null window, choosing the routine by depth.
    #[inline]
    fn child(&mut self, s: &R::S, alpha: i32, beta: i32, n: u32) -> i32 {
        if beta == alpha + 1 {
            return self.nws(s, alpha, n, false);
        }
        if n <= SOLVE_SMALL_EMPTIES {
            return self.small(s, alpha, beta, !R::position(s).occupied(), n, false);
        }
        self.search(s, alpha, beta, n, false)
    }

    fn store(&self, key: u64, alpha: i32, beta: i32, score: i32, best_move: u8, n: u32) {
        if n < SOLVE_TABLE_EMPTIES {
            return self.cache.store_window(key, alpha, beta, score, best_move);
        }
        let (lower, upper) = window_bounds(alpha, beta, score);
        self.shared.tt.store(
            Self::region(n),
            key,
            TtData {
                lower: lower as i16,
                upper: upper as i16,
                best_move,
                depth: n as u8,
                selectivity: 0,
            },
        );
    }

    /// Searches `rest` (the moves after the first, best-ordered first) over the threads,
    /// sharing alpha; returns the best score and move among them. Every thread takes the
    /// next move of the list in turn, so the moves most likely to cut are searched first
    /// by all threads (halving the list would send one thread to its worst moves).
    fn split_rest(&mut self, rest: &[Candidate<R::S>], alpha: i32, beta: i32, n: u32) -> (i32, u8) {
        use rayon::prelude::*;
        let shared_alpha = AtomicI32::new(alpha);
        let next = AtomicUsize::new(0);
        let flag = SplitFlag {
            cut: AtomicBool::new(false),
            parent: self.split,
        };
        let shared = self.shared;
        let tasks = shared.threads.min(rest.len());
        // Per task: (score, move, failed low) of its best move, its nodes and the positions
        // it peeked at. A fail-low score is only an upper bound, so it never displaces a
        // move with the same score that was searched exactly.
        let results: Vec<((i32, u8, bool), u64, u64)> = (0..tasks)
            .into_par_iter()
            .map(|_| {
                let mut w = Worker::<R>::new(shared, Some(&flag));
                let mut best = (-SCORE_INF, NO_MOVE, true);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= rest.len() || w.aborted() {
                        break;
                    }
                    let c = &rest[i];
                    let a = shared_alpha.load(Ordering::Relaxed);
                    let mut v = -w.nws_child(c, -a - 1, n - 1);
                    if v > a && v < beta && !w.aborted() {
                        v = -w.child(&c.next, -beta, -v, n - 1);
                    }
                    if w.aborted() {
                        break;
                    }
                    shared_alpha.fetch_max(v, Ordering::Relaxed);
                    if v >= beta {
                        flag.cut.store(true, Ordering::Relaxed);
                    }
                    let failed_low = v <= a;
                    if v > best.0 || (v == best.0 && best.2 && !failed_low) {
                        best = (v, c.square, failed_low);
                    }
                }
                w.flush();
                (best, w.nodes, w.peeked)
            })
            .collect();
        let mut best = (-SCORE_INF, NO_MOVE, true);
        for ((v, m, failed_low), nodes, peeked) in results {
            self.nodes += nodes;
            self.peeked += peeked;
            self.polled += nodes;
            if v > best.0 || (v == best.0 && best.2 && !failed_low) {
                best = (v, m, failed_low);
            }
        }
        (best.0, best.1)
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

/// Solves the root `s` (all threads of `shared`); the result is meaningless when the
/// control stopped the search.
pub(crate) fn root<R: Rules>(shared: &Shared<'_>, s: &R::S, options: &SolveOptions) -> SolveResult {
    let mut w = Worker::<R>::new(shared, None);
    let n = R::position(s).n_empties();
    let (lo, hi) = match options.mode {
        SolveMode::Exact => (-64, 64),
        SolveMode::WinLossDraw => (-1, 1),
    };
    let moves = R::legal_moves(s);
    let mut result = SolveResult {
        score: 0,
        best_move: None,
        best_moves: Vec::new(),
        pv: Vec::new(),
        move_scores: Vec::new(),
        nodes: 0,
        peeked: 0,
        time: Duration::ZERO,
        n_empties: n,
    };
    if moves == 0 {
        let passed = R::pass(s);
        if R::legal_moves(&passed) == 0 {
            w.nodes += 1;
            result.score = R::final_score(s);
        } else {
            let inner = root::<R>(shared, &passed, options);
            result.score = -inner.score;
            result.best_move = Some(Move::Pass);
            result.best_moves = vec![Move::Pass];
            result.pv = std::iter::once(Move::Pass).chain(inner.pv).collect();
            result.move_scores = vec![(Move::Pass, -inner.score)];
            w.nodes += inner.nodes;
            w.peeked += inner.peeked;
        }
        w.flush();
        result.nodes = w.nodes;
        result.peeked = w.peeked;
        return result;
    }

    let restricted = moves & options.root_moves != moves;
    let moves = moves & options.root_moves;
    if moves == 0 {
        w.flush();
        result.nodes = w.nodes;
        result.peeked = w.peeked;
        return result;
    }
    if options.all_moves || restricted {
        let mut scores: Vec<(Move, i32)> = Vec::new();
        for x in Bits(moves) {
            let next = R::play(s, x);
            // Every move's exact score: each searched in a window around its own guess.
            let v = if options.mode == SolveMode::Exact && n > SOLVE_ASPIRATION_EMPTIES {
                let guess = guess::<R>(shared, &next, n - 1, None, &mut w);
                -aspiration(&mut w, &next, guess, n - 1)
            } else {
                -window(&mut w, &next, -hi, -lo, n - 1)
            };
            scores.push((Move::Play(Square::from_index(x)), v));
        }
        scores.sort_by_key(|&(_, v)| -v);
        result.score = scores[0].1;
        result.best_moves = scores
            .iter()
            .filter(|&&(_, v)| {
                v == result.score
                    || (options.mode == SolveMode::WinLossDraw
                        && v.signum() == result.score.signum())
            })
            .map(|&(m, _)| m)
            .collect();
        result.best_move = Some(scores[0].0);
        result.move_scores = scores;
    } else {
        let score = if options.mode == SolveMode::Exact && n >= SOLVE_ASPIRATION_EMPTIES {
            let guess = guess::<R>(shared, s, n, options.estimate, &mut w);
            aspiration(&mut w, s, guess, n)
        } else {
            window(&mut w, s, lo, hi, n)
        };
        result.score = score;
        let best = shared
            .tt
            .probe(Worker::<R>::region(n), Worker::<R>::key(s))
            .map(|e| e.best_move)
            .filter(|&m| m < 64 && moves & (1u64 << m) != 0);
        let best = match best {
            Some(m) => m,
            None => find_move_reaching::<R>(&mut w, s, score, n, moves),
        };
        result.best_move = Some(Move::Play(Square::from_index(best)));
        result.best_moves = vec![Move::Play(Square::from_index(best))];
    }
    // The line starts with the best move: another move may reach the same score, and the
    // table may hold either.
    result.pv = result.best_move.into_iter().collect();
    if options.mode == SolveMode::Exact
        && let Some(Move::Play(sq)) = result.best_move
    {
        let next = R::play(s, sq.index());
        let rest = principal_variation::<R>(&mut w, &next, -result.score, n - 1);
        result.pv.extend(rest);
    }
    w.flush();
    result.nodes = w.nodes;
    result.peeked = w.peeked;
    result
}

/// A guess of the exact score of `s` (with `n` empties) to centre the root's window on:
/// `given`, else [`estimate`]'s; from [`SOLVE_PRESEARCH_EMPTIES`] refined by
/// [`presearch`], which also leaves the best moves of a nearly exact search in the table.
fn guess<R: Rules>(
    shared: &Shared<'_>,
    s: &R::S,
    n: u32,
    given: Option<i32>,
    w: &mut Worker<'_, '_, R>,
) -> i32 {
    let guess = given.unwrap_or_else(|| estimate::<R>(shared, s, w));
    if n >= SOLVE_PRESEARCH_EMPTIES {
        presearch::<R>(shared, s, guess, n, w)
    } else {
        guess
    }
}

/// Selective searches of `s` (with `n` empties) to the end of the game, in the solver's
/// table, at each of [`SOLVE_PRESEARCH_SELECTIVITIES`] in turn, each in an aspiration
/// window around the score of the one before (`guess` first); returns the last score.
/// The exact search then finds the best move of nearly every node of its upper tree in
/// the table, as Edax and Egaroucid do before their exact searches. Its nodes and peeks
/// ([`MidWorker::peeked`]) count as the solver's.
fn presearch<R: Rules>(
    shared: &Shared<'_>,
    s: &R::S,
    guess: i32,
    n: u32,
    w: &mut Worker<'_, '_, R>,
) -> i32 {
    let mut guess = guess;
    for &selectivity in SOLVE_PRESEARCH_SELECTIVITIES {
        let mut m = MidWorker::<R>::new(shared, None, selectivity);
        m.end_exact_empties = SOLVE_PRESEARCH_EXACT_EMPTIES;
        let v = widening(guess, |lo, hi| {
            let v = m.search(s, lo, hi, n, false);
            (v, m.shared_stopped())
        });
        m.flush();
        w.nodes += m.nodes;
        w.peeked += m.peeked;
        w.polled += m.nodes;
        if m.shared_stopped() {
            break;
        }
        guess = v.clamp(-64, 64);
    }
    guess
}

/// A guess of the score of `s`: a selective midgame search of
/// [`estimate_depth`] plies, in a small table of its own. (In the solver's table its
/// best moves would come first at the nodes it saw, and the solver orders better without
/// them: FFO 48-52 on one thread took 1.55 G nodes with them against 1.30 G.) Its nodes
/// and peeks count as the solver's.
fn estimate<R: Rules>(shared: &Shared<'_>, s: &R::S, w: &mut Worker<'_, '_, R>) -> i32 {
    let tt = TranspositionTable::new(ESTIMATE_HASH_MB);
    let scratch = Shared {
        tt: &tt,
        control: shared.control,
        eval: shared.eval,
        threads: 1,
    };
    let mut m = MidWorker::<R>::new(&scratch, None, SOLVE_ESTIMATE_SELECTIVITY);
    let mut guess = 0;
    for depth in 1..=estimate_depth(R::position(s).n_empties()) {
        guess = m.search(s, -SCORE_INF, SCORE_INF, depth, false);
    }
    m.flush();
    w.nodes += m.nodes;
    w.peeked += m.peeked;
    w.polled += m.nodes;
    guess
}

/// The depth of [`estimate`]'s search in a position with `n` empties:
/// [`SOLVE_ESTIMATE_DEPTH`], but at most `n` - [`SOLVE_ESTIMATE_MARGIN`], so that the
/// guess stays a small part of the solve near [`SOLVE_ASPIRATION_EMPTIES`].
fn estimate_depth(n: u32) -> u32 {
    SOLVE_ESTIMATE_DEPTH.min(n.saturating_sub(SOLVE_ESTIMATE_MARGIN).max(1))
}

/// The exact score of `s`, searched first with a window of [`SOLVE_ASPIRATION_HALF`]
/// around `guess`; when the score falls outside, the fail-soft bound moves the window to
/// it, twice as wide each time, until the score is inside (or at -64 or 64).
fn aspiration<R: Rules>(w: &mut Worker<'_, '_, R>, s: &R::S, guess: i32, n: u32) -> i32 {
    widening(guess.clamp(-63, 63), |lo, hi| {
        let v = window(w, s, lo, hi, n);
        (v, w.aborted())
    })
}

/// The window loop of [`aspiration`] and [`presearch`]: `search(lo, hi)` returns a
/// fail-soft score and whether the search was stopped (its score is then returned as it
/// is).
fn widening(guess: i32, mut search: impl FnMut(i32, i32) -> (i32, bool)) -> i32 {
    let mut half = SOLVE_ASPIRATION_HALF;
    let (mut lo, mut hi) = ((guess - half).max(-64), (guess + half).min(64));
    loop {
        let (v, stopped) = search(lo, hi);
        if stopped {
            return v;
        }
        half *= 2;
        if v <= lo && lo > -64 {
            (lo, hi) = ((v - half).max(-64), v + 1);
        } else if v >= hi && hi < 64 {
            (lo, hi) = (v - 1, (v + half).min(64));
        } else {
            return v;
        }
    }
}

/// A move whose exact score is `score` (which must be the position's exact score).
fn find_move_reaching<R: Rules>(
    w: &mut Worker<'_, '_, R>,
    s: &R::S,
    score: i32,
    n: u32,
    moves: u64,
) -> u8 {
    let tt_move = w
        .shared
        .tt
        .probe(Worker::<R>::region(n), Worker::<R>::key(s))
        .map_or(NO_MOVE, |e| e.best_move);
    let ordered = std::iter::once(tt_move)
        .filter(|&m| m < 64 && moves & (1u64 << m) != 0)
        .chain(Bits(moves).filter(|&m| m != tt_move));
    let mut fallback = None;
    for x in ordered {
        fallback.get_or_insert(x);
        let next = R::play(s, x);
        // The child's score is at least -score; it reaches score when it is not above.
        if -window(w, &next, -score, -score + 1, n - 1) >= score {
            return x;
        }
    }
    fallback.unwrap_or(0)
}

/// The line of best play from `s`, whose exact score is `score`.
fn principal_variation<R: Rules>(
    w: &mut Worker<'_, '_, R>,
    s: &R::S,
    score: i32,
    n: u32,
) -> Vec<Move> {
    let mut pv = Vec::new();
    let (mut s, mut score, mut n) = (*s, score, n);
    while pv.len() < 80 {
        let moves = R::legal_moves(&s);
        if moves == 0 {
            let passed = R::pass(&s);
            if R::legal_moves(&passed) == 0 {
                break;
            }
            pv.push(Move::Pass);
            s = passed;
            score = -score;
            continue;
        }
        let x = find_move_reaching::<R>(w, &s, score, n, moves);
        pv.push(Move::Play(Square::from_index(x)));
        s = R::play(&s, x);
        score = -score;
        n -= 1;
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::rules::{Anti, Othello, Reversi1889, Variant};
    use crate::search::control::Control;

    /// `count` sets of `k` squares, from a pseudo-random sequence.
    fn sample_sets(k: u32, count: usize) -> Vec<u64> {
        let mut seed = 0x5EED_u64;
        let mut sets = Vec::with_capacity(count);
        while sets.len() < count {
            let mut set = 0u64;
            while set.count_ones() < k {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                set |= 1 << (seed >> 58);
            }
            sets.push(set);
        }
        sets
    }

    /// A position `n_empties` from the end, reached by pseudo-random moves from the
    /// variant's start.
    fn random_position<R: Rules>(variant: Variant, n_empties: u32, mut seed: u64) -> R::S {
        'game: loop {
            let mut s = R::from_state(&variant.start_state());
            while R::position(&s).n_empties() > n_empties {
                let mut moves = R::legal_moves(&s);
                if moves == 0 {
                    s = R::pass(&s);
                    moves = R::legal_moves(&s);
                    if moves == 0 {
                        seed += 1;
                        continue 'game;
                    }
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = (seed >> 33) as u32 % moves.count_ones();
                let x = Bits(moves).nth(k as usize).unwrap();
                s = R::play(&s, x);
            }
            if R::legal_moves(&s) != 0 {
                return s;
            }
            seed += 1;
        }
    }

    /// The selective pre-search leaves its entries (with their selectivity) in the
    /// solver's table; the exact search after it must use their moves but never their
    /// bounds, and so gives the score of a solve in an empty table.
    fn presearch_keeps_the_exact_score<R: Rules>(variant: Variant) {
        let eval = Evaluator::default();
        for seed in 0..3 {
            let s = random_position::<R>(variant, 19, seed * 7919);
            let (tt, control) = (TranspositionTable::new(16), Control::default());
            control.start(None, None);
            let shared = Shared {
                tt: &tt,
                control: &control,
                eval: &eval,
                threads: 1,
            };
            let mut w = Worker::<R>::new(&shared, None);
            let exact = window(&mut w, &s, -64, 64, 19);
            tt.clear();
            let guess = presearch::<R>(&shared, &s, 0, 19, &mut w);
            let root = tt
                .probe(Worker::<R>::region(19), Worker::<R>::key(&s))
                .expect("the root is in the table");
            assert_eq!(
                root.selectivity,
                *SOLVE_PRESEARCH_SELECTIVITIES.last().unwrap(),
                "{variant}: the root entry comes from the last selective search"
            );
            assert!((-64..=64).contains(&guess));
            for g in [guess, -64, 64] {
                assert_eq!(aspiration(&mut w, &s, g, 19), exact, "{variant} guess {g}");
            }
            // Selective entries that are wrong (as a probable cut may be), for the root and
            // its children: their moves may be tried, their bounds never believed.
            tt.clear();
            let wrong = |v: i32, selectivity: u8| TtData {
                lower: v as i16,
                upper: v as i16,
                best_move: NO_MOVE,
                depth: 60,
                selectivity,
            };
            tt.store(Worker::<R>::region(19), Worker::<R>::key(&s), wrong(64, 1));
            for x in Bits(R::legal_moves(&s)) {
                let child = R::play(&s, x);
                tt.store(
                    Worker::<R>::region(18),
                    Worker::<R>::key(&child),
                    wrong(-64, 5),
                );
            }
            assert_eq!(window(&mut w, &s, -64, 64, 19), exact, "{variant}");
        }
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "slow in a debug build: run cargo test --release"
    )]
    fn the_presearch_keeps_the_exact_score() {
        presearch_keeps_the_exact_score::<Othello>(Variant::Othello);
        presearch_keeps_the_exact_score::<Anti>(Variant::Anti);
        presearch_keeps_the_exact_score::<Reversi1889>(Variant::Reversi1889);
    }

    /// The solver's move generator keeps every move of a position with more than any
    /// reached by play.
    #[test]
    fn generation_keeps_all_35_moves() {
        let p = crate::search::many_moves_position();
        let moves = p.legal_moves();
        let (control, eval, tt) = (
            Control::default(),
            Evaluator::default(),
            TranspositionTable::new(1),
        );
        let shared = Shared {
            tt: &tt,
            control: &control,
            eval: &eval,
            threads: 1,
        };
        let mut w = Worker::<Othello>::new(&shared, None);
        let n = p.n_empties();
        for tt_move in [NO_MOVE, 63 - moves.leading_zeros() as u8] {
            let mut list = MoveList::new();
            w.generate(&p, moves, n, tt_move, &mut list);
            let listed = list
                .as_mut_slice()
                .iter()
                .fold(0u64, |b, c| b | 1 << c.square);
            assert_eq!(listed, moves);
            assert_eq!(list.as_mut_slice().len(), 35);
        }
    }

    /// Bits of the four 4x4 quadrants, which [`odd_quadrants`] computes with without
    /// reading them.
    const QUADRANTS: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];

    #[test]
    fn odd_quadrants_are_those_with_an_odd_number_of_empties() {
        for empties in (0..=60).flat_map(|k| sample_sets(k, 300)) {
            let naive = QUADRANTS
                .iter()
                .filter(|&&q| (empties & q).count_ones() % 2 == 1)
                .fold(0, |mask, &q| mask | q);
            assert_eq!(odd_quadrants(empties), naive, "{empties:#018x}");
        }
        assert_eq!(odd_quadrants(0), 0);
        assert_eq!(odd_quadrants(1 << 63 | 1), QUADRANTS[0] | QUADRANTS[3]);
    }

    #[test]
    fn three_squares_come_in_parity_order() {
        for empties in sample_sets(3, 20_000) {
            let odd = odd_quadrants(empties);
            let expected: Vec<u8> = Bits(empties & odd).chain(Bits(empties & !odd)).collect();
            assert_eq!(parity_order3(empties).to_vec(), expected, "{empties:#x}");
        }
    }

    #[test]
    fn four_squares_come_in_the_order_of_the_priority_sets() {
        let mut seen_even = false;
        for empties in sample_sets(4, 20_000) {
            let odd = odd_quadrants(empties);
            seen_even |= empties & !odd != 0;
            let expected: Vec<u8> = priority_sets(empties, odd)
                .into_iter()
                .flat_map(Bits)
                .collect();
            assert_eq!(parity_order4(empties).to_vec(), expected, "{empties:#x}");
        }
        assert!(seen_even, "the sample has squares in even quadrants");
    }
}
