//! The exact position-by-value marginal matrix and the figures read off it.

use super::{Method, Origin};
use crate::algorithm::Algorithm;
use crate::source::SourceSpec;
use crate::stats::Cell;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

/// P(value v ends at position p) for every position and value, exactly
/// (as rationals) where it was computed exactly and in `f64` always, with the
/// largest deviation from uniform.
///
/// A fair shuffle has every entry equal to 1/n. The deviation of an entry is
/// `|n·P - 1|`, the same relative scale as the audit's `|O/E - 1|`.
#[derive(Debug, Clone)]
pub struct ExactMarginals {
    origin: Origin,
    probabilities: Vec<f64>,
    exact: Option<Vec<BigRational>>,
    max_deviation: f64,
    max_deviation_exact: Option<BigRational>,
    max_deviation_cell: Cell,
    uniform: Option<bool>,
    tv_lower_bound: f64,
    rounding: f64,
}

impl ExactMarginals {
    /// The matrix `sums[p * n + v] / den`, exactly.
    pub(crate) fn from_sums(origin: Origin, sums: &[BigUint], den: &BigUint) -> Self {
        let n = origin.n;
        debug_assert_eq!(sums.len(), n * n);
        let den = BigInt::from(den.clone());
        let n_big = BigInt::from(n);
        let mut exact = Vec::with_capacity(n * n);
        let mut best = BigInt::zero();
        let mut best_cell = Cell {
            position: 0,
            value: 0,
        };
        let mut widest_row = BigInt::zero();
        for p in 0..n {
            let mut row = BigInt::zero();
            for v in 0..n {
                let s = BigInt::from(sums[p * n + v].clone());
                let dev = (&s * &n_big - &den).abs();
                if dev > best {
                    best.clone_from(&dev);
                    best_cell = Cell {
                        position: p,
                        value: v,
                    };
                }
                row += dev;
                exact.push(BigRational::new(s, den.clone()));
            }
            if row > widest_row {
                widest_row = row;
            }
        }
        let to_f64 = |q: &BigRational| q.to_f64().unwrap_or(f64::NAN);
        let max_deviation_exact = BigRational::new(best, den.clone());
        let tv_lower_bound = BigRational::new(widest_row, den * BigInt::from(2 * n));
        Self {
            probabilities: exact.iter().map(to_f64).collect(),
            max_deviation: to_f64(&max_deviation_exact),
            uniform: Some(max_deviation_exact.is_zero()),
            max_deviation_exact: Some(max_deviation_exact),
            max_deviation_cell: best_cell,
            tv_lower_bound: to_f64(&tv_lower_bound),
            exact: Some(exact),
            origin,
            rounding: 0.0,
        }
    }

    /// The matrix from `f64` probabilities (row-major, position by value),
    /// each with a relative error of at most `rounding`.
    pub(crate) fn from_f64(origin: Origin, probabilities: Vec<f64>, rounding: f64) -> Self {
        let n = origin.n;
        debug_assert_eq!(probabilities.len(), n * n);
        let mut best = 0.0;
        let mut best_cell = Cell {
            position: 0,
            value: 0,
        };
        let mut widest_row: f64 = 0.0;
        for p in 0..n {
            let mut row = 0.0;
            for v in 0..n {
                let dev = (probabilities[p * n + v] * n as f64 - 1.0).abs();
                if dev > best {
                    best = dev;
                    best_cell = Cell {
                        position: p,
                        value: v,
                    };
                }
                row += dev;
            }
            widest_row = widest_row.max(row);
        }
        // The computed n·P is within (1 + deviation)·rounding of the true
        // one, so a deviation well above that is certainly real.
        let certain = best > 2.0 * (1.0 + best) * rounding;
        Self {
            origin,
            probabilities,
            exact: None,
            max_deviation: best,
            max_deviation_exact: None,
            max_deviation_cell: best_cell,
            uniform: if certain { Some(false) } else { None },
            tv_lower_bound: widest_row / (2.0 * n as f64),
            rounding,
        }
    }

    /// Number of elements shuffled.
    pub fn n(&self) -> usize {
        self.origin.n
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.origin.algorithm
    }

    /// The random source.
    pub fn source(&self) -> SourceSpec {
        self.origin.source
    }

    /// How the matrix was computed.
    pub fn method(&self) -> Method {
        self.origin.method
    }

    /// P(value `value` at position `position`), as `f64`.
    pub fn probability(&self, position: usize, value: usize) -> f64 {
        self.probabilities[position * self.origin.n + value]
    }

    /// All probabilities, row-major: `[position * n + value]`.
    pub fn probabilities(&self) -> &[f64] {
        &self.probabilities
    }

    /// The matrix as rows (one per position).
    pub fn rows(&self) -> Vec<Vec<f64>> {
        self.probabilities
            .chunks(self.origin.n)
            .map(<[f64]>::to_vec)
            .collect()
    }

    /// `n·P` per cell, row-major: 1.0 everywhere for a fair shuffle (what the
    /// heatmaps show).
    pub fn ratios(&self) -> Vec<f64> {
        let n = self.origin.n as f64;
        self.probabilities.iter().map(|p| p * n).collect()
    }

    /// The exact P(value `value` at position `position`), where the matrix was
    /// computed exactly.
    pub fn exact(&self, position: usize, value: usize) -> Option<&BigRational> {
        self.exact
            .as_ref()
            .map(|e| &e[position * self.origin.n + value])
    }

    /// Whether exact rationals are available (see [`exact`](Self::exact)).
    pub fn is_exact(&self) -> bool {
        self.exact.is_some()
    }

    /// The largest `|n·P - 1|` over all cells.
    pub fn max_deviation(&self) -> f64 {
        self.max_deviation
    }

    /// [`max_deviation`](Self::max_deviation) exactly, where available.
    pub fn max_deviation_exact(&self) -> Option<&BigRational> {
        self.max_deviation_exact.as_ref()
    }

    /// Where the largest deviation is (the first such cell, row-major).
    pub fn max_deviation_cell(&self) -> Cell {
        self.max_deviation_cell
    }

    /// Whether every entry is exactly 1/n. Where only `f64` values were
    /// computed, `Some(false)` if the largest deviation is well beyond
    /// [`rounding_bound`](Self::rounding_bound) (so certainly real), and
    /// `None` if the matrix is uniform as far as `f64` can tell.
    pub fn exactly_uniform(&self) -> Option<bool> {
        self.uniform
    }

    /// A bound on the relative error of each `f64` probability: 0 where the
    /// matrix was computed exactly (the `f64` values are then the exact ones
    /// correctly rounded).
    pub fn rounding_bound(&self) -> f64 {
        self.rounding
    }

    /// The largest total variation distance between a position's value
    /// distribution and uniform. It is a lower bound on the total variation
    /// distance between the whole permutation law and uniform (a function of a
    /// random permutation cannot be further from uniform than the
    /// permutation), and all that marginals alone can tell about it.
    pub fn tv_lower_bound(&self) -> f64 {
        self.tv_lower_bound
    }
}
