//! The openings of a match: read from a file, drawn at random, or chosen balanced by
//! search.

use crate::engine::{Engine, EngineOptions, Limits};
use crate::formats::transcript;
use crate::game::Game;
use crate::rules::Variant;
use crate::square::{Move, Square};
use std::sync::atomic::Ordering;

/// Reads openings, one transcript a line (the XOT format); blank lines and `#`/`%`
/// comments are skipped. Each must be legal under `variant`.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Game>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // A comment may follow the transcript.
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let game = transcript::parse(line, variant).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(game);
    }
    Ok(out)
}

/// `count` distinct random openings of `plies` plies (deterministic for a seed).
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Game> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 100 {
        tries += 1;
        let mut game = Game::new(variant);
        while game.moves().len() < plies && !game.is_over() {
            if game.pass_if_forced() {
                continue;
            }
            let moves: Vec<u8> = crate::bitboard::Bits(game.legal_moves()).collect();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let x = moves[(rng % moves.len() as u64) as usize];
            game.play(Move::Play(Square::from_index(x)))
                .expect("a legal move");
        }
        if !game.is_over() && seen.insert(*game.current()) {
            out.push(game);
        }
    }
    out
}

/// What [`balanced_openings`] looks for.
#[derive(Clone, Debug)]
pub struct OpeningsSpec {
    pub variant: Variant,
    pub count: usize,
    pub plies: usize,
    pub depth: u32,
    pub max_abs: i32,
    pub seed: u64,
    pub eval: crate::eval::Evaluator,
}

/// Balanced openings: random distinct lines of `plies` plies whose score, searched
/// `depth` plies deep without probable cuts, is within `max_abs` discs of even; `count`
/// of them (fewer if the candidates run out), each with its score. `progress(done)` after
/// every candidate searched.
pub fn balanced_openings(
    spec: &OpeningsSpec,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<(Game, i32)> {
    use rayon::prelude::*;
    let OpeningsSpec {
        variant,
        count,
        plies,
        depth,
        max_abs,
        seed,
        ref eval,
    } = *spec;
    let candidates = random_openings(variant, count * 4, plies, seed);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let limits = Limits {
        selectivity: Some(0),
        ..Limits::depth(depth)
    };
    let scored: Vec<(Game, i32)> = candidates
        .into_par_iter()
        .map_init(
            || {
                Engine::new(EngineOptions {
                    hash_mb: 16,
                    eval: eval.clone(),
                    ..EngineOptions::default()
                })
            },
            |engine, game| {
                engine.clear();
                let score = engine
                    .think_game(&game, &limits, &mut |_| {})
                    .map_or(0, |it| it.score);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                (game, score)
            },
        )
        .collect();
    scored
        .into_iter()
        .filter(|(_, v)| v.abs() <= max_abs)
        .take(count)
        .collect()
}
