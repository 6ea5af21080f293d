//! Playing volte in a terminal: a board with coordinates, the last move and the flipped
//! discs marked, the legal moves, disc counts, and the engine's score and line after each
//! of its moves. The loop reads commands from any `BufRead` and writes to any `Write`, so
//! it works with piped input (without colours) and tests drive it from strings.

use crate::engine::{Engine, EngineOptions, Limits};
use crate::formats::{self, ggf, transcript};
use crate::game::{Game, MoveRecord};
use crate::rules::Variant;
use crate::square::{Color, Move, Square};
use std::io::{self, BufRead, Write};

/// Who the human plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seats {
    /// The human plays this colour, volte the other.
    Human(Color),
    /// The human plays both colours (volte only gives hints).
    Both,
    /// volte plays both colours; the human watches.
    None,
}

impl std::str::FromStr for Seats {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Seats::Human(Color::Black)),
            "white" | "w" | "o" => Ok(Seats::Human(Color::White)),
            "both" => Ok(Seats::Both),
            "none" => Ok(Seats::None),
            _ => Err(format!("'{s}' is not black, white, both or none")),
        }
    }
}

/// How a session starts.
pub struct PlayOptions {
    pub level: u32,
    pub seats: Seats,
    pub colors: bool,
    pub engine: EngineOptions,
}

const HELP: &str = "\
commands:
  f5           play a move (any case)
  pass         pass (only when you have no move)
  undo         take back your last move (and volte's reply)
  hint         volte's best move for the side to move
  level N      volte's strength, 1-60
  save FILE    save the game (GGF when FILE ends in .ggf, else a transcript)
  load FILE    load a game (GGF, transcript or board)
  help         this list
  quit         leave";

struct Session<'a, W: Write> {
    engine: Engine,
    game: Game,
    level: u32,
    seats: Seats,
    colors: bool,
    out: &'a mut W,
}

/// Runs a session until `quit` or the end of the input.
pub fn run(
    input: &mut impl BufRead,
    out: &mut impl Write,
    game: Game,
    options: PlayOptions,
) -> io::Result<()> {
    let mut s = Session {
        engine: Engine::new(options.engine.seeded_by_time()),
        game,
        level: options.level,
        seats: options.seats,
        colors: options.colors,
        out,
    };
    writeln!(
        s.out,
        "volte {} — {} at level {}. Type help for the commands.",
        env!("CARGO_PKG_VERSION"),
        s.game.variant(),
        s.level
    )?;
    s.show()?;
    let mut line = String::new();
    loop {
        // volte's turns, and the end of the game.
        while !s.game.is_over() && !s.human_to_move() {
            s.engine_move()?;
            s.show()?;
        }
        if s.game.is_over() {
            s.game_over(input)?;
            return Ok(());
        }
        write!(s.out, "{} to move> ", s.game.side_to_move())?;
        s.out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(s.out)?;
            return Ok(());
        }
        if !s.command(line.trim())? {
            return Ok(());
        }
    }
}

