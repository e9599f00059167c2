//! A shoe's report in a lab's words (issue 37): the decisive category test
//! names its cell ("suit C at position 297"), the heatmap and captions name
//! card kinds, the sensitivity is a share of one card at one position, a
//! riffle-and-cut shuffler is caught by the order tests, certificate
//! metadata (`--meta`, an experiment's `[meta]`) reaches the first page and
//! `summary.json`, and every report names the tool's build commit.

mod common;

use common::{run, stderr, stdout};
use std::path::Path;

/// Runs `audit ARGS --out DIR` in a scratch folder and returns the
/// terminal, the summary's first record and the report's Markdown.
fn audit(name: &str, args: &[&str]) -> (String, serde_json::Value, serde_json::Value, String) {
    audit_then(name, args, |_| {})
}

/// [`audit`], running `check` on the output folder before it is removed.
fn audit_then(
    name: &str,
    args: &[&str],
    check: impl FnOnce(&Path),
) -> (String, serde_json::Value, serde_json::Value, String) {
    let dir = common::scratch(name);
    let out = dir.join("out");
    let mut all = vec!["audit"];
    all.extend_from_slice(args);
    all.extend(["--out", out.to_str().unwrap()]);
    let o = run(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = common::summary(&out);
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    check(&out);
    std::fs::remove_dir_all(&dir).ok();
    (stdout(&o), summary["audits"][0].clone(), summary, report)
}

#[test]
fn a_category_decided_shoe_names_its_category_at_a_position() {
    let (terminal, record, _, report) = audit_then(
        "naive-shoe",
        &[
            "-a",
            "naive-swap",
            "--deck",
            "shoe:decks=6",
            "-t",
            "20000",
            "--seed",
            "1",
        ],
        |out| {
            // The position-by-suit counts: a header naming the suits, a
            // row per position, every row summing to the trials.
            let text = std::fs::read_to_string(out.join("naive-swap/by-suit.csv")).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], "position,S,H,D,C");
            assert_eq!(lines.len(), 313);
            let row: u64 = lines[1]
                .split(',')
                .skip(1)
                .map(|c| c.parse::<u64>().unwrap())
                .sum();
            assert_eq!(row, 20_000);
            assert!(out.join("naive-swap/by-rank.png").is_file());
        },
    );
    assert_eq!(record["verdict"], "biased", "{terminal}");
    assert_eq!(record["seen_by"][0], "position-category", "{terminal}");
    let words = record["largest_deviation"].as_str().unwrap();
    assert!(
        words.starts_with("suit ")
            && words.contains(" at position ")
            && words.ends_with("expected"),
        "{words}"
    );
    assert!(terminal.contains("× suit "), "{terminal}");
    // The chart of the column that decided is in the report, and every
    // column's counts and chart are listed.
    assert!(report.contains("naive-swap/by-suit.png"), "{report}");
    assert!(
        report.contains("by rank: naive-swap/by-rank.csv"),
        "{report}"
    );
    // Card kinds, not values, in the captions; no "unknown" row.
    assert!(report.contains("columns = card kinds"), "{report}");
    assert!(!report.contains("columns = values)"), "{report}");
    // Sensitivity as a share of one card at one position.
    assert!(
        report.contains("of one kind (a card and its copies) at one position"),
        "{report}"
    );
    assert!(record["detectable_kind_deviation"].is_number(), "{record}");
}

#[test]
fn a_riffle_and_cut_shuffler_is_caught_by_the_order_tests() {
    let (terminal, record, _, _) = audit(
        "riffle-cut",
        &[
            "-a",
            "riffle:k=7,cut=true",
            "--deck",
            "shoe:decks=6",
            "-t",
            "1000",
            "--seed",
            "21",
        ],
    );
    assert_eq!(record["verdict"], "biased", "{terminal}");
    let seen = record["seen_by"].to_string();
    assert!(seen.contains("successor"), "{seen}");
    assert!(
        !seen.contains("position-kind"),
        "the cut hides positions: {seen}"
    );
    let words = record["largest_deviation"].as_str().unwrap();
    assert!(words.contains(" followed by "), "{words}");
}

#[test]
fn meta_reaches_the_first_page_and_the_summary() {
    let (_, _, summary, report) = audit(
        "meta",
        &[
            "-a",
            "fisher-yates",
            "-n",
            "5",
            "-t",
            "2000",
            "--meta",
            "lab=Acme Test Labs",
            "--meta",
            "device=SX-2",
        ],
    );
    assert_eq!(summary["meta"]["lab"], "Acme Test Labs");
    assert_eq!(summary["meta"]["device"], "SX-2");
    let head: Vec<&str> = report.lines().take(5).collect();
    assert_eq!(head[2], "- **Lab:** Acme Test Labs", "{head:?}");
    assert_eq!(head[3], "- **Device:** SX-2", "{head:?}");
    // A run without metadata has no "meta" key at all.
    let (_, _, plain, _) = audit("no-meta", &["-a", "fisher-yates", "-n", "5", "-t", "2000"]);
    assert!(plain.get("meta").is_none(), "{plain}");
}

