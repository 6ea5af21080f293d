//! Evaluation: a static estimate of the final disc difference for the side to move.
//!
//! [`Evaluator`] is what the search calls; it picks the evaluation chosen by the user once
//! per call (a predictable branch), so the search stays free of `dyn`.

pub mod classic;
mod classic_weights;
pub mod network;
pub mod pattern;
pub mod weights;

use crate::board::Position;
use crate::rules::{Rules, Variant};
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
pub use weights::PatternWeights;

/// The largest score an evaluation returns: scores of ±64 are reserved for proved results.
pub const EVAL_MAX: i32 = 63;

/// Which evaluation the engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// The trained evaluation over patterns (corners, edges, lines, diagonals), mobility
    /// and parity (`volte train`): in Othello and Reversi 1889 the network over them
    /// (`weights/othello-network.vw`), in Anti a linear table per stage.
    #[default]
    Pattern,
    /// The linear tables in every variant: one trained weight per pattern instance and
    /// stage (`weights/othello.vw`), cheaper a node than the network and weaker.
    Linear,
    /// Hand-written terms: mobility, potential mobility, corners, X- and C-squares,
    /// stable discs, edges, discs and parity, weighted by game stage and variant.
    Classic,
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalKind::Pattern => f.write_str("pattern"),
            EvalKind::Linear => f.write_str("linear"),
            EvalKind::Classic => f.write_str("classic"),
        }
    }
}

impl FromStr for EvalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "pattern" => Ok(EvalKind::Pattern),
            "linear" => Ok(EvalKind::Linear),
            "classic" => Ok(EvalKind::Classic),
            _ => Err(format!(
                "unknown evaluation '{s}' (known: pattern, linear, classic)"
            )),
        }
    }
}

/// The evaluation the search calls.
#[derive(Clone, Debug)]
pub struct Evaluator {
    kind: EvalKind,
    /// Pattern weights per variant (Othello, Anti, Reversi 1889).
    tables: [Arc<PatternWeights>; 3],
    /// The weights [`Evaluator::for_solving`] uses, per variant.
    solving: [Arc<PatternWeights>; 3],
    /// The weights that order a node's moves ([`Evaluator::order_child`]): the playing
    /// ones, except that a network's search orders by the shipped linear weights, which
    /// cost less and order as well.
    ordering: [Arc<PatternWeights>; 3],
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(EvalKind::default())
    }
}

impl Evaluator {
    /// The evaluation `kind` with the shipped weights.
    pub fn new(kind: EvalKind) -> Evaluator {
        let playing = match kind {
            EvalKind::Pattern => PatternWeights::embedded_playing,
            EvalKind::Linear | EvalKind::Classic => PatternWeights::embedded,
        };
        Evaluator {
            kind,
            tables: Variant::ALL.map(playing),
            solving: Variant::ALL.map(PatternWeights::embedded_for_solving),
            ordering: Variant::ALL.map(PatternWeights::embedded),
        }
    }

    /// The evaluation the exact solver orders its moves by (and runs its selective
    /// pre-search and first guess with). With the shipped weights, Othello's (and Reversi
    /// 1889's) are fitted to the same games with a stronger regularisation (`volte train
    /// --ridge 64` against 4; FFO 40-53 on one thread 2.85 G nodes against 3.44 G, but
    /// -42 Elo at depth 8), plus the positions of up to 18 empties of self-play games
    /// full of random moves (`--extra`; FFO 40-58 12.56 G nodes against 13.19 G), since
    /// the solver evaluates many positions good players never reach. Weights given by
    /// the user ([`Evaluator::with_weights`]) serve both.
    pub fn for_solving(&self) -> Evaluator {
        Evaluator {
            kind: self.kind,
            tables: self.solving.clone(),
            solving: self.solving.clone(),
            ordering: self.solving.clone(),
        }
    }

    /// The pattern evaluation with `weights` for their variant (Othello's also for
    /// Reversi 1889) and the shipped weights for the others. Linear weights serve the
    /// exact solver too; a network's do not (the solver evaluates positions only to order
    /// its moves, where the cheaper linear weights pay better), so the solver keeps its own.
    pub fn with_weights(weights: Arc<PatternWeights>) -> Evaluator {
        // The shipped network is decoded only for a variant these weights do not serve.
        let served = Self::served(weights.variant());
        let mut e = Evaluator {
            kind: EvalKind::Pattern,
            ..Evaluator::new(EvalKind::Linear)
        };
        for v in Variant::ALL {
            let i = v as usize;
            if !served.contains(&i) {
                e.tables[i] = PatternWeights::embedded_playing(v);
                continue;
            }
            e.tables[i] = weights.clone();
            if !weights.is_network() {
                e.solving[i] = weights.clone();
                e.ordering[i] = weights.clone();
            }
        }
        e
    }

    /// This evaluation with `weights` for the exact solver only
    /// ([`Evaluator::for_solving`]), for their variant (Othello's also for Reversi 1889).
    pub fn with_solving_weights(mut self, weights: Arc<PatternWeights>) -> Evaluator {
        for &v in Self::served(weights.variant()) {
            self.solving[v] = weights.clone();
        }
        self
    }

