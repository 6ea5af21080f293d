//! `volte analyze`.

use super::args::parse_game_input;
use crate::engine::{Engine, EngineOptions, Limits};
use crate::formats::ggf;
use crate::game::MoveRecord;
use crate::jobs::analysis::{self, PlyAnalysis};
use crate::jobs::report;
use crate::rules::Variant;
use crate::square::{Color, Move};
use anyhow::{Context, Result};
use clap::Args;
use std::io::IsTerminal;

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The game: a transcript, a GGF game, or a file holding one.
    #[arg(allow_hyphen_values = true)]
    pub game: String,
    /// Rules of a transcript (GGF games carry their own).
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Engine level (midgame depth; exact endgame from 2*level empties up to level 10,
    /// then level+10).
    #[arg(long, short, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: u32,
    /// Fixed midgame depth instead of a level.
    #[arg(long, short, conflicts_with = "level", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Search threads.
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = crate::engine::DEFAULT_HASH_MB)]
    pub hash_mb: usize,
    #[command(flatten)]
    pub eval: super::args::EvalArgs,
    /// Also write the game as GGF, each move with the engine's score of it, to this file.
    #[arg(long, value_name = "FILE")]
    pub ggf: Option<String>,
    /// Also draw the analysis as an SVG chart: the score of every position in black's view
    /// over the plies, the exactly solved part shaded, each move that lost discs marked
    /// (black's filled, white's hollow, the area by the loss), and the players' own
    /// evaluations when the game records them.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
    /// Also write one self-contained HTML page: the chart and a table of every move.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// Analyse every game of GAME (a GGF file of games, or a file of transcripts, one a
    /// line) and write each, its moves scored by the engine, as GGF to FILE, one a line in
    /// input order (a game that cannot be read: a `% game N error` line). The file depends
    /// only on the input and the options (one thread, a fresh table for each game); a
    /// killed run started again goes on after the last whole game, and a file written with
    /// other options is refused (FILE.run records them).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["ggf", "svg", "html"])]
    pub output: Option<std::path::PathBuf>,
    /// With --output: analyse only shard K of N of the games, a contiguous part; the N
    /// shards' files concatenated in order are the file of one run (scripts/cluster/).
    #[arg(long, value_name = "K/N", default_value = "1/1", requires = "output")]
    pub shard: crate::jobs::shard::Shard,
}

fn kind_mark(a: &PlyAnalysis) -> String {
    super::args::search_mark(a.kind, a.depth, a.probability)
}

/// The games of a batch input: GGF games, or one transcript (or position) a line.
fn read_games(input: &str, variant: Variant) -> Result<Vec<Result<crate::game::Game, String>>> {
    let text = super::args::read_input(input)?;
    if text.trim_start().starts_with("(;") {
        return Ok(ggf::parse_games(&text)
            .into_iter()
            .map(|g| g.map_err(|e| e.to_string()))
            .collect());
    }
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !(t.is_empty() || t.starts_with('%') || t.starts_with('#'))
        })
        .map(|(i, l)| {
            crate::formats::parse_any(l.trim(), variant).map_err(|e| format!("line {}: {e}", i + 1))
        })
        .collect())
}

/// `--output`: every game of the input analysed and written as scored GGF.
fn run_batch(args: &AnalyzeArgs, output: &std::path::Path) -> Result<()> {
    use std::io::Write;
    if args.threads != 1 {
        anyhow::bail!(
            "--output needs --threads 1, so that the scores do not depend on thread timing"
        );
    }
    let games = read_games(&args.game, args.variant)?;
    let range = args.shard.range(games.len());
    let description = format!(
        "volte analyze {} --variant {} {} {}{}",
        args.game,
        args.variant,
        match args.depth {
            Some(d) => format!("--depth {d}"),
            None => format!("--level {}", args.level),
        },
        args.eval.describe(),
        args.shard.suffix()
    );
    let mut out = crate::jobs::shard::open_line_output(output, &description)?;
    let done = out.lines.len();
    if done > range.len() {
        anyhow::bail!(
            "{} already holds {done} lines, more than the {} games to analyse: not appended to",
            output.display(),
            range.len()
        );
    }
    if out.cut_bytes > 0 {
        eprintln!(
            "{}: cut off {} bytes of a game a stopped run left unfinished",
            output.display(),
            out.cut_bytes
        );
    }
    let engine = Engine::new(EngineOptions {
        hash_mb: args.hash_mb,
        threads: 1,
        eval: args.eval.evaluator()?,
        ..EngineOptions::default()
    });
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::level(args.level),
    };
    let total = range.len();
    for (k, number) in range.clone().enumerate().skip(done) {
        let line = match &games[number] {
            Err(e) => format!("% game {} error: {e}", number + 1),
            Ok(game) => {
                engine.clear();
                let plies = analysis::analyze(&engine, game, &limits, &mut |_, _| {});
                ggf::write(&scored(game, &plies)?).trim_end().to_string()
            }
        };
        out.file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| out.file.sync_data())
            .with_context(|| format!("cannot write {}", output.display()))?;
        eprintln!("analysed {}/{total} games", k + 1);
    }
    crate::jobs::shard::mark_complete(output, total)?;
    println!(
        "{}: {total} games analysed ({done} already there)",
        output.display()
    );
    Ok(())
}

