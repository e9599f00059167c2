//! The non-centrality per trial that each sampler test sees, from what one
//! trial puts on average into each count the sampler audit keeps.
//!
//! # Derivation
//!
//! Every sampler test's statistic is a quadratic form in the deviations of
//! its counts c from their null expectation T·μ₀, scaled by 1/T:
//! `Q = ‖A (c − Tμ₀)‖² / T` for a fixed matrix A (the calibrated forms of
//! [`crate::stats::sampling`], and Pearson's sums). Under a fixed bias the
//! counts have mean T·μ, so `c − Tμ₀ = T(μ − μ₀) + (noise of order √T)`
//! and Q is approximately non-central χ² with the test's df and
//! non-centrality `λ = T·‖A(μ − μ₀)‖² = T·δ`: δ is the statistic evaluated on
//! the expected proportions μ as if T were 1. Test by test (the
//! statistics as defined in `stats/sampling`):
//!
//! - **inclusion** (`inclusion.rs`): `Q = ((N−1)/N) Σ (C_i − Tp)² / (T p (1−p))`,
//!   p = k/N. With `C_i = T π_i`, π_i = P(item i in the sample),
//!   `Q = T · ((N−1)/N) Σ (π_i − p)² / (p(1−p))`, so
//!   `δ = ((N−1)/N) Σ_i (π_i − p)² / (p(1−p))`. At k = 1 the test is
//!   Pearson's over the N items, `Σ (C_i − T/N)²/(T/N) = T·N Σ (π_i − 1/N)²`,
//!   the same δ since `((N−1)/N)/(p(1−p)) = N` at p = 1/N (and at k = N−1 on
//!   the complements, by the k ↔ N−k symmetry).
//! - **pairs** (`pairs.rs`): `Q = ‖E₂ D‖² / (T λ₂)` with `D_ij = P_ij − Tq`,
//!   E₂ the projection off what inclusion explains and λ₂ its per-trial
//!   variance. With `P_ij = T π_ij`, π_ij = P(i and j both in),
//!   `δ = ‖E₂ (π − q)‖² / λ₂` ([`pairs::projected_norm`]).
//! - **subsets** (`subset.rs`): Pearson's sum over the C = C(N, k) subsets
//!   against 1/C, so `δ = Σ_s (π_s − 1/C)² / (1/C) = C Σ_s (π_s − 1/C)²`,
//!   every subset included (an unreachable one has π_s = 0).
//! - **order** (`order.rs`): `Q = ((N−1)/T) Σ_sv (S_sv − C_v/k)²` over the
//!   k × N slot-by-item table. With `S_sv = T ρ_sv`, ρ_sv = P(item v at
//!   slot s), and `C_v = T π_v`, π_v = Σ_s ρ_sv,
//!   `δ = (N−1) Σ_sv (ρ_sv − π_v/k)²`.
//! - **picks** (`weighted.rs`): Pearson's sum against `q_i = w_i / Σw` over
//!   the items of positive weight, `δ = Σ_{w_i > 0} (π_i − q_i)² / q_i`, when
//!   no item is pooled with its neighbours (every item expecting 5 picks,
//!   from `5 / min q` trials on; below, pooling lowers δ).
//!
//! A pilot run's counts give the same sums on their proportions c/T:
//! `T · δ(c/T)` is exactly the test's statistic (the unit tests check this
//! against the tests themselves), whose mean under the bias is df + Tδ up to
//! a term that does not grow with T, so `δ̂ = (X − df)/T` as for shuffles
//! ([`Effect::from_pilot`](crate::power::Effect::from_pilot)).

use crate::sampler::SampleTest;
use crate::sampler::tally::SampleTally;
use crate::sampler::{PickLaw, SubsetLaw};
use crate::stats::sampling::{pair_index, pairs, subset_rank};
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// What one trial of a sampler puts, on average, into each count its audit
/// keeps: exact probabilities from an exact law, or a pilot's proportions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExpectedCounts {
    /// N.
    n: usize,
    /// Items per sample (1 for a weighted pick).
    k: usize,
    /// P(item i in the sample), or P(pick i).
    inclusion: Vec<f64>,
    /// P(i and j both in), at `pair_index(n, i, j)`, where the audit keeps
    /// pair counts.
    pairs: Option<Vec<f64>>,
    /// P(subset), at its colex rank, where the audit keeps subset counts.
    subsets: Option<Vec<f64>>,
    /// P(item v at slot s), at `s * n + v`, for an ordered sampler.
    slots: Option<Vec<f64>>,
}

