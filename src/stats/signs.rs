//! The weighted sign test: the exact conditional law of a sum of signed
//! integer terms whose signs are fair coins given their sizes.
//!
//! A statistic S = Σ x_i whose terms are independent and each symmetric
//! about 0 has, conditional on the sizes |x_i|, the law of a Rademacher sum
//! Σ ε_i |x_i| (ε_i = ±1 with probability ½ each, independent), whatever
//! the law of the sizes. That law is known exactly, so a test on it holds
//! its level at any sample size and for any law of the terms: the serial
//! test ([`super::sequence::serial`]) is such a sum.
//!
//! With integer sizes grouped by value (c_j terms of size j), S = 2U − W
//! with W = Σ j c_j and U = Σ j B_j, B_j ~ Binomial(c_j, ½) independent.
//! [`two_sided`] computes P(|S| ≥ |s|):
//!
//! - **exactly**, by convolving the scaled binomial laws, while that costs
//!   at most [`MAX_EXACT_WORK`] multiply-adds;
//! - beyond, by the **Edgeworth expansion** of S's law to order 1/m (S is
//!   symmetric, so only its excess kurtosis −2 Σ c_j j⁴ / (Σ c_j j²)² enters)
//!   with a continuity correction of half S's lattice step. A Rademacher
//!   sum is platykurtic, so the correction makes the tail lighter than the
//!   normal one, as the exact law is (checked against it in the tests);
//! - far in the tail (standard score above [`CHERNOFF_Z`], p below 1e-13,
//!   where every verdict is decided and reports give bounds), by the
//!   Chernoff bound exp(−sup_t (t s − Σ c_j ln cosh(j t))), which is an
//!   upper bound of the true tail, so the p-value stated is never too
//!   small.
//!
//! [`two_sided_heavy`] is the same test with the terms of large size
//! ("heavy", size j ≥ [`Heavy::from`]) weighted [`Heavy::factor`] times
//! their size: S = Σ ε_i g(|x_i|) with g(j) = j below the threshold and
//! factor · j from it. The weights are a function of the sizes alone, so
//! given the sizes S is again a Rademacher sum and the test stays exact
//! (any weighting fixed from the sizes, never from the signs, does). A
//! few heavy terms of large weight make S far from normal, so where the
//! whole law is too costly to convolve its tail is the exact law of the
//! heavy part (few terms) mixed over the light part's tail, itself exact
//! while cheap, else Edgeworth, or the Chernoff bound far out, as above.

use super::special::ln_normal_sf;
use statrs::function::gamma::ln_gamma;
use std::f64::consts::{LN_2, LN_10, PI};

/// The most multiply-adds spent convolving the exact law (a few
/// milliseconds); larger sums take the Edgeworth expansion, which is then
/// accurate (many terms, none dominating).
pub const MAX_EXACT_WORK: u64 = 2_000_000;

/// Standard scores above which the p-value is the Chernoff bound.
pub const CHERNOFF_Z: f64 = 7.5;

/// A weighted sign test's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct SignTest {
    /// Σ c_j j², the variance of S given the sizes.
    pub variance: f64,
    /// S's standard score, s / √variance (0 when the variance is 0).
    pub z: f64,
    /// log10 of the two-sided p-value P(|S| ≥ |s|) given the sizes.
    pub log10_p: f64,
    /// How the p-value was computed, in words.
    pub how: &'static str,
}

/// The two-sided test of the sum `sum` of terms of which `sizes[j]` have
/// size j (`sizes[0]`, terms equal to 0, is ignored: they carry no sign),
/// each term's sign a fair coin given its size.
///
/// # Panics
///
/// If `sum` is not a value S can take: |sum| > Σ j c_j or of the wrong
/// parity.
pub fn two_sided(sizes: &[u64], sum: i64) -> SignTest {
    let weighted: u64 = sizes.iter().enumerate().map(|(j, &c)| j as u64 * c).sum();
    let s = sum.unsigned_abs();
    assert!(
        s <= weighted && (s + weighted).is_multiple_of(2),
        "a sum of {sum} is impossible for sizes {sizes:?}"
    );
    let variance: f64 = sizes
        .iter()
        .enumerate()
        .map(|(j, &c)| (j * j) as f64 * c as f64)
        .sum();
    let z = if variance > 0.0 {
        s as f64 / variance.sqrt()
    } else {
        0.0
    };
    if s == 0 {
        return SignTest {
            variance,
            z,
            log10_p: 0.0,
            how: "no departure from 0",
        };
    }
    // P(S ≥ s) = P(U ≥ (s + W)/2).
    let threshold = (s + weighted) / 2;
    let (ln_tail, how) = if exact_work(sizes) <= MAX_EXACT_WORK {
        match exact_upper(sizes, threshold) {
            Some(tail) => (tail.ln(), "its exact law (a convolution of binomials)"),
            None => (chernoff_ln_tail(sizes, s as f64), "the Chernoff bound"),
        }
    } else if z > CHERNOFF_Z {
        (chernoff_ln_tail(sizes, s as f64), "the Chernoff bound")
    } else {
        (
            edgeworth_ln_tail(sizes, s as f64, variance),
            "the Edgeworth expansion of its law (exact variance and kurtosis, continuity corrected)",
        )
    };
    SignTest {
        variance,
        z,
        log10_p: ((ln_tail + LN_2) / LN_10).min(0.0),
        how,
    }
}

