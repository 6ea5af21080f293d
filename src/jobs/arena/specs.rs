//! The engines of a match as the command line gives them: built-in configurations
//! (`key=value` pairs) and external NBoard/GTP programs.

use super::external::{ExternalSpec, Proto};
use crate::engine::{Engine, EngineOptions, Limits};
use crate::eval::EvalKind;
use crate::rules::Variant;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

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
    Builtin(Box<BuiltinSpec>),
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
        BuiltinSpec::from_str(s).map(|b| EngineSpec::Builtin(Box::new(b)))
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
            Some(_) if eval != EvalKind::Pattern => {
                return Err(format!(
                    "evalfile gives the evaluation's weights; it cannot go with eval={eval}"
                ));
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

/// The table of each built-in engine of a match unless `hash=` says otherwise, in MiB:
/// smaller than a GUI's, since several games may run at once.
pub const MATCH_HASH_MB: usize = 64;

/// Builds the engine of a built-in spec.
pub fn build_engine(spec: &BuiltinSpec) -> Engine {
    Engine::new(spec.engine.clone())
}
