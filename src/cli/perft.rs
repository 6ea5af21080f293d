//! `volte perft`.

use super::args::parse_game_input;
use crate::game::Game;
use crate::jobs::perft;
use crate::rules::Variant;
use crate::square::Move;
use anyhow::Result;
use std::io::IsTerminal;
use std::time::Instant;

/// Options of `volte perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (1-60).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Start from this position instead of the variant's start: 64 cells a1..h8
    /// (X/*, O, -) then the side to move (`"<cells> X"`), a transcript played from
    /// the start (`f5d6c3`), or a GGF game (its final position).
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Rules: othello, anti or reversi1889.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Print the leaf count under each first move at the final depth.
    #[arg(long)]
    pub divide: bool,
    /// Only count the final depth (default: print every depth from 1 up).
    #[arg(long)]
    pub only: bool,
    /// Threads; the tree is split a few plies down.
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
}

/// Counts the leaves to each depth (or the last only), optionally divided by first move.
pub fn run(args: &PerftArgs) -> Result<()> {
    let PerftArgs {
        depth,
        ref position,
        variant,
        divide,
        only,
        threads,
    } = *args;
    let position = position.as_deref();
    let game = match position {
        Some(p) => parse_game_input(p, variant)?,
        None => Game::new(variant),
    };
    let state = *game.current();
    let variant = game.variant();
    println!(
        "perft {variant}, {} to move, {} empties, {threads} thread{}",
        game.side_to_move(),
        state.pos.n_empties(),
        if threads == 1 { "" } else { "s" }
    );
    let first = if only { depth } else { 1 };
    let show_progress = std::io::stderr().is_terminal();
    let mut total_leaves = 0u64;
    let mut total_s = 0.0;
    for d in first..=depth {
        let bar = (show_progress && d >= 11).then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "depth {msg} [{bar:30}] {pos}/{len} subtrees, {elapsed} (eta {eta})",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.set_message(d.to_string());
            bar
        });
        let progress = |done: usize, total: usize| {
            if let Some(b) = &bar {
                b.set_length(total as u64);
                b.set_position(done as u64);
            }
        };
        let start = Instant::now();
        let leaves = perft::perft_parallel(variant, &state, d, threads, &progress);
        let secs = start.elapsed().as_secs_f64();
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        total_leaves += leaves;
        total_s += secs;
        println!(
            "depth {d:2}: {leaves:>15} leaves {secs:9.3} s {:9.1} M leaves/s",
            leaves as f64 / secs.max(1e-9) / 1e6
        );
    }
    if depth > first {
        println!(
            "total   : {total_leaves:>15} leaves {total_s:9.3} s {:9.1} M leaves/s",
            total_leaves as f64 / total_s.max(1e-9) / 1e6
        );
    }
    if divide {
        println!("divide at depth {depth}:");
        for (mv, n) in perft::divide(variant, &state, depth) {
            println!(
                "  {:<4} {n}",
                match mv {
                    Move::Pass => "pass".to_string(),
                    Move::Play(sq) => sq.to_string(),
                }
            );
        }
    }
    Ok(())
}
