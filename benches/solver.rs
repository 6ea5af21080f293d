//! Endgame solver benchmarks: one thread, a fresh table per position.
//!
//! Run: `cargo bench --bench solver`. Before timing, each group solves its positions once
//! and checks the answers (against the FFO file's scores, or between the sequential and
//! the parallel solver for generated positions), and prints the node count, which is the
//! solver's signature: a refactor must leave it unchanged.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use volte::bitboard::Bits;
use volte::board::Position;
use volte::engine::{Engine, EngineOptions, SolveOptions};
use volte::formats::obf;
use volte::rules::{State, Variant};

/// Positions with `empties` empty squares from a fixed pseudo-random walk.
fn generated(count: usize, empties: u32) -> Vec<State> {
    let mut seed = 2026u64;
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::START;
        while pos.n_empties() > empties {
            let moves = pos.legal_moves();
            if moves == 0 {
                if pos.opponent_moves() == 0 {
                    break;
                }
                pos = pos.pass();
                continue;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let list: Vec<u8> = Bits(moves).collect();
            pos = pos.play(list[(seed >> 33) as usize % list.len()]);
        }
        if pos.n_empties() == empties {
            out.push(State::from_position(pos));
        }
    }
    out
}

fn solve_all(solver: &Engine, states: &[State]) -> (Vec<i32>, u64) {
    let mut nodes = 0;
    let scores = states
        .iter()
        .map(|s| {
            solver.clear();
            let r = solver.solve(Variant::Othello, s, &SolveOptions::default());
            nodes += r.nodes;
            r.score
        })
        .collect();
    (scores, nodes)
}

fn generated_endgames(c: &mut Criterion) {
    let solver = Engine::with_hash(64);
    let two_threads = Engine::new(EngineOptions {
        hash_mb: 64,
        threads: 2,
        ..EngineOptions::default()
    });
    let states = generated(8, 18);
    let (scores, nodes) = solve_all(&solver, &states);
    let (parallel, _) = solve_all(&two_threads, &states);
    assert_eq!(scores, parallel, "sequential and parallel solver disagree");
    let (again, nodes_again) = solve_all(&solver, &states);
    assert_eq!(
        (again, nodes_again),
        (scores, nodes),
        "the sequential solver is deterministic"
    );
    println!("generated 18-empty endgames: {nodes} nodes (signature)");
    let mut g = c.benchmark_group("solve_18_empties");
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("one_thread", |b| b.iter(|| solve_all(&solver, &states)));
    g.finish();
}

fn ffo_20_to_29(c: &mut Criterion) {
    let dir = std::env::var_os("VOLTE_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from("../shared/data"));
    let Ok(text) = std::fs::read_to_string(dir.join("ffo/fforum-20-39.obf")) else {
        println!("SKIPPED ffo_20_to_29: no FFO data");
        return;
    };
    let problems: Vec<_> = obf::parse_file(&text)
        .into_iter()
        .take(10)
        .map(Result::unwrap)
        .collect();
    let states: Vec<State> = problems
        .iter()
        .map(|p| *p.to_game(Variant::Othello).current())
        .collect();
    let solver = Engine::with_hash(64);
    let (scores, nodes) = solve_all(&solver, &states);
    for (p, s) in problems.iter().zip(&scores) {
        assert_eq!(Some(*s), p.best_score(), "line {}", p.line);
    }
    println!("FFO 20-29: {nodes} nodes (signature)");
    let mut g = c.benchmark_group("ffo_20_29");
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function("one_thread", |b| b.iter(|| solve_all(&solver, &states)));
    g.finish();
}

criterion_group!(benches, generated_endgames, ffo_20_to_29);
criterion_main!(benches);
