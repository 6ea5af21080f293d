//! `volte calibrate-mpc`.

use crate::jobs::calibrate;
use anyhow::{Context, Result};
use clap::Args;
use std::io::IsTerminal;
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
}

pub fn run(args: CalibrateArgs) -> Result<()> {
    if args.min_empties > args.max_empties || args.max_empties > 60 {
        anyhow::bail!("need min-empties <= max-empties <= 60");
    }
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
    let total = positions.len();
    // Without a file, the linear tables' statistics (src/search/mpc_table.rs).
    let eval = match &args.eval_file {
        Some(path) => crate::eval::Evaluator::from_options(None, Some(path))?,
        None => crate::eval::Evaluator::new(crate::eval::EvalKind::Linear),
    };
    let evaluation = match &args.eval_file {
        Some(path) if eval.weights(crate::rules::Variant::Othello).is_network() => {
            format!("the network evaluation (`{}`)", path.display())
        }
        Some(path) => format!("the linear pattern weights `{}`", path.display()),
        None => "the shipped linear pattern weights".to_string(),
    };
    let samples = calibrate::sample(&positions, args.depth, args.hash_mb, &eval, &|done| {
        bar.set_position(done as u64);
        // A line now and then for logs.
        if !std::io::stderr().is_terminal() && (done % 50 == 0 || done == total) {
            eprintln!(
                "{done}/{total} positions, {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    });
    bar.finish_and_clear();
    let table = calibrate::fit_table(&samples, args.depth);
    for (d, row) in table.iter().enumerate().skip(1) {
        let sigmas: Vec<String> = row.iter().map(|c| format!("{:.2}", c[2])).collect();
        println!(
            "depth {d:>2} (shallow {}): sigma by stage {}",
            crate::engine::shallow_depth(d as u32),
            sigmas.join(" ")
        );
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
