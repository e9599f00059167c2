//! The `mixing` subcommand end to end: files written on success, exit code 2
//! and nothing written on bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh folder under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "shuffle-audit-cli-mixing-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
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
    let dir = TempDir::new("ok");
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
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("riffle, n = 52"), "{stdout}");
    assert!(stdout.contains("rising sequences"), "{stdout}");
    assert!(stdout.contains(" 7  0.3341  exact"), "{stdout}");

    let csv = std::fs::read_to_string(dir.0.join("mixing.csv")).expect("mixing.csv");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("k,tv,stderr,method,noise_floor,statistic")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 20, "10 exact and 10 Monte Carlo rows");
    let exact_7: f64 = rows[6][1].parse().unwrap();
    assert!((exact_7 - 0.334).abs() < 0.0005, "{exact_7}");
    assert_eq!(rows[16][3], "monte-carlo");
    assert!(
        rows[16][2].parse::<f64>().unwrap() > 0.0,
        "a standard error"
    );

    let png = std::fs::read(dir.0.join("mixing.png")).expect("mixing.png");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 4096);
}

#[test]
fn json_carries_every_point() {
    let dir = TempDir::new("json");
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
        let dir = TempDir::new("bad");
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
