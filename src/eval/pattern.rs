//! The pattern evaluation: the sum of one trained weight per pattern instance, looked up by
//! the instance's configuration of discs, plus both sides' mobility and the parity, with a
//! weight table per game stage (every two empties).
//!
//! Eleven patterns cover the corners (3x3 and 2x5 blocks), the edges with their X-squares,
//! the second to fourth rows and columns, and the diagonals of length 4 to 8; their 46
//! instances are the images of each pattern under the eight symmetries of the board. Two
//! more patterns of ten squares (the corner triangle, and the edge with its corners and
//! the middle four squares of the second row; 8 instances) are read only by a network over
//! the extended features ([`active_net`]); [`Indices`] and [`Digits`] keep all 54.
//!
//! Instances share their pattern's weights: instance `(pattern, sym)` reads the pattern's
//! squares, in ascending order, on the board transformed by symmetry `sym`, so every
//! instance indexes the same table in the same digit order. A pattern that some symmetry
//! maps onto itself (the 3x3 corner by the diagonal, the edge by its mirror, the lines by
//! their reversal) has configurations that are mirror images of each other; the trainer
//! fits one weight for each class ([`canonical`]) and the table holds it under every
//! member, so the evaluation of all eight symmetries of a position is the same.
//!
//! Digits: the square's digit is 0 when empty, 1 for the side to move and 2 for the
//! opponent; the lowest square of the mask is the least significant digit. The ternary
//! index is computed from two `pext` results and a binary-to-ternary table.

use crate::bitboard::{self, pdep, pext};
use crate::board::Position;

/// One pattern: a set of squares (in its base orientation) and a name.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    pub name: &'static str,
    pub mask: u64,
}

/// The patterns of the linear evaluation, in weight-table order.
pub const PATTERNS: [Pattern; N_PATTERNS] = {
    let mut out = [ALL_PATTERNS[0]; N_PATTERNS];
    let mut p = 0;
    while p < N_PATTERNS {
        out[p] = ALL_PATTERNS[p];
        p += 1;
    }
    out
};

/// Every pattern: the linear evaluation's ([`PATTERNS`]), then the two that the extended
/// network reads as well ([`NET_EXTRA_PATTERNS`] of them: the corner triangle of ten
/// squares and the edge with its corners and the four squares inside its middle).
pub const ALL_PATTERNS: [Pattern; N_ALL_PATTERNS] = [
    Pattern {
        name: "corner 3x3",
        mask: 0x0007_0707,
    },
    Pattern {
        name: "corner 2x5",
        mask: 0x1F1F,
    },
    Pattern {
        name: "edge + 2X",
        mask: 0x42FF,
    },
    Pattern {
        name: "row 2",
        mask: 0xFF00,
    },
    Pattern {
        name: "row 3",
        mask: 0x00FF_0000,
    },
    Pattern {
        name: "row 4",
        mask: 0xFF00_0000,
    },
    Pattern {
        name: "diagonal 8",
        mask: 0x8040_2010_0804_0201,
    },
    Pattern {
        name: "diagonal 7",
        mask: 0x0080_4020_1008_0402,
    },
    Pattern {
        name: "diagonal 6",
        mask: 0x0000_8040_2010_0804,
    },
    Pattern {
        name: "diagonal 5",
        mask: 0x0000_0080_4020_1008,
    },
    Pattern {
        name: "diagonal 4",
        mask: 0x0000_0000_8040_2010,
    },
    Pattern {
        name: "corner triangle",
        mask: 0x0103_070F,
    },
    Pattern {
        name: "edge + corners block",
        mask: 0x3CBD,
    },
];

/// Number of patterns of the linear evaluation.
pub const N_PATTERNS: usize = 11;

/// Patterns that only the extended network reads.
pub const NET_EXTRA_PATTERNS: usize = 2;

/// Number of patterns in all.
pub const N_ALL_PATTERNS: usize = N_PATTERNS + NET_EXTRA_PATTERNS;

/// Number of pattern instances of the linear evaluation on the board.
pub const N_INSTANCES: usize = count_instances(N_PATTERNS);

/// Number of instances of all the patterns; the first [`N_INSTANCES`] are the linear
/// evaluation's.
pub const N_ALL_INSTANCES: usize = count_instances(N_ALL_PATTERNS);

/// Number of game stages (two empties each: stage 0 is 1-2 empties, stage 29 59-60).
pub const N_STAGES: usize = 30;

/// Mobility counts above this share the last weight.
pub const MAX_MOBILITY: usize = 32;

/// Weights of each stage: the patterns' tables, then the side to move's mobility (0 to
/// [`MAX_MOBILITY`]), the opponent's mobility, then parity (even, odd number of empties).
pub const N_WEIGHTS: usize = MOBILITY_OFFSET + 2 * (MAX_MOBILITY + 1) + 2;

