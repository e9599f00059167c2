//! Your own sampler as a kind of [`CustomAudit`]: k distinct items of
//! `0..n` per sample (in the order drawn, when the order matters), or one
//! item per weighted pick, run on the engine like a built-in sampler.
//!
//! The default sample count ([`crate::audit::Kind::default_trials`]) is
//! what makes "no bias detected" mean something: a 20% deviation of the
//! hardest item's probability (k/N, or the rarest weight's share) seen with
//! 90% power; a run that cannot say as much is inconclusive, and
//! [`assert_fair_sample`] fails on it.

use super::{CustomAudit, Own};
use crate::audit::{Audit, Feed, Outside, Spec, Subject};
use crate::error::Result;
use crate::ingest::samples::{Base, SampleKind};
use crate::pacing::Progress;
use crate::sampler::tally::SampleTally;
use crate::sampler::{FnPicker, FnSampler, Reading, Sample, Samplers, run_sampler};
use crate::source::SourceSpec;

/// Your sampler, as a [`CustomAudit`] runs it: what it draws from how many
/// items, and its code.
#[derive(Debug, Clone)]
pub struct OwnSampler<T> {
    n: usize,
    k: usize,
    kind: SampleKind,
    weights: Option<Vec<u64>>,
    sampler: T,
}

impl<F> CustomAudit<OwnSampler<FnSampler<F>>>
where
    F: Fn(&mut dyn rand::Rng) -> Vec<u32> + Sync,
{
    /// An audit of `f`, a sampler of `k` distinct items of `0..n` written
    /// against `rand`'s generator trait, named `name` in messages and
    /// reports. The order of a sample does not matter unless
    /// [`ordered`](CustomAudit::ordered) is asked for.
    pub fn sample_fn(name: &str, n: usize, k: usize, f: F) -> Self {
        CustomAudit::sampler(name, n, k, FnSampler(f))
    }
}

impl<F> CustomAudit<OwnSampler<FnPicker<F>>>
where
    F: Fn(&mut dyn rand::Rng) -> u32 + Sync,
{
    /// An audit of `f`, a weighted pick of one item of `0..weights.len()`
    /// that should pick item i with probability `weights[i] / Σ weights`.
    pub fn picks_fn(name: &str, weights: &[u64], f: F) -> Self {
        let own = OwnSampler {
            n: weights.len(),
            k: 1,
            kind: SampleKind::Pick,
            weights: Some(weights.to_vec()),
            sampler: FnPicker(f),
        };
        CustomAudit::new(name, own)
    }
}

impl<T: Sample> CustomAudit<OwnSampler<T>> {
    /// An audit of `sampler`, k of `0..n` drawing through our
    /// [`crate::source::RandomSource`] (the trait form).
    pub fn sampler(name: &str, n: usize, k: usize, sampler: T) -> Self {
        let own = OwnSampler {
            n,
            k,
            kind: SampleKind::Sample,
            weights: None,
            sampler,
        };
        CustomAudit::new(name, own)
    }

    /// The order of a sample matters (a draw for seats, a ranked list):
    /// which item comes at which slot is tested too. No effect on a pick.
    pub fn ordered(mut self) -> Self {
        if self.subject.kind == SampleKind::Sample {
            self.subject.kind = SampleKind::Ordered;
        }
        self
    }
}

impl<T: Sample> Own for OwnSampler<T> {
    type Kind = Samplers;

    fn spec(&self, name: &str) -> Spec<Samplers> {
        let subject = Subject::Outside(Outside {
            name: name.to_string(),
            feed: Feed::Function,
            reading: Reading {
                kind: self.kind,
                base: Some(Base::Zero),
                k: Some(self.k),
            },
        });
        let mut spec = Spec::<Samplers>::new(subject, self.n, 0, SourceSpec::default(), 0);
        spec.options.weights = self.weights.clone();
        spec
    }

    fn count(&self, spec: &Spec<Samplers>, progress: Progress<'_>) -> Result<SampleTally> {
        run_sampler(spec, self.k, &self.sampler, progress)
    }
}

