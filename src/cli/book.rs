//! `volte book build | learn | merge | show | stats`.

use super::args::{EvalArgs, default_threads};
use super::progress::CliProgress;
use crate::book::{Book, Key, normalise};
use crate::jobs::bookbuild::{self, SearchOptions};
use crate::rules::Variant;
use crate::square::Move;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Grow a book by its own searches (creates BOOK when it does not exist).
    ///
    /// First searches every leaf that needs it (new positions, leaves whose move joined
    /// the book, leaves shallower than --depth: rerun with a larger --depth to deepen a
    /// book), then adds --expand positions best first: the leaves of the lines that lose
    /// the fewest discs against the book's best play (at most --margin in all) and, among
    /// equals, the most played. Saved after every batch: interrupt it at any time and run
    /// the same command again to go on.
    Build(BuildArgs),
    /// Merge the books of the shards of one build (`volte book build BOOK --shard K/N` on
    /// copies of one book) into the book one machine builds.
    ///
    /// Every shard 1..N must be given once, finished, and from the same build (each
    /// shard's BOOK.run records its build); OUTPUT is written only then.
    Merge(MergeArgs),
    /// Add games or opening lines to a book and search the positions they bring.
    ///
    /// FILES are WTHOR .wtb (and the .tsv export), Logistello .gam(.gz), GGF or
    /// transcript files (.txt, one line each, e.g. the XOT list), or folders of them. The
    /// first --plies plies of each are added wherever at least --min-games of them pass;
    /// every position counts the games through it. Then the leaves that changed are
    /// searched as `build` does.
    Learn(LearnArgs),
    /// Show the book moves of a position with their scores, depth, games and lines.
    Show(ShowArgs),
    /// Count a book's positions by ply and its leaves by search depth.
    Stats(StatsArgs),
}

/// How the leaves are searched.
#[derive(clap::Args, Debug, Clone)]
pub struct BookSearchArgs {
    /// Midgame depth of each leaf search (plies; one less from positions at an odd ply,
    /// so that every search ends on a ply of the same parity).
    #[arg(long, default_value_t = crate::jobs::bookbuild::DEFAULT_DEPTH)]
    pub depth: u32,
    /// Solve leaves exactly from this many empties.
    #[arg(long, default_value_t = crate::jobs::bookbuild::DEFAULT_SOLVE_FROM)]
    pub solve_from: u32,
    /// Searches run at once (one thread each).
    #[arg(long, short, default_value_t = default_threads())]
    pub threads: usize,
    /// Transposition table of each search, in MB.
    #[arg(long, default_value_t = crate::jobs::bookbuild::DEFAULT_HASH_MB)]
    pub hash_mb: usize,
    #[command(flatten)]
    pub eval: EvalArgs,
    /// Search only shard K of N of the leaves (each leaf belongs to one shard by a hash of
    /// its position), in a copy of the book each shard grows; `volte book merge` then
    /// gives the book one machine builds (scripts/cluster/book.sh). Not with --expand.
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    pub shard: crate::jobs::shard::Shard,
}

impl BookSearchArgs {
    fn options(&self) -> Result<SearchOptions> {
        if !(1..=60).contains(&self.depth) {
            bail!("--depth must be 1-60");
        }
        Ok(SearchOptions {
            depth: self.depth,
            solve_from: self.solve_from,
            threads: self.threads.max(1),
            hash_mb: self.hash_mb.max(1),
            eval: self.eval.evaluator()?,
            shard: self.shard,
            ..SearchOptions::default()
        })
    }

    /// What a shard's searches depend on, recorded in BOOK.run beside a shard's book.
    fn describe(&self, book: &Book) -> String {
        format!(
            "volte book build ({} positions, {} leaves to search) --depth {} --solve-from {} \
             {} --shard {}",
            book.len(),
            book.stale(self.depth.min(255) as u8).len(),
            self.depth,
            self.solve_from,
            self.eval.describe(),
            self.shard
        )
    }
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The merged book to write.
    pub output: PathBuf,
    /// The shards' books.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The book file to grow (created when it does not exist).
    pub book: PathBuf,
    /// Positions to add by best-first expansion after the pending searches.
    #[arg(long, default_value_t = 0)]
    pub expand: usize,
    /// Expand only lines within this many discs (in all) of the book's best play.
    #[arg(long, default_value_t = 4)]
    pub margin: i32,
    /// Expand only positions before this ply.
    #[arg(long, default_value_t = 30)]
    pub max_ply: u32,
    /// Rules of a new book: othello, anti or reversi1889 (an existing book keeps its own).
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    #[command(flatten)]
    pub search: BookSearchArgs,
}

#[derive(clap::Args, Debug)]
pub struct LearnArgs {
    /// The book file (created when it does not exist).
    pub book: PathBuf,
    /// Game files or folders.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Plies of each game to add.
    #[arg(long, default_value_t = 10)]
    pub plies: usize,
    /// Add a position only when at least this many games (or lines) pass through it.
    #[arg(long, default_value_t = 1)]
    pub min_games: u32,
    /// Rules of a new book and of transcripts: othello, anti or reversi1889.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Only add the positions; search their leaves later with `volte book build` (on a
    /// cluster: `build --shard K/N`).
    #[arg(long)]
    pub no_search: bool,
    #[command(flatten)]
    pub search: BookSearchArgs,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A position (`"<64 cells> X"`), a transcript from the start (`f5d6c3`), a GGF game or
    /// a file holding one; the start position when absent.
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
    /// The book (default: the one volte ships for the variant).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Rules: othello, anti or reversi1889.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
}

