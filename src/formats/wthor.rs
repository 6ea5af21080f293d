//! WTHOR, the French Othello Federation's database: `.wtb` game files (16-byte header,
//! 68-byte records), the player and tournament names of `WTHOR.JOU` and `WTHOR.TRN`, and
//! the text export of recent years (`moves<TAB>black discs<TAB>year`).

use super::{Format, FormatError};
use crate::game::{Game, GameInfo, MoveRecord};
use crate::rules::Variant;
use crate::square::{Move, Square};

const HEADER_LEN: usize = 16;
const GAME_LEN: usize = 68;
/// Bytes of a player name in `WTHOR.JOU`.
pub const PLAYER_NAME_LEN: usize = 20;
/// Bytes of a tournament name in `WTHOR.TRN`.
pub const TOURNAMENT_NAME_LEN: usize = 26;

/// The header of a `.wtb` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorHeader {
    /// Date the file was made: (year, month, day).
    pub created: (u16, u8, u8),
    pub n_games: u32,
    /// Year of the games.
    pub games_year: u16,
    /// Empties from which the theoretical score is exact (usually 24).
    pub theoretical_depth: u8,
}

/// One game record of a `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    pub tournament: u16,
    pub black: u16,
    pub white: u16,
    /// Black's discs at the end, empties given to the winner.
    pub black_discs: u8,
    /// Black's discs with perfect play from `theoretical_depth` empties on.
    pub theoretical_black_discs: u8,
    /// Moves without passes.
    pub moves: Vec<Square>,
}

/// A whole `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorFile {
    pub header: WthorHeader,
    pub games: Vec<WthorGame>,
}

/// Reads a `.wtb` file.
///
/// # Errors
/// A short header, a game count that disagrees with the file size, a board size other
/// than 8, or a move byte that is not a square; the error names the game and field.
pub fn read_wtb(bytes: &[u8]) -> Result<WthorFile, FormatError> {
    if bytes.len() < HEADER_LEN {
        return Err(FormatError::record(
            Format::Wthor,
            0,
            "length",
            format!("{} bytes, shorter than the 16-byte header", bytes.len()),
        ));
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let n_games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    let board_size = bytes[12];
    if board_size != 0 && board_size != 8 {
        return Err(FormatError::record(
            Format::Wthor,
            0,
            "board size",
            format!("board size {board_size} (only 8x8 games are read)"),
        ));
    }
    if bytes[13] != 0 {
        return Err(FormatError::record(
            Format::Wthor,
            0,
            "type",
            format!("file type {} is not a game file", bytes[13]),
        ));
    }
    let header = WthorHeader {
        created: (
            u16::from(bytes[0]) * 100 + u16::from(bytes[1]),
            bytes[2],
            bytes[3],
        ),
        n_games,
        games_year: u16_at(10),
        theoretical_depth: bytes[14],
    };
    let expected = HEADER_LEN as u64 + u64::from(n_games) * GAME_LEN as u64;
    if bytes.len() as u64 != expected {
        return Err(FormatError::record(
            Format::Wthor,
            0,
            "number of games",
            format!(
                "the header says {n_games} games ({expected} bytes) but the file has {} bytes",
                bytes.len()
            ),
        ));
    }
    let mut games = Vec::with_capacity(n_games as usize);
    for (g, rec) in bytes[HEADER_LEN..].chunks_exact(GAME_LEN).enumerate() {
        let mut moves = Vec::with_capacity(60);
        for (k, &b) in rec[8..].iter().enumerate() {
            if b == 0 {
                break;
            }
            let (row, col) = (b / 10, b % 10);
            if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
                return Err(FormatError::record(
                    Format::Wthor,
                    g + 1,
                    format!("move {}", k + 1),
                    format!("byte {b} is not a square (11..88)"),
                ));
            }
            moves.push(Square::from_coords(col - 1, row - 1));
        }
        games.push(WthorGame {
            tournament: u16::from_le_bytes([rec[0], rec[1]]),
            black: u16::from_le_bytes([rec[2], rec[3]]),
            white: u16::from_le_bytes([rec[4], rec[5]]),
            black_discs: rec[6],
            theoretical_black_discs: rec[7],
            moves,
        });
    }
    Ok(WthorFile { header, games })
}

