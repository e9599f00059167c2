//! The Monte Carlo engine: runs many shuffles in parallel, deterministically.
//!
//! Trials are split into fixed-size chunks; chunk `c` draws from stream `c` of
//! the run's seed, and chunk tallies merge by addition. So the counts depend
//! only on (shuffle, n, trials, source, seed), never on the thread count or
//! on which thread ran which chunk.
//!
//! The chunk runner ([`run_chunks`]) is generic over what a trial observes
//! ([`Observer`]): an audit shuffles and counts into a [`Tally`], and
//! [`crate::mixing`]'s Monte Carlo follows trajectories of repeated steps,
//! under the same contract.
//!
//! The engine runs the built-in algorithms and Rust functions (see
//! [`crate::custom`]) itself; a shuffle whose permutations come from a file
//! or a program is read through [`crate::ingest`] instead.

mod chunks;
mod shuffles;

pub use chunks::{ChunkPlan, ChunkRange, Observer, run_chunks};

use crate::deck::Deck;
use crate::error::{Error, ErrorKind, Result};
use crate::format::human_bytes;
use crate::source::SourceSpec;
use crate::spec::{LARGE_N, TestSet};
use crate::subject::{Shuffle, Subject};
use crate::tally::{Collect, HandCounts, Tally};
use shuffles::{Custom, Rows, Shuffles};
use std::sync::Arc;

/// Trials per chunk. Part of the reproducibility contract: changing it
/// changes every count.
pub const CHUNK_TRIALS: u64 = 1 << 16;

pub use crate::pacing::{BATCH, Progress, available_memory, no_progress};

/// Trials per chunk at `n`: [`CHUNK_TRIALS`] up to [`LARGE_N`] (so every
/// count of a small audit is what it always was), fewer above, so that a
/// chunk holds about as many values as at n = [`LARGE_N`] (at n = 10^6, 67
/// shuffles): chunks stay short enough to spread over the workers and to
/// show progress. Part of the reproducibility contract like
/// [`CHUNK_TRIALS`].
pub fn chunk_trials(n: usize) -> u64 {
    if n <= LARGE_N {
        CHUNK_TRIALS
    } else {
        (CHUNK_TRIALS * LARGE_N as u64 / n as u64).max(1)
    }
}

/// Shuffles in a batch at `n`: [`BATCH`] up to [`LARGE_N`], fewer above so
/// a batch holds at most [`BATCH`]·[`LARGE_N`] values (1 MiB): at n = 10^6
/// one shuffle (the batch size never changes a count).
pub fn batch_rows(n: usize) -> usize {
    if n <= LARGE_N {
        BATCH
    } else {
        (BATCH * LARGE_N / n).max(1)
    }
}

/// What to run: everything that determines the counts, plus the thread count
/// (which does not).
#[derive(Debug, Clone, PartialEq)]
pub struct RunSpec {
    /// The shuffle under audit.
    pub subject: Subject,
    /// Number of elements shuffled.
    pub n: usize,
    /// Number of shuffles.
    pub trials: u64,
    /// The random source.
    pub source: SourceSpec,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads; `None` uses the current rayon pool (all cores by
    /// default). `Some` builds a dedicated pool: don't use it for many runs
    /// from inside a rayon task (a waiting task steals the next one, which
    /// builds another pool, and the stack grows); use `None` there.
    pub threads: Option<usize>,
    /// The tests the counts are for; decides what is counted.
    pub tests: TestSet,
    /// The deck when items repeat or have categories (`--deck`,
    /// `--categories`): its tests replace those of distinct items, and its
    /// hands are counted. `None` for a plain deck of distinct items.
    pub deck: Option<Arc<Deck>>,
}

impl RunSpec {
    /// A spec with the default tests for `n` and all cores.
    pub fn new(
        subject: impl Into<Subject>,
        n: usize,
        trials: u64,
        source: SourceSpec,
        seed: u64,
    ) -> Self {
        Self {
            subject: subject.into(),
            n,
            trials,
            source,
            seed,
            threads: None,
            tests: TestSet::default_for(n),
            deck: None,
        }
    }

