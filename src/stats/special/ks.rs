//! The one-sample Kolmogorov–Smirnov test against the uniform distribution.
//!
//! A fair procedure yields uniform p-values, so the auditor (and its self-test)
//! uses this to check that a whole batch of results is consistent with
//! fairness. The p-value comes from one of three regimes, chosen by `n` and
//! the statistic: the exact one-sided tail (Birnbaum–Tingey) far out, the
//! exact distribution (Marsaglia, Tsang & Wang) where its matrix is small
//! enough, and Stephens' asymptotic form otherwise.

use super::EPS;
use super::gamma::ln_gamma;

/// Result of a one-sample Kolmogorov–Smirnov test.
///
/// Returned by [`ks_uniform`], which the auditor uses to check that a batch of
/// p-values (or other probability-integral transforms) looks uniform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KsResult {
    /// The statistic `D = sup |F_n(u) - u|`.
    pub statistic: f64,
    /// Probability of a statistic at least this large under uniformity.
    pub p_value: f64,
    /// Number of values tested.
    pub n: usize,
}

/// One-sample Kolmogorov–Smirnov test of `values` against the uniform
/// distribution on `[0, 1]`.
///
/// A fair procedure yields uniform p-values, so this is the auditor's check
/// that a whole batch of test results is consistent with fairness. Values are
/// clamped into `[0, 1]`; an empty slice or one containing NaN gives NaN
/// statistic and p-value.
///
/// The p-value `P(D_n >= d)` is computed as follows:
/// * in the tail (`n d² >= 3` or `d >= 1/2`) as twice the exact one-sided
///   probability (Birnbaum–Tingey); the neglected two-sided correction is
///   below 2e-8 relative there (about `e^(-6 n d²)`), and zero for `d >= 1/2`;
/// * otherwise exactly, by Marsaglia, Tsang & Wang (2003), whenever the matrix
///   it needs has order at most 251, which covers every `d` for `n` up to about
///   5000 (and typical `d` well beyond);
/// * otherwise (large `n`, moderate `d`) by the asymptotic Kolmogorov
///   distribution with Stephens' correction, accurate to about 1% relative.
pub fn ks_uniform(values: &[f64]) -> KsResult {
    let n = values.len();
    if n == 0 || values.iter().any(|v| v.is_nan()) {
        return KsResult {
            statistic: f64::NAN,
            p_value: f64::NAN,
            n,
        };
    }
    let mut sorted: Vec<f64> = values.iter().map(|v| v.clamp(0.0, 1.0)).collect();
    sorted.sort_by(f64::total_cmp);
    let nf = n as f64;
    let statistic = sorted
        .iter()
        .enumerate()
        .map(|(i, &u)| {
            let i = i as f64;
            ((i + 1.0) / nf - u).max(u - i / nf)
        })
        .fold(0.0, f64::max);
    KsResult {
        statistic,
        p_value: ks_p_value(n, statistic),
        n,
    }
}

/// `P(D_n >= d)` for the two-sided Kolmogorov–Smirnov statistic.
fn ks_p_value(n: usize, d: f64) -> f64 {
    let nf = n as f64;
    if d <= 0.5 / nf {
        return 1.0;
    }
    if d >= 1.0 {
        return 0.0;
    }
    if d >= 0.5 || nf * d * d >= KS_TAIL_SCALE {
        return (2.0 * ks_one_sided_sf(n, d)).min(1.0);
    }
    match ks_cdf_exact(n, d) {
        Some(cdf) => (1.0 - cdf).clamp(0.0, 1.0),
        None => ks_asymptotic_sf(n, d),
    }
}

/// Value of `n d²` from which the Kolmogorov–Smirnov p-value is taken as twice
/// the one-sided tail.
const KS_TAIL_SCALE: f64 = 3.0;

/// Exact `P(D_n^+ >= d)` for `0 < d < 1` (Birnbaum & Tingey, 1951); a sum of
/// positive terms, so accurate however small.
fn ks_one_sided_sf(n: usize, d: f64) -> f64 {
    let nf = n as f64;
    let ln_n_factorial = ln_gamma(nf + 1.0);
    let last = ((nf * (1.0 - d)).floor() as usize).min(n);
    let ln_terms: Vec<f64> = (0..=last)
        .filter_map(|j| {
            let jf = j as f64;
            let below = 1.0 - d - jf / nf;
            (below > 0.0).then(|| {
                ln_n_factorial - ln_gamma(jf + 1.0) - ln_gamma(nf - jf + 1.0)
                    + (nf - jf) * below.ln()
                    + (jf - 1.0) * (d + jf / nf).ln()
            })
        })
        .collect();
    let max = ln_terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = ln_terms.iter().map(|l| (l - max).exp()).sum();
    d * sum * max.exp()
}

/// Largest matrix order for which [`ks_cdf_exact`] is attempted (cost grows
/// as the cube of the order).
const KS_MAX_ORDER: usize = 251;

