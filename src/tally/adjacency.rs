//! Adjacency counts of a deck whose items repeat (a shoe): for each ordered
//! pair of kinds (a, b), how many times an item of kind a lies directly
//! before one of kind b, over all trials. Their law under a uniform
//! arrangement of the multiset is [`crate::stats::adjacency`]'s.
//!
//! The tally holds what it counts against (each item's kind), so that
//! tallies merge by addition only when they counted the same deck.

use serde::{Deserialize, Serialize};

/// The kind-after-kind table of a deck with repeated items (see the module
/// doc).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdjacencyCounts {
    /// The kind (0..kinds) of each item, by item index.
    pub of_item: Vec<u32>,
    /// Number of kinds, K.
    pub kinds: usize,
    /// `counts[a * K + b]`: positions p with kind a at p and kind b at p + 1,
    /// summed over the trials.
    pub counts: Vec<u64>,
}

impl AdjacencyCounts {
    /// Empty counts for a deck whose item i is of kind `of_item[i]`.
    pub fn new(of_item: Vec<u32>) -> Self {
        let kinds = of_item.iter().map(|&k| k as usize + 1).max().unwrap_or(0);
        Self {
            of_item,
            kinds,
            counts: vec![0; kinds * kinds],
        }
    }

    /// Counts permutations of `n` items stored back to back in `batch`.
    #[inline]
    pub fn count_batch(&mut self, batch: &[u32], n: usize) {
        let k = self.kinds;
        for deal in batch.chunks_exact(n) {
            let mut before = self.of_item[deal[0] as usize] as usize;
            for &item in &deal[1..] {
                let kind = self.of_item[item as usize] as usize;
                self.counts[before * k + kind] += 1;
                before = kind;
            }
        }
    }

    /// Adds the counts of another tally of the same deck.
    pub fn merge(&mut self, other: &AdjacencyCounts) {
        assert_eq!(
            self.of_item, other.of_item,
            "cannot merge adjacency counts of different decks"
        );
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// How many items each kind has.
    pub fn copies(&self) -> Vec<u64> {
        let mut copies = vec![0; self.kinds];
        for &k in &self.of_item {
            copies[k as usize] += 1;
        }
        copies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_kind_after_kind_and_merges() {
        // Items 0, 1 of kind 0, item 2 of kind 1: deals 0 2 1 and 2 1 0.
        let mut a = AdjacencyCounts::new(vec![0, 0, 1]);
        a.count_batch(&[0, 2, 1, 2, 1, 0], 3);
        assert_eq!(a.counts, vec![1, 1, 2, 0]);
        assert_eq!(a.copies(), vec![2, 1]);
        let mut b = a.clone();
        b.merge(&a);
        assert_eq!(b.counts, vec![2, 2, 4, 0]);
    }
}
