//! The endgame solver against a plain minimax (no pruning, no table) in every variant,
//! the FFO suite, symmetries, win/loss/draw and all-move modes.

mod common;

use common::{Lcg, random_states};

use volte::bitboard::Bits;
use volte::board::Position;
use volte::engine::{Engine, EngineOptions, SolveMode, SolveOptions};
use volte::formats::obf;
use volte::rules::{Anti, Othello, Reversi1889, Rules, State, Variant};
use volte::square::Move;

/// Plain minimax: no pruning, no table.
fn minimax<R: Rules>(s: &R::S) -> i32 {
    let moves = R::legal_moves(s);
    if moves == 0 {
        let passed = R::pass(s);
        if R::legal_moves(&passed) == 0 {
            return R::final_score(s);
        }
        return -minimax::<R>(&passed);
    }
    Bits(moves)
        .map(|x| -minimax::<R>(&R::play(s, x)))
        .max()
        .unwrap()
}

fn minimax_variant(v: Variant, s: &State) -> i32 {
    match v {
        Variant::Othello => minimax::<Othello>(&s.pos),
        Variant::Anti => minimax::<Anti>(&s.pos),
        Variant::Reversi1889 => minimax::<Reversi1889>(s),
    }
}

#[test]
fn solver_agrees_with_minimax_in_every_variant() {
    let count = if cfg!(debug_assertions) { 200 } else { 2_000 };
    let solver = Engine::with_hash(16);
    let mut rng = Lcg(7);
    for v in Variant::ALL {
        let mut with_pass = 0;
        for (i, s) in random_states(v, count, 10, &mut rng).iter().enumerate() {
            let expected = minimax_variant(v, s);
            let r = solver.solve(v, s, &SolveOptions::default());
            assert_eq!(r.score, expected, "{v} #{i}: {s:?}");
            let wld = solver.solve(
                v,
                s,
                &SolveOptions {
                    mode: SolveMode::WinLossDraw,
                    ..Default::default()
                },
            );
            assert_eq!(wld.score.signum(), expected.signum(), "{v} WLD #{i}: {s:?}");
            if r.pv.contains(&Move::Pass) {
                with_pass += 1;
            }
            // The principal variation is legal and reaches the score.
            let mut game = volte::game::Game::from_start(v, *s, volte::square::Color::Black);
            for &m in &r.pv {
                game.play(m)
                    .unwrap_or_else(|e| panic!("{v} #{i}: pv {:?}: {e}", r.pv));
            }
            if !r.pv.is_empty() || v.is_game_over(s) {
                assert_eq!(
                    game.final_score_black(),
                    Some(r.score),
                    "{v} #{i} pv {:?}",
                    r.pv
                );
            }
        }
        eprintln!("{v}: {count} positions, {with_pass} with a pass in the best line");
        assert!(
            with_pass > count / 50,
            "{v}: too few positions with passes ({with_pass})"
        );
    }
}

/// From 18 empties the root is searched in a window around a guess of the score; any
/// guess, however far off, gives the score of the all-moves search (whose children, with
/// 17 empties, are searched with full windows). From 19 empties the all-moves search
/// also searches each move in a window around a guess of its own: its scores are those of
/// the children solved one by one.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow in a debug build: run cargo test --release"
)]
fn any_score_guess_gives_the_exact_score() {
    let solver = Engine::with_hash(64);
    let two_threads = Engine::new(EngineOptions {
        hash_mb: 64,
        threads: 2,
        ..EngineOptions::default()
    });
    let mut rng = Lcg(29);
    let all = SolveOptions {
        all_moves: true,
        ..Default::default()
    };
    for v in Variant::ALL {
        let states = random_states(v, 800, 19, &mut rng);
        let with = |n: u32| {
            states
                .iter()
                .filter(move |s| s.pos.n_empties() == n && v.legal_moves(s) != 0)
                .take(3)
        };
        assert_eq!(
            with(18).count(),
            3,
            "{v}: too few positions with 18 empties"
        );
        assert_eq!(
            with(19).count(),
            3,
            "{v}: too few positions with 19 empties"
        );
        for s in with(18) {
            let reference = solver.solve(v, s, &all);
            let exact = reference.score;
            let guesses = [-64, exact - 1, exact + 1, 64];
            for estimate in guesses.map(Some).into_iter().chain([None]) {
                for (threads, solver) in [(1, &solver), (2, &two_threads)] {
                    solver.clear();
                    let r = solver.solve(
                        v,
                        s,
                        &SolveOptions {
                            estimate,
                            ..Default::default()
                        },
                    );
                    assert_eq!(
                        r.score, exact,
                        "{v} guess {estimate:?}, {threads} threads: {s:?}"
                    );
                    let best = r.best_move.unwrap();
                    assert!(
                        reference.move_scores.contains(&(best, exact)),
                        "{v} guess {estimate:?}: {best} is not a best move of {s:?}"
                    );
                }
            }
        }
        for s in with(19) {
            let r = solver.solve(v, s, &all);
            for &(m, score) in &r.move_scores {
                let Move::Play(sq) = m else {
                    panic!("{v}: a pass among legal moves");
                };
                let child = solver.solve(v, &v.play(s, sq.index()), &SolveOptions::default());
                assert_eq!(-child.score, score, "{v} {m} in {s:?}");
            }
        }
    }
}

