//! Every search tunable in one place, each with what it trades.

/// Empties at and below which the solver plays moves straight from the empty-square list
/// (no move generation, parity order). Lower: more generation overhead near the leaves;
/// higher: worse ordering where the tree is still wide.
pub const SOLVE_SMALL_EMPTIES: u32 = 4;
// (Five empties from the list too, as Edax's shallow search plays them (a `solve5` over
// the five squares in the order of the parity sets, each tried with `try_play`, the
// stability test first): the same moves in the same order, so nearly the same nodes
// (FFO 40-47 449.54 M against 449.72 M), and FFO 41-42 10.232 G instructions against
// 10.207 G (`scripts/instructions.sh`): the legal-move generation it saves, trying the
// squares that turn out illegal costs. One thread side by side, four rounds: FFO 40-47
// 92.2 s against 91.7 s, 48-52 347.0 s against 361.6 s; two rounds: FFO 53 239.5 s
// against 240.7 s, the 100 games of `WTH_2018.wtb --empties 22` 155.1 s against 155.7 s.
// Within the noise. Six empties as well: 10.526 G instructions, since at six more of
// the squares tried are illegal. Neither kept (2026-12-01).)
// (The two empties' moves both scored before either is looked at (flips of both squares,
// both last-square scores, the result and node count picked without branches, since
// which move is legal and whether the first cuts is hard to predict at the leaves): same
// nodes, FFO 48-52 on one thread side by side 92.6/89.4 s against 89.4/88.7 s. Not kept
// (2026-12-02).)

/// Empties from which the solver runs its full search (bounds kept, enhanced
/// transposition cut-offs, splits), below it the shallow one. Lower: more bookkeeping for
/// tiny subtrees; higher: more re-searched transpositions. (Named when the full search
/// kept its bounds in the transposition table from here; it now keeps them in the
/// thread's cache below [`SOLVE_TABLE_EMPTIES`].)
///
/// 10 since 2026-12-02 (9 before). Both searches keep the bounds of 9 empties in the
/// thread's cache, and the trees are nearly the same: FFO 40-47 358,836,392 nodes
/// against 358,836,318, 48-52 956,135,681 against 956,129,175, 53 1,332,819,352 either
/// way. But a shallow node costs less: no polling, no stop check, and the stability
/// bound only at expected all-nodes. One thread, the two builds side by side (`taskset`
/// on the two cores, swapped each round), against 9: FFO 48-52 352.3 s against 358.1 s
/// over eight rounds (faster in seven), 40-47 50.4 s against 51.5 s over four (faster in
/// three), 53 110.7 s against 112.5 s over two (faster in both). From 11: 48-52 961.4 M
/// nodes, 43.2/45.2 s against 43.8/46.0 s for 10; 40-47 360.4 M nodes, 52.3 s against
/// 52.8 s for 9 over four rounds; 53 1.342 G nodes, 103.5 s against 102.5 s for 9 over
/// two. From 12: 48-52 973.3 M nodes, 81.6 s against 80.5 s for 11 over two. From 10
/// with the stability threshold of 9 empties lowered to 2n - 12 as well (see
/// [`SOLVE_STABILITY_ALPHA`]): 48-52 955.9 M nodes, 92.3 s against 89.6 s; not kept.
pub const SOLVE_TT_EMPTIES: u32 = 10;

/// Empties from which the solver keeps its bounds in the transposition table; below, the
/// full search (from [`SOLVE_TT_EMPTIES`]) and the shallow one (from
/// [`SOLVE_CACHE_EMPTIES`]) keep them in a small cache of the thread's own
/// (`search::cache`: 8,192 entries, 128 KB, within the core's level-2 cache), as
/// neural-reversi keeps its positions of 11 empties and fewer. Transpositions that far
/// down are found by the same thread, and the table's buckets, a trip to memory each,
/// are slower than the cache's.
///
/// First measured with 16,384 entries and the shallow search cached from 7 empties,
/// against the table from 9 empties and nothing below (one thread, side by side,
/// `taskset` on the two cores, swapped each round; 2026-12-02): FFO 48-52 (512 MB)
/// 1.271 G nodes against 1.370 G, 473.6 s against 504.6 s over six rounds (faster in five);
/// FFO 53 (1 GiB) 1.865 G nodes against 2.012 G, 200.2 s against 211.4 s over two. Two
/// threads, FFO 53 (1 GiB), one build after the other, two rounds: 1.92 G nodes and
/// 57.7/55.8 s against 2.07 G and 65.3/59.1 s.
/// Separately, neither half paid: the cache from 9 to 11 empties alone (the shallow
/// searches uncached), 1.382 G nodes and 167.2 s against 166.2 s over two rounds on FFO
/// 48-52; the shallow searches cached alone (the table from 9 as before), from 7 empties
/// 1.253 G nodes and 170.8 s against 167.5 s, from 6 1.201 G and 163.1 s against
/// 156.2 s, from 5 1.161 G and 162.4 s against 161.6 s.
pub const SOLVE_TABLE_EMPTIES: u32 = 12;

/// Empties from which the shallow search (below [`SOLVE_TT_EMPTIES`]) keeps bounds in the
/// thread's cache (see [`SOLVE_TABLE_EMPTIES`]). Lower: a probe and a store for tiny
/// subtrees.
pub const SOLVE_CACHE_EMPTIES: u32 = 6;
// (From 8 (the enhanced transposition cut-offs still from 10): FFO 50 on one thread
// 496.5 M nodes against 520.4 M, but 36.9 s against 34.9 s side by side; from 8 with the
// cut-offs from 9, 484.2 M nodes and 36.0 s against 34.2 s. Without the cut-offs at all,
// 657.4 M nodes and 45.2 s; with their probes but never their cut, the same 657.4 M
// nodes in 41.3/40.3 s against 45.2/43.9 s: the probes cost nothing net, since they
// bring the children's buckets into the cache for the children's own probes.)
// (With the near region of the table, side by side against this, two rounds: from 8, FFO
// 50 (512 MB) 511.6 M nodes and 48.5/37.9 s against 533.9 M and 38.7/37.4 s, FFO 40-47
// 427.4 M and 21.7/25.2 s against 449.7 M and 20.5/21.3 s; from 10 with the cut-offs from
// 11, FFO 50 567.8 M and 43.0/44.8 s against 39.8/37.0 s, 40-47 479.4 M and 20.7/24.3 s
// against 25.4/24.4 s. Not changed.)

