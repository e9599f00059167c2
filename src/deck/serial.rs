//! The serial test of a deck whose items repeat (a shoe): does each deal
//! depend on the one before it?
//!
//! # The law
//!
//! Two independent uniform arrangements X, Y of a multiset with n_j items
//! of kind j agree at M positions. Fixing Y (the law of M is the same for
//! every Y), M counts the positions p where a uniform permutation σ of the
//! n items puts an item of p's own kind: the hits of σ on the board of
//! diagonal blocks n_j × n_j. Its rook numbers r_i are the coefficients of
//! ∏_j Σ_i C(n_j, i)² i! x^i, and inclusion–exclusion gives the
//! permutations with exactly k hits,
//!
//! ```text
//! N_k = Σ_{i ≥ k} (−1)^{i−k} C(i, k) r_i (n − i)!,   P(M = k) = N_k / n!,
//! ```
//!
//! computed in exact integers ([`kind_match_law`]). For distinct items it
//! is the rencontres law of the permutations' serial test.
//!
//! # The test
//!
//! Since the law of M(X, Y) does not depend on Y, the matches of
//! consecutive pairs in a stream of independent uniform deals, M(D₁, D₂),
//! M(D₂, D₃), …, are independent with that law (given D₂, the first
//! depends on D₁ alone and the second on D₃ alone, each with a law free of
//! D₂). Their sum S over the m pairs counted is the statistic: too many
//! matches is a dealer that repeats or barely reshuffles its previous
//! shoe, too few one that avoids it. Its law is the m-fold convolution of
//! M's, computed exactly while that is cheap; beyond, the Edgeworth
//! expansion with S's exact skewness and kurtosis (both shrink as 1/√m and
//! 1/m) and a continuity correction. The p-value is two-sided: twice the
//! smaller tail. No pooling of sparse categories is involved, so the test
//! holds its level at every trial count (`tests/deck.rs` checks the
//! rejection rates at α = 0.01 and 0.001 at small and large T).

use crate::stats::special::ln_normal_sf;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::f64::consts::{LN_10, PI};

/// The largest deck whose serial law is computed (exact integers of about
/// n log₂ n bits, O(n²) of them: 0.1 s at n = 512). A casino's 8-deck shoe
/// has 416 cards.
pub const MAX_N: usize = 512;

/// Above this many (pairs × support) operations the sum's law is taken
/// from the Edgeworth expansion rather than convolved exactly.
const MAX_CONVOLUTION_WORK: usize = 50_000_000;

/// P(M = k), k = 0..=n: the positions at which two independent uniform
/// arrangements of a multiset with `sizes` items per kind hold the same
/// kind (see the module docs).
pub fn kind_match_law(sizes: &[usize]) -> Vec<f64> {
    let n: usize = sizes.iter().sum();
    // Rook numbers of the block board.
    let mut rooks = vec![BigUint::one()];
    for &size in sizes {
        let block: Vec<BigUint> = (0..=size)
            .map(|i| {
                let c = binomial(size, i);
                &c * &c * factorial(i)
            })
            .collect();
        let mut next = vec![BigUint::zero(); rooks.len() + size];
        for (i, r) in rooks.iter().enumerate() {
            for (j, b) in block.iter().enumerate() {
                next[i + j] += r * b;
            }
        }
        rooks = next;
    }
    let factorials: Vec<BigUint> = std::iter::once(BigUint::one())
        .chain((1..=n).scan(BigUint::one(), |f, i| {
            *f *= i;
            Some(f.clone())
        }))
        .collect();
    let weighted: Vec<BigInt> = rooks
        .iter()
        .enumerate()
        .map(|(i, r)| BigInt::from(r * &factorials[n - i]))
        .collect();
    let total = BigInt::from(factorials[n].clone());
    (0..=n)
        .map(|k| {
            let mut hits = BigInt::zero();
            let mut choose = BigInt::one(); // C(i, k), from i = k up
            for (i, w) in weighted.iter().enumerate().skip(k) {
                if i > k {
                    choose = choose * i / (i - k);
                }
                if (i - k) % 2 == 0 {
                    hits += &choose * w;
                } else {
                    hits -= &choose * w;
                }
            }
            BigRational::new(hits, total.clone())
                .to_f64()
                .unwrap_or(0.0)
        })
        .collect()
}

