//! The order test: does an ordered sampler put its k items in a uniformly
//! random order, beyond including them uniformly?
//!
//! An ordered sampler returns a k-arrangement (x₀, ..., x_{k−1}) of distinct
//! items; under the null it is uniform over the N!/(N−k)! arrangements. The
//! counts are `S[s][v]` = trials with item v in slot s (k × N, every row sums
//! to T, column v sums to the inclusion count C_v).
//!
//! # Calibration
//!
//! One trial's slot-by-value indicators `X_sv` (one 1 per row, at most one
//! per column) have mean 1/N and
//!
//! ```text
//! Var X_sv = 1/N − 1/N²,
//! Cov(X_sv, X_sv')  = −1/N²                          (same slot),
//! Cov(X_sv, X_s'v)  = −1/N²                          (same value: never twice),
//! Cov(X_sv, X_s'v') = 1/(N(N−1)) − 1/N² = 1/(N²(N−1))  (s ≠ s', v ≠ v').
//! ```
//!
//! Writing `Cov = α I⊗I + β I⊗J + γ J⊗I + δ J⊗J` (slot ⊗ value) and solving
//! the four equations gives `α = 1/(N−1)`, `β = γ = −1/(N(N−1))`,
//! `δ = 1/(N²(N−1))`, i.e.
//!
//! ```text
//! Cov X = (1/(N−1)) · (I_k − J_k/N) ⊗ (I_N − J_N/N).
//! ```
//!
//! `I_k − J_k/N` is not a projection when k < N: it is 1 on the slot
//! contrasts (`P_k = I − J/k`, rank k−1) and `1 − k/N` on the slot average
//! `J_k/k`. So the covariance has two eigenspaces:
//!
//! - **order**, `P_k ⊗ P_N` (dim (k−1)(N−1)), eigenvalue `1/(N−1)`;
//! - **inclusion**, `(J_k/k) ⊗ P_N` (dim N−1), eigenvalue `(N−k)/(N(N−1))`:
//!   the slot average of column v is `C_v/k`, the inclusion counts.
//!
//! With `D = S − T/N`, the order part is the double-centred table
//! `Z_sv = S_sv − (row mean) − (column mean) + (grand mean) = S_sv − C_v/k`
//! (rows sum to T), and the inclusion part is `(C_v − Tk/N)/k` in every slot.
//! Pearson's sum over the k × N table, `X² = (N/T)‖D‖²`, splits exactly as
//!
//! ```text
//! X² = (N/(N−1)) · Q_order + ((N−k)/(N−1)) · Q_incl,
//! Q_order = ((N−1)/T) · Σ (S_sv − C_v/k)²  →  χ²((k−1)(N−1)),
//! Q_incl  = the inclusion statistic        →  χ²(N−1),
//! ```
//!
//! asymptotically independent (orthogonal eigenspaces, Gaussian limit). So
//! the claim in the issue holds. `X²` read as k independent multinomial rows,
//! χ²(k(N−1)), has the right mean k(N−1) but not the right spread (its
//! variance is `2((k−1)N² + (N−k)²)/(N−1)`), and it mixes inclusion in.
//! This test reports `Q_order`: the order beyond inclusion. At k = N it is
//! the position-by-value statistic ([`crate::stats::PositionValueStats`]).
//!
//! Finite T: every arrangement has the same squared order part
//! (the value permutations act transitively and commute with the
//! projection), and the order parts of two arrangements X, X' have inner
//! product `tr(Xᵀ P_k X' P_N) = a − c/k` (a = slots holding the same item in
//! both, c = items in both), mean 0 given either. So `E Q_order =
//! (k−1)(N−1)` and `Var Q_order = 2(k−1)(N−1)(1 − 1/T)` exactly (checked by
//! enumeration). For the higher cumulants ([`super::law`]): c is
//! hypergeometric, and given c the common items sit in the second
//! arrangement's slots as a uniform injection, so `r` given common items all
//! keep their slot with probability `1/(k)_r` and the factorial moments of
//! a given c are `E[(a)_r | c] = (c)_r / (k)_r`; `h = a − E[a | c]`.
//!
//! Not applicable for k ≤ 1 (no order); the law needs `T/N ≥`
//! [`MIN_EXPECTED`](super::MIN_EXPECTED) (counts expected per slot-value
//! cell) and the fourth cumulant close to the law's
//! ([`super::MAX_EXCESS_KURTOSIS`]).

use super::law::{Kernel, intersection_law};
use super::{Deviation, Method, NotApplicable, SampleCell, SamplingTest, keep_largest};

