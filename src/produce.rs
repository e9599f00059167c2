//! Producing a tally from any subject: a built-in algorithm run by the
//! [`engine`], or a shuffle from outside the tool whose decks are read from a
//! file or a program by [`crate::ingest`], with what the feed gave.
//!
//! It sits above both, so that the engine knows nothing of files and
//! programs and the readers nothing of the engine.

use crate::engine::{self, ALL_DECKS, N_FROM_INPUT, RunSpec};
use crate::error::{Error, ErrorKind, Result};
use crate::ingest::{self, Items, WorkerRun};
use crate::pacing::Progress;
use crate::subject::{Feed, Outside, Subject};
use crate::tally::Tally;

/// What a run produced: the tally and, for a shuffle from outside, what was
/// read.
#[derive(Debug, Clone, PartialEq)]
pub struct Produced {
    /// The counts.
    pub tally: Tally,
    /// What the feed gave, for a file or a command; `None` otherwise.
    pub feed: Option<FeedReport>,
}

/// What an outside feed gave: how many decks, what the items were, and, for
/// a command, each worker as run (what a rerun needs).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FeedReport {
    /// Decks counted.
    pub decks: u64,
    /// Whether the trial limit stopped the read before the input ended.
    pub stopped_early: bool,
    /// The decks asked for (`--trials`), if a limit was set: a file may
    /// hold fewer, which is fine and said.
    pub asked: Option<u64>,
    /// What each index of the tally means (the starting order).
    pub items: Items,
    /// The workers of a command, in order; empty for a file.
    pub workers: Vec<WorkerRun>,
    /// SHA-256 of the input file, so that a report names the exact bytes
    /// it judged; `None` for stdin and commands.
    pub sha256: Option<String>,
}

/// Runs the shuffles of `spec`, or reads them from its outside feed, and
/// returns their tally. For a [`Feed::Function`] subject use
/// [`engine::run_shuffle`], which takes the shuffle.
pub fn run(spec: &RunSpec, progress: Progress<'_>) -> Result<Tally> {
    produce(spec, progress).map(|p| p.tally)
}

/// Runs the shuffles of `spec`, or reads them from its outside feed, and
/// returns the tally with what the feed gave.
pub fn produce(spec: &RunSpec, progress: Progress<'_>) -> Result<Produced> {
    let outside = match &spec.subject {
        Subject::Builtin(_) => {
            let tally = engine::run(spec, progress)?;
            return Ok(Produced { tally, feed: None });
        }
        Subject::Outside(outside) => outside,
    };
    let opts = read_options(spec, outside, ingest::Format::Text);
    let mut sha256 = None;
    let (read, workers) = match &outside.feed {
        Feed::File { path, format } => {
            if path.as_os_str() != "-" {
                sha256 = Some(crate::digest::file_sha256(path).map_err(as_bad_input)?);
            }
            let opts = ingest::Options {
                format: *format,
                ..opts
            };
            let read = engine::in_pool(spec.threads, || ingest::read_path(path, &opts, progress))?
                .map_err(as_bad_input)?;
            (read, Vec::new())
        }
        Feed::Command {
            template,
            jobs,
            timeout,
        } => {
            let n = (spec.n != N_FROM_INPUT).then_some(spec.n);
            if n.is_some() {
                engine::check(spec)?;
            }
            let command = ingest::CommandSpec {
                template: template.clone(),
                jobs: *jobs,
                timeout: *timeout,
            };
            ingest::run_command(&command, n, spec.trials, spec.seed, &opts, progress)
                .map_err(as_bad_input)?
        }
        Feed::Function => {
            return Err(Error::unsupported(format!(
                "{} is a Rust function: run it with engine::run_shuffle",
                outside.name
            )));
        }
        Feed::Given { .. } => {
            return Err(Error::unsupported(format!(
                "{}: permutations handed over in memory are counted by the caller \
                 (ingest::read) and audited with audit::of_read",
                outside.name
            )));
        }
    };
    Ok(Produced {
        tally: read.tally,
        feed: Some(FeedReport {
            decks: read.decks,
            stopped_early: read.stopped_early,
            asked: (spec.trials != ALL_DECKS).then_some(spec.trials),
            items: read.items,
            workers,
            sha256,
        }),
    })
}

/// How to read the decks of `spec`, a shuffle from `outside` written in
/// `format`: its n if given, starting order, decks asked for and what its
/// tests collect.
pub fn read_options(spec: &RunSpec, outside: &Outside, format: ingest::Format) -> ingest::Options {
    ingest::Options {
        n: (spec.n != N_FROM_INPUT).then_some(spec.n),
        format,
        order: outside.order.clone(),
        max_decks: (spec.trials != ALL_DECKS).then_some(spec.trials),
        collect: spec.collect(),
        tests: Some(spec.tests.clone()),
    }
}

/// A feed's error, as [`ErrorKind::BadInput`] unless it says better.
fn as_bad_input(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Other => e.with_kind(ErrorKind::BadInput),
        _ => e,
    }
}