    /// Whether weights trained for `weights` serve games of `variant` (Othello's serve
    /// Reversi 1889 too).
    pub fn weights_serve(weights: Variant, variant: Variant) -> bool {
        Self::served(weights).contains(&(variant as usize))
    }

    /// The variants (indices of `tables`) that weights trained for `variant` serve.
    fn served(variant: Variant) -> &'static [usize] {
        match variant {
            Variant::Othello => &[0, 2],
            Variant::Anti => &[1],
            Variant::Reversi1889 => &[2],
        }
    }

    /// The evaluation chosen by `kind` and an optional weight file (which implies the
    /// pattern evaluation; asking for `classic` with a file is an error).
    pub fn from_options(kind: Option<EvalKind>, file: Option<&Path>) -> anyhow::Result<Evaluator> {
        match (kind, file) {
            (Some(kind @ (EvalKind::Classic | EvalKind::Linear)), Some(_)) => {
                anyhow::bail!(
                    "--eval-file gives the evaluation's weights; it cannot go with --eval {kind}"
                )
            }
            (_, Some(path)) => Ok(Evaluator::with_weights(Arc::new(PatternWeights::load(
                path,
            )?))),
            (kind, None) => Ok(Evaluator::new(kind.unwrap_or_default())),
        }
    }

    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// Whether `R`'s games are evaluated by a network (whose search has Multi-ProbCut
    /// statistics of its own).
    #[inline]
    pub fn is_network<R: Rules>(&self) -> bool {
        self.kind != EvalKind::Classic && self.tables[R::VARIANT as usize].is_network()
    }

    /// The pattern weights used for `variant`.
    pub fn weights(&self, variant: Variant) -> &Arc<PatternWeights> {
        &self.tables[variant as usize]
    }

    /// The estimated final disc difference for the side to move of `s`, in
    /// `-EVAL_MAX..=EVAL_MAX`; the final score when the game is over.
    #[inline]
    pub fn evaluate<R: Rules>(&self, s: &R::S) -> i32 {
        match self.kind {
            EvalKind::Classic => classic::evaluate::<R>(s),
            EvalKind::Pattern | EvalKind::Linear => self.evaluate_pattern::<R>(s),
        }
    }

    /// [`Evaluator::evaluate`] given the legal moves of the side to move of `s` (move
    /// ordering has them already), so that they are not generated again.
    #[inline]
    pub fn evaluate_with_moves<R: Rules>(&self, s: &R::S, moves: u64) -> i32 {
        // In Reversi 1889 the rules' moves (placement, discs in hand) are not always the
        // board's, which the patterns' mobility counts.
        if self.kind == EvalKind::Classic || matches!(R::VARIANT, Variant::Reversi1889) {
            return self.evaluate::<R>(s);
        }
        debug_assert_eq!(moves, R::position(s).legal_moves());
        let pos = R::position(s);
        let their_moves = pos.opponent_moves();
        if moves == 0 && their_moves == 0 {
            return R::final_score(s);
        }
        self.pattern_value::<R>(&pos, moves, their_moves)
    }

    /// What [`Evaluator::evaluate_child`] needs to evaluate the children of `s` more
    /// cheaply than one by one: the pattern indices of `s` with the sides swapped, and
    /// its opponent's discs. `None` when the evaluation is not the pattern one, or in
    /// Reversi 1889 (whose moves are not always the board's).
    #[inline]
    pub fn children_base<R: Rules>(&self, s: &R::S) -> Option<ChildrenBase> {
        if self.kind == EvalKind::Classic || matches!(R::VARIANT, Variant::Reversi1889) {
            return None;
        }
        let pos = R::position(s);
        Some(ChildrenBase {
            indices: pattern::Indices::children_base(&pos),
            opponent: pos.opponent,
        })
    }

    /// Whether the search may keep [`pattern::Digits`] for this evaluation in `R`'s games
    /// (the pattern evaluation, outside Reversi 1889), for
    /// [`Evaluator::children_base_from`] and [`Evaluator::evaluate_with_digits`].
    #[inline]
    pub fn uses_digits<R: Rules>(&self) -> bool {
        self.kind != EvalKind::Classic && !matches!(R::VARIANT, Variant::Reversi1889)
    }

    /// [`Evaluator::children_base`] of `s` from its `digits`.
    #[inline]
    pub fn children_base_from<R: Rules>(&self, s: &R::S, digits: &pattern::Digits) -> ChildrenBase {
        debug_assert!(self.uses_digits::<R>());
        let pos = R::position(s);
        let base = ChildrenBase {
            indices: digits.children_base(),
            opponent: pos.opponent,
        };
        debug_assert_eq!(base.indices, pattern::Indices::children_base(&pos));
        base
    }

    /// [`Evaluator::evaluate_with_moves`] from the [`pattern::Digits`] of `s`: the same
    /// value, without reading the board's patterns.
    #[inline]
    pub fn evaluate_with_digits<R: Rules>(
        &self,
        s: &R::S,
        moves: u64,
        digits: &pattern::Digits,
    ) -> i32 {
        debug_assert!(self.uses_digits::<R>());
        debug_assert_eq!(moves, R::position(s).legal_moves());
        let pos = R::position(s);
        let their_moves = pos.opponent_moves();
        if moves == 0 && their_moves == 0 {
            return R::final_score(s);
        }
        let idx = digits.own();
        debug_assert_eq!(idx, pattern::Indices::of(pos.player, pos.opponent));
        let sum =
            self.tables[R::VARIANT as usize].sum_indexed(&idx, pos.n_empties(), moves, their_moves);
        round_scaled(sum, pattern::SCALE).clamp(-EVAL_MAX, EVAL_MAX)
    }

    /// [`Evaluator::evaluate_with_moves`] on `child`, the position after the side to
    /// move of the parent whose `base` this is played `square`: the same value, its
    /// pattern indices updated from the parent's by the squares the move changed.
    #[inline]
    pub fn evaluate_child<R: Rules>(
        &self,
        base: &ChildrenBase,
        child: &R::S,
        square: u8,
        moves: u64,
    ) -> i32 {
        child_value::<R>(&self.tables, base, child, square, moves)
    }

    /// [`Evaluator::evaluate_child`] with the weights that order moves: the same value
    /// unless the playing weights are a network's, whose search orders its moves by the
    /// shipped linear weights.
    #[inline]
    pub fn order_child<R: Rules>(
        &self,
        base: &ChildrenBase,
        child: &R::S,
        square: u8,
        moves: u64,
    ) -> i32 {
        child_value::<R>(&self.ordering, base, child, square, moves)
    }

    #[inline]
    fn evaluate_pattern<R: Rules>(&self, s: &R::S) -> i32 {
        let pos = R::position(s);
        let Some((my_moves, their_moves)) = moves_unless_over::<R>(s) else {
            return R::final_score(s);
        };
        self.pattern_value::<R>(&pos, my_moves, their_moves)
    }

    /// The pattern evaluation of a game not over, given both sides' legal moves.
    #[inline(always)]
    fn pattern_value<R: Rules>(&self, pos: &Position, my_moves: u64, their_moves: u64) -> i32 {
        let sum = self.tables[R::VARIANT as usize].sum(pos, my_moves, their_moves);
        round_scaled(sum, pattern::SCALE).clamp(-EVAL_MAX, EVAL_MAX)
    }

    /// [`Evaluator::evaluate`] for a variant chosen at run time.
    pub fn evaluate_variant(&self, variant: Variant, state: &crate::rules::State) -> i32 {
        use crate::rules::{Anti, Othello, Reversi1889};
        match variant {
            Variant::Othello => self.evaluate::<Othello>(&state.pos),
            Variant::Anti => self.evaluate::<Anti>(&state.pos),
            Variant::Reversi1889 => self.evaluate::<Reversi1889>(state),
        }
    }
}

