//! The NBoard protocol (version 2), as the NBoard GUI speaks it: `set game` with a whole
//! GGF game, `move`, `go` (`=== MOVE/eval/time`), `hint n` (`search` lines as the depth
//! grows), `ping`/`pong` even mid-search, `analyze`, `learn`, `set depth`, `set contempt`,
//! `quit`. Nothing is written to stderr: the GUI merges it into stdout.

use super::{Background, Output, ProtocolOptions, game_clock, read_line};
use crate::engine::{DEFAULT_LEVEL, Engine, EngineOptions, GameClock, Limits};
use crate::engine::{Iteration, ResultKind};
use crate::formats::ggf;
use crate::game::Game;
use crate::square::{Color, Move};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

/// The limits of `go` at `level` (`set depth`; `None` until one came) with the mover's
/// game `clock`, if the game has one. A level caps the depth as NBoard asks (the clock
/// then only stops the search sooner). Without one the clock alone decides, as a match
/// manager that sends a clock and no depth expects: the search deepens while the clock's
/// plan allows ([`crate::search::time`]). Without either, [`DEFAULT_LEVEL`].
pub fn timed_limits(level: Option<u32>, clock: Option<GameClock>) -> Limits {
    let mut limits = match (level, clock) {
        (None, Some(_)) => Limits::default(),
        (level, _) => Limits::level(level.unwrap_or(DEFAULT_LEVEL)),
    };
    limits.clock = clock;
    limits
}

/// The depth field of a `search` line: the midgame depth, or `100%` for an exact solve,
/// `100%W` for a proven win/loss/draw, `<p>%` for a solve with probable cuts.
pub fn depth_text(it: &Iteration) -> String {
    match it.kind {
        ResultKind::Exact => "100%".to_string(),
        ResultKind::WinLossDraw => "100%W".to_string(),
        ResultKind::ProbableSolve => format!("{}%", it.probability),
        ResultKind::Midgame | ResultKind::Book => it.depth.to_string(),
    }
}

/// A principal variation without spaces: `F5D6C3`, `PA` for a pass.
pub fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_upper()).collect()
}

/// The `search` lines of one iteration: one per scored move (the best only when a single
/// line was asked for).
fn search_lines(it: &Iteration) -> Vec<String> {
    let depth = depth_text(it);
    if it.lines.is_empty() {
        vec![format!("search {} {} 0 {depth}", pv_text(&it.pv), it.score)]
    } else {
        it.lines
            .iter()
            .map(|l| format!("search {} {} 0 {depth}", pv_text(&l.pv), l.score))
            .collect()
    }
}

struct Session {
    engine: Arc<Engine>,
    game: Game,
    /// The level `set depth` (or `--level`) chose: `None` until one does.
    level: Option<u32>,
    contempt: i32,
    out: Output,
    background: Background,
    /// Set to abandon a running `analyze` between positions.
    cancel: Arc<AtomicBool>,
    /// Where `learn` saves the book.
    book_path: Option<std::path::PathBuf>,
    /// The engine options, for the engine that learns.
    options: ProtocolOptions,
    /// The thread that learns games, which neither `ping` nor a new game stops.
    learner: Option<Learner>,
    /// Why the last `set game` could not be read: until a game is read, volte plays and
    /// analyses nothing rather than answer from a position the GUI has left.
    unreadable: Option<String>,
}

/// Plies of a game NBoard's `learn` adds to the book.
pub const LEARN_PLIES: usize = 30;
/// Empties from which `learn` solves the leaves exactly.
pub const LEARN_SOLVE_FROM: u32 = 24;

/// Runs the NBoard loop until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: Box<dyn Write + Send>, options: ProtocolOptions) {
    let engine = Arc::new(options.engine());
    let mut session = Session {
        background: Background::new(engine.stop_handle()),
        engine,
        game: Game::new(options.variant),
        level: options.level,
        contempt: 0,
        out: Output::new(output),
        cancel: Arc::new(AtomicBool::new(false)),
        book_path: options.book_path.clone(),
        options: options.clone(),
        learner: None,
        unreadable: None,
    };
    let mut input = input;
    let mut buf = Vec::new();
    while let Some(line) = read_line(&mut input, &mut buf) {
        if !session.command(&line) {
            break;
        }
    }
    session.halt();
    // The games being learnt are finished and saved before volte exits.
    if let Some(learner) = session.learner.take() {
        learner.finish();
    }
}