/// Empties below which the solver keeps its table entries in the table's near region
/// (its first [`NEAR_BYTES`](super::tt::NEAR_BYTES), 16 MiB), above anywhere in it. Most
/// probes are of positions with few empties, whose entries live briefly; spread over a
/// table of hundreds of megabytes each costs a trip to memory (and in a virtual machine a
/// page walk), which sampling finds at the enhanced-transposition-cut-off prefetches:
/// 20% of the time of FFO 50 with a 512 MB table. In the near region they mostly stay in
/// the last-level cache. Lower: more misses; higher: the region gets crowded.
///
/// One thread, against the whole table for every entry, the two builds side by side
/// (`taskset` on the two cores, swapped in the second round): FFO 40-47 with 512 MB
/// 22.5/21.1 s against 26.8/24.7 s (449.7 M nodes against 440.6 M); FFO 50 39.96/39.87 s
/// against 46.6/47.1 s (533.9 M nodes against 517.2 M); FFO 57-58 with 1 GiB 179.2/170.9 s
/// against 201.1/191.7 s (2.608 G nodes against 2.765 G); FFO 53 with 1 GiB 120.3/124.0 s
/// against 121.4/120.2 s (2.009 G nodes against 1.867 G: the deeper the tree, the more
/// the transpositions near the leaves lost from a small region cost); FFO 55 with 1 GiB,
/// one round, 493.9 s against 492.7 s (7.583 G nodes against 7.164 G). On real games: the
/// first 40 of `WTH_2016.wtb` at 24 empties with 1 GiB (`volte solve WTH_2016.wtb --count
/// 40 --threads 1 --hash-mb 1024`), 137.1/137.1 s against 149.3/149.8 s (2.777 G nodes
/// against 2.725 G).
// (Below 11 empties: FFO 50 525.0 M nodes and 42.6/39.2 s against 40.0/39.3 s for 13 in
// the same pair; FFO 53 1.994 G nodes. A 32 MiB region: FFO 53 2.003 G nodes. Below 10:
// FFO 53 1.829 G nodes and 117.3 s against 113.6 s for the whole table, one round.
// The same 40 games, each pair side by side against this (16 MiB, below 13): below 12
// empties 133.6/145.4 s against 129.5/138.2 s; below 15, 143.4/149.3 s against
// 133.3/137.2 s for 12; an 8 MiB region 143.2/142.4 s against 135.1/138.3 s; a 32 MiB
// one 140.0/138.4 s against 135.4/144.2 s.)
// (Smaller regions, re-checked in a later session, each pair side by side against this:
// a 1 MiB region for everything below 13 empties: FFO 50 (512 MB) 552.1 M nodes and
// 37.98/37.30 s against 533.9 M and 37.96/40.48 s; FFO 40-47 466.1 M and 23.20/21.66 s
// against 449.7 M and 25.63/22.53 s; FFO 53 (1 GiB) 2.046 G and 116.8/114.7 s against
// 2.009 G and 116.8/111.7 s; the 40 games 2.871 G and 137.9/149.8 s against 2.777 G and
// 137.3/144.3 s. A second region of 1 MiB for the positions of at most 10 empties (11 and
// 12 in this one): the 40 games 2.815 G and 147.0/143.6 s against 146.7/150.9 s, FFO
// 40-47 456.4 M and 24.89/23.44 s against 23.83/22.39 s. Both within the noise: between
// 1 and 16 MiB the size hardly matters. A whole table of 1 MB, where every probe stays in
// the cache, solved FFO 50 at only 13% more nodes a second than 512 MB (15.6 M against
// 13.8 M, with 664 M nodes, one after the other): the table's latency is now a small
// part of the time, whatever sampling puts on the enhanced-transposition-cut-off probes.)
pub const SOLVE_NEAR_TT_EMPTIES: u32 = 13;
// (Since positions of fewer than [`SOLVE_TABLE_EMPTIES`] live in the threads' caches, the
// near region holds only those of 12 empties. Below 15 instead (12-14 empties): FFO 48-52
// on one thread with 1 GiB, side by side against this, two rounds, 1.236 G nodes against
// 1.229 G, 81.3/79.7 s against 83.6/79.6 s. Within the noise; not changed (2026-12-02).)

/// Empties from which moves are ordered fastest-first (by the opponent's mobility after
/// the move); below, by parity only. Lower: ordering costs more than it saves.
pub const SOLVE_FASTEST_FIRST_EMPTIES: u32 = 7;
// (By the node's expected kind, on `volte solve WTH_2018.wtb --empties 22 --count 100`,
// one thread side by side: fastest-first also at 6 empties when a cut is expected,
// 1.402 G nodes against 1.576 G but 82.2 s against 80.4 s; parity instead of
// fastest-first at expected all-nodes, 1.601 G nodes, 80.1 s against 80.0 s. Neither
// kept: what the mobility of every child saves in nodes, computing it costs. Again on
// 2026-12-02, fastest-first at 6 empties at expected cut-nodes: FFO 40-47 422.9 M nodes
// against 450.8 M, FFO 48-52 1.284 G against 1.370 G, but 87.8/91.2 s against 85.5/88.6 s
// side by side.)
// (With the cheaper leaves of the four-empties solver: from 6 empties, FFO 41-42 35.2 M
// nodes against 38.4 M but 12.21 G instructions against 12.06 G (`scripts/instructions.sh`);
// from 8, FFO 40 14.6 M nodes and 3.71 G instructions against 11.2 M and 3.37 G.
// Once the potential mobility was left out below 10 empties, from 6 again: FFO 40-47
// 379.9 M nodes against 408.4 M, 48-52 1.159 G against 1.243 G, 41-42 11.125 G
// instructions against 11.082 G; side by side 40-47 77.9 s against 80.9 s over four
// rounds, but 48-52 172.2 s against 165.6 s over two: not clearly faster.)

