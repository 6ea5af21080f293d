//! OBF, one position a line: 64 cells, a space, the side to move, then optional
//! `; MOVE:score;` fields giving the exact disc difference after each move (best first).
//! Lines that are empty or start with `%` or `#` are comments.

use super::{Format, FormatError, parse_cells, parse_side, write_cells};
use crate::game::Game;
use crate::rules::Variant;
use crate::square::{Color, Move};

/// One OBF position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfPosition {
    pub black: u64,
    pub white: u64,
    pub side: Color,
    /// `(move, exact score for the side to move after it)`, as the file lists them.
    pub scores: Vec<(Move, i32)>,
    /// Line number in the file, from 1.
    pub line: usize,
}

impl ObfPosition {
    /// A game of `variant` that starts from this position.
    pub fn to_game(&self, variant: Variant) -> Game {
        Game::from_discs(variant, self.black, self.white, self.side)
    }

    /// The best score the file gives, if any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }

    /// The moves with the best score.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.best_score();
        self.scores
            .iter()
            .filter(|&&(_, s)| Some(s) == best)
            .map(|&(m, _)| m)
            .collect()
    }
}

/// Parses one OBF line; `line` (from 1) is used in errors.
pub fn parse_line(text: &str, line: usize) -> Result<ObfPosition, FormatError> {
    let err = |col: usize, msg: String| FormatError::text(Format::Obf, line, col, msg);
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    let cells_start = i;
    while i < chars.len() && !chars[i].is_whitespace() && chars[i] != ';' {
        i += 1;
    }
    let cells: String = chars[cells_start..i].iter().collect();
    let (black, white) = parse_cells(&cells).map_err(|(at, msg)| err(cells_start + at + 1, msg))?;
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    let side_start = i;
    while i < chars.len() && !chars[i].is_whitespace() && chars[i] != ';' {
        i += 1;
    }
    let side_text: String = chars[side_start..i].iter().collect();
    if side_text.is_empty() {
        return Err(err(side_start + 1, "missing side to move (X or O)".into()));
    }
    let side = parse_side(&side_text).ok_or_else(|| {
        err(
            side_start + 1,
            format!("bad side to move `{side_text}` (expected X or O)"),
        )
    })?;
    if black & white != 0 {
        return Err(err(1, "a square holds two discs".into()));
    }

    // Solution fields: `; MOVE:score` separated by semicolons.
    let mut scores = Vec::new();
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        if chars[i] != ';' {
            return Err(err(
                i + 1,
                format!(
                    "expected `;` before a MOVE:score field, found `{}`",
                    chars[i]
                ),
            ));
        }
        i += 1;
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let field_start = i;
        while i < chars.len() && chars[i] != ';' {
            i += 1;
        }
        let field: String = chars[field_start..i].iter().collect();
        let field = field.trim_end();
        if field.is_empty() {
            continue;
        }
        let (mv_text, score_text) = field.split_once(':').ok_or_else(|| {
            err(
                field_start + 1,
                format!("field `{field}` is not MOVE:score"),
            )
        })?;
        let mv = Move::parse(mv_text)
            .ok_or_else(|| err(field_start + 1, format!("`{mv_text}` is not a move")))?;
        let score_col = field_start + mv_text.chars().count() + 2;
        let score: i32 = score_text
            .trim()
            .parse()
            .map_err(|_| err(score_col, format!("`{score_text}` is not a score")))?;
        if !(-64..=64).contains(&score) {
            return Err(err(score_col, format!("score {score} is outside -64..64")));
        }
        scores.push((mv, score));
    }
    Ok(ObfPosition {
        black,
        white,
        side,
        scores,
        line,
    })
}

/// Parses a whole OBF file: one result per position line, comments and blank lines
/// skipped, so that a bad line does not hide the good ones.
pub fn parse_file(text: &str) -> Vec<Result<ObfPosition, FormatError>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim();
            !(t.is_empty() || t.starts_with('%') || t.starts_with('#'))
        })
        .map(|(n, l)| parse_line(l, n + 1))
        .collect()
}

/// Writes one OBF line.
pub fn write_line(pos: &ObfPosition) -> String {
    let mut out = format!(
        "{} {}",
        write_cells(pos.black, pos.white),
        pos.side.obf_char()
    );
    if !pos.scores.is_empty() {
        out.push(';');
        for (mv, score) in &pos.scores {
            out.push_str(&format!(" {}:{:+};", mv.to_upper(), score));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn reads_and_writes_ffo_lines() {
        let p = parse_line(FFO1, 1).unwrap();
        assert_eq!(p.side, Color::Black);
        assert_eq!(p.scores.len(), 8);
        assert_eq!(p.best_score(), Some(18));
        assert_eq!(p.best_moves(), vec![Move::parse("g8").unwrap()]);
        assert_eq!(write_line(&p), FFO1);
        let bare = parse_line(&FFO1[..66], 3).unwrap();
        assert!(bare.scores.is_empty());
        assert_eq!(write_line(&bare), &FFO1[..66]);
    }

    #[test]
    fn bad_lines_name_line_and_column() {
        let cases = [
            (FFO1.replacen('X', "Z", 1), 3),
            (FFO1[..30].to_string(), 31),
            (FFO1.replace(" X;", " Y;"), 66),
            (FFO1[..65].to_string(), 66),
            (FFO1.replace("G8:+18", "G9:+18"), 69),
            (FFO1.replace("G8:+18", "G8:+x8"), 72),
            (FFO1.replace("G8:+18", "G8:+88"), 72),
            (FFO1.replace("G8:+18", "G8+18"), 69),
            (FFO1.replace(" X;", " X ?"), 68),
        ];
        for (text, column) in cases {
            let e = parse_line(&text, 7).unwrap_err();
            assert_eq!(
                e.location,
                super::super::Location::Text { line: 7, column },
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn file_keeps_going_after_a_bad_line() {
        let text = format!("% comment\n{FFO1}\nbroken line\n\n{FFO1}\n");
        let parsed = parse_file(&text);
        assert_eq!(parsed.len(), 3);
        assert!(parsed[0].is_ok() && parsed[2].is_ok());
        assert_eq!(parsed[2].as_ref().unwrap().line, 5);
        assert!(
            parsed[1]
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("line 3")
        );
    }
}
