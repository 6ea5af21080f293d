//! The book file: a 16-byte header, then the entries in key order, zlib-compressed (whose
//! checksum catches corruption).
//!
//! | bytes | field |
//! |-------|-------|
//! | 0-7   | magic `VOLTBOOK` |
//! | 8-9   | format version (u16 LE, [`FORMAT_VERSION`]) |
//! | 10    | variant (0 Othello, 1 Anti, 2 Reversi 1889) |
//! | 11    | reserved (0) |
//! | 12-15 | number of entries (u32 LE) |
//!
//! Each entry is 24 bytes: player discs (u64 LE), opponent discs (u64 LE), games (u32 LE),
//! leaf move (u8: 0-63 a square, 64 none, 255 not searched yet), leaf score (i8), leaf
//! depth (u8), flags (u8: bit 0 = the leaf score is exact). The key is the smallest of the
//! position's 8 symmetric images, so the file is the same whatever order it was built in.

use super::{Book, Entry, Key, Leaf, NO_MOVE, normalise};
use crate::rules::Variant;
use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use std::io::{Read, Write};
use std::path::Path;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"VOLTBOOK";
/// The version of the layout this build reads and writes.
pub const FORMAT_VERSION: u16 = 1;
const HEADER_LEN: usize = 16;
const ENTRY_LEN: usize = 24;
const NOT_SEARCHED: u8 = 255;
const FLAG_EXACT: u8 = 1;

/// Why a book file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BookFileError {
    #[error("not a volte book (it does not start with VOLTBOOK)")]
    NotBook,
    #[error("the file is truncated: its header needs {HEADER_LEN} bytes")]
    Truncated,
    #[error("format version {0}; this volte reads version {FORMAT_VERSION}")]
    Version(u16),
    #[error("unknown variant code {0}")]
    Variant(u8),
    #[error("the entries are corrupt: {0}")]
    Corrupt(String),
    #[error("entry {index}: {reason}")]
    BadEntry { index: usize, reason: String },
}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Othello => 0,
        Variant::Anti => 1,
        Variant::Reversi1889 => 2,
    }
}

impl Book {
    /// The book as file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let entries = self.sorted_entries();
        let mut raw = Vec::with_capacity(entries.len() * ENTRY_LEN);
        for (key, e) in &entries {
            raw.extend_from_slice(&key.player.to_le_bytes());
            raw.extend_from_slice(&key.opponent.to_le_bytes());
            raw.extend_from_slice(&e.games.to_le_bytes());
            match e.leaf {
                None => raw.extend_from_slice(&[NOT_SEARCHED, 0, 0, 0]),
                Some(l) => raw.extend_from_slice(&[
                    l.mv,
                    l.score as u8,
                    l.depth,
                    if l.exact { FLAG_EXACT } else { 0 },
                ]),
            }
        }
        let mut out = Vec::with_capacity(HEADER_LEN + raw.len() / 3);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(variant_code(self.variant));
        out.push(0);
        out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
        let mut z = ZlibEncoder::new(out, Compression::best());
        z.write_all(&raw).expect("writing to memory cannot fail");
        z.finish().expect("writing to memory cannot fail")
    }

    /// Reads a book from file bytes, checking every entry, and backs up its values.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookFileError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookFileError::NotBook);
        }
        if bytes.len() < HEADER_LEN {
            return Err(BookFileError::Truncated);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != FORMAT_VERSION {
            return Err(BookFileError::Version(version));
        }
        let variant = match bytes[10] {
            0 => Variant::Othello,
            1 => Variant::Anti,
            2 => Variant::Reversi1889,
            c => return Err(BookFileError::Variant(c)),
        };
        let count = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        let mut raw = Vec::new();
        ZlibDecoder::new(&bytes[HEADER_LEN..])
            .read_to_end(&mut raw)
            .map_err(|e| BookFileError::Corrupt(e.to_string()))?;
        if raw.len() != count * ENTRY_LEN {
            return Err(BookFileError::Corrupt(format!(
                "the header announces {count} entries ({} bytes) but {} bytes follow",
                count * ENTRY_LEN,
                raw.len()
            )));
        }
        let mut book = Book::new(variant);
        for (index, r) in raw.chunks_exact(ENTRY_LEN).enumerate() {
            let bad = |reason: &str| BookFileError::BadEntry {
                index,
                reason: reason.to_string(),
            };
            let key = Key {
                player: u64::from_le_bytes(r[0..8].try_into().expect("8 bytes")),
                opponent: u64::from_le_bytes(r[8..16].try_into().expect("8 bytes")),
            };
            if key.player & key.opponent != 0 {
                return Err(bad("a square holds both colours"));
            }
            if normalise(&key.position()).0 != key {
                return Err(bad("the position is not in its normal orientation"));
            }
            let games = u32::from_le_bytes(r[16..20].try_into().expect("4 bytes"));
            let leaf = match r[20] {
                NOT_SEARCHED => None,
                mv if mv <= NO_MOVE => {
                    if mv != NO_MOVE && (key.player | key.opponent) & (1u64 << mv) != 0 {
                        return Err(bad("the leaf move is on an occupied square"));
                    }
                    Some(Leaf {
                        mv,
                        score: r[21] as i8,
                        depth: r[22],
                        exact: r[23] & FLAG_EXACT != 0,
                    })
                }
                _ => return Err(bad("the leaf move is not a square")),
            };
            if leaf.is_some_and(|l| !(-64..=64).contains(&l.score)) {
                return Err(bad("the leaf score is outside -64..64"));
            }
            book.insert_entry(
                key,
                Entry {
                    games,
                    leaf,
                    value: None,
                },
            );
        }
        if book.len() != count {
            return Err(BookFileError::Corrupt("an entry appears twice".to_string()));
        }
        book.backup();
        Ok(book)
    }

    /// Reads a book file.
    pub fn load(path: &Path) -> anyhow::Result<Book> {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("cannot read book {}: {e}", path.display()))?;
        Book::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("book {}: {e}", path.display()))
    }

    /// Writes the book to `path` (through a temporary file, so an interrupted write never
    /// leaves half a book).
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        }
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        Ok(())
    }
}
