//! Matches between engines: built-in volte configurations, or external programs that
//! speak NBoard or GTP ([`external`]). Openings are played twice with colours swapped,
//! every move is checked by volte's own rules, an engine that plays an illegal move,
//! crashes, hangs or breaks the protocol loses that game with the reason, and the
//! statistics (score, Elo with its confidence interval, SPRT) say whether one engine is
//! stronger.

pub mod external;

use crate::engine::GameClock;
use crate::engine::{Engine, EngineOptions, Limits};
use crate::eval::EvalKind;
use crate::formats::transcript;
use crate::game::{Game, MoveRecord};
use crate::rules::Variant;
use crate::square::{Color, Move, Square};
use external::{ExternalPlayer, ExternalSpec, Proto};
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A built-in engine configuration.
#[derive(Clone, Debug)]
pub struct BuiltinSpec {
    pub name: String,
    pub limits: Limits,
    /// Its table, threads, evaluation (`eval=`, `evalfile=`) and book (`book=shipped` or
    /// `book=FILE`, none by default; `bookrandom=`).
    pub engine: EngineOptions,
    /// True when the spec sets its own depth, level, time or nodes.
    pub limited: bool,
}

/// An engine of a match.
#[derive(Clone, Debug)]
pub enum EngineSpec {
    Builtin(BuiltinSpec),
    External(ExternalSpec),
}

impl EngineSpec {
    pub fn name(&self) -> &str {
        match self {
            EngineSpec::Builtin(b) => &b.name,
            EngineSpec::External(e) => &e.name,
        }
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EngineSpec {
    type Err = String;

    /// `key=value` pairs separated by commas. An external engine has `cmd=` (program and
    /// arguments), `proto=nboard|gtp`, optionally `dir=` (working directory), `depth=`
    /// and `name=`: `name=ntest,proto=nboard,cmd=./ntest,dir=/opt/ntest`. A built-in one
    /// has `depth=8`, `level=12`, `time=0.5` (seconds per move), `nodes=N`,
    /// `selectivity=0..5`, `eval=classic`, `hash=MB`, `threads=N`, `name=...`; with a
    /// match clock (`--clock`) it needs none of depth, level, time and nodes.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let pairs: Vec<(&str, &str)> = s
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.split_once('=')
                    .ok_or_else(|| format!("'{p}' is not key=value"))
            })
            .collect::<Result<_, _>>()?;
        if pairs.iter().any(|(k, _)| k.trim() == "cmd") {
            return parse_external(&pairs).map(EngineSpec::External);
        }
        BuiltinSpec::from_str(s).map(EngineSpec::Builtin)
    }
}

fn parse_external(pairs: &[(&str, &str)]) -> Result<ExternalSpec, String> {
    let mut spec = ExternalSpec {
        name: String::new(),
        proto: Proto::Nboard,
        cmd: String::new(),
        dir: None,
        depth: None,
    };
    for &(key, value) in pairs {
        match key.trim() {
            "name" => spec.name = value.to_string(),
            "cmd" => spec.cmd = value.trim().to_string(),
            "dir" => spec.dir = Some(value.trim().into()),
            "proto" => {
                spec.proto = match value.trim().to_ascii_lowercase().as_str() {
                    "nboard" => Proto::Nboard,
                    "gtp" => Proto::Gtp,
                    other => return Err(format!("proto must be nboard or gtp, not '{other}'")),
                }
            }
            "depth" | "level" => {
                spec.depth = Some(
                    value
                        .trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|d| (1..=60).contains(d))
                        .ok_or_else(|| format!("depth must be 1 to 60, not '{value}'"))?,
                )
            }
            other => {
                return Err(format!(
                    "unknown key '{other}' for an external engine (known: name, cmd, proto, dir, depth)"
                ));
            }
        }
    }
    if spec.cmd.is_empty() {
        return Err("cmd= is empty".to_string());
    }
    if spec.name.is_empty() {
        spec.name = spec
            .cmd
            .split_whitespace()
            .next()
            .and_then(|p| std::path::Path::new(p).file_name())
            .map_or_else(|| spec.cmd.clone(), |n| n.to_string_lossy().into_owned());
    }
    Ok(spec)
}

