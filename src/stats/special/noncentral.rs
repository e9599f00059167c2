//! The non-central chi-square distribution, for power calculations.
//!
//! The auditor states how large a bias each test would detect: the survival
//! function gives the chance that a chi-square test rejects under a bias of a
//! given size (non-centrality λ), and `noncentrality_for_power` inverts it for
//! the λ a requested power needs. The survival function is a Poisson mixture
//! of central tails, summed outward from its mode with recurrences from the
//! incomplete gamma function, and skipped via a Chernoff bound when it would
//! underflow anyway.

use super::EPS;
use super::chi2::chi2_sf;
use super::gamma::{ln_gamma_prefix, ln_gamma_q};

/// Natural log of the smallest positive subnormal `f64`, rounded down.
const LN_UNDERFLOW: f64 = -746.0;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::special::gamma::ln_gamma;
    use crate::stats::special::{ln_chi2_sf, rel_err};
    use statrs::distribution::{ContinuousCDF, Normal};

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
}
