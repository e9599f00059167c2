//! `audit --until-decisive` from the command line, for shuffles and
//! samplers alike: a biased subject stops early with its looks in the JSON
//! and the p its verdict used; the table states the budget and each
//! audit's looks, the report each look; a budget below the first look is
//! refused.

mod common;

use common::{TempDir, bin, run, stderr, stdout, thousands};

/// A biased shuffle and a biased sampler, each alone with the default
/// budget (64 × -t: looks at 2,000, 4,000, ..., 128,000), stop at the first
/// look that is decisive, at α / (J × audits) = 0.001 / 7, and the
/// verdict's p is the best look's p times J × audits.
#[test]
fn a_biased_subject_stops_early_with_its_looks_in_the_json() {
    for subject in ["naive-swap", "reservoir-off-by-one:k=3"] {
        let o = run(&[
            "audit",
            "-a",
            subject,
            "-n",
            "10",
            "-t",
            "2000",
            "--until-decisive",
            "--json",
            "--seed",
            "3",
        ]);
        assert_eq!(o.status.code(), Some(0), "{subject}: {}", stderr(&o));
        let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let audit = &summary["audits"][0];
        assert_eq!(audit["verdict"], "biased", "{audit}");
        let trials = audit["trials"].as_u64().unwrap();
        assert!(trials < 128_000, "{subject} stopped at {trials}");
        let looks = audit["looks"].as_array().unwrap();
        assert!(!looks.is_empty(), "{subject}");
        assert_eq!(looks[0]["trials"], 2000);
        let last = looks.last().unwrap();
        assert_eq!(last["trials"].as_u64(), Some(trials));
        // Each look spends α / (J × audits) = 0.001 / 7.
        let level = last["log10_alpha"].as_f64().unwrap();
        assert!((level - (0.001f64 / 7.0).log10()).abs() < 1e-9, "{level}");
        assert!(last["log10_p"].as_f64().unwrap() <= level);
        // The verdict's p is the best look's p times J × audits.
        let adjusted = audit["log10_p_adjusted"].as_f64().unwrap();
        let best = looks
            .iter()
            .map(|l| l["log10_p"].as_f64().unwrap())
            .fold(f64::INFINITY, f64::min);
        assert!((adjusted - (best + 7f64.log10()).min(0.0)).abs() < 1e-9);
    }
}

/// The table states the budget, not the first look, in the subjects' own
/// unit, and lists each audit's looks (a biased one stops at its first);
/// the report states each look, and that a fair subject spent its budget.
#[test]
fn the_table_and_report_state_the_budget_and_each_audits_looks() {
    for (biased, fair, unit) in [
        ("reservoir-off-by-one:k=3", "floyd:k=3", "samples"),
        ("naive-swap", "fisher-yates", "shuffles"),
    ] {
        let out = TempDir::temp(unit);
        let o = run(&[
            "audit",
            "-a",
            biased,
            "-a",
            fair,
            "-n",
            "10",
            "-t",
            "10k",
            "--until-decisive",
            "--max-trials",
            "40k",
            "--out",
            out.0.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let table = stdout(&o);
        assert!(
            table.contains(&format!("up to 40,000 {unit} each (until decisive)")),
            "{table}"
        );
        assert!(table.contains("alpha / (looks x 2 audits)"), "{table}");
        assert!(
            table.contains(&format!("{biased}: looks at 10,000\n")),
            "{table}"
        );
        assert!(
            table.contains(&format!("{fair}: looks at 10,000, 20,000, 40,000\n")),
            "{table}"
        );
        let report = std::fs::read_to_string(out.path("report.md")).unwrap();
        let first = format!("**Looks:** {} {unit}: p = ", thousands(10_000));
        assert!(report.contains(&first), "{report}");
        assert!(
            report.contains("(budget spent; each look's level"),
            "{report}"
        );
        let summary: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.path("summary.json")).unwrap()).unwrap();
        assert_eq!(summary["audits"][1]["looks"].as_array().unwrap().len(), 3);
        assert_eq!(summary["audits"][1]["trials"], 40_000);
        // Every line fits 100 columns, the header with the verdicts too.
        for line in table.lines() {
            assert!(
                line.chars().count() <= 100,
                "{} wide: {line}",
                line.chars().count()
            );
        }
    }
}

/// A budget below the first look is refused before anything runs, for
/// every kind.
#[test]
fn a_budget_below_the_first_look_is_refused() {
    for subject in ["fisher-yates", "floyd:k=3"] {
        let o = run(&[
            "audit",
            "-a",
            subject,
            "-t",
            "2000",
            "--until-decisive",
            "--max-trials",
            "1500",
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(2), "{subject}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("--max-trials (1500)"), "{err}");
        assert!(o.stdout.is_empty());
    }
}

/// Decks read from outside: stdin cannot be read again look after look
/// (it said "stdin: no decks found" with 20,000 decks on it), and a budget
/// without -t (the first look then reads the whole file) is refused in
/// words, not as "at least -t (18446744073709551615)".
#[test]
fn a_sequential_audit_of_stdin_or_of_a_whole_file_is_refused_in_words() {
    use std::io::Write;
    let dir = TempDir::scratch("sequential-input");
    let decks: String = (0..200)
        .map(|i| format!("{} {} {}\n", i % 3, (i + 1) % 3, (i + 2) % 3))
        .collect();
    let file = dir.write("decks.txt", &decks);
    let mut child = bin()
        .args([
            "audit",
            "--input",
            "-",
            "-t",
            "100",
            "--until-decisive",
            "-q",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(decks.as_bytes()).ok();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("stdin is read once"), "{}", stderr(&o));
    let o = run(&[
        "audit",
        "--input",
        file.to_str().unwrap(),
        "--until-decisive",
        "--max-trials",
        "500",
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("--max-trials needs -t, the first look's trials"),
        "{err}"
    );
    assert!(!err.contains("18446744073709551615"), "{err}");
}
