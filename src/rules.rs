//! The variants: Othello, Anti and Reversi 1889 — their start positions, move rules, game
//! end and scoring.
//!
//! Hot code is generic over a [`Rules`] type, so the standard game pays nothing for the
//! variants; code that handles any variant at run time dispatches on [`Variant`] once.

use crate::bitboard::CENTRE;
use crate::board::Position;
use crate::stability::{count_stable, stable_at_least};
use std::fmt;
use std::str::FromStr;

/// Discs each player owns in Reversi 1889.
pub const DISCS_PER_PLAYER_1889: u8 = 32;

/// A game state: the position plus, for Reversi 1889, how many discs each side still has
/// in hand. Othello and Anti ignore the supply.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    pub pos: Position,
    /// Discs the side to move still has in hand (Reversi 1889 only).
    pub player_supply: u8,
    /// Discs the other side still has in hand (Reversi 1889 only).
    pub opponent_supply: u8,
}

impl State {
    /// A state whose supply is inferred from the board, assuming no pass has happened yet:
    /// the side that moved last placed the rounded-up half of the discs on the board.
    pub fn from_position(pos: Position) -> State {
        let n = pos.occupied().count_ones() as u8;
        State {
            pos,
            player_supply: DISCS_PER_PLAYER_1889.saturating_sub(n / 2),
            opponent_supply: DISCS_PER_PLAYER_1889.saturating_sub(n.div_ceil(2)),
        }
    }

    /// The same state with the sides swapped.
    #[inline]
    pub const fn pass(&self) -> State {
        State {
            pos: self.pos.pass(),
            player_supply: self.opponent_supply,
            opponent_supply: self.player_supply,
        }
    }
}

/// The rules of one variant, as a type: generic code over `R: Rules` is compiled once per
/// variant and has no run-time dispatch.
pub trait Rules: Copy + Send + Sync + 'static {
    /// The variant these rules implement.
    const VARIANT: Variant;
    /// The state the rules need: a bare [`Position`] or a [`State`] with disc supply.
    type S: Copy + Send + Sync + PartialEq + fmt::Debug;

    /// The state of `state` as a plain position.
    fn position(s: &Self::S) -> Position;
    /// Builds the rules' state from a full [`State`].
    fn from_state(state: &State) -> Self::S;
    /// The legal moves of the side to move.
    fn legal_moves(s: &Self::S) -> u64;
    /// The state after the side to move plays `square`, a legal move.
    fn play(s: &Self::S, square: u8) -> Self::S;
    /// The state after the side to move passes.
    fn pass(s: &Self::S) -> Self::S;
    /// The final score for the side to move of a finished game.
    fn final_score(s: &Self::S) -> i32;

    /// The state after the side to move plays on the empty `square`, or `None` when that
    /// move is illegal.
    fn try_play(s: &Self::S, square: u8) -> Option<Self::S>;

    /// The exact final score for the side to move when `square` is the only empty square.
    fn last_empty_score(s: &Self::S, square: u8) -> i32 {
        if let Some(next) = Self::try_play(s, square) {
            return -Self::final_score(&next);
        }
        let passed = Self::pass(s);
        match Self::try_play(&passed, square) {
            Some(next) => Self::final_score(&next),
            None => Self::final_score(s),
        }
    }

    /// The discs whose stability bounds the score of the side to move from above (those
    /// it can never turn to its advantage), and the other side's discs.
    fn stability_sides(s: &Self::S) -> (u64, u64);

    /// An upper bound on the final score for the side to move at or below `alpha`, from
    /// the stable discs that bound it, when the bound finds one (a fail-low cut-off).
    #[inline]
    fn stability_cut(s: &Self::S, alpha: i32) -> Option<i32> {
        let (against, other) = Self::stability_sides(s);
        // 64 - 2 * stable <= alpha needs stable >= (64 - alpha) / 2, rounded up.
        let needed = ((64 - alpha).max(0) + 1) / 2;
        if needed > 64 {
            return None;
        }
        stable_at_least(against, other, needed as u32).map(|n| 64 - 2 * n as i32)
    }

    /// An upper bound on the final score for the side to move from all the stable discs
    /// the bound finds (dearer than [`Rules::stability_cut`]).
    #[inline]
    fn stability_upper_bound(s: &Self::S) -> i32 {
        let (against, other) = Self::stability_sides(s);
        64 - 2 * count_stable(against, other) as i32
    }

    /// A word mixed into the position's hash for state beyond the discs.
    fn hash_extra(_s: &Self::S) -> u64 {
        0
    }
}

