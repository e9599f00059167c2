//! Weighted picks: one index per trial, with probability proportional to
//! integer weights, from a [`WeightTable`] built once per weight vector.
//!
//! Every draw is a bounded integer draw (`below`), so the picks are exact
//! and can be enumerated: the total weight `W = Σw` is a draw bound and must
//! therefore fit in `u32`. Larger totals are refused (scale the weights
//! down) rather than drawn from raw bits, which would make the law neither
//! exact nor enumerable.

use crate::error::{Error, Result};
use crate::source::RandomSource;

/// Largest total weight a [`WeightTable`] takes: draws are `below(bound)`
/// with a 32-bit bound.
pub const MAX_TOTAL_WEIGHT: u64 = u32::MAX as u64;

/// A weight vector prepared for every weighted pick: its prefix sums (for
/// the binary searches) and Vose's alias table, computed in exact integers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightTable {
    weights: Vec<u64>,
    /// `prefix[i] = w[0] + ... + w[i]`.
    prefix: Vec<u32>,
    total: u32,
    /// Alias column `i` keeps `i` when `uniform[0, W-1] < keep[i]`.
    keep: Vec<u32>,
    /// ... and gives `alias[i]` otherwise.
    alias: Vec<u32>,
}

impl WeightTable {
    /// Prepares `weights` (one per index; zero weights are allowed).
    ///
    /// Refuses an empty vector, more than `u32::MAX` weights, a total of 0,
    /// and a total above [`MAX_TOTAL_WEIGHT`].
    pub fn new(weights: &[u64]) -> Result<Self> {
        if weights.is_empty() {
            return Err(Error::bad_input(
                "a weighted pick needs at least one weight",
            ));
        }
        if weights.len() > u32::MAX as usize {
            return Err(Error::out_of_range(format!(
                "{} weights are too many (at most {})",
                weights.len(),
                u32::MAX
            )));
        }
        let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
        if total == 0 {
            return Err(Error::bad_input(
                "the weights are all zero: nothing can be picked",
            ));
        }
        if total > u128::from(MAX_TOTAL_WEIGHT) {
            return Err(Error::out_of_range(format!(
                "the weights add up to {total}, more than {MAX_TOTAL_WEIGHT}: weighted picks \
                     draw uniform[0, total-1] as one 32-bit bounded draw (exact and enumerable); \
                     scale the weights down"
            )));
        }
        let total = total as u32;
        let mut prefix = Vec::with_capacity(weights.len());
        let mut sum = 0u32;
        for &w in weights {
            sum += w as u32; // no overflow: the total fits
            prefix.push(sum);
        }
        let (keep, alias) = vose(weights, total);
        Ok(Self {
            weights: weights.to_vec(),
            prefix,
            total,
            keep,
            alias,
        })
    }

    /// The weights.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// How many indices (`n`).
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Never true: a table has at least one weight.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The total weight `W`.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The alias table: per column, the threshold out of `W` below which
    /// the column keeps its own index, and the index it gives otherwise.
    pub fn alias_table(&self) -> (&[u32], &[u32]) {
        (&self.keep, &self.alias)
    }

    /// `r = uniform[0, W-1]`; the first `i` with `prefix[i] > r` (binary
    /// search). Index `i` comes out for exactly `w[i]` values of `r`.
    #[inline]
    pub(super) fn pick_prefix<S: RandomSource>(&self, rng: &mut S) -> u32 {
        let r = rng.below(self.total);
        self.prefix.partition_point(|&p| p <= r) as u32
    }

    /// The off-by-one version: `r = uniform[1, W]`; the first `i` with
    /// `prefix[i] > r`, or the last index when none is (r = W).
    #[inline]
    pub(super) fn pick_off_by_one<S: RandomSource>(&self, rng: &mut S) -> u32 {
        // uniform[1, W] as 1 + below(W): W <= u32::MAX, so no overflow.
        let r = 1 + rng.below(self.total);
        let i = self.prefix.partition_point(|&p| p <= r);
        i.min(self.prefix.len() - 1) as u32
    }

    /// Vose's alias method: column `c = uniform[0, n-1]`; keep `c` when
    /// `uniform[0, W-1] < keep[c]`, else take `alias[c]`. Two bounded draws
    /// per pick, always (even for a full column), so the draw tree does not
    /// depend on the column.
    #[inline]
    pub(super) fn pick_alias<S: RandomSource>(&self, rng: &mut S) -> u32 {
        let c = rng.below(self.keep.len() as u32) as usize;
        let coin = rng.below(self.total);
        if coin < self.keep[c] {
            c as u32
        } else {
            self.alias[c]
        }
    }
}

/// Vose's construction in exact integers: with the weights scaled by `n`
/// (`p[i] = n·w[i]`, mean `W`), pair each small column (`p < W`) with a
/// large one (`p >= W`): the small keeps `p[s]` out of `W` and aliases the
/// large, which gives up `W - p[s]`. Integer arithmetic loses nothing, so
/// every column ends exactly full and index `i` gets exactly `w[i]/W`
/// (the floating-point version's leftover columns cannot occur: when the
/// large list empties, every remaining column is exactly `W`).
fn vose(weights: &[u64], total: u32) -> (Vec<u32>, Vec<u32>) {
    let n = weights.len();
    let w_total = u64::from(total);
    // n·w[i] <= (2^32 - 1)^2 < 2^64.
    let mut p: Vec<u64> = weights.iter().map(|&w| w * n as u64).collect();
    let mut keep = vec![total; n];
    let mut alias: Vec<u32> = (0..n as u32).collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| p[i] < w_total);
    while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
        small.pop();
        keep[s] = p[s] as u32;
        alias[s] = l as u32;
        p[l] -= w_total - p[s];
        if p[l] < w_total {
            large.pop();
            small.push(l);
        }
    }
    debug_assert!(small.is_empty(), "exact integers leave no short column");
    debug_assert!(large.iter().all(|&l| p[l] == w_total));
    (keep, alias)
}
