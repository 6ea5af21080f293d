//! Training the network evaluation (`volte train --model network`, [`crate::eval::network`]).
//!
//! The same rows as the linear fit (each position's active weights, mapped to their mirror
//! class's representative, and its label), fitted by mini-batch Adam on the squared error,
//! in `f32`. Each batch's gradient reaches only the rows its positions use, so their Adam
//! moments are updated lazily (when used); the rows are clipped to
//! [`ROW_LIMIT`] after each step so that the quantised accumulator cannot overflow. The
//! learning rate falls linearly to a tenth over the epochs. The order of the rows is
//! shuffled every epoch from a fixed seed, so a run is reproducible.

use super::pattern::{Progress, Rows};
use crate::eval::network::{
    BUCKETS, CLIPPED, HIDDEN, Head, Network, OUTPUT_DISCS, QA, ROW_LIMIT, Row, WIDTH,
    features_per_set, set_of_bucket,
};
use crate::eval::pattern::{self, N_STAGES};

/// How to fit the network.
#[derive(Clone, Debug)]
pub struct NetworkOptions {
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size at the start.
    pub learning_rate: f32,
    pub seed: u64,
    /// Row sets ([`crate::eval::network::valid_sets`]): 1 shares the rows across all phases.
    pub sets: usize,
    /// The extended features ([`pattern::active_net`]) instead of the linear evaluation's.
    pub extended: bool,
}

impl Default for NetworkOptions {
    fn default() -> Self {
        NetworkOptions {
            epochs: 6,
            batch: 1024,
            learning_rate: 2e-3,
            seed: 59,
            sets: 1,
            extended: false,
        }
    }
}

/// Parameters of one head in the dense vector: w1, b1, w2, b2, linear.
const HEAD_PARAMS: usize = CLIPPED * HIDDEN + 2 * HIDDEN + 2;
/// The dense parameters: the accumulator bias, then the heads.
const DENSE: usize = WIDTH + BUCKETS * HEAD_PARAMS;

struct Model {
    /// `sets * per_set` rows of `WIDTH`, set by set.
    rows: Vec<f32>,
    sets: usize,
    /// Rows in each set ([`features_per_set`]).
    per_set: usize,
    extended: bool,
    dense: Vec<f32>,
}

/// Adam's moments for some parameters.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

