//! Audits of your own shuffle or sampler from Rust, for `cargo test`: the
//! same engine, tests, verdicts and reports as a built-in one,
//! deterministic by default so that a test never flakes.
//!
//! ```
//! use rand::RngExt;
//! use shuffle_audit::{CustomAudit, Verdict};
//!
//! // A correct Durstenfeld shuffle, written against `rand`.
//! fn my_shuffle(deck: &mut [u32], rng: &mut dyn rand::Rng) {
//!     for i in (1..deck.len()).rev() {
//!         deck.swap(i, rng.random_range(0..=i));
//!     }
//! }
//! shuffle_audit::assert_fair("my-shuffle", 10, my_shuffle);
//!
//! // The classic off-by-one: `0..i` never leaves a card where it is.
//! let off_by_one = |deck: &mut [u32], rng: &mut dyn rand::Rng| {
//!     for i in (1..deck.len()).rev() {
//!         deck.swap(i, rng.random_range(0..i));
//!     }
//! };
//! let audit = CustomAudit::shuffle_fn("off-by-one", 10, off_by_one).run().unwrap();
//! assert_eq!(audit.verdict(), Verdict::Biased);
//! ```
//!
//! A sampler is audited the same way ([`assert_fair_sample`],
//! [`assert_fair_picks`], [`CustomAudit::sample_fn`]):
//!
//! ```
//! use rand::RngExt;
//! use shuffle_audit::{CustomAudit, Verdict};
//!
//! // 3 of 10 by a partial Fisher–Yates: fair.
//! shuffle_audit::assert_fair_sample("partial-fy", 10, 3, |rng| {
//!     let mut items: Vec<u32> = (0..10).collect();
//!     for i in 0..3 {
//!         let j = rng.random_range(i..10);
//!         items.swap(i, j);
//!     }
//!     items.truncate(3);
//!     items
//! });
//!
//! // "Pick a start, take the next 3": every item is drawn 3 times in 10,
//! // but items 0 and 5 are never drawn together.
//! let window = |rng: &mut dyn rand::Rng| {
//!     let start = rng.random_range(0..10u32);
//!     (0..3).map(|i| (start + i) % 10).collect()
//! };
//! let audit = CustomAudit::sample_fn("window", 10, 3, window).run().unwrap();
//! assert_eq!(audit.verdict(), Verdict::Biased);
//! ```
//!
//! One builder, [`CustomAudit`], serves every kind of subject: its
//! settings (trials, seed, α, source, threads, where a failing run's report
//! goes), its run and [`CustomAudit::assert_fair`] are written once, and
//! each kind adds only how its code runs ([`Own`]).

mod sample;
mod shuffle;

pub use sample::{OwnSampler, assert_fair_picks, assert_fair_sample};
pub use shuffle::{OwnShuffle, assert_fair};

use crate::audit::{self, Audit, DEFAULT_ALPHA, DEFAULT_SEED, Kind, Produced, Spec, slug_of};
use crate::error::{Front, Result};
use crate::pacing::{Progress, no_progress};
use crate::report::Provenance;
use crate::report::provenance::RunStart;
use crate::source::{SourceKind, SourceSpec};
use crate::stats::Verdict;
use std::path::{Path, PathBuf};

/// An audit of a user's shuffle or sampler, configured step by step and
/// run with [`run`](Self::run) or [`assert_fair`](Self::assert_fair). `S`
/// is the kind of subject with its code ([`OwnShuffle`], [`OwnSampler`]).
#[derive(Debug, Clone)]
pub struct CustomAudit<S> {
    name: String,
    subject: S,
    trials: Option<u64>,
    seed: u64,
    alpha: f64,
    source: SourceSpec,
    threads: Option<usize>,
    report_dir: Option<PathBuf>,
}

/// A kind of subject a [`CustomAudit`] can run: the spec its code runs
/// under, and how the code counts it. Everything else is the builder's.
pub trait Own: Sized {
    /// The kind of subject.
    type Kind: Kind;

    /// The spec of `audit`'s run: the subject (named, fed by a function),
    /// its n and the kind's options; the builder sets trials, seed,
    /// source and threads.
    fn spec(&self, name: &str) -> Spec<Self::Kind>;

    /// Runs the code as `spec` says and counts what it made.
    fn count(
        &self,
        spec: &Spec<Self::Kind>,
        progress: Progress<'_>,
    ) -> Result<<Self::Kind as Kind>::Tally>;
}

impl<S> CustomAudit<S> {
    /// A builder for `subject`, named `name`, with every default.
    fn new(name: &str, subject: S) -> Self {
        Self {
            name: name.to_string(),
            subject,
            trials: None,
            seed: DEFAULT_SEED,
            alpha: DEFAULT_ALPHA,
            source: SourceKind::Chacha8.into(),
            threads: None,
            report_dir: None,
        }
    }

    /// Trials (shuffles or samples) to run (default: what the kind needs
    /// for a verdict that means something, [`Kind::default_trials`]).
    pub fn trials(mut self, trials: u64) -> Self {
        self.trials = Some(trials);
        self
    }

