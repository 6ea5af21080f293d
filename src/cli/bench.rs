//! `volte bench`.

use super::args::search_mark;
use crate::engine::{Engine, EngineOptions, Limits, SELECTIVITY_PERCENT};
use crate::jobs::bench::{self, BENCH_DEPTH, BenchPosition};
use anyhow::Result;
use clap::Args;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Midgame depth of every search.
    #[arg(default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth: u32,
    /// The midgame depth given as an option (the same as DEPTH).
    #[arg(long = "depth", value_name = "D", conflicts_with = "depth",
          value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth_option: Option<u32>,
    /// Test the accuracy of the search instead: for each problem of this OBF file with
    /// exact scores (`MOVE:score` fields, every legal move's for the best-move rate and the
    /// loss to count every position), search it at --depth or --move-time, a fresh table
    /// each, and compare the move played and the score with the exact ones. Prints one line
    /// a problem, then the best-move rate, the mean loss of the moves played, the mean
    /// absolute score error, the share of scores within 3 and 6 discs, nodes and time.
    #[arg(long, value_name = "FILE.obf")]
    pub accuracy: Option<std::path::PathBuf>,
    /// Rules of the --accuracy problems.
    #[arg(long, short, default_value = "othello")]
    pub variant: crate::rules::Variant,
    /// Threads (the node count is only reproducible with one).
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Multi-ProbCut selectivity: 0 = off, 1-5 = 99%, 98%, 95%, 87%, 73% confidence
    /// (default: the engine's, 5 = 73%).
    #[arg(long, short, value_parser = clap::value_parser!(u8).range(0..=5))]
    pub selectivity: Option<u8>,
    /// Think this many seconds on each position instead of searching to DEPTH (less the
    /// latency kept back for a GUI: 20 ms, at most a twentieth of the time), and report
    /// the depth reached (time to depth; the node count is then not reproducible).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub move_time: Option<f64>,
    #[command(flatten)]
    pub eval: super::args::EvalArgs,
}

fn parse_seconds(text: &str) -> std::result::Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t > 0.0)
        .ok_or_else(|| format!("'{text}' is not a number of seconds above 0"))
}

/// The bench's engine (its table size, the threads and evaluation asked for) and limits
/// (the depth or the time a position, and the selectivity).
fn engine_and_limits(args: &BenchArgs) -> Result<(Engine, Limits)> {
    let engine = Engine::new(EngineOptions {
        hash_mb: bench::BENCH_HASH_MB,
        threads: args.threads,
        eval: args.eval.evaluator()?,
        ..EngineOptions::default()
    });
    let limits = match args.move_time {
        Some(t) => Limits {
            selectivity: args.selectivity,
            move_time: Some(std::time::Duration::from_secs_f64(t)),
            ..Limits::default()
        },
        None => Limits {
            selectivity: args.selectivity,
            ..Limits::depth(args.depth)
        },
    };
    Ok((engine, limits))
}

pub fn run(mut args: BenchArgs) -> Result<()> {
    if let Some(d) = args.depth_option {
        args.depth = d;
    }
    let limit = match args.move_time {
        Some(t) => format!("{t} s a position"),
        None => format!("depth {}", args.depth),
    };
    if let Some(path) = args.accuracy.clone() {
        return accuracy(&args, &path, &limit);
    }
    println!(
        "bench: {} positions, {limit}, {} thread{}",
        bench::BENCH_POSITIONS.len(),
        args.threads,
        if args.threads == 1 { "" } else { "s" }
    );
    println!(
        "{:>3} {:>7} {:>5} {:>6} {:>13} {:>9} {:>9}  search",
        "#", "empties", "move", "score", "nodes", "time(s)", "Mnodes/s"
    );
    let mut print = |p: &BenchPosition| {
        let (mv, score, search) =
            p.result
                .as_ref()
                .map_or(("--".to_string(), 0, String::new()), |r| {
                    (
                        r.best_move.to_string(),
                        r.score,
                        search_mark(r.kind, r.depth, r.probability),
                    )
                });
        println!(
            "{:>3} {:>7} {:>5} {:>+6} {:>13} {:>9.3} {:>9.2}  {search}",
            p.index + 1,
            p.n_empties,
            mv,
            score,
            p.nodes,
            p.time.as_secs_f64(),
            p.nodes as f64 / p.time.as_secs_f64().max(1e-9) / 1e6
        );
    };
    let (engine, limits) = engine_and_limits(&args)?;
    let results = bench::run_with(&engine, &limits, &mut print);
    let nodes: u64 = results.iter().map(|p| p.nodes).sum();
    let secs: f64 = results.iter().map(|p| p.time.as_secs_f64()).sum();
    println!("Total time (s): {secs:.3}");
    println!("Nodes searched: {nodes}");
    println!("Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    if args.move_time.is_some() {
        // The midgame depth of the searches that did not reach the end of the game.
        let depths: Vec<u32> = results
            .iter()
            .filter_map(|p| p.result.as_ref())
            .filter(|r| r.kind == crate::engine::ResultKind::Midgame)
            .map(|r| r.depth)
            .collect();
        if !depths.is_empty() {
            let mean = f64::from(depths.iter().sum::<u32>()) / depths.len() as f64;
            let selectivity = args
                .selectivity
                .unwrap_or(crate::engine::DEFAULT_SELECTIVITY);
            println!(
                "Depth reached: mean {mean:.1} over {} midgame positions (probable cuts at {}%)",
                depths.len(),
                SELECTIVITY_PERCENT[usize::from(selectivity)]
            );
        }
    }
    Ok(())
}

