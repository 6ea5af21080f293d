//! Matches between engines: built-in volte configurations, or external programs that
//! speak NBoard or GTP ([`external`]). Openings are played twice with colours swapped,
//! every move is checked by volte's own rules, an engine that plays an illegal move,
//! crashes, hangs or breaks the protocol loses that game with the reason, and the
//! statistics (score, Elo with its confidence interval, SPRT) say whether one engine is
//! stronger.

pub mod external;
mod openings;
mod specs;
mod stats;

pub use openings::{OpeningsSpec, balanced_openings, parse_openings, random_openings};
pub use specs::{BuiltinSpec, EngineSpec, MATCH_HASH_MB, build_engine};
pub use stats::{Pairing, Sprt, SprtState, Tally, TimeUse, elo_of_score, score_for, score_of_elo};

use crate::engine::Engine;
use crate::engine::GameClock;
use crate::game::{Game, MoveRecord};
use crate::rules::Variant;
use crate::square::Color;
use external::ExternalPlayer;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What an NBoard engine is told it has left under a fixed time a move (NBoard has no
/// such setting): that time for each of its moves still to come. An engine may spend more
/// than the time on one move out of it, so it is also the longest wait for a move.
pub fn move_time_bank(game: &Game, t: Duration) -> Duration {
    t * (game.current().pos.n_empties().div_ceil(2) + 1)
}

/// The time control of a match (on top of what each built-in spec sets).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Seconds per move.
    pub move_time: Option<Duration>,
    /// A game clock: main time and increment per move.
    pub clock: Option<(Duration, Duration)>,
    /// Longest wait for a move when neither is set (a hang past it loses).
    pub max_move: Duration,
}

impl TimeControl {
    /// Slack over the time limit before a late answer counts as a hang: pipes, process
    /// scheduling, a busy machine.
    pub const SLACK: Duration = Duration::from_millis(1000);
}

/// Why a game ended before its end on the board: the engine to move loses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    Illegal(String),
    Timeout,
    /// Lost on time: the clock ran out.
    Time,
    Crash(String),
    Protocol(String),
    Resign,
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Illegal(m) => write!(f, "illegal move {m}"),
            Forfeit::Timeout => write!(f, "no move within the time limit (hang)"),
            Forfeit::Time => write!(f, "lost on time"),
            Forfeit::Crash(why) => write!(f, "crash: {why}"),
            Forfeit::Protocol(why) => write!(f, "protocol error: {why}"),
            Forfeit::Resign => write!(f, "resigned"),
        }
    }
}

/// A player: a built-in engine or an external program.
pub enum Player {
    Builtin(Box<Engine>, Box<BuiltinSpec>),
    External(Box<ExternalPlayer>),
}

impl Player {
    pub fn new(spec: &EngineSpec) -> Player {
        match spec {
            EngineSpec::Builtin(b) => Player::Builtin(Box::new(build_engine(b)), b.clone()),
            EngineSpec::External(e) => Player::External(Box::new(ExternalPlayer::new(e.clone()))),
        }
    }

    fn new_game(&mut self, variant: Variant, tc: &TimeControl) -> Result<(), Forfeit> {
        match self {
            Player::Builtin(engine, _) => {
                engine.clear();
                Ok(())
            }
            Player::External(p) => p.new_game(variant, tc),
        }
    }

    fn choose(
        &mut self,
        game: &Game,
        tc: &TimeControl,
        clocks: [Duration; 2],
        deadline: Instant,
    ) -> Result<MoveRecord, Forfeit> {
        match self {
            Player::Builtin(engine, spec) => {
                let mut limits = spec.limits;
                let side = usize::from(game.side_to_move() == Color::White);
                if let Some((_, inc)) = tc.clock {
                    limits.clock = Some(GameClock {
                        remaining: clocks[side],
                        increment: inc,
                        moves_to_go: None,
                    });
                } else if let Some(t) = tc.move_time {
                    limits.move_time = Some(t);
                }
                limits.book = true;
                let it = engine
                    .think_game(game, &limits, &mut |_| {})
                    .ok_or_else(|| Forfeit::Protocol("no move in a running game".to_string()))?;
                Ok(MoveRecord {
                    mv: it.best_move,
                    eval: Some(f64::from(it.score)),
                    time_s: None,
                })
            }
            Player::External(p) => p.choose(game, tc, clocks, deadline),
        }
    }

    fn seed_book(&self, seed: u64) {
        if let Player::Builtin(engine, _) = self {
            engine.set_book_seed(seed);
        }
    }

