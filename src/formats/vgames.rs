//! `.vgames`: volte's compact binary game records, for large sets of games such as the
//! self-play data the evaluation is trained on (about 60 bytes a game against 700 as GGF).
//!
//! A file is a header and then blocks, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `VOLTEGMS` |
//! | 1 | format version (1) |
//! | 1 | variant: 0 Othello, 1 Anti, 2 Reversi 1889 |
//! | 2 | reserved, 0 |
//! | 4 | length of the description, then the description itself: UTF-8 text saying what wrote the games (a resumed run must match it) |
//!
//! Each block: games in it (u32), length of the compressed payload (u32), CRC-32 of the
//! compressed payload (u32), then the payload, a zlib stream of the games one after another.
//! A game is a flags byte (bit 0: a start other than the variant's, given next as black's
//! and white's discs (u64 each), the side to move (0 black, 1 white) and black's and
//! white's discs in hand (u8 each)), the number of plies (u8), and one byte a ply: bits 0-5
//! the move, as its index among the mover's legal moves in square order (a1, b1, ... h8),
//! or 63 for a pass; bit 7 set when a score follows as one byte: the search's or solver's
//! score of the move in discs for the mover, stored as the sum (wrapping, i8) of this score
//! and the game's previous score when there is one (the next mover's score is about the
//! negation of the last, so the sums are small and compress well), else as it is.
//! Scores are whole discs; times, names and other tags are not kept.
//!
//! A block is written whole or not at all as far as readers are concerned: a last block
//! cut short by a killed writer (its length runs past the end, or its CRC differs) is where
//! a resumed writer cuts the file and goes on. A block that fails its CRC with blocks after
//! it is damage: readers and writers refuse the file rather than drop what follows.

use super::{Format, FormatError, Location};
use crate::game::{Game, MoveRecord};
use crate::rules::{State, Variant};
use crate::square::{Color, Move, Square};
use flate2::Crc;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"VOLTEGMS";
pub const VERSION: u8 = 1;
const PASS: u8 = 63;
const SCORED: u8 = 0x80;
const MOVE_BITS: u8 = 0x3f;

/// The index of `sq` among the set bits of `legal` (square order).
fn move_index(legal: u64, sq: u8) -> u8 {
    (legal & ((1u64 << sq) - 1)).count_ones() as u8
}

/// The square of the `index`-th set bit of `legal`.
fn nth_move(legal: u64, index: u8) -> Option<u8> {
    crate::bitboard::Bits(legal).nth(index as usize)
}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Othello => 0,
        Variant::Anti => 1,
        Variant::Reversi1889 => 2,
    }
}

fn variant_of(code: u8) -> Option<Variant> {
    match code {
        0 => Some(Variant::Othello),
        1 => Some(Variant::Anti),
        2 => Some(Variant::Reversi1889),
        _ => None,
    }
}

fn error(record: usize, field: impl Into<String>, message: impl Into<String>) -> FormatError {
    FormatError {
        format: Format::Vgames,
        location: Location::Record {
            record,
            field: field.into(),
        },
        message: message.into(),
    }
}

/// What a file says of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: Variant,
    /// What wrote the games (for self-play: the command's options).
    pub description: String,
}

impl Header {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        out.push(variant_code(self.variant));
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&(self.description.len() as u32).to_le_bytes());
        out.extend_from_slice(self.description.as_bytes());
        out
    }

    /// Reads a header; returns it and its length in bytes.
    pub fn parse(bytes: &[u8]) -> Result<(Header, usize), FormatError> {
        let bad = |m: &str| error(0, "header", m);
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(bad("not a volte games file (no VOLTEGMS header)"));
        }
        if bytes[8] != VERSION {
            return Err(bad(&format!(
                "format version {} (this volte reads {VERSION})",
                bytes[8]
            )));
        }
        let variant = variant_of(bytes[9]).ok_or_else(|| bad("unknown variant"))?;
        let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let text = bytes
            .get(16..16 + n)
            .ok_or_else(|| bad("the description is cut short"))?;
        let description =
            String::from_utf8(text.to_vec()).map_err(|_| bad("the description is not UTF-8"))?;
        Ok((
            Header {
                variant,
                description,
            },
            16 + n,
        ))
    }
}

