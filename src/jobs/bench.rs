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
