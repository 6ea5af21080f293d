//! The shallow nodes (below [`SOLVE_TT_EMPTIES`]): fastest-first then parity order,
//! bounds in the thread's cache, no polling and no splits.

use super::*;

impl<'a, 's, R: Rules> Worker<'a, 's, R> {
    /// Null-window search with move generation, without the table.
    pub(super) fn nws_shallow(&mut self, s: &R::S, alpha: i32, n: u32, passed: bool) -> i32 {
        self.nws_shallow_moves(s, R::legal_moves(s), alpha, n, passed)
    }

    /// [`Worker::nws_shallow`] given the legal moves of `s`.
    pub(super) fn nws_shallow_moves(
        &mut self,
        s: &R::S,
        moves: u64,
        alpha: i32,
        n: u32,
        passed: bool,
    ) -> i32 {
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
    pub(super) fn nws_shallow_children(
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
}