/// `game` with the engine's score of each move played as its evaluation.
fn scored(game: &crate::game::Game, plies: &[PlyAnalysis]) -> Result<crate::game::Game> {
    let mut annotated = game.clone();
    let records: Vec<MoveRecord> = annotated.moves().to_vec();
    while annotated.undo().is_some() {}
    for (ply, record) in records.iter().enumerate() {
        let eval = plies
            .iter()
            .find(|a| a.ply == ply)
            .map(|a| f64::from(a.played_score));
        annotated
            .play_record(MoveRecord { eval, ..*record })
            .context("replaying the game")?;
    }
    Ok(annotated)
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
    if let Some(output) = args.output.clone() {
        return run_batch(&args, &output);
    }
    let game = parse_game_input(&args.game, args.variant)?;
    let engine = Engine::new(EngineOptions {
        hash_mb: args.hash_mb,
        threads: args.threads,
        eval: args.eval.evaluator()?,
        ..EngineOptions::default()
    });
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::level(args.level),
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(game.states().len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "analysing [{bar:30}] {pos}/{len} positions, {elapsed} (eta {eta})",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar
    });
    let plies = analysis::analyze(&engine, &game, &limits, &mut |done, _| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    println!(
        "{} game, {} plies, {}",
        game.variant(),
        game.moves().len(),
        match args.depth {
            Some(d) => format!("depth {d}"),
            None => format!("level {}", args.level),
        }
    );
    println!(
        "{:>4} {:>5} {:>6} {:>6} {:>5} {:>6} {:>5}  search",
        "ply", "side", "played", "score", "best", "best", "error"
    );
    let mut errors = [0i32; 2];
    let mut counts = [0usize; 2];
    for a in &plies {
        if a.played == Move::Pass {
            println!(
                "{:>4} {:>5} {:>6} {:>+6}",
                a.ply + 1,
                a.mover.to_string(),
                "pass",
                a.played_score
            );
            continue;
        }
        let side = usize::from(a.mover == Color::White);
        errors[side] += a.error;
        counts[side] += 1;
        println!(
            "{:>4} {:>5} {:>6} {:>+6} {:>5} {:>+6} {:>5}  {}",
            a.ply + 1,
            a.mover.to_string(),
            a.played.to_string(),
            a.played_score,
            a.best_move.to_string(),
            a.best_score,
            if a.error > 0 {
                a.error.to_string()
            } else {
                String::new()
            },
            kind_mark(a)
        );
    }
    for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
        println!(
            "{color}: {} moves, total error {} discs, mean {:.2}",
            counts[i],
            errors[i],
            errors[i] as f64 / counts[i].max(1) as f64
        );
    }
    if let Some(path) = &args.ggf {
        let annotated = scored(&game, &plies)?;
        std::fs::write(path, ggf::write(&annotated) + "\n")
            .with_context(|| format!("cannot write {path}"))?;
        println!("wrote {path}");
    }
    let title = match (&game.info.black, &game.info.white) {
        (Some(b), Some(w)) => format!("{b} (black) vs {w} (white)"),
        _ => format!("{} game", game.variant()),
    };
    let title = match game.final_score_black() {
        Some(r) => format!("{title}, {r:+} for black"),
        None => title,
    };
    let search = match args.depth {
        Some(d) => format!("analysed by volte at depth {d}"),
        None => format!("analysed by volte at level {}", args.level),
    };
    if let Some(path) = &args.svg {
        std::fs::write(path, report::analysis_svg(&game, &plies, &title))
            .with_context(|| format!("cannot write {path}"))?;
        println!("wrote {path}");
    }
    if let Some(path) = &args.html {
        std::fs::write(path, report::analysis_html(&game, &plies, &title, &search))
            .with_context(|| format!("cannot write {path}"))?;
        println!("wrote {path}");
    }
    Ok(())
}