/// `P(D_n < d)` by Marsaglia, Tsang & Wang (2003), exact up to rounding (about
/// 1e-13 absolute); `None` when the matrix would exceed [`KS_MAX_ORDER`].
fn ks_cdf_exact(n: usize, d: f64) -> Option<f64> {
    let nd = n as f64 * d;
    let k = nd.floor() as usize + 1;
    let m = 2 * k - 1;
    if m > KS_MAX_ORDER {
        return None;
    }
    let h = k as f64 - nd;
    let mut factorial = vec![1.0; m + 1];
    for i in 1..=m {
        factorial[i] = factorial[i - 1] * i as f64;
    }
    let mut matrix = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=(i + 1).min(m - 1) {
            matrix[i * m + j] = 1.0;
        }
    }
    for i in 0..m {
        matrix[i * m] -= h.powi(i as i32 + 1);
        matrix[(m - 1) * m + i] -= h.powi((m - i) as i32);
    }
    if 2.0 * h > 1.0 {
        matrix[(m - 1) * m] += (2.0 * h - 1.0).powi(m as i32);
    }
    for i in 0..m {
        for j in 0..=(i + 1).min(m - 1) {
            matrix[i * m + j] /= factorial[i + 1 - j];
        }
    }
    let (power, mut exponent) = scaled_matrix_power(&matrix, m, n);
    // K = n! / n^n * (H^n)[k-1][k-1], with the scale tracked as a power of two.
    let mut value = power[(k - 1) * m + (k - 1)];
    let nf = n as f64;
    for i in 1..=n {
        value = value * i as f64 / nf;
        if value < 1e-140 {
            value *= 2f64.powi(KS_SCALE_EXP);
            exponent -= KS_SCALE_EXP;
        }
    }
    Some(value * 2f64.powi(exponent))
}

/// Power of two by which matrix powers are rescaled to avoid overflow.
const KS_SCALE_EXP: i32 = 465;

/// `a^n` for an `m x m` row-major matrix, returned as `(matrix, e)` meaning
/// `matrix * 2^e`; entries are rescaled whenever the centre element grows
/// beyond 1e140.
fn scaled_matrix_power(a: &[f64], m: usize, n: usize) -> (Vec<f64>, i32) {
    let multiply = |x: &[f64], y: &[f64]| {
        let mut out = vec![0.0; m * m];
        for i in 0..m {
            let row = &mut out[i * m..(i + 1) * m];
            for (l, &xil) in x[i * m..(i + 1) * m].iter().enumerate() {
                if xil != 0.0 {
                    for (o, &ylj) in row.iter_mut().zip(&y[l * m..(l + 1) * m]) {
                        *o += xil * ylj;
                    }
                }
            }
        }
        out
    };
    let centre = (m / 2) * m + m / 2;
    let rescale = |matrix: &mut Vec<f64>, exponent: &mut i32| {
        if matrix[centre] > 1e140 {
            let factor = 2f64.powi(-KS_SCALE_EXP);
            matrix.iter_mut().for_each(|v| *v *= factor);
            *exponent += KS_SCALE_EXP;
        }
    };
    let mut result = vec![0.0; m * m];
    for i in 0..m {
        result[i * m + i] = 1.0;
    }
    let mut result_exp = 0;
    let mut base = a.to_vec();
    let mut base_exp = 0;
    let mut remaining = n;
    loop {
        if remaining & 1 == 1 {
            result = multiply(&result, &base);
            result_exp += base_exp;
            rescale(&mut result, &mut result_exp);
        }
        remaining >>= 1;
        if remaining == 0 {
            return (result, result_exp);
        }
        base = multiply(&base, &base);
        base_exp *= 2;
        rescale(&mut base, &mut base_exp);
    }
}

