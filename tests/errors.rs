//! Errors carry a kind programs can match, whatever layer said them; the
//! messages stay the ones people read.

use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::engine::{RunSpec, no_progress};
use shuffle_audit::error::ErrorKind;
use shuffle_audit::experiment::Experiment;
use shuffle_audit::ingest::{self, Options};
use shuffle_audit::source::SourceSpec;
use shuffle_audit::subject::{Feed, Outside, Subject};
use shuffle_audit::tally::Collect;
use shuffle_audit::{engine, exact};
use std::path::Path;

#[test]
fn each_sort_of_wrong_has_its_kind() {
    let unknown = Algorithm::parse("fisher-yate").unwrap_err();
    assert_eq!(unknown.kind(), ErrorKind::UnknownName);
    assert!(unknown.to_string().contains("did you mean 'fisher-yates'?"));

    let alpha = shuffle_audit::values::check_alpha(2.0).unwrap_err();
    assert_eq!(alpha.kind(), ErrorKind::OutOfRange);

    let memory = engine::check_memory(1_000_000, 2, Collect::default()).unwrap_err();
    assert_eq!(memory.kind(), ErrorKind::TooCostly);

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

    // A bad deck read from a file is bad input; the engine refuses to read
    // files at all (it runs built-in algorithms).
    let file = std::env::temp_dir().join(format!("sa-errors-{}.txt", std::process::id()));
    std::fs::write(&file, "0 1 2\n1 2\n").unwrap();
    let subject = Subject::Outside(Outside {
        name: "deals".into(),
        feed: Feed::File {
            path: file.clone(),
            format: ingest::Format::Text,
        },
        order: None,
        categories: None,
    });
    let spec = RunSpec::new(
        subject,
        engine::N_FROM_INPUT,
        engine::ALL_DECKS,
        SourceSpec::default(),
        1,
    );
    let refused = engine::run(&spec, &no_progress).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::Unsupported, "{refused}");
    let bad = shuffle_audit::produce::run(&spec, &no_progress).unwrap_err();
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