/// Appends game `g` to `out`.
fn encode_game(g: &Game, out: &mut Vec<u8>) -> Result<(), String> {
    let plies = g.moves().len();
    if plies > 255 {
        return Err(format!("a game of {plies} plies is too long"));
    }
    if g.has_standard_start() {
        out.push(0);
    } else {
        out.push(1);
        let (black, white) = {
            let p = g.start().pos;
            match g.start_side() {
                Color::Black => (p.player, p.opponent),
                Color::White => (p.opponent, p.player),
            }
        };
        let s = g.start();
        let (black_supply, white_supply) = match g.start_side() {
            Color::Black => (s.player_supply, s.opponent_supply),
            Color::White => (s.opponent_supply, s.player_supply),
        };
        out.extend_from_slice(&black.to_le_bytes());
        out.extend_from_slice(&white.to_le_bytes());
        out.push(u8::from(g.start_side() == Color::White));
        out.push(black_supply);
        out.push(white_supply);
    }
    out.push(plies as u8);
    let mut previous: Option<i8> = None;
    for (ply, r) in g.moves().iter().enumerate() {
        let code = match r.mv {
            Move::Play(sq) => {
                let legal = g.variant().legal_moves(&g.states()[ply]);
                move_index(legal, sq.index())
            }
            Move::Pass => PASS,
        };
        match r.eval.filter(|e| e.is_finite()) {
            Some(e) => {
                let score = e.round().clamp(-64.0, 64.0) as i8;
                out.push(code | SCORED);
                out.push(score.wrapping_add(previous.unwrap_or(0)) as u8);
                previous = Some(score);
            }
            None => out.push(code),
        }
    }
    Ok(())
}

/// Reads the games of one block's payload.
/// `first` is the number (from 1) of its first game in the file, `block` the block's.
fn decode_games(
    variant: Variant,
    payload: &[u8],
    count: usize,
    first: usize,
    block: usize,
) -> Result<Vec<Game>, FormatError> {
    let mut at = 0usize;
    let mut games = Vec::with_capacity(count);
    for k in 0..count {
        let record = first + k;
        let field = |what: &str| format!("block {block}, {what}");
        let mut take = |n: usize, what: &str| -> Result<&[u8], FormatError> {
            let s = payload
                .get(at..at + n)
                .ok_or_else(|| error(record, field(what), "the block ends inside the game"))?;
            at += n;
            Ok(s)
        };
        let flags = take(1, "flags")?[0];
        let mut game = if flags & 1 != 0 {
            let s = take(19, "start")?;
            let black = u64::from_le_bytes(s[0..8].try_into().unwrap());
            let white = u64::from_le_bytes(s[8..16].try_into().unwrap());
            if black & white != 0 || s[16] > 1 {
                return Err(error(record, field("start"), "not a position"));
            }
            let side = if s[16] == 0 {
                Color::Black
            } else {
                Color::White
            };
            let (player, opponent, ps, os) = match side {
                Color::Black => (black, white, s[17], s[18]),
                Color::White => (white, black, s[18], s[17]),
            };
            let state = State {
                pos: crate::board::Position::new(player, opponent),
                player_supply: ps,
                opponent_supply: os,
            };
            Game::from_start(variant, state, side)
        } else {
            Game::new(variant)
        };
        let plies = take(1, "plies")?[0] as usize;
        let mut previous: Option<i8> = None;
        for ply in 0..plies {
            let what = format!("ply {}", ply + 1);
            let code = take(1, &what)?[0];
            let eval = if code & SCORED != 0 {
                let score = (take(1, &what)?[0] as i8).wrapping_sub(previous.unwrap_or(0));
                previous = Some(score);
                Some(f64::from(score))
            } else {
                None
            };
            let mv = match code & MOVE_BITS {
                PASS => Move::Pass,
                index => {
                    let legal = variant.legal_moves(game.current());
                    let sq = nth_move(legal, index).ok_or_else(|| {
                        error(
                            record,
                            field(&what),
                            format!("no legal move number {index}"),
                        )
                    })?;
                    Move::Play(Square::from_index(sq))
                }
            };
            game.play_record(MoveRecord {
                mv,
                eval,
                time_s: None,
            })
            .map_err(|e| error(record, field(&what), e.to_string()))?;
        }
        games.push(game);
    }
    if at != payload.len() {
        return Err(error(
            first + count,
            format!("block {block}"),
            "bytes left after its games",
        ));
    }
    Ok(games)
}

