//! The law of the collision count of a sparse uniform table.
//!
//! Throw `T` trials independently and uniformly into `k` cells (`p = 1/k`),
//! with counts `c_1, ..., c_k`. The collision count
//!
//! ```text
//! C = Σ_i C(c_i, 2) = Σ_{a<b} 1[X_a = X_b]
//! ```
//!
//! counts the pairs of trials that landed in the same cell. For a uniform
//! table Pearson's statistic is an increasing affine function of it,
//! `X² = (k/T)(2C + T) − T`, so testing `C` is testing `X²`; `C` is the
//! convenient form because it is an integer with simple exact moments.
//!
//! # Moments
//!
//! Write `I_e = 1[X_a = X_b]` for the pair `e = {a, b}`, `N = C(T, 2)` pairs,
//! `J_e = I_e − p`. Each `I_e` is Bernoulli(p). Two different pairs are
//! independent (whether or not they share a trial: given `X_a`, the event
//! `X_b = X_a` has probability `p` whatever `X_c` is), so
//!
//! ```text
//! E[C] = N p,        Var C = N p (1 − p).
//! ```
//!
//! The third central moment is `Σ_{e,f,g} E[J_e J_f J_g]`. Terms with a
//! repeated pair and a distinct one vanish by pairwise independence
//! (`E[J_e² J_f] = E[J_e²] E[J_f] = 0`). Three distinct pairs whose graph is a
//! forest are mutually independent (the equalities along a tree are
//! independent events), so only triangles `{a,b}, {b,c}, {a,c}` remain: there
//! `I_e I_f = I_e I_f I_g`, `E[I_e I_f I_g] = p²`, and expanding gives
//! `E[J_e J_f J_g] = p² − 3p·p² + 3p²·p − p³ = p²(1 − p)`. With `C(T, 3)`
//! triangles, each counted in 3! orders,
//!
//! ```text
//! κ₃ = N p (1 − p)(1 − 2p) + 6 C(T, 3) p² (1 − p).
//! ```
//!
//! The skewness is therefore about `(1 + 2μ)/√λ` with `μ = T/k` trials per
//! cell and `λ = E[C]`, where the Poisson law (the classical birthday
//! approximation) has `1/√λ`. With a few trials per cell the Poisson tail is
//! far too thin: at k = 120, T = 590 it rejected a fair table 2.5 times as
//! often as promised at α = 0.001 and 4–5 times at 1e-4.
//!
//! # The law used
//!
//! [`ln_sf`] matches the exact mean, variance and third cumulant with a
//! Pearson type III law (a shifted gamma: shape `a = 4/γ²`, scale
//! `θ = σγ/2`, location `E[C] − aθ`, with `γ = κ₃/σ³`) and reads
//! `P(C ≥ c)` as `Q(a, (c − ½ − location)/θ)` (a continuity correction, since
//! `C` is an integer). When `μ` is tiny the skew is Poisson's and the law is
//! close to Poisson(λ) itself, which also respects the lattice where `λ` is
//! small; [`ln_sf`] uses the Poisson tail there (see [`POISSON_MAX_SKEW_EXCESS`]).
//! `tests/calibration_sparse.rs` measures both against simulated tables.

use super::special::ln_gamma_q;
use statrs::function::gamma::ln_gamma;

/// Use Poisson(λ) instead of the shifted gamma when the third cumulant
/// exceeds Poisson's by at most this much in skewness units:
/// `(κ₃ − λ)/λ^{3/2} ≤` this (about `2μ/√λ`). The Edgeworth term then moves
/// the Poisson tail by at most about 8% at 1e-4 and 4% at 1e-3, and Poisson
/// keeps the lattice of C exact, which the continuity-corrected gamma only
/// approximates (it is markedly conservative for small λ).
pub const POISSON_MAX_SKEW_EXCESS: f64 = 0.01;

/// The exact first three cumulants of the collision count of `t` uniform
/// trials over `k` cells (see the module docs for the derivation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    /// `E[C] = C(t, 2)/k`, the λ of the Poisson approximation.
    pub mean: f64,
    /// `Var C = C(t, 2) p (1 − p)`.
    pub variance: f64,
    /// The third central moment `κ₃`.
    pub third: f64,
}

impl Moments {
    /// The cumulants for `t` trials over `k ≥ 1` cells.
    pub fn new(k: usize, t: u64) -> Moments {
        Self::over(k as f64, t)
    }

    /// [`new`](Self::new) for a number of cells too large for a `usize`
    /// (the n!/2ˢ deals of the birthday test).
    pub fn over(k: f64, t: u64) -> Moments {
        let p = 1.0 / k;
        let t = t as f64;
        let pairs = t * (t - 1.0) / 2.0;
        let triangles = if t >= 3.0 {
            t * (t - 1.0) * (t - 2.0) / 6.0
        } else {
            0.0
        };
        Moments {
            mean: pairs * p,
            variance: pairs * p * (1.0 - p),
            third: pairs * p * (1.0 - p) * (1.0 - 2.0 * p) + 6.0 * triangles * p * p * (1.0 - p),
        }
    }

