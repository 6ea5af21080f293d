//! The classic evaluation: hand-written terms weighted by game stage, one weight set per
//! variant. It is the baseline the trained evaluation is measured against.
//!
//! Terms, each as the side to move's count minus the opponent's: mobility (corner moves
//! count twice), potential mobility (empty squares next to the other side's discs),
//! corners, X-squares and C-squares next to an empty corner, stable discs (runs along the
//! edges from an own corner), edge discs,
//! discs, and parity (+1 when the side to move is due to play the last empty square).
//! Weights are in 1/[`SCALE`] disc, one set per number of empties. Othello's (also used
//! for Reversi 1889) are fitted by least squares to the final results of WTHOR games
//! (`volte fit-classic`, `src/eval/classic_weights.rs`); Anti's, for which no game
//! records exist, are set by hand and move linearly from the opening to the end.
//!
//! Othello rewards corners, stability and, late, discs. Anti inverts what decides the
//! result: own corners, stable discs and discs are liabilities, X-squares that hand the
//! opponent a corner are assets; mobility is worth as much as in Othello, since having
//! choices is what lets a player avoid taking discs.

use super::EVAL_MAX;
use crate::bitboard::{CORNERS, neighbours};
use crate::board::Position;
use crate::rules::{Rules, Variant};

/// Weights are in 1/SCALE disc.
pub const SCALE: i32 = 32;

/// Number of terms.
pub const N_TERMS: usize = 9;

/// Term names, in the order of [`terms`].
pub const TERM_NAMES: [&str; N_TERMS] = [
    "mobility",
    "potential mobility",
    "corners",
    "X-squares",
    "C-squares",
    "stable discs",
    "edge discs",
    "discs",
    "parity",
];

/// (opening, end) weight of each term for Anti.
const ANTI_WEIGHTS: [(i32, i32); N_TERMS] = [
    (32, 20),
    (12, 6),
    (-40, -40),
    (40, 16),
    (16, 8),
    (-24, -48),
    (-8, -8),
    (4, -32),
    (0, 0),
];

/// Weights per number of empties (0..=60; more empties use 60), interpolated between
/// opening and end values.
const fn stage_table(w: [(i32, i32); N_TERMS]) -> [[i32; N_TERMS]; 61] {
    let mut t = [[0; N_TERMS]; 61];
    let mut e = 0;
    while e <= 60 {
        let mut i = 0;
        while i < N_TERMS {
            let (open, end) = w[i];
            t[e][i] = (open * e as i32 + end * (60 - e as i32)) / 60;
            i += 1;
        }
        e += 1;
    }
    t
}

/// Othello (and Reversi 1889): fitted by `volte fit-classic` to WTHOR results.
static OTHELLO_TABLE: [[i32; N_TERMS]; 61] = super::classic_weights::OTHELLO_FITTED;
static ANTI_TABLE: [[i32; N_TERMS]; 61] = stage_table(ANTI_WEIGHTS);

/// X-squares (b2, g2, b7, g7) and the corner each one touches.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1 << 0),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];
/// C-squares (next to a corner on an edge) of each corner.
const C_SQUARES: [(u64, u64); 4] = [
    ((1 << 1) | (1 << 8), 1 << 0),
    ((1 << 6) | (1 << 15), 1 << 7),
    ((1 << 48) | (1 << 57), 1 << 56),
    ((1 << 55) | (1 << 62), 1 << 63),
];
/// Edge squares other than corners and C-squares.
const EDGES: u64 = 0x3C00_8181_8181_003C;

