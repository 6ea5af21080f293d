//! The position: two bitboards seen from the side to move, with branch-free legal-move
//! generation, flipping, passing and the eight symmetries.
//!
//! A [`Position`] knows nothing of colours or variants; the [`crate::rules`] layer adds
//! them. Move generation uses parallel prefix fills (Kogge-Stone) in all eight directions;
//! flips use one outflank computation per direction over precomputed rays. When the
//! compiler may assume AVX2, both run four directions at once in vector registers; the
//! portable kernels are always compiled and the tests check the two against each other.

use crate::bitboard::{self, Bits, NOT_EDGE_COLUMNS};
use crate::square::Square;
use std::fmt;

/// A position from the side to move's point of view: `player` are the discs of the side to
/// move, `opponent` those of the other side. 16 bytes, `Copy`; playing a move makes a new
/// one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Position {
    pub player: u64,
    pub opponent: u64,
}

impl Position {
    /// The standard Othello start with black to move: black d5 and e4, white d4 and e5.
    pub const START: Position = Position {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// The empty board (the start of Reversi 1889).
    pub const EMPTY: Position = Position {
        player: 0,
        opponent: 0,
    };

    /// A position from the two sides' discs; the caller guarantees they do not overlap.
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Position {
        debug_assert!(player & opponent == 0);
        Position { player, opponent }
    }

    /// Occupied squares.
    #[inline]
    pub const fn occupied(&self) -> u64 {
        self.player | self.opponent
    }

    /// Empty squares.
    #[inline]
    pub const fn empty(&self) -> u64 {
        !self.occupied()
    }

    /// Number of empty squares.
    #[inline]
    pub const fn n_empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// Discs of the side to move.
    #[inline]
    pub const fn player_discs(&self) -> u32 {
        self.player.count_ones()
    }

    /// Discs of the other side.
    #[inline]
    pub const fn opponent_discs(&self) -> u32 {
        self.opponent.count_ones()
    }

    /// The squares where the side to move may play (Othello move rule).
    #[inline]
    pub fn legal_moves(&self) -> u64 {
        legal_moves(self.player, self.opponent)
    }

    /// The squares where the side NOT to move could play.
    #[inline]
    pub fn opponent_moves(&self) -> u64 {
        legal_moves(self.opponent, self.player)
    }

    /// Discs flipped when the side to move plays on the empty square `square` (0 when the
    /// move is illegal).
    #[inline]
    pub fn flips(&self, square: u8) -> u64 {
        flips(self.player, self.opponent, square)
    }

    /// The position after the side to move plays on `square`, flipping `flipped`
    /// (as computed by [`Position::flips`]); the side to move changes.
    #[inline]
    pub const fn play_flips(&self, square: u8, flipped: u64) -> Position {
        Position {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ (1u64 << square),
        }
    }

    /// The position after the side to move plays on `square`, which must be a legal move.
    #[inline]
    pub fn play(&self, square: u8) -> Position {
        debug_assert!(self.legal_moves() & (1u64 << square) != 0);
        self.play_flips(square, self.flips(square))
    }

    /// The position after a disc of the side to move is put on the empty `square` without
    /// flipping anything (Reversi 1889 opening placements); the side to move changes.
    #[inline]
    pub const fn place(&self, square: u8) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player | (1u64 << square),
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub const fn pass(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// True when neither side has a legal move (Othello move rule).
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.legal_moves() == 0 && self.opponent_moves() == 0
    }

    /// The image of this position under symmetry `sym` (see [`bitboard::symmetry`]).
    #[inline]
    pub const fn symmetry(&self, sym: u8) -> Position {
        Position {
            player: bitboard::symmetry(self.player, sym),
            opponent: bitboard::symmetry(self.opponent, sym),
        }
    }

    /// The legal moves as squares, lowest first.
    pub fn legal_squares(&self) -> impl Iterator<Item = Square> {
        Bits(self.legal_moves()).map(Square::from_index)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: String = (0..64)
            .map(|i| {
                let bit = 1u64 << i;
                if self.player & bit != 0 {
                    'P'
                } else if self.opponent & bit != 0 {
                    'o'
                } else {
                    '-'
                }
            })
            .collect();
        write!(f, "Position({cells})")
    }
}

// ---------------------------------------------------------------------------------------
// Legal moves.

/// Moves of `player` along one direction pair (shift `d` both ways), with `mask` the
/// opponent discs that may be part of a line in that direction. Doubling fills: a line
/// holds at most six opponent discs, so four steps cover it.
#[inline(always)]
fn moves_in_direction(player: u64, mask: u64, d: u32) -> u64 {
    let mut left = mask & (player << d);
    left |= mask & (left << d);
    let pre_left = mask & (mask << d);
    left |= pre_left & (left << (2 * d));
    left |= pre_left & (left << (2 * d));

    let mut right = mask & (player >> d);
    right |= mask & (right >> d);
    let pre_right = pre_left >> d;
    right |= pre_right & (right >> (2 * d));
    right |= pre_right & (right >> (2 * d));

    (left << d) | (right >> d)
}

/// Portable legal-move generation: the empty squares from which at least one line of
/// `opponent` discs ends on a `player` disc.
#[inline]
pub fn legal_moves_portable(player: u64, opponent: u64) -> u64 {
    let inner = opponent & NOT_EDGE_COLUMNS;
    let moves = moves_in_direction(player, inner, 1)
        | moves_in_direction(player, opponent, 8)
        | moves_in_direction(player, inner, 7)
        | moves_in_direction(player, inner, 9);
    moves & !(player | opponent)
}

/// Legal moves of `player` against `opponent`.
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::legal_moves(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_portable(player, opponent)
    }
}

