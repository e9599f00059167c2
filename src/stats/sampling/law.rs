//! The exact null law of the calibrated quadratic forms (inclusion, pairs,
//! order), to the fourth cumulant, and the shifted-gamma law their p-values
//! come from.
//!
//! # The statistics are degenerate U-statistics
//!
//! Each test projects one trial's indicator vector onto an eigenspace of its
//! covariance (dimension `df`, eigenvalue λ) and reports
//! `Q = ‖Σ_t y_t‖² / (Tλ)`, with `y_t` the projected, centred vector of
//! trial t. The symmetric group acts transitively on k-subsets (and
//! k-arrangements) and commutes with the projection, so `‖y_t‖² = df·λ` for
//! every outcome, and
//!
//! ```text
//! Q = df + (2/(Tλ)) · U,    U = Σ_{t<u} h(t, u),    h(t, u) = ⟨y_t, y_u⟩,
//! ```
//!
//! where `h` depends only on how two outcomes overlap (for subsets, the size
//! x of their intersection, hypergeometric). `E[h(t, u) | trial t] = 0`
//! (the mean of `y_u` is 0), which kills every term of a moment of U in
//! which some trial appears only once. Writing `m_r = E h^r` (a finite sum
//! over the overlap law) and using `E_w[h(t, w) h(w, u)] = y_tᵀ Cov(y) y_u
//! = λ·h(t, u)` (the y lie in one eigenspace):
//!
//! ```text
//! E Q  = df,
//! κ₂(U) = C(T,2)·m₂,                      with m₂ = df·λ² exactly,
//! κ₃(U) = C(T,2)·m₃ + 6·C(T,3)·df·λ³,       (pairs of trials; triangles)
//! κ₄(U) = C(T,2)·(m₄ − 3m₂²) + 36·C(T,3)·λ·m₃ + 72·C(T,4)·df·λ⁴
//! ```
//!
//! (κ₄: an edge four times; a triangle with a doubled edge, 3 choices × 12
//! orders; the 4-cycles, 3 per four trials × 24 orders; two doubled edges
//! cancel against `3κ₂²` exactly because `E[h(t,u)² | t]` is the same for
//! every outcome). So `Var Q = 2·df·(1 − 1/T)`, and as T grows the
//! cumulants of Q tend to those of χ²(df) (8·df, 48·df); the unit tests
//! check all four against brute-force enumeration of every T-tuple of
//! outcomes.
//!
//! # The law used
//!
//! [`NullLaw::log10_sf`] is the Pearson type III (shifted gamma) law with
//! Q's exact mean, variance and third cumulant, exactly χ²(df) in the limit.
//! The third cumulant matters: near the trial counts where the tests become
//! applicable the pairs statistic is markedly more skewed than χ² (at
//! N = 40, k = 20, T = 21 the χ² law rejected 1.7× too often at 0.001 and
//! 2.6× at 1e-4; the shifted gamma 1.08× and 1.2×), and the inclusion and
//! order statistics less (the χ² law is conservative there).
//!
//! What remains is the fourth cumulant beyond the gamma's (`κ₄/κ₂² − 1.5γ²`,
//! [`NullLaw::excess_kurtosis`], 0 for every gamma law), which the law
//! cannot follow. By the Cornish–Fisher expansion an unmodelled excess
//! kurtosis d moves the upper quantile z by about `d·(z³ − 3z)/24` standard
//! deviations, so the rejection rate by a factor of about `1 + 2.6d` at
//! 0.001 and `1 + 6.2d` at 1e-4. It decays like 1/T. Where it is large,
//! tails are heavier than the law's (pairs at N = 6, k = 3, T = 25, excess
//! kurtosis 0.34: 2.1× too many rejections at 1e-4; at 0.09, 1.6×) or,
//! strongly negative, the statistic is so coarse a lattice that its few
//! values straddle the level (order at N = 2, k = 2, T = 10: −1.1, 1.9× at
//! 0.001). So a test runs only when |excess kurtosis| ≤
//! [`MAX_EXCESS_KURTOSIS`] = 0.025 (about 7% at 0.001, 16% at 1e-4), as well
//! as every cell expecting [`MIN_EXPECTED`] counts, and otherwise says how
//! many trials it needs. The same rule and law serve Pearson's statistic for
//! weighted picks ([`super::pearson`]).
//!
//! # How good it is
//!
//! At the smallest T the rules allow, over 41 settings (inclusion, pairs and
//! order at N from 2 to 50, k from 2 to N/2), 10⁶ simulated fair audits
//! each: rejections at 0.01 were 0.91–1.07× the nominal rate (mean 1.00),
//! at 0.001 0.71–1.10× (mean 1.00), at 1e-4 0.80–1.37× (mean 1.05; the
//! worst pairs at N = 40, k = 20, T = 46, and inclusion at N = 50, k = 5,
//! T = 59, 1.3×). The residual excess shrinks with T (pairs at N = 40,
//! k = 20: 0.99× and 0.93× at twice the trials). A χ²(df) law instead: pairs
//! up to 1.7× at 0.001, inclusion and order conservative (down to 0.6×) near
//! the boundary. Weighted picks ([`mod@super::weighted`]) at the smallest T
//! allowed, 8 weight vectors: 0.84–1.07× at 0.001, 0.93–1.15× at 1e-4.

