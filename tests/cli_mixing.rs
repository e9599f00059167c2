//! The `mixing` subcommand end to end: files written on success, exit code 2
//! and nothing written on bad input.

mod common;

use common::{TempDir, bin, stderr, stdout};
use std::path::Path;
use std::process::Output;

/// Runs `shuffle-audit mixing` with `args`, writing into `out`, quietly.
fn run(args: &[&str], out: &Path) -> Output {
    bin()
        .arg("mixing")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .output()
        .expect("the binary runs")
}

#[test]
fn writes_the_curve_csv_and_plot() {
    let dir = TempDir::temp("ok");
    let out = run(
        &[
            "-a",
            "riffle",
            "-n",
            "52",
            "--k",
            "1..10",
            "--monte-carlo",
            "-t",
            "20k",
            "--seed",
            "5",
        ],
        &dir.0,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", stderr(&out));
    assert!(stdout.contains("riffle, n = 52"), "{stdout}");
    assert!(stdout.contains("rising sequences"), "{stdout}");
    assert!(stdout.contains(" 7  0.3341  exact"), "{stdout}");

    let csv = std::fs::read_to_string(dir.0.join("mixing.csv")).expect("mixing.csv");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "k,tv,method,statistic,stderr,bias_floor,bias_bound,tv_low,tv_high,at_bias_floor,rounding_bound,rounding_level"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 20, "10 exact and 10 Monte Carlo rows");
    let exact_7: f64 = rows[6][1].parse().unwrap();
    assert!((exact_7 - 0.334).abs() < 0.0005, "{exact_7}");
    assert_eq!(rows[6][11], "false", "a real value, not rounding");
    assert_eq!(rows[16][2], "monte-carlo");
    assert!(
        rows[16][4].parse::<f64>().unwrap() > 0.0,
        "a standard error"
    );
    assert!(rows[16][5].parse::<f64>().unwrap() > 0.0, "a bias floor");

    let png = std::fs::read(dir.0.join("mixing.png")).expect("mixing.png");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 4096);
}

