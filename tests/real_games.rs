//! Every tournament game of WTHOR (binary and text) and every Logistello game replays
//! legally, and the score volte computes equals the recorded one.

mod common;

use flate2::read::GzDecoder;
use rayon::prelude::*;
use std::io::Read;
use volte::formats::{gam, wthor};

#[test]
#[cfg_attr(
    volte_no_data,
    ignore = "needs the shared data folder (set VOLTE_DATA)"
)]
fn wthor_databases_replay_with_recorded_scores() {
    let data = common::data_dir();
    let dir = data.join("wthor");
    let names = wthor::WthorNames {
        players: wthor::read_names(
            &std::fs::read(dir.join("WTHOR.JOU")).unwrap(),
            wthor::PLAYER_NAME_LEN,
        )
        .unwrap(),
        tournaments: wthor::read_names(
            &std::fs::read(dir.join("WTHOR.TRN")).unwrap(),
            wthor::TOURNAMENT_NAME_LEN,
        )
        .unwrap(),
    };
    assert!(names.players.len() > 4000 && names.tournaments.len() > 400);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wtb"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 40,
        "expected the WTHOR years, found {}",
        files.len()
    );

    let totals: Vec<(usize, usize, usize)> = files
        .par_iter()
        .map(|path| {
            let file = wthor::read_wtb(&std::fs::read(path).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(file.games.len(), file.header.n_games as usize);
            let mut with_pass = 0;
            let mut unfinished = 0;
            for (i, record) in file.games.iter().enumerate() {
                let game = record
                    .to_game(i + 1, Some(&names))
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert!(
                    game.info.black.is_some(),
                    "{}: game {}",
                    path.display(),
                    i + 1
                );
                // A few hundred games stopped early (resigned, lost on time, adjudicated):
                // their recorded score is the tournament's, not one the moves give.
                let Some(score) = game.final_score_black() else {
                    unfinished += 1;
                    continue;
                };
                assert_eq!(
                    (64 + score) / 2,
                    i32::from(record.black_discs),
                    "{} game {}: {}",
                    path.display(),
                    i + 1,
                    game.transcript()
                );
                with_pass +=
                    game.moves()
                        .iter()
                        .any(|r| r.mv == volte::square::Move::Pass) as usize;
            }
            (file.games.len(), with_pass, unfinished)
        })
        .collect();
    let games: usize = totals.iter().map(|t| t.0).sum();
    let passes: usize = totals.iter().map(|t| t.1).sum();
    let unfinished: usize = totals.iter().map(|t| t.2).sum();
    eprintln!(
        "WTHOR: {games} games replayed, {passes} with passes, {unfinished} stopped before the end"
    );
    // The count is a property of the data: a change means the move rules changed.
    assert_eq!(unfinished, 413);
    assert!(games > 120_000);
    assert!(passes > 0);

    let text = std::fs::read_to_string(dir.join("games-2019-2024.tsv")).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines.par_iter().enumerate().for_each(|(n, line)| {
        let g = wthor::parse_tsv_line(line, n + 1).unwrap_or_else(|e| panic!("{e}"));
        let Some(score) = g.game.final_score_black() else {
            panic!("tsv line {}: not finished", n + 1);
        };
        assert_eq!(
            (64 + score) / 2,
            i32::from(g.black_discs),
            "tsv line {}",
            n + 1
        );
    });
    eprintln!("WTHOR text: {} games replayed", lines.len());
    assert!(lines.len() > 9_000);
}

#[test]
#[cfg_attr(
    volte_no_data,
    ignore = "needs the shared data folder (set VOLTE_DATA)"
)]
fn logistello_games_replay_with_recorded_scores() {
    let data = common::data_dir();
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(data.join("logistello/xxx.gam.gz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let passes: usize = lines
        .par_iter()
        .enumerate()
        .map(|(n, line)| {
            let g = gam::parse_numbered_line(line, n + 1).unwrap_or_else(|e| panic!("{e}"));
            assert!(g.game.is_over(), "line {}: not finished", n + 1);
            let (black, white) = g.game.disc_counts();
            assert_eq!(black as i32 - white as i32, g.disc_diff, "line {}", n + 1);
            g.game
                .moves()
                .iter()
                .any(|r| r.mv == volte::square::Move::Pass) as usize
        })
        .sum();
    eprintln!(
        "Logistello: {} games replayed, {passes} with passes",
        lines.len()
    );
    assert!(lines.len() > 120_000);
}
