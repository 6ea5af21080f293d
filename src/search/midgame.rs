//! The midgame search: depth-limited principal variation search (negascout) with the
//! transposition table, Multi-ProbCut and parallel splits.
//!
//! Scores are disc differences for the side to move, as the evaluation estimates them at
//! the leaves. A pass costs no depth. When the remaining depth reaches the end of the game
//! the node is handed to the exact endgame solver (with probable cuts on, only from
//! [`MID_END_EXACT_EMPTIES`] empties, or the worker's own threshold; above that the
//! search goes on to the end with cuts).
//! Moves are ordered by the table move, then by a shallow search at high depth, else by the
//! opponent's mobility, corners and the evaluation after the move.

use super::endgame::{self, Worker as EndWorker};
use super::mpc::{self, MPC_MIN_DEPTH, SELECTIVITY_T};
use super::parameters::*;
use super::tt::{NO_MOVE, Region, TtData, hash};
use super::{
    Candidate, MoveList, SCORE_INF, Shared, SplitFlag, UNKNOWN_MOVES, pick, window_bounds,
};
use crate::bitboard::{Bits, CORNERS};
use crate::eval::ChildrenBase;
use crate::eval::pattern::Digits;
use crate::rules::Rules;
use crate::square::{Move, Square};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// X-squares (diagonally next to a corner).
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// C-squares (on an edge, next to a corner).
const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// Edge squares that are neither corners nor C-squares.
const EDGES: u64 = 0x3C00_8181_8181_003C;
/// Every square off the edges but the X-squares.
const INSIDE: u64 = !(CORNERS | C_SQUARES | EDGES | X_SQUARES);

/// What a helper of a split brings back for one move: its score, the helper's counts,
/// and whether the move failed low.
struct Helped {
    v: i32,
    square: u8,
    nodes: u64,
    peeked: u64,
    polled: u64,
    failed_low: bool,
}

impl Helped {
    /// A move the helper gave up (the split was cut or the search stopped): no score, but
    /// what it counted so far.
    fn aborted<R: Rules>(square: u8, w: &MidWorker<'_, '_, R>) -> Helped {
        Helped {
            v: -SCORE_INF,
            square,
            nodes: w.nodes,
            peeked: w.peeked,
            polled: w.polled,
            failed_low: true,
        }
    }
}

/// The pattern digits of a position searched by a worker.
#[derive(Clone, Copy)]
struct DigitSlot {
    player: u64,
    opponent: u64,
    digits: Digits,
}

/// One search thread of the midgame search.
pub(crate) struct MidWorker<'a, 's, R: Rules> {
    shared: &'s Shared<'a>,
    pub nodes: u64,
    /// Positions only looked at, not searched nor evaluated as leaves: each child the
    /// move ordering keys (by its replies, with its evaluation or a shallow search, whose
    /// own nodes count in `nodes`), and the solver's own
    /// [`SolveResult::peeked`](super::endgame::SolveResult::peeked) below the nodes it
    /// hands to the solver. Edax counts these as nodes too; the solver adds them to its
    /// count in Edax's units when this search runs inside it (the pre-search and the
    /// estimate of its first guess).
    pub peeked: u64,
    /// Nodes already reported to the control.
    polled: u64,
    split: Option<&'s SplitFlag<'s>>,
    /// Index into [`SELECTIVITY_T`]: 0 makes no probable cuts.
    pub selectivity: u8,
    /// Empties at and below which a node whose depth reaches the end of the game is
    /// solved exactly even with probable cuts on ([`MID_END_EXACT_EMPTIES`] by default).
    pub end_exact_empties: u32,
    /// The move that last cut at a depth-one node (64: none yet), tried first at the next.
    killer: u8,
    /// By number of empties, the last position whose pattern digits were needed: a node
    /// finds its parent one entry up and updates the parent's digits by its move instead
    /// of reading its patterns from the board ([`MidWorker::digits`]).
    slots: Box<[DigitSlot; 65]>,
    _rules: std::marker::PhantomData<R>,
}

