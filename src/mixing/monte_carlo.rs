//! Monte Carlo distance to uniform: count what k steps of an algorithm
//! produce, in parallel and reproducibly, and estimate the total variation
//! distance with its bias floor (what a uniform sampler shows) and standard
//! error (its spread), kept apart.
//!
//! Runs go through the engine's chunk runner (`engine::run_chunks`), with
//! an observer of its own (`Trajectories`): trials are split into the
//! engine's chunks, chunk `c` draws from stream `c` of the seed, and chunk
//! counts merge by addition, so the counts depend only on the spec, never on
//! the number of threads.

use super::MAX_CARRIED_N;
use crate::algorithm::{Algorithm, Scratch};
use crate::engine::{self, ChunkPlan, ChunkRange, Observer, Progress};
use crate::error::{Error, Result};
use crate::permutation::{Statistic, StatisticScratch};
use crate::source::{RandomSource, SourceSpec};
use serde::Serialize;
use statrs::function::factorial::ln_binomial;

/// Most counters (k values × cells) one run may keep per worker: 2^22 u64
/// counters are 32 MiB, and rayon may keep a few workers per thread.
pub const MAX_COUNTERS: usize = 1 << 22;

/// A Monte Carlo mixing run: everything that determines its counts.
#[derive(Debug, Clone, PartialEq)]
pub struct MonteCarloSpec {
    /// An algorithm with a step count (see [`Algorithm::with_k`]); its own k
    /// is ignored.
    pub algorithm: Algorithm,
    /// Number of elements shuffled.
    pub n: usize,
    /// The step counts to observe, strictly ascending.
    pub ks: Vec<u32>,
    /// What is counted ([`Statistic::Permutation`] only up to n =
    /// [`MAX_CARRIED_N`]).
    pub statistic: Statistic,
    /// Trials (each one runs up to the largest k).
    pub trials: u64,
    /// The random source.
    pub source: SourceSpec,
    /// The run's seed.
    pub seed: u64,
}

/// The counts of a run: for each k of the spec, how many trials fell in each
/// cell of the statistic (a cell per value, see [`Statistic::support`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Trials counted (the same for every k).
    pub trials: u64,
    /// Cells per k.
    pub cells: usize,
    /// `counts[i * cells + cell]` for the i-th k.
    pub counts: Vec<u64>,
}

impl Counts {
    /// The counts of the i-th k of the spec.
    pub fn row(&self, i: usize) -> &[u64] {
        &self.counts[i * self.cells..(i + 1) * self.cells]
    }
}

/// Runs `spec`, reporting each finished chunk's trials to `progress`.
///
/// Every trial starts from the identity and applies the algorithm's step
/// `ks[0]` times, observes, then `ks[1] - ks[0]` more times, observes, and so on:
/// because steps compose ([`Algorithm::with_k`]), the i-th observation has
/// exactly the law of the algorithm with k = `ks[i]`. One trajectory per trial
/// costs max(k) steps instead of Σ k; the observations at different k of one
/// trial are dependent, but each k's estimate and its errors only involve its
/// own, independent, trials.
pub fn count(spec: &MonteCarloSpec, progress: Progress<'_>) -> Result<Counts> {
    let steps = steps(spec)?;
    let cells = spec.statistic.support(spec.n);
    let len = cells * spec.ks.len();
    if len > MAX_COUNTERS {
        return Err(Error::too_costly(format!(
            "{} k values x {cells} {} cells need {len} counters (at most {MAX_COUNTERS}): ask for fewer k values",
            spec.ks.len(),
            spec.statistic
        )));
    }
    let plan = ChunkPlan {
        source: &spec.source,
        seed: spec.seed,
        trials: spec.trials,
        chunks: ChunkRange::all(spec.trials),
        threads: None,
    };
    let counts = engine::run_chunks(
        plan,
        || Trajectories::new(spec.n, &steps, spec.statistic, cells),
        progress,
    )?;
    Ok(Counts {
        trials: spec.trials,
        cells,
        counts,
    })
}

