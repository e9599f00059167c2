//! Your own shuffle as a kind of [`CustomAudit`]: run on the engine like a
//! built-in algorithm.
//!
//! The default trial count (see [`default_trials`]) catches a bias the size
//! of the naive swap's at n with 90% power, and is large enough for "no bias
//! detected" to mean something (a single position-by-value cell off by 20%
//! would be seen with 90% power); a run that cannot say as much is
//! inconclusive, and [`assert_fair`] fails on it.

use super::{CustomAudit, Own};
use crate::algorithm::Algorithm;
use crate::audit::{self, Audit};
use crate::engine::{RunSpec, no_progress};
use crate::error::Result;
use crate::findings::deviation_words;
use crate::power::{self, exact_effect};
use crate::source::SourceKind;
use crate::spec::{TestKind, TestSet};
use crate::stats::Verdict;
use crate::stats::sensitivity::{SENSITIVITY_POWER, adequate_trials};
use crate::subject::{Feed, FnShuffle, Outside, Shuffle, Subject};
use std::path::{Path, PathBuf};

/// Fewest trials a default run makes, whatever the plans say.
pub const MIN_DEFAULT_TRIALS: u64 = 10_000;

/// Your shuffle of `n` items, as a [`CustomAudit`] runs it, with the tests
/// to run (default: every test that makes sense at n).
#[derive(Debug, Clone)]
pub struct OwnShuffle<T> {
    n: usize,
    shuffle: T,
    tests: Option<TestSet>,
}

impl Audit {
    /// An audit of `f`, a shuffle of `n` items written against `rand`'s
    /// generator trait, named `name` in messages and reports.
    pub fn of_fn<F>(name: &str, n: usize, f: F) -> CustomAudit<OwnShuffle<FnShuffle<F>>>
    where
        F: Fn(&mut [u32], &mut dyn rand::Rng) + Sync,
    {
        Audit::of_shuffle(name, n, FnShuffle(f))
    }

    /// An audit of `shuffle`, a shuffle of `n` items drawing through our
    /// [`crate::source::RandomSource`] (the trait form).
    pub fn of_shuffle<T: Shuffle>(name: &str, n: usize, shuffle: T) -> CustomAudit<OwnShuffle<T>> {
        CustomAudit::new(
            name,
            OwnShuffle {
                n,
                shuffle,
                tests: None,
            },
        )
    }
}

impl<T: Shuffle> CustomAudit<OwnShuffle<T>> {
    /// The tests to run (default: every test that makes sense at n).
    pub fn tests(mut self, tests: TestSet) -> Self {
        self.subject.tests = Some(tests);
        self
    }

    /// The run this audit makes.
    pub fn spec(&self) -> RunSpec {
        let n = self.subject.n;
        let tests = (self.subject.tests.clone()).unwrap_or_else(|| TestSet::default_for(n));
        let trials = self
            .trials
            .unwrap_or_else(|| default_trials(n, &tests, self.alpha));
        RunSpec {
            threads: self.threads,
            tests,
            ..RunSpec::new(
                Subject::Outside(Outside {
                    name: self.name.clone(),
                    feed: Feed::Function,
                    order: None,
                    categories: None,
                }),
                n,
                trials,
                self.source,
                self.seed,
            )
        }
    }
}

impl<T: Shuffle> Own for OwnShuffle<T> {
    type Audit = Audit;

    fn run(custom: &CustomAudit<Self>) -> Result<Audit> {
        let spec = custom.spec();
        let shuffle = &custom.subject.shuffle;
        audit::run_shuffle(&spec, shuffle, custom.alpha, &no_progress)
    }

    fn failure_message(audit: &Audit) -> String {
        failure_message(audit)
    }

    fn write_report(audit: &Audit, dir: &Path) -> Result<PathBuf> {
        audit.write_report(dir)
    }
}

/// Audits `f`, a shuffle of `n` items written against `rand`, with the
/// defaults (deterministic seed, [`default_trials`], every test that makes
/// sense at n, α = 0.001), and panics unless no bias was detected by a run
/// large enough to have seen one. For `cargo test`.
pub fn assert_fair<F>(name: &str, n: usize, f: F) -> Audit
where
    F: Fn(&mut [u32], &mut dyn rand::Rng) + Sync,
{
    Audit::of_fn(name, n, f).assert_fair()
}