#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// The book (default: the one volte ships for the variant).
    pub book: Option<PathBuf>,
    /// Rules of the shipped book to count.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
}

pub fn run(args: BookArgs) -> Result<()> {
    match args.command {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Learn(a) => run_learn(a),
        BookCommand::Merge(a) => run_merge(a),
        BookCommand::Show(a) => run_show(a),
        BookCommand::Stats(a) => run_stats(a),
    }
}

/// The book at `path`, or a new one holding the start position.
fn open_or_create(path: &Path, variant: Variant) -> Result<Book> {
    if path.exists() {
        let book = Book::load(path)?;
        if book.variant() != variant {
            bail!(
                "{} is a book for {}; pass --variant {} to grow it",
                path.display(),
                book.variant(),
                book.variant()
            );
        }
        eprintln!("{}: {} positions", path.display(), book.len());
        Ok(book)
    } else {
        let mut book = Book::new(variant);
        book.insert(book.root());
        eprintln!("{}: new {variant} book", path.display());
        Ok(book)
    }
}

/// For a shard's build: records the build in BOOK.run (a resumed shard must be the same
/// build: its first line stays from the first run, which saw the book before searching).
fn start_shard(path: &Path, args: &BookSearchArgs, book: &Book) -> Result<()> {
    if args.shard.is_whole() {
        return Ok(());
    }
    let run = crate::jobs::shard::run_file(path);
    match std::fs::read_to_string(&run) {
        Ok(text) => {
            let first = text.lines().next().unwrap_or("");
            let tail = format!("--shard {}", args.shard);
            if !first.ends_with(&tail) {
                bail!(
                    "{} was written by `{first}` ({}), not by shard {}: not searched",
                    path.display(),
                    run.display(),
                    args.shard
                );
            }
            // Drop a `complete` mark: the shard runs again.
            std::fs::write(&run, format!("{first}\n"))?;
        }
        Err(_) => std::fs::write(&run, format!("{}\n", args.describe(book)))?,
    }
    Ok(())
}

fn run_build(args: BuildArgs) -> Result<()> {
    let options = args.search.options()?;
    let mut book = open_or_create(&args.book, args.variant)?;
    start_shard(&args.book, &args.search, &book)?;
    let progress = CliProgress::new();
    let t = Instant::now();
    let searched = bookbuild::search_stale(&mut book, Some(&args.book), &options, &progress)?;
    let report = bookbuild::expand(
        &mut book,
        Some(&args.book),
        args.expand,
        args.margin,
        args.max_ply,
        &options,
        &progress,
    )?;
    book.save(&args.book)?;
    if !args.search.shard.is_whole() {
        crate::jobs::shard::mark_complete(&args.book, searched)?;
    }
    println!(
        "{}: {} positions; {} leaves searched, {} positions added by expansion ({} searches), {:.0} s",
        args.book.display(),
        book.len(),
        searched,
        report.added,
        report.searches,
        t.elapsed().as_secs_f64()
    );
    if report.added < args.expand {
        println!(
            "no more leaves within {} discs before ply {}",
            args.margin, args.max_ply
        );
    }
    Ok(())
}

fn run_merge(args: MergeArgs) -> Result<()> {
    let mut runs = Vec::new();
    for path in &args.shards {
        let run = crate::jobs::shard::run_file(path);
        let text = std::fs::read_to_string(&run).map_err(|_| {
            anyhow::anyhow!(
                "{} is not a shard's book ({} is missing): build shards with `volte book \
                 build BOOK --shard K/N`",
                path.display(),
                run.display()
            )
        })?;
        let first = text.lines().next().unwrap_or("").to_string();
        let Some((build, shard)) = first.rsplit_once(" --shard ") else {
            bail!("{}: {} names no shard", path.display(), run.display());
        };
        let shard: crate::jobs::shard::Shard = shard
            .parse()
            .map_err(|e| anyhow::anyhow!("{}: {e}", run.display()))?;
        if !text.lines().any(|l| l.starts_with("complete ")) {
            bail!("shard {shard} ({}) has not finished", path.display());
        }
        runs.push((path, build.to_string(), shard));
    }
    let n = runs[0].2.count;
    for (path, build, shard) in &runs {
        if *build != runs[0].1 || shard.count != n {
            bail!(
                "shard {shard} ({}) comes from another build than {} (`{build}` against `{}`)",
                path.display(),
                runs[0].0.display(),
                runs[0].1
            );
        }
    }
    for k in 1..=n {
        match runs.iter().filter(|r| r.2.index == k).count() {
            0 => bail!("shard {k}/{n} is missing"),
            1 => {}
            _ => bail!("shard {k}/{n} is given more than once"),
        }
    }
    let mut merged = Book::load(runs[0].0)?;
    for (path, _, _) in &runs[1..] {
        let other = Book::load(path)?;
        if other.variant() != merged.variant() || other.len() != merged.len() {
            bail!(
                "{} does not hold the positions of {}: not shards of one book",
                path.display(),
                runs[0].0.display()
            );
        }
        merged.merge_from(&other);
    }
    merged.save(&args.output)?;
    println!(
        "{}: {} positions from {n} shards",
        args.output.display(),
        merged.len()
    );
    Ok(())
}