fn binomial(n: usize, k: usize) -> BigUint {
    (0..k).fold(BigUint::one(), |acc, i| acc * (n - i) / (i + 1))
}

fn factorial(k: usize) -> BigUint {
    (1..=k).fold(BigUint::one(), |acc, i| acc * i)
}

/// The serial test's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct KindSerial {
    /// The sum S of the matches over every consecutive pair.
    pub matches: u64,
    /// The pairs counted.
    pub pairs: u64,
    /// S's standardised departure from its null mean, (S − E S)/sd S.
    pub departure: f64,
    /// log10 of the two-sided p-value.
    pub log10_p: f64,
    /// How the p-value was obtained.
    pub method: String,
}

/// The serial test of the histogram `histogram[k]` (consecutive pairs with
/// k matching kinds) against `law` ([`kind_match_law`]).
pub fn kind_serial(histogram: &[u64], law: &[f64]) -> KindSerial {
    let pairs: u64 = histogram.iter().sum();
    let matches: u64 = histogram
        .iter()
        .enumerate()
        .map(|(k, &c)| k as u64 * c)
        .sum();
    let moment = |r: i32, mean: f64| {
        law.iter()
            .enumerate()
            .map(|(k, p)| p * (k as f64 - mean).powi(r))
            .sum::<f64>()
    };
    let mean = moment(1, 0.0);
    let var = moment(2, mean);
    let m = pairs as f64;
    let departure = if pairs == 0 || var <= 0.0 {
        0.0
    } else {
        (matches as f64 - m * mean) / (m * var).sqrt()
    };
    if pairs == 0 {
        return KindSerial {
            matches,
            pairs,
            departure,
            log10_p: 0.0,
            method: "no consecutive pairs of deals".to_string(),
        };
    }
    let work = (pairs as usize)
        .saturating_mul(pairs as usize)
        .saturating_mul(law.len())
        / 2
        * law.len();
    let (ln_lower, ln_upper, how) = if work <= MAX_CONVOLUTION_WORK {
        let (lower, upper) = exact_tails(law, pairs as usize, matches as usize);
        (
            lower.ln(),
            upper.ln(),
            "its exact law (the convolution of the pairs' laws)",
        )
    } else {
        let skew = moment(3, mean) / var.powf(1.5) / m.sqrt();
        let kurt = (moment(4, mean) / (var * var) - 3.0) / m;
        let sd = (m * var).sqrt();
        let s = matches as f64;
        let lower = edgeworth_ln_tail((m * mean - (s + 0.5)) / sd, -skew, kurt);
        let upper = edgeworth_ln_tail((s - 0.5 - m * mean) / sd, skew, kurt);
        (
            lower,
            upper,
            "the Edgeworth expansion of its law (exact mean, variance, skewness and kurtosis)",
        )
    };
    let log10_p = ((ln_lower.min(ln_upper) + 2f64.ln()) / LN_10).min(0.0);
    KindSerial {
        matches,
        pairs,
        departure,
        log10_p,
        method: format!(
            "consecutive deals within each stream (a chunk, or a block of input): positions \
             holding the same kind in both, {matches} over {pairs} pairs against {:.3} per pair \
             expected under independent uniform arrangements of the multiset; two-sided, from \
             {how}",
            mean
        ),
    }
}

/// P(S ≤ s) and P(S ≥ s) for S the sum of `pairs` independent draws of
/// `law`, by convolution.
fn exact_tails(law: &[f64], pairs: usize, s: usize) -> (f64, f64) {
    let mut dist = vec![1.0];
    for _ in 0..pairs {
        let mut next = vec![0.0; dist.len() + law.len() - 1];
        for (i, &a) in dist.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in law.iter().enumerate() {
                next[i + j] += a * b;
            }
        }
        dist = next;
    }
    let lower: f64 = dist.iter().take(s + 1).sum();
    let upper: f64 = dist.iter().skip(s).sum();
    (lower.min(1.0), upper.min(1.0))
}

