//! volte: an Othello/Reversi engine — Othello, Anti and Reversi 1889.
//!
//! Layers, lowest first (a module imports only from the layers below it):
//! [`square`], [`bitboard`] and [`progress`]; [`board`], [`rules`], [`stability`] and [`game`];
//! [`formats`]; [`eval`], [`book`] and [`perft`]; [`search`]; [`engine`]; [`analysis`], [`arena`],
//! [`bench`], [`calibrate`], [`train`], [`selfplay`] and [`bookbuild`]; [`protocol`] and [`play`];
//! [`cli`].

pub mod analysis;
pub mod arena;
pub mod bench;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod bookbuild;
pub mod calibrate;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod game;
pub mod perft;
pub mod play;
pub mod progress;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod square;
pub mod stability;
pub mod train;
