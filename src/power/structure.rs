//! Exact laws of the structure tests' categories under a biased shuffle, and
//! the non-centrality their pooled goodness-of-fit tests see.
//!
//! The structure tests (fixed points, cycles, rising sequences, Lehmer
//! digits and digit pairs) pool sparse categories until every group expects
//! at least 5 counts, so their df and non-centrality depend on the trial
//! count; [`Components::effect_at`] mirrors that pooling.

use crate::algorithm::{Algorithm, StepKind};
use crate::exact::{DrawLaw, ExactLaw};
use crate::permutation::{Statistic, StatisticScratch, lehmer_digits};
use crate::source::SourceSpec;
use crate::spec::TestKind;
use crate::stats::gof;
use crate::tally::{StructureCounts, lehmer_pairs};

/// The laws of every structure statistic under one shuffle algorithm: what
/// the structure tests compare with the uniform shuffle's laws.
#[derive(Debug, Clone, PartialEq)]
pub struct StructureLaws {
    /// n.
    pub n: usize,
    /// P(k fixed points), k = 0..=n.
    pub fixed_points: Vec<f64>,
    /// P(k cycles), k = 0..=n.
    pub cycles: Vec<f64>,
    /// P(r rising sequences), r = 0..=n.
    pub rising: Vec<f64>,
    /// P(k neighbours kept side by side), k = 0..=n (clumping).
    pub clumping: Vec<f64>,
    /// `lehmer[i][d]`: P(Lehmer digit i = d), d = 0..=i.
    pub lehmer: Vec<Vec<f64>>,
    /// For each pair (i, i+1) of `lehmer_pairs`: `(i, joint)`, joint
    /// indexed `a * (i + 2) + b`.
    pub pairs: Vec<(usize, Vec<f64>)>,
}

impl StructureLaws {
    /// The laws of an exact law over permutations (one pass over its
    /// support).
    pub fn of_law(law: &ExactLaw) -> Self {
        let n = law.n();
        let histogram = |statistic: Statistic| vec![0.0; statistic.support(n)];
        let mut s = Self {
            n,
            fixed_points: histogram(Statistic::FixedPoints),
            cycles: histogram(Statistic::Cycles),
            rising: histogram(Statistic::RisingSequences),
            clumping: histogram(Statistic::Clumping),
            lehmer: (0..n).map(|i| vec![0.0; i + 1]).collect(),
            pairs: lehmer_pairs(n)
                .into_iter()
                .map(|f| (f, vec![0.0; (f + 1) * (f + 2)]))
                .collect(),
        };
        let mut scratch = StatisticScratch::default();
        let (mut digits, mut tree) = (Vec::new(), Vec::new());
        for (perm, p) in law.iter_f64() {
            for statistic in Statistic::STRUCTURE {
                let value = statistic.value(perm, &mut scratch);
                if let Some(law) = s.law_mut(statistic) {
                    law[value] += p;
                }
            }
            lehmer_digits(perm, &mut digits, &mut tree);
            for (i, &d) in digits.iter().enumerate() {
                s.lehmer[i][d as usize] += p;
            }
            for (f, joint) in &mut s.pairs {
                let (a, b) = (digits[*f] as usize, digits[*f + 1] as usize);
                joint[a * (*f + 2) + b] += p;
            }
        }
        s
    }

    /// The observed proportions of an audit's structure counts over `trials`
    /// trials: an estimate of the laws, for tests whose exact law is out of
    /// reach. Parts the audit did not count are empty.
    pub fn of_counts(counts: &StructureCounts, n: usize, trials: u64) -> Self {
        let t = trials.max(1) as f64;
        let p = |c: &[u64]| c.iter().map(|&x| x as f64 / t).collect::<Vec<f64>>();
        Self {
            n,
            fixed_points: p(&counts.fixed_points),
            cycles: p(&counts.cycles),
            rising: p(&counts.rising),
            clumping: p(&counts.clumping),
            lehmer: (0..n)
                .map(|i| p(counts.lehmer.get(i * n..i * n + i + 1).unwrap_or_default()))
                .collect(),
            pairs: counts
                .pairs
                .iter()
                .map(|pc| (pc.first, p(&pc.counts)))
                .collect(),
        }
    }

