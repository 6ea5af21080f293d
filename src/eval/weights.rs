//! Pattern weight tables and their file format.
//!
//! A weight file is a 24-byte header followed by the weights compressed with zlib (whose
//! checksum catches corruption):
//!
//! | bytes | field |
//! |-------|-------|
//! | 0-7   | magic `VOLTEVAL` |
//! | 8-11  | format version (u32 LE, [`FORMAT_VERSION`]) |
//! | 12-15 | pattern-set id (u32 LE, [`pattern::PATTERN_SET_ID`]) |
//! | 16    | variant (0 Othello, 1 Anti, 2 Reversi 1889) |
//! | 17    | number of stages |
//! | 18-19 | scale: weights are in 1/scale disc (u16 LE) |
//! | 20-23 | weights per stage (u32 LE) |
//!
//! then `stages * weights per stage` i16 LE values, stage by stage, zlib-compressed.
//! A file that starts with `VOLTENET` holds a network over the same features instead
//! ([`super::network`]): magic, format version, pattern-set id (u32 LE each; a network
//! over the extended features, which adds the instances of two more patterns, has
//! [`pattern::NET_EXTENDED_SET_ID`]), variant, width, hidden units, phases (u8 each), rows
//! (u32 LE), then the zlib-compressed network.
//! The shipped files are embedded in the binary; `--eval-file` loads another one.

use super::network::{self, Network};
use super::pattern::{self, N_STAGES, N_WEIGHTS, SCALE};
use crate::board::Position;
use crate::rules::Variant;
use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"VOLTEVAL";
/// The first bytes of a network file.
pub const NETWORK_MAGIC: &[u8; 8] = b"VOLTENET";
/// The version of the layout this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 24;

/// Why a weight file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightFileError {
    #[error("not a volte weight file (it does not start with VOLTEVAL or VOLTENET)")]
    NotWeightFile,
    #[error("the file is truncated: its header needs {HEADER_LEN} bytes")]
    Truncated,
    #[error("format version {0}; this volte reads version {FORMAT_VERSION}")]
    Version(u32),
    #[error(
        "pattern set {found:#010x}; this volte evaluates pattern set {expected:#010x} (the file was trained for another build)"
    )]
    PatternSet { found: u32, expected: u32 },
    #[error("unknown variant code {0}")]
    Variant(u8),
    #[error(
        "the file has {stages} stages of {weights} weights at scale {scale}; this volte needs {N_STAGES} stages of {N_WEIGHTS} at scale {SCALE}"
    )]
    Shape {
        stages: u8,
        weights: u32,
        scale: u16,
    },
    #[error(
        "the network has width {width}, {hidden} hidden units, {buckets} phases and {rows} rows; this volte needs {}, {}, {} and {N_WEIGHTS} rows ({} with the extended features) in each of 1, 3, 5 or 15 sets",
        network::WIDTH,
        network::HIDDEN,
        network::BUCKETS,
        pattern::N_NET_WEIGHTS
    )]
    NetworkShape {
        width: u8,
        hidden: u8,
        buckets: u8,
        rows: u32,
    },
    #[error("the weights are corrupt: {0}")]
    Corrupt(String),
}

/// The weights of one variant: a table per stage (the linear pattern evaluation), or a
/// network over the same features.
#[derive(Clone, PartialEq)]
pub struct PatternWeights {
    variant: Variant,
    model: Model,
}

#[derive(Clone, PartialEq)]
enum Model {
    /// `N_STAGES` tables of `N_WEIGHTS`.
    Linear(Vec<i16>),
    Network(Box<Network>),
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.model {
            Model::Linear(_) => "linear",
            Model::Network(_) => "network",
        };
        write!(f, "PatternWeights({}, {kind})", self.variant)
    }
}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Othello => 0,
        Variant::Anti => 1,
        Variant::Reversi1889 => 2,
    }
}

