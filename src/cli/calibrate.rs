//! `volte calibrate-mpc`.

use crate::jobs::calibrate;
use anyhow::{Context, Result};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Folder of WTHOR `.wtb` files.
    #[arg(long, default_value = "../shared/data/wthor")]
    pub wthor: PathBuf,
    /// Number of positions.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Deepest search (the table covers depths up to it).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(3..=20))]
    pub depth: u32,
    /// Fewest and most empties of the positions.
    #[arg(long, default_value_t = 16)]
    pub min_empties: u32,
    #[arg(long, default_value_t = 54)]
    pub max_empties: u32,
    /// Table size per thread, in MiB.
    #[arg(long, default_value_t = 32)]
    pub hash_mb: usize,
    /// Where to write the table (Rust source): `src/search/mpc_table.rs` for the linear
    /// pattern weights, `src/search/mpc_table_network.rs` for a network (the search uses
    /// that table whenever it plays with a network's weights).
    #[arg(long, default_value = "src/search/mpc_table.rs")]
    pub output: PathBuf,
    /// Weights to search with instead of the shipped linear ones (a file from `volte
    /// train`; a network for `src/search/mpc_table_network.rs`).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
    /// Random seed for picking positions.
    #[arg(long, default_value_t = 1889)]
    pub seed: u64,
    /// Search at this selectivity instead of without probable cuts (0; 1-5 are 99% to
    /// 73%, the midgame's default). For measuring how selective searches predict each
    /// other: the table itself is fitted to searches without cuts.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=5))]
    pub selectivity: u8,
    /// Keep every position's scores in this file as it is searched, and resume from it: a
    /// position already there at `--depth` or deeper is not searched again, one there
    /// less deep is searched again to `--depth`. The table is fitted to every sample in
    /// the file, so a few hundred positions searched deep (`--positions 300 --depth 16`)
    /// can join thousands searched to depth 12 with the same seed. A long calibration can
    /// be stopped and started again with the same command.
    #[arg(long, value_name = "FILE")]
    pub samples: Option<PathBuf>,
    /// Instead of the table, fit the weights' offset for the side to move (`--eval-file`,
    /// a network or linear tables): scores searched to odd and even depths differ by 2 to
    /// 3 discs, half of it each way, as the side that plays the last ply picks among the
    /// evaluation's errors. The offset of each phase of four empties (half that zigzag,
    /// measured at the leaves) is added to the evaluation there (a network's output
    /// biases, the linear tables' parity weights), and the weights written to FILE. Then
    /// calibrate a network's table for FILE. `scripts/train.sh network` does both;
    /// `scripts/train.sh anti` fits Anti's offset with `--variant anti`.
    #[arg(long, value_name = "FILE")]
    pub parity_output: Option<PathBuf>,
    /// Rules of the searches. The WTHOR positions are legal in every variant that starts
    /// from them; a variant other than Othello only fits `--parity-output` (its searches
    /// use the Othello tables of Multi-ProbCut).
    #[arg(long, short, default_value = "othello")]
    pub variant: crate::rules::Variant,
}

