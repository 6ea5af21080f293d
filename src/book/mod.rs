//! The opening book: positions normalised by symmetry, each with the best move outside the
//! book found by a search (the *leaf*), the number of games learnt through it, and — after
//! [`Book::backup`] — its negamax value over the book's moves and that leaf.
//!
//! The book knows nothing of searching: whoever grows it ([`Book::learn`],
//! [`Book::expand`]) asks it which positions need their leaf searched
//! ([`Book::stale`]) and hands the results back ([`Book::set_leaf`]). The builder
//! (`crate::jobs::bookbuild`) does that in parallel; the engine does it for NBoard's `learn`.
//!
//! Scores are disc differences for the side to move. A position is stored only when the
//! side to move has a legal move; a move after which the opponent must pass leads to the
//! position with the same side to move again, and a move that ends the game is scored
//! exactly without any entry.

mod file;

pub use file::{BookFileError, FORMAT_VERSION, MAGIC};

use crate::bitboard::{Bits, inverse_symmetry_square};
use crate::board::Position;
use crate::game::Game;
use crate::rules::{State, Variant};
use crate::square::{Move, Square};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

static OTHELLO_BOOK: &[u8] = include_bytes!("../../book/othello.vbk");

/// No leaf move (every legal move is in the book, or none has been searched).
pub const NO_MOVE: u8 = 64;

/// A position normalised by symmetry: the smallest `(player, opponent)` of its 8 images.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Key {
    pub player: u64,
    pub opponent: u64,
}

impl Key {
    pub fn position(self) -> Position {
        Position::new(self.player, self.opponent)
    }
}

/// The key of `pos` and the symmetry that maps `pos` onto it.
pub fn normalise(pos: &Position) -> (Key, u8) {
    let mut best = (
        Key {
            player: pos.player,
            opponent: pos.opponent,
        },
        0,
    );
    for sym in 1..8 {
        let image = pos.symmetry(sym);
        let key = Key {
            player: image.player,
            opponent: image.opponent,
        };
        if key < best.0 {
            best = (key, sym);
        }
    }
    best
}

/// `square` of `pos` in the orientation of `pos`'s key.
pub fn normalise_square(pos: &Position, square: u8) -> u8 {
    crate::bitboard::symmetry_square(square, normalise(pos).1)
}

/// The searched best move among the moves that leave the book.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Leaf {
    /// The move, in the key's orientation; [`NO_MOVE`] when no move leaves the book.
    pub mv: u8,
    /// Its score for the side to move.
    pub score: i8,
    /// Search depth (plies); for an exact score, the empties solved.
    pub depth: u8,
    /// The score is the exact final score.
    pub exact: bool,
}

impl Leaf {
    /// The leaf of a position whose every move is in the book.
    pub const NONE: Leaf = Leaf {
        mv: NO_MOVE,
        score: 0,
        depth: 0,
        exact: false,
    };
}

/// One book position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Games (or lines) learnt through this position.
    pub games: u32,
    /// The best move outside the book; `None` while it needs a search.
    pub leaf: Option<Leaf>,
    /// The negamax value after [`Book::backup`]; `None` while unknown.
    pub value: Option<Value>,
}

/// A backed-up score with the depth of the search it comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Value {
    pub score: i8,
    pub depth: u8,
    pub exact: bool,
}

/// What a move from a book position leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Child {
    /// The game is over; the exact score for the player who moved.
    End(i8),
    /// A position (with a move for its side to move). `same_side` is true when the
    /// opponent had to pass, so its value counts for the mover as it is; otherwise negated.
    Node { key: Key, same_side: bool },
}

/// The position after `square` is played in `state` (a legal move).
pub fn child(variant: Variant, state: &State, square: u8) -> Child {
    let next = variant.play(state, square);
    if variant.legal_moves(&next) != 0 {
        return Child::Node {
            key: normalise(&next.pos).0,
            same_side: false,
        };
    }
    let passed = next.pass();
    if variant.legal_moves(&passed) != 0 {
        return Child::Node {
            key: normalise(&passed.pos).0,
            same_side: true,
        };
    }
    Child::End(clamp_score(-variant.final_score(&next)))
}