#[test]
fn json_carries_every_point() {
    let dir = TempDir::temp("json");
    let out = run(
        &["-a", "random-swap", "-n", "3", "--k", "0,1,2", "--json"],
        &dir.0,
    );
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let tv: Vec<f64> = doc["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["tv"].as_f64().unwrap())
        .collect();
    let want = [5.0 / 6.0, 1.0 / 3.0, 5.0 / 54.0];
    assert_eq!(tv.len(), 3);
    for (got, want) in tv.iter().zip(want) {
        assert!((got - want).abs() < 1e-12, "{tv:?}");
    }
}

/// Issue 7 §6: random-swap, n = 6, k = 12, 200k trials. The estimate is
/// biased well above the exact 0.0154 by more than its SE; the output must
/// label the bias floor and give a range that covers the exact value.
#[test]
fn monte_carlo_shows_its_bias_floor_and_a_range_covering_the_exact_value() {
    let dir = TempDir::temp("floor");
    let out = run(
        &[
            "-a",
            "random-swap",
            "-n",
            "6",
            "--k",
            "12,40",
            "--monte-carlo",
            "-t",
            "200k",
            "--seed",
            "7",
            "--json",
        ],
        &dir.0,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let points = doc["points"].as_array().unwrap();
    let (exact, mc) = (&points[0], &points[2]);
    assert_eq!(exact["method"], "exact");
    assert_eq!(mc["method"], "monte-carlo");
    let truth = exact["tv"].as_f64().unwrap();
    assert!((truth - 0.0154).abs() < 5e-5, "{truth}");
    let f = |key: &str| mc[key].as_f64().unwrap_or_else(|| panic!("{key}: {mc}"));
    let (tv, se, floor) = (f("tv"), f("stderr"), f("bias_floor"));
    assert!(tv - 3.0 * se > truth, "the spread alone misses: {mc}");
    assert!((floor - 0.0239).abs() < 5e-4, "{floor}");
    assert!(f("tv_low") <= truth && truth <= f("tv_high"), "{mc}");
    // For whole permutations the bias bound is the floor.
    assert_eq!(f("bias_bound"), floor);
    assert!((f("tv_low") - (tv - floor - 3.0 * se).max(0.0)).abs() < 1e-12);
    // k = 40 (exact about 2e-7) is indistinguishable from uniform at 200k.
    assert_eq!(points[3]["at_bias_floor"], true, "{}", points[3]);

    // The table and the plot say the same.
    let out = run(
        &[
            "-a",
            "random-swap",
            "-n",
            "6",
            "--k",
            "12,40",
            "--monte-carlo",
            "-t",
            "200k",
            "--seed",
            "7",
        ],
        &dir.0,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("bias floor") && stdout.contains("true TV in"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(≈ floor)") || stdout.contains("(≤ floor)"),
        "{stdout}"
    );
    assert!(stdout.contains("does not cover the bias"), "{stdout}");
    assert!(dir.0.join("mixing.png").exists());
}

/// Issue 7 §6: n = 3, k = 60 transpositions is exactly about 2e-29; the f64
/// computation returns rounding noise, which must be reported as such.
#[test]
fn exact_rounding_level_values_are_marked() {
    let dir = TempDir::temp("rounding");
    let out = run(&["-a", "random-swap", "-n", "3", "--k", "20,60"], &dir.0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("20  2.39e-10"), "{stdout}");
    assert!(stdout.contains("60  < 2e-14 (rounding)"), "{stdout}");
    let csv = std::fs::read_to_string(dir.0.join("mixing.csv")).unwrap();
    let last = csv.lines().last().unwrap();
    assert!(last.starts_with("60,") && last.ends_with(",true"), "{csv}");
    let out = run(
        &["-a", "random-swap", "-n", "3", "--k", "20,60", "--json"],
        &dir.0,
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["points"][0]["rounding_level"], false);
    assert_eq!(doc["points"][1]["rounding_level"], true);
    assert!(doc["points"][1]["rounding_bound"].as_f64().unwrap() < 1e-13);
}

#[test]
fn help_describes_the_floor_and_the_rounding_mark() {
    let out = bin()
        .args(["mixing", "--help"])
        .output()
        .expect("the binary runs");
    let help = stdout(&out);
    for needle in [
        "bias floor",
        "does not",
        "(rounding)",
        "rounding_level",
        "tv_low",
    ] {
        assert!(help.contains(needle), "{needle}: {help}");
    }
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    for (args, message) in [
        (
            &["-a", "fisher-yates", "--k", "1..3"][..],
            "'fisher-yates' has no step count",
        ),
        (&["-a", "riffle", "--k", "9..3"][..], "'9..3'"),
        (&["-a", "riffle", "-n", "1"][..], "n = 1"),
        (&["-a", "riffle", "--rng", "mt19937"][..], "'mt19937'"),
        (&["-a", "riffle", "-t", "0"][..], "trials"),
    ] {
        let dir = TempDir::temp("bad");
        let out = run(args, &dir.0);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: ") && stderr.contains(message),
            "{args:?}: {stderr}"
        );
        assert!(!dir.0.exists(), "{args:?} created {}", dir.0.display());
    }
}

#[test]
fn a_loader_curve_is_exact_and_written_as_loaders_csv_and_png() {
    let dir = TempDir::temp("loaders");
    let out = run(&["-a", "buffer-shuffle", "-n", "2000"], &dir.0);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // The three loaders side by side, the thresholds, and what the
    // distance cannot see.
    for needle in [
        "buffer-shuffle",
        "window-shuffle",
        "shard-shuffle",
        "mean TV <= 0.01 from b = ",
        "not which items stay",
    ] {
        assert!(stdout.contains(needle), "{needle}: {stdout}");
    }
    let csv = std::fs::read_to_string(dir.0.join("loaders.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("loader,size,fraction,mean_tv,max_tv,rounding_bound,rounding_level")
    );
    // 3 loaders × the default sizes at n = 2000: the 1-2-5 fractions of n
    // from 1/n (1, 2, 4, 10, 20, 40, 100, 200, 400, 1000 items), then the 7
    // upper fractions (500 to 2000 items).
    assert_eq!(lines.count(), 3 * 17, "{csv}");
    let png = std::fs::read(dir.0.join("loaders.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    assert!(!dir.0.join("mixing.csv").exists());

    let json = run(
        &["-a", "shard-shuffle", "-n", "100", "--k", "3,50", "--json"],
        &dir.0,
    );
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["loader"], "shard-shuffle");
    assert_eq!(value["points"][0]["loader"], "shard-shuffle");
    assert_eq!(value["points"][1]["mean_tv"], 0.0, "50 divides 100");

    for (k, needle) in [("0", "size 0"), ("101", "size 101"), ("5,x", "'x'")] {
        let bad = TempDir::temp("loaders-bad");
        let o = run(&["-a", "window-shuffle", "-n", "100", "--k", k], &bad.0);
        assert_eq!(o.status.code(), Some(2), "{k}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{k}: {err}");
        assert!(!bad.0.join("loaders.csv").exists());
    }
}
