//! Mixing curves: how far from uniform an algorithm made of k repeated random
//! steps (`random-swap`: k transpositions, `riffle`: k riffles) is, as a
//! function of k, in total variation distance.
//!
//! Exact where the law is known: `riffle` for any n by Bayer and Diaconis'
//! closed form ([`laws`]), `random-swap` for n ≤ 8 by propagating the law over
//! all n! arrangements ([`random_swap`]). Monte Carlo otherwise, or on request
//! ([`monte_carlo`]): whole arrangements for n ≤ 8, beyond that the law of a
//! statistic whose uniform law is known ([`Statistic`]), which gives a lower
//! bound on the distance.

pub mod buffer;
pub mod laws;
pub mod monte_carlo;
pub mod plan;
pub mod random_swap;

pub use crate::permutation::Statistic;
pub use monte_carlo::{Counts, Estimate, MonteCarloSpec, TvEstimator};

use crate::algorithm::{Algorithm, StepKind};
use crate::error::{Error, Result};
use crate::source::SourceSpec;
/// Largest n whose arrangements are counted or carried one by one (8! =
/// 40,320 cells), the same limit the audit's default permutation test uses.
pub const MAX_CARRIED_N: usize = crate::spec::DEFAULT_PERMUTATION_N;
use serde::{Serialize, Serializer};
use std::fmt;
use std::time::Instant;

/// Largest step count accepted, so that a typo cannot start a run of days.
pub const MAX_K: u32 = 1_000_000;
/// Most k values in one curve.
pub const MAX_K_VALUES: usize = 10_000;
/// Largest n of a mixing curve: the uniform law of the rising-sequence count
/// costs O(n²) to compute.
pub const MAX_N: usize = 10_000;

/// How a point of the curve was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Computed exactly.
    Exact,
    /// Estimated from simulated shuffles.
    MonteCarlo,
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Exact => "exact",
            Method::MonteCarlo => "monte-carlo",
        })
    }
}

/// What to compute: a curve of distance to uniform against k.
#[derive(Debug, Clone, PartialEq)]
pub struct MixingSpec {
    /// An algorithm with a step count (`random-swap` or `riffle`); its own k
    /// is ignored.
    pub algorithm: Algorithm,
    /// Number of elements shuffled.
    pub n: usize,
    /// The step counts, strictly ascending (see [`parse_ks`]).
    pub ks: Vec<u32>,
    /// Simulate even where the exact curve is known (both are reported).
    pub monte_carlo: bool,
    /// Trials of a Monte Carlo run.
    pub trials: u64,
    /// The random source of a Monte Carlo run.
    pub source: SourceSpec,
    /// The seed of a Monte Carlo run.
    pub seed: u64,
}

/// One point of a curve (also a row of `mixing.csv`, in this column order).
///
/// A Monte Carlo point carries two errors, kept apart because they are of
/// different kinds: `stderr`, the spread of the estimate from run to run, and
/// `bias_floor`, what the estimate shows for a perfectly uniform shuffle with
/// the same trials (the plug-in estimate is biased upwards by up to that
/// much, `bias_bound`). `tv_low..=tv_high` combines both into a range for
/// the true value.
/// An exact point carries instead the size of its f64 rounding error, and is
/// flagged when its value is no larger: such a value is rounding noise.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MixingPoint {
    /// The step count.
    pub k: u32,
    /// Total variation distance to uniform (for Monte Carlo: the plug-in
    /// estimate, biased upwards; for exact points flagged `rounding_level`:
    /// rounding noise, to be read as "below `rounding_bound`").
    pub tv: f64,
    /// Exact or Monte Carlo.
    pub method: Method,
    /// What was compared with its uniform law (always the whole arrangement
    /// for exact points).
    pub statistic: Statistic,
    /// Monte Carlo only: the standard error of `tv`, its spread around its
    /// own expectation (not around the true distance: see `bias_floor`).
    pub stderr: Option<f64>,
    /// Monte Carlo only: the bias floor, the expected `tv` of a perfectly
    /// uniform shuffle with these trials (see [`Estimate::bias_floor`]).
    pub bias_floor: Option<f64>,
    /// Monte Carlo only: the largest bias at the observed law, at least the
    /// bias floor (see [`Estimate::bias_bound`]); the same as the floor for
    /// whole permutations, larger only for a statistic with a non-uniform law.
    pub bias_bound: Option<f64>,
    /// Monte Carlo only: `tv` minus the bias bound minus
    /// [`monte_carlo::RANGE_STANDARD_ERRORS`] standard errors, at least 0:
    /// the true distance (of the statistic) is at least this.
    pub tv_low: Option<f64>,
    /// Monte Carlo only: `tv` plus [`monte_carlo::RANGE_STANDARD_ERRORS`]
    /// standard errors, at most 1: the true distance of the statistic is at
    /// most this (for a lower-bound statistic the permutation's may be more).
    pub tv_high: Option<f64>,
    /// Monte Carlo only: `tv` is within the standard-error margin of the bias
    /// floor or below it, so the counts cannot be told from a uniform
    /// shuffle's at this number of trials (and `tv_low` is 0).
    pub at_bias_floor: Option<bool>,
    /// Exact only: how far f64 rounding can have moved `tv` (see
    /// [`rounding_bound`]).
    pub rounding_bound: Option<f64>,
    /// Exact only: `tv` is at or below `rounding_bound`, so it is rounding
    /// noise: the true distance is below the bound, and nothing more is known
    /// from this computation.
    pub rounding_level: Option<bool>,
}

