//! The last four empties: moves straight from the list of empty squares in parity
//! order, no move generation, the last square scored by counting flips.

use super::*;

/// The quadrant of square `x`: 0 (rows 1-4, columns a-d), 1 (rows 1-4, e-h), 2 (rows 5-8, a-d) or 3.
#[inline(always)]
pub(super) const fn quadrant(x: u8) -> u8 {
    (x >> 4 & 2) | (x >> 2 & 1)
}

/// The three empty squares of `empties` in the order the solver tries them: a square
/// alone in its quadrant before two sharing one (parity), then by index.
#[inline(always)]
pub(super) fn parity_order3(empties: u64) -> [u8; 3] {
    debug_assert_eq!(empties.count_ones(), 3);
    let a = empties.trailing_zeros() as u8;
    let b = (empties & (empties - 1)).trailing_zeros() as u8;
    let c = (63 - empties.leading_zeros()) as u8;
    let (qa, qb, qc) = (quadrant(a), quadrant(b), quadrant(c));
    if qa == qb && qb != qc {
        [c, a, b]
    } else if qa == qc && qa != qb {
        [b, a, c]
    } else {
        [a, b, c]
    }
}

/// [`parity_order4`]'s key of each square in an odd quadrant: its class (corner 0, square
/// next to a corner 2, other 1) above its index.
pub(super) const SQUARE_KEYS: [u16; 64] = {
    let mut keys = [0; 64];
    let mut x = 0;
    while x < 64 {
        let bit = 1u64 << x;
        let class = if CORNERS & bit != 0 {
            0
        } else if NEAR_CORNERS & bit != 0 {
            2
        } else {
            1
        };
        keys[x] = class << 6 | x as u16;
        x += 1;
    }
    keys
};

/// The four empty squares of `empties` in the order the solver tries them: the squares
/// of odd quadrants first (parity), within each parity corners first and squares next to
/// corners last (as [`priority_sets`]), then by index.
#[inline(always)]
pub(super) fn parity_order4(empties: u64) -> [u8; 4] {
    debug_assert_eq!(empties.count_ones(), 4);
    let odd = odd_quadrants(empties);
    let mut keys = [0u16; 4];
    for (k, x) in Bits(empties).enumerate() {
        let even = if odd >> x & 1 != 0 { 0 } else { 3 << 6 };
        keys[k] = SQUARE_KEYS[x as usize] + even;
    }
    // A sorting network for four keys.
    for (i, j) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        if keys[j] < keys[i] {
            keys.swap(i, j);
        }
    }
    keys.map(|k| (k & 63) as u8)
}

impl<'a, 's, R: Rules> Worker<'a, 's, R> {
    /// Alpha-beta straight over the empty squares, for the last few (at most
    /// [`SOLVE_SMALL_EMPTIES`], which is at most four).
    #[inline]
    pub(super) fn small(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        empties: u64,
        n: u32,
        passed: bool,
    ) -> i32 {
        const _: () = assert!(SOLVE_SMALL_EMPTIES <= 4);
        match n {
            1 => {
                self.nodes += 1;
                R::last_empty_score(s, empties.trailing_zeros() as u8)
            }
            2 => {
                let x1 = empties.trailing_zeros() as u8;
                let x2 = (63 - empties.leading_zeros()) as u8;
                self.solve2(s, alpha, beta, x1, x2, passed)
            }
            3 => self.solve3(s, alpha, beta, empties, passed),
            _ => self.solve4(s, alpha, beta, empties, passed),
        }
    }

    /// The last four empty squares, in the order of [`parity_order4`].
    pub(super) fn solve4(
        &mut self,
        s: &R::S,
        mut alpha: i32,
        beta: i32,
        empties: u64,
        passed: bool,
    ) -> i32 {
        if let Some(upper) = self.stability_cut(s, alpha, 4) {
            return upper;
        }
        self.nodes += 1;
        let mut best = -SCORE_INF;
        for x in parity_order4(empties) {
            if let Some(next) = R::try_play(s, x) {
                let v = -self.solve3(&next, -beta, -alpha, empties ^ (1u64 << x), false);
                if raise(&mut best, &mut alpha, v, beta) {
                    return best;
                }
            }
        }
        if best > -SCORE_INF {
            return best;
        }
        self.solve4_pass(s, alpha, beta, empties, passed)
    }

    /// [`Worker::solve4`] when the side to move cannot play (out of line, like
    /// [`Worker::solve2_pass`]).
    #[cold]
    #[inline(never)]
    pub(super) fn solve4_pass(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        empties: u64,
        passed: bool,
    ) -> i32 {
        if passed {
            return R::final_score(s);
        }
        // After a pass the opponent's node is of the other kind.
        self.cut_nodes ^= 1 << 4;
        -self.solve4(&R::pass(s), -beta, -alpha, empties, true)
    }

