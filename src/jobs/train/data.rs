//! Game records for training: WTHOR (`.wtb` and the `.tsv` export), Logistello `.gam`
//! (also gzipped), GGF files and transcripts (one game a line), from files or folders.
//! Only games played to the end are kept: their final score is the label.

use crate::formats::{gam, ggf, transcript, vgames, wthor};
use crate::game::Game;
use crate::rules::Variant;
use anyhow::{Context, Result, bail};
use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The games read from the inputs, and what was skipped.
#[derive(Default)]
pub struct GameSet {
    pub games: Vec<Game>,
    /// Per input file: (path, games kept, games skipped as unfinished, of another variant,
    /// duplicates or unreadable).
    pub files: Vec<(PathBuf, usize, usize)>,
    /// Per input given (a file or a folder): the index in `games` of its first game.
    pub input_starts: Vec<usize>,
}

/// A 64-bit key of a game's moves and start, for duplicates, the test split and caches.
pub fn game_key(game: &Game) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |b: u64| {
        h ^= b;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    };
    eat(game.variant() as u64);
    eat(game.start().pos.player);
    eat(game.start().pos.opponent);
    for m in game.moves() {
        eat(m.mv.square().map_or(64, |s| u64::from(s.index())));
    }
    // Final mixing so that low bits are usable for the split.
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^ (h >> 33)
}

fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(input)
                .with_context(|| format!("cannot read {}", input.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && kind(p).is_some())
                .collect();
            inner.sort();
            if inner.is_empty() {
                bail!(
                    "no game files (.wtb .tsv .gam .gam.gz .ggf .txt .vgames) in {}",
                    input.display()
                );
            }
            files.extend(inner);
        } else if input.is_file() {
            if kind(input).is_none() {
                bail!(
                    "{}: unknown kind of game file (expected .wtb, .tsv, .gam, .gam.gz, .ggf, .txt or .vgames)",
                    input.display()
                );
            }
            files.push(input.clone());
        } else {
            bail!("{} does not exist", input.display());
        }
    }
    Ok(files)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Wtb,
    Tsv,
    Gam,
    Ggf,
    Transcripts,
    Vgames,
}

fn kind(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    let ext = name.rsplit_once('.')?.1;
    Some(match ext {
        "wtb" => Kind::Wtb,
        "tsv" => Kind::Tsv,
        "gam" => Kind::Gam,
        "ggf" => Kind::Ggf,
        "txt" => Kind::Transcripts,
        "vgames" => Kind::Vgames,
        _ => return None,
    })
}

fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
    {
        let mut text = String::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .with_context(|| format!("{}: not a readable gzip text file", path.display()))?;
        Ok(text)
    } else {
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// Reads every game of `inputs` (files, or folders whose game files are read in name
/// order) for `variant`: games of other variants, unfinished games, unreadable records and
/// repeats of a game already read are skipped and counted.
pub fn read_games(inputs: &[PathBuf], variant: Variant) -> Result<GameSet> {
    read(inputs, variant, true)
}

/// Reads every game or line of `inputs` for `variant` as [`read_games`] does, keeping
/// unfinished ones too (opening lists, games cut short).
pub fn read_lines(inputs: &[PathBuf], variant: Variant) -> Result<GameSet> {
    read(inputs, variant, false)
}

fn read(inputs: &[PathBuf], variant: Variant, finished_only: bool) -> Result<GameSet> {
    let mut set = GameSet::default();
    let mut seen = HashSet::new();
    // Each input's files, so that the games of each input can be told apart.
    let mut files = Vec::new();
    for (k, input) in inputs.iter().enumerate() {
        files.extend(
            expand(std::slice::from_ref(input))?
                .into_iter()
                .map(|p| (k, p)),
        );
    }
    set.input_starts = vec![0; inputs.len()];
    let mut next_input = 0;
    for (k, path) in files {
        while next_input <= k {
            set.input_starts[next_input] = set.games.len();
            next_input += 1;
        }
        let kind = kind(&path).expect("expanded files have a kind");
        let records: Vec<Option<Game>> = match kind {
            Kind::Wtb => {
                let bytes = std::fs::read(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let file = wthor::read_wtb(&bytes).with_context(|| path.display().to_string())?;
                file.games
                    .iter()
                    .enumerate()
                    .map(|(i, g)| g.to_game(i, None).ok())
                    .collect()
            }
            Kind::Tsv => read_text(&path)?
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, l)| wthor::parse_tsv_line(l, i + 1).ok().map(|g| g.game))
                .collect(),
            Kind::Gam => read_text(&path)?
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
                .map(|(i, l)| gam::parse_numbered_line(l, i + 1).ok().map(|g| g.game))
                .collect(),
            Kind::Ggf => ggf::parse_games(&read_text(&path)?)
                .into_iter()
                .map(Result::ok)
                .collect(),
            Kind::Transcripts => read_text(&path)?
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| transcript::parse(l, variant).ok())
                .collect(),
            Kind::Vgames => {
                let bytes = std::fs::read(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                let (_, games, torn) = vgames::read_whole_blocks(&bytes)
                    .with_context(|| path.display().to_string())?;
                if torn > 0 {
                    eprintln!(
                        "{}: the last {torn} bytes are a block still being written or cut \
                         short; its games are left out",
                        path.display()
                    );
                }
                games.into_iter().map(Some).collect()
            }
        };
        let (mut kept, mut skipped) = (0, 0);
        for game in records {
            match game {
                Some(g)
                    if g.variant() == variant
                        && (g.is_over() || !finished_only)
                        && seen.insert(game_key(&g)) =>
                {
                    set.games.push(g);
                    kept += 1;
                }
                _ => skipped += 1,
            }
        }
        set.files.push((path, kept, skipped));
    }
    if set.games.is_empty() {
        let finished = if finished_only { "finished " } else { "" };
        bail!("no {finished}{variant} games in the inputs");
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_format_and_skips_what_it_cannot_use() {
        let dir = std::env::temp_dir().join(format!("volte-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A finished game: always the lowest legal move.
        let mut game = Game::new(Variant::Othello);
        while !game.is_over() {
            if !game.pass_if_forced() {
                let sq = game.legal_moves().trailing_zeros() as u8;
                game.play(crate::square::Move::Play(
                    crate::square::Square::from_index(sq),
                ))
                .unwrap();
            }
        }
        let full = transcript::write(&game);
        std::fs::write(
            dir.join("games.txt"),
            format!("{full}\n# comment\nf5d6\nzz\n{full}\n"),
        )
        .unwrap();
        let set = read_games(&[dir.join("games.txt")], Variant::Othello).unwrap();
        assert_eq!(
            set.games.len(),
            1,
            "the repeat and the unfinished game are skipped"
        );
        assert_eq!(set.files[0].1, 1);
        assert_eq!(set.files[0].2, 3);
        assert_eq!(set.games[0].final_score_black(), game.final_score_black());
        // Several inputs: repeats across them count once, and each input's games start
        // where the inputs before it end.
        let mut other = Game::new(Variant::Othello);
        while !other.is_over() {
            if !other.pass_if_forced() {
                let sq = 63 - other.legal_moves().leading_zeros() as u8;
                other
                    .play(crate::square::Move::Play(
                        crate::square::Square::from_index(sq),
                    ))
                    .unwrap();
            }
        }
        let other = transcript::write(&other);
        std::fs::write(dir.join("more.txt"), format!("{full}\n{other}\n")).unwrap();
        let set = read_games(
            &[dir.join("games.txt"), dir.join("more.txt")],
            Variant::Othello,
        )
        .unwrap();
        assert_eq!(set.games.len(), 2);
        assert_eq!(set.input_starts, vec![0, 1]);
        assert!(read_games(&[dir.join("missing.wtb")], Variant::Othello).is_err());
        std::fs::write(dir.join("x.bin"), "").unwrap();
        assert!(read_games(&[dir.join("x.bin")], Variant::Othello).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