impl FromStr for BuiltinSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut spec = BuiltinSpec {
            name: String::new(),
            limits: Limits::default(),
            engine: EngineOptions {
                hash_mb: MATCH_HASH_MB,
                ..EngineOptions::default()
            },
            limited: false,
        };
        let mut eval = EvalKind::default();
        let mut weights = None;
        let mut limited = false;
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not key=value"))?;
            let number = |what: &str| -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("{what} must be a whole number, not '{value}'"))
            };
            match key.trim() {
                "name" => spec.name = value.to_string(),
                "depth" => {
                    spec.limits.depth = Some(number("depth")?.clamp(1, 60) as u32);
                    limited = true;
                }
                "level" => {
                    spec.limits.level = Some(number("level")?.clamp(1, 60) as u32);
                    limited = true;
                }
                "time" => {
                    let secs: f64 = value
                        .parse()
                        .ok()
                        .filter(|t: &f64| t.is_finite() && *t > 0.0)
                        .ok_or_else(|| format!("time must be seconds > 0, not '{value}'"))?;
                    spec.limits.move_time = Some(Duration::from_secs_f64(secs));
                    limited = true;
                }
                "nodes" => {
                    spec.limits.nodes = Some(number("nodes")?);
                    limited = true;
                }
                "selectivity" => {
                    spec.limits.selectivity = Some(number("selectivity")?.min(5) as u8)
                }
                "eval" => eval = value.parse()?,
                "evalfile" => {
                    let w = crate::eval::PatternWeights::load(std::path::Path::new(value))
                        .map_err(|e| format!("{e:#}"))?;
                    weights = Some(std::sync::Arc::new(w));
                }
                "book" => {
                    spec.engine.book = match value {
                        "none" => None,
                        "shipped" => Some(
                            crate::book::Book::shipped(Variant::Othello)
                                .ok_or("volte was built without a book")?,
                        ),
                        path => Some(std::sync::Arc::new(
                            crate::book::Book::load(std::path::Path::new(path))
                                .map_err(|e| format!("{e:#}"))?,
                        )),
                    }
                }
                "bookrandom" => spec.engine.book_randomness = number("bookrandom")?.min(128) as i32,
                "hash" => spec.engine.hash_mb = number("hash")?.clamp(1, 1 << 16) as usize,
                "threads" => spec.engine.threads = number("threads")?.clamp(1, 256) as usize,
                other => {
                    return Err(format!(
                        "unknown key '{other}' (known: name, depth, level, time, nodes, \
                         selectivity, eval, evalfile, book, bookrandom, hash, threads)"
                    ));
                }
            }
        }
        spec.limited = limited;
        spec.engine.eval = match weights {
            Some(_) if eval == EvalKind::Classic => {
                return Err(
                    "evalfile gives pattern weights; it cannot go with eval=classic".into(),
                );
            }
            Some(w) => crate::eval::Evaluator::with_weights(w),
            None => crate::eval::Evaluator::new(eval),
        };
        if spec.name.is_empty() {
            spec.name = s.replace([',', '='], "");
        }
        Ok(spec)
    }
}

/// Reads openings, one transcript a line (the XOT format); blank lines and `#`/`%`
/// comments are skipped. Each must be legal under `variant`.
pub fn parse_openings(text: &str, variant: Variant) -> Result<Vec<Game>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // A comment may follow the transcript.
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let game = transcript::parse(line, variant).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(game);
    }
    Ok(out)
}