impl MixingPoint {
    /// An exact point: flags `tv` as rounding-level when it is no larger than
    /// the rounding error of its computation.
    pub fn exact(algorithm: &Algorithm, n: usize, k: u32, tv: f64) -> Self {
        let bound = rounding_bound(algorithm, n, k, tv);
        MixingPoint {
            k,
            tv,
            method: Method::Exact,
            statistic: Statistic::Permutation,
            stderr: None,
            bias_floor: None,
            bias_bound: None,
            tv_low: None,
            tv_high: None,
            at_bias_floor: None,
            rounding_bound: Some(bound),
            rounding_level: Some(tv <= bound),
        }
    }

    /// A Monte Carlo point from its estimate.
    pub fn monte_carlo(k: u32, statistic: Statistic, e: &Estimate) -> Self {
        MixingPoint {
            k,
            tv: e.tv,
            method: Method::MonteCarlo,
            statistic,
            stderr: Some(e.stderr),
            bias_floor: Some(e.bias_floor),
            bias_bound: Some(e.bias_bound),
            tv_low: Some(e.tv_low),
            tv_high: Some(e.tv_high),
            at_bias_floor: Some(e.at_floor),
            rounding_bound: None,
            rounding_level: None,
        }
    }

    /// Whether this is an exact value too small to be told from rounding.
    pub fn is_rounding_level(&self) -> bool {
        self.rounding_level == Some(true)
    }

    /// Whether this is a Monte Carlo estimate at its bias floor.
    pub fn is_at_bias_floor(&self) -> bool {
        self.at_bias_floor == Some(true)
    }
}

/// How far f64 rounding can have moved an exact distance `tv` of `algorithm`
/// on n elements after k steps; a value at or below it is rounding noise.
///
/// `random-swap` carries a law of n! cells in f64 and is accurate in absolute
/// terms only: see [`random_swap::rounding_bound`] (1.7e-14 for n = 3, k =
/// 60). `riffle` works in log space and keeps a relative accuracy of about
/// n·ε down to the smallest f64, so only a value that underflowed to 0 is
/// flagged (bound: the smallest normal f64).
pub fn rounding_bound(algorithm: &Algorithm, n: usize, k: u32, tv: f64) -> f64 {
    match algorithm.record().steps {
        Some(StepKind::Transpositions) => random_swap::rounding_bound(n, k, tv),
        Some(StepKind::Riffles) | None => f64::MIN_POSITIVE,
    }
}

/// A computed curve: the spec, its points (exact ones first, then Monte
/// Carlo, each ascending in k), and how long it took.
#[derive(Debug, Clone, Serialize)]
pub struct MixingCurve {
    /// The algorithm, as given (its own k, if any, is not used; it is
    /// serialised by name alone).
    #[serde(serialize_with = "as_name")]
    pub algorithm: Algorithm,
    /// Number of elements.
    pub n: usize,
    /// The random source of the Monte Carlo points.
    #[serde(serialize_with = "as_text")]
    pub source: SourceSpec,
    /// The seed of the Monte Carlo points.
    pub seed: u64,
    /// Trials of the Monte Carlo points, if any were simulated.
    pub trials: Option<u64>,
    /// What the Monte Carlo points compare, if any were simulated.
    pub statistic: Option<Statistic>,
    /// The points.
    pub points: Vec<MixingPoint>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

fn as_name<S: Serializer>(algorithm: &Algorithm, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(algorithm.name())
}

fn as_text<T: fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

impl MixingCurve {
    /// The points of one method, ascending in k.
    pub fn points_of(&self, method: Method) -> impl Iterator<Item = &MixingPoint> {
        self.points.iter().filter(move |p| p.method == method)
    }

