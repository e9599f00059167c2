//! The pairs test: do any two items come together as often as they should,
//! beyond what their inclusion rates explain?
//!
//! Systematic sampling (take s, s + N/k, s + 2N/k, ... from a random start s)
//! includes every item with probability exactly k/N, so the inclusion test
//! cannot see it; but it only ever puts items N/k apart together. The pair
//! counts `P_ij` (trials that include both i and j, i < j) see it.
//!
//! # Calibration
//!
//! Let `Y` be one trial's pair-indicator vector, `Y_ij = I_i I_j`, of
//! dimension `M = C(N,2)`. With falling-factorial ratios
//! `q = k(k−1)/(N(N−1))`, `r₃ = k(k−1)(k−2)/(N(N−1)(N−2))`,
//! `r₄ = k(k−1)(k−2)(k−3)/(N(N−1)(N−2)(N−3))` (the probabilities that 2, 3,
//! 4 given items are all in), `E Y_ij = q` and `Cov Y` has only three
//! distinct entries:
//!
//! ```text
//! a = q − q²     the same pair,
//! b = r₃ − q²    pairs sharing one item,
//! c = r₄ − q²    disjoint pairs.
//! ```
//!
//! `Cov Y = a·I + b·A₁ + c·A₂`, with `A₁`, `A₂` the adjacency matrices of the
//! Johnson scheme J(N, 2) (pairs sharing one item; disjoint pairs). For N ≥ 4
//! their common eigenspaces are `V₀` (constants, dim 1), `V₁` (dim N−1) and
//! `V₂` (dim N(N−3)/2), on which `A₁` acts as 2(N−2), N−4, −2 and `A₂` as
//! C(N−2, 2), −(N−3), 1. So `Cov Y = λ₀E₀ + λ₁E₁ + λ₂E₂` (E the orthogonal
//! projections) with
//!
//! ```text
//! λ₀ = a + 2(N−2) b + C(N−2,2) c = 0      (Σ Y_ij = C(k,2) is fixed),
//! λ₁ = a + (N−4) b − (N−3) c = (k−1)² N p(1−p) / ((N−1)(N−2)),
//! λ₂ = a − 2b + c = q − 2r₃ + r₄.
//! ```
//!
//! (The unit tests check `λ₀ = 0`, this `λ₁` and the trace identity
//! `M·a = (N−1)λ₁ + dim V₂·λ₂` at many N and k.) `V₀ ⊕ V₁` is the image of
//! `Bᵀ`, where `(B y)_i = Σ_{j≠i} y_ij` are the row sums and
//! `(Bᵀ x)_ij = x_i + x_j`; since `B Y = (k−1)·I` (an item in the sample
//! pairs with the k−1 others), the `V₀ ⊕ V₁` part of the pair counts is a
//! function of the inclusion counts alone: `V₁` is exactly what the
//! [inclusion test](mod@super::inclusion) sees, and `V₂` is what it cannot.
//!
//! With `D_ij = P_ij − Tq`, row sums `R_i = Σ_{j≠i} D_ij` and total
//! `S = Σ D_ij`, and `B Bᵀ = (N−2)I + J`, the projection onto `V₂` is
//!
//! ```text
//! D₂_ij = D_ij − (R_i + R_j)/(N−2) + 2S/((N−1)(N−2)),
//! ```
//!
//! (S = 0 for any tally of k-subsets), `Cov D₂ = T λ₂ E₂` over T trials, and
//!
//! ```text
//! Q = ‖D₂‖² / (T λ₂)  →  χ²(N(N−3)/2),
//! ```
//!
//! asymptotically independent of the inclusion statistic (its V₁ part,
//! uncorrelated with V₂, jointly Gaussian in the limit).
//!
//! As for inclusion, every k-subset has the same `‖E₂(Y − q)‖² = dim·λ₂`
//! (the symmetric group is transitive on k-subsets and commutes with E₂),
//! so Q is `dim` plus a degenerate U-statistic over pairs of trials:
//! `E Q = N(N−3)/2` and `Var Q = N(N−3)(1 − 1/T)` exactly (checked by
//! enumeration). Its kernel is `h = ⟨E₂Y, E₂Y'⟩ = Yᵀ Y' − (BY)ᵀ(BBᵀ)⁻¹(BY')`,
//! a function of the intersection size x of the two subsets:
//!
//! ```text
//! h(x) = C(x, 2) − (k−1)²·(x − k²/(2(N−1)))/(N−2),
//! ```
//!
//! whose hypergeometric moments give Q's exact cumulants ([`super::law`]).
//! The pairs statistic is markedly more skewed than χ² near the smallest
//! usable T, so its shifted-gamma law matters most here. The complement of a k-subset has pair indicators
//! `1 − I_i − I_j + Y_ij`: the same `V₂` part, so Q is the same statistic for
//! k and N−k, and `λ₂(k) = λ₂(N−k)`.
//!
//! Not applicable when there is no `V₂` or no variance in it: N ≤ 3
//! (dim 0), k ≤ 1 (no pairs), k ≥ N−1 (λ₂ = 0: an (N−1)-subset is fixed by
//! the item left out). The law needs `T·q' ≥`
//! [`MIN_EXPECTED`](super::MIN_EXPECTED), where q' is q at min(k, N−k), and
//! the fourth cumulant close to the law's ([`super::MAX_EXCESS_KURTOSIS`]).

