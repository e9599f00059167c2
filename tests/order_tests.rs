//! Calibration and power of the order tests, inversions and displacement
//! (issue 11 §2): fair shuffles are rejected at the stated rate at α =
//! 0.01 and 0.001, at small n (the exact Mahonian law, unbinned
//! displacement) and above n = 1024 (the Edgeworth law, binned
//! displacement), with few trials each; the local shuffles of data
//! pipelines and the naive swap are caught; the counts do not depend on
//! the thread count, and shards merged through the command line are the
//! run on one machine. The same for the Lehmer digits counted in bins
//! above n = 1024.

mod common;

use common::{scratch, stderr};
use shuffle_audit::audit::{Kind, Spec, no_progress};
use shuffle_audit::shuffle::{Algorithm, ShuffleOptions, Shuffles, Tally, TestSet};
use shuffle_audit::source::SourceSpec;
use shuffle_audit::stats::order;
use shuffle_audit::stats::special::binomial_band;
use std::path::Path;
use std::process::Output;

const BOTH: &str = "inversions,displacement";

fn tally(algorithm: &str, n: usize, trials: u64, seed: u64, threads: usize) -> Tally {
    tally_of(BOTH, algorithm, n, trials, seed, threads)
}

fn tally_of(
    tests: &str,
    algorithm: &str,
    n: usize,
    trials: u64,
    seed: u64,
    threads: usize,
) -> Tally {
    let spec = Spec::<Shuffles> {
        options: ShuffleOptions::with_tests(TestSet::parse(tests, n).unwrap()),
        threads: Some(threads),
        ..Spec::new(
            Algorithm::parse(algorithm).unwrap(),
            n,
            trials,
            SourceSpec::parse("chacha8").unwrap(),
            seed,
        )
    };
    Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap()
}

/// log10 p of the inversion and displacement tests on one tally.
fn judge(t: &Tally) -> (f64, f64) {
    let counts = t.order().unwrap();
    let (g, _) = order::inversions(counts, t.n());
    let (w, _) = order::displacement(counts, t.n(), t.trials());
    (g.log10_p, w.log10_p)
}

/// Fair audits (Fisher–Yates, chacha8) at several n, each with few trials:
/// the rejections of each test at 0.01 and 0.001, over all of them, lie in
/// the two-sided binomial band of level 1 − 1e-4.
#[test]
fn fair_shuffles_are_rejected_at_the_stated_rate() {
    // (n, trials, runs): the exact law with unbinned displacement (n = 5),
    // the exact law with binned displacement (n = 40, 300), and the
    // Edgeworth law above n = 1024 (n = 2000: 32 inversion bins expecting
    // about 6 trials each).
    let plan = [
        (5usize, 400u64, 3000u64),
        (40, 300, 3000),
        (300, 200, 1500),
        (2000, 200, 1000),
    ];
    let runs: u64 = plan.iter().map(|p| p.2).sum();
    let mut rejected = [[0u64; 2]; 2]; // [test][alpha]
    let mut seed = 0;
    for (n, trials, count) in plan {
        let mut here = [[0u64; 2]; 2];
        for _ in 0..count {
            seed += 1;
            let (inv, disp) = judge(&tally("fisher-yates", n, trials, seed, 1));
            for (test, log10_p) in [inv, disp].into_iter().enumerate() {
                here[test][0] += u64::from(log10_p <= -2.0);
                here[test][1] += u64::from(log10_p <= -3.0);
            }
        }
        eprintln!(
            "n = {n}, T = {trials}, {count} runs: inversions {}/{} at 0.01/0.001, displacement {}/{}",
            here[0][0], here[0][1], here[1][0], here[1][1]
        );
        for test in 0..2 {
            for a in 0..2 {
                rejected[test][a] += here[test][a];
            }
        }
    }
    for (test, name) in ["inversions", "displacement"].iter().enumerate() {
        for (a, alpha) in [0.01, 0.001].into_iter().enumerate() {
            let (lo, hi) = binomial_band(runs, alpha, 1.0 - 1e-4);
            let got = rejected[test][a];
            eprintln!("{name}: {got} of {runs} at {alpha} (band {lo}..={hi})");
            assert!(
                (lo..=hi).contains(&got),
                "{name}: {got} rejections at {alpha} in {runs} runs, band {lo}..={hi}"
            );
        }
    }
}

/// log10 p of the binned Lehmer digit test of a run of `algorithm`.
fn lehmer(algorithm: &str, n: usize, trials: u64, seed: u64, threads: usize) -> f64 {
    let t = tally_of("lehmer", algorithm, n, trials, seed, threads);
    let (w, _) = order::lehmer(t.order().unwrap(), n, trials);
    w.log10_p
}