fn run_learn(args: LearnArgs) -> Result<()> {
    let options = args.search.options()?;
    if !args.search.shard.is_whole() {
        bail!(
            "`book learn` adds games as it runs, so its shards would count them again on \
             every resume: learn with --no-search on one machine, then `volte book build \
             --shard K/N` on a copy of the book for each shard, then `volte book merge`"
        );
    }
    let mut book = open_or_create(&args.book, args.variant)?;
    let set = crate::jobs::train::data::read_lines(&args.files, book.variant())?;
    for (path, kept, skipped) in &set.files {
        eprintln!("{}: {kept} games read, {skipped} skipped", path.display());
    }
    let (added, used) = book.learn(&set.games, args.plies, args.min_games);
    println!(
        "{used} games from the start position; {added} positions added (first {} plies, at least {} games each)",
        args.plies, args.min_games
    );
    book.save(&args.book)?;
    if args.no_search {
        println!(
            "{}: {} positions, leaves not searched (--no-search)",
            args.book.display(),
            book.len()
        );
        return Ok(());
    }
    let progress = CliProgress::new();
    let t = Instant::now();
    let searched = bookbuild::search_stale(&mut book, Some(&args.book), &options, &progress)?;
    book.save(&args.book)?;
    println!(
        "{}: {} positions; {searched} leaves searched, {:.0} s",
        args.book.display(),
        book.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The book a read-only command uses: the file given, or the shipped one.
fn chosen_book(path: Option<&Path>, variant: Variant) -> Result<(Book, String)> {
    match path {
        Some(p) => Ok((Book::load(p)?, p.display().to_string())),
        None => match Book::shipped(variant) {
            Some(b) => Ok((b.as_ref().clone(), format!("shipped {variant} book"))),
            None => bail!("volte ships no {variant} book; pass --book FILE"),
        },
    }
}

fn run_show(args: ShowArgs) -> Result<()> {
    let (book, name) = chosen_book(args.book.as_deref(), args.variant)?;
    let game = match &args.position {
        Some(text) => super::args::parse_game_input(text, book.variant())?,
        None => crate::game::Game::new(book.variant()),
    };
    print!("{}", game.render());
    let mut state = *game.current();
    let mut passed = false;
    if book.variant().legal_moves(&state) == 0 {
        if game.is_over() {
            println!("The game is over.");
            return Ok(());
        }
        state = state.pass();
        passed = true;
    }
    let moves = book.moves(&state);
    if moves.is_empty() {
        println!("Not in the {name} ({} positions).", book.len());
        return Ok(());
    }
    let (key, _) = normalise(&state.pos);
    let games = book.get(&key).map_or(0, |e| e.games);
    println!(
        "{name}: {}{} games through this position",
        if passed {
            "after the forced pass, "
        } else {
            ""
        },
        games
    );
    println!("move  score  depth  games  line");
    for m in &moves {
        let depth = if m.exact {
            "exact".to_string()
        } else {
            m.depth.to_string()
        };
        let line: String = m.line.iter().map(|mv: &Move| mv.to_string()).collect();
        println!(
            "{:<4}  {:>+5}  {:>5}  {:>5}  {}{}",
            m.square.to_string(),
            m.score,
            depth,
            m.games,
            line,
            if m.is_leaf {
                "  (leaf: searched, not in the book)"
            } else {
                ""
            }
        );
    }
    Ok(())
}

fn run_stats(args: StatsArgs) -> Result<()> {
    let (book, name) = chosen_book(args.book.as_deref(), args.variant)?;
    let s = book.stats();
    println!("{name}: {} book, {} positions", book.variant(), s.positions);
    println!("ply  positions");
    for (ply, n) in s.by_ply.iter().enumerate().filter(|(_, n)| **n > 0) {
        println!("{ply:>3}  {n:>9}");
    }
    println!("leaf depth  leaves");
    for (d, n) in &s.leaves_by_depth {
        println!("{d:>10}  {n:>6}");
    }
    if s.exact_leaves > 0 {
        println!("{:>10}  {:>6}", "exact", s.exact_leaves);
    }
    println!(
        "positions with every move in the book: {}; leaves not searched yet: {}",
        s.closed, s.stale
    );
    let root: Key = book.root();
    let start = book.variant().start_state();
    if let Some(v) = book.get(&root).and_then(|e| e.value) {
        let line: String = book
            .principal_line(&start, 60)
            .iter()
            .map(|m| m.to_string())
            .collect();
        println!(
            "start position: {:+} for the side to move, {} games; book line {line}",
            v.score, s.games_at_root
        );
    }
    Ok(())
}
