//! The opening book as users meet it: the engine playing from it, NBoard's `hint` and
//! `learn`, the `volte book` commands, and the shipped book's coverage.

mod common;

use common::Scratch;
use std::io::Write;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use volte::book::{Book, normalise};
use volte::engine::ResultKind;
use volte::engine::{Engine, EngineOptions, Limits};
use volte::formats::transcript;
use volte::game::Game;
use volte::jobs::bookbuild::{self, SearchOptions};
use volte::progress::Quiet;
use volte::protocol::{ProtocolOptions, nboard};
use volte::rules::Variant;

fn games(lines: &[&str]) -> Vec<Game> {
    lines
        .iter()
        .map(|t| transcript::parse(t, Variant::Othello).unwrap())
        .collect()
}

/// A small book: two lines, leaves searched 3 plies deep.
fn small_book() -> Book {
    let mut book = Book::new(Variant::Othello);
    book.learn(&games(&["f5d6c3d3c4", "f5f6e6f4"]), 4, 1);
    let options = SearchOptions {
        depth: 3,
        hash_mb: 4,
        threads: 2,
        ..SearchOptions::default()
    };
    let searched = bookbuild::search_stale(&mut book, None, &options, &Quiet).unwrap();
    assert_eq!(searched, book.len());
    book
}

#[test]
fn builds_the_same_book_with_any_number_of_threads() {
    let mut one = Book::new(Variant::Othello);
    one.learn(&games(&["f5d6c3d3c4f4", "f5f6e6f4e3"]), 6, 1);
    let mut two = one.clone();
    let options = |threads| SearchOptions {
        depth: 4,
        hash_mb: 4,
        threads,
        ..SearchOptions::default()
    };
    bookbuild::search_stale(&mut one, None, &options(1), &Quiet).unwrap();
    bookbuild::search_stale(&mut two, None, &options(2), &Quiet).unwrap();
    bookbuild::expand(&mut one, None, 6, 8, 20, &options(1), &Quiet).unwrap();
    bookbuild::expand(&mut two, None, 6, 8, 20, &options(2), &Quiet).unwrap();
    assert_eq!(one.to_bytes(), two.to_bytes());
    assert_eq!(one.len(), 11 + 6);
    assert!(one.stale(0).is_empty());
}

#[test]
fn the_engine_plays_book_moves_only_when_asked() {
    let book = Arc::new(small_book());
    let engine = Engine::new(EngineOptions {
        hash_mb: 4,
        book: Some(book),
        ..EngineOptions::default()
    });
    let game = Game::new(Variant::Othello);
    let limits = Limits {
        book: true,
        ..Limits::depth(4)
    };
    let it = engine.think_game(&game, &limits, &mut |_| {}).unwrap();
    assert_eq!(it.kind, ResultKind::Book);
    assert!(["f5", "d3", "c4", "e6"].contains(&it.best_move.to_string().as_str()));
    assert_eq!(it.nodes, 0);
    // Analysis (no `book`) searches.
    let it = engine
        .think_game(&game, &Limits::depth(4), &mut |_| {})
        .unwrap();
    assert_eq!(it.kind, ResultKind::Midgame);
    // Out of the book: a search.
    let deep = transcript::parse("f5d6c3d3c4f4c5b3", Variant::Othello).unwrap();
    let it = engine.think_game(&deep, &limits, &mut |_| {}).unwrap();
    assert_ne!(it.kind, ResultKind::Book);
    // Another variant ignores an Othello book.
    let anti = Game::new(Variant::Anti);
    let it = engine.think_game(&anti, &limits, &mut |_| {}).unwrap();
    assert_ne!(it.kind, ResultKind::Book);
}

