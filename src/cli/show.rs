//! `volte show`.

use super::args::parse_game_input;
use crate::formats::ggf;
use crate::rules::Variant;
use anyhow::Result;

/// Options of `volte show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The position, transcript, GGF game, or a file name. Quote it when it has spaces:
    /// `volte show "--XXXXX--OOO...OOOOO-- X"`.
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Rules for positions and transcripts: othello, anti or reversi1889 (GGF games
    /// carry their own).
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Also print the game as GGF.
    #[arg(long)]
    pub ggf: bool,
}

/// Draws the board of the input, its moves, and the game as GGF when asked.
pub fn run(args: &ShowArgs) -> Result<()> {
    let (input, variant, as_ggf) = (&args.input, args.variant, args.ggf);
    let game = parse_game_input(input, variant)?;
    print!("{}", game.render());
    if !game.moves().is_empty() {
        println!("Moves: {}", game.transcript());
    }
    if as_ggf {
        println!("{}", ggf::write(&game));
    }
    Ok(())
}