/// The algorithm to run before each observation: `with_k(ks[i] - ks[i-1])`,
/// or `None` where nothing is to be run.
fn steps(spec: &MonteCarloSpec) -> Result<Vec<Option<Algorithm>>> {
    crate::values::check_n(spec.n)?;
    if spec.statistic == Statistic::Permutation && spec.n > MAX_CARRIED_N {
        return Err(Error::too_costly(format!(
            "cannot count whole permutations of n = {} (n! cells)",
            spec.n
        )));
    }
    super::check_ks(&spec.ks)?;
    if spec.algorithm.with_k(1).is_none() {
        return Err(Error::unsupported(format!(
            "algorithm '{}' has no step count k",
            spec.algorithm
        )));
    }
    let mut previous = 0;
    Ok(spec
        .ks
        .iter()
        .map(|&k| {
            let delta = k - std::mem::replace(&mut previous, k);
            (delta > 0).then(|| spec.algorithm.with_k(delta)).flatten()
        })
        .collect())
}

/// One worker of a Monte Carlo run: follows each trial's trajectory from the
/// identity through the steps, and counts the statistic's cell at each k.
struct Trajectories<'a> {
    steps: &'a [Option<Algorithm>],
    statistic: Statistic,
    cells: usize,
    /// `counts[i * cells + cell]` for the i-th k.
    counts: Vec<u64>,
    deck: Vec<u32>,
    scratch: Scratch,
    statistic_scratch: StatisticScratch,
}

impl<'a> Trajectories<'a> {
    /// A worker for arrangements of `n` taking `steps` (one per k), counting
    /// `statistic` in its `cells` cells.
    fn new(n: usize, steps: &'a [Option<Algorithm>], statistic: Statistic, cells: usize) -> Self {
        Self {
            steps,
            statistic,
            cells,
            counts: vec![0; cells * steps.len()],
            deck: vec![0; n],
            scratch: Scratch::default(),
            statistic_scratch: StatisticScratch::default(),
        }
    }

    /// One trial: the identity, stepped and observed at each k.
    fn trial<S: RandomSource>(&mut self, rng: &mut S) {
        for (i, slot) in self.deck.iter_mut().enumerate() {
            *slot = i as u32;
        }
        for (i, step) in self.steps.iter().enumerate() {
            if let Some(algorithm) = step {
                algorithm.shuffle_with(&mut self.deck, rng, &mut self.scratch);
            }
            let cell = self
                .statistic
                .value(&self.deck, &mut self.statistic_scratch);
            self.counts[i * self.cells + cell] += 1;
        }
    }
}

impl Observer for Trajectories<'_> {
    type Output = Vec<u64>;

    fn run_chunk<S: RandomSource>(&mut self, rng: &mut S, trials: u64) -> Result<()> {
        for _ in 0..trials {
            self.trial(rng);
        }
        Ok(())
    }

    fn finish(self) -> Vec<u64> {
        self.counts
    }

    fn merge(into: &mut Vec<u64>, other: Vec<u64>) {
        into.iter_mut().zip(other).for_each(|(x, y)| *x += y);
    }
}

/// Standard errors either side of a Monte Carlo estimate in the range that
/// covers the true distance ([`Estimate::tv_low`], [`Estimate::tv_high`]) and
/// in the test of [`Estimate::at_floor`]: 3 keeps the chance that noise alone
/// pushes an estimate outside under about 0.3% per point (normal
/// approximation), and the standard error used overstates the spread near
/// uniform (see [`TvEstimator::estimate`]).
pub const RANGE_STANDARD_ERRORS: f64 = 3.0;