fn clamp_score(v: i32) -> i8 {
    v.clamp(-64, 64) as i8
}

/// The state a key stands for (the disc supply of Reversi 1889 inferred from the board).
pub fn key_state(key: Key) -> State {
    State::from_position(key.position())
}

/// A book move of a position, in that position's orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub square: Square,
    /// Its value for the side to move.
    pub score: i32,
    /// The depth of the search the value comes from (the empties when exact).
    pub depth: u32,
    pub exact: bool,
    /// Games learnt through the position it leads to (0 for the leaf move).
    pub games: u32,
    /// The move is the searched leaf, not a book position.
    pub is_leaf: bool,
    /// The line the book expects after it (the move first).
    pub line: Vec<Move>,
}

/// Counts for `volte book stats`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub positions: usize,
    /// Positions by ply (discs on the board minus the start's).
    pub by_ply: Vec<usize>,
    /// Leaves by search depth; exact leaves are counted under `exact_leaves`.
    pub leaves_by_depth: Vec<(u8, usize)>,
    pub exact_leaves: usize,
    /// Positions whose leaf still needs a search.
    pub stale: usize,
    /// Positions whose every move is in the book.
    pub closed: usize,
    pub games_at_root: u32,
}

/// The opening book of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    variant: Variant,
    entries: HashMap<Key, Entry>,
}

