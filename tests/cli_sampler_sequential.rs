//! `audit -a SAMPLER --until-decisive` from the command line: a biased
//! sampler stops early and its looks are in the JSON; a budget below the
//! first look is refused.

mod common;

use common::{run, stderr, stdout};

#[test]
fn a_biased_sampler_stops_early_with_its_looks_in_the_json() {
    let o = run(&[
        "audit",
        "-a",
        "reservoir-off-by-one:k=3",
        "-n",
        "10",
        "-t",
        "2000",
        "--until-decisive",
        "--json",
        "--seed",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let audit = &summary["audits"][0];
    assert_eq!(audit["verdict"], "biased", "{audit}");
    // The default budget is 64 × -t: looks at 2,000, 4,000, ..., 128,000.
    let trials = audit["trials"].as_u64().unwrap();
    assert!(trials < 128_000, "stopped at {trials}");
    let looks = audit["looks"].as_array().unwrap();
    assert!(!looks.is_empty());
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

#[test]
fn the_table_and_report_list_each_audits_looks() {
    let out = std::env::temp_dir().join(format!("sa-sampler-seq-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = run(&[
        "audit",
        "-a",
        "floyd:k=3",
        "-n",
        "10",
        "-t",
        "1000",
        "--until-decisive",
        "--max-trials",
        "4000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(
        table.contains("floyd:k=3: looks at 1,000, 2,000, 4,000"),
        "{table}"
    );
    assert!(table.contains("alpha / (looks x 1 audit)"), "{table}");
    for line in table.lines() {
        assert!(line.chars().count() <= 100, "{line}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("**Looks:** 1,000 samples: p = "),
        "{report}"
    );
    assert!(
        report.contains("(budget spent; each look's level"),
        "{report}"
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["audits"][0]["looks"].as_array().unwrap().len(), 3);
    assert_eq!(summary["audits"][0]["trials"], 4000);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_budget_below_the_first_look_is_refused() {
    let o = run(&[
        "audit",
        "-a",
        "floyd:k=3",
        "-t",
        "2000",
        "--until-decisive",
        "--max-trials",
        "1500",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("--max-trials (1500)"), "{err}");
    assert!(o.stdout.is_empty());
}
