//! An engine run as a separate program that speaks NBoard or GTP: started from a command
//! line (split on whitespace, no shell) in a working directory, fed the game, and asked
//! for moves with a deadline. A crash, a hang past the deadline or a reply that is not the
//! protocol ends the game with that reason; the process is then killed and started again
//! for the next game. Dropping the player kills its process: none is left behind.

use super::{Forfeit, TimeControl};
use crate::formats::ggf;
use crate::game::{Clock, Game, MoveRecord};
use crate::rules::Variant;
use crate::square::{Color, Move};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Nboard,
    Gtp,
}

/// How to start an external engine.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalSpec {
    pub name: String,
    pub proto: Proto,
    /// Program and arguments, split on whitespace.
    pub cmd: String,
    pub dir: Option<PathBuf>,
    /// Depth to ask for (NBoard `set depth`, GTP `level`), if any.
    pub depth: Option<u32>,
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external engine as a player.
pub struct ExternalPlayer {
    spec: ExternalSpec,
    process: Option<Process>,
    /// GTP: moves of the current game already sent.
    sent: usize,
    ping: u64,
}

impl ExternalPlayer {
    pub fn new(spec: ExternalSpec) -> ExternalPlayer {
        ExternalPlayer {
            spec,
            process: None,
            sent: 0,
            ping: 0,
        }
    }

