//! Every parser is fed malformed input — truncated lines, wrong lengths, bad squares,
//! illegal moves, random bytes — and must answer with an error or a valid game, never a
//! panic. Accepted games must survive a write/read round trip.

use volte::formats::{self, gam, ggf, obf, transcript, wthor};
use volte::rules::Variant;

/// A small deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const ALPHABET: &[u8] = b"abcdefghABCDEFGH0123456789XO*-.;:[]()/+ \t\nPApassBWTYBORE8?\\\xff\xc3";

/// Mutates `seed` text: truncation, deleted, duplicated, swapped and random bytes.
fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = v.len();
        match rng.below(7) {
            0 => v.truncate(rng.below(len + 1)),
            1 if len > 0 => {
                let i = rng.below(len);
                v.remove(i);
            }
            2 => {
                let i = rng.below(len + 1);
                v.insert(i, ALPHABET[rng.below(ALPHABET.len())]);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                v[i] = ALPHABET[rng.below(ALPHABET.len())];
            }
            4 if len > 1 => {
                let (i, j) = (rng.below(len), rng.below(len));
                v.swap(i, j);
            }
            5 if len > 0 => {
                let i = rng.below(len);
                v[i] = rng.next() as u8;
            }
            _ => {
                let (a, b) = (rng.below(len + 1), rng.below(len + 1));
                let (a, b) = (a.min(b), a.max(b));
                let piece = v[a..b].to_vec();
                let at = rng.below(len + 1);
                v.splice(at..at, piece);
            }
        }
    }
    v
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(300);
    (0..len).map(|_| rng.next() as u8).collect()
}

const GGF: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-23]PB[a]PW[b]RE[+4]TI[5:00/0:10/1:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.45]W[D6/0.00]B[c3/1/2]W[PA];)";
const OBF: &str =
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";
const GAM: &str = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8: -04 10";
const TRANSCRIPT: &str = "f5d6c3d3c4f4f6f3e6e7f7c5b6";

#[test]
fn text_parsers_never_panic() {
    let mut rng = Rng(1);
    let iterations = if cfg!(debug_assertions) {
        5_000
    } else {
        50_000
    };
    let mut accepted = 0;
    for i in 0..iterations {
        let seed = [GGF, OBF, GAM, TRANSCRIPT][i % 4].as_bytes();
        let bytes = if i % 10 == 0 {
            random_bytes(&mut rng)
        } else {
            mutate(&mut rng, seed)
        };
        let text = String::from_utf8_lossy(&bytes);

        for game in ggf::parse_games(&text).into_iter().flatten() {
            accepted += 1;
            let again = ggf::parse_game(&ggf::write(&game))
                .unwrap_or_else(|e| panic!("re-reading our own GGF of {text:?}: {e}"));
            assert_eq!(again.moves(), game.moves(), "{text:?}");
            assert_eq!(again.start(), game.start(), "{text:?}");
        }
        if let Ok(p) = obf::parse_line(&text, 1) {
            assert_eq!(obf::parse_line(&obf::write_line(&p), 1).unwrap(), p);
        }
        let _ = obf::parse_file(&text);
        if let Ok(g) = gam::parse_numbered_line(&text, 1) {
            assert_eq!(
                gam::parse_line(&gam::write_line(&g.game, g.last_field))
                    .unwrap()
                    .game,
                g.game
            );
        }
        if let Ok(g) = transcript::parse(&text, Variant::Othello) {
            assert_eq!(
                transcript::parse(&transcript::write(&g), Variant::Othello).unwrap(),
                g
            );
        }
        let _ = wthor::parse_tsv_line(&text, 1);
        for v in Variant::ALL {
            let _ = formats::parse_position(&text, v);
            let _ = formats::parse_any(&text, v);
        }
    }
    assert!(accepted > 0, "the mutations should leave some games valid");
}

#[test]
fn errors_name_where() {
    let mut rng = Rng(2);
    for _ in 0..2_000 {
        let text = String::from_utf8_lossy(&mutate(&mut rng, OBF.as_bytes())).into_owned();
        if let Err(e) = obf::parse_line(&text, 9) {
            assert!(e.to_string().starts_with("OBF line 9, column "), "{e}");
        }
    }
}

#[test]
fn binary_parsers_never_panic() {
    let mut rng = Rng(3);
    let game = transcript::parse(TRANSCRIPT, Variant::Othello).unwrap();
    let file = wthor::WthorFile {
        header: wthor::WthorHeader {
            created: (2026, 1, 1),
            n_games: 2,
            games_year: 2026,
            theoretical_depth: 24,
        },
        games: vec![
            wthor::WthorGame {
                tournament: 0,
                black: 1,
                white: 2,
                black_discs: 33,
                theoretical_black_discs: 32,
                moves: game.moves().iter().filter_map(|r| r.mv.square()).collect(),
            };
            2
        ],
    };
    let bytes = wthor::write_wtb(&file);
    let iterations = if cfg!(debug_assertions) {
        5_000
    } else {
        50_000
    };
    for i in 0..iterations {
        let input = if i % 10 == 0 {
            random_bytes(&mut rng)
        } else {
            mutate(&mut rng, &bytes)
        };
        if let Ok(f) = wthor::read_wtb(&input) {
            for (n, g) in f.games.iter().enumerate() {
                let _ = g.to_game(n + 1, None);
            }
            assert_eq!(
                wthor::read_wtb(&wthor::write_wtb(&f)).unwrap().games,
                f.games
            );
        }
        let _ = wthor::read_names(&input, wthor::PLAYER_NAME_LEN);
        let _ = wthor::read_names(&input, wthor::TOURNAMENT_NAME_LEN);
    }
}