impl<W: Write> Session<'_, W> {
    fn human_to_move(&self) -> bool {
        match self.seats {
            Seats::Both => true,
            Seats::None => false,
            Seats::Human(c) => self.game.side_to_move() == c,
        }
    }

    fn paint(&self, text: &str, code: &str) -> String {
        if self.colors {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// The board: last move in brackets, flipped discs in parentheses, legal moves as dots.
    fn show(&mut self) -> io::Result<()> {
        let (black, white) = self.game.black_white();
        let legal = if self.game.is_over() {
            0
        } else {
            self.game.legal_moves()
        };
        let last = self.game.moves().iter().rev().find_map(|m| m.mv.square());
        let last_is_latest = self
            .game
            .moves()
            .last()
            .and_then(|m| m.mv.square())
            .is_some();
        let flipped = if last_is_latest {
            self.game.last_flips()
        } else {
            0
        };
        let mut text = String::from("\n    a  b  c  d  e  f  g  h\n");
        for row in 0..8u8 {
            text.push_str(&format!(" {} ", row + 1));
            for col in 0..8u8 {
                let sq = Square::from_coords(col, row);
                let bit = 1u64 << sq.index();
                let disc = if black & bit != 0 {
                    self.paint("X", "1;30;47")
                } else if white & bit != 0 {
                    self.paint("O", "1;37;40")
                } else if legal & bit != 0 {
                    self.paint(".", "33")
                } else {
                    "-".to_string()
                };
                let cell = if last_is_latest && last == Some(sq) {
                    format!("[{disc}]")
                } else if flipped & bit != 0 {
                    format!("({disc})")
                } else {
                    format!(" {disc} ")
                };
                text.push_str(&cell);
            }
            text.push('\n');
        }
        let (b, w) = self.game.disc_counts();
        text.push_str(&format!("   X (black) {b}  O (white) {w}"));
        if self.game.variant() == Variant::Reversi1889 {
            let s = self.game.current();
            let (bh, wh) = if self.game.side_to_move() == Color::Black {
                (s.player_supply, s.opponent_supply)
            } else {
                (s.opponent_supply, s.player_supply)
            };
            text.push_str(&format!("  in hand: black {bh}, white {wh}"));
        }
        text.push('\n');
        if let Some(m) = self.game.moves().last() {
            text.push_str(&format!(
                "   last move: {} by {}\n",
                m.mv,
                self.game.side_at(self.game.moves().len() - 1)
            ));
        }
        write!(self.out, "{text}")
    }

    fn limits(&self) -> Limits {
        Limits::level(self.level)
    }

    fn engine_move(&mut self) -> io::Result<()> {
        let color = self.game.side_to_move();
        if self.game.legal_moves() == 0 {
            writeln!(self.out, "volte ({color}) has no move and passes.")?;
            self.game.play(Move::Pass).expect("a forced pass is legal");
            return Ok(());
        }
        let limits = Limits {
            book: true,
            ..self.limits()
        };
        let Some(it) = self.engine.think_game(&self.game, &limits, &mut |_| {}) else {
            return Ok(());
        };
        let pv: Vec<String> = it.pv.iter().map(|m| m.to_string()).collect();
        writeln!(
            self.out,
            "volte ({color}) plays {} — score {:+}, {}: {}",
            it.best_move,
            it.score,
            describe_depth(&it),
            pv.join(" ")
        )?;
        self.game
            .play_record(MoveRecord {
                mv: it.best_move,
                eval: Some(f64::from(it.score)),
                time_s: Some(it.time.as_secs_f64()),
            })
            .expect("the engine plays legal moves");
        Ok(())
    }

    /// Obeys one command line; false to quit.
    fn command(&mut self, line: &str) -> io::Result<bool> {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(false),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "undo" => self.undo()?,
            "hint" => {
                let limits = Limits {
                    book: true,
                    ..self.limits()
                };
                if let Some(it) = self.engine.think_game(&self.game, &limits, &mut |_| {}) {
                    let pv: Vec<String> = it.pv.iter().map(|m| m.to_string()).collect();
                    writeln!(
                        self.out,
                        "hint: {} (score {:+}, {}: {})",
                        it.best_move,
                        it.score,
                        describe_depth(&it),
                        pv.join(" ")
                    )?;
                }
            }
            "level" => match arg.parse::<u32>() {
                Ok(l) if (1..=60).contains(&l) => {
                    self.level = l;
                    writeln!(self.out, "level {l}")?;
                }
                _ => writeln!(self.out, "level must be a number from 1 to 60")?,
            },
            "save" => self.save(arg)?,
            "load" => self.load(arg)?,
            _ => match Move::parse(cmd) {
                Some(mv) => match self.game.play(mv) {
                    Ok(()) => self.show()?,
                    Err(e) => writeln!(self.out, "{cmd} is refused: {e}")?,
                },
                None if looks_like_square(cmd) => {
                    writeln!(self.out, "{cmd} is refused: it is off the board (a1 to h8)")?
                }
                None => writeln!(
                    self.out,
                    "'{cmd}' is neither a move nor a command (type help)"
                )?,
            },
        }
        Ok(true)
    }

    /// Takes back the human's last move and everything after it (volte's reply, passes).
    fn undo(&mut self) -> io::Result<()> {
        if self.game.moves().is_empty() {
            return writeln!(self.out, "nothing to undo");
        }
        match self.seats {
            Seats::Human(human) => loop {
                let ply = self.game.moves().len();
                if ply == 0 {
                    break;
                }
                let mover = self.game.side_at(ply - 1);
                let record = self.game.undo().expect("a ply to undo");
                if mover == human && record.mv != Move::Pass {
                    break;
                }
            },
            Seats::Both | Seats::None => {
                self.game.undo_move();
            }
        }
        self.show()
    }

    fn save(&mut self, path: &str) -> io::Result<()> {
        if path.is_empty() {
            return writeln!(self.out, "save needs a file name");
        }
        let text = if path.to_ascii_lowercase().ends_with(".ggf") {
            ggf::write(&self.game)
        } else if self.game.has_standard_start() {
            transcript::write(&self.game)
        } else {
            // A transcript cannot say where a custom start was: GGF can.
            ggf::write(&self.game)
        };
        match std::fs::write(path, text + "\n") {
            Ok(()) => writeln!(self.out, "saved to {path}"),
            Err(e) => writeln!(self.out, "cannot save to {path}: {e}"),
        }
    }

    fn load(&mut self, path: &str) -> io::Result<()> {
        if path.is_empty() {
            return writeln!(self.out, "load needs a file name");
        }
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return writeln!(self.out, "cannot read {path}: {e}"),
        };
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("");
        let parsed = if text.trim_start().starts_with("(;") {
            formats::parse_any(&text, self.game.variant())
        } else {
            formats::parse_any(first, self.game.variant())
        };
        match parsed {
            Ok(game) => {
                self.game = game;
                self.engine.clear();
                writeln!(self.out, "loaded {path}")?;
                self.show()
            }
            Err(e) => writeln!(self.out, "cannot load {path}: {e}"),
        }
    }

    fn game_over(&mut self, input: &mut impl BufRead) -> io::Result<()> {
        let black = self.game.final_score_black().unwrap_or(0);
        let (b, w) = self.game.disc_counts();
        let verdict = match black.signum() {
            1 => format!("black wins by {black}"),
            -1 => format!("white wins by {}", -black),
            _ => "a draw".to_string(),
        };
        writeln!(
            self.out,
            "Game over: {verdict} ({b}-{w} on the board, {} rules).",
            self.game.variant()
        )?;
        write!(
            self.out,
            "Save the game? File name (empty or no: don't save): "
        )?;
        self.out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return writeln!(self.out);
        }
        let answer = line.trim();
        // A word that answers no, or a command typed out of habit, is not a file name.
        if DECLINE_SAVE.contains(&answer.to_ascii_lowercase().as_str()) {
            return writeln!(self.out, "not saved");
        }
        self.save(answer)
    }
}

/// Answers to the save prompt at the end of a game that mean "don't save": empty, no,
/// and the commands that leave.
const DECLINE_SAVE: &[&str] = &["", "n", "no", "quit", "exit", "q"];

/// A letter and a number, like a square name outside the board (`z9`, `a10`).
fn looks_like_square(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.clone().next().is_some()
        && chars.all(|c| c.is_ascii_digit())
}

fn describe_depth(it: &crate::engine::Iteration) -> String {
    use crate::engine::ResultKind;
    match it.kind {
        ResultKind::Exact => "exact".to_string(),
        ResultKind::WinLossDraw => "win/loss/draw".to_string(),
        ResultKind::ProbableSolve => format!("solved at {}%", it.probability),
        ResultKind::Midgame => format!("depth {}", it.depth),
        ResultKind::Book => format!("book, depth {}", it.depth),
    }
}
