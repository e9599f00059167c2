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
