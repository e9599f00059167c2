//! Every sort of wrong a library call can meet has its own kind: programs
//! match `Error::kind()`, people read the message (unchanged by the kind).

use shuffle_audit::audit::{self, Spec, no_progress};
use shuffle_audit::experiment::Experiment;
use shuffle_audit::ingest::{self, Options};
use shuffle_audit::shuffle::{Algorithm, Deck, Shuffles};
use shuffle_audit::source::SourceSpec;
use shuffle_audit::study::{self, Study, Unobserved};
use shuffle_audit::{Error, ErrorKind, exact, mixing};
use std::path::Path;

#[test]
fn unknown_names() {
    let e = Algorithm::parse("no-such").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownName, "{e}");
    let e = SourceSpec::parse("no-such-source").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownName, "{e}");
    let e = SourceSpec::parse("reseed-per-draw:x=1").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownName, "{e}");
    let e = Deck::parse("nope:decks=2").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnknownName, "{e}");
    assert!(e.to_string().contains("unknown deck 'nope'"), "{e}");
}

#[test]
fn numbers_out_of_range() {
    let spec = Spec::<Shuffles>::new(Algorithm::FisherYates, 5, 1000, SourceSpec::default(), 1);
    let e = audit::run(&spec, 2.0, &no_progress).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange, "{e}");
    let none = Spec { trials: 0, ..spec };
    let e = audit::run(&none, 0.01, &no_progress).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange, "{e}");
    assert_eq!(e.to_string(), "trials must be at least 1");
    // A count that is no number, in an experiment file.
    let text = "name = \"x\"\npurpose = \"y\"\n[[audit]]\nalgorithm = \"fisher-yates\"\ntrials = \"lots\"\n";
    let e = Experiment::parse(text, Path::new("x.toml")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange, "{e}");
    let e = mixing::parse_ks("5..1").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange, "{e}");
    let e = Deck::parse("shoe:decks=100").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange, "{e}");
}

#[test]
fn work_beyond_the_limits_is_too_costly() {
    let e = exact::enumerate(Algorithm::NaiveSwap, 300, SourceSpec::default(), 10).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TooCostly, "{e}");
    assert!(e.to_string().contains("too large to enumerate"), "{e}");
}

#[test]
fn what_the_tool_does_not_do_is_unsupported() {
    let msvc = SourceSpec::parse("msvc-rand").unwrap();
    let e = exact::enumerate(Algorithm::FisherYates, 3, msvc, 1000).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported, "{e}");
    assert!(e.to_string().contains("cannot be treated exactly"), "{e}");
}

#[test]
fn malformed_input_is_bad_input() {
    let opts = Options::default();
    let e = ingest::read("0 1 2\n1 2\n".as_bytes(), "deals.txt", &opts, &no_progress).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
    assert!(e.to_string().starts_with("deals.txt:2:"), "{e}");
    let e = ingest::read("".as_bytes(), "empty.txt", &opts, &no_progress).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
    // A parameter without its value.
    let e = Algorithm::parse("fisher-yates:k").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadInput, "{e}");
}

#[test]
fn files_and_folders_are_io() {
    let missing = Path::new("/nonexistent/shuffle-audit/decks.txt");
    let e = ingest::read_path(missing, &Options::default(), &no_progress).unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e}");
    assert_eq!(e.kind(), ErrorKind::Io, "{e}");

    // A file where the output folder should be: refused before writing,
    // as an I/O problem.
    let file = std::env::temp_dir().join(format!("sa-error-kinds-{}", std::process::id()));
    std::fs::write(&file, "x").unwrap();
    let spec = Spec::<Shuffles>::new(Algorithm::FisherYates, 5, 1000, SourceSpec::default(), 1);
    let result = Study::new(vec![spec.into()]).run(&Unobserved).unwrap();
    let provenance = result.study.provenance.clone();
    let Err(e) = study::write_report(result.audits[0].clone(), provenance, &file) else {
        panic!("a file is not a folder");
    };
    std::fs::remove_file(&file).unwrap();
    assert_eq!(e.kind(), ErrorKind::Io, "{e}");
    assert!(e.to_string().contains("exists and is not a folder"), "{e}");

    let e = Error::Output {
        path: "plot.png".into(),
        message: "no space".into(),
    };
    assert_eq!(e.kind(), ErrorKind::Io);
}
