//! Training the pattern evaluation (`volte train`).
//!
//! 1. Labels. Every position of a game is labelled, from the side to move's point of
//!    view, with the game's result; better, positions with at most `relabel_empties`
//!    empties get their exact score from the solver, and the earlier positions of the game
//!    get the exact score of its first such position (the result had both sides played
//!    perfectly from there, which removes endgame blunders). With `search_weight`, those
//!    earlier positions' labels move that share of the way to the search score recorded
//!    with their move (self-play records one). Solver labels are cached per game, so an
//!    interrupted run resumes where it stopped.
//! 2. Samples. Each position becomes its active weights (46 pattern instances, both
//!    mobilities, parity), the pattern configurations mapped to the representative of
//!    their mirror class. The instances of a pattern share its weights, so the eight
//!    symmetric images of a position have the same active weights: training on all eight
//!    is the same least-squares problem as training on one (eight times the rows, each
//!    repeated), and volte builds each position once.
//! 3. Fit. Each stage (two empties) is fitted by least squares with L2 regularisation,
//!    `(X^T X + ridge I) w = X^T y`, by conjugate gradients with a diagonal
//!    preconditioner, on the positions of its own and `window` neighbouring stages on each
//!    side (which smooths the weights from one stage to the next). Stages are fitted in
//!    parallel; each fitted stage is saved in the cache folder and reused on a resume.
//!    A test split (one game in `test_every`, by a hash of its moves) is held out; the mean
//!    absolute error per stage is reported for both parts.

use super::data::game_key;
use crate::board::Position;
use crate::engine::{Engine, SolveOptions};
use crate::eval::PatternWeights;
use crate::eval::pattern::{self, N_ACTIVE, N_STAGES, N_WEIGHTS, SCALE};
use crate::game::Game;
use crate::rules::{State, Variant};
use crate::square::Color;
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub variant: Variant,
    /// Positions with at most this many empties are labelled by the exact solver (0: none).
    pub relabel_empties: u32,
    /// One game in this many is held out for testing.
    pub test_every: u64,
    /// Stages pooled on each side of the stage being fitted.
    pub window: usize,
    /// L2 regularisation (added to the diagonal of `X^T X`).
    pub ridge: f64,
    /// Share of a move's recorded search score in the label of the position it was
    /// played from (before the solved part; the game's label has the rest).
    pub search_weight: f64,
    /// Conjugate-gradient iterations per stage.
    pub iterations: usize,
    /// Folder for the solver labels and fitted stages (resume), if any.
    pub cache: Option<PathBuf>,
    /// Extra games (self-play with random moves, say) as (first game index, most
    /// empties), in ascending order of index: from each index on, the games give only
    /// their positions with at most that many empties, and are never held out. The games
    /// before the first index are the main ones.
    pub limited: Vec<(usize, u32)>,
    /// A network over the features instead of linear tables, fitted so.
    pub network: Option<super::network::NetworkOptions>,
}

impl TrainOptions {
    /// The most empties of the positions game `i` gives, if it is an extra game.
    fn limit(&self, i: usize) -> Option<u32> {
        self.limited
            .iter()
            .rev()
            .find(|&&(from, _)| i >= from)
            .map(|&(_, max)| max)
    }
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            variant: Variant::Othello,
            relabel_empties: 16,
            test_every: 20,
            window: 1,
            ridge: 4.0,
            search_weight: 0.0,
            iterations: 60,
            cache: None,
            limited: Vec::new(),
            network: None,
        }
    }
}

pub use crate::progress::{Progress, Quiet};

/// Errors of one stage.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageReport {
    pub n_train: usize,
    pub n_test: usize,
    /// Mean absolute error (discs) of the rounded evaluation against the labels.
    pub mae_train: f64,
    pub mae_test: f64,
    /// Fitted now (false: read from the cache).
    pub fitted: bool,
}

/// What training produced.
pub struct TrainOutput {
    pub weights: PatternWeights,
    pub stages: Vec<StageReport>,
    pub games_train: usize,
    pub games_test: usize,
    pub relabelled_games: usize,
}

