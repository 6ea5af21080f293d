//! The network evaluation: a small neural network over the pattern features (`--eval-file`
//! with a network weight file, `volte train --model network`).
//!
//! Every active weight of the pattern evaluation (the 46 pattern instances, both sides'
//! mobility and the parity, [`pattern::active`]) indexes a row of [`WIDTH`] 16-bit values
//! instead of a single weight; the rows of a position are summed into an accumulator, so a
//! position costs the same 49 table reads as the linear evaluation. A network over the
//! extended features ([`Network::is_extended`], [`pattern::active_net`]) also reads a row
//! for each of the 8 instances of two 10-square patterns the linear evaluation lacks (the
//! corner triangle, the edge with its corners and the middle of the second row): 57
//! reads, from a table 1.7 times as large. (A row is `WIDTH / 32`
//! 64-byte vectors with AVX-512, `WIDTH / 16` 32-byte ones with AVX2: at 32 lanes one
//! cache line.) The rest is a few hundred multiply-adds:
//!
//! - lane 0 of the accumulator passes through unchanged (a linear part, as the pattern
//!   evaluation's sum), the [`CLIPPED`] other lanes are clipped to `[0, 1]`;
//! - one small head per phase ([`BUCKETS`] phases of four empties): the clipped lanes
//!   through a dense layer of [`HIDDEN`] rectified units, then a dense output, plus the
//!   linear lane times a weight of the phase.
//!
//! The rows are shared by the phases of a row set ([`Network::sets`]: one set for all
//! phases, or 3, 5 or 15 sets of consecutive phases, each its own table: a set's rows
//! learn from its phases' positions only, and a position reads as many rows either way),
//! and by the instances of a pattern, and the configurations that a pattern's own symmetry maps
//! onto each other share a row, so the eight images of a position evaluate the same, as
//! in the pattern evaluation. The rows are quantised to 1/[`QA`]. The heads are stored in
//! `f32`; their hidden layer runs in 16-bit weights summed exactly in i32 ([`IntHead`],
//! with AVX2 a `madd` per pair of lanes, with AVX-512 VNNI a `vpdpwssd` for all 16 units),
//! the output in `f32`.
//!
//! File format (`VOLTENET`), all little-endian: magic, format version (u32), pattern-set
//! id (u32), variant (u8), width, hidden, buckets (u8 each), rows (u32: the sets times
//! the pattern evaluation's weights), then zlib-compressed: the rows' i16 values row by
//! row, set by set, the accumulator bias (`WIDTH` i16),
//! then the heads' f32 values bucket by bucket (`w1[in][out]`, `b1`, `w2`, `b2`, linear).

use super::pattern::{
    self, Indices, N_ACTIVE, N_ALL_INSTANCES, N_INSTANCES, N_NET_ACTIVE, N_NET_WEIGHTS, N_WEIGHTS,
    SCALE,
};
use crate::board::Position;

/// Lanes of the accumulator (a 64-byte row of i16, one cache line).
pub const WIDTH: usize = 32;
// (AVX-512 adds 32 lanes at a time, AVX2 16.)
const _: () = assert!(WIDTH.is_multiple_of(32));
/// Clipped lanes (all but the linear lane 0).
pub const CLIPPED: usize = WIDTH - 1;
/// Units of each head's hidden layer.
pub const HIDDEN: usize = 16;
/// Phases: heads for 1-4 empties, 5-8, ..., 57-60.
pub const BUCKETS: usize = 15;
/// The rows' fixed-point unit: a row value `v` stands for `v / QA`.
pub const QA: i32 = 128;
/// The largest magnitude of a row value (in units): 57 rows (the extended features') and
/// the bias then stay within an i16 accumulator.
pub const ROW_LIMIT: f32 = 3.9;
const _: () = assert!((N_NET_ACTIVE as f32 + 1.0) * ROW_LIMIT * (QA as f32) < 32767.0);
/// The network's output unit, in discs.
pub const OUTPUT_DISCS: f32 = 16.0;

