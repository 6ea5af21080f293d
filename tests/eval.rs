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
            Evaluator::new(EvalKind::Linear),
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

/// A random network whose rows are symmetrised the way training makes them (every member
/// of a mirror class carries its representative's row), with random heads.
fn random_network(seed: u64) -> PatternWeights {
    random_network_sets(seed, 1)
}

/// [`random_network`] with `sets` row sets, each its own random rows.
fn random_network_sets(seed: u64, sets: usize) -> PatternWeights {
    random_network_with(seed, sets, false)
}

/// [`random_network_sets`] over the extended features or the linear evaluation's.
fn random_network_with(seed: u64, sets: usize, extended: bool) -> PatternWeights {
    use volte::eval::network::{Network, ROW_LIMIT, WIDTH};
    let canon = pattern::canonical_net();
    let mut rng = Lcg(seed);
    let mut unit = || (rng.next() % 2001) as f32 / 1000.0 - 1.0;
    let mut net = Network::zeros_with(sets, extended);
    let per = net.features_per_set();
    let limit = (ROW_LIMIT * volte::eval::network::QA as f32) as i64;
    let raw: Vec<[i16; WIDTH]> = (0..sets * per)
        .map(|_| std::array::from_fn(|_| ((unit() as f64) * limit as f64 / 4.0) as i16))
        .collect();
    for (j, row) in net.rows.iter_mut().enumerate() {
        row.0 = raw[(j / per) * per + canon[j % per] as usize];
    }
    for v in net.bias.0.iter_mut().skip(1) {
        *v = 60;
    }
    let mut heads = net.heads().to_vec();
    for h in heads.iter_mut() {
        for w in h.w1.iter_mut().flatten() {
            *w = unit();
        }
        for (b, w) in h.b1.iter_mut().zip(h.w2.iter_mut()) {
            *b = unit() * 0.5;
            *w = unit();
        }
        h.b2 = unit();
        h.linear = unit();
    }
    net.set_heads(heads);
    PatternWeights::network(Variant::Othello, net)
}

#[test]
fn a_network_evaluates_the_same_by_every_path_and_symmetry() {
    check_network_paths(random_network(17));
}

#[test]
fn a_network_of_three_row_sets_evaluates_the_same_by_every_path_and_symmetry() {
    check_network_paths(random_network_sets(19, 3));
}

#[test]
fn an_extended_network_evaluates_the_same_by_every_path_and_symmetry() {
    check_network_paths(random_network_with(37, 1, true));
}

/// An extended network's file says so (its pattern-set id), round-trips, and reads its
/// extra rows: zeroing them changes the evaluation. A classic network file whose rows are
/// counted as extended ones is refused.
#[test]
fn extended_network_files_round_trip_and_read_the_extra_rows() {
    use volte::eval::weights::WeightFileError;
    let w = random_network_with(41, 1, true);
    let bytes = w.to_bytes();
    assert_eq!(
        u32::from_le_bytes(bytes[12..16].try_into().unwrap()),
        pattern::NET_EXTENDED_SET_ID
    );
    let back = PatternWeights::from_bytes(&bytes).unwrap();
    assert!(back == w);
    let net = back.as_network().expect("a network");
    assert!(net.is_extended());
    assert_eq!(net.rows.len(), pattern::N_NET_WEIGHTS);
    let mut cut = net.clone();
    for row in cut.rows[N_WEIGHTS..].iter_mut() {
        row.0 = [0; volte::eval::network::WIDTH];
    }
    let full = Evaluator::with_weights(Arc::new(back.clone()));
    let cut = Evaluator::with_weights(Arc::new(PatternWeights::network(Variant::Othello, cut)));
    let mut rng = Lcg(43);
    let states = random_states(Variant::Othello, 200, 60, &mut rng);
    let differ = states
        .iter()
        .filter(|s| {
            full.evaluate_variant(Variant::Othello, s) != cut.evaluate_variant(Variant::Othello, s)
        })
        .count();
    // (Random networks often reach the evaluation's bounds, where the rows cannot matter.)
    assert!(differ > 60, "{differ} of 200 positions read the extra rows");
    let classic = random_network(5).to_bytes();
    let mut v = classic.clone();
    v[12..16].copy_from_slice(&pattern::NET_EXTENDED_SET_ID.to_le_bytes());
    assert!(matches!(
        PatternWeights::from_bytes(&v),
        Err(WeightFileError::NetworkShape { .. })
    ));
}