/// Empties from which enhanced transposition cut-offs are tried (a table probe for every
/// child before searching any). Lower: probes cost more than the cut-offs save.
///
/// At an expected all-node (null window, not expected to cut) the children's buckets are
/// only prefetched, not probed: the cut-off almost never happens there (about 900 times in
/// the 8 M expected all-nodes of FFO 50), and sampling put most of `search`'s time on
/// the wait for the buckets; the children, searched next, probe the same buckets, which
/// the prefetches should have brought into the cache by then (not measured directly).
/// Against probing them, one thread side by side (`taskset` on the two cores, swapped
/// between rounds; 2026-12-01): FFO 50 534.3 M nodes against 533.9 M and 170.4 s against
/// 177.3 s over four rounds; FFO 48-52 1.370 G against 1.366 G, 188.6 s against 195.6 s
/// over two; 40-47 450.8 M against 449.7 M, 48.8 s against 49.8 s; FFO 53 (1 GiB) 2.012 G
/// against 2.009 G, 253.1 s against 257.0 s. Two threads, FFO 53 one build after the
/// other, two rounds: 132.8 s against 137.7 s. Faster in every one of the twelve pairs but
/// one tie, by 1.5-4%. (Children below [`SOLVE_TABLE_EMPTIES`] are in the thread's cache,
/// which is probed at once, without prefetches.)
pub const SOLVE_ETC_EMPTIES: u32 = 10;
// (Each child's bucket prefetched as soon as the child is made, so that the first
// fetches start while the others are made, instead of after all are made: FFO 48-52 on
// one thread side by side, four rounds, 352.4 s against 351.1 s, the same nodes. Not
// kept (2026-12-02).)
// (Below it, at 9 empties, the table's move played alone before the other children are
// made (when it cuts they are never made): FFO 41-42 9.935 G instructions against 9.938 G
// (`scripts/instructions.sh`), 37.23 M nodes either way. Not worth the extra path
// (2026-12-02).)
// (Then, at the nodes still probed below 12 empties (where ordering is cheap: no
// evaluation), the probes moved after the ordering, to hide the fetches behind it: FFO 50
// 534.34 M nodes, 158.5 s against 158.0 s over four rounds side by side; FFO 48-52
// 170.8 s against 165.7 s, 40-47 45.3 s against 43.0 s over two. Slower in seven pairs of
// eight; not kept (2026-12-01).)
// (From 11 on `volte solve WTH_2018.wtb --empties 22 --count 100`: 1.597 G nodes against
// 1.576 G, 79.9 s against 75.6 s side by side.)
// (From 12 empties: FFO 40-47 497.7 M nodes against 484.5 M and not faster in four
// rounds run side by side; from 14: 509.3 M; skipped at expected all-nodes, the
// prefetches too: 494.1 M and not faster (again on 2026-12-01: FFO 50 534.3 M nodes
// against 533.9 M, one run each, not side by side, 43.2 s against 37.4 s: likely the
// prefetches serve the children's own probes, hence the prefetch-only all-nodes above). The
// children's buckets prefetched, but probed only after the table's move was searched or
// the moves ordered, to hide the fetches (sampling put a third of `search`'s time on the
// prefetch): 40-47 437.96 M nodes against 437.62 M and, side by
// side, 18.7/20.4/18.3/18.6 s against 19.9/19.8/18.6/18.6 s; 48-52 71.1/80.7 s against
// 72.9/81.2 s. Not kept. The table's size hardly matters either: 40-47 took 21.3 s with
// 4 MB and 21.2 s with 1 GB, side by side. Probed after the table's move only, again on
// 2026-12-02 with the thread's caches below 12 empties: FFO 48-52 956.9 M nodes against
// 956.1 M, 92.1 s against 92.8 s over two rounds side by side, within the noise; and
// fewer children probed means fewer nodes in Edax's units, not a faster node.)
// (With the near region of the table, the children's keys computed and probed without
// the prefetches: FFO 50 one round side by side 40.3 s against 40.9 s with a 512 MB
// table, 54.2 s against 52.1 s with 1 MB. The prefetches neither help nor hurt now; kept.)
// (Re-checked on the deep positions, where sampling puts a seventh of the time of FFO 50
// and 55 on the probes' misses (a 256 MB table): from 14 empties, FFO 53-54 on one
// thread side by side 4.922 G nodes and 259.9 s against 4.720 G and 247.3 s; probed
// after the table's move (prefetched before it), one build after the other, 4.784 G
// and 244.1 s against 4.720 G and 243.5 s. Not kept. The table's size on FFO 55, one
// thread, side by side: 7.164 G nodes and 462.3 s with 1 GB (`scripts/ffo.sh`'s size),
// 6.972 G and 481.2 s with 4 GB; 7.587 G and 480.0 s with 256 MB in another pair.)

/// Empties from which a node may be searched in parallel (young brothers wait: the first
/// move alone, then the rest over the threads). Lower: more split overhead.
pub const SOLVE_SPLIT_EMPTIES: u32 = 12;
// (From 15: FFO 48-52 with two threads 1.490-1.496 G nodes against 1.487-1.498 G, and
// 158.6 s against 164.0 s over three alternating rounds, within the noise.)
// (From 10 and from 11, FFO 48-53 with two threads, one build after the other, three
// rounds (2026-12-02): from 10, 55.4/55.7/63.2 s; from 11, 52.4/56.0/73.3 s; from 12,
// 52.8/53.3/54.8 s. The nodes the same (2.41-2.42 G). Not changed.)

