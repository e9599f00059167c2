//! The inclusion test: is every item in the sample equally often?
//!
//! # Calibration
//!
//! Let `I` be the 0/1 vector of the items a trial includes: exactly k of the
//! N, uniformly. With `p = k/N`,
//!
//! ```text
//! E I_i = p,   Var I_i = p(1−p),
//! Cov(I_i, I_j) = P(i, j both in) − p² = k(k−1)/(N(N−1)) − k²/N²
//!               = (k/N)·(N(k−1) − k(N−1))/(N(N−1)) = −p(1−p)/(N−1)   (i ≠ j),
//! ```
//!
//! so `Cov I = p(1−p)·(N/(N−1))·(I − J/N)`: the centring projection `I − J/N`
//! (rank N−1) times `σ² = p(1−p)·N/(N−1)` (check the diagonal:
//! σ²·(1 − 1/N) = p(1−p)). Over T independent trials the deviations
//! `D_i = C_i − Tp` have covariance `T·σ²·(I − J/N)` (and `Σ D_i = 0`
//! exactly, as `Σ C_i = Tk`), so by the central limit theorem
//!
//! ```text
//! Q = ‖D‖² / (T σ²) = ((N−1)/N) · Σ (C_i − Tp)² / (T p (1−p))  →  χ²(N−1).
//! ```
//!
//! For k = 1, `T p(1−p)·N/(N−1) = T/N`: Q is Pearson's statistic, and the
//! test is [`gof::uniform`] over the N items, with its sparse-table methods.
//! For k = N−1 the excluded item is a uniform 1-subset and `Q` is that
//! table's Pearson statistic, so the same holds on the complement counts
//! `T − C_i`. Q is symmetric under k ↔ N−k in general.
//!
//! Finite T: `Q = (1/(Tσ²)) ‖Σ_t (I_t − p)‖²`, and `‖I_t − p‖² = k(1−p)` is
//! the same for every subset, so `Q = (N−1) + (2/(Tσ²)) Σ_{t<u} h(t, u)` with
//! `h = ⟨I_t − p, I_u − p⟩ = |S_t ∩ S_u| − k²/N`, whose mean given either
//! trial is 0. Hence `E Q = N−1` and `Var Q = 2(N−1)(1 − 1/T)` exactly (the
//! unit tests check both by enumerating all pairs of subsets), and the
//! higher cumulants follow from the hypergeometric law of `|S_t ∩ S_u|`
//! ([`super::law`]). For 2 ≤ k ≤ N−2 the p-value is the shifted gamma with
//! Q's exact first three cumulants, once `T·min(p, 1−p) ≥`
//! [`MIN_EXPECTED`](super::MIN_EXPECTED) and the fourth cumulant is close
//! to the law's ([`super::MAX_EXCESS_KURTOSIS`]).
//!
//! k = 0 and k = N are degenerate: every trial includes the same items.

use super::law::{Kernel, intersection_law};
use super::{Deviation, Method, NotApplicable, SampleCell, SamplingTest, keep_largest};
use crate::stats::gof;

/// The overlap kernel of the inclusion statistic for k of N items
/// (1 ≤ k ≤ N−1): df N−1, λ = p(1−p)·N/(N−1), h = |S ∩ S'| − k²/N.
pub fn kernel(n: usize, k: usize) -> Kernel {
    let (nf, kf) = (n as f64, k as f64);
    let p = kf / nf;
    let mean = kf * kf / nf;
    Kernel::from_overlap(
        nf - 1.0,
        p * (1.0 - p) * nf / (nf - 1.0),
        &intersection_law(n, k),
        |x| x - mean,
    )
}