fn check_network_paths(weights: PatternWeights) {
    use volte::rules::{Othello, Rules};
    let weights = Arc::new(weights);
    let e = Evaluator::with_weights(weights.clone());
    let mut rng = Lcg(23);
    let states = random_states(Variant::Othello, 1000, 60, &mut rng);
    let mut values = std::collections::HashSet::new();
    let mut children = 0;
    for s in &states {
        let value = e.evaluate_variant(Variant::Othello, s);
        values.insert(value);
        for sym in 1..8 {
            assert_eq!(
                e.evaluate_variant(Variant::Othello, &symmetric(s, sym)),
                value,
                "{:?} symmetry {sym}",
                s.pos
            );
        }
        let moves = Othello::legal_moves(&s.pos);
        assert_eq!(e.evaluate_with_moves::<Othello>(&s.pos, moves), value);
        let base = e
            .children_base::<Othello>(&s.pos)
            .expect("a pattern evaluation");
        for x in volte::bitboard::Bits(moves) {
            let child = Othello::play(&s.pos, x);
            let moves = Othello::legal_moves(&child);
            assert_eq!(
                e.evaluate_child::<Othello>(&base, &child, x, moves),
                e.evaluate_with_moves::<Othello>(&child, moves)
            );
            children += 1;
        }
    }
    assert!(children > 5000, "{children} children");
    // A network with random values is not constant, and not the shipped weights.
    assert!(values.len() > 50, "{} distinct values", values.len());
    let shipped = Evaluator::new(EvalKind::Pattern);
    assert!(
        states
            .iter()
            .any(|s| shipped.evaluate_variant(Variant::Othello, s)
                != e.evaluate_variant(Variant::Othello, s))
    );
    // The exact solver keeps its own (linear) weights.
    assert!(!e.for_solving().weights(Variant::Othello).is_network());
    assert!(e.weights(Variant::Reversi1889).is_network());
}

#[test]
fn network_files_round_trip_and_bad_ones_are_refused() {
    use volte::eval::weights::WeightFileError;
    let w = random_network(5);
    let bytes = w.to_bytes();
    assert_eq!(&bytes[..8], b"VOLTENET");
    let back = PatternWeights::from_bytes(&bytes).unwrap();
    assert!(back.is_network());
    assert!(back == w);
    let mut v = bytes.clone();
    v[17] = 8;
    assert!(matches!(
        PatternWeights::from_bytes(&v),
        Err(WeightFileError::NetworkShape { .. })
    ));
    assert!(matches!(
        PatternWeights::from_bytes(&bytes[..bytes.len() - 100]),
        Err(WeightFileError::Corrupt(_))
    ));
    assert!(matches!(
        PatternWeights::from_bytes(&bytes[..20]),
        Err(WeightFileError::Truncated)
    ));
}

/// Each row set serves its own phases: with the rows of the last set (41-60 empties) zero,
/// every position there evaluates as the bias alone, and the other sets still vary; a file
/// whose rows are not whole sets of a valid count is refused.
#[test]
fn row_sets_serve_their_own_phases_and_round_trip() {
    use volte::eval::network::Network;
    use volte::eval::weights::WeightFileError;
    let w = random_network_sets(29, 3);
    let bytes = w.to_bytes();
    let back = PatternWeights::from_bytes(&bytes).unwrap();
    assert!(back == w);
    let mut net: Network = back.as_network().expect("a network").clone();
    assert_eq!(net.sets(), 3);
    assert_eq!((net.set_of(20), net.set_of(21), net.set_of(41)), (0, 1, 2));
    for row in net.rows[2 * N_WEIGHTS..].iter_mut() {
        row.0 = [0; volte::eval::network::WIDTH];
    }
    let e = Evaluator::with_weights(Arc::new(PatternWeights::network(Variant::Othello, net)));
    let mut rng = Lcg(31);
    let states = random_states(Variant::Othello, 400, 60, &mut rng);
    let mut late = std::collections::HashMap::new();
    let mut early = std::collections::HashSet::new();
    for s in &states {
        let n = s.pos.n_empties();
        let v = e.evaluate_variant(Variant::Othello, s);
        if n >= 41 {
            // One value per phase (head): the accumulator is the bias alone.
            assert_eq!(*late.entry((n - 1) / 4).or_insert(v), v, "{n} empties");
        } else {
            early.insert(v);
        }
    }
    assert!(late.len() >= 3, "{} phases over 40 empties", late.len());
    assert!(early.len() > 50, "{} values under 41 empties", early.len());
    let mut v = bytes.clone();
    v[20..24].copy_from_slice(&(4 * N_WEIGHTS as u32).to_le_bytes());
    assert!(matches!(
        PatternWeights::from_bytes(&v),
        Err(WeightFileError::NetworkShape { .. })
    ));
}