/// Where each pattern's table starts among the extended network's features: the linear
/// evaluation's at [`OFFSETS`], then those of the patterns only the network reads, after
/// a stage's whole table ([`N_WEIGHTS`]).
pub const NET_OFFSETS: [usize; N_ALL_PATTERNS + 1] = {
    let mut o = [0; N_ALL_PATTERNS + 1];
    let mut p = 0;
    while p < N_PATTERNS {
        o[p] = OFFSETS[p];
        p += 1;
    }
    o[N_PATTERNS] = N_WEIGHTS;
    while p < N_ALL_PATTERNS {
        o[p + 1] = o[p] + table_size(p);
        p += 1;
    }
    o
};

/// The extended network's features: a stage's table, then the extra patterns' tables.
pub const N_NET_WEIGHTS: usize = NET_OFFSETS[N_ALL_PATTERNS];

/// The extended network's active features: [`active`]'s, then one per extra instance.
pub const N_NET_ACTIVE: usize = N_ACTIVE + N_ALL_INSTANCES - N_INSTANCES;

/// Identifies the extended network's features (the linear evaluation's pattern set and
/// the extra patterns) in network files.
pub const NET_EXTENDED_SET_ID: u32 = fnv_masks(PATTERN_SET_ID, N_PATTERNS, N_ALL_PATTERNS);

/// Offset of the mobility weights in a stage's table.
pub const MOBILITY_OFFSET: usize = OFFSETS[N_PATTERNS];

/// Offset of the opponent's mobility weights.
pub const OPPONENT_MOBILITY_OFFSET: usize = MOBILITY_OFFSET + MAX_MOBILITY + 1;

/// Offset of the parity weights.
pub const PARITY_OFFSET: usize = OPPONENT_MOBILITY_OFFSET + MAX_MOBILITY + 1;

/// Active weights of one position: one per instance, two mobilities, parity.
pub const N_ACTIVE: usize = N_INSTANCES + 3;

/// Weights are in 1/SCALE disc.
pub const SCALE: i32 = 128;

/// Identifies this set of patterns, stages and extra terms in weight files.
pub const PATTERN_SET_ID: u32 = pattern_set_id();

/// Where each pattern's table starts in a stage's weights.
pub const OFFSETS: [usize; N_PATTERNS + 1] = offsets();

/// Every instance of all the patterns as (pattern, symmetry), the linear evaluation's
/// first.
pub const ALL_INSTANCES: [(u8, u8); N_ALL_INSTANCES] = instances();

/// Every instance of the linear evaluation as (pattern, symmetry).
pub const INSTANCES: [(u8, u8); N_INSTANCES] = {
    let mut out = [(0u8, 0u8); N_INSTANCES];
    let mut k = 0;
    while k < N_INSTANCES {
        out[k] = ALL_INSTANCES[k];
        k += 1;
    }
    out
};

/// The squares of every instance on the board itself: instance `k` = (pattern `p`,
/// symmetry `s`) reads the squares that `s` maps onto `p`'s mask.
pub const INSTANCE_MASKS: [u64; N_ALL_INSTANCES] = {
    let mut out = [0u64; N_ALL_INSTANCES];
    let mut k = 0;
    while k < N_ALL_INSTANCES {
        let (p, s) = ALL_INSTANCES[k];
        out[k] = bitboard::inverse_symmetry(ALL_PATTERNS[p as usize].mask, s);
        k += 1;
    }
    out
};

/// For each instance, the ternary digit (the rank of the square in the pattern's mask)
/// of each of its squares taken in board order, as `pext` on [`INSTANCE_MASKS`] lists
/// them; unused entries are `u8::MAX`.
const fn digit_order(k: usize) -> [u8; 10] {
    let (p, s) = ALL_INSTANCES[k];
    let mask = ALL_PATTERNS[p as usize].mask;
    let mut order = [u8::MAX; 10];
    let mut squares = INSTANCE_MASKS[k];
    let mut j = 0;
    while squares != 0 {
        let x = squares.trailing_zeros() as u8;
        let image = bitboard::symmetry_square(x, s);
        order[j] = (mask & ((1u64 << image) - 1)).count_ones() as u8;
        squares &= squares - 1;
        j += 1;
    }
    order
}

