//! The command line: the clap tree here, each command's options and body in a file of its
//! own, the options several share in `args.rs`. Library errors
//! become one-line messages here; `main.rs` only parses and dispatches.

mod analyze;
mod args;
mod bench;
mod book;
mod calibrate;
mod fit_classic;
mod matches;
mod perft;
mod play;
mod progress;
mod protocol;
mod selfplay;
mod show;
mod solve;
mod train;

use args::ProtocolArgs;
pub use args::parse_game_input;

use anyhow::Result;
use clap::{Parser, Subcommand};

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
    Perft(perft::PerftArgs),
    /// Show a board: its discs, side to move, legal moves, and the result if it is over.
    ///
    /// INPUT is a position (`"<64 cells> X"`), a transcript (`f5d6c3`, passes inferred),
    /// a GGF game, a Logistello .gam line, a file holding one of these (the first game or
    /// position of the file is shown), or `start` for the variant's start position.
    Show(show::ShowArgs),
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
    /// Every opening is played twice with colours swapped. Prints a progress line (the score,
    /// the test's LLR with `--sprt`, each engine's mean time a move so far), then
    /// wins/draws/losses, the score, the mean disc difference, the Elo difference with
    /// its 95% interval, the results per opening pair, and each engine's time a move (mean
    /// and longest, over its moves after the openings). Example:
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
    Selfplay(selfplay::SelfplayArgs),
    /// Fit the classic evaluation's Othello weights to WTHOR game results (for developers).
    ///
    /// Least squares per number of empties; writes the Rust table the evaluation compiles
    /// in (`src/eval/classic_weights.rs`) and prints the error of the fit.
    FitClassic(fit_classic::FitClassicArgs),
    /// Play volte (or watch it play) in the terminal.
    ///
    /// Shows the board with coordinates, the last move in brackets, the flipped discs in
    /// parentheses and the legal moves as dots (coloured on a terminal), and volte's
    /// score and line after each of its moves. At the prompt: a move (`f5`), `pass` (only
    /// when you have no move), `undo`, `hint`, `level N`, `save FILE`, `load FILE`,
    /// `help`, `quit`. Works with piped input too.
    Play(play::PlayArgs),
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

/// Runs a parsed command line.
/// Parses the command line. Help and version print as clap writes them; a bad command line
/// is refused in one line naming the flag (`error: invalid value '0/4' for '--shard <K/N>':
/// ...`), like every other error of volte, with exit status 2.
pub fn parse_or_exit() -> Cli {
    use clap::Parser;
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            eprintln!("{}", one_line(&e.render().to_string()));
            std::process::exit(2);
        }
    }
}

/// A clap error in one line: its text up to the usage and the pointer to `--help`, lines
/// joined, and the tip clap adds, if any.
fn one_line(rendered: &str) -> String {
    let mut parts = Vec::new();
    for line in rendered.lines() {
        let t = line.trim();
        if t.starts_with("Usage:") || t.starts_with("For more information") {
            break;
        }
        if !t.is_empty() {
            parts.push(t.to_string());
        }
    }
    parts.join(" ")
}

pub fn run(cli: Cli) -> Result<()> {
    let Some(command) = cli.command else {
        return protocol::run(false, &ProtocolArgs::default());
    };
    match command {
        Command::Perft(args) => perft::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Solve(args) => solve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::CalibrateMpc(args) => calibrate::run(args),
        Command::Match(args) => matches::run(*args),
        Command::Openings(args) => matches::run_openings(args),
        Command::Play(args) => play::run(&args),
        Command::FitClassic(args) => fit_classic::run(&args),
        Command::Train(args) => train::run(args),
        Command::Book(args) => book::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Nboard(args) => protocol::run(false, &args),
        Command::Gtp(args) => protocol::run(true, &args),
    }
}
