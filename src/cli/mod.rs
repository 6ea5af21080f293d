//! The command line: clap definitions and one function per subcommand. Library errors
//! become one-line messages here; `main.rs` only parses and dispatches.

mod analyze;
mod bench;
mod book;
mod calibrate;
mod matches;
mod solve;
mod train;

use crate::formats::{self, ggf};
use crate::game::Game;
use crate::perft;
use crate::rules::Variant;
use crate::square::Move;
use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

/// volte: a strong Othello/Reversi engine for Othello, Anti Othello and Reversi 1889.
#[derive(Parser, Debug)]
#[command(name = "volte", version, about, long_about = None)]
pub struct Cli {
    /// Without a command volte speaks NBoard on stdin/stdout, as GUIs expect of an
    /// engine started with a bare command line.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the game tree to a depth (move-generation check and benchmark).
    ///
    /// A pass costs one ply and a finished game counts as one leaf. From the standard
    /// start: 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
    /// 1939886636, 18429641748, 184042084512 (depths 1-14).
    Perft {
        /// Depth in plies (1-60).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Start from this position instead of the variant's start: 64 cells a1..h8
        /// (X/*, O, -) then the side to move (`"<cells> X"`), a transcript played from
        /// the start (`f5d6c3`), or a GGF game (its final position).
        #[arg(long, short, allow_hyphen_values = true)]
        position: Option<String>,
        /// Rules: othello, anti or reversi1889.
        #[arg(long, short, default_value = "othello")]
        variant: Variant,
        /// Print the leaf count under each first move at the final depth.
        #[arg(long)]
        divide: bool,
        /// Only count the final depth (default: print every depth from 1 up).
        #[arg(long)]
        only: bool,
        /// Threads; the tree is split a few plies down.
        #[arg(long, short, default_value_t = 1)]
        threads: usize,
    },
    /// Show a board: its discs, side to move, legal moves, and the result if it is over.
    ///
    /// INPUT is a position (`"<64 cells> X"`), a transcript (`f5d6c3`, passes inferred),
    /// a GGF game, a Logistello .gam line, a file holding one of these (the first game or
    /// position of the file is shown), or `start` for the variant's start position.
    Show {
        /// The position, transcript, GGF game, or a file name. Quote it when it has spaces:
        /// `volte show "--XXXXX--OOO...OOOOO-- X"`.
        #[arg(allow_hyphen_values = true)]
        input: String,
        /// Rules for positions and transcripts: othello, anti or reversi1889 (GGF games
        /// carry their own).
        #[arg(long, short, default_value = "othello")]
        variant: Variant,
        /// Also print the game as GGF.
        #[arg(long)]
        ggf: bool,
    },
    /// Solve endgame positions exactly (or win/loss/draw) and print a table.
    ///
    /// INPUT is an OBF file (one position a line, with `MOVE:score` fields to check
    /// against), a file of positions (`<64 cells> <side>` a line), a file of transcripts,
    /// a GGF file, a WTHOR `.wtb` database (checked against its theoretical scores), or
    /// one position, transcript or GGF game given on the command line. Games are solved
    /// at their last position, or where `--empties` squares are empty. The exit status is
    /// 1 when a result disagrees with the file or a line could not be read (the other
    /// positions are still solved).
    Solve(solve::SolveArgs),
    /// Search fixed positions at a fixed depth and print the node count and the speed.
    ///
    /// The same binary prints the same `Nodes searched` on every run; a change to the
    /// search shows up as a different count.
    Bench(bench::BenchArgs),
    /// Score every position of a game and the error of every move.
    ///
    /// Reads a transcript (`f5d6c3...`), a GGF game, or a file holding one. Prints one row
    /// per move: the engine's score before the move, the best move, the score of the move
    /// played and its error (how many discs it lost); optionally writes the game as GGF
    /// with the evaluations.
    Analyze(analyze::AnalyzeArgs),
    /// Fit the Multi-ProbCut parameters from positions of WTHOR games (for developers).
    ///
    /// Searches each position at every depth without probable cuts, fits how the deep
    /// score follows the shallow one per depth and stage, and writes the Rust table the
    /// search compiles in (`src/search/mpc_table.rs`). `scripts/calibrate_mpc.sh` runs it.
    CalibrateMpc(calibrate::CalibrateArgs),
    /// Play a match between two engines: built-in configurations or NBoard/GTP programs.
    ///
    /// Every opening is played twice with colours swapped. Prints a progress line, then
    /// wins/draws/losses, the score, the mean disc difference, the Elo difference with
    /// its 95% interval, and the results per opening pair. Example:
    /// `volte match --engine depth=8 --engine depth=6 --games 200`.
    Match(Box<matches::MatchArgs>),
    /// Train the pattern evaluation from game records and write a weight file.
    ///
    /// Labels positions by the games' results, or exactly by the solver near the end;
    /// fits each stage by regularised least squares (conjugate gradients), holding out a
    /// test split; prints the error per stage. `scripts/train.sh` reproduces the shipped
    /// weights. Use the result with `--eval-file`.
    Train(train::TrainArgs),
    /// Build, grow, show and count opening books.
    ///
    /// The shipped book (`book/othello.vbk`, embedded) was made with `learn` and `build`;
    /// `book/README.md` says how. Example: `volte book show f5d6`.
    Book(book::BookArgs),
    /// Play volte against itself to make training games (GGF, one a line).
    ///
    /// Each game opens with random moves, continues at a shallow level and ends with
    /// perfect play by the exact solver, so its result is exact from there on. Reruns
    /// resume (game i depends only on the seed and i). For variants without human game
    /// records (Anti), this is what `volte train` learns from.
    Selfplay(train::SelfplayArgs),
    /// Fit the classic evaluation's Othello weights to WTHOR game results (for developers).
    ///
    /// Least squares per number of empties; writes the Rust table the evaluation compiles
    /// in (`src/eval/classic_weights.rs`) and prints the error of the fit.
    FitClassic(FitClassicArgs),
    /// Play volte (or watch it play) in the terminal.
    ///
    /// Shows the board with coordinates, the last move in brackets, the flipped discs in
    /// parentheses and the legal moves as dots (coloured on a terminal), and volte's
    /// score and line after each of its moves. At the prompt: a move (`f5`), `pass` (only
    /// when you have no move), `undo`, `hint`, `level N`, `save FILE`, `load FILE`,
    /// `help`, `quit`. Works with piped input too.
    Play(PlayArgs),
    /// Build a set of balanced openings for matches.
    ///
    /// How `openings/volte-8ply.txt` was made: random distinct lines, each searched to a
    /// fixed depth, kept when the score is within a few discs of even.
    Openings(matches::OpeningsArgs),
    /// Speak the NBoard protocol on stdin/stdout (what `volte` with no command does).
    ///
    /// For the NBoard GUI: add an engine whose command line is `volte nboard` (or just
    /// `volte`). Nothing is printed on stderr.
    Nboard(ProtocolArgs),
    /// Speak GTP on stdin/stdout, for Quarry, GoGui and match managers.
    Gtp(ProtocolArgs),
}