/// The distinct digit orders of the instances, how many there are, and each instance's.
const ORDERS: ([[u8; 10]; N_ALL_INSTANCES], usize, [u8; N_ALL_INSTANCES]) = {
    let mut distinct = [[0u8; 10]; N_ALL_INSTANCES];
    let mut n = 0;
    let mut of = [0u8; N_ALL_INSTANCES];
    let mut k = 0;
    while k < N_ALL_INSTANCES {
        let order = digit_order(k);
        let mut found = n;
        let mut i = 0;
        while i < n {
            let mut same = true;
            let mut d = 0;
            while d < 10 {
                if distinct[i][d] != order[d] {
                    same = false;
                }
                d += 1;
            }
            if same && found == n {
                found = i;
            }
            i += 1;
        }
        if found == n {
            distinct[n] = order;
            n += 1;
        }
        of[k] = found as u8;
        k += 1;
    }
    (distinct, n, of)
};

/// Number of distinct digit orders among the instances.
const N_ORDERS: usize = ORDERS.1;

/// Squares in digit order `t` (its table has `2^n` entries).
const fn order_len(t: usize) -> usize {
    let mut n = 0;
    while n < 10 && ORDERS.0[t][n] != u8::MAX {
        n += 1;
    }
    n
}

/// Where each digit order's table starts in [`INSTANCE_TERNARY`], and the total length.
const ORDER_OFFSETS: [usize; N_ORDERS + 1] = {
    let mut o = [0; N_ORDERS + 1];
    let mut t = 0;
    while t < N_ORDERS {
        o[t + 1] = o[t] + (1 << order_len(t));
        t += 1;
    }
    o
};

/// The tables of the digit orders, one after the other: entry `b` of order `t`'s table
/// (at [`ORDER_OFFSETS`]`[t] + b`) is the ternary number with digit 1 at the pattern rank
/// of every square whose bit is set in `b` (`b` as `pext` on an instance's mask returns
/// it). With them an instance's index comes from the board itself, without transforming
/// the board first.
static INSTANCE_TERNARY: [u16; ORDER_OFFSETS[N_ORDERS]] = {
    let mut table = [0u16; ORDER_OFFSETS[N_ORDERS]];
    let mut t = 0;
    while t < N_ORDERS {
        let order = ORDERS.0[t];
        let n = order_len(t);
        let mut b = 0;
        while b < 1 << n {
            let mut v = 0u32;
            let mut j = 0;
            while j < n {
                if b & (1 << j) != 0 {
                    v += pow3(order[j] as u32) as u32;
                }
                j += 1;
            }
            table[ORDER_OFFSETS[t] + b] = v as u16;
            b += 1;
        }
        t += 1;
    }
    table
};

/// Where each instance's table starts in [`INSTANCE_TERNARY`].
const INSTANCE_TABLE: [usize; N_ALL_INSTANCES] = {
    let mut out = [0; N_ALL_INSTANCES];
    let mut k = 0;
    while k < N_ALL_INSTANCES {
        out[k] = ORDER_OFFSETS[ORDERS.2[k] as usize];
        k += 1;
    }
    out
};

/// The ternary index of instance `k` on `(player, opponent)`, in its pattern's table.
#[inline(always)]
fn instance_index(k: usize, player: u64, opponent: u64) -> usize {
    let mask = INSTANCE_MASKS[k];
    let start = INSTANCE_TABLE[k];
    let (a, b) = (pext(player, mask) as usize, pext(opponent, mask) as usize);
    debug_assert!(a < 1 << mask.count_ones() && b < 1 << mask.count_ones());
    // SAFETY: `pext` on a mask of n squares returns less than 2^n, the length of the
    // instance's table, which lies within INSTANCE_TERNARY.
    unsafe {
        *INSTANCE_TERNARY.get_unchecked(start + a) as usize
            + 2 * *INSTANCE_TERNARY.get_unchecked(start + b) as usize
    }
}

const fn pow3(n: u32) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Size of pattern `p`'s table.
pub const fn table_size(p: usize) -> usize {
    pow3(ALL_PATTERNS[p].mask.count_ones())
}

const fn offsets() -> [usize; N_PATTERNS + 1] {
    let mut o = [0; N_PATTERNS + 1];
    let mut p = 0;
    while p < N_PATTERNS {
        o[p + 1] = o[p] + table_size(p);
        p += 1;
    }
    o
}

/// The symmetries whose images of pattern `p` are distinct square sets, lowest first: the
/// instances of `p` read `p`'s mask on the board transformed by each of them.
const fn pattern_syms(p: usize) -> ([u8; 8], usize) {
    let mut syms = [0u8; 8];
    let mut seen = [0u64; 8];
    let mut n = 0;
    let mut s = 0;
    while s < 8 {
        // Instance squares on the original board.
        let squares = bitboard::inverse_symmetry(ALL_PATTERNS[p].mask, s as u8);
        let mut dup = false;
        let mut i = 0;
        while i < n {
            if seen[i] == squares {
                dup = true;
            }
            i += 1;
        }
        if !dup {
            seen[n] = squares;
            syms[n] = s as u8;
            n += 1;
        }
        s += 1;
    }
    (syms, n)
}

