//! GGF, the game format of GGS and NBoard: `(;GM[Othello]TY[8]BO[8 <cells> *]B[F5]...;)`.
//!
//! Read: every tag of `PROTOCOLS.md` (BO with any cell spelling and optional spaces, B/W
//! items with eval and time, passes as `PA` or any prefix of `PASS` or `--`, TY with `a`
//! for Anti and `r<n>` random starts, the clocks TI/TB/TW, RE); unknown tags are kept out
//! of the way. `GM[Reversi1889]` marks volte's own Reversi 1889 games. A file may hold many
//! games. Write: one game a line, moves upper case, explicit `PA` passes.

use super::{Format, FormatError, parse_cells, parse_side, write_cells};
use crate::game::{Clock, Game, GameInfo, MoveRecord};
use crate::rules::Variant;
use crate::square::{Color, Move};

/// Line and column (from 1) of byte offset `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn error_at(text: &str, at: usize, message: impl Into<String>) -> FormatError {
    let (line, column) = line_col(text, at);
    FormatError::text(Format::Ggf, line, column, message)
}

/// Reads a number written with a decimal point or, as GUIs write in comma-decimal locales
/// (German, French, Dutch...), a decimal comma: `-2.00` and `-2,00` are both -2.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let t = text.trim();
    let v = if t.contains(',') && !t.contains('.') {
        t.replacen(',', ".", 1).parse::<f64>().ok()?
    } else {
        t.parse::<f64>().ok()?
    };
    v.is_finite().then_some(v)
}

/// Parses a GGF time: `[[d.]h:]m:ss` or plain seconds, the seconds with a decimal point or
/// a decimal comma (`0,001`).
pub fn parse_time(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() {
        return Some(0.0);
    }
    let parts: Vec<&str> = t.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let mut total = 0.0;
    let mut days_s = 0.0;
    for (i, part) in parts.iter().enumerate() {
        let (days, value) = match (i, part.split_once('.')) {
            (0, Some((d, v))) if parts.len() == 3 => (d.parse::<f64>().ok()?, v),
            _ => (0.0, *part),
        };
        let v: f64 = parse_decimal(value)?;
        if v < 0.0 || days < 0.0 {
            return None;
        }
        total = total * 60.0 + v;
        days_s += days * 86_400.0;
    }
    Some(total + days_s).filter(|t| t.is_finite())
}

/// Writes seconds as GGF does: `m:ss`, or `h:mm:ss` from an hour up, with milliseconds
/// (`m:ss.fff`) when the time is not a whole number of seconds.
pub fn write_time(seconds: f64) -> String {
    let ms = (seconds.max(0.0) * 1000.0).round() as u64;
    let s = ms / 1000;
    let whole = if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    };
    match ms % 1000 {
        0 => whole,
        frac => format!("{whole}.{frac:03}"),
    }
}

/// Parses a clock: `main[/increment[/grace]]`.
pub fn parse_clock(text: &str) -> Option<Clock> {
    let mut parts = text.split('/');
    let main_s = parse_time(parts.next()?)?;
    let increment_s = parts.next().map_or(Some(0.0), parse_time)?;
    let grace_s = parts.next().map_or(Some(0.0), parse_time)?;
    if parts.next().is_some() {
        return None;
    }
    Some(Clock {
        main_s,
        increment_s,
        grace_s,
    })
}

fn write_clock(c: &Clock) -> String {
    if c.increment_s == 0.0 && c.grace_s == 0.0 {
        write_time(c.main_s)
    } else {
        format!(
            "{}/{}/{}",
            write_time(c.main_s),
            write_time(c.increment_s),
            write_time(c.grace_s)
        )
    }
}

/// What a GGF `TY` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct GameType {
    pub anti: bool,
    pub synchro: bool,
    pub komi: bool,
    /// `r<n>`: a random start with n discs.
    pub random_discs: Option<u32>,
}

