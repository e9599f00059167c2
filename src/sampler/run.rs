//! Producing a sampler's counts: running a built-in sampler many times on
//! the engine's chunk runner (chunk `c` draws from stream `c` of the seed),
//! or reading an outside sampler's samples, counting every sample into a
//! [`SampleTally`]. Built-in runs keep the shuffles' reproducibility
//! contract: the counts depend only on the spec, never on the thread count.

use super::subject::{OutsideSampler, SampleFeed, SamplerSubject};
use super::tally::{SampleCounter, SampleTally};
use super::{Sampler, SamplerScratch};
use crate::engine::{self, ChunkPlan, ChunkRange, Observer, Progress};
use crate::error::{Error, Result};
use crate::ingest::WorkerRun;
use crate::ingest::samples::{self, Base, SampleOptions};
use crate::source::{RandomSource, SourceSpec};
use crate::values::check_trials;

/// The `trials` of an outside sampler read from a file without a limit:
/// every sample the file holds.
pub const ALL_SAMPLES: u64 = u64::MAX;

/// Everything that determines a sampler run's counts.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleSpec {
    /// The sampler (a built-in one with its k, or one from outside).
    pub sampler: SamplerSubject,
    /// The population size N (items `0..N`; a board's w·h).
    pub n: usize,
    /// One integer weight per item, for a weighted pick.
    pub weights: Option<Vec<u64>>,
    /// Samples drawn (or read: at most this many, [`ALL_SAMPLES`] for all).
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
    pub fn new(
        sampler: impl Into<SamplerSubject>,
        n: usize,
        trials: u64,
        source: SourceSpec,
        seed: u64,
    ) -> Self {
        Self {
            sampler: sampler.into(),
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

/// What an outside sampler's feed gave.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleFeedReport {
    /// How the input numbered its items.
    pub base: Base,
    /// Whether the trial limit stopped the read before the input ended.
    pub stopped_early: bool,
    /// The samples asked for (`--trials`), if a limit was set: a file may
    /// hold fewer, which is fine and said.
    pub asked: Option<u64>,
    /// The workers of a command, in order; empty for a file.
    pub workers: Vec<WorkerRun>,
    /// SHA-256 of the input file, so that a report names the exact bytes
    /// it judged; `None` for stdin and commands.
    pub sha256: Option<String>,
}

/// The counts of a run, with what an outside feed gave.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleProduced {
    /// The counts.
    pub tally: SampleTally,
    /// For an outside sampler, what its feed gave.
    pub feed: Option<SampleFeedReport>,
}

/// Draws `spec.trials` samples and counts them, reporting each finished
/// chunk's trials to `progress`. Bad requests (k > N, missing weights…)
/// are refused before anything runs.
pub fn run(spec: &SampleSpec, progress: Progress<'_>) -> Result<SampleTally> {
    produce(spec, progress).map(|p| p.tally)
}

/// Runs the built-in sampler of `spec`, or reads its outside sampler's
/// samples, and counts them.
pub fn produce(spec: &SampleSpec, progress: Progress<'_>) -> Result<SampleProduced> {
    match &spec.sampler {
        SamplerSubject::Builtin(sampler) => Ok(SampleProduced {
            tally: run_builtin(spec, *sampler, progress)?,
            feed: None,
        }),
        SamplerSubject::Outside(outside) => read_outside(spec, outside, progress),
    }
}

/// Reads (or has a program print) an outside sampler's samples.
fn read_outside(
    spec: &SampleSpec,
    outside: &OutsideSampler,
    progress: Progress<'_>,
) -> Result<SampleProduced> {
    let asked = (spec.trials != ALL_SAMPLES).then_some(spec.trials);
    let opts = SampleOptions {
        n: spec.n,
        kind: outside.kind,
        base: outside.base,
        max_samples: asked,
        weighted: spec.weights.is_some(),
    };
    let mut sha256 = None;
    let (read, workers) = match &outside.feed {
        SampleFeed::File(path) => {
            if path.as_os_str() != "-" {
                sha256 = Some(crate::digest::file_sha256(path)?);
            }
            (
                samples::read_samples_path(path, &opts, progress)?,
                Vec::new(),
            )
        }
        SampleFeed::Command(cmd) => {
            samples::run_sample_command(cmd, &opts, spec.trials, spec.seed, progress)?
        }
    };
    if let Some(weights) = &spec.weights
        && weights.len() != spec.n
    {
        return Err(Error::out_of_range(format!(
            "{} weights were given for N = {} items",
            weights.len(),
            spec.n
        )));
    }
    Ok(SampleProduced {
        tally: read.tally,
        feed: Some(SampleFeedReport {
            base: read.base,
            stopped_early: read.stopped_early,
            asked,
            workers,
            sha256,
        }),
    })
}

/// Runs a built-in sampler on the engine's chunk runner.
fn run_builtin(spec: &SampleSpec, sampler: Sampler, progress: Progress<'_>) -> Result<SampleTally> {
    let scratch = sampler.prepare(spec.n, spec.weights.as_deref())?;
    check_trials(spec.trials)?;
    let plan = ChunkPlan {
        source: &spec.source,
        seed: spec.seed,
        trials: spec.trials,
        chunks: ChunkRange::all(spec.trials),
        threads: spec.threads,
    };
    let k = sampler.k() as usize;
    let ordered = sampler.is_ordered();
    engine::run_chunks(
        plan,
        || Worker {
            sampler,
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
            sampler: Sampler::parse(name).unwrap().into(),
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
