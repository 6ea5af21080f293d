//! The engine facade: owns the transposition table, the evaluation and the threads; given
//! a position and limits it thinks, reports each iteration through a callback, and can be
//! stopped at any moment from another thread. Protocols and the command line talk to
//! the engine only through this module.

use crate::book::{self, Book, BookMove, Leaf};
use crate::eval::Evaluator;
use crate::game::Game;
use crate::rules::{Anti, Othello, Reversi1889, Rules, State, Variant};
use crate::search::Shared;
use crate::search::control::Control;
use crate::search::driver::{self, Plan};
use crate::search::endgame;
use crate::search::mpc::N_SELECTIVITIES;
use crate::search::time::{self, TimeBudget};
use crate::search::tt::TranspositionTable;
use crate::square::{Move, Square};
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

// What the protocols, jobs and command line need of the search, so that they reach it
// through this module only.
pub use crate::search::control::{Clock, ManualClock, SystemClock};
pub use crate::search::driver::{Iteration, Line, ResultKind};
pub use crate::search::endgame::{SolveMode, SolveOptions, SolveResult};
pub use crate::search::mpc::{SELECTIVITY_PERCENT, shallow_depth};
pub use crate::search::time::GameClock;

/// Highest level.
pub const MAX_LEVEL: u32 = 60;
/// The level used when nothing else limits the search.
pub const DEFAULT_LEVEL: u32 = 16;
/// Selectivity of midgame searches unless asked otherwise (index into the Multi-ProbCut
/// confidences, `mpc::SELECTIVITY_PERCENT`; 0 = none): 5 cuts at 73% confidence, chosen
/// by match at equal time (`docs/history.md`).
pub const DEFAULT_SELECTIVITY: u8 = 5;

/// Selectivity under a level (95%): a search capped at the level's depth, as the GUIs
/// ask for it, plays well below at 73% (30% of 20 games against 95% through NBoard at
/// level 16 and 0.1 s a move), where time, not depth, is what 73% saves.
pub const LEVEL_SELECTIVITY: u8 = 3;

/// What a level means: midgame depth and the empties from which the endgame is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub depth: u32,
    pub exact_empties: u32,
    pub wld_empties: u32,
}

impl Level {
    /// Level `n` (1..=60): midgame depth `n`; exact solve from `2n` empties up to level 10,
    /// then from `n + 10` (at most 30); win/loss/draw two empties earlier above level 10.
    pub fn new(n: u32) -> Level {
        let n = n.clamp(1, MAX_LEVEL);
        let exact = if n <= 10 { 2 * n } else { (n + 10).min(30) };
        let wld = if n <= 10 { exact } else { exact + 2 };
        Level {
            depth: n,
            exact_empties: exact,
            wld_empties: wld,
        }
    }
}

/// How long or how deep to think.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// A level (depth and endgame solve depths).
    pub level: Option<u32>,
    /// A fixed midgame depth (no endgame solve before the depth reaches the end).
    pub depth: Option<u32>,
    /// Multi-ProbCut selectivity (0 = off); `None` for the default.
    pub selectivity: Option<u8>,
    /// Time for this move.
    pub move_time: Option<Duration>,
    /// The game clock of the side to move.
    pub clock: Option<GameClock>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search only this move (to score a move played).
    pub only_move: Option<Square>,
    /// Score this many best moves exactly (0 or 1: only the best), as `hint n` asks.
    pub lines: usize,
    /// Choose among these root moves only (a mask of squares).
    pub root_moves: Option<u64>,
    /// With `depth`: solve exactly from this many empties (a level sets its own).
    pub solve_from: Option<u32>,
    /// Play from the opening book when the position is in it (to play a game, not to
    /// analyse one).
    pub book: bool,
}

