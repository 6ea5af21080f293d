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
}

fn kind_mark(a: &PlyAnalysis) -> String {
    super::args::search_mark(a.kind, a.depth, a.probability)
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
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
        let mut annotated = game.clone();
        let records: Vec<MoveRecord> = annotated.moves().to_vec();
        while annotated.undo().is_some() {}
        for (record, a) in records.iter().zip(&plies) {
            annotated
                .play_record(MoveRecord {
                    eval: Some(f64::from(a.played_score)),
                    ..*record
                })
                .context("replaying the game")?;
        }
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
