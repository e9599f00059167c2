//! What a run produced: the counts, and for a subject from outside what its
//! feed gave.

use super::Kind;
use crate::ingest::WorkerRun;

/// The counts of a run, with what an outside feed gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Produced<K: Kind> {
    /// The counts.
    pub tally: K::Tally,
    /// What the feed gave, for a file, a command or output handed over;
    /// `None` for a run the engine drew.
    pub feed: Option<FeedReport<K>>,
}

/// What an outside feed gave: how much was read, whether a limit stopped
/// it, what the kind found out reading it, and for a command each worker as
/// run (what a rerun needs).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FeedReport<K: Kind> {
    /// Trials read (decks, samples, picks).
    pub counted: u64,
    /// Whether the trial limit stopped the read before the input ended.
    pub stopped_early: bool,
    /// The trials asked for (`--trials`), if a limit was set: a file may
    /// hold fewer, which is fine and said.
    pub asked: Option<u64>,
    /// What reading found out (the items of a deck, how samples numbered
    /// their items).
    pub read: K::Read,
    /// The workers of a command, in order; empty otherwise.
    pub workers: Vec<WorkerRun>,
    /// SHA-256 of the input file, so that a report names the exact bytes
    /// it judged; `None` for stdin, commands and output handed over.
    pub sha256: Option<String>,
}

impl<K: Kind> FeedReport<K> {
    /// What a read of `counted` trials gave, found out `read`, with the
    /// limit `asked` (if any) and whether it stopped the read early.
    pub fn new(counted: u64, stopped_early: bool, asked: Option<u64>, read: K::Read) -> Self {
        Self {
            counted,
            stopped_early,
            asked,
            read,
            workers: Vec::new(),
            sha256: None,
        }
    }

    /// The same report with a command's `workers`.
    pub fn with_workers(self, workers: Vec<WorkerRun>) -> Self {
        Self { workers, ..self }
    }

    /// The same report with the input file's `sha256`.
    pub fn with_sha256(self, sha256: Option<String>) -> Self {
        Self { sha256, ..self }
    }
}
