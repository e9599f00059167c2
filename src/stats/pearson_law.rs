//! The exact null law of Pearson's statistic, and the shifted-gamma law the
//! crate takes p-values from wherever a statistic's first cumulants are known
//! exactly ([`NullLaw`]).
//!
//! It sits below both [`super::gof`] (the structure tests' goodness of fit)
//! and [`super::sampling`] (the sampler tests, which re-export it), so both
//! judge Pearson's statistic by the same law: χ²(df) is only its limit, and
//! next to groups expecting hundreds a group expecting 5–10 counts makes the
//! statistic markedly more skewed than χ² (the structure tests rejected up to
//! 3× too often at 1e-4 under χ²; issue 22).
//!
//! # The cumulants
//!
//! The exact null cumulants of Pearson's statistic for a multinomial table
//! with unequal cell probabilities, to the fourth.
//!
//! Pearson's `X² = Σ_i (O_i − Tπ_i)²/(Tπ_i)` over T independent picks with
//! cell probabilities π (m cells) is `‖S‖²/T` with `S = Σ_t Z_t`,
//! `Z_t = (δ_{x_t,i} − π_i)/√π_i`: so `T·X² − T(m−1) = W = Σ_{t,u} K(t, u)`
//! over ordered pairs of picks, with
//!
//! ```text
//! K(t, u) = ⟨Z_t, Z_u⟩ = δ(x_t = x_u)/π(x_t) − 1     (t ≠ u; mean 0 given x_t),
//! K(t, t) = ‖Z_t‖² − (m−1) = 1/π(x_t) − m              (mean 0).
//! ```
//!
//! Unlike the equally likely case, the diagonal terms vary, which is where
//! the familiar `Var X² = 2(m−1) + (Σ 1/π_i − m² − 2m + 2)/T` comes from,
//! and the skewness and kurtosis too. The r-th cumulant of W is the sum,
//! over r-tuples of (ordered) pairs of picks, of the joint cumulant of the
//! r factors K. Group the tuples by which picks coincide (a *diagram*: a
//! set partition of the 2r pair slots into distinct picks, v of them, in
//! `(T)_v` ways). The joint cumulant vanishes unless the diagram is
//! connected (independent groups of factors), and unless every pick sits in
//! at least two factors (a pick in one factor only integrates that factor to
//! 0). For r ≤ 3 the joint cumulant is `E[K…K]` (the factors have mean 0);
//! for r = 4 it is `E[K₁K₂K₃K₄]` less the three products
//! `E[K_aK_b]·E[K_cK_d]`. Each expectation expands, factor by factor, into
//! `δ/π` or `−1` (`1/π` or `−m` on the diagonal); the chosen δ's merge picks
//! into groups sharing a cell, and a group of g picks carrying e of the
//! `1/π` factors contributes the power sum `Σ_i π_i^(g − e)`. So every
//! cumulant is a polynomial in T (falling factorials) with coefficients in
//! power sums of π, tabulated once and evaluated per table.
//! The unit tests check κ₂ and κ₃ against their closed forms and all four
//! against brute-force enumeration of every sequence of picks.

use super::special::{ln_gamma_q, log10_chi2_sf};
use std::f64::consts::LN_10;
use std::sync::OnceLock;

/// A test runs only when the exact excess kurtosis of its statistic beyond
/// the shifted gamma's is at most this in absolute value (module docs): by
/// Cornish–Fisher about 7% on the rejection rate at 0.001 and 16% at 1e-4.
/// At 0.05 the worst tails seen were 1.15× the nominal rate at 0.001; at
/// this bound (about twice the trials) 1.10×.
pub const MAX_EXCESS_KURTOSIS: f64 = 0.025;

/// The first four cumulants of a statistic under the null.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NullLaw {
    /// Degrees of freedom of the limiting χ².
    pub df: f64,
    /// The mean (= df for a single Pearson statistic or quadratic form).
    pub mean: f64,
    /// The variance (χ²: 2·df).
    pub variance: f64,
    /// The third cumulant (χ²: 8·df).
    pub third: f64,
    /// The fourth cumulant (χ²: 48·df).
    pub fourth: f64,
}