impl PatternWeights {
    /// All weights zero.
    pub fn zeros(variant: Variant) -> PatternWeights {
        PatternWeights {
            variant,
            model: Model::Linear(vec![0; N_STAGES * N_WEIGHTS]),
        }
    }

    /// A network's weights.
    pub fn network(variant: Variant, network: Network) -> PatternWeights {
        PatternWeights {
            variant,
            model: Model::Network(Box::new(network)),
        }
    }

    /// The network, where these are a network's weights.
    pub fn as_network(&self) -> Option<&Network> {
        match &self.model {
            Model::Network(n) => Some(n),
            Model::Linear(_) => None,
        }
    }

    /// Whether these are a network's weights.
    pub fn is_network(&self) -> bool {
        matches!(self.model, Model::Network(_))
    }

    fn linear(&self) -> &[i16] {
        match &self.model {
            Model::Linear(data) => data,
            Model::Network(_) => panic!("stage tables of a network's weights"),
        }
    }

    /// The variant the weights were trained for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Stage `s`'s table (linear weights only: a network has none).
    #[inline]
    pub fn stage(&self, s: usize) -> &[i16; N_WEIGHTS] {
        self.linear()[s * N_WEIGHTS..(s + 1) * N_WEIGHTS]
            .try_into()
            .expect("a whole stage")
    }

    /// Stage `s`'s table, to fill (linear weights only).
    pub fn stage_mut(&mut self, s: usize) -> &mut [i16] {
        match &mut self.model {
            Model::Linear(data) => &mut data[s * N_WEIGHTS..(s + 1) * N_WEIGHTS],
            Model::Network(_) => panic!("stage tables of a network's weights"),
        }
    }

    /// Moves the evaluation of every position of network phase `p` ([`network::bucket`])
    /// by `discs[p]` discs for the side to move, as `volte calibrate-mpc --parity-output`
    /// does with the offsets it measures: a network's heads' output biases, or the linear
    /// tables' parity weights (each stage's two, one for each of its numbers of empties).
    pub fn shift_outputs(&mut self, discs: &[f64; network::BUCKETS]) {
        match &mut self.model {
            Model::Network(n) => n.shift_outputs(discs),
            Model::Linear(data) => {
                for n_empties in 1..=60u32 {
                    let stage = pattern::stage(n_empties);
                    let at = stage * N_WEIGHTS + pattern::PARITY_OFFSET + (n_empties & 1) as usize;
                    let shift = (discs[network::bucket(n_empties)] * f64::from(SCALE)).round();
                    data[at] = (f64::from(data[at]) + shift).clamp(-32767.0, 32767.0) as i16;
                }
            }
        }
    }

    /// The evaluation of `pos` in 1/SCALE disc given both sides' legal moves.
    #[inline]
    pub fn sum(&self, pos: &Position, my_moves: u64, their_moves: u64) -> i32 {
        match &self.model {
            Model::Linear(_) => pattern::sum(
                self.stage(pattern::stage(pos.n_empties())),
                pos,
                my_moves,
                their_moves,
            ),
            Model::Network(n) => n.sum(pos, my_moves, their_moves),
        }
    }

