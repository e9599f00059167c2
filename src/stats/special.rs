//! Special functions and small distribution helpers for the statistical tests.
//!
//! The auditor reports p-values that are often astronomically small (a biased
//! shuffle observed over millions of trials), so the chi-square tail is
//! computed in log space and stays finite far beyond the range where `f64`
//! underflows. The rest of the module supplies the Kolmogorov–Smirnov test used
//! to check p-value uniformity, the non-central chi-square tail used for power
//! calculations, the chi-square quantile used for critical values and a
//! binomial acceptance band used to judge counts of rejections.

use std::f64::consts::{LN_10, SQRT_2, TAU};

use statrs::function::erf::erfc;

/// Relative tolerance at which series, continued fractions and sums stop.
const EPS: f64 = f64::EPSILON;

/// Guard against division by zero in the modified Lentz algorithm.
const TINY: f64 = 1e-300;

/// Shape above which Stirling's series is used for `ln Γ`.
const STIRLING_MIN: f64 = 10.0;

/// Natural log of the smallest positive subnormal `f64`, rounded down.
const LN_UNDERFLOW: f64 = -746.0;

/// Iteration budget for the incomplete-gamma series and continued fraction.
///
/// Both need `O(sqrt(a))` terms when `x` is close to `a`; the absolute cap keeps
/// absurd shapes (beyond about 1e10) from spinning, and those fall back to an
/// approximation.
fn iteration_cap(a: f64) -> usize {
    const MAX: f64 = 2_000_000.0;
    (10_000.0 + 50.0 * a.sqrt()).min(MAX) as usize
}

/// `ln(1 + t) - t`, without cancellation for small `|t|`.
fn log1pmx(t: f64) -> f64 {
    if !(-0.5..=1.0).contains(&t) {
        return t.ln_1p() - t;
    }
    // ln(1 + t) = 2 atanh(u) with u = t / (2 + t), and 2u - t = -u t.
    let u = t / (2.0 + t);
    let u2 = u * u;
    let mut power = u * u2;
    let mut series = 0.0;
    let mut k = 3.0;
    loop {
        let term = power / k;
        series += term;
        if term.abs() <= EPS * series.abs() {
            break;
        }
        power *= u2;
        k += 2.0;
    }
    -u * t + 2.0 * series
}

/// Stirling's correction `ln Γ(a) - [(a - ½) ln a - a + ½ ln 2π]`, for `a >= 10`
/// (truncation error below 1e-16 there).
fn stirling_correction(a: f64) -> f64 {
    const COEFFS: [f64; 7] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
    ];
    let inv = 1.0 / a;
    let inv2 = inv * inv;
    COEFFS.iter().rev().fold(0.0, |acc, c| acc * inv2 + c) * inv
}

/// `ln Γ(a)` for `a > 0`: Stirling's series, after shifting small arguments up
/// with the recurrence `Γ(a + 1) = a Γ(a)`.
fn ln_gamma(a: f64) -> f64 {
    let mut shifted = a;
    let mut product = 1.0;
    while shifted < STIRLING_MIN {
        product *= shifted;
        shifted += 1.0;
    }
    (shifted - 0.5) * shifted.ln() - shifted + 0.5 * TAU.ln() + stirling_correction(shifted)
        - product.ln()
}

/// `ln(x^a e^(-x) / Γ(a))`, the common prefactor of `P(a, x)` and `Q(a, x)`.
///
/// For large `a` the naive form cancels terms of size `a ln a`, so it is
/// rewritten around `x = a` with Stirling's series.
fn ln_gamma_prefix(a: f64, x: f64) -> f64 {
    if a < STIRLING_MIN {
        return a * x.ln() - x - ln_gamma(a);
    }
    let d = x - a;
    let t = d / a;
    let main = if (-0.5..=1.0).contains(&t) {
        a * log1pmx(t)
    } else {
        a * (x / a).ln() - d
    };
    main + 0.5 * (a / TAU).ln() - stirling_correction(a)
}

/// `ln P(a, x)` by the power series; `None` if it did not converge.
fn ln_gamma_p_series(a: f64, x: f64) -> Option<f64> {
    let mut ap = a;
    let mut term = 1.0 / a;
    let mut sum = term;
    for _ in 0..iteration_cap(a) {
        ap += 1.0;
        term *= x / ap;
        sum += term;
        if term < sum * EPS {
            return Some(ln_gamma_prefix(a, x) + sum.ln());
        }
    }
    None
}

/// `ln Q(a, x)` by the continued fraction (modified Lentz); `None` if it did
/// not converge.
fn ln_gamma_q_cf(a: f64, x: f64) -> Option<f64> {
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..=iteration_cap(a) {
        let i = i as f64;
        let an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < EPS {
            return Some(ln_gamma_prefix(a, x) + h.ln());
        }
    }
    None
}

