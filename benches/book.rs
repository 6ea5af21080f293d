//! Opening-book lookups: the book moves of the start position and of a position eight
//! plies deep (each: normalise by the 8 symmetries, find the entry, resolve every legal
//! move's child), the engine's whole answer from the book (`think` with `book`), and
//! loading the shipped book (decompressing and checking every entry, then backing up the
//! values).
//!
//! Run: `cargo bench --bench book`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use volte::book::Book;
use volte::engine::{Engine, EngineOptions, Limits};
use volte::formats::transcript;
use volte::rules::Variant;

fn bench(c: &mut Criterion) {
    let Some(book) = Book::shipped(Variant::Othello) else {
        eprintln!("volte was built without a book: nothing to measure");
        return;
    };
    let start = Variant::Othello.start_state();
    let deep = *transcript::parse("f5d6c3d3c4f4c5b3", Variant::Othello)
        .expect("a legal line")
        .current();
    let mut g = c.benchmark_group("book");
    g.bench_function("moves at the start", |b| {
        b.iter(|| book.moves(black_box(&start)))
    });
    g.bench_function("moves at ply 8", |b| {
        b.iter(|| book.moves(black_box(&deep)))
    });
    let engine = Engine::new(EngineOptions {
        hash_mb: 1,
        book: Some(book.clone()),
        ..EngineOptions::default()
    });
    let limits = Limits {
        book: true,
        ..Limits::level(16)
    };
    g.bench_function("engine move at the start", |b| {
        b.iter(|| engine.think(Variant::Othello, black_box(&start), &limits, &mut |_| {}))
    });
    let bytes = book.to_bytes();
    g.sample_size(10);
    g.bench_function("load the shipped book", |b| {
        b.iter(|| Book::from_bytes(black_box(&bytes)).expect("a valid book"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