    /// [`PatternWeights::sum`] from the position's instance indices (see
    /// [`pattern::Indices`]): the same value, without reading the board's patterns.
    #[inline]
    pub fn sum_indexed(
        &self,
        idx: &pattern::Indices,
        n_empties: u32,
        my_moves: u64,
        their_moves: u64,
    ) -> i32 {
        match &self.model {
            Model::Linear(_) => pattern::sum_indexed(
                self.stage(pattern::stage(n_empties)),
                idx,
                n_empties,
                my_moves,
                their_moves,
            ),
            Model::Network(n) => n.sum_indexed(idx, n_empties, my_moves, their_moves),
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let data = match &self.model {
            Model::Linear(data) => data,
            Model::Network(n) => {
                let mut out = Vec::with_capacity(HEADER_LEN);
                out.extend_from_slice(NETWORK_MAGIC);
                out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
                let set = if n.is_extended() {
                    pattern::NET_EXTENDED_SET_ID
                } else {
                    pattern::PATTERN_SET_ID
                };
                out.extend_from_slice(&set.to_le_bytes());
                out.push(variant_code(self.variant));
                out.push(network::WIDTH as u8);
                out.push(network::HIDDEN as u8);
                out.push(network::BUCKETS as u8);
                out.extend_from_slice(&(n.rows.len() as u32).to_le_bytes());
                let mut z = ZlibEncoder::new(out, Compression::best());
                z.write_all(&n.payload()).expect("writing to memory");
                return z.finish().expect("writing to memory");
            }
        };
        let mut out = Vec::with_capacity(HEADER_LEN + data.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&pattern::PATTERN_SET_ID.to_le_bytes());
        out.push(variant_code(self.variant));
        out.push(N_STAGES as u8);
        out.extend_from_slice(&(SCALE as u16).to_le_bytes());
        out.extend_from_slice(&(N_WEIGHTS as u32).to_le_bytes());
        let mut raw = Vec::with_capacity(data.len() * 2);
        for w in data {
            raw.extend_from_slice(&w.to_le_bytes());
        }
        let mut z = ZlibEncoder::new(out, Compression::best());
        z.write_all(&raw).expect("writing to memory");
        z.finish().expect("writing to memory")
    }

    /// Reads a weight file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightFileError> {
        let network = bytes.len() >= MAGIC.len() && &bytes[..MAGIC.len()] == NETWORK_MAGIC;
        if !network && (bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC) {
            return Err(WeightFileError::NotWeightFile);
        }
        if bytes.len() < HEADER_LEN {
            return Err(WeightFileError::Truncated);
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(WeightFileError::Version(version));
        }
        let set = u32_at(12);
        // A network reads the linear evaluation's features or the extended ones.
        let extended = network && set == pattern::NET_EXTENDED_SET_ID;
        if set != pattern::PATTERN_SET_ID && !extended {
            return Err(WeightFileError::PatternSet {
                found: set,
                expected: pattern::PATTERN_SET_ID,
            });
        }
        let variant = match bytes[16] {
            0 => Variant::Othello,
            1 => Variant::Anti,
            2 => Variant::Reversi1889,
            c => return Err(WeightFileError::Variant(c)),
        };
        if network {
            let (width, hidden, buckets, rows) = (bytes[17], bytes[18], bytes[19], u32_at(20));
            let per = network::features_per_set(extended);
            let whole_sets =
                (rows as usize).is_multiple_of(per) && network::valid_sets(rows as usize / per);
            if (width as usize, hidden as usize, buckets as usize)
                != (network::WIDTH, network::HIDDEN, network::BUCKETS)
                || !whole_sets
            {
                return Err(WeightFileError::NetworkShape {
                    width,
                    hidden,
                    buckets,
                    rows,
                });
            }
            let raw = inflate(&bytes[HEADER_LEN..], Network::payload_len(rows as usize))?;
            return Ok(PatternWeights::network(
                variant,
                Network::from_payload(&raw, rows as usize, extended),
            ));
        }
        let stages = bytes[17];
        let scale = u16::from_le_bytes([bytes[18], bytes[19]]);
        let weights = u32_at(20);
        if stages as usize != N_STAGES || weights as usize != N_WEIGHTS || scale as i32 != SCALE {
            return Err(WeightFileError::Shape {
                stages,
                weights,
                scale,
            });
        }
        let raw = inflate(&bytes[HEADER_LEN..], N_STAGES * N_WEIGHTS * 2)?;
        let data = raw
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(PatternWeights {
            variant,
            model: Model::Linear(data),
        })
    }