/// Options of `volte fit-classic`.
#[derive(clap::Args, Debug)]
pub struct FitClassicArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/data/wthor")]
    pub wthor: std::path::PathBuf,
    /// Each stage is fitted with the positions within this many empties of it.
    #[arg(long, default_value_t = 2)]
    pub window: u32,
    /// Ridge regularisation, relative to the number of positions.
    #[arg(long, default_value_t = 0.001)]
    pub ridge: f64,
    /// Where to write the table.
    #[arg(long, default_value = "src/eval/classic_weights.rs")]
    pub output: std::path::PathBuf,
}

/// Options of `volte play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Rules.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// volte's level (1-60).
    #[arg(long, short, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: u32,
    /// The colour you play: black, white, both (volte only gives hints) or none (watch
    /// volte play itself).
    #[arg(long, short, default_value = "black")]
    pub color: crate::play::Seats,
    /// Start from this position, transcript or GGF game (or a file with one).
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The engine options of the commands that play: threads, table, evaluation and book.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads.
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = crate::engine::DEFAULT_HASH_MB)]
    pub hash_mb: usize,
    #[command(flatten)]
    pub eval: EvalArgs,
    #[command(flatten)]
    pub book: BookUseArgs,
}

impl Default for EngineArgs {
    fn default() -> Self {
        let o = crate::engine::EngineOptions::default();
        EngineArgs {
            threads: o.threads,
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
    /// then level+10 (NBoard's `set depth` and GTP's `level` change it).
    #[arg(long, short, default_value_t = crate::engine::DEFAULT_LEVEL, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub level: u32,
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
    /// Evaluation: `pattern` (trained weights, the default) or `classic` (hand-written
    /// terms).
    #[arg(long, value_name = "KIND")]
    pub eval: Option<crate::eval::EvalKind>,
    /// Pattern weights to use instead of the shipped ones (a file written by `volte
    /// train`), both to play and to order the exact solver's moves (which otherwise has
    /// Othello weights of its own); a file for Othello also serves Reversi 1889.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<std::path::PathBuf>,
}

impl EvalArgs {
    /// The evaluator these options ask for (loading the weight file).
    pub fn evaluator(&self) -> anyhow::Result<crate::eval::Evaluator> {
        crate::eval::Evaluator::from_options(self.eval, self.eval_file.as_deref())
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
    fn options(&self) -> anyhow::Result<crate::protocol::ProtocolOptions> {
        Ok(crate::protocol::ProtocolOptions {
            level: self.level,
            variant: self.variant,
            book_path: self.engine.book.book.clone(),
            engine: self.engine.options()?,
        })
    }
}

/// Reads INPUT: a file's text when it names a file, the text itself otherwise.
pub(crate) fn read_input(input: &str) -> Result<String> {
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

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let Some(command) = cli.command else {
        return run_protocol(false, &ProtocolArgs::default());
    };
    match command {
        Command::Perft {
            depth,
            position,
            variant,
            divide,
            only,
            threads,
        } => run_perft(depth, position.as_deref(), variant, divide, only, threads),
        Command::Show {
            input,
            variant,
            ggf,
        } => run_show(&input, variant, ggf),
        Command::Solve(args) => solve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::CalibrateMpc(args) => calibrate::run(args),
        Command::Match(args) => matches::run(*args),
        Command::Openings(args) => matches::run_openings(args),
        Command::Play(args) => run_play(&args),
        Command::FitClassic(args) => run_fit_classic(&args),
        Command::Train(args) => train::run(args),
        Command::Book(args) => book::run(args),
        Command::Selfplay(args) => train::run_selfplay(args),
        Command::Nboard(args) => run_protocol(false, &args),
        Command::Gtp(args) => run_protocol(true, &args),
    }
}

fn run_fit_classic(args: &FitClassicArgs) -> Result<()> {
    let started = Instant::now();
    let games = crate::train::wthor_games(&args.wthor)?;
    eprintln!("fitting on {} finished WTHOR games", games.len());
    let (table, mae) = crate::train::fit_classic(&games, args.window, args.ridge);
    for n in (0..=60).step_by(4) {
        println!(
            "{n:>2} empties: mean absolute error {:.2} discs, weights {:?}",
            mae[n], table[n]
        );
    }
    let command = format!(
        "volte fit-classic --window {} --ridge {}",
        args.window, args.ridge
    );
    std::fs::write(
        &args.output,
        crate::train::weights_source(&table, games.len(), &command),
    )
    .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!(
        "wrote {} in {:.1} s",
        args.output.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_play(args: &PlayArgs) -> Result<()> {
    let game = match &args.position {
        Some(p) => parse_game_input(p, args.variant)?,
        None => Game::new(args.variant),
    };
    let options = crate::play::PlayOptions {
        level: args.level,
        seats: args.color,
        colors: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        engine: args.engine.options()?,
    };
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    crate::play::run(&mut input, &mut output, game, options).context("terminal input/output")
}

fn run_protocol(gtp: bool, args: &ProtocolArgs) -> Result<()> {
    let input = std::io::stdin().lock();
    let output = Box::new(std::io::stdout());
    let options = args.options()?;
    if gtp {
        crate::protocol::gtp::run(input, output, options);
    } else {
        crate::protocol::nboard::run(input, output, options);
    }
    Ok(())
}

fn run_perft(
    depth: u32,
    position: Option<&str>,
    variant: Variant,
    divide: bool,
    only: bool,
    threads: usize,
) -> Result<()> {
    let game = match position {
        Some(p) => parse_game_input(p, variant)?,
        None => Game::new(variant),
    };
    let state = *game.current();
    let variant = game.variant();
    println!(
        "perft {variant}, {} to move, {} empties, {threads} thread{}",
        game.side_to_move(),
        state.pos.n_empties(),
        if threads == 1 { "" } else { "s" }
    );
    let first = if only { depth } else { 1 };
    let show_progress = std::io::stderr().is_terminal();
    let mut total_leaves = 0u64;
    let mut total_s = 0.0;
    for d in first..=depth {
        let bar = (show_progress && d >= 11).then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "depth {msg} [{bar:30}] {pos}/{len} subtrees, {elapsed} (eta {eta})",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.set_message(d.to_string());
            bar
        });
        let progress = |done: usize, total: usize| {
            if let Some(b) = &bar {
                b.set_length(total as u64);
                b.set_position(done as u64);
            }
        };
        let start = Instant::now();
        let leaves = perft::perft_parallel(variant, &state, d, threads, &progress);
        let secs = start.elapsed().as_secs_f64();
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        total_leaves += leaves;
        total_s += secs;
        println!(
            "depth {d:2}: {leaves:>15} leaves {secs:9.3} s {:9.1} M leaves/s",
            leaves as f64 / secs.max(1e-9) / 1e6
        );
    }
    if depth > first {
        println!(
            "total   : {total_leaves:>15} leaves {total_s:9.3} s {:9.1} M leaves/s",
            total_leaves as f64 / total_s.max(1e-9) / 1e6
        );
    }
    if divide {
        println!("divide at depth {depth}:");
        for (mv, n) in perft::divide(variant, &state, depth) {
            println!(
                "  {:<4} {n}",
                match mv {
                    Move::Pass => "pass".to_string(),
                    Move::Play(sq) => sq.to_string(),
                }
            );
        }
    }
    Ok(())
}

fn run_show(input: &str, variant: Variant, as_ggf: bool) -> Result<()> {
    let game = parse_game_input(input, variant)?;
    print!("{}", game.render());
    if !game.moves().is_empty() {
        println!("Moves: {}", game.transcript());
    }
    if as_ggf {
        println!("{}", ggf::write(&game));
    }
    Ok(())
}