/// `ln Φ(-z)`, the log of the standard normal upper tail, finite for all `z`.
fn ln_normal_sf(z: f64) -> f64 {
    if z < 0.0 {
        (-0.5 * erfc(-z / SQRT_2)).ln_1p()
    } else if z < 35.0 {
        (0.5 * erfc(z / SQRT_2)).ln()
    } else {
        // Asymptotic (Mills ratio) expansion; erfc underflows beyond here.
        let z2 = z * z;
        -0.5 * z2 - (z * TAU.sqrt()).ln() + (1.0 - 1.0 / z2 + 3.0 / (z2 * z2)).ln()
    }
}

/// Wilson–Hilferty approximation to `ln Q(a, x)`.
///
/// Only reached when the series or continued fraction exhausts its iteration
/// budget, which takes shapes far beyond anything the auditor produces (`a`
/// above about 1e10). Its relative error is `O(1/a)` in the bulk.
fn ln_gamma_q_wilson_hilferty(a: f64, x: f64) -> f64 {
    let v = 1.0 / (9.0 * a);
    let z = ((x / a).cbrt() - (1.0 - v)) / v.sqrt();
    ln_normal_sf(z)
}

/// Natural log of the regularized upper incomplete gamma function `Q(a, x)`.
///
/// It exists so that chi-square (and Poisson) tail probabilities can be
/// reported when they are far too small for an `f64`: the result stays finite
/// and accurate for `x` up to about 1e12 and shapes `a` up to about 1e6 (and
/// beyond). Returns 0 for `x <= 0`, `-inf` for `x = +inf` and NaN for `a <= 0`,
/// infinite `a` or NaN inputs.
pub fn ln_gamma_q(a: f64, x: f64) -> f64 {
    if a.is_nan() || x.is_nan() || a <= 0.0 || a.is_infinite() {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 0.0;
    }
    if x.is_infinite() {
        return f64::NEG_INFINITY;
    }
    let converged = if x < a + 1.0 {
        ln_gamma_p_series(a, x).map(|ln_p| (-ln_p.exp()).ln_1p())
    } else {
        ln_gamma_q_cf(a, x)
    };
    converged.unwrap_or_else(|| ln_gamma_q_wilson_hilferty(a, x))
}

/// Natural log of the chi-square survival function `P(X > x)`, `X ~ χ²(df)`.
///
/// This is how the auditor reports goodness-of-fit p-values: it stays finite
/// and monotone far into the tail (for example `x = 1e6`, `df = 2601`), where
/// the plain survival function underflows to zero. Valid for `df > 0`; any
/// `x <= 0` gives 0 (probability one).
pub fn ln_chi2_sf(x: f64, df: f64) -> f64 {
    ln_gamma_q(0.5 * df, 0.5 * x)
}

/// Chi-square survival function `P(X > x)`, `X ~ χ²(df)`.
///
/// Convenient where a plain probability is wanted (thresholds, power
/// calculations); it underflows to 0 for extremely small tails, so reports
/// should use [`ln_chi2_sf`] or [`log10_chi2_sf`].
pub fn chi2_sf(x: f64, df: f64) -> f64 {
    ln_chi2_sf(x, df).exp()
}

/// Base-10 log of the chi-square survival function `P(X > x)`.
///
/// The human-readable form of tiny p-values ("p = 10^-4321") for reports.
pub fn log10_chi2_sf(x: f64, df: f64) -> f64 {
    ln_chi2_sf(x, df) / LN_10
}