/// `count` distinct random openings of `plies` plies (deterministic for a seed).
pub fn random_openings(variant: Variant, count: usize, plies: usize, seed: u64) -> Vec<Game> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 100 {
        tries += 1;
        let mut game = Game::new(variant);
        while game.moves().len() < plies && !game.is_over() {
            if game.pass_if_forced() {
                continue;
            }
            let moves: Vec<u8> = crate::bitboard::Bits(game.legal_moves()).collect();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let x = moves[(rng % moves.len() as u64) as usize];
            game.play(Move::Play(Square::from_index(x)))
                .expect("a legal move");
        }
        if !game.is_over() && seen.insert(*game.current()) {
            out.push(game);
        }
    }
    out
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
            EngineSpec::Builtin(b) => {
                Player::Builtin(Box::new(build_engine(b)), Box::new(b.clone()))
            }
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

/// What [`balanced_openings`] looks for.
#[derive(Clone, Debug)]
pub struct OpeningsSpec {
    pub variant: Variant,
    pub count: usize,
    pub plies: usize,
    pub depth: u32,
    pub max_abs: i32,
    pub seed: u64,
    pub eval: crate::eval::Evaluator,
}

/// Balanced openings: random distinct lines of `plies` plies whose score, searched
/// `depth` plies deep without probable cuts, is within `max_abs` discs of even; `count`
/// of them (fewer if the candidates run out), each with its score. `progress(done)` after
/// every candidate searched.
pub fn balanced_openings(
    spec: &OpeningsSpec,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<(Game, i32)> {
    use rayon::prelude::*;
    let OpeningsSpec {
        variant,
        count,
        plies,
        depth,
        max_abs,
        seed,
        ref eval,
    } = *spec;
    let candidates = random_openings(variant, count * 4, plies, seed);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let limits = Limits {
        selectivity: Some(0),
        ..Limits::depth(depth)
    };
    let scored: Vec<(Game, i32)> = candidates
        .into_par_iter()
        .map_init(
            || {
                Engine::new(EngineOptions {
                    hash_mb: 16,
                    eval: eval.clone(),
                    ..EngineOptions::default()
                })
            },
            |engine, game| {
                engine.clear();
                let score = engine
                    .think_game(&game, &limits, &mut |_| {})
                    .map_or(0, |it| it.score);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                (game, score)
            },
        )
        .collect();
    scored
        .into_iter()
        .filter(|(_, v)| v.abs() <= max_abs)
        .take(count)
        .collect()
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
            (None, Some(t)) => t * 2,
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

/// How a match ends early: SPRT bounds on the Elo difference of the first engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl FromStr for Sprt {
    type Err = String;
    /// `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("'{x}' is not a number"))
            })
            .collect::<Result<_, _>>()?;
        match v[..] {
            [elo0, elo1, alpha, beta]
                if elo0 < elo1 && alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5 =>
            {
                Ok(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                })
            }
            _ => Err(
                "SPRT needs elo0,elo1,alpha,beta with elo0 < elo1 and 0 < alpha, beta < 0.5"
                    .to_string(),
            ),
        }
    }
}

/// The SPRT's verdict so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    Continue,
    /// Elo1 accepted (the first engine is better by elo1).
    AcceptH1,
    /// Elo0 accepted.
    AcceptH0,
}