/// Which sizes a [`two_sided_heavy`] test weighs more, and how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heavy {
    /// The least size that is heavy.
    pub from: usize,
    /// A heavy term of size j weighs `factor` · j (a light one j).
    pub factor: u64,
}

impl Heavy {
    /// The weight of a term of size `j`.
    pub fn weight(&self, j: usize) -> u64 {
        if j >= self.from {
            self.factor * j as u64
        } else {
            j as u64
        }
    }

    /// The sizes regrouped by weight: `out[w]` terms of weight w.
    pub fn weighted(&self, sizes: &[u64]) -> Vec<u64> {
        let top = (0..sizes.len())
            .filter(|&j| sizes[j] > 0)
            .map(|j| self.weight(j))
            .max()
            .unwrap_or(0);
        let mut out = vec![0u64; top as usize + 1];
        for (j, &c) in sizes.iter().enumerate().filter(|&(_, &c)| c > 0) {
            out[self.weight(j) as usize] += c;
        }
        out
    }

    /// The heavy terms among `sizes`.
    pub fn count(&self, sizes: &[u64]) -> u64 {
        sizes.iter().skip(self.from).sum()
    }
}

/// The two-sided test of the weighted sum `sum` = Σ ε_i g(|x_i|) of terms
/// of which `sizes[j]` have size j, g(j) = [`Heavy::weight`], each sign ε_i
/// a fair coin given the sizes: P(|S| ≥ |sum|) given the sizes.
///
/// Without a heavy term it is [`two_sided`] of `sizes` itself (the same
/// p-value to the bit). Otherwise it is [`two_sided`] of the sizes
/// regrouped by weight while the exact convolution is cheap; beyond,
/// with H the heavy terms' part and L the light ones' (independent and
/// symmetric), P(|S| ≥ s) = 2 Σ_h P(H = h) P(L ≥ s − h), H's law exact
/// (a convolution of few binomials) and L's tail exact where cheap, else
/// its Edgeworth expansion, or the Chernoff bound, an upper bound, where
/// the light part is more than [`CHERNOFF_Z`] standard deviations out.
/// The Edgeworth expansion of the whole S would be wrong there: a few
/// heavy terms dominate S's variance. Where the heavy terms are so many
/// that their own law is costly (hundreds, none dominating), the whole S
/// is judged as [`two_sided`] judges it.
///
/// # Panics
///
/// If `sum` is not a value S can take.
pub fn two_sided_heavy(sizes: &[u64], heavy: Heavy, sum: i64) -> SignTest {
    heavy_within(sizes, heavy, sum, MAX_EXACT_WORK, MAX_EXACT_WORK)
}

