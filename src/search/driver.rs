//! The iterative-deepening driver: searches the root deeper and deeper with aspiration
//! windows, goes on to a selective and then exact endgame when the depth reaches the end of
//! the game, solves exactly (or win/loss/draw) from the plan's empties, and stops when the
//! plan's time, depth or nodes are spent. Each finished iteration is reported.

use super::Shared;
use super::endgame::{self, SolveMode, SolveOptions};
use super::midgame::MidWorker;
use super::mpc::SELECTIVITY_PERCENT;
use super::parameters::{
    ASPIRATION_DEPTH, ASPIRATION_WINDOW, NEXT_ITERATION_PERMILLE, PRESOLVE_GAP,
};
use super::time::TimeBudget;
use crate::bitboard::Bits;
use crate::rules::Rules;
use crate::square::{Move, Square};
use std::time::Duration;

/// What a search result is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// A depth-limited search (possibly with probable cuts).
    Midgame,
    /// The exact final score.
    Exact,
    /// Only the sign of the final score is proven.
    WinLossDraw,
    /// A move from the opening book (its depth and score are the book's).
    Book,
    /// Searched to the end of the game with probable cuts (`probability` says how sure).
    ProbableSolve,
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// Plies searched (for solves: the empties).
    pub depth: u32,
    /// Confidence of the probable cuts, in percent (100: none).
    pub probability: u8,
    pub kind: ResultKind,
    /// Disc difference for the side to move.
    pub score: i32,
    pub best_move: Move,
    pub pv: Vec<Move>,
    /// Nodes since the start of the search.
    pub nodes: u64,
    /// Time since the start of the search.
    pub time: Duration,
    /// With several lines asked for (`Plan::lines > 1`): the best moves, best first, each
    /// with its score and line. Empty otherwise.
    pub lines: Vec<Line>,
}

/// One of several best moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub best_move: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

/// How deep and how long to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Deepest midgame iteration.
    pub depth: u32,
    /// Selectivity of midgame iterations (index into the Multi-ProbCut confidences).
    pub selectivity: u8,
    /// Solve exactly at and below this many empties.
    pub exact_empties: u32,
    /// Solve win/loss/draw at and below this many empties (when not exactly).
    pub wld_empties: u32,
    /// Time for the move, when the clock matters.
    pub time: Option<TimeBudget>,
    /// Answer at once when only one move is legal (under a clock).
    pub play_forced_at_once: bool,
    /// Search only this root move (its score at the plan's depth, e.g. to judge a move
    /// played in a game).
    pub only_move: Option<u8>,
    /// How many best moves to score exactly (1: only the best).
    pub lines: usize,
    /// The root moves to choose among (a mask; `None`: all legal moves).
    pub root_moves: Option<u64>,
}