use super::{MIN_EXPECTED, NotApplicable};
pub use crate::stats::pearson_law::{MAX_EXCESS_KURTOSIS, NullLaw};
use statrs::function::gamma::ln_gamma;

/// The law of the overlap kernel of a quadratic-form statistic: its df and
/// eigenvalue λ, and the moments `m_r = E h^r` of `h = ⟨y_t, y_u⟩` for two
/// independent trials (module docs). It does not depend on T.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kernel {
    /// Degrees of freedom: the dimension of the eigenspace.
    pub df: f64,
    /// The per-trial variance λ in every direction of the eigenspace.
    pub lambda: f64,
    /// `E h²` (equals `df·λ²`).
    pub m2: f64,
    /// `E h³`.
    pub m3: f64,
    /// `E h⁴`.
    pub m4: f64,
}

impl Kernel {
    /// The kernel whose h is `h(x)` for an overlap x of law `overlap`
    /// (pairs of value and probability).
    pub(super) fn from_overlap(
        df: f64,
        lambda: f64,
        overlap: &[(usize, f64)],
        h: impl Fn(f64) -> f64,
    ) -> Kernel {
        let (mut m2, mut m3, mut m4) = (0.0, 0.0, 0.0);
        for &(x, w) in overlap {
            let v = h(x as f64);
            let v2 = v * v;
            m2 += w * v2;
            m3 += w * v2 * v;
            m4 += w * v2 * v2;
        }
        Kernel {
            df,
            lambda,
            m2,
            m3,
            m4,
        }
    }

    /// The law of Q after `trials` trials.
    pub fn law(&self, trials: u64) -> NullLaw {
        let t = trials as f64;
        let pairs = t * (t - 1.0) / 2.0;
        let triangles = pairs * (t - 2.0) / 3.0;
        let quads = triangles * (t - 3.0) / 4.0;
        let l = self.lambda;
        let k2 = pairs * self.m2;
        let k3 = pairs * self.m3 + 6.0 * triangles * self.df * l.powi(3);
        let k4 = pairs * (self.m4 - 3.0 * self.m2 * self.m2)
            + 36.0 * triangles * l * self.m3
            + 72.0 * quads * self.df * l.powi(4);
        let s = 2.0 / (t * l);
        NullLaw {
            df: self.df,
            mean: self.df,
            variance: s * s * k2,
            third: s.powi(3) * k3,
            fourth: s.powi(4) * k4,
        }
    }

