//! `volte train`: fits the pattern evaluation to game records.

use super::progress::CliProgress;
use crate::eval::pattern::N_STAGES;
use crate::eval::{EvalKind, Evaluator, PatternWeights};
use crate::jobs::train::data;
use crate::jobs::train::network::NetworkOptions;
use crate::jobs::train::pattern::{self, TrainOptions};
use crate::rules::Variant;
use anyhow::{Result, bail};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Options of `volte train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Game files or folders: WTHOR `.wtb` and `.tsv`, Logistello `.gam` (or `.gam.gz`),
    /// GGF files, transcripts (`.txt`, one game a line). Only finished games of the
    /// variant are used; repeated games count once.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// More games (repeat the option for several files), of which only the positions with
    /// at most --extra-max-empties empties are used (labelled like the others), and none
    /// held out: self-play games from random openings (`volte selfplay`), which show the
    /// evaluation positions off the paths good players take, as the search meets them.
    /// Positions before a game's first scored move (its random opening, as `volte
    /// selfplay` records it) are left out, so only searched moves follow every position
    /// used, whatever the number of random plies (`.vgames` files and folders of them
    /// too).
    #[arg(long, value_name = "FILE")]
    pub extra: Vec<PathBuf>,
    /// The most empties of the positions taken from the --extra games: one value for all
    /// the files, or one per --extra file in their order (repeat the option).
    #[arg(long, default_values_t = [18], value_parser = clap::value_parser!(u32).range(1..=60))]
    pub extra_max_empties: Vec<u32>,
    /// The variant to train (transcripts are read under its rules).
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Where to write the weight file.
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// Label positions with at most this many empties by the exact solver, and the earlier
    /// positions of the game by the exact score of the first of them (0: final results
    /// only).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=22))]
    pub relabel_empties: u32,
    /// Hold out one game in N (by a hash of its moves) to measure the error.
    #[arg(long, default_value_t = 20)]
    pub test_every: u64,
    /// Each stage (two empties) is fitted with the positions of this many neighbouring
    /// stages on each side as well.
    #[arg(long, default_value_t = 1)]
    pub window: usize,
    /// L2 regularisation added to every weight's diagonal.
    #[arg(long, default_value_t = 4.0)]
    pub ridge: f64,
    /// Positions before the solved part whose move carries a score in the record (GGF
    /// `B[F5/12]`, as `volte selfplay` writes) are labelled by this share of that search
    /// score and the rest of the game's label (0: the game's label alone, 1: the score alone)
    #[arg(long, default_value_t = 0.0, value_parser = share)]
    pub search_weight: f64,
    /// Conjugate-gradient iterations per stage.
    #[arg(long, default_value_t = 60)]
    pub iterations: usize,
    /// Folder for solver labels and fitted stages; a rerun with the same games and
    /// options resumes from it.
    #[arg(long, default_value = "target/train-cache")]
    pub cache: PathBuf,
    /// Afterwards, solve this many held-out positions with 20 to --exact-max-empties
    /// empties exactly and report the error of the new weights and of the classic
    /// evaluation against them.
    #[arg(long, default_value_t = 0)]
    pub exact_check: usize,
    /// The most empties of the --exact-check positions (each empty square more makes a
    /// solve about 1.5-2 times slower).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(20..=30))]
    pub exact_max_empties: u32,
    /// Threads (default: all cores).
    #[arg(long, short)]
    pub threads: Option<usize>,
    /// What to fit: `linear` pattern tables, one per stage (solved exactly by stage), or a
    /// `network` over the same features (rows of 32 values summed, small heads per phase
    /// of four empties; fitted by Adam, docs/evaluation.md). --ridge, --window and
    /// --iterations are the linear fit's; --epochs, --batch, --learning-rate, --row-sets
    /// and --features the network's.
    #[arg(long, default_value = "linear", value_parser = ["linear", "network"])]
    pub model: String,
    /// Passes over the training positions (network).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..))]
    pub epochs: u32,
    /// Positions per Adam step (network).
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    pub batch: u32,
    /// Adam's step size at the start; it falls linearly to a tenth (network).
    #[arg(long, default_value_t = 2e-3, value_parser = step_size)]
    pub learning_rate: f32,
    /// Tables of rows (network): 1 shares the rows across all phases; 3, 5 or 15 give each
    /// run of consecutive phases (20, 12 or 4 empties) its own, fitted to its positions
    /// only. A position reads as many rows either way; the file grows with the sets.
    #[arg(long, default_value_t = 1, value_parser = row_sets)]
    pub row_sets: usize,
    /// The network's features: `classic`, the linear evaluation's (46 pattern instances,
    /// both mobilities, the parity: 49 rows a position), or `extended`, which adds the 8
    /// instances of two 10-square patterns, the corner triangle and the edge with its
    /// corners and the middle of the second row (57 rows a position, a table 1.7 times
    /// as large).
    #[arg(long, default_value = "classic", value_parser = ["classic", "extended"])]
    pub features: String,
}