/// `SOLVE_STABILITY_ALPHA[n]`: the stability bound is only computed at nodes with `n`
/// empties whose alpha is at least this, since it can only cut when the opponent has
/// many stable discs. Lower values compute it more often. Below [`SOLVE_TT_EMPTIES`] it is
/// only computed at expected all-nodes (see `Worker::stability_cut`).
///
/// From 4 to 8 empties the threshold is `2n - 12` (the bound cuts often there). Against
/// `2n - 4` from 5 empties with the test at every node: FFO 40-47 one thread 603.0 M →
/// 485.8 M nodes, 48-52 1.72 G → 1.37 G, with the same one-thread time (5 alternating
/// rounds on 40-47, medians 28.43 s against 28.48 s), and position 53 with two threads
/// back to back 70.6 s and 70.5 s against 73.3 s and 76.0 s. The same thresholds with the
/// bound at every node (cut-nodes too) made two threads slower (53: 83-90 s). The bound
/// at 3 empties too (`2n - 12`, expected all-nodes only): FFO 40-47 485.7 M → 453.2 M
/// nodes, 53 with two threads 2.57 G → 2.38 G nodes but 76.5 s and 78.1 s against 75.6 s
/// and 76.9 s back to back, and one thread no faster (40-47, 3 rounds: medians 25.1 s
/// against 23.4 s). Not kept.
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
// (In the full search (from [`SOLVE_TT_EMPTIES`]) the bound is computed at every kind
// of node. Computed there too only at PV nodes and expected all-nodes, as in the shallow
// search: FFO 48-52 on one thread 956,136,715 nodes against 956,135,681, side by side
// over six rounds 261.2 s against 262.8 s, faster in three. Within the noise; not kept
// (2026-12-02).)

/// Move ordering in the solver: weight of the opponent's mobility after a move (fewer
/// replies first), of its potential mobility (empties next to the mover's discs), and of
/// playing into a quadrant with an odd number of empties.
pub const ORDER_MOBILITY_WEIGHT: i32 = 16;
pub const ORDER_POTENTIAL_WEIGHT: i32 = 6;
pub const ORDER_PARITY_WEIGHT: i32 = 0;
// (How near the solver's trees are to minimal, counted on FFO 50 (26 empties, one
// thread): at the expected cut-nodes (odd empties) 98-99.6% of the nodes cut, and 99.1%
// (5 empties) to 99.9% (13 and up) of those cut on the first move tried; at the expected
// all-nodes 2-20% cut. Better ordering can hardly save nodes any more: what is left is
// picking, among the moves that cut, the one with the smallest subtree, and the cost per
// node.)
// (The mobility weight re-checked: FFO 48-52 on one thread 1.339 G nodes with 16,
// 1.263 G with 20, 1.248 G with 24 (and 59.9/67.7 s against 66.8/69.3 s side by side),
// 1.270 G with 28, 1.288 G with 32, 1.763 G with 48; but FFO 53-54 4.808 G with 24
// against 4.720 G; on real games at 22 empties (`volte solve WTH_2018.wtb --empties 22
// --count 100`) 1.576 G nodes with 16 against 1.623 G with 24, and on 100 others (games
// of the 2019-2024 export in a shuffled order) 2.115 G with 16, 2.101 G with 20, 2.138 G
// with 24, 2.214 G with 32. The gain on 48-52 is two positions (50 and 51) of five;
// tuned on a few positions, a parameter follows them. Not changed.)

/// Empties from which the fastest-first key also counts the opponent's potential mobility
/// (below, the replies alone). From 7 empties (where fastest-first starts): FFO 40-47 one
/// thread 405.9 M nodes against 408.4 M from 10, 48-52 1.238 G against 1.243 G, but FFO 40
/// 3.099 G instructions against 3.047 G and 41-42 11.32 G against 11.08 G
/// (`scripts/instructions.sh`), and 40-47 83.9 s against 80.8 s over four rounds side by
/// side (every round faster from 10; 48-52 one round 76.5 s against 77.0 s).
pub const SOLVE_POTENTIAL_EMPTIES: u32 = 10;
// (From 12 on `volte solve WTH_2018.wtb --empties 22 --count 100`: 1.564 G nodes against
// 1.576 G, 78.4 s against 79.5 s side by side; from 14, 1.567 G; FFO 48-52 1.340 G
// against 1.339 G, 98.2 s against 95.5 s. Under 1% either way: unchanged.)