pub fn run(args: CalibrateArgs) -> Result<()> {
    if args.min_empties > args.max_empties || args.max_empties > 60 {
        anyhow::bail!("need min-empties <= max-empties <= 60");
    }
    if args.parity_output.is_some() && args.selectivity > 0 {
        anyhow::bail!(
            "--parity-output fits searches without probable cuts: leave out --selectivity"
        );
    }
    if args.variant == crate::rules::Variant::Reversi1889 {
        anyhow::bail!(
            "the WTHOR positions are not Reversi 1889 positions: calibrate Othello (whose \
             weights serve Reversi 1889)"
        );
    }
    if args.variant != crate::rules::Variant::Othello && args.parity_output.is_none() {
        anyhow::bail!(
            "the Multi-ProbCut tables are Othello's (every variant searches with them): \
             --variant {} fits only --parity-output",
            args.variant
        );
    }
    let parity_weights = match (&args.parity_output, &args.eval_file) {
        (None, _) => None,
        (Some(_), None) => anyhow::bail!("--parity-output needs --eval-file, the weights to shift"),
        (Some(_), Some(path)) => {
            let weights = crate::eval::PatternWeights::load(path)?;
            if weights.variant() != args.variant {
                anyhow::bail!(
                    "{} holds {} weights; the searches are {} (--variant)",
                    path.display(),
                    weights.variant(),
                    args.variant
                );
            }
            Some(weights)
        }
    };
    let positions = calibrate::positions_from_wthor(
        &args.wthor,
        args.positions,
        args.min_empties,
        args.max_empties,
        args.seed,
    )?;
    eprintln!(
        "calibrating on {} positions ({}-{} empties), depths 1-{}",
        positions.len(),
        args.min_empties,
        args.max_empties,
        args.depth
    );
    let bar = indicatif::ProgressBar::new(positions.len() as u64);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "[{bar:30}] {pos}/{len} positions, {elapsed} (eta {eta})",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let started = std::time::Instant::now();
    // Without a file, the linear tables' statistics (src/search/mpc_table.rs).
    let eval = match &args.eval_file {
        Some(path) => crate::eval::Evaluator::from_options(None, Some(path))?,
        None => crate::eval::Evaluator::new(crate::eval::EvalKind::Linear),
    };
    let evaluation = match &args.eval_file {
        Some(path) if eval.weights(args.variant).is_network() => {
            format!("the network evaluation (`{}`)", path.display())
        }
        Some(path) => format!("the linear pattern weights `{}`", path.display()),
        None => "the shipped linear pattern weights".to_string(),
    };
    let header = calibrate::samples_header(
        args.seed,
        args.min_empties,
        args.max_empties,
        args.selectivity,
        &eval.weights(args.variant).to_bytes(),
    );
    let mut all = std::collections::BTreeMap::new();
    let mut file = None;
    if let Some(path) = &args.samples {
        // (an empty file, as a run killed before its first line leaves it, is a new one)
        let mut whole = 0;
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            // A line cut short by a killed run is dropped (and cut off before appending).
            whole = text.rfind('\n').map_or(0, |i| i + 1);
            if whole > 0 {
                all = calibrate::parse_samples(&text[..whole], &header)
                    .with_context(|| format!("in {}", path.display()))?;
            } else if !header.starts_with(text.as_str()) {
                anyhow::bail!(
                    "{} is not a samples file of this calibration",
                    path.display()
                );
            }
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        if f.metadata().is_ok_and(|m| m.len() > whole as u64) {
            f.set_len(whole as u64)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if whole == 0 {
            writeln!(f, "{header}").with_context(|| format!("cannot write {}", path.display()))?;
        }
        file = Some(std::sync::Mutex::new(f));
    }
    let todo: Vec<(usize, crate::rules::State)> = positions
        .into_iter()
        .enumerate()
        .filter(|(i, _)| {
            all.get(i)
                .is_none_or(|s| s.scores.len() <= args.depth as usize)
        })
        .collect();
    if let Some(path) = &args.samples {
        eprintln!(
            "{}: {} samples; {} positions to search",
            path.display(),
            all.len(),
            todo.len()
        );
    }
    bar.set_length(todo.len() as u64);
    let total = todo.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let last_line = std::sync::Mutex::new(std::time::Instant::now());
    let written = std::sync::Mutex::new(Ok(()));
    let searched = calibrate::sample(
        args.variant,
        &todo,
        args.depth,
        args.selectivity,
        args.hash_mb,
        &eval,
        &|index, sample| {
            if let Some(f) = &file {
                let mut f = f.lock().expect("not poisoned");
                // One write a line, so that a killed run leaves whole lines.
                let line = format!("{}\n", calibrate::sample_line(index, sample));
                let result = f.write_all(line.as_bytes());
                if let Err(e) = result {
                    *written.lock().expect("not poisoned") = Err(e);
                }
            }
            let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            bar.set_position(done as u64);
            // A line now and then for logs: every 50 positions, or a minute.
            let mut last = last_line.lock().expect("not poisoned");
            if !std::io::stderr().is_terminal()
                && (done.is_multiple_of(50) || done == total || last.elapsed().as_secs() >= 60)
            {
                *last = std::time::Instant::now();
                eprintln!(
                    "{done}/{total} positions, {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
        },
    );
    bar.finish_and_clear();
    written
        .into_inner()
        .expect("not poisoned")
        .context("cannot write the samples file")?;
    all.extend(searched);
    let samples: Vec<calibrate::Sample> = all.into_values().collect();
    for d in 13..=args.depth as usize {
        let n = samples.iter().filter(|s| s.scores.len() > d).count();
        eprintln!("depth {d}: {n} samples");
    }
    if let (Some(out), Some(mut weights)) = (&args.parity_output, parity_weights) {
        let fitted = calibrate::fit_parity(&samples);
        let mut offsets = [0.0; crate::eval::network::BUCKETS];
        println!("phase  empties  leaves  offset (discs, for the side to move)");
        for (b, &(c, n)) in fitted.iter().enumerate() {
            // A phase measured too rarely keeps its output (the first, solved exactly
            // in play, and the last).
            offsets[b] = if n >= 100 { c } else { 0.0 };
            println!(
                "{b:>5}  {:>2}-{:<2}  {n:>7}  {:+.2}{}",
                4 * b + 1,
                4 * b + 4,
                offsets[b],
                if n >= 100 {
                    ""
                } else {
                    " (too few leaves: unchanged)"
                }
            );
        }
        weights.shift_outputs(&offsets);
        weights.save(out)?;
        // The search's Multi-ProbCut tables are Othello's: a network's own, and the
        // shipped linear weights' (which Anti's searches use as well).
        let next = if weights.is_network() {
            format!(
                " (calibrate its Multi-ProbCut table next: --eval-file {})",
                out.display()
            )
        } else if args.variant == crate::rules::Variant::Othello {
            format!(
                " (if it replaces the shipped linear weights, refit src/search/mpc_table.rs \
                 with --eval-file {})",
                out.display()
            )
        } else {
            String::new()
        };
        println!("wrote {}{next}", out.display());
        return Ok(());
    }
    let table = calibrate::fit_table(&samples, args.depth);
    for (d, row) in table.iter().enumerate().skip(1) {
        let sigmas: Vec<String> = row.iter().map(|c| format!("{:.2}", c[2])).collect();
        println!(
            "depth {d:>2} (shallow {}): sigma by stage {}",
            crate::engine::shallow_depth(d as u32),
            sigmas.join(" ")
        );
    }
    if args.selectivity > 0 {
        println!(
            "(searched at selectivity {}: a measurement, no table written)",
            args.selectivity
        );
        return Ok(());
    }
    let command = format!(
        "volte calibrate-mpc --positions {} --depth {} --min-empties {} --max-empties {} --seed {}{}",
        args.positions,
        args.depth,
        args.min_empties,
        args.max_empties,
        args.seed,
        args.eval_file
            .as_ref()
            .map(|p| format!(
                " --eval-file {} --output {}",
                p.display(),
                args.output.display()
            ))
            .unwrap_or_default()
    );
    std::fs::write(
        &args.output,
        calibrate::table_source(&table, samples.len(), &command, &evaluation),
    )
    .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!("wrote {}", args.output.display());
    Ok(())
}