/// Labels of one game, black's point of view: the result used before the solved part and
/// the exact scores of the solved positions (plies `first_solved..`, game-over
/// positions excluded).
#[derive(Clone, Debug, PartialEq)]
struct GameLabels {
    base: i32,
    first_solved: usize,
    solved: Vec<i8>,
}

fn black_view(score: i32, side: Color) -> i32 {
    if side == Color::Black { score } else { -score }
}

/// The plies of `game` whose positions are labelled by the solver.
fn solved_plies(game: &Game, relabel: u32) -> Vec<usize> {
    if relabel == 0 {
        return Vec::new();
    }
    let v = game.variant();
    game.states()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.pos.n_empties() <= relabel && !v.is_game_over(s))
        .map(|(i, _)| i)
        .collect()
}

fn label_game(game: &Game, relabel: u32, solver: &Engine) -> GameLabels {
    let final_black = game.final_score_black().unwrap_or(0);
    let plies = solved_plies(game, relabel);
    let mut solved = Vec::with_capacity(plies.len());
    for &ply in &plies {
        let r = solver.solve(
            game.variant(),
            &game.states()[ply],
            &SolveOptions::default(),
        );
        solved.push(black_view(r.score, game.side_at(ply)) as i8);
    }
    GameLabels {
        base: solved.first().map_or(final_black, |&s| i32::from(s)),
        first_solved: plies.first().copied().unwrap_or(usize::MAX),
        solved,
    }
}

/// The label cache: one record per game, `key (u64) | count (u8) | count x i8`.
struct LabelCache {
    file: Option<Mutex<std::fs::File>>,
    known: HashMap<u64, Vec<i8>>,
}

impl LabelCache {
    fn open(dir: Option<&Path>, variant: Variant, relabel: u32) -> Result<LabelCache> {
        let Some(dir) = dir else {
            return Ok(LabelCache {
                file: None,
                known: HashMap::new(),
            });
        };
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(format!("labels-{}-{relabel}.bin", variant.name()));
        let mut known = HashMap::new();
        if let Ok(bytes) = std::fs::read(&path) {
            let mut i = 0;
            let mut good = 0;
            while i + 9 <= bytes.len() {
                let key = u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
                let n = bytes[i + 8] as usize;
                if i + 9 + n > bytes.len() {
                    break;
                }
                known.insert(
                    key,
                    bytes[i + 9..i + 9 + n].iter().map(|&b| b as i8).collect(),
                );
                i += 9 + n;
                good = i;
            }
            if good < bytes.len() {
                // A record cut by an interruption: drop it.
                let f = std::fs::OpenOptions::new().write(true).open(&path)?;
                f.set_len(good as u64)?;
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(LabelCache {
            file: Some(Mutex::new(file)),
            known,
        })
    }

    fn append(&self, records: &[(u64, Vec<i8>)]) -> Result<()> {
        if let Some(file) = &self.file {
            let mut bytes = Vec::new();
            for (key, scores) in records {
                bytes.extend_from_slice(&key.to_le_bytes());
                bytes.push(scores.len() as u8);
                bytes.extend(scores.iter().map(|&s| s as u8));
            }
            let mut f = file.lock().expect("cache lock");
            f.write_all(&bytes)?;
            f.flush()?;
        }
        Ok(())
    }
}

/// Labels every game: from the cache when it has the game, by the solver otherwise.
fn label_games(
    games: &[Game],
    options: &TrainOptions,
    progress: &dyn Progress,
) -> Result<(Vec<GameLabels>, usize)> {
    let relabel = options.relabel_empties;
    let cache = LabelCache::open(options.cache.as_deref(), options.variant, relabel)?;
    let mut labels: Vec<Option<GameLabels>> = vec![None; games.len()];
    let mut todo = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let plies = solved_plies(g, relabel);
        let final_black = g.final_score_black().unwrap_or(0);
        if plies.is_empty() {
            labels[i] = Some(GameLabels {
                base: final_black,
                first_solved: usize::MAX,
                solved: Vec::new(),
            });
        } else if let Some(s) = cache
            .known
            .get(&game_key(g))
            .filter(|s| s.len() == plies.len())
        {
            labels[i] = Some(GameLabels {
                base: i32::from(s[0]),
                first_solved: plies[0],
                solved: s.clone(),
            });
        } else {
            todo.push(i);
        }
    }
    let relabelled = games.len() - labels.iter().filter(|l| l.is_none()).count() + todo.len();
    progress.start("solving endgames", todo.len() as u64);
    for chunk in todo.chunks(4096) {
        let done: Vec<(usize, GameLabels)> = chunk
            .par_iter()
            .map_init(
                || Engine::with_hash(16),
                |solver, &i| {
                    let l = label_game(&games[i], relabel, solver);
                    progress.tick(1);
                    (i, l)
                },
            )
            .collect();
        let records: Vec<(u64, Vec<i8>)> = done
            .iter()
            .map(|(i, l)| (game_key(&games[*i]), l.solved.clone()))
            .collect();
        cache.append(&records)?;
        for (i, l) in done {
            labels[i] = Some(l);
        }
    }
    progress.finish();
    Ok((
        labels
            .into_iter()
            .map(|l| l.expect("every game labelled"))
            .collect(),
        relabelled,
    ))
}

/// Training rows sorted by stage: each position with its label. A row's features
/// (its active weights mapped to their mirror class's representatives) are computed when
/// they are read, so that a row takes 20 bytes instead of the 196 of its features, and
/// tens of millions of positions fit in memory.
pub(super) struct Rows {
    positions: Vec<Position>,
    pub(super) targets: Vec<f32>,
    /// `start[s]..start[s + 1]` are stage `s`'s rows.
    start: Vec<usize>,
    /// Each feature's mirror class representative ([`pattern::canonical_net`], whose
    /// first [`N_WEIGHTS`] are [`pattern::canonical`]).
    canon: Vec<u32>,
}

impl Rows {
    fn build(mut rows: Vec<(u8, Position, f32)>, canon: Vec<u32>) -> Rows {
        rows.sort_by_key(|r| r.0);
        let mut start = vec![0; N_STAGES + 1];
        for r in &rows {
            start[r.0 as usize + 1] += 1;
        }
        for s in 0..N_STAGES {
            start[s + 1] += start[s];
        }
        let targets = rows.iter().map(|r| r.2).collect();
        let positions = rows.into_iter().map(|r| r.1).collect();
        Rows {
            positions,
            targets,
            start,
            canon,
        }
    }

