//! Exact laws, in log space: of the rising-sequence count and of the cycle
//! count under a uniform shuffle, and of a whole arrangement after k riffles
//! (Bayer and Diaconis' closed form).
//!
//! Everything is computed as logarithms of probabilities, so nothing
//! overflows (52! ≈ 8e67, the Eulerian numbers of 52 reach about 1e66, and
//! beyond n = 170 they leave the f64 range) and nothing tiny is lost.

/// `ln(e^x + e^y)` without overflow; `-inf` is the log of zero.
fn ln_add_exp(x: f64, y: f64) -> f64 {
    let (hi, lo) = if x >= y { (x, y) } else { (y, x) };
    if lo == f64::NEG_INFINITY {
        hi
    } else {
        hi + (lo - hi).exp().ln_1p()
    }
}

/// `ln |e^x - 1|`, accurate near x = 0 and for large x; `-inf` at x = 0.
fn ln_abs_exp_m1(x: f64) -> f64 {
    if x > 1.0 {
        x + (-(-x).exp()).ln_1p()
    } else {
        x.exp_m1().abs().ln()
    }
}

/// `ln P(r rising sequences)` for a uniform arrangement of n, for r = 1..=n
/// (index r - 1): `ln(A(n, r-1) / n!)`, A the Eulerian numbers.
///
/// Uses A(n, m) = (m+1) A(n-1, m) + (n-m) A(n-1, m-1) divided through by n!,
/// so each row is a probability law.
pub fn ln_uniform_rising_law(n: usize) -> Vec<f64> {
    let mut law = vec![0.0]; // n = 1: one rising sequence, surely
    for size in 2..=n {
        let ln_size = (size as f64).ln();
        law = (0..size)
            .map(|m| {
                let stay = law
                    .get(m)
                    .map_or(f64::NEG_INFINITY, |&l| l + ((m + 1) as f64).ln());
                let grow = m
                    .checked_sub(1)
                    .map_or(f64::NEG_INFINITY, |i| law[i] + ((size - m) as f64).ln());
                ln_add_exp(stay, grow) - ln_size
            })
            .collect();
    }
    law
}

/// `ln(n! P_k(π))` for an arrangement π of n with `r` rising sequences after
/// `k` riffles: the log of its probability relative to uniform.
///
/// Bayer–Diaconis: P_k(π) = C(2^k + n - r, n) / 2^(nk), so
/// n! P_k(π) = Π_{j=1..n} (1 + (j - r) / 2^k), which is 0 when r > 2^k
/// (returned as `-inf`).
pub fn ln_riffle_ratio(n: usize, k: u32, r: usize) -> f64 {
    // 2^k is exact in f64 up to k = 1023 and +inf beyond, where every ratio is 1.
    let a = 2f64.powi(k.min(1100) as i32);
    if r as f64 > a {
        return f64::NEG_INFINITY;
    }
    (1..=n).map(|j| ((j as f64 - r as f64) / a).ln_1p()).sum()
}

/// `ln(n! P_k(π))` for every r = 1..=n (index r - 1): [`ln_riffle_ratio`]
/// for all r in O(n) rather than O(n²), by sliding the window of factors
/// ln(1 + m/2^k), m = 1-r..=n-r, one place per r.
pub fn ln_riffle_ratios(n: usize, k: u32) -> Vec<f64> {
    let a = 2f64.powi(k.min(1100) as i32);
    let factor = |m: i64| (m as f64 / a).ln_1p();
    let mut out = vec![f64::NEG_INFINITY; n];
    let mut window: f64 = (0..n as i64).map(factor).sum();
    for (i, slot) in out.iter_mut().enumerate() {
        let r = i as i64 + 1;
        if r as f64 > a {
            break;
        }
        *slot = window;
        window += factor(-r) - factor(n as i64 - r);
    }
    out
}

/// The exact law of the rising-sequence count after `k` riffles of n cards:
/// `P(R = r)` for r = 1..=n (index r - 1), i.e. A(n, r-1) P_k(π).
pub fn riffle_rising_law(n: usize, k: u32) -> Vec<f64> {
    ln_uniform_rising_law(n)
        .iter()
        .zip(ln_riffle_ratios(n, k))
        .map(|(&ln_w, ln_ratio)| (ln_w + ln_ratio).exp())
        .collect()
}

/// The exact total variation distance to uniform after `k` riffles of n
/// cards (Bayer and Diaconis 1992):
/// TV = (1/2) Σ_r A(n, r-1) |P_k(r) - 1/n!|.
///
/// Because P_k(π) depends on π only through its rising sequences, this is
/// also the distance between the laws of the rising-sequence count.
pub fn riffle_tv(n: usize, k: u32) -> f64 {
    riffle_tv_curve(n, &[k])[0]
}

