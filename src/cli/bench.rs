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

pub fn run(args: BenchArgs) -> Result<()> {
    let limit = match args.move_time {
        Some(t) => format!("{t} s a position"),
        None => format!("depth {}", args.depth),
    };
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
