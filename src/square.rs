//! Squares, colours and moves: the names the rest of volte uses for places on the board.
//!
//! Columns a-h run left to right and rows 1-8 top to bottom; the bit index of a square is
//! `8 * row + column`, so a1 = 0, h1 = 7, a8 = 56 and h8 = 63 (the order of OBF and GGF
//! board strings).

use std::fmt;
use std::str::FromStr;

/// A square of the 8x8 board, `0..64` (a1 = 0, h8 = 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with bit index `index`, or `None` when `index >= 64`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with bit index `index`; the caller guarantees `index < 64`.
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1, the top).
    pub const fn from_coords(column: u8, row: u8) -> Square {
        debug_assert!(column < 8 && row < 8);
        Square((row & 7) * 8 + (column & 7))
    }

    /// Bit index, `0..64`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The single-bit mask of this square.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Column, 0 (a) to 7 (h).
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// Row, 0 (row 1, the top) to 7 (row 8).
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// All 64 squares in bit order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses `a1`..`h8` in any case; `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let column = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        (column < 8 && row < 8).then(|| Square::from_coords(column, row))
    }

    /// The name in upper case, as NBoard and GGF write it (`F5`).
    pub fn to_upper(self) -> String {
        self.to_string().to_ascii_uppercase()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column()) as char, self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error for text that names no square or move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (a1..h8) or a pass")]
pub struct BadMove(pub String);

impl FromStr for Square {
    type Err = BadMove;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Square::parse(s.trim()).ok_or_else(|| BadMove(s.to_string()))
    }
}

/// One ply: a disc played on a square, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Play(Square),
    Pass,
}

impl Move {
    /// Parses a square (any case) or a pass written as `pass`, `PA` (any prefix of `PASS`
    /// of two letters or more), `--` or `@@`.
    pub fn parse(text: &str) -> Option<Move> {
        let t = text.trim();
        if let Some(sq) = Square::parse(t) {
            return Some(Move::Play(sq));
        }
        let upper = t.to_ascii_uppercase();
        let is_pass = (upper.len() >= 2 && "PASS".starts_with(&upper)) || t == "--" || t == "@@";
        is_pass.then_some(Move::Pass)
    }

    /// The square played, `None` for a pass.
    pub fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Upper-case name as NBoard and GGF write it: `F5` or `PA`.
    pub fn to_upper(self) -> String {
        match self {
            Move::Play(sq) => sq.to_upper(),
            Move::Pass => "PA".to_string(),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => write!(f, "{sq}"),
            Move::Pass => write!(f, "pass"),
        }
    }
}

impl FromStr for Move {
    type Err = BadMove;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Move::parse(s).ok_or_else(|| BadMove(s.to_string()))
    }
}

/// A player's colour. Only game records and protocols know colours; the engine thinks in
/// terms of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for black and `O` for white, as in OBF.
    pub const fn obf_char(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square::parse(&sq.to_upper()), Some(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h1").unwrap().index(), 7);
        assert_eq!(Square::parse("a8").unwrap().index(), 56);
        assert_eq!(Square::parse("F5").unwrap().index(), 37);
        for bad in ["", "a", "i1", "a9", "a0", "11", "aa", "a10", "é1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn passes_in_all_spellings() {
        for p in ["pass", "PASS", "PA", "pa", "Pas", "--", "@@", " PA "] {
            assert_eq!(Move::parse(p), Some(Move::Pass), "{p}");
        }
        for bad in ["P", "PASSS", "-", "@", "x"] {
            assert_eq!(Move::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Move::parse("d3"),
            Some(Move::Play(Square::from_coords(3, 2)))
        );
    }
}