/// Writes a `.wtb` file.
pub fn write_wtb(file: &WthorFile) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + file.games.len() * GAME_LEN);
    let (year, month, day) = file.header.created;
    out.extend_from_slice(&[(year / 100) as u8, (year % 100) as u8, month, day]);
    out.extend_from_slice(&(file.games.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&file.header.games_year.to_le_bytes());
    out.extend_from_slice(&[8, 0, file.header.theoretical_depth, 0]);
    for g in &file.games {
        out.extend_from_slice(&g.tournament.to_le_bytes());
        out.extend_from_slice(&g.black.to_le_bytes());
        out.extend_from_slice(&g.white.to_le_bytes());
        out.extend_from_slice(&[g.black_discs, g.theoretical_black_discs]);
        let mut moves = [0u8; 60];
        for (slot, sq) in moves.iter_mut().zip(&g.moves) {
            *slot = (sq.row() + 1) * 10 + sq.column() + 1;
        }
        out.extend_from_slice(&moves);
    }
    out
}

/// The names of a `WTHOR.JOU` (`record_len` 20) or `WTHOR.TRN` (26) file, indexed by id.
///
/// # Errors
/// A short header or a size that disagrees with the number of names.
pub fn read_names(bytes: &[u8], record_len: usize) -> Result<Vec<String>, FormatError> {
    if bytes.len() < HEADER_LEN {
        return Err(FormatError::record(
            Format::WthorNames,
            0,
            "length",
            "shorter than the 16-byte header",
        ));
    }
    let n = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let body = &bytes[HEADER_LEN..];
    if body.len() < n * record_len {
        return Err(FormatError::record(
            Format::WthorNames,
            0,
            "number of names",
            format!(
                "the header says {n} names of {record_len} bytes but only {} bytes follow",
                body.len()
            ),
        ));
    }
    Ok(body
        .chunks_exact(record_len)
        .take(n)
        .map(|rec| {
            let end = rec.iter().position(|&b| b == 0).unwrap_or(rec.len());
            // Latin-1: every byte is the code point of the same value.
            rec[..end]
                .iter()
                .map(|&b| char::from(b))
                .collect::<String>()
        })
        .collect())
}

/// Player and tournament names for turning records into games.
#[derive(Clone, Debug, Default)]
pub struct WthorNames {
    pub players: Vec<String>,
    pub tournaments: Vec<String>,
}

impl WthorGame {
    /// Replays the game from the standard start, inferring passes. `number` (from 1) is
    /// used in errors.
    ///
    /// # Errors
    /// An illegal move, naming the game and the move number.
    pub fn to_game(&self, number: usize, names: Option<&WthorNames>) -> Result<Game, FormatError> {
        let mut game = Game::new(Variant::Othello);
        for (k, &sq) in self.moves.iter().enumerate() {
            game.play_inferring_pass(MoveRecord::bare(Move::Play(sq)))
                .map_err(|e| {
                    FormatError::record(
                        Format::Wthor,
                        number,
                        format!("move {}", k + 1),
                        format!("{sq} is illegal: {e}"),
                    )
                })?;
        }
        let name = |list: Option<&Vec<String>>, id: u16| {
            list.and_then(|l| l.get(usize::from(id)).cloned())
                .filter(|n| !n.is_empty())
        };
        game.info = GameInfo {
            black: name(names.map(|n| &n.players), self.black),
            white: name(names.map(|n| &n.players), self.white),
            event: name(names.map(|n| &n.tournaments), self.tournament),
            recorded_result: Some(2.0 * f64::from(self.black_discs) - 64.0),
            ..GameInfo::default()
        };
        Ok(game)
    }
}

/// One game of the text export (`moves<TAB>black discs<TAB>year`).
#[derive(Clone, Debug, PartialEq)]
pub struct TsvGame {
    pub game: Game,
    /// Black's discs at the end, empties given to the winner.
    pub black_discs: u8,
    pub year: u16,
}

