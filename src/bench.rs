//! Speed measured side by side: a bare Fisher–Yates loop, the full engine on
//! one thread, and the engine on every thread, in one run.

use crate::algorithm::{Algorithm, fisher_yates};
use crate::engine::{self, RunSpec, no_progress};
use crate::error::Result;
use crate::source::{RandomSource, SourceSpec, SourceVisitor};
use crate::spec::TestSet;
use serde::Serialize;
use std::time::Instant;

/// The three speeds for one n, in shuffles per second, and their ratios.
#[derive(Debug, Clone, Serialize)]
pub struct BenchRow {
    /// Number of elements.
    pub n: usize,
    /// Shuffles per measurement.
    pub trials: u64,
    /// Threads used for `engine_all`.
    pub threads: usize,
    /// (a) a bare Durstenfeld loop with the same generator, no counting.
    pub bare: f64,
    /// (b) the audit engine (shuffling and counting) on one thread.
    pub engine_one: f64,
    /// (c) the audit engine on all threads.
    pub engine_all: f64,
}

impl BenchRow {
    /// (b)/(a): what counting and the engine cost on one thread (1 = free).
    pub fn engine_vs_bare(&self) -> f64 {
        self.engine_one / self.bare
    }

    /// (c)/(b): the parallel speed-up.
    pub fn parallel_speedup(&self) -> f64 {
        self.engine_all / self.engine_one
    }
}

/// Measures the three speeds at `n`, taking the median of `repeats` runs of
/// each, interleaved so that drifts in machine speed hit all three alike.
pub fn measure(n: usize, trials: u64, source: SourceSpec, repeats: usize) -> Result<BenchRow> {
    let threads = rayon::current_num_threads();
    let mut bare = Vec::new();
    let mut one = Vec::new();
    let mut all = Vec::new();
    // The engine counting the position-by-value matrix only: the cost every
    // audit pays. (Structure tests add their own, reported by `audit`.)
    let spec = |threads| RunSpec {
        threads: Some(threads),
        tests: TestSet::position_value(),
        ..RunSpec::new(Algorithm::FisherYates, n, trials, source, 1)
    };
    for _ in 0..repeats.max(1) {
        bare.push(source.visit(1, BareLoop { n, trials }));
        one.push(rate(trials, || {
            engine::run(&spec(1), &no_progress).map(drop)
        })?);
        all.push(rate(trials, || {
            engine::run(&spec(threads), &no_progress).map(drop)
        })?);
    }
    Ok(BenchRow {
        n,
        trials,
        threads,
        bare: median(bare),
        engine_one: median(one),
        engine_all: median(all),
    })
}

fn rate(trials: u64, work: impl FnOnce() -> Result<()>) -> Result<f64> {
    let start = Instant::now();
    work()?;
    Ok(trials as f64 / start.elapsed().as_secs_f64())
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The baseline: one array shuffled again and again, nothing counted.
struct BareLoop {
    n: usize,
    trials: u64,
}

impl SourceVisitor for BareLoop {
    type Output = f64;
    fn visit<S: RandomSource, F: Fn(u64) -> S + Sync>(self, make: F) -> f64 {
        let mut rng = make(0);
        let mut a: Vec<u32> = (0..self.n as u32).collect();
        let mut checksum = 0u32;
        let start = Instant::now();
        for _ in 0..self.trials {
            fisher_yates(&mut a, &mut rng);
            checksum = checksum.wrapping_add(a[0]);
        }
        let seconds = start.elapsed().as_secs_f64();
        std::hint::black_box(checksum);
        self.trials as f64 / seconds
    }
}