    /// The spec for `deck` (whose n it takes): its tests are the deck's
    /// forms of the selected ones ([`crate::deck::battery::tests_for`]),
    /// returned with the note on the tests skipped.
    pub fn with_deck(self, deck: Deck) -> (Self, Option<String>) {
        let (tests, note) = crate::deck::battery::tests_for(&self.tests, &deck);
        let spec = Self {
            n: deck.n(),
            tests,
            deck: Some(Arc::new(deck)),
            ..self
        };
        (spec, note)
    }

    /// The kind of each item of a deck whose items repeat (for the serial
    /// test, which then matches kinds); `None` for distinct items.
    pub fn repeated_kinds(&self) -> Option<Vec<u32>> {
        let deck = self.deck.as_ref().filter(|d| d.repeats())?;
        Some(deck.kind_of().to_vec())
    }

    /// Empty hand counts of the deck's hand test, if it has one.
    pub fn hand_counts(&self) -> Option<HandCounts> {
        self.deck.as_ref().and_then(|d| d.hand_counts())
    }

    /// The random source as outputs name it: the source, or `own` for a
    /// shuffle from outside that brings its own generator.
    pub fn source_label(&self) -> String {
        if self.subject.uses_our_source() {
            self.source.to_string()
        } else {
            OWN_SOURCE.to_string()
        }
    }

    /// The random source's bare name (no parameters), or `own` like
    /// [`source_label`](Self::source_label): for folder names.
    pub fn source_name(&self) -> &'static str {
        if self.subject.uses_our_source() {
            self.source.kind.name()
        } else {
            OWN_SOURCE
        }
    }

    /// What the tally must collect for these tests.
    pub fn collect(&self) -> Collect {
        self.tests.collect(self.n)
    }

    /// Every chunk of the run, of [`chunk_trials`] at its n.
    pub fn chunks(&self) -> ChunkRange {
        ChunkRange::all_sized(self.trials, chunk_trials(self.n))
    }
}

/// How outputs name the random source of a shuffle from outside the tool,
/// which brings its own generator.
pub const OWN_SOURCE: &str = "own";

/// `RunSpec::trials` of a file feed that reads every deck the input holds.
pub const ALL_DECKS: u64 = u64::MAX;

/// `RunSpec::n` of a file feed whose n is the first deck's length.
pub const N_FROM_INPUT: usize = 0;

/// Runs the shuffles of `spec`, a built-in algorithm's, and returns their
/// tally. A shuffle from outside the tool (a file or a program) is read by
/// [`crate::produce::run`], and a Rust function is run by [`run_shuffle`].
pub fn run(spec: &RunSpec, progress: Progress<'_>) -> Result<Tally> {
    match &spec.subject {
        Subject::Builtin(algorithm) => {
            check(spec)?;
            run_rows(spec, *algorithm, progress)
        }
        Subject::Outside(outside) => Err(Error::of_kind(
            ErrorKind::Unsupported,
            format!(
                "{} comes from outside the tool: read it with produce::run (a Rust function: \
                 engine::run_shuffle)",
                outside.name
            ),
        )),
    }
}