impl Book {
    /// An empty book.
    pub fn new(variant: Variant) -> Book {
        Book {
            variant,
            entries: HashMap::new(),
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The book volte ships for `variant` (Othello only; `book/othello.vbk`, embedded
    /// in the binary), read once.
    pub fn shipped(variant: Variant) -> Option<Arc<Book>> {
        static BOOK: OnceLock<Option<Arc<Book>>> = OnceLock::new();
        if variant != Variant::Othello {
            return None;
        }
        BOOK.get_or_init(|| {
            let book = Book::from_bytes(OTHELLO_BOOK).expect("the shipped book is valid");
            (!book.is_empty()).then(|| Arc::new(book))
        })
        .clone()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, key: &Key) -> Option<&Entry> {
        self.entries.get(key)
    }

    pub fn contains(&self, key: &Key) -> bool {
        self.entries.contains_key(key)
    }

    /// All entries, in key order (the file's order).
    pub fn sorted_entries(&self) -> Vec<(Key, Entry)> {
        let mut v: Vec<(Key, Entry)> = self.entries.iter().map(|(k, e)| (*k, *e)).collect();
        v.sort_unstable_by_key(|&(k, _)| k);
        v
    }

    /// Adds `key` (a position whose side to move has a move) with no leaf yet, or does
    /// nothing when it is there. Returns true when it was added; the leaves that now lead
    /// into the book are marked for a new search.
    pub fn insert(&mut self, key: Key) -> bool {
        if self.entries.contains_key(&key) {
            return false;
        }
        self.entries.insert(
            key,
            Entry {
                games: 0,
                leaf: None,
                value: None,
            },
        );
        true
    }

    /// Inserts an entry as read from a file.
    pub(crate) fn insert_entry(&mut self, key: Key, entry: Entry) {
        self.entries.insert(key, entry);
    }

    /// The root of the book: the variant's start position.
    pub fn root(&self) -> Key {
        normalise(&self.variant.start_position()).0
    }

    /// Marks for a new search every leaf whose move now leads to a book position (its
    /// search chose among moves some of which are no longer outside the book). Returns how
    /// many were marked.
    pub fn invalidate_linked_leaves(&mut self) -> usize {
        let variant = self.variant;
        let linked: Vec<Key> = self
            .entries
            .iter()
            .filter_map(|(key, e)| {
                let leaf = e.leaf?;
                if leaf.mv == NO_MOVE {
                    return None;
                }
                match child(variant, &key_state(*key), leaf.mv) {
                    Child::Node { key: c, .. } if self.entries.contains_key(&c) => Some(*key),
                    _ => None,
                }
            })
            .collect();
        for key in &linked {
            if let Some(e) = self.entries.get_mut(key) {
                e.leaf = None;
            }
        }
        linked.len()
    }

    /// Plies from the variant's start to `key`.
    pub fn ply(&self, key: Key) -> u32 {
        let start = self.variant.start_position().occupied().count_ones();
        (key.player | key.opponent)
            .count_ones()
            .saturating_sub(start)
    }

    /// The depth to search the leaf of `key` for a book of depth `depth`: `depth`, or one
    /// less where needed for every search to end on a ply of the same parity. A search's
    /// score leans towards the side that moved last before its horizon (that side chose
    /// its best-looking move by the evaluation alone); with all horizons on plies of one
    /// parity the lean is the same for every leaf, so the negamax compares like with
    /// like. (Leaves searched from neighbouring plies to the same depth differ in lean by
    /// some discs, and the back-up then favours whichever lines end on the lucky parity.)
    pub fn leaf_depth(&self, key: Key, depth: u32) -> u32 {
        let depth = depth.max(1);
        if (self.ply(key) + depth).is_multiple_of(2) {
            depth
        } else {
            depth.saturating_sub(1).max(1)
        }
    }

    /// The positions whose leaf needs a search (`min_depth`: also the leaves searched less
    /// deeply than [`Book::leaf_depth`] for it, or to a horizon of the other parity,
    /// unless exact), in key order.
    pub fn stale(&self, min_depth: u8) -> Vec<Key> {
        let mut v: Vec<Key> = self
            .entries
            .iter()
            .filter(|(k, e)| match e.leaf {
                None => true,
                Some(l) if l.mv == NO_MOVE || l.exact || min_depth == 0 => false,
                // A search goes no deeper than the empties of its position.
                Some(l) => {
                    let empties = k.position().n_empties();
                    let wanted = self.leaf_depth(**k, u32::from(min_depth));
                    let reachable = wanted.min(empties);
                    let wrong_parity = (self.ply(**k) + u32::from(l.depth)) % 2
                        != (self.ply(**k) + wanted) % 2
                        && u32::from(l.depth) < empties;
                    u32::from(l.depth) < reachable || wrong_parity
                }
            })
            .map(|(k, _)| *k)
            .collect();
        v.sort_unstable();
        v
    }

    /// The state of `key` and the moves its leaf search must choose among (those leading
    /// to positions outside the book); no moves means the leaf is [`Leaf::NONE`].
    pub fn leaf_moves(&self, key: Key) -> (State, u64) {
        let state = key_state(key);
        let mut mask = 0;
        for x in Bits(self.variant.legal_moves(&state)) {
            if let Child::Node { key: c, .. } = child(self.variant, &state, x)
                && !self.entries.contains_key(&c)
            {
                mask |= 1u64 << x;
            }
        }
        (state, mask)
    }

    /// Adds what `other` (a book of the same positions, such as another shard of the same
    /// build) knows: its positions this book lacks, and its searched leaves where this
    /// book's leaf is not searched. Values are backed up again.
    pub fn merge_from(&mut self, other: &Book) {
        for (key, e) in &other.entries {
            let mine = self.entries.entry(*key).or_insert(Entry {
                games: e.games,
                leaf: None,
                value: None,
            });
            if mine.leaf.is_none() {
                mine.leaf = e.leaf;
            }
        }
        self.backup();
    }

    /// Records the leaf search of `key` (in the key's orientation).
    pub fn set_leaf(&mut self, key: Key, leaf: Leaf) {
        if let Some(e) = self.entries.get_mut(&key) {
            e.leaf = Some(leaf);
        }
    }

    /// Adds the first `plies` plies of each game (from the variant's start position;
    /// others are skipped) as lines: every position reached by at least `min_games` of
    /// them is added, and every position's game count grows by the games through it.
    /// Returns (positions added, games used).
    pub fn learn(&mut self, games: &[Game], plies: usize, min_games: u32) -> (usize, usize) {
        let mut counts: HashMap<Key, u32> = HashMap::new();
        let mut used = 0;
        for game in games {
            if game.variant() != self.variant || !game.has_standard_start() {
                continue;
            }
            used += 1;
            let mut seen = Vec::new();
            for state in game.states().iter().take(plies + 1) {
                let state = if self.variant.legal_moves(state) != 0 {
                    *state
                } else if self.variant.legal_moves(&state.pass()) != 0 {
                    state.pass()
                } else {
                    break;
                };
                let key = normalise(&state.pos).0;
                if !seen.contains(&key) {
                    seen.push(key);
                }
            }
            for key in seen {
                *counts.entry(key).or_default() += 1;
            }
        }
        let mut added = 0;
        let mut keys: Vec<(Key, u32)> = counts.into_iter().collect();
        keys.sort_unstable();
        for (key, n) in keys {
            if n >= min_games || self.entries.contains_key(&key) {
                added += usize::from(self.insert(key));
                if let Some(e) = self.entries.get_mut(&key) {
                    e.games = e.games.saturating_add(n);
                }
            }
        }
        self.invalidate_linked_leaves();
        (added, used)
    }

    /// Computes every position's negamax value: the best of its leaf, its moves into the
    /// book and its moves that end the game.
    pub fn backup(&mut self) {
        let mut keys: Vec<Key> = self.entries.keys().copied().collect();
        // Children have more discs than their parents (a move adds one): value the
        // positions with the most discs first.
        keys.sort_unstable_by_key(|k| std::cmp::Reverse((k.player | k.opponent).count_ones()));
        for key in keys {
            let value = self.value_from_children(key);
            if let Some(e) = self.entries.get_mut(&key) {
                e.value = value;
            }
        }
    }

    /// What playing `x` in `state` (a key's state) leads to, and its value for the side
    /// to move: exact when the move ends the game, the child's value (negated unless the
    /// opponent must pass) when the child is in the book with a value, else `None`.
    fn move_value(&self, state: &State, x: u8) -> (Child, Option<Value>) {
        let c = child(self.variant, state, x);
        let v = match c {
            Child::End(score) => Some(Value {
                score,
                depth: 0,
                exact: true,
            }),
            Child::Node { key, same_side } => {
                self.entries.get(&key).and_then(|e| e.value).map(|v| Value {
                    score: if same_side { v.score } else { -v.score },
                    ..v
                })
            }
        };
        (c, v)
    }

    fn value_from_children(&self, key: Key) -> Option<Value> {
        let entry = self.entries.get(&key)?;
        let mut best: Option<Value> = entry.leaf.filter(|l| l.mv != NO_MOVE).map(|l| Value {
            score: l.score,
            depth: l.depth,
            exact: l.exact,
        });
        let state = key_state(key);
        for x in Bits(self.variant.legal_moves(&state)) {
            if let (_, Some(v)) = self.move_value(&state, x)
                && best.is_none_or(|b| v.score > b.score)
            {
                best = Some(v);
            }
        }
        best
    }

    /// The book moves of `state` (any orientation), best first: the moves into book
    /// positions with a value, the moves that end the game, and the leaf. Empty when the
    /// position is not in the book (or the side to move must pass: look up the position
    /// after the pass).
    pub fn moves(&self, state: &State) -> Vec<BookMove> {
        let (key, sym) = normalise(&state.pos);
        let Some(entry) = self.entries.get(&key) else {
            return Vec::new();
        };
        let kstate = key_state(key);
        let mut out = Vec::new();
        for x in Bits(self.variant.legal_moves(&kstate)) {
            let square = Square::from_index(inverse_symmetry_square(x, sym));
            match child(self.variant, &kstate, x) {
                Child::End(score) => out.push(BookMove {
                    square,
                    score: i32::from(score),
                    depth: kstate.pos.n_empties() - 1,
                    exact: true,
                    games: 0,
                    is_leaf: false,
                    line: vec![Move::Play(square)],
                }),
                Child::Node { key: c, same_side } => {
                    let Some(ce) = self.entries.get(&c) else {
                        continue;
                    };
                    let Some(v) = ce.value else { continue };
                    let next = self.variant.play(state, square.index());
                    let mut line = vec![Move::Play(square)];
                    if same_side {
                        line.push(Move::Pass);
                        line.extend(self.principal_line(&next.pass(), 30));
                    } else {
                        line.extend(self.principal_line(&next, 30));
                    }
                    out.push(BookMove {
                        square,
                        score: if same_side {
                            i32::from(v.score)
                        } else {
                            -i32::from(v.score)
                        },
                        depth: u32::from(v.depth),
                        exact: v.exact,
                        games: ce.games,
                        is_leaf: false,
                        line,
                    });
                }
            }
        }
        if let Some(leaf) = entry.leaf.filter(|l| l.mv != NO_MOVE) {
            let square = Square::from_index(inverse_symmetry_square(leaf.mv, sym));
            out.push(BookMove {
                square,
                score: i32::from(leaf.score),
                depth: u32::from(leaf.depth),
                exact: leaf.exact,
                games: 0,
                is_leaf: true,
                line: vec![Move::Play(square)],
            });
        }
        // Best first; among equals the most played, then the lower square.
        out.sort_by_key(|m| (-m.score, std::cmp::Reverse(m.games), m.square.index()));
        out
    }

    /// The book's best line from `state`: its best moves while they stay in the book (at
    /// most `max_len`), ending with the leaf move when that is best.
    pub fn principal_line(&self, state: &State, max_len: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut state = *state;
        while line.len() < max_len {
            if self.variant.legal_moves(&state) == 0 {
                let passed = state.pass();
                if self.variant.legal_moves(&passed) == 0 {
                    break;
                }
                line.push(Move::Pass);
                state = passed;
                continue;
            }
            let (key, sym) = normalise(&state.pos);
            let Some(entry) = self.entries.get(&key) else {
                break;
            };
            let Some(value) = entry.value else { break };
            // The move that gives the value: the leaf or a book child.
            let kstate = key_state(key);
            let mut best: Option<u8> = None;
            for x in Bits(self.variant.legal_moves(&kstate)) {
                if self.move_value(&kstate, x).1.map(|v| v.score) == Some(value.score) {
                    best = Some(x);
                    break;
                }
            }
            let leaf_best = entry
                .leaf
                .filter(|l| l.mv != NO_MOVE && l.score == value.score);
            match (best, leaf_best) {
                (Some(x), _) => {
                    let x = inverse_symmetry_square(x, sym);
                    line.push(Move::Play(Square::from_index(x)));
                    state = self.variant.play(&state, x);
                }
                (None, Some(leaf)) => {
                    let x = inverse_symmetry_square(leaf.mv, sym);
                    line.push(Move::Play(Square::from_index(x)));
                    break;
                }
                (None, None) => break,
            }
        }
        line
    }

    /// A move to play from `state`: among the book moves within `margin` discs of the
    /// best, one picked by `random` (a number used modulo the count; 0 = the best), with
    /// the discs it gives away against the best. `None` when the position is not in the
    /// book.
    pub fn choose(&self, state: &State, margin: i32, random: u64) -> Option<(BookMove, i32)> {
        let moves = self.moves(state);
        let best = moves.first()?.score;
        let close: Vec<&BookMove> = moves
            .iter()
            .filter(|m| m.score >= best - margin.max(0))
            .collect();
        let pick = (random % close.len() as u64) as usize;
        Some((close[pick].clone(), best - close[pick].score))
    }

    /// Positions whose leaf is worth adding to the book, best first, for a best-first
    /// expansion: each position's *path error* is the least total of (value of a position
    /// − value of the move taken) over the book lines reaching it from the root; a
    /// position's leaf is a candidate when that error plus the leaf's own shortfall is at
    /// most `margin`, the position has fewer than `max_ply` plies and the leaf is not
    /// exact. Ties go to the most played positions. Call after [`Book::backup`].
    pub fn expansion_candidates(&self, margin: i32, max_ply: u32) -> Vec<(Key, i32)> {
        let start_discs = self.variant.start_position().occupied().count_ones();
        let root = self.root();
        let mut error: HashMap<Key, i32> = HashMap::new();
        if !self.entries.contains_key(&root) {
            return Vec::new();
        }
        error.insert(root, 0);
        let mut keys: Vec<Key> = self.entries.keys().copied().collect();
        keys.sort_unstable_by_key(|k| ((k.player | k.opponent).count_ones(), *k));
        let mut candidates = Vec::new();
        for key in keys {
            let Some(&err) = error.get(&key) else {
                continue;
            };
            let entry = &self.entries[&key];
            let Some(value) = entry.value else { continue };
            let value = i32::from(value.score);
            let state = key_state(key);
            for x in Bits(self.variant.legal_moves(&state)) {
                if let (Child::Node { key: c, .. }, Some(v)) = self.move_value(&state, x) {
                    let e = err + (value - i32::from(v.score));
                    if e <= margin {
                        let slot = error.entry(c).or_insert(i32::MAX);
                        *slot = (*slot).min(e);
                    }
                }
            }
            let ply = (key.player | key.opponent).count_ones() - start_discs;
            if let Some(leaf) = entry.leaf
                && leaf.mv != NO_MOVE
                && !leaf.exact
                && ply < max_ply
            {
                let e = err + (value - i32::from(leaf.score));
                if e <= margin {
                    candidates.push((key, e, entry.games));
                }
            }
        }
        candidates.sort_unstable_by_key(|&(k, e, g)| (e, std::cmp::Reverse(g), k));
        candidates.into_iter().map(|(k, e, _)| (k, e)).collect()
    }

    /// Adds the position the leaf of `key` leads to; the leaf of `key` and the new
    /// position then need a search. Returns the new position's key, or `None` when there
    /// is no such leaf or it is already there.
    pub fn expand(&mut self, key: Key) -> Option<Key> {
        let leaf = self.entries.get(&key)?.leaf?;
        if leaf.mv == NO_MOVE {
            return None;
        }
        let Child::Node { key: c, .. } = child(self.variant, &key_state(key), leaf.mv) else {
            return None;
        };
        if !self.insert(c) {
            return None;
        }
        if let Some(e) = self.entries.get_mut(&key) {
            e.leaf = None;
        }
        Some(c)
    }

    /// Counts for `volte book stats`.
    pub fn stats(&self) -> Stats {
        let start_discs = self.variant.start_position().occupied().count_ones() as usize;
        let mut s = Stats {
            positions: self.entries.len(),
            ..Stats::default()
        };
        let mut depths: HashMap<u8, usize> = HashMap::new();
        for (key, e) in &self.entries {
            let ply =
                ((key.player | key.opponent).count_ones() as usize).saturating_sub(start_discs);
            if s.by_ply.len() <= ply {
                s.by_ply.resize(ply + 1, 0);
            }
            s.by_ply[ply] += 1;
            match e.leaf {
                None => s.stale += 1,
                Some(l) if l.mv == NO_MOVE => s.closed += 1,
                Some(l) if l.exact => s.exact_leaves += 1,
                Some(l) => *depths.entry(l.depth).or_default() += 1,
            }
        }
        s.leaves_by_depth = depths.into_iter().collect();
        s.leaves_by_depth.sort_unstable();
        s.games_at_root = self.entries.get(&self.root()).map_or(0, |e| e.games);
        s
    }
}

#[cfg(test)]
mod tests;