    /// Reads a weight file.
    pub fn load(path: &Path) -> anyhow::Result<PatternWeights> {
        use anyhow::Context;
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        PatternWeights::from_bytes(&bytes)
            .with_context(|| format!("{} is not a usable weight file", path.display()))
    }

    /// Writes the weight file.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        use anyhow::Context;
        std::fs::write(path, self.to_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// The weights shipped in the binary for `variant` (Reversi 1889 uses Othello's).
    pub fn embedded(variant: Variant) -> Arc<PatternWeights> {
        static OTHELLO: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        static ANTI: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        match variant {
            Variant::Othello | Variant::Reversi1889 => shipped(&OTHELLO, OTHELLO_FILE),
            Variant::Anti => shipped(&ANTI, ANTI_FILE),
        }
    }

    /// The weights the default evaluation plays `variant` with: for Othello and Reversi
    /// 1889 the shipped network (`weights/othello-network.vw`), for Anti the linear tables.
    pub fn embedded_playing(variant: Variant) -> Arc<PatternWeights> {
        static NETWORK: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        match variant {
            Variant::Othello | Variant::Reversi1889 => shipped(&NETWORK, OTHELLO_NETWORK_FILE),
            Variant::Anti => PatternWeights::embedded(variant),
        }
    }

    /// The weights shipped for the exact solver to order its moves by (and for its
    /// selective pre-search and first guess): for Othello (and Reversi 1889) the same
    /// games fitted with a stronger regularisation and with self-play positions off good
    /// players' paths, which orders the solver's moves better but plays worse (see
    /// [`Evaluator::for_solving`](super::Evaluator::for_solving));
    /// for Anti the playing weights.
    pub fn embedded_for_solving(variant: Variant) -> Arc<PatternWeights> {
        static OTHELLO: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        match variant {
            Variant::Othello | Variant::Reversi1889 => shipped(&OTHELLO, OTHELLO_SOLVER_FILE),
            Variant::Anti => PatternWeights::embedded(variant),
        }
    }
}

/// The `want` bytes zlib-compressed in `z`, which must hold exactly those.
fn inflate(z: &[u8], want: usize) -> Result<Vec<u8>, WeightFileError> {
    let mut raw = Vec::with_capacity(want);
    // Read one byte more than needed to notice extra data.
    ZlibDecoder::new(z)
        .take(want as u64 + 1)
        .read_to_end(&mut raw)
        .map_err(|e| WeightFileError::Corrupt(e.to_string()))?;
    if raw.len() != want {
        return Err(WeightFileError::Corrupt(format!(
            "{} bytes of weights instead of {want}",
            raw.len()
        )));
    }
    Ok(raw)
}

/// A shipped weight file, decoded on first use and kept in `cell`.
fn shipped(cell: &OnceLock<Arc<PatternWeights>>, bytes: &[u8]) -> Arc<PatternWeights> {
    cell.get_or_init(|| {
        Arc::new(PatternWeights::from_bytes(bytes).expect("the shipped weight file is valid"))
    })
    .clone()
}

static OTHELLO_FILE: &[u8] = include_bytes!("../../weights/othello.vw");
static OTHELLO_NETWORK_FILE: &[u8] = include_bytes!("../../weights/othello-network.vw");
static OTHELLO_SOLVER_FILE: &[u8] = include_bytes!("../../weights/othello-solver.vw");
static ANTI_FILE: &[u8] = include_bytes!("../../weights/anti.vw");

#[cfg(test)]
mod tests {
    use super::*;