/// Runs only the chunks `chunks` of `spec`, a built-in algorithm's run, and
/// returns their tally: a shard of the run, or what is left of it after a
/// checkpoint. Tallies of disjoint ranges add up to the whole run's tally,
/// bit for bit. Refuses a shuffle from outside (its decks are not drawn in
/// chunks) and a range beyond the run's chunks.
pub fn run_range(spec: &RunSpec, chunks: ChunkRange, progress: Progress<'_>) -> Result<Tally> {
    let Subject::Builtin(algorithm) = &spec.subject else {
        return Err(Error::of_kind(
            ErrorKind::Unsupported,
            format!(
                "{} is not a built-in algorithm: only those run in chunks that can be split \
                 or resumed",
                spec.subject
            ),
        ));
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
    run_rows_in(spec, *algorithm, chunks, progress)
}

/// Runs `shuffle`, a user's shuffle written in Rust, as `spec` says (its
/// subject names it), on our random source: deterministic chunks, exactly as
/// for a built-in algorithm. Fails if the shuffle ever returns something
/// that is not a permutation.
pub fn run_shuffle<T: Shuffle>(
    spec: &RunSpec,
    shuffle: &T,
    progress: Progress<'_>,
) -> Result<Tally> {
    check(spec)?;
    let name = spec.subject.to_string();
    run_rows(spec, Custom::new(shuffle, &name), progress)
}

/// Refuses an n out of range or a test that cannot run at this n.
pub(crate) fn check(spec: &RunSpec) -> Result<()> {
    crate::values::check_n(spec.n)?;
    spec.tests.check(spec.n)
}

fn run_rows<K: Rows>(spec: &RunSpec, kernel: K, progress: Progress<'_>) -> Result<Tally> {
    run_rows_in(spec, kernel, spec.chunks(), progress)
}

fn run_rows_in<K: Rows>(
    spec: &RunSpec,
    kernel: K,
    chunks: ChunkRange,
    progress: Progress<'_>,
) -> Result<Tally> {
    let plan = ChunkPlan {
        source: &spec.source,
        seed: spec.seed,
        trials: spec.trials,
        chunks,
        threads: spec.threads,
    };
    let collect = spec.collect();
    run_chunks(
        plan,
        || {
            Shuffles::new(kernel, spec.n, collect)
                .with_hands(spec.hand_counts())
                .with_kinds(spec.repeated_kinds())
        },
        progress,
    )
}

/// Runs `work` on a pool of `threads` workers, or on the current pool when
/// `None` or when the caller already runs on a pool of that size (the
/// evaluation of an audit, inside the pool that counted it).
///
/// Pools are started once per thread count and kept for the life of the
/// process ([`pool`]): starting 16 threads for every audit of a study was
/// part of each audit's serial start-up.
pub(crate) fn in_pool<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> Result<T> {
    match threads {
        Some(threads)
            if rayon::current_thread_index().is_none()
                || rayon::current_num_threads() != threads =>
        {
            Ok(pool(threads)?.install(work))
        }
        _ => Ok(work()),
    }
}

/// The process's pool of `threads` workers, started on first use.
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>> {
    static POOLS: std::sync::Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> =
        std::sync::Mutex::new(Vec::new());
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, pool)) = pools.iter().find(|(t, _)| *t == threads) {
        return Ok(Arc::clone(pool));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::too_costly(format!("cannot start {threads} threads: {e}")))?;
    let pool = Arc::new(pool);
    pools.push((threads, Arc::clone(&pool)));
    Ok(pool)
}

/// Bytes of memory a run of `n` needs on `threads` workers: one u64 tally, one
/// u32 chunk tally and one batch buffer per worker, plus the merged result;
/// with n! more counters per tally when whole permutations are counted, n²
/// for the Lehmer digits, and O(n) per worker of shuffle and statistic
/// buffers. A binned matrix (`collect.bins`) is B² cells, not n², plus its
/// bin lookup of n.
pub fn memory_needed(n: usize, threads: usize, collect: Collect) -> u128 {
    let n128 = n as u128;
    let permutations = if collect.permutations {
        // Capped at 2^64 bytes (n ≥ 21), more than any machine has, so
        // that the sums below cannot overflow.
        let cap = u64::MAX as u128;
        (1..=n as u128)
            .try_fold(1u128, |p, i| p.checked_mul(i).filter(|&p| p <= cap))
            .map_or(cap, |p| p.saturating_mul(8).min(cap))
    } else {
        0
    };
    let side = collect.bins.unwrap_or(n) as u128;
    let lehmer = if collect.structure.lehmer {
        n128 * n128 * 8
    } else {
        0
    };
    // Histograms, previous deal, cycle and rising-sequence scratch, and
    // the binned matrix's bin lookup: a few words per value.
    let linear = 8 * n128 * 8;
    let tally = side * side * 8 + permutations + lehmer + linear;
    let batch = batch_rows(n) as u128 * n128 * 4;
    let per_worker = tally + side * side * 4 + batch + linear;
    per_worker * threads as u128 + tally
}