    /// The last two empty squares, `x1` before `x2` (the order [`Worker::small`] would
    /// try them in: with two empties, by index).
    #[inline(always)]
    pub(super) fn solve2(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        x1: u8,
        x2: u8,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -SCORE_INF;
        if let Some(next) = R::try_play(s, x1) {
            self.nodes += 1;
            best = -R::last_empty_score(&next, x2);
            if best >= beta {
                return best;
            }
        }
        if let Some(next) = R::try_play(s, x2) {
            self.nodes += 1;
            let v = -R::last_empty_score(&next, x1);
            return v.max(best);
        }
        if best > -SCORE_INF {
            return best;
        }
        self.solve2_pass(s, alpha, beta, x1, x2, passed)
    }

    /// [`Worker::solve2`] when the side to move cannot play: out of line, so that
    /// `solve2` itself does not recurse and inlines into its callers.
    #[cold]
    #[inline(never)]
    pub(super) fn solve2_pass(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        x1: u8,
        x2: u8,
        passed: bool,
    ) -> i32 {
        if passed {
            return R::final_score(s);
        }
        -self.solve2(&R::pass(s), -beta, -alpha, x1, x2, true)
    }

    /// The last three empty squares, in the order of [`parity_order3`].
    #[inline]
    pub(super) fn solve3(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        empties: u64,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let [x1, x2, x3] = parity_order3(empties);
        // Each child gets the two squares left by index (the order of `solve2`).
        let by_index = |a: u8, b: u8| if a < b { (a, b) } else { (b, a) };
        let mut alpha = alpha;
        let mut best = -SCORE_INF;
        if let Some(next) = R::try_play(s, x1) {
            let (a, b) = by_index(x2, x3);
            best = -self.solve2(&next, -beta, -alpha, a, b, false);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        if let Some(next) = R::try_play(s, x2) {
            let (a, b) = by_index(x1, x3);
            let v = -self.solve2(&next, -beta, -alpha, a, b, false);
            if v > best {
                if v >= beta {
                    return v;
                }
                best = v;
                alpha = alpha.max(v);
            }
        }
        if let Some(next) = R::try_play(s, x3) {
            let (a, b) = by_index(x1, x2);
            let v = -self.solve2(&next, -beta, -alpha, a, b, false);
            return v.max(best);
        }
        if best > -SCORE_INF {
            return best;
        }
        self.solve3_pass(s, alpha, beta, empties, passed)
    }

    /// [`Worker::solve3`] when the side to move cannot play (out of line, like
    /// [`Worker::solve2_pass`]).
    #[cold]
    #[inline(never)]
    pub(super) fn solve3_pass(
        &mut self,
        s: &R::S,
        alpha: i32,
        beta: i32,
        empties: u64,
        passed: bool,
    ) -> i32 {
        if passed {
            return R::final_score(s);
        }
        -self.solve3(&R::pass(s), -beta, -alpha, empties, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` sets of `k` squares, from a pseudo-random sequence.
    fn sample_sets(k: u32, count: usize) -> Vec<u64> {
        let mut seed = 0x5EED_u64;
        let mut sets = Vec::with_capacity(count);
        while sets.len() < count {
            let mut set = 0u64;
            while set.count_ones() < k {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                set |= 1 << (seed >> 58);
            }
            sets.push(set);
        }
        sets
    }

    /// Bits of the four 4x4 quadrants, which [`odd_quadrants`] computes with without
    /// reading them.
    const QUADRANTS: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];

    #[test]
    fn odd_quadrants_are_those_with_an_odd_number_of_empties() {
        for empties in (0..=60).flat_map(|k| sample_sets(k, 300)) {
            let naive = QUADRANTS
                .iter()
                .filter(|&&q| (empties & q).count_ones() % 2 == 1)
                .fold(0, |mask, &q| mask | q);
            assert_eq!(odd_quadrants(empties), naive, "{empties:#018x}");
        }
        assert_eq!(odd_quadrants(0), 0);
        assert_eq!(odd_quadrants(1 << 63 | 1), QUADRANTS[0] | QUADRANTS[3]);
    }

    #[test]
    fn three_squares_come_in_parity_order() {
        for empties in sample_sets(3, 20_000) {
            let odd = odd_quadrants(empties);
            let expected: Vec<u8> = Bits(empties & odd).chain(Bits(empties & !odd)).collect();
            assert_eq!(parity_order3(empties).to_vec(), expected, "{empties:#x}");
        }
    }

    #[test]
    fn four_squares_come_in_the_order_of_the_priority_sets() {
        let mut seen_even = false;
        for empties in sample_sets(4, 20_000) {
            let odd = odd_quadrants(empties);
            seen_even |= empties & !odd != 0;
            let expected: Vec<u8> = priority_sets(empties, odd)
                .into_iter()
                .flat_map(Bits)
                .collect();
            assert_eq!(parity_order4(empties).to_vec(), expected, "{empties:#x}");
        }
        assert!(seen_even, "the sample has squares in even quadrants");
    }
}