    /// What one step of the algorithm is, for labels ("riffles").
    pub fn step_name(&self) -> &'static str {
        step_name(&self.algorithm)
    }

    /// What the Monte Carlo points count and how their TV relates to the
    /// permutation's, briefly, if any were simulated.
    pub fn statistic_note(&self) -> Option<String> {
        let statistic = self.statistic?;
        Some(match statistic {
            Statistic::Permutation => "whole permutations: the TV itself".to_string(),
            Statistic::RisingSequences
                if self.algorithm.record().steps == Some(StepKind::Riffles) =>
            {
                "rising sequences: equal to the TV for riffles".to_string()
            }
            Statistic::RisingSequences
            | Statistic::Cycles
            | Statistic::FixedPoints
            | Statistic::Clumping => {
                format!("{statistic}: a lower bound on the TV")
            }
        })
    }
}

/// What one step of `algorithm` is called, in the plural.
pub fn step_name(algorithm: &Algorithm) -> &'static str {
    algorithm.record().steps.map_or("steps", StepKind::plural)
}

/// Whether the exact curve of `algorithm` on n elements is known.
pub fn has_exact(algorithm: &Algorithm, n: usize) -> bool {
    match algorithm.record().steps {
        Some(StepKind::Riffles) => true,
        Some(StepKind::Transpositions) => n <= MAX_CARRIED_N,
        None => false,
    }
}

/// What a Monte Carlo run of `algorithm` on n elements counts: whole
/// arrangements up to n = [`MAX_CARRIED_N`], else the rising sequences of a
/// riffle (after riffles the law of an arrangement depends on them alone, so
/// their distance is the full distance, not just a bound) or the cycles of
/// anything else (`random-swap`'s law is constant on cycle types, of which
/// the cycle count is the coarsest summary).
pub fn monte_carlo_statistic(algorithm: &Algorithm, n: usize) -> Statistic {
    if n <= MAX_CARRIED_N {
        Statistic::Permutation
    } else if algorithm.record().steps == Some(StepKind::Riffles) {
        Statistic::RisingSequences
    } else {
        Statistic::Cycles
    }
}

/// The exact distance to uniform after each k of `ks`, if it is known.
pub fn exact_curve(algorithm: &Algorithm, n: usize, ks: &[u32]) -> Result<Option<Vec<f64>>> {
    Ok(match algorithm.record().steps {
        Some(StepKind::Riffles) => Some(laws::riffle_tv_curve(n, ks)),
        Some(StepKind::Transpositions) if n <= MAX_CARRIED_N => {
            Some(random_swap::random_swap_tv(n, ks)?)
        }
        Some(StepKind::Transpositions) | None => None,
    })
}

/// The algorithms whose record has a repeated step: the ones with a
/// mixing curve.
pub fn stepped_names() -> Vec<&'static str> {
    Algorithm::ALL
        .iter()
        .filter(|a| a.record().steps.is_some())
        .map(|a| a.name())
        .collect()
}

/// Checks `spec` without running anything.
pub fn check(spec: &MixingSpec) -> Result<()> {
    if spec.algorithm.record().steps.is_none() {
        return Err(Error::unsupported(format!(
            "algorithm '{}' has no step count k: mixing curves need an algorithm made of \
             repeated steps ({})",
            spec.algorithm,
            stepped_names().join(", ")
        )));
    }
    if !(2..=MAX_N).contains(&spec.n) {
        return Err(Error::out_of_range(format!(
            "n = {} is out of range: mixing curves need 2 <= n <= {MAX_N}",
            spec.n
        )));
    }
    check_ks(&spec.ks)?;
    if let Some(&k) = spec.ks.iter().find(|&&k| k > MAX_K) {
        return Err(Error::out_of_range(format!(
            "k = {k} is too large (at most {MAX_K})"
        )));
    }
    if spec.ks.len() > MAX_K_VALUES {
        return Err(Error::out_of_range(format!(
            "{} k values are too many (at most {MAX_K_VALUES})",
            spec.ks.len()
        )));
    }
    if simulates(spec) && spec.trials == 0 {
        return Err(Error::out_of_range("trials must be at least 1 (got 0)"));
    }
    Ok(())
}

/// Fails unless `ks` is non-empty and strictly ascending.
fn check_ks(ks: &[u32]) -> Result<()> {
    if ks.is_empty() || ks.windows(2).any(|w| w[1] <= w[0]) {
        return Err(Error::bad_input(format!(
            "the k values must be non-empty and strictly ascending (got {ks:?})"
        )));
    }
    Ok(())
}