    pub(super) fn range(&self, from: usize, to: usize) -> std::ops::Range<usize> {
        self.start[from]..self.start[to + 1]
    }

    /// Row `i`'s features: the active weights of its position, each mapped to its class
    /// representative.
    #[inline]
    pub(super) fn features(&self, i: usize) -> [u32; N_ACTIVE] {
        let pos = &self.positions[i];
        let mut f = pattern::active(pos, pos.legal_moves(), pos.opponent_moves());
        for x in f.iter_mut() {
            *x = self.canon[*x as usize];
        }
        f
    }

    /// Row `i`'s features for the extended network ([`pattern::active_net`]), each
    /// mapped to its class representative.
    #[inline]
    pub(super) fn features_net(&self, i: usize) -> [u32; pattern::N_NET_ACTIVE] {
        let pos = &self.positions[i];
        let mut f = pattern::active_net(pos, pos.legal_moves(), pos.opponent_moves());
        for x in f.iter_mut() {
            *x = self.canon[*x as usize];
        }
        f
    }
}

/// The ply of the first move of `game` that carries a score, 0 when none does: in a
/// self-play game the moves before it were played at random, so the positions they lead
/// to are labelled by a result that random moves still decided.
pub fn first_scored_ply(game: &Game) -> usize {
    game.moves()
        .iter()
        .position(|m| m.eval.is_some())
        .unwrap_or(0)
}

/// The positions of `game` that train the evaluation: (stage, position, label for the
/// side to move).
/// Only positions with at most `max_empties` empties, from ply `from` on, are kept.
fn game_rows(
    game: &Game,
    labels: &GameLabels,
    max_empties: u32,
    from: usize,
    search_weight: f64,
) -> Vec<(u8, Position, f32)> {
    let v = game.variant();
    let mut out = Vec::with_capacity(game.states().len());
    let mut solved = labels.solved.iter();
    for (ply, s) in game.states().iter().enumerate() {
        let n = s.pos.n_empties();
        let over = v.is_game_over(s);
        let black = if ply >= labels.first_solved && !over {
            i32::from(*solved.next().expect("one label per solved ply"))
        } else {
            labels.base
        };
        if over || n == 0 || n > max_empties.min(60) || ply < from {
            continue;
        }
        let mut y = f64::from(black_view(black, game.side_at(ply)));
        if ply < labels.first_solved
            && search_weight > 0.0
            && let Some(e) = game.moves().get(ply).and_then(|m| m.eval)
        {
            y = search_weight * e.clamp(-64.0, 64.0) + (1.0 - search_weight) * y;
        }
        out.push((pattern::stage(n) as u8, s.pos, y as f32));
    }
    out
}

/// Solves `(X^T X + ridge I) w = X^T y` over the rows with features `feats` and labels
/// `ys` by preconditioned conjugate gradients.
fn fit_stage(feats: &[[u32; N_ACTIVE]], ys: &[f32], ridge: f64, iterations: usize) -> Vec<f64> {
    let mut diag = vec![ridge; N_WEIGHTS];
    let mut b = vec![0.0f64; N_WEIGHTS];
    for (f, &y) in feats.iter().zip(ys) {
        for &j in f {
            diag[j as usize] += 1.0;
            b[j as usize] += f64::from(y);
        }
    }
    let mut w = vec![0.0f64; N_WEIGHTS];
    let mut r = b;
    let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut ap = vec![0.0f64; N_WEIGHTS];
    for _ in 0..iterations {
        if rz <= 1e-12 {
            break;
        }
        // ap = X^T X p + ridge p
        for (a, &pj) in ap.iter_mut().zip(&p) {
            *a = ridge * pj;
        }
        for f in feats {
            let q: f64 = f.iter().map(|&j| p[j as usize]).sum();
            for &j in f {
                ap[j as usize] += q;
            }
        }
        let pap: f64 = p.iter().zip(&ap).map(|(a, b)| a * b).sum();
        if pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for j in 0..N_WEIGHTS {
            w[j] += alpha * p[j];
            r[j] -= alpha * ap[j];
            z[j] = r[j] / diag[j];
        }
        let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for j in 0..N_WEIGHTS {
            p[j] = z[j] + beta * p[j];
        }
    }
    w
}

/// The rounded, clamped evaluation of a row by an integer stage table.
fn predict(table: &[i16], f: &[u32; N_ACTIVE]) -> i32 {
    let sum: i32 = f.iter().map(|&j| i32::from(table[j as usize])).sum();
    crate::eval::round_scaled(sum, SCALE).clamp(-64, 64)
}

fn mae(table: &[i16], rows: &Rows, range: std::ops::Range<usize>) -> f64 {
    if range.is_empty() {
        return 0.0;
    }
    let n = range.len();
    let total: f64 = range
        .map(|i| f64::from((predict(table, &rows.features(i)) - rows.targets[i] as i32).abs()))
        .sum();
    total / n as f64
}

/// A fingerprint of the training set and options, so cached stages of another run are
/// not reused.
fn fingerprint(rows: &Rows, options: &TrainOptions) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    };
    eat(u64::from(pattern::PATTERN_SET_ID));
    eat(options.window as u64);
    eat(options.ridge.to_bits());
    eat(options.search_weight.to_bits());
    eat(options.iterations as u64);
    eat(options.test_every);
    eat(u64::from(options.relabel_empties));
    for &s in &rows.start {
        eat(s as u64);
    }
    for &t in rows.targets.iter().step_by(97) {
        eat(u64::from(t.to_bits()));
    }
    h
}