/// Empties from which the solver also orders moves by the evaluation of the position
/// after them (better first), with this weight per disc. Lower: the evaluation costs more
/// than the ordering saves.
/// (FFO 40-52, one thread, with the search weight below at 9: 2.42 G nodes with 2,
/// 2.41 G with 3, 2.45 G with 4, 2.58 G with 6, 2.79 G with 9.)
///
/// From 12 empties rather than 10 (which orders best by nodes): one evaluation costs
/// about 160 ns here (`cargo bench --bench eval`, an AMD EPYC with 512 KB of L2 per core;
/// a stage's weights are 334 KB, so most weight loads miss L2). One thread, side by side:
/// FFO 48-52 1.248 G nodes from 10 against 1.339 G from 12, but 89.9/76.8/90.7 s against
/// 80.7/66.6/82.2 s over three rounds; 40-47 20.3/19.9 s against 19.0/19.2 s. Two threads,
/// FFO 53 alternating: 66.1/67.4 s against 62.0/59.2 s. From 11: 48-52 1.279 G nodes,
/// from 13: 1.389 G (80.6/88.3 s against 83.8/86.8 s for 12: no better), from 14:
/// 1.468 G, from 16: 1.665 G (86.8 and 89.7 s).
pub const SOLVE_EVAL_ORDER_EMPTIES: u32 = 12;
// (Re-checked once the children were evaluated from their parent's pattern indices (29%
// cheaper a child in `cargo bench --bench eval`), FFO 48-52 on one thread side by side
// against 12, two rounds (2026-12-01): from 10, 1.276 G nodes against 1.370 G but
// 106.0/109.4 s against 95.2/96.0 s; from 11, 1.308 G nodes and 98.2/91.6 s against
// 94.5/89.4 s. Unchanged: the weight loads left are still dearer than the nodes saved.)
// (Then the weights of all the children prefetched (`_mm_prefetch`, 46 lines a child)
// before the ordering loop, so that their misses overlap: FFO 50 on one thread, four
// rounds side by side, 42.6/38.7/41.3/42.3 s against 41.2/37.8/38.1/41.5 s. Slower in
// every pair; not kept.)
// (The classic evaluation costs a seventh of the pattern one (`cargo bench --bench eval`:
// 4.4 M pattern evaluations/s against 31.9 M classic) but orders much worse: FFO 48-52
// with `--eval classic` on one thread 2.550 G nodes and 107.3 s against 1.339 G and
// 80.7-86.4 s. The pattern evaluation with only its corner and edge instances (16 of 46):
// 1.995 G nodes and 103.1 s against 83.9 s. With one stage's weights for every position
// (as a bound on what a smaller cache footprint could give): 16.5 M nodes/s against
// 15.1 M, but 1.559 G nodes. A per-thread cache of 16 K evaluations: 10% hits on FFO
// 48-52 (over 100 M evaluations in all: the counters, read in steps of 2^20 per thread,
// showed 98 × 2^20), and slower: 88.2 s against 82.8 s.)
// (One stage, that of 14 empties, for the positions of up to 16 only (one 334 KB table
// where there were three): FFO 48-52 1.366 G nodes, FFO 50 537.4 M, side by side
// 77.7/77.2 s against 77.4/74.5 s and 36.5/36.5 s against 39.5/36.6 s: no faster. Up to
// 21 empties: FFO 48 236 M nodes against 106 M, 43 61 M against 37 M.)
// (Then, on the same machine, also skipping the evaluation at expected all-nodes below
// [`SOLVE_ORDER_DEPTH1_EMPTIES`]: FFO 48-52 1.349 G nodes against 1.339 G, side by side
// 81.9/82.3 s against 84.3/84.4 s, 40-47 20.3/17.1 s against 22.0/17.4 s; but FFO 53 with
// two threads, alternating, 57.2/55.8 s against 49.6/53.5 s. Not kept: one thread gains
// less than the machine's noise, two threads maybe lose.)
pub const ORDER_SOLVE_EVAL_WEIGHT: i32 = 5;
// (5 since the solver's weights learned from self-play positions off the good players'
// paths (weights/othello-solver.vw of 0a3501a): nodes on one thread with 1 GiB, `volte
// solve fforum-40-59.obf --threads 1 --hash-mb 1024`, against 12.559 G with 3 (FFO 40-47
// / 48-52 / 53 / 54 / 55 / 56-58): 4, 0.360 G / 0.959 G / 1.339 G / 2.101 G / 5.501 G /
// 2.128 G, 12.390 G (-1.3%); 5, 0.359 G / 0.956 G / 1.333 G / 2.104 G / 5.487 G /
// 2.121 G, 12.359 G (-1.6%); 6, 12.386 G; 8, 12.533 G; 4 with the search weight at 8,
// 12.405 G; 5 with the mobility weight at 12, 12.645 G, at 20, 12.387 G. With the search
// weight at 12 (and 3): 12.712 G; 5 with the potential-mobility weight at 4, 12.454 G,
// at 8, 12.366 G; 5 with the search weight at 10, 12.392 G, at 7, 12.423 G. On other
// positions, the first 80 games of
// `WTH_2025.wtb` at 24 empties (`volte solve WTH_2025.wtb --count 80 --threads 1
// --hash-mb 1024`): 4.149 G nodes with 5 against 4.259 G with 3 (-2.6%), fewer in 76
// of the 80. The weight changes no node's cost, so the nodes are the time (2026-12-02).)
// (The evaluation from a one-byte copy of the weights (each stage rounded to a step of
// 19-49 units, 167 KB a stage, so the two stages the ordering reads fit the 512 KB L2):
// FFO 48-52 1.338 G nodes against 1.339 G and 72.3/77.2 s against 73.1/77.5 s side by
// side; not worth a second table. Again on the machine with 1 MiB of L2 and the
// solver's own weights, in steps of 32 units (a quarter disc) for every stage: FFO 40-47
// 377.1 M nodes against 358.8 M and 21.7 s against 21.0 s over two rounds, 48-52 976.6 M
// against 956.1 M and 79.7 s against 79.9 s (2026-12-02). The weights on huge pages
// (the kernel's transparent huge pages set to `always` for the run, so the 10 MB of
// unpacked weights got them in most of their 2 MiB blocks, as `smaps` showed; one
// binary, two copies side by side, three rounds each way): FFO 50 42.4 s a run against
// 42.9 s with 4 KiB pages, within the noise; the weight loads miss the caches, not the
// TLB. Evaluating only the four best children by the cheap key (the others after them,
// by that key): the 100 positions of the 2019-2024 games at 22 empties (see
// [`ORDER_MOBILITY_WEIGHT`]), 2.146 G nodes against 2.115 G and slower.
// Without the evaluation at expected all-nodes below 16 empties, the same positions:
// 2.131 G nodes, 82.5/93.7 s against 84.5/90.4 s in two pairs, within the noise.)
// (Re-checked with the current solver, FFO 40-47 one thread: 493.1 M nodes with weight 2,
// 488.2 M with 4, 484.5 M with 3. The evaluation from 9 empties once it got cheaper:
// 467.3 M nodes, but FFO 40 3.67 G instructions against 3.37 G.)
/// The weight per disc of the value of a shallow search (from
/// [`SOLVE_ORDER_DEPTH1_EMPTIES`]), which predicts the best move better than the static
/// evaluation. FFO 48-52 on one thread: 2.88 G nodes with 3, 2.18 G with 6, 1.94 G with
/// 9, 1.98 G with 12, 2.13 G with 15, 2.30 G with 20, 2.42 G with 40; FFO 40-47: 643 M
/// with 9, 676 M with 12, 662 M with 6 (measured with the static weight at 6).
pub const ORDER_SOLVE_SEARCH_WEIGHT: i32 = 9;
// (Re-checked with the solver's own weights (`weights/othello-solver.vw`, ridge 64), one
// thread with 1 GiB, FFO 40-47 / 48-52 / 53: 392.7 M / 1.141 G / 1.315 G nodes with 9
// and 3; the search weight at 12, 388.2 M / 1.163 G / 1.352 G; the evaluation weight at 4,
// 389.2 M / 1.131 G / 1.302 G (1% fewer in all, within what one set of positions tells).
// Unchanged (2026-12-02).)

