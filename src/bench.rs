//! Speed measured side by side, in one run and interleaved: a bare
//! Fisher–Yates loop, the audit of the position-by-value test alone and the
//! default audit, each on one thread and on every thread; and reading decks
//! made elsewhere ([`ingest`]) next to the engine making and counting its
//! own.

mod ingest;

pub use ingest::{IngestRow, measure_ingest};

use crate::algorithm::{Algorithm, fisher_yates};
use crate::audit::{self, DEFAULT_ALPHA, Spec};
use crate::engine::no_progress;
use crate::error::Result;
use crate::source::{RandomSource, SourceSpec, SourceVisitor};
use crate::spec::TestSet;
use crate::subject::{ShuffleOptions, Shuffles};
use serde::Serialize;
use std::time::Instant;

/// What one bench row times, per shuffle of n elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Work {
    /// A bare hand-written Durstenfeld loop with the same generator, nothing
    /// counted: the speed limit.
    BareLoop,
    /// The audit with the position-by-value test alone: shuffle, count the
    /// n×n matrix, test it.
    PositionValue,
    /// The default audit for n (what `audit -a fisher-yates -n N` runs):
    /// shuffle, count what every default test needs, test.
    DefaultAudit,
}

impl Work {
    /// Every row of a size, in table order (the bare loop first: the others
    /// are compared with it).
    pub const ALL: [Work; 3] = [Work::BareLoop, Work::PositionValue, Work::DefaultAudit];

    /// The row's name in tables.
    pub fn label(self) -> &'static str {
        match self {
            Work::BareLoop => "bare loop",
            Work::PositionValue => "position-value",
            Work::DefaultAudit => "default audit",
        }
    }

    /// The tests the audit runs at `n`, or `None` for the bare loop.
    pub fn tests(self, n: usize) -> Option<TestSet> {
        match self {
            Work::BareLoop => None,
            // Binned above `spec::LARGE_N`, as `--tests position-value` runs.
            Work::PositionValue => Some(TestSet::position_value().at(n)),
            Work::DefaultAudit => Some(TestSet::default_for(n)),
        }
    }
}

/// One row: the speeds of one [`Work`] at one n, in shuffles per second,
/// and its ratios.
#[derive(Debug, Clone, Serialize)]
pub struct BenchRow {
    /// What was timed.
    pub work: Work,
    /// The tests the audit ran (comma-separated), empty for the bare loop.
    pub tests: String,
    /// Median speed on one thread.
    pub one_thread: f64,
    /// Median speed on two threads, where the machine has more than two
    /// (on two, that is `all_threads`): the first step of the scaling.
    pub two_threads: Option<f64>,
    /// Median speed on every thread.
    pub all_threads: f64,
    /// The speed on one thread over the bare loop's on one thread, measured
    /// in the same round (1 = as fast as the bare loop): the median over
    /// the rounds.
    pub vs_bare: f64,
    /// The speed on every thread over the speed on one, measured in the
    /// same round: the parallel speed-up (median over the rounds).
    pub speedup: f64,
    /// The part of one run that did not parallelise, in milliseconds:
    /// [`amdahl_serial`] of the two medians. What caps the speed-up of short
    /// and medium runs on many cores; `None` on one thread.
    pub serial_ms: Option<f64>,
    /// The audit's final tests on every thread, in milliseconds (median):
    /// the part of the serial tail that comes after the counting, timed
    /// directly. `None` for the bare loop.
    pub tests_ms: Option<f64>,
}

/// The rows measured at one n with one generator.
#[derive(Debug, Clone, Serialize)]
pub struct BenchSize {
    /// Number of elements.
    pub n: usize,
    /// The generator every row drew from.
    pub rng: String,
    /// Shuffles per measurement.
    pub trials: u64,
    /// Threads of the all-threads measurements.
    pub threads: usize,
    /// One row per [`Work`], in [`Work::ALL`] order.
    pub rows: Vec<BenchRow>,
}

