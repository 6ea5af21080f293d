//! perft is the oracle for move generation: the published counts from the start, the same
//! counts under all eight symmetries, and the variants' own trees.

use volte::board::Position;
use volte::game::Game;
use volte::jobs::perft::{divide, perft_othello, perft_variant};
use volte::rules::{State, Variant};
use volte::square::{Move, Square};

const START_PERFT: [u64; 11] = [
    4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
];

/// Depth 11 takes a fraction of a second in release builds and minutes in debug ones.
const MAX_DEPTH: usize = if cfg!(debug_assertions) { 8 } else { 11 };

#[test]
fn perft_from_the_start() {
    for (i, &expected) in START_PERFT.iter().enumerate().take(MAX_DEPTH) {
        let depth = i as u32 + 1;
        assert_eq!(
            perft_othello(&Position::START, depth),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn perft_under_every_symmetry() {
    let depth = MAX_DEPTH as u32 - 1;
    for sym in 0..8 {
        let pos = Position::START.symmetry(sym);
        assert_eq!(
            perft_othello(&pos, depth),
            START_PERFT[depth as usize - 1],
            "sym {sym}"
        );
    }
    // Midgame positions from pseudo-random games, including ones with passes near.
    let mut seed = 2024u64;
    for game_no in 0..40 {
        let mut g = Game::new(Variant::Othello);
        let plies = 20 + game_no;
        while g.moves().len() < plies && !g.is_over() {
            if g.pass_if_forced() {
                continue;
            }
            let legal: Vec<u8> = volte::bitboard::Bits(g.legal_moves()).collect();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let sq = legal[(seed >> 33) as usize % legal.len()];
            g.play(Move::Play(Square::from_index(sq))).unwrap();
        }
        let pos = g.current().pos;
        let reference = perft_othello(&pos, 4);
        let moves = pos.legal_moves().count_ones();
        for sym in 1..8 {
            let img = pos.symmetry(sym);
            assert_eq!(img.legal_moves().count_ones(), moves);
            assert_eq!(
                perft_othello(&img, 4),
                reference,
                "game {game_no} sym {sym}"
            );
        }
    }
}

#[test]
fn divide_splits_perft() {
    let s = Variant::Othello.start_state();
    let parts = divide(Variant::Othello, &s, 6);
    let names: Vec<String> = parts.iter().map(|(m, _)| m.to_string()).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    assert!(parts.iter().all(|&(_, n)| n == START_PERFT[5] / 4));
}

#[test]
fn anti_perft_equals_othello() {
    let s = Variant::Anti.start_state();
    for depth in 1..=MAX_DEPTH.min(9) {
        assert_eq!(
            perft_variant(Variant::Anti, &s, depth as u32),
            START_PERFT[depth - 1]
        );
    }
}

#[test]
fn reversi_1889_trees() {
    let empty = Variant::Reversi1889.start_state();
    let counts: Vec<u64> = (1..=4)
        .map(|d| perft_variant(Variant::Reversi1889, &empty, d))
        .collect();
    assert_eq!(counts, [4, 12, 24, 24]);
    // 24 placement orders give 6 arrangements of two black and two white discs, each
    // reached 4 times: the tree below is the sum over the arrangements.
    let after_placement: u64 = perft_variant(Variant::Reversi1889, &empty, 5);
    assert!(after_placement > 24);

    // From the standard arrangement with 30 discs each in hand, the supply cannot run out
    // within 11 plies, so the tree is Othello's.
    let standard = State {
        pos: Position::START,
        player_supply: 30,
        opponent_supply: 30,
    };
    for depth in 1..=MAX_DEPTH.min(9) {
        assert_eq!(
            perft_variant(Variant::Reversi1889, &standard, depth as u32),
            START_PERFT[depth - 1]
        );
    }
    // With two discs left each, a side that has used its discs passes: the tree is cut
    // after four placing plies and every leaf below is a finished game.
    let short = State {
        player_supply: 2,
        opponent_supply: 2,
        ..standard
    };
    let deep = perft_variant(Variant::Reversi1889, &short, 12);
    assert_eq!(deep, perft_variant(Variant::Reversi1889, &short, 4));
}