/// The inclusion test of counts `counts[i]` = trials (of `trials`) whose
/// k-subset included item i, with N = `counts.len()`. `seed` drives the
/// Monte Carlo p-value of sparse tables when k = 1 or k = N−1 (see
/// [`gof::uniform`]).
///
/// The largest deviation is the item with the largest |C_i − Tp| /
/// √(T p (1−p)), with expected count Tp.
///
/// # Panics
/// If k > N or a count exceeds `trials`.
pub fn inclusion(
    counts: &[u64],
    trials: u64,
    k: usize,
    seed: u64,
) -> Result<SamplingTest, NotApplicable> {
    let n = counts.len();
    assert!(k <= n, "k = {k} items sampled out of N = {n}");
    assert!(
        counts.iter().all(|&c| c <= trials),
        "an item is included in more than the {trials} trials"
    );
    if trials == 0 {
        return Err(NotApplicable::NoTrials);
    }
    if k == 0 || k == n {
        return Err(NotApplicable::Degenerate {
            why: "every trial includes the same items (k = 0 or k = N)",
        });
    }
    let (nf, t) = (n as f64, trials as f64);
    let p = k as f64 / nf;
    let variance = p * (1.0 - p);
    let expected = t * p;
    let sd = (t * variance).sqrt();
    let mut largest = None;
    for (i, &c) in counts.iter().enumerate() {
        keep_largest(
            &mut largest,
            Deviation {
                cell: SampleCell::Item(i),
                observed: c,
                expected,
                z: (c as f64 - expected) / sd,
            },
        );
    }
    let rarer = p.min(1.0 - p);
    if k == 1 || k == n - 1 {
        let table: Vec<u64> = if k == 1 {
            counts.to_vec()
        } else {
            counts.iter().map(|&c| trials - c).collect()
        };
        let u = gof::uniform(&table, seed);
        return Ok(SamplingTest {
            statistic: u.statistic,
            df: u.df,
            log10_p: u.log10_p,
            method: Method::Uniform(u),
            min_expected: t * rarer,
            largest,
        });
    }
    let (law, min_expected) = kernel(n, k).decide(trials, rarer)?;
    let statistic = statistic(counts, trials, k);
    let df = nf - 1.0;
    Ok(SamplingTest {
        statistic,
        df,
        log10_p: law.log10_sf(statistic),
        method: Method::QuadraticForm {
            statistic: "Q = ((N-1)/N) sum (C_i - Tp)^2 / (T p (1-p)) over the N items",
            law,
        },
        min_expected,
        largest,
    })
}