impl Limits {
    pub fn level(n: u32) -> Limits {
        Limits {
            level: Some(n),
            ..Limits::default()
        }
    }

    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// The search plan for a position with `n_empties`.
    pub fn plan(&self, n_empties: u32) -> Plan {
        let timed = self.move_time.is_some() || self.clock.is_some();
        let ((depth, exact, wld), by_level) = match (self.depth, self.level) {
            (Some(d), _) => (
                (
                    d,
                    self.solve_from.unwrap_or(0),
                    self.solve_from.unwrap_or(0),
                ),
                false,
            ),
            (None, Some(l)) => {
                let level = Level::new(l);
                ((level.depth, level.exact_empties, level.wld_empties), true)
            }
            // Time or nodes alone: deepen until they run out.
            (None, None) if timed || self.nodes.is_some() => ((MAX_LEVEL, 0, 0), false),
            (None, None) => {
                let level = Level::new(DEFAULT_LEVEL);
                ((level.depth, level.exact_empties, level.wld_empties), true)
            }
        };
        let time = match (self.move_time, self.clock) {
            (_, Some(clock)) => Some(time::budget(&clock, n_empties)),
            (Some(t), None) => Some(TimeBudget::fixed(t)),
            (None, None) => None,
        };
        Plan {
            depth,
            selectivity: self
                .selectivity
                .unwrap_or(if by_level {
                    LEVEL_SELECTIVITY
                } else {
                    DEFAULT_SELECTIVITY
                })
                .min(N_SELECTIVITIES as u8 - 1),
            exact_empties: exact,
            wld_empties: wld,
            time,
            play_forced_at_once: timed,
            only_move: self.only_move.map(Square::index),
            lines: self.lines.max(1),
            root_moves: self.root_moves,
        }
    }
}

/// The transposition table of an engine unless said otherwise, in MiB.
pub const DEFAULT_HASH_MB: usize = 256;

/// How to build an engine: the one options type, embedded by the protocols, the terminal
/// game and the match runner. Each default is in [`EngineOptions::default`].
#[derive(Clone)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub eval: Evaluator,
    /// The opening book to play from (`None`: none).
    pub book: Option<Arc<Book>>,
    /// Book randomness: play any book move within this many discs of the best, as long
    /// as the discs given away so far in the game add up to at most this many (0: always
    /// the best).
    pub book_randomness: i32,
    /// Seed of the choices among book moves.
    pub book_seed: u64,
    /// The clock time limits are measured on (tests use a simulated one).
    pub clock: Arc<dyn Clock>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            eval: Evaluator::default(),
            book: None,
            book_randomness: 0,
            book_seed: 0,
            clock: Arc::new(SystemClock::default()),
        }
    }
}

impl EngineOptions {
    /// These options with the book choices seeded from the time of day, so that every
    /// session of a GUI varies its random book moves.
    pub fn seeded_by_time(self) -> EngineOptions {
        EngineOptions {
            book_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            ..self
        }
    }
}

impl std::fmt::Debug for EngineOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineOptions")
            .field("hash_mb", &self.hash_mb)
            .field("threads", &self.threads)
            .field("eval", &self.eval)
            .field("book", &self.book.as_ref().map(|b| b.len()))
            .field("book_randomness", &self.book_randomness)
            .field("book_seed", &self.book_seed)
            .finish_non_exhaustive()
    }
}

/// Why [`Engine::learn`] learnt nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LearnError {
    #[error("no opening book of the game's variant to learn into")]
    NoBook,
    #[error("learning was interrupted: the book is unchanged")]
    Stopped,
}

/// Stops the engine's current search from another thread.
#[derive(Clone)]
pub struct StopHandle(Arc<Control>);

impl StopHandle {
    pub fn stop(&self) {
        self.0.stop();
    }
}

