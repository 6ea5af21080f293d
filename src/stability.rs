//! Stable discs: discs that no sequence of moves can flip. A lower bound on them bounds
//! the final score, which lets the endgame solver cut off hopeless nodes.
//!
//! The bound is built in two steps: on each edge, the discs stable against every sequence
//! of moves on that edge (from a table of all 3^8 edge configurations, built once); then
//! discs inside the board all of whose four lines are full or that lean, on each line, on
//! a stable disc of their own colour, grown to a fixpoint.

use crate::bitboard::{pdep, pext};
use std::sync::OnceLock;

/// `EDGE_STABLE[player << 8 | opponent]`: the player's discs on an 8-square line that no
/// sequence of moves on that line can flip.
fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![0u8; 1 << 16];
        let mut done = vec![false; 1 << 16];
        for p in 0..256u32 {
            for o in 0..256u32 {
                if p & o == 0 {
                    edge_stable(p as u8, o as u8, &mut table, &mut done);
                }
            }
        }
        table
    })
}

/// Discs flipped on a line when `player` plays `x` against `opponent`.
fn line_flips(player: u8, opponent: u8, x: u32) -> u8 {
    let mut flipped = 0u8;
    for step in [-1i32, 1] {
        let mut i = x as i32 + step;
        let mut run = 0u8;
        while (0..8).contains(&i) && opponent & (1 << i) != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && player & (1 << i) != 0 {
            flipped |= run;
        }
    }
    flipped
}

/// The player's stable discs on a line, by exploring every move of either side on every
/// empty square (a move on an edge square may flip nothing on the edge itself, since it
/// may flip in other directions).
fn edge_stable(player: u8, opponent: u8, table: &mut [u8], done: &mut [bool]) -> u8 {
    let index = usize::from(player) << 8 | usize::from(opponent);
    if done[index] {
        return table[index];
    }
    let mut stable = player;
    let empty = !(player | opponent);
    for x in 0..8 {
        if empty & (1 << x) == 0 {
            continue;
        }
        let f = line_flips(player, opponent, x);
        stable &= edge_stable(player | f | (1 << x), opponent & !f, table, done);
        let f = line_flips(opponent, player, x);
        stable &= edge_stable(player & !f, opponent | f | (1 << x), table, done);
        if stable == 0 {
            break;
        }
    }
    table[index] = stable;
    done[index] = true;
    stable
}

const COLUMN_A: u64 = 0x0101_0101_0101_0101;

/// Column a (bits 0, 8, ..., 56) packed into 8 bits, row 1 in bit 0.
#[inline]
fn column_a_to_byte(b: u64) -> u8 {
    pext(b, COLUMN_A) as u8
}

/// The inverse of [`column_a_to_byte`].
#[inline]
fn byte_to_column_a(x: u8) -> u64 {
    pdep(u64::from(x), COLUMN_A)
}

/// The player's discs stable by the edge tables on the four edges.
#[inline]
fn edges_stable(player: u64, opponent: u64) -> u64 {
    let t = edge_table();
    let lookup = |p: u8, o: u8| t[usize::from(p) << 8 | usize::from(o)];
    let top = u64::from(lookup(player as u8, opponent as u8));
    let bottom = u64::from(lookup((player >> 56) as u8, (opponent >> 56) as u8)) << 56;
    let left = byte_to_column_a(lookup(column_a_to_byte(player), column_a_to_byte(opponent)));
    let right = byte_to_column_a(lookup(
        column_a_to_byte(player >> 7),
        column_a_to_byte(opponent >> 7),
    )) << 7;
    top | bottom | left | right
}