/// Parses a `TY` value such as `8`, `8a`, `s8r20`, `k8`.
pub fn parse_type(text: &str) -> Result<GameType, String> {
    let mut ty = GameType::default();
    let chars: Vec<char> = text.trim().chars().collect();
    let mut size = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '0'..='9' => size.push(c),
            's' | 'S' => ty.synchro = true,
            'k' | 'K' => ty.komi = true,
            'a' | 'A' => ty.anti = true,
            'r' | 'R' => {
                let digits: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                let n: u32 = digits
                    .parse()
                    .map_err(|_| format!("`r` in TY[{text}] needs a disc count"))?;
                if !(4..=64).contains(&n) {
                    return Err(format!("random start with {n} discs in TY[{text}]"));
                }
                ty.random_discs = Some(n);
                i += digits.len();
            }
            _ => return Err(format!("unknown game type `{c}` in TY[{text}]")),
        }
        i += 1;
    }
    match size.as_str() {
        "" | "8" => Ok(ty),
        other => Err(format!(
            "board size {other} in TY[{text}]: only 8 is played"
        )),
    }
}

/// A `(;...;)` item: tag, value, and the byte offset of the value.
struct Tag<'a> {
    name: &'a str,
    value: String,
    at: usize,
}

/// Reads the tags of one game starting at byte `start` (just after `(;`); returns them and
/// the offset after the closing `;)`.
fn read_tags(text: &str, start: usize) -> Result<(Vec<Tag<'_>>, usize), FormatError> {
    let bytes = text.as_bytes();
    let mut i = start;
    let mut tags = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return Err(error_at(text, i, "game not closed with `;)`"));
        }
        if bytes[i] == b';' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b')' {
                return Ok((tags, j + 1));
            }
            return Err(error_at(text, i, "`;` not followed by `)`"));
        }
        let name_start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i == name_start {
            let c = text[i..].chars().next().unwrap_or(' ');
            return Err(error_at(text, i, format!("expected a tag, found `{c}`")));
        }
        if i >= bytes.len() || bytes[i] != b'[' {
            return Err(error_at(
                text,
                i,
                format!("tag {} has no `[value]`", &text[name_start..i]),
            ));
        }
        let name = &text[name_start..i];
        i += 1;
        let value_start = i;
        let mut value = String::new();
        loop {
            let Some(c) = text[i..].chars().next() else {
                return Err(error_at(
                    text,
                    value_start - 1,
                    format!("value of {name} not closed with `]`"),
                ));
            };
            i += c.len_utf8();
            match c {
                ']' => break,
                '\\' => {
                    if let Some(n) = text[i..].chars().next() {
                        value.push(n);
                        i += n.len_utf8();
                    }
                }
                _ => value.push(c),
            }
        }
        tags.push(Tag {
            name,
            value,
            at: value_start,
        });
    }
}

/// Parses a move item value `MOVE[/EVAL[/TIME]]`. The evaluation and time are comments
/// that GUIs write in the user's locale (`F5/-2,00/0,001`): both decimal forms are read, and
/// one that cannot be read is left out; it never costs the move.
pub fn parse_move_item(value: &str) -> Result<MoveRecord, String> {
    let mut parts = value.split('/');
    let mv_text = parts.next().unwrap_or("").trim();
    let mv = Move::parse(mv_text).ok_or_else(|| format!("`{mv_text}` is not a move"))?;
    let eval = parts.next().and_then(parse_decimal);
    let time_s = parts.next().and_then(|t| match t.trim() {
        "" => None,
        t => parse_time(t),
    });
    Ok(MoveRecord { mv, eval, time_s })
}

