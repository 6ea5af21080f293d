//! A match's statistics: the tally, the Elo difference with its interval, and the
//! sequential probability ratio test that stops a match once it decides.
//!
//! A match plays every opening twice, colours swapped, and the two games of a pair are not
//! independent: an opening that favours one colour tends to give each engine one win. So
//! once enough pairs are complete, the spread is measured over the pairs' scores (the
//! pentanomial model, as engine-testing frameworks do for paired openings) instead of over
//! the games as if independent (the trinomial model), which overstates it where most pairs
//! are even, as under a clock (the project's 10 s and 30 s clock matches: intervals a sixth
//! to a third narrower).

use crate::game::Game;
use crate::square::Color;
use std::collections::HashMap;
use std::str::FromStr;

/// The time an engine took for its moves in a match (passes and the openings' moves left
/// out).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeUse {
    pub moves: u64,
    pub total_s: f64,
    pub longest_s: f64,
}

impl TimeUse {
    pub fn mean_s(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_s / self.moves as f64
        }
    }

    /// Adds the timed moves `color` played in `game` from ply `from` on.
    pub fn add_game(&mut self, game: &Game, color: Color, from: usize) {
        for (ply, m) in game.moves().iter().enumerate().skip(from) {
            if game.side_at(ply) != color || m.mv == crate::square::Move::Pass {
                continue;
            }
            if let Some(t) = m.time_s {
                self.moves += 1;
                self.total_s += t;
                self.longest_s = self.longest_s.max(t);
            }
        }
    }
}

/// How a match ends early: SPRT bounds on the Elo difference of the first engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl FromStr for Sprt {
    type Err = String;
    /// `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("'{x}' is not a number"))
            })
            .collect::<Result<_, _>>()?;
        match v[..] {
            [elo0, elo1, alpha, beta]
                if elo0 < elo1 && alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5 =>
            {
                Ok(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                })
            }
            _ => Err(
                "SPRT needs elo0,elo1,alpha,beta with elo0 < elo1 and 0 < alpha, beta < 0.5"
                    .to_string(),
            ),
        }
    }
}

/// The SPRT's verdict so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    Continue,
    /// Elo1 accepted (the first engine is better by elo1).
    AcceptH1,
    /// Elo0 accepted.
    AcceptH0,
}

/// Games before the SPRT may decide: its normal approximation needs the variance of the
/// results measured on enough of them.
pub const SPRT_MIN_GAMES: u32 = 40;

impl Sprt {
    /// The log-likelihood ratio of `t` (normal approximation: of the pentanomial model over
    /// the complete opening pairs once there are [`MIN_PAIRS`], else of the trinomial model
    /// over the games) and the verdict it gives.
    pub fn test(&self, t: &Tally) -> (f64, SprtState) {
        let Some(Spread {
            n, score: p, var, ..
        }) = t.spread()
        else {
            return (0.0, SprtState::Continue);
        };
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        let llr = n * (s1 - s0) * (2.0 * p - s0 - s1) / (2.0 * var);
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        // The variance is estimated from the games themselves: after a handful of equal
        // results it is near zero and the ratio huge (8 wins and a draw once "decided").
        let state = if t.games() < SPRT_MIN_GAMES {
            SprtState::Continue
        } else if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        };
        (llr, state)
    }
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Complete opening pairs from which the spread of the results is measured over the pairs
/// (fewer: over the games).
pub const MIN_PAIRS: u32 = 10;

/// Wins, draws and losses of the first engine, its disc differences, and the results of
/// the complete opening pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub disc_sum: i64,
    /// Complete pairs by the first engine's points in them, in half points: `pairs[0]`
    /// both games lost, ..., `pairs[2]` one point (a win and a loss, or two draws),
    /// `pairs[4]` both won.
    pub pairs: [u32; 5],
}