/// Q = ((N−1)/N) Σ (C_i − Tp)² / (T p (1−p)).
fn statistic(counts: &[u64], trials: u64, k: usize) -> f64 {
    let (nf, t) = (counts.len() as f64, trials as f64);
    let p = k as f64 / nf;
    let sum_sq: f64 = counts.iter().map(|&c| (c as f64 - t * p).powi(2)).sum();
    (nf - 1.0) / nf * sum_sq / (t * p * (1.0 - p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sampling::subset_unrank;

    fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
        let count = super::super::binomial(n, k).unwrap();
        (0..count).map(|r| subset_unrank(r, n, k)).collect()
    }

    /// The statistic of a tally of the given subsets.
    fn q(n: usize, k: usize, trials: &[&Vec<usize>]) -> f64 {
        let mut counts = vec![0u64; n];
        for s in trials {
            for &i in s.iter() {
                counts[i] += 1;
            }
        }
        statistic(&counts, trials.len() as u64, k)
    }

    #[test]
    fn cumulants_match_every_four_trials() {
        for (n, k) in [(6, 2), (7, 3), (5, 1)] {
            let all = subsets(n, k);
            let law = kernel(n, k).law(4);
            crate::stats::sampling::law::assert_cumulants(
                all.len(),
                4,
                |tuple| q(n, k, &tuple.iter().map(|&i| &all[i]).collect::<Vec<_>>()),
                &law,
            );
        }
    }

    #[test]
    fn exact_mean_and_variance_over_all_pairs_of_subsets() {
        // T = 2: every ordered pair of k-subsets is equally likely. E Q = N−1
        // and Var Q = 2(N−1)(1 − 1/2) exactly, as derived in the module docs.
        for (n, k) in [(5, 2), (7, 3), (8, 4), (6, 1)] {
            let all = subsets(n, k);
            let (mut m1, mut m2) = (0.0, 0.0);
            for a in &all {
                for b in &all {
                    let x = q(n, k, &[a, b]);
                    m1 += x;
                    m2 += x * x;
                }
            }
            let pairs = (all.len() * all.len()) as f64;
            let (mean, var) = (m1 / pairs, m2 / pairs - (m1 / pairs).powi(2));
            let df = (n - 1) as f64;
            assert!((mean - df).abs() < 1e-9, "N={n} k={k}: mean {mean}");
            assert!((var - df).abs() < 1e-9, "N={n} k={k}: variance {var}");
        }
    }

    #[test]
    fn matches_a_hand_computation() {
        // N = 4, k = 2, T = 200: p = 1/2, E = 100; counts 110, 90, 100, 100.
        // Q = (3/4)·(100 + 100)/(200/4) = 3 on 3 df.
        let t = inclusion(&[110, 90, 100, 100], 200, 2, 1).unwrap();
        assert!((t.statistic - 3.0).abs() < 1e-12);
        assert_eq!(t.df, 3.0);
        let Method::QuadraticForm { law, .. } = &t.method else {
            panic!("{:?}", t.method)
        };
        assert_eq!(t.log10_p, law.log10_sf(3.0));
        // Close to, but not exactly, the χ²(3) tail.
        let chi2 = crate::stats::special::log10_chi2_sf(3.0, 3.0);
        assert!((t.log10_p - chi2).abs() < 0.02, "{} vs {chi2}", t.log10_p);
        assert_ne!(t.log10_p, chi2);
        assert!(t.describe().contains("shifted-gamma"));
        let d = t.largest.unwrap();
        assert_eq!(d.cell, SampleCell::Item(0));
        assert!((d.ratio() - 1.1).abs() < 1e-12);
        assert!((d.z - 10.0 / 50f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn k_of_one_and_its_complement_are_plain_pearson() {
        let counts = [30u64, 20, 25, 25];
        let one = inclusion(&counts, 100, 1, 1).unwrap();
        let pearson = gof::uniform(&counts, 1);
        assert_eq!(one.statistic, pearson.statistic);
        assert!(matches!(one.method, Method::Uniform(_)));
        // k = 3: the excluded item is the 1-subset; Q agrees with the formula.
        let complement: Vec<u64> = counts.iter().map(|c| 100 - c).collect();
        let three = inclusion(&complement, 100, 3, 1).unwrap();
        assert!((three.statistic - one.statistic).abs() < 1e-12);
        let p = 0.75f64;
        let direct = 0.75
            * complement
                .iter()
                .map(|&c| (c as f64 - 100.0 * p).powi(2))
                .sum::<f64>()
            / (100.0 * p * (1.0 - p));
        assert!((three.statistic - direct).abs() < 1e-12);
    }

    #[test]
    fn degenerate_and_sparse_cases_are_refused() {
        assert_eq!(inclusion(&[0, 0, 0], 0, 1, 1), Err(NotApplicable::NoTrials));
        assert!(matches!(
            inclusion(&[5, 5, 5], 5, 3, 1),
            Err(NotApplicable::Degenerate { .. })
        ));
        // N = 10, k = 3, T = 10: 3 expected inclusions per item.
        let e = inclusion(&[3; 10], 10, 3, 1).unwrap_err();
        let NotApplicable::TooFewTrials {
            min_expected,
            needed,
            ..
        } = e
        else {
            panic!("{e:?}")
        };
        assert_eq!(min_expected, 3.0);
        assert!(needed >= 17, "{needed}");
        assert!(inclusion(&[needed * 3 / 10; 10], needed, 3, 1).is_ok());
        // k = 1 sparse goes to the sparse-table methods instead.
        let sparse = inclusion(&[1, 0, 2, 0, 1, 0, 0, 1, 0, 0], 5, 1, 1).unwrap();
        assert!(matches!(sparse.method, Method::Uniform(_)));
    }
}
