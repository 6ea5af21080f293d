//! Matches between engine configurations: openings played twice with colours swapped,
//! every move checked by volte's own rules, and the statistics (score, Elo with its
//! confidence interval) that say whether one configuration is stronger.

use crate::engine::{Engine, EngineOptions, Limits};
use crate::eval::EvalKind;
use crate::formats::transcript;
use crate::game::{Game, MoveRecord};
use crate::rules::Variant;
use crate::square::{Color, Move, Square};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// A built-in engine configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub limits: Limits,
    pub eval: EvalKind,
    pub hash_mb: usize,
    pub threads: usize,
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl FromStr for EngineSpec {
    type Err = String;

    /// `key=value` pairs separated by commas: `depth=8`, `level=12`, `time=0.5` (seconds
    /// per move), `nodes=N`, `selectivity=0..5`, `eval=classic`, `hash=MB`, `threads=N`,
    /// `name=...`. Example: `name=d8,depth=8`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut spec = EngineSpec {
            name: String::new(),
            limits: Limits::default(),
            eval: EvalKind::Classic,
            hash_mb: 64,
            threads: 1,
        };
        let mut limited = false;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not key=value"))?;
            let number = |what: &str| -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{what} must be a whole number, not '{value}'"))
            };
            match key.trim() {
                "name" => spec.name = value.to_string(),
                "depth" => {
                    spec.limits.depth = Some(number("depth")?.clamp(1, 60) as u32);
                    limited = true;
                }
                "level" => {
                    spec.limits.level = Some(number("level")?.clamp(1, 60) as u32);
                    limited = true;
                }
                "time" => {
                    let secs: f64 = value
                        .parse()
                        .ok()
                        .filter(|t: &f64| t.is_finite() && *t > 0.0)
                        .ok_or_else(|| format!("time must be seconds > 0, not '{value}'"))?;
                    spec.limits.move_time = Some(Duration::from_secs_f64(secs));
                    limited = true;
                }
                "nodes" => {
                    spec.limits.nodes = Some(number("nodes")?);
                    limited = true;
                }
                "selectivity" => {
                    spec.limits.selectivity = Some(number("selectivity")?.min(5) as u8)
                }
                "eval" => spec.eval = value.parse()?,
                "hash" => spec.hash_mb = number("hash")?.clamp(1, 1 << 16) as usize,
                "threads" => spec.threads = number("threads")?.clamp(1, 256) as usize,
                other => {
                    return Err(format!(
                        "unknown key '{other}' (known: name, depth, level, time, nodes, \
                         selectivity, eval, hash, threads)"
                    ));
                }
            }
        }
        if !limited {
            return Err(format!(
                "'{s}' sets no depth, level, time or nodes: the engine would not know when to move"
            ));
        }
        if spec.name.is_empty() {
            spec.name = s.replace([',', '='], "");
        }
        Ok(spec)
    }
}

/// Reads openings, one transcript a line (the XOT format); blank lines and `#`/`%`
/// comments are skipped. Each must be legal under `variant`.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Game>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let game = transcript::parse(line, variant).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(game);
    }
    Ok(out)
}

/// `count` distinct random openings of `plies` plies (deterministic for a seed).
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Game> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 100 {
        tries += 1;
        let mut game = Game::new(variant);
        while game.moves().len() < plies && !game.is_over() {
            if game.pass_if_forced() {
                continue;
            }
            let moves: Vec<u8> = crate::bitboard::Bits(game.legal_moves()).collect();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let x = moves[(rng % moves.len() as u64) as usize];
            game.play(Move::Play(Square::from_index(x)))
                .expect("a legal move");
        }
        if !game.is_over() && seen.insert(*game.current()) {
            out.push(game);
        }
    }
    out
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index of the opening.
    pub opening: usize,
    /// True when the first engine had black.
    pub first_is_black: bool,
    /// Final disc difference for the first engine.
    pub first_score: i32,
    pub game: Game,
}

/// Plays the game from `opening` between `black` and `white` to the end; every move is
/// checked and recorded with its evaluation and time.
pub fn play_game(opening: &Game, black: (&Engine, &Limits), white: (&Engine, &Limits)) -> Game {
    let mut game = opening.clone();
    black.0.clear();
    white.0.clear();
    while !game.is_over() {
        if game.pass_if_forced() {
            continue;
        }
        let (engine, limits) = if game.side_to_move() == Color::Black {
            black
        } else {
            white
        };
        let start = Instant::now();
        let result = engine.think_game(&game, limits, &mut |_| {});
        let time = start.elapsed().as_secs_f64();
        let record = match result {
            Some(it) if game.check(it.best_move).is_ok() => MoveRecord {
                mv: it.best_move,
                eval: Some(f64::from(it.score)),
                time_s: Some(time),
            },
            // The engine always answers with a legal move; should it not, the first legal
            // move keeps the game going (and the test suites would catch it).
            _ => MoveRecord::bare(Move::Play(Square::from_index(
                game.legal_moves().trailing_zeros() as u8,
            ))),
        };
        game.play_record(record).expect("checked move");
    }
    game
}

