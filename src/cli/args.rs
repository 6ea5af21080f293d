//! What several commands share: the engine, protocol, evaluation and book options, and
//! reading a position, transcript or game given on the command line or in a file.

use crate::formats;
use crate::game::Game;
use crate::rules::Variant;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// The engine options of the commands that play: threads, table, evaluation and book.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads, one per core unless told (`--threads 1` leaves the other cores
    /// free, e.g. for several games at once).
    #[arg(long, short, default_value_t = default_threads())]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = crate::engine::DEFAULT_HASH_MB)]
    pub hash_mb: usize,
    #[command(flatten)]
    pub eval: EvalArgs,
    #[command(flatten)]
    pub book: BookUseArgs,
}

/// The threads of the commands that play or build books: one per core (two threads beat
/// one at equal time: `docs/benchmarks.md`).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for EngineArgs {
    fn default() -> Self {
        let o = crate::engine::EngineOptions::default();
        EngineArgs {
            threads: default_threads(),
            hash_mb: o.hash_mb,
            eval: EvalArgs::default(),
            book: BookUseArgs::default(),
        }
    }
}

impl EngineArgs {
    /// The engine options these arguments ask for (loading weight and book files).
    pub fn options(&self) -> anyhow::Result<crate::engine::EngineOptions> {
        Ok(crate::engine::EngineOptions {
            threads: self.threads.max(1),
            hash_mb: self.hash_mb.max(1),
            eval: self.eval.evaluator()?,
            book: self.book.book()?,
            book_randomness: self.book.book_randomness.max(0),
            ..crate::engine::EngineOptions::default()
        })
    }
}

/// Options of the protocol loops.
#[derive(clap::Args, Debug, Clone)]
pub struct ProtocolArgs {
    /// Engine level: midgame depth, exact endgame from 2*level empties up to level 10,
    /// then level+10 (NBoard's `set depth` and GTP's `level` change it); 16 if none. GTP
    /// plays by its clock whenever it has one; NBoard caps the depth at the level and
    /// plays by the game's clock alone when neither this nor `set depth` gave one.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: Option<u32>,
    /// Rules of new games (GGF games carry their own).
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The opening-book options of the commands that play.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct BookUseArgs {
    /// Opening book to play from (a file from `volte book`; default: the shipped book).
    /// NBoard's `learn` saves the games it learns into this file.
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// Play without an opening book.
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// Play a random book move among those within this many discs of the best (for
    /// varied games; 0 = always the best).
    #[arg(long, default_value_t = 0, value_name = "DISCS")]
    pub book_randomness: i32,
}

impl BookUseArgs {
    /// The book these options ask for.
    pub fn book(&self) -> anyhow::Result<Option<std::sync::Arc<crate::book::Book>>> {
        if self.no_book {
            return Ok(None);
        }
        match &self.book {
            Some(path) => Ok(Some(std::sync::Arc::new(crate::book::Book::load(path)?))),
            None => Ok(crate::book::Book::shipped(Variant::Othello)),
        }
    }
}

/// The evaluation options of every command that searches.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct EvalArgs {
    /// Evaluation: `pattern` (the default: the trained network over patterns and mobility
    /// in Othello and Reversi 1889, linear pattern tables in Anti), `linear` (the linear
    /// pattern tables in every variant: cheaper, weaker) or `classic` (hand-written terms).
    #[arg(long, value_name = "KIND")]
    pub eval: Option<crate::eval::EvalKind>,
    /// Weights to use instead of the shipped ones (a file written by `volte train`): linear
    /// tables both play and order the exact solver's moves (which otherwise has Othello
    /// weights of its own), a network plays only; a file for Othello also serves Reversi
    /// 1889.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<std::path::PathBuf>,
}

impl EvalArgs {
    /// The evaluator these options ask for (loading the weight file).
    pub fn evaluator(&self) -> anyhow::Result<crate::eval::Evaluator> {
        crate::eval::Evaluator::from_options(self.eval, self.eval_file.as_deref())
    }

    /// These options as a resumable output records them: `--eval KIND --eval-file FILE`.
    pub fn describe(&self) -> String {
        format!(
            "--eval {} --eval-file {}",
            self.eval.map_or("default".to_string(), |k| k.to_string()),
            self.eval_file
                .as_ref()
                .map_or("shipped".to_string(), |p| p.display().to_string())
        )
    }
}

impl Default for ProtocolArgs {
    fn default() -> Self {
        let o = crate::protocol::ProtocolOptions::default();
        ProtocolArgs {
            level: o.level,
            variant: o.variant,
            engine: EngineArgs::default(),
        }
    }
}

impl ProtocolArgs {
    pub fn options(&self) -> anyhow::Result<crate::protocol::ProtocolOptions> {
        Ok(crate::protocol::ProtocolOptions {
            level: self.level,
            variant: self.variant,
            book_path: self.engine.book.book.clone(),
            engine: self.engine.options()?,
        })
    }
}

/// Reads INPUT: a file's text when it names a file, the text itself otherwise.
pub fn read_input(input: &str) -> Result<String> {
    let path = Path::new(input);
    if input.len() < 4096 && path.is_file() {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {input}"))?;
        if input.ends_with(".gz") {
            use std::io::Read;
            let mut text = String::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .with_context(|| format!("{input} is not gzip-compressed text"))?;
            return Ok(text);
        }
        return String::from_utf8(bytes).with_context(|| format!("{input} is not UTF-8 text"));
    }
    // A word that looks like a file name but names no file: say so, rather than reading
    // it as a transcript.
    let looks_like_file = !input.contains(char::is_whitespace)
        && !input.contains(['[', ';'])
        && (input.contains('/')
            || input.contains('\\')
            || path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.chars().any(|c| c.is_ascii_alphabetic()) && e.len() <= 5));
    if looks_like_file {
        bail!("{input}: no such file");
    }
    Ok(input.to_string())
}

/// Parses a position, transcript, GGF game or file into a game.
pub fn parse_game_input(input: &str, variant: Variant) -> Result<Game> {
    if input.trim().eq_ignore_ascii_case("start") {
        return Ok(Game::new(variant));
    }
    let text = read_input(input)?;
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('%') && !l.starts_with('#'))
        .unwrap_or("");
    if first.is_empty() {
        bail!("empty input: expected a position, a transcript or a GGF game");
    }
    let game = if text.trim_start().starts_with("(;") {
        formats::parse_any(&text, variant)?
    } else {
        formats::parse_any(first, variant)?
    };
    Ok(game)
}

/// How far a result was searched, as the tables print it: `d13@73%` (a midgame depth with
/// probable cuts at that confidence), `d13`, `end@73%` (to the end with probable cuts),
/// `exact`, `w/l/d` or `book`.
pub fn search_mark(kind: crate::engine::ResultKind, depth: u32, probability: u8) -> String {
    use crate::engine::ResultKind;
    match kind {
        ResultKind::Exact => "exact".to_string(),
        ResultKind::WinLossDraw => "w/l/d".to_string(),
        ResultKind::ProbableSolve => format!("end@{probability}%"),
        ResultKind::Midgame if probability < 100 => format!("d{depth}@{probability}%"),
        ResultKind::Midgame => format!("d{depth}"),
        ResultKind::Book => "book".to_string(),
    }
}
