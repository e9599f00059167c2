//! The engine's one chunk runner: trials split into chunks of
//! [`CHUNK_TRIALS`], chunk `c` drawn from stream `c` of the seed, chunks run
//! in parallel and their results merged.
//!
//! What a trial does and what it observes is an [`Observer`]'s business: the
//! audit's shuffle-and-count ([`super::shuffles`]) and mixing's Monte Carlo
//! trajectories ([`crate::mixing::monte_carlo`]) both run here, so both have
//! the same reproducibility contract.

use super::{ChunkRange, Progress, in_pool};
use crate::error::{Error, Result};
use crate::source::{RandomSource, SourceSpec, SourceVisitor};
use rayon::prelude::*;

/// One worker's state in a chunked run: it runs whole chunks of trials, then
/// hands over what it observed, which merges with other workers' results.
///
/// A worker runs any set of chunks, in any grouping, depending on the
/// thread count and on scheduling; the run's result is the same on any
/// number of threads as long as [`merge`](Observer::merge) is associative
/// and commutative (adding counts is) and a worker's output is the merge of
/// what each of its chunks alone would give.
pub trait Observer: Send {
    /// What a worker hands over (and what the whole run returns).
    type Output: Send;

    /// Runs `trials` trials drawing from `rng`, the generator of one chunk.
    fn run_chunk<S: RandomSource>(&mut self, rng: &mut S, trials: u64) -> Result<()>;

    /// What this worker observed, over all its chunks.
    fn finish(self) -> Self::Output;

    /// Adds `other` to `into`: the results of disjoint sets of chunks.
    fn merge(into: &mut Self::Output, other: Self::Output);
}

/// Where a chunked run draws from and how much: what decides its result,
/// plus the thread count, which does not.
#[derive(Debug, Clone, Copy)]
pub struct ChunkPlan<'a> {
    /// The random source; chunk `c` uses its stream `c` of `seed`.
    pub source: &'a SourceSpec,
    /// The run's seed.
    pub seed: u64,
    /// Trials in all; the last chunk takes what is left.
    pub trials: u64,
    /// The chunks to run: all of them ([`ChunkRange::all`]), or a share of
    /// the run (a shard, or what is left of a resumed run). Chunk `c` is
    /// the same trials whichever range it is run in, so the tallies of
    /// disjoint ranges merge into the tally of their union.
    pub chunks: ChunkRange,
    /// A dedicated pool of this many workers, or `None` for the current
    /// rayon pool (see [`super::RunSpec::threads`] for when to use which).
    pub threads: Option<usize>,
}

/// Runs `plan` with workers made by `new`, reporting each finished chunk's
/// trials to `progress`, and returns the merge of every worker's output (a
/// fresh worker's, for no trials). Stops at the first chunk that fails.
/// Refuses a chunk range beyond the run's chunks.
pub fn run_chunks<O: Observer>(
    plan: ChunkPlan<'_>,
    new: impl Fn() -> O + Sync + Send,
    progress: Progress<'_>,
) -> Result<O::Output> {
    let all = ChunkRange::all_sized(plan.trials, plan.chunks.size);
    if plan.chunks.first > plan.chunks.end || plan.chunks.end > all.end {
        return Err(Error::out_of_range(format!(
            "chunks {} are not within the run's chunks {all}",
            plan.chunks
        )));
    }
    let chunks = Chunks {
        trials: plan.trials,
        range: plan.chunks,
        new,
        progress,
    };
    in_pool(plan.threads, || plan.source.visit(plan.seed, chunks))?
}

/// The visit that gives [`run_chunks`] its random source's type.
struct Chunks<'a, N> {
    trials: u64,
    range: ChunkRange,
    new: N,
    progress: Progress<'a>,
}

