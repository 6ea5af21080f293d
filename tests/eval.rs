//! The pattern evaluation: the same value for all eight symmetries of a position (shipped
//! weights and random symmetrised ones), weight files from `--eval-file`, and the trained
//! evaluation's error on real games.

mod common;

use common::{Lcg, random_states};
use std::sync::Arc;
use volte::eval::pattern::{self, N_STAGES, N_WEIGHTS};
use volte::eval::{EvalKind, Evaluator, PatternWeights};
use volte::rules::{State, Variant};

fn symmetric(s: &State, sym: u8) -> State {
    State {
        pos: s.pos.symmetry(sym),
        ..*s
    }
}

/// Random weights (not symmetrised), so that reading a wrong index almost always changes
/// the value.
fn random_weights(variant: Variant, seed: u64) -> PatternWeights {
    let mut w = PatternWeights::zeros(variant);
    let mut rng = Lcg(seed);
    for s in 0..N_STAGES {
        for x in w.stage_mut(s) {
            *x = (rng.next() % 2001) as i16 - 1000;
        }
    }
    w
}

#[test]
fn children_evaluate_the_same_from_the_parents_indices() {
    use volte::rules::{Anti, Othello, Rules};
    fn check<R: Rules<S = volte::board::Position>>(e: &Evaluator, states: &[State]) -> usize {
        let mut checked = 0;
        for s in states {
            let base = e
                .children_base::<R>(&s.pos)
                .expect("the pattern evaluation in Othello and Anti");
            for x in volte::bitboard::Bits(R::legal_moves(&s.pos)) {
                let child = R::play(&s.pos, x);
                let moves = R::legal_moves(&child);
                assert_eq!(
                    e.evaluate_child::<R>(&base, &child, x, moves),
                    e.evaluate_with_moves::<R>(&child, moves),
                    "{:?} then {x}",
                    s.pos
                );
                checked += 1;
            }
        }
        checked
    }
    let mut rng = Lcg(7);
    let mut checked = 0;
    for v in [Variant::Othello, Variant::Anti] {
        let evaluators = [
            Evaluator::new(EvalKind::Pattern),
            Evaluator::with_weights(Arc::new(random_weights(v, 3))),
        ];
        let states = random_states(v, 1000, 60, &mut rng);
        for e in &evaluators {
            checked += match v {
                Variant::Othello => check::<Othello>(e, &states),
                _ => check::<Anti>(e, &states),
            };
        }
        assert!(
            Evaluator::new(EvalKind::Classic)
                .children_base::<Othello>(&states[0].pos)
                .is_none()
        );
    }
    assert!(checked > 10_000, "{checked} children checked");
}

