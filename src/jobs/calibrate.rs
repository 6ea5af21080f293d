//! Multi-ProbCut calibration: searches positions of real games at every depth without
//! probable cuts, fits `deep ≈ a * shallow + b` for each depth (with the shallow depth
//! the search uses) and stage, and writes the table `src/search/mpc_table.rs` holds.

use crate::engine::shallow_depth;
use crate::engine::{Engine, EngineOptions, Limits};
use crate::rules::{State, Variant};
use anyhow::Result;
use rayon::prelude::*;
use std::path::Path;

/// Stages of the table (empties / 10: 0-9, ..., 60).
pub const STAGES: usize = 7;
/// Empties per stage.
pub const STAGE_EMPTIES: u32 = 10;

/// One position's scores at depths 0 (the evaluation) to the deepest.
#[derive(Clone, Debug)]
pub struct Sample {
    pub n_empties: u32,
    pub scores: Vec<i32>,
}

/// Positions for calibration: from the WTHOR games in `dir`, one position per game at a
/// number of empties drawn from `min_empties..=max_empties`, `count` in all, spread
/// evenly over the files.
pub fn positions_from_wthor(
    dir: &Path,
    count: usize,
    min_empties: u32,
    max_empties: u32,
    seed: u64,
) -> Result<Vec<State>> {
    let games = crate::jobs::train::read_wthor_dir(dir)?;
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && tries < count * 20 {
        tries += 1;
        let g = &games[(next() % games.len() as u64) as usize];
        let Ok(game) = g.to_game(0, None) else {
            continue;
        };
        let span = u64::from(max_empties - min_empties + 1);
        let target = min_empties + (next() % span) as u32;
        if let Some(state) = game
            .states()
            .iter()
            .find(|s| s.pos.n_empties() == target && Variant::Othello.legal_moves(s) != 0)
        {
            out.push(*state);
        }
    }
    Ok(out)
}

/// Searches every position (with its index) to `depth` at `selectivity` (0: without
/// probable cuts, as the table is fitted; one engine per thread), keeping the score of
/// every iteration; `done(index, sample)` after each.
pub fn sample(
    variant: Variant,
    positions: &[(usize, State)],
    depth: u32,
    selectivity: u8,
    hash_mb: usize,
    eval: &crate::eval::Evaluator,
    done: &(dyn Fn(usize, &Sample) + Sync),
) -> Vec<(usize, Sample)> {
    positions
        .par_iter()
        .map_init(
            || {
                Engine::new(EngineOptions {
                    hash_mb,
                    eval: eval.clone(),
                    ..EngineOptions::default()
                })
            },
            |engine, &(index, ref state)| {
                engine.clear();
                let mut scores = vec![engine.evaluate(variant, state)];
                let limits = Limits {
                    selectivity: Some(selectivity),
                    ..Limits::depth(depth)
                };
                engine.think(variant, state, &limits, &mut |it| {
                    if it.depth as usize == scores.len() {
                        scores.push(it.score);
                    }
                });
                let sample = Sample {
                    n_empties: state.pos.n_empties(),
                    scores,
                };
                done(index, &sample);
                (index, sample)
            },
        )
        .collect()
}

/// The first line of a samples file: what the samples depend on (the positions' draw and
/// the evaluation), so that a file is only ever resumed by the same calibration.
pub fn samples_header(
    seed: u64,
    min_empties: u32,
    max_empties: u32,
    selectivity: u8,
    weights: &[u8],
) -> String {
    // The weights' CRC-32, as `.vgames` blocks check theirs.
    let mut crc = flate2::Crc::new();
    crc.update(weights);
    format!(
        "# volte calibrate-mpc samples: seed {seed}, empties {min_empties}-{max_empties}, \
         selectivity {selectivity}, weights crc {:08x}",
        crc.sum()
    )
}

/// One line of a samples file: the position's index, its empties, its scores from depth 0.
pub fn sample_line(index: usize, sample: &Sample) -> String {
    let mut line = format!("{index} {}", sample.n_empties);
    for s in &sample.scores {
        line.push_str(&format!(" {s}"));
    }
    line
}

