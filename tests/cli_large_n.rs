//! Large n on the command line: a binned audit of n = 100,000 runs quickly
//! with a small summary and the binned Lehmer digits, `--bins` is checked
//! (and refused for decks, whose tests need the full matrix), and shards of a binned run merge into the unsharded result.

mod common;

use common::{run, stderr, temp};
use std::path::PathBuf;

/// Exit code 2, naming `needle`, no panic.
fn assert_refused(args: &[&str], needle: &str) {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: stderr lacks '{needle}': {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn n_100000_runs_binned_with_a_small_summary() {
    let out = temp("100k");
    let o = run(&[
        "audit",
        "-a",
        "fisher-yates",
        "-n",
        "100000",
        "-t",
        "50",
        "--seed",
        "1",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(json.len() < 200_000, "summary.json is {} bytes", json.len());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let audit = &v["audits"][0];
    assert_eq!(audit["binning"]["bins"], 64);
    assert_eq!(audit["binning"]["labels"][0], "0–1562");
    assert_eq!(audit["counts"].as_array().unwrap().len(), 64);
    let tests = audit["tests_run"].as_str().unwrap();
    assert_eq!(
        tests,
        "position-value,fixed-points,cycles,rising-sequences,lehmer,lehmer-pairs,serial,birthday,\
         inversions,displacement"
    );
    let method = |name: &str| {
        audit["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["test"] == name)
            .unwrap()["method"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let lehmer = method("lehmer");
    assert!(
        lehmer.contains("64 position bins x 16 bins of d/(i+1)") && lehmer.contains("df 960"),
        "{lehmer}"
    );
    assert!(
        audit.get("lines").is_none_or(|l| l.is_null()),
        "no line tests when binned"
    );
    let csv = std::fs::read_to_string(out.join("fisher-yates").join("counts.csv")).unwrap();
    assert!(
        csv.starts_with("positions,values 0–1562,"),
        "{}",
        &csv[..80]
    );
    assert_eq!(csv.lines().count(), 65);
    assert!(out.join("fisher-yates").join("heatmap.png").exists());
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_bins_are_refused() {
    let out = temp("bad");
    let o = out.to_str().unwrap();
    assert_refused(
        &[
            "audit",
            "-a",
            "fisher-yates",
            "-n",
            "100",
            "--bins",
            "1",
            "--out",
            o,
        ],
        "--bins 1",
    );
    assert_refused(
        &[
            "audit",
            "-a",
            "fisher-yates",
            "-n",
            "100",
            "--bins",
            "101",
            "--out",
            o,
        ],
        "--bins 101",
    );
    assert_refused(
        &["audit", "--deck", "cards", "--bins", "4", "--out", o],
        "--bins 4: the tests of decks need the full",
    );
}

/// `--bins` above the n of decks read from a file is refused once n is
/// known (exit 2, no report), and bins that fit are used.
#[test]
fn bins_are_checked_against_the_n_read_from_an_input() {
    let out = temp("input-bins");
    std::fs::create_dir_all(&out).unwrap();
    let input = out.join("decks.txt");
    let decks: String = (0..50)
        .map(|k| {
            let deck: Vec<String> = (0..10).map(|i| ((i + k) % 10).to_string()).collect();
            deck.join(" ") + "\n"
        })
        .collect();
    std::fs::write(&input, decks).unwrap();
    let report = out.join("report");
    let (i, r) = (input.to_str().unwrap(), report.to_str().unwrap());
    assert_refused(
        &["audit", "--input", i, "--bins", "20", "-q", "--out", r],
        "20 bins are out of range",
    );
    assert!(!report.exists(), "no report for a refused run");
    let o = run(&["audit", "--input", i, "--bins", "5", "-q", "--out", r]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json = std::fs::read_to_string(report.join("summary.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["audits"][0]["binning"]["bins"], 5);
    let _ = std::fs::remove_dir_all(&out);
}

/// Two shards of a binned run merge into exactly the unsharded counts.
#[test]
fn shards_of_a_binned_run_merge_into_the_whole_run() {
    let dir = temp("shards");
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let base = [
        "audit",
        "-a",
        "naive-swap",
        "-n",
        "3000",
        "-t",
        "60000",
        "--seed",
        "4",
        "--bins",
        "8",
        "-q",
        "--tests",
        "position-value",
    ];
    let whole = p("whole");
    let o = run(&[&base[..], &["--out", &whole]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    for i in 0..2 {
        let shard = format!("{i}/2");
        let tally = p(&format!("t{i}.json"));
        let o = run(&[&base[..], &["--shard", &shard, "--tally", &tally]].concat());
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let merged = p("merged");
    let o = run(&[
        "merge",
        "-q",
        &p("t0.json"),
        &p("t1.json"),
        "--out",
        &merged,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let counts = |dir: &str| {
        std::fs::read_to_string(PathBuf::from(dir).join("naive-swap").join("counts.csv")).unwrap()
    };
    assert_eq!(counts(&whole), counts(&merged));
    assert!(counts(&whole).starts_with("positions,"));
    let _ = std::fs::remove_dir_all(&dir);
}
