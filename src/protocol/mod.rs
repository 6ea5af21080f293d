//! The protocols GUIs and match managers speak: NBoard ([`nboard`]) and GTP ([`gtp`]).
//!
//! Both loops read commands on the calling thread and run searches on a background
//! thread, so that `ping`, `quit` or a new position are read and obeyed while the engine
//! thinks. Replies are written a line at a time and flushed. The loops take any `BufRead`
//! and `Write`, so tests drive them from strings.

pub mod gtp;
pub mod nboard;

use crate::engine::GameClock;
use crate::engine::{Engine, EngineOptions, StopHandle};
use crate::game::Game;
use crate::rules::Variant;
use crate::square::Color;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How a protocol session starts.
#[derive(Clone, Debug)]
pub struct ProtocolOptions {
    /// The level the user chose (`--level`). `None`: NBoard plays by its game clock
    /// alone when the game has one and no `set depth` came, and otherwise at
    /// [`crate::engine::DEFAULT_LEVEL`], as GTP does without a clock.
    pub level: Option<u32>,
    /// Rules of new games (GGF games carry their own).
    pub variant: Variant,
    /// Where `learn` saves the book (`None`: learnt games stay in memory).
    pub book_path: Option<std::path::PathBuf>,
    pub engine: EngineOptions,
}

impl Default for ProtocolOptions {
    fn default() -> Self {
        ProtocolOptions {
            level: None,
            variant: Variant::Othello,
            book_path: None,
            engine: EngineOptions::default(),
        }
    }
}

impl ProtocolOptions {
    pub(crate) fn engine(&self) -> Engine {
        Engine::new(self.engine.clone().seeded_by_time())
    }
}

/// The output stream, shared by the command loop and the search thread; every line is
/// flushed. Write errors (the GUI went away) are ignored: the input's end stops the loop.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes `text` and a line end, then flushes.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = w.write_all(text.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }

    /// Writes `text` as is, then flushes.
    pub fn raw(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = w.write_all(text.as_bytes());
        let _ = w.flush();
    }
}

/// A search running on its own thread.
pub struct Background {
    handle: Option<JoinHandle<()>>,
    stop: StopHandle,
}

impl Background {
    pub fn new(stop: StopHandle) -> Background {
        Background { handle: None, stop }
    }

    /// Runs `job` on a new thread (after the previous job has ended).
    pub fn spawn(&mut self, job: impl FnOnce() + Send + 'static) {
        self.wait();
        self.handle = Some(std::thread::spawn(job));
    }

    /// Waits for the running job to end.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }

    /// Stops the running job and waits for it. The stop is repeated until the job ends,
    /// since a search that had not started yet when first asked would clear it.
    pub fn stop(&mut self) {
        if let Some(h) = self.handle.take() {
            while !h.is_finished() {
                self.stop.stop();
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = h.join();
        }
    }
}

/// Reads a line as text (invalid UTF-8 replaced), without its line end; `None` at the end
/// of the input or on a read error.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Option<String> {
    buf.clear();
    match input.read_until(b'\n', buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let text = String::from_utf8_lossy(buf);
            Some(text.trim_end_matches(['\n', '\r']).to_string())
        }
    }
}

/// The clock of `color` in `game`, from its GGF clock tags and the times of its moves:
/// the main time, plus an increment per move made, minus the time its moves took. A clock
/// with neither main time nor increment (`TI[0]`, as NBoard sends when the user set no
/// time) is no clock: the engine then plays to its level.
pub fn game_clock(game: &Game, color: Color) -> Option<GameClock> {
    let info = &game.info;
    let clock = match color {
        Color::Black => info.black_clock.or(info.clock),
        Color::White => info.white_clock.or(info.clock),
    }
    .filter(|c| c.main_s > 0.0 || c.increment_s > 0.0)?;
    let mut used = 0.0;
    let mut made = 0u32;
    for (ply, record) in game.moves().iter().enumerate() {
        if game.side_at(ply) == color {
            used += record.time_s.unwrap_or(0.0);
            made += 1;
        }
    }
    let remaining = (clock.main_s + clock.increment_s * f64::from(made) - used).max(0.0);
    Some(GameClock {
        remaining: Duration::from_secs_f64(remaining),
        increment: Duration::from_secs_f64(clock.increment_s.max(0.0)),
        moves_to_go: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf;

    #[test]
    fn clocks_come_from_ggf() {
        let game = ggf::parse_game(
            "(;GM[Othello]PC[NBoard]TI[5:00/2]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10.5]W[D6//3];)",
        )
        .unwrap();
        let black = game_clock(&game, Color::Black).unwrap();
        assert!((black.remaining.as_secs_f64() - (300.0 + 2.0 - 10.5)).abs() < 1e-9);
        assert_eq!(black.increment, Duration::from_secs(2));
        let white = game_clock(&game, Color::White).unwrap();
        assert!((white.remaining.as_secs_f64() - 299.0).abs() < 1e-9);
        let plain = ggf::parse_game("(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)").unwrap();
        assert_eq!(game_clock(&plain, Color::Black), None);
        let no_time = ggf::parse_game("(;GM[Othello]PC[NBoard]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.5];)").unwrap();
        assert_eq!(game_clock(&no_time, Color::Black), None);
        assert_eq!(game_clock(&no_time, Color::White), None);
        let increment_only = ggf::parse_game("(;GM[Othello]TI[0/5]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)").unwrap();
        let black = game_clock(&increment_only, Color::Black).unwrap();
        assert_eq!(black.increment, Duration::from_secs(5));
    }

    #[test]
    fn lines_are_read_lossily() {
        let mut input: &[u8] = b"ping 1\r\nbad \xff\xfe\nlast";
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf).as_deref(), Some("ping 1"));
        assert_eq!(
            read_line(&mut input, &mut buf).as_deref(),
            Some("bad \u{fffd}\u{fffd}")
        );
        assert_eq!(read_line(&mut input, &mut buf).as_deref(), Some("last"));
        assert_eq!(read_line(&mut input, &mut buf), None);
    }
}
