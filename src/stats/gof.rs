//! Goodness-of-fit tests of counts against a known law, with honest handling
//! of sparse categories.

use super::special::ln_chi2_sf;
use rand::{Rng, SeedableRng};
use std::f64::consts::LN_10;

/// Categories are pooled until each group expects at least this many counts,
/// so the chi-square approximation holds.
pub const MIN_EXPECTED: f64 = 5.0;

/// A goodness-of-fit result.
#[derive(Debug, Clone, PartialEq)]
pub struct Gof {
    /// Pearson's statistic over the (pooled) groups.
    pub statistic: f64,
    /// Degrees of freedom (groups − 1, summed over independent parts).
    pub df: f64,
    /// log10 of the p-value.
    pub log10_p: f64,
    /// How many categories were merged into neighbours.
    pub pooled: usize,
}

/// Pearson's chi-square test of `counts` against the law `probs` (same
/// length, summing to 1), pooling neighbouring categories (in order) until
/// every group expects at least [`MIN_EXPECTED`] counts.
pub fn chi_square(counts: &[u64], probs: &[f64]) -> Gof {
    assert_eq!(counts.len(), probs.len());
    let total: u64 = counts.iter().sum();
    let t = total as f64;
    let mut groups: Vec<(f64, f64)> = Vec::new(); // (observed, expected)
    let mut current = (0.0, 0.0);
    for (&c, &p) in counts.iter().zip(probs) {
        current.0 += c as f64;
        current.1 += p * t;
        if current.1 >= MIN_EXPECTED {
            groups.push(std::mem::take(&mut current));
        }
    }
    if current.1 > 0.0 || current.0 > 0.0 {
        match groups.last_mut() {
            Some(last) => {
                last.0 += current.0;
                last.1 += current.1;
            }
            None => groups.push(current),
        }
    }
    let nonempty = probs.iter().filter(|&&p| p > 0.0).count();
    let pooled = nonempty.saturating_sub(groups.len());
    let statistic: f64 = groups
        .iter()
        .map(|&(o, e)| if e > 0.0 { (o - e) * (o - e) / e } else { 0.0 })
        .sum();
    let df = groups.len().saturating_sub(1) as f64;
    Gof {
        statistic,
        df,
        log10_p: log10_chi2(statistic, df),
        pooled,
    }
}

/// Sums independent chi-square results (their statistics and df add).
pub fn combine(parts: &[Gof]) -> Gof {
    let statistic = parts.iter().map(|g| g.statistic).sum();
    let df = parts.iter().map(|g| g.df).sum();
    Gof {
        statistic,
        df,
        log10_p: log10_chi2(statistic, df),
        pooled: parts.iter().map(|g| g.pooled).sum(),
    }
}

/// log10 P(χ²(df) > x), with df = 0 meaning "no information" (p = 1).
fn log10_chi2(x: f64, df: f64) -> f64 {
    if df <= 0.0 {
        0.0
    } else {
        ln_chi2_sf(x, df) / LN_10
    }
}

/// How a sparse uniform-multinomial test was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SparseMethod {
    /// Enough counts per cell: Pearson's chi-square.
    ChiSquare,
    /// Few counts per cell, many cells: the number of collisions (pairs of
    /// trials giving the same outcome) against its Poisson law.
    Collisions,
    /// Few counts per cell, few cells: a Monte Carlo p-value for Pearson's
    /// statistic from simulated uniform multinomials.
    MonteCarlo,
}

/// A test of counts over `counts.len()` equally likely outcomes.
#[derive(Debug, Clone, PartialEq)]
pub struct UniformTest {
    /// Pearson's statistic.
    pub statistic: f64,
    /// Degrees of freedom (cells − 1).
    pub df: f64,
    /// log10 of the p-value.
    pub log10_p: f64,
    /// Which method gave the p-value.
    pub method: SparseMethod,
    /// Observed and expected collisions, when that method was used.
    pub collisions: Option<(u64, f64)>,
}

/// Monte Carlo replicates for small sparse tables.
pub const MONTE_CARLO_REPLICATES: usize = 2000;

/// Below this many cells a sparse table is judged by Monte Carlo rather than
/// by the Poisson law of collisions (which needs many cells).
pub const MIN_CELLS_FOR_COLLISIONS: usize = 120;

