//! The solver's root: all moves or the best, a guess of the score by a selective
//! midgame search, the selective pre-search to the end, the window around the guess, and
//! the principal variation.

use super::*;
use crate::search::midgame::MidWorker;

/// Size of the table of [`estimate`]'s search (a few hundred thousand nodes).
const ESTIMATE_HASH_MB: usize = 8;

/// Solves the root `s` (all threads of `shared`); the result is meaningless when the
/// control stopped the search.
pub(crate) fn solve<R: Rules>(
    shared: &Shared<'_>,
    s: &R::S,
    options: &SolveOptions,
) -> SolveResult {
    let mut w = Worker::<R>::new(shared, None);
    let n = R::position(s).n_empties();
    let (lo, hi) = match options.mode {
        SolveMode::Exact => (-64, 64),
        SolveMode::WinLossDraw => (-1, 1),
    };
    let moves = R::legal_moves(s);
    let mut result = SolveResult {
        score: 0,
        best_move: None,
        best_moves: Vec::new(),
        pv: Vec::new(),
        move_scores: Vec::new(),
        nodes: 0,
        peeked: 0,
        time: Duration::ZERO,
        n_empties: n,
    };
    if moves == 0 {
        let passed = R::pass(s);
        if R::legal_moves(&passed) == 0 {
            w.nodes += 1;
            result.score = R::final_score(s);
        } else {
            let inner = solve::<R>(shared, &passed, options);
            result.score = -inner.score;
            result.best_move = Some(Move::Pass);
            result.best_moves = vec![Move::Pass];
            result.pv = std::iter::once(Move::Pass).chain(inner.pv).collect();
            result.move_scores = vec![(Move::Pass, -inner.score)];
            w.nodes += inner.nodes;
            w.peeked += inner.peeked;
        }
        w.flush();
        result.nodes = w.nodes;
        result.peeked = w.peeked;
        return result;
    }

    let restricted = moves & options.root_moves != moves;
    let moves = moves & options.root_moves;
    if moves == 0 {
        w.flush();
        result.nodes = w.nodes;
        result.peeked = w.peeked;
        return result;
    }
    if options.all_moves || restricted {
        let mut scores: Vec<(Move, i32)> = Vec::new();
        for x in Bits(moves) {
            let next = R::play(s, x);
            // Every move's exact score: each searched in a window around its own guess.
            let v = if options.mode == SolveMode::Exact && n > SOLVE_ASPIRATION_EMPTIES {
                let guess = guess::<R>(shared, &next, n - 1, None, &mut w);
                -aspiration(&mut w, &next, guess, n - 1)
            } else {
                -window(&mut w, &next, -hi, -lo, n - 1)
            };
            scores.push((Move::Play(Square::from_index(x)), v));
        }
        scores.sort_by_key(|&(_, v)| -v);
        result.score = scores[0].1;
        result.best_moves = scores
            .iter()
            .filter(|&&(_, v)| {
                v == result.score
                    || (options.mode == SolveMode::WinLossDraw
                        && v.signum() == result.score.signum())
            })
            .map(|&(m, _)| m)
            .collect();
        result.best_move = Some(scores[0].0);
        result.move_scores = scores;
    } else {
        let score = if options.mode == SolveMode::Exact && n >= SOLVE_ASPIRATION_EMPTIES {
            let guess = guess::<R>(shared, s, n, options.estimate, &mut w);
            aspiration(&mut w, s, guess, n)
        } else {
            window(&mut w, s, lo, hi, n)
        };
        result.score = score;
        let best = shared
            .tt
            .probe(Worker::<R>::region(n), Worker::<R>::key(s))
            .map(|e| e.best_move)
            .filter(|&m| m < 64 && moves & (1u64 << m) != 0);
        let best = match best {
            Some(m) => m,
            None => find_move_reaching::<R>(&mut w, s, score, n, moves),
        };
        result.best_move = Some(Move::Play(Square::from_index(best)));
        result.best_moves = vec![Move::Play(Square::from_index(best))];
    }
    // The line starts with the best move: another move may reach the same score, and the
    // table may hold either.
    result.pv = result.best_move.into_iter().collect();
    if options.mode == SolveMode::Exact
        && let Some(Move::Play(sq)) = result.best_move
    {
        let next = R::play(s, sq.index());
        let rest = principal_variation::<R>(&mut w, &next, -result.score, n - 1);
        result.pv.extend(rest);
    }
    w.flush();
    result.nodes = w.nodes;
    result.peeked = w.peeked;
    result
}

/// A guess of the exact score of `s` (with `n` empties) to centre the root's window on:
/// `given`, else [`estimate`]'s; from [`SOLVE_PRESEARCH_EMPTIES`] refined by
/// [`presearch`], which also leaves the best moves of a nearly exact search in the table.
fn guess<R: Rules>(
    shared: &Shared<'_>,
    s: &R::S,
    n: u32,
    given: Option<i32>,
    w: &mut Worker<'_, '_, R>,
) -> i32 {
    let guess = given.unwrap_or_else(|| estimate::<R>(shared, s, w));
    if n >= SOLVE_PRESEARCH_EMPTIES {
        presearch::<R>(shared, s, guess, n, w)
    } else {
        guess
    }
}