/// The overlap kernel of the order statistic for k-arrangements of N items
/// (2 ≤ k ≤ N): df (k−1)(N−1), λ = 1/(N−1), h = a − c/k (module docs).
pub fn kernel(n: usize, k: usize) -> Kernel {
    let (nf, kf) = (n as f64, k as f64);
    let falling = |x: f64, r: usize| -> f64 { (0..r).map(|i| x - i as f64).product() };
    // E[h^r] = E_c[ E[(a − c/k)^r | c] ], from the factorial moments
    // f_r = (c)_r / (k)_r of a given c (zero when c < r).
    let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
    for (c, w) in intersection_law(n, k) {
        let c = c as f64;
        let f = |r: usize| {
            if c >= r as f64 {
                falling(c, r) / falling(kf, r)
            } else {
                0.0
            }
        };
        let mu = f(1);
        // Raw moments from factorial ones (Stirling numbers of the 2nd kind).
        let a2 = f(2) + mu;
        let a3 = f(3) + 3.0 * f(2) + mu;
        let a4 = f(4) + 6.0 * f(3) + 7.0 * f(2) + mu;
        m2 += w * (a2 - mu * mu);
        m3 += w * (a3 - 3.0 * mu * a2 + 2.0 * mu.powi(3));
        m4 += w * (a4 - 4.0 * mu * a3 + 6.0 * mu * mu * a2 - 3.0 * mu.powi(4));
    }
    Kernel {
        df: (kf - 1.0) * (nf - 1.0),
        lambda: 1.0 / (nf - 1.0),
        m2,
        m3,
        m4,
    }
}

