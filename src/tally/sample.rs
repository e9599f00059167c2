//! What a sampler audit counts: how often each item is drawn (inclusion),
//! each pair of items together, each whole subset (while there are few),
//! and, for an ordered sampler, each item at each slot of the sample.
//!
//! Tallies of disjoint sets of trials merge by addition, like the shuffle
//! tally, so counts do not depend on the number of threads.

use crate::subsets::{binomial, pair_index};
use serde::{Deserialize, Serialize};

/// Most items for which pair counts are kept: N(N−1)/2 counters, about two
/// million at this N.
pub const MAX_PAIR_N: usize = 2048;

/// Most subsets (C(N, k)) counted one by one.
pub const MAX_SUBSETS: u64 = 1 << 20;

/// The counts of many samples of k items from the population `0..n`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleTally {
    n: usize,
    k: usize,
    trials: u64,
    /// `inclusion[i]`: trials whose sample holds item i (for a weighted
    /// pick, k = 1: how often i was picked).
    inclusion: Vec<u64>,
    /// `pairs[pair_index(n, i, j)]`: trials holding both i and j (i < j), for
    /// k ≥ 2 and n ≤ [`MAX_PAIR_N`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pairs: Option<Vec<u64>>,
    /// `slots[s * n + v]`: trials with item v at slot s of the sample, for
    /// ordered samplers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    slots: Option<Vec<u64>>,
    /// `subsets[rank]`: trials drawing each k-subset (colex rank), while
    /// C(n, k) ≤ [`MAX_SUBSETS`] and k ≥ 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subsets: Option<Vec<u64>>,
}

/// The colex rank of a sorted k-subset among all k-subsets of `0..n`:
/// Σ C(c_i, i + 1) over its items c_0 < c_1 < …, using `table[c][i]` =
/// C(c, i + 1).
fn colex_rank(sorted: &[u32], table: &[Vec<u64>]) -> usize {
    sorted
        .iter()
        .enumerate()
        .map(|(i, &c)| table[c as usize][i] as usize)
        .sum()
}

impl SampleTally {
    /// An empty tally of samples of `k` items from `0..n`; `ordered` keeps
    /// the slot-by-item counts.
    pub fn new(n: usize, k: usize, ordered: bool) -> Self {
        let pairs = (k >= 2 && n <= MAX_PAIR_N).then(|| vec![0; n * (n - 1) / 2]);
        let subsets = binomial(n, k)
            .filter(|&c| k >= 2 && c <= MAX_SUBSETS)
            .map(|c| vec![0; c as usize]);
        Self {
            n,
            k,
            trials: 0,
            inclusion: vec![0; n],
            pairs,
            slots: (ordered && k >= 2).then(|| vec![0; k * n]),
            subsets,
        }
    }

    /// The population size N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Items per sample.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Trials counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// How often each item was in the sample.
    pub fn inclusion(&self) -> &[u64] {
        &self.inclusion
    }

    /// Pair counts, by [`pair_index`], when kept.
    pub fn pairs(&self) -> Option<&[u64]> {
        self.pairs.as_deref()
    }

    /// Slot-by-item counts (`[slot * n + item]`), for ordered samplers.
    pub fn slots(&self) -> Option<&[u64]> {
        self.slots.as_deref()
    }

    /// Counts of each whole subset (colex rank), when kept.
    pub fn subsets(&self) -> Option<&[u64]> {
        self.subsets.as_deref()
    }

    /// Adds `other`, a tally of other trials of the same kind.
    ///
    /// # Panics
    /// If the two tallies are not of the same n, k and kind.
    pub fn merge(&mut self, other: &SampleTally) {
        assert_eq!((self.n, self.k), (other.n, other.k), "tallies differ");
        self.trials += other.trials;
        super::add(&mut self.inclusion, &other.inclusion);
        for (a, b) in [
            (&mut self.pairs, &other.pairs),
            (&mut self.slots, &other.slots),
            (&mut self.subsets, &other.subsets),
        ] {
            match (a, b) {
                (Some(a), Some(b)) => super::add(a, b),
                (None, None) => {}
                _ => panic!("tallies collect different counts"),
            }
        }
    }
}

/// Counts samples into a [`SampleTally`], with the buffers that keep each
/// sample's counting free of allocation.
#[derive(Debug, Clone)]
pub struct SampleCounter {
    tally: SampleTally,
    sorted: Vec<u32>,
    /// `colex[c][i]` = C(c, i + 1), when subsets are counted.
    colex: Vec<Vec<u64>>,
}

