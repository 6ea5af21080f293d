//! Helpers shared by the integration tests.

use std::path::PathBuf;
use volte::bitboard::Bits;
use volte::rules::{State, Variant};

/// The shared data folder: `$VOLTE_DATA`, or `../shared/data` beside the project. Tests
/// that read it carry `#[cfg_attr(volte_no_data, ignore = ...)]`: the build script sets
/// `volte_no_data` when the folder is absent, so they are reported as ignored.
#[allow(dead_code)]
pub fn data_dir() -> PathBuf {
    let dir = std::env::var_os("VOLTE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    assert!(
        dir.is_dir(),
        "data folder {} not found (set VOLTE_DATA)",
        dir.display()
    );
    dir
}

/// A scratch folder `volte-<name>-<pid>` in the system's temp folder: emptied when made,
/// removed with its files when dropped (also when the test fails).
#[allow(dead_code)]
pub struct Scratch(PathBuf);

#[allow(dead_code)]
impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("volte-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// The path of `file` in the folder.
    pub fn join(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }

    /// Writes `file` in the folder; its path.
    pub fn write(&self, file: &str, text: &str) -> PathBuf {
        let path = self.join(file);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A small deterministic random generator.
#[allow(dead_code)]
pub struct Lcg(pub u64);
#[allow(dead_code)]
impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Random positions of `variant` with 1..=max_empties empties, from random games. For
/// Reversi 1889 the players' discs in hand are drawn low, so that running out happens.
#[allow(dead_code)]
pub fn random_states(v: Variant, count: usize, max_empties: u32, rng: &mut Lcg) -> Vec<State> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = v.start_state();
        let target = 1 + (rng.next() % u64::from(max_empties)) as u32;
        while s.pos.n_empties() > target && !v.is_game_over(&s) {
            let moves = v.legal_moves(&s);
            if moves == 0 {
                s = s.pass();
                continue;
            }
            let list: Vec<u8> = Bits(moves).collect();
            s = v.play(&s, list[rng.next() as usize % list.len()]);
        }
        if v == Variant::Reversi1889 {
            let n = s.pos.n_empties() as u64;
            s.player_supply = (rng.next() % (n / 2 + 2)) as u8;
            s.opponent_supply = (rng.next() % (n / 2 + 2)) as u8;
        }
        out.push(s);
    }
    out
}
