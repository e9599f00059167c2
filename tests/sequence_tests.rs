//! Calibration and power of the clumping, serial and birthday tests (issue
//! 12 §3): fair shuffles are rejected at about the stated rate at
//! α = 0.001 (and 0.01), and the shuffles each test is for are caught.

use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::engine::{self, RunSpec, no_progress};
use shuffle_audit::permutation::Statistic;
use shuffle_audit::source::SourceSpec;
use shuffle_audit::spec::TestSet;
use shuffle_audit::stats::{gof, sequence};
use shuffle_audit::tally::Tally;
use std::process::Command;

fn tally(algorithm: &str, n: usize, trials: u64, rng: &str, seed: u64, tests: &str) -> Tally {
    let spec = RunSpec {
        tests: TestSet::parse(tests, n).unwrap(),
        threads: Some(1),
        ..RunSpec::new(
            Algorithm::parse(algorithm).unwrap(),
            n,
            trials,
            SourceSpec::parse(rng).unwrap(),
            seed,
        )
    };
    engine::run(&spec, &no_progress).unwrap()
}

/// log10 p of each test on one tally.
fn clumping(t: &Tally) -> f64 {
    let counts = t.histogram(Statistic::Clumping).unwrap();
    gof::chi_square(counts, &Statistic::Clumping.uniform_law(t.n())).log10_p
}

fn serial(t: &Tally) -> f64 {
    sequence::serial(t.serial().unwrap(), t.n()).log10_p
}

fn birthday(t: &Tally) -> f64 {
    sequence::birthday(t.deals().unwrap(), t.n()).log10_p
}

/// Rejections at 0.01 and 0.001 over `runs` fair (Fisher–Yates, chacha8)
/// runs, asserted within binomial bands (about ±4 sd, and at most 3.5×
/// nominal at 0.001, whose count is small).
fn calibrate(name: &str, n: usize, trials: u64, runs: u64, judge: fn(&Tally) -> f64) {
    let (mut at_01, mut at_001) = (0u64, 0u64);
    for seed in 0..runs {
        let log10_p = judge(&tally("fisher-yates", n, trials, "chacha8", seed, name));
        at_01 += u64::from(log10_p <= -2.0);
        at_001 += u64::from(log10_p <= -3.0);
    }
    let (e01, e001) = (runs as f64 * 0.01, runs as f64 * 0.001);
    eprintln!(
        "{name} n={n} T={trials}: {at_01}/{runs} at 0.01 (expect {e01}), {at_001} at 0.001 (expect {e001})"
    );
    assert!(
        (at_01 as f64) <= e01 + 4.0 * e01.sqrt(),
        "{name}: {at_01} rejections at 0.01 in {runs}"
    );
    assert!(
        (at_001 as f64) <= (3.5 * e001).max(e001 + 4.0 * e001.sqrt()),
        "{name}: {at_001} rejections at 0.001 in {runs}"
    );
    // Not conservative either.
    assert!(
        (at_01 as f64) >= e01 - 4.0 * e01.sqrt(),
        "{name}: only {at_01} rejections at 0.01 in {runs}"
    );
}

#[test]
fn clumping_is_calibrated() {
    calibrate("clumping", 8, 2_000, 6_000, clumping);
}

#[test]
fn serial_is_calibrated() {
    calibrate("serial", 6, 2_000, 6_000, serial);
}

/// n = 9: 362,880 deals and 3,000 trials, about 12 repeated pairs expected
/// under a uniform shuffle: the collision law's non-trivial regime.
#[test]
fn birthday_is_calibrated() {
    calibrate("birthday", 9, 3_000, 6_000, birthday);
}

#[test]
fn birthday_catches_32_bit_and_clock_seeds_and_passes_chacha8() {
    let seed32 = tally("fisher-yates", 52, 1_000_000, "seed32", 7, "birthday");
    let pairs = seed32.deals().unwrap().pairs();
    // About 116 expected: Poisson band ±4 sd.
    assert!(
        (pairs as f64 - 116.4).abs() < 4.0 * 116.4f64.sqrt(),
        "{pairs}"
    );
    assert!(birthday(&seed32) < -100.0);
    let clock = tally("fisher-yates", 52, 200_000, "clock-ms", 7, "birthday");
    assert!(birthday(&clock) < -100.0);
    let good = tally("fisher-yates", 52, 1_000_000, "chacha8", 7, "birthday");
    assert_eq!(good.deals().unwrap().pairs(), 0);
    assert!(birthday(&good) > -3.0);
}

/// Above n = 170 n! overflows: the null is then the 64-bit hashes'
/// coincidences, and a clock-seeded dealer (a few hundred distinct seeds)
/// is still caught; a fair one passes.
#[test]
fn birthday_catches_repeats_where_n_factorial_overflows() {
    let clock = tally("fisher-yates", 200, 20_000, "clock-ms", 7, "birthday");
    assert!(clock.deals().unwrap().pairs() > 0);
    assert!(birthday(&clock) < -100.0, "{}", birthday(&clock));
    let good = tally("fisher-yates", 200, 20_000, "chacha8", 7, "birthday");
    assert_eq!(good.deals().unwrap().pairs(), 0);
    assert!(birthday(&good) > -3.0);
}

#[test]
fn serial_catches_clock_seeded_deals_and_passes_chacha8() {
    let clock = tally("fisher-yates", 52, 200_000, "clock-ms", 3, "serial");
    assert!(serial(&clock) < -100.0, "{}", serial(&clock));
    let good = tally("fisher-yates", 52, 200_000, "chacha8", 3, "serial");
    assert!(serial(&good) > -3.0);
    // Fisher–Yates under seed32 deals are independent: serial passes.
    let seed32 = tally("fisher-yates", 52, 200_000, "seed32", 3, "serial");
    assert!(serial(&seed32) > -3.0);
}

#[test]
fn clumping_catches_local_shuffles_and_few_riffles() {
    let window = tally("window-shuffle:w=4", 52, 100_000, "chacha8", 5, "clumping");
    assert!(clumping(&window) < -100.0, "{}", clumping(&window));
    let riffle = tally("riffle:k=3", 52, 100_000, "chacha8", 5, "clumping");
    assert!(clumping(&riffle) < -10.0, "{}", clumping(&riffle));
    let good = tally("fisher-yates", 52, 100_000, "chacha8", 5, "clumping");
    assert!(clumping(&good) > -3.0);
}

/// An outside file in which each deck is the previous one with one swap:
/// every deck alone is as random as its swaps make it, but the serial test
/// fails it through the CLI (exit code 1, `biased`), counting within each
/// block of the file.
#[test]
fn serial_catches_a_file_of_incremental_decks() {
    let dir = std::env::temp_dir().join(format!("serial-incremental-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("decks.txt");
    let mut deck: Vec<u32> = (0..20).collect();
    let mut text = String::new();
    let mut state = 12345u64;
    for _ in 0..20_000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (i, j) = ((state >> 33) as usize % 20, (state >> 45) as usize % 20);
        deck.swap(i, j);
        let line: Vec<String> = deck.iter().map(u32::to_string).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
        .args(["audit", "--input"])
        .arg(&path)
        .args(["--tests", "serial", "--json", "--out"])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"serial\""), "{stdout}");
    assert!(stdout.contains("biased"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}
