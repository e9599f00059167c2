//! The whole-subset test: is every one of the C(N, k) subsets equally
//! likely?
//!
//! Under the null the trials are independent and uniform over the C(N, k)
//! subsets, so their counts are a uniform multinomial table, exactly the
//! situation of the whole-permutation test; the table goes to
//! [`gof::uniform`] (Pearson's χ²(C(N,k) − 1) when every subset expects
//! [`MIN_EXPECTED`](super::MIN_EXPECTED) counts; otherwise the collision
//! count, by sequential Monte Carlo or its moment-matched law). It sees
//! everything, but only while the subsets can be counted one by one
//! ([`MAX_SUBSET_CELLS`]) and the trials fill them.
//!
//! Subsets are indexed by their colexicographic rank ([`subset_rank`](super::subset_rank)): the
//! sorted items `c₀ < c₁ < ... < c_{k−1}` have rank `Σ C(c_i, i+1)`, a
//! bijection onto `0..C(N, k)` that does not depend on N.

use super::{
    Deviation, MAX_SUBSET_CELLS, Method, NotApplicable, SampleCell, SamplingTest, binomial,
};
use crate::stats::gof;
use crate::subsets::subset_unrank;

/// The whole-subset test of `counts[r]` = trials whose k-subset of the N =
/// `n` items has colexicographic rank r ([`subset_rank`](super::subset_rank)). `seed` drives the
/// Monte Carlo p-value of a sparse table ([`gof::uniform`]).
///
/// The largest deviation is the subset with the largest |O − E| /
/// √(E (1 − 1/C(N,k))), E = T / C(N, k).
///
/// # Panics
/// If `counts` does not have C(N, k) entries (when that is at most
/// [`MAX_SUBSET_CELLS`]).
pub fn subset(
    counts: &[u64],
    n: usize,
    k: usize,
    seed: u64,
) -> Result<SamplingTest, NotApplicable> {
    assert!(k <= n, "k = {k} items sampled out of N = {n}");
    let cells = match binomial(n, k) {
        Some(c) if c <= MAX_SUBSET_CELLS => c,
        cells => return Err(NotApplicable::TooManyCells { cells }),
    };
    assert_eq!(
        counts.len() as u64,
        cells,
        "one count per subset of {k} of {n}"
    );
    let trials: u64 = counts.iter().sum();
    if trials == 0 {
        return Err(NotApplicable::NoTrials);
    }
    if cells == 1 {
        return Err(NotApplicable::Degenerate {
            why: "there is only one subset (k = 0 or k = N)",
        });
    }
    let expected = trials as f64 / cells as f64;
    let sd = (expected * (1.0 - 1.0 / cells as f64)).sqrt();
    // The first cell of largest |z| (the table may be large: unrank only it).
    let largest = counts
        .iter()
        .enumerate()
        .map(|(r, &c)| (r, c, (c as f64 - expected) / sd))
        .filter(|&(_, _, z)| z != 0.0)
        .fold(None, |best: Option<(usize, u64, f64)>, x| match best {
            Some(b) if b.2.abs() >= x.2.abs() => Some(b),
            _ => Some(x),
        })
        .map(|(r, observed, z)| Deviation {
            cell: SampleCell::Subset(subset_unrank(r as u64, n, k)),
            observed,
            expected,
            z,
        });
    let u = gof::uniform(counts, seed);
    Ok(SamplingTest {
        statistic: u.statistic,
        df: u.df,
        log10_p: u.log10_p,
        method: Method::Uniform(u),
        min_expected: expected,
        largest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subsets::subset_rank;

    #[test]
    fn ranks_are_a_bijection_in_colex_order() {
        for (n, k) in [(5, 2), (7, 3), (6, 6), (6, 0), (10, 1), (12, 5)] {
            let cells = binomial(n, k).unwrap();
            let mut previous: Option<Vec<usize>> = None;
            for r in 0..cells {
                let s = subset_unrank(r, n, k);
                assert_eq!(s.len(), k);
                assert!(s.iter().all(|&i| i < n));
                assert_eq!(subset_rank(&s), r, "N={n} k={k}");
                if let Some(p) = previous {
                    // Colex: compare from the largest item down.
                    assert!(s.iter().rev().cmp(p.iter().rev()).is_gt());
                }
                previous = Some(s);
            }
        }
        assert_eq!(subset_rank(&[0, 1, 2]), 0);
        assert_eq!(subset_rank(&[2, 3, 4]), 9);
        assert_eq!(subset_rank(&[]), 0);
    }

    #[test]
    fn uniform_counts_pass_and_a_missing_subset_fails() {
        // N = 5, k = 2: 10 subsets.
        let fair = subset(&[100; 10], 5, 2, 1).unwrap();
        assert_eq!(fair.statistic, 0.0);
        assert_eq!(fair.df, 9.0);
        assert!(fair.largest.is_none());
        let mut counts = [111u64; 10];
        counts[9] = 1;
        let t = subset(&counts, 5, 2, 1).unwrap();
        // X² = 9·11²/100 + 99²/100 = 108.9 on 9 df.
        assert!((t.statistic - 108.9).abs() < 1e-9);
        assert!(t.log10_p < -15.0, "{}", t.log10_p);
        let d = t.largest.unwrap();
        assert_eq!(d.cell, SampleCell::Subset(vec![3, 4]));
        assert_eq!(d.observed, 1);
        assert!((d.expected - 100.0).abs() < 1e-12);
    }

    #[test]
    fn too_many_subsets_and_degenerate_cases_are_refused() {
        assert_eq!(
            subset(&[], 52, 5, 1),
            Err(NotApplicable::TooManyCells {
                cells: Some(2_598_960)
            })
        );
        assert_eq!(
            subset(&[], 200, 100, 1),
            Err(NotApplicable::TooManyCells { cells: None })
        );
        assert!(matches!(
            subset(&[7], 4, 4, 1),
            Err(NotApplicable::Degenerate { .. })
        ));
        assert_eq!(subset(&[0; 10], 5, 2, 1), Err(NotApplicable::NoTrials));
        // Sparse: 3 trials over 10 subsets, Monte Carlo.
        let mut sparse = [0u64; 10];
        sparse[..3].fill(1);
        let t = subset(&sparse, 5, 2, 1).unwrap();
        assert!(
            matches!(&t.method, Method::Uniform(u) if u.method == gof::SparseMethod::MonteCarlo)
        );
        assert!(t.min_expected < 1.0);
    }
}