/// Parses one line of the text export; `line` (from 1) is used in errors.
pub fn parse_tsv_line(text: &str, line: usize) -> Result<TsvGame, FormatError> {
    let fields: Vec<&str> = text.trim_end_matches(['\r', '\n']).split('\t').collect();
    if fields.len() != 3 {
        return Err(FormatError::text(
            Format::Wthor,
            line,
            1,
            format!("expected 3 TAB-separated fields, found {}", fields.len()),
        ));
    }
    let game =
        super::transcript::parse(fields[0], Variant::Othello).map_err(|e| e.at_line(line, 0))?;
    let col2 = fields[0].chars().count() + 2;
    let black_discs: u8 = fields[1]
        .trim()
        .parse()
        .ok()
        .filter(|&d| d <= 64)
        .ok_or_else(|| {
            FormatError::text(
                Format::Wthor,
                line,
                col2,
                format!("bad disc count `{}`", fields[1]),
            )
        })?;
    let col3 = col2 + fields[1].chars().count() + 1;
    let year: u16 = fields[2].trim().parse().map_err(|_| {
        FormatError::text(
            Format::Wthor,
            line,
            col3,
            format!("bad year `{}`", fields[2]),
        )
    })?;
    Ok(TsvGame {
        game,
        black_discs,
        year,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WthorFile {
        let game = crate::formats::transcript::parse("f5d6c3d3c4", Variant::Othello).unwrap();
        let moves = game.moves().iter().filter_map(|r| r.mv.square()).collect();
        WthorFile {
            header: WthorHeader {
                created: (2026, 11, 29),
                n_games: 1,
                games_year: 2026,
                theoretical_depth: 24,
            },
            games: vec![WthorGame {
                tournament: 1,
                black: 2,
                white: 0,
                black_discs: 40,
                theoretical_black_discs: 36,
                moves,
            }],
        }
    }

    #[test]
    fn round_trip_and_replay() {
        let file = sample();
        let bytes = write_wtb(&file);
        assert_eq!(bytes.len(), 16 + 68);
        assert_eq!(bytes[16 + 8], 56); // f5 is written 56
        assert_eq!(read_wtb(&bytes).unwrap(), file);
        let names = WthorNames {
            players: vec!["???".into(), "x".into(), "Tastet Marc".into()],
            tournaments: vec!["Diverses".into(), "World".into()],
        };
        let g = file.games[0].to_game(1, Some(&names)).unwrap();
        assert_eq!(g.transcript(), "f5d6c3d3c4");
        assert_eq!(g.info.black.as_deref(), Some("Tastet Marc"));
        assert_eq!(g.info.event.as_deref(), Some("World"));
    }

    #[test]
    fn bad_files_are_refused() {
        let bytes = write_wtb(&sample());
        assert!(read_wtb(&bytes[..10]).is_err());
        assert!(read_wtb(&bytes[..50]).is_err());
        let mut bad = bytes.clone();
        bad[16 + 10] = 99;
        let e = read_wtb(&bad).unwrap_err();
        assert_eq!(
            e.to_string(),
            "WTHOR game 1, move 3: byte 99 is not a square (11..88)"
        );
        let mut illegal = bytes.clone();
        illegal[16 + 9] = 11; // a1 as the second move
        let file = read_wtb(&illegal).unwrap();
        let e = file.games[0].to_game(1, None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("WTHOR game 1, move 2: a1 is illegal"),
            "{e}"
        );
        assert!(read_names(&[0; 5], 20).is_err());
        let mut names = vec![0u8; 16];
        names[8] = 3;
        names.extend_from_slice(&[b'a'; 20]);
        assert!(read_names(&names, 20).is_err());
    }

    #[test]
    fn tsv_lines() {
        let g = parse_tsv_line("f5d6c3\t33\t2020", 4).unwrap();
        assert_eq!((g.black_discs, g.year), (33, 2020));
        for bad in [
            "f5d6c3\t33",
            "f5d6c3\t99\t2020",
            "f5d6c3\t33\tyear",
            "f5d6d6\t33\t2020",
        ] {
            let e = parse_tsv_line(bad, 4).unwrap_err();
            assert!(e.to_string().contains("line 4"), "{e}");
        }
    }
}
