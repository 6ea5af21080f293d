//! A checked game record: the variant, the start, every ply (passes included) with its
//! evaluation and time where known, the clocks and names, undo, and the result.
//!
//! Every move that enters a [`Game`] has been checked against the rules, so a game is
//! always legal; readers of file formats build games through it.

use crate::bitboard::{Bits, CENTRE};
use crate::board::Position;
use crate::rules::{State, Variant, in_placement_phase};
use crate::square::{Color, Move, Square};
use std::fmt;

/// One ply of a game and what is known about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRecord {
    pub mv: Move,
    /// Evaluation in discs from the mover's point of view, when the record has one.
    pub eval: Option<f64>,
    /// Seconds the mover spent, when the record has them.
    pub time_s: Option<f64>,
}

impl MoveRecord {
    /// A move without evaluation or time.
    pub const fn bare(mv: Move) -> MoveRecord {
        MoveRecord {
            mv,
            eval: None,
            time_s: None,
        }
    }
}

/// A game clock as GGF writes it: main time, then an increment per move and a grace time.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Clock {
    pub main_s: f64,
    pub increment_s: f64,
    pub grace_s: f64,
}

/// What is known about a game beyond its moves.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GameInfo {
    pub black: Option<String>,
    pub white: Option<String>,
    pub black_rating: Option<String>,
    pub white_rating: Option<String>,
    pub place: Option<String>,
    pub date: Option<String>,
    pub event: Option<String>,
    pub comment: Option<String>,
    /// Clock for both players (GGF `TI`), or per player (`TB`, `TW`).
    pub clock: Option<Clock>,
    pub black_clock: Option<Clock>,
    pub white_clock: Option<Clock>,
    /// The result the record states (black's net discs), which may differ from the one the
    /// moves give when a game was resigned or lost on time.
    pub recorded_result: Option<f64>,
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is occupied")]
    Occupied(Square),
    #[error("{0} flips nothing (no bracket)")]
    NoBracket(Square),
    #[error("{0} is not a free centre square (the first four discs go in the centre)")]
    NotInCentre(Square),
    #[error("{color} has no discs left and must pass")]
    OutOfDiscs { color: Color },
    #[error("{color} has a legal move and cannot pass")]
    PassNotAllowed { color: Color },
    #[error("{color} has no legal move and must pass")]
    MustPass { color: Color },
}

/// A game under way or finished. Always legal.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    variant: Variant,
    start_side: Color,
    moves: Vec<MoveRecord>,
    /// `states[i]` is the state before ply `i`; the last one is the current state.
    states: Vec<State>,
    pub info: GameInfo,
}

impl Game {
    /// A new game of `variant` from its standard start, black to move.
    pub fn new(variant: Variant) -> Game {
        Game::from_start(variant, variant.start_state(), Color::Black)
    }

    /// A new game of `variant` from any start state, with `side` to move.
    pub fn from_start(variant: Variant, start: State, side: Color) -> Game {
        Game {
            variant,
            start_side: side,
            moves: Vec::new(),
            states: vec![start],
            info: GameInfo::default(),
        }
    }

    /// A new game from a position given by its black and white discs.
    pub fn from_discs(variant: Variant, black: u64, white: u64, side: Color) -> Game {
        let pos = match side {
            Color::Black => Position::new(black, white),
            Color::White => Position::new(white, black),
        };
        Game::from_start(variant, State::from_position(pos), side)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The state at the start.
    pub fn start(&self) -> &State {
        &self.states[0]
    }

    /// The colour to move at the start.
    pub fn start_side(&self) -> Color {
        self.start_side
    }

    /// True when the game starts from its variant's standard start with black to move.
    pub fn has_standard_start(&self) -> bool {
        self.start_side == Color::Black && *self.start() == self.variant.start_state()
    }

    /// Every ply, passes included.
    pub fn moves(&self) -> &[MoveRecord] {
        &self.moves
    }

    /// The states before each ply, then the current one.
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// The current state.
    pub fn current(&self) -> &State {
        self.states
            .last()
            .expect("a game always has its start state")
    }

    /// The colour to move after `ply` plies.
    pub fn side_at(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.start_side
        } else {
            self.start_side.opposite()
        }
    }

    /// The colour to move now.
    pub fn side_to_move(&self) -> Color {
        self.side_at(self.moves.len())
    }

    /// Legal moves of the side to move now (a bitboard; 0 means pass or game over).
    pub fn legal_moves(&self) -> u64 {
        self.variant.legal_moves(self.current())
    }

    /// True when neither side can move.
    pub fn is_over(&self) -> bool {
        self.variant.is_game_over(self.current())
    }

    /// Black's and white's discs now.
    pub fn disc_counts(&self) -> (u32, u32) {
        let pos = self.current().pos;
        match self.side_to_move() {
            Color::Black => (pos.player_discs(), pos.opponent_discs()),
            Color::White => (pos.opponent_discs(), pos.player_discs()),
        }
    }