#[inline(always)]
fn adam(p: &mut [f32], g: &[f32], mom: &mut Moments, at: usize, lr: f32, c1: f32, c2: f32) {
    let (m, v) = (&mut mom.m[at..at + p.len()], &mut mom.v[at..at + p.len()]);
    for i in 0..p.len() {
        m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
        v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
        p[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
    }
}

/// A small xorshift generator (reproducible shuffles and initial values).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in `[-1, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// The forward pass of one row, kept for the backward pass.
struct Pass {
    acc: [f32; WIDTH],
    a: [f32; CLIPPED],
    z: [f32; HIDDEN],
    out: f32,
}

impl Model {
    fn init(seed: u64, sets: usize, extended: bool) -> Model {
        let mut rng = Rng(seed | 1);
        let per_set = features_per_set(extended);
        let rows = (0..sets * per_set * WIDTH)
            .map(|i| {
                if i % WIDTH == 0 {
                    0.0
                } else {
                    0.05 * rng.unit()
                }
            })
            .collect();
        let mut dense = vec![0.0; DENSE];
        for x in dense[1..WIDTH].iter_mut() {
            *x = 0.5;
        }
        for b in 0..BUCKETS {
            let h = &mut dense[WIDTH + b * HEAD_PARAMS..WIDTH + (b + 1) * HEAD_PARAMS];
            for x in h[..CLIPPED * HIDDEN].iter_mut() {
                *x = rng.unit() / (CLIPPED as f32).sqrt();
            }
            for x in h[CLIPPED * HIDDEN + HIDDEN..CLIPPED * HIDDEN + 2 * HIDDEN].iter_mut() {
                *x = 0.5 * rng.unit() / (HIDDEN as f32).sqrt();
            }
            h[HEAD_PARAMS - 1] = 1.0;
        }
        Model {
            rows,
            sets,
            per_set,
            extended,
            dense,
        }
    }

    /// The first row of `bucket`'s set.
    fn set_base(&self, bucket: usize) -> usize {
        set_of_bucket(bucket, self.sets) * self.per_set
    }

    fn forward(&self, f: &[u32], bucket: usize) -> Pass {
        let mut acc = [0.0f32; WIDTH];
        acc.copy_from_slice(&self.dense[..WIDTH]);
        let base = self.set_base(bucket);
        for &j in f {
            let j = base + j as usize;
            let row = &self.rows[j * WIDTH..(j + 1) * WIDTH];
            for (a, r) in acc.iter_mut().zip(row) {
                *a += r;
            }
        }
        let h = &self.dense[WIDTH + bucket * HEAD_PARAMS..WIDTH + (bucket + 1) * HEAD_PARAMS];
        let (w1, rest) = h.split_at(CLIPPED * HIDDEN);
        let (b1, rest) = rest.split_at(HIDDEN);
        let (w2, rest) = rest.split_at(HIDDEN);
        let (b2, linear) = (rest[0], rest[1]);
        let mut a = [0.0f32; CLIPPED];
        for (x, &v) in a.iter_mut().zip(&acc[1..]) {
            *x = v.clamp(0.0, 1.0);
        }
        let mut z = [0.0f32; HIDDEN];
        z.copy_from_slice(b1);
        for (i, &x) in a.iter().enumerate() {
            for (zo, &wo) in z.iter_mut().zip(&w1[i * HIDDEN..(i + 1) * HIDDEN]) {
                *zo += wo * x;
            }
        }
        let mut out = b2 + linear * acc[0];
        for (&zo, &wo) in z.iter().zip(w2) {
            out += zo.max(0.0) * wo;
        }
        Pass { acc, a, z, out }
    }

    /// Adds the gradient of `g * out` to the dense gradient and returns the accumulator's.
    fn backward(&self, p: &Pass, bucket: usize, g: f32, dense: &mut [f32]) -> [f32; WIDTH] {
        let at = WIDTH + bucket * HEAD_PARAMS;
        let h = &self.dense[at..at + HEAD_PARAMS];
        let w1 = &h[..CLIPPED * HIDDEN];
        let w2 = &h[CLIPPED * HIDDEN + HIDDEN..CLIPPED * HIDDEN + 2 * HIDDEN];
        let linear = h[HEAD_PARAMS - 1];
        let gh = &mut dense[at..at + HEAD_PARAMS];
        let mut dz = [0.0f32; HIDDEN];
        for o in 0..HIDDEN {
            let r = p.z[o].max(0.0);
            gh[CLIPPED * HIDDEN + HIDDEN + o] += g * r;
            dz[o] = if p.z[o] > 0.0 { g * w2[o] } else { 0.0 };
            gh[CLIPPED * HIDDEN + o] += dz[o];
        }
        gh[HEAD_PARAMS - 2] += g;
        gh[HEAD_PARAMS - 1] += g * p.acc[0];
        let mut dacc = [0.0f32; WIDTH];
        dacc[0] = g * linear;
        for i in 0..CLIPPED {
            let x = p.a[i];
            let wrow = &w1[i * HIDDEN..(i + 1) * HIDDEN];
            let grow = &mut gh[i * HIDDEN..(i + 1) * HIDDEN];
            let mut d = 0.0;
            for o in 0..HIDDEN {
                grow[o] += dz[o] * x;
                d += wrow[o] * dz[o];
            }
            let v = p.acc[i + 1];
            dacc[i + 1] = if v > 0.0 && v < 1.0 { d } else { 0.0 };
        }
        for (gb, d) in dense[..WIDTH].iter_mut().zip(&dacc) {
            *gb += d;
        }
        dacc
    }

    /// The quantised network: every member of a mirror class gets its representative's row.
    fn quantise(&self, canon: &[u32]) -> Network {
        let q = |x: f32| (x * QA as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut net = Network::zeros_with(self.sets, self.extended);
        let per = self.per_set;
        for (j, row) in net.rows.iter_mut().enumerate() {
            let c = (j / per) * per + canon[j % per] as usize;
            for (k, v) in row.0.iter_mut().enumerate() {
                *v = q(self.rows[c * WIDTH + k]);
            }
        }
        let mut bias = Row([0; WIDTH]);
        for (k, v) in bias.0.iter_mut().enumerate() {
            *v = q(self.dense[k]);
        }
        net.bias = bias;
        let mut heads = vec![Head::default(); BUCKETS];
        for (b, head) in heads.iter_mut().enumerate() {
            let h = &self.dense[WIDTH + b * HEAD_PARAMS..WIDTH + (b + 1) * HEAD_PARAMS];
            let mut out = Head::default();
            for (i, w) in out.w1.iter_mut().enumerate() {
                w.copy_from_slice(&h[i * HIDDEN..(i + 1) * HIDDEN]);
            }
            out.b1
                .copy_from_slice(&h[CLIPPED * HIDDEN..CLIPPED * HIDDEN + HIDDEN]);
            out.w2
                .copy_from_slice(&h[CLIPPED * HIDDEN + HIDDEN..CLIPPED * HIDDEN + 2 * HIDDEN]);
            out.b2 = h[HEAD_PARAMS - 2];
            out.linear = h[HEAD_PARAMS - 1];
            *head = out;
        }
        net.set_heads(heads);
        net
    }
}

/// The stage of every row (rows are sorted by stage).
fn row_stages(rows: &Rows) -> Vec<u8> {
    let mut out = vec![0u8; rows.targets.len()];
    for s in 0..N_STAGES {
        for x in &mut out[rows.range(s, s)] {
            *x = s as u8;
        }
    }
    out
}

/// The number of empties that stands for stage `s` (its higher one).
fn stage_empties(s: usize) -> u32 {
    2 * s as u32 + 2
}

/// The mean absolute error (discs) of `net`'s rounded, clamped evaluation on the rows of
/// stage `s`, over at most `limit` rows spread across them.
pub(super) fn network_mae(net: &Network, rows: &Rows, s: usize, limit: usize) -> f64 {
    let range = rows.range(s, s);
    if range.is_empty() {
        return 0.0;
    }
    let step = range.len().div_ceil(limit.max(1));
    let mut n = 0usize;
    let mut total = 0.0;
    for i in range.step_by(step) {
        let v = net.value_of_active(&rows.features_net(i), stage_empties(s));
        let v = crate::eval::round_scaled(v, pattern::SCALE).clamp(-64, 64);
        total += f64::from((v - rows.targets[i] as i32).abs());
        n += 1;
    }
    total / n as f64
}

/// Fits a network to `train`, reporting the held-out error on `test` after each epoch.
pub(super) fn fit(
    train: &Rows,
    test: &Rows,
    options: &NetworkOptions,
    progress: &dyn Progress,
    log: &mut dyn FnMut(String),
) -> Network {
    let canon = pattern::canonical_net();
    let stages = row_stages(train);
    let n = train.targets.len();
    let mut model = Model::init(options.seed, options.sets, options.extended);
    let mut row_moments = Moments::new(model.rows.len());
    let mut dense_moments = Moments::new(DENSE);
    let mut row_grad = vec![0.0f32; model.rows.len()];
    // The batch that last touched each row (u32::MAX: none yet this epoch).
    let mut touched_in = vec![u32::MAX; options.sets * model.per_set];
    let mut touched: Vec<u32> = Vec::new();
    let mut dense_grad = vec![0.0f32; DENSE];
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng = Rng(options.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let batch = options.batch.max(1);
    let batches_per_epoch = n.div_ceil(batch);
    let total_batches = batches_per_epoch * options.epochs;
    let mut step = 0usize;
    progress.start("training the network (batches)", total_batches as u64);
    for epoch in 0..options.epochs {
        for i in (1..n).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        touched_in.fill(u32::MAX);
        let mut sum_abs = 0.0f64;
        for (b, chunk) in order.chunks(batch).enumerate() {
            touched.clear();
            dense_grad.fill(0.0);
            let scale = 1.0 / chunk.len() as f32;
            for &r in chunk {
                let r = r as usize;
                let bucket = stages[r] as usize / 2;
                let (base, extended);
                let f: &[u32] = if options.extended {
                    extended = train.features_net(r);
                    &extended
                } else {
                    base = train.features(r);
                    &base
                };
                let p = model.forward(f, bucket);
                let t = train.targets[r] / OUTPUT_DISCS;
                let err = p.out - t;
                sum_abs += f64::from(err.abs());
                let dacc = model.backward(&p, bucket, err * scale, &mut dense_grad);
                let base = model.set_base(bucket);
                for &j in f {
                    let j = base + j as usize;
                    if touched_in[j] != b as u32 {
                        touched_in[j] = b as u32;
                        touched.push(j as u32);
                    }
                    for (g, d) in row_grad[j * WIDTH..(j + 1) * WIDTH].iter_mut().zip(&dacc) {
                        *g += d;
                    }
                }
            }
            step += 1;
            let progress_share = step as f32 / total_batches as f32;
            let lr = options.learning_rate * (1.0 - 0.9 * progress_share);
            let c1 = 1.0 - BETA1.powi(step.min(10_000) as i32);
            let c2 = 1.0 - BETA2.powi(step.min(100_000) as i32);
            adam(
                &mut model.dense,
                &dense_grad,
                &mut dense_moments,
                0,
                lr,
                c1,
                c2,
            );
            for &j in &touched {
                let at = j as usize * WIDTH;
                let g = &mut row_grad[at..at + WIDTH];
                adam(
                    &mut model.rows[at..at + WIDTH],
                    g,
                    &mut row_moments,
                    at,
                    lr,
                    c1,
                    c2,
                );
                g.fill(0.0);
                for x in &mut model.rows[at..at + WIDTH] {
                    *x = x.clamp(-ROW_LIMIT, ROW_LIMIT);
                }
            }
            for x in &mut model.dense[..WIDTH] {
                *x = x.clamp(-ROW_LIMIT, ROW_LIMIT);
            }
            progress.tick(1);
        }
        let net = model.quantise(&canon);
        let test_mae: f64 = (0..N_STAGES)
            .map(|s| network_mae(&net, test, s, 4000) * test.range(s, s).len() as f64)
            .sum::<f64>()
            / test.targets.len().max(1) as f64;
        log(format!(
            "epoch {}/{}: training error {:.3} discs (float), held-out {:.3} (quantised)",
            epoch + 1,
            options.epochs,
            sum_abs * f64::from(OUTPUT_DISCS) / n as f64,
            test_mae
        ));
    }
    progress.finish();
    model.quantise(&canon)
}