impl Sprt {
    /// The log-likelihood ratio of `t` (normal approximation of the trinomial model) and
    /// the verdict it gives.
    pub fn test(&self, t: &Tally) -> (f64, SprtState) {
        let n = f64::from(t.games());
        if n < 2.0 {
            return (0.0, SprtState::Continue);
        }
        let p = t.score();
        let var = (f64::from(t.wins) * (1.0 - p).powi(2)
            + f64::from(t.draws) * (0.5 - p).powi(2)
            + f64::from(t.losses) * p.powi(2))
            / n;
        if var <= 0.0 {
            return (0.0, SprtState::Continue);
        }
        let s0 = score_of_elo(self.elo0);
        let s1 = score_of_elo(self.elo1);
        let llr = n * (s1 - s0) * (2.0 * p - s0 - s1) / (2.0 * var);
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let state = if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        };
        (llr, state)
    }
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
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
    use rayon::prelude::*;
    let jobs: Vec<(usize, bool)> = (0..openings.len())
        .flat_map(|i| [(i, true), (i, false)])
        .collect();
    let decided = AtomicBool::new(false);
    let tally = Mutex::new(Tally::default());
    let play = || {
        jobs.par_iter()
            .with_max_len(1)
            .map_init(
                || (Player::new(first), Player::new(second)),
                |(a, b), &(opening, first_is_black)| {
                    if decided.load(Ordering::Relaxed) {
                        return None;
                    }
                    // Book choices depend only on the game, not on which thread plays it.
                    let seed = (opening as u64) << 1 | u64::from(first_is_black);
                    a.seed_book(seed);
                    b.seed_book(seed ^ 0x5EED_0000_0000);
                    let (game, forfeit) = if first_is_black {
                        play_game(&openings[opening], [a, b], tc)
                    } else {
                        play_game(&openings[opening], [b, a], tc)
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
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    t.add(g.first_score);
                    if let Some(sprt) = sprt
                        && sprt.test(&t).1 != SprtState::Continue
                    {
                        decided.store(true, Ordering::Relaxed);
                    }
                    on_game(&g, &t);
                    drop(t);
                    Some(g)
                },
            )
            .collect::<Vec<_>>()
    };
    let games = match rayon::ThreadPoolBuilder::new()
        .num_threads(concurrency.max(1))
        .build()
    {
        Ok(pool) => pool.install(play),
        Err(_) => play(),
    };
    games.into_iter().flatten().collect()
}

/// The table of each built-in engine of a match unless `hash=` says otherwise, in MiB:
/// smaller than a GUI's, since several games may run at once.
pub const MATCH_HASH_MB: usize = 64;

/// Builds the engine of a built-in spec.
pub fn build_engine(spec: &BuiltinSpec) -> Engine {
    Engine::new(spec.engine.clone())
}

/// Wins, draws and losses of the first engine, and its disc differences.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub disc_sum: i64,
}

impl Tally {
    pub fn add(&mut self, first_score: i32) {
        match first_score.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
        self.disc_sum += i64::from(first_score);
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score of the first engine, from 0 to 1.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    pub fn mean_discs(&self) -> f64 {
        self.disc_sum as f64 / f64::from(self.games().max(1))
    }

    /// Elo difference of the first engine and its 95% confidence interval (from the
    /// spread of the game results), or `None` with no games.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let p = self.score();
        let var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let se = (var / n).sqrt();
        Some((
            elo_of_score(p),
            elo_of_score(p - 1.96 * se),
            elo_of_score(p + 1.96 * se),
        ))
    }
}

/// The Elo difference that predicts score `p` (infinite at 0 and 1, clamped to ±2000).
pub fn elo_of_score(p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    (-400.0 * (1.0 / p - 1.0).log10()).clamp(-2000.0, 2000.0)
}

/// Final disc difference of `game` for `color` under its variant's rule.
pub fn score_for(game: &Game, color: Color) -> i32 {
    let black = game.final_score_black().unwrap_or(0);
    if color == Color::Black { black } else { -black }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        };
        assert_eq!(sprt.test(&strong).1, SprtState::AcceptH1);
        let weak = Tally {
            wins: 180,
            draws: 20,
            losses: 300,
            disc_sum: 0,
        };
        assert_eq!(sprt.test(&weak).1, SprtState::AcceptH0);
        let few = Tally {
            wins: 3,
            draws: 0,
            losses: 2,
            disc_sum: 0,
        };
        assert_eq!(sprt.test(&few).1, SprtState::Continue);
        // Bounds: ln(0.05/0.95) and ln(0.95/0.05).
        assert!("10,0,0.05,0.05".parse::<Sprt>().is_err());
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of_score(score_of_elo(123.0)) - 123.0).abs() < 1e-9);
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