/// The score and the variance of one unit's score (a game's, or a pair's mean) that the
/// interval and the SPRT use, and the number of units.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spread {
    n: f64,
    score: f64,
    var: f64,
    /// Whether the units are opening pairs.
    pairs: bool,
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

    /// Counts a complete opening pair whose games the first engine scored `a` and `b`
    /// (disc differences; the games themselves are counted by [`Tally::add`]).
    pub fn add_pair(&mut self, a: i32, b: i32) {
        let half_points = |x: i32| (x.signum() + 1) as usize;
        self.pairs[half_points(a) + half_points(b)] += 1;
    }

    /// Complete opening pairs.
    pub fn complete_pairs(&self) -> u32 {
        self.pairs.iter().sum()
    }

    /// The spread the interval and the SPRT use: over the complete pairs when there are
    /// [`MIN_PAIRS`] of them and their scores differ, else over the games (`None` with
    /// fewer than two games or none that differ).
    fn spread(&self) -> Option<Spread> {
        let pairs = self.complete_pairs();
        if pairs >= MIN_PAIRS {
            let n = f64::from(pairs);
            let mean = |f: &dyn Fn(f64) -> f64| {
                self.pairs
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| f64::from(c) * f(k as f64 / 4.0))
                    .sum::<f64>()
                    / n
            };
            let score = mean(&|x| x);
            let var = mean(&|x| (x - score).powi(2));
            if var > 0.0 {
                return Some(Spread {
                    n,
                    score,
                    var,
                    pairs: true,
                });
            }
        }
        let n = f64::from(self.games());
        if n < 2.0 {
            return None;
        }
        let p = self.score();
        let var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        (var > 0.0).then_some(Spread {
            n,
            score: p,
            var,
            pairs: false,
        })
    }

    /// Whether [`Tally::elo`]'s interval and the SPRT measure the spread over the opening
    /// pairs.
    pub fn by_pairs(&self) -> bool {
        self.spread().is_some_and(|s| s.pairs)
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

    /// Elo difference of the first engine (from all its games) and its 95% confidence
    /// interval (from the spread of the opening pairs' results, or of the games' while
    /// there are few pairs: [`Tally::by_pairs`]), or `None` with no games.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        if self.games() == 0 {
            return None;
        }
        let p = self.score();
        let se = self.spread().map_or(0.0, |s| (s.var / s.n).sqrt());
        Some((
            elo_of_score(p),
            elo_of_score(p - 1.96 * se),
            elo_of_score(p + 1.96 * se),
        ))
    }
}

/// Pairs up a match's games as they end, in any order: the first game of an opening
/// waits for the second, and the pair then counts in the tally.
#[derive(Clone, Debug, Default)]
pub struct Pairing {
    waiting: HashMap<usize, i32>,
}

