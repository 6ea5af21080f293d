//! The midgame search and the engine: agreement with a plain alpha-beta when probable
//! cuts are off, reproducible node counts, stopping, and time management on a simulated
//! clock.

mod common;

use common::{Lcg, random_states};
use std::sync::Arc;
use std::time::{Duration, Instant};
use volte::bitboard::Bits;
use volte::engine::GameClock;
use volte::engine::ResultKind;
use volte::engine::{Clock, ManualClock};
use volte::engine::{Engine, EngineOptions, Limits};
use volte::eval::Evaluator;
use volte::game::Game;
use volte::rules::{State, Variant};
use volte::square::Move;

/// Plain fail-hard alpha-beta to `depth` plies (passes cost none), the evaluation at the
/// leaves (which gives the final score of a finished game), the final score at the end of
/// the game.
fn alpha_beta(
    v: Variant,
    eval: &Evaluator,
    s: &State,
    mut alpha: i32,
    beta: i32,
    depth: u32,
) -> i32 {
    if depth == 0 {
        return eval.evaluate_variant(v, s);
    }
    let moves = v.legal_moves(s);
    if moves == 0 {
        let passed = s.pass();
        if v.legal_moves(&passed) == 0 {
            return v.final_score(s);
        }
        return -alpha_beta(v, eval, &passed, -beta, -alpha, depth);
    }
    for x in Bits(moves) {
        let score = -alpha_beta(v, eval, &v.play(s, x), -beta, -alpha, depth - 1);
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}

/// Plain minimax value at `depth`.
fn reference(v: Variant, s: &State, depth: u32) -> i32 {
    alpha_beta(v, &Evaluator::default(), s, -200, 200, depth)
}

#[test]
fn without_probcut_the_search_equals_alpha_beta() {
    let mut rng = Lcg(20261129);
    let cases: &[(u32, usize)] = if cfg!(debug_assertions) {
        &[(1, 40), (2, 40), (3, 30), (4, 20)]
    } else {
        &[(1, 60), (2, 60), (3, 60), (4, 60), (5, 40), (6, 20)]
    };
    let mut checked = 0;
    for v in [Variant::Othello, Variant::Anti, Variant::Reversi1889] {
        for &(depth, count) in cases {
            for s in random_states(v, count, 50, &mut rng) {
                if v.is_game_over(&s) {
                    continue;
                }
                let engine = Engine::new(EngineOptions {
                    hash_mb: 4,
                    ..EngineOptions::default()
                });
                let limits = Limits {
                    selectivity: Some(0),
                    ..Limits::depth(depth)
                };
                let got = engine.think(v, &s, &limits, &mut |_| {}).unwrap();
                let want = reference(v, &s, depth);
                assert_eq!(got.score, want, "{v} depth {depth} {s:?}");
                // The move's own value is the score.
                if let Move::Play(sq) = got.best_move {
                    let next = v.play(&s, sq.index());
                    let child = -reference(v, &next, depth.saturating_sub(1));
                    if depth >= 1 && got.kind == ResultKind::Midgame {
                        assert_eq!(child, want, "{v} depth {depth} move {sq} of {s:?}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn node_counts_are_reproducible() {
    let depth = if cfg!(debug_assertions) { 5 } else { 8 };
    let run = || {
        volte::jobs::bench::run(depth, &mut |_| {})
            .iter()
            .map(|p| (p.nodes, p.result.as_ref().map(|r| (r.best_move, r.score))))
            .collect::<Vec<_>>()
    };
    let first = run();
    assert!(first.iter().all(|(n, r)| *n > 0 && r.is_some()));
    assert_eq!(first, run());
}

#[test]
fn node_limited_searches_are_reproducible() {
    let state = volte::jobs::bench::positions()[3];
    let run = || {
        let engine = Engine::new(EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        });
        let limits = Limits {
            nodes: Some(200_000),
            ..Limits::default()
        };
        let mut depths = Vec::new();
        let r = engine
            .think(Variant::Othello, &state, &limits, &mut |it| {
                depths.push(it.depth)
            })
            .unwrap();
        (r.best_move, r.score, r.depth, r.nodes, depths)
    };
    let first = run();
    // The answer is the last iteration finished within the limit.
    assert!(first.2 >= 3 && first.3 < 200_000, "{first:?}");
    assert_eq!(first, run());
}

#[test]
fn stop_ends_a_long_search_promptly() {
    let engine = Arc::new(Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    }));
    let state = volte::jobs::bench::positions()[0];
    let stopper = engine.stop_handle();
    let e = Arc::clone(&engine);
    let search = std::thread::spawn(move || {
        let r = e.think(Variant::Othello, &state, &Limits::depth(40), &mut |_| {});
        (r, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    stopper.stop();
    let (result, ended) = search.join().unwrap();
    let delay = ended.saturating_duration_since(asked);
    eprintln!(
        "stopped {:.1} ms after the request",
        delay.as_secs_f64() * 1e3
    );
    // The engine still answers with a legal move.
    let mv = result.unwrap().best_move;
    assert!(
        matches!(mv, Move::Play(sq) if Variant::Othello.legal_moves(&state) & (1 << sq.index()) != 0)
    );
    // Generous slack for a loaded machine; the design target is 50 ms.
    assert!(delay < Duration::from_secs(2), "{delay:?}");
}

/// Whole games between two engines on a simulated clock that advances with the nodes
/// searched (10,000 nodes per simulated second in release builds): neither side ever runs
/// out of time.
#[test]
fn simulated_clock_games_never_run_out() {
    let (games, step) = if cfg!(debug_assertions) {
        (1, Duration::from_millis(1))
    } else {
        (12, Duration::from_micros(100))
    };
    let mut moves = 0;
    for (base_s, increment_s) in [(60u64, 0u64), (300, 0), (60, 1)] {
        for g in 0..games {
            let clock = Arc::new(ManualClock::new(step));
            let engine = Engine::new(EngineOptions {
                hash_mb: 8,
                clock: clock.clone() as Arc<dyn Clock>,
                ..EngineOptions::default()
            });
            let mut game = Game::new(Variant::Othello);
            // Different games: a few random opening moves.
            let mut rng = Lcg(g as u64 + 1);
            for _ in 0..4 {
                let list: Vec<u8> = Bits(game.legal_moves()).collect();
                let x = list[rng.next() as usize % list.len()];
                game.play(Move::Play(volte::square::Square::from_index(x)))
                    .unwrap();
            }
            let mut remaining = [Duration::from_secs(base_s); 2];
            let increment = Duration::from_secs(increment_s);
            while !game.is_over() {
                let side = usize::from(game.side_to_move() == volte::square::Color::White);
                let limits = Limits {
                    clock: Some(GameClock {
                        remaining: remaining[side],
                        increment,
                        moves_to_go: None,
                    }),
                    ..Limits::default()
                };
                let before = clock.now();
                let r = engine.think_game(&game, &limits, &mut |_| {}).unwrap();
                let used = clock.now() - before;
                assert!(
                    used < remaining[side],
                    "lost on time: used {used:?} of {:?} at ply {}",
                    remaining[side],
                    game.moves().len()
                );
                remaining[side] = remaining[side] - used + increment;
                game.play(r.best_move).unwrap();
                moves += 1;
            }
        }
    }
    eprintln!("{moves} moves played on the simulated clock");
    assert!(
        moves > if cfg!(debug_assertions) { 90 } else { 1000 },
        "{moves}"
    );
}

/// A fixed time a move is spent whole: iterations go on until the deadline (an iteration
/// cut short may still bring a better move), on a simulated clock of 1 µs a node.
#[test]
fn a_fixed_move_time_is_spent_whole() {
    let budget = if cfg!(debug_assertions) {
        Duration::from_millis(200)
    } else {
        Duration::from_secs(2)
    };
    let states: Vec<State> = random_states(Variant::Othello, 40, 60, &mut Lcg(7))
        .into_iter()
        .filter(|s| s.pos.n_empties() >= 36 && Variant::Othello.legal_moves(s).count_ones() >= 2)
        .take(4)
        .collect();
    assert_eq!(states.len(), 4);
    for state in states {
        let clock = Arc::new(ManualClock::new(Duration::from_micros(1)));
        let engine = Engine::new(EngineOptions {
            hash_mb: 8,
            clock: clock.clone() as Arc<dyn Clock>,
            ..EngineOptions::default()
        });
        let limits = Limits {
            move_time: Some(budget),
            ..Limits::default()
        };
        let before = clock.now();
        let r = engine
            .think(Variant::Othello, &state, &limits, &mut |_| {})
            .unwrap();
        let used = clock.now() - before;
        assert!(
            Variant::Othello.legal_moves(&state) & (1 << r.best_move.square().unwrap().index())
                != 0
        );
        // All but the latency reserve and the last poll's few nodes.
        assert!(used >= budget * 85 / 100, "used {used:?} of {budget:?}");
        assert!(
            used <= budget + Duration::from_millis(20),
            "used {used:?} of {budget:?}"
        );
    }
}