    /// The law of `statistic` by value, or `None` for
    /// [`Statistic::Permutation`] (the law itself).
    pub fn law(&self, statistic: Statistic) -> Option<&[f64]> {
        statistic
            .structure_entry([
                &self.fixed_points,
                &self.cycles,
                &self.rising,
                &self.clumping,
            ])
            .map(Vec::as_slice)
    }

    /// The law of `statistic`, to add into.
    fn law_mut(&mut self, statistic: Statistic) -> Option<&mut [f64]> {
        let entries = [
            &mut self.fixed_points,
            &mut self.cycles,
            &mut self.rising,
            &mut self.clumping,
        ];
        statistic.structure_entry(entries).map(Vec::as_mut_slice)
    }

    /// The (null, alternative) components of `test`, or `None` for a test
    /// that is not a structure test.
    pub(crate) fn components(&self, test: TestKind) -> Option<Components> {
        let n = self.n;
        let parts = match test {
            TestKind::FixedPoints
            | TestKind::Cycles
            | TestKind::RisingSequences
            | TestKind::Clumping => {
                let statistic = test.statistic()?;
                vec![(statistic.uniform_law(n), self.law(statistic)?.to_vec())]
            }
            // Counted in bins (above `spec::LARGE_N`): no per-digit law.
            TestKind::Lehmer if self.lehmer.iter().any(Vec::is_empty) => return None,
            TestKind::Lehmer => (1..n)
                .map(|i| (vec![1.0 / (i + 1) as f64; i + 1], self.lehmer[i].clone()))
                .collect(),
            TestKind::LehmerPairs => self
                .pairs
                .iter()
                .map(|(_, joint)| (vec![1.0 / joint.len() as f64; joint.len()], joint.clone()))
                .collect(),
            _ => return None,
        };
        Some(Components(parts))
    }
}

/// The law of the number of rising sequences after `k` Gilbert–Shannon–Reeds
/// riffles of n cards with ideal draws, r = 0..=n, from Bayer and Diaconis
/// (1992): P(π) = C(2^k + n − r, n) / 2^(nk) for a permutation with r rising
/// sequences, so P(r) = P_uniform(r) · Π_{j=1..n} (1 + (j − r)/2^k).
/// Cheap at any n; `None` unless `algorithm` is a riffle and `source` draws
/// ideally.
pub fn riffle_rising_law(algorithm: Algorithm, n: usize, source: SourceSpec) -> Option<Vec<f64>> {
    if algorithm.record().steps != Some(StepKind::Riffles) {
        return None;
    }
    let k = algorithm.step_count(n)?;
    if DrawLaw::of(&source).ok()? != DrawLaw::Ideal {
        return None;
    }
    let big = 2f64.powi(k as i32);
    let uniform = Statistic::RisingSequences.uniform_law(n);
    Some(
        uniform
            .iter()
            .enumerate()
            .map(|(r, &p0)| {
                let ratio: f64 = (1..=n)
                    .map(|j| (1.0 + (j as f64 - r as f64) / big).max(0.0))
                    .product();
                p0 * ratio
            })
            .collect(),
    )
}

/// Independent goodness-of-fit parts of one test (one for most tests; one
/// per digit or digit pair for the Lehmer tests), each as (null law, true
/// law) over the same categories.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Components(pub Vec<(Vec<f64>, Vec<f64>)>);