/// Fails, saying how much memory would be needed, if a run of `n` on
/// `threads` workers would not fit in the memory this machine has available.
pub fn check_memory(n: usize, threads: usize, collect: Collect) -> Result<()> {
    let needed = memory_needed(n, threads, collect);
    let available = available_memory().unwrap_or(u128::from(u64::MAX));
    if needed > available {
        return Err(Error::of_kind(
            ErrorKind::TooCostly,
            format!(
                "n = {n} needs about {} of memory for {threads} worker(s), but only {} is available",
                human_bytes(needed),
                human_bytes(available)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Algorithm;
    use crate::source::SourceKind;

    fn spec(threads: usize) -> RunSpec {
        // Not a multiple of the chunk or batch size, so the ragged ends are
        // exercised; n = 7 collects permutations and structure too.
        let trials = 5 * CHUNK_TRIALS + 12_345;
        RunSpec {
            threads: Some(threads),
            ..RunSpec::new(
                Algorithm::NaiveSwap,
                7,
                trials,
                SourceKind::Chacha8.into(),
                2026,
            )
        }
    }

    #[test]
    fn counts_are_identical_on_1_2_and_3_threads() {
        let one = run(&spec(1), &no_progress).unwrap();
        let two = run(&spec(2), &no_progress).unwrap();
        let three = run(&spec(3), &no_progress).unwrap();
        assert_eq!(one.trials(), spec(1).trials);
        assert_eq!(one, two);
        assert_eq!(one, three);
        let mut other_seed = spec(2);
        other_seed.seed += 1;
        assert_ne!(
            run(&other_seed, &no_progress).unwrap(),
            one,
            "the seed must matter"
        );
    }

    #[test]
    fn ranges_of_chunks_add_up_to_the_run() {
        let whole = run(&spec(2), &no_progress).unwrap();
        let all = ChunkRange::all(spec(2).trials);
        let mut parts = Tally::collecting(7, spec(2).collect());
        for (first, end) in [(4, all.end), (0, 1), (1, 4)] {
            let part =
                run_range(&spec(1), ChunkRange::all(1).with(first, end), &no_progress).unwrap();
            assert_eq!(
                part.trials(),
                ChunkRange::all(1).with(first, end).trials(spec(1).trials)
            );
            parts.merge(&part);
        }
        assert_eq!(parts, whole);
    }

    /// The serial counts and the deal sample (what the serial and birthday
    /// tests collect) are the same on any number of threads and when the
    /// run is split into ranges of chunks (shards), bit for bit.
    #[test]
    fn sequence_counts_merge_alike_across_threads_and_ranges() {
        let spec = |threads| RunSpec {
            threads: Some(threads),
            tests: TestSet::parse("serial,birthday,clumping", 52).unwrap(),
            ..RunSpec::new(
                Algorithm::FisherYates,
                52,
                4 * CHUNK_TRIALS + 999,
                SourceKind::Seed32.into(),
                11,
            )
        };
        let one = run(&spec(1), &no_progress).unwrap();
        assert_eq!(one, run(&spec(2), &no_progress).unwrap());
        let serial = one.serial().unwrap();
        // Whole triples within each chunk: none across chunks.
        let chunks = ChunkRange::all(spec(1).trials);
        let within: u64 = (0..chunks.len())
            .map(|c| chunks.with(c, c + 1).trials(spec(1).trials) / 3)
            .sum();
        assert_eq!(serial.total(), within);
        assert_eq!(one.deals().unwrap().deals, spec(1).trials);
        let mut parts = Tally::collecting(52, spec(1).collect());
        for (first, end) in [(3, 5), (0, 3)] {
            parts.merge(
                &run_range(&spec(1), ChunkRange::all(1).with(first, end), &no_progress).unwrap(),
            );
        }
        assert_eq!(parts, one);
    }

    #[test]
    fn impossible_sizes_are_refused_with_the_memory_they_need() {
        let err = check_memory(1_000_000, 2, Collect::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("n = 1000000 needs about 29.1 TiB"), "{err}");
        assert!(check_memory(52, 2, Collect::default()).is_ok());
    }

    #[test]
    fn progress_reports_every_trial() {
        let done = std::sync::atomic::AtomicU64::new(0);
        let report = |k: u64| {
            done.fetch_add(k, std::sync::atomic::Ordering::Relaxed);
        };
        let s = spec(2);
        run(&s, &report).unwrap();
        assert_eq!(done.into_inner(), s.trials);
    }
}
