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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Kind;
    use crate::custom::tests::failure;
    use crate::stats::Verdict;
    use rand::RngExt;

    /// Durstenfeld's shuffle: fair.
    fn durstenfeld(deck: &mut [u32], rng: &mut dyn rand::Rng) {
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.random_range(0..=i));
        }
    }

    /// The classic off-by-one: `0..i` never leaves a card where it is.
    fn off_by_one(deck: &mut [u32], rng: &mut dyn rand::Rng) {
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.random_range(0..i));
        }
    }

    /// The trials a function's audit of n items runs by default.
    fn default_trials(n: usize) -> u64 {
        let spec = CustomAudit::shuffle_fn("d", n, durstenfeld).spec().unwrap();
        Shuffles::default_trials(&spec, 1e-3)
    }

    #[test]
    fn a_correct_shuffle_passes_and_an_off_by_one_is_caught() {
        let fair = assert_fair("durstenfeld", 10, durstenfeld);
        assert_eq!(fair.spec().trials, default_trials(10));
        let caught = CustomAudit::shuffle_fn("off-by-one", 10, off_by_one);
        let (message, written) = failure(caught, "custom");
        assert!(message.contains("off-by-one is biased"), "{message}");
        assert!(message.contains("decisive test"), "{message}");
        assert!(message.contains("report.html") && written, "{message}");
    }

    #[test]
    fn a_small_run_is_inconclusive_and_says_how_many_trials_it_needs() {
        let small = CustomAudit::shuffle_fn("durstenfeld", 52, durstenfeld).trials(200);
        let (message, _) = failure(small, "custom-inconclusive");
        assert!(message.contains("durstenfeld is inconclusive"), "{message}");
        // The trials a verdict needs, in words and as the builder takes them.
        let needed: u64 = message
            .split_once(".trials(")
            .and_then(|(_, rest)| rest.split_once(')'))
            .and_then(|(t, _)| t.parse().ok())
            .unwrap_or_else(|| panic!("no .trials(N) in {message}"));
        assert!(needed > 200, "{message}");
        let shown = crate::format::thousands(needed);
        assert!(
            message.contains(&format!("{shown} trials would make it conclusive")),
            "{message}"
        );
    }

    #[test]
    fn a_shuffle_that_loses_a_card_is_an_error_not_a_verdict() {
        let broken = |deck: &mut [u32], _: &mut dyn rand::Rng| deck[0] = deck[1];
        let err = CustomAudit::shuffle_fn("broken", 5, broken)
            .trials(10)
            .run()
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("broken did not return a permutation: 1 appears twice"),
            "{err}"
        );
    }

    #[test]
    fn default_trials_are_those_the_docs_state() {
        assert_eq!(
            [default_trials(5), default_trials(10), default_trials(52)],
            [10_000, 18_500, 480_598]
        );
    }

    #[test]
    fn default_trials_catch_the_naive_swap_and_are_adequate() {
        let naive = |deck: &mut [u32], rng: &mut dyn rand::Rng| {
            let n = deck.len();
            for i in 0..n {
                deck.swap(i, rng.random_range(0..n));
            }
        };
        for n in [3usize, 10, 24] {
            let caught = CustomAudit::shuffle_fn("naive", n, naive)
                .seed(9)
                .run()
                .unwrap();
            assert_eq!(caught.verdict(), Verdict::Biased, "n = {n}");
            let fair = CustomAudit::shuffle_fn("d", n, durstenfeld)
                .seed(9)
                .run()
                .unwrap();
            assert!(
                fair.sensitivity().adequate(),
                "n = {n}: {:?}",
                fair.sensitivity()
            );
            assert_eq!(fair.verdict(), Verdict::NoBiasDetected, "n = {n}");
        }
    }
}