/// Tests counts over equally likely outcomes: Pearson's chi-square when every
/// cell expects at least [`MIN_EXPECTED`]; otherwise a collision test (many
/// cells) or a Monte Carlo test seeded by `seed` (few cells).
pub fn uniform(counts: &[u64], seed: u64) -> UniformTest {
    let k = counts.len();
    let t: u64 = counts.iter().sum();
    let expected = t as f64 / k as f64;
    let statistic = if t == 0 {
        0.0
    } else {
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    };
    let df = (k - 1) as f64;
    if expected >= MIN_EXPECTED {
        return UniformTest {
            statistic,
            df,
            log10_p: log10_chi2(statistic, df),
            method: SparseMethod::ChiSquare,
            collisions: None,
        };
    }
    if k >= MIN_CELLS_FOR_COLLISIONS {
        let observed: u64 = counts.iter().map(|&c| c * c.saturating_sub(1) / 2).sum();
        let lambda = t as f64 * (t as f64 - 1.0) / 2.0 / k as f64;
        return UniformTest {
            statistic,
            df,
            log10_p: ln_poisson_upper_tail(observed, lambda) / LN_10,
            method: SparseMethod::Collisions,
            collisions: Some((observed, lambda)),
        };
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut sim = vec![0u64; k];
    let mut at_least = 0usize;
    for _ in 0..MONTE_CARLO_REPLICATES {
        sim.iter_mut().for_each(|c| *c = 0);
        for _ in 0..t {
            let cell = ((rng.next_u32() as u64 * k as u64) >> 32) as usize;
            sim[cell] += 1;
        }
        let s: f64 = sim
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        if s >= statistic - 1e-9 {
            at_least += 1;
        }
    }
    let p = (1 + at_least) as f64 / (1 + MONTE_CARLO_REPLICATES) as f64;
    UniformTest {
        statistic,
        df,
        log10_p: p.log10(),
        method: SparseMethod::MonteCarlo,
        collisions: None,
    }
}

/// ln P(X ≥ c) for X ~ Poisson(λ), summed in log space (exact to rounding,
/// and finite far into the tail).
pub fn ln_poisson_upper_tail(c: u64, lambda: f64) -> f64 {
    if c == 0 {
        return 0.0;
    }
    if lambda <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if (c as f64) < lambda {
        // Upper tail is large: 1 − P(X < c), summing the short lower part.
        let lower: f64 = (0..c).map(|j| ln_poisson_pmf(j, lambda).exp()).sum();
        return (-lower).ln_1p();
    }
    let first = ln_poisson_pmf(c, lambda);
    let mut sum = 1.0f64; // terms relative to the first
    let mut term = 1.0f64;
    let mut j = c;
    loop {
        j += 1;
        term *= lambda / j as f64;
        sum += term;
        if term < 1e-17 * sum {
            break;
        }
    }
    first + sum.ln()
}

fn ln_poisson_pmf(j: u64, lambda: f64) -> f64 {
    j as f64 * lambda.ln() - lambda - statrs::function::gamma::ln_gamma(j as f64 + 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::special::chi2_sf;

    #[test]
    fn pooling_merges_sparse_tails() {
        // Expected 50, 45, 4, 0.9, 0.1: the last three pool into one group.
        let probs = [0.5, 0.45, 0.04, 0.009, 0.001];
        let counts = [50, 45, 4, 1, 0];
        let g = chi_square(&counts, &probs);
        assert_eq!(g.df, 2.0);
        assert_eq!(g.pooled, 2);
        // Groups (50,50), (45,45), (5,5): statistic 0.
        assert!(g.statistic.abs() < 1e-12);
    }

    #[test]
    fn chi_square_matches_a_hand_computation() {
        let g = chi_square(&[30, 10], &[0.5, 0.5]);
        assert!((g.statistic - 10.0).abs() < 1e-12);
        assert!((g.log10_p - chi2_sf(10.0, 1.0).log10()).abs() < 1e-9);
    }

    #[test]
    fn poisson_tail_matches_direct_sums() {
        // P(X >= 3) for λ = 2: 1 - e^-2 (1 + 2 + 2) = 0.3233235838.
        let p = ln_poisson_upper_tail(3, 2.0).exp();
        assert!((p - 0.323_323_583_816_936_5).abs() < 1e-12, "{p}");
        // Deep tail stays finite: P(X >= 1000) for λ = 10.
        let ln = ln_poisson_upper_tail(1000, 10.0);
        assert!(ln.is_finite() && ln < -3000.0, "{ln}");
    }

    #[test]
    fn sparse_uniform_tests_pick_their_method() {
        let dense = uniform(&[100, 100, 100], 1);
        assert_eq!(dense.method, SparseMethod::ChiSquare);
        let few_cells = uniform(&[2, 0, 1, 1], 1);
        assert_eq!(few_cells.method, SparseMethod::MonteCarlo);
        let mut many = vec![0u64; 1000];
        many[..100].iter_mut().for_each(|c| *c = 1);
        let spread = uniform(&many, 1);
        assert_eq!(spread.method, SparseMethod::Collisions);
        assert_eq!(spread.collisions.unwrap().0, 0);
        many[0] = 30; // 435 collisions where about 5 are expected
        assert!(uniform(&many, 1).log10_p < -100.0);
    }
}
