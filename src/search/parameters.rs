//! Every search tunable in one place, each with what it trades: the solver's, the midgame
//! search's, the iterative-deepening driver's and time management's. What was tried
//! for each, with the figures, is in `docs/history.md`.

/// Empties at and below which the solver plays moves straight from the empty-square list
/// (no move generation, parity order). Lower: more generation overhead near the leaves;
/// higher: worse ordering where the tree is still wide.
pub const SOLVE_SMALL_EMPTIES: u32 = 4;

/// Empties from which the solver runs its full search (bounds kept, enhanced
/// transposition cut-offs, splits), below it the shallow one. Lower: more bookkeeping for
/// tiny subtrees; higher: more re-searched transpositions. (Named when the full search
/// kept its bounds in the transposition table from here; it now keeps them in the
/// thread's cache below [`SOLVE_TABLE_EMPTIES`].)
pub const SOLVE_TT_EMPTIES: u32 = 10;

/// Empties from which the solver keeps its bounds in the transposition table; below, the
/// full search (from [`SOLVE_TT_EMPTIES`]) and the shallow one (from
/// [`SOLVE_CACHE_EMPTIES`]) keep them in a small cache of the thread's own
/// (`search::cache`: 8,192 entries, 128 KB, within the core's level-2 cache), as
/// neural-reversi keeps its positions of 11 empties and fewer. Transpositions that far
/// down are found by the same thread, and the table's buckets, a trip to memory each,
/// are slower than the cache's.
pub const SOLVE_TABLE_EMPTIES: u32 = 12;

/// Empties from which the shallow search (below [`SOLVE_TT_EMPTIES`]) keeps bounds in the
/// thread's cache (see [`SOLVE_TABLE_EMPTIES`]). Lower: a probe and a store for tiny
/// subtrees.
pub const SOLVE_CACHE_EMPTIES: u32 = 6;

/// Empties below which the solver keeps its table entries in the table's near region
/// (its first [`NEAR_BYTES`](super::tt::NEAR_BYTES), 16 MiB), above anywhere in it. Most
/// probes are of positions with few empties, whose entries live briefly; spread over a
/// table of hundreds of megabytes each costs a trip to memory (and in a virtual machine a
/// page walk), which sampling finds at the enhanced-transposition-cut-off prefetches:
/// 20% of the time of FFO 50 with a 512 MB table. In the near region they mostly stay in
/// the last-level cache. Lower: more misses; higher: the region gets crowded.
pub const SOLVE_NEAR_TT_EMPTIES: u32 = 13;

/// Empties from which moves are ordered fastest-first (by the opponent's mobility after
/// the move); below, by parity only. Lower: ordering costs more than it saves.
pub const SOLVE_FASTEST_FIRST_EMPTIES: u32 = 7;

/// Empties from which enhanced transposition cut-offs are tried (a table probe for every
/// child before searching any). Lower: probes cost more than the cut-offs save.
pub const SOLVE_ETC_EMPTIES: u32 = 10;

/// Empties from which a node may be searched in parallel (young brothers wait: the first
/// move alone, then the rest over the threads). Lower: more split overhead.
pub const SOLVE_SPLIT_EMPTIES: u32 = 12;

/// `SOLVE_STABILITY_ALPHA[n]`: the stability bound is only computed at nodes with `n`
/// empties whose alpha is at least this, since it can only cut when the opponent has
/// many stable discs. Lower values compute it more often. Below [`SOLVE_TT_EMPTIES`] it is
/// only computed at expected all-nodes (see `Worker::stability_cut`).
pub const SOLVE_STABILITY_ALPHA: [i32; 65] = {
    let mut t = [99; 65];
    let mut n = 4;
    while n <= 64 {
        // The opponent needs (64 - alpha) / 2 stable discs; with few empties many discs
        // are stable already.
        let v = if n <= 8 {
            2 * n as i32 - 12
        } else {
            2 * n as i32 - 4
        };
        t[n] = if v > 62 { 62 } else { v };
        n += 1;
    }
    t
};

/// Move ordering in the solver: weight of the opponent's mobility after a move (fewer
/// replies first), of its potential mobility (empties next to the mover's discs), and of
/// playing into a quadrant with an odd number of empties.
pub const ORDER_MOBILITY_WEIGHT: i32 = 16;
pub const ORDER_POTENTIAL_WEIGHT: i32 = 6;
pub const ORDER_PARITY_WEIGHT: i32 = 0;

/// Empties from which the fastest-first key also counts the opponent's potential mobility
/// (below, the replies alone). Lower: fewer nodes, but more instructions and time.
pub const SOLVE_POTENTIAL_EMPTIES: u32 = 10;

/// Empties from which the solver also orders moves by the evaluation of the position
/// after them (better first), with this weight per disc. Lower: the evaluation costs more
/// than the ordering saves. The weight was chosen by FFO 40-52's nodes.
pub const SOLVE_EVAL_ORDER_EMPTIES: u32 = 12;
pub const ORDER_SOLVE_EVAL_WEIGHT: i32 = 5;
/// The weight per disc of the value of a shallow search (from
/// [`SOLVE_ORDER_DEPTH1_EMPTIES`]), which predicts the best move better than the static
/// evaluation. Chosen by the nodes of FFO 40-52 (9 was the lowest of 3 to 40).
pub const ORDER_SOLVE_SEARCH_WEIGHT: i32 = 9;

/// Empties from which that value is a 1-ply, a 2-ply and a 4-ply search on the evaluation
/// instead of the evaluation itself. Lower: the searches cost more than the ordering saves.
pub const SOLVE_ORDER_DEPTH1_EMPTIES: u32 = 16;
pub const SOLVE_ORDER_DEPTH2_EMPTIES: u32 = 22;
pub const SOLVE_ORDER_DEPTH4_EMPTIES: u32 = 24;