/// Asymptotic `P(D_n >= d)`: the Kolmogorov distribution at Stephens'
/// corrected argument `(√n + 0.12 + 0.11/√n) d`.
fn ks_asymptotic_sf(n: usize, d: f64) -> f64 {
    let root_n = (n as f64).sqrt();
    let lambda = (root_n + 0.12 + 0.11 / root_n) * d;
    if lambda < 0.2 {
        // The series converges slowly here and the tail is 1 to 1e-12.
        return 1.0;
    }
    let mut sum = 0.0;
    for k in 1..=100 {
        let kf = k as f64;
        let term = (-2.0 * kf * kf * lambda * lambda).exp();
        sum += if k % 2 == 1 { term } else { -term };
        if term <= EPS * sum {
            break;
        }
    }
    (2.0 * sum).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::special::{binomial_band, rel_err};

    /// Deterministic uniform generator for the calibration tests (SplitMix64).
    struct SplitMix64(u64);

    impl SplitMix64 {
        fn next_f64(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn ks_statistic_by_hand() {
        let result = ks_uniform(&[0.9, 0.1, 0.5]);
        assert_eq!(result.n, 3);
        assert!((result.statistic - (1.0 / 3.0 - 0.1)).abs() < 1e-15);
        let single = ks_uniform(&[0.3]);
        assert!((single.statistic - 0.7).abs() < 1e-15);
        // n = 1: P(D >= d) = 2 (1 - d) for d >= 1/2.
        assert!(rel_err(single.p_value, 0.6) < 1e-14);
    }

    #[test]
    fn ks_evenly_spaced_values_fit_perfectly() {
        for n in [1usize, 10, 1000, 10_000] {
            let values: Vec<f64> = (0..n).map(|i| (i as f64 + 0.5) / n as f64).collect();
            let result = ks_uniform(&values);
            assert!((result.statistic - 0.5 / n as f64).abs() < 1e-12);
            assert!(result.p_value > 0.999, "n={n}: p={}", result.p_value);
        }
    }

    #[test]
    fn ks_rejects_half_range_values() {
        for n in [50usize, 100, 1000, 20_000] {
            let values: Vec<f64> = (0..n).map(|i| 0.5 * (i as f64 + 0.5) / n as f64).collect();
            let result = ks_uniform(&values);
            assert!(result.statistic >= 0.5);
            assert!(
                result.p_value < 1e-10 && result.p_value >= 0.0,
                "n={n}: p={}",
                result.p_value
            );
        }
    }

    #[test]
    fn ks_exact_values() {
        // Marsaglia, Tsang & Wang (2003): K(10, 0.274) = 0.6284796154565043.
        let cdf = ks_cdf_exact(10, 0.274).unwrap();
        assert!((cdf - 0.6284796154565043).abs() < 1e-14);
        assert!(rel_err(ks_p_value(10, 0.274), 1.0 - 0.6284796154565043) < 1e-13);
        // For d >= 1 - 1/n: P(D_n >= d) = 2 (1 - d)^n.
        for n in [2usize, 5, 40] {
            let d = 1.0 - 0.5 / n as f64;
            let expected = 2.0 * (1.0 - d).powi(n as i32);
            assert!(rel_err(ks_p_value(n, d), expected) < 1e-12, "n={n}");
        }
    }

    #[test]
    fn ks_regimes_agree_where_they_meet() {
        // Where the one-sided tail formula takes over, it agrees with the exact
        // matrix method.
        for n in [5usize, 20, 100, 1000] {
            let d = (KS_TAIL_SCALE / n as f64).sqrt();
            let tail = 2.0 * ks_one_sided_sf(n, d);
            let exact = 1.0 - ks_cdf_exact(n, d).unwrap();
            assert!(rel_err(tail, exact) < 2e-8, "n={n}");
            let p = ks_p_value(n, d);
            assert!(rel_err(ks_p_value(n, d * (1.0 - 1e-12)), p) < 2e-8, "n={n}");
        }
        // Stephens' approximation is within 2% of the exact value at n = 1500.
        for s in [0.3, 1.0, 2.0, 2.9] {
            let d = (s / 1500.0_f64).sqrt();
            let exact = 1.0 - ks_cdf_exact(1500, d).unwrap();
            assert!(rel_err(ks_asymptotic_sf(1500, d), exact) < 0.02, "s={s}");
        }
        // Large n uses the asymptotic form in the bulk, and stays monotone.
        let mut previous = 1.0;
        for i in 1..=60 {
            let d = i as f64 * 0.0005;
            let p = ks_p_value(100_000, d);
            assert!((0.0..=previous).contains(&p), "d={d}");
            previous = p;
        }
    }

    #[test]
    fn ks_edge_cases() {
        let empty = ks_uniform(&[]);
        assert!(empty.statistic.is_nan() && empty.p_value.is_nan());
        assert_eq!(empty.n, 0);
        assert!(ks_uniform(&[0.2, f64::NAN]).p_value.is_nan());
        let clamped = ks_uniform(&[-1.0, 2.0]);
        // Sorted [0, 1]: D = 1/2, and P(D_2 >= 1/2) = 2 (1/2)² = 1/2.
        assert_eq!(clamped.statistic, 0.5);
        assert!(rel_err(clamped.p_value, 0.5) < 1e-14);
    }

    #[test]
    fn ks_is_calibrated_under_uniformity() {
        let mut rng = SplitMix64(1);
        let repetitions = 200;
        let mut rejections = 0;
        let mut p_values = Vec::with_capacity(repetitions);
        for _ in 0..repetitions {
            let sample: Vec<f64> = (0..500).map(|_| rng.next_f64()).collect();
            let p = ks_uniform(&sample).p_value;
            if p < 0.05 {
                rejections += 1;
            }
            p_values.push(p);
        }
        let (lo, hi) = binomial_band(repetitions as u64, 0.05, 0.999);
        assert!(
            (lo..=hi).contains(&rejections),
            "{rejections} rejections outside [{lo}, {hi}]"
        );
        // The p-values themselves should look uniform.
        assert!(ks_uniform(&p_values).p_value > 1e-3);
    }
}