/// The trials a default audit of n items runs with `tests` at `alpha`: the
/// larger of (a) what catches a bias as large as the naive swap's at n
/// (`swap(a[i], a[uniform[0, n-1]])`, whose exact marginals are known) with
/// 90% power on the position-by-value test, (b) what makes "no bias
/// detected" adequate (a 20% single-cell deviation seen with 90% power; see
/// [`adequate_trials`]), and (c) [`MIN_DEFAULT_TRIALS`]. Each figure is at
/// α / (number of tests), the level the verdict holds each test to. At
/// α = 0.001 this is 10,000 trials at n = 5, 18,500 at n = 10 and 480,598
/// at n = 52: (b) decides, since the naive swap's bias is caught with far
/// fewer.
pub fn default_trials(n: usize, tests: &TestSet, alpha: f64) -> u64 {
    let level = alpha / tests.iter().count().max(1) as f64;
    let naive = exact_effect(
        Algorithm::NaiveSwap,
        n,
        SourceKind::Chacha8.into(),
        TestKind::PositionValue,
    )
    .ok()
    .flatten()
    .and_then(|effect| power::plan(effect, level, SENSITIVITY_POWER).ok())
    .map_or(0, |plan| plan.trials);
    naive.max(adequate_trials(n, level)).max(MIN_DEFAULT_TRIALS)
}

/// Why an audit is not "no bias detected", in a few lines.
fn failure_message(audit: &Audit) -> String {
    let decisive = audit.decisive();
    let head = format!(
        "{} is {} (n = {}, {} trials, seed {})",
        audit.spec.subject, audit.verdict, audit.spec.n, audit.spec.trials, audit.spec.seed
    );
    match audit.verdict {
        Verdict::Inconclusive => {
            let why = audit.sensitivity.inconclusive.clone().unwrap_or_default();
            let needed = audit
                .sensitivity
                .trials_needed
                .unwrap_or_else(|| adequate_trials(audit.spec.n, audit.sensitivity.level));
            format!("{head}: {why}; run at least {needed} trials (.trials({needed})) for a verdict")
        }
        Verdict::Biased | Verdict::NoBiasDetected => format!(
            "{head}: decisive test {}, p (adjusted) {}; {}",
            decisive.test.title(),
            crate::output::format_p(audit.log10_p_adjusted),
            deviation_words(audit)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    fn durstenfeld(deck: &mut [u32], rng: &mut dyn rand::Rng) {
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.random_range(0..=i));
        }
    }

    fn off_by_one(deck: &mut [u32], rng: &mut dyn rand::Rng) {
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.random_range(0..i));
        }
    }

    #[test]
    fn a_correct_shuffle_passes_and_an_off_by_one_is_caught() {
        let fair = assert_fair("durstenfeld", 10, durstenfeld);
        assert_eq!(
            fair.spec.trials,
            default_trials(10, &TestSet::default_for(10), 1e-3)
        );
        let dir = std::env::temp_dir().join(format!("sa-custom-{}", std::process::id()));
        let caught = std::panic::catch_unwind(|| {
            Audit::of_fn("off-by-one", 10, off_by_one)
                .report_dir(&dir)
                .assert_fair()
        });
        let message = *caught.unwrap_err().downcast::<String>().unwrap();
        assert!(message.contains("off-by-one is biased"), "{message}");
        assert!(message.contains("decisive test"), "{message}");
        assert!(message.contains("report.html"), "{message}");
        assert!(dir.join("report.html").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_small_run_is_inconclusive_and_says_how_many_trials_it_needs() {
        let caught = std::panic::catch_unwind(|| {
            Audit::of_fn("durstenfeld", 52, durstenfeld)
                .trials(200)
                .report_dir(std::env::temp_dir().join("sa-custom-inconclusive"))
                .assert_fair()
        });
        let message = *caught.unwrap_err().downcast::<String>().unwrap();
        assert!(message.contains("inconclusive"), "{message}");
        assert!(message.contains("run at least"), "{message}");
        let _ = std::fs::remove_dir_all(std::env::temp_dir().join("sa-custom-inconclusive"));
    }

    #[test]
    fn the_same_seed_gives_the_same_counts_on_any_thread_count() {
        let run = |threads| {
            Audit::of_fn("d", 6, durstenfeld)
                .trials(100_000)
                .threads(threads)
                .run()
                .unwrap()
                .tally
        };
        assert_eq!(run(1), run(2));
    }

    #[test]
    fn a_shuffle_that_loses_a_card_is_an_error_not_a_verdict() {
        let broken = |deck: &mut [u32], _: &mut dyn rand::Rng| deck[0] = deck[1];
        let err = Audit::of_fn("broken", 5, broken)
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
        let at = |n| default_trials(n, &TestSet::default_for(n), 1e-3);
        assert_eq!([at(5), at(10), at(52)], [10_000, 18_500, 480_598]);
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
            let caught = Audit::of_fn("naive", n, naive).seed(9).run().unwrap();
            assert_eq!(caught.verdict, Verdict::Biased, "n = {n}");
            let fair = Audit::of_fn("d", n, durstenfeld).seed(9).run().unwrap();
            assert!(
                fair.sensitivity.adequate(),
                "n = {n}: {:?}",
                fair.sensitivity
            );
            assert_eq!(fair.verdict, Verdict::NoBiasDetected, "n = {n}");
        }
    }
}
