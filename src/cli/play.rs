//! `volte play`.

use super::args::{EngineArgs, parse_game_input};
use crate::game::Game;
use crate::rules::Variant;
use anyhow::{Context, Result};
use std::io::IsTerminal;

/// Options of `volte play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Rules.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// volte's level (1-60).
    #[arg(long, short, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: u32,
    /// The colour you play: black, white, both (volte only gives hints) or none (watch
    /// volte play itself).
    #[arg(long, short, default_value = "black")]
    pub color: crate::jobs::play::Seats,
    /// Start from this position, transcript or GGF game (or a file with one).
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Plays in the terminal until the game ends or the player quits.
pub fn run(args: &PlayArgs) -> Result<()> {
    let game = match &args.position {
        Some(p) => parse_game_input(p, args.variant)?,
        None => Game::new(args.variant),
    };
    let options = crate::jobs::play::PlayOptions {
        level: args.level,
        seats: args.color,
        colors: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        engine: args.engine.options()?,
    };
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    crate::jobs::play::run(&mut input, &mut output, game, options).context("terminal input/output")
}