impl Pairing {
    /// Counts the game of `opening` that the first engine scored `first_score` in `t`,
    /// and the pair when it is the opening's second game.
    pub fn add(&mut self, t: &mut Tally, opening: usize, first_score: i32) {
        t.add(first_score);
        match self.waiting.remove(&opening) {
            Some(other) => t.add_pair(other, first_score),
            None => {
                self.waiting.insert(opening, first_score);
            }
        }
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
    fn time_use_counts_one_sides_timed_moves_after_the_opening() {
        let mut game = Game::new(crate::rules::Variant::Othello);
        for (i, m) in ["f5", "d6", "c3", "d3", "c4"].iter().enumerate() {
            game.play_record(crate::game::MoveRecord {
                mv: crate::square::Move::parse(m).unwrap(),
                eval: None,
                time_s: (i >= 1).then_some(i as f64),
            })
            .unwrap();
        }
        let mut black = TimeUse::default();
        black.add_game(&game, Color::Black, 1);
        // Black's c3 (2 s) and c4 (4 s); f5 is the opening's.
        assert_eq!(black.moves, 2);
        assert_eq!(black.mean_s(), 3.0);
        assert_eq!(black.longest_s, 4.0);
        let mut white = TimeUse::default();
        white.add_game(&game, Color::White, 1);
        assert_eq!((white.moves, white.total_s, white.longest_s), (2, 4.0, 3.0));
    }

    /// Games of `pairs` opening pairs, each given as the first engine's two disc
    /// differences, counted as a match counts them (the second games arriving later).
    fn tally_of(pairs: &[(i32, i32, u32)]) -> Tally {
        let mut t = Tally::default();
        let mut pairing = Pairing::default();
        let mut opening = 0;
        let mut seconds = Vec::new();
        for &(a, b, count) in pairs {
            for _ in 0..count {
                pairing.add(&mut t, opening, a);
                seconds.push((opening, b));
                opening += 1;
            }
        }
        for (o, b) in seconds {
            pairing.add(&mut t, o, b);
        }
        t
    }

    #[test]
    fn pairs_count_each_openings_two_games_in_any_order() {
        // Lost both, a win and a loss, two draws, a win and a draw, won both.
        let t = tally_of(&[(-2, -4, 1), (6, -2, 2), (0, 0, 1), (4, 0, 3), (8, 2, 1)]);
        assert_eq!(t.pairs, [1, 0, 3, 3, 1]);
        assert_eq!((t.wins, t.draws, t.losses), (7, 5, 4));
        assert_eq!(t.complete_pairs(), 8);
        // Too few pairs: the spread is the games'.
        assert!(!t.by_pairs());
        let mut half = Tally::default();
        let mut pairing = Pairing::default();
        pairing.add(&mut half, 0, 2);
        pairing.add(&mut half, 1, -2);
        assert_eq!((half.games(), half.complete_pairs()), (2, 0));
        pairing.add(&mut half, 0, -2);
        assert_eq!(half.pairs, [0, 0, 1, 0, 0]);
    }

    /// The sixteenth session's 10 s clock match (200 games): the interval over the 100
    /// pairs is narrower than over the games, as the pairs' scores spread less than
    /// independent games would.
    #[test]
    fn the_interval_comes_from_the_pairs_when_there_are_enough() {
        let t = tally_of(&[
            (-1, -1, 11),
            (-1, 0, 17),
            (1, -1, 38),
            (0, 0, 13),
            (1, 0, 13),
            (1, 1, 8),
        ]);
        assert_eq!(t.pairs, [11, 17, 51, 13, 8]);
        assert_eq!((t.wins, t.draws, t.losses), (67, 56, 77));
        assert!(t.by_pairs());
        let (elo, lo, hi) = t.elo().unwrap();
        let p = t.score();
        assert!((p - 0.475).abs() < 1e-12 && (elo - elo_of_score(0.475)).abs() < 1e-9);
        // Pair scores 0, 1/4, ..., 1 around their mean 0.475: variance 0.065625 over 100.
        let se = (0.065625_f64 / 100.0).sqrt();
        assert!((lo - elo_of_score(p - 1.96 * se)).abs() < 1e-9, "{lo}");
        assert!((hi - elo_of_score(p + 1.96 * se)).abs() < 1e-9, "{hi}");
        assert_eq!((lo.round(), hi.round()), (-53.0, 18.0));
        // The games as if independent: (67 * 0.525² + 56 * 0.025² + 77 * 0.475²) / 200 a
        // game, an interval up to +23.
        let games_se =
            ((67.0 * 0.275625 + 56.0 * 0.000625 + 77.0 * 0.225625) / 200.0_f64 / 200.0).sqrt();
        assert!(hi < elo_of_score(p + 1.96 * games_se) - 5.0, "{hi}");
        // Every pair even: no spread over the pairs, so the games' is used.
        let even = tally_of(&[(2, -2, 20)]);
        assert!(!even.by_pairs());
        let (_, lo, hi) = even.elo().unwrap();
        assert!(lo < -50.0 && hi > 50.0, "{lo} {hi}");
    }

    /// Pairs that are even but for some wins: the pairs decide where the games, counted
    /// as independent, do not yet.
    #[test]
    fn the_sprt_reads_the_pairs() {
        let sprt: Sprt = "0,25,0.05,0.05".parse().unwrap();
        let t = tally_of(&[(2, 0, 20), (2, -2, 80)]);
        assert_eq!((t.wins, t.draws, t.losses), (100, 20, 80));
        let (llr, state) = sprt.test(&t);
        assert_eq!(state, SprtState::AcceptH1, "{llr}");
        let games_only = Tally { pairs: [0; 5], ..t };
        let (llr, state) = sprt.test(&games_only);
        assert_eq!(state, SprtState::Continue, "{llr}");
        assert!(llr > 0.5 && llr < 2.0, "{llr}");
    }
}