/// Selective searches of `s` (with `n` empties) to the end of the game, in the solver's
/// table, at each of [`SOLVE_PRESEARCH_SELECTIVITIES`] in turn, each in an aspiration
/// window around the score of the one before (`guess` first); returns the last score.
/// The exact search then finds the best move of nearly every node of its upper tree in
/// the table, as Edax and Egaroucid do before their exact searches. Its nodes and peeks
/// ([`MidWorker::peeked`](crate::search::midgame::MidWorker::peeked)) count as the solver's.
fn presearch<R: Rules>(
    shared: &Shared<'_>,
    s: &R::S,
    guess: i32,
    n: u32,
    w: &mut Worker<'_, '_, R>,
) -> i32 {
    let mut guess = guess;
    for &selectivity in SOLVE_PRESEARCH_SELECTIVITIES {
        let mut m = MidWorker::<R>::new(shared, None, selectivity);
        m.end_exact_empties = SOLVE_PRESEARCH_EXACT_EMPTIES;
        let v = widening(guess, |lo, hi| {
            let v = m.search(s, lo, hi, n, false);
            (v, m.shared_stopped())
        });
        m.flush();
        w.nodes += m.nodes;
        w.peeked += m.peeked;
        w.polled += m.nodes;
        if m.shared_stopped() {
            break;
        }
        guess = v.clamp(-64, 64);
    }
    guess
}

/// A guess of the score of `s`: a selective midgame search of
/// [`estimate_depth`] plies, in a small table of its own. (In the solver's table its
/// best moves would come first at the nodes it saw, and the solver orders better without
/// them: FFO 48-52 on one thread took 1.55 G nodes with them against 1.30 G.) Its nodes
/// and peeks count as the solver's.
fn estimate<R: Rules>(shared: &Shared<'_>, s: &R::S, w: &mut Worker<'_, '_, R>) -> i32 {
    let tt = TranspositionTable::new(ESTIMATE_HASH_MB);
    let scratch = Shared {
        tt: &tt,
        control: shared.control,
        eval: shared.eval,
        threads: 1,
    };
    let mut m = MidWorker::<R>::new(&scratch, None, SOLVE_ESTIMATE_SELECTIVITY);
    let mut guess = 0;
    for depth in 1..=estimate_depth(R::position(s).n_empties()) {
        guess = m.search(s, -SCORE_INF, SCORE_INF, depth, false);
    }
    m.flush();
    w.nodes += m.nodes;
    w.peeked += m.peeked;
    w.polled += m.nodes;
    guess
}

/// The depth of [`estimate`]'s search in a position with `n` empties:
/// [`SOLVE_ESTIMATE_DEPTH`], but at most `n` - [`SOLVE_ESTIMATE_MARGIN`], so that the
/// guess stays a small part of the solve near [`SOLVE_ASPIRATION_EMPTIES`].
fn estimate_depth(n: u32) -> u32 {
    SOLVE_ESTIMATE_DEPTH.min(n.saturating_sub(SOLVE_ESTIMATE_MARGIN).max(1))
}

/// The exact score of `s`, searched first with a window of [`SOLVE_ASPIRATION_HALF`]
/// around `guess`; when the score falls outside, the fail-soft bound moves the window to
/// it, twice as wide each time, until the score is inside (or at -64 or 64).
fn aspiration<R: Rules>(w: &mut Worker<'_, '_, R>, s: &R::S, guess: i32, n: u32) -> i32 {
    widening(guess.clamp(-63, 63), |lo, hi| {
        let v = window(w, s, lo, hi, n);
        (v, w.aborted())
    })
}

/// The window loop of [`aspiration`] and [`presearch`]: `search(lo, hi)` returns a
/// fail-soft score and whether the search was stopped (its score is then returned as it
/// is).
fn widening(guess: i32, mut search: impl FnMut(i32, i32) -> (i32, bool)) -> i32 {
    let mut half = SOLVE_ASPIRATION_HALF;
    let (mut lo, mut hi) = ((guess - half).max(-64), (guess + half).min(64));
    loop {
        let (v, stopped) = search(lo, hi);
        if stopped {
            return v;
        }
        half *= 2;
        if v <= lo && lo > -64 {
            (lo, hi) = ((v - half).max(-64), v + 1);
        } else if v >= hi && hi < 64 {
            (lo, hi) = (v - 1, (v + half).min(64));
        } else {
            return v;
        }
    }
}