/// Squares whose ray towards `square + step` (one row and one column away per step) has
/// fewer than `k` further squares.
const fn ray_end(step: i32, k: i32) -> u64 {
    let (dr, dc) = match step {
        9 => (1, 1),
        -9 => (-1, -1),
        7 => (1, -1),
        -7 => (-1, 1),
        _ => panic!("a diagonal step is 9, -9, 7 or -7"),
    };
    let mut mask = 0u64;
    let mut x = 0;
    while x < 64 {
        let (r, c) = (x / 8 + k * dr, x % 8 + k * dc);
        if r < 0 || r > 7 || c < 0 || c > 7 {
            mask |= 1 << x;
        }
        x += 1;
    }
    mask
}

/// Squares whose diagonal ray towards `square + STEP` (STEP one of 9, -9, 7, -7) is
/// occupied from the square to the board's edge.
#[inline(always)]
fn ray_full<const STEP: i32>(occupied: u64) -> u64 {
    let shift = |b: u64, k: u32| {
        if STEP > 0 {
            b >> (STEP as u32 * k)
        } else {
            b << ((-STEP) as u32 * k)
        }
    };
    let r = occupied & (shift(occupied, 1) | const { ray_end(STEP, 1) });
    let r = r & (shift(r, 2) | const { ray_end(STEP, 2) });
    r & (shift(r, 4) | const { ray_end(STEP, 4) })
}

/// The squares of the full rows of `occupied`.
#[inline(always)]
fn full_rows(occupied: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is enabled at compile time. A full row is a byte of all ones.
        unsafe {
            let rows = _mm_cvtsi64_si128(occupied as i64);
            _mm_cvtsi128_si64(_mm_cmpeq_epi8(rows, _mm_set1_epi8(-1))) as u64
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        full_rows_portable(occupied)
    }
}

#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn full_rows_portable(occupied: u64) -> u64 {
    let mut h = occupied & (occupied >> 1) & 0x7F7F_7F7F_7F7F_7F7F;
    h &= h >> 2 & 0x3F3F_3F3F_3F3F_3F3F;
    h &= h >> 4 & 0x0F0F_0F0F_0F0F_0F0F;
    // Bit 8r is set when row r is full.
    (h & 0x0101_0101_0101_0101).wrapping_mul(0xFF)
}

/// Masks of the squares whose line in each direction is full: (horizontal, vertical,
/// a1-h8 diagonal, h1-a8 diagonal).
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    let h = full_rows(occupied);

    let mut v = occupied;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);

    // Diagonals: a square's ray in one direction is full when it is occupied and so are
    // the next 1, 2-3 and 4-7 squares along it, or the ray ends before them; doubling the
    // reach three times covers the longest ray.
    let d9 = ray_full::<9>(occupied) & ray_full::<-9>(occupied);
    let d7 = ray_full::<7>(occupied) & ray_full::<-7>(occupied);
    [h, v, d9, d7]
}

/// `x`, kept in a general register: the compiler no longer sees the four copies as one
/// value, so it does not pack the four directions into a vector.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
fn scalar(mut x: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an empty instruction string; it only pins the value to a register.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(nomem, nostack, preserves_flags));
    }
    x
}

/// A lower bound on the stable discs of `player` (sound: every disc returned is stable).
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    let occupied = player | opponent;
    let [h, v, d9, d7] = full_lines(occupied);
    let mut stable = edges_stable(player, opponent) | (player & h & v & d9 & d7);
    if stable == 0 {
        return 0;
    }
    // A disc is stable when, on each of its four lines, the line is full or a neighbour
    // on that line is a stable disc of its own colour (or the board edge).
    // Only discs off the rim grow, and the neighbours of such a square on every line are
    // on the board, so the shifts need no masks against wrapping round a row.
    const RIM: u64 = 0xFF81_8181_8181_81FF;
    let inner = player & !RIM;
    loop {
        let old = stable;
        // Each direction in general registers: the compiler would otherwise pack them into
        // vectors, whose moves to and from the general registers lengthen the chain from
        // one round to the next (see the note above the function).
        let [s1, s8, s9, s7] = [
            scalar(stable),
            scalar(stable),
            scalar(stable),
            scalar(stable),
        ];
        let sh = scalar((s1 >> 1) | (s1 << 1) | h);
        let sv = scalar((s8 >> 8) | (s8 << 8) | v);
        let sd9 = scalar((s9 >> 9) | (s9 << 9) | d9);
        let sd7 = scalar((s7 >> 7) | (s7 << 7) | d7);
        stable |= sh & sv & sd9 & sd7 & inner;
        if stable == old {
            return stable;
        }
    }
}

