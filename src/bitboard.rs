//! Bitboard masks and whole-board transforms: the eight symmetries of the square, bit
//! iteration, and the direction masks that move generation is built from.

/// Every square except columns a and h: the mask that stops horizontal and diagonal shifts
/// from wrapping around the board edge.
pub const NOT_EDGE_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// The four centre squares d4, e4, d5, e5.
pub const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);
/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The squares next to `b` in any of the eight directions.
#[inline(always)]
pub const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Parallel bit extract: the bits of `b` under `mask`, packed into the low bits (the
/// `pext` instruction where the target has BMI2).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
pub fn pext(b: u64, mask: u64) -> u64 {
    // SAFETY: the bmi2 target feature is enabled at compile time.
    unsafe { core::arch::x86_64::_pext_u64(b, mask) }
}

/// Parallel bit extract (see the BMI2 version).
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
pub fn pext(b: u64, mask: u64) -> u64 {
    pext_portable(b, mask)
}

/// Parallel bit extract without the instruction.
#[inline]
pub fn pext_portable(b: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if b & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

/// Parallel bit deposit, the inverse of [`pext`]: the low bits of `bits` spread to the
/// squares of `mask`, lowest first (the `pdep` instruction where the target has BMI2).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
pub fn pdep(bits: u64, mask: u64) -> u64 {
    // SAFETY: the bmi2 target feature is enabled at compile time.
    unsafe { core::arch::x86_64::_pdep_u64(bits, mask) }
}

/// Parallel bit deposit (see the BMI2 version).
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
pub fn pdep(bits: u64, mask: u64) -> u64 {
    pdep_portable(bits, mask)
}

/// Parallel bit deposit without the instruction.
#[inline]
pub fn pdep_portable(bits: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & bit != 0 {
            out |= low;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

/// Iterates over the set bits of a bitboard, lowest first, as bit indices.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let index = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(index)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

/// Mirror top to bottom: row 1 <-> row 8.
#[inline]
pub const fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror left to right: column a <-> column h.
#[inline]
pub const fn mirror_horizontal(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let b = ((b >> 1) & K1) | ((b & K1) << 1);
    let b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Transpose about the a1-h8 diagonal: (column, row) -> (row, column).
#[inline]
pub const fn flip_diagonal(b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = K2 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// Transpose about the h1-a8 diagonal: (column, row) -> (7 - row, 7 - column).
#[inline]
pub const fn flip_anti_diagonal(b: u64) -> u64 {
    flip_vertical(mirror_horizontal(flip_diagonal(b)))
}

/// The eight symmetries of the square, numbered 0..8: bit 0 mirrors left-right, bit 1
/// mirrors top-bottom, bit 2 transposes about a1-h8 (applied last). Symmetry 0 is the
/// identity.
#[inline]
pub const fn symmetry(b: u64, sym: u8) -> u64 {
    let b = if sym & 1 != 0 {
        mirror_horizontal(b)
    } else {
        b
    };
    let b = if sym & 2 != 0 { flip_vertical(b) } else { b };
    if sym & 4 != 0 { flip_diagonal(b) } else { b }
}

/// The inverse of [`symmetry`]: `inverse_symmetry(symmetry(b, s), s) == b`.
#[inline]
pub const fn inverse_symmetry(b: u64, sym: u8) -> u64 {
    let b = if sym & 4 != 0 { flip_diagonal(b) } else { b };
    let b = if sym & 2 != 0 { flip_vertical(b) } else { b };
    if sym & 1 != 0 {
        mirror_horizontal(b)
    } else {
        b
    }
}

/// The square index that `square` maps to under symmetry `sym`.
#[inline]
pub const fn symmetry_square(square: u8, sym: u8) -> u8 {
    symmetry(1u64 << square, sym).trailing_zeros() as u8
}

/// The square that maps to `square` under symmetry `sym`:
/// `inverse_symmetry_square(symmetry_square(x, s), s) == x`.
#[inline]
pub const fn inverse_symmetry_square(square: u8, sym: u8) -> u8 {
    inverse_symmetry(1u64 << square, sym).trailing_zeros() as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(col: u8, row: u8) -> u64 {
        1u64 << (row * 8 + col)
    }

    #[test]
    fn transforms_move_squares_where_they_should() {
        for row in 0..8 {
            for col in 0..8 {
                let b = sq(col, row);
                assert_eq!(flip_vertical(b), sq(col, 7 - row));
                assert_eq!(mirror_horizontal(b), sq(7 - col, row));
                assert_eq!(flip_diagonal(b), sq(row, col));
                assert_eq!(flip_anti_diagonal(b), sq(7 - row, 7 - col));
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_and_invertible() {
        let b = 0x0123_4567_89AB_CDEF_u64 ^ 0x8000_0000_0000_0001;
        let mut images: Vec<u64> = (0..8).map(|s| symmetry(b, s)).collect();
        for s in 0..8 {
            assert_eq!(inverse_symmetry(symmetry(b, s), s), b);
            assert_eq!(symmetry(b, s).count_ones(), b.count_ones());
        }
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), 8);
        assert_eq!(symmetry(CENTRE, 5), CENTRE);
        assert_eq!(symmetry(CORNERS, 7), CORNERS);
    }

    #[test]
    fn neighbours_are_the_adjacent_squares() {
        for x in 0..64u8 {
            let (c, r) = (i32::from(x % 8), i32::from(x / 8));
            let mut expected = 0u64;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (cc, rr) = (c + dc, r + dr);
                    if (dr, dc) != (0, 0) && (0..8).contains(&cc) && (0..8).contains(&rr) {
                        expected |= sq(cc as u8, rr as u8);
                    }
                }
            }
            assert_eq!(neighbours(1 << x), expected, "square {x}");
        }
        assert_eq!(neighbours(1).count_ones(), 3);
        assert_eq!(neighbours(1 << 27).count_ones(), 8);
    }

    #[test]
    fn pext_and_pdep_match_their_portable_versions() {
        let mut seed = 0x5eed_u64;
        for _ in 0..10_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (b, mask) = (seed, seed.rotate_left(17) ^ seed.wrapping_mul(0x9E37_79B9));
            assert_eq!(pext(b, mask), pext_portable(b, mask));
            assert_eq!(pdep(b, mask), pdep_portable(b, mask));
            // pdep keeps as many low bits as the mask has squares; pext gets them back.
            let low = u64::MAX.checked_shr(64 - mask.count_ones()).unwrap_or(0);
            assert_eq!(pext(pdep(b, mask), mask), b & low);
        }
        assert_eq!(pext_portable(0b1010_0000, 0b1111_0000), 0b1010);
        assert_eq!(pdep_portable(0b1010, 0b1111_0000), 0b1010_0000);
    }

    #[test]
    fn bits_iterates_in_order() {
        let v: Vec<u8> = Bits(0x8000_0000_0000_0005).collect();
        assert_eq!(v, vec![0, 2, 63]);
        assert_eq!(Bits(0).count(), 0);
    }
}