impl<'a, 's, R: Rules> MidWorker<'a, 's, R> {
    pub fn new(shared: &'s Shared<'a>, split: Option<&'s SplitFlag<'s>>, selectivity: u8) -> Self {
        MidWorker {
            shared,
            nodes: 0,
            peeked: 0,
            polled: 0,
            split,
            selectivity,
            end_exact_empties: MID_END_EXACT_EMPTIES,
            killer: 64,
            slots: Box::new(
                [DigitSlot {
                    player: 0,
                    opponent: 0,
                    digits: Digits::of(0, 0),
                }; 65],
            ),
            _rules: std::marker::PhantomData,
        }
    }

    /// True once the whole search must stop.
    pub fn shared_stopped(&self) -> bool {
        self.shared.control.stopped()
    }

    #[inline]
    fn aborted(&self) -> bool {
        self.shared.control.stopped() || self.split.is_some_and(|f| f.is_cut())
    }

    #[inline]
    fn poll(&mut self) {
        if self.nodes - self.polled >= super::control::POLL_NODES {
            self.shared.control.poll(self.nodes - self.polled);
            self.polled = self.nodes;
        }
    }

    /// Reports the nodes not reported yet.
    pub fn flush(&mut self) {
        self.shared.control.poll(self.nodes - self.polled);
        self.polled = self.nodes;
    }

    #[inline]
    fn key(s: &R::S) -> u64 {
        let pos = R::position(s);
        hash(pos.player, pos.opponent, R::hash_extra(s))
    }

    #[inline]
    fn evaluate(&mut self, s: &R::S) -> i32 {
        self.nodes += 1;
        self.shared.eval.evaluate::<R>(s)
    }

    /// [`MidWorker::evaluate`] on `child`, reached by playing `square` from the position
    /// whose [`ChildrenBase`] `base` is.
    #[inline]
    fn evaluate_child(&mut self, base: &ChildrenBase, child: &R::S, square: u8) -> i32 {
        self.nodes += 1;
        let replies = R::legal_moves(child);
        self.shared
            .eval
            .evaluate_child::<R>(base, child, square, replies)
    }

    /// The pattern digits of `s` (with the pattern evaluation, outside Reversi 1889): the
    /// slot's when `s` was the last position of its empties, else its parent's updated by
    /// the move when the parent was the last one with an empty more, else those of the
    /// position before a pass, else read from the board. A slot that is not the parent
    /// (another line's) fails the test of the discs and is never used.
    #[inline]
    fn digits(&mut self, s: &R::S) -> Digits {
        let pos = R::position(s);
        let n = pos.n_empties() as usize;
        let slot = self.slots[n];
        if slot.player == pos.player && slot.opponent == pos.opponent {
            return slot.digits;
        }
        let digits = match self
            .slots
            .get(n + 1)
            .and_then(|p| Self::child_digits(p, pos))
        {
            Some(d) => d,
            None if slot.player == pos.opponent && slot.opponent == pos.player => {
                slot.digits.swapped()
            }
            None => Digits::of(pos.player, pos.opponent),
        };
        self.slots[n] = DigitSlot {
            player: pos.player,
            opponent: pos.opponent,
            digits,
        };
        digits
    }

    /// The digits of `pos` from those of `parent` when `pos` follows from it by one move:
    /// one disc more on the board, the mover's discs kept, the flipped ones taken from the
    /// side to move of `pos`.
    #[inline(always)]
    fn child_digits(parent: &DigitSlot, pos: crate::board::Position) -> Option<Digits> {
        let before = parent.player | parent.opponent;
        let placed = (pos.player | pos.opponent) ^ before;
        if placed.count_ones() != 1 || placed & before != 0 || parent.player & !pos.opponent != 0 {
            return None;
        }
        let flipped = pos.opponent & !parent.player & !placed;
        if pos.player != parent.opponent & !flipped {
            return None;
        }
        Some(parent.digits.after(placed.trailing_zeros() as u8, flipped))
    }

