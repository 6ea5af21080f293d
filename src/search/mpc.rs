//! Multi-ProbCut: a shallow search predicts a deep one, and when the prediction lies far
//! enough outside the window the deep search is skipped.
//!
//! For a deep search of depth `d` at a node with `n` empties, the shallow search has depth
//! [`shallow_depth`]`(d)`; the deep score is modelled as `a * shallow + b` with an error of
//! standard deviation `sigma`, fitted per depth and stage by `volte calibrate-mpc`
//! (`scripts/calibrate_mpc.sh`) from real game positions. The tables it wrote are
//! [`super::mpc_table`] for the linear pattern evaluation and
//! [`super::mpc_table_network`] for the network (whose errors are not the same). A cut is
//! taken when the shallow score lies `t * sigma` beyond the window, `t` set by the
//! selectivity.

use super::mpc_table::{MPC_MAX_DEPTH, MPC_STAGE_EMPTIES, MPC_TABLE};
use super::mpc_table_network::MPC_TABLE as NETWORK_TABLE;

const _: () = assert!(
    super::mpc_table_network::MPC_MAX_DEPTH == MPC_MAX_DEPTH
        && super::mpc_table_network::MPC_STAGE_EMPTIES == MPC_STAGE_EMPTIES
);

/// Selectivity levels: index 0 makes no probable cuts (the search is exact at its depth).
pub const N_SELECTIVITIES: usize = 6;
/// How many standard deviations beyond the window a cut needs, per selectivity.
pub const SELECTIVITY_T: [f32; N_SELECTIVITIES] = [f32::INFINITY, 3.3, 2.6, 2.0, 1.5, 1.1];
/// The confidence of each selectivity, in percent (one-sided normal probability).
pub const SELECTIVITY_PERCENT: [u8; N_SELECTIVITIES] = [100, 99, 98, 95, 87, 73];

/// Shallowest deep search that tries probable cuts.
pub const MPC_MIN_DEPTH: u32 = 2;

/// Depth of the shallow search that predicts a search of `depth` (0 = the evaluation).
#[inline]
pub const fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The fitted model of a deep search: `deep ≈ a * shallow + b`, error `sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpcModel {
    pub a: f32,
    pub b: f32,
    pub sigma: f32,
}

/// The model for a search of `depth` at a node with `n_empties`, searched with a
/// network's evaluation or not.
#[inline]
pub fn model(depth: u32, n_empties: u32, network: bool) -> MpcModel {
    let d = depth.min(MPC_MAX_DEPTH) as usize;
    let stage = (n_empties / MPC_STAGE_EMPTIES).min(MPC_TABLE[0].len() as u32 - 1) as usize;
    let table = if network { &NETWORK_TABLE } else { &MPC_TABLE };
    let [a, b, sigma] = table[d][stage];
    // Past the calibrated depths the error keeps growing slowly.
    let extra = depth.saturating_sub(MPC_MAX_DEPTH) as f32;
    MpcModel {
        a,
        b,
        sigma: sigma * (1.0 + 0.03 * extra),
    }
}

/// Shallow-search bounds for a null window at `alpha`: a shallow score at or above the
/// first predicts a deep score above `alpha`; at or below the second, at or below it.
/// Bounds outside the score range mean no cut is possible on that side.
#[inline]
pub fn cut_bounds(model: MpcModel, alpha: i32, t: f32) -> (i32, i32) {
    let beta = alpha + 1;
    let margin = t * model.sigma;
    let high = ((beta as f32 + margin - model.b) / model.a).ceil();
    let low = ((alpha as f32 - margin - model.b) / model.a).floor();
    (
        high.clamp(-1000.0, 1000.0) as i32,
        low.clamp(-1000.0, 1000.0) as i32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_are_shallower() {
        for d in MPC_MIN_DEPTH..40 {
            assert!(shallow_depth(d) < d);
        }
        assert_eq!(shallow_depth(3), 1);
        assert_eq!(shallow_depth(8), 4);
    }

    #[test]
    fn bounds_widen_with_confidence() {
        for network in [false, true] {
            let m = model(8, 30, network);
            let (h1, l1) = cut_bounds(m, 0, SELECTIVITY_T[5]);
            let (h2, l2) = cut_bounds(m, 0, SELECTIVITY_T[1]);
            assert!(h2 >= h1 && l2 <= l1);
            assert!(h1 > 0 && l1 <= 0);
        }
        // Each evaluation has its own fitted table.
        assert_ne!(model(8, 30, false), model(8, 30, true));
    }
}
