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
mod mpc_table_network;
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

/// Room for every legal move of any position the program accepts: a move is a square,
/// so no position has more than 64 (33 is the most known in positions reached by play,
/// but OBF and `--position` accept any discs).
pub(crate) const MAX_MOVES: usize = 64;

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

    /// Adds a candidate. Lists are filled from a move mask, one candidate per square, so
    /// they never hold more than [`MAX_MOVES`].
    #[inline]
    pub fn push(&mut self, c: Candidate<S>) {
        self.items[self.len].write(c);
        self.len += 1;
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

/// A legal position (black to move) with 35 moves, more than any reached by play: the
/// searches' move lists must hold them all.
#[cfg(test)]
pub(crate) fn many_moves_position() -> crate::board::Position {
    let (black, white) = crate::formats::parse_cells(concat!(
        "........", ".O.O.OO.", ".OXOXXO.", ".OXXOX..", ".O...XO.", ".XXO.XX.", ".OOXXOO.",
        "........"
    ))
    .unwrap();
    crate::board::Position::new(black, white)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bits;
    use crate::board::Position;

    #[test]
    fn the_move_list_holds_every_legal_move() {
        let pos = many_moves_position();
        let moves = pos.legal_moves();
        assert_eq!(moves.count_ones(), 35);
        let mut list = MoveList::<Position>::new();
        for x in Bits(moves) {
            list.push(Candidate {
                square: x,
                next: pos.play(x),
                key: 0,
                replies: UNKNOWN_MOVES,
            });
        }
        let listed = list
            .as_mut_slice()
            .iter()
            .fold(0u64, |m, c| m | 1 << c.square);
        assert_eq!(list.as_mut_slice().len(), 35);
        assert_eq!(listed, moves);
    }
}