use super::law::{Kernel, intersection_law};
use super::{Deviation, Method, NotApplicable, SampleCell, SamplingTest, keep_largest};

/// The per-trial variance λ₂ of the pair counts beyond inclusion (module
/// docs): `q − 2r₃ + r₄`.
pub fn lambda2(n: usize, k: usize) -> f64 {
    let ratio = |m: usize| -> f64 {
        (0..m)
            .map(|i| (k as f64 - i as f64) / (n as f64 - i as f64))
            .product()
    };
    ratio(2) - 2.0 * ratio(3) + ratio(4)
}

/// The overlap kernel of the pairs statistic for k of N items
/// (N ≥ 4, 2 ≤ k ≤ N−2): df N(N−3)/2, λ₂, and h(x) from the module docs.
pub fn kernel(n: usize, k: usize) -> Kernel {
    let (nf, kf) = (n as f64, k as f64);
    let shift = kf * kf / (2.0 * (nf - 1.0));
    let slope = (kf - 1.0) * (kf - 1.0) / (nf - 2.0);
    Kernel::from_overlap(
        nf * (nf - 3.0) / 2.0,
        lambda2(n, k),
        &intersection_law(n, k),
        |x| x * (x - 1.0) / 2.0 - slope * (x - shift),
    )
}

/// `‖D₂‖²`: the squared norm of the centred pair counts projected onto V₂
/// (module docs).
fn beyond_inclusion(pair_counts: &[u64], n: usize, trials: u64, k: usize) -> f64 {
    let nf = n as f64;
    let expected = trials as f64 * k as f64 * (k as f64 - 1.0) / (nf * (nf - 1.0));
    projected_norm(n, |idx| pair_counts[idx] as f64 - expected)
}

/// `‖E₂ d‖²`: the squared norm of the projection onto V₂ of any vector `d`
/// over the pairs of N = `n` items (`d(pair_index(n, i, j))` = its pair
/// (i, j) entry): `d_ij − (R_i + R_j)/(N−2) + 2S/((N−1)(N−2))`, with row
/// sums `R` and total `S` (module docs). With `d` the centred pair counts it
/// is the statistic's numerator; with `d` a true law's pair probabilities
/// less q it gives the test's non-centrality per trial, `‖E₂ d‖² / λ₂`.
pub fn projected_norm(n: usize, d: impl Fn(usize) -> f64) -> f64 {
    let nf = n as f64;
    let mut rows = vec![0.0f64; n];
    let mut total = 0.0f64;
    let mut idx = 0;
    for i in 0..n {
        for j in i + 1..n {
            let d = d(idx);
            idx += 1;
            rows[i] += d;
            rows[j] += d;
            total += d;
        }
    }
    let shift = 2.0 * total / ((nf - 1.0) * (nf - 2.0));
    let mut sum_sq = 0.0;
    idx = 0;
    for i in 0..n {
        for j in i + 1..n {
            let d = d(idx);
            idx += 1;
            let d2 = d - (rows[i] + rows[j]) / (nf - 2.0) + shift;
            sum_sq += d2 * d2;
        }
    }
    sum_sq
}

