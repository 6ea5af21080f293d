//! The README's examples, run as a user on a fresh clone runs them: every `$ volte ...`
//! (and `$ cargo run --release -- ...`) line of its text blocks is run with this build's
//! binary, and what it prints is compared with what the README shows (its standard output;
//! its error output too when it fails). Times and rates
//! (numbers with a decimal point, `Nodes/second:`) may differ; moves, scores and node
//! counts may not. A `...` line stands for any lines. An example preceded by
//! `<!-- readme-test: skip (why) -->` is not run (long matches, training, the terminal
//! game); one that reads `$VOLTE_DATA` runs when the shared data folder is there.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

struct Example {
    /// Line of the README where the command is (its last line, from 1).
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The examples of the README's text blocks, with those of blocks marked to be skipped
/// left out (and counted).
fn examples(readme: &str) -> (Vec<Example>, usize) {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    let mut skipped = 0;
    let mut i = 0;
    let mut skip_next = false;
    while i < lines.len() {
        let l = lines[i];
        if l.trim_start().starts_with("<!-- readme-test: skip") {
            skip_next = true;
            i += 1;
            continue;
        }
        if l.trim() != "```text" {
            i += 1;
            continue;
        }
        let skip_block = std::mem::take(&mut skip_next);
        i += 1;
        let mut current: Option<Example> = None;
        while i < lines.len() && lines[i].trim() != "```" {
            let l = lines[i];
            if let Some(cmd) = l.strip_prefix("$ ") {
                if let Some(e) = current.take() {
                    if skip_block {
                        skipped += 1;
                    } else {
                        out.push(e);
                    }
                }
                let mut command = cmd.to_string();
                while command.ends_with('\\') && i + 1 < lines.len() {
                    command.pop();
                    i += 1;
                    command.push(' ');
                    command.push_str(lines[i].trim());
                }
                current = Some(Example {
                    line: i + 1,
                    command,
                    expected: Vec::new(),
                });
            } else if let Some(e) = &mut current {
                e.expected.push(l.to_string());
            }
            i += 1;
        }
        if let Some(e) = current.take() {
            if skip_block {
                skipped += 1;
            } else {
                out.push(e);
            }
        }
        i += 1;
    }
    for e in &mut out {
        while e.expected.last().is_some_and(|l| l.trim().is_empty()) {
            e.expected.pop();
        }
    }
    (out, skipped)
}

/// Whether a token of output may differ from run to run: a time or a rate.
fn volatile(token: &str, previous: Option<&str>) -> bool {
    let t = token
        .trim_start_matches('(')
        .trim_end_matches([',', ')', 's', '%']);
    (t.contains('.') && t.trim_start_matches(['+', '-']).parse::<f64>().is_ok())
        || previous == Some("Nodes/second:")
}

/// Whether two tokens agree but for a time after their last `/`, as NBoard's
/// `=== MOVE/EVAL/TIME` reply ends.
fn same_but_time(a: &str, b: &str) -> bool {
    match (a.rsplit_once('/'), b.rsplit_once('/')) {
        (Some((pa, ta)), Some((pb, tb))) => pa == pb && volatile(ta, None) && volatile(tb, None),
        _ => false,
    }
}

fn same_line(expected: &str, got: &str) -> bool {
    let e: Vec<&str> = expected.split_whitespace().collect();
    let g: Vec<&str> = got.split_whitespace().collect();
    e.len() == g.len()
        && e.iter().zip(&g).enumerate().all(|(k, (a, b))| {
            let before = k.checked_sub(1).map(|p| e[p]);
            a == b || (volatile(a, before) && volatile(b, before)) || same_but_time(a, b)
        })
}

/// Whether `got` matches `expected`, where a `...` line stands for any lines.
fn matches(expected: &[String], got: &[&str]) -> bool {
    match expected.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=got.len()).any(|k| matches(rest, &got[k..]))
        }
        Some((first, rest)) => {
            !got.is_empty() && same_line(first, got[0]) && matches(rest, &got[1..])
        }
    }
}

