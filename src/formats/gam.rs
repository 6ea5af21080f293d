//! Logistello's `.gam` game lines: `+d3-c3+c4...: -04 10`. `+` marks a black move and `-`
//! a white one, so a colour moving twice in a row means the other passed; after `: ` comes
//! black's discs minus white's at the end (empties NOT given to the winner), then a last
//! field (always 10 in Logistello's collection).

use super::{Format, FormatError};
use crate::game::Game;
use crate::rules::Variant;
use crate::square::{Color, Move, Square};

/// One Logistello game.
#[derive(Clone, Debug, PartialEq)]
pub struct GamGame {
    pub game: Game,
    /// Black's discs minus white's at the end, as the line states it.
    pub disc_diff: i32,
    /// The field after the score.
    pub last_field: i32,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> FormatError {
    FormatError::text(Format::Gam, line, column, message)
}

/// Parses one `.gam` line (as line 1; see [`parse_numbered_line`]).
pub fn parse_line(text: &str) -> Result<GamGame, FormatError> {
    parse_numbered_line(text, 1)
}

/// Parses one `.gam` line; `line` (from 1) is used in errors.
pub fn parse_numbered_line(text: &str, line: usize) -> Result<GamGame, FormatError> {
    let (moves, rest) = text.split_once(':').ok_or_else(|| {
        err(
            line,
            text.chars().count() + 1,
            "missing `:` before the score",
        )
    })?;
    let bytes = moves.as_bytes();
    let mut game = Game::new(Variant::Othello);
    let mut i = 0;
    while i < bytes.len() {
        let sign = bytes[i];
        if sign.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let color = match sign {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => {
                let c = moves[i..].chars().next().unwrap_or('?');
                return Err(err(
                    line,
                    i + 1,
                    format!("expected `+` or `-`, found `{c}`"),
                ));
            }
        };
        let name = moves.get(i + 1..i + 3).unwrap_or("");
        let sq = Square::parse(name)
            .ok_or_else(|| err(line, i + 2, format!("`{name}` is not a square")))?;
        if game.side_to_move() != color && !game.pass_if_forced() {
            return Err(err(
                line,
                i + 1,
                format!(
                    "{color} moves but {} is to move and has a move",
                    game.side_to_move()
                ),
            ));
        }
        game.play(Move::Play(sq))
            .map_err(|e| err(line, i + 1, format!("{sq} is illegal: {e}")))?;
        i += 3;
    }
    let score_col = moves.len() + 2 + (rest.len() - rest.trim_start().len());
    let mut fields = rest.split_whitespace();
    let disc_diff: i32 = fields
        .next()
        .and_then(|s| s.parse().ok())
        .filter(|d: &i32| d.abs() <= 64)
        .ok_or_else(|| err(line, score_col, "missing or bad score after `:`"))?;
    let last_field: i32 = match fields.next() {
        None => 0,
        Some(s) => s
            .parse()
            .map_err(|_| err(line, score_col, format!("bad field `{s}` after the score")))?,
    };
    Ok(GamGame {
        game,
        disc_diff,
        last_field,
    })
}

/// Writes `game` as a `.gam` line, with the disc difference it ends with.
pub fn write_line(game: &Game, last_field: i32) -> String {
    let mut out = String::with_capacity(200);
    for (ply, record) in game.moves().iter().enumerate() {
        if let Move::Play(sq) = record.mv {
            out.push(match game.side_at(ply) {
                Color::Black => '+',
                Color::White => '-',
            });
            out.push_str(&sq.to_string());
        }
    }
    let (black, white) = game.disc_counts();
    out.push_str(&format!(
        ": {:+03} {last_field}",
        black as i32 - white as i32
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-a6+b4-a5+a4-e8+b8-h7+g8-b7+g2-g3+h2-a1+f1-e2+h3-a3+a8-a7+h8-g7+a2-b1-g1+h1: +00 10";

    #[test]
    fn reads_passes_and_score() {
        let g = parse_line(LINE).unwrap();
        assert_eq!(g.disc_diff, 0);
        assert_eq!(g.last_field, 10);
        assert!(g.game.moves().iter().any(|r| r.mv == Move::Pass));
        assert!(g.game.is_over());
        let (b, w) = g.game.disc_counts();
        assert_eq!(b as i32 - w as i32, g.disc_diff);
        assert_eq!(write_line(&g.game, 10), LINE);
    }

    #[test]
    fn bad_lines_are_located() {
        for (text, column) in [
            ("+d3-c3+c4 -04 10", 17),
            ("+d3*c3: -04 10", 4),
            ("+d3-z3: -04 10", 5),
            ("+d3+c3: -04 10", 4),
            ("+d3-d3: -04 10", 4),
            ("+d3-c3: x 10", 9),
            ("+d3-c3: +99 10", 9),
            ("+d", 3),
        ] {
            let e = parse_numbered_line(text, 2).unwrap_err();
            assert_eq!(
                e.location,
                super::super::Location::Text { line: 2, column },
                "{text}: {e}"
            );
        }
    }
}