// ---------------------------------------------------------------------------------------
// Flips.

/// Direction steps (column, row): the first four point towards higher bit indices.
const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// `RAYS[square][direction]`: the squares seen from `square` in each direction, the square
/// itself excluded.
static RAYS: [[u64; 8]; 64] = build_rays();

// ---------------------------------------------------------------------------------------
// Flip counts at the last empty square.

/// The four lines (row, column, two diagonals) through each square, the square included,
/// and the square's rank among the line's squares (counted from the lowest index).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
struct Lines {
    masks: [u64; 4],
    rank: [u8; 4],
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
const fn build_lines() -> [Lines; 64] {
    let rays = build_rays();
    let mut out = [const {
        Lines {
            masks: [0; 4],
            rank: [0; 4],
        }
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let line = rays[sq][d] | rays[sq][d + 4] | (1u64 << sq);
            out[sq].masks[d] = line;
            out[sq].rank[d] = (line & ((1u64 << sq) - 1)).count_ones() as u8;
            d += 1;
        }
        sq += 1;
    }
    out
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
static LINES: [Lines; 64] = build_lines();

/// `LINE_FLIPS[i][pattern]`: discs flipped along a full line by a move on its `i`-th
/// square, where `pattern` has a bit for each square of the line the mover holds and every
/// other square but the `i`-th is the opponent's. (Bits past the end of a shorter line are
/// clear, so runs there never end on a mover's disc and flip nothing.)
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut p = 0;
        while p < 256 {
            let mut count = 0;
            let mut run = 0;
            let mut j = i + 1;
            while j < 8 {
                if (p >> j) & 1 == 1 {
                    count += run;
                    break;
                }
                run += 1;
                j += 1;
            }
            run = 0;
            let mut j = i;
            while j > 0 {
                j -= 1;
                if (p >> j) & 1 == 1 {
                    count += run;
                    break;
                }
                run += 1;
            }
            t[i][p] = count;
            p += 1;
        }
        i += 1;
    }
    t
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

/// How many discs `player` flips by playing on `square` when `square` is the only empty
/// square of the board (everything else not `player`'s is the opponent's).
#[inline(always)]
pub fn last_flip_count(player: u64, square: u8) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        use std::arch::x86_64::_pext_u64;
        let lines = &LINES[square as usize];
        let mut count = 0;
        for d in 0..4 {
            // SAFETY: bmi2 is enabled at compile time. A line has at most 8 squares, so the
            // extracted pattern is below 256, and a rank is below 8.
            let pattern = unsafe { _pext_u64(player, lines.masks[d]) } as usize;
            count += u32::from(LINE_FLIPS[lines.rank[d] as usize & 7][pattern & 255]);
        }
        count
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        flips(player, !player & !(1u64 << square), square).count_ones()
    }
}

