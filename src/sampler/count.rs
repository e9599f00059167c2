//! Producing a sampler's counts: running a built-in sampler many times on
//! the engine's chunk runner (chunk `c` draws from stream `c` of the seed),
//! or reading an outside sampler's samples, counting every sample into a
//! [`SampleTally`]. Built-in runs keep the shuffles' reproducibility
//! contract: the counts depend only on the spec, never on the thread count.

use super::subject::{Sample, Samplers};
use super::tally::{SampleCounter, SampleTally};
use super::{Sampler, SamplerScratch};
use crate::audit::{ALL_TRIALS, FeedReport, Produced, Spec, Subject};
use crate::engine::{self, ChunkPlan, ChunkRange, Observer, Progress};
use crate::error::{Error, Result};
use crate::ingest::samples::{Base, SampleKind, Samples};
use crate::ingest::{Format, Ingested, Options};
use crate::source::RandomSource;
use crate::values::check_trials;

/// How samples of `spec`, written in `format`, are read: its outside
/// subject's shape and numbering, the samples asked for and whether they
/// are weighted picks.
pub(super) fn options(spec: &Spec<Samplers>, format: Format) -> Result<Options<Samples>> {
    let Some(outside) = spec.subject.outside() else {
        return Err(Error::unsupported(format!(
            "{}: a built-in sampler is drawn, not read",
            spec.subject
        )));
    };
    if let Some(weights) = &spec.options.weights
        && weights.len() != spec.n
    {
        return Err(Error::out_of_range(format!(
            "{} weights were given for N = {} items",
            weights.len(),
            spec.n
        )));
    }
    Ok(Options {
        n: Some(spec.n),
        format,
        max_records: (spec.trials != ALL_TRIALS).then_some(spec.trials),
        reading: Samples {
            kind: outside.reading.kind,
            base: outside.reading.base,
            weighted: spec.options.weights.is_some(),
            k: outside.reading.k,
        },
    })
}

/// What a read of samples gave, as the audit's feed reports it.
pub(super) fn produced(
    spec: &Spec<Samplers>,
    read: Ingested<SampleTally, Base>,
    workers: Vec<crate::ingest::WorkerRun>,
) -> Produced<Samplers> {
    let asked = (spec.trials != ALL_TRIALS).then_some(spec.trials);
    let feed =
        FeedReport::new(read.counted, read.stopped_early, asked, read.items).with_workers(workers);
    Produced {
        tally: read.tally,
        feed: Some(feed),
    }
}

/// Draws and counts only the chunks `chunks` of the built-in sampler run
/// `spec` (the whole run, a shard of it, or what a resumed run has left),
/// reporting each finished chunk's trials to `progress`. Chunk `c` holds
/// the same samples whichever range it is drawn in, so the tallies of
/// disjoint ranges merge ([`SampleTally::merge`]) into their union's, bit
/// for bit. Refuses a sampler from outside (its samples are read, not
/// drawn in chunks of a seed) and chunks of another size or beyond the
/// run's.
pub(crate) fn count(
    spec: &Spec<Samplers>,
    chunks: ChunkRange,
    progress: Progress<'_>,
) -> Result<SampleTally> {
    let Some(&sampler) = spec.subject.builtin() else {
        return Err(Error::unsupported(format!(
            "{} is not a built-in sampler: only those are drawn in chunks that can be split or \
             resumed",
            spec.subject
        )));
    };
    let size = spec.chunks().size;
    if chunks.size != size {
        return Err(Error::bad_input(format!(
            "chunks of {} trials do not belong to a sampler run (chunks of {size})",
            chunks.size
        )));
    }
    let scratch = sampler.prepare(spec.n, spec.options.weights.as_deref())?;
    let draw = Builtin {
        sampler,
        n: spec.n,
        scratch,
    };
    let shape = (sampler.k() as usize, sampler.is_ordered());
    run_draws(spec, shape, chunks, draw, progress)
}

