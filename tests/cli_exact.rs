//! The `exact` subcommand end to end: output, files, JSON, exit codes.

mod common;

use common::{TempDir, bin, stderr, stdout};
use std::process::Output;

/// Runs `shuffle-audit exact` with `args`.
fn run(args: &[&str]) -> Output {
    bin()
        .arg("exact")
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn naive_swap_at_3_prints_its_exact_law_and_writes_its_files() {
    let dir = TempDir::temp("ok");
    let out = run(&[
        "-a",
        "naive-swap",
        "-n",
        "3",
        "--out",
        dir.0.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("0 2 1        5/27"), "{text}");
    assert!(text.contains("2 1 0        4/27"), "{text}");
    assert!(
        text.contains("Total variation distance to uniform: 1/18"),
        "{text}"
    );
    assert!(text.contains("Marginals exactly uniform: no"), "{text}");
    for file in ["heatmap.png", "marginals.csv", "permutations.csv"] {
        assert!(dir.0.join(file).is_file(), "{file} missing");
    }
    let csv = std::fs::read_to_string(dir.0.join("permutations.csv")).unwrap();
    assert!(csv.contains("1 2 0,5/27,"), "{csv}");
}

#[test]
fn json_lists_every_permutation() {
    let out = run(&[
        "-a",
        "sort-random-comparator:sort=merge",
        "-n",
        "4",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["law"].as_array().unwrap().len(), 24);
    assert_eq!(json["marginals_exactly_uniform"], true);
    assert_eq!(json["uniform"], false);
    assert_eq!(json["tv_to_uniform"]["fraction"], "1/6");
}

#[test]
fn marginals_mode_handles_52_cards() {
    let out = run(&[
        "-a",
        "fisher-yates",
        "-n",
        "52",
        "--rng",
        "rand15-mod",
        "--marginals",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("(|P - 1/n| = 2.5823e-5) at position 51, value 0"),
        "{text}"
    );
}

#[test]
fn refusals_exit_with_2_and_say_why() {
    let cases: [(&[&str], &str); 7] = [
        (&["-a", "rand-crate", "-n", "4"], "rand-crate"),
        (&["-a", "sort-random-keys", "-n", "4"], "sort-random-keys"),
        (
            &["-a", "fisher-yates", "-n", "4", "--rng", "msvc-rand"],
            "msvc-rand",
        ),
        (
            &["-a", "fisher-yates", "-n", "4", "--rng", "reseed-per-draw"],
            "reseed-per-draw",
        ),
        (
            &["-a", "fisher-yates", "-n", "12", "--max-leaves", "1M"],
            "--max-leaves",
        ),
        (
            &["-a", "pick-until-unused", "-n", "20", "--marginals"],
            "positions alone",
        ),
        (&["-a", "fisher-yates", "-n", "1"], "n = 1"),
    ];
    for (args, needle) in cases {
        let dir = TempDir::temp("refused");
        let mut args = args.to_vec();
        args.extend(["--out", dir.0.to_str().unwrap()]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(!dir.0.exists(), "{args:?}: the output folder was created");
    }
}