/// The samples of a samples file's `text` whose first line must be `header`, the deepest
/// line of each position (a later, deeper search of a position appends another line).
pub fn parse_samples(
    text: &str,
    header: &str,
) -> Result<std::collections::BTreeMap<usize, Sample>> {
    let mut lines = text.lines();
    match lines.next() {
        Some(first) if first == header => {}
        Some(first) => anyhow::bail!(
            "the samples file was written by another calibration ({first:?}; this one is \
             {header:?}): give another file"
        ),
        None => anyhow::bail!("the samples file is empty (no header line)"),
    }
    let mut out = std::collections::BTreeMap::new();
    for (k, line) in lines.enumerate() {
        let mut fields = line.split_whitespace().map(str::parse::<i64>);
        let bad = || anyhow::anyhow!("samples file, line {}: not a sample: {line:?}", k + 2);
        let index = fields.next().ok_or_else(bad)?.map_err(|_| bad())?;
        let n_empties = fields.next().ok_or_else(bad)?.map_err(|_| bad())?;
        let scores = fields
            .map(|f| f.ok().and_then(|v| i32::try_from(v).ok()))
            .collect::<Option<Vec<i32>>>()
            .ok_or_else(bad)?;
        if index < 0 || !(0..=60).contains(&n_empties) || scores.is_empty() {
            return Err(bad());
        }
        let sample = Sample {
            n_empties: n_empties as u32,
            scores,
        };
        let entry = out.entry(index as usize).or_insert_with(|| sample.clone());
        if sample.scores.len() > entry.scores.len() {
            *entry = sample;
        }
    }
    Ok(out)
}

/// A least-squares line `y ≈ a x + b` with the residuals' standard deviation.
pub fn fit(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 8 {
        return None;
    }
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), &(x, y)| (sx + x, sy + y));
    let (mx, my) = (sx / n, sy / n);
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y) in points {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    if sxx <= 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let var = points
        .iter()
        .map(|&(x, y)| (y - a * x - b).powi(2))
        .sum::<f64>()
        / (n - 2.0);
    Some((a, b, var.sqrt()))
}

/// The fitted table `[depth][stage] = [a, b, sigma]` for depths 0..=max_depth; cells
/// without enough data take the nearest stage's, depths below the first probcut depth
/// stay neutral.
pub fn fit_table(samples: &[Sample], max_depth: u32) -> Vec<[[f64; 3]; STAGES]> {
    let mut table = vec![[[1.0, 0.0, 4.0]; STAGES]; max_depth as usize + 1];
    for d in 1..=max_depth {
        let shallow = shallow_depth(d) as usize;
        let mut fitted: [Option<[f64; 3]>; STAGES] = [None; STAGES];
        for (stage, cell) in fitted.iter_mut().enumerate() {
            let points: Vec<(f64, f64)> = samples
                .iter()
                .filter(|s| {
                    (s.n_empties / STAGE_EMPTIES) as usize == stage
                        && s.n_empties > d
                        && s.scores.len() > d as usize
                })
                .map(|s| {
                    (
                        f64::from(s.scores[shallow]),
                        f64::from(s.scores[d as usize]),
                    )
                })
                .collect();
            *cell = fit(&points).map(|(a, b, sigma)| [a, b, sigma]);
        }
        for (stage, cell) in table[d as usize].iter_mut().enumerate() {
            // Nearest stage with data.
            let nearest = (0..STAGES)
                .filter(|&t| fitted[t].is_some())
                .min_by_key(|&t| t.abs_diff(stage));
            if let Some(t) = nearest {
                *cell = fitted[t].expect("filtered");
            }
        }
    }
    table
}