/// The discs of `discs` joined to one of its corners by an unbroken run along an edge
/// (such discs can never be flipped).
#[inline(always)]
fn anchored(discs: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const EDGE_ROWS: u64 = 0xFF00_0000_0000_00FF;
    const EDGE_COLUMNS: u64 = 0x8181_8181_8181_8181;
    let corners = discs & CORNERS;
    if corners == 0 {
        return 0;
    }
    // Kogge-Stone fills from the corners through the player's edge discs.
    let fill = |prop: u64, up: bool, shift: u32, mask: u64| {
        let step = |b: u64, s: u32| if up { b << s } else { b >> s };
        let mut run = corners;
        let mut prop = prop & mask;
        run |= prop & step(run, shift);
        prop &= step(prop, shift);
        run |= prop & step(run, 2 * shift);
        prop &= step(prop, 2 * shift);
        run |= prop & step(run, 4 * shift);
        run
    };
    let rows = discs & EDGE_ROWS;
    let columns = discs & EDGE_COLUMNS;
    fill(rows, true, 1, NOT_A)
        | fill(rows, false, 1, NOT_H)
        | fill(columns, true, 8, u64::MAX)
        | fill(columns, false, 8, u64::MAX)
}

/// The terms of `pos` for the side to move, in the order of [`TERM_NAMES`].
#[inline]
pub fn terms(pos: &Position) -> [i32; N_TERMS] {
    terms_with_moves(pos, pos.legal_moves(), pos.opponent_moves())
}

/// [`terms`] given both sides' legal moves.
#[inline(always)]
fn terms_with_moves(pos: &Position, my_moves: u64, their_moves: u64) -> [i32; N_TERMS] {
    let (p, o) = (pos.player, pos.opponent);
    let empty = pos.empty();
    let mobility = (my_moves.count_ones() + (my_moves & CORNERS).count_ones()) as i32
        - (their_moves.count_ones() + (their_moves & CORNERS).count_ones()) as i32;
    let potential =
        (neighbours(o) & empty).count_ones() as i32 - (neighbours(p) & empty).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let mut x_squares = 0;
    for (x, corner) in X_SQUARES {
        if empty & corner != 0 {
            x_squares += i32::from(p & x != 0) - i32::from(o & x != 0);
        }
    }
    let mut c_squares = 0;
    for (c, corner) in C_SQUARES {
        if empty & corner != 0 {
            c_squares += (p & c).count_ones() as i32 - (o & c).count_ones() as i32;
        }
    }
    // Stable discs: the runs of own discs along the edges from an own corner. (The full
    // stable-disc fixpoint cost a quarter of the search time.)
    let stable = if (p | o) & CORNERS != 0 {
        anchored(p).count_ones() as i32 - anchored(o).count_ones() as i32
    } else {
        0
    };
    let edges = (p & EDGES).count_ones() as i32 - (o & EDGES).count_ones() as i32;
    let discs = p.count_ones() as i32 - o.count_ones() as i32;
    let parity = if empty.count_ones() & 1 == 1 { 1 } else { -1 };
    [
        mobility, potential, corners, x_squares, c_squares, stable, edges, discs, parity,
    ]
}

/// The weights of `variant` at `n_empties`.
pub fn weights(variant: Variant, n_empties: u32) -> [i32; N_TERMS] {
    let table = match variant {
        Variant::Anti => &ANTI_TABLE,
        Variant::Othello | Variant::Reversi1889 => &OTHELLO_TABLE,
    };
    table[n_empties.min(60) as usize]
}

