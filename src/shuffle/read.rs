//! Reading shuffles made outside the tool: decks from a file or printed by
//! a program, counted by [`crate::ingest`] into the tally the spec's tests
//! need, with what the feed gave.

use crate::audit::{ALL_TRIALS, Feed, FeedReport, N_FROM_INPUT, Outside, Produced, Spec};
use crate::engine::in_pool;
use crate::error::{Error, ErrorKind, Result};
use crate::ingest;
use crate::pacing::Progress;
use crate::subject::Shuffles;

/// Reads the decks `outside` made for `spec` (a file or a program) and
/// counts them, with what the feed gave.
pub(crate) fn read(
    spec: &Spec<Shuffles>,
    outside: &Outside<Shuffles>,
    progress: Progress<'_>,
) -> Result<Produced<Shuffles>> {
    let asked = (spec.trials != ALL_TRIALS).then_some(spec.trials);
    let (read, workers, sha256) = match &outside.feed {
        Feed::File { path, format } => {
            let sha256 = if path.as_os_str() == "-" {
                None
            } else {
                Some(crate::digest::file_sha256(path).map_err(as_bad_input)?)
            };
            let opts = options(spec, outside, *format);
            let read = in_pool(spec.threads, || ingest::read_path(path, &opts, progress))?
                .map_err(as_bad_input)?;
            (read, Vec::new(), sha256)
        }
        Feed::Command(command) => {
            let n = (spec.n != N_FROM_INPUT).then_some(spec.n);
            if n.is_some() {
                super::count::check(spec)?;
            }
            let opts = options(spec, outside, ingest::Format::Text);
            let (read, workers) =
                ingest::run_command(command, n, spec.trials, spec.seed, &opts, progress)
                    .map_err(as_bad_input)?;
            (read, workers, None)
        }
        Feed::Function | Feed::Given { .. } => {
            return Err(Error::unsupported(format!(
                "{}: decks drawn by a function or handed over are counted by the caller",
                outside.name
            )));
        }
    };
    let feed = FeedReport::new(read.decks, read.stopped_early, asked, read.items)
        .with_workers(workers)
        .with_sha256(sha256);
    Ok(Produced {
        tally: read.tally,
        feed: Some(feed),
    })
}

/// How to read the decks of `spec`, a shuffle from `outside` written in
/// `format`: its n if given, starting order, decks asked for and what its
/// tests collect.
pub fn options(
    spec: &Spec<Shuffles>,
    outside: &Outside<Shuffles>,
    format: ingest::Format,
) -> ingest::Options {
    ingest::Options {
        n: (spec.n != N_FROM_INPUT).then_some(spec.n),
        format,
        order: outside.reading.order.clone(),
        max_decks: (spec.trials != ALL_TRIALS).then_some(spec.trials),
        collect: spec.collect(),
        tests: Some(spec.options.tests.clone()),
    }
}

/// A feed's error, as [`ErrorKind::BadInput`] unless it says better.
fn as_bad_input(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Other => e.with_kind(ErrorKind::BadInput),
        _ => e,
    }
}