    fn kill(&mut self) {
        if let Player::External(p) = self {
            p.kill();
        }
    }
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index of the opening.
    pub opening: usize,
    /// True when the first engine had black.
    pub first_is_black: bool,
    /// Final disc difference for the first engine (±64 for a forfeit).
    pub first_score: i32,
    pub game: Game,
    /// The side that lost by forfeit, and why.
    pub forfeit: Option<(Color, Forfeit)>,
}

/// Plays the game from `opening` between `players[0]` (black) and `players[1]` (white)
/// to the end or to a forfeit; every move is checked and recorded with its time (and
/// evaluation when the engine gives one).
pub fn play_game(
    opening: &Game,
    players: [&mut Player; 2],
    tc: &TimeControl,
) -> (Game, Option<(Color, Forfeit)>) {
    let mut game = opening.clone();
    let [black, white] = players;
    let mut players = [black, white];
    for (i, p) in players.iter_mut().enumerate() {
        if let Err(f) = p.new_game(game.variant(), tc) {
            p.kill();
            let color = if i == 0 { Color::Black } else { Color::White };
            return (game, Some((color, f)));
        }
    }
    let mut clocks = [tc.clock.map_or(Duration::MAX, |(main, _)| main); 2];
    while !game.is_over() {
        if game.pass_if_forced() {
            continue;
        }
        let color = game.side_to_move();
        let side = usize::from(color == Color::White);
        let limit = match (tc.clock, tc.move_time) {
            (Some(_), _) => clocks[side],
            (None, Some(t)) => move_time_bank(&game, t),
            (None, None) => tc.max_move,
        };
        let start = Instant::now();
        let deadline = start + limit.min(Duration::from_secs(86_400)) + TimeControl::SLACK;
        let answer = players[side].choose(&game, tc, clocks, deadline);
        let used = start.elapsed();
        let forfeit = match answer {
            Err(f) => Some(f),
            Ok(_) if tc.clock.is_some() && used > clocks[side] + TimeControl::SLACK / 4 => {
                Some(Forfeit::Time)
            }
            Ok(record) => match game.check(record.mv) {
                Err(e) => Some(Forfeit::Illegal(format!("{} ({e})", record.mv))),
                Ok(()) => {
                    game.play_record(MoveRecord {
                        time_s: Some(used.as_secs_f64()),
                        ..record
                    })
                    .expect("checked move");
                    if let Some((_, inc)) = tc.clock {
                        clocks[side] = clocks[side].saturating_sub(used) + inc;
                    }
                    None
                }
            },
        };
        if let Some(f) = forfeit {
            if !matches!(f, Forfeit::Illegal(_) | Forfeit::Resign | Forfeit::Time) {
                // A hung or broken process is not trusted with the next game.
                players[side].kill();
            } else if matches!(players[side], Player::External(_)) {
                // Its board no longer matches ours: start it afresh.
                players[side].kill();
            }
            return (game, Some((color, f)));
        }
    }
    (game, None)
}

