//! The full search (from [`SOLVE_TT_EMPTIES`]): move generation and ordering (by
//! mobility, evaluation and shallow searches), the table and enhanced transposition
//! cut-offs, the stability bound, and young-brothers-wait splits over the threads.

use super::*;

/// Empty squares next to `discs` (where their opponent may one day play): the potential
/// mobility of the opponent of `discs`.
#[inline]
pub(super) fn potential_mobility(discs: u64, empty: u64) -> u32 {
    (neighbours(discs) & empty).count_ones()
}

/// Pushes the positions after each of `moves`, not yet ordered.
#[inline]
pub(super) fn push_children<R: Rules>(s: &R::S, moves: u64, list: &mut MoveList<R::S>) {
    for x in Bits(moves) {
        list.push(Candidate {
            square: x,
            next: R::play(s, x),
            key: 0,
            replies: UNKNOWN_MOVES,
        });
    }
}

impl<'a, 's, R: Rules> Worker<'a, 's, R> {
    /// Generates the legal moves of `s` with their next states and ordering keys.
    #[inline]
    pub(super) fn generate(
        &mut self,
        s: &R::S,
        moves: u64,
        n: u32,
        tt_move: u8,
        list: &mut MoveList<R::S>,
    ) {
        push_children::<R>(s, moves, list);
        self.order(s, n, tt_move, list.as_mut_slice());
    }

    /// Gives every candidate its ordering key (the table move first).
    #[inline]
    pub(super) fn order(&mut self, s: &R::S, n: u32, tt_move: u8, list: &mut [Candidate<R::S>]) {
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
    pub(super) fn shallow(&mut self, s: &R::S, depth: u32, mut alpha: i32, beta: i32) -> i32 {
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
    pub(super) fn nws(&mut self, s: &R::S, alpha: i32, n: u32, passed: bool) -> i32 {
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
    pub(super) fn nws_child(&mut self, c: &Candidate<R::S>, alpha: i32, n: u32) -> i32 {
        if c.replies != UNKNOWN_MOVES && n > SOLVE_SMALL_EMPTIES && n < SOLVE_TT_EMPTIES {
            return self.nws_shallow_moves(&c.next, c.replies, alpha, n, false);
        }
        self.nws(&c.next, alpha, n, false)
    }

    /// The full search (table, ordering, ETC, stability, splits) with window
    /// `(alpha, beta)`; PVS inside when the window is open.
    pub(super) fn search(&mut self, s: &R::S, alpha: i32, beta: i32, n: u32, passed: bool) -> i32 {
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
    pub(super) fn child(&mut self, s: &R::S, alpha: i32, beta: i32, n: u32) -> i32 {
        if beta == alpha + 1 {
            return self.nws(s, alpha, n, false);
        }
        if n <= SOLVE_SMALL_EMPTIES {
            return self.small(s, alpha, beta, !R::position(s).occupied(), n, false);
        }
        self.search(s, alpha, beta, n, false)
    }

    pub(super) fn store(&self, key: u64, alpha: i32, beta: i32, score: i32, best_move: u8, n: u32) {
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
    pub(super) fn split_rest(
        &mut self,
        rest: &[Candidate<R::S>],
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> (i32, u8) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::rules::Othello;
    use crate::search::control::Control;

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
}
