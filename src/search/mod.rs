//! Search: the transposition table and the exact endgame solver. No I/O: results come
//! back as values, progress through callbacks.

pub mod endgame;
pub mod parameters;
pub mod tt;

/// A score above every real one (disc differences lie in -64..=64).
pub const SCORE_INF: i32 = 127;