/// The parent's part of the evaluation of its children ([`Evaluator::children_base`]).
#[derive(Clone, Copy, Debug)]
pub struct ChildrenBase {
    indices: pattern::Indices,
    opponent: u64,
}

/// The value by `tables` of `child`, the position after the side to move of the parent
/// whose `base` this is played `square`, its pattern indices updated from the parent's.
#[inline(always)]
fn child_value<R: Rules>(
    tables: &[Arc<PatternWeights>; 3],
    base: &ChildrenBase,
    child: &R::S,
    square: u8,
    moves: u64,
) -> i32 {
    debug_assert_eq!(moves, R::position(child).legal_moves());
    let pos = R::position(child);
    let their_moves = pos.opponent_moves();
    if moves == 0 && their_moves == 0 {
        return R::final_score(child);
    }
    // The child's side to move is the parent's opponent, less the flipped discs.
    let flipped = base.opponent ^ pos.player;
    let idx = base.indices.child(square, flipped);
    debug_assert_eq!(idx, pattern::Indices::of(pos.player, pos.opponent));
    let sum = tables[R::VARIANT as usize].sum_indexed(&idx, pos.n_empties(), moves, their_moves);
    round_scaled(sum, pattern::SCALE).clamp(-EVAL_MAX, EVAL_MAX)
}

/// Both sides' legal moves on the board of `s`, or `None` when the game is over (in
/// Reversi 1889 discs in hand can end it before the board does).
#[inline(always)]
fn moves_unless_over<R: Rules>(s: &R::S) -> Option<(u64, u64)> {
    let pos = R::position(s);
    let (my_moves, their_moves) = (pos.legal_moves(), pos.opponent_moves());
    let over = if matches!(R::VARIANT, Variant::Reversi1889) {
        R::legal_moves(s) == 0 && R::legal_moves(&R::pass(s)) == 0
    } else {
        my_moves == 0 && their_moves == 0
    };
    (!over).then_some((my_moves, their_moves))
}

/// `sum / scale` rounded to the nearest integer, halves away from zero.
#[inline]
pub fn round_scaled(sum: i32, scale: i32) -> i32 {
    if sum >= 0 {
        (sum + scale / 2) / scale
    } else {
        -((-sum + scale / 2) / scale)
    }
}