/// Draws `spec.trials` samples of `sampler`, a sampler written in Rust, on
/// the engine's chunk runner (chunk `c` draws from stream `c` of the seed,
/// so the counts depend only on the spec), and counts them. Every sample
/// is checked: a sampler that returns the wrong number of items, an item
/// out of range or an item twice is an error naming the first such sample,
/// not a verdict. `spec.sampler` (an outside sampler fed by a function)
/// says whether it draws samples, ordered samples or picks, and `k` how
/// many items each sample holds (1 for a pick); see `crate::custom`.
pub fn run_sampler<T: Sample>(
    spec: &Spec<Samplers>,
    k: usize,
    sampler: &T,
    progress: Progress<'_>,
) -> Result<SampleTally> {
    let Subject::Outside(outside) = &spec.subject else {
        return Err(Error::unsupported(format!(
            "{}: a built-in sampler runs without a function",
            spec.subject
        )));
    };
    let pick = outside.reading.kind == SampleKind::Pick;
    let k = if pick { 1 } else { k };
    if k == 0 || k > spec.n {
        return Err(Error::out_of_range(format!(
            "{}: k = {k} is not in 1..={} (N = {})",
            outside.name, spec.n, spec.n
        )));
    }
    if let Some(weights) = &spec.options.weights {
        check_weights(weights, spec.n)?;
    }
    let draw = Checked {
        sampler,
        name: &outside.name,
        n: spec.n,
        k,
        pick,
        seen: vec![u64::MAX; spec.n],
        drawn: 0,
    };
    let shape = (k, outside.reading.kind.ordered());
    run_draws(spec, shape, spec.chunks(), draw, progress)
}

/// Refuses weights that do not give every one of the N items a weight, or
/// give none of them one.
fn check_weights(weights: &[u64], n: usize) -> Result<()> {
    if weights.len() != n {
        return Err(Error::bad_input(format!(
            "{} weights were given for N = {n} items",
            weights.len()
        )));
    }
    if weights.iter().all(|&w| w == 0) {
        return Err(Error::out_of_range(
            "every weight is 0: nothing can be picked",
        ));
    }
    Ok(())
}

/// Runs `draw` on the engine's chunk runner for the chunks `chunks` of
/// the run, counting samples of `k` items (their slots too when
/// `ordered`), given as `(k, ordered)`.
fn run_draws<D: Draw>(
    spec: &Spec<Samplers>,
    (k, ordered): (usize, bool),
    chunks: ChunkRange,
    draw: D,
    progress: Progress<'_>,
) -> Result<SampleTally> {
    check_trials(spec.trials)?;
    let plan = ChunkPlan {
        source: &spec.source,
        seed: spec.seed,
        trials: spec.trials,
        chunks,
        threads: spec.threads,
    };
    engine::run_chunks(
        plan,
        || Worker {
            draw: draw.clone(),
            sample: Vec::with_capacity(k),
            counter: SampleCounter::new(spec.n, k, ordered),
        },
        progress,
    )
}

/// One sampler as a worker thread runs it: draws one sample at a time.
trait Draw: Clone + Send + Sync {
    /// Draws one sample into `out` (empty on entry); `Err` says why the
    /// sample cannot be counted.
    fn draw<S: RandomSource>(&mut self, rng: &mut S, out: &mut Vec<u32>) -> Result<()>;
}

/// A built-in sampler with its scratch buffers.
#[derive(Clone)]
struct Builtin {
    sampler: Sampler,
    n: usize,
    scratch: SamplerScratch,
}

impl Draw for Builtin {
    #[inline]
    fn draw<S: RandomSource>(&mut self, rng: &mut S, out: &mut Vec<u32>) -> Result<()> {
        self.sampler.sample(self.n, rng, out, &mut self.scratch);
        Ok(())
    }
}

/// A user's sampler, whose every sample is checked before it is counted.
struct Checked<'a, T> {
    sampler: &'a T,
    name: &'a str,
    n: usize,
    k: usize,
    pick: bool,
    /// `seen[item]` = the index of the last sample (this worker's) that
    /// held it, to find an item drawn twice without clearing.
    seen: Vec<u64>,
    drawn: u64,
}