/// Whether `spec` runs a Monte Carlo simulation: on request, or where no
/// exact curve is known.
pub fn simulates(spec: &MixingSpec) -> bool {
    spec.monte_carlo || !has_exact(&spec.algorithm, spec.n)
}

/// Computes the curve of `spec`: the exact points where known, Monte Carlo
/// points where requested or where nothing exact is known. `progress`
/// receives the Monte Carlo trials done, chunk by chunk.
pub fn run(spec: &MixingSpec, progress: &(dyn Fn(u64) + Sync)) -> Result<MixingCurve> {
    check(spec)?;
    let start = Instant::now();
    let mut points = Vec::new();
    if let Some(exact) = exact_curve(&spec.algorithm, spec.n, &spec.ks)? {
        points.extend(
            spec.ks
                .iter()
                .zip(exact)
                .map(|(&k, tv)| MixingPoint::exact(&spec.algorithm, spec.n, k, tv)),
        );
    }
    let mut statistic = None;
    if simulates(spec) {
        let chosen = monte_carlo_statistic(&spec.algorithm, spec.n);
        let mc = MonteCarloSpec {
            algorithm: spec.algorithm,
            n: spec.n,
            ks: spec.ks.clone(),
            statistic: chosen,
            trials: spec.trials,
            source: spec.source,
            seed: spec.seed,
        };
        let counts = monte_carlo::count(&mc, progress)?;
        let estimator = TvEstimator::new(chosen.uniform_law(spec.n), spec.trials);
        points.extend(spec.ks.iter().enumerate().map(|(i, &k)| {
            MixingPoint::monte_carlo(k, chosen, &estimator.estimate(counts.row(i)))
        }));
        statistic = Some(chosen);
    }
    Ok(MixingCurve {
        algorithm: spec.algorithm,
        n: spec.n,
        source: spec.source,
        seed: spec.seed,
        trials: statistic.map(|_| spec.trials),
        statistic,
        points,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The step counts a curve shows by default: 1..=12 riffles (52 cards are
/// mixed after about 7), or 0..=⌈n ln n⌉ transpositions (twice the cutoff
/// (1/2) n ln n of random transpositions) for anything else, thinned to at
/// most [`DEFAULT_K_POINTS`] + 1 points.
pub fn default_ks(algorithm: &Algorithm, n: usize) -> Vec<u32> {
    match algorithm.record().steps {
        Some(StepKind::Riffles) => (1..=12).collect(),
        Some(StepKind::Transpositions) | None => {
            let n = n.max(2) as f64;
            let last = (n * n.ln()).ceil().min(f64::from(MAX_K)) as u32;
            let stride = last.div_ceil(DEFAULT_K_POINTS).max(1);
            (0..=last).step_by(stride as usize).collect()
        }
    }
}

/// Most points of a default curve.
pub const DEFAULT_K_POINTS: u32 = 200;

/// Parses a list of step counts: `1..10` (inclusive), `0..50`, `1,2,4,8`, or
/// a mix (`1..5,10,20`). The result is sorted, without repeats.
pub fn parse_ks(text: &str) -> Result<Vec<u32>> {
    let bad = |why: String| Error::out_of_range(format!("bad k list '{text}': {why}"));
    let number = |s: &str| -> Result<u32> {
        let s = s.trim();
        let k: u32 = s
            .parse()
            .map_err(|_| bad(format!("'{s}' is not a whole number")))?;
        if k > MAX_K {
            return Err(bad(format!("k = {k} is too large (at most {MAX_K})")));
        }
        Ok(k)
    };
    let mut ks = Vec::new();
    for item in text.split(',') {
        match item.split_once("..") {
            Some((lo, hi)) => {
                let (lo, hi) = (number(lo)?, number(hi.trim_start_matches('='))?);
                if lo > hi {
                    return Err(bad(format!("range {lo}..{hi} is empty")));
                }
                if (hi - lo) as usize >= MAX_K_VALUES {
                    return Err(bad(format!("more than {MAX_K_VALUES} k values")));
                }
                ks.extend(lo..=hi);
            }
            None => ks.push(number(item)?),
        }
        if ks.len() > MAX_K_VALUES {
            return Err(bad(format!("more than {MAX_K_VALUES} k values")));
        }
    }
    ks.sort_unstable();
    ks.dedup();
    Ok(ks)
}

#[cfg(test)]
mod tests;