/// Exact Othello score (WOC) for the side to move of `pos` when `square` is its only empty
/// square: the side to move plays it if it can, else the opponent, else nobody.
#[inline(always)]
fn othello_last_empty_score(pos: &Position, square: u8) -> i32 {
    debug_assert_eq!(pos.occupied(), !(1u64 << square));
    let n_player = pos.player_discs() as i32;
    let flipped = crate::board::last_flip_count(pos.player, square) as i32;
    if flipped > 0 {
        return 2 * (n_player + flipped + 1) - 64;
    }
    let flipped = crate::board::last_flip_count(pos.opponent, square) as i32;
    if flipped > 0 {
        return 2 * (n_player - flipped) - 64;
    }
    // Nobody can play: 63 discs, the empty square goes to the winner.
    let diff = 2 * n_player - 63;
    if diff > 0 { diff + 1 } else { diff - 1 }
}

#[inline]
fn try_play_position(pos: &Position, square: u8) -> Option<Position> {
    // No test for an opponent disc next to the square first: since the flips got cheaper,
    // the test and its branch cost more than the flips it spares (FFO 41-42 9.401 G
    // instructions without it against 9.441 G; FFO 48-52 on one thread side by side,
    // four rounds, 343.0 s against 350.2 s).
    let flipped = pos.flips(square);
    (flipped != 0).then(|| pos.play_flips(square, flipped))
}

/// Standard Othello, WOC scoring.
#[derive(Clone, Copy, Debug, Default)]
pub struct Othello;
/// Anti Othello: fewest discs wins.
#[derive(Clone, Copy, Debug, Default)]
pub struct Anti;
/// Reversi as published in 1889.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reversi1889;

/// Disc difference for `player` with the empty squares given to the winner (WOC IV.8).
#[inline]
pub const fn woc_score(player_discs: u32, opponent_discs: u32) -> i32 {
    let diff = player_discs as i32 - opponent_discs as i32;
    let empties = 64 - player_discs as i32 - opponent_discs as i32;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// The methods that Othello and Anti share: both play the Othello move rule on a bare
/// [`Position`] and differ only in scoring.
macro_rules! position_rules {
    () => {
        type S = Position;
        #[inline(always)]
        fn position(s: &Position) -> Position {
            *s
        }
        #[inline(always)]
        fn from_state(state: &State) -> Position {
            state.pos
        }
        #[inline(always)]
        fn legal_moves(s: &Position) -> u64 {
            s.legal_moves()
        }
        #[inline(always)]
        fn play(s: &Position, square: u8) -> Position {
            s.play(square)
        }
        #[inline(always)]
        fn pass(s: &Position) -> Position {
            s.pass()
        }
        #[inline(always)]
        fn try_play(s: &Position, square: u8) -> Option<Position> {
            try_play_position(s, square)
        }
    };
}

impl Rules for Othello {
    const VARIANT: Variant = Variant::Othello;
    position_rules!();
    #[inline]
    fn final_score(s: &Position) -> i32 {
        woc_score(s.player_discs(), s.opponent_discs())
    }
    #[inline(always)]
    fn last_empty_score(s: &Position, square: u8) -> i32 {
        othello_last_empty_score(s, square)
    }
    #[inline]
    fn stability_sides(s: &Position) -> (u64, u64) {
        (s.opponent, s.player)
    }
}

impl Rules for Anti {
    const VARIANT: Variant = Variant::Anti;
    position_rules!();
    #[inline]
    fn final_score(s: &Position) -> i32 {
        // Fewer discs wins: the opponent's discs count for the player.
        woc_score(s.opponent_discs(), s.player_discs())
    }
    #[inline(always)]
    fn last_empty_score(s: &Position, square: u8) -> i32 {
        // WOC scoring is antisymmetric, so the Anti score is the negated Othello score.
        -othello_last_empty_score(s, square)
    }
    #[inline]
    fn stability_sides(s: &Position) -> (u64, u64) {
        // The player's own stable discs are the ones that hurt in Anti.
        (s.player, s.opponent)
    }
    #[inline]
    fn hash_extra(_s: &Position) -> u64 {
        // Anti scores differ from Othello's for the same discs: keep them apart in tables.
        0xA
    }
}

/// True while Reversi 1889 is in its placement phase: every disc on the board stands in
/// the centre and a centre square is still free.
#[inline(always)]
pub const fn in_placement_phase(pos: &Position) -> bool {
    let occ = pos.occupied();
    occ & !CENTRE == 0 && occ != CENTRE
}

impl Rules for Reversi1889 {
    const VARIANT: Variant = Variant::Reversi1889;
    type S = State;
    #[inline(always)]
    fn position(s: &State) -> Position {
        s.pos
    }
    #[inline(always)]
    fn from_state(state: &State) -> State {
        *state
    }
    #[inline]
    fn legal_moves(s: &State) -> u64 {
        if s.player_supply == 0 {
            0
        } else if in_placement_phase(&s.pos) {
            CENTRE & s.pos.empty()
        } else {
            s.pos.legal_moves()
        }
    }
    #[inline]
    fn play(s: &State, square: u8) -> State {
        debug_assert!(s.player_supply > 0);
        let pos = if in_placement_phase(&s.pos) {
            s.pos.place(square)
        } else {
            s.pos.play(square)
        };
        State {
            pos,
            player_supply: s.opponent_supply,
            opponent_supply: s.player_supply - 1,
        }
    }
    #[inline(always)]
    fn pass(s: &State) -> State {
        s.pass()
    }
    #[inline]
    fn final_score(s: &State) -> i32 {
        s.pos.player_discs() as i32 - s.pos.opponent_discs() as i32
    }
    #[inline]
    fn try_play(s: &State, square: u8) -> Option<State> {
        (Self::legal_moves(s) & (1u64 << square) != 0).then(|| Self::play(s, square))
    }
    #[inline]
    fn stability_sides(s: &State) -> (u64, u64) {
        (s.pos.opponent, s.pos.player)
    }
    #[inline]
    fn hash_extra(s: &State) -> u64 {
        0x1889_0000 | u64::from(s.player_supply) << 8 | u64::from(s.opponent_supply)
    }
}

/// The variant of a game, for code that chooses the rules at run time.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Standard Othello (USOA rules, WOC scoring with the empties to the winner).
    #[default]
    Othello,
    /// Anti Othello: the player with fewer discs wins.
    Anti,
    /// Reversi 1889: empty board, four free centre placements, 32 discs each.
    Reversi1889,
}

