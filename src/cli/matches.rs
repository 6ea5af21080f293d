//! `volte match`.

use super::args::read_input;
use crate::formats::ggf;
use crate::jobs::arena::{self, EngineSpec, MatchGame, Sprt, SprtState, Tally, TimeControl};
use crate::rules::Variant;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// The balanced openings shipped with volte (see `openings/README.md`).
pub const SHIPPED_OPENINGS: &str = include_str!("../../openings/volte-8ply.txt");

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine, given twice (the first is the one the results are for). Built-in:
    /// `key=value` pairs `depth`, `level`, `time` (s per move), `nodes`, `selectivity`
    /// (0-5), `eval` (pattern or classic), `evalfile` (a weight file from `volte train`),
    /// `hash` (MiB), `threads`, `name`, `book` (`shipped` or a book file: play from it;
    /// none by default), `bookrandom` (play book moves within this many discs of the
    /// best at random), e.g. `name=d8,depth=8`. External:
    /// `name=ntest,proto=nboard,cmd=./ntest,dir=/opt/ntest` (`proto` nboard or gtp; the
    /// command is split on whitespace, no shell; optional `depth`).
    #[arg(long = "engine", required = true, num_args = 1, action = clap::ArgAction::Append)]
    pub engines: Vec<EngineSpec>,
    /// Openings, one transcript a line (e.g. ../shared/data/openings/xot-large.txt).
    /// Default: the 8-ply balanced set shipped with volte (Othello and Anti); Reversi 1889
    /// uses random openings.
    #[arg(long)]
    pub openings: Option<String>,
    /// Use random openings of this many plies instead of a file.
    #[arg(long)]
    pub random_plies: Option<usize>,
    /// Start every game from the start position (for engines that vary their play,
    /// e.g. with `bookrandom`).
    #[arg(long, conflicts_with_all = ["openings", "random_plies"])]
    pub from_start: bool,
    /// Number of games (twice the number of openings used).
    #[arg(long, short, default_value_t = 100)]
    pub games: usize,
    /// First opening of the file to use (from 1).
    #[arg(long, default_value_t = 1)]
    pub first_opening: usize,
    /// Seed of random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Seconds per move for every engine.
    #[arg(long)]
    pub move_time: Option<f64>,
    /// A game clock for every engine: MAIN or MAIN+INCREMENT in seconds (e.g. 60+1).
    #[arg(long, conflicts_with = "move_time")]
    pub clock: Option<String>,
    /// Longest wait for a move without --move-time or --clock, in seconds: an engine
    /// that takes longer loses the game as hung.
    #[arg(long, default_value_t = 60.0)]
    pub max_move_time: f64,
    /// Stop when a sequential probability ratio test decides: `elo0,elo1,alpha,beta`
    /// (e.g. `0,10,0.05,0.05`); it does not decide before 40 games. Like the Elo
    /// interval, it reads the scores of the complete opening pairs (the two games of an
    /// opening are not independent), those of the games while fewer than 10 pairs are
    /// complete.
    #[arg(long)]
    pub sprt: Option<Sprt>,
    /// Games played at once.
    #[arg(long, short, default_value_t = 1)]
    pub concurrency: usize,
    /// Write every game as GGF, one a line, to this file.
    #[arg(long, value_name = "FILE")]
    pub output: Option<String>,
    /// Keep a report of the match in this self-contained HTML page, rewritten as each game
    /// ends (it reloads itself in a browser while the match runs): the score and Elo with
    /// its interval, their course over the games, the results of every opening pair and
    /// each engine's time a move.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<String>,
}

fn seconds(value: f64, what: &str) -> Result<Duration> {
    if !(value.is_finite() && value > 0.0 && value < 1e7) {
        bail!("{what} must be a number of seconds above 0, not {value}");
    }
    Ok(Duration::from_secs_f64(value))
}