/// Empties from which that value is a 1-ply, a 2-ply and a 4-ply search on the evaluation
/// instead of the evaluation itself. Lower: the searches cost more than the ordering saves.
/// (A 3-ply search from 25 empties ordered worse than the 2-ply one: FFO 48-52 took 2.64 G
/// nodes against 2.35 G; the 4-ply one took 2.18 G.)
pub const SOLVE_ORDER_DEPTH1_EMPTIES: u32 = 16;
// (From 15 once the shallow searches' last ply was evaluated from the parent's pattern
// indices: FFO 48-52 on one thread 1.364 G nodes against 1.370 G, 99.6/98.2 s against
// 91.5/92.8 s side by side (2026-12-01). Not kept.)
// (From 18 on the AMD EPYC where the evaluation is dear: FFO 48-52 1.415 G nodes against
// 1.339 G, side by side 79.6/83.7/83.7 s against 82.1/86.0/88.2 s; from 20, 1.516 G and
// 86.5 s against 84.3 s for 18; FFO 53 with two threads 61.7/56.3 s against 60.4/59.1 s.
// Not kept: 4% on one thread, nothing on two, for 6-9% more nodes.)
pub const SOLVE_ORDER_DEPTH2_EMPTIES: u32 = 22;
/// (With the weights above, the 4-ply search from 24 empties instead of 25: FFO 40-52 one
/// thread 2.32 G nodes against 2.41 G.)
pub const SOLVE_ORDER_DEPTH4_EMPTIES: u32 = 24;
// (Re-checked on the AMD EPYC, where the evaluation is dear, FFO 53 with two threads
// alternating with this (2.48/2.46 G nodes, 54.3/58.3 s, then 55.3/62.0 s): from 26,
// 2.67/2.68 G and 63.0/63.3 s; from 23, 2.50/2.50 G and 60.9/62.3 s.)
// (A 6-ply search from 27 empties: FFO 53 on one thread 3.48 G nodes against 2.50 G.)
// Tried and not kept (one thread unless said; node counts are deterministic):
// - Four plies deeper at nodes with an open window (at most to 8 empties from the end):
//   FFO 40-47 484.5 M → 473.3 M nodes, 48-52 1.365 G → 1.337 G, but position 53 took
//   3.53 G nodes on one thread and 4.60 G (154 s) with two threads against 2.55-2.56 G
//   (71-77 s). Two plies deeper: 521.5 M on 40-47; six: 611.9 M.
// - No evaluation in the ordering of expected all-nodes below 16 empties: 40-47 +1.7%
//   nodes (492.6 M), 48-52 +1.3%; one thread 2.4% faster (four rounds run side by side),
//   position 53 with two threads no faster (66.8 s and 63.4 s against 68.8 s and 62.3 s).
//   Skipping the shallow searches there too (all depths): 48-52 +2.5% to +6.6% nodes.
//   Re-measured on 2026-12-01 with the potential mobility left out too (mobility and
//   parity only below 16 empties): FFO 50 535.0 M nodes against 533.9 M and 148.1 s
//   against 148.0 s over four rounds side by side; 48-52 1.374 G against 1.366 G, 156.0 s
//   against 160.3 s (two rounds); 40-47 42.9 s against 41.7 s; 53 111.4 s against
//   110.5 s. Counted on FFO 50 with a throwaway build, the expectation holds: the nodes
//   of `search` alternate by parity (at 9 empties 16.43 M of the 16.60 M ordered nodes
//   are expected cut-nodes and 16.41 M cut; at 10, 5.60 M of 5.91 M are expected
//   all-nodes and 12.5 K of those fail high), and timing `order` with `rdtsc` put 8% of
//   the cycles on the expected all-nodes' ordering. That 8% does not come off the time;
//   the all-nodes' evaluations likely keep the weights the cut-nodes read in the cache.
//   The cheap ordering at expected all-nodes of every depth: FFO 50 536.1 M nodes;
//   parity alone there: 558.1 M.
// - A corner-stability term in the key (the mover's corners and their edge neighbours,
//   as Edax orders): 40-47 493.6 M nodes with weight 8 below 10 empties, 537.2 M with 16,
//   506.3 M with 16 everywhere.
// - Children the table knows (found by the enhanced transposition cut-off probes) first
//   or last by their bounds: 40-47 484.8 M against 484.5 M. Again with the pre-search,
//   whose selective entries bound most children of the upper tree: the child's bound
//   (its exact score, else its upper bound, else its lower bound, from an entry searched
//   to the end) instead of the shallow search, from 17 empties: FFO 53-54 on one thread
//   4.780 G nodes and 238.1 s against 4.720 G and 236.4 s side by side; from 20, 4.779 G
//   and 235.7 s; from 24, 4.778 G and 233.1 s (the two in one pair).
// - The shallow searches of the ordering in a window: a child more than `m` discs worse
//   than the best sibling so far gets only a bound (its search cuts as soon as it is
//   known to be that bad). One thread, side by side: FFO 48-52 with m = 6 1.340 G nodes
//   and 83.8/83.2/79.7/82.1 s against 1.339 G and 85.7/84.6/83.9/83.8 s over four rounds
//   (m = 4: 1.363 G; m = 2: 1.680 G; m = 8 and 12 as 6), but FFO 53-54 4.790 G nodes and
//   239.6 s against 4.720 G and 238.0 s (for the 1- and 2-ply searches only, 4.755 G and
//   233.0 s against 232.8 s): the deep positions, which take most of the time, lose in
//   the ordering of the moves after the best what they save.