impl Session {
    /// Stops whatever runs in the background.
    fn halt(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.background.stop();
        self.cancel.store(false, Ordering::Relaxed);
    }

    fn status(&self, text: &str) {
        self.out.line(&format!("status {text}"));
    }

    /// Obeys one line; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "nboard" => {
                if rest != "2" {
                    self.status(&format!("volte speaks NBoard protocol 2, not '{rest}'"));
                }
            }
            "ping" => {
                self.halt();
                self.out.line(&format!("pong {rest}"));
            }
            "quit" => {
                self.halt();
                return false;
            }
            "set" => self.set(rest),
            "move" => {
                self.halt();
                self.play(rest);
            }
            "go" => {
                self.halt();
                self.go();
            }
            "hint" => {
                self.halt();
                match rest.parse::<usize>() {
                    Ok(n) if n >= 1 => self.hint(n.min(64)),
                    _ => self.status(&format!("hint needs a number of moves, not '{rest}'")),
                }
            }
            "analyze" => {
                self.halt();
                self.analyze();
            }
            "learn" => {
                self.halt();
                self.learn();
            }
            _ => self.status(&format!("unknown command '{}'", truncate(cmd))),
        }
        true
    }

    fn set(&mut self, rest: &str) {
        let (what, value) = match rest.split_once(char::is_whitespace) {
            Some((w, v)) => (w, v.trim()),
            None => (rest, ""),
        };
        match what {
            "game" => {
                self.halt();
                match ggf::parse_game(value) {
                    Ok(game) => {
                        if game.variant() != self.game.variant()
                            || game.start() != self.game.start()
                        {
                            self.engine.clear();
                        } else if !game.states().starts_with(self.game.states())
                            && !self.game.states().starts_with(game.states())
                        {
                            // Not the same game going on or taken back: a new one.
                            self.engine.new_game();
                        }
                        self.game = game;
                        self.unreadable = None;
                    }
                    Err(e) => {
                        self.unreadable = Some(format!("the game sent could not be read ({e})"));
                        self.status(&format!("cannot read the game: {e}"));
                    }
                }
            }
            "depth" => match value.parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => {
                    self.level = Some(d);
                    self.out.line(&format!("set myname volte{d}"));
                }
                _ => self.status(&format!("depth must be 1 to 60, not '{}'", truncate(value))),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(c) => self.contempt = c.clamp(-100, 100),
                Err(_) => self.status(&format!(
                    "contempt must be a number, not '{}'",
                    truncate(value)
                )),
            },
            _ => self.status(&format!("unknown setting '{}'", truncate(what))),
        }
    }

    fn play(&mut self, text: &str) {
        if self.stale() {
            return;
        }
        let problem = match ggf::parse_move_item(text) {
            Ok(record) => match self.game.play_record(record) {
                Ok(()) => return,
                Err(e) => format!("illegal move {}: {e}", truncate(text)),
            },
            Err(e) => format!("cannot read move '{}': {e}", truncate(text)),
        };
        // The GUI's game went on without volte's: answering from here would be answering
        // for a position the GUI has left.
        self.unreadable = Some(problem.clone());
        self.status(&problem);
    }

    /// Whether volte lost track of the GUI's game (a game or move it could not take); says so
    /// in a `status` line, and waits for the next `set game`.
    fn stale(&mut self) -> bool {
        match &self.unreadable {
            Some(why) => {
                let text = format!("waiting for a new game: {why}");
                self.status(&text);
                true
            }
            None => false,
        }
    }

    /// The session's level, without a clock.
    fn limits(&self) -> Limits {
        timed_limits(self.level, None)
    }

    fn go(&mut self) {
        if self.stale() {
            return;
        }
        if self.game.is_over() {
            self.status("the game is over");
            return;
        }
        if self.game.legal_moves() == 0 {
            self.out.line("=== PA");
            return;
        }
        let mut limits = timed_limits(self.level, game_clock(&self.game, self.game.side_to_move()));
        limits.book = true;
        let (engine, game, out) = (
            Arc::clone(&self.engine),
            self.game.clone(),
            self.out.clone(),
        );
        out.line("status thinking");
        self.background.spawn(move || {
            let start = Instant::now();
            let result = engine.think_game(&game, &limits, &mut |_| {});
            let secs = start.elapsed().as_secs_f64();
            if let Some(it) = result {
                out.line(&format!("nodestats {} {secs:.3}", it.nodes));
                out.line(&format!(
                    "=== {}/{}/{secs:.3}",
                    it.best_move.to_upper(),
                    it.score
                ));
            }
            out.line("status");
        });
    }

    /// The `n` best moves (all when fewer are legal): the book's as `book` lines, then the
    /// others searched as `search` lines. Where the side to move must pass, every line
    /// starts with the pass and scores for that side.
    fn hint(&mut self, n: usize) {
        if self.stale() {
            return;
        }
        if self.game.is_over() {
            self.status("the game is over");
            return;
        }
        let variant = self.game.variant();
        let mut state = *self.game.current();
        let mut prefix = "";
        let mut n = n;
        if self.game.legal_moves() == 0 {
            // The mover's one move is the pass: one line, the pass then the best line, since
            // the GUI keys lines by their first move and would keep only the last `PA` line.
            state = state.pass();
            prefix = "PA";
            n = 1;
        }
        let book = self.engine.book_moves(variant, &state);
        let mut in_book = 0u64;
        for m in book.iter().take(n) {
            let depth = if m.exact {
                "100%".to_string()
            } else {
                m.depth.to_string()
            };
            let score = if prefix.is_empty() { m.score } else { -m.score };
            self.out.line(&format!(
                "book {prefix}{} {score} {} {depth}",
                pv_text(&m.line),
                m.games
            ));
            in_book |= 1 << m.square.index();
        }
        let others = variant.legal_moves(&state) & !in_book;
        let lines = n - n.min(book.len());
        if others == 0 || lines == 0 {
            self.out.line("status");
            return;
        }
        let limits = Limits {
            lines,
            root_moves: (in_book != 0).then_some(others),
            ..self.limits()
        };
        let (engine, game, out) = (
            Arc::clone(&self.engine),
            self.game.clone(),
            self.out.clone(),
        );
        out.line("status thinking");
        self.background.spawn(move || {
            let start = Instant::now();
            let result = engine.think_game(&game, &limits, &mut |it| {
                for l in search_lines(it) {
                    out.line(&l);
                }
            });
            if let Some(it) = result {
                out.line(&format!(
                    "nodestats {} {:.3}",
                    it.nodes,
                    start.elapsed().as_secs_f64()
                ));
            }
            out.line("status");
        });
    }

    /// Adds the game to the book (its first [`LEARN_PLIES`] plies, leaves searched at the
    /// session's level by an engine of its own, so that play goes on meanwhile), saves the
    /// book when it came from a file, and replies `learned`. Games are learnt one at a
    /// time, in the order asked, on a thread of their own: the command loop never waits.
    fn learn(&mut self) {
        if self.stale() {
            // Nothing is learnt (the status says why), but the GUI waits for the answer.
            self.out.line("learned");
            return;
        }
        let job = LearnJob {
            game: self.game.clone(),
            level: self.level.unwrap_or(DEFAULT_LEVEL),
        };
        self.out.line("status learning");
        let learner = self.learner.get_or_insert_with(|| {
            Learner::start(
                Arc::clone(&self.engine),
                self.out.clone(),
                self.book_path.clone(),
                self.options.clone(),
            )
        });
        learner.submit(job);
    }

    /// Retrograde analysis: the score of every position from the last back to the first,
    /// in black's view (positive when black is ahead), as the GUI draws it.
    fn analyze(&mut self) {
        if self.stale() {
            return;
        }
        let (engine, game, out) = (
            Arc::clone(&self.engine),
            self.game.clone(),
            self.out.clone(),
        );
        let limits = self.limits();
        let cancel = Arc::clone(&self.cancel);
        out.line("status analysing");
        self.background.spawn(move || {
            let variant = game.variant();
            for (ply, state) in game.states().iter().enumerate().rev() {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let score = match engine.think(variant, state, &limits, &mut |_| {}) {
                    Some(it) => it.score,
                    None => variant.final_score(state),
                };
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                // The GUI plots the values as they come, beside curves in black's view.
                let black = match game.side_at(ply) {
                    Color::Black => score,
                    Color::White => -score,
                };
                out.line(&format!("analysis {ply} {black}"));
            }
            out.line("status");
        });
    }
}