/// Audits `f`, a sampler of `k` distinct items of `0..n` written against
/// `rand`, with the defaults (deterministic seed, the default samples for a
/// verdict, α = 0.001), and panics unless no bias was detected by a run
/// large enough to have seen one. For `cargo test`.
pub fn assert_fair_sample<F>(name: &str, n: usize, k: usize, f: F) -> Audit<Samplers>
where
    F: Fn(&mut dyn rand::Rng) -> Vec<u32> + Sync,
{
    CustomAudit::sample_fn(name, n, k, f).assert_fair()
}

/// Audits `f`, a weighted pick that should pick item i of
/// `0..weights.len()` with probability `weights[i] / Σ weights`, with the
/// defaults, and panics unless no bias was detected by a run large enough
/// to have seen one. For `cargo test`.
pub fn assert_fair_picks<F>(name: &str, weights: &[u64], f: F) -> Audit<Samplers>
where
    F: Fn(&mut dyn rand::Rng) -> u32 + Sync,
{
    CustomAudit::picks_fn(name, weights, f).assert_fair()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Kind;
    use crate::custom::tests::failure;
    use crate::sampler::{SampleTest, adequate_trials};
    use crate::stats::Verdict;
    use rand::RngExt;

    /// k of n (3 of 10, or any) by a partial Fisher–Yates: fair.
    fn partial_fy(n: u32, k: usize) -> impl Fn(&mut dyn rand::Rng) -> Vec<u32> + Sync {
        move |rng| {
            let mut items: Vec<u32> = (0..n).collect();
            for i in 0..k {
                let j = rng.random_range(i..n as usize);
                items.swap(i, j);
            }
            items.truncate(k);
            items
        }
    }

    /// The samples a function's audit of k of n runs by default.
    fn default_trials(n: usize, k: usize) -> u64 {
        let audit = CustomAudit::sample_fn("fy", n, k, partial_fy(n as u32, k));
        Samplers::default_trials(&audit.spec().unwrap(), 1e-3)
    }

    #[test]
    fn a_fair_sampler_passes_and_a_biased_one_is_caught() {
        let fair = assert_fair_sample("partial-fy", 10, 3, partial_fy(10, 3));
        assert_eq!(fair.trials(), default_trials(10, 3));
        assert!(fair.sensitivity().adequate(), "{:?}", fair.sensitivity());
        // Off by one: the last item is never drawn.
        let caught = CustomAudit::sample_fn("off-by-one", 10, 3, partial_fy(9, 3));
        let (message, written) = failure(caught, "custom-sample");
        assert!(message.contains("off-by-one is biased"), "{message}");
        assert!(message.contains("decisive test inclusion"), "{message}");
        assert!(
            message.contains("item 9 never drawn") && written,
            "{message}"
        );
    }

    #[test]
    fn a_sampler_fair_in_inclusion_but_not_in_pairs_is_caught_by_pairs_and_subsets() {
        let window = |rng: &mut dyn rand::Rng| {
            let start = rng.random_range(0..10u32);
            (0..3).map(|i| (start + i) % 10).collect()
        };
        let audit = CustomAudit::sample_fn("window", 10, 3, window)
            .run()
            .unwrap();
        assert_eq!(audit.verdict(), Verdict::Biased);
        let seen: Vec<SampleTest> = audit.seen_by().iter().map(|t| t.test).collect();
        assert!(
            seen.contains(&SampleTest::Pairs) && seen.contains(&SampleTest::Subsets),
            "{seen:?}"
        );
        let inclusion = audit.test(SampleTest::Inclusion);
        assert!(inclusion.unwrap().log10_p > -2.0, "{inclusion:?}");
    }

    #[test]
    fn ordered_samples_are_tested_slot_by_slot() {
        // Sorted output: fair as a set, biased as an order.
        let sorted = |rng: &mut dyn rand::Rng| {
            let mut s = partial_fy(10, 3)(rng);
            s.sort_unstable();
            s
        };
        let unordered = CustomAudit::sample_fn("sorted", 10, 3, sorted)
            .run()
            .unwrap();
        assert_eq!(unordered.verdict(), Verdict::NoBiasDetected);
        let ordered = CustomAudit::sample_fn("sorted", 10, 3, sorted)
            .ordered()
            .run()
            .unwrap();
        assert_eq!(ordered.verdict(), Verdict::Biased);
        assert_eq!(ordered.decisive().unwrap().test, SampleTest::Order);
    }

    #[test]
    fn weighted_picks_are_checked_against_their_weights() {
        let weights = [1u64, 2, 3, 4];
        let total: u64 = weights.iter().sum();
        let pick = move |rng: &mut dyn rand::Rng| {
            let mut r = rng.random_range(0..total);
            for (i, &w) in weights.iter().enumerate() {
                if r < w {
                    return i as u32;
                }
                r -= w;
            }
            unreachable!()
        };
        let fair = assert_fair_picks("cumulative", &weights, pick);
        assert_eq!(fair.tests()[0].test, SampleTest::Picks);
        // Off by one: `random_range(0..total - 1)` starves the last item.
        let short = move |rng: &mut dyn rand::Rng| {
            let r = rng.random_range(0..total - 1);
            (0..4).find(|&i| r < weights[..=i].iter().sum()).unwrap() as u32
        };
        let audit = CustomAudit::picks_fn("short", &weights, short)
            .run()
            .unwrap();
        assert_eq!(audit.verdict(), Verdict::Biased);
    }

    #[test]
    fn a_small_run_is_inconclusive_and_says_how_many_samples_it_needs() {
        let small = CustomAudit::sample_fn("partial-fy", 10, 3, partial_fy(10, 3)).trials(300);
        let (message, _) = failure(small, "custom-sample-inconclusive");
        assert!(message.contains("is inconclusive"), "{message}");
        assert!(message.contains("could see only"), "{message}");
        // Each of the 3 tests (inclusion, pairs, subsets) is held to α/3.
        let needed = adequate_trials(10, 3, None, 1e-3 / 3.0);
        assert!(needed > 300, "{needed}");
        assert!(message.contains(&format!(".trials({needed})")), "{message}");
        let shown = crate::format::thousands(needed);
        assert!(
            message.contains(&format!("about {shown} samples would make it conclusive")),
            "{message}"
        );
    }

    #[test]
    fn the_planned_samples_make_the_verdict_adequate() {
        for (n, k) in [(10, 3), (49, 6), (100, 1), (20, 10)] {
            let trials = default_trials(n, k);
            let audit = CustomAudit::sample_fn("fy", n, k, partial_fy(n as u32, k))
                .seed(4)
                .run()
                .unwrap();
            assert_eq!(audit.trials(), trials);
            assert!(
                audit.sensitivity().adequate(),
                "{n} {k}: {trials} {:?}",
                audit.sensitivity()
            );
        }
    }

    #[test]
    fn a_sampler_that_breaks_its_contract_is_an_error_not_a_verdict() {
        type Draw = fn(&mut dyn rand::Rng) -> Vec<u32>;
        let cases: [(&str, Draw, &str); 3] = [
            ("twice", |_| vec![1, 1, 2], "1 appears twice"),
            ("short", |_| vec![1, 2], "it returned 2 items"),
            ("wide", |_| vec![1, 2, 10], "10 is not in 0..10"),
        ];
        for (name, f, why) in cases {
            let err = CustomAudit::sample_fn(name, 10, 3, f)
                .trials(10)
                .run()
                .unwrap_err();
            let want =
                format!("{name} did not return a sample of k = 3 distinct items of 0..10: {why}");
            assert_eq!(err.to_string(), want);
            assert_eq!(err.kind(), crate::ErrorKind::BadInput);
        }
        let err = CustomAudit::sample_fn("k0", 10, 0, |_| Vec::new())
            .run()
            .unwrap_err();
        assert!(err.to_string().contains("k = 0 is not in 1..=10"), "{err}");
    }
}
