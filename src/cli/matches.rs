//! `volte match`.

use super::read_input;
use crate::arena::{self, EngineSpec, MatchGame};
use crate::formats::ggf;
use crate::rules::Variant;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first engine: comma-separated key=value pairs (depth, level, time [s per move],
    /// nodes, selectivity [0-5], eval, hash [MiB], threads, name), e.g. `name=d8,depth=8`.
    #[arg(long)]
    pub first: EngineSpec,
    /// The second engine, in the same form.
    #[arg(long)]
    pub second: EngineSpec,
    /// Openings, one transcript a line (e.g. ../shared/data/openings/xot-large.txt).
    /// Without it, random openings of --random-plies plies.
    #[arg(long)]
    pub openings: Option<String>,
    /// Number of games (twice the number of openings used).
    #[arg(long, short, default_value_t = 100)]
    pub games: usize,
    /// First opening of the file to use (from 1).
    #[arg(long, default_value_t = 1)]
    pub first_opening: usize,
    /// Plies of random openings.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Seed of random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Games played at once.
    #[arg(long, short, default_value_t = 1)]
    pub concurrency: usize,
    /// Write every game as GGF, one a line, to this file.
    #[arg(long, value_name = "FILE")]
    pub output: Option<String>,
}

pub fn run(args: MatchArgs) -> Result<()> {
    let pairs = args.games.div_ceil(2).max(1);
    let openings = match &args.openings {
        Some(path) => {
            let text = read_input(path)?;
            let all = arena::parse_openings(&text, args.variant)
                .map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            let start = args.first_opening.saturating_sub(1);
            if start + pairs > all.len() {
                bail!(
                    "{path} has {} openings; {} from number {} are needed",
                    all.len(),
                    pairs,
                    args.first_opening
                );
            }
            all[start..start + pairs].to_vec()
        }
        None => {
            let o = arena::random_openings(args.variant, pairs, args.random_plies, args.seed);
            if o.len() < pairs {
                bail!("could only make {} distinct random openings", o.len());
            }
            o
        }
    };
    println!(
        "{} vs {}: {} games ({} openings, colours swapped), {}",
        args.first,
        args.second,
        openings.len() * 2,
        openings.len(),
        args.variant
    );
    let total = openings.len() * 2;
    let progress = Mutex::new(arena::Tally::default());
    let tty = std::io::stderr().is_terminal();
    let games = arena::run_match(
        &args.first,
        &args.second,
        &openings,
        args.concurrency,
        &|g: &MatchGame| {
            let mut t = progress.lock().unwrap_or_else(|e| e.into_inner());
            t.add(g.first_score);
            let line = format!(
                "{}/{} games: +{} ={} -{} ({:.1}%)",
                t.games(),
                total,
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score()
            );
            if tty {
                eprint!("\r{line}   ");
            } else if t.games() % 20 == 0 || t.games() as usize == total {
                eprintln!("{line}");
            }
        },
    );
    if tty {
        eprintln!();
    }
    let mut tally = arena::Tally::default();
    let mut pair_results = [0u32; 3];
    for pair in games.chunks(2) {
        let sum: i32 = pair.iter().map(|g| g.first_score.signum()).sum();
        pair_results[(1 - sum.signum()) as usize] += 1;
        for g in pair {
            tally.add(g.first_score);
        }
    }
    println!(
        "{}: +{} ={} -{} of {} games, score {:.1}%, mean disc difference {:+.2}",
        args.first,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.games(),
        100.0 * tally.score(),
        tally.mean_discs()
    );
    if let Some((elo, lo, hi)) = tally.elo() {
        println!("Elo difference: {elo:+.0} (95% interval {lo:+.0} to {hi:+.0})");
    }
    println!(
        "opening pairs: {} won, {} even, {} lost by {}",
        pair_results[0], pair_results[1], pair_results[2], args.first
    );
    if let Some(path) = &args.output {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {path}"))?,
        );
        for g in &games {
            let mut game = g.game.clone();
            let (black, white) = if g.first_is_black {
                (&args.first, &args.second)
            } else {
                (&args.second, &args.first)
            };
            game.info.black = Some(black.name.clone());
            game.info.white = Some(white.name.clone());
            writeln!(f, "{}", ggf::write(&game)).with_context(|| format!("writing {path}"))?;
        }
        f.flush().with_context(|| format!("writing {path}"))?;
        println!("wrote {} games to {path}", games.len());
    }
    Ok(())
}