/// The classic evaluation of `s` for the side to move, in discs; the final score when
/// the game is over.
#[inline]
pub fn evaluate<R: Rules>(s: &R::S) -> i32 {
    let pos = R::position(s);
    let Some((my_moves, their_moves)) = super::moves_unless_over::<R>(s) else {
        return R::final_score(s);
    };
    let t = terms_with_moves(&pos, my_moves, their_moves);
    let w = weights(R::VARIANT, pos.n_empties());
    let mut sum = 0;
    for i in 0..N_TERMS {
        sum += t[i] * w[i];
    }
    super::round_scaled(sum, SCALE).clamp(-EVAL_MAX, EVAL_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Anti, Othello};

    #[test]
    fn start_is_even_and_symmetric() {
        let start = Position::START;
        assert_eq!(evaluate::<Othello>(&start), 0);
        // Every symmetry gives the same terms.
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..300 {
            let mut pos = start;
            for _ in 0..(rng % 50) {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let moves = pos.legal_moves();
                if moves == 0 {
                    pos = pos.pass();
                    if pos.legal_moves() == 0 {
                        break;
                    }
                    continue;
                }
                let k = (rng % u64::from(moves.count_ones())) as usize;
                let x = crate::bitboard::Bits(moves).nth(k).unwrap();
                pos = pos.play(x);
            }
            for sym in 0..8 {
                assert_eq!(terms(&pos.symmetry(sym)), terms(&pos), "{pos:?} sym {sym}");
            }
        }
    }

    #[test]
    fn anchored_runs_stop_at_gaps_and_foes() {
        // a1, b1, c1 own; d1 empty; e1..h1 own: h1's run reaches e1.
        let row = 0b1111_0111u64;
        assert_eq!(anchored(row), row);
        // Without h1 the e1..g1 run hangs on nothing.
        assert_eq!(anchored(0b0111_0111), 0b0000_0111);
        // Column a from a8 upwards: a8, a7 own.
        let col = (1 << 56) | (1 << 48) | (1 << 32);
        assert_eq!(anchored(col), (1 << 56) | (1 << 48));
        // No corner, nothing stable; a wrapped run must not leak to the next row.
        assert_eq!(anchored(0b0111_1110), 0);
        assert_eq!(anchored((1 << 7) | (1 << 8)), 1 << 7);
        for d in [row, col, 0xFFFF_FFFF_FFFF_FFFF] {
            assert_eq!(anchored(d) & !d, 0);
            assert_eq!(anchored(d) & !crate::stability::stable_discs(d, 0), 0);
        }
    }

    #[test]
    fn corners_are_good_in_othello_and_bad_in_anti() {
        // A midgame position (36 empties, no corner taken), with a corner added for the
        // side to move or for its opponent.
        let pos = *crate::formats::transcript::parse(
            "f5d6c5f4e3c6d3f6e6d7g3c4g5c3f7g6b4b3d2a3b5b6c8f8",
            crate::rules::Variant::Othello,
        )
        .unwrap()
        .current();
        let pos = pos.pos;
        assert_eq!(pos.occupied() & CORNERS, 0);
        let corner = 1u64 << 63;
        let mine = Position::new(pos.player | corner, pos.opponent);
        let theirs = Position::new(pos.player, pos.opponent | corner);
        assert!(evaluate::<Othello>(&mine) > evaluate::<Othello>(&theirs));
        assert!(evaluate::<Anti>(&mine) < evaluate::<Anti>(&theirs));
    }

    #[test]
    fn x_square_next_to_empty_corner_is_bad_in_othello() {
        let pos = crate::formats::transcript::parse(
            "f5d6c5f4e3c6d3f6e6d7g3c4g5c3f7g6b4b3d2a3b5b6c8f8",
            crate::rules::Variant::Othello,
        )
        .unwrap()
        .current()
        .pos;
        // g7 (next to the empty h8) against h4, an edge square, both empty.
        let (x, edge) = (1u64 << 54, 1u64 << 31);
        assert_eq!(pos.occupied() & (x | edge), 0);
        let with_x = Position::new(pos.player | x, pos.opponent);
        let with_edge = Position::new(pos.player | edge, pos.opponent);
        assert_eq!(terms(&with_x)[3] - terms(&with_edge)[3], 1);
        assert!(evaluate::<Othello>(&with_x) < evaluate::<Othello>(&with_edge));
        // In Anti an X-square that hands over a corner is worth having.
        let n = with_x.n_empties();
        assert!(weights(crate::rules::Variant::Anti, n)[3] > 0);
        assert!(weights(crate::rules::Variant::Othello, n)[3] < 0);
    }
}
