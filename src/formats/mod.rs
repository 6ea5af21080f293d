//! File formats: OBF positions, GGF games, transcripts, WTHOR databases and Logistello
//! `.gam` games — each with a reader that names the line and column or field of bad input.

pub mod gam;
pub mod ggf;
pub mod obf;
pub mod transcript;
pub mod vgames;
pub mod wthor;

use crate::game::Game;
use crate::rules::Variant;
use crate::square::Color;
use std::fmt;

/// The format a [`FormatError`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Position,
    Obf,
    Ggf,
    Transcript,
    Wthor,
    WthorNames,
    Gam,
    Vgames,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Position => "position",
            Format::Obf => "OBF",
            Format::Ggf => "GGF",
            Format::Transcript => "transcript",
            Format::Wthor => "WTHOR",
            Format::WthorNames => "WTHOR names",
            Format::Gam => "Logistello .gam",
            Format::Vgames => "volte games",
        })
    }
}

/// Where in the input an error is: text formats give a line and a column (both from 1);
/// binary formats give a record number and a field name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// Line and character column, both counted from 1.
    Text { line: usize, column: usize },
    /// Record (game) number from 1 and the field, e.g. `move 12`; record 0 is the header.
    Record { record: usize, field: String },
}

/// Bad input in one of the formats.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{format} {location}: {message}")]
pub struct FormatError {
    pub format: Format,
    pub location: Location,
    pub message: String,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Text { line, column } => write!(f, "line {line}, column {column}"),
            Location::Record { record: 0, field } => write!(f, "header, {field}"),
            Location::Record { record, field } => write!(f, "game {record}, {field}"),
        }
    }
}

impl FormatError {
    /// An error at `line`, `column` (from 1) of a text format.
    pub fn text(format: Format, line: usize, column: usize, message: impl Into<String>) -> Self {
        FormatError {
            format,
            location: Location::Text { line, column },
            message: message.into(),
        }
    }

    /// An error in `field` of `record` of a binary format.
    pub fn record(
        format: Format,
        record: usize,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        FormatError {
            format,
            location: Location::Record {
                record,
                field: field.into(),
            },
            message: message.into(),
        }
    }

    /// The same error placed at another line, with columns shifted by `column_offset`
    /// (for a piece of text parsed on its own and then located in a file).
    pub fn at_line(mut self, line: usize, column_offset: usize) -> Self {
        if let Location::Text { line: l, column } = &mut self.location {
            *l = line;
            *column += column_offset;
        }
        self
    }
}

/// Parses 64 board cells (a1, b1, ..., h8): `X`/`x`/`*`/`B`/`b` black, `O`/`o`/`0`/`W`/`w`
/// white, `-`/`.`/`_`/`E`/`e` empty. Returns (black, white) or the index of the first bad
/// cell.
pub fn parse_cells(cells: &str) -> Result<(u64, u64), (usize, String)> {
    let chars: Vec<char> = cells.chars().collect();
    if chars.len() != 64 {
        return Err((
            chars.len().min(64),
            format!("a board needs 64 cells, found {}", chars.len()),
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in chars.iter().enumerate() {
        match c {
            'X' | 'x' | '*' | 'B' | 'b' => black |= 1 << i,
            'O' | 'o' | '0' | 'W' | 'w' => white |= 1 << i,
            '-' | '.' | '_' | 'E' | 'e' => {}
            other => return Err((i, format!("bad cell `{other}` (expected X, O or -)"))),
        }
    }
    Ok((black, white))
}

/// Parses a side to move: `X`/`B`/`*`/`black` or `O`/`W`/`white`, any case.
pub fn parse_side(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "x" | "b" | "*" | "black" => Some(Color::Black),
        "o" | "w" | "0" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Writes 64 cells in OBF style (`X`, `O`, `-`).
pub fn write_cells(black: u64, white: u64) -> String {
    (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect()
}

/// Parses a position written as 64 cells and a side to move (`<cells> X`, the OBF board
/// part; a `;` and anything after it are ignored), giving a game that starts there.
pub fn parse_position(text: &str, variant: Variant) -> Result<Game, FormatError> {
    let text = text.split(';').next().unwrap_or("");
    let err = |col: usize, msg: String| FormatError::text(Format::Position, 1, col + 1, msg);
    let trimmed_start = text.len() - text.trim_start().len();
    let mut parts = text.split_whitespace();
    let cells = parts
        .next()
        .ok_or_else(|| err(0, "empty position".into()))?;
    let (black, white) = parse_cells(cells).map_err(|(i, m)| err(trimmed_start + i, m))?;
    let side_text = parts
        .next()
        .ok_or_else(|| err(trimmed_start + 64, "missing side to move (X or O)".into()))?;
    let side = parse_side(side_text).ok_or_else(|| {
        err(
            trimmed_start + 65,
            format!("bad side to move `{side_text}` (expected X or O)"),
        )
    })?;
    if let Some(extra) = parts.next() {
        return Err(err(
            trimmed_start + 66,
            format!("unexpected `{extra}` after the side to move"),
        ));
    }
    Ok(Game::from_discs(variant, black, white, side))
}

/// What the user handed to `show` or `perft`: a position, a GGF game or a transcript,
/// recognised by its shape.
pub fn parse_any(text: &str, variant: Variant) -> Result<Game, FormatError> {
    let t = text.trim();
    if t.starts_with("(;") {
        let mut games = ggf::parse_games(t);
        return match games.len() {
            0 => Err(FormatError::text(Format::Ggf, 1, 1, "no game found")),
            _ => games.remove(0),
        };
    }
    let first = t.split_whitespace().next().unwrap_or("");
    if first.chars().count() == 64 {
        return parse_position(t, variant);
    }
    let mut chars = t.chars();
    if matches!(chars.next(), Some('+' | '-'))
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
    {
        return gam::parse_line(t).map(|g| g.game);
    }
    let mut game = Game::new(variant);
    transcript::play_onto(&mut game, t)?;
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_locate_errors() {
        let start = "---------------------------OX------XO--------------------------- X";
        let g = parse_position(start, Variant::Othello).unwrap();
        assert!(g.has_standard_start());
        let e = parse_position(&start.replace("OX", "OZ"), Variant::Othello).unwrap_err();
        assert_eq!(
            e.location,
            Location::Text {
                line: 1,
                column: 29
            }
        );
        assert!(e.to_string().contains("bad cell `Z`"), "{e}");
        assert!(parse_position(&start[..40], Variant::Othello).is_err());
        assert!(parse_position(&start.replace(" X", " Q"), Variant::Othello).is_err());
        assert!(parse_position(&start.replace(" X", ""), Variant::Othello).is_err());
    }

    #[test]
    fn any_input_is_recognised() {
        let g = parse_any("f5d6c3", Variant::Othello).unwrap();
        assert_eq!(g.moves().len(), 3);
        let g = parse_any("(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)", Variant::Othello).unwrap();
        assert_eq!(g.moves().len(), 1);
        let g = parse_any("+d3-c3+c4: +00 10", Variant::Othello);
        assert!(g.is_ok());
        let g = parse_any(
            "---------------------------OX------XO--------------------------- O",
            Variant::Othello,
        )
        .unwrap();
        assert_eq!(g.side_to_move(), Color::White);
        assert!(parse_any("hello", Variant::Othello).is_err());
    }
}
