//! `volte selfplay`.

use super::progress::CliProgress;
use crate::rules::Variant;
use anyhow::Result;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `volte selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Rules of the games.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Number of games the output file should hold (a rerun adds the missing ones).
    #[arg(long, short, default_value_t = 1000)]
    pub games: usize,
    /// Level of the midgame moves (depth; see the README's level table).
    #[arg(long, short, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub level: u32,
    /// Plies played at random at the start of each game: a number, or a range such as
    /// `10-30` from which each game draws its own.
    #[arg(long, default_value = "10")]
    pub random_plies: crate::jobs::selfplay::RandomPlies,
    /// Probability of a random move at each later midgame move.
    #[arg(long, default_value_t = 0.0)]
    pub epsilon: f64,
    /// From this many empties on both sides play perfectly, so the result is exact.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=24))]
    pub solve_empties: u32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// GGF file the games are appended to, one a line, each searched or solved move with
    /// its score (`B[F5/12]`: discs for the mover), which `volte train --search-weight` uses.
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub eval: super::args::EvalArgs,
    /// Weights for the exact solver's move ordering alone (default: those of --eval-file,
    /// else the shipped solver weights). Which of two equal moves the solver plays depends
    /// on them: `scripts/train.sh` gives the shipped `weights/othello-solver.vw` with
    /// earlier playing weights, so the games it plays are those the shipped weights learned
    /// from.
    #[arg(long, value_name = "FILE")]
    pub solver_eval_file: Option<PathBuf>,
    /// Threads (default: all cores; one game per thread).
    #[arg(long, short)]
    pub threads: Option<usize>,
}

pub fn run(args: SelfplayArgs) -> Result<()> {
    if let Some(t) = args.threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global();
    }
    if !(0.0..=1.0).contains(&args.epsilon) {
        anyhow::bail!("--epsilon must be between 0 and 1");
    }
    let mut eval = args.eval.evaluator()?;
    if let Some(path) = &args.solver_eval_file {
        let weights = crate::eval::PatternWeights::load(path)?;
        if !crate::eval::Evaluator::weights_serve(weights.variant(), args.variant) {
            anyhow::bail!(
                "{} holds weights for {}, not {}",
                path.display(),
                weights.variant(),
                args.variant
            );
        }
        eval = eval.with_solving_weights(std::sync::Arc::new(weights));
    }
    let started = Instant::now();
    let options = crate::jobs::selfplay::SelfplayOptions {
        variant: args.variant,
        games: args.games,
        limits: crate::engine::Limits::level(args.level),
        random_plies: args.random_plies,
        epsilon: args.epsilon,
        solve_empties: args.solve_empties,
        seed: args.seed,
        eval,
    };
    let report = crate::jobs::selfplay::run(&options, &args.output, &CliProgress::new())?;
    println!(
        "{}: {} games ({} already there, {} played) in {:.0} s",
        args.output.display(),
        report.resumed + report.played,
        report.resumed,
        report.played,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
