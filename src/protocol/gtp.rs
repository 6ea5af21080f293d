//! GTP (version 2) as Othello engines, Quarry and GoGui use it: `[id] command args`,
//! answered `=[id] response` or `?[id] message`, each followed by an empty line.
//!
//! Quarry never sends a pass: when the side to move has no move it asks the other colour
//! again, so a command for the colour not to move inserts the forced pass first.
//! `genmove` searches on a background thread, so `quit` is obeyed mid-search; any other
//! command waits for the move (GTP answers in order).

use super::{Background, Output, ProtocolOptions, read_line};
use crate::engine::GameClock;
use crate::engine::{Engine, Limits};
use crate::game::Game;
use crate::rules::Variant;
use crate::square::{Color, Move};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

/// Every command known, as `list_commands` gives them.
pub const COMMANDS: [&str; 27] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
    "level",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
    "gogui-rules_legal_moves_count",
];

/// Time settings (`time_settings main byo_time byo_stones`) and what `time_left` said.
#[derive(Clone, Copy, Debug, Default)]
struct TimeControl {
    main: Duration,
    byo_time: Duration,
    byo_stones: u32,
    /// Seconds and stones left per colour (black, white), when told.
    left: [Option<(Duration, u32)>; 2],
}

impl TimeControl {
    /// No limit: byo-yomi time with no stones (the GTP convention).
    fn unlimited(&self) -> bool {
        self.byo_time > Duration::ZERO && self.byo_stones == 0
    }

    fn clock(&self, color: Color) -> Option<GameClock> {
        if self.unlimited() || (self.main.is_zero() && self.byo_time.is_zero()) {
            return None;
        }
        let side = usize::from(color == Color::White);
        let (remaining, stones) = match self.left[side] {
            Some(l) => l,
            None => {
                // Nothing told yet: the main time, or a first byo-yomi period.
                if self.main > Duration::ZERO {
                    (self.main, 0)
                } else {
                    (self.byo_time, self.byo_stones)
                }
            }
        };
        Some(GameClock {
            remaining,
            increment: Duration::ZERO,
            moves_to_go: (stones > 0).then_some(stones),
        })
    }
}

/// Where the search thread leaves the move `genmove` chose.
type MoveSlot = Arc<std::sync::Mutex<Option<Move>>>;

struct Session {
    engine: Arc<Engine>,
    game: Game,
    level: u32,
    time: TimeControl,
    out: Output,
    background: Background,
    /// The move of a running `genmove`, to play once it is known.
    pending: Option<MoveSlot>,
}

/// Runs the GTP loop until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: Box<dyn Write + Send>, options: ProtocolOptions) {
    let engine = Arc::new(options.engine());
    let mut session = Session {
        background: Background::new(engine.stop_handle()),
        engine,
        game: Game::new(options.variant),
        level: options.level.unwrap_or(crate::engine::DEFAULT_LEVEL),
        time: TimeControl::default(),
        out: Output::new(output),
        pending: None,
    };
    let mut input = input;
    let mut buf = Vec::new();
    while let Some(line) = read_line(&mut input, &mut buf) {
        let Some((id, cmd, args)) = parse_line(&line) else {
            continue;
        };
        if cmd == "quit" {
            session.background.stop();
            session.reply(&id, Ok(String::new()));
            return;
        }
        // GTP answers in order: a command waits for the move being searched.
        session.finish_genmove();
        let answer = session.command(&cmd, &args, &id);
        if let Some(answer) = answer {
            session.reply(&id, answer);
        }
    }
    session.background.stop();
}

/// Splits a line into (id, command, arguments) after removing control characters and
/// comments; `None` for a line with no command.
pub fn parse_line(line: &str) -> Option<(String, String, Vec<String>)> {
    let clean: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    let mut words = clean.split_whitespace();
    let mut first = words.next()?;
    let mut id = String::new();
    if first.chars().all(|c| c.is_ascii_digit()) {
        id = first.to_string();
        first = words.next()?;
    }
    Some((
        id,
        first.to_ascii_lowercase(),
        words.map(str::to_string).collect(),
    ))
}

/// A colour argument: `black`, `b`, `white`, `w`, any case.
fn parse_color(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Some(Color::Black),
        "white" | "w" => Some(Color::White),
        _ => None,
    }
}

/// A vertex for GTP: `e6`, or `pass`.
fn vertex(m: Move) -> String {
    match m {
        Move::Play(sq) => sq.to_string(),
        Move::Pass => "pass".to_string(),
    }
}

