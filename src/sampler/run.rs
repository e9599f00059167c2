//! Running a sampler many times on the engine's chunk runner (chunk `c`
//! draws from stream `c` of the seed), counting every sample into a
//! [`SampleTally`]: the same reproducibility contract as shuffles, so the
//! counts depend only on the spec, never on the thread count.

use super::tally::{SampleCounter, SampleTally};
use super::{Sampler, SamplerScratch};
use crate::engine::{self, ChunkPlan, Observer, Progress};
use crate::error::Result;
use crate::source::{RandomSource, SourceSpec};
use crate::values::check_trials;

/// Everything that determines a sampler run's counts.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleSpec {
    /// The sampler (with its k).
    pub sampler: Sampler,
    /// The population size N (items `0..N`; a board's w·h).
    pub n: usize,
    /// One integer weight per item, for a weighted pick.
    pub weights: Option<Vec<u64>>,
    /// Samples drawn.
    pub trials: u64,
    /// The random source.
    pub source: SourceSpec,
    /// The seed.
    pub seed: u64,
    /// A dedicated pool of this many workers; `None` uses the current pool.
    /// Does not change the counts.
    pub threads: Option<usize>,
}

impl SampleSpec {
    /// A spec for `sampler` over `0..n` without weights, on the current
    /// thread pool.
    pub fn new(sampler: Sampler, n: usize, trials: u64, source: SourceSpec, seed: u64) -> Self {
        Self {
            sampler,
            n,
            weights: None,
            trials,
            source,
            seed,
            threads: None,
        }
    }

    /// The same spec with integer weights (for a weighted pick).
    pub fn with_weights(self, weights: Vec<u64>) -> Self {
        Self {
            weights: Some(weights),
            ..self
        }
    }
}

/// Draws `spec.trials` samples and counts them, reporting each finished
/// chunk's trials to `progress`. Bad requests (k > N, missing weights…)
/// are refused before anything runs.
pub fn run(spec: &SampleSpec, progress: Progress<'_>) -> Result<SampleTally> {
    let scratch = spec.sampler.prepare(spec.n, spec.weights.as_deref())?;
    check_trials(spec.trials)?;
    let plan = ChunkPlan {
        source: &spec.source,
        seed: spec.seed,
        trials: spec.trials,
        threads: spec.threads,
    };
    let k = spec.sampler.k() as usize;
    let ordered = spec.sampler.is_ordered();
    engine::run_chunks(
        plan,
        || Worker {
            sampler: spec.sampler,
            n: spec.n,
            scratch: scratch.clone(),
            sample: Vec::with_capacity(k),
            counter: SampleCounter::new(spec.n, k, ordered),
        },
        progress,
    )
}

/// One thread's sampler, buffers and counts.
struct Worker {
    sampler: Sampler,
    n: usize,
    scratch: SamplerScratch,
    sample: Vec<u32>,
    counter: SampleCounter,
}

impl Observer for Worker {
    type Output = SampleTally;

    fn run_chunk<S: RandomSource>(&mut self, rng: &mut S, trials: u64) -> Result<()> {
        for _ in 0..trials {
            self.sampler
                .sample(self.n, rng, &mut self.sample, &mut self.scratch);
            self.counter.count(&self.sample);
        }
        Ok(())
    }

    fn finish(self) -> SampleTally {
        self.counter.finish()
    }

    fn merge(into: &mut SampleTally, other: SampleTally) {
        into.merge(&other);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{CHUNK_TRIALS, no_progress};

    fn spec(name: &str, n: usize, threads: usize) -> SampleSpec {
        SampleSpec {
            sampler: Sampler::parse(name).unwrap(),
            n,
            weights: None,
            trials: 2 * CHUNK_TRIALS + 777,
            source: SourceSpec::parse("xoshiro256pp").unwrap(),
            seed: 5,
            threads: Some(threads),
        }
    }

    #[test]
    fn counts_do_not_depend_on_the_thread_count() {
        let one = run(&spec("partial-fisher-yates:k=3", 9, 1), &no_progress).unwrap();
        assert_eq!(
            one,
            run(&spec("partial-fisher-yates:k=3", 9, 2), &no_progress).unwrap()
        );
        assert_eq!(one.trials(), 2 * CHUNK_TRIALS + 777);
        assert_eq!(one.inclusion().iter().sum::<u64>(), 3 * one.trials());
        assert_eq!(one.slots().unwrap().iter().sum::<u64>(), 3 * one.trials());
    }

    #[test]
    fn bad_requests_are_refused_before_the_run() {
        assert!(run(&spec("floyd:k=12", 9, 1), &no_progress).is_err());
        let weighted = spec("weighted-prefix", 2, 1);
        assert!(run(&weighted, &no_progress).is_err(), "needs weights");
        let with = SampleSpec {
            weights: Some(vec![1, 99]),
            ..weighted
        };
        let tally = run(&with, &no_progress).unwrap();
        assert!(tally.inclusion()[0] < tally.inclusion()[1] / 50);
    }
}
