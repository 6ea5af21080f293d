use super::*;
use crate::formats::transcript;

fn sq(name: &str) -> u8 {
    Square::parse(name).unwrap().index()
}

fn state_after(moves: &str) -> State {
    *transcript::parse(moves, Variant::Othello)
        .unwrap()
        .current()
}

fn key_after(moves: &str) -> Key {
    normalise(&state_after(moves).pos).0
}

/// The leaf of the position after `moves`, given in that position's orientation.
fn leaf(moves: &str, mv: &str, score: i8) -> (Key, Leaf) {
    let state = state_after(moves);
    (
        key_after(moves),
        Leaf {
            mv: normalise_square(&state.pos, sq(mv)),
            score,
            depth: 10,
            exact: false,
        },
    )
}

/// Start, f5 and the three replies d6, f4, f6 in the book; every position but the start
/// has a searched leaf.
fn small_book() -> Book {
    let mut book = Book::new(Variant::Othello);
    for line in ["", "f5", "f5d6", "f5f4", "f5f6"] {
        book.insert(key_after(line));
    }
    for (line, mv, score) in [
        ("f5", "f6", -5), // f5's best move outside the book: f6 is in it, so stale below
        ("f5d6", "c3", 2),
        ("f5f4", "e3", 4),
        ("f5f6", "e6", 7),
    ] {
        let (k, l) = leaf(line, mv, score);
        book.set_leaf(k, l);
    }
    // The start: every move leads to f5 (by symmetry), so no move leaves the book.
    book.set_leaf(book.root(), Leaf::NONE);
    book
}

#[test]
fn normalise_picks_one_image_and_maps_moves_back() {
    let s = state_after("f5d6c3");
    let (key, sym) = normalise(&s.pos);
    for t in 0..8 {
        let image = s.pos.symmetry(t);
        assert_eq!(normalise(&image).0, key);
    }
    assert_eq!(s.pos.symmetry(sym), key.position());
    for x in Bits(s.pos.legal_moves()) {
        assert_eq!(
            inverse_symmetry_square(normalise_square(&s.pos, x), sym),
            x,
            "square {x}"
        );
    }
}

#[test]
fn backup_is_negamax_over_links_and_leaves() {
    let mut book = small_book();
    // f5's leaf (f6) now leads into the book: it needs a new search.
    assert_eq!(book.invalidate_linked_leaves(), 1);
    assert_eq!(book.stale(0), vec![key_after("f5")]);
    let (state, mask) = book.leaf_moves(key_after("f5"));
    assert_eq!(state.pos.legal_moves().count_ones(), 3);
    assert_eq!(mask, 0, "every reply to f5 is in the book");
    book.set_leaf(key_after("f5"), Leaf::NONE);
    book.backup();
    let value = |line: &str| book.get(&key_after(line)).unwrap().value.unwrap().score;
    assert_eq!(value("f5d6"), 2);
    assert_eq!(value("f5f4"), 4);
    assert_eq!(value("f5f6"), 7);
    // White after f5 picks the reply best for white: d6 (black then gets only +2).
    assert_eq!(value("f5"), -2);
    assert_eq!(value(""), 2);
    let line = book.principal_line(&Variant::Othello.start_state(), 10);
    let text: String = line.iter().map(|m| m.to_string()).collect();
    // The first move is one of the four symmetric ones; then the perpendicular reply and
    // black's leaf move c3 in that orientation.
    let replayed = transcript::parse(&text, Variant::Othello).unwrap();
    assert_eq!(replayed.moves().len(), 3);
    assert_eq!(key_after(&text), key_after("f5d6c3"));

    // A better leaf at the start (as if a move left the book) wins the max.
    let mut b2 = book.clone();
    b2.set_leaf(
        b2.root(),
        Leaf {
            mv: sq("f5"),
            score: 9,
            depth: 3,
            exact: false,
        },
    );
    b2.backup();
    assert_eq!(b2.get(&b2.root()).unwrap().value.unwrap().score, 9);
}