/// Searches `s` by the plan; `on_iteration` sees each finished iteration. The control in
/// `shared` must be armed (deadline, nodes) by the caller; `start` is its clock's reading
/// when thinking began. Returns the last finished iteration, or `None` when the game is
/// over.
pub(crate) fn think<R: Rules>(
    shared: &Shared<'_>,
    s: &R::S,
    plan: &Plan,
    start: Duration,
    on_iteration: &mut (dyn FnMut(&Iteration) + Send),
) -> Option<Iteration> {
    let control = shared.control;
    let elapsed = || control.now().saturating_sub(start);
    let moves = R::legal_moves(s);
    if moves == 0 {
        let passed = R::pass(s);
        if R::legal_moves(&passed) == 0 {
            return None;
        }
        let mut relay = |it: &Iteration| on_iteration(&negate_pass(it));
        let inner = think::<R>(shared, &passed, plan, start, &mut relay)?;
        return Some(negate_pass(&inner));
    }
    if let Some(x) = plan
        .only_move
        .filter(|&x| x < 64 && moves & (1u64 << x) != 0)
    {
        return Some(think_move::<R>(shared, s, x, plan, start, on_iteration));
    }
    let moves = moves & plan.root_moves.unwrap_or(u64::MAX);
    if moves == 0 {
        return None;
    }
    let n = R::position(s).n_empties();
    let mut w = MidWorker::<R>::new(shared, None, 0);

    // Root moves, best first by a quick look.
    let mut order: Vec<(u8, i32)> = Bits(moves)
        .map(|x| (x, -shared.eval.evaluate::<R>(&R::play(s, x))))
        .collect();
    order.sort_by_key(|&(_, v)| -v);
    let mut order: Vec<u8> = order.into_iter().map(|(x, _)| x).collect();

    let mut last: Option<Iteration> = None;
    let report = |last: &mut Option<Iteration>,
                  it: Iteration,
                  on_iteration: &mut (dyn FnMut(&Iteration) + Send)| {
        on_iteration(&it);
        *last = Some(it);
    };

    if order.len() == 1 && plan.play_forced_at_once {
        let x = order[0];
        let it = Iteration {
            depth: 1,
            probability: 100,
            kind: ResultKind::Midgame,
            score: -shared.eval.evaluate::<R>(&R::play(s, x)),
            best_move: Move::Play(Square::from_index(x)),
            pv: vec![Move::Play(Square::from_index(x))],
            nodes: 1,
            time: elapsed(),
            lines: Vec::new(),
        };
        report(&mut last, it, on_iteration);
        return last;
    }

    let solve = if n <= plan.exact_empties {
        Some(SolveMode::Exact)
    } else if n <= plan.wld_empties {
        Some(SolveMode::WinLossDraw)
    } else {
        None
    };
    let max_depth = if solve.is_some() {
        plan.depth.min(n.saturating_sub(PRESOLVE_GAP))
    } else {
        plan.depth.min(n)
    };

    // The schedule of (depth, selectivity): midgame depths, then at the end of the game
    // more and more confident selective searches, then exact.
    let mut schedule: Vec<(u32, u8)> = (1..=max_depth)
        .map(|d| (d, if d >= n { 0 } else { plan.selectivity }))
        .collect();
    if max_depth == n && plan.selectivity > 0 {
        schedule.pop();
        for sel in (0..=plan.selectivity).rev() {
            schedule.push((n, sel));
        }
    }
    let mut previous_score: Option<i32> = None;
    let mut target = plan.time.map(|t| t.target);
    for (depth, selectivity) in schedule {
        w.selectivity = selectivity;
        let mut lines = Vec::new();
        let (score, index) = if plan.lines > 1 {
            let scored = multi_root(&mut w, s, &order, depth, plan.lines);
            if control.stopped() {
                break;
            }
            // The next iteration tries the moves in this one's order.
            order = scored.iter().map(|&(x, _)| x).collect();
            lines = scored
                .iter()
                .take(plan.lines)
                .map(|&(x, v)| Line {
                    best_move: Move::Play(Square::from_index(x)),
                    score: v,
                    pv: w.principal_variation(s, x, depth.max(1) as usize),
                })
                .collect();
            (scored[0].1, 0)
        } else {
            match previous_score {
                Some(prev) if depth >= ASPIRATION_DEPTH => {
                    aspiration(&mut w, s, &order, depth, prev)
                }
                _ => w.root(s, &order, -super::SCORE_INF, super::SCORE_INF, depth),
            }
        };
        // Cut short, a move proven better than the first at this depth is still news.
        let cut_short = control.stopped();
        if cut_short && (index == 0 || plan.lines > 1) {
            break;
        }
        let best = order.remove(index);
        order.insert(0, best);
        w.flush();
        // A cut-short iteration did not search every move: never exact.
        let exact = depth >= n && selectivity == 0 && !cut_short;
        let it = Iteration {
            depth,
            probability: SELECTIVITY_PERCENT[usize::from(selectivity)],
            kind: if exact {
                ResultKind::Exact
            } else if depth >= n {
                ResultKind::ProbableSolve
            } else {
                ResultKind::Midgame
            },
            score,
            best_move: Move::Play(Square::from_index(best)),
            pv: w.principal_variation(s, best, depth.max(1) as usize),
            nodes: control.nodes(),
            time: elapsed(),
            lines,
        };
        // Critical moments (a new best move, a falling score) deserve more time.
        if let (Some(budget), Some(prev)) = (plan.time, &last)
            && (prev.best_move != it.best_move || it.score < prev.score - 2)
        {
            target = Some((budget.target * 2).min(budget.max));
        }
        previous_score = Some(score);
        report(&mut last, it, on_iteration);
        if cut_short {
            break;
        }
        // A fixed time a move is spent to the end (a cut-short iteration may still find
        // a better move); under a clock, what is saved goes to later moves.
        let fixed = plan.time.is_some_and(|b| b.target == b.max);
        if let Some(t) = target
            && !fixed
            && elapsed() >= t * NEXT_ITERATION_PERMILLE / 1000
        {
            return last;
        }
    }

    if let Some(mode) = solve
        && !control.stopped()
    {
        let options = SolveOptions {
            mode,
            all_moves: plan.lines > 1,
            root_moves: plan.root_moves.unwrap_or(u64::MAX),
            // The last iteration's score (often a selective search to the end).
            estimate: previous_score,
        };
        // The solver orders its moves with the weights meant for it.
        let solving = shared.eval.for_solving();
        let solve_shared = Shared {
            eval: &solving,
            ..*shared
        };
        let result = endgame::root::solve::<R>(&solve_shared, s, &options);
        if !control.stopped()
            && let Some(best_move) = result.best_move
        {
            let it = Iteration {
                depth: n,
                probability: 100,
                kind: match mode {
                    SolveMode::Exact => ResultKind::Exact,
                    SolveMode::WinLossDraw => ResultKind::WinLossDraw,
                },
                score: result.score,
                best_move,
                lines: if plan.lines > 1 {
                    result
                        .move_scores
                        .iter()
                        .take(plan.lines)
                        .map(|&(mv, v)| Line {
                            best_move: mv,
                            score: v,
                            pv: if mv == best_move {
                                result.pv.clone()
                            } else {
                                vec![mv]
                            },
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                pv: result.pv,
                nodes: control.nodes(),
                time: elapsed(),
            };
            report(&mut last, it, on_iteration);
        }
    }
    if last.is_none() {
        // Stopped before the first iteration ended: the move ordered first.
        let x = order[0];
        last = Some(Iteration {
            depth: 0,
            probability: 100,
            kind: ResultKind::Midgame,
            score: -shared.eval.evaluate::<R>(&R::play(s, x)),
            best_move: Move::Play(Square::from_index(x)),
            pv: vec![Move::Play(Square::from_index(x))],
            nodes: control.nodes(),
            time: elapsed(),
            lines: Vec::new(),
        });
    }
    last
}

/// The score of root move `x` by the plan: the position after it searched one ply less
/// deep (with the same endgame solve depths), negated.
fn think_move<R: Rules>(
    shared: &Shared<'_>,
    s: &R::S,
    x: u8,
    plan: &Plan,
    start: Duration,
    on_iteration: &mut (dyn FnMut(&Iteration) + Send),
) -> Iteration {
    let mv = Move::Play(Square::from_index(x));
    let child = R::play(s, x);
    let child_plan = Plan {
        depth: plan.depth.saturating_sub(1),
        only_move: None,
        root_moves: None,
        play_forced_at_once: false,
        ..*plan
    };
    let from_child = |it: &Iteration| Iteration {
        depth: it.depth + 1,
        score: -it.score,
        best_move: mv,
        pv: std::iter::once(mv).chain(it.pv.iter().copied()).collect(),
        ..it.clone()
    };
    let inner = if child_plan.depth == 0 && R::position(&child).n_empties() > plan.exact_empties {
        None
    } else {
        let mut relay = |it: &Iteration| on_iteration(&from_child(it));
        think::<R>(shared, &child, &child_plan, start, &mut relay)
    };
    let it = match inner {
        Some(inner) => from_child(&inner),
        None => Iteration {
            depth: 1,
            probability: 100,
            kind: ResultKind::Midgame,
            score: -shared.eval.evaluate::<R>(&child),
            best_move: mv,
            pv: vec![mv],
            nodes: shared.control.nodes(),
            time: shared.control.now().saturating_sub(start),
            lines: Vec::new(),
        },
    };
    on_iteration(&it);
    it
}

/// Scores the root moves `order` at `depth` so that the best `k` have exact scores: each
/// of the first k with an open window, every later one with a null window at the k-th
/// best score so far, searched again with an open window when it beats it. Returns the
/// moves with their scores (bounds past the k-th), best first.
fn multi_root<R: Rules>(
    w: &mut MidWorker<'_, '_, R>,
    s: &R::S,
    order: &[u8],
    depth: u32,
    k: usize,
) -> Vec<(u8, i32)> {
    let inf = super::SCORE_INF;
    let mut scored: Vec<(u8, i32)> = Vec::with_capacity(order.len());
    for &x in order {
        let next = R::play(s, x);
        let v = if scored.len() < k {
            -w.search(&next, -inf, inf, depth - 1, false)
        } else {
            let kth = scored[k - 1].1;
            let bound = -w.nws(&next, -kth - 1, depth - 1, false);
            if bound > kth && !w.shared_stopped() {
                -w.search(&next, -inf, -kth, depth - 1, false)
            } else {
                bound
            }
        };
        if w.shared_stopped() {
            break;
        }
        let at = scored
            .iter()
            .position(|&(_, u)| v > u)
            .unwrap_or(scored.len());
        scored.insert(at, (x, v));
    }
    scored
}

/// A root search in a window around `prev`, widened on the failing side until the score
/// falls inside.
fn aspiration<R: Rules>(
    w: &mut MidWorker<'_, '_, R>,
    s: &R::S,
    order: &[u8],
    depth: u32,
    prev: i32,
) -> (i32, usize) {
    let mut alpha = (prev - ASPIRATION_WINDOW).max(-super::SCORE_INF);
    let mut beta = (prev + ASPIRATION_WINDOW).min(super::SCORE_INF);
    loop {
        let (score, index) = w.root(s, order, alpha, beta, depth);
        if w.shared_stopped() {
            return (score, index);
        }
        if score <= alpha && alpha > -64 {
            alpha = -super::SCORE_INF;
        } else if score >= beta && beta < 64 {
            beta = super::SCORE_INF;
        } else {
            return (score, index);
        }
    }
}

/// An iteration of the position after a forced pass, seen from the side that passes: every
/// line starts with the pass and carries that side's score.
fn negate_pass(it: &Iteration) -> Iteration {
    let after_pass = |pv: &[Move]| {
        std::iter::once(Move::Pass)
            .chain(pv.iter().copied())
            .collect()
    };
    Iteration {
        score: -it.score,
        best_move: Move::Pass,
        pv: after_pass(&it.pv),
        lines: it
            .lines
            .iter()
            .map(|l| Line {
                best_move: Move::Pass,
                score: -l.score,
                pv: after_pass(&l.pv),
            })
            .collect(),
        ..it.clone()
    }
}
