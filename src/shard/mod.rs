//! Runs that outgrow one machine: a run cut into shards, each counted
//! anywhere (a batch engine's array task, another machine, another day),
//! saved part-way and resumed, and merged into the one run it was cut from.
//!
//! The engine already counts in chunks: chunk `c` of a run draws from
//! stream `c` of its seed, so its counts do not depend on where or when it
//! runs, and tallies of disjoint chunks add up. This holds for built-in
//! shuffles ([`Kind::count`](crate::audit::Kind::count) of
//! [`Shuffles`](crate::shuffle::Shuffles)) and built-in samplers
//! ([`Kind::count`](crate::audit::Kind::count) of
//! [`Samplers`](crate::sampler::Samplers)) alike, so a run of either, or of
//! both (a [`crate::study::Study`] with both kinds), is split and resumed
//! by the same code. A shard is a contiguous
//! range of chunks ([`Shard::range`]); its counts go into a
//! [`TallyFile`], which records everything that decides
//! them (every audit's spec, the seed, the chunk range, the tool version)
//! under a checksum. [`merge::merge`] refuses tallies that do not belong
//! together and adds the others up: the merged counts are bit-identical to
//! the unsharded run's, and are judged by [`crate::study::Study::conclude`],
//! the path every study's counts take, so the report is the same too.
//! [`run`] counts a tally file's remaining chunks, saving it every so often
//! and when asked to stop, so a run killed at any moment resumes from its
//! last save and still gives the same counts. A run whose trials a caller's
//! own function draws on demand (a Python shuffle) is counted in the same
//! chunks by [`drawn`], each chunk drawn with a generator seeded from the
//! run's seed and the chunk's number, and goes into the same tally files.

pub mod drawn;
pub mod file;
pub mod input;
mod kinds;
pub mod merge;
pub mod run;

pub use file::TallyFile;
pub use kinds::register;

use crate::engine::ChunkRange;
use crate::error::{Error, ErrorKind, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Shard `index` of `count` (from 0): which share of a run's chunks one
/// task counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard's number, `0..count`.
    pub index: u64,
    /// How many shards the run is cut into.
    pub count: u64,
}

impl Shard {
    /// Reads `I/N` (`3/64`), with `I` below `N`: what `--shard` takes, and
    /// what batch engines give as a task index (from 0) and a task count.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = |why: &str| {
            Error::of_kind(
                ErrorKind::OutOfRange,
                format!("bad shard '{text}': {why} (expected I/N, e.g. 0/4 .. 3/4)"),
            )
        };
        let (index, count) = text.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| bad("not whole numbers"))
        };
        Self::new(number(index)?, number(count)?).map_err(|e| bad(&e.to_string()))
    }

    /// Shard `index` of `count`, refused ([`ErrorKind::OutOfRange`], saying
    /// why) unless `index` is below `count`: what a front that takes the
    /// two numbers apart (Python's `shard=(i, k)`) checks them with.
    pub fn new(index: u64, count: u64) -> Result<Self> {
        let bad = |why: &str| Error::of_kind(ErrorKind::OutOfRange, why.to_string());
        if count == 0 {
            return Err(bad("the count must be at least 1"));
        }
        if index >= count {
            return Err(bad("the index counts from 0 and must be below the count"));
        }
        Ok(Self { index, count })
    }

    /// This shard's chunks of a run whose chunks are `all`: contiguous,
    /// sizes differing by at most one chunk, and the shards 0..count
    /// together cover every chunk once. (A shard of a run with fewer chunks
    /// than shards may be empty.)
    pub fn range(self, all: ChunkRange) -> ChunkRange {
        let chunks = all.end as u128;
        let at = |i: u64| (chunks * i as u128 / self.count as u128) as u64;
        all.with(at(self.index), at(self.index + 1))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::CHUNK_TRIALS;

    #[test]
    fn shards_cover_every_chunk_once() {
        for (trials, count) in [(CHUNK_TRIALS * 17 + 3, 4), (5, 3), (CHUNK_TRIALS * 64, 64)] {
            let mut next = 0;
            let mut total = 0;
            for index in 0..count {
                let range = Shard { index, count }.range(ChunkRange::all(trials));
                assert_eq!(range.first, next);
                next = range.end;
                total += range.trials(trials);
            }
            assert_eq!(next, ChunkRange::all(trials).end);
            assert_eq!(total, trials);
        }
        let sizes: Vec<u64> = (0..4)
            .map(|index| {
                Shard { index, count: 4 }
                    .range(ChunkRange::all(CHUNK_TRIALS * 18))
                    .len()
            })
            .collect();
        assert_eq!(sizes, vec![4, 5, 4, 5]);
    }

    #[test]
    fn shards_are_read_as_index_over_count() {
        assert_eq!(
            Shard::parse("3/64").unwrap(),
            Shard {
                index: 3,
                count: 64
            }
        );
        assert_eq!(Shard::parse("0/1").unwrap().to_string(), "0/1");
        for bad in ["4/4", "1/0", "x/2", "3", "-1/2"] {
            let e = Shard::parse(bad).unwrap_err().to_string();
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
    }
}
