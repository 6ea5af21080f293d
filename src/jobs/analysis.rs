//! Game analysis: the engine's score of every position of a game, searched from the end
//! back to the start (so the table carries what later positions taught), and the error of
//! every move played (the played move searched on its own, as deep as the best one).

use crate::engine::{Engine, Limits};
use crate::engine::{Iteration, ResultKind};
use crate::game::Game;
use crate::square::{Color, Move};

/// What the analysis says about one ply.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyAnalysis {
    /// Ply number, from 0 (the start position), counting passes.
    pub ply: usize,
    pub mover: Color,
    /// The move played (a pass included).
    pub played: Move,
    /// The engine's best move and its score for the mover, before the move.
    pub best_move: Move,
    pub best_score: i32,
    /// The score of the move played, for the mover, searched as deep as the best move.
    pub played_score: i32,
    /// Discs the move lost against the best move (never negative: when the search of the
    /// move played finds more than the search of all moves did, the two disagree within
    /// their selectivity, and the move counts as best).
    pub error: i32,
    /// How sure the best score is.
    pub kind: ResultKind,
    pub depth: u32,
    pub probability: u8,
}

/// The search result of every position of `game` (index = ply), computed from the last
/// position back; `on_position(done, total)` reports progress. Finished positions have
/// `None`.
pub fn position_scores(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    on_position: &mut dyn FnMut(usize, usize),
) -> Vec<Option<Iteration>> {
    let states = game.states();
    let total = states.len();
    let mut out = vec![None; total];
    for (done, ply) in (0..total).rev().enumerate() {
        out[ply] = engine.think(game.variant(), &states[ply], limits, &mut |_| {});
        on_position(done + 1, total);
    }
    out
}

/// Analyses every move of `game`.
pub fn analyze(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
    on_position: &mut dyn FnMut(usize, usize),
) -> Vec<PlyAnalysis> {
    let scores = position_scores(engine, game, limits, on_position);
    let mut out = Vec::new();
    for (ply, record) in game.moves().iter().enumerate() {
        let Some(best) = &scores[ply] else {
            continue;
        };
        // A move other than the best is searched as the only root move, with the same
        // depth and endgame solve depths, so both scores share a horizon.
        let played_score = match record.mv {
            Move::Play(sq) if record.mv != best.best_move => {
                let only = Limits {
                    only_move: Some(sq),
                    ..*limits
                };
                engine
                    .think(game.variant(), &game.states()[ply], &only, &mut |_| {})
                    .map_or(best.score, |it| it.score)
            }
            _ => best.score,
        };
        let error = (best.score - played_score).max(0);
        out.push(PlyAnalysis {
            ply,
            mover: game.side_at(ply),
            played: record.mv,
            best_move: best.best_move,
            best_score: best.score,
            played_score,
            error,
            kind: best.kind,
            depth: best.depth,
            probability: best.probability,
        });
    }
    out
}