/// Parses the game that starts at byte `start` (at `(;`), returning it and the offset
/// after it.
fn parse_game_at(text: &str, start: usize) -> Result<(Game, usize), FormatError> {
    let (tags, end) = read_tags(text, start + 2)?;
    let mut info = GameInfo::default();
    let mut variant = Variant::Othello;
    let mut board: Option<(u64, u64, Color)> = None;
    let mut ty: Option<(GameType, usize)> = None;

    for tag in &tags {
        let v = tag.value.trim();
        let text_value = || (!v.is_empty()).then(|| v.to_string());
        let bad = |msg: String| error_at(text, tag.at, msg);
        match tag.name {
            "GM" => {
                let lower = v.to_ascii_lowercase();
                variant = match lower.as_str() {
                    "othello" | "" => variant,
                    "reversi1889" | "reversi 1889" => Variant::Reversi1889,
                    _ => return Err(bad(format!("game `{v}` is not Othello"))),
                }
            }
            "TY" => ty = Some((parse_type(v).map_err(bad)?, tag.at)),
            "BO" => {
                let tokens: Vec<&str> = v.split_whitespace().collect();
                if tokens.len() < 3 {
                    return Err(bad("BO needs a size, 64 cells and a side to move".into()));
                }
                if tokens[0] != "8" {
                    return Err(bad(format!("board size {} is not 8", tokens[0])));
                }
                let cells: String = tokens[1..tokens.len() - 1].concat();
                let (black, white) =
                    parse_cells(&cells).map_err(|(i, m)| bad(format!("BO cell {}: {m}", i + 1)))?;
                let side_text = tokens[tokens.len() - 1];
                let side = parse_side(side_text)
                    .ok_or_else(|| bad(format!("bad side to move `{side_text}` in BO")))?;
                board = Some((black, white, side));
            }
            "PB" => info.black = text_value(),
            "PW" => info.white = text_value(),
            "RB" => info.black_rating = text_value(),
            "RW" => info.white_rating = text_value(),
            "PC" => info.place = text_value(),
            "DT" => info.date = text_value(),
            "EV" => info.event = text_value(),
            "CO" => info.comment = text_value(),
            "TI" | "TB" | "TW" => {
                let clock = parse_clock(v).ok_or_else(|| bad(format!("bad clock `{v}`")))?;
                match tag.name {
                    "TI" => info.clock = Some(clock),
                    "TB" => info.black_clock = Some(clock),
                    _ => info.white_clock = Some(clock),
                }
            }
            "RE" => {
                let number = v.split(':').next().unwrap_or("").trim();
                info.recorded_result = match number {
                    "?" | "" => None,
                    n => Some(
                        n.parse::<f64>()
                            .ok()
                            .filter(|x| x.is_finite() && x.abs() <= 64.0)
                            .ok_or_else(|| bad(format!("bad result `{v}`")))?,
                    ),
                };
            }
            _ => {}
        }
    }
    if let Some((t, at)) = ty
        && t.anti
    {
        if variant == Variant::Reversi1889 {
            return Err(error_at(text, at, "Anti and Reversi 1889 do not mix"));
        }
        variant = Variant::Anti;
    }
    let mut game = match board {
        Some((black, white, side)) => {
            if variant == Variant::Reversi1889 && black == 0 && white == 0 && side == Color::Black {
                Game::new(variant)
            } else {
                Game::from_discs(variant, black, white, side)
            }
        }
        None => Game::new(variant),
    };
    game.info = info;

    for tag in tags.iter().filter(|t| t.name == "B" || t.name == "W") {
        let color = if tag.name == "B" {
            Color::Black
        } else {
            Color::White
        };
        let record = parse_move_item(&tag.value).map_err(|m| error_at(text, tag.at, m))?;
        if game.side_to_move() != color {
            // A record that leaves out a forced pass: insert it, as GGS files sometimes do.
            if record.mv == Move::Pass || !game.pass_if_forced() {
                return Err(error_at(
                    text,
                    tag.at,
                    format!(
                        "{} item but {} is to move (colours alternate; passes are `PA`)",
                        tag.name,
                        game.side_to_move()
                    ),
                ));
            }
        }
        game.play_record(record).map_err(|e| {
            error_at(
                text,
                tag.at,
                format!("move {} is illegal: {e}", record.mv.to_upper()),
            )
        })?;
    }
    Ok((game, end))
}

/// Parses every game in `text` (a GGF file holds any number); a bad game does not hide
/// the good ones after it.
pub fn parse_games(text: &str) -> Vec<Result<Game, FormatError>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("(;") {
        let start = from + found;
        match parse_game_at(text, start) {
            Ok((game, end)) => {
                out.push(Ok(game));
                from = end;
            }
            Err(e) => {
                out.push(Err(e));
                // Resume after the end of this game, or at the next one.
                from = match (text[start + 2..].find(";)"), text[start + 2..].find("(;")) {
                    (Some(a), Some(b)) => start + 2 + a.min(b),
                    (Some(a), None) => start + 2 + a,
                    (None, Some(b)) => start + 2 + b,
                    (None, None) => text.len(),
                };
            }
        }
    }
    if out.is_empty() && !text.trim().is_empty() {
        out.push(Err(error_at(
            text,
            0,
            "no game found (a GGF game starts with `(;`)",
        )));
    }
    out
}