/// A game to add to the book, at the level of the session when `learn` came.
struct LearnJob {
    game: Game,
    level: u32,
}

/// The thread that learns games into the book, one after the other, with a searching
/// engine of its own (made on that thread, so that `learn` returns at once).
struct Learner {
    jobs: mpsc::Sender<LearnJob>,
    thread: std::thread::JoinHandle<()>,
}

impl Learner {
    fn start(
        engine: Arc<Engine>,
        out: Output,
        path: Option<std::path::PathBuf>,
        options: ProtocolOptions,
    ) -> Learner {
        let (jobs, queue) = mpsc::channel::<LearnJob>();
        let thread = std::thread::spawn(move || {
            let searcher = Engine::new(EngineOptions {
                threads: 1,
                hash_mb: options.engine.hash_mb.min(64),
                ..options.engine
            });
            for job in queue {
                let depth = crate::engine::Level::new(job.level).depth;
                match engine.learn(&searcher, &job.game, LEARN_PLIES, depth, LEARN_SOLVE_FROM) {
                    Err(e) => out.line(&format!("status {e}")),
                    Ok((added, searched)) => {
                        let saved = match (&path, engine.book()) {
                            (Some(p), Some(book)) => match book.save(p) {
                                Ok(()) => format!("saved to {}", p.display()),
                                Err(e) => format!("not saved: {e:#}"),
                            },
                            _ => "kept for this session (start volte with --book FILE to keep it)"
                                .to_string(),
                        };
                        out.line(&format!(
                            "status learned: {added} positions added, {searched} searched, {saved}"
                        ));
                    }
                }
                out.line("learned");
            }
        });
        Learner { jobs, thread }
    }