fn to_f64(p: &BigRational) -> f64 {
    p.to_f64().unwrap_or(0.0)
}

impl ExpectedCounts {
    /// A pilot's proportions: its counts over its trials.
    pub fn of_tally(tally: &SampleTally) -> Self {
        let t = tally.trials().max(1) as f64;
        let share = |c: &[u64]| c.iter().map(|&x| x as f64 / t).collect::<Vec<f64>>();
        Self {
            n: tally.n(),
            k: tally.k(),
            inclusion: share(tally.inclusion()),
            pairs: tally.pairs().map(share),
            subsets: tally.subsets().map(share),
            slots: tally.slots().map(share),
        }
    }

    /// The exact probabilities of a k-of-N sampler's law, for the counts
    /// that `like` (a tally of the same sampler) keeps.
    pub fn of_subset_law(law: &SubsetLaw, like: &SampleTally) -> Self {
        let (n, k) = (law.n(), law.k());
        let mut pairs = like.pairs().map(|p| vec![0.0; p.len()]);
        let mut subsets = like.subsets().map(|s| vec![0.0; s.len()]);
        let mut items: Vec<usize> = Vec::with_capacity(k);
        for (subset, p) in law.subsets() {
            let p = to_f64(p);
            items.clear();
            items.extend(subset.iter().map(|&v| v as usize));
            if let Some(pairs) = &mut pairs {
                for (b, &j) in items.iter().enumerate() {
                    for &i in &items[..b] {
                        pairs[pair_index(n, i, j)] += p;
                    }
                }
            }
            if let Some(subsets) = &mut subsets {
                subsets[subset_rank(&items) as usize] += p;
            }
        }
        let slots = like.slots().and(law.tuples()).map(|tuples| {
            let mut slots = vec![0.0; k * n];
            for (tuple, p) in tuples {
                let p = to_f64(p);
                for (s, &v) in tuple.iter().enumerate() {
                    slots[s * n + v as usize] += p;
                }
            }
            slots
        });
        Self {
            n,
            k,
            inclusion: law.inclusion().iter().map(to_f64).collect(),
            pairs,
            subsets,
            slots,
        }
    }

    /// The exact probabilities of a weighted pick's law.
    pub fn of_pick_law(law: &PickLaw) -> Self {
        Self {
            n: law.weights().len(),
            k: 1,
            inclusion: law.probabilities().iter().map(to_f64).collect(),
            pairs: None,
            subsets: None,
            slots: None,
        }
    }

    /// P(item i in the sample), or P(pick i), by item.
    #[cfg(any(test, feature = "cli"))]
    pub fn inclusion(&self) -> &[f64] {
        &self.inclusion
    }

    /// P(subset) by colex rank, where the audit keeps subset counts.
    #[cfg(any(test, feature = "cli"))]
    pub fn subsets(&self) -> Option<&[f64]> {
        self.subsets.as_deref()
    }

    /// The probability per trial of picking an item of zero weight (0 for
    /// a k-of-N sampler).
    pub fn impossible_rate(&self, weights: Option<&[u64]>) -> f64 {
        weights.map_or(0.0, |w| {
            w.iter()
                .zip(&self.inclusion)
                .filter(|&(&w, _)| w == 0)
                .map(|(_, &p)| p)
                .sum()
        })
    }