impl SampleCounter {
    /// A counter into an empty tally (see [`SampleTally::new`]).
    pub fn new(n: usize, k: usize, ordered: bool) -> Self {
        let tally = SampleTally::new(n, k, ordered);
        let colex = if tally.subsets.is_some() {
            (0..n)
                .map(|c| {
                    (0..k)
                        .map(|i| binomial(c, i + 1).expect("below C(n, k)"))
                        .collect()
                })
                .collect()
        } else {
            Vec::new()
        };
        Self {
            tally,
            sorted: Vec::with_capacity(k),
            colex,
        }
    }

    /// Counts one sample (k distinct items of `0..n`, in the sampler's
    /// order).
    #[inline]
    pub fn count(&mut self, sample: &[u32]) {
        let t = &mut self.tally;
        debug_assert_eq!(sample.len(), t.k);
        t.trials += 1;
        for &item in sample {
            t.inclusion[item as usize] += 1;
        }
        if let Some(slots) = &mut t.slots {
            for (slot, &item) in sample.iter().enumerate() {
                slots[slot * t.n + item as usize] += 1;
            }
        }
        if t.pairs.is_none() && t.subsets.is_none() {
            return;
        }
        self.sorted.clear();
        self.sorted.extend_from_slice(sample);
        self.sorted.sort_unstable();
        if let Some(pairs) = &mut t.pairs {
            for (b, &j) in self.sorted.iter().enumerate() {
                for &i in &self.sorted[..b] {
                    pairs[pair_index(t.n, i as usize, j as usize)] += 1;
                }
            }
        }
        if let Some(subsets) = &mut t.subsets {
            subsets[colex_rank(&self.sorted, &self.colex)] += 1;
        }
    }

    /// The counts so far, the counter counting on (what a checkpoint
    /// saves).
    pub fn so_far(&self) -> &SampleTally {
        &self.tally
    }

    /// The counts so far.
    pub fn finish(self) -> SampleTally {
        self.tally
    }
}

impl SampleTally {
    /// The lengths of everything a sampler tally counts, with its N and k: two
    /// tallies of the same shape can be merged and tested alike.
    pub fn shape(&self) -> [usize; 6] {
        let tally = self;
        let len = |counts: Option<&[u64]>| counts.map_or(usize::MAX, <[u64]>::len);
        [
            tally.n(),
            tally.k(),
            tally.inclusion().len(),
            len(tally.pairs()),
            len(tally.slots()),
            len(tally.subsets()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subset_and_pair_is_counted_in_its_cell() {
        let n = 6;
        // Every 3-subset of 0..6 has its own colex rank below C(6, 3).
        let mut counter = SampleCounter::new(n, 3, false);
        for a in 0..n as u32 {
            for b in a + 1..n as u32 {
                for c in b + 1..n as u32 {
                    counter.count(&[c, a, b]);
                }
            }
        }
        let tally = counter.finish();
        assert_eq!(tally.trials(), 20);
        assert_eq!(tally.subsets().unwrap(), &[1u64; 20][..]);
        assert_eq!(tally.inclusion(), &[10u64; 6][..]);
        assert_eq!(tally.pairs().unwrap(), &[4u64; 15][..]);
        // The counter's fast rank is the tests' colex rank.
        let mut one = SampleCounter::new(n, 3, false);
        one.count(&[5, 1, 3]);
        let subsets = one.finish().subsets().unwrap().to_vec();
        assert_eq!(subsets[crate::subsets::subset_rank(&[1, 3, 5]) as usize], 1);
    }

    #[test]
    fn tallies_merge_by_addition_and_keep_slots_for_ordered_samples() {
        let mut a = SampleCounter::new(4, 2, true);
        a.count(&[3, 1]);
        let mut b = SampleCounter::new(4, 2, true);
        b.count(&[1, 3]);
        b.count(&[0, 2]);
        let mut merged = a.finish();
        merged.merge(&b.finish());
        assert_eq!(merged.trials(), 3);
        assert_eq!(merged.inclusion(), &[1, 2, 1, 2]);
        // Slot 0 held 3, 1, 0; slot 1 held 1, 3, 2.
        assert_eq!(merged.slots().unwrap(), &[1, 1, 0, 1, 0, 1, 1, 1]);
        assert_eq!(merged.pairs().unwrap()[pair_index(4, 1, 3)], 2);
        assert!(SampleTally::new(49, 6, false).subsets().is_none());
        assert!(SampleTally::new(10, 1, false).pairs().is_none());
    }
}