/// `B+12`, `W+4` or `0` for black's score.
fn score_text(black: i32) -> String {
    match black.signum() {
        1 => format!("B+{black}"),
        -1 => format!("W+{}", -black),
        _ => "0".to_string(),
    }
}

impl Session {
    /// Waits for a running `genmove` and plays its move.
    fn finish_genmove(&mut self) {
        self.background.wait();
        if let Some(slot) = self.pending.take()
            && let Some(mv) = *slot.lock().unwrap_or_else(|e| e.into_inner())
        {
            let _ = self.game.play(mv);
        }
    }

    fn reply(&self, id: &str, answer: Result<String, String>) {
        let text = match answer {
            Ok(r) if r.is_empty() => format!("={id}\n\n"),
            Ok(r) => format!("={id} {r}\n\n"),
            Err(e) => format!("?{id} {e}\n\n"),
        };
        self.out.raw(&text);
    }

    /// Inserts the forced pass when a command is for the colour not to move (Quarry).
    fn align(&mut self, color: Color) -> Result<(), String> {
        if self.game.side_to_move() != color && !self.game.is_over() {
            if self.game.legal_moves() == 0 {
                self.game
                    .play(Move::Pass)
                    .map_err(|e| format!("cannot pass: {e}"))?;
            } else {
                return Err(format!("it is {}'s turn", self.game.side_to_move()));
            }
        }
        Ok(())
    }

    fn limits(&self) -> Limits {
        let mut limits = Limits::level(self.level);
        if let Some(clock) = self.time.clock(self.game.side_to_move()) {
            limits.clock = Some(clock);
            limits.level = None;
        }
        limits
    }

