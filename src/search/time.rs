//! Time management under a game clock: how long to think about one move.
//!
//! The plan spreads the time left (plus the increments still to come) over the moves the
//! engine still has to think about: its moves until about [`SOLVED_AT_EMPTIES`] empties,
//! where the rest of the game is solved quickly, and a little more. A move gets a
//! `target` time (iterative deepening stops starting new iterations past a fraction of it,
//! and may stretch it up to twice in critical positions) and a hard `max`, enforced by
//! stopping the search. A reserve for the GUI's and the pipes' latency is never spent.

use super::parameters::{LATENCY_PER_MOVE, SOLVED_AT_EMPTIES};
use std::time::Duration;

/// A player's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play before the clock is refilled (Canadian byo-yomi), if any.
    pub moves_to_go: Option<u32>,
}

/// How long one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The time to aim for (all of it, iteration after iteration, when it equals `max`).
    pub target: Duration,
    /// The most this move may take.
    pub max: Duration,
}

impl TimeBudget {
    /// A fixed time per move: aim for it and never exceed it.
    pub fn fixed(time: Duration) -> TimeBudget {
        let t = time.saturating_sub(move_latency(time));
        TimeBudget { target: t, max: t }
    }
}

/// The latency kept back from a move given `time` alone: [`LATENCY_PER_MOVE`], but never
/// more than a twentieth of the time, which short moves would otherwise lose to it.
fn move_latency(time: Duration) -> Duration {
    LATENCY_PER_MOVE.min(time / 20)
}

/// The number of moves the time left is planned for, at `n_empties`.
pub fn planned_moves(n_empties: u32) -> u32 {
    n_empties.saturating_sub(SOLVED_AT_EMPTIES) / 2 + 3
}

/// The budget of the next move under `clock` at `n_empties`.
pub fn budget(clock: &GameClock, n_empties: u32) -> TimeBudget {
    // Keep back the latency of every move this clock must still cover (as many as the
    // empties when the opponent keeps passing; under byo-yomi only the period's), and a
    // cushion that grows with the clock.
    let covered = clock
        .moves_to_go
        .map_or(n_empties + 1, |m| m.clamp(1, n_empties + 1));
    // A period of one move (GTP `time_settings 0 T 1`) is a fixed time a move.
    let latency = if clock.moves_to_go == Some(1) {
        move_latency(clock.remaining)
    } else {
        LATENCY_PER_MOVE
    };
    let reserve = latency * covered + clock.remaining / 50;
    let spendable = clock.remaining.saturating_sub(reserve);
    let mut moves = planned_moves(n_empties);
    if let Some(m) = clock.moves_to_go {
        moves = moves.min(m.max(1));
    }
    let future_increments = clock.increment * moves.saturating_sub(1);
    let available = spendable + future_increments;
    let target = (available / moves).min(spendable);
    // A critical move may use several targets, but never more than a third of what is
    // left while many moves remain, and never the reserve.
    let cap = if moves > 3 {
        spendable / 3 + clock.increment / 2
    } else {
        spendable * 4 / 5
    };
    let max = (target * 4).min(cap.max(target)).min(spendable);
    TimeBudget {
        target: target.min(max),
        max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn budget_is_within_the_clock() {
        for remaining in [0.0, 0.01, 0.1, 1.0, 10.0, 60.0, 300.0, 3600.0] {
            for increment in [0.0, 1.0, 10.0] {
                for n in 0..=60 {
                    let clock = GameClock {
                        remaining: secs(remaining),
                        increment: secs(increment),
                        moves_to_go: None,
                    };
                    let b = budget(&clock, n);
                    assert!(b.target <= b.max, "{clock:?} {n} {b:?}");
                    assert!(b.max + LATENCY_PER_MOVE <= clock.remaining.max(LATENCY_PER_MOVE));
                }
            }
        }
    }

    /// Byo-yomi of one move a period (GTP `time_settings 0 T 1`): the period is the
    /// move's, less one move's latency and the cushion, and spent whole.
    #[test]
    fn a_period_of_one_move_is_spent_on_it() {
        for n in [10, 40, 58] {
            let clock = GameClock {
                remaining: secs(1.0),
                increment: Duration::ZERO,
                moves_to_go: Some(1),
            };
            let b = budget(&clock, n);
            assert!(b.target >= secs(0.9), "{n}: {b:?}");
            assert_eq!(b.target, b.max);
            assert!(b.max + LATENCY_PER_MOVE <= clock.remaining);
        }
    }

    /// A short move keeps back a twentieth of its time, not the whole latency: a 0.1 s
    /// move thinks 93 ms (78 ms with the full 20 ms), a fixed one 95 ms.
    #[test]
    fn short_moves_keep_back_a_twentieth() {
        let clock = GameClock {
            remaining: secs(0.1),
            increment: Duration::ZERO,
            moves_to_go: Some(1),
        };
        let b = budget(&clock, 40);
        assert_eq!(b.max, secs(0.1) - secs(0.005) - secs(0.002));
        assert_eq!(TimeBudget::fixed(secs(0.1)).max, secs(0.095));
        assert_eq!(TimeBudget::fixed(secs(2.0)).max, secs(1.98));
    }

    #[test]
    fn opening_moves_get_a_fraction() {
        let clock = GameClock {
            remaining: secs(300.0),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let b = budget(&clock, 56);
        assert!(b.target > secs(5.0) && b.target < secs(20.0), "{b:?}");
        let late = budget(&clock, 20);
        assert!(late.target > b.target);
    }

    /// A whole game's worth of moves where every search overruns its target up to its
    /// maximum and the GUI adds its latency: the clock never runs out, under 1- and 5-minute clocks, with and without
    /// increments.
    #[test]
    fn simulated_games_never_run_out() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut moves_played = 0;
        for base in [60.0, 300.0] {
            for increment in [0.0, 2.0] {
                for _game in 0..200 {
                    let mut remaining = secs(base);
                    let mut n = 60u32;
                    while n > 0 {
                        let clock = GameClock {
                            remaining,
                            increment: secs(increment),
                            moves_to_go: None,
                        };
                        let b = budget(&clock, n);
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        // The search takes between nothing and its maximum, plus the
                        // latency a GUI adds.
                        let used = b.max.mul_f64((rng % 1001) as f64 / 1000.0) + LATENCY_PER_MOVE;
                        assert!(used < remaining, "ran out: {clock:?} {b:?}");
                        remaining = remaining - used + secs(increment);
                        moves_played += 1;
                        // The opponent replies, or passes now and then.
                        n = n.saturating_sub(if rng.is_multiple_of(10) { 1 } else { 2 });
                    }
                }
            }
        }
        assert!(moves_played > 10_000);
    }
}