fn time_control(args: &MatchArgs) -> Result<TimeControl> {
    let mut tc = TimeControl {
        max_move: seconds(args.max_move_time, "--max-move-time")?,
        ..TimeControl::default()
    };
    if let Some(t) = args.move_time {
        tc.move_time = Some(seconds(t, "--move-time")?);
    }
    if let Some(c) = &args.clock {
        let (main, inc) = c.split_once('+').unwrap_or((c, "0"));
        let parse = |x: &str| x.trim().parse::<f64>().ok();
        let (Some(main), Some(inc)) = (parse(main), parse(inc)) else {
            bail!("--clock takes MAIN or MAIN+INCREMENT in seconds, not '{c}'");
        };
        let inc = if inc == 0.0 {
            Duration::ZERO
        } else {
            seconds(inc, "the increment")?
        };
        tc.clock = Some((seconds(main, "the main time")?, inc));
    }
    Ok(tc)
}

pub fn run(args: MatchArgs) -> Result<()> {
    if args.engines.len() != 2 {
        bail!(
            "a match needs exactly two --engine options, not {}",
            args.engines.len()
        );
    }
    let (first, second) = (&args.engines[0], &args.engines[1]);
    let tc = time_control(&args)?;
    for e in &args.engines {
        if let EngineSpec::Builtin(b) = e
            && !b.limited
            && tc.move_time.is_none()
            && tc.clock.is_none()
        {
            bail!(
                "engine '{}' sets no depth, level, time or nodes, and the match has no \
                 --move-time or --clock: it would not know when to move",
                b.name
            );
        }
    }
    let pairs = args.games.div_ceil(2).max(1);
    let openings = match (&args.openings, args.random_plies) {
        _ if args.from_start => vec![crate::game::Game::new(args.variant); pairs],
        (Some(_), Some(_)) => bail!("give --openings or --random-plies, not both"),
        (None, random) if random.is_some() || args.variant == Variant::Reversi1889 => {
            let plies = random.unwrap_or(8);
            let o = arena::random_openings(args.variant, pairs, plies, args.seed);
            if o.len() < pairs {
                bail!("could only make {} distinct random openings", o.len());
            }
            o
        }
        (path, _) => {
            let (name, text) = match path {
                Some(p) => (p.as_str(), read_input(p)?),
                None => ("the shipped openings", SHIPPED_OPENINGS.to_string()),
            };
            let all = arena::parse_openings(&text, args.variant)
                .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
            let start = args.first_opening.saturating_sub(1);
            if start + pairs > all.len() {
                bail!(
                    "{name} has {} openings; {pairs} from number {} are needed",
                    all.len(),
                    args.first_opening
                );
            }
            all[start..start + pairs].to_vec()
        }
    };
    println!(
        "{first} vs {second}: {} games ({} openings, colours swapped), {}",
        openings.len() * 2,
        openings.len(),
        args.variant
    );
    let total = openings.len() * 2;
    let tty = std::io::stderr().is_terminal();
    let time_control = match (tc.move_time, tc.clock) {
        (_, Some((main, inc))) => format!(
            "game clock {} s + {} s a move",
            main.as_secs_f64(),
            inc.as_secs_f64()
        ),
        (Some(t), None) => format!("{} s a move", t.as_secs_f64()),
        (None, None) => "each engine's own depth, level or time".to_string(),
    };
    let report_info = |running: bool| crate::jobs::report::MatchInfo {
        first: first.name(),
        second: second.name(),
        total_games: total,
        time_control: time_control.clone(),
        running,
        first_opening: args.first_opening,
    };
    let finished: std::sync::Mutex<Vec<MatchGame>> = std::sync::Mutex::new(Vec::new());
    let report_error: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    let write_report = |games: &[MatchGame], running: bool| {
        let Some(path) = &args.report else {
            return;
        };
        let refs: Vec<&MatchGame> = games.iter().collect();
        let page = crate::jobs::report::match_html(&report_info(running), &refs, &openings);
        // Written beside and renamed, so a browser never reads half a page.
        let tmp = format!("{path}.tmp");
        if let Err(e) = std::fs::write(&tmp, page).and_then(|()| std::fs::rename(&tmp, path)) {
            let mut slot = report_error.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                eprintln!("cannot write the report {path}: {e}");
                *slot = Some(format!("cannot write the report {path}: {e}"));
            }
        }
    };
    // Each engine's time a move so far, on every progress line: a match stopped before its
    // summary still says how much time each engine used.
    let time_so_far = std::sync::Mutex::new([arena::TimeUse::default(); 2]);
    let progress = |g: &MatchGame, t: &Tally| {
        let [first_ms, second_ms] = {
            let mut time = time_so_far.lock().unwrap_or_else(|e| e.into_inner());
            add_time_use(&mut time, g, openings[g.opening].moves().len());
            time.map(|u| 1000.0 * u.mean_s())
        };
        if args.report.is_some() {
            let mut done = finished.lock().unwrap_or_else(|e| e.into_inner());
            done.push(g.clone());
            write_report(&done, true);
        }
        let llr = args
            .sprt
            .map(|s| format!(", LLR {:.2}", s.test(t).0))
            .unwrap_or_default();
        let line = format!(
            "{}/{} games: +{} ={} -{} ({:.1}%){llr}, ms a move {first_ms:.1} / {second_ms:.1}",
            t.games(),
            total,
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score()
        );
        if tty {
            eprint!("\r{line}   ");
        } else if t.games().is_multiple_of(20) || t.games() as usize == total {
            eprintln!("{line}");
        }
    };
    let games = arena::run_match(
        first,
        second,
        &openings,
        &tc,
        args.concurrency,
        args.sprt,
        &progress,
    );
    if tty {
        eprintln!();
    }
    let mut tally = Tally::default();
    let mut pairing = arena::Pairing::default();
    for g in &games {
        pairing.add(&mut tally, g.opening, g.first_score);
    }
    // Won: more than one point of the two; even: one.
    let p = tally.pairs;
    let pair_results = [p[3] + p[4], p[2], p[0] + p[1]];
    let complete_pairs = tally.complete_pairs();
    println!(
        "{first}: +{} ={} -{} of {} games, score {:.1}%, mean disc difference {:+.2}",
        tally.wins,
        tally.draws,
        tally.losses,
        tally.games(),
        100.0 * tally.score(),
        tally.mean_discs()
    );
    if let Some((elo, lo, hi)) = tally.elo() {
        let by = if tally.by_pairs() { "pairs" } else { "games" };
        println!("Elo difference: {elo:+.0} (95% interval {lo:+.0} to {hi:+.0}, by {by})");
    }
    println!(
        "opening pairs: {} won, {} even, {} lost by {first} (of {complete_pairs})",
        pair_results[0], pair_results[1], pair_results[2]
    );
    let mut time = [arena::TimeUse::default(); 2];
    for g in &games {
        add_time_use(&mut time, g, openings[g.opening].moves().len());
    }
    for (name, t) in [(first, time[0]), (second, time[1])] {
        println!(
            "time a move, {name}: mean {:.1} ms, longest {:.1} ms ({} moves)",
            1000.0 * t.mean_s(),
            1000.0 * t.longest_s,
            t.moves
        );
    }
    for g in games.iter().filter(|g| g.forfeit.is_some()) {
        let (loser, why) = g.forfeit.as_ref().expect("filtered");
        let engine = if (*loser == crate::square::Color::Black) == g.first_is_black {
            first
        } else {
            second
        };
        println!(
            "forfeit: opening {}, {engine} ({loser}) lost: {why}",
            g.opening + args.first_opening
        );
    }
    if let Some(sprt) = args.sprt {
        let (llr, state) = sprt.test(&tally);
        let verdict = match state {
            SprtState::AcceptH1 => format!(
                "H1 accepted: {first} is at least {} Elo stronger",
                sprt.elo1
            ),
            SprtState::AcceptH0 => {
                format!("H0 accepted: {first} is not {} Elo stronger", sprt.elo1)
            }
            SprtState::Continue => "undecided".to_string(),
        };
        println!("SPRT({},{}): LLR {llr:.2}, {verdict}", sprt.elo0, sprt.elo1);
    }
    if let Some(path) = &args.report {
        let done = finished.into_inner().unwrap_or_else(|e| e.into_inner());
        write_report(&done, false);
        if let Some(e) = report_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            bail!("{e}");
        }
        println!("wrote the report {path}");
    }
    if let Some(path) = &args.output {
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {path}"))?,
        );
        for g in &games {
            let mut game = g.game.clone();
            let (black, white) = if g.first_is_black {
                (first, second)
            } else {
                (second, first)
            };
            game.info.black = Some(black.name().to_string());
            game.info.white = Some(white.name().to_string());
            if let Some((loser, why)) = &g.forfeit {
                game.info.comment = Some(format!("{loser} forfeits: {why}"));
                let black_score = if *loser == crate::square::Color::Black {
                    -64.0
                } else {
                    64.0
                };
                game.info.recorded_result = Some(black_score);
            }
            if let Some((main, inc)) = tc.clock {
                game.info.clock = Some(crate::game::Clock {
                    main_s: main.as_secs_f64(),
                    increment_s: inc.as_secs_f64(),
                    grace_s: 0.0,
                });
            }
            writeln!(f, "{}", ggf::write(&game)).with_context(|| format!("writing {path}"))?;
        }
        f.flush().with_context(|| format!("writing {path}"))?;
        println!("wrote {} games to {path}", games.len());
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Number of openings.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Plies of each opening.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Depth of the search that scores them.
    #[arg(long, default_value_t = 12)]
    pub depth: u32,
    /// Largest score (discs, either side) kept.
    #[arg(long, default_value_t = 2)]
    pub max_score: i32,
    /// Rules.
    #[arg(long, short, default_value = "othello")]
    pub variant: Variant,
    /// Random seed.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Output file.
    #[arg(long, default_value = "openings/volte-8ply.txt")]
    pub output: String,
    #[command(flatten)]
    pub eval: super::args::EvalArgs,
}