/// A move whose exact score is `score` (which must be the position's exact score).
fn find_move_reaching<R: Rules>(
    w: &mut Worker<'_, '_, R>,
    s: &R::S,
    score: i32,
    n: u32,
    moves: u64,
) -> u8 {
    let tt_move = w
        .shared
        .tt
        .probe(Worker::<R>::region(n), Worker::<R>::key(s))
        .map_or(NO_MOVE, |e| e.best_move);
    let ordered = std::iter::once(tt_move)
        .filter(|&m| m < 64 && moves & (1u64 << m) != 0)
        .chain(Bits(moves).filter(|&m| m != tt_move));
    let mut fallback = None;
    for x in ordered {
        fallback.get_or_insert(x);
        let next = R::play(s, x);
        // The child's score is at least -score; it reaches score when it is not above.
        if -window(w, &next, -score, -score + 1, n - 1) >= score {
            return x;
        }
    }
    fallback.unwrap_or(0)
}

/// The line of best play from `s`, whose exact score is `score`.
fn principal_variation<R: Rules>(
    w: &mut Worker<'_, '_, R>,
    s: &R::S,
    score: i32,
    n: u32,
) -> Vec<Move> {
    let mut pv = Vec::new();
    let (mut s, mut score, mut n) = (*s, score, n);
    while pv.len() < 80 {
        let moves = R::legal_moves(&s);
        if moves == 0 {
            let passed = R::pass(&s);
            if R::legal_moves(&passed) == 0 {
                break;
            }
            pv.push(Move::Pass);
            s = passed;
            score = -score;
            continue;
        }
        let x = find_move_reaching::<R>(w, &s, score, n, moves);
        pv.push(Move::Play(Square::from_index(x)));
        s = R::play(&s, x);
        score = -score;
        n -= 1;
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::rules::{Anti, Othello, Reversi1889, Variant};
    use crate::search::control::Control;

    /// A position `n_empties` from the end, reached by pseudo-random moves from the
    /// variant's start.
    fn random_position<R: Rules>(variant: Variant, n_empties: u32, mut seed: u64) -> R::S {
        'game: loop {
            let mut s = R::from_state(&variant.start_state());
            while R::position(&s).n_empties() > n_empties {
                let mut moves = R::legal_moves(&s);
                if moves == 0 {
                    s = R::pass(&s);
                    moves = R::legal_moves(&s);
                    if moves == 0 {
                        seed += 1;
                        continue 'game;
                    }
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = (seed >> 33) as u32 % moves.count_ones();
                let x = Bits(moves).nth(k as usize).unwrap();
                s = R::play(&s, x);
            }
            if R::legal_moves(&s) != 0 {
                return s;
            }
            seed += 1;
        }
    }

    /// The selective pre-search leaves its entries (with their selectivity) in the
    /// solver's table; the exact search after it must use their moves but never their
    /// bounds, and so gives the score of a solve in an empty table.
    fn presearch_keeps_the_exact_score<R: Rules>(variant: Variant) {
        let eval = Evaluator::default();
        for seed in 0..3 {
            let s = random_position::<R>(variant, 19, seed * 7919);
            let (tt, control) = (TranspositionTable::new(16), Control::default());
            control.start(None, None);
            let shared = Shared {
                tt: &tt,
                control: &control,
                eval: &eval,
                threads: 1,
            };
            let mut w = Worker::<R>::new(&shared, None);
            let exact = window(&mut w, &s, -64, 64, 19);
            tt.clear();
            let guess = presearch::<R>(&shared, &s, 0, 19, &mut w);
            let root = tt
                .probe(Worker::<R>::region(19), Worker::<R>::key(&s))
                .expect("the root is in the table");
            assert_eq!(
                root.selectivity,
                *SOLVE_PRESEARCH_SELECTIVITIES.last().unwrap(),
                "{variant}: the root entry comes from the last selective search"
            );
            assert!((-64..=64).contains(&guess));
            for g in [guess, -64, 64] {
                assert_eq!(aspiration(&mut w, &s, g, 19), exact, "{variant} guess {g}");
            }
            // Selective entries that are wrong (as a probable cut may be), for the root and
            // its children: their moves may be tried, their bounds never believed.
            tt.clear();
            let wrong = |v: i32, selectivity: u8| TtData {
                lower: v as i16,
                upper: v as i16,
                best_move: NO_MOVE,
                depth: 60,
                selectivity,
            };
            tt.store(Worker::<R>::region(19), Worker::<R>::key(&s), wrong(64, 1));
            for x in Bits(R::legal_moves(&s)) {
                let child = R::play(&s, x);
                tt.store(
                    Worker::<R>::region(18),
                    Worker::<R>::key(&child),
                    wrong(-64, 5),
                );
            }
            assert_eq!(window(&mut w, &s, -64, 64, 19), exact, "{variant}");
        }
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "slow in a debug build: run cargo test --release"
    )]
    fn the_presearch_keeps_the_exact_score() {
        presearch_keeps_the_exact_score::<Othello>(Variant::Othello);
        presearch_keeps_the_exact_score::<Anti>(Variant::Anti);
        presearch_keeps_the_exact_score::<Reversi1889>(Variant::Reversi1889);
    }
}