    /// Queues a game behind those already asked for.
    fn submit(&self, job: LearnJob) {
        // The thread only ends when the sender is dropped, so the send cannot fail.
        let _ = self.jobs.send(job);
    }

    /// Learns the queued games, then ends the thread.
    fn finish(self) {
        drop(self.jobs);
        let _ = self.thread.join();
    }
}

/// A bad word as it appears in a status line: at most 40 characters.
fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{DEFAULT_SELECTIVITY, LEVEL_SELECTIVITY, MAX_LEVEL};
    use crate::square::Square;
    use std::time::Duration;

    #[test]
    fn a_clock_without_a_depth_is_played_by_the_clock() {
        let clock = GameClock {
            remaining: Duration::from_secs(30),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let by_clock = timed_limits(None, Some(clock)).plan(40);
        assert_eq!(by_clock.depth, MAX_LEVEL);
        assert_eq!(by_clock.selectivity, DEFAULT_SELECTIVITY);
        assert!(by_clock.time.is_some());
        let capped = timed_limits(Some(8), Some(clock)).plan(40);
        assert_eq!(capped.depth, 8);
        assert_eq!(capped.selectivity, LEVEL_SELECTIVITY);
        assert!(capped.time.is_some());
        let untimed = timed_limits(None, None).plan(40);
        assert_eq!(untimed.depth, DEFAULT_LEVEL);
        assert!(untimed.time.is_none());
    }

    #[test]
    fn depth_and_pv_texts() {
        let mut it = Iteration {
            depth: 12,
            probability: 100,
            kind: ResultKind::Midgame,
            score: 3,
            best_move: Move::Play(Square::parse("f5").unwrap()),
            pv: vec![
                Move::Play(Square::parse("f5").unwrap()),
                Move::Pass,
                Move::Play(Square::parse("c3").unwrap()),
            ],
            nodes: 10,
            time: std::time::Duration::ZERO,
            lines: Vec::new(),
        };
        assert_eq!(depth_text(&it), "12");
        assert_eq!(pv_text(&it.pv), "F5PAC3");
        it.kind = ResultKind::Exact;
        assert_eq!(depth_text(&it), "100%");
        it.kind = ResultKind::WinLossDraw;
        assert_eq!(depth_text(&it), "100%W");
        assert_eq!(search_lines(&it), vec!["search F5PAC3 3 0 100%W"]);
        it.kind = ResultKind::ProbableSolve;
        it.probability = 95;
        assert_eq!(depth_text(&it), "95%");
    }
}
