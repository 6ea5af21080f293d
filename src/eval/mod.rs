//! Evaluation: a static estimate of the final disc difference for the side to move.
//!
//! [`Evaluator`] is what the search calls; it picks the evaluation chosen by the user once
//! per call (a predictable branch), so the search stays free of `dyn`.

pub mod classic;
mod classic_weights;

use crate::rules::{Rules, Variant};
use std::fmt;
use std::str::FromStr;

/// The largest score an evaluation returns: scores of ±64 are reserved for proved results.
pub const EVAL_MAX: i32 = 63;

/// Which evaluation the engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// Hand-written terms: mobility, potential mobility, corners, X- and C-squares,
    /// stable discs, edges, discs and parity, weighted by game stage and variant.
    #[default]
    Classic,
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalKind::Classic => f.write_str("classic"),
        }
    }
}

impl FromStr for EvalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "classic" => Ok(EvalKind::Classic),
            _ => Err(format!("unknown evaluation '{s}' (known: classic)")),
        }
    }
}

/// The evaluation the search calls.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    kind: EvalKind,
}

impl Evaluator {
    pub fn new(kind: EvalKind) -> Evaluator {
        Evaluator { kind }
    }

    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// The estimated final disc difference for the side to move of `s`, in
    /// `-EVAL_MAX..=EVAL_MAX`.
    #[inline]
    pub fn evaluate<R: Rules>(&self, s: &R::S) -> i32 {
        match self.kind {
            EvalKind::Classic => classic::evaluate::<R>(s),
        }
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
