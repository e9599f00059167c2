//! The hypergeometric law: how many of `successes` marked items fall among
//! `draws` items drawn without replacement from `population`. It is the law
//! of the number of cards of a category in the first h cards of a uniformly
//! shuffled deck (lands in an opening hand).

/// ln(k!) by summation: exact enough (relative error ~1e-15 per term) and
/// cheap for the deck sizes audited.
fn ln_factorial(k: usize) -> f64 {
    (2..=k).map(|i| (i as f64).ln()).sum()
}

/// ln C(a, b).
fn ln_choose(a: usize, b: usize) -> f64 {
    ln_factorial(a) - ln_factorial(b) - ln_factorial(a - b)
}

/// P(X = k) for k = 0..=draws (zero outside the support), where X counts
/// the marked items among `draws` drawn from `population` of which
/// `successes` are marked.
///
/// # Panics
/// If `successes` or `draws` exceeds `population`.
pub fn pmf(population: usize, successes: usize, draws: usize) -> Vec<f64> {
    assert!(successes <= population && draws <= population);
    let total = ln_choose(population, draws);
    (0..=draws)
        .map(|k| {
            if k > successes || draws - k > population - successes {
                0.0
            } else {
                (ln_choose(successes, k) + ln_choose(population - successes, draws - k) - total)
                    .exp()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_hand_counts() {
        // 2 aces among 5 cards of a 52-card deck: C(4,2)C(48,3)/C(52,5).
        let p = pmf(52, 4, 5);
        assert!((p[2] - 6.0 * 17_296.0 / 2_598_960.0).abs() < 1e-12);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // 24 lands in 60, 7 drawn: mean 7·24/60 = 2.8.
        let mean: f64 = pmf(60, 24, 7)
            .iter()
            .enumerate()
            .map(|(k, q)| k as f64 * q)
            .sum();
        assert!((mean - 2.8).abs() < 1e-12);
        let small = pmf(4, 1, 2);
        assert!((small[0] - 0.5).abs() < 1e-12 && (small[1] - 0.5).abs() < 1e-12);
        assert_eq!(small[2], 0.0);
    }
}
