//! `volte fit-classic`.

use anyhow::{Context, Result};
use std::time::Instant;

/// Options of `volte fit-classic`.
#[derive(clap::Args, Debug)]
pub struct FitClassicArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/data/wthor")]
    pub wthor: std::path::PathBuf,
    /// Each stage is fitted with the positions within this many empties of it.
    #[arg(long, default_value_t = 2)]
    pub window: u32,
    /// Ridge regularisation, relative to the number of positions.
    #[arg(long, default_value_t = 0.001)]
    pub ridge: f64,
    /// Where to write the table.
    #[arg(long, default_value = "src/eval/classic_weights.rs")]
    pub output: std::path::PathBuf,
}

/// Fits the classic weights and writes their Rust table.
pub fn run(args: &FitClassicArgs) -> Result<()> {
    let started = Instant::now();
    let games = crate::jobs::train::wthor_games(&args.wthor)?;
    eprintln!("fitting on {} finished WTHOR games", games.len());
    let (table, mae) = crate::jobs::train::fit_classic(&games, args.window, args.ridge);
    for n in (0..=60).step_by(4) {
        println!(
            "{n:>2} empties: mean absolute error {:.2} discs, weights {:?}",
            mae[n], table[n]
        );
    }
    let command = format!(
        "volte fit-classic --window {} --ridge {}",
        args.window, args.ridge
    );
    std::fs::write(
        &args.output,
        crate::jobs::train::weights_source(&table, games.len(), &command),
    )
    .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!(
        "wrote {} in {:.1} s",
        args.output.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
