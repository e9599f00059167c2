//! Counting shuffles: a built-in algorithm or a Rust function on the
//! engine, chunk by chunk, into the tally the spec's tests need.

use crate::audit::{Spec, Subject};
use crate::deck::Deck;
use crate::engine::{self, ChunkPlan, ChunkRange, Counting, Progress, chunk_trials};
use crate::error::{Error, Result};
use crate::subject::{Shuffle, Shuffles};
use crate::tally::{Collect, HandCounts, Tally};
use std::sync::Arc;

impl Spec<Shuffles> {
    /// The spec for `deck` (whose n it takes): its tests are the deck's
    /// forms of the selected ones (`crate::deck::battery::tests_for`),
    /// returned with the note on the tests skipped.
    pub fn with_deck(self, deck: Deck) -> (Self, Option<String>) {
        let (tests, note) = crate::deck::battery::tests_for(&self.options.tests, &deck);
        let mut spec = Self {
            n: deck.n(),
            ..self
        };
        spec.options.tests = tests;
        spec.options.deck = Some(Arc::new(deck));
        (spec, note)
    }

    /// What the tally must collect for these tests.
    pub fn collect(&self) -> Collect {
        self.options.tests.collect(self.n)
    }

    /// The kind of each item of a deck whose items repeat (for the serial
    /// test, which then matches kinds); `None` for distinct items.
    pub fn repeated_kinds(&self) -> Option<Vec<u32>> {
        let deck = self.options.deck.as_ref().filter(|d| d.repeats())?;
        Some(deck.kind_of().to_vec())
    }

    /// Empty hand counts of the deck's hand test, if it has one: only a
    /// built-in subject's, whose deals the engine counts; hands are not
    /// counted while reading decks made outside.
    pub fn hand_counts(&self) -> Option<HandCounts> {
        self.subject.builtin()?;
        self.options.deck.as_ref().and_then(|d| d.hand_counts())
    }

    /// What a worker counts for this spec.
    pub(crate) fn counting(&self) -> Counting {
        Counting {
            n: self.n,
            collect: self.collect(),
            hands: self.hand_counts(),
            kinds: self.repeated_kinds(),
        }
    }

    /// The chunks `chunks` of this run, as the engine draws them.
    fn plan(&self, chunks: ChunkRange) -> ChunkPlan<'_> {
        ChunkPlan {
            source: &self.source,
            seed: self.seed,
            trials: self.trials,
            chunks,
            threads: self.threads,
        }
    }
}

/// Refuses an n out of range or a test that cannot run at this n.
pub(crate) fn check(spec: &Spec<Shuffles>) -> Result<()> {
    crate::values::check_n(spec.n)?;
    spec.options.tests.check(spec.n)
}

/// Counts the chunks `chunks` of `spec`, a built-in algorithm's run:
/// tallies of disjoint ranges add up to the whole run's, bit for bit.
pub(crate) fn count(
    spec: &Spec<Shuffles>,
    chunks: ChunkRange,
    progress: Progress<'_>,
) -> Result<Tally> {
    let Subject::Builtin(algorithm) = &spec.subject else {
        return Err(Error::unsupported(format!(
            "{} is not a built-in algorithm: it is read, or run with its function",
            spec.subject
        )));
    };
    check(spec)?;
    if chunks.size != chunk_trials(spec.n) {
        return Err(Error::bad_input(format!(
            "chunks of {} trials do not belong to a run of n = {} (chunks of {})",
            chunks.size,
            spec.n,
            chunk_trials(spec.n)
        )));
    }
    engine::count_algorithm(spec.plan(chunks), *algorithm, &spec.counting(), progress)
}