    /// δ of `test` (module docs), or `None` when the counts it needs are not
    /// kept (or, for picks, no weights are given).
    pub fn delta(&self, test: SampleTest, weights: Option<&[u64]>) -> Option<f64> {
        let (nf, kf) = (self.n as f64, self.k as f64);
        let p = kf / nf;
        Some(match test {
            SampleTest::Inclusion => {
                let sum_sq: f64 = self.inclusion.iter().map(|&x| (x - p) * (x - p)).sum();
                (nf - 1.0) / nf * sum_sq / (p * (1.0 - p))
            }
            SampleTest::Pairs => {
                let pi = self.pairs.as_ref()?;
                let q = kf * (kf - 1.0) / (nf * (nf - 1.0));
                pairs::projected_norm(self.n, |i| pi[i] - q) / pairs::lambda2(self.n, self.k)
            }
            SampleTest::Subsets => {
                let pi = self.subsets.as_ref()?;
                let u = 1.0 / pi.len() as f64;
                pi.iter().map(|&x| (x - u) * (x - u)).sum::<f64>() / u
            }
            SampleTest::Order => {
                let rho = self.slots.as_ref()?;
                let sum_sq: f64 = rho
                    .chunks(self.n)
                    .flat_map(|row| {
                        row.iter()
                            .zip(&self.inclusion)
                            .map(|(&r, &pi)| (r - pi / kf) * (r - pi / kf))
                    })
                    .sum();
                (nf - 1.0) * sum_sq
            }
            SampleTest::Picks => {
                let w = weights?;
                let total: f64 = w.iter().map(|&x| x as f64).sum();
                w.iter()
                    .zip(&self.inclusion)
                    .filter(|&(&w, _)| w > 0)
                    .map(|(&w, &pi)| {
                        let q = w as f64 / total;
                        (pi - q) * (pi - q) / q
                    })
                    .sum()
            }
        })
    }
}