/// Parses exactly one game.
pub fn parse_game(text: &str) -> Result<Game, FormatError> {
    parse_games(text)
        .into_iter()
        .next()
        .unwrap_or_else(|| Err(error_at(text, 0, "no game found")))
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

fn format_number(x: f64) -> String {
    let s = format!("{x:.2}");
    if s == "-0.00" { "0.00".into() } else { s }
}

/// Writes `game` as one GGF line.
pub fn write(game: &Game) -> String {
    let info = &game.info;
    let mut out = String::from("(;GM[");
    out.push_str(match game.variant() {
        Variant::Reversi1889 => "Reversi1889",
        _ => "Othello",
    });
    out.push(']');
    let mut tag = |name: &str, value: &Option<String>| {
        if let Some(v) = value {
            out.push_str(&format!("{name}[{}]", escape(v)));
        }
    };
    tag("PC", &info.place);
    tag("DT", &info.date);
    tag("PB", &info.black);
    tag("PW", &info.white);
    tag("RB", &info.black_rating);
    tag("RW", &info.white_rating);
    tag("EV", &info.event);
    let result = match (game.final_score_black(), info.recorded_result) {
        (Some(s), _) => format!("{s:+}"),
        (None, Some(r)) => format_number(r),
        (None, None) => "?".into(),
    };
    out.push_str(&format!("RE[{result}]"));
    for (name, clock) in [
        ("TI", &info.clock),
        ("TB", &info.black_clock),
        ("TW", &info.white_clock),
    ] {
        if let Some(c) = clock {
            out.push_str(&format!("{name}[{}]", write_clock(c)));
        }
    }
    out.push_str(if game.variant() == Variant::Anti {
        "TY[8a]"
    } else {
        "TY[8]"
    });
    let start = game.start().pos;
    let (black, white) = match game.start_side() {
        Color::Black => (start.player, start.opponent),
        Color::White => (start.opponent, start.player),
    };
    let cells = write_cells(black, white).replace('X', "*");
    let side = match game.start_side() {
        Color::Black => '*',
        Color::White => 'O',
    };
    out.push_str(&format!("BO[8 {cells} {side}]"));
    for (ply, record) in game.moves().iter().enumerate() {
        let name = match game.side_at(ply) {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let mut item = record.mv.to_upper();
        if record.eval.is_some() || record.time_s.is_some() {
            item.push('/');
            if let Some(e) = record.eval {
                item.push_str(&format_number(e));
            }
        }
        if let Some(t) = record.time_s {
            item.push_str(&format!("/{}", format_number(t)));
        }
        out.push_str(&format!("{name}[{item}]"));
    }
    if let Some(c) = &info.comment {
        out.push_str(&format!("CO[{}]", escape(c)));
    }
    out.push_str(";)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-23 19:39:45 GMT]PB[Player]PW[ntest]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.45]W[D6/0.00]B[c3];)";

    #[test]
    fn reads_nboard_games() {
        let g = parse_game(NBOARD).unwrap();
        assert!(g.has_standard_start());
        assert_eq!(g.transcript(), "f5d6c3");
        assert_eq!(g.moves()[0].time_s, Some(2.45));
        assert_eq!(g.moves()[0].eval, None);
        assert_eq!(g.moves()[1].eval, Some(0.0));
        assert_eq!(g.info.clock.unwrap().main_s, 900.0);
        assert_eq!(g.info.black.as_deref(), Some("Player"));
        assert_eq!(g.info.recorded_result, None);
    }

    #[test]
    fn round_trips() {
        let g = parse_game(NBOARD).unwrap();
        let written = write(&g);
        assert!(written.contains("B[F5//2.45]W[D6/0.00]B[C3]"), "{written}");
        assert_eq!(parse_game(&written).unwrap(), g);
    }

    #[test]
    fn types_clocks_and_passes() {
        assert_eq!(
            parse_type("s8r20").unwrap(),
            GameType {
                synchro: true,
                random_discs: Some(20),
                ..Default::default()
            }
        );
        assert!(parse_type("8a").unwrap().anti);
        assert!(parse_type("10").is_err());
        assert!(parse_type("8q").is_err());
        assert!(parse_type("8r").is_err());
        assert_eq!(parse_time("1:02:03"), Some(3723.0));
        assert_eq!(parse_time("1.00:00:00"), Some(86_400.0));
        assert_eq!(parse_time("90"), Some(90.0));
        assert_eq!(parse_time("x"), None);
        assert_eq!(parse_time(&format!("{}:00", "9".repeat(400))), None);
        let c = parse_clock("5:00/0:10/2:00").unwrap();
        assert_eq!((c.main_s, c.increment_s, c.grace_s), (300.0, 10.0, 120.0));
        // Whole seconds as GGF writes them; fractions (an emulated time a move) kept.
        assert_eq!(write_time(300.0), "5:00");
        assert_eq!(write_time(3723.0), "1:02:03");
        assert_eq!(write_time(1.4), "0:01.400");
        for t in [0.0, 0.05, 1.4, 59.999, 61.25, 3600.5] {
            let back = parse_time(&write_time(t)).unwrap();
            assert!(
                (back - t).abs() < 5e-4,
                "{t} -> {} -> {back}",
                write_time(t)
            );
        }

        let anti = parse_game("(;GM[Othello]TY[8a]B[f5];)").unwrap();
        assert_eq!(anti.variant(), Variant::Anti);

        // A trailing pass is kept and written as PA.
        let mut seed = 99u64;
        let with_pass = loop {
            let mut g = Game::new(Variant::Othello);
            while !g.is_over() && !g.pass_if_forced() {
                let legal: Vec<u8> = crate::bitboard::Bits(g.legal_moves()).collect();
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                let sq =
                    crate::square::Square::from_index(legal[(seed >> 33) as usize % legal.len()]);
                g.play(Move::Play(sq)).unwrap();
            }
            if g.moves().last().map(|r| r.mv) == Some(Move::Pass) {
                break g;
            }
        };
        let written = write(&with_pass);
        assert!(written.ends_with("[PA];)"), "{written}");
        assert_eq!(parse_game(&written).unwrap(), with_pass);
    }

    #[test]
    fn bad_games_are_located() {
        let cases = [
            "(;GM[Othello]TY[8]B[F5]",
            "(;GM[Othello]TY[8]B[F5;)",
            "(;GM[Othello]TY[8]B[Z9];)",
            "(;GM[Othello]TY[8]B[F5]B[D6];)",
            "(;GM[Othello]TY[8]B[D4];)",
            "(;GM[Othello]TY[8]BO[8 --- *];)",
            "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- ?];)",
            "(;GM[Othello]TY[8]TI[abc];)",
            "(;GM[Chess]TY[8];)",
            "(;GM[Othello]TY[12];)",
            "(;GM[Othello]TY[8]RE[lots];)",
            "(;GM[Othello]TY[8]{B[F5];)",
            "no game",
        ];
        for c in cases {
            let r = parse_games(c);
            assert!(r[0].is_err(), "{c}");
        }
        let e = parse_game("(;GM[Othello]\nTY[8]B[F5]W[D4];)").unwrap_err();
        assert_eq!(
            e.location,
            super::super::Location::Text {
                line: 2,
                column: 13
            },
            "{e}"
        );
    }

    #[test]
    fn comments_in_any_locale_are_read_and_never_cost_a_move() {
        // NBoard in a comma-decimal locale.
        let r = parse_move_item("F5/-2,00/0,001").unwrap();
        assert_eq!(r.mv.to_upper(), "F5");
        assert_eq!(r.eval, Some(-2.0));
        assert_eq!(r.time_s, Some(0.001));
        let r = parse_move_item("F5/-2.00/0.001").unwrap();
        assert_eq!((r.eval, r.time_s), (Some(-2.0), Some(0.001)));
        let r = parse_move_item("d6//1,5").unwrap();
        assert_eq!((r.eval, r.time_s), (None, Some(1.5)));
        // Unreadable comments are dropped, the move kept.
        let r = parse_move_item("F5/x/soon").unwrap();
        assert_eq!(
            (r.mv.to_upper().as_str(), r.eval, r.time_s),
            ("F5", None, None)
        );
        assert!(parse_move_item("Z9/1,0").is_err());
        let game = parse_game(
            "(;GM[Othello]PC[NBoard]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5/-2,00/0,001]W[D6/2,50/1,250]B[C3/x];)",
        )
        .unwrap();
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.moves()[1].eval, Some(2.5));
        assert_eq!(game.moves()[1].time_s, Some(1.25));
        assert_eq!(game.moves()[2].eval, None);
        assert_eq!(parse_time("1:02,5"), Some(62.5));
    }

    #[test]
    fn many_games_in_one_file() {
        let text = format!("{NBOARD}\n(;GM[Othello]B[A1];)\n{NBOARD}\n");
        let games = parse_games(&text);
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok() && games[1].is_err() && games[2].is_ok());
    }
}