impl NullLaw {
    /// `κ₃ / κ₂^{3/2}` (0 when the variance is 0).
    pub fn skewness(&self) -> f64 {
        if self.variance > 0.0 {
            self.third / self.variance.powf(1.5)
        } else {
            0.0
        }
    }

    /// The standardised fourth cumulant beyond the shifted gamma's:
    /// `κ₄/κ₂² − 1.5·γ²` (0 for any gamma law, χ² included).
    pub fn excess_kurtosis(&self) -> f64 {
        if self.variance > 0.0 {
            let g = self.skewness();
            self.fourth / (self.variance * self.variance) - 1.5 * g * g
        } else {
            f64::INFINITY
        }
    }

    /// The law of a sum of independent statistics: every cumulant (and the
    /// df) adds. How independent Pearson statistics are combined
    /// ([`super::gof::combine`]); an empty sum is the point mass at 0.
    pub fn sum(parts: &[NullLaw]) -> NullLaw {
        parts.iter().fold(
            NullLaw {
                df: 0.0,
                mean: 0.0,
                variance: 0.0,
                third: 0.0,
                fourth: 0.0,
            },
            |a, b| NullLaw {
                df: a.df + b.df,
                mean: a.mean + b.mean,
                variance: a.variance + b.variance,
                third: a.third + b.third,
                fourth: a.fourth + b.fourth,
            },
        )
    }

    /// log10 P(Q ≥ x) under the shifted gamma with the exact mean, variance
    /// and skewness; finite far into the tail. (χ²(df) if the skewness were
    /// not positive, which the applicability rule excludes in practice.)
    pub fn log10_sf(&self, x: f64) -> f64 {
        let skew = self.skewness();
        if skew <= 0.0 {
            return log10_chi2_sf(x, self.df);
        }
        let shape = 4.0 / (skew * skew);
        let scale = self.variance.sqrt() * skew / 2.0;
        let location = self.mean - shape * scale;
        let y = (x - location) / scale;
        if y <= 0.0 {
            0.0
        } else {
            ln_gamma_q(shape, y) / LN_10
        }
    }
}

/// One monomial of a cumulant: `(T)_picks · coefficient · m^m_power ·
/// Π_e (Σ_i π_i^e)` over `exponents`.
#[derive(Debug, Clone)]
struct Term {
    picks: usize,
    coefficient: f64,
    m_power: u32,
    exponents: Vec<i32>,
}

/// The monomials of κ₂, κ₃ and κ₄ of W.
struct Diagrams {
    cumulants: [Vec<Term>; 3],
}

/// A factor K(a, b) between picks a and b (a = b on the diagonal).
type Factor = (usize, usize);

/// `E[Π K]` over the factors, with picks 0..picks independent, as
/// (coefficient, m power, power-sum exponents) monomials.
fn expectation(factors: &[Factor], picks: usize) -> Vec<(f64, u32, Vec<i32>)> {
    let r = factors.len();
    let mut out = Vec::new();
    for choice in 0u32..(1 << r) {
        // Union-find over picks, merged by the chosen δ's.
        let mut parent: Vec<usize> = (0..picks).collect();
        fn find(p: &mut [usize], x: usize) -> usize {
            let mut x = x;
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        let mut coefficient = 1.0;
        let mut m_power = 0;
        let mut inverse = vec![0i32; picks]; // 1/π factors, by pick
        for (l, &(a, b)) in factors.iter().enumerate() {
            let special = choice & (1 << l) != 0;
            if a == b {
                if special {
                    inverse[a] += 1;
                } else {
                    coefficient = -coefficient;
                    m_power += 1;
                }
            } else if special {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra] = rb;
                inverse[a] += 1;
            } else {
                coefficient = -coefficient;
            }
        }
        let mut size = vec![0i32; picks];
        let mut carried = vec![0i32; picks];
        for (p, &inv) in inverse.iter().enumerate() {
            let root = find(&mut parent, p);
            size[root] += 1;
            carried[root] += inv;
        }
        let exponents = (0..picks)
            .filter(|&p| size[p] > 0)
            .map(|p| size[p] - carried[p])
            .collect();
        out.push((coefficient, m_power, exponents));
    }
    out
}