/// A Monte Carlo estimate of a total variation distance, with the two kinds
/// of error it carries kept apart: spread ([`Estimate::stderr`]) and bias
/// ([`Estimate::bias_floor`]).
///
/// The plug-in estimate is biased upwards: each cell adds |p̂ - q| ≥ 0, so
/// noise in a cell where p = q still adds about its standard deviation. For a
/// law p with T trials, 0 ≤ E\[tv\] - TV ≤ (1/2) Σ E|p̂_i - p_i| (triangle
/// inequality, cell by cell), and the right side is largest, to the normal
/// approximation E|p̂_i - p_i| ≈ √(2 p_i (1 - p_i) / (π T)) (concave in p_i),
/// when p is uniform over the cells. For a uniform reference law (whole
/// permutations) that is the bias floor itself: the floor bounds the bias at
/// any law, and is the bias near uniform; far from uniform (|p_i - q_i| well
/// above the noise in most cells) the bias is close to 0. For a non-uniform
/// reference (rising sequences, cycles) a law more spread out than the
/// reference can have a larger bias than the floor, so the bound is also
/// estimated at the observed law ([`Estimate::bias_bound`]). The standard error describes the spread of `tv` around its
/// own expectation, not around the true distance: `tv ± SE` does not cover
/// the truth when the bias is larger than SE, which near uniform it is (with
/// C cells the floor is about √((C - 1) / (2πT)), the SE about 1/(2√T)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The plug-in estimate (1/2) Σ |count/T - q|: biased upwards by noise.
    pub tv: f64,
    /// Its standard error (delta method, see [`TvEstimator::estimate`]): the
    /// spread of `tv` from run to run, which says nothing about its bias.
    pub stderr: f64,
    /// The Monte Carlo bias floor: the expected plug-in estimate of a sampler
    /// that follows the reference law exactly, with these T trials and
    /// cells ([`bias_floor`]). An estimate near it means "indistinguishable
    /// from uniform at this T", not a distance; it also bounds the bias of
    /// `tv` at any law (see the type's documentation).
    pub bias_floor: f64,
    /// The largest bias of `tv` at the observed law: (1/2) Σ E|p̂_i - p_i|
    /// with the observed p̂ plugged in for p ([`bias_bound`]), or the bias
    /// floor if that is larger. Equal to the floor, to within noise, near
    /// uniform with a uniform reference; smaller far from uniform; larger
    /// only with a non-uniform reference.
    pub bias_bound: f64,
    /// The low end of the range that covers the true distance: `tv` minus
    /// the bias bound minus [`RANGE_STANDARD_ERRORS`] standard errors, at
    /// least 0.
    pub tv_low: f64,
    /// The high end of that range: `tv` plus [`RANGE_STANDARD_ERRORS`]
    /// standard errors, at most 1 (the bias is never negative, so nothing is
    /// added for it).
    pub tv_high: f64,
    /// Whether `tv` is within [`RANGE_STANDARD_ERRORS`] standard errors of
    /// the bias floor or below it: the counts are then consistent with a
    /// perfectly uniform sampler, and `tv_low` is 0.
    pub at_floor: bool,
}

impl Estimate {
    /// The estimate `tv` with standard error `stderr` against the bias
    /// floor `bias_floor`, with `observed_bias` the bias bound at the
    /// observed law: fills in the range and the floor test.
    pub fn new(tv: f64, stderr: f64, bias_floor: f64, observed_bias: f64) -> Self {
        let margin = RANGE_STANDARD_ERRORS * stderr;
        let bias_bound = bias_floor.max(observed_bias);
        Estimate {
            tv,
            stderr,
            bias_floor,
            bias_bound,
            tv_low: (tv - bias_bound - margin).max(0.0),
            tv_high: (tv + margin).min(1.0),
            at_floor: tv - margin <= bias_floor,
        }
    }
}

/// Estimates total variation distances to one reference law from counts of
/// a fixed number of trials.
#[derive(Debug, Clone)]
pub struct TvEstimator {
    reference: Vec<f64>,
    trials: u64,
    bias_floor: f64,
}

impl TvEstimator {
    /// An estimator against `reference` (a probability law, cell by cell) for
    /// counts of `trials` trials.
    pub fn new(reference: Vec<f64>, trials: u64) -> Self {
        let bias_floor = bias_floor(&reference, trials);
        Self {
            reference,
            trials,
            bias_floor,
        }
    }

    /// The expected plug-in distance of an exact sampler (see [`bias_floor`]).
    pub fn bias_floor(&self) -> f64 {
        self.bias_floor
    }

    /// The estimate from one k's counts.
    ///
    /// The standard error is the delta method's: with s_i = sign(p̂_i - q_i),
    /// the plug-in TV moves like (1/2) Σ s_i p̂_i, whose multinomial variance
    /// is (Σ s_i² p_i - (Σ s_i p_i)²) / (4T). Far from uniform this is the
    /// usual first-order error; in the noise-dominated regime it overstates
    /// the spread (about 1/(4T) against (1 - 2/π)/(4T)), so it errs on the
    /// safe side. Efron–Stein bounds the true variance by 1/(2T) in any case.
    /// It is a spread only: the bias is reported separately, as the floor.
    pub fn estimate(&self, counts: &[u64]) -> Estimate {
        debug_assert_eq!(counts.len(), self.reference.len());
        let t = self.trials as f64;
        let (mut tv, mut signed, mut covered) = (0.0, 0.0, 0.0);
        for (&c, &q) in counts.iter().zip(&self.reference) {
            let p = c as f64 / t;
            let d = p - q;
            tv += d.abs();
            if d != 0.0 {
                signed += d.signum() * p;
                covered += p;
            }
        }
        let variance = (covered - signed * signed).max(0.0) / (4.0 * t);
        let observed_bias = bias_bound(counts, self.trials);
        Estimate::new(0.5 * tv, variance.sqrt(), self.bias_floor, observed_bias)
    }
}

