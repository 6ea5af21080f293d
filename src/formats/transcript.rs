//! Transcripts: `f5d6c3...`. Reading accepts any case, spaces between moves and explicit
//! passes (`pass`, `PA`, `--`, `@@`), and infers the passes a transcript leaves out;
//! writing gives the moves without passes.

use super::{Format, FormatError};
use crate::game::{Game, MoveRecord};
use crate::rules::Variant;
use crate::square::{Move, Square};

/// One move of a transcript and its column (from 1).
fn tokens(text: &str) -> Result<Vec<(Move, usize)>, FormatError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len() / 2);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let column = i + 1;
        if c.is_ascii_alphabetic() && !matches!(c, 'p' | 'P') {
            let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let sq = Square::parse(&two).ok_or_else(|| {
                FormatError::text(
                    Format::Transcript,
                    1,
                    column,
                    format!("`{two}` is not a square (a1..h8)"),
                )
            })?;
            out.push((Move::Play(sq), column));
            i += 2;
        } else if c == '-' || c == '@' {
            if chars.get(i + 1) == Some(&c) {
                out.push((Move::Pass, column));
                i += 2;
            } else {
                return Err(FormatError::text(
                    Format::Transcript,
                    1,
                    column,
                    format!("unexpected `{c}` (a pass is written `--` or `@@`)"),
                ));
            }
        } else if c == 'p' || c == 'P' {
            let word: String = chars[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            if Move::parse(&word) == Some(Move::Pass) {
                out.push((Move::Pass, column));
                i += word.len();
            } else {
                return Err(FormatError::text(
                    Format::Transcript,
                    1,
                    column,
                    format!("`{word}` is not a move or a pass"),
                ));
            }
        } else {
            return Err(FormatError::text(
                Format::Transcript,
                1,
                column,
                format!("unexpected `{c}` in a transcript"),
            ));
        }
    }
    Ok(out)
}

/// Plays the moves of `text` onto `game`, inferring left-out passes. On an error the game
/// holds the moves before the bad one.
pub fn play_onto(game: &mut Game, text: &str) -> Result<(), FormatError> {
    for (n, (mv, column)) in tokens(text)?.into_iter().enumerate() {
        game.play_inferring_pass(MoveRecord::bare(mv))
            .map_err(|e| {
                FormatError::text(
                    Format::Transcript,
                    1,
                    column,
                    format!("move {} ({mv}) is illegal: {e}", n + 1),
                )
            })?;
    }
    Ok(())
}

/// A game of `variant` from its standard start with the moves of `text`.
pub fn parse(text: &str, variant: Variant) -> Result<Game, FormatError> {
    let mut game = Game::new(variant);
    play_onto(&mut game, text)?;
    Ok(game)
}

/// The moves of `game` as a transcript, without passes.
pub fn write(game: &Game) -> String {
    game.transcript()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_any_spelling() {
        let a = parse("f5d6c3d3c4", Variant::Othello).unwrap();
        let b = parse(" F5 d6 C3, d3 c4 ", Variant::Othello).unwrap();
        assert_eq!(a, b);
        assert_eq!(write(&a), "f5d6c3d3c4");
    }

    #[test]
    fn explicit_pass_is_checked() {
        let e = parse("f5 pass", Variant::Othello).unwrap_err();
        assert!(e.to_string().contains("cannot pass"), "{e}");
        assert_eq!(
            e.location,
            super::super::Location::Text { line: 1, column: 4 }
        );
    }

    #[test]
    fn bad_transcripts_give_located_errors() {
        for (text, column) in [
            ("f5d6i9", 5),
            ("f5d6d6", 5),
            ("f5 x", 4),
            ("f5 #", 4),
            ("f5-", 3),
            ("f5 pas5", 7),
            ("f5d", 3),
            ("f5 pq", 4),
        ] {
            let e = parse(text, Variant::Othello).unwrap_err();
            match e.location {
                super::super::Location::Text { column: c, .. } => {
                    assert_eq!(c, column, "{text}: {e}")
                }
                _ => panic!("{e}"),
            }
        }
    }
}