/// Fair audits above n = 1024, where the Lehmer digits are counted in
/// bins: rejections at 0.01 and 0.001 in the binomial band, with few
/// trials (T = 5: about 5 positions expected per cell, some pooled), more
/// (T = 60), at n = 3000, and above the switch to the blocked bitmap
/// (n = 70,000).
#[test]
fn binned_lehmer_digits_are_calibrated() {
    let plan = [
        (1100usize, 5u64, 3000u64),
        (1100, 60, 3000),
        (3000, 40, 1000),
        (70_000, 10, 100),
    ];
    let runs: u64 = plan.iter().map(|p| p.2).sum();
    let mut rejected = [0u64; 2];
    let mut seed = 1_000_000;
    for (n, trials, count) in plan {
        let mut here = [0u64; 2];
        for _ in 0..count {
            seed += 1;
            let log10_p = lehmer("fisher-yates", n, trials, seed, 1);
            here[0] += u64::from(log10_p <= -2.0);
            here[1] += u64::from(log10_p <= -3.0);
        }
        eprintln!(
            "n = {n}, T = {trials}, {count} runs: {}/{} at 0.01/0.001",
            here[0], here[1]
        );
        rejected[0] += here[0];
        rejected[1] += here[1];
    }
    for (a, alpha) in [0.01, 0.001].into_iter().enumerate() {
        let (lo, hi) = binomial_band(runs, alpha, 1.0 - 1e-4);
        eprintln!(
            "lehmer: {} of {runs} at {alpha} (band {lo}..={hi})",
            rejected[a]
        );
        assert!(
            (lo..=hi).contains(&rejected[a]),
            "{} rejections at {alpha} in {runs} runs, band {lo}..={hi}",
            rejected[a]
        );
    }
}

/// The binned Lehmer digits catch the local shuffles of data pipelines and
/// the naive swap above n = 1024; Fisher–Yates passes.
#[test]
fn binned_lehmer_digits_catch_local_shuffles() {
    for (algorithm, n, trials) in [
        ("buffer-shuffle:b=1000", 2000, 200),
        ("window-shuffle:w=100", 2000, 200),
        ("shard-shuffle:s=500", 2000, 200),
        ("naive-swap", 2000, 2000),
    ] {
        let log10_p = lehmer(algorithm, n, trials, 5, 2);
        eprintln!("{algorithm} at n = {n}, T = {trials}: log10 p {log10_p:.1}");
        assert!(log10_p < -6.0, "{algorithm}: log10 p {log10_p}");
    }
    assert!(lehmer("fisher-yates", 2000, 200, 5, 2) > -3.0);
}

/// The shuffles of data pipelines that leave items near where they were,
/// and the naive swap, fail both tests; Fisher–Yates passes.
#[test]
fn local_shuffles_and_the_naive_swap_are_caught() {
    for (algorithm, n, trials) in [
        ("buffer-shuffle:b=1000", 2000, 200),
        ("window-shuffle:w=100", 2000, 200),
        ("naive-swap", 30, 100_000),
    ] {
        let (inv, disp) = judge(&tally(algorithm, n, trials, 3, 2));
        eprintln!("{algorithm} at n = {n}: log10 p inversions {inv:.1}, displacement {disp:.1}");
        assert!(inv < -6.0, "{algorithm}: inversions log10 p {inv}");
        assert!(disp < -6.0, "{algorithm}: displacement log10 p {disp}");
    }
    let (inv, disp) = judge(&tally("fisher-yates", 2000, 200, 3, 2));
    assert!(inv > -3.0 && disp > -3.0, "{inv} {disp}");
}

/// The same counts on 1, 2 and 3 threads, in one word and above it.
#[test]
fn counts_do_not_depend_on_the_thread_count() {
    for (n, trials) in [(20usize, 300_000u64), (1500, 3_000)] {
        let one = tally("fisher-yates", n, trials, 9, 1);
        let order = one.order().unwrap();
        assert_eq!(order.inversions.iter().sum::<u64>(), trials);
        assert_eq!(
            order.displacement.iter().sum::<u64>(),
            trials * n as u64,
            "n = {n}"
        );
        for threads in [2, 3] {
            assert_eq!(tally("fisher-yates", n, trials, 9, threads), one, "n = {n}");
        }
    }
}

/// Runs the binary with `args`, which must succeed.
fn run(args: &[&str]) -> Output {
    let o = common::run(args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    o
}

fn tests_of(summary: &Path) -> Vec<serde_json::Value> {
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(summary).unwrap()).unwrap();
    doc["audits"][0]["tests"].as_array().unwrap().clone()
}

/// Through the command line: three shards merged give the run's table and
/// test results, the order tests among them (150k trials are 3 chunks).
#[test]
fn shards_merge_to_the_run() {
    let dir = scratch("shards");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let common = [
        "audit",
        "-a",
        "window-shuffle:w=50",
        "-a",
        "fisher-yates",
        "-n",
        "300",
        "-t",
        "150k",
        "--tests",
        BOTH,
        "--seed",
        "4",
        "--threads",
        "2",
    ];
    let whole = run(&[&common[..], &["--out", &p("whole")]].concat());
    let tallies: Vec<String> = (0..3).map(|i| p(&format!("s{i}.tally"))).collect();
    for (i, t) in tallies.iter().enumerate() {
        run(&[&common[..], &["--shard", &format!("{i}/3"), "--tally", t]].concat());
    }
    let merged = run(&[
        &["merge"],
        &tallies.iter().map(String::as_str).collect::<Vec<_>>()[..],
        &["--out", &p("merged")],
    ]
    .concat());
    assert_eq!(merged.stdout, whole.stdout, "the same table");
    let a = tests_of(&dir.join("whole").join("summary.json"));
    let b = tests_of(&dir.join("merged").join("summary.json"));
    assert_eq!(a, b);
    let names: Vec<&str> = a.iter().map(|t| t["test"].as_str().unwrap()).collect();
    assert_eq!(names, ["inversions", "displacement"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
