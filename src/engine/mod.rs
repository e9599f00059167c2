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
//! [`crate::custom`]) itself, as [`crate::shuffle`] asks it; a shuffle whose
//! permutations come from a file or a program is read through
//! [`crate::ingest`] instead.

mod chunks;
mod shuffles;

pub(crate) use crate::pacing::in_pool;
pub use crate::pacing::{CHUNK_TRIALS, ChunkRange};
pub use chunks::{ChunkPlan, Observer, run_chunks};

use crate::algorithm::Algorithm;
use crate::error::{Error, Result};
use crate::format::human_bytes;
use crate::spec::LARGE_N;
use crate::subject::Shuffle;
use crate::tally::{Collect, HandCounts, Tally};
use shuffles::{Custom, Rows, Worker};

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

/// What a worker of a shuffle run counts, beside the chunks it draws: the
/// items per shuffle, what the tests collect, a deck's hands, and the kind
/// of each item of a deck whose items repeat (which the serial test
/// matches).
#[derive(Debug, Clone, Default)]
pub struct Counting {
    /// Items per shuffle.
    pub n: usize,
    /// What the tally collects for the tests.
    pub collect: Collect,
    /// Empty hand counts of a deck's hand test, if it has one.
    pub hands: Option<HandCounts>,
    /// The kind of each item of a deck whose items repeat.
    pub kinds: Option<Vec<u32>>,
}

/// Runs the chunks of `plan` with `algorithm`, counting as `counting`
/// says, and returns their tally: the whole run, a shard of it, or what is
/// left of it after a checkpoint. Tallies of disjoint ranges add up to the
/// whole run's tally, bit for bit.
pub fn count_algorithm(
    plan: ChunkPlan<'_>,
    algorithm: Algorithm,
    counting: &Counting,
    progress: Progress<'_>,
) -> Result<Tally> {
    count_rows(plan, algorithm, counting, progress)
}

/// Runs `shuffle`, a user's shuffle written in Rust called `name`, as
/// `plan` says, on our random source: deterministic chunks, exactly as for
/// a built-in algorithm. Fails if the shuffle ever returns something that
/// is not a permutation.
pub fn count_shuffle<T: Shuffle>(
    plan: ChunkPlan<'_>,
    shuffle: &T,
    name: &str,
    counting: &Counting,
    progress: Progress<'_>,
) -> Result<Tally> {
    count_rows(plan, Custom::new(shuffle, name), counting, progress)
}

fn count_rows<K: Rows>(
    plan: ChunkPlan<'_>,
    kernel: K,
    counting: &Counting,
    progress: Progress<'_>,
) -> Result<Tally> {
    run_chunks(
        plan,
        || {
            Worker::new(kernel, counting.n, counting.collect)
                .with_hands(counting.hands.clone())
                .with_kinds(counting.kinds.clone())
        },
        progress,
    )
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
        return Err(Error::too_costly(format!(
            "n = {n} needs about {} of memory for {threads} worker(s), but only {} is available",
            human_bytes(needed),
            human_bytes(available)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_sizes_are_refused_with_the_memory_they_need() {
        let err = check_memory(1_000_000, 2, Collect::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("n = 1000000 needs about 29.1 TiB"), "{err}");
        assert!(check_memory(52, 2, Collect::default()).is_ok());
    }
}