    fn start(&mut self) -> Result<(), Forfeit> {
        let mut words = self.spec.cmd.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| Forfeit::Crash("empty command line".to_string()))?;
        let mut command = Command::new(program);
        command
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &self.spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Forfeit::Crash(format!("cannot start '{}': {e}", self.spec.cmd)))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        self.process = Some(Process {
            child,
            stdin,
            lines,
        });
        Ok(())
    }

    /// Kills the process (after a forfeit); the next game starts a new one.
    pub fn kill(&mut self) {
        self.process = None;
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Forfeit::Crash("not running".to_string()))?;
        writeln!(p.stdin, "{line}")
            .and_then(|_| p.stdin.flush())
            .map_err(|_| Forfeit::Crash("the engine closed its input".to_string()))
    }

    fn receive(&mut self, deadline: Instant) -> Result<String, Forfeit> {
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Forfeit::Crash("not running".to_string()))?;
        let wait = deadline.saturating_duration_since(Instant::now());
        match p.lines.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(Forfeit::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                let status = p.child.try_wait().ok().flatten();
                Err(Forfeit::Crash(match status {
                    Some(s) => format!("the engine exited ({s})"),
                    None => "the engine closed its output".to_string(),
                }))
            }
        }
    }

    /// Starts a game of `variant` (a new process when the last one was killed).
    pub fn new_game(&mut self, variant: Variant, tc: &TimeControl) -> Result<(), Forfeit> {
        if self.process.is_none() {
            self.start()?;
        }
        self.sent = 0;
        let setup = Instant::now() + Duration::from_secs(30);
        match self.spec.proto {
            Proto::Nboard => {
                self.send("nboard 2")?;
                if let Some(d) = self.spec.depth {
                    self.send(&format!("set depth {d}"))?;
                }
            }
            Proto::Gtp => {
                self.gtp("boardsize 8", setup)?;
                if variant != Variant::Othello {
                    self.gtp(&format!("set_game {}", variant.gtp_name()), setup)?;
                }
                self.gtp("clear_board", setup)?;
                if let Some(d) = self.spec.depth {
                    // `level` is not standard GTP: engines that lack it keep their own.
                    let _ = self.gtp(&format!("level {d}"), setup);
                }
                // GTP's times are whole seconds. An engine that takes fractions (volte
                // does) is told the exact time; one that refuses them, the whole seconds
                // above it.
                let settings = match (tc.clock, tc.move_time) {
                    (Some((main, _)), _) => Some((main.as_secs_f64(), 0.0, 0)),
                    (None, Some(t)) => Some((0.0, t.as_secs_f64(), 1)),
                    (None, None) => None,
                };
                if let Some((main, byo, stones)) = settings {
                    let exact = format!("time_settings {main} {byo} {stones}");
                    let whole = main.fract() == 0.0 && byo.fract() == 0.0;
                    if whole || self.gtp(&exact, setup).is_err() {
                        let byo = if stones > 0 { byo.ceil().max(1.0) } else { 0.0 };
                        self.gtp(
                            &format!("time_settings {} {byo} {stones}", main.ceil()),
                            setup,
                        )?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Sends a GTP command and returns its answer; a `?` answer or a line that is not GTP
    /// is a protocol error.
    fn gtp(&mut self, command: &str, deadline: Instant) -> Result<String, Forfeit> {
        self.send(command)?;
        let first = loop {
            let l = self.receive(deadline)?;
            if !l.trim().is_empty() {
                break l;
            }
        };
        let ok = first.starts_with('=');
        if !ok && !first.starts_with('?') {
            return Err(Forfeit::Protocol(format!(
                "'{}' answered '{}'",
                command,
                first.chars().take(60).collect::<String>()
            )));
        }
        let mut text = first[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string();
        loop {
            let l = self.receive(deadline)?;
            if l.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(l.trim());
        }
        if ok {
            Ok(text)
        } else {
            Err(Forfeit::Protocol(format!("'{command}' failed: {text}")))
        }
    }

    /// Asks for the move of the side to move of `game`; `clocks` are both sides' time
    /// left (when a clock runs); the answer must come before `deadline`.
    pub fn choose(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: [Duration; 2],
        deadline: Instant,
    ) -> Result<MoveRecord, Forfeit> {
        match self.spec.proto {
            Proto::Nboard => self.choose_nboard(game, tc, deadline),
            Proto::Gtp => self.choose_gtp(game, tc, clocks, deadline),
        }
    }

    fn choose_nboard(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        deadline: Instant,
    ) -> Result<MoveRecord, Forfeit> {
        let g = nboard_game(game, tc);
        self.send(&format!("set game {}", ggf::write(&g)))?;
        self.ping += 1;
        let ping = self.ping;
        self.send(&format!("ping {ping}"))?;
        let want = format!("pong {ping}");
        while self.receive(deadline)?.trim() != want {}
        self.send("go")?;
        loop {
            let l = self.receive(deadline)?;
            if let Some(item) = l.trim().strip_prefix("===") {
                let item = item.trim();
                // `F5/0.5/1.2`, or Edax's `F5 0.50 1.2`.
                let normal = item.split_whitespace().collect::<Vec<_>>().join("/");
                return ggf::parse_move_item(&normal)
                    .map_err(|e| Forfeit::Protocol(format!("bad move reply '{l}': {e}")));
            }
        }
    }

    fn choose_gtp(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: [Duration; 2],
        deadline: Instant,
    ) -> Result<MoveRecord, Forfeit> {
        // Send the moves it has not seen, as Quarry does (passes are not sent).
        for ply in self.sent..game.moves().len() {
            if let Move::Play(sq) = game.moves()[ply].mv {
                self.gtp(&format!("play {} {sq}", game.side_at(ply)), deadline)?;
            }
        }
        self.sent = game.moves().len();
        let color = game.side_to_move();
        if tc.clock.is_some() {
            let side = usize::from(color == Color::White);
            self.gtp(
                &format!("time_left {color} {} 0", clocks[side].as_secs_f64().floor()),
                deadline,
            )?;
        }
        let answer = self.gtp(&format!("genmove {color}"), deadline)?;
        let word = answer.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("resign") {
            return Err(Forfeit::Resign);
        }
        let mv = Move::parse(word)
            .ok_or_else(|| Forfeit::Protocol(format!("genmove answered '{answer}'")))?;
        // The engine has played it on its own board.
        self.sent = game.moves().len() + 1;
        Ok(MoveRecord::bare(mv))
    }
}

/// The game as an NBoard engine is sent it, with the match's time control as its clock.
pub(super) fn nboard_game(game: &Game, tc: &TimeControl) -> Game {
    let mut g = game.clone();
    if let Some((main, inc)) = tc.clock {
        g.info.clock = Some(Clock {
            main_s: main.as_secs_f64(),
            increment_s: inc.as_secs_f64(),
            grace_s: 0.0,
        });
    } else if let Some(t) = tc.move_time {
        // A per-move time as a clock of that much for each move left: the clock less
        // the engine's own time used is the bank.
        let color = game.side_to_move();
        let used: f64 = (game.moves().iter().enumerate())
            .filter(|&(ply, _)| game.side_at(ply) == color)
            .filter_map(|(_, m)| m.time_s)
            .sum();
        g.info.clock = Some(Clock {
            main_s: used + super::move_time_bank(game, t).as_secs_f64(),
            increment_s: 0.0,
            grace_s: 0.0,
        });
    }
    g
}
