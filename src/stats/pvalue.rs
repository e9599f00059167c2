//! What a p-value may claim.
//!
//! The tests' p-values are tail probabilities of approximations (χ² laws,
//! moment-matched laws): accurate in the range where decisions are made, but
//! meaningless far out. The arithmetic stays exact in log space to any depth
//! (random-swap at n = 52 would print 10^-5618544158), while the true p of
//! such a count table is at least the multinomial probability of the observed
//! counts, around 10^-3490000 there: the approximation's digits carry no
//! information. So every output shows p-values below [`LOG10_P_FLOOR`] as the
//! bound "p < 1e-12", and the size of a departure is carried by the
//! statistic and its standardised excess [`departure`] instead.
//!
//! The floor is far below any level a verdict uses: α ≥ [`MIN_ALPHA`] with a
//! Holm family of up to 10,000 tests never compares with a p below 1e-10.

/// log10 of the smallest p-value any output states as a number; below it a
/// p-value is shown as the bound `p < 1e-12`.
pub const LOG10_P_FLOOR: f64 = -12.0;

/// The smallest significance level accepted, so that every decision is taken
/// well above [`LOG10_P_FLOOR`].
pub const MIN_ALPHA: f64 = 1e-6;

/// Whether a p-value (as log10) lies below the floor and may only be stated
/// as a bound.
pub fn is_bound(log10_p: f64) -> bool {
    log10_p < LOG10_P_FLOOR
}

/// The p-value as it may be stated: `10^log10_p`, or the floor itself when
/// the value is below it (then [`is_bound`] holds and it reads "p < floor").
pub fn stated(log10_p: f64) -> f64 {
    10f64.powf(log10_p.max(LOG10_P_FLOOR))
}

/// The standardised excess of a chi-square-type statistic over its null
/// mean: (X − df) / √(2·df), in null standard deviations. It orders
/// departures meaningfully where p-values are only bounds; 0 when df = 0.
pub fn departure(statistic: f64, df: f64) -> f64 {
    if df > 0.0 {
        (statistic - df) / (2.0 * df).sqrt()
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_below_the_floor_become_bounds() {
        assert!(!is_bound(-3.0));
        assert!(is_bound(-13.0));
        assert_eq!(stated(-5_618_544_158.0), 1e-12);
        assert!((stated(-3.0) - 1e-3).abs() < 1e-18);
        assert_eq!(departure(81.0, 81.0), 0.0);
        assert!((departure(99.0, 81.0) - 18.0 / 162f64.sqrt()).abs() < 1e-12);
        assert_eq!(departure(5.0, 0.0), 0.0);
    }
}