fn stage_cache_path(dir: &Path, variant: Variant, stage: usize) -> PathBuf {
    dir.join(format!("stage-{}-{stage:02}.bin", variant.name()))
}

fn load_stage(path: &Path, print: u64) -> Option<Vec<i16>> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.len() != 8 + 2 * N_WEIGHTS || bytes[..8] != print.to_le_bytes() {
        return None;
    }
    Some(
        bytes[8..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect(),
    )
}

fn save_stage(path: &Path, print: u64, table: &[i16]) -> Result<()> {
    let mut bytes = print.to_le_bytes().to_vec();
    for w in table {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Trains the pattern weights of `options.variant` on `games`.
pub fn train(
    games: &[Game],
    options: &TrainOptions,
    progress: &dyn Progress,
) -> Result<TrainOutput> {
    let (labels, relabelled) = label_games(games, options, progress)?;
    let test_every = options.test_every.max(1);
    let is_test = |i: usize, g: &Game| {
        options.limit(i).is_none() && test_every > 1 && game_key(g).is_multiple_of(test_every)
    };
    let games_test = games
        .iter()
        .enumerate()
        .filter(|&(i, g)| is_test(i, g))
        .count();
    let build = |test: bool| {
        Rows::build(
            games
                .par_iter()
                .enumerate()
                .zip(&labels)
                .filter(|((i, g), _)| is_test(*i, g) == test)
                .flat_map_iter(|((i, g), l)| {
                    // Extra (self-play) games: not the positions of their random opening.
                    let (max_empties, from) = match options.limit(i) {
                        Some(limit) => (limit, first_scored_ply(g)),
                        None => (60, 0),
                    };
                    game_rows(g, l, max_empties, from, options.search_weight)
                })
                .collect(),
            pattern::canonical_net(),
        )
    };
    let train_rows = build(false);
    let test_rows = build(true);
    if let Some(net_options) = &options.network {
        let net = super::network::fit(
            &train_rows,
            &test_rows,
            net_options,
            progress,
            &mut |line| progress.note(&line),
        );
        let stages = (0..N_STAGES)
            .map(|s| StageReport {
                n_train: train_rows.range(s, s).len(),
                n_test: test_rows.range(s, s).len(),
                mae_train: super::network::network_mae(&net, &train_rows, s, 20_000),
                mae_test: super::network::network_mae(&net, &test_rows, s, usize::MAX),
                fitted: true,
            })
            .collect();
        return Ok(TrainOutput {
            weights: PatternWeights::network(options.variant, net),
            stages,
            games_train: games.len() - games_test,
            games_test,
            relabelled_games: relabelled,
        });
    }
    let print = fingerprint(&train_rows, options);

    progress.start("fitting stages", N_STAGES as u64);
    let fitted: Vec<Result<(Vec<i16>, bool)>> = (0..N_STAGES)
        .into_par_iter()
        .map(|s| {
            let path = options
                .cache
                .as_deref()
                .map(|d| stage_cache_path(d, options.variant, s));
            if let Some(t) = path.as_deref().and_then(|p| load_stage(p, print)) {
                progress.tick(1);
                return Ok((t, false));
            }
            let from = s.saturating_sub(options.window);
            let to = (s + options.window).min(N_STAGES - 1);
            // This stage's features only (the rows hold positions).
            let range = train_rows.range(from, to);
            let feats: Vec<[u32; N_ACTIVE]> =
                range.clone().map(|i| train_rows.features(i)).collect();
            let w = fit_stage(
                &feats,
                &train_rows.targets[range],
                options.ridge,
                options.iterations,
            );
            // Every member of a mirror class gets its representative's weight.
            let table: Vec<i16> = (0..N_WEIGHTS)
                .map(|j| {
                    (w[train_rows.canon[j] as usize] * f64::from(SCALE))
                        .round()
                        .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
                })
                .collect();
            if let Some(p) = &path {
                save_stage(p, print, &table)?;
            }
            progress.tick(1);
            Ok((table, true))
        })
        .collect();
    progress.finish();

    let mut weights = PatternWeights::zeros(options.variant);
    let mut stages = Vec::with_capacity(N_STAGES);
    for (s, result) in fitted.into_iter().enumerate() {
        let (table, fitted) = result?;
        weights.stage_mut(s).copy_from_slice(&table);
        stages.push(StageReport {
            n_train: train_rows.range(s, s).len(),
            n_test: test_rows.range(s, s).len(),
            mae_train: mae(&table, &train_rows, train_rows.range(s, s)),
            mae_test: mae(&table, &test_rows, test_rows.range(s, s)),
            fitted,
        });
    }
    Ok(TrainOutput {
        weights,
        stages,
        games_train: games.len() - games_test,
        games_test,
        relabelled_games: relabelled,
    })
}

/// One held-out position solved exactly, with both evaluations' errors.
#[derive(Clone, Debug)]
pub struct ExactCheck {
    pub n: usize,
    /// Mean absolute error against the exact score, per evaluation given.
    pub mae: Vec<f64>,
}

/// Solves up to `count` positions with 20 to `max_empties` empties from the held-out
/// games and measures each evaluator's mean absolute error against the exact scores.
/// Scores are cached in the cache folder.
pub fn exact_check(
    games: &[Game],
    options: &TrainOptions,
    evaluators: &[crate::eval::Evaluator],
    count: usize,
    max_empties: u32,
    progress: &dyn Progress,
) -> Result<ExactCheck> {
    let test_every = options.test_every.max(1);
    let mut picks: Vec<(u64, Variant, State)> = Vec::new();
    for g in games
        .iter()
        .filter(|g| test_every > 1 && game_key(g).is_multiple_of(test_every))
    {
        // One position per game, its empties spread over 20..=max_empties by the key.
        let key = game_key(g);
        let want = 20 + (key / test_every % u64::from(max_empties.max(20) - 19)) as u32;
        if let Some(s) = g
            .states()
            .iter()
            .find(|s| s.pos.n_empties() == want && !g.variant().is_game_over(s))
        {
            picks.push((key ^ u64::from(want), g.variant(), *s));
        }
        if picks.len() == count {
            break;
        }
    }
    let path = options
        .cache
        .as_deref()
        .map(|d| d.join(format!("exact-{}.bin", options.variant.name())));
    let mut known: HashMap<u64, i8> = HashMap::new();
    if let Some(bytes) = path.as_deref().and_then(|p| std::fs::read(p).ok()) {
        for c in bytes.chunks_exact(9) {
            known.insert(
                u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
                c[8] as i8,
            );
        }
    }
    let todo: Vec<usize> = (0..picks.len())
        .filter(|&i| !known.contains_key(&picks[i].0))
        .collect();
    progress.start("solving held-out positions", todo.len() as u64);
    let file = match &path {
        Some(p) => Some(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot write {}", p.display()))?,
        )),
        None => None,
    };
    let solved: Vec<(u64, i8)> = todo
        .par_iter()
        .map_init(
            || Engine::with_hash(64),
            |solver, &i| {
                let (key, v, s) = &picks[i];
                let score = solver.solve(*v, s, &SolveOptions::default()).score as i8;
                solver.clear();
                if let Some(f) = &file {
                    let mut rec = key.to_le_bytes().to_vec();
                    rec.push(score as u8);
                    let _ = f.lock().expect("cache lock").write_all(&rec);
                }
                progress.tick(1);
                (*key, score)
            },
        )
        .collect();
    progress.finish();
    known.extend(solved);
    let mut mae = vec![0.0; evaluators.len()];
    for (key, v, s) in &picks {
        let exact = i32::from(known[key]);
        for (e, m) in evaluators.iter().zip(mae.iter_mut()) {
            *m += f64::from((e.evaluate_variant(*v, s) - exact).abs());
        }
    }
    let n = picks.len();
    for m in mae.iter_mut() {
        *m /= n.max(1) as f64;
    }
    Ok(ExactCheck { n, mae })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjugate_gradients_fit_a_planted_model() {
        // Rows whose label is the sum of planted weights over their active indices.
        let canon: Vec<u32> = (0..N_WEIGHTS as u32).collect();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let planted: Vec<f64> = (0..200).map(|i| f64::from(i % 7) - 3.0).collect();
        let (mut feats, mut ys) = (Vec::new(), Vec::new());
        for _ in 0..4000 {
            let mut f = [0u32; N_ACTIVE];
            let mut y = 0.0;
            for v in f.iter_mut() {
                *v = canon[(next() % 200) as usize];
                y += planted[*v as usize];
            }
            feats.push(f);
            ys.push(y as f32);
        }
        let w = fit_stage(&feats, &ys, 1e-6, 200);
        // The model is determined up to the data; predictions must match the labels.
        let mut worst: f64 = 0.0;
        for (f, &y) in feats.iter().zip(&ys) {
            let p: f64 = f.iter().map(|&j| w[j as usize]).sum();
            worst = worst.max((p - f64::from(y)).abs());
        }
        assert!(worst < 0.01, "worst residual {worst}");
    }

    /// A game of pseudo-random moves.
    fn random_game(seed: u64) -> Game {
        let mut x = seed | 1;
        let mut game = Game::new(Variant::Othello);
        while !game.is_over() {
            if !game.pass_if_forced() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let moves = game.legal_moves();
                let k = (x % u64::from(moves.count_ones())) as usize;
                let sq = crate::bitboard::Bits(moves).nth(k).unwrap();
                game.play(crate::square::Move::Play(
                    crate::square::Square::from_index(sq),
                ))
                .unwrap();
            }
        }
        game
    }

    #[test]
    fn extra_games_give_only_their_positions_near_the_end_and_are_never_held_out() {
        let games: Vec<Game> = (1..=40).map(random_game).collect();
        let options = TrainOptions {
            relabel_empties: 0,
            test_every: 3,
            iterations: 2,
            limited: vec![(20, 10), (30, 20)],
            ..TrainOptions::default()
        };
        let out = train(&games, &options, &Quiet).unwrap();
        // Positions (game over excluded) per stage of the given games.
        let count = |games: &[Game], max_empties: u32, stage: usize| -> usize {
            games
                .iter()
                .flat_map(|g| g.states())
                .filter(|s| {
                    let n = s.pos.n_empties();
                    n > 0
                        && n <= max_empties
                        && !Variant::Othello.is_game_over(s)
                        && pattern::stage(n) == stage
                })
                .count()
        };
        let is_test = |g: &&Game| game_key(g).is_multiple_of(3);
        let main_test: Vec<Game> = games[..20].iter().filter(is_test).cloned().collect();
        let main_train: Vec<Game> = games[..20]
            .iter()
            .filter(|g| !is_test(g))
            .cloned()
            .collect();
        assert!(!main_test.is_empty() && !main_train.is_empty());
        assert_eq!(out.games_test, main_test.len());
        for (s, r) in out.stages.iter().enumerate() {
            let extra = count(&games[20..30], 10, s) + count(&games[30..], 20, s);
            assert_eq!(r.n_test, count(&main_test, 60, s), "stage {s}");
            assert_eq!(r.n_train, count(&main_train, 60, s) + extra, "stage {s}");
            // Stages 0-9 hold 1-20 empties: the extra games' positions are there only.
            assert_eq!(extra > 0, s < 10, "stage {s}");
        }
    }

    #[test]
    fn a_network_learns_the_training_positions() {
        network_learns(1, false);
    }

    #[test]
    fn a_network_of_three_row_sets_learns_the_training_positions() {
        network_learns(3, false);
    }

    #[test]
    fn a_network_of_the_extended_features_learns_the_training_positions() {
        network_learns(1, true);
    }

    fn network_learns(sets: usize, extended: bool) {
        let games: Vec<Game> = (1..=300).map(random_game).collect();
        let options = TrainOptions {
            relabel_empties: 0,
            test_every: 10,
            network: Some(super::super::network::NetworkOptions {
                epochs: 8,
                batch: 64,
                learning_rate: 1e-2,
                seed: 3,
                sets,
                extended,
            }),
            ..TrainOptions::default()
        };
        let out = train(&games, &options, &Quiet).unwrap();
        assert_eq!(out.weights.as_network().map(|n| n.sets()), Some(sets));
        assert_eq!(
            out.weights.as_network().map(|n| n.is_extended()),
            Some(extended)
        );
        // Labels are the games' results; always answering 0 errs by their mean size.
        let mean_label = games
            .iter()
            .flat_map(|g| {
                let result = g.final_score_black().expect("finished");
                (0..g.states().len()).map(move |ply| black_view(result, g.side_at(ply)).abs())
            })
            .sum::<i32>() as f64
            / games.iter().map(|g| g.states().len()).sum::<usize>() as f64;
        let (mut err, mut n) = (0.0, 0);
        for r in &out.stages {
            err += r.mae_train * r.n_train as f64;
            n += r.n_train;
        }
        let err = err / n as f64;
        assert!(
            err < 0.6 * mean_label,
            "training error {err:.2} against {mean_label:.2} for zero"
        );
    }

    /// A game played to the end by always taking the lowest legal square, each move
    /// recorded with `eval`.
    fn lowest_square_game(eval: Option<f64>) -> Game {
        let mut game = Game::new(Variant::Othello);
        while !game.is_over() {
            if !game.pass_if_forced() {
                let sq = game.legal_moves().trailing_zeros() as u8;
                game.play_record(crate::game::MoveRecord {
                    mv: crate::square::Move::Play(crate::square::Square::from_index(sq)),
                    eval,
                    time_s: None,
                })
                .unwrap();
            }
        }
        game
    }

    #[test]
    fn labels_follow_the_side_to_move_and_the_solver() {
        let game = lowest_square_game(None);
        let solver = Engine::with_hash(4);
        let l = label_game(&game, 8, &solver);
        let plies = solved_plies(&game, 8);
        assert_eq!(l.solved.len(), plies.len());
        // The solved position's label is its exact score from black's side.
        for (k, &ply) in plies.iter().enumerate() {
            let s = &game.states()[ply];
            let exact = solver
                .solve(Variant::Othello, s, &SolveOptions::default())
                .score;
            assert_eq!(i32::from(l.solved[k]), black_view(exact, game.side_at(ply)));
        }
        // Without relabelling every position carries the final result.
        let l0 = label_game(&game, 0, &solver);
        assert_eq!(l0.base, game.final_score_black().unwrap());
        let rows = game_rows(&game, &l0, 60, 0, 0.0);
        for (i, r) in rows.iter().enumerate() {
            let side = game.side_at(i);
            assert_eq!(r.2 as i32, black_view(l0.base, side));
        }
    }

    #[test]
    fn recorded_search_scores_share_the_label_before_the_solved_part() {
        // Every move carries a score of 10 discs for its mover.
        let game = lowest_square_game(Some(10.0));
        let solver = Engine::with_hash(4);
        let l = label_game(&game, 8, &solver);
        let plain = game_rows(&game, &l, 60, 0, 0.0);
        let mixed = game_rows(&game, &l, 60, 0, 0.25);
        assert_eq!(plain.len(), game.states().len() - 1, "one row a ply");
        assert!(l.first_solved > 20 && l.first_solved < plain.len());
        for (ply, (p, m)) in plain.iter().zip(&mixed).enumerate() {
            assert_eq!(p.1, m.1);
            if ply < l.first_solved && game.moves()[ply].eval.is_some() {
                // A quarter of the way from the game's label to the search score.
                assert!((m.2 - (2.5 + 0.75 * p.2)).abs() < 1e-4, "ply {ply}");
            } else {
                // Passes carry no score; the solved part keeps the solver's label.
                assert_eq!(m.2, p.2, "ply {ply}");
            }
        }
    }

    /// The positions of a self-play game's random opening (moves without a score) are
    /// left out of the rows of an extra game.
    #[test]
    fn random_openings_of_extra_games_give_no_rows() {
        let mut game = lowest_square_game(Some(3.0));
        let records: Vec<crate::game::MoveRecord> = game.moves().to_vec();
        while game.undo().is_some() {}
        for (ply, r) in records.iter().enumerate() {
            let eval = if ply < 17 { None } else { r.eval };
            game.play_record(crate::game::MoveRecord { eval, ..*r })
                .unwrap();
        }
        assert_eq!(first_scored_ply(&game), 17);
        assert_eq!(first_scored_ply(&lowest_square_game(None)), 0);
        let solver = Engine::with_hash(4);
        let l = label_game(&game, 8, &solver);
        let all = game_rows(&game, &l, 60, 0, 0.0);
        let scored = game_rows(&game, &l, 60, 17, 0.0);
        assert_eq!(scored.len(), all.len() - 17);
        assert_eq!(&all[17..], &scored[..]);
    }
}
