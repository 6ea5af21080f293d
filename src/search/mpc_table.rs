//! Multi-ProbCut parameters: `MPC_TABLE[depth][stage] = [a, b, sigma]`, stage =
//! empties / MPC_STAGE_EMPTIES. Provisional values (a = 1, b = 0, sigma growing with
//! depth) until `scripts/calibrate_mpc.sh` writes fitted ones.

pub const MPC_MAX_DEPTH: u32 = 14;
pub const MPC_STAGE_EMPTIES: u32 = 10;

pub const MPC_TABLE: [[[f32; 3]; 7]; 15] = {
    let mut t = [[[1.0, 0.0, 4.0]; 7]; 15];
    let mut d = 0;
    while d < 15 {
        let mut s = 0;
        while s < 7 {
            t[d][s][2] = 2.0 + 0.3 * d as f32;
            s += 1;
        }
        d += 1;
    }
    t
};
