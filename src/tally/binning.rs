//! Bins of positions and values: how a large audit keeps its
//! position-by-value matrix to B×B cells instead of n×n (n = 10^6 would
//! be 8 TB of counters).
//!
//! Index i (a position or a value) falls in bin `i·B/n` (rounded down),
//! so bins are runs of consecutive indices whose sizes differ by at most
//! one; with B = n every bin is one index and the matrix is the full one.

use serde::{Deserialize, Serialize};

/// The number of bins per side a large audit uses unless told otherwise:
/// 64×64 cells, enough to see a bias that moves values by more than n/64,
/// with 3,969 degrees of freedom.
pub const DEFAULT_BINS: usize = 64;

/// Bins of `0..n`: index i in bin `i·bins/n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binning {
    n: usize,
    bins: usize,
}

impl Binning {
    /// `bins` bins of `0..n`, or `None` unless 1 ≤ bins ≤ n (bins = n = 0
    /// is the empty identity).
    pub fn new(n: usize, bins: usize) -> Option<Self> {
        (bins <= n && (bins >= 1 || n == 0)).then_some(Self { n, bins })
    }

    /// One bin per index: the full matrix.
    pub fn identity(n: usize) -> Self {
        Self { n, bins: n }
    }

    /// The number of indices binned.
    pub fn n(self) -> usize {
        self.n
    }

    /// The number of bins.
    pub fn bins(self) -> usize {
        self.bins
    }

    /// Whether every bin is one index (B = n).
    pub fn is_identity(self) -> bool {
        self.bins == self.n
    }

    /// The bin of index `i` (< n).
    #[inline]
    pub fn bin_of(self, i: usize) -> usize {
        (i as u128 * self.bins as u128 / self.n as u128) as usize
    }

    /// The first index of bin `b` (b ≤ bins; `start(bins)` is n): the
    /// smallest i with i·B/n ≥ b, i.e. ⌈b·n/B⌉.
    pub fn start(self, b: usize) -> usize {
        if self.bins == 0 {
            return 0;
        }
        (b as u128 * self.n as u128).div_ceil(self.bins as u128) as usize
    }

    /// The indices of bin `b`.
    pub fn range(self, b: usize) -> std::ops::Range<usize> {
        self.start(b)..self.start(b + 1)
    }

    /// How many indices bin `b` holds (⌊n/B⌋ or ⌈n/B⌉).
    pub fn size(self, b: usize) -> usize {
        self.range(b).len()
    }

    /// Every bin's size, in order.
    pub fn sizes(self) -> Vec<usize> {
        (0..self.bins).map(|b| self.size(b)).collect()
    }

    /// The size of the largest bin, ⌈n/B⌉: the most one trial can add to
    /// one cell of the binned matrix.
    pub fn largest(self) -> usize {
        if self.bins == 0 {
            0
        } else {
            self.n.div_ceil(self.bins)
        }
    }

    /// The bin of every index, for counting in a tight loop.
    pub fn lookup(self) -> Vec<u32> {
        (0..self.n).map(|i| self.bin_of(i) as u32).collect()
    }

    /// Bin `b` as readers see it: its index (`7`) when it holds one,
    /// else its first and last (`0–15624`).
    pub fn label(self, b: usize) -> String {
        let r = self.range(b);
        if r.len() == 1 {
            r.start.to_string()
        } else {
            format!("{}–{}", r.start, r.end.saturating_sub(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_partition_the_indices_in_near_equal_runs() {
        for (n, b) in [
            (10, 3),
            (1_000_000, 64),
            (7, 7),
            (1025, 64),
            (5, 1),
            (100, 99),
        ] {
            let binning = Binning::new(n, b).unwrap();
            let sizes = binning.sizes();
            assert_eq!(sizes.iter().sum::<usize>(), n, "n = {n}, B = {b}");
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1, "n = {n}, B = {b}: {lo}..{hi}");
            assert_eq!(*hi, binning.largest());
            let lookup = binning.lookup();
            for bin in 0..b {
                for i in binning.range(bin) {
                    assert_eq!(lookup[i] as usize, bin);
                    assert_eq!(binning.bin_of(i), bin);
                }
            }
        }
        assert!(Binning::identity(9).is_identity());
        assert_eq!(Binning::new(9, 9), Some(Binning::identity(9)));
        assert_eq!(Binning::new(9, 10), None);
        assert_eq!(Binning::new(9, 0), None);
        let big = Binning::new(1_000_000, 64).unwrap();
        assert_eq!(big.label(0), "0–15624");
        assert_eq!(big.label(63), "984375–999999");
        assert_eq!(Binning::identity(5).label(3), "3");
    }
}
