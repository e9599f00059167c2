//! The central chi-square distribution: survival function (as a natural log,
//! a plain probability and a base-10 log) and its inverse.
//!
//! These are how the auditor turns goodness-of-fit statistics into p-values
//! and significance levels into critical values. The tail is taken from the
//! log incomplete gamma function, so reported p-values stay finite far past
//! `f64` underflow, and the quantile takes the upper-tail probability so that
//! extreme levels such as `1e-300` are exact.

use std::f64::consts::LN_10;

use super::EPS;
use super::gamma::{ln_gamma_prefix, ln_gamma_q};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::special::rel_err;
    use statrs::distribution::{ChiSquared, ContinuousCDF};

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
}
