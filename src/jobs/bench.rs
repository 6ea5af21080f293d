//! The bench: a fixed search over fixed positions, one thread, a fresh table per position.
//! Its node count is the signature of the search: a pure refactor keeps it, a change of
//! search behaviour changes it.

use crate::engine::Iteration;
use crate::engine::{Engine, EngineOptions, Limits};
use crate::formats::transcript;
use crate::rules::{State, Variant};
use std::time::{Duration, Instant};

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 16;
/// Table size of the bench, in MiB.
pub const BENCH_HASH_MB: usize = 64;

/// Openings of tournament games (WTHOR 2017), cut after 16 to 34 moves: Othello
/// midgame positions with 44 down to 26 empties.
pub const BENCH_POSITIONS: [&str; 10] = [
    "f5f6e6f4g5e7d7g6g4h6e3c5c6d3f3e2",
    "f5d6c4d3c5f4e2c6e6c2d2b5f6e3c3g5f2d7",
    "f5d6c6f4e6f6f3c5d3e3g3g4c3c4e2f2b3b4e1d2",
    "f5d6c3d3c4f4f6f3e6e7d7g6g5c5b6c6b5c7f8b4d2a5",
    "f5d6c5f4e3c6d3f6e6d7g3c4g5c3f7g6b4b3d2a3b5b6c8f8",
    "f5d6c5f4d3c4e3e6b4d2f2a4c1e2c3e1c2g3f6b3f3g4h5h3g5g6",
    "f5f6e6f4e3d3f3g3g5c6c5e7f7c4c3d6c2h6h5g6g4h4f2d2e2f8d7c8",
    "f5d6c5f4d3e3g4g5f3c4e6f6e7c7d7c2g3b6b5h4b3d2e2c6c3b4c1f1e1a3",
    "f5d6c4d3c3b3b4c5c2a3c6b6e7d2d1e3a5a4b5a6f2d7d8c1b1f8f6e6b7c7c8g5",
    "f5d6c3g5f6f3h4h5h6f7e3f4g6d2e7c5f8b4e6e8d8g4d3g7h3g3b3c2d7a4c6b6c4b5",
];

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    pub index: usize,
    pub n_empties: u32,
    pub result: Option<Iteration>,
    pub nodes: u64,
    pub time: Duration,
}

/// The bench's positions as states.
pub fn positions() -> Vec<State> {
    BENCH_POSITIONS
        .iter()
        .map(|t| {
            *transcript::parse(t, Variant::Othello)
                .expect("bench transcripts are legal")
                .current()
        })
        .collect()
}

/// Runs the bench at `depth` on one thread with the default selectivity; `on_position`
/// sees each result.
pub fn run(depth: u32, on_position: &mut dyn FnMut(&BenchPosition)) -> Vec<BenchPosition> {
    let engine = Engine::new(EngineOptions {
        hash_mb: BENCH_HASH_MB,
        threads: 1,
        ..EngineOptions::default()
    });
    run_with(&engine, &Limits::depth(depth), on_position)
}

/// Runs the bench positions within `limits` on `engine` (any number of threads).
pub fn run_with(
    engine: &Engine,
    limits: &Limits,
    on_position: &mut dyn FnMut(&BenchPosition),
) -> Vec<BenchPosition> {
    let mut out = Vec::new();
    for (index, state) in positions().iter().enumerate() {
        engine.clear();
        let start = Instant::now();
        let result = engine.think(Variant::Othello, state, limits, &mut |_| {});
        let p = BenchPosition {
            index,
            n_empties: state.pos.n_empties(),
            nodes: result.as_ref().map_or(0, |r| r.nodes),
            result,
            time: start.elapsed(),
        };
        on_position(&p);
        out.push(p);
    }
    out
}

/// One position of an accuracy test: the move the engine played and its score, against the
/// exact scores the problem file gives.
#[derive(Clone, Debug)]
pub struct AccuracyPosition {
    /// Line of the problem in its file.
    pub line: usize,
    pub n_empties: u32,
    /// The search's last iteration (`None` when the mover has no move).
    pub result: Option<Iteration>,
    /// The best exact score.
    pub best: i32,
    /// The exact score of the move played, when the file gives it.
    pub played_exact: Option<i32>,
    pub nodes: u64,
    pub time: Duration,
}

impl AccuracyPosition {
    /// Discs the move played gives away against the best move (`None` when the file does
    /// not score the move played).
    pub fn loss(&self) -> Option<i32> {
        self.played_exact.map(|s| self.best - s)
    }

    /// The search's score against the exact value of the position.
    pub fn score_error(&self) -> Option<i32> {
        self.result.as_ref().map(|r| (r.score - self.best).abs())
    }
}

/// The summary of an accuracy test, as evaluation tests report it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AccuracySummary {
    pub positions: usize,
    /// Positions whose played move the file scores (the best-move rate and loss are over
    /// these).
    pub scored_moves: usize,
    pub best_moves: usize,
    pub mean_loss: f64,
    /// Mean absolute error of the search's score against the exact value.
    pub score_mae: f64,
    pub within_3: f64,
    pub within_6: f64,
    pub nodes: u64,
    pub time: Duration,
}