    /// Obeys one command; `None` when the answer comes later (from the search thread).
    fn command(&mut self, cmd: &str, args: &[String], id: &str) -> Option<Result<String, String>> {
        let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
        let answer = match cmd {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok("volte".to_string()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => Ok(COMMANDS.contains(&arg(0)).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => match arg(0).parse::<u32>() {
                Ok(8) => Ok(String::new()),
                _ => Err("unacceptable size".to_string()),
            },
            "clear_board" => {
                self.game = Game::new(self.game.variant());
                self.engine.clear();
                Ok(String::new())
            }
            "komi" => match arg(0).parse::<f64>() {
                Ok(_) => Ok(String::new()),
                Err(_) => Err("syntax error".to_string()),
            },
            "play" => self.play(arg(0), arg(1)),
            "genmove" => return self.genmove(arg(0), id, true),
            "reg_genmove" => return self.genmove(arg(0), id, false),
            "undo" => match self.game.undo_move() {
                Some(_) => Ok(String::new()),
                None => Err("cannot undo".to_string()),
            },
            "showboard" => Ok(format!("\n{}", self.game.render().trim_end())),
            "final_score" | "gogui-rules_final_result" => {
                let state = self.game.current();
                let black = self.game.variant().final_score(state);
                let black = if self.game.side_to_move() == Color::Black {
                    black
                } else {
                    -black
                };
                if cmd == "gogui-rules_final_result" && !self.game.is_over() {
                    Ok("?".to_string())
                } else {
                    Ok(score_text(black))
                }
            }
            "time_settings" => {
                let nums: Vec<Option<f64>> = (0..3).map(|i| arg(i).parse::<f64>().ok()).collect();
                match (nums[0], nums[1], arg(2).parse::<u32>()) {
                    (Some(m), Some(b), Ok(s))
                        if m >= 0.0 && b >= 0.0 && m.is_finite() && b.is_finite() =>
                    {
                        self.time = TimeControl {
                            main: Duration::from_secs_f64(m.min(1e7)),
                            byo_time: Duration::from_secs_f64(b.min(1e7)),
                            byo_stones: s,
                            left: [None, None],
                        };
                        Ok(String::new())
                    }
                    _ => Err("syntax error".to_string()),
                }
            }
            "time_left" => match (
                parse_color(arg(0)),
                arg(1).parse::<f64>(),
                arg(2).parse::<u32>(),
            ) {
                (Some(c), Ok(t), Ok(s)) if t.is_finite() => {
                    let side = usize::from(c == Color::White);
                    self.time.left[side] = Some((Duration::from_secs_f64(t.clamp(0.0, 1e7)), s));
                    Ok(String::new())
                }
                _ => Err("syntax error".to_string()),
            },
            "list_games" => Ok(Variant::ALL.map(Variant::gtp_name).join("\n")),
            "set_game" => match Variant::from_gtp_name(arg(0)) {
                Some(v) => {
                    self.game = Game::new(v);
                    self.engine.clear();
                    Ok(String::new())
                }
                None => Err(format!("unknown game '{}'", arg(0))),
            },
            "level" => match arg(0).parse::<u32>() {
                Ok(l) if (1..=60).contains(&l) => {
                    self.level = l;
                    Ok(String::new())
                }
                _ => Err("level must be 1 to 60".to_string()),
            },
            "gogui-rules_game_id" => Ok(self.game.variant().gtp_name().to_string()),
            "gogui-rules_board_size" => Ok("8".to_string()),
            "gogui-rules_board" => {
                let (black, white) = self.game.black_white();
                let mut rows = Vec::new();
                for row in 0..8 {
                    let cells: Vec<&str> = (0..8)
                        .map(|col| {
                            let bit = 1u64 << (8 * row + col);
                            if black & bit != 0 {
                                "X"
                            } else if white & bit != 0 {
                                "O"
                            } else {
                                "."
                            }
                        })
                        .collect();
                    rows.push(cells.join(" "));
                }
                Ok(format!("\n{}", rows.join("\n")))
            }
            "gogui-rules_legal_moves" => {
                if self.game.is_over() {
                    Ok(String::new())
                } else if self.game.legal_moves() == 0 {
                    Ok("pass".to_string())
                } else {
                    let moves: Vec<String> = crate::bitboard::Bits(self.game.legal_moves())
                        .map(|x| crate::square::Square::from_index(x).to_string())
                        .collect();
                    Ok(moves.join(" "))
                }
            }
            "gogui-rules_legal_moves_count" => Ok(self.game.legal_moves().count_ones().to_string()),
            "gogui-rules_side_to_move" => Ok(self.game.side_to_move().to_string()),
            _ => Err("unknown command".to_string()),
        };
        Some(answer)
    }

    fn play(&mut self, color: &str, vertex_text: &str) -> Result<String, String> {
        let color = parse_color(color).ok_or("invalid color")?;
        let mv = Move::parse(vertex_text).ok_or("invalid vertex")?;
        if self.game.is_over() {
            return Err("the game is over".to_string());
        }
        let before = self.game.moves().len();
        self.align(color)?;
        if let Err(e) = self.game.play(mv) {
            // Leave the state as it was, inserted pass included.
            while self.game.moves().len() > before {
                self.game.undo();
            }
            return Err(format!("illegal move: {e}"));
        }
        Ok(String::new())
    }

    fn genmove(&mut self, color: &str, id: &str, commit: bool) -> Option<Result<String, String>> {
        let Some(color) = parse_color(color) else {
            return Some(Err("invalid color".to_string()));
        };
        if self.game.is_over() {
            return Some(Ok("pass".to_string()));
        }
        let before = self.game.moves().len();
        if let Err(e) = self.align(color) {
            return Some(Err(e));
        }
        if self.game.legal_moves() == 0 {
            if commit {
                let _ = self.game.play(Move::Pass);
            } else {
                while self.game.moves().len() > before {
                    self.game.undo();
                }
            }
            return Some(Ok("pass".to_string()));
        }
        let limits = Limits {
            book: true,
            ..self.limits()
        };
        let engine = Arc::clone(&self.engine);
        let game = self.game.clone();
        if !commit {
            while self.game.moves().len() > before {
                self.game.undo();
            }
        }
        let out = self.out.clone();
        let id = id.to_string();
        // The move is played into the session's game before the next command (which waits
        // for the search), so a shared slot is enough.
        let slot: MoveSlot = Arc::new(std::sync::Mutex::new(None));
        let result_slot = Arc::clone(&slot);
        self.background.spawn(move || {
            let result = engine.think_game(&game, &limits, &mut |_| {});
            let mv = result.map_or_else(
                || {
                    Move::Play(crate::square::Square::from_index(
                        game.legal_moves().trailing_zeros() as u8,
                    ))
                },
                |it| it.best_move,
            );
            *result_slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(mv);
            out.raw(&format!("={id} {}\n\n", vertex(mv)));
        });
        if commit {
            self.pending = Some(slot);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned() {
        assert_eq!(
            parse_line("12 Play black E6 # comment"),
            Some((
                "12".into(),
                "play".into(),
                vec!["black".into(), "E6".into()]
            ))
        );
        assert_eq!(parse_line("  # only a comment"), None);
        assert_eq!(
            parse_line("\u{7}name\t"),
            Some((String::new(), "name".into(), vec![]))
        );
        assert_eq!(score_text(12), "B+12");
        assert_eq!(score_text(-4), "W+4");
        assert_eq!(score_text(0), "0");
    }
}