/// Empties from which an exact solve first guesses the score with a selective midgame
/// search ([`SOLVE_ESTIMATE_DEPTH`] plies at selectivity [`SOLVE_ESTIMATE_SELECTIVITY`])
/// and searches the root with a window of [`SOLVE_ASPIRATION_HALF`] discs on each side of
/// the guess, widened on the side it fails. The open-window search of the root's first
/// move is the most expensive part of a solve (FFO 53: 1.41 G of its 2.50 G nodes); with
/// the window at the true score it costs 1.08 G.
///
/// Measured on one thread (nodes, the guess's included): FFO 48-52 1.365 G with the open
/// window, 1.204 G with a window of one disc around the true score, and with the guess
/// 1.256 G with a half-width of 1, 1.238 G with 2, 1.301 G with 3 and 1.300 G with 4;
/// FFO 53 2.498 G open, 2.260 G / 2.223 G / 2.223 G / 2.497 G with 1 / 2 / 3 / 4; with 3,
/// FFO 54 5.366 G → 3.716 G and FFO 57 2.785 G → 2.020 G; with 2, FFO 57 1.545 G and FFO
/// 58 (guessed 4 low) 1.120 G → 1.228 G; FFO 40-59 in all 22.05 G (22.09 G after the
/// change of [`SOLVE_POTENTIAL_EMPTIES`]). The guess costs 0.02-1.18 M nodes on FFO 40-59
/// and is off by 0 to 9 discs (9 on FFO 48); a 14-ply guess did no better (FFO 48-52
/// 1.252 G).
pub const SOLVE_ASPIRATION_EMPTIES: u32 = 18;
pub const SOLVE_ESTIMATE_DEPTH: u32 = 12;
pub const SOLVE_ESTIMATE_SELECTIVITY: u8 = 2;
/// The guess searches at most `n - SOLVE_ESTIMATE_MARGIN` plies in a position with `n`
/// empties (and [`SOLVE_ESTIMATE_DEPTH`] from 22 empties on). A 12-ply guess at 18 empties
/// was two thirds of the tree and a third of the solve (callgrind, the first 40 games of
/// `WTH_2018.wtb` at 18 empties: `guess` 36% of the instructions). One thread, the first
/// 60 games of `WTH_2017.wtb` at `--empties` 18 / 19 / 20 / 21: with the fixed 12 plies
/// 78.0 M / 141.3 M / 275.2 M / 562.2 M nodes and 3.80 / 5.79 / 11.50 / 25.61 s; with a
/// margin of 10, 72.1 M / 135.0 M / 255.9 M / 563.2 M and 2.89 / 4.89 / 11.39 / 24.47 s;
/// with 12, 73.9 M / 137.0 M / 264.2 M / 563.4 M and 2.75 / 5.01 / 11.62 / 24.12 s (and
/// at 22 empties 3% fewer nodes, in the noise in time). Without any guess at 18 empties
/// (the first 40 games of 2018) 1.10 s, as with a margin of 10, against 1.75 s. One
/// position can lose: FFO 40 (20 empties, one thread) 12.68 M nodes and 0.56 s against
/// 9.57 M and 0.43 s with 12 plies.
pub const SOLVE_ESTIMATE_MARGIN: u32 = 10;
pub const SOLVE_ASPIRATION_HALF: i32 = 2;
// (Re-checked with the pre-search, whose score the exact search starts from: a
// half-width of 1 for both, FFO 53-54 on one thread side by side 4.792 G nodes and
// 242.9 s against 4.720 G and 244.9 s. Not kept.)

