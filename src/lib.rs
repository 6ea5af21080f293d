//! volte: an Othello/Reversi engine — Othello, Anti and Reversi 1889.
//!
//! Layers, lowest first (a module imports only from the layers below it):
//! - core: [`square`], [`bitboard`] and [`progress`]; [`board`], [`rules`], [`stability`]
//!   and [`game`]; [`formats`]; [`eval`] and [`book`];
//! - the search (private: reached through the engine);
//! - [`engine`]: the one door to the search;
//! - [`jobs`]: matches, training, self-play, book building, analysis, bench, perft and
//!   the terminal game;
//! - front ends: [`protocol`] (NBoard, GTP) and the command line (`cli`, for the binary).
//!
//! `docs/architecture.md` in the repository describes each layer.

pub mod bitboard;
pub mod board;
pub mod book;
#[doc(hidden)]
pub mod cli;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod game;
pub mod jobs;
pub mod progress;
pub mod protocol;
pub mod rules;
mod search;
pub mod square;
pub mod stability;