/// Plays every opening twice, colours swapped, between `first` and `second`, on
/// `concurrency` threads (each with its own pair of engines); `on_game` sees every game as
/// it ends. Games come back in opening order.
pub fn run_match(
    first: &EngineSpec,
    second: &EngineSpec,
    openings: &[Game],
    concurrency: usize,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> Vec<MatchGame> {
    use rayon::prelude::*;
    let jobs: Vec<(usize, bool)> = (0..openings.len())
        .flat_map(|i| [(i, true), (i, false)])
        .collect();
    let play = || {
        jobs.par_iter()
            .map_init(
                || (build_engine(first), build_engine(second)),
                |(a, b), &(opening, first_is_black)| {
                    let game = if first_is_black {
                        play_game(&openings[opening], (a, &first.limits), (b, &second.limits))
                    } else {
                        play_game(&openings[opening], (b, &second.limits), (a, &first.limits))
                    };
                    let first_color = if first_is_black {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let g = MatchGame {
                        opening,
                        first_is_black,
                        first_score: score_for(&game, first_color),
                        game,
                    };
                    on_game(&g);
                    g
                },
            )
            .collect::<Vec<_>>()
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency.max(1))
        .build()
    {
        Ok(pool) => pool.install(play),
        Err(_) => play(),
    }
}

/// Builds the engine of a spec.
pub fn build_engine(spec: &EngineSpec) -> Engine {
    Engine::new(EngineOptions {
        hash_mb: spec.hash_mb,
        threads: spec.threads,
        eval: spec.eval,
        ..EngineOptions::default()
    })
}

/// Wins, draws and losses of the first engine, and its disc differences.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub disc_sum: i64,
}

impl Tally {
    pub fn add(&mut self, first_score: i32) {
        match first_score.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.disc_sum += i64::from(first_score);
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score of the first engine, from 0 to 1.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    pub fn mean_discs(&self) -> f64 {
        self.disc_sum as f64 / f64::from(self.games().max(1))
    }

    /// Elo difference of the first engine and its 95% confidence interval (from the
    /// spread of the game results), or `None` with no games.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let p = self.score();
        let var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let se = (var / n).sqrt();
        Some((
            elo_of_score(p),
            elo_of_score(p - 1.96 * se),
            elo_of_score(p + 1.96 * se),
        ))
    }
}

/// The Elo difference that predicts score `p` (infinite at 0 and 1, clamped to ±2000).
pub fn elo_of_score(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    (-400.0 * (1.0 / p - 1.0).log10()).clamp(-2000.0, 2000.0)
}

/// Final disc difference of `game` for `color` under its variant's rule.
pub fn score_for(game: &Game, color: Color) -> i32 {
    let black = game.final_score_black().unwrap_or(0);
    if color == Color::Black { black } else { -black }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_matches_known_values() {
        assert!((elo_of_score(0.5)).abs() < 1e-9);
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_of_score(0.25) + 190.85).abs() < 0.01);
        assert!((elo_of_score(0.9) - 381.70).abs() < 0.01);
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            disc_sum: 400,
        };
        let (elo, lo, hi) = t.elo().unwrap();
        assert!((t.score() - 0.7).abs() < 1e-12);
        assert!((elo - 147.19).abs() < 0.01, "{elo}");
        // Per-game variance (60 * 0.3² + 20 * 0.2² + 20 * 0.7²) / 100 = 0.16, so the
        // standard error of the score is 0.04.
        assert!((lo - elo_of_score(0.7 - 1.96 * 0.04)).abs() < 1e-9, "{lo}");
        assert!((hi - elo_of_score(0.7 + 1.96 * 0.04)).abs() < 1e-9, "{hi}");
        assert!(lo < elo && elo < hi && hi - lo > 100.0 && hi - lo < 250.0);
    }

    #[test]
    fn specs_parse_and_reject() {
        let s: EngineSpec = "name=d8,depth=8".parse().unwrap();
        assert_eq!(s.name, "d8");
        assert_eq!(s.limits.depth, Some(8));
        let t: EngineSpec = "time=0.25,threads=2".parse().unwrap();
        assert_eq!(t.limits.move_time, Some(Duration::from_millis(250)));
        assert_eq!(t.threads, 2);
        assert!("depth=x".parse::<EngineSpec>().is_err());
        assert!("eval=magic,depth=2".parse::<EngineSpec>().is_err());
        assert!("colour=red,depth=2".parse::<EngineSpec>().is_err());
        assert!("hash=16".parse::<EngineSpec>().is_err());
        assert!("time=-1".parse::<EngineSpec>().is_err());
    }

    #[test]
    fn a_shallow_game_is_legal_and_scored() {
        let openings = random_openings(Variant::Othello, 3, 6, 1);
        assert_eq!(openings.len(), 3);
        let spec: EngineSpec = "depth=1,hash=1".parse().unwrap();
        let e = build_engine(&spec);
        let game = play_game(&openings[0], (&e, &spec.limits), (&e, &spec.limits));
        assert!(game.is_over());
        assert_eq!(
            score_for(&game, Color::Black),
            -score_for(&game, Color::White)
        );
        // 1889 openings start from the empty board.
        let o1889 = random_openings(Variant::Reversi1889, 2, 8, 2);
        let g = play_game(&o1889[1], (&e, &spec.limits), (&e, &spec.limits));
        assert!(g.is_over() && g.variant() == Variant::Reversi1889);
    }
}