/// Empties from which an exact solve first searches the root selectively to the end of
/// the game (Multi-ProbCut on, exact at and below [`SOLVE_PRESEARCH_EXACT_EMPTIES`]), at each of
/// [`SOLVE_PRESEARCH_SELECTIVITIES`] in turn, in the solver's own table: the exact search
/// then finds a good first move at nearly every node of its upper tree. The cost is a
/// fifth of the nodes, at a dearer rate (midgame nodes); the saving is a third of the
/// exact search's.
///
/// One thread, two builds side by side on the two cores of the AMD EPYC (nodes are
/// deterministic, times from the same pair; the pre-search exact from 14 empties unless
/// said):
///
/// | FFO | without | 95% | 73% then 95% |
/// |---|---|---|---|
/// | 53 (28 empties) | 2.395 G, 111.6 s | 2.266 G, 122.7 s | 1.951 G |
/// | 54 (28) | 4.165 G, 190.9 s | 3.155 G, 165.9 s | 3.040 G |
/// | 55 (29), exact from 16 | 11.988 G, 632.7 s | | 8.385 G, 520.1 s |
///
/// (73% alone: 53 2.128 G, 54 3.994 G; the 73% search costs 24 M nodes on 54 and the
/// 95% one 619 M, on 55 363 M and 1.34 G.) FFO 48-52 (25-27 empties), 95%: 1.339 G →
/// 1.180 G nodes but 80.5 s → 79.5 s; 73%: 1.232 G, 77.3 s; 87%: 1.335 G, 84.6 s; 98%:
/// 1.350 G, 98.0 s; 73% then 95%: 1.267 G, 83.4 s: no clear gain below 28 empties.
/// FFO 56-58 (29-30 empties), exact from 16: 3.812 G nodes, 215.0 s without; 3.464 G,
/// 208.0 s with 73% then 87%; 3.238 G, 212.4 s with 73% then 95%; 3.395 G, 211.5 s with
/// 87% alone: fewer nodes, the same time. Two threads (`--threads 2 --hash-mb 512`),
/// FFO 53-54 one build after the other: 7.317 G nodes, 183.3 s without, 5.570 G, 155.0 s
/// with; FFO 40-59 (`scripts/ffo.sh 2`, README) 18.24 G nodes, 642 s, against 25.25 G,
/// 709 s in an earlier hour.
pub const SOLVE_PRESEARCH_EMPTIES: u32 = 28;
// (73% then 87% from 25 empties, against 28, one thread side by side, two rounds: FFO
// 48-52 1.358 G nodes and 89.9/91.8 s against 1.339 G and 86.4/84.5 s. Not kept.)
/// Indices into the Multi-ProbCut selectivities (`mpc::SELECTIVITY_PERCENT`): 73%, then
/// 87%. Against 73% then 95% (the table above), one thread side by side, exact from 16:
/// FFO 55 (table of 256 MB) 7.587 G nodes, 480.0 s against 8.385 G, 544.1 s (the 87%
/// search costs 560 M nodes, the 95% one 1.342 G); FFO 53-54 4.720 G, 248.1 s against
/// 5.265 G, 286.8 s; FFO 56-58 about the same (above).
pub const SOLVE_PRESEARCH_SELECTIVITIES: &[u8] = &[5, 4];
// (Re-checked with the solver's own weights (ridge 64), one thread with 1 GiB: 73% then
// 95%, FFO 53-54 3.455 G nodes against 3.551 G, but 56-58 2.524 G against 2.398 G; the
// same in all. The Multi-ProbCut table was fitted on midgame searches of up to 12 plies
// and is stretched past them (3% more error a ply); against the exact scores of WTHOR
// positions of 17-24 empties (80 each, the solver's weights, no probable cuts), the
// error of the shallow search the pre-search uses (`mpc::shallow_depth(n)` plies) was
// 4.47, 5.07, 4.11, 4.43, 3.94, 5.09, 3.91 and 3.34 discs at 17 to 24 empties, where the
// table gives 5.32-5.60 below 20 empties and 4.14-4.54 from 20 to 24: the stretched
// table is not far off where it can be checked, so no endgame table of its own was
// fitted (a throwaway `calibrate-mpc` mode, 2026-12-02).)
/// Empties at and below which the pre-search solves exactly (as
/// [`MID_END_EXACT_EMPTIES`] for the engine's searches). FFO 54 at 95%: 3.057 G nodes
/// from 12 (the exact search's share included), 3.155 G from 14, 3.241 G from 18,
/// 3.190 G from 20; 73% then 95%: 3.040 G from 14, 3.097 G from 18; with 18 the run was
/// 150.3 s against 179.8 s without the pre-search, side by side. 16 is the middle of
/// that flat range (only FFO 55 was run with it before the choice).
pub const SOLVE_PRESEARCH_EXACT_EMPTIES: u32 = 16;

/// Moves searched alone at a node before the rest may be split over the threads. One is
/// the classic young-brothers-wait; more waits until a node looks like an all-node, so
/// less parallel work is thrown away at cut-nodes whose first move did not cut.
pub const SOLVE_SPLIT_AFTER: usize = 2;
// (FFO 53 with two threads, alternating with this: after 3 moves, 2.63/2.62 G nodes and
// 61.6/53.1 s against 2.48/2.46 G and 62.2/51.3 s; after one move at expected all-nodes
// and PV nodes, two at expected cut-nodes, 2.76/2.72 G and 64.1/68.7 s against 2.46/2.46 G
// and 60.1/52.5 s.)
// (Where two threads' extra nodes come from, counted with a throwaway build on FFO 48-52
// (2026-12-02): 1.04-1.05 G nodes against 0.956 G on one thread, and the same 1.04 G
// when only nodes of 20 or more empties are split, so the extra is made near the root.
// On FFO 52 (27 empties), splits at the root alone gave 178 M nodes against 167 M, and
// splits at 25-27 empties 199 M: it is the splits of PV nodes (open windows). A helper
// searches its move with the alpha of the moment; when another move raises alpha
// meanwhile, the helper's search goes on at the old one. That happened once on FFO 52,
// and that one search took 24 M nodes. Moves aborted by a cut-off took 29 M of the 43 M
// extra nodes of FFO 49. Not splitting PV nodes at all: FFO 48-53 2.369 G nodes against
// 2.419 G, but 55.1/54.3/55.0/51.3 s against 54.4/53.2/53.4/51.9 s, one build after the
// other. The other thread waits idle while a PV node's first moves are searched. Over
// all of FFO 40-59 two threads search only 3.3% more nodes than one (12.77 G against
// 12.36 G at 72c48df), so restarting a helper whose alpha went stale could save at most
// about that. Not tried.)

/// Empties at and below which a midgame node whose depth reaches the end of the game is
/// solved exactly even when probable cuts are on. Higher: exact endgames cost more
/// nodes; lower: more of the endgame is searched with (unsafe) probable cuts.
pub const MID_END_EXACT_EMPTIES: u32 = 14;

/// Midgame depth from which a node may be split over the threads, and how many moves it
/// searches alone first. Lower depth: more split overhead for small subtrees.
pub const MID_SPLIT_DEPTH: u32 = 4;
pub const MID_SPLIT_AFTER: usize = 1;

/// Midgame depth from which moves are ordered by a search of each child (of depth
/// `(depth - MID_ORDER_SEARCH_DEPTH) / MID_ORDER_SEARCH_DIVISOR`, 0 = the evaluation)
/// rather than by the cheap terms. Lower: ordering costs more nodes than it saves.
pub const MID_ORDER_SEARCH_DEPTH: u32 = 5;
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