/// The pairs test of `pair_counts` (length N(N−1)/2, laid out as by
/// [`pair_index`](super::pair_index)): `pair_counts[pair_index(n, i, j)]` = trials (of
/// `trials`) whose k-subset included both i and j.
///
/// The largest deviation is the pair with the largest |P_ij − Tq| /
/// √(T q (1−q)), with expected count Tq (the raw pair frequency, whatever
/// causes it).
///
/// # Panics
/// If the table's length is not N(N−1)/2, k > N, or a count exceeds `trials`.
pub fn pairs(
    pair_counts: &[u64],
    n: usize,
    trials: u64,
    k: usize,
) -> Result<SamplingTest, NotApplicable> {
    assert_eq!(
        pair_counts.len(),
        n * n.saturating_sub(1) / 2,
        "pair table of {n} items"
    );
    assert!(k <= n, "k = {k} items sampled out of N = {n}");
    assert!(
        pair_counts.iter().all(|&c| c <= trials),
        "a pair is included in more than the {trials} trials"
    );
    if trials == 0 {
        return Err(NotApplicable::NoTrials);
    }
    if n <= 3 {
        return Err(NotApplicable::Degenerate {
            why: "with N <= 3 items the pair counts are fixed by the inclusion counts",
        });
    }
    if k <= 1 {
        return Err(NotApplicable::Degenerate {
            why: "a sample of fewer than 2 items has no pairs",
        });
    }
    if k >= n - 1 {
        return Err(NotApplicable::Degenerate {
            why: "with k >= N-1 the pair counts are fixed by the inclusion counts",
        });
    }
    let (nf, t) = (n as f64, trials as f64);
    let q = k as f64 * (k as f64 - 1.0) / (nf * (nf - 1.0));
    let small = k.min(n - k) as f64;
    let (law, min_expected) =
        kernel(n, k).decide(trials, small * (small - 1.0) / (nf * (nf - 1.0)))?;
    let lambda = lambda2(n, k);

    let expected = t * q;
    let sd = (t * q * (1.0 - q)).sqrt();
    let mut largest = None;
    let mut idx = 0;
    for i in 0..n {
        for j in i + 1..n {
            let c = pair_counts[idx];
            idx += 1;
            keep_largest(
                &mut largest,
                Deviation {
                    cell: SampleCell::Pair(i, j),
                    observed: c,
                    expected,
                    z: (c as f64 - expected) / sd,
                },
            );
        }
    }
    let statistic = beyond_inclusion(pair_counts, n, trials, k) / (t * lambda);
    let df = nf * (nf - 3.0) / 2.0;
    Ok(SamplingTest {
        statistic,
        df,
        log10_p: law.log10_sf(statistic),
        method: Method::QuadraticForm {
            statistic: "pair counts projected off the inclusion counts (Johnson scheme V2), Q = |D2|^2 / (T lambda2)",
            law,
        },
        min_expected,
        largest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subsets::{binomial, pair_index, subset_unrank};

    fn table(n: usize, trials: &[&Vec<usize>]) -> Vec<u64> {
        let mut counts = vec![0u64; n * (n - 1) / 2];
        for s in trials {
            for (a, &i) in s.iter().enumerate() {
                for &j in &s[a + 1..] {
                    counts[pair_index(n, i, j)] += 1;
                }
            }
        }
        counts
    }

    #[test]
    fn pair_index_is_the_flat_upper_triangle() {
        let n = 6;
        let mut expected = 0;
        for i in 0..n {
            for j in i + 1..n {
                assert_eq!(pair_index(n, i, j), expected);
                expected += 1;
            }
        }
        assert_eq!(expected, 15);
    }

    #[test]
    fn eigenvalues_follow_from_the_covariances() {
        for n in 4..40usize {
            for k in 2..n - 1 {
                let (nf, kf) = (n as f64, k as f64);
                let r = |m: usize| -> f64 {
                    (0..m).map(|i| (kf - i as f64) / (nf - i as f64)).product()
                };
                let (q, r3, r4) = (r(2), r(3), r(4));
                let (a, b, c) = (q - q * q, r3 - q * q, r4 - q * q);
                let l0 = a + 2.0 * (nf - 2.0) * b + (nf - 2.0) * (nf - 3.0) / 2.0 * c;
                let l1 = a + (nf - 4.0) * b - (nf - 3.0) * c;
                let l2 = a - 2.0 * b + c;
                let p = kf / nf;
                let l1_closed = (kf - 1.0).powi(2) * nf * p * (1.0 - p) / ((nf - 1.0) * (nf - 2.0));
                let m = nf * (nf - 1.0) / 2.0;
                let dim2 = nf * (nf - 3.0) / 2.0;
                let scale = a.max(1e-300);
                assert!(l0.abs() < 1e-12 * scale.max(1.0), "N={n} k={k}: λ0 {l0}");
                assert!((l1 - l1_closed).abs() < 1e-12, "N={n} k={k}");
                assert!((l2 - lambda2(n, k)).abs() < 1e-15);
                assert!(
                    (m * a - (nf - 1.0) * l1 - dim2 * l2).abs() < 1e-10 * m * a,
                    "N={n} k={k}: trace"
                );
                assert!(l2 > 0.0, "N={n} k={k}");
                assert!((lambda2(n, k) - lambda2(n, n - k)).abs() < 1e-15);
            }
            // k = N − 1: nothing beyond inclusion.
            assert!(lambda2(n, n - 1).abs() < 1e-15);
        }
    }

    #[test]
    fn exact_mean_and_variance_over_all_pairs_of_subsets() {
        for (n, k) in [(4, 2), (6, 2), (6, 3), (7, 3), (8, 4), (8, 5)] {
            let all: Vec<Vec<usize>> = (0..binomial(n, k).unwrap())
                .map(|r| subset_unrank(r, n, k))
                .collect();
            let (mut m1, mut m2) = (0.0, 0.0);
            for a in &all {
                // T = 1: Q is dim V2 for every subset.
                let one = statistic(&table(n, &[a]), n, 1, k);
                assert!((one - (n * (n - 3) / 2) as f64).abs() < 1e-9);
                for b in &all {
                    let x = statistic(&table(n, &[a, b]), n, 2, k);
                    m1 += x;
                    m2 += x * x;
                }
            }
            let count = (all.len() * all.len()) as f64;
            let (mean, var) = (m1 / count, m2 / count - (m1 / count).powi(2));
            let df = (n * (n - 3) / 2) as f64;
            assert!((mean - df).abs() < 1e-9, "N={n} k={k}: mean {mean}");
            // Var Q = 2·df·(1 − 1/2) = df at T = 2.
            assert!((var - df).abs() < 1e-9, "N={n} k={k}: variance {var}");
        }
    }

    /// The statistic without the expected-count rule.
    fn statistic(c: &[u64], n: usize, trials: u64, k: usize) -> f64 {
        beyond_inclusion(c, n, trials, k) / (trials as f64 * lambda2(n, k))
    }

    #[test]
    fn cumulants_match_every_four_trials() {
        for (n, k) in [(6, 3), (6, 2), (7, 4)] {
            let all: Vec<Vec<usize>> = (0..binomial(n, k).unwrap())
                .map(|r| subset_unrank(r, n, k))
                .collect();
            let law = kernel(n, k).law(4);
            crate::stats::sampling::law::assert_cumulants(
                all.len(),
                4,
                |tuple| {
                    let trials: Vec<&Vec<usize>> = tuple.iter().map(|&i| &all[i]).collect();
                    statistic(&table(n, &trials), n, 4, k)
                },
                &law,
            );
        }
    }

    #[test]
    fn the_complement_gives_the_same_statistic() {
        // N = 9, k = 3 against the complements (k = 6), T = 200 arbitrary trials.
        let (n, k) = (9, 3);
        let all: Vec<Vec<usize>> = (0..binomial(n, k).unwrap())
            .map(|r| subset_unrank(r, n, k))
            .collect();
        let picks: Vec<&Vec<usize>> = (0..200)
            .map(|i| &all[(i * 37 + i * i) % all.len()])
            .collect();
        let complements: Vec<Vec<usize>> = picks
            .iter()
            .map(|s| (0..n).filter(|i| !s.contains(i)).collect())
            .collect();
        let a = pairs(&table(n, &picks), n, 200, k).unwrap();
        let b = pairs(
            &table(n, &complements.iter().collect::<Vec<_>>()),
            n,
            200,
            n - k,
        )
        .unwrap();
        assert!((a.statistic - b.statistic).abs() < 1e-9 * a.statistic);
        assert_eq!(a.df, 27.0);
    }

    #[test]
    fn systematic_samples_are_caught_and_small_cases_refused() {
        // N = 12, k = 3: systematic sampling only ever pairs items 4 apart.
        let (n, k) = (12, 3);
        let samples: Vec<Vec<usize>> = (0..4).map(|s| vec![s, s + 4, s + 8]).collect();
        let trials: Vec<&Vec<usize>> = (0..400).map(|i| &samples[i % 4]).collect();
        let t = pairs(&table(n, &trials), n, 400, k).unwrap();
        assert!(t.log10_p < -50.0, "{}", t.log10_p);
        let d = t.largest.unwrap();
        assert_eq!(d.cell, SampleCell::Pair(0, 4));
        assert_eq!(d.observed, 100);
        assert!(matches!(
            pairs(&[0; 3], 3, 10, 2),
            Err(NotApplicable::Degenerate { .. })
        ));
        assert!(matches!(
            pairs(&[0; 10], 5, 10, 1),
            Err(NotApplicable::Degenerate { .. })
        ));
        assert!(matches!(
            pairs(&[10; 10], 5, 10, 4),
            Err(NotApplicable::Degenerate { .. })
        ));
        assert!(matches!(
            pairs(&[0; 10], 5, 10, 2),
            Err(NotApplicable::TooFewTrials { needed, .. }) if needed >= 50
        ));
    }
}
