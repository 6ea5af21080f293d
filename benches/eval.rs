//! Evaluation cost: the pattern evaluation (46 pattern lookups, both mobilities, parity)
//! against the classic one, per call, on positions from openings to endgames; and the
//! pattern evaluation split into its two halves: computing the 49 indices, and summing the
//! weights at indices computed beforehand. The second half is what an incremental update
//! of the indices would leave, so the first is the most it could save. Then what the
//! searches do when they order moves: evaluating every child of a position, one by one
//! from its board, or from the parent's indices updated by each move
//! (`Evaluator::evaluate_child`).
//!
//! Run: `cargo bench --bench eval`.

mod common;

use common::sample_positions;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use volte::eval::{EvalKind, Evaluator};
use volte::rules::Othello;

fn bench(c: &mut Criterion) {
    let positions = sample_positions();
    let mut g = c.benchmark_group("evaluate");
    g.throughput(Throughput::Elements(positions.len() as u64));
    for kind in [EvalKind::Pattern, EvalKind::Classic] {
        let e = Evaluator::new(kind);
        g.bench_function(kind.to_string(), |b| {
            b.iter(|| {
                let mut sum = 0i64;
                for p in &positions {
                    sum += i64::from(e.evaluate::<Othello>(black_box(p)));
                }
                sum
            })
        });
    }
    let e = Evaluator::new(EvalKind::Pattern);
    let weights = e.weights(volte::rules::Variant::Othello).clone();
    let indexed: Vec<(usize, [u32; volte::eval::pattern::N_ACTIVE])> = positions
        .iter()
        .map(|p| {
            (
                volte::eval::pattern::stage(p.n_empties()),
                volte::eval::pattern::active(p, p.legal_moves(), p.opponent_moves()),
            )
        })
        .collect();
    g.bench_function("pattern indices only", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for p in &positions {
                let p = black_box(p);
                // Without the mobilities: an incremental update would still generate moves.
                let a = volte::eval::pattern::active(p, 0, 0);
                sum += u64::from(a[0] ^ a[20] ^ a[45]);
            }
            sum
        })
    });
    g.bench_function("pattern sum of precomputed indices", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for (stage, idx) in black_box(&indexed) {
                let table = weights.stage(*stage);
                sum += idx
                    .iter()
                    .map(|&i| i64::from(table[i as usize]))
                    .sum::<i64>();
            }
            sum
        })
    });
    g.finish();

    // Every child of every position that has moves, with its legal moves (the searches
    // have them when they order).
    use volte::rules::Rules;
    let parents: Vec<_> = positions
        .iter()
        .filter(|p| p.legal_moves() != 0)
        .copied()
        .collect();
    let children: usize = parents
        .iter()
        .map(|p| p.legal_moves().count_ones() as usize)
        .sum();
    let mut g = c.benchmark_group("evaluate children");
    g.throughput(Throughput::Elements(children as u64));
    g.bench_function("one by one", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for p in black_box(&parents) {
                for x in volte::bitboard::Bits(p.legal_moves()) {
                    let child = Othello::play(p, x);
                    let moves = child.legal_moves();
                    sum += i64::from(e.evaluate_with_moves::<Othello>(&child, moves));
                }
            }
            sum
        })
    });
    g.bench_function("from the parent's indices", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for p in black_box(&parents) {
                let base = e.children_base::<Othello>(p).expect("pattern evaluation");
                for x in volte::bitboard::Bits(p.legal_moves()) {
                    let child = Othello::play(p, x);
                    let moves = child.legal_moves();
                    sum += i64::from(e.evaluate_child::<Othello>(&base, &child, x, moves));
                }
            }
            sum
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
