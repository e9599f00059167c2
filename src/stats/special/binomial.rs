//! Two-sided acceptance bands for binomial counts.
//!
//! The auditor judges counts of events (such as rejections at a nominal rate)
//! against their expected probability with these bands. The probabilities are
//! summed directly outward from the mode, without special functions, because
//! statrs' binomial CDF is inaccurate for millions of trials.

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

/// P(K ≥ `k`) for K ~ Binomial(`trials`, `p`), summed term by term from
/// `k` up (for the modest `trials` it serves: how many of a few hundred
/// per-line tests fail by chance).
///
/// # Panics
///
/// If `p` is not in `[0, 1]`.
pub fn binomial_upper_tail(k: u64, trials: u64, p: f64) -> f64 {
    assert!(
        (0.0..=1.0).contains(&p),
        "binomial p must be in [0, 1], got {p}"
    );
    if k == 0 {
        return 1.0;
    }
    if k > trials || p == 0.0 {
        return 0.0;
    }
    if p == 1.0 {
        return 1.0;
    }
    let n = trials as f64;
    let ln_choose = |i: f64| {
        super::gamma::ln_gamma(n + 1.0)
            - super::gamma::ln_gamma(i + 1.0)
            - super::gamma::ln_gamma(n - i + 1.0)
    };
    let kf = k as f64;
    let mut term = (ln_choose(kf) + kf * p.ln() + (n - kf) * (1.0 - p).ln()).exp();
    let mut total = 0.0;
    for i in k..=trials {
        total += term;
        let i = i as f64;
        term *= (n - i) / (i + 1.0) * p / (1.0 - p);
        if term < total * 1e-17 {
            break;
        }
    }
    total.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{Binomial, DiscreteCDF};

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
    fn binomial_upper_tail_matches_statrs() {
        for (k, trials, p) in [
            (0, 10, 0.3),
            (1, 52, 0.01),
            (3, 52, 0.01),
            (7, 20, 0.5),
            (21, 20, 0.5),
        ] {
            let want = if k == 0 {
                1.0
            } else {
                Binomial::new(p, trials).unwrap().sf(k - 1)
            };
            let got = binomial_upper_tail(k, trials, p);
            assert!(
                (got - want).abs() <= 1e-12 + 1e-9 * want,
                "{k} {trials} {p}: {got} vs {want}"
            );
        }
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
