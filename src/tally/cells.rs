//! The matrix every per-cell output reads: positions down, and across what a
//! fair shuffle makes uniform at each position.
//!
//! For distinct items that is the values (or bins of positions and values
//! at large n: the tally's own matrix). For a deck whose items repeat (a
//! shoe of six decks) it is the kinds: which of the six aces of spades lands
//! where is not uniform under a perfect shuffle once the copies are numbered
//! by order of appearance (the first of six is early), so the per-item cells
//! of a multiset mean nothing; the kind at each position is what the null
//! makes uniform, with E[O_pk] = T·n_k/n. The heatmap, the largest
//! deviation, max |z|, the TV figures, counts.csv and the embedded counts
//! all read this one matrix, so they agree with the verdict's tests.
//!
//! A cell (r, c) covers `row_size(r)` positions and `column_size(c)` items
//! (values of a value bin, or copies of a kind); under a uniform shuffle it
//! expects T·a·b/n and its variance is T·a(1 − a/n)·b(1 − b/n)/(n − 1) (see
//! [`crate::stats::position_value`] and [`crate::deck::laws`]).

use super::Tally;
use std::borrow::Cow;

/// What a column of the cell matrix is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Columns {
    /// One value each (the full matrix).
    Values,
    /// A bin of values each (large n).
    ValueBins,
    /// A kind of a multiset deck each: its copies together.
    Kinds,
}

/// A position-by-column count matrix with the sizes that give each cell its
/// expectation under a uniform shuffle.
#[derive(Debug, Clone, PartialEq)]
pub struct Cells<'a> {
    n: usize,
    trials: u64,
    columns: Columns,
    counts: Cow<'a, [u64]>,
    row_sizes: Vec<usize>,
    column_sizes: Vec<usize>,
}

impl<'a> Cells<'a> {
    /// The tally's own matrix: values, or bins of positions and values.
    pub fn of(tally: &'a Tally) -> Self {
        let sizes = tally.binning().sizes();
        Self {
            n: tally.n(),
            trials: tally.trials(),
            columns: if tally.is_binned() {
                Columns::ValueBins
            } else {
                Columns::Values
            },
            counts: Cow::Borrowed(tally.counts()),
            row_sizes: sizes.clone(),
            column_sizes: sizes,
        }
    }

    /// The position-by-kind matrix of a deck whose item i is of kind
    /// `kind_of[i]` (< `kinds`), when some kind has several items; the
    /// tally's own matrix otherwise, and for a binned tally (whose columns
    /// are bins of items, not items).
    pub fn by_kind(tally: &'a Tally, kind_of: &[u32], kinds: usize) -> Self {
        if kinds >= tally.n() || tally.is_binned() || kind_of.len() != tally.n() {
            return Self::of(tally);
        }
        let n = tally.n();
        let mut column_sizes = vec![0usize; kinds];
        for &k in kind_of {
            column_sizes[k as usize] += 1;
        }
        let mut counts = vec![0u64; n * kinds];
        for (row, values) in counts
            .chunks_exact_mut(kinds)
            .zip(tally.counts().chunks_exact(n))
        {
            for (&count, &k) in values.iter().zip(kind_of) {
                row[k as usize] += count;
            }
        }
        Self {
            n,
            trials: tally.trials(),
            columns: Columns::Kinds,
            counts: Cow::Owned(counts),
            row_sizes: vec![1; n],
            column_sizes,
        }
    }

    /// Items per deck.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Trials counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// What the columns are.
    pub fn columns(&self) -> Columns {
        self.columns
    }

    /// Number of rows (positions, or position bins).
    pub fn rows(&self) -> usize {
        self.row_sizes.len()
    }

    /// Number of columns (values, value bins or kinds).
    pub fn cols(&self) -> usize {
        self.column_sizes.len()
    }

    /// Positions covered by row `r`.
    pub fn row_size(&self, r: usize) -> usize {
        self.row_sizes[r]
    }

    /// Items covered by column `c`.
    pub fn column_size(&self, c: usize) -> usize {
        self.column_sizes[c]
    }

    /// The count of cell (r, c).
    pub fn count(&self, r: usize, c: usize) -> u64 {
        self.counts[r * self.cols() + c]
    }

    /// The counts, row-major.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The counts as rows, one per position (for CSV and JSON).
    pub fn count_rows(&self) -> Vec<Vec<u64>> {
        self.counts
            .chunks(self.cols().max(1))
            .map(<[u64]>::to_vec)
            .collect()
    }

    /// What cell (r, c) expects under a uniform shuffle: T·a·b/n.
    pub fn expected(&self, r: usize, c: usize) -> f64 {
        self.trials as f64 * (self.row_sizes[r] * self.column_sizes[c]) as f64 / self.n as f64
    }

    /// The standard deviation of cell (r, c) under a uniform shuffle:
    /// √(T·a(1 − a/n)·b(1 − b/n)/(n − 1)).
    pub fn sd(&self, r: usize, c: usize) -> f64 {
        let nf = self.n as f64;
        let spread = |a: usize| a as f64 * (1.0 - a as f64 / nf);
        (self.trials as f64 * spread(self.row_sizes[r]) * spread(self.column_sizes[c]) / (nf - 1.0))
            .sqrt()
    }

    /// Observed over expected, row-major.
    pub fn ratios(&self) -> Vec<f64> {
        let cols = self.cols().max(1);
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 / self.expected(i / cols, i % cols))
            .collect()
    }

    /// The relative standard error of O/E in the noisiest cell of one
    /// position: √((n/b − 1)/T) for the smallest column of b items (b = 1,
    /// √((n − 1)/T), for values and, conservatively, for value bins).
    pub fn relative_se(&self) -> f64 {
        let b = match self.columns {
            Columns::Kinds => self.column_sizes.iter().copied().min().unwrap_or(1),
            Columns::Values | Columns::ValueBins => 1,
        };
        ((self.n as f64 / b as f64 - 1.0) / self.trials.max(1) as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_sum_their_copies_and_expect_their_share() {
        // Items 0, 1 of kind 0 and item 2 of kind 1; two deals.
        let mut tally = Tally::new(3);
        tally.record(&[0, 1, 2]);
        tally.record(&[2, 0, 1]);
        let cells = Cells::by_kind(&tally, &[0, 0, 1], 2);
        assert_eq!(cells.columns(), Columns::Kinds);
        assert_eq!((cells.rows(), cells.cols()), (3, 2));
        assert_eq!(cells.count_rows(), vec![vec![1, 1], vec![2, 0], vec![1, 1]]);
        assert!((cells.expected(0, 0) - 2.0 * 2.0 / 3.0).abs() < 1e-12);
        // A kind of b items at one position is Bernoulli(b/n) per trial.
        let p: f64 = 2.0 / 3.0;
        assert!((cells.sd(1, 0) - (2.0 * p * (1.0 - p)).sqrt()).abs() < 1e-12);
        assert_eq!(cells.ratios()[2], 2.0 / cells.expected(1, 0));
    }

    #[test]
    fn distinct_kinds_are_the_tally_itself() {
        let mut tally = Tally::new(3);
        tally.record(&[1, 0, 2]);
        let cells = Cells::by_kind(&tally, &[0, 1, 2], 3);
        assert_eq!(cells, Cells::of(&tally));
        assert_eq!(cells.columns(), Columns::Values);
        assert_eq!(cells.counts(), tally.counts());
    }
}
