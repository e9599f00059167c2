//! Hand counts: for each category of each category column, how many trials
//! put exactly c items of that category among the first h positions (the
//! "hand"). Under a uniform shuffle each histogram follows the
//! hypergeometric law (see [`crate::deck::laws`]); the position-by-value
//! matrix only gives its mean, so these are counted per trial.
//!
//! The tally holds what it counts against (each item's category), so that
//! tallies merge by addition only when they counted the same hands.

use serde::{Deserialize, Serialize};

/// The hand counts of one category column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandColumn {
    /// The category (0..categories) of each item, by item index.
    pub of_item: Vec<u32>,
    /// Number of categories.
    pub categories: usize,
    /// `counts[c * (h + 1) + k]`: trials with exactly k items of category c
    /// among the first h positions.
    pub counts: Vec<u64>,
}

/// Hand counts of every category column (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandCounts {
    /// The hand size: the first `h` positions.
    pub h: usize,
    /// One per category column.
    pub columns: Vec<HandColumn>,
}

impl HandCounts {
    /// Empty counts of hands of `h` for columns giving each item's
    /// category (`columns[j][item]`, categories numbered from 0).
    pub fn new(h: usize, columns: &[Vec<u32>]) -> Self {
        let columns = columns
            .iter()
            .map(|of_item| {
                let categories = of_item.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
                HandColumn {
                    of_item: of_item.clone(),
                    categories,
                    counts: vec![0; categories * (h + 1)],
                }
            })
            .collect();
        Self { h, columns }
    }

    /// The histogram of category `c` of column `column`: index k is the
    /// number of trials with exactly k of that category in the hand.
    pub fn histogram(&self, column: usize, c: usize) -> &[u64] {
        let width = self.h + 1;
        &self.columns[column].counts[c * width..(c + 1) * width]
    }

    /// Counts permutations of `n` stored back to back in `batch`.
    #[inline]
    pub fn count_batch(&mut self, batch: &[u32], n: usize, scratch: &mut Vec<u32>) {
        let (h, width) = (self.h, self.h + 1);
        for column in &mut self.columns {
            scratch.clear();
            scratch.resize(column.categories, 0);
            for perm in batch.chunks_exact(n) {
                for &v in &perm[..h] {
                    scratch[column.of_item[v as usize] as usize] += 1;
                }
                for (c, k) in scratch.iter_mut().enumerate() {
                    column.counts[c * width + *k as usize] += 1;
                    *k = 0;
                }
            }
        }
    }

    /// Whether `other` counted the same hands (same h, same categories).
    pub fn same_shape(&self, other: &HandCounts) -> bool {
        self.h == other.h
            && self.columns.len() == other.columns.len()
            && self
                .columns
                .iter()
                .zip(&other.columns)
                .all(|(a, b)| a.of_item == b.of_item && a.categories == b.categories)
    }

    /// Adds counts of the same hands.
    ///
    /// # Panics
    /// If `other` counted other hands.
    pub fn merge(&mut self, other: &HandCounts) {
        assert!(self.same_shape(other), "cannot merge different hand counts");
        for (a, b) in self.columns.iter_mut().zip(&other.columns) {
            super::add(&mut a.counts, &b.counts);
        }
    }

    /// Whether every histogram sums to `trials`, as any tally's must.
    pub fn consistent(&self, trials: u64) -> bool {
        self.columns.iter().all(|col| {
            col.counts
                .chunks(self.h + 1)
                .all(|hist| hist.iter().sum::<u64>() == trials)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_hands_and_merges() {
        // Items 0, 1 are category 0; 2, 3 category 1; hand of 2.
        let mut a = HandCounts::new(2, &[vec![0, 0, 1, 1]]);
        let mut scratch = Vec::new();
        a.count_batch(&[0, 1, 2, 3, 2, 0, 1, 3], 4, &mut scratch);
        assert_eq!(a.histogram(0, 0), &[0, 1, 1]);
        assert_eq!(a.histogram(0, 1), &[1, 1, 0]);
        let mut b = HandCounts::new(2, &[vec![0, 0, 1, 1]]);
        b.count_batch(&[3, 2, 1, 0], 4, &mut scratch);
        a.merge(&b);
        assert_eq!(a.histogram(0, 0), &[1, 1, 1]);
        assert!(a.consistent(3));
        assert!(!a.same_shape(&HandCounts::new(3, &[vec![0, 0, 1, 1]])));
    }
}
