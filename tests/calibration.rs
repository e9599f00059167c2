//! The position-by-value test is calibrated: over many independent audits of
//! a fair shuffle its p-values are uniform and it rejects at the stated rate;
//! the uncorrected textbook statistic is not, and this check catches it.

use rayon::prelude::*;
use shuffle_audit::algorithm::Algorithm;
use shuffle_audit::engine::{self, RunSpec, no_progress};
use shuffle_audit::source::SourceKind;
use shuffle_audit::stats::PositionValueTest;
use shuffle_audit::stats::special::{binomial_band, chi2_sf, ks_uniform};

const AUDITS: u64 = 1000;
const ALPHA: f64 = 0.01;
/// Level of the KS check on the p-values themselves.
const KS_LEVEL: f64 = 0.001;

/// Runs `AUDITS` independent audits of fisher-yates at `n` with `trials` each
/// (seeds 0, 1, 2, ...) and returns their tests.
fn audits(n: usize, trials: u64) -> Vec<PositionValueTest> {
    (0..AUDITS)
        .into_par_iter()
        .map(|seed| {
            let spec = RunSpec {
                algorithm: Algorithm::FisherYates,
                n,
                trials,
                source: SourceKind::Chacha8.into(),
                seed: 1_000_000 * n as u64 + seed,
                threads: None,
            };
            PositionValueTest::run(&engine::run(&spec, &no_progress).unwrap())
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
    let calibrated: Vec<f64> = tests.iter().map(|t| t.p_value).collect();
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
