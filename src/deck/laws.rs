//! The laws of a uniformly shuffled multiset, and the counts they apply to.
//!
//! # Position by kind (or category)
//!
//! Labelling the items of a uniform permutation of distinct items 0..n−1
//! with their kind gives a uniform arrangement of the multiset, and the
//! position-by-kind counts O_pk are the position-by-value counts summed
//! over the values of kind k (an n × m matrix). With n_k items of kind k,
//! E[O_pk] = T·n_k/n. The per-trial indicator matrix has covariance
//! (1/(n−1)) P ⊗ (A'PA) where P = I − J/n and A sums values into kinds
//! (A'PA = diag(n_k) − n_k n_k'/n). Scaling each cell by 1/√E turns it into
//! (n/(n−1))·T·(P ⊗ (I − s s')) / T with s_k = √(n_k/n) a unit vector: a
//! projection of rank (n−1)(m−1) times n/(n−1). So, as for distinct items,
//!
//! ```text
//! Q = ((n−1)/n) · Σ (O−E)²/E  ~  χ²((n−1)(m−1))   under a uniform shuffle,
//! ```
//!
//! checked by the calibration tests in [`super::battery`]. Categories are
//! kinds of coarser grain (suit: 4 kinds of n/4), so the same law applies
//! to each category column.
//!
//! # Whole arrangements
//!
//! The n! permutation counts (n ≤ 10) aggregate to the n!/∏n_k! distinct
//! arrangements, each of probability ∏n_k!/n!: a uniform law over them.
//!
//! # Hands
//!
//! The number of items of a category of size K among the first h positions
//! is hypergeometric (population n, K marked, h drawn):
//! [`crate::stats::hypergeometric`].

use crate::permutation::unrank;
use crate::stats::special::ln_chi2_sf;
use crate::tally::Tally;
use std::f64::consts::LN_10;

/// The position-by-group counts (row-major `[position][group]`, n × m) of
/// `tally`, where value v belongs to group `group_of[v]` (< `groups`).
pub fn group_matrix(tally: &Tally, group_of: &[u32], groups: usize) -> Vec<u64> {
    let n = tally.n();
    let mut out = vec![0u64; n * groups];
    for (row, counts) in out
        .chunks_exact_mut(groups)
        .zip(tally.counts().chunks_exact(n))
    {
        for (&count, &g) in counts.iter().zip(group_of) {
            row[g as usize] += count;
        }
    }
    out
}

/// The cell of the position-by-group matrix of `tally` (groups as for
/// [`group_matrix`]) that departs most from its expectation in standard
/// units, (O − E)/√E: (position, group, O/E); `None` before any trial.
pub fn group_departure(
    tally: &Tally,
    group_of: &[u32],
    groups: usize,
) -> Option<(usize, usize, f64)> {
    let (n, t) = (tally.n(), tally.trials() as f64);
    let sizes = group_sizes(group_of, groups);
    let matrix = group_matrix(tally, group_of, groups);
    let mut best: Option<(f64, (usize, usize, f64))> = None;
    for (cell, &o) in matrix.iter().enumerate() {
        let (position, group) = (cell / groups, cell % groups);
        let e = t * sizes[group] as f64 / n as f64;
        if e <= 0.0 {
            continue;
        }
        let z = (o as f64 - e).abs() / e.sqrt();
        if best.is_none_or(|(b, _)| z > b) {
            best = Some((z, (position, group, o as f64 / e)));
        }
    }
    best.map(|(_, cell)| cell)
}

/// How many values each of `groups` groups holds, value v being in group
/// `group_of[v]`.
pub fn group_sizes(group_of: &[u32], groups: usize) -> Vec<usize> {
    let mut sizes = vec![0usize; groups];
    for &g in group_of {
        sizes[g as usize] += 1;
    }
    sizes
}

/// The calibrated position-by-group chi-square (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupTest {
    /// Q = ((n−1)/n) Σ (O−E)²/E.
    pub statistic: f64,
    /// (n−1)(m−1).
    pub df: f64,
    /// log10 P(χ²(df) > Q).
    pub log10_p: f64,
}