/// ln P(Z ≥ z) for a standardised sum with skewness `skew` and excess
/// kurtosis `kurt`, by the Edgeworth expansion to order 1/m; far in the
/// tail, where the expansion's correction is no longer small against the
/// normal tail, the normal tail (the p-value is then far below any level,
/// and stated as a bound).
fn edgeworth_ln_tail(z: f64, skew: f64, kurt: f64) -> f64 {
    let normal = ln_normal_sf(z);
    let he2 = z * z - 1.0;
    let he3 = z * z * z - 3.0 * z;
    let he5 = z.powi(5) - 10.0 * z.powi(3) + 15.0 * z;
    let correction = skew / 6.0 * he2 + kurt / 24.0 * he3 + skew * skew / 72.0 * he5;
    let density = (-0.5 * z * z).exp() / (2.0 * PI).sqrt();
    let tail = normal.exp() + density * correction;
    if z < 8.0 && tail > 0.0 && tail.is_finite() {
        tail.min(1.0).ln()
    } else {
        normal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::{factorial as fact, unrank};

    /// The law by enumerating every permutation of the multiset's items.
    fn brute(sizes: &[usize]) -> Vec<f64> {
        let kind_of: Vec<usize> = sizes
            .iter()
            .enumerate()
            .flat_map(|(j, &s)| std::iter::repeat_n(j, s))
            .collect();
        let n = kind_of.len();
        let mut counts = vec![0.0; n + 1];
        for rank in 0..fact(n) {
            let hits = unrank(rank, n)
                .iter()
                .enumerate()
                .filter(|&(p, &v)| kind_of[p] == kind_of[v as usize])
                .count();
            counts[hits] += 1.0 / fact(n) as f64;
        }
        counts
    }

    #[test]
    fn the_match_law_is_the_count_of_permutations() {
        for sizes in [
            vec![2, 2],
            vec![3, 1, 2],
            vec![1, 1, 1, 1, 1],
            vec![4, 3],
            vec![2, 2, 2],
        ] {
            let law = kind_match_law(&sizes);
            for (a, b) in law.iter().zip(brute(&sizes)) {
                assert!((a - b).abs() < 1e-12, "{sizes:?}: {law:?}");
            }
        }
        // A six-deck shoe: mean Σ n_j²/n = 6 matches, probabilities summing to 1.
        let shoe = kind_match_law(&[6; 52]);
        let mean: f64 = shoe.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        assert!((mean - 6.0).abs() < 1e-9, "{mean}");
        assert!((shoe.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn the_edgeworth_tail_agrees_with_the_exact_one() {
        // Where both are computed, the two p-values agree closely in the
        // tails the verdicts use.
        let law = kind_match_law(&[2, 2, 2]);
        let pairs = 400usize;
        let mean: f64 = law.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        for z in [-3.3f64, -2.6, 2.6, 3.3] {
            let var: f64 = law
                .iter()
                .enumerate()
                .map(|(k, p)| p * (k as f64 - mean).powi(2))
                .sum();
            let s = (pairs as f64 * mean + z * (pairs as f64 * var).sqrt()).round() as usize;
            let (lower, upper) = exact_tails(&law, pairs, s);
            let m = pairs as f64;
            let moment = |r: i32| -> f64 {
                law.iter()
                    .enumerate()
                    .map(|(k, p)| p * (k as f64 - mean).powi(r))
                    .sum()
            };
            let skew = moment(3) / var.powf(1.5) / m.sqrt();
            let kurt = (moment(4) / (var * var) - 3.0) / m;
            let sd = (m * var).sqrt();
            let sf = s as f64;
            let approx = if z < 0.0 {
                edgeworth_ln_tail((m * mean - (sf + 0.5)) / sd, -skew, kurt).exp()
            } else {
                edgeworth_ln_tail((sf - 0.5 - m * mean) / sd, skew, kurt).exp()
            };
            let exact = if z < 0.0 { lower } else { upper };
            assert!(
                (approx / exact - 1.0).abs() < 0.05,
                "z = {z}: Edgeworth {approx} against exact {exact}"
            );
        }
    }
}