/// Empties from which an exact solve first guesses the score with a selective midgame
/// search ([`SOLVE_ESTIMATE_DEPTH`] plies at selectivity [`SOLVE_ESTIMATE_SELECTIVITY`])
/// and searches the root with a window of [`SOLVE_ASPIRATION_HALF`] discs on each side of
/// the guess, widened on the side it fails. The open-window search of the root's first
/// move is the most expensive part of a solve (FFO 53: 1.41 G of its 2.50 G nodes); with
/// the window at the true score it costs 1.08 G.
pub const SOLVE_ASPIRATION_EMPTIES: u32 = 18;
pub const SOLVE_ESTIMATE_DEPTH: u32 = 12;
pub const SOLVE_ESTIMATE_SELECTIVITY: u8 = 2;
/// The guess searches at most `n - SOLVE_ESTIMATE_MARGIN` plies in a position with `n`
/// empties (and [`SOLVE_ESTIMATE_DEPTH`] from 22 empties on): a deep guess near the end
/// costs more than the window it centres saves.
pub const SOLVE_ESTIMATE_MARGIN: u32 = 10;
pub const SOLVE_ASPIRATION_HALF: i32 = 2;

/// Empties from which an exact solve first searches the root selectively to the end of
/// the game (Multi-ProbCut on, exact at and below [`SOLVE_PRESEARCH_EXACT_EMPTIES`]), at each of
/// [`SOLVE_PRESEARCH_SELECTIVITIES`] in turn, in the solver's own table: the exact search
/// then finds a good first move at nearly every node of its upper tree. The cost is a
/// fifth of the nodes, at a dearer rate (midgame nodes); the saving is a third of the
/// exact search's.
pub const SOLVE_PRESEARCH_EMPTIES: u32 = 28;
/// Indices into the Multi-ProbCut selectivities (`mpc::SELECTIVITY_PERCENT`): 73%, then
/// 87%; a third, more confident search costs more nodes than it saves.
pub const SOLVE_PRESEARCH_SELECTIVITIES: &[u8] = &[5, 4];
/// Empties at and below which the pre-search solves exactly (as
/// [`MID_END_EXACT_EMPTIES`] for the engine's searches): the middle of a flat range.
pub const SOLVE_PRESEARCH_EXACT_EMPTIES: u32 = 16;

/// Moves searched alone at a node before the rest may be split over the threads. One is
/// the classic young-brothers-wait; more waits until a node looks like an all-node, so
/// less parallel work is thrown away at cut-nodes whose first move did not cut.
pub const SOLVE_SPLIT_AFTER: usize = 2;

/// Empties at and below which a midgame node whose depth reaches the end of the game is
/// solved exactly even when probable cuts are on. Higher: exact endgames cost more
/// nodes; lower: more of the endgame is searched with (unsafe) probable cuts.
pub const MID_END_EXACT_EMPTIES: u32 = 14;

/// Midgame depth from which a node may be split over the threads, and how many moves it
/// searches alone first. Lower depth: more split overhead for small subtrees (at 4, two
/// threads took 6% longer over `volte bench 20 -t 2`, 4% over `bench 16 -t 2`).
pub const MID_SPLIT_DEPTH: u32 = 8;
pub const MID_SPLIT_AFTER: usize = 1;

/// Midgame depth from which moves are ordered by a search of each child (of depth
/// `(depth - MID_ORDER_SEARCH_DEPTH) / MID_ORDER_SEARCH_DIVISOR`, 0 = the evaluation)
/// rather than by the cheap terms. Lower: ordering costs more nodes than it saves (from
/// 5, `volte bench 23` took 1.6 times as long; the evaluation orders up to depth 17).
pub const MID_ORDER_SEARCH_DEPTH: u32 = 15;
pub const MID_ORDER_SEARCH_DIVISOR: u32 = 3;

/// Midgame move ordering: weight of the child's value (in discs), of the opponent's
/// mobility after the move, and of a corner move.
pub const ORDER_VALUE_WEIGHT: i32 = 16;
pub const ORDER_MID_MOBILITY_WEIGHT: i32 = 8;
pub const ORDER_MID_CORNER_WEIGHT: i32 = 32;

/// Midgame depth from which nodes probe and store the transposition table. Lower: a
/// cache miss at the most numerous nodes; higher: more transpositions searched again.
pub const MID_TT_DEPTH: u32 = 3;

/// Midgame depth from which moves are ordered by the evaluation after them (below, by
/// the opponent's mobility and corners only). Lower: an evaluation per child at the most
/// numerous interior nodes, which costs more than the better order saves.
pub const MID_ORDER_EVAL_DEPTH: u32 = 3;

/// Half-width of the aspiration window around the previous iteration's score, in discs.
pub const ASPIRATION_WINDOW: i32 = 3;
/// First depth searched with an aspiration window.
pub const ASPIRATION_DEPTH: u32 = 4;
/// Before an exact or win/loss/draw solve, the midgame search goes this many plies short
/// of the end, to fill the table with good moves to try first.
pub const PRESOLVE_GAP: u32 = 12;
/// Under a clock, a new iteration is not started once this fraction (per mille) of the
/// target time is spent: the next one would likely overrun. A fixed time a move is spent
/// whole.
pub const NEXT_ITERATION_PERMILLE: u32 = 550;

/// Time management: empties from which the rest of the game usually takes little time.
pub const SOLVED_AT_EMPTIES: u32 = 10;
/// Latency between the engine and the clock keeper (pipes, GUI) assumed per move: the
/// plan keeps this much back for every move the engine may still have to play.
pub const LATENCY_PER_MOVE: std::time::Duration = std::time::Duration::from_millis(20);
