//! Self-play games for training (`volte selfplay`): a random opening, then volte against
//! itself at a shallow level, and perfect play by the exact solver from a number of
//! empties on, so the final result is the exact value of the game from there. Games are
//! written as GGF, one a line, with the score of every searched or solved move, which
//! `volte train` reads.
//!
//! Game `i` depends only on the seed and `i`, so an interrupted run resumes by counting
//! the games already in the file (a game cut short by a kill is cut off). The output is GGF,
//! or volte's compact `.vgames` records ([`crate::formats::vgames`]); a shard (`--shard K/N`)
//! plays its contiguous part of the games, so that the shards' GGF files, concatenated in
//! order, are the whole run's file byte for byte.

use crate::engine::{Engine, EngineOptions, Limits, SolveOptions};
use crate::eval::Evaluator;
use crate::formats::ggf;
use crate::formats::vgames;
use crate::game::{Game, MoveRecord};
use crate::jobs::shard::Shard;
use crate::jobs::train::Progress;
use crate::rules::Variant;
use crate::square::{Move, Square};
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;

/// How to play the games.
#[derive(Clone, Debug)]
pub struct SelfplayOptions {
    pub variant: Variant,
    /// Number of games the file should hold.
    pub games: usize,
    /// Search limits of the midgame moves.
    pub limits: Limits,
    /// Plies played at random at the start.
    pub random_plies: RandomPlies,
    /// Probability of a random move at each later midgame move.
    pub epsilon: f64,
    /// From this many empties on, both sides play perfectly (exact solver).
    pub solve_empties: u32,
    pub seed: u64,
    pub eval: Evaluator,
    /// The part of the games this run plays.
    pub shard: Shard,
    /// What plays the games (evaluation and level...), recorded in the output: a resumed
    /// file written with other options is refused.
    pub description: String,
}

/// How many plies a game opens with at random: a fixed number, or one drawn for each game
/// uniformly from a range (`10-30`), so the data covers positions of every age off the
/// players' usual paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomPlies {
    pub min: usize,
    pub max: usize,
}

impl RandomPlies {
    pub fn fixed(n: usize) -> RandomPlies {
        RandomPlies { min: n, max: n }
    }
}

impl std::fmt::Display for RandomPlies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

impl std::str::FromStr for RandomPlies {
    type Err = String;
    fn from_str(s: &str) -> Result<RandomPlies, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n <= 60)
                .ok_or_else(|| format!("'{t}' is not a number of plies from 0 to 60"))
        };
        let (min, max) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if min > max {
            return Err(format!("the range {min}-{max} is empty"));
        }
        Ok(RandomPlies { min, max })
    }
}

struct Rng(u64);