/// The phase (head) of a position with `n_empties` empties.
#[inline]
pub const fn bucket(n_empties: u32) -> usize {
    pattern::stage(n_empties) / 2
}

/// One row of the feature table, aligned to a cache line so that a row never straddles
/// two (at 16 lanes `align(32)` would do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; WIDTH]);

const ZERO_ROW: Row = Row([0; WIDTH]);

/// One phase's head.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    /// `w1[i][o]`: clipped lane `i + 1` to hidden unit `o`.
    pub w1: [[f32; HIDDEN]; CLIPPED],
    pub b1: [f32; HIDDEN],
    pub w2: [f32; HIDDEN],
    pub b2: f32,
    /// The weight of the linear lane.
    pub linear: f32,
}

impl Default for Head {
    fn default() -> Self {
        Head {
            w1: [[0.0; HIDDEN]; CLIPPED],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            b2: 0.0,
            linear: 0.0,
        }
    }
}

/// Whether `sets` row sets divide the phases evenly (1, 3, 5 or 15).
pub const fn valid_sets(sets: usize) -> bool {
    sets >= 1 && BUCKETS.is_multiple_of(sets)
}

/// A trained network.
#[derive(Clone, PartialEq)]
pub struct Network {
    /// One row per feature ([`Network::features_per_set`]) in each row set, set by set.
    pub rows: Box<[Row]>,
    /// Row sets: set `s` serves phases `s * BUCKETS / sets ..`.
    sets: usize,
    /// Whether the network reads the extended features ([`pattern::N_NET_WEIGHTS`]: the
    /// linear evaluation's, then the instances of the patterns only the network reads) or
    /// the linear evaluation's alone ([`N_WEIGHTS`]).
    extended: bool,
    pub bias: Row,
    /// The heads as read and written ([`Network::set_heads`]).
    heads: Vec<Head>,
    /// The same heads in integers, as the evaluation runs them.
    fast: Vec<IntHead>,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({} rows)", self.rows.len())
    }
}

impl Network {
    /// All values zero, one row set.
    pub fn zeros() -> Network {
        Network::zeros_with_sets(1)
    }

    /// All values zero, `sets` row sets ([`valid_sets`]), the linear evaluation's features.
    pub fn zeros_with_sets(sets: usize) -> Network {
        Network::zeros_with(sets, false)
    }

    /// All values zero, `sets` row sets ([`valid_sets`]), the extended features or not.
    pub fn zeros_with(sets: usize, extended: bool) -> Network {
        assert!(valid_sets(sets), "{sets} row sets");
        Network {
            rows: vec![ZERO_ROW; sets * features_per_set(extended)].into_boxed_slice(),
            sets,
            extended,
            bias: ZERO_ROW,
            heads: vec![Head::default(); BUCKETS],
            fast: vec![IntHead::new(&Head::default()); BUCKETS],
        }
    }

    /// The row sets.
    pub fn sets(&self) -> usize {
        self.sets
    }

    /// Whether the network reads the extended features.
    pub fn is_extended(&self) -> bool {
        self.extended
    }

    /// Rows in each set: one per feature.
    pub fn features_per_set(&self) -> usize {
        features_per_set(self.extended)
    }

    /// Active features of a position: one row each.
    pub fn active_features(&self) -> usize {
        if self.extended {
            N_NET_ACTIVE
        } else {
            N_ACTIVE
        }
    }

    /// The row set of a position with `n_empties` empties.
    #[inline(always)]
    pub fn set_of(&self, n_empties: u32) -> usize {
        set_of_bucket(bucket(n_empties), self.sets)
    }

    /// The rows of the set that serves `n_empties`.
    #[inline(always)]
    fn table(&self, n_empties: u32) -> &[Row] {
        let per = self.features_per_set();
        let at = self.set_of(n_empties) * per;
        &self.rows[at..at + per]
    }