/// The engine.
pub struct Engine {
    tt: TranspositionTable,
    control: Arc<Control>,
    eval: Evaluator,
    threads: usize,
    pool: Option<rayon::ThreadPool>,
    book: RwLock<Option<Arc<Book>>>,
    book_randomness: i32,
    book_draws: AtomicU64,
    /// Discs given away by random book choices in this game.
    book_spent: AtomicI32,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let threads = options.threads.max(1);
        let pool = (threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .ok()
            })
            .flatten();
        Engine {
            tt: TranspositionTable::new(options.hash_mb),
            control: Arc::new(Control::new(options.clock)),
            eval: options.eval,
            threads: if pool.is_some() { threads } else { 1 },
            pool,
            book: RwLock::new(options.book),
            book_randomness: options.book_randomness,
            book_draws: AtomicU64::new(options.book_seed),
            book_spent: AtomicI32::new(0),
        }
    }

    /// An engine with a table of `hash_mb` mebibytes and the other options' defaults (one
    /// thread, the shipped evaluation, no book): what a solve or a plain search needs.
    pub fn with_hash(hash_mb: usize) -> Engine {
        Engine::new(EngineOptions {
            hash_mb,
            ..EngineOptions::default()
        })
    }

    /// Restarts the random choices among book moves from `seed` (a match seeds each game,
    /// so that it can be replayed).
    pub fn set_book_seed(&self, seed: u64) {
        self.book_draws.store(seed, Ordering::Relaxed);
    }

    /// The opening book, if any.
    pub fn book(&self) -> Option<Arc<Book>> {
        self.book.read().ok().and_then(|b| b.clone())
    }

    /// The book moves of `state`, best first (empty when it is not in the book).
    pub fn book_moves(&self, variant: Variant, state: &State) -> Vec<BookMove> {
        match self.book() {
            Some(book) if book.variant() == variant && book_applies(variant, state) => {
                book.moves(state)
            }
            _ => Vec::new(),
        }
    }

    /// The book's answer for `state`, as an iteration, when it is in the book.
    fn book_iteration(&self, variant: Variant, state: &State) -> Option<Iteration> {
        let book = self.book()?;
        if book.variant() != variant || !book_applies(variant, state) {
            return None;
        }
        let draw = self.book_draws.fetch_add(1, Ordering::Relaxed);
        let left = self.book_randomness - self.book_spent.load(Ordering::Relaxed);
        let (m, given_away) = book.choose(state, left.max(0), splitmix(draw))?;
        self.book_spent.fetch_add(given_away, Ordering::Relaxed);
        Some(Iteration {
            depth: m.depth,
            probability: 100,
            kind: ResultKind::Book,
            score: m.score,
            best_move: Move::Play(m.square),
            pv: m.line,
            nodes: 0,
            time: Duration::ZERO,
            lines: Vec::new(),
        })
    }

    /// Searches the leaf of a book position: the best of the moves in `mask` to `depth`
    /// plies, solved exactly from `solve_from` empties.
    pub fn search_leaf(
        &self,
        variant: Variant,
        state: &State,
        mask: u64,
        depth: u32,
        solve_from: u32,
    ) -> Leaf {
        if mask == 0 {
            return Leaf::NONE;
        }
        let limits = Limits {
            depth: Some(depth),
            solve_from: Some(solve_from),
            root_moves: Some(mask),
            ..Limits::default()
        };
        match self.think(variant, state, &limits, &mut |_| {}) {
            Some(Iteration {
                best_move: Move::Play(sq),
                score,
                depth,
                kind,
                ..
            }) => Leaf {
                mv: book::normalise_square(&state.pos, sq.index()),
                score: score.clamp(-64, 64) as i8,
                depth: depth.min(255) as u8,
                exact: kind == ResultKind::Exact,
            },
            _ => Leaf::NONE,
        }
    }

    /// Adds `game`'s first `plies` plies to the book and has `searcher` (this engine or
    /// another one, so that learning can go on while this one plays) search the leaves
    /// that changed (to `depth`, exact from `solve_from` empties). Returns the positions
    /// added and the leaves searched. When the searcher is stopped the book is left as
    /// it was.
    pub fn learn(
        &self,
        searcher: &Engine,
        game: &Game,
        plies: usize,
        depth: u32,
        solve_from: u32,
    ) -> Result<(usize, usize), LearnError> {
        let mut book = match self.book() {
            Some(b) if b.variant() == game.variant() => (*b).clone(),
            _ => return Err(LearnError::NoBook),
        };
        let (added, _) = book.learn(std::slice::from_ref(game), plies, 1);
        let stale = book.stale(0);
        for key in &stale {
            let (state, mask) = book.leaf_moves(*key);
            let depth = book.leaf_depth(*key, depth);
            let leaf = searcher.search_leaf(book.variant(), &state, mask, depth, solve_from);
            if searcher.control.stopped() {
                return Err(LearnError::Stopped);
            }
            book.set_leaf(*key, leaf);
        }
        book.backup();
        if let Ok(mut slot) = self.book.write() {
            *slot = Some(Arc::new(book));
        }
        Ok((added, stale.len()))
    }

    /// A handle that stops the running search (the engine answers with what it has).
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.control))
    }

    /// A new game: random book choices may again give away up to the randomness.
    pub fn new_game(&self) {
        self.book_spent.store(0, Ordering::Relaxed);
    }

    /// Forgets everything learnt in earlier searches, for a new game.
    pub fn clear(&self) {
        self.new_game();
        self.tt.clear();
    }

    /// Solves `state` exactly (or win/loss/draw) with the engine's table and threads,
    /// ordering moves with the solver's weights ([`Evaluator::for_solving`]). The table is
    /// kept between calls ([`Engine::clear`] forgets it); stopped from another thread, the
    /// result is meaningless.
    pub fn solve(&self, variant: Variant, state: &State, options: &SolveOptions) -> SolveResult {
        match variant {
            Variant::Othello => self.solve_generic::<Othello>(&state.pos, options),
            Variant::Anti => self.solve_generic::<Anti>(&state.pos, options),
            Variant::Reversi1889 => self.solve_generic::<Reversi1889>(state, options),
        }
    }

    fn solve_generic<R: Rules>(&self, s: &R::S, options: &SolveOptions) -> SolveResult {
        let start = Instant::now();
        self.control.start(None, None);
        self.tt.new_search();
        let solving = self.eval.for_solving();
        let shared = Shared {
            tt: &self.tt,
            control: &self.control,
            eval: &solving,
            threads: self.threads,
        };
        let run = || endgame::root::solve::<R>(&shared, s, options);
        let mut result = match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        result.time = start.elapsed();
        result
    }

    /// Nodes searched so far by the running (or last) search, for progress reports from
    /// another thread: each search thread reports every few thousand nodes, so this lags
    /// the true count a little.
    pub fn nodes_so_far(&self) -> u64 {
        self.control.nodes()
    }

    /// The static evaluation of `state`, for the side to move.
    pub fn evaluate(&self, variant: Variant, state: &State) -> i32 {
        self.eval.evaluate_variant(variant, state)
    }

    /// Thinks about the position at the end of `game`.
    pub fn think_game(
        &self,
        game: &Game,
        limits: &Limits,
        on_iteration: &mut (dyn FnMut(&Iteration) + Send),
    ) -> Option<Iteration> {
        self.think(game.variant(), game.current(), limits, on_iteration)
    }

    /// Thinks about `state` under `variant` within `limits`, reporting every finished
    /// iteration. Returns the best move found (with its score and line), or `None` when
    /// the game is over.
    pub fn think(
        &self,
        variant: Variant,
        state: &State,
        limits: &Limits,
        on_iteration: &mut (dyn FnMut(&Iteration) + Send),
    ) -> Option<Iteration> {
        if limits.book
            && limits.only_move.is_none()
            && limits.root_moves.is_none()
            && let Some(it) = self.book_iteration(variant, state)
        {
            on_iteration(&it);
            return Some(it);
        }
        match variant {
            Variant::Othello => self.think_generic::<Othello>(&state.pos, limits, on_iteration),
            Variant::Anti => self.think_generic::<Anti>(&state.pos, limits, on_iteration),
            Variant::Reversi1889 => self.think_generic::<Reversi1889>(state, limits, on_iteration),
        }
    }

    fn think_generic<R: Rules>(
        &self,
        s: &R::S,
        limits: &Limits,
        on_iteration: &mut (dyn FnMut(&Iteration) + Send),
    ) -> Option<Iteration> {
        let start = self.control.now();
        let plan = limits.plan(R::position(s).n_empties());
        self.control
            .start(plan.time.map(|t| start + t.max), limits.nodes);
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            control: &self.control,
            eval: &self.eval,
            threads: self.threads,
        };
        let mut run = || driver::think::<R>(&shared, s, &plan, start, on_iteration);
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }
}

/// True when the book's positions stand for `state`: always in Othello and Anti; in
/// Reversi 1889 when the disc supply is the one the board implies (no pass yet).
fn book_applies(variant: Variant, state: &State) -> bool {
    variant != Variant::Reversi1889 || State::from_position(state.pos) == *state
}

/// A well-mixed 64-bit number from a counter.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Levels keep 95% (a depth cap plays better at it); time alone and fixed depths cut
    /// at the default 73%; a selectivity asked for wins.
    #[test]
    fn levels_cut_at_95_percent_and_time_at_73() {
        assert_eq!(Limits::level(16).plan(40).selectivity, LEVEL_SELECTIVITY);
        assert_eq!(Limits::default().plan(40).selectivity, LEVEL_SELECTIVITY);
        let timed = Limits {
            move_time: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(timed.plan(40).selectivity, DEFAULT_SELECTIVITY);
        assert_eq!(Limits::depth(16).plan(40).selectivity, DEFAULT_SELECTIVITY);
        let asked = Limits {
            selectivity: Some(1),
            ..Limits::level(16)
        };
        assert_eq!(asked.plan(40).selectivity, 1);
    }
}