    /// Skewness `κ₃/σ³` (0 when the variance is 0).
    pub fn skewness(&self) -> f64 {
        if self.variance > 0.0 {
            self.third / self.variance.powf(1.5)
        } else {
            0.0
        }
    }

    /// Whether the Poisson law is used for these moments: the third cumulant
    /// exceeds Poisson's (λ) by at most [`POISSON_MAX_SKEW_EXCESS`]` · λ^{3/2}`.
    pub fn poisson_is_adequate(&self) -> bool {
        self.mean > 0.0 && self.third - self.mean <= POISSON_MAX_SKEW_EXCESS * self.mean.powf(1.5)
    }
}

/// `ln P(C ≥ c)` under the moment-matched law (Pearson type III with a
/// continuity correction; Poisson(λ) where its skew is right, see
/// [`Moments::poisson_is_adequate`]). Finite far into the tail.
pub fn ln_sf(c: u64, m: &Moments) -> f64 {
    if c == 0 || m.variance <= 0.0 {
        return 0.0;
    }
    if m.poisson_is_adequate() {
        return ln_poisson_sf(c, m.mean);
    }
    ln_pearson3_sf(c, m)
}

/// `ln P(C ≥ c)` under the shifted gamma with the exact first three
/// cumulants, continuity corrected.
pub fn ln_pearson3_sf(c: u64, m: &Moments) -> f64 {
    let sd = m.variance.sqrt();
    let skew = m.skewness();
    if skew <= 0.0 {
        return 0.0;
    }
    let shape = 4.0 / (skew * skew);
    let scale = sd * skew / 2.0;
    let location = m.mean - shape * scale;
    let x = (c as f64 - 0.5 - location) / scale;
    if x <= 0.0 { 0.0 } else { ln_gamma_q(shape, x) }
}

/// `ln P(X ≥ c)` for `X ~ Poisson(λ)`, summed in log space (exact to rounding,
/// and finite far into the tail).
pub fn ln_poisson_sf(c: u64, lambda: f64) -> f64 {
    if c == 0 {
        return 0.0;
    }
    if lambda <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if (c as f64) < lambda {
        // P(X ≥ c) = P(Gamma(c, 1) ≤ λ) = 1 − Q(c, λ), large here.
        return (-ln_gamma_q(c as f64, lambda).exp()).ln_1p();
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
    j as f64 * lambda.ln() - lambda - ln_gamma(j as f64 + 1.0)
}

/// The collision count `Σ C(c_i, 2)` of a table.
pub fn count(counts: &[u64]) -> u64 {
    counts.iter().map(|&c| c * c.saturating_sub(1) / 2).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact moments by enumerating all k^t tables.
    fn brute(k: usize, t: u32) -> (f64, f64, f64) {
        let total = k.pow(t);
        let values: Vec<f64> = (0..total)
            .map(|mut code| {
                let mut counts = vec![0u64; k];
                for _ in 0..t {
                    counts[code % k] += 1;
                    code /= k;
                }
                count(&counts) as f64
            })
            .collect();
        let n = total as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        let third = values.iter().map(|v| (v - mean).powi(3)).sum::<f64>() / n;
        (mean, var, third)
    }

    #[test]
    fn moments_match_enumeration() {
        for (k, t) in [(3, 5), (4, 6), (6, 4), (2, 7), (5, 3)] {
            let m = Moments::new(k, t as u64);
            let (mean, var, third) = brute(k, t);
            assert!((m.mean - mean).abs() < 1e-9, "k={k} t={t}");
            assert!((m.variance - var).abs() < 1e-9, "k={k} t={t}");
            assert!((m.third - third).abs() < 1e-8, "k={k} t={t}");
        }
    }

    #[test]
    fn poisson_tail_matches_direct_sums() {
        // P(X >= 3) for λ = 2: 1 - e^-2 (1 + 2 + 2) = 0.3233235838.
        let p = ln_poisson_sf(3, 2.0).exp();
        assert!((p - 0.323_323_583_816_936_5).abs() < 1e-12, "{p}");
        // Deep tail stays finite: P(X >= 1000) for λ = 10.
        let ln = ln_poisson_sf(1000, 10.0);
        assert!(ln.is_finite() && ln < -3000.0, "{ln}");
    }

    #[test]
    fn the_law_is_heavier_tailed_than_poisson_when_cells_are_shared() {
        // k = 120, T = 590: λ = 1447.5, sd 38; 1600 is four sd out.
        let m = Moments::new(120, 590);
        assert!(!m.poisson_is_adequate());
        let ours = ln_sf(1600, &m);
        let poisson = ln_poisson_sf(1600, m.mean);
        assert!(ours > poisson + 0.5, "{ours} vs {poisson}");
        // Far tails stay finite and ordered.
        let far = ln_sf(100_000, &m);
        assert!(far.is_finite() && far < -1000.0, "{far}");
        assert!(ln_sf(1000, &m) > -1e-6);
        // Tiny μ: the Poisson tail itself.
        let sparse = Moments::new(3_628_800, 600);
        assert!(sparse.poisson_is_adequate());
        assert_eq!(ln_sf(3, &sparse), ln_poisson_sf(3, sparse.mean));
    }
}