/// [`two_sided_heavy`] convolving the whole law only while it costs at
/// most `whole_work`, and the light part's while it costs at most
/// `light_work` (the tests force each path with them).
fn heavy_within(
    sizes: &[u64],
    heavy: Heavy,
    sum: i64,
    whole_work: u64,
    light_work: u64,
) -> SignTest {
    if heavy.count(sizes) == 0 || heavy.factor == 1 {
        return two_sided(sizes, sum);
    }
    let weights = heavy.weighted(sizes);
    let whole = || two_sided(&weights, sum);
    if exact_work(&weights) <= whole_work {
        return whole();
    }
    let heavy_sizes: Vec<u64> = (0..sizes.len())
        .map(|j| if j >= heavy.from { sizes[j] } else { 0 })
        .collect();
    if exact_work(&heavy_sizes) > MAX_EXACT_WORK {
        return whole();
    }
    let light = &sizes[..heavy.from.min(sizes.len())];
    let mut test = whole();
    let s = sum.unsigned_abs() as i64;
    if s == 0 {
        return test;
    }
    // U_H = Σ j B_j over the heavy sizes; H = factor (2 U_H − W_H).
    let law = exact_law(&heavy_sizes);
    let w_heavy = (law.len() - 1) as i64;
    let factor = heavy.factor as i64;
    let tail = LightTail::new(light, light_work);
    let p: f64 = 2.0
        * law
            .iter()
            .enumerate()
            .filter(|&(_, &q)| q > 0.0)
            .map(|(u, &q)| q * tail.upper(s - factor * (2 * u as i64 - w_heavy)))
            .sum::<f64>();
    if p > 1e-300 && p.is_finite() {
        test.log10_p = p.log10().min(0.0);
        test.how = tail.how();
    } else {
        test.log10_p = ((chernoff_ln_tail(&weights, s as f64) + LN_2) / LN_10).min(0.0);
        test.how = "the Chernoff bound";
    }
    test
}

/// The upper tails P(L ≥ t) of a Rademacher sum L of the (light) sizes.
enum LightTail<'a> {
    /// `upper[u]` = P(U ≥ u), U = Σ j B_j, L = 2U − W.
    Exact { upper: Vec<f64> },
    /// Edgeworth, or Chernoff far out.
    Approximate {
        sizes: &'a [u64],
        variance: f64,
        step: i64,
        weighted: i64,
    },
}

impl<'a> LightTail<'a> {
    fn new(sizes: &'a [u64], most_work: u64) -> Self {
        if exact_work(sizes) <= most_work {
            let law = exact_law(sizes);
            let mut upper = law.clone();
            for u in (0..upper.len().saturating_sub(1)).rev() {
                upper[u] += upper[u + 1];
            }
            Self::Exact { upper }
        } else {
            let weighted: u64 = sizes.iter().enumerate().map(|(j, &c)| j as u64 * c).sum();
            Self::Approximate {
                sizes,
                variance: sizes
                    .iter()
                    .enumerate()
                    .map(|(j, &c)| (j * j) as f64 * c as f64)
                    .sum(),
                step: 2 * gcd_of_sizes(sizes) as i64,
                weighted: weighted as i64,
            }
        }
    }

    /// The words for the mixture's method.
    fn how(&self) -> &'static str {
        match self {
            Self::Exact { .. } => {
                "its exact law (the heavy terms' convolution of binomials with the light terms')"
            }
            Self::Approximate { .. } => {
                "the heavy terms' exact law mixed over the light terms' tail (Edgeworth \
                 expansion, the Chernoff bound far out)"
            }
        }
    }

    /// P(L ≥ t).
    fn upper(&self, t: i64) -> f64 {
        match self {
            Self::Exact { upper } => {
                let w = (upper.len() - 1) as i64;
                // L ≥ t ⟺ U ≥ ⌈(t + W)/2⌉.
                let u = (t + w + 1).div_euclid(2);
                if u <= 0 {
                    1.0
                } else if u > w {
                    0.0
                } else {
                    upper[u as usize].min(1.0)
                }
            }
            &Self::Approximate {
                sizes,
                variance,
                step,
                weighted,
            } => {
                if t > weighted {
                    0.0
                } else if t <= -weighted {
                    1.0
                } else if t <= 0 {
                    // L is an integer and symmetric: P(L ≥ t) = 1 − P(L ≥ 1 − t).
                    1.0 - self.upper(1 - t)
                } else {
                    // The least value of L (−W + step · k) at or above t.
                    let l = -weighted + step * (t + weighted + step - 1).div_euclid(step);
                    if l > weighted {
                        return 0.0;
                    }
                    let l = l as f64;
                    if l / variance.sqrt() > CHERNOFF_Z {
                        chernoff_ln_tail(sizes, l).exp()
                    } else {
                        edgeworth_ln_tail(sizes, l, variance).exp()
                    }
                }
            }
        }
    }
}