/// The order test of `slot_counts` (k × N, row-major:
/// `slot_counts[s * n + v]` = trials with item v in slot s), k = `k`,
/// N = `n`.
///
/// The largest deviation is the slot-value cell with the largest
/// |S_sv − C_v/k| / √(T (1/N)(1 − 1/k)), with expected count C_v/k: what
/// item v's inclusions would give each slot if its order were uniform.
///
/// # Panics
/// If the table is not k × N, or k > N.
pub fn order(
    slot_counts: &[u64],
    n: usize,
    k: usize,
    trials: u64,
) -> Result<SamplingTest, NotApplicable> {
    assert!(k <= n, "k = {k} items sampled out of N = {n}");
    assert_eq!(slot_counts.len(), k * n, "a {k} x {n} slot-by-value table");
    if trials == 0 {
        return Err(NotApplicable::NoTrials);
    }
    if k <= 1 {
        return Err(NotApplicable::Degenerate {
            why: "a sample of fewer than 2 items has no order",
        });
    }
    let (nf, kf, t) = (n as f64, k as f64, trials as f64);
    let (law, min_expected) = kernel(n, k).decide(trials, 1.0 / nf)?;
    let rows: Vec<f64> = slot_counts
        .chunks(n)
        .map(|row| row.iter().sum::<u64>() as f64 / nf)
        .collect();
    let mut columns = vec![0.0f64; n];
    for row in slot_counts.chunks(n) {
        for (c, &x) in columns.iter_mut().zip(row) {
            *c += x as f64;
        }
    }
    columns.iter_mut().for_each(|c| *c /= kf);
    let grand = rows.iter().sum::<f64>() / kf;
    let sd = (t / nf * (1.0 - 1.0 / kf)).sqrt();
    let mut sum_sq = 0.0;
    let mut largest = None;
    for (s, row) in slot_counts.chunks(n).enumerate() {
        for (v, &x) in row.iter().enumerate() {
            let z = x as f64 - rows[s] - columns[v] + grand;
            sum_sq += z * z;
            keep_largest(
                &mut largest,
                Deviation {
                    cell: SampleCell::Slot { slot: s, value: v },
                    observed: x,
                    expected: columns[v],
                    z: (x as f64 - columns[v]) / sd,
                },
            );
        }
    }
    let statistic = (nf - 1.0) / t * sum_sq;
    let df = (kf - 1.0) * (nf - 1.0);
    Ok(SamplingTest {
        statistic,
        df,
        log10_p: law.log10_sf(statistic),
        method: Method::QuadraticForm {
            statistic: "Q = ((N-1)/T) sum (S_sv - C_v/k)^2 over the k x N slot-by-value table (order beyond inclusion)",
            law,
        },
        min_expected,
        largest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every k-arrangement of 0..n.
    fn arrangements(n: usize, k: usize) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = vec![vec![]];
        for _ in 0..k {
            let mut next = Vec::new();
            for a in &out {
                for v in (0..n).filter(|v| !a.contains(v)) {
                    let mut b = a.clone();
                    b.push(v);
                    next.push(b);
                }
            }
            out = next;
        }
        out
    }

    fn table(n: usize, k: usize, trials: &[&Vec<usize>]) -> Vec<u64> {
        let mut counts = vec![0u64; k * n];
        for a in trials {
            for (s, &v) in a.iter().enumerate() {
                counts[s * n + v] += 1;
            }
        }
        counts
    }

    /// Q_order without the expected-count rule (the 1/N rule refuses T = 2).
    fn q_order(counts: &[u64], n: usize, k: usize, t: f64) -> f64 {
        let mut columns = vec![0.0; n];
        for row in counts.chunks(n) {
            for (c, &x) in columns.iter_mut().zip(row) {
                *c += x as f64 / k as f64;
            }
        }
        let ss: f64 = counts
            .chunks(n)
            .flat_map(|row| {
                row.iter()
                    .zip(&columns)
                    .map(|(&x, c)| (x as f64 - c).powi(2))
            })
            .sum();
        (n as f64 - 1.0) / t * ss
    }

    #[test]
    fn exact_mean_and_variance_over_all_pairs_of_arrangements() {
        for (n, k) in [(4, 2), (5, 2), (5, 3), (4, 4), (6, 3)] {
            let all = arrangements(n, k);
            let df = ((k - 1) * (n - 1)) as f64;
            let (mut m1, mut m2) = (0.0, 0.0);
            for a in &all {
                let one = q_order(&table(n, k, &[a]), n, k, 1.0);
                assert!(
                    (one - df).abs() < 1e-9,
                    "T = 1: the same for every arrangement"
                );
                for b in &all {
                    let x = q_order(&table(n, k, &[a, b]), n, k, 2.0);
                    m1 += x;
                    m2 += x * x;
                }
            }
            let count = (all.len() * all.len()) as f64;
            let (mean, var) = (m1 / count, m2 / count - (m1 / count).powi(2));
            assert!((mean - df).abs() < 1e-9, "N={n} k={k}: mean {mean}");
            assert!((var - df).abs() < 1e-9, "N={n} k={k}: variance {var}");
        }
    }

    #[test]
    fn cumulants_match_every_four_trials() {
        for (n, k) in [(4, 2), (5, 2), (3, 3)] {
            let all = arrangements(n, k);
            let law = kernel(n, k).law(4);
            crate::stats::sampling::law::assert_cumulants(
                all.len(),
                4,
                |tuple| {
                    let trials: Vec<&Vec<usize>> = tuple.iter().map(|&i| &all[i]).collect();
                    q_order(&table(n, k, &trials), n, k, 4.0)
                },
                &law,
            );
        }
    }

    #[test]
    fn pearson_splits_into_order_and_inclusion() {
        // Any table with rows summing to T: X² = (N/(N−1)) Q_order +
        // ((N−k)/(N−1)) Q_incl, exactly.
        let (n, k) = (7, 3);
        let all = arrangements(n, k);
        let trials: Vec<&Vec<usize>> = (0..350)
            .map(|i| &all[(i * i * 7 + 3 * i) % all.len()])
            .collect();
        let counts = table(n, k, &trials);
        let t = trials.len() as f64;
        let (nf, kf) = (n as f64, k as f64);
        let e = t / nf;
        let pearson: f64 = counts.iter().map(|&x| (x as f64 - e).powi(2) / e).sum();
        let inclusion: Vec<u64> = (0..n)
            .map(|v| (0..k).map(|s| counts[s * n + v]).sum())
            .collect();
        let p = kf / nf;
        let q_incl = (nf - 1.0) / nf
            * inclusion
                .iter()
                .map(|&c| (c as f64 - t * p).powi(2))
                .sum::<f64>()
            / (t * p * (1.0 - p));
        let q = order(&counts, n, k, trials.len() as u64).unwrap();
        let split = nf / (nf - 1.0) * q.statistic + (nf - kf) / (nf - 1.0) * q_incl;
        assert!(
            (pearson - split).abs() < 1e-9 * pearson,
            "{pearson} vs {split}"
        );
        assert_eq!(q.df, 12.0);
    }

    #[test]
    fn at_k_equal_n_it_is_the_position_value_statistic() {
        let mut tally = crate::tally::Tally::new(4);
        let all = arrangements(4, 4);
        let mut counts = vec![0u64; 16];
        for i in 0..200 {
            let a = &all[(i * 5 + i * i) % all.len()];
            let perm: Vec<u32> = a.iter().map(|&v| v as u32).collect();
            tally.record(&perm);
            for (s, &v) in a.iter().enumerate() {
                counts[s * 4 + v] += 1;
            }
        }
        let pv = crate::stats::PositionValueStats::run(&tally);
        let q = order(&counts, 4, 4, 200).unwrap();
        assert!((q.statistic - pv.statistic).abs() < 1e-9);
        assert_eq!(q.df, pv.df);
    }

    #[test]
    fn sorted_samples_are_caught_and_small_cases_refused() {
        // Every 3-subset of 6, always returned sorted, 50 times over.
        let all: Vec<Vec<usize>> = arrangements(6, 3)
            .into_iter()
            .filter(|a| a.windows(2).all(|w| w[0] < w[1]))
            .collect();
        assert_eq!(all.len(), 20);
        let trials: Vec<&Vec<usize>> = (0..1000).map(|i| &all[i % 20]).collect();
        let t = order(&table(6, 3, &trials), 6, 3, 1000).unwrap();
        assert!(t.log10_p < -100.0, "{}", t.log10_p);
        let d = t.largest.unwrap();
        // Item 0 is always in slot 0 when included: 500 times, 500/3 expected.
        assert_eq!(d.cell, SampleCell::Slot { slot: 0, value: 0 });
        assert_eq!(d.observed, 500);
        assert!((d.ratio() - 3.0).abs() < 1e-12);
        assert!(matches!(
            order(&[5; 5], 5, 1, 5),
            Err(NotApplicable::Degenerate { .. })
        ));
        assert!(matches!(
            order(&[1; 10], 5, 2, 5),
            Err(NotApplicable::TooFewTrials { needed, .. }) if needed >= 25
        ));
    }
}
