//! Your own shuffle as a kind of [`CustomAudit`]: run on the engine like a
//! built-in algorithm.
//!
//! The default trial count ([`crate::audit::Kind::default_trials`]) catches
//! a bias the size of the naive swap's at n with 90% power, and is large
//! enough for "no bias detected" to mean something (a single
//! position-by-value cell off by 20% would be seen with 90% power); a run
//! that cannot say as much is inconclusive, and [`assert_fair`] fails on
//! it.

use super::{CustomAudit, Own};
use crate::audit::{Audit, Feed, Outside, Spec, Subject};
use crate::error::Result;
use crate::pacing::Progress;
use crate::shuffle::{FnShuffle, Reading, Shuffle, Shuffles, run_shuffle};
use crate::source::SourceSpec;
use crate::spec::TestSet;
use crate::tally::Tally;

/// Your shuffle of `n` items, as a [`CustomAudit`] runs it, with the tests
/// to run (default: every test that makes sense at n).
#[derive(Debug, Clone)]
pub struct OwnShuffle<T> {
    n: usize,
    shuffle: T,
    tests: Option<TestSet>,
}

impl<F> CustomAudit<OwnShuffle<FnShuffle<F>>>
where
    F: Fn(&mut [u32], &mut dyn rand::Rng) + Sync,
{
    /// An audit of `f`, a shuffle of `n` items written against `rand`'s
    /// generator trait, named `name` in messages and reports.
    pub fn shuffle_fn(name: &str, n: usize, f: F) -> Self {
        CustomAudit::shuffle(name, n, FnShuffle(f))
    }
}

impl<T: Shuffle> CustomAudit<OwnShuffle<T>> {
    /// An audit of `shuffle`, a shuffle of `n` items drawing through our
    /// [`crate::source::RandomSource`] (the trait form).
    pub fn shuffle(name: &str, n: usize, shuffle: T) -> Self {
        let own = OwnShuffle {
            n,
            shuffle,
            tests: None,
        };
        CustomAudit::new(name, own)
    }

    /// The tests to run (default: every test that makes sense at n).
    pub fn tests(mut self, tests: TestSet) -> Self {
        self.subject.tests = Some(tests);
        self
    }
}

impl<T: Shuffle> Own for OwnShuffle<T> {
    type Kind = Shuffles;

    fn spec(&self, name: &str) -> Spec<Shuffles> {
        let subject = Subject::Outside(Outside {
            name: name.to_string(),
            feed: Feed::Function,
            reading: Reading::default(),
        });
        let mut spec = Spec::<Shuffles>::new(subject, self.n, 0, SourceSpec::default(), 0);
        if let Some(tests) = &self.tests {
            spec.options.tests = tests.clone();
        }
        spec
    }

    fn count(&self, spec: &Spec<Shuffles>, progress: Progress<'_>) -> Result<Tally> {
        run_shuffle(spec, &self.shuffle, progress)
    }
}

/// Audits `f`, a shuffle of `n` items written against `rand`, with the
/// defaults (deterministic seed, the default trials for n, every test that
/// makes sense at n, α = 0.001), and panics unless no bias was detected by
/// a run large enough to have seen one. For `cargo test`.
pub fn assert_fair<F>(name: &str, n: usize, f: F) -> Audit<Shuffles>
where
    F: Fn(&mut [u32], &mut dyn rand::Rng) + Sync,
{
    CustomAudit::shuffle_fn(name, n, f).assert_fair()
}