#[test]
fn moves_are_the_same_from_every_symmetric_image() {
    let mut book = small_book();
    book.set_leaf(key_after("f5"), Leaf::NONE);
    book.backup();
    let s = state_after("f5");
    let reference = book.moves(&s);
    assert_eq!(reference.len(), 3);
    assert_eq!(reference[0].square.to_string(), "d6");
    assert_eq!(reference[0].score, -2);
    assert_eq!(reference[2].score, -7);
    for t in 0..8 {
        let image = State::from_position(s.pos.symmetry(t));
        let moves = book.moves(&image);
        assert_eq!(moves.len(), reference.len());
        for (m, r) in moves.iter().zip(&reference) {
            assert_eq!(m.score, r.score);
            assert_eq!(
                m.square.index(),
                crate::bitboard::symmetry_square(r.square.index(), t),
                "symmetry {t}"
            );
        }
    }
    // The leaf move of a position is given in the position's own orientation.
    let d6 = state_after("f5d6");
    let image = State::from_position(d6.pos.symmetry(5));
    let m = &book.moves(&image)[0];
    assert!(m.is_leaf);
    assert_eq!(
        m.square.index(),
        crate::bitboard::symmetry_square(sq("c3"), 5)
    );
    // Not in the book: nothing.
    assert!(book.moves(&state_after("f5d6c3")).is_empty());
}

#[test]
fn file_round_trip_keeps_every_entry() {
    let mut book = small_book();
    book.learn(
        &[transcript::parse("f5d6c3d3c4", Variant::Othello).unwrap()],
        5,
        1,
    );
    let bytes = book.to_bytes();
    let read = Book::from_bytes(&bytes).unwrap();
    assert_eq!(read.sorted_entries().len(), book.len());
    for ((k1, e1), (k2, e2)) in read.sorted_entries().iter().zip(book.sorted_entries()) {
        assert_eq!(*k1, k2);
        assert_eq!(e1.games, e2.games);
        assert_eq!(e1.leaf, e2.leaf);
    }
    // The same bytes again (the order of building does not matter).
    assert_eq!(read.to_bytes(), bytes);
}

#[test]
fn bad_files_are_refused() {
    let good = small_book().to_bytes();
    assert_eq!(
        Book::from_bytes(b"VOLTEVAL...."),
        Err(BookFileError::NotBook)
    );
    assert_eq!(Book::from_bytes(&good[..10]), Err(BookFileError::Truncated));
    let mut v = good.clone();
    v[8] = 9;
    assert_eq!(Book::from_bytes(&v), Err(BookFileError::Version(9)));
    let mut v = good.clone();
    v[10] = 7;
    assert_eq!(Book::from_bytes(&v), Err(BookFileError::Variant(7)));
    let mut v = good.clone();
    v[12] += 1;
    assert!(matches!(
        Book::from_bytes(&v),
        Err(BookFileError::Corrupt(_))
    ));
    let mut v = good.clone();
    let last = v.len() - 6;
    v[last] ^= 0x40;
    assert!(matches!(
        Book::from_bytes(&v),
        Err(BookFileError::Corrupt(_))
    ));
    // An entry that is not in its normal orientation.
    let mut book = Book::new(Variant::Othello);
    let s = state_after("f5d6");
    let (key, sym) = normalise(&s.pos);
    assert_ne!(
        sym, 0,
        "the test needs a position that is not already normal"
    );
    book.insert_entry(
        Key {
            player: s.pos.player,
            opponent: s.pos.opponent,
        },
        Entry {
            games: 1,
            leaf: None,
            value: None,
        },
    );
    assert_ne!(key.player, s.pos.player);
    assert!(matches!(
        Book::from_bytes(&book.to_bytes()),
        Err(BookFileError::BadEntry { index: 0, .. })
    ));
}

#[test]
fn learn_adds_lines_played_often_enough_and_counts_games() {
    let games: Vec<Game> = ["f5d6c3d3c4", "f5d6c3d3c4f4", "f5d6c5f4e3", "f5f6e6f4"]
        .iter()
        .map(|t| transcript::parse(t, Variant::Othello).unwrap())
        .collect();
    let mut book = Book::new(Variant::Othello);
    let (added, used) = book.learn(&games, 4, 2);
    assert_eq!(used, 4);
    // Reached by >= 2 games within 4 plies: start, f5, f5d6, f5d6c3, f5d6c3d3.
    assert_eq!(added, 5);
    assert_eq!(book.get(&book.root()).unwrap().games, 4);
    assert_eq!(book.get(&key_after("f5d6")).unwrap().games, 3);
    assert_eq!(book.get(&key_after("f5d6c3d3")).unwrap().games, 2);
    assert!(!book.contains(&key_after("f5f6")));
    // Learning again adds to the counts of positions already there, whatever min_games.
    book.learn(&games[2..3], 2, 5);
    assert_eq!(book.get(&key_after("f5d6")).unwrap().games, 4);
    assert_eq!(book.len(), 5);
    assert_eq!(book.stale(0).len(), 5, "nothing has been searched yet");
}