/// Portable flips: for each direction, the first square of the ray that is not an opponent
/// disc (the outflank) must be a player disc; the opponent discs before it flip.
#[inline]
pub fn flips_portable(player: u64, opponent: u64, square: u8) -> u64 {
    let rays = &RAYS[square as usize];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let free = !opponent & ray;
        let outflank = free & free.wrapping_neg();
        let between = outflank.wrapping_sub(1) & ray;
        flipped |= if outflank & player != 0 { between } else { 0 };
    }
    for &ray in &rays[4..] {
        let free = !opponent & ray;
        let outflank = 0x8000_0000_0000_0000u64.wrapping_shr(free.leading_zeros()) & free;
        let between = !(outflank << 1).wrapping_sub(1) & ray;
        flipped |= if outflank & player != 0 { between } else { 0 };
    }
    flipped
}

/// Discs flipped when `player` plays on the empty `square` against `opponent`.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, square: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::flips(player, opponent, square)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_portable(player, opponent, square)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    //! Four directions at once in 256-bit registers. Only compiled when the target has
    //! AVX2, so the intrinsics are always available.

    use super::NOT_EDGE_COLUMNS;
    use std::arch::x86_64::*;

    #[repr(align(32))]
    struct Aligned([[u64; 4]; 64]);

    const fn split_rays(upper: bool) -> Aligned {
        let rays = super::build_rays();
        let mut out = [[0u64; 4]; 64];
        let mut sq = 0;
        while sq < 64 {
            let mut d = 0;
            while d < 4 {
                out[sq][d] = rays[sq][if upper { d } else { d + 4 }];
                d += 1;
            }
            sq += 1;
        }
        Aligned(out)
    }

    /// Rays towards higher indices (E, S, SE, SW) and lower (W, N, NW, NE).
    static RAYS_UP: Aligned = split_rays(true);
    static RAYS_DOWN: Aligned = split_rays(false);

    #[inline(always)]
    pub fn legal_moves(player: u64, opponent: u64) -> u64 {
        // SAFETY: this module is compiled only when AVX2 is enabled for the target.
        unsafe {
            let pp = _mm256_set1_epi64x(player as i64);
            let masks = _mm256_set_epi64x(
                (opponent & NOT_EDGE_COLUMNS) as i64,
                (opponent & NOT_EDGE_COLUMNS) as i64,
                opponent as i64,
                (opponent & NOT_EDGE_COLUMNS) as i64,
            );
            let shift1 = _mm256_set_epi64x(7, 9, 8, 1);
            let shift2 = _mm256_add_epi64(shift1, shift1);

            let mut fl = _mm256_and_si256(masks, _mm256_sllv_epi64(pp, shift1));
            let mut fr = _mm256_and_si256(masks, _mm256_srlv_epi64(pp, shift1));
            fl = _mm256_or_si256(fl, _mm256_and_si256(masks, _mm256_sllv_epi64(fl, shift1)));
            fr = _mm256_or_si256(fr, _mm256_and_si256(masks, _mm256_srlv_epi64(fr, shift1)));
            let pre_l = _mm256_and_si256(masks, _mm256_sllv_epi64(masks, shift1));
            let pre_r = _mm256_srlv_epi64(pre_l, shift1);
            fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
            fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
            fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
            fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
            let m = _mm256_or_si256(_mm256_sllv_epi64(fl, shift1), _mm256_srlv_epi64(fr, shift1));
            let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
            let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
            (_mm_cvtsi128_si64(m) as u64) & !(player | opponent)
        }
    }

    #[inline(always)]
    pub fn flips(player: u64, opponent: u64, square: u8) -> u64 {
        // SAFETY: this module is compiled only when AVX2 is enabled for the target; the ray
        // tables are 32-byte aligned and `square < 64` (checked by the index).
        unsafe {
            let sq = square as usize;
            let pp = _mm256_set1_epi64x(player as i64);
            let oo = _mm256_set1_epi64x(opponent as i64);
            let zero = _mm256_setzero_si256();
            let one = _mm256_set1_epi64x(1);

            // Towards higher indices: the outflank is the lowest non-opponent ray square.
            let mask = _mm256_load_si256(RAYS_UP.0[sq].as_ptr() as *const __m256i);
            let free = _mm256_andnot_si256(oo, mask);
            let outflank = _mm256_and_si256(free, _mm256_sub_epi64(zero, free));
            let outflank = _mm256_and_si256(outflank, pp);
            let between = _mm256_and_si256(mask, _mm256_sub_epi64(outflank, one));
            let up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), between);

            let mask = _mm256_load_si256(RAYS_DOWN.0[sq].as_ptr() as *const __m256i);
            let down = down_flips(pp, oo, mask);

            let all = _mm256_or_si256(up, down);
            let m = _mm_or_si128(
                _mm256_castsi256_si128(all),
                _mm256_extracti128_si256(all, 1),
            );
            let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
            _mm_cvtsi128_si64(m) as u64
        }
    }

    /// The flips towards lower indices (W, N, NW, NE), `mask` holding each ray. With
    /// AVX-512 (VL and CD) the outflank is the highest non-opponent square of the ray,
    /// found with a vector leading-zero count, as the up direction finds the lowest.
    ///
    /// # Safety
    /// Compiled only when AVX-512 VL and CD are enabled for the target, so always safe
    /// to call; `unsafe` because the intrinsics are.
    #[cfg(all(target_feature = "avx512vl", target_feature = "avx512cd"))]
    #[inline(always)]
    unsafe fn down_flips(pp: __m256i, oo: __m256i, mask: __m256i) -> __m256i {
        // SAFETY: AVX-512 VL and CD are enabled at compile time.
        unsafe {
            let free = _mm256_andnot_si256(oo, mask);
            // A shift by 64 (no free square) gives 0.
            let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(free));
            let outflank = _mm256_and_si256(top, pp);
            // The ray squares above the outflank; none when there is no outflank.
            let above = _mm256_sub_epi64(_mm256_setzero_si256(), _mm256_slli_epi64(outflank, 1));
            _mm256_and_si256(mask, above)
        }
    }

    /// The flips towards lower indices (W, N, NW, NE), `mask` holding each ray: the
    /// ray's non-opponent squares smeared down the ray (by 1, 2 and 4 steps) mark every
    /// square at or below the highest of them, the outflank; the squares above it are
    /// flipped when it is a player disc.
    ///
    /// # Safety
    /// Compiled only when AVX2 is enabled for the target (the module's condition), so
    /// always safe to call; `unsafe` because the intrinsics are.
    #[cfg(not(all(target_feature = "avx512vl", target_feature = "avx512cd")))]
    #[inline(always)]
    unsafe fn down_flips(pp: __m256i, oo: __m256i, mask: __m256i) -> __m256i {
        // SAFETY: AVX2 is enabled at compile time.
        unsafe {
            let step1 = _mm256_set_epi64x(7, 9, 8, 1);
            let step2 = _mm256_set_epi64x(14, 18, 16, 2);
            let step4 = _mm256_set_epi64x(28, 36, 32, 4);
            let free = _mm256_andnot_si256(oo, mask);
            let mut at_or_below = _mm256_or_si256(free, _mm256_srlv_epi64(free, step1));
            at_or_below = _mm256_or_si256(at_or_below, _mm256_srlv_epi64(at_or_below, step2));
            at_or_below = _mm256_or_si256(at_or_below, _mm256_srlv_epi64(at_or_below, step4));
            // The highest free square: the one no other free square of the ray is above.
            let outflank = _mm256_andnot_si256(_mm256_srlv_epi64(at_or_below, step1), free);
            let outflank = _mm256_and_si256(outflank, pp);
            let above = _mm256_andnot_si256(at_or_below, mask);
            _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, _mm256_setzero_si256()), above)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_flip_counts_match_the_flips() {
        let mut seed = 0x1889_u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let square = (seed >> 58) as u8;
            let bit = 1u64 << square;
            let player = (seed ^ seed.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15)) & !bit;
            let opponent = !player & !bit;
            assert_eq!(
                last_flip_count(player, square),
                flips_naive(player, opponent, square).count_ones(),
                "square {square}, player {player:#x}"
            );
            assert_eq!(
                last_flip_count(opponent, square),
                flips_naive(opponent, player, square).count_ones()
            );
        }
    }

    /// A naive flip computation that walks each direction square by square.
    pub(crate) fn flips_naive(player: u64, opponent: u64, square: u8) -> u64 {
        if (player | opponent) & (1u64 << square) != 0 {
            return 0;
        }
        let mut flipped = 0;
        for (dc, dr) in DIRECTIONS {
            let (mut c, mut r) = ((square % 8) as i8 + dc, (square / 8) as i8 + dr);
            let mut line = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    line |= bit;
                } else {
                    if player & bit != 0 {
                        flipped |= line;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        flipped
    }

    fn random_positions(n: usize, seed: u64) -> Vec<Position> {
        // Random boards with a varying density, biased to the crowded lines flips need.
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (0..n)
            .map(|i| {
                let occ = match i % 3 {
                    0 => next() | next(),
                    1 => next(),
                    _ => next() & next(),
                };
                let p = occ & next();
                Position::new(p, occ & !p)
            })
            .collect()
    }

    #[test]
    fn flips_match_naive_walk() {
        for pos in random_positions(20_000, 7) {
            for sq in 0..64u8 {
                if pos.occupied() & (1 << sq) != 0 {
                    continue;
                }
                let expected = flips_naive(pos.player, pos.opponent, sq);
                assert_eq!(flips_portable(pos.player, pos.opponent, sq), expected);
                assert_eq!(
                    flips(pos.player, pos.opponent, sq),
                    expected,
                    "{pos:?} {sq}"
                );
            }
        }
    }

    #[test]
    fn legal_moves_match_flips() {
        for pos in random_positions(20_000, 11) {
            let mut expected = 0;
            for sq in 0..64u8 {
                if pos.occupied() & (1 << sq) == 0 && flips_naive(pos.player, pos.opponent, sq) != 0
                {
                    expected |= 1 << sq;
                }
            }
            assert_eq!(legal_moves_portable(pos.player, pos.opponent), expected);
            assert_eq!(pos.legal_moves(), expected, "{pos:?}");
        }
    }

    #[test]
    fn start_position_moves() {
        let start = Position::START;
        let names: Vec<String> = start.legal_squares().map(|s| s.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        let f5 = Square::parse("f5").unwrap().index();
        let after = start.play(f5);
        assert_eq!(after.player_discs(), 1);
        assert_eq!(after.opponent_discs(), 4);
        assert_eq!(after.n_empties(), 59);
    }

    #[test]
    fn symmetries_keep_move_counts() {
        for pos in random_positions(2_000, 3) {
            let n = pos.legal_moves().count_ones();
            for s in 0..8 {
                let img = pos.symmetry(s);
                assert_eq!(img.legal_moves(), bitboard::symmetry(pos.legal_moves(), s));
                assert_eq!(img.legal_moves().count_ones(), n);
            }
        }
    }
}
