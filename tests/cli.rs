//! The `volte` binary as users run it: real output, one-line errors and non-zero exits.

use std::process::{Command, Output};

fn volte(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_volte"))
        .args(args)
        .output()
        .expect("the volte binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_every_depth() {
    let o = volte(&["perft", "6"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for n in [
        "4 leaves",
        "12 leaves",
        "56 leaves",
        "244 leaves",
        "1396 leaves",
        "8200 leaves",
    ] {
        assert!(out.contains(n), "{out}");
    }
    let o = volte(&["perft", "4", "--only", "--divide", "-t", "2"]);
    let out = stdout(&o);
    assert!(
        out.contains("depth  4:") && !out.contains("depth  3:"),
        "{out}"
    );
    assert!(out.contains("  f5   61"), "{out}");
}

#[test]
fn perft_from_a_position_and_variant() {
    let o = volte(&["perft", "4", "--variant", "reversi1889", "--only"]);
    assert!(stdout(&o).contains("24 leaves"), "{}", stdout(&o));
    let cells = "---------------------------OX------XO--------------------------- X";
    let o = volte(&["perft", "2", "--position", cells, "--only"]);
    assert!(stdout(&o).contains(" 12 leaves"), "{}", stdout(&o));
    let o = volte(&["perft", "1", "-p", "f5d6c3", "--only"]);
    assert!(stdout(&o).contains("white to move") && stdout(&o).contains(" 4 leaves"));
}

#[test]
fn show_draws_the_board() {
    let o = volte(&["show", "f5d6c3d3c4f4f6f3e6e7"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.starts_with("  a b c d e f g h\n1 . . . . . . . .\n2 . . * * * * * .\n"),
        "{out}"
    );
    assert!(out.contains("black (X) to move; legal moves: c2 d2 e2 f2 g2 e3 g4 c6 d7 f7 d8"));
    let o = volte(&["show", "--ggf", "f5d6"]);
    assert!(stdout(&o).contains("B[F5]W[D6];)"), "{}", stdout(&o));
}

#[test]
fn show_reads_files_and_reports_results() {
    let dir = std::env::temp_dir().join(format!("volte-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wipeout.ggf");
    std::fs::write(
        &file,
        "(;GM[Othello]TY[8]BO[8 XO-------------------------------------------------------------- *]B[C1];)",
    )
    .unwrap();
    let o = volte(&["show", file.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("Game over: black wins by 64"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_nonzero() {
    for args in [
        &["show", "f5 d6 z9"][..],
        &["show", "f5 d6 d6"],
        &["show", "(;GM[Othello]B[A1];)"],
        &["show", "XXXXXXXX X"],
        &["show", ""],
        &["perft", "3", "-p", "f5f5"],
        &["perft", "3", "--variant", "chess"],
        &["perft", "0"],
        &["perft", "many"],
        &["frobnicate"],
    ] {
        let o = volte(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
    let err = stderr(&volte(&["show", "f5 d6 z9"]));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("column 7"), "{err}");
}