    /// The heads, one per phase.
    pub fn heads(&self) -> &[Head] {
        &self.heads
    }

    /// Sets the heads ([`BUCKETS`] of them) and their integer form.
    pub fn set_heads(&mut self, heads: Vec<Head>) {
        assert_eq!(heads.len(), BUCKETS);
        self.fast = heads.iter().map(IntHead::new).collect();
        self.heads = heads;
    }

    /// Moves each phase's output by `discs[phase]` discs (its head's output bias), as
    /// `volte calibrate-mpc --parity-output` does with the offsets it measures.
    pub fn shift_outputs(&mut self, discs: &[f64; BUCKETS]) {
        let mut heads = self.heads.clone();
        for (h, d) in heads.iter_mut().zip(discs) {
            h.b2 += (*d / f64::from(OUTPUT_DISCS)) as f32;
        }
        self.set_heads(heads);
    }

    /// The value, in 1/SCALE disc, of the accumulator `acc` at `n_empties`.
    #[inline]
    fn head_value(&self, acc: &[i16; WIDTH], n_empties: u32) -> i32 {
        let head = &self.fast[bucket(n_empties)];
        let out = (head.b2 + head.linear * f32::from(acc[0])) + hidden(head, acc);
        out.round_ties_even() as i32
    }

    /// The evaluation, in 1/SCALE disc, of the position whose active features are the
    /// first [`Network::active_features`] of `active` ([`pattern::active_net`]: indices in
    /// a stage's table, then the extra instances'), with `n_empties` empties.
    pub fn value_of_active(&self, active: &[u32], n_empties: u32) -> i32 {
        let n = self.active_features();
        assert!(active.len() >= n, "{} features, {n} needed", active.len());
        let mut features = [0usize; N_NET_ACTIVE];
        for (f, &a) in features.iter_mut().zip(&active[..n]) {
            *f = a as usize;
        }
        let acc = self.accumulate(self.table(n_empties), &features[..n]);
        self.head_value(&acc, n_empties)
    }

    /// The evaluation of `pos` in 1/SCALE disc given both sides' legal moves.
    #[inline]
    pub fn sum(&self, pos: &Position, my_moves: u64, their_moves: u64) -> i32 {
        let n = pos.n_empties();
        if self.extended {
            self.value_of_active(&pattern::active_net(pos, my_moves, their_moves), n)
        } else {
            self.value_of_active(&pattern::active(pos, my_moves, their_moves), n)
        }
    }