/// The Monte Carlo bias floor (1/2) Σ E|X_i/T - q_i|, X_i ~ Binomial(T, q_i):
/// the expected plug-in distance of an exact sampler of `reference` with
/// `trials` trials, computed exactly cell by cell. With C equal cells and
/// T q large it is about √((C - 1) / (2πT)) (C = 720, T = 200,000: 0.024).
pub fn bias_floor(reference: &[f64], trials: u64) -> f64 {
    let t = trials as f64;
    0.5 * reference
        .iter()
        .map(|&q| binomial_mean_abs_dev(trials, q) / t)
        .sum::<f64>()
}

/// The bias bound at the observed law, (1/2) Σ E|X_i/T - p̂_i| with X_i ~
/// Binomial(T, p̂_i), p̂ = counts / T: by the triangle inequality the plug-in
/// estimate exceeds the true distance by at most (1/2) Σ E|p̂_i - p_i| on
/// average, estimated here by plugging in p̂.
pub fn bias_bound(counts: &[u64], trials: u64) -> f64 {
    let t = trials as f64;
    0.5 * counts
        .iter()
        .map(|&c| binomial_mean_abs_dev(trials, c as f64 / t) / t)
        .sum::<f64>()
}

/// E|X - Tp| for X ~ Binomial(T, p), exactly, by de Moivre's formula
/// 2 T p (1-p) b(m; T-1, p) with m = ⌊Tp⌋ and b the binomial probability.
pub fn binomial_mean_abs_dev(trials: u64, p: f64) -> f64 {
    if trials == 0 || p <= 0.0 || p >= 1.0 {
        return 0.0;
    }
    let t = trials as f64;
    let m = ((t * p).floor() as u64).min(trials - 1);
    let ln_b =
        ln_binomial(trials - 1, m) + m as f64 * p.ln() + (trials - 1 - m) as f64 * (-p).ln_1p();
    2.0 * t * p * (1.0 - p) * ln_b.exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::CHUNK_TRIALS;
    use crate::source::SourceKind;

    #[test]
    fn mean_absolute_deviation_matches_brute_force() {
        for trials in [1u64, 2, 7, 30] {
            for p in [0.01, 0.2, 0.5, 0.77, 0.999] {
                let t = trials as f64;
                let brute: f64 = (0..=trials)
                    .map(|x| {
                        let ln_b = ln_binomial(trials, x)
                            + x as f64 * f64::ln(p)
                            + (trials - x) as f64 * f64::ln(1.0 - p);
                        ln_b.exp() * (x as f64 - t * p).abs()
                    })
                    .sum();
                let got = binomial_mean_abs_dev(trials, p);
                assert!(
                    (got - brute).abs() < 1e-12,
                    "T={trials} p={p}: {got} vs {brute}"
                );
            }
        }
        assert_eq!(binomial_mean_abs_dev(10, 0.0), 0.0);
        assert_eq!(binomial_mean_abs_dev(10, 1.0), 0.0);
        // Large T: close to the normal value sqrt(2 T p (1-p) / π).
        let (t, p) = (1e8, 1.0 / 720.0);
        let normal = (2.0 * t * p * (1.0 - p) / std::f64::consts::PI).sqrt();
        let got = binomial_mean_abs_dev(t as u64, p);
        assert!((got / normal - 1.0).abs() < 1e-3, "{got} vs {normal}");
    }

    #[test]
    fn estimates_from_hand_made_counts() {
        let reference = vec![0.25; 4];
        let estimator = TvEstimator::new(reference, 100);
        let e = estimator.estimate(&[100, 0, 0, 0]);
        assert!((e.tv - 0.75).abs() < 1e-15);
        assert_eq!(e.stderr, 0.0, "a point mass has no spread");
        let e = estimator.estimate(&[25, 25, 25, 25]);
        assert_eq!(e.tv, 0.0);
        let e = estimator.estimate(&[40, 30, 20, 10]);
        assert!((e.tv - 0.2).abs() < 1e-15);
        // s = (+,+,-,-): Σ s p = 0.4, Σ s² p = 1: variance (1 - 0.16) / 400.
        assert!((e.stderr - (0.84f64 / 400.0).sqrt()).abs() < 1e-15);
        assert!(e.bias_floor > 0.0 && e.bias_floor < 0.1);
    }

    #[test]
    fn ranges_subtract_the_floor_below_and_only_spread_above() {
        let e = Estimate::new(0.30, 0.01, 0.05, 0.0);
        assert!((e.tv_low - 0.22).abs() < 1e-15 && (e.tv_high - 0.33).abs() < 1e-15);
        assert!(!e.at_floor);
        // Within 3 SE of the floor: consistent with uniform, low end 0.
        let e = Estimate::new(0.07, 0.01, 0.05, 0.0);
        assert!(e.at_floor && e.tv_low == 0.0);
        let e = Estimate::new(0.04, 0.01, 0.05, 0.01);
        assert!(e.at_floor && e.tv_low == 0.0 && (e.tv_high - 0.07).abs() < 1e-15);
        assert_eq!(Estimate::new(0.999, 0.01, 0.0, 0.0).tv_high, 1.0);
        // A larger bias at the observed law widens the range downwards only.
        let e = Estimate::new(0.30, 0.01, 0.05, 0.1);
        assert!((e.tv_low - 0.17).abs() < 1e-15 && (e.tv_high - 0.33).abs() < 1e-15);
        assert!(e.bias_bound == 0.1 && !e.at_floor);
    }

    #[test]
    fn bias_floor_is_about_root_cells_minus_one_over_two_pi_trials() {
        for (cells, trials) in [(24usize, 10_000u64), (720, 200_000), (720, 1_000_000)] {
            let floor = bias_floor(&vec![1.0 / cells as f64; cells], trials);
            let normal = ((cells - 1) as f64 / (2.0 * std::f64::consts::PI * trials as f64)).sqrt();
            assert!(
                (floor / normal - 1.0).abs() < 0.005,
                "{cells} {trials}: {floor} vs {normal}"
            );
        }
    }

    fn spec(trials: u64) -> MonteCarloSpec {
        MonteCarloSpec {
            algorithm: Algorithm::RandomSwap { k: None },
            n: 4,
            ks: vec![0, 1, 3],
            statistic: Statistic::Permutation,
            trials,
            source: SourceKind::Chacha8.into(),
            seed: 7,
        }
    }

    #[test]
    fn counts_are_reproducible_whatever_the_threads() {
        // Not a multiple of the engine's chunk, so the ragged end is run too.
        let s = spec(3 * CHUNK_TRIALS + 999);
        let on = |threads: usize| {
            let done = std::sync::atomic::AtomicU64::new(0);
            let progress = |k: u64| {
                done.fetch_add(k, std::sync::atomic::Ordering::Relaxed);
            };
            let counts = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| count(&s, &progress).unwrap());
            assert_eq!(done.into_inner(), s.trials, "progress on {threads} threads");
            counts
        };
        let one = on(1);
        assert_eq!(one, on(2));
        assert_eq!(one, on(3));
        for i in 0..3 {
            assert_eq!(one.row(i).iter().sum::<u64>(), s.trials);
        }
        // k = 0 is the identity in every trial.
        assert_eq!(one.row(0)[0], s.trials);
        let mut other = s.clone();
        other.seed += 1;
        assert_ne!(count(&other, &|_| {}).unwrap(), one, "the seed must matter");
    }

    #[test]
    fn bad_runs_are_refused() {
        let mut s = spec(10);
        s.algorithm = Algorithm::FisherYates;
        let err = count(&s, &|_| {}).unwrap_err().to_string();
        assert!(err.contains("'fisher-yates' has no step count"), "{err}");
        let mut s = spec(10);
        s.ks = vec![3, 1];
        assert!(count(&s, &|_| {}).is_err());
        let mut s = spec(10);
        s.n = 9;
        assert!(
            count(&s, &|_| {})
                .unwrap_err()
                .to_string()
                .contains("n = 9")
        );
    }
}