fn accuracy(args: &BenchArgs, path: &std::path::Path, limit: &str) -> Result<()> {
    use crate::formats::obf;
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let mut problems = Vec::new();
    for p in obf::parse_file(&text) {
        problems.push(p.map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?);
    }
    let unscored = problems.iter().filter(|p| p.scores.is_empty()).count();
    if unscored == problems.len() {
        anyhow::bail!(
            "{}: no problem has exact scores (`MOVE:score` fields); `volte solve FILE \
             --all-moves` gives them",
            path.display()
        );
    }
    println!(
        "accuracy: {} problems of {}, {limit}, {} thread{}{}",
        problems.len() - unscored,
        path.display(),
        args.threads,
        if args.threads == 1 { "" } else { "s" },
        if unscored > 0 {
            format!(" ({unscored} without scores left out)")
        } else {
            String::new()
        }
    );
    println!(
        "{:>5} {:>7} {:>5} {:>6} {:>5} {:>5} {:>5} {:>12} {:>8}  search",
        "line", "empties", "move", "score", "exact", "best", "loss", "nodes", "time(s)"
    );
    let (engine, limits) = engine_and_limits(args)?;
    let mut print = |p: &bench::AccuracyPosition| {
        let Some(r) = &p.result else {
            println!(
                "{:>5} {:>7}  (no move: the mover must pass)",
                p.line, p.n_empties
            );
            return;
        };
        let loss = p.loss().map_or("?".to_string(), |l| l.to_string());
        println!(
            "{:>5} {:>7} {:>5} {:>+6} {:>+5} {:>+5} {:>5} {:>12} {:>8.3}  {}",
            p.line,
            p.n_empties,
            r.best_move,
            r.score,
            p.best,
            p.played_exact.map_or("?".to_string(), |s| format!("{s:+}")),
            loss,
            p.nodes,
            p.time.as_secs_f64(),
            search_mark(r.kind, r.depth, r.probability)
        );
    };
    let results = bench::accuracy(&engine, args.variant, &problems, &limits, &mut print);
    let s = bench::AccuracySummary::of(&results);
    let secs = s.time.as_secs_f64();
    println!(
        "best move: {:.1}% ({} of {}{})",
        100.0 * s.best_moves as f64 / s.scored_moves.max(1) as f64,
        s.best_moves,
        s.scored_moves,
        if s.scored_moves < s.positions {
            format!(
                "; {} moves played the file does not score",
                s.positions - s.scored_moves
            )
        } else {
            String::new()
        }
    );
    println!("mean loss of the moves played: {:.2} discs", s.mean_loss);
    println!(
        "score error: mean {:.2} discs, within 3 discs {:.1}%, within 6 discs {:.1}%",
        s.score_mae,
        100.0 * s.within_3,
        100.0 * s.within_6
    );
    println!(
        "nodes {}, time {secs:.2} s ({:.3} s a position, {:.1} M nodes/s)",
        s.nodes,
        secs / s.positions.max(1) as f64,
        s.nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