/// Number of stable discs of `player` (a lower bound).
#[inline]
pub fn count_stable(player: u64, opponent: u64) -> u32 {
    stable_discs(player, opponent).count_ones()
}

/// [`count_stable`] when it is at least `needed`, else `None`; a player with fewer discs
/// than that is rejected without looking for stable ones. (Rejecting also when the discs
/// that could ever join the stable ones are too few, before growing them, spared the
/// growth in a third of the calls but cost more than it saved: FFO 40 took 3.72 G
/// instructions against 3.66 G under cachegrind. Stopping the growth as soon as `needed`
/// are found, with a count at every step, cut as often but with weaker bounds (fewer
/// stable discs counted), which the fail-soft search paid for: FFO 40 12.80 M nodes
/// against 12.69 M, FFO 41-42 10.022 G instructions against 9.938 G.)
#[inline]
pub fn stable_at_least(player: u64, opponent: u64, needed: u32) -> Option<u32> {
    if player.count_ones() < needed {
        return None;
    }
    let n = count_stable(player, opponent);
    (n >= needed).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn column_packing_round_trips() {
        for x in 0..=255u8 {
            assert_eq!(column_a_to_byte(byte_to_column_a(x)), x);
            // Row r of column a is bit r.
            for r in 0..8 {
                assert_eq!(byte_to_column_a(x) >> (8 * r) & 1, u64::from(x >> r & 1));
            }
            // Squares off column a are ignored.
            let noisy =
                byte_to_column_a(x) | 0xFEFE_FEFE_FEFE_FEFE & (u64::from(x) * 0x0123_4567_89AB);
            assert_eq!(column_a_to_byte(noisy), x);
        }
    }

    #[test]
    fn full_lines_match_a_naive_walk() {
        let mut seed = 5u64;
        for _ in 0..5_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Dense boards, so that full lines occur.
            let occupied = !(seed & (seed >> 7) & (seed >> 13) & (seed >> 29));
            let full = full_lines(occupied);
            assert_eq!(full[0], full_rows_portable(occupied));
            for sq in 0..64i32 {
                let (c, r) = (sq % 8, sq / 8);
                for (k, (dc, dr)) in [(1, 0), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
                    let mut all = true;
                    for dir in [1, -1] {
                        let (mut cc, mut rr) = (c, r);
                        while (0..8).contains(&cc) && (0..8).contains(&rr) {
                            all &= occupied & (1 << (rr * 8 + cc)) != 0;
                            cc += dc * dir;
                            rr += dr * dir;
                        }
                    }
                    assert_eq!(full[k] & (1 << sq) != 0, all, "square {sq} line {k}");
                }
            }
        }
    }

    #[test]
    fn stable_at_least_agrees_with_the_count() {
        let mut seed = 11u64;
        let mut cuts = 0;
        for _ in 0..3_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let occupied = !(seed & (seed >> 5) & (seed >> 17));
            let player = occupied & seed.rotate_left(23);
            let opponent = occupied & !player;
            let count = count_stable(player, opponent);
            for needed in [0, 1, 5, 10, 20, 30, 40, 64] {
                let got = stable_at_least(player, opponent, needed);
                assert_eq!(got, (count >= needed).then_some(count), "needed {needed}");
                cuts += u32::from(got.is_some() && needed >= 10);
            }
        }
        assert!(
            cuts > 100,
            "dense boards should reach 10 stable discs: {cuts}"
        );
    }

    #[test]
    fn corners_and_full_boards() {
        // A lone corner disc is stable; a lone edge disc next to empties is not.
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(1 << 3, 1 << 60), 0);
        // A full board: every disc is stable.
        let p = 0x0F0F_0F0F_0F0F_0F0F;
        assert_eq!(stable_discs(p, !p), p);
        assert_eq!(
            stable_discs(Position::START.player, Position::START.opponent),
            0
        );
        // A filled top row of mixed discs is stable on that edge.
        assert_eq!(stable_discs(0b1010_1010, 0b0101_0101), 0b1010_1010);
    }

    /// The growth with its shifts masked against wrapping round a row, as it was written
    /// before: the same discs, since only discs off the rim grow.
    #[test]
    fn the_unmasked_growth_finds_the_same_discs() {
        fn masked(player: u64, opponent: u64) -> u64 {
            const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
            const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
            const RIM: u64 = 0xFF81_8181_8181_81FF;
            let [h, v, d9, d7] = full_lines(player | opponent);
            let mut stable = edges_stable(player, opponent) | (player & h & v & d9 & d7);
            loop {
                let old = stable;
                let sh = ((stable >> 1) & NOT_H) | ((stable << 1) & NOT_A) | h;
                let sv = (stable >> 8) | (stable << 8) | v;
                let sd9 = ((stable >> 9) & NOT_H) | ((stable << 9) & NOT_A) | d9;
                let sd7 = ((stable >> 7) & NOT_A) | ((stable << 7) & NOT_H) | d7;
                stable |= sh & sv & sd9 & sd7 & player & !RIM;
                if stable == old {
                    return stable;
                }
            }
        }
        let mut seed = 5u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut grown = 0;
        for _ in 0..200_000 {
            // Dense boards (about one empty in eight), where the growth goes far.
            let occupied = next() | next() | next();
            let player = next() & occupied;
            let opponent = occupied & !player;
            let s = stable_discs(player, opponent);
            assert_eq!(s, masked(player, opponent), "{player:#x} {opponent:#x}");
            // Boards where the growth added discs to those it starts from (the edges' and
            // those whose four lines are full), so that the loop itself was compared.
            let [h, v, d9, d7] = full_lines(player | opponent);
            let start = edges_stable(player, opponent) | (player & h & v & d9 & d7);
            grown += u32::from(s != start);
        }
        assert!(
            grown > 10_000,
            "the growth should add discs on many boards: {grown}"
        );
    }

    /// Checks soundness: play random games; a disc called stable never changes colour.
    #[test]
    fn stable_discs_never_flip() {
        let mut seed = 77u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let mut found = 0;
        for _ in 0..300 {
            let mut pos = Position::START;
            // (stable bitboard of black, of white) noted along the game, checked at the end.
            let mut black_turn = true;
            let mut notes: Vec<(u64, u64)> = Vec::new();
            loop {
                let (b, w) = if black_turn {
                    (pos.player, pos.opponent)
                } else {
                    (pos.opponent, pos.player)
                };
                notes.push((stable_discs(b, w), stable_discs(w, b)));
                let moves = pos.legal_moves();
                if moves == 0 {
                    if pos.opponent_moves() == 0 {
                        break;
                    }
                    pos = pos.pass();
                    black_turn = !black_turn;
                    continue;
                }
                let list: Vec<u8> = crate::bitboard::Bits(moves).collect();
                pos = pos.play(list[next() as usize % list.len()]);
                black_turn = !black_turn;
            }
            let (b, w) = if black_turn {
                (pos.player, pos.opponent)
            } else {
                (pos.opponent, pos.player)
            };
            for (sb, sw) in notes {
                assert_eq!(sb & b, sb, "a stable black disc flipped");
                assert_eq!(sw & w, sw, "a stable white disc flipped");
                found += (sb | sw).count_ones();
            }
        }
        assert!(
            found > 10_000,
            "the bound should find stable discs: {found}"
        );
    }
}