impl Variant {
    /// All variants.
    pub const ALL: [Variant; 3] = [Variant::Othello, Variant::Anti, Variant::Reversi1889];

    /// The name used on the command line and in files (`othello`, `anti`, `reversi1889`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Othello => "othello",
            Variant::Anti => "anti",
            Variant::Reversi1889 => "reversi1889",
        }
    }

    /// The game name GTP uses (`list_games`, `set_game`, `gogui-rules_game_id`).
    pub const fn gtp_name(self) -> &'static str {
        match self {
            Variant::Othello => "Othello",
            Variant::Anti => "Anti",
            Variant::Reversi1889 => "Reversi1889",
        }
    }

    /// A variant by a GTP game name, in any case (also `reversi`, `antiothello`,
    /// `anti-othello` and `reversi-1889`).
    pub fn from_gtp_name(text: &str) -> Option<Variant> {
        match text.to_ascii_lowercase().as_str() {
            "othello" | "reversi" => Some(Variant::Othello),
            "anti" | "antiothello" | "anti-othello" => Some(Variant::Anti),
            "reversi1889" | "reversi-1889" => Some(Variant::Reversi1889),
            _ => None,
        }
    }

    /// The variant's start position (black to move).
    pub const fn start_position(self) -> Position {
        match self {
            Variant::Othello | Variant::Anti => Position::START,
            Variant::Reversi1889 => Position::EMPTY,
        }
    }

    /// The variant's start state (black to move, full disc supply).
    pub fn start_state(self) -> State {
        State::from_position(self.start_position())
    }

    /// Legal moves of the side to move under this variant.
    #[inline]
    pub fn legal_moves(self, s: &State) -> u64 {
        match self {
            Variant::Othello | Variant::Anti => s.pos.legal_moves(),
            Variant::Reversi1889 => Reversi1889::legal_moves(s),
        }
    }

    /// The state after the side to move plays `square`, a legal move.
    pub fn play(self, s: &State, square: u8) -> State {
        match self {
            Variant::Othello | Variant::Anti => State {
                pos: s.pos.play(square),
                player_supply: s.opponent_supply,
                opponent_supply: s.player_supply.saturating_sub(1),
            },
            Variant::Reversi1889 => Reversi1889::play(s, square),
        }
    }

    /// Discs that the move on `square` flips (none for a placement).
    pub fn flips(self, s: &State, square: u8) -> u64 {
        if self == Variant::Reversi1889 && in_placement_phase(&s.pos) {
            0
        } else {
            s.pos.flips(square)
        }
    }

    /// True when neither side can move.
    pub fn is_game_over(self, s: &State) -> bool {
        self.legal_moves(s) == 0 && self.legal_moves(&s.pass()) == 0
    }

    /// Why `s` cannot arise in a game of this variant, or `None` when it can. Othello and
    /// Anti never empty a centre square; Reversi 1889 fills the centre before any other
    /// square.
    pub fn impossible_reason(self, s: &State) -> Option<&'static str> {
        let occupied = s.pos.occupied();
        match self {
            Variant::Othello | Variant::Anti if occupied & CENTRE != CENTRE => {
                Some("a centre square (d4, e4, d5 or e5) is empty, which no game allows")
            }
            Variant::Reversi1889 if occupied & !CENTRE != 0 && occupied & CENTRE != CENTRE => {
                Some("discs stand outside the centre while a centre square is still empty")
            }
            _ => None,
        }
    }

    /// The final score for the side to move (call on a finished game).
    pub fn final_score(self, s: &State) -> i32 {
        match self {
            Variant::Othello => Othello::final_score(&s.pos),
            Variant::Anti => Anti::final_score(&s.pos),
            Variant::Reversi1889 => Reversi1889::final_score(s),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for an unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}` (expected othello, anti or reversi1889)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace(['-', '_', ' '], "")
            .as_str()
        {
            "othello" | "standard" | "8" => Ok(Variant::Othello),
            "anti" | "antiothello" | "8a" => Ok(Variant::Anti),
            "reversi1889" | "1889" | "reversi" => Ok(Variant::Reversi1889),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Square;

    fn sq(name: &str) -> u8 {
        Square::parse(name).unwrap().index()
    }

    #[test]
    fn woc_scoring_gives_empties_to_the_winner() {
        assert_eq!(woc_score(40, 20), 24); // 44-20 with 4 empties
        assert_eq!(woc_score(20, 40), -24);
        assert_eq!(woc_score(30, 30), 0);
        assert_eq!(woc_score(32, 32), 0);
        assert_eq!(woc_score(64, 0), 64);
    }

    #[test]
    fn anti_inverts_the_result() {
        let pos = Position::new((1 << 40) - 1, 0xFF << 48); // 40 vs 8, 16 empties
        assert_eq!(Othello::final_score(&pos), 32 + 16);
        assert_eq!(Anti::final_score(&pos), -(32 + 16));
        let even = Position::new(0xFFFF_FFFF, 0xFFFF_FFFF << 32);
        assert_eq!(Anti::final_score(&even), 0);
    }

    #[test]
    fn reversi_1889_placement_then_othello_moves() {
        let mut s = Variant::Reversi1889.start_state();
        assert_eq!(s.player_supply, 32);
        assert_eq!(Reversi1889::legal_moves(&s), CENTRE);
        // Black d4, white d5, black e4, white e5: a non-standard arrangement.
        for name in ["d4", "d5", "e4", "e5"] {
            assert!(Reversi1889::legal_moves(&s) & (1 << sq(name)) != 0);
            s = Reversi1889::play(&s, sq(name));
        }
        assert_eq!(s.pos.occupied(), CENTRE);
        assert_eq!(s.player_supply, 30);
        assert_eq!(s.opponent_supply, 30);
        // Now Othello moves, computed on the board as it stands.
        assert_eq!(Reversi1889::legal_moves(&s), s.pos.legal_moves());
        assert_ne!(s.pos.legal_moves(), 0);
        // Plain disc difference, no empties bonus.
        assert_eq!(Reversi1889::final_score(&s), 0);
    }

    #[test]
    fn reversi_1889_player_out_of_discs_passes() {
        // Black (to move) has a legal move on the board (d1) but no disc in hand; white
        // could play a1.
        let pos = Position::new(1 << sq("b1"), 1 << sq("c1"));
        assert_ne!(pos.legal_moves(), 0);
        let s = State {
            pos,
            player_supply: 0,
            opponent_supply: 5,
        };
        assert_eq!(Reversi1889::legal_moves(&s), 0);
        assert!(!Variant::Reversi1889.is_game_over(&s));
        // When both are out of discs (or out of moves) the game is over.
        let both = State {
            opponent_supply: 0,
            ..s
        };
        assert!(Variant::Reversi1889.is_game_over(&both));
        assert!(!Variant::Othello.is_game_over(&both));
    }

    #[test]
    fn impossible_boards_are_named() {
        let start = Variant::Othello.start_state();
        assert_eq!(Variant::Othello.impossible_reason(&start), None);
        let hole = State::from_position(Position::new(1 << 27, 1 << 28));
        assert!(Variant::Othello.impossible_reason(&hole).is_some());
        assert!(Variant::Anti.impossible_reason(&hole).is_some());
        assert_eq!(Variant::Reversi1889.impossible_reason(&hole), None);
        let outside = State::from_position(Position::new(1 << 27, 1));
        assert!(Variant::Reversi1889.impossible_reason(&outside).is_some());
        assert_eq!(
            Variant::Reversi1889.impossible_reason(&Variant::Reversi1889.start_state()),
            None
        );
    }

    #[test]
    fn variant_names_parse() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>().unwrap(), v);
        }
        assert!("chess".parse::<Variant>().is_err());
    }
}