/// Degrees of freedom and number of cells of `test` on N = `n` items,
/// samples of `k` (the statistics' definitions): inclusion N−1 over N items;
/// pairs N(N−3)/2 over the N(N−1)/2 pairs; subsets C(N,k)−1 over the C(N,k)
/// subsets; order (k−1)(N−1) over the k × N slots; picks one less than the
/// items of positive weight.
pub(crate) fn df_and_cells(
    test: SampleTest,
    n: usize,
    k: usize,
    weights: Option<&[u64]>,
) -> (f64, f64) {
    let (nf, kf) = (n as f64, k as f64);
    match test {
        SampleTest::Inclusion => (nf - 1.0, nf),
        SampleTest::Pairs => (nf * (nf - 3.0) / 2.0, nf * (nf - 1.0) / 2.0),
        SampleTest::Subsets => {
            let cells = crate::stats::sampling::binomial(n, k).map_or(f64::INFINITY, |c| c as f64);
            (cells - 1.0, cells)
        }
        SampleTest::Order => ((kf - 1.0) * (nf - 1.0), kf * nf),
        SampleTest::Picks => {
            let positive = weights.map_or(0, |w| w.iter().filter(|&&x| x > 0).count()) as f64;
            (positive - 1.0, positive)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{self, Kind, Produced, Spec};
    use crate::engine::no_progress;
    use crate::sampler::{Sampler, Samplers, exact_pick_law, exact_subset_law};
    use crate::source::SourceSpec;

    fn spec(name: &str, n: usize, trials: u64, weights: Option<Vec<u64>>) -> Spec<Samplers> {
        let mut spec = Spec::new(
            Sampler::parse(name).unwrap(),
            n,
            trials,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            3,
        );
        spec.options.weights = weights;
        spec
    }

    fn run(spec: &Spec<Samplers>) -> SampleTally {
        Samplers::count(spec, spec.chunks(), &no_progress).unwrap()
    }

    fn evaluate(spec: &Spec<Samplers>, tally: SampleTally) -> audit::Audit<Samplers> {
        let produced = Produced { tally, feed: None };
        audit::evaluate(spec, produced, 0.0, 0.001).unwrap()
    }

    /// T·δ(c/T) is each test's own statistic, whenever the test runs: the
    /// δ formulas are the statistics' definitions.
    #[test]
    fn the_statistic_is_trials_times_delta_of_the_proportions() {
        for (name, n, weights) in [
            ("naive-swap-prefix:k=3", 6, None),
            ("reservoir-off-by-one:k=2", 7, None),
            ("floyd:k=1", 9, None),
            ("linear-probe:k=4", 5, None),
            ("weighted-off-by-one", 4, Some(vec![3, 5, 7, 9])),
        ] {
            let s = spec(name, n, 20_000, weights.clone());
            let tally = run(&s);
            let t = tally.trials() as f64;
            let counts = ExpectedCounts::of_tally(&tally);
            let audit = evaluate(&s, tally);
            assert!(!audit.tests.is_empty(), "{name}");
            for result in &audit.tests {
                let delta = counts.delta(result.test, weights.as_deref()).unwrap();
                let want = result.statistic;
                assert!(
                    (t * delta - want).abs() <= 1e-9 * want.max(1.0),
                    "{name} {}: T·δ = {} vs statistic {want}",
                    result.test,
                    t * delta
                );
                let (df, _) = df_and_cells(
                    result.test,
                    n,
                    s.subject.known_k().unwrap(),
                    s.options.weights.as_deref(),
                );
                assert_eq!(df, result.df, "{name} {}", result.test);
            }
        }
    }

    /// The exact law's expected counts are what a long run converges to,
    /// and a fair law has no effect on any test.
    #[test]
    fn exact_expected_counts_match_a_long_run_and_fair_laws_have_no_effect() {
        let s = spec("naive-swap-prefix:k=3", 6, 400_000, None);
        let tally = run(&s);
        let observed = ExpectedCounts::of_tally(&tally);
        let exact = ExpectedCounts::of_subset_law(
            &exact_subset_law(*s.subject.builtin().unwrap(), 6).unwrap(),
            &tally,
        );
        for (a, b) in [
            (&observed.inclusion, &exact.inclusion),
            (
                observed.pairs.as_ref().unwrap(),
                exact.pairs.as_ref().unwrap(),
            ),
            (
                observed.subsets.as_ref().unwrap(),
                exact.subsets.as_ref().unwrap(),
            ),
            (
                observed.slots.as_ref().unwrap(),
                exact.slots.as_ref().unwrap(),
            ),
        ] {
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(b) {
                assert!((x - y).abs() < 0.005, "{x} vs {y}");
            }
        }
        for test in [
            SampleTest::Inclusion,
            SampleTest::Pairs,
            SampleTest::Subsets,
            SampleTest::Order,
        ] {
            let d = exact.delta(test, None).unwrap();
            println!("naive-swap-prefix:k=3 N=6 {test}: δ = {d:.3e}");
            assert!(d > 1e-6, "{test}: {d}");
        }
        let fair = spec("partial-fisher-yates:k=3", 6, 1, None);
        let like = run(&fair);
        let law = ExpectedCounts::of_subset_law(
            &exact_subset_law(*fair.subject.builtin().unwrap(), 6).unwrap(),
            &like,
        );
        for test in [
            SampleTest::Inclusion,
            SampleTest::Pairs,
            SampleTest::Subsets,
            SampleTest::Order,
        ] {
            assert!(law.delta(test, None).unwrap() < 1e-25, "{test}");
        }
    }

    /// Hand computations: weighted-off-by-one on weights 3, 5, 7 draws
    /// uniform[1, 15], so π = (2, 5, 8)/15 against q = (3, 5, 7)/15:
    /// δ = (1/225)(15/3 + 15/7); systematic:k=2 at N = 10 puts 1/5 on each of
    /// five pairs {s, s+5}, so subsets δ = 45·(5·(8/45)² + 40/45²) = 8, and
    /// pairs the same (inclusion is fair, and λ₂ = q = 1/45 at k = 2).
    #[test]
    fn hand_computed_effects() {
        let w = [3u64, 5, 7];
        let sampler = Sampler::parse("weighted-off-by-one").unwrap();
        let law = ExpectedCounts::of_pick_law(&exact_pick_law(sampler, &w).unwrap());
        let want = (15.0 / 3.0 + 15.0 / 7.0) / 225.0;
        let got = law.delta(SampleTest::Picks, Some(&w)).unwrap();
        assert!((got - want).abs() < 1e-15, "{got} vs {want}");
        assert_eq!(law.impossible_rate(Some(&w)), 0.0);
        // With a zero last weight, the off-by-one draw W picks it: 1/8.
        let w = [3u64, 5, 0];
        let law = ExpectedCounts::of_pick_law(&exact_pick_law(sampler, &w).unwrap());
        assert!((law.impossible_rate(Some(&w)) - 0.125).abs() < 1e-15);

        let systematic = spec("systematic:k=2", 10, 1, None);
        let like = run(&systematic);
        let law = ExpectedCounts::of_subset_law(
            &exact_subset_law(*systematic.subject.builtin().unwrap(), 10).unwrap(),
            &like,
        );
        assert!(law.delta(SampleTest::Inclusion, None).unwrap() < 1e-25);
        for test in [SampleTest::Subsets, SampleTest::Pairs] {
            let d = law.delta(test, None).unwrap();
            assert!((d - 8.0).abs() < 1e-12, "{test}: {d}");
        }
    }
}