const fn count_instances(patterns: usize) -> usize {
    let mut total = 0;
    let mut p = 0;
    while p < patterns {
        total += pattern_syms(p).1;
        p += 1;
    }
    total
}

const fn instances() -> [(u8, u8); N_ALL_INSTANCES] {
    let mut out = [(0u8, 0u8); N_ALL_INSTANCES];
    let mut k = 0;
    let mut p = 0;
    while p < N_ALL_PATTERNS {
        let (syms, n) = pattern_syms(p);
        let mut i = 0;
        while i < n {
            out[k] = (p as u8, syms[i]);
            k += 1;
            i += 1;
        }
        p += 1;
    }
    out
}

/// FNV-1a from `h` over the bytes of the masks of patterns `from..to` ([`ALL_PATTERNS`]).
const fn fnv_masks(mut h: u32, from: usize, to: usize) -> u32 {
    let mut p = from;
    while p < to {
        let mut b = 0;
        while b < 8 {
            h ^= ((ALL_PATTERNS[p].mask >> (8 * b)) & 0xFF) as u32;
            h = h.wrapping_mul(0x0100_0193);
            b += 1;
        }
        p += 1;
    }
    h
}

const fn pattern_set_id() -> u32 {
    // FNV-1a over the masks, the stage count and the extra terms.
    let mut h = fnv_masks(0x811C_9DC5, 0, N_PATTERNS);
    h ^= N_STAGES as u32;
    h = h.wrapping_mul(0x0100_0193);
    h ^= (MAX_MOBILITY as u32) << 8;
    h.wrapping_mul(0x0100_0193)
}

/// The stage of a position with `n_empties` empty squares (more than 60, as early in
/// Reversi 1889, counts as 60).
#[inline]
pub const fn stage(n_empties: u32) -> usize {
    let e = if n_empties < 1 {
        1
    } else if n_empties > 60 {
        60
    } else {
        n_empties
    };
    ((e - 1) / 2) as usize
}

/// Binary digits read as ternary: `TERNARY[b]` has digit 1 wherever `b` has bit 1.
static TERNARY: [u16; 1024] = ternary_table();

const fn ternary_table() -> [u16; 1024] {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while i < 10 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
}

/// The ternary index of `mask`'s squares on `(player, opponent)`.
#[inline(always)]
fn index(player: u64, opponent: u64, mask: u64) -> usize {
    TERNARY[pext(player, mask) as usize] as usize
        + 2 * TERNARY[pext(opponent, mask) as usize] as usize
}

/// The index in a stage's table of every active weight of `pos`: one per instance, then
/// the two mobilities and the parity. `moves` are both sides' legal moves.
#[inline]
pub fn active(pos: &Position, my_moves: u64, their_moves: u64) -> [u32; N_ACTIVE] {
    let mut out = [0u32; N_ACTIVE];
    for (k, &(p, _)) in INSTANCES.iter().enumerate() {
        out[k] = (OFFSETS[p as usize] + instance_index(k, pos.player, pos.opponent)) as u32;
    }
    out[N_INSTANCES] =
        (MOBILITY_OFFSET + (my_moves.count_ones() as usize).min(MAX_MOBILITY)) as u32;
    out[N_INSTANCES + 1] =
        (OPPONENT_MOBILITY_OFFSET + (their_moves.count_ones() as usize).min(MAX_MOBILITY)) as u32;
    out[N_INSTANCES + 2] = (PARITY_OFFSET + (pos.n_empties() & 1) as usize) as u32;
    out
}

/// [`active`], then the index among the extended network's features ([`NET_OFFSETS`]) of
/// every instance of the patterns only that network reads.
#[inline]
pub fn active_net(pos: &Position, my_moves: u64, their_moves: u64) -> [u32; N_NET_ACTIVE] {
    let mut out = [0u32; N_NET_ACTIVE];
    out[..N_ACTIVE].copy_from_slice(&active(pos, my_moves, their_moves));
    for k in N_INSTANCES..N_ALL_INSTANCES {
        let p = ALL_INSTANCES[k].0 as usize;
        out[N_ACTIVE + k - N_INSTANCES] =
            (NET_OFFSETS[p] + instance_index(k, pos.player, pos.opponent)) as u32;
    }
    out
}

/// The weight of instance `K` of `pos` in `weights`.
#[inline(always)]
fn instance_weight<const K: usize>(weights: &[i16; N_WEIGHTS], pos: &Position) -> i32 {
    let p = INSTANCES[K].0 as usize;
    let i = OFFSETS[p] + instance_index(K, pos.player, pos.opponent);
    debug_assert!(i < OFFSETS[p + 1]);
    // SAFETY: the two ternary numbers have no digit in common, so the index is below
    // 3^n, the size of the pattern's table, which ends within the stage's weights.
    i32::from(unsafe { *weights.get_unchecked(i) })
}

