//! Goodness-of-fit tests of counts against a known law, with honest handling
//! of sparse categories.

use super::collisions;
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

/// How a test of counts over equally likely cells was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SparseMethod {
    /// Every cell expects at least [`MIN_EXPECTED`]: Pearson's χ²(k − 1).
    ChiSquare,
    /// Sparse and cheap to simulate: a sequential Monte Carlo p-value of the
    /// collision count (equivalently Pearson's statistic) from simulated
    /// uniform multinomial tables, exact by construction.
    MonteCarlo,
    /// Sparse and too large to simulate: the collision count against the
    /// shifted-gamma (Pearson type III) law with its exact first three
    /// cumulants ([`collisions::ln_pearson3_sf`]).
    CollisionMoments,
    /// Sparse with so few trials per cell that the collision count is Poisson
    /// to within its skew ([`collisions::Moments::poisson_is_adequate`]).
    CollisionPoisson,
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
    /// Observed and expected collisions (pairs of trials in the same cell),
    /// for every sparse method.
    pub collisions: Option<(u64, f64)>,
    /// Monte Carlo replicates simulated, for [`SparseMethod::MonteCarlo`].
    pub replicates: Option<usize>,
    /// Cells (outcomes) of the table.
    pub cells: usize,
}

impl UniformTest {
    /// One line saying how the p-value was obtained, for reports: the law,
    /// observed against expected collisions for sparse tables, and the
    /// replicates of a Monte Carlo p-value.
    pub fn describe(&self) -> String {
        let k = self.cells;
        let sparse = format!("sparse table (< {MIN_EXPECTED} expected per outcome)");
        let (observed, expected) = self.collisions.unwrap_or((0, 0.0));
        match self.method {
            SparseMethod::ChiSquare => {
                format!("chi-square goodness of fit over all {k} equally likely outcomes")
            }
            SparseMethod::MonteCarlo => format!(
                "{sparse}: {observed} collisions vs {expected:.1} expected, sequential Monte Carlo p-value from {} simulated uniform tables (floor {MONTE_CARLO_FLOOR:.1e})",
                self.replicates.unwrap_or(0)
            ),
            SparseMethod::CollisionMoments => format!(
                "{sparse}: {observed} collisions vs {expected:.1} expected, shifted-gamma law with the exact mean, variance and skewness"
            ),
            SparseMethod::CollisionPoisson => format!(
                "{sparse}: {observed} collisions vs {expected:.1} expected, Poisson tail (so few trials per cell that its skew is right)"
            ),
        }
    }
}

/// Most replicates of a Monte Carlo p-value. The p-value is never below
/// [`MONTE_CARLO_FLOOR`] = 1/(this + 1), far below α = 0.001 after Holm over
/// the seven tests of an audit (1.4e-4).
pub const MONTE_CARLO_REPLICATES: usize = 99_999;

/// The smallest Monte Carlo p-value, 1/(replicates + 1) = 1e-5. Callers can
/// check that a level is reachable (`level >= MONTE_CARLO_FLOOR`).
pub const MONTE_CARLO_FLOOR: f64 = 1.0 / (MONTE_CARLO_REPLICATES as f64 + 1.0);

/// Stop the Monte Carlo early once this many simulated tables reach the
/// observed collision count (Besag & Clifford's sequential p-value, h/L, which
/// is valid like the fixed-size one). Fair tables then cost a few hundred
/// replicates; only small p-values need all of them.
pub const MONTE_CARLO_EXCEEDANCES: usize = 50;

/// The largest replicates × trials a Monte Carlo p-value may cost (random
/// draws, about 0.2 s); larger sparse tables use the collision moments. With
/// [`MONTE_CARLO_REPLICATES`] this allows up to 500 trials.
pub const MONTE_CARLO_BUDGET: u64 = 50_000_000;

/// Tests counts over equally likely outcomes: Pearson's chi-square when every
/// cell expects at least [`MIN_EXPECTED`]; otherwise the collision count
/// judged by a sequential Monte Carlo p-value seeded by `seed` (when it costs
/// at most [`MONTE_CARLO_BUDGET`] draws), or else by its moment-matched law
/// (see [`collisions`]).
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
    let mut test = UniformTest {
        statistic,
        df,
        log10_p: 0.0,
        method: SparseMethod::ChiSquare,
        collisions: None,
        replicates: None,
        cells: k,
    };
    if expected >= MIN_EXPECTED {
        test.log10_p = log10_chi2(statistic, df);
        return test;
    }
    let observed = collisions::count(counts);
    let moments = collisions::Moments::new(k, t);
    test.collisions = Some((observed, moments.mean));
    if t * MONTE_CARLO_REPLICATES as u64 <= MONTE_CARLO_BUDGET {
        let (p, replicates) = monte_carlo_collisions(k, t, observed, seed);
        test.log10_p = p.log10();
        test.method = SparseMethod::MonteCarlo;
        test.replicates = Some(replicates);
    } else {
        test.log10_p = collisions::ln_sf(observed, &moments) / LN_10;
        test.method = if moments.poisson_is_adequate() {
            SparseMethod::CollisionPoisson
        } else {
            SparseMethod::CollisionMoments
        };
    }
    test
}