    /// Black's and white's discs as bitboards now.
    pub fn black_white(&self) -> (u64, u64) {
        let pos = self.current().pos;
        match self.side_to_move() {
            Color::Black => (pos.player, pos.opponent),
            Color::White => (pos.opponent, pos.player),
        }
    }

    /// The final score from black's point of view under the variant's scoring, or `None`
    /// while the game goes on.
    pub fn final_score_black(&self) -> Option<i32> {
        if !self.is_over() {
            return None;
        }
        let score = self.variant.final_score(self.current());
        Some(match self.side_to_move() {
            Color::Black => score,
            Color::White => -score,
        })
    }

    /// Checks `mv` for the side to move without playing it.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let s = self.current();
        let color = self.side_to_move();
        let legal = self.legal_moves();
        match mv {
            Move::Pass => {
                if legal != 0 {
                    Err(IllegalMove::PassNotAllowed { color })
                } else if self.is_over() {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(())
                }
            }
            Move::Play(sq) => {
                if legal & sq.bit() != 0 {
                    return Ok(());
                }
                if self.is_over() {
                    Err(IllegalMove::GameOver)
                } else if s.pos.occupied() & sq.bit() != 0 {
                    Err(IllegalMove::Occupied(sq))
                } else if self.variant == Variant::Reversi1889 && s.player_supply == 0 {
                    Err(IllegalMove::OutOfDiscs { color })
                } else if self.variant == Variant::Reversi1889
                    && in_placement_phase(&s.pos)
                    && sq.bit() & CENTRE == 0
                {
                    Err(IllegalMove::NotInCentre(sq))
                } else if legal == 0 {
                    Err(IllegalMove::MustPass { color })
                } else {
                    Err(IllegalMove::NoBracket(sq))
                }
            }
        }
    }

    /// Plays `record` after checking it.
    pub fn play_record(&mut self, record: MoveRecord) -> Result<(), IllegalMove> {
        self.check(record.mv)?;
        let s = *self.current();
        let next = match record.mv {
            Move::Pass => s.pass(),
            Move::Play(sq) => self.variant.play(&s, sq.index()),
        };
        self.moves.push(record);
        self.states.push(next);
        Ok(())
    }

    /// Plays `mv` after checking it.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.play_record(MoveRecord::bare(mv))
    }

    /// Plays `record`, first inserting the pass the record left out when the side to move
    /// has no legal move (as transcripts and WTHOR files do).
    pub fn play_inferring_pass(&mut self, record: MoveRecord) -> Result<(), IllegalMove> {
        if record.mv != Move::Pass && self.legal_moves() == 0 && !self.is_over() {
            // Check the move against the opponent before inserting the pass.
            let mut trial = self.clone();
            trial.play(Move::Pass)?;
            trial.check(record.mv)?;
            *self = trial;
        }
        self.play_record(record)
    }

    /// Plays the pass that the side to move is forced to make, if any: true when it did.
    pub fn pass_if_forced(&mut self) -> bool {
        if self.legal_moves() == 0 && !self.is_over() {
            self.play(Move::Pass).is_ok()
        } else {
            false
        }
    }

    /// Takes back the last ply (a pass is a ply); `None` at the start.
    pub fn undo(&mut self) -> Option<MoveRecord> {
        let record = self.moves.pop()?;
        self.states.pop();
        Some(record)
    }

    /// Takes back the last move that put a disc on the board together with any passes
    /// after it; `None` when there is no such move.
    pub fn undo_move(&mut self) -> Option<MoveRecord> {
        while self.moves.last()?.mv == Move::Pass {
            self.undo();
        }
        self.undo()
    }

    /// The moves without passes, as a transcript (`f5d6c3...`).
    pub fn transcript(&self) -> String {
        self.moves
            .iter()
            .filter_map(|r| r.mv.square())
            .map(|sq| sq.to_string())
            .collect()
    }

    /// Discs flipped by the last ply (empty after a pass or at the start).
    pub fn last_flips(&self) -> u64 {
        let n = self.moves.len();
        match self.moves.last().map(|r| r.mv) {
            Some(Move::Play(sq)) => self.variant.flips(&self.states[n - 1], sq.index()),
            _ => 0,
        }
    }

    /// An ASCII picture of the board: coordinates, `X` black, `O` white, `*` legal moves,
    /// then the side to move, disc counts and legal moves (or the result).
    pub fn render(&self) -> String {
        let (black, white) = self.black_white();
        let legal = self.legal_moves();
        let mut out = String::from("  a b c d e f g h\n");
        for row in 0..8u8 {
            out.push(char::from(b'1' + row));
            for col in 0..8u8 {
                let bit = Square::from_coords(col, row).bit();
                out.push(' ');
                out.push(if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if legal & bit != 0 {
                    '*'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        let (nb, nw) = (black.count_ones(), white.count_ones());
        let empties = 64 - nb - nw;
        out.push_str(&format!(
            "X (black) {nb}  O (white) {nw}  empty {empties}  variant {}\n",
            self.variant
        ));
        if self.variant == Variant::Reversi1889 {
            let s = self.current();
            let (black_hand, white_hand) = match self.side_to_move() {
                Color::Black => (s.player_supply, s.opponent_supply),
                Color::White => (s.opponent_supply, s.player_supply),
            };
            out.push_str(&format!("Discs in hand: X {black_hand}  O {white_hand}\n"));
        }
        if let Some(score) = self.final_score_black() {
            let verdict = match score.cmp(&0) {
                std::cmp::Ordering::Greater => format!("black wins by {score}"),
                std::cmp::Ordering::Less => format!("white wins by {}", -score),
                std::cmp::Ordering::Equal => "draw".to_string(),
            };
            out.push_str(&format!("Game over: {verdict} ({:+} for black)\n", score));
        } else {
            let side = self.side_to_move();
            if legal == 0 {
                out.push_str(&format!(
                    "{} ({}) to move: must pass\n",
                    side,
                    side.obf_char()
                ));
            } else {
                let names: Vec<String> = Bits(legal)
                    .map(|i| Square::from_index(i).to_string())
                    .collect();
                out.push_str(&format!(
                    "{} ({}) to move; legal moves: {}\n",
                    side,
                    side.obf_char(),
                    names.join(" ")
                ));
            }
        }
        out
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(name: &str) -> Move {
        Move::parse(name).unwrap()
    }

    #[test]
    fn play_and_undo() {
        let mut g = Game::new(Variant::Othello);
        g.play(mv("f5")).unwrap();
        g.play(mv("d6")).unwrap();
        assert_eq!(g.side_to_move(), Color::Black);
        assert_eq!(g.disc_counts(), (3, 3));
        assert_eq!(g.transcript(), "f5d6");
        assert_eq!(g.undo().unwrap().mv, mv("d6"));
        assert_eq!(g.disc_counts(), (4, 1));
        assert_eq!(g.undo().unwrap().mv, mv("f5"));
        assert!(g.undo().is_none());
        assert_eq!(*g.current(), Variant::Othello.start_state());
    }

    #[test]
    fn illegal_moves_have_reasons() {
        let mut g = Game::new(Variant::Othello);
        assert_eq!(
            g.play(mv("d4")),
            Err(IllegalMove::Occupied(mv("d4").square().unwrap()))
        );
        assert_eq!(
            g.play(mv("a1")),
            Err(IllegalMove::NoBracket(mv("a1").square().unwrap()))
        );
        assert_eq!(
            g.play(Move::Pass),
            Err(IllegalMove::PassNotAllowed {
                color: Color::Black
            })
        );
        assert_eq!(g.moves().len(), 0);
        let mut r = Game::new(Variant::Reversi1889);
        assert!(matches!(r.play(mv("a1")), Err(IllegalMove::NotInCentre(_))));
        r.play(mv("e5")).unwrap();
    }

    #[test]
    fn shortest_game_ends_with_result() {
        // Black a1, white b1; black plays c1 and white is wiped out.
        let mut g = Game::from_discs(Variant::Othello, 1, 2, Color::Black);
        g.play(mv("c1")).unwrap();
        assert!(g.is_over());
        assert_eq!(g.final_score_black(), Some(64));
        assert!(g.render().contains("black wins by 64"));
        let mut a = Game::from_discs(Variant::Anti, 1, 2, Color::Black);
        a.play(mv("c1")).unwrap();
        assert_eq!(a.final_score_black(), Some(-64));
    }

    #[test]
    fn passes_are_inferred_and_undone() {
        // Play pseudo-random games until one needs a pass, then replay it without passes.
        let mut seed = 12345u64;
        let mut found = 0;
        for _ in 0..2000 {
            let mut g = Game::new(Variant::Othello);
            while !g.is_over() {
                if g.pass_if_forced() {
                    continue;
                }
                let legal: Vec<u8> = Bits(g.legal_moves()).collect();
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = legal[(seed >> 33) as usize % legal.len()];
                g.play(Move::Play(Square::from_index(pick))).unwrap();
            }
            let Some(pass_ply) = g.moves().iter().position(|r| r.mv == Move::Pass) else {
                continue;
            };
            found += 1;
            let mut replay = Game::new(Variant::Othello);
            for r in g.moves().iter().filter(|r| r.mv != Move::Pass) {
                replay.play_inferring_pass(*r).unwrap();
            }
            assert_eq!(replay, g);
            // Undoing the move after the pass takes back the pass too.
            let mut undo = g.clone();
            while undo.moves().len() > pass_ply + 1 {
                undo.undo();
            }
            undo.undo_move();
            assert_eq!(undo.moves().len(), pass_ply - 1);
            // A pass is refused when a move exists, and a move when a pass is forced.
            let mut at_pass = g.clone();
            while at_pass.moves().len() > pass_ply {
                at_pass.undo();
            }
            assert_eq!(at_pass.legal_moves(), 0);
            let occupied = Bits(at_pass.current().pos.empty()).next().unwrap();
            assert!(
                at_pass
                    .play(Move::Play(Square::from_index(occupied)))
                    .is_err()
            );
            if found >= 5 {
                break;
            }
        }
        assert!(found >= 5);
    }
}