/// Inverse of the chi-square survival function: the `x` with
/// `P(X > x) = upper_tail`, `X ~ χ²(df)`.
///
/// Critical values for the tests come from here. Taking the upper-tail
/// probability (rather than `p = 1 - upper_tail`) keeps extreme significance
/// levels exact: `chi2_isf(1e-300, 81)` is well defined. Returns 0 for
/// `upper_tail = 1`, `+inf` for `upper_tail = 0` and NaN for arguments outside
/// `0 <= upper_tail <= 1`, `df > 0`.
pub fn chi2_isf(upper_tail: f64, df: f64) -> f64 {
    if !(0.0..=1.0).contains(&upper_tail) || df.is_nan() || df <= 0.0 || df.is_infinite() {
        return f64::NAN;
    }
    if upper_tail == 1.0 {
        return 0.0;
    }
    if upper_tail == 0.0 {
        return f64::INFINITY;
    }
    let a = 0.5 * df;
    let target = upper_tail.ln();
    // `ln_chi2_sf(x) - target` is decreasing in x and positive at x = 0.
    let excess = |x: f64| ln_chi2_sf(x, df) - target;
    let (mut lo, mut hi) = (0.0, df.max(1.0));
    while excess(hi) > 0.0 {
        lo = hi;
        hi *= 2.0;
    }
    // Newton's method on the log survival function, kept inside the bracket.
    let mut x = 0.5 * (lo + hi);
    for _ in 0..400 {
        let fx = excess(x);
        if fx == 0.0 {
            return x;
        }
        if fx > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let y = 0.5 * x;
        let ln_q = ln_gamma_q(a, y);
        let slope = -0.5 * (ln_gamma_prefix(a, y) - y.ln() - ln_q).exp();
        let newton = x - fx / slope;
        let next = if newton > lo && newton < hi {
            newton
        } else if lo > 0.0 && hi > 4.0 * lo {
            (lo * hi).sqrt()
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 2.0 * EPS * x || hi - lo <= 2.0 * EPS * hi {
            return next;
        }
        x = next;
    }
    x
}

/// Chernoff upper bound on `ln P(X > x)` for a non-central chi-square, used to
/// skip the series when the answer underflows anyway.
fn ln_noncentral_chi2_chernoff(x: f64, df: f64, lambda: f64) -> f64 {
    // Minimise -t x - (df/2) ln(1 - 2t) + lambda t / (1 - 2t) over 0 < t < 1/2,
    // written in u = 1 / (1 - 2t) (the positive root of lambda u² + df u = x).
    let u = 2.0 * x / (df + (df * df + 4.0 * lambda * x).sqrt());
    if u <= 1.0 {
        return 0.0;
    }
    let t = 0.5 * (1.0 - 1.0 / u);
    -t * x + 0.5 * df * u.ln() + lambda * t * u
}

/// Survival function `P(X > x)` of the non-central chi-square distribution
/// with `df` degrees of freedom and non-centrality `lambda`.
///
/// The auditor uses it for power: the chance that a chi-square test detects a
/// bias of a given size. Accurate (about 1e-13 relative) for `lambda` up to at
/// least 1e5 and `df` up to at least 1e4; underflows to 0 in the far tail.
/// Returns NaN for `df <= 0`, `lambda < 0` or non-finite parameters.
pub fn noncentral_chi2_sf(x: f64, df: f64, lambda: f64) -> f64 {
    if x.is_nan() || !(df > 0.0 && df.is_finite() && lambda >= 0.0 && lambda.is_finite()) {
        return f64::NAN;
    }
    if lambda == 0.0 {
        return chi2_sf(x, df);
    }
    if x <= 0.0 {
        return 1.0;
    }
    if x.is_infinite() || ln_noncentral_chi2_chernoff(x, df, lambda) < LN_UNDERFLOW {
        return 0.0;
    }
    // The Poisson(lambda / 2) mixture of central chi-square tails, summed
    // outward from the Poisson mode in both directions until the remainder is
    // negligible.
    let y = 0.5 * x;
    let mu = 0.5 * lambda;
    let mode = mu.floor();
    let a_mode = 0.5 * df + mode;
    // Everything below is relative to the mode term w_mode * Q(a_mode, y), with
    // w_j the Poisson(mu) weights and Q(a + 1, y) = Q(a, y) + g(a),
    // g(a) = y^a e^-y / Γ(a + 1).
    let ln_w_mode = ln_gamma_prefix(mode + 1.0, mu) - mu.ln();
    let ln_q_mode = ln_gamma_q(a_mode, y);
    let g_mode = (ln_gamma_prefix(a_mode, y) - a_mode.ln() - ln_q_mode).exp();

    // Upward from the mode. The terms are log-concave in j, so once their ratio
    // r drops below one the rest is bounded by term * r / (1 - r). In the far
    // tail Q grows by many orders of magnitude, so it is rescaled as it goes.
    const RESCALE: f64 = 1e250;
    let mut up_sum = 1.0;
    let mut up_ln_scale = 0.0;
    let (mut w, mut q, mut g, mut a, mut j) = (1.0, 1.0, g_mode, a_mode, mode);
    let mut previous = 1.0;
    let cap = 10_000 + (200.0 * (mu + y).sqrt()) as usize;
    for _ in 0..cap {
        q += g;
        a += 1.0;
        j += 1.0;
        g *= y / a;
        w *= mu / j;
        let mut term = w * q;
        up_sum += term;
        let ratio = term / previous;
        if q > RESCALE {
            q /= RESCALE;
            g /= RESCALE;
            up_sum /= RESCALE;
            term /= RESCALE;
            up_ln_scale += RESCALE.ln();
        }
        if term == 0.0 || (ratio < 1.0 && term * ratio / (1.0 - ratio) <= EPS * up_sum) {
            break;
        }
        previous = term;
    }

    // Downward from the mode: Q(a - 1, y) = Q(a, y) - g(a - 1). Absolute errors
    // do not grow along this recurrence, and each term ratio is at most j / mu.
    let mut down_sum = 0.0;
    let (mut w, mut q, mut g, mut a, mut j) = (1.0, 1.0, g_mode, a_mode, mode);
    while j > 0.0 {
        g *= a / y;
        a -= 1.0;
        q = (q - g).max(0.0);
        w *= j / mu;
        j -= 1.0;
        let term = w * q;
        down_sum += term;
        let bound = j / mu;
        if term == 0.0 || term * bound / (1.0 - bound) <= EPS * (1.0 + down_sum) {
            break;
        }
    }

    let ln_total = up_ln_scale + (up_sum + down_sum * (-up_ln_scale).exp()).ln();
    (ln_w_mode + ln_q_mode + ln_total).exp().min(1.0)
}

/// The non-centrality λ at which P(χ²(df, λ) > critical) = power: how large a
/// bias must be (as λ = trials × effect) for a chi-square test with that
/// rejection threshold to see it with the requested power. Found by
/// bisection (the power increases with λ).
pub fn noncentrality_for_power(critical: f64, df: f64, power: f64) -> f64 {
    let reaches = |lambda: f64| noncentral_chi2_sf(critical, df, lambda) >= power;
    let mut hi = 1.0f64;
    while !reaches(hi) {
        hi *= 2.0;
    }
    let mut lo = 0.0f64;
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if reaches(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi - lo < 1e-9 * hi {
            break;
        }
    }
    hi
}

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

/// Two-sided acceptance band `[lo, hi]` for a Binomial(`trials`, `p`) count:
/// `P(K < lo) <= (1 - level) / 2` and `P(K > hi) <= (1 - level) / 2`, with `lo`
/// as large and `hi` as small as those allow.
///
/// The auditor uses it to decide whether a number of events (for example
/// rejections at a nominal rate) is consistent with its expected probability.
/// Accurate for any number of trials up to about 2^53; statrs' binomial CDF is
/// not (its incomplete beta stops after 140 iterations, so near the centre it
/// is badly off for millions of trials).
///
/// # Panics
///
/// If `p` is not in `[0, 1]` or `level` is not in `(0, 1)`.
pub fn binomial_band(trials: u64, p: f64, level: f64) -> (u64, u64) {
    assert!(
        (0.0..=1.0).contains(&p),
        "binomial p must be in [0, 1], got {p}"
    );
    assert!(
        level > 0.0 && level < 1.0,
        "band level must be in (0, 1), got {level}"
    );
    if p == 0.0 {
        return (0, 0);
    }
    if p == 1.0 {
        return (trials, trials);
    }
    let n = trials as f64;
    let odds = p / (1.0 - p);
    // Probability ratios P(i + 1) / P(i) and P(i - 1) / P(i).
    let up = |i: u64| (n - i as f64) / (i as f64 + 1.0) * odds;
    let down = |i: u64| i as f64 / ((n - i as f64 + 1.0) * odds);
    const NEGLIGIBLE: f64 = 1e-300;

    // Unnormalised probabilities, 1 at the mode, summed directly outward to
    // where they vanish; no special functions are involved.
    let mode = (((n + 1.0) * p).floor() as u64).min(trials);
    let mut total = 1.0;
    let (mut bottom, mut w_bottom) = (mode, 1.0);
    while bottom > 0 {
        let next = w_bottom * down(bottom);
        if next < NEGLIGIBLE {
            break;
        }
        bottom -= 1;
        w_bottom = next;
        total += next;
    }
    let (mut top, mut w_top) = (mode, 1.0);
    while top < trials {
        let next = w_top * up(top);
        if next < NEGLIGIBLE {
            break;
        }
        top += 1;
        w_top = next;
        total += next;
    }
    let threshold = 0.5 * (1.0 - level) * total;

    // lo: the first k with P(K <= k) above the threshold, summing from the
    // bottom so small tails are added first.
    let (mut lo, mut w, mut below) = (bottom, w_bottom, 0.0);
    loop {
        below += w;
        if below > threshold || lo == trials {
            break;
        }
        w *= up(lo);
        lo += 1;
    }
    // hi: the first h with P(K > h) at or below the threshold, from the top.
    let (mut hi, mut w, mut above) = (top, w_top, 0.0);
    while hi > 0 && above + w <= threshold {
        above += w;
        w *= down(hi);
        hi -= 1;
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, Normal};

    fn rel_err(value: f64, reference: f64) -> f64 {
        ((value - reference) / reference).abs()
    }

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
    fn chi2_sf_matches_statrs_on_grid() {
        let dfs = [
            1.0, 2.0, 3.0, 4.0, 9.0, 16.0, 25.0, 81.0, 100.0, 2601.0, 10000.0,
        ];
        let mut worst: f64 = 0.0;
        let mut compared = 0;
        for df in dfs {
            let reference = ChiSquared::new(df).unwrap();
            let mut x = 0.01 * df;
            while x <= 50.0 * df {
                let expected = reference.sf(x);
                if expected > 1e-300 {
                    let err = rel_err(ln_chi2_sf(x, df).exp(), expected);
                    assert!(err < 1e-9, "df={df} x={x}: rel err {err:e}");
                    assert!(rel_err(chi2_sf(x, df), expected) < 1e-9);
                    worst = worst.max(err);
                    compared += 1;
                }
                x *= 1.02;
            }
        }
        assert!(compared > 2000, "only {compared} points compared");
        // statrs itself is only good to ~1e-11 at df = 10000.
        assert!(worst < 1e-10, "worst relative error {worst:e}");
    }

    #[test]
    fn ln_chi2_sf_matches_high_precision_references() {
        // (x, df, ln P(X > x)) from mpmath at 50 digits, rounded to f64.
        let cases = [
            (1e6, 2601.0, -490_969.560_501_651_5),
            (1e7, 2601.0, -4_987_977.353_515_75),
            (1e12, 2601.0, -499_999_973_016.307_1),
            (1e12, 1e6, -499_992_592_266.016_66),
            (2000003.0, 1e6, -153_434.639_847_978_37),
            (1000001.0, 1e6, -0.694_087_938_487_568_2),
            (2e6, 2e6, -0.693_413_177_455_728_3),
            (2002000.0, 2e6, -1.841_021_899_017_885_7),
            (3000.0, 2601.0, -16.561_820_067_357_026),
            (2601.0, 2601.0, -0.700_549_569_449_671_4),
            (1e6, 10000.0, -471_983.921_743_745_86),
            (200.0, 81.0, -26.076_528_930_627_443),
            (0.5, 1.0, -0.735_011_129_837_084_4),
            (1e-8, 1.0, -0.000_079_791_639_215_483_5),
        ];
        for (x, df, expected) in cases {
            let got = ln_chi2_sf(x, df);
            let err = (got - expected).abs() / expected.abs().max(1.0);
            assert!(err < 1e-13, "x={x} df={df}: {got} vs {expected} ({err:e})");
        }
    }

    #[test]
    fn df2_matches_exponential_closed_form() {
        let mut x = 1e-6;
        while x <= 1e6 {
            let expected = -0.5 * x;
            let err = rel_err(ln_chi2_sf(x, 2.0), expected);
            assert!(err < 1e-12, "x={x}: rel err {err:e}");
            x *= 1.37;
        }
        assert!(rel_err(ln_chi2_sf(1e6, 2.0), -5e5) < 1e-12);
    }

    #[test]
    fn df4_matches_closed_form() {
        let mut x: f64 = 1e-3;
        while x <= 1e6 {
            let expected = -0.5 * x + (0.5 * x).ln_1p();
            let err = rel_err(ln_chi2_sf(x, 4.0), expected);
            assert!(err < 1e-12, "x={x}: rel err {err:e}");
            x *= 1.37;
        }
    }

    #[test]
    fn deep_tail_is_finite_and_decreasing() {
        let df = 2601.0;
        let mut previous = ln_chi2_sf(1e6, df);
        assert!(previous.is_finite() && previous < -4e5);
        let mut x = 1e6;
        while x < 1e7 {
            x *= 1.1;
            let current = ln_chi2_sf(x, df);
            assert!(current.is_finite() && current < previous, "x={x}");
            previous = current;
        }
        let at_1e7 = ln_chi2_sf(1e7, df);
        assert!(at_1e7.is_finite() && at_1e7 < ln_chi2_sf(1e7 - 1.0, df));
        assert!((log10_chi2_sf(1e7, df) * LN_10 - at_1e7).abs() < 1e-6);
        assert!(ln_chi2_sf(1e12, 1e6).is_finite());
        assert_eq!(chi2_sf(1e7, df), 0.0);
    }

    #[test]
    fn gamma_q_edge_cases() {
        assert_eq!(ln_gamma_q(3.0, 0.0), 0.0);
        assert_eq!(ln_chi2_sf(-1.0, 5.0), 0.0);
        assert_eq!(chi2_sf(0.0, 5.0), 1.0);
        assert_eq!(ln_chi2_sf(f64::INFINITY, 5.0), f64::NEG_INFINITY);
        assert!(ln_gamma_q(0.0, 1.0).is_nan());
        assert!(ln_gamma_q(-1.0, 1.0).is_nan());
        assert!(ln_gamma_q(1.0, f64::NAN).is_nan());
        // Q(1, x) = e^-x.
        assert!(rel_err(ln_gamma_q(1.0, 123.456), -123.456) < 1e-14);
    }

    #[test]
    fn ln_gamma_matches_references() {
        // mpmath values, rounded to f64.
        let cases = [
            (0.5, 0.572_364_942_924_700_1),
            (3.5, 1.200_973_602_347_074_3),
            (8.0, 8.525_161_361_065_415),
            (9.5, 11.689_333_420_797_269),
            (25.0, 54.784_729_398_112_32),
            (1e6, 12_815_504.569_147_611),
        ];
        for (a, expected) in cases {
            assert!(rel_err(ln_gamma(a), expected) < 1e-14, "a={a}");
        }
        let mut factorial = 1.0_f64;
        for n in 1..=20 {
            assert!((ln_gamma(n as f64) - factorial.ln()).abs() < 1e-14, "n={n}");
            factorial *= n as f64;
        }
    }

    #[test]
    fn log1pmx_is_accurate() {
        for t in [-0.9_f64, -0.5, -0.1, 0.3, 1.0, 5.0, 1e3] {
            let direct = t.ln_1p() - t;
            assert!(rel_err(log1pmx(t), direct) < 1e-13, "t={t}");
        }
        for t in [1e-10_f64, -1e-10, 1e-5] {
            let series = -t * t / 2.0 + t * t * t / 3.0 - t.powi(4) / 4.0;
            assert!(rel_err(log1pmx(t), series) < 1e-14, "t={t}");
        }
    }

    #[test]
    fn wilson_hilferty_fallback_is_close_in_the_bulk() {
        let a: f64 = 1e6;
        for k in [-3.0, -1.0, 0.0, 1.0, 3.0, 10.0] {
            let x = a + k * a.sqrt();
            let exact = ln_gamma_q(a, x);
            let approx = ln_gamma_q_wilson_hilferty(a, x);
            assert!(
                (approx - exact).abs() < 1e-3 * exact.abs().max(1e-2),
                "k={k}"
            );
        }
    }

    #[test]
    fn chi2_isf_round_trips() {
        let dfs = [1.0, 2.0, 3.0, 9.0, 81.0, 100.0, 2601.0, 1e4, 1e6];
        let tails = [
            1.0 - 1e-12,
            1.0 - 1e-6,
            0.9,
            0.5,
            0.05,
            1e-6,
            1e-20,
            1e-100,
            1e-300,
        ];
        for df in dfs {
            for tail in tails {
                let x = chi2_isf(tail, df);
                assert!(x.is_finite() && x > 0.0, "df={df} tail={tail}");
                let back = ln_chi2_sf(x, df);
                // Error of one ulp in x, amplified by the slope of ln sf.
                let y = 0.5 * x;
                let slope = 0.5 * (ln_gamma_prefix(0.5 * df, y) - y.ln() - back).exp();
                let tolerance = 1e-13 * tail.ln().abs().max(1e-12) + 8.0 * EPS * x * slope;
                assert!(
                    (back - tail.ln()).abs() <= tolerance,
                    "df={df} tail={tail}: x={x}, ln sf={back}"
                );
            }
        }
    }

    #[test]
    fn chi2_isf_matches_statrs_and_extremes() {
        for df in [1.0, 5.0, 81.0, 2601.0] {
            let expected = ChiSquared::new(df).unwrap().inverse_cdf(0.95);
            assert!(rel_err(chi2_isf(0.05, df), expected) < 1e-8, "df={df}");
        }
        let x = chi2_isf(1e-300, 81.0);
        assert!(x.is_finite() && x > 1000.0);
        assert!(rel_err(ln_chi2_sf(x, 81.0), 1e-300_f64.ln()) < 1e-12);
        // Tiny lower tail: P(X <= x) = 1e-6 for df = 2 means x = -2 ln(1 - 1e-6).
        let lower = chi2_isf(1.0 - 1e-6, 2.0);
        assert!(rel_err(lower, -2.0 * (-1e-6_f64).ln_1p()) < 1e-9);
        assert_eq!(chi2_isf(1.0, 3.0), 0.0);
        assert_eq!(chi2_isf(0.0, 3.0), f64::INFINITY);
        assert!(chi2_isf(1.5, 3.0).is_nan());
        assert!(chi2_isf(0.5, 0.0).is_nan());
        assert!(chi2_isf(f64::NAN, 3.0).is_nan());
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

    #[test]
    fn noncentral_with_zero_lambda_is_central() {
        for df in [1.0, 4.0, 81.0, 2601.0] {
            for x in [0.1, 0.5 * df, df, 2.0 * df, 5.0 * df] {
                assert_eq!(noncentral_chi2_sf(x, df, 0.0), chi2_sf(x, df));
            }
        }
    }

    #[test]
    fn noncentral_df1_matches_normal_closed_form() {
        // X = (Z + √λ)² gives P(X > x) = Φ(-√x - √λ) + Φ(-√x + √λ). statrs'
        // normal CDF is itself only good to about 1e-10 relative (its erfc), so
        // the tolerance is loose here; the mpmath cases below are tight.
        let normal = Normal::standard();
        let mut worst: f64 = 0.0;
        for lambda in [0.01, 0.5, 4.0, 25.0, 100.0, 1e3, 1e4, 1e5] {
            for factor in [0.01, 0.2, 0.5, 0.9, 1.0, 1.1, 1.5, 2.0, 4.0] {
                let x: f64 = factor * (1.0 + lambda);
                let expected =
                    normal.cdf(-x.sqrt() - lambda.sqrt()) + normal.cdf(-x.sqrt() + lambda.sqrt());
                if expected > 1e-250 {
                    let err = rel_err(noncentral_chi2_sf(x, 1.0, lambda), expected);
                    worst = worst.max(err);
                    assert!(err < 1e-9, "x={x} lambda={lambda}: rel err {err:e}");
                }
            }
        }
        assert!(worst < 5e-10, "worst {worst:e}");
        // The same closed form evaluated with mpmath at 30 digits, rounded.
        let cases = [
            (7.5, 4.0, 0.230_072_154_450_827_8),
            (0.909, 0.01, 0.342_790_062_329_407_23),
            (2.25, 0.5, 0.227_573_319_338_830_43),
            (202.0, 100.0, 0.000_012_618_459_512_588_257),
            (15001.5, 1e4, 3.212_471_923_083_906_3e-112),
            (99000.0, 1e5, 0.943_529_505_882_101_4),
            (100001.0, 1e5, 0.499_369_218_709_269_15),
            (104000.0, 1e5, 1.893_735_821_237_341_5e-10),
            (110000.0, 1e5, 4.781_240_277_917_063e-54),
        ];
        for (x, lambda, expected) in cases {
            let err = rel_err(noncentral_chi2_sf(x, 1.0, lambda), expected);
            assert!(err < 1e-12, "x={x} lambda={lambda}: {err:e}");
        }
        // The true value, 1.9e-429, underflows.
        assert_eq!(noncentral_chi2_sf(130000.0, 1.0, 1e5), 0.0);
    }

    #[test]
    fn noncentral_matches_high_precision_references() {
        // (x, df, lambda, sf) from an mpmath Poisson mixture at 30 digits, rounded.
        let cases = [
            (100.0, 10.0, 50.0, 0.008_292_544_087_026_63),
            (900.0, 3.0, 1000.0, 0.951_062_637_250_434),
            (1200.0, 3.0, 1000.0, 0.001_403_901_854_520_949),
            (11000.0, 100.0, 1e4, 5.473_149_646_051_555e-6),
            (500.0, 4.0, 10.0, 3.581_465_027_749_075e-81),
            (111500.0, 1e4, 1e5, 0.010_499_986_735_533_895),
            (112000.0, 1e4, 1e5, 0.001_058_706_950_643_778_7),
        ];
        for (x, df, lambda, expected) in cases {
            let err = rel_err(noncentral_chi2_sf(x, df, lambda), expected);
            assert!(err < 1e-12, "x={x} df={df} lambda={lambda}: {err:e}");
        }
        // The true value, 3.44e-420, underflows.
        assert_eq!(noncentral_chi2_sf(3000.0, 50.0, 100.0), 0.0);
    }

    #[test]
    fn noncentral_matches_direct_mixture_for_large_parameters() {
        // Reference: the Poisson mixture with every central tail computed
        // independently by ln_chi2_sf, over ±40 standard deviations.
        let direct = |x: f64, df: f64, lambda: f64| {
            let mu = 0.5 * lambda;
            let spread = 40.0 * mu.sqrt() + 50.0;
            let first = (mu - spread).max(0.0) as u64;
            let last = (mu + spread) as u64;
            (first..=last)
                .map(|j| {
                    let j = j as f64;
                    let ln_weight = j * mu.ln() - mu - ln_gamma(j + 1.0);
                    (ln_weight + ln_chi2_sf(x, df + 2.0 * j)).exp()
                })
                .sum::<f64>()
        };
        for (df, lambda) in [
            (1e4_f64, 1e5_f64),
            (100.0, 1e5),
            (2601.0, 500.0),
            (9.0, 30.0),
        ] {
            let mean = df + lambda;
            let sd = (2.0 * (df + 2.0 * lambda)).sqrt();
            for z in [-6.0, -2.0, 0.0, 1.0, 3.0, 8.0, 20.0] {
                let x = mean + z * sd;
                if x <= 0.0 {
                    continue;
                }
                let expected = direct(x, df, lambda);
                let err = rel_err(noncentral_chi2_sf(x, df, lambda), expected);
                assert!(err < 1e-9, "df={df} lambda={lambda} z={z}: {err:e}");
            }
        }
    }

    #[test]
    fn noncentral_is_monotone_and_bounded() {
        let (df, lambda) = (50.0, 200.0);
        let mut previous = 1.0;
        let mut x = 1.0;
        while x < 2000.0 {
            let sf = noncentral_chi2_sf(x, df, lambda);
            assert!((0.0..=previous).contains(&sf), "x={x}");
            previous = sf;
            x *= 1.05;
        }
        let mut previous = 0.0;
        for lambda in [0.0, 1.0, 10.0, 100.0, 1000.0] {
            let sf = noncentral_chi2_sf(300.0, df, lambda);
            assert!(sf >= previous, "lambda={lambda}");
            previous = sf;
        }
        assert_eq!(noncentral_chi2_sf(0.0, 5.0, 3.0), 1.0);
        assert_eq!(noncentral_chi2_sf(f64::INFINITY, 5.0, 3.0), 0.0);
        assert_eq!(noncentral_chi2_sf(1e9, 1e4, 1e5), 0.0);
        assert!(noncentral_chi2_sf(1.0, 5.0, -1.0).is_nan());
        assert!(noncentral_chi2_sf(1.0, 0.0, 1.0).is_nan());
    }

    #[test]
    fn binomial_band_for_rare_events() {
        let (trials, p, level) = (1000, 0.01, 0.999);
        let (lo, hi) = binomial_band(trials, p, level);
        assert!((lo..=hi).contains(&10));
        assert!(
            (1..=3).contains(&lo) && (20..=24).contains(&hi),
            "[{lo}, {hi}]"
        );
        let alpha = 0.5 * (1.0 - level);
        let dist = Binomial::new(p, trials).unwrap();
        assert!(lo == 0 || dist.cdf(lo - 1) <= alpha);
        assert!(dist.cdf(lo) > alpha);
        assert!(dist.sf(hi) <= alpha);
        assert!(dist.sf(hi - 1) > alpha);
    }

    #[test]
    fn binomial_band_is_tight_against_statrs() {
        for trials in [1u64, 2, 7, 30, 200, 1000, 5000] {
            for p in [0.001, 0.05, 0.3, 0.5, 0.9, 0.999] {
                for level in [0.5, 0.9, 0.99, 0.999999] {
                    let (lo, hi) = binomial_band(trials, p, level);
                    let alpha = 0.5 * (1.0 - level);
                    let dist = Binomial::new(p, trials).unwrap();
                    let slack = 1e-9 * alpha;
                    let context = format!("n={trials} p={p} level={level}: [{lo}, {hi}]");
                    assert!(lo <= hi && hi <= trials, "{context}");
                    assert!(lo == 0 || dist.cdf(lo - 1) <= alpha + slack, "{context}");
                    assert!(lo == trials || dist.cdf(lo) > alpha - slack, "{context}");
                    assert!(dist.sf(hi) <= alpha + slack, "{context}");
                    assert!(hi == 0 || dist.sf(hi - 1) > alpha - slack, "{context}");
                }
            }
        }
    }

    #[test]
    fn binomial_band_large_trials_is_near_normal() {
        let (trials, p, level) = (100_000_000u64, 0.3, 0.99);
        let (lo, hi) = binomial_band(trials, p, level);
        let mean = trials as f64 * p;
        let sd = (mean * (1.0 - p)).sqrt();
        let z = 2.5758293035489;
        assert!((lo as f64 - (mean - z * sd)).abs() < 3.0, "lo={lo}");
        assert!((hi as f64 - (mean + z * sd)).abs() < 3.0, "hi={hi}");
    }

    #[test]
    fn binomial_band_degenerate_cases() {
        assert_eq!(binomial_band(100, 0.0, 0.99), (0, 0));
        assert_eq!(binomial_band(100, 1.0, 0.99), (100, 100));
        assert_eq!(binomial_band(0, 0.4, 0.99), (0, 0));
    }

    #[test]
    #[should_panic(expected = "binomial p")]
    fn binomial_band_rejects_bad_probability() {
        let _ = binomial_band(10, 1.5, 0.9);
    }
}