    /// [`Network::sum`] from the position's instance indices.
    #[inline]
    pub fn sum_indexed(
        &self,
        idx: &Indices,
        n_empties: u32,
        my_moves: u64,
        their_moves: u64,
    ) -> i32 {
        let extra = pattern::extra_features(n_empties, my_moves, their_moves);
        let table = self.table(n_empties);
        // The bias and the 49 rows (57 with the extended features) summed a vector of
        // `$per` lanes at a time, in two chains.
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        macro_rules! sum_rows {
            ($vec:ty, $per:expr, $load:ident, $add:ident, $store:ident;
             $($k:literal $l:literal)*; $($m:literal $n:literal)*) => {{
                use std::arch::x86_64::*;
                let lanes = idx.lanes();
                let row = |i: usize, c: usize| {
                    $load(row(table, i).0.as_ptr().add($per * c) as *const $vec)
                };
                let mut acc = [0i16; WIDTH];
                for c in 0..WIDTH / $per {
                    let mut a = $add(row(extra[0], c), row(extra[2], c));
                    let mut b = $add(
                        row(extra[1], c),
                        $load(self.bias.0.as_ptr().add($per * c) as *const $vec),
                    );
                    $(
                        a = $add(a, row(INSTANCE_OFFSETS[$k] + lanes[$k] as usize, c));
                        b = $add(b, row(INSTANCE_OFFSETS[$l] + lanes[$l] as usize, c));
                    )*
                    if self.extended {
                        $(
                            a = $add(a, row(INSTANCE_OFFSETS[$m] + lanes[$m] as usize, c));
                            b = $add(b, row(INSTANCE_OFFSETS[$n] + lanes[$n] as usize, c));
                        )*
                    }
                    $store(acc.as_mut_ptr().add($per * c) as *mut $vec, $add(a, b));
                }
                acc
            }};
        }
        // [`sum_rows`] over the linear evaluation's 46 instances, then the extended
        // features' 8, two at a time.
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        macro_rules! sum_all_rows {
            ($vec:ty, $per:expr, $load:ident, $add:ident, $store:ident) => {{
                const _: () = assert!(N_INSTANCES == 46 && N_ALL_INSTANCES == 54);
                sum_rows!($vec, $per, $load, $add, $store;
                    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
                    28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45;
                    46 47 48 49 50 51 52 53)
            }};
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "avx512bw"))]
        // SAFETY: AVX-512BW is enabled at compile time; every row is a whole row, aligned
        // to 64 bytes.
        let acc = unsafe {
            sum_all_rows!(
                __m512i,
                32,
                _mm512_load_si512,
                _mm512_add_epi16,
                _mm512_storeu_si512
            )
        };
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx2",
            not(target_feature = "avx512bw")
        ))]
        // SAFETY: AVX2 is enabled at compile time; every row is a whole aligned row.
        let acc = unsafe {
            sum_all_rows!(
                __m256i,
                16,
                _mm256_load_si256,
                _mm256_add_epi16,
                _mm256_storeu_si256
            )
        };
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        let acc = {
            let lanes = idx.lanes();
            let mut features = [0usize; N_NET_ACTIVE];
            for k in 0..N_INSTANCES {
                features[k] = INSTANCE_OFFSETS[k] + lanes[k] as usize;
            }
            features[N_INSTANCES..N_ACTIVE].copy_from_slice(&extra);
            for k in N_INSTANCES..N_ALL_INSTANCES {
                features[N_ACTIVE + k - N_INSTANCES] = INSTANCE_OFFSETS[k] + lanes[k] as usize;
            }
            self.accumulate(table, &features[..self.active_features()])
        };
        self.head_value(&acc, n_empties)
    }

    /// The bias plus the rows of `features` in `table`.
    #[inline(always)]
    fn accumulate(&self, table: &[Row], features: &[usize]) -> [i16; WIDTH] {
        let mut acc = self.bias.0;
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        // SAFETY: AVX2 is enabled at compile time; every load and store is of 16 lanes
        // within a whole row or within `acc`, unaligned.
        unsafe {
            use std::arch::x86_64::*;
            let mut v = [_mm256_setzero_si256(); WIDTH / 16];
            for (c, x) in v.iter_mut().enumerate() {
                *x = _mm256_loadu_si256(acc.as_ptr().add(16 * c) as *const __m256i);
            }
            for &f in features {
                let row = row(table, f).0.as_ptr();
                for (c, x) in v.iter_mut().enumerate() {
                    let r = _mm256_loadu_si256(row.add(16 * c) as *const __m256i);
                    *x = _mm256_add_epi16(*x, r);
                }
            }
            for (c, x) in v.iter().enumerate() {
                _mm256_storeu_si256(acc.as_mut_ptr().add(16 * c) as *mut __m256i, *x);
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        for &f in features {
            add_row(&mut acc, row(table, f));
        }
        acc
    }

    /// The file's bytes (after the 8-byte magic and the version, the caller's header).
    pub fn payload(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity((self.rows.len() + 1) * WIDTH * 2);
        for row in self.rows.iter().chain(std::iter::once(&self.bias)) {
            for v in row.0 {
                raw.extend_from_slice(&v.to_le_bytes());
            }
        }
        for h in &self.heads {
            for v in h.w1.iter().flatten().chain(&h.b1).chain(&h.w2) {
                raw.extend_from_slice(&v.to_le_bytes());
            }
            raw.extend_from_slice(&h.b2.to_le_bytes());
            raw.extend_from_slice(&h.linear.to_le_bytes());
        }
        raw
    }

    /// The length of [`Network::payload`] for `rows` rows.
    pub fn payload_len(rows: usize) -> usize {
        (rows + 1) * WIDTH * 2 + BUCKETS * (CLIPPED * HIDDEN + 2 * HIDDEN + 2) * 4
    }

    /// Reads [`Network::payload`]; `raw` has [`Network::payload_len`] bytes and `rows` is
    /// a valid number of row sets ([`valid_sets`]) times [`features_per_set`]`(extended)`.
    pub fn from_payload(raw: &[u8], rows: usize, extended: bool) -> Network {
        assert_eq!(raw.len(), Self::payload_len(rows));
        let per = features_per_set(extended);
        let sets = rows / per;
        assert!(rows.is_multiple_of(per) && valid_sets(sets));
        let mut i16s = raw[..(rows + 1) * WIDTH * 2]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut read_row = || {
            let mut r = ZERO_ROW;
            for v in r.0.iter_mut() {
                *v = i16s.next().expect("sized");
            }
            r
        };
        let table: Box<[Row]> = (0..rows).map(|_| read_row()).collect();
        let bias = read_row();
        let mut f32s = raw[(rows + 1) * WIDTH * 2..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut next = || f32s.next().expect("sized");
        let heads: Vec<Head> = (0..BUCKETS)
            .map(|_| {
                let mut h = Head::default();
                for v in h.w1.iter_mut().flatten() {
                    *v = next();
                }
                for v in h.b1.iter_mut() {
                    *v = next();
                }
                for v in h.w2.iter_mut() {
                    *v = next();
                }
                h.b2 = next();
                h.linear = next();
                h
            })
            .collect();
        Network {
            rows: table,
            sets,
            extended,
            bias,
            fast: heads.iter().map(IntHead::new).collect(),
            heads,
        }
    }
}

const INV_QA: f32 = 1.0 / QA as f32;

/// The row set of phase `bucket` among `sets`.
#[inline(always)]
pub const fn set_of_bucket(bucket: usize, sets: usize) -> usize {
    bucket * sets / BUCKETS
}

/// Rows in each set: one per feature, the extended ones ([`N_NET_WEIGHTS`]) or the linear
/// evaluation's ([`N_WEIGHTS`]).
pub const fn features_per_set(extended: bool) -> usize {
    if extended { N_NET_WEIGHTS } else { N_WEIGHTS }
}

/// Row `i` of a set. A lane past its pattern's table (never on a real position's indices)
/// reads another row, or the last past the end.
#[inline(always)]
fn row(table: &[Row], i: usize) -> &Row {
    &table[i.min(table.len() - 1)]
}

/// Where each instance's pattern table starts among the rows (the extra instances' past a
/// stage's table, [`pattern::NET_OFFSETS`]).
const INSTANCE_OFFSETS: [usize; N_ALL_INSTANCES] = {
    let mut out = [0; N_ALL_INSTANCES];
    let mut k = 0;
    while k < N_ALL_INSTANCES {
        out[k] = pattern::NET_OFFSETS[pattern::ALL_INSTANCES[k].0 as usize];
        k += 1;
    }
    out
};

/// A head's hidden layer in integers: the clipped lanes (`[0, QA]`) times 16-bit weights
/// `w1 * 2^shift`, summed exactly in i32 with the bias `b1 * QA * 2^shift`; the output
/// weights are scaled back (`w2 / (QA * 2^shift)`, exact: a power of two). `shift` is the
/// largest (at most 14) that keeps every weight within i16, so the weights keep at least
/// 15 bits; the sum cannot overflow ([`WIDTH`] lanes of at most `QA * 32767`).
#[derive(Clone, Debug, PartialEq)]
struct IntHead {
    /// For each pair of lanes `(2j, 2j + 1)` (lane 0, the linear one, weighs 0), the
    /// weights to the hidden units `0..8`, then `8..16`, interleaved:
    /// `[w(2j, o), w(2j + 1, o)]` for each unit `o`, as `madd` wants them.
    w1: [[i16; 2 * HIDDEN]; WIDTH / 2],
    b1: [i32; HIDDEN],
    /// The output weights, in 1/SCALE disc a unit of the integer sums.
    w2: [f32; HIDDEN],
    /// The output bias, in 1/SCALE disc.
    b2: f32,
    /// The linear lane's weight, in 1/SCALE disc a unit of the lane.
    linear: f32,
}

const _: () = assert!(HIDDEN == 16 && WIDTH.is_multiple_of(16));

impl IntHead {
    fn new(head: &Head) -> IntHead {
        let largest = head.w1.iter().flatten().fold(0.0f32, |m, w| m.max(w.abs()));
        let mut shift = 14;
        while shift > 0 && largest * (1u32 << shift) as f32 > 32767.0 {
            shift -= 1;
        }
        let scale = (1u32 << shift) as f32;
        let weight = |lane: usize, o: usize| -> i16 {
            if lane == 0 {
                0
            } else {
                (head.w1[lane - 1][o] * scale)
                    .round()
                    .clamp(-32767.0, 32767.0) as i16
            }
        };
        let mut w1 = [[0i16; 2 * HIDDEN]; WIDTH / 2];
        for (j, pair) in w1.iter_mut().enumerate() {
            for o in 0..HIDDEN {
                pair[2 * o] = weight(2 * j, o);
                pair[2 * o + 1] = weight(2 * j + 1, o);
            }
        }
        let unit = QA as f32 * scale;
        let out = OUTPUT_DISCS * SCALE as f32;
        IntHead {
            w1,
            b1: head
                .b1
                .map(|b| (f64::from(b) * f64::from(unit)).round().clamp(-1e9, 1e9) as i32),
            w2: head.w2.map(|w| w / unit * out),
            b2: head.b2 * out,
            linear: head.linear * INV_QA * out,
        }
    }
}

/// The hidden layer's part of the output (1/SCALE disc), `sum_o w2[o] max(z[o], 0)` with
/// `z[o] = b1[o] + sum_i w1[i][o] a[i]`, `a[i]` lane `i` of `acc` clipped to `[0, QA]`
/// ([`IntHead`]). The terms `max(z[o], 0) * w2[o]` (f32) are added pairwise as a tree
/// (`t[o] + t[o + 8]`, then `+ 4`, `+ 2`, `+ 1`); the vector version does the same
/// operations in the same order, so every build gives the same values.
#[inline(always)]
fn hidden(head: &IntHead, acc: &[i16; WIDTH]) -> f32 {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512bw",
        target_feature = "avx512vnni"
    ))]
    {
        // SAFETY: AVX-512BW and VNNI are enabled at compile time.
        unsafe { hidden_avx512(head, acc) }
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512bw", target_feature = "avx512vnni"))
    ))]
    {
        // SAFETY: AVX2 is enabled at compile time.
        unsafe { hidden_avx2(head, acc) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    hidden_portable(head, acc)
}

#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "avx2", not(test)),
    allow(dead_code)
)]
#[inline(always)]
fn hidden_portable(head: &IntHead, acc: &[i16; WIDTH]) -> f32 {
    let a = acc.map(|v| i32::from(v.clamp(0, QA as i16)));
    let mut t = [0.0f32; HIDDEN];
    for (o, x) in t.iter_mut().enumerate() {
        let mut z = head.b1[o];
        for (j, pair) in head.w1.iter().enumerate() {
            z += a[2 * j] * i32::from(pair[2 * o]) + a[2 * j + 1] * i32::from(pair[2 * o + 1]);
        }
        *x = z.max(0) as f32 * head.w2[o];
    }
    let mut half = HIDDEN / 2;
    while half > 0 {
        for o in 0..half {
            t[o] += t[o + half];
        }
        half /= 2;
    }
    t[0]
}

