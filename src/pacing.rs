//! How work is cut and reported: the batch a worker fills before counting,
//! the progress callback, and the memory a run may take.
//!
//! A ground module: the engine, the readers of outside feeds
//! ([`crate::ingest`]) and the sampler runs all pace their work by it, so
//! none of them imports another for it.

/// Shuffles generated before they are counted. Shuffling a batch and then
/// counting it keeps each loop tight (measured: about 1.9x faster at n = 52
/// than counting after every shuffle); the readers of outside feeds parse
/// decks in batches of the same size.
pub const BATCH: usize = 256;

/// Receives progress: the number of trials just completed (called once per
/// chunk, from worker threads).
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// A progress sink that ignores everything.
pub fn no_progress(_: u64) {}

/// Memory the operating system says is available, where it says (Linux).
pub fn available_memory() -> Option<u128> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