/// Every set partition of `n` slots, as restricted growth strings.
fn set_partitions(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = vec![0usize; n];
    fn go(i: usize, max: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if i == current.len() {
            out.push(current.clone());
            return;
        }
        for label in 0..=max + 1 {
            current[i] = label;
            go(i + 1, max.max(label), current, out);
        }
    }
    if n > 0 {
        current[0] = 0;
        go(1, 0, &mut current, &mut out);
    }
    out
}

/// Whether the diagram can carry a joint cumulant: connected, and every pick
/// in at least two factors.
fn contributes(factors: &[Factor], picks: usize) -> bool {
    let mut uses = vec![0usize; picks];
    for &(a, b) in factors {
        uses[a] += 1;
        if b != a {
            uses[b] += 1;
        }
    }
    if uses.iter().any(|&u| u < 2) {
        return false;
    }
    // Connectivity of picks through factors.
    let mut reached = vec![false; picks];
    reached[factors[0].0] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for &(a, b) in factors {
            if reached[a] != reached[b] {
                reached[a] = true;
                reached[b] = true;
                changed = true;
            }
        }
    }
    reached.iter().all(|&r| r)
}

/// Relabels the picks of some factors to 0..v, returning them and v.
fn relabel(factors: &[Factor]) -> (Vec<Factor>, usize) {
    let mut map: Vec<(usize, usize)> = Vec::new();
    let label = |p: usize, map: &mut Vec<(usize, usize)>| -> usize {
        match map.iter().find(|&&(from, _)| from == p) {
            Some(&(_, to)) => to,
            None => {
                map.push((p, map.len()));
                map.len() - 1
            }
        }
    };
    let out = factors
        .iter()
        .map(|&(a, b)| (label(a, &mut map), label(b, &mut map)))
        .collect();
    (out, map.len())
}

fn build() -> Diagrams {
    let mut cumulants: [Vec<Term>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for r in 2..=4usize {
        for rgs in set_partitions(2 * r) {
            let picks = rgs.iter().max().unwrap() + 1;
            let factors: Vec<Factor> = (0..r).map(|l| (rgs[2 * l], rgs[2 * l + 1])).collect();
            if !contributes(&factors, picks) {
                continue;
            }
            let terms = &mut cumulants[r - 2];
            for (c, mp, e) in expectation(&factors, picks) {
                terms.push(Term {
                    picks,
                    coefficient: c,
                    m_power: mp,
                    exponents: e,
                });
            }
            if r == 4 {
                for (x, y) in [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))] {
                    let (f1, v1) = relabel(&[factors[x.0], factors[x.1]]);
                    let (f2, v2) = relabel(&[factors[y.0], factors[y.1]]);
                    for (c1, m1, e1) in expectation(&f1, v1) {
                        for (c2, m2, e2) in expectation(&f2, v2) {
                            let mut e = e1.clone();
                            e.extend_from_slice(&e2);
                            terms.push(Term {
                                picks,
                                coefficient: -c1 * c2,
                                m_power: m1 + m2,
                                exponents: e,
                            });
                        }
                    }
                }
            }
        }
    }
    for terms in cumulants.iter_mut() {
        *terms = merge(std::mem::take(terms));
    }
    Diagrams { cumulants }
}

/// Adds up monomials that differ only in their coefficient (34,880 terms of
/// κ₄ become a few hundred).
fn merge(terms: Vec<Term>) -> Vec<Term> {
    let mut merged: std::collections::BTreeMap<(usize, u32, Vec<i32>), f64> =
        std::collections::BTreeMap::new();
    for mut term in terms {
        term.exponents.retain(|&e| e != 1); // Σ π = 1
        term.exponents.sort_unstable();
        *merged
            .entry((term.picks, term.m_power, term.exponents))
            .or_insert(0.0) += term.coefficient;
    }
    merged
        .into_iter()
        .filter(|&(_, c)| c != 0.0)
        .map(|((picks, m_power, exponents), coefficient)| Term {
            picks,
            coefficient,
            m_power,
            exponents,
        })
        .collect()
}

