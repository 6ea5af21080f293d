//! The `volte` binary as users run it: real output, one-line errors and non-zero exits.

mod common;

use common::Scratch;
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
    let o = volte(&["show", "start", "--variant", "reversi1889"]);
    let out = stdout(&o);
    assert!(out.contains("X (black) 0  O (white) 0  empty 64"), "{out}");
    assert!(out.contains("legal moves: d4 e4 d5 e5"), "{out}");
    assert!(out.contains("Discs in hand: X 32  O 32"), "{out}");
    let o = volte(&["show", "d4e5", "--variant", "reversi1889"]);
    assert!(
        stdout(&o).contains("Discs in hand: X 31  O 31"),
        "{}",
        stdout(&o)
    );
    let o = volte(&["show", "--ggf", "f5d6"]);
    assert!(stdout(&o).contains("B[F5]W[D6];)"), "{}", stdout(&o));
}

#[test]
fn show_reads_files_and_reports_results() {
    let dir = Scratch::new("cli-show");
    let file = dir.write(
        "wipeout.ggf",
        "(;GM[Othello]TY[8]BO[8 XO-------------------------------------------------------------- *]B[C1];)",
    );
    let o = volte(&["show", file.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("Game over: black wins by 64"),
        "{}",
        stdout(&o)
    );
}

/// A GGF file saved by NBoard in a comma-decimal locale is read whole, by `show` and by
/// `analyze`.
#[test]
fn ggf_files_from_comma_decimal_locales_are_read() {
    let dir = Scratch::new("cli-locale");
    let file = dir.write(
        "nboard-de.ggf",
        "(;GM[Othello]PC[NBoard]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5/-2,00/0,001]W[D6/0,50/1,250]B[C3/-1,00/2,5];)\n",
    );
    let o = volte(&["show", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Moves: f5d6c3"), "{}", stdout(&o));
    let o = volte(&["analyze", file.to_str().unwrap(), "--level", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 plies"), "{}", stdout(&o));
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

const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";
const FFO2: &str = "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;";

#[test]
fn solve_prints_a_table_and_checks_the_file() {
    let dir = Scratch::new("cli-solve");
    let file = dir.write("two.obf", &format!("{FFO1}\n{FFO2}\n"));
    let o = volte(&["solve", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.lines().next().unwrap().contains("empties"), "{out}");
    let row1 = out.lines().nth(1).unwrap();
    assert!(
        row1.contains("G8") && row1.contains("+18     +18 "),
        "{row1}"
    );
    let row2 = out.lines().nth(2).unwrap();
    assert!(row2.starts_with("   2") && row2.contains("A4"), "{row2}");
    assert!(out.contains("total: 2 solved"), "{out}");

    // A wrong expected score is marked, and the exit status says so.
    let wrong = dir.write("wrong.obf", &FFO1.replace("G8:+18", "G8:+20"));
    let o = volte(&["solve", wrong.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stdout(&o).contains("+20!"), "{}", stdout(&o));

    let o = volte(&[
        "solve",
        "--wld",
        "--all-moves",
        "--first",
        "7",
        file.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("   7 ") && out.contains("win"), "{out}");
    assert!(out.contains("G8:win") && out.contains("B1:loss"), "{out}");
}

#[test]
fn solve_counts_nodes_as_edax_does_when_asked() {
    let dir = Scratch::new("cli-solve-edax");
    let file = dir.write("two.obf", &format!("{FFO1}\n{FFO2}\n"));
    let total = |out: &str| -> Vec<u64> {
        let line = out.lines().find(|l| l.starts_with("total:")).unwrap();
        line.split(|c: char| !c.is_ascii_digit())
            .filter(|w| w.len() > 3)
            .map(|w| w.parse().unwrap())
            .collect()
    };
    let plain = volte(&["solve", file.to_str().unwrap()]);
    let plain_out = stdout(&plain);
    assert!(plain.status.success(), "{plain_out}");
    let volte_count = total(&plain_out)[0];
    let o = volte(&["solve", "--edax-nodes", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.lines().next().unwrap().contains("nodes (Edax)"),
        "{out}"
    );
    assert!(out.contains(" nodes as Edax counts ("), "{out}");
    // The Edax count, then volte's own, which is the plain run's.
    let counts = total(&out);
    assert_eq!(counts[1], volte_count, "{out}");
    assert!(counts[0] > volte_count, "{out}");
}

#[test]
fn solve_reports_progress_on_stderr_without_a_terminal() {
    // FFO 40 (20 empties): long enough for a few reports every 20 ms.
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let o = volte(&["solve", ffo40, "--progress-secs", "0.02"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let line = err.lines().next().unwrap_or_default();
    assert!(
        line.starts_with("#1: 20 empties, ") && line.contains(" nodes so far, "),
        "{err}"
    );
    assert!(stdout(&o).contains("+38"), "{}", stdout(&o));
    // Never, with 0.
    let o = volte(&["solve", ffo40, "--progress-secs", "0"]);
    assert!(
        o.status.success() && stderr(&o).is_empty(),
        "{}",
        stderr(&o)
    );
}

#[test]
fn solve_keeps_going_after_bad_lines() {
    // d4 emptied: no Othello game can reach that.
    let impossible = format!("{}-{}", &FFO1[..27], &FFO1[28..]);
    let text = format!(
        "{FFO1}\nthis is not a position\n{}\n{impossible}\n{FFO2}\n",
        &FFO1[..40]
    );
    let dir = Scratch::new("cli-bad-lines");
    let file = dir.write("bad.obf", &text);
    let o = volte(&["solve", file.to_str().unwrap()]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(out.contains("error: transcript line 2"), "{out}");
    assert!(out.contains("error: OBF line 3, column 41"), "{out}");
    assert!(out.contains("error: line 4: impossible board"), "{out}");
    assert!(
        out.contains("total: 2 solved") && out.contains("3 unreadable"),
        "{out}"
    );
    assert!(out.contains("A4") && out.contains("G8"), "{out}");

    let o = volte(&["solve", "no/such/file.obf"]);
    assert!(!o.status.success());
    assert_eq!(stderr(&o).trim(), "error: no/such/file.obf: no such file");
    let o = volte(&["solve", "missing.obf"]);
    assert_eq!(stderr(&o).trim(), "error: missing.obf: no such file");
}

#[test]
fn solve_takes_positions_transcripts_and_variants() {
    let cells = &FFO1[..66];
    let o = volte(&["solve", "--position", cells]);
    assert!(stdout(&o).contains("+18"), "{}", stdout(&o));
    let o = volte(&["solve", cells, "--variant", "anti", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = volte(&["solve", "-v", "reversi1889", cells]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A transcript as long as a board (42 moves) is still a transcript.
    let t = "f5f6e6f4e3c5c4e7c6e2g5g4f3d6d3h5d7f2e1c8f8e8f7c7g6h6h3g3d8g8f1b6b5a5a4a3h2b4a7a6c3b3";
    let o = volte(&["solve", "--all-moves", t]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("     18 "), "{}", stdout(&o));
}

#[test]
fn solve_cuts_games_at_a_number_of_empties() {
    use volte::formats::{transcript, wthor};
    use volte::rules::Variant;
    // 42 moves without a pass: 20 empties after the 40th, black to move, +6 (and 36 black
    // discs with perfect play from there).
    let t = "f5f6e6f4e3c5c4e7c6e2g5g4f3d6d3h5d7f2e1c8f8e8f7c7g6h6h3g3d8g8f1b6b5a5a4a3h2b4a7a6c3b3";
    let dir = Scratch::new("cli-solve-empties");
    let file = dir.write("games.txt", &format!("{t}\nf5d6c3\n"));
    let o = volte(&["solve", file.to_str().unwrap(), "--empties", "20"]);
    let out = stdout(&o);
    assert!(!o.status.success(), "{out}");
    let row1 = out.lines().nth(1).unwrap();
    assert!(row1.contains("     20    C3     +6       - "), "{row1}");
    assert!(
        out.contains(
            "   2 error: transcript line 2, column 1: the game never has 20 empty squares"
        ),
        "{out}"
    );
    assert!(
        out.contains("total: 1 solved") && out.contains("1 unreadable"),
        "{out}"
    );
    let o = volte(&[
        "solve",
        file.to_str().unwrap(),
        "--empties",
        "20",
        "--count",
        "1",
    ]);
    assert!(o.status.success(), "{}", stdout(&o));
    let o = volte(&["solve", file.to_str().unwrap(), "--empties", "61"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("61"), "{}", stderr(&o));

    // A WTHOR file: its theoretical scores are the expected ones at their depth.
    let moves: Vec<_> = transcript::parse(t, Variant::Othello)
        .unwrap()
        .moves()
        .iter()
        .filter_map(|r| r.mv.square())
        .collect();
    let game = |theoretical: u8, moves: &[volte::square::Square]| wthor::WthorGame {
        tournament: 0,
        black: 0,
        white: 0,
        black_discs: 40,
        theoretical_black_discs: theoretical,
        moves: moves.to_vec(),
    };
    let file = wthor::WthorFile {
        header: wthor::WthorHeader {
            created: (2026, 12, 1),
            n_games: 3,
            games_year: 2026,
            theoretical_depth: 20,
        },
        games: vec![game(35, &moves), game(36, &moves), game(32, &moves[..10])],
    };
    let path = dir.join("games.wtb");
    std::fs::write(&path, wthor::write_wtb(&file)).unwrap();
    let o = volte(&["solve", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(!o.status.success(), "{out}");
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[1].contains("     20    C3     +6      +6  "), "{out}");
    assert!(rows[2].contains("     +6      +8! "), "{out}");
    assert!(
        rows[3].contains("error: WTHOR game 3, moves: the game never has 20 empty squares"),
        "{out}"
    );
    // Another depth has no expected score.
    let o = volte(&[
        "solve",
        path.to_str().unwrap(),
        "--empties",
        "18",
        "--count",
        "2",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("     18 ") && !out.contains('!'), "{out}");
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_volte"))
        .args(["perft", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("perft othello"), "{first}");
    // The reader is gone now; the rest of the output has nowhere to go.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

/// The `Nodes searched:` figure of a bench run.
fn bench_nodes(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in {out}"))
}

#[test]
fn bench_prints_the_same_signature_twice() {
    let first = volte(&["bench", "5"]);
    assert!(first.status.success(), "{}", stderr(&first));
    let out = stdout(&first);
    assert_eq!(
        out.lines()
            .filter(|l| l.trim_start().starts_with(char::is_numeric))
            .count(),
        10,
        "{out}"
    );
    assert!(out.contains("Nodes/second: "), "{out}");
    let second = volte(&["bench", "5"]);
    assert_eq!(bench_nodes(&out), bench_nodes(&stdout(&second)));
    assert!(bench_nodes(&out) > 10_000);
}

/// `bench --move-time` thinks a fixed time on each position and reports the depth reached.
#[test]
fn bench_reports_the_depth_reached_in_a_time() {
    let o = volte(&["bench", "--move-time", "0.1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric))
        .collect();
    assert_eq!(rows.len(), 10, "{out}");
    // Each row names the search it reached: a midgame depth at the default 73%, or a solve.
    for r in &rows {
        let search = r.split_whitespace().last().unwrap();
        assert!(
            search.ends_with("@73%") || search == "exact" || search == "w/l/d",
            "{r}"
        );
    }
    let depth: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("Depth reached: mean "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {out}"));
    assert!(depth >= 4.0, "{out}");
    let bad = volte(&["bench", "--move-time", "0"]);
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("not a number of seconds above 0"));
}

#[test]
fn analyze_scores_every_move_and_writes_ggf() {
    let dir = Scratch::new("cli-analyze");
    let ggf = dir.join("analysis.ggf");
    let o = volte(&[
        "analyze",
        "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1",
        "--depth",
        "3",
        "--ggf",
        ggf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // One row per ply, then one summary line per colour.
    for ply in 1..=18 {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{ply} "))),
            "{out}"
        );
    }
    assert!(
        out.contains("black: 9 moves") && out.contains("white: 9 moves"),
        "{out}"
    );
    let written = std::fs::read_to_string(&ggf).unwrap();
    assert!(written.starts_with("(;GM[Othello]"), "{written}");
    // Every move carries an evaluation.
    assert_eq!(
        written.matches("B[").count() + written.matches("W[").count(),
        18,
        "{written}"
    );
    assert!(
        written.contains("B[F5/") && written.contains("W[B1/"),
        "{written}"
    );
    // A game that is not legal is refused with the reason.
    let bad = volte(&["analyze", "f5f5"]);
    assert!(!bad.status.success());
    assert_eq!(stderr(&bad).lines().count(), 1, "{}", stderr(&bad));
}

#[test]
fn match_between_builtin_engines_adds_up() {
    let o = volte(&[
        "match",
        "--engine",
        "name=two,depth=2",
        "--engine",
        "name=one,depth=1",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--sprt",
        "0,5,0.05,0.05",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // "two: +W =D -L of 8 games, ..."
    let line = out
        .lines()
        .find(|l| l.starts_with("two: +"))
        .expect("result line");
    let nums: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(4)
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums[0] + nums[1] + nums[2], 8, "{line}");
    assert_eq!(nums[3], 8, "{line}");
    assert!(out.contains("Elo difference:"), "{out}");
    // Eight games cannot decide a 5-Elo test.
    assert!(
        out.contains("SPRT(0,5): LLR") && out.contains("undecided"),
        "{out}"
    );
    // The last progress line (stderr is not a terminal here) has the score, the test and
    // both engines' mean time a move so far.
    let err = stderr(&o);
    let last = err
        .lines()
        .find(|l| l.starts_with("8/8 games: +"))
        .unwrap_or_else(|| panic!("no final progress line in {err}"));
    assert!(
        last.contains(", LLR ") && last.contains(", ms a move "),
        "{last}"
    );
    let bad = volte(&["match", "--engine", "depth=2", "--engine", "colour=red"]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("unknown key 'colour'"),
        "{}",
        stderr(&bad)
    );
    let one = volte(&["match", "--engine", "depth=2"]);
    assert!(
        stderr(&one).contains("exactly two --engine"),
        "{}",
        stderr(&one)
    );
    let unlimited = volte(&["match", "--engine", "name=a", "--engine", "depth=1"]);
    assert!(
        stderr(&unlimited).contains("would not know when to move"),
        "{}",
        stderr(&unlimited)
    );
}

#[test]
fn selfplay_then_train_then_play_with_the_weights() {
    let dir = Scratch::new("cli-train");
    let games = dir.join("anti.ggf");
    let games_s = games.to_str().unwrap();
    let selfplay = |count: &str| {
        volte(&[
            "selfplay",
            "--variant",
            "anti",
            "--games",
            count,
            "--level",
            "2",
            "--solve-empties",
            "8",
            "-o",
            games_s,
            "-t",
            "1",
        ])
    };
    let o = selfplay("30");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("30 games (0 already there, 30 played)"),
        "{}",
        stdout(&o)
    );
    // A rerun asking for more resumes: the first 30 games are kept as they were.
    let before = std::fs::read_to_string(&games).unwrap();
    let o = selfplay("40");
    assert!(
        stdout(&o).contains("40 games (30 already there, 10 played)"),
        "{}",
        stdout(&o)
    );
    let after = std::fs::read_to_string(&games).unwrap();
    assert!(after.starts_with(&before));
    assert_eq!(after.lines().count(), 40);

    let weights = dir.join("anti.vw");
    let weights_s = weights.to_str().unwrap();
    let cache = dir.join("cache");
    let train = || {
        volte(&[
            "train",
            games_s,
            "--variant",
            "anti",
            "--relabel-empties",
            "8",
            "--iterations",
            "5",
            "--test-every",
            "4",
            "-o",
            weights_s,
            "--cache",
            cache.to_str().unwrap(),
        ])
    };
    let o = train();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("MAE train") && out.contains("wrote"), "{out}");
    // A second run reads the solver labels and the fitted stages from the cache.
    let o = train();
    assert!(stdout(&o).contains("(cached)"), "{}", stdout(&o));
    // The weights drive a search, and a bad file is a one-line error.
    let o = volte(&[
        "play",
        "--variant",
        "anti",
        "--color",
        "none",
        "--level",
        "2",
        "--eval-file",
        weights_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The solver's weights alone: of the game's variant, or refused in one line.
    let solver_games = dir.join("solver.ggf");
    let selfplay_with_solver = |variant: &str| {
        volte(&[
            "selfplay",
            "--variant",
            variant,
            "--games",
            "2",
            "--level",
            "2",
            "--solve-empties",
            "8",
            "--solver-eval-file",
            weights_s,
            "-o",
            solver_games.to_str().unwrap(),
            "-t",
            "1",
        ])
    };
    let o = selfplay_with_solver("anti");
    assert!(o.status.success(), "{}", stderr(&o));
    let o = selfplay_with_solver("othello");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("holds weights for anti, not othello"),
        "{}",
        stderr(&o)
    );
    let bad = dir.join("bad.vw");
    std::fs::write(&bad, "VOLTEVAL but then nothing useful").unwrap();
    let o = volte(&["bench", "3", "--eval-file", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("not a usable weight file") && err.lines().count() <= 2,
        "{err}"
    );
    // One --extra-max-empties for all the --extra files or one for each, nothing between.
    let o = volte(&[
        "train",
        games_s,
        "--extra",
        games_s,
        "--extra",
        games_s,
        "--extra-max-empties",
        "10",
        "--extra-max-empties",
        "20",
        "--extra-max-empties",
        "30",
        "-o",
        weights_s,
    ]);
    assert!(
        !o.status.success() && stderr(&o).contains("given 3 times for 2 --extra files"),
        "{}",
        stderr(&o)
    );
    let o = volte(&["train", "/no/such/folder", "-o", weights_s]);
    assert!(
        !o.status.success() && stderr(&o).contains("does not exist"),
        "{}",
        stderr(&o)
    );
    // The network's shape is refused for linear tables, before any game is read.
    let o = volte(&["train", games_s, "--features", "extended", "-o", weights_s]);
    assert!(
        !o.status.success() && stderr(&o).contains("give them with --model network"),
        "{}",
        stderr(&o)
    );
}

/// `volte selfplay --depth D`: the midgame moves are searched D plies deep up to
/// --solve-empties (a level would solve from its own empties on): other games than the
/// level's, each move after the random plies scored; the file records the depth, a rerun
/// resumes it, a level's rerun of it is refused, and both options at once are a usage error.
#[test]
fn selfplay_at_a_depth() {
    let dir = Scratch::new("cli-selfplay-depth");
    let path = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let run = |strength: &[&str], out: &str| {
        let mut args = vec![
            "selfplay",
            "--games",
            "4",
            "--random-plies",
            "10",
            "--solve-empties",
            "6",
            "--seed",
            "5",
            "--threads",
            "1",
            "--output",
            out,
        ];
        args.extend_from_slice(strength);
        volte(&args)
    };
    let (deep, level) = (path("depth.ggf"), path("level.ggf"));
    let o = run(&["--depth", "6"], &deep);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(run(&["--level", "6"], &level).status.success());
    let run_file = std::fs::read_to_string(format!("{deep}.run")).unwrap();
    assert!(run_file.contains("--depth 6 "), "{run_file}");
    let games = std::fs::read_to_string(&deep).unwrap();
    assert_eq!(games.lines().count(), 4);
    assert_ne!(games, std::fs::read_to_string(&level).unwrap());
    for line in games.lines() {
        // 10 random plies without a score, then every move scored ("F5/12.00").
        let moves: Vec<&str> = line
            .split(']')
            .filter_map(|t| t.rsplit_once('['))
            .filter(|(tag, _)| *tag == "B" || *tag == "W")
            .map(|(_, v)| v)
            .collect();
        assert!(moves.len() > 40, "{line}");
        assert!(moves[..10].iter().all(|m| !m.contains('/')), "{line}");
        assert!(
            moves[10..]
                .iter()
                .all(|m| m.contains('/') || m.eq_ignore_ascii_case("pa")),
            "{line}"
        );
    }
    let o = run(&["--depth", "6"], &deep);
    assert!(
        stdout(&o).contains("4 games (4 already there, 0 played)"),
        "{}",
        stdout(&o)
    );
    let o = run(&["--level", "6"], &deep);
    assert!(stderr(&o).contains("not appended to"), "{}", stderr(&o));
    let o = run(&["--level", "6", "--depth", "6"], &path("both.ggf"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `volte selfplay --shard K/N`: the shards' GGF files concatenated in order are the file of
/// one run, byte for byte; a run cut short resumes to the same bytes (a torn last game cut
/// off); a file written with other options is refused untouched; bad shards are one line.
#[test]
fn selfplay_shards_concatenate_to_one_run_and_resume() {
    let dir = Scratch::new("cli-selfplay-shards");
    let path = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let common = [
        "selfplay",
        "--games",
        "9",
        "--level",
        "2",
        "--random-plies",
        "8-14",
        "--solve-empties",
        "8",
        "--threads",
        "1",
    ];
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = common.to_vec();
        args.extend_from_slice(extra);
        volte(&args)
    };
    let whole = path("whole.ggf");
    assert!(run(&["--output", &whole]).status.success());
    let mut joined = Vec::new();
    for k in 1..=4 {
        let out = path(&format!("s{k}.ggf"));
        let o = run(&["--shard", &format!("{k}/4"), "--output", &out]);
        assert!(o.status.success(), "{}", stderr(&o));
        joined.extend(std::fs::read(&out).unwrap());
    }
    let one = std::fs::read(&whole).unwrap();
    assert_eq!(joined, one);
    assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), 9);

    // Killed mid-game: the torn game is cut off and the run ends with the same file.
    let torn = path("torn.ggf");
    std::fs::write(&torn, &one[..one.len() * 2 / 3]).unwrap();
    std::fs::copy(format!("{whole}.run"), format!("{torn}.run")).unwrap();
    let o = run(&["--output", &torn]);
    assert!(stderr(&o).contains("cut off"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&torn).unwrap(), one);

    // The compact format: the same games, resumed the same way.
    let packed = path("whole.vgames");
    assert!(run(&["--output", &packed]).status.success());
    let bytes = std::fs::read(&packed).unwrap();
    assert!(bytes.len() * 5 < one.len(), "{} bytes", bytes.len());
    let cut = path("cut.vgames");
    let first = {
        let mut args: Vec<&str> = common.to_vec();
        args[2] = "4";
        args.extend_from_slice(&["--output", &cut]);
        volte(&args)
    };
    assert!(first.status.success());
    let mut torn_bytes = std::fs::read(&cut).unwrap();
    torn_bytes.extend_from_slice(&[9, 0, 0, 0, 200, 0]);
    std::fs::write(&cut, &torn_bytes).unwrap();
    let o = run(&["--output", &cut]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("9 games (4 already there, 5 played)"),
        "{}",
        stdout(&o)
    );

    // Other options: refused, the file untouched.
    let before = std::fs::read(&whole).unwrap();
    let o = volte(&[
        "selfplay", "--games", "12", "--level", "3", "--output", &whole,
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not appended to"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&whole).unwrap(), before);
    let o = volte(&[
        "selfplay", "--games", "12", "--level", "3", "--output", &packed,
    ]);
    assert!(stderr(&o).contains("not appended to"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&packed).unwrap(), bytes);
    for bad in ["0/4", "5/4", "1/0", "x/y"] {
        let o = run(&["--shard", bad, "--output", &path("bad.ggf")]);
        assert!(!o.status.success());
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains("--shard") && e.contains(bad), "{e}");
        assert_eq!(o.status.code(), Some(2));
    }
}

/// `volte bench --accuracy`: a search that reaches the end of the problem plays its best
/// move with the exact score; against a file that scores the move worse, the loss and the
/// error show; a file without scores is refused in one line.
#[test]
fn bench_accuracy_reports_against_exact_scores() {
    let dir = Scratch::new("cli-accuracy");
    let cells = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let file = dir.write(
        "ffo1.obf",
        &format!(
            "% FFO #1 (14 empties)\n{cells}; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n{cells}; H1:+18; G8:+12;\n"
        ),
    );
    let o = volte(&[
        "bench",
        "--accuracy",
        file.to_str().unwrap(),
        "--depth",
        "20",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("best move: 50.0% (1 of 2)"), "{out}");
    assert!(
        out.contains("mean loss of the moves played: 3.00 discs"),
        "{out}"
    );
    assert!(
        out.contains("score error: mean 0.00 discs, within 3 discs 100.0%"),
        "{out}"
    );
    let bare = dir.write("bare.obf", &format!("{cells}\n"));
    let o = volte(&["bench", "--accuracy", bare.to_str().unwrap()]);
    assert!(!o.status.success());
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

/// `volte solve --output`: deterministic OBF lines (no times or nodes); shards concatenate to
/// one run's file; a killed run resumes to the same bytes; other arguments are refused.
#[test]
fn solve_output_shards_and_resumes() {
    let dir = Scratch::new("cli-solve-output");
    let path = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let games = path("games.ggf");
    let o = volte(&[
        "selfplay",
        "--games",
        "7",
        "--level",
        "2",
        "--random-plies",
        "10-20",
        "--solve-empties",
        "8",
        "--threads",
        "1",
        "--output",
        &games,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", games.as_str(), "--empties", "13", "--all-moves"];
        args.extend_from_slice(extra);
        volte(&args)
    };
    let one = path("one.obf");
    assert!(solve(&["--output", &one]).status.success());
    let bytes = std::fs::read_to_string(&one).unwrap();
    assert_eq!(bytes.lines().count(), 7);
    for line in bytes.lines() {
        let p = volte::formats::obf::parse_line(line, 1).unwrap();
        assert!(!p.scores.is_empty(), "{line}");
    }
    assert!(
        std::fs::read_to_string(format!("{one}.run"))
            .unwrap()
            .contains("complete 7")
    );
    let mut joined = String::new();
    for k in 1..=3 {
        let out = path(&format!("s{k}.obf"));
        assert!(
            solve(&["--shard", &format!("{k}/3"), "--output", &out])
                .status
                .success()
        );
        joined.push_str(&std::fs::read_to_string(&out).unwrap());
    }
    assert_eq!(joined, bytes);
    // Killed in the middle of a line.
    let torn = path("torn.obf");
    std::fs::write(&torn, &bytes[..bytes.len() / 2]).unwrap();
    let run = std::fs::read_to_string(format!("{one}.run")).unwrap();
    std::fs::write(format!("{torn}.run"), run.lines().next().unwrap()).unwrap();
    let o = solve(&["--output", &torn]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("already solved"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&torn).unwrap(), bytes);
    // Other arguments: refused, nothing written.
    let o = volte(&["solve", &games, "--empties", "12", "--output", &one]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not appended to"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&one).unwrap(), bytes);
    for bad in ["0/4", "5/4", "1/0", "x/y"] {
        let o = solve(&["--shard", bad]);
        assert!(!o.status.success());
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
        assert!(stderr(&o).contains("--shard"));
    }
}

/// `volte book build --shard K/N` on copies of one book, then `volte book merge`: the book
/// one machine builds, byte for byte; missing, repeated or unfinished shards are refused.
#[test]
fn book_shards_merge_to_one_machines_book() {
    let dir = Scratch::new("cli-book-shards");
    let path = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let lines = dir.write(
        "lines.txt",
        "f5d6c3d3c4f4\nf5f6e6f4e3c5\nf5d6c5f4e3f6\nf5f4e3f6d3c5\n",
    );
    let lines = lines.to_str().unwrap();
    let search = ["--depth", "5", "--solve-from", "10", "--threads", "1"];
    let run = |args: &[&str]| {
        let mut all: Vec<&str> = vec!["book"];
        all.extend_from_slice(args);
        all.extend_from_slice(&search);
        let o = volte(&all);
        assert!(o.status.success(), "{all:?}: {}", stderr(&o));
        o
    };
    run(&["learn", &path("one.vbk"), lines, "--plies", "6"]);
    run(&[
        "learn",
        &path("base.vbk"),
        lines,
        "--plies",
        "6",
        "--no-search",
    ]);
    for k in 1..=3 {
        let shard = path(&format!("s{k}.vbk"));
        std::fs::copy(path("base.vbk"), &shard).unwrap();
        run(&["build", &shard, "--shard", &format!("{k}/3")]);
    }
    let o = volte(&[
        "book",
        "merge",
        &path("merged.vbk"),
        &path("s1.vbk"),
        &path("s2.vbk"),
        &path("s3.vbk"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(path("merged.vbk")).unwrap(),
        std::fs::read(path("one.vbk")).unwrap()
    );
    for (shards, why) in [
        (vec!["s1.vbk", "s2.vbk"], "shard 3/3 is missing"),
        (
            vec!["s1.vbk", "s2.vbk", "s2.vbk", "s3.vbk"],
            "shard 2/3 is given more than once",
        ),
        (vec!["s1.vbk", "one.vbk"], "not a shard's book"),
    ] {
        let mut args = vec!["book".to_string(), "merge".into(), path("bad.vbk")];
        args.extend(shards.iter().map(|s| path(s)));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = volte(&args);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
        assert!(!dir.join("bad.vbk").exists());
    }
    // A shard still running (no `complete` mark) is refused by name.
    let run_file = path("s3.vbk.run");
    let first = std::fs::read_to_string(&run_file)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    std::fs::write(&run_file, first + "\n").unwrap();
    let o = volte(&[
        "book",
        "merge",
        &path("bad.vbk"),
        &path("s1.vbk"),
        &path("s2.vbk"),
        &path("s3.vbk"),
    ]);
    assert!(
        stderr(&o).contains("shard 3/3") && stderr(&o).contains("not finished"),
        "{}",
        stderr(&o)
    );
}

/// `volte analyze FILE --output`: every game scored, as GGF; shards concatenate to one run's
/// file; a killed run resumes to the same bytes.
#[test]
fn analyze_batches_shard_and_resume() {
    let dir = Scratch::new("cli-analyze-batch");
    let path = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let games = dir.write(
        "games.txt",
        "f5d6c3d3c4f4f6f3e6e7\nf5f6e6f4e3c5c4e7\nnot a game\nf5d6c5f4e3f6d3f3\n",
    );
    let games = games.to_str().unwrap();
    let analyze = |extra: &[&str]| {
        let mut args = vec!["analyze", games, "--depth", "4"];
        args.extend_from_slice(extra);
        volte(&args)
    };
    let one = path("one.ggf");
    let o = analyze(&["--output", &one]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&one).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[2].starts_with("% game 3 error"), "{}", lines[2]);
    let g = volte::formats::ggf::parse_game(lines[0]).unwrap();
    assert_eq!(g.moves().len(), 10);
    assert!(g.moves().iter().all(|m| m.eval.is_some()));
    let mut joined = String::new();
    for k in 1..=3 {
        let out = path(&format!("s{k}.ggf"));
        assert!(
            analyze(&["--output", &out, "--shard", &format!("{k}/3")])
                .status
                .success()
        );
        joined.push_str(&std::fs::read_to_string(&out).unwrap());
    }
    assert_eq!(joined, text);
    let torn = path("torn.ggf");
    std::fs::write(&torn, &text[..lines[0].len() + 20]).unwrap();
    let run = std::fs::read_to_string(format!("{one}.run")).unwrap();
    std::fs::write(format!("{torn}.run"), run.lines().next().unwrap()).unwrap();
    assert!(analyze(&["--output", &torn]).status.success());
    assert_eq!(std::fs::read_to_string(&torn).unwrap(), text);
    let o = volte(&["analyze", games, "--depth", "5", "--output", &one]);
    assert!(stderr(&o).contains("not appended to"), "{}", stderr(&o));
}

/// A folder in `dir` with one year of WTHOR games: enough positions for a calibration,
/// and quick to read.
fn one_wthor_year(dir: &Scratch) -> std::path::PathBuf {
    let wthor = dir.join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    std::fs::copy(
        common::data_dir().join("wthor/WTH_2000.wtb"),
        wthor.join("WTH_2000.wtb"),
    )
    .unwrap();
    wthor
}

#[test]
fn calibrate_mpc_resumes_from_its_samples_file() {
    let dir = Scratch::new("calibrate-samples");
    let wthor = one_wthor_year(&dir);
    let wthor = wthor.to_str().unwrap();
    let samples = dir.join("samples.txt");
    let samples = samples.to_str().unwrap();
    let run = |depth: &str, seed: &str, table: &str| {
        let table = dir.join(table);
        let o = volte(&[
            "calibrate-mpc",
            "--wthor",
            wthor,
            "--positions",
            "16",
            "--depth",
            depth,
            "--seed",
            seed,
            "--samples",
            samples,
            "--output",
            table.to_str().unwrap(),
        ]);
        let text = std::fs::read_to_string(&table).unwrap_or_default();
        (o, text)
    };
    let (o, first) = run("4", "5", "first.rs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(first.contains("MPC_MAX_DEPTH: u32 = 4"), "{first}");
    let lines = std::fs::read_to_string(samples).unwrap();
    assert_eq!(lines.lines().count(), 17, "{lines}");
    assert!(
        lines.starts_with("# volte calibrate-mpc samples: seed 5,"),
        "{lines}"
    );
    // The same command again searches nothing and fits the same table.
    let (o, again) = run("4", "5", "again.rs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("16 samples; 0 positions to search"),
        "{}",
        stderr(&o)
    );
    assert_eq!(again, first);
    // Deeper: every position again, each appending a deeper line.
    let (o, deeper) = run("5", "5", "deeper.rs");
    assert!(
        stderr(&o).contains("16 samples; 16 positions to search"),
        "{}",
        stderr(&o)
    );
    assert!(deeper.contains("MPC_MAX_DEPTH: u32 = 5"), "{deeper}");
    assert_eq!(
        std::fs::read_to_string(samples).unwrap().lines().count(),
        33
    );
    // A line cut short by a killed run is dropped and searched again.
    let text = std::fs::read_to_string(samples).unwrap();
    std::fs::write(samples, &text[..text.len() - 3]).unwrap();
    let (o, resumed) = run("5", "5", "resumed.rs");
    assert!(
        stderr(&o).contains("16 samples; 1 positions to search"),
        "{}",
        stderr(&o)
    );
    assert_eq!(resumed, deeper);
    assert_eq!(std::fs::read_to_string(samples).unwrap(), text);
    // Another draw of positions is refused, and the file is left as it was.
    let (o, _) = run("4", "6", "other.rs");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("another calibration"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(samples).unwrap().lines().count(),
        33
    );
}

#[test]
fn calibrate_mpc_parity_output_moves_the_evaluations_outputs() {
    let dir = Scratch::new("calibrate-parity");
    let wthor = one_wthor_year(&dir);
    let wthor = wthor.to_str().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let network = root.join("weights/othello-network.vw");
    let linear = root.join("weights/othello.vw");
    let anti = root.join("weights/anti.vw");
    let out = dir.join("shifted.vw");
    let run = |eval: Option<&std::path::Path>, variant: &str, parity: bool| {
        let mut args = vec![
            "calibrate-mpc",
            "--wthor",
            wthor,
            "--positions",
            "60",
            "--depth",
            "6",
            "--min-empties",
            "30",
            "--max-empties",
            "32",
            "--variant",
            variant,
        ];
        if parity {
            args.extend(["--parity-output", out.to_str().unwrap()]);
        }
        if let Some(eval) = eval {
            args.extend(["--eval-file", eval.to_str().unwrap()]);
        }
        volte(&args)
    };
    // Depths 1-5 of 30-32 empties: leaves at 25-31 empties, the phases 25-28 and 29-32;
    // a network, Othello's linear tables, Anti's linear tables.
    for (weights, variant) in [(&network, "othello"), (&linear, "othello"), (&anti, "anti")] {
        let o = run(Some(weights), variant, true);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        for phase in ["    6  25-28", "    7  29-32"] {
            let line = text.lines().find(|l| l.starts_with(phase)).unwrap();
            assert!(!line.contains("unchanged"), "{text}");
        }
        assert!(text.contains("(too few leaves: unchanged)"), "{text}");
        assert!(text.contains("wrote "), "{text}");
        let shifted = std::fs::read(&out).unwrap();
        assert_ne!(shifted, std::fs::read(weights).unwrap());
        // The new file is weights volte plays with, in their variant.
        let position = if variant == "anti" { "anti" } else { "othello" };
        let o = volte(&[
            "analyze",
            "f5d6c3d3c4",
            "--variant",
            position,
            "--depth",
            "4",
            "--eval-file",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::remove_file(&out).unwrap();
    }
    // Refused before any search, and nothing written: no weights, another variant's
    // weights, Reversi 1889, and Anti's table (the tables are Othello's).
    for (eval, variant, parity, why) in [
        (None, "othello", true, "needs --eval-file"),
        (Some(anti.as_path()), "othello", true, "holds anti weights"),
        (
            Some(linear.as_path()),
            "anti",
            true,
            "holds othello weights",
        ),
        (
            Some(linear.as_path()),
            "reversi1889",
            true,
            "not Reversi 1889 positions",
        ),
        (
            Some(anti.as_path()),
            "anti",
            false,
            "fits only --parity-output",
        ),
    ] {
        let o = run(eval, variant, parity);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(why), "{why}: {}", stderr(&o));
        assert!(!out.exists());
    }
}