/// The law of U = Σ j B_j, B_j ~ Binomial(sizes[j], ½): `law[u]` = P(U = u).
fn exact_law(sizes: &[u64]) -> Vec<f64> {
    let mut law = vec![1.0f64];
    for (j, &c) in sizes.iter().enumerate().skip(1) {
        if c == 0 {
            continue;
        }
        let binomial = half_binomial(c);
        let mut next = vec![0.0; law.len() + j * c as usize];
        for (i, &a) in law.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (k, &b) in binomial.iter().enumerate() {
                next[i + j * k] += a * b;
            }
        }
        law = next;
    }
    law
}

/// The multiply-adds the exact convolution of `sizes` costs.
fn exact_work(sizes: &[u64]) -> u64 {
    let mut len = 1u64;
    let mut work = 0u64;
    for (j, &c) in sizes.iter().enumerate().skip(1) {
        if c > 0 {
            work = work.saturating_add(len.saturating_mul(c + 1));
            len = len.saturating_add((j as u64).saturating_mul(c));
        }
    }
    work
}

/// P(U ≥ `threshold`) for U = Σ j B_j, B_j ~ Binomial(sizes[j], ½), by
/// convolution; `None` where the tail underflows.
fn exact_upper(sizes: &[u64], threshold: u64) -> Option<f64> {
    let law = exact_law(sizes);
    let tail: f64 = law.iter().skip(threshold as usize).sum();
    (tail > 1e-300).then_some(tail.min(0.5))
}

/// The Binomial(c, ½) probabilities.
fn half_binomial(c: u64) -> Vec<f64> {
    let ln_c = ln_gamma(c as f64 + 1.0) - c as f64 * LN_2;
    (0..=c)
        .map(|k| (ln_c - ln_gamma(k as f64 + 1.0) - ln_gamma((c - k) as f64 + 1.0)).exp())
        .collect()
}

/// ln P(S ≥ s) by the Edgeworth expansion (S symmetric: the kurtosis term
/// alone) at the continuity-corrected standard score.
fn edgeworth_ln_tail(sizes: &[u64], s: f64, variance: f64) -> f64 {
    let fourth: f64 = sizes
        .iter()
        .enumerate()
        .map(|(j, &c)| (j as f64).powi(4) * c as f64)
        .sum();
    let kurtosis = -2.0 * fourth / (variance * variance);
    // S moves in steps of twice the sizes' greatest common divisor.
    let step = 2.0 * gcd_of_sizes(sizes) as f64;
    let z = (s - step / 2.0) / variance.sqrt();
    let normal = ln_normal_sf(z);
    let he3 = z * z * z - 3.0 * z;
    let density = (-0.5 * z * z).exp() / (2.0 * PI).sqrt();
    let tail = normal.exp() + density * kurtosis / 24.0 * he3;
    if tail > 0.0 && tail.is_finite() {
        tail.min(0.5).ln()
    } else {
        chernoff_ln_tail(sizes, s)
    }
}

fn gcd_of_sizes(sizes: &[u64]) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    sizes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|&(_, &c)| c > 0)
        .fold(0, |g, (j, _)| gcd(g, j as u64))
        .max(1)
}

