//! perft: counts the leaves of the game tree to a fixed depth, the oracle for move
//! generation.
//!
//! Convention (as in DESIGN.md): a pass costs one ply, and a finished game counts as one
//! leaf whatever depth remains. The last ply is bulk-counted: a node one ply above the
//! leaves returns its number of legal moves without playing them.

use crate::bitboard::Bits;
use crate::rules::{Anti, Othello, Reversi1889, Rules, State, Variant};
use crate::square::{Move, Square};

/// Leaves of the tree of depth `depth` below `s`, under rules `R`.
pub fn perft<R: Rules>(s: &R::S, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = R::legal_moves(s);
    if moves == 0 {
        let passed = R::pass(s);
        if R::legal_moves(&passed) == 0 {
            return 1; // the game is over: one leaf
        }
        return perft::<R>(&passed, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut leaves = 0;
    for sq in Bits(moves) {
        leaves += perft::<R>(&R::play(s, sq), depth - 1);
    }
    leaves
}

/// perft for the standard game.
pub fn perft_othello(pos: &crate::board::Position, depth: u32) -> u64 {
    perft::<Othello>(pos, depth)
}

/// perft for any variant, chosen at run time.
pub fn perft_variant(variant: Variant, s: &State, depth: u32) -> u64 {
    match variant {
        Variant::Othello => perft::<Othello>(&s.pos, depth),
        Variant::Anti => perft::<Anti>(&s.pos, depth),
        Variant::Reversi1889 => perft::<Reversi1889>(s, depth),
    }
}

/// Collects the subtrees `split` plies below `s` as `(state, remaining depth)`, following
/// the same convention as [`perft`], so that the subtrees' perft values sum to perft of `s`.
fn expand<R: Rules>(s: &R::S, depth: u32, split: u32, out: &mut Vec<(R::S, u32)>) {
    if split == 0 || depth <= 1 {
        out.push((*s, depth));
        return;
    }
    let moves = R::legal_moves(s);
    if moves == 0 {
        let passed = R::pass(s);
        if R::legal_moves(&passed) == 0 {
            out.push((*s, depth));
        } else {
            expand::<R>(&passed, depth - 1, split - 1, out);
        }
        return;
    }
    for sq in Bits(moves) {
        expand::<R>(&R::play(s, sq), depth - 1, split - 1, out);
    }
}

fn perft_parallel_generic<R: Rules>(
    s: &R::S,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> u64 {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut tasks = Vec::new();
    // Enough subtrees to keep every thread busy and to report progress often.
    expand::<R>(s, depth, depth.saturating_sub(6).clamp(1, 4), &mut tasks);
    let done = AtomicUsize::new(0);
    let total = tasks.len();
    let work = || {
        tasks
            .par_iter()
            .map(|(t, d)| {
                let n = perft::<R>(t, *d);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                n
            })
            .sum()
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// perft for any variant on `threads` threads: the tree is split a few plies down and the
/// subtrees are counted in parallel. `progress(done, total)` is called after each subtree.
pub fn perft_parallel(
    variant: Variant,
    s: &State,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> u64 {
    match variant {
        Variant::Othello => perft_parallel_generic::<Othello>(&s.pos, depth, threads, progress),
        Variant::Anti => perft_parallel_generic::<Anti>(&s.pos, depth, threads, progress),
        Variant::Reversi1889 => perft_parallel_generic::<Reversi1889>(s, depth, threads, progress),
    }
}

/// perft split by the first move: one `(move, leaves)` per legal move (or one pass),
/// in square order. Empty when the game is over.
pub fn divide(variant: Variant, s: &State, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 || variant.is_game_over(s) {
        return Vec::new();
    }
    let moves = variant.legal_moves(s);
    if moves == 0 {
        return vec![(Move::Pass, perft_variant(variant, &s.pass(), depth - 1))];
    }
    Bits(moves)
        .map(|sq| {
            let next = variant.play(s, sq);
            (
                Move::Play(Square::from_index(sq)),
                perft_variant(variant, &next, depth - 1),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    pub const START_PERFT: [u64; 14] = [
        4,
        12,
        56,
        244,
        1396,
        8200,
        55092,
        390216,
        3005288,
        24571284,
        212258800,
        1939886636,
        18429641748,
        184042084512,
    ];

    #[test]
    fn perft_from_the_start_shallow() {
        for (i, &expected) in START_PERFT.iter().enumerate().take(8) {
            assert_eq!(perft_othello(&Position::START, i as u32 + 1), expected);
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let s = Variant::Othello.start_state();
        let parts = divide(Variant::Othello, &s, 5);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), START_PERFT[4]);
    }

    #[test]
    fn parallel_perft_agrees() {
        for v in Variant::ALL {
            let s = v.start_state();
            for d in [1, 2, 7, 9] {
                assert_eq!(
                    perft_parallel(v, &s, d, 2, &|_, _| {}),
                    perft_variant(v, &s, d)
                );
            }
        }
    }

    #[test]
    fn reversi_1889_placement_perft() {
        let s = Variant::Reversi1889.start_state();
        let counts: Vec<u64> = (1..=4)
            .map(|d| perft_variant(Variant::Reversi1889, &s, d))
            .collect();
        assert_eq!(counts, [4, 12, 24, 24]);
    }

    #[test]
    fn anti_has_othello_perft() {
        let s = Variant::Anti.start_state();
        for d in 1..=7 {
            assert_eq!(
                perft_variant(Variant::Anti, &s, d),
                START_PERFT[d as usize - 1]
            );
        }
    }

    #[test]
    fn finished_game_is_one_leaf_and_pass_costs_a_ply() {
        // Full board: game over, one leaf at any depth.
        let full = Position::new(u64::MAX >> 1, 1 << 63);
        assert_eq!(perft_othello(&full, 5), 1);
        // Side to move has no move but the opponent has: the pass is a ply.
        // Player a1, opponent b1 and c1: player can play d1; opponent cannot move.
        let pos = Position::new(0b110, 0b1); // player b1, c1; opponent a1
        assert_eq!(pos.legal_moves(), 0);
        assert_ne!(pos.opponent_moves(), 0);
        assert_eq!(perft_othello(&pos, 1), 1);
        assert_eq!(perft_othello(&pos, 2), perft_othello(&pos.pass(), 1));
    }
}