#[test]
fn all_eight_symmetries_evaluate_the_same() {
    // Random weights made symmetric the way training makes them: every member of a
    // mirror class carries its representative's weight.
    let canon = pattern::canonical();
    let mut random = PatternWeights::zeros(Variant::Othello);
    let mut rng = Lcg(99);
    for s in 0..N_STAGES {
        let raw: Vec<i16> = (0..N_WEIGHTS)
            .map(|_| (rng.next() % 601) as i16 - 300)
            .collect();
        let table = random.stage_mut(s);
        for j in 0..N_WEIGHTS {
            table[j] = raw[canon[j] as usize];
        }
    }
    let evaluators = [
        Evaluator::new(EvalKind::Pattern),
        Evaluator::new(EvalKind::Pattern).for_solving(),
        Evaluator::with_weights(Arc::new(random)),
        Evaluator::new(EvalKind::Classic),
    ];
    let mut checked = 0;
    for v in Variant::ALL {
        for s in random_states(v, 2000, 60, &mut rng) {
            for e in &evaluators {
                let value = e.evaluate_variant(v, &s);
                for sym in 1..8 {
                    assert_eq!(
                        e.evaluate_variant(v, &symmetric(&s, sym)),
                        value,
                        "{v} {:?} symmetry {sym} ({})",
                        s.pos,
                        e.kind()
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 2000 * 4);
}

#[test]
fn evaluation_given_the_moves_is_the_evaluation() {
    use volte::rules::{Anti, Othello, Reversi1889, Rules};
    fn check<R: Rules>(e: &Evaluator, states: &[State]) -> usize {
        let mut over = 0;
        for s in states {
            let r = R::from_state(s);
            let moves = R::legal_moves(&r);
            over += usize::from(moves == 0 && R::legal_moves(&R::pass(&r)) == 0);
            assert_eq!(
                e.evaluate_with_moves::<R>(&r, moves),
                e.evaluate::<R>(&r),
                "{:?} {:?} ({})",
                R::VARIANT,
                s.pos,
                e.kind()
            );
        }
        over
    }
    let mut rng = Lcg(1889);
    let mut over = 0;
    for e in [
        Evaluator::new(EvalKind::Pattern),
        Evaluator::new(EvalKind::Classic),
    ] {
        // Up to 60 empties, and positions played to the end (finished games included).
        for max_empties in [60, 6] {
            over += check::<Othello>(
                &e,
                &random_states(Variant::Othello, 500, max_empties, &mut rng),
            );
            over += check::<Anti>(
                &e,
                &random_states(Variant::Anti, 500, max_empties, &mut rng),
            );
            over += check::<Reversi1889>(
                &e,
                &random_states(Variant::Reversi1889, 500, max_empties, &mut rng),
            );
        }
    }
    assert!(over > 0, "no finished game among the positions");
}

#[test]
fn shipped_weights_are_not_trivial() {
    // The test above would pass with all-zero tables; make sure these are not.
    let e = Evaluator::new(EvalKind::Pattern);
    let mut rng = Lcg(5);
    let states = random_states(Variant::Othello, 200, 50, &mut rng);
    let distinct: std::collections::HashSet<i32> = states
        .iter()
        .map(|s| e.evaluate_variant(Variant::Othello, s))
        .collect();
    assert!(distinct.len() > 10, "the shipped weights give {distinct:?}");
    // The solver's weights are not trivial either, and not the playing ones.
    let solving = e.for_solving();
    let values: Vec<(i32, i32)> = states
        .iter()
        .map(|s| {
            (
                e.evaluate_variant(Variant::Othello, s),
                solving.evaluate_variant(Variant::Othello, s),
            )
        })
        .collect();
    let distinct: std::collections::HashSet<i32> = values.iter().map(|v| v.1).collect();
    assert!(
        distinct.len() > 10,
        "the solver's weights give {distinct:?}"
    );
    assert!(values.iter().any(|(a, b)| a != b));
}

#[test]
fn eval_file_errors_are_clear() {
    let dir = std::env::temp_dir().join(format!("volte-eval-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.vw");
    let err = Evaluator::from_options(None, Some(&missing)).unwrap_err();
    assert!(format!("{err:#}").contains("cannot read"), "{err:#}");
    let junk = dir.join("junk.vw");
    std::fs::write(&junk, "this is not a weight file").unwrap();
    let err = Evaluator::from_options(None, Some(&junk)).unwrap_err();
    assert!(
        format!("{err:#}").contains("not a volte weight file"),
        "{err:#}"
    );
    // A good file round-trips and serves its variant.
    let good = dir.join("anti.vw");
    PatternWeights::embedded(Variant::Anti).save(&good).unwrap();
    let e = Evaluator::from_options(None, Some(&good)).unwrap();
    assert_eq!(e.weights(Variant::Anti).variant(), Variant::Anti);
    // It serves the solver too.
    assert!(Arc::ptr_eq(
        e.for_solving().weights(Variant::Anti),
        e.weights(Variant::Anti)
    ));
    let othello = dir.join("othello.vw");
    PatternWeights::embedded(Variant::Othello)
        .save(&othello)
        .unwrap();
    let e = Evaluator::from_options(None, Some(&othello)).unwrap();
    for v in [Variant::Othello, Variant::Reversi1889] {
        assert_eq!(
            e.for_solving().weights(v).as_ref(),
            PatternWeights::embedded(Variant::Othello).as_ref()
        );
    }
    assert!(Evaluator::from_options(Some(EvalKind::Classic), Some(&good)).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