impl Rng {
    fn new(seed: u64, index: u64) -> Rng {
        let mut x = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^= x >> 31;
        Rng(x.wrapping_mul(0xBF58_476D_1CE4_E5B9) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

/// Plays game number `index`.
pub fn play_game(engine: &Engine, solver: &Engine, options: &SelfplayOptions, index: u64) -> Game {
    let mut rng = Rng::new(options.seed, index);
    // A fixed count draws nothing, so the games of a fixed count stay those of before.
    let random_plies = match options.random_plies {
        RandomPlies { min, max } if min == max => min,
        RandomPlies { min, max } => min + rng.below(max - min + 1),
    };
    let mut game = Game::new(options.variant);
    while !game.is_over() {
        if game.pass_if_forced() {
            continue;
        }
        let state = *game.current();
        let random = game.moves().len() < random_plies
            || (state.pos.n_empties() > options.solve_empties && rng.chance(options.epsilon));
        // Searched and solved moves keep their score (discs, the mover's point of view),
        // which `volte train --search-weight` can learn from.
        let record = if random {
            let moves: Vec<u8> = crate::bitboard::Bits(game.legal_moves()).collect();
            MoveRecord::bare(Move::Play(Square::from_index(
                moves[rng.below(moves.len())],
            )))
        } else if state.pos.n_empties() <= options.solve_empties {
            let r = solver.solve(options.variant, &state, &SolveOptions::default());
            MoveRecord {
                mv: r.best_move.expect("the game goes on"),
                eval: Some(f64::from(r.score)),
                time_s: None,
            }
        } else {
            let it = engine
                .think(options.variant, &state, &options.limits, &mut |_| {})
                .expect("the game goes on");
            MoveRecord {
                mv: it.best_move,
                eval: Some(f64::from(it.score)),
                time_s: None,
            }
        };
        game.play_record(record)
            .expect("the engine plays legal moves");
    }
    game.info.black = Some("volte".into());
    game.info.white = Some("volte".into());
    game.info.place = Some("volte selfplay".into());
    game
}

/// What a run did.
#[derive(Clone, Copy, Debug)]
pub struct SelfplayReport {
    /// Games already in the file.
    pub resumed: usize,
    pub played: usize,
    /// Bytes of a game or block cut short by a killed run that were cut off.
    pub cut_bytes: usize,
}

/// Where the games go: a GGF file (one game a line, its options recorded beside it in
/// `FILE.run`) or a `.vgames` file (its options in its header).
enum Sink {
    Ggf(std::fs::File),
    Vgames(vgames::Writer),
}

fn is_vgames(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("vgames"))
}

/// Opens `output` for appending: the games already there, and bytes of a torn last game
/// cut off. A file written with other options is refused and left as it is.
fn open_sink(options: &SelfplayOptions, output: &Path) -> Result<(Sink, usize, usize)> {
    if is_vgames(output) {
        let header = vgames::Header {
            variant: options.variant,
            description: options.description.clone(),
        };
        let w = vgames::Writer::open(output, &header)?;
        let (games, cut) = (w.games, w.cut_bytes);
        return Ok((Sink::Vgames(w), games, cut));
    }
    let out = crate::jobs::shard::open_line_output(output, &options.description)?;
    let games = out
        .lines
        .iter()
        .filter(|l| l.trim_start().starts_with("(;"))
        .count();
    Ok((Sink::Ggf(out.file), games, out.cut_bytes))
}

/// Plays games until `output` holds the shard's part of `options.games`, appending in
/// order, 256 at a time (a `.vgames` block each).
pub fn run(
    options: &SelfplayOptions,
    output: &Path,
    progress: &dyn Progress,
) -> Result<SelfplayReport> {
    let range = options.shard.range(options.games);
    let (mut sink, resumed, cut_bytes) = open_sink(options, output)?;
    if resumed > range.len() {
        anyhow::bail!(
            "{} already holds {resumed} games, more than the {} asked for: not appended to",
            output.display(),
            range.len()
        );
    }
    let todo: Vec<u64> = ((range.start + resumed) as u64..range.end as u64).collect();
    progress.start("self-play games", todo.len() as u64);
    for chunk in todo.chunks(256) {
        let games: Vec<Game> = chunk
            .par_iter()
            .map_init(
                || {
                    (
                        Engine::new(EngineOptions {
                            hash_mb: 16,
                            eval: options.eval.clone(),
                            ..EngineOptions::default()
                        }),
                        Engine::with_hash(16),
                    )
                },
                |(engine, solver), &i| {
                    let g = play_game(engine, solver, options, i);
                    progress.tick(1);
                    g
                },
            )
            .collect();
        match &mut sink {
            Sink::Vgames(w) => w
                .append(&games)
                .with_context(|| format!("cannot write {}", output.display()))?,
            Sink::Ggf(file) => {
                let mut text = String::new();
                for g in &games {
                    text.push_str(ggf::write(g).trim_end());
                    text.push('\n');
                }
                file.write_all(text.as_bytes())
                    .and_then(|()| file.sync_data())
                    .with_context(|| format!("cannot write {}", output.display()))?;
            }
        }
    }
    progress.finish();
    if !is_vgames(output) {
        crate::jobs::shard::mark_complete(output, range.len())?;
    }
    Ok(SelfplayReport {
        resumed,
        played: todo.len(),
        cut_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_finished_reproducible_and_perfect_at_the_end() {
        let options = SelfplayOptions {
            variant: Variant::Anti,
            games: 2,
            limits: Limits::depth(2),
            random_plies: RandomPlies::fixed(6),
            epsilon: 0.1,
            solve_empties: 8,
            seed: 7,
            eval: Evaluator::default(),
            shard: Shard::WHOLE,
            description: "test".into(),
        };
        let engine = Engine::new(EngineOptions {
            hash_mb: 4,
            ..EngineOptions::default()
        });
        let solver = Engine::with_hash(4);
        let a = play_game(&engine, &solver, &options, 3);
        let b = play_game(&engine, &solver, &options, 3);
        assert!(a.is_over());
        assert_eq!(a.moves(), b.moves());
        assert_ne!(a.moves(), play_game(&engine, &solver, &options, 4).moves());
        // From 8 empties on, the result equals the exact score of that position.
        let (ply, state) = a
            .states()
            .iter()
            .enumerate()
            .find(|(_, s)| s.pos.n_empties() <= 8)
            .unwrap();
        let exact = solver
            .solve(Variant::Anti, state, &SolveOptions::default())
            .score;
        let black = a.final_score_black().unwrap();
        let side_black = a.side_at(ply) == crate::square::Color::Black;
        assert_eq!(if side_black { exact } else { -exact }, black);
        // Random plies carry no score; solved moves carry the exact score of their position.
        assert!(a.moves()[..6].iter().all(|m| m.eval.is_none()));
        if a.moves()[ply].mv != Move::Pass {
            assert_eq!(a.moves()[ply].eval, Some(f64::from(exact)));
        }
        assert!(a.moves()[6..].iter().any(|m| m.eval.is_some()));
    }
}