/// One timed run: shuffles per second, and the seconds its final tests
/// took (audits only).
#[derive(Debug, Clone, Copy)]
struct Timed {
    rate: f64,
    tests: Option<f64>,
}

/// Measures every [`Work`] at `n` on one thread, two (where there are
/// more) and all, taking the median of `repeats` runs of each; the runs
/// are interleaved so that drifts in machine speed hit every row alike.
/// Every row shuffles with Fisher–Yates and draws from `source`.
pub fn measure(n: usize, trials: u64, source: SourceSpec, repeats: usize) -> Result<BenchSize> {
    let threads = rayon::current_num_threads();
    let mut counts = vec![1, 2, threads];
    counts.retain(|&t| t <= threads);
    counts.dedup();
    let mut timed = vec![vec![Vec::new(); counts.len()]; Work::ALL.len()];
    for _ in 0..repeats.max(1) {
        for (work, per_count) in Work::ALL.into_iter().zip(&mut timed) {
            for (&t, runs) in counts.iter().zip(per_count.iter_mut()) {
                runs.push(time(work, n, trials, source, t)?);
            }
        }
    }
    let speed = |runs: &[Timed]| median(runs.iter().map(|r| r.rate).collect());
    let bare = &timed[0][0];
    let rows = Work::ALL
        .into_iter()
        .zip(&timed)
        .map(|(work, per_count)| {
            let one = speed(&per_count[0]);
            let all_runs = per_count.last().expect("one thread at least");
            let all = speed(all_runs);
            let tests: Vec<f64> = all_runs.iter().filter_map(|r| r.tests).collect();
            BenchRow {
                work,
                tests: work.tests(n).map_or_else(String::new, |t| t.to_string()),
                one_thread: one,
                two_threads: (threads > 2).then(|| speed(&per_count[1])),
                all_threads: all,
                vs_bare: paired_ratio(&per_count[0], bare),
                speedup: paired_ratio(all_runs, &per_count[0]),
                serial_ms: amdahl_serial(trials as f64 / one, trials as f64 / all, threads)
                    .map(|s| s * 1e3),
                tests_ms: (!tests.is_empty()).then(|| median(tests) * 1e3),
            }
        })
        .collect();
    Ok(BenchSize {
        n,
        rng: source.to_string(),
        trials,
        threads,
        rows,
    })
}

/// The speed of `top` over that of `bottom`: the median of the ratios
/// within each round (measured seconds apart), not the ratio of the
/// medians, since the machine's speed drifts between rounds more than the
/// rows differ within one.
fn paired_ratio(top: &[Timed], bottom: &[Timed]) -> f64 {
    median(
        top.iter()
            .zip(bottom)
            .map(|(t, b)| t.rate / b.rate)
            .collect(),
    )
}

/// The seconds of a run that did not parallelise, by Amdahl's law from its
/// time on one thread (`one`) and on `threads` threads (`all`): with a
/// serial part s and a parallel part p, one = s + p and all = s + p /
/// threads, so s = (threads × all − one) / (threads − 1). It holds the
/// fixed part (start-up, merges, final tests) and any loss of scaling
/// (shared caches, memory bandwidth); never below 0; `None` on one thread.
pub fn amdahl_serial(one: f64, all: f64, threads: usize) -> Option<f64> {
    (threads > 1).then(|| {
        let t = threads as f64;
        ((t * all - one) / (t - 1.0)).max(0.0)
    })
}

/// The speed of `work` at `n` on `threads` threads, and its final tests'
/// seconds.
fn time(work: Work, n: usize, trials: u64, source: SourceSpec, threads: usize) -> Result<Timed> {
    let Some(tests) = work.tests(n) else {
        let rate = source.visit(1, BareLoops { n, trials, threads });
        return Ok(Timed { rate, tests: None });
    };
    let spec = Spec::<Shuffles> {
        threads: Some(threads),
        options: ShuffleOptions::with_tests(tests),
        ..Spec::new(Algorithm::FisherYates, n, trials, source, 1)
    };
    let start = Instant::now();
    let audit = audit::run(&spec, DEFAULT_ALPHA, &no_progress)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(Timed {
        rate: trials as f64 / seconds,
        tests: Some((seconds - audit.seconds()).max(0.0)),
    })
}