fn row_sets(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if crate::eval::network::valid_sets(n) => Ok(n),
        _ => Err(format!("{s} row sets: give 1, 3, 5 or 15")),
    }
}

pub fn run(args: TrainArgs) -> Result<()> {
    let limits = &args.extra_max_empties;
    if limits.len() != 1 && limits.len() != args.extra.len() {
        bail!(
            "--extra-max-empties is given {} times for {} --extra files: give it once for \
             all of them or once for each",
            limits.len(),
            args.extra.len()
        );
    }
    if args.model == "linear" && (args.features != "classic" || args.row_sets != 1) {
        bail!(
            "--features and --row-sets shape a network: give them with --model network \
             (linear tables always read the classic features, one table a stage)"
        );
    }
    if let Some(t) = args.threads {
        // Only fails when a pool exists already, which is then used as it is.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global();
    }
    let started = Instant::now();
    let set = data::read_games(&args.inputs, args.variant)?;
    for (path, kept, skipped) in &set.files {
        eprintln!(
            "{}: {kept} games{}",
            path.display(),
            if *skipped > 0 {
                format!(" ({skipped} skipped: unfinished, another variant, repeated or unreadable)")
            } else {
                String::new()
            }
        );
    }
    eprintln!(
        "{} finished {} games read in {:.1} s",
        set.games.len(),
        args.variant,
        started.elapsed().as_secs_f64()
    );
    let n_main = set.games.len();
    let mut games = set.games;
    let mut limited = Vec::new();
    if !args.extra.is_empty() {
        let extra = data::read_games(&args.extra, args.variant)?;
        for (k, &start) in extra.input_starts.iter().enumerate() {
            let end = extra.input_starts.get(k + 1).copied();
            let max_empties = limits[k.min(limits.len() - 1)];
            eprintln!(
                "{} extra games (their positions with at most {max_empties} empties)",
                end.unwrap_or(extra.games.len()) - start
            );
            limited.push((games.len() + start, max_empties));
        }
        games.extend(extra.games);
    }
    let options = TrainOptions {
        variant: args.variant,
        relabel_empties: args.relabel_empties,
        test_every: args.test_every,
        window: args.window,
        ridge: args.ridge,
        search_weight: args.search_weight,
        iterations: args.iterations,
        cache: Some(args.cache.clone()),
        limited,
        network: (args.model == "network").then(|| NetworkOptions {
            epochs: args.epochs as usize,
            batch: args.batch as usize,
            learning_rate: args.learning_rate,
            sets: args.row_sets,
            extended: args.features == "extended",
            ..NetworkOptions::default()
        }),
    };
    let progress = CliProgress::new();
    let out = pattern::train(&games, &options, &progress)?;
    println!(
        "{} training games, {} held out; {} games labelled by the solver from {} empties",
        out.games_train, out.games_test, out.relabelled_games, args.relabel_empties
    );
    println!("stage  empties  train rows  test rows  MAE train  MAE test");
    for (s, r) in out.stages.iter().enumerate() {
        println!(
            "{s:>5}  {:>3}-{:<3}  {:>10}  {:>9}  {:>9.2}  {:>8.2}{}",
            2 * s + 1,
            2 * s + 2,
            r.n_train,
            r.n_test,
            r.mae_train,
            r.mae_test,
            if r.fitted { "" } else { "  (cached)" }
        );
    }
    let weighted = |f: fn(&pattern::StageReport) -> (f64, usize)| {
        let (e, n) = out
            .stages
            .iter()
            .map(f)
            .fold((0.0, 0), |(e, n), (x, m)| (e + x * m as f64, n + m));
        e / n.max(1) as f64
    };
    println!(
        "all stages: MAE train {:.2}, test {:.2} discs",
        weighted(|r| (r.mae_train, r.n_train)),
        weighted(|r| (r.mae_test, r.n_test))
    );
    debug_assert_eq!(out.stages.len(), N_STAGES);
    out.weights.save(&args.output)?;
    let size = std::fs::metadata(&args.output).map_or(0, |m| m.len());
    println!(
        "wrote {} ({:.2} MB) in {:.0} s",
        args.output.display(),
        size as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    if args.exact_check > 0 {
        let trained = Evaluator::with_weights(Arc::new(PatternWeights::load(&args.output)?));
        let evaluators = [trained, Evaluator::new(EvalKind::Classic)];
        let check = pattern::exact_check(
            &games[..n_main],
            &options,
            &evaluators,
            args.exact_check,
            args.exact_max_empties,
            &progress,
        )?;
        println!(
            "held-out positions with 20-{} empties solved exactly: {}; mean absolute error: \
             trained {:.2}, classic {:.2} discs",
            args.exact_max_empties, check.n, check.mae[0], check.mae[1]
        );
    }
    Ok(())
}

fn step_size(text: &str) -> Result<f32, String> {
    let v: f32 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if v.is_finite() && v > 0.0 && v <= 1.0 {
        Ok(v)
    } else {
        Err(format!("{v} is not a step size above 0 and at most 1"))
    }
}

fn share(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is not between 0 and 1"))
    }
}