/// What the README should show for output `got` where it showed `expected`: all of it,
/// or, where the README cut lines with `...`, as many lines before and after the cut.
fn refreshed(expected: &[String], got: &[&str]) -> Vec<String> {
    match expected.iter().position(|l| l.trim() == "...") {
        Some(cut) if got.len() > expected.len() => {
            let tail = expected.len() - cut - 1;
            let mut out: Vec<String> = got[..cut].iter().map(|l| l.to_string()).collect();
            out.push("...".to_string());
            out.extend(got[got.len() - tail..].iter().map(|l| l.to_string()));
            out
        }
        _ => got.iter().map(|l| l.to_string()).collect(),
    }
}

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("VOLTE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    dir.is_dir().then(|| dir.canonicalize().unwrap())
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let (examples, skipped) = examples(&readme);
    assert!(
        examples.len() + skipped >= 15,
        "{} examples found, {skipped} skipped",
        examples.len()
    );
    let bin = Path::new(env!("CARGO_BIN_EXE_volte")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let data = data_dir();
    let scratch = common::Scratch::new("readme");
    let mut failures = Vec::new();
    let mut updates = Vec::new();
    let mut ran = 0;
    for e in &examples {
        let command = e
            .command
            .replace("cargo run --release -- ", "volte ")
            .replace("cargo run --release --", "volte");
        if command.contains("$VOLTE_DATA") && data.is_none() {
            eprintln!("README line {}: no shared data, not run", e.line);
            continue;
        }
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(&command)
            .current_dir(root)
            .env("PATH", &path)
            .env("TMPDIR", scratch.join(""));
        if let Some(d) = &data {
            c.env("VOLTE_DATA", d);
        }
        let o = c.output().expect("sh runs");
        ran += 1;
        // What the README shows: the output, and the error when the command fails
        // (progress lines on stderr are not shown).
        let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
        if !o.status.success() {
            text.push_str(&String::from_utf8_lossy(&o.stderr));
        }
        let got: Vec<&str> = text.lines().collect();
        let mut got_trimmed = got.clone();
        while got_trimmed.last().is_some_and(|l| l.trim().is_empty()) {
            got_trimmed.pop();
        }
        if !matches(&e.expected, &got_trimmed) {
            updates.push((
                e.line,
                e.expected.len(),
                refreshed(&e.expected, &got_trimmed),
            ));
            failures.push(format!(
                "README line {}: `{}` printed:\n{}\n--- the README shows:\n{}",
                e.line,
                e.command,
                got_trimmed.join("\n"),
                e.expected.join("\n")
            ));
        }
    }
    eprintln!("{ran} README examples run, {skipped} skipped as marked");
    // `VOLTE_README_UPDATE=1 cargo test --release --test readme` writes what the examples
    // print now into the README (keeping its `...` cuts), for a change that moves them.
    if std::env::var_os("VOLTE_README_UPDATE").is_some() && !updates.is_empty() {
        let mut lines: Vec<String> = readme.lines().map(str::to_string).collect();
        for (line, old_len, new) in updates.into_iter().rev() {
            lines.splice(line..line + old_len, new);
        }
        std::fs::write(root.join("README.md"), lines.join("\n") + "\n").unwrap();
        eprintln!("README.md updated");
        return;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_comparison_allows_times_and_nothing_else() {
    assert!(same_line(
        "total: 1 solved, 8719642 nodes, 0.208 s, 42.0 Mn/s",
        "total: 1 solved, 8719642 nodes, 0.311 s, 28.0 Mn/s"
    ));
    assert!(!same_line(
        "total: 1 solved, 8734365 nodes, 0.208 s, 42.0 Mn/s",
        "total: 1 solved, 8719642 nodes, 0.208 s, 42.0 Mn/s"
    ));
    assert!(!same_line("1 20 A2 +38", "1 20 B2 +38"));
    assert!(same_line("=== D6/2/0.000", "=== D6/2/0.003"));
    assert!(!same_line("=== D6/2/0.000", "=== D6/3/0.000"));
    assert!(!same_line("=== D6/2/0.000", "=== C4/2/0.000"));
    let expected: Vec<String> = ["a", "...", "z"].iter().map(|s| s.to_string()).collect();
    assert!(matches(&expected, &["a", "b", "c", "z"]));
    assert!(matches(&expected, &["a", "z"]));
    assert!(!matches(&expected, &["a", "b"]));
}
