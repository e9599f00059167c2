//! The position-by-value test is calibrated: over many independent audits of
//! a fair shuffle its p-values are uniform and it rejects at the stated rate;
//! the uncorrected textbook statistic is not, and this check catches it.

use rayon::prelude::*;
use shuffle_audit::audit::{self, Kind, Spec, no_progress};
use shuffle_audit::shuffle::{Algorithm, ShuffleOptions, Shuffles, TestKind, TestSet};
use shuffle_audit::source::SourceKind;
use shuffle_audit::stats::PositionValueStats;
use shuffle_audit::stats::special::{binomial_band, chi2_sf, ks_uniform};

const AUDITS: u64 = 1000;
const ALPHA: f64 = 0.01;
/// Level of the KS check on the p-values themselves.
const KS_LEVEL: f64 = 0.001;

/// Runs `AUDITS` independent audits of fisher-yates at `n` with `trials` each
/// (seeds 0, 1, 2, ...) and returns their tests.
fn audits(n: usize, trials: u64) -> Vec<PositionValueStats> {
    (0..AUDITS)
        .into_par_iter()
        .map(|seed| {
            let seed = 1_000_000 * n as u64 + seed;
            let spec = Spec::<Shuffles> {
                options: ShuffleOptions::with_tests(TestSet::position_value()),
                ..Spec::new(
                    Algorithm::FisherYates,
                    n,
                    trials,
                    SourceKind::Chacha8.into(),
                    seed,
                )
            };
            PositionValueStats::run(&Shuffles::count(&spec, spec.chunks(), &no_progress).unwrap())
        })
        .collect()
}

/// Asserts that `p_values` look like a sample of U(0, 1): KS not rejected and
/// the rejection count at α inside its binomial 99.9% band.
fn assert_calibrated(label: &str, p_values: &[f64]) {
    let ks = ks_uniform(p_values);
    let rejections = p_values.iter().filter(|&&p| p <= ALPHA).count() as u64;
    let (lo, hi) = binomial_band(AUDITS, ALPHA, 0.999);
    println!(
        "{label}: KS D = {:.4}, p = {:.4}; rejections at {ALPHA}: {rejections} (band {lo}..={hi})",
        ks.statistic, ks.p_value
    );
    assert!(
        ks.p_value > KS_LEVEL,
        "{label}: p-values not uniform: {ks:?}"
    );
    assert!(
        (lo..=hi).contains(&rejections),
        "{label}: {rejections} rejections at alpha {ALPHA}, outside {lo}..={hi}"
    );
}

/// Asserts that `p_values` are clearly NOT uniform.
fn assert_miscalibrated(label: &str, p_values: &[f64]) {
    let ks = ks_uniform(p_values);
    println!(
        "{label}: KS D = {:.4}, p = {:.3e}",
        ks.statistic, ks.p_value
    );
    assert!(
        ks.p_value < 1e-6,
        "{label}: expected miscalibration, got {ks:?}"
    );
}

fn check(n: usize, trials: u64) {
    let tests = audits(n, trials);
    let calibrated: Vec<f64> = tests.iter().map(|t| t.p_value()).collect();
    assert_calibrated(&format!("n = {n}, calibrated Q"), &calibrated);
    let textbook: Vec<f64> = tests.iter().map(|t| chi2_sf(t.pearson, t.df)).collect();
    assert_miscalibrated(&format!("n = {n}, textbook X^2"), &textbook);
}

#[test]
fn calibrated_at_n_3() {
    check(3, 2_000);
}

#[test]
fn calibrated_at_n_5() {
    check(5, 2_000);
}

#[test]
fn calibrated_at_n_10() {
    check(10, 2_000);
}

#[test]
fn calibrated_at_n_52() {
    check(52, 5_000);
}

/// Every other test is calibrated too: over 1,000 fair audits each test's
/// p-values are uniform and reject at the stated rate. `n` and `trials` pick
/// the regime: dense chi-square (n = 5, 8), pooled sparse categories
/// (n = 52), and the sparse whole-permutation paths (collision moments at
/// n = 7, Monte Carlo at n = 4).
fn check_tests(n: usize, trials: u64, tests: &str) {
    let tests = TestSet::parse(tests, n).unwrap();
    let audits: Vec<_> = (0..AUDITS)
        .into_par_iter()
        .map(|seed| {
            let seed = 7_000_000 + 1_000 * n as u64 + seed;
            let spec = Spec::<Shuffles> {
                options: ShuffleOptions::with_tests(tests.clone()),
                ..Spec::new(
                    Algorithm::FisherYates,
                    n,
                    trials,
                    SourceKind::Chacha8.into(),
                    seed,
                )
            };
            audit::run(&spec, 0.01, &no_progress).unwrap()
        })
        .collect();
    for kind in tests.iter() {
        let p: Vec<f64> = audits
            .iter()
            .map(|a| 10f64.powf(a.test(kind).unwrap().log10_p))
            .collect();
        let label = format!("n = {n}, T = {trials}, {kind}");
        if kind == TestKind::Serial {
            // An exact sign test on small integer weights: its p-values are
            // discrete (atoms of a few per cent at n = 5), so KS rejects
            // their uniformity although the test holds its level; the
            // rejection count alone is checked (tests/sequence_tests.rs
            // checks the level at many n and T).
            let rejections = p.iter().filter(|&&x| x <= ALPHA).count() as u64;
            let (lo, hi) = binomial_band(AUDITS, ALPHA, 0.999);
            println!("{label}: rejections at {ALPHA}: {rejections} (band {lo}..={hi})");
            assert!((lo..=hi).contains(&rejections), "{label}: {rejections}");
            continue;
        }
        assert_calibrated(&label, &p);
    }
}

#[test]
fn structure_tests_are_calibrated_at_n_5() {
    check_tests(5, 2_000, "all");
}

#[test]
fn structure_tests_are_calibrated_at_n_8() {
    check_tests(
        8,
        2_000,
        "fixed-points,cycles,rising-sequences,lehmer,lehmer-pairs",
    );
}

#[test]
fn structure_tests_are_calibrated_at_n_52_with_pooling() {
    check_tests(
        52,
        500,
        "fixed-points,cycles,rising-sequences,lehmer,lehmer-pairs",
    );
}

#[test]
fn sparse_permutation_test_is_calibrated() {
    // 5040 permutations, 5,000 trials: collisions (about 2,480 expected)
    // against their moment-matched (shifted-gamma) law; fewer trials make the
    // count so discrete that its p-values visibly step. The small-α tail of
    // every sparse path is checked in tests/calibration_sparse.rs.
    check_tests(7, 5_000, "permutation");
    // 24 permutations, 60 trials: sequential Monte Carlo p-values.
    check_tests(4, 60, "permutation");
}
