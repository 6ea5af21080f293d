//! `volte play` driven through piped input: whole games in every variant typed move by
//! move (forced passes typed as `pass`), undo across a pass, illegal moves, save and load,
//! and volte playing its own moves.

mod common;

use common::Lcg;
use volte::engine::EngineOptions;
use volte::formats::{ggf, transcript};
use volte::game::Game;
use volte::jobs::play::{self, PlayOptions, Seats};
use volte::rules::Variant;
use volte::square::{Color, Move, Square};

fn session(input: &str, game: Game, seats: Seats, level: u32) -> String {
    let mut out = Vec::new();
    play::run(
        &mut input.as_bytes(),
        &mut out,
        game,
        PlayOptions {
            level,
            seats,
            colors: false,
            engine: EngineOptions {
                hash_mb: 4,
                ..EngineOptions::default()
            },
        },
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// A random finished game of `variant` with at least one pass when one can be found.
fn random_game(variant: Variant, seed: u64) -> Game {
    let mut rng = Lcg(seed);
    let mut best = None;
    for _ in 0..200 {
        let mut g = Game::new(variant);
        let mut passes = 0;
        while !g.is_over() {
            if g.pass_if_forced() {
                passes += 1;
                continue;
            }
            let moves: Vec<u8> = volte::bitboard::Bits(g.legal_moves()).collect();
            let x = moves[rng.next() as usize % moves.len()];
            g.play(Move::Play(Square::from_index(x))).unwrap();
        }
        if passes > 0 {
            return g;
        }
        best.get_or_insert(g);
    }
    best.unwrap()
}

/// The lines a player types to replay `game`.
fn typed(game: &Game) -> String {
    game.moves()
        .iter()
        .map(|m| match m.mv {
            Move::Play(sq) => sq.to_upper(),
            Move::Pass => "pass".to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn whole_games_typed_in_every_variant_then_saved_and_loaded() {
    let dir = std::env::temp_dir();
    for (variant, seed) in [
        (Variant::Othello, 1),
        (Variant::Anti, 2),
        (Variant::Reversi1889, 3),
    ] {
        let game = random_game(variant, seed);
        let file = dir.join(format!("volte-play-{}-{variant}.ggf", std::process::id()));
        let input = format!("{}\n{}\n", typed(&game), file.display());
        let out = session(&input, Game::new(variant), Seats::Both, 1);
        assert!(out.contains("Game over:"), "{variant}: {out}");
        let black = game.final_score_black().unwrap();
        let verdict = match black.signum() {
            1 => format!("black wins by {black}"),
            -1 => format!("white wins by {}", -black),
            _ => "a draw".to_string(),
        };
        assert!(out.contains(&verdict), "{variant}: want {verdict} in {out}");
        assert!(!out.contains("refused"), "{variant}: {out}");
        let saved = ggf::parse_game(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(saved.moves().len(), game.moves().len());
        assert_eq!(saved.current(), game.current());
        // Loading it back shows the final position.
        let out = session(
            &format!("load {}\nquit\n", file.display()),
            Game::new(variant),
            Seats::Both,
            1,
        );
        assert!(out.contains("loaded"), "{out}");
        std::fs::remove_file(&file).ok();
    }
}

#[test]
fn undo_across_a_pass_and_refusals() {
    let game = random_game(Variant::Othello, 1);
    let pass_at = game
        .moves()
        .iter()
        .position(|m| m.mv == Move::Pass)
        .expect("a game with a pass");
    // Type up to the move after the pass, undo it (and the pass), then finish the game.
    let moves = typed(&game);
    let lines: Vec<&str> = moves.lines().collect();
    let mut input = lines[..=pass_at + 1].join("\n");
    input.push_str("\nundo\n");
    // After the undo the player who moved before the pass is to move again... unless
    // the undone move was the one before the pass: replay from the undone point.
    let replay_from = {
        let mut g = Game::new(Variant::Othello);
        for m in &game.moves()[..=pass_at + 1] {
            g.play(m.mv).unwrap();
        }
        g.undo_move();
        g.moves().len()
    };
    input.push_str(&lines[replay_from..].join("\n"));
    let file = std::env::temp_dir().join(format!("volte-play-undo-{}.txt", std::process::id()));
    input.push_str(&format!("\n{}\n", file.display()));
    let out = session(&input, Game::new(Variant::Othello), Seats::Both, 1);
    assert!(out.contains("Game over:"), "{out}");
    let saved = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).ok();
    assert_eq!(saved.trim(), transcript::write(&game));
    // Refusals: occupied, no bracket, off the board, pass with moves.
    let out = session(
        "d4\na1\nz9\npass\nquit\n",
        Game::new(Variant::Othello),
        Seats::Both,
        1,
    );
    assert!(out.contains("d4 is refused"), "{out}");
    assert!(out.contains("a1 is refused"), "{out}");
    assert!(out.contains("z9 is refused: it is off the board"), "{out}");
    assert!(out.contains("pass is refused"), "{out}");
    let out = session("fly\nquit\n", Game::new(Variant::Othello), Seats::Both, 1);
    assert!(
        out.contains("'fly' is neither a move nor a command"),
        "{out}"
    );
}

#[test]
fn volte_plays_its_colour_and_watches_itself() {
    // The human plays black with f5 then quits; volte answers as white with its line.
    let out = session(
        "f5\nhint\nlevel 3\nquit\n",
        Game::new(Variant::Othello),
        Seats::Human(Color::Black),
        2,
    );
    assert!(out.contains("volte (white) plays"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    // volte against itself to the end, in Anti.
    let out = session("\n", Game::new(Variant::Anti), Seats::None, 1);
    assert!(
        out.contains("Game over:") && out.contains("anti rules"),
        "{out}"
    );
    assert!(out.matches("volte (").count() >= 58, "{out}");
}

#[test]
fn quit_at_the_save_prompt_saves_nothing() {
    // Typed out of habit at the end of a game, a command that leaves is not a file name
    // (a file called `quit` was once saved in the working directory this way).
    let cwd = std::env::current_dir().unwrap();
    for answer in ["quit", "no", "Q", ""] {
        let out = session(
            &format!("{answer}\n"),
            Game::new(Variant::Othello),
            Seats::None,
            1,
        );
        assert!(out.contains("Game over:"), "{out}");
        assert!(out.trim_end().ends_with("not saved"), "{answer:?}: {out}");
        assert!(!out.contains("saved to"), "{answer:?}: {out}");
    }
    // Nothing was written where the relative name would have gone.
    assert!(!cwd.join("quit").exists());
}