    /// Whether the law after `trials` trials is close enough to its
    /// shifted gamma ([`MAX_EXCESS_KURTOSIS`]).
    fn shaped(&self, trials: u64) -> bool {
        trials >= 2 && self.law(trials).excess_kurtosis().abs() <= MAX_EXCESS_KURTOSIS
    }

    /// The fewest trials from `from` on that make [`Self::shaped`] hold.
    fn trials_for_shape(&self, from: u64) -> u64 {
        fewest_trials(from, |t| self.shaped(t))
    }

    /// The law after `trials` trials if the test applies: the smallest
    /// cell, expecting `per_trial` counts per trial, reaches
    /// [`MIN_EXPECTED`], and the excess kurtosis is within
    /// [`MAX_EXCESS_KURTOSIS`]. Returns the law and the smallest expected
    /// count.
    pub(super) fn decide(
        &self,
        trials: u64,
        per_trial: f64,
    ) -> Result<(NullLaw, f64), NotApplicable> {
        let min_expected = per_trial * trials as f64;
        let law = self.law(trials);
        let excess = law.excess_kurtosis();
        if min_expected >= MIN_EXPECTED && excess.abs() <= MAX_EXCESS_KURTOSIS {
            return Ok((law, min_expected));
        }
        let sparse = ((MIN_EXPECTED / per_trial).ceil() as u64).max(trials);
        Err(NotApplicable::TooFewTrials {
            min_expected,
            excess_kurtosis: Some(excess),
            needed: self.trials_for_shape(sparse),
        })
    }
}