/// Runs `shuffle`, a user's shuffle written in Rust, as `spec` says (its
/// subject names it), on our random source: deterministic chunks, exactly as
/// for a built-in algorithm. Fails if the shuffle ever returns something
/// that is not a permutation.
pub fn run_shuffle<T: Shuffle>(
    spec: &Spec<Shuffles>,
    shuffle: &T,
    progress: Progress<'_>,
) -> Result<Tally> {
    check(spec)?;
    let name = spec.subject.to_string();
    let plan = spec.plan(spec.chunks());
    engine::count_shuffle(plan, shuffle, &name, &spec.counting(), progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::engine::{CHUNK_TRIALS, no_progress};
    use crate::source::SourceKind;
    use crate::spec::TestSet;

    fn spec(threads: usize) -> Spec<Shuffles> {
        // Not a multiple of the chunk or batch size, so the ragged ends are
        // exercised; n = 7 collects permutations and structure too.
        let trials = 5 * CHUNK_TRIALS + 12_345;
        Spec {
            threads: Some(threads),
            ..Spec::new(
                Algorithm::NaiveSwap,
                7,
                trials,
                SourceKind::Chacha8.into(),
                2026,
            )
        }
    }

    fn run(spec: &Spec<Shuffles>) -> Tally {
        count(spec, spec.chunks(), &no_progress).unwrap()
    }

    #[test]
    fn counts_are_identical_on_1_2_and_3_threads() {
        let one = run(&spec(1));
        assert_eq!(one.trials(), spec(1).trials);
        assert_eq!(one, run(&spec(2)));
        assert_eq!(one, run(&spec(3)));
        let mut other_seed = spec(2);
        other_seed.seed += 1;
        assert_ne!(run(&other_seed), one, "the seed must matter");
    }

    #[test]
    fn ranges_of_chunks_add_up_to_the_run() {
        let whole = run(&spec(2));
        let all = spec(2).chunks();
        let mut parts = Tally::collecting(7, spec(2).collect());
        for (first, end) in [(4, all.end), (0, 1), (1, 4)] {
            let part = count(&spec(1), all.with(first, end), &no_progress).unwrap();
            assert_eq!(part.trials(), all.with(first, end).trials(spec(1).trials));
            parts.merge(&part);
        }
        assert_eq!(parts, whole);
    }

    /// The serial counts and the deal sample (what the serial and birthday
    /// tests collect) are the same on any number of threads and when the
    /// run is split into ranges of chunks (shards), bit for bit.
    #[test]
    fn sequence_counts_merge_alike_across_threads_and_ranges() {
        let spec = |threads| {
            let mut spec = Spec::new(
                Algorithm::FisherYates,
                52,
                4 * CHUNK_TRIALS + 999,
                SourceKind::Seed32.into(),
                11,
            );
            spec.threads = Some(threads);
            spec.options.tests = TestSet::parse("serial,birthday,clumping", 52).unwrap();
            spec
        };
        let one = run(&spec(1));
        assert_eq!(one, run(&spec(2)));
        let serial = one.serial().unwrap();
        // Whole triples within each chunk: none across chunks.
        let chunks = spec(1).chunks();
        let within: u64 = (0..chunks.len())
            .map(|c| chunks.with(c, c + 1).trials(spec(1).trials) / 3)
            .sum();
        assert_eq!(serial.total(), within);
        assert_eq!(one.deals().unwrap().deals, spec(1).trials);
        let mut parts = Tally::collecting(52, spec(1).collect());
        for (first, end) in [(3, 5), (0, 3)] {
            parts.merge(&count(&spec(1), chunks.with(first, end), &no_progress).unwrap());
        }
        assert_eq!(parts, one);
    }

    #[test]
    fn progress_reports_every_trial() {
        let done = std::sync::atomic::AtomicU64::new(0);
        let report = |k: u64| {
            done.fetch_add(k, std::sync::atomic::Ordering::Relaxed);
        };
        let s = spec(2);
        count(&s, s.chunks(), &report).unwrap();
        assert_eq!(done.into_inner(), s.trials);
    }

    #[test]
    fn chunks_of_another_run_are_refused() {
        let s = spec(1);
        let other = ChunkRange::all_sized(s.trials, 10);
        assert!(count(&s, other, &no_progress).is_err());
        assert!(count(&s, s.chunks().with(0, s.chunks().end + 1), &no_progress).is_err());
    }
}