/// The position-by-group test of `tally` for groups `group_of` (each group
/// non-empty).
pub fn group_test(tally: &Tally, group_of: &[u32], groups: usize) -> GroupTest {
    let n = tally.n();
    let t = tally.trials() as f64;
    let sizes = group_sizes(group_of, groups);
    let matrix = group_matrix(tally, group_of, groups);
    let mut pearson = 0.0;
    for row in matrix.chunks_exact(groups) {
        for (&o, &size) in row.iter().zip(&sizes) {
            let e = t * size as f64 / n as f64;
            pearson += (o as f64 - e).powi(2) / e;
        }
    }
    let statistic = pearson * (n - 1) as f64 / n as f64;
    let df = ((n - 1) * (groups - 1)) as f64;
    GroupTest {
        statistic,
        df,
        log10_p: ln_chi2_sf(statistic, df) / LN_10,
    }
}

/// Number of distinct arrangements of a multiset with `sizes` items per
/// kind: (Σ sizes)! / ∏ sizes!.
pub fn arrangements(sizes: &[usize]) -> usize {
    // Built as a product of binomials, exact in integers.
    let mut total = 1usize;
    let mut placed = 0usize;
    for &s in sizes {
        for i in 1..=s {
            placed += 1;
            total = total * placed / i;
        }
    }
    total
}

/// The rank of the arrangement `word` (kinds, each < sizes.len()) among all
/// arrangements of its multiset, in lexicographic order: a bijection onto
/// 0..[`arrangements`].
pub fn arrangement_rank(word: &[u32], sizes: &mut [usize]) -> usize {
    let mut rank = 0;
    for &k in word {
        for smaller in 0..k as usize {
            if sizes[smaller] > 0 {
                sizes[smaller] -= 1;
                rank += arrangements(sizes);
                sizes[smaller] += 1;
            }
        }
        sizes[k as usize] -= 1;
    }
    rank
}

/// The counts of each arrangement of kinds (by [`arrangement_rank`]) from
/// the counts of each permutation of n (by rank), value v being of kind
/// `kind_of[v]`.
pub fn arrangement_counts(permutations: &[u64], kind_of: &[u32], kinds: usize) -> Vec<u64> {
    let n = kind_of.len();
    let sizes = group_sizes(kind_of, kinds);
    let mut out = vec![0u64; arrangements(&sizes)];
    let mut word = vec![0u32; n];
    for (rank, &count) in permutations.iter().enumerate() {
        if count == 0 {
            continue;
        }
        for (w, v) in word.iter_mut().zip(unrank(rank, n)) {
            *w = kind_of[v as usize];
        }
        let mut left = sizes.clone();
        out[arrangement_rank(&word, &mut left)] += count;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::factorial;

    #[test]
    fn arrangement_ranks_are_a_bijection() {
        let sizes = [2usize, 1, 2];
        assert_eq!(arrangements(&sizes), 30);
        // Every permutation of 5 labelled AABCC lands on 2!·1!·2! = 4 per
        // arrangement, and every arrangement is reached.
        let kind_of = [0u32, 0, 1, 2, 2];
        let counts = arrangement_counts(&vec![1; factorial(5)], &kind_of, 3);
        assert_eq!(counts, vec![4; 30]);
        assert_eq!(arrangement_rank(&[0, 0, 1, 2, 2], &mut [2, 1, 2]), 0);
        assert_eq!(arrangement_rank(&[2, 2, 1, 0, 0], &mut [2, 1, 2]), 29);
    }

    #[test]
    fn group_matrix_sums_values_of_a_kind() {
        let mut t = Tally::new(4);
        t.record(&[0, 1, 2, 3]);
        t.record(&[2, 3, 0, 1]);
        let m = group_matrix(&t, &[0, 0, 1, 1], 2);
        assert_eq!(m, vec![1, 1, 1, 1, 1, 1, 1, 1]);
        let test = group_test(&t, &[0, 0, 1, 1], 2);
        assert_eq!(test.df, 3.0);
        assert_eq!(test.statistic, 0.0);
    }
}
