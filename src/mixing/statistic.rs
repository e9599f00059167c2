//! What a Monte Carlo mixing run counts: whole arrangements (small n) or one
//! statistic of the arrangement whose law under a uniform shuffle is known.

use super::MAX_CARRIED_N;
use crate::permutation::{cycles, factorial, rank, rising_sequences};
use crate::stats::laws;
use serde::Serialize;
use std::fmt;

/// The quantity whose law is compared with its law under a uniform shuffle.
///
/// The distance between the laws of a statistic is a lower bound on the
/// distance between the laws of the arrangements (a function cannot separate
/// two laws more than its argument does); only [`Statistic::Permutation`]
/// measures the distance itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Statistic {
    /// The whole arrangement (n ≤ [`MAX_CARRIED_N`]): n! cells.
    Permutation,
    /// The number of rising sequences, 1..=n. After riffles the law of an
    /// arrangement depends on it alone, so for `riffle` its distance is the
    /// full distance, not just a bound.
    RisingSequences,
    /// The number of cycles, 1..=n. `random-swap`'s law is constant on
    /// cycle types, of which the cycle count is the coarsest summary.
    Cycles,
}

/// Reusable buffers for [`Statistic::cell`].
#[derive(Debug, Default, Clone)]
pub struct StatisticScratch {
    positions: Vec<u32>,
    seen: Vec<bool>,
}

impl Statistic {
    /// The name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Statistic::Permutation => "permutation",
            Statistic::RisingSequences => "rising-sequences",
            Statistic::Cycles => "cycles",
        }
    }

    /// Whether its distance to uniform is only a lower bound on the
    /// arrangement's distance (in general: see the variants for exceptions).
    pub fn is_lower_bound(self) -> bool {
        self != Statistic::Permutation
    }

    /// The number of cells it is counted in for n elements.
    pub fn cells(self, n: usize) -> usize {
        match self {
            Statistic::Permutation => factorial(n),
            Statistic::RisingSequences | Statistic::Cycles => n,
        }
    }

    /// Its law under a uniform shuffle of n elements, cell by cell.
    pub fn uniform_law(self, n: usize) -> Vec<f64> {
        match self {
            Statistic::Permutation => vec![1.0 / factorial(n) as f64; factorial(n)],
            // Cell c holds count c + 1 (0 rising sequences or cycles never occur).
            Statistic::RisingSequences => laws::rising_sequences(n)[1..].to_vec(),
            Statistic::Cycles => laws::cycles(n)[1..].to_vec(),
        }
    }

    /// The cell arrangement `a` falls in.
    #[inline]
    pub fn cell(self, a: &[u32], scratch: &mut StatisticScratch) -> usize {
        match self {
            Statistic::Permutation => rank(a),
            Statistic::RisingSequences => rising_sequences(a, &mut scratch.positions) - 1,
            Statistic::Cycles => cycles(a, &mut scratch.seen) - 1,
        }
    }

    /// Whether n elements can be counted this way ([`Statistic::Permutation`]
    /// needs n ≤ [`MAX_CARRIED_N`]).
    pub fn fits(self, n: usize) -> bool {
        self != Statistic::Permutation || n <= MAX_CARRIED_N
    }
}

impl fmt::Display for Statistic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