#[test]
fn expansion_follows_the_lines_closest_to_best_play() {
    let mut book = small_book();
    book.set_leaf(key_after("f5"), Leaf::NONE);
    book.backup();
    // Path errors: d6 is white's best (0); f4 costs white 2, f6 costs 5.
    let c = book.expansion_candidates(3, 60);
    let keys: Vec<Key> = c.iter().map(|&(k, _)| k).collect();
    assert_eq!(keys, vec![key_after("f5d6"), key_after("f5f4")]);
    assert_eq!(c[1].1, 2);
    // Expanding f5d6 adds f5d6c3 and makes f5d6's leaf stale.
    let added = book.expand(key_after("f5d6")).unwrap();
    assert_eq!(added, key_after("f5d6c3"));
    assert!(book.get(&key_after("f5d6")).unwrap().leaf.is_none());
    assert_eq!(book.expand(key_after("f5d6")), None);
    // Candidates stop at max_ply.
    assert!(book.expansion_candidates(10, 2).is_empty());
}

#[test]
fn choose_keeps_to_the_margin() {
    let mut book = small_book();
    book.set_leaf(key_after("f5"), Leaf::NONE);
    book.backup();
    let s = state_after("f5");
    for r in 0..20 {
        let m = book.choose(&s, 0, r).unwrap().0;
        assert_eq!(m.square.to_string(), "d6");
        let m = book.choose(&s, 2, r).unwrap().0;
        assert!(["d6", "f4"].contains(&m.square.to_string().as_str()));
    }
    let picked: std::collections::HashSet<String> = (0..20)
        .map(|r| book.choose(&s, 10, r).unwrap().0.square.to_string())
        .collect();
    assert_eq!(picked.len(), 3);
    assert!(book.choose(&state_after("f5d6c3"), 10, 0).is_none());
}

#[test]
fn a_move_that_ends_the_game_is_scored_exactly() {
    // Black to move; a1 is black's only move and it flips b1, leaving no white disc.
    let pos = Position::new(0x04, 0x02);
    let state = State::from_position(pos);
    assert_eq!(
        child(Variant::Othello, &state, 0),
        Child::End(64),
        "all 64 squares to the winner"
    );
    let mut book = Book::new(Variant::Othello);
    let key = normalise(&pos).0;
    book.insert(key);
    let (_, mask) = book.leaf_moves(key);
    assert_eq!(mask, 0);
    book.set_leaf(key, Leaf::NONE);
    book.backup();
    let v = book.get(&key).unwrap().value.unwrap();
    assert_eq!((v.score, v.exact), (64, true));
    let moves = book.moves(&state);
    assert_eq!(moves.len(), 1);
    assert!(moves[0].exact);
}

#[test]
fn leaves_are_searched_to_horizons_of_one_parity() {
    let mut book = small_book();
    // The start is ply 0, f5 ply 1, f5d6 ply 2.
    assert_eq!(book.ply(book.root()), 0);
    assert_eq!(book.leaf_depth(book.root(), 16), 16);
    assert_eq!(book.leaf_depth(key_after("f5"), 16), 15);
    assert_eq!(book.leaf_depth(key_after("f5d6"), 16), 16);
    assert_eq!(book.leaf_depth(key_after("f5d6"), 15), 14);
    // small_book's leaves are depth 10 at ply 2 (f5d6, f5f4, f5f6) and ply 1 (f5).
    book.set_leaf(key_after("f5"), Leaf::NONE);
    assert!(book.stale(10).is_empty(), "depth 10 at ply 2 is right");
    // Deepening to 12 re-searches them all; at 11 a ply-2 leaf wants 10 (11 brought
    // down to its parity), which it has.
    assert_eq!(book.stale(12).len(), 3);
    assert!(book.stale(11).is_empty());
    // A leaf of the wrong parity is stale even when deep enough.
    let (k, mut l) = leaf("f5d6", "c3", 2);
    l.depth = 11;
    book.set_leaf(k, l);
    assert_eq!(book.stale(10), vec![k]);
    assert_eq!(book.stale(0), Vec::<Key>::new());
}