impl<T> Clone for Checked<'_, T> {
    fn clone(&self) -> Self {
        Self {
            seen: vec![u64::MAX; self.n],
            drawn: 0,
            ..*self
        }
    }
}

impl<T: Sample> Draw for Checked<'_, T> {
    fn draw<S: RandomSource>(&mut self, rng: &mut S, out: &mut Vec<u32>) -> Result<()> {
        self.sampler.sample(rng, out);
        self.drawn += 1;
        let what = if self.pick {
            format!("a pick of 0..{}", self.n)
        } else {
            format!("a sample of k = {} distinct items of 0..{}", self.k, self.n)
        };
        let wrong = |why: String| {
            Err(Error::bad_input(format!(
                "{} did not return {what}: {why}",
                self.name
            )))
        };
        if out.len() != self.k {
            return wrong(format!("it returned {} items", out.len()));
        }
        for &item in out.iter() {
            let Some(seen) = self.seen.get_mut(item as usize) else {
                return wrong(format!("{item} is not in 0..{}", self.n));
            };
            if *seen == self.drawn {
                return wrong(format!("{item} appears twice"));
            }
            *seen = self.drawn;
        }
        Ok(())
    }
}

/// One thread's sampler, buffers and counts.
struct Worker<D> {
    draw: D,
    sample: Vec<u32>,
    counter: SampleCounter,
}

impl<D: Draw> Observer for Worker<D> {
    type Output = SampleTally;

    fn run_chunk<S: RandomSource>(&mut self, rng: &mut S, trials: u64) -> Result<()> {
        for _ in 0..trials {
            self.sample.clear();
            self.draw.draw(rng, &mut self.sample)?;
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
    use crate::source::SourceSpec;

    fn spec(name: &str, n: usize, threads: usize) -> Spec<Samplers> {
        let mut spec = Spec::new(
            Sampler::parse(name).unwrap(),
            n,
            2 * CHUNK_TRIALS + 777,
            SourceSpec::parse("xoshiro256pp").unwrap(),
            5,
        );
        spec.threads = Some(threads);
        spec
    }

    fn run(spec: &Spec<Samplers>) -> Result<SampleTally> {
        count(spec, spec.chunks(), &no_progress)
    }

    #[test]
    fn counts_do_not_depend_on_the_thread_count() {
        let one = run(&spec("partial-fisher-yates:k=3", 9, 1)).unwrap();
        assert_eq!(one, run(&spec("partial-fisher-yates:k=3", 9, 2)).unwrap());
        assert_eq!(one.trials(), 2 * CHUNK_TRIALS + 777);
        assert_eq!(one.inclusion().iter().sum::<u64>(), 3 * one.trials());
        assert_eq!(one.slots().unwrap().iter().sum::<u64>(), 3 * one.trials());
    }

    #[test]
    fn ranges_of_chunks_add_up_to_the_run() {
        let spec = spec("reservoir:k=3", 7, 2);
        let whole = run(&spec).unwrap();
        let all = spec.chunks();
        let mut merged = count(&spec, all.with(0, 1), &no_progress).unwrap();
        let rest = count(&spec, all.with(1, all.end), &no_progress).unwrap();
        merged.merge(&rest);
        assert_eq!(merged, whole);
        let empty = count(&spec, all.with(2, 2), &no_progress).unwrap();
        assert_eq!(empty.trials(), 0);
        let other_size = ChunkRange::all_sized(spec.trials, 10);
        assert!(count(&spec, other_size, &no_progress).is_err());
        assert!(count(&spec, all.with(0, all.end + 1), &no_progress).is_err());
    }

    #[test]
    fn bad_requests_are_refused_before_the_run() {
        assert!(run(&spec("floyd:k=12", 9, 1)).is_err());
        let weighted = spec("weighted-prefix", 2, 1);
        assert!(run(&weighted).is_err(), "needs weights");
        let mut with = weighted;
        with.options.weights = Some(vec![1, 99]);
        let tally = run(&with).unwrap();
        assert!(tally.inclusion()[0] < tally.inclusion()[1] / 50);
    }
}
