//! How work is cut and reported: the batch a worker fills before counting,
//! the progress callback, and the memory a run may take.
//!
//! A ground module: the engine, the readers of outside feeds
//! ([`crate::ingest`]) and the sampler runs all pace their work by it, so
//! none of them imports another for it.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Shuffles generated before they are counted. Shuffling a batch and then
/// counting it keeps each loop tight (measured: about 1.9x faster at n = 52
/// than counting after every shuffle); the readers of outside feeds parse
/// decks in batches of the same size.
pub const BATCH: usize = 256;

/// Receives progress: the number of trials just completed (called once per
/// chunk, from worker threads).
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// The seconds a run takes, where the platform has a clock. WebAssembly
/// in a browser or Node (`wasm32-unknown-unknown`) has none in std
/// (`Instant::now` traps there), so the page and the npm package state
/// their own seconds and this reads 0: the one place the library's timing
/// knows of the platform.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch(
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))] std::time::Instant,
);

impl Stopwatch {
    /// Starts timing now.
    pub fn start() -> Self {
        Stopwatch(
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            std::time::Instant::now(),
        )
    }

    /// Seconds since [`start`](Self::start).
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn seconds(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }

    /// 0: no clock.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub fn seconds(&self) -> f64 {
        0.0
    }
}

/// A progress sink that ignores everything.
pub fn no_progress(_: u64) {}

/// Memory the operating system says is available, where it says (Linux).
pub fn available_memory() -> Option<u128> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Trials per chunk. Part of the reproducibility contract: changing it
/// changes every count.
pub const CHUNK_TRIALS: u64 = 1 << 16;

/// A half-open range `[first, end)` of a run's chunk indices: the unit in
/// which a run is split across machines and saved part-way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkRange {
    /// The first chunk of the range.
    pub first: u64,
    /// One past the last chunk of the range.
    pub end: u64,
    /// Trials per chunk: [`CHUNK_TRIALS`], or fewer for large n (see
    /// `crate::engine::chunk_trials`). Absent from tally files written before
    /// large n, whose chunks all hold [`CHUNK_TRIALS`].
    #[serde(default = "default_size", skip_serializing_if = "is_default_size")]
    pub size: u64,
}

/// The chunk size of tally files that do not say: [`CHUNK_TRIALS`].
fn default_size() -> u64 {
    CHUNK_TRIALS
}

/// Whether `size` is [`CHUNK_TRIALS`], which tally files leave unsaid.
fn is_default_size(size: &u64) -> bool {
    *size == CHUNK_TRIALS
}

impl ChunkRange {
    /// Every chunk of a run of `trials` trials, in chunks of
    /// [`CHUNK_TRIALS`].
    pub fn all(trials: u64) -> Self {
        Self::all_sized(trials, CHUNK_TRIALS)
    }

    /// Every chunk of a run of `trials` trials, in chunks of `size` (≥ 1).
    pub fn all_sized(trials: u64, size: u64) -> Self {
        Self {
            first: 0,
            end: trials.div_ceil(size.max(1)),
            size: size.max(1),
        }
    }

    /// Chunks `first..end` of the same size as this range's.
    pub fn with(self, first: u64, end: u64) -> Self {
        Self { first, end, ..self }
    }

    /// The number of chunks in the range.
    pub fn len(self) -> u64 {
        self.end.saturating_sub(self.first)
    }

    /// Whether the range holds no chunk.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The trials these chunks hold in a run of `total` trials (the run's
    /// last chunk takes what is left).
    pub fn trials(self, total: u64) -> u64 {
        let at = |chunk: u64| chunk.saturating_mul(self.size).min(total);
        at(self.end) - at(self.first.min(self.end))
    }
}

impl fmt::Display for ChunkRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.first, self.end)
    }
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
