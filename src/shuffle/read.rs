//! Reading shuffles made outside the tool: decks from a reader (a file,
//! stdin, output handed over in memory) or printed by a program, counted
//! by [`crate::ingest`] into the tally the spec's tests need, with what the
//! feed gave (the readers themselves are [`Shuffles`]' `Kind` methods).

use crate::audit::{ALL_TRIALS, FeedReport, N_FROM_INPUT, Produced, Spec};
use crate::error::{Error, ErrorKind};
use crate::ingest::{self, Decks, Format, Ingested, Items};
use crate::subject::Shuffles;
use crate::tally::Tally;

/// What a read gave, as the audit's feed reports it.
pub(super) fn produced(
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

/// How to read the decks of `spec` written in `format`: its n if given,
/// starting order (ascending for a built-in subject, which is never read),
/// decks asked for and what its tests collect.
pub(super) fn options(spec: &Spec<Shuffles>, format: Format) -> ingest::Options<Decks> {
    let reading = spec.subject.outside().map(|o| o.reading.clone());
    ingest::Options {
        n: (spec.n != N_FROM_INPUT).then_some(spec.n),
        format,
        max_records: (spec.trials != ALL_TRIALS).then_some(spec.trials),
        reading: Decks {
            order: reading.unwrap_or_default().order,
            collect: spec.collect(),
            tests: Some(spec.options.tests.clone()),
            kinds: spec.repeated_kinds(),
        },
    }
}

/// A feed's error, as [`ErrorKind::BadInput`] unless it says better.
pub(super) fn as_bad_input(e: Error) -> Error {
    match e.kind() {
        ErrorKind::Other => e.with_kind(ErrorKind::BadInput),
        _ => e,
    }
}