    /// The seed (default [`DEFAULT_SEED`]): the same seed gives the same
    /// counts and verdict on every machine and thread count.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The significance level (default [`DEFAULT_ALPHA`]).
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.alpha = alpha;
        self
    }

    /// The random source handed to the code under audit (default ChaCha8).
    pub fn source(mut self, source: SourceSpec) -> Self {
        self.source = source;
        self
    }

    /// Worker threads (default: all cores). The counts do not depend on it.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Where [`assert_fair`](Self::assert_fair) writes its report when it
    /// fails (default `target/shuffle-audit/NAME`, or under
    /// `$CARGO_TARGET_DIR`).
    pub fn report_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.report_dir = Some(dir.into());
        self
    }
}

impl<S: Own> CustomAudit<S> {
    /// The run this audit makes: the kind's default trials for a verdict
    /// unless set.
    pub fn spec(&self) -> Result<Spec<S::Kind>> {
        let mut spec = self.subject.spec(&self.name);
        spec.seed = self.seed;
        spec.source = self.source;
        spec.threads = self.threads;
        <S::Kind as Kind>::check(&spec)?;
        spec.trials = match self.trials {
            Some(trials) => trials,
            None => <S::Kind as Kind>::default_trials(&spec, self.alpha),
        };
        Ok(spec)
    }

    /// Runs the audit and judges it (alone: the run's family is this one
    /// audit).
    pub fn run(&self) -> Result<Audit<S::Kind>> {
        let spec = self.spec()?;
        audit::run_with(&spec, self.alpha, || {
            let tally = self.subject.count(&spec, &no_progress)?;
            Ok(Produced { tally, feed: None })
        })
    }

    /// Runs the audit and panics unless it found no bias with a run large
    /// enough to have seen one: on "biased" and on "inconclusive" alike. The
    /// panic message names the decisive test, its p-value, the largest
    /// deviation in words and where the report was written (or how many
    /// trials an inconclusive run needs). Returns the audit otherwise.
    pub fn assert_fair(&self) -> Audit<S::Kind> {
        let audit = match self.run() {
            Ok(audit) => audit,
            Err(e) => panic!("shuffle-audit could not audit {}: {e}", self.name),
        };
        if audit.verdict() == Verdict::NoBiasDetected {
            return audit;
        }
        let dir = self.report_dir.clone().unwrap_or_else(|| {
            let target = std::env::var_os("CARGO_TARGET_DIR").unwrap_or_else(|| "target".into());
            Path::new(&target)
                .join("shuffle-audit")
                .join(slug_of(&self.name))
        });
        let call = format!(
            "shuffle_audit::CustomAudit for {:?}: .trials({}).seed({})",
            self.name,
            audit.trials(),
            audit.spec().seed
        );
        let provenance = Provenance::of(&RunStart::now(), call.clone(), vec![call]);
        let report = match crate::study::write_report(Box::new(audit.clone()), provenance, &dir) {
            Ok(path) => format!("report: {}", path.display()),
            Err(e) => format!("(the report could not be written: {e})"),
        };
        panic!("{}\n{report}", audit.failure_message(Front::Rust));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// The counts of `audit` run on 1 thread and on 2, which must be the
    /// same: the seed alone decides them.
    fn counts_on_1_and_2_threads<S: Own + Clone>(audit: CustomAudit<S>) {
        let run = |threads| {
            audit
                .clone()
                .threads(threads)
                .run()
                .unwrap()
                .tally()
                .clone()
        };
        assert_eq!(run(1), run(2));
    }

    /// The panic message of `audit`'s failing [`CustomAudit::assert_fair`],
    /// with its report written to a folder of its own (named `name`, removed
    /// after), and whether the report was written.
    pub(super) fn failure<S: Own>(audit: CustomAudit<S>, name: &str) -> (String, bool) {
        let dir = std::env::temp_dir().join(format!("sa-{name}-{}", std::process::id()));
        let audit = audit.report_dir(&dir);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| audit.assert_fair()));
        let message = *caught.unwrap_err().downcast::<String>().unwrap();
        let written = dir.join("report.html").exists();
        let _ = std::fs::remove_dir_all(&dir);
        (message, written)
    }

    #[test]
    fn the_same_seed_gives_the_same_counts_on_any_thread_count() {
        let durstenfeld = |deck: &mut [u32], rng: &mut dyn rand::Rng| {
            for i in (1..deck.len()).rev() {
                deck.swap(i, rng.random_range(0..=i));
            }
        };
        counts_on_1_and_2_threads(CustomAudit::shuffle_fn("d", 6, durstenfeld).trials(100_000));
        let partial_fy = |rng: &mut dyn rand::Rng| {
            let mut items: Vec<u32> = (0..12).collect();
            for i in 0..4 {
                items.swap(i, rng.random_range(i..12));
            }
            items.truncate(4);
            items
        };
        counts_on_1_and_2_threads(CustomAudit::sample_fn("fy", 12, 4, partial_fy).trials(150_000));
    }
}