impl Components {
    /// (δ, df) of the summed Pearson statistics at `trials` trials, after
    /// pooling each part's categories in order until every group expects at
    /// least [`gof::MIN_EXPECTED`] counts under the null (as
    /// `stats::gof::chi_square` does): δ = Σ (p − q)²/q over the groups.
    pub fn effect_at(&self, trials: f64) -> (f64, f64) {
        let (mut delta, mut df) = (0.0, 0.0);
        for (null, alt) in &self.0 {
            let groups =
                gof::pool_neighbours(null.iter().copied().zip(alt.iter().copied()), trials);
            delta += groups
                .iter()
                .filter(|g| g.0 > 0.0)
                .map(|&(q, p)| (p - q) * (p - q) / q)
                .sum::<f64>();
            df += groups.len().saturating_sub(1) as f64;
        }
        (delta, df)
    }

    /// The level the summed statistic's law must reach at `trials` for the
    /// test to reject at `level` ([`gof::level_reached`]): a single table is
    /// judged by `stats::gof::chi_square`, whose untrusted tails carry a
    /// margin; parts summed are judged by their law alone.
    pub fn level_reached(&self, level: f64, trials: u64) -> f64 {
        match self.0.as_slice() {
            [(null, alt)] => {
                let groups: Vec<f64> = gof::pool_neighbours(
                    null.iter().copied().zip(alt.iter().copied()),
                    trials as f64,
                )
                .iter()
                .map(|g| g.0)
                .collect();
                gof::level_reached(level, &groups, trials)
            }
            _ => level,
        }
    }

    /// The fewest trials at which every part has at least two groups after
    /// pooling, i.e. the test has a chi-square form at all (it pools to keep
    /// 5 expected per group by itself).
    pub fn approximation_trials(&self) -> u64 {
        let parts = self.0.len() as f64;
        let ok = |t: f64| self.effect_at(t).1 >= parts;
        let mut hi = 1.0f64;
        while !ok(hi) {
            hi *= 2.0;
            if hi > 1e18 {
                return u64::MAX;
            }
        }
        let mut lo = (hi / 2.0).floor();
        while hi - lo > 1.0 {
            let mid = ((lo + hi) / 2.0).floor();
            if ok(mid) { hi = mid } else { lo = mid }
        }
        hi as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact;
    use crate::source::SourceKind;

    #[test]
    fn the_riffle_formula_matches_enumeration() {
        for (n, k) in [(5, 1), (5, 2), (4, 2), (3, 3)] {
            let alg = Algorithm::Riffle { k, cut: false };
            let src: SourceSpec = SourceKind::Chacha8.into();
            let law = exact::enumerate(alg, n, src, 50_000_000).unwrap();
            let brute = StructureLaws::of_law(&law).rising;
            let formula = riffle_rising_law(alg, n, src).unwrap();
            for (a, b) in brute.iter().zip(&formula) {
                assert!(
                    (a - b).abs() < 1e-12,
                    "n={n} k={k}: {brute:?} vs {formula:?}"
                );
            }
        }
        assert!(
            riffle_rising_law(
                Algorithm::Riffle { k: 2, cut: false },
                5,
                SourceKind::Rand15Mod.into()
            )
            .is_none()
        );
    }

    #[test]
    fn a_uniform_law_has_no_structure_effect_and_pooling_merges_the_tail() {
        let law = exact::enumerate(
            Algorithm::FisherYates,
            6,
            SourceKind::Chacha8.into(),
            1_000_000,
        )
        .unwrap();
        let s = StructureLaws::of_law(&law);
        for test in [
            TestKind::FixedPoints,
            TestKind::Cycles,
            TestKind::RisingSequences,
            TestKind::Lehmer,
            TestKind::LehmerPairs,
        ] {
            let (delta, df) = s.components(test).unwrap().effect_at(1e4);
            assert!(delta < 1e-12, "{test}: {delta}");
            assert!(df >= 1.0, "{test}");
        }
        // Fixed points at n = 6 and 100 trials: P(6) = 1/720, P(4) = 1/48,
        // P(5) = 0 pool into their neighbours.
        let (_, df) = s
            .components(TestKind::FixedPoints)
            .unwrap()
            .effect_at(100.0);
        assert!(df < 6.0, "{df}");
    }
}