#[test]
fn all_moves_scores_match_minimax() {
    let solver = Engine::with_hash(16);
    let mut rng = Lcg(11);
    let options = SolveOptions {
        all_moves: true,
        ..Default::default()
    };
    for v in Variant::ALL {
        for s in random_states(v, 100, 9, &mut rng) {
            let r = solver.solve(v, &s, &options);
            for &(m, score) in &r.move_scores {
                let child = match m {
                    Move::Pass => s.pass(),
                    Move::Play(sq) => v.play(&s, sq.index()),
                };
                assert_eq!(-minimax_variant(v, &child), score, "{v} {m} in {s:?}");
            }
            assert!(r.move_scores.windows(2).all(|w| w[0].1 >= w[1].1));
        }
    }
}

#[test]
fn same_score_under_every_symmetry() {
    let solver = Engine::with_hash(16);
    let mut rng = Lcg(5);
    let n = if cfg!(debug_assertions) { 5 } else { 40 };
    for s in random_states(Variant::Othello, n, 16, &mut rng) {
        let reference = solver
            .solve(Variant::Othello, &s, &SolveOptions::default())
            .score;
        for sym in 1..8 {
            let img = State {
                pos: s.pos.symmetry(sym),
                ..s
            };
            let r = solver.solve(Variant::Othello, &img, &SolveOptions::default());
            assert_eq!(r.score, reference, "symmetry {sym} of {s:?}");
        }
    }
}

fn solve_ffo(file: &str, threads: usize) {
    let data = common::data_dir();
    let text = std::fs::read_to_string(data.join("ffo").join(file)).unwrap();
    let solver = Engine::new(EngineOptions {
        hash_mb: 64,
        threads,
        ..EngineOptions::default()
    });
    for p in obf::parse_file(&text) {
        let p = p.unwrap();
        let game = p.to_game(Variant::Othello);
        solver.clear();
        let r = solver.solve(Variant::Othello, game.current(), &SolveOptions::default());
        assert_eq!(Some(r.score), p.best_score(), "{file} line {}", p.line);
        let best = r.best_move.unwrap();
        assert!(
            p.best_moves().contains(&best),
            "{file} line {}: {best} not best",
            p.line
        );
        eprintln!(
            "{file} line {}: {best} {:+} in {} nodes",
            p.line, r.score, r.nodes
        );
    }
}

#[test]
#[cfg_attr(
    any(debug_assertions, volte_no_data),
    ignore = "needs a release build (cargo test --release) and the shared data folder"
)]
fn ffo_1_to_19() {
    solve_ffo("fforum-1-19.obf", 1);
}

#[test]
#[cfg_attr(
    any(debug_assertions, volte_no_data),
    ignore = "needs a release build (cargo test --release) and the shared data folder"
)]
fn ffo_20_to_39() {
    solve_ffo("fforum-20-39.obf", 2);
}

#[test]
#[cfg_attr(
    any(debug_assertions, volte_no_data),
    ignore = "needs a release build (cargo test --release) and the shared data folder"
)]
fn ffo_1_to_19_every_move_score() {
    let data = common::data_dir();
    let text = std::fs::read_to_string(data.join("ffo/fforum-1-19.obf")).unwrap();
    let solver = Engine::with_hash(64);
    for p in obf::parse_file(&text) {
        let p = p.unwrap();
        let game = p.to_game(Variant::Othello);
        let r = solver.solve(
            Variant::Othello,
            game.current(),
            &SolveOptions {
                all_moves: true,
                ..Default::default()
            },
        );
        let mut ours = r.move_scores.clone();
        let mut theirs = p.scores.clone();
        ours.sort_by_key(|&(m, _)| m.square());
        theirs.sort_by_key(|&(m, _)| m.square());
        assert_eq!(ours, theirs, "line {}", p.line);
    }
}

#[test]
fn passes_and_finished_games_at_the_root() {
    let solver = Engine::with_hash(1);
    // Finished: black a1..c1 and white nowhere.
    let s = State::from_position(Position::new(0b111, 0));
    let r = solver.solve(Variant::Othello, &s, &SolveOptions::default());
    assert_eq!((r.score, r.best_move), (64, None));
    // Side to move must pass: player b1, c1; opponent a1 can play d1.
    let s = State::from_position(Position::new(0b110, 0b1));
    let r = solver.solve(Variant::Othello, &s, &SolveOptions::default());
    assert_eq!(r.best_move, Some(Move::Pass));
    assert_eq!(r.score, -64);
    assert_eq!(r.pv.len(), 2);
}

#[test]
fn edax_units_add_the_positions_only_peeked_at() {
    // Below seven empties the solver keys no moves, evaluates nothing and probes no
    // table entries ahead: nothing is only peeked at.
    let solver = Engine::with_hash(16);
    let mut rng = Lcg(11);
    for s in random_states(Variant::Othello, 20, 6, &mut rng) {
        solver.clear();
        let r = solver.solve(Variant::Othello, &s, &SolveOptions::default());
        assert_eq!(r.peeked, 0, "{s:?}");
        assert_eq!(r.edax_nodes(), r.nodes);
    }
    // FFO 40 (20 empties): the ordering keys children and evaluates positions from 12
    // empties, and the enhanced transposition cut-offs probe children: measured 1.35 times
    // volte's count at commit 82380cf (1.6 times on FFO 40-47, 1.9 on FFO 40-59).
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let game = volte::formats::parse_position(ffo40, Variant::Othello).unwrap();
    solver.clear();
    let r = solver.solve(Variant::Othello, game.current(), &SolveOptions::default());
    assert_eq!(r.score, 38);
    assert!(
        r.peeked > r.nodes / 10 && r.peeked < r.nodes,
        "{} peeked, {} nodes",
        r.peeked,
        r.nodes
    );
    assert_eq!(r.edax_nodes(), r.nodes + r.peeked);
}
