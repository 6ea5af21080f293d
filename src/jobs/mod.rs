//! Jobs: long computations and games built on the engine (matches, training, self-play,
//! book building, analysis, the benchmark, Multi-ProbCut fitting, perft, the terminal
//! game). They reach the search only through [`crate::engine`] and report progress
//! through [`crate::progress`]; the command line prints.

pub mod analysis;
pub mod arena;
pub mod bench;
pub mod bookbuild;
pub mod calibrate;
pub mod perft;
pub mod play;
pub mod report;
pub mod selfplay;
pub mod shard;
pub mod train;