impl AccuracySummary {
    pub fn of(results: &[AccuracyPosition]) -> AccuracySummary {
        let searched: Vec<&AccuracyPosition> =
            results.iter().filter(|p| p.result.is_some()).collect();
        let errors: Vec<i32> = searched.iter().filter_map(|p| p.score_error()).collect();
        let losses: Vec<i32> = searched.iter().filter_map(|p| p.loss()).collect();
        let share = |f: &dyn Fn(i32) -> bool| {
            errors.iter().filter(|&&e| f(e)).count() as f64 / errors.len().max(1) as f64
        };
        AccuracySummary {
            positions: searched.len(),
            scored_moves: losses.len(),
            best_moves: losses.iter().filter(|&&l| l == 0).count(),
            mean_loss: losses.iter().sum::<i32>() as f64 / losses.len().max(1) as f64,
            score_mae: errors.iter().sum::<i32>() as f64 / errors.len().max(1) as f64,
            within_3: share(&|e| e <= 3),
            within_6: share(&|e| e <= 6),
            nodes: results.iter().map(|p| p.nodes).sum(),
            time: results.iter().map(|p| p.time).sum(),
        }
    }
}

/// Searches each problem within `limits` on `engine` (a fresh table for each, so a result
/// does not depend on the order) and compares the move played and its score with the
/// problem's exact scores; problems without scores are left out.
pub fn accuracy(
    engine: &Engine,
    variant: Variant,
    problems: &[crate::formats::obf::ObfPosition],
    limits: &Limits,
    on_position: &mut dyn FnMut(&AccuracyPosition),
) -> Vec<AccuracyPosition> {
    let mut out = Vec::new();
    for problem in problems {
        let Some(best) = problem.best_score() else {
            continue;
        };
        let game = problem.to_game(variant);
        let state = *game.current();
        engine.clear();
        let start = Instant::now();
        let result = if game.legal_moves() == 0 {
            None
        } else {
            engine.think(variant, &state, limits, &mut |_| {})
        };
        let time = start.elapsed();
        let played_exact = result.as_ref().and_then(|r| {
            problem
                .scores
                .iter()
                .find(|&&(m, _)| m == r.best_move)
                .map(|&(_, s)| s)
        });
        let p = AccuracyPosition {
            line: problem.line,
            n_empties: state.pos.n_empties(),
            nodes: result.as_ref().map_or(0, |r| r.nodes),
            result,
            best,
            played_exact,
            time,
        };
        on_position(&p);
        out.push(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::obf;

    /// Exact endgames: a search that reaches the end plays a best move with the exact score.
    #[test]
    fn accuracy_of_solved_positions_is_perfect_and_misses_are_counted() {
        let solver = Engine::with_hash(16);
        let mut problems = Vec::new();
        // Two positions of 12 empties, from games of two fixed move choices.
        for choice in [0usize, 1] {
            let mut g = crate::game::Game::new(Variant::Othello);
            while g.current().pos.n_empties() > 12 {
                if g.pass_if_forced() {
                    continue;
                }
                let moves: Vec<u8> = crate::bitboard::Bits(g.legal_moves()).collect();
                let m = moves[(g.moves().len() * (choice + 1)) % moves.len()];
                g.play(crate::square::Move::Play(
                    crate::square::Square::from_index(m),
                ))
                .unwrap();
            }
            assert!(!g.is_over() && g.legal_moves() != 0);
            let r = solver.solve(
                Variant::Othello,
                g.current(),
                &crate::engine::SolveOptions {
                    all_moves: true,
                    ..Default::default()
                },
            );
            let (black, white) = g.black_white();
            problems.push(obf::ObfPosition {
                black,
                white,
                side: g.side_to_move(),
                scores: r.move_scores.clone(),
                line: problems.len() + 1,
            });
        }
        let engine = Engine::with_hash(16);
        let results = accuracy(
            &engine,
            Variant::Othello,
            &problems,
            &Limits::depth(30),
            &mut |_| {},
        );
        let s = AccuracySummary::of(&results);
        assert_eq!((s.positions, s.scored_moves, s.best_moves), (2, 2, 2));
        assert_eq!((s.mean_loss, s.score_mae, s.within_3), (0.0, 0.0, 1.0));
        // A file that calls a worse move best: the played move loses discs against it.
        let k = (0..2).find(|&k| problems[k].scores.len() > 1).unwrap();
        let mut wrong = problems[k].clone();
        let played = results[k].result.as_ref().unwrap().best_move;
        for (m, sc) in &mut wrong.scores {
            if *m != played {
                *sc += 10;
            }
        }
        let r = accuracy(
            &engine,
            Variant::Othello,
            &[wrong],
            &Limits::depth(30),
            &mut |_| {},
        );
        assert_eq!(r[0].result.as_ref().unwrap().best_move, played);
        let s = AccuracySummary::of(&r);
        assert_eq!(s.best_moves, 0);
        assert_eq!(s.mean_loss, 10.0);
        assert_eq!(s.score_mae, 10.0);
    }
}