impl<O, N> SourceVisitor for Chunks<'_, N>
where
    O: Observer,
    N: Fn() -> O + Sync + Send,
{
    type Output = Result<O::Output>;

    fn visit<S, F>(self, make: F) -> Result<O::Output>
    where
        S: RandomSource,
        F: Fn(u64) -> S + Sync,
    {
        let Chunks {
            trials: total,
            range,
            new,
            progress,
        } = self;
        let size = range.size;
        (range.first..range.end)
            .into_par_iter()
            .try_fold(&new, |mut observer, chunk| {
                let trials = size.min(total - chunk * size);
                observer.run_chunk(&mut make(chunk), trials)?;
                progress(trials);
                Ok(observer)
            })
            .map(|observer| observer.map(Observer::finish))
            .try_reduce_with(|mut a, b| {
                O::merge(&mut a, b);
                Ok(a)
            })
            .unwrap_or_else(|| Ok(new().finish()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::pacing::CHUNK_TRIALS;
    use crate::source::SourceKind;

    /// Records, for each chunk it ran, the chunk's first draw and its length:
    /// enough to see which stream each chunk drew from.
    struct FirstDraws(Vec<(u64, u64)>);

    impl Observer for FirstDraws {
        type Output = Vec<(u64, u64)>;

        fn run_chunk<S: RandomSource>(&mut self, rng: &mut S, trials: u64) -> Result<()> {
            if trials == 13 {
                return Err(Error::bad_input("unlucky chunk"));
            }
            self.0.push((rng.bits64(), trials));
            Ok(())
        }

        fn finish(mut self) -> Self::Output {
            self.0.sort_unstable();
            self.0
        }

        fn merge(into: &mut Self::Output, other: Self::Output) {
            into.extend(other);
            into.sort_unstable();
        }
    }

    fn first_draws(trials: u64, threads: usize) -> Result<Vec<(u64, u64)>> {
        first_draws_of(trials, ChunkRange::all(trials), threads)
    }

    fn first_draws_of(trials: u64, chunks: ChunkRange, threads: usize) -> Result<Vec<(u64, u64)>> {
        let source = SourceKind::Chacha8.into();
        let plan = ChunkPlan {
            source: &source,
            seed: 99,
            trials,
            chunks,
            threads: Some(threads),
        };
        run_chunks(plan, || FirstDraws(Vec::new()), &|_| {})
    }

    #[test]
    fn ranges_run_their_chunks_and_together_make_the_run() {
        let trials = 4 * CHUNK_TRIALS + 5;
        let all = first_draws(trials, 2).unwrap();
        let range = |first, end| ChunkRange::all(trials).with(first, end);
        let mut parts = first_draws_of(trials, range(3, 5), 1).unwrap();
        assert_eq!(parts.len(), 2);
        assert!(parts.contains(&(all.iter().find(|d| d.1 == 5).unwrap().0, 5)));
        parts.extend(first_draws_of(trials, range(0, 3), 2).unwrap());
        parts.extend(first_draws_of(trials, range(3, 3), 2).unwrap());
        parts.sort_unstable();
        assert_eq!(parts, all);
        assert_eq!(range(3, 5).trials(trials), CHUNK_TRIALS + 5);
        assert_eq!(ChunkRange::all(trials).trials(trials), trials);
        assert_eq!(range(5, 5).trials(trials), 0);
        let err = first_draws_of(trials, range(2, 6), 1).unwrap_err();
        assert!(err.to_string().contains("2..6"), "{err}");
    }

    #[test]
    fn chunk_c_draws_from_stream_c_whatever_the_threads() {
        let trials = 4 * CHUNK_TRIALS + 5;
        let one = first_draws(trials, 1).unwrap();
        assert_eq!(one, first_draws(trials, 2).unwrap());
        assert_eq!(one, first_draws(trials, 3).unwrap());
        let source: SourceSpec = SourceKind::Chacha8.into();
        let mut want: Vec<(u64, u64)> = source.visit(99, StreamStarts(5));
        want[4].1 = 5;
        want.sort_unstable();
        assert_eq!(one, want);
    }

    #[test]
    fn no_trials_give_a_fresh_workers_output_and_errors_stop_the_run() {
        assert_eq!(first_draws(0, 2).unwrap(), Vec::new());
        let err = first_draws(2 * CHUNK_TRIALS + 13, 2).unwrap_err();
        assert!(err.to_string().contains("unlucky chunk"), "{err}");
    }

    /// The first draw of each of the first `.0` streams, each with a full
    /// chunk's length.
    struct StreamStarts(u64);

    impl SourceVisitor for StreamStarts {
        type Output = Vec<(u64, u64)>;

        fn visit<S, F>(self, make: F) -> Self::Output
        where
            S: RandomSource,
            F: Fn(u64) -> S + Sync,
        {
            (0..self.0)
                .map(|c| (make(c).bits64(), CHUNK_TRIALS))
                .collect()
        }
    }
}