    /// The linear tables' offset moves every position by its phase's offset, rounded to
    /// the tables' unit, and nothing else.
    #[test]
    fn shifting_linear_weights_moves_each_phase() {
        let mut w = PatternWeights::zeros(Variant::Anti);
        for s in 0..N_STAGES {
            for (i, v) in w.stage_mut(s).iter_mut().enumerate() {
                *v = ((i * 31 + s * 17) % 61) as i16 - 30;
            }
        }
        let discs: [f64; network::BUCKETS] = std::array::from_fn(|b| 0.25 * b as f64 - 1.3);
        let mut shifted = w.clone();
        shifted.shift_outputs(&discs);
        let mut pos = Position::new(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        for _ in 0..40 {
            let moves = pos.legal_moves();
            if moves == 0 {
                break;
            }
            let n = pos.n_empties();
            let their = pos.opponent_moves();
            let (before, after) = (w.sum(&pos, moves, their), shifted.sum(&pos, moves, their));
            let expected = (discs[network::bucket(n)] * f64::from(SCALE)).round() as i32;
            assert_eq!(after - before, expected, "{n} empties");
            pos = pos.play(63 - moves.leading_zeros() as u8);
        }
        // Only the parity weights moved.
        let changed = (0..N_STAGES)
            .flat_map(|s| {
                let (a, b) = (w.stage(s), shifted.stage(s));
                (0..N_WEIGHTS).filter(move |&i| a[i] != b[i])
            })
            .filter(|&i| !(pattern::PARITY_OFFSET..pattern::PARITY_OFFSET + 2).contains(&i))
            .count();
        assert_eq!(changed, 0);
    }

    #[test]
    fn round_trip_and_errors() {
        let mut w = PatternWeights::zeros(Variant::Anti);
        for s in 0..N_STAGES {
            for (i, v) in w.stage_mut(s).iter_mut().enumerate() {
                *v = (((i + s * N_WEIGHTS) * 7919) % 2001) as i16 - 1000;
            }
        }
        let bytes = w.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), w);

        assert_eq!(
            PatternWeights::from_bytes(b"hello world, not weights"),
            Err(WeightFileError::NotWeightFile)
        );
        assert_eq!(
            PatternWeights::from_bytes(&bytes[..12]),
            Err(WeightFileError::Truncated)
        );
        let mut v = bytes.clone();
        v[8] = 9;
        assert_eq!(
            PatternWeights::from_bytes(&v),
            Err(WeightFileError::Version(9))
        );
        let mut v = bytes.clone();
        v[12] ^= 1;
        assert!(matches!(
            PatternWeights::from_bytes(&v),
            Err(WeightFileError::PatternSet { .. })
        ));
        let mut v = bytes.clone();
        v[16] = 7;
        assert_eq!(
            PatternWeights::from_bytes(&v),
            Err(WeightFileError::Variant(7))
        );
        let mut v = bytes.clone();
        v[17] = 3;
        assert!(matches!(
            PatternWeights::from_bytes(&v),
            Err(WeightFileError::Shape { .. })
        ));
        // A flipped byte inside the compressed data, and a cut file.
        let mut v = bytes.clone();
        let mid = HEADER_LEN + (v.len() - HEADER_LEN) / 2;
        v[mid] ^= 0x55;
        assert!(matches!(
            PatternWeights::from_bytes(&v),
            Err(WeightFileError::Corrupt(_))
        ));
        assert!(matches!(
            PatternWeights::from_bytes(&bytes[..bytes.len() - 10]),
            Err(WeightFileError::Corrupt(_))
        ));
    }

    #[test]
    fn shipped_files_load() {
        assert_eq!(
            PatternWeights::embedded(Variant::Othello).variant(),
            Variant::Othello
        );
        assert_eq!(
            PatternWeights::embedded(Variant::Anti).variant(),
            Variant::Anti
        );
        for v in Variant::ALL {
            let solving = PatternWeights::embedded_for_solving(v);
            let expected = if v == Variant::Anti {
                Variant::Anti
            } else {
                Variant::Othello
            };
            assert_eq!(solving.variant(), expected);
            // Othello's solver weights are a file of their own.
            assert_eq!(
                Arc::ptr_eq(&solving, &PatternWeights::embedded(v)),
                v == Variant::Anti
            );
        }
    }
}