    /// What the children of `s` need for their evaluations ([`ChildrenBase`]), from the
    /// digits of `s` when the evaluation uses them.
    #[inline]
    fn children_base(&mut self, s: &R::S) -> Option<ChildrenBase> {
        if self.shared.eval.uses_digits::<R>() {
            let digits = self.digits(s);
            Some(self.shared.eval.children_base_from::<R>(s, &digits))
        } else {
            self.shared.eval.children_base::<R>(s)
        }
    }

    /// Exact score within `(alpha, beta)` by the endgame solver.
    fn endgame(&mut self, s: &R::S, alpha: i32, beta: i32, n: u32) -> i32 {
        let mut w = EndWorker::<R>::new(self.shared, self.split);
        let v = endgame::window(&mut w, s, alpha.max(-64), beta.min(64), n);
        self.nodes += w.nodes;
        self.peeked += w.peeked;
        self.polled += w.polled;
        v
    }

    /// Null-window search: is the score of `s` at `depth` above `alpha`?
    #[inline]
    pub fn nws(&mut self, s: &R::S, alpha: i32, depth: u32, passed: bool) -> i32 {
        self.search(s, alpha, alpha + 1, depth, passed)
    }

    /// The best score of `s` searched `depth` plies deep, fail-soft within `(alpha, beta)`.
    pub fn search(&mut self, s: &R::S, alpha: i32, beta: i32, depth: u32, passed: bool) -> i32 {
        let n = R::position(s).n_empties();
        if depth >= n && (self.selectivity == 0 || n <= self.end_exact_empties) {
            return self.endgame(s, alpha, beta, n);
        }
        if depth == 0 {
            return self.evaluate(s);
        }
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
            return -self.search(&R::pass(s), -beta, -alpha, depth, true);
        }
        if depth == 1 {
            return self.depth_one(s, moves, alpha, beta);
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let use_tt = depth >= MID_TT_DEPTH;
        let key = if use_tt { Self::key(s) } else { 0 };
        let tt = self.shared.tt;
        let mut tt_move = NO_MOVE;
        if use_tt && let Some(e) = tt.probe(Region::Whole, key) {
            if u32::from(e.depth) >= depth && e.selectivity <= self.selectivity {
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
        if beta == alpha + 1
            && self.selectivity > 0
            && depth >= MPC_MIN_DEPTH
            && let Some(v) = self.probcut(s, moves, alpha, depth, n)
        {
            return v;
        }

        let mut moves_list = MoveList::new();
        Self::generate(s, moves, &mut moves_list);
        if use_tt && depth > MID_TT_DEPTH {
            // The children's buckets are fetched now, while the moves are ordered, for
            // their own searches' probes.
            for c in moves_list.as_mut_slice().iter() {
                tt.prefetch(Region::Whole, Self::key(&c.next));
            }
        }
        self.order(s, depth, tt_move, &mut moves_list);
        if self.shared.eval.uses_digits::<R>() {
            // The children find this node's digits one slot up.
            self.digits(s);
        }
        let list = moves_list.as_mut_slice();

        let mut best = -SCORE_INF;
        let mut best_move = NO_MOVE;
        let mut i = 0;
        while i < list.len() {
            pick(list, i);
            let c = list[i];
            let v = if best == -SCORE_INF {
                -self.search(&c.next, -beta, -alpha, depth - 1, false)
            } else {
                let mut v = -self.nws(&c.next, -alpha - 1, depth - 1, false);
                if v > alpha && v < beta {
                    v = -self.search(&c.next, -beta, -v, depth - 1, false);
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
            if i == MID_SPLIT_AFTER
                && i < list.len()
                && depth >= MID_SPLIT_DEPTH
                && self.shared.threads > 1
            {
                for j in i..list.len() {
                    pick(list, j);
                }
                let (v, m, _) = self.split_rest(&list[i..], alpha, beta, depth);
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
        if use_tt {
            self.store(key, alpha_in, beta, best, best_move, depth);
        }
        best
    }

    /// Depth one: the best evaluation after one move. The moves are tried in an order
    /// that costs nothing (the last move that cut at this depth, then corners, edges,
    /// the inside, C- and X-squares last), so that a cut comes after fewer evaluations.
    fn depth_one(&mut self, s: &R::S, moves: u64, alpha: i32, beta: i32) -> i32 {
        let mut best = -SCORE_INF;
        let mut alpha = alpha;
        // The children's evaluations start from this node's pattern indices.
        let base = self.children_base(s);
        let killer = if self.killer < 64 {
            moves & (1u64 << self.killer)
        } else {
            0
        };
        let rest = moves & !killer;
        let order = Bits(killer)
            .chain(Bits(rest & CORNERS))
            .chain(Bits(rest & EDGES))
            .chain(Bits(rest & INSIDE))
            .chain(Bits(rest & C_SQUARES))
            .chain(Bits(rest & X_SQUARES));
        for x in order {
            let next = R::play(s, x);
            let v = -match &base {
                Some(base) => self.evaluate_child(base, &next, x),
                None => self.evaluate(&next),
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.killer = x;
                        break;
                    }
                }
            }
        }
        best
    }

    /// Multi-ProbCut at a null-window node with legal `moves`: `Some(bound)` when a shallow
    /// search predicts the deep one falls outside the window with the selectivity's
    /// confidence.
    fn probcut(&mut self, s: &R::S, moves: u64, alpha: i32, depth: u32, n: u32) -> Option<i32> {
        let model = mpc::model(depth, n, self.shared.eval.is_network::<R>());
        let t = SELECTIVITY_T[usize::from(self.selectivity)];
        let (high, low) = mpc::cut_bounds(model, alpha, t);
        let shallow = mpc::shallow_depth(depth);
        if shallow == 0 {
            // The evaluation predicts the deep score: one call serves both tests.
            if high > 64 && low < -64 {
                return None;
            }
            // The node's legal moves are known: not generated again for the mobility.
            self.nodes += 1;
            let v = if self.shared.eval.uses_digits::<R>() {
                let digits = self.digits(s);
                self.shared
                    .eval
                    .evaluate_with_digits::<R>(s, moves, &digits)
            } else {
                self.shared.eval.evaluate_with_moves::<R>(s, moves)
            };
            return if v >= high {
                Some(alpha + 1)
            } else if v <= low {
                Some(alpha)
            } else {
                None
            };
        }
        if high <= 64 && self.nws(s, high - 1, shallow, false) >= high && !self.aborted() {
            return Some(alpha + 1);
        }
        if low >= -64 && self.nws(s, low, shallow, false) <= low && !self.aborted() {
            return Some(alpha);
        }
        None
    }

    /// Lists the moves of `s` and the positions after them.
    fn generate(s: &R::S, moves: u64, list: &mut MoveList<R::S>) {
        for x in Bits(moves) {
            list.push(Candidate {
                square: x,
                next: R::play(s, x),
                key: 0,
                replies: UNKNOWN_MOVES,
            });
        }
    }

    /// Gives the moves of `s` in `list` their ordering keys.
    fn order(&mut self, s: &R::S, depth: u32, tt_move: u8, list: &mut MoveList<R::S>) {
        let items = list.as_mut_slice();
        if depth >= MID_ORDER_SEARCH_DEPTH {
            let sort_depth = (depth - MID_ORDER_SEARCH_DEPTH) / MID_ORDER_SEARCH_DIVISOR;
            let saved = self.selectivity;
            let base = if sort_depth == 0 {
                self.children_base(s)
            } else {
                None
            };
            for c in items.iter_mut() {
                c.key = if c.square == tt_move {
                    1 << 20
                } else {
                    self.peeked += 1;
                    let v = if let Some(base) = &base {
                        -self.evaluate_child(base, &c.next, c.square)
                    } else if sort_depth == 0 {
                        -self.evaluate(&c.next)
                    } else {
                        -self.search(&c.next, -SCORE_INF, SCORE_INF, sort_depth, false)
                    };
                    v * ORDER_VALUE_WEIGHT + Self::heuristic(&c.next, c.square)
                };
            }
            self.selectivity = saved;
        } else if depth >= MID_ORDER_EVAL_DEPTH {
            let base = self.children_base(s);
            for c in items.iter_mut() {
                c.key = if c.square == tt_move {
                    1 << 20
                } else {
                    self.peeked += 1;
                    let replies = R::legal_moves(&c.next);
                    let value = match &base {
                        Some(base) => self
                            .shared
                            .eval
                            .order_child::<R>(base, &c.next, c.square, replies),
                        None => self.shared.eval.evaluate_with_moves::<R>(&c.next, replies),
                    };
                    -value * ORDER_VALUE_WEIGHT + Self::heuristic_with(replies, c.square)
                };
            }
        } else {
            for c in items.iter_mut() {
                c.key = if c.square == tt_move {
                    1 << 20
                } else {
                    self.peeked += 1;
                    Self::heuristic(&c.next, c.square)
                };
            }
        }
    }

    /// Cheap ordering terms: few replies for the opponent, corners.
    #[inline]
    fn heuristic(next: &R::S, square: u8) -> i32 {
        Self::heuristic_with(R::legal_moves(next), square)
    }

    /// [`Self::heuristic`] given the opponent's replies after the move.
    #[inline]
    fn heuristic_with(replies: u64, square: u8) -> i32 {
        let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
        -mobility * ORDER_MID_MOBILITY_WEIGHT
            + i32::from(CORNERS & (1u64 << square) != 0) * ORDER_MID_CORNER_WEIGHT
    }

    fn store(&self, key: u64, alpha: i32, beta: i32, score: i32, best_move: u8, depth: u32) {
        let (lower, upper) = window_bounds(alpha, beta, score);
        self.shared.tt.store(
            Region::Whole,
            key,
            TtData {
                lower: lower as i16,
                upper: upper as i16,
                best_move,
                depth: depth.min(255) as u8,
                selectivity: self.selectivity,
            },
        );
    }

    /// Searches `rest` (the moves after the first ones) over the threads, sharing alpha.
    /// Returns the best score, its move, and whether that score only failed low (an upper
    /// bound; also when every helper gave up).
    fn split_rest(
        &mut self,
        rest: &[Candidate<R::S>],
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> (i32, u8, bool) {
        use rayon::prelude::*;
        let shared_alpha = AtomicI32::new(alpha);
        let flag = SplitFlag {
            cut: AtomicBool::new(false),
            parent: self.split,
        };
        let shared = self.shared;
        let (selectivity, end_exact_empties) = (self.selectivity, self.end_exact_empties);
        let results: Vec<Helped> = rest
            .par_iter()
            .map(|c| {
                let mut w = MidWorker::<R>::new(shared, Some(&flag), selectivity);
                w.end_exact_empties = end_exact_empties;
                if flag.is_cut() || shared.control.stopped() {
                    return Helped::aborted(c.square, &w);
                }
                let a = shared_alpha.load(Ordering::Relaxed);
                let mut v = -w.nws(&c.next, -a - 1, depth - 1, false);
                if v > a && v < beta && !w.aborted() {
                    v = -w.search(&c.next, -beta, -v, depth - 1, false);
                }
                if w.aborted() {
                    return Helped::aborted(c.square, &w);
                }
                shared_alpha.fetch_max(v, Ordering::Relaxed);
                if v >= beta {
                    flag.cut.store(true, Ordering::Relaxed);
                }
                Helped {
                    v,
                    square: c.square,
                    nodes: w.nodes,
                    peeked: w.peeked,
                    polled: w.polled,
                    failed_low: v <= a,
                }
            })
            .collect();
        let mut best = (-SCORE_INF, NO_MOVE, true);
        for Helped {
            v,
            square: m,
            nodes,
            peeked,
            polled,
            failed_low,
        } in results
        {
            self.nodes += nodes;
            self.peeked += peeked;
            self.polled += polled;
            if v > best.0 || (v == best.0 && best.2 && !failed_low) {
                best = (v, m, failed_low);
            }
        }
        best
    }

    /// Searches the root moves `order` (best first) with window `(alpha, beta)` at
    /// `depth`; returns the score and the index in `order` of the best move. Moves after
    /// the first are split over the threads. Cut short by the stop, it returns the index
    /// of a move proven better than the first (raising alpha), else 0.
    pub fn root(
        &mut self,
        s: &R::S,
        order: &[u8],
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> (i32, usize) {
        self.nodes += 1;
        if self.shared.eval.uses_digits::<R>() {
            self.digits(s);
        }
        let mut alpha = alpha;
        let mut best = -SCORE_INF;
        let mut best_index = 0;
        // The move that last raised alpha: proven better than the moves before it (a move
        // that only failed low less badly is not).
        let mut proven = 0;
        let mut i = 0;
        while i < order.len() {
            let next = R::play(s, order[i]);
            let v = if i == 0 {
                -self.search(&next, -beta, -alpha, depth - 1, false)
            } else {
                let mut v = -self.nws(&next, -alpha - 1, depth - 1, false);
                if v > alpha && v < beta {
                    v = -self.search(&next, -beta, -v, depth - 1, false);
                }
                v
            };
            if self.aborted() {
                return (best, proven);
            }
            if v > best {
                best = v;
                best_index = i;
                if v > alpha {
                    alpha = v;
                    proven = i;
                    if v >= beta {
                        break;
                    }
                }
            }
            i += 1;
            if i == 1 && i < order.len() && self.shared.threads > 1 && depth >= MID_SPLIT_DEPTH {
                let rest: Vec<Candidate<R::S>> = order[1..]
                    .iter()
                    .map(|&x| Candidate {
                        square: x,
                        next: R::play(s, x),
                        key: 0,
                        replies: UNKNOWN_MOVES,
                    })
                    .collect();
                let (v, m, failed_low) = self.split_rest(&rest, alpha, beta, depth);
                // Stopped, a helper that finished above alpha still proved its move better
                // than the first, as a single thread's cut-short iteration does.
                if v > best && (!self.aborted() || (!failed_low && v > alpha)) {
                    best = v;
                    best_index = order.iter().position(|&x| x == m).unwrap_or(0);
                }
                break;
            }
        }
        (best, best_index)
    }

    /// The principal variation from `s`: the table's best moves, as far as they go.
    pub fn principal_variation(&self, s: &R::S, first: u8, max_len: usize) -> Vec<Move> {
        let mut pv = vec![Move::Play(Square::from_index(first))];
        let mut s = R::play(s, first);
        while pv.len() < max_len {
            let moves = R::legal_moves(&s);
            if moves == 0 {
                let passed = R::pass(&s);
                if R::legal_moves(&passed) == 0 {
                    break;
                }
                pv.push(Move::Pass);
                s = passed;
                continue;
            }
            // Near the end the solver keeps its entries in their own region of the table
            // (`EndWorker::region`). Where there is one it comes from a search to the
            // end, while the whole table may still hold an earlier, shallower
            // iteration's entry for the same position.
            let (tt, key) = (self.shared.tt, Self::key(&s));
            let exact = match EndWorker::<R>::region(R::position(&s).n_empties()) {
                Region::Whole => None,
                near => tt.probe(near, key),
            };
            let Some(e) = exact.or_else(|| tt.probe(Region::Whole, key)) else {
                break;
            };
            if e.best_move >= 64 || moves & (1u64 << e.best_move) == 0 {
                break;
            }
            pv.push(Move::Play(Square::from_index(e.best_move)));
            s = R::play(&s, e.best_move);
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::Evaluator;
    use crate::rules::Othello;
    use crate::search::control::Control;

    /// The depth-one order's classes cover every square once, so no move is skipped.
    #[test]
    fn square_classes_partition_the_board() {
        let classes = [CORNERS, EDGES, INSIDE, C_SQUARES, X_SQUARES];
        assert_eq!(classes.iter().fold(0, |a, c| a | c), u64::MAX);
        assert_eq!(classes.iter().map(|c| c.count_ones()).sum::<u32>(), 64);
        assert_eq!((EDGES.count_ones(), C_SQUARES.count_ones()), (16, 8));
    }
    use crate::search::tt::{NEAR_BYTES, TranspositionTable};

    /// The position after a move of `p` (which has one) picked by `seed`, advanced first:
    /// a step of a fixed pseudo-random game.
    fn random_move(p: &Position, seed: &mut u64) -> Position {
        let moves = p.legal_moves();
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let pick = (*seed >> 33) % u64::from(moves.count_ones());
        p.play(Bits(moves).nth(pick as usize).expect("a move"))
    }

    /// What a one-thread search shares: `tt`, `control` and `eval`.
    fn one_thread<'a>(
        tt: &'a TranspositionTable,
        control: &'a Control,
        eval: &'a Evaluator,
    ) -> Shared<'a> {
        Shared {
            tt,
            control,
            eval,
            threads: 1,
        }
    }

    /// What the search counts besides its nodes: every peek of the solver it hands the
    /// end of the game to, and the children its move ordering keys (Edax counts both as
    /// nodes, and the solver adds them to its count in Edax's units).
    #[test]
    fn the_solvers_peeks_and_the_orderings_keyed_children_count() {
        // A position with 14 empties from a fixed game of legal moves.
        let mut p = Position::START;
        let mut seed = 7u64;
        while p.n_empties() > 14 {
            let moves = p.legal_moves();
            if moves == 0 {
                p = Position::START;
                seed += 1;
                continue;
            }
            p = random_move(&p, &mut seed);
        }
        let (control, eval) = (Control::default(), Evaluator::default());
        let (mid_tt, end_tt) = (TranspositionTable::new(16), TranspositionTable::new(16));
        let shared = |tt| one_thread(tt, &control, &eval);
        // Searched to the end, the node goes to the solver: the same nodes and peeks as
        // the solver's own search of it with the same window, in a table of the same size.
        let (mid_shared, end_shared) = (shared(&mid_tt), shared(&end_tt));
        let mut m = MidWorker::<Othello>::new(&mid_shared, None, 0);
        let v = m.search(&p, -64, 64, 14, false);
        let mut w = EndWorker::<Othello>::new(&end_shared, None);
        assert_eq!(v, endgame::window(&mut w, &p, -64, 64, 14));
        assert!(w.peeked > 0);
        assert_eq!((m.nodes, m.peeked), (w.nodes, w.peeked));
        // A midgame search keys children by their replies or their evaluation.
        let mut m = MidWorker::<Othello>::new(&mid_shared, None, 0);
        m.search(&Position::START, -SCORE_INF, SCORE_INF, 6, false);
        assert!(
            m.peeked > m.nodes / 4,
            "{} peeks, {} nodes",
            m.peeked,
            m.nodes
        );
    }

    /// A worker's pattern digits are those read from the board whatever order positions
    /// come in: down a line (from the parent's slot), after a pass, back to a position
    /// already seen, and on another line whose slots are not its parents.
    #[test]
    fn digits_from_the_slots_are_the_boards() {
        let (control, eval, tt) = (
            Control::default(),
            Evaluator::default(),
            TranspositionTable::new(1),
        );
        let shared = one_thread(&tt, &control, &eval);
        let mut m = MidWorker::<Othello>::new(&shared, None, 0);
        let check = |m: &mut MidWorker<Othello>, p: &Position| {
            assert_eq!(m.digits(p), Digits::of(p.player, p.opponent), "{p:?}");
        };
        let (mut derived, mut passes) = (0, 0);
        for seed0 in 0..40u64 {
            let mut seed = seed0;
            let mut p = Position::START;
            let mut line = vec![p];
            while p.n_empties() > 0 {
                if p.legal_moves() == 0 {
                    if p.pass().legal_moves() == 0 {
                        break;
                    }
                    p = p.pass();
                    passes += 1;
                } else {
                    p = random_move(&p, &mut seed);
                }
                let parent = m.slots[p.n_empties() as usize + 1];
                if MidWorker::<Othello>::child_digits(&parent, p).is_some() {
                    derived += 1;
                }
                check(&mut m, &p);
                line.push(p);
            }
            // Back up the line, then a position of it again with another below it.
            for q in line.iter().rev().step_by(3) {
                check(&mut m, q);
            }
            check(&mut m, &line[line.len() / 2]);
        }
        assert!(
            derived > 1000,
            "{derived} positions derived from their parent"
        );
        assert!(passes > 0);
        // Positions that do not follow from the parent by a move of its side to move: two
        // discs more, or the new disc the wrong side's.
        let p = Position::START;
        check(&mut m, &p);
        for odd in [
            Position::new(p.opponent, p.player | 3),
            Position::new(p.opponent | 1, p.player),
        ] {
            assert_eq!(MidWorker::<Othello>::child_digits(&m.slots[60], odd), None);
            check(&mut m, &odd);
        }
    }

    /// The move generator keeps every move of a position with more than any reached by
    /// play, at every depth (the ordering differs with the depth).
    #[test]
    fn generation_keeps_all_35_moves() {
        let p = crate::search::many_moves_position();
        let moves = p.legal_moves();
        let (control, eval, tt) = (
            Control::default(),
            Evaluator::default(),
            TranspositionTable::new(1),
        );
        let shared = one_thread(&tt, &control, &eval);
        let mut m = MidWorker::<Othello>::new(&shared, None, 0);
        for depth in [1, 4, 8] {
            let mut list = MoveList::new();
            MidWorker::<Othello>::generate(&p, moves, &mut list);
            m.order(&p, depth, NO_MOVE, &mut list);
            let listed = list
                .as_mut_slice()
                .iter()
                .fold(0u64, |b, c| b | 1 << c.square);
            assert_eq!(listed, moves, "depth {depth}");
            assert_eq!(list.as_mut_slice().len(), 35, "depth {depth}");
        }
    }

    /// The line is read where each position's entry is: near the end, from the solver's
    /// region of the table (in a table larger than that region the two differ), in
    /// preference to an entry of the whole table for the same position.
    #[test]
    fn the_line_reads_the_solvers_entries_near_the_end() {
        // A table of 64-byte buckets larger than the near region.
        const TABLE_MB: usize = 64;
        const _: () = assert!(TABLE_MB << 20 > NEAR_BYTES);
        let n = SOLVE_NEAR_TT_EMPTIES - 1;
        // A position with n + 1 empties, the first move from it, and two moves after.
        let mut p = Position::START;
        let mut seed = 1u64;
        let (x, first, second) = loop {
            let moves = p.legal_moves();
            if p.n_empties() == n + 1 && moves != 0 {
                let x = moves.trailing_zeros() as u8;
                let replies = p.play(x).legal_moves();
                // Its bucket in the whole table lies outside the near region.
                let bucket =
                    MidWorker::<Othello>::key(&p.play(x)) as usize % ((TABLE_MB << 20) / 64);
                if replies.count_ones() >= 2 && bucket >= NEAR_BYTES / 64 {
                    break (
                        x,
                        replies.trailing_zeros() as u8,
                        63 - replies.leading_zeros() as u8,
                    );
                }
            }
            if moves == 0 || p.n_empties() <= n + 1 {
                p = Position::START;
                seed += 1;
                continue;
            }
            p = random_move(&p, &mut seed);
        };
        let (tt, control, eval) = (
            TranspositionTable::new(TABLE_MB),
            Control::default(),
            Evaluator::default(),
        );
        let shared = one_thread(&tt, &control, &eval);
        let w = MidWorker::<Othello>::new(&shared, None, 0);
        let child = p.play(x);
        let entry = |best_move| TtData {
            lower: 0,
            upper: 0,
            best_move,
            depth: n as u8,
            selectivity: 0,
        };
        let key = MidWorker::<Othello>::key(&child);
        let region = EndWorker::<Othello>::region(n);
        assert_eq!(region, Region::Near);
        tt.store(region, key, entry(first));
        let line = |w: &MidWorker<Othello>| {
            w.principal_variation(&p, x, 2)
                .iter()
                .map(|m| m.square().map(|s| s.index()))
                .collect::<Vec<_>>()
        };
        assert_eq!(line(&w), [Some(x), Some(first)]);
        tt.store(Region::Whole, key, entry(second));
        assert_eq!(line(&w), [Some(x), Some(first)]);
    }
}