/// The monomials, built once per process ([`build`] takes about 16 ms).
static DIAGRAMS: OnceLock<Diagrams> = OnceLock::new();

fn diagrams() -> &'static Diagrams {
    DIAGRAMS.get_or_init(build)
}

/// Starts building the monomials on a thread of their own, where they are
/// not built yet: called when a run of either kind starts (`audit::run`,
/// `sampler::audit::run`), so that the tests that need
/// them after the counting do not wait for them (about 16 ms of the serial
/// tail of a default audit at n = 10 on its first run in a process). Where
/// no thread can be started (WebAssembly) they are built when first needed.
pub(crate) fn build_in_background() {
    if DIAGRAMS.get().is_none() {
        // A thread that cannot start leaves the table to its first user.
        let _ = std::thread::Builder::new().spawn(diagrams);
    }
}

/// The exact mean, variance, third and fourth cumulants of Pearson's X² for
/// `trials` picks over cells of probabilities `probs` (positive, summing to
/// 1), as a [`NullLaw`] with df = cells − 1.
pub fn pearson_law(probs: &[f64], trials: u64) -> NullLaw {
    from_power_sums(probs.len(), &power_sums(probs), trials)
}

/// The power sums `Σ π^e` of `probs`, e = −4..=8 (index e + 4): all that
/// [`from_power_sums`] needs of the cells, so that a caller asking for the
/// law of the same cells at many trial counts computes them once.
pub(crate) fn power_sums(probs: &[f64]) -> Vec<f64> {
    (-4i32..=8)
        .map(|e| probs.iter().map(|&p| p.powi(e)).sum())
        .collect()
}

/// [`pearson_law`] for `cells` equally likely cells, without a pass over
/// them (the whole-permutation test has n! cells): the power sums are
/// `cells^(1 − e)`.
pub fn pearson_law_uniform(cells: usize, trials: u64) -> NullLaw {
    let k = cells as f64;
    let sums: Vec<f64> = (-4i32..=8).map(|e| k.powi(1 - e)).collect();
    from_power_sums(cells, &sums, trials)
}