/// The fewest trials from `from` on for which `ok` holds, assuming it keeps
/// holding beyond (the excess kurtosis decays like 1/T): doubling, then
/// bisection. `u64::MAX` if none is found.
pub(super) fn fewest_trials(from: u64, ok: impl Fn(u64) -> bool) -> u64 {
    if ok(from) {
        return from;
    }
    let (mut lo, mut hi) = (from, from.max(2));
    while !ok(hi) {
        lo = hi;
        if hi > u64::MAX / 4 {
            return u64::MAX;
        }
        hi *= 2;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The law of the intersection size of two independent uniform k-subsets of
/// N items (hypergeometric), as (size, probability), with negligible tails
/// (below 1e-20 of the largest term) left out.
pub(super) fn intersection_law(n: usize, k: usize) -> Vec<(usize, f64)> {
    let lo = (2 * k).saturating_sub(n);
    let hi = k;
    let (nf, kf) = (n as f64, k as f64);
    let ln_choose = |a: f64, b: f64| ln_gamma(a + 1.0) - ln_gamma(b + 1.0) - ln_gamma(a - b + 1.0);
    let mode = (((k + 1) * (k + 1)) as f64 / (nf + 2.0)).floor() as usize;
    let mode = mode.clamp(lo, hi);
    let ln_mode =
        ln_choose(kf, mode as f64) + ln_choose(nf - kf, (k - mode) as f64) - ln_choose(nf, kf);
    // P(x+1)/P(x) = (k − x)² / ((x + 1)(N − 2k + x + 1)).
    let ratio = |x: usize| -> f64 {
        let xf = x as f64;
        (kf - xf) * (kf - xf) / ((xf + 1.0) * (nf - 2.0 * kf + xf + 1.0))
    };
    let mut terms = vec![(mode, 1.0f64)];
    let mut p = 1.0;
    let mut x = mode;
    while x < hi {
        p *= ratio(x);
        x += 1;
        if p < 1e-20 {
            break;
        }
        terms.push((x, p));
    }
    p = 1.0;
    x = mode;
    while x > lo {
        x -= 1;
        p /= ratio(x);
        if p < 1e-20 {
            break;
        }
        terms.push((x, p));
    }
    let scale = ln_mode.exp();
    let total: f64 = terms.iter().map(|t| t.1).sum();
    // Normalise by the sum (exact up to rounding; `scale` only cross-checks).
    debug_assert!((total * scale - 1.0).abs() < 1e-6, "{total} {scale}");
    terms.sort_by_key(|t| t.0);
    terms.into_iter().map(|(x, w)| (x, w / total)).collect()
}

/// Checks a law's cumulants against brute force: the statistic `stat` of
/// every `t`-tuple of the `outcomes` equally likely outcomes (by index).
#[cfg(test)]
pub(super) fn assert_cumulants(
    outcomes: usize,
    t: usize,
    stat: impl Fn(&[usize]) -> f64,
    law: &NullLaw,
) {
    let mut tuple = vec![0usize; t];
    let mut values = Vec::new();
    loop {
        values.push(stat(&tuple));
        let mut i = 0;
        while i < t {
            tuple[i] += 1;
            if tuple[i] < outcomes {
                break;
            }
            tuple[i] = 0;
            i += 1;
        }
        if i == t {
            break;
        }
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let central = |r: i32| values.iter().map(|v| (v - mean).powi(r)).sum::<f64>() / n;
    let (m2, m3, m4) = (central(2), central(3), central(4));
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    assert!(close(mean, law.mean), "mean {mean} vs {}", law.mean);
    assert!(close(m2, law.variance), "variance {m2} vs {}", law.variance);
    assert!(close(m3, law.third), "third {m3} vs {}", law.third);
    assert!(
        close(m4 - 3.0 * m2 * m2, law.fourth),
        "fourth {} vs {}",
        m4 - 3.0 * m2 * m2,
        law.fourth
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::special::log10_chi2_sf;

    #[test]
    fn intersections_are_hypergeometric() {
        for (n, k) in [(10, 3), (7, 5), (100, 50), (4, 2), (5, 5), (1000, 10)] {
            let law = intersection_law(n, k);
            let total: f64 = law.iter().map(|t| t.1).sum();
            let mean: f64 = law.iter().map(|&(x, w)| x as f64 * w).sum();
            let var: f64 = law
                .iter()
                .map(|&(x, w)| (x as f64 - mean).powi(2) * w)
                .sum();
            let (nf, kf) = (n as f64, k as f64);
            let want_var = if n > 1 {
                kf * kf * (nf - kf) * (nf - kf) / (nf * nf * (nf - 1.0))
            } else {
                0.0
            };
            assert!((total - 1.0).abs() < 1e-12);
            assert!((mean - kf * kf / nf).abs() < 1e-9, "N={n} k={k}");
            assert!((var - want_var).abs() < 1e-9, "N={n} k={k}");
        }
        // N = 4, k = 2: P(x = 0, 1, 2) = 1/6, 4/6, 1/6.
        let law = intersection_law(4, 2);
        let want = [1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0];
        for (&(x, w), want) in law.iter().zip(want) {
            assert!((w - want).abs() < 1e-14, "x={x}");
        }
    }

    #[test]
    fn the_law_tends_to_chi_square() {
        // Any kernel with m2 = df λ²: the cumulants approach 2df, 8df, 48df.
        let k = Kernel {
            df: 10.0,
            lambda: 0.5,
            m2: 2.5,
            m3: 1.0,
            m4: 30.0,
        };
        let law = k.law(10_000_000);
        assert!((law.variance / 20.0 - 1.0).abs() < 1e-6);
        assert!((law.third / 80.0 - 1.0).abs() < 1e-5);
        assert!((law.fourth / 480.0 - 1.0).abs() < 1e-5);
        assert!(law.excess_kurtosis().abs() < 1e-5);
        let x = 25.0;
        assert!((law.log10_sf(x) - log10_chi2_sf(x, 10.0)).abs() < 1e-4);
        // Few trials: refused, with the trials that would do.
        let e = k.decide(5, 1.0).unwrap_err();
        let NotApplicable::TooFewTrials { needed, .. } = e else {
            panic!("{e:?}")
        };
        assert!(k.shaped(needed) && !k.shaped(needed - 1), "{needed}");
        assert!(k.decide(needed, 1.0).is_ok());
    }
}
