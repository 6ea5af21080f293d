//! A match's statistics: the tally, the Elo difference with its interval, and the
//! sequential probability ratio test that stops a match once it decides.

use crate::game::Game;
use crate::square::Color;
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
    /// The log-likelihood ratio of `t` (normal approximation of the trinomial model) and
    /// the verdict it gives.
    pub fn test(&self, t: &Tally) -> (f64, SprtState) {
        let n = f64::from(t.games());
        if n < 2.0 {
            return (0.0, SprtState::Continue);
        }
        let p = t.score();
        let var = (f64::from(t.wins) * (1.0 - p).powi(2)
            + f64::from(t.draws) * (0.5 - p).powi(2)
            + f64::from(t.losses) * p.powi(2))
            / n;
        if var <= 0.0 {
            return (0.0, SprtState::Continue);
        }
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
}
