//! What the terminal and the summary files say, whatever audits a run
//! holds: each note once, decks read from outside noted as decks, the
//! same CSV columns with or without a subject from outside, counts in the
//! singular for one, and unknown names answered with both kinds' names.

mod common;

use common::{run, stderr, stdout, temp};
use std::path::Path;

fn csv_header(dir: &Path) -> String {
    let csv = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    csv.lines().next().unwrap().to_string()
}

#[test]
fn a_note_every_audit_shares_is_said_once() {
    let out = temp("said-once-shoe");
    let o = run(&[
        "audit",
        "--deck",
        "shoe:decks=2",
        "-a",
        "fisher-yates",
        "-a",
        "naive-swap",
        "-t",
        "2k",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        text.matches("deck shoe:decks=2: 104 items").count(),
        1,
        "{text}"
    );
}

#[test]
fn a_deck_read_from_outside_is_noted_as_the_deck_it_is() {
    let out = temp("said-once-cards");
    let cards = out.with_extension("txt");
    std::fs::write(&cards, "AS 2S 3S\n2S AS 3S\n3S 2S AS\n").unwrap();
    let o = run(&[
        "audit",
        "--input",
        cards.to_str().unwrap(),
        "--categories",
        "cards",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = stdout(&o).replace('\n', " ");
    assert!(text.contains("hand test not run"), "{text}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("hand test not run"), "{report}");
}

#[test]
fn the_csv_has_one_set_of_columns_with_or_without_an_outside_subject() {
    let builtin = temp("said-once-builtin");
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-n",
        "4",
        "-t",
        "2k",
        "--out",
        builtin.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let read = temp("said-once-read");
    let decks = read.with_extension("txt");
    std::fs::write(&decks, "0 1 2 3\n3 2 1 0\n1 0 3 2\n2 3 0 1\n".repeat(500)).unwrap();
    let o = run(&[
        "audit",
        "--input",
        decks.to_str().unwrap(),
        "--out",
        read.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let header = csv_header(&builtin);
    assert!(!header.split(',').any(|c| c == "feed"), "{header}");
    assert_eq!(header, csv_header(&read));
}

#[test]
fn one_trial_is_counted_in_the_singular() {
    let out = temp("said-once-one");
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-t",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = stdout(&o);
    assert!(text.contains("1 shuffle each"), "{text}");
    assert!(stderr(&o).contains(": 1 trial in "), "{}", stderr(&o));
}

#[test]
fn a_name_near_neither_kind_lists_both_kinds() {
    let o = run(&["audit", "-a", "weighted-pick"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("unknown algorithm or sampler 'weighted-pick'"),
        "{err}"
    );
    assert!(
        err.contains("shuffles: fisher-yates") && err.contains("samplers: reservoir"),
        "{err}"
    );
    // A known name with a bad parameter keeps its own kind's error.
    let err = stderr(&run(&["audit", "-a", "floyd:q=3"]));
    assert!(err.contains("'q'") && !err.contains("shuffles:"), "{err}");
}
