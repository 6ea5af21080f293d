//! Matches with external engines: volte against itself over NBoard and GTP as separate
//! processes, and broken engines (illegal move, hang, crash, garbage) that must lose
//! every game with the right reason while the match finishes and leaves no process
//! behind.

mod common;

use common::Scratch;
use std::path::PathBuf;
use std::time::Duration;
use volte::jobs::arena::{self, EngineSpec, Forfeit, TimeControl};
use volte::rules::Variant;
use volte::square::Color;

/// The tests count this process's children: they must not run at the same time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn volte_bin() -> &'static str {
    env!("CARGO_BIN_EXE_volte")
}

/// Processes whose parent is this test process.
fn children() -> Vec<u32> {
    let me = std::process::id();
    let mut out = Vec::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                // pid (comm) state ppid ...
                let after = stat.rsplit(')').next().unwrap_or("");
                let fields: Vec<&str> = after.split_whitespace().collect();
                if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(me) {
                    out.push(pid);
                }
            }
        }
    }
    out
}

fn script(dir: &Scratch, name: &str, body: &str) -> PathBuf {
    let path = dir.write(name, &format!("#!/bin/bash\n{body}"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn tc() -> TimeControl {
    TimeControl {
        max_move: Duration::from_secs(2),
        ..TimeControl::default()
    }
}

fn spec(s: &str) -> EngineSpec {
    s.parse().unwrap()
}

/// Under `--move-time` a GTP engine that takes fractions of a second is told the time a
/// move exactly: volte spends a fixed time whole, so told the whole second above 0.05 s it
/// took twenty times the time of its opponent.
#[test]
fn a_gtp_engine_is_told_a_fraction_of_a_second() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let openings = arena::random_openings(Variant::Othello, 1, 20, 5);
    let gtp = spec(&format!(
        "name=vg,proto=gtp,cmd={} gtp --hash-mb 4",
        volte_bin()
    ));
    let builtin = spec("name=d1,depth=1");
    let tc = TimeControl {
        move_time: Some(Duration::from_millis(50)),
        ..tc()
    };
    let start = std::time::Instant::now();
    let games = arena::run_match(&gtp, &builtin, &openings, &tc, 1, None, &|_, _| {});
    let elapsed = start.elapsed();
    assert_eq!(games.len(), 2);
    assert!(
        games
            .iter()
            .all(|g| g.forfeit.is_none() && g.game.is_over())
    );
    // About 40 moves of volte's at 0.05 s; at a second each they would take 40 s.
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
}

#[test]
fn volte_against_itself_over_both_protocols() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let openings = arena::random_openings(Variant::Othello, 2, 8, 3);
    let nboard = spec(&format!(
        "name=vn,proto=nboard,cmd={} nboard --level 2 --hash-mb 4",
        volte_bin()
    ));
    let gtp = spec(&format!(
        "name=vg,proto=gtp,cmd={} gtp --level 2 --hash-mb 4",
        volte_bin()
    ));
    let games = arena::run_match(&nboard, &gtp, &openings, &tc(), 2, None, &|_, _| {});
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(g.forfeit.is_none(), "{:?}", g.forfeit);
        assert!(g.game.is_over());
        let first = if g.first_is_black {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(g.first_score, arena::score_for(&g.game, first));
    }
    let mut t = arena::Tally::default();
    for g in &games {
        t.add(g.first_score);
    }
    assert_eq!(t.games(), 4);
    // Anti and Reversi 1889 between volte processes.
    for (variant, plies) in [(Variant::Anti, 8), (Variant::Reversi1889, 8)] {
        let o = arena::random_openings(variant, 1, plies, 4);
        let flag = match variant {
            Variant::Anti => "anti",
            _ => "reversi1889",
        };
        let a = spec(&format!(
            "name=a,proto=gtp,cmd={} gtp -l 1 --hash-mb 1 -v {flag}",
            volte_bin()
        ));
        let b = spec(&format!(
            "name=b,proto=nboard,cmd={} nboard -l 1 --hash-mb 1",
            volte_bin()
        ));
        let games = arena::run_match(&a, &b, &o, &tc(), 1, None, &|_, _| {});
        assert!(
            games
                .iter()
                .all(|g| g.forfeit.is_none() && g.game.variant() == variant),
            "{variant}"
        );
    }
    assert!(children().is_empty(), "left behind: {:?}", children());
}

#[test]
fn broken_engines_lose_with_the_right_reason() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Scratch::new("arena");
    let illegal = script(
        &dir,
        "illegal.sh",
        r#"while read -r line; do
  case "$line" in
    genmove*) printf '= a1\n\n' ;;
    quit*) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done"#,
    );
    let hang = script(
        &dir,
        "hang.sh",
        r#"while read -r cmd arg rest; do
  case "$cmd" in
    ping) echo "pong $arg" ;;
    go) exec sleep 1000 ;;
  esac