/// The side to move's offset of the evaluation, in discs, for each phase of the network
/// ([`crate::eval::network::bucket`]), with the number of measurements behind it.
///
/// A search whose last ply is the side to move's scores higher on average than one a ply
/// shallower or deeper: the scores of a position zigzag with the depth's parity (by 2 to 3
/// discs in the midgame with the network of the twelfth session): the side that picks the
/// last move picks among the evaluation's errors as well (the noisier the evaluation, the
/// larger the zigzag). Adding an offset `c` to every evaluation from the
/// side to move's point of view lowers the odd depths' scores by `c` and raises the even
/// ones' by `c`, so `c` is half the zigzag: at depth `d` the score minus the mean of its
/// neighbours' (depths `d - 1` and `d + 1`), sign alternating with `d`, measured at the
/// phase of the leaves (`empties - d`). Depths whose neighbour is solved exactly (`d + 1 >=
/// empties`) are left out.
pub fn fit_parity(samples: &[Sample]) -> [(f64, usize); crate::eval::network::BUCKETS] {
    let mut sums = [(0.0f64, 0usize); crate::eval::network::BUCKETS];
    for s in samples {
        for d in 1..s.scores.len().saturating_sub(1) {
            if d + 1 >= s.n_empties as usize {
                break;
            }
            let leaf = s.n_empties - d as u32;
            let around = f64::from(s.scores[d - 1] + s.scores[d + 1]) / 2.0;
            let zig = f64::from(s.scores[d]) - around;
            let sign = if d % 2 == 1 { 1.0 } else { -1.0 };
            let cell = &mut sums[crate::eval::network::bucket(leaf)];
            cell.0 += sign * zig / 2.0;
            cell.1 += 1;
        }
    }
    sums.map(|(sum, n)| (if n > 0 { sum / n as f64 } else { 0.0 }, n))
}