/// Shuffles per second of `work`, timed.
fn rate(trials: u64, work: impl FnOnce() -> Result<()>) -> Result<f64> {
    let start = Instant::now();
    work()?;
    Ok(trials as f64 / start.elapsed().as_secs_f64())
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The baseline: on each of `threads` threads, one array shuffled again and
/// again (thread t drawing from stream t), nothing counted; `trials` in all.
struct BareLoops {
    n: usize,
    trials: u64,
    threads: usize,
}

impl SourceVisitor for BareLoops {
    type Output = f64;
    fn visit<S: RandomSource, F: Fn(u64) -> S + Sync>(self, make: F) -> f64 {
        let threads = self.threads.max(1) as u64;
        let share = |t: u64| self.trials / threads + u64::from(t < self.trials % threads);
        let run = &|t: u64| {
            let mut rng = make(t);
            let mut a: Vec<u32> = (0..self.n as u32).collect();
            let mut checksum = 0u32;
            for _ in 0..share(t) {
                fisher_yates(&mut a, &mut rng);
                checksum = checksum.wrapping_add(a[0]);
            }
            std::hint::black_box(checksum);
        };
        let start = Instant::now();
        std::thread::scope(|s| {
            for t in 1..threads {
                s.spawn(move || run(t));
            }
            run(0);
        });
        self.trials as f64 / start.elapsed().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Above n = 1024 every audit row bins the matrix as the command line
    /// does (the full matrix at n = 10^5 would need 80 GB per worker).
    #[test]
    fn audit_rows_bin_the_matrix_at_large_n() {
        for work in [Work::PositionValue, Work::DefaultAudit] {
            assert_eq!(work.tests(100_000).unwrap().bins(), Some(64), "{work:?}");
            assert_eq!(work.tests(52).unwrap().bins(), None, "{work:?}");
        }
        assert!(Work::BareLoop.tests(52).is_none());
    }

    /// 1 s on one thread and 0.6 s on 2: 0.2 s did not parallelise (0.2 +
    /// 0.8 / 2 = 0.6); 0.1 s of 1.6 s on 16 threads (0.1 + 1.5 / 16); a run
    /// faster than perfect scaling has none; one thread says nothing.
    #[test]
    fn the_serial_part_follows_amdahl() {
        assert!((amdahl_serial(1.0, 0.6, 2).unwrap() - 0.2).abs() < 1e-12);
        assert!((amdahl_serial(1.6, 0.19375, 16).unwrap() - 0.1).abs() < 1e-12);
        assert_eq!(amdahl_serial(1.6, 0.1, 16), Some(0.0));
        assert_eq!(amdahl_serial(1.0, 1.0, 1), None);
    }

    /// A machine that runs one round twice as fast moves both rows of the
    /// round: the ratio within each round stays 0.5, where the ratio of
    /// the medians does not.
    #[test]
    fn ratios_are_taken_within_rounds() {
        let runs = |rates: &[f64]| -> Vec<Timed> {
            rates
                .iter()
                .map(|&rate| Timed { rate, tests: None })
                .collect()
        };
        let bare = runs(&[10.0, 40.0, 12.0]);
        let audit = runs(&[5.0, 20.0, 6.0]);
        assert_eq!(paired_ratio(&audit, &bare), 0.5);
        let rates = |r: &[Timed]| r.iter().map(|t| t.rate).collect::<Vec<_>>();
        assert_eq!(median(rates(&audit)) / median(rates(&bare)), 0.5);
        // The second round fast for the bare loop only: one outlier of
        // three, which the median of the ratios leaves out.
        let bare = runs(&[10.0, 40.0, 12.0]);
        let audit = runs(&[5.0, 5.5, 6.0]);
        assert_eq!(paired_ratio(&audit, &bare), 0.5);
        assert!((median(rates(&audit)) / median(rates(&bare)) - 5.5 / 12.0).abs() < 1e-12);
    }
}