/// One block's bytes (its 12-byte head and compressed payload) for `games`.
pub fn encode_block(games: &[Game]) -> Result<Vec<u8>, String> {
    let mut raw = Vec::with_capacity(games.len() * 64);
    for g in games {
        encode_game(g, &mut raw)?;
    }
    let mut z = ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&raw).map_err(|e| e.to_string())?;
    let packed = z.finish().map_err(|e| e.to_string())?;
    let mut crc = Crc::new();
    crc.update(&packed);
    let mut out = Vec::with_capacity(12 + packed.len());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&(packed.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&packed);
    Ok(out)
}

/// The blocks of a file after its header: for each whole block, its games' count and its
/// byte range; and the offset where the whole blocks end (the length of the file, or
/// where a torn last block starts).
struct Scan {
    blocks: Vec<(usize, std::ops::Range<usize>)>,
    whole_end: usize,
    /// The last block is cut short (or, ending the file, fails its CRC): a killed writer's.
    torn: bool,
    /// A block with more bytes after it fails its CRC: damage, not a killed writer.
    corrupt: bool,
}

fn scan(bytes: &[u8], start: usize) -> Scan {
    let mut at = start;
    let mut blocks = Vec::new();
    let (mut torn, mut corrupt) = (false, false);
    while at < bytes.len() {
        let Some(head) = bytes.get(at..at + 12) else {
            torn = true;
            break;
        };
        let count = u32::from_le_bytes(head[0..4].try_into().unwrap()) as usize;
        let len = u32::from_le_bytes(head[4..8].try_into().unwrap()) as usize;
        let sum = u32::from_le_bytes(head[8..12].try_into().unwrap());
        let Some(payload) = bytes.get(at + 12..at + 12 + len) else {
            torn = true;
            break;
        };
        let mut crc = Crc::new();
        crc.update(payload);
        if crc.sum() != sum {
            if at + 12 + len == bytes.len() {
                torn = true;
            } else {
                corrupt = true;
            }
            break;
        }
        blocks.push((count, at + 12..at + 12 + len));
        at += 12 + len;
    }
    Scan {
        blocks,
        whole_end: at,
        torn,
        corrupt,
    }
}

fn inflate(packed: &[u8], first: usize, block: usize) -> Result<Vec<u8>, FormatError> {
    let mut raw = Vec::new();
    ZlibDecoder::new(packed)
        .read_to_end(&mut raw)
        .map_err(|e| {
            error(
                first,
                format!("block {block}"),
                format!("cannot decompress: {e}"),
            )
        })?;
    Ok(raw)
}

/// The header, the games of the whole blocks, and the scan of the blocks.
fn decode(bytes: &[u8]) -> Result<(Header, Vec<Game>, Scan), FormatError> {
    let (header, start) = Header::parse(bytes)?;
    let s = scan(bytes, start);
    if s.corrupt {
        return Err(error(
            s.blocks.iter().map(|(c, _)| c).sum::<usize>() + 1,
            format!("block {}", s.blocks.len() + 1),
            "corrupt (CRC differs), with blocks after it",
        ));
    }
    let mut games = Vec::with_capacity(s.blocks.iter().map(|(c, _)| c).sum());
    for (k, (count, range)) in s.blocks.iter().enumerate() {
        let first = games.len() + 1;
        let raw = inflate(&bytes[range.clone()], first, k + 1)?;
        games.extend(decode_games(header.variant, &raw, *count, first, k + 1)?);
    }
    Ok((header, games, s))
}