#[test]
fn bad_meta_is_refused_naming_it_before_any_work() {
    let dir = common::scratch("bad-meta");
    let out = dir.join("out");
    for (bad, named) in [("lab", "'lab'"), ("=x", "''"), ("la b=x", "'la b'")] {
        let o = run(&[
            "audit",
            "-n",
            "5",
            "-t",
            "100",
            "--meta",
            bad,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains(named), "{bad}: {}", stderr(&o));
        assert!(!out.exists(), "{bad}: nothing written");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_experiment_meta_table_is_shown_and_the_command_line_overrides_it() {
    let dir = common::scratch("meta-experiment");
    let text = "name = \"m\"\npurpose = \"Certificate.\"\nn = 5\ntrials = 2000\n\n\
                [meta]\nlab = \"Acme\"\nclient = \"House\"\n\n[[audit]]\nalgorithm = \"fisher-yates\"\n";
    let (o, out) = common::run_experiment(&dir, "m", text, &["--meta", "client=Casino"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = common::summary(&out);
    assert_eq!(summary["meta"]["lab"], "Acme");
    assert_eq!(summary["meta"]["client"], "Casino");
    let bad = text.replace("client = \"House\"", "client = 3");
    let (o, _) = common::run_experiment(&dir, "bad", &bad, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("[meta] client"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_report_names_the_build_commit_wherever_it_runs() {
    // Run from a folder outside any checkout: the tool line is still the
    // binary's own version, commit included when it was built in one.
    let version = stdout(&run(&["--version"]));
    let version = version.trim().trim_start_matches("shuffle-audit ");
    let dir = common::scratch("outside");
    let o = common::bin()
        .current_dir(&dir)
        .args(["audit", "-n", "5", "-t", "1000", "--out", "out"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = common::summary(&dir.join("out"));
    assert_eq!(summary["tool"], format!("shuffle-audit {version}"));
    let report = std::fs::read_to_string(Path::new(&dir).join("out/report.md")).unwrap();
    assert!(
        report.contains(&format!("- **Tool:** shuffle-audit {version}")),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_riffled_shoes_plan_comes_from_the_order_tests_and_holds_on_fresh_seeds() {
    let shoe = |trials: &str, seed: &str| {
        let args = [
            "-a",
            "riffle:k=9,cut=true",
            "--deck",
            "shoe:decks=6",
            "-t",
            trials,
            "--seed",
            seed,
        ];
        audit(&format!("plan-{trials}-{seed}"), &args).1
    };
    let pilot = shoe("2000", "21");
    assert_eq!(pilot["verdict"], "biased", "{pilot}");
    let planned = pilot["trials_for_power"]
        .as_u64()
        .unwrap_or_else(|| panic!("a plan: {}", pilot["plan_details"]));
    let caught = (100..110)
        .filter(|seed| shoe(&planned.to_string(), &seed.to_string())["verdict"] == "biased")
        .count();
    // 90% power: 9 of 10 expected; 7 or more in all but about 1% of runs.
    assert!(caught >= 7, "{caught} of 10 at the planned {planned} shoes");
    println!("planned {planned} shoes: {caught} of 10 fresh seeds biased");
}

#[test]
fn a_shoe_read_from_a_file_is_described_once_without_an_unknown_row() {
    let dir = common::scratch("said-once-shoe");
    let path = dir.join("shoes.txt");
    let lines = ["A A B B C C", "C B A C B A", "B A C A C B", "A C B C A B"];
    std::fs::write(&path, lines.repeat(50).join("\n")).unwrap();
    let out = dir.join("out");
    let o = run(&[
        "audit",
        "--input",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let terminal = stdout(&o).replace('\n', " ");
    assert_eq!(
        terminal.matches("items of 3 kinds").count(),
        1,
        "{terminal}"
    );
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        !report.contains("**Expected:**"),
        "no expected verdict for a file"
    );
    assert!(!report.contains("unknown"), "{report}");
    assert_eq!(
        report.matches("shuffle-audit audit --input").count(),
        1,
        "{report}"
    );
    // What the battery cannot see is said for this kind of subject.
    assert!(report.contains("cannot see"), "{report}");
    std::fs::remove_dir_all(&dir).ok();
}