/// Sequential Monte Carlo p-value (Besag & Clifford 1991) of `observed`
/// collisions among `t` uniform trials over `k` cells: simulate tables until
/// [`MONTE_CARLO_EXCEEDANCES`] of them reach `observed` (p = h/L after L
/// tables) or [`MONTE_CARLO_REPLICATES`] are done (p = (g + 1)/(R + 1)).
/// Either way P(p ≤ x) ≤ x under the null. Returns (p, tables simulated).
fn monte_carlo_collisions(k: usize, t: u64, observed: u64, seed: u64) -> (f64, usize) {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut sim = vec![0u64; k];
    let mut drawn = Vec::with_capacity(t as usize);
    let mut reached = 0usize;
    for replicate in 1..=MONTE_CARLO_REPLICATES {
        let mut c = 0u64;
        drawn.clear();
        for _ in 0..t {
            // Multiply-shift on 64 bits: bias below k / 2^64.
            let cell = ((rng.next_u64() as u128 * k as u128) >> 64) as usize;
            c += sim[cell];
            sim[cell] += 1;
            drawn.push(cell);
        }
        for &cell in &drawn {
            sim[cell] = 0;
        }
        if c >= observed {
            reached += 1;
            if reached == MONTE_CARLO_EXCEEDANCES {
                return (reached as f64 / replicate as f64, replicate);
            }
        }
    }
    (
        (reached + 1) as f64 / (MONTE_CARLO_REPLICATES + 1) as f64,
        MONTE_CARLO_REPLICATES,
    )
}

/// ln P(X ≥ c) for X ~ Poisson(λ): the law the collision count was once
/// judged by, kept for comparison (see [`collisions::ln_poisson_sf`]).
pub fn ln_poisson_upper_tail(c: u64, lambda: f64) -> f64 {
    collisions::ln_poisson_sf(c, lambda)
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
    fn sparse_uniform_tests_pick_their_method() {
        let dense = uniform(&[100, 100, 100], 1);
        assert_eq!(dense.method, SparseMethod::ChiSquare);
        assert!(dense.describe().contains("chi-square"));
        let few_cells = uniform(&[2, 0, 1, 1], 1);
        assert_eq!(few_cells.method, SparseMethod::MonteCarlo);
        assert!(few_cells.replicates.unwrap() >= MONTE_CARLO_EXCEEDANCES);
        assert!(few_cells.describe().contains("Monte Carlo"));
        // 100 trials over 1000 cells: cheap, so Monte Carlo.
        let mut many = vec![0u64; 1000];
        many[..100].iter_mut().for_each(|c| *c = 1);
        let spread = uniform(&many, 1);
        assert_eq!(spread.method, SparseMethod::MonteCarlo);
        assert_eq!(spread.collisions.unwrap().0, 0);
        assert_eq!(spread.log10_p, 0.0);
        // 590 trials over 120 cells: the moment-matched law.
        let mut table = vec![5u64; 120];
        table[..10].iter_mut().for_each(|c| *c = 0);
        table[10..20].iter_mut().for_each(|c| *c = 4);
        assert_eq!(table.iter().sum::<u64>(), 540);
        let moments = uniform(&table, 1);
        assert_eq!(moments.method, SparseMethod::CollisionMoments);
        assert!(moments.describe().contains("shifted-gamma"));
        // 600 trials over 3.6 million cells: Poisson.
        let mut huge = vec![0u64; 3_628_800];
        huge[..600].iter_mut().for_each(|c| *c = 1);
        let poisson = uniform(&huge, 1);
        assert_eq!(poisson.method, SparseMethod::CollisionPoisson);
        assert!(poisson.log10_p > -1.0);
    }

    #[test]
    fn an_excess_of_collisions_gets_a_tiny_p_on_every_path() {
        // Monte Carlo: 435 collisions where about 5 are expected; the p-value
        // sits at the floor.
        let mut many = vec![0u64; 1000];
        many[..100].iter_mut().for_each(|c| *c = 1);
        many[0] = 30;
        let mc = uniform(&many, 1);
        assert_eq!(mc.method, SparseMethod::MonteCarlo);
        assert!((mc.log10_p - MONTE_CARLO_FLOOR.log10()).abs() < 1e-12);
        assert_eq!(mc.replicates, Some(MONTE_CARLO_REPLICATES));
        const { assert!(MONTE_CARLO_FLOOR <= 0.001 / 7.0) };
        // Moments: 600 trials over 120 cells, all in 60 cells (10 each).
        let mut table = vec![0u64; 120];
        table[..60].iter_mut().for_each(|c| *c = 10);
        let t = uniform(&table, 1);
        assert_eq!(t.method, SparseMethod::ChiSquare);
        let mut table = vec![0u64; 120];
        table[..59].iter_mut().for_each(|c| *c = 10);
        let t = uniform(&table, 1);
        assert_eq!(t.method, SparseMethod::CollisionMoments);
        assert!(t.log10_p < -50.0, "{}", t.log10_p);
        // Poisson: 600 trials over 3.6 million cells with one cell of 30.
        let mut huge = vec![0u64; 3_628_800];
        huge[..600].iter_mut().for_each(|c| *c = 1);
        huge[0] = 30;
        let p = uniform(&huge, 1);
        assert_eq!(p.method, SparseMethod::CollisionPoisson);
        assert!(p.log10_p < -100.0, "{}", p.log10_p);
    }

    #[test]
    fn monte_carlo_p_values_are_deterministic_and_plausible() {
        let table = [3u64, 2, 4, 1, 0, 2, 5, 3, 1, 2, 3, 4];
        let a = uniform(&table, 7);
        assert_eq!(a, uniform(&table, 7));
        let p = 10f64.powf(a.log10_p);
        assert!(p > 0.05 && p < 1.0, "{p}");
    }
}