done"#,
    );
    let crash = script(
        &dir,
        "crash.sh",
        r#"while read -r cmd arg rest; do
  case "$cmd" in
    ping) echo "pong $arg" ;;
    go) exit 3 ;;
  esac
done"#,
    );
    let garbage = script(
        &dir,
        "garbage.sh",
        r#"while read -r line; do
  case "$line" in
    genmove*) printf 'hello, world\n\n' ;;
    *) printf '=\n\n' ;;
  esac
done"#,
    );
    type Case<'a> = (&'a PathBuf, &'a str, fn(&Forfeit) -> bool);
    let cases: [Case; 4] = [
        (
            &illegal,
            "gtp",
            |f| matches!(f, Forfeit::Illegal(m) if m.starts_with("a1")),
        ),
        (&hang, "nboard", |f| *f == Forfeit::Timeout),
        (&crash, "nboard", |f| matches!(f, Forfeit::Crash(_))),
        (&garbage, "gtp", |f| matches!(f, Forfeit::Protocol(_))),
    ];
    let openings = arena::random_openings(Variant::Othello, 2, 6, 9);
    let good = spec("name=good,depth=1,hash=1");
    for (path, proto, expected) in cases {
        let broken = spec(&format!("name=broken,proto={proto},cmd={}", path.display()));
        let games = arena::run_match(&good, &broken, &openings, &tc(), 2, None, &|_, _| {});
        assert_eq!(games.len(), 4, "{}", path.display());
        for g in &games {
            let (loser, why) = g
                .forfeit
                .clone()
                .unwrap_or_else(|| panic!("{} did not forfeit", path.display()));
            let broken_color = if g.first_is_black {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(loser, broken_color);
            assert!(expected(&why), "{}: {why}", path.display());
            assert_eq!(g.first_score, 64);
        }
        assert!(
            children().is_empty(),
            "{} left {:?}",
            path.display(),
            children()
        );
    }
    // An engine that cannot be started loses too.
    let missing = spec("name=missing,proto=gtp,cmd=/nonexistent/engine");
    let games = arena::run_match(&good, &missing, &openings[..1], &tc(), 1, None, &|_, _| {});
    assert!(
        games
            .iter()
            .all(|g| matches!(g.forfeit, Some((_, Forfeit::Crash(_)))))
    );
}

/// Engines with threads of their own (a rayon pool each) play one game after another: a
/// match worker waiting on an engine's pool must not start the next game meanwhile, which
/// nested games, and their engines and tables, without bound (a 400-game match of
/// `threads=2` engines once ran out of memory).
#[test]
fn engines_with_threads_play_their_games_one_after_another() {
    let a = spec("name=a,threads=2,depth=3");
    let b = spec("name=b,threads=2,depth=2");
    let openings = arena::random_openings(Variant::Othello, 6, 4, 9);
    let finished = std::sync::Mutex::new(Vec::new());
    let games = arena::run_match(&a, &b, &openings, &tc(), 1, None, &|g, _| {
        finished.lock().unwrap().push((g.opening, g.first_is_black));
    });
    assert_eq!(games.len(), 12);
    let order = finished.into_inner().unwrap();
    let expected: Vec<(usize, bool)> = (0..6).flat_map(|i| [(i, true), (i, false)]).collect();
    assert_eq!(
        order, expected,
        "games ended out of order: they were nested"
    );
}