#[test]
fn the_committed_network_loads_and_is_not_trivial() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/othello-network.vw");
    let e = Evaluator::from_options(None, Some(&path)).unwrap();
    assert!(e.weights(Variant::Othello).is_network());
    let mut rng = Lcg(11);
    let states = random_states(Variant::Othello, 300, 55, &mut rng);
    let values: std::collections::HashSet<i32> = states
        .iter()
        .map(|s| e.evaluate_variant(Variant::Othello, s))
        .collect();
    assert!(values.len() > 20, "the network gives {values:?}");
    // It agrees with the shipped linear weights, fitted to the same kind of labels, far
    // beyond chance on the same positions.
    let linear = Evaluator::new(EvalKind::Linear);
    let pairs: Vec<(f64, f64)> = states
        .iter()
        .map(|s| {
            (
                f64::from(e.evaluate_variant(Variant::Othello, s)),
                f64::from(linear.evaluate_variant(Variant::Othello, s)),
            )
        })
        .collect();
    let n = pairs.len() as f64;
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let cov: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let (vx, vy): (f64, f64) = (
        pairs.iter().map(|p| (p.0 - mx).powi(2)).sum(),
        pairs.iter().map(|p| (p.1 - my).powi(2)).sum(),
    );
    let r = cov / (vx * vy).sqrt();
    assert!(r > 0.6, "correlation with the linear weights {r:.2}");
}

/// The default evaluation plays Othello and Reversi 1889 with the embedded network (the
/// committed file's), Anti with linear tables; `linear` plays every variant with them, and
/// a weight file cannot go with `linear` or `classic`.
#[test]
fn the_default_is_the_network_where_one_is_shipped() {
    use volte::rules::{Anti, Othello, Reversi1889};
    let default = Evaluator::default();
    assert_eq!(default.kind(), EvalKind::Pattern);
    assert!(default.is_network::<Othello>());
    assert!(default.is_network::<Reversi1889>());
    assert!(!default.is_network::<Anti>());
    let linear = Evaluator::new(EvalKind::Linear);
    assert!(!linear.is_network::<Othello>() && !linear.is_network::<Reversi1889>());
    assert!(!Evaluator::new(EvalKind::Classic).is_network::<Othello>());
    // The embedded network is the committed file.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/othello-network.vw");
    let file = Evaluator::from_options(None, Some(&path)).unwrap();
    let mut rng = Lcg(12);
    let states = random_states(Variant::Othello, 300, 58, &mut rng);
    let mut differ = 0;
    for s in &states {
        let d = default.evaluate_variant(Variant::Othello, s);
        assert_eq!(d, file.evaluate_variant(Variant::Othello, s), "{:?}", s.pos);
        differ += usize::from(d != linear.evaluate_variant(Variant::Othello, s));
    }
    assert!(
        differ > 100,
        "the network and the linear tables differ on {differ} of 300"
    );
    for kind in ["linear", "classic"] {
        let kind: EvalKind = kind.parse().unwrap();
        let err = Evaluator::from_options(Some(kind), Some(&path)).unwrap_err();
        assert!(err.to_string().contains(&format!("--eval {kind}")), "{err}");
    }
    assert!(Evaluator::from_options(Some(EvalKind::Pattern), Some(&path)).is_ok());
    assert_eq!("linear".parse::<EvalKind>().unwrap().to_string(), "linear");
}
