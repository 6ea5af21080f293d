//! `volte bench`.

use crate::engine::{Engine, EngineOptions, Limits};
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
    /// (default: the engine's, 3 = 95%).
    #[arg(long, short, value_parser = clap::value_parser!(u8).range(0..=5))]
    pub selectivity: Option<u8>,
    #[command(flatten)]
    pub eval: super::args::EvalArgs,
}

pub fn run(args: BenchArgs) -> Result<()> {
    println!(
        "bench: {} positions, depth {}, {} thread{}",
        bench::BENCH_POSITIONS.len(),
        args.depth,
        args.threads,
        if args.threads == 1 { "" } else { "s" }
    );
    println!(
        "{:>3} {:>7} {:>5} {:>6} {:>13} {:>9} {:>9}",
        "#", "empties", "move", "score", "nodes", "time(s)", "Mnodes/s"
    );
    let mut print = |p: &BenchPosition| {
        let (mv, score) = p.result.as_ref().map_or(("--".to_string(), 0), |r| {
            (r.best_move.to_string(), r.score)
        });
        println!(
            "{:>3} {:>7} {:>5} {:>+6} {:>13} {:>9.3} {:>9.2}",
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
    let limits = Limits {
        selectivity: args.selectivity,
        ..Limits::depth(args.depth)
    };
    let results = bench::run_with(&engine, &limits, &mut print);
    let nodes: u64 = results.iter().map(|p| p.nodes).sum();
    let secs: f64 = results.iter().map(|p| p.time.as_secs_f64()).sum();
    println!("Total time (s): {secs:.3}");
    println!("Nodes searched: {nodes}");
    println!("Nodes/second: {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}