macro_rules! sum_instances {
    ($w:expr, $pos:expr, $($k:literal)*) => {
        0 $(+ instance_weight::<$k>($w, $pos))*
    };
}

/// Lanes of [`Indices`]: all the instances, padded to a whole number of 256-bit vectors.
pub const INDEX_LANES: usize = 64;
const _: () = assert!(N_ALL_INSTANCES <= INDEX_LANES);

/// The ternary index of every instance of a position (within its pattern's table), kept
/// so that its children's can be updated from it ([`Indices::child`]) instead of being
/// computed from the board: a move changes the digits of the squares it plays and flips
/// only, a few vector additions against the 92 `pext` and table reads of [`sum`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Indices([u16; INDEX_LANES]);

/// Builds, for every square, the [`Indices`] of a board with digit 1 on that square alone
/// (`3^rank` in each instance holding the square, 0 elsewhere).
const fn square_digits() -> [Indices; 64] {
    let mut out = [Indices([0; INDEX_LANES]); 64];
    let mut x = 0;
    while x < 64 {
        let mut k = 0;
        while k < N_ALL_INSTANCES {
            let mask = INSTANCE_MASKS[k];
            if mask & (1u64 << x) != 0 {
                // The square's position among the instance's squares in board order (as
                // `pext` lists them), then its digit in the pattern's order.
                let j = (mask & ((1u64 << x) - 1)).count_ones() as usize;
                let digit = ORDERS.0[ORDERS.2[k] as usize][j];
                out[x].0[k] = pow3(digit as u32) as u16;
            }
            k += 1;
        }
        x += 1;
    }
    out
}

/// [`square_digits`], built at compile time.
static SQUARE_DIGITS: [Indices; 64] = square_digits();

impl Indices {
    /// The indices of the position with `player` to move against `opponent`.
    pub fn of(player: u64, opponent: u64) -> Indices {
        let mut out = Indices([0; INDEX_LANES]);
        for (k, lane) in out.0.iter_mut().take(N_ALL_INSTANCES).enumerate() {
            *lane = instance_index(k, player, opponent) as u16;
        }
        out
    }

    /// The indices of the children of `pos`: those of `pos` with the sides swapped (the
    /// child's side to move is `pos`'s opponent), for [`Indices::child`].
    pub fn children_base(pos: &Position) -> Indices {
        Indices::of(pos.opponent, pos.player)
    }

    /// The indices of the child where the side to move plays `square` and flips
    /// `flipped`, from the [`Indices::children_base`] of the parent. The child's side to
    /// move is the parent's opponent, so a flipped disc's digit goes from 2 to 1 (less
    /// one unit of its square) and the played square's from 0 to 2; in all, every
    /// flipped square's unit is added and twice the played square's.
    #[inline(always)]
    pub fn child(&self, square: u8, flipped: u64) -> Indices {
        let mut out = *self;
        let played = &SQUARE_DIGITS[square as usize & 63];
        out.add(played);
        out.add(played);
        let mut rest = flipped;
        while rest != 0 {
            out.add(&SQUARE_DIGITS[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        out
    }

    /// Every instance's index, then padding lanes.
    #[inline(always)]
    pub fn lanes(&self) -> &[u16; INDEX_LANES] {
        &self.0
    }

    #[inline(always)]
    fn add(&mut self, other: &Indices) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.wrapping_add(*b);
        }
    }

    #[inline(always)]
    fn sub(&mut self, other: &Indices) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.wrapping_sub(*b);
        }
    }
}

/// The digits of a position's instances kept side by side: the discs of the side to move
/// alone (each as digit 1) and the opponent's alone, so that both sides' indices
/// ([`Digits::own`], [`Digits::children_base`]) and a child's digits
/// ([`Digits::after`]) are a few vector additions, without reading the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digits {
    mine: Indices,
    theirs: Indices,
}

impl Digits {
    /// The digits of the position with `player` to move against `opponent`.
    pub fn of(player: u64, opponent: u64) -> Digits {
        let mut out = Digits {
            mine: Indices([0; INDEX_LANES]),
            theirs: Indices([0; INDEX_LANES]),
        };
        for k in 0..N_ALL_INSTANCES {
            let mask = INSTANCE_MASKS[k];
            let start = INSTANCE_TABLE[k];
            let (a, b) = (pext(player, mask) as usize, pext(opponent, mask) as usize);
            out.mine.0[k] = INSTANCE_TERNARY[start + a];
            out.theirs.0[k] = INSTANCE_TERNARY[start + b];
        }
        out
    }

