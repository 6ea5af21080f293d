//! The NBoard and GTP loops driven by scripted clients that check every reply: whole games
//! in every variant, passes, illegal moves, `ping` during a long `hint`, `quit` during a
//! search, the real binary over pipes, and 100,000 fuzzed lines.

mod common;

use common::Lcg;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};
use volte::engine::{Engine, EngineOptions, SolveOptions};
use volte::formats::ggf;
use volte::game::Game;
use volte::protocol::{ProtocolOptions, gtp, nboard};
use volte::rules::{State, Variant};
use volte::square::{Color, Move};

/// The read end of a channel of bytes, as the loops' stdin.
struct ChannelReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            match self.rx.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The write end the loops reply on: every line goes to the client.
struct ChannelWriter {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(b);
        while let Some(i) = self.partial.iter().position(|&c| c == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=i).collect();
            let _ = self
                .tx
                .send(String::from_utf8_lossy(&line[..line.len() - 1]).into_owned());
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A client talking to a loop running on its own thread.
struct Client {
    to_engine: Option<Sender<Vec<u8>>>,
    from_engine: Receiver<String>,
    engine: Option<std::thread::JoinHandle<()>>,
}

impl Client {
    fn start(gtp_mode: bool, options: ProtocolOptions) -> Client {
        let (to_engine, rx) = channel();
        let (tx, from_engine) = channel();
        let engine = std::thread::spawn(move || {
            let input = BufReader::new(ChannelReader {
                rx,
                buf: Vec::new(),
                at: 0,
            });
            let output = Box::new(ChannelWriter {
                tx,
                partial: Vec::new(),
            });
            if gtp_mode {
                gtp::run(input, output, options);
            } else {
                nboard::run(input, output, options);
            }
        });
        Client {
            to_engine: Some(to_engine),
            from_engine,
            engine: Some(engine),
        }
    }

    fn send(&self, line: &str) {
        self.to_engine
            .as_ref()
            .unwrap()
            .send(format!("{line}\n").into_bytes())
            .unwrap();
    }

    /// The next reply line (panics after 60 s).
    fn next(&self) -> String {
        self.from_engine
            .recv_timeout(Duration::from_secs(60))
            .expect("a reply within 60 s")
    }

    /// Lines until one satisfies `done`, which is returned.
    fn until(&self, done: impl Fn(&str) -> bool) -> String {
        loop {
            let l = self.next();
            if done(&l) {
                return l;
            }
        }
    }

    /// A GTP answer: its text, or the error.
    fn gtp(&self, command: &str) -> Result<String, String> {
        self.send(command);
        let first = self.next();
        let mut text = first[1..].trim_start().to_string();
        loop {
            let l = self.next();
            if l.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&l);
        }
        if first.starts_with('=') {
            Ok(text)
        } else {
            assert!(first.starts_with('?'), "not a GTP reply: {first}");
            Err(text)
        }
    }

    /// Ends the session and waits for the loop to return.
    fn finish(mut self) -> Duration {
        let start = Instant::now();
        self.to_engine.take();
        self.engine.take().unwrap().join().unwrap();
        start.elapsed()
    }
}

fn quick() -> ProtocolOptions {
    ProtocolOptions {
        level: Some(2),
        engine: EngineOptions {
            hash_mb: 4,
            ..EngineOptions::default()
        },
        ..ProtocolOptions::default()
    }
}