/// [`riffle_tv`] for each k in `ks`, computing the uniform law once.
pub fn riffle_tv_curve(n: usize, ks: &[u32]) -> Vec<f64> {
    let ln_uniform = ln_uniform_rising_law(n);
    ks.iter()
        .map(|&k| {
            let sum: f64 = ln_uniform
                .iter()
                .zip(ln_riffle_ratios(n, k))
                .map(|(&ln_w, ln_ratio)| (ln_w + ln_abs_exp_m1(ln_ratio)).exp())
                .sum();
            (0.5 * sum).min(1.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::function::factorial::ln_factorial;

    fn exp_round(law: &[f64], scale: f64) -> Vec<u64> {
        law.iter()
            .map(|l| (l.exp() * scale).round() as u64)
            .collect()
    }

    #[test]
    fn eulerian_numbers_of_small_n() {
        assert_eq!(exp_round(&ln_uniform_rising_law(4), 24.0), [1, 11, 11, 1]);
        assert_eq!(
            exp_round(&ln_uniform_rising_law(6), 720.0),
            [1, 57, 302, 302, 57, 1]
        );
        // A(52, 0) / 52! = 1 / 52!, far below anything but log space.
        let first = ln_uniform_rising_law(52)[0];
        assert!((first + ln_factorial(52)).abs() < 1e-10, "{first}");
    }

    #[test]
    fn bayer_diaconis_table_for_52_cards() {
        let published = [
            1.000, 1.000, 1.000, 1.000, 0.924, 0.614, 0.334, 0.167, 0.085, 0.043,
        ];
        for (k, want) in (1..=10).zip(published) {
            let tv = riffle_tv(52, k);
            assert!(
                (tv - want).abs() < 0.0005,
                "k = {k}: TV = {tv:.5}, published {want}"
            );
        }
        assert!(riffle_tv(52, 4) < 1.0 && riffle_tv(52, 3) > 0.9999);
    }

    #[test]
    fn riffle_laws_sum_to_one() {
        for n in [1, 2, 3, 5, 10, 52, 200] {
            // Each of the n log-space recurrence steps rounds logs of size up to
            // ln n!, so the tails carry relative errors of about n ln(n!) ε.
            let tolerance = 1e-15 * n as f64 * (1.0 + ln_factorial(n as u64));
            for k in [0, 1, 2, 3, 5, 7, 12, 40] {
                let total: f64 = riffle_rising_law(n, k).iter().sum();
                assert!((total - 1.0).abs() < tolerance, "n={n} k={k}: {total}");
            }
        }
        // Zero riffles leave the identity, the only arrangement with r = 1.
        let law = riffle_rising_law(5, 0);
        assert!((law[0] - 1.0).abs() < 1e-12 && law[1..].iter().all(|&p| p == 0.0));
        assert!((riffle_tv(5, 0) - (1.0 - 1.0 / 120.0)).abs() < 1e-12);
    }

    #[test]
    fn sliding_ratios_match_the_direct_product() {
        for (n, k) in [
            (52, 0),
            (52, 1),
            (52, 4),
            (52, 7),
            (52, 30),
            (7, 2),
            (300, 9),
        ] {
            for (i, fast) in ln_riffle_ratios(n, k).into_iter().enumerate() {
                let direct = ln_riffle_ratio(n, k, i + 1);
                let ok = if direct == f64::NEG_INFINITY {
                    fast == direct
                } else {
                    (fast - direct).abs() <= 1e-12 * (1.0 + direct.abs())
                };
                assert!(ok, "n={n} k={k} r={}: {fast} vs {direct}", i + 1);
            }
        }
    }

    #[test]
    fn riffle_tv_matches_brute_force_for_small_decks() {
        // n = 3, k = 1: the identity has probability (n+1)/2^n = 1/2, each of
        // the 4 arrangements with 2 rising sequences 1/8, the last one 0.
        let want = 0.5 * ((0.5 - 1.0 / 6.0) + 4.0 * (1.0f64 / 6.0 - 1.0 / 8.0) + 1.0 / 6.0);
        assert!((riffle_tv(3, 1) - want).abs() < 1e-12);
        // Enough riffles make it uniform.
        assert!(riffle_tv(52, 60) < 1e-12);
        assert_eq!(riffle_tv(52, 5000), 0.0);
    }
}
