//! `volte solve`: reads positions, solves them, prints one row each and a total.

use super::args::read_input;
use crate::engine::{Engine, EngineOptions, SolveMode, SolveOptions, SolveResult};
use crate::formats::{self, Format, FormatError, ggf, obf, wthor};
use crate::game::Game;
use crate::rules::Variant;
use crate::square::{Color, Move};
use anyhow::{Context, Result, bail};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Options of `volte solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The positions to solve (a file, or one position / transcript / GGF game).
    #[arg(allow_hyphen_values = true, required_unless_present = "position")]
    pub input: Option<String>,
    /// Solve this position (`"<64 cells> X"`) instead of INPUT.
    #[arg(long, short, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Rules: othello, anti or reversi1889 (GGF games carry their own).
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Search threads.
    #[arg(long, short, default_value_t = 1)]
    pub threads: usize,
    /// Only find whether the side to move wins, draws or loses (faster).
    #[arg(long)]
    pub wld: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = crate::engine::DEFAULT_HASH_MB)]
    pub hash_mb: usize,
    /// Also give the score of every legal move (as OBF files list them).
    #[arg(long)]
    pub all_moves: bool,
    /// Number of the first position in the table (default: from a file name like
    /// `fforum-40-59.obf`, else 1).
    #[arg(long)]
    pub first: Option<usize>,
    /// Keep the table between positions (faster on related positions; node counts
    /// then depend on the order).
    #[arg(long)]
    pub keep_hash: bool,
    /// Without a terminal (output to a log), print a progress line for the position
    /// being solved to stderr every SECS seconds (0: never). With a terminal the
    /// progress bar shows the nodes so far instead.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub progress_secs: f64,
    /// For games (transcripts, GGF, WTHOR): solve the position of each game with K empty
    /// squares (the first one, before a pass there) instead of its last position. For a
    /// WTHOR `.wtb` file K defaults to the depth of its theoretical scores (24), which
    /// the expected column then shows. Boards given as cells are solved as they are.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=60))]
    pub empties: Option<u32>,
    /// Solve only the first N positions of the input.
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,
    /// Count nodes as Edax does, to compare with its figures: also every child the move
    /// ordering keys, every evaluation and every child whose table entry the enhanced
    /// transposition cut-offs probe (the nodes and Mn/s columns and the total; the total
    /// also gives volte's own count).
    #[arg(long)]
    pub edax_nodes: bool,
    /// The evaluation orders moves at 10 or more empties.
    #[command(flatten)]
    pub eval: super::args::EvalArgs,
    /// Also write the results to FILE as OBF, one line a position in input order, with
    /// the best move's score (every move's with --all-moves) and no times or node counts,
    /// so that the file depends only on the input and the options. A killed run started
    /// again with the same arguments goes on after the last whole line; a file written by
    /// other arguments is refused (FILE.run records them). An unreadable position is a
    /// `% N error: ...` line.
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Solve only shard K of N: the K-th of N contiguous parts of the positions (after
    /// --count). The N shards' --output files concatenated in order are the file of one
    /// run, byte for byte (for clusters: scripts/cluster/).
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    pub shard: crate::jobs::shard::Shard,
}

/// One position to solve, with what the input says its answer is.
struct Problem {
    /// Line of the input (game number for GGF files), from 1.
    line: usize,
    game: Game,
    /// Best score and best moves given by an OBF line.
    expected: Option<(i32, Vec<Move>)>,
}

/// Reads every problem of the input; bad lines become errors in place. Games are cut at
/// `empties` empty squares when it is given.
fn read_problems(
    input: &str,
    variant: Variant,
    empties: Option<u32>,
) -> Result<Vec<Result<Problem, FormatError>>> {
    let path = std::path::Path::new(input);
    let is_wtb = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if is_wtb && path.is_file() {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {input}"))?;
        let file = wthor::read_wtb(&bytes).with_context(|| format!("cannot read {input}"))?;
        return Ok(wthor_problems(&file, empties));
    }
    let text = read_input(input)?;
    if text.trim_start().starts_with("(;") {
        return Ok(ggf::parse_games(&text)
            .into_iter()
            .enumerate()
            .map(|(i, g)| {
                let game = match (g, empties) {
                    (Ok(game), Some(k)) => {
                        at_empties(&game, k).ok_or_else(|| never_reached(Format::Ggf, i + 1, k))
                    }
                    (g, _) => g,
                };
                game.map(|game| Problem {
                    line: i + 1,
                    game,
                    expected: None,
                })
            })
            .collect());
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') || t.starts_with('#') {
            continue;
        }
        let first_word = t.split_whitespace().next().unwrap_or("");
        // Board cells, not moves (a transcript of 32 moves or more is as long as a
        // board, but has digits).
        let board_like = first_word.contains(';')
            || first_word
                .chars()
                .take(64)
                .all(|c| matches!(c, 'X' | 'O' | 'x' | 'o' | '-' | '.' | '*'));
        let problem = if board_like {
            obf::parse_line(line, i + 1).map(|p| Problem {
                line: i + 1,
                game: p.to_game(variant),
                expected: p.best_score().map(|s| (s, p.best_moves())),
            })
        } else {
            formats::parse_any(t, variant)
                .map_err(|e| e.at_line(i + 1, 0))
                .and_then(|game| match empties {
                    Some(k) => at_empties(&game, k)
                        .ok_or_else(|| never_reached(Format::Transcript, i + 1, k)),
                    None => Ok(game),
                })
                .map(|game| Problem {
                    line: i + 1,
                    game,
                    expected: None,
                })
        };
        out.push(problem);
    }
    if out.is_empty() {
        bail!("no position found in the input");
    }
    Ok(out)
}

/// The games of a WTHOR file, each at `empties` empty squares (by default the depth of
/// the file's theoretical scores), with the theoretical score as the expected one when
/// the two depths agree.
fn wthor_problems(
    file: &wthor::WthorFile,
    empties: Option<u32>,
) -> Vec<Result<Problem, FormatError>> {
    let depth = u32::from(file.header.theoretical_depth);
    let k = empties.unwrap_or(depth);
    file.games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let game = g.to_game(i + 1, None)?;
            let game =
                at_empties(&game, k).ok_or_else(|| never_reached(Format::Wthor, i + 1, k))?;
            // The theoretical score is black's discs with perfect play from `depth`
            // empties, the empty squares given to the winner.
            let expected = (k == depth).then(|| {
                let black = 2 * i32::from(g.theoretical_black_discs) - 64;
                let score = match game.side_to_move() {
                    Color::Black => black,
                    Color::White => -black,
                };
                (score, Vec::new())
            });
            Ok(Problem {
                line: i + 1,
                game,
                expected,
            })
        })
        .collect()
}

/// `game` cut back to its first position with `k` empty squares, or `None` when it has
/// none.
fn at_empties(game: &Game, k: u32) -> Option<Game> {
    let ply = game.states().iter().position(|s| s.pos.n_empties() == k)?;
    let mut cut = game.clone();
    while cut.moves().len() > ply {
        cut.undo();
    }
    Some(cut)
}

/// The error for a game that never has `k` empty squares.
fn never_reached(format: Format, number: usize, k: u32) -> FormatError {
    let message = format!("the game never has {k} empty squares");
    match format {
        Format::Transcript => FormatError::text(format, number, 1, message),
        _ => FormatError::record(format, number, "moves", message),
    }
}

/// Reports the progress of one position while it is solved: the nodes so far and the
/// rate, in the progress bar (refreshed every second) or, without a terminal, as a line
/// on stderr every `every`.
struct LiveProgress<'a> {
    bar: Option<&'a indicatif::ProgressBar>,
    number: usize,
    n_empties: u32,
    every: Option<Duration>,
}

impl LiveProgress<'_> {
    /// Runs `solve` while a reporting thread watches `solver`'s node count (no thread
    /// when there is nothing to report to).
    fn while_solving<T>(&self, solver: &Engine, solve: impl FnOnce() -> T) -> T {
        if self.bar.is_none() && self.every.is_none() {
            return solve();
        }
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let reporter = scope.spawn(|| self.report_until(solver, &done));
            let result = solve();
            done.store(true, Ordering::Relaxed);
            reporter.thread().unpark();
            result
        })
    }

    fn report_until(&self, solver: &Engine, done: &AtomicBool) {
        let (number, n) = (self.number, self.n_empties);
        if let Some(bar) = self.bar {
            bar.set_message(format!("#{number}: {n} empties"));
        }
        let start = Instant::now();
        let tick = self.every.unwrap_or(Duration::from_secs(1));
        let mut next = tick;
        while !done.load(Ordering::Relaxed) {
            let elapsed = start.elapsed();
            if elapsed < next {
                std::thread::park_timeout(next - elapsed);
                continue;
            }
            next += tick;
            let nodes = solver.nodes_so_far();
            let rate = nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6;
            let text = format!(
                "#{number}: {n} empties, {} nodes so far, {rate:.1} Mn/s",
                human_count(nodes)
            );
            match self.bar {
                Some(bar) => bar.set_message(text),
                None => eprintln!("{text}, {:.1} s", elapsed.as_secs_f64()),
            }
        }
    }
}

/// `1234567` as `1.23 M`, `34000000000` as `34.00 G`; below a million as it is.
fn human_count(n: u64) -> String {
    match n {
        0..1_000_000 => n.to_string(),
        1_000_000..1_000_000_000 => format!("{:.2} M", n as f64 / 1e6),
        _ => format!("{:.2} G", n as f64 / 1e9),
    }
}

/// The first problem number from a name like `fforum-40-59.obf`.
fn first_number_from_name(input: &str) -> Option<usize> {
    let stem = std::path::Path::new(input).file_stem()?.to_str()?;
    let mut parts = stem.rsplit('-');
    let last: usize = parts.next()?.parse().ok()?;
    let first: usize = parts.next()?.parse().ok()?;
    (first <= last).then_some(first)
}

fn format_score(score: i32, wld: bool) -> String {
    if wld {
        match score.signum() {
            1 => "win".into(),
            -1 => "loss".into(),
            _ => "draw".into(),
        }
    } else {
        format!("{score:+}")
    }
}

pub fn run(args: SolveArgs) -> Result<()> {
    let input = args.position.or(args.input).unwrap_or_default();
    let mut problems = read_problems(&input, args.variant, args.empties)?;
    if let Some(n) = args.count {
        problems.truncate(n);
    }
    let range = args.shard.range(problems.len());
    let first = args
        .first
        .or_else(|| first_number_from_name(&input))
        .unwrap_or(1)
        + range.start;
    let mut problems: Vec<_> = problems.drain(range).collect();
    let mut output = None;
    let mut skip = 0;
    if let Some(path) = &args.output {
        if args.wld {
            bail!("--output writes exact scores; --wld finds none (leave one of them out)");
        }
        let description = format!(
            "volte solve {input} --variant {} --empties {} --count {} --all-moves {} {}{}",
            args.variant,
            args.empties.map_or("-".to_string(), |k| k.to_string()),
            args.count.map_or("-".to_string(), |n| n.to_string()),
            args.all_moves,
            args.eval.describe(),
            args.shard.suffix()
        );
        let out = crate::jobs::shard::open_line_output(path, &description)?;
        skip = out.lines.len();
        if skip > problems.len() {
            bail!(
                "{} already holds {skip} lines, more than the {} positions to solve: not appended to",
                path.display(),
                problems.len()
            );
        }
        if out.cut_bytes > 0 {
            eprintln!(
                "{}: cut off {} bytes of a line a stopped run left unfinished",
                path.display(),
                out.cut_bytes
            );
        }
        if skip > 0 {
            eprintln!(
                "{}: {skip} positions already solved, going on from the next",
                path.display()
            );
        }
        output = Some((path.clone(), out.file));
    }
    let first = first + skip;
    problems.drain(..skip);
    let writing = output.is_some();
    let mut write_line = |line: String| -> Result<()> {
        if let Some((path, file)) = &mut output {
            use std::io::Write;
            file.write_all(format!("{line}\n").as_bytes())
                .and_then(|()| file.sync_data())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    };
    let solver = Engine::new(EngineOptions {
        hash_mb: args.hash_mb,
        threads: args.threads.max(1),
        eval: args.eval.evaluator()?,
        ..EngineOptions::default()
    });
    let options = SolveOptions {
        mode: if args.wld {
            SolveMode::WinLossDraw
        } else {
            SolveMode::Exact
        },
        all_moves: args.all_moves,
        ..SolveOptions::default()
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(problems.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} positions, {elapsed} {msg}",
            )
            .expect("a valid template"),
        );
        bar
    });
    let print = |line: String| match &bar {
        Some(b) => b.println(line),
        None => println!("{line}"),
    };

    print(format!(
        "{:>4} {:>7} {:>5} {:>6} {:>8} {:>15} {:>10} {:>8}  pv",
        "#",
        "empties",
        "move",
        "score",
        "expected",
        if args.edax_nodes {
            "nodes (Edax)"
        } else {
            "nodes"
        },
        "time(s)",
        "Mn/s"
    ));
    let (mut total_nodes, mut total_time) = (0u64, Duration::ZERO);
    let mut total_edax_nodes = 0u64;
    let (mut disagreements, mut bad_lines, mut solved) = (0, 0, 0);
    for (k, problem) in problems.iter().enumerate() {
        let number = first + k;
        let problem = match problem {
            Ok(p) => p,
            Err(e) => {
                print(format!("{number:>4} error: {e}"));
                write_line(format!("% {number} error: {e}"))?;
                bad_lines += 1;
                if let Some(b) = &bar {
                    b.inc(1);
                }
                continue;
            }
        };
        let state = problem.game.current();
        if let Some(reason) = problem.game.variant().impossible_reason(state) {
            let text = format!(
                "{number:>4} error: line {}: impossible board: {reason}",
                problem.line
            );
            write_line(format!("% {}", text.trim_start()))?;
            print(text);
            bad_lines += 1;
            if let Some(b) = &bar {
                b.inc(1);
            }
            continue;
        }
        if !args.keep_hash {
            solver.clear();
        }
        let n_empties = problem.game.current().pos.n_empties();
        let live = LiveProgress {
            bar: bar.as_ref(),
            number,
            n_empties,
            every: (bar.is_none() && args.progress_secs > 0.0)
                .then(|| Duration::try_from_secs_f64(args.progress_secs).ok())
                .flatten(),
        };
        let r: SolveResult = live.while_solving(&solver, || {
            solver.solve(problem.game.variant(), problem.game.current(), &options)
        });
        solved += 1;
        total_nodes += r.nodes;
        total_edax_nodes += r.edax_nodes();
        total_time += r.time;
        let (mark, expected) = match &problem.expected {
            Some((score, moves)) => {
                let score_ok = if args.wld {
                    score.signum() == r.score.signum()
                } else {
                    *score == r.score
                };
                let move_ok = args.wld
                    || r.best_move.is_none()
                    || moves.is_empty()
                    || r.best_move.is_some_and(|m| moves.contains(&m));
                if !(score_ok && move_ok) {
                    disagreements += 1;
                }
                (
                    if score_ok && move_ok { " " } else { "!" },
                    format_score(*score, args.wld),
                )
            }
            None => (" ", "-".into()),
        };
        let best = match r.best_move {
            Some(m) => m.to_upper(),
            None => "--".into(),
        };
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_upper()).collect();
        let nodes = if args.edax_nodes {
            r.edax_nodes()
        } else {
            r.nodes
        };
        print(format!(
            "{number:>4} {:>7} {best:>5} {:>6} {expected:>7}{mark} {:>15} {:>10.3} {:>8.1}  {}",
            r.n_empties,
            format_score(r.score, args.wld),
            nodes,
            r.time.as_secs_f64(),
            nodes as f64 / r.time.as_secs_f64().max(1e-9) / 1e6,
            pv.join(" ")
        ));
        if args.all_moves {
            let side = match problem.game.side_to_move() {
                Color::Black => "X",
                Color::White => "O",
            };
            let scores: Vec<String> = r
                .move_scores
                .iter()
                .map(|(m, s)| format!("{}:{}", m.to_upper(), format_score(*s, args.wld)))
                .collect();
            print(format!("     {side} to move: {}", scores.join(" ")));
        }
        if writing {
            let (black, white) = problem.game.black_white();
            let scores = if args.all_moves {
                r.move_scores.clone()
            } else {
                r.best_move.map(|m| (m, r.score)).into_iter().collect()
            };
            write_line(obf::write_line(&obf::ObfPosition {
                black,
                white,
                side: problem.game.side_to_move(),
                scores,
                line: 0,
            }))?;
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if let Some(path) = &args.output {
        crate::jobs::shard::mark_complete(path, skip + problems.len())?;
    }
    let counted = if args.edax_nodes {
        total_edax_nodes
    } else {
        total_nodes
    };
    println!(
        "total: {solved} solved, {}, {:.3} s, {:.1} Mn/s{}{}",
        if args.edax_nodes {
            format!("{total_edax_nodes} nodes as Edax counts ({total_nodes} in volte's count)")
        } else {
            format!("{total_nodes} nodes")
        },
        total_time.as_secs_f64(),
        counted as f64 / total_time.as_secs_f64().max(1e-9) / 1e6,
        if disagreements > 0 {
            format!(", {disagreements} disagree with the file (marked !)")
        } else {
            String::new()
        },
        if bad_lines > 0 {
            format!(", {bad_lines} unreadable")
        } else {
            String::new()
        }
    );
    if disagreements > 0 || bad_lines > 0 {
        bail!(
            "{disagreements} result(s) disagree with the input and {bad_lines} position(s) could not be read"
        );
    }
    Ok(())
}