/// [`hidden`] with AVX-512: the 16 units' sums in one register, the pairs of lanes
/// multiplied and added in four independent chains (`vpdpwssd`), which the compiler
/// cannot merge into one as it did the AVX2 version's.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512bw",
    target_feature = "avx512vnni"
))]
#[inline(always)]
unsafe fn hidden_avx512(head: &IntHead, acc: &[i16; WIDTH]) -> f32 {
    use std::arch::x86_64::*;
    // SAFETY (whole body): every load and store is within the arrays named, unaligned.
    unsafe {
        // The lanes clipped to [0, QA]; each 32-bit lane is a pair (2j, 2j + 1).
        let mut pairs = [0i32; WIDTH / 2];
        for c in 0..WIDTH / 32 {
            let v = _mm512_loadu_si512(acc.as_ptr().add(32 * c) as *const __m512i);
            let x = _mm512_max_epi16(
                _mm512_min_epi16(v, _mm512_set1_epi16(QA as i16)),
                _mm512_setzero_si512(),
            );
            _mm512_storeu_si512(pairs.as_mut_ptr().add(16 * c) as *mut __m512i, x);
        }
        let w = |j: usize| _mm512_loadu_si512(head.w1[j].as_ptr() as *const __m512i);
        let mut z = [
            _mm512_loadu_si512(head.b1.as_ptr() as *const __m512i),
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
        ];
        for j in 0..WIDTH / 2 {
            z[j % 4] = _mm512_dpwssd_epi32(z[j % 4], _mm512_set1_epi32(pairs[j]), w(j));
        }
        let z = _mm512_add_epi32(_mm512_add_epi32(z[0], z[1]), _mm512_add_epi32(z[2], z[3]));
        let t = _mm512_mul_ps(
            _mm512_cvtepi32_ps(_mm512_max_epi32(z, _mm512_setzero_si512())),
            _mm512_loadu_ps(head.w2.as_ptr()),
        );
        // The tree: t[o] + t[o + 8], then + 4, + 2, + 1.
        let u = _mm256_add_ps(_mm512_castps512_ps256(t), _mm512_extractf32x8_ps(t, 1));
        let v = _mm_add_ps(_mm256_castps256_ps128(u), _mm256_extractf128_ps(u, 1));
        let w = _mm_add_ps(v, _mm_movehl_ps(v, v));
        let x = _mm_add_ss(w, _mm_shuffle_ps(w, w, 1));
        _mm_cvtss_f32(x)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[cfg_attr(
    all(target_feature = "avx512bw", target_feature = "avx512vnni", not(test)),
    allow(dead_code)
)]
#[inline(always)]
unsafe fn hidden_avx2(head: &IntHead, acc: &[i16; WIDTH]) -> f32 {
    use std::arch::x86_64::*;
    // SAFETY (whole body): every load is within the arrays named, unaligned.
    unsafe {
        let mut xs = [_mm256_setzero_si256(); WIDTH / 16];
        for (c, x) in xs.iter_mut().enumerate() {
            let v = _mm256_loadu_si256(acc.as_ptr().add(16 * c) as *const __m256i);
            *x = _mm256_max_epi16(
                _mm256_min_epi16(v, _mm256_set1_epi16(QA as i16)),
                _mm256_setzero_si256(),
            );
        }
        // Two chains for each half of the units (even and odd pairs), so that the
        // multiply-adds do not wait on each other.
        let mut z0 = _mm256_loadu_si256(head.b1.as_ptr() as *const __m256i);
        let mut z1 = _mm256_loadu_si256(head.b1.as_ptr().add(8) as *const __m256i);
        let (mut y0, mut y1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for j in (0..WIDTH / 2).step_by(2) {
            // Lanes 2j and 2j + 1 in every 32-bit lane, then 2j + 2 and 2j + 3.
            let x = xs[j / 8];
            let xj = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32((j % 8) as i32));
            let xk = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32((j % 8) as i32 + 1));
            let w = head.w1[j].as_ptr() as *const __m256i;
            let v = head.w1[j + 1].as_ptr() as *const __m256i;
            z0 = _mm256_add_epi32(z0, _mm256_madd_epi16(xj, _mm256_loadu_si256(w)));
            z1 = _mm256_add_epi32(z1, _mm256_madd_epi16(xj, _mm256_loadu_si256(w.add(1))));
            y0 = _mm256_add_epi32(y0, _mm256_madd_epi16(xk, _mm256_loadu_si256(v)));
            y1 = _mm256_add_epi32(y1, _mm256_madd_epi16(xk, _mm256_loadu_si256(v.add(1))));
        }
        let (z0, z1) = (_mm256_add_epi32(z0, y0), _mm256_add_epi32(z1, y1));
        let zero = _mm256_setzero_si256();
        let t0 = _mm256_mul_ps(
            _mm256_cvtepi32_ps(_mm256_max_epi32(z0, zero)),
            _mm256_loadu_ps(head.w2.as_ptr()),
        );
        let t1 = _mm256_mul_ps(
            _mm256_cvtepi32_ps(_mm256_max_epi32(z1, zero)),
            _mm256_loadu_ps(head.w2.as_ptr().add(8)),
        );
        // The tree: t[o] + t[o + 8], then + 4, + 2, + 1.
        let u = _mm256_add_ps(t0, t1);
        let v = _mm_add_ps(_mm256_castps256_ps128(u), _mm256_extractf128_ps(u, 1));
        let w = _mm_add_ps(v, _mm_movehl_ps(v, v));
        let x = _mm_add_ss(w, _mm_shuffle_ps(w, w, 1));
        _mm_cvtss_f32(x)
    }
}

#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
#[inline(always)]
fn add_row(acc: &mut [i16; WIDTH], row: &Row) {
    for (a, &r) in acc.iter_mut().zip(&row.0) {
        *a = a.wrapping_add(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_hidden_layers_give_the_same_values() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut values = std::collections::HashSet::new();
        for k in 0..200 {
            let mut head = Head::default();
            // Weights of every size, so every shift is taken.
            let size = [0.001, 1.0, 3.0, 40.0][k % 4];
            let values_mut = head.w1.iter_mut().flatten();
            for w in values_mut
                .chain(head.b1.iter_mut())
                .chain(head.w2.iter_mut())
            {
                *w = ((next() % 20_001) as f32 / 10_000.0 - 1.0) * size;
            }
            let fast = IntHead::new(&head);
            let acc: [i16; WIDTH] = std::array::from_fn(|_| (next() % 400) as i16 - 100);
            let h = hidden(&fast, &acc);
            assert_eq!(h.to_bits(), hidden_portable(&fast, &acc).to_bits());
            #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
            // SAFETY: AVX2 is enabled at compile time.
            assert_eq!(h.to_bits(), unsafe { hidden_avx2(&fast, &acc) }.to_bits());
            values.insert(h.to_bits());
            // The integers stand for the float head within rounding.
            let mut exact = 0.0f64;
            for o in 0..HIDDEN {
                let mut z = f64::from(head.b1[o]);
                for (w, &v) in head.w1.iter().zip(&acc[1..]) {
                    let a = f64::from(v.clamp(0, QA as i16)) / f64::from(QA);
                    z += f64::from(w[o]) * a;
                }
                exact += z.max(0.0) * f64::from(head.w2[o]);
            }
            let exact = exact * f64::from(OUTPUT_DISCS) * f64::from(SCALE);
            let tolerance = 1e-3 * f64::from(size * size).max(1.0) * 16.0 * f64::from(SCALE) * 16.0;
            assert!(
                (f64::from(h) - exact).abs() <= tolerance,
                "{h} against {exact}"
            );
        }
        assert!(values.len() > 150);
    }
}