pub fn run_openings(args: OpeningsArgs) -> Result<()> {
    let started = std::time::Instant::now();
    let candidates = args.count * 4;
    let bar = indicatif::ProgressBar::new(candidates as u64);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "[{bar:30}] {pos}/{len} lines searched, {elapsed} (eta {eta})",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let spec = arena::OpeningsSpec {
        variant: args.variant,
        count: args.count,
        plies: args.plies,
        depth: args.depth,
        max_abs: args.max_score,
        seed: args.seed,
        eval: args.eval.evaluator()?,
    };
    let found = arena::balanced_openings(&spec, &|done| {
        bar.set_position(done as u64);
        if !std::io::stderr().is_terminal() && done.is_multiple_of(200) {
            eprintln!(
                "{done}/{candidates} lines searched, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    });
    bar.finish_and_clear();
    let kind = args.eval.eval.unwrap_or_default();
    let mut text = format!(
        "# {} balanced {}-ply {} openings built by `volte openings --count {} --plies {} --depth {} --max-score {} --seed {} --eval {kind}`:\n\
         # random distinct lines whose depth-{} score ({kind} evaluation, no probable cuts) is within {} discs of even.\n\
         # One transcript a line, then its score for the side to move as a comment.\n",
        found.len(),
        args.plies,
        args.variant,
        args.count,
        args.plies,
        args.depth,
        args.max_score,
        args.seed,
        args.depth,
        args.max_score
    );
    for (game, score) in &found {
        text.push_str(&format!("{} # {score:+}\n", game.transcript()));
    }
    std::fs::write(&args.output, text).with_context(|| format!("cannot write {}", args.output))?;
    println!(
        "{} openings (of {candidates} candidates) written to {} in {:.0} s",
        found.len(),
        args.output,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Adds the moves of `g` after its opening's `from` plies to each engine's time use (the
/// first engine's, then the second's).
fn add_time_use(time: &mut [arena::TimeUse; 2], g: &MatchGame, from: usize) {
    let first_color = if g.first_is_black {
        crate::square::Color::Black
    } else {
        crate::square::Color::White
    };
    time[0].add_game(&g.game, first_color, from);
    time[1].add_game(&g.game, first_color.opposite(), from);
}
