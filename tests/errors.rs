//! Errors carry a kind programs can match, whatever layer said them; the
//! messages stay the ones people read.

use shuffle_audit::audit::{self, Feed, Kind, Outside, Planned, Spec, Subject, no_progress};
use shuffle_audit::error::ErrorKind;
use shuffle_audit::exact;
use shuffle_audit::experiment::Experiment;
use shuffle_audit::ingest::{self, Options};
use shuffle_audit::shuffle::{self, Algorithm, ShuffleOptions, Shuffles, TestSet};
use shuffle_audit::source::SourceSpec;
use std::path::Path;

#[test]
fn each_sort_of_wrong_has_its_kind() {
    let unknown = Algorithm::parse("fisher-yate").unwrap_err();
    assert_eq!(unknown.kind(), ErrorKind::UnknownName);
    assert!(unknown.to_string().contains("did you mean 'fisher-yates'?"));

    let fair = Spec::<Shuffles>::new(Algorithm::FisherYates, 5, 100, SourceSpec::default(), 1);
    let alpha = audit::run(&fair, 2.0, &no_progress).unwrap_err();
    assert_eq!(alpha.kind(), ErrorKind::OutOfRange);

    // The full position-by-value matrix of a million items, on 2 workers.
    let n = 1_000_000;
    let huge = Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::position_value().with_bins(n, n).unwrap()),
        threads: Some(2),
        ..Spec::new(Algorithm::FisherYates, n, 100, SourceSpec::default(), 1)
    };
    let memory = Shuffles::check(&huge).unwrap_err();
    assert_eq!(memory.kind(), ErrorKind::TooCostly, "{memory}");

    let raw_bits = exact::enumerate(Algorithm::RandCrate, 3, SourceSpec::default(), 100);
    assert_eq!(raw_bits.unwrap_err().kind(), ErrorKind::Unsupported);
    let cap = exact::enumerate(Algorithm::NaiveSwap, 8, SourceSpec::default(), 10);
    assert_eq!(cap.unwrap_err().kind(), ErrorKind::TooCostly);

    // A shoe in text is a deck with repeated items; in binary records it
    // is not supported yet.
    let opts = Options::default();
    assert!(ingest::read("A A B B\n".as_bytes(), "shoe.txt", &opts, &no_progress).is_ok());
    let binary = Options {
        n: Some(4),
        format: ingest::Format::U8,
        ..Options::default()
    };
    let shoe = ingest::read(&[0u8, 0, 1, 1][..], "shoe.bin", &binary, &no_progress);
    assert_eq!(shoe.unwrap_err().kind(), ErrorKind::Unsupported);

    // A bad deck read from a file is bad input; counting in chunks refuses
    // to read files at all (it runs built-in algorithms).
    let file = std::env::temp_dir().join(format!("sa-errors-{}.txt", std::process::id()));
    std::fs::write(&file, "0 1 2\n1 2\n").unwrap();
    let subject = Subject::Outside(Outside {
        name: "deals".into(),
        feed: Feed::File {
            path: file.clone(),
            format: ingest::Format::Text,
        },
        reading: shuffle::Reading {
            order: None,
            categories: None,
        },
    });
    let spec = Spec::<Shuffles>::new(
        subject,
        audit::N_FROM_INPUT,
        audit::ALL_TRIALS,
        SourceSpec::default(),
        1,
    );
    let refused = Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::Unsupported, "{refused}");
    let refused = Planned::count(&spec, spec.chunks(), &no_progress).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::Unsupported, "{refused}");
    let bad = audit::produce(&spec, &no_progress).unwrap_err();
    assert_eq!(bad.kind(), ErrorKind::BadInput);
    assert!(
        bad.to_string().contains(":2: expected 3 items, found 2"),
        "{bad}"
    );
    std::fs::remove_file(&file).unwrap();

    // Located in an experiment file, an error keeps its kind.
    let text = "name = \"x\"\npurpose = \"y\"\n[[audit]]\nalgorithm = \"bogo-sort\"\n";
    let err = Experiment::parse(text, Path::new("x.toml")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownName);
    assert!(
        err.to_string()
            .starts_with("x.toml:4:13: unknown algorithm"),
        "{err}"
    );
}