/// With a game clock and no `set depth`, NBoard's `go` thinks as long as the clock's plan
/// allows (as match managers that send a clock and no depth expect; at the default level
/// this opening takes about 0.05 s of a 20 s clock); `set depth` caps it again.
#[test]
fn nboard_without_a_depth_plays_by_the_clock() {
    let c = Client::start(
        false,
        ProtocolOptions {
            level: None,
            engine: EngineOptions {
                hash_mb: 16,
                ..EngineOptions::default()
            },
            ..ProtocolOptions::default()
        },
    );
    let secs = |reply: String| -> f64 {
        let t = reply.rsplit('/').next().unwrap();
        t.parse().unwrap_or_else(|_| panic!("no time in {reply}"))
    };
    c.send("nboard 2");
    c.send("set game (;GM[Othello]PC[NBoard]TI[0:20]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    c.send("go");
    let by_clock = secs(c.until(|l| l.starts_with("===")));
    // 20 s over the 27 moves the clock is planned for, and no new iteration past 55%
    // of the 0.68 s each: at least 0.37 s.
    assert!(by_clock >= 0.3, "{by_clock} s");
    c.send("set depth 2");
    c.send("go");
    let capped = secs(c.until(|l| l.starts_with("===")));
    assert!(
        capped < by_clock / 3.0,
        "{capped} s at depth 2, {by_clock} s by the clock"
    );
    c.send("quit");
    c.finish();
}

/// Plays a whole game through NBoard: `go` for every move, checked against volte's own
/// rules and sent back with `move`.
fn nboard_game(start_ggf: &str) -> Game {
    let c = Client::start(false, quick());
    c.send("nboard 2");
    c.send("set depth 3");
    assert_eq!(
        c.until(|l| l.starts_with("set myname")),
        "set myname volte3"
    );
    c.send(&format!("set game {start_ggf}"));
    let mut game = ggf::parse_game(start_ggf).unwrap();
    let mut ping = 0;
    while !game.is_over() {
        ping += 1;
        c.send(&format!("ping {ping}"));
        assert_eq!(c.until(|l| l.starts_with("pong")), format!("pong {ping}"));
        c.send("go");
        let reply = c.until(|l| l.starts_with("==="));
        let item = reply.strip_prefix("=== ").unwrap();
        let record = ggf::parse_move_item(item).unwrap();
        game.play_record(record)
            .unwrap_or_else(|e| panic!("illegal {item} in {}: {e}", game.transcript()));
        if record.mv != Move::Pass {
            // Evaluation and time fields are numbers.
            assert!(record.eval.is_some() && record.time_s.is_some(), "{reply}");
        }
        c.send(&format!("move {item}"));
    }
    c.send("quit");
    c.finish();
    game
}

#[test]
fn nboard_plays_whole_games_in_every_variant() {
    let othello = nboard_game(
        "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
    );
    assert_eq!(othello.variant(), Variant::Othello);
    let anti = nboard_game(
        "(;GM[Othello]PC[NBoard]TY[8a]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)",
    );
    assert_eq!(anti.variant(), Variant::Anti);
    let reversi = nboard_game(
        "(;GM[Reversi1889]TY[8]BO[8 ---------------------------------------------------------------- *];)",
    );
    assert_eq!(reversi.variant(), Variant::Reversi1889);
    assert!(reversi.moves().len() >= 50);
}

/// An illegal or unreadable move, or an unreadable game, means the GUI's game and volte's
/// differ: volte says so and answers nothing from its old position until a game arrives.
#[test]
fn nboard_refuses_illegal_moves_and_waits_for_a_game() {
    let c = Client::start(false, quick());
    c.send("nboard 2");
    c.send("move a1");
    assert!(c.next().starts_with("status illegal move a1"));
    c.send("move PA");
    assert!(
        c.next()
            .starts_with("status waiting for a new game: illegal move a1")
    );
    c.send("set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    c.send("move PA");
    assert!(c.next().starts_with("status illegal move PA"));
    c.send("set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    c.send("move q9");
    assert!(c.next().starts_with("status cannot read move"));
    c.send("set game (;GM[Othello]BO[8 *** ;)");
    assert!(c.next().starts_with("status cannot read the game"));
    c.send("go");
    assert!(c.next().starts_with("status waiting for a new game"));
    c.send("set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)");
    c.send("go");
    let reply = c.until(|l| l.starts_with("==="));
    let mv = reply[4..6].to_string();
    assert!(["F5", "E6", "D3", "C4"].contains(&mv.as_str()), "{reply}");
    c.send("quit");
    c.finish();
}

#[test]
fn nboard_forced_pass_and_game_end() {
    // White to move with no move but black has one: `go` answers PA.
    let ggf_text = "(;GM[Othello]TY[8]BO[8 OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO*O-O***** O];)";
    let game = ggf::parse_game(ggf_text).unwrap();
    assert_eq!(game.legal_moves(), 0);
    assert!(!game.is_over());
    let c = Client::start(false, quick());
    c.send(&format!("set game {ggf_text}"));
    c.send("go");
    assert_eq!(c.until(|l| l.starts_with("===")), "=== PA");
    c.send("move PA");
    c.send("go");
    let reply = c.until(|l| l.starts_with("==="));
    // Black's only move is b8.
    assert_eq!(reply.split('/').next(), Some("=== B8"), "{reply}");
    c.send("move B8");
    c.send("go");
    assert_eq!(
        c.until(|l| l.starts_with("status the")),
        "status the game is over"
    );
    c.send("quit");
    c.finish();
}

#[test]
fn ping_interrupts_a_long_hint_and_quit_a_long_go() {
    let c = Client::start(
        false,
        ProtocolOptions {
            engine: EngineOptions {
                hash_mb: 16,
                ..EngineOptions::default()
            },
            ..ProtocolOptions::default()
        },
    );
    c.send("set depth 40");
    c.until(|l| l.starts_with("set myname"));
    c.send("hint 4");
    // Wait until the search is under way, then ping.
    c.until(|l| l.starts_with("search") && l.ends_with(" 6"));
    let asked = Instant::now();
    c.send("ping 7");
    c.until(|l| l == "pong 7");
    let delay = asked.elapsed();
    eprintln!(
        "pong {:.1} ms after ping during hint",
        delay.as_secs_f64() * 1e3
    );
    assert!(delay < Duration::from_secs(2), "{delay:?}");
    // Every search line of the hint named a legal first move.
    c.send("go");
    c.until(|l| l == "status thinking");
    std::thread::sleep(Duration::from_millis(100));
    c.send("quit");
    let took = c.finish();
    eprintln!("quit during go took {:.1} ms", took.as_secs_f64() * 1e3);
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn nboard_hint_lines_and_analysis() {
    let c = Client::start(false, quick());
    c.send("set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3];)");
    c.send("hint 64");
    let mut last_depth_lines = Vec::new();
    loop {
        let l = c.next();
        if l.starts_with("nodestats") {
            break;
        }
        if l.starts_with("search") {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 5, "{l}");
            assert!(f[2].parse::<i32>().is_ok() && f[3] == "0", "{l}");
            if f[4] == "2" {
                last_depth_lines.push(f[1][..2].to_string());
            }
        }
    }
    // At depth 2 every legal move (c4 e3 f4 c5 e6... black to move) has a line.
    let game = ggf::parse_game("(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3];)").unwrap();
    assert_eq!(
        last_depth_lines.len(),
        game.legal_moves().count_ones() as usize
    );
    c.send("analyze");
    let mut plies = Vec::new();
    for _ in 0..5 {
        let l = c.until(|l| l.starts_with("analysis"));
        let f: Vec<&str> = l.split(' ').collect();
        plies.push(f[1].parse::<usize>().unwrap());
        assert!(f[2].parse::<i32>().is_ok(), "{l}");
    }
    assert_eq!(plies, vec![4, 3, 2, 1, 0]);
    c.send("learn");
    assert_eq!(c.until(|l| !l.starts_with("status")), "learned");
    c.send("quit");
    c.finish();
}

/// Plays a whole game through GTP, the engine choosing both colours, as Quarry does: a
/// side that must pass is skipped (the next genmove names the other colour).
fn gtp_game(variant: &str) -> Game {
    let c = Client::start(true, quick());
    assert_eq!(c.gtp("protocol_version"), Ok("2".to_string()));
    assert_eq!(c.gtp("boardsize 8"), Ok(String::new()));
    assert!(c.gtp("boardsize 10").is_err());
    assert_eq!(c.gtp(&format!("set_game {variant}")), Ok(String::new()));
    assert_eq!(c.gtp("clear_board"), Ok(String::new()));
    let v: Variant = variant.parse().unwrap();
    let mut game = Game::new(v);
    loop {
        let legal = c.gtp("gogui-rules_legal_moves").unwrap();
        if game.is_over() {
            assert_eq!(legal, "");
            break;
        }
        if game.legal_moves() == 0 {
            assert_eq!(legal, "pass");
            game.play(Move::Pass).unwrap();
        }
        let color = game.side_to_move();
        let answer = c.gtp(&format!("genmove {color}")).unwrap();
        let mv = Move::parse(&answer).unwrap_or_else(|| panic!("bad vertex {answer}"));
        game.play(mv)
            .unwrap_or_else(|e| panic!("illegal {answer} in {}: {e}", game.transcript()));
    }
    let black = game.final_score_black().unwrap();
    let expected = match black.signum() {
        1 => format!("B+{black}"),
        -1 => format!("W+{}", -black),
        _ => "0".to_string(),
    };
    assert_eq!(c.gtp("final_score"), Ok(expected));
    assert_eq!(c.gtp("quit"), Ok(String::new()));
    c.finish();
    game
}

#[test]
fn gtp_plays_whole_games_in_every_variant() {
    assert_eq!(gtp_game("Othello").variant(), Variant::Othello);
    assert_eq!(gtp_game("Anti").variant(), Variant::Anti);
    assert_eq!(gtp_game("Reversi1889").variant(), Variant::Reversi1889);
}

#[test]
fn gtp_infers_passes_and_refuses_illegal_moves() {
    // A game with a pass: random play until one happens.
    let mut rng = Lcg(5);
    let game = loop {
        let mut g = Game::new(Variant::Othello);
        let mut passed = false;
        while !g.is_over() {
            if g.pass_if_forced() {
                passed = true;
                continue;
            }
            let moves: Vec<u8> = volte::bitboard::Bits(g.legal_moves()).collect();
            let x = moves[rng.next() as usize % moves.len()];
            g.play(Move::Play(volte::square::Square::from_index(x)))
                .unwrap();
        }
        if passed {
            break g;
        }
    };
    let c = Client::start(true, quick());
    // Play it as Quarry would: passes are never sent.
    for (ply, record) in game.moves().iter().enumerate() {
        if let Move::Play(sq) = record.mv {
            let color = game.side_at(ply);
            assert_eq!(
                c.gtp(&format!("play {color} {sq}")),
                Ok(String::new()),
                "ply {ply}"
            );
        }
    }
    let black = game.final_score_black().unwrap();
    assert_eq!(c.gtp("gogui-rules_legal_moves"), Ok(String::new()));
    assert!(
        c.gtp("final_score")
            .unwrap()
            .contains(&black.abs().to_string())
            || black == 0
    );
    // Illegal moves leave the state alone.
    assert!(c.gtp("clear_board").is_ok());
    assert!(c.gtp("play black a1").unwrap_err().contains("illegal"));
    assert!(c.gtp("play white f5").unwrap_err().contains("turn"));
    assert!(c.gtp("play purple f5").is_err());
    assert!(c.gtp("play black z9").is_err());
    assert_eq!(c.gtp("gogui-rules_side_to_move"), Ok("black".to_string()));
    assert_eq!(c.gtp("play b F5"), Ok(String::new()));
    assert_eq!(c.gtp("undo"), Ok(String::new()));
    assert!(c.gtp("undo").is_err());
    assert!(c.gtp("known_command genmove").unwrap() == "true");
    assert!(c.gtp("known_command fly").unwrap() == "false");
    assert!(c.gtp("list_commands").unwrap().lines().count() >= 20);
    assert!(c.gtp("7 frobnicate").unwrap_err().contains("unknown"));
    assert_eq!(c.gtp("time_settings 60 0 0"), Ok(String::new()));
    assert_eq!(c.gtp("time_left black 30 0"), Ok(String::new()));
    let mv = c.gtp("genmove black").unwrap();
    assert!(["f5", "e6", "d3", "c4"].contains(&mv.as_str()), "{mv}");
    let reg = c.gtp("reg_genmove white").unwrap();
    assert!(Move::parse(&reg).is_some(), "{reg}");
    assert_eq!(c.gtp("gogui-rules_side_to_move"), Ok("white".to_string()));
    let board = c.gtp("gogui-rules_board").unwrap();
    assert_eq!(
        board.lines().filter(|l| !l.is_empty()).count(),
        8,
        "{board}"
    );
    c.send("quit");
    c.finish();
}

#[test]
fn gtp_quit_during_a_long_genmove() {
    let c = Client::start(
        true,
        ProtocolOptions {
            level: Some(40),
            engine: EngineOptions {
                hash_mb: 16,
                ..EngineOptions::default()
            },
            ..ProtocolOptions::default()
        },
    );
    c.send("genmove black");
    std::thread::sleep(Duration::from_millis(200));
    c.send("quit");
    let took = c.finish();
    assert!(took < Duration::from_secs(2), "{took:?}");
}

/// Random and mutated lines: no panic, every bad command answered, and the engine still
/// plays correctly afterwards.
#[test]
fn fuzzed_lines_get_answers_and_leave_a_working_engine() {
    let valid_nboard = [
        "nboard 2",
        "set depth 1",
        "set contempt 0",
        "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6];)",
        "set game (;GM[Othello]TY[8a]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "move F5",
        "move D6/0.00",
        "move C3//1.5",
        "move PA",
        "ping 3",
        "hint 2",
        "go",
        "learn",
        "analyze",
    ];
    let valid_gtp = [
        "protocol_version",
        "boardsize 8",
        "clear_board",
        "play black f5",
        "play white d6",
        "genmove black",
        "undo",
        "showboard",
        "final_score",
        "time_settings 0 1 0",
        "gogui-rules_legal_moves",
        "set_game Othello",
        "komi 0",
    ];
    let count = if cfg!(debug_assertions) {
        5_000
    } else {
        100_000
    };
    for gtp_mode in [false, true] {
        let valid: &[&str] = if gtp_mode { &valid_gtp } else { &valid_nboard };
        let mut rng = Lcg(if gtp_mode { 77 } else { 78 });
        let mut input: Vec<u8> = Vec::new();
        let mut bad_words = 0usize;
        let mut commands = 0usize;
        for _ in 0..count {
            let base = valid[rng.next() as usize % valid.len()].as_bytes().to_vec();
            let line: Vec<u8> = match rng.next() % 6 {
                // Random bytes, some not UTF-8.
                0 => (0..rng.next() % 40)
                    .map(|_| (rng.next() % 256) as u8)
                    .collect(),
                // Truncated.
                1 => base[..(rng.next() as usize % (base.len() + 1))].to_vec(),
                // A byte changed.
                2 => {
                    let mut b = base.clone();
                    let i = rng.next() as usize % b.len();
                    b[i] = (rng.next() % 256) as u8;
                    b
                }
                // Huge or negative numbers, bad squares.
                3 => {
                    let word = ["99999999999999999999", "-5", "z9", "a0", "NaN", "1e400", ""]
                        [rng.next() as usize % 7];
                    let head = String::from_utf8_lossy(&base)
                        .split(' ')
                        .next()
                        .unwrap_or("")
                        .to_string();
                    format!("{head} {word}").into_bytes()
                }
                // Unknown word.
                4 => format!("xyzzy{}", rng.next() % 100).into_bytes(),
                _ => base,
            };
            let line: Vec<u8> = line
                .into_iter()
                .filter(|&b| b != b'\n' && b != b'\r')
                .collect();
            let text = String::from_utf8_lossy(&line).to_string();
            if gtp_mode {
                if gtp::parse_line(&text).is_some() {
                    commands += 1;
                }
            } else {
                let first = text.split_whitespace().next().unwrap_or("");
                let known = [
                    "nboard", "set", "move", "ping", "hint", "go", "learn", "analyze", "quit",
                ];
                if !first.is_empty() && !known.contains(&first) {
                    bad_words += 1;
                }
                if first == "quit" {
                    continue;
                }
            }
            if gtp::parse_line(&text).is_some_and(|(_, c, _)| c == "quit") {
                continue;
            }
            input.extend_from_slice(&line);
            input.push(b'\n');
        }
        // Afterwards: a fresh game and a move, which must be legal.
        if gtp_mode {
            input.extend_from_slice(
                b"set_game Othello\nclear_board\nplay black f5\ngenmove white\n",
            );
            commands += 4;
        } else {
            input.extend_from_slice(b"set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\nping 999\ngo\n");
        }
        let out = SharedBuf::default();
        let options = ProtocolOptions {
            level: Some(1),
            engine: EngineOptions {
                hash_mb: 1,
                ..EngineOptions::default()
            },
            ..ProtocolOptions::default()
        };
        let started = Instant::now();
        if gtp_mode {
            gtp::run(&input[..], Box::new(out.clone()), options);
        } else {
            nboard::run(&input[..], Box::new(out.clone()), options);
        }
        let text = out.text();
        let lines: Vec<&str> = text.lines().collect();
        eprintln!(
            "{} fuzz: {count} lines in {:.1} s, {} reply lines",
            if gtp_mode { "GTP" } else { "NBoard" },
            started.elapsed().as_secs_f64(),
            lines.len()
        );
        if gtp_mode {
            let replies = lines
                .iter()
                .filter(|l| l.starts_with('=') || l.starts_with('?'))
                .count();
            assert_eq!(replies, commands);
            let last = lines.iter().rev().find(|l| l.starts_with('=')).unwrap();
            assert!(["= d6", "= f6", "= f4"].contains(last), "{last}");
        } else {
            let statuses = lines.iter().filter(|l| l.starts_with("status")).count();
            assert!(statuses >= bad_words, "{statuses} < {bad_words}");
            let unknown = lines
                .iter()
                .filter(|l| l.starts_with("status unknown command"))
                .count();
            assert!(unknown >= bad_words / 2, "{unknown} vs {bad_words}");
            let last = lines.iter().rev().find(|l| l.starts_with("===")).unwrap();
            assert!(
                ["=== D6", "=== F6", "=== F4"].contains(&&last[..6]),
                "{last}"
            );
            assert!(lines.contains(&"pong 999"));
        }
    }
}

#[derive(Clone, Default)]
struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// The real binary, started with no arguments as the NBoard GUI starts it, plays a whole
/// game over pipes; nothing appears on stderr.
#[test]
fn the_binary_plays_nboard_over_pipes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_volte"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("volte starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut read = || {
        let mut l = String::new();
        stdout.read_line(&mut l).unwrap();
        assert!(!l.is_empty(), "volte closed its output");
        l.trim_end().to_string()
    };
    writeln!(stdin, "nboard 2\nset depth 2").unwrap();
    assert_eq!(read(), "set myname volte2");
    let mut game = Game::new(Variant::Othello);
    writeln!(stdin, "set game {}", ggf::write(&game)).unwrap();
    let mut n = 0;
    while !game.is_over() {
        n += 1;
        writeln!(stdin, "ping {n}\ngo").unwrap();
        let reply = loop {
            let l = read();
            if l.starts_with("===") {
                break l;
            }
        };
        let record = ggf::parse_move_item(&reply[4..]).unwrap();
        game.play_record(record).unwrap();
        writeln!(stdin, "move {}", record.mv.to_upper()).unwrap();
    }
    writeln!(stdin, "quit").unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.is_empty(), "stderr: {err}");
    assert!(game.moves().len() >= 58);
    let _ = Color::Black;
}

/// The `search` lines of a `hint` up to its `nodestats`: (pv, score, depth field).
fn hint_lines(c: &Client, n: usize) -> Vec<(String, i32, String)> {
    c.send(&format!("hint {n}"));
    let mut lines = Vec::new();
    loop {
        let l = c.next();
        if l.starts_with("nodestats") {
            return lines;
        }
        if let Some(rest) = l.strip_prefix("search ") {
            let f: Vec<&str> = rest.split(' ').collect();
            assert_eq!(f.len(), 4, "{l}");
            lines.push((f[0].to_string(), f[1].parse().unwrap(), f[3].to_string()));
        }
    }
}

/// The lines of the last iteration (the final depth field).
fn last_iteration(lines: &[(String, i32, String)]) -> Vec<(String, i32)> {
    let Some((_, _, depth)) = lines.last() else {
        return Vec::new();
    };
    lines
        .iter()
        .filter(|(_, _, d)| d == depth)
        .map(|(pv, v, _)| (pv.clone(), *v))
        .collect()
}

/// Where the side to move must pass, a hint answers one line per depth whatever n: the pass,
/// then the best line of the other side, with the passing side's score (the GUI keys lines
/// by their first move, so a second `PA` line would replace the first).
#[test]
fn nboard_hint_where_the_side_to_move_must_pass() {
    // White to move has none; black then has a8 and c8.
    let board = concat!(
        "OOOOOOO*", "OOOOOOOO", "OOOOOOOO", "OOOOOOOO", "OOOOOOOO", "OOOOOOOO", "OOOOOOO*",
        "-O-O****"
    );
    let ggf_text = format!("(;GM[Othello]TY[8]BO[8 {board} O];)");
    let game = ggf::parse_game(&ggf_text).unwrap();
    assert_eq!(game.legal_moves(), 0);
    assert!(!game.is_over());
    let c = Client::start(false, quick());
    c.send(&format!("set game {ggf_text}"));
    let mut passing = Vec::new();
    for n in [1, 2, 4, 64] {
        let lines = hint_lines(&c, n);
        // One line per depth: no depth field repeats.
        let mut depths: Vec<&String> = lines.iter().map(|(_, _, d)| d).collect();
        let count = depths.len();
        depths.dedup();
        assert_eq!(depths.len(), count, "hint {n}: {lines:?}");
        let last = last_iteration(&lines);
        assert_eq!(last.len(), 1, "hint {n}: {last:?}");
        assert!(last[0].0.starts_with("PA"), "{last:?}");
        passing.push(last[0].clone());
    }
    c.send("move PA");
    let black = last_iteration(&hint_lines(&c, 4));
    assert_eq!(black.len(), 2, "{black:?}");
    // The passing side's score is the negation of black's best, whatever n was.
    let best = black.iter().map(|&(_, v)| v).max().unwrap();
    for (pv, v) in &passing {
        assert_eq!(*v, -best, "{passing:?} {black:?}");
        assert!(
            black
                .iter()
                .any(|(b, bv)| *pv == format!("PA{b}") && *bv == best)
        );
    }
    // White wins this position whatever black does.
    assert!(passing.iter().all(|&(_, v)| v > 0), "{passing:?}");
    c.send("quit");
    c.finish();
}

/// The exact score of every move of `state`, solved afresh; after a forced pass, the one
/// line `PA` and the passing side's score with the other side's best reply.
fn fresh_scores(variant: Variant, state: &State) -> Vec<(String, i32)> {
    let (state, sign, prefix) = if variant.legal_moves(state) == 0 {
        (state.pass(), -1, "PA")
    } else {
        (*state, 1, "")
    };
    let r = Engine::with_hash(16).solve(
        variant,
        &state,
        &SolveOptions {
            all_moves: true,
            ..Default::default()
        },
    );
    if sign < 0 {
        return vec![(prefix.to_string(), -r.score)];
    }
    r.move_scores
        .iter()
        .map(|&(m, v)| (format!("{prefix}{}", m.to_upper()), sign * v))
        .collect()
}

/// A session as a GUI holds it: a game of `go`s, then `hint 64` at every ply from 12
/// empties on. The last iteration names every legal move exactly once, first in its line,
/// with the score a fresh solve gives (what earlier searches left in the table must not
/// leak into the lines).
#[test]
fn nboard_hint_names_every_move_once_after_a_session() {
    let starts = [
        "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "(;GM[Othello]TY[8a]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "(;GM[Reversi1889]TY[8]BO[8 ---------------------------------------------------------------- *];)",
    ];
    for start in starts {
        let c = Client::start(
            false,
            ProtocolOptions {
                level: Some(6),
                engine: EngineOptions {
                    hash_mb: 4,
                    ..EngineOptions::default()
                },
                ..ProtocolOptions::default()
            },
        );
        c.send(&format!("set game {start}"));
        let mut game = ggf::parse_game(start).unwrap();
        let variant = game.variant();
        let mut hinted = 0;
        while !game.is_over() {
            if game.current().pos.n_empties() <= 12 {
                let lines = last_iteration(&hint_lines(&c, 64));
                let mut expected = fresh_scores(variant, game.current());
                let mut got: Vec<(String, i32)> = lines
                    .iter()
                    .map(|(pv, v)| (pv[..2].to_string(), *v))
                    .collect();
                expected.sort();
                got.sort();
                assert_eq!(got, expected, "{variant} {}", game.transcript());
                hinted += 1;
            }
            c.send("go");
            let reply = c.until(|l| l.starts_with("==="));
            let record = ggf::parse_move_item(&reply[4..]).unwrap();
            game.play_record(record).unwrap();
            c.send(&format!("move {}", record.mv.to_upper()));
        }
        assert!(hinted >= 10, "{variant}: {hinted} hints");
        c.send("quit");
        c.finish();
    }
}

/// A legal position (black to move) with 35 moves, more than any reached by play: no
/// search may drop one.
const MANY_MOVES: &str = concat!(
    "........", ".O.O.OO.", ".OXOXXO.", ".OXXOX..", ".O...XO.", ".XXO.XX.", ".OOXXOO.", "........"
);

#[test]
fn nboard_hint_and_go_see_all_35_moves() {
    let ggf_text = format!("(;GM[Othello]TY[8]BO[8 {MANY_MOVES} *];)");
    let game = ggf::parse_game(&ggf_text).unwrap();
    assert_eq!(game.legal_moves().count_ones(), 35);
    let c = Client::start(false, quick());
    c.send(&format!("set game {ggf_text}"));
    let lines = last_iteration(&hint_lines(&c, 64));
    let mut firsts: Vec<String> = lines.iter().map(|(pv, _)| pv[..2].to_string()).collect();
    firsts.sort();
    firsts.dedup();
    let mut legal: Vec<String> = volte::bitboard::Bits(game.legal_moves())
        .map(|x| Move::Play(volte::square::Square::from_index(x)).to_upper())
        .collect();
    legal.sort();
    assert_eq!(lines.len(), 35);
    assert_eq!(firsts, legal);
    // `go` at a few depths answers a legal move.
    for depth in [1, 4, 6] {
        c.send(&format!("set depth {depth}"));
        c.until(|l| l.starts_with("set myname"));
        c.send("go");
        let reply = c.until(|l| l.starts_with("==="));
        let record = ggf::parse_move_item(&reply[4..]).unwrap();
        game.check(record.mv).unwrap();
    }
    c.send("quit");
    c.finish();
}

/// `analyze` sends black's view, as the GUI draws it: where the engine solves exactly
/// (the last plies of a game it played perfectly from there), every value is black's
/// final result, whoever is to move.
#[test]
fn nboard_analysis_is_in_blacks_view() {
    // After f5 f6 (from the start position the default evaluation draws against itself).
    let played = nboard_game(
        "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O*-------O------------------ *];)",
    );
    let result = played.final_score_black().unwrap();
    assert_ne!(result, 0, "a drawn game would not tell the views apart");
    let c = Client::start(false, quick());
    c.send(&format!("set game {}", ggf::write(&played)));
    c.send("analyze");
    let plies = played.states().len();
    let mut values = vec![None; plies];
    for _ in 0..plies {
        let l = c.until(|l| l.starts_with("analysis"));
        let f: Vec<&str> = l.split(' ').collect();
        values[f[1].parse::<usize>().unwrap()] = Some(f[2].parse::<i32>().unwrap());
    }
    // The game was played with exact solves from 6 empties; analysis solves from 4.
    let mut checked = 0;
    for (ply, state) in played.states().iter().enumerate() {
        if state.pos.n_empties() <= 4 {
            assert_eq!(values[ply], Some(result), "ply {ply}: {values:?}");
            checked += 1;
        }
    }
    assert!(checked >= 4);
    c.send("quit");
    c.finish();
}

/// `learn` runs beside the command loop: a `ping` right after two `learn`s is answered
/// before either game is learnt, and both are learnt, in turn.
#[test]
fn nboard_learn_never_holds_up_ping() {
    let book = volte::book::Book::shipped(Variant::Othello).expect("volte ships a book");
    let c = Client::start(
        false,
        ProtocolOptions {
            level: Some(10),
            engine: EngineOptions {
                hash_mb: 4,
                book: Some(book),
                ..EngineOptions::default()
            },
            ..ProtocolOptions::default()
        },
    );
    c.send("set depth 10");
    c.until(|l| l.starts_with("set myname"));
    // A game far out of the book: its leaves are searched 10 deep.
    let mut game = Game::new(Variant::Othello);
    let mut rng = Lcg(3);
    while game.moves().len() < 30 {
        let moves: Vec<u8> = volte::bitboard::Bits(game.legal_moves()).collect();
        let x = moves[rng.next() as usize % moves.len()];
        game.play(Move::Play(volte::square::Square::from_index(x)))
            .unwrap();
    }
    c.send(&format!("set game {}", ggf::write(&game)));
    c.send("learn");
    c.send("learn");
    let asked = Instant::now();
    c.send("ping 5");
    let first = c.until(|l| l == "pong 5" || l == "learned");
    let delay = asked.elapsed();
    eprintln!("pong {:.1} ms after two learns", delay.as_secs_f64() * 1e3);
    assert_eq!(first, "pong 5");
    assert!(delay < Duration::from_secs(1), "{delay:?}");
    c.until(|l| l == "learned");
    c.until(|l| l == "learned");
    c.send("quit");
    c.finish();
}

/// NBoard in a comma-decimal locale writes `F5/-2,00/0,001`: `set game` and `move` take such
/// games and moves, and `go` answers for the right side. A game that cannot be read leaves
/// volte answering nothing (a `status` saying why) rather than a move for the position the
/// GUI has left, until the next game it can read.
#[test]
fn nboard_reads_comma_decimal_locales_and_never_answers_from_a_stale_position() {
    let start = "---------------------------O*------*O---------------------------";
    let c = Client::start(false, quick());
    c.send("nboard 2");
    c.send(&format!(
        "set game (;GM[Othello]PC[NBoard]TI[5:00]TY[8]BO[8 {start} *]B[F5/-2,00/0,001];)"
    ));
    c.send("move D6/0,50/1,250");
    c.send("ping 1");
    c.until(|l| l == "pong 1");
    c.send("go");
    let reply = c.until(|l| l.starts_with("==="));
    let record = ggf::parse_move_item(&reply[4..]).unwrap();
    let mut game =
        ggf::parse_game(&format!("(;GM[Othello]TY[8]BO[8 {start} *]B[F5]W[D6];)")).unwrap();
    game.play_record(record)
        .unwrap_or_else(|e| panic!("{reply} is not black's move after f5d6: {e}"));

    // A game that truly cannot be read: no move comes back, and a status says why.
    c.send(&format!(
        "set game (;GM[Othello]TY[8]BO[8 {start} *]B[F5]W[Z9];)"
    ));
    let status = c.until(|l| l.starts_with("status cannot read"));
    assert!(status.contains("Z9"), "{status}");
    c.send("ping 2");
    c.until(|l| l == "pong 2");
    c.send("go");
    let waiting = c.until(|l| l.starts_with("status "));
    assert!(
        waiting.starts_with("status waiting for a new game"),
        "{waiting}"
    );
    c.send("move E6");
    c.send("hint 4");
    // `learn` still answers (the GUI waits for it), learning nothing.
    c.send("learn");
    assert!(c.until(|l| l == "learned" || l.starts_with("===")) == "learned");
    c.send("ping 3");
    loop {
        let l = c.next();
        assert!(!l.starts_with("===") && !l.starts_with("search"), "{l}");
        if l == "pong 3" {
            break;
        }
    }
    // The next readable game is played from.
    c.send(&format!(
        "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 {start} *]B[F5/-2,00]W[D6/2,00]B[C3/-1,00];)"
    ));
    c.send("go");
    let reply = c.until(|l| l.starts_with("==="));
    let record = ggf::parse_move_item(&reply[4..]).unwrap();
    let mut game = ggf::parse_game(&format!(
        "(;GM[Othello]TY[8]BO[8 {start} *]B[F5]W[D6]B[C3];)"
    ))
    .unwrap();
    game.play_record(record)
        .unwrap_or_else(|e| panic!("{reply} is not white's move after f5d6c3: {e}"));
    c.send("quit");
    c.finish();
}

/// A game sent with `TI[0]` (no time set in the GUI) is played to the depth that was set,
/// exactly as a game with no clock at all; a real clock still limits the search.
#[test]
fn nboard_no_time_on_the_clock_plays_to_the_depth_set() {
    let start = "---------------------------O*------*O---------------------------";
    let answer = |ti: &str| {
        let c = Client::start(false, quick());
        c.send("set depth 9");
        c.until(|l| l.starts_with("set myname"));
        c.send(&format!(
            "set game (;GM[Othello]PC[NBoard]{ti}TY[8]BO[8 {start} *]B[F5//1,5]W[D6//2,0];)"
        ));
        c.send("go");
        let nodes = c.until(|l| l.starts_with("nodestats"));
        let reply = c.until(|l| l.starts_with("==="));
        c.send("quit");
        c.finish();
        let nodes: u64 = nodes.split(' ').nth(1).unwrap().parse().unwrap();
        let record = ggf::parse_move_item(&reply[4..]).unwrap();
        (record.mv, record.eval, nodes)
    };
    let free = answer("");
    assert_eq!(answer("TI[0]"), free);
    assert_eq!(answer("TI[0:00]"), free);
    // With one second left on a 1-second clock the search stops well short of depth 9.
    let (_, _, hurried) = answer("TI[0:01]");
    assert!(hurried < free.2, "{hurried} nodes against {}", free.2);
}
