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
    /// A midgame depth instead of a level: the moves are searched this deep (at a level's
    /// 95% confidence) until --solve-empties, with no earlier endgame solve. A level solves
    /// from its own empties on (level 12 exactly from 22, win/loss/draw from 24), which
    /// takes most of a deep level's game; this keeps the midgame scores as deep for less.
    #[arg(long, conflicts_with = "level", value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: Option<u32>,
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
    /// File the games are appended to, each searched or solved move with its score (discs
    /// for the mover), which `volte train --search-weight` uses: GGF, one game a line
    /// (`B[F5/12]`; the options are recorded beside it in FILE.run), or, for a name ending
    /// in `.vgames`, volte's compact binary records (about 60 bytes a game; docs/data.md).
    /// A rerun with the same options goes on where the file ends; a file written with other
    /// options is refused.
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// Play only shard K of N: the K-th of N contiguous parts of the --games games (for
    /// clusters: scripts/cluster/). The N shards' GGF files concatenated in order are the
    /// file one run writes; `.vgames` shards are read together as they are.
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    pub shard: crate::jobs::shard::Shard,
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
    let file_name = |p: &Option<PathBuf>| {
        p.as_ref().map_or("shipped".to_string(), |p| {
            p.file_name().map_or(p.display().to_string(), |n| {
                n.to_string_lossy().into_owned()
            })
        })
    };
    // (Files written before --depth existed say `--level N`, and resume as they were.)
    let strength = match args.depth {
        Some(d) => format!("--depth {d}"),
        None => format!("--level {}", args.level),
    };
    let mut description = format!(
        "volte selfplay --variant {} {strength} --random-plies {} --epsilon {} \
         --solve-empties {} --seed {} --eval {} --eval-file {} --solver-eval-file {}",
        args.variant,
        args.random_plies,
        args.epsilon,
        args.solve_empties,
        args.seed,
        eval.kind(),
        file_name(&args.eval.eval_file),
        file_name(&args.solver_eval_file),
    );
    if !args.shard.is_whole() {
        description.push_str(&format!(" --games {} --shard {}", args.games, args.shard));
    }
    let options = crate::jobs::selfplay::SelfplayOptions {
        variant: args.variant,
        games: args.games,
        limits: midgame_limits(args.level, args.depth),
        random_plies: args.random_plies,
        epsilon: args.epsilon,
        solve_empties: args.solve_empties,
        seed: args.seed,
        eval,
        shard: args.shard,
        description,
    };
    let report = crate::jobs::selfplay::run(&options, &args.output, &CliProgress::new())?;
    if report.cut_bytes > 0 {
        eprintln!(
            "{}: cut off {} bytes of a game a stopped run left unfinished",
            args.output.display(),
            report.cut_bytes
        );
    }
    let range = args.shard.range(args.games);
    let shard = if args.shard.is_whole() {
        String::new()
    } else {
        format!(
            " (shard {}: games {} to {})",
            args.shard,
            range.start + 1,
            range.end
        )
    };
    println!(
        "{}: {} games{shard} ({} already there, {} played) in {:.0} s",
        args.output.display(),
        report.resumed + report.played,
        report.resumed,
        report.played,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The midgame moves' limits: `depth` plies at a level's confidence with no endgame solve
/// of its own (the game's solver takes over at --solve-empties), else the level.
fn midgame_limits(level: u32, depth: Option<u32>) -> crate::engine::Limits {
    match depth {
        Some(d) => crate::engine::Limits {
            selectivity: Some(crate::engine::LEVEL_SELECTIVITY),
            ..crate::engine::Limits::depth(d)
        },
        None => crate::engine::Limits::level(level),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_depth_searches_at_a_levels_confidence_and_solves_nothing_early() {
        let by_depth = midgame_limits(12, Some(12)).plan(24);
        let by_level = midgame_limits(12, None).plan(24);
        assert_eq!((by_depth.depth, by_level.depth), (12, 12));
        assert_eq!(by_depth.selectivity, by_level.selectivity);
        assert_eq!((by_depth.exact_empties, by_depth.wld_empties), (0, 0));
        assert_eq!((by_level.exact_empties, by_level.wld_empties), (22, 24));
    }
}
