//! What an audit counts: where every value lands, over all trials.

use serde::{Deserialize, Serialize};

/// Position-by-value counts of many shuffles of `[0, 1, ..., n-1]`:
/// `count(p, v)` is how many trials put value `v` at position `p`.
///
/// Tallies from disjoint sets of trials merge by addition, which is what lets
/// the engine count in parallel and still get the same numbers on any number
/// of threads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    n: usize,
    trials: u64,
    /// Row-major `[position][value]`.
    counts: Vec<u64>,
}

impl Tally {
    /// An empty tally for permutations of `n` elements.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            trials: 0,
            counts: vec![0; n * n],
        }
    }

    /// A tally from a row-major `[position][value]` matrix and its trial count,
    /// for tallies read back from files or computed elsewhere.
    ///
    /// Returns `None` unless the matrix is n×n and every row and column sums
    /// to `trials`, as any tally of permutations must.
    pub fn from_counts(n: usize, trials: u64, counts: Vec<u64>) -> Option<Self> {
        if counts.len() != n * n {
            return None;
        }
        let rows_ok = counts.chunks(n).all(|r| r.iter().sum::<u64>() == trials);
        let cols_ok = (0..n).all(|v| (0..n).map(|p| counts[p * n + v]).sum::<u64>() == trials);
        (rows_ok && cols_ok).then_some(Self { n, trials, counts })
    }

    /// Counts one permutation (`perm[p]` is the value at position `p`).
    pub fn record(&mut self, perm: &[u32]) {
        debug_assert_eq!(perm.len(), self.n);
        for (p, &v) in perm.iter().enumerate() {
            self.counts[p * self.n + v as usize] += 1;
        }
        self.trials += 1;
    }

    /// Adds another tally of the same `n`.
    pub fn merge(&mut self, other: &Tally) {
        assert_eq!(self.n, other.n, "cannot merge tallies of different n");
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.trials += other.trials;
    }

    /// Number of elements shuffled.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of shuffles counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// How often value `value` landed at position `position`.
    pub fn count(&self, position: usize, value: usize) -> u64 {
        self.counts[position * self.n + value]
    }

    /// The whole row-major `[position][value]` matrix.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The matrix as rows, one per position (for JSON output).
    pub fn rows(&self) -> Vec<Vec<u64>> {
        self.counts.chunks(self.n).map(<[u64]>::to_vec).collect()
    }
}

/// A chunk-local tally with 32-bit counters: half the cache footprint of
/// [`Tally`] in the engine's inner loop. Safe while a chunk has fewer than
/// 2^32 trials, since each trial adds at most one to a cell.
#[derive(Debug, Clone)]
pub(crate) struct ChunkTally {
    n: usize,
    trials: u64,
    counts: Vec<u32>,
}

impl ChunkTally {
    pub(crate) fn new(n: usize) -> Self {
        Self {
            n,
            trials: 0,
            counts: vec![0; n * n],
        }
    }

    /// Counts a batch of permutations stored back to back.
    #[inline]
    pub(crate) fn record_batch(&mut self, batch: &[u32]) {
        let n = self.n;
        for perm in batch.chunks_exact(n) {
            for (row, &v) in self.counts.chunks_exact_mut(n).zip(perm) {
                row[v as usize] += 1;
            }
        }
        self.trials += (batch.len() / n) as u64;
    }

    /// Adds the chunk's counts to `tally` and clears the chunk.
    pub(crate) fn flush_into(&mut self, tally: &mut Tally) {
        for (a, b) in tally.counts.iter_mut().zip(self.counts.iter_mut()) {
            *a += u64::from(std::mem::take(b));
        }
        tally.trials += std::mem::take(&mut self.trials);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_merge_and_validate() {
        let mut a = Tally::new(3);
        a.record(&[2, 0, 1]);
        let mut b = Tally::new(3);
        b.record(&[0, 1, 2]);
        a.merge(&b);
        assert_eq!(a.trials(), 2);
        assert_eq!(a.count(0, 2), 1);
        assert_eq!(a.count(0, 0), 1);
        assert_eq!(a.rows(), vec![vec![1, 0, 1], vec![1, 1, 0], vec![0, 1, 1]]);
        let again = Tally::from_counts(3, 2, a.counts().to_vec()).unwrap();
        assert_eq!(again, a);
        assert!(Tally::from_counts(3, 3, a.counts().to_vec()).is_none());
        assert!(Tally::from_counts(2, 2, a.counts().to_vec()).is_none());
    }

    #[test]
    fn chunk_tally_matches_direct_recording() {
        let perms = [[1u32, 0, 2], [2, 1, 0], [1, 0, 2]];
        let mut direct = Tally::new(3);
        let mut chunk = ChunkTally::new(3);
        for p in &perms {
            direct.record(p);
        }
        chunk.record_batch(&perms.concat());
        let mut flushed = Tally::new(3);
        chunk.flush_into(&mut flushed);
        assert_eq!(flushed, direct);
        chunk.flush_into(&mut flushed);
        assert_eq!(flushed, direct, "a flushed chunk must be empty");
    }
}
