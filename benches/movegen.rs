//! Move generation benchmarks: legal moves and flips (vector and portable kernels), the
//! stable discs bound, and
//! perft from the start, including a baseline perft written directly on `Position` to
//! show that the variant layer (`Rules`) costs the standard game nothing.
//!
//! Run: `cargo bench --bench movegen`. Each group checks its reference count before
//! timing, so a wrong kernel cannot look fast.

mod common;

use common::sample_positions;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use volte::bitboard::Bits;
use volte::board::{self, Position};
use volte::jobs::perft::{perft, perft_variant};
use volte::rules::{Anti, Othello, Reversi1889, State, Variant};

/// The baseline: perft on `Position` with no rules layer at all.
fn perft_baseline(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if moves == 0 {
        let passed = pos.pass();
        if passed.legal_moves() == 0 {
            return 1;
        }
        return perft_baseline(&passed, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut n = 0;
    for sq in Bits(moves) {
        n += perft_baseline(&pos.play(sq), depth - 1);
    }
    n
}

fn kernels(c: &mut Criterion) {
    let positions = sample_positions();
    let pairs: Vec<(Position, u8)> = positions
        .iter()
        .flat_map(|p| Bits(p.legal_moves()).map(move |sq| (*p, sq)))
        .collect();
    // Reference: both kernels agree before we time them.
    for &(p, sq) in &pairs {
        assert_eq!(
            board::flips(p.player, p.opponent, sq),
            board::flips_portable(p.player, p.opponent, sq)
        );
    }
    let mut g = c.benchmark_group("kernels");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("legal_moves", |b| {
        b.iter(|| {
            positions.iter().fold(0u64, |acc, p| {
                acc ^ board::legal_moves(black_box(p.player), p.opponent)
            })
        })
    });
    g.bench_function("legal_moves_portable", |b| {
        b.iter(|| {
            positions.iter().fold(0u64, |acc, p| {
                acc ^ board::legal_moves_portable(black_box(p.player), p.opponent)
            })
        })
    });
    g.bench_function("stable_discs", |b| {
        b.iter(|| {
            positions.iter().fold(0u64, |acc, p| {
                acc ^ volte::stability::stable_discs(black_box(p.player), p.opponent)
            })
        })
    });
    g.throughput(Throughput::Elements(pairs.len() as u64));
    g.bench_function("flips", |b| {
        b.iter(|| {
            pairs.iter().fold(0u64, |acc, (p, sq)| {
                acc ^ board::flips(black_box(p.player), p.opponent, *sq)
            })
        })
    });
    g.bench_function("flips_portable", |b| {
        b.iter(|| {
            pairs.iter().fold(0u64, |acc, (p, sq)| {
                acc ^ board::flips_portable(black_box(p.player), p.opponent, *sq)
            })
        })
    });
    g.finish();
}

fn perft_start(c: &mut Criterion) {
    const D9: u64 = 3_005_288;
    const D12: u64 = 1_939_886_636;
    let start = Position::START;
    let arranged = State {
        pos: Position::START,
        player_supply: 30,
        opponent_supply: 30,
    };
    assert_eq!(perft::<Othello>(&start, 9), D9);
    assert_eq!(perft_baseline(&start, 9), D9);
    assert_eq!(perft::<Anti>(&start, 9), D9);
    assert_eq!(perft::<Reversi1889>(&arranged, 9), D9);

    let mut g = c.benchmark_group("perft9");
    g.throughput(Throughput::Elements(D9));
    g.bench_function("baseline_position", |b| {
        b.iter(|| perft_baseline(black_box(&start), 9))
    });
    g.bench_function("othello", |b| {
        b.iter(|| perft::<Othello>(black_box(&start), 9))
    });
    g.bench_function("anti", |b| b.iter(|| perft::<Anti>(black_box(&start), 9)));
    g.bench_function("reversi1889", |b| {
        b.iter(|| perft::<Reversi1889>(black_box(&arranged), 9))
    });
    g.bench_function("othello_dispatched", |b| {
        b.iter(|| perft_variant(Variant::Othello, black_box(&arranged), 9))
    });
    g.finish();

    let mut g = c.benchmark_group("perft12");
    g.sample_size(10);
    g.sampling_mode(criterion::SamplingMode::Flat);
    g.throughput(Throughput::Elements(D12));
    g.bench_function("othello", |b| {
        b.iter(|| perft::<Othello>(black_box(&start), 12))
    });
    g.finish();
}

criterion_group!(benches, kernels, perft_start);
criterion_main!(benches);