/// Plays every opening twice, colours swapped, between `first` and `second`, on
/// `concurrency` threads (each with its own pair of players); `on_game` sees every game
/// as it ends. With an SPRT the match stops once it decides (games not started are
/// skipped). Games come back in opening order.
pub fn run_match(
    first: &EngineSpec,
    second: &EngineSpec,
    openings: &[Game],
    tc: &TimeControl,
    concurrency: usize,
    sprt: Option<Sprt>,
    on_game: &(dyn Fn(&MatchGame, &Tally) + Sync),
) -> Vec<MatchGame> {
    let jobs: Vec<(usize, bool)> = (0..openings.len())
        .flat_map(|i| [(i, true), (i, false)])
        .collect();
    let decided = AtomicBool::new(false);
    let tally = Mutex::new((Tally::default(), Pairing::default()));
    let next = AtomicUsize::new(0);
    let games: Mutex<Vec<Option<MatchGame>>> = Mutex::new(vec![None; jobs.len()]);
    // Plain threads, not a rayon pool: an engine with threads of its own installs its
    // search in its pool, and a rayon worker waiting on another pool would start the next
    // game meanwhile, nesting games (and their engines) without bound.
    let worker = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= jobs.len() || decided.load(Ordering::Relaxed) {
                return;
            }
            let (opening, first_is_black) = jobs[k];
            // Fresh players for every game (a forfeiting program is restarted).
            let (mut a, mut b) = (Player::new(first), Player::new(second));
            // Book choices depend only on the game, not on which thread plays it.
            let seed = (opening as u64) << 1 | u64::from(first_is_black);
            a.seed_book(seed);
            b.seed_book(seed ^ 0x5EED_0000_0000);
            let (game, forfeit) = if first_is_black {
                play_game(&openings[opening], [&mut a, &mut b], tc)
            } else {
                play_game(&openings[opening], [&mut b, &mut a], tc)
            };
            let first_color = if first_is_black {
                Color::Black
            } else {
                Color::White
            };
            let first_score = match &forfeit {
                Some((loser, _)) if *loser == first_color => -64,
                Some(_) => 64,
                None => score_for(&game, first_color),
            };
            let g = MatchGame {
                opening,
                first_is_black,
                first_score,
                game,
                forfeit,
            };
            let mut guard = tally.lock().unwrap_or_else(|e| e.into_inner());
            let (t, pairing) = &mut *guard;
            pairing.add(t, g.opening, g.first_score);
            if let Some(sprt) = sprt
                && sprt.test(t).1 != SprtState::Continue
            {
                decided.store(true, Ordering::Relaxed);
            }
            on_game(&g, t);
            drop(guard);
            games.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(g);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            scope.spawn(worker);
        }
    });
    let games = games.into_inner().unwrap_or_else(|e| e.into_inner());
    games.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Move;
    use external::Proto;

    #[test]
    fn elo_matches_known_values() {
        assert!((elo_of_score(0.5)).abs() < 1e-9);
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_of_score(0.25) + 190.85).abs() < 0.01);
        assert!((elo_of_score(0.9) - 381.70).abs() < 0.01);
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            disc_sum: 400,
            pairs: [0; 5],
        };
        let (elo, lo, hi) = t.elo().unwrap();
        assert!((t.score() - 0.7).abs() < 1e-12);
        assert!((elo - 147.19).abs() < 0.01, "{elo}");
        // Per-game variance (60 * 0.3² + 20 * 0.2² + 20 * 0.7²) / 100 = 0.16, so the
        // standard error of the score is 0.04.
        assert!((lo - elo_of_score(0.7 - 1.96 * 0.04)).abs() < 1e-9, "{lo}");
        assert!((hi - elo_of_score(0.7 + 1.96 * 0.04)).abs() < 1e-9, "{hi}");
        assert!(lo < elo && elo < hi && hi - lo > 100.0 && hi - lo < 250.0);
    }

    #[test]
    fn sprt_decides_clear_cases() {
        let sprt: Sprt = "0,20,0.05,0.05".parse().unwrap();
        let strong = Tally {
            wins: 300,
            draws: 20,
            losses: 180,
            disc_sum: 0,
            pairs: [0; 5],
        };
        assert_eq!(sprt.test(&strong).1, SprtState::AcceptH1);
        let weak = Tally {
            wins: 180,
            draws: 20,
            losses: 300,
            disc_sum: 0,
            pairs: [0; 5],
        };
        assert_eq!(sprt.test(&weak).1, SprtState::AcceptH0);
        let few = Tally {
            wins: 3,
            draws: 0,
            losses: 2,
            disc_sum: 0,
            pairs: [0; 5],
        };
        assert_eq!(sprt.test(&few).1, SprtState::Continue);
        // Nine games all but won: the ratio is large, yet too few games to decide.
        let lucky = Tally {
            wins: 8,
            draws: 1,
            losses: 0,
            disc_sum: 0,
            pairs: [0; 5],
        };
        let (llr, state) = sprt.test(&lucky);
        assert!(llr > 2.95, "{llr}");
        assert_eq!(state, SprtState::Continue);
        // Bounds: ln(0.05/0.95) and ln(0.95/0.05).
        assert!("10,0,0.05,0.05".parse::<Sprt>().is_err());
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of_score(score_of_elo(123.0)) - 123.0).abs() < 1e-9);
    }

    /// An NBoard engine under a fixed time a move is told, and may take on one move, the
    /// time of all its moves to come (it was cut off at twice the time a move, so engines
    /// that spent their bank lost games as hung).
    #[test]
    fn the_move_time_bank_covers_the_moves_to_come() {
        let t = Duration::from_millis(100);
        let mut game = Game::new(Variant::Othello);
        assert_eq!(move_time_bank(&game, t), t * 31);
        game.play(crate::square::Move::Play("f5".parse().unwrap()))
            .unwrap();
        assert_eq!(move_time_bank(&game, t), t * 31);
        game.play(crate::square::Move::Play("d6".parse().unwrap()))
            .unwrap();
        assert_eq!(move_time_bank(&game, t), t * 30);
    }

    /// What the NBoard engine reads off the game it is sent is its bank: the clock less
    /// its own time only (the opponent's time was counted too, so engines were told more
    /// than the wait and lost games as hung), with the fraction of a second kept.
    #[test]
    fn an_nboard_engine_is_told_its_bank() {
        let t = Duration::from_millis(100);
        let tc = TimeControl {
            move_time: Some(t),
            ..TimeControl::default()
        };
        let mut game = Game::new(Variant::Othello);
        for (i, sq) in ["f5", "d6", "c3", "d3", "c4"].iter().enumerate() {
            let mut record = MoveRecord::bare(Move::Play(sq.parse().unwrap()));
            record.time_s = Some(0.25 + i as f64);
            game.play_record(record).unwrap();
        }
        let sent = crate::formats::ggf::parse_game(&crate::formats::ggf::write(
            &external::nboard_game(&game, &tc),
        ))
        .unwrap();
        let color = game.side_to_move();
        let told = crate::protocol::game_clock(&sent, color).unwrap().remaining;
        let bank = move_time_bank(&game, t);
        assert!(
            told.abs_diff(bank) < Duration::from_millis(1),
            "{told:?} {bank:?}"
        );
    }

    #[test]
    fn specs_parse_and_reject() {
        let Ok(EngineSpec::Builtin(s)) = "name=d8,depth=8".parse() else {
            panic!()
        };
        assert_eq!(s.name, "d8");
        assert_eq!(s.limits.depth, Some(8));
        let Ok(EngineSpec::Builtin(t)) = "time=0.25,threads=2".parse() else {
            panic!()
        };
        assert_eq!(t.limits.move_time, Some(Duration::from_millis(250)));
        assert_eq!(t.engine.threads, 2);
        assert!("depth=x".parse::<EngineSpec>().is_err());
        assert!("eval=magic,depth=2".parse::<EngineSpec>().is_err());
        assert!("colour=red,depth=2".parse::<EngineSpec>().is_err());
        assert!("time=-1".parse::<EngineSpec>().is_err());
        let Ok(EngineSpec::External(x)) =
            "name=ntest,proto=nboard,cmd=./ntest x,dir=/opt/ntest".parse()
        else {
            panic!()
        };
        assert_eq!(x.name, "ntest");
        assert_eq!(x.cmd, "./ntest x");
        assert_eq!(x.proto, Proto::Nboard);
        assert_eq!(x.dir, Some("/opt/ntest".into()));
        let Ok(EngineSpec::External(g)) = "cmd=/usr/bin/edax -gtp,proto=GTP".parse() else {
            panic!()
        };
        assert_eq!((g.name.as_str(), g.proto), ("edax", Proto::Gtp));
        assert!("cmd=x,proto=uci".parse::<EngineSpec>().is_err());
        assert!("cmd=x,threads=2".parse::<EngineSpec>().is_err());
    }

    #[test]
    fn a_shallow_game_is_legal_and_scored() {
        let openings = random_openings(Variant::Othello, 3, 6, 1);
        assert_eq!(openings.len(), 3);
        let spec: EngineSpec = "depth=1,hash=1".parse().unwrap();
        let (mut a, mut b) = (Player::new(&spec), Player::new(&spec));
        let tc = TimeControl {
            max_move: Duration::from_secs(60),
            ..TimeControl::default()
        };
        let (game, forfeit) = play_game(&openings[0], [&mut a, &mut b], &tc);
        assert!(game.is_over() && forfeit.is_none());
        assert_eq!(
            score_for(&game, Color::Black),
            -score_for(&game, Color::White)
        );
        // Every move carries its time.
        assert!(
            game.moves()[6..]
                .iter()
                .all(|m| m.mv == Move::Pass || m.time_s.is_some())
        );
        // 1889 openings start from the empty board.
        let o1889 = random_openings(Variant::Reversi1889, 2, 8, 2);
        let (g, forfeit) = play_game(&o1889[1], [&mut a, &mut b], &tc);
        assert!(g.is_over() && g.variant() == Variant::Reversi1889 && forfeit.is_none());
        // Under a clock the built-in engine manages its time.
        let clocked = TimeControl {
            clock: Some((Duration::from_secs(2), Duration::ZERO)),
            ..tc
        };
        let free: EngineSpec = "name=free,hash=1".parse().unwrap();
        let (mut c, mut d) = (Player::new(&free), Player::new(&free));
        let (g, forfeit) = play_game(&openings[1], [&mut c, &mut d], &clocked);
        assert!(g.is_over() && forfeit.is_none(), "{forfeit:?}");
    }
}