    /// The digits after the side to move plays `square` and flips `flipped`.
    #[inline(always)]
    pub fn after(&self, square: u8, flipped: u64) -> Digits {
        let mut moved = Indices([0; INDEX_LANES]);
        let mut rest = flipped;
        while rest != 0 {
            moved.add(&SQUARE_DIGITS[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        let mut mine = self.theirs;
        mine.sub(&moved);
        let mut theirs = self.mine;
        theirs.add(&moved);
        theirs.add(&SQUARE_DIGITS[square as usize & 63]);
        Digits { mine, theirs }
    }

    /// The digits after a pass.
    #[inline(always)]
    pub fn swapped(&self) -> Digits {
        Digits {
            mine: self.theirs,
            theirs: self.mine,
        }
    }

    /// The position's own indices (as [`Indices::of`]).
    #[inline(always)]
    pub fn own(&self) -> Indices {
        let mut out = self.theirs;
        out.add(&self.theirs);
        out.add(&self.mine);
        out
    }

    /// The indices of the position with the sides swapped (as [`Indices::children_base`]).
    #[inline(always)]
    pub fn children_base(&self) -> Indices {
        let mut out = self.mine;
        out.add(&self.mine);
        out.add(&self.theirs);
        out
    }
}

macro_rules! sum_indexed_instances {
    ($w:expr, $idx:expr, $($k:literal)*) => {
        0 $(+ indexed_weight::<$k>($w, $idx))*
    };
}

/// The weight of instance `K` at index `idx.0[K]`. A lane past its pattern's table (never
/// on a real position's indices) reads another weight of the stage, or 0 past the end.
#[inline(always)]
fn indexed_weight<const K: usize>(weights: &[i16; N_WEIGHTS], idx: &Indices) -> i32 {
    let p = INSTANCES[K].0 as usize;
    let i = OFFSETS[p] + idx.0[K] as usize;
    debug_assert!(i < OFFSETS[p + 1]);
    i32::from(weights.get(i).copied().unwrap_or(0))
}

/// [`sum`] from the position's [`Indices`] (and its number of empties) instead of its
/// board; the same value when `idx` are the position's indices.
#[inline]
pub fn sum_indexed(
    weights: &[i16; N_WEIGHTS],
    idx: &Indices,
    n_empties: u32,
    my_moves: u64,
    their_moves: u64,
) -> i32 {
    const _: () = assert!(N_INSTANCES == 46);
    let patterns = sum_indexed_instances!(weights, idx,
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45);
    patterns + extra_terms(weights, n_empties, my_moves, their_moves)
}

/// The sum of `weights` (one stage's table) over the active weights of `pos`, in 1/SCALE
/// disc. The 46 instances are unrolled, so every mask and offset is a constant.
#[inline]
pub fn sum(weights: &[i16; N_WEIGHTS], pos: &Position, my_moves: u64, their_moves: u64) -> i32 {
    const _: () = assert!(N_INSTANCES == 46);
    let patterns = sum_instances!(weights, pos,
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45);
    patterns + extra_terms(weights, pos.n_empties(), my_moves, their_moves)
}

/// The indices, in a stage's table, of both sides' mobility weights and of the parity's.
#[inline(always)]
pub fn extra_features(n_empties: u32, my_moves: u64, their_moves: u64) -> [usize; 3] {
    [
        MOBILITY_OFFSET + (my_moves.count_ones() as usize).min(MAX_MOBILITY),
        OPPONENT_MOBILITY_OFFSET + (their_moves.count_ones() as usize).min(MAX_MOBILITY),
        PARITY_OFFSET + (n_empties & 1) as usize,
    ]
}

/// The weights of both sides' mobility and of the parity.
#[inline(always)]
fn extra_terms(weights: &[i16; N_WEIGHTS], n_empties: u32, my_moves: u64, their_moves: u64) -> i32 {
    i32::from(weights[MOBILITY_OFFSET + (my_moves.count_ones() as usize).min(MAX_MOBILITY)])
        + i32::from(
            weights
                [OPPONENT_MOBILITY_OFFSET + (their_moves.count_ones() as usize).min(MAX_MOBILITY)],
        )
        + i32::from(weights[PARITY_OFFSET + (n_empties & 1) as usize])
}

/// For every weight of a stage's table, the representative of its class under the
/// symmetries that map a pattern onto itself (the smallest index of the class); the
/// extra terms are their own representatives.
pub fn canonical() -> Vec<u32> {
    let mut canon = canonical_net();
    canon.truncate(N_WEIGHTS);
    canon
}

/// [`canonical`] for the extended network's features ([`N_NET_WEIGHTS`]): a stage's
/// table, then the tables of the patterns only the network reads.
pub fn canonical_net() -> Vec<u32> {
    let mut canon: Vec<u32> = (0..N_NET_WEIGHTS as u32).collect();
    for (p, pattern) in ALL_PATTERNS.iter().enumerate() {
        let mask = pattern.mask;
        let stabiliser: Vec<u8> = (1..8u8)
            .filter(|&s| bitboard::symmetry(mask, s) == mask)
            .collect();
        let n = mask.count_ones();
        for idx in 0..table_size(p) {
            // Decode the digits into discs on the mask.
            let (mut pb, mut ob, mut rest) = (0u64, 0u64, idx);
            for d in 0..n {
                match rest % 3 {
                    1 => pb |= 1 << d,
                    2 => ob |= 1 << d,
                    _ => {}
                }
                rest /= 3;
            }
            let (pl, op) = (pdep(pb, mask), pdep(ob, mask));
            let mut best = idx;
            for &s in &stabiliser {
                let i = index(bitboard::symmetry(pl, s), bitboard::symmetry(op, s), mask);
                best = best.min(i);
            }
            canon[NET_OFFSETS[p] + idx] = (NET_OFFSETS[p] + best) as u32;
        }
    }
    canon
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::pext_portable;

    /// The eight images of a position: `boards[s]` is `pos.symmetry(s)`.
    fn symmetric_boards(pos: &Position) -> [(u64, u64); 8] {
        let sym = |b: u64| {
            let m = bitboard::mirror_horizontal(b);
            let v = bitboard::flip_vertical(b);
            let mv = bitboard::flip_vertical(m);
            [
                b,
                m,
                v,
                mv,
                bitboard::flip_diagonal(b),
                bitboard::flip_diagonal(m),
                bitboard::flip_diagonal(v),
                bitboard::flip_diagonal(mv),
            ]
        };
        let p = sym(pos.player);
        let o = sym(pos.opponent);
        let mut out = [(0, 0); 8];
        for s in 0..8 {
            out[s] = (p[s], o[s]);
        }
        out
    }

    #[test]
    fn instances_cover_each_orbit_once() {
        assert_eq!(N_INSTANCES, 46);
        let mut per_pattern = [0; N_PATTERNS];
        for &(p, _) in INSTANCES.iter() {
            per_pattern[p as usize] += 1;
        }
        assert_eq!(per_pattern, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        // Every square set reached by any symmetry is one of the instances.
        for (p, pattern) in PATTERNS.iter().enumerate() {
            let sets: Vec<u64> = INSTANCES
                .iter()
                .filter(|&&(q, _)| q as usize == p)
                .map(|&(_, s)| bitboard::inverse_symmetry(pattern.mask, s))
                .collect();
            for s in 0..8 {
                assert!(sets.contains(&bitboard::symmetry(pattern.mask, s)));
            }
        }
        assert_eq!(OFFSETS[N_PATTERNS], 167_265);
        // The extended network's two more patterns: one instance a corner, one an edge.
        assert_eq!(N_ALL_INSTANCES, 54);
        let mut per_pattern = [0; N_ALL_PATTERNS];
        for &(p, _) in ALL_INSTANCES.iter() {
            per_pattern[p as usize] += 1;
        }
        assert_eq!(per_pattern[N_PATTERNS..], [4, 4]);
        assert_eq!(ALL_INSTANCES[..N_INSTANCES], INSTANCES);
        for (p, pattern) in ALL_PATTERNS.iter().enumerate().skip(N_PATTERNS) {
            assert_eq!(pattern.mask.count_ones(), 10);
            let sets: Vec<u64> = ALL_INSTANCES
                .iter()
                .filter(|&&(q, _)| q as usize == p)
                .map(|&(_, s)| bitboard::inverse_symmetry(pattern.mask, s))
                .collect();
            for s in 0..8 {
                assert!(sets.contains(&bitboard::symmetry(pattern.mask, s)));
            }
        }
        assert_eq!(N_NET_WEIGHTS, N_WEIGHTS + 2 * 59_049);
        assert_eq!(N_NET_ACTIVE, N_ACTIVE + 8);
        assert_ne!(NET_EXTENDED_SET_ID, PATTERN_SET_ID);
    }

    #[test]
    fn symmetric_boards_match_position_symmetry() {
        let pos = Position::new(0x0000_1008_2400_0101, 0x8000_0810_0800_2000);
        let boards = symmetric_boards(&pos);
        for s in 0..8u8 {
            let t = pos.symmetry(s);
            assert_eq!(boards[s as usize], (t.player, t.opponent));
        }
    }

    #[test]
    fn instance_indices_equal_the_indices_on_the_transformed_board() {
        const { assert!(N_ORDERS < N_INSTANCES, "some instances share a digit order") };
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let pos = Position::new(x & !y, y & !x);
            let boards = symmetric_boards(&pos);
            for (k, &(p, s)) in ALL_INSTANCES.iter().enumerate() {
                let (pl, op) = boards[s as usize];
                assert_eq!(
                    instance_index(k, pos.player, pos.opponent),
                    index(pl, op, ALL_PATTERNS[p as usize].mask),
                    "instance {k} (pattern {p}, symmetry {s})"
                );
            }
        }
    }

    /// Digits updated move by move, or swapped by a pass, give the board's indices on
    /// both sides.
    #[test]
    fn digits_follow_the_moves() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50 {
            let mut p = Position::START;
            let mut d = Digits::of(p.player, p.opponent);
            loop {
                assert_eq!(d, Digits::of(p.player, p.opponent));
                assert_eq!(d.own(), Indices::of(p.player, p.opponent));
                assert_eq!(d.children_base(), Indices::children_base(&p));
                let moves = p.legal_moves();
                if moves == 0 {
                    if p.opponent_moves() == 0 {
                        break;
                    }
                    p = p.pass();
                    d = d.swapped();
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let x = bitboard::Bits(moves)
                    .nth((seed % u64::from(moves.count_ones())) as usize)
                    .unwrap();
                let flipped = p.flips(x);
                let child = p.play(x);
                assert_eq!(
                    d.children_base().child(x, flipped),
                    Indices::of(child.player, child.opponent)
                );
                d = d.after(x, flipped);
                p = child;
            }
        }
    }

    #[test]
    fn ternary_index_and_pext_agree_with_portable() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(29);
            let (p, o) = (x & !y, y & !x);
            for pattern in ALL_PATTERNS {
                assert_eq!(pext(p, pattern.mask), pext_portable(p, pattern.mask));
                assert_eq!(
                    index(p, o, pattern.mask),
                    TERNARY[pext_portable(p, pattern.mask) as usize] as usize
                        + 2 * TERNARY[pext_portable(o, pattern.mask) as usize] as usize
                );
                assert_eq!(
                    pdep(pext_portable(p, pattern.mask), pattern.mask),
                    p & pattern.mask
                );
            }
        }
    }

    #[test]
    fn canonical_classes_are_closed() {
        let canon = canonical();
        for (i, &c) in canon.iter().enumerate() {
            assert!(c as usize <= i);
            assert_eq!(canon[c as usize], c, "representative of its own class");
        }
        // The 3x3 corner: a1 set for the player equals itself; b1 and a2 are mirrors.
        let b1 = TERNARY[0b10] as usize; // bit 1 of the mask is b1
        let a2 = TERNARY[0b1000] as usize; // bit 3 of the mask is a2
        assert_eq!(canon[b1], canon[a2]);
        // The 2x5 block has no symmetry.
        let o = OFFSETS[1];
        assert!((0..table_size(1)).all(|i| canon[o + i] as usize == o + i));
        // The extended features: the linear evaluation's classes, then the triangle's
        // (b1, rank 1, mirrors a2, rank 4) and the edge block's (a1, rank 0, mirrors h1,
        // rank 5).
        let net = canonical_net();
        assert_eq!(net.len(), N_NET_WEIGHTS);
        assert_eq!(net[..N_WEIGHTS], canon[..]);
        for (i, &c) in net.iter().enumerate() {
            assert!(c as usize <= i);
            assert_eq!(net[c as usize], c, "representative of its own class");
        }
        let (t, e) = (NET_OFFSETS[N_PATTERNS], NET_OFFSETS[N_PATTERNS + 1]);
        assert_eq!(t, N_WEIGHTS);
        assert_eq!(net[t + 3], net[t + 81]);
        assert_ne!(net[t + 3], net[t + 9]);
        assert_eq!(net[e + 1], net[e + 243]);
        assert_ne!(net[e + 1], net[e + 3]);
    }

    /// The extended features are the linear evaluation's, then the extra instances'
    /// indices past a stage's table, each within its pattern's table.
    #[test]
    fn extended_features_extend_the_linear_ones() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(23) ^ x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let pos = Position::new(x & !y, y & !x);
            let (m, t) = (pos.legal_moves(), pos.opponent_moves());
            let base = active(&pos, m, t);
            let net = active_net(&pos, m, t);
            assert_eq!(net[..N_ACTIVE], base);
            let idx = Indices::of(pos.player, pos.opponent);
            for k in N_INSTANCES..N_ALL_INSTANCES {
                let p = ALL_INSTANCES[k].0 as usize;
                let f = net[N_ACTIVE + k - N_INSTANCES] as usize;
                assert!((NET_OFFSETS[p]..NET_OFFSETS[p + 1]).contains(&f));
                assert_eq!(f, NET_OFFSETS[p] + idx.lanes()[k] as usize);
            }
        }
    }
}
