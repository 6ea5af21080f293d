//! Fitting evaluation weights to game results: the pattern evaluation ([`pattern`],
//! `volte train`, from the games [`data`] reads) and the classic evaluation's term
//! weights for Othello, by least squares per number of empties, from the final results of
//! WTHOR games (`volte fit-classic`).

pub mod data;
pub mod network;
pub mod pattern;

pub use pattern::{Progress, Quiet};

use crate::eval::classic::{self, N_TERMS, SCALE};
use crate::formats::wthor;
use crate::game::Game;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// Normal equations of one stage: `X^T X` and `X^T y` over its positions.
#[derive(Clone, Copy)]
struct Stage {
    xtx: [[f64; N_TERMS]; N_TERMS],
    xty: [f64; N_TERMS],
    n: u64,
}

impl Default for Stage {
    fn default() -> Self {
        Stage {
            xtx: [[0.0; N_TERMS]; N_TERMS],
            xty: [0.0; N_TERMS],
            n: 0,
        }
    }
}

/// Every game record of the `.wtb` files in `dir`, files in name order.
pub fn read_wthor_dir(dir: &Path) -> Result<Vec<wthor::WthorGame>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("no .wtb files in {}", dir.display());
    }
    let mut games = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?;
        let file = wthor::read_wtb(&bytes).with_context(|| f.display().to_string())?;
        games.extend(file.games);
    }
    Ok(games)
}

/// The games of every `.wtb` file in `dir` that were played to the end.
pub fn wthor_games(dir: &Path) -> Result<Vec<Game>> {
    Ok(read_wthor_dir(dir)?
        .iter()
        .enumerate()
        .filter_map(|(i, g)| g.to_game(i, None).ok())
        .filter(Game::is_over)
        .collect())
}

/// Fits the weights (in 1/[`SCALE`] disc) of every number of empties 0..=60 to the games'
/// final disc differences, each stage pooled with its neighbours within `window` empties,
/// with ridge regularisation `ridge` (relative to the number of positions). Returns the
/// table and the mean absolute error of the fit per stage.
pub fn fit_classic(games: &[Game], window: u32, ridge: f64) -> (Vec<[i32; N_TERMS]>, Vec<f64>) {
    let mut stages = vec![Stage::default(); 61];
    for game in games {
        let black = f64::from(game.final_score_black().unwrap_or(0));
        for (ply, state) in game.states().iter().enumerate() {
            let pos = state.pos;
            let n = pos.n_empties() as usize;
            if n > 60 || pos.legal_moves() == 0 && pos.opponent_moves() == 0 {
                continue;
            }
            let y = if game.side_at(ply) == crate::square::Color::Black {
                black
            } else {
                -black
            };
            let x = classic::terms(&pos).map(f64::from);
            let st = &mut stages[n];
            for i in 0..N_TERMS {
                for j in 0..N_TERMS {
                    st.xtx[i][j] += x[i] * x[j];
                }
                st.xty[i] += x[i] * y;
            }
            st.n += 1;
        }
    }
    let mut table = Vec::with_capacity(61);
    for n in 0..=60u32 {
        let mut pooled = Stage::default();
        for m in n.saturating_sub(window)..=(n + window).min(60) {
            let s = &stages[m as usize];
            for i in 0..N_TERMS {
                for j in 0..N_TERMS {
                    pooled.xtx[i][j] += s.xtx[i][j];
                }
                pooled.xty[i] += s.xty[i];
            }
            pooled.n += s.n;
        }
        let w = solve_ridge(&pooled, ridge);
        table.push(w.map(|v| (v * f64::from(SCALE)).round() as i32));
    }
    // Mean absolute error of the rounded evaluation, per stage.
    let mut err = vec![(0.0, 0u64); 61];
    for game in games {
        let black = game.final_score_black().unwrap_or(0);
        for (ply, state) in game.states().iter().enumerate() {
            let pos = state.pos;
            let n = pos.n_empties() as usize;
            let y = if game.side_at(ply) == crate::square::Color::Black {
                black
            } else {
                -black
            };
            let t = classic::terms(&pos);
            let sum: i32 = (0..N_TERMS).map(|i| t[i] * table[n][i]).sum();
            let v = (f64::from(sum) / f64::from(SCALE))
                .round()
                .clamp(-64.0, 64.0);
            err[n].0 += (v - f64::from(y)).abs();
            err[n].1 += 1;
        }
    }
    let mae = err
        .iter()
        .map(|&(e, c)| if c == 0 { 0.0 } else { e / c as f64 })
        .collect();
    (table, mae)
}

/// Solves `(X^T X + ridge * n * I) w = X^T y` by Gaussian elimination.
fn solve_ridge(s: &Stage, ridge: f64) -> [f64; N_TERMS] {
    let mut a = s.xtx;
    let mut b = s.xty;
    let lambda = ridge * (s.n.max(1) as f64);
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += lambda;
    }
    for col in 0..N_TERMS {
        let pivot = (col..N_TERMS)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("rows");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[col];
        let pivot_b = b[col];
        for (row, (a_row, b_row)) in a.iter_mut().zip(b.iter_mut()).enumerate() {
            if row != col {
                let f = a_row[col] / p;
                for (x, &y) in a_row.iter_mut().zip(pivot_row.iter()).skip(col) {
                    *x -= f * y;
                }
                *b_row -= f * pivot_b;
            }
        }
    }
    let mut w = [0.0; N_TERMS];
    for i in 0..N_TERMS {
        if a[i][i].abs() > 1e-12 {
            w[i] = b[i] / a[i][i];
        }
    }
    w
}

/// The Rust source of `src/eval/classic_weights.rs`.
pub fn weights_source(table: &[[i32; N_TERMS]], games: usize, command: &str) -> String {
    let mut s = format!(
        "//! Classic evaluation weights for Othello (and Reversi 1889), in 1/{SCALE} disc per\n\
         //! term, for 0..=60 empties, fitted by least squares to the final results of {games}\n\
         //! WTHOR games. Regenerate with `{command}`.\n\n\
         #[rustfmt::skip]\n\
         pub const OTHELLO_FITTED: [[i32; {N_TERMS}]; 61] = [\n"
    );
    for (n, w) in table.iter().enumerate() {
        let cells: Vec<String> = w.iter().map(|v| v.to_string()).collect();
        s.push_str(&format!("    [{}], // {n} empties\n", cells.join(", ")));
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ridge_solver_recovers_weights() {
        let mut s = Stage::default();
        let truth = [2.0, -1.0, 0.5, 0.0, 3.0, 1.0, -2.0, 0.25, 1.5];
        let mut rng = 12345u64;
        for _ in 0..2000 {
            let mut x = [0.0; N_TERMS];
            for v in x.iter_mut() {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                *v = (rng % 21) as f64 - 10.0;
            }
            let y: f64 = (0..N_TERMS).map(|i| x[i] * truth[i]).sum();
            for i in 0..N_TERMS {
                for j in 0..N_TERMS {
                    s.xtx[i][j] += x[i] * x[j];
                }
                s.xty[i] += x[i] * y;
            }
            s.n += 1;
        }
        let w = solve_ridge(&s, 0.0);
        for i in 0..N_TERMS {
            assert!(
                (w[i] - truth[i]).abs() < 1e-6,
                "{i}: {} vs {}",
                w[i],
                truth[i]
            );
        }
    }
}