/// Collects what the NBoard loop writes.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn nboard_hint_shows_book_lines_and_learn_saves_the_game() {
    let dir = Scratch::new("book-nboard");
    let path = dir.join("learnt.vbk");
    let book = small_book();
    book.save(&path).unwrap();
    let before = book.len();
    let sink = Sink::default();
    let input = "nboard 2\n\
        set depth 3\n\
        set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)\n\
        hint 4\n\
        ping 1\n\
        set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F4]B[E3]W[F6]B[D3];)\n\
        ping 2\n\
        learn\n\
        ping 3\n\
        quit\n";
    nboard::run(
        input.as_bytes(),
        Box::new(sink.clone()),
        ProtocolOptions {
            level: Some(3),
            book_path: Some(path.clone()),
            engine: EngineOptions {
                hash_mb: 4,
                book: Some(Arc::new(book)),
                ..EngineOptions::default()
            },
            ..ProtocolOptions::default()
        },
    );
    let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
    let book_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("book ")).collect();
    // The start position: the four first moves, all with the same score.
    assert_eq!(book_lines.len(), 4, "{out}");
    for l in &book_lines {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 5, "{l}");
        assert!(["F5", "D3", "C4", "E6"].contains(&&f[1][..2]), "{l}");
        assert!(
            f[2].parse::<i32>().is_ok() && f[3].parse::<u32>().is_ok(),
            "{l}"
        );
        // Leaves are 3 plies deep, 2 from odd plies.
        assert!(f[4] == "3" || f[4] == "2", "{l}");
    }
    assert!(
        !out.contains("search "),
        "no search in a book position: {out}"
    );
    assert!(out.contains("learned"), "{out}");
    assert!(out.contains("status learned: "), "{out}");
    let learnt = Book::load(&path).unwrap();
    // f5 f4 e3 f6 d3: f5f4, f5f4e3, f5f4e3f6 and f5f4e3f6d3 are new.
    assert_eq!(learnt.len(), before + 4);
    let end = *transcript::parse("f5f4e3f6d3", Variant::Othello)
        .unwrap()
        .current();
    assert!(learnt.contains(&normalise(&end.pos).0));
    assert!(learnt.stale(0).is_empty());
}

/// In a book position, `hint n` answers `min(n, legal moves)` moves: the book's as `book`
/// lines, the others searched as `search` lines, each move once.
#[test]
fn nboard_hint_in_the_book_answers_the_other_moves_too() {
    let after = "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)";
    let game = volte::formats::ggf::parse_game(after).unwrap();
    let legal = game.legal_moves().count_ones() as usize;
    for n in [3, 64] {
        let sink = Sink::default();
        let input = format!("set depth 3\nset game {after}\nhint {n}\nquit\n");
        nboard::run(
            input.as_bytes(),
            Box::new(sink.clone()),
            ProtocolOptions {
                level: Some(3),
                engine: EngineOptions {
                    hash_mb: 4,
                    book: Some(Arc::new(small_book())),
                    ..EngineOptions::default()
                },
                ..ProtocolOptions::default()
            },
        );
        let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let first = |l: &str| l.split(' ').nth(1).unwrap()[..2].to_string();
        let book: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with("book "))
            .map(first)
            .collect();
        let search: Vec<&str> = out.lines().filter(|l| l.starts_with("search ")).collect();
        let last_depth = search.last().map(|l| l.rsplit(' ').next().unwrap());
        let mut searched: Vec<String> = search
            .iter()
            .filter(|l| l.rsplit(' ').next() == last_depth)
            .map(|l| first(l))
            .collect();
        assert!(!book.is_empty() && book.len() < 3, "{out}");
        assert_eq!(book.len() + searched.len(), n.min(legal), "{out}");
        searched.extend(book);
        searched.sort();
        searched.dedup();
        assert_eq!(searched.len(), n.min(legal), "each move once: {out}");
        for m in &searched {
            let mv = volte::square::Move::parse(m).unwrap();
            game.check(mv).unwrap();
        }
    }
}

fn volte(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_volte"))
        .args(args)
        .output()
        .expect("the volte binary runs")
}