/// The cumulants from the power sums `Σ π^e`, e = −4..=8 (index e + 4), of
/// `m` cells ([`power_sums`]).
pub(crate) fn from_power_sums(m: usize, sums: &[f64], trials: u64) -> NullLaw {
    let t = trials as f64;
    let falling = |v: usize| -> f64 { (0..v).map(|i| t - i as f64).product() };
    let mf = m as f64;
    let kappa: Vec<f64> = diagrams()
        .cumulants
        .iter()
        .map(|terms| {
            terms
                .iter()
                .map(|term| {
                    term.coefficient
                        * falling(term.picks)
                        * mf.powi(term.m_power as i32)
                        * term
                            .exponents
                            .iter()
                            .map(|&e| sums[(e + 4) as usize])
                            .product::<f64>()
                })
                .sum()
        })
        .collect();
    NullLaw {
        df: mf - 1.0,
        mean: mf - 1.0,
        variance: kappa[0] / (t * t),
        third: kappa[1] / t.powi(3),
        fourth: kappa[2] / t.powi(4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cumulants of X² by enumerating every sequence of `t` picks.
    fn brute(probs: &[f64], t: usize) -> [f64; 4] {
        let m = probs.len();
        let mut seq = vec![0usize; t];
        let mut moments = [0.0f64; 5];
        loop {
            let mut counts = vec![0u64; m];
            let mut w = 1.0;
            for &x in &seq {
                counts[x] += 1;
                w *= probs[x];
            }
            let x2: f64 = counts
                .iter()
                .zip(probs)
                .map(|(&o, &p)| (o as f64 - t as f64 * p).powi(2) / (t as f64 * p))
                .sum();
            for (r, mo) in moments.iter_mut().enumerate() {
                *mo += w * x2.powi(r as i32);
            }
            let mut i = 0;
            while i < t {
                seq[i] += 1;
                if seq[i] < m {
                    break;
                }
                seq[i] = 0;
                i += 1;
            }
            if i == t {
                break;
            }
        }
        let mean = moments[1];
        let c2 = moments[2] - mean * mean;
        let c3 = moments[3] - 3.0 * mean * moments[2] + 2.0 * mean.powi(3);
        let c4 = moments[4] - 4.0 * mean * moments[3] + 6.0 * mean * mean * moments[2]
            - 3.0 * mean.powi(4);
        [mean, c2, c3, c4 - 3.0 * c2 * c2]
    }

    #[test]
    fn cumulants_match_every_sequence_of_picks() {
        for probs in [
            vec![0.2, 0.3, 0.5],
            vec![0.1, 0.1, 0.8],
            vec![0.25; 4],
            vec![0.05, 0.15, 0.3, 0.5],
            vec![0.4, 0.6],
        ] {
            for t in [1usize, 2, 3, 4, 5, 7] {
                if probs.len().pow(t as u32) > 20_000 {
                    continue;
                }
                let want = brute(&probs, t);
                let law = pearson_law(&probs, t as u64);
                let got = [law.mean, law.variance, law.third, law.fourth];
                for (r, (g, w)) in got.iter().zip(want).enumerate() {
                    assert!(
                        (g - w).abs() <= 1e-9 * w.abs().max(1.0),
                        "{probs:?} T={t} cumulant {}: {g} vs {w}",
                        r + 1
                    );
                }
            }
        }
    }

    #[test]
    fn equally_likely_cells_need_no_pass_over_them() {
        for (k, t) in [(2usize, 10u64), (6, 600), (120, 600), (24, 5)] {
            let a = pearson_law(&vec![1.0 / k as f64; k], t);
            let b = pearson_law_uniform(k, t);
            for (x, y) in [
                (a.variance, b.variance),
                (a.third, b.third),
                (a.fourth, b.fourth),
            ] {
                assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0), "k={k} T={t}");
            }
        }
        let parts = [pearson_law_uniform(3, 50), pearson_law(&[0.2, 0.8], 50)];
        let sum = NullLaw::sum(&parts);
        assert_eq!(sum.df, 3.0);
        assert!((sum.third - parts[0].third - parts[1].third).abs() < 1e-12);
    }

    #[test]
    fn variance_and_skewness_have_their_closed_forms() {
        let probs = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0].map(|w| w / 31.0);
        let (m, t) = (8.0f64, 300.0f64);
        let inv: f64 = probs.iter().map(|p| 1.0 / p).sum();
        let v = inv - m * m;
        let mu3: f64 = probs.iter().map(|p| p * (1.0 / p - m).powi(3)).sum();
        let g3: f64 = probs
            .iter()
            .map(|p| (1.0 - p).powi(3) / p - p * (1.0 - p))
            .sum();
        let pairs = t * (t - 1.0) / 2.0;
        let triangles = pairs * (t - 2.0) / 3.0;
        let law = pearson_law(&probs, 300);
        let var = 2.0 * (m - 1.0) + (inv - m * m - 2.0 * m + 2.0) / t;
        assert!((law.variance - var).abs() < 1e-10 * var);
        let third = (t * mu3 + 36.0 * pairs * v + 8.0 * pairs * g3 + 48.0 * triangles * (m - 1.0))
            / t.powi(3);
        assert!((law.third - third).abs() < 1e-10 * third);
        // Many picks: χ²(7).
        let limit = pearson_law(&probs, 1 << 40);
        assert!((limit.variance / 14.0 - 1.0).abs() < 1e-9);
        assert!((limit.third / 56.0 - 1.0).abs() < 1e-9);
        assert!((limit.fourth / 336.0 - 1.0).abs() < 1e-6);
    }
}