/// ln of the Chernoff bound on P(S ≥ s): −sup_{t ≥ 0} (t s − K(t)), K(t) =
/// Σ c_j ln cosh(j t) the cumulant generating function of S. At s = W
/// (every sign positive) it is the exact −Σ c_j ln 2.
fn chernoff_ln_tail(sizes: &[u64], s: f64) -> f64 {
    let terms: Vec<(f64, f64)> = sizes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|&(_, &c)| c > 0)
        .map(|(j, &c)| (j as f64, c as f64))
        .collect();
    let weighted: f64 = terms.iter().map(|(j, c)| j * c).sum();
    if s >= weighted {
        return -terms.iter().map(|(_, c)| c).sum::<f64>() * LN_2;
    }
    let ln_cosh = |x: f64| x.abs() + (-2.0 * x.abs()).exp().ln_1p() - LN_2;
    let slope = |t: f64| {
        terms
            .iter()
            .map(|(j, c)| c * j * (j * t).tanh())
            .sum::<f64>()
    };
    // K'(t) rises from 0 to W: bisect for K'(t) = s.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while slope(hi) < s && hi < 1e6 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if slope(mid) < s {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    let k: f64 = terms.iter().map(|(j, c)| c * ln_cosh(j * t)).sum();
    (k - t * s).min(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// P(|S| ≥ |s|) by enumerating every sign pattern.
    fn brute(sizes: &[u64], s: i64) -> f64 {
        let terms: Vec<i64> = sizes
            .iter()
            .enumerate()
            .flat_map(|(j, &c)| std::iter::repeat_n(j as i64, c as usize))
            .filter(|&j| j > 0)
            .collect();
        let m = terms.len();
        let mut hits = 0u64;
        for mask in 0..(1u64 << m) {
            let sum: i64 = terms
                .iter()
                .enumerate()
                .map(|(i, &j)| if mask >> i & 1 == 1 { j } else { -j })
                .sum();
            hits += u64::from(sum.abs() >= s.abs());
        }
        hits as f64 / (1u64 << m) as f64
    }

    #[test]
    fn the_exact_law_is_the_count_of_sign_patterns() {
        for (sizes, sums) in [
            (vec![5, 3, 2, 1], vec![0i64, 2, 4, 6, 8, 10]),
            (vec![0, 0, 4], vec![0i64, 4, 8]),
            (vec![0, 6, 0, 0, 1], vec![2i64, 4, 6, 10]),
        ] {
            for s in sums {
                let t = two_sided(&sizes, s);
                let want = brute(&sizes, s);
                assert!(
                    (10f64.powf(t.log10_p) / want - 1.0).abs() < 1e-9,
                    "{sizes:?} s = {s}: {} against {want}",
                    10f64.powf(t.log10_p)
                );
            }
        }
    }

    /// Where the exact law is too costly the Edgeworth tail takes over:
    /// on sums where both can be computed, it agrees with the exact tail
    /// within a few per cent at the levels verdicts use, and the plain
    /// normal tail (without the kurtosis term) is above the exact one
    /// there: the Rademacher sum's tail is lighter than the normal's.
    #[test]
    fn the_edgeworth_tail_agrees_with_the_exact_one() {
        for sizes in [
            vec![0u64, 400, 150, 40, 10, 2],
            vec![0u64, 3000, 800],
            vec![0u64, 50, 50, 50, 50, 50, 50, 50, 50],
        ] {
            let variance: f64 = sizes
                .iter()
                .enumerate()
                .map(|(j, &c)| (j * j) as f64 * c as f64)
                .sum();
            let weighted: u64 = sizes.iter().enumerate().map(|(j, &c)| j as u64 * c).sum();
            for z in [2.6f64, 3.3, 3.9] {
                let mut s = (z * variance.sqrt()).round() as u64;
                if !(s + weighted).is_multiple_of(2) {
                    s += 1;
                }
                let exact = exact_upper(&sizes, (s + weighted) / 2).unwrap();
                let edgeworth = edgeworth_ln_tail(&sizes, s as f64, variance).exp();
                let normal =
                    ln_normal_sf((s as f64 - gcd_of_sizes(&sizes) as f64) / variance.sqrt()).exp();
                assert!(
                    (edgeworth / exact - 1.0).abs() < 0.05,
                    "{sizes:?} z = {z}: Edgeworth {edgeworth} against exact {exact}"
                );
                assert!(normal >= exact * 0.99, "{sizes:?} z = {z}: normal {normal}");
                assert!(chernoff_ln_tail(&sizes, s as f64).exp() >= exact);
            }
        }
    }

    /// The largest |S| a sign pattern reaches: every term positive
    /// (`weights[w]` terms of weight w).
    fn largest_sum(weights: &[u64]) -> i64 {
        weights
            .iter()
            .enumerate()
            .map(|(w, &c)| w as i64 * c as i64)
            .sum()
    }

    /// P(|S| ≥ |s|) for S = Σ ε_i g(|x_i|), g = `heavy`'s weight, by
    /// enumerating every sign pattern.
    fn brute_heavy(sizes: &[u64], heavy: Heavy, s: i64) -> f64 {
        brute(&heavy.weighted(sizes), s)
    }

    /// The weighted test is the count of sign patterns, whether the whole
    /// law is convolved or the heavy part's law is mixed over the light
    /// part's exact tail; without a heavy term it is the plain test.
    #[test]
    fn the_heavy_test_is_the_count_of_sign_patterns() {
        let heavy = Heavy {
            from: 4,
            factor: 10,
        };
        for sizes in [
            vec![3u64, 4, 3, 2, 1],
            vec![0u64, 6, 2, 1, 0, 2],
            vec![0u64, 3, 0, 1, 2, 0, 1],
            vec![0u64, 0, 0, 0, 3],
        ] {
            let most = largest_sum(&heavy.weighted(&sizes));
            for s in (0..=most).rev().step_by(2) {
                let want = brute_heavy(&sizes, heavy, s);
                for (whole, light) in [(MAX_EXACT_WORK, MAX_EXACT_WORK), (0, MAX_EXACT_WORK)] {
                    let t = heavy_within(&sizes, heavy, s, whole, light);
                    assert!(
                        (10f64.powf(t.log10_p) / want - 1.0).abs() < 1e-9,
                        "{sizes:?} s = {s} ({whole}): {} against {want} ({})",
                        10f64.powf(t.log10_p),
                        t.how
                    );
                }
            }
        }
        // No heavy term: the plain test, bit for bit.
        let light = vec![5u64, 3, 2, 1];
        for s in [0i64, 2, 4, 6, 8, 10] {
            assert_eq!(two_sided_heavy(&light, heavy, s), two_sided(&light, s));
        }
    }

    /// With many light terms (the Edgeworth expansion's regime) and a few
    /// heavy ones, the mixture agrees with the exact law of the whole
    /// within a few per cent, where the Edgeworth expansion of the whole
    /// sum, which a few heavy terms dominate, is far off; far out the
    /// light part's Chernoff bound keeps the p-value above the exact one.
    #[test]
    fn the_mixture_agrees_with_the_exact_law_where_edgeworth_does_not() {
        let heavy = Heavy {
            from: 7,
            factor: 10,
        };
        for sizes in [
            vec![0u64, 1500, 600, 180, 45, 0, 0, 1],
            vec![0u64, 1500, 600, 180, 45, 0, 0, 2, 1, 1, 1],
            vec![0u64, 3000, 800, 0, 0, 0, 0, 0, 0, 4],
        ] {
            let weights = heavy.weighted(&sizes);
            let total = largest_sum(&weights);
            let variance: f64 = weights
                .iter()
                .enumerate()
                .map(|(w, &c)| (w * w) as f64 * c as f64)
                .sum();
            let mut worst_edgeworth = 0f64;
            for z in [1.5f64, 2.6, 3.3, 3.9, 4.5, 8.0] {
                let mut s = (z * variance.sqrt()).round() as i64;
                if (s + total) % 2 != 0 {
                    s += 1;
                }
                let exact = 2.0 * exact_upper(&weights, ((s + total) / 2) as u64).unwrap();
                let mixed = heavy_within(&sizes, heavy, s, 0, 0);
                assert!(mixed.how.contains("mixed"), "{}", mixed.how);
                let mixed = 10f64.powf(mixed.log10_p);
                if z < CHERNOFF_Z {
                    assert!(
                        (mixed / exact - 1.0).abs() < 0.05,
                        "{sizes:?} z = {z}: mixed {mixed} against exact {exact}"
                    );
                } else {
                    assert!(mixed >= exact, "{sizes:?} z = {z}: {mixed} < {exact}");
                }
                let edgeworth = 2.0 * edgeworth_ln_tail(&weights, s as f64, variance).exp();
                worst_edgeworth = worst_edgeworth.max((edgeworth / exact).ln().abs());
            }
            assert!(worst_edgeworth > 0.3, "{sizes:?}: {worst_edgeworth}");
        }
    }

    #[test]
    fn far_tails_are_bounds_and_every_sign_positive_is_exact() {
        // 40 terms of size 30, all positive: P = 2 · 2^-40 exactly.
        let mut sizes = vec![0u64; 31];
        sizes[30] = 40;
        let t = two_sided(&sizes, 1200);
        assert!((t.log10_p - (-39.0 * 2f64.log10())).abs() < 1e-9, "{t:?}");
        // Many terms: Edgeworth near the centre, the Chernoff bound far out.
        let big = vec![0u64, 2_000_000, 500_000];
        let variance = 4_000_000.0f64;
        let near = two_sided(&big, 6000);
        assert!(near.how.contains("Edgeworth"), "{near:?}");
        assert!((near.z - 6000.0 / variance.sqrt()).abs() < 1e-12);
        let far = two_sided(&big, 40_000);
        assert!(far.how.contains("Chernoff"), "{far:?}");
        // The bound is above the normal tail, and not far above in log.
        let normal = (ln_normal_sf(20.0) + LN_2) / LN_10;
        assert!(
            far.log10_p >= normal && far.log10_p < 0.9 * normal,
            "{far:?}"
        );
        assert_eq!(two_sided(&big, 0).log10_p, 0.0);
    }
}