#[test]
fn book_commands_learn_build_show_and_stats() {
    let dir = Scratch::new("book-cli");
    let lines = dir.join("lines.txt");
    std::fs::write(&lines, "f5d6c3d3c4\nf5f6e6f4\nf5d6c5f4e3\n").unwrap();
    let book = dir.join("b.vbk");
    let b = book.to_str().unwrap();
    let o = volte(&[
        "book",
        "learn",
        b,
        lines.to_str().unwrap(),
        "--plies",
        "4",
        "--depth",
        "3",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("3 games from the start position; 9 positions added"),
        "{out}"
    );
    let o = volte(&["book", "build", b, "--expand", "5", "--depth", "3"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("15 positions; 0 leaves searched, 5 positions added"),
        "{out}"
    );
    let o = volte(&["book", "show", "f5d6", "--book", b]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("move  score  depth  games  line"), "{out}");
    assert!(out.contains("c3 ") && out.contains("c5 "), "{out}");
    let o = volte(&["book", "stats", b]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("15 positions") && out.contains("start position:"),
        "{out}"
    );
    // Errors: one line, non-zero exit.
    let o = volte(&["book", "stats", dir.join("none.vbk").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read book"));
    std::fs::write(&lines, "not a book").unwrap();
    let o = volte(&["book", "show", "--book", lines.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a volte book"));
    let o = volte(&["book", "build", b, "--variant", "anti"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a book for othello"));
}

#[test]
fn the_shipped_book_answers_at_once() {
    let book = Book::shipped(Variant::Othello).expect("volte ships an Othello book");
    let start = Variant::Othello.start_state();
    let t = Instant::now();
    let moves = book.moves(&start);
    let first = t.elapsed();
    assert_eq!(moves.len(), 4, "the four first moves");
    assert!(moves.iter().all(|m| m.score.abs() <= 4));
    // (The time is printed, not asserted: `cargo bench --bench book` measures it.)
    eprintln!("book lookup at the start: {first:?}");
}

#[test]
#[cfg_attr(
    volte_no_data,
    ignore = "needs the shared data folder (set VOLTE_DATA)"
)]
fn the_shipped_book_covers_the_xot_openings() {
    let book = Book::shipped(Variant::Othello).expect("volte ships an Othello book");
    let data = common::data_dir();
    let text = std::fs::read_to_string(data.join("openings/xot-large.txt")).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let game = transcript::parse(line.trim(), Variant::Othello).unwrap();
        for state in game.states() {
            assert!(
                !book.moves(state).is_empty(),
                "{line}: a position is not in the book"
            );
            checked += 1;
        }
    }
    assert!(checked > 90_000);
}

#[test]
fn book_randomness_gives_away_at_most_its_discs_in_a_game() {
    let book = Book::shipped(Variant::Othello).expect("volte ships an Othello book");
    let engine = Engine::new(EngineOptions {
        hash_mb: 1,
        book: Some(book.clone()),
        book_randomness: 2,
        ..EngineOptions::default()
    });
    let limits = Limits {
        book: true,
        ..Limits::depth(1)
    };
    let mut lines = std::collections::HashSet::new();
    for seed in 0..30 {
        engine.set_book_seed(seed);
        engine.new_game();
        let mut game = Game::new(Variant::Othello);
        let mut given_away = 0;
        loop {
            let moves = book.moves(game.current());
            let Some(best) = moves.first().map(|m| m.score) else {
                break;
            };
            let it = engine.think_game(&game, &limits, &mut |_| {}).unwrap();
            assert_eq!(it.kind, ResultKind::Book);
            given_away += best - it.score;
            game.play(it.best_move).unwrap();
        }
        assert!(
            given_away <= 2,
            "seed {seed}: {given_away} discs given away"
        );
        assert!(game.moves().len() >= 8, "{}", game.transcript());
        lines.insert(game.transcript());
    }
    assert!(lines.len() >= 10, "varied games: {lines:?}");
}