/// Reads a whole file: its header and every game. A torn or corrupt block is an error
/// naming it.
pub fn read(bytes: &[u8]) -> Result<(Header, Vec<Game>), FormatError> {
    let (header, games, s) = decode(bytes)?;
    if s.torn {
        return Err(error(
            games.len() + 1,
            format!("block {}", s.blocks.len() + 1),
            "cut short or corrupt (CRC differs)",
        ));
    }
    Ok((header, games))
}

/// Reads a file whose writer may still be running or was killed: the games of its whole
/// blocks, and the bytes of a torn last block left out (0 when none). A corrupt block
/// with blocks after it is an error.
pub fn read_whole_blocks(bytes: &[u8]) -> Result<(Header, Vec<Game>, usize), FormatError> {
    let (header, games, s) = decode(bytes)?;
    Ok((header, games, bytes.len() - s.whole_end))
}

/// Appends blocks of games to a file, resuming one that a killed run left.
pub struct Writer {
    file: std::fs::File,
    /// Games in the file.
    pub games: usize,
    /// Bytes of a torn last block that opening cut off (0 when none).
    pub cut_bytes: usize,
}

impl Writer {
    /// Opens `path` to append games of `header`'s kind: a new file gets the header; an
    /// existing one must have been written with the same header (else it is refused,
    /// untouched), and a torn last block is cut off. The games already there are counted.
    pub fn open(path: &Path, header: &Header) -> anyhow::Result<Writer> {
        use anyhow::Context;
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if bytes.is_empty() {
            file.write_all(&header.to_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            file.sync_data().ok();
            return Ok(Writer {
                file,
                games: 0,
                cut_bytes: 0,
            });
        }
        let (found, start) = Header::parse(&bytes)
            .map_err(|e| anyhow::anyhow!("{}: {e}; not appended to", path.display()))?;
        if found != *header {
            anyhow::bail!(
                "{} holds {} games written by `{}`, not by `{}`: not appended to (give another \
                 --output)",
                path.display(),
                found.variant,
                found.description,
                header.description
            );
        }
        let s = scan(&bytes, start);
        if s.corrupt {
            anyhow::bail!(
                "{}: block {} is corrupt and blocks follow it: not appended to (nothing was \
                 changed)",
                path.display(),
                s.blocks.len() + 1
            );
        }
        let cut_bytes = bytes.len() - s.whole_end;
        if s.torn {
            file.set_len(s.whole_end as u64)
                .with_context(|| format!("cannot cut {}", path.display()))?;
        }
        file.seek(SeekFrom::End(0))?;
        Ok(Writer {
            file,
            games: s.blocks.iter().map(|(c, _)| c).sum(),
            cut_bytes,
        })
    }

    /// Appends one block holding `games` and flushes it to the disk.
    pub fn append(&mut self, games: &[Game]) -> anyhow::Result<()> {
        if games.is_empty() {
            return Ok(());
        }
        let block = encode_block(games).map_err(anyhow::Error::msg)?;
        self.file.write_all(&block)?;
        self.file.sync_data()?;
        self.games += games.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ggf;

    fn sample() -> Vec<Game> {
        let mut a = Game::new(Variant::Othello);
        for (m, e) in [("f5", None), ("d6", Some(-3.0)), ("c3", Some(2.4))] {
            a.play_record(MoveRecord {
                mv: Move::parse(m).unwrap(),
                eval: e,
                time_s: Some(1.0),
            })
            .unwrap();
        }
        // A custom start where white must pass, then black moves with a score.
        let mut b = ggf::parse_game(
            "(;GM[Othello]TY[8]BO[8 OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO*O-O***** O];)",
        )
        .unwrap();
        assert!(b.pass_if_forced());
        let m = crate::bitboard::Bits(b.legal_moves()).next().unwrap();
        b.play_record(MoveRecord {
            mv: Move::Play(Square::from_index(m)),
            eval: Some(-64.0),
            time_s: None,
        })
        .unwrap();
        vec![a, b, Game::new(Variant::Othello)]
    }

    #[test]
    fn games_round_trip_with_scores_and_starts() {
        let games = sample();
        let header = Header {
            variant: Variant::Othello,
            description: "test".into(),
        };
        let mut bytes = header.to_bytes();
        bytes.extend(encode_block(&games[..2]).unwrap());
        bytes.extend(encode_block(&games[2..]).unwrap());
        let (h, back) = read(&bytes).unwrap();
        assert_eq!(h, header);
        assert_eq!(back.len(), 3);
        for (x, y) in games.iter().zip(&back) {
            assert_eq!(x.states(), y.states());
            assert_eq!(x.start_side(), y.start_side());
            let evals = |g: &Game| -> Vec<Option<f64>> {
                g.moves().iter().map(|m| m.eval.map(f64::round)).collect()
            };
            assert_eq!(evals(x), evals(y));
        }
        // Torn and corrupt files are refused, naming the block...
        let e = read(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(e.to_string().contains("game 3, block 2"), "{e}");
        // ...unless whole blocks are asked for: a writer killed mid-block.
        let (_, whole, torn) = read_whole_blocks(&bytes[..bytes.len() - 1]).unwrap();
        let last = encode_block(&games[2..]).unwrap().len();
        assert_eq!((whole.len(), torn), (2, last - 1));
        let mut bad = bytes.clone();
        let n = bad.len();
        bad[n - 2] ^= 0x40;
        assert!(read(&bad).is_err());
        // Damage in a block that others follow is never taken for a torn end.
        let mut middle = bytes.clone();
        let inside_first = header.to_bytes().len() + 12 + 3;
        middle[inside_first] ^= 0x40;
        let e = read_whole_blocks(&middle).unwrap_err();
        assert!(
            e.to_string().contains("block 1") && e.to_string().contains("corrupt"),
            "{e}"
        );
        assert!(read(b"(;GM[Othello];)").is_err());
        assert!(Header::parse(&bytes[..10]).is_err());
    }

    #[test]
    fn a_writer_resumes_cuts_a_torn_block_and_refuses_another_run() {
        let dir = std::env::temp_dir().join(format!("volte-vgames-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.vgames");
        let _ = std::fs::remove_file(&path);
        let header = Header {
            variant: Variant::Othello,
            description: "selfplay level 1".into(),
        };
        let games = sample();
        let mut w = Writer::open(&path, &header).unwrap();
        w.append(&games[..2]).unwrap();
        drop(w);
        let whole = std::fs::read(&path).unwrap();
        // A killed writer left half a block.
        let mut torn = whole.clone();
        torn.extend_from_slice(&encode_block(&games[2..]).unwrap()[..7]);
        std::fs::write(&path, &torn).unwrap();
        let mut w = Writer::open(&path, &header).unwrap();
        assert_eq!((w.games, w.cut_bytes), (2, 7));
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        w.append(&games[2..]).unwrap();
        drop(w);
        let (_, back) = read(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(back.len(), 3);
        // Damage before the last block: refused, nothing cut.
        let mut damaged = std::fs::read(&path).unwrap();
        let inside_first = header.to_bytes().len() + 12 + 3;
        damaged[inside_first] ^= 0x40;
        std::fs::write(&path, &damaged).unwrap();
        let e = Writer::open(&path, &header).err().unwrap().to_string();
        assert!(e.contains("corrupt"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), damaged);
        damaged[inside_first] ^= 0x40;
        std::fs::write(&path, &damaged).unwrap();
        // Another run's file is not touched.
        let before = std::fs::read(&path).unwrap();
        let other = Header {
            variant: Variant::Othello,
            description: "selfplay level 2".into(),
        };
        let e = Writer::open(&path, &other).err().unwrap().to_string();
        assert!(e.contains("not appended to"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
