//! Helpers shared by the benchmarks.

use volte::bitboard::Bits;
use volte::board::Position;

/// Positions reached by a fixed pseudo-random walk: openings to endgames.
pub fn sample_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = 42u64;
    for _ in 0..200 {
        let mut pos = Position::START;
        loop {
            let moves = pos.legal_moves();
            if moves == 0 {
                if pos.opponent_moves() == 0 {
                    break;
                }
                pos = pos.pass();
                continue;
            }
            out.push(pos);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let list: Vec<u8> = Bits(moves).collect();
            pos = pos.play(list[(seed >> 33) as usize % list.len()]);
        }
    }
    out
}