/// `text` as `//!` lines of at most 92 characters (a word longer than a line keeps its own).
fn doc_lines(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("//!");
    for word in text.split_whitespace() {
        if line.len() > 3 && line.chars().count() + 1 + word.chars().count() > 92 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//!");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The Rust source of `src/search/mpc_table.rs` for `table`.
pub fn table_source(
    table: &[[[f64; 3]; STAGES]],
    positions: usize,
    command: &str,
    evaluation: &str,
) -> String {
    let mut s = String::new();
    let refit = if evaluation.contains("network") {
        " Refit it whenever the network changes: its sigmas are the network's own, and the \
         table moves match results as much as the weights do (docs/evaluation.md)."
    } else {
        ""
    };
    s.push_str(&doc_lines(&format!(
        "Multi-ProbCut parameters for {evaluation}, written by `volte calibrate-mpc` from \
         {positions} WTHOR positions searched without probable cuts: \
         `MPC_TABLE[depth][stage] = [a, b, sigma]` with `deep ≈ a * shallow + b`, stage = \
         empties / MPC_STAGE_EMPTIES.{refit} Regenerate with `{command}`."
    )));
    s.push('\n');
    s.push_str(&format!(
        "pub const MPC_MAX_DEPTH: u32 = {};\npub const MPC_STAGE_EMPTIES: u32 = {STAGE_EMPTIES};\n\n",
        table.len() - 1
    ));
    s.push_str(&format!(
        "#[rustfmt::skip]\n#[allow(clippy::approx_constant)] // fitted numbers, not constants\npub const MPC_TABLE: [[[f32; 3]; {STAGES}]; {}] = [\n",
        table.len()
    ));
    for (d, row) in table.iter().enumerate() {
        s.push_str(&format!("    // depth {d}\n    [\n"));
        for cell in row {
            s.push_str(&format!(
                "        [{:.4}, {:.4}, {:.4}],\n",
                cell[0], cell[1], cell[2]
            ));
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_file_round_trips_and_keeps_the_deepest_line() {
        let header = samples_header(1889, 16, 54, 0, b"weights");
        assert_ne!(header, samples_header(1889, 16, 54, 0, b"other weights"));
        assert_ne!(header, samples_header(1890, 16, 54, 0, b"weights"));
        assert_ne!(header, samples_header(1889, 16, 54, 5, b"weights"));
        let short = Sample {
            n_empties: 30,
            scores: vec![2, -4, 6],
        };
        let deep = Sample {
            n_empties: 30,
            scores: vec![2, -4, 6, 0, 8],
        };
        let other = Sample {
            n_empties: 41,
            scores: vec![-10, -12],
        };
        let text = [
            header.clone(),
            sample_line(7, &short),
            sample_line(3, &other),
            sample_line(7, &deep),
            sample_line(7, &short),
        ]
        .join("\n");
        let samples = parse_samples(&text, &header).unwrap();
        assert_eq!(samples.len(), 2);
        assert_eq!(samples[&7].scores, deep.scores);
        assert_eq!(samples[&3].n_empties, 41);
        assert_eq!(samples[&3].scores, other.scores);
        // Another calibration's file, or a damaged line, is refused with its reason.
        let other_header = samples_header(1, 16, 54, 0, b"weights");
        let err = parse_samples(&text, &other_header).unwrap_err().to_string();
        assert!(err.contains("another calibration"), "{err}");
        let err = parse_samples(&format!("{header}\n7 30 2 x"), &header)
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2"), "{err}");
        assert!(parse_samples("", &header).is_err());
    }

    #[test]
    fn fit_parity_measures_half_the_zigzag_at_the_leaves_phase() {
        use crate::eval::network::bucket;
        // Scores that zigzag by 3 discs around 1 (odd depths 2.5, even -0.5): an offset of
        // 1.5 from the side to move's point of view removes it.
        let samples: Vec<Sample> = (0..40)
            .map(|i| Sample {
                n_empties: 30 + i % 3,
                scores: (0..10)
                    .map(|d| {
                        if d % 2 == 1 {
                            5 + i as i32 % 2
                        } else {
                            2 + i as i32 % 2
                        }
                    })
                    .collect(),
            })
            .collect();
        let fitted = fit_parity(&samples);
        let (c, n) = fitted[bucket(26)];
        assert!(n > 0 && (c - 1.5).abs() < 1e-9, "{c} over {n}");
        // Depths 1-8 of 30-32 empties leave their leaves at 22-31 empties, no others.
        assert!(fitted[bucket(10)].1 == 0 && fitted[bucket(40)].1 == 0);
        // Leaves next to the exactly solved depths are left out.
        let near_end = [Sample {
            n_empties: 4,
            scores: vec![0, 9, 0, 9, 0],
        }];
        assert!(fit_parity(&near_end).iter().all(|&(_, n)| n <= 2));
    }

    #[test]
    fn fit_recovers_a_line() {
        let points: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = f64::from(i) - 50.0;
                let noise = if i % 2 == 0 { 1.0 } else { -1.0 };
                (x, 0.9 * x + 2.0 + noise)
            })
            .collect();
        let (a, b, sigma) = fit(&points).unwrap();
        assert!((a - 0.9).abs() < 0.01, "{a}");
        assert!((b - 2.0).abs() < 0.05, "{b}");
        assert!((sigma - 1.0).abs() < 0.05, "{sigma}");
    }

    #[test]
    fn table_source_has_every_depth() {
        let samples: Vec<Sample> = (0..200)
            .map(|i| Sample {
                n_empties: 20 + i % 30,
                scores: (0..6).map(|d| (i as i32 % 7) - 3 + d % 2).collect(),
            })
            .collect();
        let table = fit_table(&samples, 5);
        let src = table_source(&table, 200, "test", "a test");
        assert!(src.contains("MPC_MAX_DEPTH: u32 = 5"));
        assert_eq!(src.matches("// depth").count(), 6);
        assert!(!src.contains("Refit"));
        // The header is wrapped as rustfmt keeps it, and says to refit a network's table.
        let command = "volte calibrate-mpc --positions 2400 --depth 12 --min-empties 16 \
                       --max-empties 54 --seed 1889 --eval-file weights/othello-network.vw \
                       --output src/search/mpc_table_network.rs";
        let evaluation = "the network evaluation (`weights/othello-network.vw`)";
        let src = table_source(&table, 2400, command, evaluation);
        assert!(src.lines().all(|l| l.chars().count() <= 92), "{src}");
        let header: String = src
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| &l[4..])
            .collect::<Vec<_>>()
            .join(" ");
        assert!(header.contains("Refit it whenever the network changes"));
        assert!(header.contains(command), "{header}");
    }
}
