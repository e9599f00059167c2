//! Reading shuffles made outside the tool: decks from a reader (a file,
//! stdin, output handed over in memory) or printed by a program, counted
//! by [`crate::ingest`] into the tally the spec's tests need, with what the
//! feed gave.

use crate::audit::{ALL_TRIALS, FeedReport, N_FROM_INPUT, Outside, Produced, Spec};
use crate::error::{Error, ErrorKind, Result};
use crate::ingest::{self, CommandSpec, Decks, Format, Ingested, Items, Resume};
use crate::pacing::Progress;
use crate::subject::{Reading, Shuffles};
use crate::tally::Tally;
use std::io::Read;
use std::path::Path;

/// Reads the decks `reader` holds for `spec` (text lines, or binary
/// records of `format`), named `name` in messages.
pub(crate) fn read_from(
    spec: &Spec<Shuffles>,
    reader: &mut (dyn Read + Send),
    name: &str,
    format: Format,
    progress: Progress<'_>,
) -> Result<Produced<Shuffles>> {
    let opts = options_of(spec, reading(spec), format);
    let read = ingest::read(reader, name, &opts, progress).map_err(as_bad_input)?;
    Ok(produced(spec, read, Vec::new()))
}

/// Reads the decks of the file at `path` for `spec` from `resume.at`,
/// with the items the read before it found, telling `resume.saver` how far
/// it has got (see [`ingest::read_path_from`]).
pub(crate) fn read_file_from(
    spec: &Spec<Shuffles>,
    path: &Path,
    format: Format,
    resume: Resume<'_>,
    progress: Progress<'_>,
) -> Result<Ingested<Tally, Items>> {
    let opts = options_of(spec, reading(spec), format);
    ingest::read_path_from(path, &opts, resume, progress).map_err(as_bad_input)
}

/// Runs `command` for `spec` and counts the decks it prints.
pub(crate) fn read_command(
    spec: &Spec<Shuffles>,
    command: &CommandSpec,
    progress: Progress<'_>,
) -> Result<Produced<Shuffles>> {
    let n = (spec.n != N_FROM_INPUT).then_some(spec.n);
    if n.is_some() {
        super::count::check(spec)?;
    }
    let opts = options_of(spec, reading(spec), Format::Text);
    let (read, workers) = ingest::run_command(command, n, spec.trials, spec.seed, &opts, progress)
        .map_err(as_bad_input)?;
    Ok(produced(spec, read, workers))
}

/// What a read gave, as the audit's feed reports it.
fn produced(
    spec: &Spec<Shuffles>,
    read: Ingested<Tally, Items>,
    workers: Vec<ingest::WorkerRun>,
) -> Produced<Shuffles> {
    let asked = (spec.trials != ALL_TRIALS).then_some(spec.trials);
    let feed =
        FeedReport::new(read.counted, read.stopped_early, asked, read.items).with_workers(workers);
    Produced {
        tally: read.tally,
        feed: Some(feed),
    }
}

/// How the spec's outside subject is read (its starting order); the
/// default reading for a built-in subject, which is never read.
fn reading(spec: &Spec<Shuffles>) -> Reading {
    spec.subject
        .outside()
        .map(|o| o.reading.clone())
        .unwrap_or_default()
}

/// How to read the decks of `spec`, a shuffle from `outside` written in
/// `format`: its n if given, starting order, decks asked for and what its
/// tests collect.
pub fn options(
    spec: &Spec<Shuffles>,
    outside: &Outside<Shuffles>,
    format: Format,
) -> ingest::Options<Decks> {
    options_of(spec, outside.reading.clone(), format)
}

fn options_of(spec: &Spec<Shuffles>, reading: Reading, format: Format) -> ingest::Options<Decks> {
    ingest::Options {
        n: (spec.n != N_FROM_INPUT).then_some(spec.n),
        format,
        max_records: (spec.trials != ALL_TRIALS).then_some(spec.trials),
        reading: Decks {
            order: reading.order,
            collect: spec.collect(),
            tests: Some(spec.options.tests.clone()),
        },
    }
}

/// A feed's error, as [`ErrorKind::BadInput`] unless it says better.
fn as_bad_input(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Other => e.with_kind(ErrorKind::BadInput),
        _ => e,
    }
}
